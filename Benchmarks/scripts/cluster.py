#!/usr/bin/env python3
"""Three nodes behind nginx against one node reached directly, in one run (issue 25).

Usage: Benchmarks/scripts/cluster.py [--binary BINDERY] [--streams N] [--notes M] [--rate R/s]
           [--input-seconds S] [--rounds R] [--readers K] [--per-node] [--keep-logs DIR]

Each setup is a cluster of its own (script/cluster up, in a temporary directory,
PostgreSQL included, stopped with script/cluster down):
  one node   `up 1`, every request to the node's own port (nginx idles);
  3 nodes    `up 3`, every request through nginx, each stream with a
             `bindery_browser` cookie of its own, so nginx spreads them.
The same load on each (with --per-node, the one node a third of the streams,
as each of the three carries): N streams of the one shared `board`; M notes posted
at R a second (each timestamped just before it is sent); every stream
records when each note's `posted` event arrives. Then the streams close and
8 keep-alive clients post notes for S seconds. Printed per setup: publish →
receive latency over every (stream, note), notes missing, each server
process's CPU (user + system, /proc) per delivered note, the client's CPU,
and inputs/s with the POST's latency; then the ratios 3 nodes ÷ one node
against the issue's targets. The setups alternate, round after round.

Everything runs on 127.0.0.1, every wait is bounded, and every process
started is stopped. The client, the nodes, nginx and PostgreSQL share this
machine's cores: read the ratios within one run, not the absolute figures.
"""
import argparse
import array
import asyncio
import base64
import http.client
import json
import multiprocessing
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "script", "cluster")
CLK_TCK = os.sysconf("SC_CLK_TCK")
WARM_NOTES = 3
INPUT_CLIENTS = 8
PUBLISH_CONNECTIONS = 4


# --- Processes and their CPU ----------------------------------------------------------------------

def stat_fields(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid, reaped=False):
    """User + system CPU of `pid`, with its children that exited and were waited for if `reaped`."""
    try:
        fields = stat_fields(pid)
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLK_TCK


def children(parent):
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if int(stat_fields(name)[1]) == parent:
                    found.append(int(name))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                pass
    return found


def family_cpu(master):
    """A master (nginx's, PostgreSQL's postmaster) and its workers: the live ones, and those gone."""
    return cpu_seconds(master, reaped=True) + sum(cpu_seconds(child) for child in children(master))


def raise_open_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --- The cluster ----------------------------------------------------------------------------------

