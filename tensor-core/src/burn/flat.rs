//! Reads and writes of a region of the tensor viewed as rows ([`Rows`]),
//! lowered to burn's own indexed operations so that autodiff
//! differentiates them. A region's positions are rows; a tensor whose
//! every axis is indexed is rows of one element.
//!
//! burn defines the gradients of `select`, of `select_assign` with `Add`,
//! and of `select_assign` with `Assign` over distinct positions; with
//! repeated positions it leaves `Assign`, `Mul`, `Min` and `Max`
//! undefined. So every write here reaches burn with distinct positions
//! only, as an `Add`, or with every occurrence of a position writing the
//! same values:
//! - `=` writes each position's last occurrence alone;
//! - `+=` and `-=` are one indexed add, which burn folds in index order;
//! - every other operation runs in rounds, each holding each position at
//!   most once, in index order: the gradient is then the product rule
//!   applied occurrence by occurrence, zeros included;
//! - `min` and `max` then share a tie's gradient equally among the target's
//!   element and every tied value ([`super::ties`]), as JAX does.
//!
//! [`Rows`]: super::rows::Rows

use crate::element::Op;
use burn_tensor::{Bool, DType, IndexingUpdateOp, Int, Tensor};

use super::device::DeviceRegion;
use super::host;
use super::kind::{BurnKind, positions, select_assign_rows, select_rows};
use super::region::Region;
use super::reshape::Reshaped;

/// The rows of `rows` at `region`, in its order; skipped ones read `fill`.
pub(crate) fn gather<K: BurnKind>(rows: Tensor<2, K>, region: Region, fill: Option<K::Elem>) -> Tensor<2, K> {
    let (device, row_len) = (rows.device(), rows.dims()[1]);
    if region.len() == 0 {
        return Tensor::empty([0, row_len], (&device, rows.dtype()));
    }
    if let Some(filled) = all_filled(&rows, region.len(), fill) {
        return filled;
    }
    let skipped = (fill.is_some() && !region.skipped.is_empty()).then(|| skipped_mask(&region, &device));
    let read = select_rows(rows, positions(region.offsets, &device));
    match (fill, skipped) {
        (Some(fill), Some(skipped)) => read.mask_fill(per_row(skipped, row_len), fill),
        _ => read,
    }
}

/// A read from no rows at all: every element was skipped (the plan
/// refuses it otherwise), and reads `fill`. burn's `select` cannot take
/// even a masked position there.
fn all_filled<K: BurnKind>(rows: &Tensor<2, K>, len: usize, fill: Option<K::Elem>) -> Option<Tensor<2, K>> {
    let [count, row_len] = rows.dims();
    let fill = fill.filter(|_| count == 0)?;
    Some(Tensor::full([len, row_len], fill, (&rows.device(), rows.dtype())))
}

/// The region's skipped elements as a mask on `device`.
fn skipped_mask(region: &Region, device: &burn_tensor::Device) -> Tensor<1, Bool> {
    let len = region.skipped.len();
    Tensor::from_data(burn_tensor::TensorData::new(region.skipped.clone(), [len]), device)
}

/// A flag per row as a mask over rows of `row_len`.
fn per_row(flags: Tensor<1, Bool>, row_len: usize) -> Tensor<2, Bool> {
    let len = flags.dims()[0];
    flags.shaped([len, 1]).expanded([len, row_len])
}

/// The positions of elements `at` of `region`, and their values; every
/// element's when `at` is `None`.
fn chosen<K: BurnKind>(region: Region, values: Tensor<2, K>, at: Option<Vec<usize>>) -> (Tensor<1, Int>, Tensor<2, K>) {
    let device = values.device();
    match at {
        None => (positions(region.offsets, &device), values),
        Some(at) => {
            let offsets = region.offsets_of(&at);
            let picks = positions(at.into_iter().map(|at| at as i64).collect(), &device);
            (positions(offsets, &device), select_rows(values, picks))
        }
    }
}

/// `rows[region] = values` (`op` `None`) or `rows[region] op= values`,
/// every occurrence in index order; `values` holds one row per region
/// element. The caller has checked that `op` runs on `K` (`K::has`).
pub(crate) fn write<K: BurnKind>(rows: Tensor<2, K>, region: Region, values: Tensor<2, K>, op: Option<Op>) -> Tensor<2, K> {
    match op {
        None => {
            let last = region.last_occurrences();
            if last.as_ref().is_some_and(Vec::is_empty) {
                return rows;
            }
            let (at, values) = chosen(region, values, last);
            K::assign(rows, at, values)
        }
        Some(op) if K::adds(op) => {
            let kept = region.kept_elements();
            if kept.as_ref().is_some_and(Vec::is_empty) {
                return rows;
            }
            let (at, values) = chosen(region, values, kept);
            let values = match op {
                Op::Sub => K::negated(values),
                _ => values,
            };
            select_assign_rows(rows, at, values, IndexingUpdateOp::Add)
        }
        Some(op @ (Op::Min | Op::Max)) => K::min_max(rows, &region, values, op),
        Some(op) => in_rounds(rows, &region, values, op),
    }
}

