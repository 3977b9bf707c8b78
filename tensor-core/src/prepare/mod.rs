//! The narrow waist: every check of a read or an update, in NumPy's order,
//! for every backend. The CPU's entry points and tensor-gpu both prepare
//! through here, and neither restates any part of it.
//!
//! An update is prepared in four steps, each reporting NumPy's error:
//! 1. the mode: `drop` is for updates, `fill` for reads;
//! 2. the index, resolved into a plan on the target's layout (its
//!    structure, mask shapes, integers and slices, the broadcast of the
//!    advanced indices, their bounds);
//! 3. the value, broadcast to the plan's region (with NumPy's count error
//!    for `x[mask] = v` over every axis);
//! 4. the operands: integer division by zero and negative integer powers,
//!    for every value that will be applied (skipped positions excluded).
//!
//! What comes out cannot fail to execute. The one exception is explicit:
//! `checked_in_loop` prepares an accumulation whose index bounds the CPU
//! checks in the loop that applies it (every other rule checked here), and
//! `out_of_bounds` is the error it reports.
//!
//! This module (with the resolver it calls) is the only code that builds
//! an [`IndexError`].

use ndarray::IxDyn;

mod batch;
mod device;
pub(crate) mod flat;
pub use batch::{Batch, OneIndex};
pub use device::{DeviceAxes, device_axes, device_fault_first, device_out_of_bounds};

use crate::element::{Arith, Op, OperandFault};
use crate::error::{Dims, IndexError};
use crate::index::{BasicList, IndexElem, IndexInt, IntArray};
use crate::mode::AnyMode;
use crate::plan::basic;
use crate::plan::{IndexPasses, Plan, Serial, ViewAxis, resolve_with};
use crate::value::{Broadcast, InOrder, Value};

/// A target's layout: its shape, and its strides in elements.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// The shape.
    pub shape: &'a [usize],
    /// The strides, in elements (negative for reversed axes).
    pub strides: &'a [isize],
}

/// An update, prepared: its plan, and its value broadcast to the plan's
/// region with every operand vetted. Writing it cannot fail.
#[derive(Debug)]
pub struct Update<'i, 'v, T> {
    /// The positions written.
    pub plan: Plan<'i>,
    /// The value of each position.
    pub values: Broadcast<'v, T>,
}

/// Whether an access reads or writes: each refuses the other's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// A read, which takes mode `fill`.
    Read,
    /// An update, which takes mode `drop`.
    Update,
}

/// NumPy's check of a boolean mask of shape `mask` on the target axes
/// `axes` (the first of them `first_axis`): each of its lengths is the
/// axis's. For a target on another device, which places its masks itself.
pub fn mask_shape(mask: &[usize], axes: &[usize], first_axis: usize) -> Result<(), IndexError> {
    crate::plan::check_mask_shape(mask, axes, first_axis)
}

/// Step 0 of an update: the mode applies to updates (not `fill`), for a
/// backend that runs a mask over a whole target without preparing an index.
pub fn update_mode<T>(mode: &AnyMode<T>) -> Result<(), IndexError> {
    check_mode(mode, Access::Update)
}

/// Step 0 of a read: the mode applies to reads (not `drop`), for a backend
/// that checks its index in pieces of its own before preparing it.
pub fn read_mode<T>(mode: &AnyMode<T>) -> Result<(), IndexError> {
    check_mode(mode, Access::Read)
}

/// Step 1: refuses the modes that do not apply to `access`.
fn check_mode<T>(mode: &AnyMode<T>, access: Access) -> Result<(), IndexError> {
    match (mode, access) {
        (AnyMode::Drop, Access::Read) => Err(IndexError::UnsupportedMode {
            mode: "drop",
            reason: "applies to updates only; reads take fill(v)",
        }),
        (AnyMode::Fill(_), Access::Update) => Err(IndexError::UnsupportedMode {
            mode: "fill",
            reason: "applies to reads only; updates take drop to skip out-of-bounds positions",
        }),
        _ => Ok(()),
    }
}

