//! GPU execution of tensor-at: a [`GpuTensor`] indexed and updated with
//! NumPy's rules by cubecl kernels, with the results (and errors) of
//! tensor-core on the CPU. The macros of `tensor-at` work on it unchanged
//! (there, this crate is `tensor_at::gpu`, with the feature of a runtime:
//! `gpu`, `cuda` or `hip`; see [Runtimes](#runtimes)):
//!
//! ```
//! # #[cfg(feature = "wgpu")] {
//! use ndarray::array;
//! use tensor_at::{at, set, try_at};
//! use tensor_gpu::{Gpu, GpuError, GpuTensor};
//!
//! # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
//! let gpu = Gpu::wgpu()?; //                        wgpu on Vulkan, Metal or DirectX 12
//! let x = array![[1.0f32, -2.0, 3.0], [-3.0, 4.0, 5.0]];
//! let mut g = GpuTensor::from_array(&gpu, &x)?; //  upload (f32, i32, u32)
//! let bins = array![1, 1, 0];
//! at!(g[bins] += 1.0); //                           np.add.at, deterministic
//! at!(g[g < 0.0] = 0.0); //                         one fused kernel
//! assert_eq!(g.to_array()?, array![[2.0, 0.0, 4.0], [0.0, 6.0, 7.0]].into_dyn());
//! let y = at!(g[:, [0, 2]]).to_array()?; //         reads are GPU tensors
//! assert_eq!(y, array![[2.0, 4.0], [0.0, 7.0]].into_dyn());
//! let z = set!(g[0, ..] *= 2.0); //                 a copy on the device
//! assert_eq!(z.to_array()?, array![[4.0, 0.0, 8.0], [0.0, 6.0, 7.0]].into_dyn());
//! assert!(matches!(try_at!(g[[0, 99]] = 1.0), Err(GpuError::Index(_)))); // nothing written
//! assert_eq!(g.to_array()?, array![[2.0, 0.0, 4.0], [0.0, 6.0, 7.0]].into_dyn());
//! # }
//! # Ok::<(), tensor_gpu::GpuError>(())
//! ```
//!
//! The same operations as methods, for indices built at run time:
//!
//! ```
//! # #[cfg(feature = "wgpu")] {
//! use ndarray::array;
//! use tensor_at::{ix, Mode, Op, ReadMode};
//! use tensor_gpu::{Compare, Gpu, GpuTensor};
//!
//! # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
//! let gpu = Gpu::wgpu()?;
//! let mut x = GpuTensor::from_array(&gpu, &array![[1.0f32, -2.0], [-3.0, 4.0]])?;
//! x.set(&[ix(..), ix(0)], 0.0, Mode::Error)?; //                x[:, 0] = 0
//! x.update(&[ix([1, 1])], Op::Add, 1.0, Mode::Error)?; //         np.add.at(x, [1, 1], 1)
//! x.set_where(Compare::Lt, 0.0, 9.0)?; //                         x[x < 0] = 9
//! assert_eq!(x.to_array()?, array![[0.0, 9.0], [2.0, 6.0]].into_dyn());
//! let column = x.get(&[ix(..), ix(-1)], ReadMode::Error)?; //     x[:, -1]
//! assert_eq!(column.to_array()?, array![9.0, 6.0].into_dyn());
//! # }
//! # Ok::<(), tensor_gpu::GpuError>(())
//! ```
//!
//! # With the macros
//!
//! Reads return `GpuTensor`s; `try_at!`/`try_set!` return [`GpuError`]s,
//! whose [`GpuError::Index`] is the `IndexError` the CPU gives for the same
//! call. A `GpuTensor`'s rank is dynamic, so rank errors come at run time;
//! element types are checked at compile time. Values are host scalars or
//! ndarrays, or GPU tensors. Masks are comparisons on the tensor itself or
//! on other GPU tensors, combined with `& | ^ !` (see [Masks on the
//! device](#masks-on-the-device)). `.apply(f)` and float `.pow()` are
//! refused with [`GpuError::Unsupported`]: `apply` runs a host closure,
//! which no kernel can, so download, apply and upload instead:
//!
//! ```
//! # #[cfg(feature = "wgpu")] {
//! # use ndarray::array;
//! # use tensor_at::at;
//! # use tensor_gpu::{Gpu, GpuTensor};
//! # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
//! # let gpu = Gpu::wgpu()?;
//! let mut g = GpuTensor::from_array(&gpu, &array![1.0f32, 4.0, 9.0])?;
//! let mut host = g.to_array()?; //                 download
//! at!(host[1:].apply(f32::sqrt)); //               apply on the host
//! g = GpuTensor::from_array(&gpu, &host)?; //      upload
//! assert_eq!(g.to_array()?, array![1.0, 2.0, 3.0].into_dyn());
//! # }
//! # Ok::<(), tensor_gpu::GpuError>(())
//! ```
//!
//! # Indices and values on the device
//!
//! A GPU tensor of integers ([`GpuIndex`]: `i32`, `u32`, and `i64`, `u64`
//! where the runtime has them) indexes wherever an integer array does, in
//! `nd(..)`, `along(..)` and `; batch = k` too, and a GPU tensor is a
//! value, so a pipeline whose indices a kernel computes never copies them
//! to the host:
//!
//! ```
//! # #[cfg(feature = "wgpu")] {
//! use ndarray::array;
//! use tensor_at::{along, at};
//! use tensor_gpu::{Gpu, GpuTensor};
//!
//! # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
//! let gpu = Gpu::wgpu()?;
//! let mut sums = GpuTensor::from_array(&gpu, &ndarray::Array2::<f32>::zeros((2, 3)))?;
//! let labels = GpuTensor::from_array(&gpu, &array![1, 0, 1])?; //    on the device (an argmax's, say)
//! let points = GpuTensor::from_array(&gpu, &array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])?;
//! at!(sums[labels] += points); //                                     index_add_, nothing read back but a flag
//! let picks = GpuTensor::from_array(&gpu, &array![[2], [0]])?;
//! let picked = at!(sums[along(picks, 1)]); //                        torch.gather(sums, 1, picks)
//! assert_eq!(sums.to_array()?, array![[4.0, 5.0, 6.0], [8.0, 10.0, 12.0]].into_dyn());
//! assert_eq!(picked.to_array()?, array![[6.0], [8.0]].into_dyn());
//! # }
//! # Ok::<(), tensor_gpu::GpuError>(())
//! ```
//!
//! The host plans such a call from the shapes alone (each device array
//! stands in as zeros of its shape, so tensor-core checks every rule but
//! the arrays' bounds, in NumPy's order). Then kernels check the bounds
//! (mode `error`: the first offending position of each array is read back,
//! 4 bytes, before anything is written, and an error is the CPU's) and
//! fold the arrays' positions, resolved by the mode, into the offset table
//! the write or gather reads. In modes `clip`, `wrap`, `drop` and `fill`
//! nothing crosses: the descriptions of a call's shapes (and its scalar
//! values) are uploaded the first time and kept on the device. A
//! zero-dimensional device index, and `nd` of one point, index like
//! integers: their values are read back.
//!
//! Indices from a kernel of your own (an argmax, a sort, a sampler) become
//! a tensor with [`GpuTensor::from_handle`]; [`GpuTensor::arg`] passes a
//! tensor to such a kernel, written with [`cubecl`], re-exported here
//! (`tensor_at::gpu::cubecl`) so that the kernel and the tensor share one
//! cubecl. tensor-at's `kmeans_gpu` example does both.
//!
//! # Masks on the device
//!
//! Inside the brackets, a comparison on a GPU tensor (`g[h > 0.0]`, `h` of
//! any element type) builds a [`DeviceMask`] where one on an ndarray builds
//! a boolean array, and `&`, `|`, `^`, `!` combine them (their tensors
//! broadcast together, as in NumPy). Each expression shape compiles into
//! one kernel, which evaluates the mask inside the write's own pass: the
//! comparisons on the target itself, and those on other tensors of its
//! element type, in C order and of its shape. A comparison on any other
//! tensor (another element type, broadcast, strided, or sharing the
//! target's memory) is marked first, one flag per element, in a pass of
//! its own. Nothing of a mask crosses to the host but, where the
//! selection's size matters (a read, an array value, a mask beside other
//! index elements), its count: 4 bytes.
//!
//! ```
//! # #[cfg(feature = "wgpu")] {
//! use ndarray::array;
//! use tensor_at::at;
//! use tensor_gpu::{Gpu, GpuTensor};
//!
//! # if Gpu::wgpu().is_err() { return Ok(()) } // (skipped without a device)
//! let gpu = Gpu::wgpu()?;
//! let mut g = GpuTensor::from_array(&gpu, &array![[-1.0f32, 2.0], [3.0, -4.0]])?;
//! let labels = GpuTensor::from_array(&gpu, &array![[0, 1], [1, 1]])?;
//! at!(g[(g > 0.0) & (g < 2.5)] *= 10.0); //      one pass: predicate and write
//! at!(g[(labels == 1) & !(g > 0.0)] = 0.0); //    `labels` (i32) marked first, then one pass
//! let big = at!(g[g > 5.0]); //                   compaction, then a gather
//! assert_eq!(g.to_array()?, array![[-1.0, 20.0], [3.0, 0.0]].into_dyn());
//! assert_eq!(big.to_array()?, array![20.0].into_dyn());
//! # }
//! # Ok::<(), tensor_gpu::GpuError>(())
//! ```
//!
//! # How it runs
//!
//! Every read and update is prepared on the host by tensor-core's
//! [`prepare`](tensor_core::backend::prepare), the same code the CPU prepares with
//! (the mode, the index, the value's broadcast, the operands, in NumPy's
//! order), so every rule and every error is the CPU's and all of them are
//! raised before any kernel writes. The plan (a base
//! offset, strided axes and a table of advanced-index offsets) is uploaded
//! and executed by one kernel family per path:
//!
//! | path | kernels |
//! | --- | --- |
//! | basic read `x[1:3, ::-1]` | strided copy |
//! | basic write `x[1:3] op= v` | strided write (positions are distinct) |
//! | advanced read `x[idx]`, mode `fill` | gather |
//! | `x[idx] = v` | stable sort by destination, then the last occurrence of each destination writes |
//! | `x[idx] op= v` | stable sort by destination, then one unit per destination applies its occurrences in index order |
//! | `x[x < s] op= v`, `x[(x > a) & (x < b)] op= v`, scalar `v` | one fused pass (the mask's kernel, compiled per expression shape, and the write) |
//! | `x[x < s] = array`, `x[x < s]` read | prefix sum of the mask (compaction), then a write or a gather |
//! | `x[h > s]`, `h` another GPU tensor | as above, `h` read in the same pass (when of `x`'s type and shape, in C order; else marked first, one flag per position) |
//! | `x[h > s, 1:3]`: a device mask beside other elements | compaction into the selected coordinates, which index as `nd(coordinates)` |
//! | `x[idx]; batch = k`, `x[idx] op= v; batch = k`, one array into batches of one axis, or arrays beside integers, slices, `None`, `...` | tensor-core's one index of the whole tensor (`along`, or `arange`s on the batch axes), then that one call's kernels |
//! | `x[idx]; batch = k` read, other forms | every batch's region stacked into one, then one gather |
//! | `x[idx] op= v; batch = k`, other forms | every batch prepared and staged, then each batch's write as above |
//!
//! Duplicates are deterministic: `set` keeps the last occurrence in index
//! order, and accumulations apply every occurrence in index order, the
//! sequence of operations the CPU performs, so float sums are bitwise those
//! of tensor-core, run after run (no float atomics), where the driver's
//! arithmetic is IEEE 754's (lavapipe). A driver may divide less exactly
//! and flush subnormals, as WGSL allows and NVIDIA's Vulkan driver does:
//! there `/=`, and products through a subnormal, can differ in the last
//! bits, and NaNs can differ in sign. Float `pow` is refused
//! (GPU `pow` is not bitwise the CPU's), and `apply(f)` takes a host
//! closure, which no kernel can run: download, apply, upload instead.
//!
//! # Runtimes
//!
//! A runtime is one of cubecl's, compiled in by a feature that brings that
//! runtime alone; the features combine. In `tensor-at`'s terms:
//!
//! | `tensor-at` feature | runtime | constructors | element types |
//! | --- | --- | --- | --- |
//! | `gpu` | wgpu: Vulkan, Metal, DirectX 12 | [`Gpu::wgpu`], [`Gpu::vulkan`], [`Gpu::metal`], [`Gpu::dx12`] | `f32`, `i32`, `u32` (WGSL has no 64-bit types) |
//! | `cuda` | CUDA (NVIDIA) | `Gpu::cuda(index)` | also `f64`, `i64`, `u64` |
//! | `hip` | HIP (AMD, through ROCm) | `Gpu::hip(index)` | also `f64`, `i64`, `u64` |
//!
//! This crate's own features are `wgpu` (its default), `cuda` and `hip`;
//! `tensor-at` turns the default off, so that its `cuda` and `hip` build
//! without wgpu. A constructor exists only with its runtime's feature.
//! [`Gpu::wgpu`] takes the platform's own API: Metal on macOS and iOS,
//! DirectX 12 on Windows, Vulkan elsewhere. None of them falls back to
//! OpenGL, whose float atomics silently do nothing, as wgpu's automatic
//! choice would. The CUDA and HIP libraries are loaded when a device is
//! asked for: building with `cuda` or `hip` needs no vendor toolkit,
//! running does. Their first build downloads the LLVM cubecl compiles
//! their kernels with (cubecl-llvm's build script fetches the tracel-llvm
//! bundle from GitHub into `~/.local/share/tracel`). [`Gpu::from_client`]
//! takes a cubecl client set up by hand, on any runtime compiled in.
//!
//! `wgpu` is the default so that `cargo test --workspace` runs the kernels
//! on whatever Vulkan device exists, a real GPU or Mesa's software driver.
//!
//! # Without a GPU
//!
//! Mesa's lavapipe is a Vulkan device on the CPU. On Debian or Ubuntu:
//!
//! ```text
//! apt-get install mesa-vulkan-drivers libvulkan1 vulkan-tools
//! vulkaninfo --summary   # lists an llvmpipe device
//! cargo test -p tensor-gpu
//! ```
//!
//! The tests run on the device of [`Gpu::wgpu`] (on CUDA's first device
//! with `--features cuda`, on HIP's with `--features hip`), and skip, with
//! a message, when there is none, unless `TENSOR_AT_REQUIRE_GPU=1` is set,
//! which CI does.
//!
//! # Limits
//!
//! Positions and offsets are 32-bit on the device: a tensor or a selected
//! region holds at most `i32::MAX` elements ([`GpuError::TooLarge`]), and
//! the product of a shape's lengths other than zero is bounded alike, since
//! the strides of an empty tensor still span its other axes.
#![warn(missing_docs)]
// Unsafe code states its contract (ARCHITECTURE.md): a `# Safety` section
// on every `unsafe fn`, a `SAFETY:` comment on every block.
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
#![doc(test(attr(deny(warnings))))]

mod batched;
mod buffer;
mod device;
mod device_index;
mod element;
mod error;
mod indexable;
mod kernels;
mod layout;
mod mask;
mod read;
mod tensor;
mod value;
mod write;

pub use device::{Gpu, Transfers};
pub use device_index::GpuIndex;
pub use element::GpuElement;
pub use error::GpuError;
pub use mask::DeviceMask;
pub use tensor::GpuTensor;
pub use tensor_core::element::Compare;

/// The cubecl this crate is built on: write your own kernels with it, and
/// pass them tensors with [`GpuTensor::arg`].
pub use cubecl;
