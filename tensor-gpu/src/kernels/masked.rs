//! The fused mask path: `x[x < s] op= v` and `x[(x > a) & (x < b)] op= v`
//! with a scalar `v`, the condition evaluated and the element written by
//! the same unit in one pass, with no mask in memory. (Array values need
//! each selected element's rank: [`compact`](super::compact).) A
//! comparison on another tensor is read in the same pass, or, when the pass
//! cannot read it in place, marked first, one flag per position.

use cubecl::prelude::*;
use tensor_core::element::Compare;

use super::combine::{Combine, combine};
use super::condition::{Condition, ConditionArg, evaluate, holds};
use super::grid::grid;
use super::region::{RegionArg, target_at};
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// `target[p] op= value[0]` where the condition holds at `p`.
#[cube(launch)]
fn update_where<T: Numeric>(target: &mut [T], condition: &ConditionArg<T>, value: &[T], region: &RegionArg, #[comptime] op: Combine) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let at = target_at(position, region) as usize;
        let element = target[at];
        if evaluate::<T>(element, position, condition, region.len) {
            target[at] = combine::<T>(element, value[0], op);
        }
    }
}

/// `out[p] = 1` where the condition holds at `p`, else 0.
#[cube(launch)]
fn mark_where<T: Numeric>(target: &[T], condition: &ConditionArg<T>, out: &mut [u32], region: &RegionArg) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let element = element_at::<T>(target, position, region, condition);
        let holds = evaluate::<T>(element, position, condition, region.len);
        out[position as usize] = select(holds, 1u32, 0u32);
    }
}

/// `flags[row * len + p] = 1` where `source[p] compare threshold[0]`, else 0:
/// one comparison of a mask on another tensor, marked before the pass
/// that uses it.
#[cube(launch)]
fn mark_comparison<E: Numeric>(
    source: &[E],
    threshold: &[E],
    flags: &mut [u32],
    row: u32,
    region: &RegionArg,
    #[comptime] compare: Compare,
) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let element = source[target_at(position, region) as usize];
        flags[(row * region.len + position) as usize] = select(holds::<E>(element, threshold[0], compare), 1u32, 0u32);
    }
}

/// The element at `position` of the region, when the condition compares it
/// (zero otherwise: the condition only reads flags).
#[cube]
pub(crate) fn element_at<T: Numeric>(target: &[T], position: u32, region: &RegionArg, condition: &ConditionArg<T>) -> T {
    if comptime!(condition.program.reads_element()) {
        target[target_at(position, region) as usize]
    } else {
        T::from_int(0)
    }
}

/// `target[region][condition] op= value` for a scalar `value`, in one pass.
pub(crate) fn update_where_scalar<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
    op: Combine,
    value: T,
) {
    let client = gpu.client();
    let value = gpu.constant(&[value]);
    let (count, dim) = grid(region.len);
    update_where::launch::<T>(client, count, dim, target.arg(), condition.arg(), value.arg(), region.arg(), op);
}

/// One flag per position of the region: whether the condition holds there.
pub(crate) fn mark<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
) -> Buffer<u32> {
    let client = gpu.client();
    let out = Buffer::<u32>::empty(client, region.len);
    let (count, dim) = grid(region.len);
    mark_where::launch::<T>(client, count, dim, target.arg(), condition.arg(), out.arg(), region.arg());
    out
}

/// Row `row` of `flags` (rows of `region.len`): whether
/// `source[region] compare threshold` holds at each position.
pub(crate) fn mark_row<E: Numeric + CubeElement>(
    gpu: &Gpu,
    source: &Buffer<E>,
    region: &DeviceRegion,
    (compare, threshold): (Compare, E),
    flags: &Buffer<u32>,
    row: usize,
) {
    let client = gpu.client();
    let threshold = gpu.constant(&[threshold]);
    let (count, dim) = grid(region.len);
    mark_comparison::launch::<E>(
        client,
        count,
        dim,
        source.arg(),
        threshold.arg(),
        flags.arg(),
        row as u32,
        region.arg(),
        compare,
    );
}
