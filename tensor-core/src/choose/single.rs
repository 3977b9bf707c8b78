//! One advanced element alone, on a small target laid out in C order: a
//! mask of the target's own shape, `along(idx, axis)` whose index has the
//! target's shape but along `axis`, and `nd(points)`. Their positions are
//! found where they stand, with no plan built. Anything else, and any
//! index out of bounds, is declined (`None`, `false`) for the general
//! path, which reports the error: nothing is written before every position
//! is checked.

use ndarray::Dimension;

use crate::element::{Arith, Op};
use crate::exec::kernel::{Kernel, SetKernel, with_op};
use crate::index::{IndexInt, Single, with_indices};
use crate::value::InOrder;

use super::machine::{self, FEW_ROWS};

/// The rows an `along` or `nd` index picks, checked in bounds: where each
/// starts in the target's elements, in the index's order, and how long
/// each is.
pub(crate) struct Rows {
    starts: [usize; FEW_ROWS],
    count: usize,
    row_len: usize,
}

impl Rows {
    /// The rows of `index` (`along` or `nd`) on a target of `shape`, when
    /// they are few ([`machine::few_rows`]) and all in bounds.
    pub(crate) fn of(index: Single<'_>, shape: &[usize]) -> Option<Rows> {
        match index {
            Single::Along(index, axis) => with_indices!(index.ints, picks => along(picks, index.shape, axis, shape)),
            Single::Nd(points) => with_indices!(points.ints, coordinates => nd(coordinates, points.shape, shape)),
            Single::Mask(..) => None,
        }
    }

    fn starts(&self) -> &[usize] {
        &self.starts[..self.count]
    }

    /// The elements of the rows in order, each row's as `run` takes them.
    fn each_element(&self, mut run: impl FnMut(usize, usize)) {
        // Rows of one element (`along`, and `nd` of full depth): no inner
        // loop to set up per row.
        if self.row_len == 1 {
            self.starts().iter().enumerate().for_each(|(k, &at)| run(at, k));
            return;
        }
        let mut k = 0;
        for &start in self.starts() {
            for at in start..start + self.row_len {
                run(at, k);
                k += 1;
            }
        }
    }
}

/// The shape of what a read of `index` (`along` or `nd`, as [`Rows::of`]
/// takes it) on a target of `shape` returns, in rank `R`: the index's
/// shape for `along`; for `nd`, the points' batch shape, then the target's
/// axes past their depth. `None` where `R` is another rank.
pub(crate) fn read_shape<R: Dimension>(index: Single<'_>, shape: &[usize]) -> Option<R> {
    let (batch, rest) = read_parts(index, shape)?;
    let ndim = batch.len() + rest.len();
    if R::NDIM.is_some_and(|static_ndim| static_ndim != ndim) {
        return None;
    }
    let mut read = R::zeros(ndim);
    for (len, &from) in read.slice_mut().iter_mut().zip(batch.iter().chain(rest)) {
        *len = from;
    }
    Some(read)
}

/// The shape of what a read of `index` returns, as [`read_shape`] finds
/// it, in two parts: the index's batch shape, and the target's axes past
/// the points' depth (none for `along`).
fn read_parts<'s>(index: Single<'s>, shape: &'s [usize]) -> Option<(&'s [usize], &'s [usize])> {
    match index {
        Single::Along(index, _) => Some((index.shape, &[])),
        Single::Nd(points) => {
            let (&depth, batch) = points.shape.split_last()?;
            Some((batch, shape.get(depth..)?))
        }
        Single::Mask(..) => None,
    }
}

/// Whether `values` fill the rows of `index` (as [`Rows::of`] takes it)
/// on a target of `shape`: a scalar always; a vector when the read's
/// shape is its length after axes of one, as NumPy broadcasts it. Asked
/// only of a vector, so that a scalar's write never works the shape out.
pub(crate) fn fills<T>(index: Single<'_>, shape: &[usize], values: &InOrder<'_, T>) -> bool {
    let InOrder::Slice(values) = values else { return true };
    let Some((batch, rest)) = read_parts(index, shape) else {
        return false;
    };
    let mut read = batch.iter().chain(rest);
    read.next_back() == Some(&values.len()) && read.all(|&len| len == 1)
}

