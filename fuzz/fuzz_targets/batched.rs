//! The batched entry points (`; batch = k`: `get_batched`, `set_batched`,
//! `update_batched`, `apply_batched`) and `along(idx, axis)` on arbitrary
//! inputs, against the reference interpreter of the tests
//! (`tests/suite/reference/`), as the `runtime` target checks the plain
//! ones.
//!
//! The bytes are decoded into one or two batch axes (of length 0 to 3)
//! before a target of up to 3 more axes, laid out as `runtime` lays its
//! targets out, and an index drawn for one batch: `runtime`'s elements, or
//! an `along` index (of the target's rank, broadcasting outside its axis;
//! now and then mis-shaped or with an axis out of range). Each array, mask,
//! `nd` and `along` index gains the batch axes (now and then of length 1,
//! to broadcast, or one too long), its elements rotated in each batch
//! position so that the batches differ. A result must equal the
//! reference's; an error must be the reference's and leave the base
//! unchanged bit for bit. Any panic is a finding.
#![no_main]

#[path = "../../tests/suite/reference/mod.rs"]
mod reference;

mod decode;

use decode::{ArbitraryElem, action, elem, index_value, layout, mode, value};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use reference::case::{Case, ElemSpec, IntsSpec, build, check, value_shape, with_batch_axes};

fuzz_target!(|data: &[u8]| decode::run_either(data, run::<f64>, run::<i64>));

/// `along(idx, axis)` on a target of `shape` (the axes past the batch):
/// an index of its rank whose lengths broadcast against it outside `axis`.
fn along(u: &mut Unstructured<'_>, shape: &[usize]) -> Result<ElemSpec> {
    let rank = shape.len() as isize;
    let axis = match u.int_in_range(0..=20)? {
        0 => rank,
        1 => -rank - 1,
        _ => u.int_in_range(-rank.max(1)..=rank.max(1) - 1)?,
    };
    let mut dims: Vec<usize> = shape
        .iter()
        .map(|&len| {
            Ok(match u.int_in_range(0..=16)? {
                0..=7 => len,
                8..=11 => 1,
                12..=15 => u.int_in_range(0..=4)?,
                _ => len + 2,
            })
        })
        .collect::<Result<_>>()?;
    if u.ratio(1, 30)? {
        dims.push(2);
    }
    let positive = if axis < 0 { axis + rank } else { axis };
    let len = usize::try_from(positive).ok().and_then(|a| shape.get(a)).copied().unwrap_or(1);
    let values = (0..dims.iter().product::<usize>())
        .map(|_| index_value(u, len))
        .collect::<Result<Vec<_>>>()?;
    Ok(ElemSpec::Along(IntsSpec::new(u.arbitrary()?, &dims, &values, u.arbitrary()?), axis))
}

fn run<T: ArbitraryElem>(u: &mut Unstructured<'_>) -> Result<()> {
    let batch: Vec<usize> = (0..u.int_in_range(1..=2)?)
        .map(|_| Ok(if u.ratio(1, 20)? { 0 } else { u.int_in_range(1..=3)? }))
        .collect::<Result<_>>()?;
    let sub: Vec<usize> = (0..u.int_in_range(0..=3)?).map(|_| u.int_in_range(0..=4)).collect::<Result<_>>()?;
    let index: Vec<ElemSpec> = if u.ratio(1, 3)? {
        vec![along(u, &sub)?]
    } else {
        let mut axis = 0;
        (0..u.int_in_range(0..=4)?)
            .map(|_| elem(u, &sub, &mut axis))
            .collect::<Result<_>>()?
    };
    let action = action(u)?;
    let mode = mode::<T>(u)?;
    let region = [batch.clone(), value_shape(&sub, &index)].concat();
    let index = index
        .into_iter()
        .map(|elem| {
            let axes = batch
                .iter()
                .map(|&len| {
                    Ok(match u.int_in_range(0..=10)? {
                        0..=7 => len,
                        8 | 9 => 1,
                        _ => len + 1,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(with_batch_axes(elem, &axes))
        })
        .collect::<Result<Vec<_>>>()?;
    let shape = [batch.clone(), sub].concat();
    let layout = layout(u, shape.len())?;
    let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
    let base_data = (0..base_shape.iter().product::<usize>())
        .map(|_| T::base(u))
        .collect::<Result<_>>()?;
    let base = build(&base_shape, base_data, false);
    let value = value::<T>(u, &region, action)?;
    let case = Case {
        shape,
        layout,
        base,
        index,
        action,
        mode,
        value,
        batch: batch.len(),
    };
    if let Err(failure) = check(&case) {
        panic!("{failure}\n{case:?}");
    }
    Ok(())
}
