//! The run-time API: method syntax over the macros' entry points, for
//! indices built at run time (like PyTorch's C++ `x.index({Slice(), 0})`).
//! An index is one element, a tuple of elements, or a list of
//! [`IndexElem`]s (see [`IntoIndexList`]); where its elements' types are
//! known, a read's result has a static rank, as with the macros.
//!
//! ```
//! use ndarray::{array, Array1, Array2, ArrayView1};
//! use tensor_core::{ix, IndexExt, IndexMutExt, IntoUpdated, Mode};
//!
//! let mut x = Array2::<f64>::zeros((3, 4));
//! x.at_mut((.., ix(1..4).step_by(2))).set(1.0)?;          // x[:, 1:4:2] = 1
//! x.at_mut(([0, 0], 0)).add(5.0)?;                         // np.add.at(x, ([0, 0], 0), 5)
//! let row: ArrayView1<f64> = x.at((0, ..)).get()?;         // a view, of static rank
//! assert_eq!(row, array![10.0, 1.0, 0.0, 1.0]);
//! let picked: Array1<f64> = x.at(([2, 0], 3)).get()?;      // advanced: an owned array
//! assert_eq!(picked, array![1.0, 1.0]);
//! let y = (&x).updated(-1).set(9.0)?;                      // JAX: y = x.at[-1].set(9)
//! assert_eq!(y.row(2), array![9.0, 9.0, 9.0, 9.0]);
//! x.at_mut([7, 0]).mode(Mode::Drop).add(1.0)?;             // JAX: mode='drop'
//! assert_eq!(x.at(&[ix(0), ix(0)][..]).get()?.into_dimensionality()?, ndarray::arr0(11.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ndarray::{ArcArray, Array, ArrayBase, ArrayView, ArrayViewMut, CowArray, Data, DataMut, Dimension};

use crate::backend::IntoUpdatable;
use crate::element::{Arith, Op, Ordered};
use crate::entry;
use crate::error::{IndexError, SetError};
use crate::index::{CrossArgs, IndexElem, IntoIndexElem, RangeSlice};
use crate::memory;
use crate::mode::{AnyMode, Mode, ReadMode};
use crate::rank::{FitsIn, Holds, Rank};
use crate::target::{Target, TargetMut};
use crate::typed::{Axes, Batch, BatchAxes, FilledRead, IndexList, IndexedBy, IntoIndexList, Read};
use crate::value::IntoValue;

/// Converts anything that can stand between the brackets into an
/// [`IndexElem`], for a list built at run time: `ix(0)`, `ix(..)`,
/// `ix(1..4)`, `ix(&idx)`, `ix(&mask)`.
#[must_use]
pub fn ix<'a>(elem: impl IntoIndexElem<'a>) -> IndexElem<'a> {
    elem.into_index_elem()
}

/// NumPy's `np.ix_` for the method syntax: an open mesh of one to six
/// one-dimensional integer or boolean arrays (see [`CrossIndex`]), as a
/// tuple of index elements, one per argument, each the argument viewed
/// with length-1 axes everywhere but its own (no copy for a borrowed
/// integer array; a mask stands for its true positions). Indexing with it
/// selects the cross product: a read of `x.at(ix_((&rows, &cols)))` has
/// shape `(rows.len(), cols.len(), ..)` and a static rank. Its elements
/// stand beside others when taken apart: `let (r, c) = ix_((&rows, &cols));
/// x.at((0, r, c))`.
///
/// ```
/// use ndarray::{array, Array2};
/// use tensor_core::{ix_, IndexExt, IndexMutExt};
///
/// let mut x = Array2::from_shape_fn((3, 4), |(i, j)| 10 * i + j);
/// let (rows, cols) = (array![2usize, 0], [true, false, false, true]);
/// // x[np.ix_([2, 0], [True, False, False, True])]
/// let picked: Array2<usize> = x.at(ix_((&rows, &cols))).get()?;
/// assert_eq!(picked, array![[20, 23], [0, 3]]);
/// // x[np.ix_([2, 0], [True, False, False, True])] += 100
/// x.at_mut(ix_((&rows, &cols))).add(100)?;
/// assert_eq!(x.row(0), array![100, 1, 2, 103]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
///
/// [`CrossIndex`]: crate::index::CrossIndex
#[must_use]
pub fn ix_<'a, A: CrossArgs<'a>>(args: A) -> A::Mesh {
    args.mesh()
}

