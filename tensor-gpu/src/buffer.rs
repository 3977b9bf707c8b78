//! A typed device buffer: a cubecl handle and the number of elements it
//! holds. Every copy between host and device is made here, and counted on
//! the [`Gpu`]; so are the constants it keeps for kernels to read.

use std::any::TypeId;
use std::marker::PhantomData;

use cubecl::prelude::*;
use cubecl::server::Handle;

use crate::device::Gpu;
use crate::error::GpuError;

/// `len` elements of `T` on the device. At least one element is allocated,
/// so an empty buffer is still a valid binding.
pub(crate) struct Buffer<T> {
    pub(crate) handle: Handle,
    pub(crate) len: usize,
    element: PhantomData<T>,
}

impl<T> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer").field("len", &self.len).finish_non_exhaustive()
    }
}

impl<T> Clone for Buffer<T> {
    /// Another handle on the same device memory (no copy).
    fn clone(&self) -> Self {
        Buffer {
            handle: self.handle.clone(),
            len: self.len,
            element: PhantomData,
        }
    }
}

impl<T: CubeElement> Buffer<T> {
    /// A buffer holding `data`, uploaded (and counted) through `gpu`.
    pub(crate) fn from_slice(gpu: &Gpu, data: &[T]) -> Self {
        let bytes = match data.is_empty() {
            true => &vec![0u8; size_of::<T>()],
            false => T::as_bytes(data),
        };
        gpu.count_upload(bytes.len());
        let handle = gpu.client().create_from_slice(bytes);
        Buffer {
            handle,
            len: data.len(),
            element: PhantomData,
        }
    }

    /// The first `len` elements of `handle` (which holds at least
    /// `max(len, 1)` of them: [`GpuTensor::from_handle`](crate::GpuTensor::from_handle) checks).
    pub(crate) fn from_handle(handle: Handle, len: usize) -> Self {
        Buffer {
            handle,
            len,
            element: PhantomData,
        }
    }

    /// An uninitialized buffer of `len` elements.
    pub(crate) fn empty(client: &Client, len: usize) -> Self {
        Buffer {
            handle: client.empty(len.max(1) * size_of::<T>()),
            len,
            element: PhantomData,
        }
    }

    /// Whether `self` and `other` are in the same device allocation,
    /// however each was made (a clone, or a tensor over a handle another
    /// tensor gave): a kernel reading one while writing the other would
    /// race. Two handles of one allocation are one memory even where their
    /// byte ranges do not meet.
    pub(crate) fn same_memory<U>(&self, other: &Buffer<U>) -> bool {
        let allocation = |handle: &Handle| handle.memory.clone().binding().id();
        allocation(&self.handle) == allocation(&other.handle)
    }

    /// The buffer as a kernel argument.
    pub(crate) fn arg(&self) -> BufferArg {
        // SAFETY: the handle was allocated for at least `max(len, 1)`
        // elements of `T`, the length declared here.
        unsafe { BufferArg::from_raw_parts(self.handle.clone(), self.len.max(1)) }
    }

    /// The elements, copied to the host (waits for every kernel writing
    /// them; counted on `gpu`).
    pub(crate) fn read(&self, gpu: &Gpu) -> Result<Vec<T>, GpuError> {
        if self.len == 0 {
            return Ok(Vec::new());
        }
        let bytes = gpu
            .client()
            .read_one(self.handle.clone())
            .map_err(|error| GpuError::Device(error.to_string()))?;
        gpu.count_download(bytes.len());
        Ok(T::from_bytes(&bytes)[..self.len].to_vec())
    }
}

/// The most constants a device keeps; past it, they start over.
const KEPT_CONSTANTS: usize = 1024;

impl Gpu {
    /// `data` on the device, for kernels to read and never write: uploaded
    /// the first time, then the same memory, so that a call repeated on
    /// tensors of one shape, with one scalar, uploads nothing.
    pub(crate) fn constant<T: CubeElement>(&self, data: &[T]) -> Buffer<T> {
        let key = (TypeId::of::<T>(), T::as_bytes(data).to_vec());
        let mut kept = self.constants().lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(handle) = kept.get(&key) {
            return Buffer::from_handle(handle.clone(), data.len());
        }
        if kept.len() >= KEPT_CONSTANTS {
            kept.clear();
        }
        let buffer = Buffer::from_slice(self, data);
        kept.insert(key, buffer.handle.clone());
        buffer
    }
}
