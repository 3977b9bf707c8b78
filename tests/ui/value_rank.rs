use ndarray::{Array1, Array2};
use tensor_at::at;

fn main() {
    let mut x = Array1::<f64>::zeros(8);
    let y = Array2::<f64>::zeros((2, 2));
    at!(x[0:2] = y);
}
