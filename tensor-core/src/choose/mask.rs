//! The mask sugar's passes (`x[x < s] = v`, `x[x < s] op= v`): which build
//! of the fused pass runs, and the passes on every thread ([`WhereSplit`]),
//! offered the target's contiguous elements before the serial passes run.

#[cfg(all(threads, share_generics))]
use crate::element::Op;
use crate::element::{Arith, Compare};
#[cfg(threads)]
use crate::element::{Plain, as_arith, as_arith_mut, as_arith_slice};
use crate::exec::kernel::Kernel;
#[cfg(threads)]
use crate::exec::kernel::SetKernel;
#[cfg(all(threads, share_generics))]
use crate::exec::kernel::with_op;
use crate::exec::masked;
#[cfg(threads)]
use crate::exec::parallel::masked::Counts;
use crate::exec::sys::cpu::Isa;

#[cfg(threads)]
use super::bits::by_arith;
use super::{Machine, machine};

/// How the mask pass over a target's elements runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WhereStrategy {
    /// Few elements: the build every processor runs, since telling the
    /// instruction set costs more than the wider vectors save. The machine
    /// is not read.
    Baseline,
    /// The build for this processor's vectors, on one thread.
    Built(Isa),
    /// On `threads` threads, each running the build for this processor's
    /// vectors, where the elements are plain numbers and the predicate a
    /// single comparison (whose test can cross threads); as
    /// [`WhereStrategy::Built`] otherwise.
    Split {
        #[cfg_attr(not(threads), allow(dead_code))] // never chosen
        threads: usize,
        isa: Isa,
    },
}

impl WhereStrategy {
    /// The instruction set the serial passes are built for.
    #[inline]
    fn isa(self) -> Isa {
        match self {
            WhereStrategy::Baseline => Isa::baseline(),
            WhereStrategy::Built(isa) | WhereStrategy::Split { isa, .. } => isa,
        }
    }
}

/// How the mask pass over `len` contiguous elements runs on `machine`.
fn where_strategy(len: usize, machine: &Machine) -> WhereStrategy {
    if !machine::builds_mask_pass(len) {
        WhereStrategy::Baseline
    } else if machine.splits(len) {
        WhereStrategy::Split {
            threads: machine.threads,
            isa: machine.isa,
        }
    } else {
        WhereStrategy::Built(machine.isa)
    }
}

/// [`where_strategy`] for `len` elements, the machine read only where its
/// vectors may be used (a pass of many elements, whose split reads it where
/// it asks, at most twice a call: to count, then to write). Only the
/// length is tested inline.
#[inline]
fn read_where_strategy(len: usize) -> WhereStrategy {
    /// Past the length test.
    #[inline(never)]
    fn on_this_machine(len: usize) -> WhereStrategy {
        where_strategy(len, &Machine::now())
    }
    match machine::builds_mask_pass(len) {
        true => on_this_machine(len),
        false => WhereStrategy::Baseline,
    }
}

/// The fused mask pass with a scalar over contiguous elements, built for
/// `isa`. Out of line: the inlined caller stays the loop of few elements,
/// whose operands fold into it.
#[inline(never)]
pub(crate) fn write_slice_where<T, K: Kernel<T>>(elements: &mut [T], predicate: impl FnMut(&T) -> bool, value: &T, kernel: K, isa: Isa) {
    masked::write_slice_where(elements, predicate, value, kernel, isa);
}

/// The passes of the mask sugar that may run on every thread, offered its
/// contiguous elements before the serial passes run, and the build those
/// serial passes run ([`WhereSplit::builds`], [`WhereSplit::isa`]): each
/// pass on threads declines (with nothing done) unless the elements are
/// many plain numbers and the predicate a single comparison, whose test can
/// cross threads. Only the strategy is tested inline, and the operands go
/// on as copies: the serial pass the caller falls back to must stay small
/// enough to inline, and its operands unseen by code it cannot see, so that
/// they fold into its loop.
pub(crate) trait WhereSplit<T> {
    /// How the pass runs.
    fn strategy(&self) -> WhereStrategy;
    /// Whether the serial passes run the builds for this processor's
    /// vectors (and the passes on threads may split).
    #[inline]
    fn builds(&self) -> bool {
        self.strategy() != WhereStrategy::Baseline
    }
    /// The instruction set the serial passes are built for.
    #[inline]
    fn isa(&self) -> Isa {
        self.strategy().isa()
    }
    /// How many elements the predicate selects, counted on every thread
    /// (the pieces' counts kept for [`WhereSplit::write_values`]).
    fn count(&mut self, elements: &[T]) -> Option<usize>;
    /// Writes `value` into every selected element on every thread.
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool;
    /// Writes `values`, one per selected element in order, on every thread,
    /// after [`WhereSplit::count`] counted these elements.
    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool;
}

