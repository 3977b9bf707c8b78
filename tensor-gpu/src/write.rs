//! Writes: `x[index] = v`, `x[index] op= v` and the mask sugar
//! `x[x < s] op= v`. Everything that can fail (the index, the value's
//! shape, integer operands, the 32-bit limits) is checked before the first
//! kernel runs, so on error the tensor is unchanged.

use ndarray::ArrayViewD;
use tensor_core::{IndexElem, IndexError, IntoValue, Mode, Op, Plan, Value, resolve};

use crate::element::GpuElement;
use crate::error::GpuError;
use crate::kernels::combine::Combine;
use crate::kernels::masked;
use crate::kernels::{compact, copy, scatter_reduce, scatter_set};
use crate::layout::Region;
use crate::tensor::GpuTensor;
use crate::value::{DeviceValue, broadcast_strides};
use tensor_core::Compare;

/// How a write runs, chosen by [`write_auto`] once everything is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriteStrategy {
    /// A view: positions are distinct, one unit per position writes.
    Direct,
    /// Possible duplicates, `set`: sort by destination, the last occurrence writes.
    LastWins,
    /// Possible duplicates, accumulate: sort by destination, one unit per
    /// destination folds its occurrences in index order.
    FoldInOrder,
}

/// The strategy for writing `op` through `plan`.
fn write_auto(plan: &Plan<'_>, op: Combine) -> WriteStrategy {
    match (plan, op) {
        (Plan::View(_), _) => WriteStrategy::Direct,
        (Plan::Indexed(_), Combine::Set) => WriteStrategy::LastWins,
        (Plan::Indexed(_), _) => WriteStrategy::FoldInOrder,
    }
}

/// Float powers differ between GPU `pow` implementations and the CPU's
/// `powf` (and are undefined for negative bases in SPIR-V): refuse them
/// rather than return results that differ from tensor-core.
fn check_op<T: GpuElement>(op: Op) -> Result<(), GpuError> {
    match op == Op::Pow && T::FLOAT {
        true => Err(GpuError::Unsupported {
            operation: "pow",
            reason: "float powers on a GPU are not bitwise those of the CPU; integer powers are supported",
        }),
        false => Ok(()),
    }
}

