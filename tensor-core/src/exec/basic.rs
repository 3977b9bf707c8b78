//! The basic path: view axes applied to an ndarray view in place, one axis
//! at a time (no slicing description is built, nothing is allocated).

use ndarray::{ArrayBase, ArrayView, Axis, Dimension, IxDyn, RawData, Slice, SliceInfoElem};

use crate::plan::ViewAxis;
use crate::rank::Rank;

/// The view `axes` select: each axis of the target in turn is indexed
/// (removed), sliced, or preceded by a new axis; target axes after the last
/// entry are kept whole.
pub(crate) fn select<S: RawData>(mut target: ArrayBase<S, IxDyn>, axes: &[ViewAxis]) -> ArrayBase<S, IxDyn> {
    let mut axis = 0;
    for &view_axis in axes {
        axis = select_axis(&mut target, axis, view_axis);
    }
    target
}

/// Applies `view_axis` to target axis `axis` (for a new axis, inserts one
/// there); returns the next target axis.
pub(crate) fn select_axis<S: RawData>(target: &mut ArrayBase<S, IxDyn>, axis: usize, view_axis: ViewAxis) -> usize {
    match view_axis {
        ViewAxis::Select(i) => {
            target.index_axis_inplace(Axis(axis), i);
            axis
        }
        ViewAxis::Slice { first, len, step } => {
            target.slice_axis_inplace(Axis(axis), ndarray_slice(first, len, step));
            axis + 1
        }
        ViewAxis::NewAxis => {
            target.insert_axis_inplace(Axis(axis));
            axis + 1
        }
    }
}

/// The slicing description of a statically ranked read, built one view
/// axis at a time with nothing allocated, for ndarray to slice into the
/// read's rank.
pub(crate) struct SliceElems {
    elems: [SliceInfoElem; INLINE],
    len: usize,
}

/// The most entries a [`SliceElems`] holds.
const INLINE: usize = 8;

impl SliceElems {
    /// No entries.
    pub(crate) fn new() -> Self {
        SliceElems {
            elems: [SliceInfoElem::NewAxis; INLINE],
            len: 0,
        }
    }

    /// Appends `view_axis` (past the capacity, the description no longer
    /// slices anything: [`SliceElems::view`] declines it).
    #[inline]
    pub(crate) fn push(&mut self, view_axis: ViewAxis) {
        self.push_elem(match view_axis {
            ViewAxis::NewAxis => SliceInfoElem::NewAxis,
            ViewAxis::Select(i) => SliceInfoElem::Index(i as isize),
            ViewAxis::Slice { first, len, step } => ndarray_slice(first, len, step).into(),
        });
    }

    fn push_elem(&mut self, elem: SliceInfoElem) {
        if let Some(slot) = self.elems.get_mut(self.len) {
            *slot = elem;
        }
        self.len += 1;
    }

    /// The view the entries select from `target`, the target's axes from
    /// `consumed` on taken whole, in rank `R`; `None` when they do not fit
    /// inline or `R` is not their rank.
    pub(crate) fn view<'a, T, D: Rank, R: Dimension>(
        &mut self,
        target: ArrayView<'a, T, D>,
        consumed: usize,
    ) -> Option<ArrayView<'a, T, R>> {
        for _ in consumed..target.ndim() {
            self.push_elem(SliceInfoElem::from(..));
        }
        if self.len > INLINE {
            return None;
        }
        D::slice_into(target, &self.elems[..self.len])
    }
}

/// Narrows target axis `axis` to the positions `view_axis` selects, keeping
/// the target's rank (and static dimension type): an indexed axis keeps its
/// one position, and a new axis changes nothing. For writes, where the
/// region's shape does not matter. Returns the next target axis.
pub(crate) fn narrow<S: RawData, D: Dimension>(target: &mut ArrayBase<S, D>, axis: usize, view_axis: ViewAxis) -> usize {
    let slice = match view_axis {
        ViewAxis::NewAxis => return axis,
        ViewAxis::Select(i) => ndarray_slice(i, 1, 1),
        ViewAxis::Slice { first, len, step } => ndarray_slice(first, len, step),
    };
    target.slice_axis_inplace(Axis(axis), slice);
    axis + 1
}

