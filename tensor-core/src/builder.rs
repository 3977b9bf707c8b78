//! Method syntax over the entry points, for indices built at run time
//! (like PyTorch's C++ `x.index({Slice(), 0})`):
//!
//! ```
//! use ndarray::{array, Array2};
//! use tensor_core::{ix, IndexExt, IndexMutExt, IntoUpdated, Mode};
//!
//! let mut x = Array2::<f64>::zeros((3, 4));
//! x.at_mut(&[ix(..), ix(1..4).step_by(2)]).set(1.0)?;       // x[:, 1:4:2] = 1
//! x.at_mut(&[ix([0, 0]), ix(0)]).add(5.0)?;                 // np.add.at(x, ([0, 0], 0), 5)
//! let y = (&x).updated(&[ix(-1)]).set(&array![9.0, 9.0, 9.0, 9.0])?; // JAX x.at[-1].set(..)
//! assert_eq!(x.at(&[ix(0)]).get()?, array![10.0, 1.0, 0.0, 1.0].into_dyn());
//! assert_eq!(y.row(2), array![9.0, 9.0, 9.0, 9.0]);
//! assert_eq!(x.at(&[ix([7])]).mode(Mode::Fill(-1.0)).get()?.shape(), &[1, 4]);
//! # Ok::<(), tensor_core::IndexError>(())
//! ```

use ndarray::{ArcArray, Array, ArrayBase, ArrayView, ArrayViewD, ArrayViewMutD, CowArray, Data, DataMut, Dimension, IxDyn};

use crate::backend::owned_copy;
use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::index::{IndexElem, IntoIndexElem, RangeSlice};
use crate::mode::Mode;
use crate::target::Target;
use crate::value::IntoValue;

/// Converts anything that can stand between the brackets into an
/// [`IndexElem`]: `ix(0)`, `ix(..)`, `ix(1..4)`, `ix(&idx)`, `ix(&mask)`.
pub fn ix<'a>(elem: impl IntoIndexElem<'a>) -> IndexElem<'a> {
    elem.into_index_elem()
}

impl IndexElem<'_> {
    /// An ndarray-style range with a step: `ix(1..8).step_by(-2)` is `s![1..8;-2]`.
    ///
    /// # Panics
    ///
    /// When `self` is not a range.
    #[track_caller]
    pub fn step_by(self, step: isize) -> Self {
        match self {
            IndexElem::Range(range) => IndexElem::Range(RangeSlice { step, ..range }),
            other => panic!("step_by applies to ranges, not to `{other}`"),
        }
    }
}

/// The read method on every ndarray.
pub trait IndexExt<T> {
    /// Selects `self[index]` for reading.
    fn at<'s, 'i, 'e>(&'s self, index: &'i [IndexElem<'e>]) -> At<'s, 'i, 'e, T>;
}

/// The update method on every writable ndarray (`Array`, `ArrayViewMut`,
/// `ArcArray`, `&mut Array` through auto-deref).
pub trait IndexMutExt<T> {
    /// Selects `self[index]` for an in-place update.
    fn at_mut<'s, 'i, 'e>(&'s mut self, index: &'i [IndexElem<'e>]) -> AtMut<'s, 'i, 'e, T>;
}

impl<T, S: Data<Elem = T>, D: Dimension> IndexExt<T> for ArrayBase<S, D> {
    fn at<'s, 'i, 'e>(&'s self, index: &'i [IndexElem<'e>]) -> At<'s, 'i, 'e, T> {
        At {
            target: self.view().into_dyn(),
            index,
            mode: Mode::Error,
            batch: 0,
        }
    }
}

impl<T, S: DataMut<Elem = T>, D: Dimension> IndexMutExt<T> for ArrayBase<S, D> {
    fn at_mut<'s, 'i, 'e>(&'s mut self, index: &'i [IndexElem<'e>]) -> AtMut<'s, 'i, 'e, T> {
        AtMut {
            target: self.view_mut().into_dyn(),
            index,
            mode: Mode::Error,
            batch: 0,
        }
    }
}

