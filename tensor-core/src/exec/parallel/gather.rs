//! Large gathers on every thread. A gather's output splits into
//! independent blocks, one per table entry, so threads fill disjoint parts
//! of it and the result is the same for every thread count. The elements
//! are plain numbers' bits (the chooser reads them so), which cross
//! threads whatever the element type.

use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::for_each_piece;
use crate::element::Bits;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::pages::PAGE;
use crate::exec::sys::prefetch;
use crate::exec::sys::stream::{self, Fence};
use crate::exec::{gather, passes};
use crate::index::{IndexInt, with_index_slice, with_index_slices};
use crate::plan::{AlongRows, Dim, Entries, IndexedPlan, PIECE, RowOutOfBounds, SKIP, with_offsets};

/// A raw pointer that may cross threads: every thread reads elements of the
/// target only (shared access), so sharing it is sound.
struct Shared<T>(*const T);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shared<T> {}

impl<T> Shared<T> {
    /// The address `offset` elements on, for a prefetch hint or a read (a
    /// method, so that closures capture the whole `Shared`, not its raw
    /// pointer).
    fn wrapping_offset(self, offset: isize) -> *const T {
        self.0.wrapping_offset(offset)
    }

    /// The pointer itself (a method, as above).
    fn get(self) -> *const T {
        self.0
    }
}

// SAFETY: the pointer is only used for shared reads of `T`, which `T: Sync`
// makes safe from any thread.
unsafe impl<T: Sync> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Shared<T> {}

/// One chunk of an `along` gather: the elements at each row's offsets
/// from `origin` plus `base`, written into `slots` from the front.
struct AlongChunk<'o, T> {
    origin: Shared<T>,
    base: isize,
    slots: &'o mut [MaybeUninit<T>],
    /// The instructions it tests a block of picks with.
    isa: Isa,
}

impl<'o, T> AlongChunk<'o, T> {
    /// # Safety
    ///
    /// Every offset the rows handed to [`row`](AlongRows::row) will hold,
    /// plus `base`, reaches an element from `origin` that lives while the
    /// gather runs.
    unsafe fn new(origin: Shared<T>, base: isize, slots: &'o mut [MaybeUninit<T>], isa: Isa) -> Self {
        AlongChunk { origin, base, slots, isa }
    }
}

// SAFETY: the block tests of `passes`, each tested against a plain
// comparison there (`chunk_in_range`, `chunk_in_bounds`).
unsafe impl<T: Copy> AlongRows for AlongChunk<'_, T> {
    #[inline]
    fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>) {
        let (row, rest) = std::mem::take(&mut self.slots).split_at_mut(offsets.len());
        for (slot, offset) in row.iter_mut().zip(offsets) {
            // SAFETY: the contract of `new`.
            slot.write(unsafe { *self.origin.wrapping_offset(self.base + offset) });
        }
        self.slots = rest;
    }

    fn in_range<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        passes::chunk_in_range(picks, len, self.isa)
    }

    fn in_bounds<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        passes::chunk_in_bounds(picks, len, self.isa)
    }
}

/// Why a parallel gather did not write its whole output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unwritten {
    /// The plan's form is not split by blocks, it has no elements, or
    /// memory cannot hold a mask's offsets: nothing written, for the
    /// serial gather to take.
    Declined,
    /// A row of an `along` index, checked as walked, holds a pick out of
    /// bounds: some rows written, the rest not.
    OutOfBounds,
}

/// How a gather stores the rows of one index array, each a stride-1 run of
/// the target (other plans store plainly whatever this says).
#[derive(Clone, Copy)]
pub(crate) enum RowStores<'m> {
    /// Plain stores, on every thread.
    Plain,
    /// Streamed past the cache with these instructions, on every thread.
    Streamed(Isa),
    /// On this thread, in the turns `time` takes: it is called with the
    /// number of rows and `store(places, streamed)`, which stores the rows
    /// at `places` (a range of the index), streamed with these
    /// instructions when `streamed`; it must store every place once, in
    /// order (the gather panics otherwise, before it reports the output
    /// written).
    Timed(Isa, TimeTurns<'m>),
}

