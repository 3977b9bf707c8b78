//! The sizes of this processor's caches, as Linux reports them, read once:
//! whether splitting an update among threads pays depends on them.

use std::fs;
use std::sync::OnceLock;

/// The unified caches a core sees, in bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caches {
    /// One core's level-2 cache.
    pub(crate) l2: usize,
    /// The level-3 cache.
    pub(crate) l3: usize,
}

/// The caches of the first processor, `None` where the system does not say
/// (`/sys/devices/system/cpu/cpu0/cache` is Linux's).
#[cfg_attr(miri, allow(dead_code))] // Miri's machine is fixed
pub(crate) fn caches() -> Option<Caches> {
    static CACHES: OnceLock<Option<Caches>> = OnceLock::new();
    *CACHES.get_or_init(|| {
        Some(Caches {
            l2: unified_cache(2)?,
            l3: unified_cache(3)?,
        })
    })
}

/// The size of cpu0's unified cache of `level`.
fn unified_cache(level: u32) -> Option<usize> {
    let caches = fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    caches.flatten().find_map(|entry| {
        let read = |name: &str| fs::read_to_string(entry.path().join(name)).ok();
        let right_level = read("level")?.trim().parse::<u32>().ok()? == level;
        let unified = read("type")?.trim() == "Unified";
        (right_level && unified).then(|| bytes(read("size")?.trim()))?
    })
}

/// `"1024K"`, `"32M"` or `"512"` in bytes.
fn bytes(size: &str) -> Option<usize> {
    let (number, unit) = match size.strip_suffix('K') {
        Some(number) => (number, 1 << 10),
        None => match size.strip_suffix('M') {
            Some(number) => (number, 1 << 20),
            None => (size, 1),
        },
    };
    number.parse::<usize>().ok()?.checked_mul(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_linux_writes_them() {
        assert_eq!(bytes("1024K"), Some(1 << 20));
        assert_eq!(bytes("32M"), Some(32 << 20));
        assert_eq!(bytes("512"), Some(512));
        assert_eq!(bytes("K"), None);
        assert_eq!(bytes("12Q"), None);
    }
}
