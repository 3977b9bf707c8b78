use ndarray::Array1;
use tensor_at::at;

fn main() {
    let mut x = Array1::<f64>::zeros(4);
    at!(x[[0, 1]] |= 1.0);
}
