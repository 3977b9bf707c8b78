//! The arithmetic of the accumulating operations, per element type.

use num_traits::{One, WrappingMul};

/// An accumulating operation: `x[i] op= v` for each occurrence, in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `+=`, `np.add.at`.
    Add,
    /// `-=`, `np.subtract.at`.
    Sub,
    /// `*=`, `np.multiply.at`.
    Mul,
    /// `/=`, `np.divide.at`; integer division truncates toward zero, as Rust's `/`.
    Div,
    /// `np.power.at`.
    Pow,
    /// `np.minimum.at`: NaN propagates.
    Min,
    /// `np.maximum.at`: NaN propagates.
    Max,
}

impl Op {
    /// Whether applying a run of updates to the identity and combining the
    /// result gives, bit for bit, what applying them one by one gives: `min`
    /// and `max` always, wrapping integer `+` and `*` too (float sums round
    /// differently in another order). A constant, so that the parallel
    /// paths an operation cannot take are not compiled for it.
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // the parallel paths ask
    pub(crate) const fn regroups(self, integer: bool) -> bool {
        matches!(self, Op::Min | Op::Max) || integer && matches!(self, Op::Add | Op::Mul)
    }

    /// Whether an operand of `self` can be invalid: integer division
    /// (by zero) and integer powers (negative).
    pub(crate) const fn checks_operands(self, integer: bool) -> bool {
        integer && matches!(self, Op::Div | Op::Pow)
    }
}

/// Element types the accumulating operations work on.
///
/// Floats follow IEEE arithmetic and NumPy's NaN-propagating `minimum` and
/// `maximum`. Integers wrap on overflow, as NumPy's fixed-width integers do;
/// integer division by zero and negative integer powers are errors raised
/// before anything is written.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not support the arithmetic updates",
    note = "`+= -= *= /=`, `pow`, `min` and `max` work on f32, f64 and the primitive integer types; `set` and `apply` work on any `Clone` element"
)]
pub trait Arith: Copy + PartialOrd + Send + Sync + 'static {
    /// Whether the type is an integer: its arithmetic wraps, so `+` and `*`
    /// are exact and may be regrouped, and division and powers have
    /// operands to check.
    const INTEGER: bool;
    /// `self op value`.
    fn combine(self, op: Op, value: Self) -> Self;
    /// Whether `value` may be the right operand of `op` (no integer
    /// division by zero, no negative integer power).
    fn check_operand(op: Op, value: Self) -> Result<(), crate::IndexError>;
    /// Whether `check_operand` can fail for `op`: when not, nobody calls it.
    fn checks_operands(op: Op) -> bool {
        op.checks_operands(Self::INTEGER)
    }
    /// The identity of `op` when the updates may be regrouped
    /// (integer `+ * min max`, float `min max`: [`Arith::INTEGER`] decides); `None`
    /// otherwise.
    fn regrouping_identity(op: Op) -> Option<Self>;
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const INTEGER: bool = false;
            #[inline]
            fn combine(self, op: Op, value: Self) -> Self {
                match op {
                    Op::Add => self + value,
                    Op::Sub => self - value,
                    Op::Mul => self * value,
                    Op::Div => self / value,
                    Op::Pow => self.powf(value),
                    // As NumPy's `minimum`/`maximum`: NaN propagates, and of
                    // two equal values (`0.0`, `-0.0`) the second one wins.
                    // A select, not a branch: duplicates' order makes it unpredictable.
                    Op::Min => std::hint::select_unpredictable(self.is_nan() | (self < value), self, value),
                    Op::Max => std::hint::select_unpredictable(self.is_nan() | (self > value), self, value),
                }
            }
            #[inline]
            fn check_operand(_: Op, _: Self) -> Result<(), crate::IndexError> {
                Ok(())
            }
            // NaN propagation and "of equal values the second wins" both
            // survive regrouping: the first NaN, and the last of the ties.
            fn regrouping_identity(op: Op) -> Option<Self> {
                match op {
                    Op::Min => Some(<$t>::INFINITY),
                    Op::Max => Some(<$t>::NEG_INFINITY),
                    _ => None,
                }
            }
        }
    )*};
}
float_arith!(f32, f64);

/// `base^exponent` modulo 2^bits, by squaring, for any exponent.
#[inline]
fn wrapping_pow<T: WrappingMul + One + Copy>(base: T, mut exponent: u128) -> T {
    let (mut base, mut result) = (base, T::one());
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = result.wrapping_mul(&base);
        }
        base = base.wrapping_mul(&base);
        exponent >>= 1;
    }
    result
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const INTEGER: bool = true;
            #[inline]
            fn combine(self, op: Op, value: Self) -> Self {
                match op {
                    Op::Add => self.wrapping_add(value),
                    Op::Sub => self.wrapping_sub(value),
                    Op::Mul => self.wrapping_mul(value),
                    // `check_operand` ruled out zero; MIN / -1 wraps to MIN.
                    Op::Div => self.wrapping_div(value),
                    // `check_operand` ruled out negative exponents.
                    Op::Pow => wrapping_pow(self, value as u128),
                    Op::Min => self.min(value),
                    Op::Max => self.max(value),
                }
            }
            #[inline]
            #[allow(unused_comparisons)] // unsigned types are never negative
            fn check_operand(op: Op, value: Self) -> Result<(), crate::IndexError> {
                match op {
                    Op::Div if value == 0 => Err(crate::IndexError::DivisionByZero),
                    Op::Pow if value < 0 => Err(crate::IndexError::NegativeIntegerPower),
                    _ => Ok(()),
                }
            }
            // Wrapping `+` and `*` are associative and commutative, as are `min`, `max`.
            fn regrouping_identity(op: Op) -> Option<Self> {
                match op {
                    Op::Add => Some(0),
                    Op::Mul => Some(1),
                    Op::Min => Some(<$t>::MAX),
                    Op::Max => Some(<$t>::MIN),
                    Op::Sub | Op::Div | Op::Pow => None,
                }
            }
        }
    )*};
}
int_arith!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::*;

    const OPS: [Op; 7] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max];

    /// `Op::regroups` decides at compile time which path is built;
    /// `regrouping_identity` gives the value: they must agree.
    fn identities_agree<T: Arith>() {
        for op in OPS {
            assert_eq!(
                T::regrouping_identity(op).is_some(),
                op.regroups(T::INTEGER),
                "{op:?} on {}",
                std::any::type_name::<T>()
            );
        }
    }

    #[test]
    fn an_identity_exactly_where_the_operation_regroups() {
        identities_agree::<f32>();
        identities_agree::<f64>();
        identities_agree::<i8>();
        identities_agree::<u8>();
        identities_agree::<i64>();
        identities_agree::<usize>();
        assert!(Op::Add.regroups(true) && !Op::Add.regroups(false));
        assert!(Op::Max.regroups(false) && !Op::Sub.regroups(true));
    }

    #[test]
    fn integer_division_and_powers_check_their_operands() {
        assert_eq!(OPS.map(i32::checks_operands), [false, false, false, true, true, false, false]);
        assert_eq!(OPS.map(f64::checks_operands), [false; 7]);
    }
}
