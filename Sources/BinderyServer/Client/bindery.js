// Bindery browser client: connects a page to a ViewModel session and binds the
// DOM declaratively. Plain ES module, no build step, no dependencies.
//
// Root:    <main data-bindery="simple">          a new session of ViewModel "simple"
//                                                (or the one named by ?session=<sid>)
//          data-bindery-params='{"id": 3}'       creation parameters (JSON)
//          data-bindery-query="userID=user:number list"
//                                                creation parameters from the page's URL: each
//                                                `param[=queryName][:number]` takes ?queryName
//                                                (default: param's name) over data-bindery-params;
//                                                `:number` sends a number (text that is not one
//                                                goes as it is, so the server names the field)
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
//   data-toast="out"           each value shows briefly as a toast (signals), for
//                              data-toast-ms milliseconds (default 4000)
//   data-dialog="out"          each value opens the <dialog>: its data-item-* elements bind the
//                              value's fields, else its [data-dialog-text] shows the text
//   data-navigate="out"        a ViewModel reference moves the page to that session
//                              (data-navigate-page="/detail.html", default /<vm>.html)
//   data-back="out"            a truthy value goes back a page, like Back (a child screen
//                              that is done: data-back="saved"); a page opened directly
//                              goes to data-back-page (default "/")
//   Any output name works, "error", "open" and "message" included.
//
// Links:   <a href="/list.html" data-history-back>   Back to the page before, where this tab
//                                                    has one; else the link (no inline script:
//                                                    the server's Content-Security-Policy forbids it)
//
// DOM events → inputs:
//   data-on-<event>="input"    sends the input; the payload is data-payload (JSON), else
//                              for a form its fields as an object (or, with
//                              data-payload-field="name", that field's value), for a control its value,
//                              for a list item data-item-payload="field" (or the item's key;
//                              a form in a list row sends its fields and the row's key,
//                              {"id": 3, "title": "…"}, named by the list's data-key);
//                              sends go out in order, pending debounced input first
//   data-debounce="300"        milliseconds to wait for input events (default 250)
//   data-reset                 on a form: its fields are cleared as it is submitted (once read)
//   Enter in a form's field, or a click, acts on what was just typed: the debounced
//   input is sent first and its answer (the session's snapshot) updates the page, so a
//   submit button enabled by that input (data-enabled="canSend") is enabled in time.
//   A field the user is typing in keeps its text while its output changes (another tab);
//   once a form's input is answered its bound fields show the outputs again, so a change
//   the ViewModel refused (an empty title) does not stay on screen as if it were saved.
//
// State:   <span data-bindery-connection>    the connection, also <html data-bindery-state="…">:
//            connecting   opening the stream (or creating the session)
//            open         live
//            offline      the server cannot be reached; retrying with backoff
//            paused       the page is hidden and released its stream (resumes when shown)
//            closed       stopped by the page (`bindery.stop()`)
//            ended        the session was disposed; nothing more will come
//            failed       the server refused to create a session; the message says why
//          [data-bindery-errors]             the message of the last refused input or failed
//                                            create (else the notice shows it)
//          [data-bindery-notice]             a banner the client adds to <body> (a page may
//                                            place its own): data-kind="offline" (with the
//                                            number of waiting inputs), "recovered" (the
//                                            server lost the session and the page started a
//                                            new one) or "error"; a × dismisses it
//          [data-bindery-pending]            the number of inputs waiting to be sent, also
//                                            <html data-bindery-pending="n"> (absent at 0)
//
// Recovery: outputs arrive over server-sent events and resume after the last event id,
// so a dropped stream loses nothing. When the stream fails the client asks
// GET /api/<vm>/<sid>: 200 reopens the stream, a network error means the server is
// down (offline, retried with backoff), 404 means the session is gone (the server
// restarted, the session idled out, or ?session= is stale): the client creates a new
// session with the page's data-bindery-params, puts its id in the URL
// (history.replaceState), sends data-bindery-start again and shows the notice.
// Inputs are queued in order; while the server is unreachable they wait (and show as
// pending) and go to the new session if the old one is gone; an input the server
// refuses shows its message. None is dropped silently.
//
// Hidden pages (Page Visibility) release their stream two seconds after they are
// hidden and resume from the last event id when shown again.
//
// Many tabs, one connection: a browser allows six HTTP/1.1 connections per host and
// each tab would hold one stream. Where SharedWorker exists, every tab's sessions share
// one stream: bindery-worker.js, next to this file, reads GET /api/streams?sessions=…
// and hands each event to the tabs bound to its session. Elsewhere (or if the worker
// cannot start) each page uses its own EventSource. `bindery.transport` says which.

