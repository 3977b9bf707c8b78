//! Property tests: tensor-core against the reference interpreter of
//! `reference/mod.rs`.
//!
//! Each case draws a shape first, then a target laid out on it (a standard
//! array, or a view of a bigger base array with offsets, steps, reversed and
//! permuted axes), an index that fits the shape (mostly valid, sometimes
//! out of bounds, mis-shaped or over-long), an operation, a mode and a value
//! shaped for the indexed region. Reads compare the result; writes compare
//! the whole base array, so a write outside the view is caught; errors
//! compare the variant and that the base is bit-for-bit unchanged. The case
//! and its check are `reference/case.rs`, shared with the fuzz target; this
//! file only draws cases.

use crate::reference::case::{
    Action, AxisLayout, Case, ElemSpec, IntsSpec, Layout, TestElem, ValueSpec, build, check, kind, value_shape, with_batch_axes,
};
use crate::reference::{self, ErrKind, Tensor};
use ndarray::{Axis, Slice};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};
use tensor_at::backend::AnyMode;
use tensor_at::index::{PySlice, RangeSlice};
use tensor_at::{Op, ix};

// ---------------------------------------------------------------- layouts

fn layout_strategy(shape: Vec<usize>) -> BoxedStrategy<Option<Layout>> {
    let rank = shape.len();
    let axis = (
        0..=2usize,
        prop_oneof![4 => Just(1isize), 4 => Just(-1isize), 2 => prop_oneof![Just(2isize), Just(-2)], 1 => prop_oneof![Just(3isize), Just(-3)]],
        0..=1usize,
        prop::bool::weighted(0.3),
    )
        .prop_map(|(start, step, extra, invert)| AxisLayout { start, step, extra, invert });
    let strided = (Just((0..rank).collect::<Vec<_>>()).prop_shuffle(), vec(axis, rank)).prop_map(move |(perm, mut axes)| {
        // Keep the base small: fall back to unit steps when it would be big.
        let layout = Layout {
            perm: perm.clone(),
            axes: axes.clone(),
        };
        if layout.base_shape(&shape).iter().product::<usize>() > 4096 {
            axes.iter_mut().for_each(|a| a.step = a.step.signum());
        }
        Some(Layout { perm, axes })
    });
    prop_oneof![1 => Just(None), 2 => strided].boxed()
}

// ---------------------------------------------------------------- indices

/// Index arrays hold `Some(value)`, or `None` for the type's extreme value.
fn ints_spec(ty: u8, shape: &[usize], values: &[Option<i128>], fortran: bool) -> IntsSpec {
    // `i128::MIN` fits no index type: `IntsSpec::new` makes it the extreme.
    let values: Vec<i128> = values.iter().map(|v| v.unwrap_or(i128::MIN)).collect();
    IntsSpec::new(ty, shape, &values, fortran)
}

fn signed(ty: u8) -> bool {
    matches!(ty, 1..=3)
}

/// An integer index on an axis of length `len`: in bounds, or when `wild`
/// often out of bounds (just past either end, or the type's extreme).
fn index_value(len: usize, signed: bool, wild: bool) -> BoxedStrategy<Option<i128>> {
    let n = len as i128;
    let mut options: Vec<(u32, BoxedStrategy<Option<i128>>)> = vec![];
    if n > 0 {
        let inside = if signed { (-n..n).boxed() } else { (0..n).boxed() };
        options.push((12, inside.prop_map(Some).boxed()));
    }
    if wild || n == 0 {
        options.push((2, (n..n + 3).prop_map(Some).boxed()));
        options.push((1, Just(None).boxed()));
        if signed {
            options.push((2, (-n - 3..-n).prop_map(Some).boxed()));
        }
    }
    Union::new_weighted(options).boxed()
}

/// What kind of element to draw next; masks and `nd` say how many axes.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Int,
    Py,
    Range,
    Ellipsis,
    NewAxis,
    Ints,
    Mask(usize),
    Nd(usize),
    /// `nd` of a 0-d array, an error.
    NdScalar,
}

