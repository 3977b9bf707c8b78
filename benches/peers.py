#!/usr/bin/env python3
"""The peers' side of tensor-at's performance workloads: NumPy, JAX, PyTorch
and TensorFlow on CPU, each doing the work of W1-W16 (docs/workloads.md) on
the very inputs the Rust bench (benches/workloads.rs) generates, timed the
same way, so the two sides can be set against each other as ratios taken in
one run (scripts/bench does that, then scripts/compare_bench.py).

Running it
----------
In a virtual environment holding the peers (scripts/bench builds one; NumPy
alone is enough for `--frameworks numpy`):

    python3 benches/peers.py [--only W5]... [--repeat 11] [--warmup 2]
                             [--threads N] [--frameworks numpy,jax,torch,tf]
                             [--json FILE] [--no-validate] [--device cuda]
    python3 benches/peers.py --make-torch-stubs

`--only` takes a workload (W5), one half of W3 or W11 (W3b), the pair
(W3 = W3a and W3b) or a comma list, and may be repeated; without it every
workload runs. `--threads N` holds JAX, PyTorch and TensorFlow to N
threads (NumPy always runs on one); without it PyTorch runs twice, on one
thread and on as many as the machine has, and JAX and TensorFlow take
their defaults. `--device cuda` runs JAX and PyTorch on the first GPU,
every input uploaded once before the runs and each run ending in a device
sync, against `cargo bench --features gpu --bench workloads -- --gpu` (or
`--features cuda`); NumPy still gives the reference result. Markdown
tables go to stdout, progress to stderr, everything measured to the
`--json` file.

The inputs
----------
Every value is drawn from a counter-based SplitMix64 stream, all arithmetic
on unsigned 64-bit words, wrapping:

    word i of the stream of `seed` (i = 0, 1, ..., n-1):
        z = seed + (i + 1) * 0x9E3779B97F4A7C15
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB
        z =  z ^ (z >> 31)

A workload's k-th input stream has the seed 0x5EED0000 + 16 * W + k, W the
workload's number (W3a and W3b are both 3, W11a and W11b both 11); W16's
index rows are the exception, below. Element i of an array, in C order, is
made from word i, by one of five draws:

    uniform    float32 in [0, 1):  float32(z >> 40) * 2^-24, exact
    symmetric  float32 in [-1, 1): float32(float64(z >> 40) * 2^-23 - 1.0),
               exact; half the values are negative (W8, W9)
    below(n)   int64 in [0, n), n < 2^32: ((z >> 32) * n) >> 32
    coin       bool, true with probability 1/2: the top bit of z
    distinct(k, n)  k distinct int64 of [0, n): draw the n words z_0..z_{n-1}
               as sort keys, sort 0..n-1 by (key, position) (a stable sort),
               keep the first k in that sorted order (not sorted by value)

The inputs of each workload (stream k in brackets; x is always stream 0):

    W1, W2   x uniform (4096,4096); y uniform (4096,2000) [1]
    W3a, W3b x uniform (256,256,256)
    W4       x uniform (4096,4096); row uniform (4096,) [1]
    W5       x uniform (16M,); idx below(16M) 2M of them [1]; v uniform (2M,) [2]
    W6, W13  x uniform (1M,); idx below(1M) 8M of them [1]; v uniform (8M,) [2]
    W7       x uniform (100000,128); rows distinct(20000, 100000) [1];
             upd uniform (20000,128) [2]
    W8       x symmetric (16M,)
    W9       x symmetric (16M,); vals uniform (count of x < 0,) [1]
    W10      x uniform (4096,4096); idx distinct(1000, 4096) [1];
             y uniform (1000,1000) [2]
    W11a     x uniform (100000,128); rows below(100000) 200000 of them [1]
    W11b     x uniform (100000,128); mask coin (100000,) [2]
    W12      x uniform (4096,4096); i, j below(4096) 4M each [1], [2];
             v uniform (4M,) [3]
    W14      x uniform (65536,512); idx below(512) 65536*8, shaped (65536,8) [1]
    W15      x uniform (65536,512); idx below(512) 65536*16, shaped
             (65536,16) [1]; src uniform (65536,16) [2]
    W16      x uniform (64,8192,64); v uniform (64,1024,64) [2]; idx (64,1024),
             row b = distinct(1024, 8192) of the seed of stream 1 plus 1000*b

(M = 2^20.) Each input's fingerprint goes to the JSON: shape, dtype, the
float64 sum of its values and its first four values (C order), which the
Rust bench writes too; scripts/compare_bench.py requires them to be equal.
The float64 sum of NumPy's result goes there as well, the checksum the Rust
side's result must reproduce.

The protocol
------------
For each workload: the inputs are generated (untimed) and NumPy's first
variant, run once on copies of them, gives the reference result. Then, for
each peer and each of its variants (a fresh copy of the inputs each): one
run from the pristine inputs, whose result is checked against the
reference (exactly; W6 and W15, float sums in another order, within
rtol 1e-4 / atol 1e-3; where duplicate indices leave the winner unspecified,
W5 and W12, a difference is reported as such), then `--warmup` untimed and
`--repeat` timed runs. Each timed run is the operation alone, up to its
result being ready; W8 and W9, which change what they read, get x restored
from the pristine copy before every run, outside the timing. Reported: the
median and the least of the timed runs, and the useful bytes (payload read
and written plus 8 bytes an index) over the median.

Before the workloads, the memory references of the same run: np.copyto and
libc memcpy (through ctypes) of 256 MiB, memset of 256 MiB, np.copyto of
64 MiB, and torch's copy_ of 256 MiB at each of its thread counts.

How each peer runs
------------------
NumPy: in place on its own arrays (x[idx] = v, np.add.at, np.put, np.place,
...); single-threaded.

JAX: each operation is a jitted function of x and the other inputs
(x.at[...].set/add/max, jnp.where, take_along_axis, vmap of .at[] for the
batched ones) with x donated (donate_argnums=0), so XLA may update its buffer
in place; each run replaces x by the result and blocks until it is ready.
Two variants where the indexing allows: JAX's default bounds handling and
mode="promise_in_bounds". Index arrays become int32 (JAX leaves x64 off);
boolean selections get a static size (jnp.nonzero(size=K), K counted from
the inputs when they are made). x is copied into JAX before it is donated,
so the pristine NumPy array is never handed over. With one thread,
XLA_FLAGS gets --xla_cpu_multi_thread_eigen=false; more threads are XLA's
default (every core).

PyTorch: in place on tensors made from copies of the inputs (index_put_,
index_add_, scatter_, scatter_reduce_, masked_fill_, gather, ...), with
torch.set_num_threads(N) before each variant; reported as torch-Nt.

TensorFlow: x is a tf.Variable, the other inputs constants, and each
operation a tf.function (no XLA) calling the Variable's in-place methods
(slice assign, scatter_nd_update/add/max); an update returns nothing, since
a returned read of the Variable would make the next write copy it. Slice
assignment does not broadcast, so W4 broadcasts the row first; boolean
selections go through tf.where. The thread count goes to TF's intra- and
inter-op parallelism. Index arrays that are made only once (W15's and W16's
full coordinates, W3's zeros) are built outside the timed function.

With --threads N, OMP_NUM_THREADS and MKL_NUM_THREADS are set to N (unless
already set) before JAX, PyTorch and TensorFlow load.

PyTorch without CUDA
--------------------
The torch wheel PyPI serves for linux x86_64 is a CUDA build that pulls
about 3 GB of nvidia-* wheels. scripts/bench installs it with
`pip install --no-deps torch` plus its small pure-Python dependencies, then
runs `--make-torch-stubs`: for every CUDA library torch's own libraries
need (their DT_NEEDED entries and the library names in their symbol
versions), a stub with the same soname, exporting every symbol torch takes
from it under the same version node, each function returning an error code,
is compiled with gcc into torch/lib. torch then imports, finds no CUDA device
and runs its CPU kernels. Needs gcc, nm and readelf.

The JSON
--------
    machine     {platform, cpus, processor}
    versions    {numpy, python, jax, jaxlib, torch, tensorflow}
    settings    {repeat, warmup, threads}
    seed_base, notes, wall_s
    bandwidth   [{what, median_ms, min_ms, bytes, gbps}]
    workloads   [{name, desc, restore_each_run, useful_bytes,
                  inputs: {input: {shape, dtype, sum, first}},
                  numpy_result_sum,
                  runs: [{framework, variant, median_ms, min_ms, gbps, check}
                         or {framework, variant, error}]}]
"""
import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from functools import partial
from typing import Callable, Optional

