//! Both cores for large accumulating scatters (`np.add.at`, `maximum.at`,
//! ...), deterministic by construction: the destinations are split into
//! contiguous parts, one per thread, and every thread scans all the indices
//! in order, applying only those that land in its part. Each destination is
//! thus updated by one thread, in index order, exactly as the serial loop
//! does: float sums are bitwise the same for every thread count.
//!
//! Each thread re-reads the indices, so the parts are few: the gain is that
//! the random read-modify-writes are shared out and each thread's part of
//! the target is smaller (closer to its own cache).

use rayon::prelude::*;

use crate::element::Arith;
use crate::exec::kernel::Kernel;
use crate::exec::parallel;
use crate::index::IndexInt;
use crate::value::Broadcast;

/// At most this many parts, whatever the pool's size: each part scans every
/// index, so beyond a few the scans cost more than the shared-out writes.
const MAX_PARTS: usize = 4;

/// Updates without a value of their own land here: a few slots, so that
/// consecutive skipped updates do not wait on each other.
const SINK_SLOTS: usize = 8;

/// `axis[index[k]] op= value[k]` for every `k`, in parallel when large
/// enough; `false` (nothing done) when the serial loop should run instead.
///
/// Every index must be in bounds of `axis` (checked by the planner).
pub(crate) fn accumulate<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    values: &Broadcast<'_, T>,
    kernel: K,
) -> bool {
    let parts = rayon::current_num_threads().min(MAX_PARTS);
    if !parallel::worth_it(index.len()) || parts < 2 || axis.len() < parts {
        return false;
    }
    let len = axis.len();
    let part_len = len.div_ceil(parts);
    match values {
        Broadcast::Scalar(value) => {
            let value = **value;
            axis.par_chunks_mut(part_len)
                .enumerate()
                .for_each(|(part, targets)| apply_part(targets, part * part_len, len, index, |_| value, kernel));
        }
        Broadcast::Array { view, shape } => {
            let source = view.broadcast(shape.clone()).expect("checked when built");
            let Some(values) = source.as_slice() else {
                return false;
            };
            axis.par_chunks_mut(part_len)
                .enumerate()
                .for_each(|(part, targets)| apply_part(targets, part * part_len, len, index, |k| values[k], kernel));
        }
    }
    true
}

/// Applies, in index order, the updates whose position falls in `targets`
/// (positions `first..first + targets.len()` of an axis of length `len`).
///
/// Branch-free: an update elsewhere is applied to a scratch slot instead
/// (whether an index is ours is as good as random to a branch predictor).
#[inline]
fn apply_part<T: Arith, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    first: usize,
    len: usize,
    index: &[I],
    value: impl Fn(usize) -> T,
    mut kernel: K,
) {
    let Some(&seed) = targets.first() else {
        return;
    };
    let mut sink = [seed; SINK_SLOTS];
    let (base, sink) = (targets.as_mut_ptr(), sink.as_mut_ptr());
    for (k, &i) in index.iter().enumerate() {
        let local = i.position(len).wrapping_sub(first);
        let ours = local < targets.len();
        let slot = std::hint::select_unpredictable(ours, base.wrapping_add(local), sink.wrapping_add(k % SINK_SLOTS));
        // SAFETY: `slot` is `targets[local]` when `local` is in bounds of
        // `targets`, else a slot of `sink`; both live, and borrowed by
        // nothing else during the call.
        kernel.apply(unsafe { &mut *slot }, &value(k));
    }
}
