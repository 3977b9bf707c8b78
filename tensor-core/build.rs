//! Sets three cfgs from the opt-level:
//! - `share_generics` when rustc shares generic code between crates
//!   (opt-level 0 or 1, `s`, `z`): `src/common.rs` then compiles the
//!   general paths here for dependents to link. Optimized builds would only
//!   compile them twice.
//! - `unoptimized` at opt-level 0: the hot paths' `#[inline(always)]` is
//!   then left out (`#[cfg_attr(not(unoptimized), inline(always))]`), and
//!   every operation runs on the one kernel told its operation at run time
//!   (`exec/kernel.rs`, `with_op!`), and every `along` consumer through one
//!   walk per index type (`plan/along.rs`). A debug build gains little from
//!   any, and every forced inlining, kernel or walk per consumer is more
//!   code, with its debug info: more to compile and to link in every
//!   dependent's edit-build cycle.
//! - `threads` with the feature `rayon`, but not at opt-level 0: the
//!   paths that run on threads are compiled only then. Unoptimized, they
//!   would be a third of a dependent's debug binary (measured in
//!   docs/performance-history.md), linked again at every edit, for a
//!   build whose every loop already runs many times slower than optimized;
//!   results are the same on any number of threads.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(share_generics)");
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    println!("cargo::rustc-check-cfg=cfg(threads)");
    // Set by cargo-fuzz: the thresholds that pick paths shrink (`choose/machine.rs`).
    println!("cargo::rustc-check-cfg=cfg(fuzzing)");
    println!("cargo::rerun-if-changed=build.rs");
    let opt_level = std::env::var("OPT_LEVEL").unwrap_or_default();
    if matches!(opt_level.as_str(), "0" | "1" | "s" | "z") {
        println!("cargo::rustc-cfg=share_generics");
    }
    let unoptimized = opt_level == "0";
    if unoptimized {
        println!("cargo::rustc-cfg=unoptimized");
    }
    if std::env::var_os("CARGO_FEATURE_RAYON").is_some() && !unoptimized {
        println!("cargo::rustc-cfg=threads");
    }
}
