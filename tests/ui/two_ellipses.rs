use ndarray::Array3;
use tensor_at::at;

fn main() {
    let mut x = Array3::<f64>::zeros((2, 3, 4));
    at!(x[..., 0, ...] = 1.0);
}
