"""The OpenAPI document is the server: schemathesis generates requests from
/api/openapi.json (positive and negative, and stateful through the create
response's links) against the real `bindery serve`, and every answer must match
the document: its status, its body's schema, and no 5xx. Bounded: a few
examples per operation, a timeout per request."""
import os
import subprocess
import sys

import pytest

from conftest import start_server, stop_server


@pytest.mark.skipif(bool(os.environ.get("BINDERY_TEST_WITHOUT_SHARED_WORKER")), reason="the API has no transport; once is enough")
def test_every_route_answers_as_the_document_says():
    # Many sessions a second from one client: what the creation rate exists to stop, not what this checks.
    server = start_server(["--session-rate", "100000", "--session-burst", "100000", "--log-level", "warning"])
    try:
        command = [os.path.join(os.path.dirname(sys.executable), "schemathesis"), "run", f"{server.url}/api/openapi.json",
                   "--checks", "all", "--max-examples", "5", "--request-timeout", "5", "--seed", "1",
                   "--generation-deterministic", "--no-color"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
        assert "passed" in result.stdout
    finally:
        stop_server(server)
