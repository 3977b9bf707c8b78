//! The chooser: how the CPU runs a prepared read or update. The one place
//! that reads the machine (threads, cache sizes, instruction sets) and the
//! thresholds that pick an execution path, as tensor-gpu's `write_auto`
//! picks its kernels: each `*_strategy` function decides, after every
//! check, and the function beside it runs what it decided.
//!
//! Every path gives the same result, bit for bit; the thresholds are
//! measured (docs/performance.md).

use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, IxDyn};

use crate::element::{Arith, Compare, Op, Plain};
#[cfg(feature = "rayon")]
use crate::element::{Bits, as_arith, as_arith_mut, as_arith_slice};
use crate::error::IndexError;
use crate::exec::basic::{self, Region};
use crate::exec::kernel::{Kernel, SetKernel, Streaming, with_op};
#[cfg(feature = "rayon")]
use crate::exec::parallel::masked::Counts;
use crate::exec::passes::CpuPasses;
use crate::exec::sys::caches::{Caches, caches};
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::pages;
use crate::exec::sys::stream::Fence;
use crate::exec::{checked, gather, mask_gather, masked, scatter};
use crate::index::{IndexElem, IndexInt, IndexSlice, with_index_slice, with_loop_indices};
use crate::mode::AnyMode;
use crate::plan::{Form, IndexedPlan, Plan};
use crate::prepare::{self, Layout, Update};
use crate::rank::Selection;
use crate::value::{Broadcast, InOrder, Value};

/// `$split::<T, B>(args)` with `B` the bits of `T`'s width (`u32` or
/// `u64`), or `false` when `T` is not a plain number: how the parallel
/// writes reach the bits of their elements.
#[cfg(feature = "rayon")]
macro_rules! by_width {
    ($t:ty, $split:ident($($arg:expr),* $(,)?)) => {
        match Plain::<$t>::of().map(Plain::width) {
            Some(crate::element::Width::Bits32) => $split::<$t, u32>($($arg),*),
            Some(crate::element::Width::Bits64) => $split::<$t, u64>($($arg),*),
            None => false,
        }
    };
}

/// Below this many elements (or indices) work stays on one thread:
/// spawning costs more.
const PARALLEL_FROM: usize = 1 << 16;

/// At most this many elements, a scalar written through a basic index goes
/// straight to the target's own view: no plan, no dynamic shapes. Larger
/// regions take the planned path, which streams large fills past the cache.
const SMALL_REGION: usize = 1 << 12;

/// From this many contiguous elements, the fused mask pass with a scalar
/// runs the build for this processor's vectors.
const MASK_PASS_BUILT_FROM: usize = 1 << 10;

/// At most this many indices of an accumulation into a vector are checked
/// before any is applied, with no plan built.
const FEW_INDICES: usize = 64;

/// At most this many rows of a gather by a vector of indices are copied
/// with no plan built, when they hold at most [`SMALL_REGION`] elements.
pub(crate) const FEW_ROWS: usize = 16;

/// Updates of at least this many bytes stream past the cache (plain stores
/// are as fast below, and leave the update in the cache for its reader).
const STREAM_FROM: usize = 1 << 20;

/// Rows of a streamed update shorter than this many bytes are copied
/// plainly: streaming partial cache lines costs more than it saves.
const STREAM_ROWS_FROM: usize = 1 << 9;

/// An indexed write cut into pieces along a strided dim gives each piece at
/// least this many positions of it.
const PIECE_FROM: usize = 16;

/// Rows shorter than this (bytes) stay on one thread in a row scatter: each
/// thread scans every index, which the copy of a long row hides; shorter
/// rows were not measured.
const SPLIT_ROWS_FROM: usize = 512;

/// Targets smaller than this stay on one thread when split by destination:
/// each thread scans every index, which pays only when the random updates
/// miss the cache.
const SPLIT_TARGETS_FROM: usize = 4 << 20;

/// What the machine has, read once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Machine {
    threads: usize,
    isa: Isa,
    caches: Option<Caches>,
    /// Whether a row gather or a row scatter streams its rows (see
    /// `streams_gather`, `streams_set`).
    streams_rows: bool,
}

impl Machine {
    /// This machine, as the current thread pool sees it.
    pub(crate) fn now() -> Self {
        #[cfg(feature = "rayon")]
        let threads = rayon::current_num_threads();
        #[cfg(not(feature = "rayon"))]
        let threads = 1;
        Machine {
            threads,
            isa: Isa::detect(),
            caches: caches(),
            streams_rows: crate::exec::sys::cpu::streams_rows(),
        }
    }

    /// The planner's passes over index arrays on this machine.
    pub(crate) fn passes(&self) -> CpuPasses {
        CpuPasses {
            isa: self.isa,
            threads: self.threads,
            min_parallel: PARALLEL_FROM,
        }
    }

    /// Whether `items` of work are split among the threads.
    fn splits(&self, items: usize) -> bool {
        cfg!(feature = "rayon") && self.threads > 1 && items >= PARALLEL_FROM
    }

    /// Whether a target of `bytes` is larger than the last-level cache
    /// (never where the system does not say how large that is): indexed
    /// loops into it prefetch single elements.
    fn beyond_cache(&self, bytes: usize) -> bool {
        self.caches.is_some_and(|caches| bytes > caches.l3)
    }
}

/// The layout of a view.
fn layout<'a, T, S: ndarray::RawData<Elem = T>>(view: &'a ndarray::ArrayBase<S, IxDyn>) -> Layout<'a> {
    Layout {
        shape: view.shape(),
        strides: view.strides(),
    }
}

// Reads.

/// How a gather runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GatherStrategy {
    /// A mask over the leading axes of a C-ordered target: runs of true
    /// positions copied as blocks, on every thread when `parallel`.
    MaskBlocks { parallel: bool },
    /// The plan's offsets, block by block, on every thread, as the bits of
    /// plain numbers; rows streamed past the cache when `stream` (on one
    /// thread too).
    Blocks { stream: bool },
    /// One thread.
    Serial,
}

/// Whether a gather streams its output past the cache: rows of one index
/// array, long enough to stream, stored a whole cache line at a time
/// (AVX-512F; narrower streaming stores lost to plain ones), into an output
/// larger than the core's L2, which would not stay near the core anyway, on
/// a processor where rows stream faster, as `cpu::streams_rows` says
/// (measured: docs/performance.md, "Streaming stores for large fills and
/// row copies").
fn streams_gather<T>(plan: &IndexedPlan<'_>, machine: &Machine) -> bool {
    let Form::IndexRows { row, .. } = plan.form() else {
        return false;
    };
    let output = plan.len() * size_of::<T>();
    machine.streams_rows
        && machine.isa.avx512f()
        && row * size_of::<T>() >= STREAM_ROWS_FROM
        && machine.caches.is_some_and(|caches| output > caches.l2)
}

