//! Both cores, behind the `rayon` feature: large gathers (`gather`, `mask`)
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

use rayon::prelude::*;

/// Runs `work` on each of `pieces` on the pool's threads. `work` is a trait
/// object, so that rayon's plumbing (its jobs, their unwinding) is compiled
/// once per piece type, not once per caller's closure and every generic
/// parameter that closure carries: a dyn call per piece, of which there are
/// a few per thread.
pub(crate) fn for_each_piece<P: Send>(pieces: Vec<P>, work: &(dyn Fn(P) + Sync)) {
    pieces.into_par_iter().for_each(work);
}