impl IndexElem<'_> {
    /// An ndarray-style range with a step: `ix(1..8).step_by(-2)` is `s![1..8;-2]`.
    ///
    /// # Panics
    ///
    /// When `self` is not a range.
    #[must_use]
    #[track_caller]
    pub fn step_by(self, step: isize) -> Self {
        match self {
            IndexElem::Range(range) => IndexElem::Range(RangeSlice { step, ..range }),
            other => panic!("step_by applies to ranges, not to `{other}`"),
        }
    }
}

/// The rank of the region `L` selects from a target of rank `D`.
type Region<'i, D, L> = <D as IndexedBy<'i, L>>::Rank;

/// The read method on every ndarray: `x.at(index)`.
pub trait IndexExt {
    /// The element type.
    type Elem;
    /// The rank.
    type Dim: Rank;

    /// Selects `self[index]` for reading; see [`IntoIndexList`] for what an
    /// index may be.
    fn at<'i, I: IntoIndexList<'i>>(&self, index: I) -> At<'_, Self, I::List>;
}

impl<A, S: Data<Elem = A>, D: Rank> IndexExt for ArrayBase<S, D> {
    type Elem = A;
    type Dim = D;

    fn at<'i, I: IntoIndexList<'i>>(&self, index: I) -> At<'_, Self, I::List> {
        At {
            target: self,
            list: index.into_index_list(),
            mode: ReadMode::Error,
        }
    }
}

/// The update method on every writable ndarray (`Array`, `ArrayViewMut`,
/// `ArcArray`, `&mut Array` through auto-deref): `x.at_mut(index)`.
pub trait IndexMutExt {
    /// Selects `self[index]` for an update in place; see [`IntoIndexList`]
    /// for what an index may be.
    fn at_mut<'i, I: IntoIndexList<'i>>(&mut self, index: I) -> AtMut<'_, Self, I::List>;
}

impl<A, S: DataMut<Elem = A>, D: Rank> IndexMutExt for ArrayBase<S, D>
where
    Self: TargetMut,
{
    fn at_mut<'i, I: IntoIndexList<'i>>(&mut self, index: I) -> AtMut<'_, Self, I::List> {
        AtMut {
            target: self,
            list: index.into_index_list(),
            mode: Mode::Error,
        }
    }
}

/// A selection to read, made by [`IndexExt::at`]: `.get()` reads it.
#[must_use = "a selection reads nothing until `.get()`"]
pub struct At<'s, X: ?Sized, L> {
    target: &'s X,
    list: L,
    mode: ReadMode,
}

/// A selection to read with JAX's `fill` mode, made by [`At::fill`].
#[must_use = "a selection reads nothing until `.get()`"]
pub struct AtFilled<'s, X: Target + ?Sized, L> {
    target: &'s X,
    list: L,
    fill: X::Elem,
}

impl<'s, X: Target + ?Sized, L> At<'s, X, L> {
    /// Sets what an out-of-bounds integer index does (`ReadMode::Clip`,
    /// `ReadMode::Wrap`; `ReadMode::Error` by default).
    pub fn mode(self, mode: ReadMode) -> Self {
        At { mode, ..self }
    }

