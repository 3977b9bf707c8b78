//! Large basic-indexing writes on every thread: a view's positions are
//! distinct, so cutting it into pieces along one axis, and its value with
//! it, gives each thread its own elements, and the result is the serial
//! write's whatever the number of threads.

use ndarray::{ArrayViewMutD, Axis};

use super::for_each_piece;
use crate::value::Broadcast;

/// `write(piece, values)` for each of up to `parts` pieces of `view`, cut
/// along its first axis of more than one position, the value cut with it;
/// on the pool's threads.
pub(crate) fn split_write<T: Send + Sync>(
    mut view: ArrayViewMutD<'_, T>,
    values: &Broadcast<'_, T>,
    parts: usize,
    write: &(dyn Fn(ArrayViewMutD<'_, T>, &Broadcast<'_, T>) + Sync),
) {
    let Some(axis) = (0..view.ndim()).find(|&a| view.len_of(Axis(a)) > 1) else {
        return write(view, values);
    };
    let chunk = view.len_of(Axis(axis)).div_ceil(parts.max(1));
    let pieces: Vec<ArrayViewMutD<'_, T>> = view.axis_chunks_iter_mut(Axis(axis), chunk).collect();
    match values {
        Broadcast::Scalar(_) => for_each_piece(pieces, &|piece| write(piece, values)),
        Broadcast::Array { view: source, shape } => {
            let whole = source.broadcast(shape.clone()).expect("checked when built");
            let sources: Vec<_> = whole.axis_chunks_iter(Axis(axis), chunk).collect();
            for_each_piece(pieces.into_iter().zip(sources).collect(), &|(piece, source)| {
                let shape = piece.raw_dim();
                write(piece, &Broadcast::Array { view: source, shape });
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array2, ArrayD, IxDyn, s};

    use super::*;
    use crate::exec::kernel::{AddOp, OpKernel, SetKernel};
    use crate::exec::scatter::write_view;

    /// Every cut, and a value broadcast along the cut axis or across it,
    /// gives the serial write's result.
    #[test]
    fn split_writes_equal_the_serial_write() {
        let start = Array2::from_shape_fn((9, 7), |(i, j)| (i * 7 + j) as i64);
        let row = ArrayD::from_shape_fn(IxDyn(&[1, 3]), |at| at[1] as i64 * 100);
        let column = ArrayD::from_shape_fn(IxDyn(&[9, 1]), |at| at[0] as i64 * 1000);
        for values in [
            Broadcast::Scalar(&5),
            Broadcast::Array {
                view: row.view(),
                shape: IxDyn(&[9, 3]),
            },
            Broadcast::Array {
                view: column.view(),
                shape: IxDyn(&[9, 3]),
            },
        ] {
            let mut serial = start.clone();
            write_view(serial.slice_mut(s![.., 1..;2]).into_dyn(), &values, OpKernel::<AddOp>::new());
            for parts in [1, 2, 3, 8, 20] {
                let mut split = start.clone();
                let write =
                    |piece: ArrayViewMutD<'_, i64>, values: &Broadcast<'_, i64>| write_view(piece, values, OpKernel::<AddOp>::new());
                split_write(split.slice_mut(s![.., 1..;2]).into_dyn(), &values, parts, &write);
                assert_eq!(split, serial, "{parts} parts");
            }
        }
        // A view of one position along every axis is written whole.
        let mut one = Array2::<i64>::zeros((1, 1));
        let write = |piece: ArrayViewMutD<'_, i64>, values: &Broadcast<'_, i64>| write_view(piece, values, SetKernel::new());
        split_write(one.view_mut().into_dyn(), &Broadcast::Scalar(&3), 2, &write);
        assert_eq!(one[[0, 0]], 3);
    }
}
