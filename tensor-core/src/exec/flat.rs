//! An array walked by flat positions, in C order, whatever its layout (a
//! view with negative strides, Fortran order, steps): the reads and writes
//! of `np.take`, `np.put` and `np.place`, and the coordinates of
//! `np.nonzero`. The positions arrive checked (`prepare::flat`).

use ndarray::{ArrayViewD, ArrayViewMutD};

/// The table entry of an index `put` drops: no position (none is this
/// large, an array holding at most `isize::MAX` elements).
pub(crate) const SKIPPED: usize = usize::MAX;

/// The offset of the element at flat C-order position `position` of an
/// array of `shape` and `strides` from the array's lowest address, where
/// a slice of its memory starts: each coordinate times its stride, plus
/// the distance from the element at the lowest address to the first (the
/// reversed axes' lengths).
fn memory_offset(shape: &[usize], strides: &[isize], position: usize) -> usize {
    let (mut rest, mut offset) = (position, 0usize);
    for (&len, &stride) in shape.iter().zip(strides).rev() {
        let coordinate = rest % len;
        rest /= len;
        let along = match stride < 0 {
            true => len - 1 - coordinate,
            false => coordinate,
        };
        offset += along * stride.unsigned_abs();
    }
    offset
}

/// The coordinates of flat C-order position `position` of an array of
/// `shape`, written over `at`.
fn coordinates(shape: &[usize], position: usize, at: &mut [usize]) {
    let mut rest = position;
    for (coordinate, &len) in at.iter_mut().zip(shape).rev() {
        *coordinate = rest % len;
        rest /= len;
    }
}

/// Appends to `out` the elements of `view` at `positions` (each below its
/// length), in order.
pub(crate) fn gather<T: Clone>(view: &ArrayViewD<'_, T>, positions: &[usize], out: &mut Vec<T>) {
    if let Some(elements) = view.as_slice() {
        out.extend(positions.iter().map(|&position| elements[position].clone()));
    } else if let Some(memory) = view.as_slice_memory_order() {
        let (shape, strides) = (view.shape(), view.strides());
        out.extend(
            positions
                .iter()
                .map(|&position| memory[memory_offset(shape, strides, position)].clone()),
        );
    } else {
        let mut at = vec![0; view.ndim()];
        out.extend(positions.iter().map(|&position| {
            coordinates(view.shape(), position, &mut at);
            view[&at[..]].clone()
        }));
    }
}

/// Writes the next of `values` over the element of `view` at each of
/// `positions` (each below its length, or [`SKIPPED`], which takes its
/// value and writes nothing), in order: of two equal positions, the later
/// write stays.
pub(crate) fn scatter<'v, T: Clone + 'v>(view: &mut ArrayViewMutD<'_, T>, positions: &[usize], values: impl Iterator<Item = &'v T>) {
    let written = positions.iter().zip(values).filter(|(position, _)| **position != SKIPPED);
    let (shape, strides) = (view.shape().to_vec(), view.strides().to_vec());
    if let Some(elements) = view.as_slice_mut() {
        written.for_each(|(&position, value)| elements[position] = value.clone());
    } else if let Some(memory) = view.as_slice_memory_order_mut() {
        written.for_each(|(&position, value)| memory[memory_offset(&shape, &strides, position)] = value.clone());
    } else {
        let mut at = vec![0; shape.len()];
        for (&position, value) in written {
            coordinates(&shape, position, &mut at);
            view[&at[..]] = value.clone();
        }
    }
}

/// Writes the next of `values` over each element of `view` whose
/// counterpart in `mask` (of as many elements, each walked in C order) is
/// true.
pub(crate) fn place<'v, T: Clone + 'v>(
    view: &mut ArrayViewMutD<'_, T>,
    mask: &ArrayViewD<'_, bool>,
    mut values: impl Iterator<Item = &'v T>,
) {
    for (element, _) in view.iter_mut().zip(mask.iter()).filter(|(_, selected)| **selected) {
        if let Some(value) = values.next() {
            *element = value.clone();
        }
    }
}

/// How many elements of `view` `test` holds for.
pub(crate) fn count<T>(view: &ArrayViewD<'_, T>, test: impl Fn(&T) -> bool) -> usize {
    match view.as_slice_memory_order() {
        Some(elements) => elements.iter().filter(|&element| test(element)).count(),
        None => view.iter().filter(|&element| test(element)).count(),
    }
}

