//! Results are identical for every thread count: large reads (which run on
//! the rayon pool above a size threshold) and updates, in pools of 1, 2 and
//! 8 threads, compared bit for bit.
//!
//! Under Miri the tests run on arrays thousands of times smaller
//! ([`size`]), which still take every path there: the thresholds that pick
//! the paths shrink with them. scripts/miri runs a part of them, one test
//! for each path; a test ignored under Miri names the tests that take its
//! paths there.

use ndarray::{Array1, Array2, ArrayD, Axis, ShapeBuilder, s};
use tensor_at::{along, at, set, try_at};

/// `native`, or `miri` under Miri, whose thresholds (tensor-core's
/// `choose::machine`) shrink so that the smaller size takes the same paths.
const fn size(native: usize, miri: usize) -> usize {
    if cfg!(miri) { miri } else { native }
}

/// The thread counts a test compares: `native`, or under Miri two alone,
/// since each count is a whole run there (the longest of scripts/miri).
/// Two takes every parallel path there: each threshold that admits three
/// threads there admits two (tensor-core's `choose::machine`), and the odd
/// lengths of the inputs below split into pieces of unequal length.
fn thread_counts<const N: usize>(native: [usize; N]) -> Vec<usize> {
    if cfg!(miri) { vec![2] } else { native.to_vec() }
}

/// Runs `f` on a pool of `threads` threads, one pool per count for the
/// whole binary (starting threads is most of a small test's time under
/// Miri).
pub(crate) fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    static POOLS: std::sync::Mutex<Vec<(usize, std::sync::Arc<rayon::ThreadPool>)>> = std::sync::Mutex::new(Vec::new());
    let pool = {
        let mut pools = POOLS.lock().unwrap();
        match pools.iter().find(|(count, _)| *count == threads) {
            Some((_, pool)) => pool.clone(),
            None => {
                let pool = std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap());
                pools.push((threads, pool.clone()));
                pool
            }
        }
    };
    pool.install(f)
}

/// A pseudo-random index stream (SplitMix64), reproducible.
pub(crate) fn indices(count: usize, below: usize, seed: u64) -> Array1<i64> {
    Array1::from_iter((0..count as u64).map(|i| {
        let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((((z ^ (z >> 31)) >> 32) * below as u64) >> 32) as i64
    }))
}

/// [`indices`], one in every `every` of them counted from the end (`i -
/// below`, the same position), as NumPy reads a negative index.
fn indices_some_negative(count: usize, below: usize, seed: u64, every: usize) -> Array1<i64> {
    let negative = |(k, &i): (usize, &i64)| if k % every == 0 { i - below as i64 } else { i };
    Array1::from_iter(indices(count, below, seed).iter().enumerate().map(negative))
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
    let mut sums = Array1::<f32>::from_elem(SLOTS, 0.1);
    at!(sums[idx] += values);
    let mut maxima = Array1::<f32>::zeros(SLOTS);
    at!(maxima[idx].max(values));
    let mut counts = Array1::<i64>::zeros(SLOTS);
    at!(counts[idx] += 1);
    let mut products = Array1::<u8>::ones(SLOTS);
    let factors = values.mapv(|v| if v.is_nan() { 3 } else { (v.abs() as u64 % 7 + 1) as u8 });
    at!(products[idx] *= factors);
    (sums, maxima, counts, products)
}

/// The slots of the accumulations.
const SLOTS: usize = size(1000, 50);

/// 300,000 indices into [`SLOTS`] slots, values spanning many magnitudes (so a
/// sum in another order rounds differently), every 997th a NaN, every
/// 1009th a negative zero.
fn accumulation_inputs() -> (Array1<i64>, Array1<f32>) {
    let count = size(300_000, 2_100);
    let idx = indices(count, SLOTS, 3);
    let values = Array1::from_iter(indices(count, 1 << 20, 4).iter().enumerate().map(|(k, &r)| match k % 997 {
        0 => f32::NAN,
        _ if k % 1009 == 0 => -0.0,
        // Exact powers of ten from a table: `powi` may round differently
        // from call to call (Miri makes it do so).
        _ => (r as f32 - 524_288.0) * [1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4][k % 9],
    }));
    (idx, values)
}

