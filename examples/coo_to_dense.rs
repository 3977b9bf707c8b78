//! A sparse matrix in COO form (row, column, value triplets, with repeated
//! coordinates) turned into a dense one, two ways.
//!
//! The NumPy original:
//!
//! ```python
//! summed = np.zeros((3, 4)); np.add.at(summed, (rows, cols), vals)  # like scipy's .toarray()
//! last = np.zeros((3, 4));   last[rows, cols] = vals                 # the last duplicate wins
//! buffered = np.zeros((3, 4)); buffered[rows, cols] += vals          # buffered: also last wins!
//! merged = summed[summed != 0]                                       # back to one entry per cell
//! ```
//!
//! Run with `cargo run --example coo_to_dense`.

use tensor_at::ndarray::{Array1, Array2, array};
use tensor_at::{at, set};

fn main() {
    // (0, 1) appears three times and (2, 3) twice.
    let rows = array![0, 2, 1, 0, 2, 1, 0];
    let cols = array![1, 3, 0, 1, 3, 2, 1];
    let vals = array![1.5, 2.0, -1.0, 2.5, 4.0, 3.0, 0.25];

    // COO semantics: a repeated coordinate means "add these up", so every
    // occurrence must be applied. JAX: jnp.zeros((3, 4)).at[rows, cols].add(vals)
    let summed = set!(Array2::<f64>::zeros((3, 4))[&rows, &cols] += &vals);
    println!("duplicates summed (np.add.at, scipy's toarray):\n{summed}\n");

    // Plain assignment keeps one value per cell: the last in index order.
    let mut last = Array2::<f64>::zeros((3, 4));
    at!(last[&rows, &cols] = &vals);
    println!("last duplicate wins (dense[rows, cols] = vals):\n{last}\n");

    // NumPy's `dense[rows, cols] += vals` is buffered and gives `last` here;
    // at!'s `+=` is unbuffered and gives `summed`, as np.add.at does.
    let mut accumulated = Array2::<f64>::zeros((3, 4));
    at!(accumulated[&rows, &cols] += &vals);
    assert_eq!(accumulated, summed);

    // Reading back one value per stored cell, in C order: the merged COO values.
    let merged: Array1<f64> = at!(summed[summed != 0.0]);
    println!("merged values: {merged}");
    // Gathering at the original coordinates gives each triplet its cell's total.
    let per_entry: Array1<f64> = at!(summed[&rows, &cols]);
    println!("summed[rows, cols] = {per_entry}");

    // Printed by the NumPy original above.
    let expected_summed = array![[0.0, 4.25, 0.0, 0.0], [-1.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 6.0]];
    let expected_last = array![[0.0, 0.25, 0.0, 0.0], [-1.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 4.0]];
    assert_eq!(summed, expected_summed);
    assert_eq!(last, expected_last);
    assert_eq!(merged, array![4.25, -1.0, 3.0, 6.0]);
    assert_eq!(per_entry, array![4.25, 6.0, -1.0, 4.25, 6.0, 3.0, 4.25]);
    // Summing duplicates loses nothing; keeping the last one does.
    assert_eq!(summed.sum(), vals.sum());
    assert!(last.sum() < vals.sum());
}
