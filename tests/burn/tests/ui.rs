//! What cannot run on a burn tensor does not compile, with a message that
//! says why.

#[test]
fn refused_at_compile_time() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