/// The rows of `along(index, axis)`: single elements. The index has the
/// target's rank and, but along `axis`, its shape (no broadcast).
fn along<I: IndexInt>(picks: &[I], index_shape: &[usize], axis: isize, shape: &[usize]) -> Option<Rows> {
    let ndim = shape.len();
    let axis = if axis < 0 { axis.checked_add_unsigned(ndim)? } else { axis };
    let axis = usize::try_from(axis).ok().filter(|&axis| axis < ndim)?;
    let same_elsewhere = index_shape.len() == ndim && index_shape.iter().zip(shape).enumerate().all(|(d, (&i, &s))| d == axis || i == s);
    if !same_elsewhere || !machine::few_rows(picks.len(), 1) {
        return None;
    }
    let len = shape[axis];
    // Elements past the axis, and the index's length along it.
    let inner: usize = shape[axis + 1..].iter().product();
    let picked = index_shape[axis];
    // The pick's place in the index, counted as it advances (a division
    // per pick costs more than the rest of its work): the element past the
    // axis, the place along it, and where the target's outer element
    // starts.
    let (mut within, mut place, mut outer_start) = (0, 0, 0);
    let mut starts = [0; FEW_ROWS];
    for (start, &pick) in starts.iter_mut().zip(picks) {
        if !pick.in_bounds(len) {
            return None;
        }
        *start = outer_start + pick.position(len) * inner + within;
        within += 1;
        if within == inner {
            within = 0;
            place += 1;
            if place == picked {
                place = 0;
                outer_start += len * inner;
            }
        }
    }
    Some(Rows {
        starts,
        count: picks.len(),
        row_len: 1,
    })
}

/// The rows of `nd(points)`: points of shape `batch + [depth]` each pick
/// the sub-array of the target's last axes past `depth`.
fn nd<I: IndexInt>(coordinates: &[I], points_shape: &[usize], shape: &[usize]) -> Option<Rows> {
    let (&depth, batch) = points_shape.split_last()?;
    let rest = shape.get(depth..)?;
    let row_len: usize = rest.iter().product();
    // Checked: points of no coordinates are an array of no elements,
    // whatever their count (each picks the whole target).
    let count = batch.iter().try_fold(1usize, |count, &len| count.checked_mul(len))?;
    if !machine::few_rows(count, row_len) {
        return None;
    }
    let mut starts = [0; FEW_ROWS];
    for (start, point) in starts.iter_mut().zip(coordinates.chunks_exact(depth.max(1))) {
        let mut at = 0;
        for (&coordinate, &len) in point.iter().zip(&shape[..depth]) {
            if !coordinate.in_bounds(len) {
                return None;
            }
            at = at * len + coordinate.position(len);
        }
        *start = at * row_len;
    }
    Some(Rows { starts, count, row_len })
}

/// The elements of `elements` the rows hold, in order.
pub(crate) fn read_rows<T: Clone>(elements: &[T], rows: &Rows) -> Vec<T> {
    if rows.row_len == 1 {
        return rows.starts().iter().map(|&at| elements[at].clone()).collect();
    }
    let mut read = Vec::with_capacity(rows.count * rows.row_len);
    for &start in rows.starts() {
        read.extend_from_slice(&elements[start..start + rows.row_len]);
    }
    read
}

/// `elements[rows] = values`, the values a scalar or a vector that
/// [`fills`] the rows.
pub(crate) fn set_rows<T: Clone>(elements: &mut [T], rows: &Rows, values: InOrder<'_, T>) {
    write_rows(elements, rows, values, SetKernel::new())
}

/// `elements[rows] op= values` as [`set_rows`] takes it: each occurrence
/// in order.
pub(crate) fn update_rows<T: Arith>(elements: &mut [T], rows: &Rows, op: Op, values: InOrder<'_, T>) {
    with_op!(op, kernel => write_rows(elements, rows, values, kernel))
}