/// The first target axis each element of `index` takes on a target of
/// `ndim` axes (for `...`, the first it covers), the index's structure
/// checked first: where a target on another device places the arrays it
/// reads itself.
pub fn first_axes(index: &[IndexElem<'_>], ndim: usize) -> Result<Vec<usize>, IndexError> {
    let placement = crate::plan::place::Placement::new(index, ndim)?;
    Ok(placement.first_axes(index).map(|(_, axis)| axis).collect())
}

/// A read of `index` in `mode`, prepared: its plan.
pub fn read<'i, T>(index: &'i [IndexElem<'_>], layout: Layout<'_>, mode: &AnyMode<T>) -> Result<Plan<'i>, IndexError> {
    read_with(index, layout, mode, &Serial)
}

/// [`read`], with `passes` running the passes over index arrays.
pub fn read_with<'i, T>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    check_mode(mode, Access::Read)?;
    resolve_with(index, layout.shape, layout.strides, mode.bounds(), passes)
}

/// A read of `index` into an existing array of shape `out`, prepared: the
/// read's plan, after the read's own checks, when its shape is `out`.
pub fn read_into_with<'i, T>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    out: &[usize],
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    let plan = read_with(index, layout, mode, passes)?;
    match plan.shape() == out {
        true => Ok(plan),
        false => Err(output_shape(out, plan.shape())),
    }
}

/// The error of a read into an array of shape `out` whose result has shape
/// `result`.
pub(crate) fn output_shape(out: &[usize], result: &[usize]) -> IndexError {
    IndexError::OutputShape {
        out: out.into(),
        result: result.into(),
    }
}

/// `.apply(f)` on `index` in `mode`, prepared: its plan (there is no value).
pub fn apply<'i, T>(index: &'i [IndexElem<'_>], layout: Layout<'_>, mode: &AnyMode<T>) -> Result<Plan<'i>, IndexError> {
    apply_with(index, layout, mode, &Serial)
}

/// [`apply`], with `passes` running the passes over index arrays.
pub fn apply_with<'i, T>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    check_mode(mode, Access::Update)?;
    resolve_with(index, layout.shape, layout.strides, mode.bounds(), passes)
}

/// `x[index] = value`, prepared.
pub fn set<'i, 'v, T>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
) -> Result<Update<'i, 'v, T>, IndexError> {
    set_with(index, layout, mode, value, &Serial)
}

/// [`set`], with `passes` running the passes over index arrays.
pub fn set_with<'i, 'v, T>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
    passes: &dyn IndexPasses,
) -> Result<Update<'i, 'v, T>, IndexError> {
    let plan = apply_with(index, layout, mode, passes)?;
    let values = broadcast(value, plan.shape()).map_err(|error| match &plan {
        // NumPy reports a wrong-length one-dimensional value for a single
        // mask over every axis as a count.
        Plan::Indexed(indexed) if indexed.whole_mask => whole_mask_error(value, indexed.len(), error),
        _ => error,
    })?;
    Ok(Update { plan, values })
}

/// `x[index] op= value`, prepared.
pub fn update<'i, 'v, T: Arith>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    op: Op,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
) -> Result<Update<'i, 'v, T>, IndexError> {
    update_with(index, layout, op, mode, value, &Serial)
}

/// [`update`], with `passes` running the passes over index arrays.
pub fn update_with<'i, 'v, T: Arith>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    op: Op,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
    passes: &dyn IndexPasses,
) -> Result<Update<'i, 'v, T>, IndexError> {
    supported::<T>(op)?;
    let plan = apply_with(index, layout, mode, passes)?;
    let values = broadcast(value, plan.shape())?;
    if T::checks_operands(op) {
        vet_planned(&plan, &values, op)?;
    }
    Ok(Update { plan, values })
}

