//! Filling a large contiguous run with one value: non-temporal stores for
//! the primitive types, which skip reading each cache line before writing
//! it (a plain fill reads as much as it writes).

use std::any::TypeId;

/// Below this many bytes a plain fill is as fast.
const STREAMING_THRESHOLD: usize = 1 << 20;

/// `targets[..] = value`.
pub(crate) fn fill<T: Clone + 'static>(targets: &mut [T], value: &T) {
    if std::mem::size_of_val(targets) >= STREAMING_THRESHOLD
        && let Some(bits) = plain_bits(value)
    {
        // SAFETY: `plain_bits` recognised `T` as a primitive whose every bit
        // pattern of `size_of::<T>()` bytes is `bits`' low bytes.
        return unsafe { stream(targets, bits) };
    }
    targets.fill(value.clone());
}

/// The bits of a primitive number (no padding, no drop), widened to 64.
fn plain_bits<T: 'static>(value: &T) -> Option<u64> {
    let id = TypeId::of::<T>();
    let value = value as *const T;
    // SAFETY (each read): `T` is exactly the type read, checked by `TypeId`.
    unsafe {
        Some(match id {
            id if id == TypeId::of::<f32>() => u64::from((*(value as *const f32)).to_bits()),
            id if id == TypeId::of::<f64>() => (*(value as *const f64)).to_bits(),
            id if id == TypeId::of::<i32>() || id == TypeId::of::<u32>() => u64::from(*(value as *const u32)),
            id if id == TypeId::of::<i64>() || id == TypeId::of::<u64>() => *(value as *const u64),
            id if id == TypeId::of::<isize>() || id == TypeId::of::<usize>() => *(value as *const usize) as u64,
            _ => return None,
        })
    }
}

/// Streams the value whose bits are `bits` over `targets`.
///
/// # Safety
///
/// `T` is a 4- or 8-byte primitive whose value has these bits.
#[cfg(target_arch = "x86_64")]
unsafe fn stream<T>(targets: &mut [T], bits: u64) {
    use std::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_sfence, _mm_stream_si128};
    let pattern = match std::mem::size_of::<T>() {
        4 => bits | (bits << 32),
        _ => bits,
    } as i64;
    // SAFETY: every `T` here is a primitive (the caller's guarantee), so any
    // byte sequence that repeats its bits is a valid run of them; the
    // aligned middle is a whole number of 16-byte blocks of `targets`.
    unsafe {
        let (head, middle, tail) = targets.align_to_mut::<__m128i>();
        let fill_edge = |edge: &mut [T]| {
            let bytes = std::slice::from_raw_parts_mut(edge.as_mut_ptr() as *mut u8, std::mem::size_of_val(edge));
            for (k, byte) in bytes.iter_mut().enumerate() {
                *byte = (pattern as u64 >> (8 * (k % 8))) as u8;
            }
        };
        fill_edge(head);
        fill_edge(tail);
        let block = _mm_set_epi64x(pattern, pattern);
        for slot in middle {
            _mm_stream_si128(slot, block);
        }
        // Streaming stores are weakly ordered: fence before anyone reads.
        _mm_sfence();
    }
}

/// Elsewhere, a plain fill of the same bits.
///
/// # Safety
///
/// As on x86-64.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn stream<T>(targets: &mut [T], bits: u64) {
    let width = std::mem::size_of::<T>();
    // SAFETY: as on x86-64: any repetition of the value's bytes is valid.
    let bytes = unsafe { std::slice::from_raw_parts_mut(targets.as_mut_ptr() as *mut u8, std::mem::size_of_val(targets)) };
    for (k, byte) in bytes.iter_mut().enumerate() {
        *byte = (bits >> (8 * (k % width))) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn streamed_fills_equal_plain_fills_for_every_primitive() {
        // Odd lengths and offsets exercise the unaligned head and tail.
        let len = (1 << 20) / 4 + 7;
        let mut f = vec![0.0f32; len + 3];
        fill(&mut f[3..], &-1.5f32);
        assert!(f[3..].iter().all(|&v| v == -1.5) && f[..3] == [0.0; 3]);
        let mut d = vec![0.0f64; len];
        fill(&mut d[1..], &2.25f64);
        assert!(d[1..].iter().all(|&v| v == 2.25) && d[0] == 0.0);
        let mut i = vec![0i32; len];
        fill(&mut i[5..], &-7);
        assert!(i[5..].iter().all(|&v| v == -7));
        let mut u = vec![0u64; len];
        fill(&mut u, &u64::MAX);
        assert!(u.iter().all(|&v| v == u64::MAX));
        // A type it does not know falls back to a plain fill.
        let mut p = vec![(0u8, 0u32); len];
        fill(&mut p, &(1, 2));
        assert!(p.iter().all(|&v| v == (1, 2)));
    }
}
