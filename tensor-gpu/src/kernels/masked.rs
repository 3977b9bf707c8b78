//! The fused mask path: `x[x < s] op= v` with a scalar `v`, the predicate
//! evaluated and the element written by the same unit in one pass, with no
//! mask in memory. (Array values need each selected element's rank:
//! [`compact`](super::compact).)

use cubecl::prelude::*;

use super::combine::{Combine, combine};
use super::grid::grid;
use super::region::{TARGET, axis_sum};
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::error::GpuError;
use crate::layout::DeviceRegion;
use tensor_core::Compare;

/// A [`Compare`] as a kernel's compile-time parameter.
#[derive(CubeType, Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Predicate {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// `Compare` may grow in a tensor-core release before this crate has its
/// kernel: such a comparison is refused before anything runs.
impl TryFrom<Compare> for Predicate {
    type Error = GpuError;
    fn try_from(compare: Compare) -> Result<Self, GpuError> {
        Ok(match compare {
            Compare::Lt => Predicate::Lt,
            Compare::Le => Predicate::Le,
            Compare::Gt => Predicate::Gt,
            Compare::Ge => Predicate::Ge,
            Compare::Eq => Predicate::Eq,
            Compare::Ne => Predicate::Ne,
            _ => return Err(GpuError::newer_core("this comparison")),
        })
    }
}

/// `element compare threshold` on the device; NaN compares false except
/// with `Ne`, as on the host.
#[cube]
pub(crate) fn holds<T: Numeric>(element: T, threshold: T, #[comptime] compare: Predicate) -> bool {
    match compare {
        Predicate::Lt => element < threshold,
        Predicate::Le => element <= threshold,
        Predicate::Gt => element > threshold,
        Predicate::Ge => element >= threshold,
        Predicate::Eq => element == threshold,
        Predicate::Ne => !(element == threshold),
    }
}

/// `target[p] op= operands[1]` where `target[p] compare operands[0]`.
#[cube(launch)]
fn update_where<T: Numeric>(
    target: &mut [T],
    operands: &[T],
    meta: &[i32],
    base: i32,
    ndim: u32,
    len: u32,
    #[comptime] compare: Predicate,
    #[comptime] op: Combine,
) {
    let position = ABSOLUTE_POS as u32;
    if position < len {
        let at = (base + axis_sum(position, meta, ndim, TARGET)) as usize;
        let element = target[at];
        if holds::<T>(element, operands[0], compare) {
            target[at] = combine::<T>(element, operands[1], op);
        }
    }
}

/// `flags[p] = 1` where the predicate holds at `p`, else 0.
#[cube(launch)]
fn mark_where<T: Numeric>(
    target: &[T],
    operands: &[T],
    flags: &mut [u32],
    meta: &[i32],
    base: i32,
    ndim: u32,
    len: u32,
    #[comptime] compare: Predicate,
) {
    let position = ABSOLUTE_POS as u32;
    if position < len {
        let at = (base + axis_sum(position, meta, ndim, TARGET)) as usize;
        flags[position as usize] = select(holds::<T>(target[at], operands[0], compare), 1u32, 0u32);
    }
}

/// `target[region][predicate] op= value` for a scalar `value`, in one pass.
pub(crate) fn update_where_scalar<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    (compare, threshold): (Predicate, T),
    op: Combine,
    value: T,
) {
    let client = gpu.client();
    let operands = gpu.constant(&[threshold, value]);
    let (count, dim) = grid(region.len);
    update_where::launch::<T>(
        client,
        count,
        dim,
        target.arg(),
        operands.arg(),
        region.meta.arg(),
        region.base,
        region.ndim,
        region.len as u32,
        compare,
        op,
    );
}

/// One flag per position of the region: whether the predicate holds there.
pub(crate) fn mark<T: Numeric + CubeElement>(
    gpu: &Gpu,
    target: &Buffer<T>,
    region: &DeviceRegion,
    (compare, threshold): (Predicate, T),
) -> Buffer<u32> {
    let client = gpu.client();
    let operands = gpu.constant(&[threshold]);
    let flags = Buffer::<u32>::empty(client, region.len);
    let (count, dim) = grid(region.len);
    mark_where::launch::<T>(
        client,
        count,
        dim,
        target.arg(),
        operands.arg(),
        flags.arg(),
        region.meta.arg(),
        region.base,
        region.ndim,
        region.len as u32,
        compare,
    );
    flags
}
