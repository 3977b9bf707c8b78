//! What can stand between the brackets, converted to [`IndexElem`]s with
//! the static ranks the macros check: integers, ranges, `...`, new axes,
//! integer arrays and masks in any container, `nd(idx)`.

use std::marker::PhantomData;

use ndarray::{ArrayBase, Axis, CowArray, Data, Dimension, Ix0, Ix1, Ix2, IxDyn};

use crate::index::int::sealed;
use crate::index::{
    Along, DeviceArray, DeviceForm, Ellipsis, HostInts, IndexElem, IndexInt, IndexSlice, IntArray, KeptArray, KeptElem, Nd, NewAxis,
    PySlice, RangeSlice, Single, with_int_array,
};
use crate::rank::{Advanced, Basic, Dynamic, Integers, Kind};

/// Converts a value into an index element; implemented for every type that
/// can stand between the brackets.
///
/// Integers select, ranges slice, integer arrays (any ndarray, `Vec`, slice or
/// fixed array of `usize`, `isize`, `i32`, `i64`, `u32`, `u64`) index, boolean
/// arrays mask, [`Ellipsis`], [`NewAxis`] and [`nd`](crate::nd) do what their names say.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used as an index element",
    label = "not an integer, slice, integer array or boolean mask",
    note = "index elements are integers, ranges, `...`, `None`, integer arrays, boolean masks, or `nd(array)`"
)]
pub trait IntoIndexElem<'a> {
    /// Target axes it consumes, as a rank: `Ix1` for an integer, a slice or
    /// an integer array, the mask's rank for a mask, `IxDyn` when only known
    /// at run time.
    type Consumed: Dimension;
    /// Basic axes it produces in a read's result: `Ix1` for a slice or a new axis.
    type Produced: Dimension;
    /// Its rank among the advanced indices broadcast together (`Ix0` unless an array).
    type Broadcast: Dimension;
    /// Whether it makes the index advanced.
    type Kind: Kind;
    /// Which of its ranks hold the batch axes of `; batch = k`
    /// ([`NoBatchAxes`](crate::rank::NoBatchAxes) for a basic element).
    type Role;
    /// What the macros' typed lists keep of it until a path needs it (see
    /// [`KeptElem`]).
    #[doc(hidden)]
    type Kept: KeptElem<'a>;
    /// It, kept.
    #[doc(hidden)]
    fn keep(self) -> Self::Kept;
    /// It, converted where the user wrote it: the macros name
    /// `<_ as IntoIndexElem>::ranked(elem)`, so a type error about it is
    /// the trait's own message at the element, and the ranks it carries
    /// on are then error types, which keeps the rest of the expansion from
    /// repeating it. Every element of a typed list passes through here.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn ranked(self) -> RankedOf<'a, Self>
    where
        Self: Sized,
    {
        ranked(self)
    }
    /// The index element this value stands for.
    #[inline]
    fn into_index_elem(self) -> IndexElem<'a>
    where
        Self: Sized,
    {
        self.keep().into_index_elem()
    }
}

