//! Results are identical whatever machine the chooser is told it runs on
//! (`tensor_core::forced_machine`, as the workloads bench's `--machine`
//! forces it): an L2 that every output and share passes or none does, rows
//! stored plainly, streamed, or in the timed turns that measure which is
//! faster, fills past the cache stored plainly or streamed, and every
//! instruction-set ceiling, each on one thread and on two, compared bit
//! for bit with the plain loop.
//!
//! The machine is the process's: while this test forces one, the suite's
//! other tests run on it too, and must pass there as well.

use ndarray::{Array1, Array2, ArrayD, Axis, s};
use tensor_at::{along, at};
use tensor_core::forced_machine::{FillStores, ForcedMachine, IsaCeiling, RowStores, force};

use super::threads::{in_pool, indices};

/// Elements of the large targets: 8 MB of `f32`, past the sizes at which
/// the chooser may stream copies and rows or split by destination.
const LEN: usize = 1 << 21;
/// The length of a row of the grid view of the target (1 KB).
const ROW: usize = 256;
/// Rows gathered and written by rows (4 MB of output).
const ROWS: usize = 4096;
/// Rows of a target past the size the chooser takes to be out of the
/// cache (32 MB), into which a row scatter measures how rows store
/// fastest, where that is not yet known; as many rows gathered make an
/// output of that size, into which a row gather measures (where rows may
/// stream: with AVX-512F).
const FAR_ROWS: usize = (32 << 20) / (ROW * 4) + 64;
/// Single elements updated.
const UPDATES: usize = 1 << 17;

struct Inputs {
    x: Array1<f32>,
    rows: Array1<i64>,
    far_rows: Array1<i64>,
    flat: Array1<i64>,
    values: Array1<f32>,
    picks: Array2<i64>,
}

impl Inputs {
    fn new() -> Inputs {
        let x = Array1::from_shape_fn(LEN, |i| i as f32 * 0.25);
        // Values of many magnitudes: a sum in another order rounds
        // differently.
        let values = indices(UPDATES, 1 << 20, 10).mapv(|r| (r as f32 - 524_288.0) * [1e-3, 1.0, 1e3][r as usize % 3]);
        Inputs {
            x,
            rows: indices(ROWS, LEN / ROW, 7),
            far_rows: indices(FAR_ROWS, LEN / ROW, 11),
            flat: indices(UPDATES, LEN, 8),
            values,
            picks: indices(LEN / ROW * 4, ROW, 9).into_shape_with_order((LEN / ROW, 4)).unwrap(),
        }
    }

    fn grid(&self) -> ndarray::ArrayView2<'_, f32> {
        self.x.view().into_shape_with_order((LEN / ROW, ROW)).unwrap()
    }

    /// Every call of the check, through `at!`.
    fn run(&self) -> Vec<ArrayD<f32>> {
        let Inputs {
            x,
            rows,
            far_rows,
            flat,
            values,
            picks,
        } = self;
        let grid = self.grid();
        let mut fill = x.clone();
        at!(fill[1..] = 0.5);
        let mut copy = x.clone();
        at!(copy[..LEN / 2] = x.slice(s![LEN / 2..]));
        let mut sums = x.clone();
        at!(sums[flat] += values);
        let mut sets = x.clone();
        at!(sets[flat] = values);
        let mut row_sets = grid.to_owned();
        at!(row_sets[rows] = grid.slice(s![..ROWS, ..]));
        let mut far_row_sets = Array2::from_elem((FAR_ROWS, ROW), -1.0f32);
        at!(far_row_sets[rows] = grid.slice(s![..ROWS, ..]));
        let mut masked = x.clone();
        at!(masked[x % 3.0 == 0.0] = -1.0);
        let mut along_sums = grid.to_owned();
        at!(along_sums[along(picks, 1)] += 2.0);
        let mut far_gathered_into = Array2::from_elem((FAR_ROWS, ROW), -1.0f32);
        at!(grid[far_rows]; out = far_gathered_into);
        // Fills past the cache: a scalar, and a row broadcast.
        let mut far_fill = Array2::from_elem((FAR_ROWS, ROW), -1.0f32);
        at!(far_fill[1.., 2..] = 0.5);
        let mut far_broadcast = Array2::from_elem((FAR_ROWS, ROW), -1.0f32);
        at!(far_broadcast[3.., ..] = grid.slice(s![5, ..]));
        vec![
            fill.into_dyn(),
            copy.into_dyn(),
            sums.into_dyn(),
            sets.into_dyn(),
            row_sets.into_dyn(),
            far_row_sets.into_dyn(),
            masked.into_dyn(),
            along_sums.into_dyn(),
            at!(grid[rows]).into_dyn(),
            at!(grid[far_rows]).into_dyn(),
            far_gathered_into.into_dyn(),
            far_fill.into_dyn(),
            far_broadcast.into_dyn(),
            at!(x[flat]).into_dyn(),
            at!(grid[along(picks, 1)]).into_dyn(),
        ]
    }

    /// The same, each a plain loop in index order.
    fn expected(&self) -> Vec<ArrayD<f32>> {
        let Inputs {
            x,
            rows,
            far_rows,
            flat,
            values,
            picks,
        } = self;
        let grid = self.grid();
        let rows: Vec<usize> = rows.iter().map(|&r| r as usize).collect();
        let fill = Array1::from_shape_fn(LEN, |i| if i == 0 { x[0] } else { 0.5 });
        let copy = Array1::from_shape_fn(LEN, |i| x[i % (LEN / 2) + LEN / 2]);
        let (mut sums, mut sets) = (x.clone(), x.clone());
        for (&i, &v) in flat.iter().zip(values) {
            sums[i as usize] += v;
            sets[i as usize] = v;
        }
        let mut row_sets = grid.to_owned();
        let mut far_row_sets = Array2::from_elem((FAR_ROWS, ROW), -1.0f32);
        for (k, &r) in rows.iter().enumerate() {
            row_sets.row_mut(r).assign(&grid.row(k));
            far_row_sets.row_mut(r).assign(&grid.row(k));
        }
        let masked = x.mapv(|v| if v % 3.0 == 0.0 { -1.0 } else { v });
        let mut along_sums = grid.to_owned();
        for ((i, _), &p) in picks.indexed_iter() {
            along_sums[[i, p as usize]] += 2.0;
        }
        let far_rows: Vec<usize> = far_rows.iter().map(|&r| r as usize).collect();
        let far_gathered = grid.select(Axis(0), &far_rows);
        let gathered_along = Array2::from_shape_fn(picks.dim(), |(i, k)| grid[[i, picks[[i, k]] as usize]]);
        let far_fill = Array2::from_shape_fn((FAR_ROWS, ROW), |(i, j)| if i >= 1 && j >= 2 { 0.5 } else { -1.0 });
        let far_broadcast = Array2::from_shape_fn((FAR_ROWS, ROW), |(i, j)| if i >= 3 { grid[[5, j]] } else { -1.0 });
        vec![
            fill.into_dyn(),
            copy.into_dyn(),
            sums.into_dyn(),
            sets.into_dyn(),
            row_sets.into_dyn(),
            far_row_sets.into_dyn(),
            masked.into_dyn(),
            along_sums.into_dyn(),
            grid.select(Axis(0), &rows).into_dyn(),
            far_gathered.clone().into_dyn(),
            far_gathered.into_dyn(),
            far_fill.into_dyn(),
            far_broadcast.into_dyn(),
            flat.mapv(|i| x[i as usize]).into_dyn(),
            gathered_along.into_dyn(),
        ]
    }
}

