//! A prepared plan as positions of the tensor's rows ([`Rows`]): where
//! each element of the selected region sits, in C order (index order), and
//! which the mode skipped. burn's own indexed reads and writes then run on
//! the rows.
//!
//! [`Rows`]: super::rows::Rows

use crate::backend::plan::{Dim, Entries, IndexedPlan, Plan, Row, SKIP, Table, ViewAxis};
use crate::backend::{AnyMode, Bounds};
use crate::error::IndexError;
use crate::index::with_int_array;
use crate::{memory, prepare};

/// The mode in which the host plans an index whose device arrays it
/// holds as stand-ins: one that resolves indices as `bounds` does.
pub(crate) fn stand_in_mode(bounds: Bounds) -> AnyMode<i64> {
    match bounds {
        Bounds::Error => AnyMode::Error,
        Bounds::Clip => AnyMode::Clip,
        Bounds::Wrap => AnyMode::Wrap,
        Bounds::Skip => AnyMode::Drop,
    }
}

/// The selected region of a call, on the host.
#[derive(Clone, Debug, Default)]
pub struct Region {
    /// The region's shape: a read's result shape, which a value
    /// broadcasts to (under `; batch = k`, the batch axes first).
    pub(crate) shape: Vec<usize>,
    /// Each element's row in the tensor viewed as rows, in C order of the
    /// region; 0 for a skipped one. Empty when `placed_on_device`.
    pub(crate) offsets: Vec<i64>,
    /// Whether device arrays alone place the elements
    /// ([`placed_on_device`](Self::placed_on_device)).
    pub(crate) on_device: bool,
    /// Which elements the mode skipped (`drop`, `fill`); empty when none.
    pub(crate) skipped: Vec<bool>,
    /// Whether the index arrays broadcast to any position. NumPy then
    /// checks every one of their elements, even where the region is empty
    /// because another axis has no length.
    pub(crate) arrays_reached: bool,
}

impl Region {
    /// The number of elements the region holds.
    pub(crate) fn len(&self) -> usize {
        match self.on_device {
            true => self.shape.iter().product(),
            false => self.offsets.len(),
        }
    }

    /// The region of an index that is device arrays alone, of `shape`, one
    /// per axis of rows ([`OnDevice::alone_shape`]): its elements are the
    /// arrays' own, placed and checked on the device.
    ///
    /// [`OnDevice::alone_shape`]: super::device::OnDevice::alone_shape
    pub(crate) fn placed_on_device(shape: &[usize]) -> Self {
        Region {
            shape: shape.to_vec(),
            arrays_reached: shape.iter().all(|&len| len > 0),
            on_device: true,
            ..Region::default()
        }
    }

    /// Room for the elements of `plan`: [`IndexError::TooLarge`] when
    /// memory cannot hold their positions.
    pub(crate) fn room(&mut self, plan: &Plan<'_>) -> Result<(), IndexError> {
        let count = plan.shape().iter().product();
        memory::reserve(&mut self.offsets, count).ok_or_else(|| prepare::too_large(plan.shape()))
    }

