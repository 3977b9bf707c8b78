#!/usr/bin/env python3
"""Whether each peer of benches/peers.py honours the thread count it is given.

    peer_threads.py [--peers benches/peers.py] --threads N [--only W11a]... [--json FILE]

Runs the peers' own operations (benches/peers.py imported as a module: its
workloads, inputs and variants) and measures, around the timed runs only,
the process's CPU time (every thread's) against the wall time. A peer held
to one thread spends at most about as much CPU time as wall time; one that
uses more cores shows a ratio near their number. The thread settings are
peers.py's: environment variables set before the frameworks load, then each
framework's own call (torch.set_num_threads, TF's op parallelism). Without
--only, every workload of peers.py.
"""
import argparse
import gc
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--peers", default=os.path.join(HERE, "..", "benches", "peers.py"))
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--only", action="append", default=None)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--frameworks", default="numpy,jax,torch,tf")
    p.add_argument("--no-validate", action="store_true", help="(accepted for scripts/bench; nothing is validated here)")
    p.add_argument("--json", default=None)
    return p.parse_args()


def load_peers(path):
    spec = importlib.util.spec_from_file_location("peers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(peer, variant, warmup, repeat, restore_each):
    """CPU seconds and wall seconds of `repeat` timed runs (restores untimed)."""
    peer.settle()
    for _ in range(warmup):
        if restore_each:
            variant.restore()
        variant.run()
    cpu = wall = 0.0
    for _ in range(repeat):
        if restore_each:
            variant.restore()
        c0, w0 = time.process_time(), time.perf_counter()
        variant.run()
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
    return cpu, wall


def main():
    args = parse_args()
    peers = load_peers(os.path.abspath(args.peers))
    # Before any framework loads: it reads some of these only then.
    peers.thread_environment(args.threads)
    families = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    opened, _versions, notes = peers.open_peers(families, args.threads)
    for note in notes:
        print(f"# {note}", file=sys.stderr)
    selected = peers.select(args.only)  # as peers.py takes --only: W3 is W3a and W3b, comma lists too
    results = {"threads": args.threads, "peers": {}}
    for peer in opened:
        per = results["peers"].setdefault(peer.name, {})
        for wl in selected:
            inputs = wl.make()
            # The peer's fastest variant is the one the comparison uses;
            # here every variant is measured, and the most parallel reported.
            ratios = {}
            for label in peer.labels(wl.name):
                gc.collect()
                try:
                    variant = peer.variant(wl.name, inputs, label)
                    cpu, wall = measure(peer, variant, args.warmup, args.repeat, wl.restore_each_run)
                except Exception as error:
                    print(f"# {wl.name} {peer.name} {label}: {error!r}", file=sys.stderr)
                    continue
                finally:
                    variant = None
                ratios[label] = (cpu / wall if wall else 0.0, wall / args.repeat * 1e3)
            if not ratios:
                continue
            label, (ratio, ms) = max(ratios.items(), key=lambda kv: kv[1][0])
            per[wl.name] = {"variant": label, "cpu_per_wall": ratio, "median_ms_approx": ms}
            print(f"# {args.threads}t {peer.name:8s} {wl.name:5s} {label:40s} cpu/wall {ratio:.2f}",
                  file=sys.stderr, flush=True)
            del inputs
            gc.collect()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
