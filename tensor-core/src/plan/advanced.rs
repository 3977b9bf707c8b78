//! Advanced indices: the forms read in place (a lone index array, a pair
//! of them, a leading mask), and everything else broadcast together and
//! resolved to a table of offsets.

use ndarray::{ArrayViewD, Axis, IxDyn};

use crate::error::{Dims, IndexError, IndexShapes};
use crate::index::{IndexInt, IntArray, with_int_array};
use crate::memory;
use crate::mode::{Bounds, Resolution};
use crate::plan::passes::IndexPasses;
use crate::plan::{AxisIndex, BroadcastArray, BroadcastIndex, Dim, Entries, IndexedPlan, MaskIndex, SKIP, Table};

/// An advanced index element expanded to one coordinate source per axis.
pub(crate) struct Component<'a> {
    /// The target axis it indexes.
    pub axis: usize,
    /// The shape it contributes to the broadcast.
    pub shape: Vec<usize>,
    /// Where its coordinates come from.
    pub source: Source<'a>,
}

/// Where a component's coordinates come from.
pub(crate) enum Source<'a> {
    /// One integer for every broadcast position.
    Int(i128),
    /// An integer array (or a column of one), broadcast.
    Array(IntArray<'a>),
    /// Mask positions along one axis, one per true element.
    Positions(Vec<usize>),
    /// No coordinates, only a shape: a zero-dimensional mask (one position
    /// when true, none when false, as in NumPy), or the batch shape of an
    /// `nd` index.
    Extent,
}

impl Component<'_> {
    /// The component's coordinates for the positions of `shape` (the
    /// broadcast shape), folded into `offsets` as `coordinate * stride`.
    fn accumulate(
        &self,
        shape: &[usize],
        target: (&[usize], &[isize]),
        bounds: Bounds,
        passes: &dyn IndexPasses,
        offsets: &mut [isize],
    ) -> Result<(), IndexError> {
        if let Source::Extent = self.source {
            return Ok(());
        }
        let (len, stride) = (target.0[self.axis], target.1[self.axis]);
        let out_of_bounds = |index: i128| IndexError::OutOfBounds {
            index,
            axis: self.axis,
            len,
        };
        let add = |offset: &mut isize, index: i128| -> Result<(), IndexError> {
            match bounds.resolve(index, len) {
                Resolution::At(position) if *offset != SKIP => *offset += position as isize * stride,
                Resolution::At(_) | Resolution::Skipped => *offset = SKIP,
                Resolution::OutOfBounds => return Err(out_of_bounds(index)),
            }
            Ok(())
        };
        // One index at every position: an integer, or an array of one value
        // broadcast (tensor-gpu's stand-in for a device array is a
        // broadcast zero). Resolved once; a position of zero leaves every
        // offset as it is.
        let uniform = match &self.source {
            Source::Int(index) => Some(*index),
            Source::Array(array) => single_value(array),
            _ => None,
        };
        if let Some(index) = uniform {
            return match bounds.resolve(index, len) {
                Resolution::At(position) if position as isize * stride == 0 => Ok(()),
                _ => offsets.iter_mut().try_for_each(|o| add(o, index)),
            };
        }
        match &self.source {
            Source::Positions(positions) => {
                // A mask's positions have the mask's count as their only
                // axis; broadcasting repeats them in the outer positions.
                let view = ndarray::aview1(positions).into_dyn();
                let view = view.broadcast(IxDyn(shape)).expect("shapes were broadcast-checked");
                for (offset, &p) in offsets.iter_mut().zip(view.iter()) {
                    if *offset != SKIP {
                        *offset += p as isize * stride;
                    }
                }
                Ok(())
            }
            // Both returned above.
            Source::Int(_) | Source::Extent => Ok(()),
            // The common case, an array of the broadcast shape in mode
            // error: the passes check it, then fold it in.
            Source::Array(array) if bounds == Bounds::Error && array.shape() == shape => {
                if let Some(bad) = passes.first_out_of_bounds(array, len) {
                    return Err(out_of_bounds(bad));
                }
                passes.add_positions(offsets, array, len, stride);
                Ok(())
            }
            // A broadcast array (or another mode): row by row along the
            // last axis, in C order, so the first bad index is the one the
            // whole broadcast meets first. A row that repeats one index
            // (`rows[:, None]` beside columns) is resolved once.
            Source::Array(array) => with_int_array!(array, a => {
                let view = a.broadcast(IxDyn(shape)).expect("shapes were broadcast-checked");
                let Some(&row_len) = shape.last() else {
                    return offsets.iter_mut().zip(view.iter()).try_for_each(|(o, &i)| add(o, IndexInt::to_i128(i)));
                };
                for (row, indices) in offsets.chunks_exact_mut(row_len.max(1)).zip(view.rows()) {
                    match indices.strides() {
                        [0] => {
                            let index = IndexInt::to_i128(indices[0]);
                            match bounds.resolve(index, len) {
                                Resolution::At(position) => {
                                    let step = position as isize * stride;
                                    row.iter_mut().filter(|o| **o != SKIP).for_each(|o| *o += step);
                                }
                                Resolution::Skipped => row.fill(SKIP),
                                Resolution::OutOfBounds => return Err(out_of_bounds(index)),
                            }
                        }
                        _ => row.iter_mut().zip(indices).try_for_each(|(o, &i)| add(o, IndexInt::to_i128(i)))?,
                    }
                }
                Ok(())
            }),
        }
    }
}

