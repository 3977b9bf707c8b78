//! Reads: `view[index]` as a view or a gathered array, or written over the
//! elements of an existing one; mask gathers by blocks; large gathers on
//! every thread, on the bits of plain numbers.

#[cfg(threads)]
use std::ops::Range;

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, IxDyn};

use crate::element::Plain;
#[cfg(threads)]
use crate::element::{Bits, Width};
use crate::error::IndexError;
use crate::exec::basic;
#[cfg(threads)]
use crate::exec::parallel::gather::{RowStores as ExecutorRows, Unwritten};
use crate::exec::passes::CpuPasses;
#[cfg(threads)]
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::pages;
use crate::exec::{gather, mask_gather};
use crate::index::IndexElem;
use crate::mode::AnyMode;
use crate::plan::{Form, IndexedPlan, Plan, RowOutOfBounds};
use crate::prepare;
use crate::rank::Selection;

#[cfg(threads)]
use super::rows;
use super::rows::RowStores;
use super::{Machine, layout};

/// How a gather runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GatherStrategy {
    /// A mask over the leading axes of a C-ordered target: runs of true
    /// positions copied as blocks, on every thread when `parallel`.
    MaskBlocks { parallel: bool },
    /// The plan's offsets, block by block, as the bits of plain numbers,
    /// on every thread; the rows of one index array stored as `rows` says
    /// (streamed past the cache on one thread too; measured on this one).
    Blocks { rows: RowStores },
    /// One thread.
    Serial,
}

/// How a gather stores its output rows: those of one index array as
/// [`Machine::row_gather_stores`] says for their length and the output's
/// size (docs/performance.md, "Streaming stores for large fills and row
/// copies"), any other plainly.
fn row_stores<T>(plan: &IndexedPlan<'_>, machine: &Machine) -> RowStores {
    let Some((_, row)) = plan.index_rows() else {
        return RowStores::Plain;
    };
    // (Saturating: a read of a stride-0 view may name more bytes than
    // there are addresses; it is refused before it is gathered.)
    machine.row_gather_stores(row.saturating_mul(size_of::<T>()), plan.len().saturating_mul(size_of::<T>()))
}

fn gather_strategy<T>(view: &ArrayViewD<'_, T>, plan: &IndexedPlan<'_>, machine: &Machine) -> GatherStrategy {
    let plain = Plain::<T>::of().is_some();
    let parallel = machine.splits(plan.len()) && plain;
    let rows = if plain { row_stores::<T>(plan, machine) } else { RowStores::Plain };
    match plan.form() {
        Form::LeadingMask { mask, .. } if view.is_standard_layout() && mask.mask.is_standard_layout() => {
            GatherStrategy::MaskBlocks { parallel }
        }
        _ if parallel || rows != RowStores::Plain => GatherStrategy::Blocks { rows },
        _ => GatherStrategy::Serial,
    }
}

