//! A purely basic index (integers in bounds, slices, `...`, new axes)
//! resolved straight to view axes, inline, with no allocation: the path of
//! small updates, where building a [`Plan`](crate::plan::Plan) would cost
//! more than the update. Anything else, and anything wrong, is left to the
//! full resolver, which reports errors in NumPy's order.

use std::ops::Deref;

use crate::index::IndexElem;
use crate::plan::ViewAxis;
use crate::plan::slice::{resolve_py, resolve_range};

/// The most view axes resolved inline; longer indices take the full resolver.
const MAX_AXES: usize = 8;

/// The view axes of a basic index, one per index position after `...` is
/// expanded; target axes after the last position are taken whole.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BasicAxes {
    axes: [ViewAxis; MAX_AXES],
    len: usize,
}

impl BasicAxes {
    fn push(&mut self, axis: ViewAxis) -> Option<()> {
        *self.axes.get_mut(self.len)? = axis;
        self.len += 1;
        Some(())
    }
}

impl Deref for BasicAxes {
    type Target = [ViewAxis];

    fn deref(&self) -> &[ViewAxis] {
        &self.axes[..self.len]
    }
}

/// The view axes `index` selects from an array of shape `shape`, or `None`
/// when the index is not purely basic, is longer than the inline capacity,
/// or is wrong in any way (the full resolver then takes it).
///
/// Integers must be in `[-n, n)`: there every mode means the same.
pub(crate) fn resolve_basic(index: &[IndexElem<'_>], shape: &[usize]) -> Option<BasicAxes> {
    let mut resolved = BasicAxes {
        axes: [ViewAxis::NewAxis; MAX_AXES],
        len: 0,
    };
    each_basic_axis(index, shape, |axis| resolved.push(axis))?;
    Some(resolved)
}

/// `resolve_basic`'s axes handed to `visit` one at a time, as they are
/// resolved, with nothing stored; `None` as soon as the index turns out
/// not to be basic or valid (or `visit` returns `None`), when some axes
/// may already have been visited.
pub(crate) fn each_basic_axis(index: &[IndexElem<'_>], shape: &[usize], mut visit: impl FnMut(ViewAxis) -> Option<()>) -> Option<()> {
    let consumed = index
        .iter()
        .filter(|elem| matches!(elem, IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_)))
        .count();
    let whole_axes = shape.len().checked_sub(consumed)?;
    let mut axis = 0;
    let mut seen_ellipsis = false;
    for elem in index {
        match *elem {
            IndexElem::Int(i) => {
                let n = shape[axis] as i128;
                if !(-n..n).contains(&i) {
                    return None;
                }
                visit(ViewAxis::Select(if i < 0 { i + n } else { i } as usize))?;
                axis += 1;
            }
            IndexElem::Slice(slice) => {
                visit(resolve_py(slice, shape[axis]).ok()?)?;
                axis += 1;
            }
            IndexElem::Range(range) => {
                visit(resolve_range(range, shape[axis], axis).ok()?)?;
                axis += 1;
            }
            IndexElem::NewAxis => visit(ViewAxis::NewAxis)?,
            IndexElem::Ellipsis if seen_ellipsis => return None,
            IndexElem::Ellipsis => {
                seen_ellipsis = true;
                for _ in 0..whole_axes {
                    visit(ViewAxis::whole(shape[axis]))?;
                    axis += 1;
                }
            }
            IndexElem::Array(_) | IndexElem::Mask(_) | IndexElem::Nd(_) => return None,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{PySlice, RangeSlice};
    use crate::mode::Bounds;
    use crate::plan::{Plan, resolve};

    /// Every basic index `resolve_basic` takes must give the full resolver's axes.
    fn agrees(index: &[IndexElem<'_>], shape: &[usize]) {
        let strides: Vec<isize> = vec![1; shape.len()];
        let quick = resolve_basic(index, shape);
        match resolve(index, shape, &strides, Bounds::Error) {
            Ok(Plan::View(plan)) if index.len() > MAX_AXES => assert!(quick.is_none() || plan.axes.len() <= MAX_AXES),
            Ok(Plan::View(plan)) => {
                let quick = quick.unwrap_or_else(|| panic!("{index:?} on {shape:?} is basic and in bounds: it resolves inline"));
                // The full plan spells out trailing whole axes; the quick one leaves them.
                assert_eq!(&plan.axes[..quick.len()], &*quick, "{index:?} on {shape:?}");
                assert!(
                    plan.axes[quick.len()..]
                        .iter()
                        .zip(&shape[shape.len() - (plan.axes.len() - quick.len())..])
                        .all(|(axis, &len)| *axis == ViewAxis::whole(len))
                );
            }
            Ok(Plan::Indexed(_)) | Err(_) => assert!(quick.is_none(), "{index:?} on {shape:?} must take the full resolver"),
        }
    }

    #[test]
    fn agrees_with_the_full_resolver() {
        let py = |start, stop, step| IndexElem::Slice(PySlice::new(start, stop, step));
        let range = |start, end, step| IndexElem::Range(RangeSlice { start, end, step });
        let cases: Vec<(Vec<IndexElem<'_>>, Vec<usize>)> = vec![
            (vec![IndexElem::Int(1), py(Some(1), Some(3), None)], vec![4, 4]),
            (vec![IndexElem::Int(-4)], vec![4, 4]),
            (vec![IndexElem::Int(4)], vec![4, 4]),
            (vec![IndexElem::Int(-5)], vec![4, 4]),
            (
                vec![py(None, None, Some(-2)), IndexElem::Ellipsis, IndexElem::Int(0)],
                vec![3, 2, 5],
            ),
            (vec![IndexElem::Ellipsis, IndexElem::NewAxis, range(1, None, -2)], vec![3, 8]),
            (vec![IndexElem::Ellipsis, IndexElem::Ellipsis], vec![3]),
            (vec![IndexElem::Int(0), IndexElem::Int(0), IndexElem::Int(0)], vec![3, 3]),
            (vec![py(None, None, Some(0))], vec![3]),
            (vec![range(0, Some(9), 1)], vec![3]),
            (vec![IndexElem::NewAxis; 9], vec![3]),
            (vec![IndexElem::Ellipsis], vec![]),
            (vec![IndexElem::Int(0), IndexElem::Ellipsis, IndexElem::Int(-1)], vec![2, 0, 3]),
            (vec![crate::ix([0i64])], vec![3]),
        ];
        for (index, shape) in &cases {
            agrees(index, shape);
        }
    }
}
