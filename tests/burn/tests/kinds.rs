//! Integer and boolean tensors, `set!`, and reads that leave their target
//! usable; gradients against finite differences.

use burn_tensor::{Bool, Int, Tensor, TensorData};
use ndarray::{Array1, ArrayD, IxDyn, array};
use tensor_at::{at, set};
use tensor_at_burn_tests::{autodiff, float, float_array, int, int_array, plain};

#[test]
fn integer_tensors_as_ndarray_s() {
    let start = array![5i64, -3, 8, 0, 12, -7];
    let idx = array![1, 4, 1, 1, 0];
    let mut expected = start.clone();
    at!(expected[idx.clone()] += array![1, 2, 3, 4, 5]);
    at!(expected[[2, 2]] *= 3);
    at!(expected[[0, 5, 0]] /= array![2, -2, 3]);
    at!(expected[[3, 3]] %= -4);
    at!(expected[[1, 1]] ^= 6);
    at!(expected[expected < 0] = 0);
    let mut x: Tensor<1, Int> = int(&start.into_dyn(), &plain());
    at!(x[idx] += array![1, 2, 3, 4, 5]);
    at!(x[[2, 2]] *= 3);
    at!(x[[0, 5, 0]] /= array![2, -2, 3]);
    at!(x[[3, 3]] %= -4);
    at!(x[[1, 1]] ^= 6);
    at!(x[x < 0] = 0);
    assert_eq!(int_array(x.clone()), expected.clone().into_dyn());

    // Rounds on the device, of integers.
    let device_idx: Tensor<1, Int> = int(&array![0i64, 5, 0, -1].into_dyn(), &plain());
    at!(expected[[0, 5, 0, -1]] /= array![2, -2, 3, 5]);
    at!(expected[[0, 5, 0, -1]] %= 7);
    at!(x[&device_idx] /= array![2, -2, 3, 5]);
    at!(x[&device_idx] %= 7);
    assert_eq!(int_array(x), expected.into_dyn());

    // `MIN / -1` wraps and `MIN % -1` is 0, as on the CPU (Rust's own
    // division panics there, in every build).
    let start = array![i64::MIN, 7, i64::MIN, -9];
    let mut expected = start.clone();
    at!(expected[[0, 1, 3]] /= array![-1, -1, 2]);
    at!(expected[[2, 3]] %= -1);
    let mut x: Tensor<1, Int> = int(&start.into_dyn(), &plain());
    at!(x[[0, 1, 3]] /= array![-1, -1, 2]);
    at!(x[[2, 3]] %= -1);
    assert_eq!(int_array(x), expected.into_dyn());

    // A division by zero that mode `drop` skips (its device index is out
    // of bounds) is never checked, as on the CPU.
    let start = array![4i64, 8, 12, 16];
    let mut expected = start.clone();
    at!(expected[[9, 1]] /= array![0, 2]; mode = drop);
    let ids: Tensor<1, Int> = int(&array![9i64, 1].into_dyn(), &plain());
    let mut x: Tensor<1, Int> = int(&start.into_dyn(), &plain());
    at!(x[&ids] /= array![0, 2]; mode = drop);
    assert_eq!(int_array(x), expected.into_dyn());
}

#[test]
fn boolean_tensors_take_assignments_and_reads() {
    let device = plain();
    let flags = vec![true, false, false, true, false, true];
    let mut x = Tensor::<1, Bool>::from_data(TensorData::new(flags.clone(), [6]), &device);
    at!(x[[1, 2, 1]] = array![true, true, false]);
    let read: Tensor<1, Bool> = at!(x[1..4]);
    let read = read.into_data().convert::<bool>().try_into_vec::<bool>().unwrap();
    let mut expected = Array1::from(flags);
    at!(expected[[1, 2, 1]] = array![true, true, false]);
    assert_eq!(read, expected.slice(ndarray::s![1..4]).to_vec());
}

