//! `.apply(f)` (JAX's `.at[].apply`): `f` on each selected element in
//! index order, a duplicate position taking the result of its previous
//! occurrence as its input (as the unbuffered loop does), and the target
//! unchanged when `f` panics. A view from basic indexing (each element
//! reached once) has every result computed into scratch before the first
//! write ([`apply_view`]); an index array's positions are updated in
//! place, each element replaced logged, and put back if `f` panics
//! ([`apply_offsets`]). Either way the elements replaced are dropped after
//! the last write, so that an element whose `Drop` panics still finds the
//! write whole.

use std::mem::{ManuallyDrop, needs_drop};

use ndarray::ArrayViewMutD;

use crate::exec::sys::prefetch;
use crate::index::IndexInt;
use crate::memory;
use crate::plan::{IndexedPlan, PIECE, Row};

/// `f` on every element of a view from basic indexing (each reached once);
/// `false`, with `f` never called and nothing written, when memory cannot
/// hold the scratch.
#[must_use]
pub(crate) fn apply_view<T: Clone>(mut view: ArrayViewMutD<'_, T>, mut f: impl FnMut(T) -> T) -> bool {
    let Some(mut results) = memory::vec(view.len()) else {
        return false;
    };
    results.extend(view.iter().map(|element| f(element.clone())));
    write_back(view.iter_mut(), results);
    true
}

/// The offsets of a call's positions from the target's first element, in
/// index order, walked as a plan yields them rather than copied first: a
/// copy as large as the index pushes the target out of the cache that its
/// random reads and writes need.
pub(crate) trait Offsets {
    /// How many offsets there are at most.
    fn bound(&self) -> usize;

    /// Calls `f` with the offsets in order, a slice at a time, so that
    /// the loop over them is the caller's own.
    fn pieces(&self, f: impl FnMut(&[isize]));
}

impl Offsets for [isize] {
    fn bound(&self) -> usize {
        self.len()
    }

    fn pieces(&self, mut f: impl FnMut(&[isize])) {
        f(self);
    }
}

/// A plan's offsets: those of the positions its mode did not skip, in
/// pieces of at most [`PIECE`] (an `along` row whole).
impl Offsets for IndexedPlan<'_> {
    fn bound(&self) -> usize {
        self.len()
    }

    fn pieces(&self, mut f: impl FnMut(&[isize])) {
        let as_they_stand = !self.table.may_skip();
        let mut piece = Vec::with_capacity(PIECE.min(self.len()));
        self.for_each_row(|row| match row {
            // A piece of a table that needs no base and skips nothing is
            // handed on as it stands.
            Row::Table { base: 0, offsets } if as_they_stand => {
                if !piece.is_empty() {
                    f(&piece);
                    piece.clear();
                }
                f(offsets);
            }
            row => row.for_each_offset(|offset| {
                piece.extend(offset);
                if piece.len() == PIECE {
                    f(&piece);
                    piece.clear();
                }
            }),
        });
        if !piece.is_empty() {
            f(&piece);
        }
    }
}

/// `f` on the element at each of `offsets` from `target`'s first element,
/// once per occurrence, in order, in place: a repeated position takes the
/// result of its previous occurrence as its input. `false`, with `f`
/// never called and nothing written, when memory cannot hold the log of
/// the elements replaced (a broadcast index may select far more positions
/// than the target has elements). When `f` (or `Clone`) panics, every
/// element replaced is put back before the panic goes on ([`Undo`]).
/// Each element is asked for [`prefetch::APPLY_AHEAD`] offsets before its
/// turn.
///
/// # Safety
///
/// Every offset reaches an element of `target` (a plan's do when it was
/// resolved from `target`'s shape and strides).
#[must_use]
pub(crate) unsafe fn apply_offsets<T: Clone>(
    target: &mut ArrayViewMutD<'_, T>,
    offsets: &(impl Offsets + ?Sized),
    mut f: impl FnMut(T) -> T,
) -> bool {
    let Some(log) = memory::vec(offsets.bound()) else {
        return false;
    };
    let origin = target.as_mut_ptr();
    // SAFETY: every offset reaches an element of `target` (the caller's
    // guarantee), which this call borrows mutably.
    let mut undo = unsafe { Undo::new(origin, log) };
    offsets.pieces(|piece| {
        let ahead = piece.get(prefetch::APPLY_AHEAD..).unwrap_or_default();
        for (&offset, &later) in piece.iter().zip(ahead) {
            prefetch::element(origin.wrapping_offset(later));
            undo.apply(offset, &mut f);
        }
        for &offset in &piece[ahead.len()..] {
            undo.apply(offset, &mut f);
        }
    });
    undo.done();
    true
}

