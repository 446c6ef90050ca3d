"""What the real-browser tests share (serve_in_browser.py, plugin_changes_in_browser.py, carousel_in_browser.py,
text_agreement.py): headless chromium started the one way they all need it, a check that prints its verdict and
records a failure, a wait on a condition with a deadline (never a fixed sleep), and the exit status."""
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(ok, what):
    """Prints `ok` or `FAIL` and `what`; a failure fails the test (`finish`). Returns `ok`."""
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def wait(driver, condition, seconds=10.0):
    """Waits (selenium's WebDriverWait) until `condition(driver)` is truthy or `seconds` pass; returns its last
    value, so the check after it says what was found."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.01).until(condition)
    except TimeoutException:
        return condition(driver)


def start(window="1000,1000", scale=1, extra=("--hide-scrollbars", "--lang=zh-CN")):
    """Headless chromium (Debian's, with its chromedriver) at `window` CSS pixels and device scale `scale`."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={window}", f"--force-device-scale-factor={scale}", *extra]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def run(body, **start_options):
    """Starts chromium, runs `body(driver)`, quits it, and exits 1 when a check failed."""
    driver = start(**start_options)
    try:
        body(driver)
    finally:
        driver.quit()
    if failures:
        for failure in failures:
            print("browser test: " + failure, file=sys.stderr)
        sys.exit(1)
