//! What tensor-at knows of element types: the arithmetic of the
//! accumulating operations, and which types are plain numbers that the
//! fast paths may copy by their bits.

use std::any::TypeId;
use std::marker::PhantomData;
#[cfg(threads)]
use std::mem::MaybeUninit;

use ndarray::{ArrayViewD, ArrayViewMutD};

use num_complex::Complex;
use num_traits::{One, WrappingMul};

pub use tensor_ops::{Compare, Op};

/// Whether applying a run of updates of `op` to the identity and combining
/// the result gives, bit for bit, what applying them one by one gives: `min`
/// and `max` always, wrapping integer `+` and `*` too (float sums round
/// differently in another order). A constant, so that the parallel paths an
/// operation cannot take are not compiled for it.
#[cfg_attr(
    not(threads),
    allow(dead_code, reason = "the parallel paths ask, through a kernel fixed at compile time")
)]
pub(crate) const fn regroups(op: Op, integer: bool) -> bool {
    matches!(op, Op::Min | Op::Max) || integer && matches!(op, Op::Add | Op::Mul | Op::BitAnd | Op::BitOr | Op::BitXor)
}

/// `op` as one bit of a set of operations ([`Arith::CHECKED`]).
pub(crate) const fn bit(op: Op) -> u16 {
    1 << op.index()
}

/// Why an operand cannot be applied ([`Arith::operand_fault`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperandFault {
    /// An integer divisor (of `/` or `%`) of zero.
    DivisionByZero,
    /// A negative integer power.
    NegativePower,
    /// An operation the element type does not have.
    Unsupported,
}

/// The set of `ops`, as [`Arith::CHECKED`] holds it.
const fn ops(ops: &[Op]) -> u16 {
    let (mut set, mut k) = (0, 0);
    while k < ops.len() {
        set |= bit(ops[k]);
        k += 1;
    }
    set
}

/// Element types the accumulating operations work on.
///
/// Floats follow IEEE arithmetic and NumPy's NaN-propagating `minimum` and
/// `maximum`. Integers wrap on overflow, as NumPy's fixed-width integers do;
/// integer division (and remainder) by zero and negative integer powers are
/// errors raised before anything is written. `bool` takes NumPy's logical
/// forms: `+` and `max` are "or", `*` and `min` "and"; `-`, `/`, `%` and
/// powers of `bool` are errors, as are the bitwise operations on floats.
/// `num_complex::Complex<f32>` and `Complex<f64>` have `+ - * /` (division
/// by NumPy's scaled formula, bit for bit); their powers, remainders,
/// bitwise operations, `min` and `max` are errors ([`Ordered`] is the
/// capability `min` and `max` need).
///
/// Sealed: the primitive numbers are the types it is implemented for, and
/// methods may be added to it in any release.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not support the arithmetic updates",
    note = "`+= -= *= /= %=`, `pow`, `min` and `max` work on f32, f64 and the primitive integer types, `+= -= *= /=` on `Complex<f32>` and `Complex<f64>`, `&= |= ^=` on integers and bool; `set` and `apply` work on any `Clone` element"
)]
pub trait Arith: Copy + PartialEq + Send + Sync + sealed::Sealed + 'static {
    /// Whether the type is an integer: its arithmetic wraps, so `+` and `*`
    /// are exact and may be regrouped, and division and powers have
    /// operands to check.
    const INTEGER: bool;
    /// The operations whose operand [`Arith::operand_fault`] may refuse, as
    /// a set of [`Op`] bits (those of [`Arith::UNSUPPORTED`] among them, so
    /// that no path skips the check).
    #[doc(hidden)]
    const CHECKED: u16;
    /// The operations the type does not have, refused whatever the index
    /// and the value hold, as NumPy refuses a ufunc for a dtype.
    #[doc(hidden)]
    const UNSUPPORTED: u16 = 0;
    /// `self op value`.
    fn combine(self, op: Op, value: Self) -> Self;
    /// Why `value` may not be the right operand of `op` (integer division
    /// by zero, a negative integer power, an operation the type does not
    /// have); `None` when it may.
    fn operand_fault(op: Op, value: Self) -> Option<OperandFault>;
    /// Whether `operand_fault` can refuse for `op`: when not, nobody calls it.
    fn checks_operands(op: Op) -> bool {
        Self::CHECKED & bit(op) != 0
    }
    /// Whether the type has the operation `op`.
    fn supports(op: Op) -> bool {
        Self::UNSUPPORTED & bit(op) == 0
    }
    /// The identity of `op` when the updates may be regrouped
    /// (integer `+ * min max`, float `min max`: [`Arith::INTEGER`] decides); `None`
    /// otherwise.
    fn regrouping_identity(op: Op) -> Option<Self>;
    /// Whether `self compare threshold` holds ([`Compare::holds`]), for the
    /// passes that know no more of the type than `Arith`; of a type with no
    /// order (complex), only `==` and `!=` ever hold. Inlined, with a
    /// constant `compare`, it is one operator.
    #[doc(hidden)]
    fn satisfies(self, compare: Compare, threshold: Self) -> bool;
}

