//! The performance workloads (W1–W16, `docs/workloads.md`) on burn tensors
//! of burn's CPU device (flex), beside the same macro calls on ndarray
//! arrays and, where burn has a method for the work, beside that method.
//! The inputs are the main bench's (`benches/workloads/inputs.rs`); index
//! arrays, masks and values are burn tensors, as a burn user holds them.
//! Every run's checksum (the `float64` sum of the result) must equal
//! ndarray's, and each workload's three forms take turns, so that they
//! meet the same machine.
//!
//! Run: `cargo run --release -p tensor-at-burn-tests --example workloads -- [--only W5]... [--repeat R]`

#[path = "../../../benches/workloads/cases.rs"]
#[allow(dead_code)] // shared with the main bench, which reads all of it
mod cases;
#[path = "../../../benches/workloads/inputs.rs"]
#[allow(dead_code)]
mod inputs;
#[path = "../../../benches/workloads/pages.rs"]
#[allow(dead_code)]
mod pages;

use std::time::Instant;

use burn_tensor::{Bool, DType, Device, IndexingUpdateOp, Int, Tensor, TensorData, s};
use ndarray::{Array, Array1, Dimension};
use tensor_at::{along, at};

use cases::Runner;
use inputs::{bools, ints, seed, symmetric, uniform, unique};

const M: usize = 1 << 20;

/// A float tensor on flex holding `array`.
fn tensor<const D: usize, E: Dimension>(array: &Array<f32, E>) -> Tensor<D> {
    let data = TensorData::new(array.iter().copied().collect::<Vec<f32>>(), array.shape().to_vec());
    Tensor::from_data(data, (&Device::flex(), DType::F32))
}

/// An index tensor on flex holding `array`.
fn indices<const D: usize, E: Dimension>(array: &Array<i64, E>) -> Tensor<D, Int> {
    let data = TensorData::new(array.iter().copied().collect::<Vec<i64>>(), array.shape().to_vec());
    Tensor::from_data(data, (&Device::flex(), DType::I64))
}

/// A mask tensor on flex holding `array`.
fn mask(array: &Array1<bool>) -> Tensor<1, Bool> {
    Tensor::from_data(TensorData::new(array.to_vec(), [array.len()]), &Device::flex())
}

/// The `float64` sum of a tensor's elements, as the main bench sums.
fn checksum<const D: usize>(tensor: &Tensor<D>) -> f64 {
    let elements = tensor
        .clone()
        .into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .expect("f32 elements");
    inputs::sum(&Array1::from(elements))
}

/// The tensor `x` holds, taken out of it as a burn user's owned tensor is
/// (`x = x.select_assign(..)`), so that burn may write its buffer in place.
fn owned<const D: usize>(x: &mut Tensor<D>) -> Tensor<D> {
    std::mem::replace(x, Tensor::empty([0; D], (&Device::flex(), DType::F32)))
}

/// A workload updating a burn tensor in place, or reading from it.
struct OnBurn<const D: usize, const R: usize, F> {
    x: Tensor<D>,
    pristine: Option<Tensor<D>>,
    out: Option<Tensor<R>>,
    op: F,
}

impl<const D: usize, const R: usize, F: FnMut(&mut Tensor<D>) -> Option<Tensor<R>>> Runner for OnBurn<D, R, F> {
    fn run(&mut self) {
        self.out = (self.op)(&mut self.x);
    }
    fn restores(&self) -> bool {
        self.pristine.is_some()
    }
    fn restore(&mut self) {
        if let Some(pristine) = &self.pristine {
            // A copy of its own, so that the update may write in place.
            self.x = Tensor::from_data(pristine.to_data(), (&Device::flex(), DType::F32));
        }
    }
    fn result_sum(&self) -> f64 {
        self.out.as_ref().map_or_else(|| checksum(&self.x), checksum)
    }
}

