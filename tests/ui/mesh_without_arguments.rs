use ndarray::Array2;
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((3, 4));
    at!(x[ix_()] = 1.0);
}
