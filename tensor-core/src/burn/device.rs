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
//! the array (unless arrays alone index, each read in its own order). The
//! device gathers the arrays' elements there, resolves them by the mode,
//! and adds them, times their axis's stride, to the host's offsets. In
//! mode `error` the arrays' extremes are read back, in one copy. A mask is
//! read back (its count decides the region's shape) and indexes as a host
//! mask.

use burn_tensor::{Bool, DType, Int, IntDType, Tensor};
use ndarray::{ArrayD, IxDyn};

use super::error::BurnError;
use super::host;
use super::kind::positions;
use super::region::{Region, c_strides, stand_in_mode};
use super::reshape::Reshaped;
use super::rows::Rows;
use super::value::Flat;
use crate::backend::plan::Plan;
use crate::backend::{AnyMode, Bounds, DeviceArray, DeviceForm};
use crate::error::IndexError;
use crate::index::{IndexElem, IntArray, with_int_array};
use crate::memory;
use crate::plan::checked_size;
use crate::prepare::{self, DeviceAxes};

/// The positions of a region on the device: each element's position in
/// the target's rows, and which the mode skipped.
pub(crate) struct DeviceRegion {
    /// Each element's position (0 for a skipped one).
    pub(crate) positions: Tensor<1, Int>,
    /// Which elements the mode skipped, if it can skip.
    pub(crate) skipped: Option<Tensor<1, Bool>>,
    /// The number of elements.
    pub(crate) len: usize,
    /// The most occurrences of one position, where the call asked.
    pub(crate) rounds: Option<usize>,
    /// Whether the positions were promised distinct.
    pub(crate) distinct: bool,
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
    /// The array's shape.
    shape: Vec<usize>,
    /// Whether its elements were promised distinct.
    distinct: bool,
    /// Whether it indexes as integers (a single `nd` point).
    integer: bool,
}

/// An index holding burn tensors, split for the host to plan.
pub(crate) struct OnDevice<'t> {
    /// The whole index as the host checks it, stand-ins in place.
    planned: Vec<IndexElem<'t>>,
    arrays: Vec<Placed>,
    /// The elements that address the target's rows ([`Rows`]).
    kept: usize,
    /// The shape of the rows' axes (the leading axes).
    rows_shape: Vec<usize>,
    /// The target's shape.
    shape: Vec<usize>,
    batch: usize,
    /// The axes the index's integers take (under `; batch = k`, among all
    /// axes): NumPy checks them before any array.
    integer_axes: Vec<usize>,
    /// The axis of the first slice of step zero (among all axes), whose
    /// error comes after the integers before it.
    zero_step_axis: Option<usize>,
}

/// The flattened burn tensor of integers a device index array holds.
fn int_flat<'a>(array: &'a DeviceArray<'_>) -> Result<&'a Flat<Int>, BurnError> {
    array.downcast::<Flat<Int>>().ok_or(BurnError::Unsupported {
        operation: "a device index array",
        reason: "an index array on the device is a burn tensor of kind Int".into(),
    })
}

/// The burn tensor of integers a device index array holds, in `i64`, and
/// whether its elements were promised distinct. (An array of `u64` with an
/// element past `i64::MAX` is [`past_i64`]'s, read on the host.)
fn int_tensor(array: &DeviceArray<'_>) -> Result<(Tensor<1, Int>, bool), BurnError> {
    let flat = int_flat(array)?;
    Ok((flat.tensor.clone().cast(IntDType::I64), flat.distinct))
}

/// A device index array of `u64` holding an element past `i64::MAX`,
/// read back to the host: the device resolves indices in `i64`, where such
/// an element would wrap to a negative index, and the host reads it
/// exactly (out of bounds, or wrapped or clipped by the mode). `None` for
/// every other array; an array of `u64` costs one copy, of its largest
/// element.
fn past_i64<'z>(array: &DeviceArray<'_>) -> Result<Option<IntArray<'z>>, BurnError> {
    let tensor = &int_flat(array)?.tensor;
    if tensor.dtype() != DType::U64 || tensor.dims()[0] == 0 {
        return Ok(None);
    }
    let largest = host::scalar::<u64, Int>(tensor.clone().max());
    if largest <= i64::MAX as u64 {
        return Ok(None);
    }
    read_back(array).map(Some)
}

