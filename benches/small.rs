//! The cost of the macros on tiny arrays, each case beside its hand-written
//! ndarray twin: what a user pays for `at!` where the work is nil.
//!
//! `cargo bench --bench small`

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{Array1, Array2, s};
use std::hint::black_box;
use tensor_at::{at, set};

fn element(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 element");
    let mut x = Array2::<f32>::zeros((4, 4));
    group.bench_function("read at!(x[1, 2])", |b| b.iter(|| black_box(at!(black_box(&x)[1, 2]))));
    group.bench_function("read x[[1, 2]]", |b| b.iter(|| black_box(black_box(&x)[[1, 2]])));
    group.bench_function("write at!(x[1, 2] = 1)", |b| b.iter(|| at!(black_box(&mut x)[1, 2] = 1.0)));
    group.bench_function("write x[[1, 2]] = 1", |b| b.iter(|| black_box(&mut x)[[1, 2]] = 1.0));
    group.finish();
}

fn fill(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 x[1:3, :] = 1");
    let mut x = Array2::<f32>::zeros((4, 4));
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[1:3, :] = 1.0)));
    group.bench_function("ndarray slice_mut.fill", |b| {
        b.iter(|| black_box(&mut x).slice_mut(s![1..3, ..]).fill(1.0))
    });
    group.finish();
}

fn row(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 read x[1, ..]");
    let x = Array2::<f32>::zeros((4, 4));
    group.bench_function("at!", |b| b.iter(|| black_box(at!(black_box(&x)[1, ..]).len())));
    group.bench_function("ndarray slice s![1, ..]", |b| {
        b.iter(|| black_box(black_box(&x).slice(s![1, ..]).len()))
    });
    group.bench_function("ndarray row", |b| b.iter(|| black_box(black_box(&x).row(1).len())));
    group.finish();
}

fn region_add(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 x[1:3, 1:3] += 1");
    let mut x = Array2::<f32>::zeros((4, 4));
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[1:3, 1:3] += 1.0)));
    group.bench_function("ndarray slice_mut +=", |b| {
        b.iter(|| {
            let mut region = black_box(&mut x).slice_mut(s![1..3, 1..3]);
            region += 1.0;
        })
    });
    group.finish();
}

fn region_mul_60(c: &mut Criterion) {
    let mut group = c.benchmark_group("64x64 x[2:62, 2:62] *= 1.0001");
    let mut x = Array2::<f32>::ones((64, 64));
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[2:62, 2:62] *= 1.0001)));
    group.bench_function("ndarray slice_mut *=", |b| {
        b.iter(|| {
            let mut region = black_box(&mut x).slice_mut(s![2..62, 2..62]);
            region *= 1.0001;
        })
    });
    group.finish();
    let mut group = c.benchmark_group("64x64 x[2:62, 2:62] += y(60x60)");
    let y = Array2::<f32>::from_elem((60, 60), 1e-4);
    group.bench_function("at!", |b| b.iter(|| at!(black_box(&mut x)[2:62, 2:62] += &y)));
    group.bench_function("ndarray slice_mut +=", |b| {
        b.iter(|| {
            let mut region = black_box(&mut x).slice_mut(s![2..62, 2..62]);
            region += &y;
        })
    });
    group.finish();
}

fn mask(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 x[x > 0.5] = 0");
    let mut x = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f32 / 16.0);
    // The mask names the target, so the macro fuses the test into the write.
    group.bench_function("at!", |b| {
        b.iter(|| {
            let x = black_box(&mut x);
            at!(x[x > 0.5] = 0.0)
        })
    });
    group.bench_function("mapv_inplace", |b| {
        b.iter(|| black_box(&mut x).mapv_inplace(|v| if v > 0.5 { 0.0 } else { v }))
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

fn gather_2(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 read x[[0, 2]]");
    let x = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f32);
    let rows = [0usize, 2];
    group.bench_function("at!", |b| b.iter(|| black_box(at!(black_box(&x)[rows]))));
    group.bench_function("ndarray select", |b| {
        b.iter(|| black_box(black_box(&x).select(ndarray::Axis(0), &rows)))
    });
    group.finish();
}

fn copy_and_set(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4 y = set!(x[1, :] = 0)");
    let x = Array2::<f32>::ones((4, 4));
    group.bench_function("set!", |b| b.iter(|| black_box(set!(black_box(&x)[1, :] = 0.0))));
    group.bench_function("clone, then fill", |b| {
        b.iter(|| {
            let mut y = black_box(&x).clone();
            y.row_mut(1).fill(0.0);
            black_box(y)
        })
    });
    group.finish();
}

criterion_group!(
    small,
    element,
    fill,
    row,
    region_add,
    region_mul_60,
    mask,
    scatter_3,
    gather_2,
    copy_and_set
);
criterion_main!(small);
