//! Every grammar form of the macros, with expected values from NumPy
//! (each written beside the NumPy expression that produced it).

use ndarray::{Array, Array1, Array2, Array3, ArrayD, ArrayView1, ArrayView2, ArrayView3, IxDyn, array, s};
use tensor_at::{IndexError, Op, at, nd, set, try_at, try_set};

/// np.arange(12).reshape(3, 4)
fn grid() -> Array2<i32> {
    Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as i32)
}

/// np.arange(24).reshape(2, 3, 4)
fn cube() -> Array3<i32> {
    Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (i * 12 + j * 4 + k) as i32)
}

#[test]
fn rust_ranges_and_python_slices_mix_in_one_index() {
    // x[:, 1:4:2] = 0; x[0, ::-1] -> [3, 0, 1, 0]
    let mut x = grid();
    at!(x[.., 1..4;2] = 0);
    assert_eq!(x, array![[0, 0, 2, 0], [4, 0, 6, 0], [8, 0, 10, 0]]);
    let mut y = grid();
    at!(y[:, 1:4:2] = 0);
    assert_eq!(x, y);
    let mut z = grid();
    at!(z[.., 1:4:2] = 0);
    assert_eq!(x, z);
    assert_eq!(at!(x[0, ::-1]), array![0, 2, 0, 0]);
    // s![] semantics: 1..;-1 is 1..4 reversed: [3, 2, 1]; NumPy's 1::-1 is [1, 0].
    assert_eq!(at!(y[0, 1..;-1]), array![0, 2, 0]);
    assert_eq!(at!(y[0, 1::-1]), array![0, 0]);
}

#[test]
fn bounds_and_steps_are_any_integer_expressions() {
    let x = Array1::from_iter(0..10i64);
    let (a, b, k, n) = (2usize, 8i32, 3i64, x.len());
    assert_eq!(at!(x[a:b:k]), array![2, 5]); // x[2:8:3]
    assert_eq!(at!(x[n - 1..;-1]), array![9]); // s![9..;-1]
    assert_eq!(at!(x[(n as isize - 1)::-4]), array![9, 5, 1]); // x[9::-4]
    assert_eq!(at!(x[a..=4]), array![2, 3, 4]);
    assert_eq!(at!(x[..=-2;4]), array![0, 4, 8]); // s![..=-2;4]
    assert_eq!(at!(x[-3:]), array![7, 8, 9]);
    assert_eq!(at!(x[:-7]), array![0, 1, 2]);
    assert_eq!(at!(x[i32::MAX as usize - 2147483646:3]), array![1, 2]); // a path in a bound
}

#[test]
fn ellipsis_new_axis_and_negative_integers() {
    let x = cube();
    let r: ArrayView3<i32> = at!(x[..., None, -1]); // x[..., None, -1].shape == (2, 3, 1)
    assert_eq!(r.shape(), &[2, 3, 1]);
    assert_eq!(r[[1, 2, 0]], 23);
    let r: ArrayView2<i32> = at!(x[NewAxis, 0, .., 1]); // x[None, 0, :, 1]
    assert_eq!(r, array![[1, 5, 9]]);
}

#[test]
fn basic_reads_are_statically_ranked_views() {
    let x = cube();
    let row: ArrayView2<i32> = at!(x[1, ..]);
    assert_eq!(row.shape(), &[3, 4]);
    assert_eq!(row.as_ptr(), &x[[1, 0, 0]] as *const i32);
    let one: ArrayView1<i32> = at!(x[1, 2]);
    assert_eq!(one, array![20, 21, 22, 23]);
    let dynamic = cube().into_dyn();
    let d = at!(dynamic[1, 2]);
    assert_eq!(d.shape(), &[4]);
}

/// `at!(&mut x[...])` lends a basic index's elements as a mutable view of
/// static rank, in both syntaxes; every write through it lands where
/// ndarray's own `slice_mut` puts it.
#[test]
fn mutable_views_of_basic_indices() {
    let mut x = grid();
    let mut expected = grid();
    {
        let mut view: ndarray::ArrayViewMut2<i32> = at!(&mut x[1:3, ::2]);
        view.fill(-1);
    }
    expected.slice_mut(s![1..3, ..;2]).fill(-1);
    assert_eq!(x, expected);

    at!(&mut x[.., 1..4;2]).mapv_inplace(|e| e * 10);
    expected.slice_mut(s![.., 1..4;2]).mapv_inplace(|e| e * 10);
    assert_eq!(x, expected);

    let row: ndarray::ArrayViewMut1<i32> = at!(&mut x[-1, ::-1]);
    ndarray::Zip::from(row).and(&array![1, 2, 3, 4]).for_each(|e, &v| *e += v);
    ndarray::Zip::from(expected.slice_mut(s![-1, ..;-1]))
        .and(&array![1, 2, 3, 4])
        .for_each(|e, &v| *e += v);
    assert_eq!(x, expected);

    let mut c = cube();
    let mut c_expected = cube();
    let lent: ndarray::ArrayViewMut3<i32> = at!(&mut c[..., None, 2]);
    assert_eq!(lent.shape(), &[2, 3, 1]); // NumPy: (2, 3, 1)
    at!(&mut c[..., 1:, 2]).assign(&array![[7, 8], [9, 10]]);
    c_expected.slice_mut(s![.., 1.., 2]).assign(&array![[7, 8], [9, 10]]);
    assert_eq!(c, c_expected);

    let mut element: ndarray::ArrayViewMut0<i32> = at!(&mut c[1, 2, 3]);
    element.fill(99);
    assert_eq!(c[[1, 2, 3]], 99);

    assert!(matches!(
        try_at!(&mut c[2, ..]),
        Err(IndexError::OutOfBounds { index: 2, axis: 0, len: 2 })
    ));
    let mut dynamic = grid().into_dyn();
    at!(&mut dynamic[0, ..]).fill(5);
    assert_eq!(dynamic.index_axis(ndarray::Axis(0), 0), array![5, 5, 5, 5].into_dyn());
}

