//! The entry points: read, set, accumulate and apply on any ndarray.
//!
//! Each resolves the index into a plan first (every index, the value's shape
//! and every operand checked), and only then writes: on error the target is
//! unchanged.

use std::collections::HashMap;

use ndarray::{ArrayBase, ArrayViewD, ArrayViewMutD, CowArray, Data, DataMut, Dimension, IxDyn};

use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::{Kernel, SetKernel, with_op};
use crate::exec::{basic, gather, mask_gather, rollback, scatter};
#[cfg(feature = "rayon")]
use crate::exec::{partitioned, split};
use crate::index::IndexElem;
#[cfg(feature = "rayon")]
use crate::index::IndexInt;
#[cfg(feature = "rayon")]
use crate::index::IntArray;
#[cfg(feature = "rayon")]
use crate::index::{with_index_slice, with_index_slices};
use crate::mode::Mode;
use crate::plan::basic::{each_basic_axis, resolve_basic};
use crate::plan::{IndexedPlan, Plan, resolve};
use crate::value::{Broadcast, IntoValue, Value};

/// Reads `target[index]`: a view when the index is basic, a gathered array
/// when it is advanced (or when mode `fill` met an out-of-bounds integer).
///
/// ```
/// use ndarray::array;
/// use tensor_core::{get, ix, Mode};
///
/// let x = array![[1, 2, 3], [4, 5, 6]];
/// let column = get(&x, &[ix(..), ix(-1)], Mode::Error)?;
/// assert_eq!(column, array![3, 6].into_dyn());
/// let picked = get(&x, &[ix([1, 0, 1]), ix([0, 0, 2])], Mode::Error)?;
/// assert_eq!(picked, array![4, 1, 6].into_dyn());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn get<'a, T, S, D>(target: &'a ArrayBase<S, D>, index: &[IndexElem<'_>], mode: Mode<T>) -> Result<CowArray<'a, T, IxDyn>, IndexError>
where
    T: Clone + Send + Sync + 'static,
    S: Data<Elem = T>,
    D: Dimension,
{
    get_view(target.view().into_dyn(), index, mode)
}

/// [`get`] on a view, returning data borrowed for the view's lifetime.
pub fn get_view<'a, T: Clone + Send + Sync + 'static>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    mode: Mode<T>,
) -> Result<CowArray<'a, T, IxDyn>, IndexError> {
    select(view, index, mode).map(Selection::into_cow)
}

/// The result of a read: a view of the target, or a gathered array.
#[derive(Debug)]
pub enum Selection<'a, T> {
    /// Basic indexing: a view, no copy.
    View(ArrayViewD<'a, T>),
    /// Advanced indexing: the gathered elements.
    Owned(ndarray::ArrayD<T>),
}

impl<'a, T> Selection<'a, T> {
    /// As a copy-on-write array.
    pub fn into_cow(self) -> CowArray<'a, T, IxDyn> {
        match self {
            Selection::View(view) => CowArray::from(view),
            Selection::Owned(array) => CowArray::from(array),
        }
    }
}

/// [`get_view`], telling views from gathered arrays.
pub fn select<'a, T: Clone + Send + Sync + 'static>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    mode: Mode<T>,
) -> Result<Selection<'a, T>, IndexError> {
    mode.check_for_read()?;
    if let Some(axes) = resolve_basic(index, view.shape()) {
        return Ok(Selection::View(basic::select(view, &axes)));
    }
    if let Some(selected) = mask_gather::gather_masked_blocks(&view, index) {
        return Ok(Selection::Owned(selected));
    }
    match resolve(index, view.shape(), view.strides(), mode.bounds())? {
        Plan::View(plan) => Ok(Selection::View(basic::select(view, &plan.axes))),
        Plan::Indexed(plan) => {
            let fill = match &mode {
                Mode::Fill(v) => Some(v),
                _ => None,
            };
            // SAFETY: `plan` was resolved from this view's shape and strides.
            Ok(Selection::Owned(unsafe { gather::gather(&view, &plan, fill) }))
        }
    }
}

