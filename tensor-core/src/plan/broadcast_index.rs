//! Index arrays broadcast together and read in place
//! ([`Entries::Broadcast`](super::Entries::Broadcast)): the table's
//! offsets computed a piece at a time as it is walked, never stored whole.

use std::ops::Range;

use crate::index::{IndexSlice, with_loop_indices};
use crate::plan::{AxisIndex, with_offsets};

/// Integers and C-contiguous index arrays on different axes, broadcast
/// together, every index checked in bounds: the offset of a position of the
/// table is `base` plus each array's offset at that position.
#[derive(Clone, Debug)]
pub struct BroadcastIndex<'i> {
    /// What the integers (and arrays of one value) add to every offset.
    pub base: isize,
    /// The arrays that vary over the table, in the order of their axes'
    /// components.
    pub arrays: Vec<BroadcastArray<'i>>,
}

/// One index array of a [`BroadcastIndex`].
#[derive(Clone, Debug)]
pub struct BroadcastArray<'i> {
    /// The array, read in place on its axis.
    pub index: AxisIndex<'i>,
    /// For each axis of the table, the distance in the array's elements
    /// between neighbouring positions along it: zero along the axes the
    /// array is broadcast over.
    pub steps: Vec<usize>,
}

impl<'i> BroadcastArray<'i> {
    /// `index` broadcast to a table of shape `table` (NumPy's rules: aligned
    /// at the last axes, a length of one stretched).
    pub(crate) fn new(index: AxisIndex<'i>, table: &[usize]) -> Self {
        let shape = index.index.shape();
        let missing = table.len() - shape.len();
        let mut steps = vec![0; table.len()];
        let mut step = 1;
        for (k, &len) in shape.iter().enumerate().rev() {
            if len != 1 {
                steps[missing + k] = step;
            }
            step *= len;
        }
        BroadcastArray { index, steps }
    }
}

/// A [`BroadcastArray`] as a walk reads it: its indices as a slice, and
/// where the current row of the table starts in them.
struct Walked<'w, 'i> {
    array: &'w AxisIndex<'i>,
    indices: IndexSlice<'w>,
    /// The array's steps along the table's axes before the last.
    across: &'w [usize],
    /// Its step along the last.
    along: usize,
    /// Where the current row's first position lies in `indices`.
    row_start: usize,
}

impl Walked<'_, '_> {
    /// Adds the array's offsets at the positions `column..column +
    /// out.len()` of the current row to `out`.
    fn add_span(&self, column: usize, out: &mut [isize]) {
        let (axis, first, len) = (self.array, self.row_start + column * self.along, out.len());
        with_loop_indices!(self.indices, index => with_offsets!(axis => offset; match self.along {
            0 => {
                let offset = offset(index[first]);
                out.iter_mut().for_each(|o| *o += offset);
            }
            1 => out.iter_mut().zip(&index[first..first + len]).for_each(|(o, &i)| *o += offset(i)),
            step => out.iter_mut().zip(index[first..].iter().step_by(step)).for_each(|(o, &i)| *o += offset(i)),
        }))
    }

    /// Moves to the row at `row` (coordinates on the axes before the last).
    fn enter(&mut self, row: &[usize]) {
        self.row_start = row.iter().zip(self.across).map(|(&i, &step)| i * step).sum();
    }
}

impl BroadcastIndex<'_> {
    /// Hands the offsets of the table positions `positions` (C order over
    /// `table`, its shape) to `f`, in order, at most `piece` at a time.
    pub(crate) fn for_each_piece(&self, table: &[usize], positions: Range<usize>, piece: usize, f: &mut dyn FnMut(&[isize])) {
        let (&row_len, outer) = table.split_last().unwrap_or((&1, &[]));
        if positions.is_empty() {
            return;
        }
        let mut row = unravel(positions.start / row_len, outer);
        let mut arrays: Vec<Walked<'_, '_>> = self
            .arrays
            .iter()
            .map(|array| {
                let (&along, across) = array.steps.split_last().unwrap_or((&0, &[]));
                let indices = array.index.index.as_index_slice().expect("indices read in place are contiguous");
                let mut walked = Walked {
                    array: &array.index,
                    indices,
                    across,
                    along,
                    row_start: 0,
                };
                walked.enter(&row);
                walked
            })
            .collect();
        let mut column = positions.start % row_len;
        let mut left = positions.len();
        let mut offsets = Vec::with_capacity(piece.min(left));
        while left > 0 {
            let len = (row_len - column).min(piece - offsets.len()).min(left);
            let from = offsets.len();
            offsets.resize(from + len, self.base);
            for array in &arrays {
                array.add_span(column, &mut offsets[from..]);
            }
            (left, column) = (left - len, column + len);
            if column == row_len {
                column = 0;
                next_in_c_order(&mut row, outer);
                arrays.iter_mut().for_each(|array| array.enter(&row));
            }
            if offsets.len() == piece || left == 0 {
                f(&offsets);
                offsets.clear();
            }
        }
    }
}