/// [`set_rows`] by `kernel`.
#[cfg_attr(not(unoptimized), inline(always))]
fn write_rows<T, K: Kernel<T>>(elements: &mut [T], rows: &Rows, values: InOrder<'_, T>, mut kernel: K) {
    match values {
        InOrder::Scalar(value) => rows.each_element(|at, _| kernel.apply(&mut elements[at], value)),
        InOrder::Slice(values) => rows.each_element(|at, k| kernel.apply(&mut elements[at], &values[k])),
    }
}

/// The elements `mask` selects, in order, for a mask over every element
/// of a small target ([`machine::small_mask`]).
pub(crate) fn read_masked<T: Clone>(elements: &[T], mask: &[bool]) -> Option<Vec<T>> {
    if !machine::small_mask(elements.len()) || elements.len() != mask.len() {
        return None;
    }
    Some(
        elements
            .iter()
            .zip(mask)
            .filter(|&(_, &keep)| keep)
            .map(|(element, _)| element.clone())
            .collect(),
    )
}

/// `elements[mask] = values` for a mask over every element of a small
/// target, the values one for each `true` in order or a scalar: whether it
/// wrote (`false` for values that do not fit). A mask can be out of no
/// bounds: nothing else fails.
pub(crate) fn set_masked<T: Clone>(elements: &mut [T], mask: &[bool], values: InOrder<'_, T>) -> bool {
    write_masked(elements, mask, values, SetKernel::new())
}

/// `elements[mask] op= values` as [`set_masked`] takes it; `op` checks no
/// operand.
pub(crate) fn update_masked<T: Arith>(elements: &mut [T], mask: &[bool], op: Op, values: InOrder<'_, T>) -> bool {
    with_op!(op, kernel => write_masked(elements, mask, values, kernel))
}

