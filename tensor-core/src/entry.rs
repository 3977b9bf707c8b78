//! The entry points `at!`, `set!`, `try_at!` and `try_set!` expand into.
//!
//! Each takes the index as a nested list `(e0, (e1, ()))` so that the
//! elements' types give the static ranks: indexing more axes than a
//! statically ranked target has, or writing a value of higher rank than the
//! indexed region, fails to compile. A read's bounds check that here, since
//! its result's type needs the rank; a write's are its caller's: the
//! macros' closure of checks ([`checked_mut`], which points an error at
//! the index's or the value's token) or the method syntax's own bounds. A
//! write that also asked for them here would have the compiler work the
//! rank out twice a call (measured in docs/performance-history.md, "where a
//! call's type checking goes"). Each returns a `Result`; the panicking
//! macros pass it through [`unwrap`], which reports the user's line, but
//! for reads and writes in place, which `at!` calls in their own panicking
//! forms ([`read_unwrap`], [`set_unwrap`], [`update_unwrap`]): an element's
//! path there returns no `Result` at all.

use std::fmt::Display;
use std::marker::PhantomData;

use ndarray::{ArrayViewMut, Dimension};

pub use ndarray::{Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn};

use crate::backend::{HostClosures, Indexable, IndexableMut, IntoUpdatable, MaskOperand};
pub use crate::backend::{Predicate, Step};
pub use crate::element::Compare;
use crate::element::{Arith, Op};
use crate::error::{IndexError, SetError};
pub use crate::index::CrossIndex;
use crate::mode::AnyMode;
use crate::rank::{Advanced, Kind};
pub use crate::rank::{AxisFits, BatchFits, FitsIn, HasView, Holds};
use crate::target::{Target, TargetMut};
use crate::typed::IndexList;
pub use crate::typed::IndexedBy;
pub use crate::typed::batch;
use crate::value::IntoValue;
use crate::value::{InOrder, Value};

/// The rank of the region `L` selects from a target of rank `D`.
type Region<'i, D, L> = <D as IndexedBy<'i, L>>::Rank;

/// What a read of `L` from `X` returns: a view or an owned array on the
/// CPU, by the kinds of the index elements.
type ReadOf<'t, 'i, X, L> = <X as Indexable>::Read<'t, <L as IndexList<'i>>::Kind, Region<'i, <X as Indexable>::Dim, L>>;

/// What a read of `L` from `X` in mode `fill` returns: an owned array on
/// the CPU (the element, for integers that leave no axis).
type FilledOf<'t, 'i, X, L> = <X as Indexable>::Read<'t, FilledKind<'i, L>, Region<'i, <X as Indexable>::Dim, L>>;
type FilledKind<'i, L> = <<L as IndexList<'i>>::Kind as Kind>::Filled;

/// What a mask over every axis of `X` reads.
type MaskedOf<'t, X> = <X as Indexable>::Read<'t, Advanced, <<X as Indexable>::Dim as WholeMask>::Selected>;

/// What `&mut x[list]` lends: a mutable view of the region's rank.
type ViewMutOf<'t, 'i, X, L> = ArrayViewMut<'t, <X as Target>::Elem, Region<'i, <X as Target>::Dim, L>>;

/// What `set!` writes into and returns for the source `X`.
type Updatable<X> = <X as IntoUpdatable>::Updatable;
/// Its element type, rank and error.
type ElemOf<X> = <Updatable<X> as Indexable>::Elem;
type DimOf<X> = <Updatable<X> as Indexable>::Dim;
type ErrorOf<X> = <Updatable<X> as Indexable>::Error;

/// Whether the backend's inline paths may take a list `L` in `mode`: mode
/// `error`, no batch axes.
///
/// Each caller tests [`FAST_PATHS`](crate::FAST_PATHS) first: a constant
/// there, so that an unoptimized build compiles none of the paths behind
/// it (a test inside this function would leave them compiled).
fn inline<'i, L: IndexList<'i>, T>(mode: &AnyMode<T>) -> bool {
    L::BATCH == 0 && matches!(mode, AnyMode::Error)
}

