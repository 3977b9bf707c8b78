//! The entry points: read, set, accumulate and apply on any ndarray.
//!
//! Each prepares first (`prepare`: the mode, the index, the value's shape
//! and every operand checked), and only then writes (`choose` picks how):
//! on error the target is unchanged.

use ndarray::{
    Array, ArrayBase, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD, CowArray, Data, DataMut, Dimension, IndexLonger, IxDyn,
};

use crate::choose::{self, Few, Rows};
use crate::element::{Arith, Compare, Op};
use crate::error::IndexError;
use crate::exec::basic::{self, Region};
use crate::exec::kernel::{Kernel, SetKernel, with_op};
use crate::exec::{gather, masked};
use crate::index::{BasicList, IndexElem, IndexInt, IndexSlice, Single, with_indices, with_loop_indices};
use crate::memory;
use crate::mode::AnyMode;
use crate::plan::ViewAxis;
use crate::prepare::{self, Access};
use crate::rank::{Kind, Rank, Selection};
use crate::value::{Broadcast, InOrder, IntoValue, Value, Written};

/// Reads `target[index]`: a view when the index is basic, a gathered array
/// when it is advanced (or when mode `fill` met an out-of-bounds integer).
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::get;
/// use tensor_core::{ix, ReadMode};
///
/// let x = array![[1, 2, 3], [4, 5, 6]];
/// let column = get(&x, &[ix(..), ix(-1)], ReadMode::Error)?;
/// assert_eq!(column, array![3, 6].into_dyn());
/// let picked = get(&x, &[ix([1, 0, 1]), ix([0, 0, 2])], ReadMode::Error)?;
/// assert_eq!(picked, array![4, 1, 6].into_dyn());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn get<'a, T, S, D>(
    target: &'a ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    mode: impl Into<AnyMode<T>>,
) -> Result<CowArray<'a, T, IxDyn>, IndexError>
where
    T: Clone,
    S: Data<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    get_view(target.view().into_dyn(), index, mode)
}

/// [`get`] on a view, returning data borrowed for the view's lifetime.
pub fn get_view<'a, T: Clone>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    mode: impl Into<AnyMode<T>>,
) -> Result<CowArray<'a, T, IxDyn>, IndexError> {
    let mode = mode.into();
    select(view, index, mode).map(Selection::into_cow)
}

/// [`get_view`], telling views from gathered arrays.
pub fn select<'a, T: Clone>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    mode: impl Into<AnyMode<T>>,
) -> Result<Selection<'a, T>, IndexError> {
    let mode = mode.into();
    // A basic index narrows the view with no plan built.
    let (mut selected, mut axis) = (view.clone(), 0);
    let narrow = |view_axis| axis = basic::select_axis(&mut selected, axis, view_axis);
    if let Some(result) = prepare::each_view_axis(index, view.shape(), &mode, Access::Read, narrow) {
        return result.map(|_| Selection::View(selected));
    }
    choose::read(view, index, mode)
}

/// Reads `target[index]` into the existing array `out`, which must have the
/// result's shape (NumPy's `np.take(x, idx, axis=0, out=out)`, PyTorch's
/// `index_select(.., out=out)`). A loop that reads the same shape each time
/// reuses one buffer instead of faulting in a new one per read. On error,
/// `out` is unchanged.
///
/// ```
/// use ndarray::{array, Array2};
/// use tensor_core::backend::get_into;
/// use tensor_core::{ix, ReadMode};
///
/// let x = array![[1, 2], [3, 4], [5, 6]];
/// let mut out = Array2::zeros((2, 2));
/// get_into(&x, &[ix([2, 0])], ReadMode::Error, &mut out)?;
/// assert_eq!(out, array![[5, 6], [1, 2]]);
/// assert!(get_into(&x, &[ix([2, 0, 1])], ReadMode::Error, &mut out).is_err());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn get_into<T, S, D, SO, DO>(
    target: &ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    mode: impl Into<AnyMode<T>>,
    out: &mut ArrayBase<SO, DO>,
) -> Result<(), IndexError>
where
    T: Clone,
    S: Data<Elem = T>,
    D: Dimension,
    SO: DataMut<Elem = T>,
    DO: Dimension,
{
    let mode = mode.into();
    choose::read_into(target.view().into_dyn(), index, mode, out.view_mut().into_dyn())
}

