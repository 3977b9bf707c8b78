//! Shared by the GPU tests: the device (or a skip), and comparisons with
//! tensor-core, whose CPU results are the reference.
#![allow(dead_code)] // each part of the suite uses its own share

use ndarray::{ArrayD, IxDyn};
use tensor_core::backend::Dynamic;
use tensor_core::backend::{AnyMode, Indexable, IndexableMut};
use tensor_core::index::IndexElem;
use tensor_core::value::IntoValue;
use tensor_core::{IndexError, Op};
use tensor_gpu::{Gpu, GpuElement, GpuError, GpuTensor};

/// The device the tests run on, or `None` (with a message) when this
/// machine has none. With `TENSOR_AT_REQUIRE_GPU=1` (set in CI) a missing
/// device fails the test instead.
pub fn gpu() -> Option<Gpu> {
    match first_device() {
        Ok(gpu) => Some(gpu),
        Err(error) if std::env::var("TENSOR_AT_REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            panic!("TENSOR_AT_REQUIRE_GPU=1 but no device: {error}")
        }
        Err(error) => {
            eprintln!("skipped: no device ({error}); on Linux, mesa-vulkan-drivers gives wgpu one");
            None
        }
    }
}

/// The first CUDA device, where the `cuda` feature is on: the tests run on
/// the runtime asked for, the first of CUDA, HIP and wgpu compiled in.
#[cfg(feature = "cuda")]
fn first_device() -> Result<Gpu, GpuError> {
    Gpu::cuda(0)
}

/// The first HIP device (feature `hip`, without `cuda`).
#[cfg(all(feature = "hip", not(feature = "cuda")))]
fn first_device() -> Result<Gpu, GpuError> {
    Gpu::hip(0)
}

/// wgpu's device on the platform's own API (feature `wgpu` alone, the
/// default): Vulkan on Linux, lavapipe in CI.
#[cfg(all(feature = "wgpu", not(any(feature = "cuda", feature = "hip"))))]
fn first_device() -> Result<Gpu, GpuError> {
    Gpu::wgpu()
}

/// No runtime compiled in (`--no-default-features` alone).
#[cfg(not(any(feature = "wgpu", feature = "cuda", feature = "hip")))]
fn first_device() -> Result<Gpu, GpuError> {
    Err(GpuError::NoDevice(
        "no runtime compiled in: features `wgpu`, `cuda`, `hip`".to_string(),
    ))
}

/// `let gpu = device!();` or return from the test (skipped).
#[macro_export]
macro_rules! device {
    () => {
        match $crate::common::gpu() {
            Some(gpu) => gpu,
            None => return,
        }
    };
}

/// Runs `$body`, a macro call on `$t`, once on the host (`$t` a `&mut` of
/// a copy of the ndarray `$x`, each `$m` the host array of that name) and
/// once on the device (`$t` a `&mut` of a GPU tensor uploaded from `$x`,
/// each `$m` a GPU tensor of it); then checks that both targets hold the
/// same elements. Evaluates to both results, CPU first.
#[macro_export]
macro_rules! both {
    ($gpu:expr, $x:expr, |$t:ident| $body:expr) => {
        $crate::both!($gpu, $x, [], |$t| $body)
    };
    ($gpu:expr, $x:expr, [$($m:ident),*], |$t:ident| $body:expr) => {{
        let mut cpu = $x.clone();
        let cpu_result = {
            $(let $m = &$m;)*
            let $t = &mut cpu;
            $body
        };
        let mut on_gpu = $crate::common::upload(&$gpu, &$x);
        let gpu_result = {
            $(let $m = &$crate::common::upload(&$gpu, &$m);)*
            let $t = &mut on_gpu;
            $body
        };
        $crate::common::assert_same(&on_gpu.to_array().unwrap(), &cpu, stringify!($body));
        (cpu_result, gpu_result)
    }};
}

/// Floats of `shape` drawn from [`Lcg`] seeded with `seed`.
pub fn floats(shape: &[usize], seed: u64) -> ArrayD<f32> {
    let mut rng = Lcg(seed);
    ndarray::Array::from_shape_simple_fn(ndarray::IxDyn(shape), || rng.float())
}

/// The bytes of an array in C order: floats compare bit for bit (NaN and
/// the sign of zero included).
pub fn bits<T: GpuElement>(array: &ArrayD<T>) -> Vec<u8> {
    let contiguous = array.as_standard_layout();
    T::as_bytes(contiguous.as_slice().expect("standard layout")).to_vec()
}

