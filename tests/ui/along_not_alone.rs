use ndarray::{Array2, array};
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((2, 3));
    let idx = array![[0usize], [2]];
    at!(x[0, along(idx, 1)] = 1.0);
}
