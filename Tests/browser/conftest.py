"""Fixtures: the real `bindery serve` on a free loopback port, and headless Chromium."""
import os
import re
import signal
import subprocess
import threading
import time

import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class RunningServer:
    def __init__(self, process, url):
        self.process = process
        self.url = url
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

    def send(self, view_model, session, input_name, payload=None):
        response = requests.post(
            self.api(f"/{view_model}/{session}/inputs/{input_name}"),
            json=payload, timeout=5)
        assert response.status_code == 200, response.text
        return response.json()


def start_server(extra=()):
    binary = os.environ.get("BINDERY_BINARY", os.path.join(ROOT, ".build/debug/bindery"))
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--public-directory", os.path.join(ROOT, "Public"), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if match:
            return RunningServer(process, match.group(1))
        if process.poll() is not None:
            break
    process.kill()
    raise RuntimeError("bindery serve did not start")


def stop_server(server):
    server.process.send_signal(signal.SIGTERM)
    code = server.process.wait(timeout=15)
    assert code == 0, f"bindery exited with {code} on SIGTERM"


@pytest.fixture(scope="module")
def server():
    running = start_server()
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1024,768"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
