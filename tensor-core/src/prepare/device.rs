//! Index arrays on another device, checked there apart from the host's
//! preparation (which sees zeros in their place): where NumPy reports the
//! first of them out of bounds among the errors the host found.

use crate::error::IndexError;
use crate::index::IndexElem;

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
}
