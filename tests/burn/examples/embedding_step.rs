//! A PyTorch training step ported to burn: an embedding looked up by
//! token ids (one repeated), a linear layer, and a cross-entropy that picks
//! each row's target log-probability by index. The PyTorch original:
//!
//! ```python
//! h = emb[ids]                                    # ids = [3, 1, 3, 0]
//! logits = h @ w
//! loss = -torch.log_softmax(logits, 1).gather(1, targets[:, None]).mean()
//! loss.backward()
//! with torch.no_grad():
//!     emb -= lr * emb.grad                        # row 3 gets both its gradients
//! ```
//!
//! The same step with tensor-at's `at!` on burn tensors, differentiated by
//! burn's autodiff, then checked against the step computed by hand.
//!
//! Run: `cargo run -p tensor-at-burn-tests --example embedding_step`

use burn_tensor::activation::log_softmax;
use burn_tensor::{Device, Int, Tensor};
use ndarray::{Array1, Array2, Axis, array};
use tensor_at::{along, at};
use tensor_at_burn_tests::{float, float_array, int};

fn main() {
    let device = Device::flex().autodiff();
    let (vocab, dim, classes) = (5, 3, 4);
    let emb_host = Array2::from_shape_fn((vocab, dim), |(i, j)| ((i * dim + j) as f64 * 0.37).sin());
    let w_host = Array2::from_shape_fn((dim, classes), |(i, j)| ((i * classes + j) as f64 * 0.71).cos() * 0.5);
    let ids = array![3, 1, 3, 0];
    let targets = array![[2], [0], [1], [3]];
    let lr = 0.1;

    // The step, on burn tensors.
    let emb: Tensor<2> = float(&emb_host.clone().into_dyn(), &device).require_grad();
    let w: Tensor<2> = float(&w_host.clone().into_dyn(), &device);
    let ids_on_device: Tensor<1, Int> = int(&ids.clone().into_dyn(), &device);
    let h: Tensor<2> = at!(emb[&ids_on_device]);
    let logp = log_softmax(h.matmul(w), 1);
    let picked: Tensor<2> = at!(logp[along(targets.clone(), 1)]);
    let loss = -picked.mean();
    let grads = loss.clone().backward();
    let grad = emb.grad(&grads).expect("the embedding's gradient");
    let updated = float_array(emb.detach() - grad.clone() * lr);

    // The same step by hand: softmax, the cross-entropy's gradient, and
    // each looked-up row's gradient added into its id's row.
    let rows = emb_host.select(Axis(0), &ids.iter().map(|&i| i as usize).collect::<Vec<_>>());
    let logits = rows.dot(&w_host);
    let mut dlogits = logits.clone();
    let mut expected_loss = 0.0;
    for (r, mut row) in dlogits.axis_iter_mut(Axis(0)).enumerate() {
        let top = row.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let sum: f64 = row.iter().map(|&v| (v - top).exp()).sum();
        row.mapv_inplace(|v| (v - top).exp() / sum);
        let target = targets[[r, 0]] as usize;
        expected_loss -= row[target].ln() / ids.len() as f64;
        row[target] -= 1.0;
        row.mapv_inplace(|v| v / ids.len() as f64);
    }
    let drows = dlogits.dot(&w_host.t());
    let mut expected_grad = Array2::<f64>::zeros((vocab, dim));
    for (r, &id) in ids.iter().enumerate() {
        let mut row = expected_grad.row_mut(id as usize);
        row += &drows.row(r);
    }
    let expected = &emb_host - &(&expected_grad * lr);

    let loss = loss.into_scalar::<f64>();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(loss, expected_loss), "loss {loss} against {expected_loss}");
    let grad = float_array(grad);
    assert!(
        grad.iter().zip(expected_grad.iter()).all(|(&a, &b)| close(a, b)),
        "gradient\n{grad}\nagainst\n{expected_grad}"
    );
    assert!(updated.iter().zip(expected.iter()).all(|(&a, &b)| close(a, b)));
    let repeated: Array1<f64> = expected_grad.row(3).to_owned();
    println!("loss {loss:.6}; the repeated id's row took both its gradients: {repeated}");
}
