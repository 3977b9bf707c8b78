//! Every kernel family against tensor-core on the CPU (an independent
//! implementation of the same rules): results bit for bit, errors equal,
//! and on error the GPU tensor unchanged. Shapes exceed one cube (256 units).

use crate::common::{InAnyMode, Lcg, assert_same, assert_same_outcome, floats, upload};
use ndarray::{Array, ArrayD, IxDyn, array};
use tensor_core::backend::AnyMode;
use tensor_core::index::{IndexElem, PySlice};
use tensor_core::value::{IntoValue, Value};
use tensor_core::{IndexError, Op, ix};
use tensor_gpu::{Compare, Gpu, GpuElement, GpuError};

/// `x[index] = value` on both backends.
#[track_caller]
fn set_both<T: GpuElement>(gpu: &Gpu, x: &ArrayD<T>, index: &[IndexElem<'_>], value: Value<'_, T>, mode: AnyMode<T>, what: &str) {
    let mut cpu = x.clone();
    let cpu_result = tensor_core::backend::set(&mut cpu, index, value.clone(), mode);
    let mut g = upload(gpu, x);
    let gpu_result = g.set_in(index, value, mode);
    assert_same_outcome(&gpu_result, &cpu_result, what);
    assert_same(&g.to_array().unwrap(), &cpu, what);
}

/// `x[index] op= value` on both backends.
#[track_caller]
fn update_both<T: GpuElement>(
    gpu: &Gpu,
    x: &ArrayD<T>,
    index: &[IndexElem<'_>],
    op: Op,
    value: Value<'_, T>,
    mode: AnyMode<T>,
    what: &str,
) {
    let mut cpu = x.clone();
    let cpu_result = tensor_core::backend::update(&mut cpu, index, op, value.clone(), mode);
    let mut g = upload(gpu, x);
    let gpu_result = g.update_in(index, op, value, mode);
    assert_same_outcome(&gpu_result, &cpu_result, what);
    assert_same(&g.to_array().unwrap(), &cpu, what);
}

/// `x[index]` on both backends.
#[track_caller]
fn get_both<T: GpuElement>(gpu: &Gpu, x: &ArrayD<T>, index: &[IndexElem<'_>], mode: AnyMode<T>, what: &str) {
    let cpu = tensor_core::backend::get(x, index, mode).map(|read| read.into_owned());
    let gpu_result = upload(gpu, x).get_in(index, mode);
    if assert_same_outcome(&gpu_result, &cpu, what) {
        assert_same(&gpu_result.unwrap().to_array().unwrap(), &cpu.unwrap(), what);
    }
}

fn ramp<T: GpuElement>(shape: &[usize]) -> ArrayD<T> {
    let mut next = 0i64;
    Array::from_shape_simple_fn(IxDyn(shape), || {
        next += 1;
        T::from_int(next % 97 + 1)
    })
}

fn indices(count: usize, bound: i64, seed: u64) -> ndarray::Array1<i64> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(count, || rng.below(2 * bound as u64) as i64 - bound)
}

const MODES: [AnyMode<f32>; 3] = [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap];

// ---- copy.rs: strided copy (basic reads, downloads of views) ----

#[test]
fn strided_copy_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[9, 40, 5], 1);
    let cases: Vec<(&str, Vec<IndexElem<'_>>)> = vec![
        (
            "x[1:8:2, ::-3, 2]",
            vec![
                ix(PySlice::new(Some(1), Some(8), Some(2))),
                ix(PySlice::new(None, None, Some(-3))),
                ix(2),
            ],
        ),
        (
            "x[..., None, -1]",
            vec![ix(tensor_core::index::Ellipsis), ix(tensor_core::index::NewAxis), ix(-1)],
        ),
        ("x[3]", vec![ix(3)]),
        ("x[2..9;-2, 5..]", vec![ix(2..9).step_by(-2), ix(5..)]),
        ("x[:, 40:]", vec![ix(..), ix(PySlice::new(Some(40), None, None))]),
        ("x[()]", vec![]),
    ];
    for (what, index) in &cases {
        get_both(&gpu, &x, index, AnyMode::Error, what);
    }
}

