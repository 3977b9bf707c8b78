//! k-means clustering (Lloyd's algorithm) with the centroid update done by
//! scatter-add: every point is added into its cluster's row of `sums`.
//!
//! The NumPy original:
//!
//! ```python
//! centroids = points[[0, 1, 2]]
//! for step in range(10):
//!     d = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(-1)
//!     labels = d.argmin(1)
//!     sums = np.zeros((k, 2)); np.add.at(sums, labels, points)
//!     counts = np.zeros(k);    np.add.at(counts, labels, 1)
//!     new = sums / counts[:, None]
//!     if (new == centroids).all(): break
//!     centroids = new
//! ```
//!
//! Run with `cargo run --example kmeans`.

use tensor_at::at;
use tensor_at::ndarray::{Array1, Array2, ArrayView1, Axis, array};

fn main() {
    // Three blobs, around (1, 1), (5, 5) and (9, 1).
    let points = array![
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
    let k = 3;
    // All three seeds in one blob, so the first steps have to pull them apart.
    let mut centroids: Array2<f64> = at!(points[[0, 1, 2]]);
    let mut labels = Array1::<usize>::zeros(points.nrows());
    let mut steps = 0;
    while steps < 10 {
        steps += 1;
        // (n, 1, 2) - (1, k, 2) broadcasts to every point-centroid difference.
        let diff = &at!(points[:, None, :]) - &at!(centroids[None, :, :]);
        let d = diff.mapv(|v| v * v).sum_axis(Axis(2));
        labels = d.rows().into_iter().map(argmin).collect();

        // Unbuffered, like np.add.at: a cluster with five points gets all five.
        let mut sums = Array2::<f64>::zeros((k, 2));
        at!(sums[&labels] += &points);
        let mut counts = Array1::<f64>::zeros(k);
        at!(counts[&labels] += 1.0);
        let new = &sums / &at!(counts[:, None]);

        println!("step {steps}: labels {labels}");
        if new == centroids {
            break;
        }
        centroids = new;
    }
    println!("converged after {steps} steps, centroids:\n{centroids:.3}");

    // Printed by the NumPy original above (`labels`, `new.tolist()`). np.add.at
    // adds in index order, as at! does, so the sums agree to the last bit.
    let expected_labels = array![1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2];
    let expected_centroids = array![[5.08, 5.180000000000001], [0.96, 1.08], [8.98, 1.06]];
    assert_eq!(steps, 3);
    assert_eq!(labels, expected_labels);
    assert_eq!(centroids, expected_centroids);
}

/// The position of the first smallest value, as NumPy's `argmin` picks on ties.
fn argmin(row: ArrayView1<f64>) -> usize {
    let mut best = 0;
    for (j, &v) in row.iter().enumerate() {
        if v < row[best] {
            best = j;
        }
    }
    best
}
