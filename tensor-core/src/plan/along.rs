//! `along(idx, axis)`: NumPy's `take_along_axis` and `put_along_axis`,
//! PyTorch's `gather` and `scatter(dim)`. `idx` has the target's rank; it
//! picks positions along `axis` and broadcasts against the target along
//! every other axis. NumPy builds the same selection from `arange` index
//! arrays, one per other axis, broadcast against `idx`. In mode `error`
//! (and in any mode when it selects nothing) the plan reads `idx` in
//! place and carries the target's strides of the other axes
//! ([`AlongIndex`]), computing each row's offsets as it is walked; in the
//! other modes, each of those `arange`s is its axis' length alone (never a
//! grid), and the table of offsets is built as for any advanced index.

use std::ops::Range;

use ndarray::{Array, ArrayViewD, Axis, CowArray, IxDyn, Slice};

use crate::error::{Dims, IndexError};
use crate::index::{IndexInt, IntArray, with_loop_array};
use crate::memory;
use crate::mode::Bounds;
use crate::plan::advanced::{self, Component, Source};
use crate::plan::passes::IndexPasses;
use crate::plan::{Dim, Entries, IndexedPlan, Plan, Table};

/// `along(idx, axis)` read in place (see [`Entries::Along`]): the
/// region's element at `m` sits at offset `sum(m[d] * strides[d]) +
/// idx[m].position(len) * stride`, `idx` broadcast to the region.
#[derive(Clone, Debug)]
pub struct AlongIndex<'i> {
    /// The user's index array, every index in bounds of the axis, unless
    /// it was planned by passes that [defer](IndexPasses::defers_along_bounds)
    /// its bounds: then only a walk that checks each row (the CPU's
    /// gather into a new array) may walk it. (Where the region is empty,
    /// in any mode, nothing is checked: no walk hands on an index.)
    pub index: IntArray<'i>,
    /// The length of the axis it picks along.
    pub len: usize,
    /// The stride of that axis.
    pub stride: isize,
    /// For each axis of the region, the target's stride: zero on the
    /// picked axis, and where the target's length is one (broadcast).
    pub strides: Vec<isize>,
    /// Whether every index lies in `[0, len)`, as the planner's passes
    /// found: a walk then takes each pick as its position, with no test of
    /// its own (where the picked axis allows: see `Picks::unit`).
    pub direct: bool,
}

/// A row of an `along` index walked by [`AlongIndex::walk_checking`] holds
/// an index out of bounds: the walk stopped before handing it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowOutOfBounds;

/// Why a walk that does not check returns no error.
const NEVER_STOPS: &str = "a walk that checks nothing never stops";

