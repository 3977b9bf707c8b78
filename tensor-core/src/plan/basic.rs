//! Basic indexing (integers, slices, `...`, new axes) resolved to view
//! axes one at a time, with nothing allocated: the resolver builds a
//! [`ViewPlan`](crate::plan::ViewPlan) from them, and the CPU's entry points
//! narrow a view with them directly (a small update costs less than a plan).

use crate::error::IndexError;
use crate::index::IndexElem;
use crate::mode::{Bounds, Resolution};
use crate::plan::ViewAxis;
use crate::plan::place::{Placement, as_int};
use crate::plan::slice::{resolve_py, resolve_range};

/// Hands `visit` the view axes of `index` on a target of shape `shape`, one
/// per index position after `...` is expanded, and returns how many target
/// axes they consume (the axes after those are taken whole, unvisited).
///
/// `None` when the index is not basic: it holds an array, a mask or `nd`,
/// or an integer that `bounds` skips (mode `drop` or `fill`); the advanced
/// resolver takes it. Some axes may have been visited by then. Errors come
/// in NumPy's order: the structure (of any index), then elements from
/// left to right.
#[inline]
pub(crate) fn each_view_axis(
    index: &[IndexElem<'_>],
    shape: &[usize],
    bounds: Bounds,
    mut visit: impl FnMut(ViewAxis),
) -> Option<Result<usize, IndexError>> {
    let placement = match Placement::new(index, shape.len()) {
        Ok(placement) if placement.advanced() => return None,
        Ok(placement) => placement,
        // The structure of any index is checked first.
        Err(error) => return Some(Err(error)),
    };
    let mut consumed = 0;
    for (elem, axis) in placement.first_axes(index) {
        let view_axis = match elem {
            IndexElem::NewAxis => ViewAxis::NewAxis,
            IndexElem::Ellipsis => {
                let covered = axis..axis + placement.ellipsis_width();
                covered.for_each(|a| visit(ViewAxis::whole(shape[a])));
                consumed += placement.ellipsis_width();
                continue;
            }
            IndexElem::Slice(slice) => match resolve_py(*slice, shape[axis]) {
                Ok(view_axis) => view_axis,
                Err(error) => return Some(Err(error)),
            },
            IndexElem::Range(range) => match resolve_range(*range, shape[axis], axis) {
                Ok(view_axis) => view_axis,
                Err(error) => return Some(Err(error)),
            },
            elem => {
                let (index, len) = (as_int(elem)?, shape[axis]);
                match bounds.resolve(index, len) {
                    Resolution::At(position) => ViewAxis::Select(position),
                    Resolution::Skipped => return None,
                    Resolution::OutOfBounds => return Some(Err(IndexError::OutOfBounds { index, axis, len })),
                }
            }
        };
        consumed += usize::from(!matches!(view_axis, ViewAxis::NewAxis));
        visit(view_axis);
    }
    Some(Ok(consumed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{PySlice, RangeSlice};
    use crate::ix;

    /// The axes of `index` on `shape`, trailing whole axes included.
    fn axes(index: &[IndexElem<'_>], shape: &[usize], bounds: Bounds) -> Option<Result<Vec<ViewAxis>, IndexError>> {
        let mut axes = Vec::new();
        let consumed = each_view_axis(index, shape, bounds, |axis| axes.push(axis))?;
        Some(consumed.map(|consumed| {
            axes.extend(shape[consumed..].iter().map(|&len| ViewAxis::whole(len)));
            axes
        }))
    }

    #[test]
    fn integers_select_and_slices_keep_their_axis() {
        let py = |start, stop, step| IndexElem::Slice(PySlice::new(start, stop, step));
        let found = axes(&[ix(-1), py(Some(1), None, Some(2))], &[4, 5, 3], Bounds::Error);
        let expected = [
            ViewAxis::Select(3),
            ViewAxis::Slice { first: 1, len: 2, step: 2 },
            ViewAxis::whole(3),
        ];
        assert_eq!(found, Some(Ok(expected.to_vec())));
        let found = axes(&[IndexElem::NewAxis, IndexElem::Ellipsis, ix(0)], &[2, 3], Bounds::Error);
        let expected = [ViewAxis::NewAxis, ViewAxis::whole(2), ViewAxis::Select(0)];
        assert_eq!(found, Some(Ok(expected.to_vec())));
    }

    #[test]
    fn modes_resolve_integers_and_skipped_ones_are_not_basic() {
        assert_eq!(axes(&[ix(7)], &[3], Bounds::Clip), Some(Ok(vec![ViewAxis::Select(2)])));
        assert_eq!(axes(&[ix(-4)], &[3], Bounds::Wrap), Some(Ok(vec![ViewAxis::Select(2)])));
        assert_eq!(axes(&[ix(7)], &[3], Bounds::Skip), None);
        let error = IndexError::OutOfBounds { index: 7, axis: 1, len: 3 };
        assert_eq!(axes(&[ix(0), ix(7)], &[2, 3], Bounds::Error), Some(Err(error)));
    }

    #[test]
    fn errors_come_in_numpys_order() {
        let range = |start, end| IndexElem::Range(RangeSlice::new(start, end));
        // Structure before elements; then left to right.
        let two = [ix(9), IndexElem::Ellipsis, IndexElem::Ellipsis];
        assert_eq!(axes(&two, &[3], Bounds::Error), Some(Err(IndexError::MultipleEllipsis)));
        let bad = [range(0, Some(9)), ix(9)];
        assert!(matches!(
            axes(&bad, &[3, 3], Bounds::Error),
            Some(Err(IndexError::RangeOutOfBounds { axis: 0, .. }))
        ));
        let zero_step = [ix(9), IndexElem::Slice(PySlice::new(None, None, Some(0)))];
        assert!(matches!(
            axes(&zero_step, &[3, 3], Bounds::Error),
            Some(Err(IndexError::OutOfBounds { .. }))
        ));
    }

    #[test]
    fn arrays_are_not_basic_but_zero_dimensional_ones_are_integers() {
        assert_eq!(axes(&[ix([0usize])], &[3], Bounds::Error), None);
        assert_eq!(axes(&[ix([true, false, true])], &[3], Bounds::Error), None);
        assert_eq!(
            axes(&[ix(ndarray::arr0(-1i32))], &[3], Bounds::Error),
            Some(Ok(vec![ViewAxis::Select(2)]))
        );
    }
}