/// How [`RowStores::Timed`] times its turns: with the number of rows and a
/// function that stores the rows at some places (`true`: streamed).
pub(crate) type TimeTurns<'m> = &'m dyn Fn(usize, &mut dyn FnMut(Range<usize>, bool));

/// The gather of a plan whose table is its first dim, on `threads`
/// threads, into `out` (empty, with room for the plan's elements), an
/// `along` index checked as walked with `isa`'s instructions; or `out`
/// back, with why not.
///
/// # Safety
///
/// As [`gather_into`] where it checks: an `along` index may have been
/// planned with its bounds deferred.
///
/// # Panics
///
/// When `out` is not empty or has no room for the plan's elements.
pub(crate) unsafe fn gather<T: Bits>(
    origin: *const T,
    plan: &IndexedPlan<'_>,
    fill: Option<T>,
    (threads, rows): (usize, RowStores<'_>),
    isa: Isa,
    mut out: Vec<T>,
) -> Result<Vec<T>, (Unwritten, Vec<T>)> {
    let len = plan.len();
    assert!(out.is_empty() && out.capacity() >= len, "an empty output with room for the plan");
    // SAFETY: the caller's guarantee; `out` has room for the plan's `len`
    // elements.
    let written = unsafe {
        gather_into(
            origin,
            plan,
            fill,
            (threads, rows),
            (isa, true),
            &mut out.spare_capacity_mut()[..len],
        )
    };
    if let Err(unwritten) = written {
        return Err((unwritten, out));
    }
    // SAFETY: `gather_into` wrote every slot of `out[..len]` (its contract
    // when it returns `Ok`).
    unsafe { out.set_len(len) };
    Ok(out)
}

/// The gather of a plan whose table is its first dim into `out`, on
/// `threads` threads, the rows of one index array stored as `rows` says,
/// an `along` index's picks tested with `isa`'s instructions and checked
/// in bounds as walked where it `checks`: `Ok` when every slot of `out`
/// was written (with an element, never with uninitialized memory, so `out`
/// may be a cast initialized buffer), or why not.
///
/// # Safety
///
/// `origin` points at the first element of the target the plan was
/// resolved from, and every offset the plan yields reaches an element of it
/// (the plan's table has one entry for each block of its region, as every
/// resolved plan has), an `along` index aside where it `checks`, which may
/// have been planned with its bounds deferred.
pub(crate) unsafe fn gather_into<T: Bits>(
    origin: *const T,
    plan: &IndexedPlan<'_>,
    fill: Option<T>,
    (threads, rows): (usize, RowStores<'_>),
    (isa, checks): (Isa, bool),
    out: &mut [MaybeUninit<T>],
) -> Result<(), Unwritten> {
    let len = plan.len();
    assert_eq!(out.len(), len, "the output has one slot per position of the plan");
    if len == 0 {
        return Err(Unwritten::Declined);
    }
    let Some(block) = plan.leading_table_block() else {
        // SAFETY: the caller's guarantee; a plan whose table is not first
        // holds no `along` index.
        return unsafe { gather_by_first_dim(origin, plan, fill, threads, out) };
    };
    let rest = &plan.dims[1..];
    let origin = Shared(origin);
    let copy_block = &|base: isize, block_out: &mut [MaybeUninit<T>]| {
        // SAFETY: `base` is the offset of a table entry (plus the plan's
        // base); the block under it is reached through the strided dims,
        // so every position is an element of the target (the caller's
        // guarantee).
        unsafe { copy_strided(origin, base, rest, block_out) }
    };
    // The blocks under table entries (`SKIP` filled), into their part of
    // the output; an element per entry (`x[rows[:, None], cols]`) in one
    // load and one store, with no block to walk.
    let copy_offsets = &|offsets: &[isize], out: &mut [MaybeUninit<T>]| {
        let fill = || fill.expect("skipped positions in a read come with a fill value");
        if rest.is_empty() {
            for (slot, &offset) in out.iter_mut().zip(offsets) {
                slot.write(match offset {
                    SKIP => fill(),
                    // SAFETY: a table entry plus the plan's base is an
                    // element of the target (the caller's guarantee).
                    offset => unsafe { *origin.wrapping_offset(plan.base + offset) },
                });
            }
            return;
        }
        for (block_out, &offset) in out.chunks_mut(block).zip(offsets) {
            match offset {
                SKIP => block_out.iter_mut().for_each(|slot| {
                    slot.write(fill());
                }),
                offset => copy_block(plan.base + offset, block_out),
            }
        }
    };
    // Chunks of whole blocks, a few per thread.
    let chunk = len.div_ceil(threads * 4).next_multiple_of(block);
    match &plan.table.entries {
        // An element per index (no dims after the table): one load and one
        // store each, with no block to walk or ask for ahead.
        Entries::Index(axis) if rest.is_empty() => with_index_slice!(&axis.index, index => {
            assert_eq!(index.len(), len, "one index per element");
            let base = plan.base;
            with_offsets!(axis => offset; for_each_piece(out.chunks_mut(chunk).zip(index.chunks(chunk)).collect(), &|(out, index)| {
                for (slot, &i) in out.iter_mut().zip(index) {
                    // SAFETY: every index was checked in bounds of its axis,
                    // so its offset plus the plan's base is an element of
                    // the target (the caller's guarantee).
                    slot.write(unsafe { *origin.wrapping_offset(base + offset(i)) });
                }
            }))
        }),
        Entries::Pair(first, second) if rest.is_empty() => with_index_slices!(&first.index, &second.index, (a, b) => {
            assert!(a.len() == len && b.len() == len, "one pair per element");
            let base = plan.base;
            with_offsets!(first => first, second => second; for_each_piece(out.chunks_mut(chunk).zip(a.chunks(chunk).zip(b.chunks(chunk))).collect(), &|(out, (a, b))| {
                for (slot, (&i, &j)) in out.iter_mut().zip(a.iter().zip(b)) {
                    // SAFETY: both indices of each pair were checked in
                    // bounds of their axes (the caller's guarantee).
                    slot.write(unsafe { *origin.wrapping_offset(base + first(i) + second(j)) });
                }
            }))
        }),
        Entries::Index(axis) => with_index_slice!(&axis.index, index => {
            assert_eq!(index.len() * block, len, "one index per block");
            let base = |i| plan.base + axis.offset(i);
            // Contiguous rows, streamed (or timed) when asked.
            let rows = match rest {
                [Dim::Strided { stride: 1, .. }] => rows,
                _ => RowStores::Plain,
            };
            let copy = |index: &[_], out: &mut [MaybeUninit<T>], streamed| {
                // SAFETY: every index (a part of the plan's) was checked in
                // bounds of its axis, and the block under it is reached
                // through the strided dims, stride-1 rows where they stream
                // (matched above), so every position is an element of the
                // target (the caller's guarantee).
                unsafe { copy_rows(origin, (&base, block), index, copy_block, streamed, out) }
            };
            match rows {
                RowStores::Timed(isa, time) => {
                    // Each page of the output faulted in before the turns,
                    // so that no turn pays for another's: the first store
                    // to a page has the system zero it (2 MB at once for a
                    // huge page), longer than a turn's own stores.
                    for page in out.chunks_mut((PAGE / std::mem::size_of::<T>()).max(1)) {
                        page[0] = MaybeUninit::zeroed();
                    }
                    let mut next = 0;
                    time(index.len(), &mut |places: Range<usize>, streamed| {
                        assert_eq!(places.start, next, "the turns store every row once, in order");
                        next = places.end;
                        copy(&index[places.clone()], &mut out[places.start * block..places.end * block], streamed.then_some(isa));
                    });
                    assert_eq!(next, index.len(), "the turns store every row once, in order");
                }
                RowStores::Plain => for_each_piece(out.chunks_mut(chunk).zip(index.chunks(chunk / block)).collect(), &|(out, index)| copy(index, out, None)),
                RowStores::Streamed(isa) => {
                    for_each_piece(out.chunks_mut(chunk).zip(index.chunks(chunk / block)).collect(), &|(out, index)| copy(index, out, Some(isa)))
                }
            }
        }),
        Entries::Pair(first, second) => with_index_slices!(&first.index, &second.index, (a, b) => {
            assert!(a.len() * block == len && b.len() == a.len(), "one pair per block");
            for_each_piece(out.chunks_mut(chunk).zip(a.chunks(chunk / block).zip(b.chunks(chunk / block))).collect(), &|(out, (a, b))| {
                for (block_out, (&i, &j)) in out.chunks_mut(block).zip(a.iter().zip(b)) {
                    copy_block(plan.base + first.offset(i) + second.offset(j), block_out);
                }
            })
        }),
        Entries::Along(along) => {
            // Chunks of whole positions of the region's first axis, each
            // walking its own rows: one element per offset, in one loop.
            assert_eq!(block, 1, "an along plan is its table alone");
            let region = &plan.table.shape;
            let per_first = region[1..].iter().product::<usize>();
            let chunk = len.div_ceil(threads * 4).next_multiple_of(per_first);
            let out_of_bounds = AtomicBool::new(false);
            for_each_piece(out.chunks_mut(chunk).enumerate().collect(), &|(c, out)| {
                let first = c * chunk / per_first;
                let positions = first..first + out.len() / per_first;
                // SAFETY: every index of a row handed to the chunk is in
                // bounds of its axis (found in `[0, len)` by the chunk's own
                // exact `in_range`, checked when planned, or by
                // `walk_checking` before it hands the row), so each offset
                // plus the plan's base is an element of the target (the
                // caller's guarantee).
                let mut rows = unsafe { AlongChunk::new(origin, plan.base, out, isa) };
                let walked = if checks {
                    along.walk_checking(region, positions, &mut rows)
                } else {
                    along.walk(region, positions, &mut rows);
                    Ok(())
                };
                match walked {
                    Ok(()) => assert!(rows.slots.is_empty(), "the chunk's rows fill it"),
                    // (The other chunks finish: an error is the rare case.)
                    Err(RowOutOfBounds) => out_of_bounds.store(true, Ordering::Relaxed),
                }
            });
            if out_of_bounds.into_inner() {
                return Err(Unwritten::OutOfBounds);
            }
        }
        Entries::Offsets(_) | Entries::Mask(_) => {
            // A mask's offsets, computed whole so that the chunks split them;
            // memory that cannot hold them leaves the gather to one thread,
            // which walks them in pieces.
            let Ok(offsets) = plan.table.offsets() else {
                return Err(Unwritten::Declined);
            };
            assert_eq!(offsets.len() * block, len, "one offset per block");
            let pieces = out.chunks_mut(chunk).zip(offsets.chunks(chunk / block)).collect();
            for_each_piece(pieces, &|(out, offsets)| copy_offsets(offsets, out));
        }
        Entries::Broadcast(broadcast) => {
            // Each chunk computes the offsets of its own entries.
            let table = &plan.table.shape;
            for_each_piece(out.chunks_mut(chunk).enumerate().collect(), &|(c, mut out)| {
                let first = c * (chunk / block);
                broadcast.for_each_piece(table, first..first + out.len() / block, PIECE, &mut |offsets| {
                    let (now, rest) = std::mem::take(&mut out).split_at_mut(offsets.len() * block);
                    copy_offsets(offsets, now);
                    out = rest;
                });
            });
        }
    }
    // The chunks cover all of `out` (one entry per block, asserted above),
    // each entry writing its whole block.
    Ok(())
}

/// The gather of a plan whose first dim is strided, the table after it
/// (`x[:, idx]`), into `out` (one slot per position, not empty): chunks
/// of the first dim's positions, each a run of the output, walked row by
/// row as on one thread; declined where that dim has fewer positions than
/// there are threads.
///
/// # Safety
///
/// As [`gather_into`]: every offset the plan yields reaches an element of
/// the target behind `origin`.
unsafe fn gather_by_first_dim<T: Bits>(
    origin: *const T,
    plan: &IndexedPlan<'_>,
    fill: Option<T>,
    threads: usize,
    out: &mut [MaybeUninit<T>],
) -> Result<(), Unwritten> {
    let Some(&Dim::Strided { len: first, .. }) = plan.dims.first() else {
        return Err(Unwritten::Declined);
    };
    if first < threads.max(2) {
        return Err(Unwritten::Declined);
    }
    let per_position = out.len() / first;
    let chunk = first.div_ceil(threads * 4);
    let origin = Shared(origin);
    for_each_piece(out.chunks_mut(chunk * per_position).enumerate().collect(), &|(c, out)| {
        let start = c * chunk;
        // SAFETY: the caller's guarantee.
        unsafe { gather::gather_part_of_first(origin.get(), plan, start..start + out.len() / per_position, fill.as_ref(), out) }
    });
    Ok(())
}

/// Copies the `block` elements under each of `index` (from `base(i)`, by
/// `copy_block`) into its own part of `out`, in order, asking
/// for each row a few rows ahead; streamed past the cache with
/// `streamed`'s instructions when it is given, the fence dropped before
/// this returns, on this thread.
///
/// # Safety
///
/// Every block is an element of the target behind `origin` (one, through
/// `copy_block`) and, where `streamed` is given, a stride-1 run of it.
unsafe fn copy_rows<T: Bits, I: Copy>(
    origin: Shared<T>,
    (base, block): (&impl Fn(I) -> isize, usize),
    index: &[I],
    copy_block: &impl Fn(isize, &mut [MaybeUninit<T>]),
    streamed: Option<Isa>,
    out: &mut [MaybeUninit<T>],
) {
    let ahead = prefetch::rows_ahead(block * std::mem::size_of::<T>());
    let ask_ahead = |k: usize| {
        if let Some(&next) = index.get(k + ahead) {
            prefetch::row(origin.wrapping_offset(base(next)), block);
        }
    };
    match streamed {
        Some(isa) => {
            let fence = Fence;
            let row = |k: usize| {
                ask_ahead(k);
                // SAFETY: the row is `block` consecutive elements of the
                // target (the caller's guarantee), which outlives the copy.
                unsafe { std::slice::from_raw_parts(origin.wrapping_offset(base(index[k])), block) }
            };
            // SAFETY: nothing reads the output before `fence` drops, on this
            // thread, when this returns.
            unsafe { stream::copy_rows_to(out, block, row, isa, &fence) }
        }
        None => {
            for (k, (block_out, &i)) in out.chunks_mut(block).zip(index).enumerate() {
                ask_ahead(k);
                copy_block(base(i), block_out);
            }
        }
    }
}

/// Copies the elements the strided `dims` reach from `base` into `out`, in
/// C order.
///
/// # Safety
///
/// Every position is an element of the target behind `origin`.
unsafe fn copy_strided<T: Copy>(origin: Shared<T>, base: isize, dims: &[Dim], out: &mut [MaybeUninit<T>]) {
    match dims {
        [] => {
            // SAFETY: the caller's guarantee.
            out[0].write(unsafe { *origin.0.offset(base) });
        }
        [Dim::Strided { len, stride: 1 }] => {
            // SAFETY: a stride-1 run of `len` elements of the target.
            let source = unsafe { std::slice::from_raw_parts(origin.0.offset(base), *len) };
            for (slot, &value) in out.iter_mut().zip(source) {
                slot.write(value);
            }
        }
        [Dim::Strided { len, stride }, rest @ ..] => {
            let inner = out.len() / (*len).max(1);
            for (i, part) in out.chunks_mut(inner.max(1)).take(*len).enumerate() {
                // SAFETY: passed on.
                unsafe { copy_strided(origin, base + i as isize * stride, rest, part) };
            }
        }
        [Dim::Table, ..] => unreachable!("a plan has one table"),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use ndarray::{ArrayD, CowArray, IxDyn};

    use super::*;
    use crate::index::IntArray;
    use crate::plan::{AxisIndex, Table};

    const ROWS: usize = 12;
    const ROW: usize = 24;

    /// The plan of `x[index]` on a `ROWS` x `ROW` matrix in C order.
    fn row_gather(index: &[i64]) -> IndexedPlan<'static> {
        let array = ArrayD::from_shape_vec(IxDyn(&[index.len()]), index.to_vec()).unwrap();
        let axis = AxisIndex {
            index: IntArray::I64(CowArray::from(array)),
            len: ROWS,
            stride: ROW as isize,
            wraps: false,
        };
        IndexedPlan {
            base: 0,
            dims: vec![Dim::Table, Dim::Strided { len: ROW, stride: 1 }],
            table: Table {
                shape: vec![index.len()],
                entries: Entries::Index(axis),
            },
            shape: vec![index.len(), ROW],
            whole_mask: false,
        }
    }

    /// Rows gathered in timed turns of either kind, cut anywhere, equal a
    /// plain loop over the index, with every turn on this thread.
    #[test]
    fn rows_gathered_in_timed_turns_of_either_kind_equal_a_plain_loop() {
        let source: Vec<u32> = (0..(ROWS * ROW) as u32).collect();
        let index: Vec<i64> = vec![3, 7, 3, 0, 11, 7, 7, 5, 3, 0, 1, 11, 2];
        let expected: Vec<u32> = index.iter().flat_map(|&i| source[i as usize * ROW..][..ROW].to_vec()).collect();
        let plan = row_gather(&index);
        let n = index.len();
        for cuts in [vec![0, n], vec![0, 1, 5, n], vec![0, 4, 4, 9, n], (0..=n).collect()] {
            for streamed_first in [false, true] {
                let turns = RefCell::new(Vec::new());
                let time = |rows: usize, store: &mut dyn FnMut(Range<usize>, bool)| {
                    assert_eq!(rows, n);
                    for (turn, part) in cuts.windows(2).enumerate() {
                        let streamed = (turn % 2 == 0) == streamed_first;
                        store(part[0]..part[1], streamed);
                        turns.borrow_mut().push(std::thread::current().id());
                    }
                };
                let mut out = vec![MaybeUninit::new(u32::MAX); n * ROW];
                // SAFETY: every index is below `ROWS`, and the row under it
                // is `ROW` elements of `source`.
                let written = unsafe {
                    gather_into(
                        source.as_ptr(),
                        &plan,
                        None,
                        (4, RowStores::Timed(Isa::detect(), &time)),
                        (Isa::detect(), false),
                        &mut out,
                    )
                };
                assert_eq!(written, Ok(()));
                // SAFETY: every slot was initialized (with `u32::MAX`) before.
                let got: Vec<u32> = out.iter().map(|slot| unsafe { slot.assume_init() }).collect();
                assert_eq!(got, expected, "{cuts:?}, streamed first: {streamed_first}");
                assert!(turns.borrow().iter().all(|&id| id == std::thread::current().id()));
            }
        }
    }

    /// Turns that skip a row, or take one twice, panic before the output is
    /// reported written.
    #[test]
    fn timed_turns_that_miss_a_row_panic() {
        let source: Vec<u32> = (0..(ROWS * ROW) as u32).collect();
        let plan = row_gather(&[1, 2, 3, 4]);
        let skips = |_: usize, store: &mut dyn FnMut(Range<usize>, bool)| {
            store(0..1, false);
            store(2..4, true);
        };
        let stops = |_: usize, store: &mut dyn FnMut(Range<usize>, bool)| store(0..3, false);
        for time in [&skips as TimeTurns, &stops] {
            let mut out = vec![MaybeUninit::new(0u32); 4 * ROW];
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // SAFETY: as above.
                unsafe {
                    gather_into(
                        source.as_ptr(),
                        &plan,
                        None,
                        (1, RowStores::Timed(Isa::detect(), time)),
                        (Isa::detect(), false),
                        &mut out,
                    )
                }
            }));
            assert!(caught.is_err(), "the gather reported rows written that no turn stored");
        }
    }
}
