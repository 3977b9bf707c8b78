#!/usr/bin/env python3
"""The Markdown tables of scripts/compile-time.sh, from its raw results.

    python3 scripts/compile-time/report.py WORK_DIR

Reads WORK_DIR/times.tsv (crate: macros, macros-tuned or by-hand; profile,
kind, repetition, seconds and,
when GNU time measured it, the peak memory in KiB),
WORK_DIR/calls.txt, WORK_DIR/sizes.tsv (crate, profile, bytes) and, when
present, WORK_DIR/llvm-lines-<crate>.txt (`cargo llvm-lines` output).
Python 3 stdlib only.
"""

import collections
import os
import re
import statistics
import sys

CRATES = ["macros", "by-hand"]
KINDS = [
    ("clean", "clean build"),
    ("incremental", "incremental rebuild"),
    ("noop", "no-op build (cargo overhead)"),
]


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def fmt_s(xs):
    return f"{statistics.median(xs):.2f} s ({min(xs):.2f}–{max(xs):.2f})"


def time_row(label, macros, by_hand):
    """A table row: both crates' times and the ratio of their medians."""
    ratio = statistics.median(macros) / statistics.median(by_hand)
    return f"| {label} | {fmt_s(macros)} | {fmt_s(by_hand)} | {ratio:.1f}x |"


def parse_llvm_lines(path):
    """(total lines, total copies, [(lines, copies, name)])."""
    rows, total = [], None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\d+)\s+(?:\([^)]*\)\s+)?(\d+)\s+(?:\([^)]*\)\s+)?(.*\S)\s*$", line)
            if not m:
                continue
            lines, copies, name = int(m.group(1)), int(m.group(2)), m.group(3)
            if name == "(TOTAL)":
                total = (lines, copies)
            else:
                rows.append((lines, copies, name))
    return total, rows


def origin(name):
    """The crate a function's name starts with (its self type's for `<T as Trait>::f`)."""
    m = re.match(r"[<&\s]*(?:mut\s+)?(?:dyn\s+)?([A-Za-z_][A-Za-z0-9_]*)::", name)
    if not m:
        return "other"
    return m.group(1)


