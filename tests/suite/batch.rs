//! `; batch = k` through the macros and the runtime API: TensorFlow's
//! `batch_dims`, `gather_nd(batch_dims)` and `tensor_scatter_nd_*` with
//! batch dimensions, and the `vmap` of JAX's `.at[]`, each against the
//! plain loop over the batch (seed 004's ground truth), and its errors,
//! each leaving the target unchanged. The reference interpreter's
//! proptests (`proptest_reference.rs`) cover the rest.

use ndarray::{Array1, Array2, Array3, ArrayView2, Axis, array, s};
use tensor_at::error::BatchPart;
use tensor_at::{IndexError, Mode, Op, along, at, ix, nd, set, try_at, try_set};

/// `x` of shape `(b, n, d)` with element `(i, j, k)` = `100 i + 10 j + k`.
fn cube(b: usize, n: usize, d: usize) -> Array3<i64> {
    Array3::from_shape_fn((b, n, d), |(i, j, k)| (100 * i + 10 * j + k) as i64)
}

/// `tf.gather(x, idx, batch_dims=1)`: each batch's rows, picked by its
/// own index row; the result keeps its static rank.
#[test]
fn gather_with_batch_dims_is_the_loop_of_gathers() {
    let x = cube(3, 4, 2);
    let idx = array![[3usize, 0], [1, 1], [2, 3]];
    let picked: Array3<i64> = at!(x[idx]; batch = 1);
    let mut expected = Array3::zeros((3, 2, 2));
    for b in 0..3 {
        for (j, &i) in idx.row(b).iter().enumerate() {
            expected.slice_mut(s![b, j, ..]).assign(&x.slice(s![b, i, ..]));
        }
    }
    assert_eq!(picked, expected);
    // Negative indices count from the end of each batch's axis.
    let back = array![[-1i64], [-4], [-2]];
    let last: Array3<i64> = at!(x[back]; batch = 1);
    assert_eq!(last.index_axis(Axis(1), 0), array![[30, 31], [100, 101], [220, 221]]);
}

/// The `vmap` of `.at[].add`, duplicates included, and of `.at[].set`,
/// the last duplicate winning, against the loop.
#[test]
fn vmapped_updates_are_the_loop_of_updates() {
    let idx = array![[0usize, 2, 2], [1, 1, 1]];
    let v = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let mut x = Array2::<f64>::zeros((2, 3));
    at!(x[idx] += v; batch = 1);
    let mut expected = Array2::<f64>::zeros((2, 3));
    for b in 0..2 {
        for (j, &i) in idx.row(b).iter().enumerate() {
            expected[[b, i]] += v[[b, j]];
        }
    }
    assert_eq!(x, expected);
    at!(x[idx] = v; batch = 1);
    assert_eq!(x, array![[1.0, 0.0, 3.0], [0.0, 6.0, 0.0]]);
    at!(x[idx].max(5.5); batch = 1);
    assert_eq!(x, array![[5.5, 0.0, 5.5], [0.0, 6.0, 0.0]]);
    // One value row for every batch: a batch axis of length 1 broadcasts.
    at!(x[idx] *= array![[2.0, 1.0, 1.0]]; batch = 1);
    assert_eq!(x, array![[11.0, 0.0, 5.5], [0.0, 12.0, 0.0]]);
}

/// `gather_nd(x, idx, batch_dims=1)` is `nd(idx)` with `batch = 1`;
/// `tensor_scatter_nd_add` with a batch dimension is `+=`.
#[test]
fn gather_nd_and_scatter_nd_with_batch_dims() {
    let x = cube(2, 3, 4);
    let idx = array![[[0usize, 1], [2, 3]], [[1, 0], [1, 0]]];
    let picked: ndarray::ArrayD<i64> = at!(x[nd(idx)]; batch = 1);
    assert_eq!(picked, array![[1, 23], [110, 110]].into_dyn());
    let mut y = Array3::<i64>::zeros((2, 3, 4));
    at!(y[nd(idx)] += array![[1, 2], [3, 4]]; batch = 1);
    let mut expected = Array3::<i64>::zeros((2, 3, 4));
    expected[[0, 0, 1]] = 1;
    expected[[0, 2, 3]] = 2;
    expected[[1, 1, 0]] = 7;
    assert_eq!(y, expected);
}

