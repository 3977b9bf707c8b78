//! CPU execution of prepared reads and updates: a view for basic indexing,
//! a gather or a scatter over the plan's offsets for advanced indexing, and
//! the fast paths of each plan form; and the flat walks of `take`, `put`,
//! `place` and `nonzero` (`flat`).
//!
//! Nothing here decides an error or reads the machine: plans arrive
//! checked, and every choice of path (threads, streaming, prefetching,
//! instruction set) arrives as a parameter from the chooser
//! (`crate::choose`). The checked-in-loop accumulations (`checked`) report
//! the first bad index they meet, with the target restored; the entry layer
//! turns it into the error.

pub(crate) mod apply;
pub(crate) mod basic;
pub(crate) mod checked;
pub(crate) mod flat;
pub(crate) mod gather;
pub(crate) mod indexed;
pub(crate) mod kernel;
pub(crate) mod mask_gather;
pub(crate) mod masked;
#[cfg(threads)]
pub(crate) mod parallel;
pub(crate) mod passes;
pub(crate) mod scatter;
pub(crate) mod sys;
