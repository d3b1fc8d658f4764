"""The todo list's page: every input from the page, the live list shared by
tabs, the list surviving a restart (SQLite), and the edit screen."""
import itertools
import os

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import RestartableServer, hide_shared_worker, notice, page_state, wait, wait_open
from pages import add, rows, titles

_lists = itertools.count(1)


def new_list():
    """A list id of its own per test: the module's tests share one server and its database."""
    return f"test-{next(_lists)}"


def open_list(browser, server, name):
    browser.get(f"{server.url}/todos.html?list={name}")
    wait_open(browser)
    wait(browser, lambda b: b.find_element(By.ID, "list-name").text == name)


def row(browser, title):
    for element in browser.find_elements(By.CSS_SELECTOR, "#items > li"):
        if element.find_element(By.NAME, "title").get_attribute("value") == title:
            return element
    raise AssertionError(f"no row {title!r} in {titles(browser)}")


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def shown(browser, element_id):
    return browser.find_element(By.ID, element_id).is_displayed()


def stored(server, name):
    """The list as the server has it, read by a session of its own."""
    response = requests.post(server.api("/todos"), json={"list": name}, timeout=5)
    assert response.status_code == 201, response.text
    return [(item["title"], item["done"]) for item in response.json()["outputs"]["items"]]


def toasts(browser):
    return [toast.text for toast in browser.find_elements(By.CSS_SELECTOR, "#toasts .bindery-toast")]


def test_add_toggle_clear_and_delete_with_the_count_and_the_empty_state(server, browser):
    name = new_list()
    open_list(browser, server, name)
    assert shown(browser, "empty") and not shown(browser, "remaining")
    assert not browser.find_element(By.ID, "toggle-all").is_enabled()

    add(browser, "milk")
    add(browser, "eggs")
    assert titles(browser) == ["milk", "eggs"]
    assert not shown(browser, "empty")
    assert text(browser, "remaining") == "2 items left"
    assert not browser.find_element(By.ID, "clear-completed").is_enabled()

    row(browser, "milk").find_element(By.CSS_SELECTOR, ".todo-done").click()
    wait(browser, lambda b: text(b, "remaining") == "1 item left")
    assert "done" in row(browser, "milk").get_attribute("class").split()
    assert stored(server, name) == [("milk", True), ("eggs", False)]

    browser.find_element(By.ID, "clear-completed").click()
    wait(browser, lambda b: titles(b) == ["eggs"])
    assert not browser.find_element(By.ID, "clear-completed").is_enabled()

    browser.find_element(By.ID, "toggle-all").click()
    wait(browser, lambda b: rows(b) == [["eggs", True]] and text(b, "remaining") == "0 items left")
    assert browser.find_element(By.ID, "toggle-all").is_selected()
    browser.find_element(By.ID, "toggle-all").click()
    wait(browser, lambda b: rows(b) == [["eggs", False]] and text(b, "remaining") == "1 item left")

    row(browser, "eggs").find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda b: rows(b) == [] and shown(b, "empty"))
    assert not shown(browser, "remaining")
    assert stored(server, name) == []


def test_rename_in_place_and_move_up_and_down(server, browser):
    name = new_list()
    open_list(browser, server, name)
    for title in ("apples", "bread", "cheese"):
        add(browser, title)

    field = row(browser, "bread").find_element(By.NAME, "title")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("rye bread", Keys.ENTER)
    wait(browser, lambda b: stored(server, name)[1] == ("rye bread", False))
    assert titles(browser) == ["apples", "rye bread", "cheese"]

    row(browser, "cheese").find_element(By.CSS_SELECTOR, ".todo-up").click()
    wait(browser, lambda b: titles(b) == ["apples", "cheese", "rye bread"])
    row(browser, "apples").find_element(By.CSS_SELECTOR, ".todo-down").click()
    wait(browser, lambda b: titles(b) == ["cheese", "apples", "rye bread"])
    assert [title for title, _ in stored(server, name)] == ["cheese", "apples", "rye bread"]


def test_a_refused_title_shows_why_and_changes_nothing(server, browser):
    name = new_list()
    open_list(browser, server, name)
    browser.find_element(By.ID, "new-title").send_keys("   ", Keys.ENTER)
    wait(browser, lambda b: "a todo needs a title" in toasts(b))
    assert rows(browser) == [] and stored(server, name) == []

    add(browser, "tea")
    browser.execute_script("document.getElementById('toasts').replaceChildren()")
    field = row(browser, "tea").find_element(By.NAME, "title")
    field.click()
    field.send_keys(Keys.CONTROL, "a", Keys.BACKSPACE, Keys.ENTER)
    wait(browser, lambda b: toasts(b) == ["a todo needs a title"])
    # The stored title comes back to the field: the refused one is not shown as if saved.
    wait(browser, lambda b: titles(b) == ["tea"])
    assert stored(server, name) == [("tea", False)]


