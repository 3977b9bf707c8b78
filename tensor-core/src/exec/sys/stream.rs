//! Streaming (non-temporal) stores: they write whole cache lines without
//! reading them first, where a plain fill or copy reads as much as it
//! writes, and they do not push the rest of the cache out. They work on the
//! bits of plain numbers (`u32`, `u64`), whatever numbers those are.
//!
//! Streaming stores are weakly ordered: until an `sfence` on the thread
//! that made them, nothing may access the memory they wrote, that thread
//! included. Every function here takes a [`Fence`], which issues the
//! `sfence` when it drops; one fence serves a whole update (a fence per row
//! drains the write buffers each time, which slows a large copy), and
//! [`order`] fences in between, before a destination is written again
//! (measured: docs/performance.md, "Streaming stores for large fills and
//! row copies").

use std::mem::MaybeUninit;

use crate::element::Bits;
use crate::exec::sys::cpu::Isa;

/// Orders every streaming store made before it is dropped before anything
/// after (an `sfence`).
pub(crate) struct Fence;

impl Drop for Fence {
    fn drop(&mut self) {
        sfence();
    }
}

/// Orders the streaming stores made so far, before the fence drops: what a
/// writer calls before it streams to a destination a second time.
pub(crate) fn order(_fence: &Fence) {
    sfence();
}

fn sfence() {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: `sfence` has no preconditions.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// Stores `block` at `slot` past the cache (`movntdq`). Under Miri, which
/// runs no streaming store, a plain store of the same bytes to the same
/// slot: the slot's bounds and alignment, which the SAFETY arguments below
/// are about, are checked all the same; the ordering the fence provides is
/// not.
///
/// # Safety
///
/// `slot` is valid for a write of 16 bytes and aligned to 16.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(not(unoptimized), inline(always))]
unsafe fn stream_16(slot: *mut std::arch::x86_64::__m128i, block: std::arch::x86_64::__m128i) {
    #[cfg(not(miri))]
    // SAFETY: the caller's; SSE2 is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_stream_si128(slot, block)
    };
    #[cfg(miri)]
    // SAFETY: the caller's.
    unsafe {
        slot.write(block)
    };
}

/// `targets[..] = value` with streaming stores, 32 bytes at a time where
/// `isa` has AVX (16-byte streaming stores fall short of `memset`'s
/// bandwidth there; 32-byte ones reach it), 16 otherwise.
///
/// # Safety
///
/// Until `fence` drops, or [`order`] is called, nothing accesses `targets`
/// (this thread included), and `fence` drops on this thread.
pub(crate) unsafe fn fill<B: Bits>(targets: &mut [B], value: B, isa: Isa, _fence: &Fence) {
    #[cfg(target_arch = "x86_64")]
    {
        let pattern = repeated(value);
        if isa.avx() {
            // SAFETY: `isa` says the processor has AVX (only detection says so).
            return unsafe { fill_32(targets, value, pattern) };
        }
        fill_16(targets, value, pattern)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = isa;
        targets.fill(value)
    }
}

/// `value`'s bits repeated over 8 bytes.
#[cfg(target_arch = "x86_64")]
fn repeated<B: Bits>(value: B) -> i64 {
    let mut pattern = [0u8; 8];
    // SAFETY: `B` is `u32` or `u64` (the `Bits` types): `size_of::<B>()`
    // bytes of initialized memory, no padding; 8 is a multiple of its size.
    let bytes = unsafe { std::slice::from_raw_parts((&raw const value).cast::<u8>(), size_of::<B>()) };
    for chunk in pattern.chunks_mut(size_of::<B>()) {
        chunk.copy_from_slice(bytes);
    }
    i64::from_ne_bytes(pattern)
}

/// [`fill`] with 32-byte stores.
///
/// # Safety
///
/// The processor has AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn fill_32<B: Bits>(targets: &mut [B], value: B, pattern: i64) {
    use std::arch::x86_64::{__m256i, _mm256_set1_epi64x, _mm256_stream_si256};
    // SAFETY: `B` (an unsigned integer) and `__m256i` are plain bits: any
    // pattern is valid for both, and `align_to_mut` cuts whole, aligned
    // 32-byte blocks out of `targets` for the middle.
    let (head, middle, tail) = unsafe { targets.align_to_mut::<__m256i>() };
    head.fill(value);
    tail.fill(value);
    let block = _mm256_set1_epi64x(pattern);
    for slot in middle {
        // SAFETY: `slot` is an aligned 32-byte block of `targets`.
        unsafe { _mm256_stream_si256(slot, block) };
    }
}

