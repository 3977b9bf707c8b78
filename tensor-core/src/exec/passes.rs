//! The planner's passes over whole index arrays ([`IndexPasses`]) as the
//! CPU runs them: bounds checks branch-free, in chunks, built for AVX2
//! where the processor has it (the baseline x86-64 instruction set has no
//! 64-bit comparison to vectorize with), on several threads for long
//! arrays; offset tables on huge pages.

use crate::exec::sys::cpu::Isa;
use crate::exec::sys::pages;
use crate::index::{IndexInt, IntArray, with_int_array};
use crate::plan::{IndexPasses, Serial, all_in_bounds, all_in_range};

/// The CPU's passes: `isa`'s instructions, and `threads` threads for
/// arrays of at least `min_parallel` indices (the chooser's picks).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CpuPasses {
    pub(crate) isa: Isa,
    pub(crate) threads: usize,
    pub(crate) min_parallel: usize,
    /// Whether an `along` index's bounds are left to the gather's walk
    /// ([`IndexPasses::defers_along_bounds`]).
    pub(crate) defers_along: bool,
}

impl CpuPasses {
    /// Whether `len` indices are split among the threads.
    #[cfg_attr(not(threads), allow(dead_code))]
    fn parallel(&self, len: usize) -> bool {
        cfg!(threads) && self.threads > 1 && len >= self.min_parallel
    }
}

// SAFETY: every index is tested, by chunks (each chunk whole, on one
// thread); each offset is added to by one thread, as `Serial` adds it;
// the table is a new vector (`try_output`); and
// `cpu_passes_equal_the_serial_ones` compares with `Serial`.
unsafe impl IndexPasses for CpuPasses {
    fn first_out_of_bounds(&self, indices: &IntArray<'_>, len: usize) -> Option<i128> {
        with_int_array!(indices, a => match a.as_slice() {
            Some(indices) if !self.all_in_bounds(indices, len) => {
                indices.iter().find(|i| !i.in_bounds(len)).map(|&i| i.to_i128())
            }
            Some(_) => None,
            None => Serial.first_out_of_bounds(&IndexInt::wrap_array(a.view().into()), len),
        })
    }

    fn all_in_range(&self, indices: &IntArray<'_>, len: usize) -> bool {
        with_int_array!(indices, a => match a.as_slice() {
            Some(indices) => self.all_chunks(indices, &|chunk| chunk_in_range(chunk, len, self.isa)),
            None => Serial.all_in_range(&IndexInt::wrap_array(a.view().into()), len),
        })
    }

    fn add_positions(&self, offsets: &mut [isize], indices: &IntArray<'_>, len: usize, stride: isize) {
        with_int_array!(indices, a => match a.as_slice() {
            Some(indices) => self.add_slice(offsets, indices, len, stride),
            None => Serial.add_positions(offsets, &IndexInt::wrap_array(a.view().into()), len, stride),
        })
    }

    fn table(&self, len: usize) -> Option<Vec<isize>> {
        // Huge pages for a large table: its page faults would cost more
        // than filling it.
        pages::try_output(len)
    }

    fn defers_along_bounds(&self) -> bool {
        self.defers_along
    }
}

impl CpuPasses {
    /// Whether every index lies in `[-len, len)`; the culprit is looked for
    /// only when there is one.
    fn all_in_bounds<I: IndexInt>(&self, indices: &[I], len: usize) -> bool {
        self.all_chunks(indices, &|chunk| chunk_in_bounds(chunk, len, self.isa))
    }

    /// Whether `chunk_ok` holds for every chunk of `indices`, on the
    /// threads where they are many; on one thread, stopping at the first
    /// chunk for which it fails.
    fn all_chunks<I: IndexInt>(&self, indices: &[I], chunk_ok: &(dyn Fn(&[I]) -> bool + Sync)) -> bool {
        #[cfg(threads)]
        if self.parallel(indices.len()) {
            let oks = crate::exec::parallel::map_pieces(indices.chunks(self.min_parallel).collect(), chunk_ok);
            return oks.into_iter().all(|ok| ok);
        }
        indices.chunks(1024).all(chunk_ok)
    }

    /// `offsets[k] += position(indices[k]) * stride` for in-bounds indices
    /// (each offset written by one thread).
    fn add_slice<I: IndexInt>(&self, offsets: &mut [isize], indices: &[I], len: usize, stride: isize) {
        let add = |(offsets, indices): (&mut [isize], &[I])| {
            for (offset, &i) in offsets.iter_mut().zip(indices) {
                *offset += i.position(len) as isize * stride;
            }
        };
        #[cfg(threads)]
        if self.parallel(indices.len()) {
            let chunk = self.min_parallel;
            let pieces = offsets.chunks_mut(chunk).zip(indices.chunks(chunk)).collect();
            return crate::exec::parallel::for_each_piece(pieces, &add);
        }
        add((offsets, indices));
    }
}

/// Whether every index of `chunk` lies in `[-len, len)`: branch-free, so it
/// vectorizes, built for AVX2 where `isa` has it.
pub(crate) fn chunk_in_bounds<I: IndexInt>(chunk: &[I], len: usize, isa: Isa) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: `isa` says the processor has AVX2 (only detection says so).
        return unsafe { chunk_in_bounds_avx2(chunk, len) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    all_in_bounds(chunk, len)
}

