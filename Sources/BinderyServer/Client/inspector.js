// The inspector: drives any ViewModel from its catalog entry (a form per input, every output live).
import { connect } from "/_bindery/v1/bindery.js";

const params = new URLSearchParams(location.search);
const name = params.get("vm");
const root = document.getElementById("inspector");
const errors = root.querySelector("[data-bindery-errors]");
const catalog = await (await fetch("/api")).json();
const entry = catalog.viewModels.find((vm) => vm.name === name);
document.getElementById("title").textContent = entry ? `Inspector · ${entry.name}` : "Inspector";
if (entry?.summary) root.querySelector(".muted").textContent = entry.summary;
if (!entry) {
  // Nothing to connect to: say so, and offer what there is.
  const badge = document.querySelector("[data-bindery-connection]");
  badge.textContent = "not connected";
  badge.dataset.state = "closed";
  errors.textContent = name === null ? "Choose a ViewModel to inspect." : `No ViewModel named "${name}". Choose one:`;
  const list = Object.assign(document.createElement("ul"), { id: "view-models" });
  for (const vm of catalog.viewModels) {
    const link = Object.assign(document.createElement("a"), { href: `?vm=${encodeURIComponent(vm.name)}`, textContent: vm.name });
    const item = document.createElement("li");
    item.append(link, vm.summary ? ` · ${vm.summary}` : "");
    list.append(item);
  }
  root.querySelector(".columns").replaceWith(list);
  throw new Error("no ViewModel to inspect");
}

// Creation parameters: `?params=<JSON object>`, set from the form; a session given by `?session=` is joined as it is.
let parameters;
const given = params.get("params");
if (given !== null) {
  try {
    parameters = JSON.parse(given);
  } catch {
    errors.textContent = `The creation parameters are not JSON: ${given}`;
    throw new Error("bad parameters");
  }
}
const creation = document.getElementById("creation");
creation.hidden = false;
creation.elements.params.value = given ?? "";
creation.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = creation.elements.params.value.trim();
  const next = new URLSearchParams({ vm: name });
  if (text) next.set("params", text);
  location.search = next.toString();
});

// One form control for a schema; returns [element, read()].
function control(schema, label) {
  const wrap = document.createElement("label");
  wrap.textContent = label;
  let field, read;
  if (schema.enum) {
    field = document.createElement("select");
    for (const option of schema.enum) field.append(new Option(option, JSON.stringify(option)));
    read = () => JSON.parse(field.value);
  } else if (schema.type === "boolean") {
    field = Object.assign(document.createElement("input"), { type: "checkbox" });
    read = () => field.checked;
  } else if (schema.type === "integer" || schema.type === "number") {
    field = Object.assign(document.createElement("input"), { type: "number", value: "0", step: schema.type === "integer" ? "1" : "any" });
    read = () => field.valueAsNumber;
  } else if (schema.type === "string") {
    field = Object.assign(document.createElement("input"), { type: "text" });
    read = () => field.value;
  } else {
    field = Object.assign(document.createElement("textarea"), { rows: 3, placeholder: "JSON", value: schema.type === "array" ? "[]" : "{}" });
    read = () => JSON.parse(field.value);
  }
  field.dataset.field = label;
  wrap.append(field);
  return [wrap, read];
}

function form(input) {
  const element = document.createElement("form");
  element.className = "input-form";
  element.dataset.input = input.name;
  const title = document.createElement("strong");
  title.textContent = input.name;
  element.append(title);
  const schema = input.schema;
  let read = () => undefined;
  if (schema.type === "object" && schema.properties) {
    const readers = Object.entries(schema.properties).map(([key, property]) => {
      const [wrap, readField] = control(property, key);
      element.append(wrap);
      return [key, readField];
    });
    read = () => Object.fromEntries(readers.map(([key, readField]) => [key, readField()]));
  } else if (schema.type !== "null") {
    const [wrap, readField] = control(schema, "value");
    element.append(wrap);
    read = readField;
  }
  const button = Object.assign(document.createElement("button"), { type: "submit", textContent: "Send" });
  element.append(button);
  element.addEventListener("submit", (event) => {
    event.preventDefault();
    let payload;
    try { payload = read(); } catch (error) {
      root.querySelector("[data-bindery-errors]").textContent = `${input.name}: ${error.message}`;
      return;
    }
    window.bindery.send(input.name, payload).catch(() => {});
  });
  return element;
}

const inputs = document.getElementById("inputs");
for (const input of entry.inputs) inputs.append(form(input));
if (entry.inputs.length === 0) inputs.textContent = "none";

const rows = new Map();
const body = document.querySelector("#outputs tbody");
for (const output of entry.outputs) {
  const row = body.insertRow();
  row.dataset.output = output.name;
  row.insertCell().textContent = output.name;
  row.insertCell().textContent = output.kind;
  const value = row.insertCell();
  value.className = "value";
  value.textContent = output.kind === "signal" ? "(events below)" : "…";
  rows.set(output.name, { output, value });
}

const binding = await connect(root, name, parameters, { outputs: entry.outputs.map((o) => o.name) });
// The session: its id, and its snapshot as JSON.
const session = document.getElementById("session");
session.hidden = false;
session.querySelector("a").href = `/api/${encodeURIComponent(name)}/${encodeURIComponent(binding.sessionId)}`;
session.querySelector("a").textContent = binding.sessionId;
// The values the session had when the page bound it, then every change.
for (const [output, value] of binding.values) show(output, value);
binding.addEventListener("output", ({ detail: { name: output, value } }) => show(output, value));

function show(output, value) {
  const row = rows.get(output);
  if (!row) return;
  if (row.output.kind === "driver") {
    // Arrays one element per line; everything else compact.
    row.value.textContent = Array.isArray(value)
      ? (value.length ? `[\n  ${value.map((v) => JSON.stringify(v)).join(",\n  ")}\n]` : "[]")
      : JSON.stringify(value);
    return;
  }
  const item = document.createElement("li");
  item.dataset.signal = output;
  item.textContent = `${new Date().toLocaleTimeString()}  ${output}: ${JSON.stringify(value)}`;
  document.getElementById("signals").prepend(item);
  if (value && value.viewModel && value.url) {
    const link = Object.assign(document.createElement("a"), { href: `/_bindery/v1/inspector.html?vm=${value.viewModel}&session=${value.id}`, textContent: " open" });
    item.append(link);
  }
}
window.bindery = binding;
