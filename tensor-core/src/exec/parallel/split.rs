//! Every thread for large accumulations whose operation may not be regrouped
//! (float `add.at`, ...) and for large `set`s (one index array, its rows,
//! or a pair into a matrix), by destination: the target is cut into one range
//! per thread, and each thread scans every index and applies, in index
//! order, the updates that land in its range. Each destination sees its
//! updates in index order, so the result is the serial loop's bit for bit.
//!
//! "Mine or not" is a coin toss, so a branch on it mispredicts half the
//! time, enough to make the split slower than one thread. Each block of
//! indices is first compacted without a branch (every position is written,
//! the count advances only for the thread's own), then applied (measured:
//! docs/performance.md, "Splitting by destination: float sums, sets,
//! pairs").
//!
//! It pays when the random updates miss the cache: a target that fits one
//! core's cache is faster updated by one thread than scanned twice.

use std::convert::Infallible;
use std::mem::MaybeUninit;
use std::ops::Range;

use super::map_pieces;
use crate::element::Plain;
use crate::exec::kernel::Kernel;
use crate::exec::passes::chunk_in_bounds;
use crate::exec::sys::compact::compact_in_range;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::prefetch;
use crate::index::{IndexInt, IndexSlice};
use crate::plan::AxisIndex;
use crate::value::InOrder;

/// Indices compacted at a time: their positions stay in L1.
const BLOCK: usize = 4096;

/// Where the updates of a scan land: a position in the target slice for
/// each, and, when checked, the first bad index of a block.
///
/// # Safety
///
/// [`compact`](Self::compact) takes exactly the updates that land in
/// `[base, base + len)`, each slot it counts holding an offset below
/// `len` and a value: the scan writes through those offsets unchecked.
pub(crate) unsafe trait Destinations: Sync {
    /// A bad index, as reported.
    type Bad: Send;

    /// The number of updates.
    fn count(&self) -> usize;

    /// The positions of the updates `range`, in order. A bad index may give
    /// any position outside `[0, target length)`, and on a 64-bit target
    /// never one inside. Where `usize` is narrower, a 64-bit index may
    /// wrap to one inside: only a checked scan meets bad indices, and its
    /// callers restore the target when it reports one (`with_rollback`).
    fn positions(&self, range: Range<usize>) -> impl Iterator<Item = usize>;

    /// The first bad index among the updates `range`: its place in the
    /// range, and itself.
    fn first_bad(&self, range: Range<usize>) -> Option<(usize, Self::Bad)>;

    /// The updates `range` (at most [`BLOCK`]) that land in `[base, base +
    /// len)`, in order: their offsets from `base` written to `offsets`,
    /// their values (`values`, one per update of the range) to `picked`;
    /// returns how many.
    fn compact<T: Copy>(
        &self,
        range: Range<usize>,
        values: &[T],
        (base, len): (usize, usize),
        slots: (&mut [u32; BLOCK], &mut [MaybeUninit<T>; BLOCK]),
    ) -> usize {
        compact_each(self.positions(range), values, (base, len), slots, 0)
    }
}

/// [`Destinations::compact`] one update at a time, into the slots from
/// `taken` on; returns the slots taken then. Every slot is written and
/// `taken` advances for the range's own only: "mine or not" as a branch
/// would mispredict half the time.
fn compact_each<T: Copy>(
    positions: impl Iterator<Item = usize>,
    values: &[T],
    (base, len): (usize, usize),
    (offsets, picked): (&mut [u32; BLOCK], &mut [MaybeUninit<T>; BLOCK]),
    mut taken: usize,
) -> usize {
    for (position, &value) in positions.zip(values) {
        let offset = position.wrapping_sub(base);
        offsets[taken] = offset as u32;
        picked[taken] = MaybeUninit::new(value);
        taken += (offset < len) as usize;
    }
    taken
}

/// One index array along a one-dimensional target of `len` elements; its
/// bounds checks use `isa`.
pub(crate) struct Along<'a, I> {
    pub(crate) index: &'a [I],
    pub(crate) len: usize,
    pub(crate) isa: Isa,
}

