//! The gather path: an advanced read copies the selected elements out.

use ndarray::{ArrayD, ArrayViewD, IxDyn};

use crate::plan::IndexedPlan;

/// The elements `plan` selects from `target`, in a new array of the plan's
/// shape; skipped positions read as `fill`.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()`, so that every offset it yields reaches an element of
/// `target`.
pub(crate) unsafe fn gather<T: Clone>(target: &ArrayViewD<'_, T>, plan: &IndexedPlan, fill: Option<&T>) -> ArrayD<T> {
    let origin = target.as_ptr();
    let mut out = Vec::with_capacity(plan.len());
    plan.for_each_offset(|offset| {
        out.push(match offset {
            // SAFETY: the caller guarantees every offset the plan yields is
            // the offset of an element of `target` from its first element.
            Some(offset) => unsafe { (*origin.offset(offset)).clone() },
            None => fill.expect("skipped positions in a read come with a fill value").clone(),
        })
    });
    ArrayD::from_shape_vec(IxDyn(&plan.shape), out).expect("the plan yields one element per position of its shape")
}
