//! Gradients through reads and updates of burn tensors, against JAX's
//! (`jax.vjp`, the corpus tests/burn/corpus/gradients.json made by
//! generate.py beside it) and against finite differences.

use burn_tensor::Tensor;
use ndarray::{Array1, Array2, ArrayD, IxDyn};
use serde_json::Value as Json;
use tensor_at::burn::unique;
use tensor_at::{along, at, nd};
use tensor_at_burn_tests::{autodiff, float, float_array, int};

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

/// The forms indexed by one one-dimensional array, which `$idx` makes:
/// the case's answer, or `None` for another form.
macro_rules! one_array_forms {
    ($case:expr, $idx:expr) => {
        match $case["form"].as_str().unwrap() {
            "get" => Some(answer!($case, 1, 1, 1, |x, v| at!(x[$idx]))),
            "set" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] = v);
                x
            })),
            "add" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] += v);
                x
            })),
            "sub" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] -= v);
                x
            })),
            "mul" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] *= v);
                x
            })),
            "div" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] /= v);
                x
            })),
            "pow" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx].pow(v));
                x
            })),
            "min" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx].min(v));
                x
            })),
            "max" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx].max(v));
                x
            })),
            "get_mixed" => Some(answer!($case, 2, 2, 2, |x, v| at!(x[1.., $idx]))),
            "set_mixed" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[1.., $idx] = v);
                x
            })),
            "add_mixed" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[1.., $idx] += v);
                x
            })),
            "mul_mixed" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[1.., $idx] *= v);
                x
            })),
            "get_clip" => Some(answer!($case, 1, 1, 1, |x, v| at!(x[$idx]; mode = clip))),
            "get_fill" => Some(answer!($case, 1, 1, 1, |x, v| at!(x[$idx]; mode = fill(-1.5)))),
            "add_drop" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] += v; mode = drop);
                x
            })),
            "get_rows" => Some(answer!($case, 2, 2, 2, |x, v| at!(x[$idx]))),
            "set_rows" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[$idx] = v);
                x
            })),
            "add_rows" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[$idx] += v);
                x
            })),
            "mul_rows" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[$idx] *= v);
                x
            })),
            "max_rows" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[$idx].max(v));
                x
            })),
            _ => None,
        }
    };
}

/// The forms whose one one-dimensional index array holds no element
/// twice, which `$idx` makes (promised distinct or not).
macro_rules! distinct_forms {
    ($case:expr, $idx:expr) => {
        match $case["form"].as_str().unwrap() {
            "set_unique" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] = v);
                x
            })),
            "mul_unique" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx] *= v);
                x
            })),
            "max_unique" => Some(answer!($case, 1, 1, 1, |x, v| {
                at!(x[$idx].max(v));
                x
            })),
            "set_rows_unique" => Some(answer!($case, 2, 2, 2, |x, v| {
                at!(x[$idx] = v);
                x
            })),
            _ => None,
        }
    };
}

/// The case's answer, its indices on the host.
fn run(case: &Json) -> Answer {
    let index = &case["index"][0];
    let idx1 = || -> Array1<i64> { indices(index).into_dimensionality().unwrap() };
    let idx2 = || -> Array2<i64> { indices(index).into_dimensionality().unwrap() };
    if let Some(answer) = one_array_forms!(case, idx1()).or_else(|| distinct_forms!(case, idx1())) {
        return answer;
    }
    match case["form"].as_str().unwrap() {
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
        "get_batch" => answer!(case, 2, 2, 2, |x, v| at!(x[idx2()]; batch = 1)),
        "add_batch" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[idx2()] += v; batch = 1);
            x
        }),
        "get_view" => answer!(case, 2, 2, 2, |x, v| at!(x[1:, ::-2])),
        "set_view" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1:, ::-2] = v);
            x
        }),
        "mul_view" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1:, ::-2] *= v);
            x
        }),
        "max_view" => answer!(case, 2, 2, 2, |x, v| {
            at!(x[1:, ::-2].max(v));
            x
        }),
        "add_view" => answer!(case, 2, 1, 2, |x, v| {
            at!(x[::-1, 2] += v);
            x
        }),
        form => panic!("a form the test does not know: {form}"),
    }
}

/// The case's answer, its one index array on the device; `None` for the
/// forms with another index.
fn run_on_device(case: &Json) -> Option<Answer> {
    let index = || indices(&case["index"][0]);
    let idx2 = || int::<2>(&index(), &autodiff());
    match case["form"].as_str().unwrap() {
        "get_along" => Some(answer!(case, 2, 2, 2, |x, v| at!(x[along(idx2(), 1)]))),
        "add_along" => Some(answer!(case, 2, 2, 2, |x, v| {
            at!(x[along(idx2(), 1)] += v);
            x
        })),
        _ => one_array_forms!(case, int::<1>(&index(), &autodiff())).or_else(|| distinct_forms!(case, int::<1>(&index(), &autodiff()))),
    }
}

/// The case's answer, its distinct indices on the device and promised
/// so; `None` for the other forms.
fn run_promised_distinct(case: &Json) -> Option<Answer> {
    distinct_forms!(case, unique(int::<1>(&indices(&case["index"][0]), &autodiff())))
}

/// Checks `run`'s answer for every case of the corpus it answers against
/// JAX's; returns how many it answered.
fn same_as_jax(run: impl Fn(&Json) -> Option<Answer>) -> usize {
    let corpus: Json = serde_json::from_str(include_str!("../corpus/gradients.json")).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 100, "the corpus holds every form");
    let mut failures = Vec::new();
    let mut answered = 0;
    for (n, case) in cases.iter().enumerate() {
        let Some(answer) = run(case) else {
            continue;
        };
        answered += 1;
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
        answered,
        failures.join("\n")
    );
    answered
}

#[test]
fn gradients_are_jax_s() {
    let corpus: Json = serde_json::from_str(include_str!("../corpus/gradients.json")).unwrap();
    let cases = corpus["cases"].as_array().unwrap().len();
    assert_eq!(same_as_jax(|case| Some(run(case))), cases);
}

#[test]
fn gradients_with_index_arrays_on_the_device_are_jax_s() {
    // Every form indexed by one array: reads, every operation, the modes,
    // and distinct indices (not promised so). 27 forms, 4 cases each.
    assert_eq!(same_as_jax(run_on_device), 108);
}

#[test]
fn gradients_with_indices_promised_distinct_are_jax_s() {
    // `=`, `*=` (a zero among the values), `max` (a tie with the target's
    // element) and `=` of rows: 4 forms, 4 cases each.
    assert_eq!(same_as_jax(run_promised_distinct), 16);
}
