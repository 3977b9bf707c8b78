//! Index arrays that live on the device (`GpuTensor<i32>`, `GpuTensor<u32>`)
//! against tensor-core on the CPU given the same indices from the host:
//! reads and writes bit for bit, duplicates and every mode included, the
//! CPU's error for an index out of bounds with the tensor unchanged, and
//! what crosses between host and device counted.

use crate::common::{InAnyMode, Lcg, assert_same, assert_same_outcome, upload};
use ndarray::{Array, ArrayD, IxDyn, array};
use tensor_at::{along, at, nd, set, try_at};
use tensor_core::backend::AnyMode;
use tensor_core::index::IndexElem;
use tensor_core::{IndexError, Op, ix};
use tensor_gpu::{Gpu, GpuError, GpuIndex, GpuTensor};

/// Every read and write of `index(true)` (its arrays on the device) on
/// `x`, on both sides (the CPU given `index(false)`, the same arrays from
/// the host), in every mode.
#[track_caller]
fn same_everywhere<'a>(gpu: &Gpu, x: &ArrayD<f32>, index: impl Fn(bool) -> Vec<IndexElem<'a>>, what: &str) {
    let (on_gpu, on_cpu) = (index(true), index(false));
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Fill(-1.0)] {
        let cpu = tensor_core::backend::get(x, &on_cpu, mode);
        let g = upload(gpu, x);
        let read = g.get_in(&on_gpu, mode);
        let what = format!("{what}: read, {mode:?}");
        if assert_same_outcome(&read, &cpu, &what) {
            assert_same(&read.unwrap().to_array().unwrap(), &cpu.unwrap().into_owned(), &what);
        }
    }
    let mut rng = Lcg(11);
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Drop] {
        for op in [None, Some(Op::Add), Some(Op::Max)] {
            let what = format!("{what}: {op:?}, {mode:?}");
            // A value of the region's shape when there is one.
            let shape = tensor_core::backend::get(x, &on_cpu, AnyMode::Clip)
                .map(|r| r.shape().to_vec())
                .unwrap_or_default();
            let value = Array::from_shape_fn(IxDyn(&shape), |_| rng.float());
            let mut cpu = x.clone();
            let cpu_result = match op {
                None => tensor_core::backend::set(&mut cpu, &on_cpu, &value, mode),
                Some(op) => tensor_core::backend::update(&mut cpu, &on_cpu, op, &value, mode),
            };
            let mut g = upload(gpu, x);
            let gpu_result = match op {
                None => g.set_in(&on_gpu, &value, mode),
                Some(op) => g.update_in(&on_gpu, op, &value, mode),
            };
            assert_same_outcome(&gpu_result, &cpu_result, &what);
            assert_same(&g.to_array().unwrap(), &cpu, &what);
        }
    }
}

/// `host` uploaded and shifted by a kernel (`+ shift`, then `- shift`):
/// indices a kernel wrote, kept on the device.
fn made_on_device<I: GpuIndex>(gpu: &Gpu, host: &ArrayD<I>, shift: I) -> GpuTensor<I> {
    let mut tensor = upload(gpu, host);
    tensor.update_in(&[ix(..)], Op::Add, shift, AnyMode::Error).unwrap();
    tensor.update_in(&[ix(..)], Op::Sub, shift, AnyMode::Error).unwrap();
    tensor
}

