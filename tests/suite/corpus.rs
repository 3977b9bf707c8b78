//! NumPy-differential corpus: every case of `tests/corpus/cases.json`
//! (written by `tests/corpus/generate.py`, which sits beside it and whose
//! header documents the format; committed, and checked against a fresh
//! generation by `scripts/test`)
//! must give NumPy's answer, or the `IndexError` variant NumPy's exception
//! stands for, and a failing case must leave the target bit for bit
//! unchanged. All cases run; the failures are reported together.
//!
//! `TENSOR_AT_CORPUS=path` runs another corpus file.

use std::fmt::Debug;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;

use ndarray::{ArrayD, ArrayViewMutD, Axis, CowArray, Dimension, IxDyn, Slice};
use serde_json::Value as Json;
use tensor_at::backend::AnyMode;
use tensor_at::backend::Value;
use tensor_at::element::Nonzero;
use tensor_at::element::{Arith, Scalar};
use tensor_at::index::{CrossIndex, Ellipsis, IndexArrayElement, IndexElem, IndexInt, NewAxis, PySlice, RangeSlice};
use tensor_at::num_complex::Complex;
use tensor_at::{IndexError, Mode, Op, ReadMode, along, ix, nd};

/// Cases below this count mean the corpus was cut short.
const MIN_CASES: usize = 400;

type Outcome<T> = Result<T, String>;

/// The element types of corpus targets.
trait Elem: Arith + Scalar + Debug {
    fn parse(json: &Json) -> Outcome<Self>;
    /// Equal bit for bit (any NaN equals any NaN), or within `rtol`.
    fn same(self, other: Self, rtol: f64) -> bool;
    fn square(self) -> Self;
    fn negate(self) -> Self;
    fn double(self) -> Self;
}

macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn parse(json: &Json) -> Outcome<Self> {
                match json {
                    Json::String(s) if s == "inf" => Ok(<$t>::INFINITY),
                    Json::String(s) if s == "-inf" => Ok(<$t>::NEG_INFINITY),
                    Json::String(s) if s == "nan" => Ok(<$t>::NAN),
                    // Long decimals come as strings: std's parse rounds correctly.
                    Json::String(s) => s.parse::<f64>().map(|x| x as $t).map_err(|e| format!("not a number: {s:?}: {e}")),
                    _ => json.as_f64().map(|x| x as $t).ok_or_else(|| format!("not a number: {json}")),
                }
            }
            fn same(self, other: Self, rtol: f64) -> bool {
                self.to_bits() == other.to_bits()
                    || (self.is_nan() && other.is_nan())
                    || (rtol > 0.0 && f64::from((self - other).abs()) <= rtol * f64::from(self.abs().max(other.abs())))
            }
            fn square(self) -> Self {
                self * self
            }
            fn negate(self) -> Self {
                -self
            }
            fn double(self) -> Self {
                self * 2.0
            }
        }
    )*};
}
float_elem!(f64, f32);

/// NumPy's `float16`: its values parse exactly (the corpus uses quarters).
impl Elem for half::f16 {
    fn parse(json: &Json) -> Outcome<Self> {
        f64::parse(json).map(half::f16::from_f64)
    }
    fn same(self, other: Self, rtol: f64) -> bool {
        self.to_bits() == other.to_bits()
            || (self.is_nan() && other.is_nan())
            || (rtol > 0.0 && (self.to_f64() - other.to_f64()).abs() <= rtol * self.to_f64().abs().max(other.to_f64().abs()))
    }
    fn square(self) -> Self {
        self * self
    }
    fn negate(self) -> Self {
        -self
    }
    fn double(self) -> Self {
        self * half::f16::from_f32(2.0)
    }
}

/// NumPy's `complex128` and `complex64`: a pair `[real, imag]` (or a real
/// number), each part compared bit for bit.
macro_rules! complex_elem {
    ($($t:ty),*) => {$(
        impl Elem for Complex<$t> {
            fn parse(json: &Json) -> Outcome<Self> {
                match json.as_array().map(Vec::as_slice) {
                    Some([re, im]) => Ok(Complex::new(<$t>::parse(re)?, <$t>::parse(im)?)),
                    Some(_) => Err(format!("not a complex number: {json}")),
                    None => Ok(Complex::new(<$t>::parse(json)?, 0.0)),
                }
            }
            fn same(self, other: Self, rtol: f64) -> bool {
                self.re.same(other.re, rtol) && self.im.same(other.im, rtol)
            }
            fn square(self) -> Self {
                self * self
            }
            fn negate(self) -> Self {
                -self
            }
            // `np.multiply.at(x, i, 2)`: a complex product, as NumPy makes it.
            fn double(self) -> Self {
                self * Complex::new(2.0, 0.0)
            }
        }
    )*};
}
complex_elem!(f64, f32);