/// Basic elements index every batch's own `x[b]` (a view, with no copy);
/// `...` spans that batch's axes.
#[test]
fn basic_indices_apply_to_each_batch() {
    let x = cube(2, 3, 4);
    let columns: ArrayView2<'_, i64> = at!(x[..., 1]; batch = 1);
    assert_eq!(columns, x.slice(s![.., .., 1]));
    let mut y = cube(2, 3, 4);
    at!(y[1:, 0] = 0; batch = 1);
    assert_eq!(y.slice(s![.., 1.., 0]), Array2::<i64>::zeros((2, 2)));
    assert_eq!(y.slice(s![.., 0, ..]), x.slice(s![.., 0, ..]));
}

/// An index after the batch, a slice beside it, and two batch axes.
#[test]
fn arrays_beside_slices_and_two_batch_axes() {
    let x = cube(2, 3, 4);
    let idx = array![[3usize, 0], [1, 2]];
    // x[b][:, idx[b]] for each b: shape (3, 2) per batch.
    let picked: Array3<i64> = at!(x[:, idx]; batch = 1);
    for b in 0..2 {
        for (j, &i) in idx.row(b).iter().enumerate() {
            assert_eq!(picked.slice(s![b, .., j]), x.slice(s![b, .., i]));
        }
    }
    let idx2 = array![[[1usize], [0], [3]], [[2], [2], [0]]];
    let deep: Array3<i64> = at!(x[idx2]; batch = 2);
    assert_eq!(deep, array![[[1], [10], [23]], [[102], [112], [120]]]);
}

/// A batched update through a mask: each batch selects its own count.
#[test]
fn batched_masks_update_each_batch() {
    let mut x = array![[1, 2, 3], [4, 5, 6]];
    let mask = array![[true, false, true], [false, false, true]];
    at!(x[mask] = array![[-1], [-2]]; batch = 1);
    assert_eq!(x, array![[-1, 2, -1], [4, 5, -2]]);
    at!(x[mask] += 10; batch = 1);
    assert_eq!(x, array![[9, 2, 9], [4, 5, 8]]);
    // A read would not stack: refused.
    assert_eq!(try_at!(x[mask]; batch = 1).unwrap_err(), IndexError::BatchedMaskRead);
}

/// `along` pairs the other axes already: under `batch = 1` its axis counts
/// in each batch's `x[b]`.
#[test]
fn along_under_a_batch_counts_its_axis_per_batch() {
    let x = cube(2, 3, 4);
    let idx = array![[[3usize], [0], [1]], [[2], [2], [0]]];
    let batched: Array3<i64> = at!(x[along(idx, -1)]; batch = 1);
    let plain: Array3<i64> = at!(x[along(idx, 2)]);
    assert_eq!(batched, plain);
}

/// `set!`, `try_set!`, `mode` and `out` combine with `batch`.
#[test]
fn batch_combines_with_the_other_forms() {
    let x = array![[1, 2, 3], [4, 5, 6]];
    let idx = array![[2usize, 9], [0, 1]];
    let y = set!(x[idx] = 0; batch = 1, mode = drop);
    assert_eq!(y, array![[1, 2, 0], [0, 0, 6]]);
    assert_eq!(x, array![[1, 2, 3], [4, 5, 6]]);
    let z = try_set!({ x.clone() }[idx] = 0; mode = clip, batch = 1).unwrap();
    assert_eq!(z, array![[1, 2, 0], [0, 0, 6]]);
    let filled: Array2<i32> = at!(x[idx]; batch = 1, mode = fill(-1));
    assert_eq!(filled, array![[3, -1], [4, 5]]);
    let mut out = Array2::<i32>::zeros((2, 2));
    at!(x[idx]; batch = 1, mode = wrap, out = out);
    assert_eq!(out, array![[3, 1], [4, 5]]);
    let mut w = x.clone();
    at!(w[idx].apply(|e| e * 10); batch = 1, mode = clip);
    // A duplicate applies once per occurrence, as `.apply` always does.
    assert_eq!(w, array![[1, 2, 300], [40, 50, 6]]);
}