impl AlongIndex<'_> {
    /// Calls `f` with the offsets of each row (the region's last axis) in
    /// C order, for the positions `first` of the region's first axis.
    /// `f` is a trait object: one copy of the walk (per index integer type)
    /// serves every caller, at the cost of a call per row.
    pub(crate) fn for_each_row(&self, region: &[usize], first: Range<usize>, f: &mut dyn FnMut(&[isize])) {
        self.collect_rows(region, first, f, false).expect(NEVER_STOPS);
    }

    /// [`for_each_row`](Self::for_each_row), each row's picks checked
    /// first where `checks`.
    fn collect_rows(&self, region: &[usize], first: Range<usize>, f: &mut dyn FnMut(&[isize]), checks: bool) -> Result<(), RowOutOfBounds> {
        // (Before the row's room: an empty region's rows may be long.)
        if walks_nothing(region, &first) {
            return Ok(());
        }
        let row = Vec::with_capacity(region[region.len() - 1]);
        let rows = &mut Collected { row, f };
        with_loop_array!(&self.index, a => self.walk_index(a.view(), region, first, rows, checks))
    }

    /// Hands the offsets of each row (the region's last axis) in C order,
    /// from the positions `first` of the region's first axis on, to `rows`
    /// as an iterator: no table, and no offsets stored, so that the
    /// executor's loop over a row is as tight as a hand-written one.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn walk(&self, region: &[usize], first: Range<usize>, rows: &mut impl AlongRows) {
        self.walk_as(region, first, rows, false).expect(NEVER_STOPS);
    }

    /// [`walk`](Self::walk), each row's picks checked in bounds before the
    /// row is handed on (a block of rows at a time, by the consumer's
    /// [`in_bounds`](AlongRows::in_bounds), where the rows are one stride
    /// apart), stopping at the first row (or block) with one out of
    /// bounds: for an index planned with its bounds deferred.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn walk_checking(&self, region: &[usize], first: Range<usize>, rows: &mut impl AlongRows) -> Result<(), RowOutOfBounds> {
        self.walk_as(region, first, rows, true)
    }

    /// [`walk`](Self::walk), or [`walk_checking`](Self::walk_checking)
    /// where `checks`.
    #[cfg(not(unoptimized))]
    #[inline(always)]
    fn walk_as(&self, region: &[usize], first: Range<usize>, rows: &mut impl AlongRows, checks: bool) -> Result<(), RowOutOfBounds> {
        // One call per index type, so that the integer types read as one
        // (`with_loop_array!`) share one copy of the walk.
        with_loop_array!(&self.index, a => self.walk_index(a.view(), region, first, rows, checks))
    }

    /// [`walk_as`](Self::walk_as) in a build without optimization: each
    /// row's offsets collected, through the one copy of the walk per index
    /// type that [`for_each_row`](Self::for_each_row) uses. A copy per
    /// consumer and index type made an eighth of a dependent's debug binary
    /// (docs/performance.md), linked again at every edit.
    #[cfg(unoptimized)]
    fn walk_as(&self, region: &[usize], first: Range<usize>, rows: &mut impl AlongRows, checks: bool) -> Result<(), RowOutOfBounds> {
        self.collect_rows(region, first, &mut |offsets| rows.row(offsets.iter().copied()), checks)
    }

    /// [`walk`](Self::walk) over the index array's own integer type.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn walk_index<I: IndexInt>(
        &self,
        index: ArrayViewD<'_, I>,
        region: &[usize],
        first: Range<usize>,
        rows: &mut impl AlongRows,
        checks: bool,
    ) -> Result<(), RowOutOfBounds> {
        if walks_nothing(region, &first) {
            return Ok(());
        }
        let last = region.len() - 1;
        // Copied in, so that the loops keep them in registers.
        let (len, stride, row_stride) = (self.len, self.stride, self.strides[last]);
        let mut bases = RowBases::new(&self.strides, region, &first);
        let index = index.broadcast(IxDyn(region)).expect("the region is the index broadcast");
        let index = index.slice_axis(Axis(0), Slice::from(first));
        // The row's length, cut to `first` where the first axis is the last.
        let row_len = index.shape()[last];
        let picks = Picks {
            len,
            stride,
            row_stride,
            unit: stride == 1 && row_stride == 0,
            checks,
        };
        match index.as_slice() {
            // An index of the region's own shape in C order (the usual
            // case): its rows are slices.
            Some(all) if row_len > 0 => match bases.step() {
                // Rows one stride apart (a matrix, say): no odometer, and
                // the picks tested a block of rows at a time, just before
                // those rows are walked.
                Some(step) => {
                    let block_rows = CHECKED_AT_ONCE.div_ceil(row_len);
                    let mut base = bases.base;
                    for block in all.chunks(block_rows * row_len) {
                        // Picks along a contiguous axis, all in `[0, len)`:
                        // each is its element's offset from the row's start,
                        // with no wrap of a negative one and no multiply by
                        // the stride: fewer instructions a pick, so more of
                        // them in flight out of a target past the caches
                        // (docs/performance.md, "Picks walked as they
                        // stand").
                        if picks.unit && (self.direct || rows.in_range(block, len)) {
                            for row in block.chunks_exact(row_len) {
                                rows.row(picks.as_they_stand(base, row));
                                base += step;
                            }
                            continue;
                        }
                        if picks.checks && !rows.in_bounds(block, len) {
                            return Err(RowOutOfBounds);
                        }
                        for row in block.chunks_exact(row_len) {
                            Picks { checks: false, ..picks }.hand(base, row, rows)?;
                            base += step;
                        }
                    }
                }
                None => {
                    for row in all.chunks_exact(row_len) {
                        picks.hand(bases.next_row(), row, rows)?;
                    }
                }
            },
            _ => {
                // A row the index broadcasts along is copied out first, so
                // that every row reaches the consumer as a slice: one copy
                // of the consumer's loop per index type, not two.
                let mut copied = Vec::new();
                for row in index.rows() {
                    let row = match row.to_slice() {
                        Some(row) => row,
                        None => {
                            copied.clear();
                            copied.extend(row.iter().copied());
                            &copied
                        }
                    };
                    picks.hand(bases.next_row(), row, rows)?;
                }
            }
        }
        Ok(())
    }
}