/// Integers wrap on overflow, as NumPy's fixed-width integers do.
macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn parse(json: &Json) -> Outcome<Self> {
                json.as_i64().and_then(|x| <$t>::try_from(x).ok()).ok_or_else(|| format!("not a {}: {json}", stringify!($t)))
            }
            fn same(self, other: Self, _rtol: f64) -> bool {
                self == other
            }
            fn square(self) -> Self {
                self.wrapping_mul(self)
            }
            fn negate(self) -> Self {
                self.wrapping_neg()
            }
            fn double(self) -> Self {
                self.wrapping_mul(2)
            }
        }
    )*};
}
int_elem!(i64, i32);

fn field<'j>(json: &'j Json, key: &str) -> Outcome<&'j Json> {
    json.get(key).ok_or_else(|| format!("missing `{key}` in {json}"))
}

fn int(json: &Json) -> Outcome<isize> {
    json.as_i64()
        .and_then(|x| isize::try_from(x).ok())
        .ok_or_else(|| format!("not an integer: {json}"))
}

fn opt_int(json: &Json) -> Outcome<Option<isize>> {
    if json.is_null() { Ok(None) } else { int(json).map(Some) }
}

fn list(json: &Json) -> Outcome<&Vec<Json>> {
    json.as_array().ok_or_else(|| format!("not a list: {json}"))
}

/// An `{"dtype", "shape", "data"}` array, each element read by `parse`.
fn array<A>(json: &Json, parse: impl Fn(&Json) -> Outcome<A>) -> Outcome<ArrayD<A>> {
    let shape = list(field(json, "shape")?)?
        .iter()
        .map(|d| int(d).map(|d| d as usize))
        .collect::<Outcome<Vec<_>>>()?;
    let data = list(field(json, "data")?)?.iter().map(parse).collect::<Outcome<Vec<_>>>()?;
    ArrayD::from_shape_vec(IxDyn(&shape), data).map_err(|e| format!("bad array {json}: {e}"))
}

fn index_int<I: IndexInt + TryFrom<i128>>(json: &Json) -> Outcome<I> {
    let wide = json.as_i64().map(i128::from).or_else(|| json.as_u64().map(i128::from));
    wide.and_then(|x| I::try_from(x).ok())
        .ok_or_else(|| format!("not an index of this type: {json}"))
}

/// How an integer index array stands in its index.
#[derive(Clone, Copy)]
enum Wrap {
    /// `ix(array)`.
    Plain,
    /// `ix(nd(array))`.
    Nd,
    /// `ix(along(array, axis))`.
    Along(isize),
}

/// An integer index array, wrapped as `wrap` says.
fn int_array_elem(json: &Json, wrap: Wrap) -> Outcome<IndexElem<'static>> {
    fn typed<I: IndexInt + TryFrom<i128>>(json: &Json, wrap: Wrap) -> Outcome<IndexElem<'static>> {
        let a = array(json, index_int::<I>)?;
        Ok(match wrap {
            Wrap::Plain => ix(a),
            Wrap::Nd => ix(nd(a)),
            Wrap::Along(axis) => ix(along(a, axis)),
        })
    }
    /// A narrow integer type (plain index arrays only).
    fn narrow<I: IndexArrayElement + TryFrom<i128> + 'static>(json: &Json, wrap: Wrap) -> Outcome<IndexElem<'static>> {
        let parse = |json: &Json| {
            let wide = json.as_i64().map(i128::from).or_else(|| json.as_u64().map(i128::from));
            wide.and_then(|x| I::try_from(x).ok())
                .ok_or_else(|| format!("not an index of this type: {json}"))
        };
        match wrap {
            Wrap::Plain => Ok(ix(array(json, parse)?)),
            _ => Err("narrow index types index plainly only".to_string()),
        }
    }
    match field(json, "dtype")?.as_str() {
        Some("usize") => typed::<usize>(json, wrap),
        Some("isize") => typed::<isize>(json, wrap),
        Some("i32") => typed::<i32>(json, wrap),
        Some("i64") => typed::<i64>(json, wrap),
        Some("u32") => typed::<u32>(json, wrap),
        Some("u64") => typed::<u64>(json, wrap),
        Some("i8") => narrow::<i8>(json, wrap),
        Some("u8") => narrow::<u8>(json, wrap),
        Some("i16") => narrow::<i16>(json, wrap),
        Some("u16") => narrow::<u16>(json, wrap),
        other => Err(format!("unknown index dtype {other:?}")),
    }
}