mod sealed {
    /// Closes [`Arith`](super::Arith) to the primitive numbers.
    pub trait Sealed {}
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Arith for $t {
            const INTEGER: bool = false;
            const CHECKED: u16 = Self::UNSUPPORTED;
            const UNSUPPORTED: u16 = ops(&[Op::BitAnd, Op::BitOr, Op::BitXor]);
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
                    // NumPy's `remainder`: Rust's `%` is C's `fmod`, whose
                    // result has the dividend's sign; a nonzero one moves to
                    // the divisor's, and a zero takes the divisor's sign.
                    Op::Rem => {
                        let rem = self % value;
                        if value == 0.0 || rem.is_nan() {
                            rem
                        } else if rem == 0.0 {
                            (0.0 as $t).copysign(value)
                        } else if (value < 0.0) != (rem < 0.0) {
                            rem + value
                        } else {
                            rem
                        }
                    }
                    // Refused before anything is written (`CHECKED`).
                    Op::BitAnd | Op::BitOr | Op::BitXor => self,
                }
            }
            #[inline]
            fn operand_fault(op: Op, _: Self) -> Option<OperandFault> {
                (Self::CHECKED & bit(op) != 0).then_some(OperandFault::Unsupported)
            }
            #[cfg_attr(not(unoptimized), inline(always))]
            fn satisfies(self, compare: Compare, threshold: Self) -> bool {
                compare.holds(&self, &threshold)
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
        impl sealed::Sealed for $t {}
        impl Arith for $t {
            const INTEGER: bool = true;
            const CHECKED: u16 = ops(&[Op::Div, Op::Pow, Op::Rem]);
            #[inline]
            #[allow(unused_comparisons)] // unsigned types are never negative
            fn combine(self, op: Op, value: Self) -> Self {
                match op {
                    Op::Add => self.wrapping_add(value),
                    Op::Sub => self.wrapping_sub(value),
                    Op::Mul => self.wrapping_mul(value),
                    // `operand_fault` ruled out zero; MIN / -1 wraps to MIN.
                    Op::Div => self.wrapping_div(value),
                    // `operand_fault` ruled out negative exponents.
                    Op::Pow => wrapping_pow(self, value as u128),
                    Op::Min => self.min(value),
                    Op::Max => self.max(value),
                    // `operand_fault` ruled out zero; NumPy's sign rule: a
                    // nonzero remainder takes the divisor's sign.
                    Op::Rem => {
                        let rem = self.wrapping_rem(value);
                        if rem != 0 && (rem < 0) != (value < 0) { rem.wrapping_add(value) } else { rem }
                    }
                    Op::BitAnd => self & value,
                    Op::BitOr => self | value,
                    Op::BitXor => self ^ value,
                }
            }
            #[inline]
            #[allow(unused_comparisons)] // unsigned types are never negative
            fn operand_fault(op: Op, value: Self) -> Option<OperandFault> {
                match op {
                    Op::Div | Op::Rem if value == 0 => Some(OperandFault::DivisionByZero),
                    Op::Pow if value < 0 => Some(OperandFault::NegativePower),
                    _ => None,
                }
            }
            #[cfg_attr(not(unoptimized), inline(always))]
            fn satisfies(self, compare: Compare, threshold: Self) -> bool {
                compare.holds(&self, &threshold)
            }
            // Wrapping `+` and `*` are associative and commutative, as are `min`, `max`.
            fn regrouping_identity(op: Op) -> Option<Self> {
                match op {
                    Op::Add => Some(0),
                    Op::Mul => Some(1),
                    Op::Min => Some(<$t>::MAX),
                    Op::Max => Some(<$t>::MIN),
                    Op::BitAnd => Some(!0),
                    Op::BitOr | Op::BitXor => Some(0),
                    Op::Sub | Op::Div | Op::Pow | Op::Rem => None,
                }
            }
        }
    )*};
}
int_arith!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// The half-precision floats: each operation computed in `f32` and rounded
/// once, as NumPy computes `float16` (exact for `+ - * /`, whose `f32`
/// results round to the nearest half-precision value as a direct
/// computation would).
#[cfg(feature = "half")]
macro_rules! half_arith {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Arith for $t {
            const INTEGER: bool = false;
            const CHECKED: u16 = f32::CHECKED;
            const UNSUPPORTED: u16 = f32::UNSUPPORTED;
            #[inline]
            fn combine(self, op: Op, value: Self) -> Self {
                match op {
                    // As for `f32` and `f64`: NaN propagates; of two equal
                    // values the second wins. No rounding is involved.
                    Op::Min => if self.is_nan() || self < value { self } else { value },
                    Op::Max => if self.is_nan() || self > value { self } else { value },
                    _ => <$t>::from_f32(self.to_f32().combine(op, value.to_f32())),
                }
            }
            #[inline]
            fn operand_fault(op: Op, value: Self) -> Option<OperandFault> {
                f32::operand_fault(op, value.to_f32())
            }
            #[cfg_attr(not(unoptimized), inline(always))]
            fn satisfies(self, compare: Compare, threshold: Self) -> bool {
                compare.holds(&self, &threshold)
            }
            fn regrouping_identity(op: Op) -> Option<Self> {
                f32::regrouping_identity(op).map(<$t>::from_f32)
            }
        }
    )*};
}
#[cfg(feature = "half")]
half_arith!(half::f16, half::bf16);

