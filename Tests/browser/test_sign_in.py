"""Accounts and sign-in in Chromium, with the example app's pages: a page for the signed-in
sends a stranger to sign in first and back after; register, a wrong password said at its field,
sign in, change the password, sign out; signing out everywhere ends another browser's page."""
from selenium.webdriver.common.by import By

from conftest import make_browser, wait, wait_open


def fill(browser, **fields):
    for name, value in fields.items():
        field = browser.find_element(By.ID, name.replace("_", "-"))
        field.clear()
        field.send_keys(value)


def register(browser, server, login, password="correct horse"):
    browser.get(server.url + "/me")
    wait(browser, lambda b: "/signin.html?next=" in b.current_url)
    wait_open(browser)
    fill(browser, new_login=login, new_password=password)
    browser.find_element(By.ID, "create").click()
    wait(browser, lambda b: "/me?session=" in b.current_url)
    wait_open(browser)


def test_register_reach_the_page_for_the_signed_in_change_the_password_and_sign_out(server, browser):
    browser.get(server.url + "/me")
    wait(browser, lambda b: "/signin.html?next=%2Fme" in b.current_url or "/signin.html?next=/me" in b.current_url)
    wait_open(browser)
    assert browser.find_element(By.ID, "who").text == "Not signed in"
    fill(browser, new_login="Ada Lovelace", new_password="correct horse")
    browser.find_element(By.ID, "create").click()
    wait(browser, lambda b: "/me?session=" in b.current_url)
    wait_open(browser)
    assert browser.find_element(By.ID, "name").text == "ada lovelace"
    cookies = {cookie["name"]: cookie for cookie in browser.get_cookies()}
    assert cookies["bindery_signin"]["httpOnly"] and cookies["bindery_signin"]["sameSite"] == "Lax"
    assert "bindery_signin" not in browser.execute_script("return document.cookie"), "no script reads it"

    # A new password: the wrong current one is said at its field, the right one is taken.
    fill(browser, current="not it at all", new="battery staple")
    browser.find_element(By.ID, "save").click()
    current = browser.find_element(By.ID, "current")
    wait(browser, lambda b: current.get_attribute("aria-invalid") == "true")
    assert browser.find_element(By.ID, current.get_attribute("aria-describedby")).text == "that is not your password"
    fill(browser, current="correct horse", new="battery staple")
    browser.find_element(By.ID, "save").click()
    wait(browser, lambda b: b.find_element(By.ID, "message").text == "Your password is changed.")

    browser.get(server.url + "/")
    wait(browser, lambda b: b.find_element(By.ID, "who").text == "Signed in as ada lovelace")

    browser.get(server.url + "/signin.html")
    wait_open(browser)
    browser.find_element(By.ID, "sign-out").click()
    wait(browser, lambda b: b.find_element(By.ID, "who").text == "Not signed in")
    browser.get(server.url + "/me")
    wait(browser, lambda b: "/signin.html?next=" in b.current_url)
    wait_open(browser)

    # The old password is no more; the new one signs in, and the page goes on to /me.
    fill(browser, login="ada lovelace", password="correct horse")
    browser.find_element(By.ID, "go").click()
    password = browser.find_element(By.ID, "password")
    wait(browser, lambda b: password.get_attribute("aria-invalid") == "true")
    assert browser.find_element(By.ID, password.get_attribute("aria-describedby")).text == "wrong login or password"
    fill(browser, login="ada lovelace", password="battery staple")
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda b: "/me?session=" in b.current_url)


def test_signing_out_everywhere_ends_another_browsers_page(server, browser):
    phone = make_browser()
    try:
        register(phone, server, "grace")
        browser.get(server.url + "/signin.html")
        wait_open(browser)
        fill(browser, login="grace", password="correct horse")
        browser.find_element(By.ID, "go").click()
        wait(browser, lambda b: b.find_element(By.ID, "who").text == "Signed in as grace")  # on the index it goes to
        browser.get(server.url + "/signin.html")
        wait_open(browser)
        browser.find_element(By.ID, "sign-out-everywhere").click()
        wait(phone, lambda b: b.execute_script("return document.documentElement.dataset.binderyState") == "ended", timeout=15)
        phone.refresh()
        wait(phone, lambda b: "/signin.html?next=" in b.current_url)
    finally:
        phone.quit()
