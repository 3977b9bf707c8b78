//! Index arrays on another device, checked there apart from the host's
//! preparation (which sees zeros in their place): where NumPy reports the
//! first of them out of bounds among the errors the host found.

use crate::error::IndexError;
use crate::index::{DeviceForm, IndexElem};

/// The target axes that one index array on a device reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceAxes {
    /// One axis: the array's values are positions along it.
    One(usize),
    /// `depth` consecutive axes from `first`, one per column of the
    /// array's last axis: the coordinates of `nd` and of a mask.
    Columns {
        /// The first axis.
        first: usize,
        /// How many.
        depth: usize,
    },
}

/// The axes that the device array standing at `element` of the prepared
/// `index` reads, as `form` places it on a target of `ndim` axes (`axes`
/// the first axis of each element, [`first_axes`](super::first_axes)). A
/// mask stands in as the `nd` of its coordinates. An `along` axis out of
/// range is the plan's error to report; until then, it reads the last axis.
pub fn device_axes(index: &[IndexElem<'_>], axes: &[usize], ndim: usize, element: usize, form: DeviceForm) -> DeviceAxes {
    match form {
        DeviceForm::Nd | DeviceForm::Mask => {
            let depth = match &index[element] {
                IndexElem::Nd(coordinates) => coordinates.shape().last().copied().unwrap_or(0),
                _ => 1,
            };
            DeviceAxes::Columns {
                first: axes[element],
                depth,
            }
        }
        DeviceForm::Along(axis) => {
            let axis = if axis < 0 { axis.saturating_add_unsigned(ndim) } else { axis };
            DeviceAxes::One(usize::try_from(axis).unwrap_or(0).min(ndim.saturating_sub(1)))
        }
        DeviceForm::Array => DeviceAxes::One(axes[element]),
    }
}

/// Whether an index array checked on a device and out of bounds on `axis`
/// is reported before `host`, the error of the preparation with zeros in
/// the arrays' place, in NumPy's order: array bounds come after the
/// index's structure, its integers and slices and the broadcast, and
/// before the value and the operands; among arrays, the first in the
/// index. `index` is the index the host prepared, and `axes` the first
/// target axis of each of its elements.
pub fn device_fault_first(index: &[IndexElem<'_>], axes: &[usize], host: &IndexError, axis: usize) -> bool {
    match host {
        IndexError::ShapeMismatch { .. }
        | IndexError::ValueCount { .. }
        | IndexError::DivisionByZero
        | IndexError::NegativeIntegerPower => true,
        IndexError::OutOfBounds { axis: failed, .. } => !integer_on(index, axes, *failed) && axis <= *failed,
        _ => false,
    }
}

/// The error of an index array checked on a device whose first element
/// out of bounds is `index`, on `axis` of length `len`.
pub fn device_out_of_bounds(index: i128, axis: usize, len: usize) -> IndexError {
    IndexError::OutOfBounds { index, axis, len }
}

/// Whether the element placed on `axis` indexes as an integer (integers
/// are checked before any array).
fn integer_on(index: &[IndexElem<'_>], axes: &[usize], axis: usize) -> bool {
    let integer = |elem: &IndexElem<'_>| match elem {
        IndexElem::Int(_) => true,
        IndexElem::Array(array) => array.shape().is_empty(),
        _ => false,
    };
    index.iter().zip(axes).any(|(elem, &first)| first == axis && integer(elem))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Dims;
    use crate::index::IntArray;
    use crate::prepare::first_axes;
    use ndarray::{ArrayD, IxDyn};

    fn array(shape: &[usize]) -> IndexElem<'static> {
        IndexElem::Array(IntArray::I64(ArrayD::zeros(IxDyn(shape)).into()))
    }

    #[test]
    fn a_device_fault_comes_after_the_index_and_before_the_value() {
        let index = [IndexElem::Int(0), array(&[3]), array(&[3])];
        let axes = [0, 1, 2];
        let bounds = |axis| IndexError::OutOfBounds { index: 9, axis, len: 4 };
        // An integer out of bounds is checked before every array.
        assert!(!device_fault_first(&index, &axes, &bounds(0), 1));
        // Among arrays, the first in the index.
        assert!(device_fault_first(&index, &axes, &bounds(2), 1));
        assert!(!device_fault_first(&index, &axes, &bounds(1), 2));
        // The value and the operands come after every bound.
        let mismatch = IndexError::ShapeMismatch {
            value: Dims(vec![2]),
            target: Dims(vec![3]),
        };
        assert!(device_fault_first(&index, &axes, &mismatch, 2));
        assert!(device_fault_first(&index, &axes, &IndexError::DivisionByZero, 1));
        // The structure and the broadcast come before.
        assert!(!device_fault_first(
            &index,
            &axes,
            &IndexError::TooManyIndices { ndim: 3, indexed: 4 },
            1
        ));
        // A zero-dimensional array indexes as an integer.
        let index = [array(&[]), array(&[3])];
        assert!(!device_fault_first(&index, &[0, 1], &bounds(0), 1));
    }

    #[test]
    fn device_arrays_read_the_axes_numpy_places_them_on() {
        let nd = |shape: &[usize]| IndexElem::Nd(IntArray::I64(ArrayD::zeros(IxDyn(shape)).into()));
        // x[0, nd(c), idx] on 5 axes: c of depth 2 reads axes 1 and 2, idx axis 3.
        let index = [IndexElem::Int(0), nd(&[4, 2]), array(&[4])];
        let axes = first_axes(&index, 5).unwrap();
        assert_eq!(
            device_axes(&index, &axes, 5, 1, DeviceForm::Nd),
            DeviceAxes::Columns { first: 1, depth: 2 }
        );
        assert_eq!(
            device_axes(&index, &axes, 5, 1, DeviceForm::Mask),
            DeviceAxes::Columns { first: 1, depth: 2 }
        );
        assert_eq!(device_axes(&index, &axes, 5, 2, DeviceForm::Array), DeviceAxes::One(3));
        // `along` names its axis, from the end when negative; one out of
        // range reads the last until the plan reports it.
        assert_eq!(device_axes(&index, &axes, 5, 2, DeviceForm::Along(-2)), DeviceAxes::One(3));
        assert_eq!(device_axes(&index, &axes, 5, 2, DeviceForm::Along(9)), DeviceAxes::One(4));
        assert_eq!(device_axes(&index, &axes, 5, 2, DeviceForm::Along(isize::MIN)), DeviceAxes::One(0));
    }
}
