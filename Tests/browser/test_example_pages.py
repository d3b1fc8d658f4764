"""Every example page in headless Chromium: act, see the DOM change, including error paths."""
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import browser_cookies, texts


def wait(browser, condition, timeout=10):
    return WebDriverWait(browser, timeout).until(lambda b: condition(b))


def text(browser, css):
    elements = browser.find_elements(By.CSS_SELECTOR, css)
    return elements[0].text if elements else None


def visible(browser, css):
    elements = browser.find_elements(By.CSS_SELECTOR, css)
    return bool(elements) and elements[0].is_displayed()


def open_page(browser, url):
    browser.get(url)
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "open")


def test_table_lists_items_and_shows_the_selected_content(server, browser):
    open_page(browser, server.url + "/table.html")
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
    assert texts(browser, "[data-list='items'] li")[0] == "Observables"
    first = browser.find_element(By.CSS_SELECTOR, "[data-list='items'] li[data-key='3']")
    first.click()
    wait(browser, lambda b: "Shared, replaying, never failing" in (text(b, ".bindery-toast") or ""))
    browser.find_element(By.ID, "reload").click()  # re-fetch: rows update in place, not rebuilt
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
    assert browser.find_element(By.CSS_SELECTOR, "[data-list='items'] li[data-key='3']") == first


def test_profile_follow_and_unfollow(server, browser):
    open_page(browser, server.url + "/profile.html?user=1")
    wait(browser, lambda b: text(b, "#name") == "Ada Lovelace")
    followers = int(text(browser, "#followers"))
    browser.find_element(By.ID, "follow").click()
    wait(browser, lambda b: text(b, "#follow") == "Unfollow")
    assert int(text(browser, "#followers")) == followers + 1
    assert "following" in browser.find_element(By.ID, "follow").get_attribute("class")
    browser.find_element(By.ID, "follow").click()
    wait(browser, lambda b: text(b, "#follow") == "Follow")
    assert int(text(browser, "#followers")) == followers


def test_profile_shows_the_service_refusal(server, browser):
    open_page(browser, server.url + "/profile.html?user=3")
    wait(browser, lambda b: text(b, "#name") == "Private Account")
    browser.find_element(By.ID, "follow").click()
    wait(browser, lambda b: "does not accept new followers" in (text(b, "#error") or ""))
    assert text(browser, "#follow") == "Follow"
    assert not visible(browser, ".spinner")


def test_list_navigates_to_a_detail_session_and_back(server, browser):
    open_page(browser, server.url + "/list.html")
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
    list_url = browser.current_url
    browser.find_element(By.CSS_SELECTOR, "[data-list='items'] li[data-key='2']").click()
    wait(browser, lambda b: "/detail.html?session=" in b.current_url)
    wait(browser, lambda b: text(b, "#title") == "Subjects")
    assert "relays never terminate" in text(browser, "#content")
    browser.find_element(By.ID, "back").click()
    wait(browser, lambda b: b.current_url == list_url)
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)


def test_messages_send_with_loading_state_and_errors(server, browser):
    open_page(browser, server.url + "/messages.html")
    send = browser.find_element(By.ID, "send")
    wait(browser, lambda b: send.get_attribute("disabled") is not None)  # nothing to send yet
    field = browser.find_element(By.ID, "text")
    field.send_keys("Hello from Chromium")
    wait(browser, lambda b: send.get_attribute("disabled") is None)
    send.click()
    wait(browser, lambda b: texts(b, "#messages li") == ["Hello from Chromium"])
    wait(browser, lambda b: field.get_attribute("value") == "")  # the draft is cleared by the ViewModel
    field.send_keys("Second")
    wait(browser, lambda b: send.get_attribute("disabled") is None)  # as a person waits for the button
    field.send_keys(Keys.ENTER)
    wait(browser, lambda b: texts(b, "#messages li") == ["Hello from Chromium", "Second"])