impl sealed::Sealed for bool {}

/// NumPy's `bool` arithmetic: "or" and "and", which regroup as integers'
/// `+` and `*` do.
impl Arith for bool {
    const INTEGER: bool = true;
    const CHECKED: u16 = Self::UNSUPPORTED;
    const UNSUPPORTED: u16 = ops(&[Op::Sub, Op::Div, Op::Pow, Op::Rem]);
    #[inline]
    fn combine(self, op: Op, value: Self) -> Self {
        match op {
            Op::Add | Op::Max | Op::BitOr => self | value,
            Op::Mul | Op::Min | Op::BitAnd => self & value,
            Op::BitXor => self ^ value,
            // Refused before anything is written (`CHECKED`).
            Op::Sub | Op::Div | Op::Pow | Op::Rem => self,
        }
    }
    #[inline]
    fn operand_fault(op: Op, _: Self) -> Option<OperandFault> {
        (Self::CHECKED & bit(op) != 0).then_some(OperandFault::Unsupported)
    }
    #[cfg_attr(not(unoptimized), inline(always))]
    fn satisfies(self, compare: Compare, threshold: Self) -> bool {
        compare.holds(&self, &threshold)
    }
    fn regrouping_identity(op: Op) -> Option<Self> {
        match op {
            Op::Add | Op::Max | Op::BitOr | Op::BitXor => Some(false),
            Op::Mul | Op::Min | Op::BitAnd => Some(true),
            Op::Sub | Op::Div | Op::Pow | Op::Rem => None,
        }
    }
}