class Cluster:
    """`script/cluster up COUNT` in a directory of its own; every limit raised above `streams`."""

    def __init__(self, binary, count, streams, keep=None):
        self.keep = keep
        self.directory = tempfile.mkdtemp(prefix="bench-cluster-")
        # PostgreSQL runs as its own user when we are root: let it into the directory.
        os.chmod(self.directory, 0o755)
        self.environment = dict(os.environ)
        room = str(streams + 1000)
        self.environment.update({
            "BINDERY_BINARY": binary, "BINDERY_CLUSTER_DIR": self.directory,
            "BINDERY_CLUSTER_NGINX_CONNECTIONS": str(2 * streams + 1024),
            "BINDERY_MAX_STREAMS": room, "BINDERY_MAX_STREAMS_PER_SESSION": room,
            "BINDERY_MAX_CONNECTIONS": room, "BINDERY_MAX_CONNECTIONS_PER_CLIENT": room,
            # Request lines off, as in the other benchmarks (both setups log the same), unless asked for.
            "BINDERY_LOG_LEVEL": os.environ.get("BINDERY_LOG_LEVEL", "notice"),
        })
        self.up = False
        try:
            self.start(count)
        except BaseException:
            self.stop()
            raise

    def start(self, count):
        # Marked up at once: even an `up` that failed midway is followed by `down`.
        self.up = True
        result = self.run("up", str(count))
        if result.returncode != 0:
            raise RuntimeError(f"script/cluster up {count} failed:\n{result.stderr[-2000:]}")
        self.proxy_port = int(re.search(r"^proxy http://127\.0\.0\.1:(\d+)$", result.stdout, re.M).group(1))
        self.nodes = [(int(k), int(port), int(pid)) for k, port, pid in
                      re.findall(r"^node (\d+) http://127\.0\.0\.1:(\d+) pid (\d+)$", result.stdout, re.M)]
        if len(self.nodes) != count:
            raise RuntimeError(f"script/cluster up {count} named {len(self.nodes)} nodes:\n{result.stdout}")
        self.nginx_pid = self.postgres_pid = None
        with open(os.path.join(self.directory, "state")) as state:
            for line in state:
                words = line.split()
                if words[0] == "nginx":
                    self.nginx_pid = int(words[1])
                elif words[0] == "postgres":
                    home = words[1]
                    path_file = os.path.join(home, "postgres.path")
                    if os.path.exists(path_file):
                        home = open(path_file).read().strip()
                    self.postgres_home = home
                    with open(os.path.join(home, "data", "postmaster.pid")) as pid_file:
                        self.postgres_pid = int(pid_file.readline())

    def run(self, *arguments):
        return subprocess.run([CLUSTER, *arguments], capture_output=True, text=True, env=self.environment, timeout=300)

    def cpu(self):
        """CPU seconds so far of the nodes, nginx and PostgreSQL."""
        return {"nodes": sum(cpu_seconds(pid) for _, _, pid in self.nodes),
                "nginx": family_cpu(self.nginx_pid), "postgres": family_cpu(self.postgres_pid)}

    def metric(self, port, name):
        text = http_get(port, "/metrics")
        match = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
        return float(match.group(1)) if match else None

    def node_metric(self, name):
        return [self.metric(port, name) for _, port, _ in self.nodes]

    def stop(self):
        if self.up:
            result = self.run("down")
            if result.returncode != 0:
                print(f"script/cluster down failed: {result.stderr[-1000:]}", file=sys.stderr)
            self.up = False
        if self.keep:
            os.makedirs(self.keep, exist_ok=True)
            for name in sorted(os.listdir(self.directory)) + ["nginx/access.log", "nginx/error.log"]:
                if name.endswith(".log") or name.endswith(".out"):
                    source = os.path.join(self.directory, name)
                    if os.path.isfile(source):
                        shutil.copy(source, os.path.join(self.keep, name.replace("/", "-")))
        postgres_home = getattr(self, "postgres_home", None)
        if postgres_home and not postgres_home.startswith(self.directory):
            shutil.rmtree(postgres_home, ignore_errors=True)
        shutil.rmtree(self.directory, ignore_errors=True)


def http_get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().read().decode()
    finally:
        connection.close()


def browser_cookie():
    """A `bindery_browser` token of the form a node makes: 128 random bits, 22 base64url characters."""
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()


# --- The streams: reader processes ----------------------------------------------------------------

