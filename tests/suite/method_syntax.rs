//! The method syntax (`x.at(..)`, `x.at_mut(..)`, `x.updated(..)`): the
//! types of its results, its typed modes, and what it gives back on an
//! error, each checked against ndarray's own indexing or a plain loop.

use ndarray::{Array, Array0, Array1, Array2, Array3, ArrayD, ArrayView1, ArrayView2, CowArray, IxDyn, array, s};
use tensor_at::index::{Ellipsis, NewAxis, PySlice};
use tensor_at::{IndexError, IndexExt, IndexMutExt, IntoUpdated, Mode, ReadMode, along, ix};

fn grid() -> Array3<i64> {
    Array3::from_shape_fn((3, 4, 5), |(i, j, k)| (100 * i + 10 * j + k) as i64)
}

/// A tuple of elements reads in the rank its element types give, as the
/// macros do: integers alone the element, a basic index a view, an
/// advanced one an owned array.
#[test]
fn tuples_read_in_static_rank() {
    let x = grid();
    let element: i64 = x.at((1, -1, 2)).get().unwrap();
    assert_eq!(element, x[[1, 3, 2]]);

    let row: ArrayView1<i64> = x.at((2, 1, ..)).get().unwrap();
    assert_eq!(row, x.slice(s![2, 1, ..]));
    let plane: ArrayView2<i64> = x.at((.., 0)).get().unwrap();
    assert_eq!(plane, x.slice(s![.., 0, ..]));
    let stepped: ArrayView2<i64> = x.at((0, PySlice::new(None, None, Some(-2)), NewAxis, 3)).get().unwrap();
    assert_eq!(stepped, x.slice(s![0, ..;-2, NewAxis, 3]));
    let all: ndarray::ArrayView3<i64> = x.at(Ellipsis).get().unwrap();
    assert_eq!(all, x);

    let rows = array![2usize, 0, 2];
    let gathered: Array2<i64> = x.at((&rows, 3)).get().unwrap();
    let mut expected = Array2::zeros((3, 5));
    for (out, &r) in rows.iter().enumerate() {
        expected.row_mut(out).assign(&x.slice(s![r, 3, ..]));
    }
    assert_eq!(gathered, expected);

    // A single element needs no tuple.
    let first: ndarray::ArrayView2<i64> = x.at(0).get().unwrap();
    assert_eq!(first, x.slice(s![0, .., ..]));
    let picked: Array3<i64> = x.at([2, 2]).get().unwrap();
    assert_eq!(picked.shape(), &[2, 4, 5]);
    assert!(picked.outer_iter().all(|plane| plane == x.slice(s![2, .., ..])));
}

/// A list of `IndexElem`s built at run time reads as a copy-on-write array
/// of dynamic rank: its kinds and ranks are known only then.
#[test]
fn lists_built_at_run_time_read_in_dynamic_rank() {
    let x = grid();
    let mut index = vec![ix(1)];
    index.push(ix(..));
    let read: CowArray<i64, IxDyn> = x.at(&index).get().unwrap();
    assert!(read.is_view());
    assert_eq!(read, x.slice(s![1, .., ..]).into_dyn());
    let read = x.at(&[ix([0, 2]), ix(1)]).get().unwrap();
    assert!(!read.is_view());
    assert_eq!(read, array![[10, 11, 12, 13, 14], [210, 211, 212, 213, 214]].into_dyn());
}

#[test]
fn read_modes_keep_the_result_type_and_fill_gathers() {
    let x = array![10, 11, 12, 13];
    let index = array![-6, -1, 2, 5];
    let clipped: Array1<i32> = x.at(&index).mode(ReadMode::Clip).get().unwrap();
    assert_eq!(clipped, array![10, 13, 12, 13]);
    let wrapped: Array1<i32> = x.at(&index).mode(ReadMode::Wrap).get().unwrap();
    assert_eq!(wrapped, array![12, 13, 12, 11]);
    let filled: Array1<i32> = x.at(&index).fill(-1).get().unwrap();
    assert_eq!(filled, array![-1, 13, 12, -1]);
    // A basic index in mode fill gathers, so its result is owned; an
    // integer alone is the element.
    let row: Array1<i32> = x.at(1..3).fill(0).get().unwrap();
    assert_eq!(row, array![11, 12]);
    let outside: i32 = x.at(9).fill(7).get().unwrap();
    assert_eq!(outside, 7);
    let error = x.at(&index).get().unwrap_err();
    assert_eq!(
        error,
        IndexError::OutOfBounds {
            index: -6,
            axis: 0,
            len: 4
        }
    );
}

#[test]
fn update_modes_resolve_out_of_bounds_indices() {
    let index = [-6i64, -1, 2, 5];
    let len = 4i64;
    // Where each mode sends an index: the rule, written out.
    let resolve = |mode: Mode, i: i64| -> Option<usize> {
        let inside = if i < 0 { i + len } else { i };
        if (0..len).contains(&inside) {
            return Some(inside as usize);
        }
        match mode {
            Mode::Clip => Some(if i < 0 { 0 } else { (len - 1) as usize }),
            Mode::Wrap => Some(i.rem_euclid(len) as usize),
            _ => None,
        }
    };
    for mode in [Mode::Clip, Mode::Wrap, Mode::Drop] {
        let mut y = Array1::<i32>::zeros(4);
        y.at_mut(index).mode(mode).add(1).unwrap();
        let mut expected = Array1::<i32>::zeros(4);
        for &i in &index {
            if let Some(at) = resolve(mode, i) {
                expected[at] += 1;
            }
        }
        assert_eq!(y, expected, "{mode:?}");
    }
    let mut y = Array1::<i32>::zeros(4);
    let error = y.at_mut(index).add(1).unwrap_err();
    assert_eq!(
        error,
        IndexError::OutOfBounds {
            index: -6,
            axis: 0,
            len: 4
        }
    );
    assert_eq!(y, Array1::<i32>::zeros(4));
}

