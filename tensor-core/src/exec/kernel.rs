//! What an update does to one element, as a type: the loops are
//! monomorphized per operation, so no `match op` runs per element.

use crate::element::{Arith, Op};
use crate::exec::fill::StreamFence;
use crate::exec::prefetch;
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
/// are done). Updates beyond the shorter of `indices` and a slice of
/// values are not applied.
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
    // SAFETY: the caller's; a slice of values is cut to the indices' length.
    unsafe {
        match values {
            InOrder::Scalar(value) => apply_each::<CHECKED, _, _, _, _>(targets, indices, Repeated(value), kernel),
            InOrder::Slice(values) => {
                let indices = &indices[..indices.len().min(values.len())];
                apply_each::<CHECKED, _, _, _, _>(targets, indices, values, kernel)
            }
        }
    }
}

/// Updates applied between two prefetches of the index and value streams.
const BLOCK: usize = 16;

/// The values of `apply_each`: the `k`th update's, and a hint to fetch
/// those of a later block.
trait Values<'v, T> {
    /// The `k`th update's value.
    ///
    /// # Safety
    ///
    /// `k` is below the number of updates.
    unsafe fn at(&self, k: usize) -> &'v T;

    /// Asks for the values of the block of updates from `k` (any `k`).
    fn prefetch_block(&self, k: usize);
}

/// One value for every update.
struct Repeated<'v, T>(&'v T);

impl<'v, T> Values<'v, T> for Repeated<'v, T> {
    #[inline(always)]
    unsafe fn at(&self, _: usize) -> &'v T {
        self.0
    }

    #[inline(always)]
    fn prefetch_block(&self, _: usize) {}
}

impl<'v, T> Values<'v, T> for &'v [T] {
    #[inline(always)]
    unsafe fn at(&self, k: usize) -> &'v T {
        // SAFETY: the caller's: `apply_each` has as many values as indices.
        unsafe { self.get_unchecked(k) }
    }

    #[inline(always)]
    fn prefetch_block(&self, k: usize) {
        prefetch::row(self.as_ptr().wrapping_add(k), BLOCK);
    }
}

/// `apply_indexed` over `indices.len()` values: [`apply_blocks`], built
/// for AVX2 where the processor has it. Its three-operand instructions
/// take `max`'s NaN-propagating select from seven instructions to three:
/// W13 on an EPYC 7.0-7.4 -> 5.3-5.4 ms (sums: no change).
///
/// # Safety
///
/// The caller's of [`apply_indexed`], and `values` has at least as many
/// values as there are indices.
#[inline]
unsafe fn apply_each<'v, const CHECKED: bool, T: 'v, I: IndexInt, K: Kernel<T>, V: Values<'v, T>>(
    targets: &mut [T],
    indices: &[I],
    values: V,
    kernel: K,
) -> Result<(), usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above; the rest is
        // the caller's.
        return unsafe { apply_blocks_avx2::<CHECKED, _, _, _, _>(targets, indices, values, kernel) };
    }
    // SAFETY: the caller's.
    unsafe { apply_blocks::<CHECKED, _, _, _, _>(targets, indices, values, kernel) }
}

/// [`apply_blocks`] with AVX2.
///
/// # Safety
///
/// As [`apply_blocks`], on a processor with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_blocks_avx2<'v, const CHECKED: bool, T: 'v, I: IndexInt, K: Kernel<T>, V: Values<'v, T>>(
    targets: &mut [T],
    indices: &[I],
    values: V,
    kernel: K,
) -> Result<(), usize> {
    // SAFETY: the caller's.
    unsafe { apply_blocks::<CHECKED, _, _, _, _>(targets, indices, values, kernel) }
}

