//! A block of 64-bit indices compacted to the updates that land in one
//! thread's range, sixteen at a time with AVX-512F: the positions computed,
//! tested against the range and packed with their 32-bit values by
//! `vpcompressd`, where one index at a time costs a dozen instructions
//! (docs/performance.md, "Splitting by destination: float sums, sets,
//! pairs").

use std::mem::MaybeUninit;

use crate::exec::sys::cpu::Isa;

/// Indices compacted at once: one register of 32-bit offsets.
pub(crate) const LANES: usize = 16;

/// The updates among the first `done` of `index` (whole registers of
/// [`LANES`]; the caller takes the rest one at a time) that land in
/// `[base, base + range)`, in order: their offsets from `base` written to
/// `offsets`, their values to `picked`. `Some((done, taken))`, `taken` of
/// them kept, where `isa` has AVX-512F; `None` (nothing written)
/// otherwise.
///
/// The indices are positions along an axis of `len` elements, negative
/// ones counted from its end, and the range lies inside the axis, so that
/// an index out of `[-len, len)` lands in no range (as
/// [`IndexInt::position`](crate::index::IndexInt::position) does it: the
/// unsigned test rejects what wraps below `base`).
///
/// # Panics
///
/// When `values`, `offsets` or `picked` is shorter than `index`, or
/// `range` passes `u32::MAX`.
pub(crate) fn compact_in_range(
    index: &[i64],
    values: &[u32],
    (len, base, range): (usize, usize, usize),
    offsets: &mut [u32],
    picked: &mut [MaybeUninit<u32>],
    isa: Isa,
) -> Option<(usize, usize)> {
    assert!(
        values.len() >= index.len() && offsets.len() >= index.len() && picked.len() >= index.len(),
        "a value and a slot for each index"
    );
    assert!(u32::try_from(range).is_ok(), "offsets within a range fit in u32");
    debug_assert!(
        base.checked_add(range).is_some_and(|end| end <= len),
        "the range lies inside the axis"
    );
    #[cfg(target_arch = "x86_64")]
    if isa.avx512f() {
        let done = index.len() / LANES * LANES;
        // SAFETY: `isa` says the processor has AVX-512F (only detection
        // says so); the lengths were checked above.
        return Some((done, unsafe {
            compact_16(&index[..done], values, (len, base, range), offsets, picked)
        }));
    }
    let _ = (isa, len, base);
    None
}

/// [`compact_in_range`] of `index`, a whole number of registers.
///
/// # Safety
///
/// The processor has AVX-512F; `index.len()` is a multiple of [`LANES`];
/// `values`, `offsets` and `picked` are at least as long as `index`;
/// `range` fits in `u32`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn compact_16(
    index: &[i64],
    values: &[u32],
    (len, base, range): (usize, usize, usize),
    offsets: &mut [u32],
    picked: &mut [MaybeUninit<u32>],
) -> usize {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_castsi256_si512, _mm512_cmplt_epu64_mask, _mm512_cvtepi64_epi32,
        _mm512_inserti64x4, _mm512_loadu_si512, _mm512_maskz_compress_epi32, _mm512_set1_epi64, _mm512_srai_epi64, _mm512_storeu_si512,
        _mm512_sub_epi64,
    };
    // Lengths and offsets of one array's elements fit in `i64`.
    let (len_lanes, base_lanes, range_lanes) = (
        _mm512_set1_epi64(len as i64),
        _mm512_set1_epi64(base as i64),
        _mm512_set1_epi64(range as i64),
    );
    // The offset from `base` of each of eight indices, and which land in
    // the range: a negative index plus `len` (its sign spread over the lane
    // selects `len`), less `base`, compared unsigned.
    let in_range = |indices: __m512i| {
        let position = _mm512_add_epi64(indices, _mm512_and_si512(_mm512_srai_epi64::<63>(indices), len_lanes));
        let offset = _mm512_sub_epi64(position, base_lanes);
        (offset, _mm512_cmplt_epu64_mask(offset, range_lanes))
    };
    let mut taken = 0;
    for start in (0..index.len()).step_by(LANES) {
        // SAFETY: `start + LANES <= index.len()` (a whole number of
        // registers), so the loads read sixteen indices and values inside
        // the slices; the stores write sixteen slots from `taken <= start`,
        // inside `index.len()`, which `offsets` and `picked` reach (the
        // caller's guarantee). Unaligned loads and stores ask no
        // alignment; `i64`, `u32` and the registers are plain bits.
        unsafe {
            let (low, low_in) = in_range(_mm512_loadu_si512(index.as_ptr().add(start).cast()));
            let (high, high_in) = in_range(_mm512_loadu_si512(index.as_ptr().add(start + 8).cast()));
            // The low 32 bits of each offset: those kept are below `range`.
            let narrow = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(low)), _mm512_cvtepi64_epi32(high));
            let kept = u16::from(low_in) | (u16::from(high_in) << 8);
            let value = _mm512_loadu_si512(values.as_ptr().add(start).cast());
            _mm512_storeu_si512(offsets.as_mut_ptr().add(taken).cast(), _mm512_maskz_compress_epi32(kept, narrow));
            _mm512_storeu_si512(picked.as_mut_ptr().add(taken).cast(), _mm512_maskz_compress_epi32(kept, value));
            taken += kept.count_ones() as usize;
        }
    }
    taken
}

