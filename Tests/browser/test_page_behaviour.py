"""What a person sees the client do: outputs named like EventSource's own events,
Enter right after typing, and a hidden tab that lets go of its stream."""
import time

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_cookies, make_browser, page_state, start_server, stop_server, texts, wait, wait_open


def test_an_output_named_error_is_an_output_not_a_connection_error(server, each_transport):
    browser = each_transport
    # HomeViewModel's typed `error` output (practical MVVM): an event called "error",
    # which EventSource also uses for its own connection errors.
    browser.get(server.url + "/home.html?failure=internet")
    wait(browser, lambda b: "offline" in b.find_element(By.ID, "error").text)
    browser.execute_script("window.states = []; window.bindery.addEventListener('state', (e) => states.push(e.detail))")
    browser.find_element(By.ID, "reload").click()  # another error event on a live stream
    wait(browser, lambda b: b.execute_script(
        "return [...document.querySelectorAll('.bindery-toast')].filter((t) => t.textContent.includes('offline')).length") >= 2)
    assert page_state(browser) == "open"
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-connection]").text == "open"
    assert browser.execute_script("return states") == []
    assert browser.execute_script("return window.bindery.transport") == browser.transport


def test_enter_right_after_typing_sends_the_text(server, browser):
    browser.get(server.url + "/messages.html")
    wait_open(browser)
    field = browser.find_element(By.ID, "text")
    # Send is data-enabled="canSend", which the debounced editText enables: Enter
    # comes before the debounce fires, while the button is still disabled.
    field.send_keys("Typed and sent at once", Keys.ENTER)
    wait(browser, lambda b: texts(b, "#messages li") == ["Typed and sent at once"])
    wait(browser, lambda b: field.get_attribute("value") == "")
    # Enter on an empty field still does nothing (canSend is false). Inputs go
    # out in order: the answer to one sent after it is the proof that nothing was.
    field.send_keys(Keys.ENTER)
    marker = browser.execute_async_script(
        "const done = arguments[0]; window.bindery.send('editText', '').then(done, (error) => done(String(error)))")
    assert marker["outputs"]["isSending"] is False, marker
    assert texts(browser, "#messages li") == ["Typed and sent at once"]


def stream_refused(server, view_model, session, cookies):
    """Whether the server refuses the browser of `cookies` one more stream on the session (it runs with --max-streams-per-session 1)."""
    response = requests.get(server.api(f"/{view_model}/{session}/events"), stream=True, cookies=cookies, timeout=5)
    try:
        return response.status_code == 503
    finally:
        response.close()


def test_a_hidden_tab_releases_its_stream_and_resumes_without_missing_or_repeating_events():
    # Switching tabs is what fires visibilitychange both ways in this (new headless)
    # Chromium: opening or selecting another tab hides this one, selecting it shows
    # it again (windows stay visible). Emulation.setFocusEmulationEnabled does not
    # change document.visibilityState; Page.setWebLifecycleState "frozen" hides the
    # page but also freezes its timers, and "active" leaves it hidden.
    # One stream per session, so a second one is refused while the page holds its
    # own; the default heartbeat: a released stream's place comes back when its
    # socket closes, not at the next write.
    server = start_server(["--max-streams-per-session", "1"])
    try:
        for transport in ("shared", "direct"):
            browser = make_browser(without_shared_worker=transport == "direct")
            try:
                browser.get(server.url + "/table.html")
                wait_open(browser)
                session = browser.execute_script("return window.bindery.sessionId")
                cookies = browser_cookies(browser)  # the page's: another tab's page has none
                wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
                browser.execute_script("""window.seen = [];
                    window.bindery.addEventListener('output', (e) => {
                      if (e.detail.name === 'showItemContent') seen.push([e.detail.id, e.detail.value]);
                    });""")
                browser.find_element(By.CSS_SELECTOR, "[data-list='items'] li[data-key='1']").click()
                wait(browser, lambda b: len(b.execute_script("return seen")) == 1)
                assert stream_refused(server, "table", session, cookies), "the visible page holds the session's one stream"
                page = browser.current_window_handle

                browser.switch_to.new_window("tab")  # the table page is hidden now
                deadline = time.monotonic() + 10
                while stream_refused(server, "table", session, cookies):
                    assert time.monotonic() < deadline, f"{transport}: the hidden page kept its stream"
                    time.sleep(0.2)
                server.send("table", session, "selectItem", 2, cookies=cookies)  # signals while the page is away
                server.send("table", session, "selectItem", 4, cookies=cookies)

                browser.switch_to.window(page)
                wait_open(browser)
                wait(browser, lambda b: len(b.execute_script("return seen")) >= 3)
                # One more signal after them: anything replayed would come before it.
                server.send("table", session, "selectItem", 5, cookies=cookies)
                wait(browser, lambda b: "Where and when work runs" in b.execute_script("return seen")[-1][1])
                seen = browser.execute_script("return seen")
                assert [value.split(":")[0].split(";")[0] for _, value in seen] == [
                    "A sequence of events over time", "Both an observer and an observable",
                    "Shared, not replaying, never failing", "Where and when work runs"], f"{transport}: each signal once: {seen}"
                ids = [int(id) for id, _ in seen]
                assert ids == sorted(set(ids)), f"{transport}: in order: {seen}"
            finally:
                browser.quit()
    finally:
        stop_server(server)


def search_inputs(server):
    """How many inputs the search ViewModel has been sent, from /metrics."""
    for line in requests.get(server.url + "/metrics", timeout=5).text.splitlines():
        if line.startswith('bindery_inputs_total{view_model="search"}'):
            return int(float(line.split()[-1]))
    return 0


def test_a_new_session_gets_what_each_unbound_field_shows_and_a_resumed_one_does_not(server, browser):
    """As `textField.rx.text` emits the field's text when it is bound on iOS, a page that
    creates its session sends each field's value once (the search field's empty query);
    a page that finds its session again (a reload) sends nothing it was not asked to."""
    before = search_inputs(server)
    browser.get(server.url + "/search.html")
    wait_open(browser)
    wait(browser, lambda b: search_inputs(server) == before + 1)
    wait(browser, lambda b: b.find_element(By.ID, "summary").text == "Type part of an operator's name")
    browser.refresh()
    wait_open(browser)
    # Inputs go in order: once one sent after the reload is answered, an initial value
    # sent on reload would have been counted before it.
    browser.execute_async_script("const done = arguments[0]; window.bindery.send('query', 'take').then(() => done(), done)")
    assert search_inputs(server) == before + 2, "a resumed session is not sent the fields again"