import numpy as np

M = 2**20
F32, I64 = 4, 8  # bytes of an element and of an index, in the useful-bytes counts


# ---------------------------------------------------------------------------
# The input generator
# ---------------------------------------------------------------------------

SEED_BASE = 0x5EED0000
_STEP = np.uint64(0x9E3779B97F4A7C15)
_MUL_1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL_2 = np.uint64(0x94D049BB133111EB)


def seed(workload_number, stream):
    """The seed of a workload's k-th input stream."""
    return SEED_BASE + 16 * workload_number + stream


def words(seed_value, n):
    """Words 0..n-1 of the SplitMix64 stream of `seed_value`, as uint64."""
    with np.errstate(over="ignore"):
        z = np.arange(1, n + 1, dtype=np.uint64)
        z *= _STEP
        z += np.uint64(seed_value)
        for shift, mul in ((30, _MUL_1), (27, _MUL_2)):
            z ^= z >> np.uint64(shift)
            z *= mul
        z ^= z >> np.uint64(31)
    return z


def uniform(seed_value, shape):
    top24 = words(seed_value, int(np.prod(shape))) >> np.uint64(40)
    return (top24.astype(np.float32) * np.float32(2.0**-24)).reshape(shape)


def symmetric(seed_value, shape):
    top24 = words(seed_value, int(np.prod(shape))) >> np.uint64(40)
    return (top24.astype(np.float64) * 2.0**-23 - 1.0).astype(np.float32).reshape(shape)


def below(seed_value, count, n):
    assert n < 2**32, "the draw is defined for n < 2^32 only"
    high = words(seed_value, count) >> np.uint64(32)
    with np.errstate(over="ignore"):
        return ((high * np.uint64(n)) >> np.uint64(32)).astype(np.int64)


def coins(seed_value, count):
    return (words(seed_value, count) >> np.uint64(63)) == np.uint64(1)


def distinct(seed_value, k, n):
    order = np.argsort(words(seed_value, n), kind="stable")
    return order[:k].astype(np.int64)


def fingerprint(array):
    head = array.reshape(-1)[:4]
    return {
        "shape": list(array.shape),
        "dtype": str(array.dtype),
        "sum": float(array.astype(np.float64).sum()),
        "first": [float(v) for v in head] if array.dtype.kind == "f" else [int(v) for v in head],
    }


# ---------------------------------------------------------------------------
# The workloads: inputs, useful bytes, whether x is restored before each run
# ---------------------------------------------------------------------------


@dataclass
class Workload:
    name: str
    desc: str
    make: Callable[[], dict]
    useful: Callable[[dict], int]
    restore_each_run: bool = False


WORKLOADS = {}


def workload(name, desc, useful, restore_each_run=False):
    def register(make):
        WORKLOADS[name] = Workload(name, desc, make, useful, restore_each_run)
        return make
    return register


@workload("W1", "x(4096,4096)[:, 1000:3000] = y(4096,2000)", lambda d: 2 * d["y"].nbytes)
def _():
    return {"x": uniform(seed(1, 0), (4096, 4096)), "y": uniform(seed(1, 1), (4096, 2000))}


@workload("W2", "x(4096,4096)[:, 1:4000:2] = y(4096,2000)", lambda d: 2 * d["y"].nbytes)
def _():
    return {"x": uniform(seed(2, 0), (4096, 4096)), "y": uniform(seed(2, 1), (4096, 2000))}


@workload("W3a", "x(256,256,256)[:, :, 2] = 0", lambda d: 256 * 256 * F32)
def _():
    return {"x": uniform(seed(3, 0), (256, 256, 256))}


@workload("W3b", "x(256,256,256)[10:200, :, :] = 0", lambda d: 190 * 256 * 256 * F32)
def _():
    return {"x": uniform(seed(3, 0), (256, 256, 256))}


@workload("W4", "x(4096,4096)[100:3000, :] = row(4096,)", lambda d: 2900 * 4096 * F32 + d["row"].nbytes)
def _():
    return {"x": uniform(seed(4, 0), (4096, 4096)), "row": uniform(seed(4, 1), (4096,))}


@workload("W5", "x(16M)[idx(2M, dups)] = v(2M)", lambda d: d["idx"].size * (I64 + 2 * F32))
def _():
    return {"x": uniform(seed(5, 0), (16 * M,)), "idx": below(seed(5, 1), 2 * M, 16 * M),
            "v": uniform(seed(5, 2), (2 * M,))}


