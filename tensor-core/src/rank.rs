//! Static ranks, as types: ndarray's dimension types used as numbers
//! (`Ix0`..`Ix6`, and `IxDyn` for "known only at run time", which absorbs
//! everything it meets), their arithmetic, and the kinds of index elements
//! that decide what a read returns. The typed entry points (`typed`) build
//! the macros' rank checks from these.

use ndarray::{Array, ArrayView, ArrayViewD, CowArray, Dimension, Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn};

use crate::error::IndexError;
use crate::memory;

/// One of ndarray's dimension types as the rank of a read: a basic read
/// is viewed straight in it, its rank checked at run time (no
/// dynamic shape built), and a read by integers alone gives the element
/// itself in rank 0. Every ndarray dimension type is one; sealed.
pub trait Rank: Dimension + sealed::Sealed {
    /// What integers alone read in this rank: the element (cloned, like
    /// NumPy's scalar) in rank 0, a view in any other.
    type IntegerRead<'a, T: 'a>;
    /// What integers alone read in mode `fill`: the element in rank 0, an
    /// owned array in any other.
    type IntegerFill<T>;
    /// A view read by integers alone, as [`IntegerRead`](Self::IntegerRead).
    #[doc(hidden)]
    fn integer_read<'a, T: Clone + 'a>(view: ArrayView<'a, T, Self>) -> Self::IntegerRead<'a, T>;
    /// An array read by integers alone in mode `fill`, as
    /// [`IntegerFill`](Self::IntegerFill).
    #[doc(hidden)]
    fn integer_fill<T>(array: Array<T, Self>) -> Self::IntegerFill<T>;
    /// The type `P` gives this rank: a backend whose tensors carry their
    /// rank as a number (burn's `Tensor<D>`) returns its own type for each.
    type Pick<P: PerRank>;
    /// Makes the type `P` gives this rank from `parts`.
    fn pick<P: PerRank>(parts: P::Parts) -> Self::Pick<P>;
}

/// A backend's result type for each static rank, and how each is made
/// from the same parts (see [`Rank::Pick`]).
pub trait PerRank {
    /// What every rank's type is made from.
    type Parts;
    /// Rank 0.
    type R0;
    /// Rank 1.
    type R1;
    /// Rank 2.
    type R2;
    /// Rank 3.
    type R3;
    /// Rank 4.
    type R4;
    /// Rank 5.
    type R5;
    /// Rank 6.
    type R6;
    /// A rank known only at run time (`IxDyn`).
    type Dynamic;
    /// Rank 0 from `parts`.
    fn r0(parts: Self::Parts) -> Self::R0;
    /// Rank 1 from `parts`.
    fn r1(parts: Self::Parts) -> Self::R1;
    /// Rank 2 from `parts`.
    fn r2(parts: Self::Parts) -> Self::R2;
    /// Rank 3 from `parts`.
    fn r3(parts: Self::Parts) -> Self::R3;
    /// Rank 4 from `parts`.
    fn r4(parts: Self::Parts) -> Self::R4;
    /// Rank 5 from `parts`.
    fn r5(parts: Self::Parts) -> Self::R5;
    /// Rank 6 from `parts`.
    fn r6(parts: Self::Parts) -> Self::R6;
    /// A dynamic rank from `parts`.
    fn dynamic(parts: Self::Parts) -> Self::Dynamic;
}

mod sealed {
    /// Closes [`Rank`](super::Rank) to ndarray's dimension types.
    pub trait Sealed {}
}

impl sealed::Sealed for Ix0 {}
impl Rank for Ix0 {
    type IntegerRead<'a, T: 'a> = T;
    type IntegerFill<T> = T;
    #[inline]
    fn integer_read<'a, T: Clone + 'a>(view: ArrayView<'a, T, Ix0>) -> T {
        view.into_scalar().clone()
    }
    fn integer_fill<T>(array: Array<T, Ix0>) -> T {
        array.into_scalar()
    }
    type Pick<P: PerRank> = P::R0;
    fn pick<P: PerRank>(parts: P::Parts) -> P::R0 {
        P::r0(parts)
    }
}

macro_rules! viewed_rank {
    ($($d:ty => $pick:ident, $make:ident);*) => {$(
        impl sealed::Sealed for $d {}
        impl Rank for $d {
            type IntegerRead<'a, T: 'a> = ArrayView<'a, T, $d>;
            type IntegerFill<T> = Array<T, $d>;
            #[inline]
            fn integer_read<'a, T: Clone + 'a>(view: ArrayView<'a, T, $d>) -> ArrayView<'a, T, $d> {
                view
            }
            fn integer_fill<T>(array: Array<T, $d>) -> Array<T, $d> {
                array
            }
            type Pick<P: PerRank> = P::$pick;
            fn pick<P: PerRank>(parts: P::Parts) -> P::$pick {
                P::$make(parts)
            }
        }
    )*};
}
// A dynamic rank stays a view even when it turns out to be 0: its type
// cannot depend on the run-time rank.
viewed_rank!(Ix1 => R1, r1; Ix2 => R2, r2; Ix3 => R3, r3; Ix4 => R4, r4; Ix5 => R5, r5; Ix6 => R6, r6; IxDyn => Dynamic, dynamic);

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

#[diagnostic::do_not_recommend]
impl HasAxis for Ix1 {}
#[diagnostic::do_not_recommend]
impl HasAxis for Ix2 {}
#[diagnostic::do_not_recommend]
impl HasAxis for Ix3 {}
#[diagnostic::do_not_recommend]
impl HasAxis for Ix4 {}
#[diagnostic::do_not_recommend]
impl HasAxis for Ix5 {}
#[diagnostic::do_not_recommend]
impl HasAxis for Ix6 {}
#[diagnostic::do_not_recommend]
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

/// Which of an index element's static ranks hold the batch axes of
/// `; batch = k` (see [`BatchRanks`]): none for a basic element.
pub struct NoBatchAxes;

/// An integer array's or `nd`'s broadcast rank holds the batch axes.
pub struct BatchedIndices;

/// A mask's consumed axes include the batch axes.
pub struct BatchedMask;

/// `along`'s consumed and broadcast ranks both hold the batch axes.
pub struct BatchedAlong;

/// The ranks of one batch's share of an element of consumed rank `C` and
/// broadcast rank `Br`, under `B` batch axes: what the element's batch
/// role (`Self`) leaves once the batch axes are taken off.
pub trait BatchRanks<C, Br, B> {
    /// The axes one batch's share consumes.
    type Consumed: Dimension;
    /// Its rank among the broadcast advanced indices.
    type Broadcast: Dimension;
}

impl<C: Dimension, Br: Dimension, B> BatchRanks<C, Br, B> for NoBatchAxes {
    type Consumed = C;
    type Broadcast = Br;
}

impl<C: Dimension, Br: RankSub<B>, B> BatchRanks<C, Br, B> for BatchedIndices {
    type Consumed = C;
    type Broadcast = Br::Out;
}

impl<C: RankSub<B>, Br: Dimension, B> BatchRanks<C, Br, B> for BatchedMask {
    type Consumed = C::Out;
    type Broadcast = Br;
}

impl<C: RankSub<B>, Br: RankSub<B>, B> BatchRanks<C, Br, B> for BatchedAlong {
    type Consumed = C::Out;
    type Broadcast = Br::Out;
}

/// A target rank `Self` with at least the `B` leading axes `; batch = k`
/// pairs.
#[diagnostic::on_unimplemented(
    message = "`batch =` pairs more leading axes than the target has",
    label = "more batch axes than the target has",
    note = "`batch = k` pairs the leading k axes of the target with those of every index array and of the value"
)]
pub trait BatchFits<B> {
    /// Nothing: naming `<_ as BatchFits<B>>::check` is the check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_rank: std::marker::PhantomData<Self>) {}
}

