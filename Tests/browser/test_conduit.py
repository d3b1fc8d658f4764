"""Conduit, RealWorld's Medium clone on Bindery, in Chromium: the home page arrives
with the seed's articles and goes live; a reader registers, writes an article in
Markdown with hostile HTML in it, and it shows safely; a comment and a new article
reach another reader's open page without a reload; the protected pages send a
stranger to sign in and back; and a reader's place survives a restart."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from conduit_pages import comments, conduit_binary, previews, register, wait
from conftest import free_port, make_browser, wait_open


class Conduit:
    """`conduit` on a port and a database of its own, seeded with 20 articles' worth of the seed."""

    def __init__(self, data=None, seed=True):
        self.scratch = tempfile.mkdtemp(prefix="conduit-test-")
        self.database = os.path.join(data or self.scratch, "conduit.sqlite")
        # Its log, for a failure's message.
        self.log = os.path.join(self.scratch, "conduit.log")
        self.port = free_port()
        if seed:
            seeded = subprocess.run([conduit_binary(), "seed", "--database", self.database], capture_output=True, text=True, timeout=120)
            assert seeded.returncode == 0, seeded.stderr
        self.process = None
        self.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        deadline = time.monotonic() + 30
        while True:
            with open(self.log, "a") as log:
                self.process = subprocess.Popen(
                    [conduit_binary(), "--port", str(self.port), "--database", self.database], stdout=log, stderr=subprocess.STDOUT)
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    if requests.get(self.url + "/healthz", timeout=1).status_code == 200:
                        return
                except requests.ConnectionError:
                    time.sleep(0.05)
            assert time.monotonic() < deadline, "conduit did not start"
            time.sleep(0.2)  # the port may take a moment to be free again

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=15) == 0

    def close(self):
        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


@pytest.fixture(scope="module")
def conduit():
    app = Conduit()
    yield app
    app.close()


@pytest.fixture
def reader():
    driver = make_browser(size="1200,900")
    yield driver
    driver.quit()


def test_the_home_page_arrives_with_the_feed_and_the_tags(conduit):
    page = requests.get(conduit.url + "/", timeout=10)
    assert page.status_code == 200
    rows = re.findall(r'<div class="article-preview" data-key="([^"]+)"', page.text)
    assert len(rows) == 10, "the first ten articles are in the HTML itself"
    assert 'class="tag-pill tag-default" data-on-click="tag" data-item-text="tag" data-key=' in page.text
    assert re.search(r'<li class="page-item[^"]*" [^>]*data-key="6"', page.text), "60 articles, ten a page"
    for path in ("/article/" + rows[0], "/profile/ada-lovelace", "/profile/ada-lovelace/favorites", "/login", "/register"):
        assert requests.get(conduit.url + path, timeout=10).status_code == 200, path
    assert requests.get(conduit.url + "/article/no-such-thing/more", timeout=10).status_code == 404
    for path in ("/settings", "/editor", "/editor/" + rows[0]):
        away = requests.get(conduit.url + path, allow_redirects=False, timeout=10)
        assert away.status_code == 303 and away.headers["Location"] == f"/login?next={path}", path


def test_a_tag_and_a_page_of_the_feed(conduit, reader):
    reader.get(conduit.url + "/")
    wait_open(reader)
    first = previews(reader)
    tag = reader.find_element(By.CSS_SELECTOR, "#popular-tags a").text
    reader.find_element(By.CSS_SELECTOR, "#popular-tags a").click()
    wait(reader, lambda d: d.find_element(By.ID, "tag-feed").is_displayed() and d.find_element(By.ID, "tag-feed").text == f"#{tag}")
    wait(reader, lambda d: previews(d) != first)
    tags = reader.execute_script(
        "return [...document.querySelectorAll('#articles > .article-preview')].map((p) => [...p.querySelectorAll('.tag-list li')].map((l) => l.textContent))")
    assert tags and all(tag in listed for listed in tags), tags
    reader.find_element(By.ID, "global-feed").click()
    wait(reader, lambda d: previews(d) == first)
    reader.find_element(By.CSS_SELECTOR, ".pagination li:nth-of-type(2) a").click()
    wait(reader, lambda d: previews(d) != first and len(previews(d)) == 10)
    assert "active" in reader.find_element(By.CSS_SELECTOR, ".pagination li:nth-of-type(2)").get_attribute("class")


