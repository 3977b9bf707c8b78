//! Writes: each selected element combined with its value by a [`Kernel`],
//! in index order, one row at a time.

use std::iter;
use std::ops::Range;

use ndarray::{ArrayView1, ArrayViewMutD, Axis, Dimension, Zip};

use crate::exec::kernel::Kernel;
use crate::exec::sys::prefetch;
use crate::exec::sys::stream;
use crate::index::{IndexInt, with_index_slice, with_index_slices};
use crate::plan::{AlongIndex, AlongRows, AxisIndex, Form, IndexedPlan, Row, SKIP};
use crate::value::{Broadcast, InOrder};

/// Updates every element of a basic-indexing view with its value.
pub(crate) fn write_view<T, K: Kernel<T>>(mut view: ArrayViewMutD<'_, T>, values: &Broadcast<'_, T>, mut kernel: K) {
    match values {
        Broadcast::Scalar(value) => match view.as_slice_memory_order_mut() {
            // One value over contiguous memory (in any order): one run.
            Some(targets) => kernel.fill_run(targets, value),
            None => fill_lanes(view, value, &mut kernel),
        },
        Broadcast::Array { view: source, shape } => {
            debug_assert_eq!(shape.slice(), view.shape(), "a value broadcast to the view's shape");
            // Broadcast to the view's own shape (what `shape` is): each row
            // of values is then exactly as long as its row of targets, which
            // the every-other write below rests on.
            let source = source.broadcast(view.raw_dim()).expect("checked when built");
            if view.ndim() == 0 {
                return Zip::from(view).and(source).for_each(|target, value| kernel.apply(target, value));
            }
            // Row by row, so contiguous rows are updated as runs (a memcpy for `set`).
            Zip::from(view.rows_mut()).and(source.rows()).for_each(|mut targets, values| {
                let every_other = targets.strides() == [2];
                match (targets.as_slice_mut(), values.as_slice()) {
                    (Some(targets), Some(values)) => kernel.apply_run(targets, values),
                    // SAFETY: a row of stride 2 and `values.len()` elements
                    // (the value broadcast to the view's shape, above)
                    // spans `2 * values.len() - 1` elements from its first;
                    // the kernel writes those between only where the
                    // chooser saw them the target's own, which nothing
                    // else accesses (`Streaming::every_other`).
                    (None, Some(values)) if every_other => unsafe { kernel.apply_every_other(targets.as_mut_ptr(), values) },
                    _ => Zip::from(targets).and(values).for_each(|target, value| kernel.apply(target, value)),
                }
            });
        }
    }
}

/// `x[along(idx, axis)] op= values` for the positions `first` of the
/// region's first axis, in the region's C order, `values` one per position
/// from the first of them. Each update is applied as the walk meets it: a
/// loop of few instructions a pick keeps more misses in flight than one
/// that asks for its destinations ahead (docs/performance.md, "An `along`
/// scatter's row loop").
///
/// # Safety
///
/// As [`write_indexed_at`], with `along` the plan's index.
pub(crate) unsafe fn scatter_along<T, K: Kernel<T>>(
    origin: *mut T,
    plan: &IndexedPlan,
    along: &AlongIndex,
    kernel: &mut K,
    values: InOrder<'_, T>,
    first: Range<usize>,
) {
    let region = &plan.table.shape;
    let base = plan.base;
    // A walk for a scalar and one for a slice, so that each row's loop
    // reads its values as a plain iterator.
    match values {
        InOrder::Scalar(value) => {
            let mut rows = AlongScatter {
                origin,
                base,
                kernel,
                values: value,
            };
            along.walk(region, first, &mut rows);
        }
        InOrder::Slice(values) => {
            let positions = first.len() * region[1..].iter().product::<usize>();
            assert_eq!(values.len(), positions, "a value for each position of the region");
            let mut rows = AlongScatter {
                origin,
                base,
                kernel,
                values,
            };
            along.walk(region, first, &mut rows);
        }
    }
}

/// The values of an `along` scatter, handed out a row at a time.
trait RowValues<'v, T: 'v> {
    /// The values of the next row, of `len` positions.
    fn next_row(&mut self, len: usize) -> impl Iterator<Item = &'v T>;
}

