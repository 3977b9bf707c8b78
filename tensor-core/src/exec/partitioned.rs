//! Both cores for large accumulating scatters (`maximum.at`, integer
//! `add.at`, ...) whose operation may be regrouped without changing a bit:
//! the indices are cut into consecutive chunks, one per thread; the first
//! chunk updates the target directly, each later one builds a partial
//! result (starting from the operation's identity), and the partials are
//! folded into the target in chunk order. The result equals the serial
//! loop's for every thread count. Indices not checked before (the rollback
//! path, `exec::rollback`) are checked by the thread applying them, and
//! the first bad one in index order is reported.
//!
//! Float sums and products would round differently regrouped: they are
//! split by destination instead (`exec::split`), when the target is large.

use rayon::prelude::*;

use crate::element::{Arith, Op};
use crate::exec::kernel::{Kernel, apply_indexed};
use crate::exec::parallel;
use crate::index::IndexInt;
use crate::value::{Broadcast, InOrder};

/// `axis[index[k]] op= value[k]` for every `k`, on several threads when
/// large and regroupable; `false` (nothing done) when the serial loop
/// should run instead.
///
/// Every index must be in bounds of `axis` (checked by the planner). The
/// partials take `(threads - 1) * axis.len()` elements of scratch, never
/// more than there are indices.
pub(crate) fn accumulate<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    op: Op,
    values: &Broadcast<'_, T>,
    kernel: K,
) -> bool {
    match values.in_order() {
        Some(values) => accumulate_in_order::<false, _, _, _>(axis, index, op, values, kernel).is_some(),
        None => false,
    }
}

/// `accumulate` of values in order, with each index checked in the loop
/// that applies it when `CHECKED`: `Some(Err(bad))` for the first index out
/// of bounds (in index order), after which `axis` holds some of the updates
/// (the caller restores it); `None` when the serial loop should run instead.
///
/// A separate bounds pass before would cost more than its own time: on an
/// EPYC with a 32 MB L3, reading W13's 64 MB of indices first made the
/// threads' updates after it 1.6x slower (10 -> 16-17 ms a thread).
pub(crate) fn accumulate_in_order<const CHECKED: bool, T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Option<Result<(), I>> {
    let identity = T::regrouping_identity(op)?;
    let parts = rayon::current_num_threads().min(1 + index.len() / axis.len().max(1));
    if !parallel::worth_it(index.len()) || parts < 2 {
        return None;
    }
    let chunk = index.len().div_ceil(parts);
    // The loops are compiled per operation and index type; the threads'
    // plumbing (`regrouped`) once per element type.
    let apply = |targets: &mut [T], part: usize| {
        let first = part * chunk;
        let indices = &index[first..(first + chunk).min(index.len())];
        // SAFETY: unchecked, every index is in bounds (the caller's
        // guarantee), and `targets` has the axis's length.
        unsafe { apply_indexed::<CHECKED, _, _, _>(targets, indices, values.skip(first), kernel) }.map_err(|k| first + k)
    };
    let fold = |targets: &mut [T], partial: &[T]| {
        let mut kernel = kernel;
        targets
            .iter_mut()
            .zip(partial)
            .for_each(|(target, value)| kernel.apply(target, value));
    };
    let parts = index.len().div_ceil(chunk);
    Some(regrouped(axis, parts, identity, &apply, &fold).map_err(|k| index[k]))
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
    let (first_part, partials) = rayon::join(
        || apply(axis, 0),
        || {
            // Each partial is filled by the thread that updates it.
            (1..parts)
                .into_par_iter()
                .map(|part| {
                    let mut partial = vec![identity; len];
                    apply(&mut partial, part).map(|()| partial)
                })
                .collect::<Vec<_>>()
        },
    );
    first_part?;
    let partials = partials.into_iter().collect::<Result<Vec<Vec<T>>, usize>>()?;
    // Fold the partials in part order, destinations split among the threads.
    let block = len.div_ceil(rayon::current_num_threads()).max(1);
    axis.par_chunks_mut(block).enumerate().for_each(|(b, targets)| {
        for partial in &partials {
            fold(targets, &partial[b * block..]);
        }
    });
    Ok(())
}
