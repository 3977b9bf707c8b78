use burn_tensor::{Device, Tensor};
use tensor_at::at;
use tensor_at::num_complex::Complex;

fn main() {
    let mut x = Tensor::<1>::zeros([4], &Device::flex());
    at!(x[0] = Complex::new(1.0, 2.0));
}
