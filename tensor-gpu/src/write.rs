//! Writes: `x[index] = v`, `x[index] op= v` and the mask sugar
//! `x[x < s] op= v`. Everything that can fail (the index, the value's
//! shape, integer operands, the 32-bit limits) is checked before the first
//! kernel runs, so on error the tensor is unchanged.

use ndarray::{ArrayViewD, Dimension, IxDyn, ShapeBuilder};
use tensor_core::backend::plan::Plan;
use tensor_core::backend::prepare::{self, Layout, Update};
use tensor_core::backend::{AnyMode, Bounds, DeviceForm};
use tensor_core::element::{Arith, Compare};
use tensor_core::index::IndexElem;
use tensor_core::value::{Broadcast, IntoValue, Value};
use tensor_core::{IndexError, Mode, Op};

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::device_index::{self, OnDevice, device_value};
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::combine::Combine;
use crate::kernels::compact::{self, Selected};
use crate::kernels::condition::Condition;
use crate::kernels::masked;
use crate::kernels::{copy, scatter_reduce, scatter_set};
use crate::layout::{DeviceRegion, Region, broadcast_strides};
use crate::mask::{DeviceMask, device_mask};
use crate::tensor::GpuTensor;
use crate::value::DeviceValue;

/// How a write runs, chosen by [`write_auto`] once everything is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriteStrategy {
    /// A view: positions are distinct, one unit per position writes.
    Direct,
    /// Possible duplicates, `set`: sort by destination, the last occurrence writes.
    LastWins,
    /// Possible duplicates, accumulate: sort by destination, one unit per
    /// destination folds its occurrences in index order.
    FoldInOrder,
}

/// The strategy for writing `op` through `plan`.
fn write_auto(plan: &Plan<'_>, op: Combine) -> WriteStrategy {
    match (plan, op) {
        (Plan::View(_), _) => WriteStrategy::Direct,
        (Plan::Indexed(_), Combine::Set) => WriteStrategy::LastWins,
        (Plan::Indexed(_), _) => WriteStrategy::FoldInOrder,
    }
}

/// A prepared write with its region and value on the device, staged by
/// [`GpuTensor::stage_write`]: launching it cannot fail.
pub(crate) struct StagedWrite<T> {
    gpu: Gpu,
    /// The written tensor's buffer.
    target: Buffer<T>,
    value: Buffer<T>,
    region: DeviceRegion,
    strategy: WriteStrategy,
    op: Combine,
}

impl<T: GpuElement> StagedWrite<T> {
    /// Launches the write's kernels.
    pub(crate) fn launch(self) {
        let StagedWrite {
            gpu,
            target,
            value,
            region,
            strategy,
            op,
        } = self;
        match strategy {
            WriteStrategy::Direct => copy::write(&gpu, &target, &value, &region, op),
            WriteStrategy::LastWins => scatter_set::scatter_set(&gpu, &target, &value, &region),
            WriteStrategy::FoldInOrder => scatter_reduce::scatter_reduce(&gpu, &target, &value, &region, op),
        }
    }
}

/// Float powers differ between GPU `pow` implementations and the CPU's
/// `powf` (and are undefined for negative bases in SPIR-V): refuse them
/// rather than return results that differ from tensor-core.
pub(crate) fn check_op<T: GpuElement>(op: Op) -> Result<(), GpuError> {
    match op == Op::Pow && T::FLOAT {
        true => Err(GpuError::Unsupported {
            operation: "pow",
            reason: "float powers on a GPU are not bitwise those of the CPU; integer powers are supported",
        }),
        false => Ok(()),
    }
}

/// The operations whose operands tensor-core checks (integer `/`, `%` and
/// powers) are refused with a value on the device, whose operands are not
/// checked there.
pub(crate) fn refuse_unchecked_operands<T: GpuElement>(op: Op, value: &Value<'_, T>) -> Result<(), GpuError> {
    match matches!(value, Value::Device(_)) && T::checks_operands(op) && T::supports(op) {
        true => Err(GpuError::Unsupported {
            operation: op.symbol(),
            reason: "the operands of a device value are not checked on the device yet: pass the value from the host",
        }),
        false => Ok(()),
    }
}