const api = (path) => `/api/${path}`;

/** What a session id looks like: the server refuses anything else with 400 before looking. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** How long a hidden page keeps its stream before releasing it. */
const RELEASE_HIDDEN_MS = 2000;
/** Most inputs a page holds while it cannot send them; more are refused. */
const MAX_WAITING_INPUTS = 100;

/** Milliseconds to wait before retry number `attempt` (0, 1, …): 250 ms doubling to 5 s, ±20 %. */
const backoff = (attempt) => Math.min(5000, 250 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

const OUTPUT_KINDS = /^data-(text|value|show|hide|disabled|enabled|list|toast|dialog|navigate|back|style-.+|attr-.+|class-.+)$/;

/**
 * The payload a DOM event carries to its input; `item` and `key` are a list
 * row's value and key (`keyField` names the key: the list's data-key).
 */
function payloadOf(element, item, key, keyField) {
  if (element.dataset.payload !== undefined) return JSON.parse(element.dataset.payload);
  if (item !== undefined && element.dataset.itemPayload) return pick(item, `.${element.dataset.itemPayload}`);
  if (element instanceof HTMLFormElement && element.dataset.payloadField) {
    return payloadOf(element.elements.namedItem(element.dataset.payloadField));
  }
  if (element instanceof HTMLFormElement) {
    // A form in a list row names its row: {"id": 3, "title": "oat milk"}.
    const fields = item !== undefined ? { [keyField]: key } : {};
    for (const control of element.elements) {
      if (!control.name) continue;
      if (control.type === "checkbox") fields[control.name] = control.checked;
      else if (control.type === "number" || control.type === "range") fields[control.name] = control.valueAsNumber;
      else fields[control.name] = control.value;
    }
    // A form without named fields sends nothing: what an input that takes no payload accepts.
    return Object.keys(fields).length > 0 ? fields : undefined;
  }
  if (item !== undefined) return key;
  if (element.type === "checkbox") return element.checked;
  if (element.type === "number" || element.type === "range") return element.valueAsNumber;
  if ("value" in element && element.tagName !== "BUTTON") return element.value;
  return undefined;
}

/** The page's notice banner: the page's own [data-bindery-notice], else one added to <body>. */
function noticeElement() {
  let element = document.querySelector("[data-bindery-notice]");
  if (!element) {
    element = document.createElement("div");
    element.className = "bindery-notice";
    element.dataset.binderyNotice = "";
    element.hidden = true;
    document.body.append(element);
  }
  element.setAttribute("role", "status");
  return element;
}

/** Shows `text` in the notice; `action` ({label, run}) adds a button. */
function showNotice(kind, text, action) {
  const element = noticeElement();
  element.replaceChildren();
  const message = document.createElement("span");
  message.className = "bindery-notice-text";
  message.textContent = text;
  element.append(message);
  if (action) {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: action.label });
    button.addEventListener("click", action.run);
    element.append(button);
  }
  const close = Object.assign(document.createElement("button"), { type: "button", textContent: "×", className: "bindery-notice-close" });
  close.setAttribute("aria-label", "dismiss");
  close.addEventListener("click", () => (element.hidden = true));
  element.append(close);
  element.dataset.kind = kind;
  element.hidden = false;
}

/** Hides the notice if it shows a notice of `kind`. */
function hideNotice(kind) {
  const element = document.querySelector("[data-bindery-notice]");
  if (element && element.dataset.kind === kind) element.hidden = true;
}