/// An update of `x` in place, restored before every run when `restores`.
fn update<const D: usize, E: Dimension>(
    x: &Array<f32, E>,
    restores: bool,
    mut op: impl FnMut(&mut Tensor<D>) + 'static,
) -> Box<dyn Runner> {
    let x: Tensor<D> = tensor(x);
    Box::new(OnBurn::<D, 1, _> {
        pristine: restores.then(|| x.clone()),
        x,
        out: None,
        op: move |x: &mut Tensor<D>| {
            op(x);
            None
        },
    })
}

/// A read from `x` into a new tensor.
fn read<const D: usize, const R: usize, E: Dimension>(
    x: &Array<f32, E>,
    mut op: impl FnMut(&Tensor<D>) -> Tensor<R> + 'static,
) -> Box<dyn Runner> {
    Box::new(OnBurn {
        x: tensor(x),
        pristine: None,
        out: None,
        op: move |x: &mut Tensor<D>| Some(op(x)),
    })
}

/// The workload `name` with `at!` on burn tensors, and with burn's own
/// method where it has one.
fn build(name: &str) -> (Box<dyn Runner>, Option<Box<dyn Runner>>) {
    match name {
        "W1" | "W2" => {
            let w = if name == "W1" { 1 } else { 2 };
            let x = uniform(seed(w, 0), (4096, 4096));
            let y: Tensor<2> = tensor(&uniform(seed(w, 1), (4096, 2000)));
            let u = y.clone();
            match w {
                1 => (
                    update(&x, false, move |x: &mut Tensor<2>| at!(x[:, 1000:3000] = u.clone())),
                    Some(update(&x, false, move |x: &mut Tensor<2>| {
                        *x = owned(x).slice_assign(s![.., 1000..3000], y.clone());
                    })),
                ),
                _ => (
                    update(&x, false, move |x: &mut Tensor<2>| at!(x[:, 1:4000:2] = u.clone())),
                    Some(update(&x, false, move |x: &mut Tensor<2>| {
                        *x = owned(x).slice_assign(s![.., 1..4000;2], y.clone());
                    })),
                ),
            }
        }
        "W3a" => {
            let x = uniform(seed(3, 0), (256, 256, 256));
            (
                update(&x, false, |x: &mut Tensor<3>| at!(x[:, :, 2] = 0.0)),
                Some(update(&x, false, |x: &mut Tensor<3>| {
                    *x = owned(x).slice_fill(s![.., .., 2..3], 0.0)
                })),
            )
        }
        "W3b" => {
            let x = uniform(seed(3, 0), (256, 256, 256));
            (
                update(&x, false, |x: &mut Tensor<3>| at!(x[10:200, :, :] = 0.0)),
                Some(update(&x, false, |x: &mut Tensor<3>| {
                    *x = owned(x).slice_fill(s![10..200, .., ..], 0.0)
                })),
            )
        }
        "W4" => {
            let x = uniform(seed(4, 0), (4096, 4096));
            let row: Tensor<1> = tensor(&uniform(seed(4, 1), 4096));
            let r = row.clone();
            (
                update(&x, false, move |x: &mut Tensor<2>| at!(x[100:3000, :] = r.clone())),
                Some(update(&x, false, move |x: &mut Tensor<2>| {
                    let rows = row.clone().reshape([1, 4096]).expand([2900, 4096]);
                    *x = owned(x).slice_assign(s![100..3000, ..], rows);
                })),
            )
        }
        "W5" | "W6" | "W13" => {
            let (w, len, count, op) = match name {
                "W5" => (5, 16 * M, 2 * M, IndexingUpdateOp::Assign),
                "W6" => (6, M, 8 * M, IndexingUpdateOp::Add),
                _ => (13, M, 8 * M, IndexingUpdateOp::Max),
            };
            let x = uniform(seed(w, 0), len);
            let idx: Tensor<1, Int> = indices(&ints(seed(w, 1), count, len as u64));
            let v: Tensor<1> = tensor(&uniform(seed(w, 2), count));
            let (i, u) = (idx.clone(), v.clone());
            let ours = match w {
                5 => update(&x, false, move |x: &mut Tensor<1>| at!(x[&i] = u.clone())),
                6 => update(&x, false, move |x: &mut Tensor<1>| at!(x[&i] += u.clone())),
                _ => update(&x, false, move |x: &mut Tensor<1>| at!(x[&i].max(u.clone()))),
            };
            let theirs = update(&x, false, move |x: &mut Tensor<1>| {
                *x = owned(x).select_assign(0, idx.clone(), v.clone(), op);
            });
            (ours, Some(theirs))
        }
        "W7" => {
            let x = uniform(seed(7, 0), (100000, 128));
            let rows: Tensor<1, Int> = indices(&unique(seed(7, 1), 20000, 100000));
            let upd: Tensor<2> = tensor(&uniform(seed(7, 2), (20000, 128)));
            let (r, u) = (rows.clone(), upd.clone());
            let ours = update(&x, false, move |x: &mut Tensor<2>| at!(x[&r] = u.clone()));
            let theirs = update(&x, false, move |x: &mut Tensor<2>| {
                *x = owned(x).select_assign(0, rows.clone(), upd.clone(), IndexingUpdateOp::Assign);
            });
            (ours, Some(theirs))
        }
        "W8" => {
            let x = symmetric(seed(8, 0), 16 * M);
            let ours = update(&x, true, |x: &mut Tensor<1>| at!(x[x < 0.0] = 0.0));
            let theirs = update(&x, true, |x: &mut Tensor<1>| {
                let negative = x.clone().lower_elem(0.0);
                *x = owned(x).mask_fill(negative, 0.0);
            });
            (ours, Some(theirs))
        }
        "W9" => {
            let x = symmetric(seed(9, 0), 16 * M);
            let selected = x.iter().filter(|&&e| e < 0.0).count();
            let vals: Tensor<1> = tensor(&uniform(seed(9, 1), selected));
            (update(&x, true, move |x: &mut Tensor<1>| at!(x[x < 0.0] = vals.clone())), None)
        }
        "W10" => {
            let x = uniform(seed(10, 0), (4096, 4096));
            let idx: Tensor<1, Int> = indices(&unique(seed(10, 1), 1000, 4096));
            let y: Tensor<2> = tensor(&uniform(seed(10, 2), (1000, 1000)));
            (update(&x, false, move |x: &mut Tensor<2>| at!(x[&idx, 1:3000:3] = y.clone())), None)
        }
        "W11a" => {
            let x = uniform(seed(11, 0), (100000, 128));
            let rows: Tensor<1, Int> = indices(&ints(seed(11, 1), 200000, 100000));
            let r = rows.clone();
            let ours = read(&x, move |x: &Tensor<2>| at!(x[&r]));
            let theirs = read(&x, move |x: &Tensor<2>| x.clone().select(0, rows.clone()));
            (ours, Some(theirs))
        }
        "W11b" => {
            let x = uniform(seed(11, 0), (100000, 128));
            let m = mask(&bools(seed(11, 2), 100000));
            (read(&x, move |x: &Tensor<2>| at!(x[&m])), None)
        }
        "W12" => {
            let x = uniform(seed(12, 0), (4096, 4096));
            let i: Tensor<1, Int> = indices(&ints(seed(12, 1), 4 * M, 4096));
            let j: Tensor<1, Int> = indices(&ints(seed(12, 2), 4 * M, 4096));
            let v: Tensor<1> = tensor(&uniform(seed(12, 3), 4 * M));
            (update(&x, false, move |x: &mut Tensor<2>| at!(x[&i, &j] = v.clone())), None)
        }
        "W14" => {
            let x = uniform(seed(14, 0), (65536, 512));
            let idx = ints(seed(14, 1), 65536 * 8, 512)
                .into_shape_with_order((65536, 8))
                .expect("65536 rows of 8");
            let idx: Tensor<2, Int> = indices(&idx);
            let i = idx.clone();
            let ours = read(&x, move |x: &Tensor<2>| at!(x[along(&i, 1)]));
            let theirs = read(&x, move |x: &Tensor<2>| x.clone().gather(1, idx.clone()));
            (ours, Some(theirs))
        }
        "W15" => {
            let x = uniform(seed(15, 0), (65536, 512));
            let idx = ints(seed(15, 1), 65536 * 16, 512)
                .into_shape_with_order((65536, 16))
                .expect("65536 rows of 16");
            let idx: Tensor<2, Int> = indices(&idx);
            let src: Tensor<2> = tensor(&uniform(seed(15, 2), (65536, 16)));
            let (i, s) = (idx.clone(), src.clone());
            let ours = update(&x, false, move |x: &mut Tensor<2>| at!(x[along(&i, 1)] += s.clone()));
            let theirs = update(&x, false, move |x: &mut Tensor<2>| {
                *x = owned(x).scatter(1, idx.clone(), src.clone(), IndexingUpdateOp::Add);
            });
            (ours, Some(theirs))
        }
        "W16" => {
            let x = uniform(seed(16, 0), (64, 8192, 64));
            // Batch b's rows: distinct, as the main bench draws them.
            let rows: Vec<_> = (0..64).flat_map(|b| unique(seed(16, 1) + 1000 * b, 1024, 8192)).collect();
            let idx: Tensor<2, Int> = indices(&ndarray::Array2::from_shape_vec((64, 1024), rows).expect("64 batches of 1024 rows"));
            let v: Tensor<3> = tensor(&uniform(seed(16, 2), (64, 1024, 64)));
            (
                update(&x, false, move |x: &mut Tensor<3>| at!(x[&idx] = v.clone(); batch = 1)),
                None,
            )
        }
        _ => panic!("no workload {name}"),
    }
}

