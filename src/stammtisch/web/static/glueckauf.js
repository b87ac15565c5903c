// Glück Auf (Coal Baron, Szczęść Boże): the board of one seat's view, for the browser.
//
// render(root, view, ctx) fills root with the whole table drawn from the view alone: the worker
// spaces with their occupants and locks, the tiles and order cards on offer, the shift clock,
// every player's mine, orders, money and workers, the step-by-step mining run, the last shift
// scoring category by category and the final table.  Natural decisions are buttons on the board
// (worker spaces, drawn tiles and cards, cage levels, cubes, order fields); the frame lists every
// legal action in its own panel as well.
//
// ctx (docs/web.md): { t(msgid, params) → translated text, lang, seat (number | null), legal
// (actions as JSON arrays), labels (translated, parallel to legal), act(action) → Promise,
// sentences (this update's event sentences), players ([{seat, name, …}]), … } and, when the frame
// passes them, events (this update's events as {kind, params}, parallel to sentences): the shift
// scoring table is read from its category_scored events, else from the sentences per category.
//
// Every text shown goes through ctx.t; the msgids are listed in src/stammtisch/web/strings.py.
// Colours always come with a letter or a word (cube letters Y/B/G/K, <title>, aria-label), so
// the board reads the same without colour.

import { phaseRulesLink, withHelp } from "./common.js";
import { tagged } from "./highlight.js";

const COLOURS = ["yellow", "brown", "grey", "black"];
const TRANSPORTS = ["handcart", "wagon", "lorry", "train"];
const LEVELS = ["surface", ...COLOURS];
const MANY = 5; // above this many cubes of one colour, one cube and a count


// Which side each level's printed starting minecart is drawn on (as on the printed pit).
const PRINTED_SIDE = { yellow: "dark", brown: "light", grey: "light", black: "dark" };

// --- small pictures (constant SVG, never filled from the view) --------------------------------

const ICONS = {
  handcart: '<path d="M2 8h14l-3.5 6H5.5z" fill="currentColor"/><circle cx="12" cy="18" r="3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 8l6-3M6 14l-1.5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round" fill="none"/>',
  wagon: '<rect x="9" y="7" width="14" height="7" rx="1" fill="currentColor"/><circle cx="12.5" cy="17" r="2.6" fill="none" stroke="currentColor" stroke-width="1.8"/><circle cx="19.5" cy="17" r="2.6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M1.5 20l1.2-6.5L2 10l2.5-4.5L7 5l1.2 1.8L6.6 8.5 7.5 13l-1 7z" fill="currentColor"/><path d="M7 11h2" stroke="currentColor" stroke-width="1.6"/>',
  lorry: '<rect x="1.5" y="5" width="13" height="10" rx="1" fill="currentColor"/><path d="M15.5 8.5h4l3 4V15h-7z" fill="currentColor"/><path d="M17 10h2.3l1.6 2.2H17z" fill="#fff" opacity=".7"/><circle cx="6" cy="17.5" r="2.4" fill="#fff" stroke="currentColor" stroke-width="1.8"/><circle cx="18.5" cy="17.5" r="2.4" fill="#fff" stroke="currentColor" stroke-width="1.8"/>',
  train: '<rect x="3" y="9" width="12" height="6.5" rx="2" fill="currentColor"/><rect x="15" y="4.5" width="7" height="11" rx="1" fill="currentColor"/><rect x="5.5" y="4" width="3" height="5" fill="currentColor"/><rect x="16.8" y="6.3" width="3.4" height="3" fill="#fff" opacity=".7"/><path d="M1 16.5l2-1.5" stroke="currentColor" stroke-width="1.8"/><circle cx="7" cy="18" r="2.2" fill="#fff" stroke="currentColor" stroke-width="1.8"/><circle cx="12" cy="18" r="2.2" fill="#fff" stroke="currentColor" stroke-width="1.8"/><circle cx="18.5" cy="18" r="2.2" fill="#fff" stroke="currentColor" stroke-width="1.8"/>',
  pick: '<path d="M3.5 8.5C8 3.5 16 3.5 20.5 8.5 15.5 6.2 8.5 6.2 3.5 8.5z" fill="currentColor"/><path d="M12 6.5L12 22" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  coin: '<circle cx="12" cy="12" r="9.5" fill="#e7c14a" stroke="#8a6a10" stroke-width="1.5"/><text x="12" y="16" text-anchor="middle" font-size="11" font-weight="700" fill="#5a430a" font-family="sans-serif">M</text>',
  cart: '<path d="M2 6h20l-3 9H5z" fill="currentColor"/><circle cx="7.5" cy="18" r="2.3" fill="currentColor"/><circle cx="16.5" cy="18" r="2.3" fill="currentColor"/>',
  card: '<rect x="5" y="2.5" width="14" height="19" rx="2" fill="#fbf5e4" stroke="currentColor" stroke-width="1.6"/><path d="M8 8h8M8 12h8M8 16h5" stroke="currentColor" stroke-width="1.4"/>',
  stack: '<rect x="6" y="2" width="13" height="15" rx="2" fill="#6a5a48" stroke="#332a20" stroke-width="1.2"/><rect x="4" y="4.5" width="13" height="15" rx="2" fill="#7c6a55" stroke="#332a20" stroke-width="1.2"/><rect x="2" y="7" width="13" height="15" rx="2" fill="#8f7b63" stroke="#332a20" stroke-width="1.2"/>',
  deck: '<rect x="6" y="2" width="13" height="17" rx="2" fill="#d9c9a3" stroke="#5b4b2c" stroke-width="1.2"/><rect x="4" y="3.5" width="13" height="17" rx="2" fill="#e6d7b3" stroke="#5b4b2c" stroke-width="1.2"/><rect x="2" y="5" width="13" height="17" rx="2" fill="#f3e7c8" stroke="#5b4b2c" stroke-width="1.2"/>',
  lock: '<path d="M7.5 10.5V7.5a4.5 4.5 0 0 1 9 0v3" fill="none" stroke="currentColor" stroke-width="2.2"/><rect x="4.5" y="10" width="15" height="11" rx="2" fill="currentColor"/><circle cx="12" cy="15" r="1.7" fill="#fff"/>',
  lantern: '<path d="M9 3.5h6M12 1.5v2" stroke="#5a4a20" stroke-width="1.5"/><rect x="7.5" y="5" width="9" height="13" rx="2.5" fill="#ffd84a" stroke="#6a5520" stroke-width="1.5"/><path d="M12 8c1.8 2 1.8 4.5 0 6.5-1.8-2-1.8-4.5 0-6.5z" fill="#ff8a1a"/><path d="M7 19.5h10" stroke="#6a5520" stroke-width="2"/>',
  meeple: '<path d="M12 1.8a3.4 3.4 0 0 1 2.1 6.1l5.4 2.3c1.3.6 1.5 2.3.3 3.1l-3 1.8 2.8 7.1h-5.4L12 18.3l-2.2 3.9H4.4l2.8-7.1-3-1.8c-1.2-.8-1-2.5.3-3.1l5.4-2.3A3.4 3.4 0 0 1 12 1.8z" fill="currentColor" stroke="#0006" stroke-width=".9"/>',
  bank: '<path d="M2 9L12 3l10 6z" fill="currentColor"/><path d="M4.5 10.5v7M9.5 10.5v7M14.5 10.5v7M19.5 10.5v7" stroke="currentColor" stroke-width="2.2"/><rect x="2" y="18.5" width="20" height="3" fill="currentColor"/>',
  canteen: '<path d="M3 10h15v3.5a6 6 0 0 1-6 6H9a6 6 0 0 1-6-6z" fill="currentColor"/><path d="M18 11.5h1.5a2.3 2.3 0 0 1 0 4.6H17" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M7.5 3c-1 1.5 1 2.5 0 4.5M11.5 3c-1 1.5 1 2.5 0 4.5" stroke="currentColor" stroke-width="1.4" fill="none"/>',
  star: '<path d="M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 16.9l-6.1 3.5 1.5-6.8L2.2 9l6.9-.7z" fill="currentColor"/>',
  barbara: '<circle cx="12" cy="12" r="10" fill="#7a1f4f"/><path d="M12 4.5l2 4.3 4.7.5-3.5 3.1 1 4.6L12 14.6l-4.2 2.4 1-4.6-3.5-3.1 4.7-.5z" fill="#ffd84a"/>',
  crate: '<rect x="2.5" y="6" width="19" height="14" rx="1.5" fill="#a0703a" stroke="#5a3a14" stroke-width="1.4"/><path d="M2.5 13h19M8.5 6v14M15.5 6v14" stroke="#5a3a14" stroke-width="1.2"/>',
  cage: '<path d="M12 1v5" stroke="currentColor" stroke-width="1.5"/><rect x="4" y="6" width="16" height="15" rx="1" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8 6v15M12 6v15M16 6v15" stroke="currentColor" stroke-width="1"/>',
  up: '<path d="M12 4l7 8h-4.5v8h-5v-8H5z" fill="currentColor"/>',
  down: '<path d="M12 20l7-8h-4.5V4h-5v8H5z" fill="currentColor"/>',
  tower: '<path d="M3 24L10 3h4l7 21" fill="none" stroke="#3b2f25" stroke-width="2"/><path d="M6 15h12M8 9h8" stroke="#3b2f25" stroke-width="1.5"/><circle cx="12" cy="4" r="3" fill="#c9b08a" stroke="#3b2f25" stroke-width="1.5"/>',
  check: '<path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>',
  hand: '<path d="M5 12h14M13 6l6 6-6 6" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
};