/// What places a pick: the axis' length and stride, and the target's
/// stride along a row; whether each row's picks are checked in bounds
/// before the row is handed on.
#[derive(Clone, Copy)]
struct Picks {
    len: usize,
    stride: isize,
    row_stride: isize,
    /// Whether the picked axis has stride 1 and a row's picks share its
    /// start (the rows run along the picked axis, or along an axis of the
    /// target's of length one): a pick in `[0, len)` is then its
    /// element's offset from the row's start.
    unit: bool,
    checks: bool,
}

impl Picks {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn offset<I: IndexInt>(self, base: isize, k: usize, i: I) -> isize {
        base.wrapping_add((k as isize).wrapping_mul(self.row_stride))
            .wrapping_add((i.position(self.len) as isize).wrapping_mul(self.stride))
    }

    /// Hands `rows` the offsets of a row of the index, `picks`, starting
    /// at `base`. The iterators are made by closures generic over the index
    /// type alone, not over the walk's consumer: one copy of each serves every
    /// consumer, and their names stay short in the debug information.
    /// The row is checked first where it `checks`: an error, and
    /// nothing handed, when a pick lies out of bounds.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn hand<I: IndexInt>(self, base: isize, picks: &[I], rows: &mut impl AlongRows) -> Result<(), RowOutOfBounds> {
        if self.checks && !all_in_bounds(picks, self.len) {
            return Err(RowOutOfBounds);
        }
        match self.row_stride {
            // Picking along the rows themselves (the last axis): the row's
            // start plus the pick's, with no multiply by a zero stride (a
            // tenth of a gather's time).
            0 => rows.row(self.along_row(base, picks)),
            _ => rows.row(self.offsets(base, picks)),
        }
        Ok(())
    }

    /// The offsets of a row of picks from `base`, the row's own stride zero.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn along_row<I: IndexInt>(self, base: isize, picks: &[I]) -> impl ExactSizeIterator<Item = isize> {
        picks
            .iter()
            .map(move |&i| base.wrapping_add((i.position(self.len) as isize).wrapping_mul(self.stride)))
    }

    /// The offsets of a row of picks from `base`, for [`unit`](Self::unit)
    /// picks that all lie in `[0, len)`.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn as_they_stand<I: IndexInt>(self, base: isize, picks: &[I]) -> impl ExactSizeIterator<Item = isize> {
        picks.iter().map(move |&i| base.wrapping_add(i.unwrapped_position() as isize))
    }

    /// The offsets of a row of picks from `base`.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn offsets<I: IndexInt>(self, base: isize, picks: &[I]) -> impl ExactSizeIterator<Item = isize> {
        picks.iter().enumerate().map(move |(k, &i)| self.offset(base, k, i))
    }
}

/// How many picks a walk tests at once (in range, or in bounds where it
/// checks), ahead of walking them: a block that stays in the L1 cache
/// until walked (a single row, where a row holds more).
const CHECKED_AT_ONCE: usize = 1024;

/// What [`AlongIndex::walk`] hands each row to.
///
/// # Safety
///
/// [`in_range`](Self::in_range) and [`in_bounds`](Self::in_bounds) answer
/// exactly: consumers write through the offsets a walk hands them without
/// a check of their own, and a walk trusts these answers to hand only
/// offsets inside the target (a block it finds in range is taken as it
/// stands, and a checking walk hands on what it finds in bounds).
pub(crate) unsafe trait AlongRows {
    /// One row's offsets, in order.
    fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>);
    /// Whether every one of `picks` lies in `[0, len)`: how a walk tests a
    /// block of rows for picks it can take as they stand (a consumer may
    /// have faster instructions for it).
    fn in_range<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        all_in_range(picks, len)
    }
    /// Whether every one of `picks` lies in `[-len, len)`: how a walk
    /// that checks a block of rows at once tests it (a consumer may have
    /// faster instructions for it).
    fn in_bounds<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        all_in_bounds(picks, len)
    }
}

/// Whether every one of `picks` lies in `[0, len)`, each tested without a
/// branch of its own.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn all_in_range<I: IndexInt>(picks: &[I], len: usize) -> bool {
    picks.iter().fold(true, |ok, &i| ok & i.direct_position(len).is_some())
}

