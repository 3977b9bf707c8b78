//! `; batch = k` by its definition: the loop over the batch positions `b`,
//! each running the unbatched interpreter on a copy of `x[b]` with
//! `INDEX[b]` and `v[b]`. The copies are written back only when every
//! batch succeeded, so an error in any batch leaves `x` unchanged; a
//! batched read stacks the batches' reads.

use ndarray::{ArrayD, ArrayViewD, Axis, CowArray, IxDyn};
use tensor_at::Op;
use tensor_at::backend::AnyMode;
use tensor_at::index::{IndexElem, IntArray};

use super::{Arith, ErrKind, Oob, Tensor, Value, multi_indices};

/// The shape of an element with batch axes, or `None`.
fn batched_shape(elem: &IndexElem<'_>) -> Option<Vec<usize>> {
    match elem {
        IndexElem::Array(a) | IndexElem::Nd(a) | IndexElem::Along { index: a, .. } => Some(a.shape().to_vec()),
        IndexElem::Mask(m) => Some(m.shape().to_vec()),
        _ => None,
    }
}

/// The batch shape: the target's leading `batch` axes, after checking that
/// every array, mask and array value pairs with them.
fn batch_shape<T>(
    shape: &[usize],
    index: &[IndexElem<'_>],
    batch: usize,
    value: Option<&Value<T>>,
    read: bool,
) -> Result<Vec<usize>, ErrKind> {
    if batch > shape.len() {
        return Err(ErrKind::BatchRank);
    }
    let batch_shape = shape[..batch].to_vec();
    let pairs = |own: &[usize]| -> Result<(), ErrKind> {
        if own.len() < batch {
            return Err(ErrKind::BatchRank);
        }
        match (0..batch).all(|a| own[a] == batch_shape[a] || own[a] == 1) {
            true => Ok(()),
            false => Err(ErrKind::BatchShape),
        }
    };
    for elem in index {
        if let Some(own) = batched_shape(elem) {
            pairs(&own)?;
        }
    }
    if let Some(Value::Array(array)) = value {
        pairs(&array.shape)?;
    }
    if read && index.iter().any(|elem| matches!(elem, IndexElem::Mask(_))) {
        return Err(ErrKind::BatchedMaskRead);
    }
    Ok(batch_shape)
}

/// `array` at batch position `at` (at 0 along a batch axis of length 1).
fn at_position<'a, A>(mut view: ArrayViewD<'a, A>, at: &[usize]) -> ArrayViewD<'a, A> {
    for &p in at {
        let p = if view.len_of(Axis(0)) == 1 { 0 } else { p };
        view = view.index_axis_move(Axis(0), p);
    }
    view
}

/// The integer array `a` at batch position `at`, of its own type.
fn ints_at<'a>(a: &'a IntArray<'_>, at: &[usize]) -> IntArray<'a> {
    fn cow<'a, A>(view: ArrayViewD<'a, A>) -> CowArray<'a, A, IxDyn> {
        CowArray::from(view)
    }
    match a {
        IntArray::Usize(a) => IntArray::Usize(cow(at_position(a.view(), at))),
        IntArray::Isize(a) => IntArray::Isize(cow(at_position(a.view(), at))),
        IntArray::I32(a) => IntArray::I32(cow(at_position(a.view(), at))),
        IntArray::I64(a) => IntArray::I64(cow(at_position(a.view(), at))),
        IntArray::U32(a) => IntArray::U32(cow(at_position(a.view(), at))),
        IntArray::U64(a) => IntArray::U64(cow(at_position(a.view(), at))),
        _ => unimplemented!("the reference interpreter has no rule for an index array type added since"),
    }
}

