"""What Conduit's browser tests (here, and Tests/cluster's) share: its binary,
a wait that tolerates a page drawn again as it reads it, signing up through
the register page, and what an article or a feed shows."""
import os

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By

from pages import wait as wait_until, wait_open

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def conduit_binary():
    """`conduit`, beside the `bindery` the tests run (BINDERY_BINARY, else the debug build)."""
    bindery = os.environ.get("BINDERY_BINARY", os.path.join(ROOT, ".build/debug/bindery"))
    return os.path.join(os.path.dirname(bindery), "conduit")


def wait(driver, condition, timeout=15):
    """`wait`, where an element the condition reads may be replaced as it reads it (a list
    drawn again, a page changed in place): such a read is not yet, not a failure."""
    def holds(d):
        try:
            return condition(d)
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    return wait_until(driver, holds, timeout)


def register(driver, url, name):
    """Signs up as `name` (`<name>@example.org`) through `url`'s register page, and waits for home."""
    driver.get(url + "/register")
    wait_open(driver)
    form = driver.find_element(By.CSS_SELECTOR, "form")
    form.find_element(By.NAME, "username").send_keys(name)
    form.find_element(By.NAME, "email").send_keys(f"{name}@example.org")
    form.find_element(By.NAME, "password").send_keys("correct horse battery")
    form.find_element(By.TAG_NAME, "button").click()
    wait(driver, lambda d: d.execute_script("return location.pathname") == "/" and
         d.execute_script("return document.querySelector('#nav-profile span').textContent") == name)


def previews(driver):
    """The titles of the article previews the page shows, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#articles > .article-preview h1')].map((h) => h.textContent)")


def comments(driver):
    """The comments an article's page shows, newest first."""
    return [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#comments .card-text")]
