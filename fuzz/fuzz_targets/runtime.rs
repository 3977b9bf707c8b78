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

use decode::{ArbitraryElem, action, elem, layout, mode, value};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use reference::case::{Case, ElemSpec, build, check, value_shape};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.ratio(1, 3) {
        Ok(true) => run::<f64>(&mut u),
        _ => run::<i64>(&mut u),
    };
});

fn run<T: ArbitraryElem>(u: &mut Unstructured<'_>) -> Result<()> {
    let rank = u.int_in_range(0..=4)?;
    let shape: Vec<usize> = (0..rank)
        .map(|_| {
            Ok(if u.ratio(1, 6)? {
                u.int_in_range(5..=8)?
            } else {
                u.int_in_range(0..=4)?
            })
        })
        .collect::<Result<_>>()?;
    let layout = layout(u, rank)?;
    let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
    let base_data = (0..base_shape.iter().product::<usize>())
        .map(|_| T::base(u))
        .collect::<Result<_>>()?;
    let base = build(&base_shape, base_data, false);

    let mut axis = 0;
    let index: Vec<ElemSpec> = (0..u.int_in_range(0..=6)?)
        .map(|_| elem(u, &shape, &mut axis))
        .collect::<Result<_>>()?;
    let action = action(u)?;
    let mode = mode::<T>(u)?;
    let value = value::<T>(u, &value_shape(&shape, &index), action)?;
    let case = Case {
        shape,
        layout,
        base,
        index,
        action,
        mode,
        value,
        batch: 0,
    };
    if let Err(failure) = check(&case) {
        panic!("{failure}\n{case:?}");
    }
    Ok(())
}
