//! The fused mask pass with a scalar on every thread: each element's test
//! and write depend on that element alone, so pieces of the target are
//! independent and the result is the serial pass's.

use rayon::prelude::*;

use crate::element::{Arith, Compare};
use crate::exec::kernel::Kernel;
use crate::exec::masked;
use crate::exec::sys::cpu::Isa;

/// Elements a piece holds a multiple of: a cache line of the widest
/// element, so that two threads share no line inside an aligned slice.
const PIECE_MULTIPLE: usize = 64;

/// Updates every element `e` of `elements` for which `e compare scalar`
/// holds with `value`, in up to `parts` pieces on the pool's threads.
pub(crate) fn write_scalar_where<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    elements: &mut [T],
    compare: Compare,
    scalar: T,
    value: T,
    kernel: K,
    parts: usize,
    isa: Isa,
) {
    let piece = elements.len().div_ceil(parts.max(1)).max(1).next_multiple_of(PIECE_MULTIPLE);
    let predicate = |e: &T| compare.holds(e, &scalar);
    elements
        .par_chunks_mut(piece)
        .for_each(|piece| masked::write_slice_where(piece, predicate, &value, kernel, isa));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::kernel::{AddOp, OpKernel, SetKernel};

    /// Every number of pieces, and lengths that do not divide, give the
    /// serial loop's result.
    #[test]
    fn pieces_equal_the_serial_loop() {
        for len in [0, 1, 63, 64, 65, 1000, 4099] {
            let start: Vec<i64> = (0..len as i64).map(|k| (k * 7919) % 101 - 50).collect();
            for parts in [1, 2, 3, 8] {
                let mut set = start.clone();
                write_scalar_where(&mut set, Compare::Lt, 0, -1, SetKernel::new(), parts, Isa::detect());
                let expected: Vec<i64> = start.iter().map(|&e| if e < 0 { -1 } else { e }).collect();
                assert_eq!(set, expected, "set, {len} elements, {parts} parts");

                let mut add = start.clone();
                write_scalar_where(&mut add, Compare::Ge, 10, 3, OpKernel::<AddOp>::new(), parts, Isa::detect());
                let expected: Vec<i64> = start.iter().map(|&e| if e >= 10 { e + 3 } else { e }).collect();
                assert_eq!(add, expected, "add, {len} elements, {parts} parts");
            }
        }
    }
}
