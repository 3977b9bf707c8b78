//! Batched calls (`; batch = k`): for every batch position `b`, the call
//! on `x[b]` with `INDEX[b]` and `v[b]`, as tensor-core's
//! [`get_batched`](tensor_core::backend::get_batched) runs them on the CPU.
//!
//! Every batch is prepared by tensor-core (and, for a write, staged on the
//! device) before the first kernel writes, so an error in any batch leaves
//! the tensor unchanged. Where tensor-core has the batched index as one
//! index of the whole tensor ([`Batch::as_one`]), the call is that one
//! index's call: one plan and one kernel, whatever the number of batches.
//! Otherwise a batch's share of the tensor is a view sharing its buffer:
//! the tensor behind its leading `k` axes. Writes then run batch by batch
//! (the batches are distinct regions, so their order decides nothing);
//! reads stack every batch's region into one and gather it with one
//! kernel.

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
use crate::layout::{Region, elements};
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
        // (With no batch position, nothing is indexed: not even an integer
        // that would be out of bounds on an empty axis.)
        if Batch::is_basic(index) && count(&batches) > 0 {
            // The same view of every batch: one read behind whole axes.
            return self.get_any(&Batch::behind_whole_axes(index, batch), mode);
        }
        if let Some(read) = batches
            .as_one(index, self.batch_layout(batch), usize::MAX)
            .filter(|one| one.is_in_order())
            .and_then(|one| self.get_any(&one.index, mode).ok())
        {
            return Ok(read);
        }
        if device_index::holds_device_arrays::<T>(index, None) {
            return self.get_batched_on_device(index, &batches, mode);
        }
        let shares = self.shares(&batches, index, None)?;
        let mut plans = room(shares.views.len())?;
        for (view, index) in shares.views.iter().zip(&shares.indices) {
            plans.push(prepare::read(index, view.layout(), &mode)?);
        }
        let mut shape = batches.shape().to_vec();
        let Some(first) = plans.first() else {
            shape.extend(prepare::batch_read_shape(&batches, index, self.batch_layout(batch))?);
            elements(&shape)?;
            return Ok(GpuTensor::contiguous(&self.gpu, Buffer::empty(self.gpu.client(), 0), shape));
        };
        shape.extend_from_slice(first.shape());
        if elements(&shape)? == 0 {
            // Nothing to read: no region to stack (one per batch position).
            return Ok(GpuTensor::contiguous(&self.gpu, Buffer::empty(self.gpu.client(), 0), shape));
        }
        let mut regions = room(plans.len())?;
        for (view, plan) in shares.views.iter().zip(&plans) {
            debug_assert_eq!(plan.shape(), first.shape(), "every batch reads one shape");
            regions.push(Region::of_plan(plan, view.offset, &view.strides)?);
        }
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
        let batches = prepare::batch_update(batch, &self.shape, index, &mode, Some(&value))?;
        if self.write_as_one(&batches, index, &value, |x, index, value| x.set_any(index, value, mode)) {
            return Ok(());
        }
        if device_index::holds_device_arrays(index, Some(&value)) {
            return self.write_batched_on_device(index, &batches, &value, &mode, Combine::Set, &|index, layout, value| {
                prepare::set(index, layout, &mode, value)
            });
        }
        let mut shares = self.shares(&batches, index, Some(&value))?;
        let mut updates = room(shares.views.len())?;
        for (view, (index, value)) in shares.views.iter().zip(shares.indices.iter().zip(&shares.values)) {
            updates.push(prepare::set(index, view.layout(), &mode, value)?);
        }
        write_batches(&mut shares.views, updates, Combine::Set)
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
        let batches = prepare::batch_update(batch, &self.shape, index, &mode, Some(&value))?;
        if self.write_as_one(&batches, index, &value, |x, index, value| x.update_any(index, op, value, mode)) {
            return Ok(());
        }
        if device_index::holds_device_arrays(index, Some(&value)) {
            return self.write_batched_on_device(index, &batches, &value, &mode, combine, &|index, layout, value| {
                prepare::update(index, layout, op, &mode, value)
            });
        }
        let mut shares = self.shares(&batches, index, Some(&value))?;
        let mut updates = room(shares.views.len())?;
        for (view, (index, value)) in shares.views.iter().zip(shares.indices.iter().zip(&shares.values)) {
            updates.push(prepare::update(index, view.layout(), op, &mode, value)?);
        }
        write_batches(&mut shares.views, updates, combine)
    }

    /// Writes a batched call as one index of the whole tensor, by `write`
    /// (the unbatched call), where [`Batch::as_one`] has one at any size (a
    /// batch written one by one costs a plan on the host and a kernel
    /// launch) and the value can be laid out for it: whether it was
    /// written. A write that fails writes nothing, and then the batches are
    /// written one by one, which report the batched call's error.
    fn write_as_one(
        &mut self,
        batches: &Batch,
        index: &[IndexElem<'_>],
        value: &Value<'_, T>,
        write: impl FnOnce(&mut Self, &[IndexElem<'_>], Value<'_, T>) -> Result<(), GpuError>,
    ) -> bool {
        let Some(one) = batches.as_one(index, self.batch_layout(batches.ndim()), usize::MAX) else {
            return false;
        };
        one.value(value).is_some_and(|value| write(self, &one.index, value).is_ok())
    }

    /// The layout of each batch's share of this tensor: its axes behind
    /// the leading `k`.
    fn batch_layout(&self, k: usize) -> Layout<'_> {
        Layout {
            shape: &self.shape[k..],
            strides: &self.strides[k..],
        }
    }

    /// A batched read whose index holds device arrays: each batch position's
    /// read, its device arrays viewed there, copied into its place in the
    /// result on the device.
    fn get_batched_on_device(&self, index: &[IndexElem<'_>], batches: &Batch, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        let count = count(batches);
        let (mut positions, mut reads) = (room(count)?, room(count)?);
        positions.extend(batches.positions());
        let mut shape = batches.shape().to_vec();
        for at in &positions {
            let views = device_index::batch_views(index, at)?;
            let index = device_index::index_at(batches, index, at, &views);
            let read = self.batch_view(at).get_any(&index, mode)?;
            if reads.is_empty() {
                // Every batch reads this shape: the result is refused
                // before the device holds a second batch's read.
                shape.extend_from_slice(read.shape());
                elements(&shape)?;
            }
            reads.push(read);
        }
        if reads.is_empty() {
            shape.extend(prepare::batch_read_shape(batches, index, self.batch_layout(batches.ndim()))?);
        }
        let len = elements(&shape)?;
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
        batches: &Batch,
        value: &Value<'_, T>,
        mode: &AnyMode<T>,
        op: Combine,
        prepare: &impl for<'i, 'w> Fn(&'i [IndexElem<'_>], Layout<'_>, &'w Value<'_, T>) -> Result<Update<'i, 'w, T>, IndexError>,
    ) -> Result<(), GpuError> {
        let count = count(batches);
        let (mut positions, mut views, mut device_values) = (room(count)?, room(count)?, room(count)?);
        let mut staged = room(count)?;
        positions.extend(batches.positions());
        for at in &positions {
            views.push(device_index::batch_views(index, at)?);
            device_values.push(match value {
                Value::Device(array) => Some(device_index::device_value::<T>(array)?.batch_at(at)),
                _ => None,
            });
        }
        for ((at, views), device_value) in positions.iter().zip(&views).zip(&device_values) {
            let index = device_index::index_at(batches, index, at, views);
            let value = match device_value {
                Some(tensor) => tensor.into_value(),
                None => batches.value_at(value, at),
            };
            staged.push(self.batch_view(at).stage_index(&index, mode.bounds(), &value, op, prepare)?);
        }
        staged.into_iter().flatten().for_each(|write| write.launch());
        Ok(())
    }

    /// The share of every batch position of `batches` in a call of `index`
    /// and `value` on this tensor, in C order; every list is reserved before
    /// any is filled.
    fn shares<'i, 'v>(
        &self,
        batches: &Batch,
        index: &'i [IndexElem<'_>],
        value: Option<&'v Value<'_, T>>,
    ) -> Result<Shares<'i, 'v, T>, GpuError> {
        let count = count(batches);
        let mut shares = Shares {
            positions: room(count)?,
            views: room(count)?,
            indices: room(count)?,
            values: room(if value.is_some() { count } else { 0 })?,
        };
        shares.positions.extend(batches.positions());
        for at in &shares.positions {
            shares.views.push(self.batch_view(at));
            shares.indices.push(batches.index_at(index, at));
            if let Some(value) = value {
                shares.values.push(batches.value_at(value, at));
            }
        }
        Ok(shares)
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
    let mut staged = room(views.len())?;
    for (view, update) in views.iter_mut().zip(updates) {
        staged.push(view.stage_write(update, op)?);
    }
    staged.into_iter().flatten().for_each(|write| write.launch());
    Ok(())
}

/// What each batch position of a batched call works on, for every position
/// in C order (see [`GpuTensor::shares`]).
struct Shares<'i, 'v, T> {
    /// The batch positions.
    positions: Vec<Vec<usize>>,
    /// The target's view at each.
    views: Vec<GpuTensor<T>>,
    /// The index at each.
    indices: Vec<Vec<IndexElem<'i>>>,
    /// The value at each (none for a read).
    values: Vec<Value<'v, T>>,
}

/// The number of batch positions.
fn count(batches: &Batch) -> usize {
    batches.positions().len()
}

/// An empty vector with room for `count` entries, one per batch position:
/// [`IndexError::TooLarge`] naming the count when memory cannot hold them
/// (as tensor-core's batched calls name their batch shape), never an abort.
/// Many positions need not mean many elements (long batch axes before an
/// empty one), so no check of elements stands in for this one.
fn room<E>(count: usize) -> Result<Vec<E>, GpuError> {
    let mut room = Vec::new();
    room.try_reserve_exact(count).map_err(|_| prepare::too_large(&[count]))?;
    Ok(room)
}
