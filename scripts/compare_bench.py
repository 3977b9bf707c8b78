#!/usr/bin/env python3
"""Side by side: tensor-at's workloads bench against the peers of
benches/peers.py (NumPy, JAX, PyTorch, TensorFlow), one table per thread
count.

    compare_bench.py --peers N=PEERS.json [--peers N=PEERS.json ...]
                     [--threads-check T1.json] TENSOR_AT.json [TENSOR_AT.json ...]

Each PEERS.json is `benches/peers.py --threads N --json`, named with its
thread count N; T1.json is `peer_threads.py --threads 1 --json` (how many
cores each peer used when told one); each TENSOR_AT.json is `cargo bench
--bench workloads -- --threads N --json` (its thread count is in the file),
or those files joined workload by workload (scripts/merge_bench.py), each
workload then with the memory references measured beside it. Prints, for
each thread count given with --peers, fewest first, the tensor-at file of
that count beside the peers: median ms per column, the best peer and our
ratio to it; then whether every input fingerprint equals the peers' (shape,
dtype, float64 sum, first values; exactly) and whether the result checksum
equals NumPy's (exactly for set workloads, relative 1e-4 for W6's add, and
the same bit for bit across thread counts). Where both sides were measured in rounds
(`scripts/bench --rounds N`), the table adds the range of the ratios taken
round by round, against the best peer's variant in each round. Standard
library only.
"""
import argparse
import json
import statistics
import sys

# Add workloads: NumPy's order of accumulation may differ from ours.
ADD_TOLERANCE = {"W6": 1e-4}
PEER_NAMES = {"numpy": "NumPy", "jax": "JAX", "torch": "PyTorch", "tf": "TensorFlow"}
# A peer told to use one thread that spends more CPU time than this per
# second of wall time used more than one core.
ONE_CORE = 1.1


def load(path):
    with open(path) as f:
        return json.load(f)


def peer_family(framework):
    """`torch-4t` -> `torch`: PyTorch runs once per thread count."""
    return framework.split("-")[0]


def peer_name(framework):
    return PEER_NAMES.get(peer_family(framework), framework)


def peer_order(frameworks):
    """NumPy, JAX, PyTorch (fewest threads first), TensorFlow, then any other."""
    families = list(PEER_NAMES)

    def key(fw):
        family = peer_family(fw)
        threads = fw[len(family) + 1:].rstrip("t")
        return (families.index(family) if family in families else len(families),
                int(threads) if threads.isdigit() else 0, fw)
    return sorted(frameworks, key=key)


def peers_arg(text):
    """`--peers N=FILE`: (N, FILE)."""
    threads, sep, path = text.partition("=")
    if not sep or not threads.isdigit() or int(threads) < 1 or not path:
        raise argparse.ArgumentTypeError(f"{text!r}: want THREADS=FILE, e.g. 1=peers-1t.json")
    return int(threads), path


def workload(name):
    """The peers' workload a row measures: `W11a/out` (a second form of
    ours, here a read into an existing array) is compared with W11a's peers."""
    return name.split("/")[0]


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


def best_run(entry):
    """The best peer's run: the variant of any framework fastest by median
    (the first in file order on a tie), or None where none was timed."""
    timed = [r for r in entry.get("runs", []) if r.get("median_ms") is not None]
    return min(timed, key=lambda r: r["median_ms"], default=None)


def round_ratios(entry, mine):
    """Our time over the best peer's run, round by round (scripts/bench
    --rounds), or None where either side has no rounds. With an odd number
    of rounds their range holds the ratio of the medians."""
    ours = (mine or {}).get("rounds_ms", [])
    best = (best_run(entry) or {}).get("rounds_ms", [])
    if len(ours) < 2 or len(best) != len(ours):
        return None
    return [t / p for t, p in zip(ours, best)]


def fingerprints_match(name, expected, ours_list):
    """'yes', or what differs: the peers' inputs vs each tensor-at file's."""
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


