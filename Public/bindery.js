// Bindery browser client: connects a page to a ViewModel session and binds the
// DOM declaratively. Plain ES module, no build step, no dependencies.
//
//   <main data-bindery="simple">                      ViewModel to run (a new session)
//     <button data-on-click="buttonTap"               DOM event → input
//             data-text="buttonTitle"></button>       output → textContent
//     <div data-style-background="backgroundColor">   output → style property
//   </main>
//   <span data-bindery-connection></span>             shows connecting / open / closed / ended
//                                                      (also on <html data-bindery-state>)
//
// Outputs arrive over server-sent events; EventSource reconnects by itself and
// resumes with Last-Event-ID, so the page recovers its state after a drop.

const api = (path) => `/api/${path}`;

/** A page's connection to one session. */
export class Binding extends EventTarget {
  constructor(root, viewModel, sessionId) {
    super();
    this.root = root;
    this.viewModel = viewModel;
    this.sessionId = sessionId;
    this.values = new Map();
    this.state = "connecting";
    this.source = null;
    this.lastEventId = null;
    this.#wireInputs();
  }

  get url() {
    return api(`${this.viewModel}/${this.sessionId}`);
  }

  /** Opens the event stream, resuming after the last event seen if there was one. */
  start() {
    this.#open();
    return this;
  }

  #open() {
    this.#setState("connecting");
    // EventSource resends Last-Event-ID itself when it reconnects; a fresh one
    // (after stop) cannot set headers, so it names the id in the query instead.
    const resume = this.lastEventId ? `?lastEventId=${encodeURIComponent(this.lastEventId)}` : "";
    const source = new EventSource(`${this.url}/events${resume}`);
    this.source = source;
    source.onopen = () => this.#setState("open");
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) this.#setState("closed");
      else this.#setState("connecting");
    };
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
  }

  /** Closes the stream (the page can `start()` again to resume). */
  stop() {
    this.source?.close();
    this.source = null;
    this.#setState("closed");
  }

  /** Sends one input; resolves with the snapshot after its effects. */
  async send(input, payload) {
    const response = await fetch(`${this.url}/inputs/${input}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: payload === undefined ? "" : JSON.stringify(payload),
    });
    const body = await response.json();
    if (!response.ok) {
      this.dispatchEvent(new CustomEvent("error", { detail: body }));
      throw Object.assign(new Error(body.message), body);
    }
    return body;
  }

  // The root and everything inside it.
  #elements() {
    return [this.root, ...this.root.querySelectorAll("*")];
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

  // Every output name some element of the page binds to.
  #outputNames() {
    const names = new Set();
    for (const element of this.#elements()) {
      for (const attribute of element.attributes) {
        if (attribute.name === "data-text" || attribute.name.startsWith("data-style-")) names.add(attribute.value);
      }
    }
    return names;
  }

  #apply(name, value) {
    this.values.set(name, value);
    for (const element of this.#elements()) {
      for (const attribute of element.attributes) {
        if (attribute.value !== name) continue;
        if (attribute.name === "data-text") element.textContent = value ?? "";
        if (attribute.name.startsWith("data-style-")) {
          element.style.setProperty(attribute.name.slice("data-style-".length), value ?? "");
        }
      }
    }
    this.dispatchEvent(new CustomEvent("output", { detail: { name, value } }));
  }

  #wireInputs() {
    for (const element of this.#elements()) {
      for (const attribute of element.attributes) {
        if (!attribute.name.startsWith("data-on-")) continue;
        const event = attribute.name.slice("data-on-".length);
        const input = attribute.value;
        element.addEventListener(event, (domEvent) => {
          domEvent.preventDefault();
          const raw = element.dataset.payload;
          this.send(input, raw === undefined ? undefined : JSON.parse(raw)).catch(() => {});
        });
      }
    }
  }
}

/** Creates a session of `viewModel` (or reuses `?session=` from the URL) and binds `root`. */
export async function connect(root, viewModel, parameters) {
  const existing = new URLSearchParams(location.search).get("session");
  let sessionId = existing;
  if (!sessionId) {
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
  return new Binding(root, viewModel, sessionId).start();
}

/** Binds every `[data-bindery]` element of the page. */
export async function bindPage() {
  const bindings = [];
  for (const root of document.querySelectorAll("[data-bindery]")) {
    bindings.push(await connect(root, root.dataset.bindery));
  }
  window.bindery = bindings.length === 1 ? bindings[0] : bindings;
  return bindings;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindPage);
else bindPage();
