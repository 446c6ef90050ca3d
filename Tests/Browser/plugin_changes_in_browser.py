#!/usr/bin/env python3
"""A plugin added, rebuilt and removed while a tab is open (run by Tests/FloorServeTests/BrowserTests.swift).

Drives Debian's headless chromium through selenium against a running `floorhost serve` whose plugin folder
lacks ProductFeed and holds a Badge library. The page (`--page`) has a Title, a Badge and a ProductFeed
floor, all on one screen. For each change, made to the plugin folder as a build would make it (a file
renamed into place, or deleted):

  1. added:   ProductFeed's library appears; the tab shows product cards, no placeholder, and no
              "unknown floor type" diagnostic;
  2. rebuilt: the Badge library is replaced by a build that draws its frame 10 points wider; the tab
              draws the new frame;
  3. removed: ProductFeed's library goes; the placeholder and its diagnostic come back;
  4. the page file stops parsing: the error (file:line:column and the line) shows over the phone with the
     rows kept under it; fixed, the page comes back;
  5. a next page that fails to load is a diagnostic, the footer's text and a Retry button that loads it.

Each time the tab must not reload, and its rows and diagnostics must be what `/layout` says for the page
now. Waits are on the DOM with a deadline, never fixed sleeps; the time from the change to the DOM
showing it is printed as `change: <what> <seconds> s` (BENCHMARKS.md, "Preview"). Exit status 0 when every
check passed; each failure is one line on stderr.
"""
import argparse, json, os, shutil, sys, time, urllib.request

from chromium import check, run as run_in_chromium, wait




def dom(driver):
    return driver.execute_script("""
        const rows = [...document.querySelectorAll('.page .row')].map(r => ({
          section: +r.dataset.section, row: +r.dataset.row, floor: r.dataset.floor, type: r.dataset.type,
          placeholder: r.classList.contains('placeholder'), html: r.innerHTML}));
        const diagnostics = [...document.querySelectorAll('#diagnostics li')].map(li => li.textContent);
        return {rows, diagnostics, reloadedNot: window.notReloaded === true};""")


def layout(base, page, root):
    with urllib.request.urlopen(base + "layout/" + page) as r:
        out = json.load(r)
    rows = sorted((r["section"], r["row"], r["floor"], r["type"]) for r in out["rows"])
    prefix = root.rstrip("/") + "/"
    messages = [d["message"].replace(prefix, "") for d in out["diagnostics"]]
    return rows, messages


def agrees(driver, base, page, root):
    """The tab's rows and diagnostics are /layout's (the page fits one screen: every row is drawn)."""
    now = dom(driver)
    rows = sorted((r["section"], r["row"], r["floor"], r["type"]) for r in now["rows"])
    want_rows, want_messages = layout(base, page, root)
    shown = now["diagnostics"]
    if shown == ["none"]:
        shown = []
    same_diagnostics = len(shown) == len(want_messages) and all(
        any(m in s for s in shown) for m in want_messages)
    return rows == want_rows and same_diagnostics, rows, want_rows, shown, want_messages


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:PORT/")
    p.add_argument("--page", required=True, help="the page's path under the root, e.g. plugins.json")
    p.add_argument("--root", required=True, help="the root folder as serve was given it")
    p.add_argument("--plugins", required=True, help="serve's plugin folder")
    p.add_argument("--add", required=True, help="a library to add to the folder (ProductFeed)")
    p.add_argument("--rebuilt", required=True, help="the rebuilt Badge library (draws 10 points wider)")
    p.add_argument("--deadline", type=float, default=30.0, help="seconds each change may take to show")
    p.add_argument("--screenshot", required=True)
    args = p.parse_args()

    run_in_chromium(lambda driver: run(driver, args))


def place(source, folder, name):
    """Puts `source` into the plugin folder as `name` the way a build does: written beside, renamed in."""
    temporary = os.path.join(os.path.dirname(folder.rstrip("/")), name + ".partial")
    shutil.copyfile(source, temporary)
    os.chmod(temporary, 0o755)
    os.replace(temporary, os.path.join(folder, name))