/// [`fill`] with 16-byte stores (SSE2, always there on x86-64).
#[cfg(target_arch = "x86_64")]
fn fill_16<B: Bits>(targets: &mut [B], value: B, pattern: i64) {
    use std::arch::x86_64::{__m128i, _mm_set1_epi64x};
    // SAFETY: as in `fill_32`, with 16-byte blocks.
    let (head, middle, tail) = unsafe { targets.align_to_mut::<__m128i>() };
    head.fill(value);
    tail.fill(value);
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let block = unsafe { _mm_set1_epi64x(pattern) };
    for slot in middle {
        // SAFETY: `slot` is an aligned 16-byte block of `targets`.
        unsafe { stream_16(slot, block) };
    }
}

/// `targets.copy_from_slice(values)` with streaming stores, a whole cache
/// line (64 bytes) at a time where `isa` has AVX-512F, a line as two
/// 32-byte stores back to back where it has AVX, 16 bytes otherwise:
/// narrower stores into rows scattered at random leave the write-combining
/// buffers to flush partial lines, which wastes bandwidth, and a loop of
/// one 16-byte store ran a long copy at half speed in some builds
/// (measured: docs/performance.md, "Streaming stores for large fills and
/// row copies").
///
/// # Safety
///
/// As [`fill`]'s.
///
/// # Panics
///
/// When the lengths differ.
pub(crate) unsafe fn copy<B: Bits>(targets: &mut [B], values: &[B], isa: Isa, fence: &Fence) {
    // SAFETY: `MaybeUninit<B>` has `B`'s layout, and `copy_to` writes only
    // values of `B` into it, so `targets` stays initialized.
    let targets = unsafe { &mut *(targets as *mut [B] as *mut [MaybeUninit<B>]) };
    // SAFETY: the caller's guarantee, passed on.
    unsafe { copy_to(targets, values, isa, fence) }
}

/// [`copy`] into memory that may be uninitialized: a gather's output.
///
/// # Safety
///
/// As [`fill`]'s.
///
/// # Panics
///
/// When the lengths differ.
pub(crate) unsafe fn copy_to<B: Bits>(targets: &mut [MaybeUninit<B>], values: &[B], isa: Isa, _fence: &Fence) {
    assert_eq!(targets.len(), values.len(), "a row and its values have one length");
    #[cfg(target_arch = "x86_64")]
    {
        if isa.avx512f() {
            // SAFETY: `isa` says the processor has AVX-512F (only detection says so).
            return unsafe { copy_64(targets, values) };
        }
        if isa.avx() {
            // SAFETY: `isa` says the processor has AVX (only detection says so).
            return unsafe { copy_lines_32(targets, values) };
        }
        copy_16(targets, values)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = isa;
        copy_edges(targets, &mut [], values, &[]);
    }
}

/// [`copy`] with 64-byte stores.
///
/// # Safety
///
/// The processor has AVX-512F; `targets` and `values` have one length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn copy_64<B: Bits>(targets: &mut [MaybeUninit<B>], values: &[B]) {
    use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_stream_si512};
    copy_blocks(targets, values, |slot: &mut MaybeUninit<__m512i>, block| {
        // SAFETY: `block` is 64 bytes of `values`, read unaligned; `slot`
        // is an aligned 64-byte block of `targets`; AVX-512F is there (the
        // caller's guarantee).
        unsafe { _mm512_stream_si512(slot.as_mut_ptr(), _mm512_loadu_si512(block.as_ptr().cast())) }
    });
}

/// A cache line's 64 bytes, aligned to a line: what [`copy_lines_32`]
/// streams at once.
#[cfg(target_arch = "x86_64")]
#[repr(C, align(64))]
struct Line([std::arch::x86_64::__m256i; 2]);

