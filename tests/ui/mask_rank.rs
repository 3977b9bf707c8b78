use ndarray::Array2;
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((3, 4));
    let mask = Array2::<bool>::from_elem((3, 4), true);
    at!(x[0, mask] = 1.0);
}
