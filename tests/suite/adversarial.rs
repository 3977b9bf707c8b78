//! Adversarial inputs: indices at the ends of every integer type, in every
//! mode; index arrays broadcasting to absurd sizes; empty and all-false
//! masks; NaN with `min`/`max`; integer overflow; division by zero on every
//! write path; a panicking `apply` closure or `Clone`; shared buffers.
//!
//! Each test states the behaviour chosen in a one-line comment. Expected
//! values are NumPy's (worked out by hand or with NumPy, as noted), never
//! tensor-at's own output.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use ndarray::{Array1, Array2, Array4, ArrayD, ArrayView1, ArrayView2, ArrayView3, ArrayView4, Axis, IxDyn, ShapeBuilder, array};
use tensor_at::backend::{AnyMode, apply, apply_batched, get, get_batched, get_batched_into, set, set_batched, update, update_batched};
use tensor_at::index::{IndexElem, PySlice};
use tensor_at::{IndexError, IntoUpdated, Mode, Op, ReadMode, SetError, at, ix, nd, set, try_at, try_set};

// ---------------------------------------------------------------- extreme indices

/// `x[i]` for `i` at the ends of `i64` and `usize` on an axis of length 5.
const EXTREMES: [(i128, &str); 4] = [
    (i64::MIN as i128, "i64::MIN"),
    (i64::MAX as i128, "i64::MAX"),
    (usize::MAX as i128, "usize::MAX"),
    (u64::MAX as i128 - 1, "u64::MAX - 1"),
];

#[test]
fn extreme_integer_indices_are_out_of_bounds_errors_in_mode_error() {
    // NumPy: "index 9223372036854775807 is out of bounds for axis 0 with size 5"; nothing is written.
    let original = array![10, 11, 12, 13, 14];
    let message = |i: i128| format!("index {i} is out of bounds for axis 0 with size 5");
    let mut x = original.clone();
    for (i, name) in EXTREMES {
        let index = [IndexElem::Int(i)];
        assert_eq!(get(&x, &index, Mode::Error).unwrap_err().to_string(), message(i), "{name}");
        assert_eq!(set(&mut x, &index, 0, Mode::Error).unwrap_err().to_string(), message(i), "{name}");
        assert_eq!(
            update(&mut x, &index, Op::Add, 1, Mode::Error).unwrap_err().to_string(),
            message(i),
            "{name}"
        );
        assert_eq!(
            apply(&mut x, &index, |e| e + 1, Mode::Error).unwrap_err().to_string(),
            message(i),
            "{name}"
        );
    }
    // In index arrays of every width, after valid entries: the first bad one is named.
    let i64s = array![0i64, 4, i64::MIN, i64::MAX];
    let usizes = array![1usize, usize::MAX];
    let u64s = array![u64::MAX];
    assert_eq!(
        set(&mut x, &[ix(&i64s)], 0, Mode::Error).unwrap_err().to_string(),
        message(i64::MIN.into())
    );
    assert_eq!(
        set(&mut x, &[ix(&usizes)], 0, Mode::Error).unwrap_err().to_string(),
        message(usize::MAX as i128)
    );
    assert_eq!(
        update(&mut x, &[ix(&u64s)], Op::Mul, 0, Mode::Error).unwrap_err().to_string(),
        message(u64::MAX.into())
    );
    assert_eq!(try_at!(x[i64s] = 0).unwrap_err().to_string(), message(i64::MIN.into()));
    assert_eq!(try_at!(x[usize::MAX] += 1).unwrap_err().to_string(), message(usize::MAX as i128));
    assert_eq!(x, original);
}

#[test]
fn extreme_integer_indices_clip_to_the_nearest_end() {
    // JAX's `clip`: below the axis is 0, above is n - 1, however far.
    let x = array![10, 11, 12, 13, 14];
    let index = array![i64::MIN, i64::MAX, -1, 0];
    assert_eq!(at!(x[index]; mode = clip), array![10, 14, 14, 10]);
    let huge = array![usize::MAX, u64::MAX as usize - 1];
    assert_eq!(at!(x[huge]; mode = clip), array![14, 14]);
    let mut y = x.clone();
    at!(y[i64::MIN] = 0; mode = clip);
    at!(y[usize::MAX] += 100; mode = clip);
    assert_eq!(y, array![0, 11, 12, 13, 114]);
}

#[test]
fn extreme_integer_indices_wrap_modulo_the_length() {
    // NumPy's `mode='wrap'` (Python `%`): i64::MIN % 5 == 2, i64::MAX % 5 == 2, (2^64 - 1) % 5 == 0;
    // modulo 7: 6, 0 and 1.
    let x = array![10, 11, 12, 13, 14];
    let index = array![i64::MIN, i64::MAX];
    assert_eq!(at!(x[index]; mode = wrap), array![12, 12]);
    assert_eq!(at!(x[[usize::MAX]]; mode = wrap), array![10]);
    let mut y = Array1::from_iter(0..7i64);
    at!(y[[i64::MIN, i64::MAX]] += 100; mode = wrap);
    at!(y[usize::MAX] -= 100; mode = wrap);
    assert_eq!(y, array![100, -99, 2, 3, 4, 5, 106]);
}

#[test]
fn extreme_integer_indices_are_skipped_in_mode_drop_and_read_the_fill_value() {
    // JAX: `drop` skips the update of an out-of-bounds position; `fill` reads the fill value there.
    let original = array![10, 11, 12, 13, 14];
    let mut x = original.clone();
    let index = array![i64::MIN, 1, i64::MAX];
    at!(x[index] = 0; mode = drop);
    assert_eq!(x, array![10, 0, 12, 13, 14]);
    at!(x[usize::MAX] += 7; mode = drop);
    at!(x[i64::MIN].apply(|e| e * 2); mode = drop);
    assert_eq!(x, array![10, 0, 12, 13, 14]);
    assert_eq!(at!(original[index]; mode = fill(-1)), array![-1, 11, -1]);
    assert_eq!(at!(original[[usize::MAX, 4usize]]; mode = fill(-1)), array![-1, 14]);
    // A scalar index read with `fill` gives a 0-d array holding the fill value.
    let read = get(&original, &[ix(i64::MIN)], AnyMode::Fill(-1)).unwrap();
    assert_eq!((read.shape(), read.iter().copied().collect::<Vec<_>>()), (&[][..], vec![-1]));
}

