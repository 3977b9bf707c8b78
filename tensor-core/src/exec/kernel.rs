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
    /// Whether an indexed loop applies indices in `[0, len)` as they are,
    /// before wrapping any (`apply_each`). On an EPYC that made sums faster
    /// (W6: 8.4 -> 7.2 ms) and `min`/`max` slower (W13: 9.1 -> 11.2 ms; a
    /// scratch loop showed the same with every branchless form of `max`),
    /// so they keep the branchless wrap throughout.
    const DIRECT_POSITIONS: bool = true;

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
///
/// Indices in `[0, len)`, the usual case, are applied as they are, after one
/// compare that the processor predicts; the first other index hands the
/// rest to a loop that wraps negative ones without a branch (kernels
/// without [`Kernel::DIRECT_POSITIONS`] start there). W6: 8.4 ms with the
/// branchless wrap throughout, 7.2 so. A branch on the sign at every index
/// would cost 4x on indices of mixed signs (mispredicted half the time);
/// the branchless loop costs them nothing more.
#[inline]
unsafe fn apply_each<'v, const CHECKED: bool, T: 'v, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: impl Iterator<Item = &'v T>,
    mut kernel: K,
) -> Result<(), usize> {
    let len = targets.len();
    // SAFETY (each call): the positions passed below are below `len`:
    // direct ones by their test, the others checked just before (with
    // `CHECKED`) or by the caller's guarantee.
    let mut apply = |position: usize, value: &'v T| kernel.apply(unsafe { targets.get_unchecked_mut(position) }, value);
    let wrapped = |k: usize, i: I| {
        if CHECKED && !i.in_bounds(len) {
            Err(k)
        } else {
            Ok(i.position(len))
        }
    };
    let mut updates = indices.iter().zip(values).enumerate();
    if K::DIRECT_POSITIONS {
        for (k, (&i, value)) in updates.by_ref() {
            match i.direct_position(len) {
                Some(position) => apply(position, value),
                None => {
                    apply(wrapped(k, i)?, value);
                    break;
                }
            }
        }
    }
    for (k, (&i, value)) in updates {
        apply(wrapped(k, i)?, value);
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
    const DIRECT_POSITIONS: bool = !matches!(O::OP, Op::Min | Op::Max);

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

#[cfg(test)]
mod tests {
    use super::{AddOp, MaxOp, OpKernel, apply_indexed};
    use crate::value::InOrder;

    /// `apply_indexed` against a plain loop: `Ok` with every update
    /// applied, or the place of the first index out of bounds with the
    /// updates before it applied.
    fn check(indices: &[i64], combine: fn(f32, f32) -> f32, apply: impl Fn(&mut [f32], &[i64], &[f32]) -> Result<(), usize>) {
        let len = 40;
        let values: Vec<f32> = (0..indices.len()).map(|k| (k as f32 * 0.37).sin() * 5.0).collect();
        let mut expected: Vec<f32> = (0..len).map(|k| k as f32 * 0.1).collect();
        let mut outcome = Ok(());
        for (k, (&i, &value)) in indices.iter().zip(&values).enumerate() {
            if i < -(len as i64) || i >= len as i64 {
                outcome = Err(k);
                break;
            }
            let position = if i < 0 { i + len as i64 } else { i } as usize;
            expected[position] = combine(expected[position], value);
        }
        let mut targets: Vec<f32> = (0..len).map(|k| k as f32 * 0.1).collect();
        assert_eq!(apply(&mut targets, indices, &values), outcome, "{indices:?}");
        assert_eq!(targets, expected, "{indices:?}");
    }

    #[test]
    fn indices_from_the_start_then_wrapped_equal_a_plain_loop() {
        let cases: [&[i64]; 7] = [
            &[3, 39, 0, 3, 17],          // only direct positions
            &[3, 39, -1, 3, -40, 17, 0], // a negative one hands over mid-way
            &[-5, 2, 2, -5],             // from the first
            &[1, 2, 40, 3],              // out of bounds in the direct loop
            &[1, -2, 5, -41, 3],         // out of bounds in the wrapping loop
            &[1, 2, i64::MIN, 3],        // far out of bounds
            &[],
        ];
        let max = |a: f32, b: f32| if a.is_nan() || a > b { a } else { b };
        for indices in cases {
            // SAFETY: checked, so any index may be out of bounds.
            check(
                indices,
                |a, b| a + b,
                |t, i, v| unsafe { apply_indexed::<true, _, _, _>(t, i, InOrder::Slice(v), OpKernel::<AddOp>::new()) },
            );
            check(indices, max, |t, i, v| unsafe {
                apply_indexed::<true, _, _, _>(t, i, InOrder::Slice(v), OpKernel::<MaxOp>::new())
            });
            if indices.iter().all(|&i| (-40..40).contains(&i)) {
                // SAFETY: every index is in bounds.
                check(
                    indices,
                    |a, b| a + b,
                    |t, i, v| unsafe { apply_indexed::<false, _, _, _>(t, i, InOrder::Slice(v), OpKernel::<AddOp>::new()) },
                );
            }
        }
    }
}
