#!/usr/bin/env python3
"""Writes the two user crates scripts/compile-time.sh builds and times.

    python3 scripts/compile-time/gen.py OUT_DIR TENSOR_AT_PATH [LOCK_FILE]

OUT_DIR/macros:   `ct-macros`, 100 `at!`/`set!` calls (tensor-at + ndarray).
OUT_DIR/by-hand:  `ct-by-hand`, the same work written with ndarray alone
                  (`slice_mut(s![..])`, `fill`, `assign`, `mapv_inplace`,
                  `select`, `Zip` and loops over indices).

The templates cover the forms of the small-call matrix (benches/instructions):
an element, a row, regions with negative and stepped slices, `...` and
`None`, index arrays (four index types), literal lists, masks, comparisons and
their combinations, `along` and `nd`; reads, `=`, `op=`, `.max()` and `set!`;
values that are scalars, owned arrays, views and expressions.

Each case is a template instantiated for two of the four element types (f32,
f64, i32, i64), on an array of rank 1, 2 or 3; each instance is one function
in src/t_<type>.rs. `main` calls every function and prints a checksum (an
FNV-style hash of the bits of every result and every final array, shapes
included): both crates must print the same one. The first function of
src/t_f64.rs holds a line `std::hint::black_box(0u32); // EDIT-MARKER`
that the script rewrites for its incremental rebuilds.

Also writes OUT_DIR/calls.txt: the number of macro calls. Python 3 stdlib only.
"""

import os
import re
import shutil
import sys

TYPES = ["f32", "f64", "i32", "i64"]
SHAPES = {1: "8", 2: "(4, 5)", 3: "(3, 4, 5)"}

