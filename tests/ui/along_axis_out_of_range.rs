use ndarray::{Array2, array};
use tensor_at::{along, at};

fn main() {
    let x = Array2::<f64>::zeros((2, 3));
    let idx = array![[0usize], [2]];
    let _ = at!(x[along(idx, 2)]);
}