def test_search_answers_as_you_type_through_the_main_scheduler(server, browser):
    open_page(browser, server.url + "/search.html")
    wait(browser, lambda b: text(b, "#summary") == "Type part of an operator's name")
    browser.find_element(By.ID, "query").send_keys("take")
    wait(browser, lambda b: texts(b, "#results li") == ["take", "takeLast", "takeUntil", "takeWhile"])
    assert text(browser, "#summary") == "4 found"
    browser.find_element(By.ID, "query").send_keys(Keys.BACKSPACE * 4 + "Latest")
    wait(browser, lambda b: texts(b, "#results li") == ["combineLatest", "flatMapLatest", "switchLatest", "withLatestFrom"])


def test_board_is_one_for_everyone_posted_from_the_page_or_curl(server, browser):
    open_page(browser, server.url + "/board.html")
    before = int(text(browser, "#count"))
    field = browser.find_element(By.ID, "note")
    field.send_keys("from the page", Keys.ENTER)
    wait(browser, lambda b: "from the page" in texts(b, "#notes li"))
    wait(browser, lambda b: field.get_attribute("value") == "")
    # The same board for a script: its session is the page's, and its post shows on the page live.
    board = requests.post(server.api("/board"), timeout=5).json()
    assert board["id"] == browser.execute_script("return window.bindery.sessionId")
    assert requests.post(server.api(f"/board/{board['id']}/inputs/post"), json="from curl", timeout=5).status_code == 200
    wait(browser, lambda b: texts(b, "#notes li")[-2:] == ["from the page", "from curl"])
    assert int(text(browser, "#count")) == min(before + 2, 100)


def test_currency_lists_rates_and_opens_a_detail(server, browser):
    open_page(browser, server.url + "/currency.html")
    wait(browser, lambda b: len(texts(b, "[data-list='currencies'] tr")) == 15)
    browser.find_element(By.CSS_SELECTOR, "[data-list='currencies'] tr[data-key='USD']").click()
    wait(browser, lambda b: b.find_element(By.ID, "detail").get_attribute("open") is not None)
    assert text(browser, "#detail-rate") == "1.0852"


def test_home_loads_albums_and_tracks(server, browser):
    open_page(browser, server.url + "/home.html")
    wait(browser, lambda b: len(texts(b, "#albums li")) == 5)
    assert len(texts(browser, "#tracks li")) == 6
    assert texts(browser, "#albums li")[0].startswith("Kind of Blue")
    assert not visible(browser, "#loading")


def test_home_shows_loading_while_slow(server, browser):
    open_page(browser, server.url + "/home.html?latencyMilliseconds=1500")
    wait(browser, lambda b: visible(b, "#loading"))
    wait(browser, lambda b: len(texts(b, "#albums li")) == 5 and not visible(b, "#loading"))


def test_home_shows_typed_errors(server, browser):
    open_page(browser, server.url + "/home.html?failure=internet")
    wait(browser, lambda b: "offline" in (text(b, "#error") or ""))
    open_page(browser, server.url + "/home.html?failure=server")
    wait(browser, lambda b: "maintenance" in (text(b, "#error") or ""))
    assert texts(browser, "#albums li") == []


def test_a_page_recovers_its_state_after_a_reconnect(server, browser):
    open_page(browser, server.url + "/messages.html")
    session = browser.execute_script("return window.bindery.sessionId")
    browser.execute_script("window.bindery.stop()")
    server.send("messages", session, "editText", "sent while away", cookies=browser_cookies(browser))
    server.send("messages", session, "sendTap", cookies=browser_cookies(browser))
    import time
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the service answers after its latency
        if requests.get(server.api(f"/messages/{session}/outputs/messages"), cookies=browser_cookies(browser), timeout=5).json():
            break
        time.sleep(0.05)
    browser.execute_script("window.bindery.start()")
    wait(browser, lambda b: texts(b, "#messages li") == ["sent while away"])


def test_bad_input_from_a_page_shows_the_server_message(server, browser):
    open_page(browser, server.url + "/messages.html")
    browser.execute_script("window.bindery.send('editText', 42).catch(() => {})")
    wait(browser, lambda b: "expected a string" in (text(b, "[data-bindery-errors]") or ""))


