// Bindery browser client: reading and writing the DOM (bindings, payloads). See bindery.js.

import { kindOf } from "./kinds.js";
import { safeFragment } from "./sanitize.js";

/** The value at a dotted `path` of `value` ("a.b.0"). */
export function pick(value, path) {
  if (!path.includes(".")) return value;
  return path.split(".").slice(1).reduce((v, key) => (v == null ? v : v[key]), value);
}

/** The output name a binding attribute refers to (the first segment of its path). */
export const outputOf = (path) => path.split(".")[0];

export function setAttribute(element, name, value) {
  if (value === false || value == null) element.removeAttribute(name);
  else element.setAttribute(name, value === true ? "" : String(value));
}

/**
 * Applies one value to an element's bindings with `prefix` ("data-" or "data-item-"),
 * by the kinds' table (kinds.js), which the server's first paint follows too.
 */
export function applyBindings(element, prefix, matches, valueOf) {
  for (const attribute of [...element.attributes]) {
    if (!attribute.name.startsWith(prefix)) continue;
    const kind = kindOf(attribute.name.slice(prefix.length));
    if (!kind || !matches(attribute.value)) continue;
    const value = valueOf(attribute.value);
    const truthy = kind.when === "falsy" ? !value : !!value;
    switch (kind.effect) {
      case "text":
        element.textContent = value ?? "";
        break;
      case "html":
        element.replaceChildren(safeFragment(value));
        break;
      case "value":
        // What the user typed and the page has not sent yet (data-on-input's debounce,
        // a form not yet submitted) is theirs, focused or not: an output does not write over it.
        if (!element.dataset.dirty) {
          if (element.type === "checkbox") element.checked = !!value;
          else element.value = value ?? "";
        }
        break;
      case "hidden":
        element.hidden = truthy;
        break;
      case "disabled":
        setDisabled(element, truthy);
        break;
      case "style":
        element.style.setProperty(kind.name, value ?? "");
        break;
      case "attribute":
        setAttribute(element, kind.name, value);
        break;
      case "class":
        element.classList.toggle(kind.name, !!value);
        break;
      case "fieldErrors":
        showFieldErrors(element, value);
        break;
    }
  }
}

/** A field error's text: a message, or several joined; nothing for null, false or "". */
/**
 * Applies `item` to the `data-item-` bindings of `row` and everything inside it; an
 * element with `data-item-list="<path>"` inside it is a list of its own: its rows are
 * made again from its own <template>, one per value of that array, each bound to its
 * value (`data-item-text="."`), and the row's item reaches nothing inside them. Such
 * nested rows only show: their events are not wired.
 */
export function bindItem(row, item) {
  const valueOf = (path) => (path === "." ? item : pick(item, `.${path}`));
  applyBindings(row, "data-item-", () => true, valueOf);
  if (row.dataset.itemList !== undefined) return renderNested(row, valueOf(row.dataset.itemList));
  for (const child of row.children) if (child.tagName !== "TEMPLATE") bindItem(child, item);
}

function renderNested(container, items) {
  const template = container.querySelector(":scope > template");
  if (!template) return;
  while (template.nextElementSibling) template.nextElementSibling.remove();
  let previous = template;
  for (const value of Array.isArray(items) ? items : []) {
    const row = template.content.firstElementChild?.cloneNode(true);
    if (!row) return;
    bindItem(row, value);
    previous.after(row);
    previous = row;
  }
}

export const errorText = (message) =>
  message == null || message === false ? "" : Array.isArray(message) ? message.filter((m) => m != null).join(" ") : String(message);

