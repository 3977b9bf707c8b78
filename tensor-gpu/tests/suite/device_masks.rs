//! Masks computed on the device (`g[h > 0.0]`, `g[(g > a) & (g < b)]`,
//! `& | ^ !` of comparisons on GPU tensors) against the same macro calls
//! on ndarrays: elements bit for bit, the CPU's errors with the tensor
//! unchanged, and what crosses between host and device counted.

use crate::common::{InAnyMode, Lcg, assert_same, floats, upload};
use ndarray::{Array, ArrayD, IxDyn};
use tensor_at::{at, set, try_at};
use tensor_core::IndexError;
use tensor_gpu::{Gpu, GpuError, GpuTensor};

fn labels(shape: &[usize], classes: u64, seed: u64) -> ArrayD<i32> {
    let mut rng = Lcg(seed);
    Array::from_shape_simple_fn(IxDyn(shape), || rng.below(classes) as i32)
}

/// The number of positions where `mask` holds.
fn count(mask: &ArrayD<bool>) -> usize {
    mask.iter().filter(|&&b| b).count()
}

#[test]
fn combined_masks_on_the_target_are_the_cpus() {
    let gpu = device!();
    let x = floats(&[50, 7], 1);
    let (a, b) = (-0.25f32, 0.5f32);
    both!(gpu, x, [], |t| at!(t[(t > a) & (t < b)] = 0.0));
    both!(gpu, x, [], |t| at!(t[(t < a) | (t > b)] += 1.0));
    both!(gpu, x, [], |t| at!(t[(t > a) ^ (t > 0.0)] *= -2.0));
    both!(gpu, x, [], |t| at!(t[!(t > a)].max(0.125)));
    both!(gpu, x, [], |t| at!(t[(t > a) & !((t > 0.0) | (t == 0.5))] -= 3.0));
    // An array value: one per selected element, in C order.
    let selected = count(&x.mapv(|v| v > a && v < b));
    let values = Array::from_shape_fn(selected, |i| i as f32).into_dyn();
    both!(gpu, x, [], |t| at!(t[(t > a) & (t < b)] = values));
    both!(gpu, x, [], |t| at!(t[(t > a) & (t < b)] += values));
    // Integers, and a read.
    let ints = labels(&[40], 9, 2);
    both!(gpu, ints, [], |t| at!(t[(t >= 2) & (t != 5)] *= 10));
    let g = upload(&gpu, &x);
    let read = at!(g[(g < a) | (g > b)]);
    assert_same(&read.to_array().unwrap(), &at!(x[(x < a) | (x > b)]).into_dyn(), "read");
}

#[test]
fn masks_on_other_device_tensors_are_the_cpus() {
    let gpu = device!();
    let x = floats(&[30, 6], 3);
    let h = floats(&[30, 6], 4);
    let k = labels(&[30, 6], 4, 5);
    // One pass after marking the comparisons: scalar values.
    both!(gpu, x, [h], |t| at!(t[h > 0.0] += 1.0));
    both!(gpu, x, [h, k], |t| at!(t[(h > 0.0) | (k == 2)] = 5.0));
    both!(gpu, x, [h, k], |t| at!(t[!(h > 0.0) ^ (k < 2)].min(-0.5)));
    // Mixed with comparisons on the target itself.
    both!(gpu, x, [k], |t| at!(t[(t > 0.0) & (k != 3)] = -1.0));
    // Array values: compaction, then the write.
    let selected = count(&h.mapv(|v| v > 0.0));
    let values = Array::from_shape_fn(selected, |i| i as f32 * 0.5).into_dyn();
    both!(gpu, x, [h], |t| at!(t[h > 0.0] = values));
    both!(gpu, x, [h], |t| at!(t[h > 0.0] += values));
    // Broadcast operands: a row of thresholds against every row.
    let row = floats(&[6], 6);
    both!(gpu, x, [h, row], |t| at!(t[(h > 0.0) & (row < 0.5)] = 9.0));
    // Reads.
    let (g, hg, kg) = (upload(&gpu, &x), upload(&gpu, &h), upload(&gpu, &k));
    let read = at!(g[(hg > 0.0) & (kg == 1)]);
    assert_same(&read.to_array().unwrap(), &at!(x[(h > 0.0) & (k == 1)]).into_dyn(), "read");
    // `set!` copies and leaves the source.
    let copy = set!(g[hg < 0.0] = 0.0);
    assert_same(&copy.to_array().unwrap(), &set!(x[h < 0.0] = 0.0).into_dyn(), "set!");
    assert_same(&g.to_array().unwrap(), &x, "the source is unchanged");
}