/// A device index array's elements on the host, in one copy: as `u64`
/// from an array of `u64` (exact past `i64::MAX`), as `i64` from any other.
fn read_back<'z>(array: &DeviceArray<'_>) -> Result<IntArray<'z>, BurnError> {
    let data = host::data(int_flat(array)?.tensor.clone());
    let shape = IxDyn(array.shape());
    let fill = "an array's elements fill its shape";
    Ok(if data.dtype() == DType::U64 {
        let values = data.try_into_vec::<u64>().expect("the elements of an array of u64");
        IntArray::U64(ArrayD::from_shape_vec(shape, values).expect(fill).into())
    } else {
        let values = data.convert::<i64>().try_into_vec::<i64>().expect("indices are integers");
        IntArray::I64(ArrayD::from_shape_vec(shape, values).expect(fill).into())
    })
}

/// A device index array of `form`, its elements read back, as the host's
/// element of the index.
fn host_elem(values: IntArray<'_>, form: DeviceForm) -> IndexElem<'_> {
    match form {
        DeviceForm::Array if values.shape().is_empty() => {
            IndexElem::Int(with_int_array!(&values, a => a.first().map_or(0, |&v| v as i128)))
        }
        DeviceForm::Nd => IndexElem::Nd(values),
        DeviceForm::Along(axis) => IndexElem::Along { index: values, axis },
        _ => IndexElem::Array(values),
    }
}

/// Each element's position in an array of `shape` (for `nd`, the point's
/// in column `column` of `depth`, zeros in the others).
fn own_positions<'z>(shape: &[usize], column: Option<(usize, usize)>) -> Result<IntArray<'z>, IndexError> {
    let len = checked_size(shape)?;
    let mut values = memory::vec::<i64>(len).ok_or_else(|| prepare::too_large(shape))?;
    match column {
        None => values.extend(0..len as i64),
        Some((c, depth)) => values.extend((0..len).map(|at| if at % depth == c { (at / depth) as i64 } else { 0 })),
    }
    Ok(IntArray::I64(
        ArrayD::from_shape_vec(IxDyn(shape), values)
            .expect("one position per element")
            .into(),
    ))
}

impl<'t> OnDevice<'t> {
    /// `index` on a target of `shape` with `batch` paired axes, split for
    /// planning; `None` when no element of it is on the device.
    pub(crate) fn split(index: &'t [IndexElem<'_>], shape: &[usize], batch: usize, rows: Rows) -> Result<Option<Self>, BurnError> {
        if !index.iter().any(|elem| matches!(elem, IndexElem::Device { .. })) {
            return Ok(None);
        }
        let mut planned: Vec<IndexElem<'t>> = Vec::with_capacity(index.len());
        let mut devices = Vec::new();
        for elem in index {
            let IndexElem::Device { array, form } = elem else {
                planned.push(elem.view());
                continue;
            };
            // burn holds an empty tensor of any shape (`[2^63, 0]`), which
            // neither a stand-in nor a read back could be.
            checked_size(array.shape())?;
            if *form == DeviceForm::Mask {
                planned.push(IndexElem::Mask(host_mask(array)?.into()));
                continue;
            }
            if let Some(values) = past_i64(array)? {
                planned.push(host_elem(values, *form));
                continue;
            }
            let (flat, distinct) = int_tensor(array)?;
            let array_shape = array.shape();
            match *form {
                // A zero-dimensional array indexes as an integer (as in
                // NumPy): its value is read back.
                DeviceForm::Array if array_shape.is_empty() => {
                    planned.push(IndexElem::Int(host::scalar::<i64, Int>(flat).into()));
                    continue;
                }
                DeviceForm::Array => planned.push(IndexElem::Array(IntArray::zeros(array_shape))),
                DeviceForm::Nd => planned.push(IndexElem::Nd(IntArray::zeros(array_shape))),
                DeviceForm::Along(axis) => planned.push(IndexElem::Along {
                    index: IntArray::zeros(array_shape),
                    axis,
                }),
                _ => {
                    return Err(BurnError::Unsupported {
                        operation: "a device index",
                        reason: "a form this version of the adapter does not know".into(),
                    });
                }
            }
            devices.push((planned.len() - 1, flat, array_shape.to_vec(), *form, distinct));
        }
        let ndim = shape.len().saturating_sub(batch);
        let axes = prepare::first_axes(&planned, ndim)?;
        // The host's integers: a zero-dimensional array indexes as one, and
        // a single `nd` point as one per coordinate.
        let on_device = |at: usize| devices.iter().any(|&(element, ..)| element == at);
        let integer_axes = planned
            .iter()
            .zip(&axes)
            .enumerate()
            .filter(|&(at, _)| !on_device(at))
            .flat_map(|(_, (elem, &axis))| {
                match elem {
                    IndexElem::Int(_) => 0..1,
                    IndexElem::Array(array) if array.shape().is_empty() => 0..1,
                    IndexElem::Nd(points) if points.shape().len() == 1 => 0..points.shape()[0],
                    _ => 0..0,
                }
                .map(move |c| batch + axis + c)
            })
            .collect();
        let zero_step_axis = planned.iter().zip(&axes).find_map(|(elem, &axis)| match elem {
            IndexElem::Slice(slice) if slice.step == Some(0) => Some(batch + axis),
            IndexElem::Range(range) if range.step == 0 => Some(batch + axis),
            _ => None,
        });
        let mut arrays = Vec::new();
        for (element, flat, array_shape, form, distinct) in devices {
            match prepare::device_axes(&planned, &axes, ndim, element, form) {
                DeviceAxes::Columns { first, depth } => {
                    for c in 0..depth {
                        arrays.push(Placed {
                            flat: flat.clone(),
                            element,
                            column: Some((c, depth)),
                            axis: batch + first + c,
                            shape: array_shape.clone(),
                            distinct: false,
                            // One point: its coordinates index as integers.
                            integer: array_shape.len() == 1,
                        });
                    }
                }
                DeviceAxes::One(axis) => arrays.push(Placed {
                    flat,
                    element,
                    column: None,
                    axis: batch + axis,
                    shape: array_shape,
                    // `along` pairs each position with its own row: the promise is of no use there.
                    distinct: distinct && form == DeviceForm::Array,
                    integer: false,
                }),
            }
        }
        // NumPy checks every integer before any array, each in index order.
        arrays.sort_by_key(|placed| !placed.integer);
        Ok(Some(OnDevice {
            planned,
            arrays,
            kept: rows.kept,
            rows_shape: shape[..rows.leading].to_vec(),
            shape: shape.to_vec(),
            batch,
            integer_axes,
            zero_step_axis,
        }))
    }

    /// Whether the index is device arrays alone, of one shape, one per
    /// axis of rows: the region is then their elements, in order, and the
    /// host's plan places none of them.
    pub(crate) fn places_alone(&self) -> bool {
        let planned = self.planned();
        let Some(IndexElem::Array(first)) = planned.first() else {
            return false;
        };
        self.batch == 0
            && planned.len() == self.rows_shape.len()
            && planned.len() == self.arrays.len()
            && planned
                .iter()
                .all(|elem| matches!(elem, IndexElem::Array(array) if array.shape() == first.shape()))
    }

    /// The arrays' shape when they place the region alone
    /// ([`places_alone`](Self::places_alone)): the host's plan is then
    /// skipped. It would check only the arrays' bounds, which
    /// [`positions`](Self::positions) checks on the device, in the same
    /// order, on axes of no length too.
    pub(crate) fn alone_shape(&self) -> Option<&[usize]> {
        self.places_alone().then(|| self.arrays[0].shape.as_slice())
    }

    /// Whether the index is one device array, alone, promised distinct
    /// ([`unique`](super::unique)): its positions are then distinct too.
    pub(crate) fn distinct(&self) -> bool {
        self.places_alone() && matches!(&self.arrays[..], [placed] if placed.distinct)
    }

    /// The axis of a lone `along(idx, axis)` whose `idx` has the target's
    /// shape but along `axis`, and that `mode` resolves without skipping:
    /// burn's own `gather` and `scatter` then take it as it is.
    pub(crate) fn along_axis<T>(&self, mode: &AnyMode<T>) -> Option<usize> {
        let [placed] = &self.arrays[..] else {
            return None;
        };
        let shape = &self.rows_shape;
        let fits = placed.shape.len() == shape.len()
            && placed
                .shape
                .iter()
                .zip(shape)
                .enumerate()
                .all(|(axis, (&a, &t))| axis == placed.axis || a == t);
        let lone = self.batch == 0 && matches!(self.planned(), [IndexElem::Along { .. }]);
        (lone && fits && shape[placed.axis] > 0 && mode.bounds() != Bounds::Skip).then_some(placed.axis)
    }

    /// The lone `along` array's indices resolved by `mode`, in the array's
    /// order ([`along_axis`](Self::along_axis) said it fits).
    pub(crate) fn along_positions<T>(&self, mode: &AnyMode<T>) -> Result<Tensor<1, Int>, BurnError> {
        let placed = &self.arrays[0];
        let len = self.rows_shape[placed.axis];
        let elements = placed.flat.clone();
        if mode.bounds() == Bounds::Error {
            let checked = vec![Checked {
                axis: placed.axis,
                len,
                elements,
            }];
            return Ok(in_bounds(checked, None)?.positions.remove(0).1);
        }
        Ok(resolve(elements, len, mode.bounds()).0)
    }

    /// `error`, from the host's plan, as an ndarray would report it. The
    /// host planned with stand-ins in place of the device arrays, whose
    /// bounds it could not check. NumPy checks the index's structure and
    /// masks' shapes, then its integers and slices from left to right (a
    /// single `nd` point indexes as integers), then the arrays' broadcast,
    /// then each array's bounds in index order, then the value and the
    /// operands. In mode `error` the device arrays that come before the
    /// host's error are checked (their extremes read back, in one copy),
    /// and the first out of bounds is the error; in `clip` and `wrap`,
    /// those on axes of no length, where no index is in bounds. On an
    /// axis of no length every index is out of bounds, and the first the
    /// host finds there is a stand-in's zero: the array's own first index
    /// (of its column, for `nd`) is read back.
    pub(crate) fn real_error(&self, error: BurnError, bounds: Bounds) -> BurnError {
        let BurnError::Index(index_error) = &error else {
            return error;
        };
        let host_integer = |axis: usize| self.integer_axes.contains(&axis);
        let device_integer = |axis: usize| self.arrays.iter().any(|placed| placed.integer && placed.axis == axis);
        let at = |axis: usize| self.batch + axis;
        let (before, own) = match *index_error {
            IndexError::OutOfBounds { index: 0, axis, len: 0 } if !host_integer(at(axis)) => {
                let own = self.own_first_index(axis);
                match device_integer(at(axis)) {
                    true => (Before::Integers(Some(at(axis))), own),
                    false => (Before::Arrays(Some(at(axis))), own),
                }
            }
            IndexError::OutOfBounds { axis, .. } if host_integer(at(axis)) => (Before::Integers(Some(at(axis))), None),
            IndexError::OutOfBounds { axis, .. } => (Before::Arrays(Some(at(axis))), None),
            IndexError::RangeOutOfBounds { axis, .. } => (Before::Integers(Some(at(axis))), None),
            IndexError::ZeroStep => (Before::Integers(self.zero_step_axis), None),
            IndexError::IndexBroadcast { .. } | IndexError::TooLarge { .. } => (Before::Integers(None), None),
            IndexError::ShapeMismatch { .. }
            | IndexError::ValueCount { .. }
            | IndexError::DivisionByZero
            | IndexError::UnsupportedOperation { .. }
            | IndexError::NegativeIntegerPower => match self.arrays_reach(bounds) {
                true => (Before::Arrays(None), None),
                // Arrays that broadcast to no position are never checked.
                false => (Before::Integers(None), None),
            },
            _ => return error,
        };
        if bounds != Bounds::Skip {
            let earlier = |placed: &Placed, axis: Option<usize>| axis.is_none_or(|axis| placed.axis < axis);
            let can_fail = |placed: &Placed| bounds == Bounds::Error || self.rows_shape[placed.axis] == 0;
            let checked: Vec<Checked> = self
                .arrays
                .iter()
                .filter(|placed| can_fail(placed))
                .filter(|placed| match before {
                    Before::Integers(axis) => placed.integer && earlier(placed, axis),
                    Before::Arrays(axis) => placed.integer || earlier(placed, axis),
                })
                .map(|placed| self.checked(placed))
                .collect();
            if let Err(earlier) = in_bounds(checked, None) {
                return earlier;
            }
        }
        own.map_or(error, BurnError::from)
    }

    /// Whether the index's arrays broadcast to any position, from the plan
    /// of the index alone (an error of the value stopped the one with it),
    /// in the call's `bounds`: there the host's integers passed.
    fn arrays_reach(&self, bounds: Bounds) -> bool {
        let reaches = |plan: Result<Plan<'_>, IndexError>| match plan {
            Ok(Plan::Indexed(indexed)) => !indexed.table.is_empty(),
            _ => true,
        };
        let strides = c_strides(&self.shape);
        let mode = stand_in_mode(bounds);
        let layout = prepare::Layout {
            shape: &self.shape[self.batch..],
            strides: &strides[self.batch..],
        };
        if self.batch == 0 {
            return reaches(prepare::apply(&self.planned, layout, &mode));
        }
        let Ok(batches) = prepare::batch_update(self.batch, &self.shape, &self.planned, &mode, None) else {
            return true;
        };
        // Every batch position's arrays have one shape.
        batches
            .positions()
            .next()
            .is_some_and(|at| reaches(prepare::apply(&batches.index_at(&self.planned, &at), layout, &mode)))
    }

    /// `placed`'s bounds check over its own elements, in its own order.
    fn checked(&self, placed: &Placed) -> Checked {
        Checked {
            axis: placed.axis,
            len: self.rows_shape[placed.axis],
            elements: own_elements(placed),
        }
    }

    /// On an axis of no length, the error of the device array there: its
    /// first index (of its column, for `nd`), read back; `None` when no
    /// device array with an element indexes `axis`.
    fn own_first_index(&self, axis: usize) -> Option<IndexError> {
        let at = |placed: &&Placed| placed.column.map_or(0, |(c, _)| c);
        let placed = self
            .arrays
            .iter()
            .find(|placed| placed.axis == self.batch + axis && placed.flat.dims()[0] > at(placed))?;
        let first = at(&placed);
        let index = host::scalar::<i64, Int>(placed.flat.clone().narrow(0, first, 1));
        Some(IndexError::OutOfBounds {
            index: index.into(),
            axis,
            len: 0,
        })
    }

    /// The index that addresses the rows, as the host plans it.
    pub(crate) fn planned(&self) -> &[IndexElem<'t>] {
        &self.planned[..self.kept]
    }

    /// The whole index, as the host checks it.
    pub(crate) fn whole(&self) -> &[IndexElem<'t>] {
        &self.planned
    }

    /// The region's rows once the device arrays are added to the host's
    /// plan `host` of the rows, resolved by `mode`; with `rounds`, also the
    /// most occurrences of one row, read back in the same copy as the
    /// bounds' extremes.
    pub(crate) fn positions<T>(
        &self,
        host: &Region,
        mode: &AnyMode<T>,
        rounds: bool,
        device: &burn_tensor::Device,
    ) -> Result<DeviceRegion, BurnError> {
        let (shape, batch) = (&self.rows_shape[..], self.batch);
        let distinct = self.distinct();
        // Distinct positions take one round: nothing to count.
        let counts = rounds && !distinct;
        let bounds = mode.bounds();
        if host.len() == 0 {
            // Integers are always checked, and arrays that reach a position
            // all are, as NumPy does, though no element is selected.
            if bounds == Bounds::Error {
                let checked = self.arrays.iter().filter(|placed| placed.integer || host.arrays_reached);
                in_bounds(checked.map(|placed| self.checked(placed)).collect(), None)?;
            }
            return Ok(DeviceRegion {
                positions: positions(Vec::new(), device),
                skipped: None,
                len: 0,
                rounds: rounds.then_some(0),
                distinct,
            });
        }
        let strides = c_strides(shape);
        let mut skipped = (!host.skipped.is_empty()).then(|| {
            let len = host.skipped.len();
            Tensor::<1, Bool>::from_data(burn_tensor::TensorData::new(host.skipped.clone(), [len]), device)
        });
        let mut terms = Vec::with_capacity(self.arrays.len());
        let mut checked = Vec::new();
        for placed in &self.arrays {
            let len = shape[placed.axis];
            let elements = self.elements(placed, shape, batch, bounds, device)?;
            // No index is in bounds on an empty axis, so `clip` and `wrap`
            // fail there as `error` does.
            if bounds == Bounds::Error || (len == 0 && bounds != Bounds::Skip) {
                if counts {
                    // The positions if the check passes, so that the rounds
                    // are counted before the one copy.
                    terms.push((in_range(elements.clone(), len), strides[placed.axis]));
                }
                checked.push(Checked {
                    axis: placed.axis,
                    len,
                    elements,
                });
                continue;
            }
            let (position, skip) = resolve(elements, len, bounds);
            if let Some(skip) = skip {
                skipped = Some(match skipped {
                    Some(before) => before.bool_or(skip),
                    None => skip,
                });
            }
            terms.push((position, strides[placed.axis]));
        }
        if counts {
            let at = sum(host, self.places_alone(), terms, device);
            // With an axis of no length the target has no rows to count
            // (the positions the other axes add lie past them), and the
            // check of the arrays there fails.
            let rows: usize = shape.iter().product();
            let repeats = (rows > 0).then(|| most_repeats(at.clone(), skipped.clone(), rows));
            let rounds = in_bounds(checked, repeats)?.extra;
            return Ok(DeviceRegion {
                positions: at,
                skipped,
                len: host.len(),
                rounds,
                distinct,
            });
        }
        let resolved = in_bounds(checked, None)?.positions;
        terms.extend(resolved.into_iter().map(|(axis, position)| (position, strides[axis])));
        Ok(DeviceRegion {
            positions: sum(host, self.places_alone(), terms, device),
            skipped,
            len: host.len(),
            rounds: rounds.then_some(1),
            distinct,
        })
    }

    /// The elements of `placed` that each region element reads, in the
    /// region's order: the array itself when that is its own order.
    fn elements(
        &self,
        placed: &Placed,
        shape: &[usize],
        batch: usize,
        bounds: Bounds,
        device: &burn_tensor::Device,
    ) -> Result<Tensor<1, Int>, BurnError> {
        if self.places_alone() {
            return Ok(placed.flat.clone());
        }
        let reads = self.reads(placed, shape, batch, bounds)?;
        let in_order = reads.len() == placed.flat.dims()[0] && reads.iter().zip(0..).all(|(&read, at)| read == at);
        Ok(if in_order {
            placed.flat.clone()
        } else {
            placed.flat.clone().select(0, positions(reads, device))
        })
    }

    /// Where each region element reads `placed`: the plan of the index
    /// with the array replaced by its own positions, on a target whose
    /// strides are zero but along the array's axis.
    fn reads(&self, placed: &Placed, shape: &[usize], batch: usize, bounds: Bounds) -> Result<Vec<i64>, BurnError> {
        let mut probe = self.planned().to_vec();
        let own = match &probe[placed.element] {
            IndexElem::Array(array) => IndexElem::Array(own_positions(array.shape(), None)?),
            IndexElem::Nd(array) => IndexElem::Nd(own_positions(array.shape(), placed.column)?),
            IndexElem::Along { index, axis } => IndexElem::Along {
                index: own_positions(index.shape(), None)?,
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
        let region = super::call::probe(&probe, &probe_shape, &strides, batch, bounds)?;
        Ok(match placed.column {
            Some((c, depth)) => region.offsets.iter().map(|&point| point * depth as i64 + c as i64).collect(),
            None => region.offsets,
        })
    }
}

/// The indices of `placed` in its own C order (of its column, for `nd`).
fn own_elements(placed: &Placed) -> Tensor<1, Int> {
    match placed.column {
        None => placed.flat.clone(),
        Some((c, depth)) => {
            let points = placed.flat.dims()[0] / depth;
            placed.flat.clone().shaped([points, depth]).narrow(1, c, 1).shaped([points])
        }
    }
}

/// `index` with its device arrays and masks read back to the host, one
/// copy each: for the one answer that needs the indices themselves (which
/// positions mode `drop` skips, whose operands are then never checked).
pub(crate) fn on_host<'i>(index: &'i [IndexElem<'_>]) -> Result<Vec<IndexElem<'i>>, BurnError> {
    index
        .iter()
        .map(|elem| {
            let IndexElem::Device { array, form } = elem else {
                return Ok(elem.view());
            };
            checked_size(array.shape())?;
            if *form == DeviceForm::Mask {
                return Ok(IndexElem::Mask(host_mask(array)?.into()));
            }
            Ok(host_elem(read_back(array)?, *form))
        })
        .collect()
}

/// A device mask, read back: its count decides the region's shape.
fn host_mask(array: &DeviceArray<'_>) -> Result<ArrayD<bool>, BurnError> {
    let flat = array.downcast::<Flat<Bool>>().ok_or(BurnError::Unsupported {
        operation: "a device mask",
        reason: "a mask on the device is a burn tensor of kind Bool".into(),
    })?;
    let flags = host::data(flat.tensor.clone()).convert_dtype(DType::Bool(burn_tensor::BoolStore::Native));
    let flags = flags.try_into_vec::<bool>().map_err(|error| BurnError::Unsupported {
        operation: "a device mask",
        reason: format!("its elements could not be read: {error:?}"),
    })?;
    Ok(ArrayD::from_shape_vec(IxDyn(array.shape()), flags).expect("a mask's elements fill its shape"))
}

/// `indices` on an axis of `len` in mode `clip`, `wrap` or `drop`/`fill`
/// (on an axis that is not empty), as [`Bounds::resolve`] resolves each:
/// the positions, and which the mode skipped.
fn resolve(indices: Tensor<1, Int>, len: usize, bounds: Bounds) -> (Tensor<1, Int>, Option<Tensor<1, Bool>>) {
    let n = len as i64;
    match bounds {
        Bounds::Wrap => (indices.remainder_scalar(n), None),
        Bounds::Clip => (from_end(indices.clamp(-n, n - 1), n), None),
        _ => {
            let outside = indices
                .clone()
                .greater_equal_elem(-n)
                .bool_and(indices.clone().lower_elem(n))
                .bool_not();
            (from_end(indices, n).mask_fill(outside.clone(), 0), Some(outside))
        }
    }
}

/// `indices`, those below zero counted from the end of an axis of `n`.
fn from_end(indices: Tensor<1, Int>, n: i64) -> Tensor<1, Int> {
    let negative = indices.clone().lower_elem(0);
    indices.clone().mask_where(negative, indices.add_scalar(n))
}

/// The device arrays whose errors come before the host's, in NumPy's
/// order (axes among all axes, under `; batch = k`).
#[derive(Clone, Copy)]
enum Before {
    /// The integers on the axes before this one (all, for `None`).
    Integers(Option<usize>),
    /// Every integer, and the arrays on the axes before this one (all, for
    /// `None`).
    Arrays(Option<usize>),
}

/// A device array whose indices must all be in bounds.
struct Checked {
    /// The target axis it indexes.
    axis: usize,
    /// That axis's length.
    len: usize,
    /// The indices, in the region's order.
    elements: Tensor<1, Int>,
}

/// The host's offsets plus each term times its stride. The host's offsets
/// are often all zeros (always when device arrays place the region
/// alone, `alone`: then not even scanned), and a stride often one:
/// neither then costs a pass.
fn sum(host: &Region, alone: bool, terms: Vec<(Tensor<1, Int>, isize)>, device: &burn_tensor::Device) -> Tensor<1, Int> {
    let mut at = (!alone && host.offsets.iter().any(|&offset| offset != 0)).then(|| positions(host.offsets.clone(), device));
    for (position, stride) in terms {
        let term = if stride == 1 {
            position
        } else {
            position.mul_scalar(stride as i64)
        };
        at = Some(match at {
            Some(at) => at + term,
            None => term,
        });
    }
    at.unwrap_or_else(|| positions(host.offsets.clone(), device))
}

/// `indices` on an axis of `len` as positions when all are in bounds (and
/// in range whatever they are).
fn in_range(indices: Tensor<1, Int>, len: usize) -> Tensor<1, Int> {
    let n = len as i64;
    if n == 0 {
        return indices.mul_scalar(0);
    }
    from_end(indices.clamp(-n, n - 1), n)
}

/// The most occurrences of one of `rows` rows among the kept positions
/// `at`, as a tensor of one element.
fn most_repeats(at: Tensor<1, Int>, skipped: Option<Tensor<1, Bool>>, rows: usize) -> Tensor<1, Int> {
    let device = at.device();
    let len = at.dims()[0];
    let (at, kept) = match skipped {
        Some(skipped) => (at.mask_fill(skipped.clone(), rows as i64), skipped.bool_not()),
        None => (at, Tensor::<1, Bool>::full([len], true, &device)),
    };
    // Counts as narrow as they fit, one per row (and the skipped ones'
    // slot, which they leave at zero).
    let counts_dtype = if i32::try_from(len).is_ok() { DType::I32 } else { DType::I64 };
    // Filled, not `zeros`: burn's CPU device leaves a tensor of zeros to
    // the allocator's untouched pages, which then fault in one by one at
    // the scattered adds (2.7x slower than the fill, measured).
    let counts = Tensor::<1, Int>::full([rows + 1], 0, (&device, counts_dtype)).select_assign(
        0,
        at.clone(),
        kept.int().cast(counts_dtype),
        burn_tensor::IndexingUpdateOp::Add,
    );
    // The largest, found where it moves fewer bytes: among the
    // occurrences (a cache line read at each) when they are few, else in
    // one pass over every row's count.
    let counts = if len.saturating_mul(READ_PER_OCCURRENCE) < rows {
        counts.select(0, at)
    } else {
        counts
    };
    counts.max().cast(IntDType::I64)
}

/// How many rows' counts one occurrence's count costs to read where it
/// is (a 64-byte cache line, against a 4-byte count in a pass): past one
/// occurrence in this many rows, a pass over the counts costs less.
const READ_PER_OCCURRENCE: usize = 16;

/// What [`in_bounds`] found: each array's axis and positions, and the
/// number read back beside them.
struct InBounds {
    positions: Vec<(usize, Tensor<1, Int>)>,
    extra: Option<usize>,
}

/// The positions of arrays whose indices must all be in bounds, with the
/// axis each indexes, and the number `extra` holds. The arrays' extremes
/// and `extra` are read back in one copy: the extremes decide the bounds,
/// and whether any index counts from the end. On error, the first index
/// out of bounds, in index order.
fn in_bounds(checked: Vec<Checked>, extra: Option<Tensor<1, Int>>) -> Result<InBounds, BurnError> {
    // An array of no elements has no extremes (burn refuses to reduce it),
    // and nothing out of bounds.
    let has_elements = |array: &Checked| array.elements.dims()[0] > 0;
    let mut read: Vec<Tensor<1, Int>> = checked
        .iter()
        .filter(|array| has_elements(array))
        .flat_map(|array| [array.elements.clone().min(), array.elements.clone().max()])
        .collect();
    let asked = extra.is_some();
    read.extend(extra);
    let numbers = match read.is_empty() {
        true => Vec::new(),
        false => host::data(Tensor::cat(read, 0))
            .convert::<i64>()
            .try_into_vec::<i64>()
            .expect("indices are integers"),
    };
    let extra = asked.then(|| numbers[numbers.len() - 1].max(0) as usize);
    let mut extremes = numbers.chunks_exact(2);
    let mut resolved = Vec::with_capacity(checked.len());
    for array in checked {
        if !has_elements(&array) {
            resolved.push((array.axis, array.elements));
            continue;
        }
        let (least, most, n) = match extremes.next() {
            Some(&[least, most]) => (least, most, array.len as i64),
            _ => unreachable!("two extremes read back per array with elements"),
        };
        if least < -n || most >= n {
            return Err(first_out_of_bounds(array).into());
        }
        let position = if least >= 0 { array.elements } else { from_end(array.elements, n) };
        resolved.push((array.axis, position));
    }
    Ok(InBounds {
        positions: resolved,
        extra,
    })
}

/// The error for the first index of `array` out of bounds, read back.
fn first_out_of_bounds(array: Checked) -> IndexError {
    let n = array.len as i64;
    let values = host::data(array.elements)
        .convert::<i64>()
        .try_into_vec::<i64>()
        .expect("indices are integers");
    let index = values.into_iter().find(|&at| at < -n || at >= n).unwrap_or(n);
    IndexError::OutOfBounds {
        index: index.into(),
        axis: array.axis,
        len: array.len,
    }
}