const SVG_NS = "http://www.w3.org/2000/svg";

/** Names a board button by its label, read from its content: the label as hidden text first, and
 * what it shows (a card, a space, cubes) as its picture, hidden from assistive technology.  (An
 * aria-label would name it without the card's visible numbers and letters: axe's
 * label-content-name-mismatch.)  Returns the button. */
function named(button, label) {
  // a piece with rules help inside a button: the button shows the help (no focusable piece inside it)
  for (const piece of button.querySelectorAll("[data-help]")) {
    if (!button.dataset.help) button.dataset.help = piece.dataset.help;
    piece.removeAttribute("data-help");
    piece.removeAttribute("tabindex");
  }
  for (const child of [...button.childNodes]) {
    if (child.nodeType === Node.ELEMENT_NODE) child.setAttribute("aria-hidden", "true");
    else if (child.nodeType === Node.TEXT_NODE && child.nodeValue.trim()) {
      child.replaceWith(h("span", { "aria-hidden": "true", text: child.nodeValue }));
    }
  }
  button.dataset.label = label;
  button.prepend(h("span.ga-sr.ga-name", { text: label }));
  return button;
}

/** Marks a msgid translated later with t(…) (like N_ in Python); strings.py lists them all. */
const N = (msgid) => msgid;

/** A pictogram; with a label it is an image of its own (role img), without one decoration. */
function icon(name, label = null, cls = "") {
  const el = document.createElementNS(SVG_NS, "svg");
  el.setAttribute("viewBox", "0 0 24 24");
  el.setAttribute("class", `ga-icon ga-icon-${name} ${cls}`.trim());
  el.setAttribute("focusable", "false");
  el.innerHTML = ICONS[name];
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = label;
    el.prepend(title);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}

