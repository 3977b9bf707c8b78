#!/usr/bin/env python3
"""Joins the per-workload JSON files of scripts/bench into one per side.

    merge_bench.py OUT.json PART.json [PART.json ...]

Each PART is either benches/peers.py's `--json` (its `workloads` are joined) or
the workloads bench's (its `records` and `fingerprints` are joined). Every
workload keeps, under `bandwidth`, the memory references measured in its
own part, beside it in time; the top level keeps the first part's.

A workload found in several parts was measured in rounds (`scripts/bench
--rounds R`). It becomes one entry: each time is the median of the rounds'
medians (of an even number, the mean of the middle two), each minimum the
least of theirs, and `rounds_ms` lists the rounds' medians in order, so a
comparison can pair the sides round by round. A peer's variant that failed
in any round is reported failed. Results must agree across rounds.
Standard library only.
"""
import json
import statistics
import sys


def grouped(items, key):
    """{key: [item, ...]} in first-seen order."""
    groups = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def combined_timing(timings, useful_bytes):
    """One timing (a bench record or a peer's run) from several rounds."""
    rounds = [t["median_ms"] for t in timings]
    median = statistics.median(rounds)
    merged = dict(timings[0], median_ms=median, min_ms=min(t["min_ms"] for t in timings), rounds_ms=rounds)
    if useful_bytes:
        merged["gbps"] = useful_bytes / median / 1e6
    return merged


def combined_references(parts_refs):
    """Each memory reference's median over the rounds."""
    by_what = grouped([b for refs in parts_refs for b in refs], lambda b: b["what"])
    return [dict(refs[0], median_ms=statistics.median(b["median_ms"] for b in refs),
                 min_ms=min(b["min_ms"] for b in refs), gbps=statistics.median(b["gbps"] for b in refs))
            for refs in by_what.values()]


def check_agreeing(values, what):
    """Stops the merge when rounds disagree on what must not change."""
    if any(v != values[0] for v in values):
        raise SystemExit(f"merge_bench.py: {what} differs between rounds: {values}")


def merged_peers(entries):
    """One peers workload from its rounds: each run (framework, variant) combined."""
    name = entries[0]["name"]
    check_agreeing([e.get("numpy_result_sum") for e in entries], f"{name}'s NumPy result")
    runs = grouped([r for e in entries for r in e["runs"]], lambda r: (r["framework"], r["variant"]))
    combined = []
    for timings in runs.values():
        failed = [t for t in timings if t.get("median_ms") is None]
        if failed:  # failed in a round: reported as failed, with no time
            combined.append(failed[0])
            continue
        run = combined_timing(timings, entries[0].get("useful_bytes"))
        run["check"] = next((t["check"] for t in timings if t.get("check") != "ok"), timings[0].get("check"))
        combined.append(run)
    return dict(entries[0], runs=combined, bandwidth=combined_references([e["bandwidth"] for e in entries]))


def merged_record(records):
    """One tensor-at workload from its rounds."""
    check_agreeing([r["checksum"] for r in records], f"{records[0]['workload']}'s checksum")
    record = combined_timing(records, records[0].get("useful_bytes"))
    record["bandwidth"] = combined_references([r["bandwidth"] for r in records])
    return record


def merge(parts):
    merged = dict(parts[0])
    if "workloads" in merged:  # benches/peers.py
        workloads = [dict(w, bandwidth=p.get("bandwidth", [])) for p in parts for w in p["workloads"]]
        merged["workloads"] = [group[0] if len(group) == 1 else merged_peers(group)
                               for group in grouped(workloads, lambda w: w["name"]).values()]
        merged["wall_s"] = sum(p.get("wall_s", 0.0) for p in parts)
    else:  # the workloads bench
        records = [dict(r, bandwidth=p.get("bandwidth", [])) for p in parts for r in p["records"]]
        merged["records"] = [group[0] if len(group) == 1 else merged_record(group)
                             for group in grouped(records, lambda r: r["workload"]).values()]
        merged["fingerprints"] = {k: v for p in parts for k, v in p.get("fingerprints", {}).items()}
    return merged


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    parts = []
    for path in argv[2:]:
        with open(path) as f:
            parts.append(json.load(f))
    with open(argv[1], "w") as f:
        json.dump(merge(parts), f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
