//! Static ranks: the result type of a read, and the rank checks of the
//! macros, computed from the types of the index elements.
//!
//! Ranks are ndarray's dimension types used as numbers: `Ix0`..`Ix6`, and
//! `IxDyn` for "known only at run time", which absorbs everything it meets.
//! A read of `x[e0, e1, ...]` on a target of rank `D` has rank
//! `D - consumed + produced + broadcast`, where each element consumes target
//! axes, produces basic axes (slices, new axes) and contributes its rank to
//! the broadcast of the advanced indices.

use ndarray::{Array, ArrayView, CowArray, Dimension, Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn};

use crate::api::Selection;

/// `Self + Rhs` as ranks.
pub trait RankAdd<Rhs> {
    /// The sum.
    type Out: Dimension;
}

impl<R: Dimension> RankAdd<Ix0> for R {
    type Out = R;
}

impl<R: Dimension> RankAdd<IxDyn> for R {
    type Out = IxDyn;
}

macro_rules! rank_add {
    ($($rhs:ty => $smaller:ty),*) => {$(
        impl<R: RankAdd<$smaller>> RankAdd<$rhs> for R {
            type Out = <<R as RankAdd<$smaller>>::Out as Dimension>::Larger;
        }
    )*};
}
rank_add!(Ix1 => Ix0, Ix2 => Ix1, Ix3 => Ix2, Ix4 => Ix3, Ix5 => Ix4, Ix6 => Ix5);

/// A rank with at least one axis (every rank but `Ix0`).
#[diagnostic::on_unimplemented(
    message = "too many indices: the index consumes more axes than the array has",
    label = "more axes indexed than this array has",
    note = "integers, slices and index arrays consume one axis each, a mask as many as it has, `None` and `...` none"
)]
pub trait HasAxis: Dimension {}

impl HasAxis for Ix1 {}
impl HasAxis for Ix2 {}
impl HasAxis for Ix3 {}
impl HasAxis for Ix4 {}
impl HasAxis for Ix5 {}
impl HasAxis for Ix6 {}
impl HasAxis for IxDyn {}

/// `Self - Rhs` as ranks; not implemented when `Rhs` is larger: indexing
/// more axes than the target has.
pub trait RankSub<Rhs> {
    /// The difference.
    type Out: Dimension;
}

impl<R: Dimension> RankSub<Ix0> for R {
    type Out = R;
}

impl<R: Dimension> RankSub<IxDyn> for R {
    type Out = IxDyn;
}

macro_rules! rank_sub {
    ($($rhs:ty => $smaller:ty),*) => {$(
        impl<R: HasAxis> RankSub<$rhs> for R
        where
            R::Smaller: RankSub<$smaller>,
        {
            type Out = <R::Smaller as RankSub<$smaller>>::Out;
        }
    )*};
}
rank_sub!(Ix1 => Ix0, Ix2 => Ix1, Ix3 => Ix2, Ix4 => Ix3, Ix5 => Ix4, Ix6 => Ix5);

/// `max(Self, Rhs)` as ranks: the rank of broadcast index arrays.
pub trait RankMax<Rhs> {
    /// The maximum.
    type Out: Dimension;
}

