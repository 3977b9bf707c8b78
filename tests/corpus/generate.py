#!/usr/bin/env python3
"""NumPy-differential corpus for tensor-at (run by tests/suite/corpus.rs).

Usage: python tests/corpus/generate.py [OUT_PATH]
OUT_PATH defaults to tests/corpus/cases.json, which is committed, so that a
plain `cargo test` runs the corpus with nothing but Rust. The output is
deterministic for a given NumPy (its version is recorded), whatever vector
instructions the processor has (see `rtol` below): scripts/test regenerates
it with the NumPy it pins and fails if it differs from the committed file.

The output is {"numpy": VERSION, "seed": SEED, "cases": [CASE, ...]}. A CASE:

  id      running number           family  what it exercises ("pyslice", ...)
  desc    the expression, Python-like: "x[1:-1, i64[0, 2]].add(v[2, 2])  (f64 (4, 5))"
  base    ARRAY: the base array
  view    steps turning the base into the target, in order (empty: the base):
            {"slice": axis, "start": s, "end": e|null, "step": k}  ndarray slice_axis
            {"invert": axis}                                         ndarray invert_axis
            {"permute": [axes]}                                      ndarray permuted_axes
  index   list of elements:
            {"int": i}                     {"ellipsis": true}   {"newaxis": true}
            {"slice": [start, stop, step]} NumPy slice, null for a missing part
            {"range": [start, end, step]}  ndarray range start..end;step (end may be null)
            {"array": ARRAY}               integer array, dtype usize|isize|i32|i64|u32|u64
            {"mask": ARRAY}                boolean array, dtype bool
            {"nd": ARRAY}                  gather_nd index: last axis holds the coordinates
            {"along": {"index": ARRAY, "axis": k}}  along(idx, k): take_along_axis
            {"ix": [ARRAY, ...]}           ix_(a, b, ..): NumPy's np.ix_ open mesh, one
                                           integer or bool ARRAY per argument (one per
                                           axis it consumes); its arrays are spliced
                                           into the index, as x[(i,) + np.ix_(a, b)]
  op      get | set | add | sub | mul | div | pow | min | max | rem | and |
          or | xor | apply
  func    apply only: square | negate | double
  value   set and accumulating ops: {"scalar": v} or ARRAY of the base's dtype
  mode    "error" | "clip" | "wrap" | "drop" | {"fill": v}
  batch   `; batch = k` (absent: 0): the leading k axes of the base, of each
          index array and mask, and of an array value pair up; the answer is
          the loop over the batch positions b of the case on base[b] with
          index[b] and value[b] (each answered by NumPy), reads stacked
  expect  {"array": ARRAY}   get: the read result; updates: the whole BASE after
                             the update (checks writes through the view and that
                             everything outside it is unchanged)
          {"error": NAME}    the tensor-core IndexError variant
  rtol    pow only: relative tolerance; everything else compares exactly.
          A float pow's array is the model's (the C library's scalar `pow`,
          in double precision and rounded once for float32 and float16;
          within rtol of NumPy's, which is checked): NumPy's own loops,
          scalars' included, differ in their last bits between processors

A case of one of NumPy's functions beside indexing has "numpy" instead of
"index" and "op"; its array is the base seen through "view":

  numpy   "nonzero"   np.nonzero(x): expect {"arrays": [ARRAY, ...]}, one usize
                      array per axis (np.nonzero refuses a 0-d x: no such case)
          "argwhere"  np.argwhere(x): expect {"array": ARRAY} of usize, (count, ndim)
          "take"      np.take(x, indices, mode=M): expect {"array": ARRAY}, the read
          "put"       np.put(x, indices, values, mode=M): expect the whole BASE after
          "place"     np.place(x, mask, values): expect the whole BASE after
  indices take, put: ARRAY of an index dtype (any rank)
  mode    take, put: "error" (NumPy's raise) | "clip" | "wrap"; put also "drop"
  mask    place: ARRAY of bool, of any shape
  values  put, place: ARRAY of the base's dtype, read in C order, cycled
  expect  as above, or {"error": NAME}

Their base may also be of dtype bool (nonzero, argwhere).

ARRAY is {"dtype": D, "shape": [...], "data": [flat, C order]}, D one of
float64 float32 float16 complex128 complex64 int64 int32 bool usize isize
i32 i64 u32 u64 i8 u8 i16 u16. A float is a JSON number, or a string:
"inf", "-inf", "nan", or its shortest decimal when that has more than 15
significant digits (so that no JSON reader's rounding can change it;
float32 values are written as the float64 of the same value). A complex
number is the pair [real, imag] of such floats.

How answers are made. Every result and every error comes from NumPy itself:
reads are `x[idx]`, `set` is `x[idx] = v`, the other ops are the unbuffered
`np.<ufunc>.at(x, idx, v)` (apply: `np.square.at` etc.), each given the
value with its leading length-1 axes dropped (SPEC §4). Index kinds NumPy
lacks are translated first: an ndarray range becomes the NumPy slice of the
same positions, `nd(idx)` becomes the adjacent arrays idx[..., 0],
idx[..., 1], ..., `along(idx, axis)` becomes NumPy's own
`take_along_axis` index (idx on the axis, an `arange` of every other axis
shaped to broadcast against it), so `ufunc.at` runs on the broadcast grid;
modes clip and wrap rewrite the out-of-bounds integers;
modes drop and fill run NumPy on a copy of the target padded by one slot
per axis, every out-of-bounds integer redirected to that slot (which holds
the fill value for reads, and soaks up dropped updates). Errors are the
variant named by NumPy's message (ERRORS below); only the errors NumPy has
no counterpart for (RangeOutOfBounds, UnsupportedMode, OutOfBounds of
clip/wrap on an empty axis, integer DivisionByZero) are decided here by
tensor-core's documented rules. `ix_` runs NumPy's own np.ix_ (its error
first, before any indexing; in the modes, each argument is rewritten on
its own axis after np.ix_ turns a boolean one into its true positions).
The functions beside indexing are NumPy's calls on the view (np.put gets
its indices as int64, which it takes where it refuses uint64; every index
drawn fits), but put's mode "drop", which NumPy lacks: decided by
tensor-at's rule, NumPy puts the indices in [-n, n) each with the value it
would have had (none when there are no values or no elements). Every successful answer is cross-checked
against an element-by-element interpreter (the positions each index selects,
then one update per position in index order; for the functions beside
indexing, the flat positions of take's and put's modes, place's true
positions, the coordinates of the non-zero elements).
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

SEED = 20240611
RNG = np.random.default_rng(SEED)

DTYPES = ["float64", "float32", "int64", "int32"]
SHORT = {"float64": "f64", "float32": "f32", "float16": "f16", "int64": "i64", "int32": "i32", "complex128": "c128", "complex64": "c64"}
# Rust index element type -> the NumPy dtype of the same values.
IDX_DTYPES = {
    "usize": np.uint64,
    "isize": np.int64,
    "i32": np.int32,
    "i64": np.int64,
    "u32": np.uint32,
    "u64": np.uint64,
}
# The narrow index types, widened to i32 by tensor-at: a family of their own,
# generated last so that the cases above keep their ids and values.
NARROW_IDX = {"i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16}
SIGNED_IDX = ["isize", "i32", "i64"]
UNSIGNED_IDX = ["usize", "u32", "u64"]
UPDATE_OPS = ["add", "sub", "mul", "div", "pow", "min", "max"]
UFUNCS = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "pow": np.power,
    "min": np.minimum,
    "max": np.maximum,
    "rem": np.remainder,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
APPLY_FUNCS = ["square", "negate", "double"]

# NumPy's exception message -> tensor-core IndexError variant; first match wins.
ERRORS = [
    ("is out of bounds for axis", "OutOfBounds"),
    ("too many indices", "TooManyIndices"),
    ("single ellipsis", "MultipleEllipsis"),
    ("slice step cannot be zero", "ZeroStep"),
    ("boolean index did not match", "MaskShape"),
    ("indexing arrays could not be broadcast", "IndexBroadcast"),
    ("boolean array indexing assignment cannot assign", "ValueCount"),
    ("could not broadcast input array", "ShapeMismatch"),
    ("value array of shape", "ShapeMismatch"),
    ("not broadcastable", "ShapeMismatch"),
    # `x[mask] = v` with v of rank >= 2 after leading ones are dropped: the
    # value cannot broadcast to the (count,) region.
    ("requires a 0 or 1-dimensional input", "ShapeMismatch"),
    ("Integers to negative integer powers", "NegativeIntegerPower"),
    # np.ix_, np.take, np.put, np.place
    ("Cross index must be 1 dimensional", "CrossIndexRank"),
    ("cannot do a non-empty take from an empty axes", "TakeFromEmpty"),
    ("cannot replace elements of an empty array", "PutIntoEmpty"),
    ("place: mask and data must be the same size", "MaskSize"),
    ("Cannot insert from an empty array", "EmptyValues"),
]


def error_variant(exc: Exception) -> str:
    message = str(exc)
    for needle, variant in ERRORS:
        if needle in message:
            return variant
    raise RuntimeError(f"unmapped NumPy error {type(exc).__name__}: {message}")


class Decided(Exception):
    """An error NumPy cannot raise, decided by tensor-core's documented rule."""

    def __init__(self, variant: str):
        super().__init__(variant)
        self.variant = variant


# ---------------------------------------------------------------------------
# Index elements


@dataclass(frozen=True)
class Int:
    v: int


@dataclass(frozen=True)
class Sl:
    start: int | None = None
    stop: int | None = None
    step: int | None = None


@dataclass(frozen=True)
class Rg:
    start: int = 0
    end: int | None = None
    step: int = 1


class _Ell:
    def __repr__(self) -> str:
        return "..."


class _New:
    def __repr__(self) -> str:
        return "None"


ELL = _Ell()
NEW = _New()
ALL = Sl()


@dataclass
class Arr:
    a: np.ndarray
    dt: str = "i64"


@dataclass
class Mask:
    m: np.ndarray


@dataclass
class Nd:
    a: np.ndarray
    dt: str = "i64"


@dataclass
class Along:
    a: np.ndarray
    axis: int
    dt: str = "i64"


@dataclass
class Mesh:
    """`ix_(a, b, ..)`: each argument an integer array (dtype dt) or a
    boolean one (dt "bool"), one-dimensional unless the case is NumPy's
    error."""

    args: list  # of (np.ndarray, dt)


def mesh(*args: Any) -> Mesh:
    """A mesh of integer lists (i64), boolean lists, or (values, dt) pairs."""
    out = []
    for a in args:
        if isinstance(a, tuple):
            values, dt = a
            out.append((np.array(values, dtype=bool if dt == "bool" else IDX_DTYPES[dt]), dt))
        elif len(a) and all(isinstance(v, bool) for v in a):
            out.append((np.array(a, dtype=bool), "bool"))
        else:
            out.append((np.array(a, dtype=np.int64), "i64"))
    return Mesh(out)


def arr(values: Any, dt: str = "i64") -> Arr:
    return Arr(np.array(values, dtype=IDX_DTYPES[dt]), dt)


def mask(values: Any) -> Mask:
    return Mask(np.array(values, dtype=bool))


def nd(values: Any, dt: str = "i64") -> Nd:
    return Nd(np.array(values, dtype=IDX_DTYPES[dt]), dt)


def n_axes(e: Any) -> int:
    if isinstance(e, (Int, Sl, Rg, Arr)):
        return 1
    if isinstance(e, Mask):
        return e.m.ndim
    if isinstance(e, Nd):
        return e.a.shape[-1]
    if isinstance(e, Along):
        return e.a.ndim
    if isinstance(e, Mesh):
        return len(e.args)
    return 0


def placements(index: list, ndim: int) -> list[int]:
    """The first target axis of each element (`...` covers what is left)."""
    total = sum(n_axes(e) for e in index)
    out, axis, seen = [], 0, False
    for e in index:
        out.append(axis)
        if e is ELL and not seen:
            axis += max(ndim - total, 0)
            seen = True
        else:
            axis += n_axes(e)
    return out


def show_elem(e: Any) -> str:
    if isinstance(e, Int):
        return str(e.v)
    if isinstance(e, Sl):
        part = lambda p: "" if p is None else str(p)  # noqa: E731
        s = f"{part(e.start)}:{part(e.stop)}"
        return s if e.step is None else f"{s}:{e.step}"
    if isinstance(e, Rg):
        s = f"{e.start}..{'' if e.end is None else e.end}"
        return s if e.step == 1 else f"{s};{e.step}"
    if isinstance(e, (Arr, Nd)):
        a = e.a
        body = e.dt + ((f"({a.item()})" if a.ndim == 0 else str(a.tolist())) if a.size <= 8 else f"<{list(a.shape)}>")
        return f"nd({body})" if isinstance(e, Nd) else body
    if isinstance(e, Mask):
        return f"mask{list(e.m.shape)}:{int(e.m.sum())}"
    if isinstance(e, Along):
        body = e.dt + (str(e.a.tolist()) if e.a.size <= 8 else f"<{list(e.a.shape)}>")
        return f"along({body}, {e.axis})"
    if isinstance(e, Mesh):
        show = lambda a, dt: dt + ((f"({a.item()})" if a.ndim == 0 else str(a.tolist())) if a.size <= 8 else f"<{list(a.shape)}>")  # noqa: E731
        return "ix_(" + ", ".join(show(a, dt) for a, dt in e.args) + ")"
    return repr(e)


