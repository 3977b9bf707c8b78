#!/usr/bin/env python3
"""Tests of scripts/merge_bench.py, scripts/compare_bench.py and
scripts/instruction_ratios.py on small hand-made parts: rounds joined into
medians, results that must agree, ratios paired round by round, one table
per thread count the comparison is given, and the small-call guard's
verdicts. Standard library only.

    python3 scripts/test_bench_scripts.py
"""
import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare_bench  # noqa: E402
import instruction_ratios  # noqa: E402
import merge_bench  # noqa: E402


# One input's fingerprint, the same on both sides.
X_PRINT = {"shape": [4], "dtype": "float32", "sum": 2.0, "first": [0.5, 0.5, 0.5, 0.5]}


def ours_part(workload, median_ms, checksum=1.5, gbps=40.0, threads=1):
    """A workloads-bench file with one record and one copy reference."""
    return {
        "settings": {"threads": threads},
        "bandwidth": [{"what": "copy", "kind": "copy", "median_ms": 400 / gbps, "min_ms": 300 / gbps, "gbps": gbps,
                       "bytes": 1}],
        "records": [{"workload": workload, "median_ms": median_ms, "min_ms": median_ms - 0.1,
                     "useful_bytes": 2_000_000, "checksum": checksum}],
        "fingerprints": {workload: {"x": X_PRINT}},
    }


def peers_part(workload, numpy_ms, jax_ms, result=1.5):
    """A benches/peers.py file with one workload run by two peers (NumPy's
    result agreeing with ours_part's checksum)."""
    return {
        "machine": {"processor": "test CPU"},
        "versions": {"numpy": "2.0"},
        "bandwidth": [{"what": "C memcpy", "median_ms": 10.0, "min_ms": 9.0, "gbps": 40.0, "bytes": 1}],
        "workloads": [{
            "name": workload, "useful_bytes": 2_000_000, "numpy_result_sum": result, "inputs": {"x": X_PRINT},
            "runs": [
                {"framework": "numpy", "variant": "x[i]=v", "median_ms": numpy_ms, "min_ms": numpy_ms, "check": "ok"},
                {"framework": "jax", "variant": ".at[]", "median_ms": jax_ms, "min_ms": jax_ms, "check": "ok"},
            ],
        }],
    }


