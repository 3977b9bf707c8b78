//! Values written into a burn tensor: scalars and host arrays (checked and
//! broadcast by tensor-core, then uploaded), and burn tensors, which stay
//! on their device: tensor-core checks their shape through a stand-in,
//! and each region element then picks its value's element by position, so
//! that autodiff sends each value element the gradients of every position
//! it was broadcast to.

use std::sync::Arc;

use crate::backend::{Broadcast, DeviceArray};
use crate::error::IndexError;
use crate::memory;
use crate::plan::checked_size;
use crate::prepare;
use crate::value::{IntoValue, Value};
use burn_tensor::Tensor;
use ndarray::{ArrayD, ArrayViewD, Axis, IxDyn, ShapeBuilder};

use super::error::BurnError;
use super::kind::{BurnKind, positions, upload};
use super::reshape::Reshaped;

/// A burn tensor as a value or an index array: viewed as one axis, its
/// shape beside it in the [`DeviceArray`] that holds it.
pub(crate) struct Flat<K: BurnKind> {
    pub(crate) tensor: Tensor<1, K>,
    /// Whether the caller promised that its elements are distinct
    /// ([`unique`](super::unique)).
    pub(crate) distinct: bool,
}

/// A burn tensor as the device array tensor-core carries.
pub(crate) fn device_array<'a, const D: usize, K: BurnKind>(tensor: Tensor<D, K>) -> DeviceArray<'a> {
    flat_array(tensor, false)
}

/// [`device_array`], promised distinct or not.
pub(crate) fn flat_array<'a, const D: usize, K: BurnKind>(tensor: Tensor<D, K>, distinct: bool) -> DeviceArray<'a> {
    let shape = tensor.dims().to_vec();
    // An empty tensor's other lengths may multiply past a usize; the call
    // refuses its shape (`checked_size`) before anything reads it.
    let len = if shape.contains(&0) { 0 } else { shape.iter().product::<usize>() };
    let tensor = tensor.shaped([len]);
    DeviceArray::shared(shape, Arc::new(Flat { tensor, distinct }))
}

/// `x[idx] = v`, `x[idx] += v` with `v` a burn tensor of the target's kind,
/// broadcast as NumPy broadcasts.
#[diagnostic::do_not_recommend]
impl<'a, const D: usize, K: BurnKind> IntoValue<'a, K::Elem> for Tensor<D, K>
where
    Tensor<D, K>: super::target::Ranked,
{
    type Dim = <Tensor<D, K> as super::target::Ranked>::Dim;
    fn into_value(self) -> Value<'a, K::Elem> {
        Value::Device(device_array(self))
    }
}

/// A borrowed burn tensor as a value: the tensor is not consumed.
#[diagnostic::do_not_recommend]
impl<'a, const D: usize, K: BurnKind> IntoValue<'a, K::Elem> for &Tensor<D, K>
where
    Tensor<D, K>: super::target::Ranked,
{
    type Dim = <Tensor<D, K> as super::target::Ranked>::Dim;
    fn into_value(self) -> Value<'a, K::Elem> {
        Value::Device(device_array(self.clone()))
    }
}

/// The burn tensor a device value holds.
pub(crate) fn flat_of<'v, K: BurnKind>(array: &'v DeviceArray<'_>) -> Result<&'v Tensor<1, K>, BurnError> {
    array.downcast::<Flat<K>>().map(|flat| &flat.tensor).ok_or(BurnError::Unsupported {
        operation: "a device value",
        reason: format!("a value on the device is a burn tensor of the target's kind ({})", K::NAME),
    })
}

/// A value as tensor-core checks it: a device value by its shape alone
/// (one element, `zero`, broadcast), the others as they are.
pub(crate) fn host_form<'v, T: Copy>(value: &'v Value<'_, T>, zero: &'v T) -> Value<'v, T> {
    match value {
        Value::Scalar(scalar) => Value::Scalar(*scalar),
        Value::Array(array) => Value::Array(array.view().into()),
        Value::Device(array) => {
            let layout = IxDyn(array.shape()).strides(IxDyn(&vec![0; array.shape().len()]));
            Value::Array(
                ArrayViewD::from_shape(layout, std::slice::from_ref(zero))
                    .expect("zero strides read one element")
                    .into(),
            )
        }
    }
}

/// The values of a region, gathered on the host or as positions into a
/// device value.
pub(crate) enum Gathered<T> {
    /// One element for every position.
    Scalar(T),
    /// Each position's element, in region order.
    Host(Vec<T>),
    /// Each position's element of the device value, by its position there.
    Device(Vec<i64>),
    /// The device value repeated this many times: its shape, leading ones
    /// aside, is the region's trailing shape (once: the region's shape).
    Tiled(usize),
}

impl<T: Copy> Gathered<T> {
    /// Nothing gathered yet, for `value`.
    pub(crate) fn new(value: &Value<'_, T>) -> Self {
        match value {
            Value::Scalar(scalar) => Gathered::Scalar(*scalar),
            Value::Array(_) => Gathered::Host(Vec::new()),
            Value::Device(_) => Gathered::Device(Vec::new()),
        }
    }

