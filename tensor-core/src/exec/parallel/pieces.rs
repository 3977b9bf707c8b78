//! Large indexed writes on every thread, cut into pieces whose positions
//! differ in a coordinate no index picks: a general plan along its longest
//! strided dim (a slice's), an `along` write along the region's first axis
//! when that axis is not the picked one. No element is written by two
//! threads, and each piece applies its updates in index order, so the
//! result is the serial write's bit for bit, duplicates included, whatever
//! the number of threads.

use std::ops::Range;

use ndarray::Axis;

use super::for_each_piece;
use crate::exec::kernel::Kernel;
use crate::exec::scatter;
use crate::plan::{AlongIndex, Form, IndexedPlan};
use crate::value::{Broadcast, InOrder};

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

/// Writes `plan`'s positions from `origin` with `values`, in up to `parts`
/// pieces of its longest strided dim on the pool's threads; `false`, with
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
