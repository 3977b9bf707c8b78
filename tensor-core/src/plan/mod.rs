//! Plans: what an index selects, independent of where the data lives.
//!
//! ```
//! use tensor_core::ix;
//! use tensor_core::backend::Bounds;
//! use tensor_core::plan::{resolve, Plan};
//!
//! // x of shape (3, 4) in C order: x[[2, 0], 1:] selects rows 2 and 0 from column 1 on.
//! let index = [ix([2usize, 0]), ix(1..)];
//! let Plan::Indexed(plan) = resolve(&index, &[3, 4], &[4, 1], Bounds::Error)? else { unreachable!() };
//! assert_eq!(plan.shape.as_slice(), &[2, 3]);
//! let mut offsets = Vec::new();
//! plan.for_each_offset(|offset| offsets.push(offset.unwrap()));
//! assert_eq!(offsets, [9, 10, 11, 1, 2, 3]);
//! # Ok::<(), tensor_core::IndexError>(())
//! ```
//!
//! `resolve` turns an index list and a target layout (shape and strides in
//! elements) into a [`Plan`], checking every rule and every index on the
//! way, and tells the plan's form once ([`IndexedPlan::form`]): executing a
//! plan cannot fail, and the executors (the CPU's, the GPU crate's) run it
//! without re-deriving any rule.
//!
//! The planner knows no hardware. Its passes over whole index arrays (the
//! bounds check of an array read in place, the offsets of a table) are the
//! caller's [`IndexPasses`]: the CPU's entry layer supplies passes that use
//! every core and vector instructions.

use std::borrow::Cow;

use ndarray::ArrayViewD;

use crate::error::IndexError;
use crate::index::{IndexInt, IntArray, with_index_slice, with_index_slices};
use crate::memory;

mod advanced;
mod along;
pub(crate) mod basic;
mod broadcast;
mod broadcast_index;
mod passes;
pub(crate) mod place;
mod resolve;
mod slice;

pub(crate) use advanced::checked_size;
pub use along::AlongIndex;
pub(crate) use along::{AlongRows, RowOutOfBounds, all_in_bounds, all_in_range};
pub use broadcast::{broadcast_len, broadcast_shapes};
pub use broadcast_index::{BroadcastArray, BroadcastIndex};
pub use passes::{IndexPasses, Serial};
pub(crate) use resolve::{check_mask_shape, resolve_shape};
pub use resolve::{resolve, resolve_with};

/// What an index selects.
// Lives for one call: boxing the indexed plan would cost an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Plan<'i> {
    /// Basic indexing: a strided view of the target.
    View(ViewPlan),
    /// Advanced indexing: positions given (in part) by a table of offsets.
    Indexed(IndexedPlan<'i>),
}

impl Plan<'_> {
    /// The shape of the selected region (the shape of a read's result).
    pub fn shape(&self) -> &[usize] {
        match self {
            Plan::View(view) => &view.shape,
            Plan::Indexed(indexed) => &indexed.shape,
        }
    }
}

/// A view of the target, one entry per index position after `...` and the
/// implicit trailing `:` are expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewPlan {
    /// What each position does; every target axis is consumed exactly once.
    pub axes: Vec<ViewAxis>,
    /// The shape of the view.
    pub shape: Vec<usize>,
}

/// One position of a [`ViewPlan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewAxis {
    /// Select one position of the next target axis, removing it.
    Select(usize),
    /// Positions `first, first + step, ...` (`len` of them) of the next target axis.
    Slice {
        /// First position (meaningless when `len` is zero).
        first: usize,
        /// Number of positions.
        len: usize,
        /// Distance between positions, never zero.
        step: isize,
    },
    /// A new axis of length one; consumes no target axis.
    NewAxis,
}

impl ViewAxis {
    /// Every position of an axis of length `len`.
    pub(crate) fn whole(len: usize) -> ViewAxis {
        ViewAxis::Slice { first: 0, len, step: 1 }
    }
}

