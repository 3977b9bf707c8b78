//! The resolver: index list + target layout → [`Plan`], every rule checked,
//! errors in NumPy's order: the index's structure, then mask shapes, then
//! integers and slices from left to right, then the broadcast of the
//! advanced indices, then their bounds.

use ndarray::ArrayViewD;

use crate::error::IndexError;
use crate::index::{IndexElem, IntArray};
use crate::mode::{Bounds, Resolution};
use crate::plan::advanced::{self, Component, Source};
use crate::plan::along;
use crate::plan::basic::each_view_axis;
use crate::plan::passes::{IndexPasses, Serial};
use crate::plan::place::{Placement, as_int};
use crate::plan::slice::{resolve_py, resolve_range};
use crate::plan::{Dim, IndexedPlan, Plan, ViewAxis, ViewPlan};

/// Resolves `index` on a target of the given shape and strides (in
/// elements), with out-of-bounds integers handled as `bounds` says, its
/// passes over index arrays run serially (see [`resolve_with`]).
///
/// Follows NumPy's rules: `...` expands to the axes left, missing trailing
/// axes are whole, integers remove their axis, and advanced indices (integer
/// arrays, masks, `nd`, and integers once any of those is present) broadcast
/// together; their dims replace them in place when they are adjacent and go
/// first otherwise.
pub fn resolve<'i>(index: &'i [IndexElem<'_>], shape: &[usize], strides: &[isize], bounds: Bounds) -> Result<Plan<'i>, IndexError> {
    resolve_with(index, shape, strides, bounds, &Serial)
}

/// [`resolve`], with `passes` running the passes over whole index arrays.
pub fn resolve_with<'i>(
    index: &'i [IndexElem<'_>],
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    let mut axes = Vec::with_capacity(index.len() + shape.len());
    match each_view_axis(index, shape, bounds, |axis| axes.push(axis)) {
        Some(consumed) => Ok(Plan::View(view_plan(axes, &shape[consumed?..]))),
        None => resolve_advanced(index, shape, strides, bounds, passes),
    }
}

/// The view plan of `axes`, the target's axes of lengths `trailing` after
/// them taken whole.
fn view_plan(mut axes: Vec<ViewAxis>, trailing: &[usize]) -> ViewPlan {
    axes.extend(trailing.iter().map(|&len| ViewAxis::whole(len)));
    let shape = axes
        .iter()
        .filter_map(|axis| match *axis {
            ViewAxis::Select(_) => None,
            ViewAxis::Slice { len, .. } => Some(len),
            ViewAxis::NewAxis => Some(1),
        })
        .collect();
    ViewPlan { axes, shape }
}

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

    /// One past the last target axis the item consumes.
    fn end_axis(&self) -> usize {
        match self {
            Item::Int { axis, .. } | Item::Slice { axis, .. } | Item::Array { axis, .. } => axis + 1,
            Item::Mask { axis, mask } => axis + mask.ndim(),
            Item::Nd { axis, array } => axis + array.shape().last().copied().unwrap_or(0),
            Item::NewAxis | Item::EllipsisMark => 0,
        }
    }
}

/// An index with arrays, masks or `nd`, or an integer skipped by the mode:
/// advanced, but for `nd` of one point, whose coordinates are integers.
fn resolve_advanced<'i>(
    index: &'i [IndexElem<'_>],
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    passes: &dyn IndexPasses,
) -> Result<Plan<'i>, IndexError> {
    // Its structure was checked with every index's (`Placement::new`).
    if let [IndexElem::Along { index, axis }] = index {
        return along::resolve(index, *axis, shape, strides, bounds, passes);
    }
    let (items, trailing) = match placed(index, shape, bounds)? {
        Placed::View(view) => return Ok(Plan::View(view)),
        Placed::Advanced { items, trailing } => (items, trailing),
    };
    let in_place = match items.as_slice() {
        [Item::Array { axis: 0, array }] => advanced::lone_index(array, shape, strides, bounds, passes)?,
        [Item::Array { axis: 0, array: first }, Item::Array { axis: 1, array: second }] => {
            advanced::index_pair((first, second), shape, strides, bounds, passes)?
        }
        [Item::Mask { axis: 0, mask }] => advanced::leading_mask(mask, shape, strides)?,
        _ => None,
    };
    let plan = match in_place {
        Some(plan) => plan,
        None => {
            let whole_mask = matches!(index, [IndexElem::Mask(m)] if m.ndim() == shape.len());
            indexed_plan(&items, trailing, shape, strides, bounds, whole_mask, passes)?
        }
    };
    Ok(Plan::Indexed(plan))
}

