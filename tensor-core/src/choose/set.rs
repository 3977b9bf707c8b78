//! `target[index] = value`: streamed past the cache when large, cut among
//! the threads or split by destination when that pays, and batches of sets
//! one to a task.

use ndarray::ArrayViewMutD;

#[cfg(threads)]
use crate::element::Bits;
use crate::element::Plain;
use crate::error::IndexError;
#[cfg(threads)]
use crate::exec::basic;
use crate::exec::kernel::{SetKernel, Streaming};
use crate::exec::scatter;
use crate::exec::sys::stream::Fence;
use crate::index::IndexElem;
#[cfg(threads)]
use crate::index::with_index_slice;
use crate::mode::AnyMode;
use crate::plan::{Form, IndexedPlan, Plan, ViewAxis};
use crate::prepare::{self, Update};
use crate::value::{Broadcast, InOrder, Value};

#[cfg(threads)]
use super::bits::{by_width, in_order_bits, values_bits};
use super::machine::{self, Destinations, STREAM_FROM, STREAM_ROWS_FROM};
use super::rows::{self, RowStores};
#[cfg(threads)]
use super::splits_batches;
use super::{Machine, layout, splits_along, splits_pieces, write};

/// The streaming stores of a large `set` on this machine, or `None` (plain
/// stores) when the elements are not plain numbers.
fn streaming<'f, T>(fence: &'f Fence, machine: &Machine, every_other: bool) -> Option<Streaming<'f, T>> {
    let plain = Plain::<T>::of()?;
    Some(Streaming {
        plain,
        isa: machine.isa,
        fence,
        min_row: STREAM_ROWS_FROM.div_ceil(size_of::<T>()),
        min_fill: STREAM_FROM.div_ceil(size_of::<T>()),
        every_other,
    })
}

/// Whether a view's lanes step by 2 along the target's own contiguous
/// lanes: its last axis the target's last, of stride 1, sliced by 2. The
/// elements between a lane's are then the target's, which the update
/// borrows, and lie in no other lane's span (the target's lanes are
/// disjoint runs), whichever thread writes which lane.
fn steps_by_two_along_runs<T>(target: &ArrayViewMutD<'_, T>, plan: &Plan<'_>) -> bool {
    let Plan::View(view) = plan else {
        return false;
    };
    target.strides().last() == Some(&1) && matches!(view.axes.last(), Some(ViewAxis::Slice { step: 2, .. }))
}

/// How a `set` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetStrategy {
    /// On every thread, split by destination range; destinations
    /// prefetched when `far`.
    ByDestination { far: bool },
    /// A view cut into one piece per thread, as the bits of plain numbers;
    /// streaming stores when `stream`.
    SplitView { stream: bool },
    /// An indexed plan cut into one piece per thread (by destination where
    /// its table leads, else along its longest strided dim:
    /// `exec/parallel/pieces.rs`), as the bits of plain numbers;
    /// destinations prefetched when `far`.
    SplitIndexed { far: bool },
    /// An `along` plan cut along the region's first axis, one piece per
    /// thread, as the bits of plain numbers.
    SplitAlong,
    /// On one thread; streaming stores when `stream`, destinations
    /// prefetched when `far`.
    Serial { stream: bool, far: bool },
    /// A row scatter from a source in C order on one thread, measuring
    /// which stores its rows faster ([`rows::measure`]).
    MeasureRows,
}

/// Whether a `set` of `region` bytes streams past the cache, as
/// [`Machine::streams_set`] says for the plan's destinations and the
/// values' source (docs/performance.md, "Streaming stores for large fills
/// and row copies").
fn streams_set<T>(plan: &Plan<'_>, values: &Broadcast<'_, T>, region: usize, target_bytes: usize, machine: &Machine) -> bool {
    machine.streams_set(destinations(plan), from_source(values), region, target_bytes)
}

/// The index and row length of a row scatter's plan.
fn rows_of<'p, 'i>(plan: &'p Plan<'i>) -> Option<(&'p crate::plan::AxisIndex<'i>, usize)> {
    match plan {
        Plan::Indexed(plan) => plan.index_rows(),
        Plan::View(_) => None,
    }
}

/// Whether the values come from a source in the region's C order.
fn from_source<T>(values: &Broadcast<'_, T>) -> bool {
    matches!(values.in_order(), Some(InOrder::Slice(_)))
}

/// Where a `set`'s streaming stores could reach, as far as its plan says.
fn destinations(plan: &Plan<'_>) -> Destinations {
    match plan {
        Plan::View(_) => Destinations::Distinct,
        Plan::Indexed(_) if rows_of(plan).is_some() => Destinations::Rows,
        Plan::Indexed(_) => Destinations::Other,
    }
}

