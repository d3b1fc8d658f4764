"""The first paint in Chromium: the page the server renders equals the page the client renders,
for random documents with hostile strings, with scripts off and on; an adopted page makes no
second session and misses no event that happened between its render and its stream."""
import json
import random
import re

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import browser_cookies, make_browser, start_server, stop_server, wait, wait_open

# The root as a tree of what a person sees: tags, attributes (the marks of the first paint, styles
# and what the client adds for assistive technology left out; classes as a set), texts that are not
# blank, and the controls' live state (value, checked, hidden, disabled) rather than the attributes
# that only give them a default.
DESCRIBE = """
const skip = new Set(["data-bindery-session", "data-bindery-snapshot", "data-bindery-rendered", "style", "role",
  "aria-live", "tabindex", "value", "checked", "selected"]);
function describe(element) {
  const attributes = [...element.attributes].filter((a) => !skip.has(a.name))
    .map((a) => [a.name, a.name === "class" ? [...element.classList].sort().join(" ") : a.value]).sort();
  const state = { hidden: element.hidden };
  if ("disabled" in element) state.disabled = element.disabled;
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
    state.value = element.value;
  }
  // A select whose value is none of its options shows none in the client (selectedIndex -1);
  // HTML has no way to say so, so the server's page shows its first. Told apart, not compared.
  if (element instanceof HTMLSelectElement && element.selectedIndex === -1) state.value = "(none)";
  if (element instanceof HTMLSelectElement && !element.querySelector("option[selected]") && element.selectedIndex === 0 &&
      document.documentElement.dataset.binderyState === undefined) state.value = "(none)";
  if (element.type === "checkbox") state.checked = element.checked;
  const children = element instanceof HTMLTextAreaElement ? [] : [...element.childNodes]
    .filter((n) => (n.nodeType === 1 && n.tagName !== "TEMPLATE") || (n.nodeType === 3 && n.data.trim() !== ""))
    .map((n) => (n.nodeType === 1 ? describe(n) : n.data));
  return [element.tagName, attributes, state, children];
}
return JSON.stringify(describe(document.querySelector("[data-bindery]")));
"""

HOSTILE = ["<script>alert(1)</script>", '"quoted"', "</template>", "it's", "&amp;", "a & b < c", "ü 😀 ✓", "", " ", "0",
           "null", "<b>bold</b>", "line\nbreak", "</textarea><img src=x>", "'); --"]
# HTML for data-html: what Markdown makes, and the attacks a sanitizer must stop, alike on both sides.
HTML = ['<p>plain <em>em</em> &amp; <a href="https://x.test/a?b=1&amp;c=2" title="t">link</a></p>', '<img src=x onerror=alert(1)>',
        '<a href="javascript:alert(1)">js</a>', '<a href="jav&#x09;ascript:alert(1)">tab</a>', '<a href=" JaVaScRiPt:alert(1)">case</a>',
        '<svg><script>alert(1)</script></svg>after', '<!-- c --><b>kept</b>', '<scr<script>ipt>alert(1)</script>',
        '<style>p{}</style>after', '<iframe src="https://x.test"></iframe>', '<p onclick="x()" id="clobber">p</p>',
        '<div><table><tr><td align="left">cell</td></tr></table></div>', '<ul><li>one<li>two</ul>', '<a href="/relative">rel</a>',
        '<IMG SRC="data:image/png;base64,AA" ALT="d">', '<img src="/pic.png" alt="p" width="2">', '<details open ontoggle=alert(1)>x',
        'text &amp; &lt; &gt; "q"', '<pre><code>a &lt; b</code></pre>', '<form action="https://x.test"><input name=x></form>kept',
        '<a href="mailto:a@x.test">mail</a>', '<h2>head</h2><hr><blockquote>q</blockquote>', '<math><mi>x</mi></math>',
        '<noscript><p>n</p></noscript>', '<textarea></textarea><img src=x>']
NUMBERS = [0, 1, -3, 1.5, 1e21, 1e-7, 123456789.125, 2 ** 53, 0.1]


