"""Fixtures: the real `bindery serve` on a free loopback port, and headless Chromium."""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from pages import hide_shared_worker, make_browser, page_state, wait, wait_open  # noqa: F401 (the suites' files import them from here)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class RunningServer:
    def __init__(self, process, url, scratch=None):
        self.process = process
        self.url = url
        self.scratch = scratch
        # The server logs a line per request: read its output all the time, so
        # a full pipe never blocks it.
        self.output = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stdout:
            self.output.append(line)

    def api(self, path=""):
        return f"{self.url}/api{path}"

    def create(self, view_model="simple"):
        response = requests.post(self.api(f"/{view_model}"), timeout=5)
        assert response.status_code == 201, response.text
        return response.json()["id"]

    def send(self, view_model, session, input_name, payload=None, cookies=None):
        """Sends an input, with a browser's `cookies` for a session its page made (it answers that browser only)."""
        response = requests.post(
            self.api(f"/{view_model}/{session}/inputs/{input_name}"),
            json=payload, cookies=cookies, timeout=5)
        assert response.status_code == 200, response.text
        return response.json()


def browser_cookies(driver):
    """The cookies of `driver`'s current page (the browser's bindery_browser token among them), for requests; None for no browser."""
    return {cookie["name"]: cookie["value"] for cookie in driver.get_cookies()} if driver else None


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(extra=(), port=0):
    """`bindery serve` with `extra` options; without `--database`, a SQLite file of its own."""
    binary = os.environ.get("BINDERY_BINARY", os.path.join(ROOT, ".build/debug/bindery"))
    scratch, database = None, []
    if "--database" not in extra:
        # The catalog (GET /api) opens the app's database, bindery.sqlite in the
        # working directory by default: it would land in the checkout, shared by every run.
        scratch = tempfile.mkdtemp(prefix="bindery-test-")
        database = ["--database", os.path.join(scratch, "bindery.sqlite")]
    process = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--public-directory", os.path.join(ROOT, "Public"), *database, *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if match:
            return RunningServer(process, match.group(1), scratch)
        if process.poll() is not None:
            break
    process.kill()
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    raise RuntimeError("bindery serve did not start")


def stop_server(server):
    server.process.send_signal(signal.SIGTERM)
    code = server.process.wait(timeout=15)
    if server.scratch:
        shutil.rmtree(server.scratch, ignore_errors=True)
    assert code == 0, f"bindery exited with {code} on SIGTERM"


class RestartableServer:
    """`bindery serve` on a fixed port and one database, so a page can outlive the process
    (and its session too, kept in the database, unless `extra` says --no-session-store)."""

    def __init__(self, extra=()):
        self.scratch = tempfile.mkdtemp(prefix="bindery-test-")
        self.extra = ("--database", os.path.join(self.scratch, "bindery.sqlite"), *extra)
        self.port = free_port()
        self.current = start_server(self.extra, port=self.port)

    @property
    def url(self):
        return self.current.url

    def __getattr__(self, name):
        return getattr(self.current, name)

    def stop(self):
        if self.current is not None:
            stop_server(self.current)
            self.current = None

    def start(self):
        deadline = time.monotonic() + 10
        while True:  # the port may take a moment to be free again
            try:
                self.current = start_server(self.extra, port=self.port)
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def restart(self):
        self.stop()
        self.start()

    def kill(self):
        """`kill -9`: nothing is saved on the way out."""
        self.current.process.kill()
        self.current.process.wait(timeout=15)
        self.current = None

    def close(self):
        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


@pytest.fixture(scope="module")
def server():
    running = start_server()
    yield running
    stop_server(running)


@pytest.fixture
def restartable_server():
    running = RestartableServer()
    yield running
    running.close()


@pytest.fixture
def forgetful_server():
    """A restartable server that keeps its sessions in memory only: a restart loses them."""
    running = RestartableServer(["--no-session-store"])
    yield running
    running.close()


@pytest.fixture(scope="module")
def browser():
    # BINDERY_TEST_WITHOUT_SHARED_WORKER=1 runs every page on the fallback, one EventSource per page.
    driver = make_browser(without_shared_worker=bool(os.environ.get("BINDERY_TEST_WITHOUT_SHARED_WORKER")))
    yield driver
    driver.quit()


@pytest.fixture
def fresh_browser():
    """A browser of its own, for tests that count connections or need a fresh SharedWorker."""
    driver = make_browser()
    yield driver
    driver.quit()


def pytest_collection_modifyitems(config, items):
    """On the fallback run (BINDERY_TEST_WITHOUT_SHARED_WORKER=1) a test that runs
    on each transport itself would only run its `direct` case twice: it is left out."""
    if not os.environ.get("BINDERY_TEST_WITHOUT_SHARED_WORKER"):
        return
    kept = [item for item in items if "each_transport" not in getattr(item, "fixturenames", ())]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.fixture(scope="module", params=["shared", "direct"])
def each_transport(request):
    """A browser per transport: the SharedWorker's shared stream, and the fallback (an EventSource per page)."""
    driver = make_browser(without_shared_worker=request.param == "direct")
    driver.transport = request.param
    yield driver
    driver.quit()


def texts(driver, css):
    """The visible text of every element `css` selects, read in one step: a list
    the client re-renders meanwhile cannot go stale under it."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.checkVisibility() ? e.innerText.trim() : '')", css)


def notice(driver):
    """The text of the client's notice banner if it shows, else None."""
    elements = driver.find_elements(By.CSS_SELECTOR, "[data-bindery-notice]")
    return elements[0].text if elements and elements[0].is_displayed() else None
