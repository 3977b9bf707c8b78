//! The same macro calls on an ndarray and on a burn tensor (the flex
//! device), compared bit for bit: every index form, operation and mode.

use burn_tensor::{Bool, DType, Int, Tensor, TensorData};
use ndarray::{Array, Array1, Array2, ArrayD, Ix1, Ix2, Ix3, Ix4, IxDyn, array};
use tensor_at::backend::{AnyMode, Indexable, IndexableMut, Value};
use tensor_at::burn::{BurnError, unique};
use tensor_at::rank::Dynamic;
use tensor_at::{IndexError, Op, along, at, ix, nd, set, try_at};
use tensor_at_burn_tests::{float, float_array, plain, same_bits};

/// Distinct values of `shape`, negative and positive, with repeats of none.
fn sample(shape: &[usize]) -> ArrayD<f64> {
    let len = shape.iter().product::<usize>();
    ArrayD::from_shape_vec(IxDyn(shape), (0..len).map(|i| (i as f64 - len as f64 / 2.0) * 0.75).collect()).unwrap()
}

/// Runs `body` on `x` as an ndarray of dimension `$dim`, then as a burn
/// tensor of rank `$rank`, and compares the results bit for bit.
macro_rules! same {
    ($rank:literal, $dim:ty, $shape:expr, |$x:ident| $body:block) => {{
        let start = sample(&$shape);
        let expected = {
            #[allow(unused_mut)]
            let mut $x: Array<f64, $dim> = start.clone().into_dimensionality().unwrap();
            $body;
            $x.into_dyn()
        };
        let actual = {
            #[allow(unused_mut)]
            let mut $x: Tensor<$rank> = float(&start, &plain());
            $body;
            float_array($x)
        };
        assert!(same_bits(&actual, &expected), "burn:\n{actual}\nndarray:\n{expected}");
    }};
}

/// Reads `read` from `x` as an ndarray and as a burn tensor, and compares.
macro_rules! same_read {
    ($rank:literal, $dim:ty, $shape:expr, |$x:ident| $read:expr) => {{
        let start = sample(&$shape);
        let expected = {
            let $x: Array<f64, $dim> = start.clone().into_dimensionality().unwrap();
            let read = $read;
            read.to_owned().into_dyn()
        };
        let actual = {
            let $x: Tensor<$rank> = float(&start, &plain());
            float_array($read)
        };
        assert!(same_bits(&actual, &expected), "burn:\n{actual}\nndarray:\n{expected}");
    }};
}

/// A read of dynamic rank: the ndarray one as it is, the burn one in rank 1.
trait IntoRank1 {
    type Out;
    fn into_rank1(self) -> Self::Out;
}

impl IntoRank1 for tensor_at::burn::AnyRank<burn_tensor::Float> {
    type Out = Tensor<1>;
    fn into_rank1(self) -> Tensor<1> {
        self.into_rank::<1>().unwrap()
    }
}

impl IntoRank1 for ArrayD<f64> {
    type Out = ArrayD<f64>;
    fn into_rank1(self) -> ArrayD<f64> {
        self
    }
}

fn into_rank1<R: IntoRank1>(read: R) -> R::Out {
    read.into_rank1()
}

#[test]
fn basic_reads() {
    same_read!(2, Ix2, [4, 5], |x| at!(x[1..3, ..]));
    same_read!(2, Ix2, [4, 5], |x| at!(x[::-1, 1::2]));
    same_read!(2, Ix2, [4, 5], |x| at!(x[.., -1..;-2]));
    same_read!(3, Ix3, [2, 3, 4], |x| at!(x[..., 1]));
    same_read!(3, Ix3, [2, 3, 4], |x| at!(x[1, None, .., 2..]));
}

#[test]
fn advanced_reads() {
    same_read!(2, Ix2, [4, 5], |x| at!(x[[3, 0, 3], 1..4]));
    same_read!(2, Ix2, [4, 5], |x| at!(x[.., [4, -1, 0]]));
    same_read!(3, Ix3, [2, 3, 4], |x| at!(x[[1, 0], .., [3, 2]]));
    same_read!(2, Ix2, [4, 5], |x| into_rank1(at!(x[nd(array![[1, 2], [3, 4], [1, 2]])])));
    same_read!(2, Ix2, [4, 5], |x| at!(x[along(array![[0, 4], [1, 1], [2, 0], [3, 3]], 1)]));
    same_read!(2, Ix2, [4, 5], |x| at!(x[x > 1.0]));
    same_read!(1, Ix1, [6], |x| at!(x[[7, -9, 2]]; mode = clip));
    same_read!(1, Ix1, [6], |x| at!(x[[7, -9, 2]]; mode = wrap));
    same_read!(1, Ix1, [6], |x| at!(x[[7, -9, 2]]; mode = fill(-4.5)));
    same_read!(2, Ix2, [3, 4], |x| at!(x[[[0, 1], [2, 2], [3, 0]]]; batch = 1));
}

#[test]
fn element_reads_are_one_element_tensors() {
    let x: Tensor<2> = float(&sample(&[3, 4]), &plain());
    let element: Tensor<1> = at!(x[2, -1]);
    assert_eq!(float_array(element).as_slice().unwrap(), &[sample(&[3, 4])[[2, 3]]]);
}

#[test]
fn writes_with_repeated_positions() {
    let idx = [1, 4, 1, 1, 0];
    same!(1, Ix1, [6], |x| { at!(x[idx] = array![1.5, 2.5, 3.5, 4.5, 5.5]) });
    same!(1, Ix1, [6], |x| { at!(x[idx] += array![1.5, 2.5, 3.5, 4.5, 5.5]) });
    same!(1, Ix1, [6], |x| { at!(x[idx] -= 0.1) });
    same!(1, Ix1, [6], |x| { at!(x[idx] *= array![1.5, -2.5, 0.0, 4.5, 5.5]) });
    same!(1, Ix1, [6], |x| { at!(x[idx] /= array![1.5, -2.5, 3.0, 4.5, 5.5]) });
    same!(1, Ix1, [6], |x| { at!(x[idx].min(array![1.5, -2.5, 3.0, -4.5, 5.5])) });
    same!(1, Ix1, [6], |x| { at!(x[idx].max(array![1.5, -2.5, 3.0, -4.5, f64::NAN])) });
    same!(1, Ix1, [6], |x| { at!(x[idx].pow(array![2.0, 0.5, 3.0, 1.0, 2.0])) });
}

