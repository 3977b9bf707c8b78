//! A call's target viewed as rows: the trailing axes an index leaves whole
//! make one row for each position of the axes it addresses. The host then
//! plans one position per row instead of one per element, and burn's
//! indexed operations move whole rows (`x[ids]` on an embedding table is
//! burn's `select` of rows).

use crate::backend::DeviceForm;
use crate::index::IndexElem;

/// How a call views its target: the index elements that address the
/// leading axes, and how many leading axes there are (the batch axes
/// included). Every later axis is whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rows {
    /// The index elements kept; the rest are whole slices (and `...`).
    pub(crate) kept: usize,
    /// The leading axes, the batch axes included.
    pub(crate) leading: usize,
}

impl Rows {
    /// The rows of a target of `shape` with `batch` paired axes under
    /// `index`: one element per row when the index leaves no axis whole,
    /// or when a rule the host must check lies in the axes left out (two
    /// `...`, more index elements than axes, `along`).
    pub(crate) fn of(index: &[IndexElem<'_>], shape: &[usize], batch: usize) -> Rows {
        let elements = Rows {
            kept: index.len(),
            leading: shape.len(),
        };
        let Some(ndim) = shape.len().checked_sub(batch) else {
            return elements;
        };
        if index.iter().filter(|elem| matches!(elem, IndexElem::Ellipsis)).count() > 1 {
            return elements;
        }
        let mut kept = index.len();
        let mut whole = 0;
        while let Some(last) = kept.checked_sub(1).map(|at| &index[at]) {
            match last {
                IndexElem::Ellipsis => {}
                elem if is_whole(elem) => whole += 1,
                _ => break,
            }
            kept -= 1;
        }
        let trimmed = &index[..kept];
        // (`nd` arrays may address more axes, together, than a usize counts.)
        let addressed = trimmed.iter().try_fold(0usize, |sum, elem| sum.checked_add(axes_addressed(elem)?));
        let Some(addressed) = addressed else {
            return elements;
        };
        let Some(unaddressed) = ndim.checked_sub(whole) else {
            return elements;
        };
        if addressed > unaddressed {
            return elements;
        }
        let leading = match trimmed.iter().any(|elem| matches!(elem, IndexElem::Ellipsis)) {
            true => unaddressed,
            false => addressed,
        };
        let row_len: usize = shape[batch + leading..].iter().product();
        if leading == 0 || row_len <= 1 {
            return elements;
        }
        Rows {
            kept,
            leading: batch + leading,
        }
    }
}

/// Whether `elem` takes a whole axis as it is: `..`, `:`, `::1`.
fn is_whole(elem: &IndexElem<'_>) -> bool {
    match elem {
        IndexElem::Slice(slice) => slice.start.is_none() && slice.stop.is_none() && matches!(slice.step, None | Some(1)),
        IndexElem::Range(range) => range.start == 0 && range.end.is_none() && range.step == 1,
        _ => false,
    }
}

/// How many target axes `elem` addresses; `None` for the elements that
/// tie every axis together (`along`) or that the host must refuse.
fn axes_addressed(elem: &IndexElem<'_>) -> Option<usize> {
    match elem {
        IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_) | IndexElem::Array(_) => Some(1),
        IndexElem::NewAxis | IndexElem::Ellipsis => Some(0),
        IndexElem::Mask(mask) => Some(mask.ndim()),
        IndexElem::Nd(array) => array.shape().last().copied(),
        IndexElem::Device { array, form } => match form {
            DeviceForm::Array => Some(1),
            DeviceForm::Nd => array.shape().last().copied(),
            DeviceForm::Mask => Some(array.shape().len()),
            _ => None,
        },
        IndexElem::Along { .. } | IndexElem::CrossRank { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Ellipsis, PySlice};
    use crate::ix;

    fn whole_slice() -> IndexElem<'static> {
        IndexElem::Slice(PySlice::new(None, None, None))
    }

    #[test]
    fn trailing_whole_axes_make_rows() {
        let ids = || ix(ndarray::arr1(&[3usize, 1]));
        // x[ids] and x[ids, :] on (5, 4): rows of 4.
        assert_eq!(Rows::of(&[ids()], &[5, 4], 0), Rows { kept: 1, leading: 1 });
        assert_eq!(Rows::of(&[ids(), whole_slice()], &[5, 4], 0), Rows { kept: 1, leading: 1 });
        assert_eq!(Rows::of(&[ids(), ix(Ellipsis)], &[5, 4, 3], 0), Rows { kept: 1, leading: 1 });
        // x[..., ids, :] on (2, 5, 4): the ellipsis spans the first axis.
        assert_eq!(
            Rows::of(&[ix(Ellipsis), ids(), whole_slice()], &[2, 5, 4], 0),
            Rows { kept: 2, leading: 2 }
        );
        // Under `; batch = 1`, the batch axis leads.
        assert_eq!(Rows::of(&[ids()], &[2, 5, 4], 1), Rows { kept: 1, leading: 2 });
    }

    #[test]
    fn an_index_that_addresses_every_axis_keeps_elements() {
        let ids = || ix(ndarray::arr1(&[3usize, 1]));
        let elements = |shape: &[usize]| Rows {
            kept: 2,
            leading: shape.len(),
        };
        // x[:, ids]: the whole slice leads.
        assert_eq!(Rows::of(&[whole_slice(), ids()], &[5, 4], 0), elements(&[5, 4]));
        // Too many elements: the host's plan must report it.
        assert_eq!(Rows::of(&[ids(), whole_slice()], &[5], 0), elements(&[5]));
        // Two ellipses: the same.
        assert_eq!(Rows::of(&[ix(Ellipsis), ix(Ellipsis)], &[5, 4], 0), elements(&[5, 4]));
        // Rows of one element are elements.
        assert_eq!(Rows::of(&[ids(), whole_slice()], &[5, 1], 0), elements(&[5, 1]));
    }
}
