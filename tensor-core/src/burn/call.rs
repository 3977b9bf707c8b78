//! One call of the macros on a burn tensor viewed as rows ([`Rows`]):
//! tensor-core prepares it (every rule and error, in NumPy's order, before
//! anything runs), the plans of the rows become a [`Region`], and
//! [`super::flat`] runs it with burn's operations.

use crate::backend::plan::{IndexPasses, Plan, Serial};
use crate::backend::prepare::{self, Layout};
use crate::backend::{AnyMode, Bounds, Broadcast, Predicate, Step};
use crate::choose::Machine;
use crate::element::Arith;
use crate::element::Op;
use crate::error::IndexError;
use crate::index::IndexElem;
use crate::memory;
use crate::plan::checked_size;
use crate::value::Value;
use burn_tensor::{Bool, IndexingUpdateOp, Int, Slice, Tensor};

use super::device::{DeviceRegion, OnDevice};
use super::error::BurnError;
use super::flat::{gather, gather_on_device, write, write_on_device};
use super::host;
use super::kind::{BurnKind, unsupported};
use super::region::{Region, c_strides, stand_in_mode};
use super::reshape::Reshaped;
use super::rows::Rows;
use super::slices;
use super::value::{Gathered, flat_of, host_form, to_tensor};

/// Where a call reads or writes: rows known on the host, rows computed on
/// the device from index arrays there, or a view.
pub(crate) enum Where<T> {
    /// Known on the host.
    Host(Region),
    /// On the device.
    Device(Box<DeviceRegion>),
    /// A view: burn's slices, one per axis ([`slices`]).
    Slices(Vec<Slice>),
    /// A view that `=` fills with one scalar.
    Fill(Vec<Slice>, T),
    /// `along(idx, axis)` that burn's `scatter` takes as it is.
    Along(Box<AlongAt>),
}

/// A lone device `along(idx, axis)`: the indices, resolved, their axis and
/// their shape.
pub(crate) struct AlongAt {
    positions: Tensor<1, Int>,
    axis: usize,
    shape: Vec<usize>,
}

/// A write, prepared: where, and the value of each element, in C order.
pub(crate) struct Prepared<K: BurnKind> {
    at: Where<K::Elem>,
    values: Tensor<1, K>,
    op: Option<Op>,
    /// The target's rows and their length.
    rows: [usize; 2],
}

impl<K: BurnKind> Prepared<K> {
    /// Runs the write on `target`; it cannot fail.
    pub(crate) fn run<const D: usize>(self, target: Tensor<D, K>) -> Tensor<D, K> {
        let (dims, [_, row_len]) = (target.dims(), self.rows);
        let written = match self.at {
            Where::Slices(at) => return slices::write(target, &at, self.values, self.op),
            Where::Fill(at, scalar) => return target.slice_fill(&at, scalar),
            Where::Along(at) => {
                let AlongAt { positions, axis, shape } = *at;
                let dims: [usize; D] = std::array::from_fn(|k| shape[k]);
                let count = self.values.dims()[0];
                let values = match self.op {
                    Some(Op::Sub) => K::negated(self.values.shaped([count, 1])).shaped(dims),
                    _ => self.values.shaped(dims),
                };
                return target.scatter(axis, positions.shaped(dims), values, IndexingUpdateOp::Add);
            }
            Where::Host(region) => {
                let values = self.values.shaped([region.len(), row_len]);
                write(target.shaped(self.rows), region, values, self.op)
            }
            Where::Device(region) => {
                let values = self.values.shaped([region.len, row_len]);
                write_on_device(target.shaped(self.rows), *region, values, self.op)
            }
        };
        written.shaped(dims)
    }
}

/// A call's index on a target: its shape, the batch axes, and the rows the
/// index addresses.
struct Indexed<'c, 'i> {
    shape: &'c [usize],
    /// The whole index, which tensor-core checks.
    index: &'c [IndexElem<'i>],
    batch: usize,
    rows: Rows,
}

