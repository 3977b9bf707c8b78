//! The element types a GPU tensor holds.

use cubecl::prelude::*;
use tensor_core::element::Arith;
use tensor_core::value::Scalar;

/// An element type of [`GpuTensor`](crate::GpuTensor): a number both
/// tensor-core (for the host-side checks) and cubecl (for the kernels) know.
///
/// `f32`, `i32` and `u32` work on every runtime. `f64`, `i64` and `u64`
/// work where the device supports them (CUDA, HIP); wgpu has no 64-bit
/// types, and uploading one there is [`GpuError::UnsupportedElement`](crate::GpuError::UnsupportedElement).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an element of a GPU tensor",
    note = "GPU tensors hold f32, i32 or u32 (and f64, i64, u64 where the runtime supports them)"
)]
pub trait GpuElement: Arith + Scalar + Numeric + CubeElement + sealed::Sealed {
    /// Whether the type is a float (float powers are refused).
    const FLOAT: bool;
}

mod sealed {
    /// Only the types the kernels are tested with.
    pub trait Sealed {}
}

macro_rules! gpu_element {
    ($($t:ty => $float:literal),*) => {$(
        impl sealed::Sealed for $t {}
        impl GpuElement for $t {
            const FLOAT: bool = $float;
        }
    )*};
}
gpu_element!(f32 => true, f64 => true, i32 => false, i64 => false, u32 => false, u64 => false);
