// Every name of tensor-at and of its prelude beside every name of ndarray:
// nothing is ambiguous, so each is used here by its short name.
use tensor_at::ndarray::prelude::*;
use tensor_at::ndarray::*;
use tensor_at::prelude::*;
use tensor_at::*;

fn main() {
    let mut x: Array2<f64> = Array::zeros(Shape::from(Dim([2, 3])));
    at!(x[.., NewAxis, 1] = 1.0);
    let y = set!(x[0, ..] = 2.0);
    assert_eq!(y.slice(s![0, ..]), arr1(&[2.0, 2.0, 2.0]));
    x.at_mut((Ellipsis, 2)).mode(Mode::Drop).add(3.0).unwrap();
    let column: ArrayView1<f64> = x.at((.., 2)).mode(ReadMode::Clip).get().unwrap();
    assert_eq!(column, arr1(&[3.0, 3.0]));
    let _: Result<(), IndexError> = x.at_mut(ix(0)).update(Op::Add, 0.0);
    assert_eq!(nonzero(&x).len(), 2);
    assert_eq!(x.index_axis(Axis(0), 1)[1], 1.0);
}