#[test]
fn writes_of_every_form() {
    same!(2, Ix2, [4, 5], |x| { at!(x[1.., ::2] = 7.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[::-1, 1] += array![1.0, 2.0, 3.0, 4.0]) });
    same!(2, Ix2, [4, 5], |x| {
        at!(x[[0, 2, 0], 1:4:2] += array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    });
    same!(3, Ix3, [2, 3, 4], |x| { at!(x[..., [3, 3]] *= 2.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[x < 0.0] = 0.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[(x > -2.0) & (x < 2.0)] *= 10.0) });
    same!(2, Ix2, [4, 5], |x| {
        at!(x[x < 0.0] = array![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    });
    same!(2, Ix2, [4, 5], |x| { at!(x[nd(array![[1, 2], [3, 4], [1, 2]])] += 1.0) });
    same!(2, Ix2, [4, 5], |x| {
        at!(x[along(array![[0, 0], [1, 4], [2, 2], [3, 0]], 1)] += 1.0)
    });
    // Views: burn's slices, every step and axis form.
    same!(2, Ix2, [4, 5], |x| {
        at!(x[1:, ::-2] *= array![[1.5, 0.0, -2.0], [3.0, 4.0, 0.5], [2.0, 2.0, 2.0]])
    });
    same!(3, Ix3, [2, 3, 4], |x| { at!(x[None, 1, 1:3, ::-3] -= 2.0) });
    same!(3, Ix3, [2, 3, 4], |x| { at!(x[..., 2] /= 4.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[1, 1] = 3.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[2:2] = 1.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[1:3, ..].max(0.5)) });
    // Rows: the trailing axes whole.
    same!(2, Ix2, [4, 5], |x| { at!(x[[3, 0, 3]] = array![[1.0], [2.0], [3.0]]) });
    same!(3, Ix3, [4, 2, 3], |x| { at!(x[[0, 2, 0], ..] += 1.5) });
    same!(3, Ix3, [4, 2, 3], |x| { at!(x[1, [1, 0]] *= 2.0) });
    same!(1, Ix1, [6], |x| { at!(x[[7, -9, 2, 9]] = 9.0; mode = drop) });
    same!(1, Ix1, [6], |x| { at!(x[[7, -9, 2]] += 1.0; mode = clip) });
    same!(1, Ix1, [6], |x| { at!(x[[7, -9, 2]] = 3.0; mode = wrap) });
    same!(2, Ix2, [3, 4], |x| {
        at!(x[[[0, 1], [2, 2], [3, 0]]] += array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]; batch = 1)
    });
}

#[test]
fn tensors_with_no_elements() {
    // burn's own reshape reads a length of 0 as the source's length: calls
    // that touch no element once panicked inside burn (found by the `burn`
    // fuzz target with the first of these).
    same_read!(4, Ix4, [1, 0, 5, 5], |x| at!(x[..]));
    same_read!(2, Ix2, [0, 3], |x| at!(x[.., [0, 2]]));
    same_read!(2, Ix2, [4, 0], |x| at!(x[[1, 3, 1]]));
    same_read!(2, Ix2, [4, 0], |x| at!(x[x > 0.0]));
    same_read!(2, Ix2, [3, 4], |x| at!(x[[0, 2], 4:]));
    same!(2, Ix2, [0, 3], |x| { at!(x[[1, 2]] = 1.0; mode = drop) });
    same!(2, Ix2, [4, 0], |x| { at!(x[[1, 3, 1]] += 1.0) });
    same!(2, Ix2, [4, 0], |x| { at!(x[[1, 3, 1]] *= 2.0) });
    same!(3, Ix3, [2, 0, 3], |x| { at!(x[1, .., ::-1] -= 1.0) });
    same!(2, Ix2, [3, 4], |x| { at!(x[[0, 2], 4:] = 1.0) });
    same!(2, Ix2, [3, 4], |x| { at!(x[x > 100.0] *= 2.0) });
    // Reads in mode `fill` from an axis of no rows: all filled.
    same_read!(4, Ix4, [0, 5, 4, 1], |x| at!(x[0]; mode = fill(f64::NAN)));
    same_read!(2, Ix2, [0, 3], |x| at!(x[[0, -1, 2]]; mode = fill(1.5)));
    let idx = tensor_at_burn_tests::int::<1>(&array![0i64, 3].into_dyn(), &plain());
    let x: Tensor<2> = float(&sample(&[0, 3]), &plain());
    let read: Tensor<2> = at!(x[&idx]; mode = fill(2.5));
    assert!(same_bits(&float_array(read), &ndarray::Array2::from_elem((2, 3), 2.5).into_dyn()));
    // Slices whose step passes the axis, on an empty view or beside an
    // array (the general path): a step times a stride once overflowed.
    same!(3, Ix3, [3, 0, 4], |x| { at!(x[.., ..;isize::MAX, ..;2] += 1.0) });
    same!(2, Ix2, [4, 5], |x| { at!(x[..;-isize::MAX, [1, 3]] *= 2.0) });
    // Writes in mode `drop` to an axis of no rows, by device indices: all
    // skipped.
    for op in [Op::Add, Op::Mul, Op::Max] {
        let mut x: Tensor<2> = float(&sample(&[0, 3]), &plain());
        let ids = tensor_at_burn_tests::int::<1>(&array![0i64, 5, -1].into_dyn(), &plain());
        IndexableMut::update_index(&mut x, &[ix(&ids)], 0, op, Value::Scalar(1.5), AnyMode::Drop).unwrap();
        assert_eq!(x.dims(), [0, 3]);
    }
    let mut x: Tensor<2> = float(&sample(&[0, 3]), &plain());
    let ids = tensor_at_burn_tests::int::<1>(&array![0i64, 5].into_dyn(), &plain());
    at!(x[&ids] = 2.0; mode = drop);
    assert_eq!(x.dims(), [0, 3]);
    // A value tensor of no elements, broadcast (burn's `expand` refuses a
    // length of 0).
    let mut x: Tensor<2> = float(&sample(&[0, 0]), &plain());
    at!(x[..] -= float::<2>(&sample(&[1, 0]), &plain()));
    assert_eq!(x.dims(), [0, 0]);
}

#[test]
fn burn_tensors_as_values() {
    let device = plain();
    let v: Tensor<2> = float(&sample(&[3, 2]), &device);
    let start = sample(&[4, 5]);
    let mut expected: Array<f64, Ix2> = start.clone().into_dimensionality().unwrap();
    at!(expected[[0, 2, 0], 1:4:2] += sample(&[3, 2]));
    let mut x: Tensor<2> = float(&start, &device);
    at!(x[[0, 2, 0], 1:4:2] += v.clone());
    assert!(same_bits(&float_array(x), &expected.into_dyn()));

    // Broadcast from a row.
    let row: Tensor<1> = float(&sample(&[5]), &device);
    let updated = set!(float::<2>(&start, &device)[1..3] = row);
    let mut expected: Array<f64, Ix2> = start.clone().into_dimensionality().unwrap();
    at!(expected[1..3] = sample(&[5]));
    assert!(same_bits(&float_array(updated), &expected.into_dyn()));

    // A row repeated down rows picked twice, and a column across them.
    let mut expected: Array<f64, Ix2> = start.clone().into_dimensionality().unwrap();
    at!(expected[[0, 2, 0]] += sample(&[5]));
    at!(expected[[3, 1]] *= sample(&[2, 1]));
    let mut x: Tensor<2> = float(&start, &device);
    at!(x[[0, 2, 0]] += float::<1>(&sample(&[5]), &device));
    at!(x[[3, 1]] *= float::<2>(&sample(&[2, 1]), &device));
    assert!(same_bits(&float_array(x), &expected.into_dyn()));
}

#[test]
fn errors_are_numpy_s_and_nothing_is_written() {
    let start = sample(&[6]);
    let mut x: Tensor<1> = float(&start, &plain());
    let error = try_at!(x[[1, 7]] += 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 7, axis: 0, len: 6 })),
        "{error}"
    );
    assert!(same_bits(&float_array(x.clone()), &start));

    let error = try_at!(x[[1, 2]] = array![1.0, 2.0, 3.0]).unwrap_err();
    assert!(matches!(error, BurnError::Index(IndexError::ShapeMismatch { .. })), "{error}");
    assert!(same_bits(&float_array(x.clone()), &start));

    // A mode the access does not take is the first error, before the
    // index's (too many elements here, one a device array), as on an
    // ndarray. Only the runtime API can ask for it: the macros refuse it.
    let idx = tensor_at_burn_tests::int::<1>(&array![0i64].into_dyn(), &plain());
    let error = IndexableMut::update_index(
        &mut x,
        &[ix(2), ix(3), ix(&idx)],
        0,
        Op::Div,
        Value::Scalar(1.0),
        AnyMode::Fill(0.0),
    )
    .unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::UnsupportedMode { mode: "fill", .. })),
        "{error}"
    );
    // A device index array on an axis of no length: its own first index is
    // the error's, as on an ndarray (of an `nd` array: its column's).
    let empty: Tensor<2> = float(&sample(&[0, 3]), &plain());
    let ids = tensor_at_burn_tests::int::<1>(&array![-5i64, 2].into_dyn(), &plain());
    let error = try_at!(empty[&ids, 1]).unwrap_err();
    assert!(
        matches!(
            error,
            BurnError::Index(IndexError::OutOfBounds {
                index: -5,
                axis: 0,
                len: 0
            })
        ),
        "{error}"
    );
    let mut empty: Tensor<2> = float(&sample(&[3, 0]), &plain());
    let points = tensor_at_burn_tests::int::<2>(&array![[0i64, 7], [1, 0]].into_dyn(), &plain());
    let error = try_at!(empty[nd(&points)] += 1.0; mode = wrap).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 7, axis: 1, len: 0 })),
        "{error}"
    );
    // In mode `error`, a device array out of bounds is reported before a
    // host array out of bounds on a later axis, and before the value's
    // errors, as on an ndarray.
    let cube: Tensor<3> = float(&sample(&[7, 2, 2]), &plain());
    let host_cube = sample(&[7, 2, 2]).into_dimensionality::<Ix3>().unwrap();
    let far = tensor_at_burn_tests::int::<1>(&array![3i64, 8].into_dyn(), &plain());
    let expected = try_at!(host_cube[[3, 8], [5, 0]]).unwrap_err();
    let error = try_at!(cube[&far, [5, 0]]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // An `nd` column out of bounds comes before the next column's, on an
    // axis of no length.
    let mut hollow: Tensor<2> = float(&sample(&[8, 0]), &plain());
    let points = tensor_at_burn_tests::int::<2>(&array![[9i64, 4]].into_dyn(), &plain());
    let error = try_at!(hollow[nd(&points)] += 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 9, axis: 0, len: 8 })),
        "{error}"
    );
    // Where the region is empty because another axis has no length, the
    // arrays' elements are still checked (NumPy checks every position of
    // their broadcast); where they broadcast to no position, nothing is.
    let flat_cube: Tensor<3> = float(&sample(&[1, 0, 2]), &plain());
    let mut host_flat_cube = sample(&[1, 0, 2]).into_dimensionality::<Ix3>().unwrap();
    let points = tensor_at_burn_tests::int::<2>(&array![[0i64], [4]].into_dyn(), &plain());
    let expected = try_at!(host_flat_cube[nd(array![[0i64], [4]])]).unwrap_err();
    let error = try_at!(flat_cube[nd(&points)]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let mut flat_cube = flat_cube;
    let error = try_at!(flat_cube[&far, .., 1] = 2.0).unwrap_err();
    let expected = try_at!(host_flat_cube[[3, 8], .., 1] = 2.0).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // An integer on an axis of no length is reported before an `nd`
    // column there, as on an ndarray.
    let flat_box: Tensor<3> = float(&sample(&[1, 0, 0]), &plain());
    let host_flat_box = sample(&[1, 0, 0]).into_dimensionality::<Ix3>().unwrap();
    let points = tensor_at_burn_tests::int::<2>(&array![[0i64, 0], [-1, 0]].into_dyn(), &plain());
    let expected = try_at!(host_flat_box[nd(array![[0i64, 0], [-1, 0]]), 0]).unwrap_err();
    let error = try_at!(flat_box[nd(&points), 0]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // Device arrays that broadcast to no position are not checked before
    // the value's error: NumPy never checks them.
    let far_rows = tensor_at_burn_tests::int::<2>(&array![[7i64]].into_dyn(), &plain());
    let mut host_grid = sample(&[3, 4]).into_dimensionality::<Ix2>().unwrap();
    let no_columns = || ndarray::Array2::<i64>::zeros((0, 1));
    let expected = try_at!(host_grid[nd(array![[7i64]]), nd(no_columns())] = array![1.0, 2.0, 3.0]).unwrap_err();
    let mut wide: Tensor<2> = float(&sample(&[3, 4]), &plain());
    let error = try_at!(wide[nd(&far_rows), nd(no_columns())] = array![1.0, 2.0, 3.0]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // A zero-dimensional host array and a single `nd` point on the device
    // index as integers: both are checked before any array.
    let hollow_cube: Tensor<4> = float(&sample(&[4, 0, 0, 0]), &plain());
    let host_hollow_cube = sample(&[4, 0, 0, 0]).into_dimensionality::<ndarray::Ix4>().unwrap();
    let ids = tensor_at_burn_tests::int::<1>(&array![0i64, 1, 1].into_dyn(), &plain());
    let expected = try_at!(host_hollow_cube[[5, 5, 5], [0, 1, 1], [1, 1, 1], ndarray::arr0(1)]).unwrap_err();
    let error = try_at!(hollow_cube[[5, 5, 5], &ids, [1, 1, 1], ndarray::arr0(1)]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let column: Tensor<4> = float(&sample(&[4, 1, 3, 1]), &plain());
    let host_column = sample(&[4, 1, 3, 1]).into_dimensionality::<ndarray::Ix4>().unwrap();
    let far_points = tensor_at_burn_tests::int::<2>(&array![[7i64]].into_dyn(), &plain());
    let point = tensor_at_burn_tests::int::<1>(&array![-3i64].into_dyn(), &plain());
    let expected = try_at!(host_column[nd(array![[7i64]]), nd(array![-3i64])]).unwrap_err();
    let error = try_at!(column[nd(&far_points), nd(&point)]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // So does a single `nd` point on the host.
    let ids = tensor_at_burn_tests::int::<1>(&array![0i64].into_dyn(), &plain());
    let expected = try_at!(host_hollow_cube[nd(array![-3i64, 0]), nd(array![0i64])]).unwrap_err();
    let error = try_at!(hollow_cube[nd(array![-3i64, 0]), nd(&ids)]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // A point is checked however empty the region (an `nd` of no points
    // beside it).
    let mut square: Tensor<2> = float(&sample(&[2, 2]), &plain());
    let far_point = tensor_at_burn_tests::int::<1>(&array![-3i64].into_dyn(), &plain());
    let no_points = ndarray::Array2::<i64>::zeros((0, 1));
    let error = try_at!(square[nd(&far_point), nd(no_points)] += 1.0).unwrap_err();
    assert!(
        matches!(
            error,
            BurnError::Index(IndexError::OutOfBounds {
                index: -3,
                axis: 0,
                len: 2
            })
        ),
        "{error}"
    );
    // A point comes before a later slice's zero step, and before the
    // arrays' broadcast.
    let mut tall: Tensor<2> = float(&sample(&[3, 1]), &plain());
    let mut host_tall = sample(&[3, 1]).into_dimensionality::<Ix2>().unwrap();
    let minus_five = tensor_at_burn_tests::int::<1>(&array![-5i64].into_dyn(), &plain());
    let zero = 0isize;
    let expected = try_at!(host_tall[nd(array![-5i64]), ::zero] -= 1.0).unwrap_err();
    let error = try_at!(tall[nd(&minus_five), ::zero] -= 1.0).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let expected = try_at!(host_tall[nd(array![-5i64]), [0, 0, 0], [0, 0]] = 1.0).unwrap_err();
    let error = try_at!(tall[nd(&minus_five), [0, 0, 0], [0, 0]] = 1.0).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    // A device array of no elements has nothing out of bounds: the error
    // is the value's.
    let mut grid: Tensor<2> = float(&sample(&[3, 4]), &plain());
    let no_ids = tensor_at_burn_tests::int::<1>(&ndarray::Array1::<i64>::zeros(0).into_dyn(), &plain());
    let error = try_at!(grid[&no_ids] = array![1.0, 2.0]).unwrap_err();
    assert!(matches!(error, BurnError::Index(IndexError::ShapeMismatch { .. })), "{error}");
    // A single `nd` point indexes as integers: checked however empty the
    // region.
    let mut hollow_rows: Tensor<2> = float(&sample(&[0, 5]), &plain());
    let point = tensor_at_burn_tests::int::<1>(&array![7i64].into_dyn(), &plain());
    let error = try_at!(hollow_rows[.., nd(&point)] += 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 7, axis: 1, len: 5 })),
        "{error}"
    );
    let none = tensor_at_burn_tests::int::<1>(&ndarray::Array1::<i64>::zeros(0).into_dyn(), &plain());
    let read = try_at!(flat_cube[[5], .., &none]).unwrap();
    let host_read = try_at!(host_flat_cube[[5], .., ndarray::Array1::<i64>::zeros(0)]).unwrap();
    assert_eq!(read.dims().to_vec(), host_read.shape().to_vec());
    // An integer's comes first of all (NumPy checks integers before arrays).
    let expected = try_at!(host_cube[[3, 8], 1, 9]).unwrap_err();
    let error = try_at!(cube[&far, 1, 9]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let mut line: Tensor<1> = float(&start, &plain());
    let mut host_line = start.clone().into_dimensionality::<Ix1>().unwrap();
    let expected = try_at!(host_line[[3, 8]] = array![1.0, 2.0, 3.0]).unwrap_err();
    let error = try_at!(line[&far] = array![1.0, 2.0, 3.0]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    assert!(same_bits(&float_array(line), &start));
    let error = Indexable::read_index::<Dynamic, IxDyn>(&x, &[ix(2), ix(3), ix(&idx)], 0, AnyMode::Drop).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::UnsupportedMode { mode: "drop", .. })),
        "{error}"
    );
    assert!(same_bits(&float_array(x), &start));
}

/// Runs `body` with `$i` an integer index array: on the ndarray, a host
/// array; on the burn tensor, a burn tensor of integers on its device.
macro_rules! same_device {
    ($rank:literal, $dim:ty, $shape:expr, $indices:expr, $irank:literal, |$x:ident, $i:ident| $body:block) => {{
        let start = sample(&$shape);
        let indices: ndarray::ArrayD<i64> = $indices.into_dyn();
        let expected = {
            #[allow(unused_mut)]
            let mut $x: Array<f64, $dim> = start.clone().into_dimensionality().unwrap();
            let $i: Array<i64, ndarray::Dim<[usize; $irank]>> = indices.clone().into_dimensionality().unwrap();
            $body
        };
        let actual = {
            #[allow(unused_mut)]
            let mut $x: Tensor<$rank> = float(&start, &plain());
            let $i: Tensor<$irank, burn_tensor::Int> = tensor_at_burn_tests::int(&indices, &plain());
            float_array($body)
        };
        assert!(same_bits(&actual, &expected.into_dyn()), "burn:\n{actual}");
    }};
}

#[test]
fn index_arrays_on_the_device() {
    let repeated = array![1, 4, 1, -1, 0];
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| { at!(x[i]).to_owned() });
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| {
        at!(x[i] = array![1.5, 2.5, 3.5, 4.5, 5.5]);
        x
    });
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| {
        at!(x[&i] += array![1.5, 2.5, 3.5, 4.5, 5.5]);
        x
    });
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| {
        at!(x[i] -= 0.25);
        x
    });
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| {
        at!(x[i] *= array![1.5, -2.5, 0.0, 4.5, 5.5]);
        x
    });
    // `/=` runs in rounds, as many as a position's most occurrences: a
    // count too low would divide by one occurrence alone. Counted in a
    // pass over every row's count (a short target), and among the
    // occurrences (few beside the rows).
    same_device!(1, Ix1, [6], repeated.clone(), 1, |x, i| {
        at!(x[i] /= array![1.5, -2.5, 0.5, 4.5, 3.0]);
        x
    });
    same_device!(1, Ix1, [200], array![3, 150, 3, -197, 3], 1, |x, i| {
        at!(x[i] /= array![1.5, -2.5, 0.5, 4.5, 3.0]);
        x
    });
    same_device!(2, Ix2, [4, 5], array![[4, 0], [4, 2]], 2, |x, i| { at!(x[1.., i]).to_owned() });
    same_device!(2, Ix2, [4, 5], array![[4, 0], [4, 2]], 2, |x, i| {
        at!(x[[0, 3], i] += 1.0);
        x
    });
    same_device!(2, Ix2, [4, 5], array![[1, 2], [3, 4], [1, 2]], 2, |x, i| {
        at!(x[nd(i)] += 2.0);
        x
    });
    same_device!(2, Ix2, [4, 5], array![[0, 4], [1, 1], [2, 0], [3, 3]], 2, |x, i| {
        at!(x[along(i, 1)] *= 3.0);
        x
    });
    same_device!(2, Ix2, [3, 4], array![[0, 1], [2, 2], [3, 0]], 2, |x, i| {
        at!(x[i] += array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]; batch = 1);
        x
    });
    // `along` whose index has the target's shape but along its axis:
    // burn's own gather and scatter.
    let picks = array![[0, -1], [1, 1], [4, 0], [3, 3]];
    same_device!(2, Ix2, [4, 5], picks.clone(), 2, |x, i| { at!(x[along(i, 1)]).to_owned() });
    same_device!(2, Ix2, [4, 5], picks.clone(), 2, |x, i| {
        at!(x[along(i, 1)] += 1.5);
        x
    });
    same_device!(2, Ix2, [4, 5], picks.clone(), 2, |x, i| {
        at!(x[along(i, 1)] -= array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]);
        x
    });
    let wild = array![[7, -9], [1, 5], [-1, 0], [3, 30]];
    same_device!(2, Ix2, [4, 5], wild.clone(), 2, |x, i| {
        at!(x[along(i, 1)]; mode = clip).to_owned()
    });
    same_device!(2, Ix2, [4, 5], wild.clone(), 2, |x, i| {
        at!(x[along(i, 1)] += 1.0; mode = wrap);
        x
    });
    same_device!(3, Ix3, [2, 3, 4], array![[[1, 0, 2, 1]], [[0, 0, 2, 2]]], 3, |x, i| {
        at!(x[along(i, -2)] += 0.25);
        x
    });
    // Rows repeated within a batch position: the last one is written.
    let rows = Array::from_iter((0..24).map(|v| v as f64 * 0.5 - 3.0))
        .into_shape_with_order((2, 4, 3))
        .unwrap();
    same_device!(3, Ix3, [2, 5, 3], array![[1, 4, 1, 0], [2, 2, 3, 2]], 2, |x, i| {
        at!(x[i] = rows.clone(); batch = 1);
        x
    });
    same_device!(2, Ix2, [5, 3], array![1, 4, 1, 0, 1], 1, |x, i| {
        at!(x[i] = rows.slice(ndarray::s![0, 0..1, ..]).to_owned());
        x
    });
}