/// Machines whose descriptions take every branch of the chooser.
fn machines() -> Vec<(&'static str, ForcedMachine)> {
    let l2 = |bytes| ForcedMachine {
        l2: Some(bytes),
        ..ForcedMachine::default()
    };
    let (tiny, huge) = (l2(16 << 10), l2(1 << 30));
    vec![
        (
            "a tiny L2, rows and fills streamed",
            ForcedMachine {
                rows: Some(RowStores::Streamed),
                fills: Some(FillStores::Streamed),
                ..tiny
            },
        ),
        (
            "a tiny L2, rows and fills stored plainly",
            ForcedMachine {
                rows: Some(RowStores::Plain),
                fills: Some(FillStores::Plain),
                ..tiny
            },
        ),
        (
            "a huge L2, rows and fills streamed",
            ForcedMachine {
                rows: Some(RowStores::Streamed),
                fills: Some(FillStores::Streamed),
                ..huge
            },
        ),
        (
            "a huge L2, rows and fills stored plainly",
            ForcedMachine {
                rows: Some(RowStores::Plain),
                fills: Some(FillStores::Plain),
                ..huge
            },
        ),
        (
            "a tiny L2, the baseline, rows measured",
            ForcedMachine {
                isa: Some(IsaCeiling::Baseline),
                rows: Some(RowStores::Unmeasured),
                ..tiny
            },
        ),
        (
            "a tiny L2, rows measured",
            ForcedMachine {
                rows: Some(RowStores::Unmeasured),
                ..tiny
            },
        ),
        (
            "a huge L2, AVX2",
            ForcedMachine {
                isa: Some(IsaCeiling::Avx2),
                ..huge
            },
        ),
    ]
}

fn bits(results: &[ArrayD<f32>]) -> Vec<(Vec<usize>, Vec<u32>)> {
    results
        .iter()
        .map(|a| (a.shape().to_vec(), a.iter().map(|v| v.to_bits()).collect()))
        .collect()
}

#[test]
#[cfg_attr(miri, ignore = "Miri's machine is fixed, and its tests take every branch on it (scripts/miri)")]
fn every_machine_the_chooser_may_be_told_of_gives_the_plain_loops_results() {
    let inputs = Inputs::new();
    let expected = bits(&inputs.expected());
    // Forced back at the end even when an assertion fails.
    struct Unforce;
    impl Drop for Unforce {
        fn drop(&mut self) {
            force(None);
        }
    }
    let _unforce = Unforce;
    for (name, machine) in machines() {
        force(Some(machine));
        for threads in [1, 2] {
            let got = bits(&in_pool(threads, || inputs.run()));
            for (k, (got, expected)) in got.iter().zip(&expected).enumerate() {
                assert!(got == expected, "result {k} on {name}, {threads} threads");
            }
        }
    }
}