/** A promise-shaped latch: `wait()` resolves once the gate is open. */
class Gate {
  #open = false;
  #waiters = [];
  open() {
    this.#open = true;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
  close() { this.#open = false; }
  wait() { return this.#open ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve)); }
}

// A feed delivers one session's events to a listener and is closed with close():
//   event(name, data, id)   an output's event (data is the JSON text)
//   state(state, message)   "connecting", "open" or "offline"
//   trouble()               the connection failed; the feed is closed (the page checks the session)
//   gone()                  the session does not exist
//   end()                   the session was disposed
//   reset()                 the resume point was too old: a full snapshot follows
//   refused(body)           the server would not stream this session now (a limit)
//   lost()                  the feed stopped for a reason of its own; open another
//   direct()                the shared stream cannot take this session; use an EventSource

/** One EventSource per page: the feed where SharedWorker does not exist. */
function openEventSource(url, lastEventId, names, listener) {
  // EventSource resends Last-Event-ID itself only on its own reconnects; a new
  // one cannot set headers, so it names the id in the query.
  const resume = lastEventId != null ? `?lastEventId=${encodeURIComponent(lastEventId)}` : "";
  const source = new EventSource(`${url}/events${resume}`);
  // An output may be called "error", "open" or "message", the names EventSource
  // uses itself. Events from the server arrive as MessageEvents; the
  // connection's own open and error are plain Events.
  source.addEventListener("open", (event) => {
    if (!(event instanceof MessageEvent)) listener.state("open");
  });
  source.addEventListener("error", (event) => {
    if (event instanceof MessageEvent) return;
    // EventSource would retry by itself, but it cannot tell a restarted server
    // (404) from one that is down: the page asks the session itself.
    source.close();
    listener.trouble();
  });
  source.addEventListener("bindery.reset", () => listener.reset());
  source.addEventListener("bindery.end", () => {
    source.close();
    listener.end();
  });
  for (const name of names) {
    source.addEventListener(name, (event) => {
      if (event instanceof MessageEvent) listener.event(name, event.data, event.lastEventId || null);
    });
  }
  return { transport: "direct", close: () => source.close() };
}

/**
 * The page's port to bindery-worker.js, which holds one stream for every tab's
 * sessions. `SharedStream.get()` is null where SharedWorker does not exist or
 * the worker failed (then pages use EventSource).
 */
class SharedStream {
  static #instance;

  static get() {
    if (SharedStream.#instance === undefined) {
      try {
        SharedStream.#instance = typeof SharedWorker === "function" ? new SharedStream() : null;
      } catch {
        SharedStream.#instance = null;
      }
    }
    return SharedStream.#instance;
  }

  #port;
  #listeners = new Map();
  #next = 1;

  constructor() {
    const worker = new SharedWorker(new URL("bindery-worker.js", import.meta.url), { name: "bindery" });
    worker.addEventListener("error", () => this.#fail());
    this.#port = worker.port;
    this.#port.addEventListener("message", ({ data }) => this.#receive(data));
    this.#port.start();
    // The worker learns that this page is gone (a closed tab sends nothing else;
    // the worker's pings find the rest).
    addEventListener("pagehide", () => this.#port.postMessage({ type: "bye" }));
  }

  open(session, lastEventId, listener) {
    const sub = this.#next++;
    this.#listeners.set(sub, listener);
    this.#port.postMessage({ type: "subscribe", sub, session, lastEventId });
    return {
      transport: "shared",
      close: () => {
        if (this.#listeners.delete(sub)) this.#port.postMessage({ type: "unsubscribe", sub });
      },
    };
  }

  #receive(message) {
    if (message.type === "ping") return this.#port.postMessage({ type: "pong" });
    if (message.type === "unsupported") return this.#fail();
    if (message.type === "dropped") {
      // The worker gave up on this page (it did not answer, e.g. frozen): open again.
      const listeners = [...this.#listeners.values()];
      this.#listeners.clear();
      for (const listener of listeners) listener.lost();
      return;
    }
    const listener = this.#listeners.get(message.sub);
    if (!listener) return;
    if (message.type === "event") listener.event(message.event, message.data, message.id);
    else if (message.type === "state") listener.state(message.state, message.message);
    else if (message.type === "reset") listener.reset();
    else if (["gone", "end", "refused", "direct"].includes(message.type)) {
      this.#listeners.delete(message.sub);
      if (message.type === "refused") listener.refused(message.body);
      else listener[message.type]();
    }
  }

  // The worker cannot serve (it did not load, or the server has no /api/streams):
  // every page of this document falls back to EventSource.
  #fail() {
    SharedStream.#instance = null;
    const listeners = [...this.#listeners.values()];
    this.#listeners.clear();
    for (const listener of listeners) listener.lost();
  }
}

/** A page's connection to one session. */
export class Binding extends EventTarget {
  /**
   * `sessionId` null creates a session (with `options.parameters`, then sends
   * `options.start`); `options.outputs` names outputs to follow even if no
   * element binds them.
   */
  constructor(root, viewModel, sessionId, options = {}) {
    super();
    this.extraOutputs = options.outputs ?? [];
    this.parameters = options.parameters;
    this.startInputs = options.start ?? [];
    this.root = root;
    this.viewModel = viewModel;
    this.sessionId = sessionId ?? null;
    this.values = new Map();
    this.state = "connecting";
    this.transport = null;
    this.lastEventId = null;
    this.lists = new Map();
    this.debounced = new Set();
    /** Inputs not yet answered, in order: {input, payload, resolve, reject}. */
    this.queue = [];
    this.#ready = new Promise((resolve) => (this.#readyResolve = resolve));
    if (this.sessionId) this.#reachable.open();
    this.#wire(root);
    // A page kept in the back/forward cache would keep its stream open, and a
    // browser allows only six HTTP/1.1 connections per host: after a few
    // navigations new requests would stall. Close on the way out, resume on return.
    addEventListener("pagehide", () => this.#closeFeed());
    addEventListener("pageshow", (event) => {
      if (event.persisted) this.#openFeed();
    });
    document.addEventListener("visibilitychange", () => this.#visibilityChanged());
  }

  #feed = null;
  #feedState = "connecting";
  #wanted = false;
  #paused = false;
  #hideTimer = null;
  #failures = 0;
  #reachable = new Gate();
  #checking = null;
  #creating = null;
  #draining = false;
  #snapshotId = null;
  #snapshotNames = new Set();
  #ready;
  #readyResolve;

  get url() {
    return api(`${this.viewModel}/${this.sessionId}`);
  }

  /** Resolves once the binding has a session (or could not get one). */
  get ready() {
    return this.#ready;
  }

  /** Inputs waiting to be sent or answered. */
  get pending() {
    return this.queue.length;
  }

  /** Opens the event stream, resuming after the last event seen if there was one. */
  start() {
    this.#wanted = true;
    if (this.state === "closed") this.#setState("connecting");
    if (this.sessionId && !SESSION_ID.test(this.sessionId)) {
      // No server ever made it (a mangled or hand-edited URL): start a new one, as for a gone session.
      this.sessionId = null;
      this.#create(true);
    } else if (this.sessionId) {
      this.#readyResolve();
      this.#openFeed();
    } else {
      this.#create();
    }
    if (document.visibilityState === "hidden") this.#visibilityChanged();
    return this;
  }

  /** Closes the stream (`start()` resumes where it stopped). */
  stop() {
    this.#wanted = false;
    this.#paused = false;
    this.#closeFeed();
    if (!this.#terminal) this.#setState("closed");
  }

  /** Tries again to create a session after the server refused (the notice's button). */
  retry() {
    if (this.state !== "failed") return;
    this.#setState("connecting");
    hideNotice("error");
    this.#create();
  }

  /**
   * Sends one input; resolves with the snapshot after its effects. Sends go out
   * one after another in call order, so inputs reach the ViewModel as the user
   * made them. While the server cannot be reached they wait (to the new
   * session if the old one is gone); a refused input rejects and its message
   * shows on the page.
   */
  send(input, payload) {
    return new Promise((resolve, reject) => {
      const item = { input, payload, resolve, reject };
      if (this.#terminal) return this.#refuse(item, this.#terminalMessage());
      if (this.queue.length >= MAX_WAITING_INPUTS) {
        return this.#refuse(item, `${input} was not sent: ${this.queue.length} inputs already wait for the server`);
      }
      this.queue.push(item);
      this.#showPending();
      this.#drain();
    });
  }

  get #terminal() {
    return this.state === "ended" || this.state === "failed";
  }

  #terminalMessage() {
    return this.state === "ended" ? "this session has ended" : "this page has no session";
  }

  // --- session: create, check, recover

  /** Creates a session, retrying while the server cannot be reached. */
  #create(recovering = false) {
    if (this.#creating) return this.#creating;
    this.#reachable.close();
    this.#creating = (async () => {
      for (let attempt = 0; ; attempt++) {
        let response, body;
        try {
          response = await fetch(api(this.viewModel), {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: this.parameters === undefined ? "" : JSON.stringify(this.parameters),
          });
          body = await response.json().catch(() => null);
        } catch {
          this.#setState("offline");
          await sleep(backoff(attempt));
          continue;
        }
        if (response.ok && body?.id) return this.#created(body, recovering);
        if (response.status === 503 && body?.error === "shutting_down") {
          this.#setState("offline");
          await sleep(backoff(attempt));
          continue;
        }
        return this.#fail(body?.message ?? `the server answered ${response.status} ${response.statusText}`);
      }
    })().finally(() => (this.#creating = null));
    return this.#creating;
  }

  #created(snapshot, recovering) {
    this.sessionId = snapshot.id;
    this.#snapshotId = null;
    const url = new URL(location.href);
    url.searchParams.set("session", this.sessionId);
    history.replaceState(history.state, "", url);
    // The answer holds every driver's value: the stream only needs what comes after it.
    this.#applySnapshot(snapshot);
    this.lastEventId = snapshot.lastEventId != null ? String(snapshot.lastEventId) : null;
    // Inputs a new session needs once, like viewDidLoad, go before anything the user queued.
    this.queue.unshift(...this.startInputs.map((input) => ({ input, payload: undefined, resolve() {}, reject() {} })));
    this.#showPending();
    if (recovering) {
      showNotice("recovered", "The server restarted or forgot this page's session: the page started a new one.");
      this.dispatchEvent(new CustomEvent("recovered", { detail: { sessionId: this.sessionId } }));
    }
    if (this.state === "offline" || this.state === "connecting") this.#setState(this.#wanted ? "connecting" : "closed");
    this.#reachable.open();
    this.#readyResolve();
    this.#openFeed();
    this.#drain();
  }

  /** The server refused to create a session: say so, and refuse what waits. */
  #fail(message) {
    this.#setState("failed");
    this.#showError(`Could not start a session: ${message}`, { label: "Try again", run: () => this.retry() });
    this.#reachable.open();
    this.#readyResolve();
    this.#drain();
  }

  /**
   * Asks the server about the session after a failure: 200 → reachable (the
   * stream reopens), 404 → gone (recover), no answer → offline, retried with backoff.
   */
  #check() {
    if (this.#checking || this.#creating) return;
    this.#reachable.close();
    this.#checking = (async () => {
      for (let attempt = 0; ; attempt++) {
        const sessionId = this.sessionId;
        let response = null;
        try {
          response = await fetch(this.url, { headers: { Accept: "application/json" }, cache: "no-store" });
        } catch {}
        if (sessionId !== this.sessionId || this.#terminal) return;
        if (response?.ok) return this.#online();
        if (response?.status === 404) return this.#recover(sessionId);
        this.#setState("offline");
        await sleep(backoff(attempt));
      }
    })().finally(() => (this.#checking = null));
  }

  #online() {
    this.#reachable.open();
    if (this.state === "offline") this.#setState(this.#feed ? this.#feedState : "connecting");
    if (!this.#feed && this.#wanted && !this.#paused) {
      // A stream that keeps failing on a live session (a limit) is retried with backoff.
      setTimeout(() => this.#openFeed(), this.#failures === 0 ? 0 : backoff(this.#failures));
    }
    this.#drain();
  }

  /** The session `sessionId` is gone: start a new one in its place. */
  #recover(sessionId) {
    if (sessionId !== this.sessionId || this.#terminal) return;
    this.#closeFeed();
    this.sessionId = null;
    this.lastEventId = null;
    this.#snapshotId = null;
    this.#snapshotNames = new Set();
    this.#create(true);
  }

  // --- the stream

  #openFeed(direct = false) {
    if (!this.#wanted || this.#paused || !this.sessionId || this.#feed || this.#terminal) return;
    const listener = this.#listener();
    const shared = direct ? null : SharedStream.get();
    this.#feed = shared
      ? shared.open(`${this.viewModel}/${this.sessionId}`, this.lastEventId, listener)
      : openEventSource(this.url, this.lastEventId, this.#outputNames(), listener);
    this.transport = this.#feed.transport;
    listener.feed = this.#feed;
    this.#feedState = "connecting";
    if (this.state !== "offline") this.#setState("connecting");
  }

  #closeFeed() {
    this.#feed?.close();
    this.#feed = null;
  }

  // Callbacks for one feed; those of a feed already closed are ignored.
  #listener() {
    const listener = {
      feed: null,
      event: (name, data, id) => current() && this.#receive(name, data, id),
      state: (state, message) => {
        if (!current()) return;
        this.#feedState = state;
        if (state === "open") this.#failures = 0;
        if (message) this.#showError(message);
        this.#setState(state);
      },
      trouble: () => {
        if (!current()) return;
        this.#feed = null;
        this.#failures++;
        this.#setState("connecting");
        this.#check();
      },
      gone: () => current() && this.#recover(this.sessionId),
      end: () => {
        if (!current()) return;
        this.#feed = null;
        this.#setState("ended");
        this.#drain();
      },
      reset: () => current() && this.values.clear(),
      refused: (body) => {
        if (!current()) return;
        this.#feed = null;
        this.#failures++;
        this.#showError(body?.message ?? "the server would not stream this session");
        this.#setState("connecting");
        setTimeout(() => this.#openFeed(), backoff(this.#failures));
      },
      lost: () => {
        if (!current()) return;
        this.#feed = null;
        this.#openFeed();
      },
      direct: () => {
        if (!current()) return;
        this.#feed = null;
        this.#openFeed(true);
      },
    };
    const current = () => listener.feed !== null && this.#feed === listener.feed;
    return listener;
  }

  #receive(name, data, id) {
    if (id != null && (this.lastEventId == null || Number(id) > Number(this.lastEventId))) this.lastEventId = String(id);
    // An input's answer may already have shown this driver's value or a newer one.
    if (id != null && this.#snapshotId != null && Number(id) <= this.#snapshotId && this.#snapshotNames.has(name)) return;
    this.#apply(name, JSON.parse(data), id);
  }

  /**
   * Applies a snapshot (an input's answer) unless the stream is already past
   * it: drivers then show an input's effects even before its events arrive.
   */
  #applySnapshot(snapshot) {
    const id = Number(snapshot.lastEventId);
    if (snapshot.id !== this.sessionId || !Number.isFinite(id)) return;
    if (this.#snapshotId != null && id <= this.#snapshotId) return;
    if (this.lastEventId != null && id <= Number(this.lastEventId)) return;
    this.#snapshotId = id;
    this.#snapshotNames = new Set(Object.keys(snapshot.outputs ?? {}));
    for (const [name, value] of Object.entries(snapshot.outputs ?? {})) {
      if (this.values.has(name) && JSON.stringify(this.values.get(name)) === JSON.stringify(value)) continue;
      this.#apply(name, value, null);
    }
  }

  #visibilityChanged() {
    clearTimeout(this.#hideTimer);
    if (document.visibilityState === "hidden") {
      // A short delay: switching tabs back and forth keeps the stream.
      this.#hideTimer = setTimeout(() => {
        if (document.visibilityState !== "hidden" || !this.#wanted || this.#terminal) return;
        this.#paused = true;
        this.#closeFeed();
        this.#setState("paused");
      }, RELEASE_HIDDEN_MS);
    } else if (this.#paused) {
      this.#paused = false;
      this.#setState("connecting");
      this.#openFeed();
    }
  }

  // --- inputs

  /** Sends what waits, in order, whenever the server can take it. */
  async #drain() {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.queue.length > 0) {
        await this.#reachable.wait();
        if (this.#terminal) {
          for (const item of this.queue.splice(0)) this.#refuse(item, this.#terminalMessage());
          break;
        }
        const item = this.queue[0];
        const sessionId = this.sessionId;
        let response, body;
        try {
          response = await fetch(`${this.url}/inputs/${item.input}`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: item.payload === undefined ? "" : JSON.stringify(item.payload),
          });
          body = await response.json().catch(() => ({}));
        } catch {
          // No answer: the input waits at the head of the queue until the server is back.
          this.#check();
          continue;
        }
        if (response.status === 404 && body.error === "unknown_session") {
          if (sessionId === this.sessionId) this.#recover(sessionId);
          continue;
        }
        if (response.status === 503 && body.error === "shutting_down") {
          this.#check();
          continue;
        }
        this.queue.splice(this.queue.indexOf(item), 1);
        this.#showPending();
        if (response.ok) {
          for (const element of this.root.querySelectorAll("[data-bindery-errors]")) element.textContent = "";
          this.#applySnapshot(body);
          item.resolve(body);
        } else {
          this.#refuse(item, body.message ?? `the server answered ${response.status}`, body);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  #refuse(item, message, body = { error: "not_sent", message }) {
    this.#showError(message);
    this.dispatchEvent(new CustomEvent("error", { detail: body }));
    item.reject(Object.assign(new Error(message), body));
  }

  /** A message in the root's [data-bindery-errors], else in the notice. */
  #showError(message, action) {
    const targets = this.root.querySelectorAll("[data-bindery-errors]");
    for (const element of targets) element.textContent = message;
    if (targets.length === 0 || action) showNotice("error", message, action);
  }

  #showPending() {
    const count = this.queue.length;
    if (count > 0) document.documentElement.dataset.binderyPending = String(count);
    else delete document.documentElement.dataset.binderyPending;
    for (const element of document.body.querySelectorAll("[data-bindery-pending]")) {
      element.textContent = count > 0 ? `${count} waiting to be sent` : "";
      element.hidden = count === 0;
    }
    if (this.state === "offline") this.#showOffline();
  }

  #showOffline() {
    const count = this.queue.length;
    const waiting = count === 0 ? "" : ` ${count === 1 ? "1 input waits" : `${count} inputs wait`} to be sent.`;
    showNotice("offline", `The server cannot be reached; trying again.${waiting}`);
  }

  #setState(state) {
    if (this.state === "ended") return;
    this.state = state;
    for (const element of document.querySelectorAll("[data-bindery-connection]")) {
      element.textContent = state;
      element.dataset.state = state;
    }
    document.documentElement.dataset.binderyState = state;
    if (state === "offline") this.#showOffline();
    else hideNotice("offline");
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }

  // --- rendering

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

  #apply(name, value, id) {
    this.values.set(name, value);
    const matches = (path) => outputOf(path) === name;
    for (const element of this.#elements()) {
      applyBindings(element, "data-", matches, (path) => pick(value, path));
      const list = element.dataset.list;
      if (list !== undefined && matches(list)) this.#renderList(element, pick(value, list) ?? []);
      if (element.dataset.toast !== undefined && matches(element.dataset.toast)) this.#toast(element, pick(value, element.dataset.toast));
      if (element.dataset.dialog !== undefined && matches(element.dataset.dialog)) this.#dialog(element, pick(value, element.dataset.dialog));
      if (element.dataset.navigate !== undefined && matches(element.dataset.navigate)) this.#navigate(element, pick(value, element.dataset.navigate));
      if (element.dataset.back !== undefined && matches(element.dataset.back)) this.#back(element, pick(value, element.dataset.back));
    }
    this.dispatchEvent(new CustomEvent("output", { detail: { name, value, id } }));
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
        this.#wire(element, () => entry.item, rawKey, keyField);
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

  #back(element, done) {
    if (!done) return;
    // A page opened in a new tab or from a link elsewhere has nothing of ours to go back to.
    if (history.length > 1) history.back();
    else location.assign(element.dataset.backPage ?? "/");
  }

