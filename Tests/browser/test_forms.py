"""What a form sends is what the person chose: each kind of control, in real Chromium,
through the client's own payload code (dom.js's payloadOf), as a bound form would send it."""
from conftest import wait_open

FORM = """
<form id="f">
  <input name="title" value="oat milk">
  <input name="count" type="number" value="3">
  <input name="size" type="radio" value="small">
  <input name="size" type="radio" value="medium" checked>
  <input name="size" type="radio" value="large">
  <input name="none" type="radio" value="a"><input name="none" type="radio" value="b">
  <select name="tags" multiple>
    <option value="red" selected>red</option><option value="green">green</option><option value="blue" selected>blue</option>
  </select>
  <select name="one"><option value="x">x</option><option value="y" selected>y</option></select>
  <input name="colors" type="checkbox" value="red" checked>
  <input name="colors" type="checkbox" value="green">
  <input name="colors" type="checkbox" value="blue" checked>
  <input name="urgent" type="checkbox" checked>
  <input name="nothing" type="checkbox" value="n">
  <input name="nothing" type="checkbox" value="m">
  <input name="avatar" type="file">
  <input name="due" type="date" value="2026-11-27">
  <input name="at" type="datetime-local" value="2026-11-27T09:30">
  <input name="maybe" type="number">
  <input name="when" type="date">
  <input name="blank" value="">
  <textarea name="note">two
lines</textarea>
</form>
"""


def payload(browser, script):
    """Runs `script` (a function body given `payloadOf` and the form) in the page, with the client's module."""
    return browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const host = document.createElement("div");
        host.innerHTML = arguments[0];
        document.body.append(host);
        import("/_bindery/v1/dom.js").then(({ payloadOf }) => {
          const form = host.querySelector("form");
          try { done({ value: ((payloadOf, form) => { BODY })(payloadOf, form) }); }
          catch (error) { done({ error: String(error) }); }
          finally { host.remove(); }
        }).catch((error) => done({ error: String(error) }));
        """.replace("BODY", script),
        FORM,
    )


def test_a_form_sends_each_control_as_chosen(server, browser):
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    sent = payload(browser, "return payloadOf(form);")
    assert "error" not in sent, sent
    assert sent["value"] == {
        "title": "oat milk",
        "count": 3,
        "size": "medium",  # the checked radio, not the last one
        "none": None,  # a radio group with none checked
        "tags": ["red", "blue"],  # every selected option of a multiple select
        "one": "y",
        "colors": ["red", "blue"],  # a group of checkboxes: the values of those checked
        "urgent": True,  # a lone checkbox: whether it is checked
        "nothing": [],
        "note": "two\nlines",
        "due": "2026-11-27",  # a date field: ISO 8601, which a ViewModel's Date reads
        "at": "2026-11-27T09:30",
        "maybe": None,  # an empty optional number or date: null, not NaN or ""
        "when": None,
        "blank": "",  # an empty text is a text
        "avatar": None,  # a file input with no file chosen (never the browser's fake path)
    }


def test_a_payload_field_may_name_a_radio_group_a_multiple_select_or_a_checkbox_group(server, browser):
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    for field, expected in [("size", "medium"), ("none", None), ("tags", ["red", "blue"]), ("colors", ["red", "blue"]), ("title", "oat milk")]:
        sent = payload(browser, f"form.dataset.payloadField = {field!r}; return payloadOf(form);")
        assert sent == {"value": expected}, (field, sent)


def test_a_lone_control_sends_its_own_value(server, browser):
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    sent = payload(browser, """
        return [
          payloadOf(form.querySelector("[name=tags]")),
          payloadOf(form.querySelector("[name=size][value=medium]")),
          payloadOf(form.querySelector("[name=urgent]")),
          payloadOf(form.querySelector("[name=count]")),
        ];""")
    assert sent == {"value": [["red", "blue"], "medium", True, 3]}, sent


def test_a_form_with_a_chosen_file_sends_the_file_itself(server, browser):
    browser.get(server.url + "/simple.html")
    wait_open(browser)
    sent = payload(browser, """
        const field = form.querySelector("[name=avatar]");
        const chosen = new DataTransfer();
        chosen.items.add(new File(["\\x89PNG fake"], "me.png", { type: "image/png" }));
        field.files = chosen.files;
        const whole = payloadOf(form), alone = payloadOf(field);
        form.dataset.payloadField = "avatar";
        const named = payloadOf(form);
        return [whole, alone, named].map((value) => value instanceof File ? [value.name, value.type, value.size] : value);""")
    assert sent == {"value": [["me.png", "image/png", 10]] * 3}, sent