impl<T: GpuElement> GpuTensor<T> {
    /// Writes `value` into `self[index]` (NumPy's `x[index] = value`), with
    /// tensor-core's [`set`](tensor_core::backend::set) semantics: duplicates keep
    /// the last occurrence in index order; mode `drop` skips out-of-bounds
    /// positions. Index arrays may be host arrays or GPU tensors of
    /// integers ([`GpuIndex`](crate::GpuIndex)); the value a host scalar or
    /// array, or a GPU tensor (`&g`).
    pub fn set<'v>(&mut self, index: &[IndexElem<'_>], value: impl IntoValue<'v, T>, mode: Mode) -> Result<(), GpuError> {
        self.set_any(index, value, mode.into())
    }

    /// [`set`](Self::set) in any mode, as the backend traits take it.
    pub(crate) fn set_any<'v>(&mut self, index: &[IndexElem<'_>], value: impl IntoValue<'v, T>, mode: AnyMode<T>) -> Result<(), GpuError> {
        let value = value.into_value();
        if let Some(mask) = self.whole_mask(index, &mode)? {
            return self.set_condition(mask.condition(&self.gpu, Some(&self.buffer))?, value);
        }
        self.write_index(index, mode.bounds(), &value, Combine::Set, |index, layout, value| {
            prepare::set(index, layout, &mode, value)
        })
    }

    /// Combines `self[index]` with `value` by `op`, once per occurrence, in
    /// index order (unbuffered, like `np.add.at`), with tensor-core's
    /// [`update`](tensor_core::backend::update) semantics and errors. Float `pow` is
    /// refused ([`GpuError::Unsupported`]), and so are the operations whose
    /// operands tensor-core checks (integer `/`, `%` and powers) with a
    /// value on the device, whose operands are not checked there.
    pub fn update<'v>(&mut self, index: &[IndexElem<'_>], op: Op, value: impl IntoValue<'v, T>, mode: Mode) -> Result<(), GpuError> {
        self.update_any(index, op, value, mode.into())
    }

    /// [`update`](Self::update) in any mode, as the backend traits take it.
    pub(crate) fn update_any<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        op: Op,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError> {
        check_op::<T>(op)?;
        let combine = Combine::update(op)?;
        let value = value.into_value();
        refuse_unchecked_operands::<T>(op, &value)?;
        if let Some(mask) = self.whole_mask(index, &mode)? {
            return self.update_condition(mask.condition(&self.gpu, Some(&self.buffer))?, op, value);
        }
        self.write_index(index, mode.bounds(), &value, combine, |index, layout, value| {
            prepare::update(index, layout, op, &mode, value)
        })
    }

    /// [`set`](Self::set) with a value that is already on the device, as
    /// `x[index] = v` of two device tensors: NumPy's broadcasting, the same
    /// checks and errors, and no copy to or from the host (a value sharing
    /// this tensor's memory, or not in C order, is first copied on the
    /// device).
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_at::{ix, Mode};
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let gpu = Gpu::wgpu()?;
    /// let mut x = GpuTensor::from_array(&gpu, &ndarray::Array2::<f32>::zeros((2, 3)))?;
    /// let row = GpuTensor::from_array(&gpu, &array![1.0f32, 2.0, 3.0])?;
    /// let rows = GpuTensor::from_array(&gpu, &array![1, 0])?; //    indices on the device too
    /// x.set_from(&[ix(&rows)], &row, Mode::Clip)?; //               uploads the shapes' descriptions
    /// let before = gpu.transfers();
    /// x.set_from(&[ix(&rows)], &row, Mode::Clip)?; //               then copies nothing
    /// assert_eq!(gpu.transfers() - before, Default::default());
    /// assert_eq!(x.to_array()?, array![[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]].into_dyn());
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn set_from(&mut self, index: &[IndexElem<'_>], value: &GpuTensor<T>, mode: Mode) -> Result<(), GpuError> {
        self.set(index, value, mode)
    }

    /// [`update`](Self::update) with a value that is already on the device
    /// ([`set_from`](Self::set_from)).
    pub fn update_from(&mut self, index: &[IndexElem<'_>], op: Op, value: &GpuTensor<T>, mode: Mode) -> Result<(), GpuError> {
        self.update(index, op, value, mode)
    }

    /// `self[self compare threshold] = value` (the mask sugar
    /// `at!(x[x < s] = v)`), fused: one pass for a scalar `value`; an array
    /// holds one value per selected element, in C order.
    pub fn set_where<'v>(&mut self, compare: Compare, threshold: T, value: impl IntoValue<'v, T>) -> Result<(), GpuError> {
        let condition = Condition::compare(&self.gpu, (compare, threshold));
        self.set_condition(condition, value.into_value())
    }

    /// `self[self compare threshold] op= value`, as [`set_where`](Self::set_where).
    pub fn update_where<'v>(&mut self, compare: Compare, threshold: T, op: Op, value: impl IntoValue<'v, T>) -> Result<(), GpuError> {
        let condition = Condition::compare(&self.gpu, (compare, threshold));
        self.update_condition(condition, op, value.into_value())
    }

    /// `self[condition] = value`, the condition on this tensor's elements.
    pub(crate) fn set_condition(&mut self, condition: Condition<T>, value: Value<'_, T>) -> Result<(), GpuError> {
        let zero = T::from_int(0);
        let (host, device) = host_form(&value, &zero)?;
        self.write_where(condition, Combine::Set, device, |count| prepare::set_where(&host, count))
    }

    /// `self[condition] op= value`, as [`set_condition`](Self::set_condition).
    pub(crate) fn update_condition(&mut self, condition: Condition<T>, op: Op, value: Value<'_, T>) -> Result<(), GpuError> {
        check_op::<T>(op)?;
        let combine = Combine::update(op)?;
        refuse_unchecked_operands::<T>(op, &value)?;
        let zero = T::from_int(0);
        let (host, device) = host_form(&value, &zero)?;
        self.write_where(condition, combine, device, |count| prepare::update_where(op, &host, count))
    }

    /// The device mask that is the whole `index`, when it has this tensor's
    /// shape: a write of the mask sugar's passes, once `mode` is known to
    /// apply to updates. (Other masks on the device index as the
    /// coordinates they select.)
    fn whole_mask<'i>(&self, index: &'i [IndexElem<'_>], mode: &AnyMode<T>) -> Result<Option<&'i DeviceMask>, GpuError> {
        let [
            IndexElem::Device {
                array,
                form: DeviceForm::Mask,
            },
        ] = index
        else {
            return Ok(None);
        };
        prepare::update_mode(mode)?;
        let mask = device_mask(array)?;
        Ok((mask.shape()? == self.shape.as_slice()).then_some(mask))
    }

    /// Prepares (by `prepare`, on the host) and runs a write of `value`
    /// through `index`.
    fn write_index(
        &mut self,
        index: &[IndexElem<'_>],
        bounds: Bounds,
        value: &Value<'_, T>,
        op: Combine,
        prepare: impl for<'i, 'w> Fn(&'i [IndexElem<'_>], Layout<'_>, &'w Value<'_, T>) -> Result<Update<'i, 'w, T>, IndexError>,
    ) -> Result<(), GpuError> {
        if let Some(staged) = self.stage_index(index, bounds, value, op, &prepare)? {
            staged.launch();
        }
        Ok(())
    }

    /// A write of `value` through `index`, prepared by `prepare` on the
    /// host and staged: device index arrays planned by their shapes,
    /// checked on the device and folded into the offset table there, a
    /// device value checked by its shape. `None` when nothing is written.
    pub(crate) fn stage_index(
        &self,
        index: &[IndexElem<'_>],
        bounds: Bounds,
        value: &Value<'_, T>,
        op: Combine,
        prepare: &impl for<'i, 'w> Fn(&'i [IndexElem<'_>], Layout<'_>, &'w Value<'_, T>) -> Result<Update<'i, 'w, T>, IndexError>,
    ) -> Result<Option<StagedWrite<T>>, GpuError> {
        let zero = T::from_int(0);
        let (host, on_device) = host_form(value, &zero)?;
        let device = OnDevice::split(&self.gpu, index, &self.shape)?;
        let update = match &device {
            None => prepare(index, self.layout(), &host)?,
            Some(device) => {
                let planned = prepare(device.index(), self.layout(), &host);
                if bounds == Bounds::Skip && matches!(planned, Err(IndexError::DivisionByZero | IndexError::NegativeIntegerPower)) {
                    // The stand-ins keep every position, so the host vetted
                    // operands that mode `drop` may skip: the CPU's answer
                    // needs the indices themselves (read back, this once).
                    let on_host = device_index::on_host(&self.gpu, index)?;
                    return self.stage_index(&on_host, bounds, value, op, prepare);
                }
                device.checked(&self.gpu, planned, bounds, &self.shape)?
            }
        };
        let mut region = Region::of_plan(&update.plan, self.offset, &self.strides)?;
        if let Some(device) = &device {
            region = device.fold(&self.gpu, region, &update.plan, self.layout(), bounds)?;
        }
        self.stage(region, &update.plan, op, |shape| match on_device {
            Some(value) => DeviceValue::on_device(value, shape, &self.buffer),
            None => Ok(DeviceValue::upload(&self.gpu, &update.values, shape)),
        })
    }

    /// Uploads a prepared write's region and value, the one step of a write
    /// that can fail (a region beyond the kernels' 32-bit positions); what
    /// it returns launches without failing. `None` when nothing is written.
    pub(crate) fn stage_write(&mut self, update: Update<'_, '_, T>, op: Combine) -> Result<Option<StagedWrite<T>>, GpuError> {
        let region = Region::of_plan(&update.plan, self.offset, &self.strides)?;
        self.stage(region, &update.plan, op, |shape| {
            Ok(DeviceValue::upload(&self.gpu, &update.values, shape))
        })
    }

    /// The write of `plan` through `region` (its positions in this tensor)
    /// with the value `value` makes for the region's shape, the region
    /// uploaded.
    fn stage(
        &self,
        region: Region,
        plan: &Plan<'_>,
        op: Combine,
        value: impl FnOnce(&[usize]) -> Result<DeviceValue<T>, GpuError>,
    ) -> Result<Option<StagedWrite<T>>, GpuError> {
        if region.len() == 0 {
            return Ok(None);
        }
        let value = value(&region.shape())?;
        let device = region.with_value_strides(&value.strides).upload(&self.gpu)?;
        Ok(Some(StagedWrite {
            gpu: self.gpu.clone(),
            target: self.buffer.clone(),
            value: value.buffer,
            region: device,
            strategy: write_auto(plan, op),
            op,
        }))
    }

    /// The mask sugar: `prepare` checks the value (a device value, `device`,
    /// by its shape), given the count of the selection (a compaction pass
    /// on the device, run when it asks: for an array value, or a scalar
    /// whose operand it vets), then one kernel writes.
    fn write_where<'v>(
        &mut self,
        condition: Condition<T>,
        op: Combine,
        device_value: Option<&GpuTensor<T>>,
        prepare: impl FnOnce(&mut dyn FnMut() -> Result<usize, GpuError>) -> Result<Broadcast<'v, T>, GpuError>,
    ) -> Result<(), GpuError>
    where
        T: 'v,
    {
        let region = Region::of_layout(self.offset, &self.shape, &self.strides);
        if region.len() == 0 {
            // Nothing is selected; the value is checked all the same.
            prepare(&mut || Ok(0))?;
            return Ok(());
        }
        let device = region.upload(&self.gpu)?;
        let mut selected: Option<Selected> = None;
        let mut count = || {
            let selection = compact::select_where(&self.gpu, &self.buffer, &device, &condition)?;
            let count = selection.count;
            selected = Some(selection);
            Ok(count)
        };
        let values = prepare(&mut count)?;
        match &values {
            Broadcast::Scalar(scalar) => masked::update_where_scalar(&self.gpu, &self.buffer, &device, &condition, op, **scalar),
            Broadcast::Array { view, shape } => {
                let selected = selected.expect("an array value is checked against the count");
                let values = match device_value {
                    Some(tensor) => DeviceValue::on_device(tensor, shape.slice(), &self.buffer)?,
                    None => DeviceValue::upload(&self.gpu, &values, shape.slice()),
                };
                // The selection is one axis, along which the value is read.
                debug_assert_eq!(values.strides, broadcast_strides(view.shape(), shape.slice()));
                let stride = values.strides[0] as u32;
                compact::write_selected_values(
                    &self.gpu,
                    &self.buffer,
                    &device,
                    &condition,
                    &selected,
                    (&values.buffer, stride),
                    op,
                );
            }
        }
        Ok(())
    }
}

/// `value` as the host checks it (a device value by its shape, every
/// element `zero`), and the device value, if it is one.
fn host_form<'v, T: GpuElement>(value: &'v Value<'_, T>, zero: &'v T) -> Result<(Value<'v, T>, Option<&'v GpuTensor<T>>), GpuError> {
    Ok(match value {
        Value::Scalar(scalar) => (Value::Scalar(*scalar), None),
        Value::Array(array) => (Value::Array(array.view().into()), None),
        Value::Device(array) => {
            let tensor = device_value::<T>(array)?;
            (shape_of(tensor, zero), Some(tensor))
        }
    })
}

/// A host value of `value`'s shape, every element `zero` (one element,
/// broadcast): what `prepare` checks a device value's shape with.
fn shape_of<'z, T: Arith>(value: &GpuTensor<T>, zero: &'z T) -> Value<'z, T> {
    let shape = IxDyn(value.shape()).strides(IxDyn(&vec![0; value.ndim()]));
    Value::Array(
        ArrayViewD::from_shape(shape, std::slice::from_ref(zero))
            .expect("zero strides read one element")
            .into(),
    )
}