# ---------------------------------------------------------------------------
# Translation of an index to NumPy, per mode


def mode_name(mode: Any) -> str:
    return mode if isinstance(mode, str) else "fill"


def positions_slice(r: range) -> slice:
    """The NumPy slice that selects exactly the positions of `r`."""
    if len(r) == 0:
        return slice(0, 0, 1)
    stop = r[-1] + r.step
    return slice(r[0], None if stop < 0 else stop, r.step)


def range_positions(e: Rg, n: int) -> range:
    """tensor-core RangeSlice: take start..end (negative counts from the end,
    empty when end < start, RangeOutOfBounds outside the axis), then every
    step-th element, from the back when step < 0 (ndarray `s![]`)."""
    s = e.start + n if e.start < 0 else e.start
    end = n if e.end is None else (e.end + n if e.end < 0 else e.end)
    end = max(end, s)
    if not 0 <= s <= n or end > n:
        raise Decided("RangeOutOfBounds")
    return range(s, end)[:: e.step]


def fix_int(v: int, n: int, mode: str) -> int:
    """An integer index under a mode; in skip modes (drop, fill) the
    out-of-bounds ones go to the pad slot `n` of the padded target."""
    if -n <= v < n:
        return v % n if mode in ("drop", "fill") else v
    if mode == "error":
        return v
    if mode in ("clip", "wrap") and n == 0:
        raise Decided("OutOfBounds")  # an empty axis has nowhere to clamp to
    if mode == "clip":
        return 0 if v < 0 else n - 1
    if mode == "wrap":
        return v % n
    return n


def fix_array(a: np.ndarray, n: int | None, mode: str) -> np.ndarray:
    if mode == "error" or n is None:
        return a
    fixed = [fix_int(int(v), n, mode) for v in a.ravel()]
    return np.array(fixed, dtype=np.int64).reshape(a.shape)


def along_to_numpy(index: list, shape: tuple, mode: str) -> tuple:
    """`along(idx, axis)` as `take_along_axis` builds it, its errors in
    NumPy's order (the axis, the rank, the broadcast; `take_along_axis`
    names them differently) and alone in its index (tensor-core's rule)."""
    if len(index) > 1:
        raise Decided("AlongNotAlone")
    e = index[0]
    ndim = len(shape)
    if not -ndim <= e.axis < ndim:
        raise Decided("AxisOutOfRange")
    if e.a.ndim != ndim:
        raise Decided("AlongRank")
    axis = e.axis % ndim
    out = []
    for d in range(ndim):
        if d == axis:
            out.append(fix_array(e.a, shape[d], mode))
        else:
            out.append(np.arange(shape[d]).reshape([shape[d] if k == d else 1 for k in range(ndim)]))
    try:
        np.broadcast_shapes(*[a.shape for a in out])
    except ValueError:
        raise Decided("AlongShape") from None
    return tuple(out)


def to_numpy(index: list, shape: tuple, mode: str) -> tuple:
    if any(isinstance(e, Along) for e in index):
        return along_to_numpy(index, shape, mode)
    skip = mode in ("drop", "fill")
    out: list = []
    for e, axis in zip(index, placements(index, len(shape))):
        n = shape[axis] if axis < len(shape) else None
        if isinstance(e, Int):
            out.append(e.v if n is None else fix_int(e.v, n, mode))
        elif isinstance(e, Sl):
            if skip and n is not None and e.step != 0:
                out.append(positions_slice(range(*slice(e.start, e.stop, e.step).indices(n))))
            else:
                out.append(slice(e.start, e.stop, e.step))
        elif isinstance(e, Rg):
            if e.step == 0:
                out.append(slice(None, None, 0))  # NumPy raises ZeroStep
            elif n is None:
                out.append(slice(None))  # NumPy raises TooManyIndices
            else:
                out.append(positions_slice(range_positions(e, n)))
        elif e is ELL and skip and n_axes_left(index, shape) > 0 and sum(f is ELL for f in index) == 1:
            # Explicit slices: on the padded target `...` would take the pad.
            out.extend(slice(0, shape[a]) for a in range(axis, axis + n_axes_left(index, shape)))
        elif e is ELL:
            out.append(Ellipsis)
        elif e is NEW:
            out.append(None)
        elif isinstance(e, Arr):
            out.append(fix_array(e.a, n, mode))
        elif isinstance(e, Mask):
            out.append(np.pad(e.m, [(0, 1)] * e.m.ndim) if skip else e.m)
        elif isinstance(e, Nd):
            for k in range(e.a.shape[-1]):
                nk = shape[axis + k] if axis + k < len(shape) else None
                out.append(fix_array(e.a[..., k], nk, mode))
        elif isinstance(e, Mesh):
            # NumPy's own np.ix_ first: its error comes before any indexing.
            try:
                np.ix_(*[a for a, _ in e.args])
            except ValueError as exc:
                raise Decided(error_variant(exc)) from None
            # np.ix_ turns a boolean argument into its true positions; the
            # modes then rewrite each argument on its own axis.
            ints = [np.nonzero(a)[0] if dt == "bool" else a for a, dt in e.args]
            out.extend(np.ix_(*[fix_array(a, shape[axis + k] if axis + k < len(shape) else None, mode) for k, a in enumerate(ints)]))
        else:
            raise TypeError(e)
    if skip:  # the implicit trailing `:`s, explicit for the same reason
        consumed = sum(n_axes(e) for e in index) + (n_axes_left(index, shape) if any(e is ELL for e in index) else 0)
        out.extend(slice(0, n) for n in shape[consumed:])
    return tuple(out)


def n_axes_left(index: list, shape: tuple) -> int:
    """How many axes `...` covers."""
    return max(len(shape) - sum(n_axes(e) for e in index), 0)


# ---------------------------------------------------------------------------
# Views


def apply_view(a: np.ndarray, steps: list) -> np.ndarray:
    for st in steps:
        if "slice" in st:
            axis, n = st["slice"], a.shape[st["slice"]]
            r = range_positions(Rg(st["start"], st["end"], st["step"]), n)
            a = a[(slice(None),) * axis + (positions_slice(r),)]
        elif "invert" in st:
            a = np.flip(a, st["invert"])
        else:
            a = a.transpose(st["permute"])
    return a


def padded(v: np.ndarray, pad_value: Any) -> np.ndarray:
    out = np.full([n + 1 for n in v.shape], pad_value, dtype=v.dtype)
    out[tuple(slice(0, n) for n in v.shape)] = v
    return out


def inner(v: np.ndarray) -> tuple:
    return tuple(slice(0, n - 1) for n in v.shape)


# ---------------------------------------------------------------------------
# Values


def elems(shape: tuple, dtype: str, op: str) -> np.ndarray:
    """Values that keep every result exact (small integers, quarters); of
    complex sums and quotients, values that round, so that the order of the
    formula's operations shows. (Complex products stay exact: NumPy fuses
    their multiply-adds where the machine can, in some loops and not in
    others, so that its own rounding varies.)"""
    if dtype.startswith("complex") and op in ("add", "sub", "div"):
        return np.asarray(RNG.normal(size=shape) + 1j * RNG.normal(size=shape)).astype(dtype)
    if dtype.startswith("complex") and op == "mul":
        return base_data(shape, dtype)
    flt = dtype.startswith("float")
    if op == "mul":
        pool = [-2, -1, -0.5, 0.5, 1, 2] if flt else [-2, -1, 1, 2, 3]
    elif op == "div":
        pool = [-2, -0.5, 0.25, 0.5, 1, 2, 4]
    elif op == "pow":
        pool = [0.5, 1, 2, 3, -1] if flt else [0, 1, 2, 3]
    elif op == "rem":
        pool = [-3, -2, -0.5, 0.5, 2, 3] if flt else [-3, -2, -1, 1, 2, 3]
    else:
        return base_data(shape, dtype)
    return np.array(RNG.choice(pool, size=shape)).astype(dtype)


def base_data(shape: tuple, dtype: str, positive: bool = False) -> np.ndarray:
    if dtype.startswith("complex"):
        part = lambda: RNG.integers(-16, 17, size=shape) * 0.25  # noqa: E731
        return np.asarray(part() + 1j * part()).astype(dtype)
    if dtype.startswith("float"):
        low = 1 if positive else -16
        return np.asarray(RNG.integers(low, 17, size=shape) * 0.25).astype(dtype)
    return np.asarray(RNG.integers(-3 if positive else -9, 4 if positive else 10, size=shape)).astype(dtype)


def bcast_shape(region: tuple) -> tuple:
    """A shape that broadcasts to `region`: a suffix with some dims set to 1."""
    keep = int(RNG.integers(0, len(region) + 1))
    shape = list(region[len(region) - keep :])
    for i in range(len(shape)):
        if RNG.random() < 0.4:
            shape[i] = 1
    return tuple(shape)


def wrong_shape(region: tuple) -> tuple:
    if not region:
        return (2,)
    return region[:-1] + (2 if region[-1] in (0, 1) else region[-1] + 1,)


def make_value(kind: Any, region: tuple, dtype: str, op: str) -> Any:
    """A value of the given kind for a region; kind may also be a concrete
    value (a number or an array), a shape, or a callable of the region."""
    if callable(kind):
        kind = kind(region)
    if isinstance(kind, np.ndarray):
        return kind.astype(dtype)
    if isinstance(kind, tuple):
        return elems(kind, dtype, op)
    if isinstance(kind, (int, float, complex)):
        return kind
    if kind == "scalar":
        return elems((), dtype, op).item()
    if kind == "full":
        return elems(region, dtype, op)
    if kind == "bcast":
        return elems(bcast_shape(region), dtype, op)
    if kind == "leadbcast":
        return elems((1,) + bcast_shape(region), dtype, op)
    if kind.startswith("lead"):  # "lead2": two extra leading length-1 axes
        return elems((1,) * int(kind[4:] or 1) + region, dtype, op)
    if kind == "wrong":
        return elems(wrong_shape(region), dtype, op)
    if kind == "wrongcount":
        return elems((int(np.prod(region)) + 1,), dtype, op)
    raise ValueError(kind)


def drop_leading_ones(v: Any, ndim: int) -> Any:
    # SPEC §4: leading length-1 axes of a value are dropped first. NumPy's
    # setitem does so on its general path, but `x[mask] = v` rejects every
    # 2-D v and ufunc.at drops none, so they are dropped here before NumPy
    # sees the value.
    if isinstance(v, np.ndarray):
        while v.ndim > ndim and v.shape[0] == 1:
            v = v[0]
    return v


# ---------------------------------------------------------------------------
# Evaluation: NumPy's answer, cross-checked by an element-wise interpreter


def native(op: str, func: str | None, t: np.ndarray, idx: tuple, v: Any) -> Any:
    """Runs the operation with NumPy on `t` (in place); returns a read's result."""
    if op == "get":
        return np.array(t[idx])
    if op == "set":
        t[idx] = v
    elif op == "apply":
        if func == "square":
            np.square.at(t, idx)
        elif func == "negate":
            np.negative.at(t, idx)
        else:
            np.multiply.at(t, idx, 2)
    elif op == "div" and t.dtype.kind == "i":
        # Only reached by the DivisionByZero cases, to let NumPy check the
        # index and the value; NumPy's `divide` of integers makes floats.
        np.floor_divide.at(t, idx, v)
    else:
        UFUNCS[op].at(t, idx, v)
    return None


def interpret(op: str, func: str | None, base: np.ndarray, sel: np.ndarray, v: Any, fill: Any) -> np.ndarray:
    """The obviously-correct model: `sel` holds, for each position of the
    region in C order, the flat base position it selects (-1: out of bounds
    in a skip mode)."""
    flat = base.reshape(-1)
    if op == "get":
        return np.array([fill if p < 0 else flat[p] for p in sel.ravel()], dtype=base.dtype).reshape(sel.shape)
    out = flat.copy()
    values = np.broadcast_to(np.asarray(v, dtype=base.dtype), sel.shape).ravel() if op != "apply" else None
    for k, p in enumerate(sel.ravel()):
        if p < 0:
            continue
        x = out[p]
        if op == "set":
            out[p] = values[k]
        elif op == "apply":
            out[p] = {"square": np.square, "negate": np.negative, "double": lambda e: e * base.dtype.type(2)}[func](x)
        elif op == "pow" and base.dtype.kind == "f" and base.dtype.itemsize < 8:
            out[p] = narrow_pow(x, values[k], base.dtype)
        elif base.dtype.kind == "c":
            # NumPy's scalar complex64 division rounds otherwise than its
            # arrays' loop, which ufunc.at runs: the model runs that loop.
            out[p] = UFUNCS[op](out[p : p + 1], values[k : k + 1])[0]
        else:
            out[p] = UFUNCS[op](x, values[k])
    return out.reshape(base.shape)


