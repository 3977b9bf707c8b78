//! Out-of-bounds modes: what an integer index outside `[-n, n)` does.

use crate::index::position_of;

/// What an update does with an integer index outside `[-n, n)`. Indices
/// inside keep their meaning in every mode (`-1` is the last element).
///
/// Reads take [`ReadMode`], which has no `Drop` (a read fills
/// out-of-bounds positions with [`At::fill`](crate::At::fill) instead): a
/// mode that means nothing for the call does not compile.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{IndexMutExt, Mode};
///
/// let mut x = array![0, 0, 0];
/// x.at_mut([-1, 5]).mode(Mode::Clip).add(1)?;   // 5 clamps to 2
/// assert_eq!(x, array![0, 0, 2]);
/// x.at_mut([-1, 5]).mode(Mode::Wrap).add(1)?;   // 5 wraps to 2
/// assert_eq!(x, array![0, 0, 4]);
/// x.at_mut([0, 5]).mode(Mode::Drop).add(1)?;    // 5 is skipped
/// assert_eq!(x, array![1, 0, 4]);
/// assert!(x.at_mut([0, 5]).add(1).is_err());     // Mode::Error, the default
/// assert_eq!(x, array![1, 0, 4]);                // nothing written
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// Fail with [`IndexError::OutOfBounds`](crate::IndexError::OutOfBounds)
    /// before anything is written (NumPy's behaviour).
    #[default]
    Error,
    /// Clamp into the axis: below `-n` is `0`, `n` and above is `n - 1` (JAX's `clip`).
    Clip,
    /// Wrap modulo `n` (NumPy's `mode='wrap'`).
    Wrap,
    /// Skip the update for that position (JAX's scatter default).
    Drop,
}

/// What a read does with an integer index outside `[-n, n)`: [`Mode`]'s
/// `Error`, `Clip` and `Wrap`. A read's result keeps its type in every
/// mode (a basic index still reads a view). JAX's `fill` mode, where
/// out-of-bounds positions read as a value, is [`At::fill`](crate::At::fill)
/// (`; mode = fill(v)` in the macros), which always gathers.
///
/// ```
/// use ndarray::array;
/// use tensor_core::{IndexExt, ReadMode};
///
/// let x = array![10, 11, 12];
/// assert_eq!(x.at([-1, 5]).mode(ReadMode::Clip).get()?, array![12, 12]);
/// assert_eq!(x.at([-1, 5]).mode(ReadMode::Wrap).get()?, array![12, 12]);
/// assert_eq!(x.at([-1, 5]).fill(0).get()?, array![12, 0]);
/// assert!(x.at([-1, 5]).get().is_err());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReadMode {
    /// Fail with [`IndexError::OutOfBounds`](crate::IndexError::OutOfBounds).
    #[default]
    Error,
    /// Clamp into the axis, as [`Mode::Clip`].
    Clip,
    /// Wrap modulo `n`, as [`Mode::Wrap`].
    Wrap,
}

/// A read's or an update's mode, as backends take it: [`Mode`] and
/// [`ReadMode`] convert into it, and `Fill` is a read's fill value. [`prepare`](crate::backend::prepare)
/// refuses `Drop` on a read and `Fill` on an update with
/// [`IndexError::UnsupportedMode`](crate::IndexError::UnsupportedMode),
/// which the typed modes never reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AnyMode<T> {
    /// As [`Mode::Error`].
    #[default]
    Error,
    /// As [`Mode::Clip`].
    Clip,
    /// As [`Mode::Wrap`].
    Wrap,
    /// As [`Mode::Drop`]: updates only.
    Drop,
    /// Out-of-bounds positions read as the given value: reads only.
    Fill(T),
}

impl<T> From<Mode> for AnyMode<T> {
    fn from(mode: Mode) -> Self {
        match mode {
            Mode::Error => AnyMode::Error,
            Mode::Clip => AnyMode::Clip,
            Mode::Wrap => AnyMode::Wrap,
            Mode::Drop => AnyMode::Drop,
        }
    }
}

impl<T> From<ReadMode> for AnyMode<T> {
    fn from(mode: ReadMode) -> Self {
        match mode {
            ReadMode::Error => AnyMode::Error,
            ReadMode::Clip => AnyMode::Clip,
            ReadMode::Wrap => AnyMode::Wrap,
        }
    }
}

/// The part of an [`AnyMode`] the planner needs: how to resolve one index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// Out of bounds is an error.
    Error,
    /// Clamp.
    Clip,
    /// Modulo the length.
    Wrap,
    /// Mark the position as skipped (drop for updates, fill for reads).
    Skip,
}

impl<T> AnyMode<T> {
    /// How the planner resolves indices in this mode.
    pub fn bounds(&self) -> Bounds {
        match self {
            AnyMode::Error => Bounds::Error,
            AnyMode::Clip => Bounds::Clip,
            AnyMode::Wrap => Bounds::Wrap,
            AnyMode::Drop | AnyMode::Fill(_) => Bounds::Skip,
        }
    }

    /// The mode's name as written in `; mode = ...`.
    pub fn name(&self) -> &'static str {
        match self {
            AnyMode::Error => "error",
            AnyMode::Clip => "clip",
            AnyMode::Wrap => "wrap",
            AnyMode::Drop => "drop",
            AnyMode::Fill(_) => "fill",
        }
    }
}

/// Where one integer index lands on an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// At this position, in `0..len`.
    At(usize),
    /// Nowhere: skipped (mode `drop` or `fill`).
    Skipped,
    /// Out of bounds: an error.
    OutOfBounds,
}

impl Bounds {
    /// Resolves `index` on an axis of length `len`.
    #[inline]
    pub fn resolve(self, index: i128, len: usize) -> Resolution {
        if let Some(position) = position_of(index, len) {
            return Resolution::At(position);
        }
        let n = len as i128;
        match self {
            Bounds::Error => Resolution::OutOfBounds,
            Bounds::Skip => Resolution::Skipped,
            // An empty axis has no position to clamp or wrap to.
            _ if len == 0 => Resolution::OutOfBounds,
            Bounds::Clip => Resolution::At(if index < 0 { 0 } else { len - 1 }),
            Bounds::Wrap => Resolution::At(index.rem_euclid(n) as usize),
        }
    }
}
