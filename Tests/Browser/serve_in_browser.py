#!/usr/bin/env python3
"""The real-browser test of `floorhost serve` (run by Tests/FloorServeTests/BrowserTests.swift).

Drives Debian's headless chromium through selenium against a running server:

  1. opens the page and scrolls to the bottom of its multi-page feed, one screen at a time, and checks
     that every row of every next page arrives, that no row is ever in the page twice, and that each
     next page's load completed once (the events panel);
  2. checks that the sticky header is pinned at the top of the screen inside its floor;
  3. clicks a product and reads its action (url, eventId) in the action panel;
  4. edits the page file and sees the change arrive without a reload, scroll offset kept;
  5. switches to an iPad mini in the device menu (the same session: next pages, events and the row on
     screen kept, the phone zoomed to fit) and opens the URL it shows, which opens the same view;
  6. sees the pages' pictures drawn, and an SVG opened on its own run no script;
  7. saves a screenshot.

Waits are on conditions with deadlines, never fixed sleeps. Exit status 0 when every check passed;
each failure is one line on stderr.
"""
import argparse, json, os, sys, time

from chromium import check, run as run_in_chromium, wait




def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True, help="the page's URL, e.g. http://127.0.0.1:PORT/page/home.json")
    p.add_argument("--file", required=True, help="the page file, edited in step 4")
    p.add_argument("--expect", required=True, help="JSON: the rows of the whole feed, as [section, row, floor]")
    p.add_argument("--next-pages", type=int, required=True, help="how many next pages the feed has")
    p.add_argument("--screenshot", required=True)
    args = p.parse_args()
    # The load-state footer moves behind each next page's floors (its section changes): compared apart.
    expected = {tuple(r) for r in json.load(open(args.expect)) if r[2] != "floorhost.footer"}

    run_in_chromium(lambda driver: run(driver, args, expected))


