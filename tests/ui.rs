//! Compile-time checks of the macros: one compile-fail case per rule in
//! `tests/ui/`, each with the error a user sees in its `.stderr`.
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite` and read the diff.
//!
//! The forms that compile are the suite's (`tests/suite/every_form.rs`,
//! `tests/suite/names_beside_ndarray.rs`): with no case to pass, trybuild
//! only checks its cases (`cargo check`), and builds none of its crates'
//! code, which took most of this test's time in CI.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
