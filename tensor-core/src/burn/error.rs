//! What a call on a burn tensor returns when it cannot run.

use crate::error::IndexError;

/// Why an indexed read or update of a burn tensor failed. Nothing was
/// written: the tensor is as it was.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BurnError {
    /// The index, the mode or the value broke one of NumPy's rules: the
    /// same error, in the same order, as on an ndarray.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// An operation burn has no kernel for on this kind of tensor.
    #[error("`{operation}` cannot run on a burn tensor: {reason}")]
    Unsupported {
        /// The operation.
        operation: &'static str,
        /// Why, and what to do instead.
        reason: String,
    },
    /// A value tensor of another data type than the target's.
    #[error("a value of data type {value:?} cannot be written into a tensor of {target:?}: cast it first")]
    DataType {
        /// The value's data type.
        value: burn_tensor::DType,
        /// The target's.
        target: burn_tensor::DType,
    },
    /// A read of a rank known only at run time, asked for in another rank.
    #[error("the read has {actual} axes, not {expected}")]
    Rank {
        /// The rank asked for.
        expected: usize,
        /// The read's.
        actual: usize,
    },
}
