use ndarray::Array2;
use tensor_at::at;

fn main() {
    let mut x = Array2::<f64>::zeros((4, 3));
    let _ = at!(&mut x[1:, 0]; mode = clip);
}
