//! Shapes and steps at the edges of what the kernels address: each call is
//! refused with [`GpuError::TooLarge`] (the tensor unchanged), or answers
//! what the rules say, never panics or aborts. Expectations are written out
//! by hand from NumPy's rules, not taken from either backend.

use crate::common::upload;
use ndarray::{ArrayD, ArrayView, Axis, IxDyn, ShapeBuilder, array};
use tensor_at::try_at;
use tensor_core::index::{IndexElem, PySlice};
use tensor_core::{Mode, Op, ReadMode, ix};
use tensor_gpu::cubecl::prelude::*;
use tensor_gpu::{GpuError, GpuTensor};

/// The error of a shape or batch of `elements`, and its message.
#[track_caller]
fn assert_too_large<A: std::fmt::Debug>(result: Result<A, GpuError>, elements: usize, what: &str) {
    let error = result.expect_err(what);
    assert_eq!(error, GpuError::TooLarge { elements }, "{what}");
    let message = format!("{elements} elements are more than the GPU kernels address (at most 2147483647)");
    assert_eq!(error.to_string(), message, "{what}");
}

#[test]
fn shapes_whose_other_lengths_pass_the_limit_are_refused_even_when_empty() {
    let gpu = device!();
    let handle = || gpu.client().create_from_slice(f32::as_bytes(&[0.0]));
    let max = i32::MAX as usize;
    let refused = [
        (vec![2, 1 << 62, 0], 1 << 63),
        // The product of the other lengths overflows: counted as usize::MAX.
        (vec![0, 1 << 40, 1 << 40], usize::MAX),
        (vec![max + 1, 0], max + 1),
    ];
    for (shape, elements) in refused {
        let made = GpuTensor::<f32>::from_handle(&gpu, handle(), &shape);
        assert_too_large(made, elements, &format!("from_handle {shape:?}"));
    }
    // ndarray holds this one (its limit is isize::MAX), the kernels do not.
    let host = ArrayD::<f32>::zeros(IxDyn(&[0, 1 << 31, 1 << 31]));
    assert_too_large(GpuTensor::from_array(&gpu, &host), 1 << 62, "from_array (0, 2**31, 2**31)");
    // At the limit: accepted, and downloaded as the empty array it is.
    let edge = GpuTensor::<f32>::from_handle(&gpu, handle(), &[max, 0]).unwrap();
    assert_eq!(edge.to_array().unwrap(), ArrayD::<f32>::zeros(IxDyn(&[max, 0])));
}

#[test]
fn a_step_past_an_axis_of_one_position_selects_that_position() {
    let gpu = device!();
    let x = array![[0.0f32, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]].into_dyn();
    // `x[::step]` of four rows: the first row alone, or (walking down) the last.
    for (step, row, selected) in [
        (isize::MAX, 0, array![[0.0f32, 1.0, 2.0]]),
        (isize::MIN, 3, array![[9.0f32, 10.0, 11.0]]),
    ] {
        let index = [IndexElem::Slice(PySlice::new(None, None, Some(step)))];
        let what = format!("x[::{step}]");
        let mut g = upload(&gpu, &x);
        let read = g.get(&index, ReadMode::Error).expect(&what);
        assert_eq!(read.to_array().unwrap(), selected.clone().into_dyn(), "{what}");
        let view = g.view(&index).expect(&what);
        assert_eq!(view.to_array().unwrap(), selected.into_dyn(), "{what} as a view");

        g.set(&index, 7.0f32, Mode::Error).expect(&what);
        let mut expected = x.clone();
        expected.index_axis_mut(Axis(0), row).fill(7.0);
        assert_eq!(g.to_array().unwrap(), expected, "{what} = 7");

        g.update(&index, Op::Add, 1.0f32, Mode::Error).expect(&what);
        expected.index_axis_mut(Axis(0), row).fill(8.0);
        assert_eq!(g.to_array().unwrap(), expected, "{what} += 1");
    }
}

#[test]
fn an_empty_batched_read_of_an_unaddressable_shape_is_too_large() {
    let gpu = device!();
    let x = ArrayD::<f32>::zeros(IxDyn(&[2, 0, 3]));
    let g = upload(&gpu, &x);
    // One index broadcast along both batch axes and 2**62 long: each batch
    // (there is none) would read (2**62,), the whole read (2, 0, 2**62).
    let zero = [0i64];
    let long = ArrayView::from_shape(IxDyn(&[1, 1, 1 << 62]).strides(IxDyn(&[0, 0, 0])), &zero).unwrap();
    assert_too_large(g.get_batched(&[ix(&long)], 2, ReadMode::Error), 1 << 63, "(2, 0, 2**62)");
    assert_eq!(g.to_array().unwrap(), x);
}

#[test]
fn comparisons_that_broadcast_past_the_limit_are_refused() {
    let gpu = device!();
    // A tensor long along axis `k` of three, of length one on the others.
    let along = |k: usize, n: usize| {
        let mut shape = vec![1; 3];
        shape[k] = n;
        upload(&gpu, &ArrayD::<f32>::zeros(IxDyn(&shape)))
    };
    let x = ArrayD::<f32>::zeros(IxDyn(&[2, 2, 2]));
    let mut g = upload(&gpu, &x);
    // (2**11,)*3 spans 2**33 positions; (2**22,)*3 spans 2**66, more than
    // a usize counts.
    for (n, elements) in [(1 << 11, 1 << 33), (1 << 22, usize::MAX)] {
        let (a, b, c) = (along(0, n), along(1, n), along(2, n));
        let what = format!("({n},)*3");
        assert_too_large(try_at!(g[(a > 0.0) & (b > 0.0) & (c > 0.0)] = 1.0), elements, &what);
        assert_too_large(try_at!(g[(a < 1.0) | (b < 1.0) | (c < 1.0)] += 1.0), elements, &what);
        assert_too_large(try_at!(g[(a > 0.0) & (b > 0.0) & (c > 0.0)]), elements, &what);
        assert_eq!(g.to_array().unwrap(), x, "{what}: the target unchanged");
    }
}

#[test]
fn a_batched_device_read_past_the_limit_is_refused_at_its_first_batch() {
    let gpu = device!();
    // Each batch reads 2**19 positions; 4096 batches read 2**31.
    let picks = upload(&gpu, &ArrayD::<i32>::zeros(IxDyn(&[1, 1 << 19])));
    let index = [ix(&picks)];
    let one = upload(&gpu, &ArrayD::<f32>::zeros(IxDyn(&[1, 1])));
    let before = gpu.transfers();
    let read = one.get_batched(&index, 1, ReadMode::Error).unwrap();
    let one_read = gpu.transfers() - before;
    assert_eq!(read.to_array().unwrap(), ArrayD::<f32>::zeros(IxDyn(&[1, 1 << 19])));
    assert!(one_read.total() > 0, "a batch's read checks its picks on the device: {one_read:?}");

    let g = upload(&gpu, &ArrayD::<f32>::zeros(IxDyn(&[4096, 1])));
    let before = gpu.transfers();
    assert_too_large(g.get_batched(&index, 1, ReadMode::Error), 1 << 31, "(4096, 2**19)");
    // Refused once the first batch's read gives the result's shape, not
    // after 4096 reads (8 GiB on the device).
    let refused = gpu.transfers() - before;
    assert!(refused.total() <= one_read.total(), "{refused:?} against one batch's {one_read:?}");
}
