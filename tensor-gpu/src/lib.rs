//! GPU execution of tensor-at plans with cubecl kernels.
//!
//! Placeholder: the GPU tensor and its kernels land with the issue
//! "tensor-gpu". Plans from `tensor-core` are already backend-neutral.
#![warn(missing_docs)]
