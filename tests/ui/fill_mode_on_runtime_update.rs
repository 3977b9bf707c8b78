use tensor_at::ndarray::Array1;
use tensor_at::{IndexMutExt, Mode};

fn main() {
    let mut x = Array1::<f64>::zeros(8);
    x.at_mut([0, 9]).mode(Mode::Fill(0.0)).set(1.0).unwrap();
}
