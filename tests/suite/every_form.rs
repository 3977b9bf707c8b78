//! Every grammar form of the macros compiles, and runs, as a user writes
//! it: each once, with the names a user imports. (What each returns is
//! checked against NumPy in `macros`.)

use ndarray::{Array1, Array2, Array3, ArrayView2, array};
use tensor_at::{IndexError, at, nd, set, try_at, try_set};

#[test]
fn every_form_compiles_and_runs() -> Result<(), IndexError> {
    let mut x = Array3::<f64>::zeros((4, 5, 6));
    let mut t = Array1::<f64>::zeros(8);
    let y = Array3::<f64>::ones((4, 2, 6));
    let mask = Array1::from(vec![true, false, true, false, true, false]);
    let idx = Array1::from(vec![0usize, 2]);
    let (i0, i1) = (vec![0i64, 1], vec![2i32, 3]);

    // Reads.
    let view: ArrayView2<f64> = at!(x[1, ..]);
    let gathered = at!(x[idx, 1:3]);
    let picked = at!(x[[0, 1], .., [2, 3]]);
    let last = at!(x[..., None, -1]);
    let got = at!(x[0, 0].get());
    let filled = at!(x[[0, 9]]; mode = fill(f64::NAN));
    let _ = (view, gathered, picked, last, got, filled);

    // A mutable view of a basic index, in both syntaxes.
    at!(&mut x[1:3, ::2]).fill(0.5);
    at!(&mut x[1..3, ..;2, 0]).mapv_inplace(|e| e * 2.0);

    // In-place writes, both slice syntaxes, mixed.
    at!(x[.., 1..4;2, mask] = 1.0);
    at!(x[:, 1:4:2, mask] = 1.0);
    at!(x[:, 1..3, ..] = y);
    at!(x[i0, :, i1] += 2.0);
    at!(x[0, 0, [1, 1]] -= 1.0);
    at!(x[1] *= 3.0);
    at!(x[2, ::-1] /= 2.0);
    at!(x[2, ::-1] %= 2.0);
    let mut flags = Array1::from(vec![true, false]);
    at!(flags[[1]] |= true);
    at!(flags[..] ^= true);
    at!(x[idx].max(0.5));
    at!(x[idx].min(2.0));
    at!(x[idx].pow(2.0));
    at!(x[idx].add(1.0));
    at!(x[idx].sub(1.0));
    at!(x[idx].mul(1.0));
    at!(x[idx].div(1.0));
    at!(x[idx].set(0.0));
    at!(x[idx].apply(|e| e * e));
    at!(x[x < 0.0] = 0.0);
    at!(x[x > 100.0] *= 0.5);
    at!(x[[0, 9]] = 1.0; mode = clip);
    at!(x[[0, 9]] = 1.0; mode = wrap);
    at!(x[[0, 9]] = 1.0; mode = drop);
    at!(x[0] = 1.0; mode = error);
    let indices = array![[4usize], [3], [1], [7]];
    at!(t[nd(indices)] = array![9.0, 10.0, 11.0, 12.0]);
    // NumPy's open mesh, `x[np.ix_(rows, cols)]`, alone or beside other elements.
    let rows = vec![0usize, 3];
    let mesh: Array3<f64> = at!(x[ix_(rows, [1, 2])]);
    let _ = mesh;
    at!(x[0, ix_([1, 2], mask)] += 1.0);
    at!(x[ix_(rows, idx), 1:] *= 2.0);

    // Copy-and-update.
    let z = set!(x[..., 2] = 0.0);
    let w = set!({ z }[.., .., mask] = 0.0);
    let v = set!(w.clone()[0] += 1.0);
    let _ = set!(v[[0, 0]].apply(|e| e + 1.0));
    let _ = set!(x[ix_([0], [0]), 0] = 2.0);

    // Results instead of panics.
    try_at!(t[0] = 1.0)?;
    let _ = try_set!(t[-1] = 2.0)?;
    let _ = try_at!(t[1..3])?;
    try_at!(x[ix_(rows, [0])] = 0.0)?;
    let _ = try_set!(x[ix_([1], [1], [1])] = 3.0)?;

    let mut m = Array2::<i32>::zeros((2, 2));
    at!(m[0, 0] = 1);
    Ok(())
}