/** An element: h("div.a.b", {title: …, onclick: …}, child, "text", …). */
function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "style") el.setAttribute("style", value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// --- what stays between renders of one root ---------------------------------------------------

// root → { scoring: {shift, rows | lines}, mining: {seat, space}, open: field key, busy, busyView }
const memory = new WeakMap();

function remember(root) {
  if (!memory.has(root)) memory.set(root, { scoring: null, mining: null, open: null, busy: false });
  return memory.get(root);
}

// --- the render -------------------------------------------------------------------------------

class Board {
  constructor(root, view, ctx) {
    this.root = root;
    // The view envelope (docs/web.md): seat, players, to_act, phase, final; Glück Auf's own data under "board".
    this.view = view;
    this.b = view.board;
    this.phase = view.phase;
    // The table's describe(): the phases with their labels and, under "board", the edition: spaces in
    // print order and those locked here, the shift clock's categories, the cage's size, the scoring rates.
    const described = ctx.describe || { phases: [], board: {} };
    this.phaseLabels = Object.fromEntries((described.phases || []).map((p) => [p.name, p.label]));
    this.edition = described.board || {};
    this.ctx = ctx;
    this.mem = remember(root);
    this.legal = new Map();
    (ctx.legal || []).forEach((action, i) => {
      this.legal.set(JSON.stringify(action), (ctx.labels || [])[i] || action.join(" "));
    });
    this.ids = 0;
    this.me = typeof view.seat === "number" ? view.seat : null;
  }

  t(msgid, params) {
    return this.ctx.t ? this.ctx.t(msgid, params || {}) : format(msgid, params);
  }

  uid(prefix) {
    this.ids += 1;
    return `ga-${prefix}-${this.ids}`;
  }

  // words --------------------------------------------------------------------------------------

  colour(c) {
    const words = { yellow: this.t("yellow"), brown: this.t("brown"), grey: this.t("grey"), black: this.t("black") };
    return words[c] || c;
  }

  letter(c) {
    const letters = { yellow: this.t("Y"), brown: this.t("B"), grey: this.t("G"), black: this.t("K") };
    return letters[c] || String(c).slice(0, 1).toUpperCase();
  }

  transport(tr) {
    const words = { handcart: this.t("handcart"), wagon: this.t("horse wagon"), lorry: this.t("lorry"), train: this.t("train") };
    return words[tr] || tr;
  }

  marks(n) {
    return n === 1 ? this.t("1 Mark") : this.t("{amount} Marks", { amount: n });
  }

  name(seat) {
    if (typeof seat !== "number" || seat < 0) return "—";
    const player = (this.ctx.players || []).find((p) => p && p.seat === seat);
    if (player && player.name) return String(player.name);
    const names = this.ctx.names;
    return names && names[seat] ? String(names[seat]) : this.t("Player {number}", { number: seat + 1 });
  }

  nameYou(seat) {
    const name = this.name(seat);
    return seat === this.me ? this.t("{player} (you)", { player: name }) : name;
  }

  levelWord(level) {
    return level === "surface" ? this.t("surface") : this.t("{colour} tunnel", { colour: this.colour(level) });
  }

  categoryName(id) {
    const names = {
      yellow_fields: N("yellow order fields"), brown_fields: N("brown order fields"), grey_fields: N("grey order fields"),
      black_fields: N("black order fields"), handcart_fields: N("handcart order fields"),
      wagon_fields: N("horse wagon order fields"), lorry_fields: N("lorry order fields"), train_fields: N("train order fields"),
      empty_yellow_carts: N("empty yellow minecarts"), empty_brown_carts: N("empty brown minecarts"),
      empty_grey_carts: N("empty grey minecarts"), empty_black_carts: N("empty black minecarts"),
    };
    return names[id] ? this.t(names[id]) : id.replaceAll("_", " ");
  }

  winners() {
    return this.view.final ? this.view.final.winners : [];
  }

  phaseName(phase) {
    return this.phaseLabels[phase] || phase;
  }

  // pieces -------------------------------------------------------------------------------------

  /** A button for a legal action (named by its label), or the same content inert. */
  action(action, spec, attrs, ...content) {
    const key = JSON.stringify(action);
    const label = this.legal.get(key);
    if (label === undefined) return h(spec, attrs, ...content);
    const classes = spec.split(".").slice(1);
    const button = h(["button", ...classes, "ga-act"].join("."), {
      ...attrs, type: "button", title: label, "data-action": key, disabled: Boolean(this.mem.busy),
      onclick: (e) => { e.stopPropagation(); this.submit(action); },
    }, ...content);
    return named(button, label);
  }

  /** Submits once: the board's buttons wait until the server took the move (or a new state came). */
  submit(action) {
    if (this.mem.busy) return;
    const pending = {};
    this.mem.busy = pending;
    this.mem.busyView = this.view;
    this.mem.open = null;
    this.root.classList.add("ga-busy");
    for (const b of this.root.querySelectorAll("button.ga-act")) b.disabled = true;
    const done = () => {
      if (this.mem.busy !== pending) return; // a newer state or move took over
      this.mem.busy = false;
      this.root.classList.remove("ga-busy");
      for (const b of this.root.querySelectorAll("button.ga-act")) b.disabled = false;
    };
    Promise.resolve(this.ctx.act ? this.ctx.act(action) : null).then(done, done);
  }

  legalOf(kind) {
    return [...this.legal.keys()].map((k) => JSON.parse(k)).filter((a) => a[0] === kind);
  }

  cube(c, count = 1, cls = "") {
    const word = this.colour(c);
    const label = count > 1 ? `${word} ×${count}` : word;
    return h(`span.ga-cube.ga-c-${COLOURS.includes(c) ? c : "other"}${cls ? "." + cls : ""}`,
      { role: "img", "aria-label": label, title: label }, this.letter(c));
  }

  /** Cubes by colour: one cube each, or one cube and a count when many. */
  cubes(counts, empty = "—") {
    const out = [];
    for (const c of COLOURS) {
      const n = counts[c] || 0;
      if (n > MANY) out.push(h("span.ga-many", {}, this.cube(c, n), h("span", { "aria-hidden": "true" }, `×${n}`)));
      else for (let i = 0; i < n; i++) out.push(this.cube(c));
    }
    return out.length ? h("span.ga-cubes", {}, out) : h("span.ga-none", { text: empty });
  }

  meeple(seat, count, extra = "") {
    const label = this.t("Workers of {player}: {n}", { player: this.name(seat), n: count });
    return h(`span.ga-occupant.ga-seat${seat % 4}${extra ? "." + extra : ""}`, { role: "img", "aria-label": label, title: label },
      icon("meeple"), count > 1 ? h("span.ga-times", { "aria-hidden": "true" }, `×${count}`) : null);
  }

  seatChip(seat) {
    return h(`span.ga-chip.ga-seat${seat % 4}`, {}, icon("meeple"), h("span", { text: this.nameYou(seat) }));
  }

  cart(cubeColour, cls = "") {
    const label = cubeColour ? this.t("Minecart with a {colour} cube", { colour: this.colour(cubeColour) })
      : this.t("Empty minecart");
    return h(`span.ga-cart${cls ? "." + cls : ""}${cubeColour ? "" : ".ga-empty"}`, { role: "img", "aria-label": label, title: label },
      cubeColour ? this.cube(cubeColour) : h("span.ga-hole", { "aria-hidden": "true" }), icon("cart"));
  }

  tileLabel(tile) {
    const side = tile.side === "light" ? this.t("light side") : this.t("dark side");
    return this.t("Tunnel tile {id}: {colour}, {side}, minecarts: {carts}, price {price}", {
      id: tile.id, colour: this.colour(tile.colour), side, carts: tile.carts, price: this.marks(tile.cost),
    });
  }

  /** A tunnel tile on offer: its minecarts (each comes with a cube), its side and price. */
  tile(tile, withPrice = true) {
    const carts = [];
    for (let i = 0; i < tile.carts; i++) carts.push(this.cart(tile.colour));
    return withHelp(h(`span.ga-tile.ga-tile-${tile.side}.ga-tint-${tile.colour}`, {},
      h("span.ga-sr", { text: this.tileLabel(tile) }),
      h("span.ga-tile-carts", { "aria-hidden": "true" }, tile.side === "light" ? icon("lantern", null, "ga-lantern") : null, carts),
      withPrice ? h("span.ga-price", { "aria-hidden": "true" }, icon("coin"), String(tile.cost)) : null),
    `${this.tileLabel(tile)}. ${this.t("Tunnel tile: bought in the factory for 1, 2, 3 or 4 Marks per minecart by colour; it extends its level of your pit on its side, each minecart with a coal cube. At the end, −2 VP per tile one side has more than the other.")}`);
  }

  cardLabel(card) {
    return this.t("Order card {id}: {transport}, {vp} VP, fields {fields}", {
      id: card.id, transport: this.transport(card.transport), vp: card.vp,
      fields: card.fields.map((c) => this.colour(c)).join(", "),
    });
  }

  /** An order card: transport, VP and its fields (filled as far as the order is). */
  card(card, opts = {}) {
    const fields = card.fields.map((printed, j) => this.field(card, printed, j, opts));
    const done = card.missing === 0 && card.filled;
    return withHelp(h(`span.ga-card.ga-tr-${card.transport}${done ? ".ga-ready" : ""}${opts.small ? ".ga-small" : ""}`, {},
      h("span.ga-sr", { text: this.cardLabel(card) }),
      h("span.ga-card-head", { "aria-hidden": "true" },
        icon(card.transport), h("span.ga-card-id", { text: `#${card.id}` }), h("span.ga-vp", { text: String(card.vp) })),
      h("span.ga-fields", {}, fields),
      done ? h("span.ga-ready-mark", { title: this.t("ready for delivery") }, icon("check"), h("span.ga-sr", { text: this.t("ready for delivery") })) : null),
    `${this.cardLabel(card)}. ${this.t("Order card: fill every field with a cube of its colour (or two cubes of other colours), then deliver it at its transport's space for its victory points. Delivered fields count in every later shift scoring; an order not delivered costs 1 VP at the end.")}`);
  }

  field(card, printed, j, opts) {
    const filled = card.filled ? card.filled[j] : [];
    const complete = filled.length === 2 || (filled.length === 1 && filled[0] === printed);
    const inner = filled.length ? filled.map((c) => this.cube(c, 1, filled.length === 2 ? "ga-half" : "")) :
      h("span.ga-field-letter", { "aria-hidden": "true", text: this.letter(printed) });
    let label = this.t("{colour} field", { colour: this.colour(printed) });
    if (complete) label = this.t("{colour} field, filled", { colour: this.colour(printed) });
    else if (filled.length) label = this.t("{colour} field, one substitute cube on it", { colour: this.colour(printed) });
    const cls = `span.ga-field.ga-ring-${printed}${complete ? ".ga-full" : ""}`;
    const options = opts.fills ? opts.fills.filter((a) => a[2] === card.id && a[3] === j) : [];
    if (!options.length) return h(cls, { role: "img", "aria-label": label, title: label }, inner);
    if (options.length === 1) return this.action(options[0], cls.replace("span", ""), {}, inner);
    const key = `${card.id}:${j}`;
    const open = this.mem.open === key;
    const choose = this.t("Fill this field: choose a cube ({field})", { field: label });
    return named(h(cls.replace("span", "button") + ".ga-act.ga-choose", {
      type: "button", title: choose, "aria-expanded": open ? "true" : "false",
      "data-focus-key": `choose:${key}`,
      onclick: (e) => {
        e.stopPropagation();
        this.mem.open = open ? null : key;
        this.redraw();
        const first = this.root.querySelector(".ga-chooser button");
        if (first) first.focus();
      },
    }, inner), choose);
  }

  redraw() {
    render(this.root, this.view, this.ctx);
  }

  // the whole table ----------------------------------------------------------------------------

  render() {
    if (this.mem.busy && this.mem.busyView !== this.view) this.mem.busy = false; // a new state: the move is in
    this.root.classList.toggle("ga-busy", Boolean(this.mem.busy));
    this.readEvents();
    const table = h("div.ga", { lang: this.ctx.lang || null },
      this.status(),
      this.now(),
      this.view.final ? this.finalTable() : null,
      h("div.ga-main", {}, this.board(), this.mines()));
    table.gaView = this.view; // the view drawn (for tests and debugging: document.querySelector(".ga").gaView)
    const focused = document.activeElement && this.root.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-focus-key") : null;
    this.root.replaceChildren(table);
    if (focused) {
      const again = this.root.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  readEvents() {
    const events = this.ctx.events || [];
    const rows = events.filter((e) => e.kind === "category_scored");
    if (rows.length) {
      const shift = rows[0].params.shift;
      this.mem.scoring = { shift, rows: rows.map((e) => e.params) };
    } else if ((this.b.last_scoring || []).length) { // no events (a history message): the view has it
      const last = this.b.last_scoring;
      this.mem.scoring = { shift: last[0].shift, rows: last };
    } else {
      this.readScoringSentences(); // no events and a view without it: the sentences per category
    }
    for (const e of events) {
      if (e.kind === "placed" && String(e.params.space).startsWith("mining_")) {
        this.mem.mining = { seat: e.params.seat, space: e.params.space };
      }
    }
  }

  /** Without events: the last run of sentences that each name a shift clock category. */
  readScoringSentences() {
    const names = (this.edition.categories || []).map(({ id }) => [id, `${this.categoryName(id)}:`]);
    const sentences = this.ctx.sentences || [];
    let run = [];
    let last = null;
    sentences.forEach((text) => {
      const found = names.find(([, prefix]) => String(text).startsWith(prefix));
      if (!found) {
        if (run.length) last = run;
        run = [];
        return;
      }
      if (run.some((line) => line.category === found[0])) { last = run; run = []; }
      run.push({ category: found[0], text: String(text) });
    });
    if (run.length) last = run;
    if (!last) return;
    const v = this.b;
    const shift = this.phase === "over" ? v.shift : Math.max(1, v.shift - 1);
    this.mem.scoring = { shift, lines: last };
  }

  // the status line ----------------------------------------------------------------------------

  status() {
    const v = this.b;
    const pips = [];
    for (let s = 1; s <= v.shifts; s++) {
      pips.push(h(`span.ga-pip${s === v.shift ? ".ga-on" : ""}${s < v.shift || this.phase === "over" ? ".ga-past" : ""}`,
        { "aria-hidden": "true", text: ["I", "II", "III", "IV", "V"][s - 1] || String(s) }));
    }
    const shift = tagged(h("div.ga-shift", {}, h("span.ga-pips", {}, pips),
      h("span.ga-strong", { text: this.t("Shift {shift} of {shifts}", { shift: v.shift, shifts: v.shifts }) })),
    "shift", v.shift);
    const toAct = (this.view.to_act || []).map((s) => this.seatChip(s));
    const who = this.phase === "over" ? null : h("div.ga-toact", {}, h("span", { text: this.t("To act:") }), toAct);
    const piles = tagged(h("div.ga-piles", {},
      h("span.ga-pile", { title: this.t("Tunnel tiles in the stack: {n}", { n: v.tile_stack }) },
        icon("stack"), h("span.ga-sr", { text: this.t("Tunnel tiles in the stack: {n}", { n: v.tile_stack }) }),
        h("span", { "aria-hidden": "true", text: String(v.tile_stack) })),
      h("span.ga-pile", { title: this.t("Order cards in the deck: {n}", { n: v.order_deck }) },
        icon("deck"), h("span.ga-sr", { text: this.t("Order cards in the deck: {n}", { n: v.order_deck }) }),
        h("span", { "aria-hidden": "true", text: String(v.order_deck) })),
      h("span.ga-supply", {}, h("span.ga-label", { text: this.t("Coal supply:") }),
        COLOURS.map((c) => h("span.ga-supply-one", {}, this.cube(c), h("span", { text: String(v.supply[c] ?? 0) }))))),
    "piles", [v.tile_stack, v.order_deck, v.supply]);
    const stage = tagged(h("div.ga-stage", {}, phaseRulesLink("glueckauf", this.ctx.lang, this.phase, {},
      this.phaseName(this.phase))), "stage", [v.shift, this.phase]);
    return h("div.ga-status", {}, shift, stage, who, piles);
  }

  // the decision at hand -----------------------------------------------------------------------

  now() {
    const v = this.b;
    const current = v.current;
    const who = this.name(current);
    const mine = current === this.me && this.me !== null;
    const parts = [];
    if (this.phase === "draft") {
      parts.push(h("p", { text: mine ? this.t("Draft an order card.") : this.t("{player} drafts an order card.", { player: who }) }));
      parts.push(h("div.ga-hand", {}, v.draft.map((c) => this.action(["draft", c.id], "span.ga-pick", {}, this.card(c)))));
      if (v.draft_queue && v.draft_queue.length) {
        parts.push(h("p.ga-queue", {}, h("span", { text: this.t("Drafting order:") }),
          v.draft_queue.map((s) => h(`span.ga-dot.ga-seat${s % 4}`, { title: this.name(s), "aria-label": this.name(s), role: "img" }))));
      }
    } else if (this.phase === "place") {
      const left = current !== null ? v.seats[current].workers : 0;
      parts.push(h("p", { text: mine ? this.t("Your turn: place workers on a space. Workers left: {n}", { n: left })
        : this.t("{player} places workers. Workers left: {n}", { player: who, n: left }) }));
    } else if (this.phase === "mining") {
      parts.push(this.miningRun());
    } else if (["keep_tile", "return_tiles", "keep_order", "return_orders"].includes(this.phase)) {
      parts.push(this.drawn());
    } else if (this.phase === "coal") {
      parts.push(h("p", { text: this.t("New minecarts without coal of their colour: you may put a cube of another colour on each, or leave it empty.") }));
      parts.push(h("div.ga-row", {}, v.substitutes_owed.map((c) => h("span.ga-owed", {}, this.cart(null), h("span", { text: this.levelWord(c) })))));
      parts.push(h("div.ga-row", {}, COLOURS.filter((c) => v.supply[c]).map((c) => this.action(["coal", c], "span.ga-coalpick", {}, this.cube(c), h("span", { text: String(v.supply[c]) }))),
        this.action(["coal", null], "span.ga-coalpick.ga-leave-empty", {}, this.cart(null), h("span", { text: this.t("leave empty") }))));
    } else if (this.phase === "confirm") {
      parts.push(h("p", { text: mine ? this.t("Confirm your turn: the emptied space is refilled then.")
        : this.t("{player} confirms the turn.", { player: who }) }));
      if (this.legal.has(JSON.stringify(["confirm"]))) parts.push(this.action(["confirm"], "span.ga-big", {}, icon("check"), this.legal.get(JSON.stringify(["confirm"]))));
    } else if (this.phase === "over") {
      const winners = this.winners().map((s) => this.name(s)).join(", ");
      parts.push(h("p.ga-strong", {}, icon("star", null, "ga-gold"),
        this.winners().length > 1 ? this.t("Winners: {players}", { players: winners }) : this.t("Winner: {players}", { players: winners })));
    }
    if (!parts.length) return null;
    const cls = mine ? "section.ga-now.ga-yours" : "section.ga-now";
    return h(cls, { "aria-label": this.t("Now") }, parts);
  }

  miningRun() {
    const v = this.b;
    const seat = v.current;
    const left = v.steps_left;
    const total = this.runLength(seat, left);
    const me = v.seats[seat];
    const track = [];
    if (total !== null) for (let i = 0; i < total - left; i++) track.push(h("span.ga-step.ga-used", { "aria-hidden": "true" }));
    for (let i = 0; i < left; i++) track.push(h("span.ga-step", { "aria-hidden": "true" }));
    const head = total !== null
      ? this.t("Mining run: step {step} of {total}, steps left: {left}", { step: total - left + 1, total, left })
      : this.t("Mining run: steps left: {left}", { left });
    const where = me.cage_level === "surface" ? this.t("The cage is at the surface.")
      : this.t("The cage is in the {colour} tunnel.", { colour: this.colour(me.cage_level) });
    const hint = me.cage_level === "surface"
      ? this.t("At the surface a step puts a cube from the cage into storage or onto an order field, or moves the cage down.")
      : this.t("In a tunnel a step loads a cube from a minecart of this level into the cage, or moves the cage.");
    const mine = seat === this.me;
    const last = (this.ctx.sentences || []).slice(-1)[0];
    return h("div.ga-run", {},
      h("p.ga-strong", {}, icon("pick"), h("span", { text: mine ? head : `${this.name(seat)} · ${head}` })),
      h("div.ga-track", { role: "img", "aria-label": head }, track),
      h("p", { text: where }),
      mine ? h("p.ga-hint", { text: `${hint} ${this.t("A field takes a cube of its colour, or two cubes of other colours.")}` }) : null,
      last ? h("p.ga-last", { text: last }) : null,
      this.legal.has(JSON.stringify(["done"])) ? this.action(["done"], "span.ga-big", {}, icon("check"), this.legal.get(JSON.stringify(["done"]))) : null);
  }

  /** The steps of the pit being mined: remembered from the placement, else the only pit that fits. */
  runLength(seat, left) {
    const spaces = this.b.spaces;
    const known = this.mem.mining;
    if (known && known.seat === seat && spaces[known.space] && spaces[known.space].owner === seat) {
      const steps = Number(known.space.split("_")[1]);
      if (steps >= left) return steps;
    }
    const fits = Object.keys(spaces).filter((id) => id.startsWith("mining_") && spaces[id].owner === seat
      && Number(id.split("_")[1]) >= left).map((id) => Number(id.split("_")[1]));
    return fits.length === 1 ? fits[0] : null;
  }

  drawn() {
    const v = this.b;
    const tiles = this.phase === "keep_tile" || this.phase === "return_tiles";
    const keeping = this.phase === "keep_tile" || this.phase === "keep_order";
    const mine = v.current === this.me;
    const out = [];
    if (!mine || !v.drawn) {
      out.push(h("p", { text: tiles ? this.t("{player} looks at tunnel tiles drawn from the stack.", { player: this.name(v.current) })
        : this.t("{player} looks at order cards drawn from the deck.", { player: this.name(v.current) }) }));
      return h("div", {}, out);
    }
    const show = (item) => (tiles ? this.tile(item) : this.card(item));
    if (keeping) {
      out.push(h("p", { text: tiles ? this.t("Buy one of the drawn tunnel tiles, or none (only you see them).")
        : this.t("Keep one of the drawn order cards, or none (only you see them).") }));
      const items = v.drawn.map((item) => this.action([tiles ? "keep_tile" : "keep_order", item.id], "span.ga-pick", {}, show(item)));
      const none = this.action([tiles ? "keep_tile" : "keep_order", null], "span.ga-pick.ga-pick-none", {},
        h("span", { text: tiles ? this.t("Keep no tunnel tile") : this.t("Keep no order card") }));
      out.push(h("div.ga-hand", {}, items, none));
      return h("div", {}, out);
    }
    out.push(h("p", { text: tiles ? this.t("Put the other tiles back one by one, in the order you like, all on top of the stack or all under it. On top, the tile put back last is drawn first.")
      : this.t("Put the other cards back one by one, in the order you like, all on top of the deck or all under it. On top, the card put back last is drawn first.") }));
    // one item at a time: each drawn item with a button per side still open
    const kind = tiles ? "return_tiles" : "return_orders";
    const items = v.drawn.map((item) => h("span.ga-returnpick", {}, show(item),
      ...["top", "bottom"].filter((where) => this.legal.has(JSON.stringify([kind, where, item.id])))
        .map((where) => this.action([kind, where, item.id], "span.ga-side", {}, icon(where === "top" ? "up" : "down"),
          h("span", { text: where === "top" ? this.t("on top") : this.t("under") })))));
    out.push(h("div.ga-hand", {}, items));
    if (v.returned) {
      out.push(h("p", { text: v.returned.to === "top" ? this.t("Put back on top so far (the last one is drawn first):")
        : this.t("Put back under the pile so far (the last one lies lowest):") }));
      out.push(h("div.ga-hand.ga-returned", {}, v.returned.items.map(show)));
    }
    return h("div", {}, out);
  }

  // the board ----------------------------------------------------------------------------------

  board() {
    const v = this.b;
    const ids = this.edition.spaces || Object.keys(v.spaces); // in print order, the locked ones too
    const groups = {
      factory: [], order: [], mining: [], delivery: [], money: [],
    };
    for (const id of ids) {
      const kind = kindOf(id);
      const group = kind === "factory_draw" ? "factory" : kind === "order_draw" ? "order" : kind === "bank" ? "money" : kind;
      if (!groups[group]) continue;
      groups[group].push(this.space(id, v.spaces[id]));
    }
    const area = (cls, iconName, title, spaces) => h(`section.ga-area.${cls}`, { "aria-label": title },
      h("h2", {}, icon(iconName), h("span", { text: title })), h("div.ga-spaces", {}, spaces));
    return h("div.ga-board", {},
      area("ga-factory", "cart", this.t("Factory (tunnel tiles)"), groups.factory),
      area("ga-orders", "card", this.t("New orders"), groups.order),
      area("ga-mining", "pick", this.t("Mining"), groups.mining),
      area("ga-delivery", "train", this.t("Delivery"), groups.delivery),
      area("ga-money", "coin", this.t("Money"), groups.money),
      this.clock());
  }

  space(id, entry) {
    const kind = kindOf(id);
    const value = id.slice(kind.length + 1);
    if (!entry) {
      const label = this.t("{space}: locked at this table", { space: this.spaceTitle(kind, value) });
      return h(`div.ga-space.ga-k-${kind}.ga-locked`, { role: "img", "aria-label": label, title: label },
        h("span.ga-space-top", { "aria-hidden": "true" }, this.spaceTop(kind, value)),
        h("span.ga-lockmark", { "aria-hidden": "true" }, icon("lock"), h("span", { text: this.t("locked") })));
    }
    const content = [h("span.ga-space-top", {}, this.spaceTop(kind, value)), this.spaceBody(kind, value, entry)];
    let occupants;
    if (kind === "bank") {
      const standing = Object.entries(entry.workers || {}).filter(([, n]) => n).map(([s, n]) => this.meeple(Number(s), n));
      occupants = h("span.ga-occupants", {}, standing);
    } else if (entry.owner !== null && entry.owner !== undefined && entry.workers) {
      occupants = h("span.ga-occupants", {}, this.meeple(entry.owner, entry.workers),
        h("span.ga-sr", { text: this.t("Placing here costs {n} workers.", { n: entry.workers + 1 }) }));
    } else {
      occupants = h("span.ga-occupants.ga-free", {}, h("span.ga-sr", { text: this.t("free") }));
    }
    const action = ["place", id];
    const el = this.action(action, `span.ga-space.ga-k-${kind}`, { "data-focus-key": `place:${id}` }, content, occupants);
    if (el.tagName === "BUTTON") {
      // The label names the space; what lies there and who stands there is its description.
      const desc = this.uid("d");
      el.setAttribute("aria-describedby", desc);
      el.append(h("span.ga-sr", { id: desc, text: this.spaceDescription(kind, entry) }));
      el.querySelectorAll(".ga-sr:not([id])").forEach((n) => n.setAttribute("aria-hidden", "true"));
    } else {
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", this.spaceTitle(kind, value));
    }
    return tagged(el, `space-${id}`, entry);
  }

  spaceDescription(kind, entry) {
    const parts = [];
    if (entry.tile) parts.push(this.tileLabel(entry.tile));
    if (entry.card) parts.push(this.cardLabel(entry.card));
    if (kind !== "bank" && entry.workers && entry.owner !== null) {
      parts.push(this.t("Workers of {player}: {n}", { player: this.name(entry.owner), n: entry.workers }));
      parts.push(this.t("Placing here costs {n} workers.", { n: entry.workers + 1 }));
    }
    return parts.join(". ");
  }

  spaceTitle(kind, value) {
    switch (kind) {
      case "factory": return this.t("Factory space {number}", { number: value });
      case "factory_draw": return this.t("Factory: draw 5 tunnel tiles");
      case "order": return this.t("Order space {number}", { number: value });
      case "order_draw": return this.t("New orders: draw 5 order cards");
      case "mining": return this.t("{steps} steps", { steps: value });
      case "delivery": return this.transport(value);
      case "money": return this.marks(Number(value));
      case "bank": return this.t("Bank");
      default: return `${kind} ${value}`;
    }
  }

  spaceTop(kind, value) {
    switch (kind) {
      case "factory": case "order": return h("span.ga-num", { text: value });
      case "factory_draw": case "order_draw": return h("span.ga-num", { text: this.t("draw 5") });
      case "mining": return [icon("pick"), h("span.ga-big-num", { text: value })];
      case "delivery": return [icon(value, null, "ga-transport"), h("span.ga-word", { text: this.transport(value) })];
      case "money": return [icon("coin"), h("span.ga-big-num", { text: value })];
      case "bank": return [icon("bank"), h("span.ga-word", { text: this.t("Bank") }), icon("coin"), h("span.ga-big-num", { text: "1" })];
      default: return h("span", { text: value });
    }
  }

  spaceBody(kind, value, entry) {
    const v = this.b;
    if (kind === "factory") {
      if (entry.tile) return this.tile(entry.tile);
      return h("span.ga-empty-slot", { text: v.tile_stack ? this.t("refilled at the end of the turn") : this.t("empty (stack used up)") });
    }
    if (kind === "order") {
      if (entry.card) return this.card(entry.card);
      if (this.phase === "draft") return h("span.ga-empty-slot", { text: this.t("filled after the draft") });
      return h("span.ga-empty-slot", { text: v.order_deck ? this.t("refilled at the end of the turn") : this.t("empty (deck used up)") });
    }
    if (kind === "factory_draw") {
      return h("span.ga-drawpile", { title: this.t("Tunnel tiles in the stack: {n}", { n: v.tile_stack }) }, icon("stack"), h("span", { text: String(v.tile_stack) }));
    }
    if (kind === "order_draw") {
      return h("span.ga-drawpile", { title: this.t("Order cards in the deck: {n}", { n: v.order_deck }) }, icon("deck"), h("span", { text: String(v.order_deck) }));
    }
    return null;
  }

  // the shift clock ----------------------------------------------------------------------------

  clock() {
    const v = this.b;
    const two = this.view.players <= 2;
    const cats = (this.edition.categories || []).map((c) => [c.id, c.kind, c.key, c.first, c.second, c.from_shift]);
    const W = 430, H = 212, cx = 215, cy = 192, R = 140;
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "ga-clock-svg");
    svg.setAttribute("role", "group"); // its categories are images with help of their own
    const title = this.t("Shift clock: at the end of shift {shift} the categories up to the hand score.", { shift: v.shift });
    svg.setAttribute("aria-label", title);
    withHelp(svg, `${title} ${this.t("Shift scoring: after each shift, the players with the most (1st) and second most (2nd) in each category score its VP; ties share the place, and with two players there is no 2nd place.")}`);
    const add = (tag, attrs, parent = svg) => {
      const el = document.createElementNS(SVG_NS, tag);
      for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, String(val));
      parent.append(el);
      return el;
    };
    add("path", { d: `M ${cx - R - 20} ${cy} A ${R + 20} ${R + 20} 0 0 1 ${cx + R + 20} ${cy} Z`, class: "ga-clock-face" });
    const hand = Math.min(cats.length, 4 * v.shift) - 1;
    const angle = (i) => Math.PI - (i + 0.5) * Math.PI / cats.length;
    cats.forEach(([id, kind, key, first, second, from], i) => {
      const a = angle(i);
      const x = cx + R * Math.cos(a), y = cy - R * Math.sin(a);
      const active = from <= v.shift;
      const g = add("g", { class: `ga-cat ga-cat-${kind}${active ? " ga-active" : ""}`, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` });
      const name = this.categoryName(id);
      const prize = two ? this.t("{category}: {first} VP for 1st place", { category: name, first })
        : this.t("{category}: {first} VP for 1st place, {second} VP for 2nd", { category: name, first, second });
      const from_ = active ? prize : `${prize} (${this.t("from shift {shift}", { shift: from })})`;
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", from_);
      withHelp(g, `${from_}. ${this.categoryHelp(kind)} ${this.t("A player scores a category only with at least 1 in it; a tie for 1st gives every tied player the 1st place's VP and no 2nd place.")}`);
      add("circle", { r: 16, class: "ga-cat-disc" }, g);
      if (kind === "colour_fields") {
        add("circle", { r: 10, class: `ga-fill-${key}`, stroke: "#333", "stroke-width": 1 }, g);
        const letter = add("text", { y: 4, "text-anchor": "middle", class: `ga-cat-letter ga-on-${key}` }, g);
        letter.textContent = this.letter(key);
      } else if (kind === "transport_fields") {
        const inner = add("svg", { x: -11, y: -11, width: 22, height: 22, viewBox: "0 0 24 24", class: "ga-cat-icon" }, g);
        inner.innerHTML = ICONS[key];
      } else {
        const inner = add("svg", { x: -11, y: -12, width: 22, height: 22, viewBox: "0 0 24 24", class: `ga-cat-cart ga-stroke-${key}` }, g);
        inner.innerHTML = ICONS.cart;
        const letter = add("text", { y: 14, "text-anchor": "middle", class: "ga-cat-letter ga-cat-small" }, g);
        letter.textContent = this.letter(key);
      }
      const lx = cx + (R + 22) * Math.cos(a), ly = cy - (R + 24) * Math.sin(a) + 4;
      const anchor = Math.cos(a) > 0.35 ? "start" : Math.cos(a) < -0.35 ? "end" : "middle";
      const vp = add("text", { x: lx.toFixed(1), y: ly.toFixed(1), "text-anchor": anchor, class: `ga-cat-vp${active ? " ga-active" : ""}` });
      vp.textContent = two ? String(first) : `${first}/${second}`;
      vp.setAttribute("aria-hidden", "true");
    });
    const a = angle(hand);
    const hx = cx + (R - 26) * Math.cos(a), hy = cy - (R - 26) * Math.sin(a);
    add("line", { x1: cx, y1: cy, x2: hx.toFixed(1), y2: hy.toFixed(1), class: "ga-clock-hand" });
    add("circle", { cx, cy, r: 7, class: "ga-clock-hub" });
    const roman = add("text", { x: cx, y: cy - 30, "text-anchor": "middle", class: "ga-clock-shift" });
    roman.textContent = ["I", "II", "III", "IV", "V"][v.shift - 1] || String(v.shift);
    const legend = h("p.ga-clock-legend", { text: two ? this.t("VP for the majority; with 2 players no 2nd place.")
      : this.t("VP for 1st/2nd place in each category.") });
    return h("section.ga-area.ga-clock", { "aria-label": this.t("Shift clock") },
      h("h2", {}, icon("star"), h("span", { text: this.t("Shift clock") })),
      h("div.ga-clock-body", {}, h("div.ga-clock-dial", {}, h("span.ga-sr", { text: title }), svg, legend), this.scoringTable()));
  }

  scoringTable() {
    const s = this.mem.scoring;
    const v = this.b;
    if (!s || !(s.shift < v.shift || (s.shift === v.shift && this.phase === "over"))) return null;
    if (s.lines) {
      return h("div.ga-scoring", {}, h("p.ga-strong", { text: this.t("Scoring after shift {shift}", { shift: s.shift }) }),
        h("ul.ga-scorelines", {}, s.lines.map((line) => h("li", {}, this.categoryIcon(line.category), h("span", { text: line.text })))));
    }
    return h("div.ga-scoring", {}, this.scoringRows(s.shift, s.rows));
  }

  /** A shift's scoring as a table: a row per category, a column per player (count and VP); with
   * `total`, a last row of each player's VP from this scoring. */
  scoringRows(shift, scored, total = false) {
    const n = this.b.seats.length;
    const head = h("tr", {}, h("th", { scope: "col", text: this.t("Category") }),
      this.b.seats.map((_, seat) => h("th", { scope: "col" }, h(`span.ga-dot.ga-seat${seat % 4}`, { "aria-hidden": "true" }), this.name(seat))));
    const rows = scored.map((row) => h("tr", {},
      h("th", { scope: "row" }, this.categoryIcon(row.category), this.categoryName(row.category)),
      Array.from({ length: n }, (_, seat) => {
        const count = (row.counts || [])[seat] ?? 0, vp = (row.vp || [])[seat] ?? 0;
        return h(`td${vp ? ".ga-scored" : ""}`, {},
          h("span.ga-count", { text: String(count) }), vp ? h("span.ga-plus", { text: this.t("+{vp} VP", { vp }) }) : null);
      })));
    if (total) {
      rows.push(h("tr.ga-scoring-total", {}, h("th", { scope: "row", text: this.t("Total") }),
        Array.from({ length: n }, (_, seat) => h("td", {}, h("strong", {
          text: this.t("+{vp} VP", { vp: scored.reduce((sum, row) => sum + ((row.vp || [])[seat] ?? 0), 0) }) })))));
    }
    return h("table", {}, h("caption", { text: this.t("Scoring after shift {shift} (count, VP)", { shift }) }),
      h("thead", {}, head), h("tbody", {}, rows));
  }

  /** What a kind of shift clock category counts (its rules help). */
  categoryHelp(kind) {
    return {
      colour_fields: this.t("Counts the fields of this colour on your delivered orders (their printed colour, also when filled with two cubes of other colours)."),
      transport_fields: this.t("Counts the fields, of any colour, on your delivered orders with this transport."),
      empty_carts: this.t("Counts the empty minecarts of this colour in your pit, the printed starting ones included."),
    }[kind] || "";
  }

  categoryIcon(id) {
    const cat = (this.edition.categories || []).find((c) => c.id === id);
    if (!cat) return null;
    const { kind, key } = cat;
    if (kind === "transport_fields") return icon(key);
    if (kind === "empty_carts") return h(`span.ga-cat-mini.ga-stroke-${key}`, { "aria-hidden": "true" }, icon("cart"));
    return h("span", { "aria-hidden": "true" }, this.cube(key));
  }

  // the mines ----------------------------------------------------------------------------------

  mines() {
    const v = this.b;
    const order = v.seats.map((_, i) => i);
    if (this.me !== null) order.sort((a, b) => (a === this.me ? -1 : b === this.me ? 1 : a - b));
    return h(`div.ga-mines.ga-n${v.seats.length}`, {}, order.map((seat) => this.mine(seat)));
  }

  mine(seat) {
    const v = this.b;
    const p = v.seats[seat];
    const current = v.current === seat && this.phase !== "over";
    const stats = tagged(h("div.ga-stats", {},
      h("span.ga-stat", { title: this.t("Victory points: {vp}", { vp: p.vp }) }, icon("star", null, "ga-gold"),
        h("span.ga-sr", { text: this.t("Victory points: {vp}", { vp: p.vp }) }), h("b", { "aria-hidden": "true", text: String(p.vp) })),
      h("span.ga-stat", { title: this.t("Money: {marks}", { marks: this.marks(p.money) }) }, icon("coin"),
        h("span.ga-sr", { text: this.t("Money: {marks}", { marks: this.marks(p.money) }) }), h("b", { "aria-hidden": "true", text: String(p.money) })),
      h(`span.ga-stat.ga-seat${seat % 4}`, { title: this.t("Workers left: {n}", { n: p.workers }) }, icon("meeple"),
        h("span.ga-sr", { text: this.t("Workers left: {n}", { n: p.workers }) }), h("b", { "aria-hidden": "true", text: String(p.workers) })),
      h("span.ga-stat.ga-minor", { title: this.t("In the canteen: {n}", { n: p.canteen }) }, icon("canteen"),
        h("span.ga-sr", { text: this.t("In the canteen: {n}", { n: p.canteen }) }), h("span", { "aria-hidden": "true", text: String(p.canteen) })),
      h("span.ga-stat.ga-minor", { title: this.t("In the bank: {n}", { n: p.bank }) }, icon("bank"),
        h("span.ga-sr", { text: this.t("In the bank: {n}", { n: p.bank }) }), h("span", { "aria-hidden": "true", text: String(p.bank) }))),
    `stats-${seat}`, [p.vp, p.money, p.workers, p.canteen, p.bank]);
    const head = h("header.ga-mine-head", {},
      h("h2", {}, h(`span.ga-dot.ga-seat${seat % 4}`, { "aria-hidden": "true" }), h("span", { text: this.nameYou(seat) }),
        v.start_player === seat ? icon("barbara", this.t("start player"), "ga-barbara") : null,
        current ? h("span.ga-turn", { text: this.t("to act") }) : null),
      stats);
    const cls = `section.ga-mine.ga-seat${seat % 4}${current ? ".ga-current" : ""}${seat === this.me ? ".ga-own" : ""}`;
    return h(cls, { "aria-label": this.t("Mine of {player}", { player: this.name(seat) }) },
      tagged(head, `turn-${seat}`, current), tagged(this.pit(seat, p), `pit-${seat}`, [p.cage_level, p.cage, p.storage, p.tunnels]),
      tagged(this.balance(p), `balance-${seat}`, [p.light_tiles, p.dark_tiles]),
      tagged(this.orders(seat, p), `orders-${seat}`, p.orders), tagged(this.delivered(p), `delivered-${seat}`,
        [p.delivered_count, p.delivered]));
  }

  pit(seat, p) {
    const v = this.b;
    const acting = this.phase === "mining" && v.current === seat && seat === this.me;
    const grid = h("div.ga-pit", { role: "group", "aria-label": this.t("Pit") });
    // header: sides
    grid.append(h("span.ga-pit-corner", { "aria-hidden": "true" }),
      h("span.ga-side-head.ga-dark-head", {}, h("span", { text: this.t("dark side") })),
      h("span.ga-side-head.ga-shaft-head", { "aria-hidden": "true" }),
      h("span.ga-side-head.ga-light-head", {}, icon("lantern"), h("span", { text: this.t("light side") })));
    for (const level of LEVELS) {
      const here = p.cage_level === level;
      const rowCls = `ga-lv-${level}${here ? " ga-cage-here" : ""}`;
      const label = level === "surface" ? h("span.ga-lv-label", { title: this.t("surface") }, icon("tower")) :
        h("span.ga-lv-label", { title: this.levelWord(level) }, this.cube(level));
      let dark, light;
      if (level === "surface") {
        dark = h("span.ga-storage", { title: this.t("Storage") }, icon("crate"), h("span.ga-label", { text: this.t("Storage") }),
          this.cubes(p.storage, ""));
        light = h("span.ga-surface-note", {});
      } else {
        [dark, light] = this.tunnel(p.tunnels[LEVELS.indexOf(level) - 1], acting && here);
      }
      const shaft = this.shaftCell(seat, p, level, acting);
      const rope = LEVELS.indexOf(level) <= LEVELS.indexOf(p.cage_level) && level !== "surface" ? ".ga-rope" : "";
      grid.append(h(`span.ga-cell.ga-lv.${rowCls}`, {}, label),
        h(`span.ga-cell.ga-dark.${rowCls}`, {}, dark),
        h(`span.ga-cell.ga-shaft.${rowCls}${rope}`, {}, shaft),
        h(`span.ga-cell.ga-light.${rowCls}`, {}, light));
    }
    return grid;
  }

  shaftCell(seat, p, level, acting) {
    if (p.cage_level === level) return this.cage(p, acting);
    const move = ["cage", level];
    if (acting && this.legal.has(JSON.stringify(move))) {
      const up = LEVELS.indexOf(level) < LEVELS.indexOf(p.cage_level);
      return this.action(move, "span.ga-move", { "data-focus-key": `cage:${level}` }, icon(up ? "up" : "down"));
    }
    return null;
  }

  cage(p, acting) {
    const label = this.t("Cage ({where}): {n} of {max} cubes", {
      where: this.levelWord(p.cage_level), n: COLOURS.reduce((s, c) => s + (p.cage[c] || 0), 0), max: this.edition.cage_capacity,
    });
    const slots = [];
    for (const c of COLOURS) {
      for (let i = 0; i < (p.cage[c] || 0); i++) {
        const store = ["store", c];
        slots.push(acting && this.legal.has(JSON.stringify(store))
          ? this.action(store, "span.ga-slot", { "data-focus-key": `store:${c}:${i}` }, this.cube(c)) : h("span.ga-slot", {}, this.cube(c)));
      }
    }
    while (slots.length < this.edition.cage_capacity) slots.push(h("span.ga-slot.ga-free-slot", { "aria-hidden": "true" }));
    return h("span.ga-cage", { role: "group", "aria-label": label, title: label }, slots);
  }

  /** A tunnel's dark and light halves: tiles outward from the shaft, the printed minecart next to it. */
  tunnel(tunnel, loading) {
    const colour = tunnel.colour;
    const tileCarts = [...tunnel.dark, ...tunnel.light].reduce((s, t) => s + t.carts, 0);
    const printed = Math.max(0, tunnel.carts - tileCarts);
    const printedSide = PRINTED_SIDE[colour] || "dark";
    // carts by distance from the shaft: the ones nearest empty first (cubes stay outward)
    const slots = []; // {side, group, index, distance}
    const groups = { dark: [], light: [] };
    for (const side of ["dark", "light"]) {
      let distance = 0;
      if (printedSide === side && printed) {
        const g = { printed: true, carts: [] };
        for (let i = 0; i < printed; i++) { g.carts.push(null); slots.push({ g, i, distance: distance++ }); }
        groups[side].push(g);
      }
      for (const tile of tunnel[side]) {
        const g = { tile, carts: [] };
        for (let i = 0; i < tile.carts; i++) { g.carts.push(null); slots.push({ g, i, distance: distance++ }); }
        groups[side].push(g);
      }
    }
    const cubes = [];
    for (const c of [colour, ...COLOURS.filter((x) => x !== colour)]) for (let i = 0; i < (tunnel.coal[c] || 0); i++) cubes.push(c);
    slots.sort((a, b) => b.distance - a.distance);
    slots.forEach((slot, k) => { slot.g.carts[slot.i] = k < cubes.length ? cubes[k] : null; });
    const draw = (g) => {
      const carts = g.carts.map((c, i) => {
        const load = ["load", c];
        if (c && loading && this.legal.has(JSON.stringify(load))) {
          return this.action(load, "span.ga-cartbtn", { "data-focus-key": `load:${colour}:${g.tile ? g.tile.id : "p"}:${i}` }, this.cart(c));
        }
        return this.cart(c);
      });
      if (g.printed) return h("span.ga-printed", { title: this.t("printed minecart") }, carts);
      const side = g.tile.side === "light" ? this.t("light side") : this.t("dark side");
      const label = this.t("Tunnel tile {id} ({side})", { id: g.tile.id, side });
      return h(`span.ga-tile.ga-tile-${g.tile.side}.ga-tint-${colour}.ga-in-pit`, { title: label },
        h("span.ga-tile-carts", {}, g.tile.side === "light" ? icon("lantern", null, "ga-lantern") : null, carts));
    };
    // dark side reads outward to the left: the nearest group last
    const dark = h("span.ga-side-tiles.ga-dark-tiles", {}, [...groups.dark].reverse().map(draw));
    const light = h("span.ga-side-tiles.ga-light-tiles", {}, groups.light.map(draw));
    return [dark, light];
  }

  balance(p) {
    const off = Math.abs(p.light_tiles - p.dark_tiles);
    const text = off ? this.t("Tiles: {light} light, {dark} dark ({n} out of balance)", { light: p.light_tiles, dark: p.dark_tiles, n: off })
      : this.t("Tiles: {light} light, {dark} dark", { light: p.light_tiles, dark: p.dark_tiles });
    return h(`p.ga-balance${off ? ".ga-warn" : ""}`, { text });
  }

  orders(seat, p) {
    const acting = this.phase === "mining" && this.b.current === seat && seat === this.me;
    const fills = acting ? this.legalOf("fill") : [];
    const cards = p.orders.map((o) => {
      const card = this.card(o, { fills });
      const open = this.mem.open;
      let chooser = null;
      if (open && open.startsWith(`${o.id}:`)) {
        const j = Number(open.split(":")[1]);
        const options = fills.filter((a) => a[2] === o.id && a[3] === j);
        const close = (e) => {
          if (e.key !== "Escape") return;
          this.mem.open = null;
          this.redraw();
          const back = this.root.querySelector(`[data-focus-key="choose:${CSS.escape(open)}"]`);
          if (back) back.focus();
        };
        chooser = h("span.ga-chooser", { role: "group", "aria-label": this.t("Choose a cube"), onkeydown: close }, options.map((a) =>
          this.action(a, "span.ga-option", { "data-focus-key": `fill:${a.join(":")}` }, this.cube(a[4]),
            icon(a[1] === "cage" ? "cage" : "crate", null, "ga-src"))));
      }
      return h("span.ga-order", {}, card, chooser);
    });
    return h("div.ga-orders-own", {},
      h("h3", { text: this.t("Outstanding orders: {n}", { n: p.orders.length }) }),
      cards.length ? h("div.ga-cardrow", {}, cards) : h("p.ga-none", { text: this.t("none") }));
  }

  delivered(p) {
    const v = this.b;
    let body;
    if (!p.delivered_count) body = h("span.ga-none", { text: this.t("none") });
    else if (!p.delivered) {
      body = h("span.ga-facedown", {}, h("span.ga-backs", { "aria-hidden": "true" }, Array.from({ length: Math.min(p.delivered_count, 8) }, () => h("span.ga-back"))),
        h("span", { text: this.phase === "over" ? this.t("face down") : this.t("face down until the shift scoring") }));
    } else body = h("div.ga-cardrow", {}, p.delivered.map((c) => this.card(c, { small: true })));
    return h("div.ga-delivered", {}, h("h3", { text: this.t("Delivered: {n}", { n: p.delivered_count }) }), body);
  }

  // the end ------------------------------------------------------------------------------------

  finalTable() {
    const v = this.b;
    const winners = this.winners();
    const cols = [N("Shifts, deliveries"), N("Marks"), N("Coal"), N("Orders"), N("Balance"), N("Total"), N("Marks kept")];
    const head = h("tr", {}, h("th", { scope: "col", text: this.t("Player") }), cols.map((c) => h("th", { scope: "col", text: this.t(c) })));
    const rows = this.view.final.detail.map((row, seat) => {
      const total = v.seats[seat].vp;
      return h(`tr${winners.includes(seat) ? ".ga-winner" : ""}`, {},
        h("th", { scope: "row" }, h(`span.ga-dot.ga-seat${seat % 4}`, { "aria-hidden": "true" }), this.nameYou(seat),
          winners.includes(seat) ? h("span.ga-win", {}, icon("star", null, "ga-gold"), this.t("winner")) : null),
        h("td", { text: String(total - row.total_vp) }),
        h("td", { text: String(row.marks_vp) }),
        h("td", { text: `${row.coal_vp} (${row.coal})` }),
        h("td", { text: `${row.outstanding_vp} (${row.outstanding})` }),
        h("td", { text: `${row.balance_vp} (${row.light_tiles}:${row.dark_tiles})` }),
        h("td.ga-total", { text: String(total) }),
        h("td", { text: String(row.kept_marks) }));
    });
    const caption = this.t("Marks: 1 VP per {marks} Marks · Coal: 1 VP per {coal} cubes (cubes owned) · Orders: {order} VP per order outstanding (orders) · Balance: {tile} VP per tile one side has in excess (light:dark) · Marks kept: the tie-break", {
      marks: this.edition.marks_per_vp, coal: this.edition.coal_per_vp, order: this.edition.vp_per_outstanding_order,
      tile: this.edition.vp_per_unbalanced_tile,
    });
    return h("section.ga-final", { tabindex: "0", "aria-label": this.t("Final scores (victory points by source)") },
      h("table", {}, h("caption", { text: this.t("Final scores (victory points by source)") }), h("thead", {}, head), h("tbody", {}, rows)),
      h("p.ga-hint", { text: caption }));
  }
}

function kindOf(id) {
  if (id === "factory_draw" || id === "order_draw" || id === "bank") return id;
  const i = id.lastIndexOf("_");
  return i < 0 ? id : id.slice(0, i);
}

/** Fills {name} fields (the frame's ctx.t does this after translating). */
function format(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

export function render(root, view, ctx = {}) {
  new Board(root, view, ctx).render();
}

/** The decision panel's groups: worker spaces by area, a mining step by what it does. */
export function groups(legal, labels, view, ctx = {}) {
  const t = (msgid, params) => (ctx.t ? ctx.t(msgid, params || {}) : format(msgid, params));
  const kinds = new Map();
  const titles = {
    factory: N("Factory (tunnel tiles)"), order: N("New orders"), mining: N("Mining"), delivery: N("Delivery"),
    money: N("Money"), cage: N("Move the cage"), load: N("Load into the cage"), store: N("Into storage"),
    fill: N("Onto order fields"), done: N("End the run"),
  };
  legal.forEach((action, i) => {
    let kind = String(action[0]);
    if (kind === "place") {
      const space = kindOf(String(action[1]));
      kind = space === "factory_draw" ? "factory" : space === "order_draw" ? "order" : space === "bank" ? "money" : space;
    }
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(i);
  });
  const order = ["factory", "order", "mining", "delivery", "money", "cage", "load", "store", "fill", "done"];
  const keys = [...kinds.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return keys.map((kind) => ({
    title: titles[kind] ? t(titles[kind]) : null,
    indices: kinds.get(kind),
    style: kinds.get(kind).length > 10 ? "select" : "buttons",
  }));
}

// --- the log and the result panel (docs/web.md, "The log") ---------------------------------------

const SEAT_COLOURS = ["#d03030", "#2f6fdb", "#1f9a38", "#a63cb8"];
const CUBE_FILLS = { yellow: "#f2cb1d", brown: "#8b5424", grey: "#a3a3a3", black: "#222222" };

function cubeIcon(colour) {
  const el = icon("cart");
  el.innerHTML = `<rect x="4" y="4" width="16" height="16" rx="3" fill="${CUBE_FILLS[colour] || "#fff"}" stroke="#333" stroke-width="1.5"/>`;
  return el;
}

const LOG_ICONS = {
  placed: () => icon("meeple"), cage_moved: () => icon("cage"), tile_bought: () => icon("cart"),
  order_taken: () => icon("card"), drafted: () => icon("card"), marks: () => icon("coin"), shift_starts: () => icon("pick"),
  shift_ends: () => icon("star"), category_scored: () => icon("star"), final_scoring: () => icon("star"),
  game_over: () => icon("star"), cart_left_empty: () => icon("cart"), kept_nothing: () => icon("hand"),
};

/** The seat an event is about (its own `seat`), else the seat whose move it came with. */
function seatOf(event) {
  const seat = event.params && typeof event.params.seat === "number" ? event.params.seat : event.by;
  return typeof seat === "number" && seat >= 0 ? seat : null;
}

function isFirstScoring(event, index, items) {
  if (event.kind !== "category_scored") return false;
  const before = items[index - 1] && items[index - 1].event;
  return !(before && before.kind === "category_scored" && before.params.shift === event.params.shift);
}

export const log = {
  rounds: ["shift_starts"],

  decorate(event) {
    const seat = seatOf(event);
    const p = event.params || {};
    const colour = p.colour && CUBE_FILLS[p.colour] ? p.colour : null;
    const make = event.kind === "delivered" && ICONS[p.transport] ? () => icon(p.transport)
      : colour ? () => cubeIcon(colour) : LOG_ICONS[event.kind];
    return { colour: seat === null ? null : SEAT_COLOURS[seat % 4], icon: make ? make() : null };
  },

  /** A shift's scoring opens a panel (its first category's entry carries the button). */
  opens(event, index, items) {
    return isFirstScoring(event, index, items);
  },

  panel(event, index, items, view, ctx) {
    if (!isFirstScoring(event, index, items)) return null;
    const rows = [];
    for (let i = index; i < items.length && items[i].event && items[i].event.kind === "category_scored"
      && items[i].event.params.shift === event.params.shift; i++) rows.push(items[i].event.params);
    const board = new Board(document.createElement("div"), view, ctx);
    return { title: board.t("Scoring after shift {shift}", { shift: event.params.shift }),
      body: h("div.ga.ga-result", {}, h("div.ga-scoring", {}, board.scoringRows(event.params.shift, rows, true))) };
  },
};

/** A round as a replay names it (GameSpec.round_of: the shift). */
export function roundName(number, view, ctx) {
  return ctx.t("Shift {shift} of {shifts}", { shift: number, shifts: view.board.shifts });
}

export default { render, groups, log, roundName };
