//! A value already on the device (`set_from`, `update_from`) against
//! tensor-core on the CPU given the same value from the host: results bit
//! for bit, errors equal and the tensor unchanged after one, and the value
//! never copied to or from the host.

use crate::common::{InAnyMode, Lcg, assert_same, assert_same_outcome, upload};
use ndarray::{Array, ArrayD, IxDyn};
use tensor_core::backend::AnyMode;
use tensor_core::index::{IndexElem, PySlice};
use tensor_core::{Op, ix};
use tensor_gpu::{Gpu, GpuElement, GpuError, GpuTensor};

/// `x[index] op= value` (`op` `None`: `=`) on the CPU with the host value,
/// and on the GPU with `value` (already on the device); `value_host` is
/// what it holds.
#[track_caller]
fn both<T: GpuElement>(
    gpu: &Gpu,
    x: &ArrayD<T>,
    index: &[IndexElem<'_>],
    op: Option<Op>,
    value: &GpuTensor<T>,
    mode: AnyMode<T>,
    what: &str,
) {
    let value_host = value.to_array().unwrap();
    let mut cpu = x.clone();
    let cpu_result = match op {
        None => tensor_core::backend::set(&mut cpu, index, &value_host, mode),
        Some(op) => tensor_core::backend::update(&mut cpu, index, op, &value_host, mode),
    };
    let mut g = upload(gpu, x);
    let before = gpu.transfers();
    let gpu_result = match op {
        None => g.set_in(index, value, mode),
        Some(op) => g.update_in(index, op, value, mode),
    };
    let moved = gpu.transfers() - before;
    assert_eq!(moved.downloads, 0, "{what}: nothing read back");
    assert!(
        moved.uploads <= 2,
        "{what}: the region's rows and table only, not the value ({moved:?})"
    );
    assert_same_outcome(&gpu_result, &cpu_result, what);
    assert_same(&g.to_array().unwrap(), &cpu, what);
}

#[test]
fn device_values_write_as_host_values_do() {
    let gpu = device!();
    let mut rng = Lcg(7);
    let x = Array::from_shape_fn(IxDyn(&[40, 9]), |_| rng.below(100) as f32 * 0.25);
    let rows = upload(
        &gpu,
        &Array::from_shape_fn(IxDyn(&[5, 9]), |d| (d[0] * 9 + d[1]) as f32 * 0.5 - 3.0),
    );
    let row = upload(&gpu, &Array::from_shape_fn(IxDyn(&[9]), |d| d[0] as f32 + 0.125));
    let column = upload(&gpu, &Array::from_shape_fn(IxDyn(&[5, 1]), |d| d[0] as f32 - 1.5));
    let duplicates = [ix([3usize, 17, 3, 39, 17])];
    for (value, name) in [(&rows, "rows"), (&row, "a broadcast row"), (&column, "a broadcast column")] {
        both(&gpu, &x, &duplicates, None, value, AnyMode::Error, &format!("set {name}"));
        for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Min, Op::Max] {
            both(&gpu, &x, &duplicates, Some(op), value, AnyMode::Error, &format!("{op:?} {name}"));
        }
    }
    // Out of bounds in each mode: the same error, or the same skips and clamps.
    let wild = [ix([1isize, 45, -2, -60, 1])];
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Drop] {
        both(&gpu, &x, &wild, Some(Op::Add), &rows, mode, &format!("add, {mode:?}"));
    }
    // A value of the wrong shape: the CPU's error, nothing written.
    both(&gpu, &x, &[ix([0usize, 1])], None, &rows, AnyMode::Error, "wrong shape");
    // Integers: a wrapping sum with duplicates.
    let xi = Array::from_shape_fn(IxDyn(&[300]), |d| d[0] as i32 * 7_000_000);
    let vi = upload(&gpu, &Array::from_shape_fn(IxDyn(&[6]), |d| i32::MAX - d[0] as i32));
    both(
        &gpu,
        &xi,
        &[ix([299usize, 0, 299, 5, 0, 299])],
        Some(Op::Add),
        &vi,
        AnyMode::Error,
        "i32 add",
    );
}

