//! Basic indexing (integers, slices, `...`, new axes) resolved to view
//! axes one at a time, with nothing allocated: the resolver builds a
//! [`ViewPlan`](crate::plan::ViewPlan) from them, and the CPU's entry points
//! narrow a view with them directly (a small update costs less than a plan).

use crate::error::IndexError;
use ndarray::Dimension;

use crate::index::{BasicElem, BasicList, IndexElem, RangeSlice, VisitBasic, position_of};
use crate::mode::{Bounds, Resolution};
use crate::plan::ViewAxis;
use crate::plan::place::{Placement, basic};
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
        // Not advanced: every element is basic.
        match view_axes(basic(elem)?, axis, shape, placement.ellipsis_width(), bounds, &mut visit) {
            Ok(Some(width)) => consumed += width,
            Ok(None) => return None,
            Err(error) => return Some(Err(error)),
        }
    }
    Some(Ok(consumed))
}

/// The position of the one element a typed list of integers alone picks,
/// one for each axis of `shape`, as a `D` index: `Some(None)` when one is
/// out of bounds (the general path reports it, and no other inline path
/// takes it); `None` for any other list.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn element_at<D: Dimension>(list: &impl BasicList, shape: &[usize]) -> Option<Option<D>> {
    let (mut at, mut axis) = (D::zeros(shape.len()), 0);
    let (mut integers, mut in_bounds) = (true, true);
    list.each_basic(&mut |elem| {
        match elem {
            Some(BasicElem::Int(i)) if axis < shape.len() => {
                match position_of(i, shape[axis]) {
                    Some(position) => at[axis] = position,
                    None => in_bounds = false,
                }
                axis += 1;
            }
            _ => integers = false,
        }
        integers
    });
    (integers && axis == shape.len()).then(|| in_bounds.then_some(at))
}

/// [`each_view_axis`] of a typed list in mode `error`, read element by
/// element where it stands (no [`IndexElem`] built): the macros' inline
/// path. `None` when an element is not basic or an index fails: the
/// general path names the error, so none is built here.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn each_basic_view_axis(list: &impl BasicList, shape: &[usize], visit: impl FnMut(ViewAxis)) -> Option<usize> {
    let (mut ellipses, mut indexed, mut basic) = (0, 0, true);
    list.each_basic(&mut |elem| {
        match elem {
            None => basic = false,
            Some(BasicElem::Ellipsis) => ellipses += 1,
            Some(BasicElem::NewAxis) => {}
            Some(_) => indexed += 1,
        }
        basic
    });
    if !basic {
        return None;
    }
    let ellipsis_width = Placement::ellipsis_width_of(ellipses, false, indexed, shape.len()).ok()?;
    let mut walk = ViewAxes {
        shape,
        ellipsis_width,
        axis: 0,
        failed: false,
        visit,
    };
    list.each_basic(&mut walk);
    (!walk.failed).then_some(walk.axis)
}

/// The resolving walk of [`each_basic_view_axis`], as a visitor rather than
/// a closure so that it is inlined into each element (see [`VisitBasic`]).
struct ViewAxes<'s, V> {
    shape: &'s [usize],
    ellipsis_width: usize,
    /// The next target axis.
    axis: usize,
    /// Whether an element failed: its error is left to the general path,
    /// and an inline path that built it would keep it in memory for
    /// nothing.
    failed: bool,
    visit: V,
}

impl<V: FnMut(ViewAxis)> VisitBasic for ViewAxes<'_, V> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn visit(&mut self, elem: Option<BasicElem>) -> bool {
        let Some(elem) = elem else { return false };
        match view_axes(elem, self.axis, self.shape, self.ellipsis_width, Bounds::Error, &mut self.visit) {
            Ok(width) => self.axis += width.unwrap_or(0),
            Err(_) => self.failed = true,
        }
        !self.failed
    }
}

