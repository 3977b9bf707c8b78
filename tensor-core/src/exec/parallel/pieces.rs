//! Large indexed writes on every thread, cut into pieces that share no
//! element:
//! - a general plan whose table leads the region and holds many entries
//!   (`x[rows, 1:3000:3]`), by destination: each piece keeps the entries
//!   whose offsets fall in its range and skips the others, so a thread
//!   writes whole blocks of the target, as one thread would;
//! - any other general plan along its longest strided dim (a slice's),
//!   whose coordinate no index picks;
//! - an `along` write along the region's first axis when that axis is not
//!   the picked one.
//!
//! No element is written by two threads (entries of different offsets pick
//! different coordinates of the indexed axes; entries of one offset, a
//! repeated index, fall in one piece), and each piece applies its updates
//! in index order, so the result is the serial write's bit for bit,
//! duplicates included, whatever the number of threads.

use std::borrow::Cow;
use std::ops::Range;

use ndarray::Axis;

use super::for_each_piece;
use crate::exec::kernel::Kernel;
use crate::exec::scatter;
use crate::memory;
use crate::plan::{AlongIndex, Form, IndexedPlan, SKIP};
use crate::value::{Broadcast, InOrder};

/// A leading table is cut by destination when it holds at least this many
/// entries a piece: enough that ranges of offsets share the work out
/// evenly for indices spread over the axis. With fewer, the longest
/// strided dim is cut.
const ENTRIES_PER_PIECE: usize = if cfg!(any(miri, fuzzing)) { 4 } else { 16 };

/// The target's origin, crossing threads: each thread writes elements no
/// other thread reads or writes.
struct Origin<T>(*mut T);

impl<T> Origin<T> {
    /// The pointer (a method, so that closures capture the whole `Origin`).
    fn get(&self) -> *mut T {
        self.0
    }
}

// SAFETY: the threads write disjoint elements of `T` through the pointer,
// which `T: Send` allows from any thread.
unsafe impl<T: Send> Send for Origin<T> {}
// SAFETY: as above; no thread reads an element another writes.
unsafe impl<T: Send> Sync for Origin<T> {}

/// `0..len` in up to `parts` consecutive ranges of one length (the last
/// shorter).
fn ranges(len: usize, parts: usize) -> Vec<Range<usize>> {
    let piece = len.div_ceil(parts.max(1)).max(1);
    (0..len).step_by(piece).map(|start| start..len.min(start + piece)).collect()
}

/// The entries of a table that leads its plan's region, shared out by
/// destination: piece `k` of `parts` keeps those whose offsets lie in the
/// `k`th of `parts` ranges of one width, which together span the picked
/// offsets from the smallest to the largest; the others it skips.
struct ByDestination<'p> {
    /// The table's offsets, one per entry ([`SKIP`] for one skipped).
    offsets: Cow<'p, [isize]>,
    /// The smallest offset picked.
    low: isize,
    /// The width of each piece's range of offsets.
    width: usize,
}

impl<'p> ByDestination<'p> {
    /// `plan`'s table shared out among `parts` pieces, when it leads the
    /// region and holds at least [`ENTRIES_PER_PIECE`] entries for each;
    /// `None` when it does not lead or is too short, when it picks nothing,
    /// or when memory cannot hold its offsets.
    fn of(plan: &'p IndexedPlan<'_>, parts: usize) -> Option<Self> {
        plan.leading_table_block()?;
        if parts < 2 || plan.table.len() < parts.saturating_mul(ENTRIES_PER_PIECE) {
            return None;
        }
        let offsets = plan.table.offsets().ok()?;
        let picked = offsets.iter().copied().filter(|&offset| offset != SKIP);
        let (low, high) = picked.fold(None, |span: Option<(isize, isize)>, offset| {
            Some(span.map_or((offset, offset), |(low, high)| (low.min(offset), high.max(offset))))
        })?;
        // (The offsets of one array's elements differ by less than
        // `isize::MAX`; the last piece's range ends past `high`.)
        let width = high.abs_diff(low) / parts + 1;
        Some(ByDestination { offsets, low, width })
    }

