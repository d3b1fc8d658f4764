// Bindery's shared stream: one SharedWorker per browser (and origin) holds a
// single GET /api/streams for the sessions of every tab, and hands each event
// to the tabs bound to its session. bindery.js starts it; a browser without
// SharedWorker gives each tab its own EventSource instead.
//
// Why: a browser allows six HTTP/1.1 connections per host. With one event
// stream per tab, the seventh tab's page never loads.
//
// Tabs talk to the worker over MessagePorts:
//   tab → worker   {type: "subscribe", sub, session: "<vm>/<sid>", lastEventId}
//                  {type: "unsubscribe", sub}    {type: "bye"} (pagehide)    {type: "pong"}
//   worker → tab   {type: "event", sub, event, data, id}    {type: "state", sub, state, message}
//                  {type: "reset" | "gone" | "end" | "direct", sub}    {type: "refused", sub, body}
//                  {type: "ping"}    {type: "dropped"}    {type: "unsupported"}
//
// The stream names each session with the lowest last event id its tabs have
// seen (or none: then it starts with the snapshot), and each tab gets only the
// events after its own last id, so tabs that joined at different points see
// every event once. Sessions cannot be added to an open stream: when the set
// changes (a tab opens, hides or closes) the worker opens a new stream with
// every session's last id, debounced, so ten tabs opening at once cause few
// reopens. Closed tabs say "bye" on pagehide; a tab that answers no ping for
// three rounds is forgotten too.
"use strict";

/** Wait this long for more changes before reopening the stream… */
const REOPEN_DEBOUNCE_MS = 100;
/** …but no longer than this after the first change… */
const REOPEN_MAX_WAIT_MS = 1000;
/** …and keep this much time between two opens. */
const REOPEN_MIN_INTERVAL_MS = 300;
const PING_MS = 5000;
/** The most sessions the server carries on one stream; tabs beyond use their own EventSource. */
const MAX_SESSIONS = 64;

/** MessagePort → {seen, subs: Map(sub → subscription)}. */
const tabs = new Map();
/** The stream open or being opened: {sessions, members, positions, controller, open}. */
let current = null;
let reopenTimer = null;
let reopenFirstAt = 0;
let lastOpenedAt = 0;
let failures = 0;
let retryMs = 1000;
/** The server has no /api/streams: every tab falls back to EventSource. */
let unsupported = false;

/**
 * `ms` spread at random over [0.5, 1.5] × `ms`. When a node of a cluster dies,
 * every browser it streamed to loses its stream in the same instant; waiting
 * exactly the server's `retry:` would bring them all back in the same instant
 * too, on the node that now rebuilds their sessions.
 */
const jitter = (ms) => ms * (0.5 + Math.random());
/** Milliseconds before retry number `attempt`: 250 ms doubling to 5 s, spread by `jitter`. */
const backoff = (attempt) => jitter(Math.min(5000, 250 * 2 ** attempt));

self.addEventListener("connect", (event) => {
  const port = event.ports[0];
  tab(port);
  port.addEventListener("message", ({ data }) => receive(port, data));
  port.start();
  if (unsupported) port.postMessage({ type: "unsupported" });
});

setInterval(() => {
  const now = Date.now();
  for (const [port, entry] of tabs) {
    if (now - entry.seen > 3 * PING_MS) {
      forget(port);
      port.postMessage({ type: "dropped" });
    } else {
      port.postMessage({ type: "ping" });
    }
  }
}, PING_MS);

function tab(port) {
  let entry = tabs.get(port);
  if (!entry) {
    entry = { seen: Date.now(), subs: new Map() };
    tabs.set(port, entry);
  }
  return entry;
}

function subscriptions() {
  return [...tabs.values()].flatMap((entry) => [...entry.subs.values()]);
}

function receive(port, message) {
  const entry = tab(port);
  entry.seen = Date.now();
  if (message.type === "subscribe") subscribe(port, message);
  else if (message.type === "unsubscribe") {
    const subscription = entry.subs.get(message.sub);
    if (subscription) drop(subscription);
  } else if (message.type === "bye") forget(port);
}