/// Argument `axis` of an `ix_(..)` of `count`: an integer or boolean array.
fn cross_arg(json: &Json, axis: usize, count: usize) -> Outcome<IndexElem<'static>> {
    fn typed<I: IndexInt + TryFrom<i128>>(json: &Json, axis: usize, count: usize) -> Outcome<IndexElem<'static>> {
        Ok(array(json, index_int::<I>)?.cross_elem(axis, count))
    }
    match field(json, "dtype")?.as_str() {
        Some("usize") => typed::<usize>(json, axis, count),
        Some("isize") => typed::<isize>(json, axis, count),
        Some("i32") => typed::<i32>(json, axis, count),
        Some("i64") => typed::<i64>(json, axis, count),
        Some("u32") => typed::<u32>(json, axis, count),
        Some("u64") => typed::<u64>(json, axis, count),
        Some("bool") => Ok(array(json, |b| b.as_bool().ok_or_else(|| format!("not a bool: {b}")))?.cross_elem(axis, count)),
        other => Err(format!("unknown ix_ argument dtype {other:?}")),
    }
}

/// The index elements of one element of the corpus: itself, or one per
/// argument of `ix_(..)`.
fn index_elems(json: &Json) -> Outcome<Vec<IndexElem<'static>>> {
    match json.get("ix") {
        Some(args) => {
            let args = list(args)?;
            args.iter()
                .enumerate()
                .map(|(axis, arg)| cross_arg(arg, axis, args.len()))
                .collect()
        }
        None => index_elem(json).map(|elem| vec![elem]),
    }
}

fn index_elem(json: &Json) -> Outcome<IndexElem<'static>> {
    let (kind, v) = json
        .as_object()
        .and_then(|o| o.iter().next())
        .ok_or_else(|| format!("bad index element {json}"))?;
    let part = |k: usize| v.get(k).ok_or_else(|| format!("bad slice {v}"));
    Ok(match kind.as_str() {
        "int" => IndexElem::Int(int(v)? as i128),
        "slice" => IndexElem::Slice(PySlice {
            start: opt_int(part(0)?)?,
            stop: opt_int(part(1)?)?,
            step: opt_int(part(2)?)?,
        }),
        "range" => IndexElem::Range(RangeSlice {
            start: int(part(0)?)?,
            end: opt_int(part(1)?)?,
            step: int(part(2)?)?,
        }),
        "ellipsis" => ix(Ellipsis),
        "newaxis" => ix(NewAxis),
        "array" => int_array_elem(v, Wrap::Plain)?,
        "nd" => int_array_elem(v, Wrap::Nd)?,
        "along" => int_array_elem(field(v, "index")?, Wrap::Along(int(field(v, "axis")?)?))?,
        "mask" => ix(array(v, |b| b.as_bool().ok_or_else(|| format!("not a bool: {b}")))?),
        other => return Err(format!("unknown index element `{other}`")),
    })
}

/// The target: the base seen through the case's view steps.
fn view<'a, T>(base: &'a mut ArrayD<T>, steps: &Json) -> Outcome<ArrayViewMutD<'a, T>> {
    let mut view = base.view_mut();
    for step in list(steps)? {
        if let Some(axis) = step.get("slice") {
            let slice = Slice::new(
                int(field(step, "start")?)?,
                opt_int(field(step, "end")?)?,
                int(field(step, "step")?)?,
            );
            view.slice_axis_inplace(Axis(int(axis)? as usize), slice);
        } else if let Some(axis) = step.get("invert") {
            view.invert_axis(Axis(int(axis)? as usize));
        } else {
            let axes = list(field(step, "permute")?)?
                .iter()
                .map(|a| int(a).map(|a| a as usize))
                .collect::<Outcome<Vec<_>>>()?;
            view = view.permuted_axes(IxDyn(&axes));
        }
    }
    Ok(view)
}

