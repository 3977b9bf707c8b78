//! Memory sized from user input: the element count of a shape, and every
//! vector or array copy whose length comes from an index, a shape or
//! a value.
//!
//! A count that overflows, or memory the allocator refuses, is `None`
//! here, never a panic or an abort; the entry layer reports it as
//! [`IndexError::TooLarge`](crate::error::IndexError::TooLarge). Nothing
//! sized by a user's lengths is reserved anywhere else, but for the known
//! limits docs/rules.md lists (an `along` row collected whole, an `ix_`
//! mask's positions, a batch's plans). A vector of a few kilobytes is the
//! exception: no length makes it too large, and an allocator that refuses
//! it refuses the process's every allocation.

use ndarray::{Array, ArrayView, Dimension, ShapeBuilder};

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

/// Whether memory could hold `len` elements, as [`vec`] would find: room
/// for more than a few reserved, then given back, never touched.
pub(crate) fn holds<T>(len: usize) -> bool {
    len <= SMALL_BYTES / size_of::<T>().max(1) || Vec::<T>::new().try_reserve_exact(len).is_ok()
}

/// Room for `additional` more elements in `vec`, or `None` as for [`vec`].
#[cfg(any(feature = "burn", test))]
pub(crate) fn reserve<T>(vec: &mut Vec<T>, additional: usize) -> Option<()> {
    vec.try_reserve(additional).ok()
}

/// A copy of `view`: in Fortran order when the view's elements lie in that
/// order, else in C order. A view in either order is copied as one slice,
/// with its shape (as `Array::clone` does; `to_owned` and a checked
/// `from_shape_vec` work out the layout again, a large share of a small
/// `set!`'s time); any other is read in logical order, by ndarray's own
/// iterator (what its `to_owned` does for such a view). Every branch fills
/// one `Vec`, and the array is made from it inline, so that the copy is
/// built in registers: an array returned by a call on one branch is merged
/// through memory, and `set!` then stalls on its fields. `None` when
/// memory cannot hold the copy (a stride-0 view may show far more elements
/// than it has). Always inlined, as [`copy_unwrap`] is: a small
/// copy's checks fold into its caller's.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn copy<T: Clone, D: Dimension>(view: ArrayView<'_, T, D>) -> Option<Array<T, D>> {
    let mut elements = vec(view.len())?;
    let fortran = if let Some(slice) = view.to_slice() {
        elements.extend_from_slice(slice);
        false
    } else if let Some(slice) = view.view().reversed_axes().to_slice() {
        elements.extend_from_slice(slice);
        true
    } else {
        elements.extend(view.iter().cloned());
        false
    };
    debug_assert_eq!(elements.len(), view.len());
    let shape = view.raw_dim();
    // SAFETY: `elements` holds `view.len()` elements (a view in C order as
    // one slice; one in Fortran order as the slice of its reversed axes,
    // which are in C order; any other in C order, by its iterator), as many
    // as the shape `view.raw_dim()` holds in either order, which fits
    // `isize` since the view's does: all `from_shape_vec_unchecked` asks.
    // (That they are in the order named makes the copy right, not sound.)
    // The order is a constant in each call, so that each works out its
    // strides without asking which.
    Some(unsafe {
        match fortran {
            false => Array::from_shape_vec_unchecked(shape, elements),
            true => Array::from_shape_vec_unchecked(shape.f(), elements),
        }
    })
}

/// [`copy`] for the callers that panic on an error (`set!`, a write in
/// place into an `ArcArray` another owner shares), panicking (unwinding,
/// never aborting) when memory cannot hold the copy.
///
/// # Panics
///
/// When memory cannot hold the copy.
#[cfg_attr(not(unoptimized), inline(always))]
#[track_caller]
pub(crate) fn copy_unwrap<T: Clone, D: Dimension>(view: ArrayView<'_, T, D>) -> Array<T, D> {
    let shape = view.raw_dim();
    match copy(view) {
        Some(array) => array,
        None => copy_too_large(shape.slice()),
    }
}

/// The panic of [`copy_unwrap`], out of line: a copy's `Result` moves the
/// array through memory.
#[cold]
#[inline(never)]
#[track_caller]
fn copy_too_large(shape: &[usize]) -> ! {
    panic!("{}", crate::error::IndexError::too_large(shape))
}

#[cfg(test)]
mod tests {
    use ndarray::{Array3, ArrayD, IxDyn, s};

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
    }

    /// The order a copy is in.
    #[derive(Debug, PartialEq)]
    enum Order {
        C,
        Fortran,
    }

    fn order_of<D: ndarray::Dimension>(copy: &ndarray::Array<i64, D>) -> Option<Order> {
        if copy.is_standard_layout() {
            Some(Order::C)
        } else if copy.view().reversed_axes().is_standard_layout() {
            Some(Order::Fortran)
        } else {
            None
        }
    }

    /// Copies hold the view's elements in its shape, as ndarray's
    /// `to_owned` does: in Fortran order for a view whose elements lie in
    /// that order (transposed), in C order for any other (whole, a leading
    /// slice, empty, stepped, reversed, broadcast, permuted, of static or
    /// dynamic rank, of no axes).
    #[test]
    fn owned_copies_equal_to_owned() {
        let a = Array3::from_shape_fn((3, 4, 5), |(i, j, k)| (100 * i + 10 * j + k) as i64);
        let dynamic = a.clone().into_dyn();
        let row = ndarray::arr1(&[1i64, 2, 3]);
        let scalar = ArrayD::from_elem(IxDyn(&[]), 7i64);
        let views = [
            (a.view().into_dyn(), Order::C),
            (a.slice(s![1.., .., ..]).into_dyn(), Order::C),
            (a.slice(s![..0, .., ..]).into_dyn(), Order::C),
            (a.slice(s![.., ..;2, ..]).into_dyn(), Order::C),
            (a.slice(s![..;-1, .., ..]).into_dyn(), Order::C),
            (a.view().reversed_axes().into_dyn(), Order::Fortran),
            (a.slice(s![.., 1.., ..]).reversed_axes().into_dyn(), Order::C),
            (row.broadcast((4, 3)).unwrap().into_dyn(), Order::C),
            (dynamic.view().permuted_axes(IxDyn(&[2, 0, 1])), Order::C),
            (scalar.view(), Order::C),
        ];
        for (view, order) in views {
            let copy = copy(view.view()).unwrap();
            assert_eq!(copy, view.to_owned(), "{:?}", view.strides());
            assert_eq!(copy.shape(), view.shape());
            assert_eq!(order_of(&copy), Some(order), "{:?}", view.strides());
        }
    }
}
