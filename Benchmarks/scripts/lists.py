#!/usr/bin/env python3
"""What a change to a shared list costs, for one or more `bindery` builds side by side.

Usage: Benchmarks/scripts/lists.py BINDERY [BINDERY…] [--seconds S] [--sizes 1000,10000] [--rounds R]

For each list size: a todo list of that many items (written straight into the
database), shown by 8 sessions, each with an open event stream; 8 clients add
items to it for S seconds. Then renames on a list of one. Printed per build:
inputs/s, the server's CPU (user + system) per input, and the bytes each
stream received per input. Everything runs on 127.0.0.1 and stops by itself;
the builds alternate, round after round.
"""
import argparse
import http.client
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


class Server:
    def __init__(self, binary):
        self.scratch = tempfile.mkdtemp(prefix="bench-lists-")
        self.database = os.path.join(self.scratch, "b.sqlite")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--database", self.database, "--log-level", "error",
             "--max-sessions-per-client", "100000", "--session-burst", "100000", "--session-rate", "100000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("bindery did not start")
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                self.port = int(match.group(1))
                break

    def request(self, connection, method, path, body=None):
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        for name in os.listdir(self.scratch):
            os.remove(os.path.join(self.scratch, name))
        os.rmdir(self.scratch)


def stream_bytes(port, path, counter, stop):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    sock.settimeout(0.5)
    while not stop.is_set():
        try:
            data = sock.recv(1 << 20)
        except socket.timeout:
            continue
        if not data:
            break
        counter[0] += len(data)
    sock.close()


def measure(binary, size, seconds, rename):
    server = Server(binary)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port)
        # The table exists once the todo store has been asked for.
        server.request(connection, "POST", "/api/todos", {"list": "warmup"})
        with sqlite3.connect(server.database, timeout=30) as database:
            database.executemany("INSERT INTO todo (list, title, done, position) VALUES ('bench', ?, 0, ?)",
                                 [(f"item {index}", index) for index in range(size)])
        sessions = []
        for _ in range(8):
            status, body = server.request(connection, "POST", "/api/todos", {"list": "bench"})
            sessions.append(json.loads(body)["id"])
        stop = threading.Event()
        counters = [[0] for _ in sessions]
        readers = [threading.Thread(target=stream_bytes, args=(server.port, f"/api/todos/{sid}/events", counters[i], stop))
                   for i, sid in enumerate(sessions)]
        for reader in readers:
            reader.start()
        time.sleep(1)  # every stream has its whole list
        first_item = json.loads(server.request(connection, "GET", f"/api/todos/{sessions[0]}")[1])["outputs"]["items"][0]["id"]
        counted = [0]
        lock = threading.Lock()
        deadline = time.monotonic() + seconds

        def client(index):
            connection = http.client.HTTPConnection("127.0.0.1", server.port)
            path = f"/api/todos/{sessions[index]}/inputs/" + ("rename" if rename else "add")
            done = 0
            while time.monotonic() < deadline:
                body = {"id": first_item, "title": f"renamed {done}"} if rename else f"added {index} {done}"
                status, _ = server.request(connection, "POST", path, body)
                if status == 200:
                    done += 1
            with lock:
                counted[0] += done

        before_bytes = [c[0] for c in counters]
        cpu_before, started = cpu_seconds(server.process.pid), time.monotonic()
        clients = [threading.Thread(target=client, args=(i,)) for i in range(8)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        elapsed, cpu = time.monotonic() - started, cpu_seconds(server.process.pid) - cpu_before
        time.sleep(0.5)  # the streams read what the last inputs published
        stop.set()
        for reader in readers:
            reader.join()
        inputs = max(counted[0], 1)
        per_stream = sum(c[0] - b for c, b in zip(counters, before_bytes)) / len(counters) / inputs
        return inputs / elapsed, cpu / inputs * 1e6, per_stream
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    scenarios = [(f"adds, list of {size}, 8 sessions", int(size), False) for size in arguments.sizes.split(",")]
    scenarios.append(("renames, list of 1, 8 sessions", 1, True))
    print(f"{'scenario':34} {'build':28} {'inputs/s':>9} {'CPU µs/input':>13} {'bytes/input/stream':>19}")
    for round_ in range(arguments.rounds):
        for name, size, rename in scenarios:
            for binary in arguments.binaries:
                rate, cpu, per_stream = measure(binary, size, arguments.seconds, rename)
                print(f"{name:34} {binary[-28:]:28} {rate:9.0f} {cpu:13.0f} {per_stream:19.0f}", flush=True)


if __name__ == "__main__":
    main()