#[test]
fn views_share_the_buffer_and_download_with_negative_strides() {
    let gpu = device!();
    let x = floats(&[30, 20], 2);
    let g = upload(&gpu, &x);
    let index = [
        ix(PySlice::new(None, None, Some(-2))),
        ix(PySlice::new(Some(15), Some(2), Some(-1))),
    ];
    let view = g.view(&index).unwrap();
    assert!(view.strides().iter().all(|&s| s < 0));
    let cpu = tensor_core::backend::get(&x, &index, AnyMode::Error).unwrap().into_owned();
    assert_same(&view.to_array().unwrap(), &cpu, "download of a reversed view");

    // Writes through the view land in the viewed tensor, as with ndarray views.
    let mut view = view;
    let mut cpu_x = x.clone();
    let sub = [ix([3, 0, 3]), ix(1..4)];
    let value = floats(&[3, 3], 3);
    view.update_in(&sub, Op::Add, &value, AnyMode::Error).unwrap();
    let mut cpu_view = cpu_x.slice_mut(ndarray::s![..;-2, 3..=15;-1]);
    tensor_core::backend::update(&mut cpu_view, &sub, Op::Add, &value, AnyMode::Error).unwrap();
    assert_same(&g.to_array().unwrap(), &cpu_x, "writes through a reversed view");
    assert!(matches!(
        g.view(&[ix([0, 1])]),
        Err(GpuError::Unsupported { operation: "view", .. })
    ));
}

// ---- copy.rs: strided writes (basic set and updates) ----

#[test]
fn strided_write_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[12, 33, 4], 4);
    let index = [
        ix(PySlice::new(Some(1), None, Some(3))),
        ix(PySlice::new(None, None, Some(-1))),
        ix(1..3),
    ];
    set_both(&gpu, &x, &index, 0.5f32.into_value(), AnyMode::Error, "fill");
    set_both(
        &gpu,
        &x,
        &index,
        floats(&[1, 33, 2], 5).into_value(),
        AnyMode::Error,
        "broadcast rows",
    );
    set_both(
        &gpu,
        &x,
        &index,
        floats(&[1, 1, 4, 33, 2], 6).into_value(),
        AnyMode::Error,
        "leading ones dropped",
    );
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Min, Op::Max] {
        update_both(
            &gpu,
            &x,
            &index,
            op,
            floats(&[4, 1, 2], 7).into_value(),
            AnyMode::Error,
            &format!("{op:?}"),
        );
    }
    let xi = ramp::<i32>(&[50, 9]);
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max] {
        update_both(
            &gpu,
            &xi,
            &[ix(..), ix(PySlice::new(Some(1), None, Some(2)))],
            op,
            3i32.into_value(),
            AnyMode::Error,
            &format!("i32 {op:?}"),
        );
    }
}

// ---- gather.rs ----

#[test]
fn gather_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[20, 30, 3], 8);
    let idx = indices(400, 20, 9);
    let rows = array![[1i64, -2], [19, 0]];
    let mask = x.map(|v| *v > 0.2).index_axis_move(ndarray::Axis(2), 0);
    let cases: Vec<(&str, Vec<IndexElem<'_>>)> = vec![
        ("x[idx]", vec![ix(&idx)]),
        ("x[rows, ::2]", vec![ix(&rows), ix(PySlice::new(None, None, Some(2)))]),
        (
            "x[rows, :, [0, 2]] (advanced apart: dims first)",
            vec![ix(&rows), ix(..), ix([0i64, 2])],
        ),
        ("x[1, 2:5, rows]", vec![ix(1), ix(2..5), ix(array![[0i64, 2], [1, 1]])]),
        ("x[mask]", vec![ix(&mask)]),
        ("x[nd(pairs)]", vec![ix(tensor_core::nd(array![[0i64, 1], [19, 29], [-1, -1]]))]),
    ];
    for mode in MODES {
        for (what, index) in &cases {
            get_both(&gpu, &x, index, mode, &format!("{what} {mode:?}"));
        }
    }
    let out_of_bounds = [ix(array![-25i64, 3, 20, 40]), ix(..)];
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Fill(-7.0), AnyMode::Drop] {
        get_both(&gpu, &x, &out_of_bounds, mode, &format!("out of bounds {mode:?}"));
    }
    get_both(
        &gpu,
        &x,
        &[ix(1), ix(99)],
        AnyMode::Fill(f32::NAN),
        "a basic index out of bounds in mode fill gathers",
    );
}

// ---- scatter_set.rs ----

