// The replay of a table's game (issue 14): any position as the spectators saw it, from the server's
// GET /api/tables/{id}/replay?move=N (docs/api.md), drawn by the game's board module like the live
// board.  Step forward and back, jump to a move or to a round, copy a link that opens at the move
// (/play/{id}?move=N).  Offered for finished games and, up to now, to spectators of running ones.

import { api, el, fill, uid } from "./common.js";
import { typing } from "./zoom.js";

export const MOVE_PARAM = "move";
const KEPT = 64; // positions kept in this page

/** The move the address asks for (?move=N), or null. */
export function moveInAddress() {
  const value = new URLSearchParams(location.search).get(MOVE_PARAM);
  const move = value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return move;
}

export class Replay {
  /** redraw(): draws the page again (the board shows position() while active). */
  constructor(tableId, redraw) {
    this.tableId = tableId;
    this.redraw = redraw;
    this.active = false;
    this.position = null; // the answer shown: {move_no, last, view, to_act, events, sentences, rounds, …}
    this.kept = new Map(); // "lang move" → answer
    this.wanted = null; // the move last asked for (answers to older requests are dropped)
    this.error = "";
  }

  /** Whether this reader may replay: finished games, and spectators of running ones. */
  offered(message) {
    if (!message) return false;
    const watching = message.seat === null || message.seat === undefined;
    return message.status === "finished" || (message.status === "running" && watching);
  }

  async open(move, lang) {
    this.active = true;
    await this.go(move, lang);
  }

  close() {
    this.active = false;
    this.position = null;
    this.error = "";
    history.replaceState(null, "", location.pathname);
    this.redraw();
  }

  /** Shows position `move` (null: the latest). */
  async go(move, lang) {
    this.wanted = move;
    const key = `${lang} ${move}`;
    let answer = move === null ? null : this.kept.get(key);
    try {
      if (!answer) {
        const query = new URLSearchParams({ lang });
        if (move !== null) query.set(MOVE_PARAM, String(move));
        answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/replay?${query}`);
        this.keep(`${lang} ${answer.move_no}`, answer);
      }
      this.error = "";
    } catch (error) {
      this.error = error.message;
      this.redraw();
      return;
    }
    if (this.wanted !== move || !this.active) return; // overtaken by a newer step, or closed meanwhile
    this.position = answer;
    history.replaceState(null, "", `${location.pathname}?${MOVE_PARAM}=${answer.move_no}`);
    this.redraw();
  }

  keep(key, answer) {
    if (answer.status === "finished" || answer.move_no < answer.last) this.kept.set(key, answer);
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value);
  }

  step(by, lang) {
    if (!this.position) return;
    const move = Math.max(0, Math.min(this.position.last, this.position.move_no + by));
    if (move !== this.position.move_no) this.go(move, lang);
  }

  /** A state message for the board and the frame: the live one's table, the position's view (a
   * spectator's: seat null), nothing to decide. */
  message(live) {
    const p = this.position;
    if (!this.active || !p) return null;
    return { ...live, seat: null, view: p.view, legal: [], labels: [], undo_allowed: false, to_act: p.to_act,
      events: p.events, sentences: p.sentences, move_no: p.move_no,
      status: p.move_no === p.last ? p.status : "running", scores: p.scores || null };
  }

  link() {
    return `${location.origin}/play/${encodeURIComponent(this.tableId)}?${MOVE_PARAM}=${this.position.move_no}`;
  }

  /** ← → step, Home and End go to the first and the latest move (not while typing). */
  installKeys(langOf) {
    document.addEventListener("keydown", (event) => {
      if (!this.active || !this.position || typing(event)) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
      if (moves === undefined) return;
      event.preventDefault();
      if (moves === -Infinity) this.go(0, langOf());
      else if (moves === Infinity) this.go(null, langOf());
      else this.step(moves, langOf());
    });
  }

  /** The replay's tool bar: a button to start it, or the controls of a running replay.
   * copyField(text, label) is the frame's copy field; roundName(number, view) names a round. */
  bar(t, lang, copyField, roundName) {
    if (!this.active) {
      return el("p", { class: "replay-start" }, el("button", { type: "button", class: "secondary",
        onclick: () => this.open(null, lang) }, t("Replay the game")));
    }
    const p = this.position;
    if (!p) {
      return el("p", { class: this.error ? "error" : "hint" }, this.error || t("Loading the replay…"));
    }
    const button = (label, text, onclick, disabled, cls) => el("button", { type: "button", class: `replay-${cls}`,
      "aria-label": label, title: label, disabled, onclick }, text);
    const sliderId = uid("replay-move");
    const roundId = uid("replay-round");
    const current = [...p.rounds].reverse().find((r) => r.move_no <= p.move_no);
    const slider = el("input", { id: sliderId, type: "range", min: 0, max: p.last, value: p.move_no,
      class: "replay-slider", onchange: (e) => this.go(Number(e.target.value), lang) });
    const rounds = el("select", { id: roundId, onchange: (e) => this.go(Number(e.target.value), lang) },
      p.rounds.map((r) => el("option", { value: String(r.move_no), selected: r === current },
        roundName(r.round, p.view))));
    return el("section", { class: "panel replay", "aria-labelledby": "replay-title" },
      el("div", { class: "replay-head" },
        el("h2", { id: "replay-title" }, t("Replay")),
        el("p", { class: "replay-where", role: "status" },
          t("Move {move} of {last}", { move: p.move_no, last: p.last }),
          p.status === "running" ? ` · ${t("the game goes on")}` : ""),
        el("button", { type: "button", class: "replay-close", onclick: () => this.close() },
          p.status === "running" ? t("Back to the live game") : t("Close the replay"))),
      el("div", { class: "replay-controls" },
        button(t("First move"), "|◀", () => this.go(0, lang), p.move_no === 0, "first"),
        button(t("Previous move"), "◀", () => this.step(-1, lang), p.move_no === 0, "back"),
        button(t("Next move"), "▶", () => this.step(1, lang), p.move_no >= p.last, "forward"),
        button(t("Latest move"), "▶|", () => this.go(null, lang), p.move_no >= p.last && p.status !== "running",
          "last"),
        el("label", { for: sliderId, class: "visually-hidden" }, t("Move")), slider,
        el("label", { for: roundId }, t("Jump to")), rounds),
      p.sentences.length ? el("ul", { class: "replay-happened", "aria-label": t("What happened at this move"),
        tabindex: "0" },
        p.sentences.map((s) => el("li", {}, s))) : null,
      el("p", { class: "replay-keys hint" }, t("Keys: ← and → step through the moves, Home and End go to the first and the latest.")),
      el("p", {}, copyField(this.link(), t("Link to this move"))),
      this.error ? el("p", { class: "error" }, this.error) : null);
  }
}

/** Draws the bar into its place (or empties it when the replay is not offered); built again only when
 * what it shows changed, and the control that had the focus keeps it. */
export function renderBar(node, replay, offered, t, lang, ...rest) {
  const p = replay.position;
  const key = JSON.stringify([offered || replay.active, lang, replay.active, p && [p.move_no, p.last, p.status],
    replay.error]);
  if (node.dataset.key === key && node.firstChild && p === node.shownPosition) return;
  node.dataset.key = key;
  node.shownPosition = p;
  const focused = node.contains(document.activeElement) ? document.activeElement.className : null;
  fill(node, offered || replay.active ? replay.bar(t, lang, ...rest) : null);
  const again = focused ? node.querySelector(`.${focused.split(" ")[0]}:not(:disabled)`) : null;
  (again || (focused ? node.querySelector(".replay-slider, button:not(:disabled)") : null))?.focus();
}
