//! `target[index] op= value`, every occurrence in index order: cut among
//! the threads where positions are distinct, an accumulation along a
//! contiguous axis partitioned or split by destination where that pays
//! (the choice [`accumulation`] makes, the checked loop's too), batches one
//! to a task; and `.apply`.

use ndarray::ArrayViewMutD;

use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::basic;
use crate::exec::kernel::Kernel;
#[cfg(threads)]
use crate::exec::scatter;
use crate::index::{IndexElem, IndexInt, with_index_slice};
use crate::mode::AnyMode;
use crate::plan::{Form, Plan};
use crate::prepare::{self, Update};
#[cfg(threads)]
use crate::value::Broadcast;
use crate::value::{InOrder, Value};

#[cfg(threads)]
use super::splits_batches;
use super::{Machine, layout, machine, splits_along, splits_pieces, write};

/// How an accumulation runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Accumulation<T> {
    /// Index chunks into partials from the operation's `identity`, on
    /// `parts` threads (operations that regroup exactly).
    Partitioned { parts: usize, identity: T },
    /// On every thread, split by destination range; destinations
    /// prefetched when `far`.
    ByDestination { far: bool },
    /// On one thread.
    Serial,
}

/// How `updates` updates into a contiguous axis of `len` elements of `T`
/// run, for an operation that regroups exactly from `identity` or not
/// (`None`).
pub(super) fn accumulation<T>(len: usize, updates: usize, identity: Option<T>, machine: &Machine) -> Accumulation<T> {
    let bytes = len * size_of::<T>();
    if let Some(identity) = identity
        && let Some(parts) = machine.partitions(len, updates)
    {
        return Accumulation::Partitioned { parts, identity };
    }
    if machine.sums_split(bytes, len, updates) {
        return Accumulation::ByDestination {
            far: machine::beyond_cache(bytes),
        };
    }
    Accumulation::Serial
}

/// The identity the updates of `K` regroup from, when they do.
pub(super) fn regrouping_identity<T: Arith, K: Kernel<T>>(op: Op) -> Option<T> {
    if K::REGROUPS { T::regrouping_identity(op) } else { None }
}

/// How an update runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum UpdateStrategy<T> {
    /// A view cut into one piece per thread: its positions are distinct.
    SplitView,
    /// An `along` plan cut along the region's first axis, one piece per
    /// thread.
    SplitAlong,
    /// An indexed plan cut into one piece per thread (by destination where
    /// its table leads, else along its longest strided dim:
    /// `exec/parallel/pieces.rs`); destinations prefetched when `far`.
    SplitIndexed { far: bool },
    /// One index array along an axis of stride 1, with values in C order,
    /// on several threads as the accumulation says (never
    /// [`Accumulation::Serial`]).
    Accumulate(Accumulation<T>),
    /// On one thread; destinations prefetched when `far`.
    Serial { far: bool },
}

fn update_strategy<T: Arith, K: Kernel<T>>(
    target: &ArrayViewMutD<'_, T>,
    Update { plan, values }: &Update<'_, '_, T>,
    op: Op,
    machine: &Machine,
) -> UpdateStrategy<T> {
    let far = machine::beyond_cache(target.len() * size_of::<T>());
    let indexed = match plan {
        Plan::View(view) => {
            return match machine.splits(view.shape.iter().product()) {
                true => UpdateStrategy::SplitView,
                false => UpdateStrategy::Serial { far },
            };
        }
        Plan::Indexed(indexed) => indexed,
    };
    if splits_along(indexed, machine) && values.in_order().is_some() {
        return UpdateStrategy::SplitAlong;
    }
    if splits_pieces(indexed, machine) {
        return UpdateStrategy::SplitIndexed { far };
    }
    if let Form::Index(axis) = indexed.form()
        && axis.stride == 1
        && values.in_order().is_some()
    {
        let accumulation = accumulation(axis.len, indexed.len(), regrouping_identity::<T, K>(op), machine);
        if accumulation != Accumulation::Serial {
            return UpdateStrategy::Accumulate(accumulation);
        }
    }
    UpdateStrategy::Serial { far }
}

