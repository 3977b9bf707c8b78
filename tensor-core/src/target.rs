//! What can be indexed: any ndarray for reads, writable ones for updates.

use ndarray::{ArcArray, Array, ArrayBase, ArrayView, ArrayViewMut, Data};

use crate::memory;
use crate::rank::Rank;

/// An array that can be read by index: every ndarray, and references to one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be indexed by tensor-at",
    label = "not an ndarray",
    note = "a view (`at!(&x[..])`, `at!(&mut x[..])`) is of an ndarray (`Array`, `ArrayView`, `ArrayViewMut`, `ArcArray`, `CowArray`) or a reference to one; a GPU or burn tensor is read with `at!(x[..])`, which returns a new tensor"
)]
pub trait Target {
    /// The element type.
    type Elem;
    /// The rank.
    type Dim: Rank;
    /// The array as a view.
    fn target_view(&self) -> ArrayView<'_, Self::Elem, Self::Dim>;
}

#[diagnostic::do_not_recommend]
impl<A, S: Data<Elem = A>, D: Rank> Target for ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;
    fn target_view(&self) -> ArrayView<'_, A, D> {
        self.view()
    }
}

#[diagnostic::do_not_recommend]
impl<X: Target + ?Sized> Target for &X {
    type Elem = X::Elem;
    type Dim = X::Dim;
    fn target_view(&self) -> ArrayView<'_, X::Elem, X::Dim> {
        (**self).target_view()
    }
}

#[diagnostic::do_not_recommend]
impl<X: Target + ?Sized> Target for &mut X {
    type Elem = X::Elem;
    type Dim = X::Dim;
    fn target_view(&self) -> ArrayView<'_, X::Elem, X::Dim> {
        (**self).target_view()
    }
}

/// An array that can be written by index. Writes through a view land in the
/// viewed array; an `ArcArray` sharing its buffer copies it first, so the
/// other owners never see the change.
#[diagnostic::on_unimplemented(
    message = "cannot write through `{Self}`",
    label = "not an ndarray that can be written",
    note = "`at!` writes into an `Array`, `ArrayViewMut`, `ArcArray` or a `&mut` of one, and views them mutably (`at!(&mut x[..])`); an `ArrayView` is read-only: `set!` returns an updated copy instead; a GPU or burn tensor has no mutable view: update it with `at!(x[..] = v)`"
)]
pub trait TargetMut: Target {
    /// The array as a mutable view.
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, Self::Elem, Self::Dim>;
}

#[diagnostic::do_not_recommend]
impl<A, D: Rank> TargetMut for Array<A, D> {
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, A, D> {
        self.view_mut()
    }
}

#[diagnostic::do_not_recommend]
impl<A, D: Rank> TargetMut for ArrayViewMut<'_, A, D> {
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, A, D> {
        self.view_mut()
    }
}

#[diagnostic::do_not_recommend]
impl<A: Clone, D: Rank> TargetMut for ArcArray<A, D> {
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, A, D> {
        // A buffer another owner shares is copied first, checked as every
        // copy is: a panic where memory cannot hold it, not the abort of
        // ndarray's own copy in `view_mut`.
        if !self.is_unique() {
            *self = memory::copy_unwrap(self.view()).into_shared();
        }
        self.view_mut()
    }
}

#[diagnostic::do_not_recommend]
impl<X: TargetMut + ?Sized> TargetMut for &mut X {
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, X::Elem, X::Dim> {
        (**self).target_view_mut()
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{ArcArray, array};

    use super::TargetMut;
    use crate::builder::IntoUpdated;

    /// A write in place into an `ArcArray` another owner shares copies the
    /// buffer first (checked), so the other owner keeps its elements; one
    /// that owns its buffer alone writes into it. `.updated()` takes the
    /// buffer the same way.
    #[test]
    fn a_shared_arc_array_is_copied_before_a_write() {
        let mut alone = ArcArray::from_shape_vec((2, 2), vec![1, 2, 3, 4]).unwrap();
        let buffer = alone.as_ptr();
        alone.target_view_mut()[[0, 1]] = 20;
        assert_eq!((alone.as_ptr(), &alone), (buffer, &array![[1, 20], [3, 4]].into_shared()));

        let mut shared = alone.clone();
        shared.target_view_mut()[[1, 0]] = 30;
        assert!(shared.is_unique() && alone.is_unique());
        assert_eq!(shared, array![[1, 20], [30, 4]]);
        assert_eq!(alone, array![[1, 20], [3, 4]]);

        let other = shared.clone();
        let owned = shared.into_owned_array();
        assert_ne!(owned.as_ptr(), other.as_ptr());
        assert_eq!(owned, other);
        let unique = other.into_owned_array();
        assert_eq!(unique, array![[1, 20], [30, 4]]);
    }
}
