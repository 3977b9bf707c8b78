//! tensor-at's `at!` on burn's CPU device (flex) beside burn's own
//! methods for the same work: a gather, a scatter-add and a scatter-set of
//! unique indices, with the indices on the device (promised distinct with
//! `unique` or not) and on the host, and
//! writes with repeated indices beside the loop a user writes to apply
//! each occurrence in turn. Medians of alternated rounds, in
//! milliseconds; the ratio is `at!` over burn.
//!
//! Run: `cargo run --release -p tensor-at-burn-tests --example burn_speed [filter] [--cached | --l2]`
//!
//! `--cached` takes a target of 2^20 rows (4 MB), which stays in the
//! cache, in place of 2^22 (16 MB): fixed costs then show. `--l2` takes
//! 2^17 rows (512 KB) and as many picks, which a core's L2 holds whatever
//! else the machine runs: the steadiest figures on a shared VM.

use std::time::Instant;

use burn_tensor::{DType, Device, IndexingUpdateOp, Int, Tensor, TensorData};
use ndarray::Array1;
use tensor_at::at;
use tensor_at::burn::unique;

/// The target's rows: 2^22, 2^20 with `--cached`, 2^17 with `--l2`.
fn rows() -> usize {
    let flag = |name: &str| std::env::args().any(|arg| arg == name);
    match (flag("--cached"), flag("--l2")) {
        (_, true) => 1 << 17,
        (true, false) => 1 << 20,
        (false, false) => 1 << 22,
    }
}

/// The indices' count: 2^18, or every row of a smaller target.
fn picks(rows: usize) -> usize {
    rows.min(1 << 18)
}

const ROUNDS: usize = 15;
/// Occurrences of the repeated indices: 1024 positions, four times each.
const REPEATED: usize = 4096;

/// A permutation's first [`picks`] entries: unique indices, in no order.
fn unique_indices(rows: usize) -> Vec<i64> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut all: Vec<i64> = (0..rows as i64).collect();
    for i in (1..rows).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        all.swap(i, (state % (i as u64 + 1)) as usize);
    }
    all.truncate(picks(rows));
    all
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Runs `ours` and `theirs` alternately, each waited for, and prints the
/// medians and their ratio.
fn compare(name: &str, mut ours: impl FnMut() -> Tensor<1>, mut theirs: impl FnMut() -> Tensor<1>) {
    let mut filters = std::env::args().skip(1).filter(|arg| !arg.starts_with("--"));
    if filters.next().is_some_and(|filter| !name.contains(&filter)) {
        return;
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let out = ours();
        let _ = out.into_data();
        a.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        let out = theirs();
        let _ = out.into_data();
        b.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let (a, b) = (median(a), median(b));
    println!("{name:<36} at! {a:8.3} ms   burn {b:8.3} ms   ratio {:.2}", a / b);
}

fn main() {
    let device = Device::flex();
    let rows = rows();
    let picks = picks(rows);
    let x = Tensor::<1>::from_data(TensorData::new((0..rows).map(|i| i as f32).collect::<Vec<_>>(), [rows]), &device);
    let indices = unique_indices(rows);
    let host = Array1::from(indices.clone());
    let idx = Tensor::<1, Int>::from_data(TensorData::new(indices.clone(), [picks]), (&device, DType::I64));
    // What a burn user holding host indices writes: the indices uploaded,
    // then burn's method.
    let uploaded = || Tensor::<1, Int>::from_data(TensorData::new(indices.clone(), [picks]), (&device, DType::I64));
    let v = Tensor::<1>::from_data(TensorData::new(vec![1.5f32; picks], [picks]), &device);

    compare("gather, device indices", || at!(x[&idx]), || x.clone().select(0, idx.clone()));
    compare("gather, host indices", || at!(x[host.clone()]), || x.clone().select(0, uploaded()));
    compare(
        "scatter-add, device indices",
        || {
            let mut y = x.clone();
            at!(y[&idx] += v.clone());
            y
        },
        || x.clone().select_assign(0, idx.clone(), v.clone(), IndexingUpdateOp::Add),
    );
    compare(
        "scatter-add, host indices",
        || {
            let mut y = x.clone();
            at!(y[host.clone()] += v.clone());
            y
        },
        || x.clone().select_assign(0, uploaded(), v.clone(), IndexingUpdateOp::Add),
    );
    compare(
        "scatter-set, device indices",
        || {
            let mut y = x.clone();
            at!(y[&idx] = v.clone());
            y
        },
        || x.clone().select_assign(0, idx.clone(), v.clone(), IndexingUpdateOp::Assign),
    );
    compare(
        "scatter-set, device indices, unique",
        || {
            let mut y = x.clone();
            at!(y[unique(&idx)] = v.clone());
            y
        },
        || x.clone().select_assign(0, idx.clone(), v.clone(), IndexingUpdateOp::Assign),
    );
    compare(
        "scatter-mul, device indices",
        || {
            let mut y = x.clone();
            at!(y[&idx] *= v.clone());
            y
        },
        || x.clone().select_assign(0, idx.clone(), v.clone(), IndexingUpdateOp::Mul),
    );
    compare(
        "scatter-mul, device indices, unique",
        || {
            let mut y = x.clone();
            at!(y[unique(&idx)] *= v.clone());
            y
        },
        || x.clone().select_assign(0, idx.clone(), v.clone(), IndexingUpdateOp::Mul),
    );
    compare(
        "scatter-set, host indices",
        || {
            let mut y = x.clone();
            at!(y[host.clone()] = v.clone());
            y
        },
        || x.clone().select_assign(0, uploaded(), v.clone(), IndexingUpdateOp::Assign),
    );

    // Repeated indices: burn's own indexed writes leave them undefined, so
    // a user who needs every occurrence applied in order (and gradients
    // burn defines) writes a loop of one-element slices.
    let len = 1 << 16;
    let repeated: Vec<i64> = (0..REPEATED as i64).map(|k| (k * 7919) % 1024).collect();
    let dup = Tensor::<1, Int>::from_data(TensorData::new(repeated.clone(), [REPEATED]), (&device, DType::I64));
    let small = Tensor::<1>::from_data(TensorData::new((0..len).map(|i| i as f32).collect::<Vec<_>>(), [len]), &device);
    let w = Tensor::<1>::from_data(
        TensorData::new((0..REPEATED).map(|k| (k % 97) as f32 * 0.5).collect::<Vec<_>>(), [REPEATED]),
        &device,
    );
    let looped = |op: fn(Tensor<1>, Tensor<1>) -> Tensor<1>| {
        let mut y = small.clone();
        for (k, &i) in repeated.iter().enumerate() {
            let (i, k) = (i as usize, k);
            let current = y.clone().slice(i..i + 1);
            y = y.slice_assign(i..i + 1, op(current, w.clone().slice(k..k + 1)));
        }
        y
    };
    compare(
        "scatter-set, repeated, vs a loop",
        || {
            let mut y = small.clone();
            at!(y[&dup] = w.clone());
            y
        },
        || looped(|_, value| value),
    );
    compare(
        "scatter-mul, repeated, vs a loop",
        || {
            let mut y = small.clone();
            at!(y[&dup] *= w.clone());
            y
        },
        || looped(|current, value| current * value),
    );
    compare(
        "scatter-max, repeated, vs a loop",
        || {
            let mut y = small.clone();
            at!(y[&dup].max(w.clone()));
            y
        },
        || looped(|current, value| current.max_pair(value)),
    );
}
