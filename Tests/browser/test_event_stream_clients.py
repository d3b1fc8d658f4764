"""The event stream through real SSE clients: Python's sseclient and curl -N."""
import json
import subprocess

import requests
import sseclient


def events(server, session, last_event_id=None):
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    response = requests.get(server.api(f"/simple/{session}/events"), headers=headers, stream=True, timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    return response, sseclient.SSEClient(response.iter_content(chunk_size=None)).events()


def take(stream, count):
    return [(e.id, e.event, e.data) for _, e in zip(range(count), stream)]


def test_sseclient_gets_snapshot_then_live_events(server):
    session = server.create()
    response, stream = events(server, session)
    assert take(stream, 2) == [("1", "backgroundColor", '"red"'), ("2", "buttonTitle", '"Change to blue"')]
    server.send("simple", session, "buttonTap")
    assert take(stream, 2) == [("3", "backgroundColor", '"blue"'), ("4", "buttonTitle", '"Change to purple"')]
    response.close()


def test_sseclient_resumes_with_last_event_id(server):
    session = server.create()
    server.send("simple", session, "buttonTap")
    server.send("simple", session, "buttonTap")
    response, stream = events(server, session, last_event_id=4)
    assert take(stream, 2) == [("5", "backgroundColor", '"purple"'), ("6", "buttonTitle", '"Change to red"')]
    response.close()


def test_curl_n_prints_events_as_they_happen(server):
    session = server.create()
    curl = subprocess.Popen(["curl", "-sN", server.api(f"/simple/{session}/events")],
                            stdout=subprocess.PIPE, text=True)
    try:
        lines = []
        while len([l for l in lines if l.startswith("data:")]) < 2:
            lines.append(curl.stdout.readline().rstrip("\n"))
        assert lines[0] == "retry: 1000"
        server.send("simple", session, "buttonTap")
        live = []
        while len([l for l in live if l.startswith("data:")]) < 2:
            live.append(curl.stdout.readline().rstrip("\n"))
        assert [l for l in live if l] == ["id: 3", "event: backgroundColor", 'data: "blue"',
                                          "id: 4", "event: buttonTitle", 'data: "Change to purple"']
    finally:
        curl.terminate()
        curl.wait(timeout=5)


def test_curl_drives_the_home_example_and_curl_n_sees_its_outputs(server):
    created = requests.post(server.api("/home"), json={"latencyMilliseconds": 0, "failure": "server"}, timeout=5)
    assert created.status_code == 201
    session = created.json()["id"]
    curl = subprocess.Popen(["curl", "-sN", server.api(f"/home/{session}/events")], stdout=subprocess.PIPE, text=True)
    try:
        assert curl.stdout.readline().rstrip("\n") == "retry: 1000"
        curl_post = subprocess.run(["curl", "-s", "-X", "POST", server.api(f"/home/{session}/inputs/requestData")],
                                   capture_output=True, text=True, timeout=10)
        assert '"viewModel":"home"' in curl_post.stdout
        # A waiting `loading` value may be replaced by a newer one (drivers coalesce),
        # so `loading` and `error` may come in either order.
        lines = []
        while "event: error" not in lines or "event: loading" not in lines:
            lines.append(curl.stdout.readline().rstrip("\n"))
            if lines[-1] == "event: error":
                lines.append(curl.stdout.readline().rstrip("\n"))
        error_data = lines[lines.index("event: error") + 1]
        assert error_data == 'data: {"kind":"serverMessage","message":"The server is under maintenance; try again later."}'

    finally:
        curl.terminate()
        curl.wait(timeout=5)


def test_bad_creation_parameters_are_a_400_naming_the_field(server):
    response = requests.post(server.api("/home"), json={"latencyMilliseconds": "slow"}, timeout=5)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_payload"
    assert "latencyMilliseconds" in response.json()["message"]


def test_sseclient_reads_the_multiplexed_stream_of_several_sessions(server, monkeypatch):
    # sseclient keeps only the fields its Event has: give it `session`.
    class SessionEvent(sseclient.Event):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.session = None

    monkeypatch.setattr(sseclient, "Event", SessionEvent)
    first, second = server.create(), server.create()
    server.send("simple", first, "buttonTap")  # first: ids 3 and 4
    # The last has the form of an id, of no session (a malformed one would be 400 for the whole list).
    sessions = f"simple/{first}@3,simple/{second},simple/AAAAAAAAAAAAAAAAAAAAAA"
    response = requests.get(server.api("/streams"), params={"sessions": sessions}, stream=True, timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    stream = sseclient.SSEClient(response.iter_content(chunk_size=None)).events()

    def take_items(count):
        return [(e.session, e.id, e.event, e.data) for _, e in zip(range(count), stream)]

    got = take_items(4)
    gone = [item for item in got if item[2] == "bindery.gone"]
    assert [(session, id) for session, id, _, _ in gone] == [("simple/AAAAAAAAAAAAAAAAAAAAAA", None)]
    assert json.loads(gone[0][3])["error"] == "unknown_session"
    # Each session's events in order; sessions interleave as the server takes them in turn.
    assert [item for item in got if item[0] == f"simple/{first}"] == [
        (f"simple/{first}", "4", "buttonTitle", '"Change to purple"')]   # only what came after 3
    assert [item for item in got if item[0] == f"simple/{second}"] == [
        (f"simple/{second}", "1", "backgroundColor", '"red"'),           # no id given: the snapshot
        (f"simple/{second}", "2", "buttonTitle", '"Change to blue"')]
    server.send("simple", second, "buttonTap")
    assert take_items(2) == [(f"simple/{second}", "3", "backgroundColor", '"blue"'),
                             (f"simple/{second}", "4", "buttonTitle", '"Change to purple"')]
    assert requests.delete(server.api(f"/simple/{first}"), timeout=5).status_code == 204
    assert take_items(1) == [(f"simple/{first}", None, "bindery.end", "null")]
    response.close()


def test_a_malformed_session_list_is_a_400(server):
    response = requests.get(server.api("/streams"), params={"sessions": "simple"}, timeout=5)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_sessions"
