//! The fused mask pass on every thread: each element's test and write
//! depend on that element alone (and, for an array value, on how many
//! elements before it are selected: its value's position), so pieces of the
//! target are independent and the result is the serial pass's.

use super::{for_each_piece, map_pieces};
use crate::element::{Arith, Compare};
use crate::exec::kernel::Kernel;
use crate::exec::masked;
use crate::exec::sys::cpu::Isa;

/// Elements a piece holds a multiple of: a cache line of the widest
/// element, so that two threads share no line inside an aligned slice.
const PIECE_MULTIPLE: usize = 64;

/// Elements in each piece of `len` elements cut for `parts` threads: a
/// multiple of [`PIECE_MULTIPLE`].
fn piece_len(len: usize, parts: usize) -> usize {
    len.div_ceil(parts.max(1)).max(1).next_multiple_of(PIECE_MULTIPLE)
}

/// Updates every element `e` of `elements` for which `e compare scalar`
/// holds with `value`, in up to `parts` pieces on the pool's threads.
pub(crate) fn write_scalar_where<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    elements: &mut [T],
    compare: Compare,
    scalar: T,
    value: T,
    kernel: K,
    parts: usize,
    isa: Isa,
) {
    let predicate = |e: &T| e.satisfies(compare, scalar);
    let pieces = elements.chunks_mut(piece_len(elements.len(), parts)).collect();
    for_each_piece(pieces, &|piece| masked::write_slice_where(piece, predicate, &value, kernel, isa));
}

/// How a slice is cut into pieces, and how many elements each selects:
/// made by [`count_where`], for [`write_values_where`] on the same slice.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Counts {
    len: usize,
    piece: usize,
    counts: Vec<usize>,
}

impl Counts {
    /// The elements selected in all.
    pub(crate) fn total(&self) -> usize {
        self.counts.iter().sum()
    }
}

/// How many elements `e` of `elements` satisfy `e compare scalar`, counted
/// in up to `parts` pieces on the pool's threads.
pub(crate) fn count_where<T: Arith>(elements: &[T], compare: Compare, scalar: T, parts: usize, isa: Isa) -> Counts {
    let piece = piece_len(elements.len(), parts);
    // The comparison chosen outside the loop (each `satisfies` folds to
    // one operator), as in `write_values_where`.
    let count = |piece: &[T]| match compare {
        Compare::Lt => masked::count_slice_where(piece, |e| e.satisfies(Compare::Lt, scalar), isa),
        Compare::Le => masked::count_slice_where(piece, |e| e.satisfies(Compare::Le, scalar), isa),
        Compare::Gt => masked::count_slice_where(piece, |e| e.satisfies(Compare::Gt, scalar), isa),
        Compare::Ge => masked::count_slice_where(piece, |e| e.satisfies(Compare::Ge, scalar), isa),
        Compare::Eq => masked::count_slice_where(piece, |e| e.satisfies(Compare::Eq, scalar), isa),
        Compare::Ne => masked::count_slice_where(piece, |e| e.satisfies(Compare::Ne, scalar), isa),
    };
    let counts = map_pieces(elements.chunks(piece).collect(), &count);
    Counts {
        len: elements.len(),
        piece,
        counts,
    }
}

/// Updates every element `e` of `elements` for which `e compare scalar`
/// holds with the next of `values` (one per selected element, in order),
/// piece by piece as `counts` (of these elements, this test) cut them.
pub(crate) fn write_values_where<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    elements: &mut [T],
    compare: Compare,
    scalar: T,
    values: &[T],
    counts: &Counts,
    kernel: K,
    isa: Isa,
) {
    assert_eq!(values.len(), counts.total(), "one value per selected element");
    assert_eq!(elements.len(), counts.len, "the elements counted");
    let mut rest = values;
    let shares: Vec<&[T]> = counts
        .counts
        .iter()
        .map(|&count| {
            let (share, after) = rest.split_at(count);
            rest = after;
            share
        })
        .collect();
    // The comparison is chosen outside the loop: tested inside it, it keeps
    // the tests from folding into a mask register, and the loop slows down.
    let write = |piece: &mut [T], values: &[T]| match compare {
        Compare::Lt => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Lt, scalar), values, kernel, isa),
        Compare::Le => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Le, scalar), values, kernel, isa),
        Compare::Gt => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Gt, scalar), values, kernel, isa),
        Compare::Ge => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Ge, scalar), values, kernel, isa),
        Compare::Eq => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Eq, scalar), values, kernel, isa),
        Compare::Ne => masked::write_values_slice_where(piece, |e| e.satisfies(Compare::Ne, scalar), values, kernel, isa),
    };
    let pieces = elements.chunks_mut(counts.piece).zip(shares).collect();
    for_each_piece(pieces, &|(piece, values)| write(piece, values));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::kernel::{AddOp, OpKernel, SetKernel};

    /// Every number of pieces, and lengths that do not divide, give the
    /// serial loop's result.
    #[test]
    fn pieces_equal_the_serial_loop() {
        for len in [0, 1, 63, 64, 65, 1000, 4099] {
            let start: Vec<i64> = (0..len as i64).map(|k| (k * 7919) % 101 - 50).collect();
            for parts in [1, 2, 3, 8] {
                let mut set = start.clone();
                write_scalar_where(&mut set, Compare::Lt, 0, -1, SetKernel::new(), parts, Isa::detect());
                let expected: Vec<i64> = start.iter().map(|&e| if e < 0 { -1 } else { e }).collect();
                assert_eq!(set, expected, "set, {len} elements, {parts} parts");

                let mut add = start.clone();
                write_scalar_where(&mut add, Compare::Ge, 10, 3, OpKernel::<AddOp>::new(), parts, Isa::detect());
                let expected: Vec<i64> = start.iter().map(|&e| if e >= 10 { e + 3 } else { e }).collect();
                assert_eq!(add, expected, "add, {len} elements, {parts} parts");
            }
        }
    }

    /// Counting then writing values in pieces gives the serial loop's
    /// result: each selected element takes the value of its rank.
    #[test]
    fn values_in_pieces_equal_the_serial_loop() {
        for len in [0, 1, 63, 64, 65, 1000, 4099] {
            let start: Vec<i32> = (0..len).map(|k| (k * 7919) % 101 - 50).collect();
            for parts in [1, 2, 3, 8] {
                let counts = count_where(&start, Compare::Lt, 0, parts, Isa::detect());
                let selected = start.iter().filter(|&&e| e < 0).count();
                assert_eq!(counts.total(), selected, "{len} elements, {parts} parts");
                let values: Vec<i32> = (1..=selected as i32).map(|v| v * 1000).collect();
                let mut next = values.iter();
                let expected: Vec<i32> = start.iter().map(|&e| if e < 0 { e + next.next().unwrap() } else { e }).collect();
                let mut add = start.clone();
                write_values_where(&mut add, Compare::Lt, 0, &values, &counts, OpKernel::<AddOp>::new(), Isa::detect());
                assert_eq!(add, expected, "add, {len} elements, {parts} parts");
            }
        }
    }
}