/// `rows[region] op= values`, one round of distinct positions at a time.
pub(crate) fn in_rounds<K: BurnKind>(mut rows: Tensor<2, K>, region: &Region, values: Tensor<2, K>, op: Op) -> Tensor<2, K> {
    let device = rows.device();
    let rounds = region.rounds();
    let whole = rounds.len() == 1 && rounds[0].len() == region.len();
    for round in &rounds {
        let at: Tensor<1, Int> = positions(region.offsets_of(round), &device);
        let current = select_rows(rows.clone(), at.clone());
        let value = if whole {
            values.clone()
        } else {
            values
                .clone()
                .select(0, positions(round.iter().map(|&at| at as i64).collect(), &device))
        };
        let combined = K::combine(current, op, value).expect("a supported operation");
        rows = K::assign(rows, at, combined);
    }
    rows
}

/// The rows of `rows` at positions computed on the device; skipped ones
/// read `fill`.
pub(crate) fn gather_on_device<K: BurnKind>(rows: Tensor<2, K>, at: DeviceRegion, fill: Option<K::Elem>) -> Tensor<2, K> {
    let row_len = rows.dims()[1];
    if at.len == 0 {
        return Tensor::empty([0, row_len], (&rows.device(), rows.dtype()));
    }
    if let Some(filled) = all_filled(&rows, at.len, fill) {
        return filled;
    }
    let read = select_rows(rows, at.positions);
    match (fill, at.skipped) {
        (Some(fill), Some(skipped)) => read.mask_fill(per_row(skipped, row_len), fill),
        _ => read,
    }
}

/// [`write()`] at positions computed on the device. `=` finds each
/// position's last occurrence there, `+=` and `-=` add with the skipped
/// values made the sum's identity, and the operations that run in rounds
/// run them there too, but for `min` and `max` with autodiff, whose
/// shared ties read the positions back once. Positions promised distinct
/// ([`unique`](super::unique)) and none skipped go to burn's own
/// operation, in one round.
pub(crate) fn write_on_device<K: BurnKind>(rows: Tensor<2, K>, at: DeviceRegion, values: Tensor<2, K>, op: Option<Op>) -> Tensor<2, K> {
    // No rows: the mode skipped every position (the plan refuses it
    // otherwise), and burn's indexed writes cannot take even a skipped one.
    if at.len == 0 || rows.dims()[0] == 0 {
        return rows;
    }
    // Promised distinct, or counted so.
    let distinct = (at.distinct || at.rounds == Some(1)) && at.skipped.is_none();
    match op {
        // Distinct positions: burn's own operations are right.
        None if distinct => K::assign(rows, at.positions, values),
        None => assign_on_device(rows, at, values),
        Some(op) if K::adds(op) => {
            let values = match op {
                Op::Sub => K::negated(values),
                _ => values,
            };
            let row_len = rows.dims()[1];
            let values = match at.skipped {
                Some(skipped) => values.mask_fill(per_row(skipped, row_len), K::ADD_IDENTITY),
                None => values,
            };
            select_assign_rows(rows, at.positions, values, IndexingUpdateOp::Add)
        }
        // The rounds were counted where they may run on the device (not a
        // tie's shared gradient, whose groups the host needs); past a few,
        // planning them on the host costs less (each round on the device
        // passes over every occurrence).
        Some(op) => match at.rounds {
            Some(_) if distinct => once_on_device(rows, at.positions, values, op),
            Some(rounds) if rounds <= ROUNDS_ON_DEVICE => rounds_on_device(rows, at, values, op, rounds),
            _ => write(rows, read_back(at), values, Some(op)),
        },
    }
}

/// The most rounds run on the device; past them, the positions are read
/// back and the host plans the rounds.
const ROUNDS_ON_DEVICE: usize = 4;