fn set_strategy<T>(target: &ArrayViewMutD<'_, T>, plan: &Plan<'_>, values: &Broadcast<'_, T>, machine: &Machine) -> SetStrategy {
    // (Saturating: a broadcast index may select more bytes than there are
    // addresses, each position a write.)
    let region = plan.shape().iter().product::<usize>().saturating_mul(size_of::<T>());
    let target_bytes = target.len() * size_of::<T>();
    let row_bytes = rows_of(plan).map_or(0, |(_, row)| row * size_of::<T>());
    if machine.measures_rows(destinations(plan), from_source(values), region, row_bytes, target_bytes) && Plain::<T>::of().is_some() {
        return SetStrategy::MeasureRows;
    }
    let stream = streams_set(plan, values, region, target_bytes, machine);
    let far = machine::beyond_cache(target_bytes);
    let serial = SetStrategy::Serial { stream, far };
    let Plan::Indexed(plan) = plan else {
        return match machine.splits(region / size_of::<T>().max(1)) && Plain::<T>::of().is_some() {
            // Each piece streams where one thread would (a broadcast row
            // beyond the cache too: plain stores from two threads beat
            // streaming on one machine and lost to one thread on another;
            // docs/performance.md).
            true => SetStrategy::SplitView { stream },
            false => serial,
        };
    };
    if !machine.splits(plan.len()) || Plain::<T>::of().is_none() {
        return serial;
    }
    if splits_pieces(plan, machine) {
        return SetStrategy::SplitIndexed { far };
    }
    if values.in_order().is_none() {
        return serial;
    }
    if splits_along(plan, machine) {
        return SetStrategy::SplitAlong;
    }
    match plan.form() {
        // At any size: beyond the cache too, where each thread prefetches
        // its own destinations and two keep twice the misses in flight
        // (docs/performance.md, "Splitting by destination: float sums, sets,
        // pairs").
        Form::Index(axis) if axis.stride == 1 => match machine.splits_by_destination(axis.len * size_of::<T>(), axis.len, plan.len()) {
            true => SetStrategy::ByDestination { far },
            false => serial,
        },
        Form::Pair(first, second)
            if target.is_standard_layout()
                && plan.base >= 0
                && first.stride >= 0
                && second.stride >= 0
                && machine.splits_by_destination(target_bytes, target.len(), plan.len()) =>
        {
            SetStrategy::ByDestination { far }
        }
        // Rows stored plainly.
        Form::IndexRows { row, .. }
            if !stream
                && target.is_standard_layout()
                && rows_from_first_element(plan).is_some()
                && machine::splits_rows(row * size_of::<T>()) =>
        {
            SetStrategy::ByDestination { far }
        }
        _ => serial,
    }
}

/// The index and row length of a row scatter whose rows lie one after
/// another from the target's first element (`x[rows]` on a matrix in C
/// order): the rows a split by destination cuts into blocks.
fn rows_from_first_element<'p, 'i>(plan: &'p IndexedPlan<'i>) -> Option<(&'p crate::plan::AxisIndex<'i>, usize)> {
    plan.index_rows()
        .filter(|&(index, row)| plan.base == 0 && index.stride == row as isize)
}

