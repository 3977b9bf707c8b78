//! Both cores for large accumulating scatters (`maximum.at`, integer
//! `add.at`, ...) whose operation may be regrouped without changing a bit:
//! the indices are cut into consecutive chunks, one per thread; the first
//! chunk updates the target directly, each later one builds a partial
//! result (starting from the operation's identity), and the partials are
//! folded into the target in chunk order. The result equals the serial
//! loop's for every thread count.
//!
//! Float sums and products would round differently regrouped: they are
//! split by destination instead (`exec::split`), when the target is large.

use rayon::prelude::*;

use crate::element::{Arith, Op};
use crate::exec::kernel::Kernel;
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
    let Some(identity) = T::regrouping_identity(op) else {
        return false;
    };
    let parts = rayon::current_num_threads().min(1 + index.len() / axis.len().max(1));
    if !parallel::worth_it(index.len()) || parts < 2 {
        return false;
    }
    let chunk = index.len().div_ceil(parts);
    match values.in_order() {
        Some(InOrder::Scalar(&value)) => regrouped(axis, index, chunk, identity, kernel, |_| value),
        Some(InOrder::Slice(values)) => regrouped(axis, index, chunk, identity, kernel, |k| values[k]),
        None => return false,
    }
    true
}

/// The chunked update: chunk 0 into `axis`, the others into partials, then
/// the partials folded into `axis` in order.
fn regrouped<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    chunk: usize,
    identity: T,
    kernel: K,
    value: impl Fn(usize) -> T + Sync,
) {
    let len = axis.len();
    let mut partials: Vec<Vec<T>> = index.chunks(chunk).skip(1).map(|_| vec![identity; len]).collect();
    let apply = |targets: &mut [T], first: usize| {
        let mut kernel = kernel;
        for (k, &i) in index[first..(first + chunk).min(index.len())].iter().enumerate() {
            // SAFETY: every index is in bounds of the axis (the caller's
            // guarantee), and `targets` has the axis's length.
            kernel.apply(unsafe { targets.get_unchecked_mut(i.position(len)) }, &value(first + k));
        }
    };
    rayon::join(
        || apply(axis, 0),
        || {
            partials
                .par_iter_mut()
                .enumerate()
                .for_each(|(p, partial)| apply(partial, (p + 1) * chunk))
        },
    );
    // Fold the partials in chunk order, destinations split among the threads.
    let block = len.div_ceil(rayon::current_num_threads()).max(1);
    axis.par_chunks_mut(block).enumerate().for_each(|(b, targets)| {
        let mut kernel = kernel;
        for partial in &partials {
            for (target, value) in targets.iter_mut().zip(&partial[b * block..]) {
                kernel.apply(target, value);
            }
        }
    });
}
