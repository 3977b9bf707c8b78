//! The cost of the macros on tiny updates, against the same update written
//! by hand with ndarray: what a user pays for `at!` where the work is nil.
//!
//! `cargo bench --bench small`

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{Array1, Array2, s};
use std::hint::black_box;
use tensor_at::at;

fn set_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 x[1:3, :] = 1");
    let mut x = Array2::<f32>::zeros((4, 4));
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[1:3, :] = 1.0)));
    group.bench_function("ndarray slice_mut.fill", |b| {
        b.iter(|| black_box(&mut x).slice_mut(s![1..3, ..]).fill(1.0))
    });
    group.finish();
}

fn scatter_3(c: &mut Criterion) {
    let mut group = c.benchmark_group("x(16)[[1, 5, 9]] += v(3)");
    let mut x = Array1::<f32>::zeros(16);
    let idx = [1usize, 5, 9];
    let v = Array1::from(vec![1.0f32, 2.0, 3.0]);
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[idx] += v)));
    group.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let x = black_box(&mut x);
            for (&i, &value) in idx.iter().zip(&v) {
                x[i] += value;
            }
        })
    });
    group.finish();
}

fn read_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 read x[1, ..]");
    let x = Array2::<f32>::zeros((4, 4));
    group.bench_function("at!", |b| b.iter(|| black_box(at!(black_box(&x)[1, ..]).len())));
    group.bench_function("ndarray row", |b| b.iter(|| black_box(black_box(&x).row(1).len())));
    group.bench_function("ndarray slice s![1, ..]", |b| {
        b.iter(|| black_box(black_box(&x).slice(s![1, ..]).len()))
    });
    group.finish();
}

criterion_group!(small, set_4x4, scatter_3, read_4x4);
criterion_main!(small);
