//! The burn adapter (feature `burn`) on arbitrary inputs: the same call on
//! an ndarray and on a burn tensor of burn's CPU device (flex), compared.
//!
//! The bytes decode into `runtime`'s cases (`fuzz_targets/decode.rs`), with
//! a contiguous target of rank 1 to 4 (burn has neither rank 0 nor views),
//! in `f64` (burn's `Float` in `F64`) or `i64` (`Int` in `I64`). Each index
//! array, `nd`, `along` array and mask of rank 1 to 4 goes to the device as
//! a burn tensor (an array of `u64` in `U64`, any other in `I64`) or stays
//! on the host (one byte decides, per element); an array value goes to the
//! device or not the same way.
//!
//! The burn tensor must answer as the ndarray does: the same read (shape
//! and bits), or the same tensor after a write, or the same error
//! ([`BurnError::Index`] of the ndarray's [`IndexError`]) with the tensor
//! unchanged. `.apply(f)` must be refused ([`BurnError::Unsupported`]),
//! the tensor unchanged. Any panic is a finding. (The ndarray side is
//! checked against the reference interpreter by `runtime`.)
#![no_main]

#[path = "../../tests/suite/reference/mod.rs"]
mod reference;

mod decode;

use burn_tensor::{Bool, DType, Device, Float, Int, Tensor, TensorData};
use decode::{ArbitraryElem, Target};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use reference::case::{Action, Case, ElemSpec, IntsSpec, TestElem, ValueSpec};
use tensor_at::backend::{Indexable, IndexableMut, Value};
use tensor_at::burn::{AnyRank, BurnError, BurnKind, Ranked};
use tensor_at::element::IntoValue;
use tensor_at::index::IndexElem;
use tensor_at::rank::Dynamic;
use tensor_at::{IndexError, along, ix, nd};

fuzz_target!(|data: &[u8]| decode::run_either(data, run::<f64>, run::<i64>));

/// The element types on both sides: how a burn tensor of them is made and
/// read back.
trait OnBurn: ArbitraryElem + burn_tensor::Element {
    type Kind: BurnKind<Elem = Self>;
    const DTYPE: DType;
    fn elements<const D: usize>(tensor: Tensor<D, Self::Kind>) -> Vec<Self>;
}

impl OnBurn for f64 {
    type Kind = Float;
    const DTYPE: DType = DType::F64;
    fn elements<const D: usize>(tensor: Tensor<D, Float>) -> Vec<f64> {
        tensor.into_data().convert::<f64>().try_into_vec::<f64>().expect("f64 elements")
    }
}

impl OnBurn for i64 {
    type Kind = Int;
    const DTYPE: DType = DType::I64;
    fn elements<const D: usize>(tensor: Tensor<D, Int>) -> Vec<i64> {
        tensor.into_data().convert::<i64>().try_into_vec::<i64>().expect("i64 elements")
    }
}

fn run<T: OnBurn>(u: &mut Unstructured<'_>) -> Result<()> {
    let case = decode::case::<T>(u, Target::Contiguous)?;
    // Which arrays go to the device: one flag per index element, and one
    // for the value.
    let on_device: Vec<bool> = (0..=case.index.len()).map(|_| u.arbitrary()).collect::<Result<_>>()?;
    // A panic inside the adapter aborts before any message of ours: run an
    // input with TENSOR_AT_FUZZ_SHOW set to see its case first.
    if std::env::var_os("TENSOR_AT_FUZZ_SHOW").is_some() {
        eprintln!("on the device: {on_device:?}\n{case:?}");
    }
    let outcome = match case.shape.len() {
        1 => compare::<1, T>(&case, &on_device),
        2 => compare::<2, T>(&case, &on_device),
        3 => compare::<3, T>(&case, &on_device),
        _ => compare::<4, T>(&case, &on_device),
    };
    if let Err(failure) = outcome {
        panic!("{failure}\non the device: {on_device:?}\n{case:?}");
    }
    Ok(())
}

fn device() -> Device {
    Device::flex()
}

/// `array` as a burn tensor of kind `K` and rank `N`, in `dtype`.
fn tensor<const N: usize, K: BurnKind, E: burn_tensor::Element>(array: ArrayViewD<'_, E>, dtype: DType) -> Tensor<N, K> {
    let data = TensorData::new(array.iter().copied().collect::<Vec<E>>(), array.shape().to_vec());
    Tensor::from_data(data, (&device(), dtype))
}