/// What both splits hold: the predicate as a comparison, when it is one,
/// the number of elements, and the pieces' counts once counted. The
/// strategy is worked out where it is asked for, from the length: a small
/// pass never reads the machine, and the struct holds words alone, which
/// its moves copy at full speed (an enum stored in it made a pass of 16
/// elements three times slower).
struct Where<'a, T> {
    #[cfg_attr(not(threads), allow(dead_code))] // it declines on one thread
    compare: Option<(Compare, &'a T)>,
    len: usize,
    #[cfg(threads)]
    counts: Option<Counts>,
}

impl<'a, T> Where<'a, T> {
    /// The split of a pass over `len` elements.
    #[inline]
    fn new(compare: Option<(Compare, &'a T)>, len: usize) -> Self {
        Where {
            compare,
            len,
            #[cfg(threads)]
            counts: None,
        }
    }

    /// How the pass runs.
    #[inline]
    fn strategy(&self) -> WhereStrategy {
        read_where_strategy(self.len)
    }

    /// The comparison, the threads and the instruction set, when the pass
    /// splits and its predicate is a comparison.
    #[cfg(threads)]
    #[inline]
    fn split(&self) -> Option<(Compare, &'a T, (usize, Isa))> {
        match (self.compare, self.strategy()) {
            (Some((compare, scalar)), WhereStrategy::Split { threads, isa }) => Some((compare, scalar, (threads, isa))),
            _ => None,
        }
    }

    /// [`WhereSplit::count`], for both splits: the elements are counted as
    /// the plain numbers they are, whatever bounds `T` carries.
    #[inline]
    fn count(&mut self, elements: &[T]) -> Option<usize> {
        #[cfg(threads)]
        {
            self.counts = self
                .split()
                .and_then(|(compare, scalar, run)| count_where_plain(elements, compare, scalar, run));
            self.counts.as_ref().map(Counts::total)
        }
        #[cfg(not(threads))]
        {
            let _ = elements;
            None
        }
    }
}

/// [`WhereSplit`] for `set`, on any element type (plain numbers are told
/// by type id).
pub(crate) struct SetWhereSplit<'a, T>(Where<'a, T>);

impl<'a, T> SetWhereSplit<'a, T> {
    /// The split of `x[x compare scalar] = v` over `len` elements, when the
    /// predicate is that.
    #[inline]
    pub(crate) fn new(compare: Option<(Compare, &'a T)>, len: usize) -> Self {
        SetWhereSplit(Where::new(compare, len))
    }
}

#[cfg_attr(not(threads), allow(unused_variables))]
impl<T: Clone> WhereSplit<T> for SetWhereSplit<'_, T> {
    #[inline]
    fn strategy(&self) -> WhereStrategy {
        self.0.strategy()
    }

    #[inline]
    fn count(&mut self, elements: &[T]) -> Option<usize> {
        self.0.count(elements)
    }

    #[inline]
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool {
        #[cfg(threads)]
        if let Some((compare, scalar, run)) = self.0.split()
            && Plain::<T>::of().is_some()
        {
            return set_where_split_plain(elements, compare, scalar.clone(), value.clone(), run);
        }
        false
    }

    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool {
        #[cfg(threads)]
        if let (Some((compare, scalar, (_, isa))), Some(counts)) = (self.0.split(), &self.0.counts) {
            return set_values_where_plain(elements, compare, scalar, values, counts, isa);
        }
        false
    }
}

/// [`WhereSplit`] for an accumulation by the kernel `K`.
pub(crate) struct UpdateWhereSplit<'a, T, K> {
    split: Where<'a, T>,
    #[cfg_attr(not(threads), allow(dead_code))] // it declines on one thread
    kernel: K,
}

impl<'a, T, K> UpdateWhereSplit<'a, T, K> {
    /// The split of `x[x compare scalar] op= v` over `len` elements, when
    /// the predicate is that, with `op`'s kernel.
    #[inline]
    pub(crate) fn new(compare: Option<(Compare, &'a T)>, kernel: K, len: usize) -> Self {
        UpdateWhereSplit {
            split: Where::new(compare, len),
            kernel,
        }
    }
}

#[cfg_attr(not(threads), allow(unused_variables))]
impl<T: Arith, K: Kernel<T> + Copy + Send + Sync> WhereSplit<T> for UpdateWhereSplit<'_, T, K> {
    #[inline]
    fn strategy(&self) -> WhereStrategy {
        self.split.strategy()
    }

    #[inline]
    fn count(&mut self, elements: &[T]) -> Option<usize> {
        self.split.count(elements)
    }

