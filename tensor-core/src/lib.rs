//! The core of tensor-at: NumPy indexing semantics on ndarray.
//!
//! An index is a list of [`IndexElem`]s. [`resolve`] turns it and a target
//! layout into a backend-neutral [`Plan`] (a view, or a table of offsets for
//! advanced indexing), checking every rule; [`prepare`] checks a whole read
//! or update (the mode, the index, the value, the operands) for every
//! backend. The entry points [`get`], [`set`], [`update`] and [`apply`]
//! prepare, then execute on the CPU; the method syntax of [`IndexExt`],
//! [`IndexMutExt`] and [`IntoUpdated`] wraps them for indices built at run
//! time.
//!
//! # Semantics
//!
//! NumPy's, exactly: negative indices count from the end; `a:b:c` slices
//! clamp like Python's; integer arrays, boolean masks and `nd(idx)` are
//! advanced indices that broadcast together, and their dims replace them
//! in place when they are adjacent in the index, or go first otherwise (an
//! integer counts as advanced once any array is present; `...` and new axes
//! separate). Masks select their true elements in C order. Values broadcast
//! to the selected region after dropping leading length-1 axes.
//!
//! Where this differs from NumPy, on purpose:
//! - `a..b;c` ranges follow ndarray's `s![]`: a negative step walks the
//!   range `a..b` from its end (`4..;-2` is `7, 5` on a length-8 axis, where
//!   NumPy's `4::-2` is `4, 2, 0`), and a range outside the axis is an error.
//! - `x[i] += v` is unbuffered: every duplicate applies, like `np.add.at`.
//!   NumPy's own `x[i] += v` is buffered and applies a duplicate once.
//! - Integer `/` truncates toward zero (Rust's `/`); division by zero and
//!   negative integer powers are errors, found before anything is written.
//! - `x[mask] = v` accepts a `v` with leading length-1 axes, as every other
//!   assignment does; NumPy rejects a two-dimensional `v` there. (The
//!   macros reject a statically ranked value with more axes than the region
//!   at compile time.)
//!
//! Duplicates are deterministic: `set` keeps the last occurrence in index
//! order; every other operation applies each occurrence in index order.
//! On any error the target is unchanged.
#![warn(missing_docs)]

// The layers, each importing only from those above it in this list:
// leaves (error, element, mode, index, rank, value, target, exec::sys),
// then plan, then exec, then the entry layer (prepare, choose, api), then
// the traits and method syntax over it (backend, builder, typed, entry).
mod api;
mod backend;
mod batched;
mod builder;
mod choose;
#[cfg(share_generics)]
mod common;
mod element;
#[doc(hidden)]
pub mod entry;
mod error;
mod exec;
mod index;
mod mode;
// The planner, the checks and the static ranks: public for tensor-gpu and
// the macros' expansions, which are released with this crate, and hidden
// from everyone else (no semver promise).
#[doc(hidden)]
pub mod plan;
#[doc(hidden)]
pub mod prepare;
#[doc(hidden)]
pub mod rank;
mod target;
#[doc(hidden)]
pub mod typed;
mod value;

pub use api::{apply, get, get_into, get_view, select, set, update};
pub use backend::{Indexable, IndexableMut, IntoUpdatable, MaskOperand, Predicate, Step};
pub use batched::{apply_batched, get_batched, get_batched_into, select_batched, set_batched, update_batched};
pub use builder::{At, AtMut, IndexExt, IndexMutExt, IntoUpdated, Updated, ix};
pub use element::{Arith, Bitwise, Compare, Op, OperandFault, Ordered};
pub use error::{BatchPart, IndexError, SetError, Shape, Shapes};
pub use index::{
    Along, DeviceArray, DeviceForm, Ellipsis, IndexArrayElement, IndexArrayInt, IndexElem, IndexInt, IntArray, IntoCowArray, IntoIndexElem,
    IntoRangeSlice, Nd, NewAxis, PySlice, RangeSlice, along, nd,
};
#[doc(hidden)]
pub use index::{IntIndex, IntoIntIndex, KeptArray, KeptElem};
pub use mode::{Bounds, Mode, Resolution};
/// The num-complex whose `Complex<f32>` and `Complex<f64>` are elements
/// (`+= -= *= /=`); the one ndarray uses.
pub use num_complex;
#[doc(hidden)]
pub use plan::{Plan, resolve};
pub use rank::Selection;
pub use target::{Target, TargetMut};
pub use value::{Broadcast, IntoValue, SameElement, Scalar, Value};
