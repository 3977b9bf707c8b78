//! Every form of a small call, counted in instructions beside the same work
//! written with ndarray by hand: index forms (element, row, region,
//! negative and stepped slices, `...`/`None`, an index array, a literal
//! list, a mask, a comparison, `along`, `nd`) × operations (read, `=`,
//! `op=`, `set!`) × value kinds (scalar, owned array, view, expression),
//! and `.apply(f)` over an index array and a literal list.
//!
//! Each case is one function measured twice, `at` and `by_hand`; its inputs
//! are built outside the measurement and its result returned out of it, so
//! that neither side pays for making or dropping them. `bash
//! scripts/instructions` runs it and compares each ratio with its target
//! (`targets.txt`).

// Every input is bound `mut`, whether its case writes it or not.
#![allow(unused_mut)]

use std::hint::black_box;

use gungraun::{library_benchmark, library_benchmark_group, main};
use ndarray::{Array1, Array2, ArrayD, ArrayView1, ArrayView2, ArrayView3, Axis, NewAxis, array, s};
use tensor_at::{along, at, nd, set};

/// Which side of a case runs.
#[derive(Clone, Copy)]
enum Form {
    At,
    ByHand,
}

/// A 4×4 target.
fn grid() -> Array2<f32> {
    warm_up();
    Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f32 / 16.0)
}

/// A target of 16 elements.
fn line() -> Array1<f32> {
    warm_up();
    Array1::from_shape_fn(16, |k| k as f32 / 16.0)
}

/// What a process pays once, on its first call that asks the machine (its
/// caches and thread pool), paid here, outside the measurement: each case
/// runs in a process of its own, and the steady state is what users pay.
/// The call is a small mask read in a mode that no inline path takes, so
/// that it reaches the machine whichever paths small calls take.
fn warm_up() {
    let x = Array1::<f32>::zeros(4);
    let m = array![true, false, true, false];
    black_box(at!(x[m]; mode = clip));
}

/// A mask over [`line`].
fn mask() -> Array1<bool> {
    Array1::from_shape_fn(16, |k| k % 3 == 0)
}

/// An input that outlives the measurement, for reads that return views.
fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

/// One side of a case, in a function of its own: neither side's code is
/// laid out or optimized with the other's.
#[inline(never)]
fn side<A, R>(inputs: A, run: impl FnOnce(A) -> R) -> R {
    run(inputs)
}

/// The cases: `name(inputs) -> result { at: ..., by_hand: ... }`.
macro_rules! cases {
    ($( $name:ident($($arg:ident: $ty:ty = $input:expr),*) -> $ret:ty { at: $at:expr, by_hand: $hand:expr $(,)? } )*) => {
        $(
            #[library_benchmark]
            #[bench::at(Form::At, $($input),*)]
            #[bench::by_hand(Form::ByHand, $($input),*)]
            fn $name(form: Form, $($arg: $ty),*) -> $ret {
                match black_box(form) {
                    Form::At => side(($($arg,)*), |($(mut $arg,)*)| $at),
                    Form::ByHand => side(($($arg,)*), |($(mut $arg,)*)| $hand),
                }
            }
        )*
        library_benchmark_group!(name = matrix; benchmarks = $($name),*);
    };
}

