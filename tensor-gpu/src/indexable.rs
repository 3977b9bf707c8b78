//! The GPU tensor as a target of the macros: `at!(g[idx] += v)`,
//! `set!(g[g < 0.0] = 0.0)`, `try_at!(g[1:3])` run the methods of
//! [`GpuTensor`] with the macros' compile-time checks. Reads return GPU
//! tensors; errors are [`GpuError`]s.

use ndarray::IxDyn;
use tensor_core::Op;
use tensor_core::backend::{AnyMode, HostClosures, Indexable, IndexableMut, IntoUpdatable, Predicate};
use tensor_core::backend::{Kind, Rank};
use tensor_core::element::Arith;
use tensor_core::index::IndexElem;
use tensor_core::value::Value;

use crate::device::Gpu;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::condition::Condition;
use crate::mask::target_condition;
use crate::tensor::GpuTensor;

/// A mask on the target itself as the condition a kernel evaluates.
fn condition<T: GpuElement, F>(gpu: &Gpu, predicate: Predicate<'_, T, F>) -> Result<Condition<T>, GpuError> {
    match predicate {
        Predicate::Compare { compare, scalar, .. } => Ok(Condition::compare(gpu, (compare, *scalar))),
        Predicate::Combined { steps, .. } => target_condition(gpu, steps),
    }
}

// Not listed in errors about ndarray targets.
#[diagnostic::do_not_recommend]
impl<T: GpuElement> Indexable for GpuTensor<T> {
    type Elem = T;
    type Dim = IxDyn;
    type Error = GpuError;
    type Read<'t, K: Kind, R: Rank> = GpuTensor<T>;

    fn read_index<K: Kind, R: Rank>(&self, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        self.get_batched_any(index, batch, mode)
    }

    fn read_where<R: Rank, F: FnMut(&T) -> bool>(&self, predicate: Predicate<'_, T, F>) -> Result<GpuTensor<T>, GpuError> {
        self.get_condition(&condition(&self.gpu, predicate)?)
    }
}

#[diagnostic::do_not_recommend]
impl<T: GpuElement> IndexableMut for GpuTensor<T> {
    fn set_index(&mut self, index: &[IndexElem<'_>], batch: usize, value: Value<'_, T>, mode: AnyMode<T>) -> Result<(), GpuError> {
        self.set_batched_any(index, batch, value, mode)
    }

    fn update_index(&mut self, index: &[IndexElem<'_>], batch: usize, op: Op, value: Value<'_, T>, mode: AnyMode<T>) -> Result<(), GpuError>
    where
        T: Arith,
    {
        self.update_batched_any(index, batch, op, value, mode)
    }

    fn apply_index<F: FnMut(T) -> T>(&mut self, _: &[IndexElem<'_>], _: usize, _: F, _: AnyMode<T>) -> Result<(), GpuError> {
        Err(GpuError::Unsupported {
            operation: "apply",
            reason: "a host closure cannot run in a kernel: download with to_array, apply, and upload",
        })
    }

    fn set_where<F: FnMut(&T) -> bool>(&mut self, predicate: Predicate<'_, T, F>, value: Value<'_, T>) -> Result<(), GpuError> {
        let condition = condition(&self.gpu, predicate)?;
        self.set_condition(condition, value)
    }

    fn update_where<F: FnMut(&T) -> bool>(&mut self, predicate: Predicate<'_, T, F>, op: Op, value: Value<'_, T>) -> Result<(), GpuError>
    where
        T: Arith,
    {
        let condition = condition(&self.gpu, predicate)?;
        self.update_condition(condition, op, value)
    }
}

// `.apply(f)` compiles on a GPU tensor, and is refused when it runs
// (`GpuError::Unsupported`), until a kernel can take the closure.
impl<T: GpuElement> HostClosures for GpuTensor<T> {}
impl<T: GpuElement> HostClosures for &mut GpuTensor<T> {}

/// `&g` and `&mut g`, as the macros' auto-ref reaches them (a `&mut`
/// binding read by `at!(g[..])`): the tensor itself.
macro_rules! forward_indexable {
    ($($reference:ty),*) => {$(
        impl<T: GpuElement> Indexable for $reference {
            type Elem = T;
            type Dim = IxDyn;
            type Error = GpuError;
            type Read<'t, K: Kind, R: Rank>
                = GpuTensor<T>
            where
                Self: 't;

            fn read_index<K: Kind, R: Rank>(&self, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
                (**self).read_index::<K, R>(index, batch, mode)
            }

            fn read_where<R: Rank, F: FnMut(&T) -> bool>(&self, predicate: Predicate<'_, T, F>) -> Result<GpuTensor<T>, GpuError> {
                (**self).read_where::<R, F>(predicate)
            }
        }
    )*};
}
forward_indexable!(&GpuTensor<T>, &mut GpuTensor<T>);

#[diagnostic::do_not_recommend]
impl<T: GpuElement> IndexableMut for &mut GpuTensor<T> {
    fn set_index(&mut self, index: &[IndexElem<'_>], batch: usize, value: Value<'_, T>, mode: AnyMode<T>) -> Result<(), GpuError> {
        (**self).set_index(index, batch, value, mode)
    }

    fn update_index(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: Value<'_, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError> {
        (**self).update_index(index, batch, op, value, mode)
    }

    fn apply_index<F: FnMut(T) -> T>(&mut self, index: &[IndexElem<'_>], batch: usize, f: F, mode: AnyMode<T>) -> Result<(), GpuError> {
        (**self).apply_index(index, batch, f, mode)
    }

    fn set_where<F: FnMut(&T) -> bool>(&mut self, predicate: Predicate<'_, T, F>, value: Value<'_, T>) -> Result<(), GpuError> {
        IndexableMut::set_where(*self, predicate, value)
    }

    fn update_where<F: FnMut(&T) -> bool>(&mut self, predicate: Predicate<'_, T, F>, op: Op, value: Value<'_, T>) -> Result<(), GpuError> {
        IndexableMut::update_where(*self, predicate, op, value)
    }
}

/// `set!({g}[...] = v)`: updated in its own buffer unless a view shares it.
#[diagnostic::do_not_recommend]
impl<T: GpuElement> IntoUpdatable for GpuTensor<T> {
    type Updatable = GpuTensor<T>;
    fn into_updatable(self) -> Result<GpuTensor<T>, GpuError> {
        match self.buffer.handle.can_mut() {
            true => Ok(self),
            false => self.copy(),
        }
    }
}

/// `set!(g[...] = v)`: a copy on the device; `g` is unchanged.
#[diagnostic::do_not_recommend]
impl<T: GpuElement> IntoUpdatable for &GpuTensor<T> {
    type Updatable = GpuTensor<T>;
    fn into_updatable(self) -> Result<GpuTensor<T>, GpuError> {
        self.copy()
    }
}
