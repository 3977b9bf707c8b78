//! Stable sort of a region's positions by destination: the first half of
//! every scatter with possible duplicates. Afterwards the positions writing
//! one element are adjacent, in index order, so a segment per destination
//! can be applied by one unit in index order.
//!
//! An LSD radix sort on 4-bit digits: each unit counts the digits of a chunk
//! of keys, the counts (digit-major) are prefix-summed, then each unit
//! scatters its chunk serially, which keeps equal keys in their order.

use cubecl::prelude::*;

use super::grid::grid;
use super::region::{RegionArg, SKIP, TABLE, axis_sum, target_at};
use super::scan::exclusive_scan;
use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::layout::DeviceRegion;

/// Bits per radix pass.
const DIGIT_BITS: u32 = 4;
/// Keys each unit counts and scatters serially.
const CHUNK: u32 = 256;

/// `keys[p]` = 1 + the element position `p` writes, or 0 where its table
/// entry is skipped (mode `drop`); `order[p] = p`.
#[cube(launch)]
fn destinations(table: &[i32], keys: &mut [u32], order: &mut [u32], region: &RegionArg) {
    let position = ABSOLUTE_POS as u32;
    if position < region.len {
        let entry = table[axis_sum(position, region, TABLE) as usize];
        let mut key = 0u32;
        if entry != SKIP {
            key = (target_at(position, region) + entry) as u32 + 1;
        }
        keys[position as usize] = key;
        order[position as usize] = position;
    }
}

/// `counts[digit * chunks + c]`: how many keys of chunk `c` have `digit`.
#[cube(launch)]
fn count_digits(keys: &[u32], counts: &mut [u32], len: u32, shift: u32, chunk: u32, chunks: u32) {
    let c = ABSOLUTE_POS as u32;
    if c < chunks {
        let mut local = Array::<u32>::new(16usize);
        #[unroll]
        for d in 0..16usize {
            local[d] = 0u32;
        }
        let start = c * chunk;
        let end = min(start + chunk, len);
        for i in start..end {
            let digit = (keys[i as usize] >> shift) & 15u32;
            local[digit as usize] += 1u32;
        }
        #[unroll]
        for d in 0..16usize {
            counts[d * chunks as usize + c as usize] = local[d];
        }
    }
}

/// Moves chunk `c`'s keys (and their positions) to their places: `offsets`
/// holds the scanned counts, so equal digits keep their order.
#[cube(launch)]
fn scatter_digits(
    keys: &[u32],
    order: &[u32],
    offsets: &[u32],
    keys_out: &mut [u32],
    order_out: &mut [u32],
    len: u32,
    shift: u32,
    chunk: u32,
    chunks: u32,
) {
    let c = ABSOLUTE_POS as u32;
    if c < chunks {
        let mut next = Array::<u32>::new(16usize);
        #[unroll]
        for d in 0..16usize {
            next[d] = offsets[d * chunks as usize + c as usize];
        }
        let start = c * chunk;
        let end = min(start + chunk, len);
        for i in start..end {
            let key = keys[i as usize];
            let digit = ((key >> shift) & 15u32) as usize;
            let at = next[digit] as usize;
            next[digit] += 1u32;
            keys_out[at] = key;
            order_out[at] = order[i as usize];
        }
    }
}

/// The destinations of a region's positions, sorted stably: `(keys, order)`
/// with `keys` ascending (0 = skipped, first) and `order[k]` the position
/// whose destination is `keys[k] - 1`. `target_len` bounds the keys.
pub(crate) fn by_destination(gpu: &Gpu, region: &DeviceRegion, target_len: usize) -> (Buffer<u32>, Buffer<u32>) {
    let client = gpu.client();
    let len = region.len;
    let mut keys = Buffer::<u32>::empty(client, len);
    let mut order = Buffer::<u32>::empty(client, len);
    let (count, dim) = grid(len);
    destinations::launch(client, count, dim, region.table.arg(), keys.arg(), order.arg(), region.arg());
    // Keys go up to `target_len`: sort only the digits that can be set.
    let bits = usize::BITS - target_len.leading_zeros();
    let chunks = len.div_ceil(CHUNK as usize);
    let (chunk_count, chunk_dim) = grid(chunks);
    let mut keys_out = Buffer::<u32>::empty(client, len);
    let mut order_out = Buffer::<u32>::empty(client, len);
    for shift in (0..bits).step_by(DIGIT_BITS as usize) {
        let counts = Buffer::<u32>::empty(client, 16 * chunks);
        count_digits::launch(
            client,
            chunk_count.clone(),
            chunk_dim,
            keys.arg(),
            counts.arg(),
            len as u32,
            shift,
            CHUNK,
            chunks as u32,
        );
        exclusive_scan(gpu, &counts);
        scatter_digits::launch(
            client,
            chunk_count.clone(),
            chunk_dim,
            keys.arg(),
            order.arg(),
            counts.arg(),
            keys_out.arg(),
            order_out.arg(),
            len as u32,
            shift,
            CHUNK,
            chunks as u32,
        );
        std::mem::swap(&mut keys, &mut keys_out);
        std::mem::swap(&mut order, &mut order_out);
    }
    (keys, order)
}
