//! The typed entry points' rank arithmetic over whole index lists: the
//! macros pass an index as nested pairs `(e0, (e1, ()))`, and the types of
//! the elements give the rank of what a read returns and the checks of the
//! macros (too many indices, a value of too many axes).
//!
//! A read of `x[e0, e1, ...]` on a target of rank `D` has rank
//! `D - consumed + produced + broadcast`, where each element consumes target
//! axes, produces basic axes (slices, new axes) and contributes its rank to
//! the broadcast of the advanced indices (see [`rank`](crate::rank)).

use ndarray::{Dimension, Ix0};

use crate::rank::{Basic, Kind, RankAdd, RankMax, RankSub};

/// An index list as the macros pass it: nested pairs `(e0, (e1, ()))`,
/// with the static ranks of the whole list.
pub trait IndexList<'a> {
    /// Target axes the list consumes.
    type Consumed: Dimension;
    /// Basic axes it produces.
    type Produced: Dimension;
    /// Rank of its advanced indices broadcast together.
    type Broadcast: Dimension;
    /// What a read returns.
    type Kind: Kind;
    /// Number of elements.
    const LEN: usize;
    /// Appends the run-time index elements to `out`.
    fn push_into(self, out: &mut Vec<crate::IndexElem<'a>>);
}

impl<'a> IndexList<'a> for () {
    type Consumed = Ix0;
    type Produced = Ix0;
    type Broadcast = Ix0;
    type Kind = Basic;
    const LEN: usize = 0;
    #[inline]
    fn push_into(self, _: &mut Vec<crate::IndexElem<'a>>) {}
}

impl<'a, H, T> IndexList<'a> for (H, T)
where
    H: crate::IntoIndexElem<'a>,
    T: IndexList<'a>,
    H::Consumed: RankAdd<T::Consumed>,
    H::Produced: RankAdd<T::Produced>,
    H::Broadcast: RankMax<T::Broadcast>,
{
    type Consumed = <H::Consumed as RankAdd<T::Consumed>>::Out;
    type Produced = <H::Produced as RankAdd<T::Produced>>::Out;
    type Broadcast = <H::Broadcast as RankMax<T::Broadcast>>::Out;
    type Kind = <T::Kind as Kind>::Or<H::Kind>;
    const LEN: usize = 1 + T::LEN;
    // Inlined into the macros' entry points, where the list is built: left
    // to the compiler, it is not, and a small update pays for the calls.
    #[inline]
    fn push_into(self, out: &mut Vec<crate::IndexElem<'a>>) {
        out.push(self.0.into_index_elem());
        self.1.push_into(out);
    }
}

/// A target rank `Self` indexed by `L`: the read's rank is
/// `Self - consumed + produced + broadcast`. Not implemented when `L`
/// consumes more axes than `Self` has.
pub trait IndexedBy<'i, L: IndexList<'i>>: Dimension {
    /// The rank of `target[list]`.
    type Rank: Dimension;
}

impl<'i, D, L> IndexedBy<'i, L> for D
where
    D: Dimension + RankSub<L::Consumed>,
    L: IndexList<'i>,
    <D as RankSub<L::Consumed>>::Out: RankAdd<L::Produced>,
    <<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out: RankAdd<L::Broadcast>,
{
    type Rank = <<<D as RankSub<L::Consumed>>::Out as RankAdd<L::Produced>>::Out as RankAdd<L::Broadcast>>::Out;
}

/// The type of a read of `list` (borrowing index data for `'i`) from a
/// target of rank `D` and elements `T` borrowed for `'t`.
pub type Read<'t, 'i, T, D, L> = <<L as IndexList<'i>>::Kind as Kind>::Read<'t, T, <D as IndexedBy<'i, L>>::Rank>;