/// `index` at batch position `at`.
fn index_at<'a>(index: &'a [IndexElem<'a>], at: &[usize]) -> Vec<IndexElem<'a>> {
    index
        .iter()
        .map(|elem| match elem {
            IndexElem::Array(a) => IndexElem::Array(ints_at(a, at)),
            IndexElem::Nd(a) => IndexElem::Nd(ints_at(a, at)),
            IndexElem::Along { index, axis } => IndexElem::Along {
                index: ints_at(index, at),
                axis: *axis,
            },
            IndexElem::Mask(m) => IndexElem::Mask(CowArray::from(at_position(m.view(), at))),
            other => other.clone(),
        })
        .collect()
}

/// `x[at]` as its own tensor (a copy).
fn tensor_at<T: Clone>(x: &Tensor<T>, at: &[usize]) -> Tensor<T> {
    let array = ArrayD::from_shape_vec(x.shape.clone(), x.data.clone()).expect("one element per position");
    let view = at_position(array.view(), at);
    Tensor {
        shape: view.shape().to_vec(),
        data: view.iter().cloned().collect(),
    }
}

/// `value` at batch position `at`.
fn value_at<T: Clone>(value: &Value<T>, at: &[usize]) -> Value<T> {
    match value {
        Value::Scalar(v) => Value::Scalar(v.clone()),
        Value::Array(array) => Value::Array(tensor_at(array, at)),
    }
}

/// Writes `part` over `x[at]`.
fn write_back<T: Clone>(x: &mut Tensor<T>, at: &[usize], part: Tensor<T>) {
    let stride: usize = x.shape[at.len()..].iter().product();
    let block = multi_indices(&x.shape[..at.len()])
        .iter()
        .position(|b| b == at)
        .expect("a batch position");
    x.data[block * stride..(block + 1) * stride].clone_from_slice(&part.data);
}

/// Reads `x[index]` batched over the leading `batch` axes: the reads
/// stacked.
pub fn read<'a, T: Clone>(x: &Tensor<T>, index: &'a [IndexElem<'a>], batch: usize, mode: &AnyMode<T>) -> Result<Tensor<T>, ErrKind> {
    if let AnyMode::Drop = mode {
        return Err(ErrKind::UnsupportedMode);
    }
    let batch_shape = batch_shape::<T>(&x.shape, index, batch, None, true)?;
    let mut data = vec![];
    let mut read_shape = None;
    for at in multi_indices(&batch_shape) {
        let read = super::read(&tensor_at(x, &at), &index_at(index, &at), mode)?;
        read_shape = Some(read.shape);
        data.extend(read.data);
    }
    let read_shape = match read_shape {
        Some(shape) => shape,
        // No batch: the shape any batch would read, from zero indices.
        None => {
            let zeros: Vec<IndexElem<'a>> = index
                .iter()
                .map(|elem| {
                    let zeros = |a: &IntArray<'_>| IntArray::I64(CowArray::from(ArrayD::zeros(&a.shape()[batch..])));
                    match elem {
                        IndexElem::Array(a) => IndexElem::Array(zeros(a)),
                        IndexElem::Nd(a) => IndexElem::Nd(zeros(a)),
                        IndexElem::Along { index, axis } => IndexElem::Along {
                            index: zeros(index),
                            axis: *axis,
                        },
                        other => other.clone(),
                    }
                })
                .collect();
            super::select(&x.shape[batch..], &zeros, Oob::Skip)?.shape
        }
    };
    let mut shape = batch_shape;
    shape.extend(read_shape);
    Ok(Tensor { shape, data })
}

/// Runs `write` on a copy of every batch of `x` in order, and writes the
/// copies back when all succeeded.
fn each_batch<T: Clone>(
    x: &mut Tensor<T>,
    batch_shape: &[usize],
    mut write: impl FnMut(&mut Tensor<T>, &[usize]) -> Result<(), ErrKind>,
) -> Result<(), ErrKind> {
    let mut parts = vec![];
    for at in multi_indices(batch_shape) {
        let mut part = tensor_at(x, &at);
        write(&mut part, &at)?;
        parts.push((at, part));
    }
    for (at, part) in parts {
        write_back(x, &at, part);
    }
    Ok(())
}

/// The mode check of a write, before the batch's structure.
fn write_mode<T>(mode: &AnyMode<T>) -> Result<(), ErrKind> {
    match mode {
        AnyMode::Fill(_) => Err(ErrKind::UnsupportedMode),
        _ => Ok(()),
    }
}

/// `x[index] = value` batched over the leading `batch` axes.
pub fn set<'a, T: Clone>(
    x: &mut Tensor<T>,
    index: &'a [IndexElem<'a>],
    batch: usize,
    value: &Value<T>,
    mode: &AnyMode<T>,
) -> Result<(), ErrKind> {
    write_mode(mode)?;
    let batch_shape = batch_shape(&x.shape, index, batch, Some(value), false)?;
    each_batch(x, &batch_shape, |part, at| {
        super::set(part, &index_at(index, at), &value_at(value, at), mode)
    })
}

/// `x[index] op= value` batched over the leading `batch` axes.
pub fn update<'a, T: Arith>(
    x: &mut Tensor<T>,
    index: &'a [IndexElem<'a>],
    batch: usize,
    op: Op,
    value: &Value<T>,
    mode: &AnyMode<T>,
) -> Result<(), ErrKind> {
    write_mode(mode)?;
    let batch_shape = batch_shape(&x.shape, index, batch, Some(value), false)?;
    each_batch(x, &batch_shape, |part, at| {
        super::update(part, &index_at(index, at), op, &value_at(value, at), mode)
    })
}

/// `x[index] = f(x[index])` batched over the leading `batch` axes.
pub fn apply<'a, T: Clone>(
    x: &mut Tensor<T>,
    index: &'a [IndexElem<'a>],
    batch: usize,
    mut f: impl FnMut(T) -> T,
    mode: &AnyMode<T>,
) -> Result<(), ErrKind> {
    write_mode(mode)?;
    let batch_shape = batch_shape::<T>(&x.shape, index, batch, None, false)?;
    each_batch(x, &batch_shape, |part, at| super::apply(part, &index_at(index, at), &mut f, mode))
}
