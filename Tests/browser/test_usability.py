"""What every app's pages get from bindery.js for people, not only for the
ViewModel: a click during typing is not lost, the focus comes back, rows
answer the keyboard, the connection and errors are announced, and the
element that was clicked shows that its input is on its way."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import start_server, stop_server, texts, wait, wait_open


def test_a_click_on_send_right_after_typing_sends_the_text(server, browser):
    browser.get(server.url + "/messages.html")
    wait_open(browser)
    field = browser.find_element(By.ID, "text")
    # Send is data-enabled="canSend", which the typing will enable once its
    # debounce (250 ms) is answered: the click comes before that.
    field.send_keys("Quick")
    browser.find_element(By.ID, "send").click()
    wait(browser, lambda b: texts(b, "#messages li") == ["Quick"])
    # A click that the answer does not enable does nothing: an empty draft is not sent.
    wait(browser, lambda b: b.find_element(By.ID, "text").is_enabled() and b.find_element(By.ID, "text").get_attribute("value") == "")
    field.send_keys("x", Keys.BACKSPACE)
    browser.find_element(By.ID, "send").click()
    marker = browser.execute_async_script(
        "const done = arguments[0]; window.bindery.send('editText', '').then(done, (error) => done(String(error)))")
    assert marker["outputs"]["isSending"] is False, marker
    assert texts(browser, "#messages li") == ["Quick"]


def test_the_field_has_the_focus_back_once_its_message_is_sent(server, browser):
    browser.get(server.url + "/messages.html")
    wait_open(browser)
    field = browser.find_element(By.ID, "text")
    field.send_keys("First", Keys.ENTER)
    wait(browser, lambda b: texts(b, "#messages li") == ["First"])
    # The field was disabled while the message was on its way; it has the focus back.
    wait(browser, lambda b: b.execute_script("return document.activeElement && document.activeElement.id") == "text")
    browser.switch_to.active_element.send_keys("Second", Keys.ENTER)
    wait(browser, lambda b: texts(b, "#messages li") == ["First", "Second"])


def test_rows_that_send_on_click_answer_the_keyboard(server, browser):
    browser.get(server.url + "/table.html")
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-list='items'] li")
    assert all(row.get_attribute("tabindex") == "0" and row.get_attribute("role") == "button" for row in rows)
    # Tab reaches the rows, in order.
    browser.execute_script("document.activeElement && document.activeElement.blur()")
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(12):
        body.send_keys(Keys.TAB) if browser.execute_script("return document.activeElement === document.body") else \
            browser.switch_to.active_element.send_keys(Keys.TAB)
        if browser.execute_script("return document.activeElement.dataset.key") == "2":
            break
    assert browser.execute_script("return document.activeElement.dataset.key") == "2"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, lambda b: any("Both an observer" in t for t in texts(b, ".bindery-toast")))
    browser.switch_to.active_element.send_keys(Keys.TAB, " ")   # Space on the next row
    wait(browser, lambda b: any("Shared, replaying" in t for t in texts(b, ".bindery-toast")))


def test_the_connection_and_errors_are_announced(server, browser):
    browser.get(server.url + "/messages.html")
    wait_open(browser)
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-connection]").get_attribute("aria-live") == "polite"
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").get_attribute("role") == "alert"
    assert browser.find_element(By.ID, "text").get_attribute("aria-label") == "message", "a field is named, not only placeholded"


def test_the_clicked_element_shows_its_input_is_on_its_way(server, browser):
    browser.get(server.url + "/table.html")
    wait(browser, lambda b: len(texts(b, "[data-list='items'] li")) == 5)
    browser.execute_script("""
        window.seen = [];
        const button = document.getElementById("reload");
        new MutationObserver(() => seen.push(button.classList.contains("bindery-loading") + ":" + button.getAttribute("aria-busy")))
          .observe(button, { attributes: true, attributeFilter: ["class", "aria-busy"] });""")
    browser.find_element(By.ID, "reload").click()
    wait(browser, lambda b: "true:true" in b.execute_script("return seen") and b.execute_script("return seen").pop() == "false:null")
    assert "bindery-loading" not in browser.find_element(By.ID, "reload").get_attribute("class")


# A page of its own (the example pages have no number field); its script is a
# file, as the default Content-Security-Policy allows no inline script.
NUMBER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>number</title></head>
<body><main id="root">
  <label>Item <input id="n" type="number" min="0" max="4" required data-on-input="selectItem" data-debounce="0"></label>
  <p class="error" data-bindery-errors></p>
  <ol id="opened"></ol>
</main>
<script type="module" src="/number.js"></script></body></html>
"""
NUMBER_SCRIPT = """import { connect } from "/_bindery/v1/bindery.js";
const binding = await connect(document.getElementById("root"), "list", undefined, { outputs: ["presentDetailViewModel"] });
binding.addEventListener("output", ({ detail }) => {
  if (detail.name === "presentDetailViewModel") document.getElementById("opened").append(Object.assign(document.createElement("li"), { textContent: detail.value.id }));
});
window.bindery = binding;
"""


@pytest.fixture(scope="module")
def number_server(tmp_path_factory):
    public = tmp_path_factory.mktemp("public")
    (public / "number.html").write_text(NUMBER_PAGE)
    (public / "number.js").write_text(NUMBER_SCRIPT)
    running = start_server(["--public-directory", str(public)])
    yield running
    stop_server(running)


def test_a_field_the_browser_finds_invalid_is_not_sent_and_says_why_at_the_field(number_server, browser):
    browser.get(number_server.url + "/number.html")
    wait(browser, lambda b: b.execute_script("return window.bindery && window.bindery.state") == "open")
    # Counts what the page sends.
    browser.execute_script("window.sent = 0; const send = window.bindery.send.bind(window.bindery); "
                           "window.bindery.send = (...a) => { window.sent += 1; return send(...a); }")
    field = browser.find_element(By.ID, "n")
    field.send_keys("2")
    wait(browser, lambda b: texts(b, "#opened li") != [])
    assert browser.execute_script("return window.sent") == 1
    field.send_keys(Keys.BACKSPACE)  # empty: no number
    wait(browser, lambda b: "Item:" in b.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text)
    assert field.get_attribute("aria-invalid") == "true"
    assert "expected" not in errors_text(browser), "the server's words never reach the page"
    field.send_keys("9")  # over max
    wait(browser, lambda b: "4" in b.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text)
    assert browser.execute_script("return window.sent") == 1, "nothing invalid was sent"
    field.send_keys(Keys.BACKSPACE, "3")
    wait(browser, lambda b: len(texts(b, "#opened li")) == 2)
    assert field.get_attribute("aria-invalid") is None
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text == ""


def errors_text(browser):
    return browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text
