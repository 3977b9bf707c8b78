//! The workloads of `docs/workloads.md`, each written with the public
//! macros as a user would write it, on peers.py's inputs (its `workload`s) and
//! with its useful-bytes formulas (`WORKLOADS`).

use ndarray::{Array, Array2, Dimension};
use serde_json::Value;
use tensor_at::{along, at};

use crate::inputs::{bools, fingerprint, ints, seed, sum, symmetric, uniform, unique};

/// Every workload: name and what it does, in peers.py's order.
pub const WORKLOADS: [(&str, &str); 21] = [
    ("W1", "x(4096,4096)[:, 1000:3000] = y(4096,2000)"),
    ("W2", "x(4096,4096)[:, 1:4000:2] = y(4096,2000)"),
    ("W3a", "x(256,256,256)[:, :, 2] = 0"),
    ("W3b", "x(256,256,256)[10:200, :, :] = 0"),
    ("W4", "x(4096,4096)[100:3000, :] = row(4096,)"),
    ("W5", "x(16M)[idx(2M, dups)] = v(2M)"),
    ("W6", "add.at: x(1M)[idx(8M)] += v(8M), duplicates accumulate"),
    ("W7", "x(100000,128)[rows(20000 unique)] = upd(20000,128)"),
    ("W8", "x(16M sym.)[x < 0] = 0"),
    ("W9", "m = x(16M) < 0; x[m] = vals(m.sum())"),
    ("W10", "x(4096,4096)[idx(1000 unique), 1:3000:3] = y(1000,1000)"),
    ("W11a", "out = x(100000,128)[rows(200000)]  (gather)"),
    ("W11a/out", "x(100000,128)[rows(200000)] into an existing out (np.take(.., out=))"),
    ("W11b", "out = x(100000,128)[mask(100000, p=.5)]  (mask gather)"),
    ("W12", "x(4096,4096)[i(4M), j(4M)] = v(4M)"),
    ("W13", "max.at: x(1M)[idx(8M)] = max(x[idx], v(8M))"),
    ("W14", "out = take_along_axis(x(65536,512), idx(65536,8), axis=1)  (batched gather)"),
    ("W14/batch", "W14 as tf.gather(x, idx, batch_dims=1)  (65,536 batches of 8 picks)"),
    (
        "W15",
        "scatter_add along axis 1: x(65536,512)[b, idx(65536,16)[b]] += src(65536,16)[b], dups accumulate",
    ),
    ("W15/batch", "W15 as the vmap of .at[].add  (65,536 batches of 16 picks)"),
    (
        "W16",
        "batched set (vmap of .at[].set): x(64,8192,64)[b, idx(64,1024)[b]] = v(64,1024,64)[b]",
    ),
];

/// The least bytes memory must move for the workloads bound by memory
/// bandwidth, held to a share of the copy's: what is read and written,
/// counting whole cache lines where a line is only partly written (its
/// other elements must be read first). `None` for the others. W1, W3b and
/// W4 write whole lines, so they move their `useful_bytes`; W2 and W3a
/// write parts of lines.
pub fn memory_bytes(workload: &str, useful_bytes: u64) -> Option<u64> {
    const LINE: u64 = 64;
    match workload {
        "W1" | "W3b" | "W4" => Some(useful_bytes),
        // Reads y, and reads and writes back every line the columns
        // 1, 3, .., 3999 of each row touch (bytes 4 to 16000).
        "W2" => Some(4096 * 2000 * F4 + 2 * 4096 * (3999 * F4 + F4).div_ceil(LINE) * LINE),
        // Reads and writes back the line of each of the 65,536 elements
        // written, 1 KiB apart.
        "W3a" => Some(2 * 256 * 256 * LINE),
        _ => None,
    }
}

/// Bytes of a `float32` and of an index, as peers.py counts them.
const F4: u64 = 4;
const I8: u64 = 8;
const M: usize = 1 << 20;