fn gather_strategy<T>(view: &ArrayViewD<'_, T>, plan: &IndexedPlan<'_>, machine: &Machine) -> GatherStrategy {
    let plain = Plain::<T>::of().is_some();
    let parallel = machine.splits(plan.len()) && plain;
    let stream = plain && streams_gather::<T>(plan, machine);
    match plan.form() {
        Form::LeadingMask { mask, .. } if view.is_standard_layout() && mask.mask.is_standard_layout() => {
            GatherStrategy::MaskBlocks { parallel }
        }
        _ if parallel || stream => GatherStrategy::Blocks { stream },
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
    let plan = match prepare::read_with(index, layout(&view), &mode, &machine.passes())? {
        Plan::View(plan) => return Ok(Selection::View(basic::select(view, &plan.axes))),
        Plan::Indexed(plan) => plan,
    };
    let fill = match &mode {
        AnyMode::Fill(fill) => Some(fill),
        _ => None,
    };
    let strategy = gather_strategy(&view, &plan, &machine);
    if let GatherStrategy::MaskBlocks { parallel } = strategy {
        // At most as many elements as the target holds.
        return Ok(Selection::Owned(gather_mask_blocks(&view, &plan, parallel, &machine)));
    }
    // The result of a plan may be far larger than the target (a broadcast
    // view): memory that cannot be had is an error, not an abort.
    let out = pages::try_output(plan.len()).ok_or_else(|| prepare::too_large(&plan.shape))?;
    let gathered = match strategy {
        // SAFETY: the plan was resolved from this view's layout (above).
        GatherStrategy::Blocks { stream } => unsafe { gather_in_parallel(&view, &plan, fill, stream, &machine, out) },
        // SAFETY: as above.
        _ => unsafe { gather::gather(&view, &plan, fill, out) },
    };
    Ok(Selection::Owned(gathered))
}

/// `view[index]` in `mode`, written over the elements of `out` (which must
/// have the result's shape): no new array, so none of its pages to fault
/// in. A leading-mask read is gathered fresh, then copied.
pub(crate) fn read_into<T: Clone>(
    view: ArrayViewD<'_, T>,
    index: &[IndexElem<'_>],
    mode: AnyMode<T>,
    out: ArrayViewMutD<'_, T>,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    let plan = prepare::read_into_with(index, layout(&view), &mode, out.shape(), &machine.passes())?;
    // SAFETY: the plan was resolved from this view's layout, and its shape
    // is `out`'s (both checked by `prepare`, above).
    unsafe { run_read_into(&view, plan, &mode, out, &machine) };
    Ok(())
}

/// Writes a prepared read of `view` over the elements of `out`.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout in `mode`, and has `out`'s shape.
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
        GatherStrategy::MaskBlocks { parallel } => out.assign(&gather_mask_blocks(view, &plan, parallel, machine)),
        // SAFETY: the caller's guarantee.
        GatherStrategy::Blocks { stream } => unsafe { gather_in_parallel_into(view, &plan, fill, stream, machine, out) },
        // SAFETY: as above.
        GatherStrategy::Serial => unsafe { gather::gather_into(view, &plan, fill, out) },
    }
}

/// The read of a mask over the leading axes of `view`, both C-ordered, on
/// every thread when `parallel`.
fn gather_mask_blocks<T: Clone>(view: &ArrayViewD<'_, T>, plan: &IndexedPlan<'_>, parallel: bool, machine: &Machine) -> ArrayD<T> {
    let (Form::LeadingMask { mask, block }, Some(source)) = (plan.form(), view.as_slice()) else {
        unreachable!("the strategy saw a leading mask over a C-ordered target")
    };
    let mask = mask.mask.as_slice().expect("the strategy saw a C-ordered mask");
    let elements = parallel
        .then(|| mask_blocks_on_threads(source, mask, block, machine))
        .flatten()
        .unwrap_or_else(|| mask_gather::gather_blocks(source, mask, block));
    ArrayD::from_shape_vec(IxDyn(&plan.shape), elements).expect("one block per true position")
}

/// The blocks of a leading mask gathered on every thread, on the bits of
/// the plain numbers they are; `None` for other elements.
fn mask_blocks_on_threads<T>(source: &[T], mask: &[bool], block: usize, machine: &Machine) -> Option<Vec<T>> {
    #[cfg(feature = "rayon")]
    return mask_blocks_bits::<T, u32>(source, mask, block, machine.threads)
        .or_else(|| mask_blocks_bits::<T, u64>(source, mask, block, machine.threads));
    #[cfg(not(feature = "rayon"))]
    {
        let _ = (source, mask, block, machine);
        None
    }
}

/// [`mask_blocks_on_threads`] on the bits `B`; `None` when `B` is not the
/// elements' width.
#[cfg(feature = "rayon")]
fn mask_blocks_bits<T, B: Bits>(source: &[T], mask: &[bool], block: usize, threads: usize) -> Option<Vec<T>> {
    let plain = Plain::<T>::of()?;
    let bits = crate::exec::parallel::mask::gather_blocks(plain.bits::<B>(source)?, mask, block, threads);
    plain.numbers_of(bits).ok()
}

/// The gather of `plan` from `view` on every thread, on the bits of the
/// plain numbers its elements are (on one thread for other elements, or a
/// plan whose form is not split by blocks).
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout.
unsafe fn gather_in_parallel<T: Clone>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    stream: bool,
    machine: &Machine,
    out: Vec<T>,
) -> ArrayD<T> {
    #[cfg(feature = "rayon")]
    let out = {
        let run = (machine.threads, stream.then_some(machine.isa));
        // SAFETY (both): the caller's guarantee.
        unsafe { gather_bits::<T, u32>(view, plan, fill, run, out) }
            .or_else(|out| unsafe { gather_bits::<T, u64>(view, plan, fill, run, out) })
    };
    #[cfg(not(feature = "rayon"))]
    let out: Result<Vec<T>, Vec<T>> = {
        let _ = (stream, machine);
        Err(out)
    };
    match out {
        Ok(elements) => ArrayD::from_shape_vec(IxDyn(&plan.shape), elements).expect("one element per position"),
        // SAFETY: the caller's guarantee.
        Err(out) => unsafe { gather::gather(view, plan, fill, out) },
    }
}

/// [`gather_in_parallel`] over the elements of `out`, in place when `out`
/// is contiguous.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout; `out` has its shape.
#[cfg_attr(not(feature = "rayon"), allow(unused_mut))] // split by blocks
unsafe fn gather_in_parallel_into<T: Clone>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    stream: bool,
    machine: &Machine,
    mut out: ArrayViewMutD<'_, T>,
) {
    #[cfg(feature = "rayon")]
    {
        let stream = stream.then_some(machine.isa);
        if let Some(slots) = out.as_slice_mut()
            // SAFETY: the caller's guarantee.
            && (unsafe { gather_bits_into::<T, u32>(view, plan, fill, machine.threads, stream, slots) } || {
                // SAFETY: the caller's guarantee.
                unsafe { gather_bits_into::<T, u64>(view, plan, fill, machine.threads, stream, slots) }
            })
        {
            return;
        }
    }
    let _ = (stream, machine);
    // SAFETY: the caller's guarantee.
    unsafe { gather::gather_into(view, plan, fill, out) }
}