/// The value of an index array that holds one element at every position
/// (zero strides, or axes of length one), if it is such an array.
fn single_value(array: &IntArray<'_>) -> Option<i128> {
    with_int_array!(array, a => {
        let one_element = a.shape().iter().zip(a.strides()).all(|(&n, &stride)| n <= 1 || stride == 0);
        if one_element { a.first().map(|&i| i.to_i128()) } else { None }
    })
}

/// Broadcasts the components' shapes together (NumPy rules).
fn broadcast_shapes(components: &[Component<'_>], element_shapes: &[Vec<usize>]) -> Result<Vec<usize>, IndexError> {
    super::broadcast_shapes(components.iter().map(|c| &c.shape[..])).ok_or_else(|| IndexError::IndexBroadcast {
        shapes: IndexShapes(element_shapes.iter().map(|s| Dims(s.clone())).collect()),
    })
}

/// The shape of the table of the advanced components (their broadcast),
/// and its number of entries, with nothing built: NumPy's broadcast error,
/// then [`IndexError::TooLarge`].
pub(crate) fn table_shape(components: &[Component<'_>], element_shapes: &[Vec<usize>]) -> Result<(Vec<usize>, usize), IndexError> {
    let shape = broadcast_shapes(components, element_shapes)?;
    let count = checked_size(&shape)?;
    Ok((shape, count))
}

/// Builds the offset table of the advanced components on a target with the
/// given shape and strides, read in place where it `leads` its region (is
/// walked once) and can be. `element_shapes` are the shapes of the index
/// elements as written, for the broadcast error message.
pub(crate) fn build_table<'i>(
    components: &[Component<'i>],
    element_shapes: &[Vec<usize>],
    (target_shape, strides): (&[usize], &[isize]),
    (bounds, leads): (Bounds, bool),
    passes: &dyn IndexPasses,
) -> Result<Table<'i>, IndexError> {
    let (shape, count) = table_shape(components, element_shapes)?;
    // One contiguous array in mode error: read in place, nothing copied.
    if let [
        Component {
            axis,
            source: Source::Array(index),
            ..
        },
    ] = components
        && let Some(axis_index) = in_place(index, *axis, target_shape, strides, bounds, passes)?
    {
        return Ok(Table {
            shape,
            entries: Entries::Index(axis_index),
        });
    }
    // Several arrays read in place: an empty table checks nothing, as the
    // table built below would not, and one that memory could not hold is
    // refused as when it is built (walked in place, that many positions
    // would take hours).
    if leads
        && count > 0
        && bounds == Bounds::Error
        && memory::holds::<isize>(count)
        && let Some(broadcast) = broadcast_in_place(components, &shape, (target_shape, strides), passes)?
    {
        return Ok(Table {
            shape,
            entries: Entries::Broadcast(broadcast),
        });
    }
    // A table memory cannot hold is an error, not an abort.
    let mut offsets = passes.table(count).ok_or_else(|| IndexError::too_large(&shape))?;
    offsets.resize(count, 0isize);
    for component in components {
        component.accumulate(&shape, (target_shape, strides), bounds, passes, &mut offsets)?;
    }
    Ok(Table {
        shape,
        entries: Entries::Offsets(offsets),
    })
}

/// Integers and C-contiguous index arrays (no mask's positions) broadcast
/// to a table of shape `table`, each checked in bounds in the order of the
/// components (in mode `error`, as a table's build checks them) and kept to
/// be read in place; `None` when another source takes part.
///
/// The first index out of bounds of an array in its own C order is the
/// first the whole broadcast meets: broadcasting repeats elements but keeps
/// the order in which each first appears.
fn broadcast_in_place<'i>(
    components: &[Component<'i>],
    table: &[usize],
    (shape, strides): (&[usize], &[isize]),
    passes: &dyn IndexPasses,
) -> Result<Option<BroadcastIndex<'i>>, IndexError> {
    let readable = |component: &Component<'_>| match &component.source {
        Source::Int(_) | Source::Extent => true,
        Source::Array(array) => array.is_contiguous(),
        Source::Positions(_) => false,
    };
    if !components.iter().all(readable) {
        return Ok(None);
    }
    let mut broadcast = BroadcastIndex { base: 0, arrays: vec![] };
    for component in components {
        // (An extent may stand past the last axis: it indexes none.)
        let index = match &component.source {
            Source::Extent | Source::Positions(_) => continue,
            Source::Int(index) => *index,
            Source::Array(array) => match single_value(array) {
                Some(index) => index,
                None => {
                    let index = in_place(array, component.axis, shape, strides, Bounds::Error, passes)?;
                    let index = index.expect("a C-contiguous array of more than one value, in mode error, is read in place");
                    broadcast.arrays.push(BroadcastArray::new(index, table));
                    continue;
                }
            },
        };
        let (len, stride) = (shape[component.axis], strides[component.axis]);
        match Bounds::Error.resolve(index, len) {
            Resolution::At(position) => broadcast.base += position as isize * stride,
            _ => {
                return Err(IndexError::OutOfBounds {
                    index,
                    axis: component.axis,
                    len,
                });
            }
        }
    }
    Ok(Some(broadcast))
}