#[test]
fn masks_beside_other_elements_index_as_the_cpus() {
    let gpu = device!();
    let x = floats(&[12, 5, 4], 7);
    let rows = floats(&[12], 8);
    let plane = floats(&[5, 4], 9);
    let idx = ndarray::array![[3], [0], [3]].into_dyn();
    both!(gpu, x, [rows], |t| at!(t[rows > 0.0, 1:3] = 2.0));
    both!(gpu, x, [rows], |t| at!(t[rows > 0.0, ..., -1] += 1.0));
    both!(gpu, x, [plane], |t| at!(t[2, plane < 0.0] *= 3.0));
    both!(gpu, x, [plane], |t| at!(t[1:4, plane < 0.0] = -7.0));
    both!(gpu, x, [plane], |t| at!(t[idx, plane > 0.5] += 1.0));
    let (g, rg, pg) = (upload(&gpu, &x), upload(&gpu, &rows), upload(&gpu, &plane));
    let what = "reads beside other elements";
    assert_same(
        &at!(g[rg > 0.0, 1:3]).to_array().unwrap(),
        &at!(x[rows > 0.0, 1:3]).into_dyn(),
        what,
    );
    assert_same(&at!(g[.., pg < 0.0]).to_array().unwrap(), &at!(x[.., plane < 0.0]).into_dyn(), what);
    // A whole-tensor mask with an array value on the device.
    let whole = floats(&[12, 5, 4], 10);
    let w = upload(&gpu, &whole);
    let selected = count(&whole.mapv(|v| v > 0.0));
    let values = Array::from_shape_fn(selected, |i| i as f32).into_dyn();
    let mut g = upload(&gpu, &x);
    let v = upload(&gpu, &values);
    at!(g[w > 0.0] = v);
    at!(g[(g > 0.5) & (g < 2.0)] += 1.5);
    let mut cpu = x.clone();
    at!(cpu[whole > 0.0] = values);
    at!(cpu[(cpu > 0.5) & (cpu < 2.0)] += 1.5);
    assert_same(&g.to_array().unwrap(), &cpu, "device value through a device mask");
    // A device value through a combined mask on the target.
    let selected = count(&cpu.mapv(|v| v > -0.5 && v < 0.5));
    let values = Array::from_shape_fn(selected, |i| -(i as f32)).into_dyn();
    let v = upload(&gpu, &values);
    at!(g[(g > -0.5) & (g < 0.5)] = v);
    at!(cpu[(cpu > -0.5) & (cpu < 0.5)] = values);
    assert_same(&g.to_array().unwrap(), &cpu, "device value through a mask on the target");
}

#[test]
fn batched_updates_through_device_masks_are_the_cpus() {
    let gpu = device!();
    let x = floats(&[4, 6, 3], 11);
    let h = floats(&[4, 6, 3], 12);
    let k = labels(&[1, 6, 3], 3, 13);
    both!(gpu, x, [h], |t| at!(t[h > 0.0] = 1.0; batch = 1));
    both!(gpu, x, [h, k], |t| at!(t[(h > 0.0) & (k == 1)] += 2.0; batch = 1));
}