/// [`gather_bits`] over `out`: `false`, writing nothing, when `B` is not
/// the elements' width or the plan's form is not split by blocks.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout; `out` has one slot per
/// position of it.
#[cfg(feature = "rayon")]
unsafe fn gather_bits_into<T, B: Bits>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    threads: usize,
    stream: Option<Isa>,
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
    let source = (
        view.as_ptr().cast::<B>(),
        crate::exec::sys::prefetch::picks_beyond_cache(view.len() * size_of::<T>()),
    );
    // SAFETY: as in `gather_bits`: the view's elements are plain numbers of
    // `B`'s width, and the plan was resolved from its layout.
    unsafe { crate::exec::parallel::gather::gather_into(source, plan, fill, threads, stream, out) }
}

/// The parallel gather of `plan` from `view` (`run`: on how many threads,
/// streamed with which instruction set) into `out` (empty, with room for
/// the plan's elements), on the bits `B` of the plain elements; `out` back
/// when `B` is not their width, or the plan's form is not split by blocks.
///
/// # Safety
///
/// `plan` was resolved from `view`'s layout.
#[cfg(feature = "rayon")]
unsafe fn gather_bits<T, B: Bits>(
    view: &ArrayViewD<'_, T>,
    plan: &IndexedPlan<'_>,
    fill: Option<&T>,
    run: (usize, Option<Isa>),
    out: Vec<T>,
) -> Result<Vec<T>, Vec<T>> {
    let Some(plain) = Plain::<T>::of().filter(|plain| plain.width() == B::WIDTH) else {
        return Err(out);
    };
    let fill = fill.map(|fill| plain.bits::<B>(std::slice::from_ref(fill)).expect("one width")[0]);
    let Ok(out) = plain.bits_of::<B>(out) else {
        unreachable!("B has T's width (checked above)")
    };
    let source = (
        view.as_ptr().cast::<B>(),
        crate::exec::sys::prefetch::picks_beyond_cache(view.len() * size_of::<T>()),
    );
    // SAFETY: the view's elements are plain numbers of `B`'s width (checked
    // above), so each is a valid `B`; the plan was resolved from the view's
    // layout (the caller's guarantee), so every offset from the view's
    // origin reaches one of its elements.
    let gathered = unsafe { crate::exec::parallel::gather::gather(source, plan, fill, run, out) };
    let numbers = |bits| plain.numbers_of::<B>(bits).unwrap_or_else(|_| unreachable!("B has T's width"));
    gathered.map(numbers).map_err(numbers)
}

// Writes.

/// The streaming stores of a large `set` on this machine, or `None` (plain
/// stores) when the elements are not plain numbers.
fn streaming<'f, T>(fence: &'f Fence, machine: &Machine) -> Option<Streaming<'f, T>> {
    let plain = Plain::<T>::of()?;
    Some(Streaming {
        plain,
        isa: machine.isa,
        fence,
        min_row: STREAM_ROWS_FROM.div_ceil(size_of::<T>()),
        min_fill: STREAM_FROM.div_ceil(size_of::<T>()),
    })
}

/// How a `set` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetStrategy {
    /// On every thread, split by destination range.
    ByDestination,
    /// A view cut into one piece per thread, as the bits of plain numbers;
    /// streaming stores when `stream`.
    SplitView { stream: bool },
    /// An indexed plan cut along its longest strided dim, one piece per
    /// thread, as the bits of plain numbers.
    SplitIndexed,
    /// An `along` plan cut along the region's first axis, one piece per
    /// thread, as the bits of plain numbers.
    SplitAlong,
    /// On one thread; streaming stores when `stream`, destinations
    /// prefetched when `far`.
    Serial { stream: bool, far: bool },
}

/// Whether `updates` updates of a target of `bytes` split by destination
/// pay: each thread scans every index, so the random updates must miss the
/// cache, and each thread's range must be addressable by `u32` offsets.
fn splits_by_destination(bytes: usize, len: usize, updates: usize, machine: &Machine) -> bool {
    let part = len.div_ceil(machine.threads.max(1));
    bytes >= SPLIT_TARGETS_FROM && part <= u32::MAX as usize && machine.splits(updates)
}

/// Whether an indexed write of `plan` is cut into pieces along its longest
/// strided dim, one a thread (`exec::parallel::pieces`): a general plan
/// (the others have loops of their own) whose pieces are long enough that
/// two threads seldom write into one cache line.
fn splits_pieces(plan: &IndexedPlan<'_>, machine: &Machine) -> bool {
    matches!(plan.form(), Form::General)
        && machine.splits(plan.len())
        && plan
            .longest_strided()
            .is_some_and(|(_, _, len)| len >= machine.threads * PIECE_FROM)
}

/// Whether an `along` write of `plan` is cut into pieces of the region's
/// first axis, one a thread: when that axis is neither the picked axis nor
/// broadcast over the target, so that pieces write different elements.
fn splits_along(plan: &IndexedPlan<'_>, machine: &Machine) -> bool {
    matches!(plan.form(), Form::Along(along) if along.strides[0] != 0)
        && machine.splits(plan.len())
        && plan.table.shape[0] >= machine.threads
}

/// Whether the fused mask pass over `len` contiguous elements runs the
/// builds for this processor's vectors (and may split among threads).
/// Below it, the build every processor runs: telling the instruction set
/// costs more than the wider vectors save.
#[inline]
pub(crate) fn builds_mask_pass(len: usize) -> bool {
    len >= MASK_PASS_BUILT_FROM
}

/// The instruction set a mask pass over `len` elements is built for (see
/// [`builds_mask_pass`]).
#[inline]
pub(crate) fn mask_pass_isa(len: usize) -> Isa {
    if builds_mask_pass(len) { Isa::detect() } else { Isa::baseline() }
}

/// The fused mask pass with a scalar over contiguous elements, on this
/// processor's widest vectors. Out of line: the inlined caller stays the
/// loop of few elements, whose operands fold into it.
#[inline(never)]
pub(crate) fn write_slice_where<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, value: &T, kernel: K) {
    masked::write_slice_where(elements, predicate, value, kernel, Isa::detect());
}

/// The passes of the mask sugar that may run on every thread, offered its
/// contiguous elements before the serial passes run: each declines (with
/// nothing done) unless the elements are many plain numbers and the
/// predicate a single comparison, whose test can cross threads. Only the
/// length is tested inline, and the operands go on as copies: the serial
/// pass the caller falls back to must stay small enough to inline, and its
/// operands unseen by code it cannot see, so that they fold into its loop.
pub(crate) trait WhereSplit<T> {
    /// How many elements the predicate selects, counted on every thread
    /// (the pieces' counts kept for [`WhereSplit::write_values`]).
    fn count(&mut self, elements: &[T]) -> Option<usize>;
    /// Writes `value` into every selected element on every thread.
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool;
    /// Writes `values`, one per selected element in order, on every thread,
    /// after [`WhereSplit::count`] counted these elements.
    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool;
}

/// [`WhereSplit`] for `set`, on any element type (plain numbers are told
/// by type id).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))] // it declines on one thread
pub(crate) struct SetWhereSplit<'a, T> {
    compare: Option<(Compare, &'a T)>,
    #[cfg(feature = "rayon")]
    counts: Option<Counts>,
}