/// Hands `visit` the coordinates of each element of `view` that `test`
/// holds for, in C order.
pub(crate) fn each_selected<T>(view: &ArrayViewD<'_, T>, test: impl Fn(&T) -> bool, mut visit: impl FnMut(&[usize])) {
    let shape = view.shape();
    let mut at = vec![0; shape.len()];
    for element in view.iter() {
        if test(element) {
            visit(&at);
        }
        // The next position in C order: the last axis fastest.
        for (coordinate, &len) in at.iter_mut().zip(shape).rev() {
            *coordinate += 1;
            if *coordinate < len {
                break;
            }
            *coordinate = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array, IxDyn, ShapeBuilder, s};

    use super::*;

    /// A view of a whole array.
    type Layout = fn(ArrayViewMutD<'_, i64>) -> ArrayViewMutD<'_, i64>;

    /// The layouts: contiguous, Fortran, reversed and permuted axes (the
    /// memory-order path), steps (the coordinate path), each a view of a
    /// fresh base of shape (3, 4, 5).
    fn layouts() -> Vec<(Array<i64, IxDyn>, Layout)> {
        let c = || Array::from_shape_vec(IxDyn(&[3, 4, 5]), (0..60).collect::<Vec<i64>>()).unwrap();
        let f = || Array::from_shape_vec(IxDyn(&[3, 4, 5]).f(), (0..60).collect::<Vec<i64>>()).unwrap();
        vec![
            (c(), |v| v),
            (f(), |v| v),
            (c(), |v| v.slice_move(s![..;-1, .., ..;-1]).into_dyn()),
            (f(), |v| v.slice_move(s![.., ..;-1, ..]).into_dyn()),
            (c(), |v| v.permuted_axes(IxDyn(&[2, 0, 1]))),
            (c(), |v| v.slice_move(s![..;2, 1.., ..;-3]).into_dyn()),
        ]
    }

    /// Every layout reads and writes the element at each flat position of
    /// its C order.
    #[test]
    fn every_layout_walks_its_c_order() {
        for (mut base, layout) in layouts() {
            let mut view = layout(base.view_mut());
            let in_order: Vec<i64> = view.iter().copied().collect();
            let positions: Vec<usize> = (0..in_order.len()).rev().collect();
            let mut got = Vec::new();
            gather(&view.view(), &positions, &mut got);
            assert_eq!(
                got,
                positions.iter().map(|&p| in_order[p]).collect::<Vec<_>>(),
                "{:?}",
                view.strides()
            );
            let values: Vec<i64> = positions.iter().map(|&p| -(p as i64)).collect();
            scatter(&mut view, &positions, values.iter());
            assert!(view.iter().enumerate().all(|(p, &v)| v == -(p as i64)), "{:?}", view.strides());
            scatter(&mut view, &[SKIPPED, 0, 0], [7, 8, 9].iter());
            assert_eq!(view.iter().next(), Some(&9), "the last write stays, the skipped value is spent");
        }
    }

    #[test]
    fn writes_land_in_the_viewed_array_in_every_layout() {
        let mut f = Array::from_shape_vec(IxDyn(&[2, 3]).f(), vec![0i32; 6]).unwrap();
        let mut view = f.slice_mut(s![..;-1, ..]).into_dyn();
        scatter(&mut view, &[0, 5], [1, 2].iter());
        assert_eq!(f[[1, 0]], 1);
        assert_eq!(f[[0, 2]], 2);
        let mut c = Array::from_shape_vec(IxDyn(&[2, 4]), vec![0i32; 8]).unwrap();
        let mut stepped = c.slice_mut(s![.., ..;-2]).into_dyn();
        scatter(&mut stepped, &[1, 2], [5, 6].iter());
        assert_eq!(c[[0, 1]], 5);
        assert_eq!(c[[1, 3]], 6);
    }

    #[test]
    fn coordinates_come_in_c_order() {
        let x = Array::from_shape_vec(IxDyn(&[2, 3]), vec![0, 1, 0, 2, 0, 3]).unwrap();
        let reversed = x.slice(s![..;-1, ..]).into_dyn();
        let mut seen = Vec::new();
        each_selected(&reversed, |&e| e != 0, |at| seen.push(at.to_vec()));
        assert_eq!(seen, [vec![0, 0], vec![0, 2], vec![1, 1]]);
        assert_eq!(count(&reversed, |&e| e != 0), 3);
    }
}