impl<'c, 'i> Indexed<'c, 'i> {
    /// The index elements that address the rows.
    fn rows_index(&self) -> &'c [IndexElem<'i>] {
        &self.index[..self.rows.kept]
    }

    /// The shape of the rows' axes.
    fn rows_shape(&self) -> &'c [usize] {
        &self.shape[..self.rows.leading]
    }

    /// The shape of a row.
    fn row_shape(&self) -> &'c [usize] {
        &self.shape[self.rows.leading..]
    }

    /// The target as rows: how many, and how long.
    fn as_rows(&self) -> [usize; 2] {
        [self.rows_shape().iter().product(), self.row_shape().iter().product()]
    }
}

/// The plan of `index` on a target of `shape` and `strides` with `batch`
/// paired axes, in `mode`, with no value, as a region.
pub(crate) fn plan_region<T>(
    index: &[IndexElem<'_>],
    shape: &[usize],
    strides: &[isize],
    batch: usize,
    mode: &AnyMode<T>,
    passes: &dyn IndexPasses,
) -> Result<Region, BurnError> {
    let mut region = Region::default();
    let layout = Layout {
        shape: &shape[batch..],
        strides: &strides[batch..],
    };
    if batch == 0 {
        let plan = prepare::apply_with(index, layout, mode, passes)?;
        region.shape = plan.shape().to_vec();
        region.push(&plan, 0, strides)?;
        return Ok(region);
    }
    let batches = prepare::batch_update(batch, shape, index, mode, None)?;
    for at in batches.positions() {
        let index = batches.index_at(index, &at);
        let plan = prepare::apply_with(&index, layout, mode, passes)?;
        region.push(&plan, batch_base(&at, strides), layout.strides)?;
    }
    Ok(region)
}

/// Where a device array's elements are read ([`OnDevice`]): the plan of
/// `index` as a region, its host indices resolved as the call's `bounds`
/// resolve them (a skipped position keeps its place).
pub(crate) fn probe(
    index: &[IndexElem<'_>],
    shape: &[usize],
    strides: &[isize],
    batch: usize,
    bounds: Bounds,
) -> Result<Region, BurnError> {
    let mode = stand_in_mode(bounds);
    // The probe's arrays are positions the host made, in bounds.
    plan_region(index, shape, strides, batch, &mode, &Serial)
}

/// The offset of batch position `at` in a target of `strides`.
fn batch_base(at: &[usize], strides: &[isize]) -> isize {
    at.iter().zip(strides).map(|(&at, &stride)| at as isize * stride).sum()
}

/// `flat[index]` for a tensor of `shape`: the elements read, and the
/// read's shape.
pub(crate) fn read<const D: usize, K: BurnKind>(
    target: &Tensor<D, K>,
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    mode: AnyMode<K::Elem>,
) -> Result<(Tensor<1, K>, Vec<usize>), BurnError> {
    // The mode first, as on an ndarray: before the device arrays' checks.
    prepare::read_mode(&mode)?;
    if batch == 0 && index.iter().all(is_basic) {
        let strides = c_strides(shape);
        let plan = prepare::read(index, Layout { shape, strides: &strides }, &mode)?;
        if let Some(at) = slices::of(&plan) {
            return Ok((slices::read(target, &at), plan.shape().to_vec()));
        }
    }
    let rows = Rows::of(index, shape, batch);
    let bounds = mode.bounds();
    // The host plans index arrays with the CPU's passes, as an ndarray's
    // call does.
    let passes = Machine::now().passes();
    match OnDevice::split(index, shape, batch, rows)? {
        None => read_planned(target, Indexed { shape, index, batch, rows }, mode, None, &passes),
        Some(on_device) => {
            let index = on_device.whole();
            read_planned(target, Indexed { shape, index, batch, rows }, mode, Some(&on_device), &passes)
                .map_err(|e| on_device.real_error(e, bounds))
        }
    }
}

/// Whether `elem` is an element of a basic index, which selects a view.
fn is_basic(elem: &IndexElem<'_>) -> bool {
    matches!(
        elem,
        IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_) | IndexElem::Ellipsis | IndexElem::NewAxis
    )
}

/// [`read`] of the index the host plans, and the device arrays it stands
/// in for.
fn read_planned<const D: usize, K: BurnKind>(
    target: &Tensor<D, K>,
    call: Indexed<'_, '_>,
    mode: AnyMode<K::Elem>,
    on_device: Option<&OnDevice<'_>>,
    passes: &dyn IndexPasses,
) -> Result<(Tensor<1, K>, Vec<usize>), BurnError> {
    let (shape, index, batch) = (call.rows_shape(), call.rows_index(), call.batch);
    let along = on_device.and_then(|on_device| on_device.along_axis(&mode).map(|axis| (on_device, axis)));
    let strides = c_strides(shape);
    let layout = Layout {
        shape: &shape[batch.min(shape.len())..],
        strides: &strides[batch.min(shape.len())..],
    };
    let mut region = Region::default();
    if let Some(shape) = on_device.and_then(OnDevice::alone_shape) {
        region = Region::placed_on_device(shape);
    } else if batch == 0 {
        let plan = prepare::read_with(index, layout, &mode, passes)?;
        region.shape = plan.shape().to_vec();
        if let Some((on_device, axis)) = along {
            // burn's `gather` takes the indices as they are.
            let dims: [usize; D] = std::array::from_fn(|k| region.shape[k]);
            let read = target.clone().gather(axis, on_device.along_positions(&mode)?.shaped(dims));
            return Ok((read.shaped([region.shape.iter().product::<usize>()]), region.shape));
        }
        region.push(&plan, 0, &strides)?;
    } else {
        let batches = prepare::batch_read(batch, shape, index, &mode)?;
        let mut inner = None;
        for at in batches.positions() {
            let index = batches.index_at(index, &at);
            let plan = prepare::read_with(&index, layout, &mode, passes)?;
            inner = Some(plan.shape().to_vec());
            region.push(&plan, batch_base(&at, &strides), layout.strides)?;
        }
        let inner = match inner {
            Some(inner) => inner,
            None => prepare::batch_read_shape(&batches, index, layout)?,
        };
        region.shape = [batches.shape(), &inner].concat();
    }
    let fill = match mode {
        AnyMode::Fill(fill) => Some(fill),
        _ => None,
    };
    let read_shape = [&region.shape[..], call.row_shape()].concat();
    let rows = target.clone().shaped(call.as_rows());
    let read = match on_device {
        None => gather(rows, region, fill),
        Some(on_device) => {
            let at = on_device.positions(&region, &mode, false, &rows.device())?;
            gather_on_device(rows, at, fill)
        }
    };
    let len = read.dims().iter().product::<usize>();
    Ok((read.shaped([len]), read_shape))
}

/// `flat[index] = value` (`op` `None`) or `flat[index] op= value`,
/// prepared for a tensor of `shape`: nothing runs until every check passed.
pub(crate) fn prepare_write<K: BurnKind>(
    flat: &Tensor<1, K>,
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    value: Value<'_, K::Elem>,
    mode: AnyMode<K::Elem>,
    op: Option<Op>,
) -> Result<Prepared<K>, BurnError> {
    // The mode first, as on an ndarray: before the device arrays' checks.
    prepare::update_mode(&mode)?;
    // The host plans with the CPU's passes, as an ndarray's call does.
    let passes = Machine::now().passes();
    if let Some(op) = op
        && K::Elem::supports(op)
        && !K::has(op)
    {
        return Err(unsupported::<K>(op));
    }
    let rows = Rows::of(index, shape, batch);
    let bounds = mode.bounds();
    let Some(on_device) = OnDevice::split(index, shape, batch, rows)? else {
        return prepare_planned(
            flat,
            Indexed { shape, index, batch, rows },
            Update { value, mode, op },
            None,
            &passes,
        );
    };
    let planned = Indexed {
        shape,
        index: on_device.whole(),
        batch,
        rows,
    };
    let update = Update {
        value: value.clone(),
        mode,
        op,
    };
    match prepare_planned(flat, planned, update, Some(&on_device), &passes) {
        // The stand-ins keep every position, so the host vetted operands
        // that mode `drop` may skip: the answer needs the indices
        // themselves, read back this once.
        Err(BurnError::Index(IndexError::DivisionByZero | IndexError::NegativeIntegerPower)) if bounds == Bounds::Skip => {
            let index = super::device::on_host(index)?;
            prepare_write(flat, shape, &index, batch, value, mode, op)
        }
        prepared => prepared.map_err(|e| on_device.real_error(e, bounds)),
    }
}

/// What a write writes: its value, in what mode, by which operation
/// (`None` for `=`).
struct Update<'v, T> {
    value: Value<'v, T>,
    mode: AnyMode<T>,
    op: Option<Op>,
}