def _reduce_at_inputs(number):
    return {"x": uniform(seed(number, 0), (M,)), "idx": below(seed(number, 1), 8 * M, M),
            "v": uniform(seed(number, 2), (8 * M,))}


@workload("W6", "add.at: x(1M)[idx(8M)] += v(8M), duplicates accumulate",
          lambda d: d["idx"].size * (I64 + 3 * F32))
def _():
    return _reduce_at_inputs(6)


@workload("W7", "x(100000,128)[rows(20000 unique)] = upd(20000,128)",
          lambda d: d["rows"].size * I64 + 2 * d["upd"].nbytes)
def _():
    return {"x": uniform(seed(7, 0), (100000, 128)), "rows": distinct(seed(7, 1), 20000, 100000),
            "upd": uniform(seed(7, 2), (20000, 128))}


@workload("W8", "x(16M sym.)[x < 0] = 0", lambda d: d["x"].nbytes + int((d["x"] < 0).sum()) * F32,
          restore_each_run=True)
def _():
    return {"x": symmetric(seed(8, 0), (16 * M,))}


@workload("W9", "m = x(16M) < 0; x[m] = vals(m.sum())", lambda d: d["x"].nbytes + 2 * d["vals"].nbytes,
          restore_each_run=True)
def _():
    x = symmetric(seed(9, 0), (16 * M,))
    return {"x": x, "vals": uniform(seed(9, 1), (int((x < 0).sum()),))}


@workload("W10", "x(4096,4096)[idx(1000 unique), 1:3000:3] = y(1000,1000)",
          lambda d: d["idx"].size * I64 + 2 * d["y"].nbytes)
def _():
    return {"x": uniform(seed(10, 0), (4096, 4096)), "idx": distinct(seed(10, 1), 1000, 4096),
            "y": uniform(seed(10, 2), (1000, 1000))}


@workload("W11a", "out = x(100000,128)[rows(200000)]  (gather)",
          lambda d: d["rows"].size * (I64 + 2 * 128 * F32))
def _():
    return {"x": uniform(seed(11, 0), (100000, 128)), "rows": below(seed(11, 1), 200000, 100000)}


@workload("W11b", "out = x(100000,128)[mask(100000, p=.5)]  (mask gather)",
          lambda d: d["mask"].size + 2 * int(d["mask"].sum()) * 128 * F32)
def _():
    return {"x": uniform(seed(11, 0), (100000, 128)), "mask": coins(seed(11, 2), 100000)}


@workload("W12", "x(4096,4096)[i(4M), j(4M)] = v(4M)", lambda d: d["i"].size * (2 * I64 + 2 * F32))
def _():
    return {"x": uniform(seed(12, 0), (4096, 4096)), "i": below(seed(12, 1), 4 * M, 4096),
            "j": below(seed(12, 2), 4 * M, 4096), "v": uniform(seed(12, 3), (4 * M,))}


@workload("W13", "max.at: x(1M)[idx(8M)] = max(x[idx], v(8M))", lambda d: d["idx"].size * (I64 + 3 * F32))
def _():
    return _reduce_at_inputs(13)


@workload("W14", "out = take_along_axis(x(65536,512), idx(65536,8), axis=1)  (batched gather)",
          lambda d: d["idx"].size * (I64 + 2 * F32))
def _():
    return {"x": uniform(seed(14, 0), (65536, 512)),
            "idx": below(seed(14, 1), 65536 * 8, 512).reshape(65536, 8)}


@workload("W15", "scatter_add along axis 1: x(65536,512)[b, idx(65536,16)[b]] += src(65536,16)[b], dups accumulate",
          lambda d: d["idx"].size * (I64 + 3 * F32))
def _():
    return {"x": uniform(seed(15, 0), (65536, 512)),
            "idx": below(seed(15, 1), 65536 * 16, 512).reshape(65536, 16),
            "src": uniform(seed(15, 2), (65536, 16))}


@workload("W16", "batched set (vmap of .at[].set): x(64,8192,64)[b, idx(64,1024)[b]] = v(64,1024,64)[b]",
          lambda d: d["idx"].size * I64 + 2 * d["v"].nbytes)
def _():
    rows = [distinct(seed(16, 1) + 1000 * b, 1024, 8192) for b in range(64)]
    return {"x": uniform(seed(16, 0), (64, 8192, 64)), "idx": np.stack(rows),
            "v": uniform(seed(16, 2), (64, 1024, 64))}


def select(only):
    """The workloads `--only` names, in table order: W3 is W3a and W3b."""
    wanted = [w.strip() for arg in only or [] for w in arg.split(",") if w.strip()]
    unknown = [w for w in wanted if not any(w in (n, n.rstrip("ab")) for n in WORKLOADS)]
    if unknown:
        raise SystemExit(f"no workload {', '.join(unknown)}; one of {' '.join(WORKLOADS)}")
    return [w for n, w in WORKLOADS.items() if not wanted or n in wanted or n.rstrip("ab") in wanted]


# ---------------------------------------------------------------------------
# The peers' variants, one small function each
# ---------------------------------------------------------------------------
# OPS[(family, workload)] = {variant label: op}. For NumPy, PyTorch and
# TensorFlow an op is `op(s, module)`: it does the work once on the state `s`
# (the inputs as the framework's arrays, by name), in place on s.x or by
# setting s.out. For JAX it is a pure function of x and the inputs named in
# its JaxOp. PREPARE[(family, workload)](s, module) adds, untimed, what a
# variant needs made once.

OPS = {}
PREPARE = {}


def op(family, name, label):
    def register(fn):
        OPS.setdefault((family, name), {})[label] = fn
        return fn
    return register


def prepare(family, name):
    def register(fn):
        PREPARE[(family, name)] = fn
        return fn
    return register


