//! The one error type of tensor-at: a variant per cause, messages like NumPy's.

use std::fmt;

/// A shape printed the way NumPy prints it: `(3,)`, `(2, 4)`, `()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims(pub Vec<usize>);

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [only] => write!(f, "({only},)"),
            dims => {
                let parts: Vec<String> = dims.iter().map(usize::to_string).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

impl From<&[usize]> for Dims {
    fn from(dims: &[usize]) -> Self {
        Dims(dims.to_vec())
    }
}

/// Shapes separated by spaces, as NumPy lists the shapes of index arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexShapes(pub Vec<Dims>);

impl fmt::Display for IndexShapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(Dims::to_string).collect();
        f.write_str(&parts.join(" "))
    }
}

/// The part of a batched call whose batch axes are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BatchPart {
    /// The target.
    Target,
    /// The index element at this position (an array, a mask, `nd` or `along`).
    Index(usize),
    /// The value.
    Value,
}

impl fmt::Display for BatchPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchPart::Target => f.write_str("the target"),
            BatchPart::Index(position) => write!(f, "the index at position {position}"),
            BatchPart::Value => f.write_str("the value"),
        }
    }
}

/// Why an index, a value or a mode was rejected.
///
/// Every entry point validates everything before its first write, so when
/// one of these is returned the target is unchanged, bit for bit.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{IndexError, IndexMutExt};
///
/// let mut x = array![1, 2, 3];
/// let error = x.at_mut([0, 3]).set(0).unwrap_err();
/// assert!(matches!(error, IndexError::OutOfBounds { index: 3, axis: 0, len: 3 }));
/// assert_eq!(error.to_string(), "index 3 is out of bounds for axis 0 with size 3");
/// assert_eq!(x, array![1, 2, 3]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// An integer index outside `[-len, len)` in mode `error`.
    #[error("index {index} is out of bounds for axis {axis} with size {len}")]
    OutOfBounds {
        /// The index as written (before negative indices are resolved).
        index: i128,
        /// The axis of the target it indexes.
        axis: usize,
        /// The length of that axis.
        len: usize,
    },
    /// An ndarray-style range (`a..b`) reaching outside the axis; ndarray's
    /// `s![]` panics here, NumPy-style slices (`a:b`) clamp instead.
    #[error("range {range} is out of bounds for axis {axis} with size {len}")]
    RangeOutOfBounds {
        /// The range as written.
        range: String,
        /// The axis of the target it indexes.
        axis: usize,
        /// The length of that axis.
        len: usize,
    },
    /// More axes indexed than the target has.
    #[error("too many indices for array: array is {ndim}-dimensional, but {indexed} were indexed")]
    TooManyIndices {
        /// The target's number of dimensions.
        ndim: usize,
        /// The number of axes the index consumes.
        indexed: usize,
    },
    /// More than one `...` in one index.
    #[error("an index can only have a single ellipsis ('...')")]
    MultipleEllipsis,
    /// A slice with step zero.
    #[error("slice step cannot be zero")]
    ZeroStep,
    /// A boolean mask whose shape differs from the axes it covers.
    #[error(
        "boolean index did not match indexed array along axis {axis}; size of axis is {len} but size of corresponding boolean axis is {mask_len}"
    )]
    MaskShape {
        /// The target axis where the shapes first differ.
        axis: usize,
        /// The length of that target axis.
        len: usize,
        /// The length of the mask along it.
        mask_len: usize,
    },
    /// Index arrays whose shapes do not broadcast together.
    #[error("shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}")]
    IndexBroadcast {
        /// The shapes of the index arrays, in index order.
        shapes: IndexShapes,
    },
    /// A value that does not broadcast to the indexed region.
    #[error("shape mismatch: value array of shape {value} could not be broadcast to indexing result of shape {target}")]
    ShapeMismatch {
        /// The value's shape.
        value: Dims,
        /// The shape of the indexed region.
        target: Dims,
    },
    /// `x[mask] = v` with a one-dimensional `v` of the wrong length.
    #[error("boolean array indexing assignment cannot assign {given} input values to the {expected} output values where the mask is true")]
    ValueCount {
        /// How many values were given.
        given: usize,
        /// How many elements the mask selects.
        expected: usize,
    },
    /// An out-of-bounds mode used where it has no meaning.
    #[error("mode {mode} {reason}")]
    UnsupportedMode {
        /// The mode as written.
        mode: &'static str,
        /// Why it does not apply.
        reason: &'static str,
    },
    /// Integer division by zero in `div` (`/=`) or `rem` (`%=`).
    #[error("integer division by zero")]
    DivisionByZero,
    /// An operation the element type does not have: the bitwise updates of
    /// floats, and `-`, `/`, `%` and powers of `bool` (NumPy refuses them
    /// too).
    #[error("`{}` is not defined for `{element}` elements", op.symbol())]
    UnsupportedOperation {
        /// The operation.
        op: crate::element::Op,
        /// The element type's name.
        element: &'static str,
    },
    /// An integer raised to a negative integer power in `pow`.
    #[error("integers to negative integer powers are not allowed")]
    NegativeIntegerPower,
    /// `nd(idx)` with a zero-dimensional `idx`: its last axis must hold the coordinates.
    #[error("nd(...) needs an index array of at least one dimension, whose last axis holds the coordinates")]
    NdRank,
    /// An index whose result would have more elements than memory can address.
    #[error("indexing result of shape {shape} is too large")]
    TooLarge {
        /// The shape that overflowed.
        shape: Dims,
    },
    /// `along(idx, axis)` with other elements beside it in the brackets.
    #[error("along(...) must be the only element of an index")]
    AlongNotAlone,
    /// `along(idx, axis)` with an index whose rank is not the target's.
    #[error("along(...) needs an index array of the target's rank: the target has {target} dimensions, the index {index}")]
    AlongRank {
        /// The index array's number of dimensions.
        index: usize,
        /// The target's number of dimensions.
        target: usize,
    },
    /// An axis outside `[-ndim, ndim)` (NumPy's `AxisError`).
    #[error("axis {axis} is out of bounds for array of dimension {ndim}")]
    AxisOutOfRange {
        /// The axis as written.
        axis: isize,
        /// The target's number of dimensions.
        ndim: usize,
    },
    /// `along(idx, axis)` with an index that does not broadcast against the
    /// target on an axis other than `axis`.
    #[error("along(...) index of shape {index} does not broadcast against the target of shape {target} outside axis {axis}")]
    AlongShape {
        /// The index array's shape.
        index: Dims,
        /// The target's shape.
        target: Dims,
        /// The axis the index picks positions along (from the front).
        axis: usize,
    },
    /// `; batch = k` with fewer than `k` axes in the target, in an index
    /// array or mask, or in an array value.
    #[error("batch = {batch} pairs the leading {batch} axes, but {part} has {ndim}")]
    BatchRank {
        /// The number of batch axes.
        batch: usize,
        /// What has too few axes.
        part: BatchPart,
        /// Its number of dimensions.
        ndim: usize,
    },
    /// A batch axis whose length is neither the target's nor 1.
    #[error(
        "batch axis {axis} of {part} has length {len}, but the target's has length {expected} (batch axes are equal, or 1 to broadcast)"
    )]
    BatchShape {
        /// Whose batch axis it is.
        part: BatchPart,
        /// The batch axis.
        axis: usize,
        /// Its length.
        len: usize,
        /// The target's length along it.
        expected: usize,
    },
    /// A batched read through a mask: each batch could select a different
    /// number of elements, so the rows would not stack.
    #[error(
        "a batched read cannot go through a mask (each batch may select a different number of elements); update through it, or read without batch"
    )]
    BatchedMaskRead,
    /// A read into an existing array (`; out = buf`, [`get_into`](crate::backend::get_into))
    /// whose shape is not the result's (NumPy's `take(.., out=)` asks the same).
    #[error("output array of shape {out} does not match the indexing result of shape {result}")]
    OutputShape {
        /// The shape of the array given to read into.
        out: Dims,
        /// The shape of the result.
        result: Dims,
    },
    /// An index array or a value that lives on another device (a GPU
    /// tensor) used with a target that cannot read it, such as an ndarray.
    #[error("the {what} of shape {shape} lives on a device, which this target cannot read: copy it to the host first (`to_array`)")]
    OnDevice {
        /// `"index array"` or `"value"`.
        what: &'static str,
        /// Its shape.
        shape: Dims,
    },
    /// An argument of `ix_(..)` that is not one-dimensional (an array of
    /// dynamic rank; a static rank other than one does not compile).
    /// NumPy's `np.ix_` raises it before anything is indexed.
    #[error("Cross index must be 1 dimensional (an argument of ix_(...) has {ndim} dimensions)")]
    CrossIndexRank {
        /// The argument's number of dimensions.
        ndim: usize,
    },
    /// [`take`](crate::take) of one or more indices from an empty array
    /// (NumPy's message, in every mode).
    #[error("cannot do a non-empty take from an empty axes.")]
    TakeFromEmpty,
    /// [`put`](crate::put) of one or more indices into an empty array, in
    /// a mode other than `drop` (NumPy's message).
    #[error("cannot replace elements of an empty array")]
    PutIntoEmpty,
    /// [`place`](crate::place) with a mask of another size than the array
    /// (NumPy compares sizes, not shapes).
    #[error("place: mask and data must be the same size (a mask of {mask} elements, data of {data})")]
    MaskSize {
        /// The mask's number of elements.
        mask: usize,
        /// The array's number of elements.
        data: usize,
    },
    /// [`place`](crate::place) with no values and a mask with a true
    /// element (NumPy's message).
    #[error("Cannot insert from an empty array!")]
    EmptyValues,
}