/// An index array's elements as `i64`, where every one fits.
fn as_i64(spec: &IntsSpec) -> Option<ArrayD<i64>> {
    fn each<T: Copy + TryInto<i64>>(a: &ArrayD<T>) -> Option<ArrayD<i64>> {
        let values = a.iter().map(|&v| v.try_into().ok()).collect::<Option<Vec<i64>>>()?;
        ArrayD::from_shape_vec(IxDyn(a.shape()), values).ok()
    }
    match spec {
        IntsSpec::Usize(a) => each(a),
        IntsSpec::Isize(a) => each(a),
        IntsSpec::I32(a) => each(a),
        IntsSpec::I64(a) => each(a),
        IntsSpec::U32(a) => each(a),
        IntsSpec::U64(a) => each(a),
    }
}

/// `spec` on the device, where it is an array of rank 1 to 4 of `u64` or
/// whose elements fit `i64`; `None` keeps it on the host.
fn device_elem<'a>(spec: &ElemSpec) -> Option<IndexElem<'a>> {
    macro_rules! by_rank {
        ($rank:expr, |$n:ident| $make:expr) => {
            match $rank {
                1 => {
                    const $n: usize = 1;
                    Some($make)
                }
                2 => {
                    const $n: usize = 2;
                    Some($make)
                }
                3 => {
                    const $n: usize = 3;
                    Some($make)
                }
                4 => {
                    const $n: usize = 4;
                    Some($make)
                }
                _ => None,
            }
        };
    }
    // An array of `u64` goes as a tensor of `U64`, whatever its elements;
    // any other as `I64`, where every element fits.
    macro_rules! int_tensor {
        ($ints:expr, |$t:ident| $make:expr) => {
            match $ints {
                IntsSpec::U64(a) => by_rank!(a.ndim(), |N| {
                    let $t = tensor::<N, Int, u64>(a.view(), DType::U64);
                    $make
                }),
                ints => {
                    let a = as_i64(ints)?;
                    by_rank!(a.ndim(), |N| {
                        let $t = tensor::<N, Int, i64>(a.view(), DType::I64);
                        $make
                    })
                }
            }
        };
    }
    match spec {
        ElemSpec::Ints(ints) => int_tensor!(ints, |t| ix(t)),
        ElemSpec::Nd(ints) => int_tensor!(ints, |t| ix(nd(t))),
        ElemSpec::Along(ints, axis) => int_tensor!(ints, |t| ix(along(t, *axis))),
        ElemSpec::Mask(mask) => by_rank!(mask.ndim(), |N| ix(tensor::<N, Bool, bool>(
            mask.view(),
            DType::Bool(burn_tensor::BoolStore::Native)
        ))),
        _ => None,
    }
}

/// The case's value for the burn tensor: on the device where asked and
/// possible (an array of rank 1 to 4, not a broadcast view).
fn burn_value<T: OnBurn>(spec: &ValueSpec<T>, on_device: bool) -> Value<'_, T> {
    match (spec, spec.view()) {
        (ValueSpec::Scalar(v), _) => Value::Scalar(*v),
        (ValueSpec::Array { array, stretch: None }, _) if on_device && (1..=4).contains(&array.ndim()) => {
            let view = array.view();
            match array.ndim() {
                1 => tensor::<1, T::Kind, T>(view, T::DTYPE).into_value(),
                2 => tensor::<2, T::Kind, T>(view, T::DTYPE).into_value(),
                3 => tensor::<3, T::Kind, T>(view, T::DTYPE).into_value(),
                _ => tensor::<4, T::Kind, T>(view, T::DTYPE).into_value(),
            }
        }
        (_, Some(view)) => Value::Array(view.into()),
        (_, None) => unreachable!("arrays have views"),
    }
}

/// Whether `a` and `b` hold the same elements, bit for bit.
fn same<T: TestElem>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| T::same(x, y))
}