#[test]
fn advanced_reads_are_statically_ranked_owned_arrays() {
    let x = cube();
    let idx = Array1::from(vec![1usize, 0]);
    // x[idx, 1:3] -> shape (2, 2, 4)
    let r: Array3<i32> = at!(x[idx, 1:3]);
    assert_eq!(r.slice(s![.., .., 0]), array![[16, 20], [4, 8]]);
    // x[[[0], [1]], :, [0, 3]] -> shape (2, 2, 3)
    let rows = array![[0usize], [1]];
    let r: Array3<i32> = at!(x[rows, .., [0, 3]]);
    assert_eq!(r.shape(), &[2, 2, 3]);
    assert_eq!(r.slice(s![1, 1, ..]), array![15, 19, 23]);
    // A mask over two axes: x[:, mask] -> (2, count)
    let mask = array![
        [true, false, false, false],
        [false, false, false, false],
        [false, false, false, true]
    ];
    let r: Array2<i32> = at!(x[:, mask]);
    assert_eq!(r, array![[0, 11], [12, 23]]);
}

#[test]
fn advanced_indices_separated_by_a_slice_go_first() {
    let mut x = cube();
    // x[[0, 1], :, [0, 3]] has shape (2, 3); writing y of that shape.
    let y = array![[100, 101, 102], [200, 201, 202]];
    at!(x[[0, 1], :, [0, 3]] = y);
    assert_eq!(at!(x[0, .., 0]), array![100, 101, 102]);
    assert_eq!(at!(x[1, .., 3]), array![200, 201, 202]);
    // An integer counts as advanced once an array is present: x[0, :, [1, 2]] -> (2, 3)
    let r: Array2<i32> = at!(x[0, :, [1, 2]]);
    assert_eq!(r, array![[1, 5, 9], [2, 6, 10]]);
}

#[test]
fn masks_write_in_c_order_with_values_broadcast() {
    // x[mask] = [10, 20, 30] selects in C order.
    let mut x = grid();
    let mask = x.mapv(|v| v % 5 == 0);
    at!(x[mask] = array![10, 20, 30]);
    assert_eq!(x, array![[10, 1, 2, 3], [4, 20, 6, 7], [8, 9, 30, 11]]);
    // x[:, m] = v with v broadcast over the rows: x[:, [True, False, True, False]] = [-1, -2]
    let mut x = grid();
    at!(x[:, [true, false, true, false]] = array![-1, -2]);
    assert_eq!(x.row(2), array![-1, 9, -2, 11]);
}

#[test]
fn mask_sugar_compares_arrays_with_scalars() {
    let mut x = array![-2.0, 3.0, -0.5, 4.0];
    at!(x[x < 0.0] = 0.0); // fused
    assert_eq!(x, array![0.0, 3.0, 0.0, 4.0]);
    at!(x[x >= 3.5] *= 2.0);
    assert_eq!(x, array![0.0, 3.0, 0.0, 8.0]);
    let y = array![1, 2, 3, 4];
    let t = 2;
    at!(x[y > t] += 1.0); // a mask of another array
    assert_eq!(x, array![0.0, 3.0, 1.0, 9.0]);
    at!(x[x == 9.0] = array![7.0]);
    at!(x[y != 2] -= 1.0);
    assert_eq!(x, array![-1.0, 3.0, 0.0, 6.0]);
    let positive: Array1<f64> = at!(x[x > 0.0]);
    assert_eq!(positive, array![3.0, 6.0]);
    // A fused mask with array values takes the values in C order.
    at!(x[x <= 0.0] = array![5.0, 6.0]);
    assert_eq!(x, array![5.0, 3.0, 6.0, 6.0]);
}

/// `%=` takes the divisor's sign and `&= |= ^=` combine bits, duplicates
/// applied in index order; `bool` takes NumPy's logical forms. Expected
/// values from NumPy (`np.remainder.at`, `np.bitwise_*.at`, `np.add.at`
/// on `bool`), each beside its expression.
#[test]
fn remainder_and_bitwise_updates_follow_numpy() {
    // x = np.array([7, -7, 7, -7, 0, 5]); np.remainder.at(x, [0, 1, 2, 3, 4, 5, 5], [3, 3, -3, -3, 4, 3, -2])
    let mut x = array![7i64, -7, 7, -7, 0, 5];
    at!(x[[0, 1, 2, 3, 4, 5, 5]] %= array![3, 3, -3, -3, 4, 3, -2]);
    assert_eq!(x, array![1, 2, -2, -1, 0, 0]);
    // f = np.array([7.5, -7.5, -4.0, 4.0, 1.0, -1.0]); np.remainder.at(f, range(6), [2, 2, 2, -2, 0, inf])
    let mut f = array![7.5f64, -7.5, -4.0, 4.0, 1.0, -1.0];
    at!(f[:] %= array![2.0, 2.0, 2.0, -2.0, 0.0, f64::INFINITY]);
    // Bit for bit (the zeros' signs), any NaN equal to any NaN.
    let bits = |a: &Array1<f64>| a.iter().map(|v| if v.is_nan() { 0 } else { v.to_bits() }).collect::<Vec<_>>();
    assert_eq!(bits(&f), bits(&array![1.5, 0.5, 0.0, -0.0, f64::NAN, f64::INFINITY]));
    // i = np.array([12, 10, -1], np.int32); np.bitwise_xor.at(i, [0, 0, 2], [6, 1, 5]); np.bitwise_and.at(i, [1], [6])
    let mut i = array![0b1100i32, 0b1010, -1];
    at!(i[[0, 0, 2]] ^= array![0b0110, 0b0001, 5]);
    at!(i[[1]] &= 0b0110);
    assert_eq!(i, array![11, 2, -6]);
    // u = np.array([1, 2], np.uint8); np.bitwise_or.at(u, [0, 0], [2, 4])
    let mut u = array![1u8, 2];
    at!(u[[0, 0]] |= array![2, 4]);
    assert_eq!(u, array![7, 2]);
    // b = np.array([True, False, False, True]); np.bitwise_or.at(b, [1, 1, 2], [True, False, False])
    let mut b = array![true, false, false, true];
    at!(b[[1, 1, 2]] |= array![true, false, false]);
    assert_eq!(b, array![true, true, false, true]);
    // b = np.array([True, False, True, True]); np.add.at(b, [1, 3], True); np.multiply.at(b, [0, 2], [False, True])
    let mut b = array![true, false, true, true];
    at!(b[[1, 3]] += true);
    at!(b[[0, 2]] *= array![false, true]);
    assert_eq!(b, array![false, true, true, true]);
    // The mask sugar and set!: x[x > 0] %= 3 on a copy.
    let y = set!(x[x < 0] %= 4);
    assert_eq!(y, array![1, 2, 2, 3, 0, 0]);
    // Integer remainder by zero is refused, as division is; nothing written.
    assert_eq!(try_at!(x[[0, 1]] %= array![2, 0]), Err(IndexError::DivisionByZero));
    assert_eq!(x, array![1, 2, -2, -1, 0, 0]);
    // `bool` has no `-`: refused with the operation named.
    let error = try_at!(b[[0]] -= true).unwrap_err();
    assert_eq!(error.to_string(), "`-=` is not defined for `bool` elements");
}

