//! One random case of the runtime API (`get`, `set`, `update`, `apply`) and
//! its check against the interpreter of `super`: shared by the property
//! tests (`tests/suite/proptest_reference.rs`, which draw cases with proptest) and
//! the fuzz target (`fuzz/fuzz_targets/runtime.rs`, which decodes them from
//! bytes), so that both check the same properties. Neither generator's crate
//! is needed here.
//!
//! Reads must equal the reference's result; writes must leave the whole base
//! array equal to the reference's (so a write outside the view is caught);
//! an error must be the reference's error and leave the base unchanged bit
//! for bit.

use std::fmt::Debug;

use ndarray::{ArrayBase, ArrayD, ArrayViewD, Axis, DataMut, IxDyn, RawData, Slice};
use tensor_at::backend::AnyMode;
use tensor_at::index::{IndexElem, PySlice, RangeSlice};
use tensor_at::{IndexError, Op, along, ix, nd};

use super::{ErrKind, Oob, Tensor, Value};

// ---------------------------------------------------------------- element types

/// The element types under test: how results are compared, and the function
/// `apply` applies. Each generator adds how it draws elements.
pub trait TestElem: super::Arith + tensor_at::element::Arith + tensor_at::element::Scalar + Debug {
    /// The same value: bit for bit, any NaN equal to any NaN.
    fn same(a: Self, b: Self) -> bool;
    /// The bits, for "unchanged" checks.
    fn bits(self) -> u64;
    /// The function `apply` applies.
    fn f(self) -> Self;
}

impl TestElem for i64 {
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
#[derive(Clone, Debug)]
pub struct AxisLayout {
    pub start: usize,
    pub step: isize,
    pub extra: usize,
    pub invert: bool,
}

/// A target that is a view of a bigger base: target axis `i` is base axis
/// `perm[i]`, sliced as `axes[i]` says.
#[derive(Clone, Debug)]
pub struct Layout {
    pub perm: Vec<usize>,
    pub axes: Vec<AxisLayout>,
}

/// How many base elements an axis of `len` elements walked by `step` covers.
pub fn span(len: usize, step: isize) -> usize {
    if len == 0 { 0 } else { (len - 1) * step.unsigned_abs() + 1 }
}

impl Layout {
    pub fn base_shape(&self, shape: &[usize]) -> Vec<usize> {
        let mut base = vec![0; shape.len()];
        for (i, axis) in self.axes.iter().enumerate() {
            base[self.perm[i]] = axis.start + span(shape[i], axis.step) + axis.extra;
        }
        base
    }

