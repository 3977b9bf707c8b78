//! Reads: `x[index]` (a strided copy for basic indices, a gather for
//! advanced ones) and `x[x < s]` (a compaction).

use tensor_core::ReadMode;
use tensor_core::backend::AnyMode;
use tensor_core::backend::plan::Plan;
use tensor_core::backend::prepare;
use tensor_core::element::Compare;
use tensor_core::index::IndexElem;

use crate::device_index::OnDevice;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::condition::Condition;
use crate::kernels::{compact, copy, gather};
use crate::layout::{Region, elements};
use crate::tensor::GpuTensor;

impl<T: GpuElement> GpuTensor<T> {
    /// Reads `self[index]` into a new C-contiguous tensor: the elements of
    /// tensor-core's [`get`](tensor_core::backend::get) on the same array, with the
    /// same errors ([`get_filled`](Self::get_filled) reads out-of-bounds
    /// positions as a value instead).
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_at::{ix, ReadMode};
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let x = GpuTensor::from_array(&Gpu::wgpu()?, &array![[1, 2, 3], [4, 5, 6]])?;
    /// let picked = x.get(&[ix([1, 0, 1]), ix([0, 0, 2])], ReadMode::Error)?;
    /// assert_eq!(picked.to_array()?, array![4, 1, 6].into_dyn());
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn get(&self, index: &[IndexElem<'_>], mode: ReadMode) -> Result<GpuTensor<T>, GpuError> {
        self.get_any(index, mode.into())
    }

    /// Reads `self[index]` as [`get`](Self::get) does, out-of-bounds
    /// positions read as `fill` (JAX's `mode='fill'`).
    pub fn get_filled(&self, index: &[IndexElem<'_>], fill: T) -> Result<GpuTensor<T>, GpuError> {
        self.get_any(index, AnyMode::Fill(fill))
    }

    /// [`get`](Self::get) in any mode, as the backend traits take it.
    pub(crate) fn get_any(&self, index: &[IndexElem<'_>], mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        let device = OnDevice::split(&self.gpu, index, &self.shape)?;
        let plan = match &device {
            None => prepare::read(index, self.layout(), &mode)?,
            Some(device) => device.checked(
                &self.gpu,
                prepare::read(device.index(), self.layout(), &mode),
                mode.bounds(),
                &self.shape,
            )?,
        };
        // A result the kernels cannot address (an index broadcast far past
        // the target selects one) is refused before any kernel runs.
        elements(plan.shape())?;
        let (region, buffer) = match &plan {
            Plan::View(plan) => {
                let region = Region::of_view(plan, self.offset, &self.strides);
                let device = region.upload(&self.gpu)?;
                (region, copy::copy(&self.gpu, &self.buffer, &device))
            }
            Plan::Indexed(indexed) => {
                let mut region = Region::of_indexed(indexed, self.offset)?;
                if let Some(device) = &device {
                    region = device.fold(&self.gpu, region, &plan, self.layout(), mode.bounds())?;
                }
                let device = region.upload(&self.gpu)?;
                let fill = match mode {
                    AnyMode::Fill(fill) => fill,
                    // No entry is skipped outside mode `fill`.
                    _ => T::from_int(0),
                };
                (region, gather::gather_region(&self.gpu, &self.buffer, &device, fill))
            }
        };
        Ok(GpuTensor::contiguous(&self.gpu, buffer, region.shape()))
    }

    /// Reads the elements `e` with `e compare threshold`, in C order, into a
    /// new one-dimensional tensor (NumPy's `x[x < s]`).
    pub fn get_where(&self, compare: Compare, threshold: T) -> Result<GpuTensor<T>, GpuError> {
        self.get_condition(&Condition::compare(&self.gpu, (compare, threshold)))
    }

    /// The elements where `condition` holds, in C order, into a new
    /// one-dimensional tensor.
    pub(crate) fn get_condition(&self, condition: &Condition<T>) -> Result<GpuTensor<T>, GpuError> {
        let device = Region::of_layout(self.offset, &self.shape, &self.strides).upload(&self.gpu)?;
        let selected = compact::select_where(&self.gpu, &self.buffer, &device, condition)?;
        let buffer = compact::gather_where(&self.gpu, &self.buffer, &device, condition, &selected);
        Ok(GpuTensor::contiguous(&self.gpu, buffer, vec![selected.count]))
    }
}