/// `bf16` and `f16` elements (the `half` feature): each update computed in
/// `f32` and rounded once, duplicates in index order, as a loop over the
/// `f32` values rounds them; min and max propagate NaN; the mask sugar
/// compares them.
#[test]
fn half_precision_updates_round_once_from_f32() {
    use half::{bf16, f16};
    let start = [1.5f32, -2.25, 3.0, 0.1, 1000.0, f32::NAN];
    let index = [0usize, 1, 2, 3, 4, 0, 5];
    let values = [0.3f32, 7.0, -0.7, 2.0, 0.001, 0.5, 1.0];
    type Rule = fn(f32, f32) -> f32;
    let ops: [(Op, Rule); 5] = [
        (Op::Add, |a, b| a + b),
        (Op::Sub, |a, b| a - b),
        (Op::Mul, |a, b| a * b),
        (Op::Div, |a, b| a / b),
        (Op::Max, |a, b| if a.is_nan() || a > b { a } else { b }),
    ];
    for (op, f) in ops {
        let mut x = Array1::from_iter(start.map(bf16::from_f32));
        let v = Array1::from_iter(values.map(bf16::from_f32));
        tensor_at::backend::update(&mut x, &[tensor_at::ix(&index[..])], op, &v, tensor_at::Mode::Error).unwrap();
        let mut expected = start.map(bf16::from_f32);
        for (&i, &value) in index.iter().zip(&v) {
            expected[i] = bf16::from_f32(f(expected[i].to_f32(), value.to_f32()));
        }
        let bits = |a: &[bf16]| a.iter().map(|e| if e.is_nan() { 0 } else { e.to_bits() }).collect::<Vec<_>>();
        assert_eq!(bits(x.as_slice().unwrap()), bits(&expected), "{op:?}");
    }
    let mut y = Array1::from_iter(start.map(f16::from_f32));
    at!(y[[0, 0, 4]] += f16::from_f32(0.1));
    let tenth = f16::from_f32(0.1).to_f32();
    let twice = f16::from_f32(f16::from_f32(1.5 + tenth).to_f32() + tenth);
    assert_eq!(y[0], twice);
    assert_eq!(y[4], f16::from_f32(f16::from_f32(1000.0).to_f32() + tenth));
    at!(y[y > f16::from_f32(2.0)] = f16::ZERO);
    assert_eq!(y.iter().filter(|e| e.to_f32() > 2.0).count(), 0);
}