def test_sending_list_uploads_through_an_action(server, browser):
    open_page(browser, server.url + "/sending.html")
    send = browser.find_element(By.ID, "send")
    wait(browser, lambda b: send.get_attribute("disabled") is not None)  # nothing pending: the action is disabled
    field = browser.find_element(By.ID, "text")
    for text in ["first", "second", "third"]:
        field.send_keys(text, Keys.ENTER)
    wait(browser, lambda b: texts(b, "#pending li span") == ["first", "second", "third"])
    browser.find_element(By.CSS_SELECTOR, "#pending li[data-key='2'] .remove").click()
    wait(browser, lambda b: texts(b, "#pending li span") == ["first", "third"])
    wait(browser, lambda b: send.get_attribute("disabled") is None)
    send.click()
    wait(browser, lambda b: texts(b, "#sent li") == ["first", "third"])
    assert texts(browser, "#pending li span") == []
    assert not visible(browser, "#sending")


def test_sending_list_shows_the_database_refusal(server, browser):
    open_page(browser, server.url + "/sending.html")
    field = browser.find_element(By.ID, "text")
    field.send_keys("please reject me", Keys.ENTER)
    wait(browser, lambda b: texts(b, "#pending li span") == ["please reject me"])
    browser.find_element(By.ID, "send").click()
    wait(browser, lambda b: "refused" in (text(b, "#error") or ""))
    assert texts(browser, "#pending li span") == ["please reject me"], "nothing was lost"
    assert texts(browser, "#sent li") == []


def test_pages_at_real_urls_take_their_parameters_from_the_path(server, browser):
    """app.page("/profile/:userID(int)", …) and app.page("/todos/:list", …): the path is the
    ViewModel's creation parameters, a reload keeps the session, a bad path is the 404 page."""
    open_page(browser, server.url + "/profile/3")
    wait(browser, lambda b: text(b, "#name") == "Private Account")
    session = browser.execute_script("return window.bindery.sessionId")
    assert browser.current_url.startswith(server.url + "/profile/3?session=")
    browser.refresh()
    wait(browser, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "open")
    assert browser.execute_script("return window.bindery.sessionId") == session
    open_page(browser, server.url + "/todos/groceries")
    wait(browser, lambda b: text(b, "#list-name") == "groceries")
    browser.get(server.url + "/profile/three")
    assert "Not found" in browser.find_element(By.TAG_NAME, "h1").text


def test_two_viewmodels_on_one_page_each_keep_their_session_across_a_reload(server, browser):
    """tasks.html binds the task list and, in its header, the shared board: each root has
    its own session in the URL (?session= and ?session-board=), both found again on reload."""
    from urllib.parse import parse_qs, urlparse

    open_page(browser, server.url + "/tasks.html")
    wait(browser, lambda b: (text(b, "#board-count") or "…") != "…")
    query = parse_qs(urlparse(browser.current_url).query)
    tasks, board = query["session"][0], query["session-board"][0]
    assert tasks != board
    assert browser.execute_script("return window.bindery.viewModel") == "tasks"
    assert browser.execute_script("return window.binderyBindings.map((b) => b.viewModel)") == ["board", "tasks"]
    field = browser.find_element(By.ID, "new-title")
    field.send_keys("both roots", Keys.ENTER)
    wait(browser, lambda b: "both roots" in texts(b, "#items .todo-title"))
    before = int(text(browser, "#board-count"))
    assert requests.post(server.api(f"/board/{board}/inputs/post"), json="from a script", timeout=5).status_code == 200
    wait(browser, lambda b: int(text(b, "#board-count")) == min(before + 1, 100))
    browser.refresh()
    wait(browser, lambda b: b.execute_script("return (window.binderyBindings || []).every((b) => b.state === 'open')") is True)
    query = parse_qs(urlparse(browser.current_url).query)
    assert (query["session"][0], query["session-board"][0]) == (tasks, board)
    wait(browser, lambda b: "both roots" in texts(b, "#items .todo-title"))