/// `target[list]`: a view for basic indices, an owned array for advanced
/// ones, statically ranked where the ranks are static (the element itself
/// for integers alone). Inlined into the call: an element in bounds is read
/// there, one out of bounds goes to the general path, and everything else
/// is `read_rest`, a call of its own.
#[inline]
pub fn read<'t, 'i, X, L>(target: &'t X, list: L, mode: AnyMode<X::Elem>) -> Result<ReadOf<'t, 'i, X, L>, X::Error>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    match read_element(target, &list, &mode) {
        Some(Some(element)) => Ok(element),
        Some(None) => read_general(target, list, mode),
        None => read_rest(target, list, mode),
    }
}

/// [`read`] for `at!`, which panics on an error at the user's line. Each
/// inline path returns its read where it is made, and the general path
/// is a call that panics itself: one `Result` merging them all would be
/// stored, read back and copied out, in a stack frame that the inline
/// paths would pay for too.
#[cfg_attr(not(unoptimized), inline(always))]
#[track_caller]
pub fn read_unwrap<'t, 'i, X, L>(target: &'t X, list: L, mode: AnyMode<X::Elem>) -> ReadOf<'t, 'i, X, L>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    match read_element(target, &list, &mode) {
        Some(Some(element)) => return element,
        Some(None) => return read_general_unwrap(target, list, mode),
        None => {}
    }
    if let Some(read) = read_inline(target, &list, &mode) {
        return unwrap(read);
    }
    read_general_unwrap(target, list, mode)
}

/// [`read_general`] for [`read_unwrap`]: a call of its own, which panics
/// on an error.
#[inline(never)]
#[track_caller]
fn read_general_unwrap<'t, 'i, X, L>(target: &'t X, list: L, mode: AnyMode<X::Elem>) -> ReadOf<'t, 'i, X, L>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    unwrap(read_general(target, list, mode))
}

/// An element, for integers alone in mode `error`: `Some(None)` when one
/// is out of bounds, which only the general path takes (it names the
/// error); `None` for the other paths.
#[cfg_attr(not(unoptimized), inline(always))]
fn read_element<'t, 'i, X, L>(target: &'t X, list: &L, mode: &AnyMode<X::Elem>) -> Option<Option<ReadOf<'t, 'i, X, L>>>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    if crate::FAST_PATHS && inline::<L, _>(mode) {
        target.read_element::<L::Kind, Region<'i, X::Dim, L>>(list)
    } else {
        None
    }
}

/// [`read`] past an element: a few indices and a basic view, inlined as
/// [`set_rest`] is, then the general path, a call of its own (which tries
/// one small advanced element alone first).
#[inline]
fn read_rest<'t, 'i, X, L>(target: &'t X, list: L, mode: AnyMode<X::Elem>) -> Result<ReadOf<'t, 'i, X, L>, X::Error>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    match read_inline(target, &list, &mode) {
        Some(read) => read,
        None => read_general(target, list, mode),
    }
}

/// The inline paths of [`read_rest`]: a few indices, then a basic view;
/// `None` when neither takes the list.
#[cfg_attr(not(unoptimized), inline(always))]
fn read_inline<'t, 'i, X, L>(target: &'t X, list: &L, mode: &AnyMode<X::Elem>) -> Option<Result<ReadOf<'t, 'i, X, L>, X::Error>>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    if !(crate::FAST_PATHS && inline::<L, _>(mode)) {
        return None;
    }
    if let Some(index) = list.single_index()
        && let Some(read) = target.read_few::<L::Kind, Region<'i, X::Dim, L>>(index)
    {
        return Some(read);
    }
    target.read_basic::<L::Kind, Region<'i, X::Dim, L>>(list).map(Ok)
}