/// One value for every position.
impl<'v, T> RowValues<'v, T> for &'v T {
    #[inline]
    fn next_row(&mut self, len: usize) -> impl Iterator<Item = &'v T> {
        iter::repeat_n(*self, len)
    }
}

/// A value for each position, in order.
impl<'v, T> RowValues<'v, T> for &'v [T] {
    #[inline]
    fn next_row(&mut self, len: usize) -> impl Iterator<Item = &'v T> {
        let (row, rest) = self.split_at(len);
        *self = rest;
        row.iter()
    }
}

/// The state of [`scatter_along`].
struct AlongScatter<'k, T, K, V> {
    origin: *mut T,
    base: isize,
    kernel: &'k mut K,
    values: V,
}

// SAFETY: the default tests, exact.
unsafe impl<'v, T: 'v, K: Kernel<T>, V: RowValues<'v, T>> AlongRows for AlongScatter<'_, T, K, V> {
    #[inline]
    fn row(&mut self, offsets: impl ExactSizeIterator<Item = isize>) {
        // Copied out, so that the loop keeps them in registers.
        let (origin, base) = (self.origin, self.base);
        let values = self.values.next_row(offsets.len());
        for (offset, value) in offsets.zip(values) {
            // SAFETY: the offsets are the plan's, checked in bounds when
            // planned (`scatter_along`'s contract).
            self.kernel.apply(unsafe { &mut *origin.offset(base + offset) }, value);
        }
    }
}

/// One value over a strided view, lane by lane along its densest axis: a
/// view from basic indexing reaches each element once, so any order gives
/// the same result, and a one-dimensional loop per lane beats stepping a
/// multi-dimensional index per element.
fn fill_lanes<T, K: Kernel<T>>(mut view: ArrayViewMutD<'_, T>, value: &T, kernel: &mut K) {
    let densest = (0..view.ndim())
        .filter(|&axis| view.len_of(Axis(axis)) > 1)
        .min_by_key(|&axis| view.stride_of(Axis(axis)).unsigned_abs())
        .unwrap_or(0);
    for mut lane in view.lanes_mut(Axis(densest)) {
        match lane.as_slice_mut() {
            Some(targets) => kernel.fill_run(targets, value),
            None => lane.iter_mut().for_each(|target| kernel.apply(target, value)),
        }
    }
}

/// Updates every position `plan` selects in `target` with its value, in
/// index order (so duplicates apply one after the other and the last `set`
/// wins); skipped positions consume their value and write nothing. With
/// `far` (the target is beyond the cache), a scatter by one index array
/// prefetches its destinations.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()`, so that every offset it yields reaches an element of
/// `target`.
pub(crate) unsafe fn write_indexed<T, K: Kernel<T>>(
    target: &mut ArrayViewMutD<'_, T>,
    plan: &IndexedPlan,
    values: &Broadcast<'_, T>,
    kernel: K,
    far: bool,
) {
    // SAFETY: the caller's guarantee; `target` is borrowed for the call.
    unsafe { write_indexed_at(target.as_mut_ptr(), plan, values, kernel, far) }
}

