//! Advanced indices: broadcast together and resolved to a table of offsets.

use ndarray::{ArrayViewD, Axis, IxDyn};

use crate::error::{IndexError, Shape, Shapes};
use crate::index::{IndexElem, IndexInt, IntArray, with_int_array};
use crate::mode::{Bounds, Resolution};
use crate::plan::{AxisIndex, Dim, Entries, IndexedPlan, SKIP, Table};

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
    fn accumulate(&self, shape: &[usize], target: (&[usize], &[isize]), bounds: Bounds, offsets: &mut [isize]) -> Result<(), IndexError> {
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
        match &self.source {
            Source::Int(index) => offsets.iter_mut().try_for_each(|o| add(o, *index)),
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
            Source::Extent => Ok(()),
            Source::Array(array) => with_int_array!(array, a => match a.as_slice() {
                // The common case, a contiguous array of the broadcast shape
                // in mode error: a branch-free check, then a tight loop.
                Some(indices) if bounds == Bounds::Error && a.shape() == shape => {
                    if !all_in_bounds(indices, len) {
                        let bad = indices.iter().find(|i| !i.in_bounds(len)).expect("one is out of bounds");
                        return Err(out_of_bounds(bad.to_i128()));
                    }
                    add_positions(offsets, indices, len, stride);
                    Ok(())
                }
                _ => {
                    let view = a.broadcast(IxDyn(shape)).expect("shapes were broadcast-checked");
                    offsets.iter_mut().zip(view.iter()).try_for_each(|(o, &i)| add(o, IndexInt::to_i128(i)))
                }
            }),
        }
    }
}

/// Broadcasts the components' shapes together (NumPy rules).
fn broadcast_shapes(components: &[Component<'_>], element_shapes: &[Vec<usize>]) -> Result<Vec<usize>, IndexError> {
    let ndim = components.iter().map(|c| c.shape.len()).max().unwrap_or(0);
    let mut shape = vec![1usize; ndim];
    for component in components {
        let offset = ndim - component.shape.len();
        for (d, &len) in component.shape.iter().enumerate() {
            let out = &mut shape[offset + d];
            if *out == 1 {
                *out = len;
            } else if len != 1 && len != *out {
                return Err(IndexError::IndexBroadcast {
                    shapes: Shapes(element_shapes.iter().map(|s| Shape(s.clone())).collect()),
                });
            }
        }
    }
    Ok(shape)
}

/// Builds the offset table of the advanced components on a target with the
/// given shape and strides. `element_shapes` are the shapes of the index
/// elements as written, for the broadcast error message.
pub(crate) fn build_table<'i>(
    components: &[Component<'i>],
    element_shapes: &[Vec<usize>],
    target_shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
) -> Result<Table<'i>, IndexError> {
    let shape = broadcast_shapes(components, element_shapes)?;
    let count = checked_size(&shape)?;
    if let [component] = components
        && let Some(entries) = in_place(component, target_shape, strides, bounds)?
    {
        return Ok(Table { shape, entries });
    }
    // Huge pages for a large table: its page faults would cost more than
    // filling it. A table memory cannot hold is an error, not an abort.
    let mut offsets = crate::exec::pages::try_output(count).ok_or_else(|| IndexError::TooLarge {
        shape: Shape(shape.clone()),
    })?;
    offsets.resize(count, 0isize);
    for component in components {
        component.accumulate(&shape, (target_shape, strides), bounds, &mut offsets)?;
    }
    Ok(Table {
        shape,
        entries: Entries::Offsets(offsets),
    })
}

/// A lone C-contiguous index array in mode `error` is read in place: one
/// pass checks its bounds, and nothing is copied.
fn in_place<'i>(
    component: &Component<'i>,
    target_shape: &[usize],
    strides: &[isize],
    bounds: Bounds,
) -> Result<Option<Entries<'i>>, IndexError> {
    let Source::Array(index) = &component.source else {
        return Ok(None);
    };
    if bounds != Bounds::Error {
        return Ok(None);
    }
    let (len, axis) = (target_shape[component.axis], component.axis);
    let checked = with_int_array!(index, a => match a.as_slice() {
        None => return Ok(None),
        Some(values) if all_in_bounds(values, len) => Ok(()),
        Some(values) => {
            let bad = values.iter().find(|i| !i.in_bounds(len)).expect("a chunk failed");
            Err(IndexError::OutOfBounds { index: bad.to_i128(), axis, len })
        }
    });
    checked?;
    Ok(Some(Entries::Index {
        index: index.clone(),
        len,
        stride: strides[axis],
    }))
}

