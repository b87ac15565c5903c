// What just happened on the table: the pieces a move changed are marked (and briefly animated,
// unless the reader prefers reduced motion) until later moves replace them.
//
// A board module tags what may change with tagged(node, key, data): `key` names the piece (stable
// from one state to the next), `data` is what it shows, from the view.  The frame compares the tags
// before and after each redraw (docs/web.md, "What just happened").

// Bots move about twice a second: a change stays marked while the next moves come in, and is let go
// only once a newer change arrives this long after it (a still table keeps its last marks).
const HOLD_MS = 2500;

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
    this.marks = new Map(); // key → when its change arrived (ms)
    this.scope = null; // what the tags are comparable within (table and language)
  }

  /** Before a redraw: what the tagged pieces show now. */
  remember(roots) {
    this.before = read(roots);
  }

  /** After a redraw: marks the pieces whose data changed (the first drawing of a table or a language
   * marks nothing); returns the keys changed by this redraw. */
  mark(roots, scope) {
    const now = read(roots);
    const changed = [];
    if (scope !== this.scope) {
      this.scope = scope;
      this.marks.clear();
    } else if (this.before.size) {
      for (const [key, data] of now) if (this.before.get(key) !== data) changed.push(key);
    }
    const at = performance.now();
    if (changed.length) {
      for (const [key, when] of this.marks) if (at - when > HOLD_MS) this.marks.delete(key);
      for (const key of changed) this.marks.set(key, at);
    }
    const fresh = new Set(changed);
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
