//! What a read of a burn tensor returns in each static rank: a
//! `Tensor<M, K>`, as burn's tensors carry their rank as a number.

use std::marker::PhantomData;

use burn_tensor::Tensor;

use super::error::BurnError;
use super::kind::BurnKind;
use super::reshape::Reshaped;
use crate::rank::PerRank;

/// The reads of kind `K`: `Tensor<M, K>` for rank `M`; one element as a
/// `Tensor<1, K>` (burn has no rank 0); an [`AnyRank`] where the rank is
/// known only at run time.
pub struct Reads<K>(PhantomData<K>);

/// A read whose rank is known only at run time (an index of dynamic rank,
/// such as an `ArrayD` index array): the elements and their shape.
#[derive(Clone, Debug)]
pub struct AnyRank<K: BurnKind> {
    flat: Tensor<1, K>,
    shape: Vec<usize>,
}

impl<K: BurnKind> AnyRank<K> {
    /// The read's shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The read as a tensor of rank `N`, which must be its rank; a read of
    /// one element is also a `Tensor<1, K>`.
    pub fn into_rank<const N: usize>(self) -> Result<Tensor<N, K>, BurnError> {
        let mut shape = self.shape;
        if shape.is_empty() && N == 1 {
            shape.push(1);
        }
        let dims: [usize; N] = shape.as_slice().try_into().map_err(|_| BurnError::Rank {
            expected: N,
            actual: shape.len(),
        })?;
        Ok(self.flat.shaped(dims))
    }
}

/// `flat` in `shape`, of rank `N`.
fn shaped<const N: usize, K: BurnKind>((flat, shape): (Tensor<1, K>, Vec<usize>)) -> Tensor<N, K> {
    let dims: [usize; N] = shape.as_slice().try_into().expect("the read's static rank is its rank");
    flat.shaped(dims)
}

impl<K: BurnKind> PerRank for Reads<K> {
    type Parts = (Tensor<1, K>, Vec<usize>);
    type R0 = Tensor<1, K>;
    type R1 = Tensor<1, K>;
    type R2 = Tensor<2, K>;
    type R3 = Tensor<3, K>;
    type R4 = Tensor<4, K>;
    type R5 = Tensor<5, K>;
    type R6 = Tensor<6, K>;
    type Dynamic = AnyRank<K>;
    fn r0((flat, _): Self::Parts) -> Tensor<1, K> {
        flat
    }
    fn r1(parts: Self::Parts) -> Tensor<1, K> {
        shaped(parts)
    }
    fn r2(parts: Self::Parts) -> Tensor<2, K> {
        shaped(parts)
    }
    fn r3(parts: Self::Parts) -> Tensor<3, K> {
        shaped(parts)
    }
    fn r4(parts: Self::Parts) -> Tensor<4, K> {
        shaped(parts)
    }
    fn r5(parts: Self::Parts) -> Tensor<5, K> {
        shaped(parts)
    }
    fn r6(parts: Self::Parts) -> Tensor<6, K> {
        shaped(parts)
    }
    fn dynamic((flat, shape): Self::Parts) -> AnyRank<K> {
        AnyRank { flat, shape }
    }
}
