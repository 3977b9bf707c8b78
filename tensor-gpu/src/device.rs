//! The device a GPU tensor lives on: a cubecl client.

use cubecl::prelude::*;
use cubecl::{Device, device::WgpuDeviceKind};

use crate::element::GpuElement;
use crate::error::GpuError;

/// A GPU (or a software Vulkan device such as lavapipe): the cubecl client
/// tensors are uploaded to and kernels launched on. Cheap to clone.
///
/// ```no_run
/// let gpu = tensor_gpu::Gpu::vulkan()?;
/// println!("running on {}", gpu.name());
/// # Ok::<(), tensor_gpu::GpuError>(())
/// ```
#[derive(Clone)]
pub struct Gpu {
    client: Client,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("name", &self.name()).finish()
    }
}

impl Gpu {
    /// The best device reachable through Vulkan (feature `wgpu`), lavapipe
    /// included. Vulkan is named explicitly: where no Vulkan driver is
    /// installed, wgpu's automatic choice falls back to OpenGL, whose float
    /// atomics silently do nothing; this fails instead.
    pub fn vulkan() -> Result<Self, GpuError> {
        Self::named(Device::vulkan(WgpuDeviceKind::DefaultDevice))
    }

    /// The CUDA device at `index` (feature `cuda`).
    pub fn cuda(index: usize) -> Result<Self, GpuError> {
        Self::named(Device::cuda(index))
    }

    /// The ROCm device at `index` (feature `hip`).
    pub fn rocm(index: usize) -> Result<Self, GpuError> {
        Self::named(Device::rocm(index))
    }

    /// A device from a cubecl client the caller set up.
    pub fn from_client(client: Client) -> Self {
        Gpu { client }
    }

    fn named(device: Result<Device, cubecl::device::DeviceUnavailable>) -> Result<Self, GpuError> {
        let device = device.map_err(|reason| GpuError::NoDevice(reason.to_string()))?;
        Ok(Gpu { client: device.client() })
    }

    /// The cubecl client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The device's name, as the runtime reports it.
    pub fn name(&self) -> &'static str {
        self.client.name()
    }

    /// Waits until every kernel launched on the device has finished (for
    /// timing; reads wait by themselves).
    pub fn sync(&self) -> Result<(), GpuError> {
        cubecl::future::block_on(self.client.sync()).map_err(|error| GpuError::Device(error.to_string()))
    }

    /// Whether the device can hold elements of type `T`.
    pub fn supports<T: GpuElement>(&self) -> bool {
        self.client.properties().supports_type(T::cube_type())
    }

    /// `Ok` when the device can hold `T`.
    pub(crate) fn check_element<T: GpuElement>(&self) -> Result<(), GpuError> {
        match self.supports::<T>() {
            true => Ok(()),
            false => Err(GpuError::UnsupportedElement {
                element: std::any::type_name::<T>(),
                device: self.name().to_string(),
            }),
        }
    }
}
