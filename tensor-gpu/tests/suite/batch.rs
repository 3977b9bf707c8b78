//! `; batch = k` on a GPU tensor against tensor-core's batched calls on the
//! CPU: results bit for bit (float sums of duplicates included), errors
//! equal, and on error the GPU tensor unchanged. Shapes exceed one cube
//! (256 units) where it matters.

use crate::common::{InAnyMode, Lcg, assert_same, assert_same_outcome, floats, upload};
use ndarray::{Array, Array1, ArrayD, IxDyn, array, s};
use tensor_at::{at, try_at};
use tensor_core::backend::AnyMode;
use tensor_core::error::BatchPart;
use tensor_core::index::{IndexElem, PySlice};
use tensor_core::value::{IntoValue, Value};
use tensor_core::{IndexError, Op, along, ix, nd};
use tensor_gpu::{Gpu, GpuElement, GpuError, GpuTensor};

/// `x[index]` with `batch` batch axes on both backends: whether it
/// succeeded (the same on both).
#[must_use]
#[track_caller]
fn get_both<T: GpuElement>(gpu: &Gpu, x: &ArrayD<T>, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>, what: &str) -> bool {
    let cpu = tensor_core::backend::get_batched(x, index, batch, mode).map(|read| read.into_owned());
    let gpu_result = upload(gpu, x).get_batched_in(index, batch, mode);
    let read = assert_same_outcome(&gpu_result, &cpu, what);
    if read {
        assert_same(&gpu_result.unwrap().to_array().unwrap(), &cpu.unwrap(), what);
    }
    read
}

/// `x[index] = value` with `batch` batch axes on both backends; on error,
/// the GPU tensor is `x`. Whether it succeeded.
#[must_use]
#[track_caller]
fn set_both<T: GpuElement>(
    gpu: &Gpu,
    x: &ArrayD<T>,
    index: &[IndexElem<'_>],
    batch: usize,
    value: Value<'_, T>,
    mode: AnyMode<T>,
    what: &str,
) -> bool {
    let mut cpu = x.clone();
    let cpu_result = tensor_core::backend::set_batched(&mut cpu, index, batch, value.clone(), mode);
    let mut g = upload(gpu, x);
    let gpu_result = g.set_batched_in(index, batch, value, mode);
    let written = assert_same_outcome(&gpu_result, &cpu_result, what);
    let after = g.to_array().unwrap();
    assert_same(&after, &cpu, what);
    if !written {
        assert_same(&after, x, &format!("{what}: unchanged on error"));
    }
    written
}

/// `x[index] op= value` with `batch` batch axes on both backends; on
/// error, the GPU tensor is `x`. Whether it succeeded.
#[must_use]
#[allow(clippy::too_many_arguments)]
#[track_caller]
fn update_both<T: GpuElement>(
    gpu: &Gpu,
    x: &ArrayD<T>,
    index: &[IndexElem<'_>],
    batch: usize,
    op: Op,
    value: Value<'_, T>,
    mode: AnyMode<T>,
    what: &str,
) -> bool {
    let mut cpu = x.clone();
    let cpu_result = tensor_core::backend::update_batched(&mut cpu, index, batch, op, value.clone(), mode);
    let mut g = upload(gpu, x);
    let gpu_result = g.update_batched_in(index, batch, op, value, mode);
    let written = assert_same_outcome(&gpu_result, &cpu_result, what);
    let after = g.to_array().unwrap();
    assert_same(&after, &cpu, what);
    if !written {
        assert_same(&after, x, &format!("{what}: unchanged on error"));
    }
    written
}

fn ints(shape: &[usize], seed: u64) -> ArrayD<i32> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(IxDyn(shape), || rng.below(2000) as i32 - 1000)
}

/// Indices in `-bound..bound` (negative ones count from the end).
fn indices(shape: &[usize], bound: i64, seed: u64) -> ArrayD<i64> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(IxDyn(shape), || rng.below(2 * bound as u64) as i64 - bound)
}

/// Indices in `-bound..bound + over` (some out of bounds for `over > 0`).
fn wild_indices(shape: &[usize], bound: i64, over: i64, seed: u64) -> ArrayD<i64> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(IxDyn(shape), || rng.below((2 * bound + over) as u64) as i64 - bound)
}