/// The value of a write whose region another device places and checks
/// (its index arrays on that device): `value` broadcast to the region's
/// `shape` and, for `op`, every operand vetted, as [`set`] and [`update`]
/// do after their plan. Every position counts as written, even in a mode
/// that may skip some.
pub fn placed_values<'v, T: Arith>(shape: &[usize], op: Option<Op>, value: &'v Value<'_, T>) -> Result<Broadcast<'v, T>, IndexError> {
    if let Some(op) = op {
        supported::<T>(op)?;
    }
    let values = broadcast(value, shape)?;
    if let Some(op) = op
        && T::checks_operands(op)
        && !shape.contains(&0)
    {
        vet_all(&values, op)?;
    }
    Ok(values)
}

/// A batched read (`; batch = k`), prepared: the mode, then how the
/// target's leading `batch` axes pair with the index arrays' (see
/// [`Batch`]). Each batch is then prepared as a read of its view.
pub fn batch_read<T>(batch: usize, shape: &[usize], index: &[IndexElem<'_>], mode: &AnyMode<T>) -> Result<Batch, IndexError> {
    check_mode(mode, Access::Read)?;
    Batch::of::<T>(batch, shape, index, true, None)
}

/// A batched update or `.apply` (no `value`), prepared: the mode, then how
/// the target's leading `batch` axes pair with the index arrays', masks
/// and array value (see [`Batch`]). Each batch is then prepared as an
/// update of its view.
pub fn batch_update<T>(
    batch: usize,
    shape: &[usize],
    index: &[IndexElem<'_>],
    mode: &AnyMode<T>,
    value: Option<&Value<'_, T>>,
) -> Result<Batch, IndexError> {
    check_mode(mode, Access::Update)?;
    Batch::of(batch, shape, index, false, value)
}

/// The shape each batch of a batched read reads on `layout` (a batch's
/// view), found with no batch position to view: the read of an empty
/// batch has this shape behind its batch axes. Nothing the shape's size
/// decides is built (no index arrays, no table of offsets): an index
/// broadcast to any size gives the shape of an empty read, or
/// [`IndexError::TooLarge`] when that shape cannot be addressed.
pub fn batch_read_shape(batch: &Batch, index: &[IndexElem<'_>], layout: Layout<'_>) -> Result<Vec<usize>, IndexError> {
    let zeros = batch.zeros_like(index);
    crate::plan::resolve_shape(&zeros, layout.shape, layout.strides, crate::mode::Bounds::Skip)
}

/// A read or an update of a basic index, prepared one view axis at a time
/// (see [`plan::basic::each_view_axis`](crate::plan::basic::each_view_axis)),
/// the mode checked first: what the CPU's small reads and updates narrow
/// their view with, no plan allocated. `None` when the index is not basic
/// (then [`read`] or [`set`] takes it, with the same result).
#[inline]
pub(crate) fn each_view_axis<T>(
    index: &[IndexElem<'_>],
    shape: &[usize],
    mode: &AnyMode<T>,
    access: Access,
    visit: impl FnMut(ViewAxis),
) -> Option<Result<usize, IndexError>> {
    if let Err(error) = check_mode(mode, access) {
        return Some(Err(error));
    }
    basic::each_view_axis(index, shape, mode.bounds(), visit)
}

/// [`each_view_axis`] for a typed list in mode `error`, read element by
/// element where it stands (see
/// [`plan::basic::each_basic_view_axis`](crate::plan::basic::each_basic_view_axis)):
/// the macros' inline basic path.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn each_basic_view_axis(list: &impl BasicList, shape: &[usize], visit: impl FnMut(ViewAxis)) -> Option<usize> {
    basic::each_basic_view_axis(list, shape, visit)
}

/// The element a typed list of integers alone picks, or whether one is out
/// of bounds (see [`plan::basic::element_at`](crate::plan::basic::element_at)).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn element_at<D: ndarray::Dimension>(list: &impl BasicList, shape: &[usize]) -> Option<Option<D>> {
    basic::element_at(list, shape)
}

/// The row a typed list of one integer then whole axes picks, or whether
/// it is out of bounds (see [`plan::basic::row_at`](crate::plan::basic::row_at)).
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn row_at(list: &impl BasicList, shape: &[usize]) -> Option<Option<usize>> {
    basic::row_at(list, shape)
}

/// `x[predicate(x)] = value` (the mask sugar), prepared: the value for the
/// `count()` selected elements (counted only for an array value). Inlined,
/// so that a scalar's `Result` is never built in memory.
#[inline]
pub fn set_where<'v, T, E: From<IndexError>>(
    value: &'v Value<'_, T>,
    count: impl FnOnce() -> Result<usize, E>,
) -> Result<Broadcast<'v, T>, E> {
    if let Value::Scalar(scalar) = value {
        return Ok(Broadcast::Scalar(scalar));
    }
    let count = count()?;
    Ok(broadcast(value, &[count]).map_err(|error| whole_mask_error(value, count, error))?)
}