/// One run of `runner` (restored first when it restores), in milliseconds.
fn timed(runner: &mut dyn Runner) -> f64 {
    if runner.restores() {
        runner.restore();
    }
    let start = Instant::now();
    runner.run();
    start.elapsed().as_secs_f64() * 1e3
}

fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    let mid = ms.len() / 2;
    if ms.len().is_multiple_of(2) {
        (ms[mid - 1] + ms[mid]) / 2.0
    } else {
        ms[mid]
    }
}

fn main() {
    let mut only = Vec::new();
    let mut repeat = 7;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--only" => only.extend(args.next().expect("--only needs a workload").split(',').map(str::to_string)),
            "--repeat" => repeat = args.next().and_then(|r| r.parse().ok()).expect("--repeat needs a count"),
            "--bench" => {}
            other => panic!("unknown argument {other}; usage: [--only W5]... [--repeat R]"),
        }
    }
    println!("| workload | ndarray `at!` ms | burn `at!` ms | burn's method ms | burn `at!` / ndarray | burn `at!` / burn's method |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, _) in cases::WORKLOADS.iter().filter(|(name, _)| !name.contains('/')) {
        // `W3` selects W3a and W3b, `W3b` only itself.
        if !only.is_empty() && !only.iter().any(|o| o == name || o == name.trim_end_matches(['a', 'b'])) {
            continue;
        }
        let mut ndarray = cases::build(name).runner;
        let (mut ours, mut theirs) = build(name);
        ndarray.run();
        ours.run();
        let expected = ndarray.result_sum();
        let got = ours.result_sum();
        assert_eq!(
            got.to_bits(),
            expected.to_bits(),
            "{name}: burn's checksum {got}, ndarray's {expected}"
        );
        if let Some(theirs) = theirs.as_mut() {
            theirs.run();
        }
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..repeat {
            a.push(timed(ndarray.as_mut()));
            b.push(timed(ours.as_mut()));
            if let Some(theirs) = theirs.as_mut() {
                c.push(timed(theirs.as_mut()));
            }
        }
        let (a, b) = (median(a), median(b));
        let (method, versus) = if c.is_empty() {
            ("—".to_string(), "—".to_string())
        } else {
            let c = median(c);
            (format!("{c:.2}"), format!("{:.2}", b / c))
        };
        println!("| {name} | {a:.2} | {b:.2} | {method} | {:.2} | {versus} |", b / a);
    }
}
