//! A histogram and segment sums with repeated indices, ported from NumPy:
//! `at!(hist[bins] += 1)` is `np.add.at`, not NumPy's buffered `hist[bins] += 1`.
//!
//! Run with `cargo run --example histogram`. The NumPy original:
//!
//! ```python
//! import numpy as np
//!
//! scores = np.array([1.0, 7.5, 3.2, 7.9, 9.1, 6.0, 2.4, 7.7, 0.3, 8.8, 5.5, 7.1])
//! bins = np.floor(scores / 2.5).astype(int)
//!
//! buffered = np.zeros(4, int)
//! buffered[bins] += 1
//! hist = np.zeros(4, int)
//! np.add.at(hist, bins, 1)
//!
//! segment_ids = np.array([0, 0, 1, 2, 2, 2, 1, 0])
//! values = np.array([1.5, 2.0, 0.25, 4.0, 1.0, 0.5, 3.0, 8.0])
//! sums = np.zeros(3)
//! np.add.at(sums, segment_ids, values)
//! counts = np.zeros(3, int)
//! np.add.at(counts, segment_ids, 1)
//! last = np.zeros(3)
//! last[segment_ids] += values
//!
//! print(bins.tolist())
//! print(buffered.tolist(), hist.tolist())
//! print(sums.tolist(), counts.tolist(), (sums / counts).tolist())
//! print(last.tolist())
//! ```

use tensor_at::at;
use tensor_at::ndarray::{Array1, array};

fn main() {
    let scores = array![1.0, 7.5, 3.2, 7.9, 9.1, 6.0, 2.4, 7.7, 0.3, 8.8, 5.5, 7.1];
    let bins = scores.mapv(|s: f64| (s / 2.5).floor() as usize);
    println!("bins of width 2.5: {bins}");

    // Every repeated bin is counted: this is np.add.at (or np.bincount).
    let mut hist = Array1::<i64>::zeros(4);
    at!(hist[&bins] += 1);
    println!("at!(hist[bins] += 1)    -> {hist}  like np.add.at(hist, bins, 1)");

    // NumPy's `hist[bins] += 1` is buffered: `hist[bins] = hist[bins] + 1`,
    // a gather then a scatter where the last write wins, so a repeated bin
    // counts once. Spelled out that way, tensor-at gives NumPy's answer too.
    let mut buffered = Array1::<i64>::zeros(4);
    at!(buffered[&bins] = at!(buffered[&bins]) + 1);
    println!("NumPy's hist[bins] += 1 -> {buffered}  each bin touched counts once\n");

    // Segment sums and means, the scatter-add behind groupby and pooling.
    let segment_ids = array![0, 0, 1, 2, 2, 2, 1, 0];
    let values = array![1.5, 2.0, 0.25, 4.0, 1.0, 0.5, 3.0, 8.0];
    let mut sums = Array1::<f64>::zeros(3);
    at!(sums[&segment_ids] += &values);
    let mut counts = Array1::<i64>::zeros(3);
    at!(counts[&segment_ids] += 1);
    let means = &sums / &counts.mapv(|c| c as f64);
    println!("segment sums {sums}, counts {counts}, means {means:.4}");

    // Buffered, each segment keeps only its last value instead of the sum.
    let mut last = Array1::<f64>::zeros(3);
    at!(last[&segment_ids] = at!(last[&segment_ids]) + &values);
    println!("NumPy's sums[segment_ids] += values -> {last}  the last value wins");

    // expected: printed by the NumPy program above
    assert_eq!(bins, array![0, 3, 1, 3, 3, 2, 0, 3, 0, 3, 2, 2]);
    assert_eq!(buffered, array![1, 1, 1, 1]);
    assert_eq!(hist, array![3, 1, 3, 5]);
    // Sums of exact binary fractions, added in index order as np.add.at
    // does: bit-for-bit equal, no tolerance needed.
    assert_eq!(sums, array![11.5, 3.25, 5.5]);
    assert_eq!(counts, array![3, 2, 3]);
    assert_eq!(means, array![3.8333333333333335, 1.625, 1.8333333333333333]);
    assert_eq!(last, array![8.0, 3.0, 0.5]);
}