def scalar(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice(HOSTILE)
    if kind == 1:
        return rng.choice(NUMBERS)
    if kind == 2:
        return rng.choice([True, False])
    if kind == 3:
        return None
    return rng.choice(HOSTILE) + str(rng.randrange(100))


def anything(rng, depth=0):
    kind = rng.randrange(4 if depth < 2 else 1)
    if kind == 0:
        return scalar(rng)
    if kind == 1:
        return [anything(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 2:
        return {"name": scalar(rng), "n": anything(rng, depth + 1)}
    return scalar(rng)


def document(rng):
    by_index = rng.random() < 0.2
    ids = rng.sample(range(1, 50), 6) if rng.random() < 0.5 else [f"k{n}" for n in rng.sample(range(1, 50), 6)]
    items = []
    for index in range(rng.randrange(7)):
        item = {"title": scalar(rng), "done": scalar(rng)}
        if rng.random() < 0.7:
            item["tags"] = [scalar(rng) for _ in range(rng.randrange(4))] if rng.random() < 0.9 else scalar(rng)
        if not by_index:
            item["id"] = ids[index]
        items.append(item)
    record = {
        "name": scalar(rng), "title": rng.choice([rng.choice(HOSTILE), scalar(rng)]), "choice": rng.choice(["a", "b", "c"]),
        "count": scalar(rng), "tags": [scalar(rng) for _ in range(rng.randrange(4))], "color": rng.choice(["teal", "red", ""]),
        "html": "".join(rng.choice(HTML + HOSTILE) for _ in range(rng.randrange(4))) if rng.random() < 0.9 else scalar(rng),
        "errors": rng.choice([None, "not an object", {
            name: rng.choice([scalar(rng), [scalar(rng), scalar(rng)]]) for name in rng.sample(["name", "email", "size", "other"], rng.randrange(5))
        }]),
    }
    if rng.random() < 0.15:
        record = rng.choice([None, "a string", [1, 2]])  # paths into it read nothing
    return {"text": anything(rng), "flag": anything(rng), "record": record, "items": items}


@pytest.fixture(scope="module")
def servers():
    painting, plain = start_server(), start_server(("--no-first-paint",))
    yield painting, plain
    stop_server(painting)
    stop_server(plain)


@pytest.fixture(scope="module")
def scriptless():
    """Chromium that runs no script of the page's (DevTools' own still read the DOM)."""
    driver = make_browser()
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    yield driver
    driver.quit()


def session_with(server, doc):
    created = requests.post(server.api("/bindings"), timeout=5)
    assert created.status_code == 201, created.text
    sid = created.json()["id"]
    server.send("bindings", sid, "document", doc)
    return sid


def difference(a, b, path="root"):
    """Where `a` and `b` first differ, and how, for a failure's message."""
    if type(a) is not type(b) or not isinstance(a, (list, dict)):
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        a, b = sorted(a.items()), sorted(b.items())
    for index, (x, y) in enumerate(zip(a, b)):
        found = difference(x, y, f"{path}/{index}")
        if found:
            return found
    return None if len(a) == len(b) else f"{path}: {len(a)} items != {len(b)}: {a!r} != {b!r}"


def described(driver):
    return json.loads(driver.execute_script(DESCRIBE))


def loaded(driver, expected):
    """Whether the client has shown the session's document (its source output) and is live."""
    return driver.execute_script("return document.documentElement.dataset.binderyState") == "open" and \
        driver.execute_script("return window.bindery?.values.get('source')") == expected


def test_the_servers_render_of_every_binding_kind_equals_the_clients(servers, scriptless, browser):
    painting, plain = servers
    rng = random.Random(20261127)
    for case in range(12):
        doc = document(rng)
        on_server, on_client = session_with(painting, doc), session_with(plain, doc)
        source = requests.get(plain.api(f"/bindings/{on_client}/outputs/source"), timeout=5).json()

        scriptless.get(f"{painting.url}/bindings.html?session={on_server}")
        rendered = described(scriptless)

        browser.get(f"{plain.url}/bindings.html?session={on_client}")
        wait(browser, lambda b: loaded(b, source))
        by_client = described(browser)

        browser.get(f"{painting.url}/bindings.html?session={on_server}")
        wait(browser, lambda b: loaded(b, source))
        adopted = described(browser)

        assert rendered == by_client, f"case {case}: {json.dumps(doc)}: {difference(rendered, by_client)}"
        assert adopted == by_client, f"case {case}: {json.dumps(doc)}: {difference(adopted, by_client)}"
        for driver in (scriptless, browser):
            html = driver.execute_script("return document.getElementById('k-html').innerHTML").lower()
            for unsafe in ("<script", "<style", "<iframe", "<svg", "<form", "onerror", "onclick", "ontoggle", "javascript:", "data:", "<!--", " id="):
                assert unsafe not in html, f"case {case}: {unsafe} in {html}"


def test_with_scripts_off_a_page_shows_its_values_and_a_new_session_of_its_own(servers, scriptless):
    painting, _ = servers
    scriptless.get(f"{painting.url}/todos.html?list=first-paint")
    assert scriptless.find_element(By.ID, "remaining").get_attribute("textContent") == "0 items left"
    assert scriptless.find_element(By.ID, "empty").is_displayed()
    assert not scriptless.find_element(By.CSS_SELECTOR, ".todo-footer").is_displayed()
    scriptless.get(f"{painting.url}/bindings.html")
    assert scriptless.find_element(By.ID, "k-text").text == "Hello, <b>world</b>"
    assert [row.text for row in scriptless.find_elements(By.CSS_SELECTOR, "#k-list li span")] == ["first", "second"]
    scriptless.get(f"{painting.url}/simple.html")
    assert scriptless.find_element(By.ID, "change").text == "Change to blue"


def field_errors(driver):
    """The bindings page's form: each field's aria-invalid and the texts its aria-describedby names."""
    return driver.execute_script("""
        return [...document.querySelectorAll("#k-form [name]")].map((field) => [field.name, field.value,
          field.getAttribute("aria-invalid"), (field.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
            .map((id) => document.getElementById(id)?.textContent)]);""")


def test_field_errors_stand_next_to_their_fields_and_go_when_the_output_clears_them(servers, scriptless, browser):
    painting, _ = servers
    expected = [["name", "", None, ["as people know you"]], ["email", "", "true", ["an address has an @"]],
                ["size", "s", "true", ["pick one S or M"]], ["size", "m", "true", ["pick one S or M"]]]
    scriptless.get(f"{painting.url}/bindings.html")
    assert field_errors(scriptless) == expected
    browser.get(f"{painting.url}/bindings.html")
    wait_open(browser)
    assert field_errors(browser) == expected
    sid = browser.execute_script("return window.bindery.sessionId")
    painting.send("bindings", sid, "document", {"record": {"errors": {"name": "taken"}}}, cookies=browser_cookies(browser))
    wait(browser, lambda b: field_errors(b)[0][2] == "true")
    assert field_errors(browser) == [["name", "", "true", ["as people know you", "taken"]], ["email", "", None, []],
                                     ["size", "s", None, []], ["size", "m", None, []]]


def metric(server, name, view_model):
    text = requests.get(f"{server.url}/metrics", timeout=5).text
    found = re.search(rf'^{name}{{view_model="{view_model}"}} (\d+)', text, re.MULTILINE)
    return int(found.group(1)) if found else 0


def test_an_adopted_page_creates_no_session_and_misses_no_event_between_render_and_stream(servers):
    painting, _ = servers
    driver = make_browser()
    try:
        # The page arrives, but its script is held back: meanwhile the session changes.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/_bindery/v1/bindery.js"]})
        before = metric(painting, "bindery_sessions", "todos")
        driver.get(f"{painting.url}/todos.html?list=adopted")
        assert metric(painting, "bindery_sessions", "todos") == before + 1
        root = driver.find_element(By.CSS_SELECTOR, "[data-bindery]")
        sid = root.get_attribute("data-bindery-session")
        rendered_event = json.loads(root.get_attribute("data-bindery-snapshot"))["lastEventId"]
        assert driver.find_element(By.ID, "remaining").get_attribute("textContent") == "0 items left"
        painting.send("todos", sid, "add", "written after the render", cookies=browser_cookies(driver))

        # Now the script: it records every output it applies, then binds the page.
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        driver.execute_script("""
            window.applied = [];
            const dispatch = EventTarget.prototype.dispatchEvent;
            EventTarget.prototype.dispatchEvent = function (event) {
              if (event.type === "output") applied.push([event.detail.name, event.detail.id]);
              return dispatch.call(this, event);
            };
            import("/_bindery/v1/bindery.js");
        """)
        wait_open(driver)
        wait(driver, lambda d: d.find_element(By.ID, "remaining").text == "1 item left")
        titles = [field.get_attribute("value") for field in driver.find_elements(By.CSS_SELECTOR, "#items li input[name=title]")]
        assert titles == ["written after the render"]
        assert driver.execute_script("return window.bindery.sessionId") == sid
        assert f"session={sid}" in driver.current_url
        assert metric(painting, "bindery_sessions", "todos") == before + 1, "no second session"
        applied = driver.execute_script("return applied")
        from_stream = [(name, event) for name, event in applied if event is not None]
        assert from_stream, applied
        assert all(int(event) > rendered_event for _, event in from_stream), f"nothing the render had came again: {applied}"
        assert len(from_stream) == len(set(from_stream)), f"no event twice: {applied}"
    finally:
        driver.quit()