macro_rules! batch_fits {
    ($($rank:ty => [$($batch:ty),*]),*) => {$($( #[diagnostic::do_not_recommend] impl BatchFits<$batch> for $rank {} )*)*};
}
batch_fits!(
    Ix0 => [Ix0],
    Ix1 => [Ix0, Ix1],
    Ix2 => [Ix0, Ix1, Ix2],
    Ix3 => [Ix0, Ix1, Ix2, Ix3],
    Ix4 => [Ix0, Ix1, Ix2, Ix3, Ix4],
    Ix5 => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5],
    Ix6 => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6],
    IxDyn => [Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn]
);

/// A target rank `Self` with axis `N - 1` (or `-N`) of the part one
/// batch indexes, `N` counting the batch axes too: a literal `along` axis
/// in range.
#[diagnostic::on_unimplemented(
    message = "the axis of `along(idx, axis)` is out of range for the target",
    label = "no such axis in the target (after its batch axes)",
    note = "an axis counts from 0, or from the end when negative: -1 is the last"
)]
pub trait AxisFits<N> {
    /// Nothing: naming `<_ as AxisFits<N>>::check` is the check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_rank: std::marker::PhantomData<Self>) {}
}

macro_rules! axis_fits {
    ($($rank:ty => [$($axes:ty),*]),*) => {$($( #[diagnostic::do_not_recommend] impl AxisFits<$axes> for $rank {} )*)*};
}
axis_fits!(
    Ix1 => [Ix1],
    Ix2 => [Ix1, Ix2],
    Ix3 => [Ix1, Ix2, Ix3],
    Ix4 => [Ix1, Ix2, Ix3, Ix4],
    Ix5 => [Ix1, Ix2, Ix3, Ix4, Ix5],
    Ix6 => [Ix1, Ix2, Ix3, Ix4, Ix5, Ix6],
    IxDyn => [Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn]
);

/// An `along` index of rank `Self` on a target of rank `D`: the same rank.
#[diagnostic::on_unimplemented(
    message = "`along(idx, axis)` needs an index of the target's rank: this index has dimension `{Self}`, the target `{D}`",
    label = "an index of another rank than the target",
    note = "give the index a length-1 axis where it broadcasts: `idx.insert_axis(Axis(1))`"
)]
pub trait AlongRank<D> {}

macro_rules! along_rank {
    ($($rank:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl AlongRank<$rank> for $rank {}
        #[diagnostic::do_not_recommend]
        impl AlongRank<IxDyn> for $rank {}
        #[diagnostic::do_not_recommend]
        impl AlongRank<$rank> for IxDyn {}
    )*};
}
along_rank!(Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6);
#[diagnostic::do_not_recommend]
impl AlongRank<IxDyn> for IxDyn {}

/// What an element of role `Self` and consumed rank `C` asks of a target of
/// rank `D` beyond the rank arithmetic: only `along` asks its own rank.
pub trait RoleFits<C, D> {}

impl<C, D> RoleFits<C, D> for NoBatchAxes {}
impl<C, D> RoleFits<C, D> for BatchedIndices {}
impl<C, D> RoleFits<C, D> for BatchedMask {}
impl<C: AlongRank<D>, D> RoleFits<C, D> for BatchedAlong {}

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

/// The result of a read: a view of the target, or a gathered array.
#[derive(Debug)]
#[non_exhaustive]
pub enum Selection<'a, T> {
    /// Basic indexing: a view, no copy.
    View(ArrayViewD<'a, T>),
    /// Advanced indexing: the gathered elements.
    Owned(ndarray::ArrayD<T>),
}

impl<'a, T> Selection<'a, T> {
    /// As a copy-on-write array.
    pub fn into_cow(self) -> CowArray<'a, T, IxDyn> {
        match self {
            Selection::View(view) => CowArray::from(view),
            Selection::Owned(array) => CowArray::from(array),
        }
    }
}