impl Kind {
    fn axes(self) -> usize {
        match self {
            Kind::Int | Kind::Py | Kind::Range | Kind::Ints => 1,
            Kind::Mask(k) | Kind::Nd(k) => k,
            Kind::Ellipsis | Kind::NewAxis | Kind::NdScalar => 0,
        }
    }
}

fn kind_strategy() -> impl Strategy<Value = Kind> {
    let depth = || prop_oneof![1 => Just(0usize), 6 => Just(1usize), 4 => Just(2usize), 1 => Just(3usize)];
    prop_oneof![
        40 => Just(Kind::Int),
        30 => Just(Kind::Py),
        30 => Just(Kind::Range),
        20 => Just(Kind::Ellipsis),
        10 => Just(Kind::NewAxis),
        40 => Just(Kind::Ints),
        20 => depth().prop_map(Kind::Mask),
        10 => depth().prop_map(Kind::Nd),
        1 => Just(Kind::NdScalar),
    ]
}

/// Keeps the kinds within `rank` axes and one ellipsis, unless `overflow`.
fn fit(kinds: Vec<Kind>, rank: usize, overflow: bool) -> Vec<Kind> {
    let mut budget = rank;
    let mut ellipsis = false;
    let mut fitted = vec![];
    for kind in kinds {
        let kind = match kind {
            _ if overflow => kind,
            Kind::Ellipsis if ellipsis => continue,
            Kind::Mask(k) => Kind::Mask(k.min(budget)),
            Kind::Nd(k) => Kind::Nd(k.min(budget)),
            Kind::Int | Kind::Py | Kind::Range | Kind::Ints if budget == 0 => continue,
            other => other,
        };
        ellipsis |= matches!(kind, Kind::Ellipsis);
        budget = budget.saturating_sub(kind.axes());
        fitted.push(kind);
    }
    fitted
}

/// The lengths of the axes each element consumes (3 past the last axis).
fn axis_lens(kinds: &[Kind], shape: &[usize]) -> Vec<Vec<usize>> {
    let consumed: usize = kinds.iter().map(|k| k.axes()).sum();
    let mut rest = shape.len().saturating_sub(consumed);
    let mut axis = 0;
    kinds
        .iter()
        .map(|kind| {
            let n = match kind {
                Kind::Ellipsis => std::mem::take(&mut rest),
                other => other.axes(),
            };
            let lens = (axis..axis + n).map(|a| shape.get(a).copied().unwrap_or(3)).collect();
            axis += n;
            lens
        })
        .collect()
}

/// A shape derived from `common` by dropping leading axes and setting some
/// to 1, so arrays drawn this way broadcast together; sometimes any shape.
fn array_shape(common: Vec<usize>) -> BoxedStrategy<Vec<usize>> {
    let rank = common.len();
    let derived = (vec(prop::bool::weighted(0.25), rank), 0..=rank).prop_map(move |(ones, drop)| {
        common
            .iter()
            .zip(ones)
            .skip(drop)
            .map(|(&len, one)| if one { 1 } else { len })
            .collect()
    });
    prop_oneof![8 => derived, 1 => vec(prop_oneof![4 => 1..=3usize, 1 => Just(0usize)], 0..=2)].boxed()
}

fn py_slice(len: usize) -> impl Strategy<Value = PySlice> {
    let n = len as isize;
    let bound = move || prop::option::weighted(0.7, -n - 2..=n + 2);
    let step = prop_oneof![
        6 => Just(None),
        8 => (1..=3isize).prop_map(Some),
        6 => (-3..=-1isize).prop_map(Some),
        1 => Just(Some(0isize)),
    ];
    // Mostly bounds in walking order, so that most slices are not empty.
    (bound(), bound(), step, prop::bool::weighted(0.7)).prop_map(move |(mut start, mut stop, step, ordered)| {
        let absolute = |v: Option<isize>| v.map(|v| if v < 0 { v + n } else { v });
        let backwards = step.is_some_and(|s| s < 0);
        if let (true, Some(a), Some(b)) = (ordered, absolute(start), absolute(stop))
            && (a > b) != backwards
        {
            std::mem::swap(&mut start, &mut stop);
        }
        PySlice { start, stop, step }
    })
}

