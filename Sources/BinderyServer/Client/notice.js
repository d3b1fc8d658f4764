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
