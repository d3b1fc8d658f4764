// The index: every ViewModel of the catalog, with its page (by convention /<name>.html) and its inspector.
const list = document.getElementById("catalog");
const catalog = await (await fetch("/api")).json();
// A ViewModel another one's output opens (a child session) has a page that needs that session: it is opened from the parent's page.
const parents = new Map();
for (const vm of catalog.viewModels) {
  for (const output of vm.outputs) {
    const child = output.schema?.["x-bindery-view-model"];
    if (child) parents.set(child, [...(parents.get(child) ?? []), vm.name]);
  }
}
const chips = (names, cls) => names.map((n) => `<span class="chip ${cls}"></span>`).join("");
for (const vm of catalog.viewModels) {
  const item = document.createElement("li");
  item.dataset.viewModel = vm.name;
  item.innerHTML = `<h2></h2><p class="summary"></p>
    <div class="ports"><span class="label">inputs</span> ${chips(vm.inputs, "in")}</div>
    <div class="ports"><span class="label">outputs</span> ${chips(vm.outputs, "out")}</div>
    <p class="links"></p>`;
  item.querySelector("h2").textContent = vm.name + (vm.shared ? " · shared" : "");
  item.querySelector(".summary").textContent = vm.summary ?? "";
  const [inputs, outputs] = item.querySelectorAll(".ports");
  inputs.querySelectorAll(".chip").forEach((chip, i) => (chip.textContent = vm.inputs[i].name));
  outputs.querySelectorAll(".chip").forEach((chip, i) => {
    chip.textContent = vm.outputs[i].name;
    chip.title = vm.outputs[i].kind;
    chip.classList.add(vm.outputs[i].kind);
  });
  if (vm.inputs.length === 0) inputs.append("none");
  const links = item.querySelector(".links");
  // A ViewModel's page, by convention, is /<name>.html.
  if (parents.has(vm.name)) {
    const opened = Object.assign(document.createElement("span"), { className: "opened-from", textContent: "opened from " });
    parents.get(vm.name).forEach((parent, i) => {
      if (i > 0) opened.append(", ");
      opened.append(Object.assign(document.createElement("a"), { href: `/${parent}.html`, textContent: parent }));
    });
    links.append(opened, " ");
  } else if ((await fetch(`/${vm.name}.html`, { method: "HEAD" })).ok) {
    links.append(Object.assign(document.createElement("a"), { href: `/${vm.name}.html`, textContent: "Open page", className: "page" }));
  }
  links.append(Object.assign(document.createElement("a"), { href: `/_bindery/v1/inspector.html?vm=${vm.name}`, textContent: "Inspector", className: "inspect" }));
  list.append(item);
}
