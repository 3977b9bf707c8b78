//! burn tensors as targets of the macros: the backend traits, each call
//! run by [`super::call`].

use burn_tensor::Tensor;
use ndarray::{Dimension, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6};

use super::call::{self, mask_of};
use super::error::BurnError;
use super::kind::BurnKind;
use super::rank::Reads;
use super::reshape::Reshaped;
use crate::backend::{AnyMode, Indexable, IndexableMut, IntoUpdatable, Predicate};
use crate::element::Arith;
use crate::element::Op;
use crate::index::IndexElem;
use crate::plan::checked_size;
use crate::rank::{Kind, Rank};
use crate::value::Value;

/// The burn tensors the macros index: ranks 1 to 6, as ndarray's
/// dimension types name them.
pub trait Ranked {
    /// The rank as ndarray's dimension type.
    type Dim: Dimension;
}

macro_rules! ranked {
    ($($n:literal => $dim:ty),*) => {$(
        impl<K: BurnKind> Ranked for Tensor<$n, K> {
            type Dim = $dim;
        }
    )*};
}
ranked!(1 => Ix1, 2 => Ix2, 3 => Ix3, 4 => Ix4, 5 => Ix5, 6 => Ix6);

/// The tensor's shape and number of elements, or
/// [`IndexError::TooLarge`](crate::IndexError::TooLarge) for a shape no
/// array can address: burn holds an empty tensor of any shape (`[2, 2^62,
/// 0]`), whose strides and row lengths would overflow.
fn addressable<const D: usize, K: BurnKind>(tensor: &Tensor<D, K>) -> Result<([usize; D], usize), BurnError> {
    let dims = tensor.dims();
    let len = checked_size(&dims)?;
    Ok((dims, len))
}

/// The tensor viewed as one axis, and its shape.
fn flat<const D: usize, K: BurnKind>(tensor: Tensor<D, K>) -> Result<(Tensor<1, K>, [usize; D]), BurnError> {
    let (dims, len) = addressable(&tensor)?;
    Ok((tensor.shaped([len]), dims))
}

/// Runs a prepared write on `target`, which it replaces. The tensor is
/// moved out (an empty one of the same rank stands in), so that burn may
/// update its buffer in place.
fn replace<const D: usize, K: BurnKind>(target: &mut Tensor<D, K>, write: impl FnOnce(Tensor<D, K>) -> Tensor<D, K>) {
    let stand_in = Tensor::empty([0; D], (&target.device(), target.dtype()));
    *target = write(std::mem::replace(target, stand_in));
}

/// `target[index] = value` or `target[index] op= value`.
fn write_index<const D: usize, K: BurnKind>(
    target: &mut Tensor<D, K>,
    index: &[IndexElem<'_>],
    batch: usize,
    value: Value<'_, K::Elem>,
    mode: AnyMode<K::Elem>,
    op: Option<Op>,
) -> Result<(), BurnError> {
    let (view, dims) = flat(target.clone())?;
    let prepared = call::prepare_write(&view, &dims, index, batch, value, mode, op)?;
    drop(view);
    replace(target, |flat| prepared.run(flat));
    Ok(())
}

/// `target[predicate] = value` or `target[predicate] op= value`.
fn write_where<const D: usize, K: BurnKind, F>(
    target: &mut Tensor<D, K>,
    predicate: Predicate<'_, K::Elem, F>,
    value: Value<'_, K::Elem>,
    op: Option<Op>,
) -> Result<(), BurnError> {
    let (view, _) = flat(target.clone())?;
    let mask = mask_of(&view, &predicate)?;
    let written = call::write_where(view, mask, value, op)?;
    *target = written.shaped(target.dims());
    Ok(())
}

#[diagnostic::do_not_recommend]
impl<const D: usize, K: BurnKind> Indexable for Tensor<D, K>
where
    Tensor<D, K>: Ranked,
{
    type Elem = K::Elem;
    type Dim = <Self as Ranked>::Dim;
    type Error = BurnError;
    type Read<'t, Kd: Kind, R: Rank>
        = R::Pick<Reads<K>>
    where
        Self: 't;

    fn read_index<Kd: Kind, R: Rank>(
        &self,
        index: &[IndexElem<'_>],
        batch: usize,
        mode: AnyMode<K::Elem>,
    ) -> Result<R::Pick<Reads<K>>, BurnError> {
        let (dims, _) = addressable(self)?;
        Ok(R::pick::<Reads<K>>(call::read(self, &dims, index, batch, mode)?))
    }

    fn read_where<R: Rank, F: FnMut(&K::Elem) -> bool>(
        &self,
        predicate: Predicate<'_, K::Elem, F>,
    ) -> Result<R::Pick<Reads<K>>, BurnError> {
        let (flat, _) = flat(self.clone())?;
        let mask = mask_of(&flat, &predicate)?;
        Ok(R::pick::<Reads<K>>(call::read_where(flat, mask)?))
    }
}

#[diagnostic::do_not_recommend]
impl<const D: usize, K: BurnKind> IndexableMut for Tensor<D, K>
where
    Tensor<D, K>: Ranked,
{
    fn set_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: Value<'_, K::Elem>,
        mode: AnyMode<K::Elem>,
    ) -> Result<(), BurnError> {
        write_index(self, index, batch, value, mode, None)
    }

    fn update_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: Value<'_, K::Elem>,
        mode: AnyMode<K::Elem>,
    ) -> Result<(), BurnError>
    where
        K::Elem: Arith,
    {
        write_index(self, index, batch, value, mode, Some(op))
    }

    fn apply_index<F: FnMut(K::Elem) -> K::Elem>(
        &mut self,
        _: &[IndexElem<'_>],
        _: usize,
        _: F,
        _: AnyMode<K::Elem>,
    ) -> Result<(), BurnError> {
        Err(BurnError::Unsupported {
            operation: "apply",
            reason: "a host closure cannot run on a burn tensor: write the function with burn's operations on a read, then assign it"
                .into(),
        })
    }

    fn set_where<F: FnMut(&K::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, K::Elem, F>,
        value: Value<'_, K::Elem>,
    ) -> Result<(), BurnError> {
        write_where(self, predicate, value, None)
    }

    fn update_where<F: FnMut(&K::Elem) -> bool>(
        &mut self,
        predicate: Predicate<'_, K::Elem, F>,
        op: Op,
        value: Value<'_, K::Elem>,
    ) -> Result<(), BurnError>
    where
        K::Elem: Arith,
    {
        write_where(self, predicate, value, Some(op))
    }
}

/// `set!({t}[...] = v)`: the tensor itself, updated.
#[diagnostic::do_not_recommend]
impl<const D: usize, K: BurnKind> IntoUpdatable for Tensor<D, K>
where
    Tensor<D, K>: Ranked,
{
    type Updatable = Tensor<D, K>;
    fn into_updatable(self) -> Result<Tensor<D, K>, BurnError> {
        Ok(self)
    }
}

/// `set!(t[...] = v)`: a new tensor; `t` is unchanged (burn's tensors are
/// values: the clone shares the buffer until one of them is written).
#[diagnostic::do_not_recommend]
impl<const D: usize, K: BurnKind> IntoUpdatable for &Tensor<D, K>
where
    Tensor<D, K>: Ranked,
{
    type Updatable = Tensor<D, K>;
    fn into_updatable(self) -> Result<Tensor<D, K>, BurnError> {
        Ok(self.clone())
    }
}
