//! Index arrays that are burn tensors (`Tensor<N, Int>`, in `x[idx]`,
//! `nd(idx)`, `along(idx, k)`) and masks that are (`Tensor<N, Bool>`, or a
//! comparison of a burn tensor).
//!
//! The host plans with each integer array replaced by zeros of its shape:
//! every rule and error but the arrays' bounds, in NumPy's order, and the
//! positions every other element contributes. Where each region element
//! reads each array is found by planning once more per array, with the
//! array replaced by its own positions on a target whose strides are zero
//! but along the array's axis: the plan's offsets are then positions in
//! the array. The device gathers the arrays' elements there, resolves them
//! by the mode, and adds them, times their axis's stride, to the host's
//! offsets. In mode `error` one flag is read back. A mask is read back (its
//! count decides the region's shape) and indexes as a host mask.

use burn_tensor::{Bool, DType, Int, IntDType, Tensor};
use ndarray::{ArrayD, IxDyn, ShapeBuilder};

use super::error::BurnError;
use super::host;
use super::kind::positions;
use super::region::Region;
use super::value::Flat;
use crate::backend::{AnyMode, Bounds, DeviceArray, DeviceForm};
use crate::error::IndexError;
use crate::index::{IndexElem, IntArray};
use crate::prepare;

/// The positions of a region on the device: each element's position in
/// the flattened target, and which the mode skipped.
pub(crate) struct DeviceRegion {
    /// Each element's position (0 for a skipped one).
    pub(crate) positions: Tensor<1, Int>,
    /// Which elements the mode skipped, if it can skip.
    pub(crate) skipped: Option<Tensor<1, Bool>>,
    /// The number of elements.
    pub(crate) len: usize,
}

/// One device array of an index (a column of one, for `nd`) and the
/// target axis it indexes.
struct Placed {
    /// The array's elements, as one axis.
    flat: Tensor<1, Int>,
    /// Which element of the index it is.
    element: usize,
    /// For `nd`: the column, and the number of columns.
    column: Option<(usize, usize)>,
    /// The target axis it indexes (under `; batch = k`, among all axes).
    axis: usize,
}

/// An index holding burn tensors, split for the host to plan.
pub(crate) struct OnDevice<'t> {
    planned: Vec<IndexElem<'t>>,
    arrays: Vec<Placed>,
}

/// The burn tensor of integers a device index array holds.
fn int_tensor(array: &DeviceArray<'_>) -> Result<Tensor<1, Int>, BurnError> {
    let flat = array.downcast::<Flat<Int>>().ok_or(BurnError::Unsupported {
        operation: "a device index array",
        reason: "an index array on the device is a burn tensor of kind Int".into(),
    })?;
    Ok(flat.0.clone().cast(IntDType::I64))
}

/// Zeros of `shape` (one element, broadcast), standing in for an array.
fn zeros<'z>(shape: &[usize]) -> IntArray<'z> {
    static ZERO: usize = 0;
    let layout = IxDyn(shape).strides(IxDyn(&vec![0; shape.len()]));
    IntArray::Usize(
        ndarray::ArrayViewD::from_shape(layout, std::slice::from_ref(&ZERO))
            .expect("zero strides read one element")
            .into(),
    )
}

/// Each element's position in an array of `shape` (for `nd`, the point's
/// in column `column` of `depth`, zeros in the others).
fn own_positions<'z>(shape: &[usize], column: Option<(usize, usize)>) -> IntArray<'z> {
    let len = shape.iter().product::<usize>();
    let values: Vec<i64> = match column {
        None => (0..len as i64).collect(),
        Some((c, depth)) => (0..len).map(|at| if at % depth == c { (at / depth) as i64 } else { 0 }).collect(),
    };
    IntArray::I64(
        ArrayD::from_shape_vec(IxDyn(shape), values)
            .expect("one position per element")
            .into(),
    )
}

