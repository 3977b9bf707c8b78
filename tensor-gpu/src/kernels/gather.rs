//! The gather path: an advanced read copies the selected elements out;
//! positions whose table entry is skipped (mode `fill`) read `fill[0]`.

use cubecl::prelude::*;

use super::grid::grid;
use super::region::{RegionArg, SKIP, TABLE, axis_sum, target_at};
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// `out[p] = source[base + table[table_index(p)] + target_offset(p)]`, or the
/// fill value where the table entry is [`SKIP`].
#[cube(launch)]
pub(crate) fn gather<T: Numeric>(source: &[T], table: &[i32], fill: &[T], out: &mut [T], region: &RegionArg) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let entry = table[axis_sum(position, region, TABLE) as usize];
        if entry == SKIP {
            out[position as usize] = fill[0];
        } else {
            out[position as usize] = source[(target_at(position, region) + entry) as usize];
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
            region.arg(),
        );
    }
    out
}