/// Every error is found before the first write, in any batch: the target
/// is unchanged.
#[test]
fn errors_in_any_batch_leave_the_target_unchanged() {
    let mut x = array![[1, 2, 3], [4, 5, 6]];
    let late = array![[0usize], [3]];
    let error = try_at!(x[late] = 0; batch = 1).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 3, axis: 0, len: 3 });
    assert_eq!(x, array![[1, 2, 3], [4, 5, 6]]);
    let three = array![[0usize], [1], [2]];
    let error = try_at!(x[three] += 1; batch = 1).unwrap_err();
    assert_eq!(
        error,
        IndexError::BatchShape {
            part: BatchPart::Index(0),
            axis: 0,
            len: 3,
            expected: 2
        }
    );
    assert_eq!(
        error.to_string(),
        "batch axis 0 of the index at position 0 has length 3, but the target's has length 2 (batch axes are equal, or 1 to broadcast)"
    );
    let rows = array![[0usize], [1]];
    let error = try_at!(x[rows] = array![[1], [2], [3]]; batch = 1).unwrap_err();
    assert!(matches!(
        error,
        IndexError::BatchShape {
            part: BatchPart::Value,
            ..
        }
    ));
    let flat = array![0usize, 1];
    let error = try_at!(x[flat] = array![[7, 8]].into_dyn(); batch = 1).unwrap_err();
    assert!(matches!(error, IndexError::ShapeMismatch { .. }), "{error}");
    assert_eq!(x, array![[1, 2, 3], [4, 5, 6]]);
    let error = try_at!(x[rows] /= 0; batch = 1).unwrap_err();
    assert_eq!(error, IndexError::DivisionByZero);
    assert_eq!(x, array![[1, 2, 3], [4, 5, 6]]);
}

/// The runtime API: the batch count is an argument of the `_batched`
/// functions and a method of the builders.
#[test]
fn the_runtime_api_takes_a_batch_count() {
    use tensor_at::backend::{get_batched, update_batched};
    use tensor_at::{IndexExt, IndexMutExt};
    let x = cube(2, 3, 1);
    let idx = array![[2usize], [0]];
    let picked = get_batched(&x, &[ix(&idx)], 1, Mode::Error).unwrap();
    assert_eq!(picked, array![[[20]], [[100]]].into_dyn());
    assert_eq!(x.at(&[ix(&idx)]).batch::<1>().get().unwrap(), picked);
    let mut counts = Array2::<u32>::zeros((2, 3));
    let votes = array![[2usize, 2, 1], [0, 0, 0]];
    update_batched(&mut counts, &[ix(&votes)], 1, Op::Add, 1, Mode::Error).unwrap();
    counts.at_mut(&[ix(&votes)]).batch::<1>().add(1).unwrap();
    assert_eq!(counts, array![[0, 2, 4], [6, 0, 0]]);
    // No batch position: the shape any batch would read.
    let (empty, nothing) = (Array1::<usize>::zeros(0).insert_axis(Axis(1)), Array2::<i32>::zeros((0, 3)));
    let none = get_batched(&nothing, &[ix(&empty)], 1, Mode::Error).unwrap();
    assert_eq!(none.shape(), &[0, 1]);
}

