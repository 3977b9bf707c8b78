//! CPU execution of plans: a view for basic indexing, a gather or a scatter
//! over the plan's offsets for advanced indexing.

pub(crate) mod basic;
pub(crate) mod caches;
pub(crate) mod fill;
pub(crate) mod gather;
pub(crate) mod kernel;
pub(crate) mod mask_gather;
pub(crate) mod masked;
pub(crate) mod pages;
#[cfg(feature = "rayon")]
pub(crate) mod parallel;
#[cfg(feature = "rayon")]
pub(crate) mod partitioned;
pub(crate) mod prefetch;
pub(crate) mod rollback;
pub(crate) mod scatter;
#[cfg(feature = "rayon")]
pub(crate) mod split;
