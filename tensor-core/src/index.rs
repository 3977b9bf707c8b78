//! The index model: one [`IndexElem`] per comma-separated element of `x[...]`.

use std::fmt;

use ndarray::{ArrayBase, CowArray, Data, Dimension, Ix0, Ix1, Ix2, IxDyn};

use crate::typed::{Advanced, Basic, Dynamic, Kind};

/// One element of an index list, as a user writes it between brackets.
///
/// `Display` prints the element in the syntax it stands for, so error
/// messages quote the user's own index.
///
/// ```
/// use tensor_core::{ix, IndexElem, PySlice};
///
/// let index = [ix(1), IndexElem::Slice(PySlice::new(None, None, Some(-1))), ix(1..4).step_by(2)];
/// let written: Vec<String> = index.iter().map(ToString::to_string).collect();
/// assert_eq!(written, ["1", "::-1", "1..4;2"]);
/// ```
#[derive(Clone, Debug)]
pub enum IndexElem<'a> {
    /// `3`, `-1`: select one position and remove the axis. Negative counts
    /// from the end. Held as `i128` so every integer type's value is exact.
    Int(i128),
    /// `a:b:c`: a slice with NumPy semantics exactly.
    Slice(PySlice),
    /// `a..b;c`: a slice with ndarray `s![]` semantics.
    Range(RangeSlice),
    /// `...`: as many whole axes as needed.
    Ellipsis,
    /// `None` / `NewAxis`: a new axis of length one.
    NewAxis,
    /// An integer array: advanced indexing along one axis.
    Array(IntArray<'a>),
    /// A boolean array: advanced indexing along as many axes as it has.
    Mask(CowArray<'a, bool, IxDyn>),
    /// `nd(idx)`: `idx` of shape `batch + [depth]` indexes `depth` axes, like
    /// TensorFlow's `gather_nd`.
    Nd(IntArray<'a>),
}

/// A NumPy slice `start:stop:step`; a missing part is `None`.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{get, IndexElem, Mode, PySlice};
///
/// let x = array![0, 1, 2, 3, 4, 5];
/// // x[4::-2] walks down from 4, as in NumPy.
/// let down = get(&x, &[IndexElem::Slice(PySlice::new(Some(4), None, Some(-2)))], Mode::Error)?;
/// assert_eq!(down, array![4, 2, 0].into_dyn());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PySlice {
    /// First position; negative counts from the end; clamped to the axis.
    pub start: Option<isize>,
    /// One past the last position; negative counts from the end; clamped.
    pub stop: Option<isize>,
    /// Distance between positions; negative walks down from `start`.
    pub step: Option<isize>,
}

/// An ndarray range `start..end;step` (`s![]` semantics).
///
/// ```
/// use ndarray::{array, s};
/// use tensor_core::{get, ix, Mode};
///
/// let x = array![0, 1, 2, 3, 4, 5];
/// // 4..;-2 is the range 4.. walked backwards, as `s![4..;-2]`.
/// let back = get(&x, &[ix(4..).step_by(-2)], Mode::Error)?;
/// assert_eq!(back, x.slice(s![4..;-2]).into_dyn());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
///
/// The range `start..end` is taken first (negative bounds count from the
/// end; reaching outside the axis is an error), then every `step`-th
/// element of it, from its back when `step` is negative: `4..;-2` on a
/// length-8 axis is `7, 5`, where NumPy's `4::-2` is `4, 2, 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeSlice {
    /// First position of the range.
    pub start: isize,
    /// One past the last position of the range; `None` is the axis end.
    pub end: Option<isize>,
    /// Distance between positions; negative walks the range backwards.
    pub step: isize,
}