/// Device arrays that place the region alone (one per axis of rows, of
/// one shape) skip the host's plan: the device checks them, on axes of no
/// length too, and reports NumPy's errors.
#[test]
fn device_arrays_alone_beside_axes_of_no_length() {
    // Rows of no length, on an axis with length: the shortcut.
    same_device!(2, Ix2, [4, 0], array![1, 3, -1], 1, |x, i| { at!(x[i]).to_owned() });
    same_device!(2, Ix2, [4, 0], array![1, 3, -1], 1, |x, i| {
        at!(x[i] += 1.0);
        x
    });
    // Arrays of no elements, with and without the shortcut.
    same_device!(1, Ix1, [5], Array1::<i64>::zeros(0), 1, |x, i| { at!(x[i]).to_owned() });
    same_device!(2, Ix2, [5, 2], Array2::<i64>::zeros((0, 3)), 2, |x, i| {
        at!(x[i] *= 2.0);
        x
    });
    same_device!(2, Ix2, [0, 2], Array1::<i64>::zeros(0), 1, |x, i| { at!(x[i]).to_owned() });
    same_device!(2, Ix2, [0, 2], Array1::<i64>::zeros(0), 1, |x, i| {
        at!(x[i] = 2.0);
        x
    });
    // An index on an axis of no length: NumPy's error, nothing written.
    let device = plain();
    let host = sample(&[0, 3]).into_dimensionality::<Ix2>().unwrap();
    let mut empty: Tensor<2> = float(&sample(&[0, 3]), &device);
    let ids = tensor_at_burn_tests::int::<1>(&array![0i64, -1].into_dyn(), &device);
    let expected = try_at!(host[array![0i64, -1]]).unwrap_err();
    let error = try_at!(empty[&ids]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let error = try_at!(empty[&ids] += 1.0).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let mut host = host;
    let expected = try_at!(host[array![0i64, -1]] += 1.0; mode = clip).unwrap_err();
    let error = try_at!(empty[&ids] += 1.0; mode = clip).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    let expected = try_at!(host[array![0i64, -1]]; mode = wrap).unwrap_err();
    let error = try_at!(empty[&ids]; mode = wrap).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
    assert_eq!(empty.dims(), [0, 3]);
    same_device!(2, Ix2, [0, 2], array![0, -1], 1, |x, i| { at!(x[i]; mode = fill(1.5)).to_owned() });
    same_device!(2, Ix2, [0, 2], array![0, -1], 1, |x, i| {
        at!(x[i] = 2.0; mode = drop);
        x
    });
    let host = sample(&[3, 0]).into_dimensionality::<Ix2>().unwrap();
    let flat: Tensor<2> = float(&sample(&[3, 0]), &device);
    let cols = tensor_at_burn_tests::int::<1>(&array![2i64, 0].into_dyn(), &device);
    let rows = tensor_at_burn_tests::int::<1>(&array![1i64, 0].into_dyn(), &device);
    let expected = try_at!(host[array![1i64, 0], array![2i64, 0]]).unwrap_err();
    let error = try_at!(flat[&rows, &cols]).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(e) if *e == expected),
        "{error}, expected {expected}"
    );
}

