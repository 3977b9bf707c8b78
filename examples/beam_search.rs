//! One step of beam search: each batch's surviving beams pick up the
//! history of their parent beams, `tf.gather(history, parents,
//! batch_dims=1)`, as a read with `batch = 1`.
//!
//! The TensorFlow original (float32 scores, int32 tokens):
//!
//! ```python
//! log_probs = tf.constant([[[-0.1, -2.3, -1.2], [-0.7, -0.9, -3.0]],
//!                          [[-1.5, -0.2, -2.2], [-0.4, -1.1, -0.6]]])  # (batch, beam, vocab)
//! beam_scores = tf.constant([[-0.5, -0.6], [-1.0, -0.3]])              # (batch, beam)
//! history = tf.constant([[[4, 7], [4, 1]], [[2, 5], [3, 3]]])         # (batch, beam, steps)
//! total = tf.reshape(beam_scores[:, :, None] + log_probs, (2, -1))    # (batch, beam * vocab)
//! best, flat = tf.math.top_k(total, k=2)
//! parents, tokens = flat // 3, flat % 3
//! history = tf.concat([tf.gather(history, parents, batch_dims=1), tokens[:, :, None]], axis=2)
//! print(best.numpy())
//! print(parents.numpy())
//! print(history.numpy())
//! ```
//!
//! Run with `cargo run --example beam_search`.

use tensor_at::at;
use tensor_at::ndarray::{Array2, Array3, Axis, array, concatenate};

fn main() {
    let log_probs = array![
        [[-0.1f32, -2.3, -1.2], [-0.7, -0.9, -3.0]],
        [[-1.5, -0.2, -2.2], [-0.4, -1.1, -0.6]]
    ];
    let beam_scores = array![[-0.5f32, -0.6], [-1.0, -0.3]];
    let history = array![[[4, 7], [4, 1]], [[2, 5], [3, 3]]];
    let (batch, beams, vocab) = log_probs.dim();

    // Every continuation's score, flattened per batch: (batch, beam * vocab).
    let total = (&log_probs + &beam_scores.clone().insert_axis(Axis(2)))
        .into_shape_with_order((batch, beams * vocab))
        .expect("C order");
    // top_k(total, 2): the best two per batch, ties to the lower position.
    let mut best = Array2::<f32>::zeros((batch, beams));
    let mut flat = Array2::<usize>::zeros((batch, beams));
    for b in 0..batch {
        let mut order: Vec<usize> = (0..beams * vocab).collect();
        order.sort_by(|&i, &j| total[[b, j]].total_cmp(&total[[b, i]]));
        for k in 0..beams {
            (best[[b, k]], flat[[b, k]]) = (total[[b, order[k]]], order[k]);
        }
    }
    let (parents, tokens) = (flat.mapv(|i| i / vocab), flat.mapv(|i| (i % vocab) as i32));

    // tf.gather(history, parents, batch_dims=1): batch b's beams read the
    // histories of batch b's parents.
    let kept: Array3<i32> = at!(history[parents]; batch = 1);
    let history = concatenate(Axis(2), &[kept.view(), tokens.insert_axis(Axis(2)).view()]).expect("same batch and beams");
    println!("best scores:\n{best}\nparents:\n{parents}\nhistory:\n{history}");

    // Printed by the TensorFlow original above.
    assert_eq!(best, array![[-0.6, -1.3], [-0.70000005, -0.90000004]]);
    assert_eq!(parents, array![[0, 1], [1, 1]]);
    assert_eq!(history, array![[[4, 7, 0], [4, 1, 0]], [[3, 3, 0], [3, 3, 2]]]);
}