#[test]
fn large_accumulations_apply_in_index_order_for_every_thread_count() {
    // The reference: the plain serial loop, each update in index order.
    let (idx, values) = accumulation_inputs();
    let mut sums = vec![0.1f32; SLOTS];
    let mut maxima = vec![0.0f32; SLOTS];
    let mut counts = vec![0i64; SLOTS];
    let mut products = vec![1u8; SLOTS];
    for (&i, &v) in idx.iter().zip(&values) {
        let i = i as usize;
        sums[i] += v;
        // NumPy's `maximum`: NaN propagates; of equal values the second wins.
        maxima[i] = if maxima[i].is_nan() || maxima[i] > v { maxima[i] } else { v };
        counts[i] += 1;
        let factor = if v.is_nan() { 3 } else { (v.abs() as u64 % 7 + 1) as u8 };
        products[i] = products[i].wrapping_mul(factor);
    }
    // Any NaN as one: which NaN an operation gives is not specified (Miri
    // picks one at random), only that it is NaN.
    let as_bits = |a: &[f32]| {
        a.iter()
            .map(|v| if v.is_nan() { f32::NAN } else { *v }.to_bits())
            .collect::<Vec<_>>()
    };
    for threads in thread_counts([1, 2, 3, 8]) {
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
#[cfg_attr(
    miri,
    ignore = "its reads and updates take the paths of the gather, accumulation and set tests below, which run under Miri"
)]
fn identical_results_for_one_two_and_eight_threads() {
    let one = in_pool(1, run_all);
    for threads in thread_counts([2, 8]) {
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

/// The rows of the large gathers' target.
const GATHERED_ROWS: usize = size(700, 70);

/// The inputs of the large gathers: a target, rows of it, the same target
/// flat and points of it, and rows with every 97th out of bounds.
struct Gathers {
    x: Array2<i64>,
    rows: Array1<i64>,
    flat: Array1<i64>,
    points: Array1<i64>,
    wild: Array1<i64>,
}

impl Gathers {
    fn new() -> Gathers {
        let x = Array2::from_shape_fn((GATHERED_ROWS, 30), |(i, j)| (i * 30 + j) as i64);
        let rows = indices(size(100_000, 200), GATHERED_ROWS, 5);
        let flat = Array1::from_iter(x.iter().copied());
        let points = indices(size(300_000, 300), x.len(), 6);
        let mut wild = rows.clone();
        for k in (0..wild.len()).step_by(97) {
            wild[k] = if k % 2 == 0 { -1_000_000 } else { (GATHERED_ROWS + k) as i64 };
        }
        Gathers {
            x,
            rows,
            flat,
            points,
            wild,
        }
    }

    /// The view the gathers read: negative and non-unit strides.
    fn view(&self) -> ndarray::ArrayView2<'_, i64> {
        self.x.slice(s![..;-1, 1..;3])
    }

    /// The rows, points and fill-mode rows read with a plain loop.
    fn expected(&self) -> (Array2<i64>, Array1<i64>, Array2<i64>) {
        let view = self.view();
        let rows = Array2::from_shape_fn((self.rows.len(), 10), |(k, j)| view[[self.rows[k] as usize, j]]);
        let points = self.points.mapv(|p| self.flat[p as usize]);
        let wild = Array2::from_shape_fn((self.wild.len(), 10), |(k, j)| match self.wild[k] {
            r if (0..GATHERED_ROWS as i64).contains(&r) => view[[r as usize, j]],
            _ => -1,
        });
        (rows, points, wild)
    }
}

/// Large gathers of every block shape the parallel path handles (rows of a
/// reversed, strided view; single elements, with no index counted from the
/// end and with some; out-of-bounds positions read as the fill value), each
/// equal to a plain loop for 1, 2 and 8 threads.
#[test]
fn parallel_gathers_equal_a_plain_loop_for_every_thread_count() {
    let inputs = Gathers::new();
    let (expected_rows, expected_points, expected_wild) = inputs.expected();
    let Gathers {
        rows, flat, points, wild, ..
    } = &inputs;
    let view = inputs.view();
    // The same points, every third counted from the end.
    let from_end = Array1::from_iter(
        points
            .iter()
            .enumerate()
            .map(|(k, &p)| if k % 3 == 0 { p - flat.len() as i64 } else { p }),
    );
    for threads in thread_counts([1, 2, 8]) {
        let (got_rows, got_points, got_from_end, got_wild) = in_pool(threads, || {
            (
                at!(view[rows, ..]),
                at!(flat[points]),
                at!(flat[from_end]),
                at!(view[wild]; mode = fill(-1)),
            )
        });
        assert_eq!(got_rows, expected_rows, "rows with {threads} threads");
        assert_eq!(got_points, expected_points, "points with {threads} threads");
        assert_eq!(got_from_end, expected_points, "points from the end with {threads} threads");
        assert_eq!(got_wild, expected_wild, "fill with {threads} threads");
    }
}

/// Gathers of long rows into a large output, which stream their rows past
/// the cache where the processor stores whole cache lines at once (rows of
/// 130 `f32`s, so that most start off a line and end in a partial one):
/// fresh and into an existing array, each equal to a plain loop for 1, 2
/// and 8 threads.
#[test]
fn long_row_gathers_into_a_large_output_equal_a_plain_loop_for_every_thread_count() {
    // (34 under Miri: rows of 136 bytes, off a line too.)
    let (len, row) = (size(3_000, 60), size(130, 34));
    let x = Array2::from_shape_fn((len, row), |(i, j)| (i * row + j) as f32);
    let rows = indices(size(20_000, 40), len, 9);
    let expected = Array2::from_shape_fn((rows.len(), row), |(k, j)| x[[rows[k] as usize, j]]);
    for threads in thread_counts([1, 2, 8]) {
        let mut into = Array2::from_elem((rows.len(), row), -1.0);
        let fresh = in_pool(threads, || {
            at!(x[rows]; out = into);
            at!(x[rows])
        });
        assert_eq!(fresh, expected, "fresh with {threads} threads");
        assert_eq!(into, expected, "into an array with {threads} threads");
    }
}

/// The same large gathers read into existing arrays (`; out = buf`): in C
/// order (the parallel path writes it in place), in Fortran order and into
/// a column of another array (one element at a time), a mask read (gathered,
/// then copied), each equal to a plain loop for 1, 2 and 8 threads.
#[test]
fn parallel_gathers_into_an_array_equal_a_plain_loop_for_every_thread_count() {
    let inputs = Gathers::new();
    let (expected_rows, expected_points, expected_wild) = inputs.expected();
    let Gathers {
        x,
        rows,
        flat,
        points,
        wild,
    } = &inputs;
    let view = inputs.view();
    let mask = Array1::from_iter(rows.iter().take(GATHERED_ROWS).map(|&r| r % 3 == 0));
    let kept: Vec<usize> = (0..GATHERED_ROWS).filter(|&i| mask[i]).collect();
    let expected_masked = Array2::from_shape_fn((kept.len(), 30), |(k, j)| x[[kept[k], j]]);
    for threads in thread_counts([1, 2, 8]) {
        let mut c_rows = Array2::from_elem((rows.len(), 10), 7);
        let mut f_rows = Array2::from_elem((rows.len(), 10).f(), 7);
        let mut wide = Array2::from_elem((points.len(), 3), 7);
        let mut filled = Array2::from_elem((wild.len(), 10), 7);
        let mut masked = Array2::from_elem((kept.len(), 30), 7);
        in_pool(threads, || {
            at!(view[rows, ..]; out = c_rows);
            at!(view[rows]; out = f_rows);
            at!(flat[points]; out = wide.column_mut(1));
            at!(view[wild]; mode = fill(-1), out = filled);
            at!(x[mask]; out = masked);
        });
        assert_eq!(c_rows, expected_rows, "C-ordered rows with {threads} threads");
        assert_eq!(f_rows, expected_rows, "Fortran-ordered rows with {threads} threads");
        assert_eq!(wide.column(1), expected_points, "a column with {threads} threads");
        assert!(
            wide.column(0).iter().chain(wide.column(2)).all(|&v| v == 7),
            "only the column is written"
        );
        assert_eq!(filled, expected_wild, "fill with {threads} threads");
        assert_eq!(masked, expected_masked, "a mask with {threads} threads");
    }
}

/// Large mask reads (the fused path for a mask over the leading axes of a
/// C-ordered target, copying runs of true positions, streamed past the
/// cache when large; a reversed view takes the general path), each equal to
/// a plain loop for 1, 2 and 8 threads.
#[test]
fn parallel_mask_gathers_equal_a_plain_loop_for_every_thread_count() {
    // Runs of every length: a bit from the index stream, held for 1-4 positions.
    let (rows_len, (ci, cj), (fi, fj)) = (size(40_000, 200), (size(100, 10), size(50, 5)), (size(300, 30), size(1000, 100)));
    let random = indices(size(300_000, 3_000), 1 << 20, 9);
    let bit = |k: usize| (random[k / (1 + k % 4)] & 1) == 1;
    // Rows of 240 bytes (i64) and of 120 bytes (f32: runs not 16-byte aligned), outputs of MBs.
    let x = Array2::from_shape_fn((rows_len, 30), |(i, j)| (i * 30 + j) as i64);
    let xf = x.mapv(|v| v as f32 * 0.5);
    let rows = Array1::from_shape_fn(rows_len, bit);
    let cube = ndarray::Array3::from_shape_fn((ci, cj, 20), |(i, j, k)| (i * 1000 + j * 20 + k) as i64);
    let plane = Array2::from_shape_fn((ci, cj), |(i, j)| bit(i * cj + j));
    let flat = Array2::from_shape_fn((fi, fj), |(i, j)| (i * fj + j) as i64);
    let every = Array2::from_shape_fn((fi, fj), |(i, j)| bit(i * fj + j));
    let none = Array1::from_elem(rows_len, false);
    let reversed = x.slice(s![..;-1, ..]);

    let rows_of =
        |x: &ndarray::ArrayView2<i64>| -> Vec<i64> { (0..rows_len).filter(|&i| rows[i]).flat_map(|i| x.row(i).to_vec()).collect() };
    let expected_rows = rows_of(&x.view());
    let expected_floats: Vec<f32> = expected_rows.iter().map(|&v| v as f32 * 0.5).collect();
    let expected_reversed = rows_of(&reversed);
    let expected_cube: Vec<i64> = (0..ci * cj)
        .filter(|&p| plane[[p / cj, p % cj]])
        .flat_map(|p| cube.slice(s![p / cj, p % cj, ..]).to_vec())
        .collect();
    let expected_every: Vec<i64> = flat.iter().zip(every.iter()).filter(|&(_, &m)| m).map(|(&v, _)| v).collect();
    for threads in thread_counts([1, 2, 8]) {
        let (got_rows, got_floats, got_cube, got_every, got_none, got_reversed) = in_pool(threads, || {
            (
                at!(x[rows]),
                at!(xf[rows]),
                at!(cube[plane]),
                at!(flat[every]),
                at!(x[none]),
                at!(reversed[rows]),
            )
        });
        assert_eq!(got_rows.shape(), [expected_rows.len() / 30, 30]);
        assert_eq!(
            got_rows.iter().copied().collect::<Vec<_>>(),
            expected_rows,
            "rows with {threads} threads"
        );
        assert_eq!(
            got_floats.iter().copied().collect::<Vec<_>>(),
            expected_floats,
            "f32 rows with {threads} threads"
        );
        assert_eq!(got_cube.shape(), [expected_cube.len() / 20, 20]);
        assert_eq!(
            got_cube.iter().copied().collect::<Vec<_>>(),
            expected_cube,
            "blocks with {threads} threads"
        );
        assert_eq!(got_every.to_vec(), expected_every, "elements with {threads} threads");
        assert_eq!(got_none.shape(), [0, 30]);
        assert_eq!(
            got_reversed.iter().copied().collect::<Vec<_>>(),
            expected_reversed,
            "view with {threads} threads"
        );
    }
}

/// `x[i, j]` with both arrays read in place (offsets computed in the loop,
/// no table): reads, sets with duplicates (the last wins), float sums in
/// index order, on a reversed strided view and on a 3-D target (a row per
/// pair), each equal to a plain loop for 1, 2 and 8 threads. Mixed index
/// types take the general path and must agree; so must the read with no
/// index counted from the end.
#[test]
fn coordinate_pairs_equal_a_plain_loop_for_every_thread_count() {
    let (rows, columns, count) = (size(300, 30), size(200, 20), size(150_000, 300));
    let base = Array2::from_shape_fn((rows, 2 * columns), |(i, j)| (i * 2 * columns + j) as f32 * 0.25);
    let view = base.slice(s![..;-1, 1..;2]); // rows x columns, negative and non-unit strides
    let i = indices(count, rows, 10);
    let j = indices(count, columns, 11).mapv(|j| j - columns as i64); // negative: counted from the end
    let v = indices(count, 1000, 12).mapv(|v| v as f32 * 0.001);
    let at_pair = |k: usize| (i[k] as usize, (j[k] + columns as i64) as usize);
    let expected_read = Array1::from_shape_fn(i.len(), |k| view[at_pair(k)]);
    let (mut expected_set, mut expected_sum) = (view.to_owned(), view.to_owned());
    for k in 0..i.len() {
        expected_set[at_pair(k)] = v[k];
        expected_sum[at_pair(k)] += v[k];
    }
    let cube = ndarray::Array3::from_shape_fn((rows, columns, 3), |(a, b, c)| (a * 600 + b * 3 + c) as f32);
    let expected_rows = Array2::from_shape_fn((i.len(), 3), |(k, c)| cube[[at_pair(k).0, at_pair(k).1, c]]);
    let j32 = j.mapv(|j| j as i32);
    let j_from_start = j.mapv(|j| j + columns as i64);
    for threads in thread_counts([1, 2, 8]) {
        let (read, from_start, rows, mixed, set, sum) = in_pool(threads, || {
            let (mut set, mut sum) = (view.to_owned(), view.to_owned());
            at!(set[i, j] = v);
            at!(sum[i, j] += v);
            (
                at!(view[i, j]),
                at!(view[i, j_from_start]),
                at!(cube[i, j]),
                at!(view[i, j32]),
                set,
                sum,
            )
        });
        assert_eq!(read, expected_read, "read with {threads} threads");
        assert_eq!(from_start, expected_read, "read from the start with {threads} threads");
        assert_eq!(rows, expected_rows, "rows with {threads} threads");
        assert_eq!(mixed, expected_read, "mixed index types with {threads} threads");
        assert_eq!(set, expected_set, "set with {threads} threads");
        assert!(
            sum.iter().zip(&expected_sum).all(|(a, b)| a.to_bits() == b.to_bits()),
            "sum with {threads} threads"
        );
    }
}

/// Float sums and products into targets of several MB (split by
/// destination on two or more threads): bit for bit the plain loop's, with
/// negative indices, array and scalar values, `i64` and `u32` indices, an
/// axis that does not divide evenly among the threads, and a last block of
/// indices (of 4096) that sixteen at a time leave a few of.
#[test]
fn float_accumulations_into_a_large_target_equal_a_plain_loop_for_every_thread_count() {
    let len = size(1 << 20, 1 << 8) + 9;
    // Four times as many indices as slots (the checked, rolled-back path),
    // one in five counted from the end.
    let many = indices_some_negative(4 * len, len, 11, 5);
    let values = Array1::from_iter(indices(4 * len, 1 << 20, 12).iter().map(|&r| (r as f32 - 524_288.0) * 1e-3));
    // Fewer indices than slots into a larger target (resolved first, then split).
    let wide = 3 * len;
    let few = indices(size(200_000, 300), wide, 13).mapv(|i| i as u32);
    let factors = Array1::from_iter(indices(few.len(), 1000, 14).iter().map(|&r| 0.5 + r as f32 / 1000.0));
    let start = |n: usize| Array1::from_iter((0..n).map(|k| (k % 1013) as f32 * 0.25 - 100.0));

    let position = |i: i64, n: usize| if i < 0 { (i + n as i64) as usize } else { i as usize };
    let (mut sums, mut scalar_sums, mut products) = (start(len), start(len), start(wide));
    for (&i, &v) in many.iter().zip(&values) {
        sums[position(i, len)] += v;
        scalar_sums[position(i, len)] += 0.1;
    }
    for (&i, &f) in few.iter().zip(&factors) {
        products[i as usize] *= f;
    }
    let bits = |a: &Array1<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for threads in thread_counts([1, 2, 3, 8]) {
        let (got_sums, got_scalar_sums, got_products) = in_pool(threads, || {
            let (mut sums, mut scalar_sums, mut products) = (start(len), start(len), start(wide));
            at!(sums[many] += values);
            at!(scalar_sums[many] += 0.1);
            at!(products[few] *= factors);
            (sums, scalar_sums, products)
        });
        assert_eq!(bits(&got_sums), bits(&sums), "sums with {threads} threads");
        assert_eq!(bits(&got_scalar_sums), bits(&scalar_sums), "scalar sums with {threads} threads");
        assert_eq!(bits(&got_products), bits(&products), "products with {threads} threads");
    }
}

/// Large `set`s of primitive numbers (split by destination on two or more
/// threads, copied as bits): the last occurrence of each position wins, as
/// in the plain loop, for 4- and 8-byte elements, array and scalar values
/// and negative indices.
#[test]
fn large_sets_with_duplicates_equal_a_plain_loop_for_every_thread_count() {
    let (len, count) = (size(1 << 20, 300) + 5, size(300_000, 300));
    let idx = indices_some_negative(count, len, 21, 3);
    let values = Array1::from_iter((0..count).map(|k| k as f64 * 0.5 - 7.0));
    let narrow = values.mapv(|v| v as f32);
    let position = |i: i64| if i < 0 { (i + len as i64) as usize } else { i as usize };
    let (mut wide, mut single, mut marked) = (Array1::<f64>::zeros(len), Array1::<f32>::zeros(len), Array1::<i64>::ones(len));
    for (&i, (&v, &n)) in idx.iter().zip(values.iter().zip(&narrow)) {
        wide[position(i)] = v;
        single[position(i)] = n;
        marked[position(i)] = -3;
    }
    for threads in thread_counts([1, 2, 3, 8]) {
        let (got_wide, got_single, got_marked) = in_pool(threads, || {
            let (mut wide, mut single, mut marked) = (Array1::<f64>::zeros(len), Array1::<f32>::zeros(len), Array1::<i64>::ones(len));
            at!(wide[idx] = values);
            at!(single[idx] = narrow);
            at!(marked[idx] = -3);
            (wide, single, marked)
        });
        assert!(
            got_wide.iter().zip(&wide).all(|(a, b)| a.to_bits() == b.to_bits()),
            "f64 with {threads} threads"
        );
        assert!(
            got_single.iter().zip(&single).all(|(a, b)| a.to_bits() == b.to_bits()),
            "f32 with {threads} threads"
        );
        assert_eq!(got_marked, marked, "i64 with {threads} threads");
    }
}

/// `set`s into a target past the size the chooser takes to be out of the
/// cache (32 MB; split by destination there too, each thread asking for
/// its destinations ahead): the last occurrence wins, as in the plain
/// loop, with negative indices, array and scalar values.
#[test]
fn sets_into_a_target_past_the_cache_equal_a_plain_loop_for_every_thread_count() {
    let (len, count) = (size((36 << 20) / 4 + 5, 2000), size(500_000, 600));
    let idx = indices_some_negative(count, len, 22, 4);
    let values = Array1::from_iter((0..count).map(|k| k as f32 * 0.25 - 3.0));
    let position = |i: i64| if i < 0 { (i + len as i64) as usize } else { i as usize };
    let (mut from_values, mut from_scalar) = (Array1::<f32>::zeros(len), Array1::<f32>::zeros(len));
    for (&i, &v) in idx.iter().zip(&values) {
        from_values[position(i)] = v;
        from_scalar[position(i)] = -2.5;
    }
    let (from_values, from_scalar) = (bits(&from_values.into_dyn()), bits(&from_scalar.into_dyn()));
    for threads in thread_counts([1, 2, 8]) {
        let (got_values, got_scalar) = in_pool(threads, || {
            let (mut got_values, mut got_scalar) = (Array1::<f32>::zeros(len), Array1::<f32>::zeros(len));
            at!(got_values[idx] = values);
            at!(got_scalar[idx] = -2.5);
            (got_values, got_scalar)
        });
        assert!(bits(&got_values.into_dyn()) == from_values, "array values with {threads} threads");
        assert!(bits(&got_scalar.into_dyn()) == from_scalar, "a scalar with {threads} threads");
    }
}

/// Updates behind a slice (`x[:, idx]`, table rows at each row of the
/// slice) into a target past the size the chooser takes to be out of the
/// cache, where a set asks for its destinations ahead: an array and a
/// scalar set (the last occurrence of a column wins), one in mode `drop`
/// with columns out of bounds, and a sum of the repeated columns, each
/// equal to a plain loop for 1, 2 and 8 threads.
#[test]
fn updates_behind_a_slice_into_a_target_past_the_cache_equal_a_plain_loop_for_every_thread_count() {
    let (rows, cols) = (size(1_030, 9), size(8_200, 130));
    let idx = indices_some_negative(size(600, 40), cols, 41, 5);
    let wild = Array1::from_iter(idx.iter().enumerate().map(|(k, &j)| if k % 7 == 3 { j + cols as i64 } else { j }));
    let values = Array2::from_shape_fn((rows, idx.len()), |(r, k)| (r * 3 + k) as f32 * 0.5);
    let column = |j: i64| j.rem_euclid(cols as i64) as usize;
    let start = || Array2::from_shape_fn((rows, cols), |(r, c)| (r + c) as f32);
    let (mut set, mut scalar, mut dropped, mut summed) = (start(), start(), start(), start());
    for (k, (&j, &w)) in idx.iter().zip(&wild).enumerate() {
        for r in 0..rows {
            set[[r, column(j)]] = values[[r, k]];
            if r >= 1 {
                scalar[[r, column(j)]] = -2.5;
            }
            if w < cols as i64 {
                dropped[[r, column(w)]] = values[[r, k]];
            }
            summed[[r, column(j)]] += values[[r, k]];
        }
    }
    for threads in thread_counts([1, 2, 8]) {
        let got = in_pool(threads, || {
            let (mut set, mut scalar, mut dropped, mut summed) = (start(), start(), start(), start());
            at!(set[.., idx] = values);
            at!(scalar[1.., idx] = -2.5);
            at!(dropped[.., wild] = values; mode = drop);
            at!(summed[.., idx] += values);
            (set, scalar, dropped, summed)
        });
        assert!(got.0 == set, "an array set with {threads} threads");
        assert!(got.1 == scalar, "a scalar set with {threads} threads");
        assert!(got.2 == dropped, "a set in mode drop with {threads} threads");
        assert!(got.3 == summed, "a sum with {threads} threads");
    }
}

/// Large row `set`s (`x[rows] = values`, split by destination rows on two
/// or more threads where the rows are long and the target in standard
/// layout): the last occurrence wins, as in the plain loop, with negative
/// indices, 32- and 64-bit elements, array and scalar values, rows too
/// short to split, and a target whose rows are not one after another.
#[test]
fn large_row_sets_equal_a_plain_loop_for_every_thread_count() {
    let len = size(20_011, 67);
    let idx = indices_some_negative(size(30_000, 200), len, 23, 4);
    let position = |i: i64| if i < 0 { (i + len as i64) as usize } else { i as usize };
    for row in [size(128, 16), size(16, 4)] {
        let values = Array2::from_shape_fn((idx.len(), row), |(k, j)| (k * row + j) as f64 * 0.25 - 9.0);
        let narrow = values.mapv(|v| v as f32);
        let start = || Array2::from_shape_fn((len, row + 3), |(i, j)| (i + j) as f64);
        let (mut wide, mut single, mut marked, mut strided) = (
            Array2::<f64>::zeros((len, row)),
            Array2::<f32>::zeros((len, row)),
            Array2::<i64>::ones((len, row)),
            start(),
        );
        for (k, &i) in idx.iter().enumerate() {
            wide.row_mut(position(i)).assign(&values.row(k));
            single.row_mut(position(i)).assign(&narrow.row(k));
            marked.row_mut(position(i)).fill(-3);
            strided.slice_mut(s![position(i), ..row]).assign(&values.row(k));
        }
        for threads in thread_counts([1, 2, 3, 8]) {
            let got = in_pool(threads, || {
                let (mut wide, mut single, mut marked, mut strided) = (
                    Array2::<f64>::zeros((len, row)),
                    Array2::<f32>::zeros((len, row)),
                    Array2::<i64>::ones((len, row)),
                    start(),
                );
                at!(wide[idx] = values);
                at!(single[idx] = narrow);
                at!(marked[idx] = -3);
                let mut view = strided.slice_mut(s![.., ..row]);
                at!(view[idx] = values);
                (wide, single, marked, strided)
            });
            assert!(
                got.0.iter().zip(&wide).all(|(a, b)| a.to_bits() == b.to_bits()),
                "f64, rows of {row}, {threads} threads"
            );
            assert!(
                got.1.iter().zip(&single).all(|(a, b)| a.to_bits() == b.to_bits()),
                "f32, rows of {row}, {threads} threads"
            );
            assert_eq!(got.2, marked, "i64, rows of {row}, {threads} threads");
            assert_eq!(got.3, strided, "strided rows of {row}, {threads} threads");
        }
    }
}

/// Large `set`s through a pair of index arrays (`x[i, j] = v`, split by
/// destination rows on two or more threads): the last occurrence wins, as
/// in the plain loop, with negative indices, `i32` and `i64` pairs, array
/// and scalar values, and a transposed target (not in standard layout).
#[test]
fn large_pair_sets_equal_a_plain_loop_for_every_thread_count() {
    let (rows, cols, count) = (size(1100, 30), size(1001, 31), size(300_000, 300));
    let i = indices_some_negative(count, rows, 31, 4);
    let j = indices(count, cols, 32);
    let (i32s, j32s) = (i.mapv(|v| v as i32), j.mapv(|v| v as i32));
    let values = Array1::from_iter((0..count).map(|k| k as f32 * 0.25 - 9.0));
    let at_rc = |r: i64, c: i64| ((if r < 0 { r + rows as i64 } else { r }) as usize, c as usize);
    let mut expected = Array2::<f32>::zeros((rows, cols));
    let mut marked = Array2::<f64>::ones((rows, cols));
    for ((&r, &c), &v) in i.iter().zip(&j).zip(&values) {
        expected[at_rc(r, c)] = v;
        marked[at_rc(r, c)] = -2.5;
    }
    let bits = |a: &Array2<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for threads in thread_counts([1, 2, 3, 8]) {
        let (wide, narrow, scalar, transposed) = in_pool(threads, || {
            let (mut wide, mut narrow) = (Array2::<f32>::zeros((rows, cols)), Array2::<f32>::zeros((rows, cols)));
            at!(wide[i, j] = values);
            at!(narrow[i32s, j32s] = values);
            let mut scalar = Array2::<f64>::ones((rows, cols));
            at!(scalar[i, j] = -2.5);
            let mut transposed = Array2::<f32>::zeros((cols, rows));
            let mut view = transposed.view_mut().reversed_axes();
            at!(view[i, j] = values);
            (wide, narrow, scalar, transposed.reversed_axes())
        });
        assert_eq!(bits(&wide), bits(&expected), "i64 pairs with {threads} threads");
        assert_eq!(bits(&narrow), bits(&expected), "i32 pairs with {threads} threads");
        assert_eq!(scalar, marked, "scalar with {threads} threads");
        assert_eq!(bits(&transposed), bits(&expected), "transposed with {threads} threads");
    }
}

/// The large float sum above fails on its first bad index, wherever the
/// bad ones fall among the threads' blocks, and leaves the target as it was.
#[test]
#[cfg_attr(
    miri,
    ignore = "its cases sit in blocks of 4096 indices, which do not shrink; \
              a_bad_index_in_a_large_regrouped_update_is_reported_in_index_order checks the threads' checks under Miri"
)]
fn a_bad_index_in_a_large_float_sum_is_reported_first_and_writes_nothing() {
    let len = (1 << 20) + 3;
    let values = Array1::from_elem(3 * len, 0.5f32);
    let x0 = Array1::from_iter((0..len).map(|k| k as f32));
    // (positions of bad indices, the one reported). Blocks of 4096 indices
    // are checked by threads in turn: the first two cases put the bad ones
    // in blocks of different threads (odd and even), the first found by a
    // thread that starts later; the last has one, at the very end.
    let cases: [(&[(usize, i64)], i64); 3] = [
        (&[(5000, len as i64), (66_000, -(len as i64) - 1)], len as i64),
        (&[(9000, i64::MAX), (3 * len - 108, -5_000_000)], i64::MAX),
        (&[(3 * len - 1, -(len as i64) - 1)], -(len as i64) - 1),
    ];
    for (bad, reported) in cases {
        let mut idx = indices(3 * len, len, 15);
        for &(k, i) in bad {
            idx[k] = i;
        }
        for threads in thread_counts([1, 2, 3, 8]) {
            let mut x = x0.clone();
            let error = in_pool(threads, || tensor_at::try_at!(x[idx] += values)).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("index {reported} is out of bounds for axis 0 with size {len}"),
                "{threads} threads"
            );
            assert!(
                x.iter().zip(&x0).all(|(a, b)| a.to_bits() == b.to_bits()),
                "written with {threads} threads"
            );
        }
    }
}

