#!/usr/bin/env python3
"""Conduit on Bindery, measured in one run: its code lines (loc.py, counted as RealWorld's
comparisons count them), the bytes a first visit to the home page and to an article transfers
(HTML, JS, CSS as served, compressed), the time to the article's text and to a comment showing in
a second browser (headless Chromium, loopback), and the server's CPU per page view and per comment
delivered to 100 open article pages. Bounded: a fixed number of each, and a deadline.

    Benchmarks/conduit/measure.py [CONDUIT]      (default .build/release/conduit)

Prints a markdown table (Benchmarks/conduit/README.md holds the last one)."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/conduit")
ROUNDS = int(os.environ.get("CONDUIT_ROUNDS", "10"))
PAGE_VIEWS = int(os.environ.get("CONDUIT_PAGE_VIEWS", "200"))
COMMENTS = int(os.environ.get("CONDUIT_COMMENTS", "20"))
READERS = 100
DEADLINE = time.monotonic() + float(os.environ.get("CONDUIT_SECONDS", "600"))
TICKS = os.sysconf("SC_CLK_TCK")


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(") ", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def quartiles(values):
    values = sorted(values)
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return f"{q[1]:.0f} ({q[0]:.0f}–{q[2]:.0f})"


def main():
    scratch = tempfile.mkdtemp(prefix="conduit-measure-")
    database = os.path.join(scratch, "conduit.sqlite")
    subprocess.run([BINARY, "seed", "--database", database], check=True, capture_output=True, timeout=120)
    server = subprocess.Popen([BINARY, "--port", "0", "--database", database, "--log-level", "notice",
                               "--session-rate", "100000", "--session-burst", "100000", "--max-sessions", "100000", "--max-sessions-per-client", "100000", "--max-connections-per-client", "100000"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = None
    for line in server.stdout:
        if "listening on" in line:
            url = line.split("listening on ")[1].split()[0].rstrip("/")
            break
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    rows = []
    try:
        loc = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/conduit/loc.py"), "--dir", ROOT,
                              "--include", "Sources/Conduit/", "--include", "Sources/conduit/", "--json"],
                             capture_output=True, text=True, check=True)
        counted = json.loads(loc.stdout)
        css = counted["by_ext"].get(".css", {}).get("code", 0)
        rows.append(("code lines (Swift, HTML, CSS)", f"{counted['code']:,}",
                     f"{counted['code'] - css:,} without the stylesheet the others load from a CDN"))

        html = requests.get(url + "/", timeout=10).text
        slug = html.split('class="article-preview" data-key="', 1)[1].split('"', 1)[0]

        # Weight and time, each a first visit in a new browser.
        for name, path, visible in (("home page", "/", "document.querySelectorAll('#articles > .article-preview').length === 10"),
                                    ("article", f"/article/{slug}", "document.getElementById('body')?.textContent.length > 0")):
            sizes, times = [], []
            for _ in range(ROUNDS):
                if time.monotonic() > DEADLINE:
                    break
                driver = browser()
                try:
                    driver.get(url + path)
                    time.sleep(1.0)  # the stream opened, the start inputs answered
                    entries = driver.execute_script(
                        "return performance.getEntries().filter((e) => e.entryType === 'navigation' || e.entryType === 'resource')"
                        ".map((e) => [e.name, e.transferSize, e.decodedBodySize])")
                    sizes.append(sum(size for _, size, _ in entries))
                    paint = driver.execute_script(
                        "const fcp = performance.getEntriesByName('first-contentful-paint')[0]; return fcp ? fcp.startTime : null")
                    holds = driver.execute_script(f"return {visible}")
                    assert holds, f"{name}: not visible"
                    times.append(paint)
                finally:
                    driver.quit()
            rows.append((f"first visit, {name}: bytes transferred", f"{statistics.median(sizes):,.0f}",
                         "HTML, JS, CSS, the inputs' answers, as served (Brotli where the browser asks)"))
            rows.append((f"first visit, {name}: ms to its text (first contentful paint)", quartiles(times),
                         "the text is in the HTML the server sent"))

        # A comment seen by a second browser.
        session = requests.Session()
        created = session.post(f"{url}/api/register", headers={"Origin": url}, timeout=10).json()["id"]
        answer = session.post(f"{url}/api/register/{created}/inputs/submit", headers={"Origin": url},
                              json={"username": "measure", "email": "measure@example.org", "password": "correct horse"}, timeout=30)
        assert answer.status_code == 200, answer.text
        writer = session.post(f"{url}/api/article", headers={"Origin": url}, json={"slug": slug}, timeout=10).json()["id"]
        reader = browser()
        delays = []
        try:
            reader.get(f"{url}/article/{slug}")
            time.sleep(1.0)
            for index in range(ROUNDS):
                if time.monotonic() > DEADLINE:
                    break
                text = f"measured comment {index} {time.time()}"
                reader.execute_script(
                    "window.__seen = null; const text = arguments[0];"
                    "new MutationObserver((_, o) => { if (document.getElementById('comments').textContent.includes(text)) {"
                    " window.__seen = Date.now(); o.disconnect(); } }).observe(document.getElementById('comments'), {subtree: true, childList: true, characterData: true});",
                    text)
                sent = time.time() * 1000
                session.post(f"{url}/api/article/{writer}/inputs/comment", headers={"Origin": url}, json=text, timeout=10)
                deadline = time.monotonic() + 5
                while reader.execute_script("return window.__seen") is None and time.monotonic() < deadline:
                    time.sleep(0.005)
                seen = reader.execute_script("return window.__seen")
                assert seen, "the comment did not show"
                delays.append(seen - sent)
        finally:
            reader.quit()
        rows.append(("a comment, from its POST to a second browser's page showing it, ms", quartiles(delays), "over the shared stream"))

        # Server CPU per page view (the article's HTML with its first paint: a session made and rendered).
        before = cpu_seconds(server.pid)
        for _ in range(PAGE_VIEWS):
            requests.get(f"{url}/article/{slug}", headers={"Accept": "text/html"}, timeout=10)
        views = PAGE_VIEWS
        rows.append(("server CPU per article page view (first paint), ms", f"{(cpu_seconds(server.pid) - before) * 1000 / views:.2f}",
                     f"{views} views, one after another"))

        # Server CPU per comment delivered to 100 open article pages (streams of their sessions).
        streams, stop = [], threading.Event()
        received = [0] * READERS

        def follow(index, sid):
            with requests.get(f"{url}/api/article/{sid}/events", headers={"Accept": "text/event-stream"}, stream=True, timeout=30) as stream:
                for line in stream.iter_lines():
                    if line.startswith(b"event: comments"):
                        received[index] += 1
                    if stop.is_set():
                        return

        for index in range(READERS):
            sid = requests.post(f"{url}/api/article", json={"slug": slug}, timeout=10).json()["id"]
            thread = threading.Thread(target=follow, args=(index, sid), daemon=True)
            thread.start()
            streams.append(thread)
        time.sleep(2)
        start = list(received)
        before = cpu_seconds(server.pid)
        for index in range(COMMENTS):
            session.post(f"{url}/api/article/{writer}/inputs/comment", headers={"Origin": url}, json=f"load {index}", timeout=10)
            time.sleep(0.25)
        deadline = time.monotonic() + 20
        while sum(received) - sum(start) < COMMENTS * READERS and time.monotonic() < deadline:
            time.sleep(0.05)
        delivered = sum(received) - sum(start)
        spent = cpu_seconds(server.pid) - before
        stop.set()
        rows.append(("server CPU per comment, with 100 article pages open, ms", f"{spent * 1e3 / COMMENTS:.1f}",
                     f"{COMMENTS} comments, 250 ms apart, × {READERS} pages: {delivered} deliveries "
                     f"({spent * 1e6 / max(1, delivered):.0f} µs a delivery); the comments are read once a comment and shared"))
    finally:
        server.terminate()
        server.wait(timeout=15)
    print("| measure | Conduit on Bindery | note |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row[0]} | {row[1]} | {row[2]} |")


if __name__ == "__main__":
    main()