/// [`read`]'s general path.
#[inline(never)]
fn read_general<'t, 'i, X, L>(target: &'t X, list: L, mode: AnyMode<X::Elem>) -> Result<ReadOf<'t, 'i, X, L>, X::Error>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    if crate::FAST_PATHS
        && inline::<L, _>(&mode)
        && L::LEN == 1
        && let Some(read) = read_single(target, &list)
    {
        return Ok(read);
    }
    list.with_elems(|elems| target.read_index::<L::Kind, Region<'i, X::Dim, L>>(elems, L::BATCH, mode))
}

/// [`read`] of one advanced element that the backend reads inline (see
/// [`Indexable::read_single`]), tried first by the general path.
#[inline]
fn read_single<'t, 'i, X, L>(target: &'t X, list: &L) -> Option<ReadOf<'t, 'i, X, L>>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    target.read_single::<L::Kind, Region<'i, X::Dim, L>>(list.single()?)
}

/// [`set`] of one advanced element that the backend writes inline (see
/// [`IndexableMut::set_single`]): whether it wrote. Tried first by the
/// general path, which is inlined into the call: a call of its own, since
/// its code inlined there would crowd out the inlining of the smaller
/// paths before it.
#[inline(never)]
fn set_single<'i, X, L>(target: &mut X, list: &L, value: &Value<'_, X::Elem>) -> bool
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
{
    match (list.single(), value.in_order()) {
        (Some(elem), Some(values)) => target.set_single(elem, values),
        _ => false,
    }
}

/// [`update`] of one advanced element as [`set_single`] writes it.
#[inline(never)]
fn update_single<'i, X, L>(target: &mut X, list: &L, op: Op, value: &Value<'_, X::Elem>) -> bool
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith,
    L: IndexList<'i>,
{
    match (list.single(), value.in_order()) {
        (Some(elem), Some(values)) => target.update_single(elem, op, values),
        _ => false,
    }
}

/// `target[list]` with mode `fill(value)`: an owned array, since positions
/// out of bounds read as `fill` (a basic index may gather then), or the
/// element for integers that leave no axis.
pub fn read_filled<'t, 'i, X, L>(target: &'t X, list: L, fill: X::Elem) -> Result<FilledOf<'t, 'i, X, L>, X::Error>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    list.with_elems(|elems| target.read_index::<FilledKind<'i, L>, Region<'i, X::Dim, L>>(elems, L::BATCH, AnyMode::Fill(fill)))
}

/// `&mut target[list]` (`at!(&mut x[1:3, ::2])`): the mutable view of a
/// basic index, of the region's static rank, to hand to `Zip`, `assign` or
/// `mapv_inplace`; an ndarray only.
pub fn view_mut<'t, 'i, X, L>(target: &'t mut X, list: L) -> Result<ViewMutOf<'t, 'i, X, L>, IndexError>
where
    X: TargetMut + ?Sized,
    L: IndexList<'i>,
    L::Kind: HasView,
    X::Dim: IndexedBy<'i, L>,
{
    let view = list.with_elems(|elems| crate::api::view_mut(target.target_view_mut().into_dyn(), elems))?;
    Ok(view.into_dimensionality().expect("a basic index selects its region's rank"))
}

/// `target[list]` read into `out` (`; out = buf`), which has the result's
/// rank (checked here) and shape (checked at run time); an ndarray only.
pub fn read_into<'i, X, L, O>(target: &X, list: L, mode: AnyMode<X::Elem>, out: &mut O) -> Result<(), IndexError>
where
    X: Target + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
    O: TargetMut<Elem = X::Elem> + ?Sized,
    O::Dim: Holds<Region<'i, X::Dim, L>>,
{
    list.with_elems(|elems| crate::batched::get_batched_into(&target.target_view(), elems, L::BATCH, mode, &mut out.target_view_mut()))
}

/// `target[list] = value`. Inlined into the call: an element in bounds, or
/// a few indices in one vector, are written there, then the rest of the
/// inline paths (`set_rest`), then the backend's general path, a call of
/// its own.
#[inline]
pub fn set<'i, 'v, X, L, V>(target: &mut X, list: L, value: V, mode: AnyMode<X::Elem>) -> Result<(), X::Error>
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if set_element(target, &list, &value, &mode) {
        return Ok(());
    }
    if let Some(written) = set_few(target, &list, &value, &mode) {
        return written;
    }
    set_rest(target, list, value, mode).map_err(|error| *error)
}

