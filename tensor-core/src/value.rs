//! Values written by an update: a scalar, or an array broadcast to the
//! indexed region.

use ndarray::{ArrayBase, ArrayViewD, CowArray, Data, Dimension, Ix0, IxDyn};

/// A value to write: one scalar for every position, or an array.
#[derive(Clone, Debug)]
pub enum Value<'a, T> {
    /// The same element everywhere.
    Scalar(T),
    /// An array, broadcast to the indexed region.
    Array(CowArray<'a, T, IxDyn>),
    /// An array on another device (a GPU tensor of `T`), broadcast to the
    /// indexed region; only a target on that device reads it.
    Device(crate::index::DeviceArray<'a>),
}

impl<T> Value<'_, T> {
    /// The value as the fast loops read it, where it is a scalar or a
    /// contiguous vector; `None` for any other.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn in_order(&self) -> Option<InOrder<'_, T>> {
        match self {
            Value::Scalar(element) => Some(InOrder::Scalar(element)),
            Value::Array(array) if array.ndim() == 1 => array.as_slice().map(InOrder::Slice),
            _ => None,
        }
    }

    /// Drops the value. A scalar drops its element alone: on the inline
    /// paths, where the value is known to be a scalar, no call to the drop
    /// of the array variants is left (it is not inlined, and would be a
    /// large share of a small region's write).
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn dispose(self) {
        match self {
            Value::Scalar(element) => drop(element),
            other => drop(other),
        }
    }
}

/// A value as the write of a small basic region reads it, borrowed from
/// what the user wrote: no array of dynamic rank is made (that costs a
/// small write more than the write itself).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Written<'a, T> {
    /// The same element everywhere.
    Scalar(&'a T),
    /// An array's elements in C order, and its shape.
    Array {
        /// The array's shape.
        shape: &'a [usize],
        /// Its elements, in C order.
        elements: &'a [T],
    },
}

/// Element types that can be written as a scalar value (`x[i] = 0.0`).
///
/// Implemented for the primitive numbers, `bool` and `num_complex::Complex`; implement it for your own
/// element type to write scalars of it.
pub trait Scalar: Clone {}

macro_rules! scalar {
    ($($t:ty),*) => {$( impl Scalar for $t {} )*};
}
scalar!(f32, f64, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool);
scalar!(num_complex::Complex<f32>, num_complex::Complex<f64>);
#[cfg(feature = "half")]
scalar!(half::f16, half::bf16);

/// Converts what stands right of `=` into a [`Value`] of the target's
/// element type `T`. There are no implicit casts: the element types match.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written into an array of `{T}`",
    label = "expected a `{T}` or an array of `{T}`",
    note = "values are a scalar of the target's element type or an ndarray of it (owned, view or reference); there are no implicit casts",
    note = "into an array of floats, write a float literal: `1.0`, not `1`"
)]
pub trait IntoValue<'a, T> {
    /// The value's rank (`Ix0` for a scalar).
    type Dim: Dimension;
    /// The value.
    fn into_value(self) -> Value<'a, T>;
    /// Nothing: the macros name `<_ as IntoValue<_>>::check(elems, value)`
    /// with the target's element type known first, so a value of another
    /// type is this trait's own message at the value (see
    /// [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_elems: std::marker::PhantomData<T>, _value: std::marker::PhantomData<Self>) -> std::marker::PhantomData<Self::Dim>
    where
        Self: Sized,
    {
        std::marker::PhantomData
    }
    /// The value as the fast loops read it, where it is a scalar or a
    /// contiguous vector; `None` for any other.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        None
    }
    /// The value as a small basic region's write reads it, where it is a
    /// scalar or an array in C order; `None` for any other.
    #[doc(hidden)]
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        None
    }
}

