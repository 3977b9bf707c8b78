//! The macros' inline paths against the runtime's general path and the
//! plain loop:
//! - basic indices (a typed list of integers, slices, `...` and new axes
//!   read where it stands, sliced straight into the read's static rank):
//!   the same view, or the same error, as the same index as a list of
//!   `IndexElem`s, for random bounds (in and out of range, negative, zero
//!   steps) on random shapes;
//! - basic writes of array values (owned, views, not in C order, to
//!   broadcast, of a wrong shape): the same array, or the same error, as
//!   the general path;
//! - a few indices in one borrowed vector (read, `=`, `op=` with a scalar
//!   or one value per index, `.apply`): the same array as the plain loop
//!   (and, for `.apply`, as the general path), or the same error with the
//!   target unchanged;
//! - a mask of the target's own shape (read, `=`, `op=` with a scalar or
//!   one value per selected element), owned or borrowed, on contiguous
//!   targets and on transposed ones that the inline path declines: the
//!   same array as the plain loop, or the general path's error with the
//!   target unchanged;
//! - `along(idx, axis)` and `nd(points)` alone (read, `=`, `op=`, values
//!   as above, indices in and out of bounds, negative, repeated): the
//!   same.

use ndarray::{Array, Array1, Array2, Array3, ArrayView, Dimension};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use tensor_at::backend::{apply, get, set, update};
use tensor_at::index::{IndexElem, PySlice, RangeSlice};
use tensor_at::{IndexError, Mode, Op, along, at, ix, nd, try_at, try_set};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/inline.txt"))),
        ..ProptestConfig::default()
    }
}

/// A target of shape `shape` whose elements are their own C-order positions.
fn target(shape: (usize, usize, usize)) -> Array3<i64> {
    let len = shape.0 * shape.1 * shape.2;
    Array3::from_shape_vec(shape, (0..len as i64).collect()).expect("one element per position")
}

