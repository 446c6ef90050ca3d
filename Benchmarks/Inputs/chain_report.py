#!/usr/bin/env python3
"""Reads hyperfine's JSON for the next-page chains (Scripts/bench --only chain) and prints each chain's
median with the time ratio per doubling of the chain's length. Linear work doubles the time (target: a
ratio of about 2; PASS at 2.4 or less); the quadratic extend the ratio replaced gave x3.6 and x4.2.

  chain_report.py RESULTS_DIR/chain.json
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        results = json.load(f)["results"]
    rows = [(int(r["command"].split()[0]), r["median"], r["min"], r["max"]) for r in results]
    print("next-page chain extending one ProductFeed floor (floorhost --format json --scroll-to end):")
    previous = None
    worst = 0.0
    for pages, median, low, high in rows:
        ratio = "" if previous is None else f"  x{median / previous:.2f} for twice the pages"
        if previous is not None:
            worst = max(worst, median / previous)
        print(f"  {pages:5d} pages: median {median * 1000:8.1f} ms (min {low * 1000:.1f}, max {high * 1000:.1f}){ratio}")
        previous = median
    print(f"  worst ratio per doubling {worst:.2f} (target ~2, at most 2.4): {'PASS' if worst <= 2.4 else 'MISS'}")


if __name__ == "__main__":
    main()