macro_rules! rank_max {
    ($($lhs:ty => [$($rhs:ty => $out:ty),*]);* $(;)?) => {$($(
        impl RankMax<$rhs> for $lhs {
            type Out = $out;
        }
    )*)*};
}
rank_max! {
    Ix0 => [Ix0 => Ix0, Ix1 => Ix1, Ix2 => Ix2, Ix3 => Ix3, Ix4 => Ix4, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix1 => [Ix0 => Ix1, Ix1 => Ix1, Ix2 => Ix2, Ix3 => Ix3, Ix4 => Ix4, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix2 => [Ix0 => Ix2, Ix1 => Ix2, Ix2 => Ix2, Ix3 => Ix3, Ix4 => Ix4, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix3 => [Ix0 => Ix3, Ix1 => Ix3, Ix2 => Ix3, Ix3 => Ix3, Ix4 => Ix4, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix4 => [Ix0 => Ix4, Ix1 => Ix4, Ix2 => Ix4, Ix3 => Ix4, Ix4 => Ix4, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix5 => [Ix0 => Ix5, Ix1 => Ix5, Ix2 => Ix5, Ix3 => Ix5, Ix4 => Ix5, Ix5 => Ix5, Ix6 => Ix6, IxDyn => IxDyn];
    Ix6 => [Ix0 => Ix6, Ix1 => Ix6, Ix2 => Ix6, Ix3 => Ix6, Ix4 => Ix6, Ix5 => Ix6, Ix6 => Ix6, IxDyn => IxDyn];
    IxDyn => [Ix0 => IxDyn, Ix1 => IxDyn, Ix2 => IxDyn, Ix3 => IxDyn, Ix4 => IxDyn, Ix5 => IxDyn, Ix6 => IxDyn, IxDyn => IxDyn];
}

/// What a read returns, decided by the kinds of its index elements.
pub trait Kind {
    /// `self` combined with an element of kind `K`.
    type Or<K: Kind>: Kind;
    /// `self` combined with a [`Dynamic`] element.
    type OrDynamic: Kind;
    /// The read's result type for elements `T` and rank `D`.
    type Read<'a, T: 'a, D: Dimension>;
    /// The run-time result in that type.
    fn read<'a, T: Clone + 'a, D: Dimension>(selection: Selection<'a, T>) -> Self::Read<'a, T, D>;
    /// What a read returns, from a view of the selection in its rank.
    fn read_view<'a, T: Clone + 'a, D: Dimension>(view: ArrayView<'a, T, D>) -> Self::Read<'a, T, D>;
}

/// Basic indexing only: reads are views.
pub struct Basic;
/// Advanced indexing: reads are owned arrays.
pub struct Advanced;
/// Known only at run time (an [`IndexElem`](crate::IndexElem) built at run
/// time): reads are copy-on-write arrays of dynamic rank.
pub struct Dynamic;

/// The selection in rank `D`; the rank is right by construction of the
/// static rank rules, which mirror the resolver's.
fn ranked<A, S: ndarray::RawData<Elem = A>, D: Dimension>(array: ndarray::ArrayBase<S, IxDyn>) -> ndarray::ArrayBase<S, D> {
    array
        .into_dimensionality()
        .expect("the static rank of a read matches its run-time rank")
}

impl Kind for Basic {
    type Or<K: Kind> = K;
    type OrDynamic = Dynamic;
    type Read<'a, T: 'a, D: Dimension> = ArrayView<'a, T, D>;
    fn read<'a, T: Clone + 'a, D: Dimension>(selection: Selection<'a, T>) -> ArrayView<'a, T, D> {
        match selection {
            Selection::View(view) => ranked(view),
            Selection::Owned(_) => unreachable!("basic indices resolve to views"),
        }
    }
    fn read_view<'a, T: Clone + 'a, D: Dimension>(view: ArrayView<'a, T, D>) -> ArrayView<'a, T, D> {
        view
    }
}

impl Kind for Advanced {
    type Or<K: Kind> = Advanced;
    type OrDynamic = Advanced;
    type Read<'a, T: 'a, D: Dimension> = Array<T, D>;
    fn read<'a, T: Clone + 'a, D: Dimension>(selection: Selection<'a, T>) -> Array<T, D> {
        // A zero-dimensional integer array indexes like an integer, so an
        // "advanced" read can resolve to a view: copy it out.
        ranked(selection.into_cow().into_owned())
    }
    fn read_view<'a, T: Clone + 'a, D: Dimension>(view: ArrayView<'a, T, D>) -> Array<T, D> {
        view.to_owned()
    }
}

impl Kind for Dynamic {
    type Or<K: Kind> = K::OrDynamic;
    type OrDynamic = Dynamic;
    type Read<'a, T: 'a, D: Dimension> = CowArray<'a, T, IxDyn>;
    fn read<'a, T: Clone + 'a, D: Dimension>(selection: Selection<'a, T>) -> CowArray<'a, T, IxDyn> {
        selection.into_cow()
    }
    fn read_view<'a, T: Clone + 'a, D: Dimension>(view: ArrayView<'a, T, D>) -> CowArray<'a, T, IxDyn> {
        view.into_dyn().into()
    }
}

/// An index list as the macros pass it: nested pairs `(e0, (e1, ()))`,
/// with the static ranks of the whole list.
pub trait IndexList<'a> {
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
    /// Appends the run-time index elements to `out`.
    fn push_into(self, out: &mut Vec<crate::IndexElem<'a>>);
}

impl<'a> IndexList<'a> for () {
    type Consumed = Ix0;
    type Produced = Ix0;
    type Broadcast = Ix0;
    type Kind = Basic;
    const LEN: usize = 0;
    #[inline]
    fn push_into(self, _: &mut Vec<crate::IndexElem<'a>>) {}
}

impl<'a, H, T> IndexList<'a> for (H, T)
where
    H: crate::IntoIndexElem<'a>,
    T: IndexList<'a>,
    H::Consumed: RankAdd<T::Consumed>,
    H::Produced: RankAdd<T::Produced>,
    H::Broadcast: RankMax<T::Broadcast>,
{
    type Consumed = <H::Consumed as RankAdd<T::Consumed>>::Out;
    type Produced = <H::Produced as RankAdd<T::Produced>>::Out;
    type Broadcast = <H::Broadcast as RankMax<T::Broadcast>>::Out;
    type Kind = <T::Kind as Kind>::Or<H::Kind>;
    const LEN: usize = 1 + T::LEN;
    // Inlined into the macros' entry points, where the list is built. Left
    // to the compiler, it stopped being inlined when the typed read was
    // added, and a 4x4 set went from 47 to 66 ns.
    #[inline]
    fn push_into(self, out: &mut Vec<crate::IndexElem<'a>>) {
        out.push(self.0.into_index_elem());
        self.1.push_into(out);
    }
}

/// A target rank `Self` indexed by `L`: the read's rank is
/// `Self - consumed + produced + broadcast`. Not implemented when `L`
/// consumes more axes than `Self` has.
pub trait IndexedBy<'i, L: IndexList<'i>>: Dimension {
    /// The rank of `target[list]`.
    type Rank: Dimension;
}

impl<'i, D, L> IndexedBy<'i, L> for D
where
    D: Dimension + RankSub<L::Consumed>,
    L: IndexList<'i>,
    <D as RankSub<L::Consumed>>::Out: RankAdd<L::Produced>,
    <<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out: RankAdd<L::Broadcast>,
{
    type Rank = <<<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out as RankAdd<L::Broadcast>>::Out;
}

/// The type of a read of `list` (borrowing index data for `'i`) from a
/// target of rank `D` and elements `T` borrowed for `'t`.
pub type Read<'t, 'i, T, D, L> = <<L as IndexList<'i>>::Kind as Kind>::Read<'t, T, <D as IndexedBy<'i, L>>::Rank>;

/// A value of rank `Self` fits a region of rank `R`: it has at most as
/// many axes (broadcasting adds leading axes, never removes them). A rank
/// known only at run time fits, and is checked then.
#[diagnostic::on_unimplemented(
    message = "a value of dimension `{Self}` does not fit an indexed region of dimension `{R}`",
    label = "this value has more axes than the region it is written to",
    note = "values broadcast to the indexed region: they may have fewer axes, never more"
)]
pub trait FitsIn<R> {}

macro_rules! fits_in {
    ($($region:ty => [$($value:ty),*]);* $(;)?) => {$($(
        impl FitsIn<$region> for $value {}
    )*)*};
}
fits_in! {
    Ix0 => [Ix0, IxDyn];
    Ix1 => [Ix0, Ix1, IxDyn];
    Ix2 => [Ix0, Ix1, Ix2, IxDyn];
    Ix3 => [Ix0, Ix1, Ix2, Ix3, IxDyn];
    Ix4 => [Ix0, Ix1, Ix2, Ix3, Ix4, IxDyn];
    Ix5 => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, IxDyn];
    Ix6 => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn];
    IxDyn => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn];
}
