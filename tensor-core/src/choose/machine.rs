//! What the machine has and the thresholds that pick a path: [`Machine`],
//! read once per call by [`Machine::now`] (threads, instruction sets, cache
//! sizes, how rows store fastest) and passed down, and the pure predicates that decide from
//! sizes and a `Machine`. The only code that calls `exec::sys`'s readers;
//! the rest of the chooser asks these predicates, and executors get their
//! decisions as arguments.
//!
//! The thresholds are measured (docs/performance.md, "Why the code is the
//! way it is"). Under Miri, which interprets every step, the tests use
//! arrays thousands of times smaller, so the thresholds shrink with
//! them ([`native_or_small`]) and the machine is a fixed description read
//! from no file: those small arrays take every path (scripts/miri). A
//! fuzzing build (cargo-fuzz sets `cfg(fuzzing)`) shrinks them the same
//! way, on the machine it runs on, so that the fuzzers' inputs of a few
//! hundred elements reach the paths of large calls too: threads, streaming
//! stores, prefetches, splits by destination (docs/fuzzing.md).

use crate::exec::passes::CpuPasses;
#[cfg(not(miri))]
use crate::exec::sys::caches::l2;
use crate::exec::sys::cpu::Isa;

use super::rows::RowStores;
#[cfg(not(miri))]
use super::rows::measured;

/// `native`, or `small` under Miri and in fuzzing builds: a threshold
/// scaled to the arrays of the tests Miri runs and of the fuzzers' inputs.
const fn native_or_small(native: usize, small: usize) -> usize {
    if cfg!(any(miri, fuzzing)) { small } else { native }
}

/// Below this many elements (or indices) work stays on one thread:
/// spawning costs more.
const PARALLEL_FROM: usize = native_or_small(1 << 16, 64);

/// Targets larger than this many bytes are taken to be out of the cache,
/// whatever size of last-level cache the system reports: indexed writes
/// into them prefetch, and fills into them stream. A VM reports its host's L3,
/// shared with other tenants, which holds a target or not as they load it:
/// a fill planned as cached is far slower where the target is not than a
/// streamed one is where it was (docs/performance.md, "A chooser that
/// trusts no shared cache").
const OUT_OF_CACHE_FROM: usize = native_or_small(32 << 20, 4 << 10);

/// At most this many elements, a scalar written through a basic index goes
/// straight to the target's own view: no plan, no dynamic shapes. Larger
/// regions take the planned path, which streams large fills past the cache.
pub(super) const SMALL_REGION: usize = native_or_small(1 << 12, 64);

/// From this many contiguous elements, the fused mask pass with a scalar
/// runs the build for this processor's vectors.
pub(super) const MASK_PASS_BUILT_FROM: usize = native_or_small(1 << 10, 64);

/// At most this many indices of an accumulation into a vector are checked
/// before any is applied, with no plan built.
const FEW_INDICES: usize = 64;

/// At most this many rows of a gather by a vector of indices, or picked
/// by an `along` or `nd` index alone, are read or written with no plan
/// built, when they hold at most [`SMALL_REGION`] elements.
pub(crate) const FEW_ROWS: usize = 16;

/// Updates of at least this many bytes stream past the cache (plain stores
/// are as fast below, and leave the update in the cache for its reader).
pub(super) const STREAM_FROM: usize = native_or_small(1 << 20, 256);

/// Rows of a streamed update shorter than this many bytes are copied
/// plainly: streaming partial cache lines costs more than it saves.
pub(super) const STREAM_ROWS_FROM: usize = native_or_small(1 << 9, 64);

/// An indexed write cut into pieces along a strided dim gives each piece at
/// least this many positions of it.
const PIECE_FROM: usize = native_or_small(16, 4);

/// Rows shorter than this (bytes) stay on one thread in a row scatter: each
/// thread scans every index, which the copy of a long row hides; shorter
/// rows were not measured.
const SPLIT_ROWS_FROM: usize = native_or_small(512, 64);

