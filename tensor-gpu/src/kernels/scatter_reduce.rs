//! Scatter-reduce: `x[idx] op= v` applying every occurrence in index order,
//! deterministically. Positions are sorted stably by destination; one unit
//! per destination folds its run of values into the element in index
//! order, exactly the sequence of operations the CPU performs, so float
//! results are bitwise those of tensor-core (no float atomics, whose order
//! would vary from run to run).

use cubecl::prelude::*;

use super::combine::{Combine, combine};
use super::grid::grid;
use super::region::{RegionArg, VALUE, axis_sum};
use super::sort;
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// Unit `k` folds the run of positions starting at `k`, if one starts there.
#[cube(launch)]
fn fold_runs<T: Numeric>(keys: &[u32], order: &[u32], target: &mut [T], values: &[T], region: &RegionArg, #[comptime] op: Combine) {
    let k = ABSOLUTE_POS as u32;
    let len = region.len;
    if k < len {
        let key = keys[k as usize];
        let mut previous = 0u32;
        if k > 0 {
            previous = keys[(k - 1) as usize];
        }
        if key != 0 && previous != key {
            let at = (key - 1) as usize;
            let mut element = target[at];
            let mut j = k;
            loop {
                if j >= len {
                    break;
                }
                if keys[j as usize] != key {
                    break;
                }
                let value = values[axis_sum(order[j as usize], region, VALUE) as usize];
                element = combine::<T>(element, value, op);
                j += 1;
            }
            target[at] = element;
        }
    }
}

/// `target[region] op= values`, each occurrence in index order.
pub(crate) fn scatter_reduce<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    values: &Buffer<T>,
    region: &DeviceRegion,
    op: Combine,
) {
    let client = gpu.client();
    let (keys, order) = sort::by_destination(gpu, region, target.len);
    let (count, dim) = grid(region.len);
    fold_runs::launch::<T>(
        client,
        count,
        dim,
        keys.arg(),
        order.arg(),
        target.arg(),
        values.arg(),
        region.arg(),
        op,
    );
}
