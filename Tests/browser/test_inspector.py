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
