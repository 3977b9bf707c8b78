//! The basic path: view axes applied to an ndarray view in place, one axis
//! at a time (no slicing description is built, nothing is allocated).

use ndarray::{ArrayBase, ArrayView, ArrayViewMut, Axis, Dimension, IxDyn, RawData, ShapeBuilder, Slice};

use crate::plan::ViewAxis;

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

/// The region a basic index selects, built one view axis at a time with
/// nothing allocated and no division: where it starts (in elements from the
/// target's first) and each axis's length and stride. A read views it
/// straight from the target's pointer, as `row(i)` does, and a write walks
/// its elements, instead of narrowing through ndarray's slicing, whose
/// general walk over a slicing description costs more than a small read's
/// or write's other work.
///
/// Every position pushed must be in bounds on its target axis (the
/// resolver's guarantee: a slice's `first` is in bounds whenever its `len`
/// is not zero): that is what makes the views and the walk sound.
pub(crate) struct Region {
    offset: isize,
    shape: [usize; INLINE],
    strides: [isize; INLINE],
    /// Axes of the region so far (past [`INLINE`], it is neither viewed nor
    /// walked).
    ndim: usize,
    /// The next target axis.
    axis: usize,
}

/// The most axes a [`Region`] holds.
const INLINE: usize = 8;