/// One workload, ready to run: its inputs' fingerprints, its useful bytes,
/// and the state the timed operation runs on.
pub struct Case {
    /// The operation as written, e.g. `at!(x[idx] += v)`.
    pub variant: &'static str,
    /// Element payload read and written plus 8 bytes per index.
    pub useful_bytes: u64,
    /// peers.py's `fingerprint()` of each input, in its order.
    pub inputs: Vec<(&'static str, Value)>,
    pub runner: Box<dyn Runner>,
}

/// The state of one workload between runs.
pub trait Runner {
    /// The timed operation.
    fn run(&mut self);
    /// Whether `x` is restored from a pristine copy before every run (the
    /// operations that are not idempotent: W8, W9).
    fn restores(&self) -> bool;
    /// Restores `x` from its pristine copy, if it keeps one.
    fn restore(&mut self);
    /// The `float64` sum of the result: `x` after the operation, or the
    /// gathered array.
    fn result_sum(&self) -> f64;
}

/// An operation updating `x` in place.
struct InPlace<D: Dimension, F> {
    x: Array<f32, D>,
    pristine: Option<Array<f32, D>>,
    op: F,
}

impl<D: Dimension, F: FnMut(&mut Array<f32, D>)> Runner for InPlace<D, F> {
    fn run(&mut self) {
        (self.op)(&mut self.x);
    }
    fn restores(&self) -> bool {
        self.pristine.is_some()
    }
    fn restore(&mut self) {
        if let Some(pristine) = &self.pristine {
            self.x.assign(pristine);
        }
    }
    fn result_sum(&self) -> f64 {
        sum(&self.x)
    }
}

fn in_place<D: Dimension + 'static>(x: Array<f32, D>, op: impl FnMut(&mut Array<f32, D>) + 'static) -> Box<dyn Runner> {
    Box::new(InPlace { x, pristine: None, op })
}

/// [`in_place`], restoring `x` from a copy before every run.
fn restoring<D: Dimension + 'static>(x: Array<f32, D>, op: impl FnMut(&mut Array<f32, D>) + 'static) -> Box<dyn Runner> {
    let pristine = Some(x.clone());
    Box::new(InPlace { x, pristine, op })
}

/// An operation returning a new array (`out = x[...]`).
struct Gather<D: Dimension, F> {
    out: Option<Array<f32, D>>,
    op: F,
}

impl<D: Dimension, F: FnMut() -> Array<f32, D>> Runner for Gather<D, F> {
    fn run(&mut self) {
        // As peers.py's `s.out = s.x[s.rows]`: the previous result is freed
        // inside the timed run.
        self.out = Some((self.op)());
    }
    fn restores(&self) -> bool {
        false
    }
    fn restore(&mut self) {}
    fn result_sum(&self) -> f64 {
        self.out.as_ref().map_or(f64::NAN, sum)
    }
}

fn gather<D: Dimension + 'static>(op: impl FnMut() -> Array<f32, D> + 'static) -> Box<dyn Runner> {
    Box::new(Gather { out: None, op })
}

/// A read into an existing array (`at!(x[..]; out = out)`): the output is
/// allocated once, outside the timed runs.
struct GatherInto<D: Dimension, F> {
    out: Array<f32, D>,
    op: F,
}

impl<D: Dimension, F: FnMut(&mut Array<f32, D>)> Runner for GatherInto<D, F> {
    fn run(&mut self) {
        (self.op)(&mut self.out);
    }
    fn restores(&self) -> bool {
        false
    }
    fn restore(&mut self) {}
    fn result_sum(&self) -> f64 {
        sum(&self.out)
    }
}

fn gather_into<D: Dimension + 'static>(out: Array<f32, D>, op: impl FnMut(&mut Array<f32, D>) + 'static) -> Box<dyn Runner> {
    Box::new(GatherInto { out, op })
}

fn nbytes<A, D: Dimension>(array: &Array<A, D>) -> u64 {
    (array.len() * size_of::<A>()) as u64
}

fn count(mask: impl IntoIterator<Item = bool>) -> usize {
    mask.into_iter().filter(|&m| m).count()
}

/// `[("x", fingerprint(&x)), ...]`, named as peers.py names the inputs.
macro_rules! fingerprints {
    ($($input:ident),+) => {
        vec![$((stringify!($input), fingerprint(&$input))),+]
    };
}

