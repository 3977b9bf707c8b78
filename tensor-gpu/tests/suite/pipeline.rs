//! A GPU pipeline that stays on the device: a kernel of the user's own (a
//! row argmax, as `scores.argmax(1)`) writes indices, which index a
//! scatter-add (`sums.index_add_(0, labels, rows)`), step after step, with
//! nothing copied between host and device from the first upload to the
//! final download. The result is the CPU's: the same argmax on the host,
//! then tensor-core's scatter-add.

use crate::common::{Lcg, assert_same, upload};
use ndarray::{Array, Array2, ArrayD, Axis, IxDyn};
use tensor_at::at;
use tensor_core::{Mode, Op, ix};
use tensor_gpu::cubecl::prelude::*;
use tensor_gpu::{Gpu, GpuTensor};

/// `labels[r]` = the first column of row `r` of `scores` (`rows` x `cols`,
/// C order) holding the row's largest value.
#[cube(launch)]
fn argmax_rows(scores: &[f32], labels: &mut [i32], rows: u32, cols: u32) {
    let r = ABSOLUTE_POS as u32;
    if r < rows {
        let mut best = 0u32;
        let mut best_value = scores[(r * cols) as usize];
        for c in 1..cols {
            let value = scores[(r * cols + c) as usize];
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        labels[r as usize] = best as i32;
    }
}

/// The argmax of each row of `scores` (C-contiguous), computed on the device
/// into a new tensor.
fn argmax(gpu: &Gpu, scores: &GpuTensor<f32>) -> GpuTensor<i32> {
    let [rows, cols] = [scores.shape()[0], scores.shape()[1]];
    let labels = gpu.client().empty(rows.max(1) * size_of::<i32>());
    let out = GpuTensor::<i32>::from_handle(gpu, labels, &[rows]).unwrap();
    let cubes = rows.div_ceil(64).max(1) as u32;
    argmax_rows::launch(
        gpu.client(),
        CubeCount::Static(cubes, 1, 1),
        CubeDim::new_1d(64),
        scores.arg(),
        out.arg(),
        rows as u32,
        cols as u32,
    );
    out
}

/// The same argmax on the host.
fn argmax_host(scores: &ArrayD<f32>) -> ArrayD<i32> {
    let rows = scores.lanes(Axis(1)).into_iter().map(|row| {
        let mut best = 0;
        for (c, &value) in row.iter().enumerate() {
            if value > row[best] {
                best = c;
            }
        }
        best as i32
    });
    Array::from_iter(rows).into_dyn()
}

#[test]
fn argmax_then_scatter_add_copies_nothing_between_upload_and_download() {
    let gpu = device!();
    let (n, k, d) = (300, 7, 5);
    let mut rng = Lcg(13);
    let scores_host = Array::from_shape_fn(IxDyn(&[n, k]), |_| rng.float());
    let rows_host = Array::from_shape_fn(IxDyn(&[n, d]), |_| rng.float());
    let scores = upload(&gpu, &scores_host);
    let rows = upload(&gpu, &rows_host);
    let mut sums = upload(&gpu, &Array2::<f32>::zeros((k, d)).into_dyn());
    let mut counts = upload(&gpu, &ArrayD::<f32>::zeros(IxDyn(&[k])));
    // A first step meets the shapes: their descriptions are uploaded once.
    let labels = argmax(&gpu, &scores);
    sums.update(&[ix(&labels)], Op::Add, &rows, Mode::Clip).unwrap();
    counts.update(&[ix(&labels)], Op::Add, 1.0, Mode::Clip).unwrap();

    let before = gpu.transfers();
    for _ in 0..3 {
        let labels = argmax(&gpu, &scores);
        at!(sums[labels] += rows; mode = clip);
        at!(counts[labels] += 1.0; mode = clip);
    }
    assert_eq!(gpu.transfers() - before, Default::default(), "nothing crosses in the loop");

    // The same on the host: four scatter-adds of the rows and of ones.
    let labels_host = argmax_host(&scores_host);
    assert_eq!(argmax(&gpu, &scores).to_array().unwrap(), labels_host);
    let mut expected = ArrayD::<f32>::zeros(IxDyn(&[k, d]));
    let mut expected_counts = ArrayD::<f32>::zeros(IxDyn(&[k]));
    for _ in 0..4 {
        at!(expected[labels_host] += rows_host);
        at!(expected_counts[labels_host] += 1.0);
    }
    assert_same(&sums.to_array().unwrap(), &expected, "sums");
    assert_same(&counts.to_array().unwrap(), &expected_counts, "counts");
}

#[test]
fn in_mode_error_only_the_bounds_flag_crosses() {
    let gpu = device!();
    let mut rng = Lcg(17);
    let scores = upload(&gpu, &Array::from_shape_fn(IxDyn(&[40, 3]), |_| rng.float()));
    let mut counts = upload(&gpu, &ArrayD::<u32>::zeros(IxDyn(&[3])));
    let labels = argmax(&gpu, &scores);
    at!(counts[labels] += 1);
    let before = gpu.transfers();
    at!(counts[labels] += 1);
    let moved = gpu.transfers() - before;
    assert_eq!((moved.uploads, moved.downloads, moved.bytes_downloaded), (0, 1, 4));
    assert_eq!(counts.to_array().unwrap().sum(), 80);
}