#[test]
fn device_index_arrays_index_as_host_arrays_do() {
    let gpu = device!();
    let mut rng = Lcg(5);
    let x = Array::from_shape_fn(IxDyn(&[7, 6, 5]), |_| rng.float());
    // Duplicates and negative indices in bounds; then out of bounds too.
    let rows = array![3, -1, 3, 0, 6, 3].into_dyn();
    let wild = array![2, 9, -8, 2, -1].into_dyn();
    let column = array![[1], [5], [1]].into_dyn();
    let grid = array![[0, 4], [4, 0], [2, 2]].into_dyn();
    for (indices, name) in [(&rows, "in bounds"), (&wild, "out of bounds")] {
        let g = made_on_device(&gpu, indices, 4i32);
        let d = |on_device: bool| if on_device { ix(&g) } else { ix(indices) };
        same_everywhere(&gpu, &x, |on| vec![d(on)], &format!("x[gi], {name}"));
        same_everywhere(&gpu, &x, |on| vec![d(on), ix(1..3)], &format!("x[gi, 1:3], {name}"));
        same_everywhere(&gpu, &x, |on| vec![ix(..), d(on)], &format!("x[:, gi], {name}"));
        same_everywhere(&gpu, &x, |on| vec![ix(2), ix(..), d(on)], &format!("x[2, :, gi], {name}"));
        same_everywhere(
            &gpu,
            &x,
            |on| vec![d(on), ix(..), ix(array![4])],
            &format!("x[gi, :, host], {name}"),
        );
    }
    // Two device arrays broadcast together, and a two-dimensional one.
    let gc = upload(&gpu, &column);
    let gr = upload(&gpu, &array![0, 4, 2, -3].into_dyn());
    let gr_host = array![0, 4, 2, -3].into_dyn();
    let pick = |on: bool, device, host| if on { ix(device) } else { ix(host) };
    same_everywhere(
        &gpu,
        &x,
        |on| vec![ix(..), pick(on, &gc, &column), pick(on, &gr, &gr_host)],
        "x[:, gc, gr]",
    );
    let gg = upload(&gpu, &grid);
    same_everywhere(&gpu, &x, |on| vec![pick(on, &gg, &grid), ix(-1)], "x[grid, -1]");
    // An index past an axis that clip and wrap resolve, beside one on an
    // empty axis, which no mode resolves into: the empty axis's error.
    let empty = ArrayD::<f32>::zeros(IxDyn(&[3, 0]));
    let (past, zero) = (array![5].into_dyn(), array![0].into_dyn());
    let (gpast, gzero) = (upload(&gpu, &past), upload(&gpu, &zero));
    same_everywhere(
        &gpu,
        &empty,
        |on| vec![pick(on, &gpast, &past), pick(on, &gzero, &zero)],
        "x(3, 0)[past, zero]",
    );
    // `nd` (coordinates along the first two axes; one point indexes like
    // integers) and `along`.
    let points = array![[6, 5], [0, -1], [6, 5], [3, 9]].into_dyn();
    let point = array![2, -3].into_dyn();
    // Points in more than one batch axis: each point's coordinates are
    // along the last axis (`gi[..., c]`), whatever the axes before it.
    let stacked = array![[[6, 5], [0, -1]], [[3, 2], [6, 5]]].into_dyn();
    let tall = array![[[1, 2]], [[4, -3]]].into_dyn();
    let last_out_of_bounds = array![[[0, 0], [1, 1], [30, 2]]].into_dyn();
    let picks = Array::from_shape_fn(IxDyn(&[7, 3, 1]), |d| (d[0] as i32 * 5 + d[1] as i32 * 3) % 13 - 6).into_dyn();
    for (indices, name) in [
        (&points, "points"),
        (&point, "one point"),
        (&stacked, "points of shape (2, 2, 2)"),
        (&tall, "points of shape (2, 1, 2)"),
        (&last_out_of_bounds, "points of shape (1, 3, 2), the last out of bounds"),
    ] {
        let g = made_on_device(&gpu, indices, 1i32);
        let d = |on: bool| if on { ix(nd(&g)) } else { ix(nd(indices)) };
        same_everywhere(&gpu, &x, |on| vec![d(on)], &format!("x[nd(gi)], {name}"));
        same_everywhere(&gpu, &x, |on| vec![ix(1..4), d(on)], &format!("x[1:4, nd(gi)], {name}"));
    }
    let g = made_on_device(&gpu, &picks, 3i32);
    same_everywhere(
        &gpu,
        &x,
        |on| vec![if on { ix(along(&g, 1)) } else { ix(along(&picks, 1)) }],
        "along(gi, 1)",
    );
    same_everywhere(
        &gpu,
        &x,
        |on| vec![if on { ix(along(&g, -2)) } else { ix(along(&picks, -2)) }],
        "along(gi, -2)",
    );
    // Unsigned indices, one beyond i32::MAX.
    let unsigned = array![6u32, 0, 6, 3].into_dyn();
    let huge = array![1u32, 3_000_000_000, 2].into_dyn();
    for indices in [&unsigned, &huge] {
        let g = made_on_device(&gpu, indices, 7u32);
        let d = |on_device: bool| if on_device { ix(&g) } else { ix(indices) };
        same_everywhere(&gpu, &x, |on| vec![d(on)], "u32 x[gi]");
        same_everywhere(&gpu, &x, |on| vec![ix(0), ix(..), d(on)], "u32 x[0, :, gi]");
    }
}