/// Targets smaller than this stay on one thread when split by destination:
/// each thread scans every index, which pays only when the random updates
/// miss the cache.
const SPLIT_TARGETS_FROM: usize = native_or_small(4 << 20, 1 << 10);

/// The machine under Miri, whatever runs it: caches thousands of times
/// smaller than a desktop's, so that the tests' arrays reach past them;
/// the baseline instruction set, since Miri runs no build for wider
/// vectors; rows streamed. Nothing is read from the system,
/// which Miri's isolation refuses.
#[cfg(miri)]
const UNDER_MIRI: Machine = Machine {
    threads: 1,
    isa: Isa::baseline(),
    l2: Some(256),
    rows: RowStores::Streamed,
    plain_fills: false,
};

/// What the machine has, read once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Machine {
    /// The threads of the current pool (one without `rayon`).
    pub(super) threads: usize,
    /// The instruction sets the hot loops are built for.
    pub(super) isa: Isa,
    /// One core's L2 cache in bytes, where the system says it: a core's
    /// own, so what a VM reports is what its core has.
    pub(super) l2: Option<usize>,
    /// How rows store fastest, as this process measured (see
    /// [`Machine::streams_rows`]).
    pub(super) rows: RowStores,
    /// Whether fills past the cache store plainly: only when forced (the
    /// chooser streams them; [`Machine::streams_set`]).
    pub(super) plain_fills: bool,
}

/// Another machine's description in place of this one's, for the
/// workloads bench (feature `forced-machine`, which nothing but the
/// repository's own benches and tests turns on): one machine then takes,
/// and measures, every branch the chooser takes on another. Every
/// strategy gives the same results bit for bit, so forcing one changes
/// only the speed.
#[cfg(feature = "forced-machine")]
pub mod forced {
    use std::sync::{PoisonError, RwLock};

    pub use super::super::rows::RowStores;
    pub use crate::exec::sys::cpu::IsaCeiling;

    use super::Machine;

    /// How a fill past the cache stores.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum FillStores {
        /// Plain stores, which find the region's lines wherever they are.
        Plain,
        /// Streaming stores, past the cache: what the chooser takes.
        Streamed,
    }

    /// What the chooser is told in place of what the system says; each
    /// `None` keeps the system's own.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct ForcedMachine {
        /// One core's L2 cache, in bytes.
        pub l2: Option<usize>,
        /// How rows are stored; [`RowStores::Unmeasured`] measures at
        /// every large row scatter or gather.
        pub rows: Option<RowStores>,
        /// How fills past the cache are stored.
        pub fills: Option<FillStores>,
        /// The widest instruction set the hot loops use: at most the
        /// processor's, whatever is asked.
        pub isa: Option<IsaCeiling>,
    }

    static FORCED: RwLock<Option<ForcedMachine>> = RwLock::new(None);

    /// From now on, every call chooses as on `machine` (`None`: on this
    /// one again).
    pub fn force(machine: Option<ForcedMachine>) {
        *FORCED.write().unwrap_or_else(PoisonError::into_inner) = machine;
    }

    /// `machine` as forced.
    pub(super) fn apply(machine: Machine) -> Machine {
        let Some(forced) = *FORCED.read().unwrap_or_else(PoisonError::into_inner) else {
            return machine;
        };
        Machine {
            threads: machine.threads,
            isa: forced.isa.map_or(machine.isa, |ceiling| machine.isa.at_most(ceiling)),
            l2: forced.l2.or(machine.l2),
            rows: forced.rows.unwrap_or(machine.rows),
            plain_fills: forced.fills.map_or(machine.plain_fills, |fills| fills == FillStores::Plain),
        }
    }
}

/// The destinations of a `set`, as far as streaming stores may reach them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Destinations {
    /// Distinct positions (a view): each reached once.
    Distinct,
    /// The rows of a row scatter, which orders a row it meets again.
    Rows,
    /// Any other indexed plan: a position may come again unordered.
    Other,
}