  // Wires DOM events under `scope` to inputs; `item()` gives a list item's value.
  #wire(scope, item, key, keyField) {
    const elements = [scope, ...scope.querySelectorAll("*")].filter((element) => !element.closest("template"));
    for (const element of elements) {
      if (item === undefined && element.closest("[data-list]") && element.closest("[data-list]") !== element) continue;
      // A bound field that is sent with its form (a row's title) keeps what the
      // user types while the output changes under it (another tab, another row).
      if ((element.dataset.value ?? element.dataset.itemValue) !== undefined && element.dataset.onInput === undefined) {
        element.addEventListener("input", () => (element.dataset.dirty = "1"));
      }
      for (const attribute of [...element.attributes]) {
        if (!attribute.name.startsWith("data-on-")) continue;
        const event = attribute.name.slice("data-on-".length);
        const input = attribute.value;
        let timer;
        const send = () => {
          clearTimeout(timer);
          this.debounced.delete(send);
          delete element.dataset.dirty;
          if (element instanceof HTMLFormElement) for (const control of element.elements) delete control.dataset.dirty;
          const payload = payloadOf(element, item ? item() : undefined, key, keyField);
          const sent = this.send(input, payload);
          sent.catch(() => {});
          if (element instanceof HTMLFormElement) sent.finally(() => this.#showStored(element, item)).catch(() => {});
          if (event === "submit" && element.dataset.reset !== undefined) element.reset();
          return sent;
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
            this.#flushTyping();
            send();
          }
        });
        if (event === "submit" && element instanceof HTMLFormElement) this.#submitOnEnter(element);
      }
    }
  }

  // Once a form's input is answered its bound fields show the outputs again, so
  // a change the ViewModel refused (an empty title) does not stay on screen as if
  // it were saved: an unchanged output sends no new value to put it back.
  #showStored(form, item) {
    for (const control of form.elements) {
      if (item) applyBindings(control, "data-item-", () => true, (path) => (path === "." ? item() : pick(item(), `.${path}`)));
      else applyBindings(control, "data-", (path) => this.values.has(outputOf(path)), (path) => pick(this.values.get(outputOf(path)), path));
    }
  }

  /** Sends debounced input now; resolves when the server has answered it. */
  #flushTyping() {
    return Promise.allSettled([...this.debounced].map((pending) => pending()));
  }

  // Enter in a field submits the form only while its submit button is enabled,
  // and the button may wait for the input still being debounced (data-enabled="canSend"):
  // Enter right after typing would do nothing. Send the typing first, let its
  // answer update the page, then submit if the button is enabled by then.
  #submitOnEnter(form) {
    form.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing || !(event.target instanceof HTMLInputElement)) return;
      if (this.debounced.size === 0) return;
      event.preventDefault();
      this.#flushTyping().then(() => {
        const button = form.querySelector("button:not([type]), button[type='submit'], input[type='submit']");
        if (!button?.disabled) form.requestSubmit();
      });
    });
  }
}

