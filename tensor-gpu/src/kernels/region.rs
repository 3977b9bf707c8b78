//! Where position `p` of a region lands: the region's axes are described by
//! a `meta` buffer of [`FIELDS`] `i32`s per axis, and a position decomposes
//! over them in C order (its last axis fastest).

use cubecl::prelude::*;

/// Entries per axis in `meta`: length, target stride, value stride, table stride.
pub(crate) const FIELDS: usize = 4;
/// The axis length.
pub(crate) const LEN: u32 = 0;
/// The distance between positions along the axis in the target (zero on table axes).
pub(crate) const TARGET: u32 = 1;
/// The distance along the axis in the value (zero where the value broadcasts).
pub(crate) const VALUE: u32 = 2;
/// The distance along the axis within the offset table (zero on strided axes).
pub(crate) const TABLE: u32 = 3;

/// A table entry for a position skipped by mode `drop` or `fill`.
pub(crate) const SKIP: i32 = i32::MIN;

/// `sum over axes a of index_a(position) * meta[a][field]`: the offset of
/// `position` along one of the strides.
#[cube]
pub(crate) fn axis_sum(position: u32, meta: &[i32], ndim: u32, #[comptime] field: u32) -> i32 {
    let mut rest = position;
    let mut sum = 0i32;
    for k in 0..ndim {
        let at = ((ndim - 1 - k) * 4) as usize;
        let len = meta[at + LEN as usize] as u32;
        sum += (rest % len) as i32 * meta[at + field as usize];
        rest /= len;
    }
    sum
}
