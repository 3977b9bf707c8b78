//! The facade's integration tests, one binary: each test binary links and
//! instantiates the library's generic loops anew for every element,
//! operation and index type it uses, so seven binaries cost the CI build
//! several times what one costs. `tests/allocations.rs` (a counting global
//! allocator) and `tests/ui.rs` (trybuild) stay apart.
//!
//! Run one part with a filter: `cargo test --test suite threads::`.

mod adversarial;
mod along;
mod batch;
mod corpus;
mod errors;
mod inline;
mod machines;
mod macros;
mod mesh;
mod method_syntax;
mod panics;
mod proptest_reference;
mod reference;
mod targets;
mod threads;
