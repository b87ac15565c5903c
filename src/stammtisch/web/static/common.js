// Shared by the lobby and the game page: texts, storage, DOM building, HTTP.

export const LANGUAGE_KEY = "stammtisch.lang";
export const NAME_KEY = "stammtisch.name";

// ---------------------------------------------------------------- texts

/** The language to use: the one chosen on a page before, else the browser's, else English. */
export function preferredLanguage(available = ["en", "de", "pl", "it", "ko"]) {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored && available.includes(stored)) return stored;
  for (const wish of navigator.languages || [navigator.language || "en"]) {
    const code = String(wish).toLowerCase().split(/[-_]/)[0];
    if (available.includes(code)) return code;
  }
  return "en";
}

/** Loads the UI texts of one language: {lang, languages, t, terms, formatNumber}. */
export async function loadTexts(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`texts: HTTP ${response.status}`);
  const data = await response.json();
  const strings = data.strings || {};
  const numbers = new Intl.NumberFormat(data.lang);
  const t = (msgid, params) => format(strings[msgid] ?? msgid, params);
  return {
    lang: data.lang,
    languages: data.languages,
    terms: data.terms || {},
    t,
    formatNumber: (n) => numbers.format(n),
  };
}

/** Fills {name} fields, like Python's str.format with named fields. */
export function format(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

// ---------------------------------------------------------------- DOM

/**
 * el("button", {class: "x", onclick: f, "aria-label": "…"}, "text", child, …)
 * Attributes: class, text, html (trusted markup only: our own SVG), on<event> handlers, dataset via
 * data-*, booleans set or removed; children: strings, nodes, arrays, null (skipped).
 */
export function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "g", "path", "rect", "circle", "text", "line", "polygon", "ellipse", "title", "use",
    "polyline", "defs", "symbol", "tspan"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** A phase's name as a link to the section of the game's rules page that explains it (web/rules.py gives
 * every phase the anchor `phase-NAME`); it opens in a new tab, in the page's language. */
export function phaseRulesLink(game, lang, anchor, attrs, ...children) {
  return el("a", { class: "phase-rules", target: "_blank", rel: "noopener", ...attrs,
    href: `/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}#phase-${encodeURIComponent(anchor)}` },
  ...children);
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of node. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

/** fill() for what is drawn again every few seconds (the lobby's lists, My games): the keyboard focus stays on
 * the control at the same place instead of falling to the page. */
export function refill(node, ...children) {
  const active = document.activeElement;
  const at = node.contains(active) ? [...node.querySelectorAll(FOCUSABLE)].indexOf(active) : -1;
  fill(node, ...children);
  if (at >= 0) node.querySelectorAll(FOCUSABLE)[at]?.focus({ preventScroll: true });
}

let uniqueCounter = 0;
export function uid(prefix = "id") {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

/** Shows a message in the page's alert region (role=alert); an empty text hides it. */
/** The games' titles and option schemas in the page's language (lobby, my games): ``state.games``, kept
 * as it was if the request fails. */
export async function loadGames(state) {
  try {
    state.games = await api("GET", `/api/games?lang=${encodeURIComponent(state.texts.lang)}`);
  } catch (error) {
    showAlert(error.message);
  }
}

/** A page's language switch (lobby, my games): the choice kept, its texts and the games loaded. */
export async function switchPageLanguage(state, code) {
  localStorage.setItem(LANGUAGE_KEY, code);
  state.texts = await loadTexts(code);
  document.documentElement.lang = state.texts.lang;
  await loadGames(state);
}

export function showAlert(text) {
  const node = document.getElementById("alert");
  if (!node) return;
  node.textContent = text || "";
  node.hidden = !text;
}

// ---------------------------------------------------------------- HTTP

export class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new HttpError(response.status, data && data.error, (data && data.message) || `HTTP ${response.status}`);
  }
  return data;
}

// ---------------------------------------------------------------- seats kept in this browser

const SEATS_KEY = "stammtisch.seats";

/** {tableId: {token, seat, host, game, created}} of the tables this browser has a seat or host token at. */
export function mySeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function rememberSeat(tableId, data) {
  const all = mySeats();
  all[tableId] = { ...(all[tableId] || {}), ...data, updated: Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  return all[tableId];
}

export function forgetSeat(tableId) {
  const all = mySeats();
  delete all[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

// ---------------------------------------------------------------- the personal key (docs/web.md, "My games")

const KEY_KEY = "stammtisch.key";
const NEW_KEY = "stammtisch.key.new"; // set while the key made here has not been shown yet

/** The personal key kept in this browser, or null. */
export function personalKey() {
  return localStorage.getItem(KEY_KEY);
}

/** The personal key, made by the server on first use (shown once on the My games page). */
export async function ensureKey() {
  const kept = personalKey();
  if (kept) return kept;
  const { key } = await api("POST", "/api/players", {});
  localStorage.setItem(KEY_KEY, key);
  localStorage.setItem(NEW_KEY, "1");
  return key;
}

/** Uses a key from another device: this browser's seats are bound to it next time (My games). */
export function useKey(key) {
  localStorage.setItem(KEY_KEY, key);
  localStorage.removeItem(NEW_KEY);
  const all = mySeats();
  for (const info of Object.values(all)) delete info.keyed;
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** Whether the key was made here and not shown yet; asking marks it shown. */
export function takeNewKeyNotice() {
  const fresh = localStorage.getItem(NEW_KEY) === "1";
  localStorage.removeItem(NEW_KEY);
  return fresh;
}

/** Seconds as a clock shows them: 1:05:09 under a day, "2 d 3 h" beyond. */
export function formatDuration(t, seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole >= 86400) return t("{days} d {hours} h", { days: Math.floor(whole / 86400),
    hours: Math.floor((whole % 86400) / 3600) });
  const h = Math.floor(whole / 3600);
  const m = String(Math.floor((whole % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${m}:${s}` : `${m}:${s}`;
}

/** A bot kind as the reader says it (the kinds themselves stay English in the API). */
export function botKindName(t, kind) {
  return {
    heuristic: t("heuristic bot"), random: t("random bot"), easy: t("easy bot"), normal: t("normal bot"),
    hard: t("hard bot"),
  }[kind] || kind;
}

const DEFAULT_BOT_NAMES = {
  heuristic: "Bot {number} (heuristic)", random: "Bot {number} (random)", easy: "Bot {number} (easy)",
  normal: "Bot {number} (normal)", hard: "Bot {number} (hard)",
};

/** A seat's name; the server's default names ("Player 2", "Bot 3 (heuristic)") in the page's language. */
export function seatName(t, s) {
  const number = s.seat + 1;
  if (s.name === `Player ${number}`) return t("Player {number}", { number });
  const kind = s.kind === "bot" && s.name === `Bot ${number} (${s.bot})` ? DEFAULT_BOT_NAMES[s.bot] : undefined;
  return kind ? t(kind, { number }) : s.name;
}

/** A read-only text with its label and a Copy button (invite links, the personal key). */
export function copyField(t, text, labelText) {
  const id = uid("copy");
  const input = el("input", { id, type: "text", readonly: true, value: text, class: "copy-text",
    onfocus: (e) => e.target.select() });
  const status = el("span", { class: "copied", role: "status" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      input.select();
      document.execCommand && document.execCommand("copy");
    }
    status.textContent = t("Copied");
  };
  return el("span", { class: "copy-field" }, el("label", { for: id }, labelText), " ", input, " ",
    el("button", { type: "button", onclick: copy, "aria-label": t("Copy: {what}", { what: labelText }) }, t("Copy")),
    status);
}

/** The top bar: home link, title, my games, language switch. onLanguage(code) is called on a change. */
export function topBar(texts, title, onLanguage) {
  const { t } = texts;
  const select = el("select", { id: "language", onchange: (e) => onLanguage(e.target.value) },
    Object.entries(texts.languages).map(([code, name]) =>
      el("option", { value: code, selected: code === texts.lang, lang: code }, name)));
  return [
    el("a", { class: "brand", href: "/", "aria-label": t("Stammtisch: back to the lobby") },
      el("img", { src: "/static/favicon.svg", alt: "", width: 28, height: 28 }), el("span", {}, "Stammtisch")),
    el("h1", { class: "page-title" }, title),
    el("a", { class: "my-games-link", href: "/my-games" }, t("My games")),
    el("label", { class: "language", for: "language" }, el("span", {}, t("Language")), select),
  ];
}

// ---------------------------------------------------------------- rules help (tooltips)

/** Gives a piece of the board its rules help: shown as a tooltip on hover, on keyboard focus and on
 * a tap (installHelp). A piece that takes no focus of its own becomes focusable for it, as one stop of
 * its group (rovingHelp). */
export function withHelp(node, text) {
  if (!text) return node;
  node.dataset.help = text;
  node.removeAttribute("title"); // the tooltip replaces the browser's (hover-only) title
  const focusable = node.matches("button, a[href], input, select, textarea, summary, [tabindex]");
  if (!focusable) {
    node.setAttribute("tabindex", "0");
    node.dataset.helpStop = "";
  }
  return node;
}

// A piece focusable for its help only (a board button that shows it takes its help and drops data-help).
const STOP = "[data-help][data-help-stop]";

/** The group of a piece that is focusable for its help: the nearest [data-help-group] around it, else
 * its parent (a row of opinion cards, the media spots of a state, the categories of the shift clock). */
function helpGroupOf(piece) {
  return piece.parentElement.closest("[data-help-group]") || piece.parentElement;
}

function groupStops(piece) {
  const group = helpGroupOf(piece);
  return [...group.querySelectorAll(STOP)].filter((p) => helpGroupOf(p) === group);
}

/** Roving tabindex for the help pieces under root: one Tab stop per group (its first piece), the arrow
 * keys, Home and End move within it (installHelp). Call after drawing them. */
export function rovingHelp(root) {
  const seen = new Set();
  for (const piece of root.querySelectorAll(STOP)) {
    const group = helpGroupOf(piece);
    piece.setAttribute("tabindex", seen.has(group) ? "-1" : "0");
    seen.add(group);
  }
}

function moveInGroup(event) {
  const piece = event.target instanceof Element && event.target.matches(STOP) ? event.target : null;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
  if (!piece || step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = groupStops(piece).filter((p) => p.getClientRects().length);
  const at = stops.indexOf(piece);
  const next = stops[Math.max(0, Math.min(stops.length - 1, Number.isFinite(step) ? at + step : step < 0 ? 0
    : stops.length - 1))];
  event.preventDefault();
  if (next && next !== piece) next.focus();
}

/** The piece in focus becomes its group's Tab stop (Tab leaves the group and comes back to it). */
function keepStop(event) {
  const piece = event.target instanceof Element && event.target.matches(STOP) ? event.target : null;
  if (!piece) return;
  for (const other of groupStops(piece)) other.setAttribute("tabindex", other === piece ? "0" : "-1");
}

// What the tooltip marks on the piece it explains while shown (installHelp).
const TIP_MARK = '[aria-describedby="help-tip"]';

/** Whether `shown`, a node in the page, draws what `drawn`, made anew, does: the tooltip's mark on the piece
 * under the pointer or in focus is no difference (taken for one, it had the decision panel replace the
 * choices under the player's hand). */
export function drawsTheSame(shown, drawn) {
  if (!(shown instanceof Element && (shown.matches(TIP_MARK) || shown.querySelector(TIP_MARK)))) {
    return shown.isEqualNode(drawn);
  }
  const plain = shown.cloneNode(true); // one piece at a time has the tooltip
  (plain.matches(TIP_MARK) ? plain : plain.querySelector(TIP_MARK)).removeAttribute("aria-describedby");
  return plain.isEqualNode(drawn);
}

/** One tooltip for the page: the rules help of the piece under the pointer, in focus or tapped
 * ([data-help]); Escape or a tap elsewhere closes it. The piece is described by it while shown. */
export function installHelp() {
  const tip = el("div", { id: "help-tip", class: "help-tip", role: "tooltip", hidden: true });
  (document.querySelector("main") || document.body).append(tip); // inside a landmark (axe: region)
  let shownFor = null;
  const hide = () => {
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
    tip.hidden = true;
  };
  const show = (target) => {
    if (!target || !target.isConnected || !target.dataset.help) return hide();
    if (shownFor && shownFor !== target) shownFor.removeAttribute("aria-describedby");
    shownFor = target;
    tip.textContent = target.dataset.help;
    tip.hidden = false;
    target.setAttribute("aria-describedby", "help-tip");
    const r = target.getBoundingClientRect();
    const width = Math.min(320, innerWidth - 16);
    tip.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(r.left, innerWidth - tip.offsetWidth - 8));
    const below = r.bottom + 6 + tip.offsetHeight <= innerHeight;
    tip.style.left = `${left}px`;
    tip.style.top = `${below ? r.bottom + 6 : Math.max(8, r.top - tip.offsetHeight - 6)}px`;
  };
  const helpOf = (node) => (node instanceof Element ? node.closest("[data-help]") : null);
  document.addEventListener("pointerover", (e) => { if (e.pointerType === "mouse") show(helpOf(e.target)); });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType === "mouse" && shownFor && !shownFor.contains(e.relatedTarget)) hide();
  });
  document.addEventListener("focusin", (e) => {
    keepStop(e);
    show(helpOf(e.target));
  });
  document.addEventListener("focusout", () => hide());
  // A tap (touch or pen) toggles the help of what was tapped; whether it was open is read before the
  // tap, since the tap's focus opens it too.
  let openBeforeTap = false;
  document.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse") openBeforeTap = Boolean(shownFor) && shownFor === helpOf(e.target);
  });
  document.addEventListener("click", (e) => {
    if (e.pointerType === "mouse" || !e.pointerType) return;
    const target = helpOf(e.target);
    if (target && openBeforeTap && !target.matches("button")) hide();
    else show(target);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hide();
    moveInGroup(e);
  });
  // Scrolling moves the page under a pointer's tip: hide it. A piece in focus keeps its tip, moved
  // with it (focusing a piece scrolls it into view, and that scroll may come after its focusin).
  window.addEventListener("scroll", () => (shownFor && shownFor === document.activeElement ? show(shownFor) : hide()),
    true);
}

// ---------------------------------------------------------------- JSON Patch (server/delta.py)

/** Applies a JSON Patch (RFC 6902) of replace, remove and add operations, as the server makes them,
 * to `doc` in place; returns the new document (a patch may replace the whole of it). */
export function applyPatch(doc, patch) {
  for (const { op, path, value } of patch) {
    if (path === "") {
      if (op !== "replace") throw new Error(`cannot ${op} the whole document`);
      doc = value;
      continue;
    }
    const parts = path.slice(1).split("/").map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = parts.pop();
    let target = doc;
    for (const part of parts) {
      target = target[Array.isArray(target) ? Number(part) : part];
      if (target === null || typeof target !== "object") throw new Error(`no ${path} to patch`);
    }
    const key = Array.isArray(target) ? Number(last) : last;
    if (op === "remove" && Array.isArray(target)) target.splice(key, 1);
    else if (op === "remove") delete target[key];
    else if (op === "add" && Array.isArray(target)) target.splice(key, 0, value);
    else if (op === "add" || op === "replace") target[key] = value;
    else throw new Error(`unknown patch operation ${op}`);
  }
  return doc;
}
