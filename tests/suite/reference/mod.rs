//! A small reference interpreter of tensor-at's indexing rules, element by
//! element, on plain vectors in C order.
//!
//! Written from the rules (NumPy's "Indexing on ndarrays", SPEC §4, the
//! documented deviations of `tensor_core` and its mode docs), never from the
//! planner: clarity over speed. It answers, for a target shape and an index,
//! the result shape and which target element every result position reads or
//! writes, and then performs reads, sets, updates and applies one position
//! at a time, in C order of the result.
//!
//! Error precedence follows NumPy's: two ellipses, then `nd` of a 0-d
//! array; too many indices; mask shapes; then integers (0-d index arrays
//! and the coordinates of `nd` of a 1-d array included) and slices in index
//! order; then the broadcast of the advanced indices; then the advanced
//! indices' bounds (only checked when the broadcast is non-empty, as NumPy
//! does). Writes check the value's shape after every index error (as
//! `np.add.at` does; NumPy's `x[i] = v` checks it before the advanced
//! indices' bounds), then every operand that will be applied (dropped
//! positions excluded), before writing anything.

#![allow(dead_code)] // each test binary uses a part of it

use tensor_at::Op;
use tensor_at::backend::AnyMode;
use tensor_at::index::{IndexElem, IntArray};

/// A random case of the runtime API and its check against this interpreter,
/// shared by the property tests and the fuzz target.
pub mod case;

/// `; batch = k`: the loop over the batch.
pub mod batch;

/// An array as plain data: `data` holds the elements in C order of `shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor<T> {
    pub shape: Vec<usize>,
    pub data: Vec<T>,
}

/// A value to write.
#[derive(Clone, Debug)]
pub enum Value<T> {
    Scalar(T),
    Array(Tensor<T>),
}

/// Which `tensor_at::IndexError` variant a failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrKind {
    OutOfBounds,
    TooManyIndices,
    MultipleEllipsis,
    ZeroStep,
    MaskShape,
    IndexBroadcast,
    ShapeMismatch,
    ValueCount,
    RangeOutOfBounds,
    UnsupportedMode,
    DivisionByZero,
    NegativeIntegerPower,
    NdRank,
    AlongNotAlone,
    AlongRank,
    AxisOutOfRange,
    AlongShape,
    BatchRank,
    BatchShape,
    BatchedMaskRead,
}

/// What an integer index outside `[-n, n)` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oob {
    Error,
    Clip,
    Wrap,
    /// Mark the position skipped (`drop` for writes, `fill` for reads).
    Skip,
}

/// The answer of indexing: the result shape and, for each result position
/// in C order, the multi-index of the target element (`None`: skipped).
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    pub shape: Vec<usize>,
    pub targets: Vec<Option<Vec<usize>>>,
}

/// Every multi-index of `shape`, in C order.
pub fn multi_indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &len in shape {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..len).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    all
}

/// The C-order position of `index` in `shape`.
fn flat(shape: &[usize], index: &[usize]) -> usize {
    shape.iter().zip(index).fold(0, |acc, (&len, &i)| acc * len + i)
}

/// The C-order position in `source` (a shape broadcastable to the shape
/// `index` lives in) of the element that broadcasting puts at `index`.
fn broadcast_flat(source: &[usize], index: &[usize]) -> usize {
    let skip = index.len() - source.len();
    let index: Vec<usize> = source
        .iter()
        .zip(&index[skip..])
        .map(|(&len, &i)| if len == 1 { 0 } else { i })
        .collect();
    flat(source, &index)
}

/// NumPy broadcasting of several shapes; `None` when they do not broadcast.
fn broadcast_shapes(shapes: &[Vec<usize>]) -> Option<Vec<usize>> {
    let rank = shapes.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![1; rank];
    for shape in shapes {
        for (k, &len) in shape.iter().rev().enumerate() {
            let slot = &mut out[rank - 1 - k];
            if *slot == 1 {
                *slot = len;
            } else if len != 1 && len != *slot {
                return None;
            }
        }
    }
    Some(out)
}