/// `x[idx]`: one integer array on the first axis, read in place when it
/// is C-contiguous and the mode is `error`; `None` otherwise (the table
/// takes it).
pub(crate) fn lone_index<'i>(
    array: &IntArray<'i>,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Option<IndexedPlan<'i>>, IndexError> {
    let Some(index) = in_place(array, 0, shape, strides, bounds, passes)? else {
        return Ok(None);
    };
    let rest = (&shape[1..], &strides[1..]);
    in_place_plan(array.shape(), rest, Entries::Index(index), false).map(Some)
}

/// `x[i, j]`: two integer arrays of one shape and one integer type on the
/// first two axes, read in place (executors compute each offset from both,
/// so no table is built) when both are C-contiguous and the mode is
/// `error`; `None` otherwise.
pub(crate) fn index_pair<'i>(
    (first, second): (&IntArray<'i>, &IntArray<'i>),
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Option<IndexedPlan<'i>>, IndexError> {
    if !first.same_type(second) || first.shape() != second.shape() || !second.is_contiguous() {
        return Ok(None);
    }
    // Checked in NumPy's order: the first array's bounds, then the second's.
    let Some(first_index) = in_place(first, 0, shape, strides, bounds, passes)? else {
        return Ok(None);
    };
    let Some(second_index) = in_place(second, 1, shape, strides, bounds, passes)? else {
        return Ok(None);
    };
    let rest = (&shape[2..], &strides[2..]);
    in_place_plan(first.shape(), rest, Entries::Pair(first_index, second_index), false).map(Some)
}

/// `x[mask]` with one mask over the leading axes (of their shape, checked
/// by the resolver): read in place, its true positions counted.
pub(crate) fn leading_mask<'i>(
    mask: &ArrayViewD<'i, bool>,
    shape: &[usize],
    strides: &[isize],
) -> Result<Option<IndexedPlan<'i>>, IndexError> {
    let axes = mask.ndim();
    if axes == 0 {
        return Ok(None);
    }
    let count = count_true(mask);
    let entries = Entries::Mask(MaskIndex {
        mask: mask.clone(),
        strides: strides[..axes].to_vec(),
    });
    let rest = (&shape[axes..], &strides[axes..]);
    in_place_plan(&[count], rest, entries, axes == shape.len()).map(Some)
}