/// `x[predicate(x)] op= value` (the mask sugar), prepared: the value for
/// the `count()` selected elements, its operands vetted (counted for an
/// array value, and for a scalar whose operand may be invalid: it is
/// vetted only when something is selected). Inlined as [`set_where`] is.
#[inline]
pub fn update_where<'v, T: Arith, E: From<IndexError>>(
    op: Op,
    value: &'v Value<'_, T>,
    count: impl FnOnce() -> Result<usize, E>,
) -> Result<Broadcast<'v, T>, E> {
    supported::<T>(op)?;
    let values = match value {
        Value::Scalar(scalar) if !T::checks_operands(op) => return Ok(Broadcast::Scalar(scalar)),
        Value::Scalar(scalar) => match count()? {
            0 => return Ok(Broadcast::Scalar(scalar)),
            _ => Broadcast::Scalar(scalar),
        },
        Value::Array(_) | Value::Device(_) => {
            let count = count()?;
            broadcast(value, &[count])?
        }
    };
    if T::checks_operands(op) {
        let count = match &values {
            Broadcast::Scalar(_) => 1,
            Broadcast::Array { shape, .. } => shape[0],
        };
        values.elements().take(count).try_for_each(|v| vet(op, *v))?;
    }
    Ok(values)
}

/// An accumulation of one C-contiguous index array into a one-dimensional
/// target in mode `error`, prepared but for the bounds of the index: every
/// other rule holds (the structure of a lone array, the mode, the value's
/// broadcast, and the operands, which `op` does not check). Its values are
/// in C order. `None` when the update has another form, its value does not
/// broadcast, or is not in C order: [`update`] takes it.
///
/// The CPU checks each index in the loop that applies it, and restores the
/// target at the first bad one, which [`out_of_bounds`] reports.
#[cfg_attr(not(unoptimized), inline(always))] // on the path of the smallest scatters, where a call costs
pub(crate) fn checked_in_loop<'i, 'a, 'v, T: Arith>(
    index: &'i [IndexElem<'a>],
    shape: &[usize],
    op: Op,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
) -> Option<(&'i IntArray<'a>, InOrder<'v, T>)> {
    let ([IndexElem::Array(array)], [_], AnyMode::Error) = (index, shape, mode) else {
        return None;
    };
    if T::checks_operands(op) || array.shape().is_empty() || !array.is_contiguous() {
        return None;
    }
    if let Some(values) = value.flat_in_order(array.shape()) {
        return Some((array, values));
    }
    // In C order when nothing is broadcast and the value is a plain slice.
    let Ok(Broadcast::Array { view, .. }) = broadcast(value, array.shape()) else {
        return None;
    };
    let values = view.to_slice().filter(|_| view.shape() == array.shape())?;
    Some((array, InOrder::Slice(values)))
}