/// `target[index]` as the macros read it: of kind `K` in rank `R`. A
/// purely basic read in mode `error` is viewed straight in rank `R` (see
/// [`Region`]; no dynamic rank built).
pub(crate) fn read_as<'a, K: Kind, T: Clone, D: Rank, R: Rank>(
    target: ArrayView<'a, T, D>,
    index: &[IndexElem<'_>],
    mode: AnyMode<T>,
) -> Result<K::Read<'a, T, R>, IndexError> {
    let mut region = Region::new();
    if crate::FAST_PATHS
        && let AnyMode::Error = mode
        && let Some(Ok(_)) = prepare::each_view_axis(index, target.shape(), &mode, Access::Read, |axis| {
            region.push(axis, target.strides())
        })
        && let Some(view) = region.view::<_, _, R>(target.clone())
    {
        return K::view(view);
    }
    select(target.into_dyn(), index, mode).and_then(ranked::<K, _, R>)
}

/// `target[list] = value` for a typed list of integers alone, all in
/// bounds: whether it wrote (see [`prepare::element_at`]).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn set_element<T: Clone, D: Dimension>(target: ArrayViewMut<'_, T, D>, list: &impl BasicList, value: &T) -> bool {
    let Some(at) = prepare::element_at::<D>(list, target.shape()).flatten() else {
        return false;
    };
    *target.index(at) = value.clone();
    true
}

/// `target[list] op= value` as [`set_element`] takes it, where `op` needs
/// no check of its operand.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn update_element<T: Arith, D: Dimension>(target: ArrayViewMut<'_, T, D>, list: &impl BasicList, op: Op, value: &T) -> bool {
    if T::checks_operands(op) {
        return false;
    }
    let Some(at) = prepare::element_at::<D>(list, target.shape()).flatten() else {
        return false;
    };
    let element = target.index(at);
    *element = (*element).combine(op, *value);
    true
}

/// `target[list]` for a typed list of integers alone, as a view of no axes
/// in rank `R`: `Some(None)` when one is out of bounds (see
/// [`prepare::element_at`]); `None` for any other list.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn read_element<'a, T, D: Rank, R: Dimension>(
    target: ArrayView<'a, T, D>,
    list: &impl BasicList,
) -> Option<Option<ArrayView<'a, T, R>>> {
    if R::NDIM != Some(0) {
        return None;
    }
    Some(match prepare::element_at::<D>(list, target.shape())? {
        Some(at) => Some(ndarray::aview0(target.index(at)).into_dimensionality().ok()?),
        None => None,
    })
}

/// `target[list] = value` for a typed list in mode `error` and a scalar
/// value, or an array of the region's own shape, written in place (see
/// [`choose::small_region_in_place`]): whether it wrote (not for other
/// values or indices, nor for an index that fails: [`set`] takes those, and
/// names the error).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn set_basic<T: Clone, D: Dimension>(target: ArrayViewMut<'_, T, D>, list: &impl BasicList, value: Written<'_, T>) -> bool {
    match value {
        Written::Scalar(scalar) => choose::small_region_in_place(
            target,
            |shape, strides, region| basic_region(list, shape, strides, region),
            |element| *element = scalar.clone(),
        ),
        Written::Array { shape, elements } => basic_from_array(target, list, shape, elements, |element, value| *element = value.clone()),
    }
}

/// [`set_basic`] and [`update_basic`] for an array value of the region's
/// own shape, `write` given each element and its value. A call of its own:
/// inlined, it would lengthen the scalar's path, the common small call.
#[inline(never)]
fn basic_from_array<T, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    list: &impl BasicList,
    shape: &[usize],
    elements: &[T],
    write: impl FnMut(&mut T, &T),
) -> bool {
    choose::small_region_from(
        target,
        |shape, strides, region| basic_region(list, shape, strides, region),
        shape,
        elements,
        write,
    )
}

