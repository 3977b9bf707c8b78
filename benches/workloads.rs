//! The performance workloads of `docs/workloads.md`, run through the
//! public macros on the inputs `benches/peers.py` generates for the peers.
//!
//! ```sh
//! cargo bench --bench workloads -- [--only W5]... [--threads N] [--json FILE] [--repeat R] [--warmup W] [--huge-pages] [--machine SPEC]
//! cargo bench --features gpu --bench workloads -- --gpu [--only W5]...   # on a GpuTensor (see workloads/gpu.rs)
//! cargo bench --features cuda --bench workloads -- --gpu [--only W5]...  # the same on CUDA (`hip`: on HIP)
//! ```
//!
//! The protocol is peers.py's: per workload, inputs generated (untimed) and
//! fingerprinted, one validated run from the pristine inputs whose result's
//! `float64` sum is the checksum, then `warmup` untimed and `repeat` timed
//! runs (median and min ms), restoring `x` before every run for W8 and W9
//! only. A 256 MiB copy and fills, timed in the same run, give the memory
//! bandwidth the basic-indexing workloads are measured against, on ordinary
//! and on transparent huge pages, and a new array of W11a's output size
//! what a read into a new array pays on top; `--huge-pages` puts the inputs
//! of 4 MiB or more on huge pages too, as NumPy does with its arrays (see
//! `pages.rs`).
//! `--machine xeon` (or `epyc`, or cache sizes, how rows are stored and an
//! instruction set ceiling: `workloads/machine.rs`) makes the library choose as it does
//! on that machine, so that this one measures the other's branches.
//! `scripts/bench` runs this beside peers.py and prints the ratios.
//!
//! Without `--bench` (as `cargo test --all-targets` runs it) it only checks
//! the input generators against values peers.py generated.

#[path = "workloads/cases.rs"]
mod cases;
#[cfg(any(feature = "gpu", feature = "cuda", feature = "hip"))]
#[path = "workloads/gpu.rs"]
mod gpu;
#[path = "workloads/inputs.rs"]
mod inputs;
#[path = "workloads/machine.rs"]
mod machine;
#[path = "workloads/pages.rs"]
mod pages;
#[path = "workloads/timing.rs"]
mod timing;

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Map, Value, json};
use tensor_core::forced_machine::ForcedMachine;

use cases::WORKLOADS;
use timing::{Bandwidth, Reference, Timing};

const USAGE: &str = "usage: cargo bench [--features gpu] --bench workloads -- [--only W5]... [--threads N] [--json FILE] [--repeat R] [--warmup W] [--huge-pages] [--machine SPEC] [--gpu]";

struct Args {
    only: Vec<String>,
    threads: usize,
    json: Option<PathBuf>,
    repeat: usize,
    warmup: usize,
    /// Inputs of 4 MiB or more on transparent huge pages, as NumPy's are.
    huge_pages: bool,
    /// Run by `cargo bench` (which passes `--bench`), not `cargo test`.
    bench: bool,
    /// The workloads on a GPU tensor (feature `gpu`, `cuda` or `hip`).
    gpu: bool,
    /// The machine the chooser is told about instead of this one, and its
    /// spec as given.
    machine: Option<(ForcedMachine, String)>,
}

impl Args {
    fn parse(mut raw: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut args = Args {
            only: Vec::new(),
            threads: 1,
            json: None,
            repeat: 11,
            warmup: 2,
            huge_pages: false,
            bench: false,
            gpu: false,
            machine: None,
        };
        while let Some(arg) = raw.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
                _ => (arg, None),
            };
            let mut value = || inline.clone().or_else(|| raw.next()).ok_or(format!("{flag} needs a value"));
            let number = |text: String| text.parse::<usize>().map_err(|e| format!("{flag} {text}: {e}"));
            match flag.as_str() {
                "--bench" => args.bench = true,
                "--only" => args.only.extend(value()?.split(',').map(str::to_string)),
                "--threads" => args.threads = number(value()?)?,
                "--json" => args.json = Some(PathBuf::from(value()?)),
                "--repeat" => args.repeat = number(value()?)?,
                "--warmup" => args.warmup = number(value()?)?,
                "--huge-pages" => args.huge_pages = true,
                "--machine" => {
                    let spec = value()?;
                    args.machine = Some((machine::parse(&spec)?, spec));
                }
                "--gpu" if cfg!(any(feature = "gpu", feature = "cuda", feature = "hip")) => args.gpu = true,
                "--gpu" => return Err("--gpu needs the GPU: cargo bench --features gpu --bench workloads -- --gpu".to_string()),
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument {other}")),
            }
        }
        if args.threads == 0 || args.repeat == 0 {
            return Err("--threads and --repeat must be at least 1".to_string());
        }
        if let Some(unknown) = args.only.iter().find(|o| !WORKLOADS.iter().any(|(name, _)| selects(o, name))) {
            let names: Vec<_> = WORKLOADS.iter().map(|(name, _)| *name).collect();
            return Err(format!("no workload {unknown}; one of {}", names.join(" ")));
        }
        Ok(args)
    }

    fn selected(&self) -> impl Iterator<Item = &(&'static str, &'static str)> {
        WORKLOADS
            .iter()
            .filter(|(name, _)| self.only.is_empty() || self.only.iter().any(|o| selects(o, name)))
            // The GPU runs each workload in one form, and the batched forms.
            .filter(|(name, _)| !(self.gpu && name.contains('/') && !name.ends_with("/batch")))
    }
}

