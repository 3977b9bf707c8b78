//! What can be indexed: any ndarray for reads, writable ones for updates.

use ndarray::{ArcArray, Array, ArrayBase, ArrayView, ArrayViewMut, Data};

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
        self.view_mut()
    }
}

#[diagnostic::do_not_recommend]
impl<X: TargetMut + ?Sized> TargetMut for &mut X {
    fn target_view_mut(&mut self) -> ArrayViewMut<'_, X::Elem, X::Dim> {
        (**self).target_view_mut()
    }
}
