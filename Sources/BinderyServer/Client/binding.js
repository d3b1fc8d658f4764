// Bindery browser client: a page's connection to one session (Binding). See bindery.js.

import { pick, outputOf, setAttribute, applyBindings, bindItem, isOutputAttribute, payloadOf, makeActivatable } from "./dom.js";
import { openEventSource, SharedStream } from "./feeds.js";
import { showNotice, hideNotice, showFlash } from "./notice.js";
import { isChanges, applyChanges } from "./changes.js";
import { follow } from "./navigation.js";

const api = (path) => `/api/${path}`;

/**
 * What a session id looks like (the server's 22 characters, or a cluster
 * proxy's 32 hex digits): the server refuses anything else with 400 before looking.
 */
const SESSION_ID = /^(?:[A-Za-z0-9_-]{22}|[0-9a-f]{32})$/;

/** How long a hidden page keeps its stream before releasing it. */
const RELEASE_HIDDEN_MS = 2000;
/** Most inputs a page holds while it cannot send them; more are refused. */
const MAX_WAITING_INPUTS = 100;

/**
 * `ms` spread at random over [0.5, 1.5] × `ms`. When a node of a cluster dies,
 * every page it served loses its stream in the same instant; without the
 * spread they would all come back in the same instant too, on the node that
 * now has to rebuild every one of their sessions.
 */
const jitter = (ms) => ms * (0.5 + Math.random());
/** Milliseconds to wait before retry number `attempt` (0, 1, …): 250 ms doubling to 5 s, spread by `jitter`. */
const backoff = (attempt) => jitter(Math.min(5000, 250 * 2 ** attempt));
/** How long a page waits, spread by `jitter`, before it asks after a stream that failed: the server's default `retry:`. */
const RECONNECT_MS = 1000;
/**
 * Whether `response` is a proxy's own answer that no node gave (nginx's 502,
 * 503 or 504 when a node died or none answers in time): the server could not
 * be reached, as if there were no answer. A node's own errors are JSON with a code.
 */
const fromProxy = (response, body) => [502, 503, 504].includes(response.status) && typeof body?.error !== "string";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Whether a node answered that it could not apply the input now, and that
 * sending it again later is safe (with its key): its database is away or its
 * disk full (`applied: false`), a shared ViewModel's owner did not answer in
 * time, or the input's work outlasted the held-answer limit (a repeat with the
 * same key gets how that work ended).
 */
const answerLater = (response, body) =>
  ["database_unavailable", "storage_full", "store_unavailable", "answer_timeout"].includes(body?.error) && response.status >= 500;
/** How long to wait before sending again after `answerLater`: its `Retry-After`, at most 5 s, and at least the backoff. */
const retryDelay = (response, attempt) =>
  Math.min(5000, Math.max(backoff(attempt), 1000 * (Number(response.headers.get("Retry-After")) || 0)));
/** A key of the client's for one input (`Idempotency-Key`): sent again with it, the input is not applied again. */
const inputKey = () =>
  crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