/// [`write_indexed`] into the target whose element at offset 0 is at
/// `origin`.
///
/// # Safety
///
/// Every offset `plan` yields reaches an element from `origin`, which
/// nothing else reads or writes during the call. Other writers may write
/// other elements of the same array only when the plan's form is
/// [`Form::General`], whose rows are borrowed one at a time and hold only
/// the plan's positions (the other forms borrow a whole indexed axis), or
/// in [`scatter_along`], which borrows one element at a time.
pub(crate) unsafe fn write_indexed_at<T, K: Kernel<T>>(
    origin: *mut T,
    plan: &IndexedPlan,
    values: &Broadcast<'_, T>,
    mut kernel: K,
    far: bool,
) {
    let kernel = &mut kernel;
    match plan.form() {
        Form::Index(axis) => {
            // SAFETY: the caller's guarantee; the planner checked every index in bounds.
            return with_index_slice!(&axis.index, index => unsafe {
                scatter_in_place(origin.offset(plan.base), index, axis.len, axis.stride, values, kernel, far)
            });
        }
        Form::Pair(first, second) => {
            return with_index_slices!(&first.index, &second.index, (a, b) => {
                // SAFETY: the caller's guarantee; the planner checked every index in bounds.
                unsafe { scatter_pair(origin.offset(plan.base), (a, first), (b, second), values, kernel) }
            });
        }
        Form::Along(along) => {
            // Values in the region's C order (others take the rows below).
            let in_order = match values {
                Broadcast::Scalar(value) => Some(InOrder::Scalar(*value)),
                Broadcast::Array { view, shape } if view.shape() == shape.slice() => view.as_slice().map(InOrder::Slice),
                Broadcast::Array { .. } => None,
            };
            if let Some(values) = in_order {
                // SAFETY: the caller's guarantee, passed on.
                return unsafe { scatter_along(origin, plan, along, kernel, values, 0..plan.table.shape[0]) };
            }
        }
        _ => {}
    }
    match values {
        Broadcast::Scalar(value) => plan.for_each_row(|row| {
            // SAFETY: the caller's guarantee on `plan` and `target`, passed on.
            unsafe { write_row(origin, row, iter::repeat(*value), kernel, far) }
        }),
        Broadcast::Array { view, shape } => {
            let source = view.broadcast(shape.clone()).expect("checked when built");
            if source.ndim() == 0 {
                let value = source.iter().next().expect("a zero-dimensional array has one element");
                return plan.for_each_row(|row| {
                    // SAFETY: the caller's guarantee, passed on.
                    unsafe { write_row(origin, row, iter::once(value), kernel, far) }
                });
            }
            // The value's rows (lanes of its last axis) come in the region's row order.
            if let (Some(values), Some((axis, row))) = (source.as_slice(), plan.index_rows()) {
                // SAFETY: the caller's guarantee, passed on.
                return unsafe { scatter_rows(origin, plan.base, axis, row, values, kernel, 0..axis.count()) };
            }
            if let Some(values) = source.as_slice() {
                // In C order already: its rows are consecutive runs, with no
                // multi-dimensional iterator to step.
                let mut at = 0;
                return plan.for_each_row(|row| {
                    let values = &values[at..at + row.len()];
                    at += row.len();
                    // SAFETY: the caller's guarantee, passed on.
                    unsafe { write_row_slice(origin, row, values, kernel, far) }
                });
            }
            // The value's rows match the region's; a region row that comes
            // in pieces takes its value row's in turn.
            let mut rows = source.rows().into_iter();
            let mut current: Option<ArrayView1<'_, T>> = None;
            let mut used = 0;
            plan.for_each_row(|row| {
                let values = match &current {
                    Some(values) if used < values.len() => values,
                    _ => {
                        used = 0;
                        current.insert(rows.next().expect("one value row per region row"))
                    }
                };
                let values = values.slice(ndarray::s![used..used + row.len()]);
                used += row.len();
                match values.to_slice() {
                    // SAFETY: the caller's guarantee, passed on.
                    Some(slice) => unsafe { write_row_slice(origin, row, slice, kernel, far) },
                    // SAFETY: the caller's guarantee, passed on.
                    None => unsafe { write_row(origin, row, values.iter(), kernel, far) },
                }
            });
        }
    }
}

