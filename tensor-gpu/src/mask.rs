//! Masks computed on the device: `g[h > 0.0]` with `h` a GPU tensor, and
//! `& | ^ !` of such comparisons (`g[(h > a) & !(k == 0)]`). The macros
//! build a [`DeviceMask`] from each comparison on a GPU tensor, as they
//! build a boolean array from one on an ndarray; nothing is evaluated until
//! the mask indexes.
//!
//! A kernel compiled for the mask's expression evaluates it: in the write's
//! own pass for a scalar value (`g[m] op= s`), and into a compaction (the
//! selected positions' coordinates, their count read back) for reads,
//! array values and masks beside other index elements, which then index as
//! `nd(coordinates)`. It reads the tensors
//! of comparisons of the kernel's element type, in C order and of the
//! mask's shape, in that pass; every other comparison is marked first (one
//! pass over its tensor, one flag per position). Comparisons on the
//! target itself in a mask of nothing else (`g[(g > a) & (g < b)]`) are not
//! masks at all: the macros pass them as a predicate, evaluated in the
//! write's pass ([`Condition`]).

use std::any::Any;
use std::ops::{BitAnd, BitOr, BitXor, Not};
use std::sync::Arc;

use tensor_core::backend::{DeviceArray, DeviceForm, MaskOperand, Step};
use tensor_core::element::Compare;
use tensor_core::error::{Dims, IndexShapes};
use tensor_core::index::{IndexElem, IntoIndexElem};
use tensor_core::plan::broadcast_shapes;

use crate::buffer::Buffer;
use crate::device::Gpu;
use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::compact;
use crate::kernels::condition::{self, Condition, Program};
use crate::kernels::masked;
use crate::layout::{Region, broadcast_to, c_strides, elements};
use crate::tensor::GpuTensor;

/// A boolean mask computed on the device from GPU tensors: what the macros
/// build for `h > 0.0` (a comparison on a GPU tensor) inside the brackets,
/// and for `&`, `|`, `^` and `!` of such masks. Its operands broadcast
/// together, as NumPy's do; it indexes GPU tensors as a boolean array does
/// (an ndarray target refuses it with
/// [`IndexError::OnDevice`](tensor_core::IndexError::OnDevice)).
///
/// ```
/// # #[cfg(feature = "wgpu")] {
/// use ndarray::array;
/// use tensor_at::at;
/// use tensor_gpu::{Gpu, GpuTensor};
///
/// # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
/// let gpu = Gpu::wgpu()?;
/// let mut g = GpuTensor::from_array(&gpu, &array![1.0f32, 2.0, 3.0, 4.0])?;
/// let h = GpuTensor::from_array(&gpu, &array![0, 1, 1, 0])?;
/// at!(g[(h == 1) & (g > 2.0)] += 10.0);
/// assert_eq!(g.to_array()?, array![1.0, 2.0, 13.0, 4.0].into_dyn());
/// # }
/// # Ok::<(), tensor_gpu::GpuError>(())
/// ```
#[derive(Clone)]
pub struct DeviceMask {
    /// The broadcast shape of the comparisons' tensors, or the error of
    /// tensors that do not broadcast (reported when the mask indexes).
    shape: Result<Vec<usize>, Vec<Vec<usize>>>,
    comparisons: Vec<Arc<dyn Comparison>>,
    /// The mask in postfix order.
    steps: Vec<MaskStep>,
}

impl std::fmt::Debug for DeviceMask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMask")
            .field("shape", &self.shape)
            .field("comparisons", &self.comparisons.len())
            .field("steps", &self.steps)
            .finish()
    }
}

/// One step of a [`DeviceMask`].
#[derive(Clone, Copy, Debug)]
enum MaskStep {
    /// Comparison `k`.
    Compare(usize),
    And,
    Or,
    Xor,
    Not,
}

/// One comparison of a mask, on a tensor of any element type.
trait Comparison: Send + Sync {
    /// The tensor's shape.
    fn shape(&self) -> &[usize];
    /// Writes row `row` of `flags`: whether the comparison holds at each
    /// position of `shape`, to which the tensor broadcasts.
    fn mark(&self, shape: &[usize], flags: &Buffer<u32>, row: usize) -> Result<(), GpuError>;
    /// The comparison, for a downcast to its element type.
    fn as_any(&self) -> &dyn Any;
    /// The comparison on the tensor's view at batch position `at` of a
    /// mask of `ndim` axes (the tensor's own batch axes are those of its
    /// axes among the mask's leading `at.len()`).
    fn at_batch(&self, at: &[usize], ndim: usize) -> Arc<dyn Comparison>;
}

