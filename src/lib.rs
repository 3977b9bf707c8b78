//! tensor-at: NumPy, JAX and PyTorch indexed updates for ndarray.
//!
//! ```
//! use tensor_at::ndarray::{array, Array2};
//! use tensor_at::{at, set};
//!
//! let mut x = Array2::<f64>::zeros((3, 4));
//! at!(x[:, 1:4:2] = 1.0);                  // NumPy: x[:, 1:4:2] = 1
//! at!(x[.., 0] += array![1.0, 2.0, 3.0]);  // x[:, 0] += [1, 2, 3]
//! at!(x[[0, 0, 2], -1] += 5.0);             // np.add.at(x, ([0, 0, 2], -1), 5)
//! at!(x[x > 4.0] = 4.0);                   // x[x > 4] = 4, one fused pass
//! let y = set!(x[1] = 9.0);                // JAX: y = x.at[1].set(9)
//! let row = at!(x[0, ..]);                 // a view: ArrayView1<f64>
//! assert_eq!(row, array![1.0, 1.0, 0.0, 4.0]);
//! let element: f64 = at!(x[2, -1]);        // integers alone: the element
//! assert_eq!(element, 4.0);
//! assert_eq!(y.row(1), array![9.0, 9.0, 9.0, 9.0]);
//! ```
//!
//! The macros parse NumPy slices (`a:b:c`) and ndarray ranges (`a..b;c`)
//! at compile time. For indices built at run time, the same operations
//! are methods ([`IndexExt::at`], [`IndexMutExt::at_mut`],
//! [`IntoUpdated::updated`]). See [`numpy_users`] for
//! the idioms of NumPy, JAX and PyTorch side by side, and [`guarantees`]
//! for what holds on any input (validation, atomicity, determinism).
#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

#[cfg(feature = "burn")]
pub mod burn_users;
pub mod guarantees;
pub mod numpy_users;

pub use tensor_core::{At, AtFilled, AtMut, IndexExt, IndexMutExt, IntoUpdated, Updated, UpdatedResult};
pub use tensor_core::{IndexError, Mode, Op, ReadMode, SetError};
pub use tensor_core::{along, ix, ix_, nd};
pub use tensor_core::{argwhere, nonzero, place, put, take};

/// The ndarray this crate is built on (0.17). Name arrays through it
/// (`use tensor_at::ndarray::{array, Array2};`), or depend on the same
/// ndarray version: an `Array2` of another version is another type, and
/// the macros reject it ("expected `ArrayBase`, found `ArrayBase`").
pub use ndarray;
/// The num-complex whose `Complex<f32>` and `Complex<f64>` are elements
/// (`+= -= *= /=`); the one ndarray uses.
pub use tensor_core::num_complex;

/// What a typical file needs: `use tensor_at::prelude::*;` brings the
/// macros, the index helpers, the method syntax and the modes.
///
/// ```
/// use tensor_at::ndarray::array;
/// use tensor_at::prelude::*;
///
/// let mut x = array![[1.0, 2.0], [3.0, 4.0]];
/// at!(x[x > 2.0] = 0.0);                       // the macros
/// x.at_mut((.., 0)).mode(Mode::Clip).add(1.0)?; // the method syntax
/// assert_eq!(x, array![[2.0, 2.0], [1.0, 0.0]]);
/// # Ok::<(), IndexError>(())
/// ```
pub mod prelude {
    pub use crate::index::{Ellipsis, NewAxis};
    pub use crate::{IndexError, Mode, ReadMode};
    pub use crate::{IndexExt, IndexMutExt, IntoUpdated};
    pub use crate::{along, ix, ix_, nd};
    pub use crate::{at, set, try_at, try_set};
}

/// What can stand between the brackets, for indices built at run time and
/// for generic code: the index elements ([`IndexElem`](index::IndexElem),
/// built by [`ix`]), the slice types, `...` and new axes, and
/// the traits that classify what a type indexes as.
pub mod index {
    pub use tensor_core::index::{
        Along, CrossArgs, CrossAxis, CrossIndex, Ellipsis, IndexArrayElement, IndexArrayInt, IndexElem, IndexInt, IntArray, IntoCowArray,
        IntoIndexElem, IntoRangeSlice, Nd, NewAxis, OneDimensional, PySlice, RangeSlice,
    };
    pub use tensor_core::typed::{FilledRead, IntoIndexList, Read};
}

/// The element types' capabilities, for generic code: which types take
/// the arithmetic updates ([`Arith`](element::Arith)), `min`/`max`
/// ([`Ordered`](element::Ordered)) and the bitwise ones
/// ([`Bitwise`](element::Bitwise)), and what can be written as a value.
pub mod element {
    pub use tensor_core::element::{Arith, Bitwise, Compare, Op, OperandFault, Ordered};
    pub use tensor_core::numpy::{Nonzero, PutValues};
    pub use tensor_core::value::{IntoValue, SameElement, Scalar};
}

