//! `along(idx, axis)` through the macros and the runtime API, on the
//! examples of NumPy's `take_along_axis`/`put_along_axis` and PyTorch's
//! `gather`/`scatter_add_` documentation (their printed results), and its
//! errors, each leaving the target unchanged. The reference interpreter's
//! proptests (`proptest_reference.rs`) cover the rest.

use ndarray::{Array2, Array3, array};
use tensor_at::backend::set;
use tensor_at::{IndexError, Mode, along, at, ix, try_at};

/// NumPy's `take_along_axis` docs: sorting each row through `argsort`,
/// and each row's maximum through `argmax(keepdims=True)`.
#[test]
fn take_along_axis_as_numpy_documents_it() {
    let a = array![[10, 30, 20], [60, 40, 50]];
    let ai = array![[0usize, 2, 1], [1, 2, 0]]; // np.argsort(a, axis=1)
    let sorted: Array2<i32> = at!(a[along(ai, 1)]);
    assert_eq!(sorted, array![[10, 20, 30], [40, 50, 60]]);
    let am = array![[1i64], [0]]; // np.argmax(a, axis=1, keepdims=True)
    let picked: Array2<i32> = at!(a[along(am, -1)]);
    assert_eq!(picked, array![[30], [60]]);
    // The same index along axis 0: one row per index row, columns broadcast.
    let rows = array![[1usize, 0, 1]];
    let mixed: Array2<i32> = at!(a[along(rows, 0)]);
    assert_eq!(mixed, array![[60, 30, 50]]);
}

/// NumPy's `put_along_axis` docs: `put_along_axis(a, argmax, 99, axis=1)`.
#[test]
fn put_along_axis_as_numpy_documents_it() {
    let mut a = array![[10, 30, 20], [60, 40, 50]];
    let ai = array![[1usize], [0]];
    at!(a[along(ai, 1)] = 99);
    assert_eq!(a, array![[10, 99, 20], [99, 40, 50]]);
}

/// PyTorch's `gather` docs: `torch.gather(t, 1, [[0, 0], [1, 0]])`.
#[test]
fn torch_gather_as_documented() {
    let t = array![[1, 2], [3, 4]];
    let index = array![[0i64, 0], [1, 0]];
    let gathered: Array2<i32> = at!(t[along(index, 1)]);
    assert_eq!(gathered, array![[1, 1], [4, 3]]);
}

/// PyTorch's `scatter_add_` docs: `zeros(3, 5).scatter_add_(0, [[0, 1,
/// 2, 0, 0]], ones)`: duplicates accumulate.
#[test]
fn torch_scatter_add_as_documented() {
    let mut x = Array2::<f32>::zeros((3, 5));
    let index = array![[0usize, 1, 2, 0, 0]];
    let src = Array2::<f32>::ones((1, 5));
    at!(x[along(index, 0)] += src);
    assert_eq!(x, array![[1., 0., 0., 1., 1.], [0., 1., 0., 0., 0.], [0., 0., 1., 0., 0.]]);
    let mut y = Array2::<f32>::zeros((3, 5));
    let twice = array![[0usize, 1, 2, 0, 0], [0, 0, 0, 0, 0]];
    at!(y[along(twice, 0)] += 1.0);
    assert_eq!(y, array![[2., 1., 1., 2., 2.], [0., 1., 0., 0., 0.], [0., 0., 1., 0., 0.]]);
}

/// Duplicates apply in index order: `=` keeps the last, `.max` folds all,
/// as a plain loop over the index does.
#[test]
fn duplicates_follow_index_order() {
    let mut x = Array2::<i64>::zeros((2, 3));
    let index = array![[2usize, 2, 0, 2], [1, 1, 1, 1]];
    let v = array![[1i64, 2, 3, 4], [5, 6, 7, 8]];
    let mut expected = x.clone();
    for ((r, k), &i) in index.indexed_iter() {
        expected[[r, i]] = v[[r, k]];
    }
    at!(x[along(index, 1)] = v);
    assert_eq!(x, expected);
    let mut m = Array2::<i64>::zeros((2, 3));
    let index = array![[2usize, 2, 0, 2], [1, 1, 1, 1]];
    at!(m[along(index, 1)].max(array![[5i64, 9, 3, 4], [5, 6, 7, 8]]));
    assert_eq!(m, array![[3, 0, 9], [0, 8, 0]]);
}

/// A rank-3 target, the index broadcasting along the first axis, through
/// `set!` (the original unchanged) and a mode.
#[test]
fn broadcasts_and_modes() {
    let x = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (100 * i + 10 * j + k) as i32);
    let index = Array3::from_shape_vec((1, 3, 2), vec![3usize, 0, 1, 1, 2, 3]).unwrap();
    let picked: Array3<i32> = at!(x[along(index, 2)]);
    let expected = Array3::from_shape_fn((2, 3, 2), |(i, j, k)| x[[i, j, index[[0, j, k]]]]);
    assert_eq!(picked, expected);
    let updated = tensor_at::set!({ x.clone() }[along(index, -1)] = 0);
    let mut expected = x.clone();
    for ((i, j, k), _) in picked.indexed_iter() {
        expected[[i, j, index[[0, j, k]]]] = 0;
    }
    assert_eq!(updated, expected);
    let wild = Array3::from_shape_vec((1, 1, 2), vec![7i64, -9]).unwrap();
    let clipped: Array3<i32> = at!(x[along(wild, 2)]; mode = clip);
    assert_eq!(clipped, Array3::from_shape_fn((2, 3, 2), |(i, j, k)| x[[i, j, [3, 0][k]]]));
    let filled: Array3<i32> = at!(x[along(wild, 2)]; mode = fill(-1));
    assert!(filled.iter().all(|&e| e == -1));
}

