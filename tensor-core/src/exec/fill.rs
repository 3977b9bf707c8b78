//! Large writes with non-temporal stores for the primitive types, which
//! skip reading each cache line before writing it (a plain fill or copy
//! reads as much as it writes): a run filled with one value, and runs
//! copied as rows of a large update.

use std::any::TypeId;

/// Below this many bytes a plain fill is as fast; below it in all, an
/// update stays in the cache, where the next reader wants it.
pub(crate) const STREAMING_THRESHOLD: usize = 1 << 20;

/// Rows shorter than this are copied plainly: streaming partial cache lines
/// costs more than it saves. W7's 512-byte rows (8 lines) gain: 0.49-0.53
/// -> 0.34-0.36 ms on an EPYC.
const STREAMING_ROW: usize = 1 << 9;

/// `targets[..] = value`. Large fills stream even for zero, where `memset`
/// would do: on this machine `memset` of 47 MB took 1.65 ms with the
/// region in its (huge, shared) L3 and 4.8 ms without, streaming 1.9 ms
/// either way.
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

/// Orders the stores of the rows [`copy_row`] streamed before anything
/// after it, once, when dropped. Streaming stores are weakly ordered, and
/// a fence waits for them to drain: one per row cost W4 a third of its
/// time, so an update holds one of these for all its rows.
pub(crate) struct StreamFence;

impl Drop for StreamFence {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `sfence` has no preconditions.
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }
}

/// `targets.clone_from_slice(values)`, one row of an update of at least
/// [`STREAMING_THRESHOLD`] bytes; its stores are ordered when `fence` drops.
pub(crate) fn copy_row<T: Clone + 'static>(targets: &mut [T], values: &[T], _fence: &StreamFence) {
    assert_eq!(targets.len(), values.len(), "a row and its values have one length");
    if std::mem::size_of_val(targets) >= STREAMING_ROW && is_plain::<T>() {
        // SAFETY: `T` is a primitive number (no padding, no drop, every bit
        // pattern valid), and the lengths are equal.
        return unsafe { stream_copy(targets.as_mut_ptr(), values) };
    }
    targets.clone_from_slice(values);
}

/// Whether `T` is a primitive number of 4 or 8 bytes.
pub(crate) fn is_plain<T: 'static>() -> bool {
    let plain = [
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<i32>(),
        TypeId::of::<u32>(),
        TypeId::of::<i64>(),
        TypeId::of::<u64>(),
        TypeId::of::<isize>(),
        TypeId::of::<usize>(),
    ];
    plain.contains(&TypeId::of::<T>())
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
    let pattern = match std::mem::size_of::<T>() {
        4 => bits | (bits << 32),
        _ => bits,
    } as i64;
    // 32-byte streaming stores where the processor has them: on an EPYC,
    // 16-byte ones top out at 70 GB/s and 32-byte ones reach memset's 99
    // (W3b, a 50 MB zero fill: 0.69 -> 0.50 ms).
    // SAFETY: the caller's guarantee, passed on.
    unsafe {
        if std::is_x86_feature_detected!("avx") {
            stream_32(targets, pattern);
        } else {
            stream_16(targets, pattern);
        }
        // Streaming stores are weakly ordered: fence before anyone reads.
        std::arch::x86_64::_mm_sfence();
    }
}

/// `stream` with 32-byte stores (AVX).
///
/// # Safety
///
/// As `stream`'s, with `pattern` the value's bits repeated over 8 bytes,
/// on a processor with AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn stream_32<T>(targets: &mut [T], pattern: i64) {
    use std::arch::x86_64::{__m256i, _mm256_set1_epi64x, _mm256_stream_si256};
    // SAFETY: any byte sequence that repeats the value's bits is a valid run
    // of `T`s (the caller's guarantee); the aligned middle is a whole
    // number of 32-byte blocks of `targets`.
    unsafe {
        let (head, middle, tail) = targets.align_to_mut::<__m256i>();
        fill_bytes(head, pattern);
        fill_bytes(tail, pattern);
        let block = _mm256_set1_epi64x(pattern);
        for slot in middle {
            _mm256_stream_si256(slot, block);
        }
    }
}