# (rank, at!/set! code, ndarray code). `x` is the case's array (mutable, of
# the rank given, built by arrN_TY(seed)); `h` the running hash. In both
# codes: TY is the element type, L(n) the literal n of that type (`-2.0f32`,
# `3i64`), AN(s) a fresh rank-N array. Every template has exactly one macro
# call; the wrapper hashes `x` after the body.
TEMPLATES = [
    # ---- rank 1: x has 8 elements --------------------------------------
    (1, "at!(x[1:7:2] = L(3));",
        "x.slice_mut(s![1..7;2]).fill(L(3));"),
    (1, "let idx = Array1::from(vec![0usize, 2, 2, 7]);\n"
        "at!(x[idx] += L(2));",
        "let idx = Array1::from(vec![0usize, 2, 2, 7]);\n"
        "for &i in idx.iter() {\n    x[i] += L(2);\n}"),
    (1, "let i = [1usize, 3, 3];\nlet v = array![L(4), L(-3), L(5)];\n"
        "at!(x[i].max(v));",
        "let i = [1usize, 3, 3];\nlet v = array![L(4), L(-3), L(5)];\n"
        "for (k, &j) in i.iter().enumerate() {\n"
        "    if v[k] > x[j] {\n        x[j] = v[k];\n    }\n}"),
    (1, "at!(x[[1, 9]] = L(3); mode = clip);",
        "for &i in &[1usize, 9] {\n    x[i.min(7)] = L(3);\n}"),
    (1, "let idx = vec![-1i64, 0, -3];\nat!(x[idx] = L(4));",
        "let idx = vec![-1i64, 0, -3];\nfor &i in &idx {\n"
        "    let j = if i < 0 { (8 + i) as usize } else { i as usize };\n"
        "    x[j] = L(4);\n}"),
    (1, "at!(x[1:] = x[:-1]);",
        "let t = x.slice(s![..-1]).to_owned();\nx.slice_mut(s![1..]).assign(&t);"),
    (1, "let r = at!(x[::-2]);\nhash(h, &r);",
        "let r = x.slice(s![..;-2]);\nhash(h, &r);"),
    (1, "let y = A1(3);\nat!(x[2:5] += &y.slice(s![..3]) * L(2));",
        "let y = A1(3);\nlet t = &y.slice(s![..3]) * L(2);\n"
        "let mut r = x.slice_mut(s![2..5]);\nr += &t;"),
    (1, "at!(x[-3:] -= L(1));",
        "x.slice_mut(s![-3..]).mapv_inplace(|v| v - L(1));"),
    (1, "let r = at!(x[[0, 20, -1]]; mode = clip);\nhash(h, &r);",
        "let r = x.select(Axis(0), &[0, 7, 7]);\nhash(h, &r);"),
    (1, "at!(x[x > L(0)] = L(-1));",
        "x.mapv_inplace(|v| if v > L(0) { L(-1) } else { v });"),
    (1, "let y = set!(x[[0, 5]] += L(6));\nhash(h, &y);",
        "let mut y = x.clone();\nfor &i in &[0usize, 5] {\n    y[i] += L(6);\n}\n"
        "hash(h, &y);"),
    (1, "at!(x[[2, 11, 3]] *= L(2); mode = drop);",
        "for &i in &[2usize, 11, 3] {\n    if i < 8 {\n        x[i] *= L(2);\n    }\n}"),
    (1, "let m = x.mapv(|v| v > L(1));\nlet r = at!(x[m]);\nhash(h, &r);",
        "let m = x.mapv(|v| v > L(1));\n"
        "let r: Array1<TY> = x.iter().zip(m.iter()).filter(|p| *p.1).map(|p| *p.0).collect();\n"
        "hash(h, &r);"),
    (1, "let e: TY = at!(x[-2]);\nhash_s(h, e);",
        "let e: TY = x[6];\nhash_s(h, e);"),
    # ---- rank 2: x is 4 x 5 --------------------------------------------
    (2, "at!(x[:, 1:4:2] = L(1));",
        "x.slice_mut(s![.., 1..4;2]).fill(L(1));"),
    (2, "let r = at!(x[[0, 2], 1:3]);\nhash(h, &r);",
        "let r = x.select(Axis(0), &[0, 2]);\nhash(h, &r.slice(s![.., 1..3]));"),
    (2, "let y = set!(x[1, :] = L(0));\nhash(h, &y);",
        "let mut y = x.clone();\ny.slice_mut(s![1, ..]).fill(L(0));\nhash(h, &y);"),
    (2, "let v = Array1::from(vec![L(1), L(2), L(3), L(4), L(5)]);\nat!(x[2, :] = v);",
        "let v = Array1::from(vec![L(1), L(2), L(3), L(4), L(5)]);\n"
        "x.slice_mut(s![2, ..]).assign(&v);"),
    (2, "let cols = Array1::from(vec![4isize, -5, 4]);\nat!(x[:, cols] += L(1));",
        "let cols = Array1::from(vec![4isize, -5, 4]);\nfor &c in cols.iter() {\n"
        "    let j = if c < 0 { (5 + c) as usize } else { c as usize };\n"
        "    x.column_mut(j).mapv_inplace(|v| v + L(1));\n}"),
    (2, "at!(x[[0, 3], [1, 4]] = L(7));",
        "for (&i, &j) in [0usize, 3].iter().zip(&[1usize, 4]) {\n    x[[i, j]] = L(7);\n}"),
    (2, "let e: TY = at!(x[1, -1]);\nhash_s(h, e);",
        "let e: TY = x[[1, 4]];\nhash_s(h, e);"),
    (2, "at!(x[(x > L(-2)) & (x < L(3))] += L(10));",
        "x.mapv_inplace(|v| if v > L(-2) && v < L(3) { v + L(10) } else { v });"),
    (2, "let rows = vec![1usize, 1, 3];\nlet v = A2(3).slice(s![..3, ..]).to_owned();\n"
        "at!(x[rows] -= v);",
        "let rows = vec![1usize, 1, 3];\nlet v = A2(3).slice(s![..3, ..]).to_owned();\n"
        "for (k, &r) in rows.iter().enumerate() {\n    let mut row = x.row_mut(r);\n"
        "    row -= &v.row(k);\n}"),
    (2, "at!(x[.., 1..3] *= L(2));",
        "x.slice_mut(s![.., 1..3]).mapv_inplace(|v| v * L(2));"),
    (2, "let r = at!(x[None, 1, ..]);\nhash(h, &r);",
        "let r = x.slice(s![NewAxis, 1, ..]);\nhash(h, &r);"),
    (2, "let idx = array![[2usize], [0], [4], [1]];\nlet r = at!(x[along(idx, 1)]);\nhash(h, &r);",
        "let idx = array![[2usize], [0], [4], [1]];\n"
        "let r = Array2::from_shape_fn((4, 1), |(i, j)| x[[i, idx[[i, j]]]]);\nhash(h, &r);"),
    (2, "at!(x[[-1, 7], 2] += L(1); mode = clip);",
        "for &i in &[-1i64, 7] {\n"
        "    let j = if i < 0 { (4 + i) as usize } else { (i as usize).min(3) };\n"
        "    x[[j, 2]] += L(1);\n}"),
    (2, "at!(x[:, [true, false, true, false, true]] = L(0));",
        "for (j, &b) in [true, false, true, false, true].iter().enumerate() {\n"
        "    if b {\n        x.column_mut(j).fill(L(0));\n    }\n}"),
    (2, "let y = A2(7);\nat!(x[y > L(2)] -= L(1));",
        "let y = A2(7);\n"
        "Zip::from(&mut x).and(&y).for_each(|a, &b| {\n    if b > L(2) {\n        *a -= L(1);\n    }\n});"),
    (2, "let r = at!(x[x < L(0)]);\nhash(h, &r);",
        "let r: Array1<TY> = x.iter().filter(|&&v| v < L(0)).copied().collect();\nhash(h, &r);"),
    (2, "let y = set!(x[x != L(0)] *= L(2));\nhash(h, &y);",
        "let mut y = x.clone();\ny.mapv_inplace(|v| if v != L(0) { v * L(2) } else { v });\n"
        "hash(h, &y);"),
    (2, "let idx = Array1::from(vec![3i32, 0]);\nlet r = at!(x[idx]);\nhash(h, &r);",
        "let idx = Array1::from(vec![3i32, 0]);\n"
        "let i: Vec<usize> = idx.iter().map(|&i| i as usize).collect();\n"
        "let r = x.select(Axis(0), &i);\nhash(h, &r);"),
    (2, "at!(x[..., 0] = x[..., 4]);",
        "let t = x.slice(s![.., 4]).to_owned();\nx.slice_mut(s![.., 0]).assign(&t);"),
    (2, "at!(x[x < L(0)].max(L(-2)));",
        "x.mapv_inplace(|v| if v < L(0) && L(-2) > v { L(-2) } else { v });"),
    # ---- rank 3: x is 3 x 4 x 5 ----------------------------------------
    (3, "let r = at!(x[..., 2]);\nhash(h, &r);",
        "let r = x.slice(s![.., .., 2]);\nhash(h, &r);"),
    (3, "at!(x[1, :, 1:] *= L(2));",
        "x.slice_mut(s![1, .., 1..]).mapv_inplace(|v| v * L(2));"),
    (3, "let row = Array1::from_shape_fn(5, |k| k as TY);\nat!(x[:, 1] = row);",
        "let row = Array1::from_shape_fn(5, |k| k as TY);\n"
        "x.slice_mut(s![.., 1, ..]).assign(&row);"),
    (3, "at!(x[[0, 2], :, [1, 3]] = L(5));",
        "for (&i, &k) in [0usize, 2].iter().zip(&[1usize, 3]) {\n"
        "    x.slice_mut(s![i, .., k]).fill(L(5));\n}"),
    (3, "let r = at!(x[1, [3, 0], 1:4:2]);\nhash(h, &r);",
        "let r = x.slice(s![1, .., 1..4;2]).select(Axis(0), &[3, 0]);\nhash(h, &r);"),
    (3, "let c = array![[0usize, 1], [2, 3], [1, 0]];\nat!(x[nd(c)] += L(1));",
        "let c = array![[0usize, 1], [2, 3], [1, 0]];\nfor p in c.rows() {\n"
        "    x.slice_mut(s![p[0], p[1], ..]).mapv_inplace(|v| v + L(1));\n}"),
    (3, "let idx = array![2usize, 0, 2];\nat!(x[idx, 1, 1:3] += L(1));",
        "let idx = array![2usize, 0, 2];\nfor &i in idx.iter() {\n"
        "    x.slice_mut(s![i, 1, 1..3]).mapv_inplace(|v| v + L(1));\n}"),
    (3, "at!(x[[0, 5], 1, 1] = L(9); mode = drop);",
        "for &i in &[0usize, 5] {\n    if i < 3 {\n        x[[i, 1, 1]] = L(9);\n    }\n}"),
    (3, "let v = Array2::from_shape_fn((2, 5), |(i, k)| (i * 5 + k) as TY - L(4));\n"
        "at!(x[0, [2, 0]].max(v));",
        "let v = Array2::from_shape_fn((2, 5), |(i, k)| (i * 5 + k) as TY - L(4));\n"
        "for (r, &j) in [2usize, 0].iter().enumerate() {\n"
        "    Zip::from(x.slice_mut(s![0, j, ..])).and(v.row(r)).for_each(|a, &b| {\n"
        "        if b > *a {\n            *a = b;\n        }\n    });\n}"),
    (3, "let r = at!(x[x > L(3)]);\nhash(h, &r);",
        "let r: Array1<TY> = x.iter().filter(|&&v| v > L(3)).copied().collect();\nhash(h, &r);"),
    (3, "at!(x[x == L(0)] = L(2));",
        "x.mapv_inplace(|v| if v == L(0) { L(2) } else { v });"),
    (3, "let r = at!(x[-1, ..., None]);\nhash(h, &r);",
        "let r = x.slice(s![-1, .., .., NewAxis]);\nhash(h, &r);"),
    (3, "let y = set!(x[[1, 1], 2:, -1] += L(3));\nhash(h, &y);",
        "let mut y = x.clone();\nfor &i in &[1usize, 1] {\n"
        "    y.slice_mut(s![i, 2.., -1]).mapv_inplace(|v| v + L(3));\n}\nhash(h, &y);"),
    (3, "let mask = x.mapv(|v| v % L(2) == L(0));\nat!(x[mask] += L(1));",
        "let mask = x.mapv(|v| v % L(2) == L(0));\n"
        "Zip::from(&mut x).and(&mask).for_each(|a, &m| {\n    if m {\n        *a += L(1);\n    }\n});"),
    (3, "let y = A2(4).slice(s![..2, ..3]).to_owned();\nat!(x[1, 2:, 2:] += y);",
        "let y = A2(4).slice(s![..2, ..3]).to_owned();\n"
        "let mut r = x.slice_mut(s![1, 2.., 2..]);\nr += &y;"),
]

