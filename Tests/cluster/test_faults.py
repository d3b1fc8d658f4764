"""Faults of the shared database under a cluster that is being written to:
an input answered 2xx is in the database afterwards, once; an input refused
is refused in words a client can act on (never the database's own); and
every node catches up with the database once it is back."""
import json
import threading
import time

import pytest
import requests

FORBIDDEN = ("postgres", "libpq", "sqlstate", "127.0.0.1:", "connection to server")


def create_list(url, name):
    created = requests.post(f"{url}/api/todos", json={"list": name}, timeout=10)
    assert created.status_code == 201, created.text
    return created.json()["id"]


def titles_through(url, name):
    """The list as a new session on the node (or proxy) at `url` shows it."""
    created = requests.post(f"{url}/api/todos", json={"list": name}, timeout=10)
    assert created.status_code == 201, created.text
    return [item["title"] for item in created.json()["outputs"].get("items", [])]


class Writer(threading.Thread):
    """Adds `w<k>-<i>` one after another through `url`, each answered before the next, until told to stop."""

    def __init__(self, number, url, list_name, stop):
        super().__init__(daemon=True)
        self.number, self.url, self.stop = number, url, stop
        self.session = create_list(url, list_name)
        self.acknowledged, self.refused_unapplied, self.unknown, self.bad_answers = [], [], [], []

    def run(self):
        index = 0
        while not self.stop.is_set() and index < 20_000:
            title = f"w{self.number}-{index}"
            index += 1
            try:
                response = requests.post(f"{self.url}/api/todos/{self.session}/inputs/add", json=title, timeout=15)
            except requests.RequestException:
                self.unknown.append(title)
                time.sleep(0.05)
                continue
            if 200 <= response.status_code < 300:
                self.acknowledged.append(title)
                continue
            self.check_refusal(response, title)
            time.sleep(0.05)

    def check_refusal(self, response, title):
        """A failure a client can act on: JSON with a code, `Retry-After` on a 503, no database words."""
        try:
            body = response.json()
        except ValueError:
            body = None
        if response.status_code in (502, 504) and body is None:
            # nginx's own answer while its node is away: not applied by Bindery for all the client knows.
            self.unknown.append(title)
            return
        if not isinstance(body, dict) or "error" not in body or any(word in response.text.lower() for word in FORBIDDEN):
            self.bad_answers.append((response.status_code, response.text))
        if response.status_code == 503 and "retry-after" not in {name.lower() for name in response.headers}:
            self.bad_answers.append((response.status_code, "no Retry-After: " + response.text))
        if isinstance(body, dict) and body.get("applied") is False:
            self.refused_unapplied.append(title)
        else:
            self.unknown.append(title)


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def check_history(writers, stored):
    """Every acknowledged add once, in its writer's order; no refused one; unknown ones at most once."""
    counts = {}
    for title in stored:
        counts[title] = counts.get(title, 0) + 1
    for writer in writers:
        assert not writer.bad_answers, writer.bad_answers[:3]
        mine = [title for title in stored if title.startswith(f"w{writer.number}-")]
        missing = [title for title in writer.acknowledged if title not in counts]
        assert not missing, f"writer {writer.number}: {len(missing)} adds answered 2xx are not stored: {missing[:5]}"
        twice = [title for title in mine if counts[title] > 1]
        assert not twice, f"writer {writer.number}: stored more than once: {twice[:5]}"
        refused = [title for title in writer.refused_unapplied if title in counts]
        assert not refused, f"writer {writer.number}: answered applied=false, yet stored: {refused[:5]}"
        acknowledged = set(writer.acknowledged)
        assert [title for title in mine if title in acknowledged] == writer.acknowledged, f"writer {writer.number}: out of order"
        assert set(mine) <= acknowledged | set(writer.unknown), f"writer {writer.number}: stored what it never sent"