/// The coordinates of the C-order position `flat` of `shape`.
fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut at = vec![0; shape.len()];
    for (i, &len) in at.iter_mut().zip(shape).rev() {
        (*i, flat) = (flat % len, flat / len);
    }
    at
}

/// Steps `at` to the next position of `shape` in C order (past the last,
/// back to the first).
fn next_in_c_order(at: &mut [usize], shape: &[usize]) {
    for (i, &len) in at.iter_mut().zip(shape).rev() {
        *i += 1;
        if *i < len {
            return;
        }
        *i = 0;
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, IxDyn};

    use super::*;
    use crate::index::IndexInt;

    /// An index array of `shape` on an axis of `len` positions `stride`
    /// apart, its values in `[-len, len)`, as `I`.
    fn array<I: IndexInt + TryFrom<i64>>(shape: &[usize], len: usize, stride: isize, seed: i64) -> (ArrayD<i64>, AxisIndex<'static>) {
        let n = shape.iter().product::<usize>() as i64;
        let values = ArrayD::from_shape_vec(
            IxDyn(shape),
            (0..n).map(|k| (k * 7 + seed) % (2 * len as i64) - len as i64).collect(),
        )
        .unwrap();
        let typed = values.mapv(|v| I::try_from(v).ok().expect("fits"));
        (
            values,
            AxisIndex {
                index: I::wrap_array(typed.into()),
                len,
                stride,
                wraps: true,
            },
        )
    }

    /// The offsets of every position of `table` in C order, each array
    /// read at its coordinates broadcast (a plain loop, ndarray's
    /// broadcasting), negative indices counted from the end.
    fn plain_loop(table: &[usize], base: isize, arrays: &[(ArrayD<i64>, usize, isize)]) -> Vec<isize> {
        let broadcast: Vec<_> = arrays.iter().map(|(values, ..)| values.broadcast(IxDyn(table)).unwrap()).collect();
        ndarray::indices(IxDyn(table))
            .into_iter()
            .map(|at| {
                let offsets = broadcast
                    .iter()
                    .zip(arrays)
                    .map(|(values, &(_, len, stride))| values[at.clone()].rem_euclid(len as i64) as isize * stride);
                base + offsets.sum::<isize>()
            })
            .collect()
    }

    /// Every range of positions, in pieces of every size: the plain loop's
    /// offsets, each piece no longer than asked and none empty; arrays
    /// broadcast along leading, inner and trailing axes, of two integer
    /// types, on a table of three axes, of one, and of none.
    #[test]
    fn pieces_of_any_range_hold_the_offsets_of_a_plain_loop() {
        // A table's shape, and each array's shape, axis length and stride.
        type Array<'s> = (&'s [usize], usize, isize);
        let cases: Vec<(Vec<usize>, Vec<Array<'_>>)> = vec![
            (vec![3, 4, 5], vec![(&[4, 1], 7, 100), (&[3, 1, 5], 9, 10), (&[5], 6, -1)]),
            (vec![3, 4, 1], vec![(&[3, 1, 1], 5, 8), (&[4, 1], 4, 2)]),
            (vec![11], vec![(&[11], 3, 1), (&[1], 2, 5)]),
            (vec![], vec![(&[], 4, 3)]),
        ];
        for (table, specs) in cases {
            let (mut reference, mut arrays) = (vec![], vec![]);
            for (k, &(shape, len, stride)) in specs.iter().enumerate() {
                let (values, index) = match k % 2 {
                    0 => array::<i64>(shape, len, stride, k as i64),
                    _ => array::<i32>(shape, len, stride, k as i64),
                };
                reference.push((values, len, stride));
                arrays.push(BroadcastArray::new(index, &table));
            }
            let broadcast = BroadcastIndex { base: 1000, arrays };
            let expected = plain_loop(&table, 1000, &reference);
            let len = expected.len();
            for piece in [1, 3, 7, 64] {
                for range in [0..len, 0..0, len / 2..len / 2 + 1, len / 3..len, 0..len - 1, len - 1..len] {
                    let mut got = vec![];
                    broadcast.for_each_piece(&table, range.clone(), piece, &mut |offsets| {
                        assert!(
                            (1..=piece).contains(&offsets.len()),
                            "{table:?} {range:?}: a piece of {}",
                            offsets.len()
                        );
                        got.extend_from_slice(offsets);
                    });
                    assert_eq!(got, expected[range.clone()], "{table:?} {range:?} in pieces of {piece}");
                }
            }
        }
    }
}
