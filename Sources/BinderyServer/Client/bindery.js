// Bindery browser client: connects a page to a ViewModel session and binds the
// DOM declaratively. Plain ES module, no build step, no dependencies.
//
// Root:    <main data-bindery="simple">          a new session of ViewModel "simple"
//                                                (or the one named by ?session=<sid>)
//          data-bindery-params='{"id": 3}'       creation parameters (JSON)
//          data-bindery-start="reload"           inputs to send once when the page creates the session
//
// Outputs → DOM (a name may be a path into the value: "profile.name"):
//   data-text="out"            textContent
//   data-value="out"           a control's value (not while the user edits it)
//   data-style-<prop>="out"    a style property
//   data-attr-<name>="out"     an attribute (false/null remove it, true sets it empty)
//   data-class-<name>="out"    toggles a class on truthiness
//   data-show="out" / data-hide="out"       visibility
//   data-disabled="out" / data-enabled="out" a control's disabled state
//   data-list="out"            an array rendered from the element's <template>, keyed by
//                              data-key (default "id"), updated in place; inside the
//                              template the same attributes with "item-" read the item:
//                              data-item-text="title", data-item-class-done="done", …
//   data-toast="out"           each value shows briefly as a toast (signals)
//   data-dialog="out"          each value opens the <dialog>: its data-item-* elements bind the
//                              value's fields, else its [data-dialog-text] shows the text
//   data-navigate="out"        a ViewModel reference moves the page to that session
//                              (data-navigate-page="/detail.html", default /<vm>.html)
//
// DOM events → inputs:
//   data-on-<event>="input"    sends the input; the payload is data-payload (JSON), else
//                              for a form its fields as an object (or, with
//                              data-payload-field="name", that field's value), for a control its value,
//                              for a list item data-item-payload="field" (or the item's key);
//                              sends go out in order, pending debounced input first
//   data-debounce="300"        milliseconds to wait for input events (default 250)
//
// State:   <span data-bindery-connection>    connecting / open / closed / ended
//          <html data-bindery-state="…">     the same, for CSS and tests
//          [data-bindery-errors]             the message of the last failed input
//
// Outputs arrive over server-sent events; EventSource reconnects by itself and
// resumes with Last-Event-ID, so the page recovers its state after a drop.

const api = (path) => `/api/${path}`;

/** The value at a dotted `path` of `value` ("a.b.0"). */
function pick(value, path) {
  if (!path.includes(".")) return value;
  return path.split(".").slice(1).reduce((v, key) => (v == null ? v : v[key]), value);
}

/** The output name a binding attribute refers to (the first segment of its path). */
const outputOf = (path) => path.split(".")[0];

function setAttribute(element, name, value) {
  if (value === false || value == null) element.removeAttribute(name);
  else element.setAttribute(name, value === true ? "" : String(value));
}

/** Applies one value to an element's bindings with `prefix` ("data-" or "data-item-"). */
function applyBindings(element, prefix, matches, valueOf) {
  for (const attribute of [...element.attributes]) {
    if (!attribute.name.startsWith(prefix)) continue;
    const kind = attribute.name.slice(prefix.length);
    if (!matches(attribute.value)) continue;
    const value = valueOf(attribute.value);
    if (kind === "text") element.textContent = value ?? "";
    else if (kind === "value") {
      if (document.activeElement !== element || !element.dataset.dirty) {
        if (element.type === "checkbox") element.checked = !!value;
        else element.value = value ?? "";
      }
    } else if (kind === "show") element.hidden = !value;
    else if (kind === "hide") element.hidden = !!value;
    else if (kind === "disabled") element.disabled = !!value;
    else if (kind === "enabled") element.disabled = !value;
    else if (kind.startsWith("style-")) element.style.setProperty(kind.slice(6), value ?? "");
    else if (kind.startsWith("attr-")) setAttribute(element, kind.slice(5), value);
    else if (kind.startsWith("class-")) element.classList.toggle(kind.slice(6), !!value);
  }
}

const OUTPUT_KINDS = /^data-(text|value|show|hide|disabled|enabled|list|toast|dialog|navigate|style-.+|attr-.+|class-.+)$/;

/** The payload a DOM event carries to its input. */
function payloadOf(element, item, key) {
  if (element.dataset.payload !== undefined) return JSON.parse(element.dataset.payload);
  if (item !== undefined) {
    const field = element.dataset.itemPayload;
    return field ? pick(item, `.${field}`) : key;
  }
  if (element instanceof HTMLFormElement && element.dataset.payloadField) {
    return payloadOf(element.elements.namedItem(element.dataset.payloadField));
  }
  if (element instanceof HTMLFormElement) {
    const fields = {};
    for (const control of element.elements) {
      if (!control.name) continue;
      if (control.type === "checkbox") fields[control.name] = control.checked;
      else if (control.type === "number" || control.type === "range") fields[control.name] = control.valueAsNumber;
      else fields[control.name] = control.value;
    }
    return fields;
  }
  if (element.type === "checkbox") return element.checked;
  if (element.type === "number" || element.type === "range") return element.valueAsNumber;
  if ("value" in element && element.tagName !== "BUTTON") return element.value;
  return undefined;
}