/// `view[index]` in `mode`: a view for basic indexing, a gathered array
/// for advanced indexing.
pub(crate) fn read<'a, T: Clone>(
    view: ArrayViewD<'a, T>,
    index: &[IndexElem<'_>],
    mode: AnyMode<T>,
) -> Result<Selection<'a, T>, IndexError> {
    let machine = Machine::now();
    // An `along` index's bounds are left to the gather, which checks a
    // block of picks just before it walks them, while they are in the
    // cache, rather than in a pass of its own over the whole index first
    // (a tenth of the gather's time): the new array is all that an error
    // found midway could leave half written, and it is dropped.
    let deferring = CpuPasses {
        defers_along: true,
        ..machine.passes()
    };
    // The same read checked whole when planned: the error a row out of
    // bounds stands for, in NumPy's order of errors.
    let checked = || match prepare::read_with(index, layout(&view), &mode, &machine.passes()) {
        Ok(Plan::Indexed(plan)) => Ok(plan),
        Ok(Plan::View(_)) => unreachable!("an index planned as indexed once is planned so again"),
        Err(error) => Err(error),
    };
    let plan = match prepare::read_with(index, layout(&view), &mode, &deferring)? {
        Plan::View(plan) => return Ok(Selection::View(basic::select(view, &plan.axes))),
        Plan::Indexed(plan) => plan,
    };
    let fill = match &mode {
        AnyMode::Fill(fill) => Some(fill),
        _ => None,
    };
    let strategy = gather_strategy(&view, &plan, &machine);
    if let GatherStrategy::MaskBlocks { parallel } = strategy {
        // At most as many elements as the target holds, which memory may
        // still refuse a second time.
        let gathered = gather_mask_blocks(&view, &plan, parallel, &machine);
        return gathered.map(Selection::Owned).ok_or_else(|| prepare::too_large(&plan.shape));
    }
    // The result of a plan may be far larger than the target (a broadcast
    // view): memory that cannot be had is an error, not an abort (after
    // the bounds the plan left unchecked, whose error comes first).
    let Some(out) = pages::try_output(plan.len()) else {
        return Err(match plan.form() {
            Form::Along(_) => checked().err().unwrap_or_else(|| prepare::too_large(&plan.shape)),
            _ => prepare::too_large(&plan.shape),
        });
    };
    let gathered = match strategy {
        // SAFETY: the plan was resolved from this view's layout (above); an
        // `along` index it left unchecked, the gather checks as it walks.
        GatherStrategy::Blocks { rows } => unsafe { gather_in_parallel(&view, &plan, fill, rows, &machine, out) },
        // SAFETY: as above.
        GatherStrategy::Serial => unsafe { gather::gather(&view, &plan, fill, machine.isa, out) },
        GatherStrategy::MaskBlocks { .. } => unreachable!("a mask's blocks were gathered above"),
    };
    match gathered {
        Ok(gathered) => Ok(Selection::Owned(gathered)),
        Err(RowOutOfBounds) => Err(checked().expect_err("the row out of bounds fails the check of the whole index")),
    }
}

/// `view[index]` in `mode`, written over the elements of `out` (which must
/// have the result's shape): no new array, so none of its pages to fault
/// in.
pub(crate) fn read_into<T: Clone>(
    view: ArrayViewD<'_, T>,
    index: &[IndexElem<'_>],
    mode: AnyMode<T>,
    out: ArrayViewMutD<'_, T>,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    let plan = prepare::read_into_with(index, layout(&view), &mode, out.shape(), &machine.passes())?;
    // SAFETY: the plan was resolved from this view's layout by the
    // machine's passes, which defer no bounds, and its shape is `out`'s
    // (both checked by `prepare`, above).
    unsafe { run_read_into(&view, plan, &mode, out, &machine) };
    Ok(())
}

/// Writes a prepared read of `view` over the elements of `out`.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout in `mode` by passes that defer
/// no bounds (every offset it yields reaches an element of `view`), and
/// has `out`'s shape.
pub(crate) unsafe fn run_read_into<T: Clone>(
    view: &ArrayViewD<'_, T>,
    plan: Plan<'_>,
    mode: &AnyMode<T>,
    mut out: ArrayViewMutD<'_, T>,
    machine: &Machine,
) {
    let plan = match plan {
        Plan::View(plan) => {
            out.assign(&basic::select(view.view(), &plan.axes));
            return;
        }
        Plan::Indexed(plan) => plan,
    };
    let fill = match mode {
        AnyMode::Fill(fill) => Some(fill),
        _ => None,
    };
    match gather_strategy(view, &plan, machine) {
        GatherStrategy::MaskBlocks { .. } => {
            let (mask, block, source) = leading_mask(view, &plan);
            mask_gather::assign_blocks(source, mask, block, out.iter_mut());
        }
        GatherStrategy::Blocks { rows } => {
            // SAFETY: the caller's guarantee.
            unsafe { gather_in_parallel_into(view, &plan, fill, rows, machine, out) }
        }
        // SAFETY: as above.
        GatherStrategy::Serial => unsafe { gather::gather_into(view, &plan, fill, machine.isa, out) },
    }
}

/// The read of a mask over the leading axes of `view`, both C-ordered, on
/// every thread when `parallel`; `None` when memory cannot hold it.
fn gather_mask_blocks<T: Clone>(view: &ArrayViewD<'_, T>, plan: &IndexedPlan<'_>, parallel: bool, machine: &Machine) -> Option<ArrayD<T>> {
    let (mask, block, source) = leading_mask(view, plan);
    // (Where the threads' gather finds no memory, the serial one finds
    // none either, and says so.)
    let elements = match parallel.then(|| mask_blocks_on_threads(source, mask, block, machine)).flatten() {
        Some(elements) => elements,
        None => mask_gather::gather_blocks(source, mask, block)?,
    };
    Some(ArrayD::from_shape_vec(IxDyn(&plan.shape), elements).expect("one block per true position"))
}

/// The mask, the length of the block each position selects, and the
/// target's elements, of a plan the strategy read as a mask over the
/// leading axes of a C-ordered `view`.
fn leading_mask<'v, T>(view: &'v ArrayViewD<'_, T>, plan: &'v IndexedPlan<'_>) -> (&'v [bool], usize, &'v [T]) {
    let (Form::LeadingMask { mask, block }, Some(source)) = (plan.form(), view.as_slice()) else {
        unreachable!("the strategy saw a leading mask over a C-ordered target")
    };
    let mask = mask.mask.as_slice().expect("the strategy saw a C-ordered mask");
    (mask, block, source)
}

