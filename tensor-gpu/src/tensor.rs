//! The GPU tensor: a device buffer, and the shape and strides (in elements,
//! negative ones included) of the array it holds from an origin offset.

use cubecl::server::Handle;
use ndarray::{ArrayBase, ArrayD, Data, Dimension, IxDyn};
use tensor_core::backend::AnyMode;
use tensor_core::backend::plan::Plan;
use tensor_core::backend::prepare::{self, Layout};
use tensor_core::index::IndexElem;

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::copy;
use crate::layout::{Region, c_strides, elements};

/// An n-dimensional array on a GPU, indexed and updated with tensor-at's
/// semantics by cubecl kernels.
///
/// ```
/// # #[cfg(feature = "wgpu")] {
/// use ndarray::array;
/// use tensor_at::{ix, Mode, Op};
/// use tensor_gpu::{Gpu, GpuTensor};
///
/// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
/// let gpu = Gpu::wgpu()?;
/// let mut hist = GpuTensor::from_array(&gpu, &array![0u32, 0, 0])?;
/// hist.update(&[ix([0, 2, 2])], Op::Add, 1, Mode::Error)?;
/// assert_eq!(hist.to_array()?, array![1, 0, 2].into_dyn());
/// # }
/// # Ok::<(), tensor_gpu::GpuError>(())
/// ```
///
/// A tensor made by [`view`](Self::view) shares its buffer with the tensor
/// it views, as an ndarray view does: writes through it land in the viewed
/// tensor. Every other constructor allocates.
pub struct GpuTensor<T> {
    pub(crate) gpu: Gpu,
    pub(crate) buffer: Buffer<T>,
    /// Position of element `[0, 0, ...]` in the buffer.
    pub(crate) offset: usize,
    pub(crate) shape: Vec<usize>,
    pub(crate) strides: Vec<isize>,
}

impl<T> std::fmt::Debug for GpuTensor<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuTensor")
            .field("element", &std::any::type_name::<T>())
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .field("offset", &self.offset)
            .finish()
    }
}

impl<T: GpuElement> GpuTensor<T> {
    /// Uploads `array` (in C order, whatever its layout).
    ///
    /// Fails when the device cannot hold `T`, or the kernels cannot address
    /// the array's shape ([`GpuError::TooLarge`]: the product of its lengths
    /// other than zero passes `i32::MAX`, as for [`from_handle`](Self::from_handle)).
    pub fn from_array<S: Data<Elem = T>, D: Dimension>(gpu: &Gpu, array: &ArrayBase<S, D>) -> Result<Self, GpuError> {
        gpu.check_element::<T>()?;
        elements(array.shape())?;
        let contiguous = array.as_standard_layout();
        let elements = contiguous.as_slice().expect("standard layout is contiguous");
        Ok(Self::contiguous(gpu, Buffer::from_slice(gpu, elements), array.shape().to_vec()))
    }

    /// A tensor of `shape`, in C order, over device memory that a kernel of
    /// your own wrote (a cubecl [`Handle`] of `gpu`'s client): indices from
    /// an argmax, a sort or a sampler then index other tensors without
    /// leaving the device. The tensor shares the memory with `handle`.
    ///
    /// Fails when the handle holds fewer bytes than the elements need
    /// ([`GpuError::HandleTooSmall`]), the device cannot hold `T`, or the
    /// kernels cannot address the shape ([`GpuError::TooLarge`]): when the
    /// product of its lengths other than zero passes `i32::MAX`. An empty
    /// axis does not exempt the others (`[2, 1 << 62, 0]` is refused): the
    /// strides of C order are products of the other lengths, and every
    /// stride and offset must fit the kernels' 32-bit arithmetic.
    ///
    /// ```
    /// # #[cfg(feature = "wgpu")] {
    /// use ndarray::array;
    /// use tensor_gpu::{Gpu, GpuTensor};
    ///
    /// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
    /// let gpu = Gpu::wgpu()?;
    /// let handle = gpu.client().create_from_slice(u32::as_bytes(&[2, 0, 1])); // (what a kernel would write)
    /// let order = GpuTensor::<u32>::from_handle(&gpu, handle, &[3])?;
    /// let x = GpuTensor::from_array(&gpu, &array![10.0f32, 20.0, 30.0])?;
    /// assert_eq!(x.get(&[tensor_core::ix(&order)], Default::default())?.to_array()?, array![30.0, 10.0, 20.0].into_dyn());
    /// # use cubecl::prelude::CubeElement;
    /// # }
    /// # Ok::<(), tensor_gpu::GpuError>(())
    /// ```
    pub fn from_handle(gpu: &Gpu, handle: Handle, shape: &[usize]) -> Result<Self, GpuError> {
        gpu.check_element::<T>()?;
        let len = elements(shape)?;
        let (bytes, needed) = (handle.size_in_used(), (len.max(1) * size_of::<T>()) as u64);
        if bytes < needed {
            return Err(GpuError::HandleTooSmall { bytes, needed });
        }
        Ok(Self::contiguous(gpu, Buffer::from_handle(handle, len), shape.to_vec()))
    }