/// The errors, and the types their variants hold.
pub mod error {
    pub use tensor_core::error::{BatchPart, Dims, IndexError, IndexShapes, SetError};
}

pub use tensor_core::backend;

// The static ranks and typed index lists, named by the compile errors of
// the macros (`tensor_at::rank::HasAxis`): re-exported so that an error
// names this crate's paths, never a dependency the user did not add.
#[doc(hidden)]
pub use tensor_core::{index::KeptArray, index::KeptInts, rank, typed};

/// In-place indexed update, or read (NumPy / PyTorch `x[...] = v`, `x[...]`).
///
/// ```
/// use ndarray::{array, Array1, Array3};
/// use tensor_at::at;
///
/// let mut x = Array3::<i32>::zeros((2, 3, 4));
/// at!(x[.., 1..3, 0] = 7);                // ndarray ranges
/// at!(x[:, 1:3, -1] = 8);                 // NumPy slices
/// at!(x[0, [2, 0]].max(array![[1, 1, 1, 1], [9, 9, 9, 9]]));
/// let bins = Array1::from(vec![0usize, 1, 1]);
/// at!(x[1, 0, bins] += 1);                // unbuffered: np.add.at
/// assert_eq!(at!(x[1, 0]), array![1, 2, 0, 0]);
/// assert_eq!(at!(x[1, 1]), array![7, 0, 0, 8]);
/// let picked: Array1<i32> = at!(x[0, 0, [3, 3]]);  // advanced reads are owned
/// assert_eq!(picked, array![9, 9]);
/// let mut buf = Array1::<i32>::zeros(2);
/// at!(x[1, 1, [3, 0]]; out = buf);        // np.take(.., out=buf): no new array
/// assert_eq!(buf, array![8, 7]);
/// at!(&mut x[0, :, 1:3]).fill(4);          // a mutable view: ArrayViewMut2<i32>
/// assert_eq!(at!(x[0, 1]), array![7, 4, 4, 8]);
/// ```
///
/// `along(idx, axis)`, alone in the brackets, picks along one axis and
/// spans the others (NumPy's `take_along_axis`, PyTorch's `gather`):
///
/// ```
/// use ndarray::{array, Array2};
/// use tensor_at::{along, at};
///
/// let mut logits = array![[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]];
/// let labels = array![[2usize], [0]];
/// let picked: Array2<f64> = at!(logits[along(labels, 1)]);  // torch.gather(logits, 1, labels)
/// assert_eq!(picked, array![[0.7], [0.6]]);
/// at!(logits[along(labels, -1)] -= 1.0);                    // scatter_add_(1, labels, -1)
/// assert_eq!(logits, array![[0.1, 0.2, 0.7 - 1.0], [0.6 - 1.0, 0.3, 0.1]]);
/// ```
///
/// `; batch = k` pairs the leading `k` axes of the target, of every index
/// array and mask, and of an array value: for every batch position `b`,
/// `x[b][INDEX[b]] op= v[b]` (JAX's `vmap` of `.at[]`, TensorFlow's
/// `batch_dims`); a read stacks the batches' reads. A batch axis of length
/// 1 in an index or the value broadcasts. It combines with the other
/// options: `; batch = 1, mode = drop`.
///
/// ```
/// use ndarray::{array, Array2, Array3};
/// use tensor_at::at;
///
/// let beams = array![[[1, 1], [2, 2], [3, 3]], [[4, 4], [5, 5], [6, 6]]];
/// let parents = array![[2usize, 2], [0, 1]];
/// let kept: Array3<i32> = at!(beams[parents]; batch = 1);  // tf.gather(beams, parents, batch_dims=1)
/// assert_eq!(kept, array![[[3, 3], [3, 3]], [[4, 4], [5, 5]]]);
/// let mut grads = Array2::<f64>::zeros((2, 3));
/// at!(grads[parents] += 0.5; batch = 1);                     // vmap(lambda g, i: g.at[i].add(0.5))
/// assert_eq!(grads, array![[0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]);
/// ```
///
/// A read with `; out = buf` writes its result over `buf`, which must have
/// the result's shape (`IndexError::OutputShape` otherwise, `buf`
/// unchanged): a loop that reads the same shape again and again reuses one
/// buffer. Otherwise, with glibc's allocator, a new array of more than 32
/// MiB is always a fresh mapping, faulted in and zeroed by the kernel on
/// every read, which can take longer than the read itself. A global
/// allocator that keeps freed memory for the next allocation, as
/// TensorFlow's does, also avoids that: jemalloc configured with
/// `dirty_decay_ms:-1` (with the `tikv-jemallocator` crate, through its
/// `_RJEM_MALLOC_CONF` environment variable), at the price of never
/// handing freed memory back to the system. `out = buf` combines
/// with a mode: `; mode = clip, out = buf`.
///
/// # Panics
///
/// On a run-time index error (an index out of bounds, a value of the wrong
/// shape...), with the message [`try_at!`] returns, at the caller's line.
#[macro_export]
macro_rules! at {
    ($($call:tt)*) => { $crate::__private::at!($crate; $($call)*) };
}

