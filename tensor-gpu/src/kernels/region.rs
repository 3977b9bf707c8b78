//! Where position `p` of a region lands: the region's axes are described by
//! a `meta` buffer of [`FIELDS`] `i32`s per axis, and a position decomposes
//! over them in C order (its last axis fastest). Kernels receive a region
//! as one [`RegionArg`].

use cubecl::prelude::*;

use super::indices::IndexWalk;
use crate::layout::DeviceRegion;

/// Entries per axis in `meta`: length, target stride, value stride, table stride.
pub(crate) const FIELDS: usize = 4;
/// The axis length.
pub(crate) const LEN: u32 = 0;
/// The distance between positions along the axis in the target (zero on table axes).
pub(crate) const TARGET: u32 = 1;
/// The distance along the axis in the value (zero where the value broadcasts).
pub(crate) const VALUE: u32 = 2;
/// The distance along the axis within the offset table (zero on strided axes).
pub(crate) const TABLE: u32 = 3;

/// A table entry for a position skipped by mode `drop` or `fill`.
pub(crate) const SKIP: i32 = i32::MIN;

/// A region as a kernel argument: its axes, the target offset of its first
/// position, its rank and its number of positions.
#[derive(CubeType, CubeLaunch)]
pub(crate) struct RegionArg {
    /// [`FIELDS`] entries per axis.
    pub(crate) meta: Box<[i32]>,
    pub(crate) base: i32,
    pub(crate) ndim: u32,
    /// The number of positions; units at or past it return.
    pub(crate) len: u32,
}

/// `sum over axes a of index_a(position) * meta[a][field]`: the offset of
/// `position` along one of the strides.
#[cube]
pub(crate) fn axis_sum(position: u32, region: &RegionArg, #[comptime] field: u32) -> i32 {
    let mut rest = position;
    let mut sum = 0i32;
    for k in 0..region.ndim {
        let at = ((region.ndim - 1 - k) * 4) as usize;
        let len = region.meta[at + LEN as usize] as u32;
        sum += (rest % len) as i32 * region.meta[at + field as usize];
        rest /= len;
    }
    sum
}

/// Where `position` lands in the target (on a table axis, before its
/// entry is added).
#[cube]
pub(crate) fn target_at(position: u32, region: &RegionArg) -> i32 {
    region.base + axis_sum(position, region, TARGET)
}

impl DeviceRegion {
    /// The region as a kernel argument.
    pub(crate) fn arg(&self) -> RegionArgLaunch {
        RegionArgLaunch::new(self.meta.arg(), self.base, self.ndim, self.len as u32)
    }
}

impl<I> IndexWalk<'_, I> {
    /// The walk as a kernel argument: a region over the index array.
    pub(crate) fn arg(&self) -> RegionArgLaunch {
        RegionArgLaunch::new(self.meta.arg(), self.origin, self.ndim, self.len as u32)
    }
}
