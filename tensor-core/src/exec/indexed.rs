//! Accumulations by one index array into a contiguous axis, `axis[idx[k]]
//! op= v[k]` in index order: the loop of the checked-in-loop updates and of
//! the index chunks of `parallel::partitioned`.
//!
//! It runs in blocks of [`BLOCK`] updates, each block asking for the indices
//! and values [`prefetch::STREAM_AHEAD`] updates ahead: the random updates
//! keep the core's outstanding misses busy, so the hardware's stream
//! prefetcher falls behind on the input streams. Where the processor has
//! AVX2 the loop runs a build for it: its three-operand instructions take
//! NumPy's NaN-propagating `max` from seven instructions to three.

use crate::exec::kernel::Kernel;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::prefetch;
use crate::index::IndexInt;
use crate::value::InOrder;

/// `targets[indices[k]] op= values[k]` in index order, each index checked
/// just before it is applied: `Err(k)` for the place in `indices` of the
/// first out of bounds, the updates before it done. Updates beyond the
/// shorter of `indices` and a slice of values are not applied.
pub(crate) fn apply_checked<T, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    isa: Isa,
) -> Result<(), usize> {
    // SAFETY: checked: every index is tested before it is applied.
    unsafe { apply_indexed::<true, _, _, _>(targets, indices, values, kernel, isa) }
}

/// [`apply_checked`] with no check.
///
/// # Safety
///
/// Every index is in bounds of `targets`.
pub(crate) unsafe fn apply_in_bounds<T, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    isa: Isa,
) {
    // SAFETY: the caller's.
    let Ok(()) = (unsafe { apply_indexed::<false, _, _, _>(targets, indices, values, kernel, isa) }) else {
        unreachable!("an unchecked loop reports no index");
    };
}

/// The two loops: with `CHECKED`, each index is checked before it is
/// applied (see [`apply_checked`]).
///
/// # Safety
///
/// Without `CHECKED`, every index is in bounds of `targets`.
#[inline]
unsafe fn apply_indexed<const CHECKED: bool, T, I: IndexInt, K: Kernel<T>>(
    targets: &mut [T],
    indices: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    isa: Isa,
) -> Result<(), usize> {
    // SAFETY: the caller's; a slice of values is cut to the indices' length.
    unsafe {
        match values {
            InOrder::Scalar(value) => apply_each::<CHECKED, _, _, _, _>(targets, indices, Repeated(value), kernel, isa),
            InOrder::Slice(values) => {
                let indices = &indices[..indices.len().min(values.len())];
                apply_each::<CHECKED, _, _, _, _>(targets, indices, values, kernel, isa)
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
    #[cfg_attr(not(unoptimized), inline(always))]
    unsafe fn at(&self, _: usize) -> &'v T {
        self.0
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn prefetch_block(&self, _: usize) {}
}

impl<'v, T> Values<'v, T> for &'v [T] {
    #[cfg_attr(not(unoptimized), inline(always))]
    unsafe fn at(&self, k: usize) -> &'v T {
        // SAFETY: the caller's: `apply_each` has as many values as indices.
        unsafe { self.get_unchecked(k) }
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn prefetch_block(&self, k: usize) {
        prefetch::row(self.as_ptr().wrapping_add(k), BLOCK);
    }
}

/// `apply_indexed` over `indices.len()` values: [`apply_blocks`], built
/// for AVX2 where `isa` has it.
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
    isa: Isa,
) -> Result<(), usize> {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: `isa` says the processor has AVX2 (only detection says
        // so); the rest is the caller's.
        return unsafe { apply_blocks_avx2::<CHECKED, _, _, _, _>(targets, indices, values, kernel) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
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
/// rest to a loop that wraps negative ones without a branch. (A branch on
/// the sign at every index would be mispredicted half the time on indices
/// of mixed signs; the branchless loop costs them nothing more.)
///
/// # Safety
///
/// As [`apply_each`].
#[cfg_attr(not(unoptimized), inline(always))]
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
        let mut wrapped_from = 0;
        if direct {
            wrapped_from = block.len();
            for (j, &i) in block.iter().enumerate() {
                match i.direct_position(len) {
                    Some(position) => {
                        // SAFETY: a direct position is below `len` (its test).
                        let target = unsafe { targets.get_unchecked_mut(position) };
                        // SAFETY: `start + j` is the place of an index, so it has a value.
                        kernel.apply(target, unsafe { values.at(start + j) });
                    }
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
            // SAFETY: the index is in bounds, checked just before (with
            // `CHECKED`) or by the caller's guarantee, so its position is
            // below `len`.
            let target = unsafe { targets.get_unchecked_mut(i.position(len)) };
            // SAFETY: `k` is the place of an index, so it has a value.
            kernel.apply(target, unsafe { values.at(k) });
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

#[cfg(test)]
mod tests {
    use super::{BLOCK, Repeated, apply_blocks, apply_checked, apply_in_bounds};
    use crate::exec::kernel::{AddOp, Kernel, MaxOp, OpKernel};
    use crate::exec::sys::cpu::Isa;
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

    /// Through the entry points, with the AVX2 build where the processor has it.
    fn indexed<K: Kernel<f32>>(checked: bool, targets: &mut [f32], indices: &[i64], values: &[f32], kernel: K) -> Result<(), usize> {
        let (values, isa) = (InOrder::Slice(values), Isa::detect());
        if checked {
            return apply_checked(targets, indices, values, kernel, isa);
        }
        // SAFETY: unchecked only when every index is in bounds (`check`).
        unsafe { apply_in_bounds(targets, indices, values, kernel, isa) };
        Ok(())
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
            let result = apply_checked(
                &mut targets,
                &indices,
                InOrder::Scalar(&2.5),
                OpKernel::<AddOp>::new(),
                Isa::detect(),
            );
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
            unsafe {
                apply_in_bounds(
                    &mut targets,
                    &indices[..count],
                    InOrder::Slice(&values[..value_count]),
                    OpKernel::<MaxOp>::new(),
                    Isa::detect(),
                )
            };
            assert_eq!(targets, expected);
        }
    }
}