// SAFETY: the default `compact`, which counts a slot only when its offset
// is below `len`; the AVX-512 one, `compact_in_range`, keeps the same
// count (`exec/sys/compact.rs`, tested against a plain loop there).
unsafe impl<I: IndexInt> Destinations for Along<'_, I> {
    type Bad = I;

    fn count(&self) -> usize {
        self.index.len()
    }

    fn positions(&self, range: Range<usize>) -> impl Iterator<Item = usize> {
        // An index out of bounds is negative or past the axis here (on a
        // 64-bit target: `positions`).
        self.index[range].iter().map(|i| i.position(self.len))
    }

    fn first_bad(&self, range: Range<usize>) -> Option<(usize, I)> {
        let block = &self.index[range];
        if chunk_in_bounds(block, self.len, self.isa) {
            return None;
        }
        block.iter().enumerate().find(|(_, i)| !i.in_bounds(self.len)).map(|(k, &i)| (k, i))
    }

    /// Sixteen updates at a time where the processor has AVX-512F, the
    /// indices are `i64` and the values plain 32-bit numbers (a float
    /// `add.at` by NumPy's default indices); one at a time otherwise, and
    /// for the last few.
    fn compact<T: Copy>(
        &self,
        range: Range<usize>,
        values: &[T],
        (base, len): (usize, usize),
        (offsets, picked): (&mut [u32; BLOCK], &mut [MaybeUninit<T>; BLOCK]),
    ) -> usize {
        let (mut done, mut taken) = (0, 0);
        if let (IndexSlice::I64(index), Some(plain)) = (I::wrap_slice(&self.index[range.clone()]), Plain::<T>::of())
            && let (Some(values), Some(picked)) = (plain.bits::<u32>(values), plain.slots_bits_mut::<u32>(picked))
            && let Some(packed) = compact_in_range(index, values, (self.len, base, len), offsets, picked, self.isa)
        {
            (done, taken) = packed;
        }
        let rest = range.start + done..range.end;
        compact_each(self.positions(rest), &values[done..], (base, len), (offsets, picked), taken)
    }
}

