// Bindery browser client: what a development server says about the app itself
// (`bindery.dev`, `--development` only), shown over the page. See bindery.js.
//
// A notice ({state, problems, log} or {assets}) is one of:
//   state "building"   a rebuild is under way: a badge in a corner
//   state "failed"     it did not build: the compiler's errors, each with its file and line
//   state "crashed"    the last process trapped: where, and its last words
//   state "threw"      a ViewModel failed as it ran: its error, and where its output is declared
//   state "ok"         none of these any more
//   assets [paths]     files of the public folder changed: stylesheets are fetched again, else the page reloads
// Every element is made here with textContent: nothing in a notice is read as HTML.

const TITLES = {
  failed: "The app did not build",
  crashed: "The app crashed, and was started again",
  threw: "A ViewModel failed",
};
let reloading = false;

/** Shows `notice` (the same notice twice, from two sessions of the page, shows once). */
export function show(notice) {
  if (notice.assets) return changed(notice.assets);
  const state = notice.state;
  document.querySelector("[data-bindery-dev]")?.remove();
  if (!state || state === "ok") return;
  const panel = document.createElement("section");
  panel.dataset.binderyDev = state;
  if (state === "building") {
    panel.textContent = "Rebuilding…";
    panel.setAttribute("role", "status");
    Object.assign(panel.style, { ...BOX, top: "auto", left: "auto", padding: "0.4em 0.8em", background: "#1d4ed8" });
    return document.body.append(panel);
  }
  panel.setAttribute("role", "alert");
  panel.setAttribute("aria-label", TITLES[state] ?? "The app has a problem");
  Object.assign(panel.style, BOX);
  const close = element("button", "×", { float: "right", font: "inherit", background: "none", color: "inherit", border: "0" });
  close.type = "button";
  close.setAttribute("aria-label", "dismiss");
  close.addEventListener("click", () => panel.remove());
  panel.append(close, element("h2", TITLES[state] ?? state, { margin: "0 0 0.6em", fontSize: "1.1em" }));
  for (const problem of notice.problems ?? []) {
    const item = element("div", "", { margin: "0 0 0.8em" });
    item.dataset.binderyDevProblem = "";
    if (problem.file) {
      const place = [problem.file, problem.line, problem.column].filter((part) => part != null).join(":");
      const where = element("div", place, { color: "#93c5fd" });
      where.dataset.binderyDevPlace = "";
      item.append(where);
    }
    item.append(element("div", problem.message, { whiteSpace: "pre-wrap" }));
    if (problem.source != null) item.append(element("pre", problem.source, { margin: "0.3em 0", color: "#fde68a" }));
    panel.append(item);
  }
  if (notice.log) {
    const details = element("details", "", {});
    details.append(element("summary", "Output", { cursor: "pointer" }), element("pre", notice.log, { whiteSpace: "pre-wrap" }));
    panel.append(details);
  }
  document.body.append(panel);
}

/**
 * A stylesheet changed: the page's own stylesheets are fetched again in place (one
 * may @import another), and the page keeps everything else; any other file reloads it.
 */
function changed(paths) {
  if (reloading) return;
  if (paths.every((path) => path.endsWith(".css"))) {
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      const url = new URL(link.href);
      if (url.origin !== location.origin) continue;
      url.searchParams.set("bindery-dev", Date.now());
      link.href = url.href;
    }
    return;
  }
  reloading = true;
  location.reload();
}

const BOX = {
  position: "fixed", zIndex: "2147483647", top: "1em", right: "1em", left: "1em", maxHeight: "80vh", overflow: "auto",
  padding: "1em 1.2em", borderRadius: "6px", background: "#1f2937", color: "#f9fafb",
  font: "14px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace", boxShadow: "0 8px 30px rgb(0 0 0 / 0.35)",
};

function element(name, text, style) {
  const made = document.createElement(name);
  made.textContent = text;
  Object.assign(made.style, style);
  return made;
}
