//! The device a GPU tensor lives on: a cubecl client.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[cfg(any(feature = "wgpu", feature = "cuda", feature = "hip"))]
use cubecl::Device;
#[cfg(feature = "wgpu")]
use cubecl::device::WgpuDeviceKind;
use cubecl::prelude::*;
use cubecl::server::Handle;

use crate::element::GpuElement;
use crate::error::GpuError;

/// A GPU (or a software Vulkan device such as lavapipe): the cubecl client
/// tensors are uploaded to and kernels launched on. Cheap to clone.
///
/// ```no_run
/// # #[cfg(feature = "wgpu")] {
/// let gpu = tensor_gpu::Gpu::wgpu()?;
/// println!("running on {}", gpu.name());
/// # }
/// # Ok::<(), tensor_gpu::GpuError>(())
/// ```
///
/// Each runtime is a feature, and its constructors exist only with it; the
/// features combine (`tensor-at = { features = ["gpu", "cuda"] }`):
///
/// | runtime | constructors | feature of `tensor-at` (of `tensor-gpu`) |
/// | --- | --- | --- |
/// | wgpu | [`Gpu::wgpu`] (the platform's own API), [`Gpu::vulkan`], [`Gpu::metal`], [`Gpu::dx12`] | `gpu` (`wgpu`, its default) |
/// | CUDA | `Gpu::cuda(index)` | `cuda` (`cuda`) |
/// | HIP (ROCm) | `Gpu::hip(index)` | `hip` (`hip`) |
///
/// [`Gpu::from_client`] takes a cubecl client of any runtime compiled in.
#[derive(Clone)]
pub struct Gpu {
    client: Client,
    /// Shared by every clone, so that a tensor's copies count too.
    transfers: Arc<TransferCounts>,
    /// What kernels read and never write (region descriptions, scalar
    /// values and operands), uploaded once per content, by element type.
    constants: Arc<Mutex<Constants>>,
}

/// Constants on the device, by element type and bytes.
pub(crate) type Constants = HashMap<(TypeId, Vec<u8>), Handle>;

/// The copies between host and device made through one [`Gpu`] (and its
/// clones) since it was created: [`Gpu::transfers`].
///
/// Every copy counts: a tensor's upload and download, and the small ones
/// an indexed call makes (a host index's offset table, a host array value,
/// a mask's count read back, the bounds flags of device indices in mode
/// `error`). The description of a region (its shape and strides) and a
/// scalar value or operand are uploaded the first time they are met and
/// kept on the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Transfers {
    /// Copies from the host to the device.
    pub uploads: u64,
    /// Copies from the device to the host.
    pub downloads: u64,
    /// The bytes of every upload.
    pub bytes_uploaded: u64,
    /// The bytes of every download.
    pub bytes_downloaded: u64,
}

impl Transfers {
    /// Uploads and downloads together.
    pub fn total(&self) -> u64 {
        self.uploads + self.downloads
    }
}

impl std::ops::Sub for Transfers {
    type Output = Transfers;

    /// The transfers made between two readings of [`Gpu::transfers`].
    fn sub(self, earlier: Transfers) -> Transfers {
        Transfers {
            uploads: self.uploads - earlier.uploads,
            downloads: self.downloads - earlier.downloads,
            bytes_uploaded: self.bytes_uploaded - earlier.bytes_uploaded,
            bytes_downloaded: self.bytes_downloaded - earlier.bytes_downloaded,
        }
    }
}

/// [`Transfers`] as the device's clones update them.
#[derive(Default)]
struct TransferCounts {
    uploads: AtomicU64,
    downloads: AtomicU64,
    bytes_uploaded: AtomicU64,
    bytes_downloaded: AtomicU64,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("name", &self.name()).finish()
    }
}

impl Gpu {
    /// The best device on this platform's own graphics API, through wgpu:
    /// Metal on macOS and iOS, DirectX 12 on Windows, Vulkan elsewhere
    /// (Linux, Android), a software driver such as lavapipe included.
    /// Feature `wgpu` (`gpu` in `tensor-at`).
    ///
    /// One API and no fallback, as with [`Gpu::vulkan`]: where it has no
    /// device this fails, where wgpu's automatic choice would come up on
    /// OpenGL. On Windows, DirectX 12 is the system's own API, which current
    /// GPU drivers provide, where Vulkan comes with some vendors' drivers
    /// only; [`Gpu::vulkan`] names Vulkan there.
    #[cfg(feature = "wgpu")]
    pub fn wgpu() -> Result<Self, GpuError> {
        if cfg!(target_vendor = "apple") {
            Self::metal()
        } else if cfg!(windows) {
            Self::dx12()
        } else {
            Self::vulkan()
        }
    }