impl Machine {
    /// This machine, as the current thread pool sees it.
    pub(crate) fn now() -> Self {
        #[cfg(threads)]
        let threads = rayon::current_num_threads();
        #[cfg(not(threads))]
        let threads = 1;
        #[cfg(not(miri))]
        let machine = Machine {
            threads,
            isa: Isa::detect(),
            l2: l2(),
            rows: measured(),
            plain_fills: false,
        };
        #[cfg(miri)]
        let machine = Machine { threads, ..UNDER_MIRI };
        #[cfg(feature = "forced-machine")]
        let machine = forced::apply(machine);
        machine
    }

    /// The planner's passes over index arrays on this machine.
    pub(crate) fn passes(&self) -> CpuPasses {
        CpuPasses {
            isa: self.isa,
            threads: self.threads,
            min_parallel: PARALLEL_FROM,
            defers_along: false,
        }
    }

    /// Whether `items` of work are split among the threads.
    pub(super) fn splits(&self, items: usize) -> bool {
        cfg!(threads) && self.threads > 1 && items >= PARALLEL_FROM
    }

    /// Whether streaming stores of a row scatter's destination rows (runs
    /// of a few hundred bytes between other memory traffic) beat plain
    /// stores here, as measured (a row gather's output rows ask
    /// [`row_gather_stores`](Self::row_gather_stores)): they won
    /// on one machine kind by 2.5x and lost on another by 2.2x, each of them
    /// an AMD processor with the same L2 ([`super::rows`]). Long runs (fills,
    /// copies of a view) stream on every machine (docs/performance.md,
    /// "Streaming stores for large fills and row copies").
    fn streams_rows(&self) -> bool {
        self.rows == RowStores::Streamed
    }

    /// Whether a `set` of `region` bytes by rows of `row_bytes` from a
    /// source, into a target of `target_bytes`, measures how rows store
    /// fastest ([`super::rows::measure`]), this process having not measured yet:
    /// where the measure means what it is kept for, rows long enough to
    /// stream ([`STREAM_ROWS_FROM`]; shorter ones are stored plainly either
    /// way) going out to memory (a target [`beyond_cache`]; within it,
    /// plain stores would win for a reason that holds nowhere else).
    pub(super) fn measures_rows(
        &self,
        destinations: Destinations,
        from_source: bool,
        region: usize,
        row_bytes: usize,
        target_bytes: usize,
    ) -> bool {
        self.rows == RowStores::Unmeasured
            && destinations == Destinations::Rows
            && from_source
            && region >= STREAM_FROM
            && row_bytes >= STREAM_ROWS_FROM
            && beyond_cache(target_bytes)
    }

    /// How a row gather stores its output rows: streamed past the cache
    /// where rows may stream and stream faster, measured
    /// ([`RowStores::Unmeasured`]: in [`super::rows::measure`]'s turns)
    /// where they may and this process has not measured yet, into an
    /// output going out to memory ([`beyond_cache`], as a row scatter
    /// measures), plainly otherwise. Rows may stream when they are long
    /// enough (`row_bytes`), stored a whole cache line at a time (AVX-512F;
    /// narrower streaming stores lost to plain ones), into an output of
    /// `output_bytes` larger than the core's L2, which would not stay near
    /// the core anyway. (Under Miri, whose machine has no AVX-512F, with
    /// the 16-byte stores every processor has, so that its tests take this
    /// path.)
    pub(super) fn row_gather_stores(&self, row_bytes: usize, output_bytes: usize) -> RowStores {
        let may_stream = (self.isa.avx512f() || cfg!(miri)) && row_bytes >= STREAM_ROWS_FROM && self.l2.is_some_and(|l2| output_bytes > l2);
        match self.rows {
            _ if !may_stream => RowStores::Plain,
            RowStores::Unmeasured if beyond_cache(output_bytes) => RowStores::Unmeasured,
            RowStores::Unmeasured => RowStores::Plain,
            measured => measured,
        }
    }