/// Many indices of a regroupable operation (`maximum.at`, integer `add.at`)
/// are checked by the threads that apply them, each its own chunk: the
/// first bad index in index order is reported, even when a later chunk's
/// thread finds its own first, and the target is left as it was.
#[test]
fn a_bad_index_in_a_large_regrouped_update_is_reported_in_index_order() {
    let len = 1000;
    let count = size(300_000, 600);
    let values = indices(count, 1 << 20, 5).mapv(|v| v as f32);
    // (positions of bad indices, the one reported). With two threads the
    // first pair straddles the chunk boundary: the second chunk's thread
    // meets its bad index at once, the first's at its very end.
    let cases: [(&[(usize, i64)], i64); 3] = [
        (&[(count / 2 - 1, 1000), (count / 2, -1001)], 1000),
        (&[(10, i64::MIN), (count - 1, 5000)], i64::MIN),
        (&[(count - 1, -1001)], -1001),
    ];
    for (bad, reported) in cases {
        let mut idx = indices(count, len, 16);
        for &(k, i) in bad {
            idx[k] = i;
        }
        for threads in thread_counts([1, 2, 3, 8]) {
            let message = format!("index {reported} is out of bounds for axis 0 with size {len}");
            let mut maxima = Array1::from_iter((0..len).map(|k| k as f32));
            let error = in_pool(threads, || tensor_at::try_at!(maxima[idx].max(values))).unwrap_err();
            assert_eq!(error.to_string(), message, "maxima, {threads} threads");
            assert!(
                maxima.iter().enumerate().all(|(k, &m)| m == k as f32),
                "maxima written, {threads} threads"
            );
            let mut counts = Array1::<i64>::from_elem(len, 5);
            let error = in_pool(threads, || tensor_at::try_at!(counts[idx] += 1)).unwrap_err();
            assert_eq!(error.to_string(), message, "counts, {threads} threads");
            assert!(counts.iter().all(|&c| c == 5), "counts written, {threads} threads");
        }
    }
}