macro_rules! static_index {
    ($consumed:ty, $produced:ty, $broadcast:ty, $kind:ty) => {
        static_index!($consumed, $produced, $broadcast, $kind, crate::rank::NoBatchAxes);
    };
    ($consumed:ty, $produced:ty, $broadcast:ty, $kind:ty, $role:ty) => {
        type Consumed = $consumed;
        type Produced = $produced;
        type Broadcast = $broadcast;
        type Kind = $kind;
        type Role = $role;
    };
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for IndexElem<'a> {
    static_index!(IxDyn, IxDyn, IxDyn, Dynamic);
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for PySlice {
    static_index!(Ix1, Ix1, Ix0, Basic);
    type Kept = PySlice;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> PySlice {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for RangeSlice {
    static_index!(Ix1, Ix1, Ix0, Basic);
    type Kept = RangeSlice;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> RangeSlice {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for Ellipsis {
    static_index!(Ix0, Ix0, Ix0, Basic);
    type Kept = Ellipsis;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> Ellipsis {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for NewAxis {
    static_index!(Ix0, Ix1, Ix0, Basic);
    type Kept = NewAxis;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> NewAxis {
        self
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for std::ops::RangeFull {
    static_index!(Ix1, Ix1, Ix0, Basic);
    // Kept as itself (nothing to store): its range is a constant where the
    // list is read, not a value reloaded from the list in memory.
    type Kept = std::ops::RangeFull;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> std::ops::RangeFull {
        self
    }
}

/// Rust range types of integers, for `a..b;step`.
pub trait IntoRangeSlice {
    /// The range with step 1.
    fn into_range_slice(self) -> RangeSlice;
}

impl IntoRangeSlice for std::ops::RangeFull {
    fn into_range_slice(self) -> RangeSlice {
        RangeSlice::new(0, None)
    }
}

/// A range indexes as the slice it converts to.
macro_rules! range_slices {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for $t {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
    )*};
}

macro_rules! scalar_and_range_index {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for $t {
            static_index!(Ix1, Ix0, Ix0, Integers);
            type Kept = i128;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> i128 {
                self as i128
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for &$t {
            static_index!(Ix1, Ix0, Ix0, Integers);
            type Kept = i128;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> i128 {
                *self as i128
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for &&$t {
            static_index!(Ix1, Ix0, Ix0, Integers);
            type Kept = i128;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> i128 {
                **self as i128
            }
        }
        impl IntoRangeSlice for std::ops::Range<$t> {
            fn into_range_slice(self) -> RangeSlice {
                RangeSlice::new(bound(self.start), Some(bound(self.end)))
            }
        }
        impl IntoRangeSlice for std::ops::RangeFrom<$t> {
            fn into_range_slice(self) -> RangeSlice {
                RangeSlice::new(bound(self.start), None)
            }
        }
        impl IntoRangeSlice for std::ops::RangeTo<$t> {
            fn into_range_slice(self) -> RangeSlice {
                RangeSlice::new(0, Some(bound(self.end)))
            }
        }
        impl IntoRangeSlice for std::ops::RangeInclusive<$t> {
            fn into_range_slice(self) -> RangeSlice {
                RangeSlice::new(bound(*self.start()), inclusive_end(bound(*self.end())))
            }
        }
        impl IntoRangeSlice for std::ops::RangeToInclusive<$t> {
            fn into_range_slice(self) -> RangeSlice {
                RangeSlice::new(0, inclusive_end(bound(self.end)))
            }
        }
        range_slices!(std::ops::Range<$t>, std::ops::RangeFrom<$t>, std::ops::RangeTo<$t>, std::ops::RangeInclusive<$t>, std::ops::RangeToInclusive<$t>);
        borrowed_slices!(std::ops::Range<$t>, std::ops::RangeFrom<$t>, std::ops::RangeTo<$t>, std::ops::RangeInclusive<$t>, std::ops::RangeToInclusive<$t>);
    )*};
}

/// A borrowed range or slice indexes like the range itself (the macros
/// borrow the variables they are given).
macro_rules! borrowed_slices {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for &$t {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = <$t as IntoIndexElem<'a>>::Kept;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> Self::Kept {
                self.clone().keep()
            }
        }
    )*};
}
borrowed_slices!(std::ops::RangeFull, PySlice, RangeSlice);

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for &Ellipsis {
    static_index!(Ix0, Ix0, Ix0, Basic);
    type Kept = Ellipsis;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> Ellipsis {
        Ellipsis
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for &NewAxis {
    static_index!(Ix0, Ix1, Ix0, Basic);
    type Kept = NewAxis;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> NewAxis {
        NewAxis
    }
}

#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for &IndexElem<'a> {
    static_index!(IxDyn, IxDyn, IxDyn, Dynamic);
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.clone()
    }
}
scalar_and_range_index!(usize, isize, i8, i16, i32, i64, u8, u16, u32, u64);

/// `..=end` as an exclusive end, as ndarray does: `..=-1` runs to the end.
fn inclusive_end(end: isize) -> Option<isize> {
    if end == -1 { None } else { Some(end.saturating_add(1)) }
}

/// A range bound as `isize`; one beyond `isize::MAX` saturates, which is
/// out of bounds of any axis all the same.
fn bound<T: TryInto<isize>>(value: T) -> isize {
    value.try_into().unwrap_or(isize::MAX)
}

/// Containers an index array can come in: any ndarray (owned, view or
/// reference), a `Vec`, a slice or a fixed-size array. Owned containers move
/// into the index; borrowed ones are viewed, never copied.
pub trait IntoCowArray<'a> {
    /// The element type.
    type Elem: 'a;
    /// The container's rank (`Ix1` for `Vec`s, slices and fixed-size arrays).
    type Dim: Dimension;
    /// The container as a dynamic-rank array.
    fn into_cow_array(self) -> CowArray<'a, Self::Elem, IxDyn>;
    /// Its elements, when it borrows a contiguous vector for `'a`.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [Self::Elem]> {
        None
    }
    /// Its elements in C order and its shape, when it is an ndarray array
    /// laid out so.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_standard(&self) -> Option<(&[Self::Elem], &[usize])> {
        None
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, S: Data<Elem = A>, D: Dimension> IntoCowArray<'a> for &'a ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.view().into_dyn())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        let array: &'a ArrayBase<S, D> = self;
        if array.ndim() == 1 { array.as_slice() } else { None }
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_standard(&self) -> Option<(&[A], &[usize])> {
        Some((self.as_slice()?, self.shape()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::Array<A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_standard(&self) -> Option<(&[A], &[usize])> {
        Some((self.as_slice()?, self.shape()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::ArrayView<'a, A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_standard(&self) -> Option<(&[A], &[usize])> {
        Some((self.as_slice()?, self.shape()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, S: Data<Elem = A>, D: Dimension> IntoCowArray<'a> for &'a &ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from((**self).view().into_dyn())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        let array: &'a ArrayBase<S, D> = self;
        array.as_vector()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_standard(&self) -> Option<(&[A], &[usize])> {
        (**self).as_standard()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a> IntoCowArray<'a> for &'a &[A] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        (&**self).into_cow_array()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a> IntoCowArray<'a> for &'a &Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for &'a &[A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a> IntoCowArray<'a> for &'a [A] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(ndarray::aview1(self).into_dyn())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a> IntoCowArray<'a> for &'a Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for &'a [A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_vector(&self) -> Option<&'a [A]> {
        Some(&self[..])
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a> IntoCowArray<'a> for Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array1::from(self).into_cow_array()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for [A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array1::from(Vec::from(self)).into_cow_array()
    }
}

/// A nested fixed-size array, `[[4], [3], [1], [7]]`, is a two-dimensional index.
#[diagnostic::do_not_recommend]
impl<'a, A: IndexArrayElement + Clone + 'a, const M: usize, const N: usize> IntoCowArray<'a> for [[A; M]; N] {
    type Elem = A;
    type Dim = Ix2;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array2::from(Vec::from(self)).into_cow_array()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: IndexArrayElement + Clone + 'a, const M: usize, const N: usize> IntoCowArray<'a> for &'a [[A; M]; N] {
    type Elem = A;
    type Dim = Ix2;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array2::from(self.to_vec()).into_cow_array()
    }
}

/// Element types an index array may hold: the integer index types, and
/// `bool` for masks.
#[diagnostic::on_unimplemented(
    message = "arrays of `{Self}` cannot index",
    label = "index arrays hold integers or booleans",
    note = "index arrays hold integers (usize, isize, i8 to i64, u8 to u64) or bool (a mask)"
)]
pub trait IndexArrayElement: Sized + sealed::Sealed {
    /// Target axes an array of rank `D` of this type consumes.
    type Consumed<D: Dimension>: Dimension;
    /// Its rank among the broadcast advanced indices.
    type Broadcast<D: Dimension>: Dimension;
    /// Which of its ranks hold batch axes.
    type Role;
    /// The index element for an array of this type.
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_>;
    /// A vector of this type as indices; `None` for a mask.
    #[doc(hidden)]
    fn index_slice(vector: &[Self]) -> Option<IndexSlice<'_>>;
}

impl sealed::Sealed for bool {}

impl IndexArrayElement for bool {
    type Consumed<D: Dimension> = D;
    type Broadcast<D: Dimension> = Ix1;
    type Role = crate::rank::BatchedMask;
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_> {
        IndexElem::Mask(array)
    }
    fn index_slice(_: &[bool]) -> Option<IndexSlice<'_>> {
        None
    }
}

/// The integer types an index array may hold: the executors' own
/// ([`IndexInt`]), read in place, and the narrow ones (`i8`, `u8`, `i16`,
/// `u16`), widened to `i32` (which holds every value of each) once, when
/// the index is built. One blanket [`IndexArrayElement`] impl covers them
/// all, so an array of unsuffixed integer literals has its ranks known
/// before its type is.
#[diagnostic::on_unimplemented(
    message = "arrays of `{Self}` cannot index",
    label = "index arrays hold integers or booleans",
    note = "index arrays hold integers (usize, isize, i8 to i64, u8 to u64) or bool (a mask)"
)]
pub trait IndexArrayInt: Sized + sealed::Sealed {
    /// The index array.
    fn int_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_>;
    /// A vector of these as indices read in place, where the type is one
    /// the executors read.
    #[doc(hidden)]
    fn indices(vector: &[Self]) -> Option<IndexSlice<'_>>;
}

impl<A: IndexInt> IndexArrayInt for A {
    fn int_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_> {
        A::wrap_array(array)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn indices(vector: &[A]) -> Option<IndexSlice<'_>> {
        Some(A::wrap_slice(vector))
    }
}

macro_rules! narrow_index_int {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}

        impl IndexArrayInt for $t {
            fn int_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_> {
                IntArray::I32(array.mapv(i32::from).into())
            }
            #[cfg_attr(not(unoptimized), inline(always))]
            fn indices(_: &[$t]) -> Option<IndexSlice<'_>> {
                None
            }
        }
    )*};
}

narrow_index_int!(i8, u8, i16, u16);

impl<A: IndexArrayInt> IndexArrayElement for A {
    type Consumed<D: Dimension> = Ix1;
    type Broadcast<D: Dimension> = D;
    type Role = crate::rank::BatchedIndices;
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_> {
        IndexElem::Array(A::int_array(array))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn index_slice(vector: &[A]) -> Option<IndexSlice<'_>> {
        A::indices(vector)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: IntoCowArray<'a>> IntoIndexElem<'a> for T
where
    T::Elem: IndexArrayElement,
{
    type Consumed = <T::Elem as IndexArrayElement>::Consumed<T::Dim>;
    type Produced = Ix0;
    type Broadcast = <T::Elem as IndexArrayElement>::Broadcast<T::Dim>;
    type Kind = Advanced;
    type Role = <T::Elem as IndexArrayElement>::Role;
    type Kept = KeptArray<'a>;
    // A borrowed vector of indices stays one for the inline path of a few
    // indices; anything else is converted.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> KeptArray<'a> {
        match self.as_vector().and_then(T::Elem::index_slice) {
            Some(indices) => KeptArray::Indices(indices),
            None => KeptArray::Elem(T::Elem::index_elem(self.into_cow_array())),
        }
    }
}

/// An integer index array as `nd(..)` and `along(..)` take it: an array
/// on the host, or one on a device (a GPU tensor of integers, whose crate
/// implements this).
#[doc(hidden)]
pub trait IntoIntIndex<'a> {
    /// The array's rank.
    type Dim: Dimension;
    /// The array.
    fn into_int_index(self) -> IntIndex<'a>;
    /// The array borrowed, when it is on the host and laid out in C order
    /// (the inline path of one small `nd` or `along`).
    #[cfg_attr(not(unoptimized), inline(always))]
    fn host_ints(&self) -> Option<HostInts<'_>> {
        None
    }
}

/// What [`IntoIntIndex`] gives.
#[doc(hidden)]
pub enum IntIndex<'a> {
    /// On the host.
    Host(IntArray<'a>),
    /// On a device.
    Device(DeviceArray<'a>),
}

impl<'a> IntIndex<'a> {
    /// The index element of this array in `form` (`Nd` or `Along`).
    fn index_elem(self, form: DeviceForm) -> IndexElem<'a> {
        match (self, form) {
            (IntIndex::Device(array), form) => IndexElem::Device { array, form },
            (IntIndex::Host(index), DeviceForm::Along(axis)) => IndexElem::Along { index, axis },
            (IntIndex::Host(index), _) => IndexElem::Nd(index),
        }
    }
}

impl<'a, T: IntoCowArray<'a>> IntoIntIndex<'a> for T
where
    T::Elem: IndexInt,
{
    type Dim = T::Dim;
    fn into_int_index(self) -> IntIndex<'a> {
        IntIndex::Host(T::Elem::wrap_array(self.into_cow_array()))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn host_ints(&self) -> Option<HostInts<'_>> {
        let (ints, shape) = self.as_standard()?;
        Some(HostInts {
            ints: T::Elem::wrap_slice(ints),
            shape,
        })
    }
}

