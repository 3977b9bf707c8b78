//! Index arrays and values that live on the device: `at!(g[gi] += 1.0)`
//! with `gi` a `GpuTensor<i32>`, `at!(g[idx] = gv)` with `gv` a
//! `GpuTensor`.
//!
//! Planning on the host uses only their shapes. Each device index array is
//! replaced by zeros of its shape, and tensor-core prepares that index:
//! every rule and error but the arrays' bounds, in NumPy's order. The
//! bounds are checked on the device (mode `error`: one kernel per array,
//! then the first offending position of each is read back, the one copy to
//! the host), and the arrays' positions are folded into the plan's offset
//! table by a kernel, each resolved by the mode as the CPU resolves it. The
//! write runs only once everything is checked, so on error the tensor is
//! unchanged.

use ndarray::{ArrayD, CowArray, IxDyn};
use tensor_core::backend::plan::IndexedPlan;
use tensor_core::backend::plan::Plan;
use tensor_core::backend::prepare::{self, Batch, DeviceAxes, Layout, Update};
use tensor_core::backend::{AnyMode, Bounds, DeviceArray, DeviceForm, IntIndex, IntoIntIndex};
use tensor_core::index::{Ellipsis, IndexElem, IntArray, IntoIndexElem};
use tensor_core::value::{IntoValue, Value};
use tensor_core::{IndexError, ix};

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::indices::{self, IndexWalk, Resolve};
use crate::kernels::region::{FIELDS, SKIP as DEVICE_SKIP};
use crate::layout::{Region, broadcast_to};
use crate::mask::{DeviceMask, device_mask};
use crate::tensor::GpuTensor;

/// The integer types a device index array holds: `i32` and `u32` on every
/// runtime, `i64` and `u64` where the device has them (CUDA, HIP).
pub trait GpuIndex: GpuElement + cubecl::prelude::Int + Into<i128> {
    /// Whether negative indices exist (and count from the end).
    const SIGNED: bool;
}

impl GpuIndex for i32 {
    const SIGNED: bool = true;
}
impl GpuIndex for u32 {
    const SIGNED: bool = false;
}
impl GpuIndex for i64 {
    const SIGNED: bool = true;
}
impl GpuIndex for u64 {
    const SIGNED: bool = false;
}

/// `g[gi]`: a GPU tensor of integers indexes along one axis, as an integer
/// array does. It indexes GPU tensors only; an ndarray target refuses it
/// with [`IndexError::OnDevice`].
#[diagnostic::do_not_recommend]
impl<'a, I: GpuIndex> IntoIndexElem<'a> for &'a GpuTensor<I> {
    type Consumed = ndarray::Ix1;
    type Produced = ndarray::Ix0;
    type Broadcast = IxDyn;
    type Kind = tensor_core::backend::Advanced;
    type Role = tensor_core::backend::BatchedIndices;
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        self.index_elem(DeviceForm::Array)
    }
}

/// `nd(gi)` and `along(gi, axis)` with a GPU tensor of integers.
impl<'a, I: GpuIndex> IntoIntIndex<'a> for &'a GpuTensor<I> {
    type Dim = IxDyn;
    fn into_int_index(self) -> IntIndex<'a> {
        IntIndex::Device(DeviceArray::new(&self.shape, self))
    }
}

/// `g[idx] = gv`: a GPU tensor is a value of the same element type,
/// broadcast as NumPy broadcasts.
#[diagnostic::do_not_recommend]
impl<'a, T: GpuElement> IntoValue<'a, T> for &'a GpuTensor<T> {
    type Dim = IxDyn;
    fn into_value(self) -> Value<'a, T> {
        Value::Device(DeviceArray::new(&self.shape, self))
    }
}

/// A reference to a reference, as the macros borrow a `&GpuTensor` binding.
#[diagnostic::do_not_recommend]
impl<'a, T: GpuElement> IntoValue<'a, T> for &'a &GpuTensor<T> {
    type Dim = IxDyn;
    fn into_value(self) -> Value<'a, T> {
        (*self).into_value()
    }
}

/// The GPU tensor of `T` a device value stands for.
pub(crate) fn device_value<'a, T: GpuElement>(array: &'a DeviceArray<'_>) -> Result<&'a GpuTensor<T>, GpuError> {
    array.downcast::<GpuTensor<T>>().ok_or(GpuError::Unsupported {
        operation: "a device value",
        reason: "a device value is a GpuTensor of the target's element type",
    })
}