/// A pair of index arrays (`x[i, j]`) into a target in standard layout:
/// position `base + first.offset(i) + second.offset(j)`. Every index is in
/// bounds and both strides are positive (checked by the caller).
pub(crate) struct Pairs<'a, 'i, I> {
    pub(crate) first: (&'a [I], &'a AxisIndex<'i>),
    pub(crate) second: (&'a [I], &'a AxisIndex<'i>),
    pub(crate) base: isize,
}

// SAFETY: the default `compact`, which counts a slot only when its offset
// is below `len`.
unsafe impl<I: IndexInt> Destinations for Pairs<'_, '_, I> {
    type Bad = Infallible;

    fn count(&self) -> usize {
        self.first.0.len()
    }

    fn positions(&self, range: Range<usize>) -> impl Iterator<Item = usize> {
        let (first, second) = (self.first.1, self.second.1);
        let pairs = self.first.0[range.clone()].iter().zip(&self.second.0[range]);
        pairs.map(move |(&i, &j)| (self.base + first.offset(i) + second.offset(j)) as usize)
    }

    fn first_bad(&self, _: Range<usize>) -> Option<(usize, Infallible)> {
        None
    }
}

/// `target[position(k)] op= values[k]` for every update `k`, in index
/// order for each destination, on `threads` threads (each the owner of a
/// range of destinations), prefetching destinations when `far` (the target
/// is beyond the cache).
///
/// With `CHECKED`, every index is checked (each block of them by one
/// thread) and the first bad one is returned: some updates are done by
/// then, so the caller restores the target. Without, an index out of
/// bounds lands in no thread's range, and its update is skipped.
///
/// # Panics
///
/// When a thread's range is longer than `u32` offsets reach (the chooser
/// splits only targets whose ranges fit).
pub(crate) fn accumulate<const CHECKED: bool, T, D, K>(
    target: &mut [T],
    updates: &D,
    values: InOrder<'_, T>,
    kernel: K,
    (threads, far): (usize, bool),
) -> Result<(), D::Bad>
where
    T: Copy + Send + Sync,
    D: Destinations,
    K: Kernel<T> + Copy + Send + Sync,
{
    // An empty target has no range, so no scan would check a block: every
    // index is out of bounds there, the first one first.
    if CHECKED && target.is_empty() && updates.count() > 0 {
        return Err(updates.first_bad(0..1).expect("no index is in bounds of no element").1);
    }
    scan_all::<CHECKED, _, _, _>(target, updates, &Blocks::new(values), kernel, (threads, far))
}

/// `accumulate`, the values read a block at a time.
fn scan_all<const CHECKED: bool, T, D, K>(
    target: &mut [T],
    updates: &D,
    values: &Blocks<'_, T>,
    kernel: K,
    (parts, far): (usize, bool),
) -> Result<(), D::Bad>
where
    T: Copy + Send + Sync,
    D: Destinations,
    K: Kernel<T> + Copy + Send + Sync,
{
    let part = target.len().div_ceil(parts.max(1)).max(1);
    assert!(part <= u32::MAX as usize, "offsets within a range fit in u32");
    // Fewer ranges than threads when the target is short: each range
    // checks every `ranges`th block, so that every block is checked.
    let ranges = target.len().div_ceil(part).max(1);
    let scan = |p: usize, range: &mut [T]| {
        let scan = Scan {
            range,
            base: p * part,
            part: p,
            parts: ranges,
            far,
        };
        scan.apply::<CHECKED, _, _>(updates, values, kernel).err()
    };
    match in_ranges(target, part, &scan) {
        None => Ok(()),
        Some(k) => Err(updates.first_bad(k..k + 1).expect("the scan stopped at a bad index").1),
    }
}

/// `scan(p, range)` for each range `p` of `part` elements of `target`, on
/// every thread; the smallest place of a bad index they return. The scans
/// are compiled per operation, index and value type; these threads'
/// plumbing once per element type.
fn in_ranges<T: Send>(target: &mut [T], part: usize, scan: &(dyn Fn(usize, &mut [T]) -> Option<usize> + Sync)) -> Option<usize> {
    let ranges = target.chunks_mut(part).enumerate().collect();
    map_pieces(ranges, &|(p, range)| scan(p, range)).into_iter().flatten().min()
}

/// Values read a block of updates at a time, as one type whichever
/// [`InOrder`] they come from: a scalar is a block of [`BLOCK`] copies of
/// itself (on the heap: this path runs on large targets only). The scans
/// that read them are compiled once for both kinds of value, and read a
/// slice either way.
enum Blocks<'v, T> {
    /// A scalar, [`BLOCK`] times.
    Copies(Vec<T>),
    /// One value per update.
    Slice(&'v [T]),
}

impl<'v, T: Copy> Blocks<'v, T> {
    /// The blocks of `values`.
    fn new(values: InOrder<'v, T>) -> Self {
        match values {
            InOrder::Scalar(value) => Blocks::Copies(vec![*value; BLOCK]),
            InOrder::Slice(values) => Blocks::Slice(values),
        }
    }

    /// The values of the updates `range`.
    ///
    /// # Panics
    ///
    /// When `range` holds more than [`BLOCK`] updates, or a slice has no
    /// value for some of them.
    #[inline]
    fn block(&self, range: Range<usize>) -> &[T] {
        match self {
            Blocks::Copies(copies) => &copies[..range.len()],
            Blocks::Slice(values) => &values[range],
        }
    }
}

/// One thread's share: the destinations `range`, starting at `base` of the
/// target, and (when checking) every `parts`th block of updates from
/// block `part`.
struct Scan<'t, T> {
    range: &'t mut [T],
    base: usize,
    part: usize,
    parts: usize,
    /// Whether to prefetch destinations (the whole target is beyond the cache).
    far: bool,
}

impl<T: Copy> Scan<'_, T> {
    /// The updates that land in the range, in index order; with `CHECKED`,
    /// stops at the first bad index of this thread's blocks and returns its
    /// place among all updates.
    fn apply<const CHECKED: bool, D: Destinations, K: Kernel<T>>(
        self,
        updates: &D,
        values: &Blocks<'_, T>,
        mut kernel: K,
    ) -> Result<(), usize> {
        let mut offsets = [0u32; BLOCK];
        let mut picked = [MaybeUninit::<T>::uninit(); BLOCK];
        let count = updates.count();
        for (b, start) in (0..count).step_by(BLOCK).enumerate() {
            let block = start..(start + BLOCK).min(count);
            if CHECKED
                && b % self.parts == self.part
                && let Some((k, _)) = updates.first_bad(block.clone())
            {
                return Err(start + k);
            }
            let taken = updates.compact(
                block.clone(),
                values.block(block),
                (self.base, self.range.len()),
                (&mut offsets, &mut picked),
            );
            let offsets = &offsets[..taken];
            for (k, (&offset, value)) in offsets.iter().zip(&picked[..taken]).enumerate() {
                if self.far
                    && let Some(&ahead) = offsets.get(k + prefetch::UPDATES_AHEAD)
                {
                    prefetch::element(self.range.as_ptr().wrapping_add(ahead as usize));
                }
                // SAFETY: `offset < range.len()` was the compaction's test.
                let target = unsafe { self.range.get_unchecked_mut(offset as usize) };
                // SAFETY: every slot below `taken` was written in this block.
                kernel.apply(target, unsafe { value.assume_init_ref() });
            }
        }
        Ok(())
    }
}