/// An integer index array of one of the supported element types, borrowed
/// or owned, never converted.
#[derive(Clone, Debug)]
#[allow(missing_docs)] // one variant per element type, named after it
pub enum IntArray<'a> {
    Usize(CowArray<'a, usize, IxDyn>),
    Isize(CowArray<'a, isize, IxDyn>),
    I32(CowArray<'a, i32, IxDyn>),
    I64(CowArray<'a, i64, IxDyn>),
    U32(CowArray<'a, u32, IxDyn>),
    U64(CowArray<'a, u64, IxDyn>),
}

/// Runs `$body` with `$arr` bound to the typed array inside an [`IntArray`].
macro_rules! with_int_array {
    ($value:expr, $arr:ident => $body:expr) => {
        match $value {
            $crate::index::IntArray::Usize($arr) => $body,
            $crate::index::IntArray::Isize($arr) => $body,
            $crate::index::IntArray::I32($arr) => $body,
            $crate::index::IntArray::I64($arr) => $body,
            $crate::index::IntArray::U32($arr) => $body,
            $crate::index::IntArray::U64($arr) => $body,
        }
    };
}
pub(crate) use with_int_array;

/// Runs `$body` with `$a` and `$b` bound to the typed arrays inside two
/// [`IntArray`]s of one integer type (a pair of another kind panics: the
/// caller checked [`IntArray::same_type`]).
macro_rules! with_int_array_pair {
    ($first:expr, $second:expr, ($a:ident, $b:ident) => $body:expr) => {
        match ($first, $second) {
            ($crate::index::IntArray::Usize($a), $crate::index::IntArray::Usize($b)) => $body,
            ($crate::index::IntArray::Isize($a), $crate::index::IntArray::Isize($b)) => $body,
            ($crate::index::IntArray::I32($a), $crate::index::IntArray::I32($b)) => $body,
            ($crate::index::IntArray::I64($a), $crate::index::IntArray::I64($b)) => $body,
            ($crate::index::IntArray::U32($a), $crate::index::IntArray::U32($b)) => $body,
            ($crate::index::IntArray::U64($a), $crate::index::IntArray::U64($b)) => $body,
            _ => unreachable!("a pair of index arrays holds one integer type"),
        }
    };
}
pub(crate) use with_int_array_pair;

/// Runs `$body` with `$index` bound to the indices of an [`IntArray`] the
/// planner reads in place (`Entries::Index`), as a slice: it keeps only
/// contiguous arrays in place.
macro_rules! with_index_slice {
    ($array:expr, $index:ident => $body:expr) => {
        $crate::index::with_int_array!($array, array => {
            let $index = array.as_slice().expect("indices read in place are contiguous");
            $body
        })
    };
}
pub(crate) use with_index_slice;

/// [`with_index_slice`] for a pair read in place (`Entries::Pair`): one
/// integer type, both contiguous.
macro_rules! with_index_slices {
    ($first:expr, $second:expr, ($a:ident, $b:ident) => $body:expr) => {
        $crate::index::with_int_array_pair!($first, $second, (first, second) => {
            let $a = first.as_slice().expect("indices read in place are contiguous");
            let $b = second.as_slice().expect("indices read in place are contiguous");
            $body
        })
    };
}
pub(crate) use with_index_slices;

impl IntArray<'_> {
    /// The array's shape.
    pub fn shape(&self) -> &[usize] {
        with_int_array!(self, a => a.shape())
    }

    /// Whether `other` holds the same integer type.
    pub fn same_type(&self, other: &IntArray<'_>) -> bool {
        use IntArray::*;
        matches!(
            (self, other),
            (Usize(_), Usize(_)) | (Isize(_), Isize(_)) | (I32(_), I32(_)) | (I64(_), I64(_)) | (U32(_), U32(_)) | (U64(_), U64(_))
        )
    }

    /// The same array, borrowed.
    pub fn view(&self) -> IntArray<'_> {
        with_int_array!(self, a => IndexInt::wrap_array(a.view().into()))
    }
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
    /// Wraps an array of this type.
    fn wrap_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_>;
}

mod sealed {
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
            fn wrap_array(array: CowArray<'_, Self, IxDyn>) -> IntArray<'_> {
                IntArray::$variant(array)
            }
        }
    )*};
}
index_int!(usize => Usize, false, isize => Isize, true, i32 => I32, true, i64 => I64, true, u32 => U32, false, u64 => U64, false);

/// The `...` index element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ellipsis;

/// The new-axis index element (NumPy's `None` / `np.newaxis`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewAxis;

/// Marks an integer array as a TensorFlow-style `gather_nd` index: its last
/// axis holds one coordinate per indexed axis.
#[derive(Clone, Debug)]
pub struct Nd<T>(pub T);

/// Wraps an index array for `gather_nd`-style indexing (see [`IndexElem::Nd`]).
pub fn nd<T>(index: T) -> Nd<T> {
    Nd(index)
}

impl PySlice {
    /// The slice `start:stop:step`.
    pub fn new(start: Option<isize>, stop: Option<isize>, step: Option<isize>) -> Self {
        PySlice { start, stop, step }
    }
}

impl RangeSlice {
    /// The range `start..end` with step 1.
    pub fn new(start: isize, end: Option<isize>) -> Self {
        RangeSlice { start, end, step: 1 }
    }

    /// The same range with another step (`a..b;step`).
    pub fn step_by(self, step: isize) -> Self {
        RangeSlice { step, ..self }
    }
}

impl fmt::Display for PySlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |p: Option<isize>| p.map(|v| v.to_string()).unwrap_or_default();
        write!(f, "{}:{}", part(self.start), part(self.stop))?;
        if let Some(step) = self.step {
            write!(f, ":{step}")?;
        }
        Ok(())
    }
}

