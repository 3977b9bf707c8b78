//! The size of this processor's L2 cache, as Linux reports it, read once:
//! whether splitting an update among threads pays depends on it. (The L3
//! is not read: a VM reports its host's, shared with other tenants.)

use std::fs;
use std::sync::OnceLock;

/// One core's unified L2 cache in bytes, `None` where the system does not
/// say (`/sys/devices/system/cpu/cpu0/cache` is Linux's).
#[cfg_attr(miri, allow(dead_code))] // Miri's machine is fixed
pub(crate) fn l2() -> Option<usize> {
    static L2: OnceLock<Option<usize>> = OnceLock::new();
    *L2.get_or_init(|| unified_cache(2))
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