/// Advanced indexing, as element offsets into the target.
///
/// The selected region has shape `shape`, the concatenation of the shapes of
/// `dims`. The element at a multi-index of the region sits at offset `base`
/// plus, for each dim, `i * stride` (strided dims) or `table.offsets[flat]`
/// (the table dim, `flat` being the C-order position within the table's
/// shape). Walking the region in C order is index order.
#[derive(Clone, Debug)]
pub struct IndexedPlan<'i> {
    /// Offset of the element where every strided index is zero, the table excluded.
    pub base: isize,
    /// The dims of the region, in order; exactly one is [`Dim::Table`].
    pub dims: Vec<Dim>,
    /// The broadcast index table.
    pub table: Table<'i>,
    /// The shape of the region.
    pub shape: Vec<usize>,
    /// Whether the index is a single boolean mask covering every axis: NumPy
    /// then reports a wrong-length one-dimensional value as a value count.
    pub whole_mask: bool,
}

/// One dim group of an [`IndexedPlan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// `len` positions `stride` elements apart (slices and new axes).
    Strided {
        /// Number of positions.
        len: usize,
        /// Distance in elements (zero for a new axis).
        stride: isize,
    },
    /// The broadcast advanced indices: as many region axes as the table's shape has.
    Table,
}

/// The advanced indices broadcast together, resolved to offsets.
#[derive(Clone, Debug)]
pub struct Table<'i> {
    /// The broadcast shape of the advanced indices.
    pub shape: Vec<usize>,
    /// The offsets, one per broadcast position in C order.
    pub entries: Entries<'i>,
}

/// How a [`Table`] holds its offsets.
#[derive(Clone, Debug)]
pub enum Entries<'i> {
    /// One offset per position, or [`SKIP`].
    Offsets(Vec<isize>),
    /// A single C-contiguous index array on one axis, checked in bounds and
    /// read in place (never copied): the offset of position `k` is
    /// `index[k].position(len) * stride`.
    Index(AxisIndex<'i>),
    /// Two C-contiguous index arrays of one shape and one integer type on
    /// the first two axes (`x[i, j]`), checked in bounds and read in place:
    /// the offset of position `k` is the sum of each array's
    /// `index[k].position(len) * stride`. Executors compute it in their
    /// loop, so no table is written and read back.
    Pair(AxisIndex<'i>, AxisIndex<'i>),
    /// Integers and C-contiguous index arrays broadcast together
    /// (`x[rows[:, None], cols]`), checked in bounds and read in place: the
    /// offsets computed a piece at a time as the table is walked, so none
    /// is written whole and read back. Only a table that leads its region
    /// (walked once) is read so.
    Broadcast(BroadcastIndex<'i>),
    /// A boolean mask over the leading axes, read in place: the offsets of
    /// its true positions in C order, computed when asked for.
    Mask(MaskIndex<'i>),
    /// `along(idx, axis)`, checked in bounds and read in place: the offsets
    /// of each row of the table computed as it is walked. (In any mode
    /// where the table is empty, unchecked: nothing is walked.)
    Along(AlongIndex<'i>),
}

/// An index array read in place on one axis (see [`Entries::Index`] and
/// [`Entries::Pair`]).
#[derive(Clone, Debug)]
pub struct AxisIndex<'i> {
    /// The user's index array, C-contiguous, every index in bounds.
    pub index: IntArray<'i>,
    /// The length of the indexed axis.
    pub len: usize,
    /// The stride of the indexed axis.
    pub stride: isize,
    /// Whether some index counts from the end (is negative). Where none
    /// does, the executors' loops turn each index into an offset as it
    /// stands: a random gather's loads wait on that arithmetic, and the
    /// wrap took up to 40% of a two-array gather's time. `false` promises
    /// every index in `[0, len)`.
    pub wraps: bool,
}

/// A mask read in place over the leading axes (see [`Entries::Mask`]).
#[derive(Clone, Debug)]
pub struct MaskIndex<'i> {
    /// The user's mask, of the shape of the leading axes it covers.
    pub mask: ArrayViewD<'i, bool>,
    /// The strides of those axes.
    pub strides: Vec<isize>,
}

impl MaskIndex<'_> {
    /// Calls `f` with the offset of each true position, in C order.
    fn each_offset(&self, mut f: impl FnMut(isize)) {
        // A C-order multi-index counter: no allocation per element.
        let mut at = vec![0usize; self.mask.ndim()];
        for &selected in &self.mask {
            if selected {
                f(at.iter().zip(&self.strides).map(|(&i, &stride)| i as isize * stride).sum());
            }
            for (i, &len) in at.iter_mut().zip(self.mask.shape()).rev() {
                *i += 1;
                if *i < len {
                    break;
                }
                *i = 0;
            }
        }
    }
}