def table(rows, header, numeric):
    """A Markdown table, numbers right-aligned."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(c.rjust(w) if i in numeric else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(map(str, cells), widths))) + " |"

    print(line(header))
    print("|" + "|".join(("-" * (w + 1) + ":") if i in numeric else "-" * (w + 2)
                         for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))


def comparison(names, entries, ours, threads, label):
    """One thread count: our medians against each peer's best variant."""
    peers = peer_order({fw for e in entries.values() for fw in best_runs(e)})
    by_round = {name: round_ratios(entries.get(workload(name), {}), ours.get(name)) for name in names}
    rounds = any(by_round.values())
    header = ["workload", f"tensor-at {threads}t"] + peers + ["best peer", "ratio"] + (["by round"] if rounds else [])
    rows, variants, behind = [], [], []
    for name in names:
        entry = entries.get(workload(name), {})
        best, fastest = best_runs(entry), best_run(entry)
        mine = ours.get(name)
        row = [name, ms(mine["median_ms"]) if mine else "-"]
        row += [ms(best[p][0]) if p in best else "-" for p in peers]
        ratio = None
        if fastest:
            peer, peer_ms = fastest["framework"], fastest["median_ms"]
            row.append(f"{peer_name(peer)} {ms(peer_ms)}")
            variants.append(f"{name}: {peer} `{fastest['variant']}`")
            ratio = mine["median_ms"] / peer_ms if mine else None
        else:
            row.append("-")
        row.append(f"{ratio:.2f}" if ratio is not None else "-")
        if rounds:
            paired = by_round[name]
            row.append(f"{min(paired):.2f}-{max(paired):.2f}" if paired else "-")
        if ratio is not None and ratio >= 1.0:
            behind.append(name)
        rows.append(row)
    print(f"\n### {label}\n")
    table(rows, header, set(range(1, len(header))) - {header.index("best peer")})
    print("\npeers at their fastest variant:")
    for v in variants:
        print("  " + v)
    print("behind the best peer: " + (", ".join(behind) if behind else "none"))


def threads_check(path):
    """The peers that used more than one core when told one."""
    check = load(path)
    print(f"\n### Cores used when told {check['threads']} thread (CPU time / wall time of the timed runs)\n")
    over = []
    for peer, per in sorted(check["peers"].items()):
        worst = max(per.items(), key=lambda kv: kv[1]["cpu_per_wall"], default=None)
        if worst is None:
            continue
        name, record = worst
        print(f"  {peer}: at most {record['cpu_per_wall']:.2f} ({name}, `{record['variant']}`)")
        if check["threads"] == 1:
            over += [f"{peer} {w} {r['cpu_per_wall']:.2f}" for w, r in per.items() if r["cpu_per_wall"] > ONE_CORE]
    if over:
        print("  more than one core: " + "; ".join(over))


def references_of(record, whole):
    """The memory references measured beside a workload (scripts/bench runs
    them with each), else those of the whole file."""
    return record.get("bandwidth") or whole.get("bandwidth", [])


def print_references(label, measured):
    """Each reference's GB/s: one figure, or the median and range of several."""
    by_what, seen = {}, set()
    for refs in measured:
        key = json.dumps(refs, sort_keys=True)  # the workloads of one part share its references
        if key in seen:
            continue
        seen.add(key)
        for b in refs:
            by_what.setdefault(b["what"], []).append(b["gbps"])
    for what, values in by_what.items():
        values.sort()
        median = statistics.median(values)
        spread = f" ({values[0]:.1f}-{values[-1]:.1f}, {len(values)} runs)" if len(values) > 1 else ""
        print(f"  {label} {what}: {median:.1f}{spread}")


def new_array_cost(ours, records):
    """What a new output costs over an existing one, in the same run: the
    bench's new-array reference against its `memset` of the same bytes, set
    beside W11a into a new array against W11a into an existing one."""
    refs = references_of(records.get("W11a", {}), ours)
    new = next((b for b in refs if b.get("kind") == "new"), None)
    fill = next((b for b in refs if b.get("kind") == "fill" and b.get("huge_pages") and "0x3f" in b["what"]), None)
    fresh, into = records.get("W11a"), records.get("W11a/out")
    if not (new and fill and fresh and into):
        return
    written_ms = new["bytes"] / fill["gbps"] / 1e6
    print(f"\nA new array, {ours['settings']['threads']}t run: `{new['what']}` took {new['median_ms']:.2f} ms, "
          f"{new['median_ms'] - written_ms:.2f} ms more than its bytes take at `{fill['what']}`'s rate; "
          f"W11a into a new array took {fresh['median_ms'] - into['median_ms']:.2f} ms more than into an "
          "existing one (W11a/out)")


def by_threads(pairs, what):
    """{threads: item} in thread order; a thread count given twice is refused."""
    out = {}
    for threads, item in pairs:
        if threads in out:
            raise SystemExit(f"compare_bench.py: two {what} files at {threads} thread(s)")
        out[threads] = item
    return dict(sorted(out.items()))


