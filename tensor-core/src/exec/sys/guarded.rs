//! Memory between two pages that cannot be read or written, for tests of
//! the vector paths: a load or store past either end of it faults, where
//! a comparison of values cannot see a load whose lanes go unused, or a
//! store that writes back what it read.

use crate::element::Bits;

/// Pages of memory with a guard page on each side: an access past either
/// end of them faults, and the test with it.
pub(crate) struct Guarded {
    mapping: *mut u8,
    page: usize,
    pages: usize,
}

impl Guarded {
    /// `pages` pages of zeros between their guards.
    pub(crate) fn new(pages: usize) -> Guarded {
        // SAFETY: `sysconf` reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).expect("a page size");
        let (flags, access) = (libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, libc::PROT_READ | libc::PROT_WRITE);
        // SAFETY: a new anonymous mapping, at an address the kernel picks.
        let mapping = unsafe { libc::mmap(std::ptr::null_mut(), (pages + 2) * page, access, flags, -1, 0) };
        assert_ne!(mapping, libc::MAP_FAILED, "two guard pages and {pages} pages mapped");
        let mapping = mapping.cast::<u8>();
        for guard in [0, pages + 1] {
            // SAFETY: a page of the mapping just made, which nothing
            // has borrowed.
            let done = unsafe { libc::mprotect(mapping.add(guard * page).cast(), page, libc::PROT_NONE) };
            assert_eq!(done, 0, "the guard page at {guard} protected");
        }
        Guarded { mapping, page, pages }
    }

    /// The pages between the guards, as elements of `B`.
    pub(crate) fn elements<B: Bits>(&mut self) -> &mut [B] {
        // SAFETY: the pages between the guards are mapped for reading
        // and writing, zero-filled (a valid `B`), aligned to a page,
        // and borrowed only through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.mapping.add(self.page).cast(), self.pages * self.page / size_of::<B>()) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping `new` made, no longer borrowed.
        unsafe { libc::munmap(self.mapping.cast(), (self.pages + 2) * self.page) };
    }
}