    /// The memory of [`handle`](Self::handle) as a kernel argument (every
    /// element of the buffer, from its start), for kernels of your own.
    pub fn arg(&self) -> cubecl::prelude::BufferArg {
        self.buffer.arg()
    }

    /// A tensor filling `buffer` in C order. The caller has checked that
    /// the kernels address `shape` (with [`elements`]), as every tensor's
    /// shape is: its strides then fit, as do those of every view of it.
    pub(crate) fn contiguous(gpu: &Gpu, buffer: Buffer<T>, shape: Vec<usize>) -> Self {
        debug_assert!(elements(&shape).is_ok(), "an addressable shape: {shape:?}");
        GpuTensor {
            gpu: gpu.clone(),
            buffer,
            offset: 0,
            strides: c_strides(&shape),
            shape,
        }
    }

    /// Downloads the elements into a new array (waits for every kernel
    /// writing them).
    pub fn to_array(&self) -> Result<ArrayD<T>, GpuError> {
        let elements = match self.is_standard() {
            true => self.buffer.read(&self.gpu)?,
            false => self.copy()?.buffer.read(&self.gpu)?,
        };
        Ok(ArrayD::from_shape_vec(IxDyn(&self.shape), elements).expect("one element per position"))
    }

    /// A C-contiguous copy in a new buffer (one strided-copy kernel).
    pub fn copy(&self) -> Result<GpuTensor<T>, GpuError> {
        let region = Region::of_layout(self.offset, &self.shape, &self.strides);
        let device = region.upload(&self.gpu)?;
        let buffer = copy::copy(&self.gpu, &self.buffer, &device);
        Ok(Self::contiguous(&self.gpu, buffer, self.shape.clone()))
    }

    /// The view `index` selects: basic indices only (integers, slices, `...`,
    /// new axes), sharing this tensor's buffer, with no kernel run.
    /// Advanced indices select copies: use [`get`](Self::get).
    pub fn view(&self, index: &[IndexElem<'_>]) -> Result<GpuTensor<T>, GpuError> {
        let Plan::View(plan) = prepare::read(index, self.layout(), &AnyMode::<T>::Error)? else {
            return Err(GpuError::Unsupported {
                operation: "view",
                reason: "advanced indices (arrays, masks) select copies: use get",
            });
        };
        let region = Region::of_view(&plan, self.offset, &self.strides);
        let (offset, strides) = region.strided_layout();
        Ok(GpuTensor {
            gpu: self.gpu.clone(),
            buffer: self.buffer.clone(),
            offset,
            shape: plan.shape,
            strides,
        })
    }

    /// The layout tensor-core prepares indices on.
    pub(crate) fn layout(&self) -> Layout<'_> {
        Layout {
            shape: &self.shape,
            strides: &self.strides,
        }
    }

    /// Whether the elements fill the buffer in C order (the stride of an
    /// axis of one position, which a view sets to 0, is never taken).
    pub(crate) fn is_standard(&self) -> bool {
        let in_c_order = || {
            let taken = |((&len, &stride), c): ((&usize, &isize), isize)| len <= 1 || stride == c;
            self.shape.iter().zip(&self.strides).zip(c_strides(&self.shape)).all(taken)
        };
        self.offset == 0 && self.buffer.len == self.len() && (self.len() <= 1 || in_c_order())
    }
}

impl<T> GpuTensor<T> {
    /// Another handle on the same elements (the buffer shared, as a view).
    pub(crate) fn shared(&self) -> GpuTensor<T> {
        GpuTensor {
            gpu: self.gpu.clone(),
            buffer: self.buffer.clone(),
            offset: self.offset,
            shape: self.shape.clone(),
            strides: self.strides.clone(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strides, in elements (negative for reversed axes of a view).
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The number of axes.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The device memory holding the elements (a cubecl [`Handle`]), for
    /// kernels of your own: element `[i, j, ...]` sits at element
    /// [`offset`](Self::offset)` + i * strides[0] + j * strides[1] + ...`.
    pub fn handle(&self) -> &Handle {
        &self.buffer.handle
    }

    /// Where element `[0, 0, ...]` sits in [`handle`](Self::handle)'s
    /// memory, in elements.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The device the tensor lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}