// Not listed in the error: its notes say what a value may be.
#[diagnostic::do_not_recommend]
impl<'a, T: Scalar> IntoValue<'a, T> for T {
    type Dim = Ix0;
    fn into_value(self) -> Value<'a, T> {
        Value::Scalar(self)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        Some(InOrder::Scalar(self))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        Some(Written::Scalar(self))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: Scalar> IntoValue<'a, T> for &T {
    type Dim = Ix0;
    fn into_value(self) -> Value<'a, T> {
        Value::Scalar(self.clone())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        Some(InOrder::Scalar(self))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        Some(Written::Scalar(self))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: Scalar> IntoValue<'a, T> for &&T {
    type Dim = Ix0;
    fn into_value(self) -> Value<'a, T> {
        Value::Scalar((*self).clone())
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        Some(Written::Scalar(self))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, S: Data<Elem = A>, D: Dimension> IntoValue<'a, T> for &'a &ArrayBase<S, D> {
    type Dim = D;
    fn into_value(self) -> Value<'a, T> {
        Value::Array(CowArray::from(A::same_view((**self).view().into_dyn())))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        vector(self)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        in_c_order(self)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, S: Data<Elem = A>, D: Dimension> IntoValue<'a, T> for &'a ArrayBase<S, D> {
    type Dim = D;
    fn into_value(self) -> Value<'a, T> {
        Value::Array(CowArray::from(A::same_view(self.view().into_dyn())))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        vector(self)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        in_c_order(self)
    }
}

/// An array's elements and shape where it is in C order.
#[cfg_attr(not(unoptimized), inline(always))]
fn in_c_order<T, A: SameElement<T>, S: Data<Elem = A>, D: Dimension>(array: &ArrayBase<S, D>) -> Option<Written<'_, T>> {
    Some(Written::Array {
        shape: array.shape(),
        elements: A::same_slice(array.as_slice()?),
    })
}

/// An array's elements in order where it is a contiguous vector.
#[cfg_attr(not(unoptimized), inline(always))]
fn vector<T, A: SameElement<T>, S: Data<Elem = A>, D: Dimension>(array: &ArrayBase<S, D>) -> Option<InOrder<'_, T>> {
    let elements = if array.ndim() == 1 { array.as_slice()? } else { return None };
    Some(InOrder::Slice(A::same_slice(elements)))
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, D: Dimension> IntoValue<'a, T> for ndarray::Array<A, D> {
    type Dim = D;
    fn into_value(self) -> Value<'a, T> {
        Value::Array(CowArray::from(A::same_array(self.into_dyn())))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        vector(self)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        in_c_order(self)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, D: Dimension> IntoValue<'a, T> for ndarray::ArrayView<'a, A, D> {
    type Dim = D;
    fn into_value(self) -> Value<'a, T> {
        Value::Array(CowArray::from(A::same_view(self.into_dyn())))
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn in_order(&self) -> Option<InOrder<'_, T>> {
        vector(self)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        in_c_order(self)
    }
}

/// The element type of a value array is the target's: there are no
/// implicit casts.
#[diagnostic::on_unimplemented(
    message = "an array of `{Self}` cannot be written into an array of `{T}`",
    label = "expected an array of `{T}`",
    note = "tensor-at does no implicit casts: convert the value first, e.g. with `.mapv(|v| v as {T})`"
)]
pub trait SameElement<T>: Sized {
    /// The view, as the type it already is.
    fn same_view(view: ArrayViewD<'_, Self>) -> ArrayViewD<'_, T>;
    /// The array, as the type it already is.
    fn same_array(array: ndarray::ArrayD<Self>) -> ndarray::ArrayD<T>;
    /// The elements, as the type they already are.
    #[doc(hidden)]
    fn same_slice(elements: &[Self]) -> &[T];
}

impl<T> SameElement<T> for T {
    fn same_view(view: ArrayViewD<'_, T>) -> ArrayViewD<'_, T> {
        view
    }
    fn same_array(array: ndarray::ArrayD<T>) -> ndarray::ArrayD<T> {
        array
    }
    fn same_slice(elements: &[T]) -> &[T] {
        elements
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T> IntoValue<'a, T> for Value<'a, T> {
    type Dim = IxDyn;
    fn into_value(self) -> Value<'a, T> {
        self
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn written(&self) -> Option<Written<'_, T>> {
        match self {
            Value::Scalar(element) => Some(Written::Scalar(element)),
            Value::Array(array) => Some(Written::Array {
                shape: array.shape(),
                elements: array.as_slice()?,
            }),
            Value::Device(_) => None,
        }
    }
}

/// A value checked to broadcast to the region it is written to, ready to
/// be read in the C order of that region (built by [`prepare`](crate::prepare)).
#[derive(Clone, Debug)]
pub enum Broadcast<'v, T> {
    /// One value for every position.
    Scalar(&'v T),
    /// `view` (the value, leading length-1 axes dropped) broadcasts to `shape`.
    Array {
        /// The value's elements.
        view: ArrayViewD<'v, T>,
        /// The region's shape, which `view` broadcasts to.
        shape: IxDyn,
    },
}

impl<T> Value<'_, T> {
    /// The value's array for a region of `ndim` axes, with its leading
    /// length-1 axes dropped first, as PyTorch's setitem and NumPy's do
    /// (never below the region's rank); `None` for a scalar or an array on
    /// a device.
    pub(crate) fn trimmed(&self, ndim: usize) -> Option<ArrayViewD<'_, T>> {
        let array = match self {
            Value::Scalar(_) | Value::Device(_) => return None,
            Value::Array(array) => array,
        };
        let leading_ones = array.shape().iter().take_while(|&&d| d == 1).count();
        let dropped = leading_ones.min(array.ndim().saturating_sub(ndim));
        let mut view = array.view();
        for _ in 0..dropped {
            view.index_axis_inplace(ndarray::Axis(0), 0);
        }
        Some(view)
    }

