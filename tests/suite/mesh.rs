//! `ix_(a, b, ..)` between the brackets: NumPy's `x[np.ix_(a, b)]`, its
//! arrays adjacent advanced indices wherever the mesh stands, in every
//! macro and in the method syntax; and the NumPy functions beside
//! indexing, reached from the facade.

use ndarray::{Array1, Array2, Array3, ArrayD, IxDyn, array};
use tensor_at::{IndexError, IndexExt, IndexMutExt, Mode, ReadMode, at, ix_, set, try_at, try_set};

fn x() -> Array3<i64> {
    Array3::from_shape_fn((3, 4, 5), |(i, j, k)| (100 * i + 10 * j + k) as i64)
}

#[test]
fn a_mesh_reads_the_cross_product_with_a_static_rank() {
    let x = x();
    let (rows, cols) = (array![2usize, 0], vec![3i32, 1, 1]);
    // x[np.ix_([2, 0], [3, 1, 1])]: shape (2, 3, 5)
    let read: Array3<i64> = at!(x[ix_(rows, cols)]);
    assert_eq!(read.shape(), [2, 3, 5]);
    assert_eq!(read[[0, 0, 4]], 234);
    assert_eq!(read[[1, 2, 0]], 10);
    // x[(0,) + np.ix_(rows, cols)]: the int and the mesh are adjacent advanced indices.
    let read: Array2<i64> = at!(x[0, ix_(cols, [4, 0])]);
    assert_eq!(read, array![[34, 30], [14, 10], [14, 10]]);
    // x[np.ix_(rows, cols) + (slice(1, None),)]
    let read: Array3<i64> = at!(x[ix_(rows, cols), 1:]);
    assert_eq!(read.shape(), [2, 3, 4]);
    assert_eq!(read[[0, 1, 0]], 211);
    // Three arguments and literals: x[np.ix_([1], [0, 3], [-1])]
    let read: Array3<i64> = at!(x[ix_([1], [0, 3], [-1])]);
    assert_eq!(read, array![[[104], [134]]]);
    // A slice between the mesh and another array: the advanced dims go
    // first, as in NumPy's x[np.ix_([1, 2]) + (slice(None), [4])].
    let read: Array2<i64> = at!(x[ix_([1, 2]), :, [4]]);
    assert_eq!(read, array![[104, 114, 124, 134], [204, 214, 224, 234]]);
}

#[test]
fn boolean_arguments_stand_for_their_true_positions() {
    let x = x();
    let keep = array![true, false, true];
    let cols = [false, true, false, true];
    // x[np.ix_([True, False, True], [False, True, False, True])][..., 0]
    assert_eq!(at!(x[ix_(keep, cols), 0]), array![[10, 30], [210, 230]]);
    // The first of the mesh's elements alone keeps its length-1 axis.
    assert_eq!(x.at((ix_((&keep, &cols)).0, 1, 0)).get().unwrap(), array![[10i64], [210]]);
}

#[test]
fn every_macro_writes_through_a_mesh() {
    let mut x = Array2::<f64>::zeros((3, 4));
    let (rows, cols) = (vec![0usize, 2], array![1i64, -1]);
    at!(x[ix_(rows, cols)] += 1.0);
    at!(x[ix_(rows, cols)] += array![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(x, array![[0.0, 2.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 0.0, 5.0]]);
    let y = set!(x[ix_([1], [0, 1, 2, 3])] = 7.0);
    assert_eq!(y.row(1), array![7.0, 7.0, 7.0, 7.0]);
    assert_eq!(x.row(1), Array1::<f64>::zeros(4));
    try_at!(x[ix_(rows, [0])].set(-1.0)).unwrap();
    assert_eq!(x.column(0), array![-1.0, 0.0, -1.0]);
    let error = try_at!(x[ix_(rows, [4])] = 1.0).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 4, axis: 1, len: 4 });
    let error = try_set!(x[ix_([3], cols)] = 1.0).unwrap_err();
    assert_eq!(error.error, IndexError::OutOfBounds { index: 3, axis: 0, len: 3 });
    at!(x[ix_([0, 9], [0])] = 5.0; mode = drop);
    assert_eq!(x[[0, 0]], 5.0);
    // Duplicates apply in index order.
    at!(x[ix_([1, 1], [2])] += 1.0);
    assert_eq!(x[[1, 2]], 2.0);
}