/// Each error names its cause and writes nothing.
#[test]
fn errors_leave_the_target_unchanged() {
    let mut x = Array2::from_shape_fn((2, 3), |(i, j)| (10 * i + j) as f64);
    let original = x.clone();
    let bad_bounds = array![[0usize], [3]];
    let error = try_at!(x[along(bad_bounds, 1)] += 1.0).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 3, axis: 1, len: 3 });
    let bad_shape = array![[0usize], [1], [2]];
    let error = try_at!(x[along(bad_shape, 1)] = 1.0).unwrap_err();
    assert!(matches!(error, IndexError::AlongShape { axis: 1, .. }), "{error}");
    let fine = array![[0usize], [1]];
    // An axis known at run time only (a literal is checked at compile
    // time: `tests/ui/along_axis_out_of_range.rs`).
    let axis = 2;
    let error = try_at!(x[along(fine, axis)] = 1.0).unwrap_err();
    assert_eq!(error, IndexError::AxisOutOfRange { axis: 2, ndim: 2 });
    assert_eq!(error.to_string(), "axis 2 is out of bounds for array of dimension 2");
    let error = try_at!(x[along(fine, 1)] = array![[1.0, 2.0]]).unwrap_err();
    assert!(matches!(error, IndexError::ShapeMismatch { .. }), "{error}");
    // Built at run time: the rank and the company of other elements.
    let flat = ndarray::arr1(&[0usize]);
    let error = set(&mut x, &[ix(along(&flat, 0))], 1.0, Mode::Error).unwrap_err();
    assert_eq!(error, IndexError::AlongRank { index: 1, target: 2 });
    let error = set(&mut x, &[ix(along(&fine, 0)), ix(0)], 1.0, Mode::Error).unwrap_err();
    assert_eq!(error, IndexError::AlongNotAlone);
    assert_eq!(x, original);
}

/// TensorFlow's `tf.gather(x, idx, batch_dims=1)` on `x` of shape `(b, n,
/// d)` and `idx` of shape `(b, k)` is `along` with a new last axis on the
/// index (it broadcasts over `d`), and JAX's `vmap` of `x.at[i].add(g)` is
/// `along` with `+=`: both checked against the loop over the batch.
#[test]
fn batched_gathers_and_vmapped_adds_as_loops() {
    use ndarray::{Axis, s};
    let x = Array3::from_shape_fn((3, 5, 2), |(b, n, d)| (100 * b + 10 * n + d) as i64);
    let idx = array![[4usize, 0, 4, 1], [2, 2, 3, 0], [1, 0, 0, 4]];
    let gathered: Array3<i64> = at!(x[along(idx.view().insert_axis(Axis(2)), 1)]);
    for b in 0..3 {
        for (k, &i) in idx.row(b).iter().enumerate() {
            assert_eq!(gathered.slice(s![b, k, ..]), x.slice(s![b, i, ..]), "batch {b}, pick {k}");
        }
    }
    let mut y = Array2::<i64>::zeros((3, 5));
    let g = Array2::from_shape_fn((3, 4), |(b, k)| (10 * b + k) as i64 + 1);
    let mut expected = y.clone();
    for b in 0..3 {
        for k in 0..4 {
            expected[[b, idx[[b, k]]]] += g[[b, k]];
        }
    }
    at!(y[along(idx, 1)] += g);
    assert_eq!(y, expected);
}

/// A read into a new array checks the index as it gathers, a block of
/// picks at a time, on one thread and on more: the error names the first
/// index out of bounds in C order wherever it lies, and a read of the
/// index in bounds equals the loop.
#[test]
fn a_large_read_reports_its_first_index_out_of_bounds_wherever_it_lies() {
    let (rows, len, picks) = (16_640, 512, 8);
    let x = Array2::from_shape_fn((rows, len), |(r, c)| (r * len + c) as f32);
    let idx = Array2::from_shape_fn((rows, picks), |(r, k)| ((r * 37 + k * 101) % (2 * len)) as i64 - len as i64);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let read: Array2<f32> = at!(x[along(idx, 1)]);
            let expected = Array2::from_shape_fn((rows, picks), |(r, k)| x[[r, idx[[r, k]].rem_euclid(len as i64) as usize]]);
            assert_eq!(read, expected, "{threads} threads");
            // Two indices out of bounds: the first in C order is named.
            for (first, later) in [((0, 0), (0, 5)), ((9_000, 3), (16_639, 7)), ((16_639, 6), (16_639, 7))] {
                let mut bad = idx.clone();
                bad[first] = len as i64;
                bad[later] = -(len as i64) - 1;
                let error = try_at!(x[along(bad, 1)]).unwrap_err();
                assert_eq!(
                    error,
                    IndexError::OutOfBounds {
                        index: 512,
                        axis: 1,
                        len: 512
                    },
                    "{first:?}, {threads} threads"
                );
            }
        });
    }
}