/** Where a page keeps the inputs it has not had answered, so that a reload sends them still: per tab, by session. */
const storageKey = (viewModel, sessionId) => `bindery.inputs.${viewModel}/${sessionId ?? "-"}`;
/** A list item's key: its `keyField`, else its place in the list. */
const keyOf = (item, keyField, index) => (item != null && typeof item === "object" && keyField in item ? item[keyField] : index);
/** A form's submit button. */
const SUBMIT_BUTTON = "button:not([type]), button[type='submit'], input[type='submit']";

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
    // The server's first paint: the session it rendered the root with ({snapshot, created}).
    this.#adopt = options.adopt ?? null;
    // The URL's query parameter that holds this root's session (several roots on a page each have one).
    this.sessionParameter = options.sessionParameter ?? "session";
    this.root = root;
    this.viewModel = viewModel;
    this.sessionId = sessionId ?? null;
    this.values = new Map();
    this.state = "connecting";
    this.transport = null;
    this.lastEventId = null;
    this.lists = new Map();
    this.debounced = new Set();
    /**
     * Inputs not yet answered, in order: {input, payload, key, resolve, reject}.
     * Kept in the tab's sessionStorage as they change, so that a reload (the
     * page was offline, or its server could not save) sends them still, each
     * with its key: once, whether or not the server had it before.
     */
    this.queue = this.#restoreQueue();
    this.#ready = new Promise((resolve) => (this.#readyResolve = resolve));
    if (this.sessionId) this.#reachable.open();
    this.#wire(root);
    // A screen reader hears the connection change and an error appear, as a sighted user sees them.
    for (const element of document.querySelectorAll("[data-bindery-connection]")) {
      if (!element.hasAttribute("aria-live")) element.setAttribute("aria-live", "polite");
    }
    for (const element of root.querySelectorAll("[data-bindery-errors]")) {
      if (!element.hasAttribute("role")) element.setAttribute("role", "alert");
    }
    // A page kept in the back/forward cache would keep its stream open, and a
    // browser allows only six HTTP/1.1 connections per host: after a few
    // navigations new requests would stall. Close on the way out, resume on return.
    const signal = this.#listening.signal;
    addEventListener("pagehide", () => this.#closeFeed(), { signal });
    addEventListener(
      "pageshow",
      (event) => {
        if (event.persisted) this.#openFeed();
      },
      { signal },
    );
    document.addEventListener("visibilitychange", () => this.#visibilityChanged(), { signal });
    // Back on the network: ask at once rather than at the next backoff.
    addEventListener(
      "online",
      () => {
        if (this.state === "offline") this.#check();
      },
      { signal },
    );
  }

  /** The window's and document's listeners of this binding, removed by `dispose`. */
  #listening = new AbortController();

  /**
   * Lets go of the page's root for good (the page changed in place): the stream closes and
   * nothing of this binding listens any more. Inputs still waiting are refused.
   */
  dispose() {
    this.stop();
    this.#listening.abort();
    for (const item of this.queue.splice(0)) item.reject(new Error("the page was left"));
    this.#storeQueue();
  }

  #feed = null;
  #feedState = "connecting";
  #wanted = false;
  #paused = false;
  #hideTimer = null;
  #failures = 0;
  #reachable = new Gate();
  #checking = null;
  /** The rows `#renderList` and `#changeList` made: bound to their items only. */
  #rows = new WeakSet();
  #creating = null;
  #draining = false;
  #snapshotId = null;
  #snapshotNames = new Set();
  #ready;
  #readyResolve;
  #adopt;

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
    if (this.#adopt) {
      const { snapshot, created } = this.#adopt;
      this.#adopt = null;
      this.#adopted(snapshot, created);
    } else if (this.sessionId && !SESSION_ID.test(this.sessionId)) {
      // No server ever made it (a mangled or hand-edited URL): start a new one, as for a gone session.
      this.sessionId = null;
      this.#create(true);
    } else if (this.sessionId) {
      this.#readyResolve();
      this.#openFeed();
      // What a page before this reload left unsent.
      if (this.queue.length > 0) {
        this.#showPending();
        this.#drain();
      }
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
    for (const control of this.root.querySelectorAll("[data-bindery-held-by-failure]")) {
      control.disabled = false;
      delete control.dataset.binderyHeldByFailure;
    }
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
      const item = { input, payload, key: inputKey(), resolve, reject };
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
    return this.state === "ended" || this.state === "failed" || this.state === "unauthenticated";
  }

  #terminalMessage() {
    if (this.state === "unauthenticated") return "sign in first";
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
        if ((response.status === 503 && body?.error === "shutting_down") || fromProxy(response, body)) {
          this.#setState("offline");
          await sleep(backoff(attempt));
          continue;
        }
        if (response.status === 401) return this.#unauthenticated(body);
        // A 4xx other than 429 will not change if asked again: the page's address or parameters are refused.
        const lasting = response.status >= 400 && response.status < 500 && response.status !== 429;
        return this.#fail(body?.message ?? `the server answered ${response.status} ${response.statusText}`, lasting);
      }
    })().finally(() => (this.#creating = null));
    return this.#creating;
  }

  #created(snapshot, recovering) {
    this.sessionId = snapshot.id;
    this.#snapshotId = null;
    const url = new URL(location.href);
    url.searchParams.set(this.sessionParameter, this.sessionId);
    history.replaceState(history.state, "", url);
    // The answer holds every driver's value: the stream only needs what comes after it.
    this.#applySnapshot(snapshot);
    this.lastEventId = snapshot.lastEventId != null ? String(snapshot.lastEventId) : null;
    // Inputs a new session needs once, like viewDidLoad, go before anything the user queued.
    // Then what each field shows, as a field bound on iOS emits its value when it is bound
    // (`textField.rx.text`): the ViewModel starts from the page as it is.
    const initial = this.startInputs.map((input) => ({ input, payload: undefined }));
    initial.push(...initialValues(this.root));
    this.queue.unshift(...initial.map(({ input, payload }) => ({ input, payload, key: inputKey(), resolve() {}, reject() {} })));
    this.#showPending();
    if (recovering) {
      showNotice("recovered", "The server restarted or forgot this page's session: the page started a new one.", undefined, { fades: true });
      this.dispatchEvent(new CustomEvent("recovered", { detail: { sessionId: this.sessionId } }));
    }
    if (this.state === "offline" || this.state === "connecting") this.#setState(this.#wanted ? "connecting" : "closed");
    this.#reachable.open();
    this.#readyResolve();
    this.#openFeed();
    this.#drain();
  }

  /**
   * Takes over the session the server rendered the page with: its values are on the
   * page already, so the stream starts after the snapshot's event. One the server
   * made for this page (`created`) had its start inputs there; what the fields show
   * goes as for a session this page creates.
   */
  #adopted(snapshot, created) {
    const url = new URL(location.href);
    if (url.searchParams.get(this.sessionParameter) !== this.sessionId) {
      url.searchParams.set(this.sessionParameter, this.sessionId);
      history.replaceState(history.state, "", url);
    }
    this.#applySnapshot(snapshot);
    this.lastEventId = snapshot.lastEventId != null ? String(snapshot.lastEventId) : null;
    if (created) {
      const initial = initialValues(this.root).map(({ input, payload }) => ({ input, payload, key: inputKey(), resolve() {}, reject() {} }));
      this.queue.unshift(...initial);
    }
    this.#readyResolve();
    this.#openFeed();
    if (this.queue.length > 0) {
      this.#showPending();
      this.#drain();
    }
  }

  /**
   * The server wants a signed-in browser (401): the page is told (an `unauthenticated`
   * event, state `unauthenticated` on the page) and, where it names its sign-in page
   * (`<html data-bindery-sign-in="/signin.html">`), goes there with `next` this page.
   */
  #unauthenticated(body) {
    this.#setState("unauthenticated");
    this.#reachable.open();
    this.#readyResolve();
    this.dispatchEvent(new CustomEvent("unauthenticated", { detail: body }));
    const page = document.documentElement.dataset.binderySignIn;
    if (page && !location.pathname.startsWith(page.split("?")[0])) {
      follow(`${page}${page.includes("?") ? "&" : "?"}next=${encodeURIComponent(location.pathname + location.search)}`);
    } else {
      this.#showError(body?.message ?? "sign in first");
    }
  }

  /**
   * The server refused to create a session: say so once, hold the page's
   * controls (nothing they send could go anywhere), and refuse what waits.
   * A refusal that asking again may change (the server busy or full) offers
   * to try again, in the notice; a lasting one (the page's parameters) is
   * said where the page shows errors, and only there.
   */
  #fail(message, lasting = false) {
    this.#setState("failed");
    for (const control of this.root.querySelectorAll("input, select, textarea, button")) {
      if (control.disabled) continue;
      control.disabled = true;
      control.dataset.binderyHeldByFailure = "";
    }
    if (lasting) {
      this.#showError(`This page cannot start: ${message}`);
    } else {
      for (const element of this.root.querySelectorAll("[data-bindery-errors]")) element.textContent = "";
      showNotice("error", `Could not start a session: ${message}`, { label: "Try again", run: () => this.retry() });
    }
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
        // A stream opens current; one from a server whose data is stale says so first thing.
        if (state === "open" && "binderyStale" in document.documentElement.dataset) this.#setStale(false);
        if (message) this.#showError(message);
        this.#setState(state);
      },
      trouble: () => {
        if (!current()) return;
        this.#feed = null;
        this.#failures++;
        this.#setState("connecting");
        // EventSource gives up for good on a proxy's 502 as on a 404: the page asks about
        // the session itself, after a spread delay (its node may have died with many others' streams).
        setTimeout(() => this.#check(), this.#failures === 1 ? jitter(RECONNECT_MS) : backoff(this.#failures));
      },
      gone: () => current() && this.#recover(this.sessionId),
      end: () => {
        if (!current()) return;
        this.#feed = null;
        this.#setState("ended");
        this.#drain();
      },
      reset: () => current() && this.values.clear(),
      stale: (isStale) => current() && this.#setStale(isStale),
      // Only a development server says this: its module is loaded then, and not otherwise.
      dev: (json) => current() && import("./development.js").then((development) => development.show(JSON.parse(json))),
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
    let value = JSON.parse(data);
    // A keyed list's changes come only after its whole value, to the list the page holds.
    if (isChanges(value)) {
      const current = this.values.get(name);
      if (!Array.isArray(current)) return;
      const changes = value["bindery.changes"];
      this.#apply(name, applyChanges(current, changes), id, { changes, before: current.length });
      return;
    }
    this.#apply(name, value, id);
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
    let unanswered = 0;
    try {
      while (this.queue.length > 0) {
        await this.#reachable.wait();
        if (this.#terminal) {
          for (const item of this.queue.splice(0)) this.#refuse(item, this.#terminalMessage());
          this.#showPending();
          break;
        }
        const item = this.queue[0];
        const sessionId = this.sessionId;
        let response, body;
        try {
          if (item.payload instanceof Blob) {
            ({ response, body } = await this.#upload(item));
          } else {
            response = await fetch(`${this.url}/inputs/${item.input}`, {
              method: "POST",
              headers: { "Content-Type": "application/json", "Idempotency-Key": item.key },
              body: item.payload === undefined ? "" : JSON.stringify(item.payload),
            });
            body = await response.json().catch(() => ({}));
          }
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
        if (fromProxy(response, body)) {
          // No node answered it (its node died): it waits at the head of the queue, as with no answer.
          await sleep(backoff(unanswered++));
          this.#check();
          continue;
        }
        if (answerLater(response, body)) {
          // The server is there but cannot apply it now: it waits at the head, said on the page, and goes again with its key.
          this.#showWaiting(body.message);
          await sleep(retryDelay(response, unanswered++));
          continue;
        }
        if (unanswered > 0) hideNotice("waiting");
        unanswered = 0;
        this.queue.splice(this.queue.indexOf(item), 1);
        this.#showPending();
        if (response.ok) {
          for (const element of this.root.querySelectorAll("[data-bindery-errors]")) element.textContent = "";
          // The input sends the page on (BrowserSignIn.go(to:)): once what waits is sent.
          const location = response.headers?.get?.("Bindery-Location");
          if (location?.startsWith("/") && !location.startsWith("//")) this.#afterInputs = location;
          this.#applySnapshot(body);
          item.resolve(body);
        } else if (response.status === 401) {
          this.#refuse(item, body.message ?? "sign in first", body);
          this.#unauthenticated(body);
        } else {
          this.#refuse(item, body.message ?? `the server answered ${response.status}`, body);
        }
      }
    } finally {
      this.#draining = false;
      const target = this.#afterInputs;
      this.#afterInputs = null;
      if (target && !this.#listening.signal.aborted) follow(target);
    }
  }

  /**
   * Where a ViewModel sent the page while its inputs were being sent: it goes there
   * once they are answered, so an input's answer (the cookie a sign-in or sign-out
   * sets with it, its errors) is taken before the page changes, and no input waiting
   * behind it is dropped by the change.
   */
  #afterInputs = null;

  /**
   * Sends a file as the body of an input (an upload), with its type and name, reporting
   * its progress: a `progress` event ({input, loaded, total}) and every
   * `[data-upload-progress="<input>"]` element of the root (a <progress>, shown while it
   * goes). Resolves like fetch's answer; rejects if there was none.
   */
  #upload(item) {
    const file = item.payload;
    const bars = [...this.root.querySelectorAll("[data-upload-progress]")].filter((bar) => bar.dataset.uploadProgress === item.input);
    const report = (loaded, total) => {
      for (const bar of bars) {
        bar.max = total || 1;
        bar.value = loaded;
        bar.hidden = false;
      }
      this.dispatchEvent(new CustomEvent("progress", { detail: { input: item.input, loaded, total } }));
    };
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", `${this.url}/inputs/${item.input}`);
      request.setRequestHeader("Content-Type", file.type || "application/octet-stream");
      request.setRequestHeader("Idempotency-Key", item.key);
      if (file.name) request.setRequestHeader("X-Bindery-Filename", encodeURIComponent(file.name));
      request.upload.addEventListener("progress", (event) => report(event.loaded, event.lengthComputable ? event.total : file.size));
      request.addEventListener("load", () => {
        report(file.size, file.size);
        for (const bar of bars) bar.hidden = true;
        let body = {};
        try {
          body = JSON.parse(request.responseText);
        } catch {}
        const response = {
          status: request.status,
          ok: request.status >= 200 && request.status < 300,
          headers: { get: (name) => request.getResponseHeader(name) },
        };
        resolve({ response, body });
      });
      const failed = () => {
        for (const bar of bars) bar.hidden = true;
        reject(new Error("no answer"));
      };
      request.addEventListener("error", failed);
      request.addEventListener("abort", failed);
      request.send(file);
    });
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

  /** The server said it cannot apply inputs now (its database or disk): say so, with what waits. */
  #showWaiting(reason) {
    const count = this.queue.length;
    const waiting = count === 1 ? "1 input waits" : `${count} inputs wait`;
    showNotice("waiting", `${reason ?? "The server cannot take inputs now"}. ${waiting} to be sent; trying again.`);
  }

  /** The queue as sessionStorage keeps it, for this page's session (and one made while it had none). */
  #restoreQueue() {
    const restored = [];
    for (const sessionId of new Set([this.sessionId, null])) {
      try {
        const key = storageKey(this.viewModel, sessionId);
        const items = JSON.parse(sessionStorage.getItem(key) ?? "[]");
        sessionStorage.removeItem(key);
        for (const { input, payload, key: inputKey } of items) {
          if (typeof input === "string" && typeof inputKey === "string") restored.push({ input, payload, key: inputKey, resolve() {}, reject() {} });
        }
      } catch {}
    }
    this.#storedUnder = null;
    return restored;
  }

  /** Writes the queue to sessionStorage under the current session (moving it from where it was). */
  #storeQueue() {
    const key = storageKey(this.viewModel, this.sessionId);
    try {
      if (this.#storedUnder && this.#storedUnder !== key) sessionStorage.removeItem(this.#storedUnder);
      if (this.queue.length === 0) sessionStorage.removeItem(key);
      // A file cannot be kept there: an upload waits as long as the page does.
      else {
        const kept = this.queue.filter(({ payload }) => !(payload instanceof Blob));
        sessionStorage.setItem(key, JSON.stringify(kept.map(({ input, payload, key }) => ({ input, payload, key }))));
      }
      this.#storedUnder = key;
    } catch {
      // No storage (a private window's quota): the queue lives as long as the page.
    }
  }

  #storedUnder = null;

  #showPending() {
    this.#storeQueue();
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

  /**
   * The server says what it shows may be behind (a cluster's node that cannot
   * reach its database: it serves what it has, and inputs wait), or current again.
   */
  #setStale(isStale) {
    if (isStale) document.documentElement.dataset.binderyStale = "";
    else delete document.documentElement.dataset.binderyStale;
    for (const element of document.querySelectorAll("[data-bindery-stale]")) element.hidden = !isStale;
    if (isStale) showNotice("stale", "The server cannot reach its database: what you see may be behind, and changes wait.");
    else hideNotice("stale");
    this.dispatchEvent(new CustomEvent("stale", { detail: isStale }));
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

  // The root and everything inside it but templates and list rows (bound only
  // to their items): what an output's value may change outside its lists.
  #elements() {
    const elements = [this.root];
    const walker = document.createTreeWalker(this.root, NodeFilter.SHOW_ELEMENT, {
      acceptNode: (node) =>
        node.tagName === "TEMPLATE" || this.#rows.has(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    while (walker.nextNode()) elements.push(walker.currentNode);
    return elements;
  }

  // Every output some element binds to.
  #outputNames() {
    const names = new Set(this.extraOutputs);
    for (const element of this.#elements()) {
      for (const attribute of element.attributes) {
        if (isOutputAttribute(attribute.name)) names.add(outputOf(attribute.value));
      }
    }
    return names;
  }

  // `change` is a keyed list's changes that made `value` of a list `before` items long.
  #apply(name, value, id, change = null) {
    this.values.set(name, value);
    const matches = (path) => outputOf(path) === name;
    for (const element of this.#elements()) {
      applyBindings(element, "data-", matches, (path) => pick(value, path));
      const list = element.dataset.list;
      if (list !== undefined && matches(list)) {
        if (change && list === name) this.#changeList(element, value, change);
        else this.#renderList(element, pick(value, list) ?? []);
      }
      if (element.dataset.toast !== undefined && matches(element.dataset.toast)) this.#toast(element, pick(value, element.dataset.toast));
      if (element.dataset.dialog !== undefined && matches(element.dataset.dialog)) this.#dialog(element, pick(value, element.dataset.dialog));
      if (element.dataset.navigate !== undefined && matches(element.dataset.navigate)) this.#navigate(element, pick(value, element.dataset.navigate));
      if (element.dataset.back !== undefined && matches(element.dataset.back)) this.#back(element, pick(value, element.dataset.back));
      if (element.dataset.flash !== undefined && matches(element.dataset.flash)) {
        const message = pick(value, element.dataset.flash);
        if (message != null && message !== "") showFlash(element, typeof message === "string" ? message : JSON.stringify(message));
      }
    }
    this.dispatchEvent(new CustomEvent("output", { detail: { name, value, id } }));
  }

  // Renders `items` into `container` from its <template>, keyed, in place.
  #renderList(container, items) {
    const template = container.querySelector(":scope > template");
    if (!template) return;
    const keyField = container.dataset.key ?? "id";
    let rendered = this.lists.get(container);
    // The rows the server rendered (the first paint), taken over by key as the list first renders.
    let served = new Map();
    if (!rendered) {
      rendered = new Map();
      this.lists.set(container, rendered);
      for (let row = template.nextElementSibling; row; row = row.nextElementSibling) {
        if (row.dataset.key !== undefined && !served.has(row.dataset.key)) served.set(row.dataset.key, row);
      }
    }
    const seen = new Set();
    let previous = template;
    items.forEach((item, index) => {
      const rawKey = keyOf(item, keyField, index);
      const key = String(rawKey);
      seen.add(key);
      const entry = rendered.get(key) ?? this.#servedRow(served, rendered, rawKey, keyField) ?? this.#newRow(template, rendered, rawKey, keyField);
      this.#showRow(entry, item);
      if (previous.nextElementSibling !== entry.element) previous.after(entry.element);
      previous = entry.element;
    });
    for (const [key, entry] of rendered) {
      if (!seen.has(key)) {
        entry.element.remove();
        rendered.delete(key);
      }
    }
    for (const row of served.values()) row.remove();
  }

  // The server's row of `rawKey`, if it rendered one, wired to its item as a row of this list.
  #servedRow(served, rendered, rawKey, keyField) {
    const element = served.get(String(rawKey));
    if (!element) return null;
    served.delete(String(rawKey));
    const entry = { element, item: undefined };
    rendered.set(String(rawKey), entry);
    this.#rows.add(element);
    this.#wire(element, () => entry.item, rawKey, keyField);
    return entry;
  }

  /**
   * Applies a keyed list's changes to `container`'s rows, touching only the rows
   * they name: an add to a list of thousands costs one row. `items` is the list
   * after them; rows out of step with the list before (never rendered, a key
   * twice) are rendered whole from `items` instead.
   */
  #changeList(container, items, { changes, before }) {
    const template = container.querySelector(":scope > template");
    const rendered = this.lists.get(container);
    if (!template || !rendered || rendered.size !== before) return this.#renderList(container, items);
    const keyField = container.dataset.key ?? "id";
    const rows = container.children;
    const first = Array.prototype.indexOf.call(rows, template) + 1;
    const rowAt = (index) => rows[first + index] ?? null;
    for (const change of changes) {
      if (change.op === "insert") {
        const rawKey = keyOf(change.item, keyField, change.index);
        if (rendered.has(String(rawKey))) return this.#renderList(container, items);
        const entry = this.#newRow(template, rendered, rawKey, keyField);
        this.#showRow(entry, change.item);
        container.insertBefore(entry.element, rowAt(change.index));
      } else if (change.op === "update") {
        const entry = rendered.get(rowAt(change.index)?.dataset.key);
        if (!entry || String(keyOf(change.item, keyField, change.index)) !== entry.element.dataset.key) {
          return this.#renderList(container, items);
        }
        this.#showRow(entry, change.item);
      } else if (change.op === "remove") {
        const row = rowAt(change.index);
        if (!row) return this.#renderList(container, items);
        rendered.delete(row.dataset.key);
        row.remove();
      } else if (change.op === "move") {
        const row = rowAt(change.from);
        if (!row) return this.#renderList(container, items);
        row.remove();
        container.insertBefore(row, rowAt(change.to));
      }
    }
    if (rendered.size !== items.length) this.#renderList(container, items);
  }

  // A row for `rawKey`, from the list's template, wired to its item.
  #newRow(template, rendered, rawKey, keyField) {
    const element = template.content.firstElementChild.cloneNode(true);
    element.dataset.key = String(rawKey);
    const entry = { element, item: undefined };
    rendered.set(element.dataset.key, entry);
    this.#rows.add(element);
    this.#wire(element, () => entry.item, rawKey, keyField);
    return entry;
  }

  #showRow(entry, item) {
    entry.item = item;
    bindItem(entry.element, item);
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
    let target = null;
    if (typeof reference === "string") {
      // A path of this site ("/me"): the page goes there.
      if (reference.startsWith("/") && !reference.startsWith("//") && !reference.includes("\\")) target = reference;
    } else if (reference?.viewModel && reference.id) {
      target = `${element.dataset.navigatePage ?? `/${reference.viewModel}.html`}?session=${encodeURIComponent(reference.id)}`;
    }
    if (!target) return;
    if (this.#draining) this.#afterInputs = target;
    else follow(target);
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
          // What the browser itself finds invalid (an empty or bad number, a
          // value out of min/max) is not sent: it says so at the field, as a
          // form's own validation would, rather than in the server's words.
          const invalid = invalidControl(element);
          for (const control of controlsOf(element)) control.removeAttribute("aria-invalid");
          if (invalid) {
            invalid.setAttribute("aria-invalid", "true");
            const label = invalid.labels?.[0]?.textContent.trim() || invalid.name || "";
            this.#showError(`${label ? `${label}: ` : ""}${invalid.validationMessage || "enter a number."}`);
            return Promise.resolve(undefined);
          }
          const payload = payloadOf(element, item ? item() : undefined, key, keyField);
          const sent = this.send(input, payload);
          sent.catch(() => {});
          if (event !== "input") this.#markLoading(element, sent);
          if (element instanceof HTMLFormElement) sent.finally(() => this.#showStored(element, item)).catch(() => {});
          if (event === "input") sent.finally(() => this.#releaseHeld(element)).catch(() => {});
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
            this.#holdSubmit(element);
          } else if (event === "submit" && domEvent.submitter?.dataset.binderyHeld !== undefined) {
            // Clicked while its output would keep it disabled but for the typing
            // not sent yet (data-enabled="canSend"): send the typing, and submit
            // only if the answer enables the button.
            const button = domEvent.submitter;
            this.#flushTyping().then(() => {
              this.#releaseHeld(button);
              if (!button.disabled) send();
            });
          } else {
            // Typing not yet sent goes first: "type, then click Send" sends the text.
            this.#flushTyping();
            send();
          }
        });
        if (event === "click") makeActivatable(element);
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

  // While a field's typing waits for its debounce, the form's submit button
  // may still be disabled by an output that typing will change (data-enabled=
  // "canSend"), and a click on a disabled button is lost. It is held enabled
  // (aria-disabled) until the typing is answered, and a click on it waits for
  // that answer (see the submit handler).
  #holdSubmit(field) {
    const button = (field.form ?? field.closest("form"))?.querySelector(SUBMIT_BUTTON);
    if (!button?.disabled || (button.dataset.enabled === undefined && button.dataset.disabled === undefined)) return;
    button.disabled = false;
    button.dataset.binderyHeld = "";
    button.setAttribute("aria-disabled", "true");
  }

  /** Gives a held button (of `element`'s form) back to its outputs. */
  #releaseHeld(element) {
    const form = element instanceof HTMLFormElement ? element : element.form ?? element.closest("form");
    const button = element.dataset?.binderyHeld !== undefined ? element : form?.querySelector(SUBMIT_BUTTON);
    if (button?.dataset.binderyHeld === undefined) return;
    delete button.dataset.binderyHeld;
    button.removeAttribute("aria-disabled");
    applyBindings(button, "data-", (path) => this.values.has(outputOf(path)), (path) => pick(this.values.get(outputOf(path)), path));
  }

  // The element a click or a submit came from shows that its input is on its
  // way (LiveView's phx-click-loading, htmx's htmx-request) until it is answered.
  #markLoading(element, sent) {
    element.dataset.binderyLoading = String(Number(element.dataset.binderyLoading ?? 0) + 1);
    element.classList.add("bindery-loading");
    element.setAttribute("aria-busy", "true");
    sent.finally(() => {
      const left = Number(element.dataset.binderyLoading ?? 1) - 1;
      if (left > 0) return (element.dataset.binderyLoading = String(left));
      delete element.dataset.binderyLoading;
      element.classList.remove("bindery-loading");
      element.removeAttribute("aria-busy");
    }).catch(() => {});
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
        const button = form.querySelector(SUBMIT_BUTTON);
        if (button) this.#releaseHeld(button);
        if (!button?.disabled) form.requestSubmit();
      });
    });
  }
}