class Stream(asyncio.Protocol):
    """One event stream, parsed just enough: the status, chunked framing, blocks split on blank lines."""

    def __init__(self, reader, index, request):
        self.reader, self.index, self.request = reader, index, request
        self.transport = None
        self.head = b""
        self.status = None
        self.chunked = False
        self.raw = b""
        self.left = 0
        self.skip = 0
        self.text = b""
        self.ready = False
        self.warm = 0
        self.pairs = 0
        self.closing = False

    def connection_made(self, transport):
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data):
        now = time.monotonic()
        self.reader.reads += 1
        if self.status is None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            head, data = self.head[:end], self.head[end + 4:]
            self.head = b""
            self.status = int(head.split(b" ", 2)[1])
            if self.status != 200:
                self.reader.failed(self, f"HTTP {self.status}: {data[:200]!r}")
                return
            self.chunked = b"transfer-encoding: chunked" in head.lower()
        if self.chunked:
            data = self.unchunk(data)
        text = self.text + data
        if b"\n\n" not in text:
            self.text = text
            return
        blocks = text.split(b"\n\n")
        self.text = blocks.pop()
        for block in blocks:
            if block.startswith(b":") or block.startswith(b"retry:"):
                continue
            name = data_line = None
            for line in block.split(b"\n"):
                if line.startswith(b"event: "):
                    name = line[7:]
                elif line.startswith(b"data: "):
                    data_line = line[6:]
            self.reader.events += 1
            if name == b"posted":
                if data_line.startswith(b'"bench '):
                    self.reader.arrived(self, int(data_line[7:-1]), now)
                elif data_line.startswith(b'"warm '):
                    self.warm += 1
            elif name is not None and name.startswith(b"bindery."):
                self.reader.control(self, name.decode(), now)
            if not self.ready:
                self.ready = True
                self.reader.opened(self)

    def unchunk(self, data):
        raw, position, out = self.raw + data, 0, []
        while position < len(raw):
            if self.left:
                take = min(self.left, len(raw) - position)
                out.append(raw[position:position + take])
                position += take
                self.left -= take
                if not self.left:
                    self.skip = 2
            elif self.skip:
                take = min(self.skip, len(raw) - position)
                position += take
                self.skip -= take
            else:
                end = raw.find(b"\r\n", position)
                if end < 0:
                    break
                size = int(raw[position:end].split(b";", 1)[0], 16)
                position = end + 2
                if size == 0:
                    break
                self.left = size
        self.raw = raw[position:]
        return b"".join(out)

    def connection_lost(self, exc):
        if not self.closing:
            self.reader.ended(self, repr(exc) if exc else "end of stream", time.monotonic())


class Reader:
    """A process's share of the streams; answers the driver's commands on a pipe."""

    def __init__(self, pipe, port, targets, path, lifetime):
        self.pipe, self.port, self.targets, self.path = pipe, port, targets, path
        self.deadline = time.monotonic() + lifetime
        self.streams = []
        self.events = 0
        self.reads = 0
        self.ready = 0
        self.failures = []
        self.ends = []
        self.controls = []
        self.seqs, self.times, self.owners = array.array("i"), array.array("d"), array.array("i")
        self.done = None

    def opened(self, stream):
        self.ready += 1
        self.settled()

    def failed(self, stream, reason):
        self.failures.append((stream.index, reason))
        stream.closing = True
        stream.transport.close()
        self.settled()

    def settled(self):
        if self.ready + len(self.failures) == len(self.targets) and not self.opening.done():
            self.opening.set_result(None)

    def arrived(self, stream, seq, now):
        self.seqs.append(seq)
        self.times.append(now)
        self.owners.append(stream.index)
        stream.pairs += 1

    def control(self, stream, name, now):
        self.controls.append((stream.index, name, now))

    def ended(self, stream, reason, now):
        self.ends.append((stream.index, reason, now, stream.pairs))
        if not stream.ready:
            self.failures.append((stream.index, f"ended before its first event: {reason}"))
            self.settled()

    async def open_one(self, index, cookie, gate):
        async with gate:
            request = (f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                       f"Accept: text/event-stream\r\nCookie: bindery_browser={cookie}\r\n\r\n").encode()
            stream = Stream(self, index, request)
            self.streams.append(stream)
            try:
                await asyncio.wait_for(asyncio.get_running_loop().create_connection(
                    lambda: stream, "127.0.0.1", self.port), 30)
            except (OSError, asyncio.TimeoutError) as error:
                self.failures.append((index, f"connect: {error!r}"))
                self.settled()
                return
            # Held until its first event (30 s at most): at most 64 streams opening at once per reader.
            for _ in range(300):
                if stream.ready or stream.status not in (None, 200) or stream.closing or stream.transport.is_closing():
                    break
                await asyncio.sleep(0.1)

    def command(self):
        if self.done.done():
            return
        try:
            if not self.pipe.poll():
                return
            message = self.pipe.recv()
        except (EOFError, OSError):
            self.done.set_result(None)
            return
        if message == "count":
            self.pipe.send((sum(1 for s in self.streams if s.warm >= WARM_NOTES), len(self.seqs),
                            len(self.ends), self.events, self.reads))
        elif message == "finish":
            for stream in self.streams:
                stream.closing = True
                if stream.transport is not None:
                    stream.transport.close()
            self.pipe.send((self.seqs.tobytes(), self.times.tobytes(), self.owners.tobytes(),
                            self.events, self.failures, self.ends, self.controls))
            self.done.set_result(None)

    async def run(self):
        loop = asyncio.get_running_loop()
        self.opening, self.done = loop.create_future(), loop.create_future()
        if not self.targets:
            self.opening.set_result(None)
        gate = asyncio.Semaphore(64)
        openers = [asyncio.create_task(self.open_one(index, cookie, gate)) for index, cookie in self.targets]
        try:
            await asyncio.wait_for(asyncio.shield(self.opening), 120)
        except asyncio.TimeoutError:
            pass
        self.pipe.send(("opened", self.ready, list(self.failures)))
        loop.add_reader(self.pipe.fileno(), self.command)
        try:
            await asyncio.wait_for(self.done, max(1, self.deadline - time.monotonic()))
        except asyncio.TimeoutError:
            pass
        for opener in openers:
            opener.cancel()


