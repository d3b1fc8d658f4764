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

/**
 * `html` as a fragment of the table's elements only. It is parsed into a document of its
 * own (DOMParser's: no window, so nothing in it runs or loads; an event handler attribute
 * in it is still reported by the page's Content-Security-Policy, as blocked), and the page
 * gets new elements made from what the table keeps of it, never a node of that parse.
 */
export function safeFragment(html) {
  const parsed = new DOMParser().parseFromString(html == null ? "" : String(html), "text/html");
  const fragment = document.createDocumentFragment();
  rebuild(parsed.body, fragment);
  return fragment;
}

const XHTML = "http://www.w3.org/1999/xhtml";

function rebuild(parent, into) {
  for (const node of parent.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      into.append(document.createTextNode(node.data));
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const name = node.localName;
    if (DROPPED.has(name) || node.namespaceURI !== XHTML) continue;
    const allowed = ELEMENTS.get(name);
    if (!allowed) {
      rebuild(node, into);
      continue;
    }
    const element = document.createElement(name);
    for (const attribute of node.attributes) {
      if (allowed.includes(attribute.name) && (!SAFE_HTML.urls.includes(attribute.name) || isSafeURL(attribute.value))) {
        element.setAttribute(attribute.name, attribute.value);
      }
    }
    if (name === "a" && element.hasAttribute("href")) element.setAttribute("rel", "nofollow noopener noreferrer");
    rebuild(node, element);
    into.append(element);
  }
}
