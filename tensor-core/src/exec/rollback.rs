//! Accumulations of many indices into a small target (`np.add.at(x, idx,
//! v)` with `idx` much longer than `x`), checked as they go and rolled back
//! on error: the target is copied first, each index is checked in the loop
//! that applies it, and the first bad one restores the copy before the
//! error is returned. The copy costs less than the separate bounds pass
//! over every index that it replaces (W6: a 4 MB copy instead of a 64 MB
//! read), and the result, or the untouched target on error, is the same
//! bit for bit. A large target is updated on every core, split by
//! destination (`exec::split`).

use std::iter;

use ndarray::ArrayViewMutD;

use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::Kernel;
#[cfg(feature = "rayon")]
use crate::exec::split;
use crate::index::{IndexElem, IndexInt, with_int_array};
use crate::mode::Mode;
use crate::value::{Broadcast, Value};

/// `target[index] op= value` when `index` is one C-contiguous integer array
/// in mode `error` on a contiguous one-dimensional target no larger than
/// the index, `kernel` applying `op`; `None` (nothing done) otherwise, when
/// the value does not broadcast (the general path reports errors in NumPy's
/// order), and when it is not in C order.
pub(crate) fn update<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    target: &mut ArrayViewMutD<'_, T>,
    index: &[IndexElem<'_>],
    op: Op,
    value: &Value<'_, T>,
    mode: &Mode<T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let ([IndexElem::Array(array)], Mode::Error) = (index, mode) else {
        return None;
    };
    if target.ndim() != 1 || T::checks_operands(op) || leaves_cores_idle::<T>(op, array.shape().iter().product()) {
        return None;
    }
    let axis = target.as_slice_mut()?;
    with_int_array!(array, a => {
        let indices = a.as_slice()?;
        // The copy is one read and one write of the target; the bounds pass
        // it replaces, one read of the indices.
        if a.shape().is_empty() || 2 * std::mem::size_of_val(axis) > std::mem::size_of_val(indices) {
            return None;
        }
        let values = value.broadcast_to(a.shape()).ok()?;
        let values = match &values {
            Broadcast::Scalar(value) => Values::Scalar(*value),
            // A value in C order; any other layout takes the general path
            // (one loop fewer to compile per operation and index type).
            Broadcast::Array { view, shape } => Values::Slice(view.broadcast(shape.clone()).expect("checked when built").to_slice()?),
        };
        let snapshot = axis.to_vec();
        match apply_checked(axis, indices, &values, kernel) {
            Ok(()) => Some(Ok(())),
            Err(bad) => {
                axis.copy_from_slice(&snapshot);
                Some(Err(IndexError::OutOfBounds { index: bad.to_i128(), axis: 0, len: axis.len() }))
            }
        }
    })
}

/// Whether the partitioned accumulation (every thread of the pool) would
/// take this update: then it should, rather than this serial loop.
#[cfg(feature = "rayon")]
fn leaves_cores_idle<T: Arith>(op: Op, len: usize) -> bool {
    T::regrouping_identity(op).is_some() && crate::exec::parallel::worth_it(len)
}

#[cfg(not(feature = "rayon"))]
fn leaves_cores_idle<T: Arith>(_: Op, _: usize) -> bool {
    false
}

/// The values of an update: one for every index, or one per index.
enum Values<'v, T> {
    Scalar(&'v T),
    Slice(&'v [T]),
}

/// `axis[indices[k]] op= values[k]` in index order for each destination,
/// stopping at the first index out of bounds, which is returned (some
/// updates are done: the caller restores the target).
fn apply_checked<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    indices: &[I],
    values: &Values<'_, T>,
    kernel: K,
) -> Result<(), I> {
    #[cfg(feature = "rayon")]
    if split::worth_it(axis, indices.len()) {
        return match values {
            Values::Scalar(value) => {
                split::accumulate::<true, _, _, _, _>(axis, indices, |range| iter::repeat_n(*value, range.len()), kernel)
            }
            Values::Slice(values) => split::accumulate::<true, _, _, _, _>(axis, indices, |range| values[range].iter(), kernel),
        };
    }
    match values {
        Values::Scalar(value) => apply_each(axis, indices, iter::repeat(*value), kernel),
        Values::Slice(values) => apply_each(axis, indices, values.iter(), kernel),
    }
}

#[inline]
fn apply_each<'v, T: 'v, I: IndexInt, K: Kernel<T>>(
    axis: &mut [T],
    indices: &[I],
    values: impl Iterator<Item = &'v T>,
    mut kernel: K,
) -> Result<(), I> {
    let len = axis.len();
    for (&i, value) in indices.iter().zip(values) {
        if !i.in_bounds(len) {
            return Err(i);
        }
        // SAFETY: `i` was just checked in `[-len, len)`, so its position is below `len`.
        kernel.apply(unsafe { axis.get_unchecked_mut(i.position(len)) }, value);
    }
    Ok(())
}
