"""Fixtures: a real cluster, as `script/cluster up 3` starts it (three `bindery
serve` nodes on one shared database, PostgreSQL, nginx in front), in a private
directory of its own, stopped with `script/cluster down`; and headless Chromium."""
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The browser suite's page helpers (Tests/browser/pages.py).
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
from pages import make_browser, page_state, wait, wait_open  # noqa: E402,F401 (the suite's files import them from here)
import fault_run  # noqa: E402 (beside this file)

SCRIPT = os.path.join(ROOT, "script", "cluster")
LOG_TIME = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z ")


class Node:
    def __init__(self, number, url, pid, log):
        self.number, self.url, self.pid, self.log = number, url, pid, log
        self.killed = False

    def lines(self):
        with open(self.log, encoding="utf-8", errors="replace") as file:
            return file.read().splitlines()

    def sessions(self, view_model="simple"):
        """Its `bindery_sessions` gauge for `view_model`: the sessions it holds live."""
        text = requests.get(f"{self.url}/metrics", timeout=5).text
        match = re.search(r'^bindery_sessions\{view_model="%s"\} (\d+)' % re.escape(view_model), text, re.M)
        return int(match.group(1)) if match else 0

    def made(self, session):
        """Whether its log says it created or rebuilt `session`."""
        return any(f"session={session}" in line and ("session created" in line or "rebuilt" in line) for line in self.lines())

    def served(self, session):
        """Whether its log has a request or stream about `session`."""
        return any(session in line for line in self.lines())

    def kill(self):
        """`kill -9`: nothing is saved on the way out, its streams end mid-way."""
        os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{self.pid}") and time.monotonic() < deadline:
            with open(f"/proc/{self.pid}/stat") as stat:
                if stat.read().split(") ")[-1].startswith("Z"):
                    break  # a zombie of whoever its parent is now: dead
            time.sleep(0.02)
        self.killed = True


class Cluster:
    def __init__(self, directory, output):
        self.directory = directory
        self.proxy = re.search(r"^proxy (http://127\.0\.0\.1:\d+)$", output, re.M).group(1)
        self.database = re.search(r"^database (.+)$", output, re.M).group(1)
        self.nodes = [
            Node(int(number), url, int(pid), os.path.join(directory, f"node-{number}.log"))
            for number, url, pid in re.findall(r"^node (\d+) (http://127\.0\.0\.1:\d+) pid (\d+)$", output, re.M)
        ]

    def live_nodes(self):
        return [node for node in self.nodes if not node.killed]

    def node_that_made(self, session):
        made = [node for node in self.nodes if node.made(session)]
        assert len(made) == 1, f"session {session} was made by nodes {[n.number for n in made]}"
        return made[0]

    def stored_state(self, session):
        """The declared state the cluster's store holds for `session`."""
        if self.database.startswith("postgres"):
            result = subprocess.run(
                ["psql", self.database, "-tAc", f"SELECT encode(state, 'escape') FROM bindery_session WHERE id = '{session}'"],
                capture_output=True, text=True, timeout=10)
            return result.stdout.strip()
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5) as database:
            row = database.execute("SELECT state FROM bindery_session WHERE id = ?", (session,)).fetchone()
        return row[0].decode() if row and row[0] else ""

    def wait_stored(self, session, text, timeout=10):
        """Waits until the store holds `session` with `text` in its state: what kill -9 cannot take away."""
        deadline = time.monotonic() + timeout
        while text not in self.stored_state(session):
            assert time.monotonic() < deadline, f"session {session} was not stored with {text}"
            time.sleep(0.05)

    def kill_postgres(self):
        """`kill -9` of PostgreSQL's server and every process it started: a crash, not a shutdown."""
        fault_run.kill_postgres(self.directory)

    def start_postgres(self):
        """Starts this cluster's PostgreSQL again on its port (after a crash: it recovers from its log)."""
        fault_run.start_postgres(self.directory)

    def terminate_connections(self):
        """Ends every connection to the cluster's database (`pg_terminate_backend`); one row per connection ended."""
        return self.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'bindery' AND pid <> pg_backend_pid()")

    def psql(self, sql):
        """What `sql` answers in the cluster's database, as lines."""
        result = subprocess.run(["psql", self.database, "-tAc", sql], capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        return [line for line in result.stdout.splitlines() if line]

    def access_log(self):
        with open(os.path.join(self.directory, "nginx", "access.log"), encoding="utf-8") as file:
            return file.read().splitlines()


def log_time(line):
    """The time of a node's log line, in seconds since the epoch, or None."""
    match = LOG_TIME.match(line)
    if not match:
        return None
    return datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=timezone.utc).timestamp()


def cluster_command(directory, *arguments):
    environment = dict(os.environ)
    environment["BINDERY_CLUSTER_DIR"] = directory
    environment.setdefault("BINDERY_BINARY", os.path.join(ROOT, ".build/debug/bindery"))
    # A session that changed is saved within 100 ms: a test waits that long, not a second, before kill -9.
    environment["BINDERY_SESSION_SAVE_INTERVAL"] = "100"
    return subprocess.run([SCRIPT, *arguments], capture_output=True, text=True, env=environment, timeout=300)


@pytest.fixture
def cluster():
    """A cluster for each test: the tests kill its nodes."""
    directory = tempfile.mkdtemp(prefix="bindery-cluster-")
    # PostgreSQL runs as another user when this is root: it must reach the directory.
    os.chmod(directory, 0o755)
    started = cluster_command(directory, "up", "3")
    try:
        assert started.returncode == 0, started.stderr + started.stdout
        yield Cluster(directory, started.stdout)
    finally:
        stopped = cluster_command(directory, "down")
        assert stopped.returncode == 0, stopped.stderr
        subprocess.run(["rm", "-rf", directory], check=False)


@pytest.fixture(params=["shared", "direct"])
def each_transport(request):
    """A browser per transport: the SharedWorker's shared stream, and the fallback (an EventSource per page)."""
    driver = make_browser(without_shared_worker=request.param == "direct", size="800,600")
    driver.transport = request.param
    yield driver
    driver.quit()


@pytest.fixture
def browser():
    driver = make_browser(size="800,600")
    yield driver
    driver.quit()


