use ndarray::{Array1, Array2, array};
use tensor_at::at;

fn main() {
    let x = Array2::<f64>::zeros((4, 3));
    let rows = array![0, 1];
    let mut flat = Array1::<f64>::zeros(6);
    at!(x[rows]; out = flat);
}
