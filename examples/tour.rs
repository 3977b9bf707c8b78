//! A short tour of tensor-at: NumPy indexing idioms, each beside its
//! tensor-at form, each checked against the answer NumPy gives.
//!
//! Run with `cargo run --example tour`.

use ndarray::{Array1, Array2, array};
use tensor_at::{IndexElem, IndexExt, IndexMutExt, IntoUpdated, Mode, PySlice, ix};

fn main() -> Result<(), tensor_at::IndexError> {
    // x = np.arange(12.).reshape(3, 4)
    let mut x = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    println!("x =\n{x}\n");

    // x[:, 1:4:2] = -1
    let every_other = IndexElem::Slice(PySlice::new(Some(1), Some(4), Some(2)));
    x.at_mut(&[ix(..), every_other]).set(-1.0)?;
    println!("x[:, 1:4:2] = -1  ->\n{x}\n");
    assert_eq!(x.column(3), array![-1.0, -1.0, -1.0]);

    // x[[0, 2], -1] gathers two elements: advanced indexing copies.
    let corners = x.at(&[ix([0, 2]), ix(-1)]).get()?;
    println!("x[[0, 2], -1] = {corners}");
    assert_eq!(corners, array![-1.0, -1.0].into_dyn());

    // x[x > 5] = 0 with a boolean mask.
    let mask = x.mapv(|v| v > 5.0);
    x.at_mut(&[ix(&mask)]).set(0.0)?;
    println!("x[x > 5] = 0  ->\n{x}\n");
    assert_eq!(x.row(2), array![0.0, -1.0, 0.0, -1.0]);

    // np.add.at(hist, bins, 1): duplicates accumulate, unlike hist[bins] += 1.
    let bins = Array1::from(vec![0usize, 2, 2, 3, 2]);
    let mut hist = Array1::<i64>::zeros(4);
    hist.at_mut(&[ix(&bins)]).add(1)?;
    println!("np.add.at(hist, {bins}, 1) -> {hist}");
    assert_eq!(hist, array![1, 0, 3, 1]);

    // JAX: y = x.at[0, ::-1].set([1, 2, 3, 4]); x is unchanged.
    let reversed = IndexElem::Slice(PySlice::new(None, None, Some(-1)));
    let y = (&x).updated(&[ix(0), reversed]).set(&array![1.0, 2.0, 3.0, 4.0])?;
    println!("x.at[0, ::-1].set([1, 2, 3, 4]) -> row 0 = {}", y.row(0));
    assert_eq!(y.row(0), array![4.0, 3.0, 2.0, 1.0]);
    assert_eq!(x.row(0), array![0.0, -1.0, 2.0, -1.0]);

    // JAX: x.at[[0, 9]].get(mode='fill', fill_value=nan)
    let safe = x.at(&[ix(..), ix([0, 9])]).mode(Mode::Fill(f64::NAN)).get()?;
    println!("x[:, [0, 9]] with mode fill(nan) ->\n{safe}");
    assert!(safe[[0, 1]].is_nan() && safe[[1, 0]] == 4.0);

    // Errors are values, and the target is untouched when one occurs.
    let before = x.clone();
    let error = x.at_mut(&[ix([0, 7])]).set(1.0).unwrap_err();
    println!("\nx[[0, 7]] = 1  -> error: {error}");
    assert_eq!(x, before);
    Ok(())
}
