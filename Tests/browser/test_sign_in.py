"""Signing a browser in and out, in Chromium, with the example app's sign-in page: a page for
the signed-in sends a stranger to sign in first and back after, the index says who is signed in,
signing out ends it, and signing out everywhere ends another browser's page."""
from selenium.webdriver.common.by import By

from conftest import make_browser, wait, wait_open


def sign_in(browser, server, name, start="/me"):
    browser.get(server.url + start)
    wait(browser, lambda b: "/signin.html?next=" in b.current_url)
    wait_open(browser)
    browser.find_element(By.ID, "name").send_keys(name)
    browser.find_element(By.ID, "go").click()


def test_sign_in_reach_the_page_for_the_signed_in_and_sign_out(server, browser):
    browser.get(server.url + "/me")
    wait(browser, lambda b: "/signin.html?next=%2Fme" in b.current_url or "/signin.html?next=/me" in b.current_url)
    assert browser.find_element(By.ID, "who").text == "Not signed in"
    # A name the ViewModel refuses is said at its field.
    browser.find_element(By.ID, "name").send_keys("<script>")
    browser.find_element(By.ID, "go").click()
    field = browser.find_element(By.ID, "name")
    wait(browser, lambda b: field.get_attribute("aria-invalid") == "true")
    field.clear()
    field.send_keys("Ada Lovelace")
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda b: "/me?session=" in b.current_url)
    wait_open(browser)
    assert browser.find_element(By.ID, "name").text == "Ada Lovelace"
    cookies = {cookie["name"]: cookie for cookie in browser.get_cookies()}
    assert cookies["bindery_signin"]["httpOnly"] and cookies["bindery_signin"]["sameSite"] == "Lax"
    assert "bindery_signin" not in browser.execute_script("return document.cookie"), "no script reads it"

    browser.get(server.url + "/")
    wait(browser, lambda b: b.find_element(By.ID, "who").text == "Signed in as Ada Lovelace")

    browser.get(server.url + "/signin.html")
    wait_open(browser)
    assert browser.find_element(By.ID, "who").text == "Signed in as Ada Lovelace"
    browser.find_element(By.ID, "sign-out").click()
    wait(browser, lambda b: b.find_element(By.ID, "who").text == "Not signed in")
    browser.get(server.url + "/me")
    wait(browser, lambda b: "/signin.html?next=" in b.current_url)


def test_signing_out_everywhere_ends_another_browsers_page(server, browser):
    phone = make_browser()
    try:
        sign_in(phone, server, "Grace")
        wait(phone, lambda b: "/me?session=" in b.current_url)
        wait_open(phone)
        sign_in(browser, server, "Grace")
        wait(browser, lambda b: "/me?session=" in b.current_url)
        browser.get(server.url + "/signin.html")
        wait_open(browser)
        browser.find_element(By.ID, "sign-out-everywhere").click()
        wait(phone, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "ended", timeout=15)
        phone.refresh()
        wait(phone, lambda b: "/signin.html?next=" in b.current_url)
    finally:
        phone.quit()
