//! `.apply(f)` (JAX's `.at[].apply`, NumPy's `ufunc.at` with a unary ufunc)
//! over index arrays, each case beside the loop that applies `f` in place
//! one index at a time: the least work there is, with none of `.apply`'s
//! guarantees (its target is half-written when `f` panics). What `.apply`
//! adds is the walk of a plan and the log of the elements it replaces,
//! which it puts back if `f` panics.
//!
//! `cargo bench --bench apply`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ndarray::Array1;
use std::hint::black_box;
use tensor_at::at;

/// What every case applies.
fn f(e: f64) -> f64 {
    e * 0.5 + 1.0
}

/// `count` indices below `len` from a fixed linear congruential stream:
/// repeats as uniform draws have them.
fn drawn(count: usize, len: usize) -> Array1<usize> {
    let mut state = 0x5EED_u64;
    (0..count)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % len
        })
        .collect()
}

/// Every index below `len` once, 7,919 (a prime) apart: no repeats, and
/// no two neighbours in the same cache line.
fn distinct(len: usize) -> Array1<usize> {
    (0..len).map(|k| k * 7919 % len).collect()
}

fn apply(c: &mut Criterion) {
    let mut group = c.benchmark_group("apply");
    group.sample_size(20);
    let cases = [
        ("16 drawn of 64", 64, drawn(16, 64)),
        ("1000 drawn of 1M", 1 << 20, drawn(1000, 1 << 20)),
        ("1M distinct of 1M", 1 << 20, distinct(1 << 20)),
        ("1M drawn of 1M", 1 << 20, drawn(1 << 20, 1 << 20)),
    ];
    for (name, len, idx) in cases {
        let mut x = Array1::from_shape_fn(len, |k| k as f64);
        group.bench_function(BenchmarkId::new("at!(x[idx].apply(f))", name), |b| {
            b.iter(|| at!(black_box(&mut x)[idx].apply(f)))
        });
        group.bench_function(BenchmarkId::new("loop x[i] = f(x[i])", name), |b| {
            b.iter(|| {
                let x = black_box(&mut x);
                for &i in &idx {
                    x[i] = f(x[i]);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, apply);
criterion_main!(benches);