#[test]
fn a_device_index_out_of_bounds_is_the_cpus_error_and_writes_nothing() {
    let gpu = device!();
    let x = Array::from_shape_fn(IxDyn(&[4, 3]), |d| (d[0] * 3 + d[1]) as f32);
    let cases: [(&[i32], &str); 3] = [(&[0, 7, 1, 9], "the first of two"), (&[-5, 0], "negative"), (&[2, 2, 4], "last")];
    for (indices, what) in cases {
        let host = Array::from(indices.to_vec()).into_dyn();
        let gi = upload(&gpu, &host);
        let mut g = upload(&gpu, &x);
        let error = g.update_in(&[ix(&gi)], Op::Add, 1.0, AnyMode::Error).unwrap_err();
        let mut cpu = x.clone();
        let expected = tensor_core::backend::update(&mut cpu, &[ix(&host)], Op::Add, 1.0, AnyMode::Error).unwrap_err();
        assert_eq!(error, GpuError::Index(expected), "{what}");
        assert_eq!(g.to_array().unwrap(), x, "{what}: unchanged");
    }
    // An earlier host array out of bounds is reported first, as on the CPU;
    // a device array before a value of the wrong shape, too.
    let gi = upload(&gpu, &array![0, 8].into_dyn());
    let mut g = upload(&gpu, &x);
    let host_first = g.set_in(&[ix([9, 0]), ix(&gi)], 0.0, AnyMode::Error).unwrap_err();
    assert_eq!(host_first, GpuError::Index(IndexError::OutOfBounds { index: 9, axis: 0, len: 4 }));
    let device_first = g.set_in(&[ix(..), ix(&gi)], &array![1.0f32, 2.0, 3.0], AnyMode::Error).unwrap_err();
    assert_eq!(device_first, GpuError::Index(IndexError::OutOfBounds { index: 8, axis: 1, len: 3 }));
    // On an empty axis every index is out of bounds, in mode clip too.
    let empty = upload(&gpu, &Array::<f32, _>::zeros(IxDyn(&[0, 3])));
    let gi = upload(&gpu, &array![5, 1].into_dyn());
    for mode in [AnyMode::Error, AnyMode::Clip] {
        let error = empty.get_in(&[ix(&gi)], mode).unwrap_err();
        assert_eq!(
            error,
            GpuError::Index(IndexError::OutOfBounds { index: 5, axis: 0, len: 0 }),
            "{mode:?}"
        );
    }
    assert_eq!(g.to_array().unwrap(), x);
}

#[test]
fn a_zero_dimensional_device_index_is_an_integer() {
    let gpu = device!();
    let x = array![[1.0f32, 2.0], [3.0, 4.0]].into_dyn();
    let gi = upload(&gpu, &ndarray::arr0(-1).into_dyn());
    let row = upload(&gpu, &x).get_in(&[ix(&gi)], AnyMode::Error).unwrap();
    assert_eq!(row.to_array().unwrap(), array![3.0f32, 4.0].into_dyn());
}