/// An `nd` or `along` index array as the typed lists keep it: as it was
/// passed, so that the inline path reads it where it stands, converted
/// only for the general path.
#[doc(hidden)]
pub struct KeptInts<T> {
    index: T,
    /// `Nd` or `Along`.
    form: DeviceForm,
}

impl<'a, T: IntoIntIndex<'a>> KeptElem<'a> for KeptInts<T> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        let ints = self.index.host_ints()?;
        match self.form {
            DeviceForm::Nd => Some(Single::Nd(ints)),
            DeviceForm::Along(axis) => Some(Single::Along(ints, axis)),
            DeviceForm::Array | DeviceForm::Mask => None,
        }
    }
    fn into_index_elem(self) -> IndexElem<'a> {
        self.index.into_int_index().index_elem(self.form)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: Clone> IntoIndexElem<'a> for &Nd<T>
where
    Nd<T>: IntoIndexElem<'a>,
{
    static_index!(IxDyn, Ix0, IxDyn, Advanced, crate::rank::BatchedIndices);
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.clone().into_index_elem()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: IntoIntIndex<'a>> IntoIndexElem<'a> for Nd<T> {
    // The depth (coordinates per index) is only known at run time.
    static_index!(IxDyn, Ix0, IxDyn, Advanced, crate::rank::BatchedIndices);
    type Kept = KeptInts<T>;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> KeptInts<T> {
        KeptInts {
            index: self.0,
            form: DeviceForm::Nd,
        }
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: Clone> IntoIndexElem<'a> for &Along<T>
where
    Along<T>: IntoIndexElem<'a>,
{
    type Consumed = <Along<T> as IntoIndexElem<'a>>::Consumed;
    type Produced = Ix0;
    type Broadcast = <Along<T> as IntoIndexElem<'a>>::Broadcast;
    type Kind = Advanced;
    type Role = crate::rank::BatchedAlong;
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.clone().into_index_elem()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: IntoIntIndex<'a>> IntoIndexElem<'a> for Along<T> {
    // It consumes every axis of the target and gives the result its own
    // rank, which must be the target's.
    static_index!(T::Dim, Ix0, T::Dim, Advanced, crate::rank::BatchedAlong);
    type Kept = KeptInts<T>;
    #[cfg_attr(not(unoptimized), inline(always))]
    fn keep(self) -> KeptInts<T> {
        KeptInts {
            index: self.index,
            form: DeviceForm::Along(self.axis),
        }
    }
}

/// An argument of `ix_(a, b, ..)`, NumPy's open mesh: a one-dimensional
/// integer array, in any container an index array comes in (see
/// [`IntoCowArray`]), or a one-dimensional boolean array, which stands for
/// the positions of its true elements (as `np.ix_` converts it). An array
/// of dynamic rank is checked at run time.
///
/// The macros' `x[ix_(rows, cols)]` and the method syntax's
/// [`ix_`](crate::ix_) convert each argument through it; for a mesh whose
/// number of arguments is only known at run time, convert each with
/// [`cross_elem`](Self::cross_elem):
///
/// ```
/// use ndarray::{array, ArrayD, IxDyn};
/// use tensor_core::IndexExt;
/// use tensor_core::index::CrossIndex;
///
/// let x = ArrayD::from_shape_vec(IxDyn(&[3, 4]), (0..12).collect())?;
/// let args = [array![2usize, 0].into_dyn(), array![1usize, 3].into_dyn()];
/// let index: Vec<_> = args.iter().enumerate().map(|(k, arg)| arg.cross_elem(k, args.len())).collect();
/// // x[np.ix_([2, 0], [1, 3])]
/// assert_eq!(x.at(&index).get()?, array![[9, 11], [1, 3]].into_dyn());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an argument of `ix_(..)`",
    label = "not a one-dimensional integer or boolean array",
    note = "`ix_(a, b, ..)` takes one-dimensional arrays of integers or booleans (NumPy: \"Cross index must be 1 dimensional\")"
)]
pub trait CrossIndex<'a> {
    /// The argument as the index element of axis `axis` (below `count`) of
    /// an open mesh of `count` arguments: the integers viewed with
    /// length-1 axes everywhere but `axis` (no copy for a borrowed array of
    /// `usize`, `isize`, `i32`, `i64`, `u32` or `u64`), the true positions
    /// of a mask likewise. An array of dynamic rank that is not
    /// one-dimensional gives [`IndexElem::CrossRank`], which indexing
    /// refuses.
    fn cross_elem(self, axis: usize, count: usize) -> IndexElem<'a>;

    /// [`cross_elem`](Self::cross_elem) with the mesh's rank `B` (`count`
    /// as a rank), for a typed list: the element consumes one axis and
    /// broadcasts in rank `B`. The macros name
    /// `<_ as CrossIndex<'_>>::cross_axis::<B>(arg, k, n)`, so an argument
    /// that cannot be one is this trait's own message at the argument.
    #[doc(hidden)]
    fn cross_axis<B: Dimension>(self, axis: usize, count: usize) -> CrossAxis<'a, B>
    where
        Self: Sized,
    {
        CrossAxis {
            elem: self.cross_elem(axis, count),
            rank: PhantomData,
        }
    }
}

/// The ranks an argument of `ix_(..)` may have: one, or one known only at
/// run time (checked then). Sealed.
pub trait OneDimensional: Dimension + one_dimensional::Sealed {}

mod one_dimensional {
    /// Closes [`OneDimensional`](super::OneDimensional) to `Ix1` and `IxDyn`.
    pub trait Sealed {}
    impl Sealed for ndarray::Ix1 {}
    impl Sealed for ndarray::IxDyn {}
}

impl OneDimensional for Ix1 {}
impl OneDimensional for IxDyn {}

#[diagnostic::do_not_recommend]
impl<'a, T: IntoCowArray<'a>> CrossIndex<'a> for T
where
    T::Dim: OneDimensional,
    T::Elem: IndexArrayElement,
{
    fn cross_elem(self, axis: usize, count: usize) -> IndexElem<'a> {
        match T::Elem::index_elem(self.into_cow_array()) {
            IndexElem::Array(array) if array.shape().len() == 1 => {
                IndexElem::Array(with_int_array!(array, a => IndexInt::wrap_array(mesh_axis(a, axis, count))))
            }
            IndexElem::Mask(mask) if mask.ndim() == 1 => {
                let positions: Vec<usize> = mask
                    .iter()
                    .enumerate()
                    .filter(|(_, selected)| **selected)
                    .map(|(at, _)| at)
                    .collect();
                let positions = CowArray::from(ndarray::Array1::from(positions).into_dyn());
                IndexElem::Array(IntArray::Usize(mesh_axis(positions, axis, count)))
            }
            IndexElem::Array(array) => IndexElem::CrossRank { ndim: array.shape().len() },
            IndexElem::Mask(mask) => IndexElem::CrossRank { ndim: mask.ndim() },
            // `index_elem` makes arrays and masks only.
            other => other,
        }
    }
}

