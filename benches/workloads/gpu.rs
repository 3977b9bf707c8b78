//! The workloads on a [`GpuTensor`] (`--gpu`, with the `gpu`, `cuda` or
//! `hip` feature): the same inputs and checksums as `cases.rs`, written
//! with the same macros, run by tensor-gpu's kernels. Every input lives on
//! the device, uploaded once before the runs, as in a PyTorch or JAX
//! program on a GPU (`peers.py --device cuda`); each run ends with a device
//! sync, so it times the kernels and the one small read back that error
//! mode needs for its flag. On a software driver (lavapipe) the times only
//! show that the workloads run; speed needs a real GPU.

use ndarray::{Array1, Array2, ArrayBase, ArrayD, Data, Dimension};
use tensor_at::gpu::{Gpu, GpuElement, GpuError, GpuTensor};
use tensor_at::{along, at};

use crate::cases::{Case, Runner, w14_inputs, w15_inputs};
use crate::inputs::{bools, fingerprint, ints, seed, sum, symmetric, uniform, unique};

const M: usize = 1 << 20;
const F4: u64 = 4;
const I8: u64 = 8;

/// The first CUDA device, with the `cuda` feature: `--gpu` runs on the
/// first of CUDA, HIP and wgpu compiled in.
#[cfg(feature = "cuda")]
pub fn device() -> Result<Gpu, GpuError> {
    Gpu::cuda(0)
}

/// The first HIP device (feature `hip`, without `cuda`).
#[cfg(all(feature = "hip", not(feature = "cuda")))]
pub fn device() -> Result<Gpu, GpuError> {
    Gpu::hip(0)
}

/// wgpu's device on the platform's own API (feature `gpu` alone).
#[cfg(not(any(feature = "cuda", feature = "hip")))]
pub fn device() -> Result<Gpu, GpuError> {
    Gpu::wgpu()
}

/// An input on the device, uploaded once, outside the timed runs.
fn upload<T: GpuElement, S: Data<Elem = T>, D: Dimension>(gpu: &Gpu, array: &ArrayBase<S, D>) -> GpuTensor<T> {
    GpuTensor::from_array(gpu, array).expect("upload")
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
            self.x = upload(&self.gpu, pristine);
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
        x: upload(gpu, &x),
        pristine: restores.then_some(x),
        out: None,
        op,
    })
}

/// A workload updating `x` in place.
fn update_runner(gpu: &Gpu, x: ArrayD<f32>, restores: bool, mut op: impl FnMut(&mut GpuTensor<f32>) + 'static) -> Box<dyn Runner> {
    runner(gpu, x, restores, move |x| {
        op(x);
        None
    })
}