EDIT_MARKER = "std::hint::black_box(0u32); // EDIT-MARKER"


def literal(ty, n):
    return f"{n}.0{ty}" if ty.startswith("f") else f"{n}{ty}"


def instantiate(code, ty):
    code = re.sub(r"\bL\((-?\d+)\)", lambda m: literal(ty, int(m.group(1))), code)
    code = re.sub(r"\bA([123])\((\d+)\)", lambda m: f"arr{m.group(1)}_{ty}({m.group(2)})", code)
    return re.sub(r"\bTY\b", ty, code)


def common_rs():
    out = [
        "//! Inputs and the checksum, identical in both crates.",
        "use ndarray::{Array1, Array2, Array3, ArrayBase, Data, Dimension};",
        "",
        "pub trait Bits: Copy {",
        "    fn bits(self) -> u64;",
        "}",
        "impl Bits for f32 {",
        "    fn bits(self) -> u64 {",
        "        u64::from(self.to_bits())",
        "    }",
        "}",
        "impl Bits for f64 {",
        "    fn bits(self) -> u64 {",
        "        self.to_bits()",
        "    }",
        "}",
        "impl Bits for i32 {",
        "    fn bits(self) -> u64 {",
        "        u64::from(self as u32)",
        "    }",
        "}",
        "impl Bits for i64 {",
        "    fn bits(self) -> u64 {",
        "        self as u64",
        "    }",
        "}",
        "",
        "fn mix(h: &mut u64, v: u64) {",
        "    *h = (*h ^ v).wrapping_mul(0x0000_0100_0000_01b3);",
        "}",
        "",
        "pub fn hash<S: Data, D: Dimension>(h: &mut u64, a: &ArrayBase<S, D>)",
        "where",
        "    S::Elem: Bits,",
        "{",
        "    mix(h, a.ndim() as u64);",
        "    for &n in a.shape() {",
        "        mix(h, n as u64);",
        "    }",
        "    for &v in a.iter() {",
        "        mix(h, v.bits());",
        "    }",
        "}",
        "",
        "pub fn hash_s<T: Bits>(h: &mut u64, v: T) {",
        "    mix(h, v.bits());",
        "}",
    ]
    for ty in TYPES:
        minus5 = literal(ty, -5)[1:]  # "5.0f32" / "5i32"
        out += [
            "",
            f"pub fn arr1_{ty}(seed: usize) -> Array1<{ty}> {{",
            f"    Array1::from_shape_fn(8, |i| ((i * 7 + seed) % 11) as {ty} - {minus5})",
            "}",
            f"pub fn arr2_{ty}(seed: usize) -> Array2<{ty}> {{",
            f"    Array2::from_shape_fn((4, 5), |(i, j)| ((i * 7 + j * 3 + seed) % 11) as {ty} - {minus5})",
            "}",
            f"pub fn arr3_{ty}(seed: usize) -> Array3<{ty}> {{",
            f"    Array3::from_shape_fn((3, 4, 5), |(i, j, k)| ((i * 7 + j * 3 + k * 5 + seed) % 11) as {ty} - {minus5})",
            "}",
        ]
    return "\n".join(out) + "\n"


