#!/usr/bin/env python3
"""First rows painted (issue 19): how long after navigation chromium paints the first rows of a page in the
`floorhost serve` preview, by chromium's own clock.

Starts a release `floorhost serve` on a loopback port (with its worker, the default), opens the page in
Debian's headless chromium (Tests/Browser/chromium.py) RUNS times, each a fresh navigation, and reads
chromium's Element Timing entries: before anything paints, an init script marks every element the preview
adds with `elementtiming` (`row` inside a row of the page, `other` elsewhere), so chromium reports when each
was first painted. The figure is the earliest `row` entry's renderTime (ms after navigation start), with
first-contentful-paint (the phone's frame and navigation title) beside it. The first navigation also
starts the worker's session cache and loads the served fonts; it is reported apart, not in the
percentiles.

    first_paint.py --floorhost BIN --plugins DIR --pages DIR [--page home.json] [--runs 30] [--out FILE]

Prints p50/p95/max and writes the runs to --out as JSON.
"""
import argparse, json, os, re, statistics, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from chromium import start, wait  # noqa: E402

MARK_ELEMENTS = """
window.__painted = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__painted.push([e.identifier, e.renderTime || e.loadTime]);
}).observe({type: 'element', buffered: true});
function mark(node) {
  if (node.nodeType !== 1) return;
  for (const el of [node, ...node.querySelectorAll('*')])
    el.setAttribute('elementtiming', el.closest('.page .row') ? 'row' : 'other');
}
new MutationObserver(changes => { for (const c of changes) c.addedNodes.forEach(mark); })
  .observe(document, {subtree: true, childList: true});
"""


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--floorhost", required=True)
    p.add_argument("--plugins", required=True)
    p.add_argument("--pages", required=True)
    p.add_argument("--page", default="home.json")
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--out")
    args = p.parse_args()

    server = subprocess.Popen([args.floorhost, "serve", "--plugins", args.plugins, "--port", "0", args.pages],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        if not m:
            sys.exit("first_paint: serve did not print its address: " + server.stderr.read())
        url = f"http://127.0.0.1:{m.group(1)}/page/{args.page}"
        driver = start()
        try:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MARK_ELEMENTS})
            runs = []
            for _ in range(args.runs + 1):
                driver.get(url)
                painted = wait(driver, lambda d: d.execute_script(
                    "return window.__painted.filter(e => e[0] === 'row').map(e => e[1])"), 10)
                if not painted:
                    sys.exit("first_paint: no row of the page was painted within 10 s")
                fcp = driver.execute_script(
                    "const e = performance.getEntriesByName('first-contentful-paint')[0]; return e ? e.startTime : null")
                runs.append({"firstRows": min(painted), "firstContentfulPaint": fcp})
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(timeout=10)

    first, rest = runs[0], runs[1:]
    rows = [r["firstRows"] for r in rest]
    fcps = [r["firstContentfulPaint"] for r in rest if r["firstContentfulPaint"] is not None]
    verdict = "PASS" if percentile(rows, 95) <= 150 else "MISS"
    print(f"first rows painted, {args.page}, {len(rest)} navigations: p50 {percentile(rows, 50):.0f} ms, "
          f"p95 {percentile(rows, 95):.0f} ms, max {max(rows):.0f} ms (target p95 <= 150 ms: {verdict}); "
          f"first-contentful-paint p50 {statistics.median(fcps):.0f} ms; the first navigation "
          f"{first['firstRows']:.0f} ms")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"page": args.page, "first": first, "runs": rest}, f, indent=1)


if __name__ == "__main__":
    main()
