//! Random index expressions through both backends: every read, set and
//! update on the GPU gives tensor-core's CPU result (bit for bit) or its
//! error, and leaves the tensor unchanged on error.

use crate::common::{InAnyMode, assert_same, assert_same_outcome, upload};
use ndarray::{Array, ArrayD, IxDyn};
use proptest::prelude::*;
use tensor_core::backend::plan::resolve;
use tensor_core::backend::{AnyMode, Bounds};
use tensor_core::index::{IndexElem, PySlice};
use tensor_core::value::{IntoValue, Value};
use tensor_core::{Op, ix};
use tensor_gpu::Gpu;

/// One index element, drawn for an axis of length `len`.
#[derive(Clone, Debug)]
enum Elem {
    Int(i64),
    Slice(Option<isize>, Option<isize>, Option<isize>),
    NewAxis,
    Ellipsis,
    Array(Vec<usize>, Vec<i64>),
    Mask(Vec<bool>),
}

impl Elem {
    fn index(&self) -> IndexElem<'static> {
        match self {
            Elem::Int(i) => ix(*i),
            Elem::Slice(a, b, c) => ix(PySlice::new(*a, *b, *c)),
            Elem::NewAxis => ix(tensor_core::index::NewAxis),
            Elem::Ellipsis => ix(tensor_core::index::Ellipsis),
            Elem::Array(shape, values) => ix(Array::from_shape_vec(IxDyn(shape), values.clone()).unwrap()),
            Elem::Mask(mask) => ix(Array::from_vec(mask.clone())),
        }
    }
}

/// Mostly in bounds, sometimes just outside (every mode then matters).
fn position(len: usize) -> impl Strategy<Value = i64> {
    let n = len as i64;
    prop_oneof![8 => -n.max(1)..n.max(1), 1 => -n - 3..n + 3]
}

fn elem(len: usize) -> impl Strategy<Value = Elem> {
    let bound = len as isize + 2;
    prop_oneof![
        3 => position(len).prop_map(Elem::Int),
        4 => (
            proptest::option::of(-bound..bound),
            proptest::option::of(-bound..bound),
            proptest::option::of(prop_oneof![Just(-3isize), Just(-2), Just(-1), Just(1), Just(2), Just(3)])
        )
            .prop_map(|(a, b, c)| Elem::Slice(a, b, c)),
        1 => Just(Elem::NewAxis),
        1 => Just(Elem::Ellipsis),
        4 => prop_oneof![Just(vec![0usize]), Just(vec![1]), Just(vec![5]), Just(vec![40]), Just(vec![2, 3]), Just(vec![])]
            .prop_flat_map(move |shape| {
                let count = shape.iter().product::<usize>();
                (Just(shape), proptest::collection::vec(position(len), count))
            })
            .prop_map(|(shape, values)| Elem::Array(shape, values)),
        2 => proptest::collection::vec(any::<bool>(), len).prop_map(Elem::Mask),
    ]
}

/// What runs on both backends.
#[derive(Clone, Debug)]
enum Call {
    Get(AnyMode<f32>),
    Set(AnyMode<f32>, bool),
    Update(Op, AnyMode<f32>, bool),
}

fn call() -> impl Strategy<Value = Call> {
    let read_mode = prop_oneof![
        Just(AnyMode::Error),
        Just(AnyMode::Clip),
        Just(AnyMode::Wrap),
        Just(AnyMode::Fill(-1.5f32))
    ];
    let write_mode = prop_oneof![Just(AnyMode::Error), Just(AnyMode::Clip), Just(AnyMode::Wrap), Just(AnyMode::Drop)];
    let op = prop_oneof![
        Just(Op::Add),
        Just(Op::Sub),
        Just(Op::Mul),
        Just(Op::Div),
        Just(Op::Min),
        Just(Op::Max)
    ];
    prop_oneof![
        read_mode.prop_map(Call::Get),
        (write_mode.clone(), any::<bool>()).prop_map(|(mode, array)| Call::Set(mode, array)),
        (op, write_mode, any::<bool>()).prop_map(|(op, mode, array)| Call::Update(op, mode, array)),
    ]
}

/// A shape (sometimes larger than a cube), a layout (C order or a reversed
/// view), an index drawn for its axes (up to one element too many), and a call.
fn case() -> impl Strategy<Value = (Vec<usize>, bool, Vec<Elem>, Call, u64)> {
    let len = prop_oneof![6 => 1usize..7, 1 => Just(0usize), 1 => 60usize..300];
    proptest::collection::vec(len, 1..4).prop_flat_map(|shape| {
        let mut elems: Vec<_> = shape.iter().map(|&len| elem(len)).collect();
        elems.push(elem(3));
        let count = 0..=shape.len() + 1;
        let elems = (elems, count).prop_map(|(mut elems, count)| {
            elems.truncate(count);
            elems
        });
        (Just(shape), any::<bool>(), elems, call(), any::<u64>())
    })
}

fn values(shape: &[usize], seed: u64) -> ArrayD<f32> {
    let mut rng = crate::common::Lcg(seed);
    Array::from_shape_simple_fn(IxDyn(shape), || rng.float())
}

fn run(gpu: &Gpu, shape: &[usize], reversed: bool, elems: &[Elem], call: &Call, seed: u64) {
    let base = values(shape, seed);
    let index: Vec<IndexElem<'_>> = elems.iter().map(Elem::index).collect();
    let what = format!("{call:?} on {shape:?} (reversed: {reversed}) at {elems:?}");
    // A reversed target is a view with negative strides on both backends.
    let whole: Vec<IndexElem<'_>> = shape.iter().map(|_| ix(PySlice::new(None, None, Some(-1)))).collect();
    let target_index: &[IndexElem<'_>] = if reversed { &whole } else { &[] };
    let mut cpu_base = base.clone();
    let g = upload(gpu, &base);
    let mut view = g.view(target_index).unwrap();
    let mut cpu = cpu_base.slice_each_axis_mut(|_| ndarray::Slice::new(0, None, if reversed { -1 } else { 1 }));
    // The value: a scalar, or an array of the region's shape.
    let region = resolve(&index, cpu.shape(), cpu.strides(), Bounds::Skip).map(|plan| plan.shape().to_vec());
    let value = |array: bool| -> Value<'static, f32> {
        match (array, &region) {
            (true, Ok(region)) => values(region, seed ^ 1).into_value(),
            _ => 0.75f32.into_value(),
        }
    };
    match *call {
        Call::Get(mode) => {
            let expected = tensor_core::backend::get(&cpu, &index, mode).map(|read| read.into_owned());
            let got = view.get_in(&index, mode);
            if assert_same_outcome(&got, &expected, &what) {
                assert_same(&got.unwrap().to_array().unwrap(), &expected.unwrap(), &what);
            }
        }
        Call::Set(mode, array) => {
            let value = value(array);
            let expected = tensor_core::backend::set(&mut cpu, &index, value.clone(), mode);
            assert_same_outcome(&view.set_in(&index, value, mode), &expected, &what);
        }
        Call::Update(op, mode, array) => {
            let value = value(array);
            let expected = tensor_core::backend::update(&mut cpu, &index, op, value.clone(), mode);
            assert_same_outcome(&view.update_in(&index, op, value, mode), &expected, &what);
        }
    }
    assert_same(&g.to_array().unwrap(), &cpu_base, &format!("{what}: the whole target"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_index_expressions_same_as_cpu((shape, reversed, elems, call, seed) in case()) {
        let Some(gpu) = crate::common::gpu() else { return Ok(()) };
        run(&gpu, &shape, reversed, &elems, &call, seed);
    }
}