def narrow_pow(x: Any, y: Any, dtype: np.dtype) -> Any:
    """`x ** y` for float32 and float16 as the C library's double `pow`
    rounded once to `dtype`. NumPy's own `power` on these types, scalars
    included, runs the loop the processor's vector instructions pick
    (SVML's with AVX-512 on Intel's processors), whose last bits differ
    between machines."""
    try:
        r = math.pow(float(x), float(y))
    except OverflowError:
        r = math.inf
    except ValueError:
        # C's pow gives inf for 0 to a negative power, NaN for a negative
        # base to a fractional one; Python raises for both.
        r = math.inf if float(x) == 0.0 else math.nan
    with np.errstate(over="ignore"):
        return dtype.type(r)


@dataclass
class Spec:
    family: str
    base: np.ndarray
    index: list
    op: str = "get"
    value: Any = None
    mode: Any = "error"
    view: list = field(default_factory=list)
    func: str | None = None


def early_value(spec: Spec) -> Any:
    """The value of a case that fails before its region is known."""
    if spec.value is None:
        return None
    kind = "scalar" if isinstance(spec.value, str) or callable(spec.value) else spec.value
    return make_value(kind, (), str(spec.base.dtype), spec.op)


def evaluate(spec: Spec) -> tuple[dict, Any]:
    """Returns (expect, value) for the case."""
    mode = mode_name(spec.mode)
    dtype = str(spec.base.dtype)
    if (spec.op == "get" and mode == "drop") or (spec.op != "get" and mode == "fill"):
        return {"error": "UnsupportedMode"}, early_value(spec)
    view = apply_view(spec.base, spec.view)
    try:
        idx = to_numpy(spec.index, view.shape, mode)
    except Decided as d:
        return {"error": d.variant}, early_value(spec)
    skip = mode in ("drop", "fill")
    fill = spec.mode[1] if mode == "fill" else 0
    positions = apply_view(np.arange(spec.base.size).reshape(spec.base.shape), spec.view)
    if skip:
        positions = padded(positions, -1)

    def target() -> tuple[np.ndarray, np.ndarray]:
        """A fresh copy of the base and the array NumPy works on."""
        b = spec.base.copy()
        v = apply_view(b, spec.view)
        return b, (padded(v, np.asarray(fill).astype(dtype)) if skip else v)

    with np.errstate(all="ignore"):
        # The index alone (a harmless scalar value), then the value.
        try:
            native(spec.op, spec.func, target()[1], idx, spec.base.dtype.type(1))
        except (IndexError, ValueError, TypeError) as exc:
            return {"error": error_variant(exc)}, early_value(spec)
        sel = np.array(positions[idx])
        value = None if spec.value is None else make_value(spec.value, sel.shape, dtype, spec.op)
        # A scalar too goes to NumPy in the target's dtype: ufunc.at would
        # compute with a Python complex in complex128 and round once more.
        v = drop_leading_ones(np.asarray(value, dtype=dtype) if isinstance(value, np.ndarray) else np.asarray(value, dtype=dtype)[()] if value is not None else None, sel.ndim)
        b, t = target()
        try:
            result = native(spec.op, spec.func, t, idx, v)
        except (IndexError, ValueError, TypeError) as exc:
            return {"error": error_variant(exc)}, value
        if spec.op == "rem" and dtype.startswith("int"):
            # NumPy's integer remainder by zero warns and gives 0; tensor-core
            # refuses it, as it refuses integer division by zero.
            divisors = np.broadcast_to(np.asarray(v), sel.shape)
            if (divisors[sel >= 0] == 0).any():
                return {"error": "DivisionByZero"}, value
        if spec.op == "div" and dtype.startswith("int"):
            divisors = np.broadcast_to(np.asarray(v), sel.shape)
            if (divisors[sel >= 0] == 0).any():
                return {"error": "DivisionByZero"}, value
            raise AssertionError("integer division (truncating in Rust, flooring in NumPy) only in DivisionByZero cases")
        if spec.op != "get" and skip:
            apply_view(b, spec.view)[...] = t[inner(t)]
        answer = result if spec.op == "get" else b
        model = interpret(spec.op, spec.func, spec.base, sel, v, fill)
    close = np.allclose(model, answer, rtol=1e-6, equal_nan=True) if spec.op == "pow" else np.array_equal(model, answer, equal_nan=dtype.startswith(("float", "complex")))
    if not close or model.shape != answer.shape:
        raise AssertionError(f"NumPy and the model disagree on {describe(spec, value)}:\n{answer}\n{model}")
    # NumPy's loop for a float `power` is chosen by the processor (with
    # AVX-512, SVML's, whose last bits differ from the C library's), so the
    # corpus records the model's, a scalar `pow` by the C library, which
    # NumPy's agrees with to `rtol` (checked above): every machine then
    # regenerates the same file.
    recorded = model if spec.op == "pow" and dtype.startswith("float") else answer
    return {"array": jarray(recorded)}, value


# ---------------------------------------------------------------------------
# JSON


def jnum(x: Any) -> Any:
    if isinstance(x, complex):
        return [jnum(x.real), jnum(x.imag)]
    if isinstance(x, float) and not np.isfinite(x):
        return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, float):
        # JSON readers need not round long decimals correctly (serde_json
        # without float_roundtrip does not): those go as strings.
        mantissa, _, exponent = repr(x).partition("e")
        digits = mantissa.lstrip("-").replace(".", "").strip("0")
        if len(digits) > 15 or abs(int(exponent or 0)) > 20:
            return repr(x)
    return x


def jarray(a: np.ndarray, dtype: str | None = None) -> dict:
    a = np.asarray(a)
    return {"dtype": dtype or str(a.dtype), "shape": list(a.shape), "data": [jnum(x) for x in a.ravel().tolist()]}


def jelem(e: Any) -> dict:
    if isinstance(e, Int):
        return {"int": e.v}
    if isinstance(e, Sl):
        return {"slice": [e.start, e.stop, e.step]}
    if isinstance(e, Rg):
        return {"range": [e.start, e.end, e.step]}
    if e is ELL:
        return {"ellipsis": True}
    if e is NEW:
        return {"newaxis": True}
    if isinstance(e, Arr):
        return {"array": jarray(e.a, e.dt)}
    if isinstance(e, Mask):
        return {"mask": jarray(e.m, "bool")}
    if isinstance(e, Nd):
        return {"nd": jarray(e.a, e.dt)}
    if isinstance(e, Along):
        return {"along": {"index": jarray(e.a, e.dt), "axis": e.axis}}
    if isinstance(e, Mesh):
        return {"ix": [jarray(a, dt) for a, dt in e.args]}
    raise TypeError(e)


def describe(spec: Spec, value: Any) -> str:
    x = f"x[{', '.join(show_elem(e) for e in spec.index)}]"
    if isinstance(value, np.ndarray):
        v = f"v{list(value.shape)}"
    else:
        v = "" if value is None else str(value)
    text = {
        "get": x,
        "set": f"{x} = {v}",
        "apply": f"{x}.apply({spec.func})",
    }.get(spec.op, f"{x}.{spec.op}({v})")
    mode = mode_name(spec.mode)
    if mode != "error":
        text += f"; mode={mode}" + (f"({spec.mode[1]})" if mode == "fill" else "")
    text += f"  ({SHORT[str(spec.base.dtype)]} {tuple(spec.base.shape)}"
    if spec.view:
        text += " view " + " ".join(json.dumps(s, separators=(",", ":")) for s in spec.view)
    return text + ")"


CASES: list[dict] = []


def add(family: str, base: np.ndarray, index: list, op: str = "get", value: Any = None, mode: Any = "error", view: list | None = None, func: str | None = None) -> None:
    if op not in ("get", "apply") and value is None:
        value = "scalar"
    if op == "apply" and func is None:
        func = APPLY_FUNCS[len(CASES) % len(APPLY_FUNCS)]
    spec = Spec(family, base, list(index), op, value, mode, list(view or []), func)
    expect, value = evaluate(spec)
    case = {
        "id": len(CASES),
        "family": family,
        "desc": describe(spec, value),
        "base": jarray(base),
        "view": spec.view,
        "index": [jelem(e) for e in spec.index],
        "op": op,
        "mode": spec.mode if isinstance(spec.mode, str) else {"fill": jnum(spec.mode[1])},
        "expect": expect,
    }
    if func is not None:
        case["func"] = func
    if value is not None:
        case["value"] = jarray(np.asarray(value, dtype=base.dtype)) if isinstance(value, np.ndarray) else {"scalar": jnum(value)}
    if op == "pow" and "array" in expect:
        case["rtol"] = 1e-6
    CASES.append(case)


# ---------------------------------------------------------------------------
# Helpers for drawing cases


def pick(seq: list) -> Any:
    return seq[int(RNG.integers(0, len(seq)))]


def cycle(seq: list, k: int) -> Any:
    return seq[k % len(seq)]


def data(shape: tuple, dtype: str = "float64", positive: bool = False) -> np.ndarray:
    return base_data(tuple(shape), dtype, positive)


def ops_for(dtype: str) -> list[str]:
    """Ops with an exact, comparable answer for the dtype (integer division
    truncates in Rust but floors in NumPy, so only its errors are compared)."""
    return ["get", "set", "add", "sub", "mul", "pow", "min", "max", "apply"] + (["div"] if dtype.startswith("float") else [])


def target(shape: tuple, dtype: str, op: str) -> np.ndarray:
    return data(shape, dtype, positive=op == "pow")


def rand_ints(n: int, shape: tuple, dt: str, negative: bool = True) -> np.ndarray:
    low = -n if negative and dt in SIGNED_IDX else 0
    if n == 0:
        return np.zeros(shape, dtype=IDX_DTYPES[dt])
    return RNG.integers(low, n, size=shape).astype(IDX_DTYPES[dt])


def rand_pyslice(n: int) -> Sl:
    step = pick([None, 1, 2, 3, -1, -2, -3])
    bound = lambda: pick([None, None, int(RNG.integers(-n - 3, n + 4))])  # noqa: E731
    return Sl(bound(), bound(), step)


def rand_range(n: int) -> Rg:
    start = int(RNG.integers(-n, n + 1)) if n else 0
    s = start + n if start < 0 else start
    end = pick([None, int(RNG.integers(s, n + 1)), int(RNG.integers(s, n + 1)) - n if n else None])
    if end is not None and end < 0 and end + n < s:
        end = None
    return Rg(start, end, pick([1, 1, 2, 3, -1, -2]))


def rand_basic(n: int) -> Any:
    return pick([ALL, ALL, rand_pyslice(n), rand_range(n)] + ([Int(int(RNG.integers(-n, n)))] if n else []))


# ---------------------------------------------------------------------------
# Families


def fam_ints() -> None:
    """Plain integers, negative ones included, on ranks 1..5."""
    k = 0
    for rank in range(1, 6):
        for _ in range(8):
            shape = tuple(int(d) for d in RNG.integers(1, 5, size=rank))
            dtype = cycle(DTYPES, k)
            op = cycle(ops_for(dtype), k)
            count = int(RNG.integers(1, rank + 1))
            index = [Int(int(RNG.integers(-n, n))) for n in shape[:count]]
            add("ints", target(shape, dtype, op), index, op, pick(["scalar", "full", "bcast"]) if op not in ("get", "apply") else None)
            k += 1


PY_SLICES = [
    Sl(),
    Sl(1),
    Sl(-3),
    Sl(None, -2),
    Sl(2, 100),
    Sl(-100, 3),
    Sl(None, None, -1),
    Sl(5, 1, -2),
    Sl(-1, -100, -3),
    Sl(100, None, -2),
    Sl(3, 3),
    Sl(4, 2),
    Sl(None, None, 3),
    Sl(1, -1, 2),
    Sl(0, 0, -1),
    Sl(-2, None, -1),
    Sl(-100, -50),
    Sl(50, 100),
    Sl(None, -100, -1),
    Sl(-7, 7, 2),
]


def fam_pyslice() -> None:
    """NumPy slices: negative bounds, clamping, negative steps, zero length."""
    k = 0
    for s in PY_SLICES:
        for n in (0, 1, 5, 8):
            if n == 0 and k % 3:
                continue
            dtype = cycle(DTYPES, k)
            op = cycle(["get", "set", "add", "get", "mul", "apply"], k)
            add("pyslice", target((n,), dtype, op), [s], op, "full" if op in ("set", "add", "mul") else None)
            k += 1
    for _ in range(16):  # on an inner axis of a 3-D target
        shape = tuple(int(d) for d in RNG.integers(2, 6, size=3))
        dtype = cycle(DTYPES, k)
        op = cycle(["get", "set", "sub", "max"], k)
        index = [ALL, rand_pyslice(shape[1]), rand_pyslice(shape[2])]
        add("pyslice", target(shape, dtype, op), index, op, "bcast" if op != "get" else None)
        k += 1