fn mode<T: Elem>(json: &Json) -> Outcome<AnyMode<T>> {
    Ok(match json.as_str() {
        Some("error") => AnyMode::Error,
        Some("clip") => AnyMode::Clip,
        Some("wrap") => AnyMode::Wrap,
        Some("drop") => AnyMode::Drop,
        _ => AnyMode::Fill(T::parse(field(json, "fill")?)?),
    })
}

fn value<T: Elem>(case: &Json) -> Outcome<Value<'static, T>> {
    let json = field(case, "value")?;
    Ok(match json.get("scalar") {
        Some(scalar) => Value::Scalar(T::parse(scalar)?),
        None => Value::Array(CowArray::from(array(json, T::parse)?)),
    })
}

fn op(name: &str) -> Outcome<Op> {
    Ok(match name {
        "add" => Op::Add,
        "sub" => Op::Sub,
        "mul" => Op::Mul,
        "div" => Op::Div,
        "pow" => Op::Pow,
        "min" => Op::Min,
        "max" => Op::Max,
        "rem" => Op::Rem,
        "and" => Op::BitAnd,
        "or" => Op::BitOr,
        "xor" => Op::BitXor,
        other => return Err(format!("unknown op `{other}`")),
    })
}

fn func<T: Elem>(case: &Json) -> Outcome<fn(T) -> T> {
    Ok(match field(case, "func")?.as_str() {
        Some("square") => T::square,
        Some("negate") => T::negate,
        Some("double") => T::double,
        other => return Err(format!("unknown apply function {other:?}")),
    })
}

/// The variant's name, as the corpus spells it.
fn variant(error: &IndexError) -> &'static str {
    match error {
        IndexError::OutOfBounds { .. } => "OutOfBounds",
        IndexError::RangeOutOfBounds { .. } => "RangeOutOfBounds",
        IndexError::TooManyIndices { .. } => "TooManyIndices",
        IndexError::MultipleEllipsis => "MultipleEllipsis",
        IndexError::ZeroStep => "ZeroStep",
        IndexError::MaskShape { .. } => "MaskShape",
        IndexError::IndexBroadcast { .. } => "IndexBroadcast",
        IndexError::ShapeMismatch { .. } => "ShapeMismatch",
        IndexError::ValueCount { .. } => "ValueCount",
        IndexError::UnsupportedMode { .. } => "UnsupportedMode",
        IndexError::DivisionByZero => "DivisionByZero",
        IndexError::NegativeIntegerPower => "NegativeIntegerPower",
        IndexError::NdRank => "NdRank",
        IndexError::TooLarge { .. } => "TooLarge",
        IndexError::AlongNotAlone => "AlongNotAlone",
        IndexError::AlongRank { .. } => "AlongRank",
        IndexError::AxisOutOfRange { .. } => "AxisOutOfRange",
        IndexError::AlongShape { .. } => "AlongShape",
        IndexError::BatchRank { .. } => "BatchRank",
        IndexError::BatchShape { .. } => "BatchShape",
        IndexError::BatchedMaskRead => "BatchedMaskRead",
        IndexError::CrossIndexRank { .. } => "CrossIndexRank",
        IndexError::TakeFromEmpty => "TakeFromEmpty",
        IndexError::PutIntoEmpty => "PutIntoEmpty",
        IndexError::MaskSize { .. } => "MaskSize",
        IndexError::EmptyValues => "EmptyValues",
        _ => "(a variant this test does not know)",
    }
}

fn show<T: Debug>(a: &ArrayD<T>) -> String {
    let data: Vec<&T> = a.iter().collect();
    let more = if data.len() > 48 {
        format!(", ... ({} elements)", data.len())
    } else {
        String::new()
    };
    format!("shape {:?} {:?}{more}", a.shape(), &data[..data.len().min(48)])
}

fn compare<T: Elem>(what: &str, expected: &ArrayD<T>, got: &ArrayD<T>, rtol: f64) -> Outcome<()> {
    let first_difference = expected.indexed_iter().zip(got.iter()).find(|&((_, &e), &g)| !e.same(g, rtol));
    match first_difference {
        _ if expected.shape() != got.shape() => Err(format!("{what}: expected {}\n      got {}", show(expected), show(got))),
        Some(((at, e), g)) => Err(format!(
            "{what}: at {:?} expected {e:?}, got {g:?}\n    expected {}\n    got      {}",
            at.slice(),
            show(expected),
            show(got)
        )),
        None => Ok(()),
    }
}

