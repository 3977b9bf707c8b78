//! The machine: what it has (caches, instruction sets), read only
//! by the chooser's `choose::machine`, and the mechanisms the executor runs
//! on it (huge pages, software prefetch, streaming stores, lines blended
//! whole, index blocks compacted). Whether to use
//! a mechanism is the chooser's decision; here is only how.
//!
//! A leaf: it imports nothing of the crate but `element`.

pub(crate) mod blend;
pub(crate) mod caches;
#[cfg(threads)] // the split by destination compacts
pub(crate) mod compact;
pub(crate) mod cpu;
#[cfg(all(test, target_os = "linux", not(miri)))]
pub(crate) mod guarded;
pub(crate) mod pages;
pub(crate) mod prefetch;
pub(crate) mod stream;
