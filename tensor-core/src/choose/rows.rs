//! How a row scatter or a row gather stores its rows, plainly or streamed
//! past the cache: measured, once per process, on the first row scatter or
//! gather large enough to tell, whose rows go out to memory
//! (`Machine::measures_rows`, `Machine::row_gather_stores`), and kept.
//! Which is faster differs between machines of one vendor and one cache
//! size (docs/performance.md, "Row stores measured, not assumed"), so
//! nothing the system reports predicts it. Either way the rows hold the
//! same bits; only the speed differs.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How rows are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStores {
    /// Not measured yet: the next row scatter or gather large enough measures.
    Unmeasured,
    /// Plain stores, each destination row asked for ahead.
    Plain,
    /// Streaming stores, past the cache.
    Streamed,
}

/// What this process measured ([`RowStores::Unmeasured`] until it has).
static MEASURED: AtomicU8 = AtomicU8::new(0);

/// What this process measured so far.
#[cfg_attr(miri, allow(dead_code))] // Miri's machine is fixed
pub(super) fn measured() -> RowStores {
    match MEASURED.load(Ordering::Relaxed) {
        1 => RowStores::Plain,
        2 => RowStores::Streamed,
        _ => RowStores::Unmeasured,
    }
}

/// Keeps `stores` as what this process measured.
fn record(stores: RowStores) {
    let code = match stores {
        RowStores::Unmeasured => 0,
        RowStores::Plain => 1,
        RowStores::Streamed => 2,
    };
    MEASURED.store(code, Ordering::Relaxed);
}

/// The most rows a timed turn takes: at 512-byte rows, 1 MB, long enough
/// that the clock's resolution and a stray interrupt matter little.
const TURN_ROWS: usize = 2048;

/// The timed turns of a scatter or gather of `rows` rows, in index order: half of
/// them at most, in four turns, plain, streamed, streamed, plain (so
/// that a machine speeding up or slowing down during them favours neither),
/// then the rest of the rows ([`measure`] says how they store). No turns for
/// fewer than eight rows.
fn turns(rows: usize) -> (Vec<(Range<usize>, RowStores)>, Range<usize>) {
    let turn = (rows / 8).min(TURN_ROWS);
    let order = [RowStores::Plain, RowStores::Streamed, RowStores::Streamed, RowStores::Plain];
    let timed = match turn {
        0 => Vec::new(),
        _ => order
            .iter()
            .enumerate()
            .map(|(k, &stores)| (k * turn..(k + 1) * turn, stores))
            .collect(),
    };
    (timed, 4 * turn..rows)
}

/// How many measures may end undecided ([`verdict`]) before this process
/// settles on plain stores, which keep rows in the cache for whoever reads
/// them next.
const UNDECIDED_AT_MOST: u32 = 16;

/// The measures that ended undecided so far.
static UNDECIDED: AtomicU32 = AtomicU32::new(0);

/// The kind that stored its rows faster by more than a tenth, from the
/// best turn of each (so that one turn meeting an interrupt or a page
/// fault does not decide); `None` while neither is. A process's first
/// calls can meet the two kinds alike where every later call finds one
/// far faster (docs/performance.md, "Row stores measured, not assumed"),
/// so a near tie decides nothing.
fn verdict(plain: Duration, streamed: Duration) -> Option<RowStores> {
    // (In nanoseconds, which a `u128` holds ten times over even for a kind
    // never timed, `Duration::MAX`.)
    let (plain, streamed) = (plain.as_nanos(), streamed.as_nanos());
    if streamed * 10 < plain * 9 {
        Some(RowStores::Streamed)
    } else if plain * 10 < streamed * 9 {
        Some(RowStores::Plain)
    } else {
        None
    }
}

/// What a measure of `verdict` stores the rest of its rows as, keeping a
/// verdict ([`measured`]); an undecided one stores them plainly and
/// leaves the next large call to measure again, up to
/// [`UNDECIDED_AT_MOST`] times.
fn settle(verdict: Option<RowStores>) -> RowStores {
    match verdict {
        Some(winner) => {
            record(winner);
            winner
        }
        None => {
            if UNDECIDED.fetch_add(1, Ordering::Relaxed) + 1 >= UNDECIDED_AT_MOST {
                record(RowStores::Plain);
            }
            RowStores::Plain
        }
    }
}