/// The error of a result of `shape` whose memory cannot be had (for every
/// backend: tensor-gpu's lists of batch positions too).
#[cold]
pub fn too_large(shape: &[usize]) -> IndexError {
    IndexError::too_large(shape)
}

/// The error of an index array on the first axis of a target of length
/// `len` whose bad index, found where it was applied, is `index`.
pub(crate) fn out_of_bounds(index: i128, len: usize) -> IndexError {
    IndexError::OutOfBounds { index, axis: 0, len }
}

/// The error of a vector of indices into a vector of length `len`, one of
/// which is out of bounds: the first, in index order.
#[cold]
pub(crate) fn first_out_of_bounds<I: IndexInt>(index: &[I], len: usize) -> IndexError {
    let bad = index.iter().find(|i| !i.in_bounds(len)).map(|&i| i.to_i128());
    out_of_bounds(bad.expect("an index out of bounds"), len)
}

/// Step 3: `value` broadcast to a region of `shape`, its leading length-1
/// axes dropped first (as PyTorch's setitem and NumPy's do).
fn broadcast<'v, T>(value: &'v Value<'_, T>, shape: &[usize]) -> Result<Broadcast<'v, T>, IndexError> {
    let view = match value {
        Value::Scalar(scalar) => return Ok(Broadcast::Scalar(scalar)),
        Value::Device(array) => return Err(IndexError::on_device("value", array.shape())),
        Value::Array(_) => value.trimmed(shape.len()).expect("an array value has an array"),
    };
    if view.broadcast(shape).is_none() {
        return Err(IndexError::ShapeMismatch {
            value: Dims(value.shape().to_vec()),
            target: Dims(shape.to_vec()),
        });
    }
    Ok(Broadcast::Array { view, shape: IxDyn(shape) })
}

/// [`whole_mask_count_error`] for `value`.
fn whole_mask_error<T>(value: &Value<'_, T>, selected: usize, error: IndexError) -> IndexError {
    whole_mask_count_error(value.shape(), selected, error)
}

/// `error` (a failed broadcast) as NumPy reports it for `x[mask] = value`
/// with a single mask over every axis selecting `selected` elements and a
/// value of shape `shape`: a wrong-length one-dimensional value (after
/// leading length-1 axes) is a [`IndexError::ValueCount`]. Public for a
/// target on another device, whose mask stands in as the coordinates it
/// selects.
pub fn whole_mask_count_error(shape: &[usize], selected: usize, error: IndexError) -> IndexError {
    let leading_ones = shape.iter().take_while(|&&d| d == 1).count().min(shape.len().saturating_sub(1));
    match shape[leading_ones..] {
        [given] if given != selected => IndexError::ValueCount { given, expected: selected },
        _ => error,
    }
}

/// [`whole_mask_count_error`] of `error`, a failed broadcast whose value
/// shape it names: for a backend whose whole mask stood in as the
/// coordinates it selects (`selected` of them). Any other error is kept.
pub fn whole_mask_error_of(selected: usize, error: IndexError) -> IndexError {
    match &error {
        IndexError::ShapeMismatch { value, .. } => {
            let shape = value.0.clone();
            whole_mask_count_error(&shape, selected, error)
        }
        _ => error,
    }
}

/// Step 0: an operation the element type does not have is refused before
/// anything else, whatever the index and value hold (NumPy's type error).
pub fn supported<T: Arith>(op: Op) -> Result<(), IndexError> {
    match T::supports(op) {
        true => Ok(()),
        false => Err(IndexError::UnsupportedOperation {
            op,
            element: std::any::type_name::<T>(),
        }),
    }
}

/// Step 4 for one operand.
fn vet<T: Arith>(op: Op, value: T) -> Result<(), IndexError> {
    match T::operand_fault(op, value) {
        None => Ok(()),
        Some(OperandFault::DivisionByZero) => Err(IndexError::DivisionByZero),
        Some(OperandFault::NegativePower) => Err(IndexError::NegativeIntegerPower),
        Some(_) => Err(IndexError::UnsupportedOperation {
            op,
            element: std::any::type_name::<T>(),
        }),
    }
}