class MergeRounds(unittest.TestCase):
    def test_one_part_a_workload_is_kept_as_it_was(self):
        merged = merge_bench.merge([ours_part("W1", 2.0), ours_part("W2", 3.0)])
        self.assertEqual([r["workload"] for r in merged["records"]], ["W1", "W2"])
        self.assertEqual(merged["records"][0]["median_ms"], 2.0)
        self.assertNotIn("rounds_ms", merged["records"][0])
        self.assertEqual(merged["records"][1]["bandwidth"][0]["gbps"], 40.0)

    def test_rounds_of_ours_become_medians(self):
        merged = merge_bench.merge([ours_part("W1", 2.0, gbps=50.0), ours_part("W1", 5.0, gbps=40.0),
                                    ours_part("W1", 3.0, gbps=30.0)])
        (record,) = merged["records"]
        self.assertEqual(record["rounds_ms"], [2.0, 5.0, 3.0])
        self.assertEqual(record["median_ms"], 3.0)
        self.assertAlmostEqual(record["min_ms"], 1.9)
        self.assertAlmostEqual(record["gbps"], 2_000_000 / 3.0 / 1e6)
        (reference,) = record["bandwidth"]
        self.assertEqual((reference["gbps"], reference["median_ms"], reference["min_ms"]), (40.0, 10.0, 6.0))

    def test_rounds_of_peers_become_medians_run_by_run(self):
        merged = merge_bench.merge([peers_part("W1", 2.0, 5.0), peers_part("W1", 2.4, 1.0), peers_part("W1", 9.0, 4.0)])
        (workload,) = merged["workloads"]
        runs = {r["framework"]: r for r in workload["runs"]}
        self.assertEqual(runs["numpy"]["rounds_ms"], [2.0, 2.4, 9.0])
        self.assertEqual(runs["numpy"]["median_ms"], 2.4)
        self.assertEqual(runs["jax"]["median_ms"], 4.0)
        self.assertEqual(runs["jax"]["min_ms"], 1.0)

    def test_an_even_number_of_rounds_takes_the_mean_of_the_middle_two(self):
        merged = merge_bench.merge([ours_part("W1", 2.0), ours_part("W1", 9.0), ours_part("W1", 3.0),
                                    ours_part("W1", 4.0)])
        self.assertEqual(merged["records"][0]["median_ms"], 3.5)

    def test_a_workload_of_one_part_beside_one_of_rounds_is_kept_as_it_was(self):
        merged = merge_bench.merge([ours_part("W1", 2.0), ours_part("W2", 3.0), ours_part("W2", 5.0),
                                    ours_part("W2", 4.0)])
        first, second = merged["records"]
        self.assertEqual((first["workload"], first["median_ms"]), ("W1", 2.0))
        self.assertNotIn("rounds_ms", first)
        self.assertEqual((second["workload"], second["median_ms"], second["rounds_ms"]), ("W2", 4.0, [3.0, 5.0, 4.0]))

    def test_a_variant_failed_in_any_round_is_reported_failed(self):
        failed = peers_part("W1", 2.0, 1.0)
        failed["workloads"][0]["runs"][1] = {"framework": "jax", "variant": ".at[]", "median_ms": None,
                                             "error": "out of memory"}
        mismatch = peers_part("W1", 2.0, 1.0)
        mismatch["workloads"][0]["runs"][0]["check"] = "MISMATCH"
        merged = merge_bench.merge([peers_part("W1", 2.0, 1.0), failed, mismatch])
        runs = {r["framework"]: r for r in merged["workloads"][0]["runs"]}
        self.assertIsNone(runs["jax"]["median_ms"])
        self.assertEqual(runs["jax"]["error"], "out of memory")
        self.assertEqual(runs["numpy"]["check"], "MISMATCH")
        self.assertEqual(compare_bench.best_runs(merged["workloads"][0]), {"numpy": (2.0, "x[i]=v")})

    def test_rounds_that_disagree_are_refused(self):
        with self.assertRaises(SystemExit):
            merge_bench.merge([ours_part("W1", 2.0, checksum=1.5), ours_part("W1", 2.0, checksum=1.25)])
        with self.assertRaises(SystemExit):
            merge_bench.merge([peers_part("W1", 2.0, 3.0, result=7.0), peers_part("W1", 2.0, 3.0, result=8.0)])


def three_rounds():
    """Both sides of W1 in three rounds: NumPy is the best peer by median
    (3.0 against JAX's 5.0), though JAX won round 2."""
    peers = merge_bench.merge([peers_part("W1", 2.0, 5.0), peers_part("W1", 4.0, 1.0), peers_part("W1", 3.0, 6.0)])
    ours = merge_bench.merge([ours_part("W1", 1.0), ours_part("W1", 2.0), ours_part("W1", 3.0)])
    return peers, ours


class PairedRatios(unittest.TestCase):
    def test_each_round_is_set_against_the_best_variants_round(self):
        peers, ours = three_rounds()
        ratios = compare_bench.round_ratios(peers["workloads"][0], ours["records"][0])
        self.assertEqual(ratios, [1.0 / 2.0, 2.0 / 4.0, 3.0 / 3.0])
        self.assertTrue(min(ratios) <= 2.0 / 3.0 <= max(ratios))

    def test_the_table_shows_the_ratio_and_its_rounds(self):
        peers, ours = three_rounds()
        entries = {e["name"]: e for e in peers["workloads"]}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            compare_bench.comparison(["W1"], entries, {r["workload"]: r for r in ours["records"]}, 1, "1 thread")
        (row,) = [line for line in out.getvalue().splitlines() if line.startswith("| W1")]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        self.assertEqual(cells, ["W1", "2.000", "3.000", "5.000", "NumPy 3.000", "0.67", "0.50-1.00"])
        self.assertIn("behind the best peer: none", out.getvalue())

    def test_no_ratios_without_rounds_on_both_sides(self):
        peers = merge_bench.merge([peers_part("W1", 2.0, 5.0)])
        ours = merge_bench.merge([ours_part("W1", 1.0), ours_part("W1", 2.0)])
        self.assertIsNone(compare_bench.round_ratios(peers["workloads"][0], ours["records"][0]))
        self.assertIsNone(compare_bench.round_ratios(peers["workloads"][0], None))