/// Runs one case on element type `T`.
fn run<T: Elem>(case: &Json) -> Outcome<()> {
    let mut base = array(field(case, "base")?, T::parse)?;
    let original = base.clone();
    let index = list(field(case, "index")?)?
        .iter()
        .map(index_elems)
        .collect::<Outcome<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    let mode = mode::<T>(field(case, "mode")?)?;
    let name = field(case, "op")?.as_str().ok_or("op is not a string")?;
    // `; batch = k` (0: the plain call, which the batched calls are then).
    let batch = case.get("batch").map_or(Ok(0), |k| k.as_u64().ok_or("batch is not a count"))? as usize;
    let result = {
        let mut target = view(&mut base, field(case, "view")?)?;
        match name {
            "get" if batch == 0 => tensor_at::backend::get(&target, &index, mode).map(|r| Some(r.into_owned())),
            "get" => tensor_at::backend::get_batched(&target, &index, batch, mode).map(|r| Some(r.into_owned())),
            "set" => tensor_at::backend::set_batched(&mut target, &index, batch, value::<T>(case)?, mode).map(|()| None),
            "apply" => tensor_at::backend::apply_batched(&mut target, &index, batch, func::<T>(case)?, mode).map(|()| None),
            other => tensor_at::backend::update_batched(&mut target, &index, batch, op(other)?, value::<T>(case)?, mode).map(|()| None),
        }
    };
    let expect = field(case, "expect")?;
    let rtol = case.get("rtol").and_then(Json::as_f64).unwrap_or(0.0);
    match (expect.get("array"), result) {
        (Some(expected), Ok(read)) => {
            let expected = array(expected, T::parse)?;
            match read {
                Some(read) => {
                    compare("read", &expected, &read, rtol)?;
                    compare("target after the read", &original, &base, 0.0)
                }
                None => compare("base after the update", &expected, &base, rtol),
            }
        }
        (Some(_), Err(error)) => Err(format!("expected success, got {error:?}: {error}")),
        (None, outcome) => {
            let wanted = field(expect, "error")?.as_str().ok_or("error is not a string")?;
            match outcome {
                Ok(Some(read)) => Err(format!("expected {wanted}, got a read of {}", show(&read))),
                Ok(None) => Err(format!("expected {wanted}, got success; base now {}", show(&base))),
                Err(error) => {
                    let unchanged = compare("target after the error", &original, &base, 0.0);
                    match (variant(&error) == wanted, unchanged) {
                        (true, unchanged) => unchanged,
                        (false, Ok(())) => Err(format!("expected {wanted}, got {error:?}: {error}")),
                        (false, Err(written)) => Err(format!("expected {wanted}, got {error:?}: {error}\n    {written}")),
                    }
                }
            }
        }
    }
}

fn run_case(case: &Json) -> Outcome<()> {
    if case.get("numpy").is_some() {
        return run_numpy_case(case);
    }
    match field(field(case, "base")?, "dtype")?.as_str() {
        Some("float64") => run::<f64>(case),
        Some("float32") => run::<f32>(case),
        Some("float16") => run::<half::f16>(case),
        Some("complex128") => run::<Complex<f64>>(case),
        Some("complex64") => run::<Complex<f32>>(case),
        Some("int64") => run::<i64>(case),
        Some("int32") => run::<i32>(case),
        other => Err(format!("unknown target dtype {other:?}")),
    }
}

/// The element types of the cases of NumPy's functions beside indexing:
/// the corpus's, and `bool` (nonzero, argwhere).
trait FlatElem: Clone + Debug + Nonzero + 'static {
    fn parse_flat(json: &Json) -> Outcome<Self>;
    fn same_flat(&self, other: &Self) -> bool;
}

impl<T: Elem + Nonzero + 'static> FlatElem for T {
    fn parse_flat(json: &Json) -> Outcome<Self> {
        T::parse(json)
    }
    fn same_flat(&self, other: &Self) -> bool {
        self.same(*other, 0.0)
    }
}