RANGES = [Rg(), Rg(1, 4), Rg(-3), Rg(0, -1, 2), Rg(4, None, -2), Rg(1, 8, -3), Rg(5, 2), Rg(2, -2, -3), Rg(0, 0), Rg(8), Rg(-8, None, -1), Rg(3, 7, 2), Rg(-5, -1, -1), Rg(0, None, 5)]


def fam_range() -> None:
    """ndarray ranges a..b;c (taken, then stepped from the back when c < 0)."""
    k = 0
    for r in RANGES:
        for op in ("get", "set"):
            dtype = cycle(DTYPES, k)
            add("range", target((8,), dtype, op), [r], op, "full" if op == "set" else None)
            k += 1
    for _ in range(14):
        shape = tuple(int(d) for d in RNG.integers(1, 7, size=2))
        dtype = cycle(DTYPES, k)
        op = cycle(["get", "add", "set", "min", "apply"], k)
        add("range", target(shape, dtype, op), [rand_range(shape[0]), rand_range(shape[1])], op, "bcast" if op not in ("get", "apply") else None)
        k += 1


def fam_ellipsis_newaxis() -> None:
    shape = (2, 3, 4)
    indices = [
        [ELL],
        [ELL, 0],
        [0, ELL],
        [NEW],
        [ALL, NEW, 1],
        [ELL, NEW],
        [NEW, ELL, NEW, 0],
        [1, ELL, 2],
        [NEW, NEW, 1, ALL, -1],
        [ELL, Sl(None, None, -1), NEW],
        [ELL, 1, 2, 3],
        [0, 1, 2, ELL],
        [NEW, 0, NEW, 1, NEW, 2, NEW],
        [],
        [ELL, Rg(1, None, -1)],
    ]
    for k, index in enumerate(indices):
        index = [Int(e) if isinstance(e, int) else e for e in index]
        for j, op in enumerate(["get", cycle(["set", "add", "apply", "max", "mul"], k)]):
            dtype = cycle(DTYPES, k + j)
            add("ellipsis_newaxis", target(shape, dtype, op), index, op, cycle(["full", "scalar", "lead"], k) if op not in ("get", "apply") else None)


def fam_int_arrays() -> None:
    """Integer arrays of every index type: negatives, duplicates, 2-D, empty."""
    k = 0
    for dt in IDX_DTYPES:
        for variant in range(10):
            dtype = cycle(DTYPES, k)
            op = cycle(ops_for(dtype), k)
            shape = (5, 4)
            if variant < 3:
                index = [Arr(rand_ints(5, (int(RNG.integers(1, 7)),), dt), dt)]
            elif variant < 5:
                index = [ALL, Arr(rand_ints(4, (2, 3), dt), dt)]
            elif variant == 5:
                index = [Arr(np.array([], dtype=IDX_DTYPES[dt]), dt)]
            elif variant == 6:
                index = [Arr(rand_ints(5, (3, 1), dt), dt), Arr(rand_ints(4, (2,), dt), dt)]
            elif variant == 7:
                index = [Arr(rand_ints(5, (4,), dt), dt), ELL]
            elif variant == 8:
                index = [Sl(None, None, -1), Arr(rand_ints(4, (2, 2, 2), dt), dt)]
            else:
                shape = (3, 4, 5)
                index = [Arr(rand_ints(3, (3,), dt), dt), Arr(rand_ints(4, (3,), dt), dt), Arr(rand_ints(5, (1,), dt), dt)]
            add("int_arrays", target(shape, dtype, op), index, op, pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None)
            k += 1


def fam_narrow_index_types() -> None:
    """Index arrays of i8, u8, i16 and u16: reads and every kind of write,
    negatives, duplicates, out-of-bounds values in each mode, and beside a
    slice."""
    k = 0
    for dt, np_dt in NARROW_IDX.items():
        signed = dt.startswith("i")
        for variant in range(8):
            dtype = cycle(DTYPES, k)
            op = cycle(["get", "set", "add", "max", "mul"], k)
            mode = cycle(["error", "clip", "wrap"], variant)
            wild = mode != "error" or variant == 6
            low = (-5 if signed else 0) - (3 if wild and signed else 0)
            high = 5 + (4 if wild else 0)
            idx = RNG.integers(low, high, size=(int(RNG.integers(1, 7)),)).astype(np_dt)
            if variant == 7:
                # The extremes of the type: out of bounds but for clip/wrap.
                idx = np.array([np.iinfo(np_dt).max, np.iinfo(np_dt).min, 1], dtype=np_dt)
                mode = cycle(["error", "clip", "wrap"], k)
            index = [Arr(idx, dt)] if variant % 2 == 0 else [ALL, Arr(idx % 4 if not wild else idx, dt)]
            shape = (5, 4)
            value = pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None
            add("narrow_index_types", target(shape, dtype, op), index, op, value, mode)
            k += 1


def fam_rem_bitwise() -> None:
    """`%=` with NumPy's sign rule on every dtype (a zero divisor: NaN for
    floats, DivisionByZero for integers), and `&= |= ^=` on the integer
    dtypes: duplicates, values broadcast or scalar, beside a slice, in each
    update mode."""
    k = 0
    for dtype in DTYPES:
        ops = ["rem"] + ([] if dtype.startswith("float") else ["and", "or", "xor"])
        for op in ops:
            for variant in range(5):
                mode = cycle(["error", "clip", "wrap", "drop"], k)
                idx = RNG.integers(-5, 5, size=(int(RNG.integers(1, 7)),))
                index = [Arr(idx)] if variant % 2 == 0 else [ALL, Arr(idx % 4)]
                value = pick(["full", "bcast", "scalar"])
                if op == "rem" and variant == 4:
                    value = 0  # a zero divisor
                add("rem_bitwise", target((5, 4), dtype, op), index, op, value, mode)
                k += 1


def fam_half() -> None:
    """float16 targets (tensor-core's `half` feature): reads and every float
    update, through an index array, beside a slice, and through a slice."""
    k = 0
    for op in ["get", "set", "add", "sub", "mul", "div", "pow", "min", "max", "rem", "apply"]:
        for variant in range(3):
            idx = RNG.integers(-5, 5, size=(int(RNG.integers(1, 7)),))
            index = [[Arr(idx)], [ALL, Arr(idx % 4)], [rand_pyslice(5)]][variant]
            value = pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None
            func = cycle(APPLY_FUNCS, k) if op == "apply" else None
            add("half", target((5, 4), "float16", op), index, op, value, "error", func=func)
            k += 1


def fam_complex() -> None:
    """complex128 and complex64 targets: reads, `= += -= *= /=` and apply
    through an index array with duplicates (in each mode), beside a slice,
    through a mask and a slice; products and quotients that round, and a
    zero divisor (infinities and NaNs, as NumPy divides)."""
    k = 0
    for dtype in ("complex128", "complex64"):
        for op in ["get", "set", "add", "sub", "mul", "div", "apply"]:
            for variant in range(4):
                idx = RNG.integers(-5, 5, size=(int(RNG.integers(1, 7)),))
                index = [[Arr(idx)], [ALL, Arr(idx % 4)], [rand_mask((5, 4), 0.5)], [rand_pyslice(5)]][variant]
                mode = cycle(["error", "clip", "wrap", "drop"], k) if variant < 2 else "error"
                value = pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None
                add("complex", target((5, 4), dtype, op), index, op, value, mode)
                k += 1
        for divisor in (0j, complex(0.0, -0.0), complex(np.inf, 1.0)):
            add("complex", target((5, 4), dtype, "div"), [Arr(np.array([0, 3, 0]))], "div", divisor)


def rand_mask(shape: tuple, p: float) -> Mask:
    return Mask(RNG.random(shape) < p)


def fam_masks() -> None:
    """Masks of ranks 1..3 at different axes; all-false and all-true."""
    k = 0
    for rank in (1, 2, 3):
        for tshape in [(3, 4, 2, 2)[:rank], (3, 4, 2, 2)[:rank + 1], (2, 3, 4, 2)]:
            for p in (0.0, 1.0, 0.5, 0.5):
                dtype = cycle(DTYPES, k)
                op = cycle(ops_for(dtype) + ["set", "set"], k)
                at = 0 if len(tshape) == rank else int(RNG.integers(0, len(tshape) - rank + 1))
                m = rand_mask(tshape[at : at + rank], p)
                lead = [pick([ALL, Int(int(RNG.integers(0, n))), rand_pyslice(n)]) for n in tshape[:at]]
                index = lead + [m]
                value = pick(["full", "bcast", "scalar", "lead"]) if op not in ("get", "apply") else None
                add("masks", target(tshape, dtype, op), index, op, value)
                k += 1
    # 0-d masks (NumPy: a new axis of length 1 or 0, consuming no axis).
    for m, index in ((mask(True), [mask(True)]), (mask(False), [mask(False)]), (mask(True), [ALL, mask(True), arr([0, 2])])):
        for op in ("get", "set", "add"):
            add("masks", target((3, 4), "float64", op), index, op, "full" if op != "get" else None)
    # x[mask] = v with v of shape (count,) on a whole mask; and mask + trailing axes
    for p in (0.3, 0.7, 1.0, 0.0):
        m = rand_mask((4, 3), p)
        for op in ("set", "add"):
            add("masks", target((4, 3), "float64", op), [m], op, "full")
            add("masks", target((4, 3, 2), "int64", op), [m], op, "full")


def fam_nd() -> None:
    """gather_nd indices: batch + [depth], negative coordinates, duplicates."""
    k = 0
    shape = (3, 4, 5)
    for depth in (1, 2, 3):
        for batch in [(), (2,), (2, 3), (1,)]:
            dt = cycle(list(IDX_DTYPES), k)
            cols = [rand_ints(n, batch, dt) for n in shape[:depth]]
            idx = np.stack(cols, axis=-1) if batch else np.array([c.item() for c in cols], dtype=IDX_DTYPES[dt])
            dtype = cycle(DTYPES, k)
            op = cycle(ops_for(dtype), k)
            value = pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None
            add("nd", target(shape, dtype, op), [Nd(idx, dt)], op, value)
            k += 1
    for _ in range(10):  # after a slice, next to an array, with duplicates
        dt = pick(list(IDX_DTYPES))
        idx = np.stack([rand_ints(4, (3,), dt), rand_ints(5, (3,), dt)], axis=-1)
        idx[1] = idx[0]
        dtype = cycle(DTYPES, k)
        op = cycle(ops_for(dtype), k)
        index = pick([[ALL, Nd(idx, dt)], [Arr(rand_ints(3, (3,), dt), dt), Nd(idx, dt)], [Nd(rand_ints(3, (2, 1), dt), dt), ALL, Arr(rand_ints(5, (1,), dt), dt)]])
        add("nd", target(shape, dtype, op), index, op, "full" if op not in ("get", "apply") else None)
        k += 1


def fam_zero_d() -> None:
    """0-d integer arrays index like integers (advanced once arrays are present)."""
    shape = (3, 4, 5)
    k = 0
    for dt in IDX_DTYPES:
        z = lambda n: Arr(rand_ints(n, (), dt), dt)  # noqa: E731
        for index in ([z(3)], [ALL, z(4), ALL], [z(3), ALL, arr([0, 1, 1], dt)], [ALL, z(4), arr([[4], [0]], dt)]):
            dtype = cycle(DTYPES, k)
            op = cycle(["get", "set", "add", "apply"], k)
            add("zero_d", target(shape, dtype, op), index, op, "full" if op in ("set", "add") else None)
            k += 1


def rand_adv(n: int, bshape: tuple, dt: str) -> Any:
    """An advanced index for an axis of length n whose shape broadcasts to bshape."""
    if RNG.random() < 0.25 or n == 0:
        return Int(int(RNG.integers(-n, n))) if n else Int(0)
    return Arr(rand_ints(n, bcast_shape(bshape) or (1,), dt), dt)


