//! The index model: one [`IndexElem`] per comma-separated element of
//! `x[...]`, printed in the user's own syntax. `int` holds the integer
//! arithmetic of indices; `convert` the conversions from what users write
//! between the brackets.

use std::fmt;

use ndarray::{CowArray, IxDyn, ShapeBuilder};

mod convert;
mod device;
mod int;

pub use convert::{
    CrossArgs, CrossAxis, CrossIndex, IndexArrayElement, IndexArrayInt, IntIndex, IntoCowArray, IntoIndexElem, IntoIntIndex,
    IntoRangeSlice, KeptInts, OneDimensional, Ranked, RankedOf,
};
pub use device::{DeviceArray, DeviceForm};
pub use int::IndexInt;
pub(crate) use int::position_of;
#[cfg(target_pointer_width = "64")]
pub(crate) use int::{isize_as_i64, isize_view_as_i64, usize_as_u64, usize_view_as_u64};

/// One element of an index list, as a user writes it between brackets.
///
/// `Display` prints the element in the syntax it stands for, so error
/// messages quote the user's own index.
///
/// ```
/// use tensor_core::ix;
/// use tensor_core::index::{IndexElem, PySlice};
///
/// let index = [ix(1), IndexElem::Slice(PySlice::new(None, None, Some(-1))), ix(1..4).step_by(2)];
/// let written: Vec<String> = index.iter().map(ToString::to_string).collect();
/// assert_eq!(written, ["1", "::-1", "1..4;2"]);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
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
    /// `along(idx, axis)`: `idx`, of the target's rank, picks positions
    /// along `axis` (negative counts from the end) and broadcasts against
    /// the target along every other axis, as NumPy's `take_along_axis`
    /// and `put_along_axis` and PyTorch's `gather` and `scatter` take it.
    /// The only element of its index.
    Along {
        /// The index array.
        index: IntArray<'a>,
        /// The axis it picks positions along.
        axis: isize,
    },
    /// An integer array on another device (a GPU tensor of integers),
    /// indexing as [`Array`](Self::Array), [`Nd`](Self::Nd) or
    /// [`Along`](Self::Along) does, as `form` says. Only a target on that
    /// device reads it.
    Device {
        /// The array.
        array: DeviceArray<'a>,
        /// How it indexes.
        form: DeviceForm,
    },
    /// An argument of `ix_(..)` of dynamic rank that is not
    /// one-dimensional, kept to be refused: every index holding one fails
    /// with [`IndexError::CrossIndexRank`](crate::IndexError::CrossIndexRank)
    /// before anything else is checked, as `np.ix_` raises before indexing.
    /// (One-dimensional arguments become [`Array`](Self::Array)s; see
    /// [`CrossIndex`].)
    CrossRank {
        /// The argument's number of dimensions.
        ndim: usize,
    },
}

/// A basic index element (no array): what the macros' typed index lists
/// hold, walked in place by the inline basic path (see [`BasicList`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum BasicElem {
    /// An integer.
    Int(i128),
    /// A NumPy slice.
    Slice(PySlice),
    /// An ndarray range.
    Range(RangeSlice),
    /// `...`.
    Ellipsis,
    /// A new axis.
    NewAxis,
}

/// What the macros' typed lists keep of an index element until a path
/// needs it: a small value of its own type for an integer (`i128`), a
/// slice or a range, `...` and a new axis, so the inline paths read them
/// where the compiler sees them and fold them away; `nd` and `along` as
/// they were passed ([`KeptInts`]); a borrowed vector of indices, or the
/// converted element, for the rest (see [`KeptArray`]).
#[doc(hidden)]
pub trait KeptElem<'a> {
    /// Its basic form, when it is basic (the inline basic path).
    #[cfg_attr(not(unoptimized), inline(always))]
    fn basic(&self) -> Option<BasicElem> {
        None
    }
    /// Its indices, when it is a borrowed contiguous vector of integers
    /// (the inline path of a few indices).
    #[cfg_attr(not(unoptimized), inline(always))]
    fn index_slice(&self) -> Option<IndexSlice<'a>> {
        None
    }
    /// The element as the inline path of one small advanced element reads
    /// it, when it is one that path takes.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        None
    }
    /// The index element it stands for (the general path).
    fn into_index_elem(self) -> IndexElem<'a>;
}