    /// Adds the values of one region (a batch's), prepared as `values` for
    /// a region of `shape`; `device` is the device value's shape and
    /// `batch_at` the batch position whose share of it this region takes.
    /// [`IndexError::TooLarge`] where memory cannot hold one value (or
    /// position) per element: a region an ndarray's call writes in place
    /// may be far larger than its value.
    pub(crate) fn push(
        &mut self,
        values: &Broadcast<'_, T>,
        shape: &[usize],
        device: &[usize],
        batch_at: &[usize],
    ) -> Result<(), IndexError> {
        if let Gathered::Device(out) = self
            && out.is_empty()
            && batch_at.is_empty()
            && let Some(times) = tiles(device, shape)
        {
            *self = Gathered::Tiled(times);
            return Ok(());
        }
        let count = checked_size(shape)?;
        let too_large = || prepare::too_large(shape);
        match (self, values) {
            (Gathered::Scalar(_) | Gathered::Tiled(_), _) => {}
            (Gathered::Host(out), Broadcast::Scalar(scalar)) => {
                memory::reserve(out, count).ok_or_else(too_large)?;
                out.extend(std::iter::repeat_n(**scalar, count));
            }
            (Gathered::Host(out), Broadcast::Array { view, shape: to }) => {
                memory::reserve(out, count).ok_or_else(too_large)?;
                out.extend(view.broadcast(to.clone()).expect("prepared to broadcast").iter().copied());
            }
            (Gathered::Device(out), _) => {
                // The batch position's share, at 0 along axes of length one:
                // where it starts, and its shape.
                let strides = super::region::c_strides(device);
                let mut first = 0;
                for ((&position, &len), &stride) in batch_at.iter().zip(device).zip(&strides) {
                    first += if len == 1 { 0 } else { position as isize * stride };
                }
                let share = &device[batch_at.len().min(device.len())..];
                // (The device value's shape is addressable: `vetted_on_host`.)
                let len = share.iter().product::<usize>();
                let mut own = memory::vec(len).ok_or_else(too_large)?;
                own.extend(first as i64..first as i64 + len as i64);
                let mut at = ArrayD::from_shape_vec(IxDyn(share), own).expect("one position per element");
                // Leading axes of length one are dropped (as tensor-core
                // drops them) until the value fits the region.
                while at.ndim() > shape.len() && at.shape()[0] == 1 {
                    at = at.index_axis_move(Axis(0), 0);
                }
                memory::reserve(out, count).ok_or_else(too_large)?;
                out.extend(at.broadcast(IxDyn(shape)).expect("prepared to broadcast").iter().copied());
            }
        }
        Ok(())
    }
}

/// How many times a value of shape `value` repeats to fill a region of
/// `shape`, when its shape is the region's trailing one (leading ones
/// aside); `None` when it broadcasts otherwise.
fn tiles(value: &[usize], shape: &[usize]) -> Option<usize> {
    let first = value.iter().position(|&len| len != 1).unwrap_or(value.len());
    let value = &value[first..];
    let lead = shape.len().checked_sub(value.len())?;
    (shape[lead..] == *value).then(|| shape[..lead].iter().product())
}

/// The gathered values of `len` region elements as a tensor like `like`
/// (its device and data type); `device` is the device value, if any.
pub(crate) fn to_tensor<K: BurnKind>(
    gathered: Gathered<K::Elem>,
    len: usize,
    device: Option<&Tensor<1, K>>,
    like: &Tensor<1, K>,
) -> Result<Tensor<1, K>, BurnError> {
    let (on, dtype) = (like.device(), like.dtype());
    Ok(match gathered {
        Gathered::Scalar(scalar) => Tensor::full([len], scalar, (&on, dtype)),
        Gathered::Host(values) => upload(values, &on, dtype),
        Gathered::Tiled(_) | Gathered::Device(_) => {
            let value = device.expect("a device value").clone();
            if value.dtype() != dtype {
                return Err(BurnError::DataType {
                    value: value.dtype(),
                    target: dtype,
                });
            }
            let at = match gathered {
                Gathered::Tiled(1) => return Ok(value),
                Gathered::Tiled(times) => {
                    let len = value.dims()[0];
                    return Ok(value.shaped([1, len]).expanded([times, len]).shaped([times * len]));
                }
                // Batch by batch, each share of the value in its place.
                Gathered::Device(at) if at.len() == value.dims()[0] && at.iter().zip(0..).all(|(&at, k)| at == k) => {
                    return Ok(value);
                }
                Gathered::Device(at) => at,
                _ => unreachable!("a device value gathers positions or tiles"),
            };
            if at.is_empty() {
                return Ok(Tensor::empty([0], (&on, dtype)));
            }
            value.select(0, positions(at, &on))
        }
    })
}