impl AxisIndex<'_> {
    /// How many positions the index array holds: the rows a row scatter
    /// writes.
    pub(crate) fn count(&self) -> usize {
        self.index.shape().iter().product()
    }

    /// The offset of the position `i` (in bounds) selects on this axis.
    #[inline]
    pub(crate) fn offset<I: IndexInt>(&self, i: I) -> isize {
        self.offset_fn::<true, I>()(i)
    }

    /// [`offset`](Self::offset) as a function that holds the axis's length
    /// and stride by value (a loop that stores through raw pointers cannot
    /// prove that its stores miss the plan, and would load its fields again
    /// for every element), wrapping negative indices where `WRAPS`. Called
    /// through [`with_offsets!`], which passes `WRAPS` false only for axes
    /// that do not [`wrap`](Self::wraps).
    #[inline]
    pub(crate) fn offset_fn<const WRAPS: bool, I: IndexInt>(&self) -> impl Fn(I) -> isize + Copy + use<WRAPS, I> {
        let (len, stride) = (self.len, self.stride);
        move |i| if WRAPS { i.position(len) } else { i.unwrapped_position() } as isize * stride
    }
}

/// Binds each `$offset` to its axis's [`AxisIndex::offset_fn`] and runs
/// `$body`, in two copies: one that takes every index as it stands, run
/// where none of the axes [`wraps`](AxisIndex::wraps), and one that wraps
/// negative indices, right for any index. Without optimization only the
/// second is compiled ([`FAST_PATHS`](crate::FAST_PATHS)): the first is
/// there for speed alone, and doubled every gather loop that a debug build
/// compiles and links.
macro_rules! with_offsets {
    ($($axis:expr => $offset:ident),+; $body:expr) => {
        if crate::FAST_PATHS && !(false $(|| $axis.wraps)+) {
            $(let $offset = $axis.offset_fn::<false, _>();)+
            $body
        } else {
            $(let $offset = $axis.offset_fn::<true, _>();)+
            $body
        }
    };
}
pub(crate) use with_offsets;

/// The most offsets of a table read in place computed at once: its rows
/// come in pieces of at most this many positions, so no walk holds the
/// offsets of the whole table (as many as its index has elements, and
/// eight bytes each, however narrow the index's integers). Under Miri
/// and in fuzzing builds, scaled to the arrays of the tests Miri
/// interprets and of the fuzzers' inputs, so that they reach the pieces'
/// edges in a few hundred positions.
pub(crate) const PIECE: usize = if cfg!(any(miri, fuzzing)) { 64 } else { 4096 };