/// Complex numbers: `+ - *` as num-complex (and NumPy) compute them, and
/// `/` by NumPy's scaled formula (Smith's), which neither overflows nor
/// loses precision where the naive quotient does, and gives NumPy's bits.
macro_rules! complex_arith {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for Complex<$t> {}
        impl Arith for Complex<$t> {
            const INTEGER: bool = false;
            const CHECKED: u16 = Self::UNSUPPORTED;
            const UNSUPPORTED: u16 = ops(&[Op::Pow, Op::Min, Op::Max, Op::Rem, Op::BitAnd, Op::BitOr, Op::BitXor]);
            #[inline]
            fn combine(self, op: Op, value: Self) -> Self {
                match op {
                    Op::Add => self + value,
                    Op::Sub => self - value,
                    Op::Mul => self * value,
                    Op::Div => complex_div(self, value),
                    // Refused before anything is written (`CHECKED`).
                    Op::Pow | Op::Min | Op::Max | Op::Rem | Op::BitAnd | Op::BitOr | Op::BitXor => self,
                }
            }
            #[inline]
            fn operand_fault(op: Op, _: Self) -> Option<OperandFault> {
                (Self::CHECKED & bit(op) != 0).then_some(OperandFault::Unsupported)
            }
            #[cfg_attr(not(unoptimized), inline(always))]
            fn satisfies(self, compare: Compare, threshold: Self) -> bool {
                match compare {
                    Compare::Eq => self == threshold,
                    Compare::Ne => self != threshold,
                    Compare::Lt | Compare::Le | Compare::Gt | Compare::Ge => false,
                }
            }
            fn regrouping_identity(_: Op) -> Option<Self> {
                None
            }
        }
    )*};
}
complex_arith!(f32, f64);

/// `a / b` as NumPy divides complex numbers: the divisor scaled by its
/// larger part, and a zero divisor giving infinities and NaNs as the real
/// division by zero does.
#[inline]
fn complex_div<F: num_traits::Float>(a: Complex<F>, b: Complex<F>) -> Complex<F> {
    let (b_re_abs, b_im_abs) = (b.re.abs(), b.im.abs());
    if b_re_abs >= b_im_abs {
        if b_re_abs == F::zero() && b_im_abs == F::zero() {
            return Complex::new(a.re / b_re_abs, a.im / b_re_abs);
        }
        let ratio = b.im / b.re;
        let scale = F::one() / (b.re + b.im * ratio);
        Complex::new((a.re + a.im * ratio) * scale, (a.im - a.re * ratio) * scale)
    } else {
        let ratio = b.re / b.im;
        let scale = F::one() / (b.im + b.re * ratio);
        Complex::new((a.re * ratio + a.im) * scale, (a.im * ratio - a.re) * scale)
    }
}