impl<T: GpuElement> GpuTensor<T> {
    /// Writes `value` into `self[index]` (NumPy's `x[index] = value`), with
    /// tensor-core's [`set`](tensor_core::set) semantics: duplicates keep
    /// the last occurrence in index order; mode `drop` skips out-of-bounds
    /// positions.
    pub fn set<'v>(&mut self, index: &[IndexElem<'_>], value: impl IntoValue<'v, T>, mode: Mode<T>) -> Result<(), GpuError> {
        let value = value.into_value();
        let plan = self.resolve_for_update(index, &mode)?;
        let source = broadcast_for_set(&plan, &value)?;
        self.write(&plan, &value, source, Combine::Set)
    }

    /// Combines `self[index]` with `value` by `op`, once per occurrence, in
    /// index order (unbuffered, like `np.add.at`), with tensor-core's
    /// [`update`](tensor_core::update) semantics and errors. Float `pow` is
    /// refused ([`GpuError::Unsupported`]).
    pub fn update<'v>(&mut self, index: &[IndexElem<'_>], op: Op, value: impl IntoValue<'v, T>, mode: Mode<T>) -> Result<(), GpuError> {
        check_op::<T>(op)?;
        let value = value.into_value();
        let plan = self.resolve_for_update(index, &mode)?;
        let source = value.broadcast_source(plan.shape())?;
        if T::checks_operands(op) {
            check_operands(&plan, &value, source.clone(), op)?;
        }
        self.write(&plan, &value, source, op.into())
    }

    /// `self[self compare threshold] = value` (the mask sugar
    /// `at!(x[x < s] = v)`), fused: one pass for a scalar `value`; an array
    /// holds one value per selected element, in C order.
    pub fn set_where<'v>(&mut self, compare: Compare, threshold: T, value: impl IntoValue<'v, T>) -> Result<(), GpuError> {
        self.write_where((compare, threshold), value.into_value(), Combine::Set)
    }

    /// `self[self compare threshold] op= value`, as [`set_where`](Self::set_where).
    pub fn update_where<'v>(&mut self, compare: Compare, threshold: T, op: Op, value: impl IntoValue<'v, T>) -> Result<(), GpuError> {
        check_op::<T>(op)?;
        self.write_where((compare, threshold), value.into_value(), op.into())
    }

    /// The plan of an update, after the mode is checked.
    fn resolve_for_update<'i>(&self, index: &'i [IndexElem<'_>], mode: &Mode<T>) -> Result<Plan<'i>, GpuError> {
        mode.check_for_update()?;
        Ok(resolve(index, &self.shape, &self.strides, mode.bounds())?)
    }

    /// Runs a checked write.
    fn write(&mut self, plan: &Plan<'_>, value: &Value<'_, T>, source: Option<ArrayViewD<'_, T>>, op: Combine) -> Result<(), GpuError> {
        let region = match plan {
            Plan::View(plan) => Region::of_view(plan, self.offset, &self.strides),
            Plan::Indexed(plan) => Region::of_indexed(plan, self.offset),
        };
        if region.len() == 0 {
            return Ok(());
        }
        let client = self.gpu.client();
        let value = DeviceValue::upload(&self.gpu, value, source, &region.shape());
        let device = region.with_value_strides(&value.strides).upload(client)?;
        match write_auto(plan, op) {
            WriteStrategy::Direct => copy::write(client, &self.buffer, &value.buffer, &device, op),
            WriteStrategy::LastWins => scatter_set::scatter_set(client, &self.buffer, &value.buffer, &device),
            WriteStrategy::FoldInOrder => scatter_reduce::scatter_reduce(client, &self.buffer, &value.buffer, &device, op),
        }
        Ok(())
    }

    /// The mask sugar, as tensor-core's fused mask path: a scalar is vetted
    /// once if anything is selected; an array is counted against the
    /// selection first.
    fn write_where(&mut self, predicate: (Compare, T), value: Value<'_, T>, op: Combine) -> Result<(), GpuError> {
        let client = self.gpu.client();
        let region = Region::of_layout(self.offset, &self.shape, &self.strides);
        if region.len() == 0 {
            return Ok(());
        }
        let device = region.upload(client)?;
        // Integer division and powers vet their operands (as on the CPU).
        let vetted = operand_op(op).filter(|&op| T::checks_operands(op));
        let check = |v: &T| vetted.map_or(Ok(()), |op| T::check_operand(op, *v));
        if let Value::Scalar(scalar) = &value {
            if vetted.is_some() && compact::select_where(client, &self.buffer, &device, predicate)?.count > 0 {
                check(scalar)?;
            }
            masked::update_where_scalar(client, &self.buffer, &device, predicate, op, *scalar);
            return Ok(());
        }
        let selected = compact::select_where(client, &self.buffer, &device, predicate)?;
        let count = selected.count;
        let source = value.broadcast_source(&[count]).map_err(|error| match op {
            Combine::Set => value.whole_mask_error(count, error),
            _ => error,
        })?;
        let source = source.expect("an array value has a source");
        if vetted.is_some() {
            source
                .broadcast(count)
                .expect("checked by broadcast_source")
                .iter()
                .try_for_each(check)?;
        }
        let stride = broadcast_strides(source.shape(), &[count])[0] as u32;
        let values = DeviceValue::upload(&self.gpu, &value, Some(source), &[count]);
        compact::write_selected_values(client, &self.buffer, &device, predicate, &selected, (&values.buffer, stride), op);
        Ok(())
    }
}

/// The operation whose operands integer types vet, if `op` is one.
fn operand_op(op: Combine) -> Option<Op> {
    match op {
        Combine::Div => Some(Op::Div),
        Combine::Pow => Some(Op::Pow),
        _ => None,
    }
}

/// The value's source for `set`: NumPy reports a wrong-length
/// one-dimensional value for a single mask over every axis as a count (as
/// tensor-core's `set` does).
fn broadcast_for_set<'v, T>(plan: &Plan<'_>, value: &'v Value<'_, T>) -> Result<Option<ArrayViewD<'v, T>>, IndexError> {
    value.broadcast_source(plan.shape()).map_err(|error| match plan {
        Plan::Indexed(plan) if plan.whole_mask => value.whole_mask_error(plan.len(), error),
        _ => error,
    })
}

/// Vets every value that will be applied (skipped positions excluded)
/// before anything is written: integer division by zero, negative integer
/// powers.
fn check_operands<T: GpuElement>(
    plan: &Plan<'_>,
    value: &Value<'_, T>,
    source: Option<ArrayViewD<'_, T>>,
    op: Op,
) -> Result<(), IndexError> {
    let shape = plan.shape();
    if shape.contains(&0) {
        return Ok(());
    }
    let check = |v: &T| T::check_operand(op, *v);
    let source = match (source, value) {
        (Some(source), _) => source,
        (None, Value::Scalar(scalar)) => return check(scalar),
        (None, Value::Array(_)) => unreachable!("an array value has a source"),
    };
    let values = source.broadcast(shape).expect("checked by broadcast_source");
    match plan {
        Plan::View(_) => values.iter().try_for_each(check),
        Plan::Indexed(plan) => {
            let mut values = values.iter();
            let mut result = Ok(());
            plan.for_each_offset(|offset| {
                let value = values.next().expect("one value per selected position");
                if offset.is_some() && result.is_ok() {
                    result = check(value);
                }
            });
            result
        }
    }
}
