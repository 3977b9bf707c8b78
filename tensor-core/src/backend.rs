//! For backend authors: what a tensor type implements so that `at!`,
//! `set!`, `try_at!` and `try_set!` index it, and the checks and plans it
//! runs with. Users of the macros and of the method syntax need none of it.
//!
//! A backend implements [`Indexable`] (reads), [`IndexableMut`] (writes)
//! and [`IntoUpdatable`] (`set!`'s copy) for its tensor type. Each method
//! takes the index as a list of [`IndexElem`]s and
//! a mode ([`AnyMode`]); it calls [`prepare`] first, which checks the whole
//! call in NumPy's order (the mode, the index, the value's shape, every
//! operand) and returns a [`Plan`](plan::Plan) that cannot fail to
//! execute, so that nothing is written when anything is wrong, and every
//! error is the CPU's. The macros' static checks (ranks, value ranks,
//! element types) sit above these traits, so they hold on every backend.
//!
//! ndarray's own implementation is the blanket one over [`Target`] and
//! [`TargetMut`]; tensor-gpu's `GpuTensor` implements the traits itself.
//! The free functions ([`get`], [`set`], [`update`], [`apply`] and their
//! batched forms) are the CPU's entry points over a list of
//! [`IndexElem`]s, of dynamic rank.

use std::fmt::Display;

use ndarray::{ArcArray, Array, Array1, ArrayView, ArrayViewMut, CowArray, Dimension};

use crate::api;
use crate::element::{Arith, Compare, Op};
use crate::error::IndexError;
use crate::index::{BasicList, IndexElem, IndexSlice, Single};
use crate::memory;
use crate::rank::checked_copy;
pub use crate::target::{Target, TargetMut};
use crate::value::{InOrder, Written};

pub use crate::api::{apply, get, get_into, get_view, select, set, update};
pub use crate::batched::{apply_batched, get_batched, get_batched_into, select_batched, set_batched, update_batched};
pub use crate::index::{DeviceArray, DeviceForm, IntIndex, IntoIntIndex};
pub use crate::mode::{AnyMode, Bounds, Resolution};
#[doc(inline)]
pub use crate::plan;
#[doc(inline)]
pub use crate::prepare;
pub use crate::rank::{
    Advanced, Basic, BatchedAlong, BatchedIndices, BatchedMask, Dynamic, Integers, Kind, NoBatchAxes, PerRank, Rank, Selection,
};
pub use crate::value::{Broadcast, Value};

/// Which elements a mask on the target itself selects (`x[x < s]`,
/// `x[(x > a) & (x < b)]`): the test on an element, and the mask as data
/// (its comparisons and how they combine) for backends that cannot run a
/// host closure.
pub enum Predicate<'s, T, F> {
    /// One comparison `x compare scalar`; `test` evaluates the same.
    Compare {
        /// The comparison.
        compare: Compare,
        /// Its right-hand side.
        scalar: &'s T,
        /// The comparison as a closure.
        test: F,
    },
    /// Comparisons combined with `& | ^ !`; `test` evaluates the same.
    Combined {
        /// The mask in postfix order: each operator after its operands.
        steps: &'s [Step<'s, T>],
        /// The mask as a closure.
        test: F,
    },
}

/// One step of a combined mask on the target, in postfix order:
/// `(x > a) & !(x == b)` is `[Compare(Gt, a), Compare(Eq, b), Not, And]`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Step<'s, T> {
    /// `x compare scalar`.
    Compare(Compare, &'s T),
    /// Both of the two masks before it.
    And,
    /// Either of them.
    Or,
    /// Exactly one of them.
    Xor,
    /// Not the mask before it.
    Not,
}