#[test]
fn extreme_indices_on_an_empty_axis_fail_in_every_mode_that_needs_a_position() {
    // An empty axis has nothing to clip or wrap to: an error, as NumPy's `take` raises on an empty axis.
    let empty = Array1::<i64>::zeros(0);
    for mode in [Mode::Error, Mode::Clip, Mode::Wrap] {
        let error = get(&empty, &[ix([i64::MAX])], mode).unwrap_err();
        assert!(matches!(error, IndexError::OutOfBounds { len: 0, .. }), "{mode:?}: {error}");
    }
    // `drop` and `fill` need no position: skipped, and read as the fill value.
    let mut target = empty.clone();
    set(&mut target, &[ix([i64::MIN, 0])], 1, Mode::Drop).unwrap();
    assert_eq!(
        get(&empty, &[ix([usize::MAX])], AnyMode::Fill(3))
            .unwrap()
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn extreme_slice_bounds_and_steps_clamp_like_python() {
    // Python: list(range(5))[::-(2**63)] == [4]; [-(2**63):2**63-1] is everything; [::2**63-1] == [0].
    let x = array![0, 1, 2, 3, 4];
    assert_eq!(at!(x[::isize::MIN]), array![4]);
    assert_eq!(at!(x[isize::MIN:isize::MAX]), x);
    assert_eq!(at!(x[::isize::MAX]), array![0]);
    assert_eq!(at!(x[(isize::MAX)::(isize::MIN)]), array![4]);
    assert_eq!(at!(x[(isize::MIN)::(isize::MIN)]), Array1::<i32>::zeros(0));
    // ndarray ranges with extreme steps: every |step|-th of the range, from its end when negative.
    let step = isize::MIN;
    assert_eq!(at!(x[..;step]), array![4]);
    assert_eq!(at!(x[1..;isize::MAX]), array![1]);
    // Range bounds outside the axis are errors, not clamps (ndarray's `s![]` panics there).
    assert!(matches!(try_at!(x[isize::MIN..]), Err(IndexError::RangeOutOfBounds { .. })));
    assert!(matches!(try_at!(x[..usize::MAX]), Err(IndexError::RangeOutOfBounds { .. })));
    // Writes through the same slices: NumPy `y[::-(2**63)] = 9` writes y[4].
    let mut y = x.clone();
    at!(y[::isize::MIN] = 9);
    at!(y[..;step] += 1);
    assert_eq!(y, array![0, 1, 2, 3, 10]);
}

// ---------------------------------------------------------------- absurd sizes

/// One element seen at every position of `shape` (all strides 0: no memory).
fn stretched<T>(one: &[T; 1], shape: (usize, usize)) -> ArrayView2<'_, T> {
    ArrayView2::from_shape(shape.strides((0, 0)), one).expect("one element reaches every position")
}

#[test]
fn index_arrays_broadcasting_to_an_absurd_size_fail_before_allocating() {
    // (2^20, 1) and (1, 2^20) broadcast to 2^40 positions: an 8 TiB offset table is refused with
    // `TooLarge` (no abort, nothing written), on reads and on writes; so is one that arrays in
    // memory (C-contiguous, which a table that leads is read from in place) broadcast to.
    let zero = [0usize];
    let stretched_pair = (stretched(&zero, (1 << 20, 1)), stretched(&zero, (1, 1 << 20)));
    let in_memory = (Array2::<usize>::zeros((1 << 20, 1)), Array2::<usize>::zeros((1, 1 << 20)));
    for (rows, cols) in [stretched_pair, (in_memory.0.view(), in_memory.1.view())] {
        let original = Array2::<f32>::ones((2, 2));
        let mut x = original.clone();
        let index = [ix(rows), ix(cols)];
        let too_large = |e: &IndexError| matches!(e, IndexError::TooLarge { .. });
        assert!(too_large(&get(&x, &index, Mode::Error).unwrap_err()));
        assert!(too_large(&set(&mut x, &index, 1.0, Mode::Error).unwrap_err()));
        assert!(too_large(&update(&mut x, &index, Op::Add, 1.0, Mode::Clip).unwrap_err()));
        assert!(too_large(&apply(&mut x, &index, |e| e * 2.0, Mode::Drop).unwrap_err()));
        let message = get(&x, &index, Mode::Error).unwrap_err().to_string();
        assert_eq!(message, "indexing result of shape (1048576, 1048576) is too large");
        assert_eq!(x, original);
    }
}

#[test]
fn an_index_array_of_one_value_at_every_position_indexes_as_that_value() {
    // Zero strides (GPU stand-ins, `np.broadcast_to(v, shape)`) index as the value at each position:
    // duplicates accumulate, every mode resolves it, and beside another array the rows are kept.
    let x = array![10.0f32, 11.0, 12.0, 13.0, 14.0];
    for (value, position) in [(0i64, 0usize), (-1, 4), (2, 2)] {
        let one = [value];
        let index = [ix(stretched(&one, (2, 3)))];
        let read = get(&x, &index, Mode::Error).unwrap().into_owned();
        assert_eq!(read, ArrayD::from_elem(IxDyn(&[2, 3]), x[position]), "x[{value} everywhere]");
        let mut added = x.clone();
        update(&mut added, &index, Op::Add, 1.0, Mode::Error).unwrap();
        let mut expected = x.clone();
        expected[position] += 6.0;
        assert_eq!(added, expected, "x[{value} everywhere] += 1, six duplicates");
    }
    let seven = [7i64];
    let index = [ix(stretched(&seven, (2, 3)))];
    let mut y = x.clone();
    let error = update(&mut y, &index, Op::Add, 1.0, Mode::Error).unwrap_err();
    assert_eq!(error.to_string(), "index 7 is out of bounds for axis 0 with size 5");
    update(&mut y, &index, Op::Add, 1.0, Mode::Drop).unwrap();
    assert_eq!(y, x, "a failed call and a dropped one write nothing");
    for (mode, position) in [(Mode::Clip, 4), (Mode::Wrap, 2)] {
        let mut z = x.clone();
        update(&mut z, &index, Op::Add, 1.0, mode).unwrap();
        let mut expected = x.clone();
        expected[position] += 6.0;
        assert_eq!(z, expected, "x[7 everywhere] += 1 in {mode:?}");
    }
    // Beside a row array: x2[[0, 2], c] for a column c at both positions.
    let x2 = Array2::from_shape_fn((3, 5), |(r, c)| (10 * r + c) as f32);
    for (column, expected) in [(0usize, [0.0f32, 20.0]), (3, [3.0, 23.0])] {
        let one = [column];
        let columns = ArrayView1::from_shape(2.strides(0), &one).unwrap();
        let read = get(&x2, &[ix(array![0, 2]), ix(columns)], Mode::Error).unwrap().into_owned();
        assert_eq!(
            read,
            ArrayD::from_shape_vec(IxDyn(&[2]), expected.to_vec()).unwrap(),
            "x2[[0, 2], {column}]"
        );
    }
}

#[test]
fn a_gather_from_a_huge_broadcast_target_fails_cleanly() {
    // A stride-0 target view of 2^42 elements read through 2^20 rows would be a 16 TiB result:
    // refused with `TooLarge` naming its shape, never a panic or an abort, on every thread count
    // (one thread gathers serially, two by blocks).
    let one = [1.0f32];
    let target = stretched(&one, (1 << 21, 1 << 21));
    let zero = [0usize];
    let rows = ArrayView1::from_shape((1 << 20).strides(0), &zero).unwrap();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let result = pool.install(|| catch_unwind(AssertUnwindSafe(|| get(&target, &[ix(rows)], Mode::Error).map(|r| r.len()))));
        let error = result.expect("no panic").expect_err("no 16 TiB result");
        assert!(matches!(error, IndexError::TooLarge { .. }), "{error:?}");
        assert_eq!(error.to_string(), "indexing result of shape (1048576, 2097152) is too large");
    }
}