/// One index element, with its arrays as plain data.
enum Elem {
    Int(i128),
    Slice(Option<isize>, Option<isize>, Option<isize>),
    Range(isize, Option<isize>, isize),
    Ellipsis,
    NewAxis,
    Ints(Tensor<i128>),
    Mask(Tensor<bool>),
    Nd(Tensor<i128>),
    Along(Tensor<i128>, isize),
}

fn ints(array: &IntArray<'_>) -> Tensor<i128> {
    let data: Vec<i128> = match array {
        IntArray::Usize(a) => a.iter().map(|&v| v as i128).collect(),
        IntArray::Isize(a) => a.iter().map(|&v| v as i128).collect(),
        IntArray::I32(a) => a.iter().map(|&v| v as i128).collect(),
        IntArray::I64(a) => a.iter().map(|&v| v as i128).collect(),
        IntArray::U32(a) => a.iter().map(|&v| v as i128).collect(),
        IntArray::U64(a) => a.iter().map(|&v| v as i128).collect(),
        _ => unimplemented!("the reference interpreter has no rule for an index array type added since"),
    };
    Tensor {
        shape: array.shape().to_vec(),
        data,
    }
}

fn convert(elem: &IndexElem<'_>) -> Elem {
    match elem {
        IndexElem::Int(i) => Elem::Int(*i),
        IndexElem::Slice(s) => Elem::Slice(s.start, s.stop, s.step),
        IndexElem::Range(r) => Elem::Range(r.start, r.end, r.step),
        IndexElem::Ellipsis => Elem::Ellipsis,
        IndexElem::NewAxis => Elem::NewAxis,
        // A 0-d integer array is an integer.
        IndexElem::Array(a) if a.shape().is_empty() => Elem::Int(ints(a).data[0]),
        IndexElem::Array(a) => Elem::Ints(ints(a)),
        IndexElem::Mask(m) => Elem::Mask(Tensor {
            shape: m.shape().to_vec(),
            data: m.iter().copied().collect(),
        }),
        IndexElem::Nd(a) => Elem::Nd(ints(a)),
        IndexElem::Along { index, axis } => Elem::Along(ints(index), *axis),
        _ => unimplemented!("the reference interpreter has no rule for an index element added since"),
    }
}

/// `nd(idx)` with `depth >= 1` is its columns `idx[..., 0], idx[..., 1], ...`
/// as integer arrays (0-d columns are integers); other elements are as is.
fn split_nd(elem: Elem) -> Vec<Elem> {
    let a = match elem {
        Elem::Nd(a) if a.shape.last().is_some_and(|&depth| depth > 0) => a,
        other => return vec![other],
    };
    let (batch, depth) = (&a.shape[..a.shape.len() - 1], a.shape[a.shape.len() - 1]);
    (0..depth)
        .map(|k| {
            let data: Vec<i128> = multi_indices(batch)
                .into_iter()
                .map(|mut p| {
                    p.push(k);
                    a.data[flat(&a.shape, &p)]
                })
                .collect();
            match batch.is_empty() {
                true => Elem::Int(data[0]),
                false => Elem::Ints(Tensor {
                    shape: batch.to_vec(),
                    data,
                }),
            }
        })
        .collect()
}

impl Elem {
    /// How many target axes the element consumes (`...` aside). An `Nd`
    /// left by `split_nd` has depth 0 or no axis at all (an error).
    fn axes(&self) -> usize {
        match self {
            Elem::Int(_) | Elem::Slice(..) | Elem::Range(..) | Elem::Ints(_) => 1,
            Elem::Mask(m) => m.shape.len(),
            Elem::Nd(a) => a.shape.last().copied().unwrap_or(0),
            Elem::Ellipsis | Elem::NewAxis => 0,
            Elem::Along(a, _) => a.shape.len(),
        }
    }

