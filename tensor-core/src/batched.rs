//! Batched calls on the CPU (`; batch = k`): for every batch position `b`,
//! the call on `x[b]` with `INDEX[b]` and `v[b]`.
//!
//! Every batch is prepared before the first is written, so an error in any
//! batch leaves the target unchanged. Each batch then runs as the plain call
//! on its view of the target would; batch positions are distinct regions of
//! the target, so the order of batches decides nothing, and many batches of
//! plain numbers run one to a task on every thread. An index of basic
//! elements only is one view of the target behind `k` whole axes. With
//! `batch = 0` each function is the plain call.

use ndarray::{ArrayBase, ArrayD, ArrayViewD, ArrayViewMutD, Axis, CowArray, Data, DataMut, Dimension, IxDyn};

use crate::choose::{self, Machine};
use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::with_op;
use crate::index::IndexElem;
use crate::memory;
use crate::mode::AnyMode;
use crate::plan::{Plan, ViewAxis};
use crate::prepare::{self, Batch, Layout, OneIndex};
use crate::rank::Selection;
use crate::value::{IntoValue, Value};

/// Reads `target[index]` with the leading `batch` axes of the target and
/// of every index array paired (TensorFlow's `tf.gather(x, idx,
/// batch_dims=k)`, JAX's `vmap` of `x[idx]`): the reads of every batch
/// position, stacked. A read through a mask is refused, since each batch
/// may select a different number of elements.
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::get_batched;
/// use tensor_core::{ix, ReadMode};
///
/// let x = array![[10, 11, 12], [20, 21, 22]];
/// let idx = array![[2, 0], [1, 1]];
/// // tf.gather(x, idx, batch_dims=1): row b picks idx[b].
/// let picked = get_batched(&x, &[ix(&idx)], 1, ReadMode::Error)?;
/// assert_eq!(picked, array![[12, 10], [21, 21]].into_dyn());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn get_batched<'a, T, S, D>(
    target: &'a ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    batch: usize,
    mode: impl Into<AnyMode<T>>,
) -> Result<CowArray<'a, T, IxDyn>, IndexError>
where
    T: Clone,
    S: Data<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    select_batched(target.view().into_dyn(), index, batch, mode).map(Selection::into_cow)
}

/// [`get_batched`] on a view, telling views (a basic index) from gathered
/// arrays.
pub fn select_batched<'a, T: Clone>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    batch: usize,
    mode: impl Into<AnyMode<T>>,
) -> Result<Selection<'a, T>, IndexError> {
    let mode = mode.into();
    if batch == 0 {
        return crate::api::select(view, index, mode);
    }
    let shape = prepare::batch_read(batch, view.shape(), index, &mode)?;
    // (With no batch position, nothing is indexed: not even an integer
    // that would be out of bounds on an empty axis.)
    if Batch::is_basic(index) && shape.positions().next().is_some() {
        return crate::api::select(view, &Batch::behind_whole_axes(index, batch), mode);
    }
    if let Some(read) = read_as_one(&view, index, &shape, &mode) {
        return Ok(read);
    }
    let mut out = None;
    read_batches(&view, index, &shape, &mode, |out_shape| {
        if Batch::is_basic(index) {
            // No batch position: a basic read is a view, empty here.
            return Ok(ReadInto::View);
        }
        // The result of the batches may be far larger than the target (a
        // broadcast index): memory that cannot be had is an error.
        let len = crate::plan::checked_size(out_shape)?;
        let elements = match first_element(&view, &mode) {
            Some(element) if len > 0 => {
                let mut elements = memory::vec(len).ok_or_else(|| prepare::too_large(out_shape))?;
                elements.resize(len, element);
                elements
            }
            _ => Vec::new(),
        };
        let fresh = out.insert(ArrayD::from_shape_vec(out_shape, elements).expect("a read with no element to copy is empty"));
        Ok(ReadInto::Array(fresh.view_mut()))
    })
    .map(|out_shape| match out {
        Some(array) => Selection::Owned(array),
        None => Selection::View(ArrayViewD::from_shape(out_shape, &[]).expect("no batch position, no element")),
    })
}

