"""A fault run in the manner of Jepsen: writers add todos to one shared list
through nginx and straight to the nodes of a three-node cluster, each add with
a key of its own (Idempotency-Key) and sent again with it until it is answered
2xx, while a scheduler kills and restarts nodes and PostgreSQL, ends every
database connection, pauses a node (SIGSTOP) and fills the database's disk.
Afterwards the history is checked against the database:

- every add answered 2xx is stored exactly once, and each writer's adds in
  the order it made them (an add given up on unanswered: at most once);
- every answer that was not 2xx is one a client can act on: no answer at all
  or a proxy's own (send again), or a JSON error with a code, `Retry-After` on
  a 503, and none of the database's words;
- every node's list equals the database's.

Run by Tests/cluster/test_fault_run.py for a bounded time, and by
`script/fault-run --seconds N` for longer; it prints what it did and saw.
Standard library only: it runs wherever python3 and the cluster do.
"""
import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "script", "cluster")
POSTGRES = os.path.join(ROOT, "script", "postgres")
FORBIDDEN = ("postgres", "libpq", "sqlstate", "sqlite", "127.0.0.1:", "connection to server")
LIST = "fault-run"


def log(*words):
    print(time.strftime("%H:%M:%S"), *words, flush=True)


def request(url, method, path, body=None, headers=None, timeout=10):
    """(status, headers, text) of one request, or raises OSError (no answer)."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode("utf-8", "replace")
    except (http.client.HTTPException, ValueError) as error:
        raise OSError(str(error)) from error
    finally:
        connection.close()


class Node:
    def __init__(self, number, port, pid):
        self.number, self.port, self.pid = number, port, pid
        self.url = f"http://127.0.0.1:{port}"
        self.command = None
        self.environment = None
        self.paused = False

    def capture(self):
        """What it was started with, to start it again the same way on the same port."""
        with open(f"/proc/{self.pid}/cmdline", "rb") as file:
            command = [word.decode() for word in file.read().split(b"\0") if word]
        with open(f"/proc/{self.pid}/environ", "rb") as file:
            environment = dict(entry.decode().split("=", 1) for entry in file.read().split(b"\0") if b"=" in entry)
        command[command.index("--port") + 1] = str(self.port)
        self.command, self.environment = command, environment

    def alive(self):
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{self.pid}/stat") as stat:
            return not stat.read().split(") ")[-1].startswith("Z")


class Cluster:
    """`script/cluster up N` in a directory of its own (PostgreSQL's files on a tmpfs as root, so that its disk can fill)."""

    def __init__(self, nodes, directory, disk_megabytes):
        self.directory = directory
        self.environment = dict(os.environ, BINDERY_CLUSTER_DIR=directory, BINDERY_SESSION_SAVE_INTERVAL="200")
        self.environment.setdefault("BINDERY_BINARY", os.path.join(ROOT, ".build/debug/bindery"))
        self.disk = None
        if os.geteuid() == 0 and disk_megabytes:
            disk = os.path.join(directory, "postgres")
            os.makedirs(disk, exist_ok=True)
            if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={disk_megabytes}m", "tmpfs", disk]).returncode == 0:
                self.disk = disk
        started = subprocess.run([CLUSTER, "up", str(nodes)], capture_output=True, text=True, env=self.environment, timeout=600)
        if started.returncode != 0:
            self.close()
            raise RuntimeError(started.stderr + started.stdout)
        output = started.stdout
        self.proxy = re.search(r"^proxy (http://127\.0\.0\.1:\d+)$", output, re.M).group(1)
        self.database = re.search(r"^database (.+)$", output, re.M).group(1)
        self.nodes = [Node(int(n), int(port), int(pid))
                      for n, port, pid in re.findall(r"^node (\d+) http://127\.0\.0\.1:(\d+) pid (\d+)$", output, re.M)]
        for node in self.nodes:
            node.capture()

    # --- faults and their remedies

    def kill_node(self, node):
        os.kill(node.pid, signal.SIGKILL)
        while node.alive():
            time.sleep(0.02)

    def start_node(self, node):
        with open(os.path.join(self.directory, f"node-{node.number}.log"), "a") as errors:
            process = subprocess.Popen(node.command, env=node.environment, stdout=subprocess.DEVNULL, stderr=errors,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        old, node.pid = node.pid, process.pid
        # `script/cluster down` stops what its state file names.
        state = os.path.join(self.directory, "state")
        with open(state) as file:
            text = file.read()
        with open(state, "w") as file:
            file.write(re.sub(rf"^node {node.number} (\d+) {old}$", rf"node {node.number} \g<1> {node.pid}", text, flags=re.M))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if request(node.url, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"node {node.number} did not come back")

    def pause_node(self, node):
        os.kill(node.pid, signal.SIGSTOP)
        node.paused = True

    def resume_node(self, node):
        os.kill(node.pid, signal.SIGCONT)
        node.paused = False

    def postgres_running(self):
        return subprocess.run([POSTGRES, "status", os.path.join(self.directory, "postgres")], capture_output=True).returncode == 0

    def kill_postgres(self):
        kill_postgres(self.directory)

    def start_postgres(self):
        start_postgres(self.directory)

    def terminate_connections(self):
        return self.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'bindery' AND pid <> pg_backend_pid()")

    def fill_disk(self):
        """Fills the tmpfs PostgreSQL's files are on; the filler's path."""
        filler = os.path.join(self.disk, "filler")
        with open(filler, "wb") as file:
            try:
                while True:
                    file.write(b"\xab" * (1 << 20))
                    file.flush()
            except OSError:
                pass
        return filler

    def psql(self, sql):
        result = subprocess.run(["psql", self.database, "-tAc", sql], capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(result.stderr)
        return [line for line in result.stdout.splitlines() if line]

    def close(self):
        subprocess.run([CLUSTER, "down"], capture_output=True, text=True, env=self.environment, timeout=300)
        if self.disk:
            subprocess.run(["umount", "-l", self.disk])
        subprocess.run(["rm", "-rf", self.directory])


def postgres_home(directory):
    """Where the PostgreSQL of the cluster in `directory` keeps its files (script/postgres may have put them in /tmp)."""
    home = os.path.join(directory, "postgres")
    moved = os.path.join(home, "postgres.path")
    if os.path.exists(moved):
        with open(moved) as file:
            home = file.read().strip()
    return home


def kill_postgres(directory):
    """`kill -9` of the cluster's PostgreSQL and every process it started: a crash, not a shutdown."""
    try:
        with open(os.path.join(postgres_home(directory), "data", "postmaster.pid")) as file:
            postmaster = int(file.readline())
    except (OSError, ValueError):
        return
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
    pids = [postmaster, *map(int, children)]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") for pid in pids):
        if time.monotonic() > deadline:
            raise RuntimeError("PostgreSQL did not die")
        time.sleep(0.02)


def start_postgres(directory):
    """Starts the cluster's PostgreSQL again on its port (after a crash: it recovers from its log)."""
    started = subprocess.run([POSTGRES, "start", os.path.join(directory, "postgres")], capture_output=True, text=True, timeout=120)
    if started.returncode != 0:
        raise RuntimeError("PostgreSQL did not start: " + started.stderr)


class Writer(threading.Thread):
    """Adds `w<k>-<i>` one after another, each with its key, sent again until answered 2xx (or given up after `patience`)."""

    def __init__(self, number, cluster, direct, stop, patience):
        super().__init__(daemon=True)
        self.number, self.cluster, self.direct, self.stop, self.patience = number, cluster, direct, stop, patience
        self.node = cluster.nodes[number % len(cluster.nodes)]
        self.acknowledged, self.given_up, self.bad, self.sessions = [], [], [], []
        # Why adds were given up: a session lost (made, then its node died before it was stored), or no 2xx in `patience`.
        self.reasons = {}
        self.answers = {}
        self.attempts = 0
        self.session = None

    @property
    def entry(self):
        return self.node.url if self.direct else self.cluster.proxy

    def note(self, kind):
        self.answers[kind] = self.answers.get(kind, 0) + 1

    def other_node(self):
        if self.direct:
            self.node = self.cluster.nodes[(self.cluster.nodes.index(self.node) + 1) % len(self.cluster.nodes)]

    def create_session(self):
        for attempt in range(600):
            try:
                status, _, text = request(self.entry, "POST", "/api/todos", {"list": LIST})
                if status == 201:
                    self.session = json.loads(text)["id"]
                    self.sessions.append(self.session)
                    return
            except OSError:
                pass
            self.other_node()
            time.sleep(0.1)
        raise RuntimeError(f"writer {self.number} could not create a session")

    def run(self):
        self.create_session()
        index = 0
        while not self.stop.is_set():
            title = f"w{self.number}-{index}"
            index += 1
            reason = self.add(title)
            if reason:
                self.given_up.append(title)
                self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def add(self, title):
        """Sends `title` with its key until a 2xx (None), or says why it gave up."""
        key = f"{title}-{self.session}"
        deadline = time.monotonic() + self.patience
        attempt = 0
        while True:
            self.attempts += 1
            try:
                status, headers, text = request(self.entry, "POST", f"/api/todos/{self.session}/inputs/add", title, {"Idempotency-Key": key})
            except OSError:
                self.note("no answer")
                status = None
            if status is not None and 200 <= status < 300:
                self.note("2xx" if "idempotent-replayed" not in headers else "2xx replayed")
                self.acknowledged.append(title)
                return None
            if status is not None:
                self.judge(status, headers, text)
                if status == 404 and '"unknown_session"' in text:
                    # Its session was lost (made, then its node died before it was stored): the add is given up, a new session made.
                    self.create_session()
                    return "session lost"
                if 400 <= status < 500 and status != 429:
                    return f"refused {status}"
            if status is None or status in (502, 503, 504):
                self.other_node()
            if time.monotonic() > deadline:
                return "no 2xx in time"
            retry_after = float(headers.get("retry-after", 0)) if status is not None else 0
            time.sleep(min(2.0, max(retry_after, 0.05 * 2 ** min(attempt, 5))) * random.uniform(0.5, 1.5))
            attempt += 1

    def judge(self, status, headers, text):
        """Notes a non-2xx answer; a bad one is one a client could not act on."""
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        code = body.get("error") if isinstance(body, dict) else None
        self.note(f"{status} {code or 'proxy'}")
        if code is None:
            if status not in (502, 503, 504):
                self.bad.append((status, text[:200]))
            return
        if any(word in text.lower() for word in FORBIDDEN):
            self.bad.append((status, text[:200]))
        if status == 503 and "retry-after" not in headers:
            self.bad.append((status, "no Retry-After: " + text[:200]))
        if 400 <= status < 500 and status not in (404, 429):
            self.bad.append((status, text[:200]))


FAULTS = ("kill a node", "pause a node", "kill PostgreSQL", "end every connection", "fill the disk")


def nemesis(cluster, stop, faults, rng):
    """Injects a fault every few seconds, each healed before the next."""
    kinds = [kind for kind in FAULTS if kind != "fill the disk" or cluster.disk]
    while not stop.wait(rng.uniform(2, 4)):
        kind = rng.choice(kinds)
        node = rng.choice(cluster.nodes)
        started = time.monotonic()
        if kind == "kill a node":
            cluster.kill_node(node)
            time.sleep(rng.uniform(1, 3))
            cluster.start_node(node)
            what = f"node {node.number}"
        elif kind == "pause a node":
            cluster.pause_node(node)
            time.sleep(rng.uniform(2, 5))
            cluster.resume_node(node)
            what = f"node {node.number}"
        elif kind == "kill PostgreSQL":
            cluster.kill_postgres()
            time.sleep(rng.uniform(0.5, 2))
            cluster.start_postgres()
            what = ""
        elif kind == "end every connection":
            what = f"{len(cluster.terminate_connections())} connections"
        else:
            filler = cluster.fill_disk()
            time.sleep(rng.uniform(1, 3))
            os.remove(filler)
            if not cluster.postgres_running():
                cluster.start_postgres()
                what = "(PostgreSQL stopped, started again)"
            else:
                what = ""
        faults.append((kind, round(time.monotonic() - started, 1)))
        log("fault:", kind, what)


def heal(cluster):
    for node in cluster.nodes:
        if node.paused:
            cluster.resume_node(node)
        if not node.alive():
            cluster.start_node(node)
    if cluster.disk and os.path.exists(os.path.join(cluster.disk, "filler")):
        os.remove(os.path.join(cluster.disk, "filler"))
    if not cluster.postgres_running():
        cluster.start_postgres()


def check(cluster, writers):
    """What the history and the database say; a list of problems (empty: the run passed)."""
    problems = []
    stored = cluster.psql(f"SELECT title FROM todo WHERE list = '{LIST}' ORDER BY position, id")
    counts = {}
    for title in stored:
        counts[title] = counts.get(title, 0) + 1
    for writer in writers:
        mine = [title for title in stored if re.fullmatch(rf"w{writer.number}-\d+", title)]
        missing = [title for title in writer.acknowledged if title not in counts]
        twice = sorted({title for title in mine if counts[title] > 1})
        acknowledged = set(writer.acknowledged)
        order = [title for title in mine if title in acknowledged]
        stray = [title for title in mine if title not in acknowledged and title not in writer.given_up]
        if missing:
            problems.append(f"writer {writer.number}: {len(missing)} adds answered 2xx are not stored: {missing[:5]}")
        if twice:
            problems.append(f"writer {writer.number}: stored more than once: {twice[:5]}")
        if order != writer.acknowledged:
            problems.append(f"writer {writer.number}: its adds are not in its order")
        if stray:
            problems.append(f"writer {writer.number}: stored what it never sent: {stray[:5]}")
        if writer.bad:
            problems.append(f"writer {writer.number}: {len(writer.bad)} answers a client cannot act on: {writer.bad[:3]}")
    for node in cluster.nodes:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, text = request(node.url, "POST", "/api/todos", {"list": LIST})
                shown = [item["title"] for item in json.loads(text)["outputs"].get("items", [])] if status == 201 else None
            except (OSError, ValueError, KeyError):
                shown = None
            if shown == stored:
                break
            if time.monotonic() > deadline:
                problems.append(f"node {node.number} shows {len(shown or [])} items, the database {len(stored)}")
                break
            time.sleep(0.5)
    return problems, stored


def run(seconds, writers_count, seed, disk_megabytes):
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="bindery-fault-run-")
    os.chmod(directory, 0o755)
    log(f"fault run: {seconds} s, {writers_count} writers, seed {seed}, cluster in {directory}")
    cluster = Cluster(3, directory, disk_megabytes)
    try:
        if not cluster.disk:
            log("no tmpfs for PostgreSQL (not root): the disk is not filled")
        stop_writers, stop_faults = threading.Event(), threading.Event()
        writers = [Writer(number, cluster, direct=number % 2 == 1, stop=stop_writers, patience=60) for number in range(writers_count)]
        for writer in writers:
            writer.start()
        faults = []
        scheduler = threading.Thread(target=nemesis, args=(cluster, stop_faults, faults, rng), daemon=True)
        started = time.monotonic()
        scheduler.start()
        time.sleep(seconds)
        stop_faults.set()
        scheduler.join(timeout=60)
        heal(cluster)
        # Writers finish the add in hand (everything is back), then stop.
        stop_writers.set()
        for writer in writers:
            writer.join(timeout=120)
        elapsed = time.monotonic() - started
        problems, stored = check(cluster, writers)
        answers = {}
        for writer in writers:
            for kind, count in writer.answers.items():
                answers[kind] = answers.get(kind, 0) + count
        report = {
            "seconds": round(elapsed, 1),
            "writers": writers_count,
            "faults": len(faults),
            "faults by kind": {kind: sum(1 for k, _ in faults if k == kind) for kind in FAULTS},
            "adds acknowledged": sum(len(w.acknowledged) for w in writers),
            "adds given up": sum(len(w.given_up) for w in writers),
            "why given up": {reason: sum(w.reasons.get(reason, 0) for w in writers) for reason in {r for w in writers for r in w.reasons}},
            "requests": sum(w.attempts for w in writers),
            "answers": dict(sorted(answers.items(), key=lambda item: -item[1])),
            "stored": len(stored),
            "problems": problems,
        }
        print(json.dumps(report, indent=2), flush=True)
        return report
    finally:
        cluster.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=120, help="how long faults are injected (default 120)")
    parser.add_argument("--writers", type=int, default=6, help="writers, half through nginx, half to nodes (default 6)")
    parser.add_argument("--seed", type=int, default=int(time.time()), help="the scheduler's seed (default: the time)")
    parser.add_argument("--disk", type=int, default=512, help="MiB of the tmpfs PostgreSQL runs on, as root (default 512; 0: none)")
    arguments = parser.parse_args()
    report = run(arguments.seconds, arguments.writers, arguments.seed, arguments.disk)
    sys.exit(1 if report["problems"] else 0)


if __name__ == "__main__":
    main()