/// Step 4 for a region whose every position is written (of at least one
/// element, for a scalar).
fn vet_all<T: Arith>(values: &Broadcast<'_, T>, op: Op) -> Result<(), IndexError> {
    match values {
        Broadcast::Scalar(v) => vet(op, **v),
        Broadcast::Array { .. } => values.elements().try_for_each(|v| vet(op, *v)),
    }
}

/// Step 4: every value that will be applied through `plan` (skipped
/// positions excluded), before anything is written.
fn vet_planned<T: Arith>(plan: &Plan<'_>, values: &Broadcast<'_, T>, op: Op) -> Result<(), IndexError> {
    match (plan, values) {
        (_, Broadcast::Scalar(_)) if plan.shape().contains(&0) => Ok(()),
        (Plan::View(_), _) => vet_all(values, op),
        (Plan::Indexed(plan), _) => {
            let mut values = values.elements();
            let mut result = Ok(());
            plan.for_each_offset(|offset| {
                let value = values.next().expect("one value per selected position");
                if offset.is_some() && result.is_ok() {
                    result = vet(op, *value);
                }
            });
            result
        }
    }
}

#[cfg(test)]
mod tests {
    use ndarray::array;

    use super::*;
    use crate::ix;

    fn layout<'a>(shape: &'a [usize], strides: &'a [isize]) -> Layout<'a> {
        Layout { shape, strides }
    }

    #[test]
    fn errors_come_in_numpys_order_mode_resolution_value_operands() {
        let (shape, strides) = ([3usize], [1isize]);
        let bad_index = [ix([0, 9])];
        let bad_value = array![1, 2, 3, 4].into_dyn();
        let value = Value::Array(bad_value.view().into());
        // The mode before everything.
        let error = update(&bad_index, layout(&shape, &strides), Op::Div, &AnyMode::Fill(0), &value).unwrap_err();
        assert!(matches!(error, IndexError::UnsupportedMode { mode: "fill", .. }));
        // The index before the value.
        let error = update(&bad_index, layout(&shape, &strides), Op::Div, &AnyMode::Error, &value).unwrap_err();
        assert!(matches!(error, IndexError::OutOfBounds { index: 9, .. }));
        // The value before the operands.
        let zeros = array![0, 0, 0, 0].into_dyn();
        let zeros = Value::Array(zeros.view().into());
        let error = update(&[ix([0, 1])], layout(&shape, &strides), Op::Div, &AnyMode::Error, &zeros).unwrap_err();
        assert!(matches!(error, IndexError::ShapeMismatch { .. }));
        // The operands last, only those applied.
        let error = update(&[ix([0, 1])], layout(&shape, &strides), Op::Div, &AnyMode::Error, &Value::Scalar(0)).unwrap_err();
        assert_eq!(error, IndexError::DivisionByZero);
        let skipped = array![1, 0].into_dyn();
        let skipped = Value::Array(skipped.view().into());
        assert!(update(&[ix([0, 7])], layout(&shape, &strides), Op::Div, &AnyMode::Drop, &skipped).is_ok());
    }

