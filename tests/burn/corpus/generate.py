#!/usr/bin/env python3
"""JAX's gradients of indexed reads and updates, for the burn tests
(tests/burn/tests/gradients.rs).

Usage: python tests/burn/corpus/generate.py [OUT_PATH]
OUT_PATH defaults to tests/burn/corpus/gradients.json, which is committed,
so that the tests need nothing but Rust. Deterministic for a given JAX (its
version is recorded), in float64.

Each case is one macro form of the Rust test (its "form"), with its data:

  form    which call: see FORMS below (the Rust test holds the same table)
  x       the target: {"shape": [...], "data": [...]}
  index   the form's index data: integer arrays as {"shape", "data"}, a
          mask as {"shape", "data"} of booleans
  value   the update's value (absent for reads)
  ct      the cotangent of the result
  out     the result, as JAX computes it
  dx, dv  jax.vjp of the result with respect to x and to the value

JAX leaves some gradients undefined or refuses them: the gradient of `set`
with repeated indices, and of `mul`, `div` and `pow` with repeated indices.
For those the reference applies the occurrences one at a time, in index
order (x.at[i0].mul(v0).at[i1].mul(v1)...), each a scatter JAX
differentiates: the last occurrence of a `set` wins and alone gets its
gradient, and a product gets the product rule. `min` and `max` are JAX's
own scatter, whose gradient shares a tie equally among the operand and
every tied update.
"""

import json
import sys

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

SEED = 20261128


def array(a):
    a = np.asarray(a)
    data = a.ravel().tolist()
    return {"shape": list(a.shape), "data": data}


def sequential(x, idx, v, op):
    """x.at[i0].op(v0).at[i1].op(v1)... over the leading axis of idx."""
    for k in range(len(idx)):
        x = getattr(x.at[idx[k]], op)(v[k])
    return x


def one_d(op):
    """x[idx] op= v on a 1-D target, idx with repeats."""

    def call(x, index, v):
        (idx,) = index
        if op in ("set", "multiply", "divide", "power"):
            return sequential(x, idx, v, op)
        return getattr(x.at[idx], op)(v)

    return call


def mixed(op):
    """x[1:, idx] op= v on a 2-D target: a slice beside an index array."""

    def call(x, index, v):
        (idx,) = index
        if op in ("set", "multiply"):
            for k in range(len(idx)):
                x = getattr(x.at[1:, idx[k]], op)(v[:, k])
            return x
        return getattr(x.at[1:, idx], op)(v)

    return call


FORMS = {
    # form: (call, read?)
    "get": (lambda x, index, v: x[index[0]], True),
    "set": (one_d("set"), False),
    "add": (one_d("add"), False),
    "sub": (lambda x, index, v: x.at[index[0]].add(-v), False),
    "mul": (one_d("multiply"), False),
    "div": (one_d("divide"), False),
    "pow": (one_d("power"), False),
    "min": (one_d("min"), False),
    "max": (one_d("max"), False),
    "get_mixed": (lambda x, index, v: x[1:, index[0]], True),
    "set_mixed": (mixed("set"), False),
    "add_mixed": (mixed("add"), False),
    "mul_mixed": (mixed("multiply"), False),
    "get_mask": (lambda x, index, v: x[index[0]], True),
    "set_mask": (lambda x, index, v: x.at[index[0]].set(v), False),
    "mul_mask": (lambda x, index, v: x.at[index[0]].multiply(v, unique_indices=True), False),
    "get_along": (lambda x, index, v: jnp.take_along_axis(x, index[0], axis=1), True),
    "add_along": (
        lambda x, index, v: x.at[jnp.arange(x.shape[0])[:, None], index[0]].add(v),
        False,
    ),
    "get_nd": (lambda x, index, v: x[tuple(index[0].T)], True),
    "max_nd": (lambda x, index, v: x.at[tuple(index[0].T)].max(v), False),
    "get_clip": (lambda x, index, v: x.at[index[0]].get(mode="clip"), True),
    "get_fill": (lambda x, index, v: x.at[index[0]].get(mode="fill", fill_value=-1.5), True),
    "add_drop": (lambda x, index, v: x.at[index[0]].add(v, mode="drop"), False),
    "get_batch": (lambda x, index, v: jax.vmap(lambda xb, ib: xb[ib])(x, index[0]), True),
    "add_batch": (
        lambda x, index, v: jax.vmap(lambda xb, ib, vb: xb.at[ib].add(vb))(x, index[0], v),
        False,
    ),
    # Whole rows of a 2-D target, indices repeated.
    "get_rows": (lambda x, index, v: x[index[0]], True),
    "set_rows": (lambda x, index, v: sequential(x, index[0], v, "set"), False),
    "add_rows": (lambda x, index, v: x.at[index[0]].add(v), False),
    "mul_rows": (lambda x, index, v: sequential(x, index[0], v, "multiply"), False),
    "max_rows": (lambda x, index, v: x.at[index[0]].max(v), False),
    # Views: basic indexes, negative steps and a selected axis.
    "get_view": (lambda x, index, v: x[1:, ::-2], True),
    "set_view": (lambda x, index, v: x.at[1:, ::-2].set(v), False),
    "mul_view": (lambda x, index, v: x.at[1:, ::-2].multiply(v), False),
    "max_view": (lambda x, index, v: x.at[1:, ::-2].max(v), False),
    "add_view": (lambda x, index, v: x.at[::-1, 2].add(v), False),
    # Distinct indices, promised so (`unique(&idx)`, JAX's unique_indices).
    "set_unique": (lambda x, index, v: x.at[index[0]].set(v, unique_indices=True), False),
    "mul_unique": (lambda x, index, v: x.at[index[0]].multiply(v, unique_indices=True), False),
    "max_unique": (lambda x, index, v: x.at[index[0]].max(v, unique_indices=True), False),
    "set_rows_unique": (lambda x, index, v: x.at[index[0]].set(v, unique_indices=True), False),
}


