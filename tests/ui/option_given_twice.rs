use ndarray::{Array2, array};
use tensor_at::at;

fn main() {
    let x = Array2::<f64>::zeros((4, 3));
    let mut out = Array2::<f64>::zeros((2, 3));
    let rows = array![0, 1];
    let _ = at!(x[rows]; out = out, out = out);
}