#[test]
fn an_along_read_reports_an_index_out_of_bounds_before_a_result_too_large() {
    // A stride-0 target of 2^43 elements read along its last axis by an index broadcast over its
    // rows: 2^42 results, too large; NumPy checks the bounds first, on every thread count (the
    // read leaves them to the gather, which checks the whole index when the result cannot be had).
    let one = [1.0f32];
    let target = stretched(&one, (1 << 41, 4));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let bad = array![[0i64, 4]];
            let error = get(&target, &[ix(tensor_at::along(&bad, 1))], Mode::Error).unwrap_err();
            assert_eq!(error, IndexError::OutOfBounds { index: 4, axis: 1, len: 4 }, "{threads} threads");
            let fine = array![[0i64, -4]];
            let error = get(&target, &[ix(tensor_at::along(&fine, 1))], Mode::Error).unwrap_err();
            assert!(matches!(error, IndexError::TooLarge { .. }), "{error:?}, {threads} threads");
            // The index itself broadcast to the target's 2^43 positions: its bounds are checked
            // once per value, not once per position (hours), before the result is refused.
            let three = [3i64];
            let error = get(&target, &[ix(tensor_at::along(stretched(&three, (1 << 41, 4)), 1))], Mode::Error).unwrap_err();
            assert!(matches!(error, IndexError::TooLarge { .. }), "{error:?}, {threads} threads");
        });
    }
}

#[test]
fn a_batched_read_of_no_batch_is_empty_whatever_its_index_broadcasts_to() {
    // JAX: vmap over a batch of 0 gives shape (0, 2^62) from an index broadcast to (0, 2^62), with
    // nothing built; with one batch position the same read needs 2^62 elements: `TooLarge`.
    let zero = [0usize];
    let huge = stretched(&zero, (1, 1 << 62));
    let none = Array2::<f32>::zeros((0, 5));
    let read = get_batched(&none, &[ix(huge)], 1, ReadMode::Error).expect("no batch, nothing to read");
    assert_eq!((read.shape(), read.len()), (&[0, 1 << 62][..], 0));
    let mut out = ArrayD::<f32>::zeros(IxDyn(&[0, 1 << 62]));
    get_batched_into(&none, &[ix(huge)], 1, ReadMode::Error, &mut out).expect("no batch, nothing to write");
    let one = Array2::<f32>::zeros((1, 5));
    let error = get_batched(&one, &[ix(huge)], 1, ReadMode::Error).unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (4611686018427387904,) is too large");
}

#[test]
fn a_batched_read_too_large_to_allocate_fails_cleanly() {
    // 2^10 batches each reading 2^10 rows of 2^26 elements of a stride-0 target: 2^46 f32, 256 TiB,
    // refused with `TooLarge` naming the whole result, as the same read unbatched is.
    let one = [1.0f32];
    let target = ArrayView3::from_shape((1 << 10, 1 << 26, 1 << 26).strides((0, 0, 0)), &one).unwrap();
    let rows = Array2::<i64>::zeros((1, 1 << 10));
    let error = get_batched(&target, &[ix(&rows)], 1, ReadMode::Error).unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (1024, 1024, 67108864) is too large");
    let whole = ArrayView4::from_shape((1, 1 << 10, 1 << 26, 1 << 26).strides((0, 0, 0, 0)), &one).unwrap();
    let unbatched = get(&whole, &[ix(..), ix(..), ix(rows.row(0))], Mode::Error).unwrap_err();
    assert_eq!(
        unbatched.to_string(),
        "indexing result of shape (1, 1024, 1024, 67108864) is too large"
    );
}

/// An element that counts its clones (used by one test only).
#[derive(Debug, PartialEq)]
struct Counted(i32);

static CLONES: AtomicUsize = AtomicUsize::new(0);

impl Clone for Counted {
    fn clone(&self) -> Counted {
        CLONES.fetch_add(1, Ordering::SeqCst);
        Counted(self.0)
    }
}

#[test]
fn a_batched_read_into_an_array_copies_each_element_once_straight_into_it() {
    // `take(.., out=buf)` (and tf.gather with batch_dims) copy each selected element once into
    // `buf`: no result of their own, filled and then copied over.
    let x = Array2::from_shape_fn((2, 4), |(b, j)| Counted(10 * b as i32 + j as i32));
    let idx = array![[3, 0, 3], [1, 1, 2]];
    let mut out = Array2::from_shape_fn((2, 3), |_| Counted(-1));
    let before = CLONES.load(Ordering::SeqCst);
    get_batched_into(&x, &[ix(&idx)], 1, ReadMode::Error, &mut out).unwrap();
    assert_eq!(CLONES.load(Ordering::SeqCst) - before, 6, "one clone per element read");
    let expected = [[3, 0, 3], [11, 11, 12]];
    assert_eq!(out, Array2::from_shape_fn((2, 3), |(b, k)| Counted(expected[b][k])));
    // A basic index, read through whole batch axes, is copied once too.
    let before = CLONES.load(Ordering::SeqCst);
    get_batched_into(&x, &[ix(1..4)], 1, ReadMode::Error, &mut out).unwrap();
    assert_eq!(CLONES.load(Ordering::SeqCst) - before, 6);
    assert_eq!(out, Array2::from_shape_fn((2, 3), |(b, k)| Counted(10 * b as i32 + k as i32 + 1)));
    // A wrong shape is refused after the read's own checks, `out` unchanged.
    let mut wrong = Array2::from_shape_fn((2, 2), |_| Counted(-1));
    let error = get_batched_into(&x, &[ix(&idx)], 1, ReadMode::Error, &mut wrong).unwrap_err();
    assert!(matches!(error, IndexError::OutputShape { .. }), "{error}");
    assert!(wrong.iter().all(|e| e.0 == -1));
}