#[test]
fn scatter_set_last_occurrence_wins_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[5000], 10);
    let idx = indices(20_000, 5000, 11); // about four occurrences per position
    let values = floats(&[20_000], 12);
    set_both(
        &gpu,
        &x,
        &[ix(&idx)],
        (&values).into_value(),
        AnyMode::Error,
        "duplicates, array values",
    );
    set_both(&gpu, &x, &[ix(&idx)], 3.0f32.into_value(), AnyMode::Error, "duplicates, scalar");

    let x2 = floats(&[60, 7, 9], 13);
    let rows = indices(90, 60, 14).into_shape_with_order((30, 3)).unwrap();
    let value = floats(&[3, 7, 1], 15);
    set_both(
        &gpu,
        &x2,
        &[ix(&rows), ix(..), ix(PySlice::new(None, None, Some(-2)))],
        (&value).into_value(),
        AnyMode::Error,
        "table and strided dims",
    );

    let wild = indices(3000, 9000, 16);
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Drop, AnyMode::Fill(0.0)] {
        set_both(
            &gpu,
            &x,
            &[ix(&wild)],
            floats(&[3000], 17).into_value(),
            mode,
            &format!("out of bounds {mode:?}"),
        );
    }
}

// ---- scatter_reduce.rs ----

#[test]
fn scatter_add_float_sums_bitwise_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[300], 18);
    let idx = indices(30_000, 300, 19); // about 100 occurrences per position
    let values = floats(&[30_000], 20);
    // The test can fail: summing in another order rounds differently.
    let forward: f32 = values.iter().step_by(7).fold(0.0, |acc, v| acc + v);
    let backward: f32 = values
        .iter()
        .step_by(7)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .fold(0.0, |acc, v| acc + v);
    assert_ne!(forward.to_bits(), backward.to_bits(), "the values must be order-sensitive");
    update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "float add.at",
    );
    // Same result on every run.
    let mut first = upload(&gpu, &x);
    first.update_in(&[ix(&idx)], Op::Add, &values, AnyMode::Error).unwrap();
    let mut second = upload(&gpu, &x);
    second.update_in(&[ix(&idx)], Op::Add, &values, AnyMode::Error).unwrap();
    assert_same(&first.to_array().unwrap(), &second.to_array().unwrap(), "two runs");
}

#[test]
fn scatter_reduce_every_op_same_as_cpu() {
    let gpu = device!();
    let mut x = floats(&[40, 11], 21);
    x[[3, 4]] = f32::NAN;
    x[[5, 0]] = -0.0;
    let idx = indices(500, 40, 22);
    let mut values = floats(&[500, 1], 23);
    values[[7, 0]] = f32::NAN;
    values[[9, 0]] = 0.0;
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Min, Op::Max] {
        for mode in MODES {
            update_both(
                &gpu,
                &x,
                &[ix(&idx), ix(PySlice::new(Some(1), None, Some(3)))],
                op,
                (&values).into_value(),
                mode,
                &format!("f32 {op:?} {mode:?}"),
            );
        }
    }
    let xi = ramp::<i32>(&[64, 5]);
    let vi = Array::from_shape_fn((700, 5), |(i, j)| {
        ((i as i32 * 7 + j as i32) % 9 - 4).wrapping_add(i32::MAX * (i % 50 == 0) as i32)
    });
    let positive = vi.mapv(|v| v.rem_euclid(5) + 1);
    let idxi = indices(700, 64, 24);
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Min, Op::Max] {
        update_both(
            &gpu,
            &xi,
            &[ix(&idxi)],
            op,
            (&vi).into_value(),
            AnyMode::Error,
            &format!("i32 {op:?} (wrapping)"),
        );
    }
    for op in [Op::Div, Op::Pow] {
        update_both(
            &gpu,
            &xi,
            &[ix(&idxi)],
            op,
            (&positive).into_value(),
            AnyMode::Error,
            &format!("i32 {op:?}"),
        );
        update_both(
            &gpu,
            &xi,
            &[ix(&idxi)],
            op,
            (&vi).into_value(),
            AnyMode::Error,
            &format!("i32 {op:?} rejected operand"),
        );
    }
    let xu = ramp::<u32>(&[64, 5]);
    let vu = positive.mapv(|v| v as u32);
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max] {
        update_both(
            &gpu,
            &xu,
            &[ix(&idxi)],
            op,
            (&vu).into_value(),
            AnyMode::Drop,
            &format!("u32 {op:?}"),
        );
    }
    // A zero divisor at a dropped position is never applied, so not an error.
    update_both(
        &gpu,
        &xi,
        &[ix([0i64, 99])],
        Op::Div,
        array![2i32, 0].into_value(),
        AnyMode::Drop,
        "zero divisor dropped",
    );
}

