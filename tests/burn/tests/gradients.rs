//! Gradients through reads and updates of burn tensors, against JAX's
//! (`jax.vjp`, the corpus tests/burn/corpus/gradients.json made by
//! generate.py beside it) and against finite differences.

use burn_tensor::Tensor;
use ndarray::{Array1, Array2, ArrayD, IxDyn};
use serde_json::Value as Json;
use tensor_at::{along, at, nd};
use tensor_at_burn_tests::{autodiff, float, float_array};

/// An array of the corpus, its elements read by `element`.
fn elements<T>(json: &Json, element: impl Fn(&Json) -> T) -> ArrayD<T> {
    let shape: Vec<usize> = json["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    let data: Vec<T> = json["data"].as_array().unwrap().iter().map(element).collect();
    ArrayD::from_shape_vec(IxDyn(&shape), data).unwrap()
}

/// An array of floats of the corpus.
fn array(json: &Json) -> ArrayD<f64> {
    elements(json, |n| n.as_f64().unwrap())
}

fn indices(json: &Json) -> ArrayD<i64> {
    array(json).mapv(|i| i as i64)
}

fn mask(json: &Json) -> Array2<bool> {
    elements(json, |b| b.as_bool().unwrap()).into_dimensionality().unwrap()
}

/// Whether `actual` is `expected` up to rounding (the corpus's values are
/// quarters: most are exact).
fn close(actual: &ArrayD<f64>, expected: &ArrayD<f64>) -> bool {
    actual.shape() == expected.shape()
        && actual
            .iter()
            .zip(expected)
            .all(|(a, e)| a == e || (a - e).abs() <= 1e-12 * e.abs().max(1.0) || (a.is_nan() && e.is_nan()))
}

/// What one case computes: the result, and the gradients of the result
/// against the cotangent with respect to the target and the value.
struct Answer {
    out: ArrayD<f64>,
    dx: ArrayD<f64>,
    dv: Option<ArrayD<f64>>,
}

/// Runs `$call` (an expression of `x`, `v`, `idx`) on the case: `x` a
/// tensor of rank `$d` that requires its gradient, `v` the value of rank
/// `$dv` if the case has one; `$call` yields the result, of rank `$out`.
macro_rules! answer {
    ($case:expr, $d:literal, $dv:literal, $out:literal, |$x:ident, $v:ident| $call:expr) => {{
        let device = autodiff();
        let x0: Tensor<$d> = float(&array(&$case["x"]), &device).require_grad();
        let v0: Option<Tensor<$dv>> = $case.get("value").map(|v| float(&array(v), &device).require_grad());
        #[allow(unused_mut)]
        let mut $x = x0.clone();
        #[allow(unused_variables)]
        let $v = v0.clone().unwrap_or_else(|| Tensor::zeros([1; $dv], &device));
        let out: Tensor<$out> = $call;
        let ct: Tensor<$out> = float(&array(&$case["ct"]), &device);
        let grads = (out.clone() * ct).sum().backward();
        Answer {
            out: float_array(out.detach()),
            dx: float_array(x0.grad(&grads).expect("a gradient for the target")),
            dv: v0.map(|v| float_array(v.grad(&grads).expect("a gradient for the value"))),
        }
    }};
}

fn run(case: &Json) -> Answer {
    let index = &case["index"][0];
    let idx1 = || -> Array1<i64> { indices(index).into_dimensionality().unwrap() };
    let idx2 = || -> Array2<i64> { indices(index).into_dimensionality().unwrap() };
    match case["form"].as_str().unwrap() {
        "get" => answer!(case, 1, 1, 1, |x, v| at!(x[idx1()])),
        "set" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] = v);
            x
        }),
        "add" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] += v);
            x
        }),
        "sub" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] -= v);
            x
        }),
        "mul" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] *= v);
            x
        }),
        "div" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] /= v);
            x
        }),
        "pow" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()].pow(v));
            x
        }),
        "min" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()].min(v));
            x
        }),
        "max" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()].max(v));
            x
        }),
        "get_mixed" => answer!(case, 2, 2, 2, |x, v| at!(x[1.., idx1()])),
        "set_mixed" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1.., idx1()] = v);
            x
        }),
        "add_mixed" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1.., idx1()] += v);
            x
        }),
        "mul_mixed" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1.., idx1()] *= v);
            x
        }),
        "get_mask" => answer!(case, 2, 1, 1, |x, v| at!(x[mask(index)])),
        "set_mask" => answer!(case, 2, 1, 2, |x, v| {
            at!(x[mask(index)] = v);
            x
        }),
        "mul_mask" => answer!(case, 2, 1, 2, |x, v| {
            at!(x[mask(index)] *= v);
            x
        }),
        "get_along" => answer!(case, 2, 2, 2, |x, v| at!(x[along(idx2(), 1)])),
        "add_along" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[along(idx2(), 1)] += v);
            x
        }),
        "get_nd" => answer!(case, 2, 1, 1, |x, v| at!(x[nd(idx2())]).into_rank::<1>().unwrap()),
        "max_nd" => answer!(case, 2, 1, 2, |x, v| {
            at!(x[nd(idx2())].max(v));
            x
        }),
        "get_clip" => answer!(case, 1, 1, 1, |x, v| at!(x[idx1()]; mode = clip)),
        "get_fill" => answer!(case, 1, 1, 1, |x, v| at!(x[idx1()]; mode = fill(-1.5))),
        "add_drop" => answer!(case, 1, 1, 1, |x, v| {
            at!(x[idx1()] += v; mode = drop);
            x
        }),
        "get_batch" => answer!(case, 2, 2, 2, |x, v| at!(x[idx2()]; batch = 1)),
        "add_batch" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[idx2()] += v; batch = 1);
            x
        }),
        form => panic!("a form the test does not know: {form}"),
    }
}

#[test]
fn gradients_are_jax_s() {
    let corpus: Json = serde_json::from_str(include_str!("../corpus/gradients.json")).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 100, "the corpus holds every form");
    let mut failures = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let answer = run(case);
        let form = case["form"].as_str().unwrap();
        let mut check = |what: &str, actual: &ArrayD<f64>, expected: &ArrayD<f64>| {
            if !close(actual, expected) {
                failures.push(format!("case {n} ({form}) {what}: burn {actual} JAX {expected}"));
            }
        };
        check("result", &answer.out, &array(&case["out"]));
        check("target's gradient", &answer.dx, &array(&case["dx"]));
        if let (Some(dv), Some(expected)) = (&answer.dv, case.get("dv")) {
            check("value's gradient", dv, &array(expected));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
