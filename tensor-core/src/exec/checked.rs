//! Accumulations whose index bounds are checked in the loop that applies
//! them, instead of in a pass of their own: many indices into a small
//! one-dimensional target (`np.add.at(x, idx, v)` with `idx` much longer
//! than `x`), where a copy of the target costs less than reading every
//! index twice, and a few indices into any vector, where there is nothing
//! to copy. Either way the target ends updated, or, at the first bad
//! index, exactly as it was: the executor reports that index, and the
//! entry layer turns it into the error.

use crate::exec::kernel::Kernel;
use crate::index::IndexInt;
use crate::value::InOrder;

/// `apply(axis)`, which checks each index as it applies it; when it meets
/// a bad one (`Err`), `axis` is restored from a copy taken first.
pub(crate) fn with_rollback<T: Copy, E>(axis: &mut [T], apply: impl FnOnce(&mut [T]) -> Result<(), E>) -> Result<(), E> {
    let snapshot = axis.to_vec();
    apply(axis).inspect_err(|_| axis.copy_from_slice(&snapshot))
}

/// `axis[indices[k]] op= values[k]` in index order once every index is
/// checked, or the first bad index with nothing written. For a few indices
/// (the callers' `FEW_INDICES`): a plain loop, since a few updates gain
/// nothing from prefetching or an instruction-set dispatch.
pub(crate) fn check_then_apply<T, I: IndexInt, K: Kernel<T>>(
    axis: &mut [T],
    indices: &[I],
    values: InOrder<'_, T>,
    mut kernel: K,
) -> Result<(), I> {
    let len = axis.len();
    if let Some(&bad) = indices.iter().find(|i| !i.in_bounds(len)) {
        return Err(bad);
    }
    match values {
        InOrder::Scalar(value) => indices.iter().for_each(|&i| kernel.apply(&mut axis[i.position(len)], value)),
        InOrder::Slice(values) => indices
            .iter()
            .zip(values)
            .for_each(|(&i, value)| kernel.apply(&mut axis[i.position(len)], value)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::indexed::apply_checked;
    use crate::exec::kernel::{AddOp, OpKernel};
    use crate::exec::sys::cpu::Isa;

    #[test]
    fn a_bad_index_leaves_the_target_as_it_was() {
        let start = [1.0f32, 2.0, 3.0];
        let add = OpKernel::<AddOp>::new();
        let values = [10.0, 20.0, 30.0];
        for (indices, expected) in [
            (vec![0i64, 2, -1], Ok([11.0, 2.0, 53.0])),
            (vec![0, 1, 3], Err(3)),
            (vec![-4, 0], Err(-4)),
        ] {
            let mut axis = start;
            let rolled = with_rollback(&mut axis, |axis| {
                apply_checked(axis, &indices, InOrder::Slice(&values), add, Isa::detect()).map_err(|k| indices[k])
            });
            assert_eq!(rolled.map(|()| axis), expected, "{indices:?}");
            if rolled.is_err() {
                assert_eq!(axis, start, "{indices:?}: rolled back");
            }
            let mut axis = start;
            let checked = check_then_apply(&mut axis, &indices, InOrder::Slice(&values), add);
            assert_eq!(checked.map(|()| axis), expected, "{indices:?}");
            if expected.is_err() {
                assert_eq!(axis, start, "{indices:?}: nothing written");
            }
        }
    }
}