/// [`copy`] with 32-byte stores, the two halves of each aligned line
/// stored back to back.
///
/// # Safety
///
/// The processor has AVX; `targets` and `values` have one length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn copy_lines_32<B: Bits>(targets: &mut [MaybeUninit<B>], values: &[B]) {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_stream_si256};
    copy_blocks(targets, values, |slot: &mut MaybeUninit<Line>, line| {
        let slot = slot.as_mut_ptr().cast::<__m256i>();
        let (low, high) = line.split_at(line.len() / 2);
        // SAFETY: `low` and `high` are the line's two 32-byte halves of
        // `values`, read unaligned; `slot` is an aligned line of `targets`,
        // its halves 32-byte aligned; AVX is there (the caller's guarantee).
        unsafe {
            _mm256_stream_si256(slot, _mm256_loadu_si256(low.as_ptr().cast()));
            _mm256_stream_si256(slot.add(1), _mm256_loadu_si256(high.as_ptr().cast()));
        }
    });
}

/// Rows of `row_len` elements, `row(k)` the `k`th, copied back to back
/// into `targets` with streaming stores. Where `isa` has AVX-512F and a row
/// fills a cache line, the stores are whole aligned lines across the rows'
/// edges; row by row with [`copy_to`] otherwise. A row copied alone stores
/// the lines its edges fall inside plainly, each read from memory first: a
/// gather's 512-byte rows into an output 16 bytes past a line boundary
/// then run at two thirds of the speed (docs/performance.md, "A gather's
/// rows streamed across their edges"). `row` is called once a row, in
/// order.
///
/// # Safety
///
/// As [`fill`]'s.
///
/// # Panics
///
/// When `targets` is not whole rows, or a row is not `row_len` long.
#[cfg_attr(not(threads), allow(dead_code, reason = "the parallel row gather asks"))]
pub(crate) unsafe fn copy_rows_to<'s, B: Bits>(
    targets: &mut [MaybeUninit<B>],
    row_len: usize,
    mut row: impl FnMut(usize) -> &'s [B],
    isa: Isa,
    fence: &Fence,
) {
    assert!(row_len > 0 && targets.len().is_multiple_of(row_len), "the targets are whole rows");
    #[cfg(target_arch = "x86_64")]
    if isa.avx512f() && !targets.is_empty() && row_len >= 64 / size_of::<B>() {
        // SAFETY: `isa` says the processor has AVX-512F (only detection
        // says so); the rows fill a line, and there is one.
        return unsafe { copy_lines_64(targets, &mut Rows::new(row_len, &mut row)) };
    }
    for (k, targets) in targets.chunks_exact_mut(row_len).enumerate() {
        let values = row(k);
        assert_eq!(values.len(), row_len, "every row is `row_len` long");
        // SAFETY: the caller's guarantee, passed on.
        unsafe { copy_to(targets, values, isa, fence) };
    }
}

/// The rows of a [`copy_rows_to`], each asked for once, in order: the one
/// the copy is in and, for a line across its end, the next.
#[cfg_attr(not(threads), allow(dead_code, reason = "the parallel row gather asks"))]
#[cfg(target_arch = "x86_64")]
struct Rows<'s, 'f, B, F> {
    row: &'f mut F,
    len: usize,
    index: usize,
    current: &'s [B],
    next: Option<&'s [B]>,
}

#[cfg_attr(not(threads), allow(dead_code, reason = "the parallel row gather asks"))]
#[cfg(target_arch = "x86_64")]
impl<'s, 'f, B, F: FnMut(usize) -> &'s [B]> Rows<'s, 'f, B, F> {
    fn new(len: usize, row: &'f mut F) -> Self {
        let current = Self::fetch(row, len, 0);
        Rows {
            row,
            len,
            index: 0,
            current,
            next: None,
        }
    }

    fn fetch(row: &mut F, len: usize, k: usize) -> &'s [B] {
        let values = row(k);
        assert_eq!(values.len(), len, "every row is `row_len` long");
        values
    }

    /// The row after the current one.
    fn next(&mut self) -> &'s [B] {
        match self.next {
            Some(next) => next,
            None => {
                let next = Self::fetch(self.row, self.len, self.index + 1);
                self.next = Some(next);
                next
            }
        }
    }

    /// Moves on to the next row.
    fn advance(&mut self) {
        self.current = self.next();
        self.next = None;
        self.index += 1;
    }

    /// `targets` filled plainly with the elements from position `at` of
    /// the current row on (`at` may reach past its end, into the rows
    /// after it), moving on to each row as an element is taken from it;
    /// the position after the last, counted in the row then current.
    fn copy_plainly(&mut self, targets: &mut [MaybeUninit<B>], mut at: usize) -> usize
    where
        B: Copy,
    {
        for target in targets {
            while at >= self.len {
                at -= self.len;
                self.advance();
            }
            target.write(self.current[at]);
            at += 1;
        }
        at
    }
}