/// `Complex<f64>` and `Complex<f32>` elements: `= += -= *= /=` through
/// every index form, duplicates in index order as a loop over num-complex's
/// operators gives them (divisors whose parts are powers of two, so that
/// NumPy's scaled quotient and the plain one agree; the NumPy corpus checks
/// the quotient's bits), the operations complex numbers lack refused.
#[test]
fn complex_updates_follow_a_loop_in_index_order() {
    use tensor_at::num_complex::{Complex, Complex32, Complex64};
    let c = |re: f64, im: f64| Complex64::new(re, im);
    let start = [c(1.0, 2.0), c(-0.5, 0.25), c(3.0, -1.0), c(0.0, 0.0)];
    let index = [2usize, 0, 2, 3, 2];
    let values = [c(0.5, -1.5), c(2.0, 0.0), c(0.0, 4.0), c(-1.25, 3.0), c(0.0, -0.5)];
    let divisors = [c(0.5, 0.0), c(2.0, 0.0), c(0.0, 4.0), c(-0.25, 0.0), c(0.0, -0.5)];
    type Rule = fn(Complex64, Complex64) -> Complex64;
    let ops: [(Op, Rule); 4] = [
        (Op::Add, |a, b| a + b),
        (Op::Sub, |a, b| a - b),
        (Op::Mul, |a, b| a * b),
        (Op::Div, |a, b| a / b),
    ];
    for (op, f) in ops {
        let values = if op == Op::Div { divisors } else { values };
        let mut x = Array1::from(start.to_vec());
        let v = Array1::from(values.to_vec());
        tensor_at::backend::update(&mut x, &[tensor_at::ix(&index[..])], op, &v, tensor_at::Mode::Error).unwrap();
        let mut expected = start;
        for (&i, &value) in index.iter().zip(&values) {
            expected[i] = f(expected[i], value);
        }
        assert_eq!(x.to_vec(), expected, "{op:?}");
    }
    // The macros, on a mask, a slice and a scalar value; `Complex32` too.
    let mut z = Array1::from(start.to_vec());
    at!(z[z == c(0.0, 0.0)] = c(9.0, 9.0));
    at!(z[1:3] *= c(0.0, 1.0));
    assert_eq!(z.to_vec(), [c(1.0, 2.0), c(-0.25, -0.5), c(1.0, 3.0), c(9.0, 9.0)]);
    let mut w = Array1::<Complex32>::zeros(3);
    at!(w[[0, 0, 2]] += Complex::new(1.5, -2.0));
    at!(w[[0, 2]] /= array![Complex::new(2.0, 0.0), Complex::new(0.0, 2.0)]);
    assert_eq!(
        w.to_vec(),
        [Complex::new(1.5, -2.0), Complex::new(0.0, 0.0), Complex::new(-1.0, -0.75)]
    );
    // No order, no powers, no remainders: refused at run time by the API
    // (the macros refuse `min` and `max` at compile time), nothing written.
    for op in [Op::Min, Op::Max, Op::Pow, Op::Rem, Op::BitXor] {
        let error =
            tensor_at::backend::update(&mut z, &[tensor_at::ix(&[0usize][..])], op, &c(1.0, 0.0), tensor_at::Mode::Error).unwrap_err();
        assert_eq!(
            error,
            IndexError::UnsupportedOperation {
                op,
                element: std::any::type_name::<Complex64>()
            }
        );
    }
    assert_eq!(z[0], c(1.0, 2.0));
    let error = try_at!(z[[0]] %= c(1.0, 0.0)).unwrap_err();
    assert_eq!(error.to_string(), "`%=` is not defined for `num_complex::Complex<f64>` elements");
}

#[test]
fn every_operator_and_method() {
    // np.<ufunc>.at(x, [0, 0, 2], v) for each ufunc.
    let base = array![2.0, 3.0, 4.0];
    let idx = [0usize, 0, 2];
    let run = |f: &dyn Fn(&mut Array1<f64>)| {
        let mut x = base.clone();
        f(&mut x);
        x
    };
    assert_eq!(run(&|x| at!(x[idx] = 1.0)), array![1.0, 3.0, 1.0]);
    assert_eq!(run(&|x| at!(x[idx] += 1.0)), array![4.0, 3.0, 5.0]);
    assert_eq!(run(&|x| at!(x[idx] -= 1.0)), array![0.0, 3.0, 3.0]);
    assert_eq!(run(&|x| at!(x[idx] *= 2.0)), array![8.0, 3.0, 8.0]);
    assert_eq!(run(&|x| at!(x[idx] /= 2.0)), array![0.5, 3.0, 2.0]);
    assert_eq!(run(&|x| at!(x[idx].set(1.0))), array![1.0, 3.0, 1.0]);
    assert_eq!(run(&|x| at!(x[idx].add(1.0))), array![4.0, 3.0, 5.0]);
    assert_eq!(run(&|x| at!(x[idx].sub(1.0))), array![0.0, 3.0, 3.0]);
    assert_eq!(run(&|x| at!(x[idx].mul(2.0))), array![8.0, 3.0, 8.0]);
    assert_eq!(run(&|x| at!(x[idx].div(2.0))), array![0.5, 3.0, 2.0]);
    assert_eq!(run(&|x| at!(x[idx].pow(2.0))), array![16.0, 3.0, 16.0]);
    assert_eq!(run(&|x| at!(x[idx].min(2.5))), array![2.0, 3.0, 2.5]);
    assert_eq!(run(&|x| at!(x[idx].max(2.5))), array![2.5, 3.0, 4.0]);
    assert_eq!(run(&|x| at!(x[idx].apply(|e| e * e))), array![16.0, 3.0, 16.0]);
    assert_eq!(at!(base[idx].get()), array![2.0, 2.0, 4.0]);
}

#[test]
fn modes() {
    let mut x = array![0, 0, 0];
    at!(x[[1, 5]] = 7; mode = clip);
    assert_eq!(x, array![0, 7, 7]);
    at!(x[[-4, 3]] += 1; mode = wrap);
    assert_eq!(x, array![1, 7, 8]);
    at!(x[[0, 9]] = 5; mode = drop);
    assert_eq!(x, array![5, 7, 8]);
    let r: Array1<i32> = at!(x[[0, 9]]; mode = fill(-1));
    assert_eq!(r, array![5, -1]);
    let r: i32 = at!(x[9]; mode = fill(-1));
    assert_eq!(r, -1);
    at!(x[2] = 0; mode = error);
    assert_eq!(x, array![5, 7, 0]);
}

#[test]
fn nd_indices_like_tensor_scatter_nd_update() {
    // tf.tensor_scatter_nd_update(zeros(8), [[4], [3], [1], [7]], [9, 10, 11, 12])
    let mut t = Array1::<i32>::zeros(8);
    let indices = array![[4usize], [3], [1], [7]];
    at!(t[nd(indices)] = array![9, 10, 11, 12]);
    assert_eq!(t, array![0, 11, 0, 10, 9, 0, 0, 12]);
    // gather_nd on a matrix
    let x = grid();
    let points = array![[0usize, 0], [2, 3]];
    let r: ArrayD<i32> = at!(x[nd(&points)]).into_dyn();
    assert_eq!(r, array![0, 11].into_dyn());
}