class Writers:
    """Four writers adding to `list_name` through nginx (`with`): on leaving, they get 100 more adds answered
    (the fault is over), stop, and the history is checked against the database, and every node against it."""

    def __init__(self, cluster, list_name):
        self.cluster, self.list_name = cluster, list_name
        self.stop = threading.Event()
        self.writers = [Writer(number, cluster.proxy, list_name, self.stop) for number in range(4)]

    def acknowledged(self):
        return sum(len(writer.acknowledged) for writer in self.writers)

    def __enter__(self):
        for writer in self.writers:
            writer.start()
        return self

    def __exit__(self, kind, *_):
        if kind is not None:
            self.stop.set()
            return False
        before = self.acknowledged()
        wait_until(lambda: self.acknowledged() >= before + 100, 60, "adds are answered 2xx again once the fault is over")
        self.stop.set()
        for writer in self.writers:
            writer.join(timeout=30)
        stored = self.cluster.psql(f"SELECT title FROM todo WHERE list = '{self.list_name}' ORDER BY position, id")
        check_history(self.writers, stored)
        # Every node shows what the database has, soon.
        for node in self.cluster.nodes:
            wait_until(lambda: titles_through(node.url, self.list_name) == stored, 30, f"node {node.number} caught up with the database")
        return False


def test_postgres_killed_and_restarted_loses_no_acknowledged_add_and_every_node_catches_up(cluster):
    with Writers(cluster, "pg-crash") as writers:
        wait_until(lambda: writers.acknowledged() >= 200, 60, "the writers got going")
        cluster.kill_postgres()
        # While the database is away, a node says it is not ready, in words of its own.
        for node in cluster.nodes:
            wait_until(lambda: requests.get(f"{node.url}/readyz", timeout=5).status_code == 503, 10, f"node {node.number} not ready")
            answer = requests.get(f"{node.url}/readyz", timeout=5)
            assert answer.json()["error"] == "not_ready" and not any(word in answer.text.lower() for word in FORBIDDEN), answer.text
        time.sleep(1)
        cluster.start_postgres()
        for node in cluster.nodes:
            wait_until(lambda: requests.get(f"{node.url}/readyz", timeout=5).status_code == 200, 20, f"node {node.number} ready again")
    # And goes on following it: an add through node 3 reaches a stream on node 1.
    first, third = cluster.nodes[0], cluster.nodes[2]
    watched = create_list(first.url, "pg-crash")
    with requests.get(f"{first.url}/api/todos/{watched}/events", headers={"Accept": "text/event-stream"},
                      stream=True, timeout=10) as stream:
        adder = create_list(third.url, "pg-crash")
        added = requests.post(f"{third.url}/api/todos/{adder}/inputs/add", json="across nodes", timeout=10)
        assert added.status_code == 200, added.text
        deadline = time.monotonic() + 10
        for line in stream.iter_lines():
            if b"across nodes" in line:
                break
            assert time.monotonic() < deadline, "node 1's stream never got node 3's add"


def test_every_connection_terminated_loses_no_acknowledged_add_and_every_node_catches_up(cluster):
    """`pg_terminate_backend` of every Bindery connection, three times while four writers add."""
    with Writers(cluster, "terminated") as writers:
        for round in range(3):
            wait_until(lambda: writers.acknowledged() >= 100 * (round + 1), 60, "the writers go on")
            assert cluster.terminate_connections(), "connections to end"


@pytest.mark.parametrize("transport", ["shared", "direct"])
def test_a_page_keeps_its_values_marked_stale_while_the_database_is_away(cluster, transport):
    from pages import add, make_browser, titles, wait, wait_open

    def stale(browser):
        return browser.execute_script("return 'binderyStale' in document.documentElement.dataset")

    browser = make_browser(without_shared_worker=transport == "direct", size="800,600")
    try:
        browser.get(f"{cluster.proxy}/todos.html?list=stale")
        wait_open(browser, timeout=20)
        add(browser, "kept")
        assert not stale(browser)
        cluster.kill_postgres()
        wait(browser, stale, timeout=15)
        assert titles(browser) == ["kept"], "the page keeps what it has"
        assert browser.execute_script("return document.querySelector('[data-bindery-notice]').dataset.kind") == "stale"
        cluster.start_postgres()
        wait(browser, lambda b: not stale(b), timeout=20)
        add(browser, "after")
        assert titles(browser) == ["kept", "after"]
    finally:
        browser.quit()
