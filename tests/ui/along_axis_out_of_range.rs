use ndarray::{Array2, Array3, array};
use tensor_at::{along, at};

fn main() {
    let x = Array2::<f64>::zeros((2, 3));
    let idx = array![[0usize], [2]];
    let _ = at!(x[along(idx, 2)]);
    let _ = at!(x[along(idx, -3)]);
    // Under a batch, the axis counts in each batch's x[b].
    let mut y = Array3::<f64>::zeros((2, 2, 3));
    let deep = array![[[0usize]], [[1]]];
    at!(y[along(deep, 2)] += 1.0; batch = 1);
}