def indent(code, n=4):
    return "\n".join((" " * n + line) if line else line for line in code.split("\n"))


def cases():
    """(type, function name, rank, seed, template index), two types per template."""
    per_type = {ty: [] for ty in TYPES}
    for k, (rank, _, _) in enumerate(TEMPLATES):
        for ty in (TYPES[k % 4], TYPES[(k + 1) % 4]):
            per_type[ty].append((f"c{k:02}_{ty}", rank, k, k))
    return per_type


def module_rs(ty, items, which):
    lines = [
        f"//! The {ty} cases.",
        "#![allow(unused_mut, unused_imports)]",
        "use crate::common::*;",
        "use ndarray::{Array1, Array2, Array3, Axis, NewAxis, Zip, array, s};",
    ]
    if which == 0:
        lines.append("use tensor_at::{along, at, nd, set};")
    first = True
    for name, rank, seed, k in items:
        body = instantiate(TEMPLATES[k][1 + which], ty)
        if first and ty == "f64":
            body = EDIT_MARKER + "\n" + body
        first = False
        lines += [
            "",
            f"pub fn {name}(h: &mut u64) {{",
            f"    let mut x = arr{rank}_{ty}({seed});",
            indent(body),
            "    hash(h, &x);",
            "}",
        ]
    return "\n".join(lines) + "\n"


