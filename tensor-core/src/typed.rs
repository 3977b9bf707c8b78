//! The typed entry points' rank arithmetic over whole index lists: the
//! macros pass an index as nested pairs `(e0, (e1, ()))`, and the types of
//! the elements give the rank of what a read returns and the checks of the
//! macros (too many indices, a value of too many axes).
//!
//! A read of `x[e0, e1, ...]` on a target of rank `D` has rank
//! `D - consumed + produced + broadcast`, where each element consumes target
//! axes, produces basic axes (slices, new axes) and contributes its rank to
//! the broadcast of the advanced indices (see [`rank`](crate::rank)).

use ndarray::{Dimension, Ix0, IxDyn};

use std::marker::PhantomData;

use crate::index::{IndexElem, KeptElem, Single};
use crate::rank::{BatchRanks, Dynamic, Integers, Kind, Rank, RankAdd, RankMax, RankSub, RoleFits};

/// An index list as the macros pass it: nested pairs `(e0, (e1, ()))`,
/// with the static ranks of the whole list.
pub trait IndexList<'a>: crate::index::BasicList {
    /// Target axes the list consumes.
    type Consumed: Dimension;
    /// Basic axes it produces.
    type Produced: Dimension;
    /// Rank of its advanced indices broadcast together.
    type Broadcast: Dimension;
    /// What a read returns.
    type Kind: Kind;
    /// Number of elements.
    const LEN: usize;
    /// Leading axes paired by `; batch = k` (0: none).
    const BATCH: usize = 0;
    /// Appends the run-time index elements to `out`.
    fn push_into(self, out: &mut Vec<IndexElem<'a>>);
    /// Calls `f` with the run-time index elements (a list of them built
    /// for the call, or borrowed where the list already is one).
    #[doc(hidden)]
    #[inline]
    fn with_elems<R>(self, f: impl FnOnce(&[IndexElem<'a>]) -> R) -> R
    where
        Self: Sized,
    {
        let mut elems = Vec::with_capacity(Self::LEN);
        self.push_into(&mut elems);
        f(&elems)
    }
    /// The list's indices when it is one borrowed vector of them.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single_index(&self) -> Option<crate::index::IndexSlice<'a>> {
        None
    }
    /// The list's one element as the inline path of a small advanced one
    /// reads it, when it is its only one and one that path takes.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        None
    }
}

impl<'a> IndexList<'a> for () {
    type Consumed = Ix0;
    type Produced = Ix0;
    type Broadcast = Ix0;
    type Kind = Integers;
    const LEN: usize = 0;
    #[inline]
    fn push_into(self, _: &mut Vec<IndexElem<'a>>) {}
}

impl<'a, C, P, B, K, R, F, T> IndexList<'a> for (Ranked<'a, C, P, B, K, R, F>, T)
where
    C: Dimension + RankAdd<T::Consumed>,
    P: Dimension + RankAdd<T::Produced>,
    B: Dimension + RankMax<T::Broadcast>,
    K: Kind,
    F: KeptElem<'a>,
    T: IndexList<'a>,
{
    type Consumed = <C as RankAdd<T::Consumed>>::Out;
    type Produced = <P as RankAdd<T::Produced>>::Out;
    type Broadcast = <B as RankMax<T::Broadcast>>::Out;
    type Kind = <T::Kind as Kind>::Or<K>;
    const LEN: usize = 1 + T::LEN;
    // Inlined into the macros' entry points, where the list is built: left
    // to the compiler, it is not, and a small update pays for the calls.
    #[inline]
    fn push_into(self, out: &mut Vec<IndexElem<'a>>) {
        out.push(self.0.elem.into_index_elem());
        self.1.push_into(out);
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single_index(&self) -> Option<crate::index::IndexSlice<'a>> {
        if T::LEN == 0 { self.0.elem.index_slice() } else { None }
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        if T::LEN == 0 { self.0.elem.single() } else { None }
    }
}

impl crate::index::BasicList for () {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn each_basic(&self, _: &mut impl crate::index::VisitBasic) {}
}

impl<'a, C, P, B, K, R, F: KeptElem<'a>, T: crate::index::BasicList> crate::index::BasicList for (Ranked<'a, C, P, B, K, R, F>, T) {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn each_basic(&self, f: &mut impl crate::index::VisitBasic) {
        if f.visit(self.0.elem.basic()) {
            self.1.each_basic(f);
        }
    }
}

pub use crate::index::{Ranked, RankedOf};

#[diagnostic::do_not_recommend]
impl<'a, C: Dimension, P: Dimension, B: Dimension, K: Kind, R, F: KeptElem<'a>> crate::index::IntoIndexElem<'a>
    for Ranked<'a, C, P, B, K, R, F>
{
    type Consumed = C;
    type Produced = P;
    type Broadcast = B;
    type Kind = K;
    type Role = R;
    type Kept = F;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> F {
        self.elem
    }
}

/// The ranks of one batch's share of an index list under `B` batch axes
/// (see [`BatchRanks`]): what `; batch = k` indexes in each `x[b]`.
pub trait BatchedList<'a, B>: IndexList<'a> {
    /// Axes of `x[b]` the list consumes.
    type Consumed: Dimension;
    /// Rank of its advanced indices broadcast together, in one batch.
    type Broadcast: Dimension;
}

impl<'a, B> BatchedList<'a, B> for () {
    type Consumed = Ix0;
    type Broadcast = Ix0;
}

/// One element's ranks in one batch.
type ShareOf<'a, H, B> = <<H as crate::index::IntoIndexElem<'a>>::Role as BatchRanks<
    <H as crate::index::IntoIndexElem<'a>>::Consumed,
    <H as crate::index::IntoIndexElem<'a>>::Broadcast,
    B,
>>::Consumed;
type ShareBroadcast<'a, H, B> = <<H as crate::index::IntoIndexElem<'a>>::Role as BatchRanks<
    <H as crate::index::IntoIndexElem<'a>>::Consumed,
    <H as crate::index::IntoIndexElem<'a>>::Broadcast,
    B,
>>::Broadcast;

impl<'a, B, H, T> BatchedList<'a, B> for (H, T)
where
    (H, T): IndexList<'a>,
    H: crate::index::IntoIndexElem<'a>,
    H::Role: BatchRanks<H::Consumed, H::Broadcast, B>,
    T: BatchedList<'a, B>,
    ShareOf<'a, H, B>: RankAdd<<T as BatchedList<'a, B>>::Consumed>,
    ShareBroadcast<'a, H, B>: RankMax<<T as BatchedList<'a, B>>::Broadcast>,
{
    type Consumed = <ShareOf<'a, H, B> as RankAdd<<T as BatchedList<'a, B>>::Consumed>>::Out;
    type Broadcast = <ShareBroadcast<'a, H, B> as RankMax<<T as BatchedList<'a, B>>::Broadcast>>::Out;
}

/// An index list under `; batch = K`, `B` being `K` as a rank (`IxDyn`
/// past `Ix6`): each batch indexes its own `x[b]` with the ranks of
/// [`BatchedList`], so a read of `x[list]` has rank
/// `K + (D - K) - consumed + produced + broadcast`, the batch axes in
/// front: `D - consumed + produced + broadcast` of one batch. (That the
/// target has the `K` axes is the macros' own check.)
pub struct Batch<B, L, const K: usize> {
    list: L,
    batch: PhantomData<B>,
}

impl<B, L, const K: usize> crate::index::BasicList for Batch<B, L, K> {
    /// A batched list takes the batched path.
    fn each_basic(&self, f: &mut impl crate::index::VisitBasic) {
        f.visit(None);
    }
}

/// `list` under `; batch = K`.
pub fn batch<B, L, const K: usize>(list: L) -> Batch<B, L, K> {
    Batch { list, batch: PhantomData }
}

impl<'a, B, L, const K: usize> IndexList<'a> for Batch<B, L, K>
where
    L: BatchedList<'a, B>,
{
    type Consumed = <L as BatchedList<'a, B>>::Consumed;
    type Produced = L::Produced;
    type Broadcast = <L as BatchedList<'a, B>>::Broadcast;
    type Kind = L::Kind;
    const LEN: usize = L::LEN;
    const BATCH: usize = K;
    #[inline]
    fn push_into(self, out: &mut Vec<IndexElem<'a>>) {
        self.list.push_into(out);
    }
}

/// Every element of a list fits a target of rank `D` beyond the rank
/// arithmetic (see [`RoleFits`]): an `along` index has the target's rank.
pub trait ElemsFit<'a, D> {}

impl<D> ElemsFit<'_, D> for () {}

impl<'a, D, H, T> ElemsFit<'a, D> for (H, T)
where
    H: crate::index::IntoIndexElem<'a>,
    H::Role: RoleFits<H::Consumed, D>,
    T: ElemsFit<'a, D>,
{
}

impl<'a, D, B, L: ElemsFit<'a, D>, const K: usize> ElemsFit<'a, D> for Batch<B, L, K> {}

/// A target rank `Self` indexed by `L`: the read's rank is
/// `Self - consumed + produced + broadcast`. Not implemented when `L`
/// consumes more axes than `Self` has.
pub trait IndexedBy<'i, L: IndexList<'i>>: Dimension {
    /// The rank of `target[list]`.
    type Rank: Rank;
    /// The rank of `target[list]`, for the macros' checks (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn region(_rank: PhantomData<Self>, _list: PhantomData<L>) -> PhantomData<Self::Rank> {
        PhantomData
    }
}

impl<'i, D, L> IndexedBy<'i, L> for D
where
    D: Dimension + RankSub<L::Consumed>,
    L: IndexList<'i> + ElemsFit<'i, D>,
    <D as RankSub<L::Consumed>>::Out: RankAdd<L::Produced>,
    <<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out: RankAdd<L::Broadcast>,
    <<<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out as RankAdd<L::Broadcast>>::Out: Rank,
{
    type Rank = <<<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out as RankAdd<L::Broadcast>>::Out;
}

/// The type of a read of `list` (borrowing index data for `'i`) from a
/// target of rank `D` and elements `T` borrowed for `'t`: a view for a
/// basic index, an owned array for an advanced one, the element itself
/// for integers alone on a target of static rank, each of the rank the
/// index leaves (a copy-on-write array of dynamic rank for an index whose
/// kind is only known at run time: a list of [`IndexElem`]s).
pub type Read<'t, 'i, T, D, L> = <<L as IndexList<'i>>::Kind as Kind>::Read<'t, T, <D as IndexedBy<'i, L>>::Rank>;

/// The type of a read of `list` in mode `fill`: gathered (an owned array,
/// or the element for integers alone on a target of static rank).
pub type FilledRead<'t, 'i, T, D, L> = <<<L as IndexList<'i>>::Kind as Kind>::Filled as Kind>::Read<'t, T, <D as IndexedBy<'i, L>>::Rank>;

/// A list of [`IndexElem`]s built at run time, as an [`IndexList`]: its
/// ranks and its kind are known only at run time, so a read returns a
/// copy-on-write array of dynamic rank.
pub struct Elems<'s, 'a> {
    elems: std::borrow::Cow<'s, [IndexElem<'a>]>,
}