/// `target[list] op= value` for a typed list in mode `error`, a scalar or an
/// array of the region's shape, and an operation whose operands need no
/// check, written in place: whether it wrote, as [`set_basic`] tells it,
/// for [`update`] to take the rest.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn update_basic<T: Arith, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    list: &impl BasicList,
    op: Op,
    value: Written<'_, T>,
) -> bool {
    if T::checks_operands(op) {
        return false;
    }
    // A kernel per operation, each lane a loop of its own: `combine` would
    // match the operation at every element, and no loop could be
    // vectorized (docs/performance.md, "Small-update paths").
    match value {
        Written::Scalar(scalar) => with_op!(op, kernel => {
            let (mut kernel, scalar) = (kernel, *scalar);
            choose::small_region_in_place(
                target,
                |shape, strides, region| basic_region(list, shape, strides, region),
                |element| kernel.apply(element, &scalar),
            )
        }),
        Written::Array { shape, elements } => with_op!(op, kernel => {
            let mut kernel = kernel;
            basic_from_array(target, list, shape, elements, |element, value| kernel.apply(element, value))
        }),
    }
}

/// A typed list of basic elements read in mode `error`: the view made
/// straight in rank `R` from the target's own layout (see [`Region`]), with
/// no index list built; `None` when an element is not basic, the index
/// fails (the general path names the error), or the view does not fit
/// inline, for [`read_as`] to take.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn read_basic<'a, T, D: Rank, R: Dimension>(target: ArrayView<'a, T, D>, list: &impl BasicList) -> Option<ArrayView<'a, T, R>> {
    let mut region = Region::new();
    basic_region(list, target.shape(), target.strides(), &mut region)?;
    region.view(target)
}

/// Hands `region` the view axes of a typed list of basic elements in mode
/// `error` on a target of `shape` and `strides`, as
/// [`prepare::each_basic_view_axis`] does. A row (one integer then whole
/// axes, see [`prepare::row_at`]) is pushed straight, and one out of
/// bounds left to the general path without a walk: a small row's read or
/// write folds to a few instructions, as `row(i)` does. `None` when an
/// element is not basic or an index fails.
#[cfg_attr(not(unoptimized), inline(always))]
fn basic_region(list: &impl BasicList, shape: &[usize], strides: &[isize], region: &mut Region) -> Option<usize> {
    if let Some(row) = prepare::row_at(list, shape) {
        region.push(ViewAxis::Select(row?), strides);
        return Some(1);
    }
    prepare::each_basic_view_axis(list, shape, |axis| region.push(axis, strides))
}