    /// Adds the elements `plan` selects in a target of C-order `strides`
    /// whose first element sits at `base`; an error when memory cannot hold
    /// their positions.
    pub(crate) fn push(&mut self, plan: &Plan<'_>, base: isize, strides: &[isize]) -> Result<(), IndexError> {
        self.room(plan)?;
        self.reach(plan);
        match plan {
            Plan::View(view) => {
                let mut origin = base;
                let mut axes = Vec::with_capacity(view.shape.len());
                let mut target_axis = 0;
                for axis in &view.axes {
                    match *axis {
                        ViewAxis::Select(at) => {
                            origin += at as isize * strides[target_axis];
                            target_axis += 1;
                        }
                        ViewAxis::Slice { first, len, step } => {
                            if len > 0 {
                                origin += first as isize * strides[target_axis];
                            }
                            // A step past the axis (an axis of one position, or none)
                            // is no stride at all: times the axis's, it could overflow.
                            let stride = if len > 1 { step * strides[target_axis] } else { 0 };
                            axes.push((len, stride));
                            target_axis += 1;
                        }
                        ViewAxis::NewAxis => axes.push((1, 0)),
                    }
                }
                walk(&axes, origin, &mut self.offsets);
            }
            // One index array, read in place: its offsets in one loop.
            Plan::Indexed(IndexedPlan {
                dims,
                table: Table {
                    entries: Entries::Index(axis),
                    ..
                },
                base: first,
                ..
            }) if dims[..] == [Dim::Table] => {
                let first = base + first;
                with_int_array!(&axis.index, index => match index.as_slice() {
                    // A slice's iterator knows its length: one reservation.
                    Some(index) => self.offsets.extend(index.iter().map(|&i| (first + axis.offset(i)) as i64)),
                    None => self.offsets.extend(index.iter().map(|&i| (first + axis.offset(i)) as i64)),
                });
            }
            // Row by row, so that a row with nothing skipped extends the
            // offsets in one loop.
            Plan::Indexed(indexed) => indexed.for_each_row(|row| match row {
                Row::Point(offset) => self.offsets.push((base + offset) as i64),
                Row::Strided { base: first, len, stride } => {
                    let first = base + first;
                    self.offsets.extend((0..len as isize).map(|k| (first + k * stride) as i64));
                }
                Row::Table { base: row_base, offsets } if !offsets.contains(&SKIP) => {
                    let row_base = base + row_base;
                    self.offsets.extend(offsets.iter().map(|&offset| (row_base + offset) as i64));
                }
                Row::Table { base: row_base, offsets } => {
                    for &offset in offsets {
                        if offset == SKIP {
                            self.skip();
                        } else {
                            self.offsets.push((base + row_base + offset) as i64);
                        }
                    }
                }
                Row::Skipped(len) => (0..len).for_each(|_| self.skip()),
            }),
        }
        if !self.skipped.is_empty() {
            self.skipped.resize(self.offsets.len(), false);
        }
        Ok(())
    }

    /// Notes whether `plan`'s index arrays broadcast to any position. A
    /// view's are integers (a single `nd` point), always checked.
    pub(crate) fn reach(&mut self, plan: &Plan<'_>) {
        self.arrays_reached |= match plan {
            Plan::Indexed(indexed) => !indexed.table.is_empty(),
            Plan::View(_) => true,
        };
    }

    /// Adds an element the mode skipped.
    fn skip(&mut self) {
        // The flags start at the first skipped element.
        self.skipped.resize(self.offsets.len(), false);
        self.skipped.push(true);
        self.offsets.push(0);
    }

    /// Whether element `at` is written or read.
    fn kept(&self, at: usize) -> bool {
        self.skipped.get(at).is_none_or(|skipped| !skipped)
    }

    /// Whether no two kept elements share a position: one bit per position
    /// up to the largest, the common case found in one pass.
    fn all_distinct(&self) -> bool {
        let Some(&largest) = self.offsets.iter().max() else {
            return true;
        };
        let mut seen = vec![0u64; largest as usize / 64 + 1];
        for (at, &offset) in self.offsets.iter().enumerate() {
            if !self.kept(at) {
                continue;
            }
            let (word, bit) = (offset as usize / 64, 1u64 << (offset % 64));
            if seen[word] & bit != 0 {
                return false;
            }
            seen[word] |= bit;
        }
        true
    }