/// In modes `clip` and `wrap` no index is in bounds on an axis of no
/// length either: a device array there is the error, before the value's
/// and before the rounds of a write are counted, as on an ndarray.
#[test]
fn device_arrays_on_axes_of_no_length_in_clip_and_wrap() {
    let device = plain();
    let expect_same = |error: BurnError, expected: IndexError| {
        assert!(
            matches!(&error, BurnError::Index(e) if *e == expected),
            "{error}, expected {expected}"
        );
    };
    // Beside an axis with length, whose position lies past the (no) rows
    // of the target (`at!` with `.min` counts its rounds on the device).
    let mut host = sample(&[0, 4]).into_dimensionality::<Ix2>().unwrap();
    let mut empty: Tensor<2> = float(&sample(&[0, 4]), &device);
    let rows = tensor_at_burn_tests::int::<1>(&array![0i64].into_dyn(), &device);
    let cols = tensor_at_burn_tests::int::<1>(&array![1i64].into_dyn(), &device);
    for wrap in [false, true] {
        let (expected, error) = match wrap {
            false => (
                try_at!(host[array![0i64], array![1i64]].min(-1.0); mode = clip).unwrap_err(),
                try_at!(empty[&rows, &cols].min(-1.0); mode = clip).unwrap_err(),
            ),
            true => (
                try_at!(host[array![0i64], array![1i64]].min(-1.0); mode = wrap).unwrap_err(),
                try_at!(empty[&rows, &cols].min(-1.0); mode = wrap).unwrap_err(),
            ),
        };
        expect_same(error, expected);
    }
    assert_eq!(empty.dims(), [0, 4]);
    // Before an error of the value: the index's own first element.
    let mut host = sample(&[0]).into_dimensionality::<Ix1>().unwrap();
    let mut empty: Tensor<1> = float(&sample(&[0]), &device);
    let ids = tensor_at_burn_tests::int::<1>(&array![i64::MIN, 0].into_dyn(), &device);
    let value = array![1.5, 2.5, 3.5];
    let expected = try_at!(host[array![i64::MIN, 0]].max(&value); mode = wrap).unwrap_err();
    assert!(matches!(expected, IndexError::OutOfBounds { .. }), "{expected}");
    let error = try_at!(empty[&ids].max(&value); mode = wrap).unwrap_err();
    expect_same(error, expected);
    let expected = try_at!(host[array![i64::MIN, 0]] = &value; mode = clip).unwrap_err();
    let error = try_at!(empty[&ids] = &value; mode = clip).unwrap_err();
    expect_same(error, expected);
    assert_eq!(empty.dims(), [0]);
    // Unless the arrays broadcast to no position: none is read, and the
    // value's error is the call's (an integer past the end, clipped, is
    // no error either).
    let mut host = sample(&[3, 0, 4]).into_dimensionality::<Ix3>().unwrap();
    let mut empty: Tensor<3> = float(&sample(&[3, 0, 4]), &device);
    let no_indices = ndarray::Array1::<i64>::zeros(0);
    let none = tensor_at_burn_tests::int::<1>(&no_indices.clone().into_dyn(), &device);
    let zero = tensor_at_burn_tests::int::<1>(&array![0i64].into_dyn(), &device);
    let expected = try_at!(host[&no_indices, array![0i64], 9] -= &value; mode = clip).unwrap_err();
    assert!(matches!(expected, IndexError::ShapeMismatch { .. }), "{expected}");
    let error = try_at!(empty[&none, &zero, 9] -= &value; mode = clip).unwrap_err();
    expect_same(error, expected);
    assert_eq!(empty.dims(), [3, 0, 4]);
}