def reader_main(pipe, port, targets, path, lifetime):
    asyncio.run(Reader(pipe, port, targets, path, lifetime).run())


# --- Requests ------------------------------------------------------------------------------------

class Client:
    """One keep-alive HTTP/1.1 connection posting JSON."""

    def __init__(self, port, cookie):
        self.port, self.cookie = port, cookie
        self.reader = self.writer = None

    async def connect(self):
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), 10)

    def request_bytes(self, method, path, body):
        payload = json.dumps(body).encode() if body is not None else b""
        return (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
                f"Cookie: bindery_browser={self.cookie}\r\n\r\n").encode() + payload

    async def send(self, request):
        """Sends prepared bytes; answers (status, body)."""
        if self.writer is None:
            await self.connect()
        self.writer.write(request)
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 30)
        status = int(head.split(b" ", 2)[1])
        lower = head.lower()
        match = re.search(rb"content-length: *(\d+)", lower)
        if match:
            body = await asyncio.wait_for(self.reader.readexactly(int(match.group(1))), 30)
        elif b"transfer-encoding: chunked" in lower:
            parts = []
            while True:
                size = int((await asyncio.wait_for(self.reader.readline(), 30)).split(b";")[0], 16)
                chunk = await asyncio.wait_for(self.reader.readexactly(size + 2), 30)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            body = b"".join(parts)
        else:
            body = b""
        if b"connection: close" in lower:
            self.close()
        return status, body

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = None


# --- One setup ---------------------------------------------------------------------------------

def percentile(ordered, fraction):
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def create_board(port):
    client = Client(port, browser_cookie())
    try:
        status, body = await client.send(client.request_bytes("POST", "/api/board", None))
        if status not in (200, 201):
            raise RuntimeError(f"POST /api/board answered {status}: {body[:200]!r}")
        return json.loads(body)["id"]
    finally:
        client.close()


async def publish(port, board, texts, rate, published, statuses):
    """Posts `texts` at `rate` a second over a few keep-alive connections; records each send's time."""
    pool = asyncio.Queue()
    clients = [Client(port, browser_cookie()) for _ in range(PUBLISH_CONNECTIONS)]
    for client in clients:
        await client.connect()
        pool.put_nowait(client)
    path = f"/api/board/{board}/inputs/post"

    async def one(index, text, at):
        await asyncio.sleep(max(0, at - time.monotonic()))
        client = await pool.get()
        request = client.request_bytes("POST", path, text)
        try:
            published[index] = time.monotonic()
            status, _ = await client.send(request)
            statuses.append((status, time.monotonic() - published[index]))
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
            statuses.append((repr(error), time.monotonic() - published[index]))
            client.close()
        pool.put_nowait(client)

    start = time.monotonic() + 0.05
    await asyncio.gather(*(one(index, text, start + index / rate) for index, text in enumerate(texts)))
    for client in clients:
        client.close()


