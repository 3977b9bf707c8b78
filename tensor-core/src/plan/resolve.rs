//! The resolver: index list + target layout → [`Plan`], every rule checked.

use ndarray::ArrayViewD;

use crate::error::IndexError;
use crate::index::{IndexElem, IndexInt, IntArray, with_int_array};
use crate::mode::{Bounds, Resolution};
use crate::plan::advanced::{self, Component, Source};
use crate::plan::slice::{resolve_py, resolve_range};
use crate::plan::{Dim, IndexedPlan, Plan, ViewAxis, ViewPlan};

/// An index element placed on the target's axes.
enum Item<'a> {
    /// An integer on `axis`.
    Int { axis: usize, index: i128 },
    /// A resolved slice on `axis`.
    Slice { axis: usize, slice: ViewAxis },
    /// A new axis.
    NewAxis,
    /// Where `...` stood: NumPy counts it as a basic index even when it
    /// covers no axis, so it separates advanced indices.
    EllipsisMark,
    /// An integer array on `axis`.
    Array { axis: usize, array: IntArray<'a> },
    /// A mask over the axes from `axis` on.
    Mask { axis: usize, mask: ArrayViewD<'a, bool> },
    /// An `nd` index over the axes from `axis` on.
    Nd { axis: usize, array: IntArray<'a> },
}

impl Item<'_> {
    fn is_array_like(&self) -> bool {
        matches!(self, Item::Array { .. } | Item::Mask { .. } | Item::Nd { .. })
    }
}

/// Resolves `index` on a target of the given shape and strides (in
/// elements), with out-of-bounds integers handled as `bounds` says.
///
/// Follows NumPy's rules: `...` expands to the axes left, missing trailing
/// axes are whole, integers remove their axis, and advanced indices (integer
/// arrays, masks, `nd`, and integers once any of those is present) broadcast
/// together; their dims replace them in place when they are adjacent and go
/// first otherwise.
pub fn resolve<'i>(index: &'i [IndexElem<'_>], shape: &[usize], strides: &[isize], bounds: Bounds) -> Result<Plan<'i>, IndexError> {
    if let Some(plan) = advanced::lone_array(index, shape, strides, bounds).or_else(|| advanced::array_pair(index, shape, strides, bounds))
    {
        return Ok(Plan::Indexed(plan));
    }
    let items = place(index, shape, bounds)?;
    let skipped_int = items.iter().any(|item| match *item {
        Item::Int { axis, index } => bounds.resolve(index, shape[axis]) == Resolution::Skipped,
        _ => false,
    });
    let advanced = skipped_int || items.iter().any(Item::is_array_like);
    let consumed = consumed_axes(&items);
    let trailing = consumed..shape.len();
    if advanced {
        let whole_mask = matches!(index, [IndexElem::Mask(m)] if m.ndim() == shape.len());
        indexed_plan(&items, trailing, shape, strides, bounds, whole_mask).map(Plan::Indexed)
    } else {
        view_plan(&items, trailing, shape, bounds).map(Plan::View)
    }
}

/// Checks the index and places each element on target axes, reporting
/// the first error in NumPy's order: the index's structure, then mask
/// shapes, then integers and slices from left to right. (Index arrays are
/// broadcast, then bounds-checked, later.)
fn place<'a>(index: &'a [IndexElem<'_>], shape: &[usize], bounds: Bounds) -> Result<Vec<Item<'a>>, IndexError> {
    let ellipses = index.iter().filter(|e| matches!(e, IndexElem::Ellipsis)).count();
    if ellipses > 1 {
        return Err(IndexError::MultipleEllipsis);
    }
    let widths = index.iter().map(axes_of).collect::<Result<Vec<_>, _>>()?;
    let indexed: usize = widths.iter().sum();
    if indexed > shape.len() {
        return Err(IndexError::TooManyIndices {
            ndim: shape.len(),
            indexed,
        });
    }
    let ellipsis_width = shape.len() - indexed;
    // The first target axis of each element.
    let starts: Vec<usize> = index
        .iter()
        .zip(&widths)
        .scan(0, |axis, (elem, width)| {
            let start = *axis;
            *axis += if let IndexElem::Ellipsis = elem { ellipsis_width } else { *width };
            Some(start)
        })
        .collect();

    for (elem, &axis) in index.iter().zip(&starts) {
        if let IndexElem::Mask(mask) = elem {
            check_mask_shape(mask.shape(), &shape[axis..axis + mask.ndim()], axis)?;
        }
    }

    let mut items = Vec::with_capacity(index.len() + shape.len());
    for (elem, &axis) in index.iter().zip(&starts) {
        items.push(match elem {
            IndexElem::Int(i) => int_item(*i, axis, shape[axis], bounds)?,
            IndexElem::Array(array) if array.shape().is_empty() => int_item(zero_dim_value(array), axis, shape[axis], bounds)?,
            IndexElem::Slice(s) => Item::Slice {
                axis,
                slice: resolve_py(*s, shape[axis])?,
            },
            IndexElem::Range(r) => Item::Slice {
                axis,
                slice: resolve_range(*r, shape[axis], axis)?,
            },
            IndexElem::Ellipsis => {
                items.push(Item::EllipsisMark);
                let covered = axis..axis + ellipsis_width;
                items.extend(covered.map(|a| Item::Slice {
                    axis: a,
                    slice: ViewAxis::whole(shape[a]),
                }));
                continue;
            }
            IndexElem::NewAxis => Item::NewAxis,
            IndexElem::Array(array) => Item::Array { axis, array: array.view() },
            IndexElem::Mask(mask) => Item::Mask { axis, mask: mask.view() },
            IndexElem::Nd(array) if matches!(array.shape(), [depth] if *depth > 0) => {
                // One point: its coordinates are zero-dimensional, so they
                // index like integers (as `x[np.array(i), np.array(j)]`).
                // (With no coordinates it stays an advanced index of shape
                // `()`, like every `nd` of depth zero.)
                for (k, coordinate) in nd_point(array).into_iter().enumerate() {
                    items.push(int_item(coordinate, axis + k, shape[axis + k], bounds)?);
                }
                continue;
            }
            IndexElem::Nd(array) => Item::Nd { axis, array: array.view() },
        });
    }
    Ok(items)
}

/// An integer on `axis`, checked once, whatever the advanced indices
/// broadcast to (as NumPy does).
fn int_item<'a>(index: i128, axis: usize, len: usize, bounds: Bounds) -> Result<Item<'a>, IndexError> {
    match bounds.resolve(index, len) {
        Resolution::OutOfBounds => Err(IndexError::OutOfBounds { index, axis, len }),
        _ => Ok(Item::Int { axis, index }),
    }
}

/// How many target axes an element consumes (`...` counts none here).
fn axes_of(elem: &IndexElem<'_>) -> Result<usize, IndexError> {
    Ok(match elem {
        IndexElem::Int(_) | IndexElem::Slice(_) | IndexElem::Range(_) | IndexElem::Array(_) => 1,
        IndexElem::Ellipsis | IndexElem::NewAxis => 0,
        IndexElem::Mask(mask) => mask.ndim(),
        IndexElem::Nd(array) => *array.shape().last().ok_or(IndexError::NdRank)?,
    })
}

/// The coordinates of a one-dimensional `nd` index.
fn nd_point(array: &IntArray<'_>) -> Vec<i128> {
    with_int_array!(array, a => a.iter().map(|&i| IndexInt::to_i128(i)).collect())
}

/// A zero-dimensional integer array indexes like the integer it holds (as in NumPy).
fn zero_dim_value(array: &IntArray<'_>) -> i128 {
    with_int_array!(array, a => a.iter().next().map_or(0, |&i| IndexInt::to_i128(i)))
}

/// One past the last target axis the items consume.
fn consumed_axes(items: &[Item<'_>]) -> usize {
    items
        .iter()
        .map(|item| match item {
            Item::Int { axis, .. } | Item::Slice { axis, .. } | Item::Array { axis, .. } => axis + 1,
            Item::Mask { axis, mask } => axis + mask.ndim(),
            Item::Nd { axis, array } => axis + array.shape().last().copied().unwrap_or(0),
            Item::NewAxis | Item::EllipsisMark => 0,
        })
        .max()
        .unwrap_or(0)
}

fn view_plan(items: &[Item<'_>], trailing: std::ops::Range<usize>, shape: &[usize], bounds: Bounds) -> Result<ViewPlan, IndexError> {
    let mut axes = Vec::with_capacity(items.len() + trailing.len());
    for item in items {
        axes.push(match *item {
            Item::Int { axis, index } => {
                let len = shape[axis];
                match bounds.resolve(index, len) {
                    Resolution::At(position) => ViewAxis::Select(position),
                    Resolution::OutOfBounds => return Err(IndexError::OutOfBounds { index, axis, len }),
                    Resolution::Skipped => unreachable!("skipped integers make the plan advanced"),
                }
            }
            Item::Slice { slice, .. } => slice,
            Item::NewAxis => ViewAxis::NewAxis,
            Item::EllipsisMark => continue,
            Item::Array { .. } | Item::Mask { .. } | Item::Nd { .. } => unreachable!("array-like items make the plan advanced"),
        });
    }
    axes.extend(trailing.map(|a| ViewAxis::whole(shape[a])));
    let shape = axes
        .iter()
        .filter_map(|axis| match *axis {
            ViewAxis::Select(_) => None,
            ViewAxis::Slice { len, .. } => Some(len),
            ViewAxis::NewAxis => Some(1),
        })
        .collect();
    Ok(ViewPlan { axes, shape })
}

fn indexed_plan<'i>(
    items: &[Item<'i>],
    trailing: std::ops::Range<usize>,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    whole_mask: bool,
) -> Result<IndexedPlan<'i>, IndexError> {
    let (components, element_shapes) = components(items)?;
    let table = advanced::build_table(&components, &element_shapes, shape, strides, bounds)?;

    let is_advanced = |item: &Item<'_>| item.is_array_like() || matches!(item, Item::Int { .. });
    let first = items.iter().position(is_advanced).expect("an advanced plan has advanced items");
    let last = items.iter().rposition(is_advanced).expect("an advanced plan has advanced items");
    let adjacent = items[first..=last].iter().all(is_advanced);

    let mut base = 0isize;
    let mut dims = Vec::with_capacity(items.len() + trailing.len());
    if !adjacent {
        dims.push(Dim::Table);
    }
    for (i, item) in items.iter().enumerate() {
        match *item {
            Item::Slice {
                axis,
                slice: ViewAxis::Slice { first, len, step },
            } => {
                base += first as isize * strides[axis];
                // With one position the stride is never used (and a huge step
                // times the stride could overflow).
                let stride = if len > 1 { step * strides[axis] } else { 0 };
                dims.push(Dim::Strided { len, stride });
            }
            Item::NewAxis => dims.push(Dim::Strided { len: 1, stride: 0 }),
            _ if adjacent && i == first => dims.push(Dim::Table),
            _ => {}
        }
    }
    dims.extend(trailing.map(|a| Dim::Strided {
        len: shape[a],
        stride: strides[a],
    }));

    let mut region = Vec::with_capacity(dims.len() + table.shape.len());
    for dim in &dims {
        match dim {
            Dim::Strided { len, .. } => region.push(*len),
            Dim::Table => region.extend_from_slice(&table.shape),
        }
    }
    advanced::checked_size(&region)?;
    Ok(IndexedPlan {
        base,
        dims,
        table,
        shape: region,
        whole_mask,
    })
}

/// The advanced items as coordinate components, plus the shapes of the
/// index elements as written (for the broadcast error message).
fn components<'a>(items: &[Item<'a>]) -> Result<(Vec<Component<'a>>, Vec<Vec<usize>>), IndexError> {
    let mut components = Vec::new();
    let mut element_shapes = Vec::new();
    for item in items {
        match item {
            Item::Int { axis, index } => components.push(Component {
                axis: *axis,
                shape: vec![],
                source: Source::Int(*index),
            }),
            Item::Array { axis, array } => {
                element_shapes.push(array.shape().to_vec());
                components.push(Component {
                    axis: *axis,
                    shape: array.shape().to_vec(),
                    source: Source::Array(array.clone()),
                });
            }
            Item::Mask { axis, mask } if mask.ndim() == 0 => {
                let count = usize::from(mask.iter().all(|&b| b));
                element_shapes.push(vec![count]);
                components.push(Component {
                    axis: *axis,
                    shape: vec![count],
                    source: Source::Extent,
                });
            }
            Item::Mask { axis, mask } => {
                let positions = advanced::mask_positions(mask);
                let count = positions[0].len();
                element_shapes.push(vec![count]);
                for (k, list) in positions.into_iter().enumerate() {
                    components.push(Component {
                        axis: axis + k,
                        shape: vec![count],
                        source: Source::Positions(list),
                    });
                }
            }
            Item::Nd { axis, array } => {
                let batch = array.shape()[..array.shape().len() - 1].to_vec();
                element_shapes.push(batch.clone());
                // The batch shape counts even when there are no coordinates
                // (depth zero), as in TensorFlow's `gather_nd`.
                components.push(Component {
                    axis: *axis,
                    shape: batch.clone(),
                    source: Source::Extent,
                });
                for (k, column) in advanced::nd_columns(array).into_iter().enumerate() {
                    components.push(Component {
                        axis: axis + k,
                        shape: batch.clone(),
                        source: Source::Array(column),
                    });
                }
            }
            Item::Slice { .. } | Item::NewAxis | Item::EllipsisMark => {}
        }
    }
    Ok((components, element_shapes))
}

fn check_mask_shape(mask: &[usize], axes: &[usize], first_axis: usize) -> Result<(), IndexError> {
    match mask.iter().zip(axes).position(|(m, a)| m != a) {
        None => Ok(()),
        Some(k) => Err(IndexError::MaskShape {
            axis: first_axis + k,
            len: axes[k],
            mask_len: mask[k],
        }),
    }
}