#[test]
fn writes_check_the_value_and_apply_every_occurrence() {
    let mut x = Array2::<f64>::zeros((3, 4));
    x.at_mut((.., ix(1..4).step_by(2))).set(1.0).unwrap();
    x.at_mut(([0, 0, 2], 0)).add(5.0).unwrap();
    x.at_mut((1, ..)).set(&array![1.0, 2.0, 3.0, 4.0]).unwrap();
    x.at_mut([2]).apply(|e| e * 10.0).unwrap();
    let mut expected = Array2::<f64>::zeros((3, 4));
    for i in 0..3 {
        expected[[i, 1]] = 1.0;
        expected[[i, 3]] = 1.0;
    }
    expected[[0, 0]] += 10.0;
    expected[[2, 0]] += 5.0;
    expected.row_mut(1).assign(&array![1.0, 2.0, 3.0, 4.0]);
    expected.row_mut(2).mapv_inplace(|e| e * 10.0);
    assert_eq!(x, expected);
}

#[test]
fn batched_calls_pair_the_leading_axes() {
    let x = array![[10, 11, 12], [20, 21, 22]];
    let idx = array![[2, 0], [1, 1]];
    let picked: Array2<i32> = x.at(&idx).batch::<1>().get().unwrap();
    assert_eq!(picked, array![[12, 10], [21, 21]]);
    let mut counts = Array2::<u32>::zeros((2, 3));
    counts.at_mut(&idx).batch::<1>().add(1).unwrap();
    assert_eq!(counts, array![[1, 0, 1], [0, 2, 0]]);
    let y = (&counts).updated(&idx).batch::<1>().mul(3).unwrap();
    assert_eq!(y, array![[3, 0, 3], [0, 18, 0]]);
}

#[test]
fn reads_into_an_existing_array() {
    let x = array![[1, 2], [3, 4], [5, 6]];
    let mut out = Array2::zeros((2, 2));
    x.at([2, 0]).get_into(&mut out).unwrap();
    assert_eq!(out, array![[5, 6], [1, 2]]);
    let error = x.at([2, 0, 1]).get_into(&mut out).unwrap_err();
    assert!(matches!(error, IndexError::OutputShape { .. }));
    assert_eq!(out, array![[5, 6], [1, 2]], "nothing written");
    let mut filled = Array1::zeros(3);
    x.at((.., 9)).fill(-1).get_into(&mut filled).unwrap();
    assert_eq!(filled, array![-1, -1, -1]);
}

#[test]
fn along_reads_and_writes() {
    let mut logits = array![[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]];
    let labels = array![[2usize], [0]];
    let picked: Array2<f64> = logits.at(along(&labels, 1)).get().unwrap();
    assert_eq!(picked, array![[0.7], [0.6]]);
    logits.at_mut(along(&labels, -1)).sub(1.0).unwrap();
    assert_eq!(logits, array![[0.1, 0.2, 0.7 - 1.0], [0.6 - 1.0, 0.3, 0.1]]);
}

/// A copy-and-update refused gives the array back, unchanged: an owned
/// array moved in comes back in its own buffer, as `try_set!` gives it.
#[test]
fn refused_copy_and_updates_give_the_array_back() {
    let x = Array::from_shape_fn((2, 3), |(i, j)| (10 * i + j) as f32);
    let buffer = x.as_ptr();
    let refused = x.updated([0, 7]).add(1.0).unwrap_err();
    assert_eq!(refused.error, IndexError::OutOfBounds { index: 7, axis: 0, len: 2 });
    let back = refused.array.expect("the array comes back");
    assert_eq!(back.as_ptr(), buffer, "in its own buffer: no copy was made");
    assert_eq!(back, Array::from_shape_fn((2, 3), |(i, j)| (10 * i + j) as f32));

    // Every operation gives it back, and `?` reads the plain error.
    let refused = back.updated((.., 1)).set(&array![1.0, 2.0, 3.0]).unwrap_err();
    assert!(matches!(refused.error, IndexError::ShapeMismatch { .. }));
    let back = refused.array.unwrap();
    let refused = back.updated([5]).apply(|e| e + 1.0).unwrap_err();
    let back = refused.array.unwrap();
    let plain = || -> Result<Array2<f32>, IndexError> { Ok(back.clone().updated([9]).max(0.0)?) };
    assert!(matches!(plain(), Err(IndexError::OutOfBounds { index: 9, .. })));

    // A borrowed source: the copy comes back, the source untouched.
    let view_refused = (&back).updated([1, 2]).min(0.0).unwrap_err();
    assert_eq!(view_refused.array.unwrap(), back);
}

#[test]
fn every_kind_of_target_takes_the_method_syntax() {
    let mut dynamic = ArrayD::<i32>::zeros(IxDyn(&[2, 3]));
    dynamic.at_mut((.., -2)).set(7).unwrap();
    // A dynamic target reads in dynamic rank, a view for a basic index.
    let read: ndarray::ArrayViewD<i32> = dynamic.at((1, ..)).get().unwrap();
    assert_eq!(read, array![0, 7, 0].into_dyn());
    let mut zero_d = Array0::from_elem((), 1.5);
    zero_d.at_mut(()).mul(2.0).unwrap();
    let value: f64 = zero_d.at(()).get().unwrap();
    assert_eq!(value, 3.0);
    let mut base = Array2::<i32>::zeros((2, 4));
    base.slice_mut(s![.., ..;-1]).at_mut((.., 0)).set(9).unwrap();
    assert_eq!(base.column(3), array![9, 9]);
}
