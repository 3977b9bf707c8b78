//! peers.py's protocol (`timed`), its memory bandwidth references
//! (`bandwidth_refs`), and the thread pool the workloads run in.

use std::hint::black_box;
use std::time::Instant;

use crate::pages::vec_on_pages;

/// Median and minimum of the timed runs, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
}

/// `warmup` untimed runs, then `repeat` timed ones; before every run,
/// `restore` (untimed) when given. The median of an even count is the mean of
/// the middle two, as Python's `statistics.median`.
pub fn time_runs(warmup: usize, repeat: usize, mut run: impl FnMut(), mut restore: Option<&mut dyn FnMut()>) -> Timing {
    assert!(repeat > 0, "at least one timed run");
    let mut ms = Vec::with_capacity(repeat);
    for r in 0..warmup + repeat {
        if let Some(restore) = restore.as_mut() {
            restore();
        }
        let t0 = Instant::now();
        run();
        let elapsed = t0.elapsed();
        if r >= warmup {
            ms.push(elapsed.as_secs_f64() * 1e3);
        }
    }
    ms.sort_by(f64::total_cmp);
    let mid = ms.len() / 2;
    let median_ms = if ms.len() % 2 == 1 {
        ms[mid]
    } else {
        (ms[mid - 1] + ms[mid]) / 2.0
    };
    Timing { median_ms, min_ms: ms[0] }
}

/// What a bandwidth reference does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// Copies one buffer into another.
    Copy,
    /// Writes bytes into an existing buffer.
    Fill,
    /// Writes a new array and frees it: its time includes the kernel's work
    /// on new pages, so it is no rate a workload could reach.
    New,
}

impl Reference {
    /// The name the JSON output gives it (`scripts/compare_bench.py` reads it).
    pub fn name(self) -> &'static str {
        match self {
            Reference::Copy => "copy",
            Reference::Fill => "fill",
            Reference::New => "new",
        }
    }
}

/// One memory bandwidth reference: `bytes` read plus written per run.
pub struct Bandwidth {
    pub what: String,
    pub kind: Reference,
    /// Whether the buffers were advised to use transparent huge pages.
    pub huge_pages: bool,
    pub timing: Timing,
    pub bytes: u64,
}

impl Bandwidth {
    /// Bytes per median run, in GB/s.
    pub fn gbps(&self) -> f64 {
        self.bytes as f64 / self.timing.median_ms / 1e6
    }
}

/// The references the basic-indexing targets are measured against, on one
/// thread: a 256 MiB `f32` copy (`copy_from_slice`, a `memcpy`) and
/// 256 MiB `memset`s of zero bytes and of other bytes, each on ordinary
/// pages (what an ndarray array gets) and on transparent huge pages (what
/// NumPy, which advises them for every array of 4 MiB or more, gets;
/// peers.py's memcpy runs on those); then [`new_array_ref`].
pub fn bandwidth_refs(warmup: usize, repeat: usize) -> Vec<Bandwidth> {
    const BYTES: usize = 256 << 20;
    let mut refs = Vec::new();
    for huge_pages in [false, true] {
        let Some(a) = buffer(BYTES / 4, 1.0, huge_pages) else {
            eprintln!("# transparent huge pages unavailable: no huge-page reference");
            continue;
        };
        let mut b = buffer(BYTES / 4, 0.0, huge_pages).expect("advice that worked once works twice");
        let pages = if huge_pages { "huge pages" } else { "4 KiB pages" };
        let copy = time_runs(
            warmup,
            repeat,
            || {
                b.copy_from_slice(black_box(&a));
                black_box(&mut b);
            },
            None,
        );
        refs.push(Bandwidth {
            what: format!("copy_from_slice 256 MiB f32, {pages} (1 thread)"),
            kind: Reference::Copy,
            huge_pages,
            timing: copy,
            bytes: 2 * BYTES as u64,
        });
        // `memset` (streaming stores, for this size) of zero bytes and of
        // other bytes: some machines (a 2-vCPU EPYC VM here) write zeros
        // twice as fast as other bits, so a write of other values is held
        // to the second.
        for byte in [0u8, 0x3f] {
            let fill = time_runs(
                warmup,
                repeat,
                || {
                    let b = black_box(&mut b);
                    // SAFETY: `b` is `b.len()` initialized `f32`s, and any
                    // bytes are a valid `f32`.
                    unsafe { std::ptr::write_bytes(b.as_mut_ptr(), byte, b.len()) };
                    black_box(b);
                },
                None,
            );
            refs.push(Bandwidth {
                what: format!("memset 256 MiB to {byte:#04x}, {pages} (1 thread, write only)"),
                kind: Reference::Fill,
                huge_pages,
                timing: fill,
                bytes: BYTES as u64,
            });
        }
    }
    refs.extend(new_array_ref(warmup, repeat));
    refs
}