function subscribe(port, { sub, session, lastEventId }) {
  if (unsupported) return port.postMessage({ type: "unsupported" });
  const lastId = lastEventId == null || !Number.isFinite(Number(lastEventId)) ? null : Number(lastEventId);
  const subscription = { port, sub, session, lastId, live: false, state: null };
  tab(port).subs.set(sub, subscription);
  // A tab that has seen exactly what the open stream delivered joins it as it is.
  if (current?.open && current.sessions.has(session) && lastId !== null && current.positions.get(session) === lastId) {
    current.members.add(subscription);
    subscription.live = true;
    setState(subscription, "open");
    return;
  }
  setState(subscription, "connecting");
  scheduleReopen();
}

/** A tab no longer follows `subscription`'s session: release it from the stream if no tab does. */
function drop(subscription) {
  remove(subscription);
  if (subscriptions().length === 0) {
    clearTimeout(reopenTimer);
    reopenTimer = null;
    current?.controller.abort();
    current = null;
  } else if (!subscriptions().some((other) => other.session === subscription.session)) {
    scheduleReopen();
  }
}

function remove(subscription) {
  tabs.get(subscription.port)?.subs.delete(subscription.sub);
  current?.members.delete(subscription);
}

function forget(port) {
  const entry = tabs.get(port);
  if (!entry) return;
  for (const subscription of [...entry.subs.values()]) drop(subscription);
  tabs.delete(port);
}

function setState(subscription, state, message) {
  if (subscription.state === state && !message) return;
  subscription.state = state;
  subscription.port.postMessage({ type: "state", sub: subscription.sub, state, message });
}

function scheduleReopen() {
  const now = Date.now();
  // Nothing open and nothing planned: the first tab need not wait.
  const debounce = current === null && reopenTimer === null ? 0 : REOPEN_DEBOUNCE_MS;
  if (reopenTimer === null) reopenFirstAt = now;
  else clearTimeout(reopenTimer);
  const due = Math.max(Math.min(now + debounce, reopenFirstAt + REOPEN_MAX_WAIT_MS), lastOpenedAt + REOPEN_MIN_INTERVAL_MS);
  reopenTimer = setTimeout(reopen, Math.max(0, due - now));
}

function retryLater(delay) {
  clearTimeout(reopenTimer);
  reopenFirstAt = Date.now();
  reopenTimer = setTimeout(reopen, delay);
}

/** Every followed session with the lowest last id of its tabs (null: from the snapshot). */
function wanted() {
  const sessions = new Map();
  for (const { session, lastId } of subscriptions()) {
    if (!sessions.has(session)) sessions.set(session, lastId);
    else {
      const known = sessions.get(session);
      sessions.set(session, known === null || lastId === null ? null : Math.min(known, lastId));
    }
  }
  return sessions;
}

function reopen() {
  reopenTimer = null;
  current?.controller.abort();
  current = null;
  let list = [...wanted()];
  if (list.length === 0) return;
  if (list.length > MAX_SESSIONS) {
    const beyond = new Set(list.slice(MAX_SESSIONS).map(([session]) => session));
    for (const subscription of subscriptions()) {
      if (!beyond.has(subscription.session)) continue;
      remove(subscription);
      subscription.port.postMessage({ type: "direct", sub: subscription.sub });
    }
    list = list.slice(0, MAX_SESSIONS);
  }
  const stream = {
    sessions: new Map(list),
    members: new Set(subscriptions()),
    positions: new Map(list.filter(([, id]) => id !== null)),
    controller: new AbortController(),
    open: false,
  };
  current = stream;
  lastOpenedAt = Date.now();
  run(stream);
}

async function run(stream) {
  const query = [...stream.sessions].map(([session, id]) => (id === null ? session : `${session}@${id}`)).join(",");
  let response;
  try {
    response = await fetch(`/api/streams?sessions=${encodeURIComponent(query)}`, {
      headers: { Accept: "text/event-stream" },
      cache: "no-store",
      signal: stream.controller.signal,
    });
  } catch {
    return failed(stream, "offline");
  }
  if (stream !== current) return response.body?.cancel().catch(() => {});
  if (response.status === 404) return fallBack();
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    // A stopping server answers 503 before it goes: that is "offline" soon. So is
    // a proxy's own 502, 503 or 504 (no JSON error code): no node answered.
    const unreachable = body?.error === "shutting_down" || ([502, 503, 504].includes(response.status) && typeof body?.error !== "string");
    return failed(stream, unreachable ? "offline" : "connecting", unreachable ? undefined : body?.message);
  }
  stream.open = true;
  failures = 0;
  for (const subscription of stream.members) {
    subscription.live = true;
    setState(subscription, "open");
  }
  try {
    await readEvents(response.body, (event) => deliver(stream, event), (ms) => (retryMs = ms));
  } catch {}
  if (stream !== current) return;
  // The server ended the stream (it is stopping, or a session's queue
  // overflowed): open another with every session's last id.
  current = null;
  if (subscriptions().length === 0) return;
  for (const subscription of subscriptions()) setState(subscription, "connecting");
  retryLater(jitter(retryMs));
}

