//! The fused mask path: `x[predicate(x)] op= v` decided and written in one
//! pass over `x`, with no mask, no positions and no allocation. An array
//! value adds a read-only counting pass first (the entry layer checks the
//! value against the count before anything is written).

use ndarray::{ArrayView, ArrayViewMut, Dimension};

use crate::exec::kernel::Kernel;
use crate::exec::sys::cpu::Isa;
use crate::value::Broadcast;

/// How many elements of `view` `predicate` selects (a contiguous view on
/// `isa`'s vectors).
pub(crate) fn count_where<T, D: Dimension>(view: &ArrayView<'_, T, D>, mut predicate: impl FnMut(&T) -> bool, isa: Isa) -> usize {
    match view.as_slice_memory_order() {
        Some(elements) => count_slice_where(elements, predicate, isa),
        None => view.iter().filter(|e| predicate(e)).count(),
    }
}

/// How many of `elements` `predicate` selects, built for the widest vectors
/// `isa` has.
pub(crate) fn count_slice_where<T>(elements: &[T], predicate: impl FnMut(&T) -> bool, isa: Isa) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if isa.avx512f() {
            // SAFETY: `isa` says the processor has AVX-512F.
            return unsafe { count_slice_avx512(elements, predicate) };
        }
        if isa.avx2() {
            // SAFETY: `isa` says the processor has AVX2.
            return unsafe { count_slice_avx2(elements, predicate) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    count_slice(elements, predicate)
}

/// [`count_slice`] with AVX-512F.
///
/// # Safety
///
/// The processor has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn count_slice_avx512<T>(elements: &[T], predicate: impl FnMut(&T) -> bool) -> usize {
    count_slice(elements, predicate)
}

/// [`count_slice`] with AVX2.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn count_slice_avx2<T>(elements: &[T], predicate: impl FnMut(&T) -> bool) -> usize {
    count_slice(elements, predicate)
}

/// The loop of [`count_slice_where`].
#[cfg_attr(not(unoptimized), inline(always))]
fn count_slice<T>(elements: &[T], mut predicate: impl FnMut(&T) -> bool) -> usize {
    elements.iter().map(|e| usize::from(predicate(e))).sum()
}

/// Updates every element of `view` that `predicate` selects with `value`,
/// in one pass: the kernels on plain data take every element without a
/// branch (a mask is as good as random to a branch predictor).
#[inline]
pub(crate) fn write_scalar_where<T, D: Dimension, K: Kernel<T>>(
    mut view: ArrayViewMut<'_, T, D>,
    mut predicate: impl FnMut(&T) -> bool,
    value: &T,
    mut kernel: K,
) {
    // A contiguous target as a plain loop over a slice, which vectorizes.
    match view.as_slice_memory_order_mut() {
        Some(elements) => write_slice(elements, predicate, value, kernel),
        None => view.map_inplace(|e| kernel.apply_where(predicate(e), e, value)),
    }
}

/// [`write_scalar_where`] on a contiguous run of elements, built for the
/// widest vectors `isa` has: the loop is a compare and a select per
/// element, so its speed is its vectors' width until memory bounds it.
pub(crate) fn write_slice_where<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, value: &T, kernel: K, isa: Isa) {
    #[cfg(target_arch = "x86_64")]
    {
        if isa.avx512f() {
            // SAFETY: `isa` says the processor has AVX-512F (only
            // detection says so).
            return unsafe { write_slice_where_avx512(elements, predicate, value, kernel) };
        }
        if isa.avx2() {
            // SAFETY: `isa` says the processor has AVX2.
            return unsafe { write_slice_where_avx2(elements, predicate, value, kernel) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    write_slice(elements, predicate, value, kernel);
}

/// [`write_slice`] with AVX-512F.
///
/// # Safety
///
/// The processor has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn write_slice_where_avx512<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, value: &T, kernel: K) {
    write_slice(elements, predicate, value, kernel);
}

/// [`write_slice`] with AVX2.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn write_slice_where_avx2<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, value: &T, kernel: K) {
    write_slice(elements, predicate, value, kernel);
}

/// The loop over contiguous elements, inlined into each build of
/// [`write_slice_where`] and into [`write_scalar_where`].
#[cfg_attr(not(unoptimized), inline(always))]
fn write_slice<T, K: Kernel<T>>(elements: &mut [T], mut predicate: impl FnMut(&T) -> bool, value: &T, mut kernel: K) {
    for e in elements {
        kernel.apply_where(predicate(e), e, value);
    }
}

/// Updates the elements of `view` that `predicate` selects, in C order,
/// with the values of `values`, which hold one per selected element (a
/// contiguous view on `isa`'s vectors).
pub(crate) fn write_values_where<T, D: Dimension, K: Kernel<T>>(
    mut view: ArrayViewMut<'_, T, D>,
    mut predicate: impl FnMut(&T) -> bool,
    values: &Broadcast<'_, T>,
    mut kernel: K,
    isa: Isa,
) {
    // Values are consumed in C order, so the target is walked in C order
    // too (`map_inplace` would take memory order).
    let (Some(elements), Some(crate::value::InOrder::Slice(slice))) = (view.as_slice_mut(), values.in_order()) else {
        let mut next = values.elements();
        for e in view.iter_mut() {
            if predicate(e) {
                kernel.apply(e, next.next().expect("one value per selected element"));
            }
        }
        return;
    };
    write_values_slice_where(elements, predicate, slice, kernel, isa);
}

/// [`write_values_where`] on contiguous elements and their values in order,
/// built for the widest vectors `isa` has (the tests, 64 at a time into a
/// bit set, are compares into a mask register there).
pub(crate) fn write_values_slice_where<T, K: Kernel<T>>(
    elements: &mut [T],
    predicate: impl FnMut(&T) -> bool,
    values: &[T],
    kernel: K,
    isa: Isa,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if isa.avx512f() {
            // SAFETY: `isa` says the processor has AVX-512F.
            return unsafe { write_values_slice_avx512(elements, predicate, values, kernel) };
        }
        if isa.avx2() {
            // SAFETY: `isa` says the processor has AVX2.
            return unsafe { write_values_slice_avx2(elements, predicate, values, kernel) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    write_values_slice(elements, predicate, values, kernel);
}

/// [`write_values_slice`] with AVX-512F.
///
/// # Safety
///
/// The processor has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn write_values_slice_avx512<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, values: &[T], kernel: K) {
    write_values_slice(elements, predicate, values, kernel);
}

/// [`write_values_slice`] with AVX2.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn write_values_slice_avx2<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, values: &[T], kernel: K) {
    write_values_slice(elements, predicate, values, kernel);
}

/// The loop of [`write_values_slice_where`]: 64 tests at a time into a bit
/// set, then one write per set bit (no branch per element to mispredict).
#[cfg_attr(not(unoptimized), inline(always))]
fn write_values_slice<T, K: Kernel<T>>(elements: &mut [T], mut predicate: impl FnMut(&T) -> bool, values: &[T], mut kernel: K) {
    let mut next = values.iter();
    for chunk in elements.chunks_mut(64) {
        let mut bits = chunk
            .iter()
            .enumerate()
            .fold(0u64, |bits, (k, e)| bits | (u64::from(predicate(e)) << k));
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            kernel.apply(&mut chunk[k], next.next().expect("one value per selected element"));
            bits &= bits - 1;
        }
    }
}