/// One index array on `axis`, checked in bounds, to be read in place; `None`
/// when it has no axes (an integer, placed as one before), is not
/// C-contiguous, or the mode is not `error`.
fn in_place<'i>(
    array: &IntArray<'i>,
    axis: usize,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Option<AxisIndex<'i>>, IndexError> {
    if array.shape().is_empty() || bounds != Bounds::Error || !array.is_contiguous() {
        return Ok(None);
    }
    let len = shape[axis];
    // Indices that all lie in `[0, len)` are checked in one pass; any other
    // array, in a second pass that finds the first out of bounds.
    let wraps = !passes.all_in_range(array, len);
    if wraps && let Some(bad) = passes.first_out_of_bounds(array, len) {
        return Err(IndexError::OutOfBounds { index: bad, axis, len });
    }
    Ok(Some(AxisIndex {
        index: array.clone(),
        len,
        stride: strides[axis],
        wraps,
    }))
}

/// The plan of a table of shape `table` read in place, followed by the
/// target's `rest` axes (lengths and strides) whole.
fn in_place_plan<'i>(
    table: &[usize],
    rest: (&[usize], &[isize]),
    entries: Entries<'i>,
    whole_mask: bool,
) -> Result<IndexedPlan<'i>, IndexError> {
    let (lens, strides) = rest;
    let shape: Vec<usize> = table.iter().chain(lens).copied().collect();
    // An empty region too: its other axes must still be addressable.
    checked_size(&shape)?;
    let dims = std::iter::once(Dim::Table)
        .chain(lens.iter().zip(strides).map(|(&len, &stride)| Dim::Strided { len, stride }))
        .collect();
    Ok(IndexedPlan {
        base: 0,
        dims,
        table: Table {
            shape: table.to_vec(),
            entries,
        },
        shape,
        whole_mask,
    })
}

/// The number of elements of `shape`, or an error when an array of that
/// shape cannot be addressed (see [`memory::elements`]: an empty shape's
/// other lengths count too).
pub(crate) fn checked_size(shape: &[usize]) -> Result<usize, IndexError> {
    memory::elements(shape).ok_or_else(|| IndexError::too_large(shape))
}

/// The number of true elements of a mask (a byte sum, which vectorizes,
/// when the mask is contiguous).
fn count_true(mask: &ArrayViewD<'_, bool>) -> usize {
    match mask.as_slice_memory_order() {
        Some(elements) => elements.iter().map(|&m| usize::from(m)).sum(),
        None => mask.iter().filter(|&&m| m).count(),
    }
}

/// The positions of a mask's true elements, one list per mask axis (NumPy's
/// `nonzero`), in C order; an error when memory cannot hold them (a mask
/// broadcast by zero strides may select far more than memory holds).
pub(crate) fn mask_positions(mask: &ArrayViewD<'_, bool>) -> Result<Vec<Vec<usize>>, IndexError> {
    let count = mask.iter().filter(|&&b| b).count();
    let mut positions: Vec<Vec<usize>> = (0..mask.ndim())
        .map(|_| memory::vec(count))
        .collect::<Option<_>>()
        .ok_or_else(|| IndexError::too_large(&[count]))?;
    // A C-order multi-index counter: no allocation per element.
    let mut index = vec![0usize; mask.ndim()];
    for &selected in mask.iter() {
        if selected {
            for (list, &i) in positions.iter_mut().zip(&index) {
                list.push(i);
            }
        }
        for (i, &len) in index.iter_mut().zip(mask.shape()).rev() {
            *i += 1;
            if *i < len {
                break;
            }
            *i = 0;
        }
    }
    Ok(positions)
}

/// The coordinates of a one-dimensional `nd` index.
pub(crate) fn nd_point(array: &IntArray<'_>) -> Vec<i128> {
    with_int_array!(array, a => a.iter().map(|&i| IndexInt::to_i128(i)).collect())
}

/// The columns `idx[..., j]` of an `nd` index of shape `batch + [depth]`.
pub(crate) fn nd_columns<'a>(index: &IntArray<'a>) -> Vec<IntArray<'a>> {
    with_int_array!(index, a => {
        let last = Axis(a.ndim() - 1);
        (0..a.len_of(last))
            .map(|j| IndexInt::wrap_array(a.clone().index_axis_move(last, j)))
            .collect()
    })
}