#[test]
fn apply_over_more_positions_than_memory_holds_fails_before_calling_anything() {
    // A 1 MiB target read through 2^20 copies of its one row: 2^40 positions, whose scratch (an
    // offset and a result each, 8 TiB and more) is refused with `TooLarge`; `f` is never called.
    let original = Array2::<u8>::from_elem((1, 1 << 20), 7);
    let rows = Array1::<i32>::zeros(1 << 20);
    let never = |_: u8| -> u8 { panic!("f is never called") };
    let mut x = original.clone();
    let error = apply(&mut x, &[ix(&rows)], never, Mode::Error).unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (1048576, 1048576) is too large");
    let error = apply_batched(
        &mut x.view_mut().insert_axis(Axis(0)),
        &[ix(rows.view().insert_axis(Axis(0)))],
        1,
        never,
        Mode::Error,
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (1, 1048576, 1048576) is too large");
    assert_eq!(x, original);
    // The method syntax gives the array back, in its own buffer.
    let buffer = x.as_ptr();
    let refused = x.updated(&rows).apply(never).unwrap_err();
    assert!(matches!(refused.error, IndexError::TooLarge { .. }));
    let back = refused.array.expect("the array comes back");
    assert_eq!((back.as_ptr(), &back), (buffer, &original));
}

#[test]
fn batched_apply_of_a_basic_index_reaches_each_element_of_a_zero_sized_type() {
    // JAX: vmap of x.at[1:].apply(f) calls f once per selected element of each batch: 2 x 2 here.
    let mut units = Array2::from_elem((2, 3), ());
    let mut calls = 0;
    apply_batched(&mut units, &[ix(1..)], 1, |()| calls += 1, Mode::Error).unwrap();
    assert_eq!(calls, 4);
    // The same offsets on numbers, reversed axes and a new axis included: x[b, ::-2][None] *= 10.
    let mut x = Array2::from_shape_fn((2, 5), |(b, j)| (10 * b + j) as i64);
    x.invert_axis(Axis(1));
    let index = [ix(IndexElem::NewAxis), ix(PySlice::new(None, None, Some(-2)))];
    apply_batched(&mut x, &index, 1, |e| e * 100, Mode::Error).unwrap();
    x.invert_axis(Axis(1));
    assert_eq!(
        x,
        array![[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]].mapv(|e| if e % 2 == 0 { e * 100 } else { e })
    );
}

#[test]
fn nd_depths_summing_past_usize_max_are_too_many_indices() {
    // Three `nd` arrays broadcast to depth isize::MAX index 3 (2^63 - 1) axes of a 2-d array: NumPy's
    // "too many indices", the count saturated where it cannot be written.
    let zero = [0usize];
    let deep = ArrayView1::from_shape((isize::MAX as usize).strides(0), &zero).unwrap();
    let x = Array2::<i32>::zeros((2, 2));
    let index = [ix(nd(deep)), ix(nd(deep)), ix(nd(deep))];
    let error = get(&x, &index, Mode::Error).unwrap_err();
    assert_eq!(
        error,
        IndexError::TooManyIndices {
            ndim: 2,
            indexed: usize::MAX
        }
    );
    let mut y = x.clone();
    assert_eq!(set(&mut y, &index, 1, Mode::Error).unwrap_err(), error);
    assert_eq!(y, x);
}

#[test]
fn an_empty_region_whose_other_axes_cannot_be_addressed_is_too_large() {
    // NumPy (uint8): x of shape (1, 2^31, 2^31, 0) is empty; x[[0, 0, 0, 0]] would have shape
    // (4, 2^31, 2^31, 0), 2^64 bytes by its other axes: "array is too big" (`TooLarge`), in every
    // mode and on every entry point, the array given back where it was taken. x[[0]] is empty.
    let shape = (1, 1 << 31, 1 << 31, 0);
    let x = Array4::<u8>::from_shape_vec(shape, Vec::new()).unwrap();
    let four = [0, 0, 0, 0];
    let too_large = "indexing result of shape (4, 2147483648, 2147483648, 0) is too large";
    assert_eq!(get(&x, &[ix(four)], Mode::Error).unwrap_err().to_string(), too_large);
    assert_eq!(try_at!(x[[0, 0, 0, 0]]).unwrap_err().to_string(), too_large);
    assert_eq!(try_at!(x[[0, 0, 0, 0]]; mode = clip).unwrap_err().to_string(), too_large);
    assert_eq!(at!(x[[0]]).shape(), &[1, 1 << 31, 1 << 31, 0]);
    let mut y = x.clone();
    assert_eq!(set(&mut y, &[ix(four)], 1, Mode::Error).unwrap_err().to_string(), too_large);
    assert_eq!(
        update(&mut y, &[ix(four)], Op::Add, 1, Mode::Error).unwrap_err().to_string(),
        too_large
    );
    assert_eq!(apply(&mut y, &[ix(four)], |e| e, Mode::Error).unwrap_err().to_string(), too_large);
    assert_eq!(try_at!(y[[0, 0, 0, 0]] += 1).unwrap_err().to_string(), too_large);
    let SetError { error, array } = try_set!({ y }[[0, 0, 0, 0]] = 1).unwrap_err();
    assert_eq!((error.to_string(), array.map(|a| a.dim())), (too_large.to_owned(), Some(shape)));
    let refused = x.updated(four).add(1).unwrap_err();
    assert_eq!(
        (refused.error.to_string(), refused.array.map(|a| a.dim())),
        (too_large.to_owned(), Some(shape))
    );
}

#[test]
fn along_beside_an_axis_longer_than_memory_holds_positions_fails_cleanly() {
    // NumPy's take_along_axis builds an `arange` of each other axis: on a broadcast target with
    // 2^40 rows, a MemoryError. `TooLarge` naming the region in every mode, never an abort.
    let one = [1.0f32];
    let target = stretched(&one, (1 << 40, 3));
    let picks = array![[2i64]];
    for mode in [AnyMode::Error, AnyMode::Clip, AnyMode::Wrap, AnyMode::Fill(0.0)] {
        let error = get(&target, &[ix(tensor_at::along(&picks, 1))], mode).unwrap_err();
        assert_eq!(
            error.to_string(),
            "indexing result of shape (1099511627776, 1) is too large",
            "{mode:?}"
        );
    }
    // Beside an empty axis, 2^62 rows select nothing: an empty read, and writes of nothing, in
    // every mode (no index is resolved where nothing is selected, as in mode error).
    let empty = Array2::<f32>::zeros((1 << 62, 0));
    let none = Array2::<i64>::zeros((1, 0));
    let index = [ix(tensor_at::along(&none, 1))];
    for fill in [ReadMode::Error, ReadMode::Clip, ReadMode::Wrap]
        .map(AnyMode::from)
        .into_iter()
        .chain([AnyMode::Fill(0.0)])
    {
        assert_eq!(get(&empty, &index, fill).unwrap().shape(), &[1 << 62, 0], "{fill:?}");
    }
    for mode in [Mode::Error, Mode::Clip, Mode::Wrap, Mode::Drop] {
        let mut x = empty.clone();
        set(&mut x, &index, 1.0, mode).unwrap();
        update(&mut x, &index, Op::Add, 1.0, mode).unwrap();
        assert_eq!(x.dim(), (1 << 62, 0));
    }
    // An empty region whose rows are 2^61 long (an index broadcast by a zero stride over a target
    // with no row): nothing selected, so nothing walked, not even one row's room.
    let mut no_rows = Array2::<f32>::zeros((0, 5));
    let zero = [0i64];
    let long = stretched(&zero, (1, 1 << 61));
    let index = [ix(tensor_at::along(long, 1))];
    for read in [ReadMode::Error, ReadMode::Clip, ReadMode::Wrap] {
        assert_eq!(get(&no_rows, &index, read).unwrap().shape(), &[0, 1 << 61], "{read:?}");
    }
    for mode in [Mode::Error, Mode::Clip, Mode::Wrap, Mode::Drop] {
        set(&mut no_rows, &index, 1.0, mode).unwrap();
        update(&mut no_rows, &index, Op::Add, 1.0, mode).unwrap();
    }
}

#[test]
fn more_batches_than_memory_holds_are_too_large() {
    // 2^62 batch positions of an empty row, or 2^61 of a stride-0 target's row: `TooLarge`, never
    // a "capacity overflow" panic or an abort, and nothing written.
    let mut x = Array2::<f32>::zeros((1 << 62, 0));
    let none = Array2::<usize>::zeros((1, 0));
    let too_many = "indexing result of shape (4611686018427387904,) is too large";
    let error = set_batched(&mut x, &[ix(&none)], 1, 0.0, Mode::Error).unwrap_err();
    assert_eq!(error.to_string(), too_many);
    let error = update_batched(&mut x, &[ix(&none)], 1, Op::Add, 1.0, Mode::Clip).unwrap_err();
    assert_eq!(error.to_string(), too_many);
    let error = apply_batched(&mut x, &[ix(&none)], 1, |e| e + 1.0, Mode::Drop).unwrap_err();
    assert_eq!(error.to_string(), too_many);
    let one = [1.0f32];
    let rows = stretched(&one, (1 << 61, 3));
    let error = get_batched(&rows, &[ix(&array![[0usize, 2]])], 1, ReadMode::Error).unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (2305843009213693952, 2) is too large");
}

#[test]
fn a_read_that_copies_a_huge_broadcast_view_fails_cleanly() {
    // A row of a stride-0 target of 2^61 columns is a view; read in mode fill, or through a
    // zero-dimensional index array, it is copied (an owned result): 2^63 bytes cannot be, so
    // `TooLarge`, never a "capacity overflow" panic.
    let one = [1.0f32];
    let x = stretched(&one, (2, 1 << 61));
    let too_large = "indexing result of shape (2305843009213693952,) is too large";
    assert_eq!(try_at!(x[0]; mode = fill(0.0)).unwrap_err().to_string(), too_large);
    let first = ndarray::arr0(0usize);
    assert_eq!(try_at!(x[first]).unwrap_err().to_string(), too_large);
    // The same row viewed is no copy.
    assert_eq!(at!(x[0]).len(), 1 << 61);
}

#[test]
fn a_copy_and_update_of_a_source_too_large_to_copy_fails_cleanly() {
    // NumPy: np.broadcast_to(0, 2**42).copy() raises MemoryError. `try_set!` of a stride-0 view of
    // 2^42 elements (16 TiB to copy) is `TooLarge`, with no array: the source is still the caller's.
    let one = [0.0f32];
    let huge = ArrayView1::from_shape((1 << 42).strides(0), &one).unwrap();
    let SetError { error, array } = try_set!(huge[0] = 1.0).unwrap_err();
    assert_eq!(error.to_string(), "indexing result of shape (4398046511104,) is too large");
    assert!(array.is_none());
    assert!(
        catch_unwind(|| huge.updated(0).set(1.0)).is_err(),
        "the method syntax panics, never aborts"
    );
    // `set!` of a reference copies through its own path: it panics with the same message.
    let by_reference = &huge;
    let panic = catch_unwind(|| set!(by_reference[0] = 1.0)).unwrap_err();
    let message = panic.downcast_ref::<String>().map(String::as_str);
    assert_eq!(message, Some("indexing result of shape (4398046511104,) is too large"));
}

// ---------------------------------------------------------------- masks

#[test]
fn all_false_and_empty_masks_select_nothing() {
    // NumPy: x[all_false] has shape (0,) (or (0, 3) and (2, 0) over one axis of a 2-d x); writes
    // are no-ops; a length-1 value broadcasts to the empty selection; 2 values are a count error.
    let original = array![0.0, 1.0, 2.0, 3.0];
    let mut x = original.clone();
    let none = Array1::from_elem(4, false);
    assert_eq!(at!(x[none]).shape(), &[0]);
    at!(x[none] = 5.0);
    at!(x[none] += array![5.0]);
    at!(x[none].apply(|_| panic!("never called")));
    assert_eq!(x, original);
    let error = try_at!(x[none] = array![5.0, 6.0]).unwrap_err().to_string();
    assert!(
        error.contains("cannot assign 2 input values to the 0 output values where the mask is true"),
        "{error}"
    );
    let grid = Array2::<i32>::zeros((2, 3));
    let (no_rows, no_cols) = (Array1::from_elem(2, false), Array1::from_elem(3, false));
    assert_eq!(at!(grid[no_rows]).shape(), &[0, 3]);
    assert_eq!(at!(grid[:, no_cols]).shape(), &[2, 0]);
    // An empty array and its empty mask: shape (0,), and a division by zero there is no error
    // (NumPy's floor_divide.at over no positions raises nothing).
    let mut empty = Array1::<i64>::zeros(0);
    let empty_mask = Array1::<bool>::from_elem(0, false);
    assert_eq!(at!(empty[empty_mask]).shape(), &[0]);
    at!(empty[empty_mask] /= 0);
    // The fused comparison path selecting nothing writes nothing, a zero divisor included.
    let mut n = array![1i64, 2, 3];
    at!(n[n > 10] /= 0);
    at!(n[n > 10] = array![7]);
    assert_eq!(n, array![1, 2, 3]);
}

// ---------------------------------------------------------------- arithmetic edges

#[test]
fn nan_propagates_through_min_and_max() {
    // NumPy (checked): np.minimum.at([1, 2, nan], [0, 0, 1, 2], [nan, 0.5, 3, -1]) == [nan, 2, nan];
    // np.maximum.at([1, 2, nan], [0, 0, 1, 2], [nan, 5, -3, 9]) == [nan, 2, nan].
    let mut minima = array![1.0, 2.0, f64::NAN];
    at!(minima[[0, 0, 1, 2]].min(array![f64::NAN, 0.5, 3.0, -1.0]));
    assert!(minima[0].is_nan() && minima[1] == 2.0 && minima[2].is_nan(), "{minima}");
    let mut maxima = array![1.0, 2.0, f64::NAN];
    at!(maxima[[0, 0, 1, 2]].max(array![f64::NAN, 5.0, -3.0, 9.0]));
    assert!(maxima[0].is_nan() && maxima[1] == 2.0 && maxima[2].is_nan(), "{maxima}");
    // f32, a basic view and a scalar NaN: every selected element becomes NaN.
    let mut x = array![1.0f32, 2.0, 3.0];
    at!(x[1..].max(f32::NAN));
    assert!(x[0] == 1.0 && x[1].is_nan() && x[2].is_nan(), "{x}");
    // The fused mask path: NaN compares false, so `x > 0` does not select it, and min(NaN) is NaN.
    let mut y = array![f64::NAN, 1.0, -1.0];
    at!(y[y > 0.0].min(f64::NAN));
    assert!(y[0].is_nan() && y[1].is_nan() && y[2] == -1.0, "{y}");
}

#[test]
fn integer_overflow_wraps_like_numpy_fixed_width_integers() {
    // NumPy (checked): add.at(int8 [127], [0, 0], 1) == [-127]; subtract.at(uint8 [0], [0], 1) == [255];
    // multiply.at(int64 [2^62], [0, 0], 4) == [0]; add.at(int64 [2^63 - 1], [0], 1) == [-2^63];
    // multiply.at(int32 [1000003], [0, 0, 0], 1000003) == [1525764945]; power.at(int64 [3], [0], 64)
    // == [8733086111712066817]; int64 -2^63 // -1 == -2^63.
    let mut small = array![127i8];
    at!(small[[0, 0]] += 1);
    assert_eq!(small, array![-127]);
    let mut unsigned = array![0u8];
    at!(unsigned[[0]] -= 1);
    assert_eq!(unsigned, array![255]);
    let mut wide = array![1i64 << 62, i64::MAX];
    at!(wide[[0, 0]] *= 4);
    at!(wide[1] += 1);
    assert_eq!(wide, array![0, i64::MIN]);
    let mut thirty_two = array![1_000_003i32];
    at!(thirty_two[[0, 0, 0]] *= 1_000_003);
    assert_eq!(thirty_two, array![1_525_764_945]);
    let mut power = array![3i64, i64::MIN];
    at!(power[[0]].pow(64));
    at!(power[[1]] /= -1);
    assert_eq!(power, array![8_733_086_111_712_066_817, i64::MIN]);
}

#[test]
fn integer_division_by_zero_is_an_error_on_every_write_path() {
    // NumPy raises nothing but returns 0 with a warning; tensor-at refuses before writing anything.
    let original = array![[10i64, 20, 30], [40, 50, 60]];
    let mut x = original.clone();
    let zero_last = array![1i64, 2, 0];
    assert!(is_div_by_zero(try_at!(x[1, ..] /= zero_last)), "basic view, array value");
    assert!(is_div_by_zero(try_at!(x[.., 1:] /= 0)), "basic view, scalar");
    assert!(is_div_by_zero(try_at!(x[[1, 0, 1]] /= 0)), "index array in place");
    assert!(is_div_by_zero(try_at!(x[[1, 0], 2].div(array![3, 0]))), "offset table");
    assert!(is_div_by_zero(try_at!(x[x > 15] /= 0)), "fused mask, scalar");
    assert!(is_div_by_zero(try_at!(x[[0, 9]] /= 0; mode = clip)), "clip");
    assert!(is_div_by_zero(try_set!(x[0] /= 0).map_err(IndexError::from)), "copy-and-update");
    assert_eq!(x, original);
    // Unsigned, and at a dropped position only: the zero is never applied, so no error.
    let mut bytes = array![200u8, 100];
    assert!(is_div_by_zero(try_at!(bytes[[1]] /= 0)));
    at!(bytes[[0, 5]] /= array![2, 0]; mode = drop);
    assert_eq!(bytes, array![100, 100]);
}

fn is_div_by_zero<R>(result: Result<R, IndexError>) -> bool {
    matches!(result, Err(IndexError::DivisionByZero))
}

// ---------------------------------------------------------------- panics

/// An operation reading a target, for tables of cases.
type Read<'a, X> = Box<dyn Fn(&X) + 'a>;
/// An operation writing a target, for tables of cases.
type Write<'a, X> = Box<dyn Fn(&mut X) + 'a>;

/// Calls of `f` that panic on their `n`-th call.
fn panics_on_call(n: usize) -> impl FnMut(i64) -> i64 {
    let mut calls = 0;
    move |e| {
        calls += 1;
        assert!(calls < n, "the closure panics on call {n}");
        e * 10
    }
}

#[test]
fn a_panicking_apply_closure_leaves_the_target_unchanged() {
    // JAX has no partial update; tensor-at puts back every element it replaced.
    let original = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as i64);
    let cases: Vec<(&str, Write<'_, Array2<i64>>)> = vec![
        ("basic", Box::new(|x| at!(x[1.., ::2].apply(panics_on_call(4))))),
        ("index array", Box::new(|x| at!(x[[2, 0, 2]].apply(panics_on_call(9))))),
        ("duplicates", Box::new(|x| at!(x[[0, 0, 0], 1].apply(panics_on_call(3))))),
        ("mask", Box::new(|x| at!(x[x > 2].apply(panics_on_call(8))))),
        (
            "fn api",
            Box::new(|x| apply(x, &[ix(..), ix([3, 1])], panics_on_call(6), Mode::Wrap).unwrap()),
        ),
    ];
    for (what, case) in cases {
        let mut x = original.clone();
        assert!(
            catch_unwind(AssertUnwindSafe(|| case(&mut x))).is_err(),
            "{what}: the closure must panic"
        );
        assert_eq!(x, original, "{what}: written before the panic");
    }
    // Without a panic, duplicates still chain, in index order (JAX's apply, unbuffered):
    // x[0, 1] = 1 goes 1 -> 10 -> 100 -> 1000.
    let mut x = original.clone();
    at!(x[[0, 0, 0], 1].apply(panics_on_call(usize::MAX)));
    assert_eq!(x[[0, 1]], 1000);
    assert_eq!(x.iter().filter(|&&e| e >= 12).count(), 1);
}