/// What the planning needs of a device index array, whatever its type.
pub(crate) trait DeviceIndexArray {
    /// Lowers `faults[slot]` to the position (in C order) of its first
    /// element out of bounds of an axis of `axis_len`.
    fn check_bounds(&self, faults: &Buffer<u32>, slot: usize, axis_len: usize);
    /// Folds its positions, broadcast to `shape`, into `table`.
    fn fold(&self, table: &Buffer<i32>, shape: &[usize], axis: (usize, isize), resolve: Resolve);
    /// Its element at `position` (in C order), read back.
    fn element(&self, position: usize) -> Result<i128, GpuError>;
    /// Its elements, read back.
    fn values(&self) -> Result<Vec<i128>, GpuError>;
    /// Its view at batch position `at` ([`GpuTensor::batch_at`]).
    fn at_batch(&self, at: &[usize]) -> Box<dyn DeviceIndexArray>;
    /// The view of its column `c` (`idx[..., c]`).
    fn column(&self, c: usize) -> Result<Box<dyn DeviceIndexArray>, GpuError>;
    /// It as an index element in `form`.
    fn index_elem(&self, form: DeviceForm) -> IndexElem<'_>;
}

impl<I: GpuIndex> DeviceIndexArray for GpuTensor<I> {
    fn check_bounds(&self, faults: &Buffer<u32>, slot: usize, axis_len: usize) {
        let walk = self.walk(&self.shape, &self.strides);
        indices::check_bounds(&self.gpu, &walk, faults, axis_len, slot, I::SIGNED);
    }

    fn fold(&self, table: &Buffer<i32>, shape: &[usize], axis: (usize, isize), resolve: Resolve) {
        let strides = broadcast_to(&self.shape, &self.strides, shape);
        let walk = self.walk(shape, &strides);
        indices::fold_positions(&self.gpu, &walk, table, axis, I::SIGNED, resolve);
    }

    fn element(&self, position: usize) -> Result<i128, GpuError> {
        let mut rest = position;
        let mut at = vec![0; self.ndim()];
        for (slot, &len) in at.iter_mut().zip(&self.shape).rev() {
            *slot = rest % len;
            rest /= len;
        }
        let index: Vec<IndexElem<'_>> = at.into_iter().map(ix).collect();
        let element = self.get_any(&index, AnyMode::Error)?.to_array()?;
        Ok(element.first().copied().expect("one element").into())
    }

    fn values(&self) -> Result<Vec<i128>, GpuError> {
        Ok(self.to_array()?.iter().map(|&value| value.into()).collect())
    }

    fn at_batch(&self, at: &[usize]) -> Box<dyn DeviceIndexArray> {
        Box::new(self.batch_at(at))
    }

    fn column(&self, c: usize) -> Result<Box<dyn DeviceIndexArray>, GpuError> {
        Ok(Box::new(self.view(&[ix(Ellipsis), ix(c)])?))
    }

    fn index_elem(&self, form: DeviceForm) -> IndexElem<'_> {
        IndexElem::Device {
            array: DeviceArray::new(&self.shape, self),
            form,
        }
    }
}

impl<I: GpuIndex> GpuTensor<I> {
    /// The walk over `shape` reading this tensor's elements `strides` apart.
    fn walk(&self, shape: &[usize], strides: &[isize]) -> IndexWalk<'_, I> {
        let mut meta = Vec::with_capacity(FIELDS * shape.len());
        for (&len, &stride) in shape.iter().zip(strides) {
            // The tensor's strides fit: it holds at most `i32::MAX` elements.
            meta.extend([len as i32, if len > 1 { stride as i32 } else { 0 }, 0, 0]);
        }
        IndexWalk {
            buffer: &self.buffer,
            meta: self.gpu.constant(&meta),
            ndim: shape.len() as u32,
            origin: self.offset as i32,
            len: shape.iter().product(),
        }
    }
}

/// One device index array of an index (a column of one, for `nd`), and
/// the target axis it indexes.
struct Placed<'t> {
    array: Held<'t>,
    axis: usize,
    /// Whether its elements are known to be in bounds (the coordinates a
    /// mask selects), so that no check runs.
    in_bounds: bool,
}