impl Region {
    /// No axis visited yet.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn new() -> Self {
        Region {
            offset: 0,
            shape: [0; INLINE],
            strides: [0; INLINE],
            ndim: 0,
            axis: 0,
        }
    }

    /// Applies `view_axis` to the next target axis, of the target whose
    /// strides are `target_strides`.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn push(&mut self, view_axis: ViewAxis, target_strides: &[isize]) {
        match view_axis {
            ViewAxis::NewAxis => return self.push_axis(1, 0),
            ViewAxis::Select(i) => self.offset += i as isize * target_strides[self.axis],
            ViewAxis::Slice { first, len, step } => {
                let stride = target_strides[self.axis];
                self.offset += first as isize * stride;
                // A step past the axis (any step, for one position) would
                // overflow, and is never taken: as ndarray does, such an
                // axis gets stride 0. Longer steps stay within the target.
                self.push_axis(len, if len > 1 { stride * step } else { 0 });
            }
        }
        self.axis += 1;
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn push_axis(&mut self, len: usize, stride: isize) {
        if let (Some(slot), Some(slot_stride)) = (self.shape.get_mut(self.ndim), self.strides.get_mut(self.ndim)) {
            (*slot, *slot_stride) = (len, stride);
        }
        self.ndim += 1;
    }

    /// Takes the target axes not visited whole; `false` when the region
    /// then has more than [`INLINE`] axes.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn complete(&mut self, target_shape: &[usize], target_strides: &[isize]) -> bool {
        for axis in self.axis..target_shape.len() {
            self.push_axis(target_shape[axis], target_strides[axis]);
        }
        self.axis = target_shape.len();
        self.ndim <= INLINE
    }

    /// The region's shape, the target axes not visited taken whole (of a
    /// target of `target_shape` and `target_strides`, those it was made
    /// with); `None` when it has more than [`INLINE`] axes.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn shape(&mut self, target_shape: &[usize], target_strides: &[isize]) -> Option<&[usize]> {
        self.complete(target_shape, target_strides).then(|| &self.shape[..self.ndim])
    }

    /// The region as a view of `target` (whose strides it was made with)
    /// in rank `R`, the target axes not visited taken whole; `None` when it
    /// has more than [`INLINE`] axes or `R` is not its rank.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn view<'a, T, D: Dimension, R: Dimension>(&mut self, target: ArrayView<'a, T, D>) -> Option<ArrayView<'a, T, R>> {
        if !self.complete(target.shape(), target.strides()) || R::NDIM.is_some_and(|ndim| ndim != self.ndim) {
            return None;
        }
        // ndarray takes non-negative strides from the lowest address; the
        // axes walked backwards are inverted after.
        let (mut shape, mut strides) = (R::zeros(self.ndim), R::zeros(self.ndim));
        let mut lowest = self.offset;
        let mut backwards = false;
        for axis in 0..self.ndim {
            let (len, stride) = (self.shape[axis], self.strides[axis]);
            if stride < 0 && len > 0 {
                lowest += (len - 1) as isize * stride;
            }
            backwards |= stride < 0;
            (shape[axis], strides[axis]) = (len, stride.unsigned_abs());
        }
        // An empty region reads nothing: its pointer need not move (and
        // must not, when the target is empty).
        let empty = self.is_empty();
        // SAFETY: `lowest` is the offset of the region's lowest-addressed
        // element from the target's first, and every step along the
        // region's axes from there lands on an element of the region, so of
        // `target` (see `Region`); an empty region keeps the target's
        // pointer and is never read through. The view borrows `target`'s
        // data for `'a`.
        let mut view = unsafe { ArrayView::from_shape_ptr(shape.strides(strides), target.as_ptr().offset(if empty { 0 } else { lowest })) };
        if backwards && !empty {
            for axis in 0..self.ndim {
                if self.strides[axis] < 0 {
                    view.invert_axis(Axis(axis));
                }
            }
        }
        Some(view)
    }

    /// Calls `write` with each element of the region of `target` (whose
    /// strides it was made with), the target axes not visited taken whole,
    /// when it holds at most `most` elements: whether it did.
    ///
    /// A loop of its own rather than a view's `map_inplace`: a view's
    /// dimension, built axis by axis, is then copied whole, and that copy
    /// waits on the stores it reads (a store-forwarding stall).
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn write<T, D: Dimension>(
        &mut self,
        mut target: ArrayViewMut<'_, T, D>,
        most: usize,
        mut write: impl FnMut(&mut T),
    ) -> bool {
        if !self.complete(target.shape(), target.strides()) || self.len() > most {
            return false;
        }
        let (first, (len, stride)) = (target.as_mut_ptr(), self.lane());
        self.each_lane(|lane| {
            // SAFETY: `lane` is the offset of the first element of one lane
            // of the region, and the `len` positions `stride` apart from it
            // are the lane's elements, so elements of `target`, which this
            // function borrows mutably until it returns; one lane is
            // borrowed at a time.
            unsafe {
                let lane = first.offset(lane);
                if stride == 1 {
                    std::slice::from_raw_parts_mut(lane, len).iter_mut().for_each(&mut write);
                } else {
                    (0..len).for_each(|k| write(&mut *lane.offset(k as isize * stride)));
                }
            }
        });
        true
    }

    /// Calls `write` with each element of the region of `target`, as
    /// [`write`](Self::write) does, and the element of `values` at the same
    /// position (`values` holds the region's elements in C order): whether
    /// it did (not when `values` has another length). A lane's elements are
    /// zipped with theirs, so that a contiguous lane's loop is vectorized.
    #[cfg_attr(not(unoptimized), inline(always))]
    pub(crate) fn write_from<T, D: Dimension>(
        &mut self,
        mut target: ArrayViewMut<'_, T, D>,
        most: usize,
        values: &[T],
        mut write: impl FnMut(&mut T, &T),
    ) -> bool {
        if !self.complete(target.shape(), target.strides()) || self.len() > most || self.len() != values.len() {
            return false;
        }
        let (first, (len, stride)) = (target.as_mut_ptr(), self.lane());
        // Lanes are walked in C order, `len` values each (an empty region
        // has no lane, and a lane of a region that is not empty is not).
        let mut lane_values = values.chunks_exact(len.max(1));
        self.each_lane(|lane| {
            let Some(lane_values) = lane_values.next() else { return };
            // SAFETY: as in `write`.
            unsafe {
                let lane = first.offset(lane);
                if stride == 1 {
                    let elements = std::slice::from_raw_parts_mut(lane, len);
                    elements
                        .iter_mut()
                        .zip(lane_values)
                        .for_each(|(element, value)| write(element, value));
                } else {
                    for (k, value) in lane_values.iter().enumerate() {
                        write(&mut *lane.offset(k as isize * stride), value);
                    }
                }
            }
        });
        true
    }

    /// The number of elements of a completed region.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn len(&self) -> usize {
        self.shape[..self.ndim].iter().product()
    }

    /// The length and stride of a completed region's lanes: its last axis
    /// (one element for a region of no axes).
    #[cfg_attr(not(unoptimized), inline(always))]
    fn lane(&self) -> (usize, isize) {
        match self.ndim {
            0 => (1, 1),
            ndim => (self.shape[ndim - 1], self.strides[ndim - 1]),
        }
    }

    /// Calls `lane` with the offset (from the target's first element) of
    /// the first element of each lane of a completed region, in C order;
    /// with none for an empty region.
    #[cfg_attr(not(unoptimized), inline(always))]
    fn each_lane(&self, mut lane: impl FnMut(isize)) {
        if self.is_empty() {
            return;
        }
        // `outer` counts positions on the axes before the last.
        let outer_axes = self.ndim.saturating_sub(1);
        let mut outer = [0usize; INLINE];
        let mut offset = self.offset;
        loop {
            lane(offset);
            // The next lane: the odometer over the outer axes, last fastest.
            let mut axis = outer_axes;
            loop {
                if axis == 0 {
                    return;
                }
                axis -= 1;
                outer[axis] += 1;
                offset += self.strides[axis];
                if outer[axis] < self.shape[axis] {
                    break;
                }
                offset -= self.shape[axis] as isize * self.strides[axis];
                outer[axis] = 0;
            }
        }
    }

    #[cfg_attr(not(unoptimized), inline(always))]
    fn is_empty(&self) -> bool {
        self.shape[..self.ndim].contains(&0)
    }
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
    use ndarray::{ArrayD, ArrayViewD, ShapeBuilder};

    use super::*;
    use crate::index::{IndexElem, PySlice, RangeSlice};
    use crate::mode::{AnyMode, Bounds};
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

        /// A shape of up to 4 axes, a target of it in one of [`target`]'s
        /// layouts, and an index of up to 5 elements.
        fn case(&mut self) -> (Vec<usize>, ArrayD<i64>, Vec<IndexElem<'static>>) {
            let shape: Vec<usize> = (0..self.below(5)).map(|_| self.below(5) as usize).collect();
            let target = target(&shape, self.below(3));
            let index = (0..self.below(6)).map(|_| self.elem()).collect();
            (shape, target, index)
        }
    }

    /// A target of `shape` whose elements name their own positions (base
    /// 10), laid out in memory by `layout`: in order, every axis walked
    /// backwards, or in Fortran order, so that strides are negative or
    /// out of order.
    fn target(shape: &[usize], layout: u64) -> ArrayD<i64> {
        let name = |at: IxDyn| at.slice().iter().fold(0, |acc, &i| acc * 10 + i as i64);
        match layout {
            0 => ArrayD::from_shape_fn(IxDyn(shape), name),
            1 => {
                let mut target = ArrayD::from_shape_fn(IxDyn(shape), |at| {
                    let mirrored: Vec<usize> = at.slice().iter().zip(shape).map(|(&i, &len)| len - 1 - i).collect();
                    name(IxDyn(&mirrored))
                });
                (0..shape.len()).for_each(|axis| target.invert_axis(Axis(axis)));
                target
            }
            _ => ArrayD::from_shape_fn(IxDyn(shape).f(), name),
        }
    }

    /// How many cases the tests below draw (fewer under Miri, which
    /// interprets each step).
    const CASES: usize = if cfg!(miri) { 200 } else { 20_000 };

    /// The typed read gives the planner's view, element for element and
    /// stride for stride, of every basic index the planner accepts, on
    /// targets of every layout, and declines every one it rejects (which
    /// the planner then reports).
    #[test]
    fn typed_views_equal_the_planners() {
        let mut draws = Draws(11);
        let mut taken = 0;
        for _ in 0..CASES {
            let (shape, target, index) = draws.case();
            let mut region = Region::new();
            let typed = match each_view_axis(&index, &shape, Bounds::Error, |axis| region.push(axis, target.strides())) {
                Some(Ok(_)) => region.view::<_, _, IxDyn>(target.view()),
                _ => None,
            };
            match crate::api::get(&target, &index, AnyMode::Error) {
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
        assert!(taken > CASES * 3 / 20, "only {taken} valid basic indices drawn");
    }

    /// A region's walk writes exactly the elements of the planner's view
    /// of the same index, on targets of every layout, and nothing when it
    /// declines.
    #[test]
    fn region_writes_reach_the_planners_elements() {
        let mut draws = Draws(12);
        let mut written = 0;
        for _ in 0..CASES {
            let (shape, mut target, index) = draws.case();
            let before = target.clone();
            let mut region = Region::new();
            let wrote = match each_view_axis(&index, &shape, Bounds::Error, |axis| region.push(axis, target.strides())) {
                Some(Ok(_)) => region.write(target.view_mut(), usize::MAX, |element| *element = -1 - *element),
                _ => false,
            };
            if !wrote {
                assert_eq!(target, before, "{index:?} on {shape:?}: declined, yet wrote");
                continue;
            }
            let planned =
                crate::api::get(&before, &index, AnyMode::Error).unwrap_or_else(|error| panic!("{index:?} on {shape:?}: {error}"));
            let selected: std::collections::HashSet<i64> = planned.view().iter().copied().collect();
            let expected = before.mapv(|element| if selected.contains(&element) { -1 - element } else { element });
            assert_eq!(target, expected, "{index:?} on {shape:?}");
            written += 1;
        }
        assert!(written > CASES * 3 / 20, "only {written} basic writes drawn");
    }

    /// A region's walk with values hands each element of the planner's
    /// view of the same index the value at its C-order position, on
    /// targets of every layout, and writes nothing given one value too few
    /// or too many.
    #[test]
    fn region_writes_from_values_follow_the_planners_view_in_c_order() {
        let mut draws = Draws(13);
        let mut written = 0;
        for _ in 0..CASES {
            let (shape, mut target, index) = draws.case();
            let before = target.clone();
            let mut region = Region::new();
            let Some(Ok(_)) = each_view_axis(&index, &shape, Bounds::Error, |axis| region.push(axis, target.strides())) else {
                continue;
            };
            let len = region
                .shape(target.shape(), target.strides())
                .map_or(0, |shape| shape.iter().product());
            let values: Vec<i64> = (0..len as i64).map(|k| 1_000_000 + k).collect();
            for wrong in [&values[..len.saturating_sub(1)], &[values.as_slice(), &[0]].concat()] {
                if wrong.len() != len {
                    assert!(!region.write_from(target.view_mut(), usize::MAX, wrong, |element, value| *element = *value));
                    assert_eq!(target, before, "{index:?} on {shape:?}: {} values for {len}", wrong.len());
                }
            }
            assert!(region.write_from(target.view_mut(), usize::MAX, &values, |element, value| *element = *value));
            let mut expected = before.clone();
            let mut view =
                crate::api::view_mut(expected.view_mut(), &index).unwrap_or_else(|error| panic!("{index:?} on {shape:?}: {error}"));
            view.iter_mut().zip(&values).for_each(|(element, value)| *element = *value);
            assert_eq!(target, expected, "{index:?} on {shape:?}");
            written += 1;
        }
        assert!(written > CASES * 3 / 20, "only {written} basic writes drawn");
    }
}