impl<'a, T> SetWhereSplit<'a, T> {
    /// The split of `x[x compare scalar] = v`, when the predicate is that.
    pub(crate) fn new(compare: Option<(Compare, &'a T)>) -> Self {
        SetWhereSplit {
            compare,
            #[cfg(feature = "rayon")]
            counts: None,
        }
    }
}

#[cfg_attr(not(feature = "rayon"), allow(unused_variables))]
impl<T: Clone> WhereSplit<T> for SetWhereSplit<'_, T> {
    #[inline]
    fn count(&mut self, elements: &[T]) -> Option<usize> {
        #[cfg(feature = "rayon")]
        {
            self.counts = counts_on_threads(elements, self.compare);
            self.counts.as_ref().map(Counts::total)
        }
        #[cfg(not(feature = "rayon"))]
        None
    }

    #[inline]
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool {
        #[cfg(feature = "rayon")]
        if elements.len() >= PARALLEL_FROM
            && let Some((compare, scalar)) = self.compare
            && Plain::<T>::of().is_some()
        {
            return set_where_split_plain(elements, compare, scalar.clone(), value.clone());
        }
        false
    }

    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool {
        #[cfg(feature = "rayon")]
        if let (Some((compare, scalar)), Some(counts)) = (self.compare, &self.counts) {
            return set_values_where_plain(elements, compare, scalar, values, counts);
        }
        false
    }
}

/// [`WhereSplit`] for an accumulation by the kernel `K`.
#[cfg_attr(not(feature = "rayon"), allow(dead_code))] // it declines on one thread
pub(crate) struct UpdateWhereSplit<'a, T, K> {
    compare: Option<(Compare, &'a T)>,
    kernel: K,
    #[cfg(feature = "rayon")]
    counts: Option<Counts>,
}

impl<'a, T, K> UpdateWhereSplit<'a, T, K> {
    /// The split of `x[x compare scalar] op= v`, when the predicate is that,
    /// with `op`'s kernel.
    pub(crate) fn new(compare: Option<(Compare, &'a T)>, kernel: K) -> Self {
        UpdateWhereSplit {
            compare,
            kernel,
            #[cfg(feature = "rayon")]
            counts: None,
        }
    }
}

#[cfg_attr(not(feature = "rayon"), allow(unused_variables))]
impl<T: Arith, K: Kernel<T> + Copy + Send + Sync> WhereSplit<T> for UpdateWhereSplit<'_, T, K> {
    #[inline]
    fn count(&mut self, elements: &[T]) -> Option<usize> {
        #[cfg(feature = "rayon")]
        {
            self.counts = counts_on_threads(elements, self.compare);
            self.counts.as_ref().map(Counts::total)
        }
        #[cfg(not(feature = "rayon"))]
        None
    }

    #[inline]
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool {
        #[cfg(feature = "rayon")]
        if elements.len() >= PARALLEL_FROM
            && let Some((compare, &scalar)) = self.compare
        {
            return update_where_on_threads(elements, compare, scalar, *value, self.kernel);
        }
        false
    }

    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool {
        #[cfg(feature = "rayon")]
        if let (Some((compare, &scalar)), Some(counts)) = (self.compare, &self.counts) {
            let isa = Isa::detect();
            crate::exec::parallel::masked::write_values_where(elements, compare, scalar, values, counts, self.kernel, isa);
            return true;
        }
        false
    }
}

/// `f::<T, N>(args)` for the first arithmetic type `N` that `T` is (told by
/// type id), or `None` when it is none of them: how the mask sugar's
/// passes on threads reach bounds that the caller's `T` does not carry.
#[cfg(feature = "rayon")]
macro_rules! by_arith {
    ($t:ty, $f:ident($($arg:expr),* $(,)?)) => {
        $f::<$t, f32>($($arg),*)
            .or_else(|| $f::<$t, f64>($($arg),*))
            .or_else(|| $f::<$t, i32>($($arg),*))
            .or_else(|| $f::<$t, u32>($($arg),*))
            .or_else(|| $f::<$t, i64>($($arg),*))
            .or_else(|| $f::<$t, u64>($($arg),*))
            .or_else(|| $f::<$t, isize>($($arg),*))
            .or_else(|| $f::<$t, usize>($($arg),*))
    };
}

/// [`WhereSplit::count`]: the pieces' counts of the elements that satisfy
/// the comparison, on every thread, when they are many plain numbers.
#[cfg(feature = "rayon")]
#[inline]
fn counts_on_threads<T>(elements: &[T], compare: Option<(Compare, &T)>) -> Option<Counts> {
    match compare {
        Some((compare, scalar)) if elements.len() >= PARALLEL_FROM => count_where_plain(elements, compare, scalar),
        _ => None,
    }
}

/// [`counts_on_threads`] past its length test.
#[cfg(feature = "rayon")]
#[inline(never)]
fn count_where_plain<T>(elements: &[T], compare: Compare, scalar: &T) -> Option<Counts> {
    /// The count when `T` is `N`.
    fn typed<T, N: Arith>(elements: &[T], compare: Compare, scalar: &T) -> Option<Counts> {
        count_where_on_threads(as_arith_slice::<T, N>(elements)?, compare, *as_arith::<T, N>(scalar)?)
    }
    by_arith!(T, typed(elements, compare, scalar))
}

/// The count of `elements` that satisfy `compare scalar` on every thread,
/// when the machine splits them.
#[cfg(feature = "rayon")]
#[inline(never)]
fn count_where_on_threads<T: Arith>(elements: &[T], compare: Compare, scalar: T) -> Option<Counts> {
    let machine = Machine::now();
    machine
        .splits(elements.len())
        .then(|| crate::exec::parallel::masked::count_where(elements, compare, scalar, machine.threads, machine.isa))
}

/// [`SetWhereSplit::write_scalar`] past its length test: the split when
/// `T` is one of the plain numbers.
#[cfg(feature = "rayon")]
#[inline(never)]
fn set_where_split_plain<T>(elements: &mut [T], compare: Compare, scalar: T, value: T) -> bool {
    /// The split when `T` is `N`.
    fn typed<T, N: Arith>(elements: &mut [T], compare: Compare, scalar: &T, value: &T) -> Option<bool> {
        let (elements, &scalar, &value) = (as_arith_mut::<T, N>(elements)?, as_arith::<T, N>(scalar)?, as_arith::<T, N>(value)?);
        Some(update_where_on_threads(elements, compare, scalar, value, SetKernel::new()))
    }
    let (scalar, value) = (&scalar, &value);
    by_arith!(T, typed(elements, compare, scalar, value)).unwrap_or(false)
}

/// [`SetWhereSplit::write_values`]: the values' write when `T` is one of
/// the plain numbers (as it is when `counts` were made).
#[cfg(feature = "rayon")]
#[inline(never)]
fn set_values_where_plain<T>(elements: &mut [T], compare: Compare, scalar: &T, values: &[T], counts: &Counts) -> bool {
    /// The write when `T` is `N`.
    fn typed<T, N: Arith>(elements: &mut [T], compare: Compare, scalar: &T, values: &[T], counts: &Counts) -> Option<()> {
        let (elements, &scalar, values) = (
            as_arith_mut::<T, N>(elements)?,
            as_arith::<T, N>(scalar)?,
            as_arith_slice::<T, N>(values)?,
        );
        let isa = Isa::detect();
        crate::exec::parallel::masked::write_values_where(elements, compare, scalar, values, counts, SetKernel::new(), isa);
        Some(())
    }
    by_arith!(T, typed(elements, compare, scalar, values, counts)).is_some()
}