/// A device index array as the index holds it, or a view made of one.
enum Held<'t> {
    Borrowed(&'t dyn DeviceIndexArray),
    View(Box<dyn DeviceIndexArray>),
}

impl Held<'_> {
    fn get(&self) -> &dyn DeviceIndexArray {
        match self {
            Held::Borrowed(array) => *array,
            Held::View(array) => array.as_ref(),
        }
    }
}

/// An index holding device index arrays or masks, ready for the host to
/// plan: each array replaced by zeros of its shape, each mask by zeros of
/// the shape of the coordinates it selects (`x[m]` is `x[nd(coordinates)]`,
/// the coordinates computed on the device and their count read back).
pub(crate) struct OnDevice<'t> {
    planned: Vec<IndexElem<'t>>,
    /// The first target axis of each element of `planned`.
    axes: Vec<usize>,
    arrays: Vec<Placed<'t>>,
    /// Each device mask's first target axis and shape, checked against the
    /// target's axes.
    masks: Vec<(usize, Vec<usize>)>,
    /// The count a device mask selects when it is the whole index and
    /// covers every axis (NumPy then reports a value of the wrong length as
    /// a count).
    whole_mask: Option<usize>,
    /// Whether an advanced element selects nothing (then no bounds are
    /// checked, as on the CPU).
    selects_nothing: bool,
}

