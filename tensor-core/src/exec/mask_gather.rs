//! `x[mask]` with the mask over the leading axes of a C-ordered target:
//! each true position selects one contiguous block of the trailing axes,
//! so a run of true positions is one contiguous copy, with no positions
//! list and no offset table built. (`parallel::mask` splits large ones.)
//!
//! The output is written with plain stores: a fresh output below glibc's
//! mmap threshold reuses heap memory that is still cached, and a larger
//! one comes from the kernel just zeroed, in the cache too, so streaming
//! stores lose here (measured: docs/performance.md, "Where plain stores
//! won instead").

use std::mem::MaybeUninit;

use crate::exec::sys::pages;

/// The blocks `source[k * block..(k + 1) * block]` for each `k` where
/// `mask[k]`, in order; `None` when memory cannot hold them.
pub(crate) fn gather_blocks<T: Clone>(source: &[T], mask: &[bool], block: usize) -> Option<Vec<T>> {
    let len = count_true(mask) * block;
    let mut out = pages::try_output::<T>(len)?;
    copy_selected(source, mask, block, &mut out.spare_capacity_mut()[..len]);
    // SAFETY: `copy_selected` wrote all `len` slots: one block per true position.
    unsafe { out.set_len(len) };
    Some(out)
}

/// [`gather_blocks`] written over the elements of `out` (one block per
/// true position, in order), with no array of its own.
///
/// # Panics
///
/// When `out` is not one block per true position long.
pub(crate) fn assign_blocks<'o, T: Clone + 'o>(source: &[T], mask: &[bool], block: usize, out: impl ExactSizeIterator<Item = &'o mut T>) {
    assert_eq!(out.len(), count_true(mask) * block, "one block per true position");
    let mut out = out;
    for run in selected_runs(source, mask, block) {
        // The run first: it ends before taking a slot it has no value for.
        for (value, slot) in run.iter().zip(out.by_ref()) {
            slot.clone_from(value);
        }
    }
}

/// Clones the block of each true position of `mask` into `out` (exactly
/// long enough), copying each run of true positions as one slice.
///
/// # Panics
///
/// When `out` is not one block per true position long.
pub(crate) fn copy_selected<T: Clone>(source: &[T], mask: &[bool], block: usize, out: &mut [MaybeUninit<T>]) {
    let mut written = 0;
    for run in selected_runs(source, mask, block) {
        for (slot, value) in out[written..written + run.len()].iter_mut().zip(run) {
            slot.write(value.clone());
        }
        written += run.len();
    }
    assert_eq!(written, out.len(), "one block per true position");
}

/// The blocks of each run of true positions of `mask`, in order, each run
/// one slice of `source`.
fn selected_runs<'s, T>(source: &'s [T], mask: &'s [bool], block: usize) -> impl Iterator<Item = &'s [T]> + 's {
    let mut k = 0;
    std::iter::from_fn(move || {
        let start = k + mask[k..].iter().position(|&m| m)?;
        let end = start + mask[start..].iter().position(|&m| !m).unwrap_or(mask.len() - start);
        k = end;
        Some(&source[start * block..end * block])
    })
}

/// The number of true elements (a byte sum, which vectorizes).
pub(crate) fn count_true(mask: &[bool]) -> usize {
    mask.iter().map(|&m| usize::from(m)).sum()
}
