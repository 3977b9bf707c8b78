use ndarray::{Array2, array};
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((4, 3));
    let rows = array![0, 2];
    let _ = at!(&mut x[rows, 1:]);
}
