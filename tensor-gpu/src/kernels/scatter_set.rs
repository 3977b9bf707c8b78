//! Scatter-set: `x[idx] = v` with duplicates, the last occurrence in index
//! order winning (NumPy's observed behaviour), on every device and run.
//! Positions are sorted stably by destination; the last of each run of
//! equal destinations writes, nobody else does.

use cubecl::prelude::*;

use super::grid::grid;
use super::region::{RegionArg, VALUE, axis_sum};
use super::sort;
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// Unit `k` writes when it holds the last position of its destination.
#[cube(launch)]
fn write_last<T: Numeric>(keys: &[u32], order: &[u32], target: &mut [T], values: &[T], region: &RegionArg) {
    let k = ABSOLUTE_POS as u32;
    let len = region.len;
    if k < len {
        let key = keys[k as usize];
        let mut next = 0u32;
        if k + 1 < len {
            next = keys[(k + 1) as usize];
        }
        if key != 0 && next != key {
            let position = order[k as usize];
            target[(key - 1) as usize] = values[axis_sum(position, region, VALUE) as usize];
        }
    }
}

/// `target[region] = values`, last occurrence wins.
pub(crate) fn scatter_set<T: Numeric + CubeElement>(gpu: &Gpu, target: &Buffer<T>, values: &Buffer<T>, region: &DeviceRegion) {
    let client = gpu.client();
    let (keys, order) = sort::by_destination(gpu, region, target.len);
    let (count, dim) = grid(region.len);
    write_last::launch::<T>(
        client,
        count,
        dim,
        keys.arg(),
        order.arg(),
        target.arg(),
        values.arg(),
        region.arg(),
    );
}
