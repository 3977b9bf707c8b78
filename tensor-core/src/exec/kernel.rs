//! What an update does to one element, as a type: in optimized builds the
//! loops are monomorphized per common operation, so no `match op` runs per
//! element.

use crate::element::{self, Arith, Bits, Op, Plain, Width};
use crate::exec::sys::blend;
use crate::exec::sys::cpu::Isa;
use crate::exec::sys::stream::{self, Fence};

/// One update: combines a target element with its value.
pub(crate) trait Kernel<T> {
    /// Whether the updates may be applied in runs to partials from an
    /// identity and folded in order (`exec::partitioned`); else they are
    /// split by destination (`exec::split`). A constant, so that the path
    /// a kernel cannot take is not compiled for it.
    #[cfg_attr(not(threads), allow(dead_code, reason = "the parallel paths ask"))]
    const REGROUPS: bool = false;
    /// Whether the operands need checking first (`Arith::checks_operands`),
    /// so that `apply_where` must not compute on unselected elements.
    /// Only the form of `apply_where` reads it: the checks themselves run
    /// in `prepare`, for any kernel, from the operation.
    #[cfg_attr(
        unoptimized,
        allow(dead_code, reason = "only `OpKernel` sets it, and unoptimized builds have none")
    )]
    const CHECKS_OPERANDS: bool = false;
    /// Whether `apply` replaces the target with its value (a set) instead
    /// of combining the two: for plain numbers, a store that no load of the
    /// target comes before, and which a scatter past the cache therefore
    /// asks for ahead (`scatter::write_row`).
    const REPLACES: bool = false;

    /// `target op= value`.
    fn apply(&mut self, target: &mut T, value: &T);

    /// A contiguous run of targets with their values (the same as calling
    /// `apply` on each pair; `set` copies the run at once).
    #[inline]
    fn apply_run(&mut self, targets: &mut [T], values: &[T]) {
        for (target, value) in targets.iter_mut().zip(values) {
            self.apply(target, value);
        }
    }

    /// `run[2 * k] op= values[k]` for every `k`: every other element of a
    /// run (the same as calling `apply` on each pair; `set` may write the
    /// elements between back as they were).
    ///
    /// # Safety
    ///
    /// `run` points at the first of `2 * values.len() - 1` elements of one
    /// allocation (none when `values` is empty); those at even positions
    /// are valid for reads and writes, and nothing else accesses them
    /// during the call. The caller guarantees nothing about those between:
    /// a kernel writes them only where it was built with that promise
    /// ([`SetKernel::streaming`], `every_other`).
    #[inline]
    unsafe fn apply_every_other(&mut self, run: *mut T, values: &[T]) {
        // SAFETY: the caller's guarantee, passed on.
        unsafe { every_other_one_by_one(self, run, values) }
    }

    /// A contiguous run of targets all taking `value`.
    #[inline]
    fn fill_run(&mut self, targets: &mut [T], value: &T) {
        for target in targets {
            self.apply(target, value);
        }
    }

    /// Whether the kernel streams its writes past the cache: a writer that
    /// may reach a destination twice orders the first write
    /// ([`stream::order`]) before the second.
    #[inline]
    fn streams(&self) -> Option<&Fence> {
        None
    }

    /// `apply` where `selected`, else nothing: the fused mask path. Kernels
    /// on plain data override it without a branch, so the loop vectorizes.
    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if selected {
            self.apply(target, value);
        }
    }
}

/// [`Kernel::apply_every_other`] one element at a time.
///
/// # Safety
///
/// As [`Kernel::apply_every_other`].
#[inline]
unsafe fn every_other_one_by_one<T, K: Kernel<T> + ?Sized>(kernel: &mut K, run: *mut T, values: &[T]) {
    for (k, value) in values.iter().enumerate() {
        // SAFETY: position `2 * k` of the run (the caller's guarantee); the
        // reference lives for the call.
        kernel.apply(unsafe { &mut *run.add(2 * k) }, value);
    }
}