/// A selection to read; see [`IndexExt::at`].
pub struct At<'s, 'i, 'e, T> {
    target: ArrayViewD<'s, T>,
    index: &'i [IndexElem<'e>],
    mode: Mode<T>,
    batch: usize,
}

impl<'s, T: Clone> At<'s, '_, '_, T> {
    /// Sets the out-of-bounds mode (`Mode::Fill(v)` for reads).
    pub fn mode(self, mode: Mode<T>) -> Self {
        At { mode, ..self }
    }

    /// Pairs the leading `batch` axes of the target and of every index
    /// array (`; batch = k`): each batch position reads its own `x[b]`.
    pub fn batch(self, batch: usize) -> Self {
        At { batch, ..self }
    }

    /// The selected elements: a view for basic indexing, an owned array for advanced.
    pub fn get(self) -> Result<CowArray<'s, T, IxDyn>, IndexError> {
        let At {
            target,
            index,
            mode,
            batch,
        } = self;
        crate::batched::select_batched(target, index, batch, mode).map(crate::rank::Selection::into_cow)
    }

    /// The selected elements written over `out`, which has the result's
    /// shape (NumPy's `take(.., out=out)`); see [`get_into`](crate::get_into).
    ///
    /// ```
    /// use ndarray::{array, Array1};
    /// use tensor_core::{ix, IndexExt};
    ///
    /// let x = array![10, 20, 30];
    /// let mut out = Array1::zeros(2);
    /// x.at(&[ix([2, 2])]).get_into(&mut out)?;
    /// assert_eq!(out, array![30, 30]);
    /// # Ok::<(), tensor_core::IndexError>(())
    /// ```
    pub fn get_into<SO: DataMut<Elem = T>, DO: Dimension>(self, out: &mut ArrayBase<SO, DO>) -> Result<(), IndexError> {
        let At {
            target,
            index,
            mode,
            batch,
        } = self;
        crate::batched::get_batched_into(&target, index, batch, mode, out)
    }
}

/// A selection to update in place; see [`IndexMutExt::at_mut`].
pub struct AtMut<'s, 'i, 'e, T> {
    target: ArrayViewMutD<'s, T>,
    index: &'i [IndexElem<'e>],
    mode: Mode<T>,
    batch: usize,
}

/// Copies (or takes) an array for a copy-and-update (JAX's `x.at[i].set(v)`).
pub trait IntoUpdated<T, D> {
    /// The array to update: the same buffer when `self` owns it uniquely, a copy otherwise.
    fn into_owned_array(self) -> Array<T, D>;

    /// Selects `index` of the (copied or taken) array for an update that returns it.
    fn updated<'i, 'e>(self, index: &'i [IndexElem<'e>]) -> Updated<'i, 'e, T, D>
    where
        Self: Sized,
    {
        Updated {
            array: self.into_owned_array(),
            index,
            mode: Mode::Error,
            batch: 0,
        }
    }
}

impl<T, D: Dimension> IntoUpdated<T, D> for Array<T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        self
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for ArcArray<T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        self.into_owned()
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for CowArray<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        self.into_owned()
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for ndarray::ArrayViewMut<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        owned_copy(self.view())
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for ArrayView<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        owned_copy(self)
    }
}

impl<X: Target + ?Sized> IntoUpdated<X::Elem, X::Dim> for &X
where
    X::Elem: Clone,
{
    fn into_owned_array(self) -> Array<X::Elem, X::Dim> {
        owned_copy(self.target_view())
    }
}

/// A selection of an owned array whose update returns the array; see
/// [`IntoUpdated::updated`].
pub struct Updated<'i, 'e, T, D> {
    array: Array<T, D>,
    index: &'i [IndexElem<'e>],
    mode: Mode<T>,
    batch: usize,
}