def test_two_windows_on_one_list_stay_in_step(server, browser):
    name = new_list()
    open_list(browser, server, name)
    first = browser.current_window_handle
    browser.switch_to.new_window("window")  # windows stay visible; a background tab would pause
    second = browser.current_window_handle
    try:
        if os.environ.get("BINDERY_TEST_WITHOUT_SHARED_WORKER"):
            hide_shared_worker(browser)  # a new window is a new target: the fallback run covers both
        open_list(browser, server, name)
        browser.switch_to.window(first)
        transport = browser.execute_script("return window.bindery.transport")
        browser.switch_to.window(second)
        assert browser.execute_script("return window.bindery.transport") == transport

        browser.switch_to.window(first)
        add(browser, "walk the dog")
        add(browser, "water plants")
        browser.switch_to.window(second)
        wait(browser, lambda b: titles(b) == ["walk the dog", "water plants"])
        assert text(browser, "remaining") == "2 items left"

        row(browser, "water plants").find_element(By.CSS_SELECTOR, ".todo-done").click()
        row(browser, "water plants").find_element(By.CSS_SELECTOR, ".todo-up").click()
        browser.switch_to.window(first)
        wait(browser, lambda b: rows(b) == [["water plants", True], ["walk the dog", False]])
        assert text(browser, "remaining") == "1 item left"

        # A change from elsewhere (curl) reaches both, and a title being typed in one keeps its text.
        browser.switch_to.window(second)
        field = row(browser, "walk the dog").find_element(By.NAME, "title")
        field.click()
        field.send_keys(" twice")
        other = requests.post(server.api("/todos"), json={"list": name}, timeout=5).json()["id"]
        server.send("todos", other, "add", "feed the cat")
        for handle in (first, second):
            browser.switch_to.window(handle)
            wait(browser, lambda b: titles(b)[-1:] == ["feed the cat"] and text(b, "remaining") == "2 items left")
        assert field.get_attribute("value") == "walk the dog twice"
        field.send_keys(Keys.ENTER)
        browser.switch_to.window(first)
        wait(browser, lambda b: titles(b) == ["water plants", "walk the dog twice", "feed the cat"])
    finally:
        browser.switch_to.window(second)
        browser.close()
        browser.switch_to.window(first)


def test_the_page_survives_a_server_restart(browser, tmp_path):
    server = RestartableServer(["--database", str(tmp_path / "todos.sqlite")])
    try:
        name = new_list()
        open_list(browser, server, name)
        add(browser, "survive")
        add(browser, "restart")
        row(browser, "survive").find_element(By.CSS_SELECTOR, ".todo-done").click()
        wait(browser, lambda b: text(b, "remaining") == "1 item left")
        old = browser.execute_script("return window.bindery.sessionId")

        browser.execute_script("window.states = []; window.bindery.addEventListener('state', (e) => states.push(e.detail))")
        server.restart()  # the list is on disk, and the page's session is kept beside it

        wait(browser, lambda b: "connecting" in b.execute_script("return states") and page_state(b) == "open", timeout=20)
        assert browser.execute_script("return window.bindery.sessionId") == old
        assert notice(browser) is None
        assert f"list={name}" in browser.current_url
        assert rows(browser) == [["survive", True], ["restart", False]]
        assert text(browser, "remaining") == "1 item left"
        add(browser, "and carry on")
        assert stored(server, name) == [("survive", True), ("restart", False), ("and carry on", False)]
    finally:
        server.close()