class State(dict):
    """The arrays of one variant, by name (s.x, s.idx, s.out)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    __setattr__ = dict.__setitem__


# --- NumPy (its first variant of each workload is the reference) ---

@op("numpy", "W1", "x[:,1000:3000]=y")
def _(s, np): s.x[:, 1000:3000] = s.y


@op("numpy", "W2", "x[:,1:4000:2]=y")
def _(s, np): s.x[:, 1:4000:2] = s.y


@op("numpy", "W3a", "x[:,:,2]=0")
def _(s, np): s.x[:, :, 2] = 0


@op("numpy", "W3b", "x[10:200]=0")
def _(s, np): s.x[10:200] = 0


@op("numpy", "W4", "x[100:3000,:]=row")
def _(s, np): s.x[100:3000] = s.row


@op("numpy", "W5", "x[idx]=v")
def _(s, np): s.x[s.idx] = s.v


@op("numpy", "W5", "put")
def _(s, np): np.put(s.x, s.idx, s.v)


@op("numpy", "W6", "np.add.at")
def _(s, np): np.add.at(s.x, s.idx, s.v)


@op("numpy", "W6", "bincount+=")
def _(s, np): s.x += np.bincount(s.idx, weights=s.v, minlength=s.x.size).astype(np.float32)


@op("numpy", "W7", "x[rows]=upd")
def _(s, np): s.x[s.rows] = s.upd


@op("numpy", "W8", "x[x<0]=0")
def _(s, np): s.x[s.x < 0] = 0


@op("numpy", "W8", "copyto(where=)")
def _(s, np): np.copyto(s.x, np.float32(0), where=s.x < 0)


@op("numpy", "W9", "x[m]=vals")
def _(s, np): s.x[s.x < 0] = s.vals


@op("numpy", "W9", "place")
def _(s, np): np.place(s.x, s.x < 0, s.vals)


@op("numpy", "W10", "x[idx,1:3000:3]=y")
def _(s, np): s.x[s.idx, 1:3000:3] = s.y


@op("numpy", "W11a", "x[rows]")
def _(s, np): s.out = s.x[s.rows]


@op("numpy", "W11a", "take")
def _(s, np): s.out = np.take(s.x, s.rows, axis=0)


@op("numpy", "W11b", "x[mask]")
def _(s, np): s.out = s.x[s.mask]


@op("numpy", "W12", "x[i,j]=v")
def _(s, np): s.x[s.i, s.j] = s.v


@op("numpy", "W13", "np.maximum.at")
def _(s, np): np.maximum.at(s.x, s.idx, s.v)


@op("numpy", "W14", "take_along_axis")
def _(s, np): s.out = np.take_along_axis(s.x, s.idx, axis=1)


@prepare("numpy", "W15")
def _(s, np): s.rows = np.arange(65536)[:, None]


@op("numpy", "W15", "np.add.at(x,(rows,idx),src)")
def _(s, np): np.add.at(s.x, (s.rows, s.idx), s.src)


@prepare("numpy", "W16")
def _(s, np): s.batch = np.arange(64)[:, None]


@op("numpy", "W16", "x[b,idx]=v")
def _(s, np): s.x[s.batch, s.idx] = s.v


# --- PyTorch ---

@op("torch", "W1", "x[:,1000:3000]=y")
def _(s, torch): s.x[:, 1000:3000] = s.y


@op("torch", "W2", "x[:,1:4000:2]=y")
def _(s, torch): s.x[:, 1:4000:2] = s.y


@op("torch", "W3a", "x[:,:,2]=0")
def _(s, torch): s.x[:, :, 2] = 0


@op("torch", "W3b", "x[10:200]=0")
def _(s, torch): s.x[10:200] = 0


@op("torch", "W4", "x[100:3000,:]=row")
def _(s, torch): s.x[100:3000] = s.row


@op("torch", "W5", "x[idx]=v")
def _(s, torch): s.x[s.idx] = s.v


@op("torch", "W5", "scatter_")
def _(s, torch): s.x.scatter_(0, s.idx, s.v)


@op("torch", "W6", "index_add_")
def _(s, torch): s.x.index_add_(0, s.idx, s.v)


@op("torch", "W6", "index_put_(acc)")
def _(s, torch): s.x.index_put_((s.idx,), s.v, accumulate=True)


@op("torch", "W6", "scatter_add_")
def _(s, torch): s.x.scatter_add_(0, s.idx, s.v)


@op("torch", "W7", "x[rows]=upd")
def _(s, torch): s.x[s.rows] = s.upd


@op("torch", "W7", "index_copy_")
def _(s, torch): s.x.index_copy_(0, s.rows, s.upd)


@op("torch", "W8", "x[x<0]=0")
def _(s, torch): s.x[s.x < 0] = 0


@op("torch", "W8", "masked_fill_")
def _(s, torch): s.x.masked_fill_(s.x < 0, 0)


@op("torch", "W9", "x[m]=vals")
def _(s, torch): s.x[s.x < 0] = s.vals


@op("torch", "W9", "masked_scatter_")
def _(s, torch): s.x.masked_scatter_(s.x < 0, s.vals)


@op("torch", "W10", "x[idx,1:3000:3]=y")
def _(s, torch): s.x[s.idx, 1:3000:3] = s.y


@op("torch", "W11a", "x[rows]")
def _(s, torch): s.out = s.x[s.rows]


@op("torch", "W11a", "index_select")
def _(s, torch): s.out = torch.index_select(s.x, 0, s.rows)


@op("torch", "W11b", "x[mask]")
def _(s, torch): s.out = s.x[s.mask]


@op("torch", "W12", "x[i,j]=v")
def _(s, torch): s.x[s.i, s.j] = s.v


@op("torch", "W13", "scatter_reduce_(amax)")
def _(s, torch): s.x.scatter_reduce_(0, s.idx, s.v, "amax")


@op("torch", "W13", "index_reduce_(amax)")
def _(s, torch): s.x.index_reduce_(0, s.idx, s.v, "amax")


@op("torch", "W14", "gather(1)")
def _(s, torch): s.out = torch.gather(s.x, 1, s.idx)


@op("torch", "W15", "scatter_add_(1)")
def _(s, torch): s.x.scatter_add_(1, s.idx, s.src)


@prepare("torch", "W16")
def _(s, torch): s.rows = s.idx[:, :, None].expand(-1, -1, 64).contiguous()  # scatter_ wants v's shape


@op("torch", "W16", "scatter_(1)")
def _(s, torch): s.x.scatter_(1, s.rows, s.v)


# --- TensorFlow (x a Variable; an update returns nothing) ---

@op("tf", "W1", "Variable in-place")
def _(s, tf): s.x[:, 1000:3000].assign(s.y)


@op("tf", "W2", "Variable in-place")
def _(s, tf): s.x[:, 1:4000:2].assign(s.y)


@prepare("tf", "W3a")
def _(s, tf): s.zeros = tf.zeros((256, 256), tf.float32)


@op("tf", "W3a", "Variable in-place")
def _(s, tf): s.x[:, :, 2].assign(s.zeros)


@prepare("tf", "W3b")
def _(s, tf): s.zeros = tf.zeros((190, 256, 256), tf.float32)


@op("tf", "W3b", "Variable in-place")
def _(s, tf): s.x[10:200].assign(s.zeros)


@op("tf", "W4", "Variable slice assign (broadcast_to first)")
def _(s, tf): s.x[100:3000, :].assign(tf.broadcast_to(s.row, (2900, 4096)))


@op("tf", "W5", "Variable in-place")
def _(s, tf): s.x.scatter_nd_update(s.idx[:, None], s.v)


@op("tf", "W6", "Variable in-place")
def _(s, tf): s.x.scatter_nd_add(s.idx[:, None], s.v)


@op("tf", "W7", "Variable in-place")
def _(s, tf): s.x.scatter_nd_update(s.rows[:, None], s.upd)


@op("tf", "W8", "Variable.assign(tf.where)")
def _(s, tf): s.x.assign(tf.where(s.x < 0, tf.zeros_like(s.x), s.x))


@op("tf", "W9", "scatter_nd_update(tf.where(m))")
def _(s, tf): s.x.scatter_nd_update(tf.where(s.x < 0), s.vals)


@prepare("tf", "W10")
def _(s, tf): s.cols = tf.range(1, 3000, 3, dtype=tf.int64)


@op("tf", "W10", "scatter_nd_update(meshgrid idx)")
def _(s, tf):
    rows, cols = tf.meshgrid(s.idx, s.cols, indexing="ij")
    s.x.scatter_nd_update(tf.stack([rows, cols], -1), s.y)


@op("tf", "W11a", "tf.gather")
def _(s, tf): return tf.gather(s.x, s.rows)


@op("tf", "W11b", "tf.boolean_mask")
def _(s, tf): return tf.boolean_mask(s.x, s.mask)


@op("tf", "W12", "Variable in-place")
def _(s, tf): s.x.scatter_nd_update(tf.stack([s.i, s.j], -1), s.v)


@op("tf", "W13", "Variable in-place")
def _(s, tf): s.x.scatter_nd_max(s.idx[:, None], s.v)


@op("tf", "W14", "tf.gather(batch_dims=1)")
def _(s, tf): return tf.gather(s.x, s.idx, batch_dims=1)


@prepare("tf", "W15")
def _(s, tf):
    rows = tf.broadcast_to(tf.range(65536, dtype=tf.int64)[:, None], (65536, 16))
    s.coords = tf.stack([rows, s.idx], -1)


@op("tf", "W15", "scatter_nd_add(stack(rows, idx))")
def _(s, tf): s.x.scatter_nd_add(s.coords, s.src)


@prepare("tf", "W16")
def _(s, tf):
    batch = tf.broadcast_to(tf.range(64, dtype=tf.int64)[:, None], (64, 1024))
    s.coords = tf.stack([batch, s.idx], -1)


@op("tf", "W16", "scatter_nd_update(stack(b, idx))")
def _(s, tf): s.x.scatter_nd_update(s.coords, s.v)


# --- JAX: pure functions, jitted per variant ---

@dataclass
class JaxOp:
    fn: Callable
    inputs: tuple = ()        # the inputs passed after x, by name
    gather: bool = False      # returns a new array (no donation) instead of the new x
    modes: Optional[dict] = None  # {label: mode}; default: both of JAX_MODES
    static: Optional[Callable[[dict], dict]] = None  # keyword constants from the NumPy inputs


JAX_MODES = {".at[] jit+donate (functional)": None, ".at[](promise_in_bounds) jit+donate": "promise_in_bounds"}
JAX_OPS = {}


def jax_op(name, *inputs, **options):
    def register(fn):
        JAX_OPS[name] = JaxOp(fn, inputs, **options)
        return fn
    return register


@jax_op("W1", "y")
def _(x, y, mode): return x.at[:, 1000:3000].set(y, mode=mode)


@jax_op("W2", "y")
def _(x, y, mode): return x.at[:, 1:4000:2].set(y, mode=mode)


@jax_op("W3a")
def _(x, mode): return x.at[:, :, 2].set(0.0, mode=mode)


@jax_op("W3b")
def _(x, mode): return x.at[10:200].set(0.0, mode=mode)


@jax_op("W4", "row")
def _(x, row, mode): return x.at[100:3000, :].set(row, mode=mode)


@jax_op("W5", "idx", "v")
def _(x, idx, v, mode): return x.at[idx].set(v, mode=mode)


@jax_op("W6", "idx", "v")
def _(x, idx, v, mode): return x.at[idx].add(v, mode=mode)


@jax_op("W7", "rows", "upd")
def _(x, rows, upd, mode): return x.at[rows].set(upd, mode=mode)


@jax_op("W8", modes={"jnp.where (functional)": None})
def _(x, mode):
    import jax.numpy as jnp
    return jnp.where(x < 0, jnp.float32(0), x)


@jax_op("W9", "vals", static=lambda d: {"count": int(d["vals"].size)})
def _(x, vals, mode, count):
    import jax.numpy as jnp
    return x.at[jnp.nonzero(x < 0, size=count)[0]].set(vals, mode=mode)


@jax_op("W10", "idx", "y")
def _(x, idx, y, mode): return x.at[idx, 1:3000:3].set(y, mode=mode)


@jax_op("W11a", "rows", gather=True,
        modes={"jit x[rows]": None, "jit x.at[rows].get(promise_in_bounds)": "promise_in_bounds"})
def _(x, rows, mode): return x.at[rows].get(mode=mode)


@jax_op("W11b", "mask", gather=True, modes={"jit x[nonzero(m, size=K)]": None},
        static=lambda d: {"count": int(d["mask"].sum())})
def _(x, mask, mode, count):
    import jax.numpy as jnp
    return x[jnp.nonzero(mask, size=count)[0]]


@jax_op("W12", "i", "j", "v")
def _(x, i, j, v, mode): return x.at[i, j].set(v, mode=mode)


@jax_op("W13", "idx", "v")
def _(x, idx, v, mode): return x.at[idx].max(v, mode=mode)


@jax_op("W14", "idx", gather=True,
        modes={"jit take_along_axis": None, "jit take_along_axis(promise_in_bounds)": "promise_in_bounds"})
def _(x, idx, mode):
    import jax.numpy as jnp
    return jnp.take_along_axis(x, idx, axis=1, mode=mode)


@jax_op("W15", "idx", "src", modes={"vmap(.at[].add) jit+donate": None,
                                    "vmap(.at[].add, promise_in_bounds) jit+donate": "promise_in_bounds"})
def _(x, idx, src, mode):
    import jax
    return jax.vmap(lambda row, i, v: row.at[i].add(v, mode=mode))(x, idx, src)


@jax_op("W16", "idx", "v", modes={"vmap(.at[].set) jit+donate": None,
                                  "vmap(.at[].set, promise_in_bounds) jit+donate": "promise_in_bounds"})
def _(x, idx, v, mode):
    import jax
    return jax.vmap(lambda block, i, u: block.at[i].set(u, mode=mode))(x, idx, v)


# ---------------------------------------------------------------------------
# The peers: how a variant's state is made, run, restored and read back
# ---------------------------------------------------------------------------


@dataclass
class Variant:
    label: str
    run: Callable[[], None]               # the timed operation, up to its result being ready
    restore: Optional[Callable[[], None]]  # x back to the pristine input
    result: Callable[[], np.ndarray]


class Peer:
    family = name = ""
    module = None

    def settle(self):
        """Called before a variant's runs."""

    def labels(self, name):
        return list(OPS.get((self.family, name), {}))

    def variant(self, name, inputs, label):
        """A fresh state of `inputs` and the run of the variant `label` on it."""
        s = self.state(inputs)
        hook = PREPARE.get((self.family, name))
        if hook:
            hook(s, self.module)
        fn = OPS[(self.family, name)][label]
        return self.wrap(label, s, inputs, partial(fn, s, self.module))


