//! The cubecl kernels, one file per family, each kernel beside its launch
//! wrapper. Every launch is checked (cubecl's bounds-checked mode): offsets
//! come from user indices, and a checked launch turns a bug into a dropped
//! access instead of a write outside the buffer.
//!
//! Positions, offsets and counts are 32-bit on the device: the host rejects
//! tensors and regions of more than `i32::MAX` elements first.

pub(crate) mod combine;
pub(crate) mod compact;
pub(crate) mod condition;
pub(crate) mod copy;
pub(crate) mod gather;
pub(crate) mod grid;
pub(crate) mod indices;
pub(crate) mod masked;
pub(crate) mod region;
pub(crate) mod scan;
pub(crate) mod scatter_reduce;
pub(crate) mod scatter_set;
pub(crate) mod sort;
