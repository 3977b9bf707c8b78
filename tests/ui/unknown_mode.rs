use ndarray::Array1;
use tensor_at::at;

fn main() {
    let mut x = Array1::<f64>::zeros(8);
    at!(x[[0, 9]] = 1.0; mode = nearest);
}