fn range_slice(len: usize) -> impl Strategy<Value = RangeSlice> {
    let n = len as isize;
    let bound = move || prop_oneof![12 => -n..=n, 1 => prop_oneof![Just(n + 1), Just(-n - 1)]];
    let step = prop_oneof![10 => 1..=3isize, 8 => -3..=-1isize, 1 => Just(0isize)];
    // Mostly `start <= end`, so that most ranges are not empty.
    (bound(), prop::option::weighted(0.6, bound()), step, prop::bool::weighted(0.7)).prop_map(move |(mut start, mut end, step, ordered)| {
        let absolute = |v: isize| if v < 0 { v + n } else { v };
        if let (true, Some(e)) = (ordered, end.as_mut())
            && absolute(start) > absolute(*e)
        {
            std::mem::swap(&mut start, e);
        }
        RangeSlice { start, end, step }
    })
}

/// One element of `kind` on axes of lengths `lens`; index arrays are
/// out of bounds with probability `wild`.
fn elem_strategy(kind: Kind, lens: Vec<usize>, common: Vec<usize>, wild: f64) -> BoxedStrategy<ElemSpec> {
    let wild = move || prop::bool::weighted(wild);
    match kind {
        Kind::Int => wild()
            .prop_flat_map(move |wild| index_value(lens[0], true, wild))
            .prop_map(|v| ElemSpec::Int(v.unwrap_or(i64::MAX.into())))
            .boxed(),
        Kind::Py => py_slice(lens[0]).prop_map(ElemSpec::Py).boxed(),
        Kind::Range => range_slice(lens[0]).prop_map(ElemSpec::Range).boxed(),
        Kind::Ellipsis => Just(ElemSpec::Ellipsis).boxed(),
        Kind::NewAxis => Just(ElemSpec::NewAxis).boxed(),
        Kind::Ints => (array_shape(common), 0..6u8, any::<bool>(), wild())
            .prop_flat_map(move |(shape, ty, fortran, wild)| {
                let count: usize = shape.iter().product();
                vec(index_value(lens[0], signed(ty), wild), count)
                    .prop_map(move |values| ElemSpec::Ints(ints_spec(ty, &shape, &values, fortran)))
            })
            .boxed(),
        Kind::Mask(_) => {
            // Now and then one axis of the mask is one too long.
            let shape = match lens.len() {
                0 => Just(lens).boxed(),
                k => prop_oneof![
                    19 => Just(lens.clone()),
                    1 => (0..k).prop_map(move |i| {
                        let mut wrong = lens.clone();
                        wrong[i] += 1;
                        wrong
                    }),
                ]
                .boxed(),
            };
            (shape, any::<bool>(), 0.3..0.95f64)
                .prop_flat_map(|(shape, fortran, density)| {
                    let count: usize = shape.iter().product();
                    vec(prop::bool::weighted(density), count).prop_map(move |bits| ElemSpec::Mask(build(&shape, bits, fortran)))
                })
                .boxed()
        }
        Kind::Nd(_) => (array_shape(common), 0..6u8, any::<bool>(), wild())
            .prop_flat_map(move |(batch, ty, fortran, wild)| {
                // Element (p, j) of `batch + [depth]` indexes axis `j`.
                let count: usize = batch.iter().product();
                let values: Vec<_> = (0..count)
                    .flat_map(|_| lens.iter().map(|&len| index_value(len, signed(ty), wild)))
                    .collect();
                let shape = [batch, vec![lens.len()]].concat();
                values.prop_map(move |values| ElemSpec::Nd(ints_spec(ty, &shape, &values, fortran)))
            })
            .boxed(),
        Kind::NdScalar => (0..6u8, 0..3i128)
            .prop_map(|(ty, v)| ElemSpec::Nd(ints_spec(ty, &[], &[Some(v)], false)))
            .boxed(),
    }
}