/// Where device arrays alone place a write's region, the host only
/// broadcasts and vets the value, over the rows' axes too; its errors
/// still come after the device arrays' bounds, as on an ndarray.
#[test]
fn device_arrays_alone_give_the_value_its_region() {
    let rows = array![[0.5, -1.5, 2.0], [3.0, 0.25, -4.0], [1.0, 1.0, 1.0], [-2.0, 0.0, 6.5]];
    same_device!(2, Ix2, [5, 3], array![1, 4, 1, 0], 1, |x, i| {
        at!(x[i] += rows.clone());
        x
    });
    same_device!(2, Ix2, [5, 3], array![1, 4, 1, 0], 1, |x, i| {
        at!(x[i] = rows.row(2).to_owned());
        x
    });
    same_device!(3, Ix3, [4, 2, 3], array![[3, -1], [0, 3]], 2, |x, i| {
        at!(x[i] *= rows.slice(ndarray::s![0..2, ..]).to_owned());
        x
    });

    let device = plain();
    let mut host = sample(&[5, 3]).into_dimensionality::<Ix2>().unwrap();
    let mut x: Tensor<2> = float(&sample(&[5, 3]), &device);
    let same_error = |error: BurnError, expected: IndexError| {
        assert!(
            matches!(&error, BurnError::Index(e) if *e == expected),
            "{error}, expected {expected}"
        );
    };
    let ids = tensor_at_burn_tests::int::<1>(&array![1i64, 4].into_dyn(), &device);
    let expected = try_at!(host[array![1i64, 4]] += array![1.0, 2.0]).unwrap_err();
    assert!(matches!(expected, IndexError::ShapeMismatch { .. }), "{expected}");
    same_error(try_at!(x[&ids] += array![1.0, 2.0]).unwrap_err(), expected);
    let far = tensor_at_burn_tests::int::<1>(&array![1i64, 5].into_dyn(), &device);
    let expected = try_at!(host[array![1i64, 5]] = array![1.0, 2.0]).unwrap_err();
    assert!(matches!(expected, IndexError::OutOfBounds { index: 5, .. }), "{expected}");
    same_error(try_at!(x[&far] = array![1.0, 2.0]).unwrap_err(), expected);
    let expected = try_at!(host[array![1i64, 5]] = array![1.0, 2.0]; mode = clip).unwrap_err();
    same_error(try_at!(x[&far] = array![1.0, 2.0]; mode = clip).unwrap_err(), expected);
    assert!(same_bits(&float_array(x), &sample(&[5, 3])), "nothing written");

    // An operand at a position that is written is vetted before anything is.
    let start = array![4i64, 8, 12, 16];
    let mut host = start.clone();
    let expected = try_at!(host[array![3i64, 1]] /= array![2, 0]).unwrap_err();
    assert_eq!(expected, IndexError::DivisionByZero);
    let mut x: Tensor<1, burn_tensor::Int> = tensor_at_burn_tests::int(&start.clone().into_dyn(), &device);
    let ids = tensor_at_burn_tests::int::<1>(&array![3i64, 1].into_dyn(), &device);
    same_error(try_at!(x[&ids] /= array![2, 0]).unwrap_err(), expected);
    assert_eq!(tensor_at_burn_tests::int_array(x), start.into_dyn(), "nothing written");
}

