//! burn tensors inside an index: integer tensors as index arrays (`x[idx]`,
//! `nd(idx)`, `along(idx, k)`), boolean tensors as masks, and comparisons
//! of a burn tensor (`x[a > 0.0]`) as masks built on the device. They stay
//! on their device ([`super::device`]).

use burn_tensor::{Bool, Int, Tensor};
use ndarray::{Ix0, Ix1};

use super::kind::BurnKind;
use super::reshape::Reshaped;
use super::target::Ranked;
use super::value::{device_array, flat_array};
use crate::backend::{DeviceForm, IntIndex, IntoIntIndex, MaskOperand};
use crate::element::Compare;
use crate::index::{IndexElem, IntoIndexElem};
use crate::rank::{Advanced, BatchedIndices, BatchedMask};

macro_rules! index_array {
    ($($doc:literal $tensor:ty: |$this:ident| $flat:expr;)*) => {$(
        #[doc = $doc]
        #[diagnostic::do_not_recommend]
        impl<'a, const N: usize> IntoIndexElem<'a> for $tensor
        where
            Tensor<N, Int>: Ranked,
        {
            type Consumed = Ix1;
            type Produced = Ix0;
            type Broadcast = <Tensor<N, Int> as Ranked>::Dim;
            type Kind = Advanced;
            type Role = BatchedIndices;
            type Kept = IndexElem<'a>;
            fn keep(self) -> IndexElem<'a> {
                let $this = self;
                IndexElem::Device {
                    array: $flat,
                    form: DeviceForm::Array,
                }
            }
        }
    )*};
}
index_array! {
    "An index array on the device: indexes one axis, as an integer array does."
    Tensor<N, Int>: |tensor| device_array(tensor);
    "A borrowed index array on the device: the tensor is not consumed."
    &Tensor<N, Int>: |tensor| device_array(tensor.clone());
}

macro_rules! int_index {
    ($($tensor:ty),*) => {$(
        /// `nd(idx)` and `along(idx, k)` with an index array on the device.
        #[diagnostic::do_not_recommend]
        impl<'a, const N: usize> IntoIntIndex<'a> for $tensor
        where
            Tensor<N, Int>: Ranked,
        {
            type Dim = <Tensor<N, Int> as Ranked>::Dim;
            fn into_int_index(self) -> IntIndex<'a> {
                IntIndex::Device(device_array(self.clone()))
            }
        }
    )*};
}
int_index!(Tensor<N, Int>, &Tensor<N, Int>);

/// An index array on the device whose elements the caller promises are
/// distinct: [`unique`].
#[derive(Clone, Debug)]
pub struct Unique<I>(I);

/// `idx`, promised to hold no element twice, as JAX's
/// `unique_indices=True` promises: `at!(x[unique(&idx)] = v)`.
///
/// `=` with repeated indices keeps each position's last occurrence, which
/// costs a pass over a buffer of one number per row of the target, and
/// `*=`, `/=`, `pow`, `min` and `max` count their rounds. With the promise,
/// where the index is this array alone (the rows it picks, whole), both
/// are burn's own `select_assign` over the positions as they are, with
/// burn's own gradients, which are right for distinct positions.
///
/// The promise is not checked. Broken, each repeated position keeps one of
/// its occurrences' results, whichever the device writes last, and the
/// gradients are burn's; nothing else is written, and nothing fails.
/// Anywhere else in an index, the promise is not used.
pub fn unique<I>(indices: I) -> Unique<I> {
    Unique(indices)
}

index_array! {
    "An index array on the device, promised distinct."
    Unique<Tensor<N, Int>>: |unique| flat_array(unique.0, true);
    "A borrowed index array on the device, promised distinct."
    Unique<&Tensor<N, Int>>: |unique| flat_array(unique.0.clone(), true);
    "A borrowed index array on the device, promised distinct."
    &Unique<Tensor<N, Int>>: |unique| flat_array(unique.0.clone(), true);
    "A borrowed index array on the device, promised distinct."
    &Unique<&Tensor<N, Int>>: |unique| flat_array(unique.0.clone(), true);
}

macro_rules! device_mask {
    ($($tensor:ty),*) => {$(
        /// A mask on the device: consumes as many axes as it has.
        #[diagnostic::do_not_recommend]
        impl<'a, const N: usize> IntoIndexElem<'a> for $tensor
        where
            Tensor<N, Bool>: Ranked,
        {
            type Consumed = <Tensor<N, Bool> as Ranked>::Dim;
            type Produced = Ix0;
            type Broadcast = Ix1;
            type Kind = Advanced;
            type Role = BatchedMask;
            type Kept = IndexElem<'a>;
            fn keep(self) -> IndexElem<'a> {
                IndexElem::Device {
                    array: device_array(self.clone()),
                    form: DeviceForm::Mask,
                }
            }
        }
    )*};
}
device_mask!(Tensor<N, Bool>, &Tensor<N, Bool>);

/// `x[a > s]` with `a` a burn tensor: the comparison runs on the device.
#[diagnostic::do_not_recommend]
impl<const D: usize, K: BurnKind> MaskOperand for Tensor<D, K>
where
    Tensor<D, K>: Ranked,
{
    type Elem = K::Elem;
    type Mask = Tensor<D, Bool>;
    fn mask(&self, compare: Compare, scalar: &K::Elem, _: impl FnMut(&K::Elem) -> bool) -> Tensor<D, Bool> {
        let dims = self.dims();
        // (An empty tensor's other lengths may multiply past a usize.)
        let len = if dims.contains(&0) { 0 } else { dims.iter().product::<usize>() };
        let flat = self.clone().shaped([len]);
        K::compare(flat, compare, *scalar).shaped(dims)
    }
}
