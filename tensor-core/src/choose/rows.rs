//! How a row scatter or a row gather stores its rows, plainly or streamed
//! past the cache: measured, once per process, on the first row scatter or
//! gather large enough to tell, whose rows go out to memory
//! (`Machine::measures_rows`, `Machine::row_gather_stores`), and kept.
//! Which is faster differs between machines of one vendor and one cache
//! size (docs/performance.md, "Row stores measured, not assumed"), so
//! nothing the system reports predicts it. Either way the rows hold the
//! same bits; only the speed differs.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};
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
/// then the rest of the rows, which the faster kind stores. No turns for
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

/// The faster of the two, from the time each took over the same number of
/// rows; plain on a tie, since plainly stored rows stay in the cache for
/// whoever reads them next.
fn faster(plain: Duration, streamed: Duration) -> RowStores {
    if streamed < plain { RowStores::Streamed } else { RowStores::Plain }
}

/// Stores `rows` rows by `store(places, stores)`, which stores the rows at
/// `places` (a range of the index, taken in order) as `stores` says: up to
/// the first half in timed turns of each kind, the rest as the faster kind
/// did, which this process then keeps ([`measured`]). Returns that kind
/// (`Plain`, unrecorded, when there were too few rows to time).
pub(super) fn measure(rows: usize, mut store: impl FnMut(Range<usize>, RowStores)) -> RowStores {
    let (timed, rest) = turns(rows);
    let (mut plain, mut streamed) = (Duration::ZERO, Duration::ZERO);
    for (places, stores) in timed.iter().cloned() {
        let start = Instant::now();
        store(places, stores);
        let took = start.elapsed();
        match stores {
            RowStores::Streamed => streamed += took,
            _ => plain += took,
        }
    }
    let winner = faster(plain, streamed);
    if !timed.is_empty() {
        record(winner);
    }
    store(rest, winner);
    winner
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
    fn the_faster_kind_wins_and_plain_wins_a_tie() {
        let ms = Duration::from_millis;
        assert_eq!(faster(ms(3), ms(1)), RowStores::Streamed);
        assert_eq!(faster(ms(1), ms(3)), RowStores::Plain);
        assert_eq!(faster(ms(2), ms(2)), RowStores::Plain);
    }

    #[test]
    fn a_measured_scatter_stores_every_row_once_and_is_kept() {
        let rows = 1000;
        let mut stored = Vec::new();
        let winner = measure(rows, |places, stores| {
            assert_ne!(stores, RowStores::Unmeasured);
            stored.extend(places.map(|k| (k, stores)));
        });
        assert_eq!(stored.iter().map(|&(k, _)| k).collect::<Vec<_>>(), (0..rows).collect::<Vec<_>>());
        assert!(stored[4 * (rows / 8)..].iter().all(|&(_, stores)| stores == winner));
        // (Other tests may record their own measure meanwhile; none unrecords.)
        assert_ne!(measured(), RowStores::Unmeasured);
        let few = measure(5, |places, stores| assert_eq!((places, stores), (0..5, RowStores::Plain)));
        assert_eq!(few, RowStores::Plain, "too few rows to time");
    }
}