/// [`prepare_write`] of the index the host plans, and the device arrays it
/// stands in for. The whole index is checked, and the value broadcast to
/// its region, element by element; the rows' index then places the rows.
/// Where device arrays alone place the region, the device checks them and
/// the host has only the value to broadcast and vet.
fn prepare_planned<K: BurnKind>(
    flat: &Tensor<1, K>,
    call: Indexed<'_, '_>,
    update: Update<'_, K::Elem>,
    on_device: Option<&OnDevice<'_>>,
    passes: &dyn IndexPasses,
) -> Result<Prepared<K>, BurnError> {
    let Update { value, mode, op } = update;
    let (shape, index, batch) = (call.shape, call.index, call.batch);
    let value = vetted_on_host::<K>(value, op)?;
    let zero = K::Elem::default();
    let host = host_form(&value, &zero);
    let device_shape = match &value {
        Value::Device(array) => array.shape().to_vec(),
        _ => Vec::new(),
    };
    let strides = c_strides(shape);
    let mut gathered = Gathered::new(&value);
    let mut count = 0;
    let (mut view, mut region_shape) = (None, Vec::new());
    let alone = on_device.and_then(OnDevice::alone_shape);
    if let Some(alone) = alone {
        region_shape = [alone, call.row_shape()].concat();
        count = checked_size(&region_shape)?;
        let values = prepare::placed_values(&region_shape, op, &host)?;
        gathered.push(&values, &region_shape, &device_shape, &[])?;
    } else if batch == 0 {
        let layout = Layout { shape, strides: &strides };
        let (plan, values) = prepare_one(index, layout, &mode, &host, op, passes)?;
        gathered.push(&values, plan.shape(), &device_shape, &[])?;
        count = plan.shape().iter().product();
        region_shape = plan.shape().to_vec();
        // A view holds each element once, so that burn's own rules are
        // right for every operation but a tie of `min` and `max`, whose
        // gradient is shared. (An `nd` point on the device plans as a view
        // of its stand-in's zeros: its own position is the device's.)
        if on_device.is_none() && !matches!(op, Some(Op::Min | Op::Max)) {
            view = slices::of(&plan);
        }
    } else {
        let batches = prepare::batch_update(batch, shape, index, &mode, Some(&host))?;
        let layout = Layout {
            shape: &shape[batch..],
            strides: &strides[batch..],
        };
        for at in batches.positions() {
            let index = batches.index_at(index, &at);
            let host = batches.value_at(&host, &at);
            let (plan, values) = prepare_one(&index, layout, &mode, &host, op, passes)?;
            gathered.push(&values, plan.shape(), &device_shape, &at)?;
            count += plan.shape().iter().product::<usize>();
        }
    }
    let device = match &value {
        Value::Device(array) => Some(flat_of::<K>(array)?),
        _ => None,
    };
    let fill = match (&value, op) {
        (Value::Scalar(scalar), None) => Some(*scalar),
        _ => None,
    };
    let values = to_tensor(gathered, if view.is_some() && fill.is_some() { 0 } else { count }, device, flat)?;
    let along = on_device.and_then(|on_device| on_device.along_axis(&mode).map(|axis| (on_device, axis)));
    let at = match (view, on_device, fill) {
        (Some(view), _, Some(scalar)) => Where::Fill(view, scalar),
        (Some(view), _, None) => Where::Slices(view),
        // burn's `scatter` adds in index order, and differentiates that.
        (None, Some(_), _) if along.is_some() && op.is_some_and(K::adds) => {
            let (on_device, axis) = along.expect("checked");
            Where::Along(Box::new(AlongAt {
                positions: on_device.along_positions(&mode)?,
                axis,
                shape: region_shape,
            }))
        }
        (None, on_device, _) => {
            let rows_shape = call.rows_shape();
            let region = match alone {
                Some(shape) => Region::placed_on_device(shape),
                None => plan_region(call.rows_index(), rows_shape, &c_strides(rows_shape), batch, &mode, passes)?,
            };
            match on_device {
                None => Where::Host(region),
                Some(on_device) => {
                    let rounds = runs_rounds_on_device::<K>(flat, op);
                    Where::Device(Box::new(on_device.positions(&region, &mode, rounds, &flat.device())?))
                }
            }
        }
    };
    Ok(Prepared {
        at,
        values,
        op,
        rows: call.as_rows(),
    })
}

