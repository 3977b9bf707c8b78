//! The NumPy functions that come with indexing: the positions of the
//! non-zero elements ([`nonzero`], [`argwhere`]), and reads and writes of
//! an array taken as its elements in C order ([`take`], [`put`],
//! [`place`]), whatever its layout (a view, negative strides, Fortran
//! order); writes land in the viewed array.
//!
//! Each checks everything before the first write, so on an error the
//! array is unchanged, bit for bit.
//!
//! Where these differ from the indexing of `x[..]`, as NumPy's do: `take`
//! and `put` in mode `clip` clamp every negative index to 0 (NumPy
//! "disables indexing with negative numbers" there), where
//! `at!(x[idx]; mode = clip)` keeps `-1` as the last element.

use ndarray::{Array, Array1, Array2, ArrayBase, ArrayView, CowArray, Data, Dimension, IxDyn};

use crate::error::IndexError;
use crate::exec::flat;
use crate::index::{IndexArrayInt, IntoCowArray};
use crate::mode::{Mode, ReadMode};
use crate::prepare::flat::{self as checks, FlatMode};
use crate::prepare::too_large;
use crate::target::{Target, TargetMut};
use crate::value::{SameElement, Scalar};

/// Element types with NumPy's truth value, which [`nonzero`] and
/// [`argwhere`] test: `bool` itself, and numbers other than zero (a NaN
/// is non-zero, `-0.0` is zero; a complex number is non-zero when either
/// part is).
///
/// Implement it for your own element type to find its non-zero elements:
///
/// ```
/// use ndarray::array;
/// use tensor_core::argwhere;
/// use tensor_core::numpy::Nonzero;
///
/// #[derive(Clone)]
/// struct Cell(Option<u8>);
///
/// impl Nonzero for Cell {
///     fn is_nonzero(&self) -> bool {
///         self.0.is_some()
///     }
/// }
///
/// let grid = array![[Cell(None), Cell(Some(3))], [Cell(Some(0)), Cell(None)]];
/// // np.argwhere(grid != None)
/// assert_eq!(argwhere(&grid), array![[0, 1], [1, 0]]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no truth value for `nonzero`",
    label = "not a bool or a number",
    note = "`nonzero` and `argwhere` take arrays of bool, integers, floats and complex numbers; implement `Nonzero` for your own element type"
)]
pub trait Nonzero {
    /// Whether the element counts as non-zero (NumPy's `bool(x)`).
    fn is_nonzero(&self) -> bool;
}

impl Nonzero for bool {
    fn is_nonzero(&self) -> bool {
        *self
    }
}

macro_rules! nonzero_numbers {
    ($zero:literal => $($t:ty),*) => {$(
        impl Nonzero for $t {
            #[inline]
            fn is_nonzero(&self) -> bool {
                *self != $zero
            }
        }
    )*};
}
nonzero_numbers!(0 => i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
// `!=` is true of a NaN and false of -0.0, as NumPy counts them.
nonzero_numbers!(0.0 => f32, f64);

impl<F: Nonzero> Nonzero for num_complex::Complex<F> {
    fn is_nonzero(&self) -> bool {
        self.re.is_nonzero() || self.im.is_nonzero()
    }
}

#[cfg(feature = "half")]
impl Nonzero for half::f16 {
    fn is_nonzero(&self) -> bool {
        *self != half::f16::ZERO
    }
}

#[cfg(feature = "half")]
impl Nonzero for half::bf16 {
    fn is_nonzero(&self) -> bool {
        *self != half::bf16::ZERO
    }
}

/// The values [`put`] and [`place`] write: a scalar, or an ndarray of any
/// rank (owned, view or reference, read in C order), a slice, a `Vec` or
/// a fixed-size array, of the target's element type `T` (there are no
/// implicit casts). They are cycled when the positions outnumber them;
/// extra values are left unused.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{put, Mode};
///
/// let mut x = array![0.0, 0.0, 0.0, 0.0];
/// put(&mut x, [0, 1], 9.0, Mode::Error)?;                 // np.put(x, [0, 1], 9.0)
/// put(&mut x, [2, 3], vec![1.0, 2.0], Mode::Error)?;      // np.put(x, [2, 3], [1.0, 2.0])
/// put(&mut x, [1], &array![[5.0, 6.0]], Mode::Error)?;    // np.put(x, [1], [[5.0, 6.0]])
/// assert_eq!(x, array![9.0, 5.0, 1.0, 2.0]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the values of `put` or `place` into an array of `{T}`",
    label = "expected a `{T}`, or an array, slice or `Vec` of `{T}`",
    note = "values are a scalar or an array of the target's element type: there are no implicit casts"
)]
pub trait PutValues<'a, T> {
    /// The values, in C order, as an array of dynamic rank.
    fn into_put_values(self) -> CowArray<'a, T, IxDyn>;
}

