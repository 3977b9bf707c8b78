//! Procedural macros of tensor-at: `at!`, `set!`, `try_at!`, `try_set!`.
//!
//! Placeholder: the macros land with the issue "The macros". Until then the
//! runtime API of `tensor-core` (re-exported by the `tensor-at` facade) is the
//! way to index.
#![warn(missing_docs)]