#[test]
fn device_indices_and_values_cross_to_the_host_only_for_the_bounds_flag() {
    let gpu = device!();
    let mut sums = upload(&gpu, &Array::<f32, _>::zeros(IxDyn(&[5, 3])));
    let labels = made_on_device(&gpu, &array![4, 0, 4, 2, 4, 1].into_dyn(), 1i32);
    let points = upload(&gpu, &Array::from_shape_fn(IxDyn(&[6, 3]), |d| (d[0] * 3 + d[1]) as f32 * 0.5));
    // The first call meets the shapes (their descriptions are uploaded once).
    sums.update_in(&[ix(&labels)], Op::Add, &points, AnyMode::Clip).unwrap();
    let before = gpu.transfers();
    sums.update_in(&[ix(&labels)], Op::Add, &points, AnyMode::Clip).unwrap();
    assert_eq!(gpu.transfers() - before, Default::default(), "mode clip: nothing crosses");
    let before = gpu.transfers();
    sums.update_in(&[ix(&labels)], Op::Add, &points, AnyMode::Error).unwrap();
    let moved = gpu.transfers() - before;
    assert_eq!(
        (moved.uploads, moved.downloads, moved.bytes_downloaded),
        (0, 1, 4),
        "mode error: the bounds flag only"
    );
    // Three sums of the same points, each in index order.
    let (labels_host, points_host) = (labels.to_array().unwrap(), points.to_array().unwrap());
    let mut cpu = Array::<f32, _>::zeros(IxDyn(&[5, 3]));
    for _ in 0..3 {
        tensor_core::backend::update(&mut cpu, &[ix(&labels_host)], Op::Add, &points_host, AnyMode::Error).unwrap();
    }
    assert_same(&sums.to_array().unwrap(), &cpu, "three scatter-adds");
}

#[test]
fn the_macros_take_device_indices_and_values() {
    let gpu = device!();
    let x = Array::from_shape_fn(IxDyn(&[4, 5]), |d| (d[0] * 5 + d[1]) as f32);
    let mut g = upload(&gpu, &x);
    let gi = upload(&gpu, &array![3, 1, 3].into_dyn());
    let gv = upload(&gpu, &array![10.0f32, 20.0, 30.0, 40.0, 50.0].into_dyn());
    let hi = array![3, 1, 3];
    let mut cpu = x.clone();

    at!(g[gi] += 1.0);
    at!(cpu[hi] += 1.0);
    at!(g[gi, 1:3] *= 2.0);
    at!(cpu[hi, 1:3] *= 2.0);
    at!(g[gi] += gv);
    at!(cpu[hi] += &gv.to_array().unwrap());
    assert_same(&g.to_array().unwrap(), &cpu, "at! updates");

    let read = at!(g[:, gi]).to_array().unwrap();
    assert_same(&read, &at!(cpu[:, hi]).to_owned().into_dyn(), "at! read");
    let copy = set!(g[gi] = gv).to_array().unwrap();
    let mut expected = cpu.clone();
    at!(expected[hi] = &gv.to_array().unwrap());
    assert_same(&copy, &expected, "set! with a device value");

    let picks = upload(&gpu, &array![[4], [0], [4], [2]].into_dyn());
    let picks_host = array![[4], [0], [4], [2]];
    let column = upload(&gpu, &array![[1.5f32], [2.5], [3.5], [4.5]].into_dyn());
    at!(g[along(picks, 1)] += column);
    at!(cpu[along(picks_host, 1)] += &column.to_array().unwrap());
    let points = upload(&gpu, &array![[3, 4], [0, 0]].into_dyn());
    at!(g[nd(points)] -= 1.0);
    at!(cpu[nd(array![[3, 4], [0, 0]])] -= 1.0);
    assert_same(&g.to_array().unwrap(), &cpu, "along and nd");

    let bad = upload(&gpu, &array![0, 4].into_dyn());
    let error = try_at!(g[bad] = 0.0).unwrap_err();
    assert_eq!(error, GpuError::Index(IndexError::OutOfBounds { index: 4, axis: 0, len: 4 }));
    assert_same(&g.to_array().unwrap(), &cpu, "nothing written on error");
}