#[test]
fn a_device_value_overlapping_the_target_is_read_before_the_write() {
    let gpu = device!();
    let x = Array::from_shape_fn(IxDyn(&[12]), |d| d[0] as f32);
    // x[::2] = x[1::2] through a view of x itself, and a strided value.
    let mut g = upload(&gpu, &x);
    let odd = g.view(&[ix(PySlice::new(Some(1), None, Some(2)))]).unwrap();
    let mut cpu = x.clone();
    let odd_host = cpu.slice(ndarray::s![1..;2]).to_owned();
    tensor_core::backend::update(&mut cpu, &[ix([0usize, 2, 4, 6, 8, 10])], Op::Add, &odd_host, AnyMode::Error).unwrap();
    g.update_in(&[ix([0usize, 2, 4, 6, 8, 10])], Op::Add, &odd, AnyMode::Error).unwrap();
    assert_same(&g.to_array().unwrap(), &cpu, "add x[1::2] into x[::2]");
    // x[1:] = x[:-1] (overlapping, shifted): the value as it was.
    let mut g = upload(&gpu, &x);
    let head = g.view(&[ix(PySlice::new(None, Some(-1), None))]).unwrap();
    g.set_in(&[ix(PySlice::new(Some(1), None, None))], &head, AnyMode::Error).unwrap();
    let shifted: Vec<f32> = std::iter::once(0.0).chain((0..11).map(|i| i as f32)).collect();
    assert_eq!(g.to_array().unwrap().into_raw_vec_and_offset().0, shifted);
}

#[test]
fn two_tensors_over_one_handle_are_one_memory() {
    let gpu = device!();
    let x = Array::from_shape_fn(IxDyn(&[12]), |d| d[0] as f32);
    let owner = upload(&gpu, &x);
    // Two tensors made apart from each other over the handle of a third.
    let over = || GpuTensor::<f32>::from_handle(&gpu, owner.handle().clone(), &[12]).unwrap();
    let reversed = [ix(PySlice::new(None, None, Some(-1)))];
    let rotated = [ix([1usize, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0])];
    for (index, op, what) in [
        (&reversed, None, "x[::-1] = y"),
        (&rotated, None, "x[[1, .., 11, 0]] = y"),
        (&rotated, Some(Op::Add), "x[[1, .., 11, 0]] += y"),
    ] {
        let (mut target, value) = (over(), over());
        target
            .set_in(&[ix(PySlice::new(None, None, None))], &upload(&gpu, &x), AnyMode::Error)
            .unwrap();
        // NumPy reads the value whole before the write.
        let mut cpu = x.clone();
        match op {
            None => tensor_core::backend::set(&mut cpu, index, &x, AnyMode::Error).unwrap(),
            Some(op) => tensor_core::backend::update(&mut cpu, index, op, &x, AnyMode::Error).unwrap(),
        }
        match op {
            None => target.set_in(index, &value, AnyMode::Error).unwrap(),
            Some(op) => target.update_in(index, op, &value, AnyMode::Error).unwrap(),
        }
        assert_same(&target.to_array().unwrap(), &cpu, what);
    }
}

#[test]
fn checked_integer_operands_of_a_device_value_are_refused() {
    let gpu = device!();
    let mut g = upload(&gpu, &Array::from_shape_fn(IxDyn(&[4]), |d| d[0] as i32 + 1));
    let divisors = upload(&gpu, &Array::from_shape_fn(IxDyn(&[2]), |d| d[0] as i32));
    let error = g.update_in(&[ix([0usize, 1])], Op::Div, &divisors, AnyMode::Error).unwrap_err();
    assert!(matches!(error, GpuError::Unsupported { operation: "/=", .. }), "{error:?}");
    assert_eq!(g.to_array().unwrap().into_raw_vec_and_offset().0, [1, 2, 3, 4]);
}
