//! Writes: each selected element combined with its value, in index order.

use ndarray::ArrayViewMutD;

use crate::plan::IndexedPlan;

/// Calls `write(element, value)` for each element of a basic-indexing view
/// in C order, with the values in the same order.
pub(crate) fn write_view<T, V>(view: ArrayViewMutD<'_, T>, values: impl Iterator<Item = V>, mut write: impl FnMut(&mut T, V)) {
    for (element, value) in view.into_iter().zip(values) {
        write(element, value);
    }
}

/// Calls `write(element, value)` for each position `plan` selects in
/// `target`, in index order (so duplicates apply one after the other and the
/// last `set` wins), with the values in the same order; skipped positions
/// consume their value and write nothing.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()`, so that every offset it yields reaches an element of
/// `target`.
pub(crate) unsafe fn write_indexed<T, V>(
    target: &mut ArrayViewMutD<'_, T>,
    plan: &IndexedPlan,
    mut values: impl Iterator<Item = V>,
    mut write: impl FnMut(&mut T, V),
) {
    let origin = target.as_mut_ptr();
    plan.for_each_offset(|offset| {
        let value = values.next().expect("one value per selected position");
        if let Some(offset) = offset {
            // SAFETY: the caller guarantees the offset reaches an element of
            // `target`, which we borrow mutably; no other reference to that
            // element is live while `write` runs.
            write(unsafe { &mut *origin.offset(offset) }, value);
        }
    });
}
