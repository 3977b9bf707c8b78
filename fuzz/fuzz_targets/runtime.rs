//! The runtime API (`get`, `set`, `update`, `apply`) on arbitrary inputs,
//! against the reference interpreter of the tests (`tests/reference/`,
//! written from the rules, independent of tensor-core's planner).
//!
//! The bytes are decoded into: an element type (`i64` or `f64`), a shape (up
//! to 4 axes of up to 8), a layout (the target is a view of a bigger base
//! array: offsets, steps of ±1..3, inverted and permuted axes, so strides
//! may be negative), an index list (integers including the extremes of
//! every integer type, both slice syntaxes with extreme bounds and steps,
//! integer arrays of the six index types in C or Fortran order, masks,
//! `nd`, new axes, ellipses), an operation, a mode and a value (a scalar,
//! an array shaped for the region or not, or a stride-0 broadcast view).
//!
//! Reads must equal the reference's result; writes must leave the whole
//! base array equal to the reference's (so a write outside the view is
//! caught); an error must be the reference's error and leave the base
//! unchanged bit for bit. Any panic is a finding: the runtime API answers
//! every input with a value or an error.
#![no_main]

#[path = "../../tests/reference/mod.rs"]
mod reference;

use std::fmt::Debug;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use ndarray::{ArrayBase, ArrayD, ArrayViewD, Axis, DataMut, IxDyn, RawData, Slice};
use reference::{ErrKind, Oob, Tensor, Value};
use tensor_at::{IndexElem, IndexError, Mode, Op, PySlice, RangeSlice, ix, nd};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.ratio(1, 3) {
        Ok(true) => run::<f64>(&mut u),
        _ => run::<i64>(&mut u),
    };
});

// ---------------------------------------------------------------- element types