#[test]
fn gather_with_batch_dims_same_as_cpu() {
    let gpu = device!();
    // tf.gather(x, idx, batch_dims=1), duplicates and negative indices.
    let x = floats(&[3, 5, 2], 1);
    let idx = array![[0i64, 4, 4, -1], [-5, 2, 2, 2], [1, -2, 3, 1]];
    assert!(get_both(&gpu, &x, &[ix(&idx)], 1, AnyMode::Error, "tf.gather(batch_dims=1)"));
    // Beyond one cube: 8 batches of 60 picks of rows of 3.
    let x = floats(&[8, 40, 3], 2);
    let idx = indices(&[8, 60], 40, 3);
    assert!(get_both(&gpu, &x, &[ix(&idx)], 1, AnyMode::Error, "x[idx], batch 1"));
    assert!(get_both(
        &gpu,
        &x,
        &[ix(&idx), ix(PySlice::new(None, None, Some(-2)))],
        1,
        AnyMode::Error,
        "x[idx, ::-2]"
    ));
    assert!(get_both(&gpu, &x, &[ix(..), ix(-1)], 1, AnyMode::Error, "x[:, -1], basic"));
    let columns = indices(&[8, 2, 5], 3, 4);
    assert!(get_both(
        &gpu,
        &x,
        &[ix(2..30), ix(&columns)],
        1,
        AnyMode::Error,
        "x[2..30, idx]: a slice beside"
    ));
    // One index per batch: each batch reads `x[b, idx[b]]` (a view of each
    // batch, stacked).
    let one = indices(&[8], 40, 5);
    assert!(get_both(
        &gpu,
        &x,
        &[ix(&one)],
        1,
        AnyMode::Error,
        "x[idx] with one index per batch"
    ));
    // Integers.
    let x = ints(&[4, 70], 6);
    let idx = indices(&[4, 90], 70, 7);
    assert!(get_both(&gpu, &x, &[ix(&idx)], 1, AnyMode::Error, "i32 x[idx]"));
}

#[test]
fn vmapped_add_sums_duplicates_bitwise() {
    let gpu = device!();
    // Few destinations, many occurrences of each, varied exponents: any
    // other order of the sums rounds differently.
    let x = floats(&[5, 12], 8);
    let idx = indices(&[5, 400], 12, 9);
    let values = floats(&[5, 400], 10);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "vmap .at[].add"
    ));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Sub,
        0.125.into_value(),
        AnyMode::Error,
        "vmap .at[].add, scalar"
    ));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Mul,
        (&values).into_value(),
        AnyMode::Error,
        "vmap .at[].multiply"
    ));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Max,
        (&values).into_value(),
        AnyMode::Error,
        "vmap .at[].max"
    ));
    // Rows: x[b][idx[b], :] += v[b].
    let x = floats(&[3, 10, 20], 11);
    let idx = indices(&[3, 50], 10, 12);
    let rows = floats(&[3, 50, 20], 13);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Add,
        (&rows).into_value(),
        AnyMode::Error,
        "vmap of rows .at[].add"
    ));
    let x = ints(&[4, 9], 14);
    let idx = indices(&[4, 300], 9, 15);
    let values = ints(&[4, 300], 16);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "i32 vmap .at[].add"
    ));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Min,
        (&values).into_value(),
        AnyMode::Error,
        "i32 vmap .at[].min"
    ));
}

#[test]
fn vmapped_set_keeps_the_last_duplicate() {
    let gpu = device!();
    let x = floats(&[6, 15], 17);
    let idx = indices(&[6, 200], 15, 18);
    let values = floats(&[6, 200], 19);
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&values).into_value(),
        AnyMode::Error,
        "vmap .at[].set"
    ));
    // Every occurrence of a destination but the last has a value that
    // differs: the last wins in each batch.
    let x = ints(&[2, 3], 20);
    let idx = array![[2i64, 0, 2, 2], [1, 1, -2, 0]];
    let values = array![[1, 2, 3, 4], [5, 6, 7, 8]];
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&values).into_value(),
        AnyMode::Error,
        "last wins"
    ));
    let mut g = upload(&gpu, &x);
    g.set_batched_in(&[ix(&idx)], 1, &values, AnyMode::Error).unwrap();
    let expected = array![[2, x[[0, 1]], 4], [8, 7, x[[1, 2]]]].into_dyn();
    assert_eq!(g.to_array().unwrap(), expected);
}

