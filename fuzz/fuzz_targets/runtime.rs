//! The runtime API (`get`, `set`, `update`, `apply`) on arbitrary inputs,
//! against the reference interpreter of the tests (`tests/suite/reference/`,
//! written from the rules, independent of tensor-core's planner).
//!
//! The bytes are decoded into: an element type (`i64` or `f64`), a shape (up
//! to 4 axes of up to 8), a layout (the target is a view of a bigger base
//! array: offsets, steps of ±1..3, inverted and permuted axes, so strides
//! may be negative), an index list (integers including the extremes of
//! every integer type, both slice syntaxes with extreme bounds and steps,
//! integer arrays of the six index types in C or Fortran order, masks,
//! `nd`, new axes, ellipses), an operation, a mode and a value (a scalar,
//! an array shaped for the region or not, or a stride-0 broadcast view).
//!
//! Reads must equal the reference's result; writes must leave the whole
//! base array equal to the reference's (so a write outside the view is
//! caught); an error must be the reference's error and leave the base
//! unchanged bit for bit (the case and its check are
//! `tests/suite/reference/case.rs`, shared with tests/suite/proptest_reference.rs; this
//! file only decodes cases). Any panic is a finding: the runtime API answers
//! every input with a value or an error.
#![no_main]

#[path = "../../tests/suite/reference/mod.rs"]
mod reference;

mod decode;

use decode::ArbitraryElem;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use reference::case::check;

fuzz_target!(|data: &[u8]| decode::run_either(data, run::<f64>, run::<i64>));

fn run<T: ArbitraryElem>(u: &mut Unstructured<'_>) -> Result<()> {
    let case = decode::case::<T>(u, decode::Target::View)?;
    if let Err(failure) = check(&case) {
        panic!("{failure}\n{case:?}");
    }
    Ok(())
}
