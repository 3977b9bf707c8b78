use ndarray::{Array1, Array2, array};
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((4, 3));
    let mut out = Array2::<f64>::zeros((2, 3));
    let rows = array![0, 1];
    at!(x[rows] = 1.0; out = out);
    let _ = at!(x[rows]; out = out, out = out);
    let _ = at!(x[rows]; order = C);
    let _ = at!(x[rows]; out =);
    let mut flat = Array1::<f64>::zeros(6);
    at!(x[rows]; out = flat);
}
