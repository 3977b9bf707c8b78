//! The chooser: how the CPU runs a prepared read or update, as tensor-gpu's
//! `write_auto` picks its kernels. Each public entry reads the machine once
//! ([`Machine::now`]) and passes it down; each family's `*_strategy`
//! function decides, after every check, and the function beside it runs
//! what it decided, handing the executor what it needs (threads,
//! instruction set, whether to stream or prefetch) as arguments.
//!
//! - `machine`: [`Machine`], the thresholds and the predicates on them:
//!   the only code that reads threads, cache sizes and CPU features.
//! - `rows`: how a row scatter stores its rows, measured once per process.
//! - `read`: gathers, mask gathers, reads into an existing array.
//! - `set`: `target[index] = value`, batches of them.
//! - `update`: `target[index] op= value` (and the choice of an
//!   accumulation's threads), batches of them, `.apply`.
//! - `mask`: the mask sugar's passes, on every thread where they split.
//! - `few`: accumulations into a vector whose indices are checked in the
//!   loop that applies them, and the writes of a few indices.
//! - `bits`: the plain numbers behind an element type, as their bits or
//!   their arithmetic type, for the passes that cross threads.
//!
//! Here: what several families share (a view's layout, the small regions
//! written in place, the cuts of indexed writes among threads, the serial
//! write).
//!
//! Every path gives the same result, bit for bit; the thresholds are
//! measured (docs/performance.md).

use ndarray::{ArrayViewMutD, IxDyn};

use crate::exec::basic::{self, Region};
use crate::exec::kernel::Kernel;
use crate::exec::scatter;
use crate::plan::{Form, IndexedPlan, Plan};
use crate::prepare::Layout;
#[cfg(threads)]
use crate::prepare::Update;
use crate::value::Broadcast;

#[cfg(threads)]
mod bits;
mod few;
mod machine;
#[cfg(feature = "forced-machine")]
pub use machine::forced;
mod mask;
mod read;
mod rows;
mod set;
mod single;
mod update;

pub(crate) use few::{Few, apply_few, set_few, set_listed, update_checked_in_loop, update_few, update_listed};
pub(crate) use machine::{FEW_ROWS, Machine, few_rows};
#[cfg(all(threads, share_generics))]
pub(crate) use mask::where_splits;
pub(crate) use mask::{SetWhereSplit, UpdateWhereSplit, WhereSplit, write_slice_where};
pub(crate) use read::{read, read_into, run_read_into};
pub(crate) use set::{run_set_batches, set};
pub(crate) use single::{Rows, fills, read_masked, read_rows, read_shape, set_masked, set_rows, update_masked, update_rows};
pub(crate) use update::{apply, run_update_batches, update};

/// The layout of a view.
fn layout<'a, T, S: ndarray::RawData<Elem = T>>(view: &'a ndarray::ArrayBase<S, IxDyn>) -> Layout<'a> {
    Layout {
        shape: view.shape(),
        strides: view.strides(),
    }
}

/// A scalar written by `write` directly into the region of a basic index
/// whose view axes `each_axis` hands over (given the target's shape), when
/// it selects at most [`machine::SMALL_REGION`] elements: whether it wrote
/// (nothing is written for a larger region, an index that is not basic or
/// one that fails). The target keeps its own (static) dimension type: no
/// dynamic shapes are built.
#[inline]
pub(crate) fn small_region_in_place<T, D: ndarray::Dimension>(
    target: ndarray::ArrayViewMut<'_, T, D>,
    each_axis: impl FnOnce(&[usize], &[isize], &mut Region) -> Option<usize>,
    write: impl FnMut(&mut T),
) -> bool {
    let mut region = Region::new();
    each_axis(target.shape(), target.strides(), &mut region).is_some() && region.write(target, machine::SMALL_REGION, write)
}

/// [`small_region_in_place`] for an array value: `write` is given each
/// element of the region with the value's element at the same position,
/// when the value (`values`, in C order) has exactly the region's `shape`
/// (the general path broadcasts the others, and names their errors).
#[inline]
pub(crate) fn small_region_from<T, D: ndarray::Dimension>(
    target: ndarray::ArrayViewMut<'_, T, D>,
    each_axis: impl FnOnce(&[usize], &[isize], &mut Region) -> Option<usize>,
    shape: &[usize],
    values: &[T],
    write: impl FnMut(&mut T, &T),
) -> bool {
    let mut region = Region::new();
    if each_axis(target.shape(), target.strides(), &mut region).is_none() || region.shape(target.shape(), target.strides()) != Some(shape) {
        return false;
    }
    region.write_from(target, machine::SMALL_REGION, values, write)
}

/// Whether an indexed write of `plan` is cut into pieces, one a thread
/// (`exec::parallel::pieces`: by destination where its table leads and
/// holds many entries, else along its longest strided dim): a general plan
/// (the others have loops of their own) whose longest strided dim is long
/// enough that two threads seldom write into one cache line. (Cut by
/// destination, each entry's positions span that dim too: a table whose
/// entries select short runs stays on one thread.)
fn splits_pieces(plan: &IndexedPlan<'_>, machine: &Machine) -> bool {
    matches!(plan.form(), Form::General)
        && machine.splits(plan.len())
        && plan.longest_strided().is_some_and(|(_, _, len)| machine.cuts_pieces(len))
}

/// Whether an `along` write of `plan` is cut into pieces of the region's
/// first axis, one a thread: when that axis is neither the picked axis nor
/// broadcast over the target, so that pieces write different elements.
fn splits_along(plan: &IndexedPlan<'_>, machine: &Machine) -> bool {
    matches!(plan.form(), Form::Along(along) if along.strides[0] != 0)
        && machine.splits(plan.len())
        && machine.fills_threads(plan.table.shape[0])
}

/// Whether batches run on every thread: several of them, writing many
/// positions in all.
#[cfg(threads)]
fn splits_batches<T>(batches: &[(ArrayViewMutD<'_, T>, Update<'_, '_, T>)], machine: &Machine) -> bool {
    let written = batches
        .iter()
        .map(|(_, update)| update.plan.shape().iter().product::<usize>())
        .sum();
    batches.len() > 1 && machine.splits(written)
}

/// Updates every position of `plan` in `target` with its value, on one
/// thread, in index order; destinations prefetched when `far`.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout.
unsafe fn write<T, K: Kernel<T>>(mut target: ArrayViewMutD<'_, T>, plan: Plan<'_>, values: &Broadcast<'_, T>, kernel: K, far: bool) {
    match plan {
        Plan::View(plan) => scatter::write_view(basic::select(target, &plan.axes), values, kernel),
        // SAFETY: the caller's guarantee.
        Plan::Indexed(plan) => unsafe { scatter::write_indexed(&mut target, &plan, values, kernel, far) },
    }
}