impl Table<'_> {
    /// Number of entries: positions of the broadcast index shape.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether an entry may be [`SKIP`]: only a table of offsets may hold
    /// one (built in mode `drop` or `fill`); an index read in place never
    /// skips.
    pub fn may_skip(&self) -> bool {
        matches!(self.entries, Entries::Offsets(_))
    }

    /// The offsets, computed from the index when it is read in place;
    /// [`IndexError::TooLarge`] when memory cannot hold them.
    pub fn offsets(&self) -> Result<Cow<'_, [isize]>, IndexError> {
        if let Entries::Offsets(offsets) = &self.entries {
            return Ok(Cow::Borrowed(offsets));
        }
        let mut offsets = memory::vec(self.len()).ok_or_else(|| IndexError::too_large(&self.shape))?;
        self.in_pieces(&mut |piece| offsets.extend_from_slice(piece));
        Ok(Cow::Owned(offsets))
    }

    /// Hands every offset, in C order of the table, to `f`: a table of
    /// offsets whole, one read in place in pieces (of at most [`PIECE`],
    /// or an `along` row) computed into one buffer.
    fn in_pieces(&self, f: &mut dyn FnMut(&[isize])) {
        let mut piece = Vec::new();
        let mut flush = |piece: &mut Vec<isize>| {
            f(piece);
            piece.clear();
        };
        match &self.entries {
            Entries::Offsets(offsets) => f(offsets),
            Entries::Index(axis) => with_index_slice!(&axis.index, index => {
                with_offsets!(axis => offset; for chunk in index.chunks(PIECE) {
                    piece.extend(chunk.iter().map(move |&i| offset(i)));
                    flush(&mut piece);
                })
            }),
            Entries::Pair(first, second) => with_index_slices!(&first.index, &second.index, (a, b) => {
                with_offsets!(first => first, second => second; for (a, b) in a.chunks(PIECE).zip(b.chunks(PIECE)) {
                    piece.extend(a.iter().zip(b).map(move |(&i, &j)| first(i) + second(j)));
                    flush(&mut piece);
                })
            }),
            Entries::Broadcast(broadcast) => broadcast.for_each_piece(&self.shape, 0..self.len(), PIECE, f),
            Entries::Mask(mask) => {
                mask.each_offset(|offset| {
                    piece.push(offset);
                    if piece.len() == PIECE {
                        flush(&mut piece);
                    }
                });
                if !piece.is_empty() {
                    flush(&mut piece);
                }
            }
            Entries::Along(along) => along.for_each_row(&self.shape, 0..self.shape[0], f),
        }
    }
}

/// A table entry whose index was out of bounds in mode `drop` or `fill`:
/// updates skip it and reads give the fill value.
pub const SKIP: isize = isize::MIN;

impl<'i> IndexedPlan<'i> {
    /// Number of elements in the region.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the region is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// When the table is the region's first dim: the number of elements each
    /// table entry selects, one run of the output per entry (what splits a
    /// gather into blocks); `None` otherwise.
    pub fn leading_table_block(&self) -> Option<usize> {
        let [Dim::Table, rest @ ..] = self.dims.as_slice() else {
            return None;
        };
        Some(
            rest.iter()
                .map(|dim| match dim {
                    Dim::Strided { len, .. } => *len,
                    Dim::Table => 1,
                })
                .product(),
        )
    }

    /// The longest strided dim of the region with a stride other than zero,
    /// as its place in `dims` and the region axis it is, with its length:
    /// the dim a writer on several threads cuts. In a layout whose elements
    /// do not overlap (any mutable view's), two positions whose coordinates
    /// along such a dim differ are different elements (a slice's axis is
    /// not an indexed one), so the pieces of the cut never write one element
    /// twice.
    pub fn longest_strided(&self) -> Option<(usize, usize, usize)> {
        let mut longest: Option<(usize, usize, usize)> = None;
        for (place, dim) in self.dims.iter().enumerate() {
            if let Dim::Strided { len, stride } = *dim
                && stride != 0
                && longest.is_none_or(|(_, _, most)| len > most)
            {
                longest = Some((place, self.axis_of(place), len));
            }
        }
        longest
    }

    /// The region axis where the dim at `place` in `dims` starts: a strided
    /// dim is one axis, the table as many as its shape has.
    fn axis_of(&self, place: usize) -> usize {
        self.dims[..place]
            .iter()
            .map(|dim| match dim {
                Dim::Strided { .. } => 1,
                Dim::Table => self.table.shape.len(),
            })
            .sum()
    }