def with_torch(part, threads, torch_ms):
    """`part` with PyTorch's run at `threads` threads added."""
    part["workloads"][0]["runs"].append({"framework": f"torch-{threads}t", "variant": "index_put_",
                                         "median_ms": torch_ms, "min_ms": torch_ms, "check": "ok"})
    return part


class TablePerThreadCount(unittest.TestCase):
    def compare(self, peers, ours):
        """compare_bench.py's output and status for {threads: peers file}
        and [tensor-at file], written to a temporary directory."""
        with tempfile.TemporaryDirectory() as tmp:
            argv = ["compare_bench.py"]
            for threads, part in peers.items():
                path = os.path.join(tmp, f"peers-{threads}t.json")
                with open(path, "w") as f:
                    json.dump(part, f)
                argv += ["--peers", f"{threads}={path}"]
            for i, part in enumerate(ours):
                path = os.path.join(tmp, f"tensor-at-{i}.json")
                with open(path, "w") as f:
                    json.dump(part, f)
                argv.append(path)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = compare_bench.main(argv)
        return status, out.getvalue()

    def rows(self, text, heading):
        """The W1 row of the first table under `heading`, as cells."""
        section = text.split(heading, 1)[1]
        row = next(line for line in section.splitlines() if line.startswith("| W1"))
        return [cell.strip() for cell in row.strip("|").split("|")]

    def test_one_table_for_each_thread_count_fewest_first(self):
        peers = {4: with_torch(peers_part("W1", 2.0, 1.0), 4, 0.5), 1: with_torch(peers_part("W1", 2.0, 5.0), 1, 4.0)}
        # The tensor-at files in either order: each carries its thread count.
        status, text = self.compare(peers, [ours_part("W1", 0.25, threads=4), ours_part("W1", 1.0, threads=1)])
        self.assertEqual(status, 0, text)
        self.assertLess(text.index("### 1 thread (peers:"), text.index("### 4 threads (peers:"))
        self.assertEqual(self.rows(text, "### 1 thread"), ["W1", "1.000", "2.000", "5.000", "4.000", "NumPy 2.000",
                                                           "0.50"])
        self.assertEqual(self.rows(text, "### 4 threads"), ["W1", "0.250", "2.000", "1.000", "0.500", "PyTorch 0.500",
                                                            "0.50"])
        header = next(line for line in text.split("### 4 threads", 1)[1].splitlines() if line.startswith("| workload"))
        self.assertEqual([cell.strip() for cell in header.strip("|").split("|")],
                         ["workload", "tensor-at 4t", "numpy", "jax", "torch-4t", "best peer", "ratio"])
        self.assertIn("tensor-at, 4 threads over 1 thread: W1 0.25", text)
        self.assertIn("every fingerprint and checksum matched", text)

    def test_one_core_one_table(self):
        status, text = self.compare({1: peers_part("W1", 2.0, 5.0)}, [ours_part("W1", 1.0)])
        self.assertEqual(status, 0, text)
        self.assertEqual(text.count("\n### "), 2)  # the table, then inputs and results
        self.assertNotIn("over 1 thread", text)

    def test_a_thread_count_without_tensor_at_is_named(self):
        status, text = self.compare({1: peers_part("W1", 2.0, 5.0), 2: peers_part("W1", 2.0, 5.0)},
                                    [ours_part("W1", 1.0)])
        self.assertEqual(status, 0, text)
        self.assertIn("### 2 threads: no tensor-at file at 2 threads", text)

    def test_checksums_must_agree_across_thread_counts(self):
        peers = {1: peers_part("W1", 2.0, 5.0, result=1.5), 2: peers_part("W1", 2.0, 5.0, result=1.5)}
        status, text = self.compare(peers, [ours_part("W1", 1.0, checksum=1.5),
                                            ours_part("W1", 1.0, checksum=1.25, threads=2)])
        self.assertEqual(status, 1)
        self.assertIn("differs across thread counts 1.5 / 1.25", text)

    def test_two_files_at_one_thread_count_are_refused(self):
        with self.assertRaises(SystemExit):
            self.compare({1: peers_part("W1", 2.0, 5.0)}, [ours_part("W1", 1.0), ours_part("W1", 2.0)])

    def test_the_peers_argument(self):
        self.assertEqual(compare_bench.peers_arg("16=out/peers-16t.json"), (16, "out/peers-16t.json"))
        for bad in ["peers.json", "0=peers.json", "two=peers.json", "2="]:
            with self.assertRaises(argparse.ArgumentTypeError):
                compare_bench.peers_arg(bad)

    def test_peers_in_order_pytorch_at_each_thread_count(self):
        self.assertEqual(compare_bench.peer_order({"tf", "torch-16t", "jax", "torch-2t", "numpy", "other"}),
                         ["numpy", "jax", "torch-2t", "torch-16t", "tf", "other"])
        self.assertEqual(compare_bench.peer_name("torch-16t"), "PyTorch")