/// Arrays after a slice, `None` or `...` put their axes after those
/// elements' axes in each batch (NumPy's rule for adjacent arrays): reads
/// (into a new array and into `out`), sets with a value of the result's
/// shape or broadcast, and accumulations with duplicates, each against
/// the loop over the batch with the element written out by hand, on
/// enough batches that the whole batch is indexed at once.
#[test]
fn arrays_after_other_elements_keep_their_place_in_each_batch() {
    // As many picks as the middle axis is long: axes in the wrong order
    // would have the right shape.
    let (b, n, d) = (40, 5, 4);
    let x = cube(b, d, n);
    // idx[b, j] picks along the last axis, with duplicates; jdx[b] along
    // the middle, broadcast against idx in each batch.
    let idx = Array2::from_shape_fn((b, 4), |(i, j)| (i + 3 * j) % n);
    let jdx = Array1::from_shape_fn(b, |i| i % d).insert_axis(Axis(1));

    // x[b][:, idx[b]]: shape (d, 4) per batch.
    let picked: Array3<i64> = at!(x[:, idx]; batch = 1);
    let by_ellipsis: Array3<i64> = at!(x[..., idx]; batch = 1);
    let mut out = Array3::<i64>::zeros((b, d, 4));
    at!(x[:, idx]; batch = 1, out = out);
    let expected = Array3::from_shape_fn((b, d, 4), |(i, j, k)| x[[i, j, idx[[i, k]]]]);
    assert_eq!(picked, expected);
    assert_eq!(by_ellipsis, expected);
    assert_eq!(out, expected);

    // x[b][None, jdx[b], idx[b]]: the arrays broadcast to (4,) after the
    // new axis.
    let pair: Array3<i64> = at!(x[None, jdx, idx]; batch = 1);
    let expected = Array3::from_shape_fn((b, 1, 4), |(i, _, k)| x[[i, jdx[[i, 0]], idx[[i, k]]]]);
    assert_eq!(pair, expected);

    // x[b][1:, idx[b]] = v[b], v of the result's shape; then a value
    // broadcast over the slice's axis; then += with the duplicates summed.
    let v = Array3::from_shape_fn((b, d - 1, 4), |(i, j, k)| (1000 * i + 10 * j + k) as i64);
    let mut y = x.clone();
    at!(y[1:, idx] = v; batch = 1);
    let mut expected = x.clone();
    for i in 0..b {
        for j in 0..d - 1 {
            for k in 0..4 {
                // The last duplicate wins: later k overwrite earlier ones.
                expected[[i, j + 1, idx[[i, k]]]] = v[[i, j, k]];
            }
        }
    }
    assert_eq!(y, expected);
    let row = Array2::from_shape_fn((b, 4), |(i, k)| (i + k) as i64).insert_axis(Axis(1));
    let mut y = x.clone();
    at!(y[:, idx] += row; batch = 1);
    let mut expected = x.clone();
    for i in 0..b {
        for j in 0..d {
            for k in 0..4 {
                expected[[i, j, idx[[i, k]]]] += row[[i, 0, k]];
            }
        }
    }
    assert_eq!(y, expected);

    // A bad pick in the last batch: the loop's error, nothing written.
    let mut bad = idx.clone();
    bad[[b - 1, 3]] = n + 1;
    let mut y = x.clone();
    let error = try_at!(y[1:, bad] = v; batch = 1).unwrap_err();
    assert_eq!(
        error,
        IndexError::OutOfBounds {
            index: (n + 1) as i128,
            axis: 1,
            len: n
        }
    );
    assert_eq!(y, x);
}