/// Positions `first, first + step, ...` (`len` of them) as an ndarray
/// slice, which walks a negative step from the end of its range: the range
/// is the one whose end (going down) is `first`.
fn ndarray_slice(first: usize, len: usize, step: isize) -> Slice {
    if len == 0 {
        return Slice::new(0, Some(0), 1);
    }
    let first = first as isize;
    let last = first + (len as isize - 1) * step;
    let (low, high) = if step > 0 { (first, last) } else { (last, first) };
    Slice::new(low, Some(high + 1), step)
}

#[cfg(test)]
mod tests {
    use ndarray::{ArrayD, ArrayViewD};

    use super::*;
    use crate::index::{IndexElem, PySlice, RangeSlice};
    use crate::mode::{Bounds, Mode};
    use crate::plan::basic::each_view_axis;

    /// A reproducible stream of small integers (SplitMix64).
    struct Draws(u64);

    impl Draws {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }

        fn int(&mut self, span: i64) -> isize {
            (self.below(2 * span as u64 + 1) as i64 - span) as isize
        }

        fn bound(&mut self) -> Option<isize> {
            (self.below(4) != 0).then(|| self.int(6))
        }

        fn elem(&mut self) -> IndexElem<'static> {
            match self.below(6) {
                0 => IndexElem::Int(self.int(6) as i128),
                1 => IndexElem::Slice(PySlice::new(self.bound(), self.bound(), (self.below(3) != 0).then(|| self.int(3)))),
                2 => IndexElem::Range(RangeSlice {
                    start: self.int(6),
                    end: self.bound(),
                    step: self.int(3),
                }),
                3 => IndexElem::NewAxis,
                4 => IndexElem::Ellipsis,
                _ => IndexElem::Slice(PySlice::new(None, None, None)),
            }
        }
    }

    /// The typed read gives the planner's view, element for element and
    /// stride for stride, of every basic index the planner accepts, and
    /// declines every one it rejects (which the planner then reports).
    #[test]
    fn typed_views_equal_the_planners() {
        let mut draws = Draws(11);
        let mut taken = 0;
        for _ in 0..20_000 {
            let shape: Vec<usize> = (0..draws.below(5)).map(|_| draws.below(5) as usize).collect();
            let target = ArrayD::from_shape_fn(IxDyn(&shape), |at| at.slice().iter().fold(0, |acc, &i| acc * 10 + i as i64));
            let index: Vec<IndexElem<'_>> = (0..draws.below(6)).map(|_| draws.elem()).collect();
            let mut elems = SliceElems::new();
            let typed = match each_view_axis(&index, &shape, Bounds::Error, |axis| elems.push(axis)) {
                Some(Ok(consumed)) => elems.view::<_, _, IxDyn>(target.view(), consumed),
                _ => None,
            };
            match crate::api::get(&target, &index, Mode::Error) {
                Ok(planned) => {
                    let Some(typed) = typed else {
                        assert!(index.len() > 4, "{index:?} on {shape:?}: basic and valid, yet declined");
                        continue;
                    };
                    assert!(planned.is_view(), "{index:?} on {shape:?}");
                    assert_eq!(typed.shape(), planned.shape(), "{index:?} on {shape:?}");
                    assert_eq!(typed, planned.view(), "{index:?} on {shape:?}");
                    if !typed.is_empty() {
                        assert_eq!(typed.as_ptr(), planned.as_ptr(), "{index:?} on {shape:?}");
                        // The stride of an axis of length one is never used (ndarray may zero it).
                        let used = |view: ArrayViewD<'_, i64>| {
                            view.shape()
                                .iter()
                                .zip(view.strides())
                                .map(|(&len, &stride)| if len > 1 { stride } else { 0 })
                                .collect::<Vec<_>>()
                        };
                        assert_eq!(used(typed.view()), used(planned.view()), "{index:?} on {shape:?}");
                    }
                    taken += 1;
                }
                Err(error) => assert!(typed.is_none(), "{index:?} on {shape:?}: the planner says {error}"),
            }
        }
        assert!(taken > 3000, "only {taken} valid basic indices drawn");
    }
}