    /// The table of piece `part`, written into `kept` (empty, with room for
    /// an offset per entry): each entry's offset where the piece keeps it,
    /// [`SKIP`] where it does not.
    fn table(&self, part: usize, mut kept: Vec<isize>) -> Vec<isize> {
        let keeps = |offset: isize| offset != SKIP && offset.abs_diff(self.low) / self.width == part;
        kept.extend(self.offsets.iter().map(|&offset| if keeps(offset) { offset } else { SKIP }));
        kept
    }
}

/// Writes `plan`'s positions from `origin` with `values`, in up to `parts`
/// pieces on the pool's threads: by destination where the table leads
/// ([`ByDestination`]), else along its longest strided dim; `false`, with
/// nothing written, when the plan is not of the general form or has no
/// strided dim to cut.
///
/// # Safety
///
/// As [`scatter::write_indexed_at`]: every offset `plan` yields reaches an
/// element from `origin`, which nothing else reads or writes during the
/// call; and `plan` was resolved from a layout whose elements do not
/// overlap (any mutable view's). Its strided dims are slices of axes no
/// index picks (or new axes, of stride zero), so every position of one
/// element has one coordinate along each strided dim of stride other than
/// zero, and one table entry's offset (the indexed axes' coordinates).
pub(crate) unsafe fn write_indexed<T: Send + Sync, K: Kernel<T> + Copy + Send + Sync>(
    origin: *mut T,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    kernel: K,
    (parts, far): (usize, bool),
) -> bool {
    let Some((place, axis, len)) = plan.longest_strided().filter(|_| matches!(plan.form(), Form::General)) else {
        return false;
    };
    let origin = Origin(origin);
    if let Some(shares) = ByDestination::of(plan, parts)
        && let Some(tables) = (0..parts).map(|_| memory::vec(shares.offsets.len())).collect::<Option<Vec<_>>>()
    {
        for_each_piece(tables.into_iter().enumerate().collect(), &|(part, kept)| {
            let piece = plan.with_offsets(shares.table(part, kept));
            // SAFETY: the piece's positions are the plan's (the caller's
            // guarantee) whose table offsets lie in its range, and no two
            // pieces' ranges meet. Every position of one element has one
            // table offset (the caller's guarantee), so no element is in
            // two pieces. The piece's table is of offsets, so its form is
            // the general one, as `write_indexed_at` asks of writers
            // sharing an array.
            unsafe { scatter::write_indexed_at(origin.get(), &piece, values, kernel, far) };
        });
        return true;
    }
    for_each_piece(ranges(len, parts), &|range| {
        let narrowed = plan.narrowed(place, range.clone());
        let values = match values {
            Broadcast::Scalar(value) => Broadcast::Scalar(*value),
            Broadcast::Array { view, shape } => {
                let whole = view.broadcast(shape.clone()).expect("checked when built");
                let part = whole.slice_axis_move(Axis(axis), range.into());
                Broadcast::Array {
                    shape: part.raw_dim(),
                    view: part,
                }
            }
        };
        // SAFETY: the piece's positions are the plan's (the caller's
        // guarantee) and no other piece's: they differ in the coordinate of
        // the cut dim, whose stride is not zero, and every position of one
        // element has one coordinate there (the caller's guarantee); the plan is of the
        // general form (tested above), as `write_indexed_at` asks of
        // writers sharing an array.
        unsafe { scatter::write_indexed_at(origin.get(), &narrowed, &values, kernel, far) };
    });
    true
}