#[test]
fn gather_nd_and_along_with_a_batch() {
    let gpu = device!();
    // gather_nd(x, idx, batch_dims=1): each batch picks (j, k) pairs.
    let x = floats(&[4, 6, 7, 3], 21);
    let mut rng = Lcg(22);
    let pairs = Array::from_shape_fn((4, 30, 2), |(_, _, c)| rng.below([6, 7][c]) as i64 - [0, 3][c]).into_dyn();
    assert!(get_both(&gpu, &x, &[ix(nd(&pairs))], 1, AnyMode::Error, "gather_nd(batch_dims=1)"));
    let values = floats(&[4, 30, 3], 23);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(nd(&pairs))],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "scatter_nd_add with a batch"
    ));
    assert!(set_both(
        &gpu,
        &x,
        &[ix(nd(&pairs))],
        1,
        (&values).into_value(),
        AnyMode::Error,
        "scatter_nd_update with a batch"
    ));
    // along(idx, -1) in each batch's x[b].
    let x = floats(&[3, 5, 40], 24);
    let idx = indices(&[3, 5, 60], 40, 25);
    assert!(get_both(
        &gpu,
        &x,
        &[ix(along(&idx, -1))],
        1,
        AnyMode::Error,
        "along(idx, -1), batch 1"
    ));
    assert!(get_both(
        &gpu,
        &x,
        &[ix(along(&idx, -1))],
        1,
        AnyMode::Fill(-9.0),
        "along(idx, -1), fill"
    ));
    let values = floats(&[3, 5, 60], 26);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(along(&idx, -1))],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "along += v, batch 1"
    ));
}

#[test]
fn batched_masks_select_their_own_counts() {
    let gpu = device!();
    let x = floats(&[5, 80], 27);
    // Each batch selects a different number of elements.
    let mask = Array::from_shape_fn((5, 80), |(b, j)| j % (b + 2) == 0).into_dyn();
    let counts: Vec<usize> = mask.outer_iter().map(|row| row.iter().filter(|&&m| m).count()).collect();
    assert!(counts.windows(2).all(|pair| pair[0] != pair[1]), "{counts:?}");
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&mask)],
        1,
        Op::Add,
        10.0.into_value(),
        AnyMode::Error,
        "x[mask] += 10, batch 1"
    ));
    let per_batch = floats(&[5, 1], 28);
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&mask)],
        1,
        (&per_batch).into_value(),
        AnyMode::Error,
        "x[mask] = v[b], batch 1"
    ));
    // A mask over the batch's leading axis, beside a slice.
    let x = ints(&[3, 6, 50], 29);
    let rows = array![
        [true, false, true, true, false, false],
        [false, false, false, false, false, false],
        [true, true, true, true, true, true]
    ]
    .into_dyn();
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&rows), ix(1..40)],
        1,
        Op::Mul,
        3.into_value(),
        AnyMode::Error,
        "x[rows, 1..40] *= 3"
    ));
    // A read through a mask does not stack: refused, as on the CPU.
    assert!(!get_both(&gpu, &x, &[ix(&rows)], 1, AnyMode::Error, "batched mask read"));
    let error = upload(&gpu, &x).get_batched_in(&[ix(&rows)], 1, AnyMode::Error).unwrap_err();
    assert_eq!(error, GpuError::Index(IndexError::BatchedMaskRead));
}

#[test]
fn two_batch_axes_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[2, 3, 30, 4], 30);
    let idx = indices(&[2, 3, 50], 30, 31);
    assert!(get_both(&gpu, &x, &[ix(&idx)], 2, AnyMode::Error, "x[idx], batch 2"));
    assert!(get_both(
        &gpu,
        &x,
        &[ix(&idx), ix(PySlice::new(Some(1), None, None))],
        2,
        AnyMode::Error,
        "x[idx, 1:], batch 2"
    ));
    let values = floats(&[2, 3, 50, 4], 32);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        2,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "x[idx] += v, batch 2"
    ));
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        2,
        (&values).into_value(),
        AnyMode::Error,
        "x[idx] = v, batch 2"
    ));
    // Basic indices under two batch axes: one view.
    assert!(get_both(
        &gpu,
        &x,
        &[ix(tensor_core::index::Ellipsis), ix(2)],
        2,
        AnyMode::Error,
        "x[..., 2], batch 2"
    ));
    assert!(set_both(
        &gpu,
        &x,
        &[ix(3..9), ix(-1)],
        2,
        0.5.into_value(),
        AnyMode::Error,
        "x[3..9, -1] = 0.5, batch 2"
    ));
}

