//! `; batch = k`: the leading `k` axes of the target, of every index array
//! and mask, and of an array value are batch axes, paired position by
//! position. A batched call means, for every batch position `b`, the call
//! on `x[b]` with `INDEX[b]` and `v[b]` (JAX's `vmap` of `.at[]`,
//! TensorFlow's `batch_dims`).
//!
//! [`Batch::of`] checks how the parts pair (before any batch is prepared,
//! so that a bad structure is reported whatever the data); [`Batch::index_at`]
//! and [`Batch::value_at`] are one batch position's share, views of the
//! user's arrays: no `arange` grid is built. Small batches run as one
//! index of the whole target instead ([`Batch::as_one`]: one `arange` per
//! batch axis, or `along` the last axis).

use ndarray::{ArrayBase, ArrayViewD, Axis, CowArray, IxDyn, RawData, ShapeBuilder};

use super::Layout;
use crate::error::{BatchPart, IndexError};
use crate::index::{DeviceArray, DeviceForm, IndexElem, IndexInt, IntArray, PySlice, with_int_array};
use crate::value::Value;

/// The batch axes of a batched call: the target's leading axes, which
/// index arrays, masks and an array value match (or broadcast from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    shape: Vec<usize>,
}

impl Batch {
    /// The batch of `batch` axes of a target of `shape`, indexed by `index`
    /// and given `value` (none for a read or `.apply`): every index array,
    /// mask and array value has at least `batch` axes, each of the target's
    /// length or 1; a read goes through no mask.
    pub(crate) fn of<T>(
        batch: usize,
        shape: &[usize],
        index: &[IndexElem<'_>],
        read: bool,
        value: Option<&Value<'_, T>>,
    ) -> Result<Batch, IndexError> {
        let Some(batch_shape) = shape.get(..batch) else {
            return Err(IndexError::BatchRank {
                batch,
                part: BatchPart::Target,
                ndim: shape.len(),
            });
        };
        let pairs = |part: BatchPart, own: &[usize]| -> Result<(), IndexError> {
            let Some(own) = own.get(..batch) else {
                return Err(IndexError::BatchRank {
                    batch,
                    part,
                    ndim: own.len(),
                });
            };
            match own
                .iter()
                .zip(batch_shape)
                .position(|(&len, &expected)| len != expected && len != 1)
            {
                Some(axis) => Err(IndexError::BatchShape {
                    part,
                    axis,
                    len: own[axis],
                    expected: batch_shape[axis],
                }),
                None => Ok(()),
            }
        };
        for (position, elem) in index.iter().enumerate() {
            if let Some(own) = batched_shape(elem) {
                pairs(BatchPart::Index(position), own)?;
            }
        }
        if let Some(value @ (Value::Array(_) | Value::Device(_))) = value {
            pairs(BatchPart::Value, value.shape())?;
        }
        let is_mask = |elem: &IndexElem<'_>| {
            matches!(
                elem,
                IndexElem::Mask(_)
                    | IndexElem::Device {
                        form: DeviceForm::Mask,
                        ..
                    }
            )
        };
        if read && index.iter().any(is_mask) {
            return Err(IndexError::BatchedMaskRead);
        }
        Ok(Batch {
            shape: batch_shape.to_vec(),
        })
    }

    /// The batch shape: the target's leading axes.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of batch axes.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Every batch position, in C order.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Vec<usize>> + '_ {
        let count: usize = self.shape.iter().product();
        (0..count).map(|mut flat| {
            let mut at = vec![0; self.shape.len()];
            for (slot, &len) in at.iter_mut().zip(&self.shape).rev() {
                *slot = flat % len;
                flat /= len;
            }
            at
        })
    }

    /// The index of batch position `at`: each array, mask, `nd` and `along`
    /// index viewed at `at` (at 0 along its axes of length 1), the other
    /// elements as they are.
    pub fn index_at<'i>(&self, index: &'i [IndexElem<'_>], at: &[usize]) -> Vec<IndexElem<'i>> {
        map_batched(
            index,
            |array| with_int_array!(array, a => IndexInt::wrap_array(CowArray::from(view_at(a.view(), at)))),
            |mask| CowArray::from(view_at(mask.view(), at)),
            // Only a target on its device reads it, and views it there.
            |array, form| IndexElem::Device {
                array: array.clone(),
                form,
            },
        )
    }

    /// The value of batch position `at`: an array viewed at `at` (at 0
    /// along its axes of length 1), a scalar as it is.
    pub fn value_at<'v, T: Clone>(&self, value: &'v Value<'_, T>, at: &[usize]) -> Value<'v, T> {
        match value {
            Value::Scalar(scalar) => Value::Scalar(scalar.clone()),
            Value::Array(array) => Value::Array(CowArray::from(view_at(array.view(), at))),
            // Only a target on its device reads it, and views it there.
            Value::Device(array) => Value::Device(array.clone()),
        }
    }

    /// `index` behind `batch` whole axes: for an index of basic elements
    /// only, the same selection of every batch as one index of the target.
    pub fn behind_whole_axes<'i>(index: &[IndexElem<'i>], batch: usize) -> Vec<IndexElem<'i>> {
        let whole = std::iter::repeat_n(IndexElem::Slice(PySlice::default()), batch);
        whole.chain(index.iter().cloned()).collect()
    }

    /// Whether the index has only basic elements: then the batch is the
    /// same index behind `k` whole axes, one view of the target.
    pub fn is_basic(index: &[IndexElem<'_>]) -> bool {
        index.iter().all(|elem| batched_shape(elem).is_none())
    }
}