/// `add`, `sub`, `mul`, `div`, `pow`, `min`, `max` over a type's `update`.
macro_rules! op_methods {
    ($out:ty) => {
        /// `+=` (`np.add.at`): every occurrence applies, in index order.
        // JAX's `.at[].add()` names, on purpose: these are not `std::ops`.
        #[allow(clippy::should_implement_trait)]
        pub fn add<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Add, value)
        }
        /// `-=` (`np.subtract.at`).
        #[allow(clippy::should_implement_trait)]
        pub fn sub<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Sub, value)
        }
        /// `*=` (`np.multiply.at`).
        #[allow(clippy::should_implement_trait)]
        pub fn mul<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Mul, value)
        }
        /// `/=` (`np.divide.at`); integer division by zero is an error.
        #[allow(clippy::should_implement_trait)]
        pub fn div<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Div, value)
        }
        /// `np.power.at`.
        pub fn pow<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Pow, value)
        }
        /// `np.minimum.at` (NaN propagates).
        pub fn min<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Min, value)
        }
        /// `np.maximum.at` (NaN propagates).
        pub fn max<'v>(self, value: impl IntoValue<'v, T>) -> Result<$out, IndexError>
        where
            T: Arith + 'v,
        {
            self.update(Op::Max, value)
        }
    };
}

impl<T: Clone> AtMut<'_, '_, '_, T> {
    /// Sets the out-of-bounds mode (`Mode::Clip`, `Mode::Wrap`, `Mode::Drop`).
    pub fn mode(self, mode: Mode<T>) -> Self {
        AtMut { mode, ..self }
    }

    /// Pairs the leading `batch` axes of the target, of every index array
    /// and mask, and of an array value (`; batch = k`): each batch position
    /// updates its own `x[b]`.
    pub fn batch(self, batch: usize) -> Self {
        AtMut { batch, ..self }
    }

    /// `x[index] = value`; with duplicates the last occurrence wins.
    pub fn set<'v>(mut self, value: impl IntoValue<'v, T>) -> Result<(), IndexError>
    where
        T: 'v,
    {
        crate::batched::set_batched(&mut self.target, self.index, self.batch, value, self.mode)
    }

    /// Combines the selection with `value` by `op`.
    pub fn update<'v>(mut self, op: Op, value: impl IntoValue<'v, T>) -> Result<(), IndexError>
    where
        T: Arith + 'v,
    {
        crate::batched::update_batched(&mut self.target, self.index, self.batch, op, value, self.mode)
    }

    /// Replaces each selected element `e` by `f(e)`, once per occurrence.
    pub fn apply(mut self, f: impl FnMut(T) -> T) -> Result<(), IndexError> {
        crate::batched::apply_batched(&mut self.target, self.index, self.batch, f, self.mode)
    }

    op_methods!(());
}

impl<T: Clone, D: Dimension> Updated<'_, '_, T, D> {
    /// Sets the out-of-bounds mode (`Mode::Clip`, `Mode::Wrap`, `Mode::Drop`).
    pub fn mode(self, mode: Mode<T>) -> Self {
        Updated { mode, ..self }
    }

    /// Pairs the leading `batch` axes, as [`AtMut::batch`] does.
    pub fn batch(self, batch: usize) -> Self {
        Updated { batch, ..self }
    }

    /// The array with `array[index] = value`.
    pub fn set<'v>(mut self, value: impl IntoValue<'v, T>) -> Result<Array<T, D>, IndexError>
    where
        T: 'v,
    {
        crate::batched::set_batched(&mut self.array, self.index, self.batch, value, self.mode)?;
        Ok(self.array)
    }

    /// The array with the selection combined with `value` by `op`.
    pub fn update<'v>(mut self, op: Op, value: impl IntoValue<'v, T>) -> Result<Array<T, D>, IndexError>
    where
        T: Arith + 'v,
    {
        crate::batched::update_batched(&mut self.array, self.index, self.batch, op, value, self.mode)?;
        Ok(self.array)
    }

    /// The array with each selected element `e` replaced by `f(e)`.
    pub fn apply(mut self, f: impl FnMut(T) -> T) -> Result<Array<T, D>, IndexError> {
        crate::batched::apply_batched(&mut self.array, self.index, self.batch, f, self.mode)?;
        Ok(self.array)
    }

    op_methods!(Array<T, D>);
}