/// [`set`] for `at!`, which panics on an error at the user's line. The
/// writes of an element and of a few indices are inlined into the call;
/// the rest, a call of its own where the compiler judges it large, is
/// `set_unwrap_rest`.
#[cfg_attr(not(unoptimized), inline(always))]
#[track_caller]
pub fn set_unwrap<'i, 'v, X, L, V>(target: &mut X, list: L, value: V, mode: AnyMode<X::Elem>)
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if set_element(target, &list, &value, &mode) {
        return;
    }
    match set_few(target, &list, &value, &mode) {
        Some(Ok(())) => {}
        Some(Err(error)) => failed(error),
        None => set_unwrap_rest(target, list, value, mode),
    }
}

/// [`set_unwrap`] past an element and a few indices.
#[inline]
#[track_caller]
fn set_unwrap_rest<'i, 'v, X, L, V>(target: &mut X, list: L, value: V, mode: AnyMode<X::Elem>)
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if let Err(error) = set_rest(target, list, value, mode) {
        failed(*error)
    }
}

/// Writes an element in bounds, for integers alone, a scalar and mode
/// `error`: whether it did.
#[cfg_attr(not(unoptimized), inline(always))]
fn set_element<'i, 'v, X, L, V>(target: &mut X, list: &L, value: &V, mode: &AnyMode<X::Elem>) -> bool
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    crate::FAST_PATHS && inline::<L, _>(mode) && matches!(value.in_order(), Some(InOrder::Scalar(value)) if target.set_element(list, value))
}

/// Writes a few indices in one borrowed vector (see
/// [`IndexableMut::set_few`]), inlined into the call with the element's
/// write: there a literal list's indices are constants (`x[[1, 5]] = v`).
/// `None` when not taken.
#[cfg_attr(not(unoptimized), inline(always))]
fn set_few<'i, 'v, X, L, V>(target: &mut X, list: &L, value: &V, mode: &AnyMode<X::Elem>) -> Option<Result<(), X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if !(crate::FAST_PATHS && inline::<L, _>(mode)) {
        return None;
    }
    target.set_few(list.single_index()?, value.in_order()?)
}

/// [`set`] past an element and a few indices: a basic region, inlined
/// (where the compiler sees the index the macro wrote), then the general
/// path (which tries one small advanced element alone first), the
/// backend's call of its own. The error comes boxed: a `Result` of a word,
/// which the paths' results merge into in registers (merging the whole
/// error costs a small write a copy, and a stall on it).
#[inline]
fn set_rest<'i, 'v, X, L, V>(target: &mut X, list: L, value: V, mode: AnyMode<X::Elem>) -> Result<(), Box<X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if crate::FAST_PATHS
        && inline::<L, _>(&mode)
        && let Some(written) = value.written()
        && target.set_basic(&list, written)
    {
        return Ok(());
    }
    set_general(target, list, value.into_value(), mode)
}

/// [`set`]'s general path: inlined, since the backend's own entry is the
/// call (see [`IndexableMut::set_index`]).
#[inline]
fn set_general<'i, X, L>(target: &mut X, list: L, value: Value<'_, X::Elem>, mode: AnyMode<X::Elem>) -> Result<(), Box<X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
{
    if crate::FAST_PATHS && inline::<L, _>(&mode) && L::LEN == 1 && set_single(target, &list, &value) {
        value.dispose();
        return Ok(());
    }
    list.with_elems(|elems| target.set_index(elems, L::BATCH, value, mode))
        .map_err(Box::new)
}

