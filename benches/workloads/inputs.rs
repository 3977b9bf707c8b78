//! The inputs of `benches/peers.py`, bit for bit, and their fingerprints.
//!
//! Every draw comes from a counter-based SplitMix64 stream (peers.py's
//! header): `z_i = mix64(seed + (i + 1) * GAMMA)` in wrapping `u64`, with
//! `seed = 0x5EED0000 + 16 * workload + stream`. Index arrays are `i64`, as
//! NumPy's `int64` ones are.

use ndarray::{Array, Array1, ArrayBase, Data, Dimension, IntoDimension};
use serde_json::{Value, json};

use crate::pages::input_vec;

const SEED_BASE: u64 = 0x5EED_0000;
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// peers.py's `seed(wl, k)`.
pub fn seed(workload: u64, stream: u64) -> u64 {
    SEED_BASE + 16 * workload + stream
}

fn mix64(mut z: u64) -> u64 {
    z ^= z >> 30;
    z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 27;
    z = z.wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `n` words of the stream of `seed`: `z_0 .. z_{n-1}`.
fn stream(seed: u64, n: usize) -> impl Iterator<Item = u64> {
    (1..=n as u64).map(move |i| mix64(seed.wrapping_add(i.wrapping_mul(GAMMA))))
}

fn shaped<T, D: Dimension>(shape: impl IntoDimension<Dim = D>, draw: impl Fn(u64) -> T, seed: u64) -> Array<T, D> {
    let shape = shape.into_dimension();
    let mut values = input_vec(shape.size());
    values.extend(stream(seed, shape.size()).map(draw));
    Array::from_shape_vec(shape, values).expect("the stream has one value per element")
}

/// Uniform `f32` in `[0, 1)`: `(z >> 40) * 2^-24`, exact.
pub fn uniform<D: Dimension>(seed: u64, shape: impl IntoDimension<Dim = D>) -> Array<f32, D> {
    shaped(shape, |z| (z >> 40) as f32 * 2f32.powi(-24), seed)
}

/// Symmetric `f32` in `[-1, 1)`: `((z >> 40) * 2^-23 - 1.0) as f32`, exact.
pub fn symmetric<D: Dimension>(seed: u64, shape: impl IntoDimension<Dim = D>) -> Array<f32, D> {
    shaped(shape, |z| ((z >> 40) as f64 * 2f64.powi(-23) - 1.0) as f32, seed)
}

/// `count` integers in `[0, n)`: `((z >> 32) * n) >> 32`.
pub fn ints(seed: u64, count: usize, n: u64) -> Array1<i64> {
    assert!(n < 1 << 32, "peers.py draws integers below 2^32 only");
    shaped(count, |z| (((z >> 32) * n) >> 32) as i64, seed)
}

/// `count` booleans, each true with probability 1/2: the top bit of `z`.
pub fn bools(seed: u64, count: usize) -> Array1<bool> {
    shaped(count, |z| z >> 63 == 1, seed)
}

/// `k` distinct integers of `[0, n)`: `0..n` stably sorted by the keys
/// `z_0 .. z_{n-1}`, the first `k` in that order (not sorted by value).
pub fn unique(seed: u64, k: usize, n: usize) -> Array1<i64> {
    let keys: Vec<u64> = stream(seed, n).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| keys[i]); // stable, as np.argsort(kind="stable")
    let mut chosen = input_vec(k);
    chosen.extend(order[..k].iter().map(|&i| i as i64));
    Array1::from_vec(chosen)
}

/// An element type as NumPy names and prints it in a fingerprint.
pub trait Element: Copy {
    /// NumPy's `str(dtype)`.
    const DTYPE: &'static str;
    /// The value as `astype(np.float64)` gives it.
    fn to_f64(self) -> f64;
    /// The value as peers.py lists it: `float(t)` for floats, `int(t)` otherwise.
    fn to_json(self) -> Value;
}

impl Element for f32 {
    const DTYPE: &'static str = "float32";
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn to_json(self) -> Value {
        json!(f64::from(self))
    }
}

impl Element for i64 {
    const DTYPE: &'static str = "int64";
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_json(self) -> Value {
        json!(self)
    }
}

impl Element for bool {
    const DTYPE: &'static str = "bool";
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
    fn to_json(self) -> Value {
        json!(u8::from(self))
    }
}

/// The `float64` sum of an array, in its logical (C) order.
///
/// NumPy sums pairwise, this sums left to right; for every array of these
/// workloads the two agree exactly, since every element is a multiple of
/// 2^-24 (or an integer) and no partial sum needs more than 53 bits.
pub fn sum<A: Element, S: Data<Elem = A>, D: Dimension>(array: &ArrayBase<S, D>) -> f64 {
    array.iter().map(|&v| v.to_f64()).sum()
}

/// peers.py's `fingerprint()` of one input: shape, dtype, float64 sum and
/// the first four values in C order.
pub fn fingerprint<A: Element, S: Data<Elem = A>, D: Dimension>(array: &ArrayBase<S, D>) -> Value {
    json!({
        "shape": array.shape(),
        "dtype": A::DTYPE,
        "sum": sum(array),
        "first": array.iter().take(4).map(|&v| v.to_json()).collect::<Vec<_>>(),
    })
}

/// Checks each draw against the first values peers.py generated for one of
/// its inputs (its `--json` fingerprints); the message names the first that
/// differs. Cheap: what `cargo test --all-targets` runs of this bench.
pub fn check_against_peers() -> Result<(), String> {
    fn same<T: PartialEq + std::fmt::Debug>(what: &str, got: Vec<T>, want: Vec<T>) -> Result<(), String> {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what}: {got:?}, peers.py has {want:?}"))
        }
    }
    let head = |a: Array1<f32>| a.iter().map(|&v| f64::from(v)).collect::<Vec<_>>();
    same(
        "W1 x (uniform)",
        head(uniform(seed(1, 0), 4)),
        vec![0.691862165927887, 0.8241128325462341, 0.890831708908081, 0.3747762441635132],
    )?;
    same(
        "W8 x (symmetric)",
        head(symmetric(seed(8, 0), 4)),
        vec![-0.4956796169281006, 0.8478963375091553, -0.760149359703064, -0.2138437032699585],
    )?;
    same(
        "W5 idx (ints)",
        ints(seed(5, 1), 4, 16 << 20).to_vec(),
        vec![1358732, 14900257, 6037504, 7878820],
    )?;
    same("W12 i (ints)", ints(seed(12, 1), 4, 4096).to_vec(), vec![4078, 2413, 3842, 66])?;
    same(
        "W7 rows (unique)",
        unique(seed(7, 1), 4, 100000).to_vec(),
        vec![31681, 37453, 41084, 71518],
    )?;
    same(
        "W10 idx (unique)",
        unique(seed(10, 1), 4, 4096).to_vec(),
        vec![1346, 1809, 2935, 2966],
    )?;
    same("W11b mask (bools)", bools(seed(11, 2), 4).to_vec(), vec![true, false, true, false])
}