impl<'s, T, F: FnMut(&T) -> bool> Predicate<'s, T, F> {
    /// `x compare scalar`, evaluated by `test`, which must agree with it
    /// and answer the same for an element every time it is asked: large
    /// arrays are counted by the comparison on several threads and may be
    /// written through `test` (an array value not in C order), and an
    /// array value is counted by one pass and written by another. A `test`
    /// that selects other elements than the count makes the write panic,
    /// with some of them written.
    pub fn compare(compare: Compare, scalar: &'s T, test: F) -> Self {
        Predicate::Compare { compare, scalar, test }
    }

    /// Combined comparisons `steps` (postfix), evaluated by `test`, which
    /// must agree with them (other backends run `steps`) and answer the
    /// same for an element every time, as for [`compare`](Self::compare).
    pub fn combined(steps: &'s [Step<'s, T>], test: F) -> Self {
        Predicate::Combined { steps, test }
    }

    /// The test on one element.
    pub fn into_test(self) -> F {
        match self {
            Predicate::Compare { test, .. } | Predicate::Combined { test, .. } => test,
        }
    }

    /// The single comparison, if it is one, and the test on one element.
    pub fn into_parts(self) -> (Option<(Compare, &'s T)>, F) {
        match self {
            Predicate::Compare { compare, scalar, test } => (Some((compare, scalar)), test),
            Predicate::Combined { test, .. } => (None, test),
        }
    }
}

/// What a mask's comparison on an array builds (`a < s` inside `x[...]`
/// where `a` is not the target itself): a boolean array for an ndarray, a
/// mask on the device for a tensor there.
pub trait MaskOperand {
    /// The element type.
    type Elem;
    /// The mask it builds.
    type Mask;
    /// The mask `self compare scalar`; `test` evaluates the same on one
    /// element (the CPU runs it).
    fn mask(&self, compare: Compare, scalar: &Self::Elem, test: impl FnMut(&Self::Elem) -> bool) -> Self::Mask;
}

impl<X: Target + ?Sized> MaskOperand for X {
    type Elem = X::Elem;
    type Mask = Array<bool, X::Dim>;
    fn mask(&self, _: Compare, _: &X::Elem, test: impl FnMut(&X::Elem) -> bool) -> Self::Mask {
        self.target_view().map(test)
    }
}

/// A target whose elements a host closure can update (`.apply(f)`): every
/// ndarray. A tensor whose elements live on another device does not
/// implement it where the closure cannot reach them, so that `.apply(f)`
/// on it does not compile.
#[diagnostic::on_unimplemented(
    message = "`.apply(f)` runs a host closure on each element, which `{Self}` cannot do",
    label = "its elements are not on the host",
    note = "read the elements (`at!(x[i])`), compute with the tensor's own operations, and write the result back (`at!(x[i] = y)`)"
)]
pub trait HostClosures {}

impl<X: Target + ?Sized> HostClosures for X {}

/// A target the macros can read: every ndarray and reference to one (the
/// blanket implementation over [`Target`]), or another backend's tensor.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be indexed by tensor-at",
    label = "not an array tensor-at indexes",
    note = "the target of `at!`/`set!` is an ndarray (`Array`, `ArrayView`, `ArrayViewMut`, `ArcArray`, `CowArray`), a reference to one, or a `tensor_at::gpu::GpuTensor`"
)]
pub trait Indexable {
    /// The element type.
    type Elem;
    /// The rank (`IxDyn` where the backend does not track it statically).
    type Dim: Dimension;
    /// What a refused operation returns: [`IndexError`] on the CPU.
    type Error: From<IndexError> + Display;
    /// The result of a read of kind `K` (basic or advanced) and rank `R`.
    type Read<'t, K: Kind, R: Rank>
    where
        Self: 't;

    /// `self[list]` for a typed list of integers alone, in mode `error`,
    /// where the backend reads the element inline: `Some(None)` when an
    /// integer is out of bounds, for the general path to name; `None` (the
    /// default) to take the other paths.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_element<'t, K: Kind, R: Rank>(&'t self, list: &impl BasicList) -> Option<Option<Self::Read<'t, K, R>>>
    where
        Self::Elem: Clone,
    {
        let _ = list;
        None
    }