/// An integer beside the arrays, and arrays apart, where NumPy's rule for
/// the broadcast axes' place differs: each batch as the loop over batches
/// says, whatever way the call runs.
#[test]
fn integers_and_arrays_apart_keep_each_batchs_layout() {
    // Three picks a batch, as many as the first axis behind the batch is
    // long: axes in the wrong order would have the right shape.
    let (b, d, n, m) = (30, 3, 4, 5);
    let x = ndarray::Array4::from_shape_fn((b, d, n, m), |(i, j, k, l)| (1000 * i + 100 * j + 10 * k + l) as i64);
    let idx = Array2::from_shape_fn((b, 3), |(i, k)| (i + 2 * k) % m);
    let jdx = Array2::from_shape_fn((b, 3), |(i, k)| (i + k) % d);

    // x[b][:, 0, idx[b]]: adjacent after a slice, so (d, 3) a batch.
    let after_a_slice: Array3<i64> = at!(x[:, 0, idx]; batch = 1);
    assert_eq!(
        after_a_slice,
        Array3::from_shape_fn((b, d, 3), |(i, j, k)| x[[i, j, 0, idx[[i, k]]]])
    );
    // x[b][0, :, idx[b]]: apart, so (3, n) a batch.
    let apart: Array3<i64> = at!(x[0, :, idx]; batch = 1);
    assert_eq!(apart, Array3::from_shape_fn((b, 3, n), |(i, k, j)| x[[i, 0, j, idx[[i, k]]]]));
    // x[b][jdx[b], :, idx[b]]: two arrays apart, (3, n) a batch.
    let pairs: Array3<i64> = at!(x[jdx, :, idx]; batch = 1);
    assert_eq!(
        pairs,
        Array3::from_shape_fn((b, 3, n), |(i, k, j)| x[[i, jdx[[i, k]], j, idx[[i, k]]]])
    );
    // x[b][:, kdx[b], None, idx[b]]: apart after a slice, (3, d, 1) a batch.
    let kdx = Array2::from_shape_fn((b, 3), |(i, k)| (i + 3 * k) % n);
    let apart_after_a_slice: ndarray::Array4<i64> = at!(x[:, kdx, None, idx]; batch = 1);
    let expected = ndarray::Array4::from_shape_fn((b, 3, d, 1), |(i, k, j, _)| x[[i, j, kdx[[i, k]], idx[[i, k]]]]);
    assert_eq!(apart_after_a_slice, expected);
    // x[b][jdx[b], 1]: an integer after the array, (3, m) a batch.
    let rows: Array3<i64> = at!(x[jdx, 1]; batch = 1);
    assert_eq!(rows, Array3::from_shape_fn((b, 3, m), |(i, k, l)| x[[i, jdx[[i, k]], 1, l]]));

    // x[b][:, 2, idx[b]] = v[b]: the last duplicate wins.
    let v = Array3::from_shape_fn((b, d, 3), |(i, j, k)| -((100 * i + 10 * j + k) as i64));
    let mut y = x.clone();
    at!(y[:, 2, idx] = v; batch = 1);
    let mut expected = x.clone();
    for i in 0..b {
        for j in 0..d {
            for k in 0..3 {
                expected[[i, j, 2, idx[[i, k]]]] = v[[i, j, k]];
            }
        }
    }
    assert_eq!(y, expected);
    // x[b][jdx[b], :, idx[b]] += w[b], (3, n) a batch, duplicates summed.
    let w = Array3::from_shape_fn((b, 3, n), |(i, k, j)| (i + k + j) as i64);
    let mut y = x.clone();
    at!(y[jdx, :, idx] += w; batch = 1);
    let mut expected = x.clone();
    for i in 0..b {
        for k in 0..3 {
            for j in 0..n {
                expected[[i, jdx[[i, k]], j, idx[[i, k]]]] += w[[i, k, j]];
            }
        }
    }
    assert_eq!(y, expected);

    // An integer out of bounds: the loop's error (the batch's own axis),
    // nothing written.
    let mut y = x.clone();
    let error = try_at!(y[:, 7, idx] = v; batch = 1).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 7, axis: 1, len: n });
    assert_eq!(y, x);
}
