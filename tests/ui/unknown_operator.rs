use ndarray::Array1;
use tensor_at::at;

fn main() {
    let mut x = Array1::<i32>::zeros(8);
    at!(x[0] <<= 2);
}
