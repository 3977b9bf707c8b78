//! The GPU crate's integration tests, one binary: each test binary links
//! wgpu and instantiates the CPU reference's generic loops anew, so three
//! binaries cost the CI build far more than one.
//!
//! Run one part with a filter: `cargo test -p tensor-gpu --test suite macros_same_as_cpu::`.

#[macro_use]
mod common;
mod batch;
mod device_indices;
mod device_masks;
mod device_values;
mod kernels_same_as_cpu;
mod limits;
mod macros_same_as_cpu;
mod pipeline;
mod proptest_same_as_cpu;
mod transfers;