#[test]
fn modes_with_index_arrays_on_the_device() {
    let wild = array![7, -9, 2, 5, -1];
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| { at!(x[i]; mode = clip).to_owned() });
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| { at!(x[i]; mode = wrap).to_owned() });
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| { at!(x[i]; mode = fill(-4.5)).to_owned() });
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| {
        at!(x[i] = 9.0; mode = drop);
        x
    });
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| {
        at!(x[i] += 1.0; mode = drop);
        x
    });
    same_device!(1, Ix1, [6], wild.clone(), 1, |x, i| {
        at!(x[i].max(1.0); mode = clip);
        x
    });
    // Rounds on the device: skipped occurrences, repeats, NaN.
    let repeats = array![7, 2, -1, 2, 9, 5, 2];
    same_device!(1, Ix1, [6], repeats.clone(), 1, |x, i| {
        at!(x[i] *= array![2.0, -3.0, 0.5, 0.0, 4.0, 1.5, 2.5]; mode = drop);
        x
    });
    same_device!(1, Ix1, [6], repeats.clone(), 1, |x, i| {
        at!(x[i].max(array![1.0, f64::NAN, -1.0, 2.0, 0.0, -0.0, 3.0]); mode = wrap);
        x
    });
    same_device!(1, Ix1, [6], repeats.clone(), 1, |x, i| {
        at!(x[i] /= array![2.0, -3.0, 0.5, 8.0, 4.0, 1.5, 2.5]; mode = clip);
        x
    });
    // Past four rounds, the host plans them.
    same_device!(1, Ix1, [6], array![2, 2, -4, 2, 2, 1, 2], 1, |x, i| {
        at!(x[i] *= array![2.0, -3.0, 0.5, 0.0, 4.0, 1.5, 2.5]);
        x
    });
    same_device!(2, Ix2, [6, 2], repeats.clone(), 1, |x, i| {
        at!(x[i].min(array![[1.0], [-2.0], [0.5], [-1.0], [0.0], [-0.0], [3.0]]); mode = wrap);
        x
    });

    let start = sample(&[4, 5]);
    let mut x: Tensor<2> = float(&start, &plain());
    let i = tensor_at_burn_tests::int::<2>(&array![[0, 1], [2, 5], [1, 1], [0, 0]].into_dyn(), &plain());
    let error = try_at!(x[along(&i, 1)] += 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 5, axis: 1, len: 5 })),
        "{error}"
    );
    assert!(same_bits(&float_array(x.clone()), &start));
    assert!(try_at!(x[along(&i, 1)]).is_err());

    let start = sample(&[6]);
    let mut x: Tensor<1> = float(&start, &plain());
    let i = tensor_at_burn_tests::int::<1>(&wild.into_dyn(), &plain());
    let error = try_at!(x[&i] += 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 7, axis: 0, len: 6 })),
        "{error}"
    );
    // Counted for rounds, checked in the same copy.
    let error = try_at!(x[i] *= 2.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 7, axis: 0, len: 6 })),
        "{error}"
    );
    assert!(same_bits(&float_array(x), &start));
}