/// A batched index as one index of the whole target: the batch axes
/// indexed by `arange`s that broadcast against the index arrays (JAX's
/// `vmap` of `x[idx]` is NumPy's `x[arange(B)[:, None], idx]`), so that
/// one plan serves every batch position. [`Batch::as_one`] says which
/// indices have one.
#[derive(Debug)]
pub struct OneIndex<'i> {
    /// The index of the whole target.
    pub index: Vec<IndexElem<'i>>,
    /// The batch axes.
    batch: usize,
    /// The axes the index arrays broadcast to, in each batch.
    arrays: usize,
    /// The axes of the elements before the arrays, in each batch.
    before: usize,
    /// The shape of each batch's result.
    read_shape: Vec<usize>,
}

impl OneIndex<'_> {
    /// A batched result (or a value laid out as one) with its axes in the
    /// order of the one index's result, or `None` when it has not the
    /// result's number of axes. Each batch puts the arrays' axes after the
    /// axes of the elements before them (NumPy's rule for adjacent arrays),
    /// while the one index, whose `arange`s stand apart from the arrays,
    /// puts them first: `B, S, before, after` against `B, before, S,
    /// after`.
    pub fn arrange<S: RawData>(&self, batched: ArrayBase<S, IxDyn>) -> Option<ArrayBase<S, IxDyn>> {
        let (k, s, b) = (self.batch, self.arrays, self.before);
        let ndim = batched.ndim();
        if ndim != k + self.read_shape.len() {
            return None;
        }
        let order: Vec<usize> = (0..k).chain(k + b..k + b + s).chain(k..k + b).chain(k + b + s..ndim).collect();
        Some(batched.permuted_axes(order))
    }

    /// Whether the one index's result has the batched result's axes in
    /// their order (no element before the arrays adds one).
    pub fn is_in_order(&self) -> bool {
        self.before == 0
    }

    /// The shape of what each batch selects: the batched result's shape
    /// behind the batch axes.
    pub fn read_shape(&self) -> &[usize] {
        &self.read_shape
    }

    /// A batched value as a value of the one index, or `None` when it has
    /// more axes than a batch's result (each batch then tells why), or is
    /// on a device and would need axes inserted or moved.
    pub fn value<'v, T: Clone>(&self, value: &'v Value<'_, T>) -> Option<Value<'v, T>> {
        match value {
            Value::Scalar(scalar) => Some(Value::Scalar(scalar.clone())),
            Value::Array(array) => {
                let own = array.ndim().checked_sub(self.batch)?;
                let missing = self.read_shape.len().checked_sub(own)?;
                self.arrange(axes_at(array.view(), self.batch, missing))
                    .map(|view| Value::Array(CowArray::from(view)))
            }
            // A device value is taken as it stands, when it needs no axis
            // inserted or moved.
            Value::Device(array) if self.is_in_order() && array.shape().len() == self.batch + self.read_shape.len() => {
                Some(Value::Device(array.clone()))
            }
            Value::Device(_) => None,
        }
    }
}