/// Fewer indices than twice the target's size are bounds-checked in a pass
/// of their own, then applied by chunks (the partials): equal to a plain
/// loop for every thread count.
#[test]
fn regrouped_updates_checked_beforehand_equal_a_plain_loop() {
    let (len, count) = (size(70_000, 700), size(100_000, 1000));
    let idx = indices(count, len, 17);
    let values = Array1::from_iter(indices(count, 1 << 20, 18).iter().enumerate().map(|(k, &r)| match k % 997 {
        0 => f32::NAN,
        _ if k % 1009 == 0 => -0.0,
        _ => r as f32 - 524_288.0,
    }));
    let mut maxima = vec![0.0f32; len];
    let mut counts = vec![3i64; len];
    for (&i, &v) in idx.iter().zip(&values) {
        let i = i as usize;
        maxima[i] = if maxima[i].is_nan() || maxima[i] > v { maxima[i] } else { v };
        counts[i] += 1;
    }
    for threads in thread_counts([1, 2, 3, 8]) {
        let mut got_maxima = Array1::<f32>::zeros(len);
        let mut got_counts = Array1::<i64>::from_elem(len, 3);
        in_pool(threads, || {
            at!(got_maxima[idx].max(values));
            at!(got_counts[idx] += 1);
        });
        let same_bits = got_maxima.iter().zip(&maxima).all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same_bits, "maxima with {threads} threads");
        assert_eq!(got_counts.as_slice().unwrap(), counts.as_slice(), "counts with {threads} threads");
    }
}

/// A large accumulation whose last index is out of bounds fails before the
/// parallel partial sums touch anything, for every thread count.
#[test]
fn a_bad_index_at_the_end_of_a_large_parallel_update_writes_nothing() {
    let count = size(300_000, 600);
    let mut idx = indices(count, 1000, 7);
    idx[count - 1] = 1000;
    for threads in thread_counts([1, 2, 8]) {
        let mut counts = Array1::<i64>::from_elem(1000, 5);
        let error = in_pool(threads, || tensor_at::try_at!(counts[idx] += 1)).unwrap_err();
        assert_eq!(error.to_string(), "index 1000 is out of bounds for axis 0 with size 1000");
        assert!(counts.iter().all(|&c| c == 5), "written with {threads} threads");
    }
}

/// An element whose `Clone` panics on one value, counting the live
/// instances: a panic must drop the elements already cloned into the
/// unfinished result, leaking none.
#[derive(Debug, PartialEq)]
struct Fragile(u32);

const POISON: u32 = size(77_777, 777) as u32;

/// Live `Fragile`s (only the test below makes them).
static LIVE: std::sync::atomic::AtomicIsize = std::sync::atomic::AtomicIsize::new(0);

impl Fragile {
    fn new(value: u32) -> Fragile {
        LIVE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Fragile(value)
    }
}

impl Clone for Fragile {
    fn clone(&self) -> Fragile {
        assert_ne!(self.0, POISON, "cloning the poisoned value");
        Fragile::new(self.0)
    }
}

impl Drop for Fragile {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn a_panic_inside_a_parallel_gather_leaves_the_target_and_the_pool_usable() {
    // The panic reaches the caller; the target is only read; every clone
    // made before the panic is dropped; the same pool then runs the next
    // read correctly. (Only plain numbers, whose clone is a copy, gather on
    // several threads: these gather on one at any thread count.)
    let (len, count) = (size(100_000, 1000), size(200_000, 300));
    let x: Array1<Fragile> = (0..len as u32).map(Fragile::new).collect();
    let live = || LIVE.load(std::sync::atomic::Ordering::Relaxed);
    let mut idx = indices(count, len, 8);
    idx[count * 3 / 4] = POISON as i64;
    let safe = idx.mapv(|i| if i == POISON as i64 { 0 } else { i });
    for threads in thread_counts([1, 2, 8]) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let outcome = pool.install(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| at!(x[idx]))));
        assert!(outcome.is_err(), "the clone panic must reach the caller with {threads} threads");
        assert_eq!(live(), len as isize, "clones leaked with {threads} threads");
        assert!(
            x.iter().enumerate().all(|(k, e)| e.0 == k as u32),
            "target changed with {threads} threads"
        );
        let again = pool.install(|| at!(x[safe]));
        assert!(
            again.iter().zip(&safe).all(|(e, &i)| e.0 == i as u32),
            "pool unusable after the panic ({threads} threads)"
        );
        assert_eq!(live(), (len + count) as isize, "the read holds one clone per index");
        drop(again);
        assert_eq!(live(), len as isize);
    }
}