def fam_combined(count: int = 80) -> None:
    """Basic + advanced: separated (to the front) or adjacent (in place)."""
    for k in range(count):
        rank = int(RNG.integers(2, 6))
        shape = tuple(int(d) for d in RNG.integers(2, 5, size=rank))
        n_adv = int(RNG.integers(2, min(rank, 3) + 1))
        axes = sorted(int(a) for a in RNG.choice(rank, size=n_adv, replace=False))
        if k % 3 == 0:  # force adjacency
            start = int(RNG.integers(0, rank - n_adv + 1))
            axes = list(range(start, start + n_adv))
        bshape = tuple(int(d) for d in RNG.integers(1, 4, size=int(RNG.integers(1, 3))))
        dt = pick(list(IDX_DTYPES))
        index: list = [rand_adv(shape[a], bshape, dt) if a in axes else rand_basic(shape[a]) for a in range(rank)]
        if RNG.random() < 0.3:
            index.insert(int(RNG.integers(0, len(index) + 1)), NEW)
        if RNG.random() < 0.3:  # replace a run of whole slices by `...` (possibly an empty run)
            runs = [i for i, e in enumerate(index) if e == ALL] or [len(index)]
            i = pick(runs)
            index[i : i + (1 if i < len(index) and index[i] == ALL else 0)] = [ELL]
        while index and index[-1] == ALL and RNG.random() < 0.5:
            index.pop()
        dtype = cycle(DTYPES, k)
        op = cycle(ops_for(dtype), k)
        add("combined", target(shape, dtype, op), index, op, pick(["full", "bcast", "scalar", "lead"]) if op not in ("get", "apply") else None)
    # The classic cases, spelled out.
    x = (2, 3, 4)
    for index in (
        [Int(1), ALL, arr([0, 1])],
        [arr([0, 1]), ALL, Int(1)],
        [ALL, Int(1), arr([0, 3])],
        [arr([0, 1]), NEW, arr([1, 2])],
        [arr([1, 0]), ELL, arr([2, 3])],
        [NEW, arr([0, 1]), ELL, arr([1, 2])],
        [arr([0, 1]), ELL, arr([1, 2]), NEW],
        [ALL, arr([[0], [2]]), arr([1, 3])],
        [arr([[1]]), arr([0, 2]), Sl(None, None, -1)],
        [mask([True, False]), ALL, arr([0, 3])],
        [ALL, mask([[True, False, True, True]] * 3)],
        [mask([[True, False, True], [False, True, True]]), arr([0, 1, 3, 2])],
        [Int(0), mask([True, False, True])],
        [mask([True, True]), Sl(1, None), arr([3])],
    ):
        for op in ("get", "set", "add"):
            add("combined", target(x, "float64", op), index, op, "full" if op != "get" else None)


def fam_ops() -> None:
    """Every op on every dtype, with duplicate indices (set: last wins;
    the others: every occurrence applies, in order)."""
    k = 0
    for dtype in DTYPES:
        for op in ops_for(dtype)[1:] + ["apply", "apply"]:
            for layout in range(3):
                shape = (4, 3)
                if layout == 0:
                    index = [arr([1, 3, 1, 1, 0, -1] if op != "pow" else [1, 3, 1, 0])]
                elif layout == 1:
                    index = [arr([[0, 2], [0, 0]]), arr([1, 1])]
                else:
                    index = [ALL, arr([2, 0, 2, 2])]
                value = cycle(["full", "scalar", "bcast"], k + layout)
                add("ops", target(shape, dtype, op), index, op, value if op != "apply" else None)
                k += 1
    # Duplicates through every index kind.
    for dtype in DTYPES:
        for op in ("set", "add", "max"):
            add("ops", target((3, 4), dtype, op), [nd([[0, 1], [2, 3], [0, 1], [-3, -3]])], op, "full")
            add("ops", target((3, 4), dtype, op), [arr([0, -3, 0]), Rg(1, None, -1)], op, "full")
            add("ops", target((3, 4), dtype, op), [ELL, arr([3, -1, 3, 3])], op, "full")
    # Float division by zero gives inf / nan like NumPy.
    for dtype in ("float64", "float32"):
        add("ops", data((5,), dtype), [arr([0, 1, 1])], "div", np.array([0.0, 0.0, 2.0]))


MODES = ["clip", "wrap", "drop", ("fill", -7)]


def oob_ints(n: int, shape: tuple, dt: str) -> np.ndarray:
    """Indices in and out of bounds (negative ones for signed types)."""
    pool = list(range(-n, n)) + [n, n + 1, 3 * n + 2, 100]
    if dt in SIGNED_IDX:
        pool += [-n - 1, -2 * n - 3, -100]
    return np.array(RNG.choice(pool, size=shape), dtype=IDX_DTYPES[dt])


def fam_modes() -> None:
    """clip, wrap, drop (updates), fill(v) (reads), on every integer kind."""
    k = 0
    shape = (4, 5)
    for mode in MODES:
        fill_val = None if isinstance(mode, str) else mode[1]
        for variant in range(16):
            dt = cycle(list(IDX_DTYPES), k)
            dtype = cycle(DTYPES, k)
            op = "get" if fill_val else cycle([o for o in ops_for(dtype) if o != "get"], k)
            if mode in ("clip", "wrap") and variant % 4 == 0:
                op = "get"
            m = mode if fill_val is None else ("fill", np.asarray(fill_val).astype(dtype).item())
            a = lambda n, s: Arr(oob_ints(n, s, dt), dt)  # noqa: E731
            index = [
                [Int(pick([5, 7, -5, -9, 2]))],
                [ALL, Int(pick([5, 9, -6, -20]))],
                [a(4, (6,))],
                [ALL, a(5, (2, 3))],
                [a(4, (3,)), a(5, (3,))],
                [a(4, (2, 1)), ALL],
                [Nd(np.stack([oob_ints(4, (4,), dt), oob_ints(5, (4,), dt)], -1), dt)],
                [Arr(oob_ints(4, (), dt), dt), Sl(None, None, -2)],
                [a(4, (3,)), Int(pick([7, -8]))],
                [Int(6), ALL, NEW],
                [Sl(1, None), a(5, (2, 2))],
                [a(4, (2,)), ELL, a(5, (2,))],
                [mask([True, False, True, True]), a(5, (3,))],
                [Rg(0, None, -1), a(5, (4,))],
                [a(4, (5,)), a(5, (5,))],
                [Int(-5), Int(5)],
            ][variant]
            value = pick(["full", "scalar", "bcast"]) if op not in ("get", "apply") else None
            add("modes", target(shape, dtype, op), index, op, value, mode=m)
            k += 1
    # Extreme indices: the whole range of u64 and i64 (NumPy itself would
    # cast a u64 above i64::MAX to a negative intp; the modes rewrite them
    # here before NumPy sees them).
    huge = [2**64 - 1, 2**63, 2**63 - 1, 5]
    for mode in MODES:
        op = "get" if mode_name(mode) in ("fill", "clip") else "add"
        add("modes", data((3, 4)), [arr(huge, "u64")], op, "full" if op != "get" else None, mode=mode)
        add("modes", data((3, 4)), [ALL, arr([-(2**63), 2**63 - 1, -1], "isize")], op, "full" if op != "get" else None, mode=mode)
    # Errors other than out-of-bounds ones are the same in every mode.
    for mode in MODES:
        op = "get" if mode_name(mode) == "fill" else "set"
        add("modes", data((3, 4)), [arr([0, 7]), arr([0, 1, 9])], op, None if op == "get" else "scalar", mode=mode)
        add("modes", data((3, 4)), [mask([True, False]), Int(9)], op, None if op == "get" else "scalar", mode=mode)
        add("modes", data((3, 4)), [Int(7), Int(0), Int(9)], op, None if op == "get" else "scalar", mode=mode)
        add("modes", data((3, 4)), [arr([1, 7])], op, None if op == "get" else "wrong", mode=mode)
        add("modes", data((3, 4)), [ELL, Int(9), ELL], op, None if op == "get" else "scalar", mode=mode)
    # Empty axes: drop / fill skip everything; clip / wrap have nowhere to go.
    add("modes", data((3, 0)), [ALL, arr([2, -1])], "get", mode=("fill", 1.5))
    add("modes", data((3, 0)), [ALL, arr([2, -1])], "set", "scalar", mode="drop")
    add("modes", data((0,), "int64"), [Int(3)], "get", mode=("fill", 9))
    # Duplicates (with dropped entries in between) under drop.
    add("modes", data((5,)), [arr([1, 9, 1, -9, 1])], "set", np.array([1.0, 2.0, 3.0, 4.0, 5.0]), mode="drop")
    add("modes", data((5,), "int32"), [arr([1, 9, 1, -9, 1])], "add", np.array([1, 2, 3, 4, 5]), mode="drop")
    add("modes", data((5,)), [arr([1, 7, 1, -7, 1])], "add", np.array([1.0, 2.0, 3.0, 4.0, 5.0]), mode="wrap")
    add("modes", data((5,)), [arr([1, 7, 1, -7, 1])], "set", np.array([1.0, 2.0, 3.0, 4.0, 5.0]), mode="clip")