/// `target[index] = value`.
pub(crate) fn set<T: Clone>(
    target: ArrayViewMutD<'_, T>,
    index: &[IndexElem<'_>],
    mode: &AnyMode<T>,
    value: &Value<'_, T>,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    let update = prepare::set_with(index, layout(&target), mode, value, &machine.passes())?;
    run_set(target, update, &machine);
    Ok(())
}

/// Writes each prepared `set` into its view, the view it was prepared on
/// (`; batch = k`: views of distinct elements): one view to a task on
/// every thread when there are several and they hold many plain numbers
/// to write, else one after another. Each runs as [`run_set`] would, so
/// the result is the same.
pub(crate) fn run_set_batches<T: Clone>(batches: Vec<(ArrayViewMutD<'_, T>, Update<'_, '_, T>)>, machine: &Machine) {
    #[cfg(threads)]
    if let Some(plain) = Plain::<T>::of()
        && splits_batches(&batches, machine)
    {
        match plain.width() {
            crate::element::Width::Bits32 => set_batches_on_threads::<T, u32>(plain, batches, machine),
            crate::element::Width::Bits64 => set_batches_on_threads::<T, u64>(plain, batches, machine),
        }
        return;
    }
    for (target, update) in batches {
        run_set(target, update, machine);
    }
}

/// [`run_set_batches`] on every thread, on the bits `B` of the plain
/// elements (which cross threads whatever bounds `T` carries).
#[cfg(threads)]
fn set_batches_on_threads<T, B: Bits>(plain: Plain<T>, batches: Vec<(ArrayViewMutD<'_, T>, Update<'_, '_, T>)>, machine: &Machine) {
    let batches: Vec<_> = batches
        .into_iter()
        .map(|(target, Update { plan, values })| {
            let target = plain.view_bits_mut::<B>(target).expect("one width");
            let values = values_bits(plain, &values);
            (target, Update { plan, values })
        })
        .collect();
    crate::exec::parallel::for_each_piece(batches, &|(target, update)| run_set(target, update, machine));
}

/// Writes a prepared `set` into `target`, the view it was prepared on.
#[cfg_attr(not(threads), allow(unused_mut))] // split by destination
pub(crate) fn run_set<T: Clone>(mut target: ArrayViewMutD<'_, T>, Update { plan, values }: Update<'_, '_, T>, machine: &Machine) {
    match set_strategy(&target, &plan, &values, machine) {
        #[cfg(threads)]
        SetStrategy::ByDestination { far } => {
            let Plan::Indexed(plan) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            // SAFETY: the plan was resolved from this target's layout (above).
            let done = unsafe { set_by_destination::<T, u32>(&mut target, plan, &values, machine, far) } || {
                // SAFETY: as for the 32-bit call.
                unsafe { set_by_destination::<T, u64>(&mut target, plan, &values, machine, far) }
            };
            assert!(done, "the strategy saw plain numbers in C order");
        }
        #[cfg(threads)]
        SetStrategy::SplitView { stream } => {
            let every_other = steps_by_two_along_runs(&target, &plan);
            let Plan::View(plan) = plan else {
                unreachable!("the strategy saw a view")
            };
            let view = basic::select(target, &plan.axes);
            let done = by_width!(T, split_set(view, &values, (stream, every_other), machine));
            assert!(done, "the strategy saw plain numbers");
        }
        #[cfg(threads)]
        SetStrategy::SplitIndexed { far } => {
            let Plan::Indexed(plan) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            // SAFETY: the plan was resolved from this target's layout (by the
            // caller's `prepare`), a mutable view's, whose elements do not
            // overlap.
            let done = unsafe { by_width!(T, split_indexed_set(target, plan, &values, machine, far)) };
            assert!(done, "the strategy saw plain numbers and a strided dim");
        }
        #[cfg(threads)]
        SetStrategy::SplitAlong => {
            let Plan::Indexed(plan) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            // SAFETY: the plan was resolved from this target's layout (by the
            // caller's `prepare`), a mutable view's, whose elements do not
            // overlap, and the strategy saw its first axis neither picked nor
            // broadcast.
            let done = unsafe { by_width!(T, split_along_set(target, plan, &values, machine)) };
            assert!(done, "the strategy saw plain numbers in C order");
        }
        #[cfg(not(threads))]
        SetStrategy::ByDestination { .. } | SetStrategy::SplitView { .. } | SetStrategy::SplitIndexed { .. } | SetStrategy::SplitAlong => {
            unreachable!("one thread splits nothing")
        }
        SetStrategy::MeasureRows => {
            let (Plan::Indexed(plan), Some(InOrder::Slice(values))) = (&plan, values.in_order()) else {
                unreachable!("the strategy saw an indexed plan and values in C order")
            };
            let Some((index, row)) = plan.index_rows() else {
                unreachable!("the strategy saw a row scatter")
            };
            let origin = target.as_mut_ptr();
            rows::measure(index.count(), |places, stores| {
                // Dropped after each turn: a turn writes after the streamed
                // stores of the turn before have landed.
                let fence = Fence;
                let streamed = (stores == RowStores::Streamed).then(|| streaming(&fence, machine, false)).flatten();
                let mut kernel = match streamed {
                    // SAFETY: the turn runs on this thread and returns before
                    // `fence` drops; nothing reads the target before then; the
                    // row scatter orders a row it meets again.
                    Some(streaming) => unsafe { SetKernel::streaming(streaming) },
                    None => SetKernel::new(),
                };
                // SAFETY: the plan was resolved from this target's layout (by
                // the caller's `prepare`), a row scatter's; the target is
                // borrowed for the call.
                unsafe { scatter::scatter_rows(origin, plan.base, index, row, values, &mut kernel, places) };
            });
        }
        SetStrategy::Serial { stream, far } => {
            // Dropped after the write: it orders the streaming stores.
            let fence = stream.then_some(Fence);
            let every_other = steps_by_two_along_runs(&target, &plan);
            let kernel = match fence.as_ref().and_then(|fence| streaming(fence, machine, every_other)) {
                // SAFETY: the write below runs on this thread and returns
                // before `fence` drops here; nothing reads the target before
                // then; the strategy streams only the distinct positions of a
                // view, or the rows of a row scatter, which orders a row it
                // meets again; the elements between a lane's are the
                // target's own where `every_other` says so.
                Some(streaming) => unsafe { SetKernel::streaming(streaming) },
                None => SetKernel::new(),
            };
            // SAFETY: the plan was resolved from this target's layout (by
            // the caller's `prepare`).
            unsafe { write(target, plan, &values, kernel, far) };
        }
    }
}

/// The `set` of a view on every thread, one piece each, on the bits `B` of
/// the plain elements, streamed when `stream`, every other element of a
/// lane set by whole lines when `every_other` (see [`Streaming`]); `false`
/// (nothing done) when `B` is not their width.
#[cfg(threads)]
fn split_set<T, B: Bits>(
    view: ArrayViewMutD<'_, T>,
    values: &Broadcast<'_, T>,
    (stream, every_other): (bool, bool),
    machine: &Machine,
) -> bool {
    let Some(plain) = Plain::<T>::of() else {
        return false;
    };
    let Some(view) = plain.view_bits_mut::<B>(view) else {
        return false;
    };
    let write = |piece: ArrayViewMutD<'_, B>, values: &Broadcast<'_, B>| {
        // Dropped after the piece's write, on the thread that made it.
        let fence = stream.then_some(Fence);
        let kernel = match fence.as_ref().and_then(|fence| streaming(fence, machine, every_other)) {
            // SAFETY: this thread writes its piece of a view (distinct
            // positions, each once) and drops `fence` after; nothing reads
            // the target before the split returns; it writes the elements
            // between a lane's only where they are the target's own
            // (`every_other`), in no other lane's span.
            Some(streaming) => unsafe { SetKernel::streaming(streaming) },
            None => SetKernel::new(),
        };
        scatter::write_view(piece, values, kernel);
    };
    crate::exec::parallel::view::split_write(view, &values_bits(plain, values), machine.threads, &write);
    true
}

/// The `set` of an indexed plan on every thread, cut into pieces
/// (`exec::parallel::pieces`), on the bits `B` of the plain elements, destinations
/// prefetched when `far`; `false` (nothing done) when `B` is not their
/// width or the plan has no strided dim.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout.
#[cfg(threads)]
unsafe fn split_indexed_set<T, B: Bits>(
    target: ArrayViewMutD<'_, T>,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    machine: &Machine,
    far: bool,
) -> bool {
    let Some(plain) = Plain::<T>::of() else {
        return false;
    };
    let Some(mut target) = plain.view_bits_mut::<B>(target) else {
        return false;
    };
    let origin = target.as_mut_ptr();
    let values = values_bits(plain, values);
    // SAFETY: the plan was resolved from the target's layout (the caller's
    // guarantee), which its bits share; the target is borrowed for the call.
    unsafe { crate::exec::parallel::pieces::write_indexed(origin, plan, &values, SetKernel::new(), (machine.threads, far)) }
}

/// The `set` of an `along` plan on every thread, cut along the region's
/// first axis, on the bits `B` of the plain elements; `false` (nothing
/// done) when `B` is not their width, the plan is not an `along` one, or
/// the values are not in the region's C order.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout, and the region's first
/// axis is neither the picked axis nor broadcast over the target.
#[cfg(threads)]
unsafe fn split_along_set<T, B: Bits>(
    target: ArrayViewMutD<'_, T>,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    machine: &Machine,
) -> bool {
    let (Some(plain), Form::Along(along), Some(in_order)) = (Plain::<T>::of(), plan.form(), values.in_order()) else {
        return false;
    };
    let Some(mut target) = plain.view_bits_mut::<B>(target) else {
        return false;
    };
    let in_order = in_order_bits(plain, in_order);
    // SAFETY: the caller's guarantees; the bits share the target's layout,
    // and the target is borrowed for the call.
    unsafe { crate::exec::parallel::pieces::write_along(target.as_mut_ptr(), plan, along, in_order, SetKernel::new(), machine.threads) };
    true
}

/// The `set` of `plan` on every thread, split by destination, on the bits
/// `B` of the plain elements, destinations prefetched when `far`; `false`
/// (nothing done) when `B` is not their width, or the plan is neither one
/// index array along an axis of stride 1, nor one picking the rows of a
/// target in standard layout from its first element, nor a pair into a
/// target in standard layout.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout.
#[cfg(threads)]
unsafe fn set_by_destination<T, B: Bits>(
    target: &mut ArrayViewMutD<'_, T>,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    machine: &Machine,
    far: bool,
) -> bool {
    use crate::exec::parallel::split::{self, Along, Pairs};
    use crate::index::with_index_slices;
    let Some(plain) = Plain::<T>::of().filter(|plain| plain.width() == B::WIDTH) else {
        return false;
    };
    let values = in_order_bits::<T, B>(plain, values.in_order().expect("the strategy saw values in C order"));
    match plan.form() {
        Form::Index(axis) if axis.stride == 1 => {
            // SAFETY: the plan was resolved from `target` (the caller's
            // guarantee): an axis of stride 1 is `len` consecutive elements
            // of it from `base`, borrowed by nothing else while the slice
            // lives.
            let axis_elements = unsafe { std::slice::from_raw_parts_mut(target.as_mut_ptr().offset(plan.base), axis.len) };
            let bits = plain.bits_mut::<B>(axis_elements).expect("one width");
            with_index_slice!(&axis.index, index => {
                let along = Along { index, len: axis.len, isa: machine.isa };
                let Ok(()) = split::accumulate::<false, _, _, _>(bits, &along, values, SetKernel::new(), (machine.threads, far)) else {
                    unreachable!("an unchecked scan reports no index");
                };
            });
        }
        Form::IndexRows { .. } => {
            let (Some((axis, row)), Some(elements)) = (rows_from_first_element(plan), target.as_slice_mut()) else {
                return false;
            };
            // The plan was resolved from `target`: its rows are the first
            // `len * row` elements of a standard-layout target.
            let bits = plain.bits_mut::<B>(&mut elements[..axis.len * row]).expect("one width");
            with_index_slice!(&axis.index, index => split::set_rows(bits, index, row, values, machine.threads));
        }
        Form::Pair(first, second) if plan.base >= 0 && first.stride >= 0 && second.stride >= 0 => {
            let Some(elements) = target.as_slice_mut() else {
                return false;
            };
            let bits = plain.bits_mut::<B>(elements).expect("one width");
            with_index_slices!(&first.index, &second.index, (a, b) => {
                // Positions are in bounds: the planner checked every index,
                // and the offsets of a standard-layout target with positive
                // strides count elements of its slice from the first.
                let pairs = Pairs { first: (a, first), second: (b, second), base: plan.base };
                let Ok(()) = split::accumulate::<false, _, _, _>(bits, &pairs, values, SetKernel::new(), (machine.threads, far));
            });
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, IxDyn, s};

    use super::steps_by_two_along_runs;
    use crate::plan::{Plan, ViewAxis, ViewPlan};

    fn view(axes: Vec<ViewAxis>) -> Plan<'static> {
        Plan::View(ViewPlan { axes, shape: Vec::new() })
    }

    /// Whole lines are written only where the elements between a lane's
    /// are the target's own: its last axis, of stride 1, sliced by 2.
    #[test]
    fn only_lanes_stepping_by_two_along_the_targets_runs_write_whole_lines() {
        let mut x = ArrayD::<f32>::zeros(IxDyn(&[4, 8]));
        let by_two = ViewAxis::Slice { first: 1, len: 4, step: 2 };
        let rows = ViewAxis::whole(4);
        assert!(steps_by_two_along_runs(&x.view_mut(), &view(vec![rows, by_two])));
        for other in [
            vec![rows, ViewAxis::Select(1)],
            vec![rows, by_two, ViewAxis::NewAxis],
            vec![rows, ViewAxis::Slice { first: 0, len: 3, step: 3 }],
            vec![
                rows,
                ViewAxis::Slice {
                    first: 7,
                    len: 4,
                    step: -2,
                },
            ],
        ] {
            assert!(!steps_by_two_along_runs(&x.view_mut(), &view(other.clone())), "{other:?}");
        }
        // A target whose own last axis steps by 2 (the elements between
        // are not its own), and a transposed one.
        let by_two_of_four = ViewAxis::Slice { first: 0, len: 2, step: 2 };
        assert!(!steps_by_two_along_runs(
            &x.slice_mut(s![.., ..;2]).into_dyn(),
            &view(vec![rows, by_two_of_four])
        ));
        let transposed = x.view_mut().reversed_axes();
        assert!(!steps_by_two_along_runs(
            &transposed,
            &view(vec![ViewAxis::whole(8), ViewAxis::Slice { first: 0, len: 2, step: 2 }])
        ));
    }
}
