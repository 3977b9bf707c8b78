//! The basic path: strided reads into a fresh buffer, and strided writes
//! (set, fill and every accumulating operation) on a region with no
//! duplicate positions.

use cubecl::prelude::*;

use super::combine::{Combine, combine};
use super::grid::grid;
use super::region::{RegionArg, VALUE, axis_sum, target_at};
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// `out[p] = source[base + target_offset(p)]`.
#[cube(launch)]
pub(crate) fn copy_strided<T: Numeric>(source: &[T], out: &mut [T], region: &RegionArg) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        out[position as usize] = source[target_at(position, region) as usize];
    }
}

/// `target[base + target_offset(p)] op= values[value_offset(p)]`. Only for
/// regions whose positions are distinct (views), so units never race.
#[cube(launch)]
pub(crate) fn write_strided<T: Numeric>(target: &mut [T], values: &[T], region: &RegionArg, #[comptime] op: Combine) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let at = target_at(position, region) as usize;
        let value = values[axis_sum(position, region, VALUE) as usize];
        target[at] = combine::<T>(target[at], value, op);
    }
}

/// The elements of `region` (no table) read from `source` into a new
/// contiguous buffer, in C order.
pub(crate) fn copy<T: Numeric + CubeElement>(gpu: &Gpu, source: &Buffer<T>, region: &DeviceRegion) -> Buffer<T> {
    let client = gpu.client();
    let out = Buffer::<T>::empty(client, region.len);
    if region.len > 0 {
        let (count, dim) = grid(region.len);
        copy_strided::launch::<T>(client, count, dim, source.arg(), out.arg(), region.arg());
    }
    out
}

/// `target[region] op= values` for a region of distinct positions.
pub(crate) fn write<T: Numeric + CubeElement>(gpu: &Gpu, target: &Buffer<T>, values: &Buffer<T>, region: &DeviceRegion, op: Combine) {
    let client = gpu.client();
    let (count, dim) = grid(region.len);
    write_strided::launch::<T>(client, count, dim, target.arg(), values.arg(), region.arg(), op);
}