/// The scalar pass on every thread, when the machine splits `elements`.
#[cfg(feature = "rayon")]
#[inline(never)]
fn update_where_on_threads<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    elements: &mut [T],
    compare: Compare,
    scalar: T,
    value: T,
    kernel: K,
) -> bool {
    let machine = Machine::now();
    if !machine.splits(elements.len()) {
        return false;
    }
    crate::exec::parallel::masked::write_scalar_where(elements, compare, scalar, value, kernel, machine.threads, machine.isa);
    true
}

/// The mask sugar's passes on threads for `T`, every operation's: named
/// by `common.rs`, so that unoptimized dependents link them rather than
/// compile their own for each element type. Never called.
#[cfg(all(feature = "rayon", share_generics))]
pub(crate) fn where_splits<T: Arith>(elements: &mut [T], compare: Compare, scalar: T, op: Op) {
    set_where_split_plain(elements, compare, scalar, scalar);
    if let Some(counts) = count_where_plain(elements, compare, &scalar) {
        set_values_where_plain(elements, compare, &scalar, &[], &counts);
        with_op!(op, kernel => {
            update_where_on_threads(elements, compare, scalar, scalar, kernel);
            crate::exec::parallel::masked::write_values_where(elements, compare, scalar, &[], &counts, kernel, Isa::detect());
        });
    }
}

/// Whether a `set` of `region` bytes streams past the cache. Streaming
/// stores must not reach a destination twice unordered: the positions of
/// a view are distinct, and the row scatter orders a row it meets again;
/// other indexed plans store plainly, and the row scatter only where rows
/// stream faster (`cpu::streams_rows`). A fill (no source of values in C
/// order) streams only into a target beyond the last-level cache: within
/// it, plain stores find the lines in the cache and beat a trip to memory,
/// while a copy streams its destination whatever the target's size
/// (measured: docs/performance.md, "Streaming stores for large fills and
/// row copies").
fn streams_set<T>(plan: &Plan<'_>, values: &Broadcast<'_, T>, region: usize, target_bytes: usize, machine: &Machine) -> bool {
    let from_source = matches!(values.in_order(), Some(InOrder::Slice(_)));
    let distinct_or_ordered = match plan {
        Plan::View(_) => true,
        Plan::Indexed(plan) => matches!(plan.form(), Form::IndexRows { .. }) && from_source && machine.streams_rows,
    };
    region >= STREAM_FROM && distinct_or_ordered && (from_source || machine.beyond_cache(target_bytes))
}

fn set_strategy<T>(target: &ArrayViewMutD<'_, T>, plan: &Plan<'_>, values: &Broadcast<'_, T>, machine: &Machine) -> SetStrategy {
    let region = plan.shape().iter().product::<usize>() * size_of::<T>();
    let target_bytes = target.len() * size_of::<T>();
    let stream = streams_set(plan, values, region, target_bytes, machine);
    let serial = SetStrategy::Serial {
        stream,
        far: machine.beyond_cache(target_bytes),
    };
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
        return SetStrategy::SplitIndexed;
    }
    if values.in_order().is_none() {
        return serial;
    }
    if splits_along(plan, machine) {
        return SetStrategy::SplitAlong;
    }
    match plan.form() {
        // Beyond the cache, one thread prefetching its destinations already
        // runs at memory speed.
        Form::Index(axis) if axis.stride == 1 && !machine.beyond_cache(axis.len * size_of::<T>()) => {
            match splits_by_destination(axis.len * size_of::<T>(), axis.len, plan.len(), machine) {
                true => SetStrategy::ByDestination,
                false => serial,
            }
        }
        Form::Pair(first, second)
            if target.is_standard_layout()
                && plan.base >= 0
                && first.stride >= 0
                && second.stride >= 0
                && splits_by_destination(target_bytes, target.len(), plan.len(), machine) =>
        {
            SetStrategy::ByDestination
        }
        // Rows stored plainly.
        Form::IndexRows { row, .. }
            if !stream
                && target.is_standard_layout()
                && rows_from_first_element(plan).is_some()
                && row * size_of::<T>() >= SPLIT_ROWS_FROM =>
        {
            SetStrategy::ByDestination
        }
        _ => serial,
    }
}