/// A one-dimensional `array` viewed as axis `axis` of an open mesh of
/// `count` axes: length-1 axes inserted before and after it, no copy.
fn mesh_axis<A>(array: CowArray<'_, A, IxDyn>, axis: usize, count: usize) -> CowArray<'_, A, IxDyn> {
    let mut array = (0..axis).fold(array, |array, _| array.insert_axis(Axis(0)));
    while array.ndim() < count {
        let last = array.ndim();
        array = array.insert_axis(Axis(last));
    }
    array
}

/// The arguments of [`ix_`](crate::ix_), the method syntax's open mesh: a
/// tuple of one to six [`CrossIndex`] arrays, each converted to the index
/// element of its axis of the mesh.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the arguments of `ix_`",
    label = "not a tuple of one to six one-dimensional integer or boolean arrays",
    note = "`ix_((&rows, &cols))` takes a tuple; for a mesh of a number of arguments known only at run time, convert each with `CrossIndex::cross_elem`"
)]
pub trait CrossArgs<'a> {
    /// The index elements: a tuple of one [`CrossAxis`] per argument.
    type Mesh;
    /// The index elements of the mesh.
    fn mesh(self) -> Self::Mesh;
}

/// `$t`, once per `$arg`.
macro_rules! one_per {
    ($arg:ident => $t:ty) => {
        $t
    };
}

