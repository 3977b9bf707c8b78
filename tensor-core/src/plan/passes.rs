//! The planner's passes over whole index arrays, supplied by its caller.
//! They are where long index arrays meet the hardware (several cores,
//! vector instructions, huge pages for a large table), which the planner
//! itself does not know: the CPU's entry layer passes its own, and
//! [`Serial`] serves everyone else.

use crate::index::{IndexInt, IntArray, with_int_array};

/// Passes over index arrays. Each must give exactly the results of
/// [`Serial`]'s (its implementations are tested against it).
///
/// # Safety
///
/// Plans keep index arrays in place when [`first_out_of_bounds`](Self::first_out_of_bounds)
/// finds no index out of bounds, and executors read the target at those
/// indices unchecked: an implementation must find every one.
pub unsafe trait IndexPasses {
    /// The first index of `indices`, in C order, outside `[-len, len)`.
    fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128>;

    /// `offsets[k] += indices[k].position(len) * stride` for each `k`
    /// (every index is in bounds; `indices` has `offsets.len()` elements).
    fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize);

    /// An empty vector with room for `len` offsets, or `None` when memory
    /// cannot hold them.
    fn table(&self, len: usize) -> Option<Vec<isize>>;
}

/// The passes on one thread, with plain loops and allocations.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

// SAFETY: the plain loop tests every index.
unsafe impl IndexPasses for Serial {
    fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128> {
        with_int_array!(indices, a => a.iter().find(|i| !i.in_bounds(len)).map(|&i| i.to_i128()))
    }

    fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize) {
        with_int_array!(indices, a => {
            for (offset, &i) in offsets.iter_mut().zip(a.iter()) {
                *offset += i.position(len) as isize * stride;
            }
        })
    }

    fn table(&self, len: usize) -> Option<Vec<isize>> {
        let mut table = Vec::new();
        table.try_reserve_exact(len).ok()?;
        Some(table)
    }
}