/// The mutable view of a basic `index` (integers, slices, `...`, new
/// axes): `&mut target[index]`. An integer out of bounds is an error, as in
/// a read.
pub(crate) fn view_mut<'a, T>(target: ArrayViewMutD<'a, T>, index: &[IndexElem<'_>]) -> Result<ArrayViewMutD<'a, T>, IndexError> {
    let mut axes = Vec::with_capacity(index.len());
    view_axes(index, target.shape(), &AnyMode::<T>::Error, &mut |axis| axes.push(axis)).expect("the index's type says it is basic")?;
    Ok(basic::select(target, &axes))
}

/// The view axes of a basic `index` in `mode`, for the in-place paths.
fn view_axes<T>(
    index: &[IndexElem<'_>],
    shape: &[usize],
    mode: &AnyMode<T>,
    visit: &mut dyn FnMut(ViewAxis),
) -> Option<Result<usize, IndexError>> {
    prepare::each_view_axis(index, shape, mode, Access::Update, visit)
}

/// `target[index] op= values` for a typed list of one vector of indices
/// into a contiguous vector, in mode `error`, one value per index or a
/// scalar: checked in the loop that applies them (see
/// [`choose::update_few`]); `None` for any other, for [`update`].
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn update_few<T: Arith, D: Dimension>(
    mut target: ArrayViewMut<'_, T, D>,
    index: IndexSlice<'_>,
    op: Op,
    values: InOrder<'_, T>,
) -> Option<Result<(), IndexError>> {
    if target.ndim() != 1 || T::checks_operands(op) || !values.fits(index.len()) {
        return None;
    }
    let len = target.len();
    let axis = target.as_slice_mut()?;
    // A `match`, not a closure: the closure's captures, borrowed, would
    // put the listed indices in memory. The fallback is called per index
    // type, with the indices in registers (as in `few_result`).
    let few = match choose::update_listed(axis, index, op, values) {
        Some(few) => few,
        None => with_loop_indices!(index, index => choose::update_few(axis, index, op, values)),
    };
    few_result(few, index, len)
}

/// `target[index] = values` as [`update_few`] takes it.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn set_few<T: Clone, D: Dimension>(
    mut target: ArrayViewMut<'_, T, D>,
    index: IndexSlice<'_>,
    values: InOrder<'_, T>,
) -> Option<Result<(), IndexError>> {
    if target.ndim() != 1 || !values.fits(index.len()) {
        return None;
    }
    let len = target.len();
    let axis = target.as_slice_mut()?;
    // A `match`, as in `update_few`.
    let few = match choose::set_listed(axis, index, values) {
        Some(few) => few,
        None => with_loop_indices!(index, index => choose::set_few(axis, index, values)),
    };
    few_result(few, index, len)
}

/// `target[index].apply(f)` as [`update_few`] takes it: `f` is called only
/// once every index is known to be in bounds.
#[inline]
pub(crate) fn apply_few<T: Clone, D: Dimension>(
    mut target: ArrayViewMut<'_, T, D>,
    index: IndexSlice<'_>,
    f: &mut impl FnMut(T) -> T,
) -> Option<Result<(), IndexError>> {
    if target.ndim() != 1 {
        return None;
    }
    let len = target.len();
    let axis = target.as_slice_mut()?;
    let few = with_loop_indices!(index, index => choose::apply_few(axis, index, &mut *f));
    few_result(few, index, len)
}

/// `target[elem] op= values` for a typed list of one advanced element
/// that [`choose::single`] takes (a mask of the target's own shape,
/// `along`, `nd`), on a target laid out in C order, in mode `error`:
/// whether it wrote; `false` for any other, or any index out of bounds,
/// or values that do not fit, for [`update`] to take (and report).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn update_single<T: Arith, D: Dimension>(
    mut target: ArrayViewMut<'_, T, D>,
    elem: Single<'_>,
    op: Op,
    values: InOrder<'_, T>,
) -> bool {
    if T::checks_operands(op) {
        return false;
    }
    if let Single::Mask(mask, mask_shape) = elem {
        return match (target.shape() == mask_shape, target.as_slice_mut()) {
            (true, Some(elements)) => choose::update_masked(elements, mask, op, values),
            _ => false,
        };
    }
    // Borrowed where it was returned: moved out of the `Option`, the rows
    // are copied.
    let rows = Rows::of(elem, target.shape());
    let Some(rows) = &rows else { return false };
    if !choose::fills(elem, target.shape(), &values) {
        return false;
    }
    let Some(elements) = target.as_slice_mut() else { return false };
    choose::update_rows(elements, rows, op, values);
    true
}

/// `target[elem] = values` as [`update_single`] takes it.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn set_single<T: Clone, D: Dimension>(mut target: ArrayViewMut<'_, T, D>, elem: Single<'_>, values: InOrder<'_, T>) -> bool {
    if let Single::Mask(mask, mask_shape) = elem {
        return match (target.shape() == mask_shape, target.as_slice_mut()) {
            (true, Some(elements)) => choose::set_masked(elements, mask, values),
            _ => false,
        };
    }
    let rows = Rows::of(elem, target.shape());
    let Some(rows) = &rows else { return false };
    if !choose::fills(elem, target.shape(), &values) {
        return false;
    }
    let Some(elements) = target.as_slice_mut() else { return false };
    choose::set_rows(elements, rows, values);
    true
}

/// `target[elem]` as [`update_single`] takes it: the elements it selects,
/// in a new array of rank `R`, with no plan built; `None` for any other,
/// for the general path to take (and report).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn read_single<T: Clone, D: Dimension, R: Dimension>(target: ArrayView<'_, T, D>, elem: Single<'_>) -> Option<Array<T, R>> {
    let elements = target.as_slice()?;
    if let Single::Mask(mask, mask_shape) = elem {
        let selected = match target.shape() == mask_shape {
            true => choose::read_masked(elements, mask)?,
            false => return None,
        };
        return Array::from_vec(selected).into_dimensionality().ok();
    }
    let rows = Rows::of(elem, target.shape());
    let rows = rows.as_ref()?;
    let shape = choose::read_shape::<R>(elem, target.shape())?;
    Array::from_shape_vec(shape, choose::read_rows(elements, rows)).ok()
}