class NumpyPeer(Peer):
    family = name = "numpy"
    module = np

    def state(self, inputs):
        return State({k: v.copy() for k, v in inputs.items()})

    def wrap(self, label, s, inputs, call):
        x0 = inputs["x"]
        return Variant(label, call, lambda: np.copyto(s.x, x0), lambda: s.get("out", s.x))


class TorchPeer(Peer):
    family = "torch"

    def __init__(self, threads, device="cpu"):
        import torch
        self.module, self.threads, self.device = torch, threads, torch.device(device)
        self.name = f"torch-{threads}t" if device == "cpu" else f"torch-{device}"

    def settle(self):
        self.module.set_num_threads(self.threads)

    def state(self, inputs):
        return State({k: self.module.from_numpy(v.copy()).to(self.device) for k, v in inputs.items()})

    def wrap(self, label, s, inputs, call):
        x0 = self.module.from_numpy(inputs["x"]).to(self.device)
        return Variant(label, self.finished(call), self.finished(lambda: s.x.copy_(x0)),
                       lambda: s.get("out", s.x).cpu().numpy())

    def finished(self, call):
        """`call`, returning once its work is done: a GPU runs it
        asynchronously."""
        if self.device.type == "cpu":
            return call
        synchronize = self.module.cuda.synchronize

        def run():
            call()
            synchronize()
        return run


