"""Sign-in across a cluster: an account registered and a browser signed in
through node A is who asks on node B, a script's token made on B works on C,
and a sign-out through node C ends it on every node at once (not after the
nodes' few seconds of remembered lookups), with B's live stream of that
identity's session ended too. Each request goes to the node named, not
through nginx, so that the nodes are the ones the test says."""
import time

import requests

PASSWORD = "correct horse"


def post(node, path, cookie=None, json=None, bearer=None):
    headers = {"Origin": node.url}
    if cookie:
        headers["Cookie"] = f"bindery_signin={cookie}"
    if bearer:
        headers = {"Authorization": f"Bearer {bearer}"}
    return requests.post(node.url + path, json=json, headers=headers, timeout=10)


def sign_in(node, input, login, cookie=None):
    """The `signin` example's `input` (register or signIn) through `node`: the token its Set-Cookie gives."""
    session = post(node, "/api/signin", cookie=cookie).json()["id"]
    answer = post(node, f"/api/signin/{session}/inputs/{input}", cookie=cookie, json={"login": login, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return answer.cookies["bindery_signin"]


def who(node, cookie=None, bearer=None):
    """Who `/api/me` says asks on `node`, or its status when it refuses."""
    answer = post(node, "/api/me", cookie=cookie, bearer=bearer)
    return answer.json()["outputs"]["name"] if answer.status_code == 201 else answer.status_code


def test_signed_in_through_a_served_by_b_signed_out_through_c(cluster):
    a, b, c = cluster.nodes
    laptop = sign_in(a, "register", "ada")
    assert who(b, laptop) == "ada", "a sign-in made through A is known on B"
    phone = sign_in(c, "signIn", "ada")
    assert who(a, phone) == "ada", "an account registered through A signs in through C"

    # A script's token made through B is its maker on C.
    me = post(b, "/api/me", cookie=laptop).json()["id"]
    made = post(b, f"/api/me/{me}/inputs/makeToken", cookie=laptop, json="nightly")
    assert made.status_code == 200, made.text
    token = made.json()["outputs"]["newToken"]
    assert who(c, bearer=token) == "ada"

    # One browser signs out through C: B, which has just looked its cookie up, refuses it now.
    assert who(b, phone) == "ada"
    session = post(c, "/api/signin", cookie=phone).json()["id"]
    assert post(c, f"/api/signin/{session}/inputs/signOut", cookie=phone).status_code == 200
    assert who(b, phone) == 401, "B forgot the sign-out made through C at once"
    assert who(b, laptop) == "ada", "the other browser stays signed in"

    # Everywhere, through C: B's live stream of ada's page ends, and every token of hers is refused on every node.
    page = post(b, "/api/me", cookie=laptop).json()["id"]
    with requests.get(
        f"{b.url}/api/me/{page}/events", headers={"Cookie": f"bindery_signin={laptop}", "Accept": "text/event-stream"}, stream=True, timeout=10
    ) as stream:
        assert stream.status_code == 200
        lines = stream.iter_lines(decode_unicode=True)
        assert next(lines).startswith("retry:")
        session = post(c, "/api/signin", cookie=laptop).json()["id"]
        started = time.monotonic()
        assert post(c, f"/api/signin/{session}/inputs/signOutEverywhere", cookie=laptop).status_code == 200
        ended = False
        for line in lines:
            if line == "event: bindery.end":
                ended = True
                break
            assert time.monotonic() - started < 5, "B's stream did not end"
        assert ended, "B's stream closed without bindery.end"
    for node in (a, b, c):
        assert who(node, laptop) == 401
        assert who(node, bearer=token) == 401


def test_while_the_database_is_away_a_sign_in_is_refused_503_and_nobody_is_signed_out(cluster):
    a, b, _ = cluster.nodes
    laptop = sign_in(a, "register", "grace")
    page = post(a, "/api/signin").json()["id"]
    cluster.kill_postgres()
    try:
        refused = post(a, f"/api/signin/{page}/inputs/signIn", json={"login": "grace", "password": PASSWORD})
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"] == "database_unavailable"
        assert "bindery_signin" not in refused.cookies, "no cookie for a sign-in not kept"
        assert "postgres" not in refused.text.lower() and "libpq" not in refused.text.lower(), refused.text
        # Once the few seconds a node trusts a lookup are past, it cannot tell, and says so; it does not sign her out.
        deadline = time.monotonic() + 15
        while (unknown := post(b, "/api/me", cookie=laptop)).status_code == 201:
            assert time.monotonic() < deadline, "B went on trusting a lookup it could not repeat"
            time.sleep(0.2)
        assert unknown.status_code == 503, unknown.text
        assert "set-cookie" not in unknown.headers
    finally:
        cluster.start_postgres()
    deadline = time.monotonic() + 30
    while who(b, laptop) != "grace":
        assert time.monotonic() < deadline, "the sign-in was not known again once the database came back"
        time.sleep(0.2)