#[test]
fn an_ndarray_refuses_a_device_index() {
    let gpu = device!();
    let gi = upload(&gpu, &array![0, 1].into_dyn());
    let mut x = array![1.0f32, 2.0, 3.0];
    let error = tensor_core::backend::update(&mut x, &[ix(&gi)], Op::Add, 1.0, AnyMode::Error).unwrap_err();
    assert!(matches!(error, IndexError::OnDevice { what: "index array", .. }), "{error}");
    assert_eq!(x, array![1.0, 2.0, 3.0]);
}

#[test]
fn batched_calls_take_device_indices_and_values() {
    let gpu = device!();
    let mut rng = Lcg(3);
    let x = Array::from_shape_fn(IxDyn(&[3, 6, 2]), |_| rng.float());
    // Each batch its own indices, duplicates and a negative one; then one
    // batch axis of length 1, broadcast.
    let per_batch = array![[5, 0, 5], [1, -1, 1], [2, 2, 3]].into_dyn();
    let shared = array![[4, 4, 0]].into_dyn();
    for indices in [&per_batch, &shared] {
        let gi = made_on_device(&gpu, indices, 2i32);
        let cpu = tensor_core::backend::get_batched(&x, &[ix(indices)], 1, AnyMode::Error).unwrap();
        let read = upload(&gpu, &x).get_batched_in(&[ix(&gi)], 1, AnyMode::Error).unwrap();
        assert_same(&read.to_array().unwrap(), &cpu.into_owned(), "batched read");

        let value = Array::from_shape_fn(IxDyn(&[3, 3, 2]), |_| rng.float());
        let gv = upload(&gpu, &value);
        let mut cpu = x.clone();
        tensor_core::backend::update_batched(&mut cpu, &[ix(indices)], 1, Op::Add, &value, AnyMode::Error).unwrap();
        let mut g = upload(&gpu, &x);
        g.update_batched_in(&[ix(&gi)], 1, Op::Add, &gv, AnyMode::Error).unwrap();
        assert_same(&g.to_array().unwrap(), &cpu, "batched add of a device value");

        let mut cpu = x.clone();
        tensor_core::backend::set_batched(&mut cpu, &[ix(indices), ix(1)], 1, 7.5, AnyMode::Error).unwrap();
        let mut g = upload(&gpu, &x);
        at!(g[gi, 1] = 7.5; batch = 1);
        assert_same(&g.to_array().unwrap(), &cpu, "batched set through the macros");
    }
    // Out of bounds in the last batch only: the CPU's error, nothing written.
    let wild = array![[0, 1], [2, 3], [4, 6]].into_dyn();
    let gi = upload(&gpu, &wild);
    let mut g = upload(&gpu, &x);
    let error = g.set_batched_in(&[ix(&gi)], 1, 0.0, AnyMode::Error).unwrap_err();
    let mut cpu = x.clone();
    let expected = tensor_core::backend::set_batched(&mut cpu, &[ix(&wild)], 1, 0.0, AnyMode::Error).unwrap_err();
    assert_eq!(error, GpuError::Index(expected));
    assert_eq!(g.to_array().unwrap(), x, "unchanged");
}

