//! What a write does to one element, fixed at compile time of the kernel:
//! the same arithmetic as tensor-core's `Arith::combine`.

use cubecl::prelude::*;
use tensor_core::Op;

use crate::error::GpuError;

/// What a write does to each element it reaches: overwrite it, or combine
/// it with the value by one of tensor-core's operations.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Combine {
    /// `value`.
    Set,
    /// `current op value`, for an operation [`Combine::update`] admits.
    Update(Op),
}

impl Combine {
    /// `op` as a write, if a kernel runs it; refused before anything runs
    /// otherwise.
    pub(crate) fn update(op: Op) -> Result<Combine, GpuError> {
        match op {
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow | Op::Min | Op::Max => Ok(Combine::Update(op)),
            Op::Rem | Op::BitAnd | Op::BitOr | Op::BitXor => Err(GpuError::Unsupported {
                operation: op.symbol(),
                reason: "no GPU kernel runs it yet; download, update on the CPU, upload",
            }),
        }
    }
}

/// `current op value`, as tensor-core's `Arith::combine` computes it for
/// the types a kernel holds: integers wrap, and truncate toward zero in
/// `/` (zero divisors are refused on the host; `MIN / -1` is `MIN`, as
/// Rust's `wrapping_div`); `pow` is for non-negative integer exponents;
/// `min` and `max` are NumPy's, NaN propagating, the second of two equal
/// values winning.
#[cube]
pub(crate) fn combine<T: Numeric>(current: T, value: T, #[comptime] op: Combine) -> T {
    match op {
        Combine::Set => value,
        Combine::Update(Op::Add) => current + value,
        Combine::Update(Op::Sub) => current - value,
        Combine::Update(Op::Mul) => current * value,
        Combine::Update(Op::Div) => current / value,
        Combine::Update(Op::Pow) => wrapping_pow::<T>(current, value),
        Combine::Update(Op::Min) => select(is_nan::<T>(current) || current < value, current, value),
        Combine::Update(Op::Max) => select(is_nan::<T>(current) || current > value, current, value),
        Combine::Update(Op::Rem | Op::BitAnd | Op::BitOr | Op::BitXor) => {
            unreachable!("Combine::update refuses the operations no kernel runs")
        }
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