/// The inline path's result and the general path's agree: the same shape
/// and elements, or the same error.
fn agree<D: Dimension>(
    inline: Result<ArrayView<'_, i64, D>, IndexError>,
    x: &Array3<i64>,
    index: &[IndexElem<'_>],
) -> Result<(), TestCaseError> {
    let general = get(x, index, Mode::Error);
    match (inline, general) {
        (Ok(view), Ok(expected)) => {
            prop_assert_eq!(view.shape(), expected.shape(), "{:?}", index);
            prop_assert_eq!(
                view.iter().copied().collect::<Vec<_>>(),
                expected.iter().copied().collect::<Vec<_>>(),
                "{:?}",
                index
            );
        }
        (Err(error), Err(expected)) => prop_assert_eq!(error, expected, "{:?}", index),
        (inline, general) => prop_assert!(
            false,
            "{:?}: inline {:?}, general {:?}",
            index,
            inline.map(|v| v.shape().to_vec()),
            general.map(|v| v.shape().to_vec())
        ),
    }
    Ok(())
}

fn shapes() -> impl Strategy<Value = (usize, usize, usize)> {
    (0usize..5, 0usize..5, 0usize..5)
}

/// Bounds around every axis length used: in range, negative, beyond it.
fn bound() -> impl Strategy<Value = i64> {
    -7i64..8
}

fn part() -> impl Strategy<Value = Option<i64>> {
    prop::option::of(bound())
}

proptest! {
    #![proptest_config(config(1500))]

    /// `x[a:b:c, i]`, `x[i, ..., j]`, `x[None, a..b;c, i]`, `x[i, j, k]`,
    /// `x[..., None]`, and two ellipses (an error).
    #[test]
    fn inline_basic_reads_equal_the_general_path(
        shape in shapes(),
        (a, b, c) in (part(), part(), part()),
        (i, j, k) in (bound(), bound(), bound()),
        (start, step) in (bound(), bound()),
        end in part(),
    ) {
        let x = target(shape);
        let (a_, b_, c_) = (a.map(|v| v as isize), b.map(|v| v as isize), c.map(|v| v as isize));
        let py = IndexElem::Slice(PySlice::new(a_, b_, c_));
        let range = IndexElem::Range(RangeSlice::new(start as isize, end.map(|v| v as isize)).step_by(step as isize));
        match (a, b, c) {
            (Some(a), Some(b), Some(c)) => agree(try_at!(x[a:b:c, i]), &x, &[py.clone(), ix(i)])?,
            (Some(a), None, Some(c)) => agree(try_at!(x[a::c, i]), &x, &[py.clone(), ix(i)])?,
            (None, Some(b), None) => agree(try_at!(x[:b, i]), &x, &[py.clone(), ix(i)])?,
            _ => agree(try_at!(x[::-1, i]), &x, &[IndexElem::Slice(PySlice::new(None, None, Some(-1))), ix(i)])?,
        }
        agree(try_at!(x[i, ..., j]), &x, &[ix(i), IndexElem::Ellipsis, ix(j)])?;
        match end {
            Some(end) => agree(try_at!(x[None, start..end;step, k]), &x, &[IndexElem::NewAxis, range, ix(k)])?,
            None => agree(try_at!(x[None, start..;step, k]), &x, &[IndexElem::NewAxis, range, ix(k)])?,
        }
        // Integers alone read the element.
        let element: Result<i64, IndexError> = try_at!(x[i, j, k]);
        let general = get(&x, &[ix(i), ix(j), ix(k)], Mode::Error);
        prop_assert_eq!(element, general.map(|view| *view.first().expect("a 0-d read holds one element")));
        agree(try_at!(x[..., None]), &x, &[IndexElem::Ellipsis, IndexElem::NewAxis])?;
        // Rows: one integer then whole axes (viewed with no walk), on the
        // target and on a view walked backwards.
        let whole = IndexElem::Range(RangeSlice::new(0, None));
        agree(try_at!(x[i]), &x, &[ix(i)])?;
        agree(try_at!(x[i, ..]), &x, &[ix(i), whole.clone()])?;
        agree(try_at!(x[i, :, :]), &x, &[ix(i), whole.clone(), whole.clone()])?;
        agree(try_at!(x[i, ...]), &x, &[ix(i), IndexElem::Ellipsis])?;
        let backwards = x.slice(ndarray::s![..;-1, .., ..;-1]);
        let read: Result<ArrayView<'_, i64, ndarray::Ix2>, IndexError> = try_at!(backwards[i, ..]);
        prop_assert_eq!(
            read.map(|row| row.iter().copied().collect::<Vec<_>>()),
            get(&backwards.to_owned(), &[ix(i)], Mode::Error).map(|row| row.iter().copied().collect())
        );
        // A dynamic rank: the structure is checked at run time.
        let xd = x.clone().into_dyn();
        agree(try_at!(xd[i, j, k, i]), &x, &[ix(i), ix(j), ix(k), ix(i)])?;
        agree(try_at!(xd[i, ..., None, j]), &x, &[ix(i), IndexElem::Ellipsis, IndexElem::NewAxis, ix(j)])?;
        // More whole axes than the target has, an error found at run time.
        agree(try_at!(xd[i, .., .., ..]), &x, &[ix(i), whole.clone(), whole.clone(), whole])?;
    }
}

/// A value for a basic write whose region has `shape`: `kind` 0 an owned
/// array of that shape, 1 a view of it, 2 a view of it not in C order, 3
/// a vector that broadcasts along the last axis, 4 a vector one longer.
fn region_value(shape: &[usize], kind: u8, seed: i64) -> ndarray::ArrayD<i64> {
    let len: usize = shape.iter().product();
    let in_c_order = Array::from_shape_vec(shape, (0..len as i64).map(|k| seed + 3 * k).collect()).expect("one value per element");
    let last = shape.last().copied().unwrap_or(1);
    match kind {
        0 | 1 => in_c_order,
        2 => {
            let reversed: Vec<usize> = shape.iter().rev().copied().collect();
            // C order in the reversed shape is Fortran order in `shape`.
            let mut transposed = Array::zeros(ndarray::IxDyn(&reversed));
            transposed.assign(&in_c_order.t());
            transposed.reversed_axes()
        }
        3 => Array1::from_shape_fn(last, |k| seed - k as i64).into_dyn(),
        _ => Array1::from_shape_fn(last + 1, |k| seed - k as i64).into_dyn(),
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// `x[a:b:c, i] = v`, `x[i, ::-1] += v`, `x[..., i] = v` with an array
    /// value (owned, a view, one not in C order, a vector to broadcast, one
    /// of the wrong length): the same array, or the same error with the
    /// target unchanged, as the general path.
    #[test]
    fn basic_writes_of_arrays_equal_the_general_path(
        shape in shapes(),
        (a, b, c) in (bound(), bound(), bound()),
        i in bound(),
        kind in 0u8..5,
        seed in -20i64..20,
    ) {
        let x = target(shape);
        let slice = IndexElem::Slice(PySlice::new(Some(a as isize), Some(b as isize), Some(c as isize)));
        let reversed = IndexElem::Slice(PySlice::new(None, None, Some(-1)));
        let whole = IndexElem::Range(RangeSlice::new(0, None));
        let forms: [(&[IndexElem<'_>], bool); 5] = [
            (&[slice, ix(i)], false),
            (&[ix(i), reversed], true),
            (&[IndexElem::Ellipsis, ix(i)], false),
            (&[ix(i), whole], false),
            (&[ix(i)], true),
        ];
        for (form, (index, add)) in forms.into_iter().enumerate() {
            let region = match get(&x, index, Mode::Error) {
                Ok(read) => read.shape().to_vec(),
                // The index fails: any value shows the error.
                Err(_) => vec![1],
            };
            let value = region_value(&region, kind, seed);
            let mut y = x.clone();
            let written = match (form, kind) {
                (0, 1) => try_at!(y[a:b:c, i] = value.view()),
                (0, _) => try_at!(y[a:b:c, i] = &value),
                (1, 1) => try_at!(y[i, ::-1] += value.view()),
                (1, _) => try_at!(y[i, ::-1] += value.clone()),
                (2, 1) => try_at!(y[..., i] = value.view()),
                (2, _) => try_at!(y[..., i] = value.clone()),
                (3, 1) => try_at!(y[i, :] = value.view()),
                (3, _) => try_at!(y[i, :] = &value),
                (_, 1) => try_at!(y[i] += value.view()),
                _ => try_at!(y[i] += value.clone()),
            };
            let mut general = x.clone();
            let expected = match add {
                true => update(&mut general, index, Op::Add, &value, Mode::Error),
                false => set(&mut general, index, &value, Mode::Error),
            };
            prop_assert_eq!((written, y), (expected, general), "form {}, value kind {}", form, kind);
        }
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// Rows written with a scalar (`x[i] = v`, `x[i, ..] += v`,
    /// `x[i, ...] *= v`), on the target and on a view walked backwards:
    /// the same array, or the same error with the target unchanged, as the
    /// general path.
    #[test]
    fn rows_written_with_a_scalar_equal_the_general_path(shape in shapes(), i in bound(), v in -9i64..9) {
        let x = target(shape);
        let whole = IndexElem::Range(RangeSlice::new(0, None));
        let mut y = x.clone();
        let mut general = x.clone();
        prop_assert_eq!(try_at!(y[i] = v), set(&mut general, &[ix(i)], v, Mode::Error));
        prop_assert_eq!(try_at!(y[i, ..] += v), update(&mut general, &[ix(i), whole.clone()], Op::Add, v, Mode::Error));
        prop_assert_eq!(try_at!(y[i, ...] *= v), update(&mut general, &[ix(i), IndexElem::Ellipsis], Op::Mul, v, Mode::Error));
        prop_assert_eq!(&y, &general);
        let (mut y, mut general) = (x.clone(), x.clone());
        let mut backwards = y.slice_mut(ndarray::s![..;-1, .., ..;-1]);
        let mut expected = general.slice_mut(ndarray::s![..;-1, .., ..;-1]);
        prop_assert_eq!(try_at!(backwards[i, :] -= v), update(&mut expected, &[ix(i), whole], Op::Sub, v, Mode::Error));
        prop_assert_eq!(y, general);
    }
}

/// An element combined with a value.
type Combine = fn(i64, i64) -> i64;

/// The plain loop of `x[index] op= values`, every occurrence in order, or
/// the error of the first index out of bounds (nothing written).
fn looped(x: &Array1<i64>, index: &[i64], values: &[i64], op: impl Fn(i64, i64) -> i64) -> Result<Array1<i64>, IndexError> {
    let len = x.len() as i64;
    if let Some(&bad) = index.iter().find(|&&i| i < -len || i >= len) {
        return Err(IndexError::OutOfBounds {
            index: i128::from(bad),
            axis: 0,
            len: x.len(),
        });
    }
    let mut expected = x.clone();
    for (k, &i) in index.iter().enumerate() {
        let at = i.rem_euclid(len.max(1)) as usize;
        let value = values[k.min(values.len() - 1)];
        expected[at] = op(expected[at], value);
    }
    Ok(expected)
}

proptest! {
    #![proptest_config(config(1000))]

    /// `x[idx] = v`, `x[idx] += v`, `x[idx].max(v)` with a borrowed vector of
    /// indices (in and out of bounds, negative, repeated) and a scalar or
    /// one value per index, against the plain loop; and `x[idx]` against
    /// the general path, on a vector and on the rows of a matrix.
    #[test]
    fn a_few_indices_in_a_vector_equal_the_plain_loop(
        len in 0usize..6,
        index in prop::collection::vec(-8i64..8, 0..20),
        seed in -50i64..50,
        scalar in any::<bool>(),
    ) {
        let x = Array1::from_iter((0..len as i64).map(|k| k * 3 - 5));
        let values = Array1::from_iter((0..index.len() as i64).map(|k| seed + 7 * k));
        let listed: Vec<isize> = index.iter().map(|&i| i as isize).collect();
        let ops: [(&str, Combine); 4] = [("=", |_, v| v), ("+=", |e, v| e + v), (".max", i64::max), (".apply", |e, _| 2 * e + 1)];
        for (name, op) in ops {
            let mut y = x.clone();
            let written = match (name, scalar) {
                ("=", true) => try_at!(y[index] = seed),
                ("=", false) => try_at!(y[index] = values),
                ("+=", true) => try_at!(y[index] += seed),
                ("+=", false) => try_at!(y[index] += values),
                (".apply", _) => try_at!(y[index].apply(|e| 2 * e + 1)),
                (_, true) => try_at!(y[index].max(seed)),
                (_, false) => try_at!(y[index].max(values)),
            };
            let expected = if scalar { looped(&x, &index, &[seed], op) } else { looped(&x, &index, values.as_slice().unwrap(), op) };
            match &expected {
                Ok(expected) => prop_assert_eq!((written, &y), (Ok(()), expected), "{}", name),
                Err(error) => prop_assert_eq!((written, &y), (Err(error.clone()), &x), "{}", name),
            }
            // `isize` indices, a literal list's type: up to four are
            // applied where the call is.
            let mut y = x.clone();
            let written = match (name, scalar) {
                ("=", true) => try_at!(y[listed] = seed),
                ("=", false) => try_at!(y[listed] = values),
                ("+=", true) => try_at!(y[listed] += seed),
                ("+=", false) => try_at!(y[listed] += values),
                (".apply", _) => try_at!(y[listed].apply(|e| 2 * e + 1)),
                (_, true) => try_at!(y[listed].max(seed)),
                (_, false) => try_at!(y[listed].max(values)),
            };
            match expected {
                Ok(expected) => prop_assert_eq!((written, y), (Ok(()), expected), "{} (isize)", name),
                Err(error) => prop_assert_eq!((written, y), (Err(error), x.clone()), "{} (isize)", name),
            }
        }
        // Literal lists, repeated and negative indices included.
        let mut y = x.clone();
        let expected = looped(&x, &[1, -1, 1], &[seed], |e, v| e + v);
        let written = try_at!(y[[1, -1, 1]] += seed);
        prop_assert_eq!((written, y), expected.map_or_else(|error| (Err(error), x.clone()), |expected| (Ok(()), expected)));
        let mut y = x.clone();
        let expected = looped(&x, &[-2, 0], &[seed, seed + 1], |_, v| v);
        let written = try_at!(y[[-2, 0]] = ndarray::array![seed, seed + 1]);
        prop_assert_eq!((written, y), expected.map_or_else(|error| (Err(error), x.clone()), |expected| (Ok(()), expected)));
        let copy = try_set!(x[index] += seed);
        prop_assert_eq!(copy.ok(), looped(&x, &index, &[seed], |e, v| e + v).ok());
        // `.apply` against the general path (a list of `IndexElem`s), errors included.
        let mut y = x.clone();
        let mut general = x.clone();
        let written = try_at!(y[index].apply(|e| 2 * e + 1));
        let expected = apply(&mut general, &[ix(&index)], |e| 2 * e + 1, Mode::Error);
        prop_assert_eq!((written, y), (expected, general), ".apply against the general path");
        // `usize` indices, which the loops read as `u64`: the non-negative ones.
        let unsigned: Vec<usize> = index.iter().filter(|&&i| i >= 0).map(|&i| i as usize).collect();
        let mut y = x.clone();
        let mut general = x.clone();
        let written = try_at!(y[unsigned].apply(|e| 2 * e + 1));
        let expected = apply(&mut general, &[ix(&unsigned)], |e| 2 * e + 1, Mode::Error);
        prop_assert_eq!((written, y), (expected, general), ".apply of usize indices against the general path");
        // Reads: a vector, and the rows of a matrix.
        let general = get(&x, &[ix(&index)], Mode::Error).map(|read| read.into_owned());
        prop_assert_eq!(try_at!(x[index]).map(|read| read.into_dyn()), general);
        let rows = Array2::from_shape_fn((len, 3), |(i, j)| (i * 3 + j) as i64);
        let general = get(&rows, &[ix(&index)], Mode::Error).map(|read| read.into_owned());
        prop_assert_eq!(try_at!(rows[index]).map(|read| read.into_dyn()), general);
        // Rows of a transposed view are strided.
        let columns = rows.t();
        let general = get(&columns, &[ix(&index)], Mode::Error).map(|read| read.into_owned());
        prop_assert_eq!(try_at!(columns[index]).map(|read| read.into_dyn()), general);
    }
}

/// The plain loop of `x[mask] op= values` over `x` and `mask` in the same
/// logical order: the selected elements, in order, each combined with its
/// value (a single value serves every one).
fn masked_loop(x: &Array2<i64>, mask: &Array2<bool>, values: &[i64], op: impl Fn(i64, i64) -> i64) -> Array2<i64> {
    let mut expected = x.clone();
    let selected = expected.iter_mut().zip(mask).filter(|(_, keep)| **keep).map(|(element, _)| element);
    for (k, element) in selected.enumerate() {
        *element = op(*element, values[k.min(values.len() - 1)]);
    }
    expected
}

proptest! {
    #![proptest_config(config(500))]

    /// `x[m]`, `x[m] = v`, `x[m] += v`, `x[m].max(v)` with a mask of the
    /// target's shape and a scalar, one value per selected element, or a
    /// count that does not fit, on a matrix and its transposed view,
    /// against the plain loop (the general path's error for a count that
    /// does not fit).
    #[test]
    fn a_mask_of_the_targets_shape_equals_the_plain_loop(
        (rows, columns) in (0usize..5, 0usize..5),
        bits in any::<u32>(),
        seed in -50i64..50,
        values_kind in 0u8..3,
        transposed in any::<bool>(),
    ) {
        let x = Array2::from_shape_fn((rows, columns), |(i, j)| (i * 7 + j) as i64 - 9);
        let mask = Array2::from_shape_fn(x.raw_dim(), |(i, j)| bits >> ((i * 5 + j) % 32) & 1 == 1);
        let count = mask.iter().filter(|&&keep| keep).count();
        let values: Vec<i64> = match values_kind {
            0 => vec![seed],
            1 => (0..count as i64).map(|k| seed + 3 * k).collect(),
            _ => (0..count as i64 + 2).collect(),
        };
        let value_array = Array1::from(values.clone());
        let fits = values_kind != 2;
        let ops: [(&str, Combine); 3] = [("=", |_, v| v), ("+=", |e, v| e + v), (".max", i64::max)];
        for (name, combine) in ops {
            // The target as the call sees it: owned, or a view of the same
            // elements laid out in Fortran order (declined by the inline
            // path).
            let mut owned = x.clone();
            let mut backing = x.t().to_owned();
            let mut view = backing.view_mut().reversed_axes();
            let (y, written) = if transposed {
                let written = match (name, values_kind) {
                    ("=", 0) => try_at!(view[&mask] = seed),
                    ("=", _) => try_at!(view[&mask] = &value_array),
                    ("+=", 0) => try_at!(view[mask.clone()] += seed),
                    ("+=", _) => try_at!(view[mask.clone()] += &value_array),
                    (_, 0) => try_at!(view[&mask].max(seed)),
                    (_, _) => try_at!(view[&mask].max(&value_array)),
                };
                (view.to_owned(), written)
            } else {
                let written = match (name, values_kind) {
                    ("=", 0) => try_at!(owned[&mask] = seed),
                    ("=", _) => try_at!(owned[&mask] = &value_array),
                    ("+=", 0) => try_at!(owned[mask.clone()] += seed),
                    ("+=", _) => try_at!(owned[mask.clone()] += &value_array),
                    (_, 0) => try_at!(owned[&mask].max(seed)),
                    (_, _) => try_at!(owned[&mask].max(&value_array)),
                };
                (owned, written)
            };
            if fits {
                prop_assert_eq!((written, y), (Ok(()), masked_loop(&x, &mask, &values, combine)), "{}", name);
            } else {
                // The general path's own error, on a copy of the target.
                let mut general = x.clone();
                let expected = match name {
                    "=" => set(&mut general, &[ix(&mask)], &value_array, Mode::Error),
                    "+=" => update(&mut general, &[ix(&mask)], Op::Add, &value_array, Mode::Error),
                    _ => update(&mut general, &[ix(&mask)], Op::Max, &value_array, Mode::Error),
                };
                prop_assert!(expected.is_err(), "{}: {} values for {} selected", name, values.len(), count);
                prop_assert_eq!((written, y), (expected, x.clone()), "{}", name);
            }
        }
        // Reads, owned and borrowed masks, against the plain loop.
        let selected: Vec<i64> = x.iter().zip(&mask).filter(|(_, keep)| **keep).map(|(element, _)| *element).collect();
        prop_assert_eq!(at_read(&x, &mask), selected.clone());
        prop_assert_eq!(try_at!(x[mask.clone()]).map(|read| read.to_vec()), Ok(selected));
    }
}

/// `x[&mask]`, as a vector.
fn at_read(x: &Array2<i64>, mask: &Array2<bool>) -> Vec<i64> {
    tensor_at::at!(x[mask]).to_vec()
}

/// The C-order positions that `along(idx, axis)` picks in a target of
/// `shape`, in the index's order, by the plain loop; `None` where an index
/// is out of bounds.
fn along_positions(shape: (usize, usize), idx: &Array2<i64>, axis: usize) -> Option<Vec<usize>> {
    let len = if axis == 0 { shape.0 } else { shape.1 } as i64;
    idx.indexed_iter()
        .map(|((i, j), &pick)| {
            let at = (-len..len).contains(&pick).then(|| pick.rem_euclid(len) as usize)?;
            Some(if axis == 0 { at * shape.1 + j } else { i * shape.1 + at })
        })
        .collect()
}

/// The C-order positions that `nd(points)` picks in a target of `shape`,
/// each point's row in order, by the plain loop; `None` where a
/// coordinate is out of bounds.
fn nd_positions(shape: (usize, usize), points: &Array2<i64>) -> Option<Vec<usize>> {
    let lens = [shape.0 as i64, shape.1 as i64];
    let mut positions = Vec::new();
    for point in points.rows() {
        let mut start = 0;
        for (d, &coordinate) in point.iter().enumerate() {
            let at = (-lens[d]..lens[d]).contains(&coordinate).then(|| coordinate.rem_euclid(lens[d]))?;
            start = start * lens[d] + at;
        }
        // The axes past the point's depth, whole.
        let row: i64 = lens[point.len()..].iter().product();
        positions.extend((start * row..start * row + row).map(|at| at as usize));
    }
    Some(positions)
}

proptest! {
    #![proptest_config(config(500))]

    /// `x[along(idx, axis)]` and `x[nd(points)]` alone (`nd`: up to 17
    /// points, one past what the inline path takes), on a target laid out
    /// in C or Fortran order, read, `=`, `+=`, `.max` with a scalar or
    /// values of the read's shape, against the
    /// plain loop; with a vector of as many values as elements picked, or
    /// of another count, against the general path (NumPy's broadcast: the
    /// values, or the error with the target unchanged), as where an index
    /// is out of bounds.
    #[test]
    fn along_and_nd_alone_equal_the_plain_loop(
        (rows, columns) in (0usize..4, 0usize..4),
        use_nd in any::<bool>(),
        axis in 0usize..2,
        negative_axis in any::<bool>(),
        picks in 0usize..18,
        depth in 0usize..3,
        numbers in prop::collection::vec(-5i64..5, 16),
        seed in -50i64..50,
        values_kind in 0u8..4,
        fortran in any::<bool>(),
    ) {
        let x = Array2::from_shape_fn((rows, columns), |(i, j)| (i * 7 + j) as i64 - 9);
        let mut numbers = numbers.into_iter().cycle();
        let index = if use_nd {
            Array2::from_shape_fn((picks, depth), |_| numbers.next().unwrap_or(0))
        } else {
            let shape = if axis == 0 { (picks, columns) } else { (rows, picks) };
            Array2::from_shape_fn(shape, |_| numbers.next().unwrap_or(0))
        };
        let signed_axis = if negative_axis { axis as isize - 2 } else { axis as isize };
        let general_index = || if use_nd { ix(nd(&index)) } else { ix(along(&index, signed_axis)) };
        let general_read = get(&x, &[general_index()], Mode::Error);
        let positions = if use_nd { nd_positions((rows, columns), &index) } else { along_positions((rows, columns), &index, axis) };
        let count = positions.as_ref().map_or(0, Vec::len);
        let values: Vec<i64> = match values_kind {
            0 => vec![seed],
            3 => (0..count as i64 + 2).collect(),
            _ => (0..count as i64).map(|k| seed + 3 * k).collect(),
        };
        // Values of the read's shape (kind 1), or a vector (kinds 2, 3).
        let value_array = match (&general_read, values_kind) {
            (Ok(read), 1) => Array::from_shape_vec(read.shape(), values.clone()).expect("one value per element picked"),
            _ => Array1::from(values.clone()).into_dyn(),
        };
        let ops: [(&str, Combine); 3] = [("=", |_, v| v), ("+=", |e, v| e + v), (".max", i64::max)];
        for (name, combine) in ops {
            // The target as a view, its elements in C order or in Fortran
            // order (which the inline path declines).
            let mut backing = if fortran { x.t().to_owned() } else { x.clone() };
            let mut y = if fortran { backing.view_mut().reversed_axes() } else { backing.view_mut() };
            let written = match (use_nd, name, values_kind) {
                (true, "=", 0) => try_at!(y[nd(&index)] = seed),
                (true, "=", _) => try_at!(y[nd(&index)] = &value_array),
                (true, "+=", 0) => try_at!(y[nd(&index)] += seed),
                (true, "+=", _) => try_at!(y[nd(&index)] += &value_array),
                (true, _, 0) => try_at!(y[nd(&index)].max(seed)),
                (true, _, _) => try_at!(y[nd(&index)].max(&value_array)),
                (false, "=", 0) => try_at!(y[along(&index, signed_axis)] = seed),
                (false, "=", _) => try_at!(y[along(&index, signed_axis)] = &value_array),
                (false, "+=", 0) => try_at!(y[along(&index, signed_axis)] += seed),
                (false, "+=", _) => try_at!(y[along(&index, signed_axis)] += &value_array),
                (false, _, 0) => try_at!(y[along(&index, signed_axis)].max(seed)),
                (false, _, _) => try_at!(y[along(&index, signed_axis)].max(&value_array)),
            };
            match &positions {
                Some(positions) if values_kind < 2 => {
                    let mut expected = x.clone();
                    let flat = expected.as_slice_mut().unwrap();
                    for (k, &at) in positions.iter().enumerate() {
                        flat[at] = combine(flat[at], values[k.min(values.len() - 1)]);
                    }
                    prop_assert_eq!((written, y.to_owned()), (Ok(()), expected), "{}", name);
                }
                _ => {
                    let mut general = x.clone();
                    let expected = match name {
                        "=" => set(&mut general, &[general_index()], &value_array, Mode::Error),
                        "+=" => update(&mut general, &[general_index()], Op::Add, &value_array, Mode::Error),
                        _ => update(&mut general, &[general_index()], Op::Max, &value_array, Mode::Error),
                    };
                    prop_assert_eq!((written, y.to_owned()), (expected, general), "{}", name);
                }
            }
        }
        // Reads: the picked elements in order in the general path's shape,
        // or its error.
        let read = if use_nd {
            try_at!(x[nd(&index)]).map(|read| (read.shape().to_vec(), read.iter().copied().collect::<Vec<_>>()))
        } else {
            try_at!(x[along(&index, signed_axis)]).map(|read| (read.shape().to_vec(), read.iter().copied().collect()))
        };
        let general = general_read;
        match positions {
            Some(positions) => {
                let picked = positions.iter().map(|&at| x.as_slice().unwrap()[at]).collect();
                prop_assert_eq!(read, Ok((general.expect("in bounds").shape().to_vec(), picked)));
            }
            None => prop_assert_eq!(read.map(|_| ()), general.map(|_| ())),
        }
    }
}

/// The inline path reads `nd` and `along` indices where they stand, as
/// they were passed: owned, borrowed, viewed, or laid out in Fortran order
/// (which it declines). Every form reads and writes what the plain loop
/// does.
#[test]
fn nd_and_along_indices_in_every_container_equal_the_plain_loop() {
    let x = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as i64);
    let points = ndarray::array![[0, 1], [3, -1], [2, 0]];
    let picks = ndarray::array![[2], [0], [-1], [1]];
    let expected_nd = [1, 15, 8];
    let expected_along = [2, 4, 11, 13];
    // Fortran order: the same elements, laid out by columns.
    let fortran = |index: &Array2<i64>| {
        let mut columns = index.t().to_owned();
        columns.swap_axes(0, 1);
        columns
    };
    for form in ["owned", "borrowed", "view", "fortran"] {
        let (read_nd, read_along) = match form {
            "owned" => (at!(x[nd(points.clone())]), at!(x[along(picks.clone(), 1)])),
            "borrowed" => (at!(x[nd(&points)]), at!(x[along(&picks, 1)])),
            "view" => (at!(x[nd(points.view())]), at!(x[along(picks.view(), 1)])),
            _ => (at!(x[nd(fortran(&points))]), at!(x[along(fortran(&picks), 1)])),
        };
        assert_eq!(read_nd.iter().copied().collect::<Vec<_>>(), expected_nd, "{form}");
        assert_eq!(read_along.iter().copied().collect::<Vec<_>>(), expected_along, "{form}");
        let (mut y, mut z) = (x.clone(), x.clone());
        match form {
            "owned" => (at!(y[nd(points.clone())] += 100), at!(z[along(picks.clone(), 1)] += 100)),
            "borrowed" => (at!(y[nd(&points)] += 100), at!(z[along(&picks, 1)] += 100)),
            "view" => (at!(y[nd(points.view())] += 100), at!(z[along(picks.view(), 1)] += 100)),
            _ => (at!(y[nd(fortran(&points))] += 100), at!(z[along(fortran(&picks), 1)] += 100)),
        };
        for (written, expected) in [(&y, &expected_nd[..]), (&z, &expected_along[..])] {
            let changed: Vec<i64> = written
                .iter()
                .zip(&x)
                .filter(|(after, before)| after != before)
                .map(|(_, &before)| before)
                .collect();
            let mut expected = expected.to_vec();
            expected.sort_unstable();
            assert_eq!(changed, expected, "{form}");
            assert!(
                written
                    .iter()
                    .zip(&x)
                    .all(|(after, before)| after == before || *after == before + 100)
            );
        }
    }
}