class TfPeer(Peer):
    family = name = "tf"

    def __init__(self, threads):
        import tensorflow as tf
        self.module = tf
        if threads is not None:
            try:
                tf.config.threading.set_intra_op_parallelism_threads(threads)
                tf.config.threading.set_inter_op_parallelism_threads(threads)
            except RuntimeError:  # TF's runtime already started in this process
                pass

    def state(self, inputs):
        tf = self.module
        s = State({k: tf.constant(v) for k, v in inputs.items() if k != "x"})
        s.x = tf.Variable(inputs["x"])
        return s

    def wrap(self, label, s, inputs, call):
        graph = self.module.function(lambda: call(), autograph=False)
        s.out = None

        def run():  # eager CPU execution returns when the work is done
            s.out = graph()
        return Variant(label, run, lambda: s.x.assign(inputs["x"]),
                       lambda: (s.x if s.out is None else s.out).numpy())


class JaxPeer(Peer):
    family = name = "jax"

    def __init__(self, threads):
        import jax
        import jax.numpy as jnp
        self.jax, self.module = jax, jnp

    def labels(self, name):
        spec = JAX_OPS.get(name)
        return [] if spec is None else list(spec.modes or JAX_MODES)

    def variant(self, name, inputs, label):
        jnp, spec = self.module, JAX_OPS[name]
        mode = (spec.modes or JAX_MODES)[label]
        constants = spec.static(inputs) if spec.static else {}
        fn = partial(spec.fn, mode=mode, **constants)
        compiled = self.jax.jit(fn) if spec.gather else self.jax.jit(fn, donate_argnums=0)
        args = [jnp.asarray(inputs[k]) for k in spec.inputs]
        x0 = inputs["x"]
        s = State(x=None, out=None)

        def restore():  # a copy: the buffer handed to XLA is never NumPy's
            s.x = jnp.asarray(x0).copy()
            s.x.block_until_ready()

        def run():
            if spec.gather:
                s.out = compiled(s.x, *args)
                s.out.block_until_ready()
            else:
                s.x = compiled(s.x, *args)
                s.x.block_until_ready()
        restore()
        return Variant(label, run, restore, lambda: np.asarray(s.x if s.out is None else s.out))