/// Whether every one of `picks` lies in `[-len, len)`, each tested without
/// a branch of its own.
#[cfg_attr(not(unoptimized), inline(always))]
pub(crate) fn all_in_bounds<I: IndexInt>(picks: &[I], len: usize) -> bool {
    picks.iter().fold(true, |ok, &i| ok & i.in_bounds(len))
}

/// Each row's offsets, collected, to one function.
struct Collected<F> {
    row: Vec<isize>,
    f: F,
}

// SAFETY: the default tests, exact.
unsafe impl<F: FnMut(&[isize])> AlongRows for Collected<F> {
    fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>) {
        self.row.clear();
        self.row.extend(offsets);
        (self.f)(&self.row);
    }
}

/// The offset of each row's start in C order, counted over the region's
/// outer axes (all but the last) from the position `first.start` of the
/// first: an odometer over those axes.
struct RowBases<'a> {
    strides: &'a [isize],
    /// The outer axes' lengths, the first one's cut to `first`.
    outer: Vec<usize>,
    at: Vec<usize>,
    base: isize,
}

impl<'a> RowBases<'a> {
    fn new(strides: &'a [isize], region: &[usize], first: &Range<usize>) -> Self {
        let last = region.len() - 1;
        let mut outer = region[..last].to_vec();
        if let Some(len) = outer.first_mut() {
            *len = first.len();
        }
        RowBases {
            strides,
            at: vec![0; last],
            outer,
            // A first axis that is also the last is walked from
            // `first.start` by the row's own index; either way each row
            // starts there.
            base: first.start as isize * strides[0],
        }
    }

    /// The distance between consecutive rows' starts, where it is one
    /// for every row: the outer axes step like one axis.
    fn step(&self) -> Option<isize> {
        let last = self.outer.len().checked_sub(1)?;
        let step = self.strides[last];
        (0..last)
            .all(|d| self.strides[d] == self.strides[d + 1] * self.outer[d + 1] as isize)
            .then_some(step)
    }

    /// The next row's start, then the odometer steps past it.
    #[inline]
    fn next_row(&mut self) -> isize {
        let base = self.base;
        for d in (0..self.outer.len()).rev() {
            self.at[d] += 1;
            self.base += self.strides[d];
            if self.at[d] < self.outer[d] {
                break;
            }
            self.base -= self.at[d] as isize * self.strides[d];
            self.at[d] = 0;
        }
        base
    }
}

/// The target axis `axis` names on a target of `ndim` axes (negative
/// counts from the end).
pub(crate) fn normalize_axis(axis: isize, ndim: usize) -> Result<usize, IndexError> {
    let n = ndim as isize;
    match axis {
        a if (0..n).contains(&a) => Ok(a as usize),
        a if (-n..0).contains(&a) => Ok((a + n) as usize),
        _ => Err(IndexError::AxisOutOfRange { axis, ndim }),
    }
}

/// The region `along(index, axis)` selects: per axis, the index's length
/// on `axis`, elsewhere the index's and the target's broadcast together.
fn region_shape(index: &[usize], shape: &[usize], axis: usize) -> Result<Vec<usize>, IndexError> {
    let mismatch = || IndexError::AlongShape {
        index: Dims(index.to_vec()),
        target: Dims(shape.to_vec()),
        axis,
    };
    index
        .iter()
        .zip(shape)
        .enumerate()
        .map(|(d, (&i, &t))| match d == axis {
            true => Ok(i),
            false => super::broadcast_len(i, t).ok_or_else(mismatch),
        })
        .collect()
}

/// The region `along(index, axis)` selects on a target of `shape`, and
/// its number of elements, with nothing built: the axis, the broadcast,
/// the size (the bounds are [`resolve`]'s).
pub(crate) fn region_of(index: &IntArray<'_>, axis: isize, shape: &[usize]) -> Result<(Vec<usize>, usize), IndexError> {
    let axis = normalize_axis(axis, shape.len())?;
    let region = region_shape(index.shape(), shape, axis)?;
    let count = advanced::checked_size(&region)?;
    Ok((region, count))
}

