//! For NumPy, JAX and PyTorch users: each idiom beside its tensor-at form.
//!
//! Index syntax is NumPy's: `:` slices (`a:b:c`, with negative bounds and
//! steps exactly as in NumPy), `...`, `None`, integers, integer arrays,
//! boolean masks, comparisons as masks. ndarray's own ranges (`a..b;c`)
//! work too, with ndarray's meaning.
//!
//! | NumPy / PyTorch | JAX | tensor-at |
//! | --- | --- | --- |
//! | `x[:, 1:4:2] = y` | `x = x.at[:, 1:4:2].set(y)` | `at!(x[:, 1:4:2] = y)` / `let x = set!(x[:, 1:4:2] = y)` |
//! | `r = x[idx, 1:3]` | `r = x[idx, 1:3]` | `let r = at!(x[idx, 1:3])` |
//! | `x[..., None, -1]` | same | `at!(x[..., None, -1])` (a view) |
//! | `v = x[1, 2]` (a scalar) | same | `let v = at!(x[1, 2])` (the element, cloned: an `f64` for an `f64` array) |
//! | `x[x < 0] = 0` | `x = jnp.where(x < 0, 0, x)` | `at!(x[x < 0.0] = 0.0)` (one pass, no allocation) |
//! | `x[(x > a) & (x < b)] *= 2` | `x.at[...].multiply(2)` | `at!(x[(x > a) & (x < b)] *= 2.0)` or `.multiply(2.0)` |
//! | `np.power.at(x, i, 2)` | `x.at[i].power(2)` | `at!(x[i].power(2.0))` (also `.subtract`, `.divide`) |
//! | `np.add.at(h, bins, 1)` | `h.at[bins].add(1)` | `at!(h[bins] += 1)` |
//! | `np.maximum.at(x, i, v)` | `x.at[i].max(v)` | `at!(x[i].max(v))` |
//! | `np.negative.at(x, i)` | `x.at[i].apply(jnp.negative)` | `at!(x[i].apply(\|e\| -e))` |
//! | `x.index_put_((i,), v, accumulate=True)` | | `at!(x[i] += v)` |
//! | | `x.at[i].get(mode='clip')` | `at!(x[i]; mode = clip)` |
//! | `np.take(x, i, mode='clip')` (flat), `np.put(x, i, v)` | `jnp.take(x, i, mode='clip')` | `tensor_at::take(&x, &i, ReadMode::Clip)`, `tensor_at::put(&mut x, &i, &v, Mode::Error)` |
//! | `np.place(x, m, v)` | | `tensor_at::place(&mut x, &m, &v)` (values cycled) |
//! | `np.nonzero(x)`, `np.argwhere(x)` | `jnp.nonzero(x)`, `jnp.argwhere(x)` | `tensor_at::nonzero(&x)`, `tensor_at::argwhere(&x)` |
//! | `x[np.ix_(rows, cols)] += 1` | `x.at[jnp.ix_(rows, cols)].add(1)` | `at!(x[ix_(rows, cols)] += 1.0)` (reads: `(rows.len(), cols.len(), ..)`) |
//! | | `x.at[i].get(mode='fill', fill_value=0)` | `at!(x[i]; mode = fill(0.0))` |
//! | | `x.at[i].set(v, mode='drop')` | `at!(x[i] = v; mode = drop)` |
//! | `np.take(x, i, axis=0, out=buf)`, `torch.index_select(x, 0, i, out=buf)` | | `at!(x[i]; out = buf)` (`buf` has the result's shape) |
//! | `x[1:] = x[:-1]` | | `at!(x[1:] = x[:-1])` (the read is copied first) |
//! | `tf.tensor_scatter_nd_update(t, idx, u)` | | `at!(t[nd(idx)] = u)` |
//! | `tf.gather_nd(x, idx)` | | `at!(x[nd(idx)])` |
//! | `np.take_along_axis(x, idx, 1)`, `torch.gather(x, 1, idx)` | `jnp.take_along_axis(x, idx, 1)` | `at!(x[along(idx, 1)])` |
//! | `np.put_along_axis(x, idx, v, 1)`, `x.scatter_(1, idx, v)` | | `at!(x[along(idx, 1)] = v)` (duplicates: the last wins) |
//! | `x.scatter_add_(1, idx, v)` | | `at!(x[along(idx, 1)] += v)` (in index order, bitwise the same every run) |
//! | `x.scatter_reduce_(1, idx, v, "amax")` | | `at!(x[along(idx, 1)].max(v))` |
//! | `tf.gather(x, idx, batch_dims=1)`, `x` of shape `(b, n, d)`, `idx` `(b, k)` | `jax.vmap(lambda x, i: x[i])(x, idx)` | `at!(x[idx]; batch = 1)` (or `at!(x[along(idx.insert_axis(Axis(2)), 1)])`) |
//! | `tf.gather_nd(x, idx, batch_dims=1)` | | `at!(x[nd(idx)]; batch = 1)` |
//! | `tf.tensor_scatter_nd_update(t, idx, u)` with a batch dimension in `t`, `idx` and `u` | | `at!(t[nd(idx)] = u; batch = 1)` (`_add`: `+=`, `_max`: `.max(u)`, ...) |
//! | | `jax.vmap(lambda x, i, g: x.at[i].add(g))(x, idx, g)` | `at!(x[idx] += g; batch = 1)` (every `.at[]` call and mode: `; batch = 1, mode = drop`) |
//! | | `jax.vmap(lambda x, i: x.at[i].get(mode='fill', fill_value=0))(x, idx)` | `at!(x[idx]; batch = 1, mode = fill(0.0))` |
//! | `try: ... except IndexError` | | `try_at!(x[i] = v)?` |
//!
//! # Indices built at run time
//!
//! An index computed at run time (PyTorch's C++ `x.index({Slice(), 0})`)
//! goes through the method syntax, with the same semantics: `x.at(index)`
//! reads, `x.at_mut(index)` updates in place, `x.updated(index)` copies
//! and updates. An index is one element, a tuple of elements, or a list of
//! `IndexElem`s built with [`ix`](crate::ix):
//!
//! ```
//! use ndarray::{array, ArrayView1};
//! use tensor_at::prelude::*;
//!
//! let mut x = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let column = 2;
//! let read: ArrayView1<f64> = x.at((.., column)).get()?;   // x[:, column]: a view, of static rank
//! assert_eq!(read, array![3.0, 6.0]);
//! x.at_mut(([1, 1], 0)).add(1.0)?;                          // np.add.at(x, ([1, 1], 0), 1)
//! let mut index = vec![ix(0)];
//! index.push(ix(1..).step_by(2));                           // built element by element
//! assert_eq!(x.at(&index).get()?, array![2.0].into_dyn());  // a list's rank is dynamic
//! let y = (&x).updated([0, 5]).mode(Mode::Drop).set(0.0);   // JAX: x.at[[0, 5]].set(0, mode='drop')
//! assert_eq!(y.unwrap().row(0), array![0.0, 0.0, 0.0]);
//! # Ok::<(), IndexError>(())
//! ```
//!
//! ```
//! use ndarray::{array, Array1, Array2};
//! use tensor_at::{at, nd, set};
//!
//! let mut x = Array2::from_shape_fn((3, 4), |(i, j)| (4 * i + j) as f64);
//! at!(x[:, 1:4:2] = 0.0);
//! assert_eq!(x.row(0), array![0.0, 0.0, 2.0, 0.0]);
//! let picked = at!(x[[2, 0], -2]);                    // a gather: an owned Array1
//! assert_eq!(picked, array![10.0, 2.0]);
//!
//! let mut h = Array1::<u32>::zeros(4);
//! at!(h[[1, 3, 3, 3]] += 1);                           // np.add.at
//! assert_eq!(h, array![0, 1, 0, 3]);
//!
//! let t = Array1::<i32>::zeros(8);
//! let t = set!({ t }[nd([[4], [3], [1], [7]])] = array![9, 10, 11, 12]);
//! assert_eq!(t, array![0, 11, 0, 10, 9, 0, 0, 12]);
//! ```
//!
//! # Where tensor-at differs, on purpose
//!
//! - **`along` broadcasts; PyTorch's `gather` reads a prefix.** `idx` in
//!   `along(idx, axis)` must broadcast against the target on every other
//!   axis, as in `np.take_along_axis`. `torch.gather` also takes an index
//!   shorter than the input on those axes and reads their first positions;
//!   here, slice the input first: `at!(x[:n, ..])`, then `along`.
//!
//! - **`batch = k` pairs leading axes; it does not broadcast an index
//!   across them.** With `; batch = k` the leading `k` axes of the target,
//!   of every index array and mask, and of an array value are paired, as
//!   `jax.vmap` maps them: a value shared by every batch is written with a
//!   batch axis of length 1 (`v.insert_axis(Axis(0))`), not without one. A
//!   batched read through a mask is refused (each batch may select a
//!   different number of elements); updates through one are fine.
//!
//!   ```
//!   use ndarray::{array, Array3};
//!   use tensor_at::at;
//!
//!   let x = Array3::from_shape_fn((2, 3, 2), |(b, n, d)| (100 * b + 10 * n + d) as i32);
//!   let idx = array![[2usize, 0], [1, 1]];
//!   let picked: Array3<i32> = at!(x[idx]; batch = 1);   // tf.gather(x, idx, batch_dims=1)
//!   assert_eq!(picked, array![[[20, 21], [0, 1]], [[110, 111], [110, 111]]]);
//!   let mut y = x.clone();
//!   at!(y[idx, 0] += array![[1, 1]]; batch = 1);          // one value row for both batches
//!   assert_eq!((y[[0, 2, 0]], y[[1, 1, 0]]), (21, 112));
//!   ```
//!
//! - **Accumulation is unbuffered.** NumPy's `x[idx] += v` reads, adds and
//!   writes back once per *distinct* index: with duplicates, one of them
//!   wins. `at!(x[idx] += v)` applies every occurrence in index order, as
//!   `np.add.at`, JAX's `.at[].add()` and PyTorch's `accumulate=True` do.
//!   Every operation but `set` works this way; `set` keeps the last
//!   occurrence. Results are the same bit for bit on every run.
//!
//!   ```
//!   use ndarray::array;
//!   use tensor_at::at;
//!
//!   let mut hist = array![0, 0];
//!   at!(hist[[1, 1, 1]] += 1);       // NumPy's hist[[1, 1, 1]] += 1 gives [0, 1]
//!   assert_eq!(hist, array![0, 3]);  // np.add.at gives [0, 3]
//!   ```
//!
//! - **ndarray ranges keep ndarray's meaning.** `x[4..;-2]` is `s![4..;-2]`:
//!   the range `4..` walked backwards (`7, 5` on a length-8 axis), where
//!   NumPy's `x[4::-2]` walks down from 4 (`4, 2, 0`); and a range reaching
//!   outside the axis is an error, where NumPy slices clamp. Write NumPy's
//!   `:` syntax to get NumPy's meaning.
//!
//!   ```
//!   use ndarray::Array1;
//!   use tensor_at::at;
//!
//!   let x = Array1::from_iter(0..8);
//!   assert_eq!(at!(x[4..;-2]).to_vec(), [7, 5]);
//!   assert_eq!(at!(x[4::-2]).to_vec(), [4, 2, 0]);
//!   ```
//!
//! - **No implicit casts.** The value's element type is the target's:
//!   `at!(x[0] = 1)` on an `f64` array is a compile error (write `1.0`).
//! - **Integer division truncates**, as Rust's `/` does (NumPy's `//`
//!   floors), and dividing by zero is an error reported before anything is
//!   written; NumPy writes 0 with a warning. `%=` is NumPy's `remainder`
//!   (the result takes the divisor's sign), and an integer remainder by zero
//!   is the same error.
//! - **`bool` arrays** take `+=` and `.max()` as "or", `*=` and `.min()` as
//!   "and", and `&= |= ^=`; `-=`, `/=`, `%=` and `.pow()` are errors, as
//!   NumPy refuses them. Floats have no `&= |= ^=` (a compile error).
//! - **Complex arrays** (`tensor_at::num_complex::Complex64`, `Complex32`)
//!   take `= += -= *= /=`, with NumPy's quotient bit for bit. They have no
//!   order: `.min()` and `.max()` are compile errors (NumPy orders complex
//!   numbers lexicographically); `.pow()` and `%=` are errors too. Products
//!   are the plain formula, as NumPy's scalars and `np.multiply.at` compute
//!   them; NumPy's array loops fuse the multiply-adds on machines with FMA,
//!   so their last bit can differ from machine to machine.
//! - **Extra leading length-1 axes of a value** are dropped, as PyTorch
//!   does (NumPy rejects a two-dimensional value in `x[mask] = v`) — for
//!   values whose rank is known only at run time (`ArrayD`, the runtime API).
//!   A statically ranked value with more axes than the region is a compile
//!   error in the macros (`at!(x[0] = Array2::zeros((1, 3)))` on a 2-D `x`);
//!   write `.into_dyn()` or index the value first.
//! - **Out-of-bounds modes** follow JAX: in every mode, indices in
//!   `[-n, n)` keep their meaning (`-1` is the last), so `clip` clamps only
//!   what lies outside. NumPy's `take(mode='clip')` and `put(mode='clip')`
//!   also clamp `-1` to 0, and so do [`take`](crate::take) and
//!   [`put`](crate::put), which port those functions exactly.
//! - **Errors are values or panics, never partial writes.** Every index, the
//!   value's shape and every operand are checked before the first write.
//! - **Integers alone read the element on a static rank.** `at!(x[1, 2])`
//!   on an `Array2<f64>` is an `f64`, as NumPy's `x[1, 2]` is a scalar;
//!   `x[1, 2, ...]` stays a 0-d view, as in NumPy. On an `ArrayD` the rank
//!   is known only at run time, so the same read is a 0-d array there.
//! - **`nd(idx)` reads have a dynamic rank**: the number of coordinates per
//!   index (its last axis) is only known at run time.
