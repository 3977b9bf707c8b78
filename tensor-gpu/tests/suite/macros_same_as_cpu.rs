//! The macros on a GPU tensor: the same `at!`/`set!`/`try_at!`/`try_set!`
//! calls run on an ndarray (tensor-core, the reference) and on a
//! `GpuTensor` holding the same elements give the same elements, bit for
//! bit, and the same errors.

use crate::common::{Lcg, assert_same, floats, upload};
use ndarray::{Array, array};
use tensor_at::{at, set, try_at, try_set};
use tensor_core::IndexError;
use tensor_gpu::{GpuError, GpuTensor};

/// `count` indices in `0..bound`, with duplicates.
fn indices(count: usize, bound: u64, seed: u64) -> ndarray::Array1<i64> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(count, || rng.below(bound) as i64)
}

#[test]
fn updates_are_the_cpus() {
    let gpu = device!();
    let x = floats(&[40, 30], 1);
    let idx = indices(500, 40, 2);
    let rows = floats(&[500, 3], 3);
    let mask = x.mapv(|v| v > 0.7);
    both!(gpu, x, |t| at!(t[1:30:3, ::-2] = 7.5));
    both!(gpu, x, |t| at!(t[2..9;2, ..] = 7.5));
    both!(gpu, x, |t| at!(t[idx, 1:4] += rows));
    both!(gpu, x, |t| at!(t[idx, -1] -= 0.25));
    both!(gpu, x, |t| at!(t[idx, 0] *= 1.5));
    both!(gpu, x, |t| at!(t[idx, 0] /= 3.0));
    both!(gpu, x, |t| at!(t[idx, 5:7].min(0.5)));
    both!(gpu, x, |t| at!(t[idx, 5:7].max(0.5)));
    both!(gpu, x, |t| at!(t[idx] = 0.0));
    both!(gpu, x, |t| at!(t[mask] = -1.0));
    both!(gpu, x, |t| at!(t[[0, 80, -3], 2] = 9.0; mode = drop));
    both!(gpu, x, |t| at!(t[[0, 80, -3], 2] += 9.0; mode = clip));
    both!(gpu, x, |t| at!(t[[0, 80, -3], 2] += 9.0; mode = wrap));
}

#[test]
fn masks_on_the_target_are_fused_on_both() {
    let gpu = device!();
    let x = floats(&[300, 7], 4);
    let threshold = 0.5f32;
    both!(gpu, x, |t| at!(t[t < threshold] = 0.0));
    both!(gpu, x, |t| at!(t[t >= 0.25] += 1.0));
    both!(gpu, x, |t| at!(t[t != 0.5].max(0.75)));
    let count = x.iter().filter(|&&v| v > 0.5).count();
    let values = Array::from_shape_fn(count, |i| i as f32);
    both!(gpu, x, |t| at!(t[t > 0.5] = values));
    let mut histogram = Array::from_elem(16, 0i32);
    for (i, slot) in histogram.iter_mut().enumerate() {
        *slot = i as i32 - 8;
    }
    let histogram = histogram.into_dyn();
    both!(gpu, histogram, |h| at!(h[h < 0] *= -3));
    both!(gpu, histogram, |h| at!(h[h == 3] = 100));
}

#[test]
fn reads_are_the_cpus() {
    let gpu = device!();
    let x = floats(&[20, 9, 4], 5);
    let g = upload(&gpu, &x);
    let idx = indices(50, 20, 6);
    let read = |t: &GpuTensor<f32>| t.to_array().unwrap();
    assert_same(&read(&at!(g[3, ::-2, 1:3])), &at!(x[3, ::-2, 1:3]).to_owned().into_dyn(), "basic");
    assert_same(&read(&at!(g[idx, ..., -1])), &at!(x[idx, ..., -1]).into_dyn(), "gather");
    assert_same(&read(&at!(g[g > 0.5])), &at!(x[x > 0.5]).into_dyn(), "fused mask read");
    let mask = x.mapv(|v| v < 0.1);
    assert_same(&read(&at!(g[mask])), &at!(x[mask]).into_dyn(), "mask array");
    let fill = at!(g[[0, 25], 0, 0]; mode = fill(-1.0));
    assert_same(&read(&fill), &array![x[[0, 0, 0]], -1.0].into_dyn(), "fill");
}

