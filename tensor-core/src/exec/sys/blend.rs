//! Every other element of a run set a whole cache line at a time: each
//! line inside the run loaded, the values blended into its written lanes,
//! and stored whole. Element by element, each line is still read before it
//! is written (the elements between must survive), but by the stores'
//! reads for ownership, eight or sixteen stores waiting on each; loaded
//! first, the reads run ahead as a copy's do (docs/performance.md, "Every
//! other element set by whole lines").

use crate::element::Bits;
use crate::exec::sys::cpu::Isa;

/// `run[2 * k] = values[k]` for every `k`, the elements between unchanged:
/// the lines inside `run` whole where `isa` has AVX-512F, element by
/// element otherwise.
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
    if isa.avx512f() {
        // SAFETY: `isa` says the processor has AVX-512F (only detection
        // says so).
        return unsafe { set_every_other_64(run, values) };
    }
    let _ = isa;
    set_every_other_from(run, values, 0);
}

/// The elements of `run` at even positions counted from `first`, its
/// position in the whole run, from `values` (the whole run's).
fn set_every_other_from<B: Bits>(run: &mut [B], values: &[B], first: usize) {
    for (k, element) in run.iter_mut().enumerate() {
        let at = first + k;
        if at.is_multiple_of(2) {
            *element = values[at / 2];
        }
    }
}

/// [`set_every_other`] a line at a time.
///
/// # Safety
///
/// The processor has AVX-512F; `run` is `2 * values.len() - 1` elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn set_every_other_64<B: Bits>(run: &mut [B], values: &[B]) {
    use std::arch::x86_64::{
        __m512i, _mm256_loadu_si256, _mm512_castsi256_si512, _mm512_mask_blend_epi32, _mm512_permutexvar_epi32, _mm512_setr_epi32,
    };
    // In 32-bit lanes: which value lane each line lane takes, and which
    // lanes are written, for a line whose first element is written (even)
    // or not (odd).
    let (spread, even, odd) = match size_of::<B>() {
        4 => (_mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7), 0x5555, 0xaaaa),
        _ => (_mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7), 0x3333, 0xcccc),
    };
    let per_line = 64 / size_of::<B>();
    // SAFETY: `B` (an unsigned integer) and `__m512i` are plain bits: any
    // pattern is valid for both, and `align_to_mut` cuts whole, aligned
    // 64-byte blocks out of `run` for the middle.
    let (head, middle, tail) = unsafe { run.align_to_mut::<__m512i>() };
    set_every_other_from(head, values, 0);
    let first_line = head.len();
    // Lines are an even number of elements, so every line starts on the
    // same parity.
    let written = if first_line.is_multiple_of(2) { even } else { odd };
    for (l, line) in middle.iter_mut().enumerate() {
        let start = first_line + l * per_line;
        // The line's values: half a line, from the first even position.
        let half = &values[start.div_ceil(2)..][..per_line / 2];
        // SAFETY: `half` is 32 bytes of `values`, read unaligned.
        let half = unsafe { _mm256_loadu_si256(half.as_ptr().cast()) };
        let spread = _mm512_permutexvar_epi32(spread, _mm512_castsi256_si512(half));
        // A volatile load: the compiler would otherwise fold the load, the
        // blend and the store into a masked store, which writes part of
        // the line and waits for its read as element stores do.
        // SAFETY: `line` is an aligned 64-byte block of `run`.
        let old = unsafe { std::ptr::read_volatile(line) };
        *line = _mm512_mask_blend_epi32(written, old, spread);
    }
    set_every_other_from(tail, values, first_line + middle.len() * per_line);
}

#[cfg(test)]
mod tests {
    use super::set_every_other;

    use crate::element::Bits;
    use crate::exec::sys::cpu::Isa;

    /// Every length and offset from a line, with every instruction set this
    /// processor has: the values at even positions, the elements between
    /// and around the run unchanged.
    fn equals_a_loop<B: Bits + PartialEq + std::fmt::Debug>(before: impl Fn(usize) -> B, value: impl Fn(usize) -> B) {
        let width = size_of::<B>();
        let (isas, counts): (&[Isa], Vec<usize>) = if cfg!(miri) {
            (&[Isa::baseline()], vec![0, 1, 2, 5])
        } else {
            (&[Isa::baseline(), Isa::detect()], (0..60).chain([500, 1001]).collect())
        };
        for &isa in isas {
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
        equals_a_loop(|k| k as u64, |k| u64::MAX - ((k as u64) << 32));
    }
}