/// What a few-index write did, as its caller returns it.
#[cfg_attr(not(unoptimized), inline(always))]
fn few_result(few: Few, index: IndexSlice<'_>, len: usize) -> Option<Result<(), IndexError>> {
    match few {
        Few::Written => Some(Ok(())),
        Few::Declined => None,
        // A call per index type, which takes the indices in registers: a
        // call that takes the whole `IndexSlice` takes it by address, and
        // the listed indices then go through memory.
        Few::OutOfBounds => Some(Err(with_indices!(index, index => prepare::first_out_of_bounds(index, len)))),
    }
}

/// `target[index]` for a typed list of one vector of a few indices, in
/// mode `error`: the rows copied into a new array of rank `R` with no plan
/// built. `None` when they are many or large, or an index is out of
/// bounds, for [`read_as`] to take (and report).
#[inline]
pub(crate) fn read_few<T: Clone, D: Dimension, R: Dimension>(target: ArrayView<'_, T, D>, index: IndexSlice<'_>) -> Option<Array<T, R>> {
    let (&len, row) = target.shape().split_first()?;
    // A result that could not be addressed is the general path's to refuse.
    let mut result = target.raw_dim();
    result[0] = index.len();
    memory::elements(result.slice())?;
    if !choose::few_rows(index.len(), row.iter().product()) {
        return None;
    }
    let mut rows = [0; choose::FEW_ROWS];
    with_indices!(index, index => {
        for (row, &i) in rows.iter_mut().zip(index) {
            *row = if i.in_bounds(len) { i.position(len) } else { return None };
        }
    });
    let gathered = gather::rows(&target, &rows[..index.len()]);
    Some(gathered.into_dimensionality().expect("a vector of indices keeps the target's rank"))
}

/// A read's selection as the macros return it: of kind `K` in rank `R`.
pub(crate) fn ranked<'a, K: Kind, T: Clone + 'a, R: Rank>(selection: Selection<'a, T>) -> Result<K::Read<'a, T, R>, IndexError> {
    const RANKED: &str = "the static rank of a read matches its run-time rank";
    // The rank is right by construction of the static rank rules, which
    // mirror the resolver's.
    match selection {
        Selection::View(view) => K::view(view.into_dimensionality().expect(RANKED)),
        Selection::Owned(array) => Ok(K::gathered(array.into_dimensionality().expect(RANKED))),
    }
}

/// Writes `value` into `target[index]` (NumPy's `x[index] = value`). With
/// duplicate indices the last occurrence in index order wins.
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::set;
/// use tensor_core::{ix, Mode};
///
/// let mut x = array![0.0, 0.0, 0.0, 0.0];
/// set(&mut x, &[ix([3, 1, 3])], &array![1.0, 2.0, 3.0], Mode::Error)?;
/// assert_eq!(x, array![0.0, 2.0, 0.0, 3.0]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn set<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    value: impl IntoValue<'v, T>,
    mode: impl Into<AnyMode<T>>,
) -> Result<(), IndexError>
where
    T: Clone + 'v,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    let value = value.into_value();
    if let Value::Scalar(scalar) = &value
        && choose::small_region_in_place(
            target.view_mut(),
            |shape, strides, region| view_axes(index, shape, &mode, &mut |axis| region.push(axis, strides))?.ok(),
            |element| *element = scalar.clone(),
        )
    {
        return Ok(());
    }
    choose::set(target.view_mut().into_dyn(), index, &mode, &value)
}