impl<'t> OnDevice<'t> {
    /// `index` on a target of `shape` with `batch` paired axes, split for
    /// planning; `None` when no element of it is on the device.
    pub(crate) fn split(index: &[IndexElem<'t>], shape: &[usize], batch: usize) -> Result<Option<Self>, BurnError> {
        if !index.iter().any(|elem| matches!(elem, IndexElem::Device { .. })) {
            return Ok(None);
        }
        let mut planned = Vec::with_capacity(index.len());
        let mut devices = Vec::new();
        for elem in index {
            let IndexElem::Device { array, form } = elem else {
                planned.push(elem.clone());
                continue;
            };
            if *form == DeviceForm::Mask {
                planned.push(IndexElem::Mask(host_mask(array)?.into()));
                continue;
            }
            let flat = int_tensor(array)?;
            let array_shape = array.shape();
            match *form {
                // A zero-dimensional array indexes as an integer (as in
                // NumPy): its value is read back.
                DeviceForm::Array if array_shape.is_empty() => {
                    planned.push(IndexElem::Int(host::scalar::<i64, Int>(flat).into()));
                    continue;
                }
                DeviceForm::Array => planned.push(IndexElem::Array(zeros(array_shape))),
                DeviceForm::Nd => planned.push(IndexElem::Nd(zeros(array_shape))),
                DeviceForm::Along(axis) => planned.push(IndexElem::Along {
                    index: zeros(array_shape),
                    axis,
                }),
                _ => {
                    return Err(BurnError::Unsupported {
                        operation: "a device index",
                        reason: "a form this version of the adapter does not know".into(),
                    });
                }
            }
            devices.push((planned.len() - 1, flat, array_shape.to_vec(), *form));
        }
        let ndim = shape.len().saturating_sub(batch);
        let axes = prepare::first_axes(&planned, ndim)?;
        let mut arrays = Vec::new();
        for (element, flat, array_shape, form) in devices {
            match form {
                DeviceForm::Nd => {
                    let depth = array_shape.last().copied().unwrap_or(0);
                    for c in 0..depth {
                        arrays.push(Placed {
                            flat: flat.clone(),
                            element,
                            column: Some((c, depth)),
                            axis: batch + axes[element] + c,
                        });
                    }
                }
                DeviceForm::Along(axis) => {
                    // An axis out of range: the host's plan reports it.
                    let axis = if axis < 0 { axis + ndim as isize } else { axis };
                    let axis = usize::try_from(axis).unwrap_or(0).min(ndim.saturating_sub(1));
                    arrays.push(Placed {
                        flat,
                        element,
                        column: None,
                        axis: batch + axis,
                    });
                }
                _ => arrays.push(Placed {
                    flat,
                    element,
                    column: None,
                    axis: batch + axes[element],
                }),
            }
        }
        Ok(Some(OnDevice { planned, arrays }))
    }

    /// The index the host plans.
    pub(crate) fn planned(&self) -> &[IndexElem<'t>] {
        &self.planned
    }

    /// The region's positions once the device arrays are added to the
    /// host's plan `host` of a target of `shape`, resolved by `mode`.
    pub(crate) fn positions<T>(
        &self,
        host: &Region,
        shape: &[usize],
        batch: usize,
        mode: &AnyMode<T>,
        device: &burn_tensor::Device,
    ) -> Result<DeviceRegion, BurnError> {
        let strides = super::region::c_strides(shape);
        let bounds = mode.bounds();
        let mut at = positions(host.offsets.clone(), device);
        let mut skipped = (!host.skipped.is_empty()).then(|| {
            let len = host.skipped.len();
            Tensor::<1, Bool>::from_data(burn_tensor::TensorData::new(host.skipped.clone(), [len]), device)
        });
        let mut faults = Vec::new();
        for placed in &self.arrays {
            let len = shape[placed.axis];
            let reads = self.reads(placed, shape, batch)?;
            let elements = placed.flat.clone().select(0, positions(reads, device));
            let resolved = resolve(elements.clone(), len, bounds);
            at = at + resolved.position.mul_scalar(strides[placed.axis] as i64);
            if let Some(skip) = resolved.skipped {
                skipped = Some(match skipped {
                    Some(before) => before.bool_or(skip),
                    None => skip,
                });
            }
            if let Some(fault) = resolved.fault {
                faults.push((placed.axis, len, elements, fault));
            }
        }
        if let Some(error) = first_fault(faults)? {
            return Err(error.into());
        }
        Ok(DeviceRegion {
            positions: at,
            skipped,
            len: host.len(),
        })
    }

    /// Where each region element reads `placed`: the plan of the index
    /// with the array replaced by its own positions, on a target whose
    /// strides are zero but along the array's axis.
    fn reads(&self, placed: &Placed, shape: &[usize], batch: usize) -> Result<Vec<i64>, BurnError> {
        let mut probe = self.planned.clone();
        let own = match &probe[placed.element] {
            IndexElem::Array(array) => IndexElem::Array(own_positions(array.shape(), None)),
            IndexElem::Nd(array) => IndexElem::Nd(own_positions(array.shape(), placed.column)),
            IndexElem::Along { index, axis } => IndexElem::Along {
                index: own_positions(index.shape(), None),
                axis: *axis,
            },
            _ => unreachable!("a stand-in of a device array"),
        };
        let elements = |array: &IntArray<'_>| array.shape().iter().product::<usize>();
        let count = match (&own, placed.column) {
            (IndexElem::Nd(array), Some((_, depth))) => elements(array) / depth.max(1),
            (IndexElem::Nd(array) | IndexElem::Array(array), _) => elements(array),
            (IndexElem::Along { index, .. }, _) => elements(index),
            _ => 0,
        };
        probe[placed.element] = own;
        let mut probe_shape = shape.to_vec();
        probe_shape[placed.axis] = count.max(1);
        let mut strides = vec![0; shape.len()];
        strides[placed.axis] = 1;
        let region = super::call::probe(&probe, &probe_shape, &strides, batch)?;
        Ok(match placed.column {
            Some((c, depth)) => region.offsets.iter().map(|&point| point * depth as i64 + c as i64).collect(),
            None => region.offsets,
        })
    }
}

/// A device mask, read back: its count decides the region's shape.
fn host_mask(array: &DeviceArray<'_>) -> Result<ArrayD<bool>, BurnError> {
    let flat = array.downcast::<Flat<Bool>>().ok_or(BurnError::Unsupported {
        operation: "a device mask",
        reason: "a mask on the device is a burn tensor of kind Bool".into(),
    })?;
    let flags = host::data(flat.0.clone()).convert_dtype(DType::Bool(burn_tensor::BoolStore::Native));
    let flags = flags.try_into_vec::<bool>().map_err(|error| BurnError::Unsupported {
        operation: "a device mask",
        reason: format!("its elements could not be read: {error:?}"),
    })?;
    Ok(ArrayD::from_shape_vec(IxDyn(array.shape()), flags).expect("a mask's elements fill its shape"))
}

/// Device indices resolved on an axis: positions, and what the mode made
/// of the ones out of bounds.
struct Resolved {
    position: Tensor<1, Int>,
    skipped: Option<Tensor<1, Bool>>,
    fault: Option<Tensor<1, Bool>>,
}

/// `indices` on an axis of `len`, as [`Bounds::resolve`] resolves each.
fn resolve(indices: Tensor<1, Int>, len: usize, bounds: Bounds) -> Resolved {
    let n = len as i64;
    let outside = indices
        .clone()
        .greater_equal_elem(-n)
        .bool_and(indices.clone().lower_elem(n))
        .bool_not();
    let counted = indices
        .clone()
        .mask_where(indices.clone().lower_elem(0), indices.clone().add_scalar(n));
    let inside = counted.mask_fill(outside.clone(), 0);
    match bounds {
        // An empty axis has no position to clamp or wrap to.
        Bounds::Clip | Bounds::Wrap if len == 0 => Resolved {
            position: inside,
            skipped: None,
            fault: Some(outside),
        },
        Bounds::Clip => Resolved {
            position: inside.mask_where(outside, indices.clamp(0, n - 1)),
            skipped: None,
            fault: None,
        },
        Bounds::Wrap => Resolved {
            position: indices.remainder_scalar(n),
            skipped: None,
            fault: None,
        },
        Bounds::Skip => Resolved {
            position: inside,
            skipped: Some(outside),
            fault: None,
        },
        _ => Resolved {
            position: inside,
            skipped: None,
            fault: Some(outside),
        },
    }
}

/// The first index out of bounds among the arrays' faults, in index
/// order: one flag read back, and the offending array only on error.
fn first_fault(faults: Vec<(usize, usize, Tensor<1, Int>, Tensor<1, Bool>)>) -> Result<Option<IndexError>, BurnError> {
    let Some(any) = faults.iter().map(|(.., fault)| fault.clone().any()).reduce(|a, b| a.bool_or(b)) else {
        return Ok(None);
    };
    if !host::scalar::<bool, Bool>(any) {
        return Ok(None);
    }
    for (axis, len, elements, fault) in faults {
        let flags = host::data(fault)
            .convert_dtype(DType::Bool(burn_tensor::BoolStore::Native))
            .try_into_vec::<bool>();
        let Some(first) = flags.ok().and_then(|flags| flags.iter().position(|&out| out)) else {
            continue;
        };
        let values = host::data(elements).convert::<i64>().try_into_vec::<i64>().unwrap_or_default();
        return Ok(Some(IndexError::OutOfBounds {
            index: values.get(first).copied().unwrap_or_default().into(),
            axis,
            len,
        }));
    }
    Ok(None)
}
