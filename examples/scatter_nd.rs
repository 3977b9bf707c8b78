//! TensorFlow's `scatter_nd` family and `gather_nd`, whose indices are
//! arrays of index vectors (the last axis is the vector), via `nd(indices)`.
//!
//! The TensorFlow originals, from the API reference (`api_def_ScatterNd`,
//! `api_def_TensorScatterUpdate`, `api_def_TensorScatterAdd`, `api_def_GatherNd`
//! and the `tf.tensor_scatter_nd_update` page):
//!
//! ```python
//! indices = tf.constant([[4], [3], [1], [7]]); updates = tf.constant([9, 10, 11, 12])
//! tf.scatter_nd(indices, updates, [8])                           # [0, 11, 0, 10, 9, 0, 0, 12]
//! tf.tensor_scatter_nd_update(tf.ones([8]), indices, updates)    # [1, 11, 1, 10, 9, 1, 1, 12]
//! tf.tensor_scatter_nd_add(tf.ones([8]), indices, updates)       # [1, 12, 1, 11, 10, 1, 1, 13]
//! tf.tensor_scatter_nd_update(tf.ones([4, 4, 4]), [[0], [2]], updates_2x4x4)  # whole 4x4 slices
//! tf.tensor_scatter_nd_update(tf.zeros([5, 5]), x_indices_2x5x2, ones_2x5)    # draws an X
//! tf.gather_nd(params, [[0, 1], [1, 0]])                         # [['c0', 'd0'], ['a1', 'b1']]
//! tf.gather_nd(params, [[[0, 0, 1], [1, 0, 1]], [[0, 1, 1], [1, 1, 0]]])  # [['b0', 'b1'], ['d0', 'c1']]
//! ```
//!
//! TensorFlow is not needed to check them: each output is the one printed in
//! those docs, and the NumPy equivalents (`t[tuple(np.moveaxis(idx, -1, 0))]`,
//! `np.add.at` with the same tuple) print the same arrays.
//!
//! Run with `cargo run --example scatter_nd`.

use tensor_at::ndarray::{Array1, Array2, Array3, array};
use tensor_at::{at, nd, set};

fn main() {
    // Depth-1 index vectors into a rank-1 tensor: one scalar per vector.
    let indices = array![[4], [3], [1], [7]];
    let updates = array![9, 10, 11, 12];
    let ones = Array1::<i32>::ones(8);

    // TF tensors are immutable, so the copy-and-update set! is the match.
    // scatter_nd sums duplicate indices: it is an add into zeros.
    let scattered = set!(Array1::<i32>::zeros(8)[nd(&indices)] += &updates);
    let updated = set!(ones[nd(&indices)] = &updates);
    let added = set!(ones[nd(&indices)] += &updates);
    println!("scatter_nd:               {scattered}");
    println!("tensor_scatter_nd_update: {updated}");
    println!("tensor_scatter_nd_add:    {added}");
    assert_eq!(scattered, array![0, 11, 0, 10, 9, 0, 0, 12]);
    assert_eq!(updated, array![1, 11, 1, 10, 9, 1, 1, 12]);
    assert_eq!(added, array![1, 12, 1, 11, 10, 1, 1, 13]);

    // Index vectors shorter than the rank select slices: [[0], [2]] picks two
    // 4x4 matrices of a 4x4x4 tensor, so updates has shape (2, 4, 4).
    let tensor = Array3::<i32>::ones((4, 4, 4));
    let slice_indices = array![[0], [2]];
    let slabs = array![
        [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
        [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]]
    ];
    let updated = set!(tensor[nd(&slice_indices)] = &slabs);
    let added = set!(tensor[nd(&slice_indices)] += &slabs);
    println!("\nrank-3 slice update, first two slices:\n{}", at!(updated[:2]));
    let expected_updated = array![
        [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
        [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]],
        [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
        [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    ];
    let expected_added = array![
        [[6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8], [9, 9, 9, 9]],
        [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]],
        [[6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8], [9, 9, 9, 9]],
        [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    ];
    assert_eq!(updated, expected_updated);
    assert_eq!(added, expected_added);
    // TF wants updates of exactly (2, 4, 4); here, as in NumPy, a column broadcasts.
    assert_eq!(set!(tensor[nd(&slice_indices)] = array![[5], [6], [7], [8]]), expected_updated);

    // Folded indices: shape (2, 5, 2) is a 2x5 batch of (row, col) vectors,
    // the two diagonals; a scalar 1.0 stands for TF's 2x5 updates of ones.
    let diagonals = array![
        [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]], // the main diagonal
        [[0, 4], [1, 3], [2, 2], [3, 1], [4, 0]]  // and the other one
    ];
    let x = set!(Array2::<f32>::zeros((5, 5))[nd(&diagonals)] = 1.0);
    println!("\nan X from folded indices:\n{x}");
    let expected_x = array![
        [1.0, 0.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 1.0]
    ];
    assert_eq!(x, expected_x);

    // gather_nd reads the same way; elements need not be numbers. The result's
    // rank depends on the index depth, a run-time length, so it is an ArrayD.
    let params = array![[["a0", "b0"], ["c0", "d0"]], [["a1", "b1"], ["c1", "d1"]]];
    let rows = at!(params[nd(array![[0, 1], [1, 0]])]);
    let batched = at!(params[nd(array![[[0, 0, 1], [1, 0, 1]], [[0, 1, 1], [1, 1, 0]]])]);
    println!("\ngather_nd:\n{rows}\n{batched}");
    assert_eq!(rows, array![["c0", "d0"], ["a1", "b1"]].into_dyn());
    assert_eq!(batched, array![["b0", "b1"], ["d0", "c1"]].into_dyn());
}
