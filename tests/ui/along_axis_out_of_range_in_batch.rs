use ndarray::{Array3, array};
use tensor_at::{along, at};

fn main() {
    // Under a batch, the axis counts in each batch's y[b]: 2 axes.
    let mut y = Array3::<f64>::zeros((2, 2, 3));
    let idx = array![[[0usize]], [[1]]];
    at!(y[along(idx, 2)] += 1.0; batch = 1);
}