/// [`get_batched`] written over the elements of `out`, which must have the
/// result's shape: each batch is read straight into its place in `out`,
/// with no array of the result made. On error, `out` is unchanged.
pub fn get_batched_into<T, S, D, SO, DO>(
    target: &ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    batch: usize,
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
    if batch == 0 {
        return crate::api::get_into(target, index, mode, out);
    }
    let view = target.view().into_dyn();
    let shape = prepare::batch_read(batch, view.shape(), index, &mode)?;
    let mut out = out.view_mut().into_dyn();
    if Batch::is_basic(index) && shape.positions().next().is_some() {
        return choose::read_into(view, &Batch::behind_whole_axes(index, batch), mode, out);
    }
    if let Some(one) = small_batches_as_one(&shape, index, (view.shape(), view.strides()))
        && let Some(arranged) = one.arrange(out.view_mut())
        && choose::read_into(view.clone(), &one.index, mode.clone(), arranged).is_ok()
    {
        return Ok(());
    }
    read_batches(&view, index, &shape, &mode, |out_shape| match out.shape() == out_shape {
        true => Ok(ReadInto::Array(out)),
        false => Err(prepare::output_shape(out.shape(), out_shape)),
    })
    .map(drop)
}

/// Batches that each select at most this many elements run as one index
/// of the whole target ([`Batch::as_one`]): a plan for each batch then
/// costs more than the one index's general table does. Each larger batch
/// keeps a plan of its own, which takes the paths made for its form
/// (docs/performance.md, "Small batches as one index").
const ONE_INDEX_MAX_PER_BATCH: usize = 256;

/// `index` under `batch` as one index of the whole target (of `shape` and
/// `strides`), where [`Batch::as_one`] has one for
/// [`ONE_INDEX_MAX_PER_BATCH`].
fn small_batches_as_one<'i>(batch: &Batch, index: &'i [IndexElem<'_>], (shape, strides): (&[usize], &[isize])) -> Option<OneIndex<'i>> {
    let k = batch.ndim();
    let layout = Layout {
        shape: &shape[k..],
        strides: &strides[k..],
    };
    batch.as_one(index, layout, ONE_INDEX_MAX_PER_BATCH)
}

/// A batched read as one index of the whole target
/// ([`small_batches_as_one`]), when it has one and that read succeeds;
/// `None` otherwise, and the batches are read one by one (which report a
/// batched call's error).
fn read_as_one<'a, T: Clone>(
    view: &ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    batch: &Batch,
    mode: &AnyMode<T>,
) -> Option<Selection<'a, T>> {
    let one = small_batches_as_one(batch, index, (view.shape(), view.strides()))?;
    if one.is_in_order() {
        // The one index's result is the batched result, axis for axis.
        return crate::api::select(view.clone(), &one.index, mode.clone()).ok();
    }
    let out_shape = [batch.shape(), one.read_shape()].concat();
    let len = crate::plan::checked_size(&out_shape).ok()?;
    let mut elements = memory::vec(len)?;
    elements.resize(len, first_element(view, mode)?);
    let mut out = ArrayD::from_shape_vec(out_shape, elements).expect("one element per position");
    let arranged = one.arrange(out.view_mut())?;
    choose::read_into(view.clone(), &one.index, mode.clone(), arranged).ok()?;
    Some(Selection::Owned(out))
}

/// Where [`read_batches`] writes the batches.
enum ReadInto<'o, T> {
    /// Over the elements of this array, of the result's shape.
    Array(ArrayViewMutD<'o, T>),
    /// Nowhere: there is no batch position, and the read is a view.
    View,
}