/// An index for `shape`: up to six elements sharing one broadcast shape for
/// their arrays, or now and then one mask over every axis.
fn index_strategy(shape: Vec<usize>, wild: f64) -> BoxedStrategy<Vec<ElemSpec>> {
    let common = vec(prop_oneof![12 => 1..=3usize, 1 => Just(0usize)], 0..=2);
    let s = shape.clone();
    let general = (vec(kind_strategy(), 0..=6), common, prop::bool::weighted(0.04)).prop_flat_map(move |(kinds, common, overflow)| {
        let kinds = fit(kinds, s.len(), overflow);
        let lens = axis_lens(&kinds, &s);
        kinds
            .into_iter()
            .zip(lens)
            .map(|(kind, lens)| elem_strategy(kind, lens, common.clone(), wild))
            .collect::<Vec<_>>()
    });
    let whole_mask = elem_strategy(Kind::Mask(shape.len()), shape.clone(), vec![], wild).prop_map(|mask| vec![mask]);
    prop_oneof![16 => general, 1 => whole_mask, 4 => along_strategy(shape, wild)].boxed()
}

/// `along(idx, axis)`: an index of the target's rank that broadcasts
/// against it outside `axis` (now and then: of another rank, mis-shaped,
/// an axis out of range, or another element beside it).
fn along_strategy(shape: Vec<usize>, wild: f64) -> BoxedStrategy<Vec<ElemSpec>> {
    let rank = shape.len() as isize;
    let axis = prop_oneof![20 => -rank.max(1)..rank.max(1), 1 => prop_oneof![Just(rank), Just(-rank - 1)]];
    let dims: Vec<_> = shape
        .iter()
        .map(|&len| prop_oneof![8 => Just(len), 4 => Just(1usize), 4 => 0..=4usize, 1 => Just(len + 2)])
        .collect();
    let other_rank = prop_oneof![30 => Just(0isize), 1 => Just(1isize), 1 => Just(-1isize)];
    let beside = prop::bool::weighted(0.03);
    (axis, dims, other_rank, beside, 0..6u8, any::<bool>(), prop::bool::weighted(wild))
        .prop_flat_map(move |(axis, mut dims, other_rank, beside, ty, fortran, wild)| {
            let positive = if axis < 0 { axis + rank } else { axis };
            let len = usize::try_from(positive).ok().and_then(|a| shape.get(a)).copied().unwrap_or(1);
            if let Ok(a) = usize::try_from(positive)
                && let Some(dim) = dims.get_mut(a)
            {
                *dim = (*dim).min(4);
            }
            match other_rank {
                1 => dims.push(2),
                -1 => drop(dims.pop()),
                _ => {}
            }
            let count: usize = dims.iter().product();
            let values: Vec<_> = (0..count).map(|_| index_value(len, signed(ty), wild)).collect();
            values.prop_map(move |values| {
                let along = ElemSpec::Along(ints_spec(ty, &dims, &values, fortran), axis);
                match beside {
                    true => vec![along, ElemSpec::Ellipsis],
                    false => vec![along],
                }
            })
        })
        .boxed()
}

// ---------------------------------------------------------------- values, ops, modes