def threads_label(n):
    return f"{n} thread" + ("s" if n != 1 else "")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--peers", action="append", type=peers_arg, required=True, metavar="THREADS=FILE",
                   help="benches/peers.py --json at that thread count; repeatable")
    p.add_argument("--threads-check", action="append", default=[])
    p.add_argument("ours", nargs="+")
    args = p.parse_args(argv[1:])
    peer_paths = by_threads(args.peers, "--peers")
    peer_files = {n: load(path) for n, path in peer_paths.items()}
    ours_files = by_threads([(o["settings"]["threads"], o) for o in map(load, args.ours)], "tensor-at")
    ours_list = list(ours_files.values())
    thread_counts = list(ours_files)
    ours_by = [{r["workload"]: r for r in o["records"]} for o in ours_list]
    ours_at = dict(zip(thread_counts, ours_by))

    # The inputs, NumPy's results and the workload order are the same in
    # every peers file: those of the fewest threads stand for all.
    base = next(iter(peer_files.values()))
    entries = {e["name"]: e for e in base["workloads"]}
    names = [e["name"] for e in base["workloads"]]
    # Our other forms of a workload (`W11a/out`) follow it.
    extra = [n for o in ours_by for n in o if n not in names]
    names = [m for n in names for m in [n] + sorted({e for e in extra if workload(e) == n})]
    names += [n for n in dict.fromkeys(extra) if n not in names]
    names = [n for n in names if any(n in o for o in ours_by)]
    print(f"machine: {base.get('machine', {}).get('processor', '?')}; peers: "
          + ", ".join(f"{k} {v}" for k, v in base.get("versions", {}).items()))
    for threads, peers in peer_files.items():
        if threads not in ours_at:
            print(f"\n### {threads_label(threads)}: no tensor-at file at {threads_label(threads)} "
                  f"(peers: {peer_paths[threads]})")
            continue
        comparison(names, {e["name"]: e for e in peers["workloads"]}, ours_at[threads], threads,
                   f"{threads_label(threads)} (peers: {peer_paths[threads]})")
    fewest = thread_counts[0]
    for threads in thread_counts[1:]:
        print(f"\ntensor-at, {threads_label(threads)} over {threads_label(fewest)}: " + ", ".join(
            f"{n} {ours_at[threads][n]['median_ms'] / ours_at[fewest][n]['median_ms']:.2f}"
            for n in names if n in ours_at[fewest] and n in ours_at[threads]))
    for path in args.threads_check:
        threads_check(path)

    print("\n### Inputs and results\n")
    failures = []
    for name in names:
        entry = entries.get(workload(name))
        ours = [o.get(name) for o in ours_by]
        fp = fingerprints_match(name, entry["inputs"], ours_list) if entry else "no peers entry"
        cs = checksum_match(workload(name), entry.get("numpy_result_sum") if entry else None,
                            [r["checksum"] for r in ours if r])
        print(f"  {name}: fingerprints {fp}; checksum {cs}")
        if not fp.startswith("yes") or cs.startswith("NO") or cs == "no NumPy sum":
            failures.append(name)

    print("\nMemory bandwidth (GB/s, bytes read+written / median; with the median and range over the"
          " workloads' own measurements where scripts/bench took one beside each):")
    for threads, peers in peer_files.items():
        print_references(f"peers     [{threads}t run]", [references_of(w, peers) for w in peers["workloads"]])
    for o in ours_list:
        print_references(f"tensor-at [{o['settings']['threads']}t run]", [references_of(r, o) for r in o["records"]])
    shown = False
    peers_beside = peer_files.get(fewest, base)  # the peers run at our fewest threads, else the first
    for name, r in ours_by[0].items():
        if not r.get("memory_bytes"):
            continue
        if not shown:
            print(f"\nMemory-bound workloads, tensor-at {fewest}t, share of the bandwidth in the same run"
                  " (the least bytes memory must move / median; the references measured beside the workload):")
            shown = True
        peer_refs = references_of({e["name"]: e for e in peers_beside["workloads"]}.get(workload(name), {}),
                                  peers_beside)
        memcpy = next((b["gbps"] for b in peer_refs if b["what"].startswith("C memcpy")), None)
        memset = next((b["gbps"] for b in peer_refs if b["what"].startswith("C memset")), None)
        references = [b for b in references_of(r, ours_list[0]) if b.get("kind") in ("copy", "fill")]
        gbps = r["memory_bytes"] / r["median_ms"] / 1e6
        shares = [f"{100 * gbps / b['gbps']:.0f}% of {b['what']}" for b in references]
        if memcpy:
            shares.append(f"{100 * gbps / memcpy:.0f}% of the peers run's C memcpy")
        if memset:
            shares.append(f"{100 * gbps / memset:.0f}% of the peers run's C memset")
        print(f"  {name}: {r['memory_bytes'] / 1e6:.0f} MB in {r['median_ms']:.3f} ms = {gbps:.2f} GB/s = " + "; ".join(shares))

    new_array_cost(ours_list[0], ours_by[0])

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