/** Binds `root` to a new session of `viewModel`, or to `?session=` from the URL; resolves once it has a session. */
export async function connect(root, viewModel, parameters, options = {}) {
  const binding = bind(root, viewModel, parameters, options);
  await binding.ready;
  return binding;
}

function bind(root, viewModel, parameters, options = {}) {
  const sessionId = new URLSearchParams(location.search).get("session");
  const start = (root.dataset.binderyStart ?? "").split(",").map((input) => input.trim()).filter(Boolean);
  return new Binding(root, viewModel, sessionId, { start, parameters, ...options }).start();
}

/** A root's creation parameters: data-bindery-params, with data-bindery-query's values from the URL over them. */
function parametersOf(root) {
  const given = root.dataset.binderyParams ? JSON.parse(root.dataset.binderyParams) : undefined;
  if (!root.dataset.binderyQuery) return given;
  const search = new URLSearchParams(location.search);
  const parameters = { ...given };
  for (const entry of root.dataset.binderyQuery.split(/\s+/).filter(Boolean)) {
    const [binding, type] = entry.split(":");
    const [name, from = name] = binding.split("=");
    const text = search.get(from);
    if (text === null) continue;
    const number = Number(text);
    parameters[name] = type === "number" && text.trim() !== "" && !Number.isNaN(number) ? number : text;
  }
  return parameters;
}

/** Binds every `[data-bindery]` element of the page; `window.bindery` is the binding (or the list). */
export async function bindPage() {
  const bindings = [...document.querySelectorAll("[data-bindery]")].map((root) => bind(root, root.dataset.bindery, parametersOf(root)));
  window.bindery = bindings.length === 1 ? bindings[0] : bindings;
  await Promise.all(bindings.map((binding) => binding.ready));
  document.dispatchEvent(new CustomEvent("bindery:ready", { detail: bindings }));
  return bindings;
}

document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest("[data-history-back]") : null;
  if (!link || history.length < 2) return;
  event.preventDefault();
  history.back();
});

// Pages without [data-bindery] (the inspector) bind by hand with `connect`.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindPage);
else bindPage();