/// The plan of `along(index, axis)` on a target of the given shape and
/// strides. Errors in NumPy's order: the axis and the rank (checked with
/// the index's structure, `Placement::new`), the broadcast, the bounds.
pub(crate) fn resolve<'i>(
    index: &'i IntArray<'_>,
    axis: isize,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    let (region, count) = region_of(index, axis, shape)?;
    let axis = normalize_axis(axis, shape.len()).expect("checked with the region");
    // An empty region resolves no index in any mode: it is read in place,
    // with no `arange` of a target axis that may be far longer than
    // memory holds positions.
    if bounds == Bounds::Error || count == 0 {
        // Indices are checked only where they select something, as NumPy
        // does, and only here unless the executor checks them as it walks.
        // Picks all in `[0, len)` (the usual case) pass the first test,
        // and the walk then tests no block of them again: each block's
        // test stalled a scatter's misses into a target past the caches
        // (docs/performance.md, "Picks walked as they stand").
        let checked_here = !passes.defers_along_bounds() && count > 0;
        let direct = checked_here && passes.all_in_range(index, shape[axis]);
        if checked_here
            && !direct
            && let Some(bad) = passes.first_out_of_bounds(index, shape[axis])
        {
            return Err(IndexError::OutOfBounds {
                index: bad,
                axis,
                len: shape[axis],
            });
        }
        let along = AlongIndex {
            index: index.view(),
            len: shape[axis],
            stride: strides[axis],
            strides: (0..shape.len())
                .map(|d| if d == axis || shape[d] == 1 { 0 } else { strides[d] })
                .collect(),
            direct,
        };
        return Ok(table_plan(Table {
            shape: region,
            entries: Entries::Along(along),
        }));
    }
    let ndim = shape.len();
    let components = (0..ndim)
        .map(|d| match d == axis {
            true => Ok(Component {
                axis,
                shape: index.shape().to_vec(),
                source: Source::Array(index.view()),
            }),
            false => {
                let mut arange_shape = vec![1; ndim];
                arange_shape[d] = shape[d];
                // An axis of a broadcast target may be far longer than
                // memory holds positions.
                let arange = arange(shape[d]).ok_or_else(|| IndexError::too_large(&region))?;
                let arange = Array::from_shape_vec(IxDyn(&arange_shape), arange).expect("one position per element");
                Ok(Component {
                    axis: d,
                    shape: arange_shape,
                    source: Source::Array(IntArray::Usize(CowArray::from(arange))),
                })
            }
        })
        .collect::<Result<Vec<Component<'i>>, IndexError>>()?;
    // The shapes were checked above: a broadcast error cannot name them.
    let table = advanced::build_table(&components, &[], (shape, strides), (bounds, true), passes)?;
    Ok(table_plan(table))
}

/// Whether a walk of `region` from the positions `first` of its first
/// axis has no element to hand on: then it walks no row at all, not even
/// each empty one of an axis that counts far more positions than a loop
/// gets through.
fn walks_nothing(region: &[usize], first: &Range<usize>) -> bool {
    region.contains(&0) || first.is_empty()
}

/// `0..len`, or `None` when memory cannot hold it.
fn arange(len: usize) -> Option<Vec<usize>> {
    let mut positions = memory::vec(len)?;
    positions.extend(0..len);
    Some(positions)
}