/// The index and row length of a row scatter whose rows lie one after
/// another from the target's first element (`x[rows]` on a matrix in C
/// order): the rows a split by destination cuts into blocks.
fn rows_from_first_element<'p, 'i>(plan: &'p IndexedPlan<'i>) -> Option<(&'p crate::plan::AxisIndex<'i>, usize)> {
    match plan.form() {
        Form::IndexRows { index, row } if plan.base == 0 && index.stride == row as isize => Some((index, row)),
        _ => None,
    }
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
    #[cfg(feature = "rayon")]
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

/// Combines each prepared update into its view by `op` (as
/// [`run_set_batches`] writes sets), through `kernel`.
pub(crate) fn run_update_batches<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    batches: Vec<(ArrayViewMutD<'_, T>, Update<'_, '_, T>)>,
    op: Op,
    kernel: K,
    machine: &Machine,
) {
    #[cfg(feature = "rayon")]
    if splits_batches(&batches, machine) {
        crate::exec::parallel::for_each_piece(batches, &|(target, update)| run_update(target, update, op, kernel, machine));
        return;
    }
    for (target, update) in batches {
        run_update(target, update, op, kernel, machine);
    }
}

/// Whether batches run on every thread: several of them, writing many
/// positions in all.
#[cfg(feature = "rayon")]
fn splits_batches<T>(batches: &[(ArrayViewMutD<'_, T>, Update<'_, '_, T>)], machine: &Machine) -> bool {
    let written = batches
        .iter()
        .map(|(_, update)| update.plan.shape().iter().product::<usize>())
        .sum();
    batches.len() > 1 && machine.splits(written)
}

/// [`run_set_batches`] on every thread, on the bits `B` of the plain
/// elements (which cross threads whatever bounds `T` carries).
#[cfg(feature = "rayon")]
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
#[cfg_attr(not(feature = "rayon"), allow(unused_mut))] // split by destination
pub(crate) fn run_set<T: Clone>(mut target: ArrayViewMutD<'_, T>, Update { plan, values }: Update<'_, '_, T>, machine: &Machine) {
    match set_strategy(&target, &plan, &values, machine) {
        #[cfg(feature = "rayon")]
        SetStrategy::ByDestination => {
            let Plan::Indexed(plan) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            // SAFETY: the plan was resolved from this target's layout (above).
            let done = unsafe { set_by_destination::<T, u32>(&mut target, plan, &values, machine) } || {
                // SAFETY: as for the 32-bit call.
                unsafe { set_by_destination::<T, u64>(&mut target, plan, &values, machine) }
            };
            assert!(done, "the strategy saw plain numbers in C order");
        }
        #[cfg(feature = "rayon")]
        SetStrategy::SplitView { stream } => {
            let Plan::View(plan) = plan else {
                unreachable!("the strategy saw a view")
            };
            let view = basic::select(target, &plan.axes);
            let done = by_width!(T, split_set(view, &values, stream, machine));
            assert!(done, "the strategy saw plain numbers");
        }
        #[cfg(feature = "rayon")]
        SetStrategy::SplitIndexed => {
            let Plan::Indexed(plan) = &plan else {
                unreachable!("the strategy saw an indexed plan")
            };
            let far = machine.beyond_cache(target.len() * size_of::<T>());
            // SAFETY: the plan was resolved from this target's layout (by the
            // caller's `prepare`), a mutable view's, whose elements do not
            // overlap.
            let done = unsafe { by_width!(T, split_indexed_set(target, plan, &values, machine, far)) };
            assert!(done, "the strategy saw plain numbers and a strided dim");
        }
        #[cfg(feature = "rayon")]
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
        #[cfg(not(feature = "rayon"))]
        SetStrategy::ByDestination | SetStrategy::SplitView { .. } | SetStrategy::SplitIndexed | SetStrategy::SplitAlong => {
            unreachable!("one thread splits nothing")
        }
        SetStrategy::Serial { stream, far } => {
            // Dropped after the write: it orders the streaming stores.
            let fence = stream.then_some(Fence);
            let kernel = match fence.as_ref().and_then(|fence| streaming(fence, machine)) {
                // SAFETY: the write below runs on this thread and returns
                // before `fence` drops here; nothing reads the target before
                // then; the strategy streams only the distinct positions of a
                // view, or the rows of a row scatter, which orders a row it
                // meets again.
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
/// the plain elements, streamed when `stream`; `false` (nothing done) when
/// `B` is not their width.
#[cfg(feature = "rayon")]
fn split_set<T, B: Bits>(view: ArrayViewMutD<'_, T>, values: &Broadcast<'_, T>, stream: bool, machine: &Machine) -> bool {
    let Some(plain) = Plain::<T>::of() else {
        return false;
    };
    let Some(view) = plain.view_bits_mut::<B>(view) else {
        return false;
    };
    let write = |piece: ArrayViewMutD<'_, B>, values: &Broadcast<'_, B>| {
        // Dropped after the piece's write, on the thread that made it.
        let fence = stream.then_some(Fence);
        let kernel = match fence.as_ref().and_then(|fence| streaming(fence, machine)) {
            // SAFETY: this thread writes its piece of a view (distinct
            // positions, each once) and drops `fence` after; nothing reads
            // the target before the split returns.
            Some(streaming) => unsafe { SetKernel::streaming(streaming) },
            None => SetKernel::new(),
        };
        scatter::write_view(piece, values, kernel);
    };
    crate::exec::parallel::view::split_write(view, &values_bits(plain, values), machine.threads, &write);
    true
}

/// `values` as the bits `B` of their plain numbers, when `B` is their
/// width.
#[cfg(feature = "rayon")]
fn values_bits<'v, T, B: Bits>(plain: Plain<T>, values: &Broadcast<'v, T>) -> Broadcast<'v, B> {
    match values {
        Broadcast::Scalar(value) => Broadcast::Scalar(&plain.bits::<B>(std::slice::from_ref(*value)).expect("one width")[0]),
        Broadcast::Array { view, shape } => Broadcast::Array {
            view: plain.view_bits::<B>(view.clone()).expect("one width"),
            shape: shape.clone(),
        },
    }
}

/// The `set` of an indexed plan on every thread, cut along its longest
/// strided dim, on the bits `B` of the plain elements; `false` (nothing
/// done) when `B` is not their width or the plan has no strided dim.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout.
#[cfg(feature = "rayon")]
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
#[cfg(feature = "rayon")]
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
    let in_order = match in_order {
        InOrder::Scalar(value) => InOrder::Scalar(&plain.bits::<B>(std::slice::from_ref(value)).expect("one width")[0]),
        InOrder::Slice(values) => InOrder::Slice(plain.bits::<B>(values).expect("one width")),
    };
    // SAFETY: the caller's guarantees; the bits share the target's layout,
    // and the target is borrowed for the call.
    unsafe { crate::exec::parallel::pieces::write_along(target.as_mut_ptr(), plan, along, in_order, SetKernel::new(), machine.threads) };
    true
}

/// Updates every position of `plan` in `target` with its value, on one
/// thread, in index order.
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

/// The `set` of `plan` on every thread, split by destination, on the bits
/// `B` of the plain elements; `false` (nothing done) when `B` is not their
/// width, or the plan is neither one index array along an axis of stride 1,
/// nor one picking the rows of a target in standard layout from its first
/// element, nor a pair into a target in standard layout.
///
/// # Safety
///
/// `plan` was resolved from `target`'s layout.
#[cfg(feature = "rayon")]
unsafe fn set_by_destination<T, B: Bits>(
    target: &mut ArrayViewMutD<'_, T>,
    plan: &IndexedPlan<'_>,
    values: &Broadcast<'_, T>,
    machine: &Machine,
) -> bool {
    use crate::exec::parallel::split::{self, Along, Pairs};
    use crate::index::with_index_slices;
    let Some(plain) = Plain::<T>::of().filter(|plain| plain.width() == B::WIDTH) else {
        return false;
    };
    let values = match values.in_order().expect("the strategy saw values in C order") {
        InOrder::Scalar(value) => InOrder::Scalar(&plain.bits::<B>(std::slice::from_ref(value)).expect("one width")[0]),
        InOrder::Slice(values) => InOrder::Slice(plain.bits::<B>(values).expect("one width")),
    };
    let far = machine.beyond_cache(target.len() * size_of::<T>());
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

/// How an accumulation runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Accumulation<T> {
    /// Index chunks into partials from the operation's `identity`, on
    /// `parts` threads (operations that regroup exactly).
    Partitioned { parts: usize, identity: T },
    /// On every thread, split by destination range.
    ByDestination,
    /// On one thread.
    Serial,
}

/// How `updates` updates into a contiguous axis of `len` elements of `T`
/// run, for an operation that regroups exactly from `identity` or not
/// (`None`).
fn accumulation<T>(len: usize, updates: usize, identity: Option<T>, machine: &Machine) -> Accumulation<T> {
    let parts = machine.threads.min(1 + updates / len.max(1));
    let bytes = len * size_of::<T>();
    if let Some(identity) = identity
        && machine.splits(updates)
        && parts >= 2
    {
        return Accumulation::Partitioned { parts, identity };
    }
    if sums_split(bytes, len, updates, machine) {
        return Accumulation::ByDestination;
    }
    Accumulation::Serial
}

/// Whether read-modify-writes (sums, products) of a target of `bytes` gain
/// from the split by destination: when it takes them out of a slow level
/// of memory, each thread's range fitting half its L2 while the whole
/// target does not, or the target being larger than the L3 (the threads' misses
/// overlap). In between, the L3 serves one thread about as fast, and the
/// extra scans make two threads slower. (Sets only store: they gain from
/// overlapping misses at any size.)
fn sums_split(bytes: usize, len: usize, updates: usize, machine: &Machine) -> bool {
    splits_by_destination(bytes, len, updates, machine)
        && machine
            .caches
            .is_none_or(|caches| leaves_slow_memory(bytes, machine.threads, caches))
}

/// Whether splitting a target of `bytes` among `threads` puts each share in
/// half an L2 (the other half holds the index and value blocks streaming
/// through), or the target is larger than the L3.
fn leaves_slow_memory(bytes: usize, threads: usize, caches: Caches) -> bool {
    bytes.div_ceil(threads.max(1)) * 2 <= caches.l2 || bytes > caches.l3
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
#[cfg_attr(not(feature = "rayon"), allow(unused_mut))] // the accumulation's slice
pub(crate) fn run_update<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    mut target: ArrayViewMutD<'_, T>,
    Update { plan, values }: Update<'_, '_, T>,
    op: Op,
    kernel: K,
    machine: &Machine,
) {
    let far = machine.beyond_cache(target.len() * size_of::<T>());
    #[cfg(feature = "rayon")]
    if let Plan::View(view) = &plan
        && machine.splits(view.shape.iter().product())
    {
        // A view's positions are distinct: one piece a thread.
        let write = |piece: ArrayViewMutD<'_, T>, values: &Broadcast<'_, T>| scatter::write_view(piece, values, kernel);
        crate::exec::parallel::view::split_write(basic::select(target, &view.axes), &values, machine.threads, &write);
        return;
    }
    #[cfg(feature = "rayon")]
    if let Plan::Indexed(indexed) = &plan
        && let Form::Along(along) = indexed.form()
        && splits_along(indexed, machine)
        && let Some(in_order) = values.in_order()
    {
        // SAFETY: the plan was resolved from this target's layout (by the
        // caller's `prepare`), a mutable view's, whose elements do not
        // overlap, and `splits_along` saw its first axis neither picked nor
        // broadcast; the target is borrowed for the call.
        unsafe { crate::exec::parallel::pieces::write_along(target.as_mut_ptr(), indexed, along, in_order, kernel, machine.threads) };
        return;
    }
    #[cfg(feature = "rayon")]
    if let Plan::Indexed(indexed) = &plan
        && splits_pieces(indexed, machine)
    {
        // SAFETY: the plan was resolved from this target's layout (by the
        // caller's `prepare`), a mutable view's, whose elements do not
        // overlap; the target is borrowed for the call.
        let done =
            unsafe { crate::exec::parallel::pieces::write_indexed(target.as_mut_ptr(), indexed, &values, kernel, (machine.threads, far)) };
        assert!(done, "the strategy saw a strided dim");
        return;
    }
    if let Plan::Indexed(indexed) = &plan
        && let Form::Index(axis) = indexed.form()
        && axis.stride == 1
        && let Some(in_order) = values.in_order()
    {
        let accumulation = accumulation(axis.len, indexed.len(), regrouping_identity::<T, K>(op), machine);
        if accumulation != Accumulation::Serial {
            // SAFETY: the plan was resolved from this target (above): an
            // axis of stride 1 is `len` consecutive elements of it from
            // `base`, borrowed by nothing else while the slice lives.
            let elements = unsafe { std::slice::from_raw_parts_mut(target.as_mut_ptr().offset(indexed.base), axis.len) };
            with_index_slice!(&axis.index, index => {
                // SAFETY: the planner checked every index in bounds.
                unsafe { accumulate_in_bounds(elements, index, in_order, kernel, accumulation, machine) };
            });
            return;
        }
    }
    // SAFETY: the plan was resolved from this target's layout (above).
    unsafe { write(target, plan, &values, kernel, far) };
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
        #[cfg(feature = "rayon")]
        Accumulation::Partitioned { parts, identity } => {
            // SAFETY: the caller's guarantee.
            unsafe { crate::exec::parallel::partitioned::accumulate_in_bounds(axis, index, identity, values, kernel, parts, machine.isa) }
        }
        #[cfg(feature = "rayon")]
        Accumulation::ByDestination => {
            let Ok(()) = by_destination::<false, _, _, _>(axis, index, values, kernel, machine) else {
                unreachable!("an unchecked scan reports no index");
            };
        }
        // SAFETY: the caller's guarantee.
        _ => unsafe { crate::exec::indexed::apply_in_bounds(axis, index, values, kernel, machine.isa) },
    }
}

/// `axis[index] op= value` on a contiguous one-dimensional target with its
/// index bounds checked in the loop that applies them, when
/// [`prepare::checked_in_loop`] and [`in_loop`] take it: `None` (nothing
/// done) otherwise.
#[inline]
pub(crate) fn update_checked_in_loop<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[IndexElem<'_>],
    op: Op,
    mode: &AnyMode<T>,
    value: &Value<'_, T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let (array, values) = prepare::checked_in_loop(index, &[axis.len()], op, mode, value)?;
    update_in_loop(axis, array.as_index_slice()?, op, values, kernel)
}

/// `axis[index] op= values` for indices already in a vector, one value per
/// index or a scalar, each index checked in the loop that applies it;
/// `None` (nothing done) when [`in_loop`] does not take it.
#[inline]
pub(crate) fn update_in_loop<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: IndexSlice<'_>,
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Option<Result<(), IndexError>> {
    let len = axis.len();
    let result = with_loop_indices!(index, index => accumulate_checked_in_loop(axis, index, op, values, kernel))?;
    Some(result.map_err(|bad| prepare::out_of_bounds(bad, len)))
}

/// What [`update_few`] and [`set_few`] did, in one byte: their callers,
/// the smallest updates, read it in a register, where an
/// `Option<Result<(), IndexError>>` comes back in memory and its copy
/// stalls on the callee's stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Few {
    /// Every index applied.
    Written,
    /// Not taken: nothing done.
    Declined,
    /// An index out of bounds: nothing written (the caller finds which,
    /// with [`prepare::first_out_of_bounds`]).
    OutOfBounds,
}

impl Few {
    #[cfg_attr(not(unoptimized), inline(always))]
    fn of<E>(done: Option<Result<(), E>>) -> Few {
        match done {
            Some(Ok(())) => Few::Written,
            None => Few::Declined,
            Some(Err(_)) => Few::OutOfBounds,
        }
    }
}

/// `axis[index] op= values` as [`update_in_loop`] takes it, by the kernel
/// of `op`: one copy per element type (see `common`), whatever the call.
pub(crate) fn update_few<T: Arith>(axis: &mut [T], index: IndexSlice<'_>, op: Op, values: InOrder<'_, T>) -> Few {
    // Each arm's result made a `Few` in the arm: a merged `Option<Result>`
    // goes through memory, which stalls as the copy it replaces did.
    with_op!(op, kernel => {
        with_loop_indices!(index, index => Few::of(accumulate_checked_in_loop(axis, index, op, values, kernel)))
    })
}

/// `axis[index] = values` for at most [`FEW_INDICES`] indices in a vector,
/// all checked before the first write; declined for more.
pub(crate) fn set_few<T: Clone>(axis: &mut [T], index: IndexSlice<'_>, values: InOrder<'_, T>) -> Few {
    if index.len() > FEW_INDICES {
        return Few::Declined;
    }
    with_loop_indices!(index, index => Few::of(Some(checked::check_then_apply(axis, index, values, SetKernel::new()))))
}

/// Whether a gather of `rows` rows of `row_len` elements each, by a vector
/// of indices, is small enough to copy with no plan built.
pub(crate) fn few_rows(rows: usize, row_len: usize) -> bool {
    rows <= FEW_ROWS && rows.saturating_mul(row_len) <= SMALL_REGION
}

/// `axis[index] op= values` on every thread, split by destination range;
/// with `CHECKED`, each index checked and the first bad one returned (an
/// unchecked bad index lands in no range and is skipped).
#[cfg(feature = "rayon")]
fn by_destination<const CHECKED: bool, T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    values: InOrder<'_, T>,
    kernel: K,
    machine: &Machine,
) -> Result<(), I> {
    use crate::exec::parallel::split::{self, Along};
    let along = Along {
        index,
        len: axis.len(),
        isa: machine.isa,
    };
    let far = machine.beyond_cache(size_of_val(axis));
    split::accumulate::<CHECKED, _, _, _>(axis, &along, values, kernel, (machine.threads, far))
}

/// How an accumulation whose index bounds are checked in its loop runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InLoop {
    /// A few indices: all checked first, then applied (nothing to restore).
    CheckFirst,
    /// Many indices into a small target: a copy of the target, each index
    /// checked as it is applied, the copy restored at the first bad one.
    Rollback,
}