/// Combines `target[index]` with `value` by `op`, once per occurrence of each
/// position, in index order (unbuffered, like `np.add.at`).
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::update;
/// use tensor_core::{ix, Mode, Op};
///
/// let mut hist = array![0, 0, 0];
/// update(&mut hist, &[ix([0, 2, 2, 2])], Op::Add, 1, Mode::Error)?;
/// assert_eq!(hist, array![1, 0, 3]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn update<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    op: Op,
    value: impl IntoValue<'v, T>,
    mode: impl Into<AnyMode<T>>,
) -> Result<(), IndexError>
where
    T: Arith,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    let value = value.into_value();
    if let Value::Scalar(scalar) = &value
        && !T::checks_operands(op)
        && with_op!(op, kernel => {
            let mut kernel = kernel;
            choose::small_region_in_place(target.view_mut(), |shape, strides, region| view_axes(index, shape, &mode, &mut |axis| region.push(axis, strides))?.ok(), |element| {
                kernel.apply(element, scalar)
            })
        })
    {
        return Ok(());
    }
    // A vector's own slice: no dynamic shape is built.
    if target.ndim() == 1
        && let Some(axis) = target.as_slice_mut()
        && let Some(result) = with_op!(op, kernel => choose::update_checked_in_loop(axis, index, op, &mode, &value, kernel))
    {
        return result;
    }
    with_op!(op, kernel => choose::update(target.view_mut().into_dyn(), index, op, &mode, &value, kernel))
}

/// Replaces each element of `target[index]` by `f(element)`, once per
/// occurrence, in index order (JAX's `.at[].apply`).
///
/// When `f` panics the target is unchanged: a view's results are computed
/// into scratch before the first write, and the elements an index array
/// selects, updated in place, are logged and put back (the scratch holds
/// one element per selected position).
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::apply;
/// use tensor_core::{ix, Mode};
///
/// let mut x = array![1, 2, 3];
/// apply(&mut x, &[ix([0, 0, 2])], |e| e * 10, Mode::Error)?;
/// assert_eq!(x, array![100, 2, 30]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn apply<T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    f: impl FnMut(T) -> T,
    mode: impl Into<AnyMode<T>>,
) -> Result<(), IndexError>
where
    T: Clone,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    choose::apply(target.view_mut().into_dyn(), index, &mode, f)
}

/// `target[predicate(target)] = value` (the mask sugar): one fused pass,
/// after a counting pass for an array value. `compare` is the predicate as
/// a single comparison, when it is one: a test that can cross threads.
#[inline]
pub(crate) fn set_where<T: Clone, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    (compare, predicate): (Option<(Compare, &T)>, impl FnMut(&T) -> bool),
    value: Value<'_, T>,
) -> Result<(), IndexError> {
    let prepare = |count: &mut dyn FnMut() -> Result<usize, IndexError>| prepare::set_where(&value, count);
    let split = choose::SetWhereSplit::new(compare, target.len());
    write_where(target, predicate, prepare, SetKernel::new(), split)
}

/// `target[predicate(target)] op= value` (the mask sugar).
#[inline]
pub(crate) fn update_where<T: Arith, D: Dimension>(
    target: ArrayViewMut<'_, T, D>,
    (compare, predicate): (Option<(Compare, &T)>, impl FnMut(&T) -> bool),
    op: Op,
    value: Value<'_, T>,
) -> Result<(), IndexError> {
    let len = target.len();
    with_op!(op, kernel => {
        let prepare = |count: &mut dyn FnMut() -> Result<usize, IndexError>| prepare::update_where(op, &value, count);
        write_where(target, predicate, prepare, kernel, choose::UpdateWhereSplit::new(compare, kernel, len))
    })
}

