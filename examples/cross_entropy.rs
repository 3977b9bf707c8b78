//! Cross-entropy by hand, and a top-k lookup: `along(idx, axis)` as
//! PyTorch's `gather` and `scatter_add_`.
//!
//! The PyTorch original (float64):
//!
//! ```python
//! logp = logits.log_softmax(1)
//! picked = logp.gather(1, labels[:, None])     # each row's label log-probability
//! loss = -picked.mean()
//! grad = logp.exp()                            # d loss / d logits = (softmax - one_hot) / n
//! grad.scatter_add_(1, labels[:, None], -torch.ones(n, 1))
//! grad /= n
//!
//! top, at = scores.topk(2, dim=1)              # the two best scores of each row
//! best_ids = ids.gather(1, at)                 # and the ids in those places
//! ```
//!
//! Run with `cargo run --example cross_entropy`.

use tensor_at::ndarray::{Array2, Axis, array};
use tensor_at::{along, at};

fn main() {
    let logits = array![[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.2, 0.2, 3.1], [0.0, 0.0, 0.0]];
    let labels = array![[0usize], [1], [2], [1]]; // labels[:, None]
    let n = logits.nrows() as f64;

    // log_softmax along axis 1.
    let mut logp = logits.clone();
    for mut row in logp.rows_mut() {
        let max = row.fold(f64::NEG_INFINITY, |m, &v| m.max(v));
        let log_sum = row.mapv(|v| (v - max).exp()).sum().ln() + max;
        row.mapv_inplace(|v| v - log_sum);
    }

    let picked: Array2<f64> = at!(logp[along(labels, 1)]);
    let loss = -picked.mean().unwrap();
    println!("label log-probabilities: {}", picked.index_axis(Axis(1), 0));
    println!("loss: {loss:.6}");

    let mut grad = logp.mapv(f64::exp);
    at!(grad[along(labels, 1)] += -1.0);
    grad /= n;
    println!("gradient:\n{grad:.4}");

    let scores: Array2<f64> = array![[0.1, 0.9, 0.4, 0.7], [0.8, 0.2, 0.6, 0.3]];
    let ids = array![[10, 11, 12, 13], [20, 21, 22, 23]];
    // topk(2, dim=1)'s indices: each row's positions by falling score.
    let mut top_at = Array2::<usize>::zeros((2, 2));
    for (row, mut at) in scores.rows().into_iter().zip(top_at.rows_mut()) {
        let mut order: Vec<usize> = (0..row.len()).collect();
        order.sort_by(|&a, &b| row[b].total_cmp(&row[a]));
        at.assign(&tensor_at::ndarray::aview1(&order[..2]));
    }
    let top: Array2<f64> = at!(scores[along(top_at, 1)]);
    let best_ids: Array2<i32> = at!(ids[along(top_at, 1)]);
    println!("top-2 scores: {top}, at {top_at}, ids {best_ids}");

    // Printed by the PyTorch original above.
    let close = |got: &Array2<f64>, want: &Array2<f64>| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12);
    let picked_torch = array![
        [-0.41703001627783354],
        [-0.22004952302053787],
        [-0.18614078697315786],
        [-1.0986122886681098]
    ];
    assert!(close(&picked, &picked_torch), "{picked}");
    assert!((loss - 0.48045815373490974).abs() < 1e-12, "{loss}");
    let grad_torch = array![
        [-0.08524971527850803, 0.060608242676178474, 0.02464147260232955],
        [0.027150932576753092, -0.04938023605208769, 0.022229303475334566],
        [0.031041348269500363, 0.011419473854591916, -0.04246082212409227],
        [0.08333333333333333, -0.16666666666666669, 0.08333333333333333],
    ];
    assert!(close(&grad, &grad_torch), "{grad}");
    // Each row of the gradient sums to zero: softmax sums to one, the label takes one away.
    assert!(grad.sum_axis(Axis(1)).iter().all(|s| s.abs() < 1e-12));
    assert_eq!(top, array![[0.9, 0.7], [0.8, 0.6]]);
    assert_eq!(top_at, array![[1, 3], [0, 2]]);
    assert_eq!(best_ids, array![[11, 13], [20, 22]]);
}