/// `x[rows] = values` for the indices at `places` of `axis`'s index (whose
/// rows are `row` consecutive elements, `values` holding one row per index
/// of the whole index): one run per index, straight from the index. A
/// kernel that streams orders its writes before it writes a row again (a
/// repeated index); one that stores plainly asks for each destination row
/// ahead, since a plain store reads its line first.
///
/// # Safety
///
/// As [`write_indexed_at`], with `base` the plan's and `axis` and `row` its
/// [`Form::IndexRows`].
pub(crate) unsafe fn scatter_rows<T, K: Kernel<T>>(
    origin: *mut T,
    base: isize,
    axis: &AxisIndex,
    row: usize,
    values: &[T],
    kernel: &mut K,
    places: Range<usize>,
) {
    let mut written = kernel.streams().map(|_| vec![0u64; axis.len.div_ceil(64)]);
    let ahead = prefetch::rows_ahead(row * size_of::<T>());
    let prefetches = kernel.streams().is_none();
    let row_at = |position: usize| origin.wrapping_offset(base + position as isize * axis.stride);
    with_index_slice!(&axis.index, index => {
        let values = values.chunks(row.max(1)).skip(places.start);
        for (j, (&i, values)) in index[places.clone()].iter().zip(values).enumerate() {
            let k = places.start + j;
            if prefetches && let Some(&next) = index.get(k + ahead) {
                prefetch::row(row_at(next.position(axis.len)), row);
            }
            let position = i.position(axis.len);
            if let Some(written) = &mut written {
                let (word, bit) = (position / 64, 1u64 << (position % 64));
                if written[word] & bit != 0 && let Some(fence) = kernel.streams() {
                    stream::order(fence);
                }
                written[word] |= bit;
            }
            // SAFETY: the caller's guarantee; every index was checked in
            // bounds, and the row under it is `row` consecutive elements
            // of the target, borrowed by nobody else during the call.
            let targets = unsafe { std::slice::from_raw_parts_mut(origin.offset(base + position as isize * axis.stride), row) };
            kernel.apply_run(targets, values);
        }
    });
}

/// A single index array read in place, with no offset table: one tight
/// loop over the indices and values, prefetching the destinations when
/// `far` (the target is beyond the cache).
///
/// # Safety
///
/// Every `index[k]` is in bounds of an axis of length `len` and stride
/// `stride` starting at `origin`, whose elements nobody else borrows.
unsafe fn scatter_in_place<T, I: IndexInt, K: Kernel<T>>(
    origin: *mut T,
    index: &[I],
    len: usize,
    stride: isize,
    values: &Broadcast<'_, T>,
    kernel: &mut K,
    far: bool,
) {
    // SAFETY: every index is in bounds of the axis (the caller's guarantee).
    let destinations = unsafe { Destinations::new(index, len, far) };
    if stride == 1 {
        // SAFETY: an axis of stride 1 is `len` consecutive elements from
        // `origin`, borrowed by nobody else (the caller's guarantee). As a
        // slice the compiler knows it does not alias the index or the
        // values, and pipelines the loop.
        let axis = unsafe { std::slice::from_raw_parts_mut(origin, len) };
        destinations.scatter(&mut Contiguous(axis), values, kernel);
    } else {
        // SAFETY: every position of the axis is an element of the array
        // nobody else borrows (the caller's guarantee).
        destinations.scatter(&mut unsafe { Strided::new(origin, stride, len) }, values, kernel);
    }
}

