//! What tensor-at promises for any input: what is validated, what is
//! atomic, what is deterministic, what panics and what returns an error.
//!
//! tensor-at is meant to be fed indices that come from data (token ids,
//! labels, user selections, files). Whatever arrives, a call answers with a
//! value or a clear error; it never reads or writes outside the array, never
//! leaves an array half-written because of a bad index or value, and never
//! aborts the process.
//!
//! # Validated before anything is written
//!
//! Every entry point ([`at!`](crate::at!), [`set!`](crate::set!), `try_at!`, `try_set!`, the
//! method syntax ([`IndexExt`](crate::IndexExt), [`IndexMutExt`](crate::IndexMutExt),
//! [`IntoUpdated`](crate::IntoUpdated)), NumPy's functions
//! ([`take`](crate::take), [`put`](crate::put), [`place`](crate::place)) and the
//! functions of [`backend`](crate::backend)) resolves
//! the whole index into a plan first, then checks the value, then every
//! operand, and only then writes. Checked, in NumPy's order:
//!
//! - the structure: at most one `...`, no more indexed axes than the array
//!   has (the depths of `nd` arrays counted without overflow, however deep
//!   they broadcast), `nd(idx)` with a coordinate axis;
//! - mask shapes against the axes they cover;
//! - every integer and slice, whatever its type or size: `i64::MIN`,
//!   `i64::MAX`, `usize::MAX`, `u64::MAX` are ordinary out-of-bounds indices
//!   (`error` reports them, `clip` clamps them, `wrap` takes them modulo the
//!   length, `drop` skips them, `fill(v)` reads `v`); Python-slice bounds and
//!   steps of any size clamp as Python's do; a zero step is an error;
//!   `a..b` ranges outside the axis are errors;
//! - the broadcast of the advanced indices, and its size: a result, an
//!   offset table or `apply(f)`'s scratch whose element count overflows
//!   (an empty result's other axes count, as NumPy's "array is too big"
//!   counts them), or whose memory the allocator refuses (index arrays
//!   broadcasting to 2^40 positions), is
//!   [`IndexError::TooLarge`](crate::IndexError::TooLarge), raised before anything is written
//!   (for a batched call, the size of all its batches together). An index
//!   array or mask read in place is never turned into a table of the
//!   whole: executors walk its offsets in pieces of at most 4,096. On the
//!   GPU, and for a burn tensor's positions, memory refused for the table
//!   is `TooLarge` as well, and so are the values a burn write gathers (one
//!   per element) and a burn mask's positions. A GPU or burn tensor of a
//!   shape no array can address (burn and `from_handle` hold empty tensors
//!   such as `[2, 2^62, 0]`), as target, index, mask or value, is
//!   `TooLarge` too; so are GPU comparisons that broadcast together past
//!   what its kernels address;
//! - every index array entry against its axis;
//! - the value's shape against the selected region;
//! - every operand that will be applied: integer division (and remainder)
//!   by zero ([`IndexError::DivisionByZero`](crate::IndexError::DivisionByZero)), negative integer powers,
//!   and operations the element type does not have
//!   ([`IndexError::UnsupportedOperation`](crate::IndexError::UnsupportedOperation)); operands
//!   at positions skipped by `drop` are never applied, so never rejected.
//!
//! # Atomic
//!
//! - On any [`IndexError`](crate::IndexError) the target is unchanged, bit for bit, on every
//!   path (basic views, index arrays read in place, offset tables, fused
//!   masks, the parallel paths), and on the GPU (errors are found before
//!   any kernel writes: on the host, or, for index arrays on the device,
//!   by a checking kernel whose answer is read back first).
//! - One exception to "checked before written", invisible from outside: an
//!   accumulation (`+=`, `.max()`, ...) by one index array much longer than
//!   a one-dimensional target copies the target, checks each index in the
//!   loop that applies it, and on the first bad one restores the copy
//!   before returning the error. The copy is smaller than the index array,
//!   and it saves a separate pass over every index. On several threads
//!   (a large target, split by destination) every thread stops
//!   before the copy is restored, and the error names the first bad index.
//! - Whatever a call takes by value comes back when it is refused:
//!   `try_set!({x}[9] = 0)` and `x.updated(..).set(..)` return the array,
//!   unchanged and in its own buffer, inside their
//!   [`SetError`](crate::SetError).
//! - If `f` panics, `apply(f)` leaves the target unchanged. Over a view from
//!   basic indexing it computes every `f(element)` into scratch and writes
//!   only after the last call returned; over index arrays (and in a batched
//!   call) it updates the
//!   selected elements in place, in index order, logging each element it
//!   replaces with its position (scratch of one entry per selected
//!   position), and puts every logged element back, latest first, before
//!   the panic reaches the caller. The elements it replaces are dropped
//!   after the last write: if one's `Drop` panics, the write is whole, and
//!   the elements after it are leaked rather than dropped while the panic
//!   unwinds (where a second panic would abort).
//! - A panic in a read (an element type whose `Clone` panics) leaves the
//!   target unchanged, reaches the caller, and leaves the rayon pool usable;
//!   elements already cloned into the unfinished result may be leaked (never
//!   dropped twice).
//! - A panic in the element type's `Clone` or `Drop` during `set` is not
//!   atomic, as for `slice::clone_from_slice`: each element holds its old
//!   or its new value, and nothing is dropped twice or leaked. (Numbers
//!   cannot panic.)
//! - `set!` on an `ArcArray` whose buffer is shared copies it first: the
//!   other owners never see the change (a copy memory cannot hold is
//!   `TooLarge`, as for a borrowed source; one that no other owner shares
//!   gives its own buffer). `set!(x[...])` on a place never changes `x`.
//!   `at!` on a shared `ArcArray`, and its method syntax (`.at_mut`,
//!   `.updated`), copy it the same way before writing: a copy memory
//!   cannot hold panics (with `TooLarge`'s message), never aborts.
//!
//! # Deterministic
//!
//! - Duplicates: `set` keeps the last occurrence in index order; every
//!   other operation applies each occurrence in index order (unbuffered,
//!   like `np.add.at`; NumPy's own `x[i] += v` is buffered and differs).
//! - Results are bitwise identical for every rayon thread count (1, 2 and 8
//!   tested): parallel gathers fill disjoint blocks; accumulations whose
//!   operation regroups exactly (integer `+ * min max`, float `min max`)
//!   are cut into chunks of indices; float sums and products, and large
//!   `set`s, are split by destination: each thread owns a range of the
//!   target and applies the updates landing there in index order, so no
//!   sum is regrouped. The GPU kernels apply the same sequence (no float
//!   atomics) and give the CPU's bits on a driver whose arithmetic is
//!   IEEE 754's, as lavapipe's is. NVIDIA's Vulkan driver rounds `f32`
//!   division within WGSL's 2.5 units in the last place, flushes
//!   subnormals to zero and writes NaN with another sign: there `/=`, and
//!   products passing through a subnormal, can differ in the last bits.
//! - Arithmetic: integers wrap on overflow as NumPy's fixed-width integers
//!   do (in `i8`, 127 + 1 is -128; `i64::MIN / -1` is `i64::MIN`);
//!   integer `/` truncates toward zero; float `min`/`max` propagate NaN as
//!   `np.minimum.at`/`np.maximum.at` do. On a burn tensor the arithmetic
//!   is burn's own (see the `burn_users` page).
//!
//! # Panics and errors
//!
//! - `try_at!`, `try_set!` and the functions that take an index (the
//!   `backend` functions, `take`, `put`, `place`) return `Result<_,
//!   IndexError>` (on a GPU tensor, `GpuError`; on a burn tensor,
//!   `BurnError`) for every run-time problem of the index,
//!   the value or the operands; `try_set!`'s error,
//!   [`SetError`](crate::SetError), also holds the array the update was to
//!   be written into, unchanged, so a source moved in (`try_set!({x}[9] =
//!   0)`) is given back.
//! - `at!` and `set!` panic with the same message at the caller's line, as
//!   Rust's `v[i]` does.
//! - A user closure, `Clone` or `Drop` that panics propagates its panic
//!   (see above).
//! - A read whose result cannot be allocated (a gather from a huge
//!   stride-0 broadcast view, or a mask's gather when the allocator
//!   refuses), batched or not, is
//!   [`IndexError::TooLarge`](crate::IndexError::TooLarge), on one thread or
//!   many; so is a read that copies a view (mode `fill`, or a
//!   zero-dimensional index array) too large to copy, and a call whose
//!   positions memory cannot list (more batch positions than memory holds,
//!   `along` beside an axis of billions in a mode other than `error`). A
//!   read with `; out = buf` (batched too) writes into `buf` and allocates
//!   no result; a batched read of no batch position is empty, whatever its
//!   index broadcasts to.
//! - A borrowed source `set!` copies (a stride-0 view, say) that memory
//!   cannot hold is `TooLarge` in `try_set!` (with no array in the
//!   [`SetError`](crate::SetError): the source is still the caller's), and
//!   a panic, never an abort, in `set!` and `updated(..)`.
//! - At compile time: malformed index syntax, too many indices for a static
//!   rank, wrong element or index types are compile errors at the offending
//!   element. The macro front end never panics on any token stream (fuzzed).
//!
//! # Checked by which tool
//!
//! - `cargo test` (part of `scripts/test`, which CI runs): every promise
//!   above against NumPy's answers and a reference interpreter
//!   (`tests/suite/`), on one thread and many (`tests/suite/threads.rs`,
//!   bit for bit), with and without rayon; `tests/suite/adversarial.rs` and
//!   `tests/suite/errors.rs` for hostile inputs and the order of errors.
//!   Every `unsafe` block in tensor-core has a `// SAFETY:` comment and a
//!   test that would fail if its reasoning were wrong.
//! - `bash scripts/miri` (part of `scripts/test`): tensor-core's unit
//!   tests, and the thread tests of every path that shares memory among
//!   threads or writes memory a plain store would not (scatters, gathers
//!   into uninitialized outputs, splits by destination, pieces on threads,
//!   streaming stores), under Miri, which reports undefined behaviour
//!   (accesses out of bounds or misaligned, uninitialized reads, broken
//!   borrows, data races, leaks) where it happens: without rayon under
//!   Stacked Borrows with the leak check, with rayon under Tree Borrows
//!   (rayon's threads outlive the program, so without the leak check). Miri runs with small
//!   arrays, for which the thresholds that pick the paths shrink. It does
//!   not reach:
//!   - the streaming store instructions themselves and their fence
//!     (`exec/sys/stream.rs`), which Miri cannot run: it checks plain
//!     stores to the same aligned blocks instead, so the bounds and
//!     alignment in their SAFETY comments are checked, the ordering the
//!     fence gives is not (the tests check that streamed results equal
//!     plain ones, on the real instructions);
//!   - the builds of the hot loops for AVX, AVX2 and AVX-512F
//!     (`#[target_feature]`), since Miri's machine has the baseline
//!     instruction set only; they compile the same Rust as the baseline
//!     build that Miri runs;
//!   - the AVX-512F intrinsics of lines blended whole
//!     (`exec/sys/blend.rs`) and of index blocks compacted
//!     (`exec/sys/compact.rs`), which the baseline machine never takes:
//!     their unit tests compare them with plain loops on the real
//!     instructions (the compaction's with marks past the slots it is
//!     given), and AddressSanitizer runs them at full size, on a machine
//!     with AVX-512F. A comparison of values cannot see a load whose
//!     lanes go unused, or a block stored back as it was read, past the
//!     run: the tests of the blend and of streamed copies also run them
//!     on runs and values placed against pages that cannot be read or
//!     written (`exec/sys/guarded.rs`), where such an access faults;
//!   - the huge-page advice (`madvise`, `exec/sys/pages.rs`), which it
//!     skips: advice changes no contents;
//!   - allocations refused for their size, since Miri stops at an
//!     allocation larger than its memory rather than let the allocator
//!     refuse it (AddressSanitizer runs those);
//!   - the reading of the machine (`/proc`, `/sys`, CPU features): under
//!     Miri the machine is a fixed description.
//! - `bash scripts/sanitize` (a separate command, since its instrumented
//!   build is long): the tests of tensor-core and tensor-at under
//!   AddressSanitizer and LeakSanitizer, at full size, with the real
//!   instructions: out-of-bounds accesses, uses after free, leaks.
//! - `bash scripts/fuzz` (a smoke run in `scripts/test`, from the
//!   committed corpora, every input of which it runs again) and
//!   `bash scripts/fuzz-campaign` (long campaigns, recorded in
//!   `docs/fuzzing.md`): the runtime, plain and batched, against the
//!   reference interpreter on arbitrary calls (on error, the target
//!   unchanged); the burn adapter against the same call on an ndarray;
//!   and the macro front end on arbitrary token streams (an expansion or
//!   an error, never a panic). Their builds shrink the thresholds that
//!   pick the paths as Miri's do, on the real machine, so that inputs of
//!   a few hundred elements run the paths of large calls (threads,
//!   streaming stores and their fence, the builds for AVX2 and AVX-512F,
//!   splits by destination, the measure of how rows store) under
//!   AddressSanitizer, against the same reference.
