//! Batched calls (`; batch = k`): for every batch position `b`, the call
//! on `x[b]` with `INDEX[b]` and `v[b]`, as tensor-core's
//! [`get_batched`](tensor_core::backend::get_batched) runs them on the CPU.
//!
//! Every batch is prepared by tensor-core (and, for a write, staged on the
//! device) before the first kernel writes, so an error in any batch leaves
//! the tensor unchanged. A batch's share of the tensor is a view sharing
//! its buffer: the tensor behind its leading `k` axes. Writes run batch by
//! batch (the batches are distinct regions, so their order decides
//! nothing); reads stack every batch's region into one and gather it with
//! one kernel.

use tensor_core::backend::AnyMode;
use tensor_core::backend::prepare::{self, Batch, Layout, Update};
use tensor_core::index::IndexElem;
use tensor_core::value::{IntoValue, Value};
use tensor_core::{IndexError, Mode, Op, ReadMode};

use crate::buffer::Buffer;
use crate::device_index;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::combine::Combine;
use crate::kernels::gather;
use crate::layout::Region;
use crate::tensor::GpuTensor;
use crate::write::{check_op, refuse_unchecked_operands};

impl<T: GpuElement> GpuTensor<T> {
    /// Reads `self[index]` with the leading `batch` axes of the tensor and
    /// of every index array paired (TensorFlow's `tf.gather(x, idx,
    /// batch_dims=k)`, the `vmap` of `x[idx]`): every batch position's read,
    /// stacked behind the batch shape, in a new C-contiguous tensor. The
    /// elements and errors of tensor-core's
    /// [`get_batched`](tensor_core::backend::get_batched); a read through a mask is
    /// refused (each batch may select a different number of elements).
    /// With `batch == 0`, [`get`](Self::get).
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_at::{ix, ReadMode};
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let x = GpuTensor::from_array(&Gpu::wgpu()?, &array![[10, 11, 12], [20, 21, 22]])?;
    /// // Row b picks idx[b].
    /// let picked = x.get_batched(&[ix(&array![[2, 0], [1, 1]])], 1, ReadMode::Error)?;
    /// assert_eq!(picked.to_array()?, array![[12, 10], [21, 21]].into_dyn());
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn get_batched(&self, index: &[IndexElem<'_>], batch: usize, mode: ReadMode) -> Result<GpuTensor<T>, GpuError> {
        self.get_batched_any(index, batch, mode.into())
    }

    /// [`get_batched`](Self::get_batched) in any mode, as the backend
    /// traits take it.
    pub(crate) fn get_batched_any(&self, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        if batch == 0 {
            return self.get_any(index, mode);
        }
        let batches = prepare::batch_read(batch, &self.shape, index, &mode)?;
        if device_index::holds_device_arrays::<T>(index, None) {
            return self.get_batched_on_device(index, &batches, mode);
        }
        let positions: Vec<Vec<usize>> = batches.positions().collect();
        // (With no batch position, nothing is indexed: not even an integer
        // that would be out of bounds on an empty axis.)
        if Batch::is_basic(index) && !positions.is_empty() {
            // The same view of every batch: one read behind whole axes.
            return self.get_any(&Batch::behind_whole_axes(index, batch), mode);
        }
        let views: Vec<GpuTensor<T>> = positions.iter().map(|at| self.batch_view(at)).collect();
        let indices: Vec<Vec<IndexElem<'_>>> = positions.iter().map(|at| batches.index_at(index, at)).collect();
        let plans = views
            .iter()
            .zip(&indices)
            .map(|(view, index)| prepare::read(index, view.layout(), &mode))
            .collect::<Result<Vec<_>, _>>()?;
        let mut shape = batches.shape().to_vec();
        let Some(first) = plans.first() else {
            let layout = Layout {
                shape: &self.shape[batch..],
                strides: &self.strides[batch..],
            };
            shape.extend(prepare::batch_read_shape(&batches, index, layout)?);
            return Ok(GpuTensor::contiguous(&self.gpu, Buffer::empty(self.gpu.client(), 0), shape));
        };
        shape.extend_from_slice(first.shape());
        let regions = views
            .iter()
            .zip(&plans)
            .map(|(view, plan)| {
                debug_assert_eq!(plan.shape(), first.shape(), "every batch reads one shape");
                Region::of_plan(plan, view.offset, &view.strides)
            })
            .collect::<Result<_, _>>()?;
        let region = Region::stacked(batches.shape(), regions);
        let device = region.upload(&self.gpu)?;
        let fill = match mode {
            AnyMode::Fill(fill) => fill,
            // No entry is skipped outside mode `fill`.
            _ => T::from_int(0),
        };
        let buffer = gather::gather_region(&self.gpu, &self.buffer, &device, fill);
        debug_assert_eq!(region.shape(), shape, "the stacked region has the read's shape");
        Ok(GpuTensor::contiguous(&self.gpu, buffer, shape))
    }

    /// Writes `value` into `self[index]` with the leading `batch` axes of
    /// the tensor, of every index array and mask, and of an array `value`
    /// paired: for every batch position `b`, `self[b][index[b]] = value[b]`
    /// (the `vmap` of `.at[].set`), a batch axis of length 1 in an index or
    /// the value broadcasting. Duplicates in a batch keep the last
    /// occurrence. The elements and errors of tensor-core's
    /// [`set_batched`](tensor_core::backend::set_batched); on error, nothing is
    /// written. With `batch == 0`, [`set`](Self::set).
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_at::{ix, Mode};
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let mut x = GpuTensor::from_array(&Gpu::wgpu()?, &array![[0, 0, 0], [0, 0, 0]])?;
    /// x.set_batched(&[ix(&array![[2], [0]])], 1, &array![[7], [9]], Mode::Error)?;
    /// assert_eq!(x.to_array()?, array![[0, 0, 7], [9, 0, 0]].into_dyn());
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn set_batched<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: impl IntoValue<'v, T>,
        mode: Mode,
    ) -> Result<(), GpuError> {
        self.set_batched_any(index, batch, value, mode.into())
    }

