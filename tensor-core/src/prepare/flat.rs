//! `np.take`, `np.put` and `np.place`, prepared: the array taken as its
//! elements in C order, each flat index resolved in NumPy's `mode`, and
//! every rule checked, in NumPy's order, before an element is read or
//! written.

use crate::error::IndexError;
use crate::exec::flat::SKIPPED;
use crate::index::{IndexInt, IntArray, with_int_array};
use crate::prepare::{out_of_bounds, too_large};

/// How `take` and `put` resolve a flat index outside the array (NumPy's
/// `mode=`, and `drop`). `clip` differs from the mode of `x[idx]`: NumPy's
/// `clip` here clamps every negative index to 0 ("disables indexing with
/// negative numbers").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FlatMode {
    /// `raise`: an index in `[-n, n)`, negative from the end, or an error.
    Raise,
    /// `wrap`: modulo `n`.
    Wrap,
    /// `clip`: below 0 is 0, `n` and above is `n - 1`.
    Clip,
    /// As `raise`, but an index outside is skipped (`put` only).
    Drop,
}

/// `np.take(x, indices, mode)` of an array of `size` elements, prepared:
/// the flat position of each index, in the C order of `indices`.
pub(crate) fn take(indices: &IntArray<'_>, size: usize, mode: FlatMode) -> Result<Vec<usize>, IndexError> {
    if size == 0 && count(indices) > 0 {
        return Err(IndexError::TakeFromEmpty);
    }
    positions(indices, size, mode)
}

/// `np.put(x, indices, values, mode)` into an array of `size` elements
/// with `values` values, prepared: the flat position of each index in the
/// C order of `indices` ([`SKIPPED`] for one dropped), or `None` when
/// nothing is written: no values (NumPy then checks no index either).
pub(crate) fn put(indices: &IntArray<'_>, size: usize, mode: FlatMode, values: usize) -> Result<Option<Vec<usize>>, IndexError> {
    if size == 0 && count(indices) > 0 && mode != FlatMode::Drop {
        return Err(IndexError::PutIntoEmpty);
    }
    if values == 0 {
        return Ok(None);
    }
    positions(indices, size, mode).map(Some)
}

/// `np.place(x, mask, values)` on an array of `size` elements with a mask
/// of `mask` elements, `selected()` of them true, and `values` values,
/// checked: the sizes agree (not the shapes), and values are there when
/// something is selected.
pub(crate) fn place(mask: usize, size: usize, values: usize, selected: impl FnOnce() -> usize) -> Result<(), IndexError> {
    if mask != size {
        return Err(IndexError::MaskSize { mask, data: size });
    }
    if values == 0 && selected() > 0 {
        return Err(IndexError::EmptyValues);
    }
    Ok(())
}

/// The number of indices.
fn count(indices: &IntArray<'_>) -> usize {
    with_int_array!(indices, a => a.len())
}

/// The position of each index on an array of `size` elements in `mode`,
/// in C order, the first bad one (in mode `raise`) reported; a table that
/// cannot be had is [`IndexError::TooLarge`] (an index broadcast far
/// beyond memory), as NumPy's own copy of the indices fails.
fn positions(indices: &IntArray<'_>, size: usize, mode: FlatMode) -> Result<Vec<usize>, IndexError> {
    let mut table = crate::memory::vec(count(indices)).ok_or_else(|| too_large(indices.shape()))?;
    with_int_array!(indices, a => {
        for &index in a.iter() {
            match resolve(index, size, mode) {
                Some(position) => table.push(position),
                None => return Err(out_of_bounds(index.to_i128(), size)),
            }
        }
    });
    Ok(table)
}

/// The position of `index` on an array of `size` elements in `mode`
/// ([`SKIPPED`] for one dropped), or `None` when it is out of bounds in
/// mode `raise`. `size` is not zero in modes `wrap` and `clip`.
#[inline]
fn resolve<I: IndexInt>(index: I, size: usize, mode: FlatMode) -> Option<usize> {
    let inside = index.in_bounds(size).then(|| index.position(size));
    match mode {
        FlatMode::Raise => inside,
        FlatMode::Drop => Some(inside.unwrap_or(SKIPPED)),
        FlatMode::Wrap => Some(index.to_i128().rem_euclid(size as i128) as usize),
        FlatMode::Clip => Some(index.to_i128().clamp(0, size as i128 - 1) as usize),
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, CowArray, IxDyn, array};

    use super::*;

    fn ints(values: &[i64]) -> IntArray<'static> {
        IntArray::I64(CowArray::from(
            ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec()).unwrap(),
        ))
    }

    #[test]
    fn numpys_clip_clamps_negative_indices_to_zero() {
        let indices = ints(&[-4, 5, -1, 1]);
        assert_eq!(take(&indices, 3, FlatMode::Clip).unwrap(), [0, 2, 0, 1]);
        assert_eq!(take(&indices, 3, FlatMode::Wrap).unwrap(), [2, 2, 2, 1]);
        assert_eq!(
            take(&indices, 3, FlatMode::Raise).unwrap_err(),
            IndexError::OutOfBounds {
                index: -4,
                axis: 0,
                len: 3
            }
        );
        assert_eq!(put(&indices, 3, FlatMode::Drop, 1).unwrap(), Some(vec![SKIPPED, SKIPPED, 2, 1]));
    }

    #[test]
    fn empty_arrays_and_values_follow_numpy() {
        let one = ints(&[0]);
        let none = ints(&[]);
        assert_eq!(take(&one, 0, FlatMode::Wrap).unwrap_err(), IndexError::TakeFromEmpty);
        assert_eq!(take(&one, 0, FlatMode::Raise).unwrap_err(), IndexError::TakeFromEmpty);
        assert_eq!(take(&none, 0, FlatMode::Clip).unwrap(), Vec::<usize>::new());
        assert_eq!(put(&one, 0, FlatMode::Clip, 0).unwrap_err(), IndexError::PutIntoEmpty);
        assert_eq!(put(&one, 0, FlatMode::Drop, 1).unwrap(), Some(vec![SKIPPED]));
        // No values: nothing is written, and no index is checked.
        assert_eq!(put(&ints(&[9]), 3, FlatMode::Raise, 0).unwrap(), None);
        assert_eq!(place(4, 4, 0, || 0), Ok(()));
        assert_eq!(place(4, 4, 0, || 1), Err(IndexError::EmptyValues));
        assert_eq!(place(3, 4, 0, || 1), Err(IndexError::MaskSize { mask: 3, data: 4 }));
    }

    #[test]
    fn the_first_bad_index_in_c_order_is_reported() {
        let indices = IntArray::Usize(CowArray::from(array![[0usize, 7], [9, 1]].into_dyn()));
        assert_eq!(
            take(&indices, 4, FlatMode::Raise).unwrap_err(),
            IndexError::OutOfBounds { index: 7, axis: 0, len: 4 }
        );
    }
}
