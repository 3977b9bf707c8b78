//! One-hot labels and the softmax cross-entropy gradient, ported from NumPy.
//!
//! Run with `cargo run --example one_hot`. The NumPy original:
//!
//! ```python
//! import numpy as np
//!
//! labels = np.array([2, 0, 1, 2, 1])
//! logits = np.array([[2.0, 1.0, 0.1],
//!                    [0.5, 2.5, 0.3],
//!                    [1.2, 0.2, 3.1],
//!                    [0.0, 0.0, 0.0],
//!                    [1.0, 2.0, 1.0]])
//! n, k = logits.shape
//! rows = np.arange(n)
//!
//! Y = np.zeros((n, k))
//! Y[rows, labels] = 1
//!
//! e = np.exp(logits - logits.max(axis=1, keepdims=True))
//! p = e / e.sum(axis=1, keepdims=True)
//! loss = -np.log(p[rows, labels]).mean()
//!
//! grad = p.copy()
//! grad[rows, labels] -= 1
//! grad /= n
//!
//! print(Y.tolist())
//! print(round(loss, 9))
//! print(grad.round(9).tolist())
//! ```

use tensor_at::at;
use tensor_at::ndarray::{Array1, Array2, Axis, array};

fn main() {
    let labels = array![2, 0, 1, 2, 1];
    #[rustfmt::skip]
    let logits = array![
        [2.0, 1.0, 0.1],
        [0.5, 2.5, 0.3],
        [1.2, 0.2, 3.1],
        [0.0, 0.0, 0.0],
        [1.0, 2.0, 1.0],
    ];
    let (n, k) = logits.dim();
    let rows = Array1::from_iter(0..n);

    // Two advanced indices side by side pair up elementwise: (0, 2), (1, 0), ...
    let mut y = Array2::<f64>::zeros((n, k));
    at!(y[&rows, &labels] = 1.0);
    println!("one-hot Y[arange(n), labels] = 1 ->\n{y}\n");

    // Subtracting the row max keeps exp() from overflowing; softmax is unchanged.
    let max = logits.map_axis(Axis(1), |row| row.fold(f64::NEG_INFINITY, |a, &b| a.max(b)));
    let e = (&logits - &max.insert_axis(Axis(1))).mapv(f64::exp);
    let p = &e / &e.sum_axis(Axis(1)).insert_axis(Axis(1));

    // The loss only needs each row's probability of its true class: a gather.
    let picked: Array1<f64> = at!(p[&rows, &labels]);
    let loss = -picked.mapv(f64::ln).mean().unwrap();
    println!("p[arange(n), labels] = {picked:.4}");
    println!("cross-entropy loss = {loss:.9}\n");

    // d(loss)/d(logits) = (softmax - one_hot) / n, without building one_hot.
    let mut grad = p.clone();
    at!(grad[&rows, &labels] -= 1.0);
    grad /= n as f64;
    println!("gradient =\n{grad:.4}");

    // expected: printed by the NumPy program above
    #[rustfmt::skip]
    let expected_y = array![
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0],
    ];
    let expected_loss = 1.854655466;
    let expected_grad = array![
        [0.131800228, 0.048486594, -0.180286822],
        [-0.178279254, 0.160495811, 0.017783443],
        [0.024833079, -0.190864421, 0.166031342],
        [0.066666667, 0.066666667, -0.133333333],
        [0.042388312, -0.084776623, 0.042388312]
    ];
    assert_eq!(y, expected_y);
    // NumPy rounded to 9 decimals, so agree to within half of the last digit.
    assert!((loss - expected_loss).abs() <= 5e-10);
    assert_eq!(grad.dim(), expected_grad.dim());
    assert!(grad.iter().zip(&expected_grad).all(|(a, b)| (a - b).abs() <= 5e-10));
    // Each gradient row sums to zero: softmax sums to 1, one-hot too.
    assert!(grad.sum_axis(Axis(1)).iter().all(|s| s.abs() < 1e-12));
}
