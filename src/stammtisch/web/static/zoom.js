// Zoom for the board (issue 14): buttons and keys (+, −, 0), kept per game in this browser.  The board
// is scaled with CSS zoom, so it lays itself out again in the room it has; zoomed in, it scrolls
// sideways inside its own column, never the page.

import { el } from "./common.js";

export const ZOOM_KEY = "stammtisch.zoom";
export const LEVELS = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2];

function stored() {
  try {
    return JSON.parse(localStorage.getItem(ZOOM_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** This browser's zoom for a game's board (1: as drawn). */
export function zoomOf(game) {
  const level = stored()[game];
  return LEVELS.includes(level) ? level : 1;
}

function keep(game, level) {
  localStorage.setItem(ZOOM_KEY, JSON.stringify({ ...stored(), [game]: level }));
}

/** Scales the board to the game's zoom. */
export function applyZoom(board, game) {
  const level = zoomOf(game);
  board.style.zoom = level === 1 ? "" : String(level);
  board.classList.toggle("zoomed-in", level > 1);
  board.dataset.zoom = String(level);
  dispatchEvent(new Event("board-zoom")); // what keeps clear of a panel on the board measures it again
}

/** One level in (+1) or out (−1), or back to 100 % (0). */
export function zoomStep(board, game, direction) {
  const now = LEVELS.indexOf(zoomOf(game));
  const next = direction === 0 ? 1 : LEVELS[Math.max(0, Math.min(LEVELS.length - 1, now + direction))];
  keep(game, next);
  applyZoom(board, game);
  for (const node of document.querySelectorAll(".zoom-level")) node.textContent = `${Math.round(next * 100)} %`;
}

/** The zoom buttons of the board's tool bar. */
export function zoomControls(t, board, game) {
  const level = zoomOf(game);
  const button = (label, text, direction, cls) => el("button", { type: "button", class: `zoom-button ${cls}`,
    "aria-label": label, title: label, onclick: () => zoomStep(board, game, direction) }, text);
  return el("div", { class: "zoom", role: "group", "aria-label": t("Zoom the board") },
    button(t("Zoom out"), "−", -1, "zoom-out"),
    el("output", { class: "zoom-level", "aria-live": "polite" }, `${Math.round(level * 100)} %`),
    button(t("Zoom in"), "+", 1, "zoom-in"),
    el("button", { type: "button", class: "zoom-button zoom-reset", onclick: () => zoomStep(board, game, 0) },
      t("Reset zoom")));
}

/** Whether a key press belongs to a field being typed in (or carries a modifier: the browser's own
 * shortcuts), and so is none of the page's keys. */
export function typing(event) {
  const target = event.target;
  return event.ctrlKey || event.metaKey || event.altKey
    || (target instanceof Element && (target.closest("input, select, textarea, [contenteditable]") !== null));
}

/** +, − and 0 zoom the board wherever the page has focus (not while typing). */
export function installZoomKeys(board, gameOf) {
  document.addEventListener("keydown", (event) => {
    const game = gameOf();
    if (!game || typing(event)) return;
    const direction = { "+": 1, "=": 1, "-": -1, "−": -1, 0: 0 }[event.key];
    if (direction === undefined) return;
    event.preventDefault();
    zoomStep(board, game, direction);
  });
}
