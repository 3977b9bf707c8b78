//! Panics caught with their message and location, without racing the
//! binary's other tests for the process-wide panic hook: one hook,
//! installed once, records the location of a panic on a thread inside
//! `catch` and hands every other panic to the default hook.

use std::cell::{Cell, RefCell};
use std::panic::{self, UnwindSafe};
use std::sync::Once;

/// A panic caught by [`catch`].
pub struct Caught {
    /// The panic's message.
    pub message: String,
    /// Where it was raised, as `file:line` (empty if on another thread).
    pub location: String,
}

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LOCATION: RefCell<String> = const { RefCell::new(String::new()) };
}

/// `f()`, or the panic it raised.
pub fn catch<R>(f: impl FnOnce() -> R + UnwindSafe) -> Result<R, Caught> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.get() {
                let location = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
                LOCATION.replace(location);
            } else {
                default(info);
            }
        }));
    });
    LOCATION.take();
    let was_catching = CATCHING.replace(true);
    let outcome = panic::catch_unwind(f);
    CATCHING.set(was_catching);
    outcome.map_err(|payload| Caught {
        message: payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
        location: LOCATION.take(),
    })
}