// ---- sort.rs + scan.rs: several radix passes, several scan levels ----

#[test]
fn large_scatter_with_many_sort_passes_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[300_000], 25);
    let idx = indices(400_000, 300_000, 26);
    let values = floats(&[400_000], 27);
    update_both(
        &gpu,
        &x,
        &[ix(&idx)],
        Op::Add,
        (&values).into_value(),
        AnyMode::Error,
        "400k into 300k",
    );
    set_both(&gpu, &x, &[ix(&idx)], (&values).into_value(), AnyMode::Error, "set 400k into 300k");
}

// ---- grid.rs: more than 65535 cubes ----

#[test]
fn regions_beyond_65535_cubes_same_as_cpu() {
    let gpu = device!();
    let len = 65_535 * 256 + 1000;
    let x = Array::from_shape_fn(len, |i| i as u32).into_dyn();
    set_both(
        &gpu,
        &x,
        &[ix(PySlice::new(Some(7), None, None))],
        5u32.into_value(),
        AnyMode::Error,
        "fill of 16.7M",
    );
}

// ---- masked.rs and compact.rs: the mask sugar ----

#[test]
fn masked_and_compacted_same_as_cpu() {
    let gpu = device!();
    let mut x = floats(&[70, 9], 28);
    x[[1, 1]] = f32::NAN;
    let compares = [Compare::Lt, Compare::Le, Compare::Gt, Compare::Ge, Compare::Eq, Compare::Ne];
    let threshold = x[[2, 2]];
    for compare in compares {
        let mask = x.map(|e| compare.holds(e, &threshold));
        let count = mask.iter().filter(|&&m| m).count();
        let what = format!("{compare:?}");
        // Reads: compaction.
        let cpu = tensor_core::backend::get(&x, &[ix(&mask)], AnyMode::Error).unwrap().into_owned();
        let read = upload(&gpu, &x).get_where(compare, threshold).unwrap();
        assert_same(&read.to_array().unwrap(), &cpu, &what);
        // Scalar values: the fused pass.
        for op in [Op::Add, Op::Mul, Op::Max] {
            let mut cpu = x.clone();
            tensor_core::backend::update(&mut cpu, &[ix(&mask)], op, 2.5f32, AnyMode::Error).unwrap();
            let mut g = upload(&gpu, &x);
            g.update_where(compare, threshold, op, 2.5).unwrap();
            assert_same(&g.to_array().unwrap(), &cpu, &format!("{what} {op:?} scalar"));
        }
        // Array values: compaction, one value per selected element.
        let values = floats(&[count], 29);
        let mut cpu = x.clone();
        tensor_core::backend::set(&mut cpu, &[ix(&mask)], &values, AnyMode::Error).unwrap();
        let mut g = upload(&gpu, &x);
        g.set_where(compare, threshold, &values).unwrap();
        assert_same(&g.to_array().unwrap(), &cpu, &format!("{what} array"));
        // A wrong count is refused before anything is written.
        let wrong = floats(&[count + 1], 30);
        let mut cpu = x.clone();
        let cpu_result = tensor_core::backend::set(&mut cpu, &[ix(&mask)], &wrong, AnyMode::Error);
        let mut g = upload(&gpu, &x);
        assert_same_outcome(&g.set_where(compare, threshold, &wrong), &cpu_result, &format!("{what} count"));
        assert_same(&g.to_array().unwrap(), &x, "unchanged");
    }
    // Integer division by zero: an error only when something is selected.
    let xi = ramp::<i32>(&[30, 30]);
    let mut g = upload(&gpu, &xi);
    assert_eq!(
        g.update_where(Compare::Gt, 50, Op::Div, 0),
        Err(GpuError::Index(IndexError::DivisionByZero))
    );
    assert!(g.update_where(Compare::Gt, 1000, Op::Div, 0).is_ok());
    assert_same(&g.to_array().unwrap(), &xi, "unchanged");
}

// ---- edge cases ----

