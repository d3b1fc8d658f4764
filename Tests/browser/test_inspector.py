"""The inspector drives a ViewModel from its catalog entry alone."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def wait(browser, condition, timeout=10):
    return WebDriverWait(browser, timeout).until(lambda b: condition(b))


def output_value(browser, name):
    return browser.find_element(By.CSS_SELECTOR, f"tr[data-output='{name}'] td.value").text


def test_inspector_shows_outputs_live_and_sends_inputs(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html?vm=simple")
    wait(browser, lambda b: output_value(b, "backgroundColor") == '"red"')
    assert output_value(browser, "buttonTitle") == '"Change to blue"'
    form = browser.find_element(By.CSS_SELECTOR, "form[data-input='buttonTap']")
    form.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda b: output_value(b, "backgroundColor") == '"blue"')
    assert output_value(browser, "buttonTitle") == '"Change to purple"'


def test_inspector_names_an_unknown_view_model(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html?vm=nope")
    wait(browser, lambda b: "No ViewModel named" in b.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text)


def test_inspector_without_a_view_model_offers_the_catalog(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html")
    wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#view-models a"))
    assert browser.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text == "Choose a ViewModel to inspect."
    assert "null" not in browser.find_element(By.TAG_NAME, "main").text
    names = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#view-models a")]
    assert "simple" in names and "todos" in names
    browser.find_element(By.LINK_TEXT, "simple").click()
    wait(browser, lambda b: output_value(b, "backgroundColor") == '"red"')


def test_inspector_of_an_unknown_view_model_is_not_left_connecting(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html?vm=nope")
    wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#view-models a"))
    badge = browser.find_element(By.CSS_SELECTOR, "[data-bindery-connection]")
    assert badge.text == "not connected" and badge.get_attribute("data-state") == "closed"


def test_inspector_opens_a_session_with_creation_parameters_and_links_it(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html?vm=todos")
    wait(browser, lambda b: output_value(b, "list") == '"default"')
    field = browser.find_element(By.CSS_SELECTOR, "#creation input[name='params']")
    field.send_keys('{"list": "inspected"}')
    browser.find_element(By.CSS_SELECTOR, "#creation button").click()
    wait(browser, lambda b: output_value(b, "list") == '"inspected"')
    assert "params=" in browser.current_url
    link = browser.find_element(By.CSS_SELECTOR, "#session a")
    session = link.text
    assert link.get_attribute("href").endswith(f"/api/todos/{session}")
    assert browser.execute_script("return window.bindery.sessionId") == session


def test_inspector_says_when_the_creation_parameters_are_not_json(server, browser):
    browser.get(server.url + "/_bindery/v1/inspector.html?vm=todos&params=%7Bnope")
    wait(browser, lambda b: "not JSON" in b.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text)