/// The identity the updates of `K` regroup from, when they do.
fn regrouping_identity<T: Arith, K: Kernel<T>>(op: Op) -> Option<T> {
    if K::REGROUPS { T::regrouping_identity(op) } else { None }
}

/// Whether `updates` indices of `index_bytes` into a target of `len`
/// elements of `T` are checked in the loop, and how: the copy costs one
/// read and one write of the target; the bounds pass it replaces, one read
/// of the indices.
fn in_loop<T>(len: usize, updates: usize, index_bytes: usize) -> Option<InLoop> {
    if updates <= FEW_INDICES {
        return Some(InLoop::CheckFirst);
    }
    (2 * len * size_of::<T>() <= index_bytes).then_some(InLoop::Rollback)
}

/// `axis[index] op= values`, each index checked in the loop, when
/// [`in_loop`] takes it: `Err(bad)` with `axis` unchanged at the first bad
/// index; `None` (nothing done) otherwise.
fn accumulate_checked_in_loop<T: Arith, I: IndexInt, K: Kernel<T> + Copy + Send + Sync>(
    axis: &mut [T],
    index: &[I],
    op: Op,
    values: InOrder<'_, T>,
    kernel: K,
) -> Option<Result<(), i128>> {
    let bad = |i: I| i.to_i128();
    // A few indices need nothing of the machine but its instruction sets.
    let strategy = in_loop::<T>(axis.len(), index.len(), size_of_val(index))?;
    if strategy == InLoop::CheckFirst {
        return Some(checked::check_then_apply(axis, index, values, kernel).map_err(bad));
    }
    let machine = Machine::now();
    let accumulation = accumulation(axis.len(), index.len(), regrouping_identity::<T, K>(op), &machine);
    Some(
        checked::with_rollback(axis, |axis| match accumulation {
            #[cfg(feature = "rayon")]
            Accumulation::Partitioned { parts, identity } => {
                crate::exec::parallel::partitioned::accumulate_checked(axis, index, identity, values, kernel, parts, machine.isa)
            }
            #[cfg(feature = "rayon")]
            Accumulation::ByDestination => by_destination::<true, _, _, _>(axis, index, values, kernel, &machine),
            _ => crate::exec::indexed::apply_checked(axis, index, values, kernel, machine.isa).map_err(|k| index[k]),
        })
        .map_err(bad),
    )
}