/// `target[list] op= value`, every occurrence applied in index order
/// (inlined as [`set`] is).
#[inline]
pub fn update<'i, 'v, X, L, V>(target: &mut X, list: L, op: Op, value: V, mode: AnyMode<X::Elem>) -> Result<(), X::Error>
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if update_element(target, &list, op, &value, &mode) {
        return Ok(());
    }
    if let Some(written) = update_few(target, &list, op, &value, &mode) {
        return written;
    }
    update_rest(target, list, op, value, mode).map_err(|error| *error)
}

/// [`update`] for `at!`, as [`set_unwrap`] is.
#[cfg_attr(not(unoptimized), inline(always))]
#[track_caller]
pub fn update_unwrap<'i, 'v, X, L, V>(target: &mut X, list: L, op: Op, value: V, mode: AnyMode<X::Elem>)
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if update_element(target, &list, op, &value, &mode) {
        return;
    }
    match update_few(target, &list, op, &value, &mode) {
        Some(Ok(())) => {}
        Some(Err(error)) => failed(error),
        None => update_unwrap_rest(target, list, op, value, mode),
    }
}

/// [`update_unwrap`] past an element and a few indices.
#[inline]
#[track_caller]
fn update_unwrap_rest<'i, 'v, X, L, V>(target: &mut X, list: L, op: Op, value: V, mode: AnyMode<X::Elem>)
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if let Err(error) = update_rest(target, list, op, value, mode) {
        failed(*error)
    }
}

/// Updates an element in bounds as [`set_element`] writes one.
#[cfg_attr(not(unoptimized), inline(always))]
fn update_element<'i, 'v, X, L, V>(target: &mut X, list: &L, op: Op, value: &V, mode: &AnyMode<X::Elem>) -> bool
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    crate::FAST_PATHS
        && inline::<L, _>(mode)
        && matches!(value.in_order(), Some(InOrder::Scalar(value)) if target.update_element(list, op, value))
}

/// Updates a few indices in one borrowed vector as [`set_few`] writes
/// them.
#[cfg_attr(not(unoptimized), inline(always))]
fn update_few<'i, 'v, X, L, V>(target: &mut X, list: &L, op: Op, value: &V, mode: &AnyMode<X::Elem>) -> Option<Result<(), X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if !(crate::FAST_PATHS && inline::<L, _>(mode)) {
        return None;
    }
    target.update_few(list.single_index()?, op, value.in_order()?)
}

/// [`update`] past an element, as [`set_rest`].
#[inline]
fn update_rest<'i, 'v, X, L, V>(target: &mut X, list: L, op: Op, value: V, mode: AnyMode<X::Elem>) -> Result<(), Box<X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, X::Elem>,
{
    if crate::FAST_PATHS
        && inline::<L, _>(&mode)
        && let Some(written) = value.written()
        && target.update_basic(&list, op, written)
    {
        return Ok(());
    }
    update_general(target, list, op, value.into_value(), mode)
}

/// [`update`]'s general path, inlined as [`set_general`] is.
#[inline]
fn update_general<'i, X, L>(target: &mut X, list: L, op: Op, value: Value<'_, X::Elem>, mode: AnyMode<X::Elem>) -> Result<(), Box<X::Error>>
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith,
    L: IndexList<'i>,
{
    if crate::FAST_PATHS && inline::<L, _>(&mode) && L::LEN == 1 && update_single(target, &list, op, &value) {
        value.dispose();
        return Ok(());
    }
    list.with_elems(|elems| target.update_index(elems, L::BATCH, op, value, mode))
        .map_err(Box::new)
}