    #[inline]
    fn write_scalar(&self, elements: &mut [T], value: &T) -> bool {
        #[cfg(threads)]
        if let Some((compare, &scalar, run)) = self.split.split() {
            scalar_on_threads(elements, compare, scalar, *value, self.kernel, run);
            return true;
        }
        false
    }

    fn write_values(&self, elements: &mut [T], values: &[T]) -> bool {
        #[cfg(threads)]
        if let (Some((compare, &scalar, (_, isa))), Some(counts)) = (self.split.split(), &self.split.counts) {
            crate::exec::parallel::masked::write_values_where(elements, compare, scalar, values, counts, self.kernel, isa);
            return true;
        }
        false
    }
}

/// The pieces' counts of the elements that satisfy `compare scalar`, on
/// `run`'s threads with its instruction set, when they are plain numbers.
#[cfg(threads)]
#[inline(never)]
fn count_where_plain<T>(elements: &[T], compare: Compare, scalar: &T, run: (usize, Isa)) -> Option<Counts> {
    /// The count when `T` is `N`.
    fn typed<T, N: Arith>(elements: &[T], compare: Compare, scalar: &T, (threads, isa): (usize, Isa)) -> Option<Counts> {
        let (elements, &scalar) = (as_arith_slice::<T, N>(elements)?, as_arith::<T, N>(scalar)?);
        Some(crate::exec::parallel::masked::count_where(elements, compare, scalar, threads, isa))
    }
    by_arith!(T, typed(elements, compare, scalar, run))
}

/// [`SetWhereSplit::write_scalar`] past its strategy test: the split when
/// `T` is one of the plain numbers.
#[cfg(threads)]
#[inline(never)]
fn set_where_split_plain<T>(elements: &mut [T], compare: Compare, scalar: T, value: T, run: (usize, Isa)) -> bool {
    /// The split when `T` is `N`.
    fn typed<T, N: Arith>(elements: &mut [T], compare: Compare, scalar: &T, value: &T, run: (usize, Isa)) -> Option<bool> {
        let (elements, &scalar, &value) = (as_arith_mut::<T, N>(elements)?, as_arith::<T, N>(scalar)?, as_arith::<T, N>(value)?);
        scalar_on_threads(elements, compare, scalar, value, SetKernel::new(), run);
        Some(true)
    }
    let (scalar, value) = (&scalar, &value);
    by_arith!(T, typed(elements, compare, scalar, value, run)).unwrap_or(false)
}

/// [`SetWhereSplit::write_values`]: the values' write when `T` is one of
/// the plain numbers (as it is when `counts` were made).
#[cfg(threads)]
#[inline(never)]
fn set_values_where_plain<T>(elements: &mut [T], compare: Compare, scalar: &T, values: &[T], counts: &Counts, isa: Isa) -> bool {
    /// The write when `T` is `N`.
    fn typed<T, N: Arith>(elements: &mut [T], compare: Compare, scalar: &T, values: &[T], counts: &Counts, isa: Isa) -> Option<()> {
        let (elements, &scalar, values) = (
            as_arith_mut::<T, N>(elements)?,
            as_arith::<T, N>(scalar)?,
            as_arith_slice::<T, N>(values)?,
        );
        crate::exec::parallel::masked::write_values_where(elements, compare, scalar, values, counts, SetKernel::new(), isa);
        Some(())
    }
    by_arith!(T, typed(elements, compare, scalar, values, counts, isa)).is_some()
}

/// The scalar pass on `run`'s threads with its instruction set, for both
/// splits.
#[cfg(threads)]
#[inline(never)]
fn scalar_on_threads<T: Arith, K: Kernel<T> + Copy + Send + Sync>(
    elements: &mut [T],
    compare: Compare,
    scalar: T,
    value: T,
    kernel: K,
    (threads, isa): (usize, Isa),
) {
    crate::exec::parallel::masked::write_scalar_where(elements, compare, scalar, value, kernel, threads, isa);
}