impl<'t> OnDevice<'t> {
    /// `index` on a target of shape `shape` split for planning; `None`
    /// when no element of it lives on the device. A zero-dimensional
    /// device array indexes like an integer (as in NumPy): its value is
    /// read back.
    pub(crate) fn split(gpu: &Gpu, index: &'t [IndexElem<'_>], shape: &[usize]) -> Result<Option<Self>, GpuError> {
        if !index.iter().any(|elem| matches!(elem, IndexElem::Device { .. })) {
            return Ok(None);
        }
        // The stand-ins first (where the arrays go depends on their forms),
        // then each array placed on the target's axes.
        let mut planned = Vec::with_capacity(index.len());
        let mut devices: Vec<(usize, Held<'t>, DeviceForm)> = Vec::new();
        let mut masks = Vec::new();
        for elem in index {
            let IndexElem::Device { array: device, form } = elem else {
                planned.push(reborrow(elem)?);
                continue;
            };
            if *form == DeviceForm::Mask {
                let mask = device_mask(device)?;
                let coordinates = mask.coordinates(gpu)?;
                masks.push((planned.len(), mask.shape()?.to_vec()));
                planned.push(IndexElem::Nd(IntArray::zeros(coordinates.shape())));
                devices.push((planned.len() - 1, Held::View(Box::new(coordinates)), DeviceForm::Mask));
                continue;
            }
            let array = index_array(device)?;
            let shape = device.shape();
            match *form {
                // A zero-dimensional array indexes like an integer, and so
                // does each coordinate of `nd` of one point (as in NumPy).
                DeviceForm::Array if shape.is_empty() => planned.push(IndexElem::Int(array.element(0)?)),
                DeviceForm::Nd if matches!(shape, [depth] if *depth > 0) => {
                    planned.extend(array.values()?.into_iter().map(IndexElem::Int));
                }
                DeviceForm::Array => {
                    devices.push((planned.len(), Held::Borrowed(array), *form));
                    planned.push(IndexElem::Array(IntArray::zeros(shape)));
                }
                DeviceForm::Nd => {
                    devices.push((planned.len(), Held::Borrowed(array), *form));
                    planned.push(IndexElem::Nd(IntArray::zeros(shape)));
                }
                DeviceForm::Along(axis) => {
                    devices.push((planned.len(), Held::Borrowed(array), *form));
                    planned.push(IndexElem::Along {
                        index: IntArray::zeros(shape),
                        axis,
                    });
                }
                _ => return Err(GpuError::newer_core("this form of device index")),
            }
        }
        let ndim = shape.len();
        let axes = prepare::first_axes(&planned, ndim)?;
        let whole_mask = match (index, planned.as_slice(), masks.as_slice()) {
            ([_], [IndexElem::Nd(coordinates)], [(_, mask)]) if mask.len() == ndim => Some(coordinates.shape()[0]),
            _ => None,
        };
        let masks = masks.into_iter().map(|(element, mask)| (axes[element], mask)).collect();
        let selects_nothing = planned.iter().any(selects_nothing);
        let mut arrays = Vec::new();
        for (element, array, form) in devices {
            match prepare::device_axes(&planned, &axes, ndim, element, form) {
                DeviceAxes::Columns { first, depth } => {
                    for c in 0..depth {
                        arrays.push(Placed {
                            array: Held::View(array.get().column(c)?),
                            axis: first + c,
                            in_bounds: form == DeviceForm::Mask,
                        });
                    }
                }
                DeviceAxes::One(axis) => arrays.push(Placed {
                    array,
                    axis,
                    in_bounds: false,
                }),
            }
        }
        Ok(Some(OnDevice {
            planned,
            axes,
            arrays,
            masks,
            whole_mask,
            selects_nothing,
        }))
    }

    /// The index the host plans.
    pub(crate) fn index(&self) -> &[IndexElem<'t>] {
        &self.planned
    }

    /// What the host's preparation `host` becomes once the device arrays'
    /// bounds are known: checked on the device in mode `error`, and where
    /// the host failed (a stand-in zero out of bounds of an empty axis, or
    /// a later rule), so that the error is the CPU's. The masks' shapes are
    /// checked after the operation and the mode, before everything else.
    pub(crate) fn checked<P: Prepared>(
        &self,
        gpu: &Gpu,
        host: Result<P, IndexError>,
        bounds: Bounds,
        shape: &[usize],
    ) -> Result<P, GpuError> {
        if let Err(IndexError::UnsupportedMode { .. } | IndexError::UnsupportedOperation { .. }) = &host {
            return host.map_err(GpuError::from);
        }
        for (first, mask) in &self.masks {
            prepare::mask_shape(mask, &shape[*first..], *first)?;
        }
        let host = match (host, self.whole_mask) {
            (Err(error), Some(count)) => Err(prepare::whole_mask_error_of(count, error)),
            (host, _) => host,
        };
        // Indices are checked only where they select something, in mode
        // `error` (or on an empty axis, which no mode resolves into), as on
        // the CPU.
        let empty_axis = matches!(host, Err(IndexError::OutOfBounds { len: 0, .. }));
        let unchecked = (bounds != Bounds::Error && !empty_axis)
            || match &host {
                Ok(prepared) => prepared.selects_nothing(),
                Err(_) => self.selects_nothing,
            };
        if unchecked || self.arrays.is_empty() {
            return host.map_err(GpuError::from);
        }
        // Outside mode `error` only an empty axis faults: clip and wrap
        // resolve every index on an axis that has elements.
        let Some((placed, position)) = self.first_fault(gpu, shape, bounds != Bounds::Error)? else {
            return host.map_err(GpuError::from);
        };
        if let Err(error) = &host
            && !prepare::device_fault_first(&self.planned, &self.axes, error, placed.axis)
        {
            return host.map_err(GpuError::from);
        }
        let index = placed.array.get().element(position)?;
        Err(prepare::device_out_of_bounds(index, placed.axis, shape[placed.axis]).into())
    }

    /// The first device array (in index order) with an element out of
    /// bounds, and that element's position: every array checked on the
    /// device (only those on an axis of length 0 where `empty_axes_only`),
    /// the positions read back in one copy.
    fn first_fault(&self, gpu: &Gpu, shape: &[usize], empty_axes_only: bool) -> Result<Option<(&Placed<'t>, usize)>, GpuError> {
        let checked = |placed: &Placed<'t>| !placed.in_bounds && (!empty_axes_only || shape[placed.axis] == 0);
        if !self.arrays.iter().any(checked) {
            return Ok(None);
        }
        let faults = indices::filled(gpu, u32::MAX, self.arrays.len());
        for (slot, placed) in self.arrays.iter().enumerate().filter(|(_, placed)| checked(placed)) {
            placed.array.get().check_bounds(&faults, slot, shape[placed.axis]);
        }
        let faults = faults.read(gpu)?;
        let first = self.arrays.iter().zip(faults).find(|(_, fault)| *fault != u32::MAX);
        Ok(first.map(|(placed, fault)| (placed, fault as usize)))
    }

    /// `region` (of the host's `plan` on a target of `layout`) with its
    /// offset table built on the device: the host's entries (zero unless
    /// host arrays, masks or integers share the index) plus each device
    /// array's positions.
    pub(crate) fn fold(&self, gpu: &Gpu, region: Region, plan: &Plan<'_>, layout: Layout<'_>, bounds: Bounds) -> Result<Region, GpuError> {
        if self.arrays.is_empty() {
            // Every device array indexed like integers.
            return Ok(region);
        }
        let Plan::Indexed(IndexedPlan { table, .. }) = plan else {
            unreachable!("a device index array makes the index advanced")
        };
        let host = region.host_table().expect("an advanced region has a table");
        if host.len() > i32::MAX as usize {
            return Err(GpuError::TooLarge { elements: host.len() });
        }
        let entries = match host.iter().all(|&entry| entry == 0) {
            true => indices::filled(gpu, 0i32, host.len()),
            false => {
                let small = |entry: isize| i32::try_from(entry).map_err(|_| GpuError::TooLarge { elements: host.len() });
                let entries: Vec<i32> = host
                    .iter()
                    .map(|&entry| {
                        if entry == tensor_core::backend::plan::SKIP {
                            Ok(DEVICE_SKIP)
                        } else {
                            small(entry)
                        }
                    })
                    .collect::<Result<_, _>>()?;
                Buffer::from_slice(gpu, &entries)
            }
        };
        let resolve = match bounds {
            Bounds::Error => Resolve::InBounds,
            Bounds::Clip => Resolve::Clip,
            Bounds::Wrap => Resolve::Wrap,
            Bounds::Skip => Resolve::Skip,
        };
        for placed in &self.arrays {
            let axis = (layout.shape[placed.axis], layout.strides[placed.axis]);
            placed.array.get().fold(&entries, &table.shape, axis, resolve);
        }
        Ok(region.with_device_table(entries))
    }
}

