//! The general paths, compiled here for the element types most code uses.
//!
//! A typed call (`at!`, `set!`) that its inline paths decline takes the
//! general path: a read through [`select`], [`select_batched`], a write
//! through [`set_batched`], [`update_batched`] on a dynamic-rank view. That
//! path is generic over the element type alone, and large (every index
//! form, operation and strategy); so are the loops of the inline path of a
//! few indices ([`choose::set_few`], [`choose::update_few`]) and of one
//! small advanced element (`choose::single`), and the mask
//! sugar's passes on threads ([`choose::where_splits`]). Built without
//! optimization (cargo's dev profile), rustc shares generic code between
//! crates: a crate links the copy a dependency made rather than compiling
//! its own. The tables below
//! make that copy here, once, for `f32`, `f64`, `i32` and `i64`, so a user
//! crate's dev builds do not compile the general path again for each of
//! them. Optimized builds do not share generic code, so the module is left
//! out of them (`build.rs` sets `cfg(share_generics)` from the opt-level).
//! At opt-level 0 no call takes the inline paths (`FAST_PATHS`), so their
//! loops (`inline`) are left out of the tables there: code every
//! dependent's debug binary would link for nothing.

use ndarray::{ArrayViewD, ArrayViewMutD, IxDyn, ViewRepr};

use crate::api::select;
use crate::batched::{select_batched, set_batched, update_batched};
#[cfg(threads)]
use crate::choose;
#[cfg(threads)]
use crate::element::Compare;
use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::index::IndexElem;
use crate::mode::AnyMode;
use crate::rank::Selection;
use crate::value::Value;

/// The storage of [`TargetView`].
type ViewMut<T> = ViewRepr<&'static mut T>;

/// What each entry point of the general path returns.
type Read<'a, T> = Result<Selection<'a, T>, IndexError>;
type Written = Result<(), IndexError>;
/// A dynamic-rank view written through, as the backend passes it.
type TargetView<T> = ArrayViewMutD<'static, T>;

/// The general path's entry points for one element type.
#[allow(dead_code, reason = "read by no code: the tables only hold the code in the build")]
#[allow(clippy::type_complexity, reason = "each field spells the signature of the function it holds")]
struct GeneralPaths<T: 'static> {
    read: for<'a> fn(ArrayViewD<'a, T>, &[IndexElem<'_>], AnyMode<T>) -> Read<'a, T>,
    read_batched: for<'a> fn(ArrayViewD<'a, T>, &[IndexElem<'_>], usize, AnyMode<T>) -> Read<'a, T>,
    set: fn(&mut TargetView<T>, &[IndexElem<'_>], usize, Value<'static, T>, AnyMode<T>) -> Written,
    update: fn(&mut TargetView<T>, &[IndexElem<'_>], usize, Op, Value<'static, T>, AnyMode<T>) -> Written,
    #[cfg(not(unoptimized))]
    inline: inline::InlineLoops<T>,
    #[cfg(threads)]
    where_splits: fn(&mut [T], Compare, T, Op),
}

impl<T: Arith> GeneralPaths<T> {
    const fn new() -> Self {
        GeneralPaths {
            read: select::<T>,
            read_batched: select_batched::<T>,
            set: set_batched::<T, ViewMut<T>, IxDyn>,
            update: update_batched::<T, ViewMut<T>, IxDyn>,
            #[cfg(not(unoptimized))]
            inline: inline::InlineLoops::new(),
            #[cfg(threads)]
            where_splits: choose::where_splits::<T>,
        }
    }
}

/// The loops of the typed entry points' inline paths: left out at
/// opt-level 0, where no call takes those paths (`FAST_PATHS`).
#[cfg(not(unoptimized))]
mod inline {
    use crate::choose::{self, Few, Rows};
    use crate::element::{Arith, Op};
    use crate::value::InOrder;

    /// The loops of a few indices, for each index type the executors'
    /// loops take (`index::with_loop_indices`).
    type SetFew<T, I> = fn(&mut [T], &[I], InOrder<'_, T>) -> Few;
    type UpdateFew<T, I> = fn(&mut [T], &[I], Op, InOrder<'_, T>) -> Few;

    /// The inline paths' loops for one element type.
    #[allow(dead_code, reason = "read by no code: the tables only hold the code in the build")]
    #[allow(clippy::type_complexity, reason = "each field spells the signature of the function it holds")]
    pub(super) struct InlineLoops<T: 'static> {
        set_few: (SetFew<T, u64>, SetFew<T, i64>, SetFew<T, u32>, SetFew<T, i32>),
        update_few: (UpdateFew<T, u64>, UpdateFew<T, i64>, UpdateFew<T, u32>, UpdateFew<T, i32>),
        read_masked: fn(&[T], &[bool]) -> Option<Vec<T>>,
        set_masked: fn(&mut [T], &[bool], InOrder<'_, T>) -> bool,
        update_masked: fn(&mut [T], &[bool], Op, InOrder<'_, T>) -> bool,
        read_rows: fn(&[T], &Rows) -> Vec<T>,
        set_rows: fn(&mut [T], &Rows, InOrder<'_, T>),
        update_rows: fn(&mut [T], &Rows, Op, InOrder<'_, T>),
    }

    impl<T: Arith> InlineLoops<T> {
        pub(super) const fn new() -> Self {
            InlineLoops {
                set_few: (choose::set_few, choose::set_few, choose::set_few, choose::set_few),
                update_few: (choose::update_few, choose::update_few, choose::update_few, choose::update_few),
                read_masked: choose::read_masked::<T>,
                set_masked: choose::set_masked::<T>,
                update_masked: choose::update_masked::<T>,
                read_rows: choose::read_rows::<T>,
                set_rows: choose::set_rows::<T>,
                update_rows: choose::update_rows::<T>,
            }
        }
    }
}

// `#[used]` keeps each table, and so the code it points to, in the build.
#[used]
static F32: GeneralPaths<f32> = GeneralPaths::new();
#[used]
static F64: GeneralPaths<f64> = GeneralPaths::new();
#[used]
static I32: GeneralPaths<i32> = GeneralPaths::new();
#[used]
static I64: GeneralPaths<i64> = GeneralPaths::new();
