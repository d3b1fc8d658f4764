"""A page outlives its session: a restarted server, a stale ?session=, inputs made
while the server is down, and a create the server refuses."""
import requests
from selenium.webdriver.common.by import By

from conftest import browser_cookies, notice, page_state, start_server, stop_server, wait, wait_open


def session_id(driver):
    return driver.execute_script("return window.bindery && window.bindery.sessionId")


def button_text(driver):
    return driver.find_element(By.ID, "change").text


def record_states(driver):
    driver.execute_script("window.states = []; window.bindery.addEventListener('state', (e) => states.push(e.detail))")


def test_a_page_recovers_by_itself_when_the_server_restarts(restartable_server, each_transport):
    browser, server = each_transport, restartable_server
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: button_text(b) == "Change to purple")
    old = session_id(browser)
    record_states(browser)

    server.restart()  # sessions live in memory: the page's session is gone

    wait(browser, lambda b: session_id(b) not in (None, old) and page_state(b) == "open", timeout=20)
    new = session_id(browser)
    assert f"session={new}" in browser.current_url
    assert "started a new one" in (notice(browser) or "")
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-notice]").get_attribute("data-kind") == "recovered"
    states = browser.execute_script("return states")
    assert states[-1] == "open" and "connecting" in states, states
    # The page is live on the new session: its state, its inputs, its stream.
    assert button_text(browser) == "Change to blue"
    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: button_text(b) == "Change to purple")
    server.send("simple", new, "buttonTap", cookies=browser_cookies(browser))  # from elsewhere: arrives over the stream
    wait(browser, lambda b: button_text(b) == "Change to red")
    assert browser.execute_script("return window.bindery.transport") == browser.transport


def test_the_recovery_notice_leaves_the_heading_in_view_and_goes_by_itself(restartable_server, browser):
    server = restartable_server
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    old = session_id(browser)
    server.restart()
    wait(browser, lambda b: session_id(b) not in (None, old) and page_state(b) == "open", timeout=20)
    assert "started a new one" in (notice(browser) or "")
    overlap = browser.execute_script("""
        const a = document.querySelector('[data-bindery-notice]').getBoundingClientRect();
        const b = document.querySelector('header').getBoundingClientRect();
        const c = document.querySelector('#change').getBoundingClientRect();
        const meets = (r) => !(a.right <= r.left || r.right <= a.left || a.bottom <= r.top || r.bottom <= a.top);
        return meets(b) || meets(c)""")
    assert not overlap, "the notice covers the page's header or its button"
    # It needs nothing from the reader: it goes by itself once read.
    wait(browser, lambda b: notice(b) is None, timeout=15)


def test_an_input_made_while_the_server_is_down_is_delivered_when_it_is_back(restartable_server, each_transport):
    browser, server = each_transport, restartable_server
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    old = session_id(browser)
    record_states(browser)

    server.stop()
    wait(browser, lambda b: page_state(b) == "offline", timeout=15)
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-connection]").text == "offline"
    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyPending") == "1")
    wait(browser, lambda b: "1 input waits to be sent" in (notice(b) or ""))

    server.start()
    wait(browser, lambda b: session_id(b) not in (None, old) and page_state(b) == "open", timeout=20)
    # The waiting tap went to the new session (red → blue), after nothing else.
    wait(browser, lambda b: button_text(b) == "Change to purple")
    assert browser.execute_script("return document.documentElement.dataset.binderyPending") is None
    snapshot = requests.get(server.api(f"/simple/{session_id(browser)}"), cookies=browser_cookies(browser), timeout=5).json()
    assert snapshot["outputs"]["backgroundColor"] == "blue"
    assert "offline" in browser.execute_script("return states")


def test_a_stale_session_in_the_url_starts_a_new_session_with_the_start_inputs(server, browser):
    browser.get(server.url + "/table.html?session=no-such-session")
    wait(browser, lambda b: session_id(b) not in (None, "no-such-session") and page_state(b) == "open")
    assert f"session={session_id(browser)}" in browser.current_url
    # data-bindery-start="fetchItems" went to the new session
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "[data-list='items'] li")) == 5)
    assert "started a new one" in (notice(browser) or "")


def test_a_refused_create_shows_the_servers_message():
    from conftest import make_browser
    server = start_server(["--max-sessions", "1"])
    browser = make_browser()
    try:
        browser.get(server.url + "/simple.html")
        wait_open(browser)
        # The first page's session still counts: the next page's create gets 503 limit_reached.
        browser.get(server.url + "/simple.html")
        wait(browser, lambda b: page_state(b) == "failed")
        assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-connection]").text == "failed"
        assert "already runs 1 sessions" in (notice(browser) or "")
        assert "?session=" not in browser.current_url
        # A refusal that may pass (the server is full) is said once, in the notice, with a way to try again.
        browser.get(server.url + "/messages.html")
        wait(browser, lambda b: "already runs 1 sessions" in (notice(b) or ""))
        assert page_state(browser) == "failed"
        assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text == "", "said once"
        assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-notice] button").text == "Try again"
        assert not browser.find_element(By.ID, "text").is_enabled(), "nothing typed there could go anywhere"
        # Inputs have nowhere to go: they are refused where the page can see it.
        browser.execute_script("window.bindery.send('editText', 'x').catch((e) => (window.refused = e.message))")
        wait(browser, lambda b: b.execute_script("return window.refused") == "this page has no session")
    finally:
        browser.quit()
        stop_server(server)


def test_a_page_whose_parameters_are_refused_says_so_once_and_holds_its_controls(server, browser):
    browser.get(server.url + "/todos.html?list=bad%20list!")
    wait(browser, lambda b: page_state(b) == "failed")
    errors = browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text
    assert errors.startswith("This page cannot start:") and "list" in errors, errors
    assert notice(browser) is None, "said once, where the page shows errors: asking again would not help"
    assert not browser.find_element(By.CSS_SELECTOR, ".todo-new input[name='title']").is_enabled()