/// `target[list].apply(f)`: a few indices in one borrowed vector are
/// applied in place with no plan built, as `op=` applies them.
pub fn apply<'i, X, L>(target: &mut X, list: L, f: impl FnMut(X::Elem) -> X::Elem, mode: AnyMode<X::Elem>) -> Result<(), X::Error>
where
    X: IndexableMut + HostClosures + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    // Bound here, not in the signature, which compile errors quote.
    let mut f = f;
    if crate::FAST_PATHS
        && inline::<L, _>(&mode)
        && let Some(index) = list.single_index()
        && let Some(done) = target.apply_few(index, &mut f)
    {
        return done;
    }
    list.with_elems(|elems| target.apply_index(elems, L::BATCH, f, mode))
}

/// `set!(source[list] = value)`: the updated array; `source` is copied when
/// borrowed, and updated in its own buffer when owned.
pub fn set_copy<'i, 'v, X, L, V>(source: X, list: L, value: V, mode: AnyMode<ElemOf<X>>) -> CopyResult<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, ElemOf<X>>,
{
    let mut array = source.into_updatable().map_err(SetError::without_array)?;
    let done = set(&mut array, list, value, mode);
    kept(array, done)
}

/// [`set_copy`] for `set!`, as [`read_unwrap`] is: the array is built in
/// place, never moved through a `Result` (a copy that waits on the stores
/// the copying function just made).
#[inline]
#[track_caller]
pub fn set_copy_unwrap<'i, 'v, X, L, V>(source: X, list: L, value: V, mode: AnyMode<ElemOf<X>>) -> Updatable<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Clone + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, ElemOf<X>>,
{
    let mut array = source.into_updatable_unwrap();
    set_unwrap(&mut array, list, value, mode);
    array
}

/// [`update_copy`] for `set!`, as [`set_copy_unwrap`] is.
#[inline]
#[track_caller]
pub fn update_copy_unwrap<'i, 'v, X, L, V>(source: X, list: L, op: Op, value: V, mode: AnyMode<ElemOf<X>>) -> Updatable<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, ElemOf<X>>,
{
    let mut array = source.into_updatable_unwrap();
    update_unwrap(&mut array, list, op, value, mode);
    array
}

/// `set!(source[list] op= value)`.
pub fn update_copy<'i, 'v, X, L, V>(source: X, list: L, op: Op, value: V, mode: AnyMode<ElemOf<X>>) -> CopyResult<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Arith + 'v,
    L: IndexList<'i>,
    V: IntoValue<'v, ElemOf<X>>,
{
    let mut array = source.into_updatable().map_err(SetError::without_array)?;
    let done = update(&mut array, list, op, value, mode);
    kept(array, done)
}

/// `set!(source[list].apply(f))`.
pub fn apply_copy<'i, X, L>(source: X, list: L, f: impl FnMut(ElemOf<X>) -> ElemOf<X>, mode: AnyMode<ElemOf<X>>) -> CopyResult<X>
where
    X: IntoUpdatable,
    Updatable<X>: HostClosures,
    ElemOf<X>: Clone,
    DimOf<X>: IndexedBy<'i, L>,
    L: IndexList<'i>,
{
    let mut array = source.into_updatable().map_err(SetError::without_array)?;
    let done = apply(&mut array, list, f, mode);
    kept(array, done)
}

/// What `set!`'s copying entry points return: the updated array, or the
/// error with the array unchanged.
pub type CopyResult<X> = Result<Updatable<X>, SetError<Updatable<X>, ErrorOf<X>>>;

/// `array` after an update that returned `done`: the updated array, or
/// the error with the array, unchanged (nothing is written on an error).
fn kept<A, E>(array: A, done: Result<(), E>) -> Result<A, SetError<A, E>> {
    match done {
        Ok(()) => Ok(array),
        Err(error) => Err(SetError::with_array(error, array)),
    }
}

/// The target, unchanged. `checks` is never called: type-checking it is
/// the check. The macros pass a closure naming traits on the types of the
/// call (the target's rank and elements from its `PhantomData`, the value,
/// the index list): `<_ as BatchFits<Ix2>>::check(rank_of(target))`. A
/// failed one is that trait's own message at the user's token, with no
/// note about a bound of this function; an entry point's bound that fails
/// the same way at the same place is then reported once.
pub fn checked<X: Indexable + ?Sized>(target: &X, checks: impl FnOnce(PhantomData<X>)) -> &X {
    let _ = checks;
    target
}

