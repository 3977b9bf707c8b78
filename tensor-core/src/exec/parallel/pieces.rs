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

use std::ops::Range;

use ndarray::Axis;

use super::for_each_piece;
use crate::exec::kernel::Kernel;
use crate::exec::scatter;
use crate::memory;
use crate::plan::{AlongIndex, Entries, Form, IndexedPlan, SKIP, Table};
use crate::value::{Broadcast, InOrder};

/// A leading table is cut by destination when it holds at least this many
/// entries a piece: enough that ranges of offsets share the work out
/// evenly for indices spread over the axis. With fewer, the longest
/// strided dim is cut.
const ENTRIES_PER_PIECE: usize = if cfg!(miri) { 4 } else { 16 };

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

/// The pieces of `plan` by destination, when its table leads the region
/// and holds at least [`ENTRIES_PER_PIECE`] entries for each of `parts`:
/// piece `k` keeps the entries whose offsets lie in the `k`th of `parts`
/// ranges of one width over the table's offsets, the others skipped.
/// `None` when the table does not lead or is too short, when no entry is
/// written, or when memory cannot hold the pieces' tables.
fn by_destination<'i>(plan: &IndexedPlan<'i>, parts: usize) -> Option<Vec<IndexedPlan<'i>>> {
    plan.leading_table_block()?;
    let count: usize = plan.table.shape.iter().product();
    if parts < 2 || count < parts.saturating_mul(ENTRIES_PER_PIECE) {
        return None;
    }
    let offsets = plan.table.offsets().ok()?;
    let written = offsets.iter().copied().filter(|&offset| offset != SKIP);
    let (low, high) = written.fold(None, |range: Option<(isize, isize)>, offset| {
        Some(range.map_or((offset, offset), |(low, high)| (low.min(offset), high.max(offset))))
    })?;
    // The offsets of one array's elements differ by less than `isize::MAX`.
    let width = high.abs_diff(low) / parts + 1;
    let piece = |part: usize| {
        let mut kept = memory::vec(count)?;
        kept.extend(offsets.iter().map(|&offset| match offset {
            SKIP => SKIP,
            offset if offset.abs_diff(low) / width == part => offset,
            _ => SKIP,
        }));
        Some(IndexedPlan {
            base: plan.base,
            dims: plan.dims.clone(),
            table: Table {
                shape: plan.table.shape.clone(),
                entries: Entries::Offsets(kept),
            },
            shape: plan.shape.clone(),
            whole_mask: plan.whole_mask,
        })
    };
    (0..parts).map(piece).collect()
}

/// Writes `plan`'s positions from `origin` with `values`, in up to `parts`
/// pieces on the pool's threads: by destination where the table leads
/// ([`by_destination`]), else along its longest strided dim; `false`, with
/// nothing written, when the plan is not of the general form or has no
/// strided dim to cut.
///
/// # Safety
///
/// As [`scatter::write_indexed_at`]: every offset `plan` yields reaches an
/// element from `origin`, which nothing else reads or writes during the
/// call; and `plan` was resolved from a layout whose elements do not
/// overlap (any mutable view's), so that positions differing in the cut
/// dim's coordinate are different elements.
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
    if let Some(pieces) = by_destination(plan, parts) {
        for_each_piece(pieces, &|piece| {
            // SAFETY: the piece's positions are the plan's (the caller's
            // guarantee) whose table offsets lie in its range. Positions of
            // different table offsets pick different coordinates of the
            // indexed axes, so they are different elements in a layout
            // whose elements do not overlap (the caller's guarantee), and
            // no two pieces' ranges meet; the piece's table is of offsets,
            // so its form is the general one, as `write_indexed_at` asks
            // of writers sharing an array.
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
        // the cut dim, whose stride is not zero, in a layout whose elements
        // do not overlap (the caller's guarantee); the plan is of the
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

    use super::by_destination;
    use crate::index::PySlice;
    use crate::ix;
    use crate::mode::Bounds;
    use crate::plan::{IndexedPlan, Plan, resolve};

    fn offsets(plan: &IndexedPlan<'_>) -> Vec<Option<isize>> {
        let mut offsets = Vec::new();
        plan.for_each_offset(|offset| offsets.push(offset));
        offsets
    }

    /// Cutting a plan by destination gives pieces of the plan's region
    /// whose positions, each at its region position, are the whole plan's
    /// written ones, each in one piece only; a repeated index falls in one
    /// piece, and no element is in two pieces. Rows run forwards and
    /// backwards in memory, with an index skipped out of bounds.
    #[test]
    fn pieces_by_destination_partition_the_plan() {
        // Rows 0 to 9 in a shuffled order, each several times (-1 is 9), and
        // a 12 out of bounds.
        let rows = ndarray::Array1::from_iter((0..50).map(|k| if k == 20 { 12 } else { (k * 7 % 11) - 1 }));
        let index = [ix(&rows), ix(PySlice::new(Some(1), Some(9), Some(3))), ix(..)];
        for strides in [[20, 4, 1], [-20, 4, 1]] {
            let Ok(Plan::Indexed(plan)) = resolve(&index, &[10, 9, 4], &strides, Bounds::Skip) else {
                panic!("not an indexed plan")
            };
            let whole = offsets(&plan);
            assert!(whole.contains(&None), "the 12 is skipped");
            for parts in [2, 3] {
                let pieces = by_destination(&plan, parts).expect("a leading table of 50 entries");
                assert_eq!(pieces.len(), parts);
                let mut found = vec![None; whole.len()];
                let mut elements = HashSet::new();
                for piece in &pieces {
                    let own = offsets(piece);
                    assert_eq!(own.len(), whole.len(), "a piece spans the whole region");
                    for (at, offset) in own.iter().enumerate() {
                        if let Some(offset) = offset {
                            assert_eq!(Some(*offset), whole[at], "a piece's position is the plan's");
                            assert_eq!(found[at].replace(*offset), None, "a position in two pieces");
                        }
                    }
                    let own: HashSet<isize> = own.into_iter().flatten().collect();
                    assert!(own.is_disjoint(&elements), "an element in two pieces ({parts} parts)");
                    elements.extend(own);
                }
                assert_eq!(found, whole, "{parts} parts, strides {strides:?}");
            }
        }
        // Too few entries for the pieces to share them out, or a table that
        // does not lead the region: the strided dim is cut instead.
        let Ok(Plan::Indexed(plan)) = resolve(&index, &[10, 9, 4], &[36, 4, 1], Bounds::Skip) else {
            panic!("not an indexed plan")
        };
        assert!(by_destination(&plan, 50).is_none(), "50 entries for 50 pieces");
        let behind = [ix(..), ix(&rows)];
        let Ok(Plan::Indexed(plan)) = resolve(&behind, &[10, 13], &[13, 1], Bounds::Error) else {
            panic!("not an indexed plan")
        };
        assert!(by_destination(&plan, 2).is_none(), "the table behind a slice");
    }
}
