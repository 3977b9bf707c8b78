use ndarray::{Array2, array};
use tensor_at::{along, at};

fn main() {
    let mut x = Array2::<f64>::zeros((2, 3));
    let labels = array![0usize, 2];
    at!(x[along(labels, 1)] -= 1.0);
}