/// What `try_set!` and the `*_copy` entry points return on an error: the
/// error, and the array the update was to be written into, unchanged
/// (nothing is written before everything is checked). For an owned array
/// moved in (`try_set!({x}[9] = 0)`) that is the array itself, in its own
/// buffer, so nothing the caller had is lost; for any other source (a
/// borrowed array, a view, an `ArcArray` shared elsewhere) it is the
/// untouched copy.
///
/// `?` converts it to the plain error (`IndexError` on the CPU), dropping
/// the array.
pub struct SetError<A, E = IndexError> {
    /// Why the update was refused.
    pub error: E,
    /// The array, as it was before the call; `None` only when the copy of
    /// a borrowed source could not be made (the source is then still the
    /// caller's).
    pub array: Option<A>,
}

impl<A, E> SetError<A, E> {
    /// The error of a copy that could not be made.
    pub fn without_array(error: E) -> Self {
        SetError { error, array: None }
    }

    /// The array of a refused update, and its error.
    pub fn with_array(error: E, array: A) -> Self {
        SetError { error, array: Some(array) }
    }
}

/// The error, and whether the array is held: `unwrap` works whatever the
/// element type.
impl<A, E: fmt::Debug> fmt::Debug for SetError<A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SetError")
            .field("error", &self.error)
            .field("array", &self.array.as_ref().map(|_| "the array, unchanged"))
            .finish()
    }
}

impl<A, E: fmt::Display> fmt::Display for SetError<A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<A, E: std::error::Error + 'static> std::error::Error for SetError<A, E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<A> From<SetError<A, IndexError>> for IndexError {
    fn from(error: SetError<A, IndexError>) -> Self {
        error.error
    }
}

impl IndexError {
    /// [`IndexError::TooLarge`] for a result, table or copy of `shape`.
    #[cold]
    pub(crate) fn too_large(shape: &[usize]) -> Self {
        IndexError::TooLarge {
            shape: Dims(shape.to_vec()),
        }
    }

    /// [`IndexError::OnDevice`] for the `what` of shape `shape`.
    pub(crate) fn on_device(what: &'static str, shape: &[usize]) -> Self {
        IndexError::OnDevice {
            what,
            shape: Dims(shape.to_vec()),
        }
    }
}