    /// The occurrences grouped into rounds in which no position repeats:
    /// round `r` holds, in index order, each position's `r`-th occurrence
    /// (skipped elements in none). Applying the rounds in order applies
    /// every position's occurrences in index order.
    pub(crate) fn rounds(&self) -> Vec<Vec<usize>> {
        if self.all_distinct() {
            let kept = self.kept_elements().unwrap_or_else(|| (0..self.len()).collect());
            return if kept.is_empty() { Vec::new() } else { vec![kept] };
        }
        // Positions are rows of the target: a counter per row.
        let mut seen = vec![0u32; self.span()];
        let mut rounds: Vec<Vec<usize>> = Vec::new();
        for (at, &offset) in self.offsets.iter().enumerate() {
            if !self.kept(at) {
                continue;
            }
            let round = &mut seen[offset as usize];
            if *round as usize == rounds.len() {
                rounds.push(Vec::new());
            }
            rounds[*round as usize].push(at);
            *round += 1;
        }
        rounds
    }

    /// The last occurrence of each position (what `=` writes), in index
    /// order; `None` when that is every element.
    pub(crate) fn last_occurrences(&self) -> Option<Vec<usize>> {
        if self.all_distinct() {
            return self.kept_elements();
        }
        // Each row's last occurrence, plus one (zero: none).
        let mut last = vec![0usize; self.span()];
        for (at, &offset) in self.offsets.iter().enumerate() {
            if self.kept(at) {
                last[offset as usize] = at + 1;
            }
        }
        Some(
            (0..self.len())
                .filter(|&at| self.kept(at) && last[self.offsets[at] as usize] == at + 1)
                .collect(),
        )
    }

    /// One more than the largest position: the rows a table by position
    /// needs.
    fn span(&self) -> usize {
        self.offsets.iter().max().map_or(0, |&largest| largest as usize + 1)
    }

    /// The kept elements, in index order; `None` when that is all of them.
    pub(crate) fn kept_elements(&self) -> Option<Vec<usize>> {
        if self.skipped.is_empty() {
            return None;
        }
        Some((0..self.len()).filter(|&at| self.kept(at)).collect())
    }

    /// The offsets of elements `at`.
    pub(crate) fn offsets_of(&self, at: &[usize]) -> Vec<i64> {
        at.iter().map(|&at| self.offsets[at]).collect()
    }
}

/// Pushes the offsets of a strided region, `(len, stride)` per axis, from
/// `origin`, in C order.
fn walk(axes: &[(usize, isize)], origin: isize, out: &mut Vec<i64>) {
    match axes.split_first() {
        None => out.push(origin as i64),
        Some((&(len, stride), rest)) => {
            for i in 0..len as isize {
                walk(rest, origin + i * stride, out);
            }
        }
    }
}

/// The C-order strides of `shape`, in elements.
pub(crate) fn c_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0; shape.len()];
    let mut step = 1isize;
    for (stride, &len) in strides.iter_mut().zip(shape).rev() {
        *stride = step;
        step *= len.max(1) as isize;
    }
    strides
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Bounds;
    use crate::backend::plan::resolve;
    use crate::ix;

    #[test]
    fn a_view_walks_its_axes_in_c_order() {
        // x of shape (3, 4): x[1:, ::-2] selects rows 1 and 2, columns 3 and 1.
        let index = [ix(1..), ix(crate::index::PySlice::new(None, None, Some(-2)))];
        let plan = resolve(&index, &[3, 4], &c_strides(&[3, 4]), Bounds::Error).unwrap();
        let mut region = Region::default();
        region.push(&plan, 0, &c_strides(&[3, 4])).unwrap();
        assert_eq!(region.offsets, [7, 5, 11, 9]);
    }

    #[test]
    fn rounds_hold_each_position_once_in_index_order() {
        let region = Region {
            shape: vec![6],
            offsets: vec![1, 4, 1, 1, 0, 4],
            skipped: vec![false, false, false, false, true, false],
            ..Region::default()
        };
        assert_eq!(region.rounds(), vec![vec![0, 1], vec![2, 5], vec![3]]);
        assert_eq!(region.last_occurrences(), Some(vec![3, 5]));
        assert_eq!(region.kept_elements(), Some(vec![0, 1, 2, 3, 5]));
    }
}