    /// `self[list]` for a typed list in mode `error`, where the backend
    /// reads basic elements in place; `None` (the default, and for an index
    /// that fails, whose error the general path names) to take
    /// [`read_index`](Self::read_index) with the list built.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_basic<'t, K: Kind, R: Rank>(&'t self, list: &impl BasicList) -> Option<Self::Read<'t, K, R>>
    where
        Self::Elem: Clone,
    {
        let _ = list;
        None
    }

    /// `self[index]` for one vector of indices in mode `error`, where the
    /// backend reads a few inline; `None` (the default) to take
    /// [`read_index`](Self::read_index).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_few<'t, K: Kind, R: Rank>(&'t self, index: IndexSlice<'_>) -> Option<Result<Self::Read<'t, K, R>, Self::Error>>
    where
        Self::Elem: Clone,
    {
        let _ = index;
        None
    }

    /// `self[elem]` for an index of one advanced element in mode `error`,
    /// where the backend reads a small one inline; `None` (the default) to
    /// take [`read_index`](Self::read_index).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_single<'t, K: Kind, R: Rank>(&'t self, elem: Single<'_>) -> Option<Self::Read<'t, K, R>>
    where
        Self::Elem: Clone,
    {
        let _ = elem;
        None
    }

    /// `self[index]`, with the leading `batch` axes paired (`; batch = k`;
    /// 0 for none).
    fn read_index<'t, K: Kind, R: Rank>(
        &'t self,
        index: &[IndexElem<'_>],
        batch: usize,
        mode: AnyMode<Self::Elem>,
    ) -> Result<Self::Read<'t, K, R>, Self::Error>
    where
        Self::Elem: Clone;

    /// `self[predicate(self)]`: the selected elements in C order, in rank
    /// `R` (one axis, or a dynamic rank).
    fn read_where<R: Rank, F: FnMut(&Self::Elem) -> bool>(
        &self,
        predicate: Predicate<'_, Self::Elem, F>,
    ) -> Result<Self::Read<'_, Advanced, R>, Self::Error>
    where
        Self::Elem: Clone;
}

/// A target the macros can write. On error, nothing is written.
#[diagnostic::on_unimplemented(
    message = "cannot write through `{Self}`",
    label = "this array is read-only",
    note = "`at!` writes into an `Array`, `ArrayViewMut`, `ArcArray`, a `GpuTensor` or a `&mut` of one; an `ArrayView` is read-only: `set!` returns an updated copy instead"
)]
pub trait IndexableMut: Indexable {
    /// Nothing: naming it is the macros' check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_target: std::marker::PhantomData<Self>) {}
    /// `self[list] = value` for a typed list of integers alone, all in
    /// bounds, in mode `error`, where the backend writes the element
    /// inline: whether it did (`false`, the default, to take the other
    /// paths).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_element(&mut self, list: &impl BasicList, value: &Self::Elem) -> bool
    where
        Self::Elem: Clone,
    {
        let _ = (list, value);
        false
    }

    /// `self[list] op= value` as [`set_element`](Self::set_element) takes
    /// it, where `op` needs no check of its operand.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_element(&mut self, list: &impl BasicList, op: Op, value: &Self::Elem) -> bool
    where
        Self::Elem: Arith,
    {
        let _ = (list, op, value);
        false
    }

    /// `self[list] = value` for a typed list in mode `error`, where the
    /// backend writes basic elements in place: whether it wrote (`false`,
    /// the default, and for an index that fails, whose error the general
    /// path names, to take [`set_index`](Self::set_index) with the list
    /// built).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_basic(&mut self, list: &impl BasicList, value: Written<'_, Self::Elem>) -> bool
    where
        Self::Elem: Clone,
    {
        let _ = (list, value);
        false
    }

