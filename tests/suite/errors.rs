//! One test per `IndexError` variant: the error is the one NumPy would
//! raise (or the documented tensor-core one), its message reads like
//! NumPy's, and every write path leaves the target bit for bit unchanged.

use ndarray::{Array, Array1, ArrayD, ArrayView1, IxDyn, array};
use tensor_at::backend::{AnyMode, apply, get, set, update};
use tensor_at::index::{Ellipsis, IndexElem, NewAxis, PySlice, RangeSlice};
use tensor_at::{IndexError, IntoUpdated, Mode, Op, ix, nd};

/// The target every test writes into: distinct values, with a NaN so that a
/// bitwise comparison is needed to see it unchanged.
fn target() -> ArrayD<f64> {
    let mut x = Array::from_shape_fn(IxDyn(&[3, 4, 2]), |i| (i[0] * 100 + i[1] * 10 + i[2]) as f64);
    x[[1, 1, 1]] = f64::NAN;
    x
}

fn bits(x: &ArrayD<f64>) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// Runs `set` and every accumulating op with `index` and `value` on a fresh
/// target, a view of it and a shared `ArcArray` of it, asserting each fails
/// with an error `matches` accepts and leaves the data unchanged. When the
/// index itself is at fault, `apply`, the copy-and-update form and a read
/// must fail too. Returns the error of the `set` call.
fn assert_every_path_fails(index: &[IndexElem<'_>], value: &ArrayD<f64>, matches: impl Fn(&IndexError) -> bool) -> IndexError {
    let original = target();
    let check = |result: Result<(), IndexError>, what: &str, x: &ArrayD<f64>| {
        let error = result.expect_err(what);
        assert!(matches(&error), "{what}: unexpected error {error:?}");
        assert_eq!(bits(x), bits(&original), "{what} wrote before failing");
        error
    };

    let mut x = target();
    let error = check(set(&mut x, index, value, Mode::Error), "set", &x);
    check(set(&mut x, index, value.view(), Mode::Error), "set from a view", &x);
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max] {
        check(update(&mut x, index, op, value, Mode::Error), &format!("update {op:?}"), &x);
    }
    if !matches!(error, IndexError::ShapeMismatch { .. } | IndexError::ValueCount { .. }) {
        check(apply(&mut x, index, |e| e + 1.0, Mode::Error), "apply", &x);
        let read = get(&x, index, Mode::Error).map(drop);
        check(read, "get", &x);
        let copy = (&x).updated(index).add(value).map(drop).map_err(|refused| refused.error);
        check(copy, "copy-and-update", &x);
    }

    let mut through_view = target();
    let result = set(&mut through_view.view_mut(), index, value, Mode::Error);
    check(result, "set through a view", &through_view);

    let mut shared = target().into_shared();
    let other_owner = shared.clone();
    let result = update(&mut shared, index, Op::Add, value, Mode::Error);
    check(result, "update of an ArcArray", &shared.to_owned());
    assert_eq!(bits(&other_owner.to_owned()), bits(&original));
    error
}

fn scalar_value() -> ArrayD<f64> {
    ArrayD::from_elem(IxDyn(&[]), 7.0)
}

#[test]
fn out_of_bounds_integer_names_axis_index_and_size() {
    let error = assert_every_path_fails(&[ix(..), ix(4)], &scalar_value(), |e| matches!(e, IndexError::OutOfBounds { .. }));
    assert_eq!(error.to_string(), "index 4 is out of bounds for axis 1 with size 4");
    // An out-of-bounds entry at the end of an index array: nothing before it is written.
    let error = assert_every_path_fails(&[ix(vec![0i64, 1, 2, -4])], &scalar_value(), |e| {
        matches!(e, IndexError::OutOfBounds { .. })
    });
    assert_eq!(error.to_string(), "index -4 is out of bounds for axis 0 with size 3");
    // Also on reads, and also when the selection is otherwise empty (as NumPy).
    let x = target();
    let read = get(&x, &[ix(1..1), ix(9)], Mode::Error).unwrap_err();
    assert!(matches!(read, IndexError::OutOfBounds { index: 9, axis: 1, len: 4 }));
}

