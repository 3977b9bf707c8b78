use tensor_at::at;
use tensor_at::ndarray::Array1;
use tensor_at::num_complex::Complex64;

fn main() {
    let mut z = Array1::<Complex64>::zeros(4);
    at!(z[[0, 1]].min(Complex64::new(1.0, 0.0)));
}