/// The loop of [`apply_each`]: a block of [`BLOCK`] updates at a time,
/// each block asking for the indices and values
/// [`prefetch::STREAM_AHEAD`] updates ahead.
///
/// Indices in `[0, len)`, the usual case, are applied as they are, after one
/// compare that the processor predicts; the first other index hands the
/// rest to a loop that wraps negative ones without a branch. W6: 8.4 ms
/// with the branchless wrap throughout, 7.2 so; W13 (AVX2): 6.2-6.4 ->
/// 5.3-5.6 ms. A branch on the sign at every index would cost 4x on
/// indices of mixed signs (mispredicted half the time); the branchless loop
/// costs them nothing more.
///
/// # Safety
///
/// As [`apply_each`].
#[inline(always)]
unsafe fn apply_blocks<'v, const CHECKED: bool, T: 'v, I: IndexInt, K: Kernel<T>, V: Values<'v, T>>(
    targets: &mut [T],
    indices: &[I],
    values: V,
    mut kernel: K,
) -> Result<(), usize> {
    let len = targets.len();
    let mut direct = true;
    // Applies the block of `indices` from the `start`th update.
    let mut apply_block = |start: usize, block: &[I]| -> Result<(), usize> {
        prefetch::row(indices.as_ptr().wrapping_add(start + prefetch::STREAM_AHEAD), BLOCK);
        values.prefetch_block(start + prefetch::STREAM_AHEAD);
        // SAFETY (each call): the positions passed below are below `len`:
        // direct ones by their test, the others checked just before (with
        // `CHECKED`) or by the caller's guarantee; `k` is the place of an
        // index, so it has a value.
        let mut apply = |position: usize, k: usize| kernel.apply(unsafe { targets.get_unchecked_mut(position) }, unsafe { values.at(k) });
        let mut wrapped_from = 0;
        if direct {
            wrapped_from = block.len();
            for (j, &i) in block.iter().enumerate() {
                match i.direct_position(len) {
                    Some(position) => apply(position, start + j),
                    None => {
                        direct = false;
                        wrapped_from = j;
                        break;
                    }
                }
            }
        }
        for (j, &i) in block.iter().enumerate().skip(wrapped_from) {
            let k = start + j;
            if CHECKED && !i.in_bounds(len) {
                return Err(k);
            }
            apply(i.position(len), k);
        }
        Ok(())
    };
    let blocks = indices.chunks_exact(BLOCK);
    let rest = blocks.remainder();
    for (b, block) in blocks.enumerate() {
        apply_block(b * BLOCK, block)?;
    }
    apply_block(indices.len() - rest.len(), rest)
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

#[cfg(test)]
mod tests {
    use super::{AddOp, BLOCK, Kernel, MaxOp, OpKernel, Repeated, apply_blocks, apply_indexed};
    use crate::value::InOrder;

    const LEN: usize = 40;

    fn max(a: f32, b: f32) -> f32 {
        if a.is_nan() || a > b { a } else { b }
    }

    /// A plain loop: the targets after `targets[indices[k]] = combine(..,
    /// values[k])` in order, and `Err(k)` at the first index out of bounds
    /// (the updates before it applied).
    fn plain_loop(indices: &[i64], values: &[f32], combine: fn(f32, f32) -> f32) -> (Vec<f32>, Result<(), usize>) {
        let mut targets = start();
        for (k, (&i, &value)) in indices.iter().zip(values).enumerate() {
            if i < -(LEN as i64) || i >= LEN as i64 {
                return (targets, Err(k));
            }
            let position = if i < 0 { i + LEN as i64 } else { i } as usize;
            targets[position] = combine(targets[position], value);
        }
        (targets, Ok(()))
    }

    fn start() -> Vec<f32> {
        (0..LEN).map(|k| k as f32 * 0.1).collect()
    }

    /// Index arrays of one to several blocks: all in `[0, LEN)`, and with
    /// a negative or out-of-bounds index put at places in the first block,
    /// at a block's edges and in the last block.
    fn cases() -> Vec<Vec<i64>> {
        let mut cases = vec![vec![], vec![3, 39, -1, 3, -40, 17, 0], vec![1, 2, i64::MIN, 3]];
        for n in [1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 5] {
            let direct: Vec<i64> = (0..n).map(|k| (k * 7 % LEN) as i64).collect();
            cases.push(direct.clone());
            for at in [0, BLOCK - 1, BLOCK, 2 * BLOCK + 3, n - 1].into_iter().filter(|&at| at < n) {
                for odd in [-1, -(LEN as i64), -(LEN as i64) - 1, LEN as i64] {
                    let mut indices = direct.clone();
                    indices[at] = odd;
                    // A wrapped index later on too: the wrapping loop
                    // carries on across blocks.
                    if at + BLOCK + 2 < n {
                        indices[at + BLOCK + 2] = -3;
                    }
                    cases.push(indices);
                }
            }
        }
        cases
    }

    fn values_for(indices: &[i64]) -> Vec<f32> {
        (0..indices.len()).map(|k| (k as f32 * 0.37).sin() * 5.0).collect()
    }

    /// `apply` on every case against the plain loop, checked, and
    /// unchecked where every index is in bounds.
    fn check<K: Kernel<f32> + Copy>(
        kernel: K,
        combine: fn(f32, f32) -> f32,
        apply: impl Fn(bool, &mut [f32], &[i64], &[f32], K) -> Result<(), usize>,
    ) {
        for indices in cases() {
            let values = values_for(&indices);
            let (expected, outcome) = plain_loop(&indices, &values, combine);
            for checked in [true, false] {
                if !checked && outcome.is_err() {
                    continue;
                }
                let mut targets = start();
                assert_eq!(apply(checked, &mut targets, &indices, &values, kernel), outcome, "{indices:?}");
                assert_eq!(targets, expected, "{indices:?} checked {checked}");
            }
        }
    }

    /// Through `apply_indexed` (the AVX2 build where the processor has it).
    fn indexed<K: Kernel<f32>>(checked: bool, targets: &mut [f32], indices: &[i64], values: &[f32], kernel: K) -> Result<(), usize> {
        // SAFETY: unchecked only when every index is in bounds (`check`).
        unsafe {
            if checked {
                apply_indexed::<true, _, _, _>(targets, indices, InOrder::Slice(values), kernel)
            } else {
                apply_indexed::<false, _, _, _>(targets, indices, InOrder::Slice(values), kernel)
            }
        }
    }

    /// Through the baseline build of the loop.
    fn baseline<K: Kernel<f32>>(checked: bool, targets: &mut [f32], indices: &[i64], values: &[f32], kernel: K) -> Result<(), usize> {
        // SAFETY: as `indexed`; as many values as indices.
        unsafe {
            if checked {
                apply_blocks::<true, _, _, _, _>(targets, indices, values, kernel)
            } else {
                apply_blocks::<false, _, _, _, _>(targets, indices, values, kernel)
            }
        }
    }

    #[test]
    fn indices_from_the_start_then_wrapped_equal_a_plain_loop() {
        check(OpKernel::<AddOp>::new(), |a, b| a + b, indexed);
        check(OpKernel::<MaxOp>::new(), max, indexed);
        check(OpKernel::<AddOp>::new(), |a, b| a + b, baseline);
        check(OpKernel::<MaxOp>::new(), max, baseline);
    }

    #[test]
    fn a_repeated_value_and_extra_values_equal_a_plain_loop() {
        for indices in cases() {
            let expected = plain_loop(&indices, &vec![2.5; indices.len()], |a, b| a + b);
            let mut targets = start();
            // SAFETY: checked.
            let result = unsafe { apply_indexed::<true, _, _, _>(&mut targets, &indices, InOrder::Scalar(&2.5), OpKernel::<AddOp>::new()) };
            assert_eq!((targets, result), expected, "{indices:?}");
            let mut targets = start();
            // SAFETY: checked; a value for every index.
            let result = unsafe { apply_blocks::<true, _, _, _, _>(&mut targets, &indices, Repeated(&2.5), OpKernel::<AddOp>::new()) };
            assert_eq!((targets, result), expected, "{indices:?}");
        }
        // Values beyond the indices' count are not applied; updates beyond
        // the values' count neither.
        let indices: Vec<i64> = (0..3 * BLOCK as i64).map(|k| k % LEN as i64).collect();
        let values = values_for(&indices);
        for (count, value_count) in [(BLOCK, 2 * BLOCK), (2 * BLOCK + 1, BLOCK + 3)] {
            let applied = count.min(value_count);
            let (expected, _) = plain_loop(&indices[..applied], &values[..applied], max);
            let mut targets = start();
            // SAFETY: every index is in bounds.
            let result = unsafe {
                apply_indexed::<false, _, _, _>(
                    &mut targets,
                    &indices[..count],
                    InOrder::Slice(&values[..value_count]),
                    OpKernel::<MaxOp>::new(),
                )
            };
            assert_eq!((targets, result), (expected, Ok(())));
        }
    }
}
