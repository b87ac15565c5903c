// Learn to play (docs/web.md): at a guided table the state message carries `guide`, the steps of the game's
// script that the game has just reached (server/guide.py; nothing is stored: they follow from the moves, so a
// reload shows the same steps). Each step's sentences are shown above the players and the board, and the pieces they talk
// about are outlined (`.guide-point`) with a tooltip naming them; the guide never decides anything.

import { el, fill } from "./common.js";

let shownKeys = null; // the steps the panel shows, to redraw it only when they change (keeps focus)

/** The guide panel for `message` (hidden at tables without a guide), and its pieces outlined on the board. */
export function renderGuide(message, t) {
  const panel = guidePanel();
  const guide = message && message.guide;
  if (!guide) {
    panel.hidden = true;
    return;
  }
  const keys = guide.steps.map((step) => step.key).join(" ");
  panel.dataset.steps = keys;
  panel.dataset.reached = guide.reached.join(" ");
  // Shown even between steps, and (on a phone) always of one height: the decision below it never moves.
  panel.hidden = false;
  if (keys !== shownKeys) {
    shownKeys = keys;
    fill(panel, el("h2", { id: "guide-title" }, t("Learn to play")), guide.steps.length
      ? guide.steps.map((step) => stepNode(step, t))
      : el("p", { class: "guide-quiet" }, t("Nothing new here: play on. The guide speaks up when something new comes.")));
    panel.scrollTop = 0;
  }
  point(guide.steps);
}

function guidePanel() {
  let panel = document.getElementById("guide-panel");
  if (!panel) {
    panel = el("section", { id: "guide-panel", class: "panel guide-panel", "aria-labelledby": "guide-title",
      "aria-live": "polite" });
    // Above the players and the board; in the page's one column on a phone, above the decision too, so that
    // the newcomer reads what the decision is about before the choices (app.css).
    const main = document.getElementById("main");
    main.parentElement.insertBefore(panel, main);
  }
  return panel;
}

function stepNode(step, t) {
  return el("article", { class: "guide-step", "data-key": step.key },
    el("h3", {}, el("span", { class: "guide-count" }, t("Step {number}", { number: step.number })), " ", step.heading),
    step.sentences.map((sentence) => el("p", {}, sentence)),
    step.why ? el("p", { class: "guide-why" }, el("strong", {}, t("Why:")), " ", step.why) : null,
    step.points.length ? el("p", { class: "guide-points" }, t("Look at:"), " ", step.points.map((p) => el("button", {
      type: "button", class: "guide-look", "data-selector": p.selector,
      "aria-label": t("Show: {piece}", { piece: p.piece }), onclick: () => show(p, true),
      onfocus: () => show(p, false), onmouseenter: () => show(p, false),
      onmouseleave: () => { if (!pinned) hideTip(); } }, p.piece))) : null);
}

/** Outlines every piece the shown steps talk about (the board is drawn anew on each state). */
function point(steps) {
  for (const node of document.querySelectorAll(".guide-point")) {
    node.classList.remove("guide-point");
    delete node.dataset.guidePiece;
  }
  for (const step of steps) {
    for (const p of step.points) {
      const found = document.querySelector(p.selector);
      for (const button of document.querySelectorAll(`#guide-panel .guide-look[data-selector="${CSS.escape(p.selector)}"]`)) {
        button.dataset.found = found ? "true" : "false";
      }
      if (!found) continue;
      found.classList.add("guide-point");
      found.dataset.guidePiece = p.piece;
    }
  }
}

let tipFor = null; // the piece the guide's tooltip names
let pinned = false; // shown by a click: the scroll to the piece moves the button from under the pointer

function hideTip() {
  const tip = document.getElementById("guide-tip");
  if (tip) tip.hidden = true;
  tipFor = null;
  pinned = false;
}

/** Names a piece in the guide's tooltip, at the piece (hover, focus), and scrolls to it first (a click); the
 * tooltip follows the piece when the page scrolls, and stays until the pointer leaves (after a hover), Escape
 * or a click elsewhere. */
function show(p, scroll) {
  const found = document.querySelector(p.selector);
  if (!found) return;
  if (scroll) found.scrollIntoView({ block: "center", behavior: "instant" });
  let tip = document.getElementById("guide-tip");
  if (!tip) {
    tip = el("div", { id: "guide-tip", class: "help-tip guide-tip", role: "tooltip" });
    (document.querySelector("main") || document.body).append(tip);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
    document.addEventListener("pointerdown", (e) => { if (!e.target.closest(".guide-look")) hideTip(); });
    window.addEventListener("scroll", () => { if (tipFor) place(tip, tipFor); }, { passive: true, capture: true });
  }
  tip.textContent = p.piece;
  tip.hidden = false;
  tipFor = found;
  pinned = scroll;
  place(tip, found);
}

function place(tip, piece) {
  const r = piece.getBoundingClientRect();
  tip.style.left = `${Math.max(8, Math.min(r.left, innerWidth - tip.offsetWidth - 8))}px`;
  tip.style.top = `${Math.max(8, Math.min(r.top + 4, innerHeight - tip.offsetHeight - 8))}px`;
}