#[test]
fn length_one_batch_axes_broadcast() {
    let gpu = device!();
    let x = floats(&[4, 25, 3], 33);
    // One index row for every batch.
    let shared = indices(&[1, 40], 25, 34);
    assert!(get_both(&gpu, &x, &[ix(&shared)], 1, AnyMode::Error, "index batch axis of 1, read"));
    let values = floats(&[4, 40, 3], 35);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&shared)],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "index batch axis of 1, +="
    ));
    // One value row for every batch.
    let idx = indices(&[4, 40], 25, 36);
    let one_row = floats(&[1, 40, 3], 37);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Add,
        (&one_row).into_value(),
        AnyMode::Error,
        "value batch axis of 1, +="
    ));
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&one_row).into_value(),
        AnyMode::Error,
        "value batch axis of 1, ="
    ));
    // Both, and a value broadcast within each batch too.
    let column = floats(&[1, 1, 3], 38);
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&shared)],
        1,
        Op::Sub,
        (&column).into_value(),
        AnyMode::Error,
        "both of 1"
    ));
    // Two batch axes, the index broadcasting along the second.
    let x = ints(&[2, 3, 20], 39);
    let idx = indices(&[2, 1, 30], 20, 40);
    assert!(get_both(&gpu, &x, &[ix(&idx)], 2, AnyMode::Error, "second batch axis of 1"));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        2,
        Op::Add,
        1.into_value(),
        AnyMode::Error,
        "second batch axis of 1, += 1"
    ));
}

#[test]
fn modes_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[5, 30, 2], 41);
    let idx = wild_indices(&[5, 70], 30, 20, 42);
    assert!(idx.iter().any(|&i| i >= 30), "some indices out of bounds");
    let values = floats(&[5, 70, 2], 43);
    for mode in [
        AnyMode::Error,
        AnyMode::Clip,
        AnyMode::Wrap,
        AnyMode::Fill(f32::NAN),
        AnyMode::Fill(-0.0),
    ] {
        // Mode `error` meets the indices out of bounds.
        let read = get_both(&gpu, &x, &[ix(&idx)], 1, mode, &format!("read, {mode:?}"));
        assert_eq!(read, !matches!(mode, AnyMode::Error), "{mode:?}");
    }
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Drop] {
        let expected = !matches!(mode, AnyMode::Error);
        assert_eq!(
            update_both(
                &gpu,
                &x,
                &[ix(&idx)],
                1,
                Op::Add,
                (&values).into_value(),
                mode,
                &format!("+=, {mode:?}")
            ),
            expected
        );
        assert_eq!(
            set_both(&gpu, &x, &[ix(&idx)], 1, (&values).into_value(), mode, &format!("=, {mode:?}")),
            expected
        );
    }
    // The mode applies to each batch's own axes.
    let x = ints(&[3, 4], 44);
    let idx = array![[0i64, 9], [-5, 3], [4, 1]];
    let mut g = upload(&gpu, &x);
    let filled = g.get_batched_in(&[ix(&idx)], 1, AnyMode::Fill(-1)).unwrap().to_array().unwrap();
    assert_eq!(filled, array![[x[[0, 0]], -1], [-1, x[[1, 3]]], [-1, x[[2, 1]]]].into_dyn());
    g.set_batched_in(&[ix(&idx)], 1, 7, AnyMode::Drop).unwrap();
    let mut expected = x.clone();
    for at in [[0, 0], [1, 3], [2, 1]] {
        expected[at] = 7;
    }
    assert_eq!(g.to_array().unwrap(), expected);
    // Modes refused for the access they do not apply to.
    assert!(!get_both(&gpu, &x, &[ix(&idx)], 1, AnyMode::Drop, "read in mode drop"));
    assert!(!set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        1.into_value(),
        AnyMode::Fill(0),
        "write in mode fill"
    ));
}

