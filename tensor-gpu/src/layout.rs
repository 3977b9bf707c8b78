//! Regions on the host: the axes a plan (or a whole tensor) selects, as the
//! rows of `meta` the kernels decompose positions with, and their upload.
//! Beside them, the strides layouts are read with: C order ([`c_strides`]),
//! and an array broadcast along a region's axes, from its shape
//! ([`broadcast_strides`]) or its own strides ([`broadcast_to`]).

use tensor_core::backend::plan::Plan;
use tensor_core::backend::plan::{Dim, IndexedPlan, SKIP, ViewAxis, ViewPlan};

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::error::GpuError;
use crate::kernels::region::{FIELDS, SKIP as DEVICE_SKIP};

/// One axis of a region: its length and the distance between its positions
/// in the target, in the value and in the offset table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Axis {
    pub(crate) len: usize,
    pub(crate) target: isize,
    pub(crate) value: isize,
    pub(crate) table: isize,
}

/// A region of a target: element `p` (in C order) sits at
/// `base + table[table offset of p] + target offset of p`.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    axes: Vec<Axis>,
    base: isize,
    /// The advanced-index offsets; `None` for a strided region.
    table: Option<Vec<isize>>,
    /// The offsets built on the device (from device index arrays), which
    /// replace `table` when uploading.
    device_table: Option<Buffer<i32>>,
}

impl Region {
    /// Every element of a tensor with this layout.
    pub(crate) fn of_layout(offset: usize, shape: &[usize], strides: &[isize]) -> Self {
        let axes = shape.iter().zip(strides).map(|(&len, &stride)| Axis {
            len,
            target: stride,
            ..Axis::default()
        });
        Region {
            axes: axes.collect(),
            base: offset as isize,
            table: None,
            device_table: None,
        }
    }

    /// The view `plan` selects from a tensor with this layout.
    pub(crate) fn of_view(plan: &ViewPlan, offset: usize, strides: &[isize]) -> Self {
        let mut base = offset as isize;
        let mut axes = Vec::with_capacity(plan.shape.len());
        let mut strides = strides.iter();
        for axis in &plan.axes {
            match *axis {
                ViewAxis::Select(i) => base += i as isize * strides.next().expect("one target axis per select"),
                ViewAxis::Slice { first, len, step } => {
                    let stride = strides.next().expect("one target axis per slice");
                    if len > 0 {
                        base += first as isize * stride;
                    }
                    // A step past the axis (any step, for one position:
                    // `::isize::MAX`) is never taken, and its product with
                    // the stride would overflow: such an axis gets stride 0.
                    axes.push(Axis {
                        len,
                        target: if len > 1 { step * stride } else { 0 },
                        ..Axis::default()
                    });
                }
                ViewAxis::NewAxis => axes.push(Axis { len: 1, ..Axis::default() }),
            }
        }
        Region {
            axes,
            base,
            table: None,
            device_table: None,
        }
    }

    /// The positions an advanced index selects from a tensor whose origin is
    /// at `offset` (the plan was resolved from the tensor's shape and
    /// strides); an error when memory cannot hold its table's offsets.
    pub(crate) fn of_indexed(plan: &IndexedPlan<'_>, offset: usize) -> Result<Self, GpuError> {
        let mut axes = Vec::with_capacity(plan.shape.len());
        for dim in &plan.dims {
            match *dim {
                Dim::Strided { len, stride } => axes.push(Axis {
                    len,
                    target: stride,
                    ..Axis::default()
                }),
                Dim::Table => {
                    // C-order strides within the table's own shape.
                    let shape = &plan.table.shape;
                    let first = axes.len();
                    let mut stride = 1isize;
                    axes.extend(shape.iter().map(|&len| Axis { len, ..Axis::default() }));
                    for axis in axes[first..].iter_mut().rev() {
                        axis.table = stride;
                        stride *= axis.len as isize;
                    }
                }
            }
        }
        let table = plan.table.offsets()?;
        Ok(Region {
            axes,
            base: offset as isize + plan.base,
            table: Some(table.into_owned()),
            device_table: None,
        })
    }

    /// The positions `plan` selects from a tensor with this layout (an
    /// error as [`of_indexed`](Self::of_indexed)'s).
    pub(crate) fn of_plan(plan: &Plan<'_>, offset: usize, strides: &[isize]) -> Result<Self, GpuError> {
        match plan {
            Plan::View(plan) => Ok(Region::of_view(plan, offset, strides)),
            Plan::Indexed(plan) => Region::of_indexed(plan, offset),
        }
    }