    /// The positions of the region whose coordinate along the strided dim
    /// at `place` in `dims` lies in `range`, as a plan of their own (a table
    /// read in place is shared; an offset table is copied).
    ///
    /// # Panics
    ///
    /// When `dims[place]` is not strided, or `range` is past its length.
    pub fn narrowed(&self, place: usize, range: std::ops::Range<usize>) -> IndexedPlan<'i> {
        let Dim::Strided { len, stride } = self.dims[place] else {
            panic!("dim {place} of the plan is not strided");
        };
        assert!(
            range.start <= range.end && range.end <= len,
            "{range:?} is past the dim's {len} positions"
        );
        let mut piece = self.clone();
        piece.base += range.start as isize * stride;
        piece.dims[place] = Dim::Strided { len: range.len(), stride };
        piece.shape[self.axis_of(place)] = range.len();
        piece
    }

    /// This plan with its table's entries replaced by `offsets`, one per
    /// entry in the table's C order ([`SKIP`] for one left out): a piece
    /// that writes some of the plan's entries.
    ///
    /// # Panics
    ///
    /// When `offsets` does not hold one offset per entry.
    pub fn with_offsets(&self, offsets: Vec<isize>) -> IndexedPlan<'i> {
        assert_eq!(offsets.len(), self.table.len(), "one offset per entry");
        IndexedPlan {
            base: self.base,
            dims: self.dims.clone(),
            table: Table {
                shape: self.table.shape.clone(),
                entries: Entries::Offsets(offsets),
            },
            shape: self.shape.clone(),
            whole_mask: self.whole_mask,
        }
    }

    /// The index array and row length of a row gather's or row scatter's
    /// plan ([`Form::IndexRows`]); `None` for any other form.
    pub fn index_rows(&self) -> Option<(&AxisIndex<'i>, usize)> {
        match self.form() {
            Form::IndexRows { index, row } => Some((index, row)),
            _ => None,
        }
    }

    /// The plan's form, which the executors' fast paths take.
    pub fn form(&self) -> Form<'_, 'i> {
        match (self.dims.as_slice(), &self.table.entries) {
            ([Dim::Table], Entries::Index(index)) => Form::Index(index),
            ([Dim::Table, Dim::Strided { len: row, stride: 1 }], Entries::Index(index)) => Form::IndexRows { index, row: *row },
            ([Dim::Table], Entries::Pair(first, second)) => Form::Pair(first, second),
            ([Dim::Table, rest @ ..], Entries::Mask(mask)) => Form::LeadingMask {
                mask,
                block: rest_len(rest),
            },
            ([Dim::Table], Entries::Along(along)) => Form::Along(along),
            _ => Form::General,
        }
    }

    /// Calls `f` with the offset of every region element in C order (index
    /// order), or `None` for a skipped one.
    pub fn for_each_offset(&self, mut f: impl FnMut(Option<isize>)) {
        self.for_each_row(|row| row.for_each_offset(&mut f));
    }

    /// Calls `f` with each row of the region (its last axis) in C order:
    /// executors run a tight loop per row instead of a call per element.
    pub fn for_each_row(&self, mut f: impl FnMut(Row<'_>)) {
        self.each_row(&mut f);
    }

    /// [`for_each_row`](Self::for_each_row)'s walk, one copy for every
    /// executor: `f` is a trait object, called once per row.
    fn each_row(&self, f: &mut dyn FnMut(Row<'_>)) {
        if !self.is_empty() {
            Walk::new(self).rows(&self.dims, self.base, false, f);
        }
    }
}

/// The form of an [`IndexedPlan`]: what its fast paths take.
#[derive(Clone, Copy, Debug)]
pub enum Form<'p, 'i> {
    /// `x[idx]` on a one-dimensional target: one index array read in
    /// place, nothing around it.
    Index(&'p AxisIndex<'i>),
    /// `x[idx]` on a matrix whose rows are contiguous: one index array read
    /// in place, then a row of `row` consecutive elements per index.
    IndexRows {
        /// The index array.
        index: &'p AxisIndex<'i>,
        /// The number of elements in a row.
        row: usize,
    },
    /// `x[i, j]` on a matrix: two index arrays read in place.
    Pair(&'p AxisIndex<'i>, &'p AxisIndex<'i>),
    /// `x[mask]` with one mask over the leading axes: each true position
    /// selects `block` elements of the trailing axes.
    LeadingMask {
        /// The mask.
        mask: &'p MaskIndex<'i>,
        /// The number of elements each true position selects.
        block: usize,
    },
    /// `x[along(idx, axis)]` in mode `error`, or selecting nothing in any
    /// mode: the index read in place.
    Along(&'p AlongIndex<'i>),
    /// Anything else: the table's offsets and the strided dims around it.
    General,
}

/// One row of a region (the positions along its last axis), or a piece of
/// one: a long row of a table read in place comes in pieces, in order.
#[derive(Clone, Copy, Debug)]
pub enum Row<'p> {
    /// A zero-dimensional region: one position.
    Point(isize),
    /// `len` positions from `base`, `stride` apart.
    Strided {
        /// Offset of the first position.
        base: isize,
        /// Number of positions.
        len: usize,
        /// Distance between positions.
        stride: isize,
    },
    /// Positions `base + offsets[k]`; an offset of [`SKIP`] is skipped.
    Table {
        /// Offset the table's offsets are relative to.
        base: isize,
        /// One offset per position.
        offsets: &'p [isize],
    },
    /// A row of this many positions, all skipped.
    Skipped(usize),
}