function failed(stream, state, message) {
  if (stream !== current) return;
  current = null;
  failures++;
  for (const subscription of subscriptions()) setState(subscription, state, message);
  retryLater(backoff(failures));
}

function fallBack() {
  unsupported = true;
  current = null;
  for (const [port, entry] of tabs) {
    entry.subs.clear();
    port.postMessage({ type: "unsupported" });
  }
}

/** Hands one event of the stream to the tabs bound to its session (the stream's own `bindery.stale` and `bindery.dev` to every tab). */
function deliver(stream, { type, data, id, session }) {
  if (stream !== current) return;
  if (session === null) {
    if (type === "bindery.stale") {
      for (const { port, sub, live } of [...stream.members]) if (live) port.postMessage({ type: "stale", sub, stale: data === "true" });
    } else if (type === "bindery.dev") {
      for (const { port, sub, live } of [...stream.members]) if (live) port.postMessage({ type: "dev", sub, data });
    }
    return;
  }
  const number = id === null ? null : Number(id);
  if (number !== null) stream.positions.set(session, number);
  for (const subscription of [...stream.members]) {
    if (subscription.session !== session || !subscription.live) continue;
    const { port, sub } = subscription;
    if (type === "bindery.gone" || type === "bindery.end" || type === "bindery.error") {
      // The server streams nothing more for this session; no reopen is needed to drop it.
      remove(subscription);
      if (type === "bindery.error") port.postMessage({ type: "refused", sub, body: parse(data) });
      else port.postMessage({ type: type === "bindery.gone" ? "gone" : "end", sub });
    } else if (type === "bindery.reset") {
      port.postMessage({ type: "reset", sub });
    } else if (!type.startsWith("bindery.")) {
      if (number !== null && subscription.lastId !== null && number <= subscription.lastId) continue;
      if (number !== null) subscription.lastId = number;
      port.postMessage({ type: "event", sub, event: type, data, id });
    }
  }
}

function parse(json) {
  try {
    return JSON.parse(json);
  } catch {
    return { message: json };
  }
}

/**
 * Reads a text/event-stream body and calls `dispatch({type, data, id, session})`
 * for each event, by the WHATWG rules: lines end in CRLF, LF or CR; `field:
 * value` loses one leading space; a line starting with ":" is a comment; a
 * blank line dispatches; data lines join with "\n"; an event without data is
 * not dispatched; a partial event at the end is dropped. Two differences fit
 * the multiplexed stream: `session` is a field of its own, and an event's id
 * is the one in its own block (ids belong to sessions, so they do not carry
 * over from one event to the next).
 */
async function readEvents(body, dispatch, setRetry) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let partial = "";
  let skipLF = false;
  let data = [];
  let type = "";
  let id = null;
  let session = null;
  const line = (text) => {
    if (text === "") {
      if (data.length > 0) dispatch({ type: type || "message", data: data.join("\n"), id, session });
      data = [];
      type = "";
      id = null;
      session = null;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") type = value;
    else if (field === "id") {
      if (!value.includes("\0")) id = value;
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) setRetry(Number(value));
    } else if (field === "session") session = value;
  };
  for (;;) {
    const { value: text, done } = await reader.read();
    if (done) return;
    let start = 0;
    // A CR ended the previous chunk: an LF starting this one belongs to it.
    if (skipLF && text.startsWith("\n")) start = 1;
    if (text.length > 0) skipLF = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      line(partial + text.slice(start, index));
      partial = "";
      if (code === 13) {
        if (index + 1 === text.length) skipLF = true;
        else if (text.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
    }
    partial += text.slice(start);
  }
}