/// Stores `rows` rows by `store(places, stores)`, which stores the rows at
/// `places` (a range of the index, taken in order) as `stores` says: up to
/// the first half in timed turns of each kind, the rest as the clearly
/// faster kind did, which this process then keeps ([`measured`]), or
/// plainly when neither was ([`settle`]). Returns the kind the rest took
/// (`Plain`, unrecorded, when there were too few rows to time).
pub(super) fn measure(rows: usize, mut store: impl FnMut(Range<usize>, RowStores)) -> RowStores {
    let (timed, rest) = turns(rows);
    let (mut plain, mut streamed) = (Duration::MAX, Duration::MAX);
    for (places, stores) in timed.iter().cloned() {
        let start = Instant::now();
        store(places, stores);
        let took = start.elapsed();
        let best = match stores {
            RowStores::Streamed => &mut streamed,
            _ => &mut plain,
        };
        *best = (*best).min(took);
    }
    let stores = match timed.is_empty() {
        true => RowStores::Plain,
        false => settle(verdict(plain, streamed)),
    };
    store(rest, stores);
    stores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turns_take_every_row_once_in_order_half_of_each_kind() {
        for rows in [0, 1, 7, 8, 9, 100, 8 * TURN_ROWS - 1, 8 * TURN_ROWS, 8 * TURN_ROWS + 5, 100_000] {
            let (timed, rest) = turns(rows);
            let mut next = 0;
            for (places, _) in timed.iter().chain([(rest.clone(), RowStores::Plain)].iter()) {
                assert_eq!(places.start, next, "{rows} rows: {timed:?} then {rest:?}");
                next = places.end;
            }
            assert_eq!(next, rows, "{rows} rows");
            let timed_rows = |kind| {
                timed
                    .iter()
                    .filter(|(_, stores)| *stores == kind)
                    .map(|(places, _)| places.len())
                    .sum::<usize>()
            };
            assert_eq!(timed_rows(RowStores::Plain), timed_rows(RowStores::Streamed), "{rows} rows");
            assert!(4 * timed_rows(RowStores::Plain) <= rows, "{rows} rows: at most half timed");
            assert_eq!(timed.is_empty(), rows < 8, "{rows} rows");
            assert!(timed.iter().all(|(places, _)| places.len() <= TURN_ROWS));
        }
    }

    #[test]
    fn a_kind_faster_by_more_than_a_tenth_wins_and_a_near_tie_decides_nothing() {
        let us = Duration::from_micros;
        assert_eq!(verdict(us(240), us(156)), Some(RowStores::Streamed));
        assert_eq!(verdict(us(156), us(240)), Some(RowStores::Plain));
        assert_eq!(verdict(us(1000), us(899)), Some(RowStores::Streamed));
        assert_eq!(verdict(us(899), us(1000)), Some(RowStores::Plain));
        for (plain, streamed) in [(1000, 900), (900, 1000), (369, 358), (351, 360), (500, 500)] {
            assert_eq!(verdict(us(plain), us(streamed)), None, "{plain} against {streamed} µs");
        }
        // Kinds never timed (no turns) decide nothing either.
        assert_eq!(verdict(Duration::MAX, Duration::MAX), None);
    }

    #[test]
    fn undecided_measures_store_plainly_and_settle_on_plain_after_the_last() {
        // (The process's one count: other tests' measures may add to it
        // meanwhile, so this checks what holds whatever they do.)
        assert_eq!(settle(Some(RowStores::Streamed)), RowStores::Streamed);
        assert_eq!(settle(Some(RowStores::Plain)), RowStores::Plain);
        for _ in 0..UNDECIDED_AT_MOST {
            assert_eq!(settle(None), RowStores::Plain);
        }
        assert!(UNDECIDED.load(Ordering::Relaxed) >= UNDECIDED_AT_MOST);
        assert_eq!(measured(), RowStores::Plain, "settled on plain after the last undecided measure");
    }

    #[test]
    fn a_measured_scatter_stores_every_row_once_and_keeps_a_clear_winner() {
        let rows = 1000;
        let mut stored = Vec::new();
        // Streamed turns made slow enough to lose by far.
        let winner = measure(rows, |places, stores| {
            assert_ne!(stores, RowStores::Unmeasured);
            if stores == RowStores::Streamed && places.start < 4 * (rows / 8) {
                std::thread::sleep(Duration::from_millis(20));
            }
            stored.extend(places.map(|k| (k, stores)));
        });
        assert_eq!(winner, RowStores::Plain);
        assert_eq!(stored.iter().map(|&(k, _)| k).collect::<Vec<_>>(), (0..rows).collect::<Vec<_>>());
        assert!(stored[4 * (rows / 8)..].iter().all(|&(_, stores)| stores == winner));
        // (Other tests may record their own measure meanwhile; none unrecords.)
        assert_ne!(measured(), RowStores::Unmeasured);
        let few = measure(5, |places, stores| assert_eq!((places, stores), (0..5, RowStores::Plain)));
        assert_eq!(few, RowStores::Plain, "too few rows to time");
    }
}
