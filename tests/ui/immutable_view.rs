use ndarray::Array2;
use tensor_at::at;

fn main() {
    let x = Array2::<f64>::zeros((3, 4));
    let mut view = x.view();
    at!(view[0, 0] = 1.0);
}
