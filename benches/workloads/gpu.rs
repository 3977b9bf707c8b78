//! The workloads on a [`GpuTensor`] (`--gpu`, with the `gpu` feature): the
//! same inputs and checksums as `cases.rs`, run by tensor-gpu's kernels
//! through its run-time API. Each run ends with a device sync, so it times
//! the kernels, plus the upload of the value (values live on the host in
//! this API). On a software driver (lavapipe) the times only show that the
//! workloads run; speed needs a real GPU.

use ndarray::{Array1, ArrayD};
use tensor_at::gpu::{Compare, Gpu, GpuTensor};
use tensor_core::{IndexElem, Mode, Op, PySlice, ix};

use crate::cases::{Case, Runner};
use crate::inputs::{bools, fingerprint, ints, seed, sum, symmetric, uniform, unique};

const M: usize = 1 << 20;
const F4: u64 = 4;
const I8: u64 = 8;

/// `a:b:c`.
fn py<'a>(start: Option<isize>, stop: Option<isize>, step: Option<isize>) -> IndexElem<'a> {
    ix(PySlice::new(start, stop, step))
}

/// A workload updating `x` on the device, or gathering from it.
struct OnDevice<F> {
    gpu: Gpu,
    x: GpuTensor<f32>,
    /// The inputs of `x`, for the operations that are not idempotent.
    pristine: Option<ArrayD<f32>>,
    /// The result of the last run, for gathers.
    out: Option<GpuTensor<f32>>,
    op: F,
}

impl<F: FnMut(&mut GpuTensor<f32>) -> Option<GpuTensor<f32>>> Runner for OnDevice<F> {
    fn run(&mut self) {
        self.out = (self.op)(&mut self.x);
        self.gpu.sync().expect("the device finishes the workload");
    }
    fn restores(&self) -> bool {
        self.pristine.is_some()
    }
    fn restore(&mut self) {
        if let Some(pristine) = &self.pristine {
            self.x = GpuTensor::from_array(&self.gpu, pristine).expect("upload");
        }
    }
    fn result_sum(&self) -> f64 {
        let result = self.out.as_ref().unwrap_or(&self.x);
        sum(&result.to_array().expect("download"))
    }
}

fn runner(
    gpu: &Gpu,
    x: ArrayD<f32>,
    restores: bool,
    op: impl FnMut(&mut GpuTensor<f32>) -> Option<GpuTensor<f32>> + 'static,
) -> Box<dyn Runner> {
    Box::new(OnDevice {
        gpu: gpu.clone(),
        x: GpuTensor::from_array(gpu, &x).expect("upload"),
        pristine: restores.then_some(x),
        out: None,
        op,
    })
}