def test_the_edit_screen_saves_and_goes_back_to_the_list(server, browser):
    name = new_list()
    open_list(browser, server, name)
    add(browser, "tea")
    add(browser, "scones")
    row(browser, "tea").find_element(By.CSS_SELECTOR, ".todo-edit").click()

    wait(browser, lambda b: "/todo-edit.html?session=" in b.current_url)
    wait_open(browser)
    wait(browser, lambda b: b.find_element(By.ID, "draft").get_attribute("value") == "tea")
    assert text(browser, "list-name") == name
    draft, save = browser.find_element(By.ID, "draft"), browser.find_element(By.ID, "save")
    draft.send_keys(Keys.CONTROL, "a", Keys.BACKSPACE)
    wait(browser, lambda b: not save.is_enabled())  # canSave: an empty title cannot be saved
    draft.send_keys("earl grey", Keys.ENTER)

    wait(browser, lambda b: f"/todos.html?list={name}" in b.current_url)
    wait_open(browser)
    wait(browser, lambda b: titles(b) == ["earl grey", "scones"])
    assert stored(server, name) == [("earl grey", False), ("scones", False)]
    # What saving said outlived the navigation (a flash), once: a reload does not show it again.
    flash = browser.find_element(By.ID, "flash")
    assert flash.text == "Saved “earl grey”." and flash.get_attribute("role") == "status"
    browser.refresh()
    wait_open(browser)
    assert not browser.find_element(By.ID, "flash").is_displayed()
    # Back on the list, the page is live on its session: it does not move to the edit screen again.
    add(browser, "jam")
    assert "/todos.html" in browser.current_url


def test_a_change_made_elsewhere_touches_only_the_rows_it_names(server, browser):
    """A keyed list's change redraws the rows it names and no other: a row no
    change names keeps what was put in its field. (A move names every row whose
    position it changes: an item's position is part of its value.)"""
    name = new_list()
    api = requests.Session()
    session = api.post(server.api("/todos"), json={"list": name}, timeout=5).json()["id"]
    inputs = server.api(f"/todos/{session}/inputs")
    for title in ["a", "b", "c", "d"]:
        assert api.post(f"{inputs}/add", json=title, timeout=5).status_code == 200
    open_list(browser, server, name)
    wait(browser, lambda b: titles(b) == ["a", "b", "c", "d"])
    ids = {item["title"]: item["id"] for item in api.get(server.api(f"/todos/{session}"), timeout=5).json()["outputs"]["items"]}
    # What a row shows, changed in the page only: a redraw of the row puts its item's title back.
    browser.execute_script("""
        for (const li of document.querySelectorAll('#items > li')) {
          const field = li.querySelector('[name=title]');
          if (field.value === 'a' || field.value === 'd') field.value = 'kept ' + field.value;
        }""")
    api.post(f"{inputs}/rename", json={"id": ids["b"], "title": "B"}, timeout=5)
    api.post(f"{inputs}/toggle", json=ids["c"], timeout=5)
    for title in ["e", "f"]:
        api.post(f"{inputs}/add", json=title, timeout=5)
    added = api.get(server.api(f"/todos/{session}"), timeout=5).json()["outputs"]["items"][4]["id"]
    api.post(f"{inputs}/delete", json=added, timeout=5)
    wait(browser, lambda b: rows(b) == [["kept a", False], ["B", False], ["c", True], ["kept d", False], ["f", False]])


def test_a_list_of_a_thousand_follows_random_changes_made_elsewhere(server, each_transport):
    """The page gets each change of the list (insert, update, remove, move), not the
    list again, and what it shows stays the list the server holds."""
    browser, name = each_transport, new_list()
    api = requests.Session()
    session = api.post(server.api("/todos"), json={"list": name}, timeout=5).json()["id"]
    inputs = server.api(f"/todos/{session}/inputs")
    for index in range(1000):
        assert api.post(f"{inputs}/add", json=f"item {index}", timeout=5).status_code == 200
    open_list(browser, server, name)
    wait(browser, lambda b: len(rows(b)) == 1000)
    browser.execute_script("""
        window.changes = 0;
        window.bindery.addEventListener('output', (e) => { if (e.detail.name === 'items') window.changes++; });""")

    generator = __import__("random").Random(7)
    for step in range(60):
        items = api.get(server.api(f"/todos/{session}"), timeout=5).json()["outputs"]["items"]
        target = generator.choice(items)["id"]
        choice = generator.randrange(5)
        if choice == 0:
            api.post(f"{inputs}/add", json=f"new {step}", timeout=5)
        elif choice == 1:
            api.post(f"{inputs}/toggle", json=target, timeout=5)
        elif choice == 2:
            api.post(f"{inputs}/rename", json={"id": target, "title": f"renamed {step}"}, timeout=5)
        elif choice == 3:
            api.post(f"{inputs}/delete", json=target, timeout=5)
        else:
            api.post(f"{inputs}/move", json={"id": target, "to": generator.randrange(len(items))}, timeout=5)

    expected = [[item["title"], item["done"]] for item in api.get(server.api(f"/todos/{session}"), timeout=5).json()["outputs"]["items"]]
    wait(browser, lambda b: rows(b) == expected, timeout=20)
    assert browser.execute_script("return window.changes") > 0