/// The element types under test (as in tests/proptest_reference.rs).
trait TestElem: reference::Arith + tensor_at::Arith + tensor_at::Scalar + Debug {
    /// An element of the target.
    fn base(u: &mut Unstructured<'_>) -> Result<Self>;
    /// An operand of `action`.
    fn operand(u: &mut Unstructured<'_>, action: Action) -> Result<Self>;
    /// The same value: bit for bit, any NaN equal to any NaN.
    fn same(a: Self, b: Self) -> bool;
    /// The bits, for "unchanged" checks.
    fn bits(self) -> u64;
    /// The function `apply` applies.
    fn f(self) -> Self;
}

impl TestElem for i64 {
    fn base(u: &mut Unstructured<'_>) -> Result<i64> {
        Ok(match u.int_in_range(0..=40)? {
            0 => i64::MIN,
            1 => i64::MAX,
            2 => u.arbitrary()?,
            _ => u.int_in_range(-6..=6)?,
        })
    }
    fn operand(u: &mut Unstructured<'_>, action: Action) -> Result<i64> {
        match action {
            // The reference takes exponents that fit a u32; negative ones are errors.
            Action::Update(Op::Pow) => Ok(match u.int_in_range(0..=20)? {
                0 => -1,
                1 => i64::MIN,
                2 => u32::MAX.into(),
                _ => u.int_in_range(0..=4)?,
            }),
            Action::Update(Op::Div) if u.ratio(1, 20)? => Ok(0),
            _ => Self::base(u),
        }
    }
    fn same(a: i64, b: i64) -> bool {
        a == b
    }
    fn bits(self) -> u64 {
        self as u64
    }
    fn f(self) -> i64 {
        self.wrapping_mul(3).wrapping_sub(1)
    }
}

impl TestElem for f64 {
    fn base(u: &mut Unstructured<'_>) -> Result<f64> {
        Ok(match u.int_in_range(0..=40)? {
            0 => f64::NAN,
            1 => -0.0,
            2 => f64::INFINITY,
            3 => f64::NEG_INFINITY,
            4 => f64::from_bits(u.arbitrary()?),
            k => f64::from(k as i32 - 20) * 0.5,
        })
    }
    fn operand(u: &mut Unstructured<'_>, _: Action) -> Result<f64> {
        Self::base(u)
    }
    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn f(self) -> f64 {
        self * 2.0 - 1.0
    }
}

// ---------------------------------------------------------------- layouts

/// How one target axis sits in the base array: it starts at `start`, walks
/// by `step` (backwards when negative), leaves `extra` base elements after
/// it, and is then possibly inverted.
#[derive(Debug)]
struct AxisLayout {
    start: usize,
    step: isize,
    extra: usize,
    invert: bool,
}

/// A target that is a view of a bigger base: target axis `i` is base axis
/// `perm[i]`, sliced as `axes[i]` says.
#[derive(Debug)]
struct Layout {
    perm: Vec<usize>,
    axes: Vec<AxisLayout>,
}

fn span(len: usize, step: isize) -> usize {
    if len == 0 { 0 } else { (len - 1) * step.unsigned_abs() + 1 }
}

impl Layout {
    fn arbitrary(u: &mut Unstructured<'_>, rank: usize) -> Result<Option<Layout>> {
        if u.ratio(1, 3)? {
            return Ok(None);
        }
        let mut perm: Vec<usize> = (0..rank).collect();
        for i in (1..rank).rev() {
            perm.swap(i, u.int_in_range(0..=i)?);
        }
        let axes = (0..rank)
            .map(|_| {
                Ok(AxisLayout {
                    start: u.int_in_range(0..=2)?,
                    step: *u.choose(&[1, -1, 1, -1, 2, -2, 3, -3])?,
                    extra: u.int_in_range(0..=1)?,
                    invert: u.ratio(1, 3)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Some(Layout { perm, axes }))
    }

    fn base_shape(&self, shape: &[usize]) -> Vec<usize> {
        let mut base = vec![0; shape.len()];
        for (i, axis) in self.axes.iter().enumerate() {
            base[self.perm[i]] = axis.start + span(shape[i], axis.step) + axis.extra;
        }
        base
    }

    /// The target view (of shape `shape`) of a base array.
    fn view<S: RawData>(&self, mut base: ArrayBase<S, IxDyn>, shape: &[usize]) -> ArrayBase<S, IxDyn> {
        for (i, layout) in self.axes.iter().enumerate() {
            let axis = Axis(self.perm[i]);
            let start = layout.start as isize;
            base.slice_axis_inplace(
                axis,
                Slice::new(start, Some(start + span(shape[i], layout.step) as isize), layout.step),
            );
            if layout.invert {
                base.invert_axis(axis);
            }
        }
        base.permuted_axes(self.perm.clone())
    }
}

// ---------------------------------------------------------------- indices

/// An integer index array of one of the six index types.
#[derive(Debug)]
enum Ints {
    Usize(ArrayD<usize>),
    Isize(ArrayD<isize>),
    I32(ArrayD<i32>),
    I64(ArrayD<i64>),
    U32(ArrayD<u32>),
    U64(ArrayD<u64>),
}

/// One index element, owning its arrays.
#[derive(Debug)]
enum ElemSpec {
    Int(i128),
    Py(PySlice),
    Range(RangeSlice),
    Ellipsis,
    NewAxis,
    Ints(Ints),
    Mask(ArrayD<bool>),
    Nd(Ints),
}

macro_rules! each_ints {
    ($ints:expr, $a:ident => $body:expr) => {
        match $ints {
            Ints::Usize($a) => $body,
            Ints::Isize($a) => $body,
            Ints::I32($a) => $body,
            Ints::I64($a) => $body,
            Ints::U32($a) => $body,
            Ints::U64($a) => $body,
        }
    };
}

impl ElemSpec {
    fn elem(&self) -> IndexElem<'_> {
        match self {
            ElemSpec::Int(i) => IndexElem::Int(*i),
            ElemSpec::Py(s) => ix(*s),
            ElemSpec::Range(r) => ix(*r),
            ElemSpec::Ellipsis => ix(tensor_at::Ellipsis),
            ElemSpec::NewAxis => ix(tensor_at::NewAxis),
            ElemSpec::Ints(a) => each_ints!(a, a => ix(a)),
            ElemSpec::Mask(m) => ix(m),
            ElemSpec::Nd(a) => each_ints!(a, a => ix(nd(a))),
        }
    }

    fn is_array(&self) -> bool {
        matches!(self, ElemSpec::Ints(_) | ElemSpec::Mask(_) | ElemSpec::Nd(_))
    }
}

/// An array in C order, or the same logical array stored in Fortran order.
fn build<T: Clone>(shape: &[usize], data: Vec<T>, fortran: bool) -> ArrayD<T> {
    let array = ArrayD::from_shape_vec(shape, data).expect("one element per position");
    match fortran {
        false => array,
        true => array.t().as_standard_layout().into_owned().reversed_axes(),
    }
}

/// An integer index near an axis of length `len`: mostly inside, sometimes
/// just outside either end, sometimes an extreme of some integer type.
fn index_value(u: &mut Unstructured<'_>, len: usize) -> Result<i128> {
    let n = len as i128;
    Ok(match u.int_in_range(0..=31)? {
        0 => i128::from(i64::MIN),
        1 => i128::from(i64::MAX),
        2 => i128::from(u64::MAX),
        3 => usize::MAX as i128,
        4 => isize::MIN as i128,
        5 => i128::from(i32::MIN),
        6 => i128::from(u32::MAX),
        7 => i128::MIN,
        8 => i128::MAX,
        9 => u.arbitrary::<i64>()?.into(),
        10..=13 => u.int_in_range(n..=n + 2)?,
        14..=17 => u.int_in_range(-n - 2..=-n - 1)?,
        _ if n == 0 => 0,
        _ => u.int_in_range(-n..=n - 1)?,
    })
}

/// `value` in index type `ty`, or that type's extreme when it does not fit.
fn ints(ty: u8, shape: &[usize], values: &[i128], fortran: bool) -> Ints {
    fn typed<T: TryFrom<i128> + Clone>(shape: &[usize], values: &[i128], extreme: T, fortran: bool) -> ArrayD<T> {
        let data = values.iter().map(|&v| T::try_from(v).unwrap_or_else(|_| extreme.clone())).collect();
        build(shape, data, fortran)
    }
    match ty % 6 {
        0 => Ints::Usize(typed(shape, values, usize::MAX, fortran)),
        1 => Ints::Isize(typed(shape, values, isize::MIN, fortran)),
        2 => Ints::I32(typed(shape, values, i32::MIN, fortran)),
        3 => Ints::I64(typed(shape, values, i64::MAX, fortran)),
        4 => Ints::U32(typed(shape, values, u32::MAX, fortran)),
        _ => Ints::U64(typed(shape, values, u64::MAX, fortran)),
    }
}

/// A shape for an index array: mostly small, so that arrays broadcast.
fn array_shape(u: &mut Unstructured<'_>) -> Result<Vec<usize>> {
    let rank = u.int_in_range(0..=2)?;
    (0..rank).map(|_| Ok(*u.choose(&[1, 1, 2, 2, 3, 0])?)).collect()
}

/// A slice bound: near the axis, or an extreme.
fn bound(u: &mut Unstructured<'_>, len: usize) -> Result<isize> {
    let n = len as isize;
    Ok(match u.int_in_range(0..=15)? {
        0 => isize::MIN,
        1 => isize::MAX,
        2 => isize::MIN + 1,
        _ => u.int_in_range(-n - 2..=n + 2)?,
    })
}

fn step(u: &mut Unstructured<'_>) -> Result<isize> {
    Ok(match u.int_in_range(0..=15)? {
        0 => 0,
        1 => isize::MIN,
        2 => isize::MAX,
        3 => isize::MIN + 1,
        k => [1, 2, 3, -1, -2, -3][k as usize % 6],
    })
}

fn elem(u: &mut Unstructured<'_>, shape: &[usize], axis: &mut usize) -> Result<ElemSpec> {
    let len = |a: usize| shape.get(a).copied().unwrap_or(3);
    let here = len(*axis);
    let spec = match u.int_in_range(0..=15)? {
        0..=2 => ElemSpec::Int(index_value(u, here)?),
        3 | 4 => ElemSpec::Py(PySlice {
            start: u.arbitrary::<bool>()?.then(|| bound(u, here)).transpose()?,
            stop: u.arbitrary::<bool>()?.then(|| bound(u, here)).transpose()?,
            step: u.arbitrary::<bool>()?.then(|| step(u)).transpose()?,
        }),
        5 | 6 => ElemSpec::Range(RangeSlice {
            start: bound(u, here)?,
            end: u.arbitrary::<bool>()?.then(|| bound(u, here)).transpose()?,
            step: step(u)?,
        }),
        7 => ElemSpec::Ellipsis,
        8 => ElemSpec::NewAxis,
        9..=11 => {
            let shape = array_shape(u)?;
            let values = (0..shape.iter().product::<usize>())
                .map(|_| index_value(u, here))
                .collect::<Result<Vec<_>>>()?;
            ElemSpec::Ints(ints(u.arbitrary()?, &shape, &values, u.arbitrary()?))
        }
        12 | 13 => {
            // Over the next `k` axes; now and then one axis is one too long.
            let k = u.int_in_range(0..=3)?.min(shape.len().saturating_sub(*axis));
            let mut lens: Vec<usize> = (0..k).map(|j| len(*axis + j)).collect();
            if k > 0 && u.ratio(1, 16)? {
                let j = u.choose_index(k)?;
                lens[j] += 1;
            }
            let bits = (0..lens.iter().product::<usize>())
                .map(|_| u.ratio(2, 3))
                .collect::<Result<Vec<_>>>()?;
            *axis += k;
            return Ok(ElemSpec::Mask(build(&lens, bits, u.arbitrary()?)));
        }
        _ => {
            let depth = u.int_in_range(0..=2)?.min(shape.len().saturating_sub(*axis));
            let mut nd_shape = array_shape(u)?;
            if u.ratio(1, 20)? {
                nd_shape.clear(); // `nd` of a 0-d array: an error
            } else {
                nd_shape.push(depth);
            }
            let count = nd_shape.iter().product::<usize>();
            let values = (0..count)
                .map(|k| index_value(u, len(*axis + k % depth.max(1))))
                .collect::<Result<Vec<_>>>()?;
            *axis += depth;
            return Ok(ElemSpec::Nd(ints(u.arbitrary()?, &nd_shape, &values, u.arbitrary()?)));
        }
    };
    if !matches!(spec, ElemSpec::Ellipsis | ElemSpec::NewAxis) {
        *axis += 1;
    }
    Ok(spec)
}

// ---------------------------------------------------------------- values, ops, modes

#[derive(Clone, Copy, Debug)]
enum Action {
    Get,
    Set,
    Update(Op),
    Apply,
}

/// A value: a scalar, or an array (when `stretch` is set, passed as a
/// stride-0 broadcast view of that shape).
#[derive(Debug)]
enum ValueSpec<T> {
    Scalar(T),
    Array { array: ArrayD<T>, stretch: Option<Vec<usize>> },
}

impl<T: Copy> ValueSpec<T> {
    fn view(&self) -> Option<ArrayViewD<'_, T>> {
        match self {
            ValueSpec::Scalar(_) => None,
            ValueSpec::Array { array, stretch: None } => Some(array.view()),
            ValueSpec::Array {
                array,
                stretch: Some(shape),
            } => Some(array.broadcast(shape.as_slice()).expect("drawn to broadcast")),
        }
    }

    fn reference(&self) -> Value<T> {
        match (self, self.view()) {
            (ValueSpec::Scalar(v), _) => Value::Scalar(*v),
            (_, Some(view)) => Value::Array(Tensor {
                shape: view.shape().to_vec(),
                data: view.iter().copied().collect(),
            }),
            (_, None) => unreachable!("arrays have views"),
        }
    }
}

fn value<T: TestElem>(u: &mut Unstructured<'_>, region: &[usize], action: Action) -> Result<ValueSpec<T>> {
    // The region with some axes set to 1 and some leading ones dropped.
    let mut derived: Vec<usize> = region
        .iter()
        .map(|&len| Ok(if u.ratio(1, 4)? { 1 } else { len }))
        .collect::<Result<_>>()?;
    derived.drain(..u.int_in_range(0..=derived.len())?);
    let (shape, stretch) = match u.int_in_range(0..=9)? {
        0 | 1 => return Ok(ValueSpec::Scalar(T::operand(u, action)?)),
        2..=4 => (region.to_vec(), None),
        5 | 6 => (derived, None),
        7 => ([vec![1; u.int_in_range(1..=2)?], derived].concat(), None),
        8 => (derived, Some(region.to_vec())),
        _ => (
            (0..u.int_in_range(0..=3)?).map(|_| u.int_in_range(0..=3)).collect::<Result<_>>()?,
            None,
        ),
    };
    let data = (0..shape.iter().product::<usize>())
        .map(|_| T::operand(u, action))
        .collect::<Result<_>>()?;
    let array = build(&shape, data, u.arbitrary()?);
    Ok(ValueSpec::Array { array, stretch })
}

fn action(u: &mut Unstructured<'_>) -> Result<Action> {
    let ops = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max];
    Ok(match u.int_in_range(0..=9)? {
        0..=2 => Action::Get,
        3..=4 => Action::Set,
        5 => Action::Apply,
        _ => Action::Update(*u.choose(&ops)?),
    })
}

fn mode<T: TestElem>(u: &mut Unstructured<'_>) -> Result<Mode<T>> {
    Ok(match u.int_in_range(0..=4)? {
        0 => Mode::Error,
        1 => Mode::Clip,
        2 => Mode::Wrap,
        3 => Mode::Drop,
        _ => Mode::Fill(T::base(u)?),
    })
}

// ---------------------------------------------------------------- the check

fn kind(error: &IndexError) -> Option<ErrKind> {
    Some(match error {
        IndexError::OutOfBounds { .. } => ErrKind::OutOfBounds,
        IndexError::RangeOutOfBounds { .. } => ErrKind::RangeOutOfBounds,
        IndexError::TooManyIndices { .. } => ErrKind::TooManyIndices,
        IndexError::MultipleEllipsis => ErrKind::MultipleEllipsis,
        IndexError::ZeroStep => ErrKind::ZeroStep,
        IndexError::MaskShape { .. } => ErrKind::MaskShape,
        IndexError::IndexBroadcast { .. } => ErrKind::IndexBroadcast,
        IndexError::ShapeMismatch { .. } => ErrKind::ShapeMismatch,
        IndexError::ValueCount { .. } => ErrKind::ValueCount,
        IndexError::UnsupportedMode { .. } => ErrKind::UnsupportedMode,
        IndexError::DivisionByZero => ErrKind::DivisionByZero,
        IndexError::NegativeIntegerPower => ErrKind::NegativeIntegerPower,
        IndexError::NdRank => ErrKind::NdRank,
        _ => return None,
    })
}

fn run<T: TestElem>(u: &mut Unstructured<'_>) -> Result<()> {
    let rank = u.int_in_range(0..=4)?;
    let shape: Vec<usize> = (0..rank)
        .map(|_| {
            Ok(if u.ratio(1, 6)? {
                u.int_in_range(5..=8)?
            } else {
                u.int_in_range(0..=4)?
            })
        })
        .collect::<Result<_>>()?;
    let layout = Layout::arbitrary(u, rank)?;
    let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
    let base_data = (0..base_shape.iter().product::<usize>())
        .map(|_| T::base(u))
        .collect::<Result<_>>()?;
    let base: ArrayD<T> = build(&base_shape, base_data, false);

    let mut axis = 0;
    let index: Vec<ElemSpec> = (0..u.int_in_range(0..=6)?)
        .map(|_| elem(u, &shape, &mut axis))
        .collect::<Result<_>>()?;
    let action = action(u)?;
    let mode = mode::<T>(u)?;
    let elems: Vec<IndexElem<'_>> = index.iter().map(ElemSpec::elem).collect();
    let region = reference::select(&shape, &elems, Oob::Skip).map_or_else(|_| vec![2], |s| s.shape);
    let value = value::<T>(u, &region, action)?;
    check(&Case {
        shape,
        layout,
        base,
        index,
        action,
        mode,
        value,
    });
    Ok(())
}

#[derive(Debug)]
struct Case<T> {
    shape: Vec<usize>,
    layout: Option<Layout>,
    base: ArrayD<T>,
    index: Vec<ElemSpec>,
    action: Action,
    mode: Mode<T>,
    value: ValueSpec<T>,
}

/// Runs the write of `case` on `target` with tensor-core.
fn write<T: TestElem, S: DataMut<Elem = T>>(
    target: &mut ArrayBase<S, IxDyn>,
    index: &[IndexElem<'_>],
    case: &Case<T>,
) -> std::result::Result<(), IndexError> {
    let mode = case.mode;
    match (case.action, &case.value, case.value.view()) {
        (Action::Set, ValueSpec::Scalar(v), _) => tensor_at::set(target, index, *v, mode),
        (Action::Set, _, Some(view)) => tensor_at::set(target, index, view, mode),
        (Action::Update(op), ValueSpec::Scalar(v), _) => tensor_at::update(target, index, op, *v, mode),
        (Action::Update(op), _, Some(view)) => tensor_at::update(target, index, op, view, mode),
        (Action::Apply, _, _) => tensor_at::apply(target, index, T::f, mode),
        _ => unreachable!("reads are not writes"),
    }
}

fn check<T: TestElem>(case: &Case<T>) {
    let index: Vec<IndexElem<'_>> = case.index.iter().map(ElemSpec::elem).collect();
    // Where each target element (in C order) lives in the base.
    let base_positions = ArrayD::from_shape_vec(case.base.shape(), (0..case.base.len()).collect()).expect("same shape");
    let positions: Vec<usize> = match &case.layout {
        None => base_positions.iter().copied().collect(),
        Some(layout) => layout.view(base_positions.view(), &case.shape).iter().copied().collect(),
    };
    let original: Vec<T> = case.base.iter().copied().collect();
    let mut target = Tensor {
        shape: case.shape.clone(),
        data: positions.iter().map(|&p| original[p]).collect(),
    };

    if let Action::Get = case.action {
        let view = match &case.layout {
            None => case.base.view(),
            Some(layout) => layout.view(case.base.view(), &case.shape),
        };
        let expected = reference::read(&target, &index, &case.mode);
        match (tensor_at::get(&view, &index, case.mode), expected) {
            (Ok(actual), Ok(expected)) => {
                assert_eq!(actual.shape(), expected.shape.as_slice(), "{case:?}");
                let same = actual.iter().zip(&expected.data).all(|(&a, &e)| T::same(a, e));
                assert!(same, "read {actual:?}, expected {:?}\n{case:?}", expected.data);
                let basic = !case.index.iter().any(ElemSpec::is_array) && !matches!(case.mode, Mode::Fill(_));
                assert!(!basic || actual.is_view(), "basic indexing must return a view\n{case:?}");
            }
            (Err(actual), Err(expected)) => assert_eq!(kind(&actual), Some(expected), "error {actual}\n{case:?}"),
            (actual, expected) => panic!("tensor-core: {actual:?}\nreference: {expected:?}\n{case:?}"),
        }
        return;
    }

    let value = case.value.reference();
    let expected = match case.action {
        Action::Set => reference::set(&mut target, &index, &value, &case.mode),
        Action::Update(op) => reference::update(&mut target, &index, op, &value, &case.mode),
        Action::Apply => reference::apply(&mut target, &index, T::f, &case.mode),
        Action::Get => unreachable!("handled above"),
    };
    let mut base = case.base.clone();
    let actual = match &case.layout {
        None => write(&mut base, &index, case),
        Some(layout) => write(&mut layout.view(base.view_mut(), &case.shape), &index, case),
    };
    match (actual, expected) {
        (Ok(()), Ok(())) => {
            let mut expected = original.clone();
            for (&p, &v) in positions.iter().zip(&target.data) {
                expected[p] = v;
            }
            let same = base.iter().zip(&expected).all(|(&a, &e)| T::same(a, e));
            assert!(same, "base after the write: {base:?}\nexpected: {expected:?}\n{case:?}");
        }
        (Err(actual), Err(expected)) => {
            assert_eq!(kind(&actual), Some(expected), "error {actual}\n{case:?}");
            // Unchanged bit for bit: NaN payloads and signed zeros included.
            let unchanged = base.iter().zip(&original).all(|(a, o)| a.bits() == o.bits());
            assert!(unchanged, "the base changed on error {actual}\n{case:?}");
        }
        (actual, expected) => panic!("tensor-core: {actual:?}\nreference: {expected:?}\n{case:?}"),
    }
}
