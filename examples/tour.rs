//! A short tour of tensor-at: NumPy, JAX and PyTorch indexing idioms in
//! Rust, each checked against the answer NumPy prints for it.
//!
//! ```python
//! import numpy as np
//! x = np.arange(12.).reshape(3, 4)
//! x[:, 1:4:2] = -1                # [[0,-1,2,-1],[4,-1,6,-1],[8,-1,10,-1]]
//! x[[0, 2], -1]                   # [-1, -1]
//! x[x > 5] = 0                    # row 2 becomes [0, -1, 0, -1]
//! hist = np.zeros(4, int); np.add.at(hist, [0, 2, 2, 3, 2], 1)   # [1, 0, 3, 1]
//! y = x.copy(); y[0, ::-1] = [1, 2, 3, 4]                          # jax: x.at[0, ::-1].set(...)
//! x[1:] = x[:-1]                  # rows shift down, the read copied first
//! ```
//!
//! Run with `cargo run --example tour`.

use tensor_at::ndarray::{Array1, Array2, ArrayView1, array};
use tensor_at::{at, set, try_at};

fn main() {
    let mut x = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    println!("x = np.arange(12.).reshape(3, 4) =\n{x}\n");

    at!(x[:, 1:4:2] = -1.0);
    println!("x[:, 1:4:2] = -1            ->\n{x}\n");
    assert_eq!(x, array![[0.0, -1.0, 2.0, -1.0], [4.0, -1.0, 6.0, -1.0], [8.0, -1.0, 10.0, -1.0]]);

    let corners = at!(x[[0, 2], -1]);
    println!("x[[0, 2], -1]               -> {corners}   (advanced: a copy)");
    assert_eq!(corners, array![-1.0, -1.0]);

    let row: ArrayView1<f64> = at!(x[1, ..]);
    println!("x[1, :]                     -> {row}   (basic: a view, statically ranked)");

    at!(x[x > 5.0] = 0.0);
    println!(
        "x[x > 5] = 0                -> row 2 = {}   (one fused pass, no allocation)",
        x.row(2)
    );
    assert_eq!(x.row(2), array![0.0, -1.0, 0.0, -1.0]);

    let bins = Array1::from(vec![0usize, 2, 2, 3, 2]);
    let mut hist = Array1::<i64>::zeros(4);
    at!(hist[bins] += 1);
    println!("np.add.at(hist, {bins}, 1) -> {hist}   (duplicates accumulate)");
    assert_eq!(hist, array![1, 0, 3, 1]);

    let y = set!(x[0, ::-1] = array![1.0, 2.0, 3.0, 4.0]);
    println!(
        "x.at[0, ::-1].set([1, 2, 3, 4]) -> row 0 = {}   (x unchanged: {})",
        y.row(0),
        x.row(0)
    );
    assert_eq!(y.row(0), array![4.0, 3.0, 2.0, 1.0]);
    assert_eq!(x.row(0), array![0.0, -1.0, 2.0, -1.0]);

    let safe: Array2<f64> = at!(x[:, [0, 9]]; mode = fill(f64::NAN));
    println!("x.at[:, [0, 9]].get(mode='fill', fill_value=nan) -> column 1 = {}", safe.column(1));
    assert!(safe.column(1).iter().all(|v| v.is_nan()));

    at!(x[1:] = x[:-1]);
    println!("x[1:] = x[:-1]              ->\n{x}\n");
    assert_eq!(x.row(1), array![0.0, -1.0, 2.0, -1.0]);
    assert_eq!(x.row(2), array![4.0, -1.0, 0.0, -1.0]);

    let before = x.clone();
    let error = try_at!(x[[0, 7]] = 1.0).unwrap_err();
    println!("x[[0, 7]] = 1               -> IndexError: {error}   (nothing written)");
    assert_eq!(x, before);
}