    fn is_array(&self) -> bool {
        matches!(self, Elem::Ints(_) | Elem::Mask(_) | Elem::Nd(_))
    }
}

/// Resolves integer index `i` on an axis of length `len` (see `AnyMode`).
fn resolve(i: i128, len: usize, oob: Oob) -> Result<Option<usize>, ErrKind> {
    let n = len as i128;
    if (0..n).contains(&i) {
        return Ok(Some(i as usize));
    }
    if (-n..0).contains(&i) {
        return Ok(Some((i + n) as usize));
    }
    match oob {
        Oob::Error => Err(ErrKind::OutOfBounds),
        Oob::Skip => Ok(None),
        // An empty axis has nothing to clip or wrap to.
        Oob::Clip | Oob::Wrap if len == 0 => Err(ErrKind::OutOfBounds),
        Oob::Clip if i < 0 => Ok(Some(0)),
        Oob::Clip => Ok(Some(len - 1)),
        Oob::Wrap => Ok(Some(i.rem_euclid(n) as usize)),
    }
}

/// The positions of NumPy's `start:stop:step`, as Python's `slice.indices`.
fn py_slice(start: Option<isize>, stop: Option<isize>, step: Option<isize>, len: usize) -> Result<Vec<usize>, ErrKind> {
    let step = step.unwrap_or(1) as i128;
    if step == 0 {
        return Err(ErrKind::ZeroStep);
    }
    let n = len as i128;
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let bound = |v: Option<isize>, default: i128| match v {
        None => default,
        Some(v) if v < 0 => (v as i128 + n).max(lower),
        Some(v) => (v as i128).min(upper),
    };
    let start = bound(start, if step < 0 { upper } else { lower });
    let stop = bound(stop, if step < 0 { lower } else { upper });
    let mut positions = vec![];
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        positions.push(i as usize);
        i += step;
    }
    Ok(positions)
}

/// The positions of ndarray's `s![start..end;step]`: the range first (bounds
/// outside `[0, len]` after counting negatives from the end are errors; an
/// end before the start is empty), then every `step`-th element of it, from
/// the back when `step` is negative.
fn nd_range(start: isize, end: Option<isize>, step: isize, len: usize) -> Result<Vec<usize>, ErrKind> {
    if step == 0 {
        return Err(ErrKind::ZeroStep);
    }
    let n = len as i128;
    let absolute = |v: i128| if v < 0 { v + n } else { v };
    let start = absolute(start as i128);
    let end = absolute(end.map_or(n, |e| e as i128));
    if !(0..=n).contains(&start) || !(0..=n).contains(&end) {
        return Err(ErrKind::RangeOutOfBounds);
    }
    let range: Vec<usize> = (start..end.max(start)).map(|i| i as usize).collect();
    let stride = step.unsigned_abs();
    Ok(if step > 0 {
        range.into_iter().step_by(stride).collect()
    } else {
        range.into_iter().rev().step_by(stride).collect()
    })
}

/// One result dimension: a target axis walked through `positions`, a new
/// axis, or dimension `k` of the broadcast advanced indices.
enum Dim {
    Axis(usize, Vec<usize>),
    New,
    Advanced(usize),
    /// Where the advanced dims go if they stay in place.
    AdvancedSlot,
}

/// An advanced index broadcast as one: its shape, and the target axes it
/// indexes with the index value for each of its positions (C order).
struct Advanced {
    shape: Vec<usize>,
    columns: Vec<(usize, Vec<i128>)>,
}

/// One advanced index resolved: the target axis, the shape it broadcasts
/// from, and the position for each of its elements (`None`: skipped).
struct Column<'a> {
    axis: usize,
    shape: &'a [usize],
    positions: Vec<Option<usize>>,
}

