//! `min` and `max` on floats on a device with autodiff, with JAX's gradient:
//! where several candidates tie for a position's result (the target's
//! element and the values written there), each gets an equal share of the
//! position's gradient; the others get none.
//!
//! The result is computed first, in rounds, out of autodiff's sight. The
//! shares then enter through a term whose value is exactly zero: for each
//! position, `s` is the sum of each tied candidate times its share, and the
//! result is `r - (detach(s) - s)`. `detach(s) - s` is `+0.0` for a finite
//! `s`, so every bit of `r` (a `-0.0`, a NaN) is kept, and its gradient is
//! the shares. A candidate that is not finite takes no share (its product
//! would make the zero a NaN).

use crate::element::Op;
use burn_tensor::{Float, IndexingUpdateOp, Tensor};

use super::flat::in_rounds;
use super::kind::positions;
use super::region::Region;

/// `rows[region] = op(rows[region], values)` for `op` `min` or `max`,
/// every occurrence in index order, with tied gradients shared.
pub(crate) fn shared(rows: Tensor<2, Float>, region: &Region, values: Tensor<2, Float>, op: Op) -> Tensor<2, Float> {
    let device = rows.device();
    let dtype = rows.dtype();
    let row_len = rows.dims()[1];
    let kept = region.kept_elements().unwrap_or_else(|| (0..region.len()).collect());
    if kept.is_empty() {
        return rows;
    }
    // The distinct positions written, and each kept element's among them.
    let mut distinct: Vec<i64> = Vec::new();
    let mut group_of = std::collections::HashMap::new();
    let groups: Vec<i64> = kept
        .iter()
        .map(|&at| {
            let offset = region.offsets[at];
            *group_of.entry(offset).or_insert_with(|| {
                distinct.push(offset);
                distinct.len() as i64 - 1
            })
        })
        .collect();
    let written = distinct.len();
    let at = positions(distinct, &device);
    let groups = positions(groups, &device);
    let values = values.select(0, positions(kept.iter().map(|&at| at as i64).collect(), &device));

    let result = in_rounds(rows.clone().detach(), region, values.clone().detach(), op).select(0, at.clone());
    let at_values = result.clone().select(0, groups.clone());
    let targets = rows.clone().select(0, at.clone());
    let target_ties = targets.clone().detach().equal(result.clone());
    let value_ties = values.clone().detach().equal(at_values);

    let zeros = || Tensor::<2, Float>::zeros([written, row_len], (&device, dtype));
    let counts = (target_ties.clone().float().cast(dtype)
        + zeros().select_assign(0, groups.clone(), value_ties.clone().float().cast(dtype), IndexingUpdateOp::Add))
    .clamp_min(1.0);
    let target_shares = target_ties.float().cast(dtype) / counts.clone();
    let value_shares = value_ties.float().cast(dtype) / counts.select(0, groups.clone());

    let finite = |tensor: Tensor<2, Float>| tensor.clone().mask_fill(tensor.is_finite().bool_not(), 0.0);
    let sum = finite(targets) * target_shares + zeros().select_assign(0, groups, finite(values) * value_shares, IndexingUpdateOp::Add);
    let exact = result - (sum.clone().detach() - sum);
    rows.select_assign(0, at, exact, IndexingUpdateOp::Assign)
}