impl fmt::Display for RangeSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start != 0 {
            write!(f, "{}", self.start)?;
        }
        f.write_str("..")?;
        if let Some(end) = self.end {
            write!(f, "{end}")?;
        }
        if self.step != 1 {
            write!(f, ";{}", self.step)?;
        }
        Ok(())
    }
}

impl fmt::Display for IndexElem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexElem::Int(i) => write!(f, "{i}"),
            IndexElem::Slice(s) => write!(f, "{s}"),
            IndexElem::Range(r) => write!(f, "{r}"),
            IndexElem::Ellipsis => f.write_str("..."),
            IndexElem::NewAxis => f.write_str("None"),
            IndexElem::Array(a) => write!(f, "<integer array of shape {}>", shape_str(a.shape())),
            IndexElem::Mask(m) => write!(f, "<boolean mask of shape {}>", shape_str(m.shape())),
            IndexElem::Nd(a) => write!(f, "nd(<integer array of shape {}>)", shape_str(a.shape())),
        }
    }
}

fn shape_str(shape: &[usize]) -> String {
    crate::error::Shape(shape.to_vec()).to_string()
}

/// Converts a value into an index element; implemented for every type that
/// can stand between the brackets.
///
/// Integers select, ranges slice, integer arrays (any ndarray, `Vec`, slice or
/// fixed array of `usize`, `isize`, `i32`, `i64`, `u32`, `u64`) index, boolean
/// arrays mask, [`Ellipsis`], [`NewAxis`] and [`nd`] do what their names say.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used as an index element",
    label = "not an integer, slice, integer array or boolean mask",
    note = "index elements are integers, ranges, `...`, `None`, arrays of usize/isize/i32/i64/u32/u64, boolean masks, or `nd(array)`"
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
    /// The index element this value stands for.
    fn into_index_elem(self) -> IndexElem<'a>;
}

/// Implements the static part of [`IntoIndexElem`]: consumed, produced and
/// broadcast ranks, and kind.
macro_rules! static_index {
    ($consumed:ty, $produced:ty, $broadcast:ty, $kind:ty) => {
        type Consumed = $consumed;
        type Produced = $produced;
        type Broadcast = $broadcast;
        type Kind = $kind;
    };
}

impl<'a> IntoIndexElem<'a> for IndexElem<'a> {
    static_index!(IxDyn, IxDyn, IxDyn, Dynamic);
    fn into_index_elem(self) -> IndexElem<'a> {
        self
    }
}

impl<'a> IntoIndexElem<'a> for PySlice {
    static_index!(Ix1, Ix1, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Slice(self)
    }
}

impl<'a> IntoIndexElem<'a> for RangeSlice {
    static_index!(Ix1, Ix1, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Range(self)
    }
}

