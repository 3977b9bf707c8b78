//! `x[mask]` over the leading axes of a C-ordered target, on every thread:
//! the mask is cut into chunks, each chunk's true positions are counted,
//! and each chunk copies into its own part of the output, so the result is
//! the same for every thread count.

use std::mem::MaybeUninit;

use super::{for_each_piece, map_pieces};
use crate::exec::mask_gather::{copy_selected, count_true};
use crate::exec::sys::pages;

/// [`gather_blocks`](crate::exec::mask_gather::gather_blocks) on `threads`
/// threads; `None` when memory cannot hold the blocks.
///
/// # Panics
///
/// When `source` is not `block` elements for each position of `mask`.
pub(crate) fn gather_blocks<T: Copy + Send + Sync>(source: &[T], mask: &[bool], block: usize, threads: usize) -> Option<Vec<T>> {
    // The parts below are written whole only when every chunk of the mask
    // meets its chunk of the source.
    assert_eq!(source.len(), mask.len() * block, "one block of the source per mask position");
    let chunk = mask.len().div_ceil(threads * 8).max(1);
    let counts = map_pieces(mask.chunks(chunk).collect(), &count_true);
    let len = counts.iter().sum::<usize>() * block;
    let mut out = pages::try_output::<T>(len)?;
    let mut spare = &mut out.spare_capacity_mut()[..len];
    let parts: Vec<&mut [MaybeUninit<T>]> = counts
        .iter()
        .map(|&count| {
            let (part, rest) = std::mem::take(&mut spare).split_at_mut(count * block);
            spare = rest;
            part
        })
        .collect();
    let pieces = parts.into_iter().zip(mask.chunks(chunk).zip(source.chunks(chunk * block.max(1))));
    for_each_piece(pieces.collect(), &|(part, (mask, source))| copy_selected(source, mask, block, part));
    // SAFETY: the parts cover `spare[..len]` (their lengths are the chunks'
    // counts, which sum to `len / block`); each met its chunks of the mask
    // and the source (their lengths agree, asserted above), and
    // `copy_selected` wrote it whole (it panics otherwise).
    unsafe { out.set_len(len) };
    Some(out)
}
