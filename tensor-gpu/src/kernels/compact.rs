//! Mask compaction: the selected elements of `x[x < s]` numbered in C
//! order by a prefix sum of the condition, for reads (`x[x < s]` gathers
//! them into a new one-dimensional tensor) and for writes whose value is an
//! array (the `k`-th selected element takes the `k`-th value).

use cubecl::prelude::*;

use super::combine::{Combine, combine};
use super::condition::{Condition, ConditionArg, evaluate};
use super::grid::grid;
use super::masked::{element_at, mark};
use super::region::{RegionArg, target_at};
use super::scan::exclusive_scan;
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::error::GpuError;
use crate::layout::DeviceRegion;

/// Where the condition holds at `p`: `target[p] op= values[ranks[p] * value_stride]`.
/// Each unit evaluates its own element before writing it, so the condition
/// sees the values the ranks were computed from.
#[cube(launch)]
fn write_selected<T: Numeric>(
    target: &mut [T],
    ranks: &[u32],
    condition: &ConditionArg<T>,
    values: &[T],
    region: &RegionArg,
    value_stride: u32,
    #[comptime] op: Combine,
) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let at = target_at(position, region) as usize;
        let element = target[at];
        if evaluate::<T>(element, position, condition, region.len) {
            let value = values[(ranks[position as usize] * value_stride) as usize];
            target[at] = combine::<T>(element, value, op);
        }
    }
}

/// Where the condition holds at `p`: `out[ranks[p]] = source[p]`.
#[cube(launch)]
fn gather_selected<T: Numeric>(source: &[T], ranks: &[u32], condition: &ConditionArg<T>, out: &mut [T], region: &RegionArg) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let element = source[target_at(position, region) as usize];
        if evaluate::<T>(element, position, condition, region.len) {
            out[ranks[position as usize] as usize] = element;
        }
    }
}

/// Where the condition holds at `p`: row `ranks[p]` of `out` is `p`'s
/// coordinates over the region's axes, of lengths `dims` (C order).
#[cube(launch)]
fn coordinates_selected<T: Numeric>(
    source: &[T],
    ranks: &[u32],
    condition: &ConditionArg<T>,
    out: &mut [i32],
    dims: &[u32],
    region: &RegionArg,
) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let element = element_at::<T>(source, position, region, condition);
        if evaluate::<T>(element, position, condition, region.len) {
            let ndim = region.ndim;
            let row = ranks[position as usize] * ndim;
            let mut rest = position;
            for k in 0..ndim {
                let axis = ndim - 1 - k;
                let dim = dims[axis as usize];
                out[(row + axis) as usize] = (rest % dim) as i32;
                rest /= dim;
            }
        }
    }
}

/// The rank (C-order number) of each selected position, and how many there are.
pub(crate) struct Selected {
    ranks: Buffer<u32>,
    /// Number of positions where the condition holds.
    pub(crate) count: usize,
}

/// Numbers the positions of `region` where the condition holds (a read-only
/// pass over the target).
pub(crate) fn select_where<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
) -> Result<Selected, GpuError> {
    let ranks = mark(gpu, target, region, condition);
    let total = exclusive_scan(gpu, &ranks);
    let count = total.read(gpu)?[0] as usize;
    Ok(Selected { ranks, count })
}

/// `target[region][condition] op= values`, the `k`-th selected element taking
/// `values[k * value_stride]` (a stride of 0 repeats one value).
pub(crate) fn write_selected_values<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
    selected: &Selected,
    (values, value_stride): (&Buffer<T>, u32),
    op: Combine,
) {
    let client = gpu.client();
    let (count, dim) = grid(region.len);
    write_selected::launch::<T>(
        client,
        count,
        dim,
        target.arg(),
        selected.ranks.arg(),
        condition.arg(),
        values.arg(),
        region.arg(),
        value_stride,
        op,
    );
}

/// The selected elements, in C order, in a new buffer of `selected.count`.
pub(crate) fn gather_where<T: Numeric + CubeElement>(
    gpu: &Gpu,
    source: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
    selected: &Selected,
) -> Buffer<T> {
    let client = gpu.client();
    let out = Buffer::<T>::empty(client, selected.count);
    let (count, dim) = grid(region.len);
    gather_selected::launch::<T>(
        client,
        count,
        dim,
        source.arg(),
        selected.ranks.arg(),
        condition.arg(),
        out.arg(),
        region.arg(),
    );
    out
}

/// The coordinates of the selected positions of `region` (of shape
/// `shape`), in C order: `selected.count` rows of `shape.len()` `i32`s
/// (`x[m]` as `x[nd(coordinates)]`).
pub(crate) fn coordinates_where<T: Numeric + CubeElement>(
    gpu: &Gpu,
    source: &Buffer<T>,
    region: &DeviceRegion,
    condition: &Condition<T>,
    selected: &Selected,
    shape: &[usize],
) -> Buffer<i32> {
    let client = gpu.client();
    let out = Buffer::<i32>::empty(client, selected.count * shape.len());
    let dims: Vec<u32> = shape.iter().map(|&len| len as u32).collect();
    let dims = gpu.constant(if dims.is_empty() { &[1] } else { &dims });
    let (count, dim) = grid(region.len);
    coordinates_selected::launch::<T>(
        client,
        count,
        dim,
        source.arg(),
        selected.ranks.arg(),
        condition.arg(),
        out.arg(),
        dims.arg(),
        region.arg(),
    );
    out
}