macro_rules! cross_args {
    ($rank:ty; $count:literal; $($arg:ident $axis:literal),*) => {
        impl<'a, $($arg: CrossIndex<'a>),*> CrossArgs<'a> for ($($arg,)*) {
            type Mesh = ($(one_per!($arg => CrossAxis<'a, $rank>),)*);
            #[allow(non_snake_case)]
            fn mesh(self) -> Self::Mesh {
                let ($($arg,)*) = self;
                ($($arg.cross_axis::<$rank>($axis, $count),)*)
            }
        }
    };
}
cross_args!(Ix1; 1; A 0);
cross_args!(Ix2; 2; A 0, B 1);
cross_args!(ndarray::Ix3; 3; A 0, B 1, C 2);
cross_args!(ndarray::Ix4; 4; A 0, B 1, C 2, D 3);
cross_args!(ndarray::Ix5; 5; A 0, B 1, C 2, D 3, E 4);
cross_args!(ndarray::Ix6; 6; A 0, B 1, C 2, D 3, E 4, F 5);

/// One argument of `ix_(..)`, converted ([`CrossIndex::cross_axis`]): an
/// index element that consumes one axis and broadcasts, with the mesh's
/// other arguments, in rank `B` (the number of arguments).
#[derive(Clone, Debug)]
pub struct CrossAxis<'a, B> {
    elem: IndexElem<'a>,
    rank: PhantomData<B>,
}

