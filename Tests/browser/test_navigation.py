"""Links followed in place: the list example's item opens its detail page and Back returns, each
page fetched with its values and put in place of the one before, in the same document (no
reload), every page live on its own session; a page with scripts of its own is navigated to."""
from selenium.webdriver.common.by import By

from conftest import wait, wait_open


def same_document(browser):
    """Whether the page is still the document that was loaded first (marked by the test)."""
    return browser.execute_script("return window.marker === 1 && performance.getEntriesByType('navigation').length === 1")


def items(browser):
    return [row.text for row in browser.find_elements(By.CSS_SELECTOR, "[data-list='items'] li")]


def test_a_navigation_and_back_change_the_page_in_place_each_live(server, browser):
    browser.get(server.url + "/list.html")
    wait_open(browser)
    wait(browser, lambda b: len(items(b)) == 5)
    list_session = browser.execute_script("return window.bindery.sessionId")
    browser.execute_script("window.marker = 1; window.arrivals = 0; document.addEventListener('bindery:navigated', () => arrivals++)")

    browser.find_elements(By.CSS_SELECTOR, "[data-list='items'] li")[1].click()
    wait(browser, lambda b: "/detail.html?session=" in b.current_url and b.execute_script("return window.arrivals") == 1)
    wait_open(browser)
    assert same_document(browser), "the detail page came in place, not by a reload"
    assert browser.execute_script("return window.bindery.viewModel") == "detail"
    assert browser.title.startswith("Detail") or "Detail" in browser.find_element(By.TAG_NAME, "header").text
    title = browser.find_element(By.ID, "title").text
    assert title not in ("", "…"), "with its values, from the first paint"
    assert browser.switch_to.active_element == browser.find_element(By.ID, "title"), "the reader starts at the new page's heading"

    browser.find_element(By.ID, "back").click()
    wait(browser, lambda b: "/list.html" in b.current_url and b.execute_script("return window.arrivals") == 2)
    wait_open(browser)
    assert same_document(browser)
    assert f"session={list_session}" in browser.current_url
    assert browser.execute_script("return window.bindery.sessionId") == list_session, "Back finds the list's own session"
    assert len(items(browser)) == 5
    # Live again: another item opens its detail.
    browser.find_elements(By.CSS_SELECTOR, "[data-list='items'] li")[2].click()
    wait(browser, lambda b: b.execute_script("return window.arrivals") == 3)
    wait_open(browser)
    assert browser.find_element(By.ID, "title").text not in ("", "…", title)
    assert same_document(browser)


def test_a_page_with_scripts_of_its_own_is_navigated_to(server, browser):
    browser.get(server.url + "/detail.html")
    wait_open(browser)
    browser.execute_script("window.marker = 1")
    browser.find_element(By.CSS_SELECTOR, "header a[href='/']").click()  # the index runs index.js
    wait(browser, lambda b: b.execute_script("return window.marker") is None)
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#catalog li")) > 5)
