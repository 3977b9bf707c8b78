use ndarray::{Array2, array};
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((3, 4));
    let rows = array![[0usize], [2]];
    at!(x[ix_(rows, [1, 3])] = 1.0);
}
