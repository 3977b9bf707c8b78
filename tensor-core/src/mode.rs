//! Out-of-bounds modes: what an integer index outside `[-n, n)` does.

use crate::index::position_of;

/// What an integer index outside `[-n, n)` does. Indices inside keep their
/// meaning in every mode (`-1` is the last element).
///
/// ```
/// use ndarray::array;
/// use tensor_core::{get, ix, Mode};
///
/// let x = array![10, 11, 12];
/// let index = [ix([-1, 5])];
/// assert_eq!(get(&x, &index, Mode::Clip)?, array![12, 12].into_dyn());
/// assert_eq!(get(&x, &index, Mode::Wrap)?, array![12, 12].into_dyn());
/// assert_eq!(get(&x, &index, Mode::Fill(0))?, array![12, 0].into_dyn());
/// assert!(get(&x, &index, Mode::Error).is_err());
/// # Ok::<(), tensor_core::IndexError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode<T> {
    /// Fail with [`IndexError::OutOfBounds`](crate::IndexError::OutOfBounds)
    /// before anything is written (NumPy's behaviour).
    #[default]
    Error,
    /// Clamp into the axis: below `-n` is `0`, `n` and above is `n - 1` (JAX's `clip`).
    Clip,
    /// Wrap modulo `n` (NumPy's `mode='wrap'`).
    Wrap,
    /// Skip the update for that position (JAX's scatter default). Updates only.
    Drop,
    /// Out-of-bounds positions read as the given value. Reads only.
    Fill(T),
}

/// The part of a [`Mode`] the planner needs: how to resolve one index.
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

impl<T> Mode<T> {
    /// How the planner resolves indices in this mode.
    pub fn bounds(&self) -> Bounds {
        match self {
            Mode::Error => Bounds::Error,
            Mode::Clip => Bounds::Clip,
            Mode::Wrap => Bounds::Wrap,
            Mode::Drop | Mode::Fill(_) => Bounds::Skip,
        }
    }

    /// The mode's name as written in `; mode = ...`.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Error => "error",
            Mode::Clip => "clip",
            Mode::Wrap => "wrap",
            Mode::Drop => "drop",
            Mode::Fill(_) => "fill",
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
