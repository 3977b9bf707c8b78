//! Reads and writes of a region of the tensor viewed as one axis, lowered
//! to burn's own indexed operations so that autodiff differentiates them.
//!
//! burn defines the gradients of `select`, of `select_assign` with `Add`,
//! and of `select_assign` with `Assign` over distinct positions; with
//! repeated positions it leaves `Assign`, `Mul`, `Min` and `Max`
//! undefined. So every write here reaches burn with distinct positions
//! only, or as an `Add`:
//! - `=` writes each position's last occurrence alone;
//! - `+=` and `-=` are one indexed add, which burn folds in index order;
//! - every other operation runs in rounds, each holding each position at
//!   most once, in index order: the gradient is then the product rule
//!   applied occurrence by occurrence, zeros included;
//! - `min` and `max` then share a tie's gradient equally among the target's
//!   element and every tied value ([`super::ties`]), as JAX does.

use crate::element::Op;
use burn_tensor::{IndexingUpdateOp, Int, Tensor};

use super::device::DeviceRegion;
use super::host;
use super::kind::{BurnKind, positions};
use super::region::Region;

/// The elements of `flat` at `region`, in its order; skipped ones read
/// `fill`.
pub(crate) fn gather<K: BurnKind>(flat: Tensor<1, K>, region: &Region, fill: Option<K::Elem>) -> Tensor<1, K> {
    let device = flat.device();
    if region.len() == 0 {
        return Tensor::empty([0], (&device, flat.dtype()));
    }
    let read = flat.select(0, positions(region.offsets.clone(), &device));
    match fill {
        Some(fill) if !region.skipped.is_empty() => read.mask_fill(skipped_mask(region, &device), fill),
        _ => read,
    }
}

/// The region's skipped elements as a mask on `device`.
fn skipped_mask(region: &Region, device: &burn_tensor::Device) -> Tensor<1, burn_tensor::Bool> {
    let len = region.skipped.len();
    Tensor::from_data(burn_tensor::TensorData::new(region.skipped.clone(), [len]), device)
}

/// The elements `at` of `tensor` (all of them when `every`).
fn pick<K: BurnKind>(tensor: Tensor<1, K>, at: &[usize], every: bool) -> Tensor<1, K> {
    if every {
        return tensor;
    }
    let device = tensor.device();
    tensor.select(0, positions(at.iter().map(|&at| at as i64).collect(), &device))
}

/// `flat[region] = values` (`op` `None`) or `flat[region] op= values`,
/// every occurrence in index order; `values` holds one element per region
/// element. The caller has checked that `op` runs on `K` ([`supports`]).
pub(crate) fn write<K: BurnKind>(flat: Tensor<1, K>, region: &Region, values: Tensor<1, K>, op: Option<Op>) -> Tensor<1, K> {
    let device = flat.device();
    match op {
        None => {
            let (last, every) = region.last_occurrences();
            if last.is_empty() {
                return flat;
            }
            let at = positions(region.offsets_of(&last), &device);
            K::assign(flat, at, pick(values, &last, every))
        }
        Some(op) if K::adds(op) => {
            let (kept, every) = region.kept_elements();
            if kept.is_empty() {
                return flat;
            }
            let at = positions(region.offsets_of(&kept), &device);
            let values = pick(values, &kept, every);
            let values = match op {
                Op::Sub => K::negated(values),
                _ => values,
            };
            flat.select_assign(0, at, values, IndexingUpdateOp::Add)
        }
        Some(op @ (Op::Min | Op::Max)) => K::min_max(flat, region, values, op),
        Some(op) => in_rounds(flat, region, values, op),
    }
}

/// `flat[region] op= values`, one round of distinct positions at a time.
pub(crate) fn in_rounds<K: BurnKind>(mut flat: Tensor<1, K>, region: &Region, values: Tensor<1, K>, op: Op) -> Tensor<1, K> {
    let device = flat.device();
    let rounds = region.rounds();
    let whole = rounds.len() == 1 && rounds[0].len() == region.len();
    for round in &rounds {
        let at: Tensor<1, Int> = positions(region.offsets_of(round), &device);
        let current = flat.clone().select(0, at.clone());
        let value = pick(values.clone(), round, whole);
        let combined = K::combine(current, op, value).expect("a supported operation");
        flat = K::assign(flat, at, combined);
    }
    flat
}

/// The elements of `flat` at positions computed on the device; skipped
/// ones read `fill`.
pub(crate) fn gather_on_device<K: BurnKind>(flat: Tensor<1, K>, at: DeviceRegion, fill: Option<K::Elem>) -> Tensor<1, K> {
    if at.len == 0 {
        return Tensor::empty([0], (&flat.device(), flat.dtype()));
    }
    let read = flat.select(0, at.positions);
    match (fill, at.skipped) {
        (Some(fill), Some(skipped)) => read.mask_fill(skipped, fill),
        _ => read,
    }
}

/// [`write`] at positions computed on the device. `=` finds each
/// position's last occurrence there, `+=` and `-=` add with the skipped
/// values made the sum's identity, and the operations that run in rounds
/// read the positions back once (their rounds need them on the host).
pub(crate) fn write_on_device<K: BurnKind>(flat: Tensor<1, K>, at: DeviceRegion, values: Tensor<1, K>, op: Option<Op>) -> Tensor<1, K> {
    if at.len == 0 {
        return flat;
    }
    let device = flat.device();
    let identity = |values: Tensor<1, K>, skipped: &Option<Tensor<1, burn_tensor::Bool>>| match skipped {
        Some(skipped) => values.mask_fill(skipped.clone(), K::ADD_IDENTITY),
        None => values,
    };
    match op {
        None => {
            // The last occurrence of each position: the largest of the
            // occurrences' numbers written there (skipped ones write none).
            let numbers = Tensor::<1, Int>::arange(0..at.len as i64, (&device, burn_tensor::DType::I64));
            let written = match &at.skipped {
                Some(skipped) => numbers.clone().mask_fill(skipped.clone(), -1),
                None => numbers.clone(),
            };
            let len = flat.dims()[0];
            let last = Tensor::<1, Int>::full([len], -1, (&device, burn_tensor::DType::I64)).select_assign(
                0,
                at.positions.clone(),
                written,
                IndexingUpdateOp::Max,
            );
            let wins = last.clone().select(0, at.positions.clone()).equal(numbers);
            let hit = last.greater_equal_elem(0);
            let winners = values.mask_fill(wins.bool_not(), K::ADD_IDENTITY);
            let empty = Tensor::<1, K>::full([len], K::ADD_IDENTITY, (&device, flat.dtype()));
            let placed = empty.select_assign(0, at.positions, winners, IndexingUpdateOp::Add);
            flat.mask_where(hit, placed)
        }
        Some(op) if K::adds(op) => {
            let values = match op {
                Op::Sub => K::negated(values),
                _ => values,
            };
            flat.select_assign(0, at.positions, identity(values, &at.skipped), IndexingUpdateOp::Add)
        }
        Some(op) => {
            let region = read_back(at);
            write(flat, &region, values, Some(op))
        }
    }
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
    }
}