/// [`set_masked`] by `kernel`.
#[cfg_attr(not(unoptimized), inline(always))]
fn write_masked<T, K: Kernel<T>>(elements: &mut [T], mask: &[bool], values: InOrder<'_, T>, mut kernel: K) -> bool {
    if !machine::small_mask(elements.len()) || elements.len() != mask.len() {
        return false;
    }
    match values {
        InOrder::Scalar(value) => {
            for (element, &keep) in elements.iter_mut().zip(mask) {
                kernel.apply_where(keep, element, value);
            }
        }
        InOrder::Slice(values) => {
            if mask.iter().filter(|&&keep| keep).count() != values.len() {
                return false;
            }
            let selected = elements.iter_mut().zip(mask).filter_map(|(element, &keep)| keep.then_some(element));
            for (element, value) in selected.zip(values) {
                kernel.apply(element, value);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, CowArray, Ix1, Ix2, IxDyn};

    use super::*;
    use crate::index::{IndexElem, IntArray};

    fn indices(shape: &[usize], values: Vec<i64>) -> IntArray<'static> {
        IntArray::I64(CowArray::from(
            ArrayD::from_shape_vec(IxDyn(shape), values).expect("one value per position"),
        ))
    }

    fn single<'b>(elem: &'b IndexElem<'_>) -> Single<'b> {
        elem.as_single().expect("laid out in C order")
    }

    fn along_rows(shape: &[usize], index_shape: &[usize], values: Vec<i64>, axis: isize) -> Option<Vec<usize>> {
        let index = IndexElem::Along {
            index: indices(index_shape, values),
            axis,
        };
        Rows::of(single(&index), shape).map(|rows| rows.starts().to_vec())
    }

    #[test]
    fn along_picks_count_from_the_end_and_any_out_of_bounds_declines() {
        // A (2, 3) target: one pick per row, along the last axis.
        assert_eq!(along_rows(&[2, 3], &[2, 1], vec![2, -1], 1), Some(vec![2, 5]));
        assert_eq!(along_rows(&[2, 3], &[2, 1], vec![2, -1], -1), Some(vec![2, 5]));
        // Along the first axis, the columns keep their place.
        assert_eq!(along_rows(&[2, 3], &[1, 3], vec![1, 0, -2], 0), Some(vec![3, 1, 2]));
        assert_eq!(along_rows(&[2, 3], &[2, 1], vec![3, 0], 1), None);
        assert_eq!(along_rows(&[2, 3], &[2, 1], vec![0, -4], 1), None);
        // The middle axis of three: each pick's outer and inner places
        // from its coordinates, as a loop over the index finds them.
        let picks: Vec<i64> = vec![2, 0, -1, 1, 0, -3, 2, 2];
        let by_coordinates: Vec<usize> = (0..2)
            .flat_map(|i| (0..2).flat_map(move |a| (0..2).map(move |k| (i, a, k))))
            .zip(&picks)
            .map(|((i, _, k), &pick)| (i * 3 + pick.rem_euclid(3) as usize) * 2 + k)
            .collect();
        assert_eq!(along_rows(&[2, 3, 2], &[2, 2, 2], picks, 1), Some(by_coordinates));
        // A shape that would broadcast, and an axis past the rank.
        assert_eq!(along_rows(&[2, 3], &[1, 1], vec![0], 1), None);
        assert_eq!(along_rows(&[2, 3], &[2, 1], vec![0, 0], 2), None);
    }

    #[test]
    fn nd_points_pick_rows_of_the_axes_past_their_depth() {
        let elements = IndexElem::Nd(indices(&[2, 2], vec![1, -1, 0, 1]));
        let elements = single(&elements);
        let rows = Rows::of(elements, &[2, 3]).expect("in bounds");
        assert_eq!((rows.starts(), rows.row_len), (&[5, 1][..], 1));
        assert!(fills(elements, &[2, 3], &InOrder::Slice(&[1.0; 2])));
        assert_eq!(read_shape::<Ix1>(elements, &[2, 3]), Some(Ix1(2)));
        let whole_rows = IndexElem::Nd(indices(&[1, 1], vec![-1]));
        let whole_rows = single(&whole_rows);
        let rows = Rows::of(whole_rows, &[2, 3]).expect("in bounds");
        assert_eq!((rows.starts(), rows.row_len), (&[3][..], 3));
        assert!(fills(whole_rows, &[2, 3], &InOrder::Slice(&[1.0; 3])));
        assert_eq!(read_shape::<Ix2>(whole_rows, &[2, 3]), Some(Ix2(1, 3)));
        // The wrong static rank, a coordinate out of bounds, too deep.
        assert_eq!(read_shape::<Ix1>(whole_rows, &[2, 3]), None);
        assert!(Rows::of(single(&IndexElem::Nd(indices(&[1, 2], vec![0, 3]))), &[2, 3]).is_none());
        assert!(Rows::of(single(&IndexElem::Nd(indices(&[1, 3], vec![0, 0, 0]))), &[2, 3]).is_none());
        // More rows than are checked first.
        assert!(Rows::of(single(&IndexElem::Nd(indices(&[17, 1], vec![0; 17]))), &[2, 3]).is_none());
    }

    #[test]
    fn vectors_line_up_with_reads_of_one_axis_past_axes_of_one() {
        // Two whole rows of three: a read of shape (2, 3).
        let points = IndexElem::Nd(indices(&[2, 1], vec![0, 1]));
        let points = single(&points);
        let rows = Rows::of(points, &[2, 3]).expect("in bounds");
        assert!(fills(points, &[2, 3], &InOrder::Scalar(&1.0)));
        assert!(!fills(points, &[2, 3], &InOrder::Slice(&[1.0; 6])));
        assert!(!fills(points, &[2, 3], &InOrder::Slice(&[1.0; 3])));
        // One point's row: a read of shape (1, 3), which three values fill.
        let point = IndexElem::Nd(indices(&[1, 1], vec![1]));
        let point = single(&point);
        assert!(fills(point, &[2, 3], &InOrder::Slice(&[1.0; 3])));
        assert!(!fills(point, &[2, 3], &InOrder::Slice(&[1.0; 2])));
        let mut x = [0.0; 6];
        set_rows(&mut x, &rows, InOrder::Scalar(&1.0));
        assert_eq!(x, [1.0; 6]);
    }
}
