//! Integer arithmetic of indices: NumPy's rule that an index `i` of an axis
//! of length `n` is valid in `[-n, n)`, negative values counting from the
//! end. [`position_of`] states the rule once, for any integer; [`IndexInt`]
//! is the same rule written branch-free per index type, for the loops over
//! whole index arrays (a test checks that the two agree).

use std::fmt;

use ndarray::{ArrayViewD, CowArray, IxDyn};

use crate::index::{IndexSlice, IntArray};

/// The position index `index` selects on an axis of length `len`, or `None`
/// when it lies outside `[-len, len)`.
#[inline]
pub(crate) fn position_of(index: i128, len: usize) -> Option<usize> {
    let n = len as i128;
    (-n..n).contains(&index).then(|| if index < 0 { index + n } else { index } as usize)
}

/// `usize` indices read as `u64`. On a 64-bit target the two are one type
/// bit for bit, so the executors' loops (`with_loop_indices!`) are
/// compiled for four index types instead of six.
#[cfg(target_pointer_width = "64")]
pub(crate) fn usize_as_u64(indices: &[usize]) -> &[u64] {
    // SAFETY: on a 64-bit target `usize` and `u64` have one size, one
    // alignment and the same valid bit patterns: the memory of `indices` is
    // a `[u64]` of its length, borrowed for as long.
    unsafe { std::slice::from_raw_parts(indices.as_ptr().cast(), indices.len()) }
}

/// `isize` indices read as `i64`, as [`usize_as_u64`].
#[cfg(target_pointer_width = "64")]
pub(crate) fn isize_as_i64(indices: &[isize]) -> &[i64] {
    // SAFETY: as in `usize_as_u64`, for `isize` and `i64`.
    unsafe { std::slice::from_raw_parts(indices.as_ptr().cast(), indices.len()) }
}

/// A `usize` index array viewed as `u64`s (see [`usize_as_u64`]), any
/// layout.
#[cfg(target_pointer_width = "64")]
pub(crate) fn usize_view_as_u64<'a>(indices: &'a CowArray<'_, usize, IxDyn>) -> ArrayViewD<'a, u64> {
    // SAFETY: as in `usize_as_u64`: each element of the cast view is an
    // element of `indices`, at the same place (one size, so the strides
    // are the same), borrowed from it for `'a`.
    unsafe { indices.raw_view().cast::<u64>().deref_into_view() }
}

/// An `isize` index array viewed as `i64`s, as [`usize_view_as_u64`].
#[cfg(target_pointer_width = "64")]
pub(crate) fn isize_view_as_i64<'a>(indices: &'a CowArray<'_, isize, IxDyn>) -> ArrayViewD<'a, i64> {
    // SAFETY: as in `usize_view_as_u64`, for `isize` and `i64`.
    unsafe { indices.raw_view().cast::<i64>().deref_into_view() }
}

/// Integer types usable as indices.
#[diagnostic::on_unimplemented(
    message = "arrays of `{Self}` cannot index",
    label = "index arrays hold integers or booleans",
    note = "index arrays hold usize, isize, i32, i64, u32 or u64 (integer indexing) or bool (a mask)"
)]
pub trait IndexInt: Copy + fmt::Display + Send + Sync + 'static + sealed::Sealed {
    /// The value as an `i128`, exactly.
    fn to_i128(self) -> i128;
    /// Whether the value lies in `[-len, len)`.
    fn in_bounds(self, len: usize) -> bool;
    /// The position of an in-bounds value: negative values count from the end.
    fn position(self, len: usize) -> usize;
    /// The position of a value in `[0, len)`, which needs no wrapping;
    /// `None` for a negative or too large one.
    fn direct_position(self, len: usize) -> Option<usize>;
    /// The value as a position as it stands, for one known to lie in
    /// `[0, len)` ([`direct_position`](Self::direct_position) said so):
    /// no test, and no wrap.
    #[doc(hidden)]
    fn unwrapped_position(self) -> usize;
    /// Wraps an array of this type.
    fn wrap_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_>;
    /// Wraps a vector of this type.
    #[doc(hidden)]
    fn wrap_slice(slice: &[Self]) -> IndexSlice<'_>;
}

pub(crate) mod sealed {
    /// Closes [`IndexInt`](super::IndexInt) and
    /// [`IndexArrayElement`](crate::index::IndexArrayElement) to the types
    /// listed here.
    pub trait Sealed {}
}