/// `tensor compare threshold`.
struct Compared<E> {
    tensor: GpuTensor<E>,
    compare: Compare,
    threshold: E,
}

impl<E: GpuElement> Comparison for Compared<E> {
    fn shape(&self) -> &[usize] {
        &self.tensor.shape
    }

    fn mark(&self, shape: &[usize], flags: &Buffer<u32>, row: usize) -> Result<(), GpuError> {
        let tensor = &self.tensor;
        let strides = broadcast_to(&tensor.shape, &tensor.strides, shape);
        let region = Region::of_layout(tensor.offset, shape, &strides).upload(&tensor.gpu)?;
        let compare = self.compare;
        masked::mark_row(&tensor.gpu, &tensor.buffer, &region, (compare, self.threshold), flags, row);
        Ok(())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn at_batch(&self, at: &[usize], ndim: usize) -> Arc<dyn Comparison> {
        // Aligned at the last axis: the tensor's axis `a` is the mask's
        // axis `a + missing`.
        let missing = ndim - self.tensor.ndim();
        let own = at.get(missing..).unwrap_or(&[]);
        Arc::new(Compared {
            tensor: self.tensor.batch_at(own),
            compare: self.compare,
            threshold: self.threshold,
        })
    }
}

impl DeviceMask {
    /// `tensor compare threshold`.
    fn compare<E: GpuElement>(tensor: &GpuTensor<E>, compare: Compare, threshold: E) -> Self {
        DeviceMask {
            shape: Ok(tensor.shape.clone()),
            comparisons: vec![Arc::new(Compared {
                tensor: tensor.shared(),
                compare,
                threshold,
            })],
            steps: vec![MaskStep::Compare(0)],
        }
    }

    /// `self op other`.
    fn combine(&self, other: &DeviceMask, op: MaskStep) -> DeviceMask {
        let shift = self.comparisons.len();
        let shifted = other.steps.iter().map(|&step| match step {
            MaskStep::Compare(k) => MaskStep::Compare(k + shift),
            step => step,
        });
        let steps = self.steps.iter().copied().chain(shifted).chain([op]).collect();
        let comparisons = self.comparisons.iter().chain(&other.comparisons).cloned().collect();
        let shapes = || {
            self.comparisons
                .iter()
                .chain(&other.comparisons)
                .map(|c| c.shape().to_vec())
                .collect()
        };
        let shape = match (&self.shape, &other.shape) {
            (Ok(a), Ok(b)) => broadcast_shapes([&a[..], &b[..]]).ok_or_else(shapes),
            _ => Err(shapes()),
        };
        DeviceMask { shape, comparisons, steps }
    }

    /// The mask's shape, or why it has none.
    pub(crate) fn shape(&self) -> Result<&[usize], GpuError> {
        self.shape.as_deref().map_err(|shapes| GpuError::MaskBroadcast {
            shapes: IndexShapes(shapes.iter().cloned().map(Dims).collect()),
        })
    }

    /// The mask at batch position `at` (its leading `at.len()` axes).
    pub(crate) fn at_batch(&self, at: &[usize]) -> Result<DeviceMask, GpuError> {
        let ndim = self.shape()?.len();
        Ok(DeviceMask {
            shape: Ok(self.shape()?[at.len()..].to_vec()),
            comparisons: self.comparisons.iter().map(|c| c.at_batch(at, ndim)).collect(),
            steps: self.steps.clone(),
        })
    }

