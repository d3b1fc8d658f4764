// Bindery browser client: a keyed list's changes (docs/protocol.md), applied to
// the list the page holds. See bindery.js.

/** Whether `value` is the changes of a keyed list, `{"bindery.changes": [...]}`, rather than a value. */
export function isChanges(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Array.isArray(value["bindery.changes"]);
}

/**
 * `list` with `changes` applied in order, as a new array; each change's index
 * is in the list as the changes before it left it.
 */
export function applyChanges(list, changes) {
  const items = list.slice();
  for (const change of changes) {
    switch (change.op) {
      case "insert":
        items.splice(change.index, 0, change.item);
        break;
      case "update":
        items[change.index] = change.item;
        break;
      case "remove":
        items.splice(change.index, 1);
        break;
      case "move":
        items.splice(change.to, 0, items.splice(change.from, 1)[0]);
        break;
    }
  }
  return items;
}
