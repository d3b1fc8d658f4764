"""The pages under the server's Content-Security-Policy: no inline script, no
violation, and the creation parameters they used to compute in inline scripts
now come from data-bindery-query."""
import os

import requests
from selenium.webdriver.common.by import By

from conftest import ROOT, browser_cookies, make_browser, page_state, wait, wait_open

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) =>
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));
"""


def test_every_page_runs_under_the_policy_without_a_violation(server):
    browser = make_browser()
    try:
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
        pages = sorted(name for name in os.listdir(os.path.join(ROOT, "Public")) if name.endswith(".html"))
        assert "simple.html" in pages
        for page in pages + ["_bindery/v1/inspector.html?vm=messages"]:
            browser.get(f"{server.url}/{page}")
            if page == "index.html":
                wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".catalog li")) > 0)
            else:
                wait(browser, lambda b: page_state(b) in ("open", "failed"))
            assert browser.execute_script("return window.__violations") == [], page
        response = requests.get(f"{server.url}/simple.html", timeout=5)
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        browser.quit()


def test_creation_parameters_come_from_the_url_without_inline_script(server, browser):
    browser.get(server.url + "/profile.html?user=2")
    wait(browser, lambda b: b.find_element(By.ID, "name").text == "Grace Hopper")
    browser.get(server.url + "/profile.html")
    wait(browser, lambda b: b.find_element(By.ID, "name").text == "Ada Lovelace")

    browser.get(server.url + "/todos.html?list=groceries")
    wait_open(browser)
    wait(browser, lambda b: b.find_element(By.ID, "list-name").text == "groceries")
    browser.get(server.url + "/todos.html")
    wait_open(browser)
    wait(browser, lambda b: b.find_element(By.ID, "list-name").text == "default")


def test_a_pages_url_pasted_into_another_browser_starts_a_session_of_its_own(server, browser):
    browser.get(server.url + "/todos.html?list=pasted")
    wait_open(browser)
    first = browser.execute_script("return window.bindery.sessionId")
    url = browser.current_url
    assert f"session={first}" in url
    other = make_browser()
    try:
        other.get(url)
        wait(other, lambda b: b.execute_script("return window.bindery.sessionId") not in (None, first) and page_state(b) == "open")
        # The same page and parameters, its own session: the pasted id granted nothing.
        wait(other, lambda b: b.find_element(By.ID, "list-name").text == "pasted")
        assert requests.get(server.api(f"/todos/{first}"), cookies=browser_cookies(other), timeout=5).status_code == 404
    finally:
        other.quit()
    assert requests.get(server.api(f"/todos/{first}"), cookies=browser_cookies(browser), timeout=5).status_code == 200
    assert page_state(browser) == "open"
