//! Slices resolved to `first, len, step` on one axis.

use crate::error::IndexError;
use crate::index::{PySlice, RangeSlice};
use crate::plan::ViewAxis;

/// Resolves a NumPy slice exactly as Python's `slice.indices` does: bounds
/// count from the end when negative and are clamped to the axis.
///
/// Inlined, and its error made apart, so that a small basic call resolves
/// its slices in registers: out of line, the call takes most of a small
/// read's time (measured: docs/performance.md, "Small-update paths").
#[inline]
pub(crate) fn resolve_py(slice: PySlice, len: usize) -> Result<ViewAxis, IndexError> {
    match slice.step {
        Some(0) => Err(zero_step()),
        _ => Ok(resolve_py_step(slice, len)),
    }
}

#[cold]
fn zero_step() -> IndexError {
    IndexError::ZeroStep
}

/// [`resolve_py`] of a slice whose step is not zero. Always inlined: where
/// the macro wrote the bounds and step, most of the clamping folds away.
#[cfg_attr(not(unoptimized), inline(always))]
fn resolve_py_step(slice: PySlice, len: usize) -> ViewAxis {
    let step = slice.step.unwrap_or(1);
    // An axis holds at most `isize::MAX` elements, so a bound plus the
    // length stays in `isize`.
    let n = len as isize;
    // Python's clamping bounds: [0, n] going up, [-1, n - 1] going down.
    let (low, high) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let clamp = |bound: Option<isize>, default: isize| match bound {
        None => default,
        Some(b) => {
            let b = if b < 0 { b + n } else { b };
            // (`max` then `min`: `clamp`'s check of its bounds, which
            // always hold here, is a call of its own.)
            b.max(low).min(high)
        }
    };
    let (start, stop) = if step > 0 {
        (clamp(slice.start, low), clamp(slice.stop, high))
    } else {
        (clamp(slice.start, high), clamp(slice.stop, low))
    };
    let span = if step > 0 { stop - start } else { start - stop };
    let count = if span > 0 { steps(span as usize, step) } else { 0 };
    ViewAxis::Slice {
        first: if count > 0 { start as usize } else { 0 },
        len: count,
        step,
    }
}

/// How many positions a run of `span` holds taken every `step`-th: no
/// division for the usual steps of one (a division costs more than the
/// rest of a small read).
#[inline]
fn steps(span: usize, step: isize) -> usize {
    match step.unsigned_abs() {
        1 => span,
        step => span.div_ceil(step),
    }
}

/// Resolves an ndarray range as `s![]` does: take `start..end` (negative
/// bounds count from the end; either bound outside the axis is an error;
/// `end` before `start` is an empty range), then every `step`-th element, from the back when
/// `step` is negative. Inlined as [`resolve_py`] is.
#[inline]
pub(crate) fn resolve_range(range: RangeSlice, len: usize, axis: usize) -> Result<ViewAxis, IndexError> {
    if range.step == 0 {
        return Err(zero_step());
    }
    // As in `resolve_py`, in `isize`.
    let n = len as isize;
    let absolute = |b: isize| if b < 0 { b + n } else { b };
    let start = absolute(range.start);
    let end = range.end.map_or(n, absolute);
    if !(0..=n).contains(&start) || !(0..=n).contains(&end) {
        return Err(range_out_of_bounds(range, len, axis));
    }
    let end = end.max(start);
    let count = steps((end - start) as usize, range.step);
    let first = if count == 0 {
        0
    } else if range.step > 0 {
        start
    } else {
        end - 1
    };
    Ok(ViewAxis::Slice {
        first: first as usize,
        len: count,
        step: range.step,
    })
}

#[cold]
fn range_out_of_bounds(range: RangeSlice, len: usize, axis: usize) -> IndexError {
    IndexError::RangeOutOfBounds {
        range: range.to_string(),
        axis,
        len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(axis: ViewAxis) -> Vec<isize> {
        match axis {
            ViewAxis::Slice { first, len, step } => (0..len as isize).map(|i| first as isize + i * step).collect(),
            other => panic!("not a slice: {other:?}"),
        }
    }

    #[test]
    fn py_slices_match_python_range_semantics() {
        // Expected positions from Python: list(range(10))[a:b:c].
        type Case = (Option<isize>, Option<isize>, Option<isize>, &'static [isize]);
        let cases: [Case; 6] = [
            (Some(8), Some(2), Some(-2), &[8, 6, 4]),
            (Some(-100), Some(100), None, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
            (Some(5), Some(-100), Some(-1), &[5, 4, 3, 2, 1, 0]),
            (None, None, Some(-3), &[9, 6, 3, 0]),
            (Some(3), Some(3), None, &[]),
            (Some(20), None, Some(-4), &[9, 5, 1]),
        ];
        for (start, stop, step, expected) in cases {
            let axis = resolve_py(PySlice::new(start, stop, step), 10).unwrap();
            assert_eq!(positions(axis), expected, "{start:?}:{stop:?}:{step:?}");
        }
    }

    #[test]
    fn ranges_match_ndarray_slicing() {
        let base = ndarray::Array1::from_iter(0..10isize);
        let cases = [
            (0, None, 1),
            (4, None, -2),
            (1, Some(8), 3),
            (-3, None, -1),
            (5, Some(2), 1),
            (2, Some(-2), -3),
        ];
        for (start, end, step) in cases {
            let expected = base.slice(ndarray::s![ndarray::Slice::new(start, end, step)]).to_vec();
            let axis = resolve_range(RangeSlice { start, end, step }, 10, 0).unwrap();
            assert_eq!(positions(axis), expected, "{start}..{end:?};{step}");
        }
    }

    #[test]
    fn ranges_outside_the_axis_are_errors() {
        for (start, end) in [(0, Some(11)), (11, None), (-11, None), (1, Some(-20))] {
            let err = resolve_range(RangeSlice { start, end, step: 1 }, 10, 2).unwrap_err();
            assert!(matches!(err, IndexError::RangeOutOfBounds { axis: 2, len: 10, .. }), "{err}");
        }
    }
}