/// Element types with an order, which `min` and `max` (`np.minimum.at`,
/// `np.maximum.at`) and the mask sugar's comparisons need: every [`Arith`]
/// type but the complex ones. The macros require it of the target at
/// compile time; the runtime API refuses `min` and `max` of complex
/// numbers with
/// [`IndexError::UnsupportedOperation`](crate::IndexError::UnsupportedOperation).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no order, which `min` and `max` need",
    label = "a `min` or `max` update of `{Self}` elements",
    note = "complex numbers have no order in Rust; compare their `norm()` or their real parts in an `.apply(..)` instead"
)]
pub trait Ordered: Arith + PartialOrd {
    /// Nothing: naming `<_ as Ordered>::check` is the macros' check of a
    /// target's elements (see [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_elems: std::marker::PhantomData<Self>) {}
}
macro_rules! ordered {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl Ordered for $t {}
    )*};
}
ordered!(bool, f32, f64, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
#[cfg(feature = "half")]
ordered!(half::f16, half::bf16);

/// Element types of the bitwise updates (`&= |= ^=`): the integers and
/// `bool`. The macros require it of the target at compile time; the
/// runtime API refuses the bitwise operations on floats with
/// [`IndexError::UnsupportedOperation`](crate::IndexError::UnsupportedOperation).
#[diagnostic::on_unimplemented(
    message = "`&=`, `|=` and `^=` need integer or `bool` elements, not `{Self}`",
    label = "a bitwise update of `{Self}` elements",
    note = "floats have no bitwise updates, as in NumPy"
)]
pub trait Bitwise: Arith {
    /// Nothing: naming `<_ as Bitwise>::check` is the macros' check of a
    /// target's elements (see [`checked`](crate::entry::checked)).
    #[doc(hidden)]
    fn check(_elems: std::marker::PhantomData<Self>) {}
}
macro_rules! bitwise {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl Bitwise for $t {}
    )*};
}
bitwise!(bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// The width of a plain number: a primitive of 4 or 8 bytes, with no
/// padding, no drop and every bit pattern valid, so that copying its bits
/// copies it (and cloning it is copying it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// `f32`, `i32`, `u32`.
    Bits32,
    /// `f64`, `i64`, `u64`, and `isize`, `usize` on 64-bit targets.
    Bits64,
}

/// The unsigned integers the bits of plain numbers are moved as.
///
/// # Safety
///
/// Implemented only for `u32` and `u64` (of the size `WIDTH` says, every
/// bit pattern valid, no padding): code reinterprets plain numbers, and
/// runs of bytes, as these.
pub(crate) unsafe trait Bits: Copy + Send + Sync + 'static {
    /// The width of the numbers whose bits these are.
    const WIDTH: Width;
}

// SAFETY: `u32` is 4 bytes of plain bits.
unsafe impl Bits for u32 {
    const WIDTH: Width = Width::Bits32;
}

// SAFETY: `u64` is 8 bytes of plain bits.
unsafe impl Bits for u64 {
    const WIDTH: Width = Width::Bits64;
}

/// `values` as a slice of `N`, when `T` is `N` (told by type id, as
/// [`Plain::of`] tells it): for a path that needs an arithmetic type's
/// bounds where the caller's `T` carries none.
#[cfg_attr(not(threads), allow(dead_code))] // the parallel mask pass asks
pub(crate) fn as_arith_mut<T, N: Arith>(values: &mut [T]) -> Option<&mut [N]> {
    // SAFETY: `N` is one of the sealed `Arith` types, `'static` with no
    // lifetime parameters for the type id to erase, so equal ids make `T` and `N` one
    // type; the slice is the same borrow under its own name.
    (typeid::of::<T>() == TypeId::of::<N>())
        .then(|| unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<N>(), values.len()) })
}

/// `values` as a slice of `N`, when `T` is `N` (as [`as_arith_mut`]).
#[cfg_attr(not(threads), allow(dead_code))] // the parallel mask pass asks
pub(crate) fn as_arith_slice<T, N: Arith>(values: &[T]) -> Option<&[N]> {
    // SAFETY: as in `as_arith_mut`: `T` is `N`.
    (typeid::of::<T>() == TypeId::of::<N>()).then(|| unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<N>(), values.len()) })
}

/// `value` as an `N`, when `T` is `N` (as [`as_arith_mut`]).
#[cfg_attr(not(threads), allow(dead_code))] // the parallel mask pass asks
pub(crate) fn as_arith<T, N: Arith>(value: &T) -> Option<&N> {
    // SAFETY: as in `as_arith_mut`: `T` is `N`.
    (typeid::of::<T>() == TypeId::of::<N>()).then(|| unsafe { &*std::ptr::from_ref(value).cast::<N>() })
}

/// Proof that `T` is a plain number of some [`Width`], made only by
/// [`Plain::of`], which tells the type by its type id: slices of `T` may
/// then be read and written as their bits, which cross threads and are
/// streamed whatever bounds `T` carries.
pub(crate) struct Plain<T> {
    width: Width,
    element: PhantomData<fn() -> T>,
}

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Plain<T> {}

