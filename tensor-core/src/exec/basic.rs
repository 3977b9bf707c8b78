//! The basic path: a [`ViewPlan`] becomes an ndarray view of the target.

use ndarray::{ArrayViewD, ArrayViewMutD, SliceInfo, SliceInfoElem};

use crate::plan::{ViewAxis, ViewPlan};

/// The plan as ndarray slicing, which walks negative steps from the end of
/// its range: `first, first + step, ...` becomes the range ending at `first`.
fn slice_info(plan: &ViewPlan) -> SliceInfo<Vec<SliceInfoElem>, ndarray::IxDyn, ndarray::IxDyn> {
    let elems: Vec<SliceInfoElem> = plan
        .axes
        .iter()
        .map(|axis| match *axis {
            ViewAxis::Select(i) => SliceInfoElem::Index(i as isize),
            ViewAxis::NewAxis => SliceInfoElem::NewAxis,
            ViewAxis::Slice { len: 0, .. } => SliceInfoElem::Slice {
                start: 0,
                end: Some(0),
                step: 1,
            },
            ViewAxis::Slice { first, len, step } => {
                let last = first as isize + (len as isize - 1) * step;
                let (low, high) = if step > 0 { (first as isize, last) } else { (last, first as isize) };
                SliceInfoElem::Slice {
                    start: low,
                    end: Some(high + 1),
                    step,
                }
            }
        })
        .collect();
    SliceInfo::try_from(elems).expect("a resolved plan consumes every axis once")
}

/// The view a plan selects.
pub(crate) fn view<'a, T>(target: ArrayViewD<'a, T>, plan: &ViewPlan) -> ArrayViewD<'a, T> {
    target.slice_move(slice_info(plan))
}

/// The mutable view a plan selects.
pub(crate) fn view_mut<'a, T>(target: ArrayViewMutD<'a, T>, plan: &ViewPlan) -> ArrayViewMutD<'a, T> {
    target.slice_move(slice_info(plan))
}
