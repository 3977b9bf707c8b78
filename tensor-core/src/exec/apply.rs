//! `.apply(f)` (JAX's `.at[].apply`): every result computed into scratch,
//! in index order, before the first write, so that when `f` panics the
//! target is unchanged. A duplicate position takes the result of its
//! previous occurrence as its input, as the unbuffered loop would.

use ndarray::ArrayViewMutD;

use crate::memory;
use crate::plan::IndexedPlan;

/// `f` on every element of a view from basic indexing (each reached once);
/// `false`, with `f` never called and nothing written, when memory cannot
/// hold the scratch.
#[must_use]
pub(crate) fn apply_view<T: Clone>(mut view: ArrayViewMutD<'_, T>, mut f: impl FnMut(T) -> T) -> bool {
    let Some(mut results) = memory::vec(view.len()) else {
        return false;
    };
    results.extend(view.iter().map(|element| f(element.clone())));
    for (slot, result) in view.iter_mut().zip(results) {
        *slot = result;
    }
    true
}

/// `f` on every position of `plan` in `target`, once per occurrence, in
/// index order; `false`, with `f` never called and nothing written, when
/// memory cannot hold the scratch (one offset and one result per
/// position: a broadcast index may select far more positions than the
/// target has elements).
///
/// # Safety
///
/// `plan` was resolved from `target`'s shape and strides, so that every
/// offset it yields reaches an element of `target`.
#[must_use]
pub(crate) unsafe fn apply_indexed<T: Clone>(target: &mut ArrayViewMutD<'_, T>, plan: &IndexedPlan<'_>, f: impl FnMut(T) -> T) -> bool {
    let Some(mut offsets) = memory::vec(plan.len()) else {
        return false;
    };
    plan.for_each_offset(|offset| offsets.extend(offset));
    // SAFETY: every offset of the plan reaches an element of `target` (the
    // caller's guarantee).
    unsafe { apply_offsets(target, &offsets, f) }
}

/// `f` on the element at each of `offsets` from `target`'s first element,
/// once per occurrence, in order; `false`, with `f` never called and
/// nothing written, when memory cannot hold the scratch.
///
/// # Safety
///
/// Every offset reaches an element of `target`.
#[must_use]
pub(crate) unsafe fn apply_offsets<T: Clone>(target: &mut ArrayViewMutD<'_, T>, offsets: &[isize], mut f: impl FnMut(T) -> T) -> bool {
    let origin = target.as_mut_ptr();
    // Where the latest result for each position is in `results`.
    let (Some(mut latest), Some(mut results)) = (memory::map::<isize, usize>(offsets.len()), memory::vec::<T>(offsets.len())) else {
        return false;
    };
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
    true
}
