//! What an update does to one element, as a type: the loops are
//! monomorphized per operation, so no `match op` runs per element.

use crate::element::{Arith, Op};
use crate::exec::fill::StreamFence;

/// One update: combines a target element with its value.
pub(crate) trait Kernel<T> {
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
    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        *target = target.combine(O::OP, *value);
    }

    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if T::checks_operands(O::OP) {
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