def run(driver, args):
    driver.get(args.base + "page/" + args.page)
    check(wait(driver, lambda d: d.execute_script("return window.floorPreview && window.floorPreview.answers >= 1"), 30),
          "the page answered its first view report")
    driver.execute_script("window.notReloaded = true")
    unknown = "unknown floor type 'ProductFeed'"
    width = driver.execute_script("return window.floorPreview.width")

    def showing(condition):
        def probe(d):
            now = dom(d)
            return now if condition(now) else None
        return probe

    def has_placeholder(now):
        return any(r["placeholder"] and "ProductFeed" in r["html"] for r in now["rows"]) and \
            any(unknown in t for t in now["diagnostics"])

    check(bool(wait(driver, showing(has_placeholder), args.deadline)),
          "before: the ProductFeed floor is a placeholder and a diagnostic")
    ok, *_ = agrees(driver, args.base, args.page, args.root)
    check(ok, "before: the tab's rows and diagnostics are /layout's")

    changes = [
        ("added", lambda: place(args.add, args.plugins, os.path.basename(args.add)),
         lambda now: any(r["type"] == "ProductCard" for r in now["rows"]) and not has_placeholder(now)
         and not any(unknown in t for t in now["diagnostics"])),
        # The rebuilt Badge draws its frame 10 points wider than the cell (badge.c's DRAW_OUTSIDE).
        ("rebuilt", lambda: place(args.rebuilt, args.plugins, "libBadgeFloor.so"),
         lambda now: any(r["floor"] == "badge" and f"width:{width + 10}px" in r["html"] for r in now["rows"])),
        ("removed", lambda: os.remove(os.path.join(args.plugins, os.path.basename(args.add))),
         has_placeholder),
    ]
    def left_out_marked(d):
        return d.execute_script(
            "const m = document.querySelector('.page .row[data-floor=flash] .leftout');"
            "return m ? {row: m.closest('.row').textContent, reason: m.textContent} : null")

    for what, change, shown in changes:
        started = time.monotonic()
        change()
        arrived = wait(driver, showing(shown), args.deadline)
        took = time.monotonic() - started
        check(bool(arrived), f"plugin {what}: the tab shows it without a reload")
        print(f"change: {what} {took:.3f} s", flush=True)
        # /layout is asked after the tab showed the change: both come from the same worker.
        ok, rows, want_rows, shown_d, want_d = agrees(driver, args.base, args.page, args.root)
        check(ok, f"plugin {what}: the tab's rows and diagnostics are /layout's"
              + ("" if ok else f": rows {rows} against {want_rows}; diagnostics {shown_d} against {want_d}"))
        check(driver.execute_script("return window.notReloaded === true"), f"plugin {what}: the page was not reloaded")
        if what == "rebuilt":
            mark = left_out_marked(driver)
            check(bool(mark) and "Desk lamp" in mark["row"] and "items[2].price" in mark["reason"],
                  f"the product the plugin left out is marked where it would have been: {mark}")
            driver.save_screenshot(args.screenshot.replace(".png", "-plugins.png"))

    # 4. The page stops parsing: its error over the phone with the line, the rows kept under it; fixed,
    # the page comes back as it was, without a reload.
    path = os.path.join(args.root, args.page)
    good = open(path, encoding="utf-8").read()
    broken = good.replace('"title":"插件 Plugins",', '"title":"插件 Plugins"', 1)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(broken)
    os.replace(path + ".tmp", path)
    overlay = wait(driver, lambda d: d.execute_script(
        "const e = document.getElementById('error'); if (!e || e.hidden) return null;"
        "const p = document.querySelector('.phone').getBoundingClientRect(), r = e.getBoundingClientRect();"
        "return {text: e.textContent, inside: r.left >= p.left && r.right <= p.right && r.top >= p.top && r.top < p.bottom,"
        " rows: document.querySelectorAll('.page .row').length}"), args.deadline)
    check(bool(overlay) and overlay["text"].startswith(args.page + ":1:") and '"floors"' in overlay["text"],
          f"a page that does not parse shows file:line:column and its line: {overlay and overlay['text']!r}")
    check(bool(overlay) and overlay["inside"], "the error is over the phone, not below it")
    check(bool(overlay) and overlay["rows"] > 0, "the rows stay under the error")
    driver.save_screenshot(args.screenshot.replace(".png", "-error.png"))
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(good)
    os.replace(path + ".tmp", path)
    back = wait(driver, lambda d: d.execute_script(
        "return document.getElementById('error').hidden && !document.querySelector('.screen.broken')"), args.deadline)
    check(bool(back), "fixed, the page comes back")
    check(driver.execute_script("return window.notReloaded === true"), "the page was not reloaded for the error")

    # 5. A next page that fails to load: a diagnostic, the footer's text and a Retry button, which loads
    # it once the file is there.
    with open(os.path.join(args.root, "short.json"), "w", encoding="utf-8") as f:
        f.write('{"floors":[{"type":"Title","id":"t","title":"短页 Short"}],"next":"later.json"}')
    driver.get(args.base + "page/short.json")
    failed = wait(driver, lambda d: d.execute_script(
        "const b = document.querySelector('.loadstate.failed button.retry'); if (!b) return null;"
        "return {strip: document.querySelector('.loadstate').textContent,"
        " footer: (document.querySelector('.page .row[data-floor=\"floorhost.footer\"]') || {}).textContent || '',"
        " diagnostics: [...document.querySelectorAll('#diagnostics li')].map(li => li.textContent)}"), args.deadline)
    check(bool(failed) and "later.json failed: later.json: no such page file" in failed["strip"]
          and args.root not in failed["strip"] + failed["footer"],
          f"a failed next page says so under the footer, with a Retry button: {failed and failed['strip']!r}")
    check(bool(failed) and "tap to retry" in failed["footer"], f"the footer's text says it failed: {failed and failed['footer']!r}")
    check(bool(failed) and any("short.json: next: next page 'later.json' failed to load" in t for t in failed["diagnostics"]),
          f"a failed next page is a diagnostic: {failed and failed['diagnostics']}")
    with open(os.path.join(args.root, "later.json"), "w", encoding="utf-8") as f:
        f.write('{"floors":[{"type":"Title","id":"t2","title":"后来 Later"}]}')
    if failed:
        driver.find_element("css selector", ".loadstate.failed button.retry").click()
        later = wait(driver, lambda d: d.execute_script(
            "return document.querySelector('.page').innerText.includes('后来 Later') && window.floorPreview.load === 'end'"),
            args.deadline)
        check(bool(later), "Retry loads the next page once it is there")
        gone = wait(driver, lambda d: not any("failed to load" in li.text for li in d.find_elements("css selector", "#diagnostics li")),
                    args.deadline)
        check(bool(gone), "once it loaded, the failure is no longer a diagnostic")

    driver.save_screenshot(args.screenshot)
    print("screenshot: " + args.screenshot)


if __name__ == "__main__":
    main()
