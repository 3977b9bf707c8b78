//! The entry points `at!`, `set!`, `try_at!` and `try_set!` expand into.
//!
//! Each takes the index as a nested list `(e0, (e1, ()))` so that the
//! elements' types give the static ranks: indexing more axes than a
//! statically ranked target has, or writing a value of higher rank than the
//! indexed region, fails to compile. Each returns a `Result`; the panicking
//! macros pass it through [`unwrap`], which reports the user's line.

use std::marker::PhantomData;

use ndarray::{Array, Dimension};

use crate::api::{self, Selection};
use crate::builder::IntoUpdated;
use crate::element::{Arith, Op};
use crate::error::IndexError;
use crate::exec::kernel::{SetKernel, with_op};
use crate::exec::masked;
use crate::index::IndexElem;
use crate::mode::Mode;
use crate::target::{Target, TargetMut};
use crate::typed::{Advanced, FitsIn, IndexList, IndexedBy, Kind, Read};
use crate::value::IntoValue;

/// The rank of the region `L` selects from a target of rank `D`.
type Region<'i, D, L> = <D as IndexedBy<'i, L>>::Rank;

/// The owned result of reading `L` from the target `X`.
type Gathered<'i, X, L> = Array<<X as Target>::Elem, Region<'i, <X as Target>::Dim, L>>;

fn elems<'i, L: IndexList<'i>>(list: L) -> Vec<IndexElem<'i>> {
    let mut elems = Vec::with_capacity(L::LEN);
    list.push_into(&mut elems);
    elems
}