/// The mask sugar's passes on threads for `T`, every operation's: named
/// by `common.rs`, so that unoptimized dependents link them rather than
/// compile their own for each element type. Never called: the threads and
/// instruction set it names only make the code.
#[cfg(all(threads, share_generics))]
pub(crate) fn where_splits<T: Arith>(elements: &mut [T], compare: Compare, scalar: T, op: Op) {
    let run = (1, Isa::baseline());
    set_where_split_plain(elements, compare, scalar, scalar, run);
    if let Some(counts) = count_where_plain(elements, compare, &scalar, run) {
        set_values_where_plain(elements, compare, &scalar, &[], &counts, run.1);
        with_op!(op, kernel => {
            scalar_on_threads(elements, compare, scalar, scalar, kernel, run);
            crate::exec::parallel::masked::write_values_where(elements, compare, scalar, &[], &counts, kernel, run.1);
        });
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, CowArray};

    use super::*;
    use crate::choose::rows::RowStores;
    use crate::element::Op;
    use crate::value::Value;

    /// `f()` on a pool of `threads` threads (on this one without `rayon`).
    fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        #[cfg(threads)]
        return rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f);
        #[cfg(not(threads))]
        {
            let _ = threads;
            f()
        }
    }

    /// The mask sugar's writes equal a plain loop on every path: few and
    /// many elements, one thread and two, a scalar and an array value,
    /// `set` and `+=`, plain numbers and elements that are not.
    #[test]
    fn mask_writes_equal_a_plain_loop_on_every_path() {
        // Few, many, and many split among threads (fewer under Miri, whose
        // thresholds shrink with them).
        let lens = if cfg!(miri) { [10, 100, 300] } else { [10, 1500, 1 << 17] };
        for len in lens {
            let x = Array1::from_iter((0..len).map(|k| ((k * 7919) % 1000) as f64 - 500.0));
            let selected = x.iter().filter(|&&e| e < 0.0).count();
            let values = Array1::from_iter((0..selected).map(|k| k as f64 * 0.5));
            let (mut set_scalar, mut set_values, mut add_scalar, mut add_values) = (x.clone(), x.clone(), x.clone(), x.clone());
            let mut k = 0;
            for (((e, s), v), (a, w)) in x
                .iter()
                .zip(&mut set_scalar)
                .zip(&mut set_values)
                .zip(add_scalar.iter_mut().zip(&mut add_values))
            {
                if *e < 0.0 {
                    (*s, *v, *a, *w) = (9.0, values[k], e + 9.0, e + values[k]);
                    k += 1;
                }
            }
            let array = || Value::Array(CowArray::from(values.view().into_dyn()));
            let compare = |scalar| (Some((Compare::Lt, scalar)), |e: &f64| *e < 0.0);
            for threads in [1, 2] {
                on_threads(threads, || {
                    let mut y = x.clone();
                    crate::api::set_where(y.view_mut(), compare(&0.0), Value::Scalar(9.0)).unwrap();
                    assert_eq!(y, set_scalar, "{len} elements, {threads} threads");
                    let mut y = x.clone();
                    crate::api::set_where(y.view_mut(), compare(&0.0), array()).unwrap();
                    assert_eq!(y, set_values, "{len} elements, {threads} threads");
                    let mut y = x.clone();
                    crate::api::update_where(y.view_mut(), compare(&0.0), Op::Add, Value::Scalar(9.0)).unwrap();
                    assert_eq!(y, add_scalar, "{len} elements, {threads} threads");
                    let mut y = x.clone();
                    crate::api::update_where(y.view_mut(), compare(&0.0), Op::Add, array()).unwrap();
                    assert_eq!(y, add_values, "{len} elements, {threads} threads");
                    // Elements that are no plain number stay on one thread.
                    let mut words = x.mapv(|e| e.to_string());
                    let zero = "0".to_owned();
                    let predicate = |e: &String| e.as_str() < "0";
                    crate::api::set_where(
                        words.view_mut(),
                        (Some((Compare::Lt, &zero)), predicate),
                        Value::Scalar("-".to_owned()),
                    )
                    .unwrap();
                    let expected = x.mapv(|e| {
                        if e.to_string().as_str() < "0" {
                            "-".to_owned()
                        } else {
                            e.to_string()
                        }
                    });
                    assert_eq!(words, expected, "{len} elements, {threads} threads");
                });
            }
        }
    }

    #[test]
    fn mask_passes_read_the_machine_only_for_many_elements() {
        let two = Machine {
            threads: 2,
            isa: Isa::detect(),
            l2: Some(1 << 20),
            rows: RowStores::Plain,
            plain_fills: false,
        };
        let one = Machine { threads: 1, ..two };
        let from = super::super::machine::MASK_PASS_BUILT_FROM;
        assert_eq!(where_strategy(from - 1, &two), WhereStrategy::Baseline);
        assert_eq!(where_strategy(from, &two), WhereStrategy::Built(two.isa));
        assert_eq!(where_strategy(1 << 20, &one), WhereStrategy::Built(one.isa));
        let split = match cfg!(threads) {
            true => WhereStrategy::Split { threads: 2, isa: two.isa },
            false => WhereStrategy::Built(two.isa),
        };
        assert_eq!(where_strategy(1 << 20, &two), split);
        assert_eq!(read_where_strategy(10), WhereStrategy::Baseline);
        assert_eq!(WhereStrategy::Baseline.isa(), Isa::baseline());
        assert_eq!(split.isa(), two.isa);
    }
}