/// `rows[at] op= values` at positions computed on the device, in
/// `rounds` rounds of distinct positions, as [`in_rounds`] runs them:
/// round `r` applies each position's `r`-th occurrence. Within a round every occurrence of a position writes the
/// values its round's occurrence computed, so the order burn writes them
/// in does not matter; the others enter `op` as ones, so that no gradient
/// of theirs is a NaN. Skipped and finished occurrences write to a scratch
/// row past the end.
fn rounds_on_device<K: BurnKind>(rows: Tensor<2, K>, at: DeviceRegion, values: Tensor<2, K>, op: Op, rounds: usize) -> Tensor<2, K> {
    let (device, dtype, [len, row_len]) = (rows.device(), rows.dtype(), rows.dims());
    let (positions, live) = match at.skipped {
        Some(skipped) => (at.positions.mask_fill(skipped.clone(), len as i64), skipped.bool_not()),
        None => (at.positions, Tensor::<1, Bool>::full([at.len], true, &device)),
    };
    let scratch = Tensor::full([1, row_len], K::ADD_IDENTITY, (&device, dtype));
    let mut rows = Tensor::cat(vec![rows, scratch], 0);
    let none = at.len as i64;
    let numbers = Tensor::<1, Int>::arange(0..none, (&device, DType::I64));
    let mut remaining = live;
    for _ in 0..rounds {
        // Each position's first remaining occurrence (`none`: finished).
        let candidates = numbers.clone().mask_fill(remaining.clone().bool_not(), none);
        let first = Tensor::<1, Int>::full([len + 1], none, (&device, DType::I64))
            .select_assign(0, positions.clone(), candidates, IndexingUpdateOp::Min)
            .select(0, positions.clone());
        let wins = first.clone().equal(numbers.clone());
        let finished = first.clone().equal_elem(none);
        let at = positions.clone().mask_fill(finished, len as i64);
        let operands = values.clone().mask_fill(per_row(wins.clone().bool_not(), row_len), K::ONE);
        let combined = K::combine(select_rows(rows.clone(), at.clone()), op, operands).expect("a supported operation");
        let winners = K::detached(select_rows(combined.clone(), first.clamp_max(none - 1)));
        let written = winners.mask_where(per_row(wins.clone(), row_len), combined);
        rows = K::assign(rows, at, written);
        remaining = remaining.bool_and(wins.bool_not());
    }
    rows.slice(0..len)
}

/// `rows[at] op= values` at distinct positions, none skipped: one round,
/// burn's own `Mul` where it is `*=` (the same product, and burn's
/// gradient is right where no position repeats).
fn once_on_device<K: BurnKind>(rows: Tensor<2, K>, at: Tensor<1, Int>, values: Tensor<2, K>, op: Op) -> Tensor<2, K> {
    if op == Op::Mul {
        return select_assign_rows(rows, at, values, IndexingUpdateOp::Mul);
    }
    let combined = K::combine(select_rows(rows.clone(), at.clone()), op, values).expect("a supported operation");
    K::assign(rows, at, combined)
}

/// `rows[at] = values` at positions computed on the device: every
/// occurrence of a position writes the values of its last occurrence, so
/// the order burn writes repeated positions in does not matter, and the
/// gradient reaches those values alone. A skipped occurrence writes to a
/// scratch row past the end.
fn assign_on_device<K: BurnKind>(rows: Tensor<2, K>, at: DeviceRegion, values: Tensor<2, K>) -> Tensor<2, K> {
    let (device, dtype, [len, row_len]) = (rows.device(), rows.dtype(), rows.dims());
    let (rows, positions) = match at.skipped {
        Some(skipped) => (
            Tensor::cat(vec![rows, Tensor::full([1, row_len], K::ADD_IDENTITY, (&device, dtype))], 0),
            at.positions.mask_fill(skipped, len as i64),
        ),
        None => (rows, at.positions),
    };
    // Numbers as narrow as they fit: the buffer below has a number for
    // every row of the target.
    let numbers_dtype = if i32::try_from(at.len).is_ok() { DType::I32 } else { DType::I64 };
    let numbers = Tensor::<1, Int>::arange(0..at.len as i64, (&device, numbers_dtype));
    // Each position's last occurrence: the largest of its occurrences'
    // numbers.
    let last = Tensor::<1, Int>::full([rows.dims()[0]], -1, (&device, numbers_dtype))
        .select_assign(0, positions.clone(), numbers.clone(), IndexingUpdateOp::Max)
        .select(0, positions.clone());
    let wins = per_row(last.clone().equal(numbers), row_len);
    let written = K::detached(select_rows(values.clone(), last)).mask_where(wins, values);
    let written = K::assign(rows, positions, written);
    if written.dims()[0] == len { written } else { written.slice(0..len) }
}

/// Positions computed on the device, read back into a host region.
fn read_back(at: DeviceRegion) -> Region {
    let offsets = host::data(at.positions)
        .convert::<i64>()
        .try_into_vec::<i64>()
        .expect("positions are integers");
    let skipped = match at.skipped {
        Some(skipped) => host::data(skipped)
            .convert_dtype(burn_tensor::DType::Bool(burn_tensor::BoolStore::Native))
            .try_into_vec::<bool>()
            .expect("flags are booleans"),
        None => Vec::new(),
    };
    Region {
        shape: vec![offsets.len()],
        offsets,
        skipped,
        ..Region::default()
    }
}