/// What a read returns, decided by the kinds of its index elements.
pub trait Kind {
    /// `self` combined with an element of kind `K`.
    type Or<K: Kind>: Kind;
    /// `self` combined with a [`Basic`] element.
    type OrBasic: Kind;
    /// `self` combined with a [`Dynamic`] element.
    type OrDynamic: Kind;
    /// The kind of a read in mode `fill`, which may gather where it would
    /// have viewed.
    type Filled: Kind;
    /// The read's result type for elements `T` and rank `D`.
    type Read<'a, T: 'a, D: Rank>;
    /// The result of a read that selected a view of the target: an error
    /// where the kind copies the view and memory cannot hold the copy.
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<Self::Read<'a, T, D>, IndexError>;
    /// The result of a read that gathered its elements.
    fn gathered<'a, T: 'a, D: Rank>(array: Array<T, D>) -> Self::Read<'a, T, D>;
}

/// Integers only (or no index at all): reads are views, and the element
/// itself where they leave no axis of a static rank, as NumPy's `x[1, 2]`
/// is a scalar.
pub struct Integers;
/// Integers only, read in mode `fill`: the element where no axis of a
/// static rank is left, an owned array otherwise.
pub struct FilledIntegers;
/// Basic indexing only: reads are views.
pub struct Basic;
/// Advanced indexing: reads are owned arrays.
pub struct Advanced;
/// Known only at run time (an [`IndexElem`](crate::index::IndexElem) built at run
/// time): reads are copy-on-write arrays of dynamic rank.
pub struct Dynamic;