def thread_environment(threads):
    """What must be in the environment before the frameworks load."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if threads is None:
        return
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    os.environ.setdefault("MKL_NUM_THREADS", str(threads))
    if threads == 1:
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = (flags + " --xla_cpu_multi_thread_eigen=false").strip()


def open_peers(families, threads, device="cpu"):
    """The peers of `families` that load, their versions, and why others did not."""
    versions = {"numpy": np.__version__, "python": platform.python_version()}
    peers, notes = [], []
    for family in families:
        try:
            if family == "numpy":
                peers.append(NumpyPeer())
            elif family == "jax":
                peers.append(JaxPeer(threads))
                import jax
                import jaxlib
                versions.update(jax=jax.__version__, jaxlib=jaxlib.__version__)
            elif family == "torch":
                counts = [threads] if threads else sorted({1, os.cpu_count() or 1})
                if device != "cpu":  # the CPU's threads only launch the GPU's kernels
                    counts = counts[:1]
                peers += [TorchPeer(n, device) for n in counts]
                versions["torch"] = peers[-1].module.__version__
            elif family == "tf":
                peers.append(TfPeer(threads))
                versions["tensorflow"] = peers[-1].module.__version__
            else:
                notes.append(f"no framework {family!r} (numpy, jax, torch, tf)")
        except Exception as error:
            hint = " (try --make-torch-stubs)" if family == "torch" else ""
            notes.append(f"{family} unavailable: {error!r}{hint}")
    return peers, versions, notes


# ---------------------------------------------------------------------------
# Timing, references, validation
# ---------------------------------------------------------------------------


def timed(run, warmup, repeat, restore=None):
    """(median, min) seconds of `repeat` runs after `warmup` ones; `restore`
    before each run, untimed."""
    seconds = []
    for i in range(warmup + repeat):
        if restore is not None:
            restore()
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        if i >= warmup:
            seconds.append(elapsed)
    return statistics.median(seconds), min(seconds)


def memory_references(peers, warmup, repeat):
    """[(what, median s, min s, bytes moved)] of plain copies and a fill."""
    import ctypes
    big = 256 * M
    src, dst = np.ones(big // F32, np.float32), np.zeros(big // F32, np.float32)
    libc = ctypes.CDLL("libc.so.6")
    libc.memcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    libc.memcpy.restype = ctypes.c_void_p
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    libc.memset.restype = ctypes.c_void_p
    small_src, small_dst = np.ones(64 * M // F32, np.float32), np.zeros(64 * M // F32, np.float32)
    cases = [  # (what, run, bytes moved, the peer that runs it)
        ("numpy np.copyto 256 MiB (1 thread)", partial(np.copyto, dst, src), 2 * big, None),
        ("C memcpy 256 MiB via ctypes (1 thread)", partial(libc.memcpy, dst.ctypes.data, src.ctypes.data, big),
         2 * big, None),
        ("C memset 256 MiB via ctypes (1 thread, write only)", partial(libc.memset, dst.ctypes.data, 0, big),
         big, None),
        ("numpy np.copyto 64 MiB (1 thread)", partial(np.copyto, small_dst, small_src), 2 * small_src.nbytes, None),
    ]
    for peer in peers:
        if isinstance(peer, TorchPeer):
            a, b = (peer.module.from_numpy(array).to(peer.device) for array in (src, dst))
            where = f"{peer.threads} thread" if peer.device.type == "cpu" else str(peer.device)
            cases.append((f"torch copy_ 256 MiB ({where})", peer.finished(partial(b.copy_, a)), 2 * big, peer))
    found = []
    for what, run, nbytes, peer in cases:
        if peer is not None:
            peer.settle()
        found.append((what, *timed(run, warmup, repeat), nbytes))
    return found


def check(name, got, want):
    """'ok' when a result agrees with NumPy's, else what differs."""
    if got.shape != want.shape:
        return f"shape {got.shape} vs {want.shape}"
    if name in ("W6", "W15"):  # float sums in another order
        if np.allclose(got, want, rtol=1e-4, atol=1e-3):
            return "ok (~fp order)"
        return f"DIFF max {np.abs(got - want).max():.3g}"
    if np.array_equal(got, want):
        return "ok"
    note = " (dup-index winner)" if name in ("W5", "W12") else ""
    return f"differs at {int((got != want).sum())} elems{note}"


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def measure_workload(wl, peers, args):
    """One workload's JSON entry, every peer's variants measured."""
    inputs = wl.make()
    useful = int(wl.useful(inputs))
    reference_peer = NumpyPeer()
    first = reference_peer.labels(wl.name)[0]
    reference_run = reference_peer.variant(wl.name, inputs, first)
    reference_run.run()
    reference = np.asarray(reference_run.result())
    del reference_run
    entry = {"name": wl.name, "desc": wl.desc, "restore_each_run": wl.restore_each_run,
             "useful_bytes": useful, "inputs": {k: fingerprint(v) for k, v in inputs.items()},
             "numpy_result_sum": float(reference.astype(np.float64).sum()), "runs": []}
    for peer in peers:
        for label in peer.labels(wl.name):
            gc.collect()
            try:
                variant = peer.variant(wl.name, inputs, label)
                peer.settle()
                variant.restore()
                variant.run()
                verdict = "-" if args.no_validate else check(wl.name, np.asarray(variant.result()), reference)
                median, least = timed(variant.run, args.warmup, args.repeat,
                                      variant.restore if wl.restore_each_run else None)
            except Exception as error:
                entry["runs"].append({"framework": peer.name, "variant": label, "error": repr(error)[:300]})
                print(f"# {wl.name:5s} {peer.name:8s} {label:40s} ERROR {error!r:.100}", file=sys.stderr, flush=True)
                continue
            finally:
                variant = None
            entry["runs"].append({"framework": peer.name, "variant": label, "median_ms": median * 1e3,
                                  "min_ms": least * 1e3, "gbps": useful / median / 1e9, "check": verdict})
            print(f"# {wl.name:5s} {peer.name:8s} {label:40s} {median * 1e3:9.2f} ms  {verdict}",
                  file=sys.stderr, flush=True)
    if fingerprint(inputs["x"])["sum"] != entry["inputs"]["x"]["sum"]:
        print(f"# WARNING {wl.name}: a peer wrote into the pristine x", file=sys.stderr)
    return entry


