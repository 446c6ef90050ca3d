#!/usr/bin/env python3
"""Prints the diffed reload's figures (Scripts/bench --only diff) next to their targets.

  diff_report.py RESULTS_DIR DIFF_INPUTS_DIR

Reads package-benchmark's percentile exports of DiffBenchmarks, expected.json (the rows the edits
changed) and floorhost diff's json on the same pair (diff-cli.json), and writes RESULTS_DIR/diff.md.
"""
import glob
import json
import os
import sys

results, inputs = sys.argv[1], sys.argv[2]


def percentile(benchmark, p):
    key = benchmark.replace(" ", "_").replace("/", "_")
    for path in sorted(glob.glob(os.path.join(results, "*.tsv"))):
        if f".{key}." in os.path.basename(path):
            for line in open(path):
                parts = line.strip().split("\t")
                if len(parts) == 2 and parts[0] == str(p):
                    return float(parts[1])
    return None


expected = json.load(open(os.path.join(inputs, "expected.json")))
cli = json.load(open(os.path.join(results, "diff-cli.json")))
rows = []
p50 = percentile("diff + apply 10000 floors 1 percent changed", 50)
p90 = percentile("diff + apply 10000 floors 1 percent changed", 90)
decode = percentile("decode 10000 floors (the new version)", 50)
decode_reusing = percentile("decode 10000 floors reusing the unchanged ones", 50)
afresh = percentile("diff + apply 10000 floors 1 percent changed, every floor decoded afresh", 50)
if p50 is not None:
    rows.append(("diff + apply, 10,000 floors with 1 % changed", f"p50 {p50 / 1e6:.1f} ms, p90 {p90 / 1e6:.1f} ms",
                 "<= 20 ms", "PASS" if p50 <= 20e6 else "MISS"))
calls = cli["stats"]["heightCalls"]
rows.append(("height calls == changed rows", f"{calls} height calls, {expected['changedRows']} rows changed "
             f"({cli['rows']['kept']} heights kept; also checked in every benchmark iteration)",
             "==", "PASS" if calls == expected["changedRows"] == cli["rows"]["measured"] else "MISS"))
if afresh is not None:
    rows.append(("(context) diff + apply with every floor decoded afresh", f"p50 {afresh / 1e6:.1f} ms", "-", "-"))
if decode_reusing is not None:
    rows.append(("(context) decoding the new version keeping unchanged floors", f"p50 {decode_reusing / 1e6:.1f} ms", "-", "-"))
if decode is not None:
    rows.append(("(context) decoding the new version afresh, 10,000 floors", f"p50 {decode / 1e6:.1f} ms", "-", "-"))
lines = ["| figure | measured | target | verdict |", "|---|---|---|---|"] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
open(os.path.join(results, "diff.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
