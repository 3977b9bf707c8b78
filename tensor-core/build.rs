//! Sets `cfg(share_generics)` when the build is unoptimized (opt-level 0
//! or 1, `s`, `z`): rustc then shares generic code between crates, and
//! `src/common.rs` compiles the general paths here for dependents to
//! link. Optimized builds would only compile them twice.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(share_generics)");
    println!("cargo::rerun-if-changed=build.rs");
    let opt_level = std::env::var("OPT_LEVEL").unwrap_or_default();
    if matches!(opt_level.as_str(), "0" | "1" | "s" | "z") {
        println!("cargo::rustc-cfg=share_generics");
    }
}