/// `x[i] = v`: plain stores, or, for a large update, streaming ones where
/// they pay (see [`Streaming`]).
pub(crate) struct SetKernel<'f, T> {
    streaming: Option<Streaming<'f, T>>,
}

impl<T> Clone for SetKernel<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SetKernel<'_, T> {}

impl<T> SetKernel<'static, T> {
    /// Plain stores (and `Clone`).
    pub(crate) fn new() -> Self {
        SetKernel { streaming: None }
    }
}

impl<'f, T> SetKernel<'f, T> {
    /// Streaming stores for the runs `streaming` takes, plain ones for the rest.
    ///
    /// # Safety
    ///
    /// The kernel writes on the thread that drops `streaming.fence`, and
    /// only before it drops; nothing reads what it wrote before then; its
    /// user writes each destination once, or calls [`stream::order`]
    /// before writing one again (see [`Kernel::streams`]); and where
    /// `streaming.every_other`, the elements between the positions of each
    /// lane it hands [`Kernel::apply_every_other`] are the target's own,
    /// which nothing else accesses during the update.
    pub(crate) unsafe fn streaming(streaming: Streaming<'f, T>) -> Self {
        SetKernel {
            streaming: Some(streaming),
        }
    }
}

/// How a large `set` of plain numbers streams past the cache: contiguous
/// runs of at least `min_row` values copied, and of at least `min_fill`
/// elements filled, ordered by `fence`. Shorter runs would stream partial
/// cache lines, which costs more than it saves.
pub(crate) struct Streaming<'f, T> {
    /// The proof that the elements are plain numbers.
    pub(crate) plain: Plain<T>,
    /// The instruction sets the stores may use.
    pub(crate) isa: Isa,
    /// The fence the caller drops after the update.
    pub(crate) fence: &'f Fence,
    /// The shortest run of values to copy streamed.
    pub(crate) min_row: usize,
    /// The shortest run to fill streamed.
    pub(crate) min_fill: usize,
    /// Whether every other element of a lane may be set a line at a time,
    /// the elements between written back as they were
    /// ([`Kernel::apply_every_other`]): only where those are elements of
    /// the target's own contiguous lanes, which the update borrows and no
    /// other lane's span reaches.
    pub(crate) every_other: bool,
}

impl<T> Clone for Streaming<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Streaming<'_, T> {}

impl<T> Streaming<'_, T> {
    /// Copies `values` over `targets` streamed, when long enough: `false`
    /// (nothing done) otherwise.
    #[inline]
    fn copy(&self, targets: &mut [T], values: &[T]) -> bool {
        if targets.len() < self.min_row {
            return false;
        }
        match self.plain.width() {
            Width::Bits32 => self.copy_bits::<u32>(targets, values),
            Width::Bits64 => self.copy_bits::<u64>(targets, values),
        }
    }

    #[inline]
    fn copy_bits<B: Bits>(&self, targets: &mut [T], values: &[T]) -> bool {
        match (self.plain.bits_mut::<B>(targets), self.plain.bits::<B>(values)) {
            (Some(targets), Some(values)) => {
                // SAFETY: the contract of `SetKernel::streaming`.
                unsafe { stream::copy(targets, values, self.isa, self.fence) };
                true
            }
            _ => false,
        }
    }

    /// `run[2 * k] = values[k]` for every `k`, a whole line at a time, when
    /// the elements are plain numbers: `false` (nothing done) otherwise.
    ///
    /// # Safety
    ///
    /// As [`Kernel::apply_every_other`], and the elements between are the
    /// target's own, which nothing else accesses during the call.
    unsafe fn set_every_other(&self, run: *mut T, values: &[T]) -> bool {
        // SAFETY: the caller's guarantee, passed on.
        unsafe { self.set_every_other_bits::<u32>(run, values) || self.set_every_other_bits::<u64>(run, values) }
    }

    /// # Safety
    ///
    /// As [`Streaming::set_every_other`].
    unsafe fn set_every_other_bits<B: Bits>(&self, run: *mut T, values: &[T]) -> bool {
        let Some(values) = self.plain.bits::<B>(values) else {
            return false;
        };
        // SAFETY: `T` is a plain number of `B`'s width (the proof, and the
        // test `bits` just made), so the run is a run of `B`; the caller's
        // guarantee on it, passed on.
        unsafe { blend::set_every_other(run.cast::<B>(), values, self.isa) };
        true
    }

    /// Fills `targets` with `value` streamed, when long enough: `false`
    /// (nothing done) otherwise.
    fn fill(&self, targets: &mut [T], value: &T) -> bool {
        targets.len() >= self.min_fill && (self.fill_bits::<u32>(targets, value) || self.fill_bits::<u64>(targets, value))
    }

    fn fill_bits<B: Bits>(&self, targets: &mut [T], value: &T) -> bool {
        match (self.plain.bits_mut::<B>(targets), self.plain.bits::<B>(std::slice::from_ref(value))) {
            (Some(targets), Some(&[value])) => {
                // SAFETY: the contract of `SetKernel::streaming`.
                unsafe { stream::fill(targets, value, self.isa, self.fence) };
                true
            }
            _ => false,
        }
    }
}