/// The shape of what `index` selects on a target of the given shape and
/// strides, every rule of [`resolve_with`] checked but the bounds of index
/// arrays, and nothing built that the selection's size decides (no table
/// of offsets): the shape of a read with no position to read, such as a
/// batched read of no batch.
pub(crate) fn resolve_shape(index: &[IndexElem<'_>], shape: &[usize], strides: &[isize], bounds: Bounds) -> Result<Vec<usize>, IndexError> {
    let mut axes = Vec::with_capacity(index.len() + shape.len());
    if let Some(consumed) = each_view_axis(index, shape, bounds, |axis| axes.push(axis)) {
        return Ok(view_plan(axes, &shape[consumed?..]).shape);
    }
    if let [IndexElem::Along { index, axis }] = index {
        return along::region_of(index, *axis, shape).map(|(region, _)| region);
    }
    let (items, trailing) = match placed(index, shape, bounds)? {
        Placed::View(view) => return Ok(view.shape),
        Placed::Advanced { items, trailing } => (items, trailing),
    };
    // The forms read in place select what the general plan selects.
    let (components, element_shapes) = components(&items)?;
    let (table, _) = advanced::table_shape(&components, &element_shapes)?;
    let (_, dims) = region_dims(&items, trailing, shape, strides);
    let region = region_shape(&dims, &table);
    advanced::checked_size(&region)?;
    Ok(region)
}

/// An index placed on the target's axes: a view, or advanced items with
/// the target axes after them (`trailing`) taken whole.
enum Placed<'a> {
    View(ViewPlan),
    Advanced {
        items: Vec<Item<'a>>,
        trailing: std::ops::Range<usize>,
    },
}

