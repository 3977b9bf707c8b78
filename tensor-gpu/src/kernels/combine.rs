//! What a write does to one element, fixed at compile time of the kernel:
//! the same arithmetic as tensor-core's `Arith::combine`.

use cubecl::prelude::*;

/// `current op= value`, one variant per operation.
#[derive(CubeType, Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Combine {
    /// `value`.
    Set,
    /// `current + value` (integers wrap, as on the device).
    Add,
    /// `current - value`.
    Sub,
    /// `current * value`.
    Mul,
    /// `current / value`; integers truncate toward zero (zero divisors are
    /// rejected on the host; `MIN / -1` is `MIN` on the device as in Rust's
    /// `wrapping_div`).
    Div,
    /// Integer `current ^ value` by squaring, wrapping (negative exponents
    /// rejected on the host; float powers are not offered).
    Pow,
    /// NumPy's `minimum`: NaN propagates; of two equal values the second wins.
    Min,
    /// NumPy's `maximum`, likewise.
    Max,
}

/// `Op` may grow in a tensor-core release before this crate has its
/// kernel: such an operation is refused before anything runs.
impl TryFrom<tensor_core::Op> for Combine {
    type Error = crate::error::GpuError;
    fn try_from(op: tensor_core::Op) -> Result<Self, Self::Error> {
        Ok(match op {
            tensor_core::Op::Add => Combine::Add,
            tensor_core::Op::Sub => Combine::Sub,
            tensor_core::Op::Mul => Combine::Mul,
            tensor_core::Op::Div => Combine::Div,
            tensor_core::Op::Pow => Combine::Pow,
            tensor_core::Op::Min => Combine::Min,
            tensor_core::Op::Max => Combine::Max,
            tensor_core::Op::Rem | tensor_core::Op::BitAnd | tensor_core::Op::BitOr | tensor_core::Op::BitXor => {
                return Err(crate::error::GpuError::Unsupported {
                    operation: op.symbol(),
                    reason: "no GPU kernel runs it yet; download, update on the CPU, upload",
                });
            }
            _ => return Err(crate::error::GpuError::newer_core("this operation")),
        })
    }
}

/// `current op value`.
#[cube]
pub(crate) fn combine<T: Numeric>(current: T, value: T, #[comptime] op: Combine) -> T {
    match op {
        Combine::Set => value,
        Combine::Add => current + value,
        Combine::Sub => current - value,
        Combine::Mul => current * value,
        Combine::Div => current / value,
        Combine::Pow => wrapping_pow::<T>(current, value),
        Combine::Min => select(is_nan::<T>(current) || current < value, current, value),
        Combine::Max => select(is_nan::<T>(current) || current > value, current, value),
    }
}

/// Whether `x` is NaN: `!(x == x)` holds for NaN only (and never for an
/// integer), so one generic test gives NumPy's NaN-propagating minimum and
/// maximum for every type. (Not `x != x`, which a shader compiler may lower
/// to an ordered comparison.)
#[cube]
#[allow(clippy::eq_op)]
fn is_nan<T: Numeric>(x: T) -> bool {
    !(x == x)
}

/// `base ^ exponent` by squaring, for a non-negative integer exponent.
#[cube]
fn wrapping_pow<T: Numeric>(base: T, exponent: T) -> T {
    let zero = T::from_int(0);
    let one = T::from_int(1);
    let two = T::from_int(2);
    let mut result = one;
    let mut square = base;
    let mut rest = exponent;
    while rest > zero {
        if rest % two == one {
            result *= square;
        }
        square *= square;
        rest /= two;
    }
    result
}