/// `target[index] op= value`, every occurrence in index order.
pub(crate) fn update<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    target: ArrayViewMutD<'_, T>,
    index: &[IndexElem<'_>],
    op: Op,
    mode: &AnyMode<T>,
    value: &Value<'_, T>,
    kernel: K,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    let update = prepare::update_with(index, layout(&target), op, mode, value, &machine.passes())?;
    run_update(target, update, op, kernel, &machine);
    Ok(())
}

/// Applies a prepared update to `target`, the view it was prepared on.
pub(crate) fn run_update<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    mut target: ArrayViewMutD<'_, T>,
    update: Update<'_, '_, T>,
    op: Op,
    kernel: K,
    machine: &Machine,
) {
    let strategy = update_strategy::<T, K>(&target, &update, op, machine);
    let Update { plan, values } = update;
    match strategy {
        #[cfg(threads)]
        UpdateStrategy::SplitView => {
            let Plan::View(view) = &plan else {
                unreachable!("the strategy saw a view")
            };
            // A view's positions are distinct: one piece a thread.
            let write = |piece: ArrayViewMutD<'_, T>, values: &Broadcast<'_, T>| scatter::write_view(piece, values, kernel);
            crate::exec::parallel::view::split_write(basic::select(target, &view.axes), &values, machine.threads, &write);
        }
        #[cfg(threads)]
        UpdateStrategy::SplitAlong => {
            let (Plan::Indexed(indexed), Some(in_order)) = (&plan, values.in_order()) else {
                unreachable!("the strategy saw an indexed plan and values in C order")
            };
            let Form::Along(along) = indexed.form() else {
                unreachable!("the strategy saw an `along` plan")
            };
            // SAFETY: the plan was resolved from this target's layout (by the
            // caller's `prepare`), a mutable view's, whose elements do not
            // overlap, and `splits_along` saw its first axis neither picked nor
            // broadcast; the target is borrowed for the call.
            unsafe { crate::exec::parallel::pieces::write_along(target.as_mut_ptr(), indexed, along, in_order, kernel, machine.threads) };
        }
        #[cfg(threads)]
        UpdateStrategy::SplitIndexed { far } => {
            let Plan::Indexed(indexed) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            // SAFETY: the plan was resolved from this target's layout (by the
            // caller's `prepare`), a mutable view's, whose elements do not
            // overlap; the target is borrowed for the call.
            let done = unsafe {
                crate::exec::parallel::pieces::write_indexed(target.as_mut_ptr(), indexed, &values, kernel, (machine.threads, far))
            };
            assert!(done, "the strategy saw a strided dim");
        }
        #[cfg(not(threads))]
        UpdateStrategy::SplitView | UpdateStrategy::SplitAlong | UpdateStrategy::SplitIndexed { .. } => {
            unreachable!("one thread splits nothing")
        }
        UpdateStrategy::Accumulate(accumulation) => {
            let (Plan::Indexed(indexed), Some(in_order)) = (&plan, values.in_order()) else {
                unreachable!("the strategy saw an indexed plan and values in C order")
            };
            let Form::Index(axis) = indexed.form() else {
                unreachable!("the strategy saw one index array")
            };
            // SAFETY: the plan was resolved from this target (above): an
            // axis of stride 1 is `len` consecutive elements of it from
            // `base`, borrowed by nothing else while the slice lives.
            let elements = unsafe { std::slice::from_raw_parts_mut(target.as_mut_ptr().offset(indexed.base), axis.len) };
            with_index_slice!(&axis.index, index => {
                // SAFETY: the planner checked every index in bounds.
                unsafe { accumulate_in_bounds(elements, index, in_order, kernel, accumulation, machine) };
            });
        }
        // SAFETY: the plan was resolved from this target's layout (above).
        UpdateStrategy::Serial { far } => unsafe { write(target, plan, &values, kernel, far) },
    }
}

/// Combines each prepared update into its view by `op` (as
/// [`super::run_set_batches`] writes sets), through `kernel`.
pub(crate) fn run_update_batches<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    batches: Vec<(ArrayViewMutD<'_, T>, Update<'_, '_, T>)>,
    op: Op,
    kernel: K,
    machine: &Machine,
) {
    #[cfg(threads)]
    if splits_batches(&batches, machine) {
        crate::exec::parallel::for_each_piece(batches, &|(target, update)| run_update(target, update, op, kernel, machine));
        return;
    }
    for (target, update) in batches {
        run_update(target, update, op, kernel, machine);
    }
}

