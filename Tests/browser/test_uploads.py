"""Uploads from a page, in Chromium with real files: the avatar example's form sends the chosen
file itself (not JSON), with progress; the server's limit and the ViewModel's check of the bytes
are said on the page; the picture survives a reload and is in the page's first paint."""
import struct
import zlib

from selenium.webdriver.common.by import By

from conftest import wait, wait_open


def png(width, height, seed=0):
    """A real PNG of `width`×`height` pixels of noise (so that it does not compress away)."""
    rows = b"".join(b"\x00" + bytes((x * 31 + y * 17 + seed * 7) % 256 for x in range(width * 3)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b"")


def choose(browser, path):
    field = browser.find_element(By.ID, "file")
    field.send_keys(str(path))
    browser.find_element(By.ID, "send").click()


def test_a_picture_goes_up_as_a_file_with_its_progress_and_comes_back_in_the_first_paint(server, browser, tmp_path):
    picture = tmp_path / "me.png"
    picture.write_bytes(png(120, 120))
    size = picture.stat().st_size
    assert 30_000 < size < 262_144
    browser.get(server.url + "/avatar.html")
    wait_open(browser)
    browser.execute_script("window.progress = []; window.bindery.addEventListener('progress', (e) => progress.push(e.detail))")
    choose(browser, picture)
    wait(browser, lambda b: (b.find_element(By.ID, "picture").get_attribute("src") or "").startswith("data:image/png;base64,iVBORw0KGgo"))
    assert browser.find_element(By.ID, "caption").text == f"me.png, image/png, {size} bytes"
    progress = browser.execute_script("return progress")
    assert progress and progress[-1] == {"input": "photo", "loaded": size, "total": size}, progress
    assert all(event["loaded"] <= event["total"] for event in progress)
    assert not browser.find_element(By.ID, "progress").is_displayed(), "the bar goes once the file is up"
    assert browser.find_element(By.ID, "remove").is_enabled()

    # The session keeps it: a reload has it in the page the server sends.
    browser.refresh()
    wait_open(browser)
    assert browser.find_element(By.ID, "picture").get_attribute("src").startswith("data:image/png;base64,")
    browser.find_element(By.ID, "remove").click()
    wait(browser, lambda b: b.find_element(By.ID, "caption").text == "No picture yet.")


def test_a_file_too_large_or_not_a_picture_is_said_where_it_was_chosen(server, browser, tmp_path):
    browser.get(server.url + "/avatar.html")
    wait_open(browser)
    large = tmp_path / "large.png"
    large.write_bytes(png(320, 320))
    assert large.stat().st_size > 262_144
    choose(browser, large)
    wait(browser, lambda b: "at most 262144 bytes" in b.find_element(By.CSS_SELECTOR, "[data-bindery-errors]").text)

    # Declared an image by its name, a text by its bytes: the ViewModel says so at the field.
    liar = tmp_path / "cat.png"
    liar.write_text("meow, not a picture")
    choose(browser, liar)
    field = browser.find_element(By.ID, "file")
    wait(browser, lambda b: field.get_attribute("aria-invalid") == "true")
    message = browser.find_element(By.ID, field.get_attribute("aria-describedby"))
    assert message.text == "cat.png is not a PNG, JPEG, GIF or WebP image"
    assert browser.find_element(By.ID, "caption").text == "No picture yet."