/// [`checked`] for a target written.
pub fn checked_mut<X: Indexable + ?Sized>(target: &mut X, checks: impl FnOnce(PhantomData<X>)) -> &mut X {
    let _ = checks;
    target
}

/// [`checked`] for what `set!` consumes.
pub fn checked_source<X: IntoUpdatable>(source: X, checks: impl FnOnce(PhantomData<Updatable<X>>)) -> X {
    let _ = checks;
    source
}

/// The type of `value`, for [`checked`]'s tests.
pub fn witness<T: ?Sized>(value: &T) -> PhantomData<T> {
    let _ = value;
    PhantomData
}

/// The rank of the target `X`, for [`checked`]'s tests.
pub fn rank_of<X: Indexable + ?Sized>(target: PhantomData<X>) -> PhantomData<X::Dim> {
    let _ = target;
    PhantomData
}

/// The element type of the target `X`, for [`checked`]'s tests.
pub fn elems_of<X: Indexable + ?Sized>(target: PhantomData<X>) -> PhantomData<X::Elem> {
    let _ = target;
    PhantomData
}

/// What kind of index the list `L` is, for [`checked`]'s tests.
pub fn kind_of<'i, L: IndexList<'i>>(list: PhantomData<L>) -> PhantomData<L::Kind> {
    let _ = list;
    PhantomData
}

/// The mask `array compare scalar`, `predicate(e)` for each element `e`
/// of an ndarray (the mask sugar `x[a < s]` where `a` is not the target
/// itself).
pub fn mask<X: MaskOperand + ?Sized>(array: &X, compare: Compare, scalar: &X::Elem, predicate: impl FnMut(&X::Elem) -> bool) -> X::Mask {
    array.mask(compare, scalar, predicate)
}

/// The rank of what a mask over every axis of a target of rank `Self`
/// selects: one axis (or a dynamic rank).
pub trait WholeMask: Dimension {
    /// The rank of the selection.
    type Selected: crate::rank::Rank;
}

macro_rules! whole_mask {
    ($($dim:ty => $selected:ty),*) => {$( impl WholeMask for $dim { type Selected = $selected; } )*};
}
whole_mask!(ndarray::Ix0 => Ix1, Ix1 => Ix1, ndarray::Ix2 => Ix1, ndarray::Ix3 => Ix1, ndarray::Ix4 => Ix1, ndarray::Ix5 => Ix1, ndarray::Ix6 => Ix1, IxDyn => IxDyn);

/// `target[predicate(target)]` (the mask sugar on the target itself): the
/// selected elements in C order, with no mask built.
pub fn read_where<'t, X, F>(target: &'t X, predicate: Predicate<'_, X::Elem, F>) -> Result<MaskedOf<'t, X>, X::Error>
where
    X: Indexable + ?Sized,
    X::Elem: Clone,
    X::Dim: WholeMask,
    F: FnMut(&X::Elem) -> bool,
{
    target.read_where::<<X::Dim as WholeMask>::Selected, F>(predicate)
}

/// `target[predicate(target)] = value` (the mask sugar on the target
/// itself): one pass and no allocation when `value` is a scalar; an array
/// value (one per selected element, in C order) adds a counting pass.
#[inline]
pub fn set_where<'v, X, F, V>(target: &mut X, predicate: Predicate<'_, X::Elem, F>, value: V) -> Result<(), X::Error>
where
    X: IndexableMut + ?Sized,
    X::Elem: Clone + 'v,
    F: FnMut(&X::Elem) -> bool,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Ix1Region>,
{
    target.set_where(predicate, value.into_value())
}