/// Whether `index` or `value` holds an array on the device.
pub(crate) fn holds_device_arrays<T>(index: &[IndexElem<'_>], value: Option<&Value<'_, T>>) -> bool {
    index.iter().any(|elem| matches!(elem, IndexElem::Device { .. })) || matches!(value, Some(Value::Device(_)))
}

/// A device index array or mask of an index, viewed at one batch position.
pub(crate) enum BatchView {
    Array(Box<dyn DeviceIndexArray>),
    Mask(DeviceMask),
}

impl BatchView {
    /// The view as an index element in `form`.
    fn index_elem(&self, form: DeviceForm) -> IndexElem<'_> {
        match self {
            BatchView::Array(array) => array.index_elem(form),
            BatchView::Mask(mask) => IndexElem::Device {
                array: DeviceArray::new(mask.shape().unwrap_or(&[]), mask),
                form,
            },
        }
    }
}

/// The device index arrays and masks of `index` (in index order) viewed at
/// batch position `at`.
pub(crate) fn batch_views(index: &[IndexElem<'_>], at: &[usize]) -> Result<Vec<BatchView>, GpuError> {
    let devices = index.iter().filter_map(|elem| match elem {
        IndexElem::Device { array, form } => Some((array, *form)),
        _ => None,
    });
    let view = |(array, form): (&DeviceArray<'_>, DeviceForm)| match form {
        DeviceForm::Mask => Ok(BatchView::Mask(device_mask(array)?.at_batch(at)?)),
        _ => Ok(BatchView::Array(index_array(array)?.at_batch(at))),
    };
    devices.map(view).collect()
}

/// The index of batch position `at` ([`Batch::index_at`]), its device
/// arrays the `views` of them there ([`batch_views`]).
pub(crate) fn index_at<'i>(batches: &Batch, index: &'i [IndexElem<'_>], at: &[usize], views: &'i [BatchView]) -> Vec<IndexElem<'i>> {
    let mut views = views.iter();
    let at_batch = batches.index_at(index, at).into_iter().map(|elem| match elem {
        IndexElem::Device { form, .. } => views.next().expect("one view per device array").index_elem(form),
        elem => elem,
    });
    at_batch.collect()
}

/// What the host prepares: a read's plan, or an update.
pub(crate) trait Prepared {
    /// Whether its advanced indices select no position.
    fn selects_nothing(&self) -> bool;
}

impl Prepared for Plan<'_> {
    fn selects_nothing(&self) -> bool {
        match self {
            Plan::Indexed(plan) => plan.table.is_empty(),
            Plan::View(_) => false,
        }
    }
}