#[test]
fn bad_masks_fail_as_on_the_cpu_and_write_nothing() {
    let gpu = device!();
    let x = floats(&[6, 4], 14);
    // A mask of the wrong shape.
    let short = floats(&[5], 15);
    let (cpu, on_gpu) = both!(gpu, x, [short], |t| try_at!(t[short > 0.0] = 1.0));
    assert!(matches!(cpu, Err(IndexError::MaskShape { .. })), "{cpu:?}");
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.unwrap_err())));
    let wide = floats(&[4, 4], 16);
    let (cpu, on_gpu) = both!(gpu, x, [wide], |t| try_at!(t[wide > 0.0] += 1.0));
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.unwrap_err())));
    let (cpu, on_gpu) = both!(gpu, x, [short], |t| try_at!(t[short > 0.0, 1:3] = 1.0));
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.unwrap_err())));
    // Too many or too few values for the selection.
    let h = floats(&[6, 4], 17);
    let values = Array::from_elem(count(&h.mapv(|v| v > 0.0)) + 1, 1.0f32).into_dyn();
    let (cpu, on_gpu) = both!(gpu, x, [h], |t| try_at!(t[h > 0.0] = values));
    assert!(matches!(cpu, Err(IndexError::ValueCount { .. })), "{cpu:?}");
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.clone().unwrap_err())));
    // The same with the values on the device, through a device mask and a
    // mask on the target.
    let (mut g, hg, v) = (upload(&gpu, &x), upload(&gpu, &h), upload(&gpu, &values));
    assert_eq!(try_at!(g[hg > 0.0] = v), Err(GpuError::Index(cpu.unwrap_err())));
    let (cpu, on_gpu) = both!(gpu, x, [], |t| try_at!(t[(t > 0.0) & (t < 2.0)] += values));
    assert!(cpu.is_err());
    assert_eq!(on_gpu, Err(GpuError::Index(cpu.unwrap_err())));
    assert_same(&g.to_array().unwrap(), &x, "unchanged");
    // Tensors that do not broadcast together (ndarray panics on the host).
    let (a, b) = (upload(&gpu, &floats(&[3], 18)), upload(&gpu, &floats(&[4], 19)));
    let mut g = upload(&gpu, &floats(&[3], 20));
    let before = g.to_array().unwrap();
    let error = try_at!(g[(a > 0.0) & (b > 0.0)] = 1.0).unwrap_err();
    assert_eq!(error.to_string(), "operands could not be broadcast together with shapes (3,) (4,)");
    assert_same(&g.to_array().unwrap(), &before, "unchanged");
    // An ndarray target refuses a device mask.
    let mut host = floats(&[3], 21);
    let on_host = try_at!(host[a > 0.0] = 1.0).unwrap_err();
    assert!(matches!(on_host, IndexError::OnDevice { .. }), "{on_host:?}");
}

#[test]
fn device_masks_copy_nothing_between_host_and_device() {
    let gpu = device!();
    let x = floats(&[64, 8], 22);
    let (mut g, h) = (upload(&gpu, &x), upload(&gpu, &floats(&[64, 8], 23)));
    let rows = upload(&gpu, &floats(&[64], 24));
    // The first calls upload the kernels' constants, kept on the device.
    let step = |g: &mut GpuTensor<f32>| {
        at!(g[(h > 0.0) & (g < 0.5)] += 1.0);
        at!(g[(g > -0.5) & (g < 0.5)] *= 0.5);
        at!(g[rows > 0.0, 1:3] -= 0.25);
    };
    step(&mut g);
    let before = gpu.transfers();
    step(&mut g);
    let moved = gpu.transfers() - before;
    assert_eq!(moved.uploads, 0, "{moved:?}");
    // The mask beside a slice reads back its count: one `u32`.
    assert_eq!((moved.downloads, moved.bytes_downloaded), (1, 4), "{moved:?}");
}

/// The device's results of `step` against the host's, over many random
/// masks: each comparison's operator and threshold drawn, combined.
#[test]
fn random_combined_masks_are_the_cpus() {
    let gpu: Gpu = device!();
    let mut rng = Lcg(25);
    for round in 0..12 {
        let shape = [1 + rng.below(9) as usize, 1 + rng.below(7) as usize];
        let x = floats(&shape, 100 + round);
        let h = floats(&shape, 200 + round);
        let (a, b) = (rng.float(), rng.float());
        match round % 4 {
            0 => both!(gpu, x, [h], |t| at!(t[(t > a) | !(h <= b)] += 1.0)),
            1 => both!(gpu, x, [h], |t| at!(t[(h >= a) ^ (t != b)] = 3.0)),
            2 => both!(gpu, x, [], |t| at!(t[!((t < a) & (t >= b)) | (t == a)] -= 2.0)),
            _ => both!(gpu, x, [h], |t| at!(t[(h < a) & (h > b)] *= 4.0)),
        };
    }
}

/// A device mask built through the runtime API, as the macros build one.
fn device_mask(gpu: &Gpu, host: &ArrayD<f32>) -> tensor_gpu::DeviceMask {
    tensor_core::backend::MaskOperand::mask(&upload(gpu, host), tensor_core::element::Compare::Gt, &0.0, |_| {
        unreachable!("not run on the device")
    })
}