/// [`copy_rows_to`] with 64-byte stores: every aligned line of `targets`
/// streamed, its values loaded from the row it starts in and, where it
/// crosses that row's end, the next, joined in a register; the few
/// elements before the first line and after the last stored plainly.
///
/// # Safety
///
/// The processor has AVX-512F; a row is at least 64 bytes; `targets` is
/// whole rows, at least one.
#[cfg_attr(not(threads), allow(dead_code, reason = "the parallel row gather asks"))]
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn copy_lines_64<'s, B: Bits, F: FnMut(usize) -> &'s [B]>(targets: &mut [MaybeUninit<B>], rows: &mut Rows<'s, '_, B, F>) {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_permutex2var_epi32, _mm512_set1_epi32, _mm512_setr_epi32, _mm512_stream_si512,
    };
    let per_line = 64 / size_of::<B>();
    let lanes_per_element = size_of::<B>() / 4;
    let len = rows.len;
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // SAFETY: as in `fill_32`, with 64-byte blocks of possibly
    // uninitialized memory.
    let (head, middle, tail) = unsafe { targets.align_to_mut::<MaybeUninit<__m512i>>() };
    // The elements before the first line and after the last are copied
    // plainly, from as many rows as they span: any split `align_to_mut`
    // makes is then copied right, not only the largest middle (edges each
    // shorter than a line), which std does not promise.
    // Where the next line starts in the current row; past its end, in the
    // next.
    let mut at = rows.copy_plainly(head, 0);
    for slot in middle {
        if at >= len {
            at -= len;
            rows.advance();
        }
        let line = if at + per_line <= len {
            // SAFETY: `per_line` elements of the row from `at` (just
            // checked), 64 bytes read unaligned.
            unsafe { _mm512_loadu_si512(rows.current[at..].as_ptr().cast()) }
        } else {
            // The row's last `left` elements, then the next row's first.
            // Both loads read whole lines' worth inside their rows (a row
            // fills a line); lane `j` of the joined line takes lane `j +
            // 16 - left_lanes` of the two loads side by side.
            let left = len - at;
            // SAFETY: the last `per_line` elements of the row.
            let end = unsafe { _mm512_loadu_si512(rows.current[len - per_line..].as_ptr().cast()) };
            // SAFETY: the first `per_line` elements of the next row.
            let start = unsafe { _mm512_loadu_si512(rows.next()[..per_line].as_ptr().cast()) };
            let shift = _mm512_set1_epi32((16 - left * lanes_per_element) as i32);
            _mm512_permutex2var_epi32(end, _mm512_add_epi32(lanes, shift), start)
        };
        // SAFETY: `slot` is an aligned 64-byte block of `targets`; AVX-512F
        // is there (the caller's guarantee).
        unsafe { _mm512_stream_si512(slot.as_mut_ptr(), line) };
        at += per_line;
    }
    let end = rows.copy_plainly(tail, at);
    debug_assert_eq!(end, len, "the copy ends with the last row");
}

/// [`copy`] with 16-byte stores (SSE2, always there on x86-64).
#[cfg(target_arch = "x86_64")]
fn copy_16<B: Bits>(targets: &mut [MaybeUninit<B>], values: &[B]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128};
    copy_blocks(targets, values, |slot: &mut MaybeUninit<__m128i>, block| {
        // SAFETY: `block` is 16 bytes of `values`, read unaligned; `slot`
        // is an aligned 16-byte block of `targets`.
        unsafe { stream_16(slot.as_mut_ptr(), _mm_loadu_si128(block.as_ptr().cast())) }
    });
}