/// An array that repeats one index along each row of the broadcast (a
/// mesh's first argument, `rows[:, None]`) in every mode, against the loop
/// over the cross product: reads that wrap, clip and fill; writes that
/// drop, where a row and a column index are each out of bounds and the
/// repeated array comes second; and the first bad index in error mode.
#[test]
fn every_mode_indexes_a_mesh_as_the_loop_over_its_cross_product() {
    let x = Array2::from_shape_fn((5, 6), |(i, j)| (10 * i + j) as i64);
    let rows = array![4i64, -1, 7, -6, 0];
    let cols = array![5i64, 9, -2, 0];
    let wrap = |i: i64, len: usize| i.rem_euclid(len as i64) as usize;
    let inside = |i: i64, len: usize| (-(len as i64)..len as i64).contains(&i);
    // JAX's clip: an index in [-n, n) counts as it does in bounds.
    let clip = |i: i64, len: usize| match inside(i, len) {
        true => wrap(i, len),
        false => i.clamp(0, len as i64 - 1) as usize,
    };
    let wrapped: Array2<i64> = at!(x[ix_(rows, cols)]; mode = wrap);
    let clipped: Array2<i64> = at!(x[ix_(rows, cols)]; mode = clip);
    let filled: Array2<i64> = at!(x[ix_(rows, cols)]; mode = fill(-1));
    for (a, &i) in rows.iter().enumerate() {
        for (b, &j) in cols.iter().enumerate() {
            assert_eq!(wrapped[[a, b]], x[[wrap(i, 5), wrap(j, 6)]]);
            assert_eq!(clipped[[a, b]], x[[clip(i, 5), clip(j, 6)]]);
            let expected = if inside(i, 5) && inside(j, 6) {
                x[[wrap(i, 5), wrap(j, 6)]]
            } else {
                -1
            };
            assert_eq!(filled[[a, b]], expected);
        }
    }
    // y[cols[None, :], rows[:, None]] = v: position (a, b) writes
    // y[cols[b], rows[a]], unless either is out of bounds.
    let (on_rows, on_cols) = (array![[1i64, 6, -3, 0]], array![[5i64], [-1], [8], [2]]);
    let v = Array2::from_shape_fn((4, 4), |(a, b)| 1000 + (10 * a + b) as i64);
    let mut y = x.clone();
    at!(y[on_rows, on_cols] = v; mode = drop);
    let mut expected = x.clone();
    for a in 0..4 {
        for b in 0..4 {
            let (i, j) = (on_rows[[0, b]], on_cols[[a, 0]]);
            if inside(i, 5) && inside(j, 6) {
                expected[[wrap(i, 5), wrap(j, 6)]] = v[[a, b]];
            }
        }
    }
    assert_eq!(y, expected);
    // Error mode: the first array's first bad index in the broadcast's
    // order, and nothing written.
    let error = try_at!(y[ix_(rows, cols)] = 0).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 7, axis: 0, len: 5 });
    let error = try_at!(y[ix_([0, 1], cols)] = 0).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 9, axis: 1, len: 6 });
    assert_eq!(y, expected);
}

#[test]
fn an_argument_of_dynamic_rank_other_than_one_is_refused_at_run_time() {
    let mut x = Array2::<f64>::zeros((3, 4));
    let flat = ArrayD::from_shape_vec(IxDyn(&[2]), vec![0usize, 1]).unwrap();
    let square = ArrayD::from_shape_vec(IxDyn(&[1, 1]), vec![0usize]).unwrap();
    assert_eq!(try_at!(x[ix_(flat, [1])]).unwrap().shape(), [2, 1]);
    let error = try_at!(x[ix_(flat, square)]).unwrap_err();
    assert_eq!(error, IndexError::CrossIndexRank { ndim: 2 });
    assert_eq!(
        error.to_string(),
        "Cross index must be 1 dimensional (an argument of ix_(...) has 2 dimensions)"
    );
    let before = x.clone();
    assert_eq!(
        try_at!(x[ix_(square, flat)] = 1.0).unwrap_err(),
        IndexError::CrossIndexRank { ndim: 2 }
    );
    assert_eq!(x, before);
}

#[test]
fn the_method_syntax_takes_a_mesh_too() {
    let mut x = Array2::<i32>::zeros((3, 4));
    let (rows, cols) = (array![2usize, 0], [1u8, 3]);
    x.at_mut(ix_((&rows, &cols))).set(1).unwrap();
    let read: Array2<i32> = x.at(ix_((&rows, &cols))).get().unwrap();
    assert_eq!(read, array![[1, 1], [1, 1]]);
    assert_eq!(x.iter().sum::<i32>(), 4);
    let (r, c) = ix_((rows.view(), &[true, false, false, false]));
    x.at_mut((r, c)).mode(Mode::Clip).add(10).unwrap();
    assert_eq!(x.column(0), array![10, 0, 10]);
}

#[test]
fn the_numpy_functions_are_at_the_root() {
    let mut x = array![[1.0, 0.0], [f64::NAN, -0.0]];
    assert_eq!(tensor_at::nonzero(&x), [array![0, 1], array![0, 0]]);
    assert_eq!(tensor_at::argwhere(&x), array![[0, 0], [1, 0]]);
    let taken: Array1<f64> = tensor_at::take(&x, [3, -4], ReadMode::Wrap).unwrap();
    assert_eq!(taken, array![-0.0, 1.0]);
    tensor_at::put(&mut x, [1, 2], 5.0, Mode::Error).unwrap();
    tensor_at::place(&mut x, [true, false, false, true], vec![7.0]).unwrap();
    assert_eq!(x, array![[7.0, 5.0], [5.0, 7.0]]);
    fn count<T: tensor_at::element::Nonzero>(x: &Array1<T>) -> usize {
        tensor_at::argwhere(x).nrows()
    }
    assert_eq!(count(&array![0u8, 2, 0]), 1);
}
