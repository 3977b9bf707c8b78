//! Accumulations into a contiguous vector whose index bounds are checked in
//! the loop that applies them, not in a pass of their own: a few indices
//! all checked first, or many into a small target with the target copied
//! to be restored at a bad index; and the writes of a few indices that the
//! smallest calls take, answered in one byte ([`Few`]).

use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::{Kernel, RareOpKernel, SetKernel, with_op};
use crate::exec::{apply, checked};
use crate::index::{IndexElem, IndexInt, IndexSlice, with_loop_indices};
use crate::mode::AnyMode;
use crate::prepare;
use crate::value::{InOrder, Value};

#[cfg(threads)]
use super::update::{Accumulation, by_destination};
use super::update::{accumulation, regrouping_identity};
use super::{Machine, machine};

/// What [`update_few`], [`set_few`] and [`apply_few`] did, in one byte: their callers,
/// the smallest updates, read it in a register, where an
/// `Option<Result<(), IndexError>>` comes back in memory and its copy
/// stalls on the callee's stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Few {
    /// Every index applied.
    Written,
    /// Not taken: nothing done.
    Declined,
    /// An index out of bounds: nothing written (the caller finds which,
    /// with [`prepare::first_out_of_bounds`]).
    OutOfBounds,
}

impl Few {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn of<E>(done: Option<Result<(), E>>) -> Few {
        match done {
            Some(Ok(())) => Few::Written,
            None => Few::Declined,
            Some(Err(_)) => Few::OutOfBounds,
        }
    }
}

/// `axis[index] op= value` on a contiguous one-dimensional target with its
/// index bounds checked in the loop that applies them, when
/// [`prepare::checked_in_loop`] and [`in_loop_strategy`] take it: `None`
/// (nothing done) otherwise.
#[inline]
pub(crate) fn update_checked_in_loop<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[IndexElem<'_>],
    op: Op,
    mode: &AnyMode<T>,
    value: &Value<'_, T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let (array, values) = prepare::checked_in_loop(index, &[axis.len()], op, mode, value)?;
    update_in_loop(axis, array.as_index_slice()?, op, values, kernel)
}

/// `axis[index] op= values` for indices already in a vector, one value per
/// index or a scalar, each index checked in the loop that applies it;
/// `None` (nothing done) when [`in_loop_strategy`] does not take it.
#[inline]
pub(crate) fn update_in_loop<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: IndexSlice<'_>,
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let len = axis.len();
    let result = with_loop_indices!(index, index => accumulate_checked_in_loop(axis, index, op, values, kernel))?;
    Some(result.map_err(|bad| prepare::out_of_bounds(bad, len)))
}

/// `axis[index] op= values` as [`update_in_loop`] takes it, by the kernel
/// of `op`: one copy per element and index type (see `common`), whatever
/// the call.
pub(crate) fn update_few<T: Arith, I: IndexInt>(axis: &mut [T], index: &[I], op: Op, values: InOrder<'_, T>) -> Few {
    // Each arm's result made a `Few` in the arm: a merged `Option<Result>`
    // goes through memory, which stalls as the copy it replaces did.
    with_op!(op, kernel => Few::of(accumulate_checked_in_loop(axis, index, op, values, kernel)))
}

/// `axis[index] = values` for a few indices in a vector (as
/// [`machine::checks_first`] counts them), all checked before the first
/// write; declined for more.
pub(crate) fn set_few<T: Clone, I: IndexInt>(axis: &mut [T], index: &[I], values: InOrder<'_, T>) -> Few {
    if !machine::checks_first(index.len()) {
        return Few::Declined;
    }
    Few::of(Some(checked::check_then_apply(axis, index, values, SetKernel::new())))
}

/// `axis[index].apply(f)` for a few indices in a vector (as
/// [`machine::checks_first`] counts them), all checked before `f` is first
/// called, each position then updated in place, in order; declined for
/// more.
pub(crate) fn apply_few<T: Clone, I: IndexInt>(axis: &mut [T], index: &[I], f: impl FnMut(T) -> T) -> Few {
    if !machine::checks_first(index.len()) {
        return Few::Declined;
    }
    match apply::apply_checked_first(axis, index, f) {
        Ok(true) => Few::Written,
        Ok(false) => Few::Declined,
        Err(_) => Few::OutOfBounds,
    }
}

/// The most indices of a listed few ([`update_listed`], [`set_listed`]).
const LISTED: usize = 4;