macro_rules! index_int {
    ($($t:ty => $variant:ident, $signed:literal),*) => {$(
        impl sealed::Sealed for $t {}
        impl IndexInt for $t {
            #[inline]
            fn to_i128(self) -> i128 {
                self as i128
            }
            #[inline]
            fn in_bounds(self, len: usize) -> bool {
                if $signed {
                    // i in [-n, n)  <=>  i + n in [0, 2n), without a branch.
                    ((self as i64).wrapping_add(len as i64) as u64) < 2 * len as u64
                } else {
                    (self as u64) < len as u64
                }
            }
            #[inline]
            fn position(self, len: usize) -> usize {
                if $signed {
                    // Adds `len` to negative values only, without a branch.
                    let i = self as i64;
                    (i + ((i >> 63) & len as i64)) as usize
                } else {
                    self as usize
                }
            }
            #[inline]
            fn direct_position(self, len: usize) -> Option<usize> {
                // A negative value is at least 2^63 as a `u64`, above
                // every length (at most `isize::MAX`).
                ((self as i64 as u64) < len as u64).then_some(self as usize)
            }
            #[inline]
            fn unwrapped_position(self) -> usize {
                self as usize
            }
            fn wrap_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_> {
                IntArray::$variant(array)
            }
            #[inline]
            fn wrap_slice(slice: &[Self]) -> IndexSlice<'_> {
                IndexSlice::$variant(slice)
            }
        }
    )*};
}
index_int!(usize => Usize, false, isize => Isize, true, i32 => I32, true, i64 => I64, true, u32 => U32, false, u64 => U64, false);

#[cfg(test)]
mod tests {
    use super::{IndexInt, position_of};

    /// The folded views read every index as its value, in every layout:
    /// contiguous, strided, reversed, and the extremes of each type.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn folded_indices_read_the_same_values() {
        use ndarray::{Array2, CowArray, s};

        use super::{isize_as_i64, isize_view_as_i64, usize_as_u64, usize_view_as_u64};

        let unsigned = Array2::from_shape_vec((2, 3), vec![0, 1, usize::MAX, 7, usize::MAX - 1, 42])
            .unwrap()
            .into_dyn();
        let signed = unsigned.mapv(|u| u as isize);
        assert_eq!(
            usize_as_u64(unsigned.as_slice().unwrap()),
            unsigned.iter().map(|&u| u as u64).collect::<Vec<_>>()
        );
        assert_eq!(
            isize_as_i64(signed.as_slice().unwrap()),
            signed.iter().map(|&i| i as i64).collect::<Vec<_>>()
        );
        for view in [
            unsigned.view(),
            unsigned.slice(s![.., ..;2]).into_dyn(),
            unsigned.slice(s![..;-1, ..;-2]).into_dyn(),
        ] {
            let borrowed = CowArray::from(view.clone());
            let folded = usize_view_as_u64(&borrowed);
            assert_eq!(folded.shape(), view.shape());
            assert!(folded.iter().eq(view.iter().map(|&u| u as u64).collect::<Vec<_>>().iter()));
        }
        let reversed = signed.slice(s![.., ..;-1]).into_dyn();
        let borrowed = CowArray::from(reversed.clone());
        let folded = isize_view_as_i64(&borrowed);
        assert!(folded.iter().eq(reversed.iter().map(|&i| i as i64).collect::<Vec<_>>().iter()));
        assert!(folded.iter().any(|&i| i < 0), "negative values keep their sign");
    }

    /// Values around every edge of an axis of length `len`, and the
    /// extremes of each type.
    fn edges(len: usize) -> Vec<i128> {
        let n = len as i128;
        let mut values = vec![-n - 1, -n, -n + 1, -1, 0, 1, n - 1, n, n + 1];
        values.extend([
            i32::MIN as i128,
            i32::MAX as i128,
            u32::MAX as i128,
            i64::MIN as i128,
            i64::MAX as i128,
            u64::MAX as i128,
        ]);
        values
    }

    /// Each index type's branch-free rule is `position_of`, on every value
    /// the type can hold.
    fn agrees<I: IndexInt + TryFrom<i128>>(len: usize) {
        for value in edges(len) {
            let Ok(index) = I::try_from(value) else { continue };
            let expected = position_of(value, len);
            assert_eq!(index.in_bounds(len), expected.is_some(), "{value} of {len}");
            if let Some(position) = expected {
                assert_eq!(index.position(len), position, "{value} of {len}");
            }
            let direct = (0..len as i128).contains(&value).then_some(value as usize);
            assert_eq!(index.direct_position(len), direct, "{value} of {len}");
        }
    }

    #[test]
    fn every_index_type_follows_the_one_rule() {
        for len in [0, 1, 7, 1 << 20] {
            agrees::<i32>(len);
            agrees::<i64>(len);
            agrees::<isize>(len);
            agrees::<u32>(len);
            agrees::<u64>(len);
            agrees::<usize>(len);
        }
        assert_eq!(position_of(-1, 3), Some(2));
        assert_eq!(position_of(-4, 3), None);
        assert_eq!(position_of(0, 0), None);
    }

    #[test]
    fn no_negative_value_is_a_direct_position_of_the_longest_axis() {
        // No axis is longer than `isize::MAX`, so no negative value passes.
        let longest = isize::MAX as usize;
        assert_eq!(u64::MAX.direct_position(longest), None);
        assert_eq!(i64::MIN.direct_position(longest), None);
        assert_eq!((-1i64).direct_position(longest), None);
        assert_eq!(i64::MAX.direct_position(longest), None);
    }
}