/// The mask sugar's write: `prepare` (given the count of selected elements,
/// counted when it asks) checks the value, then one pass writes. A large
/// contiguous target is first offered to `split`, which counts and writes
/// on every thread or declines, and which says the build the serial passes
/// run.
#[inline]
fn write_where<'v, T, D, P, K>(
    mut target: ArrayViewMut<'_, T, D>,
    mut predicate: P,
    prepare: impl FnOnce(&mut dyn FnMut() -> Result<usize, IndexError>) -> Result<Broadcast<'v, T>, IndexError>,
    kernel: K,
    mut split: impl choose::WhereSplit<T>,
) -> Result<(), IndexError>
where
    T: 'v,
    D: Dimension,
    P: FnMut(&T) -> bool,
    K: Kernel<T>,
{
    let mut count = || Ok(count_where(&target.view(), &mut predicate, &mut split));
    let values = prepare(&mut count)?;
    match &values {
        Broadcast::Scalar(value) => {
            if split.builds()
                && let Some(elements) = target.as_slice_memory_order_mut()
            {
                if !split.write_scalar(elements, value) {
                    choose::write_slice_where(elements, predicate, value, kernel, split.isa());
                }
                return Ok(());
            }
            masked::write_scalar_where(target, predicate, value, kernel)
        }
        Broadcast::Array { .. } => write_values_where(target, predicate, &values, kernel, &split),
    }
    Ok(())
}

/// The mask sugar's count of selected elements, on every thread when
/// `split` takes it. Out of line, as is the write of an array value: the
/// scalar's pass stays small enough to inline.
#[inline(never)]
fn count_where<T, D: Dimension>(
    view: &ArrayView<'_, T, D>,
    predicate: impl FnMut(&T) -> bool,
    split: &mut impl choose::WhereSplit<T>,
) -> usize {
    match view.as_slice().and_then(|elements| split.count(elements)) {
        Some(count) => count,
        None => masked::count_where(view, predicate, split.isa()),
    }
}