/// `stream` with 16-byte stores (SSE2, always there on x86-64).
///
/// # Safety
///
/// As `stream_32`'s, without AVX.
#[cfg(target_arch = "x86_64")]
unsafe fn stream_16<T>(targets: &mut [T], pattern: i64) {
    use std::arch::x86_64::{__m128i, _mm_set1_epi64x, _mm_stream_si128};
    // SAFETY: as in `stream_32`, with 16-byte blocks.
    unsafe {
        let (head, middle, tail) = targets.align_to_mut::<__m128i>();
        fill_bytes(head, pattern);
        fill_bytes(tail, pattern);
        let block = _mm_set1_epi64x(pattern);
        for slot in middle {
            _mm_stream_si128(slot, block);
        }
    }
}

/// Writes `pattern`'s bytes, repeated, over `edge` (a few elements).
///
/// # Safety
///
/// Any repetition of `pattern`'s bytes is a valid run of `T`s.
#[cfg(target_arch = "x86_64")]
unsafe fn fill_bytes<T>(edge: &mut [T], pattern: i64) {
    // SAFETY: `edge`'s bytes, written with values valid for `T` (the caller's guarantee).
    let bytes = unsafe { std::slice::from_raw_parts_mut(edge.as_mut_ptr() as *mut u8, std::mem::size_of_val(edge)) };
    for (k, byte) in bytes.iter_mut().enumerate() {
        *byte = (pattern as u64 >> (8 * (k % 8))) as u8;
    }
}

/// Copies `values` to the `values.len()` elements from `targets` with
/// streaming stores, not yet ordered (see [`StreamFence`]).
///
/// # Safety
///
/// `T` is a primitive number (copying its bytes copies it), and `targets`
/// is valid for writes of `values.len()` elements that nothing else
/// borrows (initialized or not).
#[cfg(target_arch = "x86_64")]
unsafe fn stream_copy<T>(targets: *mut T, values: &[T]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    let (len, width) = (values.len(), std::mem::size_of::<T>());
    // Elements before the first 16-byte boundary, then whole 16-byte
    // blocks, then the rest.
    let head = targets.align_offset(16).min(len);
    let blocks = (len - head) * width / 16;
    let tail = head + blocks * 16 / width;
    // SAFETY: byte copies of primitives (the caller's guarantee), all
    // inside the `len` elements from `targets`; the blocks' destinations
    // are 16-byte aligned, their sources read unaligned.
    unsafe {
        std::ptr::copy_nonoverlapping(values.as_ptr(), targets, head);
        let (destination, source) = (targets.add(head) as *mut __m128i, values.as_ptr().add(head) as *const __m128i);
        for k in 0..blocks {
            _mm_stream_si128(destination.add(k), _mm_loadu_si128(source.add(k)));
        }
        std::ptr::copy_nonoverlapping(values.as_ptr().add(tail), targets.add(tail), len - tail);
    }
}

