//! Why a GPU operation was refused: an index error (the same
//! [`IndexError`] tensor-core returns for the same call on the CPU), or a
//! limit of the GPU backend.

use tensor_core::IndexError;

/// Why a GPU operation was refused. Every variant is returned before any
/// kernel writes, so the tensor is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// The index, value or mode was rejected, exactly as tensor-core rejects
    /// them on the CPU.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// A mask whose comparisons are on tensors that do not broadcast
    /// together (`(a > 0) & (b > 0)` with `a` of shape `(3,)`, `b` of `(4,)`).
    #[error("operands could not be broadcast together with shapes {shapes}")]
    MaskBroadcast {
        /// The shapes of the mask's tensors, in the order written.
        shapes: tensor_core::error::IndexShapes,
    },
    /// An operation the GPU backend does not run.
    #[error("{operation} is not supported on the GPU: {reason}")]
    Unsupported {
        /// The operation as written (`pow`, `apply`).
        operation: &'static str,
        /// Why, and what to do instead.
        reason: &'static str,
    },
    /// The device cannot hold this element type (wgpu has no 64-bit types).
    #[error("the device {device} does not support {element} elements")]
    UnsupportedElement {
        /// The element type.
        element: &'static str,
        /// The device's name.
        device: String,
    },
    /// A tensor or region beyond the kernels' 32-bit positions and offsets.
    #[error("{elements} elements are more than the GPU kernels address (at most {max})", max = i32::MAX)]
    TooLarge {
        /// The number of elements asked for: of a shape with an empty axis,
        /// the product of its other lengths, which its strides span (see
        /// [`GpuTensor::from_handle`](crate::GpuTensor::from_handle)).
        elements: usize,
    },
    /// A handle given to [`GpuTensor::from_handle`](crate::GpuTensor::from_handle)
    /// holds fewer bytes than the shape's elements need.
    #[error("the handle holds {bytes} bytes, fewer than the {needed} the shape's elements need")]
    HandleTooSmall {
        /// The bytes the handle holds.
        bytes: u64,
        /// The bytes the elements need.
        needed: u64,
    },
    /// No device of the asked-for runtime on this machine, or the runtime is
    /// not in this build.
    #[error("no GPU device: {0}")]
    NoDevice(String),
    /// The runtime reported a failure (a lost device, an out-of-memory).
    #[error("the GPU runtime failed: {0}")]
    Device(String),
}

impl GpuError {
    /// What tensor-core offers and this crate has no kernel for: a
    /// tensor-core newer than this tensor-gpu.
    pub(crate) fn newer_core(operation: &'static str) -> GpuError {
        GpuError::Unsupported {
            operation,
            reason: "tensor-core is newer than this tensor-gpu, which has no kernel for it; use the tensor-gpu of the same version",
        }
    }
}
