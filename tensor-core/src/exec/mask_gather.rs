//! `x[mask]` with the mask over the leading axes of a C-ordered target:
//! each true position selects one contiguous block of the trailing axes,
//! so a run of true positions is one contiguous copy. No positions list
//! and no offset table are built (W11b: 6.0 ms through the general plan,
//! 2.0 here).
//!
//! The output is written with plain stores. Streaming stores, which skip
//! the cache, lost wherever it was measured on AMD EPYC: a fresh output
//! below glibc's mmap threshold reuses heap memory that is still cached
//! (W11b: 3.8 ms streamed, 2.0 plain), and a larger one comes from the
//! kernel just zeroed, in the cache too (W11a's 100 MB rows: 26 against
//! 14.6 ms). On an earlier Xeon, W11b streamed in 2.5 against 5.2 ms.

use std::mem::MaybeUninit;

use ndarray::{ArrayD, ArrayViewD, IxDyn};

use crate::index::IndexElem;

/// The read `target[mask]` when `index` is one mask over the leading axes
/// of a C-ordered `target` (the mask C-ordered too); `None` for any other
/// index or layout, which the general plan takes (it also reports a mask
/// of the wrong shape).
pub(crate) fn gather_masked_blocks<T: Clone + Send + Sync + 'static>(
    target: &ArrayViewD<'_, T>,
    index: &[IndexElem<'_>],
) -> Option<ArrayD<T>> {
    let [IndexElem::Mask(mask)] = index else {
        return None;
    };
    let (leading, trailing) = target.shape().split_at_checked(mask.ndim())?;
    if mask.ndim() == 0 || mask.shape() != leading {
        return None;
    }
    let (source, mask) = (target.as_slice()?, mask.as_slice()?);
    let block: usize = trailing.iter().product();
    let out = gather_blocks(source, mask, block);
    let count = out.len().checked_div(block).unwrap_or_else(|| count_true(mask));
    let shape: Vec<usize> = std::iter::once(count).chain(trailing.iter().copied()).collect();
    Some(ArrayD::from_shape_vec(IxDyn(&shape), out).expect("one block per true position"))
}

/// The blocks `source[k * block..(k + 1) * block]` for each `k` where
/// `mask[k]`, in order; on both cores when the output is large.
fn gather_blocks<T: Clone + Send + Sync + 'static>(source: &[T], mask: &[bool], block: usize) -> Vec<T> {
    let len = count_true(mask) * block;
    #[cfg(feature = "rayon")]
    if crate::exec::parallel::worth_it(len) {
        return gather_blocks_parallel(source, mask, block, len);
    }
    let mut out = crate::exec::pages::output::<T>(len);
    copy_selected(source, mask, block, &mut out.spare_capacity_mut()[..len]);
    // SAFETY: `copy_selected` wrote all `len` slots: one block per true position.
    unsafe { out.set_len(len) };
    out
}

/// [`gather_blocks`] on the pool: the mask is cut into chunks, each chunk's
/// true positions are counted, and each chunk copies into its own part of
/// the output, so the result is the same for every thread count.
#[cfg(feature = "rayon")]
fn gather_blocks_parallel<T: Clone + Send + Sync + 'static>(source: &[T], mask: &[bool], block: usize, len: usize) -> Vec<T> {
    use rayon::prelude::*;

    let chunk = mask.len().div_ceil(rayon::current_num_threads() * 8).max(1);
    let counts: Vec<usize> = mask.par_chunks(chunk).map(count_true).collect();
    let mut out = crate::exec::pages::output::<T>(len);
    let mut spare = &mut out.spare_capacity_mut()[..len];
    let parts: Vec<&mut [MaybeUninit<T>]> = counts
        .iter()
        .map(|&count| {
            let (part, rest) = std::mem::take(&mut spare).split_at_mut(count * block);
            spare = rest;
            part
        })
        .collect();
    parts
        .into_par_iter()
        .zip(mask.par_chunks(chunk).zip(source.par_chunks(chunk * block.max(1))))
        .for_each(|(part, (mask, source))| copy_selected(source, mask, block, part));
    // SAFETY: the parts cover `spare[..len]` (their lengths are the chunks'
    // counts, which sum to `len / block`), and `copy_selected` wrote each whole.
    unsafe { out.set_len(len) };
    out
}

/// Clones the block of each true position of `mask` into `out` (exactly
/// long enough), copying each run of true positions as one slice.
fn copy_selected<T: Clone>(source: &[T], mask: &[bool], block: usize, out: &mut [MaybeUninit<T>]) {
    let mut written = 0;
    let mut k = 0;
    while k < mask.len() {
        let start = k + mask[k..].iter().position(|&m| m).unwrap_or(mask.len() - k);
        let end = start + mask[start..].iter().position(|&m| !m).unwrap_or(mask.len() - start);
        let run = &source[start * block..end * block];
        for (slot, value) in out[written..written + run.len()].iter_mut().zip(run) {
            slot.write(value.clone());
        }
        written += run.len();
        k = end;
    }
    assert_eq!(written, out.len(), "one block per true position");
}

/// The number of true elements (a byte sum, which vectorizes).
fn count_true(mask: &[bool]) -> usize {
    mask.iter().map(|&m| usize::from(m)).sum()
}