/// The corners where planning by shape alone could answer otherwise than
/// the CPU: each call's outcome and elements are the CPU's.
#[test]
fn corner_cases_answer_as_the_cpu() {
    use tensor_core::backend::AnyMode;
    use tensor_core::{Op, ix};
    let gpu = device!();
    let same = |gpu_result: Result<(), GpuError>, cpu_result: Result<(), IndexError>, what: &str| {
        assert_eq!(gpu_result, cpu_result.map_err(GpuError::Index), "{what}");
    };
    // Mode `fill` refused for a write through a whole-tensor device mask.
    let x = floats(&[3, 2], 30);
    let h = floats(&[3, 2], 31);
    let mut g = upload(&gpu, &x);
    let cpu = tensor_core::backend::set(&mut x.clone(), &[ix(h.mapv(|v| v > 0.0))], 1.0, AnyMode::Fill(0.0));
    same(g.set_in(&[ix(device_mask(&gpu, &h))], 1.0, AnyMode::Fill(0.0)), cpu, "fill");
    // The mode before the mask's shape.
    let short = floats(&[2, 2], 32);
    let cpu = tensor_core::backend::get(&x, &[ix(short.mapv(|v| v > 0.0))], AnyMode::Drop).map(|_| ());
    same(
        g.get_in(&[ix(device_mask(&gpu, &short))], AnyMode::Drop).map(|_| ()),
        cpu,
        "drop read",
    );
    assert_same(&g.to_array().unwrap(), &x, "unchanged");

    // Modes that resolve out-of-bounds indices report the value's shape.
    let row = ndarray::array![1.0f32, 2.0, 3.0].into_dyn();
    let wild = ndarray::array![5, 0].into_dyn();
    let gi = upload(&gpu, &wild);
    for mode in [AnyMode::Clip, AnyMode::Wrap, AnyMode::Drop] {
        let cpu = tensor_core::backend::set(&mut row.clone(), &[ix(&wild)], &row, mode);
        same(upload(&gpu, &row).set_in(&[ix(&gi)], &row, mode), cpu, "a value of the wrong shape");
    }
    // An empty selection checks no bounds.
    let plane = floats(&[3, 4], 33);
    let column = ndarray::array![[9], [9]].into_dyn();
    let (gc, none) = (upload(&gpu, &column), ndarray::Array1::<i32>::zeros(0));
    let five = Array::from_elem(5, 1.0f32);
    let cpu = tensor_core::backend::set(&mut plane.clone(), &[ix(&column), ix(&none)], &five, AnyMode::Error);
    same(
        upload(&gpu, &plane).set_in(&[ix(&gc), ix(&none)], &five, AnyMode::Error),
        cpu,
        "empty selection",
    );
    // Mode `drop` skips the operands of the positions it drops.
    let ints = ndarray::array![6, 8, 9].into_dyn();
    let divisors = ndarray::array![0, 2].into_dyn();
    let mut cpu = ints.clone();
    let cpu_result = tensor_core::backend::update(&mut cpu, &[ix(&wild)], Op::Div, &divisors, AnyMode::Drop);
    let mut on_gpu = upload(&gpu, &ints);
    same(
        on_gpu.update_in(&[ix(&gi)], Op::Div, &divisors, AnyMode::Drop),
        cpu_result,
        "dropped operands",
    );
    assert_eq!(on_gpu.to_array().unwrap(), cpu);

    // A batched read through a mask is refused; a batched write through a
    // whole mask counts its values.
    let batched = floats(&[2, 3], 34);
    let picks = ndarray::array![[1.0f32, 1.0, -1.0], [-1.0, 1.0, 1.0]].into_dyn();
    let cpu = tensor_core::backend::get_batched(&batched, &[ix(picks.mapv(|v| v > 0.0))], 1, AnyMode::Error).map(|_| ());
    let read = upload(&gpu, &batched).get_batched_in(&[ix(device_mask(&gpu, &picks))], 1, AnyMode::Error);
    same(read.map(|_| ()), cpu, "batched read");
    let cpu = tensor_core::backend::set_batched(&mut batched.clone(), &[ix(picks.mapv(|v| v > 0.0))], 1, &batched, AnyMode::Error);
    let mut g = upload(&gpu, &batched);
    same(
        g.set_batched_in(&[ix(device_mask(&gpu, &picks))], 1, &batched, AnyMode::Error),
        cpu,
        "batched count",
    );
    assert_same(&g.to_array().unwrap(), &batched, "unchanged");
    // An empty tensor still checks the value of the mask sugar.
    let empty = Array::<f32, _>::zeros(IxDyn(&[0]));
    let two = ndarray::array![1.0f32, 2.0];
    let (cpu, on_gpu) = both!(gpu, empty, [], |t| try_at!(t[t < 0.0] = two));
    assert!(cpu.is_err(), "the CPU counts the values");
    same(on_gpu, cpu, "empty target");
}
