#!/usr/bin/env bash
# The compile-time cost of the macros on a user crate. scripts/compile-time/gen.py
# writes two crates: `ct-macros`, with 100 varied `at!`/`set!` calls (f32, f64,
# i32, i64; ranks 1-3; reads, `=`, `+=`, `-=`, `*=`, `.max()`, masks, `set!`,
# `mode = clip/drop`, integer arrays, steps, `...`, `None`), and `ct-by-hand`,
# the same work written with ndarray alone. Both run and print a checksum of
# every result; the script stops unless the two checksums are equal.
#
# Measured, for the user crate only (its dependencies built beforehand):
#   - a clean build (`cargo clean -p` and its incremental cache removed),
#   - an incremental rebuild after a trivial edit of one function
#     (a `black_box(N)` constant in the first function of src/t_f64.rs),
#   - a no-op build (nothing changed: cargo's own overhead, part of both),
# in the dev profile (what users iterate with; `--release` adds release clean
# builds), each --repeat times (3), reported as median (min-max) and the ratio
# macros / by hand; in dev, the macros crate also as `macros-tuned`: the same
# crate with the profile setting the README suggests for tensor-core
# (`debug = "line-tables-only"`); then `cargo llvm-lines` (installed with `cargo install` if
# missing, skipped if that fails): total LLVM lines, lines per call, the top
# functions. Ends with Markdown tables (also in $work/report.md).
#
#   bash scripts/compile-time.sh [--repeat N] [--release] [--no-llvm-lines]
#
# Takes about 2 minutes on 2 cores with dependencies built (the first run:
# about 5 more, for the dependencies of each of the three crates);
# `--release` adds much more (one release build of the macros crate alone
# took 8 minutes on another machine). Most of it is the macros crates'
# clean builds and `cargo llvm-lines`. Memory: a clean build of the macros crate peaks near
# 2 GB, `cargo llvm-lines` on it near 6 GB.
#
# The crates are written under ${TENSOR_AT_CACHE:-$HOME/.cache/tensor-at}/compile-time
# (never in the repo), each with its own CARGO_TARGET_DIR there. They depend on
# a snapshot of this working tree copied there at the start (`tensor-at = {
# path = ".../compile-time/tensor-at" }`), so edits made to the
# repo while the script runs neither trigger rebuilds of tensor-core in the
# middle of a measurement nor mix two versions in one table; the copy is
# touched once, so that tensor-core is always rebuilt from it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

repeat=3
release=0
llvm_lines=1
while [ $# -gt 0 ]; do
    case "$1" in
        --repeat) repeat="$2"; shift 2 ;;
        --release) release=1; shift ;;
        --no-llvm-lines) llvm_lines=0; shift ;;
        *) echo "usage: bash scripts/compile-time.sh [--repeat N] [--release] [--no-llvm-lines]" >&2; exit 2 ;;
    esac
done

cache="${TENSOR_AT_CACHE:-$HOME/.cache/tensor-at}"
work="$cache/compile-time"
snapshot="$work/tensor-at"
mkdir -p "$work"
started=$(date +%s)

echo "== snapshot of $repo -> $snapshot"
rm -rf "$snapshot"
mkdir -p "$snapshot"
tar -C "$repo" --exclude=./target --exclude=./.git --exclude=./fuzz -cf - . | tar -C "$snapshot" -xf -
# Newer than any earlier build: cargo judges a path dependency fresh by
# mtimes, and the tree copied may be older than the last snapshot built
# (another checkout measured before this one).
find "$snapshot" -type f -exec touch {} +

python3 scripts/compile-time/gen.py "$work" "$snapshot" "$repo/Cargo.lock"
calls=$(cat "$work/calls.txt")
# The crates use the repo's toolchain.
for crate in macros by-hand; do
    cp rust-toolchain.toml "$work/$crate/"
done
rm -rf "$work/macros-tuned"
cp -r "$work/macros" "$work/macros-tuned"
printf '\n[profile.dev.package.tensor-core]\ndebug = "line-tables-only"\n' >> "$work/macros-tuned/Cargo.toml"

: > "$work/times.tsv"
: > "$work/sizes.tsv"
rm -f "$work"/llvm-lines-*.txt

package() { echo "ct-${1%-tuned}"; }
target_dir() { echo "$work/target-$1"; }
# cargo's name for the profile's output directory and its flag.
profile_dir() { if [ "$1" = dev ]; then echo debug; else echo release; fi; }
profile_flag() { if [ "$1" = dev ]; then echo --profile=dev; else echo --release; fi; }

cargo_in() { # crate, cargo arguments...
    local crate="$1"
    shift
    (cd "$work/$crate" && CARGO_TARGET_DIR="$(target_dir "$crate")" cargo "$@")
}

