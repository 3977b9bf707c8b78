use burn_tensor::{Device, Tensor};
use tensor_at::at;

fn main() {
    let mut x = Tensor::<1>::zeros([4], &Device::flex());
    at!(x[1..3].apply(|v| v * 2.0));
}
