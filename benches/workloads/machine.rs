//! `--machine`: the chooser told about another machine kind, so that one
//! machine measures every branch the chooser takes on another (see
//! `tensor_core::forced_machine`). The results stay the same bit for bit;
//! only the speed moves.
//!
//! A spec is a comma-separated list, later items overriding earlier ones:
//! a kind the project runs on (`xeon`, `epyc`: their L2 as `lscpu` reports
//! it, and how rows stored fastest there: streamed on the Xeon kind, plainly
//! on the EPYC family-26 kind), `l2=SIZE` (bytes, or with `K`/`M`),
//! `rows=plain|streamed|measured` (how a row scatter or gather stores its
//! rows; `measured`: every large one measures again),
//! `fills=plain|streamed` (how a fill past the cache stores: the chooser
//! streams it),
//! `isa=baseline|avx|avx2|avx512f` (a ceiling: never more than the
//! processor has). The library reads no L3 size (a VM's is its host's,
//! shared), so there is none to force.

use tensor_core::forced_machine::{FillStores, ForcedMachine, IsaCeiling, RowStores};

const MB: usize = 1 << 20;

/// The machine kinds of docs/performance.md: their L2 as their VMs report
/// it, and the row stores measured faster there.
const KINDS: &[(&str, ForcedMachine)] = &[
    (
        "xeon",
        ForcedMachine {
            l2: Some(2 * MB),
            rows: Some(RowStores::Streamed),
            fills: None,
            isa: None,
        },
    ),
    (
        "epyc",
        ForcedMachine {
            l2: Some(MB),
            rows: Some(RowStores::Plain),
            fills: None,
            isa: None,
        },
    ),
];

/// The machine `spec` describes.
pub fn parse(spec: &str) -> Result<ForcedMachine, String> {
    let mut machine = ForcedMachine::default();
    for item in spec.split(',').map(str::trim) {
        let unknown = || format!("--machine: unknown item `{item}`; {}", usage());
        match item.split_once('=') {
            None => machine = KINDS.iter().find(|(name, _)| *name == item).ok_or_else(unknown)?.1,
            Some(("l2", size)) => machine.l2 = Some(bytes(size).ok_or_else(unknown)?),
            Some(("rows", name)) => {
                machine.rows = Some(match name {
                    "plain" => RowStores::Plain,
                    "streamed" => RowStores::Streamed,
                    "measured" => RowStores::Unmeasured,
                    _ => return Err(unknown()),
                })
            }
            Some(("fills", name)) => {
                machine.fills = Some(match name {
                    "plain" => FillStores::Plain,
                    "streamed" => FillStores::Streamed,
                    _ => return Err(unknown()),
                })
            }
            Some(("isa", name)) => {
                machine.isa = Some(match name {
                    "baseline" => IsaCeiling::Baseline,
                    "avx" => IsaCeiling::Avx,
                    "avx2" => IsaCeiling::Avx2,
                    "avx512f" => IsaCeiling::Avx512f,
                    _ => return Err(unknown()),
                })
            }
            Some(_) => return Err(unknown()),
        }
    }
    Ok(machine)
}

fn usage() -> String {
    let kinds: Vec<_> = KINDS.iter().map(|(name, _)| *name).collect();
    format!(
        "items: {}, l2=SIZE, rows=plain|streamed|measured, fills=plain|streamed, isa=baseline|avx|avx2|avx512f",
        kinds.join(", ")
    )
}

/// `"2M"`, `"512K"` or `"4096"` in bytes.
fn bytes(size: &str) -> Option<usize> {
    let (number, unit) = match size.strip_suffix(['M', 'm']) {
        Some(number) => (number, MB),
        None => match size.strip_suffix(['K', 'k']) {
            Some(number) => (number, 1 << 10),
            None => (size, 1),
        },
    };
    number.parse::<usize>().ok()?.checked_mul(unit)
}

/// Checks of the parser, run with the bench's input checks (`cargo test`
/// runs the bench without `--bench`).
pub fn check() -> Result<(), String> {
    let xeon_avx2 = parse("xeon,isa=avx2")?;
    let expected = ForcedMachine {
        isa: Some(IsaCeiling::Avx2),
        ..KINDS[0].1
    };
    if xeon_avx2 != expected {
        return Err(format!("xeon,isa=avx2 parsed as {xeon_avx2:?}"));
    }
    let sizes = parse("epyc,l2=512K,rows=measured,fills=plain")?;
    if (sizes.l2, sizes.rows, sizes.fills) != (Some(512 << 10), Some(RowStores::Unmeasured), Some(FillStores::Plain)) {
        return Err(format!("epyc,l2=512K,rows=measured,fills=plain parsed as {sizes:?}"));
    }
    for bad in [
        "opteron",
        "l2=lots",
        "isa=sse9",
        "l3=32M",
        "vendor=amd",
        "rows=fast",
        "fills=measured",
        "",
    ] {
        if parse(bad).is_ok() {
            return Err(format!("--machine {bad:?} was accepted"));
        }
    }
    Ok(())
}