    /// The regions of every batch position of a batch of shape `batch` (in
    /// C order), all of one shape, stacked into one region: the batch axes
    /// in front, then each batch's axes, with the batches' tables one after
    /// the other and each batch's base folded into its entries ([`SKIP`]
    /// entries stay). When the batches' axes differ, each is first
    /// [`tabulated`](Self::tabulated).
    pub(crate) fn stacked(batch: &[usize], regions: Vec<Region>) -> Region {
        debug_assert_eq!(regions.len(), batch.iter().product::<usize>(), "one region per batch position");
        debug_assert!(regions.iter().all(|r| r.device_table.is_none()), "batches are planned on the host");
        let uniform = regions
            .windows(2)
            .all(|pair| pair[0].axes == pair[1].axes && pair[0].table_len() == pair[1].table_len());
        let regions = match uniform {
            true => regions,
            false => regions.iter().map(Region::tabulated).collect(),
        };
        let Some(first) = regions.first() else {
            // No batch position: the batch axes alone (one of them empty).
            let axes = batch.iter().map(|&len| Axis { len, ..Axis::default() });
            return Region {
                axes: axes.collect(),
                base: 0,
                table: Some(Vec::new()),
                device_table: None,
            };
        };
        let mut axes: Vec<Axis> = batch.iter().map(|&len| Axis { len, ..Axis::default() }).collect();
        let mut stride = first.table_len() as isize;
        for axis in axes.iter_mut().rev() {
            axis.table = stride;
            stride *= axis.len as isize;
        }
        axes.extend_from_slice(&first.axes);
        let table = regions.iter().flat_map(Region::based_entries).collect();
        Region {
            axes,
            base: 0,
            table: Some(table),
            device_table: None,
        }
    }

    /// The same positions as a region whose table holds the offset of every
    /// position (in C order; [`SKIP`] where the table skips it), with no
    /// strided axis: any two tabulated regions of one shape stack.
    fn tabulated(&self) -> Region {
        let table = self.table.as_deref().unwrap_or(&[0]);
        let mut entries = Vec::with_capacity(self.len());
        // A C-order multi-index counter over the region.
        let mut at = vec![0usize; self.axes.len()];
        for _ in 0..self.len() {
            let along = |field: fn(&Axis) -> isize| -> isize { at.iter().zip(&self.axes).map(|(&i, axis)| i as isize * field(axis)).sum() };
            let entry = table[along(|axis| axis.table) as usize];
            entries.push(match entry == SKIP {
                true => SKIP,
                false => self.base + entry + along(|axis| axis.target),
            });
            for (i, axis) in at.iter_mut().zip(&self.axes).rev() {
                *i += 1;
                if *i < axis.len {
                    break;
                }
                *i = 0;
            }
        }
        let mut axes: Vec<Axis> = self
            .axes
            .iter()
            .map(|axis| Axis {
                len: axis.len,
                ..Axis::default()
            })
            .collect();
        let mut stride = 1isize;
        for axis in axes.iter_mut().rev() {
            axis.table = stride;
            stride *= axis.len as isize;
        }
        Region {
            axes,
            base: 0,
            table: Some(entries),
            device_table: None,
        }
    }

    /// The number of table entries (one, zero, for a strided region).
    fn table_len(&self) -> usize {
        self.table.as_ref().map_or(1, Vec::len)
    }

    /// The table's entries with the base added (a strided region's is the
    /// base alone); [`SKIP`] entries stay.
    fn based_entries(&self) -> Vec<isize> {
        let table = self.table.as_deref().unwrap_or(&[0]);
        let based = |&entry: &isize| if entry == SKIP { SKIP } else { self.base + entry };
        table.iter().map(based).collect()
    }

    /// The host's offset table (one entry per position of the table's
    /// shape), `None` for a strided region.
    pub(crate) fn host_table(&self) -> Option<&[isize]> {
        self.table.as_deref()
    }

    /// The region with `table` (built on the device, one entry per position
    /// of the host table) as its offsets.
    pub(crate) fn with_device_table(mut self, table: Buffer<i32>) -> Self {
        self.device_table = Some(table);
        self
    }

    /// The region's shape.
    pub(crate) fn shape(&self) -> Vec<usize> {
        self.axes.iter().map(|axis| axis.len).collect()
    }

    /// Number of positions.
    pub(crate) fn len(&self) -> usize {
        self.axes.iter().map(|axis| axis.len).product()
    }

    /// Sets the value's stride along each axis (zero where it broadcasts).
    pub(crate) fn with_value_strides(mut self, strides: &[isize]) -> Self {
        for (axis, &stride) in self.axes.iter_mut().zip(strides) {
            axis.value = stride;
        }
        self
    }