/// `target[list]`: a view for basic indices, an owned array for advanced
/// ones, statically ranked where the ranks are static.
pub fn read<'t, 'i, X, L>(target: &'t X, list: L, mode: Mode<X::Elem>) -> Result<Read<'t, 'i, X::Elem, X::Dim, L>, IndexError>
where
    X: Target + ?Sized,
    X::Elem: Clone + Send + Sync,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    let selection: Selection<'t, X::Elem> = api::select(target.target_view().into_dyn(), &elems(list), mode)?;
    Ok(<L::Kind as Kind>::read::<X::Elem, Region<'i, X::Dim, L>>(selection))
}

/// `target[list]` with mode `fill(value)`: an owned array, since positions
/// out of bounds read as `fill` (a basic index may gather then).
pub fn read_filled<'i, X, L>(target: &X, list: L, fill: X::Elem) -> Result<Gathered<'i, X, L>, IndexError>
where
    X: Target + ?Sized,
    X::Elem: Clone + Send + Sync,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    let selection = api::select(target.target_view().into_dyn(), &elems(list), Mode::Fill(fill))?;
    Ok(Advanced::read::<X::Elem, Region<'i, X::Dim, L>>(selection))
}

/// `target[list] = value`.
pub fn set<'i, 'v, X, L, V>(target: &mut X, list: L, value: V, mode: Mode<X::Elem>) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Clone + 'static,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Region<'i, X::Dim, L>>,
{
    api::set(&mut target.target_view_mut(), &elems(list), value, mode)
}

/// `target[list] op= value`, every occurrence applied in index order.
pub fn update<'i, 'v, X, L, V>(target: &mut X, list: L, op: Op, value: V, mode: Mode<X::Elem>) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Arith + 'v,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Region<'i, X::Dim, L>>,
{
    api::update(&mut target.target_view_mut(), &elems(list), op, value, mode)
}

/// `target[list].apply(f)`.
pub fn apply<'i, X, L>(target: &mut X, list: L, f: impl FnMut(X::Elem) -> X::Elem, mode: Mode<X::Elem>) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Clone,
    L: IndexList<'i>,
    X::Dim: IndexedBy<'i, L>,
{
    api::apply(&mut target.target_view_mut(), &elems(list), f, mode)
}

/// `set!(source[list] = value)`: the updated array; `source` is copied when
/// borrowed, and updated in its own buffer when owned.
pub fn set_copy<'i, 'v, T, D, X, L, V>(source: X, list: L, value: V, mode: Mode<T>) -> Result<Array<T, D>, IndexError>
where
    T: Clone + 'static,
    D: Dimension + IndexedBy<'i, L>,
    X: IntoUpdated<T, D>,
    L: IndexList<'i>,
    V: IntoValue<'v, T>,
    V::Dim: FitsIn<Region<'i, D, L>>,
{
    let mut array = source.into_owned_array();
    set(&mut array, list, value, mode)?;
    Ok(array)
}

/// `set!(source[list] op= value)`.
pub fn update_copy<'i, 'v, T, D, X, L, V>(source: X, list: L, op: Op, value: V, mode: Mode<T>) -> Result<Array<T, D>, IndexError>
where
    T: Arith + 'v,
    D: Dimension + IndexedBy<'i, L>,
    X: IntoUpdated<T, D>,
    L: IndexList<'i>,
    V: IntoValue<'v, T>,
    V::Dim: FitsIn<Region<'i, D, L>>,
{
    let mut array = source.into_owned_array();
    update(&mut array, list, op, value, mode)?;
    Ok(array)
}

/// `set!(source[list].apply(f))`.
pub fn apply_copy<'i, T, D, X, L>(source: X, list: L, f: impl FnMut(T) -> T, mode: Mode<T>) -> Result<Array<T, D>, IndexError>
where
    T: Clone,
    D: Dimension + IndexedBy<'i, L>,
    X: IntoUpdated<T, D>,
    L: IndexList<'i>,
{
    let mut array = source.into_owned_array();
    apply(&mut array, list, f, mode)?;
    Ok(array)
}

/// The mask `predicate(e)` for each element `e` of `array` (the mask sugar
/// `x[a < s]`).
pub fn mask<X: Target + ?Sized>(array: &X, predicate: impl FnMut(&X::Elem) -> bool) -> Array<bool, X::Dim> {
    array.target_view().map(predicate)
}

/// `target[predicate(target)] = value` (the mask sugar on the target
/// itself): one pass and no allocation when `value` is a scalar; an array
/// value (one per selected element, in C order) adds a counting pass.
pub fn set_where<'v, X, V>(target: &mut X, predicate: impl FnMut(&X::Elem) -> bool, value: V) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Clone + 'static,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Ix1Region>,
{
    let no_check = None::<fn(&X::Elem) -> Result<(), IndexError>>;
    masked::write_where(
        target.target_view_mut().into_dyn(),
        predicate,
        value.into_value(),
        SetKernel,
        no_check,
        true,
    )
}

/// `target[predicate(target)] op= value`, as [`set_where`].
pub fn update_where<'v, X, V>(target: &mut X, predicate: impl FnMut(&X::Elem) -> bool, op: Op, value: V) -> Result<(), IndexError>
where
    X: TargetMut + ?Sized,
    X::Elem: Arith + 'v,
    V: IntoValue<'v, X::Elem>,
    V::Dim: FitsIn<Ix1Region>,
{
    let view = target.target_view_mut().into_dyn();
    let check = X::Elem::checks_operands(op).then_some(|v: &X::Elem| X::Elem::check_operand(op, *v));
    with_op!(op, kernel => masked::write_where(view, predicate, value.into_value(), kernel, check, false))
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
pub fn unwrap<R>(result: Result<R, IndexError>) -> R {
    match result {
        Ok(value) => value,
        Err(error) => panic!("{error}"),
    }
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

/// An index element, converted where the user wrote it: a type error
/// about it points at the element, and the ranks it carries on are then
/// error types, which keeps the rest of the expansion from repeating it.
pub fn index_elem<'i, E: crate::IntoIndexElem<'i>>(elem: E) -> Ranked<'i, E::Consumed, E::Produced, E::Broadcast, E::Kind> {
    Ranked {
        elem: elem.into_index_elem(),
        ranks: PhantomData,
    }
}

/// An index element with its static ranks (see [`IntoIndexElem`](crate::IntoIndexElem)).
pub struct Ranked<'i, C, P, B, K> {
    elem: IndexElem<'i>,
    ranks: PhantomData<(C, P, B, K)>,
}

impl<'i, C: Dimension, P: Dimension, B: Dimension, K: Kind> crate::IntoIndexElem<'i> for Ranked<'i, C, P, B, K> {
    type Consumed = C;
    type Produced = P;
    type Broadcast = B;
    type Kind = K;
    fn into_index_elem(self) -> IndexElem<'i> {
        self.elem
    }
}

/// `a..b;step`.
pub fn stepped(range: impl crate::index::IntoRangeSlice, step: impl SliceBound) -> crate::RangeSlice {
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
