//! Exclusive prefix sums of `u32` counts, in place: each unit scans a chunk
//! serially, the chunk totals are scanned the same way (recursively), and
//! each element then adds its chunk's offset. Integer sums, so the result
//! does not depend on scheduling.

use cubecl::prelude::*;

use super::grid::grid;
use crate::buffer::Buffer;
use crate::device::Gpu;

/// Elements each unit scans serially.
const CHUNK: u32 = 256;

/// Chunk `c` of `data` becomes its exclusive scan; `totals[c]` its sum.
#[cube(launch)]
fn scan_chunks(data: &mut [u32], totals: &mut [u32], len: u32, chunk: u32) {
    let c = ABSOLUTE_POS as u32;
    let start = c * chunk;
    if start < len {
        let end = min(start + chunk, len);
        let mut sum = 0u32;
        for i in start..end {
            let count = data[i as usize];
            data[i as usize] = sum;
            sum += count;
        }
        totals[c as usize] = sum;
    }
}

/// Adds the scanned total of each element's chunk.
#[cube(launch)]
fn add_chunk_offsets(data: &mut [u32], offsets: &[u32], len: u32, chunk: u32) {
    let i = ABSOLUTE_POS as u32;
    if i < len {
        data[i as usize] += offsets[(i / chunk) as usize];
    }
}

/// Replaces `data` by its exclusive prefix sum; returns a one-element buffer
/// holding the total.
pub(crate) fn exclusive_scan(gpu: &Gpu, data: &Buffer<u32>) -> Buffer<u32> {
    let client = gpu.client();
    if data.len == 0 {
        return Buffer::from_slice(gpu, &[0]);
    }
    let chunks = data.len.div_ceil(CHUNK as usize).max(1);
    let totals = Buffer::<u32>::empty(client, chunks);
    let (count, dim) = grid(chunks);
    scan_chunks::launch(client, count, dim, data.arg(), totals.arg(), data.len as u32, CHUNK);
    if chunks == 1 {
        return totals;
    }
    let total = exclusive_scan(gpu, &totals);
    let (count, dim) = grid(data.len);
    add_chunk_offsets::launch(client, count, dim, data.arg(), totals.arg(), data.len as u32, CHUNK);
    total
}
