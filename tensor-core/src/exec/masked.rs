//! The fused mask path: `x[predicate(x)] op= v` decided and written in one
//! pass over `x`, with no mask, no positions and no allocation.

use ndarray::ArrayViewMutD;

use crate::error::IndexError;
use crate::exec::kernel::Kernel;
use crate::value::{Broadcast, Value};

/// Updates every element of `view` for which `predicate` holds with the
/// next value in C order: a scalar for all, or an array holding one value
/// per selected element (counted in a first, read-only pass).
/// `check` vets each value that will be applied before anything is written;
/// `count_error` reports a wrong-length value as NumPy's `x[mask] = v` does.
pub(crate) fn write_where<T, K: Kernel<T>>(
    mut view: ArrayViewMutD<'_, T>,
    mut predicate: impl FnMut(&T) -> bool,
    value: Value<'_, T>,
    mut kernel: K,
    mut check: Option<impl FnMut(&T) -> Result<(), IndexError>>,
    count_error: bool,
) -> Result<(), IndexError> {
    if let Value::Scalar(v) = &value {
        if let Some(check) = &mut check
            && view.iter().any(&mut predicate)
        {
            check(v)?;
        }
        view.map_inplace(|e| kernel.apply_where(predicate(e), e, v));
        return Ok(());
    }
    let count = match view.as_slice() {
        Some(elements) => elements.iter().filter(|e| predicate(e)).count(),
        None => view.iter().filter(|e| predicate(e)).count(),
    };
    let values = value.broadcast_to(&[count]).map_err(|error| match count_error {
        true => value.whole_mask_error(count, error),
        false => error,
    })?;
    if let Some(check) = &mut check {
        values.elements().take(count).try_for_each(&mut *check)?;
    }
    let contiguous = match &values {
        Broadcast::Array { view: source, .. } if source.len() == count => source.as_slice(),
        _ => None,
    };
    match contiguous {
        // Values are consumed in C order, so walk the target in C order too
        // (`map_inplace` would take memory order).
        Some(slice) => {
            // Branch-free: every element takes `apply_where` with the value
            // the next selected element would take; the cursor moves only
            // past selected ones (a mask is as good as random to a branch
            // predictor).
            let mut next = slice.iter();
            match view.as_slice_mut() {
                // C order in memory: 64 tests at a time into a bit set,
                // then one write per set bit (no branch per element to
                // mispredict; a mask is as good as random).
                Some(elements) => {
                    for chunk in elements.chunks_mut(64) {
                        let mut bits = chunk
                            .iter()
                            .enumerate()
                            .fold(0u64, |bits, (k, e)| bits | (u64::from(predicate(e)) << k));
                        while bits != 0 {
                            let k = bits.trailing_zeros() as usize;
                            kernel.apply(&mut chunk[k], next.next().expect("one value per selected element"));
                            bits &= bits - 1;
                        }
                    }
                }
                None => {
                    for e in view.iter_mut() {
                        if predicate(e) {
                            kernel.apply(e, next.next().expect("one value per selected element"));
                        }
                    }
                }
            }
        }
        None => {
            let mut next = values.elements();
            for e in view.iter_mut() {
                if predicate(e) {
                    kernel.apply(e, next.next().expect("one value per selected element"));
                }
            }
        }
    }
    Ok(())
}