/// `f` on `axis[index[k]]` for each `k` in order, in place, as
/// [`apply_offsets`] applies them, once every index is checked: the first
/// index out of bounds, with `f` never called, otherwise. `Ok(false)`, with
/// nothing done, when memory cannot hold the log of the elements replaced.
pub(crate) fn apply_checked_first<T: Clone, I: IndexInt>(axis: &mut [T], index: &[I], mut f: impl FnMut(T) -> T) -> Result<bool, I> {
    let len = axis.len();
    if let Some(&bad) = index.iter().find(|i| !i.in_bounds(len)) {
        return Err(bad);
    }
    let Some(log) = memory::vec(index.len()) else {
        return Ok(false);
    };
    // SAFETY: every position given to `apply` below is in bounds (checked
    // above) of `axis`, which this call borrows mutably.
    let mut undo = unsafe { Undo::new(axis.as_mut_ptr(), log) };
    // An in-bounds position is below `len`, which `isize` holds (a slice's length does).
    index.iter().for_each(|&i| undo.apply(i.position(len) as isize, &mut f));
    undo.done();
    Ok(true)
}

/// The elements an in-place `.apply` replaced, with their offsets, in
/// order: dropped in turn once the last is written ([`Undo::done`]), or
/// put back, latest first, when `f` panics before (on drop).
struct Undo<T> {
    origin: *mut T,
    log: Vec<(isize, T)>,
}

impl<T: Clone> Undo<T> {
    /// # Safety
    ///
    /// Every offset later given to [`apply`](Self::apply) reaches an
    /// element of the array at `origin`, which no other reference reaches
    /// while this lives.
    unsafe fn new(origin: *mut T, log: Vec<(isize, T)>) -> Self {
        Undo { origin, log }
    }

    /// Replaces the element at `offset` by `f` of its value, and logs it.
    fn apply(&mut self, offset: isize, f: &mut impl FnMut(T) -> T) {
        // SAFETY: the offset reaches an element, which no other reference
        // reaches ([`Undo::new`]'s guarantee); the one made here ends with
        // this call, before the next is made, even for a position that
        // repeats.
        let element = unsafe { &mut *self.origin.offset(offset) };
        let result = f(element.clone());
        let old = std::mem::replace(element, result);
        self.log.push((offset, old));
    }
}

impl<T> Undo<T> {
    /// The last element is written: the replaced ones are dropped in
    /// turn ([`drop_in_turn`]).
    fn done(mut self) {
        drop_in_turn(std::mem::take(&mut self.log));
    }
}

/// `f` panicked: every element replaced is put back, latest first (a
/// position that repeats gets the element its first occurrence found),
/// and the results are dropped as a `Vec` of them would be.
impl<T> Drop for Undo<T> {
    fn drop(&mut self) {
        while let Some((offset, old)) = self.log.pop() {
            // SAFETY: the offset reached an element when it was logged
            // ([`Undo::new`]'s guarantee); no reference to it is live.
            drop(std::mem::replace(unsafe { &mut *self.origin.offset(offset) }, old));
        }
    }
}

/// Each result into its element, in order. The elements replaced are
/// dropped after the last write ([`drop_in_turn`]). A type with nothing to drop has no `Drop` to panic: its results are
/// moved in plainly.
fn write_back<T>(slots: ndarray::iter::IterMut<'_, T, ndarray::IxDyn>, mut results: Vec<T>) {
    if !needs_drop::<T>() {
        let mut results = results.into_iter();
        slots.for_each(|slot| {
            if let Some(result) = results.next() {
                *slot = result;
            }
        });
        return;
    }
    let mut olds = results.iter_mut();
    slots.for_each(|slot| {
        if let Some(old) = olds.next() {
            std::mem::swap(slot, old);
        }
    });
    drop_in_turn(results);
}