    /// `self[list] op= value` for a typed list in mode `error`, where the
    /// backend writes basic elements in place: whether it wrote, as
    /// [`set_basic`](Self::set_basic) tells it.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_basic(&mut self, list: &impl BasicList, op: Op, value: Written<'_, Self::Elem>) -> bool
    where
        Self::Elem: Arith,
    {
        let _ = (list, op, value);
        false
    }

    /// `self[index] = values` for one vector of indices in mode `error`,
    /// where the backend writes a few inline; `None` (the default) to take
    /// [`set_index`](Self::set_index).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_few(&mut self, index: IndexSlice<'_>, values: InOrder<'_, Self::Elem>) -> Option<Result<(), Self::Error>>
    where
        Self::Elem: Clone,
    {
        let _ = (index, values);
        None
    }

    /// `self[index] op= values` as [`set_few`](Self::set_few) takes it.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_few(&mut self, index: IndexSlice<'_>, op: Op, values: InOrder<'_, Self::Elem>) -> Option<Result<(), Self::Error>>
    where
        Self::Elem: Arith,
    {
        let _ = (index, op, values);
        None
    }

    /// `self[index].apply(f)` as [`set_few`](Self::set_few) takes it.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn apply_few<F: FnMut(Self::Elem) -> Self::Elem>(&mut self, index: IndexSlice<'_>, f: &mut F) -> Option<Result<(), Self::Error>>
    where
        Self::Elem: Clone,
    {
        let _ = (index, f);
        None
    }

    /// `self[elem] = values` for an index of one advanced element in mode
    /// `error`, where the backend writes a small one inline: whether it
    /// wrote (`false`, the default, to take [`set_index`](Self::set_index)).
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_single(&mut self, elem: Single<'_>, values: InOrder<'_, Self::Elem>) -> bool
    where
        Self::Elem: Clone,
    {
        let _ = (elem, values);
        false
    }

    /// `self[elem] op= values` as [`set_single`](Self::set_single) takes it.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_single(&mut self, elem: Single<'_>, op: Op, values: InOrder<'_, Self::Elem>) -> bool
    where
        Self::Elem: Arith,
    {
        let _ = (elem, op, values);
        false
    }

    /// `self[index] = value`, with the leading `batch` axes paired.
    ///
    /// The macros' entry points inline their call of it: an implementation
    /// with much to do makes a call of its own that does not take `self`'s
    /// address (as the ndarray one does, on a view), so that a target made
    /// by `set!` can stay in registers.
    fn set_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: Value<'_, Self::Elem>,
        mode: AnyMode<Self::Elem>,
    ) -> Result<(), Self::Error>
    where
        Self::Elem: Clone;

    /// `self[index] op= value`, every occurrence in index order, with the
    /// leading `batch` axes paired.
    fn update_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: Value<'_, Self::Elem>,
        mode: AnyMode<Self::Elem>,
    ) -> Result<(), Self::Error>
    where
        Self::Elem: Arith;

    /// `self[index].apply(f)`, with the leading `batch` axes paired.
    fn apply_index<F: FnMut(Self::Elem) -> Self::Elem>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        f: F,
        mode: AnyMode<Self::Elem>,
    ) -> Result<(), Self::Error>
    where
        Self::Elem: Clone;

    /// `self[predicate(self)] = value`: a scalar, or one value per selected
    /// element in C order.
    fn set_where<F: FnMut(&Self::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, Self::Elem, F>,
        value: Value<'_, Self::Elem>,
    ) -> Result<(), Self::Error>
    where
        Self::Elem: Clone;

    /// `self[predicate(self)] op= value`.
    fn update_where<F: FnMut(&Self::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, Self::Elem, F>,
        op: Op,
        value: Value<'_, Self::Elem>,
    ) -> Result<(), Self::Error>
    where
        Self::Elem: Arith;
}