/// `x[rows] = values` on `threads` threads, split by destination: `target`
/// holds the `len` rows of `row` elements of the indexed axis one after
/// another, and is cut into one block of rows per thread; each thread scans
/// every index and copies, in index order, the value rows (or the scalar)
/// of the indices that land in its block, so the last one wins, as on one
/// thread. It asks for its upcoming destination rows as the serial scatter
/// does.
///
/// # Panics
///
/// When an index is out of bounds (the planner has checked them), or
/// `values` is a slice without a row for each index.
pub(crate) fn set_rows<T: Copy + Send + Sync, I: IndexInt>(
    target: &mut [T],
    index: &[I],
    row: usize,
    values: InOrder<'_, T>,
    threads: usize,
) {
    let row = row.max(1);
    let len = target.len() / row;
    let part = len.div_ceil(threads.max(1)).max(1);
    let ahead = prefetch::rows_ahead(row * size_of::<T>());
    let blocks: Vec<(usize, &mut [T])> = target.chunks_mut(part * row).enumerate().collect();
    super::for_each_piece(blocks, &|(b, block): (usize, &mut [T])| {
        let (first, rows) = (b * part, block.len() / row);
        // A position outside this block wraps past `rows`.
        let place = |i: I| i.position(len).wrapping_sub(first);
        for (k, &i) in index.iter().enumerate() {
            if let Some(next) = index.get(k + ahead).map(|&next| place(next))
                && next < rows
            {
                prefetch::row(block.as_ptr().wrapping_add(next * row), row);
            }
            let at = place(i);
            if at >= rows {
                continue;
            }
            let destination = &mut block[at * row..(at + 1) * row];
            match values {
                InOrder::Slice(values) => destination.copy_from_slice(&values[k * row..(k + 1) * row]),
                InOrder::Scalar(&value) => destination.fill(value),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::kernel::{AddOp, OpKernel, SetKernel};

    /// Rows set by destination on 1 to 4 threads equal the serial loop's,
    /// with repeated and negative indices (the last value wins) and more
    /// threads than a short target has rows.
    #[test]
    fn rows_set_by_destination_equal_a_plain_loop() {
        let (row, len) = (3, 37);
        let index: Vec<i64> = (0..500i64).map(|k| (k * 7919 % 73) - 36).collect();
        let values: Vec<u32> = (0..index.len() as u32 * row as u32).collect();
        for in_order in [InOrder::Slice(&values), InOrder::Scalar(&9)] {
            let mut expected = vec![1u32; len * row];
            for (k, &i) in index.iter().enumerate() {
                let at = if i < 0 { i + len as i64 } else { i } as usize;
                let destination = &mut expected[at * row..(at + 1) * row];
                match in_order {
                    InOrder::Slice(values) => destination.copy_from_slice(&values[k * row..(k + 1) * row]),
                    InOrder::Scalar(&value) => destination.fill(value),
                }
            }
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                for parts in [threads, 64] {
                    let mut target = vec![1u32; len * row];
                    pool.install(|| set_rows(&mut target, &index, row, in_order, parts));
                    assert_eq!(target, expected, "{threads} threads, {parts} parts");
                }
            }
        }
    }

    #[test]
    fn prefetching_scans_equal_a_plain_loop() {
        // Two ranges of a 1000-element target, each scanning all updates
        // (with duplicates and negative indices, more than the prefetch
        // distance land in each range).
        let len = 1000;
        let index: Vec<i64> = (0..5000i64).map(|k| (k * 7919 % 1999) - 999).collect();
        let values: Vec<f32> = (0..index.len()).map(|k| k as f32 * 0.5 - 3.0).collect();
        let position = |i: i64| if i < 0 { (i + len as i64) as usize } else { i as usize };
        let updates = Along {
            index: &index,
            len,
            isa: Isa::detect(),
        };
        // A slice of values, and a scalar (read as blocks of its copies).
        for in_order in [InOrder::Slice(&values), InOrder::Scalar(&1.5)] {
            let (mut set, mut sum) = (vec![0.25f32; len], vec![0.25f32; len]);
            for (k, &i) in index.iter().enumerate() {
                let value = match in_order {
                    InOrder::Slice(values) => values[k],
                    InOrder::Scalar(&value) => value,
                };
                set[position(i)] = value;
                sum[position(i)] += value;
            }
            let values = Blocks::new(in_order);
            for far in [false, true] {
                let (mut by_set, mut by_sum) = (vec![0.25f32; len], vec![0.25f32; len]);
                for (part, (set_range, sum_range)) in by_set.chunks_mut(500).zip(by_sum.chunks_mut(500)).enumerate() {
                    let scan = |range| Scan {
                        range,
                        base: part * 500,
                        part,
                        parts: 2,
                        far,
                    };
                    assert!(scan(set_range).apply::<false, _, _>(&updates, &values, SetKernel::new()).is_ok());
                    assert!(
                        scan(sum_range)
                            .apply::<false, _, _>(&updates, &values, OpKernel::<AddOp>::new())
                            .is_ok()
                    );
                }
                assert_eq!(by_set, set, "set, far: {far}");
                assert_eq!(by_sum, sum, "add, far: {far}");
            }
        }
    }

    /// With more threads than the target has ranges, every block of
    /// indices is still checked (by the range its number falls to).
    #[test]
    fn every_block_is_checked_when_threads_outnumber_ranges() {
        let len = 10;
        for bad_block in 0..8 {
            let mut index: Vec<i64> = (0..8 * BLOCK as i64).map(|k| k % len as i64).collect();
            index[bad_block * BLOCK + 7] = len as i64 + 3;
            let updates = Along {
                index: &index,
                len,
                isa: Isa::detect(),
            };
            let mut target = vec![0u32; len];
            let result = accumulate::<true, _, _, _>(&mut target, &updates, InOrder::Scalar(&1), OpKernel::<AddOp>::new(), (8, false));
            assert_eq!(result, Err(len as i64 + 3), "bad index in block {bad_block}");
        }
    }

    /// An empty target has no range to scan, yet its first index (which no
    /// element holds) is reported; with no index, there is no error.
    #[test]
    fn an_empty_target_reports_its_first_index() {
        let index = [0i64, -1, 5];
        let updates = |index| Along {
            index,
            len: 0,
            isa: Isa::detect(),
        };
        let add =
            |index| accumulate::<true, u32, _, _>(&mut [], &updates(index), InOrder::Scalar(&1), OpKernel::<AddOp>::new(), (2, false));
        assert_eq!(add(&index[..]), Err(0));
        assert_eq!(add(&index[1..]), Err(-1));
        assert_eq!(add(&[]), Ok(()));
    }
}