/// `axis[index] op= values` for at most [`LISTED`] indices of type
/// `isize`, the type of a literal list (`x[[1, -2]] += v`), applied where
/// the call is: there the operation and often the indices are constants,
/// and the call folds to the checked element updates a user writes by
/// hand. Every index is checked before the first write. `None` for other
/// index types and more indices, for [`update_few`], compiled once.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn update_listed<T: Arith>(axis: &mut [T], index: IndexSlice<'_>, op: Op, values: InOrder<'_, T>) -> Option<Few> {
    // The kernel told its operation at run time: a constant where the call
    // is, it folds to the one operation.
    listed(axis, index, values, RareOpKernel::new(op))
}

/// `axis[index] = values` as [`update_listed`] takes it.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn set_listed<T: Clone>(axis: &mut [T], index: IndexSlice<'_>, values: InOrder<'_, T>) -> Option<Few> {
    listed(axis, index, values, SetKernel::new())
}

/// [`update_listed`] and [`set_listed`], by `kernel`.
#[cfg_attr(not(unoptimized), inline(always))]
fn listed<T, K: Kernel<T>>(axis: &mut [T], index: IndexSlice<'_>, values: InOrder<'_, T>, kernel: K) -> Option<Few> {
    match index {
        IndexSlice::Isize(indices) if indices.len() <= LISTED => {
            Some(Few::of(Some(checked::check_then_apply(axis, indices, values, kernel))))
        }
        _ => None,
    }
}

/// How an accumulation whose index bounds are checked in its loop runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InLoopStrategy {
    /// A few indices: all checked first, then applied (nothing to restore).
    CheckFirst,
    /// Many indices into a small target: a copy of the target, each index
    /// checked as it is applied, the copy restored at the first bad one.
    Rollback,
}

/// Whether `updates` indices of `index_bytes` into a target of `len`
/// elements of `T` are checked in the loop, and how
/// ([`machine::checks_first`], [`machine::rolls_back`]).
fn in_loop_strategy<T>(len: usize, updates: usize, index_bytes: usize) -> Option<InLoopStrategy> {
    if machine::checks_first(updates) {
        return Some(InLoopStrategy::CheckFirst);
    }
    machine::rolls_back(len * size_of::<T>(), index_bytes).then_some(InLoopStrategy::Rollback)
}

/// `axis[index] op= values`, each index checked in the loop, when
/// [`in_loop_strategy`] takes it: `Err(bad)` with `axis` unchanged at the
/// first bad index; `None` (nothing done) otherwise.
fn accumulate_checked_in_loop<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Option<Result<(), i128>> {
    let bad = |i: I| i.to_i128();
    let strategy = in_loop_strategy::<T>(axis.len(), index.len(), size_of_val(index))?;
    if strategy == InLoopStrategy::CheckFirst {
        // A few indices need nothing of the machine: it is read only for
        // many.
        return Some(checked::check_then_apply(axis, index, values, kernel).map_err(bad));
    }
    let machine = Machine::now();
    let accumulation = accumulation(axis.len(), index.len(), regrouping_identity::<T, K>(op), &machine);
    Some(
        checked::with_rollback(axis, |axis| match accumulation {
            #[cfg(threads)]
            Accumulation::Partitioned { parts, identity } => {
                crate::exec::parallel::partitioned::accumulate_checked(axis, index, identity, values, kernel, parts, machine.isa)
            }
            #[cfg(threads)]
            Accumulation::ByDestination { far } => by_destination::<true, _, _, _>(axis, index, values, kernel, &machine, far),
            _ => crate::exec::indexed::apply_checked(axis, index, values, kernel, machine.isa).map_err(|k| index[k]),
        })
        .map_err(bad),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_checked_in_the_loop_when_few_or_many() {
        assert_eq!(in_loop_strategy::<f32>(1000, 3, 24), Some(InLoopStrategy::CheckFirst));
        assert_eq!(in_loop_strategy::<f32>(1000, 65, 520), None);
        assert_eq!(in_loop_strategy::<f32>(1000, 1000, 8000), Some(InLoopStrategy::Rollback));
        assert_eq!(in_loop_strategy::<f64>(1000, 1000, 8000), None);
    }

    #[test]
    fn a_few_indices_write_all_or_nothing() {
        let mut x = [0i32; 4];
        assert_eq!(set_few(&mut x, &[3i64, 0, 3], InOrder::Slice(&[1, 2, 3])), Few::Written);
        assert_eq!(x, [2, 0, 0, 3]);
        assert_eq!(set_few(&mut x, &[1i64, 4], InOrder::Scalar(&9)), Few::OutOfBounds);
        assert_eq!(x, [2, 0, 0, 3]);
        let many = [0i64; 65];
        assert_eq!(set_few(&mut x, &many, InOrder::Scalar(&9)), Few::Declined);
        assert_eq!(update_few(&mut x, &[1i64, 1, -1], Op::Add, InOrder::Scalar(&5)), Few::Written);
        assert_eq!(x, [2, 10, 0, 8]);
    }
}
