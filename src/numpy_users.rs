//! For NumPy, JAX and PyTorch users: each idiom beside its tensor-at form.
//!
//! (Filled in with the macros issue; see the crate docs for now.)
