//! The gather path: an advanced read copies the selected elements out, one
//! row at a time, on one thread (`parallel::gather` splits large ones),
//! into a new array or over the elements of an existing one.

use std::iter;
#[cfg(threads)]
use std::mem::MaybeUninit;

use ndarray::{Array, ArrayD, ArrayView, ArrayViewD, ArrayViewMutD, Axis, Dimension, IxDyn};

use crate::exec::passes;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::prefetch;
use crate::index::{IndexInt, with_index_slice, with_index_slices};
use crate::plan::{AlongRows, Form, IndexedPlan, Row, RowOutOfBounds, SKIP, with_offsets};

/// The rows `rows` of `target` along its first axis, each in bounds, in a
/// new array (NumPy's `x[rows]`); one allocation, the result's.
pub(crate) fn rows<T: Clone, D: Dimension>(target: &ArrayView<'_, T, D>, rows: &[usize]) -> Array<T, D> {
    let mut shape = target.raw_dim();
    shape[0] = rows.len();
    let mut elements = Vec::with_capacity(shape.size());
    for &at in rows {
        let mut row = target.view();
        row.collapse_axis(Axis(0), at);
        match row.as_slice() {
            Some(contiguous) => elements.extend_from_slice(contiguous),
            None => Extend::extend(&mut elements, row.iter().cloned()),
        }
    }
    Array::from_shape_vec(shape, elements).expect("one element per position of the rows")
}

/// The elements `plan` selects from `target`, in an array of the plan's
/// shape made of `out` (empty, with room for them); skipped positions read
/// as `fill`.
///
/// An `along` index is checked in bounds as it is walked, with `isa`'s
/// instructions, whether or not it was when planned: an error before the
/// first block of rows (or the first row, where the walk checks row by
/// row) with a pick out of bounds, the elements gathered so far dropped.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()`, so that every offset it yields reaches an element of
/// `target` (an `along` index aside, which may have been planned with its
/// bounds deferred: [`IndexPasses::defers_along_bounds`]).
///
/// # Panics
///
/// When `out` is not empty.
pub(crate) unsafe fn gather<T: Clone>(
    target: &ArrayViewD<'_, T>,
    plan: &IndexedPlan,
    fill: Option<&T>,
    isa: Isa,
    mut out: Vec<T>,
) -> Result<ArrayD<T>, RowOutOfBounds> {
    assert!(out.is_empty(), "an empty output");
    // SAFETY: the caller's guarantee; an `along` index is checked as walked.
    unsafe { gather_to(target, plan, fill, (isa, true), &mut out) }?;
    Ok(ArrayD::from_shape_vec(IxDyn(&plan.shape), out).expect("the plan yields one element per position of its shape"))
}

/// [`gather`] over the elements of `out`, in its logical order, every
/// index checked in bounds when planned (an error would leave `out` half
/// written); an `along` index's picks tested with `isa`'s instructions.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()` by passes that defer no bounds, so that every offset
/// it yields reaches an element of `target`.
///
/// # Panics
///
/// When `out` does not have the plan's shape.
pub(crate) unsafe fn gather_into<T: Clone>(
    target: &ArrayViewD<'_, T>,
    plan: &IndexedPlan,
    fill: Option<&T>,
    isa: Isa,
    mut out: ArrayViewMutD<'_, T>,
) {
    assert_eq!(out.shape(), plan.shape.as_slice(), "the output has the plan's shape");
    let filled = match out.as_slice_mut() {
        Some(slots) => {
            let mut sink = Overwrite(slots);
            // SAFETY: the caller's guarantee.
            unsafe { gather_to(target, plan, fill, (isa, false), &mut sink) }.expect(UNCHECKED_NEVER_STOPS);
            sink.0.is_empty()
        }
        None => {
            let mut sink = OverwriteEach(out.iter_mut());
            // SAFETY: the caller's guarantee.
            unsafe { gather_to(target, plan, fill, (isa, false), &mut sink) }.expect(UNCHECKED_NEVER_STOPS);
            sink.0.next().is_none()
        }
    };
    assert!(filled, "the plan yields one element per position of its shape");
}