    /// The target view (of shape `shape`) of a base array.
    pub fn view<S: RawData>(&self, mut base: ArrayBase<S, IxDyn>, shape: &[usize]) -> ArrayBase<S, IxDyn> {
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
#[derive(Clone, Debug)]
pub enum IntsSpec {
    Usize(ArrayD<usize>),
    Isize(ArrayD<isize>),
    I32(ArrayD<i32>),
    I64(ArrayD<i64>),
    U32(ArrayD<u32>),
    U64(ArrayD<u64>),
}

macro_rules! each_ints {
    ($spec:expr, $a:ident => $body:expr) => {
        match $spec {
            IntsSpec::Usize($a) => $body,
            IntsSpec::Isize($a) => $body,
            IntsSpec::I32($a) => $body,
            IntsSpec::I64($a) => $body,
            IntsSpec::U32($a) => $body,
            IntsSpec::U64($a) => $body,
        }
    };
}

impl IntsSpec {
    /// `values` as an array of index type `ty % 6` (usize, isize, i32, i64,
    /// u32, u64); a value the type cannot hold becomes the type's extreme
    /// (the minimum of a signed type, the maximum of an unsigned one), so
    /// `i128::MIN` asks for the extreme of whichever type is drawn.
    pub fn new(ty: u8, shape: &[usize], values: &[i128], fortran: bool) -> IntsSpec {
        fn typed<T: TryFrom<i128> + Copy>(shape: &[usize], values: &[i128], extreme: T, fortran: bool) -> ArrayD<T> {
            let data = values.iter().map(|&v| T::try_from(v).unwrap_or(extreme)).collect();
            build(shape, data, fortran)
        }
        match ty % 6 {
            0 => IntsSpec::Usize(typed(shape, values, usize::MAX, fortran)),
            1 => IntsSpec::Isize(typed(shape, values, isize::MIN, fortran)),
            2 => IntsSpec::I32(typed(shape, values, i32::MIN, fortran)),
            3 => IntsSpec::I64(typed(shape, values, i64::MIN, fortran)),
            4 => IntsSpec::U32(typed(shape, values, u32::MAX, fortran)),
            _ => IntsSpec::U64(typed(shape, values, u64::MAX, fortran)),
        }
    }
}

/// One index element, owning its arrays.
#[derive(Clone, Debug)]
pub enum ElemSpec {
    Int(i128),
    Py(PySlice),
    Range(RangeSlice),
    Ellipsis,
    NewAxis,
    Ints(IntsSpec),
    Mask(ArrayD<bool>),
    Nd(IntsSpec),
    /// `along(idx, axis)`.
    Along(IntsSpec, isize),
}

impl ElemSpec {
    pub fn elem(&self) -> IndexElem<'_> {
        match self {
            ElemSpec::Int(i) => IndexElem::Int(*i),
            ElemSpec::Py(s) => ix(*s),
            ElemSpec::Range(r) => ix(*r),
            ElemSpec::Ellipsis => ix(tensor_at::index::Ellipsis),
            ElemSpec::NewAxis => ix(tensor_at::index::NewAxis),
            ElemSpec::Ints(a) => each_ints!(a, a => ix(a)),
            ElemSpec::Mask(m) => ix(m),
            ElemSpec::Nd(a) => each_ints!(a, a => ix(nd(a))),
            ElemSpec::Along(a, axis) => each_ints!(a, a => ix(along(a, *axis))),
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, ElemSpec::Ints(_) | ElemSpec::Mask(_) | ElemSpec::Nd(_) | ElemSpec::Along(..))
    }
}

/// An array in C order, or (when `fortran`) the same logical array stored
/// in Fortran order.
pub fn build<T: Clone>(shape: &[usize], data: Vec<T>, fortran: bool) -> ArrayD<T> {
    let array = ArrayD::from_shape_vec(shape, data).expect("one element per position");
    match fortran {
        false => array,
        true => array.t().as_standard_layout().into_owned().reversed_axes(),
    }
}

/// `elem` with the batch axes `axes` in front, its elements rotated by one
/// more place in each batch position (basic elements have no batch axes).
pub fn with_batch_axes(elem: ElemSpec, axes: &[usize]) -> ElemSpec {
    fn stack<A: Clone>(array: &ndarray::ArrayD<A>, axes: &[usize]) -> ndarray::ArrayD<A> {
        let values: Vec<A> = array.iter().cloned().collect();
        let mut data = Vec::new();
        for p in 0..axes.iter().product::<usize>() {
            let mut batch = values.clone();
            if !batch.is_empty() {
                let len = batch.len();
                batch.rotate_left(p % len);
            }
            data.extend(batch);
        }
        build(&[axes, array.shape()].concat(), data, false)
    }
    let ints = |spec: &IntsSpec| match spec {
        IntsSpec::Usize(a) => IntsSpec::Usize(stack(a, axes)),
        IntsSpec::Isize(a) => IntsSpec::Isize(stack(a, axes)),
        IntsSpec::I32(a) => IntsSpec::I32(stack(a, axes)),
        IntsSpec::I64(a) => IntsSpec::I64(stack(a, axes)),
        IntsSpec::U32(a) => IntsSpec::U32(stack(a, axes)),
        IntsSpec::U64(a) => IntsSpec::U64(stack(a, axes)),
    };
    match elem {
        ElemSpec::Ints(a) => ElemSpec::Ints(ints(&a)),
        ElemSpec::Nd(a) => ElemSpec::Nd(ints(&a)),
        ElemSpec::Along(a, axis) => ElemSpec::Along(ints(&a), axis),
        ElemSpec::Mask(m) => ElemSpec::Mask(stack(&m, axes)),
        basic => basic,
    }
}

/// The shape to draw a value for: the indexed region's, or `[2]` when the
/// index is an error (the value then only has to exist).
pub fn value_shape(shape: &[usize], index: &[ElemSpec]) -> Vec<usize> {
    let index: Vec<IndexElem<'_>> = index.iter().map(ElemSpec::elem).collect();
    super::select(shape, &index, Oob::Skip).map_or_else(|_| vec![2], |s| s.shape)
}

// ---------------------------------------------------------------- values and actions

/// A value: a scalar, or an array (when `stretch` is set, passed as a
/// stride-0 broadcast view of that shape).
#[derive(Clone, Debug)]
pub enum ValueSpec<T> {
    Scalar(T),
    Array { array: ArrayD<T>, stretch: Option<Vec<usize>> },
}

impl<T: Copy> ValueSpec<T> {
    pub fn view(&self) -> Option<ArrayViewD<'_, T>> {
        match self {
            ValueSpec::Scalar(_) => None,
            ValueSpec::Array { array, stretch: None } => Some(array.view()),
            ValueSpec::Array {
                array,
                stretch: Some(shape),
            } => Some(array.broadcast(shape.as_slice()).expect("drawn to broadcast")),
        }
    }