impl<X: Target + ?Sized> Indexable for X {
    type Elem = X::Elem;
    type Dim = X::Dim;
    type Error = IndexError;
    type Read<'t, K: Kind, R: Rank>
        = K::Read<'t, X::Elem, R>
    where
        Self: 't;

    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_element<'t, K: Kind, R: Rank>(&'t self, list: &impl BasicList) -> Option<Option<K::Read<'t, X::Elem, R>>>
    where
        X::Elem: Clone,
    {
        // A view the kind cannot copy goes to the general path, which names the error.
        api::read_element::<_, _, R>(self.target_view(), list).map(|element| element.and_then(|view| K::view(view).ok()))
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_basic<'t, K: Kind, R: Rank>(&'t self, list: &impl BasicList) -> Option<K::Read<'t, X::Elem, R>>
    where
        X::Elem: Clone,
    {
        api::read_basic::<_, _, R>(self.target_view(), list).and_then(|view| K::view(view).ok())
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_few<'t, K: Kind, R: Rank>(&'t self, index: IndexSlice<'_>) -> Option<Result<K::Read<'t, X::Elem, R>, IndexError>>
    where
        X::Elem: Clone,
    {
        api::read_few::<_, _, R>(self.target_view(), index).map(|array| Ok(K::gathered(array)))
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn read_single<'t, K: Kind, R: Rank>(&'t self, elem: Single<'_>) -> Option<K::Read<'t, X::Elem, R>>
    where
        X::Elem: Clone,
    {
        api::read_single::<_, _, R>(self.target_view(), elem).map(K::gathered)
    }

    fn read_index<'t, K: Kind, R: Rank>(
        &'t self,
        index: &[IndexElem<'_>],
        batch: usize,
        mode: AnyMode<X::Elem>,
    ) -> Result<K::Read<'t, X::Elem, R>, IndexError>
    where
        X::Elem: Clone,
    {
        match batch {
            // The plain read slices a basic index in rank `R`, with no
            // dynamic shape built.
            0 => api::read_as::<K, _, _, R>(self.target_view(), index, mode),
            batch => crate::batched::select_batched(self.target_view().into_dyn(), index, batch, mode).and_then(api::ranked::<K, _, R>),
        }
    }

    fn read_where<R: Rank, F: FnMut(&X::Elem) -> bool>(&self, predicate: Predicate<'_, X::Elem, F>) -> Result<Array<X::Elem, R>, IndexError>
    where
        X::Elem: Clone,
    {
        let mut test = predicate.into_test();
        let selected: Array1<X::Elem> = self.target_view().iter().filter(|e| test(e)).cloned().collect();
        Ok(selected.into_dimensionality().expect("a whole-array mask selects along one axis"))
    }
}

impl<X: TargetMut + ?Sized> IndexableMut for X {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_element(&mut self, list: &impl BasicList, value: &X::Elem) -> bool
    where
        X::Elem: Clone,
    {
        api::set_element(self.target_view_mut(), list, value)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_element(&mut self, list: &impl BasicList, op: Op, value: &X::Elem) -> bool
    where
        X::Elem: Arith,
    {
        api::update_element(self.target_view_mut(), list, op, value)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_basic(&mut self, list: &impl BasicList, value: Written<'_, X::Elem>) -> bool
    where
        X::Elem: Clone,
    {
        api::set_basic(self.target_view_mut(), list, value)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_basic(&mut self, list: &impl BasicList, op: Op, value: Written<'_, X::Elem>) -> bool
    where
        X::Elem: Arith,
    {
        api::update_basic(self.target_view_mut(), list, op, value)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_few(&mut self, index: IndexSlice<'_>, values: InOrder<'_, X::Elem>) -> Option<Result<(), IndexError>>
    where
        X::Elem: Clone,
    {
        api::set_few(self.target_view_mut(), index, values)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_few(&mut self, index: IndexSlice<'_>, op: Op, values: InOrder<'_, X::Elem>) -> Option<Result<(), IndexError>>
    where
        X::Elem: Arith,
    {
        api::update_few(self.target_view_mut(), index, op, values)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn apply_few<F: FnMut(X::Elem) -> X::Elem>(&mut self, index: IndexSlice<'_>, f: &mut F) -> Option<Result<(), IndexError>>
    where
        X::Elem: Clone,
    {
        api::apply_few(self.target_view_mut(), index, f)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn set_single(&mut self, elem: Single<'_>, values: InOrder<'_, X::Elem>) -> bool
    where
        X::Elem: Clone,
    {
        api::set_single(self.target_view_mut(), elem, values)
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn update_single(&mut self, elem: Single<'_>, op: Op, values: InOrder<'_, X::Elem>) -> bool
    where
        X::Elem: Arith,
    {
        api::update_single(self.target_view_mut(), elem, op, values)
    }

    #[inline]
    fn set_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: Value<'_, X::Elem>,
        mode: AnyMode<X::Elem>,
    ) -> Result<(), IndexError>
    where
        X::Elem: Clone,
    {
        set_index_in(self.target_view_mut(), index, batch, value, mode)
    }

    #[inline]
    fn update_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: Value<'_, X::Elem>,
        mode: AnyMode<X::Elem>,
    ) -> Result<(), IndexError>
    where
        X::Elem: Arith,
    {
        update_index_in(self.target_view_mut(), index, batch, op, value, mode)
    }

    fn apply_index<F: FnMut(X::Elem) -> X::Elem>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        f: F,
        mode: AnyMode<X::Elem>,
    ) -> Result<(), IndexError>
    where
        X::Elem: Clone,
    {
        crate::batched::apply_batched(&mut self.target_view_mut(), index, batch, f, mode)
    }

    #[inline]
    fn set_where<F: FnMut(&X::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, X::Elem, F>,
        value: Value<'_, X::Elem>,
    ) -> Result<(), IndexError>
    where
        X::Elem: Clone,
    {
        api::set_where(self.target_view_mut(), predicate.into_parts(), value)
    }

    #[inline]
    fn update_where<F: FnMut(&X::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, X::Elem, F>,
        op: Op,
        value: Value<'_, X::Elem>,
    ) -> Result<(), IndexError>
    where
        X::Elem: Arith,
    {
        api::update_where(self.target_view_mut(), predicate.into_parts(), op, value)
    }
}

/// What `set!` updates: the source's own buffer when it owns it uniquely,
/// a copy otherwise (so nothing that shares the source sees the change).
#[diagnostic::on_unimplemented(
    message = "`set!` cannot copy `{Self}`",
    note = "`set!` takes an ndarray (owned, view, `ArcArray`, `CowArray`), a reference to one, or a `GpuTensor`"
)]
pub trait IntoUpdatable {
    /// The array the update is written into, then returned.
    type Updatable: IndexableMut;
    /// Takes or copies the source.
    fn into_updatable(self) -> Result<Self::Updatable, <Self::Updatable as Indexable>::Error>;

    /// [`into_updatable`](Self::into_updatable) for `set!`, panicking on
    /// its error. Sources that cannot fail make the array here, where the
    /// caller keeps it, rather than in a `Result` it is then copied out of
    /// (a copy that waits on the copying function's own stores).
    #[doc(hidden)]
    #[inline]
    #[track_caller]
    fn into_updatable_unwrap(self) -> Self::Updatable
    where
        Self: Sized,
    {
        match self.into_updatable() {
            Ok(updatable) => updatable,
            Err(error) => panic!("{error}"),
        }
    }
}

impl<T, D: Rank> IntoUpdatable for Array<T, D> {
    type Updatable = Array<T, D>;
    fn into_updatable(self) -> Result<Array<T, D>, IndexError> {
        Ok(self)
    }
}

impl<T: Clone, D: Rank> IntoUpdatable for ArcArray<T, D> {
    type Updatable = Array<T, D>;
    /// Its own buffer when no other owner shares it; else a copy, checked
    /// as every copy is (ndarray's `into_owned` would abort where memory
    /// cannot hold it).
    fn into_updatable(self) -> Result<Array<T, D>, IndexError> {
        match self.try_into_owned_nocopy() {
            Ok(unique) => Ok(unique),
            Err(shared) => checked_copy(shared.view()),
        }
    }
}

impl<T: Clone, D: Rank> IntoUpdatable for CowArray<'_, T, D> {
    type Updatable = Array<T, D>;
    fn into_updatable(self) -> Result<Array<T, D>, IndexError> {
        match self.is_view() {
            // A borrowed view may be a stride-0 broadcast: copied checked.
            true => checked_copy(self.view()),
            false => Ok(self.into_owned()),
        }
    }
}

impl<T: Clone, D: Rank> IntoUpdatable for ArrayViewMut<'_, T, D> {
    type Updatable = Array<T, D>;
    fn into_updatable(self) -> Result<Array<T, D>, IndexError> {
        checked_copy(self.view())
    }
}

impl<T: Clone, D: Rank> IntoUpdatable for ArrayView<'_, T, D> {
    type Updatable = Array<T, D>;
    fn into_updatable(self) -> Result<Array<T, D>, IndexError> {
        checked_copy(self)
    }
}

impl<X: Target + ?Sized> IntoUpdatable for &X
where
    X::Elem: Clone,
{
    type Updatable = Array<X::Elem, X::Dim>;
    fn into_updatable(self) -> Result<Self::Updatable, IndexError> {
        checked_copy(self.target_view())
    }
    // Always inlined, with the copy it makes: a call's frame and saved
    // registers are an eighth of a small `set!`'s instructions.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn into_updatable_unwrap(self) -> Self::Updatable {
        memory::copy_unwrap(self.target_view())
    }
}

/// [`IndexableMut::set_index`] on an ndarray, a call of its own that takes
/// the target as a view, by value: the target's own address is never
/// taken, so `set!`'s fresh copy stays in registers on the inline paths
/// (in memory, its fields are stored one by one and then moved as wider
/// words, which stalls on every call). A small wrapper per element type
/// and rank; `set_batched` itself is compiled once per element type (see
/// `common`).
#[inline(never)]
fn set_index_in<T: Clone, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    index: &[IndexElem<'_>],
    batch: usize,
    value: Value<'_, T>,
    mode: AnyMode<T>,
) -> Result<(), IndexError> {
    crate::batched::set_batched(&mut target.into_dyn(), index, batch, value, mode)
}

/// [`IndexableMut::update_index`] on an ndarray, as [`set_index_in`] is.
#[inline(never)]
fn update_index_in<T: Arith, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    index: &[IndexElem<'_>],
    batch: usize,
    op: Op,
    value: Value<'_, T>,
    mode: AnyMode<T>,
) -> Result<(), IndexError> {
    crate::batched::update_batched(&mut target.into_dyn(), index, batch, op, value, mode)
}

#[cfg(test)]
mod tests {
    use ndarray::ArcArray;

    use super::IntoUpdatable;

    /// `set!` of an `ArcArray` takes its buffer when it alone owns it, and
    /// copies it when another owner shares it, which then keeps its own.
    #[test]
    fn an_arc_array_is_copied_only_when_shared() {
        let unique = ArcArray::from_shape_vec((2, 3), (0..6i64).collect()).unwrap();
        let buffer = unique.as_ptr();
        let taken = unique.into_updatable().unwrap();
        assert_eq!(taken.as_ptr(), buffer);

        let shared = ArcArray::from_shape_vec((2, 3), (0..6i64).collect()).unwrap();
        let other = shared.clone();
        let mut copy = shared.into_updatable().unwrap();
        assert_ne!(copy.as_ptr(), other.as_ptr());
        copy[[1, 2]] = 100;
        assert_eq!(other[[1, 2]], 5);
        assert_eq!(copy, ndarray::array![[0, 1, 2], [3, 4, 100]]);
    }
}
