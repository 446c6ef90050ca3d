#!/usr/bin/env python3
"""Pairs this tree's figures with the baseline's, measured in the same Scripts/bench run (--baseline REV).

  baseline_report.py RESULTS_DIR REV

RESULTS_DIR holds this tree's package-benchmark percentiles (*.tsv) and hyperfine's e2e.json; RESULTS_DIR/baseline
the baseline's percentiles. Prints, and writes to RESULTS_DIR/baseline.md, one row per figure both measured: the
baseline's p50, this tree's p50 and their ratio (above 1: this tree is slower).
"""
import glob
import json
import os
import sys

results, rev = sys.argv[1], sys.argv[2]


def p50s(folder):
    """Benchmark file stem (benchmark and metric) -> p50, from package-benchmark's histogramPercentiles TSVs."""
    found = {}
    for path in glob.glob(os.path.join(folder, "*.tsv")):
        with open(path) as f:
            for line in f:
                parts = line.strip().split("\t")
                if len(parts) == 2 and parts[0] == "50":
                    name = os.path.basename(path)[: -len(".tsv")]
                    name = name.removeprefix("Current_run.").removesuffix(".histogram.percentiles")
                    found[name.replace("_", " ")] = float(parts[1])
    return found


rows = []
now, before = p50s(results), p50s(os.path.join(results, "baseline"))
for name in sorted(set(now) & set(before)):
    if before[name] > 0:
        rows.append((name, before[name], now[name], now[name] / before[name]))

e2e = os.path.join(results, "e2e.json")
if os.path.exists(e2e):
    timed = {r["command"]: r for r in json.load(open(e2e))["results"]}
    for name in ("floorhost", "floorhost in-process"):
        base = timed.get(f"{name} (baseline)")
        if base and name in timed:
            b, n = base["median"] * 1000, timed[name]["median"] * 1000
            rows.append((f"e2e {name}, 8 MB page, median ms", b, n, n / b))
    if "jq" in timed:
        jq = timed["jq"]["median"]
        for name in ("floorhost", "floorhost (baseline)"):
            if name in timed:
                rows.append((f"e2e {name} against jq (x jq)", None, timed[name]["median"] / jq, None))

lines = [f"| figure | baseline {rev} | this tree | ratio |", "|---|---|---|---|"]
for name, b, n, ratio in rows:
    fb = "" if b is None else f"{b:,.4g}"
    fr = "" if ratio is None else f"{ratio:.3f}"
    lines.append(f"| {name} | {fb} | {n:,.4g} | {fr} |")
text = "\n".join(lines) + "\n"
with open(os.path.join(results, "baseline.md"), "w") as f:
    f.write(text)
print(text)
