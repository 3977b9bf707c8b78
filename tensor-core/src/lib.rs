//! The core of tensor-at: NumPy indexing semantics on ndarray.
//!
//! Users depend on the facade, `tensor-at`, which re-exports what they name
//! from here; this crate's docs are for backend authors and contributors.
//!
//! An index is a list of [`IndexElem`](index::IndexElem)s.
//! [`resolve`](plan::resolve) turns it and a target layout into a
//! backend-neutral [`Plan`](plan::Plan) (a view, or a table of offsets for
//! advanced indexing), checking every rule; [`prepare`] checks a whole read
//! or update (the mode, the index, the value, the operands) for every
//! backend (see [`backend`]). The CPU's entry points
//! ([`backend::get`], [`backend::set`], [`backend::update`],
//! [`backend::apply`]) prepare, then execute; the method syntax of
//! [`IndexExt`], [`IndexMutExt`] and [`IntoUpdated`] and the macros'
//! entry points run the same code with typed index lists.
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
// Unsafe code states its contract (ARCHITECTURE.md): a `# Safety` section
// on every `unsafe fn`, a `SAFETY:` comment on every block.
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
#![doc(test(attr(deny(warnings))))]

// The layers, each importing only from those above it in this list:
// leaves (error, element, mode, index, rank, value, target, memory,
// exec::sys),
// then plan, then exec, then the entry layer (prepare, choose, api,
// batched, numpy), then the traits and method syntax over it (backend,
// builder, typed, entry).
mod api;
pub mod backend;
mod batched;
mod builder;
#[cfg(feature = "burn")]
pub mod burn;
mod choose;
#[cfg(share_generics)]
mod common;
/// The chooser told about another machine (feature `forced-machine`, for
/// the repository's workloads bench and tests only).
#[cfg(feature = "forced-machine")]
pub use choose::forced as forced_machine;
pub mod element;
#[doc(hidden)]
pub mod entry;
pub mod error;
mod exec;
pub mod index;
mod memory;
mod mode;
pub mod numpy;
// The planner and the checks: public for backends (see `backend`), which
// are released with this crate, and for the macros' expansions.
#[doc(hidden)]
pub mod plan;
#[doc(hidden)]
pub mod prepare;
#[doc(hidden)]
pub mod rank;
mod target;
#[doc(hidden)]
pub mod typed;
pub mod value;

/// Whether the paths that exist only for speed are compiled: the typed
/// entry points' inline paths (an element, a few indices, a basic region),
/// the general read's straight view, and the second copies of loops that
/// a general path runs where its input allows (indices taken as they
/// stand, table rows with no skip test, a scatter asking for its
/// destinations ahead). Not without optimization
/// (`build.rs` sets `cfg(unoptimized)` at opt-level 0): nothing is inlined
/// there, and each call's copy of those paths is code that a user crate's
/// debug build compiles and links for no speed. The general path they
/// would have declined to gives the same results.
const FAST_PATHS: bool = cfg!(not(unoptimized));

pub use builder::{At, AtFilled, AtMut, IndexExt, IndexMutExt, IntoUpdated, Updated, UpdatedResult, ix, ix_};
pub use element::Op;
pub use error::{IndexError, SetError};
pub use index::{along, nd};
pub use mode::{Mode, ReadMode};
/// The num-complex whose `Complex<f32>` and `Complex<f64>` are elements
/// (`+= -= *= /=`); the one ndarray uses.
pub use num_complex;
pub use numpy::{argwhere, nonzero, place, put, take};
