use tensor_at::ndarray::Array1;
use tensor_at::{IndexExt, Mode};

fn main() {
    let x = Array1::<f64>::zeros(8);
    let _ = x.at([0, 9]).mode(Mode::Drop).get();
}