    /// Reads out-of-bounds positions as `value` (JAX's `mode='fill'`): the
    /// result is then always gathered, even for a basic index. Fill is a
    /// mode of its own: it replaces a mode set by [`mode`](Self::mode).
    pub fn fill(self, value: X::Elem) -> AtFilled<'s, X, L> {
        AtFilled {
            target: self.target,
            list: self.list,
            fill: value,
        }
    }

    /// Pairs the leading `K` axes of the target and of every index array
    /// (`; batch = K`): each batch position reads its own `x[b]`, and the
    /// reads are stacked.
    pub fn batch<const K: usize>(self) -> At<'s, X, Batch<<Axes<K> as BatchAxes>::Rank, L, K>>
    where
        Axes<K>: BatchAxes,
    {
        At {
            target: self.target,
            list: crate::typed::batch(self.list),
            mode: self.mode,
        }
    }

    /// The selected elements: a view for a basic index, an owned array for
    /// an advanced one, the element itself for integers alone (on a target
    /// of static rank), of the rank the index leaves; see [`Read`].
    pub fn get<'i>(self) -> Result<Read<'s, 'i, X::Elem, X::Dim, L>, IndexError>
    where
        X::Elem: Clone,
        L: IndexList<'i>,
        X::Dim: IndexedBy<'i, L>,
    {
        entry::read(self.target, self.list, self.mode.into())
    }

    /// The selected elements written over `out`, which has the result's
    /// shape (NumPy's `take(.., out=out)`): no new array. On error, `out`
    /// is unchanged.
    ///
    /// ```
    /// use ndarray::{array, Array1};
    /// use tensor_core::IndexExt;
    ///
    /// let x = array![10, 20, 30];
    /// let mut out = Array1::zeros(2);
    /// x.at([2, 2]).get_into(&mut out)?;
    /// assert_eq!(out, array![30, 30]);
    /// assert!(x.at([2, 0, 1]).get_into(&mut out).is_err());
    /// # Ok::<(), tensor_core::IndexError>(())
    /// ```
    pub fn get_into<'i, O>(self, out: &mut O) -> Result<(), IndexError>
    where
        X::Elem: Clone,
        L: IndexList<'i>,
        X::Dim: IndexedBy<'i, L>,
        O: TargetMut<Elem = X::Elem> + ?Sized,
        O::Dim: Holds<Region<'i, X::Dim, L>>,
    {
        entry::read_into(self.target, self.list, self.mode.into(), out)
    }
}

impl<'s, X: Target + ?Sized, L> AtFilled<'s, X, L> {
    /// The selected elements, out-of-bounds positions read as the fill
    /// value: an owned array (or the element, for integers alone on a
    /// target of static rank).
    pub fn get<'i>(self) -> Result<FilledRead<'s, 'i, X::Elem, X::Dim, L>, IndexError>
    where
        X::Elem: Clone,
        L: IndexList<'i>,
        X::Dim: IndexedBy<'i, L>,
    {
        entry::read_filled(self.target, self.list, self.fill)
    }

    /// The selected elements written over `out`, as [`At::get_into`].
    pub fn get_into<'i, O>(self, out: &mut O) -> Result<(), IndexError>
    where
        X::Elem: Clone,
        L: IndexList<'i>,
        X::Dim: IndexedBy<'i, L>,
        O: TargetMut<Elem = X::Elem> + ?Sized,
        O::Dim: Holds<Region<'i, X::Dim, L>>,
    {
        entry::read_into(self.target, self.list, AnyMode::Fill(self.fill), out)
    }
}

/// A selection to update in place, made by [`IndexMutExt::at_mut`]: `.set`,
/// `.add` and the others write it.
#[must_use = "a selection writes nothing until `.set(..)`, `.add(..)` or another update"]
pub struct AtMut<'s, X: ?Sized, L> {
    target: &'s mut X,
    list: L,
    mode: Mode,
}

/// Copies (or takes) an array for a copy-and-update (JAX's `x.at[i].set(v)`).
pub trait IntoUpdated<T, D> {
    /// The array to update: the same buffer when `self` owns it uniquely, a copy otherwise.
    ///
    /// # Panics
    ///
    /// When memory cannot hold the copy (of a stride-0 view, say, which
    /// shows far more elements than it has), as `try_set!` reports
    /// [`IndexError::TooLarge`] with no array.
    fn into_owned_array(self) -> Array<T, D>;

