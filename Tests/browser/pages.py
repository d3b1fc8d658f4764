"""What the browser and cluster suites both do with a page: open Chromium, wait,
read the client's state. Tests/cluster imports it from here."""
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait


def make_browser(without_shared_worker=False, size="1024,768"):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={size}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    if without_shared_worker:
        hide_shared_worker(driver)
    return driver


def hide_shared_worker(driver):
    """Pages in this tab load as in a browser without SharedWorker (the client's fallback)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})


def wait(driver, condition, timeout=10):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def page_state(driver):
    return driver.execute_script("return document.documentElement.dataset.binderyState")


def wait_open(driver, timeout=10):
    wait(driver, lambda d: page_state(d) == "open", timeout)


def session_id(driver):
    return driver.execute_script("return window.bindery && window.bindery.sessionId")


def button_text(driver):
    """The example `simple` page's button."""
    return driver.find_element(By.ID, "change").text


def record_states(driver):
    driver.execute_script("window.states = []; window.bindery.addEventListener('state', (e) => states.push(e.detail))")


def reconnected(driver):
    """Whether the page is open again after it was connecting or offline since `record_states`."""
    states = driver.execute_script("return states")
    return page_state(driver) == "open" and any(state in states for state in ("connecting", "offline"))


def rows(browser):
    """The todo page's rows as (title, done), in order."""
    return browser.execute_script("""
        return [...document.querySelectorAll('#items > li')].map((li) =>
            [li.querySelector('[name=title]').value, li.querySelector('.todo-done').checked]);""")


def titles(browser):
    return [title for title, _ in rows(browser)]


def add(browser, title):
    """Adds `title` on the todo page, as a person does: typed, then Enter."""
    before = len(rows(browser))
    field = browser.find_element(By.ID, "new-title")
    field.send_keys(title, Keys.ENTER)
    wait(browser, lambda b: len(rows(b)) == before + 1)
    assert field.get_attribute("value") == ""
