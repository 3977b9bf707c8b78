use tensor_at::ndarray::Array1;
use tensor_at::num_complex::Complex64;
use tensor_at::IndexMutExt;

fn main() {
    let mut z = Array1::<Complex64>::zeros(3);
    z.at_mut([0, 2]).min(Complex64::new(1.0, 0.0)).unwrap();
}