def core_module(name):
    """`exec::scatter` for `tensor_core::exec::scatter::Destinations<I>::scatter`."""
    segs = name[name.find("tensor_core::") + len("tensor_core::"):].split("::")
    mods = []
    for k, seg in enumerate(segs[:-1]):
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", seg) or segs[k + 1].startswith("{{"):
            break
        mods.append(seg)
    return "::".join(mods[:2]) or "(root)"


def main():
    work = sys.argv[1]
    calls = int(open(os.path.join(work, "calls.txt")).read())
    times = collections.defaultdict(list)
    peak = collections.defaultdict(list)  # KiB, when GNU time measured it
    for crate, profile, kind, _rep, secs, *kib in read_tsv(os.path.join(work, "times.tsv")):
        times[(crate, profile, kind)].append(float(secs))
        if kib and kib[0]:
            peak[(crate, profile, kind)].append(int(kib[0]))
    sizes = {(c, p): int(b) for c, p, b in read_tsv(os.path.join(work, "sizes.tsv"))}
    profiles = [p for p in ("dev", "release") if any(k[1] == p for k in times)]
    reps = max((len(v) for v in times.values()), default=0)

    print(f"### Compile time of a user crate with {calls} `at!`/`set!` calls\n")
    print(f"Median of {reps} runs (min–max), user crate only, dependencies prebuilt.\n")
    print("| build | macros | by hand | macros / by hand |")
    print("| --- | ---: | ---: | ---: |")
    for profile in profiles:
        for kind, label in KINDS:
            m, b = times.get(("macros", profile, kind)), times.get(("by-hand", profile, kind))
            if not m or not b:
                continue
            print(time_row(f"{profile}, {label}", m, b))
    # The macros crate again, with the README's profile setting for tensor-core.
    for kind, label in KINDS[:2]:
        m, b = times.get(("macros-tuned", "dev", kind)), times.get(("by-hand", "dev", kind))
        if m and b:
            print(time_row(f"dev, {label}, tensor-core `debug = \"line-tables-only\"`", m, b))
    for profile in profiles:
        m, b = peak.get(("macros", profile, "clean")), peak.get(("by-hand", profile, "clean"))
        if m and b:
            m, b = max(m), max(b)
            print(f"| {profile}, peak memory of a clean build | {m / 2**20:.1f} GiB | {b / 2**20:.2f} GiB "
                  f"| {m / b:.1f}x |")
    size_rows = [(f"{profile} binary size", "macros", profile) for profile in profiles]
    size_rows.append(("dev binary size, tensor-core line tables only", "macros-tuned", "dev"))
    for label, crate, profile in size_rows:
        m, b = sizes.get((crate, profile)), sizes.get(("by-hand", profile))
        if m and b:
            print(f"| {label} | {m / 1e6:.1f} MB | {b / 1e6:.1f} MB | {m / b:.1f}x |")

    parsed = {}
    for crate in CRATES:
        path = os.path.join(work, f"llvm-lines-{crate}.txt")
        if os.path.exists(path):
            total, rows = parse_llvm_lines(path)
            if total:
                parsed[crate] = (total, rows)
    if len(parsed) == 2:
        (m_lines, m_copies), m_rows = parsed["macros"]
        (b_lines, b_copies), _ = parsed["by-hand"]
        print(f"| LLVM lines (dev, `cargo llvm-lines`) | {m_lines:,} | {b_lines:,} "
              f"| {m_lines / b_lines:.1f}x |")
        print(f"| LLVM lines per call | {m_lines / calls:,.0f} | {b_lines / calls:,.0f} "
              f"| extra per call: {(m_lines - b_lines) / calls:,.0f} |")
        print(f"| monomorphized copies | {m_copies:,} | {b_copies:,} | {m_copies / b_copies:.1f}x |")

        print("\n#### Top 10 functions of the macros crate by LLVM lines\n")
        print("| lines | copies | function |")
        print("| ---: | ---: | --- |")
        for lines, copies, name in sorted(m_rows, reverse=True)[:10]:
            print(f"| {lines:,} ({100 * lines / m_lines:.1f}%) | {copies:,} | `{name}` |")

        print("\n#### Top 10 tensor_core functions of the macros crate\n")
        print("| lines | copies | function |")
        print("| ---: | ---: | --- |")
        core_rows = [r for r in m_rows if origin(r[2]) == "tensor_core"]
        for lines, copies, name in sorted(core_rows, reverse=True)[:10]:
            print(f"| {lines:,} ({100 * lines / m_lines:.1f}%) | {copies:,} | `{name}` |")

        by_crate = collections.Counter()
        for lines, _, name in m_rows:
            by_crate[origin(name)] += lines
        print("\n#### LLVM lines of the macros crate by the crate a function belongs to\n")
        print("(generic std/ndarray code is counted where it is defined, not where it is called)\n")
        print("| crate | lines | share |")
        print("| --- | ---: | ---: |")
        for name, lines in by_crate.most_common(8):
            print(f"| {name} | {lines:,} | {100 * lines / m_lines:.1f}% |")
        # tensor_core modules: tensor_core::<module>::...
        by_module = collections.Counter()
        for lines, _, name in core_rows:
            by_module[core_module(name)] += lines
        print("\n#### tensor_core modules by LLVM lines instantiated in the macros crate\n")
        print("| module | lines | share |")
        print("| --- | ---: | ---: |")
        for name, lines in by_module.most_common(10):
            print(f"| tensor_core::{name} | {lines:,} | {100 * lines / m_lines:.1f}% |")
    else:
        print("\n(no `cargo llvm-lines` figures: it was not installed or was skipped)")


if __name__ == "__main__":
    main()