/// [`KeptElem`] for a basic element kept as itself: the payload of the
/// variant of the same name in [`BasicElem`] and [`IndexElem`] (`unit`: the
/// variant itself).
macro_rules! kept_basic {
    ($t:ty => $variant:ident) => {
        impl<'a> KeptElem<'a> for $t {
            #[cfg_attr(not(unoptimized), inline(always))]
            fn basic(&self) -> Option<BasicElem> {
                Some(BasicElem::$variant(*self))
            }
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::$variant(self)
            }
        }
    };
    ($t:ty => $variant:ident, unit) => {
        impl<'a> KeptElem<'a> for $t {
            #[cfg_attr(not(unoptimized), inline(always))]
            fn basic(&self) -> Option<BasicElem> {
                Some(BasicElem::$variant)
            }
            fn into_index_elem(self) -> IndexElem<'a> {
                IndexElem::$variant
            }
        }
    };
}
kept_basic!(i128 => Int);
kept_basic!(PySlice => Slice);
kept_basic!(RangeSlice => Range);
kept_basic!(Ellipsis => Ellipsis, unit);
kept_basic!(NewAxis => NewAxis, unit);

/// `..` (and the macros' `:`), the whole axis.
impl<'a> KeptElem<'a> for std::ops::RangeFull {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn basic(&self) -> Option<BasicElem> {
        Some(BasicElem::Range(RangeSlice::new(0, None)))
    }
    fn into_index_elem(self) -> IndexElem<'a> {
        IndexElem::Range(RangeSlice::new(0, None))
    }
}

/// An element whose type does not make it basic takes the general path.
impl<'a> KeptElem<'a> for IndexElem<'a> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        self.as_single()
    }
    fn into_index_elem(self) -> IndexElem<'a> {
        self
    }
}

/// An index array as the typed lists keep it.
#[doc(hidden)]
pub enum KeptArray<'a> {
    /// A borrowed contiguous vector of integers.
    Indices(IndexSlice<'a>),
    /// Any other array, converted.
    Elem(IndexElem<'a>),
}

impl<'a> KeptElem<'a> for KeptArray<'a> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn index_slice(&self) -> Option<IndexSlice<'a>> {
        match self {
            KeptArray::Indices(indices) => Some(*indices),
            KeptArray::Elem(_) => None,
        }
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn single(&self) -> Option<Single<'_>> {
        match self {
            KeptArray::Indices(_) => None,
            KeptArray::Elem(elem) => elem.as_single(),
        }
    }
    fn into_index_elem(self) -> IndexElem<'a> {
        match self {
            KeptArray::Indices(indices) => indices.into_index_elem(),
            KeptArray::Elem(elem) => elem,
        }
    }
}

/// One advanced element alone, borrowed as the inline path of a small
/// one reads it: a mask, or the integers of `nd` or `along` on the host,
/// each laid out in C order.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Single<'b> {
    /// A boolean mask: its elements and its shape.
    Mask(&'b [bool], &'b [usize]),
    /// `nd(points)`.
    Nd(HostInts<'b>),
    /// `along(index, axis)`.
    Along(HostInts<'b>, isize),
}

/// An integer index array on the host, laid out in C order: its elements
/// and its shape.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct HostInts<'b> {
    /// The elements in C order.
    pub ints: IndexSlice<'b>,
    /// The shape.
    pub shape: &'b [usize],
}

impl IndexElem<'_> {
    /// The element as [`Single`] borrows it, when it is a mask, `nd` or
    /// `along` laid out in C order.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn as_single(&self) -> Option<Single<'_>> {
        match self {
            IndexElem::Mask(mask) => Some(Single::Mask(mask.as_slice()?, mask.shape())),
            IndexElem::Nd(points) => Some(Single::Nd(points.host_ints()?)),
            IndexElem::Along { index, axis } => Some(Single::Along(index.host_ints()?, *axis)),
            _ => None,
        }
    }
}

/// An index list walked element by element where it stands, with nothing
/// built: the macros' typed lists, whose basic elements the inline path
/// reads without an [`IndexElem`] each.
#[doc(hidden)]
pub trait BasicList {
    /// Calls `f` with each element's basic form (`None` for one that is
    /// not basic), in order, while `f` returns `true`.
    fn each_basic(&self, f: &mut impl VisitBasic);
}

