//! Accumulations of many indices into a small target (`np.add.at(x, idx,
//! v)` with `idx` much longer than `x`), checked as they go and rolled back
//! on error: the target is copied first, each index is checked in the loop
//! that applies it, and the first bad one restores the copy before the
//! error is returned. The copy costs less than the separate bounds pass
//! over every index that it replaces (W6: a 4 MB copy instead of a 64 MB
//! read), and the result, or the untouched target on error, is the same
//! bit for bit. Many indices are applied on every core: by index chunks
//! when the operation regroups exactly (`exec::partitioned`), else split
//! by destination when the target is large (`exec::split`).
//!
//! The same entry takes a few indices into any vector (`x[[1, 5, 9]] +=
//! v`): they are checked before the first write, so there is nothing to
//! copy, and the planner's general machinery is skipped.

use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::{Kernel, apply_indexed};
#[cfg(feature = "rayon")]
use crate::exec::{partitioned, split};
use crate::index::{IndexElem, IndexInt, with_int_array};
use crate::mode::Mode;
use crate::value::{InOrder, Value};

/// `axis[index] op= value`, `axis` a contiguous one-dimensional target,
/// when `index` is one C-contiguous integer array in mode `error` at least
/// twice the target's size (or of at most `FEW` indices), `kernel` applying
/// `op`; `None` (nothing done) otherwise, when the value does not broadcast
/// (the general path reports errors in NumPy's order), and when it is not
/// in C order.
pub(crate) fn update<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[IndexElem<'_>],
    op: Op,
    value: &Value<'_, T>,
    mode: &Mode<T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let ([IndexElem::Array(array)], Mode::Error) = (index, mode) else {
        return None;
    };
    if K::CHECKS_OPERANDS {
        return None;
    }
    with_int_array!(array, a => {
        let indices = a.as_slice()?;
        let few = indices.len() <= FEW;
        // The copy is one read and one write of the target; the bounds pass
        // it replaces, one read of the indices.
        if a.shape().is_empty() || !few && 2 * std::mem::size_of_val(axis) > std::mem::size_of_val(indices) {
            return None;
        }
        let broadcast;
        let values = match value.flat_in_order(a.shape()) {
            Some(values) => values,
            // A value in C order; any other layout takes the general path
            // (one loop fewer to compile per operation and index type).
            None => {
                broadcast = value.broadcast_to(a.shape()).ok()?;
                broadcast.in_order()?
            }
        };
        if few {
            // Checked first, nothing to restore.
            if let Some(&bad) = indices.iter().find(|i| !i.in_bounds(axis.len())) {
                return Some(Err(IndexError::OutOfBounds { index: bad.to_i128(), axis: 0, len: axis.len() }));
            }
            // SAFETY: every index was just checked.
            let Ok(()) = (unsafe { apply_indexed::<false, _, _, _>(axis, indices, values, kernel) }) else {
                unreachable!("an unchecked loop reports no index");
            };
            return Some(Ok(()));
        }
        let snapshot = axis.to_vec();
        match apply_checked(axis, indices, op, values, kernel) {
            Ok(()) => Some(Ok(())),
            Err(bad) => {
                axis.copy_from_slice(&snapshot);
                Some(Err(IndexError::OutOfBounds { index: bad.to_i128(), axis: 0, len: axis.len() }))
            }
        }
    })
}

/// At most this many indices are checked before any is applied, instead of
/// copying the target: the tiny updates whose cost is the planning (a
/// scatter of three: 410 -> 121 ns, with `Value::flat_in_order`).
const FEW: usize = 64;

/// `axis[indices[k]] op= values[k]` in index order for each destination,
/// stopping at the first index out of bounds, which is returned (some
/// updates are done: the caller restores the target).
#[cfg_attr(not(feature = "rayon"), allow(unused_variables))] // `op` chooses a parallel path
fn apply_checked<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    indices: &[I],
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Result<(), I> {
    #[cfg(feature = "rayon")]
    if K::REGROUPS
        && let Some(result) = partitioned::accumulate_in_order::<true, _, _, _>(axis, indices, op, values, kernel)
    {
        return result;
    }
    #[cfg(feature = "rayon")]
    if split::worth_it_for_sums(axis, indices.len()) {
        let along = split::Along {
            index: indices,
            len: axis.len(),
        };
        return split::accumulate::<true, _, _, _>(axis, &along, values, kernel);
    }
    // SAFETY: checked.
    unsafe { apply_indexed::<true, _, _, _>(axis, indices, values, kernel) }.map_err(|k| indices[k])
}