/// The mask sugar's write of an array value, one per selected element:
/// on every thread when `split` counted the elements.
#[inline(never)]
fn write_values_where<T, D: Dimension, K: Kernel<T>>(
    mut target: ArrayViewMut<'_, T, D>,
    predicate: impl FnMut(&T) -> bool,
    values: &Broadcast<'_, T>,
    kernel: K,
    split: &impl choose::WhereSplit<T>,
) {
    if let (Some(elements), Some(InOrder::Slice(values))) = (target.as_slice_mut(), values.in_order())
        && split.write_values(elements, values)
    {
        return;
    }
    masked::write_values_where(target, predicate, values, kernel, split.isa());
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use ndarray::{Array1, array};

    use super::*;
    use crate::ix;

    /// The few-index paths report the first bad index in index order, and
    /// write nothing, whichever of their loops found it.
    #[test]
    fn a_few_indices_name_the_first_bad_one_and_write_nothing() {
        let mut x = array![1.0f32, 2.0, 3.0, 4.0];
        let index = [0i64, 9, -1, -7];
        let values = [1.0f32; 4];
        let expected = IndexError::OutOfBounds { index: 9, axis: 0, len: 4 };
        let update = update_few(x.view_mut(), IndexSlice::I64(&index), Op::Add, InOrder::Slice(&values));
        assert_eq!(update, Some(Err(expected.clone())));
        let set = set_few(x.view_mut(), IndexSlice::I64(&index), InOrder::Scalar(&0.0));
        assert_eq!(set, Some(Err(expected)));
        assert_eq!(x, array![1.0, 2.0, 3.0, 4.0]);
        let good = [3usize, 0, 3];
        assert_eq!(
            update_few(x.view_mut(), IndexSlice::Usize(&good), Op::Add, InOrder::Scalar(&1.0)),
            Some(Ok(()))
        );
        assert_eq!(x, array![2.0, 2.0, 3.0, 6.0]);
    }

    /// `.apply` of a few indices into a vector takes the path that builds
    /// no plan: applied as the loop applies them, duplicates in turn, or
    /// the first bad index reported with `f` never called. A matrix, a
    /// vector that steps, and more than `FEW_INDICES` (64) indices are
    /// declined (`None`, `f` never called, nothing written), for the
    /// general path to take.
    #[test]
    fn a_few_indices_apply_in_place_or_are_declined() {
        let start: Array1<i64> = (0..100).collect();
        let calls = std::cell::Cell::new(0);
        let mut double = |v: i64| {
            calls.set(calls.get() + 1);
            2 * v
        };
        let by_loop = |index: &[i64]| {
            let mut x = start.clone();
            for &i in index {
                let at = if i < 0 { i + 100 } else { i } as usize;
                x[at] *= 2;
            }
            x
        };

        let few: Vec<i64> = (0..64).map(|k| (k * 37) % 100 - 50).collect();
        for index in [&[3i64, -1, 3, 0][..], &few] {
            let mut x = start.clone();
            calls.set(0);
            assert_eq!(apply_few(x.view_mut(), IndexSlice::I64(index), &mut double), Some(Ok(())));
            assert_eq!((x, calls.get()), (by_loop(index), index.len()), "{index:?}");
        }

        let mut x = start.clone();
        calls.set(0);
        let bad = apply_few(x.view_mut(), IndexSlice::I64(&[3, 100]), &mut double);
        let out_of_bounds = IndexError::OutOfBounds {
            index: 100,
            axis: 0,
            len: 100,
        };
        assert_eq!(bad, Some(Err(out_of_bounds)));
        assert_eq!((&x, calls.get()), (&start, 0));

        let many: Vec<i64> = (0..65).collect();
        let mut matrix = start.clone().into_shape_with_order((10, 10)).unwrap();
        let declined = [
            apply_few(x.view_mut(), IndexSlice::I64(&many), &mut double),
            apply_few(x.slice_mut(ndarray::s![..;2]), IndexSlice::I64(&[1]), &mut double),
            apply_few(matrix.view_mut(), IndexSlice::I64(&[1]), &mut double),
        ];
        assert_eq!(declined, [None, None, None]);
        assert_eq!((&x, calls.get()), (&start, 0));
        assert_eq!(matrix, start.into_shape_with_order((10, 10)).unwrap());
    }

    /// `set` asks nothing of the element type but `Clone`: elements that
    /// borrow a local (not `'static`) are written, by every path.
    #[test]
    fn sets_take_elements_that_borrow() {
        let words = String::from("a b c d");
        let parts: Vec<&str> = words.split(' ').collect();
        let mut x = Array1::from(parts.clone());
        set(&mut x, &[ix([3, 0])], &array![parts[1], parts[2]], AnyMode::Error).unwrap();
        assert_eq!(x, array!["c", "b", "c", "b"]);
        set(&mut x, &[ix(1..3)], &array![parts[3], parts[3]], AnyMode::Error).unwrap();
        assert_eq!(x, array!["c", "d", "d", "b"]);
    }

    /// Reads ask nothing but `Clone`, even with the `rayon` feature and
    /// reads large enough to split: elements that may not cross threads
    /// (`Rc`) are gathered on one thread, with the same result.
    #[test]
    fn large_reads_take_elements_that_stay_on_their_thread() {
        // Past the size that splits among threads (smaller under Miri).
        let len = if cfg!(miri) { 1 << 9 } else { 1 << 17 };
        let x: Array1<Rc<u32>> = (0..len as u32).map(Rc::new).collect();
        let index: Array1<usize> = (0..len).rev().collect();
        let gathered = get(&x, &[ix(&index)], AnyMode::Error).unwrap();
        assert!(gathered.iter().zip(index.iter()).all(|(e, &i)| **e == i as u32));
        let mask: Array1<bool> = (0..len).map(|k| k % 3 == 0).collect();
        let masked = get(&x, &[ix(&mask)], AnyMode::Error).unwrap();
        assert!(masked.iter().zip((0..len as u32).step_by(3)).all(|(e, i)| **e == i));
    }

    /// A large `set` of rows streams them past the cache; a row indexed
    /// twice is written twice, in order, and the last occurrence wins.
    #[test]
    fn large_row_sets_with_repeated_rows_keep_the_last() {
        // Rows long enough to stream (shorter under Miri).
        let (rows, width) = (64, if cfg!(miri) { 32 } else { 1024 });
        let mut x = ndarray::Array2::<f32>::zeros((rows, width));
        let index: Array1<usize> = (0..300).map(|k| (k * 7) % rows).collect();
        let values = ndarray::Array2::from_shape_fn((300, width), |(k, j)| (k * width + j) as f32);
        set(&mut x, &[ix(&index)], &values, AnyMode::Error).unwrap();
        let mut expected = ndarray::Array2::<f32>::zeros((rows, width));
        for (k, &row) in index.iter().enumerate() {
            expected.row_mut(row).assign(&values.row(k));
        }
        assert_eq!(x, expected);
    }
}
