"""Conduit as a cluster: two `conduit` nodes on one PostgreSQL (`--database
postgres://…`), seeded there. A reader signed up through one node is signed in
on the other; a comment and a favorite written through one node show on a page
open on the other, live; an article written through one is on the other's home
page. Then PostgreSQL is killed and started again: a comment sent meanwhile is
refused (503, not lost as if answered), and after the restart both nodes go on."""
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests
from selenium.webdriver.common.by import By

import fault_run
from conduit_pages import comments, conduit_binary, register, wait
from conftest import ROOT, make_browser, wait_open

POSTGRES = os.path.join(ROOT, "script", "postgres")


class Node:
    def __init__(self, directory, database, number):
        self.log = os.path.join(directory, f"conduit-{number}.log")
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [conduit_binary(), "--port", "0", "--database", database], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        self.url = None
        while self.url is None:
            assert self.process.poll() is None and time.monotonic() < deadline, "conduit did not start: " + self.tail()
            for line in open(self.log):
                if line.startswith("Bindery listening on "):
                    self.url = line.split()[3].rstrip("/")
            time.sleep(0.05)

    def tail(self):
        return "".join(open(self.log).readlines()[-10:])

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=15)


@pytest.fixture(scope="module")
def conduit_cluster():
    directory = tempfile.mkdtemp(prefix="conduit-cluster-")
    os.chmod(directory, 0o755)
    started = subprocess.run([POSTGRES, "start", os.path.join(directory, "postgres")], capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    database = started.stdout.strip()
    nodes = []
    try:
        seeded = subprocess.run([conduit_binary(), "seed", "--database", database], capture_output=True, text=True, timeout=180)
        assert seeded.returncode == 0, seeded.stderr
        nodes = [Node(directory, database, 1), Node(directory, database, 2)]
        yield directory, nodes
    finally:
        for node in nodes:
            node.stop()
        subprocess.run([POSTGRES, "stop", os.path.join(directory, "postgres")], capture_output=True, timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


def test_two_nodes_serve_one_conduit_live(conduit_cluster):
    directory, (first, second) = conduit_cluster
    writer, reader = make_browser(size="1200,900"), make_browser(size="1200,900")
    try:
        # Signed up through node 1; node 2 knows the account and the browser's sign-in.
        register(writer, first.url, "clustered")
        writer.get(second.url + "/settings")
        wait_open(writer)
        wait(writer, lambda d: d.find_element(By.NAME, "email").get_attribute("value") == "clustered@example.org")

        # A seeded article open on node 2; a comment and a favorite through node 1 show there.
        home = requests.get(second.url + "/", timeout=10).text
        slug = home.split('href="/article/')[1].split('"')[0]
        reader.get(second.url + "/article/" + slug)
        wait_open(reader)
        before = comments(reader)
        count = reader.find_element(By.CSS_SELECTOR, ".article-meta .counter").text
        writer.get(first.url + "/article/" + slug)
        wait_open(writer)
        form = writer.find_element(By.ID, "comment-form")
        form.find_element(By.NAME, "body").send_keys("Written through node 1")
        form.find_element(By.TAG_NAME, "button").click()
        wait(reader, lambda d: comments(d) == ["Written through node 1"] + before)
        writer.find_element(By.CSS_SELECTOR, ".article-meta .btn-outline-primary, .article-meta .btn-primary").click()
        wait(reader, lambda d: d.find_element(By.CSS_SELECTOR, ".article-meta .counter").text != count)

        # A new article through node 1 tops node 2's global feed, open in the reader's browser.
        reader.get(second.url + "/")
        wait_open(reader)
        writer.get(first.url + "/editor")
        wait_open(writer)
        form = writer.find_element(By.CSS_SELECTOR, "form")
        form.find_element(By.NAME, "title").send_keys("Across the cluster")
        form.find_element(By.NAME, "description").send_keys("d")
        form.find_element(By.NAME, "body").send_keys("b")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(writer, lambda d: d.execute_script("return location.pathname") == "/article/across-the-cluster")
        wait(reader, lambda d: d.execute_script(
            "return document.querySelector('#articles > .article-preview h1')?.textContent") == "Across the cluster")

        # PostgreSQL crashes: a comment sent now is refused as a failure (not answered 200 and lost).
        headers = {"Origin": first.url, "Cookie": "bindery_signin=" + writer.get_cookie("bindery_signin")["value"]}
        made = requests.post(first.url + "/api/article", json={"slug": "across-the-cluster"}, headers=headers, timeout=10)
        assert made.status_code == 201, made.text
        session = made.json()["id"]
        fault_run.kill_postgres(directory)
        refused = requests.post(
            f"{first.url}/api/article/{session}/inputs/comment", json="While the database is down", headers=headers, timeout=20)
        assert refused.status_code == 503 and refused.json()["error"] == "database_unavailable", refused.text
        fault_run.start_postgres(directory)
        # Both nodes go on: the writer comments again through node 2, the reader sees it on node 2.
        reader.get(second.url + "/article/across-the-cluster")
        wait_open(reader)
        writer.get(second.url + "/article/across-the-cluster")
        wait_open(writer)

        def comment_again(d):
            form = d.find_element(By.ID, "comment-form")
            if not form.is_displayed():
                return False
            form.find_element(By.NAME, "body").send_keys("After the restart")
            form.find_element(By.TAG_NAME, "button").click()
            return True
        wait(writer, comment_again, timeout=30)
        wait(reader, lambda d: comments(d)[:1] == ["After the restart"], timeout=30)
        assert "While the database is down" not in comments(reader)
    finally:
        writer.quit()
        reader.quit()
