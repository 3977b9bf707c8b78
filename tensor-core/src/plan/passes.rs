//! The planner's passes over whole index arrays, supplied by its caller.
//! They are where long index arrays meet the hardware (several cores,
//! vector instructions, huge pages for a large table), which the planner
//! itself does not know: the CPU's entry layer passes its own, and
//! [`Serial`] serves everyone else.

use ndarray::{ArrayViewD, Axis, Slice};

use crate::index::{IndexInt, IntArray, with_int_array};

/// Passes over index arrays. Each must give exactly the results of
/// [`Serial`]'s (its implementations are tested against it).
///
/// # Safety
///
/// Executors read and write the target at the offsets of a plan with no
/// check of their own, and a plan's offsets are what these passes say.
/// An implementation must hold to each method's contract exactly:
///
/// - [`first_out_of_bounds`](Self::first_out_of_bounds) returns `Some`
///   whenever any index of `indices` lies outside `[-len, len)`. On `None`
///   the planner keeps the array in place (a lone index array, a pair of
///   them, arrays broadcast together, `along`), or folds it into a table
///   through `add_positions`,
///   and executors take every index of it as a position on its axis.
/// - [`all_in_range`](Self::all_in_range) returns `true` only when every
///   index of `indices` lies in `[0, len)`: the planner then marks an
///   `along` index [direct](crate::plan::AlongIndex::direct), and walks
///   take each of its picks as its position with no test of their own.
/// - [`add_positions`](Self::add_positions) adds exactly
///   `indices[k].position(len) * stride` to each `offsets[k]`, and changes
///   nothing else: the table's entries are the offsets executors reach.
/// - [`table`](Self::table) returns an empty vector (of any capacity) or
///   `None`: the planner extends it with zeros to `len` entries and folds
///   each index into them, so an entry it already held would be an offset
///   nobody computed.
pub unsafe trait IndexPasses {
    /// The first index of `indices`, in C order, outside `[-len, len)`.
    fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128>;

    /// Whether every index of `indices` lies in `[0, len)` (in bounds, and
    /// none counting from the end).
    fn all_in_range(&self, indices: &IntArray<'_>, len: usize) -> bool;

    /// `offsets[k] += indices[k].position(len) * stride` for each `k`
    /// (every index is in bounds; `indices` has `offsets.len()` elements).
    fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize);

    /// An empty vector with room for `len` offsets, or `None` when memory
    /// cannot hold them (the planner reports
    /// [`IndexError::TooLarge`](crate::error::IndexError::TooLarge)).
    fn table(&self, len: usize) -> Option<Vec<isize>>;

    /// Whether the planner leaves the bounds of an `along` index read in
    /// place ([`Entries::Along`](crate::plan::Entries::Along), mode
    /// `error`) unchecked, for the executor to check row by row as it
    /// walks them (a gather into a new array, which then has nothing of the
    /// user's to leave half written). Such a plan is not what any other
    /// executor may be handed. No by default.
    fn defers_along_bounds(&self) -> bool {
        false
    }
}

/// The passes on one thread, with plain loops and allocations.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

/// `indices` with each axis of stride zero (a broadcast index) cut to its
/// first position: every value it holds, each read once, not once per
/// position it is broadcast to (2^42 of them for a broadcast of a few
/// values). In C order the first value out of bounds is the same: a
/// position's value is that of the position with its repeating
/// coordinates zero, which comes no later.
fn once_each<I>(mut indices: ArrayViewD<'_, I>) -> ArrayViewD<'_, I> {
    for axis in 0..indices.ndim() {
        if indices.strides()[axis] == 0 && indices.shape()[axis] > 1 {
            indices.slice_axis_inplace(Axis(axis), Slice::from(0..1));
        }
    }
    indices
}

// SAFETY: the plain loop tests every index (each value once where an
// axis repeats it: `once_each`); the offsets are the plain sum of each
// position times the stride; the table is a new vector.
unsafe impl IndexPasses for Serial {
    fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128> {
        with_int_array!(indices, a => once_each(a.view()).iter().find(|i| !i.in_bounds(len)).map(|&i| i.to_i128()))
    }

    fn all_in_range(&self, indices: &IntArray<'_>, len: usize) -> bool {
        with_int_array!(indices, a => once_each(a.view()).iter().all(|i| i.direct_position(len).is_some()))
    }

    fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize) {
        with_int_array!(indices, a => {
            for (offset, &i) in offsets.iter_mut().zip(a.iter()) {
                *offset += i.position(len) as isize * stride;
            }
        })
    }

    fn table(&self, len: usize) -> Option<Vec<isize>> {
        crate::memory::vec(len)
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array2, ArrayView2, ShapeBuilder};

    use super::{IndexPasses, Serial};
    use crate::index::IndexInt;

    /// A broadcast index (axes of stride zero) is checked once per value,
    /// with the first out of bounds in C order that a check of every
    /// position finds; in bounds, a broadcast to 2^42 positions is checked
    /// at once.
    #[test]
    fn a_broadcast_index_is_checked_once_per_value() {
        let values = Array2::from_shape_vec((2, 3), vec![5i64, -7, 2, 9, -2, -6]).unwrap();
        let len = 6;
        // Rows repeated (stride 0 first), columns repeated, both.
        let stretched = [
            ArrayView2::from_shape((4, 3).strides((0, 1)), values.as_slice().unwrap()).unwrap(),
            ArrayView2::from_shape((2, 5).strides((3, 0)), values.as_slice().unwrap()).unwrap(),
            ArrayView2::from_shape((3, 4).strides((0, 0)), &values.as_slice().unwrap()[1..]).unwrap(),
            ArrayView2::from_shape((2, 3).strides((3, 1)), values.as_slice().unwrap()).unwrap(),
        ];
        for view in stretched {
            let every = view.iter().find(|i| !i.in_bounds(len)).map(|&i| i128::from(i));
            let index = IndexInt::wrap_array(view.into_dyn().into());
            assert_eq!(Serial.first_out_of_bounds(&index, len), every, "{view:?}");
            let direct = view.iter().all(|&i| (0..len as i64).contains(&i));
            assert_eq!(Serial.all_in_range(&index, len), direct, "{view:?}");
        }
        let zero = [0u32];
        let huge = ArrayView2::from_shape((1 << 21, 1 << 21).strides((0, 0)), &zero[..]).unwrap();
        assert_eq!(Serial.first_out_of_bounds(&IndexInt::wrap_array(huge.into_dyn().into()), 1), None);
        assert!(Serial.all_in_range(&IndexInt::wrap_array(huge.into_dyn().into()), 1));
    }
}
