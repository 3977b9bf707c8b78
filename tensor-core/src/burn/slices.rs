//! Basic indexes (integers, slices, `...`, `None`) lowered to burn's
//! `slice` and `slice_assign`: the region is a view of the tensor, read or
//! written with no positions at all, and differentiated by burn's own
//! rules (a view holds each element once).

use burn_tensor::{Slice, Tensor};

use super::kind::BurnKind;
use super::reshape::Reshaped;
use crate::backend::plan::{Plan, ViewAxis};
use crate::element::Op;

/// The slices of `plan`, one per target axis (a selected position is a
/// slice of one); `None` when it is not a view, or selects nothing (burn
/// writes nothing there, and reads of nothing take the general path).
pub(crate) fn of(plan: &Plan<'_>) -> Option<Vec<Slice>> {
    let Plan::View(view) = plan else {
        return None;
    };
    let mut slices = Vec::with_capacity(view.axes.len());
    for axis in &view.axes {
        match *axis {
            ViewAxis::Select(at) => slices.push(Slice::new(at as isize, Some(at as isize + 1), 1)),
            ViewAxis::Slice { len: 0, .. } => return None,
            ViewAxis::Slice { first, len, step } => {
                // One position: any step takes it, and burn would multiply
                // a huge one (`::isize::MAX`) by the stride.
                let step = if len > 1 { step } else { 1 };
                let (first, last) = (first as isize, first as isize + (len as isize - 1) * step);
                // burn's slices select a range, then walk it backwards for a
                // negative step, as ndarray's do.
                slices.push(match step > 0 {
                    true => Slice::new(first, Some(last + 1), step),
                    false => Slice::new(last, Some(first + 1), step),
                });
            }
            ViewAxis::NewAxis => {}
        }
    }
    Some(slices)
}

/// The number of positions each slice takes.
fn lens(slices: &[Slice]) -> Vec<usize> {
    slices
        .iter()
        .map(|slice| {
            let span = slice.end.unwrap_or(slice.start) - slice.start;
            (span as usize).div_ceil(slice.step.unsigned_abs())
        })
        .collect()
}

/// The elements of `target` at `slices`, in C order.
pub(crate) fn read<const D: usize, K: BurnKind>(target: &Tensor<D, K>, slices: &[Slice]) -> Tensor<1, K> {
    let len = lens(slices).iter().product::<usize>();
    target.clone().slice(slices).shaped([len])
}

/// `target[slices] = values` (`op` `None`) or `target[slices] op= values`;
/// `values` holds one element per position, in C order.
pub(crate) fn write<const D: usize, K: BurnKind>(
    target: Tensor<D, K>,
    slices: &[Slice],
    values: Tensor<1, K>,
    op: Option<Op>,
) -> Tensor<D, K> {
    let lens = lens(slices);
    let dims: [usize; D] = std::array::from_fn(|axis| lens[axis]);
    let values = match op {
        None => values.shaped(dims),
        Some(op) => {
            let len = values.dims()[0];
            let current = target.clone().slice(slices).shaped([len, 1]);
            let combined = K::combine(current, op, values.shaped([len, 1])).expect("a supported operation");
            combined.shaped(dims)
        }
    };
    target.slice_assign(slices, values)
}
