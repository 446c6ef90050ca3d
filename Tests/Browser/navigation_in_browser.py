#!/usr/bin/env python3
"""Leaving a preview tab and coming back (run by Tests/FloorServeTests/BrowserTests.swift).

A tab holds its push stream only while it is shown (Sources/FloorServe/ClientScript.swift): chromium opens at
most six connections to a host, and the pages its back/forward cache keeps once held theirs, so after a few
navigations every connection was a cached page's stream and the next navigation waited about a minute for
one. Against a running `floorhost serve` whose page (`--page`, file `--file`) shows the text `--before`:

  1. away: the tab navigates to a page elsewhere (a data: URL) and chromium keeps the one it left in its
     back/forward cache: within 2 s serve has no open event stream (its /metrics gauge
     floorkit_serve_event_streams; a cached page that kept its stream held it for a minute);
  2. back: while the tab was away the page file was saved with `--after` in place of `--before`;
     history.back() restores the page from the cache (its script state intact, not loaded again); it
     opens its stream again and reports: the saved text shows, with no reload;
  3. many navigations: 14 navigations in a row each draw their first row within 10 s (with the cached
     pages holding their streams, one of them waited 59.8 s).

Waits are on conditions with deadlines, never fixed sleeps. Exit status 0 when every check passed.
"""
import argparse, time, urllib.request

from chromium import check, run as run_in_chromium, wait


def event_streams(base):
    """Serve's open event streams, from its /metrics (Prometheus text)."""
    with urllib.request.urlopen(base + "metrics") as r:
        for line in r.read().decode().splitlines():
            if line.startswith("floorkit_serve_event_streams "):
                return int(float(line.split()[1]))
    raise SystemExit("navigation_in_browser: /metrics has no floorkit_serve_event_streams")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--base", required=True)
    p.add_argument("--page", required=True)
    p.add_argument("--file", required=True)
    p.add_argument("--before", required=True)
    p.add_argument("--after", required=True)
    args = p.parse_args()
    url = args.base + "page/" + args.page
    answered = "return !!(window.floorPreview && window.floorPreview.answers > 0)"
    shows = "return document.querySelector('.page') ? document.querySelector('.page').textContent : ''"

    def body(driver):
        driver.get(url)
        check(wait(driver, lambda d: d.execute_script(answered), 10), "the page is drawn")
        check(args.before in driver.execute_script(shows), f"the page shows {args.before!r}")
        driver.execute_script("window.keptByTheCache = true")

        check(wait(driver, lambda d: event_streams(args.base) == 1, 10), "the shown tab holds one event stream")

        # 1. Away: the page left behind holds no stream.
        driver.get("data:text/html,<p>elsewhere</p>")
        check(wait(driver, lambda d: event_streams(args.base) == 0, 2),
              f"no event stream stays open once the tab has left ({event_streams(args.base)} open)")
        with open(args.file) as f:
            text = f.read()
        with open(args.file, "w") as f:
            f.write(text.replace(args.before, args.after))

        # 2. Back: restored from the cache, it listens and reports again.
        driver.back()
        check(wait(driver, lambda d: d.execute_script("return window.keptByTheCache === true"), 10),
              "the page came back from the back/forward cache (not loaded again)")
        check(wait(driver, lambda d: args.after in d.execute_script(shows), 10),
              f"the page saved while the tab was away shows {args.after!r}")
        check(wait(driver, lambda d: event_streams(args.base) == 1, 10),
              "the restored page holds its event stream again")

        # 3. Many navigations in a row.
        slowest = 0.0
        for _ in range(14):
            started = time.monotonic()
            driver.get(url)
            drawn = wait(driver, lambda d: d.execute_script(answered), 10)
            took = time.monotonic() - started
            slowest = max(slowest, took)
            if not check(drawn and took <= 10, f"a navigation drew its first rows within 10 s ({took:.2f} s)"):
                break
        print(f"14 navigations: the slowest drew its first rows in {slowest:.2f} s")

    run_in_chromium(body)


if __name__ == "__main__":
    main()