async def post_inputs(port, board, seconds):
    """8 keep-alive clients post notes for `seconds`: answers (answered, failures, latencies, elapsed)."""
    path = f"/api/board/{board}/inputs/post"
    latencies, failures = [], []
    deadline = time.monotonic() + seconds

    async def client_loop(number):
        client = Client(port, browser_cookie())
        sent = 0
        try:
            while time.monotonic() < deadline:
                request = client.request_bytes("POST", path, f"input {number} {sent}")
                started = time.monotonic()
                try:
                    status, _ = await client.send(request)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                    failures.append(repr(error))
                    client.close()
                    if len(failures) > 100:
                        return
                    continue
                if status == 200:
                    latencies.append(time.monotonic() - started)
                else:
                    failures.append(f"HTTP {status} after {time.monotonic() - started:.1f} s")
                sent += 1
        finally:
            client.close()

    started = time.monotonic()
    await asyncio.gather(*(client_loop(number) for number in range(INPUT_CLIENTS)))
    return latencies, failures, time.monotonic() - started


def ask(pipes, message, timeout=30):
    for pipe in pipes:
        pipe.send(message)
    answers = []
    for pipe in pipes:
        if not pipe.poll(timeout):
            raise RuntimeError(f"a reader did not answer '{message}' within {timeout} s")
        answers.append(pipe.recv())
    return answers


