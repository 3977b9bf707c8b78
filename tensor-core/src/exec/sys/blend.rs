//! Every other element of a run set a vector register at a time (a whole
//! cache line with AVX-512F, half of one with AVX2): each aligned block
//! inside the run loaded, the values blended into its written lanes, and
//! stored whole. Element by element, each line is still read before it is
//! written (the elements between must survive), but by the stores' reads
//! for ownership, eight or sixteen stores waiting on each; loaded first,
//! and asked for a kilobyte ahead, the reads run ahead as a copy's do
//! (docs/performance.md, "Every other element set by whole lines").

use crate::element::Bits;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::prefetch;

/// `run[2 * k] = values[k]` for every `k`, the elements between unchanged:
/// the lines inside `run` whole where `isa` has AVX-512F (a line a
/// register) or AVX2 (half a line a register), element by element
/// otherwise.
///
/// # Safety
///
/// `run` points at `2 * values.len() - 1` elements (none when `values` is
/// empty), valid for reads and writes, that nothing else accesses during
/// the call: those written and those between.
pub(crate) unsafe fn set_every_other<B: Bits>(run: *mut B, values: &[B], isa: Isa) {
    if values.is_empty() {
        return;
    }
    // SAFETY: the caller's guarantee: nothing else accesses the run, so a
    // unique borrow of it for the call is sound.
    let run = unsafe { std::slice::from_raw_parts_mut(run, 2 * values.len() - 1) };
    #[cfg(target_arch = "x86_64")]
    {
        if isa.avx512f() {
            // SAFETY: `isa` says the processor has AVX-512F (only
            // detection says so).
            return unsafe { set_every_other_64(run, values) };
        }
        if isa.avx2() {
            // SAFETY: `isa` says the processor has AVX2.
            return unsafe { set_every_other_32(run, values) };
        }
    }
    let _ = isa;
    set_every_other_from(run, values, 0);
}

/// The elements of `run` at even positions counted from `first`, its
/// position in the whole run, from `values` (the whole run's).
fn set_every_other_from<B: Bits>(run: &mut [B], values: &[B], first: usize) {
    let written = run.iter_mut().skip(first % 2).step_by(2);
    for (element, &value) in written.zip(&values[first.div_ceil(2)..]) {
        *element = value;
    }
}

/// `run[2 * k] = values[k]` for every `k` (`run` is `2 * values.len() - 1`
/// elements, else this panics): `run`'s aligned blocks of `V` each loaded,
/// blended with the values of their even positions, and stored whole; the
/// elements before the first block and after the last one by
/// [`set_every_other_from`]. `blend(old, half, first_even)` returns the
/// block `old` with `half` (exactly half a block's elements, so
/// `size_of::<V>() / 2` bytes) in its even lanes when `first_even`, else
/// in its odd ones. `size_of::<V>()` is an even multiple of `B`'s, so
/// every block starts on the same parity.
///
/// # Safety
///
/// `V` is plain bits: any pattern of its size is a valid `V`.
#[cfg(target_arch = "x86_64")]
// Forced in unoptimized builds too (the one exception to `unoptimized`):
// inlined, it runs with its `target_feature` caller's instructions, which
// its vector blocks need.
#[inline(always)]
unsafe fn by_blocks<B: Bits, V: Copy>(run: &mut [B], values: &[B], blend: impl Fn(V, &[B], bool) -> V) {
    let per_block = size_of::<V>() / size_of::<B>();
    // SAFETY: `B` (an unsigned integer) and `V` are plain bits (the
    // caller's guarantee): any pattern is valid for both, and
    // `align_to_mut` cuts whole, aligned blocks out of `run` for the
    // middle.
    let (head, middle, tail) = unsafe { run.align_to_mut::<V>() };
    set_every_other_from(head, values, 0);
    let first_block = head.len();
    let first_even = first_block.is_multiple_of(2);
    for (l, block) in middle.iter_mut().enumerate() {
        prefetch::element((&raw const *block).wrapping_byte_add(prefetch::BLEND_AHEAD));
        let start = first_block + l * per_block;
        let half = &values[start.div_ceil(2)..][..per_block / 2];
        // A volatile load: the compiler would otherwise fold the load, the
        // blend and the store into a masked store, which writes part of
        // the block and waits for its line's read as element stores do.
        // SAFETY: `block` is an aligned block of `run`.
        let old = unsafe { std::ptr::read_volatile(block) };
        *block = blend(old, half, first_even);
    }
    set_every_other_from(tail, values, first_block + middle.len() * per_block);
}

/// [`set_every_other`] a line at a time.
///
/// # Safety
///
/// The processor has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn set_every_other_64<B: Bits>(run: &mut [B], values: &[B]) {
    use std::arch::x86_64::{
        __m512i, _mm256_loadu_si256, _mm512_castsi256_si512, _mm512_mask_blend_epi32, _mm512_permutexvar_epi32, _mm512_setr_epi32,
    };
    // In 32-bit lanes: which value lane each line lane takes, and which
    // lanes are written when the line's first element is.
    let (spread, even) = match size_of::<B>() {
        4 => (_mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7), 0x5555),
        _ => (_mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7), 0x3333),
    };
    let blend = |old: __m512i, half: &[B], first_even: bool| {
        // SAFETY: `by_blocks` hands half a 64-byte block of elements: 32
        // bytes, read unaligned.
        let half = unsafe { _mm256_loadu_si256(half.as_ptr().cast()) };
        let spread = _mm512_permutexvar_epi32(spread, _mm512_castsi256_si512(half));
        _mm512_mask_blend_epi32(if first_even { even } else { !even }, old, spread)
    };
    // SAFETY: `__m512i` is plain bits.
    unsafe { by_blocks(run, values, blend) }
}