/// Runs `case` on an ndarray and on a burn tensor of rank `D`; `Err` says
/// how they disagree.
fn compare<const D: usize, T: OnBurn>(case: &Case<T>, on_device: &[bool]) -> std::result::Result<(), String>
where
    Tensor<D, T::Kind>: Ranked,
{
    let host: Vec<IndexElem<'_>> = case.index.iter().map(ElemSpec::elem).collect();
    let index: Vec<IndexElem<'_>> = case
        .index
        .iter()
        .zip(on_device)
        .map(|(spec, &device)| device.then(|| device_elem(spec)).flatten().unwrap_or_else(|| spec.elem()))
        .collect();
    let original: Vec<T> = case.base.iter().copied().collect();
    let mut target: Tensor<D, T::Kind> = tensor(case.base.view(), T::DTYPE);
    let mode = case.mode;

    let same_error = |burn: &BurnError, ndarray: &IndexError| matches!(burn, BurnError::Index(e) if e == ndarray);
    if let Action::Get = case.action {
        let view = case.base.view();
        let expected = tensor_at::backend::get(&view, &host, mode);
        let actual = Indexable::read_index::<Dynamic, IxDyn>(&target, &index, 0, mode);
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => {
                let shape = actual.shape().to_vec();
                let elements = read_elements::<T>(actual);
                let want: Vec<T> = expected.iter().copied().collect();
                if shape != expected.shape() || !same(&elements, &want) {
                    return Err(format!("read {shape:?} {elements:?}, ndarray read {:?} {want:?}", expected.shape()));
                }
            }
            (Err(actual), Err(expected)) if same_error(&actual, &expected) => {}
            (actual, expected) => return Err(format!("burn: {:?}\nndarray: {expected:?}", actual.map(|r| r.shape().to_vec()))),
        }
        let after = T::elements(target);
        return if same(&after, &original) {
            Ok(())
        } else {
            Err(format!("a read changed the tensor to {after:?}"))
        };
    }

    let value = burn_value(&case.value, on_device[case.index.len()]);
    let mut expected_base = case.base.clone();
    let actual = match case.action {
        Action::Set => IndexableMut::set_index(&mut target, &index, 0, value, mode),
        Action::Update(op) => IndexableMut::update_index(&mut target, &index, 0, op, value, mode),
        Action::Apply => IndexableMut::apply_index(&mut target, &index, 0, T::f, mode),
        Action::Get => unreachable!("handled above"),
    };
    let after = T::elements(target);
    let unchanged = same(&after, &original);
    if let Action::Apply = case.action {
        return match actual {
            Err(BurnError::Unsupported { .. }) if unchanged => Ok(()),
            other => Err(format!("apply: {other:?}, the tensor {after:?}")),
        };
    }
    let expected = match (case.action, &case.value, case.value.view()) {
        (Action::Set, ValueSpec::Scalar(v), _) => tensor_at::backend::set(&mut expected_base, &host, *v, mode),
        (Action::Set, _, Some(view)) => tensor_at::backend::set(&mut expected_base, &host, view, mode),
        (Action::Update(op), ValueSpec::Scalar(v), _) => tensor_at::backend::update(&mut expected_base, &host, op, *v, mode),
        (Action::Update(op), _, Some(view)) => tensor_at::backend::update(&mut expected_base, &host, op, view, mode),
        _ => unreachable!("writes with a value"),
    };
    match (actual, expected) {
        (Ok(()), Ok(())) => {
            let want: Vec<T> = expected_base.iter().copied().collect();
            if !same(&after, &want) {
                return Err(format!("burn wrote {after:?}\nndarray wrote {want:?}"));
            }
        }
        (Err(actual), Err(expected)) if same_error(&actual, &expected) => {
            if !unchanged {
                return Err(format!("error {actual}, and the tensor changed to {after:?}"));
            }
        }
        (actual, expected) => return Err(format!("burn: {actual:?}\nndarray: {expected:?}")),
    }
    Ok(())
}

/// A read's elements, in C order (`AnyRank` gives them in its own rank).
fn read_elements<T: OnBurn>(read: AnyRank<T::Kind>) -> Vec<T> {
    macro_rules! ranks {
        ($($n:literal)*) => {
            match read.shape().len().max(1) {
                $($n => T::elements(read.into_rank::<$n>().expect("its own rank")),)*
                rank => panic!("a read of rank {rank}: more than this target reads back"),
            }
        };
    }
    ranks!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}