/// Two index arrays read in place (`x[i, j]`), the offset of each position
/// computed from both in the loop: no offset table is written and read
/// back. No prefetching here: the loop is bound by memory bandwidth (its
/// random lines read and written back), and asking for destinations ahead
/// made it slower (measured: docs/performance.md, "The pair scatter
/// without a table").
///
/// # Safety
///
/// Every index of `first.0` is in bounds of the axis `first.1` describes,
/// and likewise for `second`, on an array starting at `origin` whose
/// elements nobody else borrows.
unsafe fn scatter_pair<T, I: IndexInt, K: Kernel<T>>(
    origin: *mut T,
    first: (&[I], &AxisIndex<'_>),
    second: (&[I], &AxisIndex<'_>),
    values: &Broadcast<'_, T>,
    kernel: &mut K,
) {
    let ((rows, row_axis), (cols, col_axis)) = (first, second);
    let pairs = rows.iter().zip(cols);
    let offset = |i: I, j: I| row_axis.offset(i) + col_axis.offset(j);
    // Each reference below lives for one call.
    match values {
        Broadcast::Scalar(value) => pairs.for_each(|(&i, &j)| {
            // SAFETY: both indices are in bounds (the caller's guarantee), so
            // the offset reaches an element nobody else borrows.
            kernel.apply(unsafe { &mut *origin.offset(offset(i, j)) }, value)
        }),
        Broadcast::Array { view, shape } => {
            let source = view.broadcast(shape.clone()).expect("checked when built");
            match source.as_slice() {
                Some(values) => {
                    for ((&i, &j), value) in pairs.zip(values) {
                        // SAFETY: as above.
                        kernel.apply(unsafe { &mut *origin.offset(offset(i, j)) }, value);
                    }
                }
                None => {
                    for ((&i, &j), value) in pairs.zip(source.iter()) {
                        // SAFETY: as above.
                        kernel.apply(unsafe { &mut *origin.offset(offset(i, j)) }, value);
                    }
                }
            }
        }
    }
}

/// The elements of the indexed axis, by position.
///
/// # Safety
///
/// [`len`](Self::len) is the axis's length exactly: a scatter asserts it
/// equal to the length its indices were checked against, and then calls
/// [`at`](Self::at) only with those indices.
unsafe trait AxisElements<T> {
    /// The element at `position`.
    ///
    /// # Safety
    ///
    /// `position` is below the axis's length.
    unsafe fn at(&mut self, position: usize) -> &mut T;
    /// The address of the element at `position`, for a prefetch.
    fn address(&self, position: usize) -> *const T;
    /// The number of positions.
    fn len(&self) -> usize;
}

/// An axis of stride 1.
struct Contiguous<'a, T>(&'a mut [T]);

// SAFETY: the length is the slice's, whose elements `at` reaches.
unsafe impl<T> AxisElements<T> for Contiguous<'_, T> {
    #[inline]
    unsafe fn at(&mut self, position: usize) -> &mut T {
        // SAFETY: the position is below the slice's length (the caller's).
        unsafe { self.0.get_unchecked_mut(position) }
    }

    #[inline]
    fn address(&self, position: usize) -> *const T {
        self.0.as_ptr().wrapping_add(position)
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// An axis of `len` positions of any other stride, from `origin`, its
/// position 0.
struct Strided<T> {
    origin: *mut T,
    stride: isize,
    len: usize,
}

impl<T> Strided<T> {
    /// The axis of `len` positions `stride` apart from `origin`.
    ///
    /// # Safety
    ///
    /// For every position below `len`, `origin` offset by `position *
    /// stride` is an element nobody else borrows while this value lives.
    unsafe fn new(origin: *mut T, stride: isize, len: usize) -> Self {
        Strided { origin, stride, len }
    }
}

// SAFETY: the length is the one `new` was given, below which every
// position reaches an element (`new`'s contract).
unsafe impl<T> AxisElements<T> for Strided<T> {
    #[inline]
    unsafe fn at(&mut self, position: usize) -> &mut T {
        // SAFETY: the position is below the axis's length (the caller's),
        // so the offset reaches an element nobody else borrows (`new`'s).
        unsafe { &mut *self.origin.offset(position as isize * self.stride) }
    }

    #[inline]
    fn address(&self, position: usize) -> *const T {
        self.origin.wrapping_offset(position as isize * self.stride)
    }

    fn len(&self) -> usize {
        self.len
    }
}

/// The destinations of a scatter by one index array read in place, every
/// index in bounds of an axis of `len` positions (made only by the unsafe
/// [`Destinations::new`], which its caller vouches for).
struct Destinations<'i, I> {
    /// The index array, every index in bounds of the axis.
    index: &'i [I],
    /// The length of the indexed axis.
    len: usize,
    /// Whether to prefetch each destination [`prefetch::UPDATES_AHEAD`]
    /// updates early (the target is beyond the cache).
    far: bool,
}

impl<'i, I: IndexInt> Destinations<'i, I> {
    /// The destinations `index` gives on an axis of `len` positions,
    /// prefetched when `far`.
    ///
    /// # Safety
    ///
    /// Every index is in bounds of an axis of `len` positions.
    unsafe fn new(index: &'i [I], len: usize, far: bool) -> Self {
        Destinations { index, len, far }
    }

    /// Applies the kernel to the element at `index[k]` with the `k`-th value.
    ///
    /// # Panics
    ///
    /// When `axis` does not have the destinations' length.
    #[inline]
    fn scatter<T, K: Kernel<T>>(&self, axis: &mut impl AxisElements<T>, values: &Broadcast<'_, T>, kernel: &mut K) {
        match values {
            Broadcast::Scalar(value) => self.scatter_values(axis, iter::repeat(*value), kernel),
            Broadcast::Array { view, shape } => {
                let source = view.broadcast(shape.clone()).expect("checked when built");
                match source.as_slice() {
                    Some(values) => self.scatter_values(axis, values.iter(), kernel),
                    None => self.scatter_values(axis, source.iter(), kernel),
                }
            }
        }
    }

    /// [`Self::scatter`] with the values in order.
    ///
    /// # Panics
    ///
    /// When `axis` does not have the destinations' length.
    #[inline]
    fn scatter_values<'v, T: 'v, K: Kernel<T>>(
        &self,
        axis: &mut impl AxisElements<T>,
        values: impl Iterator<Item = &'v T>,
        kernel: &mut K,
    ) {
        assert_eq!(axis.len(), self.len, "the axis the indices were checked against");
        for (k, (&i, value)) in self.index.iter().zip(values).enumerate() {
            if self.far
                && let Some(&ahead) = self.index.get(k + prefetch::UPDATES_AHEAD)
            {
                prefetch::element(axis.address(ahead.position(self.len)));
            }
            // SAFETY: every index is in bounds of an axis of `self.len`
            // positions (`new`'s guarantee), and `axis` has that many
            // (asserted above).
            kernel.apply(unsafe { axis.at(i.position(self.len)) }, value);
        }
    }
}

/// One row from a contiguous run of values: a contiguous row of the target
/// is updated as one run. With `far`, as [`write_row`].
///
/// # Safety
///
/// Every position of `row` is an element of the array `origin` points into,
/// and no other reference to those elements is live.
unsafe fn write_row_slice<T, K: Kernel<T>>(origin: *mut T, row: Row<'_>, values: &[T], kernel: &mut K, far: bool) {
    match row {
        Row::Strided { base, len, stride: 1 } => {
            // SAFETY: a row of stride 1 is `len` consecutive elements of the
            // array from `base` (the caller's guarantee), borrowed by nobody else.
            let targets = unsafe { std::slice::from_raw_parts_mut(origin.offset(base), len) };
            kernel.apply_run(targets, values);
        }
        Row::Strided { base, len, stride } => {
            // One loop bound, the values' length, instead of `write_row`'s
            // two (the row's and the iterator's): rustc unrolls this loop.
            for (i, value) in values[..len].iter().enumerate() {
                // SAFETY: `base + i * stride` for `i < len` is a position of
                // the row, an element nobody else borrows (the caller's
                // guarantee); the reference lives for the call.
                kernel.apply(unsafe { &mut *origin.offset(base + i as isize * stride) }, value);
            }
        }
        // SAFETY: passed on from the caller.
        row => unsafe { write_row(origin, row, values.iter(), kernel, far) },
    }
}

/// One row, values taken in order from `values`. A set's table row into a
/// target beyond the cache (`far`) asks for each destination a few updates
/// ahead: a plain store into a line out of the cache waits for that line
/// at the head of the store queue, one at a time, and `x[:, idx] = s` ran
/// twice as long as the same updates by `+=`, whose loads overlap and which
/// the prefetch slowed (docs/performance.md, "A set's table rows asked for
/// ahead").
///
/// # Safety
///
/// As [`write_row_slice`].
#[inline]
unsafe fn write_row<'v, T: 'v, K: Kernel<T>>(origin: *mut T, row: Row<'_>, values: impl Iterator<Item = &'v T>, kernel: &mut K, far: bool) {
    // Each reference below lives only for one call.
    match row {
        Row::Point(offset) => {
            for value in values.take(1) {
                // SAFETY: the row's one position, an element of the array
                // nobody else borrows (the caller's guarantee).
                kernel.apply(unsafe { &mut *origin.offset(offset) }, value);
            }
        }
        Row::Strided { base, len, stride } => {
            for (i, value) in values.take(len).enumerate() {
                // SAFETY: a position of the row (`i < len`), as above.
                kernel.apply(unsafe { &mut *origin.offset(base + i as isize * stride) }, value);
            }
        }
        Row::Table { base, offsets } => {
            let mut update = |(&offset, value)| {
                if offset != SKIP {
                    // SAFETY: an offset that is not skipped is a position of
                    // the row, as above.
                    kernel.apply(unsafe { &mut *origin.offset(base + offset) }, value);
                }
            };
            // The loop that asks ahead only buys speed ([`FAST_PATHS`](crate::FAST_PATHS)).
            if !(crate::FAST_PATHS && K::REPLACES && far) {
                return offsets.iter().zip(values).for_each(update);
            }
            for (k, pair) in offsets.iter().zip(values).enumerate() {
                if let Some(&ahead) = offsets.get(k + prefetch::TABLE_AHEAD) {
                    // (A skipped entry's address is wild; a prefetch of it
                    // is harmless.)
                    prefetch::element(origin.wrapping_offset(base.wrapping_add(ahead)));
                }
                update(pair);
            }
        }
        Row::Skipped(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, IxDyn};

    use super::{Contiguous, Destinations, Strided};
    use crate::exec::kernel::{AddOp, OpKernel, SetKernel};
    use crate::value::Broadcast;

    /// Indices with duplicates and negative ones, more of them than the
    /// prefetch distance, so every update but the last few prefetches.
    fn indices(len: usize) -> Vec<i64> {
        (0..1000i64).map(|k| (k * 7919 % 613) - 300).filter(|&i| i < len as i64).collect()
    }

    #[test]
    fn prefetching_scatters_equal_a_plain_loop() {
        let len = 313;
        let index = indices(len);
        let values: Vec<f32> = (0..index.len()).map(|k| k as f32 * 0.25 - 9.0).collect();
        let position = |i: i64| if i < 0 { (i + len as i64) as usize } else { i as usize };
        let (mut set, mut sum) = (vec![1.5f32; len], vec![1.5f32; len]);
        for (&i, &value) in index.iter().zip(&values) {
            set[position(i)] = value;
            sum[position(i)] += value;
        }
        let view = ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.clone()).unwrap();
        let slice = Broadcast::Array {
            view: view.view(),
            shape: IxDyn(&[values.len()]),
        };
        for far in [false, true] {
            // SAFETY: every index is in [-len, len) (`indices`).
            let destinations = unsafe { Destinations::new(&index, len, far) };
            let mut target = vec![1.5f32; len];
            destinations.scatter(&mut Contiguous(&mut target), &slice, &mut SetKernel::new());
            assert_eq!(target, set, "set, far: {far}");
            let mut target = vec![1.5f32; len];
            destinations.scatter(&mut Contiguous(&mut target), &slice, &mut OpKernel::<AddOp>::new());
            assert_eq!(target, sum, "add, far: {far}");
            // The same axis every third element of a longer buffer.
            let mut buffer = vec![-4.0f32; 3 * len];
            // SAFETY: positions below `len`, 3 apart, are elements of `buffer`.
            let mut axis = unsafe { Strided::new(buffer.as_mut_ptr(), 3, len) };
            destinations.scatter(&mut axis, &slice, &mut SetKernel::new());
            let expected: Vec<f32> = (0..3 * len).map(|p| if p % 3 == 0 { set[p / 3] } else { -4.0 }).collect();
            assert_eq!(buffer, expected, "strided set, far: {far}");
            let mut target = vec![1.5f32; len];
            destinations.scatter(
                &mut Contiguous(&mut target),
                &Broadcast::Scalar(&2.0),
                &mut OpKernel::<AddOp>::new(),
            );
            let counts = index.iter().fold(vec![0; len], |mut counts, &i| {
                counts[position(i)] += 1;
                counts
            });
            assert!(
                target.iter().zip(&counts).all(|(&t, &c)| t == 1.5 + 2.0 * c as f32),
                "scalar add, far: {far}"
            );
        }
    }

    /// A value whose rows are longer than the view's (every other element,
    /// the row that is written through a raw pointer) is refused before
    /// anything is written: the write never rests on its caller for the
    /// length of a row.
    #[test]
    fn a_view_is_written_only_by_a_value_of_its_shape() {
        let mut buffer = vec![0.0f32; 9];
        let mut x = ndarray::ArrayViewMut1::from(&mut buffer[..]);
        let every_other = x.slice_mut(ndarray::s![..3;2]).into_dyn();
        let values = ArrayD::from_elem(IxDyn(&[5]), 1.0f32);
        let longer = Broadcast::Array {
            view: values.view(),
            shape: IxDyn(&[5]),
        };
        let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::write_view(every_other, &longer, SetKernel::new())
        }));
        assert!(refused.is_err(), "a value of another shape is refused");
        assert_eq!(buffer, [0.0; 9], "nothing written");
    }
}

