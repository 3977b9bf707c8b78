//! tensor-at: NumPy, JAX and PyTorch indexed updates for ndarray.
//!
//! Until the macros land (`at!`, `set!`), the runtime API of
//! [`tensor_core`] is re-exported here.
#![warn(missing_docs)]

pub use tensor_core::*;
