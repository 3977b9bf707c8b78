//! The plain numbers behind an element type: the passes that cross threads
//! run on their bits (`u32`, `u64`) or on their arithmetic type, told by
//! type id, whatever bounds the caller's `T` carries.

use crate::element::{Bits, Plain};
use crate::value::{Broadcast, InOrder};

/// `$split::<T, B>(args)` with `B` the bits of `T`'s width (`u32` or
/// `u64`), or `false` when `T` is not a plain number: how the parallel
/// writes reach the bits of their elements.
macro_rules! by_width {
    ($t:ty, $split:ident($($arg:expr),* $(,)?)) => {
        match $crate::element::Plain::<$t>::of().map($crate::element::Plain::width) {
            Some($crate::element::Width::Bits32) => $split::<$t, u32>($($arg),*),
            Some($crate::element::Width::Bits64) => $split::<$t, u64>($($arg),*),
            None => false,
        }
    };
}
pub(super) use by_width;

/// `f::<T, N>(args)` for the first arithmetic type `N` that `T` is (told by
/// type id), or `None` when it is none of them: how the mask sugar's
/// passes on threads reach bounds that the caller's `T` does not carry.
macro_rules! by_arith {
    ($t:ty, $f:ident($($arg:expr),* $(,)?)) => {
        $f::<$t, f32>($($arg),*)
            .or_else(|| $f::<$t, f64>($($arg),*))
            .or_else(|| $f::<$t, i32>($($arg),*))
            .or_else(|| $f::<$t, u32>($($arg),*))
            .or_else(|| $f::<$t, i64>($($arg),*))
            .or_else(|| $f::<$t, u64>($($arg),*))
            .or_else(|| $f::<$t, isize>($($arg),*))
            .or_else(|| $f::<$t, usize>($($arg),*))
    };
}
pub(super) use by_arith;

/// `values` as the bits `B` of their plain numbers.
///
/// # Panics
///
/// When `B` is not their width.
pub(super) fn values_bits<'v, T, B: Bits>(plain: Plain<T>, values: &Broadcast<'v, T>) -> Broadcast<'v, B> {
    match values {
        Broadcast::Scalar(value) => Broadcast::Scalar(&plain.bits::<B>(std::slice::from_ref(*value)).expect("one width")[0]),
        Broadcast::Array { view, shape } => Broadcast::Array {
            view: plain.view_bits::<B>(view.clone()).expect("one width"),
            shape: shape.clone(),
        },
    }
}

/// Values in C order as the bits `B` of their plain numbers.
///
/// # Panics
///
/// When `B` is not their width.
pub(super) fn in_order_bits<'v, T, B: Bits>(plain: Plain<T>, values: InOrder<'v, T>) -> InOrder<'v, B> {
    match values {
        InOrder::Scalar(value) => InOrder::Scalar(&plain.bits::<B>(std::slice::from_ref(value)).expect("one width")[0]),
        InOrder::Slice(values) => InOrder::Slice(plain.bits::<B>(values).expect("one width")),
    }
}
