"""Every page on a phone (390×844, touch): nothing is wider than the screen,
and what a thumb must hit is on screen and at least 24×24 CSS pixels (WCAG 2.2's
minimum target size)."""
import os

import pytest
import requests

from conftest import make_browser, texts, wait, wait_open

PAGES = sorted(name for name in os.listdir(os.path.join(os.path.dirname(__file__), "..", "..", "Public")) if name.endswith(".html"))


@pytest.fixture(scope="module")
def phone():
    driver = make_browser()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "hover", "value": "none"}, {"name": "pointer", "value": "coarse"}]})
    yield driver
    driver.quit()


def overflow(driver):
    """How many CSS pixels the page is wider than the screen."""
    return driver.execute_script("const e = document.documentElement; return e.scrollWidth - e.clientWidth")


@pytest.mark.parametrize("page", PAGES + ["_bindery/v1/inspector.html?vm=todos"])
def test_no_page_is_wider_than_a_phone(server, phone, page):
    phone.get(f"{server.url}/{page}")
    if page != "index.html":
        wait_open(phone)
    assert phone.execute_script("return window.innerWidth") == 390
    assert overflow(phone) <= 0, f"{page} scrolls sideways by {overflow(phone)} px"


def test_every_todo_action_can_be_tapped(server, phone):
    sid = requests.post(server.api("/todos"), json={"list": "phone"}, timeout=5).json()["id"]
    for title in ["Buy oat milk, bread and a very long list of other things", "Call the plumber", "Water plants"]:
        requests.post(server.api(f"/todos/{sid}/inputs/add"), json=title, timeout=5)
    phone.get(server.url + "/todos.html?list=phone")
    wait(phone, lambda b: len(texts(b, "#items li")) == 3)
    targets = phone.execute_script("""
        return [...document.querySelectorAll('#items li input[type=checkbox], #items li button')]
          .filter((e) => getComputedStyle(e).visibility === 'visible')
          .map((e) => { const r = e.getBoundingClientRect();
                        return {name: e.getAttribute('aria-label'), left: r.left, right: r.right, width: r.width,
                                height: r.height, opacity: Number(getComputedStyle(e.parentElement).opacity)}; })""")
    # Per row: done, then up and/or down (the first has no up, the last no down), edit, delete.
    assert len(targets) == 3 * 5 - 2
    for target in targets:
        assert target["left"] >= 0 and target["right"] <= 390, target
        assert target["width"] >= 24 and target["height"] >= 24, target
        # Without hover, the actions do not wait for one to show.
        assert target["opacity"] == 1, target
    assert overflow(phone) <= 0
