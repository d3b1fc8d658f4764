"""`my-app dev` on the starter app, as its user works: a ViewModel changed, a
compile error, a crash, a ViewModel that throws, a page and a stylesheet
changed, each seen in real headless Chromium while the page keeps its place.

BINDERY_DEV_APP names the folder of an app `script/new-app` made and built
(script/test-starter runs this on its own): its sources are edited here.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "browser"))
from pages import make_browser, session_id, wait  # noqa: E402

APP = os.environ.get("BINDERY_DEV_APP")
pytestmark = pytest.mark.skipif(not APP, reason="BINDERY_DEV_APP names no built app (script/test-starter gives one)")
VIEW_MODEL = "Sources/Counter/CounterViewModel.swift"
# A rebuild of the app's ViewModel module and its link, on two busy cores.
BUILD_SECONDS = 240


class DevLoop:
    def __init__(self, app, port, database):
        self.output = []
        self.process = subprocess.Popen(
            [os.path.join(app, ".build/debug/my-app"), "dev", "--port", str(port), "--database", database],
            cwd=app, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._drain, daemon=True).start()
        self.url = f"http://127.0.0.1:{port}/"

    def _drain(self):
        for line in self.process.stdout:
            self.output.append(line)

    def log(self):
        return "".join(self.output)

    def wait_for(self, pattern, after=0, timeout=BUILD_SECONDS):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            since = "".join(self.output[after:])
            if re.search(pattern, since):
                return
            assert "[dev] the build failed" not in since or "failed" in pattern, since
            assert self.process.poll() is None, self.log()
            time.sleep(0.1)
        raise AssertionError(f"no {pattern!r} in the dev loop's output:\n{self.log()[-4000:]}")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def edit(path, old, new):
    with open(path) as file:
        text = file.read()
    assert old in text, (old, path)
    with open(path, "w") as file:
        file.write(text.replace(old, new, 1))


def line_of(path, text):
    with open(path) as file:
        return next(number for number, line in enumerate(file, 1) if text in line)


def count(browser):
    return browser.find_element(By.ID, "count").text


def panel(browser, state):
    """The development panel showing `state`, or None."""
    found = browser.find_elements(By.CSS_SELECTOR, f'[data-bindery-dev="{state}"]')
    return found[0] if found else None


@pytest.fixture
def loop():
    scratch = tempfile.mkdtemp(prefix="bindery-dev-")
    source = os.path.join(APP, VIEW_MODEL)
    with open(source) as file:
        original = file.read()
    index = os.path.join(APP, "Public/index.html")
    with open(index) as file:
        original_index = file.read()
    loop = DevLoop(APP, free_port(), os.path.join(scratch, "dev.sqlite"))
    browser = make_browser()
    try:
        loop.wait_for("listening on", timeout=120)
        yield loop, browser
    finally:
        browser.quit()
        loop.stop()
        with open(source, "w") as file:
            file.write(original)
        with open(index, "w") as file:
            file.write(original_index)
        stylesheet = os.path.join(APP, "Public/app.css")
        if os.path.exists(stylesheet):
            os.remove(stylesheet)


def test_the_page_keeps_its_place_through_changes_errors_and_crashes(loop):
    loop, browser = loop
    source = os.path.join(APP, VIEW_MODEL)
    browser.get(loop.url)
    wait(browser, lambda b: count(b) == "0")
    for _ in range(2):
        browser.find_element(By.ID, "increment").click()
    wait(browser, lambda b: count(b) == "2")
    # Typed into the step field (sent as setStep): 2 + 5.
    step = browser.find_element(By.ID, "step")
    step.send_keys(Keys.CONTROL, "a")
    step.send_keys("5")
    browser.find_element(By.ID, "increment").click()
    wait(browser, lambda b: count(b) == "7")
    browser.execute_script("window.devMarker = 'this page, not reloaded'")
    same_page = lambda b: b.execute_script("return window.devMarker") == "this page, not reloaded"  # noqa: E731
    # Every development panel the page shows, however briefly (a fast rebuild's badge).
    browser.execute_script("""
        window.devStates = [];
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.addedNodes)
            if (node.dataset && node.dataset.binderyDev) window.devStates.push(node.dataset.binderyDev);
        }).observe(document.body, { childList: true });
    """)

    # A change to the ViewModel: rebuilt, restarted, and the page goes on with its count, as the new
    # code shows it, and with the text typed into its field.
    mark = len(loop.output)
    edit(source, "self.count = count.asDriver()", "self.count = count.map { $0 * 10 }.asDriver(onErrorJustReturn: 0)")
    loop.wait_for("listening on", after=mark)
    wait(browser, lambda b: count(b) == "70" and panel(b, "building") is None, timeout=30)
    assert browser.execute_script("return window.devStates") == ["building"]
    assert browser.find_element(By.ID, "step").get_attribute("value") == "5"
    assert same_page(browser)

    # A compile error: shown in the page with its file and line; the last build goes on serving.
    mark = len(loop.output)
    edit(source, "    private let disposeBag = DisposeBag()\n", "    private let disposeBag = DisposeBag()\n    let broken: Int = \"x\"\n")
    broken_line = line_of(source, 'let broken: Int = "x"')
    wait(browser, lambda b: panel(b, "failed") is not None, timeout=BUILD_SECONDS)
    failed = panel(browser, "failed")
    place = failed.find_element(By.CSS_SELECTOR, "[data-bindery-dev-place]").text
    assert place == f"{VIEW_MODEL}:{broken_line}:23", failed.text
    assert "cannot convert value of type 'String' to specified type 'Int'" in failed.text, failed.text
    assert 'let broken: Int = "x"' in failed.text, failed.text
    browser.find_element(By.ID, "increment").click()
    wait(browser, lambda b: count(b) == "120")
    assert same_page(browser)

    # Fixed, with a crash on the way: the error goes, and a trap is shown where it is once the app is started again.
    mark = len(loop.output)
    edit(source, "    let broken: Int = \"x\"\n",
         "    let trap = PublishRelay<Void>()\n")
    edit(source, "        self.count = count.map",
         "        trap.subscribe(onNext: { fatalError(\"a trap the test set\") }).disposed(by: disposeBag)\n        self.count = count.map")
    trap_line = line_of(source, "fatalError(\"a trap the test set\")")
    loop.wait_for("listening on", after=mark)
    wait(browser, lambda b: panel(b, "failed") is None and count(b) == "120", timeout=30)
    assert same_page(browser)
    session = session_id(browser)
    mark = len(loop.output)
    browser.execute_script(f"fetch('/api/counter/{session}/inputs/trap', {{method: 'POST'}}).catch(() => {{}})")
    loop.wait_for(r"\[dev\] the app ended", after=mark, timeout=60)
    wait(browser, lambda b: panel(b, "crashed") is not None, timeout=60)
    crashed = panel(browser, "crashed")
    assert crashed.find_element(By.CSS_SELECTOR, "[data-bindery-dev-place]").text == f"{VIEW_MODEL}:{trap_line}", crashed.text
    assert "Fatal error: a trap the test set" in crashed.text, crashed.text
    # The session was saved before the trap (once a second): the count is where it was.
    wait(browser, lambda b: count(b) == "120")

    # A ViewModel whose output fails as it runs: the error, and where that output is declared.
    mark = len(loop.output)
    edit(source, "    public let canDecrement: Driver<Bool>\n",
         "    public let canDecrement: Driver<Bool>\n    public let checked: Observable<Int>\n")
    edit(source, "        self.step = step.asDriver()\n",
         "        self.step = step.asDriver()\n"
         "        checked = count.asObservable().map { n in if n >= 15 { throw CocoaError(.featureUnsupported) }; return n }\n")
    checked_line = line_of(source, "public let checked: Observable<Int>")
    loop.wait_for("listening on", after=mark)
    wait(browser, lambda b: panel(b, "crashed") is None, timeout=30)
    browser.find_element(By.ID, "increment").click()
    wait(browser, lambda b: panel(b, "threw") is not None, timeout=30)
    threw = panel(browser, "threw")
    assert threw.find_element(By.CSS_SELECTOR, "[data-bindery-dev-place]").text == f"{VIEW_MODEL}:{checked_line}", threw.text
    assert "output checked of counter ended with an error" in threw.text, threw.text
    assert same_page(browser)

    # A stylesheet no page links: nothing to do. The page changed: it reloads, and finds its session.
    # A stylesheet it links changed: fetched again, with no reload.
    mark = len(loop.output)
    with open(os.path.join(APP, "Public/app.css"), "w") as file:
        file.write("body { background: rgb(1, 2, 3); }\n")
    loop.wait_for("changed in the public folder: app.css", after=mark, timeout=30)
    assert same_page(browser)
    edit(os.path.join(APP, "Public/index.html"), "</head>", '  <link rel="stylesheet" href="/app.css">\n</head>')
    wait(browser, lambda b: not same_page(b), timeout=30)
    wait(browser, lambda b: count(b) == "170")
    browser.execute_script("window.devMarker = 'this page, not reloaded'")
    background = "return getComputedStyle(document.body).backgroundColor"
    assert browser.execute_script(background) == "rgb(1, 2, 3)"
    with open(os.path.join(APP, "Public/app.css"), "w") as file:
        file.write("body { background: rgb(4, 5, 6); }\n")
    wait(browser, lambda b: b.execute_script(background) == "rgb(4, 5, 6)", timeout=30)
    assert same_page(browser)


def test_a_loop_started_on_code_that_does_not_build_serves_the_last_build_under_its_errors():
    source = os.path.join(APP, VIEW_MODEL)
    with open(source) as file:
        original = file.read()
    scratch = tempfile.mkdtemp(prefix="bindery-dev-")
    edit(source, "    private let disposeBag = DisposeBag()\n", "    private let disposeBag = DisposeBag()\n    let broken: Int = \"x\"\n")
    broken_line = line_of(source, 'let broken: Int = "x"')
    loop = DevLoop(APP, free_port(), os.path.join(scratch, "dev.sqlite"))
    browser = make_browser()
    try:
        loop.wait_for(r"the build failed(.|\n)*the last build serves(.|\n)*listening on")
        browser.get(loop.url)
        wait(browser, lambda b: panel(b, "failed") is not None, timeout=30)
        failed = panel(browser, "failed")
        assert failed.find_element(By.CSS_SELECTOR, "[data-bindery-dev-place]").text == f"{VIEW_MODEL}:{broken_line}:23", failed.text
        # Under the errors, the last build serves the page.
        before = count(browser)
        browser.find_element(By.ID, "increment").click()
        wait(browser, lambda b: count(b) != before)
        # Fixed: built, started, and the page goes on with its session, the errors gone.
        mark = len(loop.output)
        with open(source, "w") as file:
            file.write(original)
        loop.wait_for("listening on", after=mark)
        wait(browser, lambda b: panel(b, "failed") is None and count(b) == "1", timeout=30)
    finally:
        browser.quit()
        loop.stop()
        with open(source, "w") as file:
            file.write(original)