#[test]
fn set_returns_a_copy_and_leaves_places_alone() {
    let x = grid();
    let y = set!(x[..., 2] = 0);
    assert_eq!(x[[0, 2]], 2);
    assert_eq!(y.column(2), array![0, 0, 0]);
    let z = set!(x[x > 9] += 100);
    assert_eq!(z[[2, 3]], 111);
    let w = set!(x[[0, 0], 0].apply(|e| e - 1));
    assert_eq!(w[[0, 0]], -2);
}

#[test]
fn set_on_a_value_reuses_its_buffer() {
    let x = grid();
    let buffer = x.as_ptr();
    let mask = x.mapv(|v| v > 5);
    let y = set!({ x }[mask] = 0);
    assert_eq!(y.as_ptr(), buffer);
    assert_eq!(y.row(2), array![0, 0, 0, 0]);
    let shared = grid().into_shared();
    let other = shared.clone();
    let updated = set!(shared.clone()[0, 0] = -1);
    assert_eq!(updated[[0, 0]], -1);
    assert_eq!(other[[0, 0]], 0);
}

#[test]
fn targets_through_references_views_and_fields() {
    struct Model {
        weights: Array2<f64>,
    }
    let mut model = Model {
        weights: Array2::zeros((2, 2)),
    };
    at!(model.weights[0, :] = 1.0);
    let weights = &mut model.weights;
    at!(weights[1, 1] = 2.0);
    let mut view = model.weights.slice_mut(s![.., ..;-1]);
    at!(view[1, 0] += 1.0);
    assert_eq!(model.weights, array![[1.0, 1.0], [0.0, 3.0]]);
    let mut shared = Array2::<f64>::zeros((2, 2)).into_shared();
    at!(shared[0, 0] = 1.0);
    assert_eq!(shared[[0, 0]], 1.0);
}

#[test]
fn values_are_evaluated_before_the_target_is_borrowed() {
    let mut x = array![1.0, 2.0, 3.0];
    at!(x[0] = x.sum());
    at!(x[1:] += x[0]);
    assert_eq!(x, array![6.0, 8.0, 9.0]);
    let shifted = at!(x[:-1]).to_owned();
    at!(x[1:] = shifted);
    assert_eq!(x, array![6.0, 6.0, 8.0]);
}

#[test]
fn try_forms_return_errors_and_write_nothing() -> Result<(), IndexError> {
    let mut x = grid();
    let before = x.clone();
    let error = try_at!(x[[0, 3], 1] = 0).unwrap_err();
    assert_eq!(error.to_string(), "index 3 is out of bounds for axis 0 with size 3");
    assert_eq!(x, before);
    assert!(matches!(
        try_at!(x[:, [0, 1]] = array![1, 2, 3]),
        Err(IndexError::ShapeMismatch { .. })
    ));
    assert!(try_at!(x[5]).is_err());
    try_at!(x[0, 0] = -1)?;
    let y = try_set!(x[-1, -1] = -2)?;
    assert_eq!((x[[0, 0]], y[[2, 3]]), (-1, -2));
    assert!(try_set!(x[0, 9] += 1).is_err());
    Ok(())
}

#[test]
fn panics_carry_the_error_message_at_the_callers_line() {
    let x = Array1::<i32>::zeros(3);
    let line = line!() + 2;
    let Err(caught) = crate::panics::catch(move || {
        let _ = at!(x[7]);
    }) else {
        panic!("an index out of bounds panics");
    };
    assert_eq!(caught.message, "index 7 is out of bounds for axis 0 with size 3");
    assert_eq!(caught.location, format!("{}:{line}", file!()));
}

#[test]
fn integers_alone_read_the_element_as_numpy_does() {
    // x = np.arange(12).reshape(3, 4): x[1, 2] == 6 and x[-1, -1] == 11
    // are scalars; x[1] and x[1, 2, ...] are arrays (0-d for the latter).
    let mut x = grid();
    let element: i32 = at!(x[1, 2]);
    assert_eq!(element, 6);
    assert_eq!(at!(x[-1, -1]), 11);
    let (i, j) = (2u8, -3i64);
    assert_eq!(at!(x[i, j]), 9);
    let row: ArrayView1<i32> = at!(x[1]);
    assert_eq!(row, array![4, 5, 6, 7]);
    let zero_d: ndarray::ArrayView0<i32> = at!(x[1, 2, ...]);
    assert_eq!(zero_d[()], 6);
    // Modes: clip moves the integers in, fill reads the fill value.
    assert_eq!(at!(x[7, 9]; mode = clip), 11);
    assert_eq!(at!(x[7, 0]; mode = fill(-1)), -1);
    assert_eq!(at!(x[0, 1]; mode = fill(-1)), 1);
    let filled_row: Array1<i32> = at!(x[7]; mode = fill(-1));
    assert_eq!(filled_row, array![-1, -1, -1, -1]);
    // A rank known only at run time stays an array.
    let d = x.clone().into_dyn();
    assert_eq!(at!(d[1, 2]).shape(), &[] as &[usize]);
    assert_eq!(try_at!(x[3, 0]), Err(IndexError::OutOfBounds { index: 3, axis: 0, len: 3 }));
    // The element is a copy: the array is free to change after the read.
    let before = at!(x[0, 0]);
    at!(x[0, 0] = 100);
    assert_eq!((before, at!(x[0, 0])), (0, 100));
    // Read values feed writes: x[0, 1] = x[2, 3]
    at!(x[0, 1] = x[2, 3]);
    assert_eq!(x[[0, 1]], 11);
}

#[test]
fn rank_zero_and_dynamic_targets() {
    let mut x = Array::from_elem((), 1.5);
    at!(x[...] = 2.0);
    at!(x[...] *= 2.0; mode = clip);
    assert_eq!(x[()], 4.0);
    let mut d = ArrayD::<i32>::zeros(IxDyn(&[2, 2, 2]));
    at!(d[1, ..., 0] = 3);
    assert_eq!(d.iter().sum::<i32>(), 6);
}

