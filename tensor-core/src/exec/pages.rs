//! Large outputs on huge pages: a fresh 100 MB result otherwise costs tens
//! of thousands of page faults (NumPy asks for huge pages for the same reason).

/// Below this, a buffer is not worth a system call.
const HUGE_PAGE_THRESHOLD: usize = 4 << 20;

/// A vector with room for `len` elements, its memory advised to be backed by
/// huge pages when it is large.
pub(crate) fn output<T>(len: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(len);
    advise_huge_pages(out.as_mut_ptr() as *mut u8, len * std::mem::size_of::<T>());
    out
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    if bytes < HUGE_PAGE_THRESHOLD {
        return;
    }
    // Only whole huge pages inside the buffer can be advised.
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `first..end` lies inside an allocation we own and have not
        // handed out; `madvise(MADV_HUGEPAGE)` is advice about how to back
        // it and changes no contents. A failure (no transparent huge pages)
        // leaves ordinary pages, which is fine.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn large_outputs_have_their_capacity() {
        let out = super::output::<f32>(3 << 20);
        assert!(out.capacity() >= 3 << 20);
        assert!(out.is_empty());
    }
}
