//! Transparent huge pages: NumPy advises them (`madvise(MADV_HUGEPAGE)`) for
//! every array of 4 MiB or more, a `Vec` gets ordinary 4 KiB pages. On this
//! machine's kernel (THP in `madvise` mode) that alone is worth about 20% of
//! the copy bandwidth, so the bench can put its inputs on either.

use std::sync::atomic::{AtomicBool, Ordering};

/// Arrays from this size on get huge pages in NumPy (`numpy/_core/src/multiarray/alloc.c`).
const NUMPY_THRESHOLD: usize = 4 << 20;

static INPUTS_ON_HUGE_PAGES: AtomicBool = AtomicBool::new(false);

/// Whether the inputs generated from now on are advised to use huge pages
/// (from 4 MiB on, as NumPy does); set once, from `--huge-pages`.
pub fn put_inputs_on_huge_pages(huge: bool) {
    INPUTS_ON_HUGE_PAGES.store(huge, Ordering::Relaxed);
}

/// An empty `Vec` for `len` inputs, on the pages `--huge-pages` chose.
pub fn input_vec<T>(len: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    if INPUTS_ON_HUGE_PAGES.load(Ordering::Relaxed) && len * size_of::<T>() >= NUMPY_THRESHOLD {
        advise_huge_pages(v.spare_capacity_mut());
    }
    v
}

/// An empty `Vec` for `len` values, its memory advised to use huge pages
/// before its first touch when `huge`; `None` if that advice fails.
pub fn vec_on_pages<T>(len: usize, huge: bool) -> Option<Vec<T>> {
    let mut v = Vec::with_capacity(len);
    (!huge || advise_huge_pages(v.spare_capacity_mut())).then_some(v)
}

/// `madvise(MADV_HUGEPAGE)` on the whole pages inside `memory`.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(memory: &mut [T]) -> bool {
    use std::ffi::{c_int, c_void};
    const PAGE: usize = 4096;
    const MADV_HUGEPAGE: c_int = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    let begin = memory.as_mut_ptr() as usize;
    let end = begin + size_of_val(memory);
    let (first, last) = (begin.next_multiple_of(PAGE), end / PAGE * PAGE);
    if first >= last {
        return false;
    }
    // SAFETY: [first, last) is page-aligned and lies inside `memory`, which
    // this function borrows mutably; MADV_HUGEPAGE only changes how the
    // kernel backs those pages, never their contents or their validity.
    unsafe { madvise(first as *mut c_void, last - first, MADV_HUGEPAGE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &mut [T]) -> bool {
    false
}
