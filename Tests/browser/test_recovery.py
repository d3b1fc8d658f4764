"""A page outlives its server: a restarted or killed server gives the page its
session back as it was; where sessions are not kept (or the id is stale) the page
starts a new one by itself. Inputs made while the server is down, and a create
the server refuses."""
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

import pytest
import requests
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_cookies, notice, page_state, start_server, stop_server, texts, wait, wait_open
from pages import button_text, record_states, reconnected, session_id


def stored_state(server, session):
    """The declared state the server saved for `session`, read from its database file."""
    with sqlite3.connect(f"file:{server.extra[1]}?mode=ro", uri=True) as database:
        row = database.execute("SELECT state FROM bindery_session WHERE id = ?", (session,)).fetchone()
    return row[0].decode() if row and row[0] else ""


def wait_stored(server, session, text):
    """Waits until the server has saved `session` with `text` in its state (within about a second)."""
    deadline = time.monotonic() + 10
    while text not in stored_state(server, session):
        assert time.monotonic() < deadline, f"session {session} was not saved with {text}"
        time.sleep(0.05)


def open_simple_tapped_once(browser, server):
    """/simple.html with one tap made (red to blue): its session's id."""
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: button_text(b) == "Change to purple")
    return session_id(browser)


def assert_live(browser, server, session, after_click, after_send):
    """The page is live on `session`: a click reaches it, an input from elsewhere arrives over its stream."""
    browser.find_element(By.ID, "change").click()
    wait(browser, lambda b: button_text(b) == after_click)
    server.send("simple", session, "buttonTap", cookies=browser_cookies(browser))
    wait(browser, lambda b: button_text(b) == after_send)
    assert browser.execute_script("return window.bindery.transport") == browser.transport


def test_a_page_goes_on_with_its_session_when_the_server_restarts(restartable_server, each_transport):
    browser, server = each_transport, restartable_server
    old = open_simple_tapped_once(browser, server)
    record_states(browser)

    server.restart()  # the session is kept in the database: the page finds it again

    wait(browser, reconnected, timeout=20)
    assert session_id(browser) == old and f"session={old}" in browser.current_url
    assert notice(browser) is None, "nothing was lost: nothing to say"
    assert button_text(browser) == "Change to purple"
    assert_live(browser, server, old, after_click="Change to red", after_send="Change to blue")


def test_a_page_goes_on_after_kill_9_with_what_was_saved(restartable_server, browser):
    server = restartable_server
    old = open_simple_tapped_once(browser, server)
    wait_stored(server, old, '"json":"1"')
    record_states(browser)

    server.kill()
    server.start()

    wait(browser, reconnected, timeout=20)
    assert session_id(browser) == old
    assert notice(browser) is None
    assert button_text(browser) == "Change to purple"


def test_a_draft_and_the_messages_sent_come_back_and_typing_goes_on(restartable_server, browser):
    server = restartable_server
    browser.get(server.url + "/messages.html")
    wait_open(browser)
    field = browser.find_element(By.ID, "text")
    field.send_keys("first")
    wait(browser, lambda b: b.find_element(By.ID, "send").is_enabled())
    field.send_keys(Keys.ENTER)
    wait(browser, lambda b: texts(b, "#messages li") == ["first"])
    field.send_keys("a draft")
    old = session_id(browser)
    snapshot = lambda: requests.get(server.api(f"/messages/{old}"), cookies=browser_cookies(browser), timeout=5).json()
    wait(browser, lambda b: snapshot()["outputs"]["draft"] == "a draft")
    record_states(browser)

    server.restart()

    wait(browser, reconnected, timeout=20)
    assert session_id(browser) == old
    assert notice(browser) is None
    assert texts(browser, "#messages li") == ["first"]
    # The field being typed in keeps its text and its focus through the reconnect.
    assert browser.execute_script("return document.activeElement.id") == "text"
    assert field.get_attribute("value") == "a draft"
    field.send_keys(" goes on")
    wait(browser, lambda b: snapshot()["outputs"]["draft"] == "a draft goes on")


def test_a_page_whose_server_forgot_its_session_starts_a_new_one(forgetful_server, each_transport):
    browser, server = each_transport, forgetful_server
    old = open_simple_tapped_once(browser, server)
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
    assert_live(browser, server, new, after_click="Change to purple", after_send="Change to red")


def test_the_recovery_notice_leaves_the_heading_in_view_and_goes_by_itself(forgetful_server, browser):
    server = forgetful_server
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
    wait(browser, lambda b: page_state(b) == "open", timeout=20)
    # The waiting tap went to the same session, kept across the restart (red → blue), after nothing else.
    wait(browser, lambda b: button_text(b) == "Change to purple")
    assert session_id(browser) == old
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


def pending(browser):
    return browser.execute_script("return document.documentElement.dataset.binderyPending")


def list_titles(server, session, browser):
    snapshot = requests.get(server.api(f"/todos/{session}"), cookies=browser_cookies(browser), timeout=5).json()
    return [item["title"] for item in snapshot["outputs"].get("items", [])]