cases! {
    // ---------------------------------------------------------------- reads
    read_element(x: &'static Array2<f32> = leak(grid())) -> f32 {
        at: at!(x[1, 2]),
        by_hand: x[[1, 2]],
    }
    read_row(x: &'static Array2<f32> = leak(grid())) -> ArrayView1<'static, f32> {
        at: at!(x[0, ..]),
        by_hand: x.row(0),
    }
    read_region(x: &'static Array2<f32> = leak(grid())) -> ArrayView2<'static, f32> {
        at: at!(x[1:3, 1:3]),
        by_hand: x.slice(s![1..3, 1..3]),
    }
    read_negative(x: &'static Array2<f32> = leak(grid())) -> ArrayView2<'static, f32> {
        at: at!(x[-2:, ::-1]),
        by_hand: x.slice(s![-2.., ..;-1]),
    }
    read_stepped(x: &'static Array2<f32> = leak(grid())) -> ArrayView2<'static, f32> {
        at: at!(x[::2, 1::2]),
        by_hand: x.slice(s![..;2, 1..;2]),
    }
    read_new_axis(x: &'static Array2<f32> = leak(grid())) -> ArrayView3<'static, f32> {
        at: at!(x[..., None]),
        by_hand: x.slice(s![.., .., NewAxis]),
    }
    read_index_array(x: &'static Array2<f32> = leak(grid()), idx: Array1<usize> = array![1, 3]) -> Array2<f32> {
        at: at!(x[idx]),
        by_hand: x.select(Axis(0), idx.as_slice().unwrap()),
    }
    read_literal_list(x: &'static Array2<f32> = leak(grid())) -> Array2<f32> {
        at: at!(x[[0, 3]]),
        by_hand: x.select(Axis(0), &[0, 3]),
    }
    read_mask(x: &'static Array1<f32> = leak(line()), m: Array1<bool> = mask()) -> Array1<f32> {
        at: at!(x[m]),
        by_hand: x.iter().zip(&m).filter(|(_, keep)| **keep).map(|(e, _)| *e).collect(),
    }
    read_comparison(x: &'static Array1<f32> = leak(line())) -> Array1<f32> {
        at: at!(x[x > 0.5]),
        by_hand: x.iter().copied().filter(|&e| e > 0.5).collect(),
    }
    read_along(x: &'static Array2<f32> = leak(grid()), idx: Array2<usize> = array![[2], [0], [3], [1]]) -> Array2<f32> {
        at: at!(x[along(idx, 1)]),
        by_hand: Array2::from_shape_fn((4, 1), |(i, j)| x[[i, idx[[i, j]]]]),
    }
    read_nd(x: &'static Array2<f32> = leak(grid()), c: Array2<usize> = array![[0, 1], [2, 3], [3, 0]]) -> ArrayD<f32> {
        // (The result's rank depends on `c`'s last length: dynamic.)
        at: at!(x[nd(c)]),
        by_hand: Array1::from_shape_fn(3, |k| x[[c[[k, 0]], c[[k, 1]]]]).into_dyn(),
    }

    // ---------------------------------------------------------------- `=` of a scalar
    set_element(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1, 2] = 1.0); x },
        by_hand: { x[[1, 2]] = 1.0; x },
    }
    set_row(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1, :] = 0.0); x },
        by_hand: { x.row_mut(1).fill(0.0); x },
    }
    set_region(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1:3, :] = 1.0); x },
        by_hand: { x.slice_mut(s![1..3, ..]).fill(1.0); x },
    }
    set_negative(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[-2:, ::-1] = 1.0); x },
        by_hand: { x.slice_mut(s![-2.., ..;-1]).fill(1.0); x },
    }
    set_stepped(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[::2, 1::2] = 1.0); x },
        by_hand: { x.slice_mut(s![..;2, 1..;2]).fill(1.0); x },
    }
    set_new_axis(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[..., None] = 1.0); x },
        by_hand: { x.slice_mut(s![.., .., NewAxis]).fill(1.0); x },
    }
    set_index_array(x: Array1<f32> = line(), idx: Array1<usize> = array![1, 5, 9]) -> Array1<f32> {
        at: { at!(x[idx] = 0.0); x },
        by_hand: { for &i in &idx { x[i] = 0.0; } x },
    }
    set_literal_list(x: Array1<f32> = line()) -> Array1<f32> {
        at: { at!(x[[1, 5, 9]] = 0.0); x },
        by_hand: { for i in [1, 5, 9] { x[i] = 0.0; } x },
    }
    set_mask(x: Array1<f32> = line(), m: Array1<bool> = mask()) -> Array1<f32> {
        at: { at!(x[m] = 0.0); x },
        by_hand: { x.zip_mut_with(&m, |e, &keep| if keep { *e = 0.0 }); x },
    }
    set_comparison(x: Array1<f32> = line()) -> Array1<f32> {
        at: { at!(x[x > 0.5] = 0.0); x },
        by_hand: { x.mapv_inplace(|e| if e > 0.5 { 0.0 } else { e }); x },
    }
    set_along(x: Array2<f32> = grid(), idx: Array2<usize> = array![[2], [0], [3], [1]]) -> Array2<f32> {
        at: { at!(x[along(idx, 1)] = 0.0); x },
        by_hand: { for (i, row) in idx.rows().into_iter().enumerate() { for &j in row { x[[i, j]] = 0.0; } } x },
    }
    set_nd(x: Array2<f32> = grid(), c: Array2<usize> = array![[0, 1], [2, 3], [3, 0]]) -> Array2<f32> {
        at: { at!(x[nd(c)] = 0.0); x },
        by_hand: { for point in c.rows() { x[[point[0], point[1]]] = 0.0; } x },
    }

    // ---------------------------------------------------------------- `op=` of a scalar
    add_element(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1, 2] += 1.0); x },
        by_hand: { x[[1, 2]] += 1.0; x },
    }
    add_row(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1, :] += 1.0); x },
        by_hand: { let mut row = x.row_mut(1); row += 1.0; x },
    }
    add_region(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[1:3, 1:3] += 1.0); x },
        by_hand: { let mut region = x.slice_mut(s![1..3, 1..3]); region += 1.0; x },
    }
    mul_negative(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[-2:, ::-1] *= 2.0); x },
        by_hand: { let mut region = x.slice_mut(s![-2.., ..;-1]); region *= 2.0; x },
    }
    max_stepped(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[::2, 1::2].max(0.5)); x },
        by_hand: { x.slice_mut(s![..;2, 1..;2]).mapv_inplace(|e| if e.is_nan() || e > 0.5 { e } else { 0.5 }); x },
    }
    add_new_axis(x: Array2<f32> = grid()) -> Array2<f32> {
        at: { at!(x[None, ...] += 1.0); x },
        by_hand: { let mut all = x.slice_mut(s![NewAxis, .., ..]); all += 1.0; x },
    }
    add_index_array(x: Array1<f32> = line(), idx: Array1<usize> = array![1, 5, 1]) -> Array1<f32> {
        at: { at!(x[idx] += 1.0); x },
        by_hand: { for &i in &idx { x[i] += 1.0; } x },
    }
    add_literal_list(x: Array1<f32> = line()) -> Array1<f32> {
        at: { at!(x[[1, 5, 1]] += 1.0); x },
        by_hand: { for i in [1, 5, 1] { x[i] += 1.0; } x },
    }
    add_mask(x: Array1<f32> = line(), m: Array1<bool> = mask()) -> Array1<f32> {
        at: { at!(x[m] += 1.0); x },
        by_hand: { x.zip_mut_with(&m, |e, &keep| if keep { *e += 1.0 }); x },
    }
    add_comparison(x: Array1<f32> = line()) -> Array1<f32> {
        at: { at!(x[x > 0.5] += 1.0); x },
        by_hand: { x.mapv_inplace(|e| if e > 0.5 { e + 1.0 } else { e }); x },
    }
    add_along(x: Array2<f32> = grid(), idx: Array2<usize> = array![[2], [0], [3], [1]]) -> Array2<f32> {
        at: { at!(x[along(idx, 1)] += 1.0); x },
        by_hand: { for (i, row) in idx.rows().into_iter().enumerate() { for &j in row { x[[i, j]] += 1.0; } } x },
    }
    add_nd(x: Array2<f32> = grid(), c: Array2<usize> = array![[0, 1], [2, 3], [3, 0]]) -> Array2<f32> {
        at: { at!(x[nd(c)] += 1.0); x },
        by_hand: { for point in c.rows() { x[[point[0], point[1]]] += 1.0; } x },
    }

    // ---------------------------------------------------------------- array values
    set_region_owned(x: Array2<f32> = grid(), y: Array2<f32> = array![[1.0, 2.0], [3.0, 4.0]]) -> Array2<f32> {
        at: { at!(x[2:, 2:] = y); x },
        by_hand: { x.slice_mut(s![2.., 2..]).assign(&y); x },
    }
    add_region_owned(x: Array2<f32> = grid(), y: Array2<f32> = array![[1.0, 2.0], [3.0, 4.0]]) -> Array2<f32> {
        at: { at!(x[2:, 2:] += y); x },
        by_hand: { let mut region = x.slice_mut(s![2.., 2..]); region += &y; x },
    }
    add_region_view(x: Array2<f32> = grid(), y: &'static Array2<f32> = leak(array![[1.0, 2.0], [3.0, 4.0]])) -> Array2<f32> {
        at: { at!(x[2:, 2:] += y.view()); x },
        by_hand: { let mut region = x.slice_mut(s![2.., 2..]); region += &y.view(); x },
    }
    add_region_expression(x: Array2<f32> = grid(), y: &'static Array2<f32> = leak(array![[1.0, 2.0], [3.0, 4.0]])) -> Array2<f32> {
        at: { at!(x[2:, 2:] += y * 2.0); x },
        by_hand: { let mut region = x.slice_mut(s![2.., 2..]); region += &(y * 2.0); x },
    }
    set_row_view(x: Array2<f32> = grid(), y: &'static Array1<f32> = leak(array![1.0, 2.0, 3.0, 4.0])) -> Array2<f32> {
        at: { at!(x[1, :] = y.view()); x },
        by_hand: { x.row_mut(1).assign(y); x },
    }
    set_index_array_owned(x: Array1<f32> = line(), idx: Array1<usize> = array![1, 5, 9], w: Array1<f32> = array![1.0, 2.0, 3.0]) -> Array1<f32> {
        at: { at!(x[idx] = w); x },
        by_hand: { for (&i, &value) in idx.iter().zip(&w) { x[i] = value; } x },
    }
    add_index_array_view(x: Array1<f32> = line(), idx: Array1<usize> = array![1, 5, 1], w: &'static Array1<f32> = leak(array![1.0, 2.0, 3.0])) -> Array1<f32> {
        at: { at!(x[idx] += w.view()); x },
        by_hand: { for (&i, &value) in idx.iter().zip(w) { x[i] += value; } x },
    }

    // ---------------------------------------------------------------- .apply(f)
    apply_index_array(x: Array1<f32> = line(), idx: Array1<usize> = array![1, 5, 1]) -> Array1<f32> {
        at: { at!(x[idx].apply(|e| e * 2.0 + 1.0)); x },
        by_hand: { for &i in &idx { x[i] = x[i] * 2.0 + 1.0; } x },
    }
    apply_literal_list(x: Array1<f32> = line()) -> Array1<f32> {
        at: { at!(x[[1, -2, 1]].apply(|e| e * 2.0 + 1.0)); x },
        by_hand: { for i in [1, 14, 1] { x[i] = x[i] * 2.0 + 1.0; } x },
    }

    // ---------------------------------------------------------------- set!: a copy, updated
    copy_set_element(x: &'static Array2<f32> = leak(grid())) -> Array2<f32> {
        at: set!(x[1, 2] = 1.0),
        by_hand: { let mut y = x.clone(); y[[1, 2]] = 1.0; y },
    }
    copy_set_row(x: &'static Array2<f32> = leak(grid())) -> Array2<f32> {
        at: set!(x[1, :] = 0.0),
        by_hand: { let mut y = x.clone(); y.row_mut(1).fill(0.0); y },
    }
    copy_add_index_array(x: &'static Array1<f32> = leak(line()), idx: Array1<usize> = array![1, 5, 1]) -> Array1<f32> {
        at: set!(x[idx] += 1.0),
        by_hand: { let mut y = x.clone(); for &i in &idx { y[i] += 1.0; } y },
    }
    copy_set_comparison(x: &'static Array1<f32> = leak(line())) -> Array1<f32> {
        at: set!(x[x > 0.5] = 0.0),
        by_hand: x.mapv(|e| if e > 0.5 { 0.0 } else { e }),
    }
}

main!(library_benchmark_groups = matrix);