#[test]
fn empty_selections_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[6, 4], 31);
    let none = ndarray::Array1::<i64>::zeros(0);
    let cases: Vec<(&str, Vec<IndexElem<'_>>)> = vec![
        ("x[[]]", vec![ix(&none)]),
        ("x[4:2]", vec![ix(PySlice::new(Some(4), Some(2), None))]),
        ("x[[], 1:3]", vec![ix(&none), ix(1..3)]),
        ("x[all-false mask]", vec![ix(x.map(|_| false))]),
    ];
    for (what, index) in &cases {
        get_both(&gpu, &x, index, AnyMode::Error, what);
        set_both(&gpu, &x, index, 1.0f32.into_value(), AnyMode::Error, what);
        update_both(&gpu, &x, index, Op::Add, 1.0f32.into_value(), AnyMode::Drop, what);
    }
    let empty = ArrayD::<f32>::zeros(IxDyn(&[0, 3]));
    get_both(&gpu, &empty, &[ix(..), ix(1)], AnyMode::Error, "empty tensor");
    set_both(
        &gpu,
        &empty,
        &[ix(&none)],
        2.0f32.into_value(),
        AnyMode::Error,
        "empty tensor, empty index",
    );
    assert_eq!(upload(&gpu, &empty).get_where(Compare::Lt, 0.0).unwrap().shape(), &[0]);
}

#[test]
fn errors_same_as_cpu_and_tensor_unchanged() {
    let gpu = device!();
    let x = floats(&[5, 4], 32);
    let cases: Vec<(&str, Vec<IndexElem<'_>>, Value<'_, f32>)> = vec![
        ("out of bounds", vec![ix([0i64, 5])], 1.0.into_value()),
        ("too many indices", vec![ix(0), ix(0), ix(0)], 1.0.into_value()),
        ("zero step", vec![ix(PySlice::new(None, None, Some(0)))], 1.0.into_value()),
        ("range out of bounds", vec![ix(2..9)], 1.0.into_value()),
        ("mask shape", vec![ix(array![true, false])], 1.0.into_value()),
        ("index broadcast", vec![ix([0i64, 1]), ix([0i64, 1, 2])], 1.0.into_value()),
        ("value shape", vec![ix(..), ix(1..3)], floats(&[3], 33).into_value()),
        ("value count", vec![ix(x.map(|v| *v > 0.0))], floats(&[99], 34).into_value()),
        ("nd of rank 0", vec![ix(tensor_core::nd(ndarray::arr0(1i64)))], 1.0.into_value()),
    ];
    for (what, index, value) in cases {
        set_both(&gpu, &x, &index, value.clone(), AnyMode::Error, what);
        update_both(&gpu, &x, &index, Op::Add, value, AnyMode::Error, what);
        get_both(&gpu, &x, &index, AnyMode::Error, what);
    }
    let index = [ix(1)];
    set_both(&gpu, &x, &index, 1.0f32.into_value(), AnyMode::Fill(0.0), "mode fill on a write");
    get_both(&gpu, &x, &index, AnyMode::Drop, "mode drop on a read");
    let xi = ramp::<i32>(&[5, 4]);
    update_both(
        &gpu,
        &xi,
        &[ix([1i64, 1])],
        Op::Div,
        0i32.into_value(),
        AnyMode::Error,
        "division by zero",
    );
    update_both(
        &gpu,
        &xi,
        &[ix(..)],
        Op::Pow,
        array![1i32, 2, -1, 0].into_value(),
        AnyMode::Error,
        "negative power",
    ); // Operands are vetted where they are applied: a zero divisor at skipped
    // positions only is no error, as on the CPU.
    update_both(
        &gpu,
        &xi,
        &[ix([7i64, -9])],
        Op::Div,
        0i32.into_value(),
        AnyMode::Drop,
        "division by zero at skipped positions only",
    );
    // One point of `nd` is a view, as its integers are.
    let g = upload(&gpu, &x);
    let point = [ix(tensor_core::nd(array![1i64, -1]))];
    assert_eq!(
        g.view(&point).unwrap().to_array().unwrap(),
        tensor_core::backend::get(&x, &point, AnyMode::Error).unwrap().into_owned()
    );
}

#[test]
fn float_pow_is_refused_and_leaves_the_tensor() {
    let gpu = device!();
    let x = floats(&[3, 3], 35);
    let mut g = upload(&gpu, &x);
    let result = g.update_in(&[ix(0)], Op::Pow, 2.0, AnyMode::Error);
    assert!(matches!(result, Err(GpuError::Unsupported { operation: "pow", .. })), "{result:?}");
    assert_same(&g.to_array().unwrap(), &x, "unchanged");
}