/// Interprets `index` on a target of shape `shape`.
pub fn select(shape: &[usize], index: &[IndexElem<'_>], oob: Oob) -> Result<Selection, ErrKind> {
    let mut elems: Vec<Elem> = index.iter().map(convert).flat_map(split_nd).collect();
    if let Some(position) = elems.iter().position(|e| matches!(e, Elem::Along(..))) {
        if elems.len() > 1 {
            return Err(ErrKind::AlongNotAlone);
        }
        let Elem::Along(idx, axis) = elems.swap_remove(position) else {
            unreachable!()
        };
        return select_along(shape, &idx, axis, oob);
    }

    // Syntax first: one ellipsis at most (the macro rejects two at compile
    // time); then `nd` needs a last axis.
    let ellipses = elems.iter().filter(|e| matches!(e, Elem::Ellipsis)).count();
    if ellipses > 1 {
        return Err(ErrKind::MultipleEllipsis);
    }
    if elems.iter().any(|e| matches!(e, Elem::Nd(a) if a.shape.is_empty())) {
        return Err(ErrKind::NdRank);
    }
    let consumed: usize = elems.iter().map(Elem::axes).sum();
    if consumed > shape.len() {
        return Err(ErrKind::TooManyIndices);
    }
    if ellipses == 0 {
        elems.push(Elem::Ellipsis); // trailing axes are whole, as if `...` closed the index
    }

    // The first target axis of every element.
    let mut first_axes = vec![];
    let mut axis = 0;
    for elem in &elems {
        first_axes.push(axis);
        axis += match elem {
            Elem::Ellipsis => shape.len() - consumed,
            other => other.axes(),
        };
    }

    for (elem, &axis) in elems.iter().zip(&first_axes) {
        if let Elem::Mask(m) = elem
            && m.shape.as_slice() != &shape[axis..axis + m.shape.len()]
        {
            return Err(ErrKind::MaskShape);
        }
    }

    // Basic elements (and the integers) in index order; advanced ones collected.
    let any_array = elems.iter().any(Elem::is_array);
    let mut fixed: Vec<(usize, Option<usize>)> = vec![];
    let mut dims: Vec<Dim> = vec![];
    let mut advanced: Vec<(usize, Advanced)> = vec![];
    for (position, (elem, &axis)) in elems.iter().zip(&first_axes).enumerate() {
        let adv = match elem {
            Elem::Int(i) => {
                let resolved = resolve(*i, shape[axis], oob)?;
                if !any_array {
                    fixed.push((axis, resolved));
                    continue;
                }
                Advanced {
                    shape: vec![],
                    columns: vec![(axis, vec![*i])],
                }
            }
            Elem::Slice(start, stop, step) => {
                dims.push(Dim::Axis(axis, py_slice(*start, *stop, *step, shape[axis])?));
                continue;
            }
            Elem::Range(start, end, step) => {
                dims.push(Dim::Axis(axis, nd_range(*start, *end, *step, shape[axis])?));
                continue;
            }
            Elem::Ellipsis => {
                for (a, &len) in shape.iter().enumerate().skip(axis).take(shape.len() - consumed) {
                    dims.push(Dim::Axis(a, (0..len).collect()));
                }
                continue;
            }
            Elem::NewAxis => {
                dims.push(Dim::New);
                continue;
            }
            Elem::Ints(a) => Advanced {
                shape: a.shape.clone(),
                columns: vec![(axis, a.data.clone())],
            },
            Elem::Mask(m) => {
                let true_at: Vec<Vec<usize>> = multi_indices(&m.shape).into_iter().filter(|p| m.data[flat(&m.shape, p)]).collect();
                Advanced {
                    shape: vec![true_at.len()],
                    columns: (0..m.shape.len())
                        .map(|k| (axis + k, true_at.iter().map(|p| p[k] as i128).collect()))
                        .collect(),
                }
            }
            // Only `nd` of depth 0 is left: its batch shape, indexing no axis.
            Elem::Nd(a) => Advanced {
                shape: a.shape[..a.shape.len() - 1].to_vec(),
                columns: vec![],
            },
            Elem::Along(..) => unreachable!("along(...) is selected alone"),
        };
        if advanced.is_empty() {
            dims.push(Dim::AdvancedSlot);
        }
        advanced.push((position, adv));
    }

    let broadcast = broadcast_shapes(&advanced.iter().map(|(_, a)| a.shape.clone()).collect::<Vec<_>>()).ok_or(ErrKind::IndexBroadcast)?;
    // Every index value is used iff the broadcast is not empty.
    let mut columns: Vec<Column<'_>> = vec![];
    if broadcast.iter().product::<usize>() > 0 {
        for (_, adv) in &advanced {
            for (axis, values) in &adv.columns {
                columns.push(Column {
                    axis: *axis,
                    shape: &adv.shape,
                    positions: values.iter().map(|&v| resolve(v, shape[*axis], oob)).collect::<Result<_, _>>()?,
                });
            }
        }
    }

    // Adjacent advanced indices stay in place; otherwise they go first.
    let adjacent = match (advanced.first(), advanced.last()) {
        (Some((first, _)), Some((last, _))) => last - first + 1 == advanced.len(),
        _ => true,
    };
    let advanced_dims = (0..broadcast.len()).map(Dim::Advanced);
    let dims: Vec<Dim> = if adjacent {
        dims.into_iter()
            .flat_map(|d| match d {
                Dim::AdvancedSlot => advanced_dims.clone().collect(),
                other => vec![other],
            })
            .collect()
    } else {
        advanced_dims
            .chain(dims.into_iter().filter(|d| !matches!(d, Dim::AdvancedSlot)))
            .collect()
    };

    let result_shape: Vec<usize> = dims
        .iter()
        .map(|d| match d {
            Dim::Axis(_, positions) => positions.len(),
            Dim::New => 1,
            Dim::Advanced(k) => broadcast[*k],
            Dim::AdvancedSlot => unreachable!("replaced above"),
        })
        .collect();

    let targets = multi_indices(&result_shape)
        .into_iter()
        .map(|r| {
            let mut coords: Vec<Option<usize>> = vec![None; shape.len()];
            let mut skipped = false;
            for &(axis, position) in &fixed {
                coords[axis] = position;
                skipped |= position.is_none();
            }
            let mut b = vec![];
            for (d, dim) in dims.iter().enumerate() {
                match dim {
                    Dim::Axis(axis, positions) => coords[*axis] = Some(positions[r[d]]),
                    Dim::Advanced(_) => b.push(r[d]),
                    Dim::New | Dim::AdvancedSlot => {}
                }
            }
            for column in &columns {
                let position = column.positions[broadcast_flat(column.shape, &b)];
                coords[column.axis] = position;
                skipped |= position.is_none();
            }
            match skipped {
                true => None,
                false => Some(coords.into_iter().map(|c| c.expect("every axis is indexed")).collect()),
            }
        })
        .collect();
    Ok(Selection {
        shape: result_shape,
        targets,
    })
}

/// `value` broadcast to `shape` (leading length-1 axes of the value dropped
/// first), in C order. `count_error`: a value that is one-dimensional once
/// its leading length-1 axes are dropped reports a wrong length as
/// `ValueCount` (NumPy's `x[mask] = v` with one mask over every axis).
fn broadcast_value<T: Clone>(value: &Value<T>, shape: &[usize], count_error: bool) -> Result<Vec<T>, ErrKind> {
    let array = match value {
        Value::Scalar(v) => return Ok(vec![v.clone(); shape.iter().product()]),
        Value::Array(array) => array,
    };
    let ones = array.shape.iter().take_while(|&&len| len == 1).count();
    let source = &array.shape[ones..];
    let fits = source.len() <= shape.len() && source.iter().rev().zip(shape.iter().rev()).all(|(&v, &s)| v == 1 || v == s);
    if !fits {
        return Err(match count_error && source.len() == 1 {
            true => ErrKind::ValueCount,
            false => ErrKind::ShapeMismatch,
        });
    }
    Ok(multi_indices(shape)
        .iter()
        .map(|p| array.data[broadcast_flat(source, p)].clone())
        .collect())
}

/// Reads `x[index]`; skipped positions (mode `fill`) read the fill value.
pub fn read<T: Clone>(x: &Tensor<T>, index: &[IndexElem<'_>], mode: &AnyMode<T>) -> Result<Tensor<T>, ErrKind> {
    let (oob, fill) = match mode {
        AnyMode::Error => (Oob::Error, None),
        AnyMode::Clip => (Oob::Clip, None),
        AnyMode::Wrap => (Oob::Wrap, None),
        AnyMode::Drop => return Err(ErrKind::UnsupportedMode),
        AnyMode::Fill(v) => (Oob::Skip, Some(v)),
        _ => unimplemented!("the reference interpreter has no rule for a mode added since"),
    };
    let selection = select(&x.shape, index, oob)?;
    let data = selection
        .targets
        .iter()
        .map(|target| match target {
            Some(p) => x.data[flat(&x.shape, p)].clone(),
            None => fill.expect("only mode fill skips reads").clone(),
        })
        .collect();
    Ok(Tensor {
        shape: selection.shape,
        data,
    })
}

/// How a write resolves out-of-bounds indices; `fill` is for reads only.
fn write_oob<T>(mode: &AnyMode<T>) -> Result<Oob, ErrKind> {
    match mode {
        AnyMode::Error => Ok(Oob::Error),
        AnyMode::Clip => Ok(Oob::Clip),
        AnyMode::Wrap => Ok(Oob::Wrap),
        AnyMode::Drop => Ok(Oob::Skip),
        AnyMode::Fill(_) => Err(ErrKind::UnsupportedMode),
        _ => unimplemented!("the reference interpreter has no rule for a mode added since"),
    }
}

/// The C-order positions a write touches, in order, each with its value.
/// `is_set`: the write is `set`, where a single mask over every axis
/// reports a wrong value length as `ValueCount`.
fn write_plan<V: Clone>(
    shape: &[usize],
    index: &[IndexElem<'_>],
    value: &Value<V>,
    oob: Oob,
    is_set: bool,
) -> Result<Vec<(usize, V)>, ErrKind> {
    let selection = select(shape, index, oob)?;
    let whole_mask = matches!(index, [IndexElem::Mask(m)] if m.ndim() == shape.len());
    let values = broadcast_value(value, &selection.shape, is_set && whole_mask)?;
    Ok(selection
        .targets
        .iter()
        .zip(values)
        .filter_map(|(target, v)| target.as_ref().map(|p| (flat(shape, p), v)))
        .collect())
}

/// `x[index] = value`, one position at a time: the last duplicate wins.
pub fn set<T: Clone>(x: &mut Tensor<T>, index: &[IndexElem<'_>], value: &Value<T>, mode: &AnyMode<T>) -> Result<(), ErrKind> {
    for (p, v) in write_plan(&x.shape, index, value, write_oob(mode)?, true)? {
        x.data[p] = v;
    }
    Ok(())
}

/// `x[index] op= value`, one occurrence at a time, every operand checked first.
pub fn update<T: Arith>(x: &mut Tensor<T>, index: &[IndexElem<'_>], op: Op, value: &Value<T>, mode: &AnyMode<T>) -> Result<(), ErrKind> {
    let plan = write_plan(&x.shape, index, value, write_oob(mode)?, false)?;
    for (_, v) in &plan {
        T::check(op, *v)?;
    }
    for (p, v) in plan {
        x.data[p] = T::combine(op, x.data[p], v);
    }
    Ok(())
}

/// `x[index] = f(x[index])`, one occurrence at a time.
pub fn apply<T: Clone>(x: &mut Tensor<T>, index: &[IndexElem<'_>], mut f: impl FnMut(T) -> T, mode: &AnyMode<T>) -> Result<(), ErrKind> {
    // No value: a unit scalar stands in for it.
    for (p, ()) in write_plan(&x.shape, index, &Value::Scalar(()), write_oob(mode)?, false)? {
        x.data[p] = f(x.data[p].clone());
    }
    Ok(())
}

/// The arithmetic of the updates, per element type (see `tensor_at::element::Arith`'s
/// docs): integers wrap, integer division truncates and rejects zero,
/// negative integer powers are errors; float min/max are NumPy's.
pub trait Arith: Copy {
    fn combine(op: Op, x: Self, v: Self) -> Self;
    fn check(op: Op, v: Self) -> Result<(), ErrKind>;
}

impl Arith for i64 {
    fn combine(op: Op, x: i64, v: i64) -> i64 {
        match op {
            Op::Add => x.wrapping_add(v),
            Op::Sub => x.wrapping_sub(v),
            Op::Mul => x.wrapping_mul(v),
            Op::Div => x.wrapping_div(v),
            Op::Pow => x.wrapping_pow(u32::try_from(v).expect("the tests use small exponents")),
            Op::Min => x.min(v),
            Op::Max => x.max(v),
            _ => unimplemented!("the reference interpreter has no rule for an operation added since"),
        }
    }

    fn check(op: Op, v: i64) -> Result<(), ErrKind> {
        match op {
            Op::Div if v == 0 => Err(ErrKind::DivisionByZero),
            Op::Pow if v < 0 => Err(ErrKind::NegativeIntegerPower),
            _ => Ok(()),
        }
    }
}

impl Arith for f64 {
    fn combine(op: Op, x: f64, v: f64) -> f64 {
        match op {
            Op::Add => x + v,
            Op::Sub => x - v,
            Op::Mul => x * v,
            Op::Div => x / v,
            Op::Pow => x.powf(v),
            // NumPy's `minimum`/`maximum`: NaN propagates; of two equal
            // values (`0.0`, `-0.0`) the second wins.
            Op::Min | Op::Max if x.is_nan() || v.is_nan() => f64::NAN,
            Op::Min => {
                if x < v {
                    x
                } else {
                    v
                }
            }
            Op::Max => {
                if x > v {
                    x
                } else {
                    v
                }
            }
            _ => unimplemented!("the reference interpreter has no rule for an operation added since"),
        }
    }

    fn check(_: Op, _: f64) -> Result<(), ErrKind> {
        Ok(())
    }
}

/// `along(idx, axis)`, as NumPy's `take_along_axis` defines it: the loop
/// over the grid of `idx` broadcast against the target outside `axis`,
/// where position `m` selects the target element at `m` with its `axis`
/// coordinate replaced by `idx[m]` (a target axis of length 1 is read at 0).
fn select_along(shape: &[usize], idx: &Tensor<i128>, axis: isize, oob: Oob) -> Result<Selection, ErrKind> {
    let ndim = shape.len();
    let n = ndim as isize;
    // NumPy's `take_along_axis` checks the axis before the rank.
    if axis < -n || axis >= n {
        return Err(ErrKind::AxisOutOfRange);
    }
    if idx.shape.len() != ndim {
        return Err(ErrKind::AlongRank);
    }
    let axis = if axis < 0 { axis + n } else { axis } as usize;
    let mut region = vec![];
    for (d, (&i, &t)) in idx.shape.iter().zip(shape).enumerate() {
        region.push(match () {
            _ if d == axis => i,
            _ if i == t || t == 1 => i,
            _ if i == 1 => t,
            _ => return Err(ErrKind::AlongShape),
        });
    }
    let mut targets = vec![];
    for m in multi_indices(&region) {
        let i = idx.data[broadcast_flat(&idx.shape, &m)];
        targets.push(resolve(i, shape[axis], oob)?.map(|position| {
            (0..ndim)
                .map(|d| match d == axis {
                    true => position,
                    false if shape[d] == 1 => 0,
                    false => m[d],
                })
                .collect()
        }));
    }
    Ok(Selection { shape: region, targets })
}