/// The blocks of a leading mask gathered on every thread, on the bits of
/// the plain numbers they are; `None` for other elements.
fn mask_blocks_on_threads<T>(source: &[T], mask: &[bool], block: usize, machine: &Machine) -> Option<Vec<T>> {
    #[cfg(threads)]
    return mask_blocks_bits::<T, u32>(source, mask, block, machine.threads)
        .or_else(|| mask_blocks_bits::<T, u64>(source, mask, block, machine.threads));
    #[cfg(not(threads))]
    {
        let _ = (source, mask, block, machine);
        None
    }
}

/// [`mask_blocks_on_threads`] on the bits `B`; `None` when `B` is not the
/// elements' width.
#[cfg(threads)]
fn mask_blocks_bits<T, B: Bits>(source: &[T], mask: &[bool], block: usize, threads: usize) -> Option<Vec<T>> {
    let plain = Plain::<T>::of()?;
    let bits = crate::exec::parallel::mask::gather_blocks(plain.bits::<B>(source)?, mask, block, threads)?;
    plain.numbers_of(bits).ok()
}

/// The gather of `plan` from `view` on every thread, on the bits of the
/// plain numbers its elements are (on one thread for other elements, or a
/// plan whose form is not split by blocks); rows stored as `rows` says.
/// An `along` index is checked as it is walked, as [`gather::gather`]
/// checks it: an error at a block of rows with a pick out of bounds, the
/// elements gathered dropped.
///
/// # Safety
///
/// As [`gather::gather`]'s: `plan` was resolved from `view`'s layout (an
/// `along` index's bounds may have been deferred).
#[cfg_attr(not(threads), allow(unused_mut))] // given back by the threads
unsafe fn gather_in_parallel<T: Clone>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    rows: RowStores,
    machine: &Machine,
    mut out: Vec<T>,
) -> Result<ArrayD<T>, RowOutOfBounds> {
    #[cfg(threads)]
    {
        let run = (machine.threads, executor_rows(rows, machine.isa));
        let gathered = match Plain::<T>::of().map(Plain::width) {
            // SAFETY: the caller's guarantee, that `plan` was resolved from
            // `view`'s layout.
            Some(Width::Bits32) => unsafe { gather_bits::<T, u32>(view, plan, fill, run, machine.isa, out) },
            // SAFETY: as above.
            Some(Width::Bits64) => unsafe { gather_bits::<T, u64>(view, plan, fill, run, machine.isa, out) },
            None => Err((Unwritten::Declined, out)),
        };
        match gathered {
            Ok(elements) => return Ok(ArrayD::from_shape_vec(IxDyn(&plan.shape), elements).expect("one element per position")),
            Err((Unwritten::OutOfBounds, _)) => return Err(RowOutOfBounds),
            Err((Unwritten::Declined, back)) => out = back,
        }
    }
    #[cfg(not(threads))]
    let _ = rows;
    // SAFETY: the caller's guarantee.
    unsafe { gather::gather(view, plan, fill, machine.isa, out) }
}

