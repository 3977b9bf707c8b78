//! What can stand between the brackets, converted to [`IndexElem`]s with
//! the static ranks the macros check: integers, ranges, `...`, new axes,
//! integer arrays and masks in any container, `nd(idx)`.

use std::marker::PhantomData;

use ndarray::{ArrayBase, CowArray, Data, Dimension, Ix0, Ix1, Ix2, IxDyn};

use crate::index::int::sealed;
use crate::index::{
    Along, DeviceArray, DeviceForm, Ellipsis, IndexElem, IndexInt, IndexSlice, IntArray, KeptArray, KeptElem, Nd, NewAxis, PySlice,
    RangeSlice,
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
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for std::ops::Range<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for std::ops::RangeFrom<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for std::ops::RangeTo<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for std::ops::RangeInclusive<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
        #[diagnostic::do_not_recommend]
        impl<'a> IntoIndexElem<'a> for std::ops::RangeToInclusive<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            type Kept = RangeSlice;
            #[cfg_attr(not(unoptimized), inline(always))]
            fn keep(self) -> RangeSlice {
                self.into_range_slice()
            }
        }
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
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::Array<A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
    }
}

#[diagnostic::do_not_recommend]
impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::ArrayView<'a, A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
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
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.0.into_int_index().index_elem(DeviceForm::Nd)
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
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.index.into_int_index().index_elem(DeviceForm::Along(self.axis))
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