/// Generates the inputs of `name` (one of [`WORKLOADS`]) and its operation.
pub fn build(name: &str) -> Case {
    match name {
        "W1" => {
            let x = uniform(seed(1, 0), (4096, 4096));
            let y = uniform(seed(1, 1), (4096, 2000));
            Case {
                variant: "at!(x[:, 1000:3000] = y)",
                useful_bytes: 2 * nbytes(&y),
                inputs: fingerprints!(x, y),
                runner: in_place(x, move |x| at!(x[:, 1000:3000] = y)),
            }
        }
        "W2" => {
            let x = uniform(seed(2, 0), (4096, 4096));
            let y = uniform(seed(2, 1), (4096, 2000));
            Case {
                variant: "at!(x[:, 1:4000:2] = y)",
                useful_bytes: 2 * nbytes(&y),
                inputs: fingerprints!(x, y),
                runner: in_place(x, move |x| at!(x[:, 1:4000:2] = y)),
            }
        }
        "W3a" => {
            let x = uniform(seed(3, 0), (256, 256, 256));
            Case {
                variant: "at!(x[:, :, 2] = 0.0)",
                useful_bytes: 256 * 256 * F4,
                inputs: fingerprints!(x),
                runner: in_place(x, |x| at!(x[:, :, 2] = 0.0)),
            }
        }
        "W3b" => {
            let x = uniform(seed(3, 0), (256, 256, 256));
            Case {
                variant: "at!(x[10:200, :, :] = 0.0)",
                useful_bytes: 190 * 256 * 256 * F4,
                inputs: fingerprints!(x),
                runner: in_place(x, |x| at!(x[10:200, :, :] = 0.0)),
            }
        }
        "W4" => {
            let x = uniform(seed(4, 0), (4096, 4096));
            let row = uniform(seed(4, 1), 4096);
            Case {
                variant: "at!(x[100:3000, :] = row)",
                useful_bytes: 2900 * 4096 * F4 + nbytes(&row),
                inputs: fingerprints!(x, row),
                runner: in_place(x, move |x| at!(x[100:3000, :] = row)),
            }
        }
        "W5" => {
            let x = uniform(seed(5, 0), 16 * M);
            let idx = ints(seed(5, 1), 2 * M, 16 * M as u64);
            let v = uniform(seed(5, 2), 2 * M);
            Case {
                variant: "at!(x[idx] = v)",
                useful_bytes: idx.len() as u64 * (I8 + 2 * F4),
                inputs: fingerprints!(x, idx, v),
                runner: in_place(x, move |x| at!(x[idx] = v)),
            }
        }
        "W6" => {
            let x = uniform(seed(6, 0), M);
            let idx = ints(seed(6, 1), 8 * M, M as u64);
            let v = uniform(seed(6, 2), 8 * M);
            Case {
                variant: "at!(x[idx] += v)",
                useful_bytes: idx.len() as u64 * (I8 + 3 * F4),
                inputs: fingerprints!(x, idx, v),
                runner: in_place(x, move |x| at!(x[idx] += v)),
            }
        }
        "W7" => {
            let x = uniform(seed(7, 0), (100000, 128));
            let rows = unique(seed(7, 1), 20000, 100000);
            let upd = uniform(seed(7, 2), (20000, 128));
            Case {
                variant: "at!(x[rows] = upd)",
                useful_bytes: rows.len() as u64 * I8 + 2 * nbytes(&upd),
                inputs: fingerprints!(x, rows, upd),
                runner: in_place(x, move |x| at!(x[rows] = upd)),
            }
        }
        "W8" => {
            let x = symmetric(seed(8, 0), 16 * M);
            Case {
                variant: "at!(x[x < 0.0] = 0.0)",
                useful_bytes: nbytes(&x) + count(x.iter().map(|&e| e < 0.0)) as u64 * F4,
                inputs: fingerprints!(x),
                runner: restoring(x, |x| at!(x[x < 0.0] = 0.0)),
            }
        }
        "W9" => {
            let x = symmetric(seed(9, 0), 16 * M);
            let vals = uniform(seed(9, 1), count(x.iter().map(|&e| e < 0.0)));
            Case {
                variant: "at!(x[x < 0.0] = vals)",
                useful_bytes: nbytes(&x) + 2 * nbytes(&vals),
                inputs: fingerprints!(x, vals),
                runner: restoring(x, move |x| at!(x[x < 0.0] = vals)),
            }
        }
        "W10" => {
            let x = uniform(seed(10, 0), (4096, 4096));
            let idx = unique(seed(10, 1), 1000, 4096);
            let y = uniform(seed(10, 2), (1000, 1000));
            Case {
                variant: "at!(x[idx, 1:3000:3] = y)",
                useful_bytes: idx.len() as u64 * I8 + 2 * nbytes(&y),
                inputs: fingerprints!(x, idx, y),
                runner: in_place(x, move |x| at!(x[idx, 1:3000:3] = y)),
            }
        }
        "W11a" => {
            let x = uniform(seed(11, 0), (100000, 128));
            let rows = ints(seed(11, 1), 200000, 100000);
            Case {
                variant: "let out = at!(x[rows])",
                useful_bytes: rows.len() as u64 * (I8 + 2 * 128 * F4),
                inputs: fingerprints!(x, rows),
                runner: gather(move || at!(x[rows])),
            }
        }
        "W11a/out" => {
            let x = uniform(seed(11, 0), (100000, 128));
            let rows = ints(seed(11, 1), 200000, 100000);
            let out = ndarray::Array2::<f32>::zeros((rows.len(), 128));
            Case {
                variant: "at!(x[rows]; out = out)",
                useful_bytes: rows.len() as u64 * (I8 + 2 * 128 * F4),
                inputs: fingerprints!(x, rows),
                runner: gather_into(out, move |out| at!(x[rows]; out = out)),
            }
        }
        "W11b" => {
            let x = uniform(seed(11, 0), (100000, 128));
            let mask = bools(seed(11, 2), 100000);
            Case {
                variant: "let out = at!(x[mask])",
                useful_bytes: mask.len() as u64 + 2 * count(mask.iter().copied()) as u64 * 128 * F4,
                inputs: fingerprints!(x, mask),
                runner: gather(move || at!(x[mask])),
            }
        }
        "W12" => {
            let x = uniform(seed(12, 0), (4096, 4096));
            let i = ints(seed(12, 1), 4 * M, 4096);
            let j = ints(seed(12, 2), 4 * M, 4096);
            let v = uniform(seed(12, 3), 4 * M);
            Case {
                variant: "at!(x[i, j] = v)",
                useful_bytes: i.len() as u64 * (2 * I8 + 2 * F4),
                inputs: fingerprints!(x, i, j, v),
                runner: in_place(x, move |x| at!(x[i, j] = v)),
            }
        }
        "W13" => {
            let x = uniform(seed(13, 0), M);
            let idx = ints(seed(13, 1), 8 * M, M as u64);
            let v = uniform(seed(13, 2), 8 * M);
            Case {
                variant: "at!(x[idx].max(v))",
                useful_bytes: idx.len() as u64 * (I8 + 3 * F4),
                inputs: fingerprints!(x, idx, v),
                runner: in_place(x, move |x| at!(x[idx].max(v))),
            }
        }
        "W14" => {
            let (x, idx) = w14_inputs();
            Case {
                variant: "let out = at!(x[along(idx, 1)])",
                useful_bytes: idx.len() as u64 * (I8 + 2 * F4),
                inputs: fingerprints!(x, idx),
                runner: gather(move || at!(x[along(idx, 1)])),
            }
        }
        "W14/batch" => {
            let (x, idx) = w14_inputs();
            Case {
                variant: "let out = at!(x[idx]; batch = 1)",
                useful_bytes: idx.len() as u64 * (I8 + 2 * F4),
                inputs: fingerprints!(x, idx),
                runner: gather(move || at!(x[idx]; batch = 1)),
            }
        }
        "W15" => {
            let (x, idx, src) = w15_inputs();
            Case {
                variant: "at!(x[along(idx, 1)] += src)",
                useful_bytes: idx.len() as u64 * (I8 + 3 * F4),
                inputs: fingerprints!(x, idx, src),
                runner: in_place(x, move |x| at!(x[along(idx, 1)] += src)),
            }
        }
        "W15/batch" => {
            let (x, idx, src) = w15_inputs();
            Case {
                variant: "at!(x[idx] += src; batch = 1)",
                useful_bytes: idx.len() as u64 * (I8 + 3 * F4),
                inputs: fingerprints!(x, idx, src),
                runner: in_place(x, move |x| at!(x[idx] += src; batch = 1)),
            }
        }
        "W16" => {
            let x = uniform(seed(16, 0), (64, 8192, 64));
            // Batch b's rows: peers.py's `distinct(seed(16, 1) + 1000 * b, ..)`.
            let rows: Vec<_> = (0..64).flat_map(|b| unique(seed(16, 1) + 1000 * b, 1024, 8192)).collect();
            let idx = ndarray::Array2::from_shape_vec((64, 1024), rows).expect("64 batches of 1024 rows");
            let v = uniform(seed(16, 2), (64, 1024, 64));
            Case {
                variant: "at!(x[idx] = v; batch = 1)",
                useful_bytes: idx.len() as u64 * I8 + 2 * nbytes(&v),
                inputs: fingerprints!(x, idx, v),
                runner: in_place(x, move |x| at!(x[idx] = v; batch = 1)),
            }
        }
        _ => panic!("no workload {name}"),
    }
}

/// W14's inputs (and W14/batch's): `x(65536, 512)` and 8 picks a row.
pub fn w14_inputs() -> (Array2<f32>, Array2<i64>) {
    let x = uniform(seed(14, 0), (65536, 512));
    let idx = ints(seed(14, 1), 65536 * 8, 512)
        .into_shape_with_order((65536, 8))
        .expect("65536 rows of 8");
    (x, idx)
}

/// W15's inputs (and W15/batch's): `x(65536, 512)`, 16 picks a row, and
/// an update for each.
pub fn w15_inputs() -> (Array2<f32>, Array2<i64>, Array2<f32>) {
    let x = uniform(seed(15, 0), (65536, 512));
    let idx = ints(seed(15, 1), 65536 * 16, 512)
        .into_shape_with_order((65536, 16))
        .expect("65536 rows of 16");
    (x, idx, uniform(seed(15, 2), (65536, 16)))
}