#[test]
fn errors_in_any_batch_leave_the_tensor_unchanged() {
    let gpu = device!();
    let x = floats(&[4, 20], 45);
    // Out of bounds in the last batch only.
    let mut late = indices(&[4, 30], 20, 46);
    late[[3, 29]] = 20;
    let values = floats(&[4, 30], 47);
    assert!(!set_both(
        &gpu,
        &x,
        &[ix(&late)],
        1,
        (&values).into_value(),
        AnyMode::Error,
        "out of bounds in the last batch, ="
    ));
    assert!(!update_both(
        &gpu,
        &x,
        &[ix(&late)],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "out of bounds in the last batch, +="
    ));
    assert!(!get_both(
        &gpu,
        &x,
        &[ix(&late)],
        1,
        AnyMode::Error,
        "out of bounds in the last batch, read"
    ));
    let mut g = upload(&gpu, &x);
    let error = g.update_batched_in(&[ix(&late)], 1, Op::Add, &values, AnyMode::Error).unwrap_err();
    assert_eq!(
        error,
        GpuError::Index(IndexError::OutOfBounds {
            index: 20,
            axis: 0,
            len: 20
        })
    );
    assert_same(&g.to_array().unwrap(), &x, "unchanged after an error in the last batch");
    // Batch sizes that do not pair.
    let three = indices(&[3, 30], 20, 48);
    assert!(!update_both(
        &gpu,
        &x,
        &[ix(&three)],
        1,
        Op::Add,
        1.0.into_value(),
        AnyMode::Error,
        "index batch of 3 for 4"
    ));
    let error = g.update_batched_in(&[ix(&three)], 1, Op::Add, 1.0, AnyMode::Error).unwrap_err();
    let mismatch = IndexError::BatchShape {
        part: BatchPart::Index(0),
        axis: 0,
        len: 3,
        expected: 4,
    };
    assert_eq!(error, GpuError::Index(mismatch));
    let idx = indices(&[4, 30], 20, 49);
    let two_rows = floats(&[2, 30], 50);
    assert!(!set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&two_rows).into_value(),
        AnyMode::Error,
        "value batch of 2 for 4"
    ));
    assert!(!get_both(
        &gpu,
        &x,
        &[ix(&idx)],
        3,
        AnyMode::Error,
        "more batch axes than the target has"
    ));
    let flat = Array1::from_elem(4, 0i64).into_dyn();
    assert!(!get_both(
        &gpu,
        &x,
        &[ix(&flat), ix(&idx)],
        1,
        AnyMode::Error,
        "second index's error"
    ));
    // Value shapes and operands, checked in every batch first.
    let short = floats(&[4, 29], 51);
    assert!(!set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&short).into_value(),
        AnyMode::Error,
        "value shape in each batch"
    ));
    let x = ints(&[3, 10], 52);
    let idx = indices(&[3, 4], 10, 53);
    let mut divisors = Array::from_elem((3, 4), 2).into_dyn();
    divisors[[2, 3]] = 0;
    assert!(!update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Div,
        (&divisors).into_value(),
        AnyMode::Error,
        "division by zero in the last batch"
    ));
    assert!(!update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Pow,
        (-1).into_value(),
        AnyMode::Error,
        "negative integer power"
    ));
    // Float powers are refused before anything else.
    let mut g = upload(&gpu, &floats(&[2, 3], 54));
    let error = g.update_batched_in(&[ix(&three)], 1, Op::Pow, 2.0, AnyMode::Error).unwrap_err();
    assert!(matches!(error, GpuError::Unsupported { operation: "pow", .. }), "{error}");
}

#[test]
fn empty_batches_and_batch_zero() {
    let gpu = device!();
    // No batch position: the shape any batch would read.
    let nothing = ArrayD::<i32>::zeros(IxDyn(&[0, 3]));
    let empty = ArrayD::<i64>::zeros(IxDyn(&[0, 1]));
    assert!(get_both(&gpu, &nothing, &[ix(&empty)], 1, AnyMode::Error, "no batch position"));
    let read = upload(&gpu, &nothing).get_batched_in(&[ix(&empty)], 1, AnyMode::Error).unwrap();
    assert_eq!(read.shape(), &[0, 1]);
    assert!(get_both(&gpu, &nothing, &[ix(5)], 1, AnyMode::Error, "no batch position, basic"));
    assert!(set_both(
        &gpu,
        &nothing,
        &[ix(&empty)],
        1,
        1.into_value(),
        AnyMode::Error,
        "no batch position, ="
    ));
    // Batch 0 is the plain call.
    let x = floats(&[6, 7], 55);
    let idx = indices(&[9], 6, 56);
    assert!(get_both(&gpu, &x, &[ix(&idx), ix(-2)], 0, AnyMode::Error, "batch 0"));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        0,
        Op::Add,
        1.5.into_value(),
        AnyMode::Error,
        "batch 0, +="
    ));
}