impl<T: Clone> Kernel<T> for SetKernel<'_, T> {
    const REPLACES: bool = true;

    #[inline]
    fn streams(&self) -> Option<&Fence> {
        self.streaming.as_ref().map(|streaming| streaming.fence)
    }

    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        target.clone_from(value);
    }

    #[inline]
    fn apply_run(&mut self, targets: &mut [T], values: &[T]) {
        if !self.streaming.is_some_and(|streaming| streaming.copy(targets, values)) {
            targets.clone_from_slice(values);
        }
    }

    #[inline]
    unsafe fn apply_every_other(&mut self, run: *mut T, values: &[T]) {
        // A large set of plain numbers (the one that streams its runs)
        // writes whole lines where it may; any other, element by element.
        // SAFETY: the caller's guarantee for the positions updated; for
        // those between, `every_other`, which the caller of
        // `SetKernel::streaming` promised.
        let lines = self
            .streaming
            .is_some_and(|streaming| streaming.every_other && unsafe { streaming.set_every_other(run, values) });
        if !lines {
            // SAFETY: the caller's guarantee, passed on.
            unsafe { every_other_one_by_one(self, run, values) }
        }
    }

    fn fill_run(&mut self, targets: &mut [T], value: &T) {
        if !self.streaming.is_some_and(|streaming| streaming.fill(targets, value)) {
            targets.fill(value.clone());
        }
    }

    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if std::mem::needs_drop::<T>() {
            if selected {
                target.clone_from(value);
            }
        } else {
            // Plain data: a select, not a branch (a mask is as good as
            // random to a branch predictor).
            *target = std::hint::select_unpredictable(selected, value.clone(), target.clone());
        }
    }
}

/// An operation fixed at compile time (see [`with_op!`]).
#[cfg_attr(unoptimized, allow(dead_code, reason = "`with_op!` names it in optimized builds only"))]
pub(crate) trait ConstOp {
    /// The operation.
    const OP: Op;
}

/// `x[i] op= v`, `op` known at compile time.
#[cfg_attr(unoptimized, allow(dead_code, reason = "`with_op!` names it in optimized builds only"))]
#[derive(Clone, Copy)]
pub(crate) struct OpKernel<O>(std::marker::PhantomData<O>);

impl<O> OpKernel<O> {
    #[cfg_attr(unoptimized, allow(dead_code, reason = "`with_op!` names it in optimized builds only"))]
    pub(crate) fn new() -> Self {
        OpKernel(std::marker::PhantomData)
    }
}

