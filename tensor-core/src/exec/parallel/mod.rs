//! Every thread, behind `cfg(threads)` (the `rayon` feature in an optimized
//! build, `build.rs`): large gathers (`gather`, `mask`)
//! by output blocks, large basic writes by pieces of their view (`view`),
//! the fused mask pass with a scalar by pieces of its target (`masked`),
//! large indexed writes by pieces of a strided dim of their plan (`pieces`),
//! and large accumulations by index chunks when the operation regroups
//! exactly (`partitioned`) or by destination range (`split`). Every one gives the serial result bit for bit, whatever the
//! number of threads; the chooser decides when they run and on how many
//! threads.

pub(crate) mod gather;
pub(crate) mod mask;
pub(crate) mod masked;
pub(crate) mod partitioned;
pub(crate) mod pieces;
pub(crate) mod split;
pub(crate) mod view;

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

/// Runs `work(i)` for each `i` in `0..count` on the pool's threads. With
/// [`join_once`], the only places this crate hands work to rayon: not
/// generic, so rayon's plumbing (its jobs, their splitting and unwinding)
/// is compiled once, here, and not in every crate and for every piece type
/// that runs on threads.
fn for_each_index(count: usize, work: &(dyn Fn(usize) + Sync)) {
    (0..count).into_par_iter().for_each(work);
}

/// Runs `work` on each of `pieces` on the pool's threads: a dyn call per
/// piece, of which there are a few per thread.
pub(crate) fn for_each_piece<P: Send>(pieces: Vec<P>, work: &(dyn Fn(P) + Sync)) {
    // Each index takes the next piece: pieces are independent, so which
    // thread takes which does not matter. The lock is held for the take
    // alone, once per piece (a piece is many elements' work).
    let count = pieces.len();
    let pieces = Mutex::new(pieces.into_iter());
    for_each_index(count, &|_| {
        let piece = pieces.lock().unwrap_or_else(PoisonError::into_inner).next();
        work(piece.expect("a piece for each index"));
    });
}

/// `work` on each of `pieces` on the pool's threads, the results in the
/// pieces' order.
pub(crate) fn map_pieces<P: Send, R: Send>(pieces: Vec<P>, work: &(dyn Fn(P) -> R + Sync)) -> Vec<R> {
    let mut results: Vec<Option<R>> = Vec::new();
    results.resize_with(pieces.len(), || None);
    let pieces = pieces.into_iter().zip(results.iter_mut()).collect();
    for_each_piece(pieces, &|(piece, result)| *result = Some(work(piece)));
    results.into_iter().map(|result| result.expect("each piece ran")).collect()
}

/// `(a(), b())`, the two run on the pool's threads as `rayon::join` runs
/// them, its plumbing compiled once (see [`for_each_index`]).
pub(crate) fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut result_a, mut result_b) = (None, None);
    join_once(&mut || result_a = a.take().map(|a| a()), &mut || result_b = b.take().map(|b| b()));
    (result_a.expect("`a` ran"), result_b.expect("`b` ran"))
}

/// `rayon::join` of two trait objects: compiled once.
fn join_once(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    rayon::join(a, b);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece is run once, on a pool of several threads, and the
    /// results keep the pieces' order.
    #[test]
    fn pieces_run_once_each_and_keep_their_order() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        pool.install(|| {
            let pieces: Vec<Vec<u64>> = (0..97u64).map(|p| (0..p).collect()).collect();
            let sums = map_pieces(pieces.clone(), &|piece: Vec<u64>| piece.iter().sum::<u64>());
            let expected: Vec<u64> = pieces.iter().map(|piece| piece.iter().sum()).collect();
            assert_eq!(sums, expected);

            let mut counts = vec![0u32; 1000];
            for_each_piece(counts.chunks_mut(7).collect(), &|chunk: &mut [u32]| {
                chunk.iter_mut().for_each(|c| *c += 1)
            });
            assert!(counts.iter().all(|&c| c == 1));

            let (left, right) = join(|| (0..10u32).sum::<u32>(), || String::from("b"));
            assert_eq!((left, right.as_str()), (45, "b"));

            assert!(map_pieces(Vec::<u32>::new(), &|piece| piece).is_empty());
        });
    }

    /// A piece that panics takes the call down with it, as rayon's
    /// `for_each` does; the other pieces do not wait on the lock for it.
    #[test]
    fn a_panicking_piece_panics_the_call() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let outcome = pool.install(|| {
            std::panic::catch_unwind(|| {
                for_each_piece((0..16u32).collect(), &|piece| assert_ne!(piece, 7, "piece 7 fails"));
            })
        });
        assert!(outcome.is_err());
    }
}
