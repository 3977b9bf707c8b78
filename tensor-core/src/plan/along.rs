//! `along(idx, axis)`: NumPy's `take_along_axis` and `put_along_axis`,
//! PyTorch's `gather` and `scatter(dim)`. `idx` has the target's rank; it
//! picks positions along `axis` and broadcasts against the target along
//! every other axis. NumPy builds the same selection from `arange` index
//! arrays, one per other axis, broadcast against `idx`: here each of those
//! is an `arange` of its axis' length alone (never a grid), and the table
//! of the broadcast positions is built as for any advanced index.

use ndarray::{Array, CowArray, IxDyn};

use crate::error::{IndexError, Shape};
use crate::index::IntArray;
use crate::mode::Bounds;
use crate::plan::IndexedPlan;
use crate::plan::advanced::{self, Component, Source};
use crate::plan::passes::IndexPasses;
use crate::plan::{Dim, Plan};

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
        index: Shape(index.to_vec()),
        target: Shape(shape.to_vec()),
        axis,
    };
    index
        .iter()
        .zip(shape)
        .enumerate()
        .map(|(d, (&i, &t))| match (i, t) {
            _ if d == axis => Ok(i),
            (i, t) if i == t || t == 1 => Ok(i),
            (1, t) => Ok(t),
            _ => Err(mismatch()),
        })
        .collect()
}

/// The plan of `along(index, axis)` on a target of the given shape and
/// strides. Errors in NumPy's order: the axis, the broadcast, the bounds.
/// (The index's rank was checked with the index's structure.)
pub(crate) fn resolve<'i>(
    index: &'i IntArray<'_>,
    axis: isize,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    let axis = normalize_axis(axis, shape.len())?;
    let region = region_shape(index.shape(), shape, axis)?;
    advanced::checked_size(&region)?;
    let ndim = shape.len();
    let components: Vec<Component<'i>> = (0..ndim)
        .map(|d| match d == axis {
            true => Component {
                axis,
                shape: index.shape().to_vec(),
                source: Source::Array(index.view()),
            },
            false => {
                let mut arange_shape = vec![1; ndim];
                arange_shape[d] = shape[d];
                let arange = Array::from_shape_vec(IxDyn(&arange_shape), (0..shape[d]).collect()).expect("one position per element");
                Component {
                    axis: d,
                    shape: arange_shape,
                    source: Source::Array(IntArray::Usize(CowArray::from(arange))),
                }
            }
        })
        .collect();
    // The shapes were checked above: a broadcast error cannot name them.
    let table = advanced::build_table(&components, &[], (shape, strides), bounds, passes)?;
    Ok(Plan::Indexed(IndexedPlan {
        base: 0,
        dims: vec![Dim::Table],
        shape: table.shape.clone(),
        table,
        whole_mask: false,
    }))
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