#[test]
fn masks_combine_like_numpy() {
    // x = np.arange(8.); x[(x > 1) & (x < 5) | (x == 7)] = -1
    let mut x = Array1::from_iter((0..8).map(f64::from));
    at!(x[(x > 1.0) & (x < 5.0) | (x == 7.0)] = -1.0); // fused: every comparison is on x
    assert_eq!(x, array![0.0, 1.0, -1.0, -1.0, -1.0, 5.0, 6.0, -1.0]);
    // y[~(y % 2 == 0)] with another array's comparisons: z[!(z == 0) ^ (y > 2)] += 10
    let y = array![1, 2, 3, 4];
    let mut z = array![0, 1, 0, 1];
    at!(z[!(z == 0) ^ (y > 2)] += 10);
    // !(z == 0) = [F, T, F, T]; y > 2 = [F, F, T, T]; xor = [F, T, T, F]
    assert_eq!(z, array![0, 11, 10, 1]);
    let picked: Array1<i32> = at!(y[(y == 1) | (y == 4)]);
    assert_eq!(picked, array![1, 4]);
    // A parenthesized single comparison is a mask too.
    at!(z[(z > 5)] = 5);
    assert_eq!(z, array![0, 5, 5, 1]);
}

#[test]
fn nested_array_literals_index_like_numpy_lists() {
    // tf.tensor_scatter_nd_update(tf.zeros(8), [[4], [3], [1], [7]], [9, 10, 11, 12])
    let t = Array1::<i32>::zeros(8);
    let u = set!(t[nd([[4], [3], [1], [7]])] = array![9, 10, 11, 12]);
    assert_eq!(u, array![0, 11, 0, 10, 9, 0, 0, 12]);
    // x[[[0, 1], [1, 0]]] on np.arange(3) -> [[0, 1], [1, 0]]
    let x = array![5, 6, 7];
    let r: Array2<i32> = at!(x[[[0, 1], [1, 0]]]);
    assert_eq!(r, array![[5, 6], [6, 5]]);
}

#[test]
fn values_may_be_index_reads_of_the_target_itself() {
    // x = np.arange(5); x[1:] = x[:-1]  (NumPy copies the overlapping operand)
    let mut x = Array1::from_iter(0..5);
    at!(x[1:] = x[:-1]);
    assert_eq!(x, array![0, 0, 1, 2, 3]);
    // img[..., [0, 2]] = img[..., [2, 0]]: swap two channels
    let mut img = Array2::from_shape_fn((2, 3), |(i, j)| (i * 3 + j) as i32);
    at!(img[..., [0, 2]] = img[..., [2, 0]]);
    assert_eq!(img, array![[2, 1, 0], [5, 4, 3]]);
    at!(img[0, 1..] += img[1, 1..]);
    assert_eq!(img.row(0), array![2, 5, 3]);
    // A bad read is the call's error, not a panic of its own.
    assert!(try_at!(img[0] = img[7, ..]).is_err());
    let y = set!(img[1] = img[0, ..]);
    assert_eq!(y.row(1), array![2, 5, 3]);
}

#[test]
fn fused_masks_with_array_values_check_the_count_first() {
    // x = np.array([-1., 2., -3., 4.]); x[x < 0] = [10, 20]
    let mut x = array![-1.0, 2.0, -3.0, 4.0];
    at!(x[x < 0.0] = array![10.0, 20.0]);
    assert_eq!(x, array![10.0, 2.0, 20.0, 4.0]);
    // NumPy: "cannot assign 3 input values to the 2 output values where the mask is true"
    let before = x.clone();
    let error = try_at!(x[x > 5.0] = array![1.0, 2.0, 3.0]).unwrap_err();
    assert_eq!(error, IndexError::ValueCount { given: 3, expected: 2 });
    assert!(matches!(
        try_at!(x[x > 5.0] += array![1.0, 2.0, 3.0]),
        Err(IndexError::ShapeMismatch { .. })
    ));
    assert_eq!(x, before);
    // Integer division by a zero that would be applied: nothing written.
    let mut n = array![4, -2, 6];
    assert_eq!(try_at!(n[n > 0] /= array![2, 0]), Err(IndexError::DivisionByZero));
    assert_eq!(n, array![4, -2, 6]);
    at!(n[n > 0] /= array![2, 3]);
    assert_eq!(n, array![2, -2, 2]);
}