#[test]
fn out_of_bounds_range_is_an_error_not_a_clamp() {
    let error = assert_every_path_fails(&[ix(1..5)], &scalar_value(), |e| matches!(e, IndexError::RangeOutOfBounds { .. }));
    assert_eq!(error.to_string(), "range 1..5 is out of bounds for axis 0 with size 3");
    // The NumPy-style slice clamps instead.
    let x = target();
    let clamped = get(&x, &[IndexElem::Slice(PySlice::new(Some(1), Some(5), None))], Mode::Error).unwrap();
    assert_eq!(clamped.shape(), &[2, 4, 2]);
}

#[test]
fn too_many_indices() {
    let error = assert_every_path_fails(&[ix(0), ix(0), ix(0), ix(0)], &scalar_value(), |e| {
        matches!(e, IndexError::TooManyIndices { ndim: 3, indexed: 4 })
    });
    assert_eq!(
        error.to_string(),
        "too many indices for array: array is 3-dimensional, but 4 were indexed"
    );
    // A mask counts its own rank.
    let mask = Array::from_elem(IxDyn(&[4, 2]), true);
    assert_every_path_fails(&[ix(..), ix(..), ix(&mask)], &scalar_value(), |e| {
        matches!(e, IndexError::TooManyIndices { .. })
    });
}

#[test]
fn two_ellipses() {
    let error = assert_every_path_fails(&[ix(Ellipsis), ix(0), ix(Ellipsis)], &scalar_value(), |e| {
        matches!(e, IndexError::MultipleEllipsis)
    });
    assert_eq!(error.to_string(), "an index can only have a single ellipsis ('...')");
}

#[test]
fn zero_step_in_either_slice_syntax() {
    let py = IndexElem::Slice(PySlice::new(None, None, Some(0)));
    let error = assert_every_path_fails(&[py], &scalar_value(), |e| matches!(e, IndexError::ZeroStep));
    assert_eq!(error.to_string(), "slice step cannot be zero");
    let range = IndexElem::Range(RangeSlice {
        start: 0,
        end: None,
        step: 0,
    });
    assert_every_path_fails(&[ix(..), range], &scalar_value(), |e| matches!(e, IndexError::ZeroStep));
}

#[test]
fn mask_shape_names_the_first_differing_axis() {
    let mask = Array::from_elem(IxDyn(&[4, 3]), true);
    let error = assert_every_path_fails(&[ix(..), ix(&mask)], &scalar_value(), |e| matches!(e, IndexError::MaskShape { .. }));
    assert_eq!(
        error.to_string(),
        "boolean index did not match indexed array along axis 2; size of axis is 2 but size of corresponding boolean axis is 3"
    );
}

#[test]
fn index_arrays_that_do_not_broadcast() {
    let error = assert_every_path_fails(&[ix([0, 1]), ix([0, 1, 2])], &scalar_value(), |e| {
        matches!(e, IndexError::IndexBroadcast { .. })
    });
    assert_eq!(
        error.to_string(),
        "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)"
    );
}

#[test]
fn value_that_does_not_broadcast_on_basic_and_advanced_paths() {
    let value = Array::from_elem(IxDyn(&[3]), 1.0);
    // Basic: x[:, 1:3] has shape (3, 2, 2).
    let error = assert_every_path_fails(&[ix(..), ix(1..3)], &value, |e| matches!(e, IndexError::ShapeMismatch { .. }));
    assert_eq!(
        error.to_string(),
        "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (3, 2, 2)"
    );
    // Advanced: x[[0, 1]] has shape (2, 4, 2).
    assert_every_path_fails(&[ix([0, 1])], &value, |e| matches!(e, IndexError::ShapeMismatch { .. }));
    // More axes than the region, not all leading ones.
    let value = Array::from_elem(IxDyn(&[2, 1, 4, 2]), 1.0);
    assert_every_path_fails(&[ix(0)], &value, |e| matches!(e, IndexError::ShapeMismatch { .. }));
}