#[cfg(test)]
mod row_tests {
    use ndarray::{ArrayD, CowArray, IxDyn};

    use super::scatter_rows;
    use crate::element::Plain;
    use crate::exec::kernel::{SetKernel, Streaming};
    use crate::exec::sys::cpu::Isa;
    use crate::exec::sys::stream::Fence;
    use crate::index::IntArray;
    use crate::plan::AxisIndex;

    /// Rows stored in turns over parts of the index, plainly and streamed
    /// in either order (as `choose/rows.rs` measures), end as one plain
    /// loop over the whole index leaves them: each index takes its own
    /// values' row, and a row repeated across turns ends with the later one.
    #[test]
    fn rows_stored_in_turns_of_either_kind_equal_a_plain_loop() {
        const ROWS: usize = 12;
        const ROW: usize = 24;
        let index: Vec<i64> = vec![3, 7, 3, 0, 11, 7, 7, 5, 3, 0, 1, 11, 2];
        let values: Vec<f32> = (0..index.len() * ROW).map(|k| k as f32 * 0.5 + 1.0).collect();
        let mut expected = vec![-1.0f32; ROWS * ROW];
        for (k, &i) in index.iter().enumerate() {
            expected[i as usize * ROW..][..ROW].copy_from_slice(&values[k * ROW..][..ROW]);
        }
        let array = ArrayD::from_shape_vec(IxDyn(&[index.len()]), index.clone()).unwrap();
        let axis = AxisIndex {
            index: IntArray::I64(CowArray::from(array)),
            len: ROWS,
            stride: ROW as isize,
            wraps: false,
        };
        let plain = Plain::<f32>::of().expect("f32 is a plain number");
        let n = index.len();
        for cuts in [vec![0, n], vec![0, 1, 5, n], vec![0, 4, 4, 9, n], (0..=n).collect()] {
            for streamed_first in [false, true] {
                let mut target = vec![-1.0f32; ROWS * ROW];
                for (turn, part) in cuts.windows(2).enumerate() {
                    // Dropped after the turn, as each of `measure`'s turns.
                    let fence = Fence;
                    let streaming = Streaming {
                        plain,
                        isa: Isa::detect(),
                        fence: &fence,
                        min_row: 0,
                        min_fill: 0,
                        every_other: false,
                    };
                    let mut kernel = match (turn % 2 == 0) == streamed_first {
                        // SAFETY: the turn writes on this thread, and `fence`
                        // drops after it, before the next turn or the
                        // comparison reads the target; the row loop orders a
                        // row it meets again.
                        true => unsafe { SetKernel::streaming(streaming) },
                        false => SetKernel::new(),
                    };
                    // SAFETY: every index is below `ROWS`, and the row under
                    // it is the `ROW` elements of `target` from `index * ROW`.
                    unsafe { scatter_rows(target.as_mut_ptr(), 0, &axis, ROW, &values, &mut kernel, part[0]..part[1]) };
                }
                assert_eq!(target, expected, "{cuts:?}, streamed first: {streamed_first}");
            }
        }
    }
}

#[cfg(test)]
mod axis_tests {
    use super::{Contiguous, Destinations};
    use crate::exec::kernel::SetKernel;
    use crate::value::Broadcast;

    /// The length check that the unchecked accesses of a scatter rest on.
    #[test]
    #[should_panic(expected = "the axis the indices were checked against")]
    fn a_scatter_refuses_an_axis_shorter_than_its_indices_were_checked_for() {
        let index = [9i64];
        // SAFETY: 9 is in bounds of an axis of 10.
        let destinations = unsafe { Destinations::new(&index, 10, false) };
        let mut short = [0.0f32; 3];
        destinations.scatter(&mut Contiguous(&mut short), &Broadcast::Scalar(&1.0), &mut SetKernel::new());
    }
}