/// Why a gather that checks no `along` index expects no error.
const UNCHECKED_NEVER_STOPS: &str = "a gather that checks nothing never stops";

/// An `along` gather: the elements at each row's offsets from `origin`
/// plus `base`, put into `out`.
struct AlongGather<'o, T, S> {
    origin: *const T,
    base: isize,
    out: &'o mut S,
    /// The instructions it tests a block of picks with.
    isa: Isa,
}

impl<'o, T, S> AlongGather<'o, T, S> {
    /// # Safety
    ///
    /// Every offset the rows handed to [`row`](AlongRows::row) will hold,
    /// plus `base`, reaches an element from `origin` that lives while the
    /// gather runs.
    unsafe fn new(origin: *const T, base: isize, out: &'o mut S, isa: Isa) -> Self {
        AlongGather { origin, base, out, isa }
    }
}

// SAFETY: the block tests of `passes`, each tested against a plain
// comparison there (`chunk_in_range`, `chunk_in_bounds`).
unsafe impl<T: Clone, S: Sink<T>> AlongRows for AlongGather<'_, T, S> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>) {
        let (origin, base) = (self.origin, self.base);
        // SAFETY: the contract of `new`.
        self.out
            .extend(offsets.map(move |offset| unsafe { &*origin.offset(base + offset) }));
    }

    fn in_range<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        passes::chunk_in_range(picks, len, self.isa)
    }

    fn in_bounds<I: IndexInt>(&self, picks: &[I], len: usize) -> bool {
        passes::chunk_in_bounds(picks, len, self.isa)
    }
}

/// Where a gather puts the elements it reads, in order.
trait Sink<T> {
    /// Puts clones of `elements`.
    fn extend<'e>(&mut self, elements: impl Iterator<Item = &'e T>)
    where
        T: 'e;
    /// Puts clones of a run of consecutive elements.
    fn extend_from_slice(&mut self, run: &[T]);
    /// Puts `len` clones of `value`.
    fn repeat(&mut self, value: &T, len: usize);
}

impl<T: Clone> Sink<T> for Vec<T> {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn extend<'e>(&mut self, elements: impl Iterator<Item = &'e T>)
    where
        T: 'e,
    {
        Extend::extend(self, elements.cloned());
    }
    fn extend_from_slice(&mut self, run: &[T]) {
        Vec::extend_from_slice(self, run);
    }
    fn repeat(&mut self, value: &T, len: usize) {
        Extend::extend(self, iter::repeat_n(value, len).cloned());
    }
}

/// The contiguous elements of an existing array, overwritten from the front.
struct Overwrite<'o, T>(&'o mut [T]);

impl<T> Overwrite<'_, T> {
    /// The next `len` slots.
    fn next(&mut self, len: usize) -> &mut [T] {
        let (next, rest) = std::mem::take(&mut self.0).split_at_mut(len);
        self.0 = rest;
        next
    }
}

impl<T: Clone> Sink<T> for Overwrite<'_, T> {
    fn extend<'e>(&mut self, elements: impl Iterator<Item = &'e T>)
    where
        T: 'e,
    {
        // The elements lead the zip: a slot is taken only for an element.
        let mut slots = std::mem::take(&mut self.0).iter_mut();
        elements.zip(slots.by_ref()).for_each(|(element, slot)| slot.clone_from(element));
        self.0 = slots.into_slice();
    }
    fn extend_from_slice(&mut self, run: &[T]) {
        self.next(run.len()).clone_from_slice(run);
    }
    fn repeat(&mut self, value: &T, len: usize) {
        self.next(len).iter_mut().for_each(|slot| slot.clone_from(value));
    }
}

/// The elements of an existing array in any layout, overwritten in its
/// logical order.
struct OverwriteEach<I>(I);