/** The id a field's error message gets where it has none: from the field's name, unique in the page. */
export function errorId(name, taken) {
  const base = `bindery-error-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Shows `errors` ({field name: message}) next to the named fields of `container`: in its
 * [data-field-error="<name>"] element, else in a span.bindery-field-error added after the
 * field (the group's last); the field gets aria-invalid and aria-describedby naming the message.
 * A field without a message loses both and its message is emptied (and hidden).
 */
export function showFieldErrors(container, errors) {
  const messages = errors !== null && typeof errors === "object" && !Array.isArray(errors) ? errors : {};
  const controls = [...container.querySelectorAll("input[name], select[name], textarea[name]")].filter((c) => !c.closest("template"));
  const groups = new Map();
  for (const control of controls) groups.set(control.name, [...(groups.get(control.name) ?? []), control]);
  for (const [name, group] of groups) {
    const text = errorText(Object.hasOwn(messages, name) ? messages[name] : null);
    let slot = [...container.querySelectorAll("[data-field-error]")].find((element) => element.dataset.fieldError === name);
    if (!slot && text) {
      slot = document.createElement("span");
      slot.className = "bindery-field-error";
      slot.dataset.fieldError = name;
      group.at(-1).after(slot);
    }
    if (!slot) continue;
    if (!slot.id) slot.id = errorId(name, (id) => document.getElementById(id) !== null);
    slot.textContent = text;
    slot.hidden = !text;
    for (const control of group) {
      const described = (control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id && id !== slot.id);
      if (text) {
        control.setAttribute("aria-invalid", "true");
        described.push(slot.id);
      } else {
        control.removeAttribute("aria-invalid");
      }
      if (described.length > 0) control.setAttribute("aria-describedby", described.join(" "));
      else control.removeAttribute("aria-describedby");
    }
  }
}

// A control disabled while it has the focus (a field while its message is sent)
// loses it to <body>: when its output enables it again, and nothing else took
// the focus meanwhile, it gets it back, so the next message needs no click.
function setDisabled(element, disabled) {
  delete element.dataset.binderyHeld;
  if (element.getAttribute("aria-disabled") === "true") element.removeAttribute("aria-disabled");
  if (disabled && !element.disabled && document.activeElement === element) element.dataset.binderyRefocus = "";
  element.disabled = disabled;
  if (!disabled && element.dataset.binderyRefocus !== undefined) {
    delete element.dataset.binderyRefocus;
    if (document.activeElement === document.body || document.activeElement === null) element.focus();
  }
}

/** Whether an attribute binds an output (`data-<kind>`). */
export const isOutputAttribute = (name) => name.startsWith("data-") && kindOf(name.slice(5)) !== null;

/** Elements a keyboard reaches and activates by themselves. */
const INTERACTIVE = "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]";

/**
 * An element that sends on click but is not a control (a list row, a table
 * row) is reached by Tab and activated by Enter or Space, as a button is.
 */
export function makeActivatable(element) {
  if (element.matches(INTERACTIVE)) return;
  element.tabIndex = 0;
  if (!element.hasAttribute("role")) element.setAttribute("role", "button");
  element.addEventListener("keydown", (event) => {
    if (event.target !== element || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    element.click();
  });
}

/**
 * The payload a DOM event carries to its input; `item` and `key` are a list
 * row's value and key (`keyField` names the key: the list's data-key).
 */
export function payloadOf(element, item, key, keyField) {
  if (element.dataset.payload !== undefined) return JSON.parse(element.dataset.payload);
  if (item !== undefined && element.dataset.itemPayload) return pick(item, `.${element.dataset.itemPayload}`);
  if (element instanceof HTMLFormElement && element.dataset.payloadField) {
    const name = element.dataset.payloadField;
    return fieldValue([...element.elements].filter((control) => control.name === name));
  }
  if (element instanceof HTMLFormElement) {
    // A form in a list row names its row: {"id": 3, "title": "oat milk"}.
    const fields = item !== undefined ? { [keyField]: key } : {};
    const byName = new Map();
    for (const control of element.elements) {
      if (control.name) byName.set(control.name, [...(byName.get(control.name) ?? []), control]);
    }
    for (const [name, controls] of byName) {
      const value = fieldValue(controls);
      if (value !== undefined) fields[name] = value;
    }
    // A form with a file sends the file itself (an upload input), not JSON: its other fields stay.
    const files = Object.entries(fields).filter(([, value]) => value instanceof Blob);
    if (files.length > 0) {
      if (Object.keys(fields).length > 1) console.warn(`bindery: the form sends its file "${files[0][0]}" alone: an upload carries one file and nothing else`);
      return files[0][1];
    }
    // A form without named fields sends nothing: what an input that takes no payload accepts.
    return Object.keys(fields).length > 0 ? fields : undefined;
  }
  if (item !== undefined) return key;
  return controlValue(element);
}

// The value of the controls of one name, as the person chose it: the checked radio's
// (null if none is), the values of the checked boxes of a group (a lone box: whether it
// is checked), several fields of one name as an array; a file input's chosen file (a
// File, sent as the body of an upload), null when none is chosen.
function fieldValue(controls) {
  const [first] = controls;
  if (first === undefined) return undefined;
  if (first.type === "radio") return controls.find((control) => control.checked)?.value ?? null;
  if (first.type === "checkbox" && controls.length > 1) return controls.filter((control) => control.checked).map((control) => control.value);
  return controls.length > 1 ? controls.map(controlValue) : controlValue(first);
}

/** Fields whose value is a number, or a date or time as ISO 8601 text, or nothing (null) when empty. */
const NUMBER_FIELDS = new Set(["number", "range"]);
export const DATE_FIELDS = new Set(["date", "datetime-local", "time", "month", "week"]);

// One control's value: a checkbox's checked state, a number field's number, a multiple
// select's selected values, any other control's text; an empty number, date or time field
// (one that is not required: the browser refuses a required one) is null, as a ViewModel's
// optional field reads it.
function controlValue(element) {
  if (element.type === "checkbox") return element.checked;
  if ((NUMBER_FIELDS.has(element.type) || DATE_FIELDS.has(element.type)) && element.value === "") return null;
  if (NUMBER_FIELDS.has(element.type)) return element.valueAsNumber;
  if (element instanceof HTMLSelectElement && element.multiple) return [...element.selectedOptions].map((option) => option.value);
  if (element.type === "file") return element.files?.[0] ?? null;
  if ("value" in element && element.tagName !== "BUTTON") return element.value;
  return undefined;
}