impl Row<'_> {
    /// The number of positions.
    pub fn len(&self) -> usize {
        match *self {
            Row::Point(_) => 1,
            Row::Strided { len, .. } | Row::Skipped(len) => len,
            Row::Table { offsets, .. } => offsets.len(),
        }
    }

    /// Whether the row holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with the offset of each of the row's positions in order,
    /// or `None` for a skipped one.
    pub fn for_each_offset(&self, mut f: impl FnMut(Option<isize>)) {
        match *self {
            Row::Point(offset) => f(Some(offset)),
            Row::Strided { base, len, stride } => (0..len as isize).for_each(|i| f(Some(base + i * stride))),
            Row::Table { base, offsets } => offsets.iter().for_each(|&o| f((o != SKIP).then(|| base + o))),
            Row::Skipped(len) => (0..len).for_each(|_| f(None)),
        }
    }
}

/// Up to this many entries, a table that a walk meets again at each
/// position of the dims before it (`x[:, idx]`) has its offsets computed
/// once for the walk (at most 128 KB, which `malloc` serves from its heap
/// and the L2 holds), not again at each position.
const REUSED_TABLE_MAX: usize = 1 << 14;

/// One walk of a plan's rows ([`IndexedPlan::for_each_row`]).
struct Walk<'w, 'i> {
    plan: &'w IndexedPlan<'i>,
    /// The table's offsets, computed once where the walk meets the table
    /// more than once and they are few.
    reused: Option<Cow<'w, [isize]>>,
}

impl<'w, 'i> Walk<'w, 'i> {
    fn new(plan: &'w IndexedPlan<'i>) -> Self {
        let before_table: usize = plan
            .dims
            .iter()
            .map_while(|dim| match dim {
                Dim::Strided { len, .. } => Some(*len),
                Dim::Table => None,
            })
            .product();
        let reused = (before_table > 1 && plan.table.len() <= REUSED_TABLE_MAX)
            .then(|| plan.table.offsets().ok())
            .flatten();
        Walk { plan, reused }
    }

    /// Hands every offset of the table, in its C order, to `f`, in pieces
    /// as [`Table::in_pieces`] does.
    fn table_pieces(&self, f: &mut dyn FnMut(&[isize])) {
        match &self.reused {
            Some(offsets) => offsets.chunks(PIECE).for_each(f),
            None => self.plan.table.in_pieces(f),
        }
    }

