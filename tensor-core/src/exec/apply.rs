//! `.apply(f)` (JAX's `.at[].apply`): every result computed into scratch,
//! in index order, before the first write, so that when `f` panics the
//! target is unchanged. A duplicate position takes the result of its
//! previous occurrence as its input, as the unbuffered loop would. The
//! elements the results replace are dropped after the last write
//! ([`write_back`]), so that an element whose `Drop` panics still finds
//! the write whole.

use std::mem::{ManuallyDrop, needs_drop};

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
    write_back(view.iter_mut().map(Some), results);
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
    // Each position's latest occurrence writes.
    let slots = offsets.iter().enumerate().map(|(k, offset)| {
        // SAFETY: as above; each position is reached once (at its latest
        // occurrence), and no other reference into `target` is live.
        (latest[offset] == k).then(|| unsafe { &mut *origin.offset(*offset) })
    });
    write_back(slots, results);
    true
}

/// Each result into its slot (`None`: the result is not written). The
/// elements replaced are dropped after the last write, in order; after
/// one whose `Drop` panics, the rest are leaked, not dropped while the
/// panic unwinds, where a second panic would abort the process (as
/// dropping a `Vec` would). A type with nothing to drop has no `Drop` to
/// panic: its results are moved in plainly.
fn write_back<'t, T: 't>(slots: impl Iterator<Item = Option<&'t mut T>>, mut results: Vec<T>) {
    if !needs_drop::<T>() {
        for (slot, result) in slots.zip(results) {
            if let Some(slot) = slot {
                *slot = result;
            }
        }
        return;
    }
    for (slot, result) in slots.zip(&mut results) {
        if let Some(slot) = slot {
            std::mem::swap(slot, result);
        }
    }
    let mut olds = ManuallyDrop::new(results.into_iter());
    olds.by_ref().for_each(drop);
    drop(ManuallyDrop::into_inner(olds));
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, s};

    use super::apply_offsets;

    /// Every occurrence in order, a repeated position taking its previous
    /// result as its input, as the plain loop does; offsets below the
    /// origin of a reversed view reach the elements before it. (Under
    /// Miri, the elements swapped out are dropped once: its leak check.)
    #[test]
    fn offsets_are_applied_in_order_as_the_loop_applies_them() {
        let mut x: Array1<String> = ["a", "b", "c", "d"].map(String::from).into_iter().collect();
        // From the reversed view's first element, `x[3]`: x[3], x[2], x[0], x[2].
        let offsets = [0isize, -1, -3, -1];
        let mut view = x.slice_mut(s![..;-1]).into_dyn();
        // SAFETY: each offset reaches an element of the 4-element view
        // from its first element, the last of `x`.
        assert!(unsafe { apply_offsets(&mut view, &offsets, |s| s + "!") });
        assert_eq!(x, ndarray::array!["a!", "b", "c!!", "d!"].map(|s| s.to_string()));
    }
}