/// The kinds of index that select a view, which `at!(&mut x[...])` lends
/// mutably: integers and basic indexing. An index array, a mask, `nd` or
/// `along` select elements no view can hold.
#[diagnostic::on_unimplemented(
    message = "`&mut x[...]` needs a basic index: no view holds what an index array, a mask, `nd` or `along` selects",
    label = "an advanced index has no view",
    note = "update in place with `at!(x[...] = v)` or `at!(x[...] += v)`, or read a copy with `at!(x[...])`"
)]
pub trait HasView {
    /// Nothing: naming it is the macros' check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_kind: std::marker::PhantomData<Self>) {}
}
// Not listed in the error: its message says which indices have a view.
#[diagnostic::do_not_recommend]
impl HasView for Integers {}
#[diagnostic::do_not_recommend]
impl HasView for Basic {}

/// Basic indices resolve to views: a read in mode `fill`, which may
/// gather, is typed [`Advanced`].
const VIEWED: &str = "basic indices resolve to views (reads in mode fill are advanced)";

impl Kind for Integers {
    type Or<K: Kind> = K;
    type OrBasic = Basic;
    type OrDynamic = Dynamic;
    type Filled = FilledIntegers;
    type Read<'a, T: 'a, D: Rank> = D::IntegerRead<'a, T>;
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<D::IntegerRead<'a, T>, IndexError> {
        Ok(D::integer_read(view))
    }
    fn gathered<'a, T: 'a, D: Rank>(_: Array<T, D>) -> D::IntegerRead<'a, T> {
        unreachable!("{VIEWED}")
    }
}

impl Kind for FilledIntegers {
    type Or<K: Kind> = K::Filled;
    type OrBasic = Advanced;
    type OrDynamic = Advanced;
    type Filled = FilledIntegers;
    type Read<'a, T: 'a, D: Rank> = D::IntegerFill<T>;
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<D::IntegerFill<T>, IndexError> {
        checked_copy(view).map(D::integer_fill)
    }
    fn gathered<'a, T: 'a, D: Rank>(array: Array<T, D>) -> D::IntegerFill<T> {
        D::integer_fill(array)
    }
}

impl Kind for Basic {
    type Or<K: Kind> = K::OrBasic;
    type OrBasic = Basic;
    type OrDynamic = Dynamic;
    type Filled = Advanced;
    type Read<'a, T: 'a, D: Rank> = ArrayView<'a, T, D>;
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<ArrayView<'a, T, D>, IndexError> {
        Ok(view)
    }
    fn gathered<'a, T: 'a, D: Rank>(_: Array<T, D>) -> ArrayView<'a, T, D> {
        unreachable!("{VIEWED}")
    }
}

