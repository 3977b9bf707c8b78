#!/usr/bin/env python3
"""Joins the per-workload JSON files of scripts/bench into one per side.

    merge_bench.py OUT.json PART.json [PART.json ...]

Each PART is either anchors.py's `--json` (its `workloads` are joined) or
the workloads bench's (its `records` and `fingerprints` are joined). Every
workload keeps, under `bandwidth`, the memory references measured in its
own part, beside it in time; the top level keeps the first part's.
Standard library only.
"""
import json
import sys


def merge(parts):
    merged = dict(parts[0])
    if "workloads" in merged:  # anchors.py
        merged["workloads"] = [dict(w, bandwidth=p.get("bandwidth", [])) for p in parts for w in p["workloads"]]
        merged["wall_s"] = sum(p.get("wall_s", 0.0) for p in parts)
    else:  # the workloads bench
        merged["records"] = [dict(r, bandwidth=p.get("bandwidth", [])) for p in parts for r in p["records"]]
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