/// `target[along(idx, axis)] op= values` (`values` in the region's C order)
/// in up to `parts` pieces of the region's first axis, on the pool's
/// threads.
///
/// # Safety
///
/// As [`scatter::scatter_along`], and the region's first axis is neither
/// the picked axis nor broadcast over the target (`along.strides[0]` is not
/// zero) in a layout whose elements do not overlap (any mutable view's):
/// its coordinates are different elements.
pub(crate) unsafe fn write_along<T: Send + Sync, K: Kernel<T> + Copy + Send + Sync>(
    origin: *mut T,
    plan: &IndexedPlan<'_>,
    along: &AlongIndex<'_>,
    values: InOrder<'_, T>,
    kernel: K,
    parts: usize,
) {
    let rows = plan.table.shape[0];
    let inner: usize = plan.table.shape[1..].iter().product();
    let origin = Origin(origin);
    for_each_piece(ranges(rows, parts), &|first| {
        let mut kernel = kernel;
        let values = match values {
            InOrder::Scalar(value) => InOrder::Scalar(value),
            InOrder::Slice(values) => InOrder::Slice(&values[first.start * inner..first.end * inner]),
        };
        // SAFETY: the caller's guarantee; this piece's positions are its own
        // (they differ from the others' in the first coordinate), and its
        // values start at its first position's.
        unsafe { scatter::scatter_along(origin.get(), plan, along, &mut kernel, values, first) }
    });
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::ByDestination;
    use crate::index::{IndexElem, PySlice};
    use crate::ix;
    use crate::mode::Bounds;
    use crate::plan::{IndexedPlan, Plan, resolve};

    fn offsets(plan: &IndexedPlan<'_>) -> Vec<Option<isize>> {
        let mut offsets = Vec::new();
        plan.for_each_offset(|offset| offsets.push(offset));
        offsets
    }

    fn indexed<'i>(index: &'i [IndexElem<'_>], shape: &[usize], strides: &[isize]) -> IndexedPlan<'i> {
        let Ok(Plan::Indexed(plan)) = resolve(index, shape, strides, Bounds::Skip) else {
            panic!("not an indexed plan")
        };
        plan
    }

    /// Pieces by destination, each a plan of the whole region: their
    /// positions, each at its region position, are the plan's written
    /// ones, each in one piece only and none left out; no element is in
    /// two pieces; and indices spread over the axis leave no piece empty.
    fn assert_partition(plan: &IndexedPlan<'_>, parts: usize) {
        let whole = offsets(plan);
        let shares = ByDestination::of(plan, parts).expect("a leading table of enough entries");
        let mut found = vec![None; whole.len()];
        let mut elements = HashSet::new();
        for part in 0..parts {
            let own = offsets(&plan.with_offsets(shares.table(part, Vec::new())));
            assert_eq!(own.len(), whole.len(), "a piece spans the whole region");
            for (at, offset) in own.iter().enumerate() {
                if let Some(offset) = offset {
                    assert_eq!(Some(*offset), whole[at], "a piece's position is the plan's");
                    assert_eq!(found[at].replace(*offset), None, "a position in two pieces");
                }
            }
            let own: HashSet<isize> = own.into_iter().flatten().collect();
            assert!(!own.is_empty(), "piece {part} of {parts} is empty");
            assert!(own.is_disjoint(&elements), "an element in two pieces ({parts} parts)");
            elements.extend(own);
        }
        assert_eq!(found, whole, "{parts} parts");
    }

    /// Rows forwards and backwards in memory, several times each, with one
    /// skipped out of bounds, and a table of two indices around a slice
    /// (`x[i, :, j]`, whose table leads), each cut into two and three
    /// pieces; too few entries, or a table behind a slice, are not cut.
    #[test]
    fn pieces_by_destination_partition_the_plan() {
        // Rows 0 to 9 in a shuffled order, each several times (-1 is 9), and
        // a 12 out of bounds.
        let rows = ndarray::Array1::from_iter((0..50).map(|k| if k == 20 { 12 } else { (k * 7 % 11) - 1 }));
        let index = [ix(&rows), ix(PySlice::new(Some(1), Some(9), Some(3))), ix(..)];
        for strides in [[36, 4, 1], [-36, 4, 1]] {
            let plan = indexed(&index, &[10, 9, 4], &strides);
            assert!(offsets(&plan).contains(&None), "the 12 is skipped");
            for parts in [2, 3] {
                assert_partition(&plan, parts);
            }
        }
        let columns = ndarray::Array1::from_iter((0..50).map(|k| k * 3 % 4));
        let around = [ix(&rows), ix(..), ix(&columns)];
        let plan = indexed(&around, &[10, 5, 4], &[20, 4, 1]);
        assert!(plan.leading_table_block().is_some(), "NumPy puts the table first");
        for parts in [2, 3] {
            assert_partition(&plan, parts);
        }
        assert!(
            ByDestination::of(&indexed(&index, &[10, 9, 4], &[36, 4, 1]), 50).is_none(),
            "50 entries for 50 pieces"
        );
        let behind = [ix(..), ix(&rows)];
        assert!(
            ByDestination::of(&indexed(&behind, &[10, 13], &[13, 1]), 2).is_none(),
            "the table behind a slice"
        );
    }
}