/// Elsewhere, a plain copy.
///
/// # Safety
///
/// As on x86-64.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn stream_copy<T>(targets: *mut T, values: &[T]) {
    // SAFETY: byte copies of primitives (the caller's guarantee), in bounds.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), targets, values.len()) };
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
    use super::{StreamFence, copy_row, fill};

    #[test]
    fn streamed_row_copies_equal_plain_copies() {
        // Misaligned starts on both sides, odd lengths: every edge case of the aligned middle.
        for (offset, source_offset, len) in [(0, 0, 4096), (1, 0, 1001), (3, 2, 2047), (0, 1, 777)] {
            let values: Vec<f32> = (0..len + source_offset).map(|k| k as f32 * 0.5 - 7.0).collect();
            let mut row = vec![9.0f32; len + offset + 2];
            copy_row(&mut row[offset..offset + len], &values[source_offset..], &StreamFence);
            assert_eq!(&row[offset..offset + len], &values[source_offset..]);
            assert!(row[..offset].iter().chain(&row[offset + len..]).all(|&v| v == 9.0));
            let wide: Vec<i64> = (0..len as i64).map(|k| k * 3 - 5).collect();
            let mut target = vec![0i64; len + 1];
            copy_row(&mut target[1..], &wide, &StreamFence);
            assert_eq!(&target[1..], wide.as_slice());
        }
        // Other types copy plainly.
        let mut pairs = vec![(0u8, 0u32); 2000];
        copy_row(&mut pairs, &vec![(1, 2); 2000], &StreamFence);
        assert!(pairs.iter().all(|&v| v == (1, 2)));
    }

    /// `fill` and `copy_row` on `len` elements from `offset` of a buffer
    /// with canaries on both sides: the run equals the plain result and no
    /// neighbour is touched.
    fn check_streaming_edges<T: Copy + PartialEq + std::fmt::Debug + 'static>(value: T, canary: T, source: impl Fn(usize) -> T) {
        let width = std::mem::size_of::<T>();
        // Lengths around both thresholds (in elements), with head and tail
        // lengths of every size the 32-byte alignment can leave.
        let around = |bytes: usize| (bytes / width).saturating_sub(5)..bytes / width + 5;
        for len in around(super::STREAMING_ROW).chain(around(super::STREAMING_THRESHOLD)) {
            for offset in 0..32 / width + 1 {
                let mut buffer = vec![canary; offset + len + 3];
                fill(&mut buffer[offset..offset + len], &value);
                assert!(buffer[offset..offset + len].iter().all(|&v| v == value), "fill {len} at {offset}");
                assert!(
                    buffer[..offset].iter().chain(&buffer[offset + len..]).all(|&v| v == canary),
                    "fill {len} at {offset}"
                );
                let values: Vec<T> = (0..len + 1).map(&source).collect();
                let mut buffer = vec![canary; offset + len + 3];
                copy_row(
                    &mut buffer[offset..offset + len],
                    &values[offset % 2..len + offset % 2],
                    &StreamFence,
                );
                assert_eq!(
                    &buffer[offset..offset + len],
                    &values[offset % 2..len + offset % 2],
                    "copy {len} at {offset}"
                );
                assert!(
                    buffer[..offset].iter().chain(&buffer[offset + len..]).all(|&v| v == canary),
                    "copy {len} at {offset}"
                );
            }
        }
    }

    #[test]
    fn streaming_writes_stay_inside_their_run_at_every_boundary() {
        // The SAFETY argument of `stream`/`stream_copy`: the aligned middle
        // is whole 16-byte blocks of the run, head and tail are the rest.
        check_streaming_edges(-1.5f32, 7.0, |k| k as f32);
        check_streaming_edges(2.25f64, 7.0, |k| k as f64 * 0.5);
        check_streaming_edges(-7i32, 99, |k| k as i32 - 3);
        check_streaming_edges(u64::MAX, 5, |k| k as u64 * 3);
        check_streaming_edges(usize::MAX - 1, 5, |k| k);
        // Values of one repeated byte (zero, all ones) stream too.
        check_streaming_edges(0.0f32, 7.0, |k| k as f32);
        check_streaming_edges(-1i64, 5, |k| k as i64);
    }

    /// Processors without AVX stream 16 bytes at a time.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sixteen_byte_streams_fill_the_whole_run() {
        for offset in 0..9 {
            let mut buffer = vec![7u32; 1000];
            // SAFETY: `u32` is a primitive; the pattern repeats its bits.
            unsafe { super::stream_16(&mut buffer[offset..990], 0x0000_0005_0000_0005) };
            assert!(buffer[offset..990].iter().all(|&v| v == 5), "from {offset}");
            assert!(buffer[..offset].iter().chain(&buffer[990..]).all(|&v| v == 7), "from {offset}");
        }
    }

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