/// Writes `value` into `target[index]` (NumPy's `x[index] = value`). With
/// duplicate indices the last occurrence in index order wins.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{ix, set, Mode};
///
/// let mut x = array![0.0, 0.0, 0.0, 0.0];
/// set(&mut x, &[ix([3, 1, 3])], &array![1.0, 2.0, 3.0], Mode::Error)?;
/// assert_eq!(x, array![0.0, 2.0, 0.0, 3.0]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn set<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    value: impl IntoValue<'v, T>,
    mode: Mode<T>,
) -> Result<(), IndexError>
where
    T: Clone + 'static,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let value = value.into_value();
    if let Value::Scalar(scalar) = &value
        && written_in_place(target, index, &mode, |element| *element = scalar.clone())
    {
        return Ok(());
    }
    #[cfg_attr(not(feature = "rayon"), allow(unused_mut))]
    let mut target = Resolved::new(target.view_mut().into_dyn(), index, &mode)?;
    let values = target.broadcast_for_set(&value)?;
    #[cfg(feature = "rayon")]
    if target.set_by_destination(&values) {
        return Ok(());
    }
    target.write(&values, SetKernel);
    Ok(())
}

/// Combines `target[index]` with `value` by `op`, once per occurrence of each
/// position, in index order (unbuffered, like `np.add.at`).
///
/// ```
/// use ndarray::array;
/// use tensor_core::{ix, update, Mode, Op};
///
/// let mut hist = array![0, 0, 0];
/// update(&mut hist, &[ix([0, 2, 2, 2])], Op::Add, 1, Mode::Error)?;
/// assert_eq!(hist, array![1, 0, 3]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn update<'v, T, S, D>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    op: Op,
    value: impl IntoValue<'v, T>,
    mode: Mode<T>,
) -> Result<(), IndexError>
where
    T: Arith,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let value = value.into_value();
    if let Value::Scalar(scalar) = &value
        && !T::checks_operands(op)
        && with_op!(op, kernel => {
            let mut kernel = kernel;
            written_in_place(target, index, &mode, |element| kernel.apply(element, scalar))
        })
    {
        return Ok(());
    }
    // A vector's own slice: no dynamic shape is built (a three-element
    // scatter: 132 -> 104-127 ns).
    if target.ndim() == 1
        && let Some(axis) = target.as_slice_mut()
        && let Some(result) = with_op!(op, kernel => rollback::update(axis, index, op, &value, &mode, kernel))
    {
        return result;
    }
    let target = Resolved::new(target.view_mut().into_dyn(), index, &mode)?;
    let values = target.broadcast(&value)?;
    if T::checks_operands(op) {
        target.check_operands(&values, |v| T::check_operand(op, *v))?;
    }
    with_op!(op, kernel => target.accumulate(op, &values, kernel));
    Ok(())
}

/// Below this many elements, a scalar written through a basic index goes
/// straight to the target's own view: no dynamic shapes are built (a 4x4
/// set: 153 -> 40 ns, against 25 by hand). Larger regions take the planned path, which
/// streams large fills past the cache.
const SMALL_REGION: usize = 1 << 12;