clean_crate() { # crate, profile
    local pkg dir
    pkg=$(package "$1")
    dir="$(target_dir "$1")/$(profile_dir "$2")"
    cargo_in "$1" clean --quiet "$(profile_flag "$2")" -p "$pkg"
    rm -rf "$dir/incremental/${pkg//-/_}-"*
}

edits=0
edit() { # crate: rewrite the marker constant of the first f64 function
    edits=$((edits + 1))
    sed -i -E "s|black_box\([0-9]+u32\); // EDIT-MARKER|black_box(${edits}u32); // EDIT-MARKER|" \
        "$work/$1/src/t_f64.rs"
    grep -q "black_box(${edits}u32); // EDIT-MARKER" "$work/$1/src/t_f64.rs"
}

# GNU time, when installed, gives the peak memory of the largest process
# (rustc compiling the user crate).
gnu_time=()
[ -x /usr/bin/time ] && gnu_time=(/usr/bin/time -f %M -o "$work/maxrss")

timed_build() { # crate, profile, kind, repetition
    local t0 t1 secs kib=""
    rm -f "$work/maxrss"
    t0=$(date +%s.%N)
    (cd "$work/$1" && CARGO_TARGET_DIR="$(target_dir "$1")" "${gnu_time[@]}" cargo build --quiet "$(profile_flag "$2")")
    t1=$(date +%s.%N)
    secs=$(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')
    [ -f "$work/maxrss" ] && kib=$(tail -1 "$work/maxrss")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$secs" "$kib" >> "$work/times.tsv"
    echo "   $1 $2 $3 #$4: ${secs} s${kib:+, peak ${kib} KiB}"
}

run_crate() { # crate, profile: the binary's output
    "$(target_dir "$1")/$(profile_dir "$2")/$(package "$1")"
}

check_checksums() { # profile
    local m b
    m=$(run_crate macros "$1")
    b=$(run_crate by-hand "$1")
    echo "   $1: macros: ${m//$'\n'/, }; by hand: ${b//$'\n'/, }"
    if [[ "$m" != *"cases $calls"* ]] || [[ "$m" != *checksum* ]] || [ "$m" != "$b" ]; then
        echo "the two crates do not compute the same thing (their checksums differ)" >&2
        exit 1
    fi
    if [ "$1" = dev ] && [ "$(run_crate macros-tuned dev)" != "$b" ]; then
        echo "the tuned macros crate does not compute what the others do" >&2
        exit 1
    fi
}

profiles=(dev)
[ "$release" = 1 ] && profiles+=(release)

for profile in "${profiles[@]}"; do
    crates=(macros by-hand)
    [ "$profile" = dev ] && crates+=(macros-tuned)
    echo "== $profile: dependencies and a first build of each crate"
    for crate in "${crates[@]}"; do
        cargo_in "$crate" build --quiet "$(profile_flag "$profile")"
    done
    check_checksums "$profile"
    for crate in "${crates[@]}"; do
        stat -c %s "$(target_dir "$crate")/$(profile_dir "$profile")/$(package "$crate")" |
            xargs printf '%s\t%s\t%s\n' "$crate" "$profile" >> "$work/sizes.tsv"
    done

    echo "== $profile: $repeat x (no-op build, clean build, then an edit and a rebuild), each crate in turn"
    for rep in $(seq 1 "$repeat"); do
        for crate in "${crates[@]}"; do
            # Nothing to do: cargo's own overhead, included in every figure.
            timed_build "$crate" "$profile" noop "$rep"
            clean_crate "$crate" "$profile"
            timed_build "$crate" "$profile" clean "$rep"
            # Release builds are not incremental (cargo's default): a rebuild
            # after an edit is a clean build again, so only dev measures it.
            if [ "$profile" = dev ]; then
                edit "$crate"
                timed_build "$crate" "$profile" incremental "$rep"
            fi
        done
    done
    check_checksums "$profile"
done

if [ "$llvm_lines" = 1 ]; then
    if ! command -v cargo-llvm-lines > /dev/null; then
        echo "== installing cargo-llvm-lines"
        cargo install --locked cargo-llvm-lines || echo "cargo-llvm-lines did not install: skipped"
    fi
    if command -v cargo-llvm-lines > /dev/null; then
        echo "== cargo llvm-lines (dev profile)"
        # In target directories of their own: cargo llvm-lines rebuilds the
        # dependencies too, which would leave the timed ones stale.
        for crate in macros by-hand; do
            (cd "$work/$crate" && CARGO_TARGET_DIR="$work/target-llvm-lines-$crate" \
                cargo llvm-lines --bin "$(package "$crate")") > "$work/llvm-lines-$crate.txt"
        done
    fi
fi

python3 scripts/compile-time/report.py "$work" | tee "$work/report.md"
echo
echo "rustc: $(cd "$work/macros" && rustc --version); $(nproc) cores; $(lscpu | sed -n 's/^Model name: *//p')"
echo "took $(( $(date +%s) - started )) s; raw results in $work"