impl<T: Arith, O: ConstOp> Kernel<T> for OpKernel<O> {
    const REGROUPS: bool = element::regroups(O::OP, T::INTEGER);
    const CHECKS_OPERANDS: bool = T::CHECKED & element::bit(O::OP) != 0;

    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        *target = target.combine(O::OP, *value);
    }

    #[inline]
    fn apply_where(&mut self, selected: bool, target: &mut T, value: &T) {
        if <Self as Kernel<T>>::CHECKS_OPERANDS {
            // Integer division must not run on unselected
            // elements: their operand was only checked for selected ones.
            if selected {
                self.apply(target, value);
            }
        } else {
            *target = std::hint::select_unpredictable(selected, target.combine(O::OP, *value), *target);
        }
    }
}

/// The kernel of `pow`, `%=`, `&=`, `|=` and `^=` (and of any operation
/// the others do not name; of every operation in unoptimized builds), told
/// its operation at run time.
#[derive(Clone, Copy)]
pub(crate) struct RareOpKernel(Op);

impl RareOpKernel {
    /// The kernel of `op`.
    pub(crate) fn new(op: Op) -> Self {
        RareOpKernel(op)
    }
}

impl<T: Arith> Kernel<T> for RareOpKernel {
    #[inline]
    fn apply(&mut self, target: &mut T, value: &T) {
        *target = target.combine(self.0, *value);
    }
}

macro_rules! const_ops {
    ($($name:ident => $op:ident),*) => {$(
        #[cfg_attr(unoptimized, allow(dead_code, reason = "`with_op!` names it in optimized builds only"))]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;
        impl ConstOp for $name {
            const OP: Op = Op::$op;
        }
    )*};
}
const_ops!(AddOp => Add, SubOp => Sub, MulOp => Mul, DivOp => Div, MinOp => Min, MaxOp => Max);

/// Runs `$body` with `$kernel` bound to the [`OpKernel`] of the run-time `$op`
/// ([`RareOpKernel`] for the rest).
#[cfg(not(unoptimized))]
macro_rules! with_op {
    ($op:expr, $kernel:ident => $body:expr) => {{
        use $crate::exec::kernel::*;
        match $op {
            $crate::Op::Add => {
                let $kernel = OpKernel::<AddOp>::new();
                $body
            }
            $crate::Op::Sub => {
                let $kernel = OpKernel::<SubOp>::new();
                $body
            }
            $crate::Op::Mul => {
                let $kernel = OpKernel::<MulOp>::new();
                $body
            }
            $crate::Op::Div => {
                let $kernel = OpKernel::<DivOp>::new();
                $body
            }
            $crate::Op::Min => {
                let $kernel = OpKernel::<MinOp>::new();
                $body
            }
            $crate::Op::Max => {
                let $kernel = OpKernel::<MaxOp>::new();
                $body
            }
            // The operations NumPy users write least share one kernel, told
            // the operation at run time: one more body for each call, not five.
            // `pow` is among them: a power costs far more than the match.
            op => {
                let $kernel = RareOpKernel::new(op);
                $body
            }
        }
    }};
}
/// Runs `$body` with `$kernel` bound to the [`RareOpKernel`] of `$op`: in
/// unoptimized builds, every operation's. A build that inlines nothing
/// gains little from a body per operation (it loses the threaded
/// accumulation of regroupable operations, `Kernel::REGROUPS`, which a
/// debug build does not need), and each one is thousands of functions more
/// to compile and link in every dependent.
#[cfg(unoptimized)]
macro_rules! with_op {
    ($op:expr, $kernel:ident => $body:expr) => {{
        let $kernel = $crate::exec::kernel::RareOpKernel::new($op);
        $body
    }};
}
pub(crate) use with_op;

#[cfg(test)]
mod tests {
    use super::{Kernel, SetKernel, Streaming};
    use crate::element::Plain;
    use crate::exec::sys::cpu::Isa;
    use crate::exec::sys::stream::{self, Fence};