    /// The region on the device. Fails when a position or an offset does
    /// not fit the kernels' 32-bit arithmetic.
    pub(crate) fn upload(&self, gpu: &Gpu) -> Result<DeviceRegion, GpuError> {
        let len = self.len();
        let too_large = || GpuError::TooLarge { elements: len };
        let small = |x: isize| i32::try_from(x).map_err(|_| too_large());
        if len > i32::MAX as usize {
            return Err(too_large());
        }
        let mut meta = Vec::with_capacity(FIELDS * self.axes.len().max(1));
        for axis in &self.axes {
            // A stride on an axis of one position never multiplies anything
            // but zero (and may be huge: `0::10**9`).
            let stride = |s: isize| if axis.len > 1 { s } else { 0 };
            meta.extend([
                small(axis.len as isize)?,
                small(stride(axis.target))?,
                small(stride(axis.value))?,
                small(stride(axis.table))?,
            ]);
        }
        let table = match (&self.device_table, &self.table) {
            (Some(table), _) => table.clone(),
            // A strided region reads table entry 0 everywhere.
            (None, None) => gpu.constant(&[0]),
            (None, Some(offsets)) => {
                let offsets: Vec<i32> = offsets
                    .iter()
                    .map(|&offset| if offset == SKIP { Ok(DEVICE_SKIP) } else { small(offset) })
                    .collect::<Result<_, _>>()?;
                Buffer::from_slice(gpu, &offsets)
            }
        };
        Ok(DeviceRegion {
            meta: gpu.constant(&meta),
            table,
            base: small(self.base)?,
            ndim: self.axes.len() as u32,
            len,
        })
    }
}

/// A [`Region`] on the device.
pub(crate) struct DeviceRegion {
    /// [`FIELDS`] entries per axis.
    pub(crate) meta: Buffer<i32>,
    /// The offset table (one zero entry for a strided region).
    pub(crate) table: Buffer<i32>,
    pub(crate) base: i32,
    pub(crate) ndim: u32,
    pub(crate) len: usize,
}

impl Region {
    /// The origin offset and strides of a strided region (a view).
    pub(crate) fn strided_layout(&self) -> (usize, Vec<isize>) {
        debug_assert!(self.table.is_none(), "a view has no table");
        let offset = usize::try_from(self.base).expect("a view's origin is an element of the buffer");
        (offset, self.axes.iter().map(|axis| axis.target).collect())
    }
}

/// The number of elements of an array of `shape`, or
/// [`GpuError::TooLarge`] when the kernels cannot address one: when the
/// product of its lengths other than zero passes `i32::MAX`.
///
/// A length of zero empties an array but not its strides: each C-order
/// stride is a product of later lengths, a zero counted as one (see
/// [`c_strides`]). Bounding the product of the lengths other than zero
/// bounds every stride, offset and element count of the array, so they fit
/// the kernels' 32-bit arithmetic, and ndarray's limit on a download. The
/// error counts that product (`usize::MAX` when it overflows).
pub(crate) fn elements(shape: &[usize]) -> Result<usize, GpuError> {
    let spanned = shape
        .iter()
        .filter(|&&len| len != 0)
        .try_fold(1usize, |product, &len| product.checked_mul(len));
    match spanned {
        Some(spanned) if spanned <= i32::MAX as usize => Ok(if shape.contains(&0) { 0 } else { spanned }),
        _ => Err(GpuError::TooLarge {
            elements: spanned.unwrap_or(usize::MAX),
        }),
    }
}

/// The strides of a C-contiguous array of `shape`.
pub(crate) fn c_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut stride = 1isize;
    for (slot, &len) in strides.iter_mut().zip(shape).rev() {
        *slot = stride;
        stride *= len.max(1) as isize;
    }
    strides
}

/// The C-order strides of an array of shape `shape` read along the axes of
/// `region`, to which it broadcasts (aligned at the last axis): zero on the
/// axes it lacks or has length one on.
pub(crate) fn broadcast_strides(shape: &[usize], region: &[usize]) -> Vec<isize> {
    let mut strides = vec![0; region.len()];
    let mut stride = 1isize;
    for (slot, &len) in strides.iter_mut().rev().zip(shape.iter().rev()) {
        if len != 1 {
            *slot = stride;
        }
        stride *= len as isize;
    }
    strides
}