#[test]
fn set_returns_a_new_tensor_and_reads_leave_the_target() {
    let device = plain();
    let start = ArrayD::from_shape_fn(IxDyn(&[3, 4]), |at| (at[0] * 4 + at[1]) as f64);
    let x: Tensor<2> = float(&start, &device);
    let updated = set!(x[[0, 2], 1..3] = -1.0);
    let row: Tensor<1> = at!(x[1]);
    assert_eq!(float_array(x), start, "set! and a read leave the target as it was");
    assert_eq!(float_array(row).as_slice().unwrap(), &[4.0, 5.0, 6.0, 7.0]);
    let mut expected = start.clone();
    at!(expected[[0, 2], 1..3] = -1.0);
    assert_eq!(float_array(updated), expected);
}

/// `f(x, v)` summed against fixed weights, and its gradients by autodiff;
/// then the same gradients by central differences, one element at a time.
fn against_differences(x: &[f64], v: &[f64], f: impl Fn(Tensor<1>, Tensor<1>) -> Tensor<1>) {
    let device = autodiff();
    let weights: Vec<f64> = (0..x.len()).map(|i| 0.5 + i as f64 * 0.25).collect();
    let loss = |x: &[f64], v: &[f64], track: bool| {
        let mut xt: Tensor<1> = float(&Array1::from(x.to_vec()).into_dyn(), &device);
        let mut vt: Tensor<1> = float(&Array1::from(v.to_vec()).into_dyn(), &device);
        if track {
            xt = xt.require_grad();
            vt = vt.require_grad();
        }
        let w: Tensor<1> = float(&Array1::from(weights.clone()).into_dyn(), &device);
        ((f(xt.clone(), vt.clone()) * w).sum(), xt, vt)
    };
    let (value, xt, vt) = loss(x, v, true);
    let grads = value.backward();
    let dx = float_array(xt.grad(&grads).unwrap());
    let dv = float_array(vt.grad(&grads).unwrap());
    let h = 1e-6;
    let difference = |at: usize, of_x: bool| {
        let bumped = |by: f64| {
            let (mut x, mut v) = (x.to_vec(), v.to_vec());
            if of_x {
                x[at] += by
            } else {
                v[at] += by
            }
            loss(&x, &v, false).0.into_scalar::<f64>()
        };
        (bumped(h) - bumped(-h)) / (2.0 * h)
    };
    for at in 0..x.len() {
        let expected = difference(at, true);
        assert!((dx[at] - expected).abs() < 1e-6, "d/dx[{at}]: {} against {expected}", dx[at]);
    }
    for at in 0..v.len() {
        let expected = difference(at, false);
        assert!((dv[at] - expected).abs() < 1e-6, "d/dv[{at}]: {} against {expected}", dv[at]);
    }
}

#[test]
fn gradients_match_finite_differences() {
    let x = [1.5, -0.75, 2.0, 0.5, -1.25];
    let v = [0.5, 1.75, -2.5, 0.0, 1.25];
    // Repeated positions, a zero among the factors.
    against_differences(&x, &v, |mut x, v| {
        at!(x[[1, 3, 1, 1, 0]] *= v);
        x
    });
    against_differences(&x, &[0.5, 1.75, -2.5, 4.0, 1.25], |mut x, v| {
        at!(x[[1, 3, 1, 1, 0]] /= v);
        x
    });
    against_differences(&[1.5, 0.75, 2.0, 0.5, 1.25], &[0.5, 1.75, 2.5, 3.0, 1.25], |mut x, v| {
        at!(x[[1, 3, 1, 1, 0]].pow(v));
        x
    });
    // No ties: each position's winner takes its gradient.
    against_differences(&x, &[0.5, 1.75, -2.5, 3.0, 1.25], |mut x, v| {
        at!(x[[1, 3, 1, 4, 0]].max(v));
        x
    });
    against_differences(&x, &v, |mut x, v| {
        at!(x[[4, 2, 4, 0, 2]] = v);
        x
    });
    against_differences(&x, &v, |x, v| {
        let read: Tensor<1> = at!(x[[4, 2, 4, 0, 2]]);
        read * v
    });
}