def rows_in_page(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.page .row')].map(r => [+r.dataset.section, +r.dataset.row, r.dataset.floor])")


def status(driver):
    return driver.execute_script("return window.floorPreview")


def run(driver, args, expected):
    driver.get(args.url)
    check(wait(driver, lambda d: status(d) and status(d)["answers"] >= 1), "the page answered its first view report")
    driver.execute_script("window.notReloaded = true")

    # 1. Scroll to the bottom, one screen at a time; every snapshot of the DOM has each row once.
    seen, duplicates, steps = set(), 0, 0
    while steps < 400:
        steps += 1
        rows = rows_in_page(driver)
        duplicates += len(rows) - len({tuple(r) for r in rows})
        seen.update(tuple(r) for r in rows)
        s = status(driver)
        at_bottom = driver.execute_script("const s = document.querySelector('.screen'); return s.scrollTop + s.clientHeight >= s.scrollHeight - 1")
        if s["load"] == "end" and at_bottom:
            break
        answers = s["answers"]
        driver.execute_script("document.querySelector('.screen').scrollTop += document.querySelector('.screen').clientHeight")
        wait(driver, lambda d: status(d)["answers"] > answers, 5)
        if status(driver)["load"] == "loading":
            wait(driver, lambda d: status(d)["load"] != "loading", 5)
    rows = rows_in_page(driver)
    seen.update(tuple(r) for r in rows)
    check(duplicates == 0, f"no row was ever in the page twice ({duplicates} duplicates)")
    seen = {r for r in seen if r[2] != "floorhost.footer"}
    check(seen == expected, f"every row of the feed and its next pages arrived: {len(seen)} seen, {len(expected)} expected"
          + ("" if seen == expected else f"; missing {sorted(expected - seen)[:5]}, unexpected {sorted(seen - expected)[:5]}"))
    completed = driver.execute_script(
        "return [...document.querySelectorAll('#events li.loadMore')].map(li => li.textContent).filter(t => t.startsWith('loadMore completed'))")
    check(len(completed) == args.next_pages, f"each next page's load completed once: {completed}")
    check(driver.execute_script("const f = document.querySelector('.page .row[data-floor=\"floorhost.footer\"]'); return f ? f.textContent : ''").find("no more") >= 0,
          "the footer row says the feed has no more")

    # 2. The sticky header: somewhere inside the feed, pinned at the screen's top.
    driver.execute_script("document.querySelector('.screen').scrollTop = document.querySelector('.screen').scrollHeight / 2")
    pinned = wait(driver, lambda d: d.execute_script(
        "const p = document.querySelector('.pinned .row'); if (!p) return null;"
        "const s = document.querySelector('.screen').getBoundingClientRect(), r = p.getBoundingClientRect();"
        "return {floor: p.dataset.floor, type: p.dataset.type, offset: r.top - s.top}"))
    check(bool(pinned) and pinned["floor"] == "feed" and abs(pinned["offset"]) <= 1,
          f"the feed's sticky header is pinned at the top of the screen: {pinned}")

    # 3. Click a product card; its action shows in the action panel.
    card = wait(driver, lambda d: d.execute_script(
        "const s = document.querySelector('.screen').getBoundingClientRect();"
        "return [...document.querySelectorAll('.page .row.tappable[data-type=ProductCard]')]"
        ".find(r => { const b = r.getBoundingClientRect(); return b.top > s.top + 60 && b.bottom < s.bottom; }) || null"))
    if check(card is not None, "a product card is on screen and tappable"):
        card.click()
        action = wait(driver, lambda d: d.find_element("id", "action").text if d.find_element("id", "action").text.startswith("{") else None)
        parsed = json.loads(action) if action else {}
        check(parsed.get("url", "").startswith("app://") and parsed.get("floor") == "feed" and "eventId" in parsed,
              f"the click shows the item's action: {action!r}")

    # 3b. Rows the tab holds are not sent again (HeldRows): a report at the same offset replaces no row.
    driver.execute_script(
        "window.rowsReplaced = 0; new MutationObserver(ms => { for (const m of ms) window.rowsReplaced +="
        " [...m.removedNodes].filter(n => n.classList && n.classList.contains('row')).length; })"
        ".observe(document.querySelector('.page'), {childList: true})")
    answers = status(driver)["answers"]
    driver.execute_script("document.querySelector('.screen').dispatchEvent(new Event('scroll'))")
    wait(driver, lambda d: status(d)["answers"] > answers, 5)
    replaced = driver.execute_script("return window.rowsReplaced")
    check(status(driver)["answers"] > answers and replaced == 0,
          f"a report at the same offset redraws no row the tab holds ({replaced} replaced)")

    # 4. Edit the page file: the change arrives in place, without a reload, and the offset is kept.
    driver.execute_script("document.querySelector('.screen').scrollTop = 0")
    wait(driver, lambda d: d.execute_script("return document.querySelector('.page').innerText.includes('限时秒杀')"))
    offset_before = driver.execute_script("return document.querySelector('.screen').scrollTop")
    text = open(args.file, encoding="utf-8").read()
    with open(args.file + ".tmp", "w", encoding="utf-8") as f:
        f.write(text.replace("限时秒杀 Flash sale", "今日特价 Deals of the day"))
    import os
    saved = time.monotonic()
    os.replace(args.file + ".tmp", args.file)
    arrived = wait(driver, lambda d: d.execute_script("return document.querySelector('.page').innerText.includes('今日特价 Deals of the day')"), 5)
    check(arrived, f"the edit arrived without a reload in {time.monotonic() - saved:.3f} s")
    check(driver.execute_script("return window.notReloaded === true"), "the page was not reloaded")
    check(driver.execute_script("return document.querySelector('.screen').scrollTop") == offset_before, "the scroll offset was kept")

    # 5. Another device: the same session at 744 points (iPad mini), its next pages, events and the row at
    # the screen's top kept; the phone zoomed to fit the window; the URL holds device and offset, and opens
    # the same view; a width out of range is refused in the field.
    from selenium.webdriver.support.ui import Select
    driver.execute_script("document.querySelector('.screen').scrollTop = 1500")
    wait(driver, lambda d: d.execute_script(
        "const s = document.querySelector('.screen'); return [...document.querySelectorAll('.page .row')].some("
        "r => r.offsetTop <= s.scrollTop && r.offsetTop + r.offsetHeight > s.scrollTop + 1)"))
    top_row = "const s = document.querySelector('.screen'); const r = [...document.querySelectorAll('.page .row')].find(" \
        "r => r.offsetTop <= s.scrollTop && r.offsetTop + r.offsetHeight > s.scrollTop); return r ? +r.dataset.index : null"
    before = driver.execute_script(top_row)
    events_before = driver.execute_script("return document.querySelectorAll('#events li').length")
    Select(driver.find_element("id", "device")).select_by_value("ipad-mini")
    switched = wait(driver, lambda d: status(d)["resizes"] >= 1 and d.execute_script(
        "return document.querySelector('.phone').offsetWidth") == 744 and d.execute_script(top_row) is not None)
    check(bool(switched), "the device menu switches to the iPad mini (744 points) without a reload")
    after = driver.execute_script(top_row)
    check(before is not None and after == before, f"the row at the top of the screen stays there: {before} -> {after}")
    check(driver.execute_script("return window.notReloaded === true"), "the page was not reloaded for the device")
    check(status(driver)["load"] == "end", "the next pages loaded stay loaded")
    check(driver.execute_script("return document.querySelectorAll('#events li').length") >= events_before,
          "the events stay")
    fitted = driver.execute_script(
        "const r = document.querySelector('.phone').getBoundingClientRect(); return {zoom: window.floorPreview.zoom,"
        " bottom: r.bottom, height: window.innerHeight, label: document.getElementById('zoom').textContent}")
    check(fitted["zoom"] < 1 and fitted["bottom"] <= fitted["height"] + 1,
          f"the phone is zoomed to fit the window: {fitted}")
    link = wait(driver, lambda d: d.current_url if "device=ipad-mini" in d.current_url and "y=" in d.current_url else None)
    check(bool(link), f"the URL holds the device and the offset: {driver.current_url}")
    Select(driver.find_element("id", "device")).select_by_value("iphone-se")
    small = wait(driver, lambda d: status(d)["resizes"] >= 2 and d.execute_script(
        "return document.querySelector('.phone').offsetWidth") == 320 and status(d)["zoom"] == 1)
    check(bool(small), f"an iPhone SE (320x568) fits the window at 100 %: zoom {status(driver)['zoom']}")
    driver.execute_script("const w = document.getElementById('width'); w.value = 1200; w.dispatchEvent(new Event('change'))")
    check(status(driver)["resizes"] == 2 and driver.execute_script("return !document.getElementById('width').checkValidity()"),
          "a width of 1200 is refused in the field, nothing is switched")
    if link:
        y = int(link.split("y=")[1].split("&")[0])
        driver.get(link)
        opened = wait(driver, lambda d: status(d) and status(d)["answers"] >= 1 and abs(d.execute_script(
            "return document.querySelector('.screen').scrollTop") - y) <= 1 and d.execute_script(
            "return document.querySelector('.phone').offsetWidth") == 744, 10)
        got = driver.execute_script("return [document.querySelector('.screen').scrollTop, document.querySelector('.phone').offsetWidth, window.floorPreview]")
        check(bool(opened), f"the link opens the same device at the same offset ({y}): {got}")
        driver.save_screenshot(args.screenshot.replace(".png", "-ipad.png"))
    driver.get(args.url)
    check(wait(driver, lambda d: status(d) and status(d)["answers"] >= 1), "the page opens again on the default device")

    # 6. Pictures: the example pages' images (SVG files under the root) are drawn, and an image file
    # opened on its own runs no script (its Content-Security-Policy sandboxes it).
    drawn = wait(driver, lambda d: d.execute_script(
        "const i = [...document.querySelectorAll('.page .row .img img')]; "
        "return i.filter(x => x.complete && x.naturalWidth > 0).length"))
    check(bool(drawn), f"the pages' pictures are drawn from files under the root ({drawn} loaded)")
    evil = os.path.join(os.path.dirname(args.file), "images", "evil.svg")
    os.makedirs(os.path.dirname(evil), exist_ok=True)
    with open(evil, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg"><script>document.title = "script ran"</script></svg>')
    base = args.url.split("/page/")[0]
    driver.get(base + "/image/images/evil.svg")
    wait(driver, lambda d: d.execute_script("return document.readyState === 'complete'"))
    check(driver.title != "script ran", f"an SVG opened on its own runs no script (title {driver.title!r})")
    driver.get(args.url)
    wait(driver, lambda d: status(d) and status(d)["answers"] >= 1)

    # 7. A screenshot of the top of the page, with a product selected.
    driver.execute_script("document.querySelector('.screen').scrollTop = 330")
    wait(driver, lambda d: status(d)["answers"] > 0 and d.execute_script("return document.querySelectorAll('.page .row').length") > 5)
    # The screenshot shows real type: the served font files have loaded (a condition, not a sleep).
    loaded = wait(driver, lambda d: d.execute_script(
        "return document.fonts.status === 'loaded' && [...document.fonts].some(f => f.family === 'FloorSans' && f.status === 'loaded')"), 30)
    check(bool(loaded), "the preview's font files load")
    driver.save_screenshot(args.screenshot)
    print("screenshot: " + args.screenshot)


if __name__ == "__main__":
    main()