/// What [`BasicList::each_basic`] calls with each element: a closure, or
/// a visitor whose method is forced inline, so that each element's kind,
/// known where the list is typed, folds the match on it away (a closure
/// called once per element stays out of line and matches every kind).
#[doc(hidden)]
pub trait VisitBasic {
    /// Takes one element's basic form; `false` stops the walk.
    fn visit(&mut self, elem: Option<BasicElem>) -> bool;
}

impl<F: FnMut(Option<BasicElem>) -> bool> VisitBasic for F {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn visit(&mut self, elem: Option<BasicElem>) -> bool {
        self(elem)
    }
}

/// A vector of indices borrowed where it stands, in one of the supported
/// integer types: the macros' inline path for a few indices into a small
/// target, which builds no [`IndexElem`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs)] // one variant per element type, named after it
pub enum IndexSlice<'a> {
    Usize(&'a [usize]),
    Isize(&'a [isize]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U32(&'a [u32]),
    U64(&'a [u64]),
}

/// Runs `$body` with `$slice` bound to the typed slice inside an [`IndexSlice`].
macro_rules! with_indices {
    ($value:expr, $slice:ident => $body:expr) => {
        match $value {
            $crate::index::IndexSlice::Usize($slice) => $body,
            $crate::index::IndexSlice::Isize($slice) => $body,
            $crate::index::IndexSlice::I32($slice) => $body,
            $crate::index::IndexSlice::I64($slice) => $body,
            $crate::index::IndexSlice::U32($slice) => $body,
            $crate::index::IndexSlice::U64($slice) => $body,
        }
    };
}
pub(crate) use with_indices;

/// [`with_indices`] for the executors' loops: on a 64-bit target `usize`
/// indices are read as `u64` and `isize` as `i64` (one type bit for bit),
/// so each loop is compiled for four index types instead of six.
macro_rules! with_loop_indices {
    ($value:expr, $slice:ident => $body:expr) => {
        match $value {
            #[cfg(target_pointer_width = "64")]
            $crate::index::IndexSlice::Usize(slice) => {
                let $slice = $crate::index::usize_as_u64(slice);
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::index::IndexSlice::Isize(slice) => {
                let $slice = $crate::index::isize_as_i64(slice);
                $body
            }
            #[cfg(not(target_pointer_width = "64"))]
            $crate::index::IndexSlice::Usize($slice) => $body,
            #[cfg(not(target_pointer_width = "64"))]
            $crate::index::IndexSlice::Isize($slice) => $body,
            $crate::index::IndexSlice::I32($slice) => $body,
            $crate::index::IndexSlice::I64($slice) => $body,
            $crate::index::IndexSlice::U32($slice) => $body,
            $crate::index::IndexSlice::U64($slice) => $body,
        }
    };
}
pub(crate) use with_loop_indices;

impl<'a> IndexSlice<'a> {
    /// The number of indices.
    pub fn len(&self) -> usize {
        with_indices!(self, slice => slice.len())
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indices as the index element they stand for (a borrowed slice's).
    pub(crate) fn into_index_elem(self) -> IndexElem<'a> {
        with_indices!(self, slice => IndexArrayElement::index_elem(IntoCowArray::into_cow_array(slice)))
    }
}

/// A NumPy slice `start:stop:step`; a missing part is `None`.
///
/// ```
/// use ndarray::array;
/// use tensor_core::IndexExt;
/// use tensor_core::index::PySlice;
///
/// let x = array![0, 1, 2, 3, 4, 5];
/// // x[4::-2] walks down from 4, as in NumPy.
/// let down = x.at(PySlice::new(Some(4), None, Some(-2))).get()?;
/// assert_eq!(down, array![4, 2, 0]);
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
/// use tensor_core::{ix, IndexExt};
///
/// let x = array![0, 1, 2, 3, 4, 5];
/// // 4..;-2 is the range 4.. walked backwards, as `s![4..;-2]`.
/// let back = x.at(&[ix(4..).step_by(-2)]).get()?;
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
#[non_exhaustive]
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

/// [`with_int_array`] for the executors' loops, folding `usize` into `u64`
/// and `isize` into `i64` as [`with_loop_indices`] does; `$arr` is a view
/// for those two, a `&CowArray` for the others.
macro_rules! with_loop_array {
    ($value:expr, $arr:ident => $body:expr) => {
        match $value {
            #[cfg(target_pointer_width = "64")]
            $crate::index::IntArray::Usize(array) => {
                let $arr = &$crate::index::usize_view_as_u64(array);
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::index::IntArray::Isize(array) => {
                let $arr = &$crate::index::isize_view_as_i64(array);
                $body
            }
            #[cfg(not(target_pointer_width = "64"))]
            $crate::index::IntArray::Usize($arr) => $body,
            #[cfg(not(target_pointer_width = "64"))]
            $crate::index::IntArray::Isize($arr) => $body,
            $crate::index::IntArray::I32($arr) => $body,
            $crate::index::IntArray::I64($arr) => $body,
            $crate::index::IntArray::U32($arr) => $body,
            $crate::index::IntArray::U64($arr) => $body,
        }
    };
}
pub(crate) use with_loop_array;

/// Runs `$body` with `$index` bound to the indices of an [`IntArray`] the
/// planner reads in place (`Entries::Index`), as a slice: it keeps only
/// contiguous arrays in place.
macro_rules! with_index_slice {
    ($array:expr, $index:ident => $body:expr) => {
        $crate::index::with_loop_indices!(
            $array.as_index_slice().expect("indices read in place are contiguous"),
            $index => $body
        )
    };
}
pub(crate) use with_index_slice;

/// [`with_index_slice`] for a pair read in place (`Entries::Pair`): one
/// integer type, both contiguous.
macro_rules! with_index_slices {
    ($first:expr, $second:expr, ($a:ident, $b:ident) => $body:expr) => {{
        use $crate::index::IndexSlice::*;
        const CONTIGUOUS: &str = "indices read in place are contiguous";
        match (
            $first.as_index_slice().expect(CONTIGUOUS),
            $second.as_index_slice().expect(CONTIGUOUS),
        ) {
            #[cfg(target_pointer_width = "64")]
            (Usize(a), Usize(b)) => {
                let ($a, $b) = ($crate::index::usize_as_u64(a), $crate::index::usize_as_u64(b));
                $body
            }
            #[cfg(target_pointer_width = "64")]
            (Isize(a), Isize(b)) => {
                let ($a, $b) = ($crate::index::isize_as_i64(a), $crate::index::isize_as_i64(b));
                $body
            }
            #[cfg(not(target_pointer_width = "64"))]
            (Usize($a), Usize($b)) => $body,
            #[cfg(not(target_pointer_width = "64"))]
            (Isize($a), Isize($b)) => $body,
            (I32($a), I32($b)) => $body,
            (I64($a), I64($b)) => $body,
            (U32($a), U32($b)) => $body,
            (U64($a), U64($b)) => $body,
            _ => unreachable!("a pair of index arrays holds one integer type"),
        }
    }};
}
pub(crate) use with_index_slices;

impl IntArray<'_> {
    /// The array as [`HostInts`] borrows it, when laid out in C order.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn host_ints(&self) -> Option<HostInts<'_>> {
        with_int_array!(self, array => Some(HostInts { ints: IndexInt::wrap_slice(array.as_slice()?), shape: array.shape() }))
    }

    /// The indices in C order as a slice, when they are contiguous in it.
    #[inline]
    pub(crate) fn as_index_slice(&self) -> Option<IndexSlice<'_>> {
        with_int_array!(self, a => a.as_slice().map(IndexInt::wrap_slice))
    }

    /// The array's shape.
    #[inline]
    pub fn shape(&self) -> &[usize] {
        with_int_array!(self, a => a.shape())
    }

    /// Whether the array is C-contiguous (its indices can be read as a slice).
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        with_int_array!(self, a => a.as_slice().is_some())
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

/// The one element every [`IntArray::zeros`] reads.
static ZERO: usize = 0;

impl<'a> IntArray<'a> {
    /// An array of `shape` that reads zero at every position, from one
    /// element (its strides are zero): what an adapter plans with in place
    /// of indices it keeps elsewhere, such as on a device. Allocates
    /// nothing, and the plan resolves it once rather than per position.
    ///
    /// ```
    /// use tensor_core::index::IntArray;
    ///
    /// let zeros = IntArray::zeros(&[3, 4]);
    /// assert_eq!(zeros.shape(), &[3, 4]);
    /// let IntArray::Usize(view) = zeros else { unreachable!("zeros are usize") };
    /// assert!(view.iter().all(|&at| at == 0));
    /// ```
    pub fn zeros(shape: &[usize]) -> Self {
        let layout = IxDyn(shape).strides(IxDyn(&vec![0; shape.len()]));
        let view = ndarray::ArrayViewD::from_shape(layout, std::slice::from_ref(&ZERO)).expect("zero strides read one element");
        IntArray::Usize(CowArray::from(view))
    }
}

/// The `...` index element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ellipsis;

/// The new-axis index element (NumPy's `None` / `np.newaxis`): ndarray's
/// own, the one `s![]` takes, so that both crates' names can be imported
/// together.
pub use ndarray::NewAxis;

/// Marks an integer array as a TensorFlow-style `gather_nd` index: its last
/// axis holds one coordinate per indexed axis.
#[derive(Clone, Debug)]
#[must_use = "an index element does nothing until it indexes"]
pub struct Nd<T>(pub T);

/// Wraps an index array for `gather_nd`-style indexing (see [`IndexElem::Nd`]).
pub fn nd<T>(index: T) -> Nd<T> {
    Nd(index)
}

/// Marks an integer array as an index along one axis of the target (see
/// [`IndexElem::Along`]).
#[derive(Clone, Debug)]
#[must_use = "an index element does nothing until it indexes"]
pub struct Along<T> {
    /// The index array, of the target's rank.
    pub index: T,
    /// The axis it picks positions along; negative counts from the end.
    pub axis: isize,
}

/// `x[along(idx, axis)]`: NumPy's `take_along_axis(x, idx, axis)` as a
/// read, `put_along_axis` as `=`, PyTorch's `scatter_add_` as `+=` (see
/// [`IndexElem::Along`]). It must be the only element of the index.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{along, IndexExt};
///
/// let logits = array![[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]];
/// let labels = array![[1usize], [0]];
/// // torch.gather(logits, 1, labels): each row's label logit.
/// let picked = logits.at(along(&labels, 1)).get()?;
/// assert_eq!(picked, array![[0.7], [0.5]]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn along<T>(index: T, axis: isize) -> Along<T> {
    Along { index, axis }
}

impl PySlice {
    /// The slice `start:stop:step`.
    #[must_use]
    pub fn new(start: Option<isize>, stop: Option<isize>, step: Option<isize>) -> Self {
        PySlice { start, stop, step }
    }
}

impl RangeSlice {
    /// The range `start..end` with step 1.
    #[must_use]
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

#[cfg(feature = "burn")]
impl IndexElem<'_> {
    /// The same element, its arrays borrowed (the types' lifetimes are
    /// invariant, so a shorter-lived index cannot simply hold a clone).
    pub(crate) fn view(&self) -> IndexElem<'_> {
        match self {
            IndexElem::Int(i) => IndexElem::Int(*i),
            IndexElem::Slice(slice) => IndexElem::Slice(*slice),
            IndexElem::Range(range) => IndexElem::Range(*range),
            IndexElem::Ellipsis => IndexElem::Ellipsis,
            IndexElem::NewAxis => IndexElem::NewAxis,
            IndexElem::Array(array) => IndexElem::Array(array.view()),
            IndexElem::Mask(mask) => IndexElem::Mask(mask.view().into()),
            IndexElem::Nd(array) => IndexElem::Nd(array.view()),
            IndexElem::Along { index, axis } => IndexElem::Along {
                index: index.view(),
                axis: *axis,
            },
            IndexElem::Device { array, form } => IndexElem::Device {
                array: array.view(),
                form: *form,
            },
            IndexElem::CrossRank { ndim } => IndexElem::CrossRank { ndim: *ndim },
        }
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
            IndexElem::Along { index, axis } => write!(f, "along(<integer array of shape {}>, {axis})", shape_str(index.shape())),
            IndexElem::CrossRank { ndim } => write!(f, "ix_(<array of {ndim} dimensions>)"),
            IndexElem::Device { array, form } => {
                let kind = if *form == DeviceForm::Mask {
                    "boolean mask"
                } else {
                    "integer array"
                };
                let array = format!("<device {kind} of shape {}>", shape_str(array.shape()));
                match form {
                    DeviceForm::Nd => write!(f, "nd({array})"),
                    DeviceForm::Along(axis) => write!(f, "along({array}, {axis})"),
                    DeviceForm::Array | DeviceForm::Mask => f.write_str(&array),
                }
            }
        }
    }
}

fn shape_str(shape: &[usize]) -> String {
    crate::error::Dims(shape.to_vec()).to_string()
}
