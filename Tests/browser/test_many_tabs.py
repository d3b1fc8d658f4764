"""Many tabs, one connection: a browser's pages share one multiplexed stream
through bindery-worker.js (a SharedWorker); without SharedWorker each page has
its own EventSource."""
import time

import requests
from selenium.webdriver.common.by import By

from conftest import browser_cookies, hide_shared_worker, make_browser, start_server, stop_server, wait, wait_open


def button_text(driver):
    return driver.find_element(By.ID, "change").text


def streams_in_use(server, limit):
    """How many of the server's `limit` streams are taken, found by taking the free ones."""
    probe = server.create()
    held = []
    try:
        for _ in range(limit):
            response = requests.get(server.api(f"/simple/{probe}/events"), stream=True, timeout=5)
            held.append(response)
            if response.status_code == 503:
                break
        return limit - len([r for r in held if r.status_code == 200])
    finally:
        for response in held:
            response.close()
        requests.delete(server.api(f"/simple/{probe}"), timeout=5)


def open_windows(browser, server, count, without_shared_worker=False):
    """`count` windows of simple.html (windows stay visible, unlike background tabs)."""
    handles = []
    for index in range(count):
        if index > 0:
            browser.switch_to.new_window("window")
        if without_shared_worker:
            hide_shared_worker(browser)
        # With a stream per page, the seventh page would never load: six connections per host.
        browser.get(server.url + "/simple.html")
        handles.append(browser.current_window_handle)
    return handles


def test_ten_windows_are_live_on_one_stream():
    # Four streams at most; the default heartbeat (15 s): the streams the worker
    # closes as windows open give their places back when their sockets close.
    server = start_server(["--max-streams", "4"])
    browser = make_browser()
    try:
        handles = open_windows(browser, server, 10)
        sessions = []
        for handle in handles:
            browser.switch_to.window(handle)
            wait_open(browser, timeout=20)
            assert browser.execute_script("return window.bindery.transport") == "shared"
            sessions.append(browser.execute_script("return window.bindery.sessionId"))
        assert len(set(sessions)) == 10
        # An input in each window shows in that window…
        for handle in handles:
            browser.switch_to.window(handle)
            browser.find_element(By.ID, "change").click()
            wait(browser, lambda b: button_text(b) == "Change to purple")
        # …and changes made elsewhere reach every window over the one stream.
        for session in sessions:
            server.send("simple", session, "buttonTap", cookies=browser_cookies(browser))
        for handle in handles:
            browser.switch_to.window(handle)
            wait(browser, lambda b: button_text(b) == "Change to red")
        # The server holds one stream for the ten windows.
        deadline = time.monotonic() + 15
        while (used := streams_in_use(server, 4)) != 1:
            assert time.monotonic() < deadline, f"the server holds {used} streams for one browser"
            time.sleep(0.5)
        # Closing windows lets their sessions go from the stream; the rest stay live.
        for handle in handles[5:]:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(handles[0])
        server.send("simple", sessions[0], "buttonTap", cookies=browser_cookies(browser))
        wait(browser, lambda b: button_text(b) == "Change to blue")
    finally:
        browser.quit()
        stop_server(server)


def test_without_shared_worker_each_page_has_its_own_event_source():
    server = start_server()
    browser = make_browser()
    try:
        handles = open_windows(browser, server, 4, without_shared_worker=True)
        for handle in handles:
            browser.switch_to.window(handle)
            wait_open(browser)
            assert browser.execute_script("return window.bindery.transport") == "direct"
            browser.find_element(By.ID, "change").click()
            wait(browser, lambda b: button_text(b) == "Change to purple")
            server.send("simple", browser.execute_script("return window.bindery.sessionId"), "buttonTap", cookies=browser_cookies(browser))
            wait(browser, lambda b: button_text(b) == "Change to red")
    finally:
        browser.quit()
        stop_server(server)


def test_the_workers_parser_follows_the_event_stream_rules(server, fresh_browser):
    browser = fresh_browser
    # The test evaluates the worker's source to reach its parser: the pages' policy forbids that.
    browser.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    browser.get(server.url + "/")
    chunks = [
        "retry: 2500\n\n: a comment\n\n",
        "session: simple/A\r\nid: 1\r\nevent: count\r\ndata: 1\r\n\r\n",          # CRLF
        "session: simple/B\rid: 7\revent: lines\rdata: one\rdata:two\rdata:  three\r\r",  # CR; one space stripped
        "session: simple/A\r", "\nevent: split\r", "\ndata: {\"a\": 1}\r", "\n\r", "\n",  # CRLF across chunks
        "session: simple/A\nevent: nodata\n\n",                                   # no data: not dispatched
        "session: simple/A\ndata\nevent\n\n",                                     # fields without a colon
        "session: simple/B\ndata: caf\xc3",                                        # UTF-8 split across chunks
        "\xa9\n\n",
        "session: simple/A\ndata: never finished",                                # dropped at the end
    ]
    result = browser.execute_async_script("""
        const [chunks, done] = arguments;
        (async () => {
          const source = await (await fetch("/_bindery/v1/bindery-worker.js")).text();
          const readEvents = new Function("self", "setInterval", source + "\\nreturn readEvents;")({ addEventListener() {} }, () => 0);
          const body = new ReadableStream({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(Uint8Array.from(chunk, (c) => c.charCodeAt(0)));
              controller.close();
            },
          });
          const events = [];
          let retry = null;
          await readEvents(body, (event) => events.push(event), (ms) => (retry = ms));
          done({ events, retry });
        })().catch((error) => done({ error: String(error) }));
    """, chunks)  # each character is one byte
    assert result.get("error") is None, result
    assert result["retry"] == 2500
    assert result["events"] == [
        {"type": "count", "data": "1", "id": "1", "session": "simple/A"},
        {"type": "lines", "data": "one\ntwo\n three", "id": "7", "session": "simple/B"},
        {"type": "split", "data": '{"a": 1}', "id": None, "session": "simple/A"},
        {"type": "message", "data": "", "id": None, "session": "simple/A"},
        {"type": "message", "data": "café", "id": None, "session": "simple/B"},
    ]
