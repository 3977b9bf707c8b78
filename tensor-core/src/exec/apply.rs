//! `.apply(f)` (JAX's `.at[].apply`): every result computed into scratch,
//! in index order, before the first write, so that when `f` panics the
//! target is unchanged. A duplicate position takes the result of its
//! previous occurrence as its input, as the unbuffered loop would.

use std::collections::HashMap;

use ndarray::ArrayViewMutD;

use crate::plan::IndexedPlan;

/// `f` on every element of a view from basic indexing (each reached once).
pub(crate) fn apply_view<T: Clone>(mut view: ArrayViewMutD<'_, T>, mut f: impl FnMut(T) -> T) {
    let results: Vec<T> = view.iter().map(|element| f(element.clone())).collect();
    for (slot, result) in view.iter_mut().zip(results) {
        *slot = result;
    }
}

/// `f` on every position of `plan` in `target`, once per occurrence, in
/// index order.
///
/// # Safety
///
/// `plan` was resolved from `target`'s shape and strides, so that every
/// offset it yields reaches an element of `target`.
pub(crate) unsafe fn apply_indexed<T: Clone>(target: &mut ArrayViewMutD<'_, T>, plan: &IndexedPlan<'_>, f: impl FnMut(T) -> T) {
    let mut offsets = Vec::with_capacity(plan.len());
    plan.for_each_offset(|offset| offsets.extend(offset));
    // SAFETY: every offset of the plan reaches an element of `target` (the
    // caller's guarantee).
    unsafe { apply_offsets(target, &offsets, f) }
}

/// `f` on the element at each of `offsets` from `target`'s first element,
/// once per occurrence, in order.
///
/// # Safety
///
/// Every offset reaches an element of `target`.
pub(crate) unsafe fn apply_offsets<T: Clone>(target: &mut ArrayViewMutD<'_, T>, offsets: &[isize], mut f: impl FnMut(T) -> T) {
    let origin = target.as_mut_ptr();
    // Where the latest result for each position is in `results`.
    let mut latest: HashMap<isize, usize> = HashMap::with_capacity(offsets.len());
    let mut results: Vec<T> = Vec::with_capacity(offsets.len());
    for &offset in offsets {
        let input = match latest.insert(offset, results.len()) {
            Some(previous) => results[previous].clone(),
            // SAFETY: the offset reaches an element of `target` (the
            // caller's guarantee), which this call borrows mutably.
            None => unsafe { &*origin.offset(offset) }.clone(),
        };
        results.push(f(input));
    }
    for (k, (offset, result)) in offsets.iter().zip(results).enumerate() {
        if latest[offset] == k {
            // SAFETY: as above; no reference into `target` is live.
            unsafe { *origin.offset(*offset) = result };
        }
    }
}