#[test]
fn batches_of_a_reversed_view() {
    let gpu = device!();
    let x = floats(&[6, 20, 3], 57);
    let g = upload(&gpu, &x);
    let reverse = [
        ix(PySlice::new(None, None, Some(-1))),
        ix(PySlice::new(Some(18), Some(1), Some(-2))),
    ];
    let view = g.view(&reverse).unwrap();
    let cpu_view = x.slice(s![..;-1, 2..=18;-2, ..]).to_owned();
    let idx = indices(&[6, 25], 9, 58);
    let values = floats(&[6, 25, 3], 59);
    let read = view.get_batched_in(&[ix(&idx)], 1, AnyMode::Error).unwrap();
    let expected = tensor_core::backend::get_batched(&cpu_view, &[ix(&idx)], 1, AnyMode::Error)
        .unwrap()
        .into_owned();
    assert_same(&read.to_array().unwrap(), &expected, "read of a reversed view's batches");
    let mut view = view;
    view.update_batched_in(&[ix(&idx)], 1, Op::Add, &values, AnyMode::Error).unwrap();
    let mut cpu_x = x.clone();
    let mut cpu_view = cpu_x.slice_mut(s![..;-1, 2..=18;-2, ..]);
    tensor_core::backend::update_batched(&mut cpu_view, &[ix(&idx)], 1, Op::Add, &values, AnyMode::Error).unwrap();
    assert_same(&g.to_array().unwrap(), &cpu_x, "writes through a reversed view's batches");
}

#[test]
fn macros_with_a_batch_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[4, 30, 2], 60);
    let g = upload(&gpu, &x);
    let idx = indices(&[4, 50], 30, 61);
    let v = floats(&[4, 50, 2], 62);
    let read = |t: &GpuTensor<f32>| t.to_array().unwrap();
    assert_same(
        &read(&at!(g[idx]; batch = 1)),
        &at!(x[idx]; batch = 1).into_dyn(),
        "at!(x[idx]; batch = 1)",
    );
    assert_same(
        &read(&at!(g[idx, -1]; batch = 1, mode = fill(0.5))),
        &at!(x[idx, -1]; batch = 1, mode = fill(0.5)).into_dyn(),
        "fill",
    );
    assert_same(
        &read(&at!(g[..., 1]; batch = 1)),
        &at!(x[..., 1]; batch = 1).to_owned().into_dyn(),
        "basic",
    );
    both!(gpu, x, |t| at!(t[idx] += v; batch = 1));
    both!(gpu, x, |t| at!(t[idx] = v; batch = 1));
    both!(gpu, x, |t| at!(t[idx, 0].max(0.25); batch = 1, mode = clip));
    both!(gpu, x, |t| at!(t[1:, 0] = 0.0; batch = 1));
    let mask = x.mapv(|e| e > 0.3);
    both!(gpu, x, |t| at!(t[mask] += 10.0; batch = 1));
    let mut late = idx.clone();
    late[[3, 49]] = 99;
    let (cpu, on_gpu) = both!(gpu, x, |t| try_at!(t[late] += v; batch = 1));
    assert_eq!(on_gpu.unwrap_err(), GpuError::Index(cpu.unwrap_err()));
    assert_same(&read(&g), &x, "the tensor is unchanged");
}

