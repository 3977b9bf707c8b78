//! What an update does to one element, as a type: the loops are
//! monomorphized per operation, so no `match op` runs per element.

use std::iter;

use crate::element::{Arith, Op};
use crate::exec::fill::StreamFence;
use crate::index::IndexInt;
use crate::value::InOrder;

/// One update: combines a target element with its value.
pub(crate) trait Kernel<T> {
    /// Whether the updates may be applied in runs to partials from an
    /// identity and folded in order (`exec::partitioned`); else they are
    /// split by destination (`exec::split`). A constant, so that the path
    /// a kernel cannot take is not compiled for it.
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // the parallel paths ask
    const REGROUPS: bool = false;
    /// Whether the operands need checking first (`Arith::checks_operands`).
    const CHECKS_OPERANDS: bool = false;

    /// `target op= value`.
    fn apply(&mut self, target: &mut T, value: &T);

    /// A contiguous run of targets with their values (the same as calling
    /// `apply` on each pair; `set` copies the run at once).
    #[inline]
    fn apply_run(&mut self, targets: &mut [T], values: &[T]) {
        for (target, value) in targets.iter_mut().zip(values) {
            self.apply(target, value);
        }
    }

    /// `apply_run` on one row of an update too large to stay in the cache
    /// (`set` streams it past the cache, ordered when `fence` drops).
    #[inline]
    fn apply_row_of_large(&mut self, targets: &mut [T], values: &[T], _fence: &StreamFence) {
        self.apply_run(targets, values);
    }

    /// A contiguous run of targets all taking `value`.
    #[inline]
    fn fill_run(&mut self, targets: &mut [T], value: &T) {
        for target in targets {
            self.apply(target, value);
        }
    }

    /// `apply` where `selected`, else nothing: the fused mask path. Kernels
    /// on plain data override it without a branch, so the loop vectorizes.
    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if selected {
            self.apply(target, value);
        }
    }
}

/// `targets[indices[k]] op= values[k]` in index order. With `CHECKED`,
/// each index is checked just before it is applied, and the place in
/// `indices` of the first out of bounds is returned (the updates before it
/// are done).
///
/// # Safety
///
/// Without `CHECKED`, every index must be in bounds of `targets`.
#[inline]
pub(crate) unsafe fn apply_indexed<const CHECKED: bool, T, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: InOrder<'_, T>,
    kernel: K,
) -> Result<(), usize> {
    // SAFETY: the caller's.
    unsafe {
        match values {
            InOrder::Scalar(value) => apply_each::<CHECKED, _, _, _>(targets, indices, iter::repeat(value), kernel),
            InOrder::Slice(values) => apply_each::<CHECKED, _, _, _>(targets, indices, values.iter(), kernel),
        }
    }
}

/// `apply_indexed` over an iterator of values.
#[inline]
unsafe fn apply_each<'v, const CHECKED: bool, T: 'v, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: impl Iterator<Item = &'v T>,
    mut kernel: K,
) -> Result<(), usize> {
    let len = targets.len();
    for (k, (&i, value)) in indices.iter().zip(values).enumerate() {
        if CHECKED && !i.in_bounds(len) {
            return Err(k);
        }
        // SAFETY: `i` is in bounds of `targets` (just checked, or the
        // caller's guarantee), so its position is below `len`.
        kernel.apply(unsafe { targets.get_unchecked_mut(i.position(len)) }, value);
    }
    Ok(())
}

/// `x[i] = v`.
#[derive(Clone, Copy)]
pub(crate) struct SetKernel;

impl<T: Clone + 'static> Kernel<T> for SetKernel {
    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        target.clone_from(value);
    }

    #[inline]
    fn apply_run(&mut self, targets: &mut [T], values: &[T]) {
        targets.clone_from_slice(values);
    }

    fn apply_row_of_large(&mut self, targets: &mut [T], values: &[T], fence: &StreamFence) {
        crate::exec::fill::copy_row(targets, values, fence);
    }

    fn fill_run(&mut self, targets: &mut [T], value: &T) {
        crate::exec::fill::fill(targets, value);
    }

    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if std::mem::needs_drop::<T>() {
            if selected {
                target.clone_from(value);
            }
        } else {
            // Plain data: a select, not a branch (a mask is as good as
            // random to a branch predictor).
            *target = std::hint::select_unpredictable(selected, value.clone(), target.clone());
        }
    }
}

/// An operation fixed at compile time (see [`with_op!`]).
pub(crate) trait ConstOp {
    /// The operation.
    const OP: Op;
}

/// `x[i] op= v`, `op` known at compile time.
#[derive(Clone, Copy)]
pub(crate) struct OpKernel<O>(std::marker::PhantomData<O>);

impl<O> OpKernel<O> {
    pub(crate) fn new() -> Self {
        OpKernel(std::marker::PhantomData)
    }
}

impl<T: Arith, O: ConstOp> Kernel<T> for OpKernel<O> {
    const REGROUPS: bool = O::OP.regroups(T::INTEGER);
    const CHECKS_OPERANDS: bool = O::OP.checks_operands(T::INTEGER);

    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        *target = target.combine(O::OP, *value);
    }

    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if <Self as Kernel<T>>::CHECKS_OPERANDS {
            // Integer division and powers must not run on unselected
            // elements: their operand was only checked for selected ones.
            if selected {
                self.apply(target, value);
            }
        } else {
            *target = std::hint::select_unpredictable(selected, target.combine(O::OP, *value), *target);
        }
    }
}

macro_rules! const_ops {
    ($($name:ident => $op:ident),*) => {$(
        #[derive(Clone, Copy)]
        pub(crate) struct $name;
        impl ConstOp for $name {
            const OP: Op = Op::$op;
        }
    )*};
}
const_ops!(AddOp => Add, SubOp => Sub, MulOp => Mul, DivOp => Div, PowOp => Pow, MinOp => Min, MaxOp => Max);

/// Runs `$body` with `$kernel` bound to the [`OpKernel`] of the run-time `$op`.
macro_rules! with_op {
    ($op:expr, $kernel:ident => $body:expr) => {{
        use $crate::exec::kernel::*;
        match $op {
            $crate::Op::Add => {
                let $kernel = OpKernel::<AddOp>::new();
                $body
            }
            $crate::Op::Sub => {
                let $kernel = OpKernel::<SubOp>::new();
                $body
            }
            $crate::Op::Mul => {
                let $kernel = OpKernel::<MulOp>::new();
                $body
            }
            $crate::Op::Div => {
                let $kernel = OpKernel::<DivOp>::new();
                $body
            }
            $crate::Op::Pow => {
                let $kernel = OpKernel::<PowOp>::new();
                $body
            }
            $crate::Op::Min => {
                let $kernel = OpKernel::<MinOp>::new();
                $body
            }
            $crate::Op::Max => {
                let $kernel = OpKernel::<MaxOp>::new();
                $body
            }
        }
    }};
}
pub(crate) use with_op;