fn value_strategy<T: TestElem>(region: Vec<usize>, elem: BoxedStrategy<T>) -> BoxedStrategy<ValueSpec<T>> {
    let rank = region.len();
    let r = region.clone();
    let derived = (vec(prop::bool::weighted(0.3), rank), 0..=rank).prop_map(move |(ones, drop)| {
        r.iter()
            .zip(ones)
            .skip(drop)
            .map(|(&len, one)| if one { 1 } else { len })
            .collect::<Vec<_>>()
    });
    let shape = prop_oneof![
        4 => Just(region.clone()),
        3 => derived.clone(),
        1 => (derived.clone(), 1..=2usize).prop_map(|(s, k)| [vec![1; k], s].concat()),
        1 => vec(0..=3usize, 0..=3),
        1 => (0..=4usize).prop_map(|len| vec![len]),
    ];
    let array = |elem: BoxedStrategy<T>, shape: Vec<usize>, fortran: bool| {
        vec(elem, shape.iter().product::<usize>()).prop_map(move |data| build(&shape, data, fortran))
    };
    let (e1, e2) = (elem.clone(), elem.clone());
    prop_oneof![
        2 => elem.prop_map(ValueSpec::Scalar),
        7 => (shape, any::<bool>())
            .prop_flat_map(move |(shape, fortran)| array(e1.clone(), shape, fortran))
            .prop_map(|array| ValueSpec::Array { array, stretch: None }),
        1 => derived
            .prop_flat_map(move |shape| array(e2.clone(), shape, false))
            .prop_map(move |array| ValueSpec::Array { array, stretch: Some(region.clone()) }),
    ]
    .boxed()
}

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Add),
        Just(Op::Sub),
        Just(Op::Mul),
        Just(Op::Div),
        Just(Op::Pow),
        Just(Op::Min),
        Just(Op::Max)
    ]
}

fn mode_strategy<T: StrategyElem>(action: Action) -> BoxedStrategy<AnyMode<T>> {
    let fill = T::base().prop_map(AnyMode::Fill);
    match action {
        Action::Get => prop_oneof![
            10 => Just(AnyMode::Error),
            3 => Just(AnyMode::Clip),
            3 => Just(AnyMode::Wrap),
            4 => fill,
            1 => Just(AnyMode::Drop),
        ]
        .boxed(),
        _ => prop_oneof![
            10 => Just(AnyMode::Error),
            3 => Just(AnyMode::Clip),
            3 => Just(AnyMode::Wrap),
            4 => Just(AnyMode::Drop),
            1 => fill,
        ]
        .boxed(),
    }
}

/// How the property tests draw each element type.
trait StrategyElem: TestElem {
    /// Elements of the target.
    fn base() -> BoxedStrategy<Self>;
    /// Elements of values written by `action`.
    fn operand(action: Action) -> BoxedStrategy<Self>;
}

impl StrategyElem for i64 {
    fn base() -> BoxedStrategy<i64> {
        prop_oneof![40 => -6..=6i64, 1 => prop_oneof![Just(i64::MIN), Just(i64::MAX)]].boxed()
    }
    fn operand(action: Action) -> BoxedStrategy<i64> {
        match action {
            Action::Update(Op::Div) => prop_oneof![80 => prop_oneof![-5..=-1i64, 1..=5i64], 1 => Just(0i64)].boxed(),
            Action::Update(Op::Pow) => prop_oneof![80 => 0..=4i64, 1 => -2..=-1i64].boxed(),
            _ => Self::base(),
        }
    }
}

impl StrategyElem for f64 {
    fn base() -> BoxedStrategy<f64> {
        prop_oneof![40 => (-6..=6i32).prop_map(f64::from), 1 => Just(-0.0), 1 => Just(f64::NAN), 1 => Just(f64::INFINITY)].boxed()
    }
    fn operand(action: Action) -> BoxedStrategy<f64> {
        match action {
            Action::Update(Op::Pow) => {
                prop_oneof![20 => (0..=3i32).prop_map(f64::from), 2 => (-2..=-1i32).prop_map(f64::from), 1 => Just(f64::NAN)].boxed()
            }
            _ => prop_oneof![40 => (-5..=5i32).prop_map(f64::from), 2 => Just(f64::NAN)].boxed(),
        }
    }
}

// ---------------------------------------------------------------- cases

