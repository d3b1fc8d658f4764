"""The browser client in a real headless Chromium: open the page, act, see the DOM change."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import browser_cookies

RGB = {"red": "rgb(255, 0, 0)", "blue": "rgb(0, 0, 255)", "purple": "rgb(128, 0, 128)"}


def wait(browser, condition, timeout=10):
    return WebDriverWait(browser, timeout).until(lambda b: condition(b))


def background(browser):
    return browser.execute_script(
        "return getComputedStyle(document.querySelector('[data-bindery]')).backgroundColor")


def button_text(browser):
    return browser.find_element(By.ID, "change").text


def test_index_lists_the_catalog(server, browser):
    import requests
    catalog = requests.get(server.api(), timeout=5).json()["viewModels"]
    names = [vm["name"] for vm in catalog]
    # A ViewModel another's output opens is a child screen: its page needs the session the parent made.
    parents = {output["schema"]["x-bindery-view-model"]: vm["name"] for vm in catalog for output in vm["outputs"]
               if "x-bindery-view-model" in output.get("schema", {})}
    assert parents == {"detail": "list", "todo-edit": "todos"}
    browser.get(server.url + "/")
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".catalog li a.inspect")) == len(names))
    for name in names:
        item = browser.find_element(By.CSS_SELECTOR, f"[data-view-model='{name}']")
        assert item.find_element(By.CSS_SELECTOR, "a.inspect").get_attribute("href").endswith(f"/_bindery/v1/inspector.html?vm={name}")
        if name in parents:
            assert not item.find_elements(By.CSS_SELECTOR, "a.page"), f"{name} is opened from {parents[name]}, not alone"
            assert item.find_element(By.CSS_SELECTOR, ".opened-from a").get_attribute("href").endswith(f"/{parents[name]}.html")
        else:
            assert item.find_element(By.CSS_SELECTOR, "a.page").get_attribute("href").endswith(f"/{name}.html"), f"{name} has a page"
    simple = browser.find_element(By.CSS_SELECTOR, "[data-view-model='simple']")
    assert "Color cycling" in simple.text
    assert [c.text for c in simple.find_elements(By.CSS_SELECTOR, ".chip.in")] == ["buttonTap"]
    assert [c.text for c in simple.find_elements(By.CSS_SELECTOR, ".chip.out.driver")] == ["backgroundColor", "buttonTitle"]


def test_color_page_click_changes_color_and_title_without_reload(server, browser):
    browser.get(server.url + "/simple.html")
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "open")
    wait(browser, lambda b: button_text(b) == "Change to blue")
    wait(browser, lambda b: background(b) == RGB["red"])
    browser.execute_script("window.__sameDocument = true")

    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: button_text(b) == "Change to purple")
    wait(browser, lambda b: background(b) == RGB["blue"])

    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: background(b) == RGB["purple"] and button_text(b) == "Change to red")
    assert browser.execute_script("return window.__sameDocument") is True, "no reload happened"
    assert "session=" in browser.current_url


def test_page_recovers_state_after_its_stream_is_stopped_and_restarted(server, browser):
    browser.get(server.url + "/simple.html")
    wait(browser, lambda b: button_text(b) == "Change to blue")
    session = browser.execute_script("return window.bindery.sessionId")

    browser.execute_script("window.bindery.stop()")
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "closed")
    server.send("simple", session, "buttonTap", cookies=browser_cookies(browser))  # changes happen while the page is away
    server.send("simple", session, "buttonTap", cookies=browser_cookies(browser))
    assert button_text(browser) == "Change to blue"

    browser.execute_script("window.bindery.start()")
    wait(browser, lambda b: background(b) == RGB["purple"] and button_text(b) == "Change to red")
    assert browser.execute_script("return document.documentElement.dataset.binderyState") == "open"


def test_second_tab_on_the_same_session_sees_the_same_state(server, browser):
    session = server.create()
    server.send("simple", session, "buttonTap")
    browser.get(f"{server.url}/simple.html?session={session}")
    wait(browser, lambda b: background(b) == RGB["blue"] and button_text(b) == "Change to purple")
    server.send("simple", session, "buttonTap")
    wait(browser, lambda b: background(b) == RGB["purple"])


def test_connection_state_shows_ended_when_the_session_is_disposed(server, browser):
    import requests
    browser.get(server.url + "/simple.html")
    # The page shows the session's values before its stream is open (they come with
    # the create answer); a DELETE before the stream opens looks like a lost session.
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "open")
    session = browser.execute_script("return window.bindery.sessionId")
    assert requests.delete(server.api(f"/simple/{session}"), cookies=browser_cookies(browser), timeout=5).status_code == 204
    wait(browser, lambda b: b.find_element(By.CSS_SELECTOR, "[data-bindery-connection]").text == "ended")


def test_many_navigations_do_not_exhaust_the_browsers_connections(server, browser):
    # Six HTTP/1.1 connections per host: pages must close their stream when they go.
    for _ in range(8):
        browser.get(server.url + "/simple.html")
        wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "open")
        assert browser.execute_script("return fetch('/api').then(r => r.status)") == 200