/// The plan whose region is `table`, nothing around it.
fn table_plan(table: Table<'_>) -> Plan<'_> {
    Plan::Indexed(IndexedPlan {
        base: 0,
        dims: vec![Dim::Table],
        shape: table.shape.clone(),
        table,
        whole_mask: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_count_from_either_end() {
        assert_eq!(normalize_axis(1, 3), Ok(1));
        assert_eq!(normalize_axis(-1, 3), Ok(2));
        assert_eq!(normalize_axis(-3, 3), Ok(0));
        assert_eq!(normalize_axis(3, 3), Err(IndexError::AxisOutOfRange { axis: 3, ndim: 3 }));
        assert_eq!(normalize_axis(-4, 3), Err(IndexError::AxisOutOfRange { axis: -4, ndim: 3 }));
        assert_eq!(normalize_axis(0, 0), Err(IndexError::AxisOutOfRange { axis: 0, ndim: 0 }));
    }

    #[test]
    fn the_region_broadcasts_outside_the_axis() {
        assert_eq!(region_shape(&[4, 2], &[4, 9], 1), Ok(vec![4, 2]));
        assert_eq!(region_shape(&[1, 2], &[4, 9], 1), Ok(vec![4, 2]));
        assert_eq!(region_shape(&[4, 2], &[1, 9], 1), Ok(vec![4, 2]));
        assert_eq!(region_shape(&[3, 20], &[3, 9], 1), Ok(vec![3, 20]));
        assert!(matches!(
            region_shape(&[3, 2], &[4, 9], 1),
            Err(IndexError::AlongShape { axis: 1, .. })
        ));
    }
}

#[cfg(test)]
mod rows {
    use ndarray::{Array, ArrayD, IxDyn};

    use super::{AlongRows, CHECKED_AT_ONCE, RowOutOfBounds, resolve};
    use crate::index::{IndexInt, IntArray};
    use crate::mode::Bounds;
    use crate::plan::{Entries, IndexPasses, Plan, Serial};

    /// The offsets the in-place form walks, row by row and from any
    /// position of the first axis, equal the table the other modes build
    /// (clip, with every index in bounds, selects the same positions),
    /// on targets with broadcast axes and negative strides.
    #[test]
    fn rows_read_in_place_equal_the_built_table() {
        // Target shape and strides, index shape, axis.
        type Case = (&'static [usize], &'static [isize], &'static [usize], isize);
        let cases: [Case; 6] = [
            (&[4, 9], &[9, 1], &[4, 3], 1),
            // The index broadcast along the region's rows.
            (&[4, 9], &[9, 1], &[3, 1], 0),
            (&[4, 9], &[-9, 2], &[1, 5], -1),
            (&[3, 1, 5], &[5, 5, 1], &[3, 4, 2], 2),
            (&[2, 3, 5], &[1, 2, 6], &[2, 1, 7], 2),
            (&[6], &[-1], &[10], 0),
        ];
        // The index in C order (its rows are slices), and reversed along
        // its first axis (walked by ndarray's rows).
        for ((shape, strides, index_shape, axis), reversed) in cases.into_iter().flat_map(|case| [(case, false), (case, true)]) {
            let len = shape[axis.rem_euclid(shape.len() as isize) as usize];
            let count: usize = index_shape.iter().product();
            let values: Vec<i64> = (0..count as i64).map(|k| (k * 7 + 3) % (2 * len as i64) - len as i64).collect();
            let mut index: ArrayD<i64> = Array::from_shape_vec(IxDyn(index_shape), values).unwrap();
            if reversed {
                index.invert_axis(ndarray::Axis(0));
            }
            let index = <i64 as IndexInt>::wrap_array(index.into());
            let plans = [Bounds::Error, Bounds::Clip].map(|bounds| resolve(&index, axis, shape, strides, bounds, &Serial).unwrap());
            let [Plan::Indexed(in_place), Plan::Indexed(table)] = &plans else {
                panic!("along plans are indexed")
            };
            let Entries::Along(along) = &in_place.table.entries else {
                panic!("mode error reads the index in place")
            };
            assert!(matches!(table.table.entries, Entries::Offsets(_)), "{shape:?}");
            let expected = table.table.offsets().unwrap();
            assert_eq!(in_place.table.offsets().unwrap(), expected, "{shape:?} {index_shape:?}");
            let region = &in_place.table.shape;
            let per_first = expected.len() / region[0];
            for first in 0..region[0] {
                let (mut got, mut row_lens) = (vec![], vec![]);
                along.for_each_row(region, first..region[0], &mut |row| {
                    got.extend_from_slice(row);
                    row_lens.push(row.len());
                });
                assert_eq!(got, expected[first * per_first..], "{shape:?} from {first}");
                // One call per row of the region's last axis.
                let row_len = if region.len() == 1 {
                    region[0] - first
                } else {
                    region[region.len() - 1]
                };
                assert_eq!(row_lens, vec![row_len; got.len() / row_len], "{shape:?} from {first}");
                // The walk itself hands the same rows.
                let mut walked = Recorded::default();
                along.walk(region, first..region[0], &mut walked);
                assert_eq!(walked.rows.concat(), expected[first * per_first..], "{shape:?} from {first}");
            }
        }
    }

    /// Picks along a contiguous axis, taken as they stand in blocks whose
    /// picks all lie in `[0, len)` and wrapped in the others, give the
    /// offsets the built table holds, for each index integer type, from
    /// any row on; both kinds of block occur. Where the picked axis has
    /// another stride, or each pick of a row has a start of its own, no
    /// block is taken as it stands. An index with no negative pick is
    /// planned direct, and walked with no block tested.
    #[test]
    fn picks_taken_as_they_stand_give_the_built_table() {
        // 2400 picks in [0, 9), but a negative one at 1037: rows of 8 span
        // three blocks, the middle one holding row 129 and the negative pick.
        let mut values: Vec<i64> = (0..2400).map(|k| (k * 5 + 1) % 9).collect();
        values[CHECKED_AT_ONCE + 13] = -9;
        // Target shape and strides, index shape, axis, and whether its
        // blocks may be taken as they stand.
        type Layout = ([usize; 2], [isize; 2], [usize; 2], isize, bool);
        let layouts: [Layout; 4] = [
            // C order, picks along the rows.
            ([300, 9], [9, 1], [300, 8], 1, true),
            // Every other element of a target twice as wide.
            ([300, 9], [18, 2], [300, 8], 1, false),
            // Fortran order, picks down the columns: the rows of the index
            // run across them, each pick at its own column.
            ([9, 300], [1, 9], [8, 300], 0, false),
            // One column, broadcast along the index's rows: picks down it.
            ([9, 1], [1, 1], [300, 8], 0, true),
        ];
        for (shape, strides, index_shape, axis, unit) in layouts {
            let index = |values: Vec<i64>| Array::from_shape_vec(IxDyn(&index_shape), values).unwrap();
            let wrapped: Vec<u32> = values.iter().map(|&v| v.rem_euclid(9) as u32).collect();
            let arrays = [
                <i64 as IndexInt>::wrap_array(index(values.clone()).into()),
                <i32 as IndexInt>::wrap_array(index(values.clone()).mapv(|v| v as i32).into()),
                <u32 as IndexInt>::wrap_array(Array::from_shape_vec(IxDyn(&index_shape), wrapped).unwrap().into()),
            ];
            for index in &arrays {
                let plans = [Bounds::Error, Bounds::Clip].map(|bounds| resolve(index, axis, &shape, &strides, bounds, &Serial).unwrap());
                let [Plan::Indexed(in_place), Plan::Indexed(table)] = &plans else {
                    panic!("along plans are indexed")
                };
                let Entries::Along(along) = &in_place.table.entries else {
                    panic!("mode error reads the index in place")
                };
                let expected = table.table.offsets().unwrap();
                let region = &in_place.table.shape;
                let row_len = index_shape[1];
                for first in [0, 1, region[0] / 2] {
                    let case = format!("{shape:?} {strides:?} {index:?} from {first}");
                    let mut walked = Recorded::default();
                    along.walk(region, first..region[0], &mut walked);
                    assert_eq!(walked.rows.concat(), expected[first * row_len..], "{case}");
                    // (Without optimization the walk tests the blocks for a
                    // consumer of its own, which collects each row.)
                    // The wrapped index holds no negative pick: its plan is
                    // direct, and its blocks are taken as they stand untested.
                    let direct = matches!(index, IntArray::U32(_));
                    assert_eq!(along.direct, direct, "{case}: direct");
                    if !cfg!(unoptimized) {
                        let in_range = walked.in_range.borrow();
                        assert_eq!(
                            in_range.contains(&true),
                            unit && !direct,
                            "{case}: a block tested and taken as it stands"
                        );
                        let negative = unit && !direct && first <= 129;
                        assert_eq!(in_range.contains(&false), negative, "{case}: a block wrapped");
                    }
                }
            }
        }
    }

    /// The serial passes, but leaving an `along` index's bounds to the walk.
    struct Deferring;

    // SAFETY: `Serial`'s passes; the bounds of an `along` index it defers
    // are checked by `walk_checking`, the only walk these tests give it to.
    unsafe impl IndexPasses for Deferring {
        fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128> {
            Serial.first_out_of_bounds(indices, len)
        }
        fn all_in_range(&self, indices: &IntArray<'_>, len: usize) -> bool {
            Serial.all_in_range(indices, len)
        }
        fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize) {
            Serial.add_positions(offsets, indices, len, stride)
        }
        fn table(&self, len: usize) -> Option<Vec<isize>> {
            Serial.table(len)
        }
        fn defers_along_bounds(&self) -> bool {
            true
        }
    }

    /// A walk that checks hands the rows of an index in bounds as the
    /// plain walk does, and, with a pick out of bounds (the extremes of
    /// the type too), stops before the block of rows that holds it, having
    /// handed the whole rows before that block, among picks that are all
    /// in `[0, len)` as among others; where the rows are not one stride
    /// apart, it stops before the row itself.
    #[test]
    fn a_checking_walk_stops_before_the_block_out_of_bounds() {
        // Rows of 8 picks along the last axis of (rows, 9): 300 rows span
        // three blocks of checked picks, 130 two, 5 rows one. The same
        // rows in (rows, 1, 9), each row's start 10 elements on: no one
        // stride from a row to the next. (Fewer cases under Miri, which is
        // slow.)
        let sizes = if cfg!(miri) { &[130usize][..] } else { &[5, 300] };
        let bad_values = if cfg!(miri) {
            &[i64::MIN][..]
        } else {
            &[9, -10, i64::MAX, i64::MIN]
        };
        for (&rows_of_index, negatives) in sizes.iter().flat_map(|rows| [(rows, true), (rows, false)]) {
            let lowest = if negatives { -9 } else { 0 };
            let values: Vec<i64> = (0..rows_of_index as i64 * 8)
                .map(|k| (k * 5 + 1).rem_euclid(9 - lowest) + lowest)
                .collect();
            let bad_rows = if cfg!(miri) {
                &[rows_of_index - 1][..]
            } else {
                &[0, rows_of_index / 2, rows_of_index - 1]
            };
            let layouts = [
                (vec![rows_of_index, 9], vec![9isize, 1], vec![rows_of_index, 8], CHECKED_AT_ONCE / 8),
                (vec![rows_of_index, 1, 9], vec![10, 9, 1], vec![rows_of_index, 1, 8], 1),
            ];
            for (shape, strides, index_shape, block_rows) in &layouts {
                let walk = |picks: Vec<i64>, rows: &mut Recorded| {
                    let index = <i64 as IndexInt>::wrap_array(Array::from_shape_vec(IxDyn(index_shape), picks).unwrap().into());
                    let Ok(Plan::Indexed(plan)) = resolve(&index, -1, shape, strides, Bounds::Error, &Deferring) else {
                        panic!("an along plan")
                    };
                    let Entries::Along(along) = &plan.table.entries else {
                        panic!("read in place")
                    };
                    let region = &plan.table.shape;
                    along.walk_checking(region, 0..region[0], rows)
                };
                let mut plain = Recorded::default();
                {
                    let index = <i64 as IndexInt>::wrap_array(Array::from_shape_vec(IxDyn(index_shape), values.clone()).unwrap().into());
                    let Ok(Plan::Indexed(plan)) = resolve(&index, -1, shape, strides, Bounds::Error, &Serial) else {
                        panic!("an along plan")
                    };
                    let Entries::Along(along) = &plan.table.entries else {
                        panic!("read in place")
                    };
                    along.walk(&plan.table.shape, 0..plan.table.shape[0], &mut plain);
                }
                let mut checking = Recorded::default();
                assert_eq!(walk(values.clone(), &mut checking), Ok(()));
                assert_eq!(checking.rows, plain.rows, "{shape:?}, {rows_of_index} rows");
                for &bad_row in bad_rows {
                    for &bad in bad_values {
                        let mut picks = values.clone();
                        picks[bad_row * 8 + 3] = bad;
                        let mut stopped = Recorded::default();
                        assert_eq!(walk(picks, &mut stopped), Err(RowOutOfBounds), "{shape:?}: {bad} in row {bad_row}");
                        let handed = bad_row / block_rows * block_rows;
                        assert_eq!(stopped.rows, plain.rows[..handed], "{shape:?}: {bad} in row {bad_row}");
                    }
                }
            }
        }
    }

    /// Records each row, and what each block's test of `[0, len)` found.
    #[derive(Default)]
    struct Recorded {
        rows: Vec<Vec<isize>>,
        in_range: std::cell::RefCell<Vec<bool>>,
    }

    // SAFETY: the default `in_bounds`, and `in_range` answers as the
    // default does.
    unsafe impl AlongRows for Recorded {
        fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>) {
            self.rows.push(offsets.collect());
        }

        fn in_range<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
            let found = super::all_in_range(picks, len);
            self.in_range.borrow_mut().push(found);
            found
        }
    }
}
