#!/usr/bin/env python3
"""Time from navigation to a page's values being visible, and the bytes before then, in headless
Chromium: each server given (a label and a command line of `bindery serve`) on a loopback port of
its own, the navigations alternated between them, a fixed number each, bounded in time.

    Benchmarks/scripts/first_paint.py \\
        before='.build/debug/bindery serve --no-first-paint' after='.build/debug/bindery serve'

"Visible" is when the page's condition first holds (todos: the 100 rows and the count; home: the
albums), seen by a MutationObserver installed before the page's own scripts; if it already holds
when the document is parsed, the page's first contentful paint (Paint Timing). Bytes are the
navigation's and every resource's transfer size (Resource Timing) that ended before then.
Prints the median and quartiles per page, latency and server, and each one's ratio to the first
server. FIRST_PAINT_LATENCIES (default 0,50) gives the round-trip times Chromium emulates."""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUNDS = int(os.environ.get("FIRST_PAINT_ROUNDS", "15"))
# Round-trip times to emulate (Chromium's network conditions, on the page's own requests; the
# SharedWorker's stream is not delayed): loopback's 0 ms, and a phone's or a far server's.
LATENCIES = [int(ms) for ms in os.environ.get("FIRST_PAINT_LATENCIES", "0,50").split(",")]
DEADLINE = time.monotonic() + float(os.environ.get("FIRST_PAINT_SECONDS", "300"))

# Installed before any script of the page: records when the condition first holds.
WATCH = """
window.__visible = null;
const holds = () => %s;
const check = () => {
  if (window.__visible === null && document.body && holds()) window.__visible = performance.now();
};
new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
document.addEventListener("DOMContentLoaded", check);
"""

PAGES = {
    # 100 rows and their count, from a list the benchmark fills first.
    "todos (100 items)": ("/todos.html?list=bench-100",
                          "document.querySelectorAll('#items li[data-key]').length === 100 && "
                          "document.getElementById('remaining')?.textContent === '100 items left'"),
    # The albums, after the service's latency (300 ms by default).
    "home": ("/home.html", "document.querySelectorAll('#albums li').length > 0"),
}


def start(label, command):
    scratch = tempfile.mkdtemp(prefix="bindery-first-paint-")
    argv = shlex.split(command) + ["--port", "0", "--database", os.path.join(scratch, "bindery.sqlite"),
                                   "--public-directory", os.path.join(ROOT, "Public"), "--session-burst", "100000",
                                   "--session-rate", "100000", "--log-level", "warning"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if found:
            return process, found.group(1)
        if process.poll() is not None:
            break
    process.kill()
    sys.exit(f"{label}: the server did not start")


def fill(url):
    session = requests.post(f"{url}/api/todos", json={"list": "bench-100"}, timeout=5).json()["id"]
    for n in range(100):
        requests.post(f"{url}/api/todos/{session}/inputs/add", json=f"item {n}", timeout=5).raise_for_status()


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1024,768"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def measure(driver, url, condition):
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH % condition})
    try:
        driver.get(url)
        deadline = time.monotonic() + 15
        while driver.execute_script("return window.__visible") is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url}: the values never showed")
            time.sleep(0.02)
        result = driver.execute_script("""
            const visible = window.__visible;
            const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? visible;
            const at = Math.max(visible, paint);
            const navigation = performance.getEntriesByType("navigation")[0];
            let bytes = navigation.transferSize;
            for (const entry of performance.getEntriesByType("resource")) if (entry.responseEnd <= at) bytes += entry.transferSize;
            return { at, bytes, html: navigation.transferSize };
        """)
        return result
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def main():
    servers = [argument.split("=", 1) for argument in sys.argv[1:]]
    if not servers or any(len(server) != 2 for server in servers):
        sys.exit(__doc__)
    running = [(label, *start(label, command)) for label, command in servers]
    driver = browser()
    results = {(page, latency, label): [] for page in PAGES for latency in LATENCIES for label, _ in servers}
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        for _, _, url in running:
            fill(url)
            for path, condition in PAGES.values():  # warm: the client's files cached, as on a second visit
                measure(driver, url + path, condition)
        for latency in LATENCIES:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1})
            for _ in range(ROUNDS):
                if time.monotonic() > DEADLINE:
                    break
                for page, (path, condition) in PAGES.items():
                    for label, _, url in running:
                        results[(page, latency, label)].append(measure(driver, url + path, condition))
    finally:
        driver.quit()
        for _, process, _ in running:
            process.terminate()
            process.wait(timeout=15)
    first = servers[0][0]
    print(f"{'page':20} {'rtt':>5} {'server':10} {'n':>3} {'visible ms (p25 / median / p75)':>34} {'bytes before':>13} {'speed-up':>8}")
    for page in PAGES:
        for latency in LATENCIES:
            runs = results[(page, latency, first)]
            if not runs:
                continue
            base = statistics.median(r["at"] for r in runs)
            for label, _ in servers:
                runs = results[(page, latency, label)]
                times = sorted(r["at"] for r in runs)
                q = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
                bytes_before = statistics.median(r["bytes"] for r in runs)
                print(f"{page:20} {latency:>5} {label:10} {len(runs):>3} {q[0]:>10.1f} / {q[1]:>7.1f} / {q[2]:>7.1f} {bytes_before:>13.0f} "
                      f"{base / q[1]:>7.2f}×")
    print(json.dumps({f"{page} · {latency} ms · {label}": [round(r["at"], 1) for r in runs] for (page, latency, label), runs in results.items()}))


if __name__ == "__main__":
    main()
