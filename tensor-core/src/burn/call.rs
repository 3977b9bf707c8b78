//! One call of the macros on a burn tensor viewed as one axis: tensor-core
//! prepares it (every rule and error, in NumPy's order, before anything
//! runs), the plans become a [`Region`], and [`super::flat`] runs it with
//! burn's operations.

use crate::backend::plan::Plan;
use crate::backend::prepare::{self, Layout};
use crate::backend::{AnyMode, Broadcast, Predicate, Step};
use crate::element::Arith;
use crate::element::Op;
use crate::index::IndexElem;
use crate::value::Value;
use burn_tensor::{Bool, Tensor};

use super::device::{DeviceRegion, OnDevice, StandIns};
use super::error::BurnError;
use super::flat::{gather, gather_on_device, write, write_on_device};
use super::host;
use super::kind::{BurnKind, unsupported};
use super::region::{Region, c_strides};
use super::value::{Gathered, flat_of, host_form, to_tensor};

/// Where a call reads or writes: positions known on the host, or
/// computed on the device from index arrays there.
pub(crate) enum Where {
    /// Known on the host.
    Host(Region),
    /// On the device.
    Device(Box<DeviceRegion>),
}

/// A write, prepared: where, and the value of each position.
pub(crate) struct Prepared<K: BurnKind> {
    at: Where,
    values: Tensor<1, K>,
    op: Option<Op>,
}

impl<K: BurnKind> Prepared<K> {
    /// Runs the write on the target `flat`; it cannot fail.
    pub(crate) fn run(self, flat: Tensor<1, K>) -> Tensor<1, K> {
        match self.at {
            Where::Host(region) => write(flat, region, self.values, self.op),
            Where::Device(region) => write_on_device(flat, *region, self.values, self.op),
        }
    }
}