/** A page's connection to one session. */
export class Binding extends EventTarget {
  /** `options.outputs` names outputs to follow even if no element binds them. */
  constructor(root, viewModel, sessionId, options = {}) {
    super();
    this.extraOutputs = options.outputs ?? [];
    this.root = root;
    this.viewModel = viewModel;
    this.sessionId = sessionId;
    this.values = new Map();
    this.state = "connecting";
    this.source = null;
    this.lastEventId = null;
    this.lists = new Map();
    this.sending = Promise.resolve();
    this.debounced = new Set();
    this.#wire(root);
    // A page kept in the back/forward cache would keep its stream open, and a
    // browser allows only six HTTP/1.1 connections per host: after a few
    // navigations new requests would stall. Close on the way out, resume on return.
    addEventListener("pagehide", () => this.source?.close());
    addEventListener("pageshow", (event) => {
      if (event.persisted && this.source) this.start();
    });
  }

  get url() {
    return api(`${this.viewModel}/${this.sessionId}`);
  }

  /** Opens the event stream, resuming after the last event seen if there was one. */
  start() {
    this.#setState("connecting");
    // EventSource resends Last-Event-ID itself when it reconnects; a fresh one
    // (after stop) cannot set headers, so it names the id in the query instead.
    const resume = this.lastEventId ? `?lastEventId=${encodeURIComponent(this.lastEventId)}` : "";
    const source = new EventSource(`${this.url}/events${resume}`);
    this.source = source;
    source.onopen = () => this.#setState("open");
    source.onerror = () => this.#setState(source.readyState === EventSource.CLOSED ? "closed" : "connecting");
    source.addEventListener("bindery.reset", () => this.values.clear());
    source.addEventListener("bindery.end", () => {
      source.close();
      this.#setState("ended");
    });
    for (const name of this.#outputNames()) {
      source.addEventListener(name, (event) => {
        this.lastEventId = event.lastEventId;
        this.#apply(name, JSON.parse(event.data));
      });
    }
    return this;
  }

  /** Closes the stream (`start()` resumes where it stopped). */
  stop() {
    this.source?.close();
    this.source = null;
    this.#setState("closed");
  }