/// The read of every batch of `batch` (the checked batch axes of `view`
/// and `index`), each prepared before the first is read, then each written
/// into its place in what `out` (given the result's shape, once every
/// batch is prepared) says: the result's shape.
fn read_batches<'o, T: Clone + 'o>(
    view: &ArrayViewD<'_, T>,
    index: &[IndexElem<'_>],
    batch: &Batch,
    mode: &AnyMode<T>,
    out: impl FnOnce(&[usize]) -> Result<ReadInto<'o, T>, IndexError>,
) -> Result<Vec<usize>, IndexError> {
    let machine = Machine::now();
    let k = batch.ndim();
    let layout = Layout {
        shape: &view.shape()[k..],
        strides: &view.strides()[k..],
    };
    let positions = every_position(batch, || {
        let read_shape = prepare::batch_read_shape(batch, index, layout).unwrap_or_default();
        prepare::too_large(&[batch.shape(), &read_shape].concat())
    })?;
    let indices: Vec<Vec<IndexElem<'_>>> = positions.iter().map(|at| batch.index_at(index, at)).collect();
    let plans = indices
        .iter()
        .map(|index| prepare::read_with(index, layout, mode, &machine.passes()))
        .collect::<Result<Vec<_>, _>>()?;
    let read_shape = match plans.first() {
        Some(plan) => plan.shape().to_vec(),
        None => prepare::batch_read_shape(batch, index, layout)?,
    };
    let out_shape = [batch.shape(), &read_shape].concat();
    let ReadInto::Array(out) = out(&out_shape)? else {
        return Ok(out_shape);
    };
    for ((at, plan), out) in positions.iter().zip(plans).zip(views_of_batches(out, k)) {
        debug_assert_eq!(plan.shape(), read_shape.as_slice(), "every batch reads one shape");
        // SAFETY: the plan was resolved from the batch's view of the
        // target in `mode` by the machine's passes, which defer no bounds,
        // and its shape is every batch's (the index
        // arrays' batch views all have one shape, and no mask is read),
        // which `out` has behind its batch axes.
        unsafe { choose::run_read_into(&view_at(view, at), plan, mode, out, &machine) };
    }
    Ok(out_shape)
}

/// Writes `value` into `target[index]` with the leading `batch` axes of the
/// target, of every index array and mask, and of an array `value` paired:
/// for every batch position `b`, `target[b][index[b]] = value[b]` (JAX's
/// `vmap` of `.at[].set`, TensorFlow's `tensor_scatter_nd_update` with
/// batch dimensions). With duplicates in a batch, the last wins.
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::set_batched;
/// use tensor_core::{ix, Mode};
///
/// let mut x = array![[0, 0, 0], [0, 0, 0]];
/// set_batched(&mut x, &[ix(&array![[2], [0]])], 1, &array![[7], [9]], Mode::Error)?;
/// assert_eq!(x, array![[0, 0, 7], [9, 0, 0]]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn set_batched<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    batch: usize,
    value: impl IntoValue<'v, T>,
    mode: impl Into<AnyMode<T>>,
) -> Result<(), IndexError>
where
    T: Clone + 'v,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    if batch == 0 {
        return crate::api::set(target, index, value, mode);
    }
    let value = value.into_value();
    let mut target = target.view_mut().into_dyn();
    let axes = prepare::batch_update(batch, target.shape(), index, &mode, Some(&value))?;
    if let Some(one) = small_batches_as_one(&axes, index, (target.shape(), target.strides()))
        && let Some(one_value) = one.value(&value)
        && crate::api::set(&mut target.view_mut(), &one.index, one_value, mode.clone()).is_ok()
    {
        return Ok(());
    }
    let machine = Machine::now();
    let batches = Batches::new(axes)?;
    let (indices, values, layout) = (batches.indices(index), batches.values(&value), batches.layout(&target));
    let updates = each(&indices, &values, |index, value| {
        prepare::set_with(index, layout, &mode, value, &machine.passes())
    })?;
    choose::run_set_batches(views_of_batches(target, batch).into_iter().zip(updates).collect(), &machine);
    Ok(())
}

/// Combines `target[index]` with `value` by `op` with the leading `batch`
/// axes paired, as [`set_batched`] pairs them: every occurrence applied in
/// index order (the `vmap` of `.at[].add`, `tensor_scatter_nd_add` with
/// batch dimensions).
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::update_batched;
/// use tensor_core::{ix, Mode, Op};
///
/// let mut counts = array![[0, 0], [0, 0]];
/// update_batched(&mut counts, &[ix(&array![[1, 1, 0], [0, 0, 0]])], 1, Op::Add, 1, Mode::Error)?;
/// assert_eq!(counts, array![[1, 2], [3, 0]]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn update_batched<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    batch: usize,
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
    if batch == 0 {
        return crate::api::update(target, index, op, value, mode);
    }
    prepare::supported::<T>(op)?;
    let value = value.into_value();
    let mut target = target.view_mut().into_dyn();
    let axes = prepare::batch_update(batch, target.shape(), index, &mode, Some(&value))?;
    if let Some(one) = small_batches_as_one(&axes, index, (target.shape(), target.strides()))
        && let Some(one_value) = one.value(&value)
        && crate::api::update(&mut target.view_mut(), &one.index, op, one_value, mode).is_ok()
    {
        return Ok(());
    }
    let machine = Machine::now();
    let batches = Batches::new(axes)?;
    let (indices, values, layout) = (batches.indices(index), batches.values(&value), batches.layout(&target));
    let updates = each(&indices, &values, |index, value| {
        prepare::update_with(index, layout, op, &mode, value, &machine.passes())
    })?;
    let batches = views_of_batches(target, batch).into_iter().zip(updates).collect();
    with_op!(op, kernel => choose::run_update_batches(batches, op, kernel, &machine));
    Ok(())
}