/// The plan of `index` on a target of `shape` and `strides` with `batch`
/// paired axes, as a region, in mode `error`, with no value: where a device
/// array's elements are read ([`OnDevice`]).
pub(crate) fn probe(index: &[IndexElem<'_>], shape: &[usize], strides: &[isize], batch: usize) -> Result<Region, BurnError> {
    let mode = AnyMode::<i64>::Error;
    let mut region = Region::default();
    let layout = Layout {
        shape: &shape[batch..],
        strides: &strides[batch..],
    };
    if batch == 0 {
        region.push(&prepare::apply(index, layout, &mode)?, 0, strides);
        return Ok(region);
    }
    let batches = prepare::batch_update(batch, shape, index, &mode, None)?;
    for at in batches.positions() {
        let index = batches.index_at(index, &at);
        region.push(&prepare::apply(&index, layout, &mode)?, batch_base(&at, strides), layout.strides);
    }
    Ok(region)
}

/// Adds the elements of an unbatched `plan` to `region`. Those of a lone
/// device array are all at zero: the array's elements alone place them.
fn push_plan(region: &mut Region, plan: &Plan<'_>, strides: &[isize], on_device: Option<&OnDevice<'_>>) {
    if on_device.is_some_and(OnDevice::is_lone) {
        region.offsets = vec![0; plan.shape().iter().product()];
        region.skipped.clear();
    } else {
        region.push(plan, 0, strides);
    }
}

/// The offset of batch position `at` in a target of `strides`.
fn batch_base(at: &[usize], strides: &[isize]) -> isize {
    at.iter().zip(strides).map(|(&at, &stride)| at as isize * stride).sum()
}

/// `flat[index]` for a tensor of `shape`: the elements read, and the
/// read's shape.
pub(crate) fn read<K: BurnKind>(
    flat: Tensor<1, K>,
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    mode: AnyMode<K::Elem>,
) -> Result<(Tensor<1, K>, Vec<usize>), BurnError> {
    let stand_ins = StandIns::for_index(index);
    match OnDevice::split(index, &stand_ins, shape, batch)? {
        None => read_planned(flat, shape, index, batch, mode, None),
        Some(on_device) => read_planned(flat, shape, on_device.planned(), batch, mode, Some(&on_device)),
    }
}

/// [`read`] of the index the host plans, and the device arrays it stands
/// in for.
fn read_planned<K: BurnKind>(
    flat: Tensor<1, K>,
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    mode: AnyMode<K::Elem>,
    on_device: Option<&OnDevice<'_>>,
) -> Result<(Tensor<1, K>, Vec<usize>), BurnError> {
    let strides = c_strides(shape);
    let layout = Layout {
        shape: &shape[batch.min(shape.len())..],
        strides: &strides[batch.min(shape.len())..],
    };
    let mut region = Region::default();
    if batch == 0 {
        let plan = prepare::read(index, layout, &mode)?;
        region.shape = plan.shape().to_vec();
        push_plan(&mut region, &plan, &strides, on_device);
    } else {
        let batches = prepare::batch_read(batch, shape, index, &mode)?;
        let mut inner = None;
        for at in batches.positions() {
            let index = batches.index_at(index, &at);
            let plan = prepare::read(&index, layout, &mode)?;
            inner = Some(plan.shape().to_vec());
            region.push(&plan, batch_base(&at, &strides), layout.strides);
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
    let shape_of_read = region.shape.clone();
    let read = match on_device {
        None => gather(flat, region, fill),
        Some(on_device) => {
            let at = on_device.positions(&region, shape, batch, &mode, &flat.device())?;
            gather_on_device(flat, at, fill)
        }
    };
    Ok((read, shape_of_read))
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
    if let Some(op) = op
        && K::Elem::supports(op)
        && !K::has(op)
    {
        return Err(unsupported::<K>(op));
    }
    let stand_ins = StandIns::for_index(index);
    match OnDevice::split(index, &stand_ins, shape, batch)? {
        None => prepare_planned(flat, shape, index, batch, Update { value, mode, op }, None),
        Some(on_device) => prepare_planned(
            flat,
            shape,
            on_device.planned(),
            batch,
            Update { value, mode, op },
            Some(&on_device),
        ),
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
/// stands in for.
fn prepare_planned<K: BurnKind>(
    flat: &Tensor<1, K>,
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    update: Update<'_, K::Elem>,
    on_device: Option<&OnDevice<'_>>,
) -> Result<Prepared<K>, BurnError> {
    let Update { value, mode, op } = update;
    let value = vetted_on_host::<K>(value, op)?;
    let zero = K::Elem::default();
    let host = host_form(&value, &zero);
    let device_shape = match &value {
        Value::Device(array) => array.shape().to_vec(),
        _ => Vec::new(),
    };
    let strides = c_strides(shape);
    let mut region = Region::default();
    let mut gathered = Gathered::new(&value);
    if batch == 0 {
        let layout = Layout { shape, strides: &strides };
        let (plan, values) = prepare_one(index, layout, &mode, &host, op)?;
        gathered.push(&values, plan.shape(), &device_shape, &[]);
        region.shape = plan.shape().to_vec();
        push_plan(&mut region, &plan, &strides, on_device);
    } else {
        let batches = prepare::batch_update(batch, shape, index, &mode, Some(&host))?;
        let layout = Layout {
            shape: &shape[batch..],
            strides: &strides[batch..],
        };
        for at in batches.positions() {
            let index = batches.index_at(index, &at);
            let host = batches.value_at(&host, &at);
            let (plan, values) = prepare_one(&index, layout, &mode, &host, op)?;
            gathered.push(&values, plan.shape(), &device_shape, &at);
            region.push(&plan, batch_base(&at, &strides), layout.strides);
        }
    }
    let device = match &value {
        Value::Device(array) => Some(flat_of::<K>(array)?),
        _ => None,
    };
    let values = to_tensor(gathered, region.len(), device, flat)?;
    let at = match on_device {
        None => Where::Host(region),
        Some(on_device) => Where::Device(Box::new(on_device.positions(&region, shape, batch, &mode, &flat.device())?)),
    };
    Ok(Prepared { at, values, op })
}

/// One region's write, prepared: its plan and its values.
fn prepare_one<'i, 'v, T: Arith>(
    index: &'i [IndexElem<'_>],
    layout: Layout<'_>,
    mode: &AnyMode<T>,
    value: &'v Value<'_, T>,
    op: Option<Op>,
) -> Result<(Plan<'i>, Broadcast<'v, T>), BurnError> {
    let update = match op {
        None => prepare::set(index, layout, mode, value)?,
        Some(op) => prepare::update(index, layout, op, mode, value)?,
    };
    Ok((update.plan, update.values))
}

/// A device value whose operands tensor-core vets (an integer divisor,
/// an integer power), read back so that a zero divisor is the CPU's error
/// before anything is written; any other value as it is.
fn vetted_on_host<K: BurnKind>(value: Value<'_, K::Elem>, op: Option<Op>) -> Result<Value<'_, K::Elem>, BurnError> {
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
pub(crate) fn selected(mask: Tensor<1, Bool>) -> Region {
    let flags = host::data(mask)
        .convert::<bool>()
        .try_into_vec::<bool>()
        .expect("a mask's elements are booleans");
    let offsets: Vec<i64> = flags.iter().enumerate().filter(|&(_, &on)| on).map(|(at, _)| at as i64).collect();
    Region {
        shape: vec![offsets.len()],
        offsets,
        skipped: Vec::new(),
    }
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
    let region = selected(mask);
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
    gathered.push(&values, &[count], &device_shape, &[]);
    let device = match &value {
        Value::Device(array) => Some(flat_of::<K>(array)?),
        _ => None,
    };
    let values = to_tensor(gathered, count, device, &flat)?;
    Ok(write(flat, region, values, op))
}

/// `flat[mask] = scalar` or `flat[mask] op= scalar` without reading the
/// mask back. The unselected elements enter `op` as ones, so that no
/// gradient of theirs is a NaN that the mask would multiply by zero.
fn masked_scalar<K: BurnKind>(flat: Tensor<1, K>, mask: Tensor<1, Bool>, scalar: K::Elem, op: Option<Op>) -> Tensor<1, K> {
    let Some(op) = op else {
        return flat.mask_fill(mask, scalar);
    };
    let (device, dtype, len) = (flat.device(), flat.dtype(), flat.dims()[0]);
    let base = flat.clone().mask_fill(mask.clone().bool_not(), K::ONE);
    let combined = K::combine(base, op, Tensor::full([len], scalar, (&device, dtype))).expect("a supported operation");
    flat.mask_where(mask, combined)
}
