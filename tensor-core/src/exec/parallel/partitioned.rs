//! Every thread for large accumulating scatters (`maximum.at`, integer
//! `add.at`, ...) whose operation may be regrouped without changing a bit:
//! the indices are cut into consecutive chunks, one per thread; the first
//! chunk updates the target directly, each later one builds a partial
//! result (starting from the operation's identity), and the partials are
//! folded into the target in chunk order. The result equals the serial
//! loop's for every thread count. Indices not checked before (the
//! checked-in-loop path, `exec::checked`) are checked by the thread
//! applying them, and the first bad one in index order is reported.
//!
//! Float sums and products would round differently regrouped: they are
//! split by destination instead (`exec::split`), when the target is large.

use super::{for_each_piece, join, map_pieces};
use crate::exec::indexed::{apply_checked, apply_in_bounds};
use crate::exec::kernel::Kernel;
use crate::exec::sys::cpu::Isa;
use crate::index::IndexInt;
use crate::value::InOrder;

/// `axis[index[k]] op= values[k]` for every `k`, in `parts` chunks of
/// indices, each index checked by the thread that applies it: `Err(bad)`
/// for the first index out of bounds in index order, after which `axis`
/// holds some of the updates (the caller restores it). `identity` is the
/// operation's identity, from which the partials start.
///
/// The partials take `(parts - 1) * axis.len()` elements of scratch.
pub(crate) fn accumulate_checked<T, I, K>(
    axis: &mut [T],
    index: &[I],
    identity: T,
    values: InOrder<'_, T>,
    kernel: K,
    parts: usize,
    isa: Isa,
) -> Result<(), I>
where
    T: Copy + Send + Sync,
    I: IndexInt,
    K: Kernel<T> + Copy + Send + Sync,
{
    let chunk = index.len().div_ceil(parts.max(1));
    let apply = |targets: &mut [T], part: usize| {
        let first = part * chunk;
        let indices = &index[first..(first + chunk).min(index.len())];
        apply_checked(targets, indices, values.skip(first), kernel, isa).map_err(|k| first + k)
    };
    chunked(axis, index.len(), chunk, identity, &apply, kernel).map_err(|k| index[k])
}

/// [`accumulate_checked`] with no check.
///
/// # Safety
///
/// Every index is in bounds of `axis`.
pub(crate) unsafe fn accumulate_in_bounds<T, I, K>(
    axis: &mut [T],
    index: &[I],
    identity: T,
    values: InOrder<'_, T>,
    kernel: K,
    parts: usize,
    isa: Isa,
) where
    T: Copy + Send + Sync,
    I: IndexInt,
    K: Kernel<T> + Copy + Send + Sync,
{
    let chunk = index.len().div_ceil(parts.max(1));
    let apply = |targets: &mut [T], part: usize| {
        let first = part * chunk;
        let indices = &index[first..(first + chunk).min(index.len())];
        // SAFETY: every index is in bounds of `axis` (the caller's
        // guarantee), and `targets` has the axis's length (`regrouped`).
        unsafe { apply_in_bounds(targets, indices, values.skip(first), kernel, isa) };
        Ok(())
    };
    let Ok(()) = chunked(axis, index.len(), chunk, identity, &apply, kernel) else {
        unreachable!("an unchecked loop reports no index");
    };
}

/// The chunks of `count` updates, `chunk` at a time, applied by `apply`,
/// their partials folded in order by `kernel`. The loops are compiled per
/// operation and index type; the threads' plumbing (`regrouped`) once per
/// element type.
fn chunked<T: Copy + Send + Sync, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    count: usize,
    chunk: usize,
    identity: T,
    apply: &ApplyPart<'_, T>,
    kernel: K,
) -> Result<(), usize> {
    let fold = |targets: &mut [T], partial: &[T]| {
        let mut kernel = kernel;
        targets
            .iter_mut()
            .zip(partial)
            .for_each(|(target, value)| kernel.apply(target, value));
    };
    regrouped(axis, count.div_ceil(chunk.max(1)), identity, apply, &fold)
}

/// Applies part `p` of the updates to `targets`; `Err` holds the place of
/// a bad index among all updates.
type ApplyPart<'a, T> = dyn Fn(&mut [T], usize) -> Result<(), usize> + Sync + 'a;

/// The chunked update: `apply(axis, 0)`, and `apply(partial, part)` for
/// each later part into a partial starting from `identity`; then the
/// partials folded into `axis` in part order, unless `apply` reported a
/// bad index: then the first (the earliest part's) is returned, unfolded.
fn regrouped<T: Copy + Send + Sync>(
    axis: &mut [T],
    parts: usize,
    identity: T,
    apply: &ApplyPart<'_, T>,
    fold: &(dyn Fn(&mut [T], &[T]) + Sync),
) -> Result<(), usize> {
    let len = axis.len();
    let (first_part, partials) = join(
        || apply(axis, 0),
        || {
            // Each partial is filled by the thread that updates it.
            map_pieces((1..parts).collect(), &|part| {
                let mut partial = vec![identity; len];
                apply(&mut partial, part).map(|()| partial)
            })
        },
    );
    first_part?;
    let partials = partials.into_iter().collect::<Result<Vec<Vec<T>>, usize>>()?;
    // Fold the partials in part order, destinations split among the threads.
    let block = len.div_ceil(parts).max(1);
    for_each_piece(axis.chunks_mut(block).enumerate().collect(), &|(b, targets)| {
        for partial in &partials {
            fold(targets, &partial[b * block..]);
        }
    });
    Ok(())
}