/// Replaces each element of `target[index]` by `f(element)` with the
/// leading `batch` axes paired, once per occurrence, in batch then index
/// order. When `f` panics the target is unchanged: every element it
/// replaced is put back.
///
/// ```
/// use ndarray::array;
/// use tensor_core::backend::apply_batched;
/// use tensor_core::{ix, Mode};
///
/// let mut x = array![[1, 2], [3, 4]];
/// apply_batched(&mut x, &[ix(&array![[1], [0]])], 1, |e| e * 10, Mode::Error)?;
/// assert_eq!(x, array![[1, 20], [30, 4]]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn apply_batched<T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    batch: usize,
    f: impl FnMut(T) -> T,
    mode: impl Into<AnyMode<T>>,
) -> Result<(), IndexError>
where
    T: Clone,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let mode = mode.into();
    if batch == 0 {
        return crate::api::apply(target, index, f, mode);
    }
    let mut target = target.view_mut().into_dyn();
    let machine = Machine::now();
    let batches = Batches::new(prepare::batch_update(batch, target.shape(), index, &mode, None)?)?;
    let indices = batches.indices(index);
    let layout = batches.layout(&target);
    let plans = indices
        .iter()
        .map(|index| prepare::apply_with(index, layout, &mode, &machine.passes()))
        .collect::<Result<Vec<_>, _>>()?;
    // One offset per position of every batch: a count of the user's
    // lengths, checked, then scratch that memory may refuse.
    let too_large = || prepare::too_large(&[batches.batch.shape(), plans.first().map_or(&[][..], Plan::shape)].concat());
    let count = memory::total(plans.iter().map(|plan| memory::elements(plan.shape()).unwrap_or(usize::MAX))).ok_or_else(too_large)?;
    let mut offsets = memory::vec(count).ok_or_else(too_large)?;
    for (at, plan) in batches.positions.iter().zip(&plans) {
        let base = batch_offset(&target, at);
        match plan {
            Plan::Indexed(plan) => plan.for_each_offset(|offset| offsets.extend(offset.map(|offset| base + offset))),
            // Offsets by the strides, not by addresses: elements of a
            // zero-sized type share one.
            Plan::View(plan) => view_offsets(&plan.axes, layout.strides, base, &mut |offset| offsets.push(offset)),
        }
    }
    // SAFETY: each offset is a batch's offset in `target` plus an offset
    // its plan (resolved from that batch's view) yields: an element of
    // `target`.
    match unsafe { crate::exec::apply::apply_offsets(&mut target, &offsets[..], f) } {
        true => Ok(()),
        false => Err(too_large()),
    }
}

/// Calls `f` with the offset of each element of the view `axes` select
/// from an array of `strides` whose first element is at `base`, in C order
/// (the order of the selected view's iterator).
fn view_offsets(axes: &[ViewAxis], strides: &[isize], base: isize, f: &mut dyn FnMut(isize)) {
    // The view's origin and its axes (length and stride), as the resolver
    // left them: every position selected is in bounds.
    let (mut origin, mut dims, mut axis) = (base, Vec::with_capacity(axes.len()), 0);
    for &view_axis in axes {
        match view_axis {
            ViewAxis::Select(position) => origin += position as isize * strides[axis],
            ViewAxis::Slice { first, len, step } => {
                // A step is never taken from the last position (and may
                // overflow there).
                origin += if len > 0 { first as isize * strides[axis] } else { 0 };
                dims.push((len, if len > 1 { step * strides[axis] } else { 0 }));
            }
            ViewAxis::NewAxis => {
                dims.push((1, 0));
                continue;
            }
        }
        axis += 1;
    }
    if dims.iter().any(|&(len, _)| len == 0) {
        return;
    }
    // A C-order odometer over the view's axes.
    let mut at = vec![0usize; dims.len()];
    let mut offset = origin;
    loop {
        f(offset);
        let Some(last) = (0..dims.len()).rev().find(|&d| at[d] + 1 < dims[d].0) else {
            return;
        };
        for d in last + 1..dims.len() {
            offset -= (dims[d].0 - 1) as isize * dims[d].1;
            at[d] = 0;
        }
        at[last] += 1;
        offset += dims[last].1;
    }
}

