#!/usr/bin/env python3
"""Side by side: tensor-at's workloads bench against anchors.py's peers.

    compare_bench.py ANCHORS.json TENSOR_AT.json [TENSOR_AT.json ...]

ANCHORS.json is `anchors.py --json`; each TENSOR_AT.json is `cargo bench
--bench workloads -- --threads N --json`, one per thread count. Prints one
table: median ms per column, the ratio of tensor-at on one thread to the best
peer, whether every input fingerprint equals anchors.py's (shape, dtype,
float64 sum, first values; exactly), and whether the result checksum equals
NumPy's (exactly for set workloads, relative 1e-4 for W6's add, and the same
bit for bit across thread counts). Standard library only.
"""
import json
import math
import sys

# Add workloads: NumPy's order of accumulation may differ from ours.
ADD_TOLERANCE = {"W6": 1e-4}
PEER_ORDER = ["numpy", "jax", "torch-1t", "torch-2t", "tf"]
BANDWIDTH_BOUND = ["W1", "W3b", "W4"]


def load(path):
    with open(path) as f:
        return json.load(f)


def best_runs(entry):
    """{framework: (median_ms, variant)} of the fastest variant of each framework."""
    best = {}
    for run in entry.get("runs", []):
        med = run.get("median_ms")
        if med is None:
            continue
        fw = run["framework"]
        if fw not in best or med < best[fw][0]:
            best[fw] = (med, run["variant"])
    return best


def fingerprints_match(name, expected, ours_list):
    """'yes', or what differs: anchors' inputs vs each tensor-at file's."""
    problems = []
    for ours in ours_list:
        got = ours["fingerprints"].get(name)
        if got is None:
            continue
        for key, want in expected.items():
            have = got.get(key)
            if have is None:
                problems.append(f"{key} missing")
                continue
            for field in ("shape", "dtype", "sum", "first"):
                if have[field] != want[field]:
                    problems.append(f"{key}.{field}")
        problems += [f"{key} extra" for key in got if key not in expected]
    return "yes" if not problems else "NO: " + ", ".join(sorted(set(problems)))


def checksum_match(name, numpy_sum, sums):
    """Our checksums (first: one thread) against NumPy's result sum."""
    if not sums:
        return "-"
    ours = sums[0]
    if len(set(sums)) > 1:
        return "NO: differs across thread counts " + " / ".join(repr(s) for s in sums)
    if numpy_sum is None:
        return "no NumPy sum"
    if ours == numpy_sum:
        return "exact"
    rel = abs(ours - numpy_sum) / max(abs(numpy_sum), 1e-300)
    tol = ADD_TOLERANCE.get(name)
    if tol is not None and rel <= tol:
        return f"rel {rel:.1e} (ok, <= {tol:g})"
    return f"NO: {ours!r} vs {numpy_sum!r} (rel {rel:.1e})"


def ms(value):
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    anchors = load(argv[1])
    ours_list = [load(p) for p in argv[2:]]
    thread_counts = [o["settings"]["threads"] for o in ours_list]
    ours_by = [{r["workload"]: r for r in o["records"]} for o in ours_list]

    entries = {e["name"]: e for e in anchors["workloads"]}
    names = [e["name"] for e in anchors["workloads"]]
    names += [n for o in ours_by for n in o if n not in names]
    peers_seen = {fw for e in entries.values() for fw in best_runs(e)}
    peers = [p for p in PEER_ORDER if p in peers_seen] + sorted(peers_seen - set(PEER_ORDER))

    header = ["workload"] + [f"tensor-at {t}t" for t in thread_counts] + peers
    header += ["best peer", f"ratio ({thread_counts[0]}t / best)", "fingerprints match", "checksum vs numpy_result_sum"]
    rows, variants, failures = [], [], []
    for name in names:
        entry = entries.get(name, {})
        best = best_runs(entry)
        ours = [o.get(name) for o in ours_by]
        row = [name] + [ms(r["median_ms"]) if r else "-" for r in ours]
        row += [ms(best[p][0]) if p in best else "-" for p in peers]
        if best:
            peer, (peer_ms, peer_variant) = min(best.items(), key=lambda kv: kv[1][0])
            row.append(f"{ms(peer_ms)} {peer}")
            variants.append(f"{name}: {peer} `{peer_variant}`")
        else:
            peer_ms = None
            row.append("-")
        ratio = ours[0]["median_ms"] / peer_ms if ours[0] and peer_ms else None
        row.append(f"{ratio:.2f}" if ratio is not None else "-")
        fp = fingerprints_match(name, entry["inputs"], ours_list) if entry else "no anchors entry"
        cs = checksum_match(name, entry.get("numpy_result_sum"), [r["checksum"] for r in ours if r])
        row += [fp, cs]
        rows.append(row)
        if not fp.startswith("yes") or cs.startswith("NO") or cs == "no NumPy sum":
            failures.append(name)

    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    numeric = set(range(1, len(header) - 2))

    def line(cells):
        return "| " + " | ".join(c.rjust(w) if i in numeric else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(map(str, cells), widths))) + " |"

    print(line(header))
    print("|" + "|".join(("-" * (w + 1) + ":") if i in numeric else "-" * (w + 2)
                         for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))
    print("\nmedian ms, same machine, one after the other; peers at their fastest variant:")
    for v in variants:
        print("  " + v)

    print("\nMemory bandwidth (GB/s, bytes read+written / median):")
    for b in anchors.get("bandwidth", []):
        print(f"  anchors   {b['what']}: {b['gbps']:.1f}")
    for o in ours_list:
        for b in o.get("bandwidth", []):
            print(f"  tensor-at {b['what']} [{o['settings']['threads']}t run]: {b['gbps']:.1f}")
    memcpy = next((b["gbps"] for b in anchors.get("bandwidth", []) if b["what"].startswith("C memcpy")), None)
    copies = [b for b in ours_list[0].get("bandwidth", []) if b.get("kind") == "copy"]
    shown = False
    for name in BANDWIDTH_BOUND:
        r = ours_by[0].get(name)
        if not r:
            continue
        if not shown:
            print(f"\nBasic-indexing workloads, tensor-at {thread_counts[0]}t, share of the copy bandwidth (target >= 85%):")
            shown = True
        shares = [f"{100 * r['gbps'] / b['gbps']:.0f}% of {b['what']}" for b in copies]
        if memcpy:
            shares.append(f"{100 * r['gbps'] / memcpy:.0f}% of anchors' C memcpy")
        print(f"  {name}: {r['gbps']:.2f} GB/s = " + "; ".join(shares))

    notes = {o.get("threads_note") for o in ours_list} - {None}
    if any(o["settings"].get("huge_pages") for o in ours_list):
        notes.add("tensor-at's inputs of 4 MiB or more were on transparent huge pages (--huge-pages), as NumPy's are")
    for n in notes:
        print(f"\nnote: {n}")
    if failures:
        print(f"\nMISMATCH in {', '.join(failures)}")
        return 1
    print("\nevery fingerprint and checksum matched")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