/// Drops `items` in order; after one whose `Drop` panics, the rest are
/// leaked, not dropped while the panic unwinds, where a second panic would
/// abort the process (as dropping a `Vec` would).
fn drop_in_turn<T>(items: Vec<T>) {
    let mut items = ManuallyDrop::new(items.into_iter());
    items.by_ref().for_each(drop);
    drop(ManuallyDrop::into_inner(items));
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, s};

    use super::{Offsets, apply_checked_first, apply_offsets};
    use crate::backend::Bounds;
    use crate::exec::sys::prefetch::APPLY_AHEAD;
    use crate::index::PySlice;
    use crate::ix;
    use crate::plan::{PIECE, Plan, resolve};

    /// Every occurrence in order, a repeated position taking its previous
    /// result as its input, as the plain loop does; offsets below the
    /// origin of a reversed view reach the elements before it. (Under
    /// Miri, the elements swapped out are dropped once: its leak check.)
    #[test]
    fn offsets_are_applied_in_order_as_the_loop_applies_them() {
        let mut x: Array1<String> = ["a", "b", "c", "d"].map(String::from).into_iter().collect();
        // From the reversed view's first element, `x[3]`: x[3], x[2], x[0], x[2].
        let offsets = [0isize, -1, -3, -1];
        let mut view = x.slice_mut(s![..;-1]).into_dyn();
        // SAFETY: each offset reaches an element of the 4-element view
        // from its first element, the last of `x`.
        assert!(unsafe { apply_offsets(&mut view, &offsets[..], |s| s + "!") });
        assert_eq!(x, ndarray::array!["a!", "b", "c!!", "d!"].map(|s| s.to_string()));
    }

    /// The same for positions that never repeat, that repeat near one
    /// another, and that repeat far apart, against the loop that applies
    /// `f` occurrence by occurrence; `f` tags each result with its call's
    /// number, so that the order of the calls is compared too. Then `f`
    /// panics at each call in turn, and finds the target as it was.
    #[test]
    fn every_occurrence_applies_as_the_loop_and_a_panic_undoes_them() {
        // Fewer under Miri, which interprets every step; more than the
        // elements asked for ahead either way, so that both of the walk's
        // loops run.
        let len: usize = if cfg!(miri) { APPLY_AHEAD + 16 } else { 200 };
        let distinct: Vec<usize> = (0..len).map(|k| k * 7 % len).collect();
        let near: Vec<usize> = (0..len).map(|k| k * k % (len / 4 + 11)).collect();
        let far = vec![len - 1, 3, len / 2, 3, len - 1, len - 1];
        let fresh = || (0..len).map(|k| k.to_string()).collect::<Array1<String>>();
        for (name, positions) in [("distinct", distinct), ("near", near), ("far", far)] {
            let mut expected = fresh();
            for (call, &at) in positions.iter().enumerate() {
                expected[len - 1 - at] = format!("{}.{call}", expected[len - 1 - at]);
            }
            // Position `at` of the reversed view: `-at` elements from its first.
            let offsets: Vec<isize> = positions.iter().map(|&at| -(at as isize)).collect();
            let apply = |x: &mut Array1<String>, panic_at: usize| {
                let mut view = x.slice_mut(s![..;-1]).into_dyn();
                let mut call = 0;
                // SAFETY: each offset reaches an element of the view.
                unsafe {
                    apply_offsets(&mut view, &offsets[..], |s| {
                        assert_ne!(call, panic_at, "f panics");
                        call += 1;
                        format!("{s}.{}", call - 1)
                    })
                }
            };
            let mut x = fresh();
            assert!(apply(&mut x, usize::MAX), "{name}");
            assert_eq!(x, expected, "{name}");
            let calls = positions.len();
            let panics: Vec<usize> = match cfg!(miri) {
                true => vec![0, 1, calls / 2, calls - 1],
                false => (0..calls).collect(),
            };
            for panic_at in panics {
                let mut x = fresh();
                let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| apply(&mut x, panic_at)));
                assert!(unwound.is_err(), "{name}: f panics at call {panic_at}");
                assert_eq!(x, fresh(), "{name}: f panics at call {panic_at}");
            }
        }
    }

    /// A few indices into a vector: every one checked before `f` is first
    /// called (the first bad one reported, with nothing called or written),
    /// then applied in order as the loop applies them, negative ones
    /// counting from the end, a repeated one taking its previous result.
    #[test]
    fn indices_checked_first_apply_as_the_loop_or_not_at_all() {
        let fresh = || ["a", "b", "c"].map(String::from).to_vec();
        let mut x = fresh();
        let mut calls = 0;
        let bad = apply_checked_first(&mut x, &[-1i64, 0, 2, 3, -5], |s| {
            calls += 1;
            s + "!"
        });
        assert_eq!((bad, calls, &x), (Err(3), 0, &fresh()));
        assert_eq!(apply_checked_first(&mut x, &[-1i64, 0, 2], |s| s + "!"), Ok(true));
        assert_eq!(x, ["a!", "b", "c!!"]);
    }

    /// A plan hands on, piece by piece, the offsets of the positions it
    /// does not skip, in index order: a table's pieces as they stand, a
    /// table's rows behind a slice (one of them, at base 0, handed on as
    /// it stands after the others), strided rows, and a table with
    /// skipped entries (mode `drop`), each longer than a piece.
    #[test]
    fn a_plan_hands_on_its_offsets_in_pieces() {
        let n = 40isize;
        let idx: Vec<i64> = (0..PIECE as i64 + 150).map(|k| k * 7 % 80 - 40).collect();
        let wrap = |i: i64| (i as isize).rem_euclid(n);
        let in_bounds: Vec<isize> = idx.iter().filter(|&&i| i >= -40).map(|&i| wrap(i)).collect();
        let past: Vec<i64> = idx.iter().map(|&i| i + 20).collect();
        let kept: Vec<isize> = past.iter().filter(|&&i| (-40..40).contains(&i)).map(|&i| wrap(i)).collect();
        let cases = [
            ("x[idx]", vec![ix(idx.clone())], vec![40, 1], Bounds::Error, in_bounds.clone()),
            (
                "x[:, idx]",
                vec![ix(..), ix(idx.clone())],
                vec![3, 40],
                Bounds::Error,
                (0..3).flat_map(|row| in_bounds.iter().map(move |&at| row * n + at)).collect(),
            ),
            (
                "x[idx, :]",
                vec![ix(idx.clone()), ix(..)],
                vec![40, 3],
                Bounds::Error,
                in_bounds.iter().flat_map(|&at| (0..3).map(move |column| at * 3 + column)).collect(),
            ),
            ("x[idx + 20] drop", vec![ix(past)], vec![40, 1], Bounds::Skip, kept),
            (
                "x[:, ::-1, idx]",
                vec![
                    ix(..),
                    ix(PySlice {
                        start: None,
                        stop: None,
                        step: Some(-1),
                    }),
                    ix(idx.clone()),
                ],
                vec![2, 2, 40],
                Bounds::Error,
                (0..2)
                    .flat_map(|a| [1, 0].map(|b| (a * 2 + b) * n))
                    .flat_map(|row| in_bounds.iter().map(move |&at| row + at))
                    .collect(),
            ),
        ];
        for (name, index, shape, bounds, expected) in cases {
            let (shape, strides) = match shape[..] {
                [len, 1] => (vec![len], vec![1]),
                [rows, len] => (vec![rows, len], vec![len as isize, 1]),
                [a, b, len] => (vec![a, b, len], vec![(b * len) as isize, len as isize, 1]),
                _ => unreachable!("the cases' shapes"),
            };
            let Plan::Indexed(plan) = resolve(&index, &shape, &strides, bounds).unwrap() else {
                panic!("{name}: an indexed plan");
            };
            let mut walked = Vec::new();
            plan.pieces(|piece| {
                assert!(!piece.is_empty() && piece.len() <= PIECE, "{name}: a piece of {}", piece.len());
                walked.extend_from_slice(piece);
            });
            assert!(plan.bound() >= walked.len(), "{name}");
            assert_eq!(walked, expected, "{name}");
        }
    }
}
