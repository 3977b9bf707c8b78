//! Software prefetch where the next address is an index away, of the
//! index and value streams of random accumulations, of the lines a set
//! of every other element rewrites, and of the elements `.apply`
//! replaces. The hardware prefetchers follow streams, not the next random
//! row or element, so an indexed loop otherwise waits on memory at every
//! step. (Whether a scatter prefetches single elements is the chooser's
//! call: only into targets larger than the last-level cache, where it
//! pays; `.apply` always does, its long loop body keeping few misses in
//! flight. An `along` gather prefetches nothing: its picks walked as they
//! stand keep as many misses in flight as the core holds, and prefetches
//! only slowed it. The distances below were measured:
//! docs/performance.md, "Software prefetch" and "Picks walked as they
//! stand".)

/// Bytes of upcoming rows to have in flight: far enough ahead that a row
/// scatter into a target beyond the caches overlaps more of its rows'
/// misses, and no slower for gathers; where the cache holds the target, a
/// shorter distance can do better (measured: docs/performance.md,
/// "Software prefetch").
const AHEAD: usize = 8 << 10;

/// Bytes of each row to ask for; the hardware's stream prefetcher follows
/// a longer row once it is being read.
const ROW_PREFIX: usize = 1 << 10;

/// How many updates ahead of the one being applied a scatter asks for the
/// destination of, when it prefetches destinations.
pub(crate) const UPDATES_AHEAD: usize = 128;

/// How many updates ahead within a row of a table a set asks for the
/// destination of, when it prefetches destinations: rows of a table
/// behind a slice (`x[:, idx]`) may be short, and each row's first
/// updates go unasked for (measured: docs/performance.md, "A set's table
/// rows asked for ahead").
pub(crate) const TABLE_AHEAD: usize = 16;

/// How many updates ahead of the one being applied an accumulation asks
/// for its indices and values. Its random updates keep the core's misses
/// in flight busy, so the hardware's stream prefetcher falls behind on
/// these streams; a much shorter distance gains nothing, a longer one no
/// more (measured: docs/performance.md, "Software prefetch").
pub(crate) const STREAM_AHEAD: usize = 512;

/// How many offsets ahead of the element `.apply` replaces it asks for
/// the element of: its loop's body (a clone, the caller's `f`, the log of
/// the element replaced) is long, so the processor's window holds the
/// misses of only a few updates ahead, wherever past the L2 the target
/// lies (measured: docs/performance.md, "`.apply` in place, with an undo
/// log").
pub(crate) const APPLY_AHEAD: usize = 64;

/// Bytes ahead of the block being blended that a set of every other
/// element asks for: its loads of the lines it rewrites fell behind with
/// the hardware's prefetchers alone (measured: docs/performance.md,
/// "Every other element set by whole lines").
pub(crate) const BLEND_AHEAD: usize = 1 << 10;

/// How many rows ahead of the one being copied to prefetch, for rows of
/// `row_bytes`: [`AHEAD`] bytes' worth, at least one and at most 16.
pub(crate) fn rows_ahead(row_bytes: usize) -> usize {
    (AHEAD / row_bytes.max(1)).clamp(1, 16)
}

/// Asks for the cache lines of the first [`ROW_PREFIX`] bytes of the `len`
/// elements from `start`. A hint only: it never faults and changes nothing
/// a program can read.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn row<T>(start: *const T, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let bytes = len.saturating_mul(std::mem::size_of::<T>()).min(ROW_PREFIX);
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
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn element<T>(at: *const T) {
    row(at, 1);
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_ahead_keeps_a_few_kilobytes_in_flight() {
        assert_eq!(super::rows_ahead(512), 16);
        assert_eq!(super::rows_ahead(1024), 8);
        assert_eq!(super::rows_ahead(4), 16);
        assert_eq!(super::rows_ahead(0), 16);
        assert_eq!(super::rows_ahead(1 << 20), 1);
    }
}
