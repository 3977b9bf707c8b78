//! The macros' inline paths against the runtime's general path and the
//! plain loop:
//! - basic indices (a typed list of integers, slices, `...` and new axes
//!   read where it stands, sliced straight into the read's static rank):
//!   the same view, or the same error, as the same index as a list of
//!   `IndexElem`s, for random bounds (in and out of range, negative, zero
//!   steps) on random shapes;
//! - a few indices in one borrowed vector (read, `=`, `op=` with a scalar
//!   or one value per index): the same array as the plain loop, or the
//!   same error with the target unchanged.

use ndarray::{Array1, Array2, Array3, ArrayView, Dimension};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use tensor_at::backend::get;
use tensor_at::index::{IndexElem, PySlice, RangeSlice};
use tensor_at::{IndexError, Mode, ix, try_at, try_set};

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
        // A dynamic rank: the structure is checked at run time.
        let xd = x.clone().into_dyn();
        agree(try_at!(xd[i, j, k, i]), &x, &[ix(i), ix(j), ix(k), ix(i)])?;
        agree(try_at!(xd[i, ..., None, j]), &x, &[ix(i), IndexElem::Ellipsis, IndexElem::NewAxis, ix(j)])?;
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
        let ops: [(&str, Combine); 3] = [("=", |_, v| v), ("+=", |e, v| e + v), (".max", i64::max)];
        for (name, op) in ops {
            let mut y = x.clone();
            let written = match (name, scalar) {
                ("=", true) => try_at!(y[index] = seed),
                ("=", false) => try_at!(y[index] = values),
                ("+=", true) => try_at!(y[index] += seed),
                ("+=", false) => try_at!(y[index] += values),
                (_, true) => try_at!(y[index].max(seed)),
                (_, false) => try_at!(y[index].max(values)),
            };
            let expected = if scalar { looped(&x, &index, &[seed], op) } else { looped(&x, &index, values.as_slice().unwrap(), op) };
            match expected {
                Ok(expected) => prop_assert_eq!((written, y), (Ok(()), expected), "{}", name),
                Err(error) => prop_assert_eq!((written, y), (Err(error), x.clone()), "{}", name),
            }
        }
        let copy = try_set!(x[index] += seed);
        prop_assert_eq!(copy.ok(), looped(&x, &index, &[seed], |e, v| e + v).ok());
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