    #[test]
    fn placed_values_are_the_values_a_plan_of_their_shape_gets() {
        let (shape, strides) = ([4usize, 2], [2isize, 1]);
        let rows = [ix([3, 0, 3])];
        let cases = [array![[1, 2]].into_dyn(), array![[1, 0]].into_dyn(), array![1, 2, 3].into_dyn()];
        for value in &cases {
            let value = Value::Array(value.view().into());
            for op in [None, Some(Op::Add), Some(Op::Div)] {
                let planned = match op {
                    None => set(&rows, layout(&shape, &strides), &AnyMode::Error, &value),
                    Some(op) => update(&rows, layout(&shape, &strides), op, &AnyMode::Error, &value),
                };
                let placed = placed_values(&[3, 2], op, &value);
                match (planned, placed) {
                    (Ok(planned), Ok(placed)) => assert!(planned.values.elements().eq(placed.elements())),
                    (Err(planned), Err(placed)) => assert_eq!(planned, placed),
                    (planned, placed) => panic!("{op:?}: planned {:?}, placed {:?}", planned.err(), placed.err()),
                }
            }
        }
        // A scalar's operand is vetted only where something is written.
        assert!(placed_values(&[0, 2], Some(Op::Div), &Value::Scalar(0)).is_ok());
        assert_eq!(
            placed_values(&[1], Some(Op::Div), &Value::Scalar(0)).unwrap_err(),
            IndexError::DivisionByZero
        );
        assert!(matches!(
            placed_values(&[2], Some(Op::BitXor), &Value::Scalar(1.0f32)).unwrap_err(),
            IndexError::UnsupportedOperation { .. }
        ));
    }

    #[test]
    fn a_whole_mask_reports_a_wrong_length_value_as_a_count() {
        let (shape, strides) = ([3usize], [1isize]);
        let mask = [ix([true, false, true])];
        let three = array![1, 2, 3].into_dyn();
        let error = set(&mask, layout(&shape, &strides), &AnyMode::Error, &Value::Array(three.view().into())).unwrap_err();
        assert_eq!(error, IndexError::ValueCount { given: 3, expected: 2 });
        let error = set_where(&Value::Array(three.view().into()), || Ok::<_, IndexError>(2)).unwrap_err();
        assert_eq!(error, IndexError::ValueCount { given: 3, expected: 2 });
        // Not for other updates.
        let error = update_where(Op::Add, &Value::Array(three.view().into()), || Ok::<_, IndexError>(2)).unwrap_err();
        assert!(matches!(error, IndexError::ShapeMismatch { .. }));
    }

    #[test]
    fn masked_scalars_are_counted_only_when_their_operand_may_be_invalid() {
        let never = || -> Result<usize, IndexError> { panic!("counted") };
        assert!(set_where(&Value::Scalar(0), never).is_ok());
        assert!(update_where(Op::Add, &Value::Scalar(0), never).is_ok());
        assert!(update_where(Op::Div, &Value::Scalar(0), || Ok::<_, IndexError>(0)).is_ok());
        assert_eq!(
            update_where(Op::Div, &Value::Scalar(0), || Ok::<_, IndexError>(1)).unwrap_err(),
            IndexError::DivisionByZero
        );
        assert_eq!(
            update_where(Op::Pow, &Value::Scalar(-1i8), || Ok::<_, IndexError>(4)).unwrap_err(),
            IndexError::NegativeIntegerPower
        );
    }

    #[test]
    fn only_lone_arrays_on_vectors_are_checked_in_the_loop() {
        let indices = array![0usize, 2, 2];
        let index = [ix(&indices)];
        let scalar = Value::Scalar(1.0f32);
        assert!(checked_in_loop(&index, &[3], Op::Add, &AnyMode::Error, &scalar).is_some());
        assert!(checked_in_loop(&index, &[3, 1], Op::Add, &AnyMode::Error, &scalar).is_none());
        assert!(checked_in_loop(&index, &[3], Op::Add, &AnyMode::Clip, &scalar).is_none());
        assert!(checked_in_loop(&index, &[3], Op::Div, &AnyMode::Error, &Value::Scalar(1i32)).is_none());
        let wrong = array![1.0f32, 2.0].into_dyn();
        assert!(checked_in_loop(&index, &[3], Op::Add, &AnyMode::Error, &Value::Array(wrong.view().into())).is_none());
        let reversed = array![1.0f32, 2.0, 3.0];
        let reversed = reversed.slice(ndarray::s![..;-1]).into_dyn();
        assert!(checked_in_loop(&index, &[3], Op::Add, &AnyMode::Error, &Value::Array(reversed.into())).is_none());
    }
}
