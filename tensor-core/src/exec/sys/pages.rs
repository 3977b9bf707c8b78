//! Large outputs on huge pages: a fresh 100 MB result otherwise costs tens
//! of thousands of page faults (NumPy asks for huge pages for the same reason).

/// Below this, a buffer is not advised: glibc's `malloc` maps a fresh
/// region for every buffer from this size on (its largest threshold for
/// that), whose faults the advice saves, while smaller ones may come from
/// memory it keeps, where advised offset tables made their gathers slower
/// (docs/performance.md, "Huge pages for large outputs and tables").
const HUGE_PAGE_THRESHOLD: usize = 32 << 20;

/// A vector with room for `len` elements, its memory advised to be backed by
/// huge pages when it is large; `None` when that much memory cannot be had
/// (the size overflows, or the allocator refuses), instead of an abort.
pub(crate) fn try_output<T>(len: usize) -> Option<Vec<T>> {
    let mut out = crate::memory::vec(len)?;
    advise_huge_pages(out.as_mut_ptr() as *mut u8, len * std::mem::size_of::<T>());
    Some(out)
}

/// The size of a base page on x86-64 and of the smallest on aarch64: a
/// buffer touched once every this many bytes has each of its pages
/// faulted in.
#[cfg_attr(not(threads), allow(dead_code, reason = "the parallel row gather asks"))]
pub(crate) const PAGE: usize = 4 << 10;

/// The size of a (transparent) huge page on x86-64 and aarch64 Linux.
#[cfg_attr(any(not(target_os = "linux"), miri), allow(dead_code))]
const HUGE_PAGE: usize = 2 << 20;

/// The whole huge pages inside the buffer of `bytes` bytes at address
/// `start`, or `None` when the buffer is small or holds none.
#[cfg_attr(any(not(target_os = "linux"), miri), allow(dead_code))]
fn huge_pages_inside(start: usize, bytes: usize) -> Option<std::ops::Range<usize>> {
    if bytes < HUGE_PAGE_THRESHOLD {
        return None;
    }
    let first = start.checked_next_multiple_of(HUGE_PAGE)?;
    let end = start.checked_add(bytes)? / HUGE_PAGE * HUGE_PAGE;
    (end > first).then_some(first..end)
}

#[cfg(all(target_os = "linux", not(miri)))]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    if let Some(pages) = huge_pages_inside(start as usize, bytes) {
        // SAFETY: `pages` lies inside the buffer (`huge_pages_inside`, tested
        // below), an allocation we own and have not handed out;
        // `madvise(MADV_HUGEPAGE)` is advice about how to back it and changes
        // no contents. A failure (no transparent huge pages) leaves ordinary
        // pages, which is fine.
        unsafe {
            libc::madvise(pages.start as *mut libc::c_void, pages.len(), libc::MADV_HUGEPAGE);
        }
    }
}

/// No advice: elsewhere than on Linux, and under Miri, which runs no
/// `madvise` (advice that changes no contents, so nothing Miri checks is
/// lost).
#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn large_outputs_have_their_capacity() {
        let out = super::try_output::<f32>(3 << 20).expect("12 MB");
        assert!(out.capacity() >= 3 << 20);
        assert!(out.is_empty());
    }

    #[test]
    fn huge_page_advice_covers_only_whole_pages_inside_the_buffer() {
        use super::{HUGE_PAGE, HUGE_PAGE_THRESHOLD, huge_pages_inside};
        // Starts on, just past and just before a huge page boundary; sizes
        // around the threshold and around whole pages.
        let starts = [HUGE_PAGE * 7, HUGE_PAGE * 7 + 1, HUGE_PAGE * 8 - 1, HUGE_PAGE * 7 + 4096];
        let sizes = [
            HUGE_PAGE_THRESHOLD - 1,
            HUGE_PAGE_THRESHOLD,
            HUGE_PAGE_THRESHOLD + 1,
            HUGE_PAGE_THRESHOLD + 3 * HUGE_PAGE - 1,
            HUGE_PAGE_THRESHOLD + 3 * HUGE_PAGE,
            HUGE_PAGE_THRESHOLD + 5 * HUGE_PAGE + 12345,
        ];
        for start in starts {
            for bytes in sizes {
                let Some(pages) = huge_pages_inside(start, bytes) else {
                    assert!(bytes < HUGE_PAGE_THRESHOLD || bytes < 2 * HUGE_PAGE, "{start:#x} + {bytes}");
                    continue;
                };
                assert!(
                    pages.start >= start && pages.end <= start + bytes,
                    "{start:#x} + {bytes}: {pages:x?}"
                );
                assert_eq!((pages.start % HUGE_PAGE, pages.end % HUGE_PAGE), (0, 0), "{start:#x} + {bytes}");
                // And nothing whole was left out: less than a page on either side.
                assert!(pages.start - start < HUGE_PAGE && start + bytes - pages.end < HUGE_PAGE);
            }
        }
        assert_eq!(
            huge_pages_inside(usize::MAX - HUGE_PAGE, 8 * HUGE_PAGE),
            None,
            "an impossible buffer"
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri runs no madvise, so there is no advice to check")]
    fn advised_buffers_keep_their_contents() {
        use super::HUGE_PAGE_THRESHOLD;
        // Real buffers through the real call (ASan checks every byte written after it).
        for len in [HUGE_PAGE_THRESHOLD - 1, HUGE_PAGE_THRESHOLD, HUGE_PAGE_THRESHOLD + (2 << 20) + 4095] {
            let mut out = super::try_output::<u8>(len).expect("tens of MB");
            out.resize(len, 0xA5);
            super::advise_huge_pages(out[1..].as_mut_ptr(), len - 1);
            assert!(out.iter().all(|&b| b == 0xA5));
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "Miri stops at an allocation larger than its memory instead of letting the allocator refuse it; scripts/sanitize runs this"
    )]
    fn impossible_sizes_are_refused_not_aborted() {
        assert!(super::try_output::<u64>(usize::MAX / 4).is_none());
        assert!(super::try_output::<u8>(1 << 62).is_none());
        assert!(super::try_output::<u64>(1 << 60).is_none());
    }
}