#[test]
fn host_indices_beside_device_arrays_take_the_mode() {
    // Where a device array's elements are read is planned with the host's
    // indices resolved by the call's mode, as the region itself is.
    let ids = array![0, 3, -1];
    same_device!(2, Ix2, [4, 3], ids.clone(), 1, |x, i| { at!(x[i, 7]; mode = clip).to_owned() });
    same_device!(2, Ix2, [4, 3], ids.clone(), 1, |x, i| { at!(x[i, -4]; mode = wrap).to_owned() });
    same_device!(2, Ix2, [4, 3], ids.clone(), 1, |x, i| {
        at!(x[i, ndarray::arr0(5)]; mode = fill(1.5)).to_owned()
    });
    same_device!(2, Ix2, [4, 3], ids.clone(), 1, |x, i| {
        at!(x[i, [0, 9, 2]] += 1.0; mode = drop);
        x
    });
    // An `nd` array after `...`, clipped.
    same_device!(2, Ix2, [5, 5], array![4294967295], 1, |x, i| {
        at!(x[..., nd(&i)] += 1.0; mode = clip);
        x
    });
}

#[test]
fn masks_on_the_device() {
    let device = plain();
    let start = sample(&[4, 5]);
    let other: Tensor<2> = float(&start.mapv(|v| v * -1.5 + 1.0), &device);
    let mut expected: Array<f64, Ix2> = start.clone().into_dimensionality().unwrap();
    let host_other: Array<f64, Ix2> = start.mapv(|v| v * -1.5 + 1.0).into_dimensionality().unwrap();
    at!(expected[host_other > 0.0] = 0.5);
    let mut x: Tensor<2> = float(&start, &device);
    at!(x[other > 0.0] = 0.5);
    assert!(same_bits(&float_array(x.clone()), &expected.clone().into_dyn()));

    let mask = x.clone().greater_elem(0.0);
    let read: Tensor<1> = at!(x[mask]);
    let host_mask = expected.mapv(|v| v > 0.0);
    assert!(same_bits(&float_array(read), &at!(expected[host_mask]).into_dyn()));
}

#[test]
fn pairs_of_device_index_arrays() {
    let device = plain();
    let (rows, cols) = (array![1i64, 3, 1, -1, 0], array![4i64, 0, 4, 2, -5]);
    let (i, j) = (
        tensor_at_burn_tests::int::<1>(&rows.clone().into_dyn(), &device),
        tensor_at_burn_tests::int::<1>(&cols.clone().into_dyn(), &device),
    );
    let values = array![1.5, 2.5, 3.5, 4.5, 5.5];
    for shape in [vec![4, 5], vec![4, 5, 3]] {
        let start = sample(&shape);
        let v = Array::from_iter(values.iter().flat_map(|&v| std::iter::repeat_n(v, shape[2..].iter().product())))
            .into_shape_with_order([&[5][..], &shape[2..]].concat())
            .unwrap();
        let mut expected = start.clone();
        at!(expected[rows.clone(), cols.clone()] = v.clone());
        at!(expected[rows.clone(), cols.clone()] += 0.25);
        let read = at!(expected[rows.clone(), cols.clone()]);
        let (actual, actual_read) = if shape.len() == 2 {
            let mut x: Tensor<2> = float(&start, &device);
            at!(x[&i, &j] = float::<1>(&v, &device));
            at!(x[&i, &j] += 0.25);
            let read: Tensor<1> = at!(x[&i, &j]);
            (float_array(x), float_array(read))
        } else {
            let mut x: Tensor<3> = float(&start, &device);
            at!(x[&i, &j] = float::<2>(&v, &device));
            at!(x[&i, &j] += 0.25);
            let read: Tensor<2> = at!(x[&i, &j]);
            (float_array(x), float_array(read))
        };
        assert!(same_bits(&actual, &expected), "burn:\n{actual}");
        assert!(same_bits(&actual_read, &read.into_dyn()), "burn:\n{actual_read}");
    }
}

/// Runs `body` with `$i` a device index array promised distinct
/// (`unique(&i)`) on the burn tensor, and the same array on the host
/// without the promise on the ndarray: the results must agree.
macro_rules! same_promised {
    ($rank:literal, $dim:ty, $shape:expr, $indices:expr, |$x:ident, $i:ident| $body:block) => {{
        let start = sample(&$shape);
        let expected = {
            #[allow(unused_mut)]
            let mut $x: Array<f64, $dim> = start.clone().into_dimensionality().unwrap();
            let $i: Array<i64, Ix1> = $indices;
            $body;
            $x.into_dyn()
        };
        let actual = {
            #[allow(unused_mut)]
            let mut $x: Tensor<$rank> = float(&start, &plain());
            let indices: Tensor<1, burn_tensor::Int> = tensor_at_burn_tests::int(&$indices.into_dyn(), &plain());
            let $i = unique(&indices);
            $body;
            float_array($x)
        };
        assert!(same_bits(&actual, &expected), "burn:\n{actual}\nndarray:\n{expected}");
    }};
}

#[test]
fn indices_promised_distinct() {
    let distinct = || array![5, -1, 0, 3];
    let values = || array![1.5, f64::NAN, -0.0, 0.0];
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i] = values()) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i] += values()) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i] *= values()) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i] /= array![2.0, -3.0, 0.5, 8.0]) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i].pow(array![2.0, 0.5, 3.0, 0.0])) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i].min(values())) });
    same_promised!(1, Ix1, [8], distinct(), |x, i| { at!(x[i].max(values())) });
    // Whole rows.
    let rows = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [0.5, -0.5, 0.0]];
    same_promised!(2, Ix2, [8, 3], distinct(), |x, i| { at!(x[i] = rows.clone()) });
    same_promised!(2, Ix2, [8, 3], distinct(), |x, i| { at!(x[i] *= rows.clone()) });
    // Modes: a skipped occurrence, a clipped one.
    let wild = || array![9, 2, -1, 4];
    same_promised!(1, Ix1, [6], wild(), |x, i| { at!(x[i] = values(); mode = drop) });
    same_promised!(1, Ix1, [6], wild(), |x, i| { at!(x[i] *= 3.0; mode = drop) });
    same_promised!(1, Ix1, [6], wild(), |x, i| { at!(x[i].max(values()); mode = clip) });
    // Beside another index, the promise is not used.
    same_promised!(2, Ix2, [4, 8], distinct(), |x, i| { at!(x[1.., i] *= 2.5) });

    // Out of bounds: NumPy's error, and nothing written.
    let start = sample(&[6]);
    let mut x: Tensor<1> = float(&start, &plain());
    let indices = tensor_at_burn_tests::int::<1>(&wild().into_dyn(), &plain());
    let error = try_at!(x[unique(&indices)] = 1.0).unwrap_err();
    assert!(
        matches!(error, BurnError::Index(IndexError::OutOfBounds { index: 9, axis: 0, len: 6 })),
        "{error}"
    );
    assert!(same_bits(&float_array(x), &start));
}

