use ndarray::Array1;
use tensor_at::at;

fn main() {
    let x = Array1::<f64>::zeros(8);
    let _ = at!(x[[0, 9]]; mode = drop);
}