impl FlatElem for bool {
    fn parse_flat(json: &Json) -> Outcome<Self> {
        json.as_bool().ok_or_else(|| format!("not a bool: {json}"))
    }
    fn same_flat(&self, other: &Self) -> bool {
        self == other
    }
}

/// What a case of a function beside indexing gives.
enum Got<T> {
    /// nonzero's arrays, or argwhere's one.
    Coordinates(Vec<ArrayD<usize>>),
    /// take's.
    Read(ArrayD<T>),
    /// put's and place's: the base holds it.
    Written,
}

/// Calls `typed::<I>` for the index dtype of `json`.
macro_rules! by_index_dtype {
    ($json:expr, $typed:ident $(, $arg:expr)*) => {
        match field($json, "dtype")?.as_str() {
            Some("usize") => $typed::<_, usize>($json $(, $arg)*),
            Some("isize") => $typed::<_, isize>($json $(, $arg)*),
            Some("i32") => $typed::<_, i32>($json $(, $arg)*),
            Some("i64") => $typed::<_, i64>($json $(, $arg)*),
            Some("u32") => $typed::<_, u32>($json $(, $arg)*),
            Some("u64") => $typed::<_, u64>($json $(, $arg)*),
            other => Err(format!("unknown index dtype {other:?}")),
        }
    };
}

fn take_case<T: FlatElem>(target: &ArrayViewMutD<'_, T>, case: &Json) -> Outcome<Result<Got<T>, IndexError>> {
    fn typed<T: FlatElem, I: IndexInt + TryFrom<i128>>(
        json: &Json,
        target: &ArrayViewMutD<'_, T>,
        mode: ReadMode,
    ) -> Outcome<Result<Got<T>, IndexError>> {
        let indices = array(json, index_int::<I>)?;
        Ok(tensor_at::take(target, &indices, mode).map(Got::Read))
    }
    let mode = match field(case, "mode")?.as_str() {
        Some("error") => ReadMode::Error,
        Some("clip") => ReadMode::Clip,
        Some("wrap") => ReadMode::Wrap,
        other => return Err(format!("unknown take mode {other:?}")),
    };
    by_index_dtype!(field(case, "indices")?, typed, target, mode)
}

fn put_case<T: FlatElem>(target: &mut ArrayViewMutD<'_, T>, case: &Json) -> Outcome<Result<Got<T>, IndexError>> {
    fn typed<T: FlatElem, I: IndexInt + TryFrom<i128>>(
        json: &Json,
        target: &mut ArrayViewMutD<'_, T>,
        values: ArrayD<T>,
        mode: Mode,
    ) -> Outcome<Result<Got<T>, IndexError>> {
        let indices = array(json, index_int::<I>)?;
        Ok(tensor_at::put(target, indices.view(), values, mode).map(|()| Got::Written))
    }
    let mode = match field(case, "mode")?.as_str() {
        Some("error") => Mode::Error,
        Some("clip") => Mode::Clip,
        Some("wrap") => Mode::Wrap,
        Some("drop") => Mode::Drop,
        other => return Err(format!("unknown put mode {other:?}")),
    };
    let values = array(field(case, "values")?, T::parse_flat)?;
    by_index_dtype!(field(case, "indices")?, typed, target, values, mode)
}

fn run_numpy_case(case: &Json) -> Outcome<()> {
    match field(field(case, "base")?, "dtype")?.as_str() {
        Some("bool") => run_numpy::<bool>(case),
        Some("float64") => run_numpy::<f64>(case),
        Some("float32") => run_numpy::<f32>(case),
        Some("float16") => run_numpy::<half::f16>(case),
        Some("complex128") => run_numpy::<Complex<f64>>(case),
        Some("complex64") => run_numpy::<Complex<f32>>(case),
        Some("int64") => run_numpy::<i64>(case),
        Some("int32") => run_numpy::<i32>(case),
        other => Err(format!("unknown target dtype {other:?}")),
    }
}

/// `expected` and `got` agree element by element under `same`, in shape too.
fn agree<A: Debug>(what: &str, expected: &ArrayD<A>, got: &ArrayD<A>, same: impl Fn(&A, &A) -> bool) -> Outcome<()> {
    if expected.shape() != got.shape() || !expected.iter().zip(got).all(|(e, g)| same(e, g)) {
        return Err(format!("{what}: expected {}\n      got {}", show(expected), show(got)));
    }
    Ok(())
}