/// [`gather_in_parallel`] over the elements of `out`, in place when `out`
/// is contiguous.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout by passes that defer no
/// bounds; `out` has its shape.
#[cfg_attr(not(threads), allow(unused_mut))] // split by blocks
unsafe fn gather_in_parallel_into<T: Clone>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    rows: RowStores,
    machine: &Machine,
    mut out: ArrayViewMutD<'_, T>,
) {
    #[cfg(threads)]
    {
        let run = (machine.threads, executor_rows(rows, machine.isa));
        if let Some(slots) = out.as_slice_mut()
            // SAFETY: the caller's guarantee.
            && (unsafe { gather_bits_into::<T, u32>(view, plan, fill, run, machine.isa, slots) } || {
                // SAFETY: the caller's guarantee.
                unsafe { gather_bits_into::<T, u64>(view, plan, fill, run, machine.isa, slots) }
            })
        {
            return;
        }
    }
    let _ = rows;
    // SAFETY: the caller's guarantee.
    unsafe { gather::gather_into(view, plan, fill, machine.isa, out) }
}

/// How the executor stores a row gather's rows as `rows` says: measured
/// ([`RowStores::Unmeasured`]) in [`rows::measure`]'s turns, which this
/// process then keeps.
#[cfg(threads)]
fn executor_rows(rows: RowStores, isa: Isa) -> ExecutorRows<'static> {
    match rows {
        RowStores::Plain => ExecutorRows::Plain,
        RowStores::Streamed => ExecutorRows::Streamed(isa),
        RowStores::Unmeasured => ExecutorRows::Timed(isa, &time_rows),
    }
}

/// Times the turns of a gather of `count` rows, each stored by `store`
/// (`true`: streamed), and keeps a clear winner ([`rows::measure`]).
#[cfg(threads)]
fn time_rows(count: usize, store: &mut dyn FnMut(Range<usize>, bool)) {
    rows::measure(count, |places, stores| store(places, stores == RowStores::Streamed));
}

/// [`gather_bits`] over `out`: `false`, writing nothing, when `B` is not
/// the elements' width or the plan's form is not split by blocks.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout by passes that defer no
/// bounds; `out` has one slot per position of it.
#[cfg(threads)]
unsafe fn gather_bits_into<T, B: Bits>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    (threads, rows): (usize, ExecutorRows<'_>),
    isa: Isa,
    out: &mut [T],
) -> bool {
    let Some(plain) = Plain::<T>::of().filter(|plain| plain.width() == B::WIDTH) else {
        return false;
    };
    let fill = match fill.map(|fill| plain.bits::<B>(std::slice::from_ref(fill))) {
        Some(Some(bits)) => Some(bits[0]),
        Some(None) => return false,
        None => None,
    };
    let Some(out) = plain.bits_mut::<B>(out) else {
        return false;
    };
    // SAFETY: `MaybeUninit<B>` has `B`'s layout, and the parallel gather
    // writes only elements into it (its contract), so `out` stays
    // initialized; `B` is `Copy`, so nothing overwritten needed dropping.
    let out = unsafe { &mut *(out as *mut [B] as *mut [std::mem::MaybeUninit<B>]) };
    let source = view.as_ptr().cast::<B>();
    // SAFETY: as in `gather_bits`: the view's elements are plain numbers of
    // `B`'s width, and the plan was resolved from its layout, its indices
    // checked (the caller's guarantee).
    match unsafe { crate::exec::parallel::gather::gather_into(source, plan, fill, (threads, rows), (isa, false), out) } {
        Ok(()) => true,
        Err(Unwritten::Declined) => false,
        Err(Unwritten::OutOfBounds) => unreachable!("a gather that checks no index finds none out of bounds"),
    }
}