/// An element whose `Drop` panics while it is the fuse; its clones and
/// every new value are not.
#[derive(Debug)]
struct Fuse(i64, bool);

impl tensor_at::element::Scalar for Fuse {}

impl Clone for Fuse {
    fn clone(&self) -> Fuse {
        Fuse(self.0, false)
    }
}

impl Drop for Fuse {
    fn drop(&mut self) {
        assert!(!self.1, "dropping the fuse");
    }
}

#[test]
fn an_element_whose_drop_panics_finds_apply_whole() {
    // The old elements are dropped after the last write: the fuse's panic reaches the caller,
    // and every selected element already holds f's result (the loop would stop at the fuse).
    // A second fuse is leaked, not dropped while the first panic unwinds (which would abort).
    let times_ten = |e: Fuse| Fuse(e.0 * 10, false);
    let fused = |fuses: &[(usize, usize)]| Array2::from_shape_fn((2, 3), |(i, j)| Fuse((i * 3 + j) as i64, fuses.contains(&(i, j))));
    let check = |what: &str, fuses: &[(usize, usize)], case: Write<'_, Array2<Fuse>>, expected: Array2<i64>| {
        let mut x = fused(fuses);
        let caught = catch_unwind(AssertUnwindSafe(|| case(&mut x))).unwrap_err();
        assert_eq!(caught.downcast_ref::<&str>(), Some(&"dropping the fuse"), "{what}");
        assert_eq!(x.map(|e| e.0), expected, "{what}");
    };
    let basic = array![[0, 10, 20], [3, 40, 50]];
    check("basic", &[(0, 1)], Box::new(|x| at!(x[.., 1..].apply(times_ten))), basic.clone());
    check(
        "two fuses",
        &[(0, 1), (1, 1)],
        Box::new(|x| at!(x[.., 1..].apply(times_ten))),
        basic,
    );
    // (0, 1) twice, then (1, 2): the fuse's last occurrence is not the last write.
    check(
        "index array, duplicates",
        &[(0, 1)],
        Box::new(|x| at!(x[[0, 0, 1], [1, 1, 2]].apply(times_ten))),
        array![[0, 100, 2], [3, 4, 50]],
    );
    // Row 0 takes index 1, row 1 index 2.
    check(
        "batched",
        &[(0, 1)],
        Box::new(|x| at!(x[[1, 2]].apply(times_ten); batch = 1)),
        array![[0, 10, 2], [3, 4, 50]],
    );

    // `set` may stop at the fuse (as `clone_from_slice` does): each element holds its old value
    // or the new one.
    let mut x = fused(&[(0, 1)]);
    assert!(catch_unwind(AssertUnwindSafe(|| at!(x[0, [1, 2]] = Fuse(7, false)))).is_err());
    for ((i, j), e) in x.indexed_iter() {
        assert!(
            e.0 == (i * 3 + j) as i64 || (i == 0 && j > 0 && e.0 == 7),
            "set: x[{i}, {j}] is {}",
            e.0
        );
    }
}