def print_tables(results):
    print("\n### Memory bandwidth in this run\n")
    print("| reference | median ms | min ms | GB/s (bytes read + written / median) |")
    print("|---|---:|---:|---:|")
    for b in results["bandwidth"]:
        print(f"| {b['what']} | {b['median_ms']:.2f} | {b['min_ms']:.2f} | {b['gbps']:.1f} |")
    print("\n### The peers' variants\n")
    print("| workload | framework | variant | median ms | min ms | useful GB/s | / NumPy | check |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for entry in results["workloads"]:
        numpy_ms = next((r["median_ms"] for r in entry["runs"]
                         if r["framework"] == "numpy" and "median_ms" in r), None)
        for r in entry["runs"]:
            if "median_ms" not in r:
                print(f"| {entry['name']} | {r['framework']} | `{r['variant']}` | - | - | - | - | {r['error'][:80]} |")
                continue
            ratio = f"{r['median_ms'] / numpy_ms:.2f}x" if numpy_ms else "-"
            print(f"| {entry['name']} | {r['framework']} | `{r['variant']}` | {r['median_ms']:.2f} | "
                  f"{r['min_ms']:.2f} | {r['gbps']:.2f} | {ratio} | {r['check']} |")
    print(f"\n(wall {results['wall_s']:.0f} s; / NumPy: median over NumPy's first variant's)")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", action="append", help="a workload (W5, W3b, W3 for both halves) or a comma list; repeatable")
    p.add_argument("--repeat", type=int, default=11, help="timed runs (the median is reported)")
    p.add_argument("--warmup", type=int, default=2, help="untimed runs before them")
    p.add_argument("--threads", type=int, help="threads for every peer (default: torch on 1 and on every core)")
    p.add_argument("--frameworks", default="numpy,jax,torch,tf", help="a comma list of numpy, jax, torch, tf")
    p.add_argument("--json", help="write everything measured to this file")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="where JAX and PyTorch run (cuda: the first GPU; NumPy and TensorFlow stay on the CPU)")
    p.add_argument("--no-validate", action="store_true", help="skip the check of each result against NumPy's")
    p.add_argument("--make-torch-stubs", action="store_true",
                   help="compile stubs of torch's CUDA libraries into the installed torch/lib, then exit")
    args = p.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0 or (args.threads is not None and args.threads < 1):
        p.error("--repeat and --threads need 1 or more, --warmup 0 or more")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.make_torch_stubs:
        make_torch_stubs()
        return 0
    thread_environment(args.threads)
    os.environ.setdefault("JAX_PLATFORMS", args.device)
    selected = select(args.only)
    families = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    peers, versions, notes = open_peers(families, args.threads, args.device)
    for note in notes:
        print("#", note, file=sys.stderr)
    print(f"# peers: {', '.join(f'{k} {v}' for k, v in versions.items())}; "
          f"repeat={args.repeat} warmup={args.warmup} threads={args.threads}", file=sys.stderr)
    started = time.time()
    results = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "processor": cpu_model()},
        "versions": versions,
        "settings": {"repeat": args.repeat, "warmup": args.warmup, "threads": args.threads, "device": args.device},
        "seed_base": SEED_BASE,
        "notes": notes,
        "bandwidth": [{"what": what, "median_ms": med * 1e3, "min_ms": least * 1e3, "bytes": nbytes,
                       "gbps": nbytes / med / 1e9}
                      for what, med, least, nbytes in memory_references(peers, args.warmup, args.repeat)],
        "workloads": [],
    }
    for wl in selected:
        results["workloads"].append(measure_workload(wl, peers, args))
        gc.collect()
    results["wall_s"] = time.time() - started
    print_tables(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
        print(f"# wrote {args.json}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# CUDA stubs for a CPU-only torch
# ---------------------------------------------------------------------------

# Where torch's unversioned CUDA symbols come from, by prefix; any other
# undefined `cu[A-Z]...` symbol is the driver's (libcuda).
_STUB_BY_PREFIX = (("cusparseLt", "libcusparseLt.so.0"), ("nccl", "libnccl.so.2"),
                   ("cuFile", "libcufile.so.0"), ("nvshmem", "libnvshmem_host.so.3"))
# Symbol versions that do not name their library.
_STUB_BY_VERSION = {"NVSHMEM": "libnvshmem_host.so.3"}


def _dynamic_symbols(path):
    """(undefined, defined) dynamic symbol names of a library;
    undefined ones keep their `@VERSION`."""
    import subprocess
    listing = subprocess.run(["nm", "-D", str(path)], capture_output=True, text=True, check=False).stdout
    undefined, defined = set(), set()
    for line in listing.splitlines():
        fields = line.split()
        if fields[:1] == ["U"] and len(fields) == 2:
            undefined.add(fields[1])
        elif len(fields) == 3:
            defined.add(fields[2].split("@")[0])
    return undefined, defined


def make_torch_stubs():
    import importlib.util
    import re
    import subprocess
    import tempfile
    from pathlib import Path

    spec = importlib.util.find_spec("torch")
    if spec is None:
        raise SystemExit("torch is not installed here")
    package = Path(spec.origin).parent
    lib = package / "lib"
    objects = sorted(lib.glob("*.so")) + sorted(package.glob("_C*.so"))

    undefined, defined = set(), set()
    for path in objects:
        u, d = _dynamic_symbols(path)
        undefined |= u
        defined |= d
    # stub soname -> {version node (None: unversioned) -> symbol names}
    stubs = {}
    for symbol in undefined:
        name, _, version = symbol.partition("@")
        version = version.lstrip("@")
        if version:
            target = version if version.startswith("lib") and ".so" in version else _STUB_BY_VERSION.get(version)
            if target:
                stubs.setdefault(target, {}).setdefault(version, set()).add(name)
            continue
        if name in defined:
            continue
        target = next((so for prefix, so in _STUB_BY_PREFIX if name.startswith(prefix)), None)
        if target is None and re.match(r"cu[A-Z]", name):
            target = "libcuda.so.1"
        if target:
            stubs.setdefault(target, {}).setdefault(None, set()).add(name)
    # Libraries torch loads by name, whether or not it takes symbols from them.
    for path in objects:
        dynamic = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=False).stdout
        for so in re.findall(r"Shared library: \[(lib(?:cu|nccl|nvrtc|nvshmem)[^\]]*)\]", dynamic):
            stubs.setdefault(so, {})

    work = Path(tempfile.mkdtemp(prefix="torch-stubs-"))
    for so, nodes in sorted(stubs.items()):
        named = [v for v in nodes if v is not None]
        if None in nodes and named:  # one version script cannot mix: fold the loose names in
            nodes[named[0]] |= nodes.pop(None)
        names = sorted(set().union(*nodes.values())) if nodes else []
        lines = ['static const char stub_message[] = "CUDA is stubbed out (CPU-only torch)";']
        for name in names:
            if re.search(r"(ErrorString|ErrorName|GetString)$", name):
                lines.append(f"const char *{name}(void) {{ return stub_message; }}")
            else:  # an error status: nothing here works
                lines.append(f"long {name}(void) {{ return 100; }}")
        source = work / f"{so}.c"
        source.write_text("\n".join(lines) + "\n")
        command = ["gcc", "-shared", "-fPIC", "-O1", "-o", str(lib / so), str(source), f"-Wl,-soname,{so}"]
        if names:
            script = work / f"{so}.map"
            script.write_text("".join(
                f"{version + ' ' if version else ''}{{ global: {' '.join(n + ';' for n in sorted(symbols))} }};\n"
                for version, symbols in nodes.items()))
            command.append(f"-Wl,--version-script={script}")
        subprocess.run(command, check=True)
        print(f"stub {so}: {len(names)} symbols")
    print(f"stubs written to {lib}")


if __name__ == "__main__":
    sys.exit(main())