/// `%=` and the bitwise updates have no kernel yet: refused by name, the
/// tensor unchanged.
#[test]
fn remainder_and_bitwise_updates_are_refused_and_leave_the_tensor() {
    let gpu = device!();
    let xi = array![[1i32, -2], [3, 4]].into_dyn();
    let mut g = upload(&gpu, &xi);
    for (op, symbol) in [(Op::Rem, "%="), (Op::BitAnd, "&="), (Op::BitOr, "|="), (Op::BitXor, "^=")] {
        let result = g.update_in(&[ix(0)], op, 3, AnyMode::Error);
        assert!(
            matches!(result, Err(GpuError::Unsupported { operation, .. }) if operation == symbol),
            "{result:?}"
        );
    }
    assert_eq!(g.to_array().unwrap(), xi);
}

#[test]
fn element_types_round_trip_or_are_refused() {
    let gpu = device!();
    let xi = array![[i32::MIN, -1], [0, i32::MAX]].into_dyn();
    assert_eq!(upload(&gpu, &xi).to_array().unwrap(), xi);
    update_both(&gpu, &xi, &[ix(..), ix(1)], Op::Add, 1i32.into_value(), AnyMode::Error, "i32 wraps");
    update_both(
        &gpu,
        &xi,
        &[ix([0i64]), ix(0)],
        Op::Div,
        (-1i32).into_value(),
        AnyMode::Error,
        "MIN / -1 wraps",
    );
    let xu = array![0u32, 1, u32::MAX].into_dyn();
    update_both(
        &gpu,
        &xu,
        &[ix([0i64, 2, 2])],
        Op::Add,
        1u32.into_value(),
        AnyMode::Error,
        "u32 wraps",
    );
    update_both(
        &gpu,
        &xu,
        &[ix([0i64, 1])],
        Op::Sub,
        2u32.into_value(),
        AnyMode::Error,
        "u32 wraps down",
    );
    // 64-bit types run where the device has them, and are refused clearly elsewhere.
    let x64 = array![1.5f64, -2.0].into_dyn();
    match tensor_gpu::GpuTensor::from_array(&gpu, &x64) {
        Ok(_) => update_both(&gpu, &x64, &[ix([1i64, 1])], Op::Add, 0.25f64.into_value(), AnyMode::Error, "f64"),
        Err(error) => assert!(matches!(error, GpuError::UnsupportedElement { .. }), "{error}"),
    }
    assert_eq!(gpu.supports::<f64>(), tensor_gpu::GpuTensor::from_array(&gpu, &x64).is_ok());
}

// ---- along(idx, axis): the table of any advanced index ----

#[test]
fn along_same_as_cpu() {
    let gpu = device!();
    let x = floats(&[6, 40], 36);
    // 50 picks per row of 40: duplicates in every row, some out of bounds.
    let idx = indices(300, 45, 37).into_shape_with_order((6, 50)).unwrap();
    let in_bounds = idx.mapv(|i| i.clamp(-40, 39));
    let column = in_bounds.slice(ndarray::s![..1, ..]).to_owned();
    let values = floats(&[6, 50], 38);
    for mode in MODES {
        get_both(
            &gpu,
            &x,
            &[ix(tensor_core::along(&idx, 1))],
            mode,
            &format!("x[along(idx, 1)] {mode:?}"),
        );
    }
    for (what, index) in [
        ("along(idx, 1)", ix(tensor_core::along(&in_bounds, 1))),
        ("along(idx, -1), rows broadcast", ix(tensor_core::along(&column, -1))),
    ] {
        let index = [index];
        let value = || (&values).into_value();
        let value = if what.contains("broadcast") { 2.5.into_value() } else { value() };
        set_both(&gpu, &x, &index, value.clone(), AnyMode::Error, what);
        update_both(&gpu, &x, &index, Op::Add, value.clone(), AnyMode::Error, what);
        update_both(&gpu, &x, &index, Op::Max, value, AnyMode::Error, what);
    }
    let error_index = [ix(tensor_core::along(&idx, 1))];
    update_both(&gpu, &x, &error_index, Op::Add, 1.0.into_value(), AnyMode::Drop, "along, mode drop");
    set_both(&gpu, &x, &error_index, 1.0.into_value(), AnyMode::Error, "along, out of bounds");
}