#[test]
fn batches_as_one_index_keep_each_batch_in_place() {
    let gpu = device!();
    // Many batches, each as tensor-core's loop over batches would write it
    // and as the element written out by hand says. As many picks as the
    // middle axis is long: axes in the wrong order would have the right
    // shape.
    let (b, d, n) = (600, 4, 5);
    let x = ints(&[b, d, n], 60);
    let idx = indices(&[b, 4], n as i64, 61);
    let at_idx = |i: usize, k: usize| idx[[i, k]].rem_euclid(n as i64) as usize;

    // x[b][:, idx[b]] and x[b][..., idx[b]]: shape (d, 4) per batch.
    let expected = Array::from_shape_fn((b, d, 4), |(i, j, k)| x[[i, j, at_idx(i, k)]]).into_dyn();
    for (index, what) in [
        (vec![ix(..), ix(&idx)], "x[:, idx]"),
        (vec![ix(IndexElem::Ellipsis), ix(&idx)], "x[..., idx]"),
    ] {
        assert!(get_both(&gpu, &x, &index, 1, AnyMode::Error, what));
        let read = upload(&gpu, &x).get_batched_in(&index, 1, AnyMode::Error).unwrap();
        assert_eq!(read.to_array().unwrap(), expected, "{what}");
    }
    // x[b][None, jdx[b], idx[b]]: the arrays broadcast to (4,) after the
    // new axis.
    let jdx = indices(&[b, 1], d as i64, 62);
    let pair = [ix(IndexElem::NewAxis), ix(&jdx), ix(&idx)];
    assert!(get_both(&gpu, &x, &pair, 1, AnyMode::Error, "x[None, jdx, idx]"));

    // x[b][1:, idx[b]] = v[b]: the last duplicate wins.
    let v = ints(&[b, d - 1, 4], 63);
    let index = [ix(1..), ix(&idx)];
    assert!(set_both(&gpu, &x, &index, 1, (&v).into_value(), AnyMode::Error, "x[1:, idx] = v"));
    let mut g = upload(&gpu, &x);
    g.set_batched_in(&index, 1, &v, AnyMode::Error).unwrap();
    let mut expected = x.clone();
    for i in 0..b {
        for j in 0..d - 1 {
            for k in 0..4 {
                expected[[i, j + 1, at_idx(i, k)]] = v[[i, j, k]];
            }
        }
    }
    assert_eq!(g.to_array().unwrap(), expected, "x[1:, idx] = v by hand");

    // x[b][:, idx[b]] += row[b], the row broadcast over the slice's axis
    // and the duplicates summed.
    let row = ints(&[b, 1, 4], 64);
    let index = [ix(..), ix(&idx)];
    assert!(update_both(
        &gpu,
        &x,
        &index,
        1,
        Op::Add,
        (&row).into_value(),
        AnyMode::Error,
        "x[:, idx] += row"
    ));
    let mut g = upload(&gpu, &x);
    g.update_batched_in(&index, 1, Op::Add, &row, AnyMode::Error).unwrap();
    let mut expected = x.clone();
    for i in 0..b {
        for j in 0..d {
            for k in 0..4 {
                expected[[i, j, at_idx(i, k)]] += row[[i, 0, k]];
            }
        }
    }
    assert_eq!(g.to_array().unwrap(), expected, "x[:, idx] += row by hand");

    // A bad pick in the last batch: the loop's error, nothing written.
    let mut bad = idx.clone();
    bad[[b - 1, 3]] = n as i64 + 1;
    assert!(!set_both(
        &gpu,
        &x,
        &[ix(1..), ix(&bad)],
        1,
        (&v).into_value(),
        AnyMode::Error,
        "a bad pick"
    ));
    let error = upload(&gpu, &x)
        .set_batched_in(&[ix(1..), ix(&bad)], 1, &v, AnyMode::Error)
        .unwrap_err();
    let expected = IndexError::OutOfBounds {
        index: n as i128 + 1,
        axis: 1,
        len: n,
    };
    assert!(matches!(error, GpuError::Index(ref e) if *e == expected), "{error:?}");

    // One array into batches of one axis (`tf.gather(x, idx, batch_dims=1)`
    // on a matrix, run `along` the last axis): read, `=` and `+=`.
    let x = floats(&[b, 50], 65);
    let idx = indices(&[b, 70], 50, 66);
    let at_idx = |i: usize, k: usize| idx[[i, k]].rem_euclid(50) as usize;
    let read = upload(&gpu, &x).get_batched_in(&[ix(&idx)], 1, AnyMode::Error).unwrap();
    let expected = Array::from_shape_fn((b, 70), |(i, k)| x[[i, at_idx(i, k)]]).into_dyn();
    assert_eq!(read.to_array().unwrap(), expected, "x[idx] along");
    assert!(get_both(&gpu, &x, &[ix(&idx)], 1, AnyMode::Error, "x[idx] along"));
    let values = floats(&[b, 70], 67);
    assert!(set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        (&values).into_value(),
        AnyMode::Error,
        "x[idx] = v along"
    ));
    assert!(update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        1,
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "x[idx] += v along"
    ));
}
