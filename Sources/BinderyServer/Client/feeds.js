// Bindery browser client: the feeds a binding reads its session's events from,
// an EventSource per page or the SharedWorker's shared stream. See bindery.js.

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
//   stale(isStale)          the server says what it shows may be behind (its database is away), or current again
//   dev(json)               a development server's word about the app itself (a build, a crash, assets changed)

/** One EventSource per page: the feed where SharedWorker does not exist. */
export function openEventSource(url, lastEventId, names, listener) {
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
  source.addEventListener("bindery.stale", (event) => listener.stale(event.data === "true"));
  source.addEventListener("bindery.dev", (event) => listener.dev(event.data));
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
export class SharedStream {
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
    else if (message.type === "stale") listener.stale(message.stale);
    else if (message.type === "dev") listener.dev(message.data);
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

