#!/usr/bin/env python3
"""Whether each peer of anchors.py honours the thread count it is given.

    peer_threads.py --anchors ANCHORS.py --threads N [--only W11a]... [--json FILE]

Runs anchors.py's own operations (its framework classes and inputs,
imported as a module) and measures, around the timed runs only, the
process's CPU time (every thread's) against the wall time. A peer held to
one thread spends at most about as much CPU time as wall time; one that
uses more cores shows a ratio near their number. The thread settings are
anchors.py's: environment variables set before the frameworks load, then
each framework's own call (torch.set_num_threads, TF's op parallelism).
"""
import argparse
import gc
import importlib.util
import json
import os
import sys
import time

# The workloads of the one-thread comparison.
DEFAULT = ["W1", "W2", "W3a", "W3b", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "W11a", "W11b", "W12", "W13"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--anchors", required=True)
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--only", action="append", default=None)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--warmup", type=int, default=2, help="(accepted for scripts/bench; two warm-up runs)")
    p.add_argument("--frameworks", default="numpy,jax,torch,tf")
    p.add_argument("--json", default=None)
    return p.parse_args()


def load_anchors(path, threads):
    # anchors.py applies --threads to the environment when it is imported,
    # before JAX and TF load: hand it the same arguments.
    sys.argv = [path, "--threads", str(threads)]
    spec = importlib.util.spec_from_file_location("anchors_for_threads", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def frameworks(anchors, names, threads):
    out = []
    for name in names:
        try:
            if name == "numpy":
                out.append(anchors.NumpyFW(1))
            elif name == "jax":
                out.append(anchors.JaxFW(threads))
            elif name == "torch":
                out.append(anchors.TorchFW(threads))
            elif name == "tf":
                out.append(anchors.TfFW(threads))
        except Exception as error:  # a peer that is not installed
            print(f"# {name} unavailable: {error!r}", file=sys.stderr)
    return out


def measure(fw, variant, repeat, restore_each):
    """CPU seconds and wall seconds of `repeat` timed runs (restores untimed)."""
    run, restore = variant["run"], variant["restore"]
    for _ in range(2):
        if restore_each and restore is not None:
            restore()
        run()
        fw.sync()
    cpu = wall = 0.0
    for _ in range(repeat):
        if restore_each and restore is not None:
            restore()
            fw.sync()
        c0, w0 = time.process_time(), time.perf_counter()
        run()
        fw.sync()
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
    return cpu, wall


def main():
    args = parse_args()
    anchors = load_anchors(os.path.abspath(args.anchors), args.threads)
    names = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    # `--only` as anchors.py takes it (W3 is W3a and W3b), and as scripts/bench
    # passes it on (comma lists too).
    only = [o.strip() for arg in args.only or [] for o in arg.split(",") if o.strip()] or DEFAULT
    selected = [w for w in anchors.WORKLOADS if any(w[0] in (o, o + "a", o + "b") for o in only)]
    results = {"threads": args.threads, "peers": {}}
    for fw in frameworks(anchors, names, args.threads):
        per = results["peers"].setdefault(fw.name, {})
        for name, _desc, restore_each, _bytes in selected:
            d = anchors.wl_inputs(name)
            try:
                variants = fw.variants(name, d)
            except Exception as error:
                print(f"# {name} {fw.name}: {error!r}", file=sys.stderr)
                continue
            # The peer's fastest variant is the one the comparison uses;
            # here every variant is measured, and the most parallel reported.
            ratios = {}
            for vname, variant in variants.items():
                if variant.get("reset"):
                    variant["reset"]()
                gc.collect()
                cpu, wall = measure(fw, variant, args.repeat, restore_each)
                ratios[vname] = (cpu / wall if wall else 0.0, wall / args.repeat * 1e3)
            vname, (ratio, ms) = max(ratios.items(), key=lambda kv: kv[1][0])
            per[name] = {"variant": vname, "cpu_per_wall": ratio, "median_ms_approx": ms}
            print(f"# {args.threads}t {fw.name:8s} {name:5s} {vname:40s} cpu/wall {ratio:.2f}", file=sys.stderr, flush=True)
            del d
            gc.collect()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