    /// The values for a region of shape `region` without building a
    /// broadcast, in the usual cases: a scalar, or as many contiguous values
    /// as the region has elements, both shapes one axis after leading
    /// length-1 axes; `None` for any other.
    pub(crate) fn flat_in_order(&self, region: &[usize]) -> Option<InOrder<'_, T>> {
        let flat = |shape: &[usize]| match shape.split_last() {
            Some((&last, leading)) if leading.iter().all(|&len| len == 1) => Some(last),
            _ => None,
        };
        match self {
            Value::Scalar(value) => Some(InOrder::Scalar(value)),
            Value::Array(array) if flat(array.shape()).is_some() && flat(array.shape()) == flat(region) => {
                array.as_slice().map(InOrder::Slice)
            }
            Value::Array(_) | Value::Device(_) => None,
        }
    }

    /// The value's shape; a scalar has shape `()`.
    pub fn shape(&self) -> &[usize] {
        match self {
            Value::Scalar(_) => &[],
            Value::Array(array) => array.shape(),
            Value::Device(array) => array.shape(),
        }
    }
}

/// The values of an update as the fast loops read them: one for every
/// position, or one per position in C order.
#[doc(hidden)]
pub enum InOrder<'v, T> {
    /// One value for every position.
    Scalar(&'v T),
    /// One value per position.
    Slice(&'v [T]),
}

// Borrows, copied whatever `T` is (a derive would ask `T: Copy`).
impl<T> Clone for InOrder<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for InOrder<'_, T> {}

impl<T> InOrder<'_, T> {
    /// Whether these values fit `len` positions exactly (a scalar fits any).
    pub(crate) fn fits(&self, len: usize) -> bool {
        match self {
            InOrder::Scalar(_) => true,
            InOrder::Slice(values) => values.len() == len,
        }
    }
}

impl<'v, T> InOrder<'v, T> {
    /// The values of the updates from the `first`.
    #[cfg_attr(not(threads), allow(dead_code))] // a parallel path's
    pub(crate) fn skip(self, first: usize) -> Self {
        match self {
            InOrder::Slice(values) => InOrder::Slice(&values[first..]),
            scalar => scalar,
        }
    }
}

impl<'v, T> Broadcast<'v, T> {
    /// The value's own array, before broadcasting (`None` for a scalar):
    /// backends that broadcast by strides (tensor-gpu) upload it.
    pub fn source(&self) -> Option<&ArrayViewD<'v, T>> {
        match self {
            Broadcast::Scalar(_) => None,
            Broadcast::Array { view, .. } => Some(view),
        }
    }

    /// The values as a scalar or a slice in C order of the region; `None`
    /// when the broadcast array is not laid out so (a value repeated along
    /// an axis, or not in C order): the general loops take those.
    pub(crate) fn in_order(&self) -> Option<InOrder<'_, T>> {
        match self {
            Broadcast::Scalar(value) => Some(InOrder::Scalar(value)),
            Broadcast::Array { view, shape } => view
                .broadcast(shape.clone())
                .expect("checked when built")
                .to_slice()
                .map(InOrder::Slice),
        }
    }

    /// The elements in C order of the broadcast shape (a scalar repeats forever).
    pub(crate) fn elements(&self) -> impl Iterator<Item = &T> + '_ {
        let (scalar, array) = match self {
            Broadcast::Scalar(s) => (Some(std::iter::repeat(*s)), None),
            Broadcast::Array { view, shape } => (None, Some(view.broadcast(shape.clone()).expect("checked when built").into_iter())),
        };
        scalar.into_iter().flatten().chain(array.into_iter().flatten())
    }
}