/// `write` on every element of `target[index]` when the index is purely
/// basic, valid, and selects at most `SMALL_REGION` elements; `false`
/// (nothing done) otherwise.
fn written_in_place<T, S: DataMut<Elem = T>, D: Dimension>(
    target: &mut ArrayBase<S, D>,
    index: &[IndexElem<'_>],
    mode: &Mode<T>,
    write: impl FnMut(&mut T),
) -> bool {
    let shape = target.raw_dim();
    let mut region = target.view_mut();
    let mut axis = 0;
    let narrowed = each_basic_axis(index, shape.slice(), |view_axis| {
        axis = basic::narrow(&mut region, axis, view_axis);
        Some(())
    });
    if narrowed.is_none() || region.len() > SMALL_REGION || mode.check_for_update().is_err() {
        return false;
    }
    region.map_inplace(write);
    true
}

/// Replaces each element of `target[index]` by `f(element)`, once per
/// occurrence, in index order (JAX's `.at[].apply`).
///
/// Every result is computed into scratch before the first write, so when
/// `f` panics the target is unchanged (the scratch holds one element per
/// selected position).
///
/// ```
/// use ndarray::array;
/// use tensor_core::{apply, ix, Mode};
///
/// let mut x = array![1, 2, 3];
/// apply(&mut x, &[ix([0, 0, 2])], |e| e * 10, Mode::Error)?;
/// assert_eq!(x, array![100, 2, 30]);
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
pub fn apply<T, S, D>(target: &mut ArrayBase<S, D>, index: &[IndexElem<'_>], f: impl FnMut(T) -> T, mode: Mode<T>) -> Result<(), IndexError>
where
    T: Clone,
    S: DataMut<Elem = T>,
    D: Dimension,
{
    let target = Resolved::new(target.view_mut().into_dyn(), index, &mode)?;
    apply_staged(target, f);
    Ok(())
}

/// `apply`'s write in two phases: every `f(element)`, in index order, into
/// scratch; then, once all of them returned, the results into the target.
/// A duplicate position takes the result of its previous occurrence as its
/// input, as the unbuffered loop would.
fn apply_staged<T: Clone>(resolved: Resolved<'_, '_, T>, mut f: impl FnMut(T) -> T) {
    match resolved {
        // A view from basic indexing reaches each element once, in C order.
        Resolved::View(mut view) => {
            let results: Vec<T> = view.iter().map(|element| f(element.clone())).collect();
            for (slot, result) in view.iter_mut().zip(results) {
                *slot = result;
            }
        }
        Resolved::Indexed { mut target, plan } => {
            let mut offsets = Vec::with_capacity(plan.len());
            plan.for_each_offset(|offset| offsets.extend(offset));
            let origin = target.as_mut_ptr();
            // Where the latest result for each position is in `results`.
            let mut latest: HashMap<isize, usize> = HashMap::with_capacity(offsets.len());
            let mut results: Vec<T> = Vec::with_capacity(offsets.len());
            for &offset in &offsets {
                let input = match latest.insert(offset, results.len()) {
                    Some(previous) => results[previous].clone(),
                    // SAFETY: the plan was resolved from `target` (`Resolved::new`),
                    // so the offset reaches one of its elements; `target` is
                    // borrowed mutably by this call and by nothing else.
                    None => unsafe { &*origin.offset(offset) }.clone(),
                };
                results.push(f(input));
            }
            for (k, (offset, result)) in offsets.iter().zip(results).enumerate() {
                if latest[offset] == k {
                    // SAFETY: as above; no reference into `target` is live.
                    unsafe { *origin.offset(*offset) = result };
                }
            }
        }
    }
}

/// What an update writes: a view of the target (basic indexing), or the
/// target with an indexed plan resolved from its own shape and strides (the
/// invariant the unsafe scatter relies on).
// Lives on the stack for one call: boxing the plan would cost an allocation.
#[allow(clippy::large_enum_variant)]
enum Resolved<'t, 'i, T> {
    View(ArrayViewMutD<'t, T>),
    Indexed {
        target: ArrayViewMutD<'t, T>,
        plan: IndexedPlan<'i>,
    },
}

impl<'t, 'i, T> Resolved<'t, 'i, T> {
    fn new(target: ArrayViewMutD<'t, T>, index: &'i [IndexElem<'_>], mode: &Mode<T>) -> Result<Self, IndexError> {
        mode.check_for_update()?;
        if let Some(axes) = resolve_basic(index, target.shape()) {
            return Ok(Resolved::View(basic::select(target, &axes)));
        }
        Ok(match resolve(index, target.shape(), target.strides(), mode.bounds())? {
            Plan::View(plan) => Resolved::View(basic::select(target, &plan.axes)),
            Plan::Indexed(plan) => Resolved::Indexed { target, plan },
        })
    }

    /// The shape of the selected region.
    fn shape(&self) -> &[usize] {
        match self {
            Resolved::View(view) => view.shape(),
            Resolved::Indexed { plan, .. } => &plan.shape,
        }
    }

    /// The value broadcast to the selected region.
    fn broadcast<'v>(&self, value: &'v Value<'_, T>) -> Result<Broadcast<'v, T>, IndexError> {
        value.broadcast_to(self.shape())
    }

    /// The value broadcast for `set`: NumPy reports a wrong-length
    /// one-dimensional value for a single mask over every axis as a count.
    fn broadcast_for_set<'v>(&self, value: &'v Value<'_, T>) -> Result<Broadcast<'v, T>, IndexError> {
        self.broadcast(value).map_err(|error| match self {
            Resolved::Indexed { plan, .. } if plan.whole_mask => value.whole_mask_error(plan.len(), error),
            _ => error,
        })
    }

    /// Runs `check` on every value that will be written (skipped positions
    /// excluded), before anything is.
    fn check_operands(&self, values: &Broadcast<'_, T>, mut check: impl FnMut(&T) -> Result<(), IndexError>) -> Result<(), IndexError> {
        match (self, values) {
            (Resolved::View(view), Broadcast::Scalar(v)) => match view.is_empty() {
                true => Ok(()),
                false => check(v),
            },
            (Resolved::View(_), Broadcast::Array { .. }) => values.elements().try_for_each(check),
            (Resolved::Indexed { plan, .. }, _) => {
                let mut values = values.elements();
                let mut result = Ok(());
                plan.for_each_offset(|offset| {
                    let value = values.next().expect("one value per selected position");
                    if offset.is_some() && result.is_ok() {
                        result = check(value);
                    }
                });
                result
            }
        }
    }

    /// `write` for the accumulating operations, on both cores when the
    /// update is one large index array over a contiguous axis: by index
    /// chunks when the operation may be regrouped (`exec::partitioned`),
    /// else by destination when the axis is large (`exec::split`).
    #[cfg_attr(not(feature = "rayon"), allow(unused_variables, unused_mut))]
    fn accumulate<K: Kernel<T> + Copy + Send + Sync>(mut self, op: Op, values: &Broadcast<'_, T>, kernel: K)
    where
        T: Arith,
    {
        #[cfg(feature = "rayon")]
        if let Some((index, axis)) = self.index_and_axis() {
            let done = with_index_slice!(index, index => {
                K::REGROUPS && partitioned::accumulate(axis, index, op, values, kernel) || split_by_destination(axis, index, values, kernel)
            });
            if done {
                return;
            }
        }
        self.write(values, kernel)
    }

    /// `write` with `SetKernel` on every core, split by destination, when
    /// the update is one index array along an axis of stride 1 or a pair of
    /// them into a target in standard layout, and large; `false` (nothing
    /// done) otherwise.
    #[cfg(feature = "rayon")]
    fn set_by_destination(&mut self, values: &Broadcast<'_, T>) -> bool
    where
        T: 'static,
    {
        if let Some((index, axis)) = self.index_and_axis() {
            // Beyond the cache, one thread prefetching its destinations
            // already runs at memory speed (W5: 4.8 ms, split on two
            // threads 4.9-5.5).
            if crate::exec::prefetch::beyond_cache(std::mem::size_of_val(axis)) {
                return false;
            }
            let len = axis.len();
            return with_index_slice!(index, index => {
                split::set_plain(axis, &split::Along { index, len }, values)
            });
        }
        let Resolved::Indexed { target, plan } = self else {
            return false;
        };
        let Some((first, second)) = plan.in_place_pair() else {
            return false;
        };
        let base = plan.base;
        let Some(target) = target
            .as_slice_mut()
            .filter(|_| base >= 0 && first.stride >= 0 && second.stride >= 0)
        else {
            return false;
        };
        with_index_slices!(&first.index, &second.index, (a, b) => {
            // Positions are in bounds: the plan checked every index, and the
            // offsets of a standard-layout target with positive strides
            // count elements of its slice from the first.
            split::set_plain(target, &split::Pairs { first: (a, first), second: (b, second), base }, values)
        })
    }

    /// The index array and the axis it indexes, when the update is one
    /// index array read in place over an axis of stride 1.
    #[cfg(feature = "rayon")]
    fn index_and_axis(&mut self) -> Option<(&IntArray<'i>, &mut [T])> {
        let Resolved::Indexed { target, plan } = self else {
            return None;
        };
        let (index, len, 1) = plan.in_place_index()? else {
            return None;
        };
        // SAFETY: the plan was resolved from `target` (`Resolved::new`): an
        // axis of stride 1 is `len` consecutive elements of it from `base`,
        // and `target` is borrowed by nothing else while the slice lives.
        let axis = unsafe { std::slice::from_raw_parts_mut(target.as_mut_ptr().offset(plan.base), len) };
        Some((index, axis))
    }

    /// Updates every selected element in index order.
    fn write<K: Kernel<T>>(self, values: &Broadcast<'_, T>, kernel: K) {
        match self {
            Resolved::View(view) => scatter::write_view(view, values, kernel),
            // SAFETY: `plan` was resolved from this view's shape and strides (`Resolved::new`).
            Resolved::Indexed { mut target, plan } => unsafe { scatter::write_indexed(&mut target, &plan, values, kernel) },
        }
    }
}

/// `axis[index] op= values` on every core, split by destination, when the
/// axis is large enough to pay; `false` (nothing done) otherwise. Every
/// index is in bounds (resolved).
#[cfg(feature = "rayon")]
fn split_by_destination<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    values: &Broadcast<'_, T>,
    kernel: K,
) -> bool {
    if !split::worth_it_for_sums(axis, index.len()) {
        return false;
    }
    let Some(values) = values.in_order() else {
        return false;
    };
    let along = split::Along { index, len: axis.len() };
    let Ok(()) = split::accumulate::<false, _, _, _>(axis, &along, values, kernel) else {
        unreachable!("an unchecked scan reports no index");
    };
    true
}