/// Panics unless both arrays have the same shape and bits.
#[track_caller]
pub fn assert_same<T: GpuElement>(gpu: &ArrayD<T>, cpu: &ArrayD<T>, what: &str) {
    assert_eq!(gpu.shape(), cpu.shape(), "{what}: shapes");
    if bits(gpu) != bits(cpu) {
        let first = gpu
            .iter()
            .zip(cpu.iter())
            .position(|(g, c)| T::as_bytes(&[*g]) != T::as_bytes(&[*c]))
            .unwrap_or(0);
        panic!(
            "{what}: GPU and CPU differ first at flat position {first}: {:?} vs {:?}",
            gpu.iter().nth(first),
            cpu.iter().nth(first)
        );
    }
}

/// Panics unless the GPU outcome is the CPU's: both succeeded, or both
/// failed with the same index error.
#[track_caller]
pub fn assert_same_outcome<A, B>(gpu: &Result<A, GpuError>, cpu: &Result<B, IndexError>, what: &str) -> bool {
    match (gpu, cpu) {
        (Ok(_), Ok(_)) => true,
        (Err(GpuError::Index(g)), Err(c)) => {
            assert_eq!(g, c, "{what}: errors");
            false
        }
        (Err(g), Ok(_)) => panic!("{what}: the GPU failed ({g}) where the CPU succeeded"),
        (Ok(_), Err(c)) => panic!("{what}: the GPU succeeded where the CPU failed ({c})"),
        (Err(g), Err(c)) => panic!("{what}: GPU error {g:?}, CPU error {c:?}"),
    }
}

/// Uploads `array`.
pub fn upload<T: GpuElement>(gpu: &Gpu, array: &ArrayD<T>) -> GpuTensor<T> {
    GpuTensor::from_array(gpu, array).expect("upload")
}

/// A deterministic pseudo-random stream (tests must not depend on a crate
/// for this, and must repeat).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next value in `0..bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }

    /// A float in `[-1, 1)` with a varied exponent (sums of them round).
    pub fn float(&mut self) -> f32 {
        let mantissa = self.below(1 << 24) as f32 / (1 << 23) as f32 - 1.0;
        mantissa * [1.0, 1e-3, 1e3, 0.1][self.below(4) as usize]
    }
}

/// The GPU tensor's reads and writes in any mode, through the backend
/// traits the macros call (the public methods take `Mode` or `ReadMode`):
/// the tests run every mode on both backends, the meaningless ones
/// included, and compare the errors.
pub trait InAnyMode<T> {
    /// `self[index]` in `mode`.
    fn get_in(&self, index: &[IndexElem<'_>], mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError>;
    /// `self[index]` with `batch` leading axes paired, in `mode`.
    fn get_batched_in(&self, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError>;
    /// `self[index] = value` in `mode`.
    fn set_in<'v>(&mut self, index: &[IndexElem<'_>], value: impl IntoValue<'v, T>, mode: AnyMode<T>) -> Result<(), GpuError>
    where
        T: 'v;
    /// `self[index] op= value` in `mode`.
    fn update_in<'v>(&mut self, index: &[IndexElem<'_>], op: Op, value: impl IntoValue<'v, T>, mode: AnyMode<T>) -> Result<(), GpuError>
    where
        T: 'v;
    /// `self[index] = value` with `batch` leading axes paired, in `mode`.
    fn set_batched_in<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError>
    where
        T: 'v;
    /// `self[index] op= value` with `batch` leading axes paired, in `mode`.
    fn update_batched_in<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError>
    where
        T: 'v;
}

impl<T: GpuElement> InAnyMode<T> for GpuTensor<T> {
    fn get_in(&self, index: &[IndexElem<'_>], mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        self.get_batched_in(index, 0, mode)
    }
    fn get_batched_in(&self, index: &[IndexElem<'_>], batch: usize, mode: AnyMode<T>) -> Result<GpuTensor<T>, GpuError> {
        Indexable::read_index::<Dynamic, IxDyn>(self, index, batch, mode)
    }
    fn set_in<'v>(&mut self, index: &[IndexElem<'_>], value: impl IntoValue<'v, T>, mode: AnyMode<T>) -> Result<(), GpuError>
    where
        T: 'v,
    {
        self.set_batched_in(index, 0, value, mode)
    }
    fn update_in<'v>(&mut self, index: &[IndexElem<'_>], op: Op, value: impl IntoValue<'v, T>, mode: AnyMode<T>) -> Result<(), GpuError>
    where
        T: 'v,
    {
        self.update_batched_in(index, 0, op, value, mode)
    }
    fn set_batched_in<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError>
    where
        T: 'v,
    {
        IndexableMut::set_index(self, index, batch, value.into_value(), mode)
    }
    fn update_batched_in<'v>(
        &mut self,
        index: &[IndexElem<'_>],
        batch: usize,
        op: Op,
        value: impl IntoValue<'v, T>,
        mode: AnyMode<T>,
    ) -> Result<(), GpuError>
    where
        T: 'v,
    {
        IndexableMut::update_index(self, index, batch, op, value.into_value(), mode)
    }
}