    /// The rows of `dims` (the first dims of the region) from `base`, all
    /// skipped when `skipped`.
    fn rows(&self, dims: &[Dim], base: isize, skipped: bool, f: &mut dyn FnMut(Row<'_>)) {
        let Some((last, outer)) = dims.split_last() else {
            return f(if skipped { Row::Skipped(1) } else { Row::Point(base) });
        };
        match *last {
            Dim::Strided { len, stride } => self.walk(outer, base, &mut |start| match start {
                Some(base) if !skipped => f(Row::Strided { base, len, stride }),
                _ => f(Row::Skipped(len)),
            }),
            // A zero-dimensional table is one offset: fold it into the rest.
            Dim::Table if self.plan.table.shape.is_empty() => self.table_pieces(&mut |offsets| match offsets[0] {
                SKIP => self.rows(outer, base, true, f),
                offset => self.rows(outer, base + offset, skipped, f),
            }),
            // The table's rows, each cut where its pieces end.
            Dim::Table => {
                let row = *self.plan.table.shape.last().expect("a table with axes");
                self.walk(outer, base, &mut |start| {
                    let mut left = row;
                    self.table_pieces(&mut |mut offsets| {
                        while !offsets.is_empty() {
                            let (run, rest) = offsets.split_at(left.min(offsets.len()));
                            f(match start {
                                Some(base) if !skipped => Row::Table { base, offsets: run },
                                _ => Row::Skipped(run.len()),
                            });
                            left = if left == run.len() { row } else { left - run.len() };
                            offsets = rest;
                        }
                    })
                })
            }
        }
    }

    /// Calls `f` with the offset of each position of `dims` in C order.
    fn walk(&self, dims: &[Dim], base: isize, f: &mut dyn FnMut(Option<isize>)) {
        let Some((dim, rest)) = dims.split_first() else {
            return f(Some(base));
        };
        match *dim {
            Dim::Strided { len, stride } => {
                for i in 0..len as isize {
                    self.walk(rest, base + i * stride, f);
                }
            }
            Dim::Table => {
                let rest_len = rest_len(rest);
                self.table_pieces(&mut |offsets| {
                    for &offset in offsets {
                        if offset == SKIP {
                            (0..rest_len).for_each(|_| f(None));
                        } else {
                            self.walk(rest, base + offset, f);
                        }
                    }
                })
            }
        }
    }
}

/// Number of positions the strided dims after the table span.
fn rest_len(dims: &[Dim]) -> usize {
    dims.iter()
        .map(|dim| match dim {
            Dim::Strided { len, .. } => *len,
            Dim::Table => 1,
        })
        .product()
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, ArrayD, IxDyn};

    use super::{Entries, Plan, Row, resolve};
    use crate::index::IndexElem;
    use crate::ix;
    use crate::mode::Bounds;

    /// The rows of `plan`, with the offset of each position.
    fn rows_of(plan: &super::IndexedPlan<'_>) -> (Vec<usize>, Vec<isize>) {
        let (mut lens, mut offsets) = (Vec::new(), Vec::new());
        plan.for_each_row(|row| {
            lens.push(row.len());
            push_offsets(row, &mut offsets);
        });
        (lens, offsets)
    }

    /// Pushes the offset of each position of `row`.
    fn push_offsets(row: Row<'_>, offsets: &mut Vec<isize>) {
        match row {
            Row::Table { base, offsets: table } => offsets.extend(table.iter().map(|&o| base + o)),
            Row::Strided { base, len, stride } => offsets.extend((0..len as isize).map(|k| base + k * stride)),
            Row::Point(offset) => offsets.push(offset),
            Row::Skipped(_) => panic!("nothing is skipped in mode error"),
        }
    }