    /// The mask as a condition of the positions of its shape, for a kernel
    /// over elements of `T` that writes `target` (if any): a comparison on
    /// a tensor of `T` in C order and of the mask's shape, not `target`'s
    /// memory, is read in the kernel's own pass; every other comparison is
    /// marked first, in a row of flags.
    pub(crate) fn condition<T: GpuElement>(&self, gpu: &Gpu, target: Option<&Buffer<T>>) -> Result<Condition<T>, GpuError> {
        let shape = self.shape()?;
        // Comparisons broadcast together (`[n,1,1] & [1,n,1] & [1,1,n]`)
        // may span more than any one of them, or than a usize counts.
        let len = elements(shape)?;
        let fused = |comparison| read_in_pass(comparison, shape, target);
        let marked = self.comparisons.iter().filter(|c| fused(c).is_none()).count();
        // One row of flags per marked comparison, addressed by 32-bit positions.
        let flags_len = marked * len;
        if flags_len > i32::MAX as usize {
            return Err(GpuError::TooLarge { elements: flags_len });
        }
        let flags = (marked > 0).then(|| Buffer::<u32>::empty(gpu.client(), flags_len));
        let (mut scalars, mut operands, mut leaves, mut rows) = (Vec::new(), Vec::new(), Vec::new(), 0);
        for comparison in &self.comparisons {
            leaves.push(match (fused(comparison), &flags) {
                (Some(compared), _) => {
                    scalars.push(compared.threshold);
                    operands.push((compared.tensor.buffer.clone(), compared.tensor.offset as u32));
                    condition::Step::Operand {
                        compare: compared.compare,
                        scalar: scalars.len() - 1,
                        operand: operands.len() - 1,
                    }
                }
                (None, Some(flags)) => {
                    comparison.mark(shape, flags, rows)?;
                    rows += 1;
                    condition::Step::Flag { row: rows - 1 }
                }
                (None, None) => unreachable!("a marked comparison has its row"),
            });
        }
        let steps = self.steps.iter().map(|&step| match step {
            MaskStep::Compare(k) => leaves[k],
            MaskStep::And => condition::Step::And,
            MaskStep::Or => condition::Step::Or,
            MaskStep::Xor => condition::Step::Xor,
            MaskStep::Not => condition::Step::Not,
        });
        Ok(Condition::with_operands(
            gpu,
            Program::new(steps.collect()),
            &scalars,
            flags,
            operands,
        ))
    }

    /// The coordinates of the positions where the mask holds, in C order,
    /// as a tensor of `count` rows of one coordinate per axis (`x[m]` is
    /// `x[nd(coordinates)]`).
    pub(crate) fn coordinates(&self, gpu: &Gpu) -> Result<GpuTensor<i32>, GpuError> {
        let shape = self.shape()?.to_vec();
        let condition = self.condition::<i32>(gpu, None)?;
        // The flags are the whole condition: no element is read.
        let region = Region::of_layout(0, &shape, &c_strides(&shape)).upload(gpu)?;
        let unread = gpu.constant(&[0i32]);
        let selected = compact::select_where(gpu, &unread, &region, &condition)?;
        // A tensor the index kernels address with 32-bit positions.
        let elements = selected.count * shape.len();
        if elements > i32::MAX as usize {
            return Err(GpuError::TooLarge { elements });
        }
        let coordinates = compact::coordinates_where(gpu, &unread, &region, &condition, &selected, &shape);
        Ok(GpuTensor::contiguous(gpu, coordinates, vec![selected.count, shape.len()]))
    }
}

/// `comparison` when a kernel over elements of `T` of shape `shape`,
/// writing `target`, reads its tensor in its own pass: of `T`, in C order,
/// of that shape, and apart from `target`.
fn read_in_pass<'c, T: GpuElement>(
    comparison: &'c Arc<dyn Comparison>,
    shape: &[usize],
    target: Option<&Buffer<T>>,
) -> Option<&'c Compared<T>> {
    let compared = comparison.as_any().downcast_ref::<Compared<T>>()?;
    let tensor = &compared.tensor;
    let apart = target.is_none_or(|target| !tensor.buffer.same_memory(target));
    (apart && tensor.shape == shape && in_c_order(tensor)).then_some(compared)
}

/// Whether `tensor`'s elements lie in C order from its origin.
fn in_c_order<E>(tensor: &GpuTensor<E>) -> bool {
    let standard = c_strides(&tensor.shape);
    tensor
        .shape
        .iter()
        .zip(&tensor.strides)
        .zip(standard)
        .all(|((&len, &stride), c)| len <= 1 || stride == c)
}