/// Copy-and-update returning the new array (JAX `x.at[...].set(v)`).
///
/// A place (`set!(x[i] = v)`) is borrowed and copied (into C order, or into
/// Fortran order when the source's elements lie in that order, as a
/// transpose's do); any other expression
/// (`set!({x}[i] = v)`, `set!(x.clone()[i] = v)`) is consumed and updated in
/// its own buffer, with no copy.
///
/// ```
/// use ndarray::array;
/// use tensor_at::set;
///
/// let x = array![1.0, 2.0, 3.0];
/// let y = set!(x[[0, 0]] += 1.0);          // JAX x.at[[0, 0]].add(1)
/// assert_eq!(y, array![3.0, 2.0, 3.0]);
/// assert_eq!(x, array![1.0, 2.0, 3.0]);    // x is unchanged
/// let small = x.mapv(|v| v < 2.5);
/// let z = set!({x}[small] = 0.0);          // consumes x: no copy
/// assert_eq!(z, array![0.0, 0.0, 3.0]);
/// ```
///
/// # Panics
///
/// On a run-time index error, with the message [`try_set!`] returns.
#[macro_export]
macro_rules! set {
    ($($call:tt)*) => { $crate::__private::set!($crate; $($call)*) };
}

/// [`at!`] returning `Result<_, IndexError>` instead of panicking (on a GPU
/// tensor, `Result<_, GpuError>`; on a burn tensor, `Result<_, BurnError>`).
///
/// ```
/// use ndarray::array;
/// use tensor_at::{try_at, IndexError};
///
/// let mut x = array![1, 2, 3];
/// let error = try_at!(x[[0, 5]] = 0).unwrap_err();
/// assert_eq!(error.to_string(), "index 5 is out of bounds for axis 0 with size 3");
/// assert_eq!(x, array![1, 2, 3]);          // nothing written
/// try_at!(x[[0, 5]] = 0; mode = drop)?;    // JAX's scatter default: skip it
/// assert_eq!(x, array![0, 2, 3]);
/// # Ok::<(), IndexError>(())
/// ```
#[macro_export]
macro_rules! try_at {
    ($($call:tt)*) => { $crate::__private::try_at!($crate; $($call)*) };
}

/// [`set!`] returning a `Result` instead of panicking. Its error,
/// [`SetError`], holds the error (an [`IndexError`]; on a GPU tensor a
/// `GpuError`, on a burn tensor a `BurnError`) and the array the update was
/// to be written into, unchanged: a source moved in comes back, so nothing
/// is lost. On an ndarray, `?` converts it to `IndexError`; elsewhere, take
/// its `.error`.
///
/// ```
/// use ndarray::array;
/// use tensor_at::{try_set, IndexError};
///
/// let x = array![1, 2, 3];
/// let y = try_set!(x[-1] = 0)?;
/// assert_eq!(y, array![1, 2, 0]);
/// assert!(try_set!(x[7] = 0).is_err());
/// // Moved in and refused: `x` comes back, unchanged.
/// let x = try_set!({ x }[7] = 0).unwrap_err().array.unwrap();
/// assert_eq!(x, array![1, 2, 3]);
/// # Ok::<(), IndexError>(())
/// ```
#[macro_export]
macro_rules! try_set {
    ($($call:tt)*) => { $crate::__private::try_set!($crate; $($call)*) };
}

/// The GPU tensor and its device (features `gpu` for wgpu, `cuda`, `hip`;
/// each brings its runtime alone, and they combine): the crate
/// `tensor-gpu`. The macros work on a `gpu::GpuTensor` with the same
/// syntax; `gpu::cubecl` is the cubecl it is built on.
#[cfg(any(feature = "gpu", feature = "cuda", feature = "hip"))]
pub use tensor_gpu as gpu;

/// The macros on burn tensors (feature `burn`): `at!`, `set!`, `try_at!`
/// and `try_set!` take a `burn::tensor::Tensor<D, K>`, differentiably.
#[cfg(feature = "burn")]
pub mod burn {
    pub use tensor_core::burn::*;
}

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// What the macros expand into. Not a public API: use the macros.
#[doc(hidden)]
pub mod __private {
    // The procedural macros, which `at!` and the others call with `$crate`,
    // so that their expansions reach this module under any dependency name.
    pub use tensor_core::entry::*;
    // The public traits whose checks the expansions name (re-exported here
    // rather than from `entry`, so that each keeps its one public path).
    pub use tensor_core::backend::{AnyMode, IndexableMut};
    pub use tensor_core::element::{Bitwise, Op, Ordered};
    pub use tensor_core::index::{Ellipsis, IntoIndexElem, NewAxis, PySlice, nd};
    pub use tensor_core::value::IntoValue;
    pub use tensor_macros::{at, set, try_at, try_set};
}