/// Large basic writes are cut into one piece a thread: every piece, with
/// a value broadcast along or across the cut, lands as the plain loop
/// writes it, for every thread count, and so do fills.
#[test]
fn large_basic_writes_equal_a_plain_loop_for_every_thread_count() {
    let (n, m, l) = (size(48, 8), size(64, 16), size(48, 12));
    let start = ndarray::Array3::from_shape_fn((n, m, l), |(i, j, k)| (i * m * l + j * l + k) as f32);
    let row: Array1<f32> = (0..l / 2).map(|k| k as f32 * 0.5).collect();
    let column = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| i as f32 - 7.0);
    let mut expected_set = start.clone();
    let mut expected_add = start.clone();
    let mut expected_fill = start.clone();
    for i in 0..n {
        for j in 0..m {
            for (c, k) in (1..l).step_by(2).enumerate() {
                expected_set[[i, j, k]] = row[c];
                expected_add[[i, j, k]] += column[[i, 0]];
                expected_fill[[i, j, k]] = 2.5;
            }
        }
    }
    for threads in thread_counts([1, 2, 3, 8]) {
        let (set, add, fill) = in_pool(threads, || {
            let (mut set, mut add, mut fill) = (start.clone(), start.clone(), start.clone());
            at!(set[:, :, 1::2] = row);
            at!(add[:, :, 1::2] += column.view().insert_axis(ndarray::Axis(2)).to_owned());
            at!(fill[:, :, 1::2] = 2.5);
            (set, add, fill)
        });
        assert_eq!(set, expected_set, "{threads} threads");
        assert_eq!(add, expected_add, "{threads} threads");
        assert_eq!(fill, expected_fill, "{threads} threads");
    }
}

/// Sets of every other element of large lanes: along a C-ordered matrix's
/// rows, which write whole lines (the elements between written back as
/// they were), and along the transpose of a two-column matrix, whose two
/// lanes step by 2 one element apart (element by element there), each as
/// the plain loop writes it, for every thread count.
#[test]
fn sets_of_every_other_element_equal_a_plain_loop_for_every_thread_count() {
    let (n, m) = (size(1024, 16), size(1024, 64));
    let start = Array2::from_shape_fn((n, m), |(i, j)| (i * m + j) as f32);
    let values = Array2::from_shape_fn((n, m / 2), |(i, j)| -((i * m + j) as f32) - 0.5);
    let mut expected = start.clone();
    for i in 0..n {
        for (c, j) in (1..m).step_by(2).enumerate() {
            expected[[i, j]] = values[[i, c]];
        }
    }
    let long = size(1 << 20, 256);
    let pairs = Array2::from_shape_fn((long, 2), |(i, j)| (2 * i + j) as u32);
    let lanes = Array2::from_shape_fn((2, long - 1), |(j, i)| u32::MAX - (2 * i + j) as u32);
    let mut expected_pairs = pairs.clone();
    for j in 0..2 {
        for i in 1..long {
            expected_pairs[[i, j]] = lanes[[j, i - 1]];
        }
    }
    for threads in thread_counts([1, 2, 3, 8]) {
        let (set, interleaved) = in_pool(threads, || {
            let mut set = start.clone();
            at!(set[:, 1::2] = values);
            let mut interleaved = pairs.clone();
            let mut transposed = interleaved.view_mut().reversed_axes();
            at!(transposed[:, 1:] = lanes);
            (set, interleaved)
        });
        assert_eq!(set, expected, "{threads} threads");
        assert_eq!(interleaved, expected_pairs, "interleaved lanes, {threads} threads");
    }
}

/// Two interleaved halves of a matrix (its even and its odd columns, rows
/// of stride 2), each set by a thread of the caller's own at once: a large
/// set of stride-2 rows writes its own elements only, never those of the
/// other half between them (`Kernel::apply_every_other`'s contract), so
/// neither thread's writes are lost. Under Miri, a write between would be
/// a data race.
#[test]
fn interleaved_halves_set_from_two_threads_keep_both_halves() {
    let (n, m) = (size(512, 8), size(4096, 64));
    let evens = Array2::from_shape_fn((n, m / 2), |(i, j)| (i * m + 2 * j) as f32 + 0.5);
    let odds = Array2::from_shape_fn((n, m / 2), |(i, j)| -((i * m + 2 * j + 1) as f32));
    let expected = Array2::from_shape_fn((n, m), |(i, j)| match j % 2 {
        0 => evens[[i, j / 2]],
        _ => odds[[i, j / 2]],
    });
    for round in 0..size(8, 1) {
        let mut x = Array2::<f32>::zeros((n, m));
        let (mut even, mut odd) = x.multi_slice_mut((s![.., ..;2], s![.., 1..;2]));
        std::thread::scope(|scope| {
            scope.spawn(|| at!(even[:, :] = evens));
            scope.spawn(|| at!(odd[.., ..] = odds));
        });
        assert_eq!(x, expected, "round {round}");
    }
}

/// Large `along` reads (which run on the pool by chunks of the first axis)
/// and a sum through `along`, on a target whose first axis broadcasts
/// against the index, equal plain loops for 1, 2 and 8 threads.
#[test]
fn large_along_reads_and_sums_equal_a_plain_loop_for_every_thread_count() {
    let rows = size(2000, 40);
    let x = Array2::from_shape_fn((rows, 50), |(i, j)| (i * 50 + j) as f32 * 0.25);
    let picks = indices(rows * 40, 50, 11).into_shape_with_order((rows, 40)).unwrap();
    let one_row = picks.slice(s![..1, ..]).to_owned();
    let gathered = Array2::from_shape_fn((rows, 40), |(i, k)| x[[i, picks[[i, k]] as usize]]);
    let broadcast = Array2::from_shape_fn((rows, 40), |(i, k)| x[[i, one_row[[0, k]] as usize]]);
    let mut summed = x.clone();
    for ((i, k), &j) in picks.indexed_iter() {
        summed[[i, j as usize]] += (i + k) as f32;
    }
    let values = Array2::from_shape_fn((rows, 40), |(i, k)| (i + k) as f32);
    for threads in thread_counts([1, 2, 8]) {
        let (got, got_broadcast, got_sum) = in_pool(threads, || {
            let got: Array2<f32> = at!(x[along(picks, 1)]);
            let got_broadcast: Array2<f32> = at!(x[along(one_row, -1)]);
            (got, got_broadcast, set!({ x.clone() }[along(picks, 1)] += values))
        });
        assert_eq!(got, gathered, "{threads} threads");
        assert_eq!(got_broadcast, broadcast, "broadcast, {threads} threads");
        assert_eq!(got_sum, summed, "sum, {threads} threads");
    }
}

/// Large `along` reads whose index holds picks out of bounds, which the
/// gather checks as it walks them, on one thread or by chunks on several:
/// NumPy's error, naming the first in C order whichever chunk holds it,
/// and a pick just in bounds from either end read as NumPy reads it.
#[test]
fn large_along_reads_report_the_first_pick_out_of_bounds_for_every_thread_count() {
    let rows = size(2000, 40);
    let x = Array2::from_shape_fn((rows, 50), |(i, j)| (i * 50 + j) as f32);
    let mut picks = indices(rows * 40, 50, 12).into_shape_with_order((rows, 40)).unwrap();
    picks[[0, 0]] = -50;
    picks[[rows - 1, 39]] = 49;
    let gathered = Array2::from_shape_fn((rows, 40), |(i, k)| x[[i, picks[[i, k]].rem_euclid(50) as usize]]);
    // In the last row (the last chunk's), then earlier too, both ways out.
    let (last, middle, second) = ([rows - 1, 38], [rows / 2, 3], [1, 0]);
    let cases = [
        (vec![(last, 50)], 50),
        (vec![(last, 50), (middle, -51)], -51),
        (vec![(last, 50), (middle, -51), (second, i64::MIN)], i64::MIN),
    ];
    for threads in thread_counts([1, 2, 8]) {
        let got: Array2<f32> = in_pool(threads, || at!(x[along(picks, 1)]));
        assert_eq!(got, gathered, "{threads} threads");
        for (bad, reported) in &cases {
            let mut picks = picks.clone();
            for &(place, i) in bad {
                picks[place] = i;
            }
            let error = in_pool(threads, || try_at!(x[along(picks, 1)]).map(|got: Array2<f32>| got.len())).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("index {reported} is out of bounds for axis 1 with size 50"),
                "{threads} threads"
            );
        }
    }
}

/// Large element reads through one or two index arrays (`x[idx]`,
/// `x[i, j]`), read in place, on one thread or by pieces on several: the
/// plain loop's elements, negative indices counted from the end, and
/// NumPy's error for an index out of bounds anywhere (the first array's
/// before the second's, then the first in C order), also on an axis of
/// length zero.
#[test]
fn large_element_reads_report_the_first_index_out_of_bounds_for_every_thread_count() {
    let (rows, cols, count) = (size(3000, 30), 70, size(200_000, 300));
    let x = Array2::from_shape_fn((rows, cols), |(i, j)| (i * cols + j) as f32);
    let flat = x.iter().copied().collect::<Array1<f32>>();
    let (mut i, mut j) = (indices(count, rows, 13), indices_some_negative(count, cols, 14, 7));
    let mut k = indices_some_negative(count, rows * cols, 15, 5);
    // Just in bounds from either end, first and last.
    (i[0], i[count - 1], j[0], j[count - 1]) = (-(rows as i64), rows as i64 - 1, cols as i64 - 1, -(cols as i64));
    (k[0], k[count - 1]) = (-((rows * cols) as i64), (rows * cols) as i64 - 1);
    let at = |a: i64, len: usize| a.rem_euclid(len as i64) as usize;
    let pairs = Array1::from_shape_fn(count, |p| x[[at(i[p], rows), at(j[p], cols)]]);
    let elements = Array1::from_shape_fn(count, |p| flat[at(k[p], rows * cols)]);
    let (last, middle) = (count - 1, count / 2);
    for threads in thread_counts([1, 2, 8]) {
        let (got_pairs, got_elements): (Array1<f32>, Array1<f32>) = in_pool(threads, || (at!(x[i, j]), at!(flat[k])));
        assert_eq!(got_pairs, pairs, "{threads} threads");
        assert_eq!(got_elements, elements, "{threads} threads");
        let pair_error = |bad: &[(bool, usize, i64)]| {
            let (mut i, mut j) = (i.clone(), j.clone());
            for &(first, place, index) in bad {
                if first { i[place] = index } else { j[place] = index }
            }
            in_pool(threads, || try_at!(x[i, j]).map(|got: Array1<f32>| got.len()))
                .unwrap_err()
                .to_string()
        };
        let (axis0, axis1) = (
            |i: i64| format!("index {i} is out of bounds for axis 0 with size {rows}"),
            |j: i64| format!("index {j} is out of bounds for axis 1 with size {cols}"),
        );
        assert_eq!(pair_error(&[(false, last, cols as i64)]), axis1(cols as i64), "{threads} threads");
        assert_eq!(
            pair_error(&[(false, 1, -(cols as i64) - 1), (true, last, -(rows as i64) - 1)]),
            axis0(-(rows as i64) - 1),
            "{threads} threads"
        );
        assert_eq!(
            pair_error(&[(true, last, i64::MAX), (true, middle, i64::MIN)]),
            axis0(i64::MIN),
            "{threads} threads"
        );
        let mut k = k.clone();
        k[last] = (rows * cols) as i64;
        k[middle] = -((rows * cols) as i64) - 1;
        let error = in_pool(threads, || try_at!(flat[k]).map(|got: Array1<f32>| got.len())).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "index {} is out of bounds for axis 0 with size {}",
                -((rows * cols) as i64) - 1,
                rows * cols
            )
        );
        let (none, no_columns) = (Array1::<f32>::zeros(0), Array2::<f32>::zeros((rows, 0)));
        let (zeros, error) = (Array1::<i64>::zeros(count), |read: Result<Array1<f32>, tensor_at::IndexError>| {
            read.unwrap_err().to_string()
        });
        assert_eq!(
            error(in_pool(threads, || try_at!(none[zeros]))),
            "index 0 is out of bounds for axis 0 with size 0"
        );
        assert_eq!(
            error(in_pool(threads, || try_at!(no_columns[zeros, zeros]))),
            "index 0 is out of bounds for axis 1 with size 0"
        );
    }
}

