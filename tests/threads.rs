//! Results are identical for every thread count: large reads (which run on
//! the rayon pool above a size threshold) and updates, in pools of 1, 2 and
//! 8 threads, compared bit for bit.

use ndarray::{Array1, Array2, ArrayD, Axis, s};
use tensor_at::{at, set};

fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
}

/// A pseudo-random index stream (SplitMix64), reproducible.
fn indices(count: usize, below: usize, seed: u64) -> Array1<i64> {
    Array1::from_iter((0..count as u64).map(|i| {
        let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((((z ^ (z >> 31)) >> 32) * below as u64) >> 32) as i64
    }))
}

fn bits(a: &ArrayD<f32>) -> Vec<u32> {
    a.iter().map(|v| v.to_bits()).collect()
}

/// Every read and update of the check, as one list of results.
fn run_all() -> Vec<ArrayD<f32>> {
    let x = Array2::from_shape_fn((3000, 64), |(i, j)| (i * 64 + j) as f32 * 0.5);
    let rows = indices(5000, 3000, 1);
    let flat = indices(200_000, 3000 * 64, 2);
    let flat_x = x.iter().copied().collect::<Array1<f32>>();
    let mask = Array1::from_iter((0..3000).map(|i| i % 3 != 1));
    let reversed = x.slice(s![..;-1, ..;2]);
    let mut with_out_of_bounds = rows.clone();
    with_out_of_bounds[7] = 99_999;
    let mut sums = Array1::<f32>::zeros(3000);
    at!(sums[rows] += flat_x.slice(s![..5000]));
    let updated = set!(flat_x[flat] += 0.25);
    let (sums_at, maxima, counts, products) = accumulations();
    vec![
        at!(x[rows]).into_dyn(),
        at!(flat_x[flat]).into_dyn(),
        at!(x[mask]).into_dyn(),
        at!(reversed[rows, 3]).into_dyn(),
        at!(x[with_out_of_bounds, ..]; mode = fill(-1.0)).into_dyn(),
        at!(x[:, [5, 1, 5]]).into_dyn(),
        x.select(Axis(0), &[0, 2999]).into_dyn(),
        sums.into_dyn(),
        updated.into_dyn(),
        sums_at.into_dyn(),
        maxima.into_dyn(),
        counts.mapv(|c| c as f32).into_dyn(),
        products.mapv(f32::from).into_dyn(),
    ]
}

/// Large accumulating scatters: float sums whose value depends on the
/// order of the additions (serial), and, on every thread of the pool above
/// a size threshold, maxima with NaNs and signed zeros, and integer counts
/// and products that wrap.
fn accumulations() -> (Array1<f32>, Array1<f32>, Array1<i64>, Array1<u8>) {
    let (idx, values) = accumulation_inputs();
    let mut sums = Array1::<f32>::from_elem(1000, 0.1);
    at!(sums[idx] += values);
    let mut maxima = Array1::<f32>::zeros(1000);
    at!(maxima[idx].max(values));
    let mut counts = Array1::<i64>::zeros(1000);
    at!(counts[idx] += 1);
    let mut products = Array1::<u8>::ones(1000);
    let factors = values.mapv(|v| if v.is_nan() { 3 } else { (v.abs() as u64 % 7 + 1) as u8 });
    at!(products[idx] *= factors);
    (sums, maxima, counts, products)
}

/// 300,000 indices into 1000 slots, values spanning many magnitudes (so a
/// sum in another order rounds differently), every 997th a NaN, every
/// 1009th a negative zero.
fn accumulation_inputs() -> (Array1<i64>, Array1<f32>) {
    let idx = indices(300_000, 1000, 3);
    let values = Array1::from_iter(indices(300_000, 1 << 20, 4).iter().enumerate().map(|(k, &r)| match k % 997 {
        0 => f32::NAN,
        _ if k % 1009 == 0 => -0.0,
        _ => (r as f32 - 524_288.0) * 10f32.powi((k % 9) as i32 - 4),
    }));
    (idx, values)
}

#[test]
fn large_accumulations_apply_in_index_order_for_every_thread_count() {
    // The reference: the plain serial loop, each update in index order.
    let (idx, values) = accumulation_inputs();
    let mut sums = vec![0.1f32; 1000];
    let mut maxima = vec![0.0f32; 1000];
    let mut counts = vec![0i64; 1000];
    let mut products = vec![1u8; 1000];
    for (&i, &v) in idx.iter().zip(&values) {
        let i = i as usize;
        sums[i] += v;
        // NumPy's `maximum`: NaN propagates; of equal values the second wins.
        maxima[i] = if maxima[i].is_nan() || maxima[i] > v { maxima[i] } else { v };
        counts[i] += 1;
        let factor = if v.is_nan() { 3 } else { (v.abs() as u64 % 7 + 1) as u8 };
        products[i] = products[i].wrapping_mul(factor);
    }
    let as_bits = |a: &[f32]| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for threads in [1, 2, 3, 8] {
        let (got_sums, got_maxima, got_counts, got_products) = in_pool(threads, accumulations);
        assert_eq!(as_bits(got_sums.as_slice().unwrap()), as_bits(&sums), "sums with {threads} threads");
        assert_eq!(
            as_bits(got_maxima.as_slice().unwrap()),
            as_bits(&maxima),
            "maxima with {threads} threads"
        );
        assert_eq!(got_counts.as_slice().unwrap(), counts.as_slice(), "counts with {threads} threads");
        assert_eq!(
            got_products.as_slice().unwrap(),
            products.as_slice(),
            "products with {threads} threads"
        );
    }
}

#[test]
fn identical_results_for_one_two_and_eight_threads() {
    let one = in_pool(1, run_all);
    for threads in [2, 8] {
        let many = in_pool(threads, run_all);
        for (k, (a, b)) in one.iter().zip(&many).enumerate() {
            assert_eq!(a.shape(), b.shape(), "result {k} with {threads} threads");
            assert_eq!(bits(a), bits(b), "result {k} with {threads} threads");
        }
    }
    // And the parallel reads are right: the row gather equals ndarray's own
    // `select`, and row 7 of the fill read is all fill.
    let x = Array2::from_shape_fn((3000, 64), |(i, j)| (i * 64 + j) as f32 * 0.5);
    let rows: Vec<usize> = indices(5000, 3000, 1).iter().map(|&i| i as usize).collect();
    let gathered = in_pool(2, || at!(x[rows]));
    assert_eq!(gathered, x.select(Axis(0), &rows));
    assert!(many_rows_fill(&one[4]));
}

fn many_rows_fill(read: &ArrayD<f32>) -> bool {
    read.index_axis(Axis(0), 7).iter().all(|&v| v == -1.0) && read.index_axis(Axis(0), 6).iter().all(|&v| v >= 0.0)
}