/// Generates the inputs of `name`, uploads them, and returns its operation
/// on `gpu`.
pub fn build(name: &str, gpu: &Gpu) -> Case {
    let f32_bytes = |len: usize| len as u64 * F4;
    match name {
        "W1" | "W2" => {
            let w = if name == "W1" { 1 } else { 2 };
            let x = uniform(seed(w, 0), (4096, 4096)).into_dyn();
            let y = uniform(seed(w, 1), (4096, 2000)).into_dyn();
            let inputs = vec![("x", fingerprint(&x)), ("y", fingerprint(&y))];
            let useful_bytes = 2 * f32_bytes(y.len());
            let gy = upload(gpu, &y);
            let (variant, runner) = match w {
                1 => (
                    "at!(g[:, 1000:3000] = gy)",
                    update_runner(gpu, x, false, move |x| at!(x[:, 1000:3000] = gy)),
                ),
                _ => (
                    "at!(g[:, 1:4000:2] = gy)",
                    update_runner(gpu, x, false, move |x| at!(x[:, 1:4000:2] = gy)),
                ),
            };
            Case {
                variant,
                useful_bytes,
                inputs,
                runner,
            }
        }
        "W3a" => {
            let x = uniform(seed(3, 0), (256, 256, 256)).into_dyn();
            Case {
                variant: "at!(g[:, :, 2] = 0.0)",
                useful_bytes: f32_bytes(256 * 256),
                inputs: vec![("x", fingerprint(&x))],
                runner: update_runner(gpu, x, false, |x| at!(x[:, :, 2] = 0.0)),
            }
        }
        "W3b" => {
            let x = uniform(seed(3, 0), (256, 256, 256)).into_dyn();
            Case {
                variant: "at!(g[10:200, :, :] = 0.0)",
                useful_bytes: f32_bytes(190 * 256 * 256),
                inputs: vec![("x", fingerprint(&x))],
                runner: update_runner(gpu, x, false, |x| at!(x[10:200, :, :] = 0.0)),
            }
        }
        "W4" => {
            let x = uniform(seed(4, 0), (4096, 4096)).into_dyn();
            let row = uniform(seed(4, 1), 4096).into_dyn();
            let inputs = vec![("x", fingerprint(&x)), ("row", fingerprint(&row))];
            let grow = upload(gpu, &row);
            Case {
                variant: "at!(g[100:3000, :] = grow)",
                useful_bytes: f32_bytes(2900 * 4096 + row.len()),
                inputs,
                runner: update_runner(gpu, x, false, move |x| at!(x[100:3000, :] = grow)),
            }
        }
        "W5" | "W6" | "W13" => {
            let (w, len, count) = match name {
                "W5" => (5, 16 * M, 2 * M),
                "W6" => (6, M, 8 * M),
                _ => (13, M, 8 * M),
            };
            let x = uniform(seed(w, 0), len).into_dyn();
            let idx = ints(seed(w, 1), count, len as u64);
            let v = uniform(seed(w, 2), count).into_dyn();
            let inputs = vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("v", fingerprint(&v))];
            let (gi, gv) = (upload(gpu, &idx), upload(gpu, &v));
            let (variant, per_index, runner) = match w {
                5 => (
                    "at!(g[gi] = gv)",
                    I8 + 2 * F4,
                    update_runner(gpu, x, false, move |x| at!(x[gi] = gv)),
                ),
                6 => (
                    "at!(g[gi] += gv)",
                    I8 + 3 * F4,
                    update_runner(gpu, x, false, move |x| at!(x[gi] += gv)),
                ),
                _ => (
                    "at!(g[gi].max(gv))",
                    I8 + 3 * F4,
                    update_runner(gpu, x, false, move |x| at!(x[gi].max(gv))),
                ),
            };
            Case {
                variant,
                useful_bytes: count as u64 * per_index,
                inputs,
                runner,
            }
        }
        "W7" => {
            let x = uniform(seed(7, 0), (100000, 128)).into_dyn();
            let rows = unique(seed(7, 1), 20000, 100000);
            let upd = uniform(seed(7, 2), (20000, 128)).into_dyn();
            let inputs = vec![("x", fingerprint(&x)), ("rows", fingerprint(&rows)), ("upd", fingerprint(&upd))];
            let useful_bytes = rows.len() as u64 * I8 + 2 * f32_bytes(upd.len());
            let (gi, gu) = (upload(gpu, &rows), upload(gpu, &upd));
            Case {
                variant: "at!(g[gi] = gu)",
                useful_bytes,
                inputs,
                runner: update_runner(gpu, x, false, move |x| at!(x[gi] = gu)),
            }
        }
        "W8" => {
            let x = symmetric(seed(8, 0), 16 * M).into_dyn();
            let selected = x.iter().filter(|&&e| e < 0.0).count();
            Case {
                variant: "at!(g[g < 0.0] = 0.0)",
                useful_bytes: f32_bytes(x.len() + selected),
                inputs: vec![("x", fingerprint(&x))],
                runner: update_runner(gpu, x, true, |x| at!(x[x < 0.0] = 0.0)),
            }
        }
        "W9" => {
            let x = symmetric(seed(9, 0), 16 * M).into_dyn();
            let selected = x.iter().filter(|&&e| e < 0.0).count();
            let vals: Array1<f32> = uniform(seed(9, 1), selected);
            let inputs = vec![("x", fingerprint(&x)), ("vals", fingerprint(&vals))];
            let useful_bytes = f32_bytes(x.len() + 2 * vals.len());
            let gvals = upload(gpu, &vals);
            Case {
                variant: "at!(g[g < 0.0] = gvals)",
                useful_bytes,
                inputs,
                runner: update_runner(gpu, x, true, move |x| at!(x[x < 0.0] = gvals)),
            }
        }
        "W10" => {
            let x = uniform(seed(10, 0), (4096, 4096)).into_dyn();
            let idx = unique(seed(10, 1), 1000, 4096);
            let y = uniform(seed(10, 2), (1000, 1000)).into_dyn();
            let inputs = vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("y", fingerprint(&y))];
            let useful_bytes = idx.len() as u64 * I8 + 2 * f32_bytes(y.len());
            let (gi, gy) = (upload(gpu, &idx), upload(gpu, &y));
            Case {
                variant: "at!(g[gi, 1:3000:3] = gy)",
                useful_bytes,
                inputs,
                runner: update_runner(gpu, x, false, move |x| at!(x[gi, 1:3000:3] = gy)),
            }
        }
        "W11a" => {
            let x = uniform(seed(11, 0), (100000, 128)).into_dyn();
            let rows = ints(seed(11, 1), 200000, 100000);
            let inputs = vec![("x", fingerprint(&x)), ("rows", fingerprint(&rows))];
            let useful_bytes = rows.len() as u64 * (I8 + 2 * 128 * F4);
            let gi = upload(gpu, &rows);
            Case {
                variant: "let out = at!(g[gi])",
                useful_bytes,
                inputs,
                runner: runner(gpu, x, false, move |x| Some(at!(x[gi]))),
            }
        }
        "W11b" => {
            // The mask as 0/1 words on the device: GPU masks are
            // comparisons of device tensors.
            let x = uniform(seed(11, 0), (100000, 128)).into_dyn();
            let mask = bools(seed(11, 2), 100000);
            let selected = mask.iter().filter(|&&m| m).count();
            let inputs = vec![("x", fingerprint(&x)), ("mask", fingerprint(&mask))];
            let gm = upload(gpu, &mask.mapv(u32::from));
            Case {
                variant: "let out = at!(g[gm != 0])",
                useful_bytes: mask.len() as u64 + 2 * f32_bytes(selected * 128),
                inputs,
                runner: runner(gpu, x, false, move |x| Some(at!(x[gm != 0]))),
            }
        }
        "W12" => {
            let x = uniform(seed(12, 0), (4096, 4096)).into_dyn();
            let i = ints(seed(12, 1), 4 * M, 4096);
            let j = ints(seed(12, 2), 4 * M, 4096);
            let v = uniform(seed(12, 3), 4 * M).into_dyn();
            let inputs = vec![
                ("x", fingerprint(&x)),
                ("i", fingerprint(&i)),
                ("j", fingerprint(&j)),
                ("v", fingerprint(&v)),
            ];
            let useful_bytes = i.len() as u64 * (2 * I8 + 2 * F4);
            let (gi, gj, gv) = (upload(gpu, &i), upload(gpu, &j), upload(gpu, &v));
            Case {
                variant: "at!(g[gi, gj] = gv)",
                useful_bytes,
                inputs,
                runner: update_runner(gpu, x, false, move |x| at!(x[gi, gj] = gv)),
            }
        }
        "W14" | "W14/batch" => {
            let (x, idx) = w14_inputs();
            let inputs = vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx))];
            let useful_bytes = idx.len() as u64 * (I8 + 2 * F4);
            let gi = upload(gpu, &idx);
            let (variant, runner) = if name == "W14" {
                let gather = move |x: &mut GpuTensor<f32>| Some(at!(x[along(gi, 1)]));
                ("let out = at!(g[along(gi, 1)])", runner(gpu, x.into_dyn(), false, gather))
            } else {
                let gather = move |x: &mut GpuTensor<f32>| Some(at!(x[gi]; batch = 1));
                ("let out = at!(g[gi]; batch = 1)", runner(gpu, x.into_dyn(), false, gather))
            };
            Case {
                variant,
                useful_bytes,
                inputs,
                runner,
            }
        }
        "W15" | "W15/batch" => {
            let (x, idx, src) = w15_inputs();
            let inputs = vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("src", fingerprint(&src))];
            let useful_bytes = idx.len() as u64 * (I8 + 3 * F4);
            let (gi, gs) = (upload(gpu, &idx), upload(gpu, &src));
            let (variant, runner) = if name == "W15" {
                let add = move |x: &mut GpuTensor<f32>| at!(x[along(gi, 1)] += gs);
                ("at!(g[along(gi, 1)] += gs)", update_runner(gpu, x.into_dyn(), false, add))
            } else {
                let add = move |x: &mut GpuTensor<f32>| at!(x[gi] += gs; batch = 1);
                ("at!(g[gi] += gs; batch = 1)", update_runner(gpu, x.into_dyn(), false, add))
            };
            Case {
                variant,
                useful_bytes,
                inputs,
                runner,
            }
        }
        "W16" => {
            let x = uniform(seed(16, 0), (64, 8192, 64)).into_dyn();
            // Batch b's rows: peers.py's `distinct(seed(16, 1) + 1000 * b, ..)`.
            let rows: Vec<_> = (0..64).flat_map(|b| unique(seed(16, 1) + 1000 * b, 1024, 8192)).collect();
            let idx = Array2::from_shape_vec((64, 1024), rows).expect("64 batches of 1024 rows");
            let v = uniform(seed(16, 2), (64, 1024, 64));
            let inputs = vec![("x", fingerprint(&x)), ("idx", fingerprint(&idx)), ("v", fingerprint(&v))];
            let useful_bytes = idx.len() as u64 * I8 + 2 * f32_bytes(v.len());
            let (gi, gv) = (upload(gpu, &idx), upload(gpu, &v));
            Case {
                variant: "at!(g[gi] = gv; batch = 1)",
                useful_bytes,
                inputs,
                runner: update_runner(gpu, x, false, move |x| at!(x[gi] = gv; batch = 1)),
            }
        }
        _ => panic!("no workload {name}"),
    }
}