/// The strides that read an array of shape `own` (with `strides`) along
/// the axes of `shape`, to which it broadcasts (aligned at the last axis):
/// zero on the axes it lacks or has length one on.
pub(crate) fn broadcast_to(own: &[usize], strides: &[isize], shape: &[usize]) -> Vec<isize> {
    let mut out = vec![0; shape.len()];
    for ((slot, &len), &stride) in out.iter_mut().rev().zip(own.iter().rev()).zip(strides.iter().rev()) {
        if len != 1 {
            *slot = stride;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use tensor_core::backend::Bounds;
    use tensor_core::backend::plan::resolve;
    use tensor_core::index::IndexElem;
    use tensor_core::ix;

    use super::*;

    /// Where each position of `region` lands, in C order (`None` where the
    /// table skips it): the kernels' arithmetic, on the host.
    fn offsets(region: &Region) -> Vec<Option<isize>> {
        let table = region.table.as_deref().unwrap_or(&[0]);
        (0..region.len())
            .map(|position| {
                let (mut rest, mut in_table, mut in_target) = (position, 0, 0);
                for axis in region.axes.iter().rev() {
                    let i = (rest % axis.len) as isize;
                    rest /= axis.len;
                    in_table += i * axis.table;
                    in_target += i * axis.target;
                }
                let entry = table[in_table as usize];
                (entry != SKIP).then(|| region.base + entry + in_target)
            })
            .collect()
    }

    /// The region `index` selects from a C-contiguous (4, 3) tensor at `offset`.
    fn region(index: &[IndexElem<'_>], offset: usize, bounds: Bounds) -> Region {
        let plan = resolve(index, &[4, 3], &[3, 1], bounds).unwrap();
        Region::of_plan(&plan, offset, &[3, 1]).unwrap()
    }

    #[test]
    fn stacked_regions_land_where_each_batch_does() {
        let rows = [ix([3i64, -4]), ix(..)];
        let skipping = [ix([1i64, 7]), ix(..)];
        let strided = [ix(1..3), ix(..)];
        let uniform = vec![
            region(&rows, 0, Bounds::Error),
            region(&skipping, 12, Bounds::Skip),
            region(&rows, 24, Bounds::Error),
        ];
        // A table beside a view: the batches are tabulated first.
        let mixed = vec![region(&rows, 0, Bounds::Error), region(&strided, 12, Bounds::Error)];
        for (batch, regions) in [(vec![3], uniform), (vec![1, 2], mixed)] {
            assert!(regions.iter().all(|r| r.shape() == [2, 3]));
            let expected: Vec<Option<isize>> = regions.iter().flat_map(offsets).collect();
            let stacked = Region::stacked(&batch, regions);
            assert_eq!(stacked.shape(), [batch.clone(), vec![2, 3]].concat());
            assert_eq!(offsets(&stacked), expected, "batch {batch:?}");
        }
    }

    #[test]
    fn a_tabulated_region_lands_where_it_did() {
        let index = [ix(..), ix([2i64, 0, 5])];
        let region = region(&index, 7, Bounds::Skip);
        let tabulated = region.tabulated();
        assert!(tabulated.axes.iter().all(|axis| axis.target == 0));
        assert_eq!(offsets(&tabulated), offsets(&region));
        assert_eq!(offsets(&region)[2], None);
    }

    #[test]
    fn broadcast_axes_have_stride_zero() {
        assert_eq!(broadcast_strides(&[3], &[2, 3]), [0, 1]);
        assert_eq!(broadcast_strides(&[2, 1], &[2, 3]), [1, 0]);
        assert_eq!(broadcast_strides(&[4, 2, 3], &[4, 2, 3]), [6, 3, 1]);
        assert_eq!(broadcast_strides(&[], &[5]), [0]);
    }

    #[test]
    fn addressable_shapes_bound_their_lengths_other_than_zero() {
        let max = i32::MAX as usize;
        assert_eq!(elements(&[]), Ok(1));
        assert_eq!(elements(&[3, 4]), Ok(12));
        assert_eq!(elements(&[max]), Ok(max));
        assert_eq!(elements(&[max, 0]), Ok(0));
        assert_eq!(elements(&[max + 1]), Err(GpuError::TooLarge { elements: max + 1 }));
        // An empty axis anywhere: the other lengths are bounded all the same.
        assert_eq!(elements(&[2, 1 << 62, 0]), Err(GpuError::TooLarge { elements: 1 << 63 }));
        assert_eq!(elements(&[0, 1 << 40, 1 << 40]), Err(GpuError::TooLarge { elements: usize::MAX }));
    }

    #[test]
    fn a_step_on_an_axis_of_one_position_gets_stride_zero() {
        for step in [isize::MAX, isize::MIN, 4] {
            let index = [IndexElem::Slice(tensor_core::index::PySlice::new(None, None, Some(step)))];
            let Plan::View(plan) = resolve(&index, &[4, 3], &[3, 1], Bounds::Error).unwrap() else {
                panic!("a slice is a view");
            };
            let (offset, strides) = Region::of_view(&plan, 5, &[3, 1]).strided_layout();
            let first_row = if step > 0 { 5 } else { 5 + 9 };
            assert_eq!((offset, strides, plan.shape), (first_row, vec![0, 1], vec![1, 3]), "step {step}");
        }
    }

    #[test]
    fn c_order_strides_count_elements() {
        assert_eq!(c_strides(&[2, 3, 4]), vec![12, 4, 1]);
    }
}