    /// Whether a `set` of `region` bytes into a target of `target_bytes`
    /// streams past the cache. Streaming stores must not reach a
    /// destination twice unordered: the positions of a view are distinct,
    /// and the row scatter orders a row it meets again; other indexed plans
    /// store plainly, and the row scatter only where rows stream faster. A
    /// fill (no source of values in C order: not `from_source`) streams only
    /// into a target out of the cache ([`beyond_cache`]; within it, plain
    /// stores find the lines in the cache and beat a trip to memory), unless
    /// forced plain, while a copy streams its destination whatever the
    /// target's size.
    pub(super) fn streams_set(&self, destinations: Destinations, from_source: bool, region: usize, target_bytes: usize) -> bool {
        let distinct_or_ordered = match destinations {
            Destinations::Distinct => true,
            Destinations::Rows => from_source && self.streams_rows(),
            Destinations::Other => false,
        };
        let fill_streams = !self.plain_fills && beyond_cache(target_bytes);
        region >= STREAM_FROM && distinct_or_ordered && (from_source || fill_streams)
    }

    /// Whether `updates` updates of a target of `bytes` (`len` elements)
    /// split by destination pay: each thread scans every index, so the
    /// random updates must miss the cache, and each thread's range must be
    /// addressable by `u32` offsets.
    pub(super) fn splits_by_destination(&self, bytes: usize, len: usize, updates: usize) -> bool {
        let part = len.div_ceil(self.threads.max(1));
        bytes >= SPLIT_TARGETS_FROM && part <= u32::MAX as usize && self.splits(updates)
    }

    /// Whether read-modify-writes (sums, products) of a target of `bytes`
    /// (`len` elements) gain from the split by destination: when it takes
    /// them out of a slow level of memory, each thread's range fitting half
    /// its L2 while the whole target does not (every split, where the
    /// system does not say the L2), or the target being out of the cache
    /// (the threads' misses overlap). In between, the L3 serves one thread
    /// about as fast, and the extra scans make two threads slower. (Sets
    /// only store: they gain from overlapping misses at any size.)
    pub(super) fn sums_split(&self, bytes: usize, len: usize, updates: usize) -> bool {
        self.splits_by_destination(bytes, len, updates)
            && (beyond_cache(bytes) || self.l2.is_none_or(|l2| shares_fit_the_l2(bytes, self.threads, l2)))
    }

    /// On how many threads `updates` updates into `len` elements are
    /// partitioned, when on two at least: each part after the first builds
    /// a partial as large as the target, so at most one part more than
    /// there are updates per element.
    pub(super) fn partitions(&self, len: usize, updates: usize) -> Option<usize> {
        let parts = self.threads.min(1 + updates / len.max(1));
        (self.splits(updates) && parts >= 2).then_some(parts)
    }

    /// Whether an indexed write whose longest strided dim has `len`
    /// positions is cut into pieces along it, one a thread: when the
    /// pieces are long enough that two threads seldom write into one cache
    /// line.
    pub(super) fn cuts_pieces(&self, len: usize) -> bool {
        len >= self.threads * PIECE_FROM
    }

    /// Whether an axis of `len` positions gives every thread one at least.
    pub(super) fn fills_threads(&self, len: usize) -> bool {
        len >= self.threads
    }
}

/// Whether a target of `bytes` is out of the cache ([`OUT_OF_CACHE_FROM`]):
/// indexed writes into it prefetch single elements, and fills into it
/// stream.
pub(super) fn beyond_cache(bytes: usize) -> bool {
    bytes > OUT_OF_CACHE_FROM
}

/// Whether splitting a target of `bytes` among `threads` puts each share in
/// half an L2 of `l2` bytes (the other half holds the index and value
/// blocks streaming through).
fn shares_fit_the_l2(bytes: usize, threads: usize, l2: usize) -> bool {
    bytes.div_ceil(threads.max(1)) * 2 <= l2
}

/// Whether a row scatter's rows of `row_bytes` are long enough for a split
/// by destination: each thread scans every index, which the copy of a long
/// row hides.
pub(super) fn splits_rows(row_bytes: usize) -> bool {
    row_bytes >= SPLIT_ROWS_FROM
}