HOSTILE = """# Heading

Some **bold** text.

<script>window.pwned = 1</script>
<img src="x" onerror="window.pwned = 2">
[a link](javascript:window.pwned=3) and <a href="https://example.org" onclick="window.pwned = 4">another</a>
"""


def test_write_an_article_and_a_comment_that_another_reader_sees_live(conduit, reader):
    register(reader, conduit.url, "writer")
    other = make_browser(size="1200,900")
    try:
        other.get(conduit.url + "/")
        wait_open(other)
        # Written through the editor: Markdown with HTML no page may run.
        reader.get(conduit.url + "/editor")
        wait_open(reader)
        form = reader.find_element(By.CSS_SELECTOR, "form")
        form.find_element(By.NAME, "title").send_keys("Live from the editor")
        form.find_element(By.NAME, "description").send_keys("About being live")
        form.find_element(By.NAME, "body").send_keys(HOSTILE)
        form.find_element(By.NAME, "tags").send_keys("live bindery")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(reader, lambda d: d.execute_script("return location.pathname") == "/article/live-from-the-editor")
        wait(reader, lambda d: d.find_element(By.ID, "title").text == "Live from the editor")
        body = reader.find_element(By.ID, "body")
        wait(reader, lambda d: body.find_elements(By.TAG_NAME, "strong"))
        assert body.find_element(By.TAG_NAME, "h1").text == "Heading"
        assert body.find_elements(By.TAG_NAME, "script") == []
        assert "onerror" not in body.get_attribute("innerHTML") and "onclick" not in body.get_attribute("innerHTML")
        links = [(a.get_attribute("href"), a.get_attribute("rel")) for a in body.find_elements(By.TAG_NAME, "a")]
        assert ("https://example.org/", "nofollow noopener noreferrer") in links, links
        assert not any(href and href.startswith("javascript:") for href, _ in links), links
        assert reader.execute_script("return window.pwned") is None
        # The same, in the HTML the server sent (the first paint).
        html = requests.get(conduit.url + "/article/live-from-the-editor", timeout=10).text
        served = re.search(r'<div id="body" data-html="article.html">(.*?)</div>', html, re.S).group(1)
        assert "<strong>bold</strong>" in served and "<script" not in served and "onerror" not in served and "=\"javascript" not in served, served
        # The other reader's global feed has it at the top, without a reload.
        wait(other, lambda d: previews(d)[:1] == ["Live from the editor"])

        # A comment reaches the other reader's open article.
        other.get(conduit.url + "/article/live-from-the-editor")
        wait_open(other)
        form = reader.find_element(By.ID, "comment-form")
        form.find_element(By.NAME, "body").send_keys("First comment, <b>not bold</b>")
        form.find_element(By.TAG_NAME, "button").click()
        wait(other, lambda d: comments(d)[:1] == ["First comment, <b>not bold</b>"])
        assert other.find_elements(By.CSS_SELECTOR, "#comment-form:not([hidden])") == [], "a stranger has no comment form"
        # Its author deletes it; gone from both.
        reader.find_element(By.CSS_SELECTOR, "#comments .mod-options i").click()
        wait(other, lambda d: d.find_elements(By.CSS_SELECTOR, "#comments .card") == [])
    finally:
        other.quit()