/// Whether `op` on `flat` may run its rounds on the device: all but the
/// additive ones and, with autodiff, `min` and `max` (whose shared ties
/// need the positions' groups on the host). Their count is then read back
/// with the bounds, and [`write_on_device`] runs them where it is small.
fn runs_rounds_on_device<K: BurnKind>(flat: &Tensor<1, K>, op: Option<Op>) -> bool {
    let Some(op) = op else {
        return false;
    };
    let len = flat.dims()[0];
    let shares_ties = matches!(op, Op::Min | Op::Max) && K::on_autodiff(&flat.clone().shaped([len, 1]));
    !(K::adds(op) || shares_ties)
}

/// One region's write, prepared: its plan and its values.
fn prepare_one<'i, 'v, T: Arith>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
    op: Option<Op>,
    passes: &dyn IndexPasses,
) -> Result<(Plan<'i>, Broadcast<'v, T>), BurnError> {
    let update = match op {
        None => prepare::set_with(index, layout, mode, value, passes)?,
        Some(op) => prepare::update_with(index, layout, op, mode, value, passes)?,
    };
    Ok((update.plan, update.values))
}

/// A device value whose operands tensor-core vets (an integer divisor,
/// an integer power), read back so that a zero divisor is the CPU's error
/// before anything is written; any other value as it is. A device value
/// of a shape no array can address is refused.
fn vetted_on_host<K: BurnKind>(value: Value<'_, K::Elem>, op: Option<Op>) -> Result<Value<'_, K::Elem>, BurnError> {
    if let Value::Device(array) = &value {
        checked_size(array.shape())?;
    }
    let (Value::Device(array), Some(op)) = (&value, op) else {
        return Ok(value);
    };
    if !K::Elem::checks_operands(op) {
        return Ok(value);
    }
    let elements = host::data(flat_of::<K>(array)?.clone())
        .convert::<K::Elem>()
        .try_into_vec::<K::Elem>()
        .map_err(|error| BurnError::Unsupported {
            operation: "a device value",
            reason: format!("its elements could not be read: {error:?}"),
        })?;
    let array = ndarray::ArrayD::from_shape_vec(array.shape(), elements).expect("a tensor's elements fill its shape");
    Ok(Value::Array(array.into()))
}

/// A mask on the target itself, evaluated on the device.
pub(crate) fn mask_of<K: BurnKind, F>(flat: &Tensor<1, K>, predicate: &Predicate<'_, K::Elem, F>) -> Result<Tensor<1, Bool>, BurnError> {
    let steps = match predicate {
        Predicate::Compare { compare, scalar, .. } => return Ok(K::compare(flat.clone(), *compare, **scalar)),
        Predicate::Combined { steps, .. } => steps,
    };
    let mut stack: Vec<Tensor<1, Bool>> = Vec::with_capacity(2);
    let malformed = || BurnError::Unsupported {
        operation: "a mask",
        reason: "its steps are not in postfix order".into(),
    };
    for step in *steps {
        let mask = match step {
            Step::Compare(compare, scalar) => K::compare(flat.clone(), *compare, **scalar),
            Step::Not => stack.pop().ok_or_else(malformed)?.bool_not(),
            binary => {
                let (right, left) = (stack.pop().ok_or_else(malformed)?, stack.pop().ok_or_else(malformed)?);
                match binary {
                    Step::And => left.bool_and(right),
                    Step::Or => left.bool_or(right),
                    Step::Xor => left.bool_xor(right),
                    _ => return Err(malformed()),
                }
            }
        };
        stack.push(mask);
    }
    stack.pop().ok_or_else(malformed)
}

/// The positions a mask selects, read back (the one copy to the host).
pub(crate) fn selected(mask: Tensor<1, Bool>) -> Result<Region, IndexError> {
    let flags = host::data(mask)
        .convert::<bool>()
        .try_into_vec::<bool>()
        .expect("a mask's elements are booleans");
    let count = flags.iter().filter(|&&on| on).count();
    let mut offsets = memory::vec::<i64>(count).ok_or_else(|| prepare::too_large(&[count]))?;
    offsets.extend(flags.iter().enumerate().filter(|&(_, &on)| on).map(|(at, _)| at as i64));
    Ok(Region {
        shape: vec![count],
        offsets,
        skipped: Vec::new(),
        ..Region::default()
    })
}

/// `flat[mask] = value` or `flat[mask] op= value`.
pub(crate) fn write_where<K: BurnKind>(
    flat: Tensor<1, K>,
    mask: Tensor<1, Bool>,
    value: Value<'_, K::Elem>,
    op: Option<Op>,
) -> Result<Tensor<1, K>, BurnError> {
    if let Some(op) = op
        && K::Elem::supports(op)
        && !K::has(op)
    {
        return Err(unsupported::<K>(op));
    }
    // A scalar needs no positions: the mask picks between the old and the
    // new element, everywhere at once.
    if let (Value::Scalar(scalar), false) = (&value, op.is_some_and(K::Elem::checks_operands)) {
        if let Some(op) = op {
            prepare::update_where::<K::Elem, BurnError>(op, &value, || Ok(0))?;
        }
        return Ok(masked_scalar(flat, mask, *scalar, op));
    }
    let region = selected(mask)?;
    let value = vetted_on_host::<K>(value, op)?;
    let zero = K::Elem::default();
    let host = host_form(&value, &zero);
    let count = region.len();
    let values = match op {
        None => prepare::set_where::<K::Elem, BurnError>(&host, || Ok(count))?,
        Some(op) => prepare::update_where::<K::Elem, BurnError>(op, &host, || Ok(count))?,
    };
    let mut gathered = Gathered::new(&value);
    let device_shape = match &value {
        Value::Device(array) => array.shape().to_vec(),
        _ => Vec::new(),
    };
    gathered.push(&values, &[count], &device_shape, &[])?;
    let device = match &value {
        Value::Device(array) => Some(flat_of::<K>(array)?),
        _ => None,
    };
    let values = to_tensor(gathered, count, device, &flat)?.shaped([count, 1]);
    let len = flat.dims()[0];
    Ok(write(flat.shaped([len, 1]), region, values, op).shaped([len]))
}

/// `flat[mask]`, the mask read back: the elements read, and their shape.
pub(crate) fn read_where<K: BurnKind>(flat: Tensor<1, K>, mask: Tensor<1, Bool>) -> Result<(Tensor<1, K>, Vec<usize>), IndexError> {
    let region = selected(mask)?;
    let (len, shape) = (flat.dims()[0], region.shape.clone());
    let read = gather(flat.shaped([len, 1]), region, None);
    Ok((read.shaped([shape[0]]), shape))
}

/// `flat[mask] = scalar` or `flat[mask] op= scalar` without reading the
/// mask back. The unselected elements enter `op` as ones, so that no
/// gradient of theirs is a NaN that the mask would multiply by zero.
fn masked_scalar<K: BurnKind>(flat: Tensor<1, K>, mask: Tensor<1, Bool>, scalar: K::Elem, op: Option<Op>) -> Tensor<1, K> {
    let Some(op) = op else {
        return flat.mask_fill(mask, scalar);
    };
    let (device, dtype, len) = (flat.device(), flat.dtype(), flat.dims()[0]);
    let base = flat.clone().mask_fill(mask.clone().bool_not(), K::ONE).shaped([len, 1]);
    let scalars = Tensor::full([len, 1], scalar, (&device, dtype));
    let combined = K::combine(base, op, scalars).expect("a supported operation");
    flat.mask_where(mask, combined.shaped([len]))
}
