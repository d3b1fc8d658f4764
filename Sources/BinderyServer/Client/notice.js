// Bindery browser client: the page's notice banner. See bindery.js.

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

/** How long a notice that needs nothing from the reader stays (unless the pointer or the focus is on it). */
const READ_SECONDS = 8;
let hideTimer = null;

/**
 * Shows `text` in the notice; `action` ({label, run}) adds a button. A notice
 * that only informs (`{ fades: true }`) hides by itself once read.
 */
export function showNotice(kind, text, action, { fades = false } = {}) {
  const element = noticeElement();
  clearTimeout(hideTimer);
  if (fades) {
    const hideWhenRead = () => {
      hideTimer = setTimeout(() => {
        if (element.matches(":hover, :focus-within")) return hideWhenRead();
        if (element.dataset.kind === kind) element.hidden = true;
      }, READ_SECONDS * 1000);
    };
    hideWhenRead();
  }
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
export function hideNotice(kind) {
  const element = document.querySelector("[data-bindery-notice]");
  if (element && element.dataset.kind === kind) element.hidden = true;
}

// --- Flash: a message that outlives the navigation that follows it ("Saved.", then back to the list).

/** Where a flash waits for the next page of this tab. */
const FLASH_KEY = "bindery.flash";
/** A flash carries to the next page if that navigation starts within this many milliseconds of it. */
const FLASH_CARRY_MS = 10_000;
let lastFlash = null;

/**
 * Shows a flash's `text` in `element` (its own text, shown) and keeps it to carry: if the page
 * is left soon after (the ViewModel navigated, the person followed a link), the next page of
 * this tab shows it, once (`showCarriedFlash`).
 */
export function showFlash(element, text) {
  element.textContent = text;
  element.hidden = false;
  element.setAttribute("role", "status");
  lastFlash = { text, at: Date.now() };
}

/** The page is left (for another document, or another page in place): a recent flash goes with it. */
export function carryFlash() {
  if (lastFlash && Date.now() - lastFlash.at < FLASH_CARRY_MS) {
    try {
      sessionStorage.setItem(FLASH_KEY, lastFlash.text);
    } catch {}
  }
  lastFlash = null;
}

addEventListener("pagehide", carryFlash);

/** The flash the page before this one left, in the page's [data-bindery-flash] (else the notice), once. */
export function showCarriedFlash() {
  let text = null;
  try {
    text = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {}
  if (!text) return;
  const places = [...document.querySelectorAll("[data-bindery-flash]")];
  if (places.length === 0) return showNotice("flash", text, undefined, { fades: true });
  for (const place of places) {
    place.textContent = text;
    place.hidden = false;
    place.setAttribute("role", "status");
  }
}