impl<'a> crate::index::BasicList for Elems<'_, 'a> {
    /// A list built at run time takes the general path.
    fn each_basic(&self, f: &mut impl crate::index::VisitBasic) {
        f.visit(None);
    }
}

impl<'a> IndexList<'a> for Elems<'_, 'a> {
    type Consumed = IxDyn;
    type Produced = IxDyn;
    type Broadcast = IxDyn;
    type Kind = Dynamic;
    /// Known only at run time.
    const LEN: usize = 0;
    fn push_into(self, out: &mut Vec<IndexElem<'a>>) {
        out.extend(self.elems.iter().cloned());
    }
    fn with_elems<R>(self, f: impl FnOnce(&[IndexElem<'a>]) -> R) -> R {
        f(&self.elems)
    }
}

impl<'a, B> BatchedList<'a, B> for Elems<'_, 'a> {
    type Consumed = IxDyn;
    type Broadcast = IxDyn;
}

impl<'a, D> ElemsFit<'a, D> for Elems<'_, 'a> {}

/// What the run-time API takes as an index (`x.at(..)`, `x.at_mut(..)`,
/// `x.updated(..)`): one element (`0`, `..`, `&idx`, `[0, 2]`, `&mask`,
/// `along(&idx, 1)`), a tuple of them (`(0, ..)`, `(&rows, 1..3)`), whose
/// types give the result's rank at compile time, or a list of
/// [`IndexElem`]s built at run time (`&[ix(0), ix(..)]`, a `Vec`), whose
/// result has a dynamic rank.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used as an index",
    label = "not an index element, a tuple of them, or a list of `IndexElem`s",
    note = "an index is one element (`0`, `..`, `&idx`, `[0, 2]`, `&mask`), a tuple of elements (`(0, ..)`), or a slice or `Vec` of `IndexElem`s built with `ix`"
)]
pub trait IntoIndexList<'a> {
    /// The list it gives.
    type List: IndexList<'a>;
    /// The list.
    fn into_index_list(self) -> Self::List;
}