    /// [`set_batched`](Self::set_batched) in any mode, as the backend
    /// traits take it.
    pub(crate) fn set_batched_any<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError> {
        if batch == 0 {
            return self.set_any(index, value, mode);
        }
        let value = value.into_value();
        if device_index::holds_device_arrays(index, Some(&value)) {
            return self.write_batched_on_device(index, batch, &value, &mode, Combine::Set, &|index, layout, value| {
                prepare::set(index, layout, &mode, value)
            });
        }
        let batches = prepare::batch_update(batch, &self.shape, index, &mode, Some(&value))?;
        let positions: Vec<Vec<usize>> = batches.positions().collect();
        let mut views: Vec<GpuTensor<T>> = positions.iter().map(|at| self.batch_view(at)).collect();
        let indices: Vec<Vec<IndexElem<'_>>> = positions.iter().map(|at| batches.index_at(index, at)).collect();
        let values: Vec<_> = positions.iter().map(|at| batches.value_at(&value, at)).collect();
        let updates = views
            .iter()
            .zip(indices.iter().zip(&values))
            .map(|(view, (index, value))| prepare::set(index, view.layout(), &mode, value))
            .collect::<Result<Vec<_>, _>>()?;
        write_batches(&mut views, updates, Combine::Set)
    }

    /// Combines `self[index]` with `value` by `op` with the leading `batch`
    /// axes paired, as [`set_batched`](Self::set_batched) pairs them: every
    /// occurrence applied in index order (the `vmap` of `.at[].add`), so
    /// float sums are bitwise those of tensor-core's
    /// [`update_batched`](tensor_core::backend::update_batched), whose errors it
    /// returns; on error, nothing is written. Float `pow` is refused
    /// ([`GpuError::Unsupported`]). With `batch == 0`, [`update`](Self::update).
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_at::{ix, Mode, Op};
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let mut counts = GpuTensor::from_array(&Gpu::wgpu()?, &array![[0u32, 0], [0, 0]])?;
    /// let votes = array![[1, 1, 0], [0, 0, 0]];
    /// counts.update_batched(&[ix(&votes)], 1, Op::Add, 1, Mode::Error)?;
    /// assert_eq!(counts.to_array()?, array![[1, 2], [3, 0]].into_dyn());
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn update_batched<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: impl IntoValue<'v, T>,
        mode: Mode,
    ) -> Result<(), GpuError> {
        self.update_batched_any(index, batch, op, value, mode.into())
    }

    /// [`update_batched`](Self::update_batched) in any mode, as the backend
    /// traits take it.
    pub(crate) fn update_batched_any<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError> {
        check_op::<T>(op)?;
        if batch == 0 {
            return self.update_any(index, op, value, mode);
        }
        let combine = Combine::update(op)?;
        let value = value.into_value();
        refuse_unchecked_operands::<T>(op, &value)?;
        if device_index::holds_device_arrays(index, Some(&value)) {
            return self.write_batched_on_device(index, batch, &value, &mode, combine, &|index, layout, value| {
                prepare::update(index, layout, op, &mode, value)
            });
        }
        let batches = prepare::batch_update(batch, &self.shape, index, &mode, Some(&value))?;
        let positions: Vec<Vec<usize>> = batches.positions().collect();
        let mut views: Vec<GpuTensor<T>> = positions.iter().map(|at| self.batch_view(at)).collect();
        let indices: Vec<Vec<IndexElem<'_>>> = positions.iter().map(|at| batches.index_at(index, at)).collect();
        let values: Vec<_> = positions.iter().map(|at| batches.value_at(&value, at)).collect();
        let updates = views
            .iter()
            .zip(indices.iter().zip(&values))
            .map(|(view, (index, value))| prepare::update(index, view.layout(), op, &mode, value))
            .collect::<Result<Vec<_>, _>>()?;
        write_batches(&mut views, updates, combine)
    }

    /// A batched read whose index holds device arrays: each batch position's
    /// read, its device arrays viewed there, copied into its place in the
    /// result on the device.
    fn get_batched_on_device(&self, index: &[IndexElem<'_>], batches: &Batch, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        let positions: Vec<Vec<usize>> = batches.positions().collect();
        let reads = positions
            .iter()
            .map(|at| {
                let views = device_index::batch_views(index, at)?;
                self.batch_view(at)
                    .get_any(&device_index::index_at(batches, index, at, &views), mode)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut shape = batches.shape().to_vec();
        match reads.first() {
            Some(first) => shape.extend_from_slice(first.shape()),
            None => {
                let k = batches.shape().len();
                let layout = Layout {
                    shape: &self.shape[k..],
                    strides: &self.strides[k..],
                };
                shape.extend(prepare::batch_read_shape(batches, index, layout)?);
            }
        }
        let len = shape.iter().product();
        let out = GpuTensor::contiguous(&self.gpu, Buffer::empty(self.gpu.client(), len), shape);
        for (at, read) in positions.iter().zip(&reads) {
            out.batch_view(at).set_from(&[], read, Mode::Error)?;
        }
        Ok(out)
    }

    /// A batched write whose index or value holds device arrays: each batch
    /// position's write, its device arrays viewed there, prepared by
    /// `prepare` and staged (their bounds checked on the device) before the
    /// first is launched.
    fn write_batched_on_device(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: &Value<'_, T>,
        mode: &AnyMode<T>,
        op: Combine,
        prepare: &impl for<'i, 'w> Fn(&'i [IndexElem<'_>], Layout<'_>, &'w Value<'_, T>) -> Result<Update<'i, 'w, T>, IndexError>,
    ) -> Result<(), GpuError> {
        let batches = prepare::batch_update(batch, &self.shape, index, mode, Some(value))?;
        let positions: Vec<Vec<usize>> = batches.positions().collect();
        let views = positions
            .iter()
            .map(|at| device_index::batch_views(index, at))
            .collect::<Result<Vec<_>, _>>()?;
        let device_values = positions
            .iter()
            .map(|at| match value {
                Value::Device(array) => Ok(Some(device_index::device_value::<T>(array)?.batch_at(at))),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, GpuError>>()?;
        let mut staged = Vec::with_capacity(positions.len());
        for ((at, views), device_value) in positions.iter().zip(&views).zip(&device_values) {
            let index = device_index::index_at(&batches, index, at, views);
            let value = match device_value {
                Some(tensor) => tensor.into_value(),
                None => batches.value_at(value, at),
            };
            staged.push(self.batch_view(at).stage_index(&index, mode.bounds(), &value, op, prepare)?);
        }
        staged.into_iter().flatten().for_each(|write| write.launch());
        Ok(())
    }

    /// The view of batch position `at` of an index array or a value: behind
    /// its leading `at.len()` axes, at `at` along them but at 0 along those
    /// of length 1 (a broadcast batch axis), sharing the buffer.
    pub(crate) fn batch_at(&self, at: &[usize]) -> GpuTensor<T> {
        let at: Vec<usize> = at.iter().zip(&self.shape).map(|(&i, &len)| if len == 1 { 0 } else { i }).collect();
        self.batch_view(&at)
    }

    /// The view of batch position `at`: this tensor behind its leading
    /// `at.len()` axes, at `at` along them, sharing the buffer.
    fn batch_view(&self, at: &[usize]) -> GpuTensor<T> {
        let k = at.len();
        let shift: isize = at.iter().zip(&self.strides).map(|(&i, &stride)| i as isize * stride).sum();
        let offset = usize::try_from(self.offset as isize + shift).expect("a batch's origin is an element position");
        GpuTensor {
            gpu: self.gpu.clone(),
            buffer: self.buffer.clone(),
            offset,
            shape: self.shape[k..].to_vec(),
            strides: self.strides[k..].to_vec(),
        }
    }
}

/// Runs each batch's prepared update on its view: every write staged
/// (uploaded, the 32-bit limits checked) before the first is launched.
fn write_batches<T: GpuElement>(views: &mut [GpuTensor<T>], updates: Vec<prepare::Update<'_, '_, T>>, op: Combine) -> Result<(), GpuError> {
    let staged = views
        .iter_mut()
        .zip(updates)
        .map(|(view, update)| view.stage_write(update, op))
        .collect::<Result<Vec<_>, _>>()?;
    staged.into_iter().flatten().for_each(|write| write.launch());
    Ok(())
}