/// An update through `index` with `value`.
fn update(x: &mut GpuTensor<f32>, index: &[IndexElem<'_>], op: Option<Op>, value: &ArrayD<f32>) -> Option<GpuTensor<f32>> {
    match op {
        None => x.set(index, value, Mode::Error),
        Some(op) => x.update(index, op, value, Mode::Error),
    }
    .expect("a valid workload");
    None
}

/// Generates the inputs of `name` and its operation on `gpu`.
pub fn build(name: &str, gpu: &Gpu) -> Case {
    let f32_bytes = |len: usize| len as u64 * F4;
    match name {
        "W1" | "W2" => {
            let w = if name == "W1" { 1 } else { 2 };
            let x = uniform(seed(w, 0), (4096, 4096)).into_dyn();
            let y = uniform(seed(w, 1), (4096, 2000)).into_dyn();
            let (variant, columns) = match w {
                1 => ("g.set([:, 1000:3000], y)", py(Some(1000), Some(3000), None)),
                _ => ("g.set([:, 1:4000:2], y)", py(Some(1), Some(4000), Some(2))),
            };
            Case {
                variant,
                useful_bytes: 2 * f32_bytes(y.len()),
                inputs: vec![("x", fingerprint(&x)), ("y", fingerprint(&y))],
                runner: runner(gpu, x, false, move |x| update(x, &[ix(..), columns.clone()], None, &y)),
            }
        }
        "W3a" | "W3b" => {
            let x = uniform(seed(3, 0), (256, 256, 256)).into_dyn();
            let (variant, index, bytes) = match name {
                "W3a" => ("g.set([:, :, 2], 0)", vec![ix(..), ix(..), ix(2)], 256 * 256),
                _ => (
                    "g.set([10:200, :, :], 0)",
                    vec![py(Some(10), Some(200), None), ix(..), ix(..)],
                    190 * 256 * 256,
                ),
            };
            Case {
                variant,
                useful_bytes: f32_bytes(bytes),
                inputs: vec![("x", fingerprint(&x))],
                runner: runner(gpu, x, false, move |x| {
                    x.set(&index, 0.0, Mode::Error).expect("a valid workload");
                    None
                }),
            }
        }
        "W4" => {
            let x = uniform(seed(4, 0), (4096, 4096)).into_dyn();
            let row = uniform(seed(4, 1), 4096).into_dyn();
            Case {
                variant: "g.set([100:3000, :], row)",
                useful_bytes: f32_bytes(2900 * 4096 + row.len()),
                inputs: vec![("x", fingerprint(&x)), ("row", fingerprint(&row))],
                runner: runner(gpu, x, false, move |x| {
                    update(x, &[py(Some(100), Some(3000), None), ix(..)], None, &row)
                }),
            }
        }
        "W5" | "W6" | "W13" => {
            let (w, len, count, op, variant) = match name {
                "W5" => (5, 16 * M, 2 * M, None, "g.set([idx], v)"),
                "W6" => (6, M, 8 * M, Some(Op::Add), "g.update([idx], Add, v)"),
                _ => (13, M, 8 * M, Some(Op::Max), "g.update([idx], Max, v)"),
            };
            let x = uniform(seed(w, 0), len).into_dyn();
            let idx = ints(seed(w, 1), count, len as u64);
            let v = uniform(seed(w, 2), count).into_dyn();
            let per_index = if op.is_some() { I8 + 3 * F4 } else { I8 + 2 * F4 };
            Case {
                variant,
                useful_bytes: count as u64 * per_index,
                inputs: vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("v", fingerprint(&v))],
                runner: runner(gpu, x, false, move |x| update(x, &[ix(&idx)], op, &v)),
            }
        }
        "W7" => {
            let x = uniform(seed(7, 0), (100000, 128)).into_dyn();
            let rows = unique(seed(7, 1), 20000, 100000);
            let upd = uniform(seed(7, 2), (20000, 128)).into_dyn();
            Case {
                variant: "g.set([rows], upd)",
                useful_bytes: rows.len() as u64 * I8 + 2 * f32_bytes(upd.len()),
                inputs: vec![("x", fingerprint(&x)), ("rows", fingerprint(&rows)), ("upd", fingerprint(&upd))],
                runner: runner(gpu, x, false, move |x| update(x, &[ix(&rows)], None, &upd)),
            }
        }
        "W8" | "W9" => {
            let w = if name == "W8" { 8 } else { 9 };
            let x = symmetric(seed(w, 0), 16 * M).into_dyn();
            let selected = x.iter().filter(|&&e| e < 0.0).count();
            let (variant, vals, bytes, inputs) = match w {
                8 => (
                    "g.set_where(Lt, 0, 0)",
                    None,
                    f32_bytes(x.len() + selected),
                    vec![("x", fingerprint(&x))],
                ),
                _ => {
                    let vals: Array1<f32> = uniform(seed(9, 1), selected);
                    let bytes = f32_bytes(x.len() + 2 * vals.len());
                    let inputs = vec![("x", fingerprint(&x)), ("vals", fingerprint(&vals))];
                    ("g.set_where(Lt, 0, vals)", Some(vals), bytes, inputs)
                }
            };
            Case {
                variant,
                useful_bytes: bytes,
                inputs,
                runner: runner(gpu, x, true, move |x| {
                    match &vals {
                        None => x.set_where(Compare::Lt, 0.0, 0.0),
                        Some(vals) => x.set_where(Compare::Lt, 0.0, vals),
                    }
                    .expect("a valid workload");
                    None
                }),
            }
        }
        "W10" => {
            let x = uniform(seed(10, 0), (4096, 4096)).into_dyn();
            let idx = unique(seed(10, 1), 1000, 4096);
            let y = uniform(seed(10, 2), (1000, 1000)).into_dyn();
            Case {
                variant: "g.set([idx, 1:3000:3], y)",
                useful_bytes: idx.len() as u64 * I8 + 2 * f32_bytes(y.len()),
                inputs: vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("y", fingerprint(&y))],
                runner: runner(gpu, x, false, move |x| {
                    update(x, &[ix(&idx), py(Some(1), Some(3000), Some(3))], None, &y)
                }),
            }
        }
        "W11a" => {
            let x = uniform(seed(11, 0), (100000, 128)).into_dyn();
            let rows = ints(seed(11, 1), 200000, 100000);
            Case {
                variant: "let out = g.get([rows])",
                useful_bytes: rows.len() as u64 * (I8 + 2 * 128 * F4),
                inputs: vec![("x", fingerprint(&x)), ("rows", fingerprint(&rows))],
                runner: runner(gpu, x, false, move |x| {
                    Some(x.get(&[ix(&rows)], Mode::Error).expect("a valid workload"))
                }),
            }
        }
        "W11b" => {
            let x = uniform(seed(11, 0), (100000, 128)).into_dyn();
            let mask = bools(seed(11, 2), 100000);
            let selected = mask.iter().filter(|&&m| m).count();
            Case {
                variant: "let out = g.get([mask])",
                useful_bytes: mask.len() as u64 + 2 * f32_bytes(selected * 128),
                inputs: vec![("x", fingerprint(&x)), ("mask", fingerprint(&mask))],
                runner: runner(gpu, x, false, move |x| {
                    Some(x.get(&[ix(&mask)], Mode::Error).expect("a valid workload"))
                }),
            }
        }
        "W12" => {
            let x = uniform(seed(12, 0), (4096, 4096)).into_dyn();
            let i = ints(seed(12, 1), 4 * M, 4096);
            let j = ints(seed(12, 2), 4 * M, 4096);
            let v = uniform(seed(12, 3), 4 * M).into_dyn();
            Case {
                variant: "g.set([i, j], v)",
                useful_bytes: i.len() as u64 * (2 * I8 + 2 * F4),
                inputs: vec![
                    ("x", fingerprint(&x)),
                    ("i", fingerprint(&i)),
                    ("j", fingerprint(&j)),
                    ("v", fingerprint(&v)),
                ],
                runner: runner(gpu, x, false, move |x| update(x, &[ix(&i), ix(&j)], None, &v)),
            }
        }
        _ => panic!("no workload {name}"),
    }
}
