//! (Feature `burn`) The macros on burn tensors: `at!`, `set!`, `try_at!`
//! and `try_set!` take a `burn::tensor::Tensor<D, K>` of kind `Float`,
//! `Int` or `Bool` (`=` and reads), on any device, with NumPy's rules.
//!
//! ```ignore
//! let device = Device::flex().autodiff();
//! let x0 = Tensor::<2>::from_data(TensorData::new(data, [3, 4]), &device).require_grad();
//! let mut x = x0.clone();
//! at!(x[1:, [0, 2, 0]] += v.clone());
//! let grads = (x * weights).sum().backward();
//! ```
//!
//! - A read returns a `Tensor<M, K>`, its rank `M` found at compile time
//!   as for an ndarray; a read of one element returns a `Tensor<1, K>` of
//!   one element (burn has no rank 0). A read of a rank known only at run
//!   time returns an [`AnyRank`].
//! - An update replaces the tensor in the caller's variable; `set!` returns
//!   the new tensor. Values are burn tensors of the target's kind, scalars,
//!   or host arrays (of `f64`, `i64`, `bool`: converted to the tensor's
//!   data type, as PyTorch converts a Python number).
//! - Errors are [`BurnError`]s: NumPy's [`IndexError`](crate::IndexError)
//!   where the CPU gives one, in the same order, and nothing is written.
//! - On a device with autodiff, gradients flow through every read and
//!   update, to the target and to the value, with JAX's answers where
//!   burn's own operations have none (below).
//!
//! # Gradients
//!
//! - `=` with repeated positions: the last occurrence wins, and it alone
//!   gets its gradient; the written positions of the target get none.
//! - `+=`, `-=`: exact with repeated positions.
//! - `*=`, `/=`, `pow` with repeated positions: the product rule, each
//!   occurrence applied in index order, zeros included.
//! - `min`, `max`: a tie shares the gradient equally among the target's
//!   element and every tied value (JAX's rule); a candidate that is not
//!   finite takes no share.

mod call;
mod device;
mod error;
mod flat;
mod host;
mod index;
mod kind;
mod rank;
mod region;
mod reshape;
mod rows;
mod slices;
mod target;
mod ties;
mod value;

pub use error::BurnError;
pub use host::copies_to_host;
pub use index::{Unique, unique};
pub use kind::BurnKind;
pub use rank::{AnyRank, Reads};
pub use target::Ranked;
