//! The gather path: an advanced read copies the selected elements out, one
//! row at a time, on one thread (`parallel::gather` splits large ones).

use std::iter;

use ndarray::{ArrayD, ArrayViewD, IxDyn};

use crate::exec::sys::{pages, prefetch};
use crate::index::{with_index_slice, with_index_slices};
use crate::plan::{Form, IndexedPlan, Row, SKIP};

/// The elements `plan` selects from `target`, in a new array of the plan's
/// shape; skipped positions read as `fill`.
///
/// # Safety
///
/// `plan` must have been resolved from `target.shape()` and
/// `target.strides()`, so that every offset it yields reaches an element of
/// `target`.
pub(crate) unsafe fn gather<T: Clone>(target: &ArrayViewD<'_, T>, plan: &IndexedPlan, fill: Option<&T>) -> ArrayD<T> {
    let origin = target.as_ptr();
    let mut out = pages::output(plan.len());
    match plan.form() {
        Form::Index(axis) => with_index_slice!(&axis.index, index => {
            // SAFETY: every index was checked in bounds of this axis.
            out.extend(index.iter().map(|&i| unsafe { &*origin.offset(plan.base + axis.offset(i)) }.clone()));
        }),
        Form::IndexRows { index: axis, row } => {
            let ahead = prefetch::rows_ahead(row * std::mem::size_of::<T>());
            with_index_slice!(&axis.index, index => {
                // SAFETY: every index was checked in bounds of its axis, and
                // each row under it is `row` consecutive elements of `target`.
                let row_at = |k: usize| unsafe { origin.offset(plan.base + axis.offset(index[k])) };
                for k in 0..index.len() {
                    if k + ahead < index.len() {
                        prefetch::row(row_at(k + ahead), row);
                    }
                    // SAFETY: as above.
                    out.extend_from_slice(unsafe { std::slice::from_raw_parts(row_at(k), row) });
                }
            })
        }
        Form::Pair(first, second) => with_index_slices!(&first.index, &second.index, (a, b) => {
            // SAFETY: both indices of each pair were checked in bounds of their axes.
            out.extend(a.iter().zip(b).map(|(&i, &j)| unsafe { &*origin.offset(plan.base + first.offset(i) + second.offset(j)) }.clone()));
        }),
        Form::LeadingMask { .. } | Form::General => {
            let fill = || fill.expect("skipped positions in a read come with a fill value").clone();
            plan.for_each_row(|row| match row {
                // SAFETY: the offset is a position of the plan, an element of
                // `target` (the caller's guarantee), which we borrow shared.
                Row::Point(offset) => out.push(unsafe { &*origin.offset(offset) }.clone()),
                Row::Strided { base, len, stride: 1 } => {
                    // SAFETY: a row of stride 1 is `len` consecutive elements of `target`.
                    out.extend_from_slice(unsafe { std::slice::from_raw_parts(origin.offset(base), len) });
                }
                Row::Strided { base, len, stride } => {
                    // SAFETY: each position of the row is an element of `target`.
                    out.extend((0..len as isize).map(|i| unsafe { &*origin.offset(base + i * stride) }.clone()));
                }
                Row::Table { base, offsets } => out.extend(offsets.iter().map(|&offset| match offset {
                    SKIP => fill(),
                    // SAFETY: an offset that is not skipped is a position of the
                    // plan, an element of `target`.
                    offset => unsafe { &*origin.offset(base + offset) }.clone(),
                })),
                Row::Skipped(len) => out.extend(iter::repeat_with(fill).take(len)),
            });
        }
    }
    ArrayD::from_shape_vec(IxDyn(&plan.shape), out).expect("the plan yields one element per position of its shape")
}