/// [`all_in_bounds`] built for AVX2.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_in_bounds_avx2<I: IndexInt>(chunk: &[I], len: usize) -> bool {
    all_in_bounds(chunk, len)
}

/// Whether every index of `chunk` lies in `[0, len)` (no negative one to
/// wrap), with `isa`'s instructions.
pub(crate) fn chunk_in_range<I: IndexInt>(chunk: &[I], len: usize, isa: Isa) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: `isa` says the processor has AVX2 (only detection says so).
        return unsafe { chunk_in_range_avx2(chunk, len) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    all_in_range(chunk, len)
}

/// [`all_in_range`] built for AVX2.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_in_range_avx2<I: IndexInt>(chunk: &[I], len: usize) -> bool {
    all_in_range(chunk, len)
}

#[cfg(all(test, threads))]
mod tests {
    use ndarray::{Array1, Array2, ShapeBuilder};

    use super::*;

    /// The CPU's passes give the serial passes' results on every array:
    /// long and short, split or not, contiguous or not, with a bad index at
    /// chunk edges, for every instruction set the processor has.
    #[cfg(threads)]
    #[test]
    fn cpu_passes_equal_the_serial_ones() {
        let len = 1000;
        let mut arrays: Vec<Array1<i64>> = Vec::new();
        for n in [0usize, 1, 1023, 1024, 1025, 5000] {
            let good: Array1<i64> = (0..n as i64).map(|k| (k * 7919 % 1999) - 999).collect();
            arrays.push(good.clone());
            for at in [0, 1023, 1024, n / 2, n.saturating_sub(1)].into_iter().filter(|&at| at < n) {
                for bad in [-1001, 1000, i64::MIN, i64::MAX] {
                    let mut array = good.clone();
                    array[at] = bad;
                    if at + 10 < n {
                        array[at + 10] = -2000;
                    }
                    arrays.push(array);
                }
            }
        }
        let isas = [Isa::baseline(), Isa::detect()];
        for isa in isas {
            for (threads, min_parallel) in [(1, 64), (2, 64), (4, 1024), (2, 1 << 20)] {
                let passes = CpuPasses {
                    isa,
                    threads,
                    min_parallel,
                    defers_along: false,
                };
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| {
                    for array in &arrays {
                        let index = IndexInt::wrap_array(array.view().into_dyn().into());
                        let expected = Serial.first_out_of_bounds(&index, len);
                        assert_eq!(passes.first_out_of_bounds(&index, len), expected, "{threads} threads");
                        let direct = array.iter().all(|&i| (0..len as i64).contains(&i));
                        assert_eq!(passes.all_in_range(&index, len), direct, "{threads} threads");
                        if expected.is_none() {
                            let (mut serial, mut cpu) = (vec![3isize; array.len()], vec![3isize; array.len()]);
                            Serial.add_positions(&mut serial, &index, len, -7);
                            passes.add_positions(&mut cpu, &index, len, -7);
                            assert_eq!(cpu, serial, "{threads} threads");
                        }
                    }
                });
            }
        }
        // A strided (not contiguous) array takes the serial pass.
        let strided = Array2::from_shape_vec((3, 2).f(), vec![0u32, 1, 2, 3, 4, 5]).unwrap();
        let index = IndexInt::wrap_array(strided.view().into_dyn().into());
        let passes = CpuPasses {
            isa: Isa::detect(),
            threads: 2,
            min_parallel: 1,
            defers_along: false,
        };
        assert_eq!(passes.first_out_of_bounds(&index, 4), Some(4));
        assert_eq!(passes.first_out_of_bounds(&index, 6), None);
    }
}

#[cfg(test)]
mod range {
    use super::{Isa, chunk_in_bounds, chunk_in_range};
    use crate::index::IndexInt;

    /// The block tests give a plain comparison's answers, for every
    /// instruction set the processor has, each index type, and a value at
    /// each edge of the range in any place of a block.
    #[test]
    fn block_tests_equal_a_plain_comparison() {
        fn check<I: IndexInt + TryFrom<i64>>(len: usize) {
            let edges: Vec<I> = [
                -(len as i64) - 1,
                -(len as i64),
                -1,
                0,
                len as i64 - 1,
                len as i64,
                i64::MIN,
                i64::MAX,
            ]
            .into_iter()
            .filter_map(|v| I::try_from(v).ok())
            .collect();
            let good: Vec<I> = (0..37).filter_map(|k| I::try_from(k * 7 % len as i64).ok()).collect();
            for isa in [Isa::baseline(), Isa::detect()] {
                for &edge in &edges {
                    for at in [0, 5, 36] {
                        let mut block = good.clone();
                        block[at] = edge;
                        let value = edge.to_i128();
                        let n = len as i128;
                        assert_eq!(chunk_in_range(&block, len, isa), (0..n).contains(&value), "{value} of {len}");
                        assert_eq!(chunk_in_bounds(&block, len, isa), (-n..n).contains(&value), "{value} of {len}");
                    }
                }
                assert!(chunk_in_range(&good, len, isa) && chunk_in_range::<I>(&[], len, isa));
            }
        }
        check::<i64>(1000);
        check::<u64>(1000);
        check::<i32>(1000);
        check::<u32>(1000);
    }
}
