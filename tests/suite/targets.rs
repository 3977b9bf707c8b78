//! Every kind of target the runtime API takes, and what each promises:
//! views alias, owned copy-and-update copies nothing, shared buffers are
//! never written behind their other owner's back, reads view when basic.

use ndarray::{Array, Array0, Array2, Array3, ArrayD, IxDyn, array, s};
use tensor_at::backend::{AnyMode, get, set, update};
use tensor_at::index::{Ellipsis, NewAxis};
use tensor_at::{IndexExt, IndexMutExt, IntoUpdated, Mode, Op, ix, set};

#[test]
fn works_on_every_writable_ndarray() {
    let expected = array![[0, 7, 0], [0, 7, 0]];

    let mut owned = Array2::<i32>::zeros((2, 3));
    set(&mut owned, &[ix(..), ix(1)], 7, Mode::Error).unwrap();
    assert_eq!(owned, expected);

    let mut by_ref = Array2::<i32>::zeros((2, 3));
    let reference: &mut Array2<i32> = &mut by_ref;
    reference.at_mut(&[ix(..), ix(1)]).set(7).unwrap();
    assert_eq!(by_ref, expected);

    let mut dynamic = ArrayD::<i32>::zeros(IxDyn(&[2, 3]));
    dynamic.at_mut(&[ix(..), ix(-2)]).set(7).unwrap();
    assert_eq!(dynamic, expected.clone().into_dyn());

    let mut shared = Array2::<i32>::zeros((2, 3)).into_shared();
    shared.at_mut(&[ix(..), ix(1)]).set(7).unwrap();
    assert_eq!(shared, expected);
}

#[test]
fn writes_through_a_view_land_in_the_viewed_array() {
    let mut base = Array2::<i32>::zeros((4, 6));
    {
        // Every other column, reversed: a view with a negative stride.
        let mut view = base.slice_mut(s![.., ..;-2]);
        view.at_mut(&[ix([0, 3]), ix(0)]).set(5).unwrap();
    }
    // Column 0 of the view is column 5 of the base.
    assert_eq!(base.column(5), array![5, 0, 0, 5]);
    assert_eq!(base.iter().filter(|&&v| v != 0).count(), 2);
}

#[test]
fn shared_arrays_copy_before_writing() {
    let original = Array2::<f64>::zeros((2, 2)).into_shared();
    let mut mine = original.clone();
    mine.at_mut(&[ix(0), ix(0)]).add(1.0).unwrap();
    assert_eq!(mine[[0, 0]], 1.0);
    assert_eq!(original[[0, 0]], 0.0, "the other owner never sees the change");

    let updated = original.clone().updated(&[ix(1)]).set(2.0).unwrap();
    assert_eq!(updated, array![[0.0, 0.0], [2.0, 2.0]]);
    assert_eq!(original, Array2::<f64>::zeros((2, 2)));
}

#[test]
fn copy_and_update_of_an_owned_array_reuses_its_buffer() {
    let x = Array2::<f64>::zeros((3, 3));
    let buffer = x.as_ptr();
    let y = x.updated(&[ix(1..), ix(0)]).set(1.0).unwrap();
    assert_eq!(y.as_ptr(), buffer, "no copy when the array is owned");
    assert_eq!(y.column(0), array![0.0, 1.0, 1.0]);
}

#[test]
fn copy_and_update_of_a_borrowed_array_leaves_it_alone() {
    let x = array![1, 2, 3];
    let y = (&x).updated(&[ix([0, 0, 2])]).update(Op::Mul, 2).unwrap();
    assert_eq!(x, array![1, 2, 3]);
    assert_eq!(y, array![4, 2, 6]);
    let z = x.view().updated(&[ix([0, 0, 2])]).set(&array![7, 8, 9]).unwrap();
    assert_eq!(z, array![8, 2, 9]);
}

#[test]
fn copy_and_update_of_a_strided_view_is_a_new_array_in_c_or_fortran_order() {
    let numbered = |(i, j)| (10 * i + j) as i32;
    let x = Array2::from_shape_fn((3, 4), numbered);
    let views = [
        (x.t(), true),
        (x.slice(s![..;-1, ..;2]), false),
        (x.slice(s![1.., ..]), false),
        (x.slice(s![.., 1..]).reversed_axes(), false),
    ];
    for (view, fortran) in views {
        let y = set!(view[0, 1] = -1);
        let mut expected = view.to_owned();
        expected[[0, 1]] = -1;
        assert_eq!(y, expected);
        let in_order = if fortran {
            y.t().is_standard_layout()
        } else {
            y.is_standard_layout()
        };
        assert!(in_order, "{:?} gave {:?}", view.strides(), y.strides());
    }
    assert_eq!(x, Array2::from_shape_fn((3, 4), numbered));
}

#[test]
fn basic_reads_are_views_and_advanced_reads_are_owned() {
    let x = Array3::<i64>::from_shape_fn((2, 3, 4), |(i, j, k)| (i * 100 + j * 10 + k) as i64);
    let basic = x.at(&[ix(1), ix(Ellipsis), ix(NewAxis), ix(1..).step_by(-1)]).get().unwrap();
    assert!(basic.is_view());
    assert_eq!(basic.shape(), &[3, 1, 3]);
    assert_eq!(basic[[0, 0, 0]], 103);
    assert_eq!(basic.as_ptr(), &x[[1, 0, 3]] as *const i64, "no copy");

    let advanced = get(&x, &[ix(..), ix([2, 0]), ix(0)], Mode::Error).unwrap();
    assert!(!advanced.is_view());
    assert_eq!(advanced, array![[20, 0], [120, 100]].into_dyn());
}