impl<'a> IntoIndexElem<'a> for Ellipsis {
    static_index!(Ix0, Ix0, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Ellipsis
    }
}

impl<'a> IntoIndexElem<'a> for NewAxis {
    static_index!(Ix0, Ix1, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::NewAxis
    }
}

impl<'a> IntoIndexElem<'a> for std::ops::RangeFull {
    static_index!(Ix1, Ix1, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Range(self.into_range_slice())
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
        impl<'a> IntoIndexElem<'a> for $t {
            static_index!(Ix1, Ix0, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Int(self as i128)
            }
        }
        impl<'a> IntoIndexElem<'a> for &$t {
            static_index!(Ix1, Ix0, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Int(*self as i128)
            }
        }
        impl<'a> IntoIndexElem<'a> for &&$t {
            static_index!(Ix1, Ix0, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Int(**self as i128)
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
        impl<'a> IntoIndexElem<'a> for std::ops::Range<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Range(self.into_range_slice())
            }
        }
        impl<'a> IntoIndexElem<'a> for std::ops::RangeFrom<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Range(self.into_range_slice())
            }
        }
        impl<'a> IntoIndexElem<'a> for std::ops::RangeTo<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Range(self.into_range_slice())
            }
        }
        impl<'a> IntoIndexElem<'a> for std::ops::RangeInclusive<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Range(self.into_range_slice())
            }
        }
        impl<'a> IntoIndexElem<'a> for std::ops::RangeToInclusive<$t> {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::Range(self.into_range_slice())
            }
        }
        borrowed_slices!(std::ops::Range<$t>, std::ops::RangeFrom<$t>, std::ops::RangeTo<$t>, std::ops::RangeInclusive<$t>, std::ops::RangeToInclusive<$t>);
    )*};
}

/// A borrowed range or slice indexes like the range itself (the macros
/// borrow the variables they are given).
macro_rules! borrowed_slices {
    ($($t:ty),*) => {$(
        impl<'a> IntoIndexElem<'a> for &$t {
            static_index!(Ix1, Ix1, Ix0, Basic);
            fn into_index_elem(self) -> IndexElem<'a> {
                self.clone().into_index_elem()
            }
        }
    )*};
}
borrowed_slices!(std::ops::RangeFull, PySlice, RangeSlice);

impl<'a> IntoIndexElem<'a> for &Ellipsis {
    static_index!(Ix0, Ix0, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Ellipsis
    }
}

impl<'a> IntoIndexElem<'a> for &NewAxis {
    static_index!(Ix0, Ix1, Ix0, Basic);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::NewAxis
    }
}

impl<'a> IntoIndexElem<'a> for &IndexElem<'a> {
    static_index!(IxDyn, IxDyn, IxDyn, Dynamic);
    fn into_index_elem(self) -> IndexElem<'a> {
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
}

impl<'a, A: 'a, S: Data<Elem = A>, D: Dimension> IntoCowArray<'a> for &'a ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.view().into_dyn())
    }
}

impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::Array<A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
    }
}

impl<'a, A: 'a, D: Dimension> IntoCowArray<'a> for ndarray::ArrayView<'a, A, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(self.into_dyn())
    }
}

impl<'a, A: 'a, S: Data<Elem = A>, D: Dimension> IntoCowArray<'a> for &'a &ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from((**self).view().into_dyn())
    }
}

impl<'a, A: 'a> IntoCowArray<'a> for &'a &[A] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        (&**self).into_cow_array()
    }
}

impl<'a, A: 'a> IntoCowArray<'a> for &'a &Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
}

impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for &'a &[A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
}

impl<'a, A: 'a> IntoCowArray<'a> for &'a [A] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        CowArray::from(ndarray::aview1(self).into_dyn())
    }
}

impl<'a, A: 'a> IntoCowArray<'a> for &'a Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
}

impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for &'a [A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        self.as_slice().into_cow_array()
    }
}

impl<'a, A: 'a> IntoCowArray<'a> for Vec<A> {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array1::from(self).into_cow_array()
    }
}

