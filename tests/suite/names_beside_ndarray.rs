//! Every public name of tensor-at, of its prelude and of its modules for
//! generic code, glob-imported beside every name of ndarray: each is named
//! once below by its short name, which is an error ("is ambiguous", under
//! `deny(warnings)`) if both crates export it.
#![deny(warnings)]
#![allow(unused_imports)]

use tensor_at::element::*;
use tensor_at::error::*;
use tensor_at::index::*;
use tensor_at::ndarray::prelude::*;
use tensor_at::ndarray::*;
use tensor_at::prelude::*;
use tensor_at::*;

use self::{
    Along as _, Arith as _, At as _, AtFilled as _, AtMut as _, BatchPart as _, Bitwise as _, Compare as _, CrossArgs as _, CrossAxis as _,
    CrossIndex as _, Dims as _, Ellipsis as _, FilledRead as _, IndexArrayElement as _, IndexArrayInt as _, IndexElem as _,
    IndexError as _, IndexExt as _, IndexInt as _, IndexMutExt as _, IndexShapes as _, IntArray as _, IntoCowArray as _,
    IntoIndexElem as _, IntoIndexList as _, IntoRangeSlice as _, IntoUpdated as _, IntoValue as _, Mode as _, Nd as _, NewAxis as _,
    Nonzero as _, OneDimensional as _, Op as _, OperandFault as _, Ordered as _, PutValues as _, PySlice as _, RangeSlice as _, Read as _,
    ReadMode as _, SameElement as _, Scalar as _, SetError as _, Updated as _, UpdatedResult as _, along as _, argwhere as _, at as _,
    backend as _, element as _, error as _, guarantees as _, index as _, ix as _, ix_ as _, nd as _, nonzero as _, num_complex as _,
    numpy_users as _, place as _, put as _, set as _, take as _, try_at as _, try_set as _,
};

#[test]
fn each_name_is_tensor_at_s_or_ndarray_s_alone() {
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