/// `x[idx]` for one C-contiguous integer array `idx` in mode `error`, the
/// most common scatter and gather, planned without the general resolver's
/// bookkeeping: the table is `idx` itself, read in place. `None` when the
/// index has another form or an index is out of bounds (the general
/// resolver then reports it).
pub(crate) fn lone_array<'i>(index: &'i [IndexElem<'_>], shape: &[usize], strides: &[isize], bounds: Bounds) -> Option<IndexedPlan<'i>> {
    let ([IndexElem::Array(array)], [len, rest @ ..], Bounds::Error) = (index, shape, bounds) else {
        return None;
    };
    let in_bounds = with_int_array!(array, a => a.as_slice().is_some_and(|values| all_in_bounds(values, *len)));
    if !in_bounds || array.shape().is_empty() {
        return None;
    }
    let dims = std::iter::once(Dim::Table)
        .chain(rest.iter().zip(&strides[1..]).map(|(&len, &stride)| Dim::Strided { len, stride }))
        .collect();
    Some(IndexedPlan {
        base: 0,
        dims,
        table: Table {
            shape: array.shape().to_vec(),
            entries: Entries::Index {
                index: array.view(),
                len: *len,
                stride: strides[0],
            },
        },
        shape: array.shape().iter().chain(rest).copied().collect(),
        whole_mask: false,
    })
}

/// `x[i, j]` for two C-contiguous integer arrays of one shape and one
/// integer type in mode `error` (a scatter or gather by coordinates),
/// planned with the arrays read in place: executors compute each offset
/// from both, so no offset table is built. `None` otherwise, or when an
/// index is out of bounds (the general resolver then reports it).
pub(crate) fn array_pair<'i>(index: &'i [IndexElem<'_>], shape: &[usize], strides: &[isize], bounds: Bounds) -> Option<IndexedPlan<'i>> {
    let ([IndexElem::Array(first), IndexElem::Array(second)], [len0, len1, rest @ ..], Bounds::Error) = (index, shape, bounds) else {
        return None;
    };
    let in_bounds =
        |array: &IntArray<'_>, len: usize| with_int_array!(array, a => a.as_slice().is_some_and(|values| all_in_bounds(values, len)));
    if !first.same_type(second)
        || first.shape() != second.shape()
        || first.shape().is_empty()
        || !in_bounds(first, *len0)
        || !in_bounds(second, *len1)
    {
        return None;
    }
    let axis = |index: &'i IntArray<'_>, len: usize, stride: isize| AxisIndex {
        index: index.view(),
        len,
        stride,
    };
    let dims = std::iter::once(Dim::Table)
        .chain(rest.iter().zip(&strides[2..]).map(|(&len, &stride)| Dim::Strided { len, stride }))
        .collect();
    Some(IndexedPlan {
        base: 0,
        dims,
        table: Table {
            shape: first.shape().to_vec(),
            entries: Entries::Pair(axis(first, *len0, strides[0]), axis(second, *len1, strides[1])),
        },
        shape: first.shape().iter().chain(rest).copied().collect(),
        whole_mask: false,
    })
}

/// Whether every index lies in `[-len, len)`: a branch-free pass per chunk
/// (it vectorizes), chunks on both cores when there are many; the culprit
/// is looked for only when there is one.
fn all_in_bounds<I: IndexInt>(indices: &[I], len: usize) -> bool {
    let chunk_ok = |chunk: &[I]| chunk_in_bounds(chunk, len);
    #[cfg(feature = "rayon")]
    if crate::exec::parallel::worth_it(indices.len()) {
        use rayon::prelude::*;
        return indices.par_chunks(crate::exec::parallel::THRESHOLD).all(chunk_ok);
    }
    indices.chunks(1024).all(chunk_ok)
}

/// Whether every index of `chunk` lies in `[-len, len)`, with AVX2 where
/// the processor has it: the baseline x86-64 instruction set has no 64-bit
/// comparison to vectorize with (W5's 2M-index check: 2.5 -> 1.9 ms).
pub(crate) fn chunk_in_bounds<I: IndexInt>(chunk: &[I], len: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { chunk_in_bounds_avx2(chunk, len) };
    }
    fold_in_bounds(chunk, len)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_in_bounds_avx2<I: IndexInt>(chunk: &[I], len: usize) -> bool {
    fold_in_bounds(chunk, len)
}

/// The check itself: branch-free, so it vectorizes.
#[inline(always)]
fn fold_in_bounds<I: IndexInt>(chunk: &[I], len: usize) -> bool {
    chunk.iter().fold(true, |ok, i| ok & i.in_bounds(len))
}

/// `offsets[k] += position(indices[k]) * stride` for in-bounds indices, on
/// both cores when there are many (each offset is written by one thread).
fn add_positions<I: IndexInt>(offsets: &mut [isize], indices: &[I], len: usize, stride: isize) {
    let add = |(offsets, indices): (&mut [isize], &[I])| {
        for (offset, &i) in offsets.iter_mut().zip(indices) {
            *offset += i.position(len) as isize * stride;
        }
    };
    #[cfg(feature = "rayon")]
    if crate::exec::parallel::worth_it(indices.len()) {
        use rayon::prelude::*;
        let chunk = crate::exec::parallel::THRESHOLD;
        return offsets.par_chunks_mut(chunk).zip(indices.par_chunks(chunk)).for_each(add);
    }
    add((offsets, indices));
}

/// The number of elements of `shape`, or an error when it overflows.
pub(crate) fn checked_size(shape: &[usize]) -> Result<usize, IndexError> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| IndexError::TooLarge {
            shape: Shape(shape.to_vec()),
        })
}

/// The positions of a mask's true elements, one list per mask axis (NumPy's
/// `nonzero`), in C order.
pub(crate) fn mask_positions(mask: &ArrayViewD<'_, bool>) -> Vec<Vec<usize>> {
    let count = mask.iter().filter(|&&b| b).count();
    let mut positions: Vec<Vec<usize>> = (0..mask.ndim()).map(|_| Vec::with_capacity(count)).collect();
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
    positions
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