    /// The best device reachable through Vulkan, lavapipe included (feature
    /// `wgpu`). Vulkan is named explicitly: where no Vulkan driver is
    /// installed, wgpu's automatic choice falls back to OpenGL, whose float
    /// atomics silently do nothing; this fails instead.
    #[cfg(feature = "wgpu")]
    pub fn vulkan() -> Result<Self, GpuError> {
        Self::named(Device::vulkan(WgpuDeviceKind::DefaultDevice))
    }

    /// The best device reachable through Metal, by wgpu (feature `wgpu`; on
    /// Apple platforms only, elsewhere an error).
    #[cfg(feature = "wgpu")]
    pub fn metal() -> Result<Self, GpuError> {
        Self::named(Device::metal_msl(WgpuDeviceKind::DefaultDevice))
    }

    /// The best device reachable through DirectX 12, by wgpu (feature
    /// `wgpu`; on Windows only, elsewhere an error).
    #[cfg(feature = "wgpu")]
    pub fn dx12() -> Result<Self, GpuError> {
        Self::named(Device::dx12(WgpuDeviceKind::DefaultDevice))
    }

    /// The CUDA device at `index`, counting the NVIDIA GPUs CUDA reports
    /// (feature `cuda`).
    #[cfg(feature = "cuda")]
    pub fn cuda(index: usize) -> Result<Self, GpuError> {
        Self::named(Device::cuda(index))
    }

    /// The HIP device at `index`, counting the AMD GPUs ROCm reports
    /// (feature `hip`).
    #[cfg(feature = "hip")]
    pub fn hip(index: usize) -> Result<Self, GpuError> {
        Self::named(Device::rocm(index))
    }

    /// A device from a cubecl client the caller set up.
    pub fn from_client(client: Client) -> Self {
        Gpu {
            client,
            transfers: Arc::default(),
            constants: Arc::default(),
        }
    }

    #[cfg(any(feature = "wgpu", feature = "cuda", feature = "hip"))]
    fn named(device: Result<Device, cubecl::device::DeviceUnavailable>) -> Result<Self, GpuError> {
        let device = device.map_err(|reason| GpuError::NoDevice(reason.to_string()))?;
        Ok(Self::from_client(device.client()))
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

    /// The copies between host and device made through this device so far
    /// (by it and its clones, from every thread). Subtract two readings to
    /// count what a stretch of code copied.
    ///
    /// ```no_run
    /// # #[cfg(feature = "wgpu")] {
    /// # use ndarray::array;
    /// # use tensor_gpu::{Gpu, GpuTensor};
    /// let gpu = Gpu::wgpu()?;
    /// let before = gpu.transfers();
    /// let x = GpuTensor::from_array(&gpu, &array![1.0f32, 2.0])?;
    /// assert_eq!((gpu.transfers() - before).uploads, 1);
    /// assert_eq!(x.shape(), [2]);
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn transfers(&self) -> Transfers {
        let counts = &self.transfers;
        Transfers {
            uploads: counts.uploads.load(Ordering::Relaxed),
            downloads: counts.downloads.load(Ordering::Relaxed),
            bytes_uploaded: counts.bytes_uploaded.load(Ordering::Relaxed),
            bytes_downloaded: counts.bytes_downloaded.load(Ordering::Relaxed),
        }
    }

    /// What kernels read and never write, kept on the device by content
    /// ([`Gpu::constant`], beside the buffers it makes).
    pub(crate) fn constants(&self) -> &Mutex<Constants> {
        &self.constants
    }

    /// Counts an upload of `bytes`.
    pub(crate) fn count_upload(&self, bytes: usize) {
        self.transfers.uploads.fetch_add(1, Ordering::Relaxed);
        self.transfers.bytes_uploaded.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Counts a download of `bytes`.
    pub(crate) fn count_download(&self, bytes: usize) {
        self.transfers.downloads.fetch_add(1, Ordering::Relaxed);
        self.transfers.bytes_downloaded.fetch_add(bytes as u64, Ordering::Relaxed);
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
