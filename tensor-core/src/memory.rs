//! Memory sized from user input: the element count of a shape, and every
//! vector or map whose length comes from an index, a shape or a value.
//!
//! A count that overflows, or memory the allocator refuses, is `None`
//! here, never a panic or an abort; the entry layer reports it as
//! [`IndexError::TooLarge`](crate::error::IndexError::TooLarge). Nothing
//! sized by a user's lengths is reserved anywhere else. A vector of a few
//! kilobytes is the exception: no length makes it too large, and an
//! allocator that refuses it refuses the process's every allocation.

use std::collections::HashMap;
use std::hash::Hash;

/// The number of elements of `shape`, or `None` when an array of that
/// shape cannot be addressed: the product of its lengths other than zero
/// passes `isize::MAX` (ndarray's rule, and NumPy's, which checks the
/// lengths other than zero too). A shape with a zero length has no
/// elements, however long its other axes, but must still be addressable.
pub(crate) fn elements(shape: &[usize]) -> Option<usize> {
    let nonzero = shape
        .iter()
        .filter(|&&len| len != 0)
        .try_fold(1usize, |count, &len| count.checked_mul(len))
        .filter(|&count| count <= isize::MAX as usize)?;
    Some(if shape.contains(&0) { 0 } else { nonzero })
}

/// The sum of `counts`, or `None` when it passes `isize::MAX` (no array,
/// nor scratch, holds more).
pub(crate) fn total(counts: impl IntoIterator<Item = usize>) -> Option<usize> {
    counts
        .into_iter()
        .try_fold(0usize, |sum, count| sum.checked_add(count))
        .filter(|&sum| sum <= isize::MAX as usize)
}

/// Vectors of at most this many bytes are reserved unchecked: no length
/// makes one fail, and where the allocator refuses it every allocation of
/// the process fails alike.
const SMALL_BYTES: usize = 4096;

/// An empty vector with room for `len` elements, or `None` when memory
/// cannot hold them (the size in bytes overflows, or the allocator refuses).
#[inline]
pub(crate) fn vec<T>(len: usize) -> Option<Vec<T>> {
    // The checked reservation is two calls deep, a large share of a small
    // copy's instructions (`set!` of an element).
    if len <= SMALL_BYTES / size_of::<T>().max(1) {
        return Some(Vec::with_capacity(len));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(len).ok()?;
    Some(out)
}

/// Room for `additional` more elements in `vec`, or `None` as for [`vec`].
#[cfg(any(feature = "burn", test))]
pub(crate) fn reserve<T>(vec: &mut Vec<T>, additional: usize) -> Option<()> {
    vec.try_reserve(additional).ok()
}

/// An empty map with room for `len` entries, or `None` as for [`vec`].
pub(crate) fn map<K: Eq + Hash, V>(len: usize) -> Option<HashMap<K, V>> {
    let mut out = HashMap::new();
    out.try_reserve(len).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_skip_zero_lengths_but_still_fit_an_address() {
        assert_eq!(elements(&[]), Some(1));
        assert_eq!(elements(&[3, 4]), Some(12));
        assert_eq!(elements(&[1 << 31, 1 << 31, 0]), Some(0));
        // Zero first or last: the other lengths are checked all the same.
        assert_eq!(elements(&[0, 1 << 40, 1 << 40]), None);
        assert_eq!(elements(&[4, 1 << 31, 1 << 31, 0]), None);
        assert_eq!(elements(&[1 << 62, 2]), None);
        assert_eq!(elements(&[isize::MAX as usize]), Some(isize::MAX as usize));
        assert_eq!(total([usize::MAX, 1]), None);
        assert_eq!(total([isize::MAX as usize, 1]), None);
        assert_eq!(total([2, 3]), Some(5));
    }

    /// (Sizes the allocator refuses are asked for by the suite's
    /// adversarial tests, outside Miri, which stops at them.)
    #[test]
    fn room_is_empty_and_sized_in_bytes() {
        assert!(
            vec::<u64>(usize::MAX / 4).is_none(),
            "a size in bytes past isize::MAX is refused uncounted"
        );
        assert!(vec::<()>(usize::MAX).is_some(), "zero-sized elements take no memory");
        // Either side of the unchecked reservation of a small vector.
        for len in [3, SMALL_BYTES / 4, SMALL_BYTES / 4 + 1] {
            assert_eq!(vec::<u32>(len).map(|v| (v.len(), v.capacity() >= len)), Some((0, true)));
        }
        let mut grown = vec![1u8];
        assert_eq!(
            reserve(&mut grown, 5).map(|()| (grown.len(), grown.capacity() >= 6)),
            Some((1, true))
        );
        assert!(reserve(&mut grown, usize::MAX).is_none(), "more than an address reaches is refused");
        assert_eq!(map::<isize, usize>(3).map(|m| (m.len(), m.capacity() >= 3)), Some((0, true)));
    }
}