/// Live `Tracked` values: a double drop makes it go below what was created.
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// Whether cloning a `Tracked` 13 panics.
static ARMED: AtomicBool = AtomicBool::new(false);
/// Held by each test of `Tracked` values, which count them and arm their
/// clones through the two statics above: tests run side by side.
static TRACKING: Mutex<()> = Mutex::new(());

/// The tests of `Tracked` values, one at a time. One that fails poisons
/// the lock, which the next takes anyway: each disarms the clones and reads
/// `LIVE` when it starts.
fn tracking() -> MutexGuard<'static, ()> {
    let guard = TRACKING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    ARMED.store(false, Ordering::SeqCst);
    guard
}

/// An element whose `Clone` panics on the value 13 when armed, counting live instances.
#[derive(Debug, PartialEq)]
struct Tracked(i64);

impl Tracked {
    fn new(value: i64) -> Tracked {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Tracked(value)
    }
}

impl tensor_at::element::Scalar for Tracked {}

impl Clone for Tracked {
    fn clone(&self) -> Tracked {
        assert!(self.0 != 13 || !ARMED.load(Ordering::SeqCst), "cloning 13");
        Tracked::new(self.0)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn a_panicking_clone_is_memory_safe_on_every_path() {
    // A read never changes the target; a write may be left part done (as `clone_from_slice`),
    // every element holding its old or its new value, none dropped twice (counted) or leaked.
    let _one_at_a_time = tracking();
    let before = LIVE.load(Ordering::SeqCst);
    {
        let original: Array1<Tracked> = (0..20).map(Tracked::new).collect();
        let mut x = original.clone();
        let values: Array1<Tracked> = (10..16).map(Tracked::new).collect();
        let reads: Vec<(&str, Read<'_, Array1<Tracked>>)> = vec![
            ("gather", Box::new(|x| drop(at!(x[[0, 13, 1]])))),
            (
                "gather with fill",
                Box::new(|x| drop(get(x, &[ix([0, 99, 13])], AnyMode::Fill(Tracked::new(-1))).unwrap())),
            ),
        ];
        ARMED.store(true, Ordering::SeqCst);
        for (what, read) in reads {
            assert!(catch_unwind(AssertUnwindSafe(|| read(&x))).is_err(), "{what} must panic");
            assert_eq!(x, original, "{what}");
        }
        let writes: Vec<(&str, Write<'_, Array1<Tracked>>)> = vec![
            ("set from an array", Box::new(|x| at!(x[[0, 1, 2, 3, 4, 5]] = values.view()))),
            ("set of a basic view", Box::new(|x| at!(x[4..10] = values.view()))),
            ("set of a scalar", Box::new(|x| at!(x[[1, 2]] = Tracked::new(13)))),
        ];
        for (what, write) in writes {
            assert!(catch_unwind(AssertUnwindSafe(|| write(&mut x))).is_err(), "{what} must panic");
            for (k, e) in x.iter().enumerate() {
                assert!(e.0 == k as i64 || (10..16).contains(&e.0), "{what}: element {k} is {e:?}");
            }
        }
        ARMED.store(false, Ordering::SeqCst);
    }
    assert_eq!(LIVE.load(Ordering::SeqCst), before, "every Tracked dropped exactly once");
}

#[test]
fn a_panicking_clone_leaves_apply_s_target_unchanged() {
    // `.apply` clones each element into `f`; when the clone of 13 panics, the target is as it
    // was (in place, the elements already replaced put back, one of them twice), and no element
    // is dropped twice or leaked.
    let plus_100 = |e: Tracked| Tracked::new(e.0 + 100);
    let _one_at_a_time = tracking();
    let before = LIVE.load(Ordering::SeqCst);
    {
        // 4 x 5, x[2, 3] = 13.
        let original = Array2::from_shape_fn((4, 5), |(i, j)| Tracked::new((i * 5 + j) as i64));
        let applies: Vec<(&str, Write<'_, Array2<Tracked>>)> = vec![
            (
                "index arrays, a duplicate before the panic",
                Box::new(|x| at!(x[[0, 1, 0, 2, 3], [1, 4, 1, 3, 0]].apply(plus_100))),
            ),
            ("a basic view", Box::new(|x| at!(x[1..3, 1..].apply(plus_100)))),
            (
                "fn api, a row of an index array",
                Box::new(|x| apply(x, &[ix([0, 2]), ix(..)], plus_100, Mode::Error).unwrap()),
            ),
            // Row 0 takes column 4, row 1 column 0, row 2 column 3 (13), row 3 column 3.
            ("batched", Box::new(|x| at!(x[[4, 0, 3, 3]].apply(plus_100); batch = 1))),
        ];
        for (what, case) in applies {
            let mut x = original.clone();
            ARMED.store(true, Ordering::SeqCst);
            let unwound = catch_unwind(AssertUnwindSafe(|| case(&mut x)));
            ARMED.store(false, Ordering::SeqCst);
            assert!(unwound.is_err(), "{what}: cloning 13 must panic");
            assert_eq!(x, original, "{what}: written before the panic");
        }
        // A few indices into a vector, which no plan is built for; x[13] is 13.
        let vector: Array1<Tracked> = (0..20).map(Tracked::new).collect();
        let mut y = vector.clone();
        ARMED.store(true, Ordering::SeqCst);
        let unwound = catch_unwind(AssertUnwindSafe(|| at!(y[[0, 5, 0, 13, 1]].apply(plus_100))));
        ARMED.store(false, Ordering::SeqCst);
        assert!(unwound.is_err(), "a vector: cloning 13 must panic");
        assert_eq!(y, vector, "a vector: written before the panic");
        at!(y[[0, 5, 0, 13, 1]].apply(plus_100));
        let mut expected = vector.clone();
        for k in [0, 5, 0, 13, 1] {
            expected[k] = Tracked::new(expected[k].0 + 100);
        }
        assert_eq!(y, expected, "a vector, unarmed");
        // Unarmed, the same calls apply every occurrence (the duplicate twice).
        let mut x = original.clone();
        at!(x[[0, 1, 0, 2, 3], [1, 4, 1, 3, 0]].apply(plus_100));
        let mut expected = original.clone();
        for (i, j) in [(0, 1), (1, 4), (0, 1), (2, 3), (3, 0)] {
            expected[(i, j)] = Tracked::new(expected[(i, j)].0 + 100);
        }
        assert_eq!(x, expected);
    }
    assert_eq!(LIVE.load(Ordering::SeqCst), before, "every Tracked dropped exactly once");
}

// ---------------------------------------------------------------- shared buffers

#[test]
fn writes_to_a_shared_arc_array_never_reach_the_other_owner() {
    // ndarray's ArcArray is copy-on-write: the written handle gets its own buffer, the other keeps the old data.
    let original = array![[1, 2], [3, 4]].into_shared();
    let other = original.clone();

    let mut written = original.clone();
    at!(written[0, 0] = 100);
    at!(written[[1, 1]] += 1); // np.add.at(x, [1, 1], 1): row 1 twice
    assert_eq!(written, array![[100, 2], [5, 6]]);

    let copied = set!(original[.., 1] = 0);
    assert_eq!(copied, array![[1, 0], [3, 0]]);
    let consumed = set!(original.clone()[0] *= 7);
    assert_eq!(consumed, array![[7, 14], [3, 4]]);
    let mut through_fn = other.clone();
    set(&mut through_fn, &[ix(1)], -1, Mode::Error).unwrap();
    apply(&mut through_fn, &[ix(0)], |e| e - 1, Mode::Error).unwrap();
    assert_eq!(through_fn, array![[0, 1], [-1, -1]]);

    assert_eq!(original, array![[1, 2], [3, 4]]);
    assert_eq!(other, array![[1, 2], [3, 4]]);
    assert!(std::ptr::eq(original.as_ptr(), other.as_ptr()), "the untouched owners still share");
}

// ------------------------------------------- long index arrays into a short target

/// A SplitMix64 stream of `count` indices in `[-len, len)`, reproducible.
fn signed_indices(count: usize, len: usize, seed: u64) -> Array1<i64> {
    Array1::from_iter((0..count as u64).map(|k| {
        let mut z = seed.wrapping_add((k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % (2 * len as u64)) as i64 - len as i64
    }))
}

#[test]
fn long_index_arrays_into_a_short_target_equal_a_plain_loop_or_write_nothing() {
    // Many more indices than elements: updates check each index as they
    // apply it and roll back on the first bad one. The result must equal a
    // plain loop in index order, and an error must leave every bit as it was.
    let x0 = Array1::from_shape_fn(64, |k| (k as f64 - 20.0) * 0.375);
    let idx = signed_indices(5000, 64, 3);
    let v = Array1::from_shape_fn(5000, |k| ((k * 7919) % 97) as f64 * 0.125 - 6.0);
    let position = |i: i64| if i < 0 { (i + 64) as usize } else { i as usize };
    for op in [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Min, Op::Max] {
        let mut expected = x0.clone();
        for (&i, &v) in idx.iter().zip(&v) {
            let e = &mut expected[position(i)];
            *e = match op {
                Op::Add => *e + v,
                Op::Sub => *e - v,
                Op::Mul => *e * v,
                Op::Div => *e / v,
                Op::Min => {
                    if e.is_nan() || v.is_nan() {
                        f64::NAN
                    } else if v <= *e {
                        v
                    } else {
                        *e
                    }
                }
                _ => {
                    if e.is_nan() || v.is_nan() {
                        f64::NAN
                    } else if v >= *e {
                        v
                    } else {
                        *e
                    }
                }
            };
        }
        let mut x = x0.clone();
        update(&mut x, &[ix(&idx)], op, &v, Mode::Error).unwrap();
        assert!(x.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()), "{op:?}");
        // A scalar value, and i32 indices.
        let mut x = x0.clone();
        update(&mut x, &[ix(idx.mapv(|i| i as i32))], op, 0.5, Mode::Error).unwrap();
        let mut expected = x0.clone();
        update(&mut expected, &[ix(idx.slice(ndarray::s![..1]))], op, 0.5, Mode::Error).unwrap();
        for &i in idx.iter().skip(1) {
            update(&mut expected, &[IndexElem::Int(i.into())], op, 0.5, Mode::Error).unwrap();
        }
        assert!(x.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()), "{op:?} scalar");
        // A bad index late (after thousands of updates), early, and first.
        for bad_at in [4999, 2500, 0] {
            for bad in [64, -65, i64::MAX] {
                let mut wrong = idx.clone();
                wrong[bad_at] = bad;
                let mut x = x0.clone();
                let error = update(&mut x, &[ix(&wrong)], op, &v, Mode::Error).unwrap_err();
                assert_eq!(error.to_string(), format!("index {bad} is out of bounds for axis 0 with size 64"));
                assert!(
                    x.iter().zip(&x0).all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{op:?}: bad {bad} at {bad_at}"
                );
            }
        }
    }
    // A value of the wrong shape is reported, not half-applied, and an out
    // of bounds index is reported before it (NumPy's order).
    let mut x = x0.clone();
    let short = Array1::<f64>::zeros(3);
    assert!(matches!(
        update(&mut x, &[ix(&idx)], Op::Add, &short, Mode::Error),
        Err(IndexError::ShapeMismatch { .. })
    ));
    let mut wrong = idx.clone();
    wrong[10] = 64;
    assert!(matches!(
        update(&mut x, &[ix(&wrong)], Op::Add, &short, Mode::Error),
        Err(IndexError::OutOfBounds { .. })
    ));
    assert_eq!(x, x0);
}

// ------------------------------------------- tables read in place, walked in pieces

#[test]
fn long_index_arrays_beside_other_axes_equal_a_plain_loop() {
    // An index array read in place is never turned into a table of the
    // whole (eight bytes per index, however narrow): its rows come to the
    // executors in pieces. Each write must still pair every position with
    // its own value, whether the value is contiguous, transposed, or one
    // row broadcast, and equal a plain loop in index order.
    let (rows, len, count) = (3, 50, 9001);
    let x0 = Array2::from_shape_fn((rows, len), |(r, c)| (r * len + c) as f64 * 0.5);
    let idx = signed_indices(count, len, 11).mapv(|i| i as i32);
    let position = |i: i32| if i < 0 { (i + len as i32) as usize } else { i as usize };
    let contiguous = Array2::from_shape_fn((rows, count), |(r, k)| ((r * 31 + k * 7) % 113) as f64 - 50.0);
    let transposed = contiguous.t().to_owned();
    let transposed = transposed.t();
    let one_row = contiguous.row(1).insert_axis(Axis(0));
    for (name, value) in [("contiguous", contiguous.view()), ("transposed", transposed), ("one row", one_row)] {
        let value = value.broadcast((rows, count)).unwrap();
        let mut expected = x0.clone();
        for r in 0..rows {
            for (k, &i) in idx.iter().enumerate() {
                expected[[r, position(i)]] += value[[r, k]];
            }
        }
        let mut x = x0.clone();
        update(&mut x, &[ix(..), ix(&idx)], Op::Add, &value, Mode::Error).unwrap();
        assert!(x.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
        // The last occurrence of each position is the one `=` leaves.
        let mut expected = x0.clone();
        for r in 0..rows {
            for (k, &i) in idx.iter().enumerate() {
                expected[[r, position(i)]] = value[[r, k]];
            }
        }
        let mut x = x0.clone();
        set(&mut x, &[ix(..), ix(&idx)], &value, Mode::Error).unwrap();
        assert!(x.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()), "{name} =");
    }
    // A read gathers the same positions.
    let read = get(&x0, &[ix(..), ix(&idx)], ReadMode::Error).unwrap();
    let expected = Array2::from_shape_fn((rows, count), |(r, k)| x0[[r, position(idx[k])]]);
    assert_eq!(read, expected.into_dyn());
}
