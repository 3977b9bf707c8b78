//! Values on the device: the value's own array (tensor-core's `prepare`
//! checked it broadcasts) uploaded once, or a tensor already on the device,
//! with its stride along each region axis.

use tensor_core::value::Broadcast;

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::layout::broadcast_strides;
use crate::tensor::GpuTensor;

/// A value ready for a kernel: its elements, and the distance between them
/// along each axis of the region (zero where it broadcasts).
pub(crate) struct DeviceValue<T> {
    pub(crate) buffer: Buffer<T>,
    pub(crate) strides: Vec<isize>,
}

impl<T: GpuElement> DeviceValue<T> {
    /// `values`, prepared for a region of shape `region`.
    pub(crate) fn upload(gpu: &Gpu, values: &Broadcast<'_, T>, region: &[usize]) -> Self {
        let source = match values {
            Broadcast::Scalar(scalar) => {
                return DeviceValue {
                    buffer: gpu.constant(&[**scalar]),
                    strides: vec![0; region.len()],
                };
            }
            Broadcast::Array { view, .. } => view,
        };
        let contiguous = source.as_standard_layout();
        let elements = contiguous.as_slice().expect("standard layout is contiguous");
        DeviceValue {
            buffer: Buffer::from_slice(gpu, elements),
            strides: broadcast_strides(source.shape(), region),
        }
    }
}

impl<T: GpuElement> DeviceValue<T> {
    /// `value`, a tensor on the device, for a region of shape `region` of
    /// `target`: its own buffer when it is in C order and not `target`'s
    /// memory, else a copy made on the device, so that the write reads the
    /// value as it was before (as a value overlapping the target is read on
    /// the CPU). Nothing crosses to the host.
    pub(crate) fn on_device(value: &GpuTensor<T>, region: &[usize], target: &Buffer<T>) -> Result<Self, GpuError> {
        let buffer = match value.is_standard() && !value.buffer.same_memory(target) {
            true => value.buffer.clone(),
            false => value.copy()?.buffer,
        };
        Ok(DeviceValue {
            buffer,
            strides: broadcast_strides(value.shape(), region),
        })
    }
}