/// `.apply(f)` on `target[index]`: every result into scratch first.
pub(crate) fn apply<T: Clone>(
    mut target: ArrayViewMutD<'_, T>,
    index: &[IndexElem<'_>],
    mode: &AnyMode<T>,
    f: impl FnMut(T) -> T,
) -> Result<(), IndexError> {
    let machine = Machine::now();
    match prepare::apply_with(index, layout(&target), mode, &machine.passes())? {
        Plan::View(plan) => crate::exec::apply::apply_view(basic::select(target, &plan.axes), f),
        // SAFETY: the plan was resolved from this target's layout (above).
        Plan::Indexed(plan) => unsafe { crate::exec::apply::apply_indexed(&mut target, &plan, f) },
    }
    Ok(())
}

/// A scalar written by `write` directly into the region of a basic index
/// whose view axes `each_axis` hands over (given the target's shape), when
/// it selects at most [`SMALL_REGION`] elements: whether it wrote (nothing
/// is written for a larger region, an index that is not basic or one that
/// fails). The target keeps its own (static) dimension type: no dynamic
/// shapes are built.
#[inline]
pub(crate) fn small_region_in_place<T, D: ndarray::Dimension>(
    target: ndarray::ArrayViewMut<'_, T, D>,
    each_axis: impl FnOnce(&[usize], &[isize], &mut Region) -> Option<Result<usize, IndexError>>,
    write: impl FnMut(&mut T),
) -> bool {
    let mut region = Region::new();
    matches!(each_axis(target.shape(), target.strides(), &mut region), Some(Ok(_))) && region.write(target, SMALL_REGION, write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_split_where_shares_fit_half_the_l2_or_the_target_exceeds_the_l3() {
        const MB: usize = 1 << 20;
        let big_l3 = Caches { l2: 2 * MB, l3: 480 * MB };
        let small_l3 = Caches { l2: MB, l3: 32 * MB };
        assert!(!leaves_slow_memory(4 * MB, 2, big_l3));
        assert!(leaves_slow_memory(4 * MB, 4, big_l3));
        assert!(!leaves_slow_memory(4 * MB, 2, small_l3));
        assert!(leaves_slow_memory(4 * MB, 8, small_l3));
        assert!(!leaves_slow_memory(64 * MB, 2, big_l3));
        assert!(leaves_slow_memory(64 * MB, 2, small_l3));
    }

    #[test]
    fn indices_are_checked_in_the_loop_when_few_or_many() {
        assert_eq!(in_loop::<f32>(1000, 3, 24), Some(InLoop::CheckFirst));
        assert_eq!(in_loop::<f32>(1000, 65, 520), None);
        assert_eq!(in_loop::<f32>(1000, 1000, 8000), Some(InLoop::Rollback));
        let machine = Machine {
            threads: 1,
            isa: Isa::baseline(),
            caches: None,
            streams_rows: true,
        };
        assert_eq!(accumulation::<f32>(1000, 1000, None, &machine), Accumulation::Serial);
        let two = Machine { threads: 2, ..machine };
        let partitioned = Accumulation::Partitioned {
            parts: 2,
            identity: f32::NEG_INFINITY,
        };
        // Without rayon every accumulation is serial, whatever the threads.
        let expected = if cfg!(feature = "rayon") {
            partitioned
        } else {
            Accumulation::Serial
        };
        assert_eq!(accumulation(1000, 1 << 17, Some(f32::NEG_INFINITY), &two), expected);
    }
}