#[test]
fn set_returns_a_copy_and_leaves_the_source() {
    let gpu = device!();
    let x = floats(&[64, 5], 7);
    let g = upload(&gpu, &x);
    let idx = indices(100, 64, 8);
    let updated = set!(g[idx, 2] += 1.0);
    assert_same(&updated.to_array().unwrap(), &set!(x[idx, 2] += 1.0).into_dyn(), "set! +=");
    assert_same(&g.to_array().unwrap(), &x, "the source is unchanged");
    let masked = set!(g[g > 0.5] = 0.0);
    assert_same(&masked.to_array().unwrap(), &set!(x[x > 0.5] = 0.0).into_dyn(), "set! mask");
    assert_same(&g.to_array().unwrap(), &x, "the source is unchanged by a mask");

    // A view shares its buffer: `set!` on it by value copies first.
    let view = g.view(&[tensor_core::ix(1..3)]).unwrap();
    let changed = set!({ view }[0, 0] = 42.0);
    assert_eq!(changed.to_array().unwrap()[[0, 0]], 42.0);
    assert_same(&g.to_array().unwrap(), &x, "the viewed tensor is unchanged");

    // An owned tensor is updated in its own buffer.
    let owned = upload(&gpu, &x);
    let taken = set!({ owned }[0, 0] = 42.0);
    assert_eq!(taken.to_array().unwrap()[[0, 0]], 42.0);
}

#[test]
fn errors_are_the_cpus_and_write_nothing() {
    let gpu = device!();
    let x = floats(&[6, 4], 9);
    let (cpu, on_gpu) = both!(gpu, x, |t| try_at!(t[[0, 9], 1] = 1.0));
    let expected = IndexError::OutOfBounds { index: 9, axis: 0, len: 6 };
    assert_eq!(cpu, Err(expected.clone()));
    assert_eq!(on_gpu, Err(GpuError::Index(expected)));
    let (cpu, on_gpu) = both!(gpu, x, |t| try_at!(t[..2, ..] = array![1.0, 2.0, 3.0]));
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.unwrap_err())));
    let g = upload(&gpu, &x);
    let copied = try_set!(g[0, 7] = 1.0).unwrap_err();
    assert_eq!(copied.error, GpuError::Index(try_set!(x[0, 7] = 1.0).unwrap_err().error));
    // The error holds the copy, unchanged.
    assert_eq!(copied.array.expect("the copy was made").to_array().unwrap(), x.into_dyn());
}

#[test]
fn what_kernels_cannot_run_is_refused_with_the_tensor_unchanged() {
    let gpu = device!();
    let x = floats(&[8], 10);
    let mut g = upload(&gpu, &x);
    let unsupported = |result: Result<(), GpuError>, operation: &str| match result {
        Err(GpuError::Unsupported { operation: refused, .. }) => assert_eq!(refused, operation),
        other => panic!("{operation}: expected a refusal, got {other:?}"),
    };
    unsupported(try_at!(g[1:3].apply(|v| v * 2.0)), "apply");
    unsupported(try_at!(g[..].pow(2.0)), "pow");
    assert_same(&g.to_array().unwrap(), &x, "unchanged");
}

#[test]
fn references_are_targets_too() {
    let gpu = device!();
    let x = floats(&[12, 5], 11);
    let mut g = upload(&gpu, &x);
    let by_mut = &mut g;
    assert_same(
        &at!(by_mut[2..5, 1]).to_array().unwrap(),
        &at!(x[2..5, 1]).to_owned().into_dyn(),
        "read through &mut",
    );
    at!(by_mut[by_mut > 0.0] = 0.0);
    let by_ref = &g;
    let expected = set!(x[x > 0.0] = 0.0);
    assert_same(
        &at!(by_ref[.., 1:4]).to_array().unwrap(),
        &at!(expected[.., 1:4]).to_owned().into_dyn(),
        "read through &",
    );
    assert_same(
        &set!(by_ref[0, 0] = 5.0).to_array().unwrap(),
        &set!(expected[0, 0] = 5.0).into_dyn(),
        "set! through &",
    );
}