impl<'o, T: Clone + 'o, I: Iterator<Item = &'o mut T>> Sink<T> for OverwriteEach<I> {
    fn extend<'e>(&mut self, elements: impl Iterator<Item = &'e T>)
    where
        T: 'e,
    {
        // The elements lead the zip: a slot is taken only for an element.
        elements.zip(self.0.by_ref()).for_each(|(element, slot)| slot.clone_from(element));
    }
    fn extend_from_slice(&mut self, run: &[T]) {
        self.extend(run.iter());
    }
    fn repeat(&mut self, value: &T, len: usize) {
        self.extend(iter::repeat_n(value, len));
    }
}

/// Slots not yet written, filled from the front.
#[cfg(threads)]
struct Slots<'o, T>(&'o mut [MaybeUninit<T>]);

#[cfg(threads)]
impl<T: Clone> Sink<T> for Slots<'_, T> {
    fn extend<'e>(&mut self, elements: impl Iterator<Item = &'e T>)
    where
        T: 'e,
    {
        // The elements lead the zip: a slot is taken only for an element.
        let mut slots = std::mem::take(&mut self.0).iter_mut();
        elements.zip(slots.by_ref()).for_each(|(element, slot)| {
            slot.write(element.clone());
        });
        self.0 = slots.into_slice();
    }
    fn extend_from_slice(&mut self, run: &[T]) {
        self.extend(run.iter());
    }
    fn repeat(&mut self, value: &T, len: usize) {
        self.extend(iter::repeat_n(value, len));
    }
}

/// [`gather`] into `out`, an `along` index's picks tested with `isa`'s
/// instructions, and checked in bounds as walked where it `checks`.
///
/// # Safety
///
/// As [`gather`] where it `checks`, as [`gather_into`] where not.
unsafe fn gather_to<T: Clone>(
    target: &ArrayViewD<'_, T>,
    plan: &IndexedPlan,
    fill: Option<&T>,
    (isa, checks): (Isa, bool),
    out: &mut impl Sink<T>,
) -> Result<(), RowOutOfBounds> {
    let origin = target.as_ptr();
    match plan.form() {
        Form::Index(axis) => with_index_slice!(&axis.index, index => {
            let base = plan.base;
            // SAFETY: every index was checked in bounds of this axis.
            with_offsets!(axis => offset; out.extend(index.iter().map(move |&i| unsafe { &*origin.offset(base + offset(i)) })));
        }),
        Form::IndexRows { index: axis, row } => {
            let ahead = prefetch::rows_ahead(row * std::mem::size_of::<T>());
            with_index_slice!(&axis.index, index => {
                // SAFETY: every index was checked in bounds of its axis, and
                // each row under it is `row` consecutive elements of `target`.
                let row_at = |k: usize| unsafe { origin.offset(plan.base + axis.offset(index[k])) };
                for k in 0..index.len() {
                    if k + ahead < index.len() {
                        prefetch::row(row_at(k + ahead), row);
                    }
                    // SAFETY: as above.
                    out.extend_from_slice(unsafe { std::slice::from_raw_parts(row_at(k), row) });
                }
            })
        }
        Form::Pair(first, second) => with_index_slices!(&first.index, &second.index, (a, b) => {
            let base = plan.base;
            with_offsets!(first => first, second => second; {
                // SAFETY: both indices of each pair were checked in bounds of their axes.
                out.extend(a.iter().zip(b).map(move |(&i, &j)| unsafe { &*origin.offset(base + first(i) + second(j)) }));
            })
        }),
        Form::Along(along) => {
            let region = &plan.table.shape;
            // SAFETY: every index of a row handed to the gather is in bounds
            // of its axis (found in `[0, len)` by the gather's own exact
            // `in_range`, checked by `walk_checking` before it hands the row,
            // or when planned: the caller's guarantee), so each offset is a
            // position of the plan, an element of `target`.
            let mut rows = unsafe { AlongGather::new(origin, plan.base, out, isa) };
            if checks {
                return along.walk_checking(region, 0..region[0], &mut rows);
            }
            along.walk(region, 0..region[0], &mut rows);
        }
        Form::LeadingMask { .. } | Form::General => {
            let skips = plan.table.may_skip();
            // SAFETY: every position of the plan is an element of `target`
            // (the caller's guarantee), and only a table that may skip
            // holds a `SKIP`.
            plan.for_each_row(|row| unsafe { put_row(origin, row, (fill, skips), out) });
        }
    }
    Ok(())
}