#[cfg(test)]
mod tests {
    use std::mem::MaybeUninit;

    use super::{LANES, compact_in_range};
    use crate::exec::sys::cpu::Isa;

    /// The packed updates are those a plain loop keeps, in order, among
    /// the whole registers of the indices given, for ranges at the axis's
    /// start, middle and end, with negative indices and indices out of
    /// bounds either way; nothing is read past the indices given (the
    /// indices after them would be kept) or stored past the slots given
    /// (as many as the indices).
    #[test]
    fn compacts_like_a_plain_loop() {
        const MARK: u32 = 0xdead_beef;
        let isa = Isa::detect();
        let len = 100usize;
        let mut index: Vec<i64> = (0..203).map(|k| (k * 37 % 211) as i64 - 105).collect();
        index.extend([i64::MIN, i64::MAX, -(len as i64) - 1, len as i64, -(len as i64), len as i64 - 1]);
        let values: Vec<u32> = (0..index.len() as u32).map(|v| v * 3 + 1).collect();
        let mut compacted = false;
        for (base, range) in [(0, 50), (50, 50), (33, 34), (0, len), (99, 1)] {
            for count in [0, 5, 16, 17, 100, index.len()] {
                let (index, values) = (&index[..count], &values[..count]);
                let mut offsets = vec![MARK; count + LANES];
                let mut picked = vec![MaybeUninit::new(MARK); count + LANES];
                let packed = compact_in_range(index, values, (len, base, range), &mut offsets[..count], &mut picked[..count], isa);
                let Some((done, taken)) = packed else {
                    assert!(!isa.avx512f(), "AVX-512F compacts");
                    continue;
                };
                compacted = true;
                assert_eq!(done, count / LANES * LANES, "whole registers");
                let expected: Vec<(u32, u32)> = index[..done]
                    .iter()
                    .zip(values)
                    .filter(|(i, _)| (-(len as i64)..len as i64).contains(i))
                    .map(|(&i, &v)| ((if i < 0 { i + len as i64 } else { i }) as usize, v))
                    .filter(|&(position, _)| (base..base + range).contains(&position))
                    .map(|(position, v)| ((position - base) as u32, v))
                    .collect();
                // SAFETY: every slot was initialised (`MARK`) or written.
                let picked: Vec<u32> = picked.iter().map(|slot| unsafe { slot.assume_init() }).collect();
                let got: Vec<(u32, u32)> = offsets.iter().copied().zip(picked.iter().copied()).take(taken).collect();
                assert_eq!(got, expected, "range {base}..+{range}, {count} indices");
                assert!(
                    offsets[count..].iter().chain(&picked[count..]).all(|&slot| slot == MARK),
                    "a store past the slots"
                );
            }
        }
        assert_eq!(compacted, isa.avx512f());
        let none = compact_in_range(&[1], &[1], (len, 0, len), &mut [0], &mut [MaybeUninit::new(0)], Isa::baseline());
        assert_eq!(none, None, "nothing compacts sixteen at a time without AVX-512F");
    }
}
