//! The facade's integration tests, one binary: each test binary links and
//! instantiates the library's generic loops anew for every element,
//! operation and index type it uses, so seven binaries cost the CI build
//! several times what one costs. `tests/allocations.rs` (a counting global
//! allocator) and `tests/ui.rs` (trybuild) stay apart.
//!
//! Run one part with a filter: `cargo test --test suite threads::`.
//!
//! Under Miri only `threads` is compiled: `scripts/miri` runs a part of it
//! alone, and the other parts would only lengthen its build.

#[cfg(not(miri))]
mod adversarial;
#[cfg(not(miri))]
mod along;
#[cfg(not(miri))]
mod batch;
#[cfg(not(miri))]
mod corpus;
#[cfg(not(miri))]
mod errors;
#[cfg(not(miri))]
mod every_form;
#[cfg(not(miri))]
mod inline;
#[cfg(not(miri))]
mod machines;
#[cfg(not(miri))]
mod macros;
#[cfg(not(miri))]
mod mesh;
#[cfg(not(miri))]
mod method_syntax;
#[cfg(not(miri))]
mod names_beside_ndarray;
#[cfg(not(miri))]
mod panics;
#[cfg(not(miri))]
mod proptest_reference;
#[cfg(not(miri))]
mod reference;
#[cfg(not(miri))]
mod targets;
mod threads;