    /// Streamed runs, plain runs and runs of types that are not plain
    /// numbers all equal the plain result; runs below the minimums are not
    /// streamed (their neighbours untouched either way).
    fn streams_like_plain_stores<T: Clone + PartialEq + std::fmt::Debug>(
        value: T,
        canary: T,
        source: impl Fn(usize) -> T,
        plain: Option<Plain<T>>,
    ) {
        // (Under Miri, whose machine has the baseline only, once.)
        let isas = if cfg!(miri) {
            &[Isa::baseline()][..]
        } else {
            &[Isa::baseline(), Isa::detect()]
        };
        for &isa in isas {
            let fence = Fence;
            let mut kernels = vec![SetKernel::new()];
            if let Some(plain) = plain {
                let streaming = |min, every_other| Streaming {
                    plain,
                    isa,
                    fence: &fence,
                    min_row: min,
                    min_fill: min,
                    every_other,
                };
                // SAFETY: each buffer below is written once, on this thread,
                // and read only after `stream::order`.
                kernels.extend(unsafe {
                    [
                        SetKernel::streaming(streaming(0, true)),
                        SetKernel::streaming(streaming(64, true)),
                        SetKernel::streaming(streaming(0, false)),
                    ]
                });
            }
            for mut kernel in kernels {
                // (A shorter long run under Miri, which interprets each step.)
                for len in [0, 1, 7, 63, 64, 65, if cfg!(miri) { 131 } else { 1001 }] {
                    for offset in 0..5 {
                        let mut buffer = vec![canary.clone(); offset + len + 2];
                        kernel.fill_run(&mut buffer[offset..offset + len], &value);
                        if let Some(fence) = kernel.streams() {
                            stream::order(fence);
                        }
                        assert!(buffer[offset..offset + len].iter().all(|v| *v == value), "fill {len} at {offset}");
                        assert!(buffer[..offset].iter().chain(&buffer[offset + len..]).all(|v| *v == canary));
                        let values: Vec<T> = (0..len).map(&source).collect();
                        let mut buffer = vec![canary.clone(); offset + len + 2];
                        kernel.apply_run(&mut buffer[offset..offset + len], &values);
                        if let Some(fence) = kernel.streams() {
                            stream::order(fence);
                        }
                        assert_eq!(&buffer[offset..offset + len], values.as_slice(), "copy {len} at {offset}");
                        assert!(buffer[..offset].iter().chain(&buffer[offset + len..]).all(|v| *v == canary));
                        // Every other element: the values at even places,
                        // the elements between and around as they were
                        // (under Miri, the short runs: its element loop).
                        if cfg!(miri) && len > 7 {
                            continue;
                        }
                        let between = |k: usize| source(k + 1000);
                        let mut buffer: Vec<T> = (0..offset + 2 * len + 2).map(between).collect();
                        let mut expected = buffer.clone();
                        for (k, value) in values.iter().enumerate() {
                            expected[offset + 2 * k] = value.clone();
                        }
                        // SAFETY: from `offset`, `buffer` holds `2 * len + 2`
                        // elements, borrowed by nothing else.
                        unsafe { kernel.apply_every_other(buffer.as_mut_ptr().add(offset), &values) };
                        assert_eq!(buffer, expected, "every other of {len} at {offset}");
                    }
                }
            }
        }
    }

    #[test]
    fn streamed_sets_equal_plain_sets() {
        streams_like_plain_stores(-1.5f32, 7.0, |k| k as f32 * 0.5, Plain::of());
        streams_like_plain_stores(2.25f64, 7.0, |k| k as f64 - 3.0, Plain::of());
        streams_like_plain_stores(-7i32, 99, |k| k as i32, Plain::of());
        streams_like_plain_stores(u64::MAX, 5, |k| k as u64 * 3, Plain::of());
        streams_like_plain_stores(usize::MAX - 1, 5, |k| k, Plain::of());
        // Not plain numbers: cloned, whatever the kernel.
        streams_like_plain_stores((1u8, 2u32), (0, 0), |k| (k as u8, k as u32), None);
        streams_like_plain_stores(String::from("v"), String::new(), |k| k.to_string(), None);
    }
}
