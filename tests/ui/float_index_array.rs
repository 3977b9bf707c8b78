use ndarray::{array, Array1};
use tensor_at::at;

fn main() {
    let mut x = Array1::<f64>::zeros(8);
    let idx = array![0.0, 2.0];
    at!(x[idx] = 1.0);
}
