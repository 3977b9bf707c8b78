//! Compile-time checks of the macros: one compile-fail case per rule in
//! `tests/ui/`, each with the error a user sees in its `.stderr`, and pass
//! cases covering every grammar form in `tests/ui/pass/`.
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite` and read the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/*.rs");
}