impl<T> Plain<T> {
    /// The proof for `T`, when it is one of the plain numbers. (The type id
    /// of [`typeid::of`] needs no `'static` bound; it erases lifetimes, and
    /// the types compared with have none, so equal ids mean equal types.)
    pub(crate) fn of() -> Option<Self> {
        let id = typeid::of::<T>();
        let is = |ids: &[TypeId]| ids.contains(&id);
        let words = [TypeId::of::<usize>(), TypeId::of::<isize>()];
        let word = match size_of::<usize>() {
            4 => Some(Width::Bits32),
            8 => Some(Width::Bits64),
            _ => None,
        };
        let width = if is(&[TypeId::of::<f32>(), TypeId::of::<i32>(), TypeId::of::<u32>()]) {
            Width::Bits32
        } else if is(&[TypeId::of::<f64>(), TypeId::of::<i64>(), TypeId::of::<u64>()]) {
            Width::Bits64
        } else if is(&words) {
            word?
        } else {
            return None;
        };
        Some(Plain {
            width,
            element: PhantomData,
        })
    }

    /// The width of `T`.
    #[inline]
    pub(crate) fn width(self) -> Width {
        self.width
    }

    /// `values` as their bits, when `B` has `T`'s width.
    #[inline]
    pub(crate) fn bits<B: Bits>(self, values: &[T]) -> Option<&[B]> {
        // SAFETY: `T` is a plain number of `B`'s width (the proof, and the
        // test just made): the same size and alignment, no padding, and
        // every bit pattern of either is valid for the other.
        (self.width == B::WIDTH).then(|| unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<B>(), values.len()) })
    }

    /// `bits` as the numbers they are the bits of, when `B` has `T`'s
    /// width (else `bits` back).
    #[cfg_attr(not(threads), allow(dead_code))] // the parallel paths move bits
    pub(crate) fn numbers_of<B: Bits>(self, bits: Vec<B>) -> Result<Vec<T>, Vec<B>> {
        if self.width != B::WIDTH {
            return Err(bits);
        }
        let mut bits = std::mem::ManuallyDrop::new(bits);
        let (pointer, len, capacity) = (bits.as_mut_ptr(), bits.len(), bits.capacity());
        // SAFETY: `T` has `B`'s size and alignment (as in `bits`), so the
        // allocation's layout is the same for both; every `B` is a valid
        // `T`; `bits` is forgotten, so the allocation has one owner.
        Ok(unsafe { Vec::from_raw_parts(pointer.cast::<T>(), len, capacity) })
    }

    /// `numbers` as their bits, when `B` has `T`'s width (else `numbers`
    /// back): the inverse of [`numbers_of`](Self::numbers_of).
    #[cfg_attr(not(threads), allow(dead_code))] // the parallel paths move bits
    pub(crate) fn bits_of<B: Bits>(self, numbers: Vec<T>) -> Result<Vec<B>, Vec<T>> {
        if self.width != B::WIDTH {
            return Err(numbers);
        }
        let mut numbers = std::mem::ManuallyDrop::new(numbers);
        let (pointer, len, capacity) = (numbers.as_mut_ptr(), numbers.len(), numbers.capacity());
        // SAFETY: as in `numbers_of`, the other way: the same layout, every
        // `T` a valid `B`, and one owner of the allocation.
        Ok(unsafe { Vec::from_raw_parts(pointer.cast::<B>(), len, capacity) })
    }

    /// `view` as the bits of its numbers, when `B` has `T`'s width.
    #[cfg_attr(not(threads), allow(dead_code))] // the parallel paths move bits
    pub(crate) fn view_bits<'a, B: Bits>(self, view: ArrayViewD<'a, T>) -> Option<ArrayViewD<'a, B>> {
        // SAFETY: `T` is a plain number of `B`'s width (as in `bits`): the
        // cast view reaches the same elements, each a valid `B`, borrowed
        // as `view` borrowed them.
        (self.width == B::WIDTH).then(|| unsafe { view.raw_view().cast::<B>().deref_into_view() })
    }

    /// `view` as the bits of its numbers, for writing, when `B` has `T`'s
    /// width.
    #[cfg_attr(not(threads), allow(dead_code))] // the parallel paths move bits
    pub(crate) fn view_bits_mut<'a, B: Bits>(self, mut view: ArrayViewMutD<'a, T>) -> Option<ArrayViewMutD<'a, B>> {
        // SAFETY: as in `view_bits`; the bits borrow for `'a` what `view`
        // borrowed exclusively for `'a`, and `view` is gone.
        (self.width == B::WIDTH).then(|| unsafe { view.raw_view_mut().cast::<B>().deref_into_view_mut() })
    }

    /// `values` as their bits, for writing, when `B` has `T`'s width.
    #[inline]
    pub(crate) fn bits_mut<B: Bits>(self, values: &mut [T]) -> Option<&mut [B]> {
        // SAFETY: as in `bits`; the bits borrow `values` exclusively.
        (self.width == B::WIDTH).then(|| unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<B>(), values.len()) })
    }

    /// Slots for numbers, written or not, as slots for their bits, when
    /// `B` has `T`'s width.
    #[cfg(threads)] // the split by destination compacts bits
    #[inline]
    pub(crate) fn slots_bits_mut<B: Bits>(self, slots: &mut [MaybeUninit<T>]) -> Option<&mut [MaybeUninit<B>]> {
        // SAFETY: as in `bits`: `MaybeUninit` keeps `T`'s and `B`'s size and
        // alignment, a slot written as either holds a valid other, and the
        // bits borrow `slots` exclusively.
        (self.width == B::WIDTH)
            .then(|| unsafe { std::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<MaybeUninit<B>>(), slots.len()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `regroups` decides at compile time which path is built;
    /// `regrouping_identity` gives the value: they must agree.
    fn identities_agree<T: Arith>() {
        for op in Op::ALL {
            assert_eq!(
                T::regrouping_identity(op).is_some(),
                regroups(op, T::INTEGER),
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
        identities_agree::<bool>();
        assert!(regroups(Op::Add, true) && !regroups(Op::Add, false));
        assert!(regroups(Op::Max, false) && !regroups(Op::Sub, true));
    }

    #[test]
    fn integer_division_and_powers_check_their_operands() {
        let (f, t) = (false, true);
        assert_eq!(Op::ALL.map(i32::checks_operands), [f, f, f, t, t, f, f, t, f, f, f]);
        assert_eq!(Op::ALL.map(f64::checks_operands), [f, f, f, f, f, f, f, f, t, t, t]);
        assert_eq!(Op::ALL.map(bool::checks_operands), [f, t, f, t, t, f, f, t, f, f, f]);
        assert_eq!(i32::operand_fault(Op::Rem, 0), Some(OperandFault::DivisionByZero));
        assert_eq!(f32::operand_fault(Op::BitOr, 1.0), Some(OperandFault::Unsupported));
        assert_eq!(bool::operand_fault(Op::Sub, true), Some(OperandFault::Unsupported));
        assert_eq!(bool::operand_fault(Op::Add, true), None);
        assert_eq!(i32::operand_fault(Op::Div, 0), Some(OperandFault::DivisionByZero));
        assert_eq!(i32::operand_fault(Op::Div, -1), None);
        assert_eq!(i8::operand_fault(Op::Pow, -1), Some(OperandFault::NegativePower));
        assert_eq!(u8::operand_fault(Op::Pow, 0), None);
        assert_eq!(f64::operand_fault(Op::Div, 0.0), None);
    }

    /// `as_arith`, `as_arith_slice` and `as_arith_mut` name a value or a
    /// slice by its own type only: not by another of the same width, not by
    /// a reference to it.
    #[test]
    fn arithmetic_names_are_given_to_the_same_type_only() {
        let mut values = [1.5f32, -2.0];
        let named = as_arith_mut::<f32, f32>(&mut values).expect("the same type");
        named[1] = 4.0;
        assert_eq!(values, [1.5, 4.0]);
        assert!(as_arith_mut::<f32, u32>(&mut values).is_none());
        assert!(as_arith_mut::<f32, i32>(&mut values).is_none());
        assert_eq!(as_arith_slice::<f32, f32>(&values), Some(&[1.5f32, 4.0][..]));
        assert!(as_arith_slice::<f32, u32>(&values).is_none());
        assert!(as_arith_slice::<usize, u64>(&[1usize]).is_none());
        assert!(as_arith::<u64, i64>(&7).is_none());
        assert!(as_arith::<usize, u64>(&7).is_none());
        assert_eq!(as_arith::<i64, i64>(&-7), Some(&-7));
        fn by_reference<'a>(value: &'a &'a u32) -> bool {
            as_arith::<&'a u32, u32>(value).is_some()
        }
        assert!(!by_reference(&&3));
    }

    #[test]
    fn plain_numbers_are_told_by_type() {
        let width = |plain: Option<Width>| plain;
        assert_eq!(width(Plain::<f32>::of().map(Plain::width)), Some(Width::Bits32));
        assert_eq!(width(Plain::<u32>::of().map(Plain::width)), Some(Width::Bits32));
        assert_eq!(width(Plain::<f64>::of().map(Plain::width)), Some(Width::Bits64));
        assert_eq!(width(Plain::<i64>::of().map(Plain::width)), Some(Width::Bits64));
        assert!(Plain::<usize>::of().is_some() && Plain::<isize>::of().is_some());
        // Same size, not plain: padding, drop glue or invalid bit patterns.
        assert!(Plain::<char>::of().is_none());
        assert!(Plain::<(u16, u16)>::of().is_none());
        assert!(Plain::<Option<u32>>::of().is_none());
        assert!(Plain::<&'static u64>::of().is_none());
        assert!(Plain::<std::num::NonZeroU64>::of().is_none());
        assert!(Plain::<bool>::of().is_none());
        // Non-'static types can ask.
        fn ask<'a, T: 'a>(_: &'a T) -> bool {
            Plain::<&'a T>::of().is_some()
        }
        assert!(!ask(&1u64));
    }

    #[test]
    fn plain_slices_read_as_their_bits_of_their_width_only() {
        let plain = Plain::<f32>::of().unwrap();
        let mut values = [1.5f32, -0.0, f32::NAN];
        assert_eq!(
            plain.bits::<u32>(&values),
            Some(&[1.5f32.to_bits(), (-0.0f32).to_bits(), f32::NAN.to_bits()][..])
        );
        assert!(plain.bits::<u64>(&values).is_none());
        plain.bits_mut::<u32>(&mut values).unwrap()[0] = 2.25f32.to_bits();
        assert_eq!(values[0], 2.25);
        let wide = Plain::<i64>::of().unwrap();
        assert_eq!(wide.bits::<u64>(&[-1i64]), Some(&[u64::MAX][..]));
        let back = plain.numbers_of::<u32>(vec![0.5f32.to_bits(), 0]).unwrap();
        assert_eq!(back, [0.5, 0.0]);
        assert_eq!(plain.numbers_of::<u64>(vec![7]).unwrap_err(), [7]);
        // Views keep their layout, negative strides included.
        let mut grid = ndarray::Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f32);
        let reversed = grid.slice(ndarray::s![..;-1, 1..;2]).into_dyn();
        let bits = plain.view_bits::<u32>(reversed.clone()).unwrap();
        assert_eq!(bits, reversed.mapv(f32::to_bits));
        assert!(plain.view_bits::<u64>(reversed).is_none());
        let mut column = plain.view_bits_mut::<u32>(grid.column_mut(3).into_dyn()).unwrap();
        column.fill(0.5f32.to_bits());
        assert_eq!(grid.column(3), ndarray::arr1(&[0.5f32; 3]));
    }
}