/// Large reads through index arrays that broadcast together
/// (`x[rows[:, None], cols, k]`, of different integer types), read in place
/// a piece at a time: an element or a row per position, on one thread or by
/// chunks on several, each the plain loop's, negative indices counted from
/// the end; NumPy's error for an index out of bounds (the first array's,
/// then the first in C order), also one that only broadcasting repeats.
#[test]
fn broadcast_index_reads_equal_a_plain_loop_for_every_thread_count() {
    let (n, depth, width, picks) = (size(40_000, 50), 16, 8, 8);
    let x = ndarray::Array3::from_shape_fn((n, depth, width), |(i, j, k)| ((i * depth + j) * width + k) as f32);
    let rows = Array2::from_shape_fn((n, 1), |(i, _)| if i % 3 == 0 { i as i64 - n as i64 } else { i as i64 });
    let cols = indices_some_negative(n * picks, depth, 16, 5)
        .mapv(|j| j as i32)
        .into_shape_with_order((n, picks))
        .unwrap();
    let at = |a: i64, len: usize| a.rem_euclid(len as i64) as usize;
    let element = |i: usize, p: usize, k: usize| x[[at(rows[[i, 0]], n), at(cols[[i, p]].into(), depth), k]];
    let elements = Array2::from_shape_fn((n, picks), |(i, p)| element(i, p, width - 3));
    let lines = ndarray::Array3::from_shape_fn((n, picks, width), |(i, p, k)| element(i, p, k));
    for threads in thread_counts([1, 2, 8]) {
        let (got_elements, got_lines): (Array2<f32>, ndarray::Array3<f32>) =
            in_pool(threads, || (at!(x[rows, cols, -3]), at!(x[rows, cols])));
        assert_eq!(got_elements, elements, "{threads} threads");
        assert_eq!(got_lines, lines, "{threads} threads");
        let error = |rows: &Array2<i64>, cols: &Array2<i32>| {
            in_pool(threads, || try_at!(x[rows, cols, 0]).map(|got: Array2<f32>| got.len()))
                .unwrap_err()
                .to_string()
        };
        let (mut bad_rows, mut bad_cols) = (rows.clone(), cols.clone());
        bad_cols[[n - 1, picks - 1]] = depth as i32;
        assert_eq!(
            error(&rows, &bad_cols),
            format!("index {depth} is out of bounds for axis 1 with size {depth}")
        );
        bad_rows[[n / 2, 0]] = -(n as i64) - 1;
        bad_rows[[n - 1, 0]] = n as i64;
        assert_eq!(
            error(&bad_rows, &bad_cols),
            format!("index {} is out of bounds for axis 0 with size {n}", -(n as i64) - 1)
        );
        // One bad column repeated down every row by broadcasting.
        let one_row = Array2::from_shape_fn((1, picks), |(_, p)| if p == 2 { -(depth as i32) - 1 } else { p as i32 });
        assert_eq!(
            error(&rows, &one_row),
            format!("index {} is out of bounds for axis 1 with size {depth}", -(depth as i32) - 1)
        );
    }
}

/// Large reads whose first axis is a slice, the index after it
/// (`x[:, idx]`, `x[::-1, idx, 1]`, `x[1:, i, j]`, `x[:, mask]`, and
/// `x[1:, idx]` in mode `fill`), which threads cut along that slice: fresh
/// and into an existing array, each equal to a plain loop for 1, 2 and 8
/// threads, negative indices counted from the end; and a slice of one
/// position, which is not cut.
#[test]
fn reads_behind_a_slice_equal_a_plain_loop_for_every_thread_count() {
    let (n, m, depth) = (size(300, 9), size(200, 7), 3);
    let x = ndarray::Array3::from_shape_fn((n, m, depth), |(i, j, k)| ((i * m + j) * depth + k) as i64);
    let idx = indices_some_negative(size(500, 11), m, 31, 4);
    let depths = indices(idx.len(), depth, 32);
    let mask = Array1::from_shape_fn(m, |j| j % 3 != 1);
    let wild = Array1::from_iter(idx.iter().enumerate().map(|(k, &j)| if k % 5 == 2 { j + 2 * m as i64 } else { j }));
    let at = |i: i64, len: usize| i.rem_euclid(len as i64) as usize;
    let kept: Vec<usize> = (0..m).filter(|&j| mask[j]).collect();
    let columns = ndarray::Array3::from_shape_fn((n, idx.len(), depth), |(a, k, d)| x[[a, at(idx[k], m), d]]);
    let reversed = Array2::from_shape_fn((n, idx.len()), |(a, k)| x[[n - 1 - a, at(idx[k], m), 1]]);
    let pairs = Array2::from_shape_fn((n - 1, idx.len()), |(a, k)| x[[a + 1, at(idx[k], m), depths[k] as usize]]);
    let masked = ndarray::Array3::from_shape_fn((n, kept.len(), depth), |(a, k, d)| x[[a, kept[k], d]]);
    let filled = ndarray::Array3::from_shape_fn((n - 1, wild.len(), depth), |(a, k, d)| {
        if wild[k] >= m as i64 { -1 } else { x[[a + 1, at(wild[k], m), d]] }
    });
    let one = ndarray::Array3::from_shape_fn((1, idx.len(), depth), |(_, k, d)| x[[n - 1, at(idx[k], m), d]]);
    for threads in thread_counts([1, 2, 8]) {
        let mut into = ndarray::Array3::from_elem(columns.raw_dim(), 7);
        let got = in_pool(threads, || {
            at!(x[.., idx]; out = into);
            (
                at!(x[.., idx]),
                at!(x[..;-1, idx, 1]),
                at!(x[1.., idx, depths]),
                at!(x[.., mask]),
                at!(x[1.., wild]; mode = fill(-1)),
                at!(x[-1.., idx]),
            )
        });
        let (got_columns, got_reversed, got_pairs, got_masked, got_filled, got_one) = got;
        assert_eq!(got_columns, columns, "x[:, idx] with {threads} threads");
        assert_eq!(into, columns, "x[:, idx] into an array with {threads} threads");
        assert_eq!(got_reversed, reversed, "x[::-1, idx, 1] with {threads} threads");
        assert_eq!(got_pairs, pairs, "x[1:, i, j] with {threads} threads");
        assert_eq!(got_masked, masked, "x[:, mask] with {threads} threads");
        assert_eq!(got_filled, filled, "x[1:, wild] in mode fill with {threads} threads");
        assert_eq!(got_one, one, "x[-1:, idx] with {threads} threads");
    }
}

/// Batched sums and sets (`; batch = 1`), each batch large enough to take
/// the parallel paths: the plain loop over the batch's occurrences, bit
/// for bit, for every thread count (W15 and W16's promise).
#[test]
fn batched_updates_equal_a_plain_loop_for_every_thread_count() {
    let (batches, len, count) = (3, size(1 << 18, 300), size(1 << 19, 600));
    let rows: Vec<i64> = (0..batches).flat_map(|b| indices(count, len, 20 + b as u64)).collect();
    let idx = Array2::from_shape_vec((batches, count), rows).unwrap();
    let values = Array2::from_shape_fn((batches, count), |(b, k)| ((k * 7 + b) % 1001) as f32 * 1e-3 - 0.5);
    let start = || Array2::from_shape_fn((batches, len), |(b, i)| ((b * len + i) % 997) as f32 * 0.25);
    let (mut sums, mut sets) = (start(), start());
    for b in 0..batches {
        for k in 0..count {
            let i = idx[[b, k]] as usize;
            sums[[b, i]] += values[[b, k]];
            sets[[b, i]] = values[[b, k]];
        }
    }
    let bits = |a: &Array2<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for threads in thread_counts([1, 2, 8]) {
        let (got_sums, got_sets) = in_pool(threads, || {
            let (mut got_sums, mut got_sets) = (start(), start());
            at!(got_sums[idx] += values; batch = 1);
            at!(got_sets[idx] = values; batch = 1);
            (got_sums, got_sets)
        });
        assert_eq!(bits(&got_sums), bits(&sums), "sums with {threads} threads");
        assert_eq!(bits(&got_sets), bits(&sets), "sets with {threads} threads");
    }
}

