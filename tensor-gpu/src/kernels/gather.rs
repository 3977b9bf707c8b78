//! The gather path: an advanced read copies the selected elements out;
//! positions whose table entry is skipped (mode `fill`) read `fill[0]`.

use cubecl::prelude::*;

use super::grid::grid;
use super::region::{SKIP, TABLE, TARGET, axis_sum};
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// `out[p] = source[base + table[table_index(p)] + target_offset(p)]`, or the
/// fill value where the table entry is [`SKIP`].
#[cube(launch)]
pub(crate) fn gather<T: Numeric>(source: &[T], table: &[i32], fill: &[T], out: &mut [T], meta: &[i32], base: i32, ndim: u32, len: u32) {
    let position = ABSOLUTE_POS as u32;
    if position < len {
        let entry = table[axis_sum(position, meta, ndim, TABLE) as usize];
        if entry == SKIP {
            out[position as usize] = fill[0];
        } else {
            let at = base + entry + axis_sum(position, meta, ndim, TARGET);
            out[position as usize] = source[at as usize];
        }
    }
}

/// The elements `region` selects from `source`, in a new buffer in C order;
/// skipped positions read `fill`.
pub(crate) fn gather_region<T: Numeric + CubeElement>(gpu: &Gpu, source: &Buffer<T>, region: &DeviceRegion, fill: T) -> Buffer<T> {
    let client = gpu.client();
    let out = Buffer::<T>::empty(client, region.len);
    if region.len > 0 {
        let fill = gpu.constant(&[fill]);
        let (count, dim) = grid(region.len);
        gather::launch::<T>(
            client,
            count,
            dim,
            source.arg(),
            region.table.arg(),
            fill.arg(),
            out.arg(),
            region.meta.arg(),
            region.base,
            region.ndim,
            region.len as u32,
        );
    }
    out
}