/// A combined mask on the target itself (`g[(g > a) & (g < b)]`) as a
/// condition evaluated on the target's element.
pub(crate) fn target_condition<T: GpuElement>(gpu: &Gpu, steps: &[Step<'_, T>]) -> Result<Condition<T>, GpuError> {
    let mut scalars = Vec::new();
    let mut program = Vec::with_capacity(steps.len());
    for step in steps {
        program.push(match step {
            Step::Compare(compare, scalar) => {
                scalars.push(**scalar);
                condition::Step::Compare {
                    compare: *compare,
                    scalar: scalars.len() - 1,
                }
            }
            Step::And => condition::Step::And,
            Step::Or => condition::Step::Or,
            Step::Xor => condition::Step::Xor,
            Step::Not => condition::Step::Not,
            _ => return Err(GpuError::newer_core("this mask operator")),
        });
    }
    Ok(Condition::new(gpu, Program::new(program), &scalars, None))
}

/// `h > s` inside the brackets, `h` a GPU tensor: a [`DeviceMask`].
impl<E: GpuElement> MaskOperand for GpuTensor<E> {
    type Elem = E;
    type Mask = DeviceMask;
    fn mask(&self, compare: Compare, scalar: &E, _: impl FnMut(&E) -> bool) -> DeviceMask {
        DeviceMask::compare(self, compare, *scalar)
    }
}

/// References to a GPU tensor, as the macros borrow a `&GpuTensor` or
/// `&mut GpuTensor` binding.
macro_rules! forward_mask_operand {
    ($($reference:ty),*) => {$(
        impl<E: GpuElement> MaskOperand for $reference {
            type Elem = E;
            type Mask = DeviceMask;
            fn mask(&self, compare: Compare, scalar: &E, _: impl FnMut(&E) -> bool) -> DeviceMask {
                DeviceMask::compare(self, compare, *scalar)
            }
        }
    )*};
}
forward_mask_operand!(&GpuTensor<E>, &mut GpuTensor<E>);

macro_rules! mask_operator {
    ($($trait:ident::$method:ident => $step:ident),*) => {$(
        /// Combines two device masks element by element.
        impl $trait<&DeviceMask> for &DeviceMask {
            type Output = DeviceMask;
            fn $method(self, other: &DeviceMask) -> DeviceMask {
                self.combine(other, MaskStep::$step)
            }
        }
    )*};
}
mask_operator!(BitAnd::bitand => And, BitOr::bitor => Or, BitXor::bitxor => Xor);

/// The elements where the mask does not hold.
impl Not for &DeviceMask {
    type Output = DeviceMask;
    fn not(self) -> DeviceMask {
        let mut steps = self.steps.clone();
        steps.push(MaskStep::Not);
        DeviceMask {
            shape: self.shape.clone(),
            comparisons: self.comparisons.clone(),
            steps,
        }
    }
}

/// `g[m]`: a device mask indexes as a boolean array does.
#[diagnostic::do_not_recommend]
impl<'a> IntoIndexElem<'a> for DeviceMask {
    type Consumed = ndarray::IxDyn;
    type Produced = ndarray::Ix0;
    type Broadcast = ndarray::Ix1;
    type Kind = tensor_core::backend::Advanced;
    type Role = tensor_core::backend::BatchedMask;
    type Kept = IndexElem<'a>;
    fn keep(self) -> IndexElem<'a> {
        // A mask whose tensors do not broadcast reports it when it indexes.
        let shape = self.shape.clone().unwrap_or_default();
        IndexElem::Device {
            array: DeviceArray::shared(shape, Arc::new(self)),
            form: DeviceForm::Mask,
        }
    }
}

/// The device mask `array` stands for.
pub(crate) fn device_mask<'t>(array: &'t DeviceArray<'_>) -> Result<&'t DeviceMask, GpuError> {
    array.downcast::<DeviceMask>().ok_or(GpuError::Unsupported {
        operation: "a device mask",
        reason: "device masks are built by comparisons on GPU tensors",
    })
}

// The test runs on wgpu (lavapipe in CI).
#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use super::*;

    /// A comparison is read in the write's pass only on a tensor of the
    /// target's type and shape, in C order, and apart from the target
    /// (whose elements other units may be writing).
    #[test]
    fn only_tensors_apart_from_the_target_are_read_in_its_pass() {
        let Ok(gpu) = Gpu::wgpu() else {
            eprintln!("skipped: no device");
            return;
        };
        let host = ndarray::Array2::<f32>::zeros((2, 3));
        let target = GpuTensor::from_array(&gpu, &host).unwrap();
        let other = GpuTensor::from_array(&gpu, &host).unwrap();
        let on = |tensor: &GpuTensor<f32>| DeviceMask::compare(tensor, Compare::Gt, 0.0);
        let (apart, aliased) = (on(&other), on(&target));
        assert!(read_in_pass(&apart.comparisons[0], &[2, 3], Some(&target.buffer)).is_some());
        assert!(read_in_pass(&aliased.comparisons[0], &[2, 3], Some(&target.buffer)).is_none());
        assert!(read_in_pass::<f32>(&aliased.comparisons[0], &[2, 3], None).is_some());
        assert!(read_in_pass(&apart.comparisons[0], &[3, 2], Some(&target.buffer)).is_none());
        assert!(read_in_pass::<i32>(&apart.comparisons[0], &[2, 3], None).is_none());
        let transposed = GpuTensor {
            shape: vec![3, 2],
            strides: vec![1, 3],
            ..other.shared()
        };
        assert!(read_in_pass::<f32>(&on(&transposed).comparisons[0], &[3, 2], None).is_none());
    }
}
