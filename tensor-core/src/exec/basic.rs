//! The basic path: view axes applied to an ndarray view in place, one axis
//! at a time (no slicing description is built, nothing is allocated).

use ndarray::{ArrayBase, Axis, Dimension, IxDyn, RawData, Slice};

use crate::plan::ViewAxis;

/// The view `axes` select: each axis of the target in turn is indexed
/// (removed), sliced, or preceded by a new axis; target axes after the last
/// entry are kept whole.
pub(crate) fn select<S: RawData>(mut target: ArrayBase<S, IxDyn>, axes: &[ViewAxis]) -> ArrayBase<S, IxDyn> {
    let mut axis = 0;
    for view_axis in axes {
        match *view_axis {
            ViewAxis::Select(i) => target.index_axis_inplace(Axis(axis), i),
            ViewAxis::Slice { first, len, step } => {
                target.slice_axis_inplace(Axis(axis), ndarray_slice(first, len, step));
                axis += 1;
            }
            ViewAxis::NewAxis => {
                target.insert_axis_inplace(Axis(axis));
                axis += 1;
            }
        }
    }
    target
}

/// Narrows target axis `axis` to the positions `view_axis` selects, keeping
/// the target's rank (and static dimension type): an indexed axis keeps its
/// one position, and a new axis changes nothing. For writes, where the
/// region's shape does not matter. Returns the next target axis.
pub(crate) fn narrow<S: RawData, D: Dimension>(target: &mut ArrayBase<S, D>, axis: usize, view_axis: ViewAxis) -> usize {
    let slice = match view_axis {
        ViewAxis::NewAxis => return axis,
        ViewAxis::Select(i) => ndarray_slice(i, 1, 1),
        ViewAxis::Slice { first, len, step } => ndarray_slice(first, len, step),
    };
    target.slice_axis_inplace(Axis(axis), slice);
    axis + 1
}

/// Positions `first, first + step, ...` (`len` of them) as an ndarray
/// slice, which walks a negative step from the end of its range: the range
/// is the one whose end (going down) is `first`.
fn ndarray_slice(first: usize, len: usize, step: isize) -> Slice {
    if len == 0 {
        return Slice::new(0, Some(0), 1);
    }
    let first = first as isize;
    let last = first + (len as isize - 1) * step;
    let (low, high) = if step > 0 { (first, last) } else { (last, first) };
    Slice::new(low, Some(high + 1), step)
}