def test_inputs_made_offline_survive_a_reload_and_are_each_applied_once(restartable_server, browser):
    """Typed while the server is away, then the page is reloaded: they are sent from the tab's
    storage once it is back, in order, each with its key, once, even one the server had before."""
    server = restartable_server
    browser.get(server.url + f"/todos.html?list=offline-{time.monotonic_ns()}")
    wait_open(browser)
    session = session_id(browser)
    page = browser.current_url
    # One the server applied, whose answer the page never had (its connection dropped): the page still holds it.
    had = requests.post(server.api(f"/todos/{session}/inputs/add"), json="already there", headers={"Idempotency-Key": "lost-answer"},
                        cookies=browser_cookies(browser), timeout=5)
    assert had.status_code == 200, had.text
    browser.execute_script(
        "sessionStorage.setItem(arguments[0], JSON.stringify([{input: 'add', payload: 'already there', key: 'lost-answer'}]))",
        f"bindery.inputs.todos/{session}")

    server.stop()
    wait(browser, lambda b: page_state(b) == "offline", timeout=15)
    field = browser.find_element(By.ID, "new-title")
    for title in ("one", "two", "three"):
        field.send_keys(title, Keys.ENTER)
    wait(browser, lambda b: pending(b) == "3")

    try:
        browser.get(page)  # no server: the browser's error page, in the same tab
    except WebDriverException:
        pass
    server.start()
    browser.get(page)
    wait_open(browser)
    assert session_id(browser) == session
    wait(browser, lambda b: list_titles(server, session, b) == ["already there", "one", "two", "three"], timeout=15)
    wait(browser, lambda b: pending(b) is None)
    assert browser.execute_script("return sessionStorage.length") == 0, "nothing left to send"


def test_an_input_the_server_cannot_save_waits_and_goes_once_there_is_space(browser):
    """A real full disk under the server's database: the add is answered 507, so the page keeps it,
    says why, and sends it again (with its key) until the disk has room."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    disk = tempfile.mkdtemp(prefix="bindery-small-disk-")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    server = None
    try:
        server = start_server(("--database", os.path.join(disk, "bindery.sqlite")))
        browser.get(server.url + "/todos.html?list=full")
        wait_open(browser)
        session = session_id(browser)
        field = browser.find_element(By.ID, "new-title")
        field.send_keys("before", Keys.ENTER)
        wait(browser, lambda b: list_titles(server, session, b) == ["before"])

        filler = os.path.join(disk, "filler")
        with open(filler, "wb") as file:
            try:
                while True:
                    file.write(b"\xab" * 65536)
                    file.flush()
            except OSError:
                pass
        field.send_keys("while full", Keys.ENTER)
        wait(browser, lambda b: "disk is full" in (notice(b) or ""), timeout=10)
        assert pending(browser) == "1"
        assert "sqlite" not in (notice(browser) or "").lower()

        os.remove(filler)
        wait(browser, lambda b: pending(b) is None, timeout=15)
        assert list_titles(server, session, browser) == ["before", "while full"]
    finally:
        if server:
            stop_server(server)
        subprocess.run(["umount", "-l", disk])
        shutil.rmtree(disk, ignore_errors=True)


def test_a_reactor_page_works_and_comes_back_after_a_restart_where_it_was(restartable_server, browser):
    """The todo list as a ReactorKit reactor (tasks.html): its actions from the page,
    its state's fields on it, a refusal as a toast, and its Codable state kept."""
    server = restartable_server
    browser.get(server.url + "/tasks.html")
    wait_open(browser)
    field = browser.find_element(By.ID, "new-title")
    for title in ("oat milk", "bread", "eggs"):
        field.send_keys(title, Keys.ENTER)
        wait(browser, lambda b, title=title: title in texts(b, "#items .todo-title"))
    browser.find_element(By.CSS_SELECTOR, "#items li[data-key='2'] .todo-done").click()
    wait(browser, lambda b: b.find_element(By.ID, "remaining").text == "2 tasks left")
    clear = browser.find_element(By.ID, "clear-done")
    wait(browser, lambda b: clear.get_attribute("disabled") is None)
    browser.find_element(By.CSS_SELECTOR, "#items li[data-key='1'] .todo-delete").click()
    wait(browser, lambda b: texts(b, "#items .todo-title") == ["bread", "eggs"])
    field.send_keys("   ", Keys.ENTER)
    wait(browser, lambda b: "A task needs a title." in texts(b, ".bindery-toast"))
    old = session_id(browser)
    wait_stored(server, old, "eggs")
    record_states(browser)

    server.restart()

    wait(browser, reconnected, timeout=20)
    assert session_id(browser) == old
    assert texts(browser, "#items .todo-title") == ["bread", "eggs"]
    assert browser.find_element(By.ID, "remaining").text == "1 task left"
    browser.find_element(By.CSS_SELECTOR, "#items li[data-key='3'] .todo-done").click()
    wait(browser, lambda b: b.find_element(By.ID, "remaining").text == "0 tasks left")