/// Whether the fused mask pass over `len` contiguous elements runs the
/// builds for this processor's vectors (and may split among threads).
/// Below it, the build every processor runs: telling the instruction set
/// costs more than the wider vectors save.
#[inline]
pub(super) fn builds_mask_pass(len: usize) -> bool {
    len >= MASK_PASS_BUILT_FROM
}

/// Whether `rows` rows of `row_len` elements each, gathered by a vector of
/// indices or picked by an `along` or `nd` index alone, are few enough to
/// read or write with no plan built.
pub(crate) fn few_rows(rows: usize, row_len: usize) -> bool {
    rows <= FEW_ROWS && rows.saturating_mul(row_len) <= SMALL_REGION
}

/// Whether a mask over `len` elements is small enough to read or write
/// through in one serial pass, with no plan built.
pub(super) fn small_mask(len: usize) -> bool {
    len <= SMALL_REGION
}

/// Whether `updates` indices of an accumulation into a vector are few
/// enough to check them all before the first is applied.
pub(super) fn checks_first(updates: usize) -> bool {
    updates <= FEW_INDICES
}

/// Whether an accumulation into a target of `target_bytes` is checked in
/// its loop, the target copied first to be restored at a bad index, given
/// `index_bytes` of indices: the copy costs one read and one write of the
/// target; the bounds pass it replaces, one read of the indices.
pub(super) fn rolls_back(target_bytes: usize, index_bytes: usize) -> bool {
    2 * target_bytes <= index_bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: usize = 1 << 20;

    /// `build.rs` compiles the thread paths exactly where rayon is on and
    /// the build optimized, and the speed-only paths exactly where it is
    /// optimized: the suite's passes then run each path where they mean
    /// to (threads at opt-level 1, the general path alone at 0).
    #[test]
    fn the_build_compiles_threads_and_fast_paths_where_optimized() {
        assert_eq!(cfg!(threads), cfg!(feature = "rayon") && !cfg!(unoptimized));
        assert_eq!(crate::FAST_PATHS, !cfg!(unoptimized));
    }

    /// A machine of `threads` threads, `l2` bytes of L2, storing rows as
    /// `rows`, with the baseline instruction set.
    fn machine(threads: usize, l2: Option<usize>, rows: RowStores) -> Machine {
        Machine {
            threads,
            isa: Isa::baseline(),
            l2,
            rows,
            plain_fills: false,
        }
    }

    /// A machine with 1 MB of L2 a core.
    fn with_l2(threads: usize, rows: RowStores) -> Machine {
        machine(threads, Some(MB), rows)
    }

    /// Whether the build compiles the thread paths (see `build.rs`).
    const THREADS: bool = cfg!(threads);

    #[cfg(feature = "forced-machine")]
    #[test]
    fn a_forced_machine_replaces_what_the_system_says_and_only_narrows_the_instruction_sets() {
        use super::forced::{FillStores, ForcedMachine, IsaCeiling, force};
        let system = Machine::now();
        force(Some(ForcedMachine {
            l2: Some(3),
            rows: Some(RowStores::Unmeasured),
            fills: Some(FillStores::Plain),
            isa: Some(IsaCeiling::Baseline),
        }));
        let forced = Machine::now();
        force(Some(ForcedMachine {
            isa: Some(IsaCeiling::Avx512f),
            ..ForcedMachine::default()
        }));
        let widest = Machine::now();
        force(None);
        let again = Machine::now();
        assert_eq!(forced.l2, Some(3));
        assert_eq!(
            (forced.rows, forced.plain_fills, forced.isa),
            (RowStores::Unmeasured, true, Isa::baseline())
        );
        // A ceiling above the processor's sets gives no more than it has;
        // what is not forced stays the system's. (How rows store is the
        // system's too, but a test beside this one may measure it
        // meanwhile.)
        assert_eq!((widest.isa, widest.l2, widest.plain_fills), (system.isa, system.l2, false));
        assert_eq!((again.isa, again.l2), (system.isa, system.l2));
    }

    #[test]
    fn work_splits_from_a_size_on_two_threads_or_more() {
        let one = with_l2(1, RowStores::Streamed);
        let two = with_l2(2, RowStores::Streamed);
        assert!(!one.splits(PARALLEL_FROM * 8));
        assert!(!two.splits(PARALLEL_FROM - 1));
        assert_eq!(two.splits(PARALLEL_FROM), THREADS);
        assert_eq!(two.passes().min_parallel, PARALLEL_FROM);
        assert_eq!(two.passes().threads, 2);
    }

    #[test]
    fn the_cache_is_left_past_a_fixed_size() {
        assert!(beyond_cache(OUT_OF_CACHE_FROM + 1) && beyond_cache(usize::MAX));
        assert!(!beyond_cache(OUT_OF_CACHE_FROM) && !beyond_cache(0));
    }

    #[test]
    fn rows_stream_once_measured_faster_and_large_row_scatters_measure_until_then() {
        assert!(with_l2(1, RowStores::Streamed).streams_rows());
        assert!(!with_l2(1, RowStores::Plain).streams_rows());
        assert!(!with_l2(1, RowStores::Unmeasured).streams_rows());
        let unmeasured = with_l2(2, RowStores::Unmeasured);
        let (row, far) = (STREAM_ROWS_FROM, OUT_OF_CACHE_FROM + 1);
        assert!(unmeasured.measures_rows(Destinations::Rows, true, STREAM_FROM, row, far));
        // Not a row scatter, a fill, a small one, short rows, a target the
        // cache may hold, or measured already.
        assert!(!unmeasured.measures_rows(Destinations::Distinct, true, STREAM_FROM, row, far));
        assert!(!unmeasured.measures_rows(Destinations::Other, true, STREAM_FROM, row, far));
        assert!(!unmeasured.measures_rows(Destinations::Rows, false, STREAM_FROM, row, far));
        assert!(!unmeasured.measures_rows(Destinations::Rows, true, STREAM_FROM - 1, row, far));
        assert!(!unmeasured.measures_rows(Destinations::Rows, true, STREAM_FROM, row - 1, far));
        assert!(!unmeasured.measures_rows(Destinations::Rows, true, STREAM_FROM, row, OUT_OF_CACHE_FROM));
        for measured in [RowStores::Plain, RowStores::Streamed] {
            assert!(!with_l2(2, measured).measures_rows(Destinations::Rows, true, STREAM_FROM, row, far));
        }
    }

    #[test]
    fn a_row_gather_streams_or_measures_long_rows_with_whole_line_stores_into_outputs_past_the_l2() {
        // (`far`: past the L2 and the size taken to be out of the cache,
        // under Miri too, where the latter is the smaller.)
        let (row, out, far) = (STREAM_ROWS_FROM, 2 * MB, (OUT_OF_CACHE_FROM + 1).max(2 * MB));
        // (Under Miri, with the stores every processor has.)
        let detected = |rows| Machine {
            isa: Isa::detect(),
            ..with_l2(1, rows)
        };
        let avx512 = Isa::detect().avx512f() || cfg!(miri);
        let streams_if = |may| if may { RowStores::Streamed } else { RowStores::Plain };
        let streamed = detected(RowStores::Streamed);
        assert_eq!(streamed.row_gather_stores(row, out), streams_if(avx512));
        // Short rows, an output the L2 holds, narrower stores, rows measured
        // faster plain, or no cache sizes: plain stores.
        assert_eq!(streamed.row_gather_stores(row - 1, out), RowStores::Plain);
        assert_eq!(streamed.row_gather_stores(row, MB), RowStores::Plain);
        assert_eq!(with_l2(1, RowStores::Streamed).row_gather_stores(row, out), streams_if(cfg!(miri)));
        assert_eq!(detected(RowStores::Plain).row_gather_stores(row, far), RowStores::Plain);
        let unknown = Machine { l2: None, ..streamed };
        assert_eq!(unknown.row_gather_stores(row, far), RowStores::Plain);
        // Not measured yet: an output going out to memory measures, one the
        // cache may hold is stored plainly meanwhile.
        let unmeasured = detected(RowStores::Unmeasured);
        let measures_if = |may| if may { RowStores::Unmeasured } else { RowStores::Plain };
        assert_eq!(unmeasured.row_gather_stores(row, far), measures_if(avx512));
        let small_l2 = Machine {
            l2: Some(OUT_OF_CACHE_FROM / 2),
            ..unmeasured
        };
        assert_eq!(small_l2.row_gather_stores(row, OUT_OF_CACHE_FROM), RowStores::Plain);
        assert_eq!(small_l2.row_gather_stores(row, far), measures_if(avx512));
        assert_eq!(unmeasured.row_gather_stores(row - 1, far), RowStores::Plain);
        assert_eq!(
            with_l2(1, RowStores::Unmeasured).row_gather_stores(row, far),
            measures_if(cfg!(miri))
        );
    }

    #[test]
    fn sets_stream_copies_always_fills_out_of_the_cache_and_rows_where_measured_faster() {
        let streamed = with_l2(1, RowStores::Streamed);
        let plain = with_l2(1, RowStores::Plain);
        let (large, target) = (STREAM_FROM, OUT_OF_CACHE_FROM + 1);
        // A copy into a view streams whatever the target's size.
        assert!(streamed.streams_set(Destinations::Distinct, true, large, MB));
        assert!(streamed.streams_set(Destinations::Distinct, true, large, target));
        // A fill streams only into a target out of the cache.
        assert!(streamed.streams_set(Destinations::Distinct, false, large, target));
        assert!(!streamed.streams_set(Destinations::Distinct, false, large, OUT_OF_CACHE_FROM));
        // Below the size, never.
        assert!(!streamed.streams_set(Destinations::Distinct, true, large - 1, target));
        // The rows of a row scatter: copies only, and only where rows stream faster.
        assert!(streamed.streams_set(Destinations::Rows, true, large, target));
        assert!(!streamed.streams_set(Destinations::Rows, false, large, target));
        assert!(!plain.streams_set(Destinations::Rows, true, large, target));
        assert!(plain.streams_set(Destinations::Distinct, true, large, target));
        // Other indexed plans: never.
        assert!(!streamed.streams_set(Destinations::Other, true, large, target));
        // Fills forced plain: never streamed; copies still are.
        let plain_fills = Machine {
            plain_fills: true,
            ..streamed
        };
        assert!(!plain_fills.streams_set(Destinations::Distinct, false, large, target));
        assert!(plain_fills.streams_set(Destinations::Distinct, true, large, target));
    }

    #[test]
    fn a_split_by_destination_needs_a_large_target_many_updates_and_u32_ranges() {
        let two = with_l2(2, RowStores::Plain);
        let one = with_l2(1, RowStores::Plain);
        let len = SPLIT_TARGETS_FROM / 4;
        assert_eq!(two.splits_by_destination(SPLIT_TARGETS_FROM, len, PARALLEL_FROM), THREADS);
        assert!(!two.splits_by_destination(SPLIT_TARGETS_FROM - 1, len, PARALLEL_FROM));
        assert!(!two.splits_by_destination(SPLIT_TARGETS_FROM, len, PARALLEL_FROM - 1));
        assert!(!one.splits_by_destination(SPLIT_TARGETS_FROM, len, PARALLEL_FROM));
        let beyond_u32 = 2 * (u32::MAX as usize + 1);
        assert!(!two.splits_by_destination(beyond_u32 * 4, beyond_u32 + 2, PARALLEL_FROM));
        assert!(splits_rows(SPLIT_ROWS_FROM) && !splits_rows(SPLIT_ROWS_FROM - 1));
    }

    #[test]
    fn sums_split_where_shares_fit_half_the_l2_or_the_target_is_out_of_the_cache() {
        assert!(!shares_fit_the_l2(4 * MB, 2, 2 * MB));
        assert!(shares_fit_the_l2(4 * MB, 4, 2 * MB));
        assert!(!shares_fit_the_l2(4 * MB, 2, MB));
        assert!(shares_fit_the_l2(4 * MB, 8, MB));
        // On whole machines: an 8 MB target of `f32` splits where each
        // thread's share fits half the L2, or where no L2 is said; a target
        // out of the cache splits on any L2.
        let (len, out) = (2 * MB, OUT_OF_CACHE_FROM + 4);
        assert!(!with_l2(2, RowStores::Streamed).sums_split(8 * MB, len, PARALLEL_FROM));
        assert_eq!(
            machine(2, Some(8 * MB), RowStores::Streamed).sums_split(8 * MB, len, PARALLEL_FROM),
            THREADS
        );
        assert_eq!(
            machine(2, None, RowStores::Streamed).sums_split(8 * MB, len, PARALLEL_FROM),
            THREADS
        );
        assert_eq!(with_l2(2, RowStores::Streamed).sums_split(out, out / 4, PARALLEL_FROM), THREADS);
        assert!(!with_l2(1, RowStores::Streamed).sums_split(out, out / 4, PARALLEL_FROM));
    }

    #[test]
    fn accumulations_partition_on_two_threads_with_updates_to_spare() {
        let two = with_l2(2, RowStores::Streamed);
        let expected = |parts| THREADS.then_some(parts);
        assert_eq!(two.partitions(1000, 1 << 17), expected(2));
        // Fewer updates than elements: one part, no partition.
        assert_eq!(two.partitions(1 << 20, 1 << 17), None);
        assert_eq!(with_l2(8, RowStores::Streamed).partitions(1 << 16, 1 << 17), expected(3));
        assert_eq!(with_l2(1, RowStores::Streamed).partitions(1000, 1 << 17), None);
        assert_eq!(two.partitions(10, PARALLEL_FROM - 1), None);
    }

    #[test]
    fn pieces_need_positions_for_every_thread() {
        let two = with_l2(2, RowStores::Streamed);
        assert!(two.cuts_pieces(2 * PIECE_FROM) && !two.cuts_pieces(2 * PIECE_FROM - 1));
        assert!(two.fills_threads(2) && !two.fills_threads(1));
        assert!(with_l2(1, RowStores::Streamed).fills_threads(1));
    }

    /// Miri's machine and thresholds send arrays of a few thousand elements
    /// down the paths that native ones take for millions.
    #[cfg(miri)]
    #[test]
    fn under_miri_small_arrays_take_every_path() {
        let two = Machine { threads: 2, ..UNDER_MIRI };
        let (within, beyond) = (2 << 10, 8 << 10);
        assert!(!beyond_cache(within) && beyond_cache(beyond));
        assert_eq!(two.splits(256), THREADS);
        assert_eq!(two.splits_by_destination(within, within / 4, 256), THREADS);
        assert_eq!(two.sums_split(beyond, beyond / 4, 256), THREADS);
        assert!(two.streams_set(Destinations::Distinct, false, 1 << 10, beyond));
        assert!(two.streams_set(Destinations::Rows, true, 1 << 10, within));
        assert_eq!(two.row_gather_stores(4 * 34, 1 << 10), RowStores::Streamed);
        let unmeasured = Machine {
            rows: RowStores::Unmeasured,
            ..two
        };
        assert_eq!(unmeasured.row_gather_stores(4 * 34, beyond), RowStores::Unmeasured);
        assert!(splits_rows(16 * 8) && builds_mask_pass(256) && !few_rows(FEW_ROWS, 256));
    }

    #[test]
    fn small_calls_take_the_paths_with_no_plan() {
        assert!(few_rows(FEW_ROWS, SMALL_REGION / FEW_ROWS));
        assert!(!few_rows(FEW_ROWS + 1, 1));
        assert!(!few_rows(2, SMALL_REGION));
        assert!(few_rows(0, usize::MAX));
        assert!(checks_first(FEW_INDICES) && !checks_first(FEW_INDICES + 1));
        assert!(rolls_back(4000, 8000) && !rolls_back(4000, 7999));
        assert!(builds_mask_pass(MASK_PASS_BUILT_FROM) && !builds_mask_pass(MASK_PASS_BUILT_FROM - 1));
    }
}
