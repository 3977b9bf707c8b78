use burn_tensor::{Device, Tensor};
use tensor_at::at;

fn main() {
    let mut x = Tensor::<2>::zeros([4, 3], &Device::flex());
    let _view = at!(&mut x[1..3, ..]);
}