    pub fn reference(&self) -> Value<T> {
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

#[derive(Clone, Copy, Debug)]
pub enum Action {
    Get,
    Set,
    Update(Op),
    Apply,
}

// ---------------------------------------------------------------- cases

#[derive(Clone, Debug)]
pub struct Case<T> {
    pub shape: Vec<usize>,
    pub layout: Option<Layout>,
    pub base: ArrayD<T>,
    pub index: Vec<ElemSpec>,
    pub action: Action,
    pub mode: AnyMode<T>,
    pub value: ValueSpec<T>,
    /// `; batch = k`: the leading axes paired (0: the plain call).
    pub batch: usize,
}

/// The reference's name for a tensor-core error (`None`: a variant it does
/// not know).
pub fn kind(error: &IndexError) -> Option<ErrKind> {
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
        IndexError::AlongNotAlone => ErrKind::AlongNotAlone,
        IndexError::AlongRank { .. } => ErrKind::AlongRank,
        IndexError::AxisOutOfRange { .. } => ErrKind::AxisOutOfRange,
        IndexError::AlongShape { .. } => ErrKind::AlongShape,
        IndexError::BatchRank { .. } => ErrKind::BatchRank,
        IndexError::BatchShape { .. } => ErrKind::BatchShape,
        IndexError::BatchedMaskRead => ErrKind::BatchedMaskRead,
        _ => return None,
    })
}

/// Runs the write of `case` on `target` with tensor-core.
fn write<T: TestElem, S: DataMut<Elem = T>>(
    target: &mut ArrayBase<S, IxDyn>,
    index: &[IndexElem<'_>],
    case: &Case<T>,
) -> Result<(), IndexError> {
    let mode = case.mode;
    if case.batch > 0 {
        return write_batched(target, index, case);
    }
    match (case.action, &case.value, case.value.view()) {
        (Action::Set, ValueSpec::Scalar(v), _) => tensor_at::backend::set(target, index, *v, mode),
        (Action::Set, _, Some(view)) => tensor_at::backend::set(target, index, view, mode),
        (Action::Update(op), ValueSpec::Scalar(v), _) => tensor_at::backend::update(target, index, op, *v, mode),
        (Action::Update(op), _, Some(view)) => tensor_at::backend::update(target, index, op, view, mode),
        (Action::Apply, _, _) => tensor_at::backend::apply(target, index, T::f, mode),
        _ => unreachable!("reads are not writes"),
    }
}

/// Runs the batched write of `case` on `target` with tensor-core.
fn write_batched<T: TestElem, S: DataMut<Elem = T>>(
    target: &mut ArrayBase<S, IxDyn>,
    index: &[IndexElem<'_>],
    case: &Case<T>,
) -> Result<(), IndexError> {
    let (mode, batch) = (case.mode, case.batch);
    match (case.action, &case.value, case.value.view()) {
        (Action::Set, ValueSpec::Scalar(v), _) => tensor_at::backend::set_batched(target, index, batch, *v, mode),
        (Action::Set, _, Some(view)) => tensor_at::backend::set_batched(target, index, batch, view, mode),
        (Action::Update(op), ValueSpec::Scalar(v), _) => tensor_at::backend::update_batched(target, index, batch, op, *v, mode),
        (Action::Update(op), _, Some(view)) => tensor_at::backend::update_batched(target, index, batch, op, view, mode),
        (Action::Apply, _, _) => tensor_at::backend::apply_batched(target, index, batch, T::f, mode),
        _ => unreachable!("reads are not writes"),
    }
}

/// Fails the check with a message unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($message:tt)+) => {
        if !$cond {
            return Err(format!($($message)+));
        }
    };
}

/// `get_into` agrees with the reference: the result written over an array
/// of its shape (in C order when it has an even number of elements, in
/// Fortran order otherwise), or the reference's error with the array
/// unchanged.
fn check_read_into<T: TestElem>(
    view: &ArrayViewD<'_, T>,
    index: &[IndexElem<'_>],
    mode: &AnyMode<T>,
    expected: &Result<Tensor<T>, ErrKind>,
) -> Result<(), String> {
    let (shape, old) = match expected {
        Ok(expected) => (expected.shape.clone(), expected.data.iter().rev().copied().collect::<Vec<T>>()),
        Err(_) => {
            // The read's own error comes before any check of `out`.
            let old: Vec<T> = view.iter().copied().chain(view.iter().copied().take(1)).collect();
            (vec![old.len()], old)
        }
    };
    let mut out = match old.len() % 2 {
        0 => ArrayD::from_shape_vec(shape.clone(), old.clone()).expect("one element per position"),
        _ => ArrayD::from_shape_vec(ndarray::ShapeBuilder::f(shape.clone()), old.clone()).expect("one element per position"),
    };
    let before: Vec<T> = out.iter().copied().collect();
    match (tensor_at::backend::get_into(view, index, *mode, &mut out), expected) {
        (Ok(()), Ok(expected)) => {
            let same = out.iter().zip(&expected.data).all(|(&a, &e)| T::same(a, e));
            ensure!(same, "read into {out:?}, expected {:?}", expected.data);
        }
        (Err(actual), Err(expected)) => {
            ensure!(kind(&actual) == Some(*expected), "read into: error {actual}, expected {expected:?}");
            let unchanged = out.iter().zip(&before).all(|(&a, &b)| a.bits() == b.bits());
            ensure!(unchanged, "read into: the array changed on error {actual}");
        }
        (actual, expected) => return Err(format!("read into: tensor-core: {actual:?}\nreference: {expected:?}")),
    }
    Ok(())
}

/// Runs `case` with tensor-core and with the reference; `Err` says how they
/// disagree. The generators report it their own way (a proptest failure, a
/// panic with the case).
pub fn check<T: TestElem>(case: &Case<T>) -> Result<(), String> {
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
        let (expected, actual) = match case.batch {
            0 => {
                let expected = super::read(&target, &index, &case.mode);
                check_read_into(&view, &index, &case.mode, &expected)?;
                (expected, tensor_at::backend::get(&view, &index, case.mode))
            }
            batch => (
                super::batch::read(&target, &index, batch, &case.mode),
                tensor_at::backend::get_batched(&view, &index, batch, case.mode),
            ),
        };
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => {
                ensure!(
                    actual.shape() == expected.shape.as_slice(),
                    "read shape {:?}, expected {:?}",
                    actual.shape(),
                    expected.shape
                );
                let same = actual.iter().zip(&expected.data).all(|(&a, &e)| T::same(a, e));
                ensure!(same, "read {actual:?}, expected {:?}", expected.data);
                let basic = !case.index.iter().any(ElemSpec::is_array) && !matches!(case.mode, AnyMode::Fill(_));
                ensure!(!basic || actual.is_view(), "basic indexing must return a view");
            }
            (Err(actual), Err(expected)) => ensure!(kind(&actual) == Some(expected), "error {actual}, expected {expected:?}"),
            (actual, expected) => return Err(format!("tensor-core: {actual:?}\nreference: {expected:?}")),
        }
        return Ok(());
    }