impl<'a, E> IntoIndexList<'a> for E
where
    E: crate::index::IntoIndexElem<'a>,
    (RankedOf<'a, E>, ()): IndexList<'a>,
{
    type List = (RankedOf<'a, E>, ());
    #[cfg_attr(not(unoptimized), inline(always))]
    fn into_index_list(self) -> Self::List {
        (crate::index::IntoIndexElem::ranked(self), ())
    }
}

/// The nested list `(e0, (e1, ()))` of a tuple's element types.
macro_rules! nested {
    ($a:lifetime;) => { () };
    ($a:lifetime; $head:ident $($tail:ident)*) => { (RankedOf<$a, $head>, nested!($a; $($tail)*)) };
}

/// The nested list of a tuple's elements, ranked.
macro_rules! nested_value {
    () => { () };
    ($head:ident $($tail:ident)*) => { (crate::index::IntoIndexElem::ranked($head), nested_value!($($tail)*)) };
}

macro_rules! tuple_lists {
    ($($elem:ident)*) => {
        impl<'a, $($elem: crate::index::IntoIndexElem<'a>),*> IntoIndexList<'a> for ($($elem,)*)
        where
            nested!('a; $($elem)*): IndexList<'a>,
        {
            type List = nested!('a; $($elem)*);
            #[allow(non_snake_case)]
            #[cfg_attr(not(unoptimized), inline(always))]
            fn into_index_list(self) -> Self::List {
                let ($($elem,)*) = self;
                nested_value!($($elem)*)
            }
        }
    };
}
tuple_lists!();
tuple_lists!(A);
tuple_lists!(A B);
tuple_lists!(A B C);
tuple_lists!(A B C D);
tuple_lists!(A B C D E);
tuple_lists!(A B C D E F);
tuple_lists!(A B C D E F G);
tuple_lists!(A B C D E F G H);

impl<'s, 'a> IntoIndexList<'a> for &'s [IndexElem<'a>] {
    type List = Elems<'s, 'a>;
    fn into_index_list(self) -> Elems<'s, 'a> {
        Elems { elems: self.into() }
    }
}

impl<'s, 'a, const N: usize> IntoIndexList<'a> for &'s [IndexElem<'a>; N] {
    type List = Elems<'s, 'a>;
    fn into_index_list(self) -> Elems<'s, 'a> {
        Elems { elems: self[..].into() }
    }
}

impl<'s, 'a> IntoIndexList<'a> for &'s Vec<IndexElem<'a>> {
    type List = Elems<'s, 'a>;
    fn into_index_list(self) -> Elems<'s, 'a> {
        Elems { elems: self[..].into() }
    }
}

impl<'a> IntoIndexList<'a> for Vec<IndexElem<'a>> {
    type List = Elems<'a, 'a>;
    fn into_index_list(self) -> Elems<'a, 'a> {
        Elems { elems: self.into() }
    }
}

impl<'a, const N: usize> IntoIndexList<'a> for [IndexElem<'a>; N] {
    type List = Elems<'a, 'a>;
    fn into_index_list(self) -> Elems<'a, 'a> {
        Elems {
            elems: Vec::from(self).into(),
        }
    }
}

/// `K` leading axes as a rank, for `.batch::<K>()`.
pub trait BatchAxes {
    /// The rank.
    type Rank;
}

/// The count `K` of `.batch::<K>()`.
pub struct Axes<const K: usize>;

macro_rules! batch_axes {
    ($($k:literal => $rank:ty),*) => {$( impl BatchAxes for Axes<$k> { type Rank = $rank; } )*};
}
batch_axes!(0 => Ix0, 1 => ndarray::Ix1, 2 => ndarray::Ix2, 3 => ndarray::Ix3, 4 => ndarray::Ix4, 5 => ndarray::Ix5, 6 => ndarray::Ix6);