impl<T> Prepared for Update<'_, '_, T> {
    fn selects_nothing(&self) -> bool {
        self.plan.selects_nothing()
    }
}

/// The device index array `array` stands for.
fn index_array<'t>(array: &'t DeviceArray<'_>) -> Result<&'t dyn DeviceIndexArray, GpuError> {
    fn typed<'t, I: GpuIndex>(array: &'t DeviceArray<'_>) -> Option<&'t dyn DeviceIndexArray> {
        array.downcast::<GpuTensor<I>>().map(|tensor| tensor as &dyn DeviceIndexArray)
    }
    typed::<i32>(array)
        .or_else(|| typed::<u32>(array))
        .or_else(|| typed::<i64>(array))
        .or_else(|| typed::<u64>(array))
        .ok_or(GpuError::Unsupported {
            operation: "a device index array",
            reason: "device index arrays are GpuTensors of i32, u32, i64 or u64",
        })
}

/// `index` with its device arrays and masks read back to the host: for the
/// rare call whose answer depends on which positions a device index holds
/// (operands that mode `drop` skips).
pub(crate) fn on_host<'i>(gpu: &Gpu, index: &'i [IndexElem<'_>]) -> Result<Vec<IndexElem<'i>>, GpuError> {
    let read_back = |array: &DeviceArray<'_>, form: DeviceForm| -> Result<IndexElem<'i>, GpuError> {
        if form == DeviceForm::Mask {
            let mask = device_mask(array)?;
            let coordinates = mask.coordinates(gpu)?.to_array()?;
            let mut host = ArrayD::from_elem(IxDyn(mask.shape()?), false);
            for point in coordinates.rows() {
                let at: Vec<usize> = point.iter().map(|&c| c as usize).collect();
                host[IxDyn(&at)] = true;
            }
            return Ok(IndexElem::Mask(CowArray::from(host)));
        }
        // A `u64` beyond `i64` is out of bounds of every axis, as `i64::MAX` is.
        let values = index_array(array)?
            .values()?
            .into_iter()
            .map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        let ints = ArrayD::from_shape_vec(IxDyn(array.shape()), values.collect()).expect("one value per element");
        let ints = IntArray::I64(CowArray::from(ints));
        Ok(match form {
            DeviceForm::Array => IndexElem::Array(ints),
            DeviceForm::Nd => IndexElem::Nd(ints),
            DeviceForm::Along(axis) => IndexElem::Along { index: ints, axis },
            _ => return Err(GpuError::newer_core("this form of device index")),
        })
    };
    index
        .iter()
        .map(|elem| match elem {
            IndexElem::Device { array, form } => read_back(array, *form),
            elem => reborrow(elem),
        })
        .collect()
}

/// Whether the advanced element `elem` (a stand-in or a host array)
/// selects nothing: an array with an empty axis (every advanced index
/// broadcasts with it, so the selection is empty too), or a mask of no
/// `true`.
fn selects_nothing(elem: &IndexElem<'_>) -> bool {
    match elem {
        IndexElem::Array(array) | IndexElem::Along { index: array, .. } => array.shape().contains(&0),
        IndexElem::Nd(array) => array.shape().split_last().is_some_and(|(_, batch)| batch.contains(&0)),
        IndexElem::Mask(mask) => !mask.iter().any(|&b| b),
        _ => false,
    }
}

/// `elem` borrowing what it holds (no array copied).
fn reborrow<'e>(elem: &'e IndexElem<'_>) -> Result<IndexElem<'e>, GpuError> {
    Ok(match elem {
        IndexElem::Array(array) => IndexElem::Array(array.view()),
        IndexElem::Nd(array) => IndexElem::Nd(array.view()),
        IndexElem::Mask(mask) => IndexElem::Mask(CowArray::from(mask.view())),
        IndexElem::Along { index, axis } => IndexElem::Along {
            index: index.view(),
            axis: *axis,
        },
        IndexElem::Int(int) => IndexElem::Int(*int),
        IndexElem::Slice(slice) => IndexElem::Slice(*slice),
        IndexElem::Range(range) => IndexElem::Range(*range),
        IndexElem::Ellipsis => IndexElem::Ellipsis,
        IndexElem::NewAxis => IndexElem::NewAxis,
        _ => return Err(GpuError::newer_core("this index element")),
    })
}
