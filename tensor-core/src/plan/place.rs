//! Where each element of an index lands on the target's axes, and the
//! structural rules checked first, in NumPy's order: every argument of
//! `ix_(..)` one-dimensional (`np.ix_` refuses one before indexing), at
//! most one `...`, an `nd` index with a coordinate axis, no more axes
//! consumed than the target has. `...` then stands for the whole axes no
//! other element takes.
//!
//! Every resolution walks the index through [`Placement`]: the inline
//! basic path and the full resolver place elements the same way.

use crate::error::IndexError;
use crate::index::{BasicElem, DeviceForm, IndexElem, IntArray, with_int_array};
use crate::plan::along::normalize_axis;

/// The structure of an index on a target of a given rank, checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    /// How many target axes `...` covers (all of those left, when present).
    ellipsis_width: usize,
    /// Whether an element is an array, a mask or `nd` (other than an
    /// array that indexes like an integer).
    advanced: bool,
}

impl Placement {
    /// Checks the structure of `index` on a target of `ndim` axes: one
    /// pass, errors in NumPy's order.
    #[cfg_attr(not(unoptimized), inline(always))] // the path of every small read and update
    pub(crate) fn new(index: &[IndexElem<'_>], ndim: usize) -> Result<Self, IndexError> {
        let is_along = |elem: &&IndexElem<'_>| {
            matches!(
                elem,
                IndexElem::Along { .. }
                    | IndexElem::Device {
                        form: DeviceForm::Along(_),
                        ..
                    }
            )
        };
        if let Some(along) = index.iter().find(is_along) {
            return Self::along(along, index.len(), ndim);
        }
        let (mut ellipses, mut indexed, mut nd_without_axes, mut advanced) = (0, 0, false, false);
        for elem in index {
            // `np.ix_` refuses its argument before anything is indexed.
            if let IndexElem::CrossRank { ndim } = elem {
                return Err(IndexError::CrossIndexRank { ndim: *ndim });
            }
            advanced |= matches!(
                elem,
                IndexElem::Array(_) | IndexElem::Mask(_) | IndexElem::Nd(_) | IndexElem::Device { .. }
            ) && as_int(elem).is_none();
            ellipses += usize::from(matches!(elem, IndexElem::Ellipsis));
            // `nd` arrays broadcast to any depth: a sum past `usize::MAX`
            // is too many indices all the same.
            match width(elem) {
                Some(width) => indexed = usize::saturating_add(indexed, width),
                None => nd_without_axes = true,
            }
        }
        Ok(Placement {
            ellipsis_width: Self::ellipsis_width_of(ellipses, nd_without_axes, indexed, ndim)?,
            advanced,
        })
    }

    /// The structural rules on the counts of an index's elements, in
    /// NumPy's order: at most one `...`, an `nd` index with a coordinate
    /// axis, no more axes indexed than the target has. Returns how many
    /// axes `...` covers.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn ellipsis_width_of(ellipses: usize, nd_without_axes: bool, indexed: usize, ndim: usize) -> Result<usize, IndexError> {
        if ellipses > 1 {
            return Err(IndexError::MultipleEllipsis);
        }
        if nd_without_axes {
            return Err(IndexError::NdRank);
        }
        if indexed > ndim {
            return Err(IndexError::TooManyIndices { ndim, indexed });
        }
        Ok(ndim - indexed)
    }

    /// The structure of an index holding `along`: alone, its axis one of
    /// the target's, of the target's rank (NumPy's `take_along_axis`
    /// checks the axis before the rank).
    #[cold]
    fn along(along: &IndexElem<'_>, elems: usize, ndim: usize) -> Result<Self, IndexError> {
        if elems > 1 {
            return Err(IndexError::AlongNotAlone);
        }
        if let IndexElem::Along { axis, .. }
        | IndexElem::Device {
            form: DeviceForm::Along(axis),
            ..
        } = along
        {
            normalize_axis(*axis, ndim)?;
        }
        let rank = width(along).unwrap_or(0);
        if rank != ndim {
            return Err(IndexError::AlongRank { index: rank, target: ndim });
        }
        Ok(Placement {
            ellipsis_width: 0,
            advanced: true,
        })
    }

    /// Whether the index is advanced: it holds an array, a mask or `nd`
    /// (an integer the mode skips makes it advanced too, which only
    /// resolving tells).
    #[inline]
    pub(crate) fn advanced(&self) -> bool {
        self.advanced
    }

    /// How many target axes `...` covers.
    pub(crate) fn ellipsis_width(&self) -> usize {
        self.ellipsis_width
    }

    /// Each element with the first target axis it takes (for `...`, the
    /// first of those it covers), in index order.
    #[inline]
    pub(crate) fn first_axes<'e, 'a>(&self, index: &'e [IndexElem<'a>]) -> FirstAxes<'e, 'a> {
        FirstAxes {
            elems: index.iter(),
            axis: 0,
            ellipsis_width: self.ellipsis_width,
        }
    }
}

/// The iterator of [`Placement::first_axes`].
pub(crate) struct FirstAxes<'e, 'a> {
    elems: std::slice::Iter<'e, IndexElem<'a>>,
    axis: usize,
    ellipsis_width: usize,
}

impl<'e, 'a> Iterator for FirstAxes<'e, 'a> {
    type Item = (&'e IndexElem<'a>, usize);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let elem = self.elems.next()?;
        let first = self.axis;
        self.axis += match elem {
            IndexElem::Ellipsis => self.ellipsis_width,
            // Checked by `Placement::new`.
            elem => width(elem).unwrap_or(0),
        };

        Some((elem, first))
    }
}

/// How many target axes an element consumes (`...` counts none here);
/// `None` for an `nd` index without the axis of its coordinates.
#[inline]
fn width(elem: &IndexElem<'_>) -> Option<usize> {
    match elem {
        IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_) | IndexElem::Array(_) | IndexElem::CrossRank { .. } => Some(1),
        IndexElem::Ellipsis | IndexElem::NewAxis => Some(0),
        IndexElem::Mask(mask) => Some(mask.ndim()),
        IndexElem::Nd(array) => array.shape().last().copied(),
        IndexElem::Along { index, .. } => Some(index.shape().len()),
        IndexElem::Device { array, form } => match form {
            DeviceForm::Nd => array.shape().last().copied(),
            DeviceForm::Along(_) | DeviceForm::Mask => Some(array.shape().len()),
            _ => Some(1),
        },
    }
}

/// The element's basic form: itself for an integer, a slice, `...` or a
/// new axis, its value for a zero-dimensional integer array (which indexes
/// like an integer, as in NumPy); `None` for other arrays.
#[inline]
pub(crate) fn basic(elem: &IndexElem<'_>) -> Option<BasicElem> {
    match elem {
        IndexElem::Slice(slice) => Some(BasicElem::Slice(*slice)),
        IndexElem::Range(range) => Some(BasicElem::Range(*range)),
        IndexElem::Ellipsis => Some(BasicElem::Ellipsis),
        IndexElem::NewAxis => Some(BasicElem::NewAxis),
        elem => as_int(elem).map(BasicElem::Int),
    }
}

/// The integer an element stands for, when it indexes like one: an integer,
/// or a zero-dimensional integer array (as in NumPy).
#[inline]
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
        assert!(placement.advanced());
        let basic = [ix(0), IndexElem::Ellipsis, ix(ndarray::arr0(2usize))];
        assert!(!Placement::new(&basic, 2).unwrap().advanced());
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
