//! How the runtime targets decode bytes into cases of the reference
//! interpreter (`tests/suite/reference/case.rs`): element types, layouts,
//! index elements, values, operations and modes. Shared by `runtime`,
//! `batched` and `burn`.

// Each target takes the part of this module it needs.
#![allow(dead_code)]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use tensor_at::Op;
use tensor_at::backend::AnyMode;
use tensor_at::index::{PySlice, RangeSlice};

use crate::reference::case::{Action, AxisLayout, Case, ElemSpec, IntsSpec, Layout, TestElem, ValueSpec, build, value_shape};

// ---------------------------------------------------------------- element types

/// Runs one case of `data`: `f64` elements for a third of the inputs,
/// `i64` for the rest (the first byte decides). A case the bytes run out
/// for is skipped.
pub fn run_either(data: &[u8], floats: fn(&mut Unstructured<'_>) -> Result<()>, ints: fn(&mut Unstructured<'_>) -> Result<()>) {
    let mut u = Unstructured::new(data);
    let _ = match u.ratio(1, 3) {
        Ok(true) => floats(&mut u),
        _ => ints(&mut u),
    };
}

/// How the fuzz target decodes each element type.
pub trait ArbitraryElem: TestElem {
    /// An element of the target.
    fn base(u: &mut Unstructured<'_>) -> Result<Self>;
    /// An operand of `action`.
    fn operand(u: &mut Unstructured<'_>, action: Action) -> Result<Self>;
}

impl ArbitraryElem for i64 {
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
}

impl ArbitraryElem for f64 {
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
}

// ---------------------------------------------------------------- cases

/// What a case's target may be.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Rank 0 to 4, and now and then a view of a bigger base array
    /// (strides negative, permuted, stepped).
    View,
    /// Rank 1 to 4, contiguous: a burn tensor's (burn has no rank 0, and
    /// no views).
    Contiguous,
}

/// One unbatched case: a target, an index of up to 6 elements, an action,
/// a mode and a value.
pub fn case<T: ArbitraryElem>(u: &mut Unstructured<'_>, target: Target) -> Result<Case<T>> {
    let rank = match target {
        Target::View => u.int_in_range(0..=4)?,
        Target::Contiguous => u.int_in_range(1..=4)?,
    };
    let shape: Vec<usize> = (0..rank)
        .map(|_| {
            Ok(if u.ratio(1, 6)? {
                u.int_in_range(5..=8)?
            } else {
                u.int_in_range(0..=4)?
            })
        })
        .collect::<Result<_>>()?;
    let layout = match target {
        Target::View => layout(u, rank)?,
        Target::Contiguous => None,
    };
    let base_shape = layout.as_ref().map_or_else(|| shape.clone(), |l| l.base_shape(&shape));
    let base_data = (0..base_shape.iter().product::<usize>())
        .map(|_| T::base(u))
        .collect::<Result<_>>()?;
    let base = build(&base_shape, base_data, false);

    let mut axis = 0;
    let index: Vec<ElemSpec> = (0..u.int_in_range(0..=6)?)
        .map(|_| elem(u, &shape, &mut axis))
        .collect::<Result<_>>()?;
    let action = action(u)?;
    let mode = mode::<T>(u)?;
    let value = value::<T>(u, &value_shape(&shape, &index), action)?;
    Ok(Case {
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

// ---------------------------------------------------------------- layouts

pub fn layout(u: &mut Unstructured<'_>, rank: usize) -> Result<Option<Layout>> {
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

// ---------------------------------------------------------------- indices

/// An integer index near an axis of length `len`: mostly inside, sometimes
/// just outside either end, sometimes an extreme of some integer type.
pub fn index_value(u: &mut Unstructured<'_>, len: usize) -> Result<i128> {
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

/// A shape for an index array: mostly small, so that arrays broadcast.
pub fn array_shape(u: &mut Unstructured<'_>) -> Result<Vec<usize>> {
    let rank = u.int_in_range(0..=2)?;
    (0..rank).map(|_| Ok(*u.choose(&[1, 1, 2, 2, 3, 0])?)).collect()
}

/// A slice bound: near the axis, or an extreme.
pub fn bound(u: &mut Unstructured<'_>, len: usize) -> Result<isize> {
    let n = len as isize;
    Ok(match u.int_in_range(0..=15)? {
        0 => isize::MIN,
        1 => isize::MAX,
        2 => isize::MIN + 1,
        _ => u.int_in_range(-n - 2..=n + 2)?,
    })
}

pub fn step(u: &mut Unstructured<'_>) -> Result<isize> {
    Ok(match u.int_in_range(0..=15)? {
        0 => 0,
        1 => isize::MIN,
        2 => isize::MAX,
        3 => isize::MIN + 1,
        k => [1, 2, 3, -1, -2, -3][k as usize % 6],
    })
}

pub fn elem(u: &mut Unstructured<'_>, shape: &[usize], axis: &mut usize) -> Result<ElemSpec> {
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
            ElemSpec::Ints(IntsSpec::new(u.arbitrary()?, &shape, &values, u.arbitrary()?))
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
            return Ok(ElemSpec::Nd(IntsSpec::new(u.arbitrary()?, &nd_shape, &values, u.arbitrary()?)));
        }
    };
    if !matches!(spec, ElemSpec::Ellipsis | ElemSpec::NewAxis) {
        *axis += 1;
    }
    Ok(spec)
}

// ---------------------------------------------------------------- values, ops, modes

pub fn value<T: ArbitraryElem>(u: &mut Unstructured<'_>, region: &[usize], action: Action) -> Result<ValueSpec<T>> {
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

pub fn action(u: &mut Unstructured<'_>) -> Result<Action> {
    let ops = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Min, Op::Max];
    Ok(match u.int_in_range(0..=9)? {
        0..=2 => Action::Get,
        3..=4 => Action::Set,
        5 => Action::Apply,
        _ => Action::Update(*u.choose(&ops)?),
    })
}

pub fn mode<T: ArbitraryElem>(u: &mut Unstructured<'_>) -> Result<AnyMode<T>> {
    Ok(match u.int_in_range(0..=4)? {
        0 => AnyMode::Error,
        1 => AnyMode::Clip,
        2 => AnyMode::Wrap,
        3 => AnyMode::Drop,
        _ => AnyMode::Fill(T::base(u)?),
    })
}