def gungraun_line(case, side, instructions):
    """One line of gungraun's `--output-format=json`, as much of it as the guard reads."""
    total = {"metrics": {"Ir": {"values": {"new": instructions}}}}
    return json.dumps({"function_name": case, "id": side, "profiles": [{"data": {"total": total}}]})


class InstructionGuard(unittest.TestCase):
    def verdict(self, runs, table):
        lines = [gungraun_line(case, side, n) for case, side, n in runs]
        return instruction_ratios.check(instruction_ratios.counts(lines), instruction_ratios.targets(table.splitlines()))

    def test_ratios_within_targets_pass(self):
        rows, failures = self.verdict([("a", "at", 30), ("a", "by_hand", 20)], "a 1.5  # basic\n")
        self.assertEqual(failures, [])
        self.assertEqual(rows, [("a", 30, 20, 1.5, 1.5, "")])

    def test_a_ratio_past_its_target_fails(self):
        _, failures = self.verdict([("a", "at", 31), ("a", "by_hand", 20)], "a 1.5\n")
        self.assertEqual(failures, ["a: 1.55x passes its target 1.5x"])

    def test_a_ceiling_holds_a_case_above_its_target(self):
        runs = [("a", "at", 90), ("a", "by_hand", 10)]
        self.assertEqual(self.verdict(runs, "a 3 10\n")[1], [])
        self.assertEqual(self.verdict(runs, "a 3 8.5\n")[1], ["a: 9.00x passes its ceiling 8.5x"])
        rows, _ = self.verdict([("a", "at", 20), ("a", "by_hand", 10)], "a 3 10\n")
        self.assertEqual(rows[0][-1], "well under its target: drop the ceiling")
        # Within 10% of its target, a case keeps its ceiling.
        rows, _ = self.verdict([("a", "at", 29), ("a", "by_hand", 10)], "a 3 3.5\n")
        self.assertEqual(rows[0][-1], "ceiling 3.5x")

    def test_cases_and_lines_must_match(self):
        _, failures = self.verdict([("a", "at", 1), ("a", "by_hand", 1), ("b", "at", 1)], "a 1.5\nb 3\nc 3\n")
        self.assertEqual(failures, ["b: listed in targets.txt, but the bench ran ['at'] of it",
                                    "c: listed in targets.txt, but the bench ran no side of it"])
        _, failures = self.verdict([("d", "at", 1), ("d", "by_hand", 1)], "")
        self.assertEqual(failures, ["d: no line in targets.txt"])


if __name__ == "__main__":
    unittest.main()