/// [`set_every_other`] half a line at a time.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn set_every_other_32<B: Bits>(run: &mut [B], values: &[B]) {
    use std::arch::x86_64::{
        __m256i, _mm_loadu_si128, _mm256_blendv_epi8, _mm256_castsi128_si256, _mm256_permutevar8x32_epi32, _mm256_setr_epi32,
        _mm256_xor_si256,
    };
    // In 32-bit lanes: which value lane each block lane takes, and which
    // lanes are written (all ones) when the block's first element is.
    let (spread, even) = match size_of::<B>() {
        4 => (
            _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3),
            _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0),
        ),
        _ => (
            _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3),
            _mm256_setr_epi32(-1, -1, 0, 0, -1, -1, 0, 0),
        ),
    };
    let odd = _mm256_xor_si256(even, _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, -1));
    let blend = |old: __m256i, half: &[B], first_even: bool| {
        // SAFETY: `by_blocks` hands half a 32-byte block of elements: 16
        // bytes, read unaligned.
        let half = unsafe { _mm_loadu_si128(half.as_ptr().cast()) };
        let spread = _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(half), spread);
        _mm256_blendv_epi8(old, spread, if first_even { even } else { odd })
    };
    // SAFETY: `__m256i` is plain bits.
    unsafe { by_blocks(run, values, blend) }
}

#[cfg(test)]
mod tests {
    use super::set_every_other;

    use crate::element::Bits;
    use crate::exec::sys::cpu::{Isa, IsaCeiling};
    #[cfg(all(target_os = "linux", not(miri)))]
    use crate::exec::sys::guarded::Guarded;

    /// Every length and offset from a line, with each instruction set this
    /// processor has as the widest used: the values at even positions, the
    /// elements between and around the run unchanged.
    fn equals_a_loop<B: Bits + PartialEq + std::fmt::Debug>(before: impl Fn(usize) -> B, value: impl Fn(usize) -> B) {
        let width = size_of::<B>();
        let (isas, counts): (Vec<Isa>, Vec<usize>) = if cfg!(miri) {
            (vec![Isa::baseline()], vec![0, 1, 2, 5])
        } else {
            let ceilings = [IsaCeiling::Baseline, IsaCeiling::Avx, IsaCeiling::Avx2, IsaCeiling::Avx512f];
            (
                ceilings.map(|ceiling| Isa::detect().at_most(ceiling)).into(),
                (0..60).chain([500, 1001]).collect(),
            )
        };
        for isa in isas {
            for &count in &counts {
                for offset in 0..64 / width + 1 {
                    let values: Vec<B> = (0..count).map(&value).collect();
                    let len = offset + 2 * count + 3;
                    let mut buffer: Vec<B> = (0..len).map(&before).collect();
                    let mut expected = buffer.clone();
                    for (k, &v) in values.iter().enumerate() {
                        expected[offset + 2 * k] = v;
                    }
                    // SAFETY: from `offset`, `buffer` holds at least
                    // `2 * count - 1` elements, borrowed by nothing else.
                    unsafe { set_every_other(buffer.as_mut_ptr().add(offset), &values, isa) };
                    assert_eq!(buffer, expected, "{count} values at {offset}");
                }
            }
        }
    }

    #[test]
    fn every_other_element_set_equals_a_loop() {
        equals_a_loop(|k| k as u32, |k| u32::MAX - k as u32);
        // Both halves of each value differ from value to value, so a lane
        // taken from the wrong value shows.
        equals_a_loop(|k| k as u64, |k| u64::MAX - ((k as u64) << 32) - 3 * k as u64);
    }

    /// Runs and values that start on the first element after an
    /// unreadable page, or end on the last element before one, with every
    /// instruction set this processor has: no block of a vector path
    /// reaches past the run, and no load past the values (a reach faults).
    /// The loop comparison cannot see the first, since such a block would
    /// store the elements past the run unchanged.
    #[cfg(all(target_os = "linux", not(miri)))]
    #[test]
    fn runs_against_unmapped_pages_are_set_inside_them() {
        fn check<B: Bits + PartialEq + std::fmt::Debug>(value: impl Fn(usize) -> B) {
            let (mut targets, mut sources) = (Guarded::new(4), Guarded::new(2));
            let (targets, sources) = (targets.elements::<B>(), sources.elements::<B>());
            let ceilings = [IsaCeiling::Baseline, IsaCeiling::Avx, IsaCeiling::Avx2, IsaCeiling::Avx512f];
            for isa in ceilings.map(|ceiling| Isa::detect().at_most(ceiling)) {
                for count in (1..70).chain([500, sources.len()]) {
                    let run = 2 * count - 1;
                    for (at, from) in [(0, 0), (targets.len() - run, sources.len() - count)] {
                        let values = &mut sources[from..from + count];
                        for (k, v) in values.iter_mut().enumerate() {
                            *v = value(k + count);
                        }
                        let mut expected = targets.to_vec();
                        for (k, &v) in values.iter().enumerate() {
                            expected[at + 2 * k] = v;
                        }
                        // SAFETY: `run` elements from `at`, inside
                        // `targets`, which nothing else borrows.
                        unsafe { set_every_other(targets[at..].as_mut_ptr(), values, isa) };
                        assert!(*targets == expected[..], "{count} values at {at}");
                    }
                }
            }
        }
        check(|k| u32::MAX - k as u32);
        check(|k| u64::MAX - ((k as u64) << 32) - 3 * k as u64);
    }
}