impl<'a, A: IndexArrayElement + 'a, const N: usize> IntoCowArray<'a> for [A; N] {
    type Elem = A;
    type Dim = Ix1;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array1::from(Vec::from(self)).into_cow_array()
    }
}

/// A nested fixed-size array, `[[4], [3], [1], [7]]`, is a two-dimensional index.
impl<'a, A: IndexArrayElement + Clone + 'a, const M: usize, const N: usize> IntoCowArray<'a> for [[A; M]; N] {
    type Elem = A;
    type Dim = Ix2;
    fn into_cow_array(self) -> CowArray<'a, A, IxDyn> {
        ndarray::Array2::from(Vec::from(self)).into_cow_array()
    }
}

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
    note = "index arrays hold usize, isize, i32, i64, u32 or u64 (integer indexing) or bool (a mask)"
)]
pub trait IndexArrayElement: Sized + sealed::Sealed {
    /// Target axes an array of rank `D` of this type consumes.
    type Consumed<D: Dimension>: Dimension;
    /// Its rank among the broadcast advanced indices.
    type Broadcast<D: Dimension>: Dimension;
    /// The index element for an array of this type.
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_>;
}

impl sealed::Sealed for bool {}

impl IndexArrayElement for bool {
    type Consumed<D: Dimension> = D;
    type Broadcast<D: Dimension> = Ix1;
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_> {
        IndexElem::Mask(array)
    }
}

impl<A: IndexInt> IndexArrayElement for A {
    type Consumed<D: Dimension> = Ix1;
    type Broadcast<D: Dimension> = D;
    fn index_elem(array: CowArray<'_, Self, IxDyn>) -> IndexElem<'_> {
        IndexElem::Array(A::wrap_array(array))
    }
}

impl<'a, T: IntoCowArray<'a>> IntoIndexElem<'a> for T
where
    T::Elem: IndexArrayElement,
{
    type Consumed = <T::Elem as IndexArrayElement>::Consumed<T::Dim>;
    type Produced = Ix0;
    type Broadcast = <T::Elem as IndexArrayElement>::Broadcast<T::Dim>;
    type Kind = Advanced;
    fn into_index_elem(self) -> IndexElem<'a> {
        T::Elem::index_elem(self.into_cow_array())
    }
}

impl<'a, T: Clone> IntoIndexElem<'a> for &Nd<T>
where
    Nd<T>: IntoIndexElem<'a>,
{
    static_index!(IxDyn, Ix0, IxDyn, Advanced);
    fn into_index_elem(self) -> IndexElem<'a> {
        self.clone().into_index_elem()
    }
}

impl<'a, T: IntoCowArray<'a>> IntoIndexElem<'a> for Nd<T>
where
    T::Elem: IndexInt,
{
    // The depth (coordinates per index) is only known at run time.
    static_index!(IxDyn, Ix0, IxDyn, Advanced);
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Nd(T::Elem::wrap_array(self.0.into_cow_array()))
    }
}

#[cfg(test)]
mod tests {
    use super::IndexInt;

    #[test]
    fn direct_positions_are_the_in_bounds_values_from_zero() {
        fn check<I: IndexInt + TryFrom<i64>>(len: usize) {
            for value in [-3i64, -1, 0, 1, len as i64 - 1, len as i64, len as i64 + 1] {
                let Ok(index) = I::try_from(value) else { continue };
                let expected = (0..len as i64).contains(&value).then_some(value as usize);
                assert_eq!(index.direct_position(len), expected, "{value} of {len}");
                if let Some(position) = expected {
                    assert_eq!(index.position(len), position);
                }
            }
        }
        for len in [0, 1, 7] {
            check::<i32>(len);
            check::<i64>(len);
            check::<isize>(len);
            check::<u32>(len);
            check::<u64>(len);
            check::<usize>(len);
        }
        // No axis is longer than `isize::MAX`, so no negative value passes.
        let longest = isize::MAX as usize;
        assert_eq!(u64::MAX.direct_position(longest), None);
        assert_eq!(i64::MIN.direct_position(longest), None);
        assert_eq!((-1i64).direct_position(longest), None);
        assert_eq!(i64::MAX.direct_position(longest), None);
    }
}
