#![deny(unused_must_use)]
use tensor_at::ndarray::Array1;
use tensor_at::IndexMutExt;

fn main() {
    let mut x = Array1::<f64>::zeros(8);
    x.at_mut([0, 3]);
}
