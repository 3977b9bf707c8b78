#!/usr/bin/env python3
"""The small-call guard: reads gungraun's JSON lines (one per benchmark run
of benches/instructions, `--output-format=json`), pairs each case's `at`
side with its `by_hand` twin, and checks the ratio of their instruction
counts against benches/instructions/targets.txt.

Each line of targets.txt is `case target [ceiling]`: the target is 1.5 for
basic indexing, 3 for advanced. A case still above its target carries a
ceiling, which the case may not pass: the guard holds today's cost while
the work toward the target goes on. It fails when a case passes its
ceiling (or, without one, its target), when a case has no line, or when a
line has no case. Standard library only.

    python3 scripts/instruction_ratios.py RUN.jsonl TARGETS [--markdown]
"""
import argparse
import json
import sys

# A case within 10% of its target keeps its ceiling (targets.txt).
NEAR_TARGET = 1.1


def counts(lines):
    """{case: {side: instructions}} from gungraun's JSON lines."""
    cases = {}
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        run = json.loads(line)
        total = run["profiles"][0]["data"]["total"]["metrics"]["Ir"]["values"]["new"]
        cases.setdefault(run["function_name"], {})[run["id"]] = total
    return cases


def targets(lines):
    """{case: (target, ceiling or None)} from targets.txt."""
    table = {}
    for line in lines:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        case, target, *rest = words
        table[case] = (float(target), float(rest[0]) if rest else None)
    return table


def check(cases, table):
    """The rows of the report, and the failures."""
    rows, failures = [], []
    for case in sorted(set(cases) | set(table)):
        if case not in table:
            failures.append(f"{case}: no line in targets.txt")
            continue
        sides = cases.get(case, {})
        if set(sides) != {"at", "by_hand"}:
            failures.append(f"{case}: listed in targets.txt, but the bench ran {sorted(sides) or 'no side'} of it")
            continue
        target, ceiling = table[case]
        ratio = sides["at"] / sides["by_hand"]
        bound = ceiling if ceiling is not None else target
        if ratio > bound:
            what = "ceiling" if ceiling is not None else "target"
            failures.append(f"{case}: {ratio:.2f}x passes its {what} {bound}x")
        note = ""
        if ceiling is not None:
            well_under = ratio <= target / NEAR_TARGET
            note = "well under its target: drop the ceiling" if well_under else f"ceiling {ceiling}x"
        rows.append((case, sides["at"], sides["by_hand"], ratio, target, note))
    return rows, failures


def report(rows, markdown):
    out = []
    if markdown:
        out.append("| case | `at!` | by hand | ratio | target | |")
        out.append("|---|---:|---:|---:|---:|---|")
        out += [f"| {c} | {a} | {h} | {r:.2f} | {t} | {n} |" for c, a, h, r, t, n in rows]
    else:
        out.append(f"{'case':28} {'at!':>8} {'by hand':>8} {'ratio':>7} {'target':>7}")
        out += [f"{c:28} {a:>8} {h:>8} {r:>7.2f} {t:>7} {n}" for c, a, h, r, t, n in rows]
    return "\n".join(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("targets")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    with open(args.run) as run, open(args.targets) as table:
        rows, failures = check(counts(run), targets(table))
    print(report(rows, args.markdown))
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
