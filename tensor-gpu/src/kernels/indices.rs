//! Index arrays on the device: the bounds check that runs before any write
//! (the first out-of-bounds element of each array, found with an atomic
//! minimum), and the pass that folds an array's positions into a region's
//! offset table, each index resolved by the mode as the CPU resolves it.
//!
//! An index array is walked as a region ([`RegionArg`], its base the
//! array's origin): `LEN` holds the axes walked and `TARGET` the array's
//! strides along them. The bounds check walks the array's own shape, so a
//! unit's position is the element's position in C order; the fold walks
//! the broadcast table's shape, with stride zero where the array
//! broadcasts.

use cubecl::prelude::*;

use super::grid::grid;
use super::region::{RegionArg, SKIP, target_at};
use crate::buffer::Buffer;
use crate::device::Gpu;

/// How an index outside `[-n, n)` resolves, as a kernel's compile-time
/// parameter (tensor-core's `Bounds`).
#[derive(CubeType, Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Resolve {
    /// Checked before: every index is in bounds.
    InBounds,
    /// Clamped into the axis.
    Clip,
    /// Modulo the axis length.
    Wrap,
    /// The position is skipped.
    Skip,
}

/// `-n <= index < n` (`index < n` for an unsigned type).
#[cube]
fn in_bounds<I: Int>(index: I, len: I, #[comptime] signed: bool) -> bool {
    if signed {
        index >= I::from_int(0) - len && index < len
    } else {
        index < len
    }
}

/// Where `index` lands on an axis of `len > 0` positions, or [`SKIP`].
#[cube]
fn position<I: Int>(index: I, len: I, #[comptime] signed: bool, #[comptime] resolve: Resolve) -> i32 {
    let zero = I::from_int(0);
    let mut at = index;
    if in_bounds::<I>(index, len, signed) {
        if signed && index < zero {
            at = index + len;
        }
    } else {
        match resolve {
            Resolve::InBounds => {}
            Resolve::Clip => {
                at = len - I::from_int(1);
                if signed && index < zero {
                    at = zero;
                }
            }
            Resolve::Wrap => {
                at = index % len;
                if signed && at < zero {
                    at += len;
                }
            }
            Resolve::Skip => {
                at = I::from_int(-1);
            }
        }
    }
    let mut result = i32::cast_from(at);
    if comptime!(resolve == Resolve::Skip) && !in_bounds::<I>(index, len, signed) {
        result = SKIP;
    }
    result
}

/// `faults[slot] = min(faults[slot], p)` for every element `p` (in the
/// array's C order) outside `[-axis_len, axis_len)`.
#[cube(launch)]
fn first_out_of_bounds<I: Int>(
    index: &[I],
    faults: &mut [Atomic<u32>],
    walk: &RegionArg,
    axis_len: i32,
    slot: u32,
    #[comptime] signed: bool,
) {
    let p = ABSOLUTE_POS as u32;
    if p < walk.len {
        let element = index[target_at(p, walk) as usize];
        if !in_bounds::<I>(element, I::cast_from(axis_len), signed) {
            faults[slot as usize].fetch_min(p);
        }
    }
}

/// `table[p] += position(index) * stride` over the broadcast table, [`SKIP`]
/// where either is skipped.
#[cube(launch)]
fn add_positions<I: Int>(
    index: &[I],
    table: &mut [i32],
    walk: &RegionArg,
    axis_len: i32,
    stride: i32,
    #[comptime] signed: bool,
    #[comptime] resolve: Resolve,
) {
    let p = ABSOLUTE_POS as u32;
    if p < walk.len {
        let element = index[target_at(p, walk) as usize];
        let at = position::<I>(element, I::cast_from(axis_len), signed, resolve);
        let entry = table[p as usize];
        if entry == SKIP || at == SKIP {
            table[p as usize] = SKIP;
        } else {
            table[p as usize] = entry + at * stride;
        }
    }
}

/// `out[..len] = value` (a constant of the kernel: only a few are used).
#[cube(launch)]
fn fill<T: Numeric>(out: &mut [T], len: u32, #[comptime] value: i64) {
    let p = ABSOLUTE_POS as u32;
    if p < len {
        out[p as usize] = T::from_int(value);
    }
}

/// A new buffer of `len` copies of `value`, written on the device.
pub(crate) fn filled<T: Numeric + CubeElement + Into<i64>>(gpu: &Gpu, value: T, len: usize) -> Buffer<T> {
    let out = Buffer::<T>::empty(gpu.client(), len);
    let (count, dim) = grid(len);
    fill::launch::<T>(gpu.client(), count, dim, out.arg(), len as u32, value.into());
    out
}

/// An index array on the device, walked over `meta`'s axes (see the module
/// comment).
pub(crate) struct IndexWalk<'b, I> {
    pub(crate) buffer: &'b Buffer<I>,
    pub(crate) meta: Buffer<i32>,
    pub(crate) ndim: u32,
    pub(crate) origin: i32,
    pub(crate) len: usize,
}

/// Lowers `faults[slot]` to the first position of `walk` (its own C order)
/// out of bounds of an axis of `axis_len`.
pub(crate) fn check_bounds<I: Int + CubeElement>(
    gpu: &Gpu,
    walk: &IndexWalk<'_, I>,
    faults: &Buffer<u32>,
    axis_len: usize,
    slot: usize,
    signed: bool,
) {
    if walk.len == 0 {
        return;
    }
    let (count, dim) = grid(walk.len);
    first_out_of_bounds::launch::<I>(
        gpu.client(),
        count,
        dim,
        walk.buffer.arg(),
        faults.arg(),
        walk.arg(),
        axis_len as i32,
        slot as u32,
        signed,
    );
}

/// Folds the positions `walk` picks along an axis of `axis_len` elements
/// `stride` apart into `table` (one entry per position of the walk).
pub(crate) fn fold_positions<I: Int + CubeElement>(
    gpu: &Gpu,
    walk: &IndexWalk<'_, I>,
    table: &Buffer<i32>,
    (axis_len, stride): (usize, isize),
    signed: bool,
    resolve: Resolve,
) {
    if walk.len == 0 {
        return;
    }
    let (count, dim) = grid(walk.len);
    add_positions::launch::<I>(
        gpu.client(),
        count,
        dim,
        walk.buffer.arg(),
        table.arg(),
        walk.arg(),
        axis_len as i32,
        stride as i32,
        signed,
        resolve,
    );
}