/// Runs one case of a function beside indexing on element type `T`.
fn run_numpy<T: FlatElem>(case: &Json) -> Outcome<()> {
    let mut base = array(field(case, "base")?, T::parse_flat)?;
    let original = base.clone();
    let name = field(case, "numpy")?.as_str().ok_or("numpy is not a string")?;
    let result = {
        let mut target = view(&mut base, field(case, "view")?)?;
        match name {
            "nonzero" => Ok(Got::Coordinates(
                tensor_at::nonzero(&target).into_iter().map(|a| a.into_dyn()).collect(),
            )),
            "argwhere" => Ok(Got::Coordinates(vec![tensor_at::argwhere(&target).into_dyn()])),
            "take" => take_case(&target, case)?,
            "put" => put_case(&mut target, case)?,
            "place" => {
                let mask = array(field(case, "mask")?, |b| b.as_bool().ok_or_else(|| format!("not a bool: {b}")))?;
                let values = array(field(case, "values")?, T::parse_flat)?;
                tensor_at::place(&mut target, &mask, &values).map(|()| Got::Written)
            }
            other => return Err(format!("unknown NumPy function `{other}`")),
        }
    };
    let expect = field(case, "expect")?;
    let unchanged = |what: &str| agree(what, &original, &base, T::same_flat);
    let usizes = |json: &Json| array(json, |d| d.as_u64().map(|d| d as usize).ok_or_else(|| format!("not a usize: {d}")));
    match result {
        Ok(got) if expect.get("error").is_none() => match got {
            Got::Coordinates(arrays) => {
                let expected = match name {
                    "nonzero" => list(field(expect, "arrays")?)?.iter().map(usizes).collect::<Outcome<Vec<_>>>()?,
                    _ => vec![usizes(field(expect, "array")?)?],
                };
                if expected.len() != arrays.len() {
                    return Err(format!("expected {} arrays, got {}", expected.len(), arrays.len()));
                }
                for (expected, got) in expected.iter().zip(&arrays) {
                    agree("coordinates", expected, got, |e, g| e == g)?;
                }
                unchanged("target after the read")
            }
            Got::Read(read) => {
                agree("read", &array(field(expect, "array")?, T::parse_flat)?, &read, T::same_flat)?;
                unchanged("target after the read")
            }
            Got::Written => agree(
                "base after the write",
                &array(field(expect, "array")?, T::parse_flat)?,
                &base,
                T::same_flat,
            ),
        },
        Ok(_) => Err(format!("expected {}, got success; base now {}", expect["error"], show(&base))),
        Err(error) => match field(expect, "error").ok().and_then(Json::as_str) {
            Some(wanted) if variant(&error) == wanted => unchanged("target after the error"),
            Some(wanted) => Err(format!("expected {wanted}, got {error:?}: {error}")),
            None => Err(format!("expected success, got {error:?}: {error}")),
        },
    }
}

#[test]
fn numpy_corpus() {
    let path = std::env::var_os("TENSOR_AT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/cases.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the NumPy corpus {}: {e}\n\
             run tests/corpus/generate.py to write it (Python 3 with NumPy: `python tests/corpus/generate.py`)",
            path.display()
        )
    });
    let corpus: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()));
    let cases = corpus["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{} has no `cases` list", path.display()));

    let mut failures = Vec::new();
    for case in cases {
        let outcome = crate::panics::catch(AssertUnwindSafe(|| run_case(case)))
            .unwrap_or_else(|caught| Err(format!("panicked at {}: {}", caught.location, caught.message)));
        if let Err(message) = outcome {
            failures.push(format!(
                "case {} [{}] {}\n    {message}",
                case["id"],
                case["family"].as_str().unwrap_or("?"),
                case["desc"].as_str().unwrap_or("?")
            ));
        }
    }

    println!(
        "NumPy corpus {} (numpy {}): {} cases run, {} failed",
        path.display(),
        corpus["numpy"].as_str().unwrap_or("?"),
        cases.len(),
        failures.len()
    );
    assert!(
        cases.len() >= MIN_CASES,
        "only {} cases in {}: expected at least {MIN_CASES}; regenerate it with tests/corpus/generate.py",
        cases.len(),
        path.display()
    );
    assert!(
        failures.is_empty(),
        "{} of {} NumPy corpus cases failed:\n\n{}\n",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