/// peers.py's `--only`: `W3` selects W3a and W3b, `W3b` only itself;
/// a workload's other form (`W11a/out`) goes with it.
fn selects(only: &str, name: &str) -> bool {
    let workload = name.split('/').next().unwrap_or(name);
    only == name || only == workload || only == workload.trim_end_matches(['a', 'b'])
}

/// One workload's measurement.
struct Record {
    workload: &'static str,
    desc: &'static str,
    variant: &'static str,
    timing: Timing,
    useful_bytes: u64,
    checksum: f64,
    inputs: Vec<(&'static str, Value)>,
}

impl Record {
    fn gbps(&self) -> f64 {
        self.useful_bytes as f64 / self.timing.median_ms / 1e6
    }
}

fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            eprintln!("{USAGE}");
            return if message.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    if !args.bench {
        // `cargo test --all-targets` runs bench targets too, without
        // `--bench`: check the inputs, measure nothing.
        return match inputs::check_against_peers()
            .map_err(|message| format!("input generator differs from peers.py: {message}"))
            .and_then(|()| machine::check())
        {
            Ok(()) => {
                println!("workloads: the input generators match peers.py, --machine parses; `cargo bench --bench workloads` measures");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("workloads: {message}");
                ExitCode::FAILURE
            }
        };
    }
    eprintln!(
        "# tensor-at workloads: threads={} repeat={} warmup={}{}",
        args.threads,
        args.repeat,
        args.warmup,
        if args.huge_pages { ", inputs on huge pages" } else { "" }
    );
    pages::put_inputs_on_huge_pages(args.huge_pages);
    if let Some((forced, spec)) = &args.machine {
        eprintln!("# the library chooses as on --machine {spec}: {forced:?}");
        tensor_core::forced_machine::force(Some(*forced));
    }
    eprintln!("# {}", timing::THREADS_NOTE);
    let (bandwidth, records) = timing::in_thread_pool(args.threads, || {
        let bandwidth = timing::bandwidth_refs(args.warmup, args.repeat);
        let records: Vec<Record> = args.selected().map(|&(name, desc)| measure(name, desc, &args)).collect();
        (bandwidth, records)
    });
    print_tables(&args, &bandwidth, &records);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&to_json(&args, &bandwidth, &records)).expect("JSON of plain values");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("# wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// Generates the inputs of one workload, checksums one run from them, times
/// it, and drops them.
fn measure(name: &'static str, desc: &'static str, args: &Args) -> Record {
    let mut case = build(name, args);
    for (input, fp) in &case.inputs {
        eprintln!("# {name:5} input {input}: {fp}");
    }
    case.runner.run();
    let checksum = case.runner.result_sum();
    let runner = &mut case.runner;
    let restores = runner.restores();
    // One state, two closures: `run` and `restore` take turns, never overlap.
    let runner = std::cell::RefCell::new(runner);
    let mut restore = || runner.borrow_mut().restore();
    let timing = timing::time_runs(
        args.warmup,
        args.repeat,
        || runner.borrow_mut().run(),
        if restores { Some(&mut restore) } else { None },
    );
    eprintln!("# {name:5} {:32} {:9.3} ms  checksum {checksum}", case.variant, timing.median_ms);
    Record {
        workload: name,
        desc,
        variant: case.variant,
        timing,
        useful_bytes: case.useful_bytes,
        checksum,
        inputs: case.inputs,
    }
}

/// The workload on the CPU, or with `--gpu` on the device of
/// [`gpu::device`].
fn build(name: &str, args: &Args) -> cases::Case {
    #[cfg(any(feature = "gpu", feature = "cuda", feature = "hip"))]
    if args.gpu {
        let gpu = gpu::device().unwrap_or_else(|error| panic!("--gpu: {error}"));
        return gpu::build(name, &gpu);
    }
    let _ = args;
    cases::build(name)
}

fn print_tables(args: &Args, bandwidth: &[Bandwidth], records: &[Record]) {
    println!("\n### Memory bandwidth reference\n");
    println!("| what | median ms | min ms | GB/s (bytes read+written / median) |");
    println!("|---|---:|---:|---:|");
    for b in bandwidth {
        println!(
            "| {} | {:.2} | {:.2} | {:.1} |",
            b.what,
            b.timing.median_ms,
            b.timing.min_ms,
            b.gbps()
        );
    }
    println!("\n### tensor-at workloads\n");
    println!("| wl | variant | threads | median ms | min ms | GB/s | checksum |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for r in records {
        println!(
            "| {} | `{}` | {} | {:.3} | {:.3} | {:.2} | {} |",
            r.workload,
            r.variant,
            args.threads,
            r.timing.median_ms,
            r.timing.min_ms,
            r.gbps(),
            r.checksum
        );
    }
    let bound: Vec<_> = records
        .iter()
        .filter_map(|r| Some((r, cases::memory_bytes(r.workload, r.useful_bytes)?)))
        .collect();
    let rates: Vec<&Bandwidth> = bandwidth.iter().filter(|b| b.kind != Reference::New).collect();
    if !bound.is_empty() {
        println!("\nShare of the memory bandwidth (target: at least 85% of the copy's), from the least bytes memory must move:\n");
        println!(
            "| wl | MB moved | GB/s | {} |",
            rates.iter().map(|b| b.what.as_str()).collect::<Vec<_>>().join(" | ")
        );
        println!("|---|---:|---:|{}", "---:|".repeat(rates.len()));
        for (r, bytes) in bound {
            let gbps = bytes as f64 / r.timing.median_ms / 1e6;
            let shares: Vec<String> = rates.iter().map(|b| format!("{:.0}%", 100.0 * gbps / b.gbps())).collect();
            println!(
                "| {} | {:.0} | {:.2} | {} |",
                r.workload,
                bytes as f64 / 1e6,
                gbps,
                shares.join(" | ")
            );
        }
    }
}

fn to_json(args: &Args, bandwidth: &[Bandwidth], records: &[Record]) -> Value {
    let bandwidth: Vec<Value> = bandwidth
        .iter()
        .map(|b| {
            json!({
                "what": b.what,
                "kind": b.kind.name(),
                "huge_pages": b.huge_pages,
                "median_ms": b.timing.median_ms,
                "min_ms": b.timing.min_ms,
                "bytes": b.bytes,
                "gbps": b.gbps(),
            })
        })
        .collect();
    let records_json: Vec<Value> = records
        .iter()
        .map(|r| {
            json!({
                "workload": r.workload,
                "variant": r.variant,
                "threads": args.threads,
                "median_ms": r.timing.median_ms,
                "min_ms": r.timing.min_ms,
                "checksum": r.checksum,
                "gbps": r.gbps(),
                "useful_bytes": r.useful_bytes,
                "memory_bytes": cases::memory_bytes(r.workload, r.useful_bytes),
                "desc": r.desc,
            })
        })
        .collect();
    let fingerprints: Map<String, Value> = records
        .iter()
        .map(|r| {
            let inputs: Map<String, Value> = r.inputs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            (r.workload.to_string(), Value::Object(inputs))
        })
        .collect();
    json!({
        "tool": "tensor-at benches/workloads.rs",
        "settings": {
            "threads": args.threads,
            "repeat": args.repeat,
            "warmup": args.warmup,
            "only": args.only,
            "huge_pages": args.huge_pages,
            "forced_machine": args.machine.as_ref().map(|(_, spec)| spec),
        },
        "threads_note": timing::THREADS_NOTE,
        "machine": {"cpus": std::thread::available_parallelism().map_or(0, |n| n.get())},
        "bandwidth": bandwidth,
        "records": records_json,
        "fingerprints": fingerprints,
    })
}
