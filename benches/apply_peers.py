#!/usr/bin/env python3
"""The peers' side of benches/apply.rs: NumPy's `np.negative.at` and JAX's
`x.at[idx].apply(f)` (jitted, x donated, in 64 bits) on the bench's
inputs, float64 arrays and its four index arrays, drawn the same way.

    python3 benches/apply_peers.py

Needs NumPy and JAX (`scripts/bench` builds a virtual environment holding
both). Prints the median and the least of the timed runs, in µs.
"""

import time

import numpy as np

M = 1 << 20
MASK = (1 << 64) - 1


def drawn(count, length):
    """The bench's `drawn`: a linear congruential stream from 0x5EED."""
    state, out = 0x5EED, np.empty(count, dtype=np.int64)
    for k in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        out[k] = (state >> 33) % length
    return out


def distinct(length):
    """The bench's `distinct`: every index once, 7,919 apart."""
    return np.arange(length, dtype=np.int64) * 7919 % length


def timed(label, run, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    print(f"{label:<44} median {times[repeat // 2]:12.2f} µs  least {times[0]:12.2f} µs")


def main():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    apply = jax.jit(lambda x, idx: x.at[idx].apply(lambda e: e * 0.5 + 1.0), donate_argnums=0)
    cases = [
        ("16 drawn of 64", 64, drawn(16, 64)),
        ("1000 drawn of 1M", M, drawn(1000, M)),
        ("1M distinct of 1M", M, distinct(M)),
        ("1M drawn of 1M", M, drawn(M, M)),
    ]
    for name, length, idx in cases:
        x = np.arange(length, dtype=np.float64)
        repeat = 21 if idx.size > 10_000 else 201
        timed(f"numpy negative.at {name}", lambda: np.negative.at(x, idx), repeat)
        state = {"x": jnp.asarray(x)}
        device_idx = jnp.asarray(idx)

        def run():
            state["x"] = apply(state["x"], device_idx)
            state["x"].block_until_ready()

        run()
        timed(f"jax .at[].apply {name}", run, repeat)


if __name__ == "__main__":
    main()
