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
    /// `self op value`.
    fn combine(self, op: Op, value: Self) -> Self;
    /// Whether `value` may be the right operand of `op` (no integer
    /// division by zero, no negative integer power).
    fn check_operand(op: Op, value: Self) -> Result<(), crate::IndexError>;
    /// Whether `check_operand` can fail for `op`: when not, nobody calls it.
    fn checks_operands(op: Op) -> bool;
    /// The identity of `op` when applying a run of updates to it and
    /// combining the result gives, bit for bit, what applying them one by
    /// one gives (integer `+ * min max`, float `min max`); `None` otherwise
    /// (float sums round differently in another order).
    fn regrouping_identity(op: Op) -> Option<Self> {
        let _ = op;
        None
    }
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
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
            fn checks_operands(_: Op) -> bool {
                false
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
            fn checks_operands(op: Op) -> bool {
                matches!(op, Op::Div | Op::Pow)
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
