//! Large indexed writes on every thread, cut along the longest strided dim
//! of their plan: positions of two pieces differ in a slice's coordinate,
//! so no element is written by two threads, and each piece applies its
//! updates in index order. The result is the serial write's bit for bit,
//! duplicates included, whatever the number of threads.

use std::ops::Range;

use ndarray::Axis;
use rayon::prelude::*;

use crate::exec::kernel::Kernel;
use crate::exec::scatter;
use crate::plan::IndexedPlan;
use crate::value::Broadcast;

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

/// Writes `plan`'s positions from `origin` with `values`, in up to `parts`
/// pieces of its longest strided dim on the pool's threads; `false`, with
/// nothing written, when the plan has no strided dim.
///
/// # Safety
///
/// As [`scatter::write_indexed_at`]: every offset `plan` yields reaches an
/// element from `origin`, which nothing else reads or writes during the
/// call.
pub(crate) unsafe fn write_indexed<T: Send + Sync, K: Kernel<T> + Copy + Send + Sync>(
    origin: *mut T,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    kernel: K,
    (parts, far): (usize, bool),
) -> bool {
    let Some((place, axis, len)) = plan.longest_strided() else {
        return false;
    };
    let piece = len.div_ceil(parts.max(1)).max(1);
    let origin = Origin(origin);
    let ranges: Vec<Range<usize>> = (0..len).step_by(piece).map(|start| start..len.min(start + piece)).collect();
    ranges.into_par_iter().for_each(|range| {
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
        // the cut dim.
        unsafe { scatter::write_indexed_at(origin.get(), &narrowed, &values, kernel, far) };
    });
    true
}
