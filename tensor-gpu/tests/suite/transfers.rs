//! The transfer counter: every copy between host and device is counted on
//! the `Gpu` that made it, and nothing else is. The figures follow from
//! what each call must move (named beside each), so that a copy added to a
//! path, or one that stops being counted, fails here.

use ndarray::{Array1, array};
use tensor_core::{Mode, Op, ix};
use tensor_gpu::{Compare, GpuTensor, Transfers};

#[test]
fn every_copy_between_host_and_device_is_counted() {
    let gpu = device!();
    let start = gpu.transfers();
    let host = Array1::from_iter((0..1000).map(|i| i as f32));
    let mut x = GpuTensor::from_array(&gpu, &host).unwrap();
    let uploaded = gpu.transfers() - start;
    assert_eq!((uploaded.uploads, uploaded.bytes_uploaded, uploaded.downloads), (1, 4000, 0));

    // A scatter-add with a host index uploads its region (the axis rows and
    // the index's offset table) and its value; it reads nothing back.
    let before = gpu.transfers();
    x.update(&[ix([3usize, 3, 7])], Op::Add, &array![1.0f32, 2.0, 3.0], Mode::Error)
        .unwrap();
    let scatter = gpu.transfers() - before;
    assert_eq!((scatter.uploads, scatter.downloads), (3, 0));
    assert_eq!(
        scatter.bytes_uploaded,
        4 * 4 + 3 * 4 + 3 * 4,
        "one axis row of 4 i32, 3 offsets, 3 values"
    );

    // A mask with an array value counts its selection on the device and
    // reads the count back (4 bytes) to check the value's length.
    let before = gpu.transfers();
    x.set_where(Compare::Lt, 2.0, &array![-1.0f32, -2.0]).unwrap();
    let masked = gpu.transfers() - before;
    assert_eq!((masked.downloads, masked.bytes_downloaded), (1, 4));

    // The download: one copy of the whole tensor.
    let before = gpu.transfers();
    let back = x.to_array().unwrap();
    let downloaded = gpu.transfers() - before;
    assert_eq!(
        (downloaded.uploads, downloaded.downloads, downloaded.bytes_downloaded),
        (0, 1, 4000)
    );
    assert_eq!(&back.as_slice().unwrap()[..8], [-1.0, -2.0, 2.0, 6.0, 4.0, 5.0, 6.0, 10.0]);

    // Clones share the count; another device's copies are its own.
    let clone = gpu.clone();
    let other = tensor_gpu::Gpu::from_client(gpu.client().clone());
    let before = (gpu.transfers(), other.transfers());
    GpuTensor::from_array(&clone, &array![1u32]).unwrap();
    assert_eq!((gpu.transfers() - before.0).uploads, 1);
    assert_eq!(other.transfers() - before.1, Transfers::default());
}

#[test]
fn many_batches_move_what_their_one_index_moves() {
    // 300 batches of 4 picks: run batch by batch, each batch would upload
    // its own region and value. As one index, the batched call moves
    // exactly what the same selection written as one unbatched call does.
    let gpu = device!();
    let (b, n) = (300usize, 7usize);
    let x = ndarray::Array2::from_shape_fn((b, n), |(i, j)| (i * n + j) as f32).into_dyn();
    let idx = ndarray::Array2::from_shape_fn((b, 4), |(i, k)| ((i + 3 * k) % n) as i64);
    let v = ndarray::Array2::from_shape_fn((b, 4), |(i, k)| (i + k) as f32);
    // What `call` moves, and the tensor after it, on a tensor of `x`. Each
    // call runs once before it is counted: the device keeps the small
    // constants it has uploaded, such as a region's axes, for the next.
    let moved = |x: &ndarray::ArrayD<f32>, call: &dyn Fn(&mut GpuTensor<f32>)| {
        call(&mut GpuTensor::from_array(&gpu, x).unwrap());
        let mut g = GpuTensor::from_array(&gpu, x).unwrap();
        let before = gpu.transfers();
        call(&mut g);
        (gpu.transfers() - before, g.to_array().unwrap())
    };
    // One array into batches of one axis: `along` the last axis, its index
    // on the host, then on the device.
    let batched = moved(&x, &|g| g.update_batched(&[ix(&idx)], 1, Op::Add, &v, Mode::Error).unwrap());
    let along = moved(&x, &|g| {
        g.update(&[ix(tensor_core::along(&idx, 1))], Op::Add, &v, Mode::Error).unwrap()
    });
    assert_eq!(batched, along, "host picks");
    let (gi, gv) = (GpuTensor::from_array(&gpu, &idx).unwrap(), GpuTensor::from_array(&gpu, &v).unwrap());
    let batched = moved(&x, &|g| g.set_batched(&[ix(&gi)], 1, &gv, Mode::Error).unwrap());
    let along = moved(&x, &|g| g.set(&[ix(tensor_core::along(&gi, 1))], &gv, Mode::Error).unwrap());
    assert_eq!(batched, along, "device picks");
    // Arrays after a slice, on a target of three axes: the batch axis
    // indexed by an `arange` of the batches, NumPy's `x[arange(B)[:, None],
    // :, idx]`.
    let x3 = x.clone().insert_axis(ndarray::Axis(1));
    let rows = ndarray::Array2::from_shape_fn((b, 1), |(i, _)| i);
    let (v_batched, v_one) = (v.clone().insert_axis(ndarray::Axis(1)), v.clone().insert_axis(ndarray::Axis(2)));
    let batched = moved(&x3, &|g| {
        g.update_batched(&[ix(..), ix(&idx)], 1, Op::Add, &v_batched, Mode::Error).unwrap()
    });
    let one = moved(&x3, &|g| {
        g.update(&[ix(&rows), ix(..), ix(&idx)], Op::Add, &v_one, Mode::Error).unwrap()
    });
    assert_eq!(batched, one, "arrays after a slice");
}
