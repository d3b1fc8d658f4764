// Bindery browser client: the binding kinds, as data. See bindery.js.
//
// What each output attribute (data-<kind>, and data-item-<kind> in a list's rows) does
// with its value. The server renders a page's first paint from this same table
// (Pages/BindingKinds.swift reads the object below as JSON), and dom.js applies it in
// the browser, so the two cannot disagree on which attributes bind. A kind ending in
// "-" takes a name after it (data-class-done). The effects:
//   text       textContent = String(v ?? "")
//   value      a control's value (checked for a checkbox; a select's selection)
//   hidden     the hidden attribute, on truthiness ("when": "truthy"/"falsy")
//   disabled   the disabled state, on truthiness
//   style      a style property (the client only: the Content-Security-Policy
//              forbids style attributes in a served page)
//   attribute  an attribute: false or null remove it, true sets it empty, else String(v)
//   class      a class, toggled on truthiness
//   list       an array rendered from the element's <template>
//   html       the element's content, from HTML made safe by sanitize.js's table
//              (elements and attributes it allows; the rest unwrapped or dropped)
//   fieldErrors  an object of messages by field name ({"title": "too short"}): each shown
//              next to its field (the container's [data-field-error="title"], else a
//              span.bindery-field-error added after the field), the field aria-invalid and
//              aria-describedby that message; a field with no message is valid again
//   signal     something that happens once per value (a toast, a dialog, a
//              navigation, a flash): the client only, never part of a first paint
export const BINDING_KINDS = {
  "text": { "effect": "text" },
  "value": { "effect": "value" },
  "show": { "effect": "hidden", "when": "falsy" },
  "hide": { "effect": "hidden", "when": "truthy" },
  "disabled": { "effect": "disabled", "when": "truthy" },
  "enabled": { "effect": "disabled", "when": "falsy" },
  "style-": { "effect": "style" },
  "attr-": { "effect": "attribute" },
  "class-": { "effect": "class" },
  "list": { "effect": "list" },
  "html": { "effect": "html" },
  "field-errors": { "effect": "fieldErrors" },
  "toast": { "effect": "signal" },
  "dialog": { "effect": "signal" },
  "navigate": { "effect": "signal" },
  "back": { "effect": "signal" },
  "flash": { "effect": "signal" }
};

/** The kind of a binding attribute's name after its prefix ("class-done"): {effect, when, name}, or null. */
export function kindOf(kind) {
  if (!kind.endsWith("-") && Object.hasOwn(BINDING_KINDS, kind)) return BINDING_KINDS[kind];
  const dash = kind.indexOf("-");
  if (dash < 1) return null;
  const family = Object.hasOwn(BINDING_KINDS, kind.slice(0, dash + 1)) ? BINDING_KINDS[kind.slice(0, dash + 1)] : null;
  return family && kind.length > dash + 1 ? { ...family, name: kind.slice(dash + 1) } : null;
}