/// Many small batches over two batch axes (`; batch = 2`, W16's shape),
/// which run one batch to a task on several threads: an index broadcast
/// along the second batch axis, sets (the last duplicate wins) of `f64` and
/// maxima of `i32`, each equal to the plain loop over the batch positions
/// for every thread count.
#[test]
fn many_small_batches_equal_a_plain_loop_for_every_thread_count() {
    let (outer, inner, len, count) = (8, 6, size(5000, 50), size(3000, 30));
    let rows: Vec<i64> = (0..outer).flat_map(|b| indices(count, len, 40 + b as u64)).collect();
    let idx = ndarray::Array3::from_shape_vec((outer, 1, count), rows).unwrap();
    let values = ndarray::Array3::from_shape_fn((outer, inner, count), |(a, b, k)| (a * 1_000_003 + b * 7919 + k) as f64 * 0.5);
    let ints = values.mapv(|v| (v as i64 % 20_011) as i32 - 10_000);
    let start = || ndarray::Array3::from_shape_fn((outer, inner, len), |(a, b, i)| ((a * inner + b) * len + i) as f64);
    let (mut sets, mut maxima) = (start(), start().mapv(|v| (v as i64 % 9973) as i32));
    for a in 0..outer {
        for b in 0..inner {
            for k in 0..count {
                let i = idx[[a, 0, k]] as usize;
                sets[[a, b, i]] = values[[a, b, k]];
                maxima[[a, b, i]] = maxima[[a, b, i]].max(ints[[a, b, k]]);
            }
        }
    }
    for threads in thread_counts([1, 2, 8]) {
        let (got_sets, got_maxima) = in_pool(threads, || {
            let (mut got_sets, mut got_maxima) = (start(), start().mapv(|v| (v as i64 % 9973) as i32));
            at!(got_sets[idx] = values; batch = 2);
            at!(got_maxima[idx].max(ints); batch = 2);
            (got_sets, got_maxima)
        });
        assert_eq!(got_sets, sets, "sets with {threads} threads");
        assert_eq!(got_maxima, maxima, "maxima with {threads} threads");
    }
}

/// The mask sugar with a scalar: below the size that runs this processor's
/// vector build, above it, and above the size split among threads, for
/// each comparison and element type, a combined mask, an update and an
/// integer division (whose operand is checked only where selected), equals
/// a plain loop for 1, 2 and 3 threads; floats bit for bit, NaN and -0.0
/// included.
#[test]
fn fused_masks_with_a_scalar_equal_a_plain_loop_for_every_thread_count() {
    fn floats(len: usize) -> Array1<f32> {
        let special = [f32::NAN, -0.0, 0.0, f32::INFINITY, f32::NEG_INFINITY];
        let steps = indices(len, 2001, 7);
        Array1::from_iter(steps.iter().enumerate().map(|(k, &i)| match k % 97 {
            0..5 => special[k % 97],
            _ => (i - 1000) as f32 * 0.25,
        }))
    }
    fn float_bits<D: ndarray::Dimension>(a: &ndarray::Array<f32, D>) -> Vec<u32> {
        a.iter().map(|v| v.to_bits()).collect()
    }
    for len in [size(100, 30), size(1500, 100), size(70_001, 301)] {
        let x = floats(len);
        let wide = x.mapv(f64::from);
        let ints = indices(len, 2001, 9).mapv(|i| i as i32 - 1000);
        let unsigned = indices(len, 2001, 11).mapv(|i| i as u64);
        let pick = |keep: &dyn Fn(f32) -> bool, to: &dyn Fn(f32) -> f32| x.mapv(|e| if keep(e) { to(e) } else { e });
        let expected = [
            pick(&|e| e < 0.0, &|_| 0.0),
            pick(&|e| e <= 1.5, &|_| -2.0),
            pick(&|e| e > 0.0, &|_| 9.0),
            pick(&|e| e >= -0.0, &|_| 1.0),
            pick(&|e| e == 0.0, &|_| 5.0),
            pick(&|e| e != 0.5, &|_| 3.0),
            pick(&|e| e > 0.0 && e < 100.0, &|_| 7.0),
            pick(&|e| e < 10.0, &|e| e + 0.5),
        ];
        let expected_wide = wide.mapv(|e| if e < -3.0 { e * 2.0 } else { e });
        let expected_ints = ints.mapv(|e| if e > 0 { e / 3 } else { e });
        let expected_unsigned = unsigned.mapv(|e| if e >= 1000 { 0 } else { e });
        for threads in thread_counts([1, 2, 3]) {
            let (results, results_wide, results_ints, results_unsigned) = in_pool(threads, || {
                let run = |write: &dyn Fn(&mut Array1<f32>)| {
                    let mut y = x.clone();
                    write(&mut y);
                    y
                };
                let results = [
                    run(&|y| at!(y[y < 0.0] = 0.0)),
                    run(&|y| at!(y[y <= 1.5] = -2.0)),
                    run(&|y| at!(y[y > 0.0] = 9.0)),
                    run(&|y| at!(y[y >= -0.0] = 1.0)),
                    run(&|y| at!(y[y == 0.0] = 5.0)),
                    run(&|y| at!(y[y != 0.5] = 3.0)),
                    run(&|y| at!(y[(y > 0.0) & (y < 100.0)] = 7.0)),
                    run(&|y| at!(y[y < 10.0] += 0.5)),
                ];
                let mut w = wide.clone();
                at!(w[w < -3.0] *= 2.0);
                let mut i = ints.clone();
                at!(i[i > 0] /= 3);
                let mut u = unsigned.clone();
                at!(u[u >= 1000] = 0);
                (results, w, i, u)
            });
            for (k, (result, expected)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(
                    float_bits(result),
                    float_bits(expected),
                    "case {k}, {len} elements, {threads} threads"
                );
            }
            let wide_bits = |a: &Array1<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                wide_bits(&results_wide),
                wide_bits(&expected_wide),
                "{len} elements, {threads} threads"
            );
            assert_eq!(results_ints, expected_ints, "{len} elements, {threads} threads");
            assert_eq!(results_unsigned, expected_unsigned, "{len} elements, {threads} threads");
        }
    }
}

/// The mask sugar with an array value (one value per selected element, in
/// C order): below and above the size counted and written on several
/// threads, for each comparison and several element types, with `=` and
/// an update, equals a plain loop for 1, 2 and 3 threads. A value of the
/// wrong length is refused with nothing written, and a target in Fortran
/// order is walked in C order.
#[test]
fn fused_masks_with_array_values_equal_a_plain_loop_for_every_thread_count() {
    /// `x` with its selected elements replaced (`keep`) by `to(element,
    /// value)`, the values taken in order.
    fn loop_where<T: Copy>(x: &Array1<T>, keep: impl Fn(T) -> bool, values: &[T], to: impl Fn(T, T) -> T) -> Array1<T> {
        let mut next = values.iter();
        x.mapv(|e| if keep(e) { to(e, *next.next().unwrap()) } else { e })
    }
    for len in [size(100, 30), size(1500, 100), size(70_001, 301), size(200_003, 1001)] {
        let x = indices(len, 2001, 5).mapv(|i| (i - 1000) as f32 * 0.25);
        let ints = indices(len, 2001, 6).mapv(|i| i as i32 - 1000);
        let unsigned = indices(len, 2001, 8).mapv(|i| i as u64);
        let wide = x.mapv(f64::from);
        let values_for = |count: usize| Array1::from_iter((0..count).map(|k| k as f32 - 0.5));
        let count = |keep: &dyn Fn(f32) -> bool| x.iter().filter(|&&e| keep(e)).count();
        let tests: [(&dyn Fn(f32) -> bool, &str); 6] = [
            (&|e| e < 0.0, "<"),
            (&|e| e <= 1.5, "<="),
            (&|e| e > 0.0, ">"),
            (&|e| e >= -0.0, ">="),
            (&|e| e == 0.0, "=="),
            (&|e| e != 0.5, "!="),
        ];
        let values: Vec<Array1<f32>> = tests.iter().map(|(keep, _)| values_for(count(keep))).collect();
        let expected: Vec<Array1<f32>> = tests
            .iter()
            .zip(&values)
            .map(|((keep, _), v)| loop_where(&x, keep, v.as_slice().unwrap(), |_, v| v))
            .collect();
        let sum_values = values_for(count(&|e| e < 10.0));
        let expected_sum = loop_where(&x, |e| e < 10.0, sum_values.as_slice().unwrap(), |e, v| e + v);
        let int_values = Array1::from_iter((0..ints.iter().filter(|&&e| e > 0).count() as i32).map(|k| k * 3 + 1));
        let expected_ints = loop_where(&ints, |e| e > 0, int_values.as_slice().unwrap(), |e, v| e * v);
        let unsigned_values = Array1::from_iter(0..unsigned.iter().filter(|&&e| e >= 1000).count() as u64);
        let expected_unsigned = loop_where(&unsigned, |e| e >= 1000, unsigned_values.as_slice().unwrap(), |_, v| v);
        let wide_values = Array1::from_iter((0..wide.iter().filter(|&&e| e != 0.0).count()).map(|k| k as f64 * 0.5));
        let expected_wide = loop_where(&wide, |e| e != 0.0, wide_values.as_slice().unwrap(), |e, v| e - v);
        for threads in thread_counts([1, 2, 3]) {
            let (results, sum, i, u, w) = in_pool(threads, || {
                let run = |write: &dyn Fn(&mut Array1<f32>)| {
                    let mut y = x.clone();
                    write(&mut y);
                    y
                };
                let results = [
                    run(&|y| at!(y[y < 0.0] = &values[0])),
                    run(&|y| at!(y[y <= 1.5] = &values[1])),
                    run(&|y| at!(y[y > 0.0] = &values[2])),
                    run(&|y| at!(y[y >= -0.0] = &values[3])),
                    run(&|y| at!(y[y == 0.0] = &values[4])),
                    run(&|y| at!(y[y != 0.5] = &values[5])),
                ];
                let sum = run(&|y| at!(y[y < 10.0] += sum_values));
                let mut i = ints.clone();
                at!(i[i > 0] *= int_values);
                let mut u = unsigned.clone();
                at!(u[u >= 1000] = unsigned_values);
                let mut w = wide.clone();
                at!(w[w != 0.0] -= wide_values);
                (results, sum, i, u, w)
            });
            let names = tests.map(|(_, name)| name);
            for ((result, expected), name) in results.iter().zip(&expected).zip(names) {
                assert_eq!(result, expected, "`{name}`, {len} elements, {threads} threads");
            }
            assert_eq!(sum, expected_sum, "+=, {len} elements, {threads} threads");
            assert_eq!(i, expected_ints, "i32, {len} elements, {threads} threads");
            assert_eq!(u, expected_unsigned, "u64, {len} elements, {threads} threads");
            assert_eq!(w, expected_wide, "f64, {len} elements, {threads} threads");
        }
    }
    let len = size(200_003, 1001);
    let x = indices(len, 2001, 5).mapv(|i| (i - 1000) as f32 * 0.25);
    let selected = x.iter().filter(|&&e| e < 0.0).count();
    in_pool(2, || {
        let mut y = x.clone();
        let short = Array1::from_elem(selected - 1, 1.0f32);
        assert!(try_at!(y[y < 0.0] = short).is_err());
        assert!(try_at!(y[y < 0.0] += Array1::from_elem(selected + 1, 1.0f32)).is_err());
        assert_eq!(y, x, "a refused value writes nothing");
    });
    // Fortran order: selected elements take their values in C order.
    let shape = (size(401, 21), size(499, 29));
    let c_order = Array2::from_shape_fn(shape, |(i, j)| ((i * 7 + j * 13) % 101) as f64 - 50.0);
    let mut fortran = Array2::zeros(shape.f());
    fortran.assign(&c_order);
    let selected = c_order.iter().filter(|&&e| e < 0.0).count();
    let values = Array1::from_iter((0..selected).map(|k| k as f64));
    let mut next = values.iter();
    let expected = c_order.mapv(|e| if e < 0.0 { *next.next().unwrap() } else { e });
    for threads in thread_counts([1, 2]) {
        let result = in_pool(threads, || {
            let mut y = fortran.clone();
            at!(y[y < 0.0] = values);
            y
        });
        assert_eq!(result, expected, "Fortran order, {threads} threads");
    }
}

