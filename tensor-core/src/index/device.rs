//! Arrays that live on another device (a GPU): an index array or a value
//! that only the target on that device can read. The CPU knows their shape,
//! which is all that planning needs; reading them is the device's job.

use std::any::Any;
use std::fmt;

/// An array held by another device, as an index array or a value: its
/// shape, and the device's own array (say, a `tensor_gpu::GpuTensor<i32>`),
/// which the target on that device downcasts to read.
///
/// A CPU target refuses it with
/// [`IndexError::OnDevice`](crate::IndexError::OnDevice): the elements are
/// not on the host.
#[derive(Clone, Copy)]
pub struct DeviceArray<'a> {
    shape: &'a [usize],
    array: &'a (dyn Any + Send + Sync),
}

impl<'a> DeviceArray<'a> {
    /// The device array `array`, of shape `shape`.
    pub fn new(shape: &'a [usize], array: &'a (dyn Any + Send + Sync)) -> Self {
        DeviceArray { shape, array }
    }

    /// The array's shape.
    pub fn shape(&self) -> &'a [usize] {
        self.shape
    }

    /// The device's array, if it is an `A`.
    pub fn downcast<A: Any>(&self) -> Option<&'a A> {
        self.array.downcast_ref()
    }
}

/// How a device index array indexes: as an integer array, as `nd(idx)`, or
/// as `along(idx, axis)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeviceForm {
    /// `x[idx]`: along one axis.
    Array,
    /// `x[nd(idx)]`: coordinates along as many axes as its last axis is long.
    Nd,
    /// `x[along(idx, axis)]`.
    Along(isize),
}

impl fmt::Debug for DeviceArray<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceArray").field("shape", &self.shape).finish_non_exhaustive()
    }
}