/// `index` placed on a target of `shape`, its integers and slices
/// resolved in `bounds` (see [`place`]).
fn placed<'a>(index: &'a [IndexElem<'_>], shape: &[usize], bounds: Bounds) -> Result<Placed<'a>, IndexError> {
    let items = place(index, shape, bounds)?;
    let consumed = items.iter().map(Item::end_axis).max().unwrap_or(0);
    let trailing = consumed..shape.len();
    let skipped = |item: &Item<'_>| matches!(*item, Item::Int { axis, index } if bounds.resolve(index, shape[axis]) == Resolution::Skipped);
    if !items.iter().any(|item| item.is_array_like() || skipped(item)) {
        return Ok(Placed::View(view_of_items(&items, shape, trailing, bounds)));
    }
    Ok(Placed::Advanced { items, trailing })
}

/// The view of placed items with no array among them (their integers
/// resolved, none skipped), the target's axes `trailing` taken whole.
fn view_of_items(items: &[Item<'_>], shape: &[usize], trailing: std::ops::Range<usize>, bounds: Bounds) -> ViewPlan {
    let mut axes = Vec::with_capacity(items.len() + trailing.len());
    for item in items {
        axes.push(match *item {
            Item::Int { axis, index } => match bounds.resolve(index, shape[axis]) {
                Resolution::At(position) => ViewAxis::Select(position),
                _ => unreachable!("integers out of bounds are errors, and skipped ones make the index advanced"),
            },
            Item::Slice { slice, .. } => slice,
            Item::NewAxis => ViewAxis::NewAxis,
            Item::EllipsisMark => continue,
            Item::Array { .. } | Item::Mask { .. } | Item::Nd { .. } => unreachable!("the index has no arrays"),
        });
    }
    view_plan(axes, &shape[trailing])
}

/// Checks the index and places each element on target axes, reporting
/// the first error in NumPy's order: the index's structure, then mask
/// shapes, then integers and slices from left to right. (Index arrays are
/// broadcast, then bounds-checked, later.)
fn place<'a>(index: &'a [IndexElem<'_>], shape: &[usize], bounds: Bounds) -> Result<Vec<Item<'a>>, IndexError> {
    let placement = Placement::new(index, shape.len())?;
    for (elem, axis) in placement.first_axes(index) {
        if let IndexElem::Mask(mask) = elem {
            check_mask_shape(mask.shape(), &shape[axis..axis + mask.ndim()], axis)?;
        }
    }
    let mut items = Vec::with_capacity(index.len() + shape.len());
    for (elem, axis) in placement.first_axes(index) {
        if let Some(int) = as_int(elem) {
            items.push(int_item(int, axis, shape[axis], bounds)?);
            continue;
        }
        items.push(match elem {
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
                let covered = axis..axis + placement.ellipsis_width();
                items.extend(covered.map(|a| Item::Slice {
                    axis: a,
                    slice: ViewAxis::whole(shape[a]),
                }));
                continue;
            }
            IndexElem::NewAxis => Item::NewAxis,
            IndexElem::Mask(mask) => Item::Mask { axis, mask: mask.view() },
            IndexElem::Nd(array) if matches!(array.shape(), [depth] if *depth > 0) => {
                // One point: its coordinates are zero-dimensional, so they
                // index like integers (as `x[np.array(i), np.array(j)]`).
                // (With no coordinates it stays an advanced index of shape
                // `()`, like every `nd` of depth zero.)
                for (k, coordinate) in advanced::nd_point(array).into_iter().enumerate() {
                    items.push(int_item(coordinate, axis + k, shape[axis + k], bounds)?);
                }
                continue;
            }
            IndexElem::Nd(array) => Item::Nd { axis, array: array.view() },
            IndexElem::Array(array) => Item::Array { axis, array: array.view() },
            IndexElem::Device { array, .. } => return Err(IndexError::on_device("index array", array.shape())),
            IndexElem::Int(_) => unreachable!("integers were placed above"),
            IndexElem::Along { .. } => unreachable!("along(...) is resolved alone"),
            IndexElem::CrossRank { .. } => unreachable!("Placement::new refuses an ix_ argument of another rank"),
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

fn indexed_plan<'i>(
    items: &[Item<'i>],
    trailing: std::ops::Range<usize>,
    shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
    whole_mask: bool,
    passes: &dyn IndexPasses,
) -> Result<IndexedPlan<'i>, IndexError> {
    let (components, element_shapes) = components(items)?;
    let (base, dims) = region_dims(items, trailing, shape, strides);
    let leads = matches!(dims.first(), Some(Dim::Table));
    let table = advanced::build_table(&components, &element_shapes, (shape, strides), (bounds, leads), passes)?;
    let region = region_shape(&dims, &table.shape);
    advanced::checked_size(&region)?;
    Ok(IndexedPlan {
        base,
        dims,
        table,
        shape: region,
        whole_mask,
    })
}

/// The offset of the region's first element (the table's aside) and the
/// dims of the region of placed `items`, the target axes `trailing` taken
/// whole: the table's in place of adjacent advanced items, first otherwise.
fn region_dims(items: &[Item<'_>], trailing: std::ops::Range<usize>, shape: &[usize], strides: &[isize]) -> (isize, Vec<Dim>) {
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
    (base, dims)
}

/// The shape of the region of `dims` around a table of shape `table`.
fn region_shape(dims: &[Dim], table: &[usize]) -> Vec<usize> {
    let mut region = Vec::with_capacity(dims.len() + table.len());
    for dim in dims {
        match dim {
            Dim::Strided { len, .. } => region.push(*len),
            Dim::Table => region.extend_from_slice(table),
        }
    }
    region
}

/// The advanced items as coordinate components, plus the shapes of the
/// index elements as written (for the broadcast error message); an error
/// when memory cannot hold a mask's positions.
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
                let positions = advanced::mask_positions(mask)?;
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

pub(crate) fn check_mask_shape(mask: &[usize], axes: &[usize], first_axis: usize) -> Result<(), IndexError> {
    match mask.iter().zip(axes).position(|(m, a)| m != a) {
        None => Ok(()),
        Some(k) => Err(IndexError::MaskShape {
            axis: first_axis + k,
            len: axes[k],
            mask_len: mask[k],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Entries;
    use crate::{ix, nd};

    /// `nd` of one point indexes like its integers: a view.
    #[test]
    fn one_point_of_nd_is_a_view() {
        let index = [ix(nd(ndarray::arr1(&[1i64, -1])))];
        let Ok(Plan::View(view)) = resolve(&index, &[3, 4], &[4, 1], Bounds::Error) else {
            panic!("not a view")
        };
        assert_eq!(view.axes, [ViewAxis::Select(1), ViewAxis::Select(3)]);
        let both = [ix(nd(ndarray::arr1(&[7i32]))), ix(1..3)];
        let Ok(Plan::View(view)) = resolve(&both, &[3, 4], &[4, 1], Bounds::Clip) else {
            panic!("not a view")
        };
        assert_eq!((view.axes[0], view.shape.as_slice()), (ViewAxis::Select(2), &[2][..]));
        // A skipped coordinate makes it advanced.
        let skipped = [ix(nd(ndarray::arr1(&[7i32, 0])))];
        assert!(matches!(resolve(&skipped, &[3, 4], &[4, 1], Bounds::Skip), Ok(Plan::Indexed(_))));
    }

    /// Index arrays that broadcast together are read in place where their
    /// table leads the region (walked once), with the offsets of the table
    /// built in another mode; a table behind a slice, walked once for each
    /// of the slice's positions, is built.
    #[test]
    fn broadcast_arrays_are_read_in_place_where_their_table_leads() {
        let (rows, cols) = (ndarray::arr2(&[[2i64], [-1], [0]]), ndarray::arr2(&[[1i32, -4, 3, 0]]));
        let (shape, strides) = ([4, 5, 6], [30, 6, 1]);
        let offsets = |index: &[IndexElem<'_>], bounds| {
            let Ok(Plan::Indexed(plan)) = resolve(index, &shape, &strides, bounds) else {
                panic!("not an indexed plan")
            };
            let mut offsets = vec![];
            plan.for_each_offset(|offset| offsets.push(offset.expect("nothing skipped")));
            let entries = match plan.table.entries {
                Entries::Broadcast(_) => "read in place",
                Entries::Offsets(_) => "built",
                _ => "another form",
            };
            (entries, offsets)
        };
        let leading = [ix(&rows), ix(&cols), ix(-2)];
        let (in_place, read) = offsets(&leading, Bounds::Error);
        let (built, expected) = offsets(&leading, Bounds::Wrap);
        assert_eq!((in_place, built), ("read in place", "built"));
        assert_eq!(read, expected);
        assert_eq!(
            &read[..5],
            [2 * 30 + 6 + 4, 2 * 30 + 6 + 4, 2 * 30 + 3 * 6 + 4, 2 * 30 + 4, 3 * 30 + 6 + 4]
        );
        let behind = [ix(..), ix(&rows), ix(&cols)];
        assert_eq!(offsets(&behind, Bounds::Error).0, "built");
    }

    /// An index array read in place wraps exactly when one of its indices
    /// counts from the end, each array of a pair on its own; either way its
    /// offsets are those of the table built in mode `wrap`.
    #[test]
    fn arrays_read_in_place_wrap_only_with_an_index_from_the_end() {
        let (shape, strides) = ([4, 5], [5, 1]);
        let offsets = |index: &[IndexElem<'_>], bounds| {
            let Ok(Plan::Indexed(plan)) = resolve(index, &shape, &strides, bounds) else {
                panic!("not an indexed plan")
            };
            let mut offsets = vec![];
            plan.for_each_offset(|offset| offsets.push(offset.expect("nothing skipped")));
            let wraps = match &plan.table.entries {
                Entries::Index(axis) => vec![axis.wraps],
                Entries::Pair(first, second) => vec![first.wraps, second.wraps],
                _ => vec![],
            };
            (wraps, offsets)
        };
        let (ahead, behind, unsigned) = (
            ndarray::arr1(&[3i64, 0, 2]),
            ndarray::arr1(&[3i64, -4, 2]),
            ndarray::arr1(&[3u32, 0]),
        );
        for (index, wraps) in [
            (vec![ix(&ahead)], vec![false]),
            (vec![ix(&behind)], vec![true]),
            (vec![ix(&unsigned)], vec![false]),
            (vec![ix(&ahead), ix(&behind)], vec![false, true]),
            (vec![ix(&behind), ix(&ahead)], vec![true, false]),
            (vec![ix(&ahead), ix(&ahead)], vec![false, false]),
        ] {
            let (read_in_place, built) = (offsets(&index, Bounds::Error), offsets(&index, Bounds::Wrap));
            assert_eq!((read_in_place.0, built.0), (wraps, vec![]));
            assert_eq!(read_in_place.1, built.1);
        }
        // Rows 3, 0 (-4 from the end) and 2, each whole.
        let rows: Vec<isize> = [3, 0, 2]
            .into_iter()
            .flat_map(|row| (0..5).map(move |column| row * 5 + column))
            .collect();
        assert_eq!(offsets(&[ix(&behind)], Bounds::Error).1, rows);
    }

    /// Cutting a plan along its longest strided dim gives pieces whose
    /// offsets, each taken with its region position, are the whole plan's,
    /// each once, and no element is in two pieces.
    #[test]
    fn narrowed_pieces_partition_the_plan() {
        let rows = ndarray::arr1(&[3i64, 0, 3, -1]);
        let index = [ix(1..6), ix(&rows), ix(crate::index::PySlice::new(None, None, Some(-3)))];
        let shape = [7, 5, 10];
        let strides = [50, 10, 1];
        let Ok(Plan::Indexed(plan)) = resolve(&index, &shape, &strides, Bounds::Error) else {
            panic!("not an indexed plan")
        };
        let (place, axis, len) = plan.longest_strided().expect("two strided dims");
        assert_eq!((axis, len), (0, 5), "the leading 1..6 (5) beats the ..;-3 (4)");
        let mut whole = Vec::new();
        plan.for_each_offset(|offset| whole.push(offset.expect("nothing skipped")));
        for cut in [1, 2, 3, 5] {
            let mut pieces = vec![None; whole.len()];
            let mut elements = std::collections::HashSet::new();
            for start in (0..len).step_by(cut) {
                let piece = plan.narrowed(place, start..len.min(start + cut));
                let mut k = 0;
                piece.for_each_offset(|offset| {
                    // The region position of the piece's k-th element in the whole region.
                    let inner = piece.len() / piece.shape[axis];
                    let at = (start + k / inner) * (plan.len() / len) + k % inner;
                    pieces[at] = offset;
                    k += 1;
                });
                let mut own = std::collections::HashSet::new();
                piece.for_each_offset(|offset| {
                    own.insert(offset);
                });
                assert!(own.iter().all(|offset| !elements.contains(offset)), "an element in two pieces");
                elements.extend(own);
            }
            assert_eq!(pieces, whole.iter().copied().map(Some).collect::<Vec<_>>(), "cut every {cut}");
        }
        // A dim of stride zero (a layout with no elements, or strides a
        // caller made up) reaches one element at every coordinate: never cut.
        let columns = [0usize, 1];
        let index = [ix(..), ix(&columns[..])];
        let Ok(Plan::Indexed(flat)) = resolve(&index, &[64, 2], &[0, 1], Bounds::Error) else {
            panic!("not an indexed plan")
        };
        assert_eq!(flat.longest_strided(), None);
    }
}