/// Large indexed writes of the general form (an index array beside strided
/// slices), which run on several threads cut by destination where the
/// index leads the region, else along their longest slice: sets with
/// duplicate rows (the last wins), sums, a reversed slice, a dropped
/// out-of-bounds row, rows all picked from the first few, a target whose
/// rows run backwards in memory, and a cut along a leading slice of a 3-d
/// target, equal plain loops for 1, 2, 3 and 8 threads.
#[test]
fn large_indexed_writes_cut_into_pieces_equal_a_plain_loop_for_every_thread_count() {
    let (height, width, count) = (size(600, 40), size(700, 100), size(500, 30));
    let start = Array2::from_shape_fn((height, width), |(i, j)| (i * width + j) as f32);
    let rows = indices(count, height, 5);
    let columns: Vec<usize> = (1..width).step_by(3).collect();
    let values = Array2::from_shape_fn((count, columns.len()), |(k, c)| (k * 1000 + c) as f32 * 0.5);
    let mut dropped_rows = rows.clone();
    dropped_rows[7] = height as i64;
    dropped_rows[count * 3 / 5] = 10_000;
    let (mut expected_set, mut expected_add, mut expected_reversed, mut expected_dropped) =
        (start.clone(), start.clone(), start.clone(), start.clone());
    for (k, &row) in rows.iter().enumerate() {
        let row = row as usize;
        for (c, &column) in columns.iter().enumerate() {
            expected_set[[row, column]] = values[[k, c]];
            expected_add[[row, column]] += values[[k, c]];
        }
        for column in (0..width).rev().step_by(2) {
            expected_reversed[[row, column]] = k as f32;
        }
        if (dropped_rows[k] as usize) < height {
            for (c, &column) in columns.iter().enumerate() {
                expected_dropped[[row, column]] = values[[k, c]];
            }
        }
    }
    // (Under Miri a cube of 16 x 50 x 16, whose leading slice of 16 still
    // cuts into pieces on two threads: each whole-cube copy and comparison
    // is most of the test's time there.)
    let (depth, picked) = (size(64, 16), size(40, 6));
    let cube = ndarray::Array3::from_shape_fn((depth, 50, depth), |(i, j, k)| (i * 50 * depth + j * depth + k) as i64);
    let middle = indices(picked, 50, 13);
    let mut expected_cube = cube.clone();
    for i in 0..depth {
        for (k, &j) in middle.iter().enumerate() {
            for l in (0..depth).step_by(2) {
                expected_cube[[i, j as usize, l]] -= (k * 100 + l) as i64;
            }
        }
    }
    let cube_values = Array2::from_shape_fn((picked, depth / 2), |(k, l)| (k * 100 + 2 * l) as i64);
    let order = Array1::from_iter((0..count).map(|k| k as f32)).insert_axis(Axis(1));
    // Every pick among the first three rows: one piece by destination holds
    // them all, the others none.
    let crowded = indices(count, 3, 17);
    let mut expected_crowded = start.clone();
    for (k, &row) in crowded.iter().enumerate() {
        for (c, &column) in columns.iter().enumerate() {
            expected_crowded[[row as usize, column]] = values[[k, c]];
        }
    }
    // Rows backwards in memory: the picks' offsets are negative.
    let mut expected_backwards = start.clone();
    for (k, &row) in rows.iter().enumerate() {
        for (c, &column) in columns.iter().enumerate() {
            expected_backwards[[height - 1 - row as usize, column]] -= values[[k, c]];
        }
    }
    for threads in thread_counts([1, 2, 3, 8]) {
        let (set, add, reversed, dropped, cube_result) = in_pool(threads, || {
            let (mut set, mut add, mut reversed, mut dropped, mut cube_result) =
                (start.clone(), start.clone(), start.clone(), start.clone(), cube.clone());
            at!(set[rows, 1::3] = values);
            at!(add[rows, 1::3] += values);
            at!(reversed[rows, ::-2] = order);
            at!(dropped[dropped_rows, 1::3] = values; mode = drop);
            at!(cube_result[:, middle, ::2] -= cube_values);
            (set, add, reversed, dropped, cube_result)
        });
        let (crowded_result, backwards) = in_pool(threads, || {
            let (mut crowded_result, mut backwards) = (start.clone(), start.clone());
            at!(crowded_result[crowded, 1::3] = values);
            let mut flipped = backwards.slice_mut(s![..;-1, ..]);
            at!(flipped[rows, 1::3] -= values);
            (crowded_result, backwards)
        });
        assert_eq!(crowded_result, expected_crowded, "{threads} threads");
        assert_eq!(backwards, expected_backwards, "{threads} threads");
        assert_eq!(set, expected_set, "{threads} threads");
        assert_eq!(add, expected_add, "{threads} threads");
        assert_eq!(reversed, expected_reversed, "{threads} threads");
        assert_eq!(dropped, expected_dropped, "{threads} threads");
        assert_eq!(cube_result, expected_cube, "{threads} threads");
    }
}

/// Large `along` writes, which run cut along the region's first axis when
/// that axis is not the picked one: sets with duplicates (the last wins),
/// float sums whose order shows in their bits, a 3-d target picked along
/// its middle axis, and, kept on one thread, the picked first axis and a
/// first axis broadcast over the target, equal plain loops for 1, 2, 3 and
/// 8 threads, bit for bit.
#[test]
fn large_along_writes_equal_a_plain_loop_for_every_thread_count() {
    let (rows, blocks) = (size(3000, 40), size(500, 8));
    let x = Array2::from_shape_fn((rows, 40), |(i, j)| (i * 40 + j) as f32 * 0.1);
    let picks = indices(rows * 30, 40, 17).into_shape_with_order((rows, 30)).unwrap();
    let values = Array2::from_shape_fn((rows, 30), |(i, k)| ((i * 31 + k * 7) % 1000) as f32 * 0.013);
    let (mut set_loop, mut sum_loop) = (x.clone(), x.clone());
    for ((i, k), &j) in picks.indexed_iter() {
        set_loop[[i, j as usize]] = values[[i, k]];
        sum_loop[[i, j as usize]] += values[[i, k]];
    }
    let cube = ndarray::Array3::from_shape_fn((blocks, 20, 16), |(i, j, k)| (i * 320 + j * 16 + k) as f64 * 0.7);
    let middle = indices(blocks * 12 * 16, 20, 19).into_shape_with_order((blocks, 12, 16)).unwrap();
    let mut cube_loop = cube.clone();
    for ((i, k, l), &j) in middle.indexed_iter() {
        cube_loop[[i, j as usize, l]] += (i + k + l) as f64 * 0.3;
    }
    let cube_values = ndarray::Array3::from_shape_fn((blocks, 12, 16), |(i, k, l)| (i + k + l) as f64 * 0.3);
    // Picked along the first axis: each column's rows.
    let down_rows = size(100, 10);
    let down = indices(down_rows * 40, rows, 23).into_shape_with_order((down_rows, 40)).unwrap();
    let down_values = Array2::from_shape_fn((down_rows, 40), |(r, j)| (r * 40 + j) as f32 * 0.01);
    let mut down_loop = x.clone();
    for ((r, j), &i) in down.indexed_iter() {
        down_loop[[i as usize, j]] += down_values[[r, j]];
    }
    // A target of one row, broadcast against an index of many.
    let row = x.slice(s![..1, ..]).to_owned();
    let mut row_loop = row.clone();
    for ((i, k), &j) in picks.indexed_iter() {
        row_loop[[0, j as usize]] += values[[i, k]];
    }
    let bits = |a: &Array2<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for threads in thread_counts([1, 2, 3, 8]) {
        let (set, sum, cube_sum, down_sum, row_sum) = in_pool(threads, || {
            (
                set!({ x.clone() }[along(picks, 1)] = values),
                set!({ x.clone() }[along(picks, -1)] += values),
                set!({ cube.clone() }[along(middle, 1)] += cube_values),
                set!({ x.clone() }[along(down, 0)] += down_values),
                set!({ row.clone() }[along(picks, 1)] += values),
            )
        });
        assert_eq!(set, set_loop, "set, {threads} threads");
        assert_eq!(bits(&sum), bits(&sum_loop), "sum, {threads} threads");
        let cube_bits = |a: &ndarray::Array3<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(cube_bits(&cube_sum), cube_bits(&cube_loop), "3-d sum, {threads} threads");
        assert_eq!(bits(&down_sum), bits(&down_loop), "picked first axis, {threads} threads");
        assert_eq!(bits(&row_sum), bits(&row_loop), "broadcast first axis, {threads} threads");
    }
}
