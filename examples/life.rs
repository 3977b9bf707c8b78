//! Conway's game of life on a grid whose border is a ring of always-dead
//! cells: neighbour counts are sums of eight shifted slices, and the rule is
//! applied through a boolean mask.
//!
//! The NumPy original (after N. Rougier, "From Python to NumPy"):
//!
//! ```python
//! def step(Z):
//!     N = np.zeros_like(Z)
//!     N[1:-1, 1:-1] += (Z[:-2, :-2] + Z[:-2, 1:-1] + Z[:-2, 2:] +
//!                       Z[1:-1, :-2]               + Z[1:-1, 2:] +
//!                       Z[2:, :-2]  + Z[2:, 1:-1]  + Z[2:, 2:])
//!     alive = (N == 3) | ((Z == 1) & (N == 2))
//!     Z[...] = 0
//!     Z[alive] = 1
//! ```
//!
//! Run with `cargo run --example life`.

use tensor_at::ndarray::{Array2, ArrayView1};
use tensor_at::{at, set};

fn step(z: &mut Array2<u8>) {
    // Only interior cells get counts, so the border can never come alive.
    let mut n = Array2::<u8>::zeros(z.dim());
    at!(n[1:-1, 1:-1] += &at!(z[:-2, :-2]) + &at!(z[:-2, 1:-1]) + at!(z[:-2, 2:])
                       + at!(z[1:-1, :-2])                      + at!(z[1:-1, 2:])
                       + at!(z[2:, :-2])   + at!(z[2:, 1:-1])   + at!(z[2:, 2:]));

    // The mask sugar (`at!(z[n == 3] = 1)`) takes a single comparison, so the
    // combined mask `(N == 3) | ((Z == 1) & (N == 2))` is built with ndarray.
    let is = |a: &Array2<u8>, v: u8| a.mapv(|x| x == v);
    let alive = &is(&n, 3) | &(&is(z, 1) & &is(&n, 2));
    at!(z[...] = 0);
    at!(z[alive] = 1);
}

fn show(z: &Array2<u8>) -> String {
    let row = |r: ArrayView1<u8>| r.iter().map(|&c| if c == 1 { '#' } else { '.' }).collect::<String>();
    z.rows().into_iter().map(row).collect::<Vec<_>>().join("\n")
}

fn live_cells(z: &Array2<u8>) -> Vec<[usize; 2]> {
    z.indexed_iter().filter(|&(_, &c)| c == 1).map(|((i, j), _)| [i, j]).collect()
}

fn main() {
    // A glider heading down and to the right: Z[1, 2] = Z[2, 3] = Z[3, 1:4] = 1
    let mut z = Array2::<u8>::zeros((8, 8));
    at!(z[[1, 2], [2, 3]] = 1);
    at!(z[3, 1:4] = 1);
    let start = z.clone();
    println!("generation 0:\n{}\n", show(&z));

    for _ in 0..4 {
        step(&mut z);
    }
    println!("generation 4:\n{}\n", show(&z));
    // Four generations move a glider one cell down and one right.
    let moved = set!(Array2::<u8>::zeros((8, 8))[1:, 1:] = at!(start[:-1, :-1]));
    assert_eq!(z, moved);
    // np.argwhere(Z).tolist() after 4 steps of the NumPy original.
    assert_eq!(live_cells(&z), [[2, 3], [3, 4], [4, 2], [4, 3], [4, 4]]);

    for _ in 4..16 {
        step(&mut z);
    }
    println!("generation 16:\n{}", show(&z));
    // NumPy again: the dead border stops the glider, which settles into a block.
    assert_eq!(live_cells(&z), [[5, 5], [5, 6], [6, 5], [6, 6]]);
    let before = z.clone();
    step(&mut z);
    assert_eq!(z, before, "a block is a still life");
}