/// Hands `visit` the view axes of one basic element whose first target
/// axis is `axis` (`...` covering `ellipsis_width` axes), and returns how
/// many target axes it consumes; `None` for an integer that `bounds`
/// skips.
#[cfg_attr(not(unoptimized), inline(always))]
fn view_axes(
    elem: BasicElem,
    axis: usize,
    shape: &[usize],
    ellipsis_width: usize,
    bounds: Bounds,
    visit: &mut impl FnMut(ViewAxis),
) -> Result<Option<usize>, IndexError> {
    let view_axis = match elem {
        BasicElem::NewAxis => ViewAxis::NewAxis,
        BasicElem::Ellipsis => {
            shape[axis..axis + ellipsis_width]
                .iter()
                .for_each(|&len| visit(ViewAxis::whole(len)));
            return Ok(Some(ellipsis_width));
        }
        BasicElem::Slice(slice) => resolve_py(slice, shape[axis])?,
        BasicElem::Range(range) => resolve_range(range, shape[axis], axis)?,
        BasicElem::Int(index) => {
            let len = shape[axis];
            match bounds.resolve(index, len) {
                Resolution::At(position) => ViewAxis::Select(position),
                Resolution::Skipped => return Ok(None),
                Resolution::OutOfBounds => return Err(IndexError::OutOfBounds { index, axis, len }),
            }
        }
    };
    visit(view_axis);
    Ok(Some(usize::from(!matches!(view_axis, ViewAxis::NewAxis))))
}

/// The row a typed list of one integer then whole axes picks (`x[i]`,
/// `x[i, :]`, `x[i, ..]`, `x[i, ...]`): `Some` of the integer's position
/// on the first axis, `Some(None)` when it is out of bounds (the general
/// path reports that, and no other inline path takes it); `None` for any
/// other list (more elements than axes included). The small calls'
/// commonest view, made with no walk over view axes.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn row_at(list: &impl BasicList, shape: &[usize]) -> Option<Option<usize>> {
    let whole = RangeSlice::new(0, None);
    let (mut row, mut axes, mut ellipses, mut picks) = (None, 0, 0, true);
    list.each_basic(&mut |elem| {
        match (elem, row) {
            (Some(BasicElem::Int(i)), None) => row = Some(i),
            (Some(BasicElem::Range(range)), Some(_)) if range == whole => axes += 1,
            (Some(BasicElem::Ellipsis), Some(_)) => ellipses += 1,
            _ => picks = false,
        }
        picks
    });
    let (len, row) = (*shape.first()?, row?);
    (picks && ellipses <= 1 && axes < shape.len()).then_some(())?;
    Some(position_of(row, len))
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

    /// A list of basic elements as a typed list hands them over.
    struct Basic(Vec<Option<BasicElem>>);

    impl BasicList for Basic {
        fn each_basic(&self, f: &mut impl VisitBasic) {
            for &elem in &self.0 {
                if !f.visit(elem) {
                    return;
                }
            }
        }
    }

    #[test]
    fn a_row_is_one_integer_in_bounds_then_whole_axes() {
        let (int, whole) = (|i| Some(BasicElem::Int(i)), Some(BasicElem::Range(RangeSlice::new(0, None))));
        let (ellipsis, new_axis) = (Some(BasicElem::Ellipsis), Some(BasicElem::NewAxis));
        let row = |elems: &[Option<BasicElem>], shape: &[usize]| row_at(&Basic(elems.to_vec()), shape);
        // `x[1]`, `x[-1, :]`, `x[0, ...]`, `x[2, ..., :]` on a 4 x 5 array.
        assert_eq!(row(&[int(1)], &[4, 5]), Some(Some(1)));
        assert_eq!(row(&[int(-1), whole], &[4, 5]), Some(Some(3)));
        assert_eq!(row(&[int(0), ellipsis], &[4, 5]), Some(Some(0)));
        assert_eq!(row(&[int(2), ellipsis, whole], &[4, 5]), Some(Some(2)));
        // A row out of bounds: the general path's error.
        assert_eq!(row(&[int(4)], &[4, 5]), Some(None));
        assert_eq!(row(&[int(-5), whole], &[4, 5]), Some(None));
        assert_eq!(row(&[int(0)], &[0, 5]), Some(None));
        // More axes than the array has: not a row.
        assert_eq!(row(&[int(0), whole, whole], &[4, 5]), None);
        assert_eq!(row(&[int(0)], &[]), None);
        assert_eq!(row(&[int(0), ellipsis, ellipsis], &[4, 5]), None);
        // Anything but whole axes after the integer, or before it.
        let part = Some(BasicElem::Range(RangeSlice::new(1, None)));
        assert_eq!(row(&[int(0), part], &[4, 5]), None);
        assert_eq!(row(&[int(0), int(1)], &[4, 5]), None);
        assert_eq!(row(&[int(0), new_axis], &[4, 5]), None);
        assert_eq!(row(&[whole, int(0)], &[4, 5]), None);
        assert_eq!(row(&[int(0), None], &[4, 5]), None);
        assert_eq!(row(&[], &[4, 5]), None);
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