impl Batch {
    /// `index` under these batches as one index of the whole target, each
    /// batch's share of it of `layout` (the axes behind the batch axes):
    /// `along` the last axis for one array into batches of one axis, at any
    /// size; else the batch axes indexed by `arange`s, where each batch
    /// selects at most `max_per_batch` elements and the index holds arrays
    /// beside integers, slices, `None` and `...` only. `None` otherwise, when the index is
    /// wrong (the batches then say why), and when no batch selects
    /// anything: those are called one by one, as any batched call's
    /// batches are, so that more positions than memory can list stay an
    /// error and NumPy's check of a zero-dimensional index still runs.
    ///
    /// A batched call and the one index's call select the same elements
    /// in the same order within each batch, so they write the same result.
    pub fn as_one<'i>(&self, index: &'i [IndexElem<'_>], layout: Layout<'_>, max_per_batch: usize) -> Option<OneIndex<'i>> {
        let read_shape = super::batch_read_shape(self, index, layout).ok()?;
        let selected = crate::memory::elements(&read_shape).filter(|&len| len > 0)?;
        let ndim = layout.shape.len();
        if let Some(along) = self.along(index, ndim, &read_shape) {
            return Some(along);
        }
        if selected > max_per_batch {
            return None;
        }
        self.one_index(index, ndim, read_shape)
    }

    /// `index` on a target of `ndim` axes behind the batch axes, each batch
    /// selecting `read_shape`, as one index of the whole target, when it
    /// holds index arrays and every other element is an integer, a slice,
    /// `None` or `...`; `None` otherwise (a mask, `nd`, `along`, a device
    /// array), and when there is no batch position or memory cannot hold
    /// the `arange`s.
    fn one_index<'i>(&self, index: &'i [IndexElem<'_>], ndim: usize, read_shape: Vec<usize>) -> Option<OneIndex<'i>> {
        let k = self.ndim();
        if crate::memory::elements(&self.shape)? == 0 {
            return None;
        }
        // NumPy counts an integer beside arrays as an advanced index: the
        // broadcast axes take the place of the first advanced element when
        // all of them are adjacent, and come first otherwise.
        let is_array = |elem: &IndexElem<'_>| matches!(elem, IndexElem::Array(_));
        let is_advanced = |elem: &IndexElem<'_>| matches!(elem, IndexElem::Array(_) | IndexElem::Int(_));
        if !index.iter().any(is_array) {
            return None;
        }
        let first = index.iter().position(is_advanced)?;
        let last = index.iter().rposition(is_advanced)?;
        let adjacent = index[first..=last].iter().all(is_advanced);
        // Axes each batch's index consumes, the result's axes of its basic
        // elements, those before the advanced ones, and where `...` is.
        let (mut consumed, mut basic, mut before, mut ellipsis) = (0, 0, 0, None);
        for (position, elem) in index.iter().enumerate() {
            match elem {
                IndexElem::Array(_) | IndexElem::Int(_) => {
                    consumed += 1;
                    continue;
                }
                IndexElem::Slice(_) | IndexElem::Range(_) => consumed += 1,
                IndexElem::NewAxis => {}
                IndexElem::Ellipsis if ellipsis.is_none() => {
                    ellipsis = Some(position);
                    continue;
                }
                _ => return None,
            }
            basic += 1;
            before += usize::from(position < first);
        }
        // The axes `...`, or the whole axes after the index, cover.
        let rest = ndim.checked_sub(consumed)?;
        if ellipsis.is_some_and(|position| position < first) {
            before += rest;
        }
        if !adjacent {
            // Each batch puts the broadcast axes first, as the one index does.
            before = 0;
        }
        let arrays = index
            .iter()
            .filter_map(|elem| match elem {
                IndexElem::Array(array) => Some(array.shape().len() - k),
                _ => None,
            })
            .max()?;
        let mut one = Vec::with_capacity(k + index.len());
        for (axis, &len) in self.shape.iter().enumerate() {
            let mut positions = crate::memory::vec(len)?;
            positions.extend(0..len);
            let mut shape = vec![1; k + arrays];
            shape[axis] = len;
            let arange = ndarray::Array::from_shape_vec(IxDyn(&shape), positions).expect("one position per batch");
            one.push(IndexElem::Array(IntArray::Usize(CowArray::from(arange))));
        }
        // Each array with its batch axes first, then axes of length 1 up
        // to the arrays' broadcast rank: the arrays broadcast per batch.
        one.extend(index.iter().map(|elem| match elem {
            IndexElem::Array(array) => IndexElem::Array(with_int_array!(array, a => {
                IndexInt::wrap_array(CowArray::from(axes_at(a.view(), k, k + arrays - a.ndim())))
            })),
            IndexElem::Slice(slice) => IndexElem::Slice(*slice),
            IndexElem::Range(range) => IndexElem::Range(*range),
            IndexElem::Int(i) => IndexElem::Int(*i),
            IndexElem::NewAxis => IndexElem::NewAxis,
            _ => IndexElem::Ellipsis,
        }));
        debug_assert_eq!(
            read_shape.len(),
            basic + arrays + rest,
            "each batch's result has the one index's axes"
        );
        Some(OneIndex {
            index: one,
            batch: k,
            arrays,
            before,
            read_shape,
        })
    }

    /// `index` on a target of one axis behind the batch axes as one index
    /// of the whole target, when it is one array, on the host or on a
    /// device (`tf.gather(x, idx, batch_dims=k)` on a matrix): `along` the
    /// last axis, as
    /// `take_along_axis` (each batch position's row picked by its own row
    /// of the array, which broadcasts along the batch axes).
    fn along<'i>(&self, index: &'i [IndexElem<'_>], ndim: usize, read_shape: &[usize]) -> Option<OneIndex<'i>> {
        let k = self.ndim();
        if ndim != 1 || crate::memory::elements(&self.shape)? == 0 {
            return None;
        }
        let along = match index {
            [IndexElem::Array(array)] if array.shape().len() == k + 1 => IndexElem::Along {
                index: with_int_array!(array, a => IndexInt::wrap_array(CowArray::from(a.view()))),
                axis: k as isize,
            },
            [
                IndexElem::Device {
                    array,
                    form: DeviceForm::Array,
                },
            ] if array.shape().len() == k + 1 => IndexElem::Device {
                array: array.clone(),
                form: DeviceForm::Along(k as isize),
            },
            _ => return None,
        };
        Some(OneIndex {
            index: vec![along],
            batch: k,
            arrays: 1,
            before: 0,
            read_shape: read_shape.to_vec(),
        })
    }

    /// `index` as any batch sees it, for shapes only: each array, `nd` and
    /// `along` index replaced by zeros of its per-batch shape, each mask by
    /// `false`. What a batch reads has this shape even when there is no
    /// batch position to view. Nothing is allocated: each stand-in is one
    /// element seen at every position (all strides 0), so that a broadcast
    /// index of any shape stands in for free.
    pub(crate) fn zeros_like(&self, index: &[IndexElem<'_>]) -> Vec<IndexElem<'static>> {
        let k = self.ndim();
        let zeros = |shape: &[usize]| IntArray::Usize(CowArray::from(stand_in(shape, &ZERO)));
        let falses = |shape: &[usize]| CowArray::from(stand_in(shape, &FALSE));
        map_batched(
            index,
            |array| zeros(&array.shape()[k..]),
            |mask| falses(&mask.shape()[k..]),
            |array, form| {
                let shape = &array.shape()[k..];
                match form {
                    DeviceForm::Mask => IndexElem::Mask(falses(shape)),
                    DeviceForm::Nd => IndexElem::Nd(zeros(shape)),
                    DeviceForm::Along(axis) => IndexElem::Along { index: zeros(shape), axis },
                    _ => IndexElem::Array(zeros(shape)),
                }
            },
        )
    }
}

/// The element every position of an integer stand-in sees.
static ZERO: [usize; 1] = [0];
/// The element every position of a mask stand-in sees.
static FALSE: [bool; 1] = [false];

/// `one` seen at every position of `shape` (a shape of an array the caller
/// holds, so one that ndarray can address).
fn stand_in<A>(shape: &[usize], one: &'static [A; 1]) -> ArrayViewD<'static, A> {
    let everywhere = IxDyn(shape).strides(IxDyn(&vec![0; shape.len()]));
    ArrayViewD::from_shape(everywhere, one).expect("one element reaches every position of an addressable shape")
}

/// `index` with each array, `nd` and `along` index replaced by `ints` of
/// it, each mask by `mask` of it, and each device array by `device` of it.
fn map_batched<'i, 'o>(
    index: &'i [IndexElem<'_>],
    ints: impl Fn(&'i IntArray<'_>) -> IntArray<'o>,
    mask: impl Fn(&'i CowArray<'_, bool, IxDyn>) -> CowArray<'o, bool, IxDyn>,
    device: impl Fn(&'i DeviceArray<'_>, DeviceForm) -> IndexElem<'o>,
) -> Vec<IndexElem<'o>> {
    index
        .iter()
        .map(|elem| match elem {
            IndexElem::Array(array) => IndexElem::Array(ints(array)),
            IndexElem::Nd(array) => IndexElem::Nd(ints(array)),
            IndexElem::Along { index, axis } => IndexElem::Along {
                index: ints(index),
                axis: *axis,
            },
            IndexElem::Mask(m) => IndexElem::Mask(mask(m)),
            IndexElem::Int(i) => IndexElem::Int(*i),
            IndexElem::Slice(slice) => IndexElem::Slice(*slice),
            IndexElem::Range(range) => IndexElem::Range(*range),
            IndexElem::Ellipsis => IndexElem::Ellipsis,
            IndexElem::NewAxis => IndexElem::NewAxis,
            IndexElem::Device { array, form } => device(array, *form),
            IndexElem::CrossRank { ndim } => IndexElem::CrossRank { ndim: *ndim },
        })
        .collect()
}

/// The shape of an element that carries batch axes: an array, a mask,
/// `nd` or `along`.
fn batched_shape<'e>(elem: &'e IndexElem<'_>) -> Option<&'e [usize]> {
    match elem {
        IndexElem::Array(array) | IndexElem::Nd(array) | IndexElem::Along { index: array, .. } => Some(array.shape()),
        IndexElem::Mask(mask) => Some(mask.shape()),
        IndexElem::Device { array, .. } => Some(array.shape()),
        IndexElem::Int(_)
        | IndexElem::Slice(_)
        | IndexElem::Range(_)
        | IndexElem::Ellipsis
        | IndexElem::NewAxis
        | IndexElem::CrossRank { .. } => None,
    }
}

/// `view` with `count` axes of length 1 inserted before axis `at`.
fn axes_at<A>(view: ArrayViewD<'_, A>, at: usize, count: usize) -> ArrayViewD<'_, A> {
    (0..count).fold(view, |view, _| view.insert_axis(Axis(at)))
}

/// `view` at batch position `at` along its leading axes, taking 0 along an
/// axis of length 1 (a broadcast batch axis).
fn view_at<'a, A>(mut view: ArrayViewD<'a, A>, at: &[usize]) -> ArrayViewD<'a, A> {
    for &position in at {
        let position = if view.len_of(Axis(0)) == 1 { 0 } else { position };
        view = view.index_axis_move(Axis(0), position);
    }
    view.into_dimensionality::<IxDyn>().expect("a dynamic view stays dynamic")
}

#[cfg(test)]
mod tests {
    use ndarray::{Array3, array};

    use super::*;
    use crate::ix;

    #[test]
    fn the_parts_pair_with_the_targets_batch_axes() {
        let idx = array![[0usize, 1], [1, 0]];
        let one = array![[1usize, 0]];
        let batch = Batch::of::<f32>(1, &[2, 3], &[ix(&idx)], true, None).unwrap();
        assert_eq!(batch.shape(), &[2]);
        assert!(Batch::of::<f32>(1, &[2, 3], &[ix(&one)], true, None).is_ok());
        assert_eq!(
            Batch::of::<f32>(1, &[3, 3], &[ix(&idx)], true, None).unwrap_err(),
            IndexError::BatchShape {
                part: BatchPart::Index(0),
                axis: 0,
                len: 2,
                expected: 3
            }
        );
        assert_eq!(
            Batch::of::<f32>(3, &[2, 3], &[ix(&idx)], true, None).unwrap_err(),
            IndexError::BatchRank {
                batch: 3,
                part: BatchPart::Target,
                ndim: 2
            }
        );
        let scalar_index = array![1usize];
        assert_eq!(
            Batch::of::<f32>(2, &[2, 3, 4], &[ix(..), ix(&scalar_index)], true, None).unwrap_err(),
            IndexError::BatchRank {
                batch: 2,
                part: BatchPart::Index(1),
                ndim: 1
            }
        );
        let value = Array3::<f32>::zeros((3, 1, 1)).into_dyn();
        let value = Value::Array(value.view().into());
        assert!(matches!(
            Batch::of(1, &[2, 3], &[ix(&idx)], false, Some(&value)).unwrap_err(),
            IndexError::BatchShape {
                part: BatchPart::Value,
                ..
            }
        ));
    }

    #[test]
    fn reads_through_masks_are_refused_and_updates_are_not() {
        let mask = array![[true, false], [true, true]];
        assert_eq!(
            Batch::of::<f32>(1, &[2, 2], &[ix(&mask)], true, None).unwrap_err(),
            IndexError::BatchedMaskRead
        );
        assert!(Batch::of(1, &[2, 2], &[ix(&mask)], false, Some(&Value::Scalar(1.0f32))).is_ok());
    }

    #[test]
    fn each_position_views_its_share() {
        let idx = array![[0usize, 1], [1, 0]];
        let mask = array![[true, false]];
        let index = [ix(0), ix(&idx), ix(&mask)];
        let batch = Batch::of(1, &[2, 4, 2], &index, false, Some(&Value::Scalar(0))).unwrap();
        let positions: Vec<Vec<usize>> = batch.positions().collect();
        assert_eq!(positions, [vec![0], vec![1]]);
        let second = batch.index_at(&index, &[1]);
        assert!(matches!(second[0], IndexElem::Int(0)));
        let IndexElem::Array(IntArray::Usize(picked)) = &second[1] else {
            panic!("an array stays an array")
        };
        assert_eq!(picked, &array![1usize, 0].into_dyn());
        let IndexElem::Mask(broadcast) = &second[2] else {
            panic!("a mask stays a mask")
        };
        assert_eq!(broadcast, &array![true, false].into_dyn());
        let batch = Batch { shape: vec![2, 3] };
        assert_eq!(batch.positions().nth(4), Some(vec![1, 1]));
    }

    #[test]
    fn the_forms_run_as_one_index_and_the_rest_batch_by_batch() {
        let (shape, strides) = ([3usize, 2, 4, 5], [40isize, 20, 5, 1]);
        let layout = Layout {
            shape: &shape[1..],
            strides: &strides[1..],
        };
        let batch = Batch { shape: vec![3] };
        let idx = array![[0usize, 1], [1, 0], [1, 1]];
        let mask = array![[true, false]];
        // (The one index's length, whether it is in order, and each batch's
        // shape.)
        let as_one = |index: &[IndexElem<'_>], max: usize| {
            let one = batch.as_one(index, layout, max)?;
            Some((one.index.len(), one.is_in_order(), one.read_shape().to_vec()))
        };
        // Arrays beside integers, slices, `None` and `...`, up to the limit.
        // The axes are out of order where elements with axes come before
        // adjacent advanced ones (each batch then puts those axes first).
        let in_order = [ix(&idx), ix(..)];
        let after_a_slice = [ix(..), ix(&idx)];
        let after_none = [ix(IndexElem::NewAxis), ix(&idx), ix(&idx)];
        let after_ellipsis = [ix(IndexElem::Ellipsis), ix(&idx)];
        let with_an_integer = [ix(&idx), ix(0)];
        let integer_after_a_slice = [ix(..), ix(0), ix(&idx)];
        let apart = [ix(&idx), ix(..), ix(&idx)];
        let apart_by_an_integer = [ix(0), ix(..), ix(&idx)];
        for (index, expected) in [
            (&in_order[..], (3, true, vec![2, 4, 5])),
            (&after_a_slice, (3, false, vec![2, 2, 5])),
            (&after_none, (4, false, vec![1, 2, 5])),
            (&after_ellipsis, (3, false, vec![2, 4, 2])),
            (&with_an_integer, (3, true, vec![2, 5])),
            (&integer_after_a_slice, (4, false, vec![2, 2])),
            (&apart, (4, true, vec![2, 4])),
            (&apart_by_an_integer, (4, true, vec![2, 4])),
        ] {
            let selected = expected.2.iter().product();
            assert_eq!(as_one(index, selected), Some(expected), "{index:?} as one index");
            assert!(as_one(index, selected - 1).is_none(), "{index:?}: past the limit");
        }
        // A mask, `nd`, or no array: batch by batch.
        let pairs = array![[[0usize, 1]], [[1, 0]], [[3, 4]]];
        for index in [vec![ix(0), ix(&mask)], vec![ix(crate::nd(&pairs))], vec![ix(0), ix(..)]] {
            assert!(as_one(&index, usize::MAX).is_none(), "{index:?} batch by batch");
        }
        // A batch that selects nothing: batch by batch.
        let none = ndarray::Array2::<usize>::zeros((3, 0));
        assert!(as_one(&[ix(..), ix(&none)], usize::MAX).is_none());
        // One array into batches of one axis: `along`, at any size.
        let rows = Batch { shape: vec![12] };
        let flat = Layout {
            shape: &[5],
            strides: &[1],
        };
        let picks = ndarray::Array2::<usize>::zeros((12, 300));
        let index = [ix(&picks)];
        let along = rows.as_one(&index, flat, 0).expect("along at any size");
        assert!(matches!(along.index[..], [IndexElem::Along { axis: 1, .. }]));
        assert_eq!(along.read_shape(), [300]);
    }
}
