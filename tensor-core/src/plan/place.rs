//! Where each element of an index lands on the target's axes, and the
//! structural rules checked first, in NumPy's order: at most one `...`, an
//! `nd` index with a coordinate axis, no more axes consumed than the target
//! has. `...` then stands for the whole axes no other element takes.
//!
//! Every resolution walks the index through [`Placement`]: the inline
//! basic path and the full resolver place elements the same way.

use crate::error::IndexError;
use crate::index::{IndexElem, IntArray, with_int_array};

/// The structure of an index on a target of a given rank, checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    /// How many target axes `...` covers (all of those left, when present).
    ellipsis_width: usize,
}

impl Placement {
    /// Checks the structure of `index` on a target of `ndim` axes.
    pub(crate) fn new(index: &[IndexElem<'_>], ndim: usize) -> Result<Self, IndexError> {
        if index.iter().filter(|elem| matches!(elem, IndexElem::Ellipsis)).count() > 1 {
            return Err(IndexError::MultipleEllipsis);
        }
        let mut indexed = 0;
        for elem in index {
            indexed += width(elem)?;
        }
        if indexed > ndim {
            return Err(IndexError::TooManyIndices { ndim, indexed });
        }
        Ok(Placement {
            ellipsis_width: ndim - indexed,
        })
    }

    /// How many target axes `...` covers.
    pub(crate) fn ellipsis_width(&self) -> usize {
        self.ellipsis_width
    }

    /// Each element with the first target axis it takes (for `...`, the
    /// first of those it covers), in index order.
    pub(crate) fn first_axes<'e, 'a>(&self, index: &'e [IndexElem<'a>]) -> impl Iterator<Item = (&'e IndexElem<'a>, usize)> {
        let ellipsis_width = self.ellipsis_width;
        index.iter().scan(0, move |axis, elem| {
            let first = *axis;
            *axis += match elem {
                IndexElem::Ellipsis => ellipsis_width,
                // Checked by `new`.
                elem => width(elem).unwrap_or(0),
            };
            Some((elem, first))
        })
    }
}

/// How many target axes an element consumes (`...` counts none here).
fn width(elem: &IndexElem<'_>) -> Result<usize, IndexError> {
    Ok(match elem {
        IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_) | IndexElem::Array(_) => 1,
        IndexElem::Ellipsis | IndexElem::NewAxis => 0,
        IndexElem::Mask(mask) => mask.ndim(),
        IndexElem::Nd(array) => *array.shape().last().ok_or(IndexError::NdRank)?,
    })
}

/// The integer an element stands for, when it indexes like one: an integer,
/// or a zero-dimensional integer array (as in NumPy).
pub(crate) fn as_int(elem: &IndexElem<'_>) -> Option<i128> {
    match elem {
        IndexElem::Int(i) => Some(*i),
        IndexElem::Array(array) if array.shape().is_empty() => Some(zero_dim_value(array)),
        _ => None,
    }
}

/// The value of a zero-dimensional integer array.
fn zero_dim_value(array: &IntArray<'_>) -> i128 {
    with_int_array!(array, a => a.iter().next().map_or(0, |&i| crate::index::IndexInt::to_i128(i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ix;

    #[test]
    fn ellipsis_takes_the_axes_left_and_elements_follow_it() {
        let index = [ix(0), IndexElem::Ellipsis, IndexElem::NewAxis, ix([true, false]), ix(-1)];
        let placement = Placement::new(&index, 5).unwrap();
        assert_eq!(placement.ellipsis_width(), 2);
        let axes: Vec<usize> = placement.first_axes(&index).map(|(_, axis)| axis).collect();
        assert_eq!(axes, [0, 1, 3, 3, 4]);
    }

    #[test]
    fn structure_is_checked_in_numpys_order() {
        let two = [IndexElem::Ellipsis, ix(0), IndexElem::Ellipsis];
        assert_eq!(Placement::new(&two, 0).unwrap_err(), IndexError::MultipleEllipsis);
        let many = [ix(0), ix(0), ix(0)];
        assert_eq!(
            Placement::new(&many, 2).unwrap_err(),
            IndexError::TooManyIndices { ndim: 2, indexed: 3 }
        );
        let flat = [ix(crate::nd(ndarray::arr0(1usize)))];
        assert_eq!(Placement::new(&flat, 2).unwrap_err(), IndexError::NdRank);
    }

    #[test]
    fn zero_dimensional_arrays_index_like_integers() {
        assert_eq!(as_int(&ix(ndarray::arr0(-3i64))), Some(-3));
        assert_eq!(as_int(&ix(4)), Some(4));
        assert_eq!(as_int(&ix([4])), None);
    }
}