/// The parallel gather of `plan` from `view` (`run`: on how many threads,
/// its rows stored how; an `along` index checked as walked with `isa`'s
/// instructions) into `out` (empty, with room for the plan's elements), on
/// the bits `B` of the plain elements;
/// `out` back, declined, when `B` is not their width or the plan's form is
/// not split by blocks, or with a row out of bounds.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout (an `along` index's bounds
/// may have been deferred).
#[cfg(threads)]
unsafe fn gather_bits<T, B: Bits>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    run: (usize, ExecutorRows<'_>),
    isa: Isa,
    out: Vec<T>,
) -> Result<Vec<T>, (Unwritten, Vec<T>)> {
    let Some(plain) = Plain::<T>::of().filter(|plain| plain.width() == B::WIDTH) else {
        return Err((Unwritten::Declined, out));
    };
    let fill = fill.map(|fill| plain.bits::<B>(std::slice::from_ref(fill)).expect("one width")[0]);
    let Ok(out) = plain.bits_of::<B>(out) else {
        unreachable!("B has T's width (checked above)")
    };
    let source = view.as_ptr().cast::<B>();
    // SAFETY: the view's elements are plain numbers of `B`'s width (checked
    // above), so each is a valid `B`; the plan was resolved from the view's
    // layout (the caller's guarantee), so every offset from the view's
    // origin reaches one of its elements, an `along` index's once checked
    // as walked.
    let gathered = unsafe { crate::exec::parallel::gather::gather(source, plan, fill, run, isa, out) };
    let numbers = |bits| plain.numbers_of::<B>(bits).unwrap_or_else(|_| unreachable!("B has T's width"));
    gathered.map(numbers).map_err(|(why, bits)| (why, numbers(bits)))
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, Array2, ArrayD, CowArray, IxDyn};

    use super::*;
    use crate::index::IntArray;

    fn array(values: &[i64]) -> IndexElem<'static> {
        IndexElem::Array(IntArray::I64(CowArray::from(Array1::from(values.to_vec()).into_dyn())))
    }

    fn gathered(view: ArrayViewD<'_, f32>, index: &[IndexElem<'_>]) -> Result<ArrayD<f32>, IndexError> {
        match read(view, index, AnyMode::Error)? {
            Selection::Owned(owned) => Ok(owned),
            Selection::View(_) => panic!("an index array reads into a new array"),
        }
    }

    /// Element reads through one or two index arrays read in place: the
    /// plain loop's elements (negative indices from the end, just in
    /// bounds either way), and NumPy's error (the first array's before the
    /// second's, then the first in C order), an axis of length zero
    /// included.
    #[test]
    fn element_reads_through_index_arrays_equal_a_plain_loop_and_numpys_errors() {
        let x = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f32);
        let flat = Array1::from_iter(x.iter().copied());
        let (i, j) = ([0i64, -3, 2, -1, 1], [3i64, -4, 0, -1, 2]);
        let pairs = Array1::from_iter(
            i.iter()
                .zip(&j)
                .map(|(&a, &b)| x[[a.rem_euclid(3) as usize, b.rem_euclid(4) as usize]]),
        );
        assert_eq!(gathered(x.view().into_dyn(), &[array(&i), array(&j)]), Ok(pairs.into_dyn()));
        let k = [11i64, -12, 0, -1, 5];
        let elements = Array1::from_iter(k.iter().map(|&a| flat[a.rem_euclid(12) as usize]));
        assert_eq!(gathered(flat.view().into_dyn(), &[array(&k)]), Ok(elements.into_dyn()));

        let out_of_bounds = |index, axis, len| Err(IndexError::OutOfBounds { index, axis, len });
        let pair = |i: &[i64], j: &[i64]| gathered(x.view().into_dyn(), &[array(i), array(j)]);
        assert_eq!(pair(&[0, 1, 2], &[0, 1, 4]), out_of_bounds(4, 1, 4));
        assert_eq!(pair(&[0, 1, -4], &[-5, 1, 0]), out_of_bounds(-4, 0, 3));
        assert_eq!(pair(&[0, i64::MIN, 3], &[0, 1, 0]), out_of_bounds(i64::MIN.into(), 0, 3));
        let lone = |k: &[i64]| gathered(flat.view().into_dyn(), &[array(k)]);
        assert_eq!(lone(&[0, 12, -13]), out_of_bounds(12, 0, 12));
        let (none, no_columns) = (ArrayD::<f32>::zeros(IxDyn(&[0])), ArrayD::<f32>::zeros(IxDyn(&[3, 0])));
        assert_eq!(gathered(none.view(), &[array(&[0])]), out_of_bounds(0, 0, 0));
        assert_eq!(gathered(no_columns.view(), &[array(&[0]), array(&[0])]), out_of_bounds(0, 1, 0));
        assert_eq!(gathered(none.view(), &[array(&[])]), Ok(ArrayD::zeros(IxDyn(&[0]))));
    }
}