/// The frame of every streamed copy: `targets` cut into aligned blocks of
/// `Block`, the few elements before the first block and after the last
/// copied plainly, and `store` given each block with its values (as many
/// as fill it), in order. The caller's `store` writes them.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(not(unoptimized), inline(always))]
fn copy_blocks<B: Bits, Block>(targets: &mut [MaybeUninit<B>], values: &[B], mut store: impl FnMut(&mut MaybeUninit<Block>, &[B])) {
    let per_block = size_of::<Block>() / size_of::<B>();
    // SAFETY: any bytes are valid `MaybeUninit`s of either type, and
    // `align_to_mut` cuts whole, aligned blocks out of `targets` for the
    // middle.
    let (head, middle, tail) = unsafe { targets.align_to_mut::<MaybeUninit<Block>>() };
    let blocks = split_like(values, head.len(), middle.len() * per_block);
    copy_edges(head, tail, blocks.0, blocks.2);
    for (slot, block) in middle.iter_mut().zip(blocks.1.chunks_exact(per_block)) {
        store(slot, block);
    }
}

/// `values` cut as the targets were: `head` elements, `middle` elements,
/// the rest.
#[cfg(target_arch = "x86_64")]
fn split_like<B>(values: &[B], head: usize, middle: usize) -> (&[B], &[B], &[B]) {
    let (head, rest) = values.split_at(head);
    let (middle, tail) = rest.split_at(middle);
    (head, middle, tail)
}

/// The unaligned edges of a streamed copy: a few elements, copied one by
/// one rather than by a call.
fn copy_edges<B: Copy>(head: &mut [MaybeUninit<B>], tail: &mut [MaybeUninit<B>], head_values: &[B], tail_values: &[B]) {
    for (target, &value) in head.iter_mut().zip(head_values).chain(tail.iter_mut().zip(tail_values)) {
        target.write(value);
    }
}

#[cfg(test)]
mod tests {
    use std::mem::MaybeUninit;

    use super::{Fence, copy, copy_rows_to, fill};

    use crate::element::Bits;
    use crate::exec::sys::cpu::{Isa, IsaCeiling};
    #[cfg(all(target_os = "linux", not(miri)))]
    use {super::copy_to, crate::exec::sys::guarded::Guarded};

    /// The values of slots that every test here initializes (with its
    /// canary) before a copy writes some of them.
    fn initialized<B: Copy>(slots: &[MaybeUninit<B>]) -> Vec<B> {
        // SAFETY: every slot was initialized (the callers' buffers start
        // filled with a canary), and a copy only writes values.
        slots.iter().map(|slot| unsafe { slot.assume_init() }).collect()
    }