    #[test]
    fn tables_read_in_place_come_in_pieces_that_keep_to_their_rows() {
        let count = 2 * super::PIECE + 7;
        let index = Array1::from_shape_fn(count, |k| ((k * 7919) % 11) as i32 - 5);
        let at = |k: usize| (index[k] + if index[k] < 0 { 11 } else { 0 }) as isize;
        let mask = ArrayD::from_shape_fn(IxDyn(&[count, 1]), |k| k[0] % 3 != 1);
        let kept: Vec<isize> = (0..count as isize).filter(|k| k % 3 != 1).collect();
        // (index, shape, strides, each row's length, every offset by a loop)
        type Case<'a> = (Vec<IndexElem<'a>>, [usize; 2], [isize; 2], usize, Vec<isize>);
        // A table too long to compute once and walk again.
        let long = Array1::from_shape_fn(super::REUSED_TABLE_MAX + 5, |k| ((k * 7919) % 11) as i32 - 5);
        let long_at = |k: usize| (long[k] + if long[k] < 0 { 11 } else { 0 }) as isize;
        let cases: [Case<'_>; 5] = [
            // The table leads and is the whole region: one row of `count`.
            (vec![ix(&index)], [11, 1], [1, 1], count, (0..count).map(at).collect()),
            // The table after a slice: a row of `count` per row of the target.
            (
                vec![ix(..), ix(&index)],
                [3, 11],
                [11, 1],
                count,
                (0..3).flat_map(|r| (0..count).map(move |k| r * 11 + at(k))).collect(),
            ),
            // The same, the table walked again at each row: in pieces too.
            (
                vec![ix(..), ix(&long)],
                [2, 11],
                [11, 1],
                long.len(),
                (0..2).flat_map(|r| (0..long.len()).map(move |k| r * 11 + long_at(k))).collect(),
            ),
            // The table leads, a slice after it: rows of the slice.
            (
                vec![ix(&index), ix(..)],
                [11, 2],
                [2, 1],
                2,
                (0..count).flat_map(|k| [2 * at(k), 2 * at(k) + 1]).collect(),
            ),
            // A mask over every axis: its true positions, one row.
            (vec![ix(&mask)], [count, 1], [1, 1], kept.len(), kept),
        ];
        for (index, shape, strides, row, expected) in cases {
            let Ok(Plan::Indexed(plan)) = resolve(&index, &shape, &strides, Bounds::Error) else {
                panic!("{shape:?}: an indexed plan");
            };
            assert!(
                matches!(plan.table.entries, Entries::Index(_) | Entries::Mask(_)),
                "{shape:?}: the table is read in place"
            );
            let (lens, offsets) = rows_of(&plan);
            assert_eq!(offsets, expected, "{shape:?}");
            assert!(lens.iter().all(|&len| len <= super::PIECE.max(row)), "{shape:?}");
            if row > super::PIECE {
                assert!(lens.iter().all(|&len| len <= super::PIECE), "{shape:?}: long rows come in pieces");
            }
            // No piece crosses the end of a row.
            let mut left = row;
            for len in lens {
                assert!(len <= left, "{shape:?}: a piece of {len} crosses a row end");
                left = if len == left { row } else { left - len };
            }
            assert_eq!(left, row, "{shape:?}: the last row is whole");
            let whole = plan.table.offsets().expect("a small table fits");
            assert_eq!(whole.len(), plan.table.len(), "{shape:?}");
        }
    }

    /// The rows of a first dim that is a slice, cut anywhere along it and
    /// walked part by part, hold the offsets of a loop over the positions,
    /// in C order: the parts threads gather (`x[:, idx]`).
    #[test]
    fn a_first_dim_cut_anywhere_walks_the_loops_offsets() {
        let index = Array1::from_vec(vec![3i64, -1, 0, 7, -8, 2]);
        let at = |k: usize| index[k].rem_euclid(8) as isize;
        let count = index.len();
        // x(5, 8, 2) in C order.
        let (shape, strides) = ([5, 8, 2], [16, 2, 1]);
        let cases: [(Vec<IndexElem<'_>>, usize, Vec<isize>); 2] = [
            (
                vec![ix(..), ix(&index)],
                5,
                (0..5)
                    .flat_map(|r| (0..count).flat_map(move |k| (0..2).map(move |d| r * 16 + at(k) * 2 + d)))
                    .collect(),
            ),
            (
                vec![ix(1..4), ix(&index), ix(1)],
                3,
                (1..4).flat_map(|r| (0..count).map(move |k| r * 16 + at(k) * 2 + 1)).collect(),
            ),
        ];
        for (index, first, expected) in cases {
            let Ok(Plan::Indexed(plan)) = resolve(&index, &shape, &strides, Bounds::Error) else {
                panic!("an indexed plan");
            };
            for cuts in [vec![0, first], vec![0, 1, first], (0..=first).collect()] {
                let mut offsets = Vec::new();
                for part in cuts.windows(2) {
                    plan.narrowed(0, part[0]..part[1])
                        .for_each_row(|row| push_offsets(row, &mut offsets));
                }
                assert_eq!(offsets, expected, "{first} positions cut at {cuts:?}");
            }
        }
    }
}