def wait_until(pipes, condition, seconds):
    """Polls the readers' counts every 0.1 s until `condition(totals)` or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while True:
        counts = [sum(column) for column in zip(*ask(pipes, "count"))]
        if condition(counts) or time.monotonic() >= deadline:
            return counts
        time.sleep(0.1)


def measure(name, binary, nodes, through_proxy, arguments):
    """One setup, from `up` to `down`: a dictionary of what was measured."""
    result = {"name": name}
    keep = None
    if arguments.keep_logs:
        keep = os.path.join(arguments.keep_logs, f"{arguments.round}-{nodes}-node{'s' if nodes > 1 else ''}")
    # --per-node: the one node carries what each of the three does (the "same load per node").
    streams = arguments.streams // 3 if arguments.per_node and nodes == 1 else arguments.streams
    result["streams"] = streams
    cluster = Cluster(binary, nodes, streams, keep)
    readers, pipes = [], []
    try:
        port = cluster.proxy_port if through_proxy else cluster.nodes[0][1]
        board = asyncio.run(create_board(port))
        path = f"/api/board/{board}/events"
        targets = [(index, browser_cookie()) for index in range(streams)]
        context = multiprocessing.get_context("fork")
        # Readers stop by themselves after this, whatever happens here.
        lifetime = 600 + arguments.notes / arguments.rate + arguments.input_seconds
        for number in range(arguments.readers):
            ours, theirs = context.Pipe()
            process = context.Process(target=reader_main, daemon=True,
                                      args=(theirs, port, targets[number::arguments.readers], path, lifetime))
            process.start()
            readers.append(process)
            pipes.append(ours)
        opened, failures = 0, []
        for pipe in pipes:
            if not pipe.poll(150):
                raise RuntimeError("a reader did not open its streams within 150 s")
            _, ready, failed = pipe.recv()
            opened += ready
            failures += failed
        result["opened"], result["open_failures"] = opened, failures
        result["per_node"] = [int(value or 0) for value in cluster.node_metric("bindery_streams_open")]

        # Warm-up: every stream has had a note through every node's replica before the clock starts.
        asyncio.run(publish(port, board, [f"warm {k}" for k in range(WARM_NOTES)], arguments.rate, {}, []))
        warm = wait_until(pipes, lambda counts: counts[0] >= opened, 30)

        delivered_before = sum(value or 0 for value in cluster.node_metric("bindery_events_delivered_total"))
        cpu_before, client_before = cluster.cpu(), [cpu_seconds(process.pid) for process in readers]
        own_before, started = time.process_time(), time.monotonic()
        published, statuses = {}, []
        asyncio.run(publish(port, board, [f"bench {seq}" for seq in range(arguments.notes)], arguments.rate,
                            published, statuses))
        expected = opened * arguments.notes
        counts = wait_until(pipes, lambda counts: counts[1] >= expected, 15)
        elapsed = time.monotonic() - started
        cpu_after, client_after = cluster.cpu(), [cpu_seconds(process.pid) for process in readers]
        own = time.process_time() - own_before
        delivered_after = sum(value or 0 for value in cluster.node_metric("bindery_events_delivered_total"))
        result["per_node_after"] = [int(value or 0) for value in cluster.node_metric("bindery_streams_open")]

        answers = ask(pipes, "finish", 60)
        latencies, seen, events = [], set(), 0
        duplicates = 0
        ends, controls = [], []
        for seqs, times, owners, reader_events, reader_failures, reader_ends, reader_controls in answers:
            seqs, times, owners = (array.array(code, raw) for code, raw in (("i", seqs), ("d", times), ("i", owners)))
            for seq, at, owner in zip(seqs, times, owners):
                if (owner, seq) in seen:
                    duplicates += 1
                    continue
                seen.add((owner, seq))
                if seq in published:
                    latencies.append(at - published[seq])
            events += reader_events
            ends += reader_ends
            controls += reader_controls
            for failure in reader_failures:
                if failure not in result["open_failures"]:
                    result["open_failures"].append(failure)
        latencies.sort()
        result.update({
            "expected": expected, "delivered": len(latencies), "duplicates": duplicates,
            "missing": expected - len(latencies), "events": events, "ends": ends, "controls": controls,
            "server_events": delivered_after - delivered_before,
            "publish_failures": [status for status, _ in statuses if status != 200],
            "publish_p50": percentile(sorted(latency for _, latency in statuses), 0.5),
            "p50": percentile(latencies, 0.5), "p90": percentile(latencies, 0.9),
            "p99": percentile(latencies, 0.99), "max": latencies[-1] if latencies else float("nan"),
            "window": elapsed, "cpu": {key: cpu_after[key] - cpu_before[key] for key in cpu_before},
            "readers_cpu": [after - before for before, after in zip(client_before, client_after)],
            "driver_cpu": own, "window_events": counts[3] - warm[3], "window_reads": counts[4] - warm[4],
            "publish_max": max(latency for _, latency in statuses),
        })
        for process in readers:
            process.join(10)

        # Inputs: the streams are closed, so this is the entry point's and the shared session's rate alone.
        time.sleep(0.5)
        cpu_before = cluster.cpu()
        latencies, failures, elapsed = asyncio.run(post_inputs(port, board, arguments.input_seconds))
        cpu_after = cluster.cpu()
        latencies.sort()
        result.update({
            "inputs": len(latencies), "inputs_per_second": len(latencies) / elapsed,
            "input_p50": percentile(latencies, 0.5), "input_p99": percentile(latencies, 0.99),
            "input_max": latencies[-1] if latencies else float("nan"),
            "input_failures": failures,
            "input_cpu": {key: cpu_after[key] - cpu_before[key] for key in cpu_before},
        })
        return result
    finally:
        for process in readers:
            if process.is_alive():
                process.kill()
                process.join(5)
        cluster.stop()


# --- Report ------------------------------------------------------------------------------------

def report(result, arguments):
    ms = lambda seconds: f"{seconds * 1000:.1f}"
    cpu = result["cpu"]
    servers = sum(cpu.values())
    delivered = max(result["delivered"], 1)
    per = lambda seconds: seconds / delivered * 1e6
    print(f"  streams: {result['opened']} of {result['streams']} open; per node "
          f"{', '.join(map(str, result['per_node']))} (after the notes: {', '.join(map(str, result['per_node_after']))})")
    for index, reason in result["open_failures"][:5]:
        print(f"    stream {index} did not open: {reason}")
    print(f"  notes: {result['delivered']} of {result['expected']} (stream, note) pairs delivered, "
          f"{result['missing']} missing, {result['duplicates']} duplicates; {result['events']} events read, "
          f"nodes wrote {result['server_events']:.0f}, which came in {result['window_reads']} reads; "
          f"publish POST p50 {ms(result['publish_p50'])}, max {ms(result['publish_max'])} ms"
          + (f", {len(result['publish_failures'])} failed: {result['publish_failures'][:3]}"
             if result["publish_failures"] else ""))
    if result["ends"]:
        print(f"  STREAMS ENDED before the benchmark closed them: {len(result['ends'])}")
        for index, reason, _, pairs in result["ends"][:5]:
            print(f"    stream {index}: {reason}, after {pairs} notes")
    if result["controls"]:
        names = {}
        for _, name, _ in result["controls"]:
            names[name] = names.get(name, 0) + 1
        print(f"  control events on the streams: {names}")
    print(f"  latency publish → receive: p50 {ms(result['p50'])}, p90 {ms(result['p90'])}, "
          f"p99 {ms(result['p99'])}, max {ms(result['max'])} ms")
    window = result["window"]
    readers = result["readers_cpu"]
    print(f"  CPU over the {window:.1f} s of the notes: nodes {cpu['nodes']:.2f} s, nginx {cpu['nginx']:.2f} s, "
          f"PostgreSQL {cpu['postgres']:.2f} s; client readers {sum(readers):.2f} s "
          f"({', '.join(f'{100 * r / window:.0f} %' for r in readers)} of a core), driver {result['driver_cpu']:.2f} s")
    if max(readers) / window > 0.9:
        print("  CLIENT SATURATED: a reader process used over 90 % of a core; latencies include its queueing")
    print(f"  CPU per delivered note: servers {per(servers):.1f} µs = nodes {per(cpu['nodes']):.1f} + nginx "
          f"{per(cpu['nginx']):.1f} + PostgreSQL {per(cpu['postgres']):.1f}; client {per(sum(readers)):.1f} µs")
    input_cpu = result["input_cpu"]
    inputs = max(result["inputs"], 1)
    print(f"  inputs ({INPUT_CLIENTS} keep-alive clients, {arguments.input_seconds:g} s, no streams): "
          f"{result['inputs_per_second']:.0f}/s, POST p50 {ms(result['input_p50'])}, p99 {ms(result['input_p99'])}, "
          f"max {ms(result['input_max'])} ms; "
          f"CPU per input: nodes {input_cpu['nodes'] / inputs * 1e6:.0f} µs, nginx {input_cpu['nginx'] / inputs * 1e6:.0f} µs, "
          f"PostgreSQL {input_cpu['postgres'] / inputs * 1e6:.0f} µs"
          + (f"; {len(result['input_failures'])} failed: {result['input_failures'][:3]}" if result["input_failures"] else ""))


def server_cpu_per_note(result):
    return sum(result["cpu"].values()) / max(result["delivered"], 1)


def compare(single, cluster):
    p99 = cluster["p99"] / single["p99"]
    cpu = server_cpu_per_note(cluster) / server_cpu_per_note(single)
    nodes = (cluster["cpu"]["nodes"] / max(cluster["delivered"], 1)) / (single["cpu"]["nodes"] / max(single["delivered"], 1))
    inputs = cluster["inputs_per_second"] / single["inputs_per_second"]
    verdict = lambda ratio, target: f"{'met' if ratio < target else 'MISSED'} (target under {target}×)"
    print(f"  3 nodes ÷ one node: p99 {p99:.2f}× {verdict(p99, 1.5)}; server CPU per delivered note {cpu:.2f}× "
          f"{verdict(cpu, 1.3)} (the nodes alone {nodes:.2f}×); inputs/s {inputs:.2f}×")
    return p99, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "bindery"))
    parser.add_argument("--streams", type=int, default=3000)
    parser.add_argument("--notes", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10, help="notes a second")
    parser.add_argument("--input-seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--readers", type=int, default=2, help="client processes sharing the streams")
    parser.add_argument("--per-node", action="store_true",
                        help="the one node gets a third of the streams: the same load per node as each of the three")
    parser.add_argument("--keep-logs", metavar="DIR", help="copies each setup's node and nginx logs here")
    arguments = parser.parse_args()
    if min(arguments.streams, arguments.notes, arguments.readers, arguments.rounds) < 1 or arguments.rate <= 0:
        parser.error("streams, notes, readers, rounds and rate must be positive")
    if not os.access(arguments.binary, os.X_OK):
        parser.error(f"no bindery at {arguments.binary}: swift build -c release -Xswiftc "
                     "-cross-module-optimization --product bindery, or --binary")
    binary = os.path.abspath(arguments.binary)
    files = raise_open_files()
    if files < 2 * arguments.streams + 2048:
        parser.error(f"the open-file limit ({files}) is too low for {arguments.streams} streams through nginx")
    setups = [("one node, direct", 1, False), ("3 nodes, nginx", 3, True)]
    print(f"{arguments.streams} streams{' (the one node a third of them)' if arguments.per_node else ''} on one shared board, {arguments.notes} notes at {arguments.rate:g}/s, "
          f"{arguments.readers} reader processes; {os.cpu_count()} cores shared by the client, the nodes, nginx "
          f"and PostgreSQL: only the ratios within this run mean anything", flush=True)
    results = []
    for round_ in range(arguments.rounds):
        order = setups if round_ % 2 == 0 else setups[::-1]
        measured = {}
        for name, nodes, through_proxy in order:
            print(f"round {round_ + 1}, {name}:", flush=True)
            arguments.round = round_ + 1
            measured[nodes] = measure(name, binary, nodes, through_proxy, arguments)
            report(measured[nodes], arguments)
            sys.stdout.flush()
        results.append((measured[1], measured[3], compare(measured[1], measured[3])))
    print()
    print("| round | setup | delivered (missing) | p50 / p90 / p99 / max ms | server CPU µs per note "
          "(nodes + nginx + PostgreSQL) | client CPU µs per note | inputs/s, p50 / p99 ms |")
    print("|---|---|---|---|---|---|---|")
    for round_, (single, cluster, _) in enumerate(results, 1):
        for result in (single, cluster):
            delivered = max(result["delivered"], 1)
            per = {key: value / delivered * 1e6 for key, value in result["cpu"].items()}
            print(f"| {round_} | {result['name']} | {result['delivered']:,} ({result['missing']}) | "
                  f"{result['p50'] * 1e3:.1f} / {result['p90'] * 1e3:.1f} / {result['p99'] * 1e3:.1f} / "
                  f"{result['max'] * 1e3:.1f} | {sum(per.values()):.1f} ({per['nodes']:.1f} + {per['nginx']:.1f} + "
                  f"{per['postgres']:.1f}) | {sum(result['readers_cpu']) / delivered * 1e6:.1f} | "
                  f"{result['inputs_per_second']:,.0f}, {result['input_p50'] * 1e3:.1f} / {result['input_p99'] * 1e3:.1f} |")
    for round_, (_, _, (p99, cpu)) in enumerate(results, 1):
        print(f"round {round_}: 3 nodes ÷ one node: p99 {p99:.2f}× (target under 1.5×), "
              f"server CPU per delivered note {cpu:.2f}× (target under 1.3×)")


if __name__ == "__main__":
    main()
