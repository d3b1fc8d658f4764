// Bindery browser client: HTML from an output, made safe (data-html). See bindery.js.
//
// An output bound with data-html (a Markdown article rendered on the server, a
// rich-text comment) goes in as elements, but only those of the table below, with
// only their listed attributes: anything else is unwrapped (its text kept), the
// "dropped" elements go with their content, comments go, a link or image whose URL
// has a scheme other than the listed ones loses it, and every link with an href
// gets rel="nofollow noopener noreferrer". The server's first paint sanitizes by this
// same table (Pages/SafeHTML.swift reads the object below as JSON), so a page is the
// same before and after its script runs, and neither trusts the value.
export const SAFE_HTML = {
  "elements": {
    "a": ["href", "title"], "abbr": ["title"], "b": [], "blockquote": [], "br": [], "code": [], "dd": [], "del": [],
    "div": [], "dl": [], "dt": [], "em": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [], "hr": [],
    "i": [], "img": ["src", "alt", "title", "width", "height"], "ins": [], "kbd": [], "li": [], "ol": ["start"],
    "p": [], "pre": [], "q": [], "s": [], "small": [], "span": [], "strong": [], "sub": [], "sup": [],
    "table": [], "tbody": [], "td": ["align"], "tfoot": [], "th": ["align"], "thead": [], "tr": [], "u": [], "ul": []
  },
  "dropped": [
    "base", "button", "embed", "form", "frame", "frameset", "head", "iframe", "input", "link", "math", "meta",
    "noembed", "noframes", "noscript", "object", "option", "plaintext", "script", "select", "style", "svg",
    "template", "textarea", "title", "xmp"
  ],
  "urls": ["href", "src"],
  "schemes": ["http", "https", "mailto"]
};

const ELEMENTS = new Map(Object.entries(SAFE_HTML.elements));
const DROPPED = new Set(SAFE_HTML.dropped);

/** Whether `url` may stay: relative, or of an allowed scheme (control characters and spaces, which browsers skip, ignored). */
export function isSafeURL(url) {
  const plain = String(url).replace(/[\u0000-\u0020\u007f]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(plain);
  return !scheme || SAFE_HTML.schemes.includes(scheme[1].toLowerCase());
}

/** `html` as a fragment of the table's elements only (parsed inert, in a template: nothing runs or loads first). */
export function safeFragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html == null ? "" : String(html);
  clean(template.content);
  return template.content;
}

function clean(parent) {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE) {
      node.remove();
      continue;
    }
    const name = node.localName;
    if (DROPPED.has(name) || node.namespaceURI !== "http://www.w3.org/1999/xhtml") {
      node.remove();
      continue;
    }
    clean(node);
    const allowed = ELEMENTS.get(name);
    if (!allowed) {
      node.replaceWith(...node.childNodes);
      continue;
    }
    for (const attribute of [...node.attributes]) {
      const keep = allowed.includes(attribute.name) && (!SAFE_HTML.urls.includes(attribute.name) || isSafeURL(attribute.value));
      if (!keep) node.removeAttribute(attribute.name);
    }
    if (name === "a" && node.hasAttribute("href")) node.setAttribute("rel", "nofollow noopener noreferrer");
  }
}