def main_rs(per_type, calls):
    lines = [f"mod common;"] + [f"mod t_{ty};" for ty in TYPES] + [
        "",
        "fn main() {",
        "    let mut h: u64 = 0xcbf2_9ce4_8422_2325;",
    ]
    for ty in TYPES:
        lines += [f"    t_{ty}::{name}(&mut h);" for name, *_ in per_type[ty]]
    lines += [
        f"    println!(\"cases {calls}\");",
        "    println!(\"checksum {h:016x}\");",
        "}",
    ]
    return "\n".join(lines) + "\n"


def cargo_toml(name, tensor_at):
    deps = 'ndarray = "0.17"\n'
    if tensor_at is not None:
        deps = f'tensor-at = {{ path = "{tensor_at}" }}\n' + deps
    return (
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n'
        f"[dependencies]\n{deps}\n"
        "# Not part of any enclosing workspace.\n[workspace]\n"
    )


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # Unchanged files keep their mtime, so cargo's fingerprints stay fresh.
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    out, tensor_at = sys.argv[1], os.path.abspath(sys.argv[2])
    lock = sys.argv[3] if len(sys.argv) == 4 else None
    per_type = cases()
    calls = sum(len(v) for v in per_type.values())
    for which, (dir_name, crate) in enumerate([("macros", "ct-macros"), ("by-hand", "ct-by-hand")]):
        root = os.path.join(out, dir_name)
        write(os.path.join(root, "Cargo.toml"), cargo_toml(crate, tensor_at if which == 0 else None))
        write(os.path.join(root, "src", "common.rs"), common_rs())
        write(os.path.join(root, "src", "main.rs"), main_rs(per_type, calls))
        for ty in TYPES:
            write(os.path.join(root, "src", f"t_{ty}.rs"), module_rs(ty, per_type[ty], which))
        # The repo's lock file: the same ndarray (and everything else) as the repo.
        if lock and not os.path.exists(os.path.join(root, "Cargo.lock")):
            shutil.copyfile(lock, os.path.join(root, "Cargo.lock"))
    macro_src = "".join(
        open(os.path.join(out, "macros", "src", f"t_{ty}.rs")).read() for ty in TYPES
    )
    counted = len(re.findall(r"\b(?:at|set)!\(", macro_src))
    assert counted == calls, (counted, calls)
    write(os.path.join(out, "calls.txt"), f"{calls}\n")
    print(f"wrote {out}/macros and {out}/by-hand: {calls} macro calls, "
          f"{len(TEMPLATES)} templates x 2 element types")


if __name__ == "__main__":
    main()