    /// `fill` and `copy` on `len` elements from `offset` of a buffer with
    /// canaries on both sides, with every instruction set this processor
    /// has: the run equals the plain result and no neighbour is touched.
    /// (The SAFETY argument: the aligned middle is whole blocks of the run,
    /// head and tail are the rest.)
    fn stays_inside<B: Bits + PartialEq + std::fmt::Debug>(value: B, canary: B, source: impl Fn(usize) -> B) {
        let width = size_of::<B>();
        // Under Miri both are the baseline, whose 16-byte blocks the lengths
        // below 40 already put at every head, middle and tail, and offsets
        // of up to 16 bytes at every alignment: one long run more is enough
        // (Miri interprets each store). Natively, offsets of up to a cache
        // line, the widest block, and AVX's loops too where AVX-512F
        // would take their place.
        let (isas, lens, block): (&[Isa], Vec<usize>, usize) = if cfg!(miri) {
            (&[Isa::baseline()], (0..40).chain([131]).collect(), 16)
        } else {
            (
                &[Isa::baseline(), Isa::detect().at_most(IsaCeiling::Avx), Isa::detect()],
                (0..80).chain([1000, 4096 / width + 3]).collect(),
                64,
            )
        };
        for &isa in isas {
            for &len in &lens {
                for offset in 0..block / width + 1 {
                    let fence = Fence;
                    let mut buffer = vec![canary; offset + len + 3];
                    // SAFETY: nothing reads `buffer` before the fence drops.
                    unsafe { fill(&mut buffer[offset..offset + len], value, isa, &fence) };
                    drop(fence);
                    assert!(buffer[offset..offset + len].iter().all(|&v| v == value), "fill {len} at {offset}");
                    assert!(
                        buffer[..offset].iter().chain(&buffer[offset + len..]).all(|&v| v == canary),
                        "fill {len} at {offset}"
                    );
                    let values: Vec<B> = (0..len + 1).map(&source).collect();
                    let mut buffer = vec![canary; offset + len + 3];
                    // SAFETY: the temporary fence drops before `buffer` is read.
                    unsafe {
                        copy(
                            &mut buffer[offset..offset + len],
                            &values[offset % 2..len + offset % 2],
                            isa,
                            &Fence,
                        )
                    };
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
    }

    #[test]
    fn streaming_writes_stay_inside_their_run_at_every_boundary() {
        stays_inside(0xDEAD_BEEFu32, 7, |k| k as u32 * 3);
        stays_inside(u64::MAX - 5, 7, |k| k as u64 * 0x1_0000_0001);
        // Values of one repeated byte (zero, all ones) stream too.
        stays_inside(0u32, 7, |k| k as u32);
        stays_inside(u64::MAX, 5, |k| k as u64);
    }

    /// Rows copied back to back, the output at every offset from a line
    /// and the rows of every length around a line's: the concatenated rows,
    /// the neighbours untouched, each row asked for once, in order. (The
    /// SAFETY argument of the joined lines: each load reads a line's worth
    /// inside one row, and lane `j` of a line across an edge comes from
    /// the right row.)
    #[test]
    fn rows_streamed_back_to_back_equal_their_concatenation() {
        fn check<B: super::Bits + PartialEq + std::fmt::Debug>(canary: B, value: impl Fn(usize) -> B) {
            let width = size_of::<B>();
            // Under Miri, the baseline's row-by-row copy (each row's edges
            // are `stays_inside`'s): a few rows at offsets within its
            // 16-byte blocks. Natively, offsets within the widest line.
            let (isas, lens, counts, block): (&[Isa], Vec<usize>, &[usize], usize) = if cfg!(miri) {
                (&[Isa::baseline()], vec![1, 16 / width + 1], &[1, 3], 16)
            } else {
                (
                    &[Isa::baseline(), Isa::detect()],
                    (1..40).chain([64 / width * 8, 1000]).collect(),
                    &[1, 2, 3, 7],
                    64,
                )
            };
            for &isa in isas {
                for &len in &lens {
                    for &count in counts {
                        for offset in 0..block / width + 1 {
                            let source: Vec<B> = (0..len * (count + 2)).map(&value).collect();
                            // Rows out of order and repeated, as a gather's.
                            let picks: Vec<usize> = (0..count).map(|k| (k * 5 + 2) % (count + 2)).collect();
                            let expected: Vec<B> = picks.iter().flat_map(|&p| source[p * len..][..len].to_vec()).collect();
                            let mut buffer = vec![MaybeUninit::new(canary); offset + len * count + 3];
                            let mut asked = Vec::new();
                            let row = |k: usize| {
                                asked.push(k);
                                &source[picks[k] * len..][..len]
                            };
                            // SAFETY: the temporary fence drops before `buffer` is read.
                            unsafe { copy_rows_to(&mut buffer[offset..offset + len * count], len, row, isa, &Fence) };
                            let got = initialized(&buffer);
                            let what = format!("{count} rows of {len} at {offset}");
                            assert_eq!(&got[offset..offset + len * count], &expected[..], "{what}");
                            assert!(
                                got[..offset].iter().chain(&got[offset + len * count..]).all(|&v| v == canary),
                                "{what}"
                            );
                            assert_eq!(asked, (0..count).collect::<Vec<_>>(), "{what}");
                        }
                    }
                }
            }
        }
        check(u32::MAX, |k| k as u32);
        check(u64::MAX, |k| (k as u64) << 32 | k as u64);
    }

    /// Copies, and rows copied back to back, whose values start on the
    /// first element after an unreadable page or end on the last before
    /// one, with every instruction set this processor has: no load reads
    /// past the values (it faults), which the canaries of the tests above
    /// cannot see.
    #[cfg(all(target_os = "linux", not(miri)))]
    #[test]
    fn copies_read_no_value_past_their_source() {
        fn check<B: Bits + PartialEq + std::fmt::Debug>(canary: B, value: impl Fn(usize) -> B) {
            let width = size_of::<B>();
            let mut guarded = Guarded::new(2);
            let sources = guarded.elements::<B>();
            for (k, v) in sources.iter_mut().enumerate() {
                *v = value(k);
            }
            let sources = &*sources;
            let isas = [Isa::baseline(), Isa::detect().at_most(IsaCeiling::Avx), Isa::detect()];
            for isa in isas {
                for offset in 0..64 / width + 1 {
                    for len in (0..80).chain([1000, sources.len()]) {
                        for from in [0, sources.len() - len] {
                            let values = &sources[from..from + len];
                            let mut buffer = vec![MaybeUninit::new(canary); offset + len];
                            // SAFETY: the temporary fence drops before `buffer` is read.
                            unsafe { copy_to(&mut buffer[offset..], values, isa, &Fence) };
                            let got = initialized(&buffer[offset..]);
                            assert!(got == values, "copy {len} from {from} to {offset}");
                        }
                    }
                    for len in (1..40).chain([64 / width * 8]) {
                        for count in [1, 2, 3, 7] {
                            // The rows from the first element on, then the
                            // rows that end with the last.
                            for first in [0, sources.len() - len * count] {
                                let mut buffer = vec![MaybeUninit::new(canary); offset + len * count];
                                let row = |k: usize| &sources[first + k * len..][..len];
                                // SAFETY: the temporary fence drops before `buffer` is read.
                                unsafe { copy_rows_to(&mut buffer[offset..], len, row, isa, &Fence) };
                                let got = initialized(&buffer[offset..]);
                                assert!(
                                    got == sources[first..first + len * count],
                                    "{count} rows of {len} from {first} to {offset}"
                                );
                            }
                        }
                    }
                }
            }
        }
        check(u32::MAX, |k| k as u32);
        check(u64::MAX, |k| (k as u64) << 32 | k as u64);
    }

    /// The plain copy of a 64-byte row copy's edges takes any number of
    /// elements from any position, across as many rows as they span, and
    /// asks for each row once, in order, only when an element comes from
    /// it: edges of any length, so that the copy does not rest on
    /// `align_to_mut` cutting the largest middle.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn edges_copied_plainly_take_the_rows_in_order_from_any_position() {
        let len = 5;
        let source: Vec<u32> = (0..40).collect();
        // (rows asked for ahead of the copy, where it starts, how many it copies)
        for (ahead, at, count) in [(0, 0, 0), (0, 0, 3), (0, 2, 3), (0, 0, 12), (0, 5, 4), (1, 7, 6), (0, 3, 17)] {
            let mut asked = Vec::new();
            let mut row = |k: usize| {
                asked.push(k);
                &source[k * len..][..len]
            };
            let mut rows = super::Rows::new(len, &mut row);
            if ahead == 1 {
                rows.next();
            }
            let mut targets = vec![MaybeUninit::new(u32::MAX); count];
            let end = rows.copy_plainly(&mut targets, at);
            let got = initialized(&targets);
            let expected: Vec<u32> = (at..at + count).map(|k| k as u32).collect();
            assert_eq!(got, expected, "{count} from {at}");
            // The position after the copy, in the last row it took from
            // (or the row it started in).
            let last = (at + count).saturating_sub(1).max(at) / len;
            assert_eq!(end, at + count - last * len, "{count} from {at}");
            let rows_used = (at + count).div_ceil(len).max(1 + ahead);
            assert_eq!(asked, (0..rows_used).collect::<Vec<_>>(), "{count} from {at}");
        }
    }

    #[test]
    fn rows_of_another_length_are_refused() {
        for isa in [Isa::baseline(), Isa::detect()] {
            let refused = std::panic::catch_unwind(|| {
                let mut targets = [MaybeUninit::new(0u32); 32];
                // SAFETY: nothing reads the target.
                unsafe { copy_rows_to(&mut targets, 16, |_| &[1u32; 15][..], isa, &Fence) };
            });
            let message = refused.expect_err("a short row is refused");
            assert!(message.downcast_ref::<String>().is_some_and(|m| m.contains("every row")));
        }
    }

    #[test]
    #[should_panic(expected = "one length")]
    fn copies_of_unequal_lengths_are_refused() {
        // SAFETY: nothing reads the target.
        unsafe { copy(&mut [0u32; 3], &[1u32; 4], Isa::detect(), &Fence) };
    }
}