def quarters(rng, shape, low=-8, high=8):
    """Values that are multiples of 0.25: sums and products stay exact."""
    return rng.integers(low, high, size=shape).astype(np.float64) / 4


def case(rng, form):
    """One case of `form`: its data, JAX's result and gradients."""
    read = FORMS[form][1]
    v = None
    if form in ("get", "set", "add", "sub", "mul", "div", "pow", "min", "max"):
        n = int(rng.integers(4, 8))
        x = quarters(rng, (n,))
        m = int(rng.integers(3, 7))
        idx = rng.integers(0, n, size=m)
        idx[-1] = idx[0]  # at least one repeat
        v = quarters(rng, (m,))
        if form in ("min", "max"):
            # Ties: some values equal to the target's element or to each other.
            v[1] = x[idx[1]]
            v[-1] = v[0]
        if form == "div":
            v[v == 0] = 0.5
        if form == "pow":
            x = np.abs(x) + 0.5
            v = rng.integers(0, 4, size=m).astype(np.float64) / 2
        if form == "mul":
            v[int(rng.integers(0, m))] = 0.0
        index = [idx]
    elif form.endswith("_mixed"):
        x = quarters(rng, (3, 5))
        idx = np.array([4, 0, 4, 2])
        v = quarters(rng, (2, 4))
        index = [idx]
    elif form.endswith("_mask"):
        x = quarters(rng, (3, 4))
        mask = rng.random((3, 4)) < 0.5
        v = quarters(rng, (int(mask.sum()),))
        index = [mask]
    elif form.endswith("_along"):
        x = quarters(rng, (3, 5))
        idx = rng.integers(0, 5, size=(3, 4))
        idx[:, -1] = idx[:, 0]
        v = quarters(rng, (3, 4))
        index = [idx]
    elif form.endswith("_nd"):
        x = quarters(rng, (3, 4))
        idx = np.stack([rng.integers(0, 3, size=5), rng.integers(0, 4, size=5)], axis=1)
        idx[-1] = idx[0]
        v = quarters(rng, (5,))
        v[-1] = v[0]
        index = [idx]
    elif form in ("get_clip", "get_fill", "add_drop"):
        x = quarters(rng, (6,))
        idx = np.array([7, 2, -1, 9, 2])
        if form == "get_clip":
            idx = np.array([7, 2, 5, 0, 2])  # NumPy's clip: negatives clip to 0
            idx_jax = np.clip(idx, 0, 5)
        v = quarters(rng, (5,))
        index = [idx]
    elif form.endswith("_rows"):
        x = quarters(rng, (5, 3))
        m = int(rng.integers(3, 6))
        idx = rng.integers(0, 5, size=m)
        idx[-1] = idx[0]
        v = quarters(rng, (m, 3))
        if form == "max_rows":
            v[1] = x[idx[1]]
            v[-1] = v[0]
        if form == "mul_rows":
            v[int(rng.integers(0, m)), 1] = 0.0
        index = [idx]
    elif form.endswith("_unique"):
        rows = form == "set_rows_unique"
        n = 5 if rows else int(rng.integers(6, 9))
        x = quarters(rng, (n, 3) if rows else (n,))
        m = int(rng.integers(3, 6))
        idx = rng.permutation(n)[:m]
        v = quarters(rng, (m, 3) if rows else (m,))
        if form == "mul_unique":
            v[int(rng.integers(0, m))] = 0.0
        if form == "max_unique":
            v[1] = x[idx[1]]  # a tie with the target's element
        index = [idx]
    elif form.endswith("_view"):
        x = quarters(rng, (4, 5))
        v = quarters(rng, (3, 3) if form != "add_view" else (4,))
        if form == "max_view":
            v[0, 1] = x[1, 2]
        if form == "mul_view":
            v[1, 1] = 0.0
        index = []
    else:  # batch
        x = quarters(rng, (3, 5))
        idx = rng.integers(0, 5, size=(3, 4))
        idx[:, -1] = idx[:, 0]
        v = quarters(rng, (3, 4))
        index = [idx]

    call = FORMS[form][0]
    jindex = [jnp.asarray(i) for i in index]
    if form == "get_clip":
        jindex = [jnp.asarray(idx_jax)]
    if read:
        out, vjp = jax.vjp(lambda x: call(x, jindex, None), jnp.asarray(x))
        ct = quarters(rng, out.shape)
        (dx,) = vjp(jnp.asarray(ct))
        dv = None
    else:
        out, vjp = jax.vjp(lambda x, v: call(x, jindex, v), jnp.asarray(x), jnp.asarray(v))
        ct = quarters(rng, out.shape)
        dx, dv = vjp(jnp.asarray(ct))
    result = {
        "form": form,
        "x": array(x),
        "index": [array(i) for i in index],
        "ct": array(ct),
        "out": array(out),
        "dx": array(dx),
    }
    if v is not None and not read:
        result["value"] = array(v)
        result["dv"] = array(dv)
    return result


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "tests/burn/corpus/gradients.json"
    rng = np.random.default_rng(SEED)
    cases = [case(rng, form) for form in FORMS for _ in range(4)]
    with open(out_path, "w") as f:
        json.dump({"jax": jax.__version__, "seed": SEED, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
