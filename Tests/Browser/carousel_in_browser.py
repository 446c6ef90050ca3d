#!/usr/bin/env python3
"""The real-browser test of carousels and item frames in `floorhost serve` (run by
Tests/FloorServeTests/CarouselBrowserTests.swift), through headless chromium:

  1. the Focus carousel says data-pages="4" data-page="0" and has a dot a page (data-page-dot);
  2. the next arrow, a dot, a mouse drag and a touch swipe each turn it (wrapping around at the ends);
  3. a click on the banner shows that banner's action and outlines its frame, not the row; a drag is no tap;
  4. a click on an icon outlines the icon's column only;
  5. an impression is counted per banner shown (the events panel);
  6. saves a screenshot of the carousel turned to its second banner, the banner selected.

Waits are on conditions with deadlines, never fixed sleeps. Exit status 0 when every check passed.
"""
import argparse, json, sys, time

from chromium import check, run as run_in_chromium, wait
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction




CAROUSEL = ".page .row.paged[data-floor=focus]"


def carousel(driver):
    return driver.execute_script(
        f"const r = document.querySelector('{CAROUSEL}'); if (!r) return null;"
        "return {pages: r.dataset.pages, page: r.dataset.page, dots: [...r.querySelectorAll('[data-page-dot]')].map(d => d.dataset.pageDot),"
        " on: [...r.querySelectorAll('.dot.on')].map(d => d.dataset.pageDot), image: (r.querySelector('.img') || {dataset: {}}).dataset.source}")


def on_page(driver, page, what):
    state = wait(driver, lambda d: (lambda c: c if c and c["page"] == str(page) and c["on"] == [str(page)] else None)(carousel(d)))
    check(bool(state), f"{what}: data-page is {page} and dot {page} is filled ({carousel(driver)})")
    return state


def action_text(driver):
    return driver.find_element("id", "action").text


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--screenshot", required=True)
    args = p.parse_args()
    run_in_chromium(lambda driver: run(driver, args))


def row(driver):
    return driver.find_element("css selector", CAROUSEL)


def drag(driver, dx, touch=False):
    el = row(driver)
    if touch:
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(driver, mouse=finger)
        actions.pointer_action.move_to(el).pointer_down()
        for step in range(1, 6):
            actions.pointer_action.move_by(dx // 5, 0)
        actions.pointer_action.pointer_up()
        actions.perform()
    else:
        ActionChains(driver).move_to_element(el).click_and_hold().move_by_offset(dx // 2, 0).move_by_offset(dx - dx // 2, 0).release().perform()


def run(driver, args):
    driver.get(args.url)
    state = wait(driver, carousel)
    check(bool(state) and state["pages"] == "4" and state["page"] == "0", f"the carousel says 4 pages, page 0: {state}")
    check(bool(state) and state["dots"] == ["0", "1", "2", "3"] and state["on"] == ["0"], f"a dot a page, the first filled: {state}")

    # 2. Arrows, dots, a drag and a swipe.
    row(driver).find_element("css selector", ".pager.next").click()
    state = on_page(driver, 1, "the next arrow")
    check(bool(state) and "fresh" in (state["image"] or ""), f"page 1 draws banner 2: {state}")
    row(driver).find_element("css selector", ".pager.prev").click()
    on_page(driver, 0, "the previous arrow")
    row(driver).find_element("css selector", "[data-page-dot='3']").click()
    on_page(driver, 3, "dot 3")
    before = action_text(driver)
    drag(driver, -160)
    on_page(driver, 0, "a drag to the left from the last page (wraps to the first)")
    check(action_text(driver) == before, "a drag is not a tap")
    drag(driver, 160)
    on_page(driver, 3, "a drag to the right from the first page (wraps to the last)")
    drag(driver, -160, touch=True)
    on_page(driver, 0, "a touch swipe to the left")
    drag(driver, -160, touch=True)
    on_page(driver, 1, "another swipe")

    # 3. Tap the banner: its own action, its frame outlined.
    turns = driver.execute_script("return window.floorPreview.pageTurns")
    check(turns >= 7, f"every turn went to the session: {turns}")
    ActionChains(driver).move_to_element_with_offset(row(driver), 0, -20).click().perform()
    action = wait(driver, lambda d: (lambda t: t if '"bannerId"' in t else None)(action_text(d)))
    parsed = json.loads(action) if action else {}
    check(parsed.get("params", {}).get("bannerId") == "b2" and parsed.get("item") == 1,
          f"a click on banner 2 shows its action: {action!r}")
    outline = driver.execute_script(
        f"const o = document.querySelector('{CAROUSEL} .itemsel'); if (!o) return null; const b = o.getBoundingClientRect(), r = o.parentElement.getBoundingClientRect();"
        "return {item: o.dataset.item, width: b.width, height: b.height, rowHeight: r.height}")
    check(bool(outline) and outline["item"] == "1" and outline["height"] < outline["rowHeight"],
          f"the banner's frame is outlined, not the row (the dots are outside it): {outline}")
    driver.save_screenshot(args.screenshot)
    print("screenshot: " + args.screenshot)

    # 4. An icon: its column outlined.
    icon = driver.find_element("css selector", ".page .row.tappable[data-type=IconGridLine]")
    # The phone may be zoomed to fit the window (the preview's zoom): the offset is in on-screen pixels, so
    # it is taken from the row's on-screen box, not its unzoomed size; 20 px in is inside the first fifth.
    shown = driver.execute_script("return arguments[0].getBoundingClientRect().width", icon)
    ActionChains(driver).move_to_element_with_offset(icon, -int(shown // 2) + 20, 0).click().perform()
    outline = wait(driver, lambda d: d.execute_script(
        "const o = document.querySelector('.row[data-type=IconGridLine] .itemsel'); if (!o) return null;"
        "return {item: o.dataset.item, width: o.getBoundingClientRect().width, row: o.parentElement.getBoundingClientRect().width}"))
    check(bool(outline) and outline["item"] == "0" and abs(outline["width"] - outline["row"] / 5) < 1,
          f"a click on the first icon outlines its fifth of the line: {outline}")
    check('"iconId"' in action_text(driver), f"and shows its action: {action_text(driver)!r}")

    # 5. Impressions: banners shown long enough counted, each once, the one never shown not.
    seen = wait(driver, lambda d: (lambda l: l if any(" b2 " in t for t in l) else None)(d.execute_script(
        "return [...document.querySelectorAll('#events li.impression')].map(li => li.textContent + ' ').filter(t => t.startsWith('impression focus'))")), 10)
    seen = seen or []
    check(any(" b1 " in t for t in seen) and any(" b2 " in t for t in seen), f"banners 1 and 2 counted: {seen}")
    check(not any(" b3 " in t for t in seen), f"banner 3, never shown, not counted: {seen}")
    check(len([t for t in seen if " b1 " in t]) == 1, f"banner 1 counted once though shown twice: {seen}")


if __name__ == "__main__":
    main()
