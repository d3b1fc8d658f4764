// Bindery browser client: following links between pages without a full reload. See bindery.js.
//
// A click on a link to another page of this origin, a ViewModel's navigation (data-navigate)
// and Back/Forward between such pages fetch the next page (which the server renders with its
// values, the first paint) and put its body in place of this one: the bound roots of the page
// left are let go, the new page's roots adopt their sessions, and the tab's connection (the
// SharedWorker's stream) stays. Where that cannot be right, the browser navigates as usual:
// a page with scripts of its own or other stylesheets, inputs still waiting to be sent, a link
// with a target, a download, data-bindery-reload, a modifier key, another origin, /api or a file.

/** How the page is changed: set by bindery.js (`follow` navigates in place through it). */
let navigator = null;
/** Whether this tab has changed pages in place: then every Back/Forward does too. */
let followed = false;

/** Navigates to `url`: in place where the page allows it, else as the browser would. */
export function follow(url) {
  if (navigator) navigator(new URL(url, location.href), { push: true });
  else location.assign(url);
}

/**
 * Follows links in place. `leave()` lets go of the page's bindings and says whether it may
 * (false: inputs wait); `arrive()` binds the page's new roots.
 */
export function followLinks({ leave, arrive }) {
  navigator = async (url, { push }) => {
    if (!(await changePage(url, { push, leave, arrive }))) location.assign(url);
  };
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || event.defaultPrevented || !followable(link, event)) return;
    event.preventDefault();
    navigator(new URL(link.href), { push: true });
  });
  addEventListener("popstate", () => {
    if (followed) navigator(new URL(location.href), { push: false });
  });
}

/** Whether a click on `link` may change the page in place. */
function followable(link, event) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.dataset.binderyReload !== undefined) return false;
  if (link.relList.contains("external") || link.dataset.historyBack !== undefined) return false;
  const url = new URL(link.href);
  if (url.origin !== location.origin) return false;
  // The same page with another fragment: the browser scrolls.
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return false;
  return isPagePath(url.pathname);
}

/** A path the app serves a page at: not the API or the client's files, and not a file other than .html. */
function isPagePath(path) {
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/_bindery/")) return false;
  const last = path.split("/").pop();
  return !last.includes(".") || last.endsWith(".html");
}

/**
 * The page's scripts and stylesheets, which a page changed in place must share. The client's
 * stylesheet is one file whether a page names it as written or under the release's digest (as
 * the server renders a page with bound roots).
 */
function resources(doc) {
  const release = /^\/_bindery\/v1\/[^/]+\/(?=[^/]+$)/;
  return JSON.stringify({
    scripts: [...doc.querySelectorAll("script")].map((script) => script.src ? new URL(script.src, location.href).pathname : "inline").sort(),
    styles: [...doc.querySelectorAll("link[rel~=stylesheet]")]
      .map((link) => new URL(link.href, location.href).pathname.replace(release, "/_bindery/v1/"))
      .sort(),
  });
}

/** Puts the page at `url` in place of this one; false where the browser must navigate instead. */
async function changePage(url, { push, leave, arrive }) {
  if (!isPagePath(url.pathname)) return false;
  let response, text;
  try {
    response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return false;
    text = await response.text();
  } catch {
    return false;
  }
  const next = new DOMParser().parseFromString(text, "text/html");
  if (resources(next) !== resources(document) || !leave()) return false;
  const arrived = new URL(response.url);
  arrived.hash = url.hash;
  document.title = next.title;
  document.documentElement.lang = next.documentElement.lang;
  document.body.replaceWith(document.adoptNode(next.body));
  if (push) history.pushState(null, "", arrived);
  else if (arrived.href !== location.href) history.replaceState(history.state, "", arrived);
  followed = true;
  if (push) scrollTo(0, 0);
  // Where a reader of the page starts: its heading, as a new page's load would put them at its top.
  const heading = document.querySelector("main h1, h1");
  if (heading) {
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
  await arrive();
  document.dispatchEvent(new CustomEvent("bindery:navigated", { detail: { url: location.href } }));
  return true;
}
