//! For burn users: each of burn's indexing methods beside its `at!` form,
//! and where the answers differ (feature `burn`).
//!
//! With the feature `burn`, `at!`, `set!`, `try_at!` and `try_set!` take a
//! `burn::tensor::Tensor<D, K>` of kind `Float` or `Int` (every operation),
//! or `Bool` (`=` and reads), on any device, with the syntax of the
//! ndarray macros (but for the few forms listed below). Index arrays may
//! be host arrays (ndarray arrays, `Vec`, literals) or burn
//! `Tensor<N, Int>`s, which stay on their device; masks
//! may be `Tensor<N, Bool>`s or comparisons of burn tensors. Values are
//! burn tensors of the target's kind, scalars, or host arrays of `f64`,
//! `i64` or `bool` (converted to the tensor's data type, as PyTorch
//! converts a Python number). A read returns a `Tensor<M, K>` whose rank
//! `M` is found at compile time (one element: a `Tensor<1, K>`, as burn has
//! no rank 0; a rank known only at run time, as an `ArrayD` index gives, an
//! [`AnyRank`](crate::burn::AnyRank), whose `.into_rank::<M>()?` gives
//! the tensor); an update replaces the tensor in the caller's variable;
//! `set!` returns the new tensor.
//!
//! ```ignore
//! use burn::tensor::{Device, Int, Tensor, TensorData};
//! use tensor_at::{along, at};
//!
//! let device = Device::flex().autodiff();
//! let x0 = Tensor::<2>::from_data(TensorData::new(data, [3, 4]), &device).require_grad();
//! let idx = Tensor::<1, Int>::from_data(TensorData::new(vec![2i64, 0, 2], [3]), &device);
//! let mut x = x0.clone();
//! at!(x[1:, idx] += v.clone());                    // idx stays on the device
//! let logp_picked = at!(logp[along(targets, 1)]);  // a cross-entropy's gather
//! let grads = (x * weights).sum().backward();
//! let dx = x0.grad(&grads).unwrap();
//! ```
//!
//! | burn | tensor-at |
//! | --- | --- |
//! | `x.slice(s![1..3, ..;2])` | `at!(x[1:3, ::2])` (NumPy's negative steps too: `x[::-1]`) |
//! | `x.slice_assign(s![1..3, ..], v)` | `at!(x[1:3, :] = v)` (`v` broadcasts) |
//! | `x.select(0, idx)` | `at!(x[idx])` |
//! | `x.select_assign(1, idx, v, IndexingUpdateOp::Add)` | `at!(x[:, idx] += v)` |
//! | `x.select_assign(0, idx, v, IndexingUpdateOp::Assign)` | `at!(x[idx] = v)` (repeated indices: the last wins) |
//! | the same, with indices known distinct | `at!(x[unique(&idx)] = v)` (JAX's `unique_indices=True`: below) |
//! | `x.select_assign(0, idx, v, IndexingUpdateOp::Mul)`, `Min`, `Max` | `at!(x[idx] *= v)`, `.min(v)`, `.max(v)` |
//! | `x.gather(1, idx)` | `at!(x[along(idx, 1)])` |
//! | `x.scatter(1, idx, v, IndexingUpdateOp::Add)` | `at!(x[along(idx, 1)] += v)` |
//! | `x.mask_where(m, v)` (`v` of `x`'s shape) | `at!(x[m] = at!(v[m]))`; `at!(x[m] = v)` takes one value per selected element, or a scalar |
//! | `x.mask_fill(x.clone().lower_elem(0.0), 0.0)` | `at!(x[x < 0.0] = 0.0)` |
//! | `x.clone().mask_select(m)` | `at!(x[m])` |
//! | `x.gather_nd(idx)`, `x.scatter_nd(idx, v, op)` | `at!(x[nd(idx)])`, `at!(x[nd(idx)] += v)` |
//! | `x.take(0, idx)` | `at!(x[idx])` (`idx` of any rank) |
//! | | `at!(x[idx] += v; mode = drop)`, `; mode = clip`, `; mode = fill(0.0)` |
//! | | `at!(x[idx]; batch = 1)` (JAX's `vmap` of `.at[]`) |
//!
//! # Where the answers differ
//!
//! burn leaves the forward result and the gradients of `Assign`, `Mul`,
//! `Min` and `Max` undefined when an index repeats. tensor-at defines them,
//! and its answers are JAX's (`jax.vjp` of `x.at[idx].op(v)`), where JAX
//! has one:
//!
//! - `=`: the last occurrence wins, and it alone gets its gradient; the
//!   written positions of the target get none.
//! - `+=`, `-=`: exact, occurrences added in index order (on the CPU the
//!   same bits as ndarray's `at!`).
//! - `*=`, `/=`, `pow`: the product rule, each occurrence applied in index
//!   order, zeros included (JAX refuses to differentiate these with
//!   repeated indices).
//! - `min`, `max`: a tie shares the gradient equally among the target's
//!   element and every tied value, as JAX does (burn's own backward gives
//!   each tied side all of it). A candidate that is not finite takes no
//!   share.
//! - Masks, `along`, `nd`, `; batch = k` and the modes: a dropped update
//!   gets no gradient; a clipped index reads, and differentiates, the
//!   clipped element.
//!
//! Other differences from burn's methods:
//! - An index out of bounds is NumPy's error ([`BurnError::Index`](crate::burn::BurnError)),
//!   and nothing is written; burn clamps slices and panics on bad indices.
//! - Negative indices count from the end, and a slice's negative step
//!   walks from its start, as in NumPy.
//! - Device index arrays: in mode `error` the arrays' least and greatest
//!   indices are read back to the host, in one copy per call; the other
//!   modes read nothing back. `*=`, `/=`, `pow`, `min` and `max` run in
//!   rounds of distinct positions, and read back how many (one number, in
//!   mode `error` in the same copy as the extremes); past four rounds, or for `min` and `max` on a device with autodiff
//!   (whose shared ties need the positions' groups), they read the
//!   positions back once and plan the rounds on the host. A mask is read
//!   back (its count is the read's length). In mode `drop`, a division by
//!   zero or a negative integer power among the values reads the indices
//!   back once: only they say whether the mode skips it (then it is never
//!   applied, so never an error).
//! - `.apply(f)` (a host closure), mutable views (`at!(&mut x[..])`) and
//!   reads into an existing array (`; out = buf`) do not compile on a burn
//!   tensor.
//! - Integer overflow is burn's: its CPU device panics on it in a build
//!   with overflow checks (a debug build), and wraps, as NumPy does, in a
//!   release build. `i64::MIN / -1` (and `% -1`), which panics in Rust in
//!   every build, the adapter computes itself: it wraps to `i64::MIN`
//!   (and 0), as tensor-at does on an ndarray.
//!
//! # Indices promised distinct
//!
//! [`unique(idx)`](crate::burn::unique) wraps a device index array that
//! holds no element twice, as JAX's `unique_indices=True` says so. Where
//! it is the whole index (`x[unique(&idx)]`, rows included), `=` is burn's
//! `select_assign` itself, with no buffer to find last occurrences, and
//! `*=`, `/=`, `pow`, `min` and `max` take one round, with nothing read
//! back to count them (`*=` is burn's `Mul`). Gradients stay JAX's: burn's
//! own are right where no position repeats. The promise is not checked:
//! broken, a repeated position keeps one of its occurrences' results,
//! whichever the device writes last, and nothing else is written or
//! fails. Anywhere else in an index, the promise is not used.
//!
//! # Speed
//!
//! A basic index (integers, slices, `...`, `None`) is burn's `slice`,
//! `slice_assign` or `slice_fill` itself. Any other index moves whole
//! rows where the trailing axes are whole (`x[ids]`, `x[ids, :]`), so an
//! embedding lookup is one `select` of rows. With unique indices on burn's
//! CPU device, a gather, a scatter-add and (with host indices) a
//! scatter-set cost a little more than burn's own `select` and
//! `select_assign`, host planning included, on a target larger than the
//! cache; a gather by device indices checks their bounds on the device
//! first (two reductions and one small copy back), which on a target the
//! cache holds makes it about 1.4 times burn's `select`, and `=` by host
//! indices checks that no position repeats (about 1.6 times burn's
//! `select_assign` there). `=` with device
//! indices pays for its defined answer: a buffer of one number per row
//! finds each position's last occurrence, two more passes than burn's
//! `Assign`, whose result with repeated indices is undefined; promised
//! distinct (`unique`), it costs about what the others do. `*=`, `/=`,
//! `pow`, `min` and `max` by device indices not promised distinct count
//! each row's occurrences in such a buffer first. With repeated indices,
//! tensor-at is many times faster than the loop of one-element slices
//! that applies each occurrence in turn. `examples/burn_speed.rs` and
//! `examples/workloads.rs` in `tests/burn/` time these (measured:
//! docs/performance.md, "On burn tensors").