/// The elements of the positions of `plan` whose coordinate along its
/// first dim, a strided one, lies in `positions`, into `out` in C order;
/// skipped positions read as `fill`. One thread's part of a gather cut
/// along that dim (`x[:, idx]`: `parallel::gather`).
///
/// # Safety
///
/// `origin` points at the first element of the target `plan` was resolved
/// from, every index of it checked in bounds, so that every offset it
/// yields reaches an element that lives while this runs.
///
/// # Panics
///
/// When the first dim is not strided, `positions` runs past it, or `out`
/// does not have one slot for each of its positions.
#[cfg(threads)]
pub(crate) unsafe fn gather_part_of_first<T: Clone>(
    origin: *const T,
    plan: &IndexedPlan,
    positions: std::ops::Range<usize>,
    fill: Option<&T>,
    out: &mut [MaybeUninit<T>],
) {
    let mut sink = Slots(out);
    let skips = plan.table.may_skip();
    // SAFETY: every position of the plan is an element behind `origin` (the
    // caller's guarantee), and only a table that may skip holds a `SKIP`.
    plan.narrowed(0, positions)
        .for_each_row(|row| unsafe { put_row(origin, row, (fill, skips), &mut sink) });
    assert!(sink.0.is_empty(), "one slot for each position of the part");
}

/// Puts the elements of one row of a plan into `out`, skipped positions as
/// `fill`; a table row's offsets tested for [`SKIP`] only where the plan's
/// table `skips` ([`Table::may_skip`](crate::plan::Table::may_skip)): the
/// test's branch in the loop over a table read in place (`x[:, idx]`)
/// took a quarter of its time.
///
/// # Safety
///
/// Every position of the row that is not skipped is an element behind
/// `origin` that lives while this runs, and where `skips` is false no
/// offset of a table row is [`SKIP`].
#[cfg_attr(not(unoptimized), inline(always))]
unsafe fn put_row<T: Clone>(origin: *const T, row: Row<'_>, (fill, skips): (Option<&T>, bool), out: &mut impl Sink<T>) {
    let fill = || fill.expect("skipped positions in a read come with a fill value");
    match row {
        // A table row with no skip test, for speed alone (`FAST_PATHS`).
        Row::Table { base, offsets } if crate::FAST_PATHS && !skips => {
            // SAFETY: no offset is `SKIP` (the caller's guarantee), so each
            // is an element.
            out.extend(offsets.iter().map(move |&offset| unsafe { &*origin.offset(base + offset) }))
        }
        // SAFETY: the offset is an element behind `origin` (the caller's
        // guarantee), which we borrow shared.
        Row::Point(offset) => out.extend(iter::once(unsafe { &*origin.offset(offset) })),
        Row::Strided { base, len, stride: 1 } => {
            // SAFETY: a row of stride 1 is `len` consecutive elements.
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(origin.offset(base), len) });
        }
        Row::Strided { base, len, stride } => {
            // SAFETY: each position of the row is an element.
            out.extend((0..len as isize).map(move |i| unsafe { &*origin.offset(base + i * stride) }));
        }
        Row::Table { base, offsets } => out.extend(offsets.iter().map(move |&offset| match offset {
            SKIP => fill(),
            // SAFETY: an offset that is not skipped is an element.
            offset => unsafe { &*origin.offset(base + offset) },
        })),
        Row::Skipped(len) => out.repeat(fill(), len),
    }
}
