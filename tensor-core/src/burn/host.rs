//! Every copy of a burn tensor's elements to the host that a call makes
//! goes through here, and is counted on the calling thread: the tests hold
//! each call to the copies its mode needs.

use std::cell::Cell;

use burn_tensor::{Element, Tensor, TensorData};

use super::kind::BurnKind;

thread_local! {
    static COPIES: Cell<usize> = const { Cell::new(0) };
}

/// `tensor`'s elements on the host: one copy.
pub(crate) fn data<K: BurnKind>(tensor: Tensor<1, K>) -> TensorData {
    COPIES.with(|copies| copies.set(copies.get() + 1));
    tensor.into_data()
}

/// The one element of `tensor` on the host: one copy.
pub(crate) fn scalar<E: Element, K: BurnKind>(tensor: Tensor<1, K>) -> E {
    COPIES.with(|copies| copies.set(copies.get() + 1));
    tensor.into_scalar::<E>()
}

/// How many copies from a device to the host this thread's calls on burn
/// tensors have made.
#[doc(hidden)]
pub fn copies_to_host() -> usize {
    COPIES.with(Cell::get)
}