// Not listed in the error: its notes say what the values may be.
#[diagnostic::do_not_recommend]
impl<'a, T: Scalar> PutValues<'a, T> for T {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(ndarray::arr0(self).into_dyn())
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: Scalar> PutValues<'a, T> for &T {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(ndarray::arr0(self.clone()).into_dyn())
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, S: Data<Elem = A>, D: Dimension> PutValues<'a, T> for &'a ArrayBase<S, D> {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(A::same_view(self.view().into_dyn()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, D: Dimension> PutValues<'a, T> for Array<A, D> {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(A::same_array(self.into_dyn()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, D: Dimension> PutValues<'a, T> for ArrayView<'a, A, D> {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(A::same_view(self.into_dyn()))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>> PutValues<'a, T> for &'a [A] {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        CowArray::from(ndarray::aview1(A::same_slice(self)).into_dyn())
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>> PutValues<'a, T> for &'a Vec<A> {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        self.as_slice().into_put_values()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, const N: usize> PutValues<'a, T> for &'a [A; N] {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        self.as_slice().into_put_values()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>> PutValues<'a, T> for Vec<A> {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        Array1::from(self).into_put_values()
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, A: SameElement<T>, const N: usize> PutValues<'a, T> for [A; N] {
    fn into_put_values(self) -> CowArray<'a, T, IxDyn> {
        Vec::from(self).into_put_values()
    }
}

/// NumPy's `np.nonzero(x)`: the coordinates of the non-zero (or `true`)
/// elements, one array per axis, in C order of the elements, whatever the
/// layout of `x`. What is non-zero is [`Nonzero`]'s: a NaN is, `-0.0` is
/// not.
///
/// A zero-dimensional `x` has no axis, so this gives no array (an empty
/// `Vec`), where NumPy 2 refuses it; [`argwhere`] answers it as NumPy
/// does.
///
/// ```
/// use ndarray::{array, Array1};
/// use tensor_core::nonzero;
///
/// let x = array![[3, 0, 0], [0, 4, 0], [5, 6, 0]];
/// // rows, cols = np.nonzero(x)
/// let coordinates: Vec<Array1<usize>> = nonzero(&x);
/// assert_eq!(coordinates, [array![0, 1, 2, 2], array![0, 1, 0, 1]]);
/// // np.nonzero(np.array([0.0, -0.0, np.nan, 1.0]))
/// assert_eq!(nonzero(&array![0.0, -0.0, f64::NAN, 1.0]), [array![2, 3]]);
/// assert!(nonzero(&ndarray::arr0(true)).is_empty());
/// ```
///
/// # Panics
///
/// When the coordinates cannot be allocated (as ndarray's own
/// allocations do): of a boolean array of billions of true elements.
#[must_use]
#[track_caller]
pub fn nonzero<X>(x: &X) -> Vec<Array1<usize>>
where
    X: Target + ?Sized,
    X::Elem: Nonzero,
{
    let view = x.target_view().into_dyn();
    if view.ndim() == 0 {
        return Vec::new();
    }
    let count = flat::count(&view, Nonzero::is_nonzero);
    let mut axes: Vec<Vec<usize>> = (0..view.ndim()).map(|_| room_for(count, count)).collect();
    flat::each_selected(&view, Nonzero::is_nonzero, |at| {
        for (axis, &coordinate) in axes.iter_mut().zip(at) {
            axis.push(coordinate);
        }
    });
    axes.into_iter().map(Array1::from).collect()
}

/// NumPy's `np.argwhere(x)`: the coordinates of the non-zero (or `true`)
/// elements, one row each, in C order: of shape `(count, x.ndim())`. A
/// zero-dimensional `x` gives `(1, 0)` or `(0, 0)`, as in NumPy.
///
/// ```
/// use ndarray::array;
/// use tensor_core::argwhere;
///
/// let x = array![[true, false], [false, true], [true, true]];
/// // np.argwhere(x)
/// assert_eq!(argwhere(&x), array![[0, 0], [1, 1], [2, 0], [2, 1]]);
/// // np.argwhere(np.array(7)).shape
/// assert_eq!(argwhere(&ndarray::arr0(7)).shape(), [1, 0]);
/// ```
///
/// # Panics
///
/// When the coordinates cannot be allocated, as [`nonzero`].
#[must_use]
#[track_caller]
pub fn argwhere<X>(x: &X) -> Array2<usize>
where
    X: Target + ?Sized,
    X::Elem: Nonzero,
{
    let view = x.target_view().into_dyn();
    let (count, ndim) = (flat::count(&view, Nonzero::is_nonzero), view.ndim());
    let len = count.checked_mul(ndim).unwrap_or_else(|| no_room(count));
    let mut rows = room_for(len, count);
    flat::each_selected(&view, Nonzero::is_nonzero, |at| rows.extend_from_slice(at));
    Array2::from_shape_vec((count, ndim), rows).expect("one row of ndim coordinates per element")
}

/// Room for `len` coordinates of `count` non-zero elements.
#[track_caller]
fn room_for(len: usize, count: usize) -> Vec<usize> {
    crate::memory::vec(len).unwrap_or_else(|| no_room(count))
}

/// The panic of coordinates that cannot be allocated.
#[cold]
#[track_caller]
fn no_room(count: usize) -> ! {
    panic!("the coordinates of {count} non-zero elements are too large to allocate")
}

/// What NumPy's `mode=` of `take` is.
fn read_mode(mode: ReadMode) -> FlatMode {
    match mode {
        ReadMode::Error => FlatMode::Raise,
        ReadMode::Clip => FlatMode::Clip,
        ReadMode::Wrap => FlatMode::Wrap,
    }
}

/// What NumPy's `mode=` of `put` is, and `drop`.
fn write_mode(mode: Mode) -> FlatMode {
    match mode {
        Mode::Error => FlatMode::Raise,
        Mode::Clip => FlatMode::Clip,
        Mode::Wrap => FlatMode::Wrap,
        Mode::Drop => FlatMode::Drop,
    }
}

/// NumPy's `np.take(x, indices, mode=mode)` with no axis: the elements of
/// `x` taken in C order (whatever its layout) at `indices`, an integer
/// array in any container an index array comes in (an ndarray of any
/// rank, a `Vec`, a slice, a fixed-size array); the result has the shape
/// and the static rank of `indices`.
///
/// Modes, as NumPy's: `ReadMode::Error` (`raise`): an index in `[-n, n)`,
/// negative from the end, or [`IndexError::OutOfBounds`] of the first bad
/// one (axis 0, the size `n`); `ReadMode::Wrap`: modulo `n`;
/// `ReadMode::Clip`: clamped into `[0, n)`, so that **a negative index
/// reads the first element**, where `at!(x[idx]; mode = clip)` keeps `-1`
/// as the last. An empty `x` with indices is [`IndexError::TakeFromEmpty`]
/// in every mode; an index table or a result too large to allocate (a
/// broadcast index of billions) is [`IndexError::TooLarge`].
///
/// ```
/// use ndarray::array;
/// use tensor_core::{take, ReadMode};
///
/// let x = array![[4, 3], [5, 7], [6, 8]];
/// // np.take(x, [[0, 1], [4, -1]])
/// assert_eq!(take(&x, &array![[0, 1], [4, -1]], ReadMode::Error)?, array![[4, 3], [6, 8]]);
/// // np.take(x.T, [0, 1, 2]): the transpose in its own C order
/// assert_eq!(take(&x.t(), [0, 1, 2], ReadMode::Error)?, array![4, 5, 6]);
/// // np.take(x, [-1, 9], mode='clip'): -1 clamps to 0
/// assert_eq!(take(&x, vec![-1, 9], ReadMode::Clip)?, array![4, 8]);
/// // np.take(x, [-1, 9], mode='wrap')
/// assert_eq!(take(&x, vec![-1, 9], ReadMode::Wrap)?, array![8, 7]);
/// let error = take(&x, [6], ReadMode::Error).unwrap_err();
/// assert_eq!(error.to_string(), "index 6 is out of bounds for axis 0 with size 6");
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn take<'i, X, I>(x: &X, indices: I, mode: ReadMode) -> Result<Array<X::Elem, I::Dim>, IndexError>
where
    X: Target + ?Sized,
    X::Elem: Clone,
    I: IntoCowArray<'i>,
    I::Elem: IndexArrayInt,
{
    let indices = I::Elem::int_array(indices.into_cow_array());
    let view = x.target_view().into_dyn();
    let positions = checks::take(&indices, view.len(), read_mode(mode))?;
    let mut out = crate::memory::vec(positions.len()).ok_or_else(|| too_large(indices.shape()))?;
    flat::gather(&view, &positions, &mut out);
    let shape = I::Dim::from_dimension(&IxDyn(indices.shape())).expect("the index's own rank");
    Ok(Array::from_shape_vec(shape, out).expect("one element per index"))
}

/// NumPy's `np.put(x, indices, values, mode=mode)`: writes `values` over
/// the elements of `x` in C order (whatever its layout; through a view,
/// into the viewed array) at `indices`, an integer array in any container
/// (see [`take`]), walked in C order. The values (see [`PutValues`]) are
/// cycled when the indices outnumber them (a longer array of values
/// gives its first ones); of two equal indices, the later write stays, as
/// NumPy's loop leaves it.
///
/// Modes, as NumPy's: `Mode::Error` (`raise`), `Mode::Wrap` and
/// `Mode::Clip` as [`take`]'s (a negative index clamps to the first
/// element); and `Mode::Drop`, this crate's: an index outside `[-n, n)` is
/// skipped, with its value. Every index is checked before the first write:
/// on an error `x` is unchanged. An empty `x` with indices is
/// [`IndexError::PutIntoEmpty`] (but in mode `drop`, which skips them all);
/// no values at all write nothing, and check no index, as in NumPy.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{put, IndexError, Mode};
///
/// let mut x = array![[0, 0, 0], [0, 0, 0]];
/// // np.put(x, [0, 4, 5], [7, 8])  (the values cycle)
/// put(&mut x, [0, 4, 5], &[7, 8], Mode::Error)?;
/// assert_eq!(x, array![[7, 0, 0], [0, 8, 7]]);
/// // np.put(x, [-1, 9], 1, mode='clip'): -1 clamps to 0
/// put(&mut x, vec![-1, 9], 1, Mode::Clip)?;
/// assert_eq!(x, array![[1, 0, 0], [0, 8, 1]]);
/// // Out of bounds: nothing written.
/// assert!(matches!(put(&mut x, [0, 6], 5, Mode::Error), Err(IndexError::OutOfBounds { index: 6, .. })));
/// put(&mut x, [0, 6], &array![5, 5], Mode::Drop)?;
/// assert_eq!(x, array![[5, 0, 0], [0, 8, 1]]);
/// # Ok::<(), IndexError>(())
/// ```
pub fn put<'i, 'v, X, I, V>(x: &mut X, indices: I, values: V, mode: Mode) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Clone + 'v,
    I: IntoCowArray<'i>,
    I::Elem: IndexArrayInt,
    V: PutValues<'v, X::Elem>,
{
    let indices = I::Elem::int_array(indices.into_cow_array());
    let values = values.into_put_values();
    let size = x.target_view().len();
    let Some(positions) = checks::put(&indices, size, write_mode(mode), values.len())? else {
        return Ok(());
    };
    flat::scatter(&mut x.target_view_mut().into_dyn(), &positions, values.iter().cycle());
    Ok(())
}

/// NumPy's `np.place(x, mask, values)`: writes `values` over the elements
/// of `x` whose counterpart in `mask` is true, both walked in C order
/// (whatever their layouts; through a view, into the viewed array). The
/// mask is any boolean array (an ndarray, a `Vec`, a slice) of as many
/// elements as `x`, of any shape ([`IndexError::MaskSize`] otherwise: NumPy
/// compares sizes, not shapes). The values (see [`PutValues`]) are cycled;
/// none at all with a true element is [`IndexError::EmptyValues`]. On an
/// error `x` is unchanged.
///
/// ```
/// use ndarray::array;
/// use tensor_core::place;
///
/// let mut x = array![[0, 1, 2], [3, 4, 5]];
/// let mask = x.mapv(|e| e > 2);
/// // np.place(x, x > 2, [44, 55])
/// place(&mut x, &mask, [44, 55])?;
/// assert_eq!(x, array![[0, 1, 2], [44, 55, 44]]);
/// // A mask of another shape but the same size: np.place(x, [True] + [False] * 5, 9)
/// place(&mut x, &[true, false, false, false, false, false], 9)?;
/// assert_eq!(x[[0, 0]], 9);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn place<'m, 'v, X, M, V>(x: &mut X, mask: M, values: V) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Clone + 'v,
    M: IntoCowArray<'m, Elem = bool>,
    V: PutValues<'v, X::Elem>,
{
    let mask = mask.into_cow_array();
    let values = values.into_put_values();
    let size = x.target_view().len();
    checks::place(mask.len(), size, values.len(), || flat::count(&mask.view(), |&selected| selected))?;
    if values.is_empty() {
        // Nothing is selected (checked).
        return Ok(());
    }
    flat::place(&mut x.target_view_mut().into_dyn(), &mask.view(), values.iter().cycle());
    Ok(())
}

#[cfg(test)]
mod tests {
    use ndarray::{Array2, ArrayView2, ShapeBuilder, array, s};

    use super::*;

    /// A target of floats whose bits a write would change: NaNs with
    /// payloads and negative zeros.
    fn target() -> Array2<f64> {
        let odd = [
            f64::from_bits(0x7ff8_0000_0000_0001),
            -0.0,
            1.5,
            f64::from_bits(0xfff0_0000_dead_beef),
            -3.25,
            0.0,
        ];
        Array2::from_shape_vec((2, 3).f(), odd.to_vec()).unwrap()
    }

    fn bits(x: &Array2<f64>) -> Vec<u64> {
        x.iter().map(|e| e.to_bits()).collect()
    }

    #[test]
    fn every_error_leaves_the_target_unchanged_bit_for_bit() {
        let mut x = target();
        let before = bits(&x);
        // The bad index comes last: nothing before it is written.
        assert_eq!(
            put(&mut x, [0, 1, 2, 6], 9.0, Mode::Error),
            Err(IndexError::OutOfBounds { index: 6, axis: 0, len: 6 })
        );
        assert_eq!(
            put(&mut x.slice_mut(s![.., ..;-1]), array![[0, -7]], &[1.0, 2.0], Mode::Error),
            Err(IndexError::OutOfBounds {
                index: -7,
                axis: 0,
                len: 6
            })
        );
        assert_eq!(place(&mut x, &[true; 5], 1.0), Err(IndexError::MaskSize { mask: 5, data: 6 }));
        assert_eq!(
            place(&mut x, [false, true, false, false, false, false], Vec::<f64>::new()),
            Err(IndexError::EmptyValues)
        );
        assert_eq!(bits(&x), before);
        // No values: nothing written, no index checked (NumPy's answer).
        assert_eq!(put(&mut x, [99], Vec::<f64>::new(), Mode::Error), Ok(()));
        assert_eq!(bits(&x), before);
    }

    #[test]
    fn a_huge_broadcast_index_is_an_error_not_a_panic() {
        let one = [3usize];
        let huge = ArrayView2::from_shape((1 << 31, 1 << 31).strides((0, 0)), &one).unwrap();
        let mut x = target();
        let before = bits(&x);
        let too_large = IndexError::TooLarge {
            shape: crate::error::Dims(vec![1 << 31, 1 << 31]),
        };
        assert_eq!(take(&x, &huge, ReadMode::Wrap).unwrap_err(), too_large);
        assert_eq!(put(&mut x, &huge, 1.0, Mode::Error).unwrap_err(), too_large);
        assert_eq!(put(&mut x, huge, &[1.0, 2.0], Mode::Drop).unwrap_err(), too_large);
        assert_eq!(bits(&x), before);
        // An empty array taken at a huge index: NumPy's error, found first.
        let empty = Array2::<f64>::zeros((0, 3));
        assert_eq!(take(&empty, &huge, ReadMode::Clip).unwrap_err(), IndexError::TakeFromEmpty);
        // Empty indices of a huge shape read nothing.
        let none = ArrayView2::from_shape((usize::MAX / 2, 0).strides((0, 0)), &one[..0]).unwrap();
        assert_eq!(take(&x, none, ReadMode::Error).unwrap().shape(), [usize::MAX / 2, 0]);
    }

    #[test]
    fn writes_reach_the_viewed_array_in_its_c_order() {
        let mut x = Array2::<i32>::zeros((3, 4).f());
        {
            let mut view = x.slice_mut(s![..;-1, 1..]);
            put(&mut view, [0, 8], &array![[1], [2]], Mode::Error).unwrap();
            place(&mut view, &array![false, true, false, false, false, false, false, false, true], 5).unwrap();
        }
        // put's 2 at view[2, 2] = x[0, 3], then place's 5 over it.
        assert_eq!(x, array![[0, 0, 0, 5], [0, 0, 0, 0], [0, 1, 5, 0]]);
        assert_eq!(take(&x.t(), [5, 8, 9], ReadMode::Error).unwrap(), array![1, 5, 5]);
        assert_eq!(take(&x.t(), [-3, 11], ReadMode::Error).unwrap(), array![5, 0]);
        assert_eq!(
            take(&x.slice(s![.., ..;-1]), array![[0, 4]], ReadMode::Error).unwrap(),
            array![[5, 0]]
        );
    }

    #[test]
    fn nonzero_counts_nan_and_not_negative_zero() {
        use num_complex::Complex;
        let x = array![[0.0, f64::NAN], [-0.0, 2.0]];
        assert_eq!(nonzero(&x), [array![0, 1], array![1, 1]]);
        assert_eq!(argwhere(&x), array![[0, 1], [1, 1]]);
        let z = array![Complex::new(0.0f32, 0.0), Complex::new(-0.0, 1.0), Complex::new(-0.0, -0.0)];
        assert_eq!(nonzero(&z), [array![1]]);
        assert_eq!(argwhere(&ndarray::arr0(0u8)).shape(), [0, 0]);
        let empty = Array2::<bool>::default((2, 0));
        let none = Array1::<usize>::zeros(0);
        assert_eq!(nonzero(&empty), [none.clone(), none]);
        assert_eq!(argwhere(&empty).shape(), [0, 2]);
    }
}