/// `target[predicate(target)] op= value`, as [`set_where`].
#[inline]
pub fn update_where<'v, X, F, V>(target: &mut X, predicate: Predicate<'_, X::Elem, F>, op: Op, value: V) -> Result<(), X::Error>
where
    X: IndexableMut + ?Sized,
    X::Elem: Arith + 'v,
    F: FnMut(&X::Elem) -> bool,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Ix1Region>,
{
    target.update_where(predicate, op, value.into_value())
}

/// `set!(source[predicate(source)] = value)`: [`set_where`] on the copy.
pub fn set_where_copy<'v, X, F, V>(source: X, predicate: Predicate<'_, ElemOf<X>, F>, value: V) -> CopyResult<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Clone + 'v,
    F: FnMut(&ElemOf<X>) -> bool,
    V: IntoValue<'v, ElemOf<X>>,
    V::Dim: FitsIn<Ix1Region>,
{
    let mut array = source.into_updatable().map_err(SetError::without_array)?;
    let done = set_where(&mut array, predicate, value);
    kept(array, done)
}

/// `set!(source[predicate(source)] op= value)`: [`update_where`] on the copy.
pub fn update_where_copy<'v, X, F, V>(source: X, predicate: Predicate<'_, ElemOf<X>, F>, op: Op, value: V) -> CopyResult<X>
where
    X: IntoUpdatable,
    ElemOf<X>: Arith + 'v,
    F: FnMut(&ElemOf<X>) -> bool,
    V: IntoValue<'v, ElemOf<X>>,
    V::Dim: FitsIn<Ix1Region>,
{
    let mut array = source.into_updatable().map_err(SetError::without_array)?;
    let done = update_where(&mut array, predicate, op, value);
    kept(array, done)
}

/// The region a mask over every axis selects: one axis, the count.
pub type Ix1Region = ndarray::Ix1;

/// The value of a `Result`, or a panic at the caller's line with the
/// error's message (what `at!` and `set!` do on a run-time index error).
///
/// # Panics
///
/// When `result` is an error.
#[track_caller]
pub fn unwrap<R, E: Display>(result: Result<R, E>) -> R {
    match result {
        Ok(value) => value,
        Err(error) => failed(error),
    }
}

/// A panic at the caller's line with `error`'s message.
#[cold]
#[track_caller]
fn failed<E: Display>(error: E) -> ! {
    panic!("{error}")
}

/// Reborrows the target of a macro call by method syntax, so that auto-ref
/// and auto-deref reach the array whether the user wrote an owned array, a
/// reference or a `&mut` binding; the entry points then check its type.
pub trait AsTarget {
    /// `&self`, through auto-deref.
    fn tensor_at_ref(&self) -> &Self {
        self
    }
    /// `&mut self`, through auto-deref.
    fn tensor_at_mut(&mut self) -> &mut Self {
        self
    }
}

impl<T: ?Sized> AsTarget for T {}

/// `a..b;step`.
pub fn stepped(range: impl crate::index::IntoRangeSlice, step: impl SliceBound) -> crate::index::RangeSlice {
    range.into_range_slice().step_by(step.to_isize())
}

/// `Some(bound)` of a NumPy slice part.
pub fn bound(bound: impl SliceBound) -> Option<isize> {
    Some(bound.to_isize())
}

/// Integer types a slice bound or step may be written in.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a slice bound or step",
    label = "slice bounds and steps are integers",
    note = "use an integer type (usize, isize, i32, i64, u32, u64, ...)"
)]
pub trait SliceBound {
    /// The value as `isize` (saturating: a bound beyond `isize` clamps like any out-of-range bound).
    fn to_isize(self) -> isize;
}

macro_rules! slice_bound {
    ($($t:ty),*) => {$(
        impl SliceBound for $t {
            fn to_isize(self) -> isize {
                isize::try_from(self).unwrap_or(if (self as i128) < 0 { isize::MIN } else { isize::MAX })
            }
        }
    )*};
}
slice_bound!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
