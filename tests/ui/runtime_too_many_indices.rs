use tensor_at::ndarray::Array2;
use tensor_at::IndexMutExt;

fn main() {
    let mut x = Array2::<f64>::zeros((3, 4));
    x.at_mut((0, 1, 2)).set(1.0).unwrap();
}
