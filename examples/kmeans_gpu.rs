//! k-means on the GPU with the labels never leaving the device: a kernel of
//! our own finds each point's nearest centroid, and the labels it writes
//! index the scatter-adds of the centroid update.
//!
//! The PyTorch original:
//!
//! ```python
//! points = torch.tensor(points, device="cuda")
//! centroids = points[[0, 1, 2]]
//! for step in range(10):
//!     labels = torch.cdist(points, centroids).argmin(1)   # stays on the device
//!     sums = torch.zeros(k, 2, device="cuda").index_add_(0, labels, points)
//!     counts = torch.zeros(k, device="cuda").index_add_(0, labels, torch.ones(n, device="cuda"))
//!     centroids = sums / counts[:, None]
//! ```
//!
//! Run with `cargo run --example kmeans_gpu --features gpu` (on the
//! platform's own graphics API through wgpu: Vulkan on Linux, Mesa's
//! lavapipe included). The same steps run on the CPU with ndarray, and the
//! two must agree. The kernel is written with the cubecl tensor-at's GPU
//! tensor is built on (`tensor_at::gpu::cubecl`).

use tensor_at::gpu::cubecl::{self, prelude::*};
use tensor_at::gpu::{Gpu, GpuError, GpuTensor};
use tensor_at::index::NewAxis;
use tensor_at::ndarray::{Array1, Array2, Axis, array};
use tensor_at::{at, ix};

/// `labels[i]` = the centroid nearest to point `i` (squared distance, the
/// first on a tie); `points` is `n` x `dims` and `centroids` `k` x `dims`,
/// both C-contiguous.
#[cube(launch)]
fn nearest(points: &[f32], centroids: &[f32], labels: &mut [i32], n: u32, k: u32, dims: u32) {
    let i = ABSOLUTE_POS as u32;
    if i < n {
        let mut best = 0u32;
        let mut best_distance = 0.0f32;
        for c in 0..k {
            let mut distance = 0.0f32;
            for j in 0..dims {
                let diff = points[(i * dims + j) as usize] - centroids[(c * dims + j) as usize];
                distance += diff * diff;
            }
            if c == 0 || distance < best_distance {
                best = c;
                best_distance = distance;
            }
        }
        labels[i as usize] = best as i32;
    }
}

/// `torch.cdist(points, centroids).argmin(1)`, on the device.
fn nearest_centroids(gpu: &Gpu, points: &GpuTensor<f32>, centroids: &GpuTensor<f32>) -> Result<GpuTensor<i32>, GpuError> {
    let (n, k, dims) = (points.shape()[0], centroids.shape()[0], points.shape()[1]);
    let labels = GpuTensor::<i32>::from_handle(gpu, gpu.client().empty(n * size_of::<i32>()), &[n])?;
    nearest::launch(
        gpu.client(),
        CubeCount::Static(n.div_ceil(64) as u32, 1, 1),
        CubeDim::new_1d(64),
        points.arg(),
        centroids.arg(),
        labels.arg(),
        n as u32,
        k as u32,
        dims as u32,
    );
    Ok(labels)
}

fn main() -> Result<(), GpuError> {
    let gpu = match Gpu::wgpu() {
        Ok(gpu) => gpu,
        Err(error) if std::env::var("TENSOR_AT_REQUIRE_GPU").as_deref() != Ok("1") => {
            println!("skipped, no device: {error}");
            return Ok(());
        }
        Err(error) => return Err(error),
    };
    // Three blobs, around (1, 1), (5, 5) and (9, 1).
    let points_host: Array2<f32> = array![
        [1.0, 1.2],
        [0.8, 0.9],
        [1.3, 0.7],
        [1.1, 1.5],
        [0.6, 1.1],
        [4.9, 5.2],
        [5.3, 4.8],
        [5.1, 5.6],
        [4.6, 5.0],
        [5.5, 5.3],
        [8.8, 1.1],
        [9.2, 0.7],
        [9.0, 1.4],
        [8.5, 0.9],
        [9.4, 1.2]
    ];
    let (n, k) = (points_host.nrows(), 3);

    let points = GpuTensor::from_array(&gpu, &points_host)?;
    // All three seeds in one blob, so the first steps have to pull them apart.
    let mut centroids = at!(points[[0, 1, 2]]);
    let mut sums = GpuTensor::from_array(&gpu, &Array2::<f32>::zeros((k, 2)))?;
    let mut counts = GpuTensor::from_array(&gpu, &Array1::<f32>::zeros(k))?;
    let mut last_labels = None;
    let mut moved = Vec::new();
    for _ in 0..10 {
        let before = gpu.transfers();
        let labels = nearest_centroids(&gpu, &points, &centroids)?;
        at!(sums[..] = 0.0);
        at!(counts[..] = 0.0);
        // Unbuffered, like index_add_: a cluster with five points gets all five.
        at!(sums[labels] += points);
        at!(counts[labels] += 1.0);
        let per_cluster = counts.view(&[ix(..), ix(NewAxis)])?;
        at!(sums[..] /= per_cluster);
        centroids = sums.copy()?;
        // The labels' bounds check reads one flag back per scatter-add
        // (`; mode = clip` would skip it: argmin's labels are in bounds).
        moved.push((gpu.transfers() - before).total());
        last_labels = Some(labels);
    }
    let labels = last_labels.expect("ten steps").to_array()?;
    let centroids = centroids.to_array()?;
    println!("labels:    {labels}");
    println!("centroids: {centroids:.3}");
    println!("copies between host and device in each step: {moved:?}");

    // The same steps on the CPU.
    let mut expected: Array2<f32> = at!(points_host[[0, 1, 2]]);
    let mut expected_labels = Array1::<usize>::zeros(n);
    for _ in 0..10 {
        let diff = &at!(points_host[:, None, :]) - &at!(expected[None, :, :]);
        let distances = diff.mapv(|v| v * v).sum_axis(Axis(2));
        expected_labels = distances
            .rows()
            .into_iter()
            .map(|row| (0..k).fold(0, |best, c| if row[c] < row[best] { c } else { best }))
            .collect();
        let mut sums = Array2::<f32>::zeros((k, 2));
        at!(sums[&expected_labels] += &points_host);
        let mut counts = Array1::<f32>::zeros(k);
        at!(counts[&expected_labels] += 1.0);
        expected = &sums / &at!(counts[:, None]);
    }
    let labels: Vec<usize> = labels.iter().map(|&label| label as usize).collect();
    assert_eq!(labels, expected_labels.to_vec(), "the CPU's labels");
    let furthest = (&centroids - &expected.into_dyn()).mapv(f32::abs).fold(0.0f32, |a, &b| a.max(b));
    assert!(furthest < 1e-5, "the CPU's centroids, within {furthest}");
    Ok(())
}