#[test]
fn fused_masks_and_apply_follow_c_order_on_any_layout() {
    use ndarray::{Axis, ShapeBuilder};
    // np.zeros((2, 3))[x == 0] = [1..6] fills in C order whatever the memory order.
    let mut x = Array2::<f64>::zeros((2, 3).f());
    at!(x[x == 0.0] = array![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(x, array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    // Through a reversed view: the values go to the view's C order.
    let mut a = array![1.0, -1.0, 2.0, -2.0];
    {
        let mut v = a.view_mut();
        v.invert_axis(Axis(0));
        at!(v[v < 0.0] = array![10.0, 20.0]);
    }
    assert_eq!(a, array![1.0, 20.0, 2.0, 10.0]);
    // apply(f) calls f in C order.
    let mut z = Array2::<i32>::zeros((2, 3).f());
    let mut calls = 0;
    at!(z[..].apply(|_| {
        calls += 1;
        calls
    }));
    assert_eq!(z, array![[1, 2, 3], [4, 5, 6]]);
}

#[test]
fn spacing_and_rust_indexing_in_values() {
    let mut x = array![0.0, 0.0, 0.0];
    at!(x[0] = -1.0);
    at!(x[1] += -2.0);
    let w = [5.0, 6.0];
    at!(x[2] = w[1]); // an array's own indexing stays Rust's
    assert_eq!(x, array![-1.0, -2.0, 6.0]);
    let y = array![7.0, 8.0, 9.0];
    at!(x[1:].set(y[:-1]));
    assert_eq!(x, array![-1.0, 7.0, 8.0]);
}

#[test]
fn variables_that_are_already_references() {
    let mut x = Array1::<f64>::zeros(5);
    let idx = vec![0usize, 2];
    for i in idx.iter() {
        at!(x[i] = 1.0);
    }
    let vals = [0.5, 0.25];
    for v in vals.iter() {
        at!(x[4] += v);
    }
    fn mark(x: &mut Array1<f64>, idx: &Vec<usize>, fixed: &[usize; 1]) {
        at!(x[idx] += 1.0);
        at!(x[fixed] = -1.0);
    }
    mark(&mut x, &idx, &[1]);
    assert_eq!(x, array![2.0, -1.0, 2.0, 0.0, 0.75]);
    let e = tensor_at::ix(1);
    assert_eq!(at!(x[e]).into_dimensionality::<ndarray::Ix0>().unwrap()[()], -1.0);
    let q = nd(array![[3usize]]);
    at!(x[q] = 9.0);
    assert_eq!(at!(x[tensor_at::index::Ellipsis, 3])[()], 9.0);
}

macro_rules! zero_at {
    ($x:expr, $i:expr) => {
        at!($x[$i] = 0.0)
    };
}

macro_rules! copy_with {
    ($x:expr, $i:expr, $v:expr) => {
        set!($x[$i] = $v)
    };
}

#[test]
fn fragments_of_a_users_own_macro() {
    let mut x = array![1.0, -2.0, 3.0];
    let idx = vec![0usize];
    zero_at!(x, idx);
    zero_at!(x, x < 0.0);
    let y = copy_with!(x, 2, 5.0);
    assert_eq!(idx, vec![0]); // not moved
    assert_eq!(x, array![0.0, 0.0, 3.0]); // not moved or changed
    assert_eq!(y, array![0.0, 0.0, 5.0]);
}

#[test]
fn start_and_step_variables_and_mixed_masks() {
    let x = Array1::from_iter(0..10);
    let (i, k) = (1isize, 3isize);
    assert_eq!(at!(x[i::k]), array![1, 4, 7]); // x[i::k]
    let mut y = array![-1.0, 2.0, -3.0, 4.0];
    let m = array![true, true, false, false];
    at!(y[(y > 0.0) & m] = 0.0); // a comparison and a boolean array
    at!(y[0.0 > y] *= -1.0); // a literal on the left
    assert_eq!(y, array![1.0, 0.0, 3.0, 4.0]);
    at!(y[!m] = 7.0);
    assert_eq!(m, array![true, true, false, false]); // borrowed
    assert_eq!(y, array![1.0, 0.0, 7.0, 7.0]);
}

#[test]
fn extreme_bounds_and_small_integer_indices() {
    let x = Array1::from_iter(0..4);
    assert!(try_at!(x[u64::MAX..]).is_err());
    assert!(try_at!(x[3usize..usize::MAX]).is_err());
    assert!(try_at!(x[..=isize::MAX]).is_err());
    assert_eq!(at!(x[::isize::MIN]), array![3]); // x[::-2**63] == [3]
    let grid = Array2::from_shape_fn((4, 5), |(i, j)| (i * 5 + j) as i32);
    let r: Array2<i32> = at!(grid[::isize::MIN, [0, 1]]);
    assert_eq!(r, array![[15, 16]]);
    let small: u8 = 2;
    assert_eq!(at!(x[small]), 2);
    let mut z = array![1, 2];
    let copy = set!(z.view_mut()[0] = 5);
    assert_eq!((copy, z[0]), (array![5, 2], 1));
    at!(z[-1i8] = 0);
    assert_eq!(z, array![1, 0]);
}

#[test]
fn fused_masks_agree_with_the_general_mask_path_on_long_arrays() {
    // 1000 elements: many 64-element chunks, partial last chunk.
    let base = Array1::from_iter((0..1000).map(|i: i32| f64::from(i * 37 % 101 - 50)));
    let count = base.iter().filter(|&&v| v < 0.0).count();
    let values = Array1::from_iter((0..count).map(|k| k as f64 * 0.5));
    let mut fused = base.clone();
    at!(fused[fused < 0.0] = values);
    let mut general = base.clone();
    let mask = base.mapv(|v| v < 0.0);
    tensor_at::backend::set(&mut general, &[tensor_at::ix(&mask)], &values, tensor_at::Mode::Error).unwrap();
    assert_eq!(fused, general);
    let mut fused = base.clone();
    at!(fused[fused >= 10.0] += 1.5);
    let mut general = base.clone();
    let mask = base.mapv(|v| v >= 10.0);
    tensor_at::backend::update(
        &mut general,
        &[tensor_at::ix(&mask)],
        tensor_at::Op::Add,
        1.5,
        tensor_at::Mode::Error,
    )
    .unwrap();
    assert_eq!(fused, general);
}

/// A point: an element type of the user's own, written as a struct literal.
#[derive(Clone, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

impl tensor_at::element::Scalar for Point {}

#[test]
fn struct_literal_values() {
    // Found by the `macro_parser` fuzz target: a struct literal is not an
    // expression Rust parses bare as a `match` scrutinee.
    let origin = Point { x: 0.0, y: 0.0 };
    let mut points = Array1::from_elem(3, origin.clone());
    at!(points[0] = Point { x: 1.0, y: 2.0 });
    at!(points[[2, 2]] = &Point { x: 3.0, y: 4.0 });
    let moved = set!(points[1:2] = Point { x: 5.0, y: 6.0 });
    assert_eq!(points, array![Point { x: 1.0, y: 2.0 }, origin.clone(), Point { x: 3.0, y: 4.0 }]);
    assert_eq!(moved[1], Point { x: 5.0, y: 6.0 });
}

/// `; out = buf` reads into an existing array (NumPy's
/// `np.take(x, rows, axis=0, out=buf)`), expected by loops over `x`.
#[test]
fn reads_fill_an_existing_array() {
    let x = grid();
    let rows = array![2, 0, 2];
    let mut picked = Array2::<i32>::zeros((3, 4));
    at!(x[rows]; out = picked);
    for (k, &row) in rows.iter().enumerate() {
        assert_eq!(picked.row(k), x.row(row));
    }
    // A basic read, into a `&mut` binding.
    let mut last = Array1::<i32>::zeros(3);
    let buf = &mut last;
    at!(x[:, -1]; out = buf);
    assert_eq!(last, array![3, 7, 11]);
    // Into a column of another array (not contiguous), a pair of indices.
    let mut wide = Array2::<i32>::zeros((2, 5));
    at!(x[[0, 2], [1, 3]]; out = wide.column_mut(4));
    assert_eq!(wide.column(4), array![x[[0, 1]], x[[2, 3]]]);
    assert_eq!(wide.column(0), array![0, 0]);
    // Mode fill, in either order with `out`: row 7 reads as -1.
    let mut filled = Array2::<i32>::zeros((2, 4));
    at!(x[[7, 1]]; mode = fill(-1), out = filled);
    assert_eq!(filled, array![[-1, -1, -1, -1], [4, 5, 6, 7]]);
    at!(x[[1, 7]]; out = filled, mode = fill(-2));
    assert_eq!(filled, array![[4, 5, 6, 7], [-2, -2, -2, -2]]);
    // A mask, built since the result goes into `out`; a dynamic rank.
    let mut selected = ArrayD::<i32>::zeros(IxDyn(&[3]));
    at!(x[x > 8]; out = selected);
    assert_eq!(selected, array![9, 10, 11].into_dyn());
    // A mask over the rows, each true row one block: into a contiguous array, and into a
    // transposed one.
    let kept = array![true, false, true];
    let mut blocks = Array2::<i32>::zeros((2, 4));
    at!(x[kept]; out = blocks);
    let mut transposed = Array2::<i32>::zeros((4, 2));
    at!(x[kept]; out = transposed.view_mut().reversed_axes());
    for (k, row) in [0, 2].into_iter().enumerate() {
        assert_eq!(blocks.row(k), x.row(row));
        assert_eq!(transposed.column(k), x.row(row));
    }
}

/// A read into an array of the wrong shape, or with a bad index, is an
/// error and leaves the array as it was.
#[test]
fn reads_into_an_array_check_first() {
    let x = grid();
    let mut out = Array2::<i32>::from_elem((2, 4), 5);
    assert_eq!(
        try_at!(x[[0, 1, 2]]; out = out),
        Err(IndexError::OutputShape {
            out: tensor_at::error::Dims(vec![2, 4]),
            result: tensor_at::error::Dims(vec![3, 4]),
        })
    );
    assert!(matches!(
        try_at!(x[[0, 3]]; out = out),
        Err(IndexError::OutOfBounds { index: 3, .. })
    ));
    assert_eq!(out, Array2::from_elem((2, 4), 5));
    assert_eq!(try_at!(x[[2, 0]]; out = out), Ok(()));
    assert_eq!(out.row(0), x.row(2));
}

/// Index arrays of the narrow integer types index as NumPy's do (the
/// corpus checks them against NumPy): negatives from the end, duplicates
/// in order, an out-of-bounds value an error naming it.
#[test]
fn narrow_integer_index_arrays() {
    let mut x = array![10.0, 20.0, 30.0, 40.0];
    let bytes = array![3u8, 0, 3];
    assert_eq!(at!(x[bytes]), array![40.0, 10.0, 40.0]);
    let back: Vec<i8> = vec![-1, -4];
    at!(x[back] += 1.0);
    assert_eq!(x, array![11.0, 20.0, 30.0, 41.0]);
    let shorts = [1i16, 1, 2];
    at!(x[shorts] += 0.5);
    assert_eq!(x, array![11.0, 21.0, 30.5, 41.0]);
    let wide = array![[0u16, 2], [3, 1]];
    assert_eq!(at!(x[wide]), array![[11.0, 30.5], [41.0, 21.0]]);
    let bad = array![1u8, 200];
    assert_eq!(
        try_at!(x[bad] = 0.0).unwrap_err(),
        IndexError::OutOfBounds {
            index: 200,
            axis: 0,
            len: 4
        }
    );
    assert_eq!(x, array![11.0, 21.0, 30.5, 41.0]);
}

/// JAX's full method names (`.at[].subtract/.multiply/.divide/.power`) are
/// the short ones: the same updates, in place and through `set!`.
#[test]
fn jax_method_names_are_aliases() {
    let x = array![[1.0, 2.0], [3.0, 4.0]];
    let rows = array![1, 0, 1];
    assert_eq!(set!(x[rows].subtract(0.5)), set!(x[rows].sub(0.5)));
    assert_eq!(set!(x[rows].multiply(3.0)), set!(x[rows].mul(3.0)));
    assert_eq!(set!(x[rows].divide(2.0)), set!(x[rows].div(2.0)));
    assert_eq!(set!(x[rows].power(2.0)), set!(x[rows].pow(2.0)));
    let mut y = x.clone();
    at!(y[:, 1].multiply(10.0));
    assert_eq!(y, array![[1.0, 20.0], [3.0, 40.0]]);
    // Duplicates apply in index order, as with the short names: row 1 is
    // multiplied twice.
    assert_eq!(set!(x[rows].multiply(2.0)), array![[2.0, 4.0], [12.0, 16.0]]);
}