#[test]
fn a_broken_promise_keeps_one_occurrence_and_writes_nothing_else() {
    let start = sample(&[6]);
    let mut x: Tensor<1> = float(&start, &plain());
    let indices = tensor_at_burn_tests::int::<1>(&array![4, 1, 4, 4].into_dyn(), &plain());
    at!(x[unique(&indices)] = array![10.0, 20.0, 30.0, 40.0]);
    let x = float_array(x);
    assert_eq!(x[[1]], 20.0);
    assert!([10.0, 30.0, 40.0].contains(&x[[4]]), "{x}");
    for at in [0, 2, 3, 5] {
        assert_eq!(x[[at]], start[[at]]);
    }
}

#[test]
fn unsigned_device_indices_past_i64_answer_as_on_the_host() {
    // The device resolves indices in i64, where these would wrap to -1 and
    // -(2**63 - 1); the host reads u64 exactly (out of bounds; wrapped or
    // clipped by the mode).
    let wide = array![u64::MAX, 1, i64::MAX as u64 + 2, 3];
    let on_device = |values: &Array1<u64>| -> Tensor<1, Int> {
        Tensor::from_data(TensorData::new(values.to_vec(), [values.len()]), (&plain(), DType::U64))
    };
    let start = sample(&[6]);
    macro_rules! same_u64 {
        ($values:expr, |$x:ident, $i:ident| $body:block) => {{
            let expected = {
                #[allow(unused_mut)]
                let mut $x: Array1<f64> = start.clone().into_dimensionality().unwrap();
                let $i: Array1<u64> = $values.clone();
                let out = $body;
                out.into_dyn()
            };
            let actual = {
                #[allow(unused_mut)]
                let mut $x: Tensor<1> = float(&start, &plain());
                let $i = on_device(&$values);
                float_array($body)
            };
            assert!(same_bits(&actual, &expected), "burn:\n{actual}\nndarray:\n{expected}");
        }};
    }
    same_u64!(wide, |x, i| { at!(x[i]; mode = wrap).to_owned() });
    same_u64!(wide, |x, i| { at!(x[i]; mode = clip).to_owned() });
    same_u64!(wide, |x, i| { at!(x[i]; mode = fill(-4.5)).to_owned() });
    same_u64!(wide, |x, i| { at!(x[along(&i, 0)]; mode = wrap).to_owned() });
    same_u64!(wide, |x, i| {
        at!(x[i] += array![1.5, 2.5, 3.5, 4.5]; mode = wrap);
        x
    });
    same_u64!(wide, |x, i| {
        at!(x[i] = 9.0; mode = drop);
        x
    });
    // Within i64, an array of u64 stays on the device and answers the same.
    same_u64!(array![5u64, 0, 5, 2], |x, i| {
        at!(x[i] += 1.0);
        x
    });
    // Mode `error`: the host's error, and nothing written.
    let mut x: Tensor<1> = float(&start, &plain());
    let error = try_at!(x[on_device(&wide)] += 1.0).unwrap_err();
    assert!(
        matches!(
            error,
            BurnError::Index(IndexError::OutOfBounds {
                index: 18446744073709551615,
                axis: 0,
                len: 6
            })
        ),
        "{error}"
    );
    let points: Tensor<2, Int> = on_device(&wide).reshape([4, 1]);
    assert!(try_at!(x[nd(&points)]).is_err());
    assert!(same_bits(&float_array(x), &start));
}

#[test]
fn empty_tensors_of_shapes_no_array_addresses_are_too_large() {
    // burn holds an empty tensor of any shape; strides and row lengths of
    // these would overflow.
    let too_large = |error: BurnError, shape: &[usize]| {
        assert!(
            matches!(&error, BurnError::Index(IndexError::TooLarge { shape: refused }) if refused.0 == shape),
            "{error}"
        );
    };
    let target = [2, 1 << 62, 0];
    let mut x: Tensor<3> = Tensor::empty(target, &plain());
    too_large(try_at!(x[0]).unwrap_err(), &target);
    too_large(try_at!(x[0] = 1.0).unwrap_err(), &target);
    too_large(try_at!(x[x > 0.0] += 1.0).unwrap_err(), &target);
    let target = [0, 1 << 32, 1 << 32, 0];
    let x: Tensor<4> = Tensor::empty(target, &plain());
    too_large(try_at!(x[[0]]).unwrap_err(), &target);

    let shape = [1 << 63, 0];
    let start = sample(&[6]);
    let mut x: Tensor<1> = float(&start, &plain());
    let idx: Tensor<2, Int> = Tensor::empty(shape, &plain());
    too_large(try_at!(x[&idx]).unwrap_err(), &shape);
    too_large(try_at!(x[&idx] = 1.0).unwrap_err(), &shape);
    let mut rows: Tensor<2> = float(&sample(&[2, 3]), &plain());
    let mask: Tensor<2, Bool> = Tensor::empty(shape, &plain());
    too_large(try_at!(rows[&mask]).unwrap_err(), &shape);
    let value: Tensor<2> = Tensor::empty(shape, &plain());
    too_large(try_at!(rows[..] = value.clone()).unwrap_err(), &shape);
    too_large(try_at!(rows[[0, 1]] += value).unwrap_err(), &shape);
    assert!(same_bits(&float_array(x), &start));
    assert!(same_bits(&float_array(rows), &sample(&[2, 3])));

    // `nd` arrays of no points whose depths sum past usize::MAX: the
    // host's error.
    let deep = Array2::<i64>::zeros((0, isize::MAX as usize));
    let x: Tensor<1> = float(&start, &plain());
    let on_burn = try_at!(x[nd(&deep), nd(&deep), nd(&deep)]).unwrap_err();
    let h: Array1<f64> = start.clone().into_dimensionality().unwrap();
    let on_host = try_at!(h[nd(&deep), nd(&deep), nd(&deep)]).unwrap_err();
    assert!(matches!(on_host, IndexError::TooManyIndices { .. }), "{on_host}");
    assert_eq!(on_burn.to_string(), on_host.to_string());
}

#[test]
fn a_huge_step_on_an_axis_of_one_position_selects_it() {
    // burn multiplies a slice's step by its stride: a step past the one
    // position must not reach it.
    same_read!(2, Ix2, [2, 3], |x| at!(x[::isize::MAX]));
    same_read!(2, Ix2, [2, 3], |x| at!(x[::isize::MIN]));
    same_read!(2, Ix2, [2, 3], |x| at!(x[1..;isize::MAX, 1..]));
    same!(2, Ix2, [2, 3], |x| { at!(x[::isize::MIN] = 9.0) });
    same!(2, Ix2, [2, 3], |x| { at!(x[..;isize::MIN, 2..] += 1.0) });
}

#[test]
fn a_region_whose_values_memory_cannot_hold_is_too_large() {
    // An ndarray's call writes this region of 2**44 elements in place; the
    // adapter hands burn one value per element, which no memory holds.
    let start = ArrayD::<f64>::zeros(IxDyn(&[4, 1 << 20]));
    let mut x: Tensor<2> = float(&start, &plain());
    let rows = Array1::<i64>::zeros(1 << 24);
    let error = try_at!(x[rows] = Array1::<f64>::ones(1 << 20)).unwrap_err();
    assert!(
        matches!(&error, BurnError::Index(IndexError::TooLarge { shape }) if shape.0 == [1 << 24, 1 << 20]),
        "{error}"
    );
    assert!(same_bits(&float_array(x), &start));
}