  /**
   * Sends one input; resolves with the snapshot after its effects. Sends go out
   * one after another in call order, so inputs reach the ViewModel as the user
   * made them.
   */
  send(input, payload) {
    const result = this.sending.then(() => this.#post(input, payload));
    this.sending = result.catch(() => {});
    return result;
  }

  async #post(input, payload) {
    const response = await fetch(`${this.url}/inputs/${input}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: payload === undefined ? "" : JSON.stringify(payload),
    });
    const body = await response.json();
    if (!response.ok) {
      for (const element of this.root.querySelectorAll("[data-bindery-errors]")) element.textContent = body.message;
      this.dispatchEvent(new CustomEvent("error", { detail: body }));
      throw Object.assign(new Error(body.message), body);
    }
    for (const element of this.root.querySelectorAll("[data-bindery-errors]")) element.textContent = "";
    return body;
  }

  #setState(state) {
    this.state = state;
    for (const element of document.querySelectorAll("[data-bindery-connection]")) {
      element.textContent = state;
      element.dataset.state = state;
    }
    document.documentElement.dataset.binderyState = state;
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }

  // The root and everything inside it, except list templates' contents.
  #elements() {
    return [this.root, ...this.root.querySelectorAll("*")].filter((element) => !element.closest("template"));
  }

  // Every output some element binds to.
  #outputNames() {
    const names = new Set(this.extraOutputs);
    for (const element of this.#elements()) {
      for (const attribute of element.attributes) {
        if (OUTPUT_KINDS.test(attribute.name)) names.add(outputOf(attribute.value));
      }
    }
    return names;
  }

  #apply(name, value) {
    this.values.set(name, value);
    const matches = (path) => outputOf(path) === name;
    for (const element of this.#elements()) {
      applyBindings(element, "data-", matches, (path) => pick(value, path));
      const list = element.dataset.list;
      if (list !== undefined && matches(list)) this.#renderList(element, pick(value, list) ?? []);
      if (element.dataset.toast !== undefined && matches(element.dataset.toast)) this.#toast(element, pick(value, element.dataset.toast));
      if (element.dataset.dialog !== undefined && matches(element.dataset.dialog)) this.#dialog(element, pick(value, element.dataset.dialog));
      if (element.dataset.navigate !== undefined && matches(element.dataset.navigate)) this.#navigate(element, pick(value, element.dataset.navigate));
    }
    this.dispatchEvent(new CustomEvent("output", { detail: { name, value } }));
  }

  // Renders `items` into `container` from its <template>, keyed, in place.
  #renderList(container, items) {
    const template = container.querySelector(":scope > template");
    if (!template) return;
    const keyField = container.dataset.key ?? "id";
    let rendered = this.lists.get(container);
    if (!rendered) {
      rendered = new Map();
      this.lists.set(container, rendered);
    }
    const seen = new Set();
    let previous = template;
    items.forEach((item, index) => {
      const rawKey = item != null && typeof item === "object" && keyField in item ? item[keyField] : index;
      const key = String(rawKey);
      seen.add(key);
      let entry = rendered.get(key);
      if (!entry) {
        const element = template.content.firstElementChild.cloneNode(true);
        element.dataset.key = key;
        entry = { element, item };
        rendered.set(key, entry);
        this.#wire(element, () => entry.item, rawKey);
      }
      entry.item = item;
      for (const element of [entry.element, ...entry.element.querySelectorAll("*")]) {
        applyBindings(element, "data-item-", () => true, (path) => (path === "." ? item : pick(item, `.${path}`)));
      }
      if (previous.nextElementSibling !== entry.element) previous.after(entry.element);
      previous = entry.element;
    });
    for (const [key, entry] of rendered) {
      if (!seen.has(key)) {
        entry.element.remove();
        rendered.delete(key);
      }
    }
  }

  #toast(element, value) {
    const toast = document.createElement("div");
    toast.className = "bindery-toast";
    toast.setAttribute("role", "status");
    toast.textContent = typeof value === "string" ? value : JSON.stringify(value);
    element.append(toast);
    setTimeout(() => toast.remove(), Number(element.dataset.toastMs ?? 4000));
  }

  #dialog(element, value) {
    const dialog = element instanceof HTMLDialogElement ? element : element.querySelector("dialog");
    if (!dialog) return;
    const fields = [...dialog.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("data-item-")));
    if (fields.length > 0) {
      for (const field of fields) applyBindings(field, "data-item-", () => true, (path) => (path === "." ? value : pick(value, `.${path}`)));
    } else {
      const text = dialog.querySelector("[data-dialog-text]") ?? dialog;
      text.textContent = typeof value === "string" ? value : JSON.stringify(value);
    }
    if (!dialog.open) dialog.showModal();
  }

  #navigate(element, reference) {
    if (!reference || !reference.viewModel || !reference.id) return;
    const page = element.dataset.navigatePage ?? `/${reference.viewModel}.html`;
    location.assign(`${page}?session=${encodeURIComponent(reference.id)}`);
  }

  // Wires DOM events under `scope` to inputs; `item()` gives a list item's value.
  #wire(scope, item, key) {
    const elements = [scope, ...scope.querySelectorAll("*")].filter((element) => !element.closest("template"));
    for (const element of elements) {
      if (item === undefined && element.closest("[data-list]") && element.closest("[data-list]") !== element) continue;
      for (const attribute of [...element.attributes]) {
        if (!attribute.name.startsWith("data-on-")) continue;
        const event = attribute.name.slice("data-on-".length);
        const input = attribute.value;
        let timer;
        const send = () => {
          clearTimeout(timer);
          this.debounced.delete(send);
          delete element.dataset.dirty;
          const payload = payloadOf(element, item ? item() : undefined, key);
          this.send(input, payload).catch(() => {});
          if (event === "submit" && element.dataset.reset !== undefined) element.reset();
        };
        element.addEventListener(event, (domEvent) => {
          if (event === "submit" || event === "click") domEvent.preventDefault();
          domEvent.stopPropagation();
          if (event === "input") {
            element.dataset.dirty = "1";
            clearTimeout(timer);
            this.debounced.add(send);
            timer = setTimeout(send, Number(element.dataset.debounce ?? 250));
          } else {
            // Typing not yet sent goes first: "type, then click Send" sends the text.
            for (const pending of [...this.debounced]) pending();
            send();
          }
        });
      }
    }
  }
}

/** Creates a session of `viewModel` (or joins `?session=` from the URL) and binds `root`. */
export async function connect(root, viewModel, parameters, options) {
  let sessionId = new URLSearchParams(location.search).get("session");
  const created = !sessionId;
  if (created) {
    const response = await fetch(api(viewModel), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: parameters === undefined ? "" : JSON.stringify(parameters),
    });
    const snapshot = await response.json();
    if (!response.ok) throw Object.assign(new Error(snapshot.message), snapshot);
    sessionId = snapshot.id;
    const url = new URL(location.href);
    url.searchParams.set("session", sessionId);
    history.replaceState(null, "", url);
  }
  const binding = new Binding(root, viewModel, sessionId, options).start();
  // Inputs a new session needs once, like viewDidLoad (`data-bindery-start="reload"`).
  if (created && root.dataset.binderyStart) {
    for (const input of root.dataset.binderyStart.split(",")) await binding.send(input.trim()).catch(() => {});
  }
  return binding;
}

/** Binds every `[data-bindery]` element of the page. */
export async function bindPage() {
  const bindings = [];
  for (const root of document.querySelectorAll("[data-bindery]")) {
    const parameters = root.dataset.binderyParams ? JSON.parse(root.dataset.binderyParams) : undefined;
    bindings.push(await connect(root, root.dataset.bindery, parameters));
  }
  window.bindery = bindings.length === 1 ? bindings[0] : bindings;
  document.dispatchEvent(new CustomEvent("bindery:ready", { detail: bindings }));
  return bindings;
}

// Pages without [data-bindery] (the inspector) bind by hand with `connect`.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindPage);
else bindPage();
