//! Mask compaction: the selected elements of `x[x < s]` numbered in C
//! order by a prefix sum of the predicate, for reads (`x[x < s]` gathers
//! them into a new one-dimensional tensor) and for writes whose value is an
//! array (the `k`-th selected element takes the `k`-th value).

use cubecl::prelude::*;

use super::combine::{Combine, combine};
use super::grid::grid;
use super::masked::{Predicate, holds, mark};
use super::region::{TARGET, axis_sum};
use super::scan::exclusive_scan;
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::error::GpuError;
use crate::layout::DeviceRegion;

/// Where the predicate holds at `p`: `target[p] op= values[ranks[p] * value_stride]`.
/// Each unit evaluates its own element before writing it, so the predicate
/// sees the values the ranks were computed from.
#[cube(launch)]
fn write_selected<T: Numeric>(
    target: &mut [T],
    ranks: &[u32],
    operands: &[T],
    values: &[T],
    meta: &[i32],
    base: i32,
    ndim: u32,
    len: u32,
    value_stride: u32,
    #[comptime] compare: Predicate,
    #[comptime] op: Combine,
) {
    let position = ABSOLUTE_POS as u32;
    if position < len {
        let at = (base + axis_sum(position, meta, ndim, TARGET)) as usize;
        let element = target[at];
        if holds::<T>(element, operands[0], compare) {
            let value = values[(ranks[position as usize] * value_stride) as usize];
            target[at] = combine::<T>(element, value, op);
        }
    }
}

/// Where the predicate holds at `p`: `out[ranks[p]] = source[p]`.
#[cube(launch)]
fn gather_selected<T: Numeric>(
    source: &[T],
    ranks: &[u32],
    operands: &[T],
    out: &mut [T],
    meta: &[i32],
    base: i32,
    ndim: u32,
    len: u32,
    #[comptime] compare: Predicate,
) {
    let position = ABSOLUTE_POS as u32;
    if position < len {
        let element = source[(base + axis_sum(position, meta, ndim, TARGET)) as usize];
        if holds::<T>(element, operands[0], compare) {
            out[ranks[position as usize] as usize] = element;
        }
    }
}

/// The rank (C-order number) of each selected position, and how many there are.
pub(crate) struct Selected {
    ranks: Buffer<u32>,
    /// Number of positions where the predicate holds.
    pub(crate) count: usize,
}

/// Numbers the positions of `region` where the predicate holds (a read-only
/// pass over the target).
pub(crate) fn select_where<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    predicate: (Predicate, T),
) -> Result<Selected, GpuError> {
    let ranks = mark(gpu, target, region, predicate);
    let total = exclusive_scan(gpu, &ranks);
    let count = total.read(gpu)?[0] as usize;
    Ok(Selected { ranks, count })
}

/// `target[region][predicate] op= values`, the `k`-th selected element taking
/// `values[k * value_stride]` (a stride of 0 repeats one value).
pub(crate) fn write_selected_values<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    (compare, threshold): (Predicate, T),
    selected: &Selected,
    (values, value_stride): (&Buffer<T>, u32),
    op: Combine,
) {
    let client = gpu.client();
    let operands = gpu.constant(&[threshold]);
    let (count, dim) = grid(region.len);
    write_selected::launch::<T>(
        client,
        count,
        dim,
        target.arg(),
        selected.ranks.arg(),
        operands.arg(),
        values.arg(),
        region.meta.arg(),
        region.base,
        region.ndim,
        region.len as u32,
        value_stride,
        compare,
        op,
    );
}

/// The selected elements, in C order, in a new buffer of `selected.count`.
pub(crate) fn gather_where<T: Numeric + CubeElement>(
    gpu: &Gpu,
    source: &Buffer<T>,
    region: &DeviceRegion,
    (compare, threshold): (Predicate, T),
    selected: &Selected,
) -> Buffer<T> {
    let client = gpu.client();
    let operands = gpu.constant(&[threshold]);
    let out = Buffer::<T>::empty(client, selected.count);
    let (count, dim) = grid(region.len);
    gather_selected::launch::<T>(
        client,
        count,
        dim,
        source.arg(),
        selected.ranks.arg(),
        operands.arg(),
        out.arg(),
        region.meta.arg(),
        region.base,
        region.ndim,
        region.len as u32,
        compare,
    );
    out
}
