//! Per-example embedding gradients (for per-example clipping, as in
//! differentially private training): the `vmap` of JAX's `.at[].add`, as
//! `+=` with `batch = 1`.
//!
//! The JAX original (float32):
//!
//! ```python
//! tokens = jnp.array([[1, 3, 1], [0, 2, 2]])                           # (batch, seq)
//! upstream = jnp.arange(12, dtype=jnp.float32).reshape(2, 3, 2) / 4    # d loss / d embedded token
//! grads = jnp.zeros((2, 4, 2), jnp.float32)                            # (batch, vocab, dim)
//! grads = jax.vmap(lambda g, t, u: g.at[t].add(u))(grads, tokens, upstream)
//! print(grads)
//! print(grads.sum(0))                                                  # the batch's gradient
//! ```
//!
//! Run with `cargo run --example embedding_grad`.

use tensor_at::at;
use tensor_at::ndarray::{Array3, Axis, array};

fn main() {
    let tokens = array![[1usize, 3, 1], [0, 2, 2]];
    let upstream = Array3::from_shape_fn((2, 3, 2), |(b, s, d)| (b * 6 + s * 2 + d) as f32 / 4.0);
    let mut grads = Array3::<f32>::zeros((2, 4, 2));

    // Each example b adds its rows into its own table grads[b]; a token
    // seen twice in one example accumulates (np.add.at, not buffered).
    at!(grads[tokens] += upstream; batch = 1);
    println!("per-example gradients:\n{grads}");
    let total = grads.sum_axis(Axis(0));
    println!("the batch's gradient:\n{total}");

    // Printed by the JAX original above.
    let expected = array![
        [[0.0, 0.0], [1.0, 1.5], [0.0, 0.0], [0.5, 0.75]],
        [[1.5, 1.75], [0.0, 0.0], [4.5, 5.0], [0.0, 0.0]]
    ];
    assert_eq!(grads, expected);
    assert_eq!(total, array![[1.5, 1.75], [1.0, 1.5], [4.5, 5.0], [0.5, 0.75]]);
}
