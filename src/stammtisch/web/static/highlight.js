// What just happened on the table: the pieces the last move changed are marked (and briefly animated,
// unless the reader prefers reduced motion) until a later move changes something (issue 25 defect 4:
// only the last move, and nothing once the game is over).
//
// A board module tags what may change with tagged(node, key, data): `key` names the piece (stable
// from one state to the next), `data` is what it shows, from the view.  The frame compares the tags
// before and after each redraw (docs/web.md, "What just happened").

/** Tags a piece for the highlight: the same key in two states with other data marks it changed. */
export function tagged(node, key, data) {
  node.dataset.hl = key;
  node.dataset.hlSig = typeof data === "string" ? data : JSON.stringify(data);
  return node;
}

function read(roots) {
  const found = new Map();
  for (const root of roots) {
    if (!root) continue;
    for (const node of root.querySelectorAll("[data-hl]")) found.set(node.dataset.hl, node.dataset.hlSig);
  }
  return found;
}

export class Highlighter {
  constructor() {
    this.before = new Map(); // key → data, as drawn before the redraw
    this.marks = new Set(); // the keys the last move changed
    this.scope = null; // what the tags are comparable within (table and language)
  }

  /** Before a redraw: what the tagged pieces show now. */
  remember(roots) {
    this.before = read(roots);
  }

  /** After a redraw: marks the pieces whose data this redraw changed, in place of the earlier marks (a
   * redraw that changed nothing keeps them); marks nothing on the first drawing of a table or a
   * language, nor once the game is `over`.  Returns the keys changed by this redraw. */
  mark(roots, scope, over = false) {
    const now = read(roots);
    const changed = [];
    if (scope !== this.scope) {
      this.scope = scope;
      this.marks.clear();
    } else if (this.before.size) {
      for (const [key, data] of now) if (this.before.get(key) !== data) changed.push(key);
    }
    if (changed.length) this.marks = new Set(changed);
    if (over) this.marks.clear();
    const fresh = new Set(over ? [] : changed);
    for (const root of roots) {
      if (!root) continue;
      for (const node of root.querySelectorAll("[data-hl]")) {
        const key = node.dataset.hl;
        node.classList.toggle("hl", this.marks.has(key));
        node.classList.toggle("hl-new", fresh.has(key));
      }
    }
    this.before = now;
    return changed;
  }
}