def test_favorite_follow_and_settings_then_sign_out(conduit, reader):
    register(reader, conduit.url, "fan")
    reader.get(conduit.url + "/")
    wait_open(reader)
    button = reader.find_element(By.CSS_SELECTOR, "#articles > .article-preview .favorite")
    count = int(button.text)
    button.click()
    wait(reader, lambda d: "active" in button.get_attribute("class") and int(button.text) == count + 1)
    author = reader.find_element(By.CSS_SELECTOR, "#articles > .article-preview .author").text
    # The favorite is on the fan's profile, under favorited articles.
    reader.get(conduit.url + "/profile/fan/favorites")
    wait(reader, lambda d: len(previews(d)) == 1)
    # Following the author fills the fan's own feed.
    reader.get(conduit.url + f"/profile/{author}")
    wait_open(reader)
    follow = reader.find_element(By.CSS_SELECTOR, ".user-info .follow")
    follow.click()
    wait(reader, lambda d: d.find_element(By.CSS_SELECTOR, ".user-info .follow").text.strip() == f"Unfollow {author}")
    reader.get(conduit.url + "/")
    wait_open(reader)
    reader.find_element(By.ID, "your-feed").click()
    wait(reader, lambda d: previews(d) and all(a.text == author for a in d.find_elements(By.CSS_SELECTOR, "#articles .author")))
    # Settings: a bio, then sign out; the protected page then sends to sign in.
    reader.get(conduit.url + "/settings")
    wait_open(reader)
    bio = reader.find_element(By.NAME, "bio")
    bio.send_keys("I like things.")
    reader.find_element(By.CSS_SELECTOR, "form button").click()
    wait(reader, lambda d: d.execute_script("return location.pathname") == "/profile/fan")
    wait(reader, lambda d: "I like things." in d.find_element(By.CSS_SELECTOR, ".user-info p").text)
    reader.get(conduit.url + "/settings")
    wait_open(reader)
    reader.find_element(By.ID, "logout").click()
    wait(reader, lambda d: d.execute_script("return location.pathname") == "/")
    reader.get(conduit.url + "/settings")
    wait(reader, lambda d: d.execute_script("return location.pathname + location.search").startswith("/login?next=%2Fsettings"))


def test_a_readers_place_survives_a_restart(conduit, reader):
    reader.get(conduit.url + "/")
    wait_open(reader)
    reader.find_element(By.CSS_SELECTOR, ".pagination li:nth-of-type(3) a").click()
    wait(reader, lambda d: "active" in d.find_element(By.CSS_SELECTOR, ".pagination li:nth-of-type(3)").get_attribute("class"))
    shown = previews(reader)
    conduit.stop()
    conduit.start()
    reader.refresh()
    wait_open(reader)
    # The session made again from the store reads its page of articles as it is made: the
    # page's first paint may come before that read, and the list a moment after, live.
    wait(reader, lambda d: previews(d) == shown)
    assert "active" in reader.find_element(By.CSS_SELECTOR, ".pagination li:nth-of-type(3)").get_attribute("class"), "the third page still"


def test_a_draft_survives_a_restart_of_the_server(conduit, reader):
    register(reader, conduit.url, "drafter")
    reader.get(conduit.url + "/editor")
    wait_open(reader)
    form = reader.find_element(By.CSS_SELECTOR, "form")
    form.find_element(By.NAME, "title").send_keys("Half written")
    form.find_element(By.NAME, "body").send_keys("The first paragraph, and")
    # Tags show as the spec's pills; a pill's ✕ takes its tag from the field.
    form.find_element(By.NAME, "tags").send_keys("Draft, notes later")

    def pills(d):
        return [p.text.strip() for p in d.find_elements(By.CSS_SELECTOR, ".tag-list .tag-pill")]
    wait(reader, lambda d: pills(d) == ["draft", "notes", "later"])
    reader.find_element(By.CSS_SELECTOR, ".tag-list .tag-pill:nth-of-type(3) .ion-close-round").click()
    wait(reader, lambda d: pills(d) == ["draft", "notes"] and form.find_element(By.NAME, "tags").get_attribute("value") == "draft notes")
    conduit.stop()
    conduit.start()
    # The page reconnects to its session (kept in the database) and keeps what was typed.
    wait(reader, lambda d: d.execute_script("return document.documentElement.dataset.binderyState") == "open", timeout=20)
    assert form.find_element(By.NAME, "title").get_attribute("value") == "Half written"
    form.find_element(By.NAME, "description").send_keys("Finished after a restart")
    form.find_element(By.NAME, "body").send_keys(" the second.")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(reader, lambda d: d.execute_script("return location.pathname") == "/article/half-written")
    wait(reader, lambda d: "The first paragraph, and the second." in d.find_element(By.ID, "body").text)
    assert [t.text for t in reader.find_elements(By.CSS_SELECTOR, ".article-page .tag-list li")] == ["draft", "notes"]