    let value = case.value.reference();
    let expected = match (case.action, case.batch) {
        (Action::Set, 0) => super::set(&mut target, &index, &value, &case.mode),
        (Action::Update(op), 0) => super::update(&mut target, &index, op, &value, &case.mode),
        (Action::Apply, 0) => super::apply(&mut target, &index, T::f, &case.mode),
        (Action::Set, batch) => super::batch::set(&mut target, &index, batch, &value, &case.mode),
        (Action::Update(op), batch) => super::batch::update(&mut target, &index, batch, op, &value, &case.mode),
        (Action::Apply, batch) => super::batch::apply(&mut target, &index, batch, T::f, &case.mode),
        (Action::Get, _) => unreachable!("handled above"),
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
            ensure!(
                same,
                "base after the write: {:?}\nexpected: {expected:?}",
                base.iter().collect::<Vec<_>>()
            );
        }
        (Err(actual), Err(expected)) => {
            ensure!(kind(&actual) == Some(expected), "error {actual}, expected {expected:?}");
            // Unchanged bit for bit: NaN payloads and signed zeros included.
            let unchanged = base.iter().zip(&original).all(|(a, o)| a.bits() == o.bits());
            ensure!(unchanged, "the base changed on error {actual}");
        }
        (actual, expected) => return Err(format!("tensor-core: {actual:?}\nreference: {expected:?}")),
    }
    Ok(())
}