#[diagnostic::do_not_recommend]
impl<'a, B: Dimension> IntoIndexElem<'a> for CrossAxis<'a, B> {
    static_index!(Ix1, Ix0, B, Advanced, crate::rank::BatchedIndices);
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.elem
    }
}

/// An index element of a typed list: what the list keeps of it (`F`, see
/// [`KeptElem`]) with its static ranks and batch role (see
/// [`IntoIndexElem`]).
pub struct Ranked<'a, C, P, B, K, R, F> {
    pub(crate) elem: F,
    ranks: PhantomData<(&'a (), C, P, B, K, R)>,
}

/// The ranked element `E` converts into.
pub type RankedOf<'a, E> = Ranked<
    'a,
    <E as IntoIndexElem<'a>>::Consumed,
    <E as IntoIndexElem<'a>>::Produced,
    <E as IntoIndexElem<'a>>::Broadcast,
    <E as IntoIndexElem<'a>>::Kind,
    <E as IntoIndexElem<'a>>::Role,
    <E as IntoIndexElem<'a>>::Kept,
>;

/// `elem` kept, with its ranks.
#[cfg_attr(not(unoptimized), inline(always))]
fn ranked<'a, E: IntoIndexElem<'a>>(elem: E) -> RankedOf<'a, E> {
    Ranked {
        elem: elem.keep(),
        ranks: PhantomData,
    }
}