/// A few indices into a vector take a short path (checked before any
/// write, no broadcast built); its value shapes follow the same rules as
/// everywhere: a column of indices does not take a row of values (NumPy's
/// setitem message), a row with a leading length-1 axis does.
#[test]
fn few_indices_into_a_vector_follow_the_value_shape_rules() {
    let mut x = Array1::<f64>::from_iter((0..8).map(f64::from));
    let original = x.clone();
    let column = Array::from_shape_vec((3, 1), vec![0i64, 2, 4]).unwrap();
    for op in [Op::Add, Op::Max] {
        let error = update(&mut x, &[ix(&column)], op, array![1.0, 2.0, 3.0], Mode::Error).unwrap_err();
        assert_eq!(
            error.to_string(),
            "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (3, 1)"
        );
        assert_eq!(x, original);
    }
    let error = update(&mut x, &[ix([0, 2, 4])], Op::Add, array![1.0, 2.0], Mode::Error).unwrap_err();
    assert!(matches!(error, IndexError::ShapeMismatch { .. }), "{error:?}");
    let error = update(&mut x, &[ix([0, 2, -9])], Op::Add, array![1.0, 2.0, 3.0], Mode::Error).unwrap_err();
    assert_eq!(error.to_string(), "index -9 is out of bounds for axis 0 with size 8");
    assert_eq!(x, original);
    update(&mut x, &[ix([0, 2, -8])], Op::Sub, array![[1.0, 2.0, 3.0]], Mode::Error).unwrap();
    assert_eq!(x, array![-4.0, 1.0, 0.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
}

#[test]
fn mask_assignment_with_the_wrong_number_of_values() {
    // NumPy counts values only for `x[mask] = v`; `np.add.at` and friends
    // report a shape mismatch.
    let mask = target().mapv(|v| v > 100.0);
    let error = assert_every_path_fails(&[ix(&mask)], &Array::from_elem(IxDyn(&[3]), 1.0), |e| {
        matches!(e, IndexError::ValueCount { given: 3, .. } | IndexError::ShapeMismatch { .. })
    });
    assert_eq!(error, IndexError::ValueCount { given: 3, expected: 14 });
    assert!(
        error
            .to_string()
            .ends_with("cannot assign 3 input values to the 14 output values where the mask is true"),
        "{error}"
    );
    let mut x = target();
    let accumulate = update(&mut x, &[ix(&mask)], Op::Add, &Array::from_elem(IxDyn(&[3]), 1.0), Mode::Error).unwrap_err();
    assert!(matches!(accumulate, IndexError::ShapeMismatch { .. }));
}

#[test]
fn modes_outside_their_operations() {
    let x = target();
    let error = get(&x, &[ix([9])], Mode::Drop).unwrap_err();
    assert!(matches!(error, IndexError::UnsupportedMode { mode: "drop", .. }));
    assert_eq!(error.to_string(), "mode drop applies to updates only; reads take fill(v)");
    let error = assert_every_path_fails_with_mode(AnyMode::Fill(0.0));
    assert_eq!(
        error.to_string(),
        "mode fill applies to reads only; updates take drop to skip out-of-bounds positions"
    );
}

fn assert_every_path_fails_with_mode(mode: AnyMode<f64>) -> IndexError {
    let original = target();
    let mut x = target();
    let index = [ix([0, 9])];
    let errors = [
        set(&mut x, &index, 1.0, mode).unwrap_err(),
        update(&mut x, &index, Op::Add, 1.0, mode).unwrap_err(),
        apply(&mut x, &index, |e| e * 2.0, mode).unwrap_err(),
    ];
    assert_eq!(bits(&x), bits(&original));
    assert!(errors.iter().all(|e| matches!(e, IndexError::UnsupportedMode { mode: "fill", .. })));
    errors[0].clone()
}

#[test]
fn integer_division_by_zero_and_negative_powers_write_nothing() {
    let original = Array1::from(vec![10i64, 20, 30, 40]);
    let mut x = original.clone();
    let index = [ix([0, 1, 2, 3])];
    // The zero divisor comes last, after three valid ones.
    let error = update(&mut x, &index, Op::Div, &array![1i64, 2, 5, 0], Mode::Error).unwrap_err();
    assert_eq!(error, IndexError::DivisionByZero);
    assert_eq!(error.to_string(), "integer division by zero");
    let error = update(&mut x, &index, Op::Pow, &array![1i64, 2, 3, -1], Mode::Error).unwrap_err();
    assert_eq!(error, IndexError::NegativeIntegerPower);
    assert_eq!(x, original);
    // A divisor at a dropped position is never applied, so it is no error.
    update(&mut x, &[ix([0, 7])], Op::Div, &array![2i64, 0], Mode::Drop).unwrap();
    assert_eq!(x, array![5, 20, 30, 40]);
    update(&mut x, &[ix([7, -9])], Op::Div, 0, Mode::Drop).unwrap();
    assert_eq!(x, array![5, 20, 30, 40]);
}

/// What an element type does not have is refused before anything is
/// written, on every path (one element, a few, many, a mask): the bitwise
/// updates of floats, `-`, `/`, `%` and powers of `bool`, an integer
/// remainder by zero.
#[test]
fn operations_a_type_does_not_have_write_nothing() {
    let original = Array1::from_iter((0..300).map(f64::from));
    let mut x = original.clone();
    for index in [vec![ix(3)], vec![ix([0, 1, 2])], vec![ix(Array1::from_iter(0..300usize))]] {
        for op in [Op::BitAnd, Op::BitOr, Op::BitXor] {
            let error = update(&mut x, &index, op, 1.0, Mode::Error).unwrap_err();
            assert_eq!(error, IndexError::UnsupportedOperation { op, element: "f64" });
        }
    }
    assert_eq!(
        update(&mut x, &[ix(0)], Op::BitOr, 1.0, Mode::Error).unwrap_err().to_string(),
        "`|=` is not defined for `f64` elements"
    );
    assert_eq!(x, original);
    let flags = Array1::from(vec![true, false, true]);
    let mut b = flags.clone();
    for op in [Op::Sub, Op::Div, Op::Pow, Op::Rem] {
        let error = update(&mut b, &[ix([0, 2])], op, true, Mode::Error).unwrap_err();
        assert_eq!(error, IndexError::UnsupportedOperation { op, element: "bool" });
    }
    assert_eq!(b, flags);
    // Whatever the index holds: nothing, only skipped positions, or an
    // index out of bounds (the type's error comes first, as NumPy's).
    let unsupported = |op| IndexError::UnsupportedOperation { op, element: "f64" };
    let empty: Vec<usize> = Vec::new();
    assert_eq!(
        update(&mut x, &[ix(&empty)], Op::BitOr, 1.0, Mode::Error),
        Err(unsupported(Op::BitOr))
    );
    assert_eq!(
        update(&mut x, &[ix([700])], Op::BitXor, 1.0, Mode::Drop),
        Err(unsupported(Op::BitXor))
    );
    assert_eq!(
        update(&mut x, &[ix([700])], Op::BitAnd, 1.0, Mode::Error),
        Err(unsupported(Op::BitAnd))
    );
    let bool_sub = IndexError::UnsupportedOperation {
        op: Op::Sub,
        element: "bool",
    };
    assert_eq!(tensor_at::try_at!(b[b > true] -= true), Err(bool_sub.clone()));
    let mut grid = ndarray::Array2::from_elem((2, 3), true);
    let rows = ndarray::Array2::<usize>::zeros((2, 0));
    let batched = tensor_at::backend::update_batched(&mut grid, &[ix(&rows)], 1, Op::Sub, true, Mode::Error);
    assert_eq!(batched, Err(bool_sub));
    assert_eq!(x, original);
    let mut ints = Array1::from(vec![5i32, 6, 7]);
    let error = update(&mut ints, &[ix([0, 1, 2])], Op::Rem, &array![2, 3, 0], Mode::Error).unwrap_err();
    assert_eq!(error, IndexError::DivisionByZero);
    assert_eq!(ints, array![5, 6, 7]);
}

#[test]
fn results_too_large_to_address_fail_before_allocating() {
    // Two broadcast views of one element each: (2^40, 1) and (1, 2^40)
    // would broadcast to 2^80 positions.
    let one = [0usize];
    let huge = 1usize << 40;
    let one = ArrayView1::from(&one);
    let (rows, cols) = (one.broadcast((huge, 1)).unwrap(), one.broadcast((1, huge)).unwrap());
    let error = assert_every_path_fails(&[ix(rows.view()), ix(cols.view())], &scalar_value(), |e| {
        matches!(e, IndexError::TooLarge { .. })
    });
    assert!(
        error
            .to_string()
            .starts_with("indexing result of shape (1099511627776, 1099511627776"),
        "{error}"
    );
}

#[test]
fn nd_needs_a_coordinate_axis() {
    let zero_dim = Array::from_elem(IxDyn(&[]), 0usize);
    let error = assert_every_path_fails(&[ix(nd(&zero_dim))], &scalar_value(), |e| matches!(e, IndexError::NdRank));
    assert!(error.to_string().starts_with("nd(...) needs an index array"));
}

#[test]
fn new_axis_and_ellipsis_errors_are_counted_like_numpy() {
    // `None` consumes no axis, so four elements with one `None` fit three axes.
    let x = target();
    let fits = get(&x, &[ix(NewAxis), ix(0), ix(0), ix(0)], Mode::Error).unwrap();
    assert_eq!(fits.shape(), &[1]);
}

/// `try_set!` on a source moved in gives it back inside the error,
/// unchanged and in its own buffer: nothing the caller had is lost. A
/// borrowed source's error holds the untouched copy; `?` turns either into
/// the plain `IndexError`.
#[test]
fn try_set_gives_a_moved_source_back_on_error() {
    use tensor_at::{SetError, try_set};
    let original = array![[1i64, 2, 3], [4, 5, 6]];
    let x = original.clone();
    let buffer = x.as_ptr();
    let SetError { error, array } = try_set!({ x }[9] = 0).unwrap_err();
    assert_eq!(error, IndexError::OutOfBounds { index: 9, axis: 0, len: 2 });
    let x = array.expect("the moved source");
    assert_eq!((x.as_ptr(), &x), (buffer, &original), "the same buffer, unchanged");
    // Every copying form: an update, `.apply`, the mask sugar with a
    // value of the wrong count, a division by zero.
    let x = try_set!({ x }[[0, 7], 1] += 1).unwrap_err().array.unwrap();
    let x = try_set!({ x }[[0, 7]].apply(|e| e * 2)).unwrap_err().array.unwrap();
    let x = try_set!({ x }[x > 2] = array![1, 2]).unwrap_err().array.unwrap();
    let x = try_set!({ x }[0] /= 0).unwrap_err().array.unwrap();
    assert_eq!((x.as_ptr(), &x), (buffer, &original));
    // A borrowed source: the error holds the copy, the source is untouched.
    let copy = try_set!(x[5, 0] = 9).unwrap_err().array.unwrap();
    assert_eq!((&copy, &x), (&original, &original));
    assert_ne!(copy.as_ptr(), x.as_ptr());
    // `?` converts to IndexError, and the message is the error's.
    fn bad(x: &ndarray::Array2<i64>) -> Result<ndarray::Array2<i64>, IndexError> {
        Ok(try_set!(x[-3] = 0)?)
    }
    assert_eq!(bad(&x).unwrap_err().to_string(), "index -3 is out of bounds for axis 0 with size 2");
    assert_eq!(
        try_set!({ x }[2] = 0).unwrap_err().to_string(),
        "index 2 is out of bounds for axis 0 with size 2"
    );
}

/// `try_set!`'s error unwraps whatever the element type: its `Debug` does
/// not print the array.
#[test]
fn set_errors_unwrap_without_a_printable_element() {
    use tensor_at::try_set;
    #[derive(Clone, PartialEq)]
    struct Opaque(u8);
    impl tensor_at::element::Scalar for Opaque {}
    let x = Array1::from_elem(3, Opaque(0));
    let y = try_set!({ x }[1] = Opaque(7)).unwrap();
    assert!(y[1] == Opaque(7));
    let error = try_set!({ y }[5] = Opaque(1)).map(|_| ()).unwrap_err();
    assert_eq!(
        format!("{error:?}"),
        "SetError { error: OutOfBounds { index: 5, axis: 0, len: 3 }, array: Some(\"the array, unchanged\") }"
    );
}