def rand_view(shape: tuple) -> list:
    steps: list = []
    dims = list(shape)
    for axis in range(len(dims)):
        r = RNG.random()
        if r < 0.35 and dims[axis] > 1:
            n = dims[axis]
            start = int(RNG.integers(0, n // 2 + 1))
            step = pick([2, 3, -1, -2])
            steps.append({"slice": axis, "start": start, "end": pick([None, n, n - 1]), "step": step})
            dims[axis] = len(range_positions(Rg(start, steps[-1]["end"], step), n))
        elif r < 0.6:
            steps.append({"invert": axis})
    if len(dims) > 1 and RNG.random() < 0.6:
        steps.append({"permute": [int(a) for a in RNG.permutation(len(dims))]})
    return steps


def fam_views(count: int = 56) -> None:
    """Targets that are views: negative strides, steps, permuted axes."""
    for k in range(count):
        rank = int(RNG.integers(2, 5))
        bshape = tuple(int(d) for d in RNG.integers(3, 7, size=rank))
        if rank == 4:
            bshape = tuple(min(d, 4) for d in bshape)
        steps = rand_view(bshape)
        vshape = apply_view(np.empty(bshape), steps).shape
        dtype = cycle(DTYPES, k)
        op = cycle(ops_for(dtype), k)
        kind = k % 4
        if kind == 0:
            index = [rand_basic(n) for n in vshape]
        elif kind == 1:
            index = [Arr(rand_ints(vshape[0], (4,), "i64"), "i64")] + [rand_basic(n) for n in vshape[1:2]]
        elif kind == 2:
            index = [ALL, Mask(RNG.random(vshape[1:]) < 0.5)]
        else:
            index = [rand_adv(n, (3,), "isize") if i != 1 else rand_basic(n) for i, n in enumerate(vshape)]
        mode = "error" if k % 7 else ("drop" if op != "get" else ("fill", 0))
        if mode != "error":
            index = [Arr(oob_ints(vshape[0], (3,), "i64"), "i64"), ELL]
        value = pick(["full", "bcast", "scalar"]) if op not in ("get", "apply") else None
        add("views", target(bshape, dtype, op), index, op, value, mode=mode, view=steps)


def fam_values() -> None:
    """Value broadcasting: scalars, 0-d, full, broadcastable, leading 1-axes, empty regions."""
    k = 0
    regions = [
        ((4, 3), [ALL, Sl(None, None, 2)]),
        ((4, 3), [arr([0, 2, 3])]),
        ((2, 3, 4), [ALL, arr([[0, 1]]), ALL]),
        ((4, 3), [Sl(2, 2)]),
        ((4, 3), [arr(np.zeros(0, dtype=np.int64))]),
        ((4, 3), [mask(np.zeros((4, 3), bool))]),
        ((3, 4), [mask([True, False, True]), Int(1)]),
        ((3, 4), [Int(2)]),
    ]
    for shape, index in regions:
        for kind in ("scalar", lambda r: np.array(3), "full", "bcast", "lead", "lead2", "leadbcast"):
            dtype = cycle(DTYPES, k)
            op = cycle(["set", "add", "max", "set", "sub"], k)
            add("values", target(shape, dtype, op), index, op, kind)
            k += 1
    # x[mask] = v for a whole mask, v with leading 1-axes: NumPy rejects a
    # 2-D v there; the SPEC drops the ones first (see drop_leading_ones).
    m = mask([[True, False, True], [True, True, False]])
    add("values", data((2, 3)), [m], "set", (1, 4))
    add("values", data((2, 3)), [m], "set", (1, 1, 4))
    add("values", data((2, 3)), [m], "add", (1, 4))
    add("values", data((2, 3)), [m], "set", (1,))


def fam_ranks() -> None:
    """Ranks 0 through 5."""
    scalar = lambda dtype: data((), dtype)  # noqa: E731
    for k, index in enumerate([[], [ELL], [NEW], [NEW, ELL], [ELL, NEW, NEW], [NEW, ELL, NEW]]):
        for op in ("get", "set", "add", "apply"):
            dtype = cycle(DTYPES, k)
            add("ranks", scalar(dtype), index, op, "full" if op in ("set", "add") else None)
    for rank in range(1, 6):
        shape = tuple([2, 3, 2, 3, 2][:rank])
        for op in ("get", "set", "mul", "apply"):
            dtype = cycle(DTYPES, rank)
            index = [Arr(rand_ints(shape[0], (2,), "i32"), "i32"), ELL, Int(-1)] if rank > 1 else [arr([1, 0, 1])]
            add("ranks", target(shape, dtype, op), index, op, "bcast" if op in ("set", "mul") else None)
            add("ranks", target(shape, dtype, op), [ELL, Rg(0, None, -1)] + ([Sl(None, None, -1)] if rank > 1 else []), op, "full" if op in ("set", "mul") else None)


def fam_special() -> None:
    """NaN, infinities and signed zeros in min / max / arithmetic; integer wrap-around."""
    nan, inf = float("nan"), float("inf")
    for dtype in ("float64", "float32"):
        x = np.array([1.0, nan, -2.0, 0.0, -0.0, inf], dtype=dtype)
        for op in ("min", "max", "add", "mul", "div", "sub"):
            add("special", x, [arr([0, 1, 2, 3, 4, 5, 0])], op, np.array([nan, 1.0, -inf, -0.0, 0.0, -inf, 2.0]))
        add("special", x, [arr([0, 0, 2])], "max", np.array([nan, 5.0, -1.0]))
        add("special", x, [ALL], "apply", func="negate")
        add("special", x, [arr([1, 5, 1])], "get")
    for dtype, big in (("int32", 2**31 - 1), ("int64", 2**63 - 1)):
        x = np.array([big, -big - 1, 3, -2], dtype=dtype)
        add("special", x, [arr([0, 0, 1])], "add", np.array([1, big, -1]))
        add("special", x, [arr([1, 0])], "sub", np.array([1, -1]))
        add("special", x, [arr([2, 2, 3])], "mul", np.array([big, 7, -big - 1]))
        add("special", x, [arr([2, 3, 3])], "pow", np.array([70, 63, 2]))
        add("special", x, [arr([0, 1, 2, 2])], "apply", func="square")
        add("special", x, [arr([1])], "apply", func="negate")
        add("special", x, [arr([0, 1])], "min", np.array([-big - 1, big]))


def fam_along() -> None:
    """along(idx, axis): take_along_axis, put_along_axis, and ufunc.at on the
    broadcast grid (duplicates accumulate in index order), in every mode."""
    get_modes = ["error", "error", "clip", "wrap", ("fill", -1)]
    update_modes = ["error", "error", "clip", "wrap", "drop"]
    ops = ["get", "set", "add", "max", "mul", "min", "apply", "get", "set", "add"]
    for k in range(80):
        rank = 1 + k % 3
        shape = tuple(int(RNG.integers(1, 5)) for _ in range(rank))
        axis = int(RNG.integers(-rank, rank))
        ax = axis % rank
        # The index broadcasts against the target: each other axis the
        # target's length or 1 (or the target's length is 1).
        ishape = tuple(int(RNG.integers(0, 6)) if d == ax else pick([shape[d], shape[d], 1]) for d in range(rank))
        op = cycle(ops, k)
        mode = cycle(get_modes if op == "get" else update_modes, k // len(ops))
        n = shape[ax]
        wild = mode != "error" or k % 9 == 0
        dt = cycle(SIGNED_IDX, k)
        values = RNG.integers(-n - 2 if wild else -n, n + 2 if wild else n, size=ishape)
        dtype = cycle(DTYPES, k)
        value = None if op in ("get", "apply") else cycle(["scalar", "full", "bcast"], k)
        add("along", target(shape, dtype, op), [Along(values.astype(IDX_DTYPES[dt]), axis, dt)], op, value, mode)
    # Errors, and which comes first.
    x = lambda: data((3, 4))  # noqa: E731
    rows = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    for index, op in [
        ([Along(rows([0], [1], [2]), 2)], "get"),            # AxisOutOfRange
        ([Along(rows([0], [1], [2]), -3)], "set"),
        ([Along(rows(0, 1), 1)], "get"),                     # AlongRank
        ([Along(rows(0, 1), 5)], "add"),                     # the axis before the rank
        ([Along(rows([0], [1]), 1)], "get"),                 # AlongShape: 2 rows against 3
        ([Along(rows([0, 1], [1, 1]), 0)], "set"),           # AlongShape on the other axis
        ([Along(rows([0], [4], [1]), 1)], "add"),            # OutOfBounds
        ([Along(rows([0], [1], [2]), 1), ELL], "get"),       # AlongNotAlone
    ]:
        add("along", x(), index, op, "scalar" if op in ("set", "add") else None)
    # A value that does not broadcast to the region.
    add("along", x(), [Along(rows([0, 3], [1, 1], [2, 0]), 1)], "add", "wrong")


def elem_at(e: Any, at: tuple) -> Any:
    """Element `e` at batch position `at`: an array, mask, `nd` or `along`
    index at `at` along its leading axes (at 0 where one has length 1)."""
    def take(a: np.ndarray) -> np.ndarray:
        for p in at:
            a = a[0 if a.shape[0] == 1 else p]
        return np.asarray(a)
    if isinstance(e, Arr):
        return Arr(take(e.a), e.dt)
    if isinstance(e, Mask):
        return Mask(take(e.m))
    if isinstance(e, Nd):
        return Nd(take(e.a), e.dt)
    if isinstance(e, Along):
        return Along(take(e.a), e.axis, e.dt)
    return e


def value_at(value: Any, at: tuple) -> Any:
    if not isinstance(value, np.ndarray):
        return value
    for p in at:
        value = value[0 if value.shape[0] == 1 else p]
    return np.asarray(value)


def add_batched(base: np.ndarray, index: list, batch: int, op: str, value: Any = None, mode: Any = "error", func: str | None = None) -> None:
    """A `; batch = k` case, its answer by the plain loop over the batch
    positions `b` (seed 004): NumPy runs `x[b][index[b]] op= value[b]` for
    each, in C order; the first batch's error is the case's, with nothing
    written; a read stacks the batches' reads."""
    if op == "apply" and func is None:
        func = APPLY_FUNCS[len(CASES) % len(APPLY_FUNCS)]
    bshape = base.shape[:batch]
    results, expect = [], None
    for at in np.ndindex(*bshape):
        spec = Spec("batch", base[at].copy(), [elem_at(e, at) for e in index], op, value_at(value, at), mode, [], func)
        got, _ = evaluate(spec)
        if "error" in got:
            expect = got
            break
        results.append(np.array(got["array"]["data"], dtype=base.dtype).reshape(got["array"]["shape"]))
    if expect is None:
        if op == "get":
            stacked = np.stack(results).reshape(bshape + results[0].shape)
            expect = {"array": jarray(stacked)}
        else:
            after = base.copy()
            for at, part in zip(np.ndindex(*bshape), results):
                after[at] = part
            expect = {"array": jarray(after)}
    desc = describe(Spec("batch", base, index, op, value, mode, [], func), value) + f"; batch={batch}"
    case = {
        "id": len(CASES),
        "family": "batch",
        "desc": desc,
        "base": jarray(base),
        "view": [],
        "index": [jelem(e) for e in index],
        "op": op,
        "mode": mode if isinstance(mode, str) else {"fill": jnum(mode[1])},
        "batch": batch,
        "expect": expect,
    }
    if func is not None:
        case["func"] = func
    if value is not None:
        case["value"] = jarray(np.asarray(value, dtype=base.dtype)) if isinstance(value, np.ndarray) else {"scalar": jnum(value)}
    CASES.append(case)


def fam_batch() -> None:
    """`; batch = k`: integer arrays, slices beside them, `nd`, `along` and
    masks (updates only) with batch axes of the target's lengths or 1, in
    every mode; the answer is the loop over the batch."""
    ops = ["get", "set", "add", "max", "mul", "get", "set", "add", "apply", "min", "get", "sub"]
    get_modes = ["error", "error", "clip", "wrap", ("fill", -1)]
    update_modes = ["error", "error", "clip", "wrap", "drop"]
    kinds = ["ints", "slice_ints", "nd", "along", "mask", "pair"]
    for k in range(96):
        nb = 2 if k % 5 == 4 else 1
        bshape = tuple(int(RNG.integers(1, 4)) for _ in range(nb))
        rank = 1 + k % 3
        shape = tuple(int(RNG.integers(1, 5)) for _ in range(rank))
        op = cycle(ops, k)
        mode = cycle(get_modes if op == "get" else update_modes, k // len(ops))
        dtype = cycle(DTYPES, k)
        dt = cycle(SIGNED_IDX + UNSIGNED_IDX, k)
        wild = mode != "error" or k % 13 == 0
        kind = cycle(kinds, k)
        if kind == "mask" and op == "get":
            kind = "ints"
        if kind in ("slice_ints", "pair") and rank < 2:
            kind = "ints"
        lead = lambda: tuple(b if RNG.random() < 0.8 else 1 for b in bshape)  # noqa: E731

        def ints(n: int, shape_: tuple) -> np.ndarray:
            low = (-n if dt in SIGNED_IDX else 0) - (2 if wild and dt in SIGNED_IDX else 0)
            high = n + (2 if wild else 0)
            return RNG.integers(low, max(high, low + 1), size=shape_).astype(IDX_DTYPES[dt])

        m = int(RNG.integers(0, 4))
        if kind == "ints":
            index = [Arr(ints(shape[0], lead() + (m,)), dt)]
        elif kind == "slice_ints":
            index = [pick([ALL, Sl(1, None), Sl(None, None, -1)]), Arr(ints(shape[1], lead() + (m,)), dt)]
        elif kind == "pair":
            index = [Arr(ints(shape[0], lead() + (m,)), dt), Arr(ints(shape[1], lead() + (1,)), dt)]
        elif kind == "nd":
            depth = min(rank, 2)
            cols = [ints(shape[j], lead() + (m,)) for j in range(depth)]
            cols = np.broadcast_arrays(*cols)
            index = [Nd(np.stack(cols, axis=-1).astype(IDX_DTYPES[dt]), dt)]
        elif kind == "along":
            axis = int(RNG.integers(-rank, rank))
            ax = axis % rank
            ishape = tuple(int(RNG.integers(0, 4)) if d == ax else pick([shape[d], shape[d], 1]) for d in range(rank))
            index = [Along(ints(shape[ax], lead() + ishape), axis, dt)]
        else:
            mrank = 1 + k % rank
            index = [Mask(RNG.random(lead() + shape[:mrank]) < 0.5)]
        base = target(bshape + shape, dtype, op)
        value = None
        if op not in ("get", "apply"):
            try:
                region = np.empty(shape)[to_numpy([elem_at(e, (0,) * nb) for e in index], shape, "clip")].shape
            except Decided:
                region = ()
            vkind = cycle(["scalar", "full", "onebatch", "inner"], k // 2)
            if kind == "mask" and vkind == "full":
                vkind = "inner"
            value = {
                "scalar": lambda: elems((), dtype, op).item(),
                "full": lambda: elems(bshape + region, dtype, op),
                "onebatch": lambda: elems((1,) * nb + region, dtype, op),
                "inner": lambda: elems(bshape + (1,) * len(region), dtype, op),
            }[vkind]()
        add_batched(base, index, nb, op, value, mode)
    # The batch's own errors, before any batch is indexed.
    x = data((2, 3))
    rows = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    add_batched_error(x, [Arr(rows([0], [1], [2]))], 1, "get", "BatchShape")
    add_batched_error(x, [Arr(rows([0], [1]))], 3, "set", "BatchRank", 0.0)
    add_batched_error(x, [ALL, Arr(rows(0, 1))], 2, "add", "BatchRank", 1.0)
    add_batched_error(x, [Arr(rows([0], [1]))], 1, "set", "BatchShape", np.zeros((3, 1)))
    add_batched_error(x, [Mask(np.array([[True, False, True], [False, False, True]]))], 1, "get", "BatchedMaskRead")
    # An index out of bounds in the last batch only: nothing is written.
    add_batched(x, [Arr(rows([0, 2], [1, 3]))], 1, "add", 1.0)


def add_batched_error(base: np.ndarray, index: list, batch: int, op: str, variant: str, value: Any = None) -> None:
    """A batched case failing on the batch's own rule (which NumPy has no
    word for): the batch axes do not pair, or a read goes through a mask."""
    case = {
        "id": len(CASES),
        "family": "batch",
        "desc": describe(Spec("batch", base, index, op, value), value) + f"; batch={batch}",
        "base": jarray(base),
        "view": [],
        "index": [jelem(e) for e in index],
        "op": op,
        "mode": "error",
        "batch": batch,
        "expect": {"error": variant},
    }
    if value is not None:
        case["value"] = jarray(np.asarray(value, dtype=base.dtype)) if isinstance(value, np.ndarray) else {"scalar": jnum(value)}
    CASES.append(case)


def fam_errors() -> None:
    """Errors, each NumPy's (except those NumPy cannot raise)."""
    f = lambda shape=(3, 4): data(shape)  # noqa: E731
    i = lambda shape=(3, 4): data(shape, "int64")  # noqa: E731
    E = []
    # OutOfBounds
    E += [(f(), [Int(3)]), (f(), [Int(-4)]), (f(), [ALL, Int(4)]), (f(), [arr([0, 3])]), (f(), [ALL, arr([[-5]])])]
    E += [(f(), [arr(np.array([5], np.uint64), "usize")]), (f(), [arr([7], "u32")]), (f(), [nd([[0, 4]])]), (f(), [nd([[-4, 0]], "i32")])]
    E += [(f(), [Arr(np.array(3, np.int64)), ALL]), (f((3, 0)), [ALL, Int(0)]), (f((3, 0)), [ALL, arr([0])]), (f(), [ELL, arr([4])])]
    E += [(f(), [Int(1), arr([0, 1]), ]), (f((2, 3, 4)), [Int(2), ALL, arr([0])]), (f(), [mask([True, False, True]), arr([9])])]
    # TooManyIndices
    E += [(f(), [Int(0), Int(0), Int(0)]), (f(), [ALL, ALL, ALL]), (f(), [mask(np.ones((3, 4, 1), bool))]), (f(), [ALL, nd([[0, 0]])])]
    E += [(data(()), [Int(0)]), (f(), [ELL, Int(0), Int(0), Int(0)]), (f(), [Rg(), Sl(), Arr(np.array(0, np.int64))])]
    # MultipleEllipsis
    E += [(f(), [ELL, ELL]), (f(), [Int(0), ELL, NEW, ELL]), (f(), [ELL, arr([0]), ELL])]
    # ZeroStep
    E += [(f(), [Sl(None, None, 0)]), (f(), [ALL, Sl(1, 2, 0)]), (f(), [Rg(0, None, 0)]), (f(), [arr([0]), Sl(None, None, 0)])]
    # MaskShape
    E += [(f(), [mask([True, False])]), (f(), [mask(np.ones((3, 3), bool))]), (f(), [ALL, mask([True] * 5)]), (f((2, 3, 4)), [Int(0), mask(np.ones((3, 5), bool))])]
    E += [(f(), [mask(np.ones((2, 4), bool))])]
    # IndexBroadcast
    E += [(f(), [arr([0, 1]), arr([0, 1, 2])]), (f(), [arr([[0, 1]]), arr([0, 1, 2])]), (f((2, 3, 4)), [mask([True, True]), arr([0, 1, 2])])]
    E += [(f((3, 4, 5)), [nd([[0, 1], [1, 1], [2, 2]]), arr([0, 1])]), (f((3, 4, 5)), [arr([0, 1]), ALL, arr([0, 1, 2])])]
    # RangeOutOfBounds (decided here: NumPy slices clamp)
    E += [(f(), [Rg(0, 4)]), (f(), [Rg(4)]), (f(), [Rg(-4)]), (f(), [ALL, Rg(2, 6, -1)]), (f(), [Rg(-5, 2)]), (f(), [ELL, Rg(1, 5, 2)])]
    for k, (x, index) in enumerate(E):
        op = cycle(["get", "set", "add", "apply"], k)
        add("errors", x, index, op, "scalar" if op in ("set", "add") else None)
    # Two errors at once: which one is reported (NumPy's order).
    # NumPy checks structure and mask shapes first, then integers and slice
    # steps left to right, then broadcasts the arrays, then their bounds.
    x3 = lambda: f((2, 3, 4))  # noqa: E731
    for x, index in [
        (f(), [Int(9), Sl(None, None, 0)]),
        (f(), [Sl(None, None, 0), Int(9)]),
        (f(), [arr([0, 9]), arr([0, 1, 2])]),
        (f(), [Int(9), mask([True] * 5)]),
        (x3(), [Sl(None, None, 0), mask([True, True])]),
        (x3(), [arr([0, 1]), arr([0, 1, 2]), Int(9)]),
        (x3(), [arr([0, 1]), arr([0, 1, 2]), Sl(None, None, 0)]),
        (x3(), [arr([0, 5]), Sl(None, None, 0)]),
        (x3(), [arr([]), Int(9)]),
        (x3(), [Arr(np.array(9)), arr([])]),
    ]:
        add("errors", x, index, "get")
    # Value shapes: ShapeMismatch, ValueCount
    for op in ("set", "add", "mul"):
        add("errors", f(), [arr([0, 1])], op, "wrong")
        add("errors", f(), [ALL, Int(1)], op, "wrong")
        add("errors", f(), [Sl(3)], op, (2,))
        add("errors", f(), [mask(np.ones((3, 4), bool))], op, "wrongcount")
        add("errors", f(), [mask([[True, False, True, True]] * 3)], op, (2, 9))
        add("errors", f(), [mask([True, False, True])], op, "wrongcount")
        add("errors", f(), [mask([True, False, True]), ELL], op, (3,))
        add("errors", i(), [arr([0, 1, 2]), arr([0])], op, (1, 2, 3))
    # x[mask] = v, the mask covering every axis: a count of values.
    add("errors", data((5,), "int32"), [mask([True, False, True, True, False])], "set", (2,))
    add("errors", data((2, 3, 2)), [mask(np.ones((2, 3, 2), bool))], "set", (11,))
    add("errors", data((3, 4)), [mask(np.zeros((3, 4), bool))], "set", (2,))
    add("errors", data((3, 4)), [mask(np.zeros((3, 4), bool))], "add", (2,))
    add("errors", data((3, 4)), [mask(np.ones((3, 4), bool))], "set", (1, 13))
    # UnsupportedMode: drop on reads, fill on updates.
    add("errors", f(), [arr([0, 9])], "get", mode="drop")
    add("errors", f(), [Int(0)], "get", mode="drop")
    add("errors", f(), [arr([0, 9])], "set", "scalar", mode=("fill", 0.0))
    add("errors", i(), [ALL], "add", "scalar", mode=("fill", 0))
    add("errors", f(), [arr([0, 1])], "apply", mode=("fill", 1.0))
    # clip / wrap on an empty axis.
    add("errors", f((0, 3)), [Int(1)], "get", mode="clip")
    add("errors", f((3, 0)), [ALL, arr([2])], "set", "scalar", mode="wrap")
    # Integer division by zero, negative integer powers.
    add("errors", i((4,)), [arr([0, 1])], "div", 0)
    add("errors", i((4,)), [Sl(None, None, 2)], "div", np.array([3, 0]))
    add("errors", i((2, 4)), [arr([0, 1]), arr([2, 2])], "div", np.array([1, 0]))
    add("errors", i((4,)), [arr([0, 1])], "pow", -1)
    add("errors", i((4,)), [ALL], "pow", np.array([1, 2, -2, 0]))


def rand_mesh_arg(n: int, length: int, dt: str) -> tuple:
    """An argument of `ix_` for an axis of length n: integers of index type
    dt (negative ones for signed types, duplicates likely), or a boolean
    array of length n (dt "bool")."""
    if dt == "bool":
        return (RNG.random(n) < 0.5, "bool")
    return (rand_ints(n, (length,), dt), dt)


def fam_mesh() -> None:
    """`ix_(a, b, ..)`: NumPy's open mesh (`x[np.ix_(a, b)]`), alone and
    beside integers, slices, `...`, new axes and other arrays (its arrays
    are adjacent advanced indices; a basic index between it and another
    array moves the advanced dims first); boolean arguments; every index
    type; duplicates; empty arguments; every mode; views; NumPy's errors."""
    k = 0
    dts = list(IDX_DTYPES) + ["bool"]
    for rank in (2, 3):
        for variant in range(12):
            shape = tuple(int(d) for d in RNG.integers(1, 5, size=rank))
            count = int(RNG.integers(1, rank + 1))
            first = int(RNG.integers(0, rank - count + 1))
            args = [rand_mesh_arg(shape[first + j], int(RNG.integers(0, 4)), cycle(dts, k + j)) for j in range(count)]
            index: list = [rand_basic(n) for n in shape[:first]] + [Mesh(args)] + [rand_basic(n) for n in shape[first + count :]]
            if variant % 4 == 3:
                index.insert(int(RNG.integers(0, len(index) + 1)), NEW)
            dtype = cycle(DTYPES, k)
            op = cycle(ops_for(dtype), k)
            value = pick(["full", "bcast", "scalar", "lead"]) if op not in ("get", "apply") else None
            add("mesh", target(shape, dtype, op), index, op, value)
            k += 1
    # The classic forms, spelled out, on every op.
    x = (3, 4, 5)
    for index in (
        [mesh([2, 0], [3, 1, 1])],
        [Int(1), mesh([3, -1], [0, 4])],
        [mesh([0, 2], [1]), Sl(1, None)],
        [mesh([1], [0, 3], [-1])],
        [mesh([True, False, True], [False, True, True, False])],
        [ELL, mesh([4, 0, 4])],
        [mesh([2, 1]), ALL, arr([0, 4])],
        [arr([0, 1]), mesh([3, 0], [2])],
        [mesh([0, 2], [1, 3]), ELL, Int(-1)],
        [Sl(None, None, -1), mesh(([1, 1], "u32"), ([4, 0], "isize"))],
        [mesh([], [1, 2])],
        [mesh([1], [False, False, False, False])],
        [mesh([2], [3], [4]), NEW],
    ):
        for op in ("get", "set", "add", "max"):
            add("mesh", target(x, "float64", op), index, op, "full" if op != "get" else None)
    # Through views: negative strides, steps, Fortran order.
    for j in range(8):
        bshape = (4, 5)
        steps = rand_view(bshape) if j < 6 else [{"permute": [1, 0]}]
        vshape = apply_view(np.empty(bshape), steps).shape
        args = [rand_mesh_arg(vshape[0], 2, "i64"), rand_mesh_arg(vshape[1], 3, cycle(["usize", "bool"], j))]
        op = cycle(["get", "set", "add", "mul"], j)
        add("mesh", target(bshape, cycle(DTYPES, j), op), [Mesh(args)], op, "bcast" if op != "get" else None, view=steps)
    # Modes: out-of-bounds arguments clipped, wrapped, dropped, filled.
    for j, mode in enumerate(MODES * 2):
        dt = cycle(list(IDX_DTYPES), j)
        op = "get" if mode_name(mode) in ("fill", "clip") and j % 2 == 0 or mode_name(mode) == "fill" else cycle(["set", "add"], j)
        m = mode if isinstance(mode, str) else ("fill", mode[1])
        index = [Mesh([(oob_ints(3, (3,), dt), dt), (oob_ints(4, (2,), dt), dt)])]
        add("mesh", data((3, 4)), index, op, "full" if op != "get" else None, mode=m)
    # Errors: out of bounds (each argument on its own axis, a boolean one
    # longer than its axis), not one-dimensional (NumPy's own check, before
    # the index's), too many indices, a value of the wrong shape.
    for index, op, value in (
        ([mesh([0, 3], [1])], "get", None),
        ([mesh([0], [-5])], "set", "scalar"),
        ([mesh([0], [False, False, False, False, True])], "get", None),
        ([Mesh([(np.array([[0], [1]]), "i64"), (np.array([1]), "i64")])], "get", None),
        ([Mesh([(np.array(1), "i64")])], "set", "scalar"),
        ([Mesh([(np.array([[True, False]]), "bool")])], "get", None),
        ([Int(9), Mesh([(np.array([[0]]), "usize")])], "add", "scalar"),
        ([mesh([0], [1], [2])], "get", None),
        ([ALL, mesh([0], [1])], "set", "scalar"),
        ([mesh([0, 1], [1, 2, 3])], "set", "wrong"),
    ):
        add("mesh", data((3, 4)), index, op, value)


# ---------------------------------------------------------------------------
# NumPy's functions beside indexing: nonzero, argwhere, take, put, place


NP_MODES = {"error": "raise", "clip": "clip", "wrap": "wrap"}


def flat_ints(n: int, shape: tuple, dt: str, wild: bool) -> np.ndarray:
    """Flat indices into n elements: in bounds (negative ones for signed
    types), and when `wild` out of bounds too (NumPy reads an unsigned
    index above i64::MAX as a negative one: none is drawn)."""
    signed = dt in SIGNED_IDX
    pool = list(range(-n if signed else 0, n))
    if wild or not pool:
        pool += [n, n + 1, 3 * n + 2, 100] + ([-n - 1, -2 * n - 3, -100] if signed else [])
    return np.array(RNG.choice(pool, size=shape), dtype=IDX_DTYPES[dt])


def flat_position(i: int, n: int, mode: str) -> int | None:
    """take's and put's rule for one index on n elements (None: out of
    bounds in mode error or drop); clip clamps negative indices to 0."""
    if mode == "wrap":
        return i % n
    if mode == "clip":
        return min(max(i, 0), n - 1)
    return (i + n if i < 0 else i) if -n <= i < n else None


def numpy_function(fn: str, base: np.ndarray, view: list, args: dict) -> dict:
    """NumPy's answer to one call (the whole base after a write), checked
    against an element-by-element model."""
    b = base.copy()
    t = apply_view(b, view)
    mode = args.get("mode", "error")
    positions = apply_view(np.arange(base.size).reshape(base.shape), view).ravel()
    try:
        if fn == "nonzero":
            got = np.nonzero(t)
            model = [tuple(c) for c in np.ndindex(*t.shape) if t[c] != 0]
            assert [tuple(int(a[j]) for a in got) for j in range(len(model))] == model and all(len(a) == len(model) for a in got)
            return {"arrays": [jarray(a.astype(np.uint64), "usize") for a in got]}
        if fn == "argwhere":
            got = np.argwhere(t)
            model = [list(c) for c in np.ndindex(*t.shape) if t[c] != 0]
            assert got.tolist() == model or (got.size == 0 and not any(model)), (got, model)
            return {"array": jarray(got.astype(np.uint64), "usize")}
        # NumPy's put refuses uint64 indices (its safe cast to intp); every
        # index drawn fits an int64 exactly, so NumPy gets them as int64.
        idx = args["indices"].astype(np.int64) if "indices" in args else None
        values = args.get("values")
        if fn == "take":
            got = np.asarray(np.take(t, idx, mode=NP_MODES[mode]))
            flat = t.ravel()
            model = np.array([flat[flat_position(int(i), flat.size, mode)] for i in idx.ravel()], dtype=t.dtype).reshape(idx.shape)
            assert np.array_equal(got, model, equal_nan=t.dtype.kind in "fc") and got.shape == model.shape, (got, model, idx, mode)
            return {"array": jarray(got)}
        out = base.ravel().copy()
        if fn == "put":
            if mode == "drop":
                # Decided (NumPy has no drop): NumPy puts the indices in
                # bounds, each with the value it would have had.
                if values.size and t.size:
                    keep = np.array([flat_position(int(i), t.size, "drop") is not None for i in idx.ravel()], dtype=bool)
                    np.put(t, idx.ravel()[keep], np.resize(values.ravel(), idx.size)[keep])
            else:
                np.put(t, idx, values, mode=NP_MODES[mode])
            if values.size:
                for j, i in enumerate(idx.ravel()):
                    p = flat_position(int(i), t.size, mode)
                    if p is not None:
                        out[positions[p]] = values.ravel()[j % values.size]
        else:
            np.place(t, args["mask"], values)
            taken = 0
            for p, selected in enumerate(args["mask"].ravel()):
                if selected:
                    out[positions[p]] = values.ravel()[taken % values.size]
                    taken += 1
        model = out.reshape(base.shape)
        assert np.array_equal(b, model, equal_nan=b.dtype.kind in "fc"), (b, model)
        return {"array": jarray(b)}
    except (IndexError, ValueError, TypeError) as exc:
        return {"error": error_variant(exc)}


def add_numpy(family: str, fn: str, base: np.ndarray, view: list | None = None, **args: Any) -> None:
    view = list(view or [])
    mode = args.get("mode", "error")
    expect = numpy_function(fn, base, view, args)
    call = {
        "nonzero": "nonzero(x)",
        "argwhere": "argwhere(x)",
        "take": "take(x, {indices})",
        "put": "put(x, {indices}, {values})",
        "place": "place(x, {mask}, {values})",
    }[fn]
    show = lambda a, dt: dt + ((f"({a.item()})" if a.ndim == 0 else str(a.tolist())) if a.size <= 8 else f"<{list(a.shape)}>")  # noqa: E731
    text = call.format(
        indices=show(args["indices"], args["dt"]) if "indices" in args else "",
        values=f"v{list(args['values'].shape)}" if "values" in args else "",
        mask=f"mask{list(args['mask'].shape)}:{int(args['mask'].sum())}" if "mask" in args else "",
    )
    if mode != "error":
        text += f"; mode={mode}"
    text += f"  ({SHORT.get(str(base.dtype), str(base.dtype))} {tuple(base.shape)}"
    if view:
        text += " view " + " ".join(json.dumps(s, separators=(",", ":")) for s in view)
    case = {
        "id": len(CASES),
        "family": family,
        "desc": text + ")",
        "numpy": fn,
        "base": jarray(base),
        "view": view,
        "expect": expect,
    }
    if fn in ("take", "put"):
        case["indices"] = jarray(args["indices"], args["dt"])
        case["mode"] = mode
    if fn == "place":
        case["mask"] = jarray(args["mask"], "bool")
    if fn in ("put", "place"):
        case["values"] = jarray(np.asarray(args["values"], dtype=base.dtype))
    CASES.append(case)


def fam_nonzero() -> None:
    """np.nonzero and np.argwhere: bool, integers, floats (NaN counts, -0.0
    does not), float16, complex (either part); ranks 0 to 4 (np.nonzero
    refuses rank 0, so only argwhere sees it); empty arrays; views."""
    nan = float("nan")
    specials = {
        "float64": [0.0, -0.0, nan, 1.5, float("inf")],
        "float32": [0.0, -0.0, nan, -2.0],
        "float16": [0.0, -0.0, nan, 0.25],
        "complex128": [0j, complex(-0.0, 0.0), complex(0.0, -0.0), 1j, complex(nan, 0.0), 2 + 0j],
        "complex64": [0j, complex(0.0, 1.0), complex(-0.0, -0.0)],
        "int64": [0, 0, 3, -1],
        "int32": [0, 7],
        "bool": [False, True, False],
    }
    k = 0
    for dtype, pool in specials.items():
        for rank in (1, 2, 3, 4):
            shape = tuple(int(d) for d in RNG.integers(1, 4, size=rank))
            base = np.array(RNG.choice(np.array(pool, dtype=object), size=shape).tolist(), dtype=dtype).reshape(shape)
            view = rand_view(shape) if k % 3 == 1 else ([{"permute": list(range(rank))[::-1]}] if k % 3 == 2 and rank > 1 else [])
            add_numpy("nonzero", cycle(["nonzero", "argwhere"], k), base, view)
            add_numpy("nonzero", cycle(["argwhere", "nonzero"], k), base, view)
            k += 1
    for dtype in ("float64", "int32", "bool"):
        add_numpy("nonzero", "argwhere", np.array(1, dtype=dtype))
        add_numpy("nonzero", "argwhere", np.array(0, dtype=dtype))
        for fn in ("nonzero", "argwhere"):
            add_numpy("nonzero", fn, np.zeros((2, 0, 3), dtype=dtype))
            add_numpy("nonzero", fn, np.zeros((3, 2), dtype=dtype))


def fam_take() -> None:
    """np.take with no axis: the array flattened in C order (views with
    negative strides and steps, Fortran order), indices of every index
    type and of ranks 0 to 3, duplicates, every mode (clip clamps a
    negative index to 0), empty arrays and indices, NumPy's errors."""
    k = 0
    dtypes = DTYPES + ["float16", "complex128", "complex64"]
    for variant in range(36):
        dtype = cycle(dtypes, k)
        shape = tuple(int(d) for d in RNG.integers(1, 5, size=int(RNG.integers(1, 4))))
        view = [[], rand_view(shape), [{"permute": list(range(len(shape)))[::-1]}]][variant % 3]
        n = int(np.prod(apply_view(np.empty(shape), view).shape))
        dt = cycle(list(IDX_DTYPES), k)
        mode = cycle(["error", "clip", "wrap"], variant // 3)
        ishape = [(), (5,), (2, 3), (2, 1, 2)][variant % 4]
        idx = flat_ints(n, ishape, dt, mode != "error" or variant % 7 == 6)
        add_numpy("take", "take", data(shape, dtype), view, indices=idx, dt=dt, mode=mode)
        k += 1
    x = lambda: data((2, 3))  # noqa: E731
    for idx, dt, mode in (
        ([5, -6, 0, 0], "i64", "error"),
        ([6], "i64", "error"),
        ([-7], "isize", "error"),
        ([-1, -6, -7, 6, 100], "i64", "clip"),
        ([-1, -6, -7, 6, 100], "i32", "wrap"),
        ([], "usize", "error"),
        ([[0, 5], [6, 1]], "u64", "error"),
    ):
        add_numpy("take", "take", x(), indices=np.array(idx, dtype=IDX_DTYPES[dt]), dt=dt, mode=mode)
    for mode in ("error", "clip", "wrap"):
        add_numpy("take", "take", data((0, 3)), indices=np.array([0], dtype=np.int64), dt="i64", mode=mode)
        add_numpy("take", "take", data((0, 3)), indices=np.zeros((2, 0), dtype=np.int64), dt="i64", mode=mode)
        add_numpy("take", "take", data(()), indices=np.array([0, -1, 1], dtype=np.int64), dt="i64", mode=mode)


def fam_put() -> None:
    """np.put: the array flattened in C order (writes through views with
    negative strides and steps, Fortran order), values cycled or cut,
    duplicates (the last write stays), every mode (clip clamps a negative
    index to 0; drop is tensor-at's), empty arrays, indices and values,
    NumPy's errors (nothing written)."""
    k = 0
    dtypes = DTYPES + ["float16", "complex128"]
    for variant in range(40):
        dtype = cycle(dtypes, k)
        shape = tuple(int(d) for d in RNG.integers(1, 5, size=int(RNG.integers(1, 4))))
        view = [[], rand_view(shape), [{"permute": list(range(len(shape)))[::-1]}]][variant % 3]
        n = int(np.prod(apply_view(np.empty(shape), view).shape))
        dt = cycle(list(IDX_DTYPES), k)
        mode = cycle(["error", "clip", "wrap", "drop"], variant // 3)
        ishape = [(), (6,), (2, 3), (3, 1)][variant % 4]
        idx = flat_ints(n, ishape, dt, mode != "error" or variant % 7 == 6)
        count = int(np.prod(ishape))
        vshape = [(count,), (1,), (max(count - 1, 1),), (count + 2,), (1, 2)][variant % 5]
        add_numpy("put", "put", data(shape, dtype), view, indices=idx, dt=dt, values=elems(vshape, dtype, "set"), mode=mode)
        k += 1
    x = lambda: data((2, 3))  # noqa: E731
    v = lambda *a: np.array(a, dtype=np.float64)  # noqa: E731
    for idx, values, mode in (
        ([0, 0, 0], v(1, 2, 3), "error"),        # duplicates: the last stays
        ([1, 6], v(1, 2), "error"),              # out of bounds: nothing written
        ([5, -7], v(1, 2), "error"),
        ([9], v(), "error"),                     # no values: nothing, no check
        ([0, 1, 2, 3, 4, 5], v(7, 8), "error"),  # cycled
        ([-1, -7, 6, 50], v(1, 2, 3, 4), "clip"),
        ([-1, -7, 6, 50], v(1, 2, 3, 4), "wrap"),
        ([-1, -7, 6, 50], v(1, 2, 3, 4), "drop"),
        ([], v(1), "error"),
    ):
        add_numpy("put", "put", x(), indices=np.array(idx, dtype=np.int64), dt="i64", values=values, mode=mode)
    for mode in ("error", "clip", "wrap", "drop"):
        add_numpy("put", "put", data((0, 2)), indices=np.array([0], dtype=np.int64), dt="i64", values=v(1), mode=mode)
        add_numpy("put", "put", data((0, 2)), indices=np.array([0], dtype=np.int64), dt="i64", values=v(), mode=mode)
        add_numpy("put", "put", data((0, 2)), indices=np.zeros(0, dtype=np.int64), dt="i64", values=v(1), mode=mode)


def fam_place() -> None:
    """np.place: a mask of the array's size (any shape: NumPy compares
    sizes) picks elements in C order (writes through views), values cycled
    or cut; NumPy's errors: another size, no values for a true element."""
    k = 0
    dtypes = DTYPES + ["float16", "complex64"]
    for variant in range(30):
        dtype = cycle(dtypes, k)
        shape = tuple(int(d) for d in RNG.integers(1, 5, size=int(RNG.integers(1, 4))))
        view = [[], rand_view(shape), [{"permute": list(range(len(shape)))[::-1]}]][variant % 3]
        vshape = apply_view(np.empty(shape), view).shape
        n = int(np.prod(vshape))
        mshape = [vshape, (n,), (1, n)][variant % 3]
        m = RNG.random(mshape) < [0.5, 0.0, 1.0, 0.3][variant % 4]
        count = int(m.sum())
        values = elems([(max(count, 1),), (1,), (count + 3,), (2, 2)][variant % 4], dtype, "set")
        add_numpy("place", "place", data(shape, dtype), view, mask=m, values=values)
        k += 1
    x = lambda: data((2, 3))  # noqa: E731
    v = lambda *a: np.array(a, dtype=np.float64)  # noqa: E731
    for m, values in (
        (np.ones(5, dtype=bool), v(1)),                      # another size
        (np.ones((3, 2), dtype=bool), v(1, 2)),              # another shape, the same size
        (np.array([True] + [False] * 5), v()),               # no values for a true element
        (np.zeros(6, dtype=bool), v()),                      # no values, nothing selected
        (np.ones((2, 4), dtype=bool), v()),                  # the size first
    ):
        add_numpy("place", "place", x(), mask=m, values=values)
    add_numpy("place", "place", data(()), mask=np.array(True), values=v(4))
    add_numpy("place", "place", data((0, 3)), mask=np.zeros((3, 0), dtype=bool), values=v())


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
    for family in (
        fam_ints,
        fam_pyslice,
        fam_range,
        fam_ellipsis_newaxis,
        fam_int_arrays,
        fam_masks,
        fam_nd,
        fam_along,
        fam_batch,
        fam_zero_d,
        fam_combined,
        fam_ops,
        fam_modes,
        fam_views,
        fam_values,
        fam_ranks,
        fam_special,
        fam_errors,
        fam_narrow_index_types,
        fam_rem_bitwise,
        fam_half,
        fam_complex,
        # Last, so that the cases above keep their ids and values.
        fam_mesh,
        fam_nonzero,
        fam_take,
        fam_put,
        fam_place,
    ):
        family()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as fh:
        json.dump({"numpy": np.__version__, "seed": SEED, "cases": CASES}, fh, separators=(",", ":"))
        fh.write("\n")
    errors = sum("error" in c["expect"] for c in CASES)
    families: dict[str, int] = {}
    for c in CASES:
        families[c["family"]] = families.get(c["family"], 0) + 1
    print(f"wrote {len(CASES)} cases ({errors} errors) to {out}: {families}")


if __name__ == "__main__":
    main()
