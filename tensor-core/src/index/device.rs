//! Arrays that live on another device (a GPU): an index array or a value
//! that only the target on that device can read. The CPU knows their shape,
//! which is all that planning needs; reading them is the device's job.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// An array held by another device, as an index array or a value: its
/// shape, and the device's own array (say, a `tensor_gpu::GpuTensor<i32>`),
/// which the target on that device downcasts to read.
///
/// A CPU target refuses it with
/// [`IndexError::OnDevice`](crate::IndexError::OnDevice): the elements are
/// not on the host.
#[derive(Clone)]
pub struct DeviceArray<'a> {
    shape: Cow<'a, [usize]>,
    array: Held<'a>,
}

// A device array is only read while an index or a value holds it, so a
// panic during an update leaves nothing half-changed to observe through
// it: unwind-safe, whatever the device's own handle type says.
impl std::panic::UnwindSafe for DeviceArray<'_> {}
impl std::panic::RefUnwindSafe for DeviceArray<'_> {}

/// The device's array, borrowed from the caller or owned with the index (a
/// mask the index computed).
#[derive(Clone)]
enum Held<'a> {
    Borrowed(&'a (dyn Any + Send + Sync)),
    Shared(Arc<dyn Any + Send + Sync>),
}

impl<'a> DeviceArray<'a> {
    /// The device array `array`, of shape `shape`.
    pub fn new(shape: &'a [usize], array: &'a (dyn Any + Send + Sync)) -> Self {
        DeviceArray {
            shape: Cow::Borrowed(shape),
            array: Held::Borrowed(array),
        }
    }

    /// A device array the index owns (a mask computed on the device), of
    /// shape `shape`.
    pub fn shared(shape: Vec<usize>, array: Arc<dyn Any + Send + Sync>) -> Self {
        DeviceArray {
            shape: Cow::Owned(shape),
            array: Held::Shared(array),
        }
    }

    /// The array's shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The same array, borrowed.
    #[cfg(feature = "burn")]
    pub(crate) fn view(&self) -> DeviceArray<'_> {
        let array: &(dyn Any + Send + Sync) = match &self.array {
            Held::Borrowed(array) => *array,
            Held::Shared(array) => &**array,
        };
        DeviceArray::new(&self.shape, array)
    }

    /// The device's array, if it is an `A`.
    pub fn downcast<A: Any>(&self) -> Option<&A> {
        match &self.array {
            Held::Borrowed(array) => array.downcast_ref(),
            Held::Shared(array) => array.downcast_ref(),
        }
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
    /// `x[m]` with a boolean mask computed on the device (`h > 0.0`): it
    /// consumes as many axes as it has.
    Mask,
}

impl fmt::Debug for DeviceArray<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceArray").field("shape", &self.shape).finish_non_exhaustive()
    }
}