    /// Selects `index` of the (copied or taken) array for an update that
    /// returns it; see [`IntoIndexList`] for what an index may be.
    fn updated<'i, I: IntoIndexList<'i>>(self, index: I) -> Updated<T, D, I::List>
    where
        Self: Sized,
    {
        Updated {
            array: self.into_owned_array(),
            list: index.into_index_list(),
            mode: Mode::Error,
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
        // Its own buffer when no other owner shares it; else a copy checked
        // as every copy is (ndarray's `into_owned` would abort where memory
        // cannot hold it).
        match self.try_into_owned_nocopy() {
            Ok(unique) => unique,
            Err(shared) => memory::copy_unwrap(shared.view()),
        }
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for CowArray<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        match self.is_view() {
            true => memory::copy_unwrap(self.view()),
            false => self.into_owned(),
        }
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for ArrayViewMut<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        memory::copy_unwrap(self.view())
    }
}

impl<T: Clone, D: Dimension> IntoUpdated<T, D> for ArrayView<'_, T, D> {
    fn into_owned_array(self) -> Array<T, D> {
        memory::copy_unwrap(self)
    }
}

impl<X: Target + ?Sized> IntoUpdated<X::Elem, X::Dim> for &X
where
    X::Elem: Clone,
{
    fn into_owned_array(self) -> Array<X::Elem, X::Dim> {
        self.into_updatable_unwrap()
    }
}

/// A selection of an owned array whose update returns the array, made by
/// [`IntoUpdated::updated`]. On an error the array comes back, unchanged,
/// in the [`SetError`], as `try_set!` gives it.
#[must_use = "a selection writes nothing until `.set(..)`, `.add(..)` or another update"]
pub struct Updated<T, D, L> {
    array: Array<T, D>,
    list: L,
    mode: Mode,
}

/// What an [`Updated`] update returns: the updated array, or the error with
/// the array, unchanged.
pub type UpdatedResult<T, D> = Result<Array<T, D>, SetError<Array<T, D>>>;

/// `add`, `sub`, `mul`, `div`, `pow`, `min`, `max` over a type's `update`.
macro_rules! op_methods {
    ($out:ty) => {
        /// `+=` (`np.add.at`): every occurrence applies, in index order.
        // JAX's `.at[].add()` names, on purpose: these are not `std::ops`.
        #[allow(clippy::should_implement_trait)]
        pub fn add<'i, 'v, V>(self, value: V) -> $out
        where
            T: Arith + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Add, value)
        }
        /// `-=` (`np.subtract.at`).
        #[allow(clippy::should_implement_trait)]
        pub fn sub<'i, 'v, V>(self, value: V) -> $out
        where
            T: Arith + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Sub, value)
        }
        /// `*=` (`np.multiply.at`).
        #[allow(clippy::should_implement_trait)]
        pub fn mul<'i, 'v, V>(self, value: V) -> $out
        where
            T: Arith + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Mul, value)
        }
        /// `/=` (`np.divide.at`); integer division by zero is an error.
        #[allow(clippy::should_implement_trait)]
        pub fn div<'i, 'v, V>(self, value: V) -> $out
        where
            T: Arith + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Div, value)
        }
        /// `np.power.at`.
        pub fn pow<'i, 'v, V>(self, value: V) -> $out
        where
            T: Arith + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Pow, value)
        }
        /// `np.minimum.at` (NaN propagates). Element types with an order only
        /// ([`Ordered`]: not complex numbers).
        pub fn min<'i, 'v, V>(self, value: V) -> $out
        where
            T: Ordered + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Min, value)
        }
        /// `np.maximum.at` (NaN propagates). Element types with an order only
        /// ([`Ordered`]: not complex numbers).
        pub fn max<'i, 'v, V>(self, value: V) -> $out
        where
            T: Ordered + 'v,
            L: IndexList<'i>,
            D: IndexedBy<'i, L>,
            V: IntoValue<'v, T>,
            V::Dim: FitsIn<Region<'i, D, L>>,
        {
            self.update(Op::Max, value)
        }
    };
}

impl<'s, T: Clone, D: Rank, X: TargetMut<Elem = T, Dim = D> + ?Sized, L> AtMut<'s, X, L> {
    /// Sets what an out-of-bounds integer index does (`Mode::Clip`,
    /// `Mode::Wrap`, `Mode::Drop`; `Mode::Error` by default).
    pub fn mode(self, mode: Mode) -> Self {
        AtMut { mode, ..self }
    }