fn case_strategy<T: StrategyElem>(actions: BoxedStrategy<Action>) -> impl Strategy<Value = Case<T>> {
    let dim = prop_oneof![19 => 1..=4usize, 1 => Just(0usize)];
    vec(dim, 0..=5)
        .prop_flat_map(move |shape| (Just(shape), actions.clone()))
        .prop_flat_map(|(shape, action)| (Just(shape), Just(action), mode_strategy::<T>(action)))
        .prop_flat_map(|(shape, action, mode)| {
            // Out-of-bounds indices are errors in mode `error`; elsewhere they are the point.
            let wild = if let AnyMode::Error = mode { 0.08 } else { 0.4 };
            (
                Just(shape.clone()),
                layout_strategy(shape.clone()),
                index_strategy(shape, wild),
                Just(action),
                Just(mode),
            )
        })
        .prop_flat_map(|(shape, layout, index, action, mode)| {
            let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
            let base = vec(T::base(), base_shape.iter().product::<usize>()).prop_map(move |data| build(&base_shape, data, false));
            let region = value_shape(&shape, &index);
            (
                Just(shape),
                Just(layout),
                base,
                Just(index),
                Just(action),
                Just(mode),
                value_strategy(region, T::operand(action)),
            )
        })
        .prop_map(|(shape, layout, base, index, action, mode, value)| Case {
            shape,
            layout,
            base,
            index,
            action,
            mode,
            value,
            batch: 0,
        })
}

/// A batched case: one or two batch axes (now and then of length 0) before
/// a target drawn as the plain cases draw it, and an index drawn for one
/// batch. Each array, mask, `nd` and `along` index gains the batch axes
/// (now and then of length 1, to broadcast, or one too long), its
/// elements rotated by the batch position so that the batches differ.
fn batched_case_strategy<T: StrategyElem>(actions: BoxedStrategy<Action>) -> impl Strategy<Value = Case<T>> {
    let dim = || prop_oneof![19 => 1..=3usize, 1 => Just(0usize)];
    (vec(dim(), 1..=2), vec(dim(), 0..=3), actions)
        .prop_flat_map(|(batch, sub, action)| (Just(batch), Just(sub), Just(action), mode_strategy::<T>(action)))
        .prop_flat_map(|(batch, sub, action, mode)| {
            let wild = if let AnyMode::Error = mode { 0.08 } else { 0.4 };
            let axes = batch
                .iter()
                .map(|&len| prop_oneof![8 => Just(len), 2 => Just(1usize), 1 => Just(len + 1)])
                .collect::<Vec<_>>();
            let shape = [batch.clone(), sub.clone()].concat();
            (
                Just(batch),
                Just(sub.clone()),
                layout_strategy(shape),
                index_strategy(sub, wild),
                vec(axes, 6),
                Just(action),
                Just(mode),
            )
        })
        .prop_flat_map(|(batch, sub, layout, index, axes, action, mode)| {
            let region = [batch.clone(), value_shape(&sub, &index)].concat();
            let index: Vec<ElemSpec> = index
                .into_iter()
                .zip(axes.into_iter().cycle())
                .map(|(elem, axes)| with_batch_axes(elem, &axes))
                .collect();
            let shape = [batch.clone(), sub].concat();
            let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
            let base = vec(T::base(), base_shape.iter().product::<usize>()).prop_map(move |data| build(&base_shape, data, false));
            (
                Just((shape, batch.len())),
                Just(layout),
                base,
                Just(index),
                Just(action),
                Just(mode),
                value_strategy(region, T::operand(action)),
            )
        })
        .prop_map(|((shape, batch), layout, base, index, action, mode, value)| Case {
            shape,
            layout,
            base,
            index,
            action,
            mode,
            value,
            batch,
        })
}

// ---------------------------------------------------------------- properties

/// A Rust range as written, for the conversion test.
#[derive(Clone, Debug)]
enum RangeForm {
    Full,
    From(isize),
    To(isize),
    Half(isize, isize),
    Inclusive(isize, isize),
    ToInclusive(isize),
}