/// The batches of an update: every position, checked.
struct Batches {
    batch: Batch,
    positions: Vec<Vec<usize>>,
}

impl Batches {
    /// The batches of `batch` (checked by [`prepare::batch_update`]): every
    /// position, or an error when memory cannot hold them.
    fn new(batch: Batch) -> Result<Batches, IndexError> {
        let positions = every_position(&batch, || prepare::too_large(batch.shape()))?;
        Ok(Batches { batch, positions })
    }

    /// The layout of each batch's view of `target`.
    fn layout<'t, T>(&self, target: &'t ArrayViewMutD<'_, T>) -> Layout<'t> {
        let k = self.batch.ndim();
        Layout {
            shape: &target.shape()[k..],
            strides: &target.strides()[k..],
        }
    }

    /// Each batch's index, in the order of the positions.
    fn indices<'i>(&self, index: &'i [IndexElem<'_>]) -> Vec<Vec<IndexElem<'i>>> {
        self.positions.iter().map(|at| self.batch.index_at(index, at)).collect()
    }

    /// Each batch's value, in the order of the positions.
    fn values<'v, T: Clone>(&self, value: &'v Value<'_, T>) -> Vec<Value<'v, T>> {
        self.positions.iter().map(|at| self.batch.value_at(value, at)).collect()
    }
}

/// Every position of `batch`, in C order, or the error `too_large` makes
/// when memory cannot hold the list: batch axes may be far longer than
/// memory holds positions (a broadcast target, or an empty axis behind).
fn every_position(batch: &Batch, too_large: impl FnOnce() -> IndexError) -> Result<Vec<Vec<usize>>, IndexError> {
    let positions = batch.positions();
    let mut every = memory::vec(positions.len()).ok_or_else(too_large)?;
    every.extend(positions);
    Ok(every)
}

/// Each batch's update prepared by `prepare` from its index and value, in
/// order: the first batch's error is the call's.
fn each<'i, 'v, T, U>(
    indices: &'i [Vec<IndexElem<'_>>],
    values: &'v [Value<'_, T>],
    prepare: impl FnMut(&'i [IndexElem<'_>], &'v Value<'_, T>) -> Result<U, IndexError>,
) -> Result<Vec<U>, IndexError> {
    let mut prepare = prepare;
    indices.iter().zip(values).map(|(index, value)| prepare(index, value)).collect()
}

/// An element to fill a new read's array with before each batch is read
/// over it: the target's first, or the fill value (with neither, the read
/// is empty: every position either reads the target or is filled).
fn first_element<T: Clone>(view: &ArrayViewD<'_, T>, mode: &AnyMode<T>) -> Option<T> {
    match mode {
        AnyMode::Fill(fill) => Some(fill.clone()),
        _ => view.iter().next().cloned(),
    }
}

/// The view of batch position `at`.
fn view_at<'a, T>(view: &ArrayViewD<'a, T>, at: &[usize]) -> ArrayViewD<'a, T> {
    at.iter()
        .fold(view.clone(), |view, &position| view.index_axis_move(Axis(0), position))
}

/// The view of every batch position of `target` (its leading `batch`
/// axes; a target, or a read's output), in C order: the order of
/// [`Batch::positions`].
fn views_of_batches<T>(target: ArrayViewMutD<'_, T>, batch: usize) -> Vec<ArrayViewMutD<'_, T>> {
    (0..batch).fold(vec![target], |views, _| {
        views.into_iter().flat_map(ArrayViewMutD::into_outer_iter_mut).collect()
    })
}

/// The offset of batch position `at`'s view in `target`.
fn batch_offset<T>(target: &ArrayViewMutD<'_, T>, at: &[usize]) -> isize {
    at.iter()
        .zip(target.strides())
        .map(|(&position, &stride)| position as isize * stride)
        .sum()
}