impl Kind for Advanced {
    type Or<K: Kind> = Advanced;
    type OrBasic = Advanced;
    type OrDynamic = Advanced;
    type Filled = Advanced;
    type Read<'a, T: 'a, D: Rank> = Array<T, D>;
    // A zero-dimensional integer array indexes like an integer, so an
    // "advanced" read can resolve to a view: copy it out.
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<Array<T, D>, IndexError> {
        checked_copy(view)
    }
    fn gathered<'a, T: 'a, D: Rank>(array: Array<T, D>) -> Array<T, D> {
        array
    }
}

impl Kind for Dynamic {
    type Or<K: Kind> = K::OrDynamic;
    type OrBasic = Dynamic;
    type OrDynamic = Dynamic;
    type Filled = Advanced;
    type Read<'a, T: 'a, D: Rank> = CowArray<'a, T, IxDyn>;
    fn view<'a, T: Clone + 'a, D: Rank>(view: ArrayView<'a, T, D>) -> Result<CowArray<'a, T, IxDyn>, IndexError> {
        Ok(view.into_dyn().into())
    }
    fn gathered<'a, T: 'a, D: Rank>(array: Array<T, D>) -> CowArray<'a, T, IxDyn> {
        array.into_dyn().into()
    }
}

/// A copy of a view, or [`IndexError::TooLarge`] naming its shape where
/// memory cannot hold it (a stride-0 view may show far more elements than
/// it has): [`memory::copy`] for the paths that return a `Result`.
/// Always inlined, as that copy is: a call of its own returns the copy
/// through memory (measured: docs/performance.md, "Small calls, in
/// instructions").
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn checked_copy<T: Clone, D: Dimension>(view: ArrayView<'_, T, D>) -> Result<Array<T, D>, IndexError> {
    let shape = view.raw_dim();
    memory::copy(view).ok_or_else(|| IndexError::too_large(shape.slice()))
}

/// A value of rank `Self` fits a region of rank `R`: it has at most as
/// many axes (broadcasting adds leading axes, never removes them). A rank
/// known only at run time fits, and is checked then.
#[diagnostic::on_unimplemented(
    message = "a value of dimension `{Self}` does not fit an indexed region of dimension `{R}`",
    label = "this value has more axes than the region it is written to",
    note = "values broadcast to the indexed region: they may have fewer axes, never more"
)]
pub trait FitsIn<R> {
    /// Nothing: naming it is the macros' check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_value: std::marker::PhantomData<Self>, _region: std::marker::PhantomData<R>) {}
}

macro_rules! fits_in {
    ($($region:ty => [$($value:ty),*]);* $(;)?) => {$($(
        #[diagnostic::do_not_recommend]
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

/// An array of rank `Self` holds a read's result of rank `R`: the same
/// rank, or a rank known only at run time (checked then, with the shape).
#[diagnostic::on_unimplemented(
    message = "an array of dimension `{Self}` cannot hold a read of dimension `{R}`",
    label = "this array has another number of axes than the read's result",
    note = "`out = array` takes an array of the result's shape"
)]
pub trait Holds<R> {
    /// Nothing: naming it is the macros' check (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_out: std::marker::PhantomData<Self>, _region: std::marker::PhantomData<R>) {}
}

// Not recommended in errors: the message above says what fits.
macro_rules! holds {
    ($($rank:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl Holds<$rank> for $rank {}
        #[diagnostic::do_not_recommend]
        impl Holds<$rank> for IxDyn {}
        #[diagnostic::do_not_recommend]
        impl Holds<IxDyn> for $rank {}
    )*};
}
holds!(Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6);
#[diagnostic::do_not_recommend]
impl Holds<IxDyn> for IxDyn {}