    /// Pairs the leading `K` axes of the target, of every index array and
    /// mask, and of an array value (`; batch = K`): each batch position
    /// updates its own `x[b]`.
    pub fn batch<const K: usize>(self) -> AtMut<'s, X, Batch<<Axes<K> as BatchAxes>::Rank, L, K>>
    where
        Axes<K>: BatchAxes,
    {
        AtMut {
            target: self.target,
            list: crate::typed::batch(self.list),
            mode: self.mode,
        }
    }

    /// `x[index] = value`; with duplicates the last occurrence wins.
    pub fn set<'i, 'v, V>(self, value: V) -> Result<(), IndexError>
    where
        T: 'v,
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
        V: IntoValue<'v, T>,
        V::Dim: FitsIn<Region<'i, D, L>>,
    {
        entry::set(self.target, self.list, value, self.mode.into())
    }

    /// Combines the selection with `value` by `op`, every occurrence in
    /// index order.
    pub fn update<'i, 'v, V>(self, op: Op, value: V) -> Result<(), IndexError>
    where
        T: Arith + 'v,
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
        V: IntoValue<'v, T>,
        V::Dim: FitsIn<Region<'i, D, L>>,
    {
        entry::update(self.target, self.list, op, value, self.mode.into())
    }

    /// Replaces each selected element `e` by `f(e)`, once per occurrence,
    /// in index order (JAX's `.at[].apply`).
    pub fn apply<'i>(self, f: impl FnMut(T) -> T) -> Result<(), IndexError>
    where
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
    {
        entry::apply(self.target, self.list, f, self.mode.into())
    }

    op_methods!(Result<(), IndexError>);
}

impl<T: Clone, D: Rank, L> Updated<T, D, L> {
    /// Sets what an out-of-bounds integer index does (`Mode::Clip`,
    /// `Mode::Wrap`, `Mode::Drop`; `Mode::Error` by default).
    pub fn mode(self, mode: Mode) -> Self {
        Updated { mode, ..self }
    }

    /// Pairs the leading `K` axes, as [`AtMut::batch`] does.
    pub fn batch<const K: usize>(self) -> Updated<T, D, Batch<<Axes<K> as BatchAxes>::Rank, L, K>>
    where
        Axes<K>: BatchAxes,
    {
        Updated {
            array: self.array,
            list: crate::typed::batch(self.list),
            mode: self.mode,
        }
    }

    /// The array with `array[index] = value`; on an error, the error and
    /// the array, unchanged.
    pub fn set<'i, 'v, V>(mut self, value: V) -> UpdatedResult<T, D>
    where
        T: 'v,
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
        V: IntoValue<'v, T>,
        V::Dim: FitsIn<Region<'i, D, L>>,
    {
        let done = entry::set(&mut self.array, self.list, value, self.mode.into());
        returned(self.array, done)
    }

    /// The array with the selection combined with `value` by `op`; on an
    /// error, the error and the array, unchanged.
    pub fn update<'i, 'v, V>(mut self, op: Op, value: V) -> UpdatedResult<T, D>
    where
        T: Arith + 'v,
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
        V: IntoValue<'v, T>,
        V::Dim: FitsIn<Region<'i, D, L>>,
    {
        let done = entry::update(&mut self.array, self.list, op, value, self.mode.into());
        returned(self.array, done)
    }

    /// The array with each selected element `e` replaced by `f(e)`; on an
    /// error, the error and the array, unchanged.
    pub fn apply<'i>(mut self, f: impl FnMut(T) -> T) -> UpdatedResult<T, D>
    where
        L: IndexList<'i>,
        D: IndexedBy<'i, L>,
    {
        let done = entry::apply(&mut self.array, self.list, f, self.mode.into());
        returned(self.array, done)
    }

    op_methods!(UpdatedResult<T, D>);
}

/// The updated array, or the error with the array (unchanged: nothing is
/// written before everything is checked).
fn returned<T, D>(array: Array<T, D>, done: Result<(), IndexError>) -> UpdatedResult<T, D> {
    match done {
        Ok(()) => Ok(array),
        Err(error) => Err(SetError::with_array(error, array)),
    }
}
