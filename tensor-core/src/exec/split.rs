//! Both cores for large accumulations whose operation may not be regrouped
//! (float `add.at`, ...) and for large `set`s, by destination: the target is cut into one range
//! per thread, and each thread scans every index and applies, in index
//! order, the updates that land in its range. Each destination sees its
//! updates in index order, so the result is the serial loop's bit for bit.
//!
//! "Mine or not" is a coin toss, so a branch on it mispredicts half the
//! time and made two threads slower than one. Each block of indices is
//! first compacted without a branch (every position is written, the count
//! advances only for the thread's own), then applied.
//!
//! It pays when the random updates miss the cache: a target that fits one
//! core's cache is faster updated by one thread than scanned twice.

use std::iter;
use std::mem::MaybeUninit;
use std::ops::Range;

use rayon::prelude::*;

use crate::exec::fill;
use crate::exec::kernel::{Kernel, SetKernel};
use crate::exec::parallel;
use crate::index::IndexInt;
use crate::plan::advanced::chunk_in_bounds;
use crate::value::Broadcast;

/// Targets smaller than this stay serial: measured here, a 2 MB target broke
/// even and a 4 MB one ran 1.7x faster on two threads (2 MB of L2 a core).
const MIN_TARGET_BYTES: usize = 4 << 20;

/// Indices compacted at a time: their positions stay in L1.
const BLOCK: usize = 4096;

/// Whether `accumulate` should take an update of `indices` indices into
/// `axis` (whose ranges must also be addressable by `u32` offsets).
pub(crate) fn worth_it<T>(axis: &[T], indices: usize) -> bool {
    let part = axis.len().div_ceil(rayon::current_num_threads());
    size_of_val(axis) >= MIN_TARGET_BYTES && part <= u32::MAX as usize && parallel::worth_it(indices)
}

/// `axis[index[k]] op= values[k]` for every `k`, in index order for each
/// destination, on every thread of the pool. `values(range)` yields the
/// values of the indices `index[range]`.
///
/// With `CHECKED`, every index is checked (each block of them by one
/// thread) and the first one outside `[-len, len)` is returned: some
/// updates are done by then, so the caller restores the target. Without,
/// every index must be in bounds (checked by the planner).
pub(crate) fn accumulate<'v, const CHECKED: bool, T, I, K, V>(
    axis: &mut [T],
    index: &[I],
    values: impl Fn(Range<usize>) -> V + Sync,
    kernel: K,
) -> Result<(), I>
where
    T: Copy + Send + Sync + 'v,
    I: IndexInt,
    K: Kernel<T> + Copy + Send + Sync,
    V: Iterator<Item = &'v T>,
{
    let len = axis.len();
    let parts = rayon::current_num_threads();
    let part = len.div_ceil(parts).max(1);
    assert!(part <= u32::MAX as usize, "offsets within a range fit in u32 (`worth_it`)");
    let scan = |(p, range): (usize, &mut [T])| {
        let scan = Scan {
            range,
            base: p * part,
            len,
            part: p,
            parts,
        };
        scan.apply::<CHECKED, _, _, _>(index, &values, kernel)
    };
    let first_bad = axis
        .par_chunks_mut(part)
        .enumerate()
        .filter_map(|chunk| scan(chunk).err())
        .min_by_key(|&(k, _)| k);
    first_bad.map_or(Ok(()), |(_, i)| Err(i))
}

/// `axis[index[k]] = values[k]` on every core, split by destination (the
/// last occurrence of a position wins, as in the serial loop), for the
/// primitive numbers: their bits are copied as `u32` or `u64`, which cross
/// threads whatever bounds `T` has. `false` (nothing done) for other types,
/// small updates and values not in C order. Every index is in bounds.
pub(crate) fn set_plain<T: 'static, I: IndexInt>(axis: &mut [T], index: &[I], values: &Broadcast<'_, T>) -> bool {
    if !fill::is_plain::<T>() || !worth_it(axis, index.len()) {
        return false;
    }
    match size_of::<T>() {
        4 => set_bits::<T, u32, I>(axis, index, values),
        8 => set_bits::<T, u64, I>(axis, index, values),
        _ => false,
    }
}

/// `set_plain` with `T` read as `B`, an unsigned integer of its size.
fn set_bits<T, B: Copy + Send + Sync + 'static, I: IndexInt>(axis: &mut [T], index: &[I], values: &Broadcast<'_, T>) -> bool {
    // SAFETY (each cast): `T` is a primitive number of `B`'s size and
    // alignment (`set_plain`), so its bits are a valid `B` and back.
    let axis = unsafe { std::slice::from_raw_parts_mut(axis.as_mut_ptr().cast::<B>(), axis.len()) };
    let done = match values {
        Broadcast::Scalar(value) => {
            let bits = unsafe { *std::ptr::from_ref::<T>(value).cast::<B>() };
            accumulate::<false, _, _, _, _>(axis, index, |range| iter::repeat_n(&bits, range.len()), SetKernel)
        }
        Broadcast::Array { view, shape } => {
            let source = view.broadcast(shape.clone()).expect("checked when built");
            let Some(values) = source.to_slice() else {
                return false;
            };
            let values = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<B>(), values.len()) };
            accumulate::<false, _, _, _, _>(axis, index, |range| values[range].iter(), SetKernel)
        }
    };
    let Ok(()) = done else {
        unreachable!("an unchecked scan reports no index");
    };
    true
}

/// One thread's share: the destinations `range`, starting at `base` of an
/// axis of `len` elements, and (when checking) every `parts`th block of
/// indices from block `part`.
struct Scan<'t, T> {
    range: &'t mut [T],
    base: usize,
    len: usize,
    part: usize,
    parts: usize,
}

impl<T: Copy> Scan<'_, T> {
    /// The updates of `index` that land in the range, in index order; with
    /// `CHECKED`, stops at the first bad index of this thread's blocks and
    /// returns its position and value.
    fn apply<'v, const CHECKED: bool, I: IndexInt, K: Kernel<T>, V: Iterator<Item = &'v T>>(
        self,
        index: &[I],
        values: &impl Fn(Range<usize>) -> V,
        mut kernel: K,
    ) -> Result<(), (usize, I)>
    where
        T: 'v,
    {
        let mut offsets = [0u32; BLOCK];
        let mut picked = [MaybeUninit::<T>::uninit(); BLOCK];
        for (b, block) in index.chunks(BLOCK).enumerate() {
            let start = b * BLOCK;
            if CHECKED && b % self.parts == self.part && !chunk_in_bounds(block, self.len) {
                let k = block.iter().position(|i| !i.in_bounds(self.len)).expect("a bad index in the block");
                return Err((start + k, block[k]));
            }
            // Every position is written; `count` advances for this range's only.
            // An index out of bounds (in another thread's blocks) never lands
            // in the range: its position is negative or past the axis.
            let mut count = 0;
            for (&i, &value) in block.iter().zip(values(start..start + block.len())) {
                let offset = i.position(self.len).wrapping_sub(self.base);
                offsets[count] = offset as u32;
                picked[count] = MaybeUninit::new(value);
                count += (offset < self.range.len()) as usize;
            }
            for (&offset, value) in offsets[..count].iter().zip(&picked[..count]) {
                // SAFETY: `offset < range.len()` was the compaction's test, and
                // every slot below `count` was written in this block.
                kernel.apply(unsafe { self.range.get_unchecked_mut(offset as usize) }, unsafe {
                    value.assume_init_ref()
                });
            }
        }
        Ok(())
    }
}