/// `axis[index] op= values` on several threads as `accumulation` says.
///
/// # Safety
///
/// Every index is in bounds of `axis`.
unsafe fn accumulate_in_bounds<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    accumulation: Accumulation<T>,
    machine: &Machine,
) {
    match accumulation {
        #[cfg(threads)]
        Accumulation::Partitioned { parts, identity } => {
            // SAFETY: the caller's guarantee.
            unsafe { crate::exec::parallel::partitioned::accumulate_in_bounds(axis, index, identity, values, kernel, parts, machine.isa) }
        }
        #[cfg(threads)]
        Accumulation::ByDestination { far } => {
            let Ok(()) = by_destination::<false, _, _, _>(axis, index, values, kernel, machine, far) else {
                unreachable!("an unchecked scan reports no index");
            };
        }
        // SAFETY: the caller's guarantee.
        _ => unsafe { crate::exec::indexed::apply_in_bounds(axis, index, values, kernel, machine.isa) },
    }
}

/// `axis[index] op= values` on every thread, split by destination range,
/// destinations prefetched when `far`; with `CHECKED`, each index checked
/// and the first bad one returned (an unchecked bad index lands in no range
/// and is skipped).
#[cfg(threads)]
pub(super) fn by_destination<const CHECKED: bool, T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    machine: &Machine,
    far: bool,
) -> Result<(), I> {
    use crate::exec::parallel::split::{self, Along};
    let along = Along {
        index,
        len: axis.len(),
        isa: machine.isa,
    };
    split::accumulate::<CHECKED, _, _, _>(axis, &along, values, kernel, (machine.threads, far))
}

/// `.apply(f)` on `target[index]`, the target unchanged if `f` panics.
pub(crate) fn apply<T: Clone>(
    mut target: ArrayViewMutD<'_, T>,
    index: &[IndexElem<'_>],
    mode: &AnyMode<T>,
    f: impl FnMut(T) -> T,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    let plan = prepare::apply_with(index, layout(&target), mode, &machine.passes())?;
    let applied = match &plan {
        Plan::View(view) => crate::exec::apply::apply_view(basic::select(target, &view.axes), f),
        // SAFETY: the plan was resolved from this target's layout (above).
        Plan::Indexed(indexed) => unsafe { crate::exec::apply::apply_offsets(&mut target, indexed, f) },
    };
    // Scratch memory cannot hold is an error, before anything is written.
    match applied {
        true => Ok(()),
        false => Err(prepare::too_large(plan.shape())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choose::rows::RowStores;
    use crate::exec::sys::cpu::Isa;

    #[test]
    fn accumulations_partition_regrouping_operations_and_split_large_sums() {
        let machine = Machine {
            threads: 1,
            isa: Isa::baseline(),
            l2: None,
            rows: RowStores::Streamed,
            plain_fills: false,
        };
        assert_eq!(accumulation::<f32>(1000, 1000, None, &machine), Accumulation::Serial);
        let two = Machine { threads: 2, ..machine };
        let partitioned = Accumulation::Partitioned {
            parts: 2,
            identity: f32::NEG_INFINITY,
        };
        // Without the thread paths (no rayon, or unoptimized) every
        // accumulation is serial, whatever the threads.
        let threaded = cfg!(threads);
        let expected = if threaded { partitioned } else { Accumulation::Serial };
        assert_eq!(accumulation(1000, 1 << 17, Some(f32::NEG_INFINITY), &two), expected);
        // A sum that does not regroup exactly, into a target of 64 MB: out
        // of the cache, split by destination (prefetching); into a target
        // of 4 MB whose halves do not fit half an L2 of 1 MB, on one thread.
        let with_l2 = Machine { l2: Some(1 << 20), ..two };
        let split = if threaded {
            Accumulation::ByDestination { far: true }
        } else {
            Accumulation::Serial
        };
        assert_eq!(accumulation::<f32>(16 << 20, 1 << 17, None, &with_l2), split);
        assert_eq!(accumulation::<f32>(1 << 20, 1 << 17, None, &with_l2), Accumulation::Serial);
    }
}
