//! Reshapes and broadcasts that take every length literally. burn's
//! `reshape` reads a length of 0 as "the source's length on that axis"
//! (ONNX's rule), so a tensor with no elements, reshaped to `[0]` or
//! `[0, 4]`, would be asked for the source's lengths instead, and panic;
//! its `expand` refuses a length of 0. A shape with no elements is a new
//! empty tensor here: it holds nothing to differentiate.
//! (tests/burn's `tensors_with_no_elements` takes every path through it.)

use burn_tensor::Tensor;

use super::kind::BurnKind;

/// `reshape` with every length taken literally.
pub(crate) trait Reshaped<K: BurnKind> {
    /// The tensor in `dims`, which hold as many elements as it does.
    fn shaped<const D2: usize>(self, dims: [usize; D2]) -> Tensor<D2, K>;

    /// The tensor broadcast to `dims` (burn's `expand`).
    fn expanded<const D2: usize>(self, dims: [usize; D2]) -> Tensor<D2, K>;
}

impl<const D: usize, K: BurnKind> Reshaped<K> for Tensor<D, K> {
    fn shaped<const D2: usize>(self, dims: [usize; D2]) -> Tensor<D2, K> {
        if dims.contains(&0) {
            debug_assert!(self.dims().contains(&0), "a reshape keeps the elements");
            return Tensor::empty(dims, (&self.device(), self.dtype()));
        }
        self.reshape(dims)
    }

    fn expanded<const D2: usize>(self, dims: [usize; D2]) -> Tensor<D2, K> {
        if dims.contains(&0) {
            return Tensor::empty(dims, (&self.device(), self.dtype()));
        }
        self.expand(dims)
    }
}