/// W11a's output: 200000 rows of 128 `f32`.
const NEW_ARRAY_BYTES: usize = 200_000 * 128 * 4;

/// What a gather into a new array pays that one into an existing array does
/// not: a new `Vec` of W11a's output size on huge pages (as tensor-core's
/// outputs of 32 MiB or more are), written with `0x3f` bytes and freed, each
/// run. Set against the `memset` to `0x3f` on huge pages, the difference is
/// the kernel's work on new pages (faults, zeroing, unmapping), which a
/// peer whose allocator hands back an earlier result's buffer skips.
/// `None` where the kernel refuses huge pages.
fn new_array_ref(warmup: usize, repeat: usize) -> Option<Bandwidth> {
    vec_on_pages::<f32>(NEW_ARRAY_BYTES / 4, true)?;
    let timing = time_runs(
        warmup,
        repeat,
        || {
            let mut v: Vec<f32> = vec_on_pages(NEW_ARRAY_BYTES / 4, true).expect("advice that worked once works again");
            let spare = black_box(v.spare_capacity_mut());
            // SAFETY: `spare` is a live `&mut [MaybeUninit<f32>]`, aligned
            // and valid for writes of `spare.len()` elements; `MaybeUninit`
            // takes any bytes, and the `Vec`'s length stays 0.
            unsafe { std::ptr::write_bytes(spare.as_mut_ptr(), 0x3f, spare.len()) };
            black_box(v);
        },
        None,
    );
    Some(Bandwidth {
        what: format!(
            "new {} MB array, huge pages, written with 0x3f then freed (1 thread, write only)",
            NEW_ARRAY_BYTES / 1_000_000
        ),
        kind: Reference::New,
        huge_pages: true,
        timing,
        bytes: NEW_ARRAY_BYTES as u64,
    })
}

/// `len` copies of `value`, on huge pages when `huge_pages`; `None` if
/// the kernel refuses them.
fn buffer(len: usize, value: f32, huge_pages: bool) -> Option<Vec<f32>> {
    let mut v = vec_on_pages(len, huge_pages)?;
    v.resize(len, value);
    Some(v)
}

/// What `--threads` does.
pub const THREADS_NOTE: &str = "--threads N runs every workload inside a rayon pool of N threads; tensor-at parallelizes large reads (gathers, index checks) and large accumulations whose operation regroups exactly (integer + * min max, float min max), and, split by destination, float sums and products into targets of 4 MB or more when each thread's share then fits half its L2 or the target is past 32 MB, large sets of primitive numbers by a pair of index arrays, by one into a one-dimensional target (past 32 MB each thread asking for its destinations ahead), or of rows of 512 bytes and more stored plainly, the mask sugar's pass over a large target, and indexed writes cut along a coordinate no index picks; results are bitwise identical for every N";

/// Runs `f` inside a rayon pool of `threads` worker threads, where
/// tensor-at's parallel paths run.
pub fn in_thread_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}