fn range_form() -> impl Strategy<Value = RangeForm> {
    let b = || -7..=7isize;
    prop_oneof![
        Just(RangeForm::Full),
        b().prop_map(RangeForm::From),
        b().prop_map(RangeForm::To),
        (b(), b()).prop_map(|(a, e)| RangeForm::Half(a, e)),
        (b(), b()).prop_map(|(a, e)| RangeForm::Inclusive(a, e)),
        b().prop_map(RangeForm::ToInclusive),
    ]
}

/// `cases` cases per property; failures are kept in `proptest-regressions/`.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/proptest_reference.txt",
        ))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn reads_match_reference(case in case_strategy::<i64>(Just(Action::Get).boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn sets_match_reference(case in case_strategy::<i64>(Just(Action::Set).boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn updates_match_reference(case in case_strategy::<i64>(any_op().prop_map(Action::Update).boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn float_ops_match_reference(case in case_strategy::<f64>(prop_oneof![
        1 => Just(Action::Get),
        1 => Just(Action::Set),
        1 => Just(Action::Apply),
        4 => any_op().prop_map(Action::Update),
    ].boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(600))]

    /// `; batch = k` against the loop over the batch.
    #[test]
    fn batched_reads_match_reference(case in batched_case_strategy::<i64>(Just(Action::Get).boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn batched_writes_match_reference(case in batched_case_strategy::<i64>(prop_oneof![
        2 => Just(Action::Set),
        3 => any_op().prop_map(Action::Update),
        1 => Just(Action::Apply),
    ].boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn batched_float_ops_match_reference(case in batched_case_strategy::<f64>(prop_oneof![
        1 => Just(Action::Get),
        1 => Just(Action::Set),
        3 => any_op().prop_map(Action::Update),
    ].boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn applies_match_reference(case in case_strategy::<i64>(Just(Action::Apply).boxed())) {
        check(&case).map_err(TestCaseError::fail)?;
    }

    /// Rust ranges mean what ndarray's `s![]` means: the reference's and
    /// tensor-core's reading of every range form, against ndarray itself.
    #[test]
    fn ranges_match_ndarray(len in 0..=6usize, form in range_form(), step in prop_oneof![1..=3isize, -3..=-1isize]) {
        let (elem, slice) = match form {
            RangeForm::Full => (ix(..), Slice::from(..)),
            RangeForm::From(a) => (ix(a..), Slice::from(a..)),
            RangeForm::To(e) => (ix(..e), Slice::from(..e)),
            RangeForm::Half(a, e) => (ix(a..e), Slice::from(a..e)),
            RangeForm::Inclusive(a, e) => (ix(a..=e), Slice::from(a..=e)),
            RangeForm::ToInclusive(e) => (ix(..=e), Slice::from(..=e)),
        };
        let (elem, slice) = (elem.step_by(step), slice.step_by(step));
        let x = ndarray::Array1::from_iter(0..len as i64);
        let target = Tensor { shape: vec![len], data: x.to_vec() };
        let index = [elem];
        let actual = tensor_at::backend::get(&x, &index, AnyMode::Error);
        let expected = reference::read(&target, &index, &AnyMode::Error);
        let n = len as isize;
        let absolute = |v: isize| if v < 0 { v + n } else { v };
        if (0..=n).contains(&absolute(slice.start)) && (0..=n).contains(&absolute(slice.end.unwrap_or(n))) {
            let ndarray_says: Vec<i64> = x.slice_axis(Axis(0), slice).to_vec();
            prop_assert_eq!(expected.map(|t| t.data), Ok(ndarray_says.clone()));
            prop_assert_eq!(actual.map(|a| a.iter().copied().collect::<Vec<_>>()), Ok(ndarray_says));
        } else {
            prop_assert_eq!(expected.map(|t| t.data), Err(ErrKind::RangeOutOfBounds));
            prop_assert_eq!(actual.map_err(|e| kind(&e)).map(|a| a.to_owned()), Err(Some(ErrKind::RangeOutOfBounds)));
        }
    }
}
