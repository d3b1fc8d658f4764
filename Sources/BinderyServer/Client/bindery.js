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
//                              (data-navigate-page="/detail.html", default /<vm>.html); a path
//                              of this site ("/me") moves the page there
//   data-back="out"            a truthy value goes back a page, like Back (a child screen
//                              that is done: data-back="saved"); a page opened directly
//                              goes to data-back-page (default "/")
//   data-field-errors="out"    an object of messages by field name: each shown next to its
//                              field ([data-field-error="name"] or a span added after it),
//                              the field aria-invalid and aria-describedby its message
//   data-flash="out"           each value shown in the element and, if the page is left soon
//                              after, on the next page's [data-bindery-flash] (once)
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
//   For people, on every page: the clicked element has class bindery-loading and
//   aria-busy until its input is answered; a control disabled while focused gets the
//   focus back when enabled; a non-control with data-on-click is reached by Tab and
//   activated by Enter/Space (tabindex, role=button); [data-bindery-connection] is
//   aria-live, [data-bindery-errors] role=alert.
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
//            unauthenticated  the server wants a signed-in browser (401): the binding dispatches
//                         `unauthenticated`, and a page whose <html> has data-bindery-sign-in="/signin.html"
//                         goes there with ?next= this page
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
// First paint: the server sends a page with its roots rendered from their sessions
// (values, lists, classes, attributes; styles and signals wait for this script), each
// root marked with its session (data-bindery-session, data-bindery-snapshot). The
// client adopts that session instead of creating one, and its stream resumes after
// the snapshot's event: nothing is created twice, nothing is missed or shown twice.
// A session the server made for the page already had data-bindery-start's inputs;
// the page then sends what its fields show, as for a session it creates.
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
//
// Links: a link to another page of this app, a ViewModel's navigation and Back/Forward
// between such pages change the page in place (the next page fetched with its values, the
// connection kept) where the two pages share their scripts and stylesheets; else, or with
// data-bindery-reload on the link, the browser navigates (navigation.js).
//
// Modules, next to this file, no build step: binding.js (a page's connection to one
// session), feeds.js (EventSource and the shared stream), dom.js (bindings and payloads),
// kinds.js (the binding kinds), navigation.js (following links in place),
// changes.js (a keyed list's changes), notice.js (the banner), bindery-worker.js (the
// SharedWorker). This one binds the page.

import { Binding } from "./binding.js";
import { showCarriedFlash, carryFlash } from "./notice.js";
import { followLinks } from "./navigation.js";

export { Binding };

/** The binding of each bound root: a root is bound once. */
const bindings = new WeakMap();

/**
 * Binds `root` to a new session of `viewModel`, or to `?session=` from the URL; resolves once it
 * has a session. A root already bound (a `[data-bindery]` root the page binds by itself) keeps
 * its binding: that one is given back, since two would send every event twice.
 */
export async function connect(root, viewModel, parameters, options = {}) {
  const binding = bindings.get(root) ?? bind(root, viewModel, parameters, options);
  if (binding.viewModel !== viewModel) throw new Error(`bindery: this element is bound to ${binding.viewModel} already`);
  await binding.ready;
  return binding;
}

function bind(root, viewModel, parameters, options = {}) {
  const sessionParameter = options.sessionParameter ?? "session";
  const start = (root.dataset.binderyStart ?? "").split(",").map((input) => input.trim()).filter(Boolean);
  const adopt = renderedSession(root);
  const sessionId = adopt?.snapshot.id ?? new URLSearchParams(location.search).get(sessionParameter);
  const binding = new Binding(root, viewModel, sessionId, { start, parameters, sessionParameter, adopt, ...options });
  bindings.set(root, binding);
  return binding.start();
}

/**
 * The session the server rendered `root` with (its first paint), to adopt rather than
 * create one: {snapshot, created}, or null. The marks go once read.
 */
function renderedSession(root) {
  const { binderySession: id, binderySnapshot: json, binderyRendered: how } = root.dataset;
  for (const name of ["binderySession", "binderySnapshot", "binderyRendered"]) delete root.dataset[name];
  if (!id || !json) return null;
  try {
    const snapshot = JSON.parse(json);
    return snapshot?.id === id ? { snapshot, created: how === "created" } : null;
  } catch {
    return null;
  }
}

/**
 * The URL's query parameter of each root's session: `session-<key>` for a root with a
 * `data-bindery-key`; `session` for the first root without one (the page's own, what a
 * link to `<page>?session=<sid>` names); `session-<vm>` for any other. Two roots with
 * one parameter would share a session: the second is refused, in the console.
 */
function sessionParametersOf(roots) {
  const taken = new Set();
  let pageRoot = true;
  return roots.map((root) => {
    let key = root.dataset.binderyKey ?? null;
    if (key === null && !pageRoot) key = root.dataset.bindery;
    if (root.dataset.binderyKey === undefined) pageRoot = false;
    const parameter = key === null ? "session" : `session-${key}`;
    if (taken.has(parameter)) {
      console.error(`bindery: two roots keep their session in ?${parameter}=; give one a data-bindery-key`);
      return null;
    }
    taken.add(parameter);
    return parameter;
  });
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

/** The bindings `bindPage` made for the page shown now. */
let pageBindings = [];

/** Binds every `[data-bindery]` element of the page; `window.bindery` is the page's own binding, `window.binderyBindings` every one. */
export async function bindPage() {
  showCarriedFlash();
  const roots = [...document.querySelectorAll("[data-bindery]")];
  const parameters = sessionParametersOf(roots);
  const bindings = roots
    .map((root, index) => [root, parameters[index]])
    .filter(([, sessionParameter]) => sessionParameter !== null)
    .map(([root, sessionParameter]) => bind(root, root.dataset.bindery, parametersOf(root), { sessionParameter }));
  // The page's own binding (its session in ?session=), or else the first; all of them in binderyBindings.
  window.bindery = bindings.find((binding) => binding.sessionParameter === "session") ?? bindings[0];
  window.binderyBindings = bindings;
  pageBindings = bindings;
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

// Links to this app's pages change the page in place, the connection kept (navigation.js).
followLinks({
  leave() {
    if (pageBindings.some((binding) => binding.pending > 0)) return false;
    carryFlash();
    for (const binding of pageBindings) binding.dispose();
    pageBindings = [];
    return true;
  },
  arrive: () => bindPage(),
});

// A page back from the back/forward cache binds nothing again, but shows what the page it came from left.
addEventListener("pageshow", (event) => {
  if (event.persisted) showCarriedFlash();
});

// Pages without [data-bindery] (the inspector) bind by hand with `connect`.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindPage);
else bindPage();
