//! Helpers of the burn tests: tensors to and from ndarray's arrays, bit for
//! bit.

use burn_tensor::{DType, Device, Int, Tensor, TensorData};
use ndarray::{ArrayD, IxDyn};

/// The CPU device, with autodiff.
pub fn autodiff() -> Device {
    Device::flex().autodiff()
}

/// The CPU device, without autodiff.
pub fn plain() -> Device {
    Device::flex()
}

/// `array` as a float tensor of rank `D` on `device`, in `f64`.
pub fn float<const D: usize>(array: &ArrayD<f64>, device: &Device) -> Tensor<D> {
    let data = TensorData::new(array.iter().copied().collect::<Vec<f64>>(), array.shape().to_vec());
    Tensor::from_data(data, (device, DType::F64))
}

/// `array` as an integer tensor of rank `D` on `device`, in `i64`.
pub fn int<const D: usize>(array: &ArrayD<i64>, device: &Device) -> Tensor<D, Int> {
    let data = TensorData::new(array.iter().copied().collect::<Vec<i64>>(), array.shape().to_vec());
    Tensor::from_data(data, (device, DType::I64))
}

/// A float tensor's elements, as an array of its shape.
pub fn float_array<const D: usize>(tensor: Tensor<D>) -> ArrayD<f64> {
    let shape = tensor.dims().to_vec();
    let data = tensor.into_data().convert::<f64>().try_into_vec::<f64>().expect("f64 elements");
    ArrayD::from_shape_vec(IxDyn(&shape), data).expect("elements fill the shape")
}

/// An integer tensor's elements, as an array of its shape.
pub fn int_array<const D: usize>(tensor: Tensor<D, Int>) -> ArrayD<i64> {
    let shape = tensor.dims().to_vec();
    let data = tensor.into_data().convert::<i64>().try_into_vec::<i64>().expect("i64 elements");
    ArrayD::from_shape_vec(IxDyn(&shape), data).expect("elements fill the shape")
}

/// Whether two float arrays are equal bit for bit (NaNs included).
pub fn same_bits(a: &ArrayD<f64>, b: &ArrayD<f64>) -> bool {
    a.shape() == b.shape() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}