#[test]
fn rank_zero_targets() {
    let mut x = Array0::from_elem((), 1.5);
    set(&mut x, &[], 2.5, Mode::Error).unwrap();
    update(&mut x, &[ix(Ellipsis)], Op::Mul, 2.0, Mode::Error).unwrap();
    assert_eq!(x[()], 5.0);
    let lifted = get(&x, &[ix(NewAxis)], Mode::Error).unwrap();
    assert_eq!(lifted, array![5.0].into_dyn());
}

#[test]
fn modes_resolve_out_of_bounds_integers() {
    let x = array![10, 11, 12, 13];
    let read = |mode| get(&x, &[ix([-6, -1, 2, 5])], mode).unwrap().iter().copied().collect::<Vec<i32>>();
    assert_eq!(read(AnyMode::Clip), vec![10, 13, 12, 13]);
    assert_eq!(read(AnyMode::Wrap), vec![12, 13, 12, 11]);
    assert_eq!(read(AnyMode::Fill(-1)), vec![-1, 13, 12, -1]);

    let mut y = Array::zeros(4);
    update(&mut y, &[ix([-6, -1, 2, 5])], Op::Add, 1, Mode::Drop).unwrap();
    assert_eq!(y, array![0, 0, 1, 1]);
    // A scalar out of bounds in mode fill reads as the fill value.
    let filled = get(&x, &[ix(9)], AnyMode::Fill(0)).unwrap();
    assert_eq!(filled, Array0::from_elem((), 0).into_dyn());
}

#[test]
fn zero_dimensional_masks_and_integer_arrays_index_like_numpy() {
    // Shapes from NumPy 2.4 on x = np.arange(6).reshape(2, 3).
    let x = Array2::from_shape_fn((2, 3), |(i, j)| (i * 3 + j) as i32);
    let yes = Array0::from_elem((), true);
    let no = Array0::from_elem((), false);
    let shape = |index: &[tensor_at::index::IndexElem<'_>]| get(&x, index, Mode::Error).unwrap().shape().to_vec();
    assert_eq!(shape(&[ix(&yes)]), [1, 2, 3]);
    assert_eq!(shape(&[ix(&no)]), [0, 2, 3]);
    assert_eq!(shape(&[ix(..), ix(&yes)]), [2, 1, 3]);
    assert_eq!(shape(&[ix([0, 1]), ix(&yes)]), [2, 3]);
    assert_eq!(shape(&[ix(..), ix(&yes), ix([0, 1])]), [2, 2]);
    assert_eq!(shape(&[ix(&yes), ix(1)]), [1, 3]);
    // A 0-d integer array is an integer: basic indexing, a view.
    let one = Array0::from_elem((), 1usize);
    let row = get(&x, &[ix(&one)], Mode::Error).unwrap();
    assert!(row.is_view());
    assert_eq!(row, array![3, 4, 5].into_dyn());

    let mut y = x.clone();
    set(&mut y, &[ix(&yes)], 5, Mode::Error).unwrap();
    assert!(y.iter().all(|&v| v == 5));
}

#[test]
fn nd_keeps_its_batch_shape_even_without_coordinates() {
    // TensorFlow: tf.gather_nd(x, tf.zeros((2, 0), tf.int64)) on x of shape
    // (3, 4) has shape (2, 3, 4): each batch entry selects all of x.
    let x = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as i32);
    let no_coordinates = ArrayD::<usize>::zeros(IxDyn(&[2, 0]));
    let gathered = get(&x, &[ix(tensor_at::nd(&no_coordinates))], Mode::Error).unwrap();
    assert_eq!(gathered.shape(), &[2, 3, 4]);
    assert_eq!(gathered.index_axis(ndarray::Axis(0), 1), x.view().into_dyn());
    // With coordinates: rows (2, 1) and (0, 3).
    let points = array![[2usize, 1], [0, 3]];
    let picked = get(&x, &[ix(tensor_at::nd(&points))], Mode::Error).unwrap();
    assert_eq!(picked, array![9, 3].into_dyn());
}

#[test]
fn large_row_sets_equal_a_plain_loop() {
    // 2500 rows of 128 f32 (1.25 MB, streamed) and of 100 (400 bytes, copied
    // plainly), in a scrambled order.
    for width in [128, 100] {
        let mut x = Array::from_shape_fn((3000, width), |(i, j)| (i * width + j) as f32);
        let rows: Vec<usize> = (0..2500).map(|k| (k * 7919 + 13) % 2999).collect();
        let values = Array::from_shape_fn((rows.len(), width), |(k, j)| -((k * width + j) as f32));
        let mut expected = x.clone();
        for (k, &row) in rows.iter().enumerate() {
            expected.row_mut(row).assign(&values.row(k));
        }
        tensor_at::at!(x[rows] = values);
        assert_eq!(x, expected, "rows of {width}");
    }
}