class Client:
    """A script's client of Conduit's REST routes, signed in with the cookie its sign-up's answer set."""

    def __init__(self, conduit, name):
        self.url = conduit.url
        self.http = requests.Session()
        self.http.headers["Origin"] = conduit.url
        session = self.make("register")
        answer = self.input("register", session, "submit", {"username": name, "email": f"{name}@example.org", "password": "correct horse battery"})
        assert answer.status_code == 200 and "bindery_signin" in self.http.cookies, answer.text

    def make(self, view_model, parameters=None):
        made = self.http.post(f"{self.url}/api/{view_model}", json=parameters or {}, timeout=10)
        assert made.status_code == 201, made.text
        return made.json()["id"]

    def input(self, view_model, session, name, payload=None):
        return self.http.post(f"{self.url}/api/{view_model}/{session}/inputs/{name}", json=payload, timeout=20)


def test_a_write_the_full_disk_cannot_keep_is_refused_507_and_the_next_is_kept():
    """Conduit's SQLite on a real tmpfs of 8 MiB that a filler fills: an article
    published and a comment sent then are answered 507 `storage_full` and are
    not there afterwards; with room again, the same comment is answered 200 and shown."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    disk = tempfile.mkdtemp(prefix="conduit-disk-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", disk], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + mounted.stderr)
    app = None
    try:
        app = Conduit(data=disk, seed=False)
        writer = Client(app, "writer")
        editor = writer.make("editor")
        published = writer.input("editor", editor, "publish", {"title": "Before the disk filled", "description": "d", "body": "b", "tags": ""})
        assert published.status_code == 200, published.text
        article = writer.make("article", {"slug": "before-the-disk-filled"})

        filler = os.path.join(disk, "filler")
        with open(filler, "wb") as file:
            try:
                while True:
                    file.write(b"\xab" * (1 << 16))
                    file.flush()
            except OSError:
                pass
        refused = writer.input("article", article, "comment", "While the disk is full")
        assert refused.status_code == 507 and refused.json()["error"] == "storage_full", refused.text
        editor = writer.make("editor")
        refused = writer.input("editor", editor, "publish", {"title": "Never kept", "description": "d", "body": "b", "tags": ""})
        assert refused.status_code == 507, refused.text
        assert "SQLITE" not in refused.text.upper() and "disk I/O" not in refused.text, "no database words reach a client"

        os.remove(filler)
        kept = writer.input("article", article, "comment", "While the disk is full")
        assert kept.status_code == 200, kept.text
        # The page as the input left it: one comment, the refused one never kept.
        shown = writer.http.get(f"{app.url}/api/article/{article}", timeout=10).json()["outputs"]["comments"]
        assert [comment["body"] for comment in shown] == ["While the disk is full"], shown
        home = requests.get(app.url + "/", timeout=10).text
        assert "Before the disk filled" in home and "Never kept" not in home
    finally:
        if app:
            app.close()
        subprocess.run(["umount", "-l", disk], check=False)
        shutil.rmtree(disk, ignore_errors=True)
