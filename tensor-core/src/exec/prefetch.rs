//! Software prefetch where the next address is an index away, and of the
//! index and value streams of random accumulations. The hardware
//! prefetchers follow streams, not the next random row or element, so an
//! indexed loop otherwise waits on memory at every step:
//! - W11a (a gather of 200000 random rows of 512 bytes): 14.6 ms without,
//!   12.0 with the rows 8 ahead asked for;
//! - W5 (2M random sets into a 64 MB target): 6.1 ms without, 4.9 with
//!   the destination 64 updates ahead asked for, 4.75 at 128, 5.1 at 256.
//!
//! Single elements are prefetched only when the target is larger than the
//! last-level cache: in a target that fits it, prefetching made W6 (8M
//! updates of a 4 MB target) slower, 8.5 -> 9.6-12.4 ms at 16-128 ahead.

/// Bytes of upcoming rows to have in flight: on AMD EPYC, 4 and 8 KB
/// ahead (8 or 16 rows of 512 bytes) were equally fast, 1 KB was slower.
const AHEAD: usize = 4 << 10;

/// Bytes of each row to ask for; the hardware's stream prefetcher follows
/// a longer row once it is being read.
const ROW_PREFIX: usize = 1 << 10;

/// How many updates ahead of the one being applied a scatter asks for the
/// destination of, when [`beyond_cache`].
pub(crate) const UPDATES_AHEAD: usize = 128;

/// How many updates ahead of the one being applied an accumulation asks
/// for its indices and values. Its random updates keep the core's misses
/// in flight busy, so the hardware's stream prefetcher falls behind on
/// these streams: on an EPYC, W6 (8M updates of a 4 MB target) 7.1-7.8 ->
/// 5.3-5.7 ms, W13 9.2-9.7 -> 8.7-9.0 ms. In a scratch loop, 128 updates
/// ahead was no faster than none, 512 (4 KB of `i64` indices) to 4096
/// equally fast.
pub(crate) const STREAM_AHEAD: usize = 512;

/// Whether an indexed loop over a target of `bytes` should prefetch single
/// elements: when the target is larger than the last-level cache (never
/// where the system does not say how large that is).
pub(crate) fn beyond_cache(bytes: usize) -> bool {
    crate::exec::caches::caches().is_some_and(|caches| bytes > caches.l3)
}

/// How many rows ahead of the one being copied to prefetch, for rows of
/// `row_bytes`: [`AHEAD`] bytes' worth, at least one and at most 16.
pub(crate) fn rows_ahead(row_bytes: usize) -> usize {
    (AHEAD / row_bytes.max(1)).clamp(1, 16)
}

/// Asks for the cache lines of the first [`ROW_PREFIX`] bytes of the `len`
/// elements from `start`. A hint only: it never faults and changes nothing
/// a program can read.
#[inline(always)]
pub(crate) fn row<T>(start: *const T, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let bytes = (len * std::mem::size_of::<T>()).min(ROW_PREFIX);
        for line in (0..bytes).step_by(64) {
            // SAFETY: a prefetch does not access memory as far as the
            // program can tell, and cannot fault; the address is formed
            // with wrapping arithmetic, so no pointer rule is at stake.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((start as *const i8).wrapping_add(line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, len);
}

/// Asks for the cache line holding the element at `at`: an address only,
/// which need not be valid (the prefetch cannot fault).
#[inline(always)]
pub(crate) fn element<T>(at: *const T) {
    row(at, 1);
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_ahead_keeps_a_few_kilobytes_in_flight() {
        assert_eq!(super::rows_ahead(512), 8);
        assert_eq!(super::rows_ahead(4), 16);
        assert_eq!(super::rows_ahead(0), 16);
        assert_eq!(super::rows_ahead(1 << 20), 1);
    }
}