/** The controls an element sends: itself, or a form's named fields. */
// The fields of `root` whose value a new session gets once, as it starts: a control
// with `data-on-input` or `data-on-change` whose value is the user's (no `data-value`
// binds it to an output, it is not in a list or a template, no `data-payload` fixes what
// it sends), unless it says `data-initial="none"`. A radio group's checked radio only;
// a field the browser finds invalid (a bad number) is not sent.
function initialValues(root) {
  const values = [];
  for (const element of root.querySelectorAll("input, select, textarea")) {
    const input = element.dataset.onInput ?? element.dataset.onChange;
    if (input === undefined || element.dataset.initial === "none") continue;
    if (element.dataset.value !== undefined || element.dataset.payload !== undefined) continue;
    if (element.closest("template, [data-list]")) continue;
    if (element.type === "radio" && !element.checked) continue;
    if (element.type === "file" || invalidControl(element)) continue;
    values.push({ input, payload: payloadOf(element) });
  }
  return values;
}

function controlsOf(element) {
  if (element instanceof HTMLFormElement) return [...element.elements].filter((control) => control.name);
  return "validity" in element && element.tagName !== "BUTTON" ? [element] : [];
}

/**
 * The first control of `element` that the browser finds invalid: a required field left
 * empty, a value out of its min/max, text in a number field (an empty optional one sends null).
 */
function invalidControl(element) {
  return controlsOf(element).find((control) => (control.willValidate && !control.checkValidity()) || control.validity?.badInput);
}