#[test]
fn batched_picks_on_the_device_run_along_the_last_axis() {
    // One device array into batches of one axis (`tf.gather(x, idx,
    // batch_dims=1)` on a matrix), as one `along` call: against the
    // element written out by hand, and against tensor-core's batches.
    let gpu = device!();
    let (b, n, s) = (700, 40, 9);
    let mut rng = Lcg(5);
    let x = Array::from_shape_fn(IxDyn(&[b, n]), |_| rng.float());
    let picks = Array::from_shape_fn(IxDyn(&[b, s]), |_| rng.below(2 * n as u64) as i64 - n as i64);
    let at = |i: usize, k: usize| picks[[i, k]].rem_euclid(n as i64) as usize;
    let gi = made_on_device(&gpu, &picks, 3i64);

    let read = upload(&gpu, &x).get_batched_in(&[ix(&gi)], 1, AnyMode::Error).unwrap();
    let expected = Array::from_shape_fn(IxDyn(&[b, s]), |p| x[[p[0], at(p[0], p[1])]]);
    assert_eq!(read.to_array().unwrap(), expected, "read");

    // `+=` of a device value: each batch's duplicates summed in index order.
    let value = Array::from_shape_fn(IxDyn(&[b, s]), |_| rng.float());
    let mut cpu = x.clone();
    tensor_core::backend::update_batched(&mut cpu, &[ix(&picks)], 1, Op::Add, &value, AnyMode::Error).unwrap();
    let mut g = upload(&gpu, &x);
    g.update_batched_in(&[ix(&gi)], 1, Op::Add, &upload(&gpu, &value), AnyMode::Error)
        .unwrap();
    assert_same(&g.to_array().unwrap(), &cpu, "+= a device value");
    let mut by_hand = x.clone();
    for i in 0..b {
        for k in 0..s {
            by_hand[[i, at(i, k)]] += value[[i, k]];
        }
    }
    assert_eq!(cpu, by_hand, "+= by hand");

    // `=` of a device value with a batch axis of length 1 (broadcast), and
    // of a scalar: the last duplicate wins.
    let row = Array::from_shape_fn(IxDyn(&[1, s]), |_| rng.float());
    let mut g = upload(&gpu, &x);
    g.set_batched_in(&[ix(&gi)], 1, &upload(&gpu, &row), AnyMode::Error).unwrap();
    let mut by_hand = x.clone();
    for i in 0..b {
        for k in 0..s {
            by_hand[[i, at(i, k)]] = row[[0, k]];
        }
    }
    assert_eq!(g.to_array().unwrap(), by_hand, "= a broadcast device value");
    let mut cpu = x.clone();
    tensor_core::backend::set_batched(&mut cpu, &[ix(&picks)], 1, 2.5, AnyMode::Error).unwrap();
    let mut g = upload(&gpu, &x);
    at!(g[gi] = 2.5; batch = 1);
    assert_same(&g.to_array().unwrap(), &cpu, "= a scalar through the macros");

    // Out of bounds in the last batch only: each batch's own axis in the
    // error, as tensor-core's batches say, and nothing written.
    let mut wild = picks.clone();
    wild[[b - 1, s - 1]] = n as i64;
    let gw = upload(&gpu, &wild);
    for result in [
        upload(&gpu, &x).get_batched_in(&[ix(&gw)], 1, AnyMode::Error).map(drop),
        g.update_batched_in(&[ix(&gw)], 1, Op::Add, 1.0, AnyMode::Error),
    ] {
        let expected = tensor_core::backend::get_batched(&x, &[ix(&wild)], 1, AnyMode::Error).map(drop);
        assert!(!assert_same_outcome(&result, &expected, "a pick out of bounds"));
        assert_eq!(
            result.unwrap_err(),
            GpuError::Index(IndexError::OutOfBounds {
                index: n as i128,
                axis: 0,
                len: n
            })
        );
    }
    assert_same(&g.to_array().unwrap(), &cpu, "unchanged");
    // In mode `wrap`, the same pick reads and writes the first element.
    let read = upload(&gpu, &x)
        .get_batched_in(&[ix(&gw)], 1, AnyMode::Wrap)
        .unwrap()
        .to_array()
        .unwrap();
    assert_eq!(read[[b - 1, s - 1]], x[[b - 1, 0]], "wrapped");
}
