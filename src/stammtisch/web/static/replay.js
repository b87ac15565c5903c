// The replay of a table's game (issue 14): any position as the spectators saw it, from the server's
// GET /api/tables/{id}/replay?move=N (docs/api.md), drawn by the game's board module like the live
// board.  Step forward and back, jump to a move, a round or a scoring, copy a link that opens at the
// move (/play/{id}?move=N).  Offered for finished games and, up to now, to spectators of running ones.
// A seat's player replays a finished game from their own seat (issue 25): every position as the seat
// saw it, loaded at once (GET /api/tables/{id}/replay/seat), stepped in the page without a request.

import { api, applyPatch, el, fill, uid } from "./common.js";
import { typing } from "./zoom.js";

export const MOVE_PARAM = "move";
const KEPT = 64; // positions kept in this page
const EVERY = 32; // a seat's replay keeps every 32nd view whole: a position costs a copy and at most 31 patches

/** The move of `moves` (ascending) nearest before (`direction` -1) or after (1) `move`, or null. */
function beside(moves, move, direction) {
  const found = direction < 0 ? [...moves].reverse().find((n) => n < move) : moves.find((n) => n > move);
  return found === undefined ? null : found;
}

/** A finished game's replay from the reader's seat, as the server sends it: the first view, then each
 * position's patch from the one before, its events and sentences (docs/api.md, "A seat's replay"). */
class SeatLine {
  constructor(data, lang) {
    this.data = data;
    this.lang = lang;
    this.kept = []; // the views of positions 0, EVERY, 2 × EVERY, …
    let view = structuredClone(data.view);
    data.steps.forEach((step, move) => {
      if (move) view = applyPatch(view, structuredClone(step.patch));
      if (move % EVERY === 0) this.kept.push(structuredClone(view));
    });
  }

  view(move) {
    let view = structuredClone(this.kept[Math.floor(move / EVERY)]);
    for (let next = move - (move % EVERY) + 1; next <= move; next += 1) {
      view = applyPatch(view, structuredClone(this.data.steps[next].patch));
    }
    return view;
  }

  /** The position a shared link's move (a spectators' move number) stands for: the last one at it. */
  fromPublic(number) {
    return Math.max(0, this.data.public.findLastIndex((n) => n <= number));
  }

  /** Position `move` as the spectators' replay answers one (null: the latest), with the seat's jumps. */
  position(move) {
    const d = this.data;
    const at = move === null ? d.last : Math.max(0, Math.min(d.last, move));
    const view = this.view(at);
    return { move_no: at, last: d.last, status: d.status, view, to_act: view.to_act, events: d.steps[at].events,
      sentences: d.steps[at].sentences, rounds: d.rounds, scorings: d.scorings, scoring_names: d.scoring_names,
      mine: d.mine, seat: d.seat, public: d.public[at], scores: at === d.last ? d.scores : null };
  }
}

/** The move the address asks for (?move=N), or null. */
export function moveInAddress() {
  const value = new URLSearchParams(location.search).get(MOVE_PARAM);
  const move = value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return move;
}

export class Replay {
  /** redraw(): draws the page again (the board shows position() while active); token(): the reader's
   * seat token, or null. */
  constructor(tableId, redraw, token) {
    this.tableId = tableId;
    this.redraw = redraw;
    this.token = token;
    this.active = false;
    this.position = null; // the answer shown: {move_no, last, view, to_act, events, sentences, rounds, …}
    this.kept = new Map(); // "lang move" → answer
    this.seatLine = null; // the reader's own seat's replay (a SeatLine), once loaded
    this.wanted = null; // the move last asked for (answers to older requests are dropped)
    this.error = "";
  }

  /** Whether this reader may replay: finished games, and spectators of running ones. */
  offered(message) {
    if (!message) return false;
    const watching = message.seat === null || message.seat === undefined;
    return message.status === "finished" || (message.status === "running" && watching);
  }

  /** Opens at `move` (a spectators' move number, as in the address; null: the latest). */
  async open(move, lang) {
    this.active = true;
    if (!this.seatLine || this.seatLine.lang !== lang) await this.loadSeat(lang);
    await this.go(this.seatLine && move !== null ? this.seatLine.fromPublic(move) : move, lang);
  }

  /** The reader's own seat's replay when the reader holds a seat and the game is over; otherwise (no
   * token, or the server's 409 while the game goes on) the spectators' replay, a request per step. */
  async loadSeat(lang) {
    this.seatLine = null;
    const token = this.token();
    if (!token) return;
    try {
      const query = new URLSearchParams({ lang });
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/replay/seat?${query}`,
        undefined, token);
      this.seatLine = new SeatLine(data, lang);
    } catch (error) {
      if (![401, 403, 409].includes(error.status)) this.error = error.message;
    }
  }

  close() {
    this.active = false;
    this.position = null;
    this.error = "";
    history.replaceState(null, "", location.pathname);
    this.redraw();
  }

  /** Shows position `move` (null: the latest): by the seat's own move numbers in a seat's replay. */
  async go(move, lang) {
    this.wanted = move;
    if (this.seatLine && this.seatLine.lang !== lang) await this.loadSeat(lang); // the language was switched
    if (this.seatLine) {
      if (this.wanted === move) this.show(this.seatLine.position(move));
      return;
    }
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
    if (this.wanted === move) this.show(answer); // else overtaken by a newer step
  }

  /** Shows a position; the address names its spectators' move number, which anybody's link opens. */
  show(position) {
    if (!this.active) return; // closed meanwhile
    this.position = position;
    this.error = "";
    history.replaceState(null, "", `${location.pathname}?${MOVE_PARAM}=${position.public ?? position.move_no}`);
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

  /** To the nearest of `moves` before (-1) or after (1) the position shown, if there is one. */
  jump(moves, direction, lang) {
    const move = this.position && moves ? beside(moves, this.position.move_no, direction) : null;
    if (move !== null) this.go(move, lang);
  }

  /** A state message for the board and the frame: the live one's table, the position's view (a
   * spectator's, or the reader's own seat's), nothing to decide. */
  message(live) {
    const p = this.position;
    if (!this.active || !p) return null;
    return { ...live, seat: p.seat ?? null, view: p.view, legal: [], labels: [], undo_allowed: false,
      to_act: p.to_act, events: p.events, sentences: p.sentences, move_no: p.move_no,
      status: p.move_no === p.last ? p.status : "running", scores: p.scores || null };
  }

  link() {
    const p = this.position;
    return `${location.origin}/play/${encodeURIComponent(this.tableId)}?${MOVE_PARAM}=${p.public ?? p.move_no}`;
  }

  /** ← → step, Home and End go to the first and the latest move, Page Up and Page Down to the previous
   * and next scoring, Shift with ← → to the reader's previous and next move (not while typing). */
  installKeys(langOf) {
    document.addEventListener("keydown", (event) => {
      if (!this.active || !this.position || typing(event)) return;
      const p = this.position;
      const jumps = p.scoring_names ? { PageUp: [p.scorings, -1], PageDown: [p.scorings, 1] } : {};
      if (event.shiftKey && p.mine) Object.assign(jumps, { ArrowLeft: [p.mine, -1], ArrowRight: [p.mine, 1] });
      if (jumps[event.key]) {
        event.preventDefault();
        this.jump(...jumps[event.key], langOf());
        return;
      }
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
          p.status === "running" ? ` · ${t("the game goes on")}` : "",
          p.seat !== undefined ? ` · ${t("as your seat saw it")}` : ""),
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
      this.jumps(t, lang),
      p.sentences.length ? el("ul", { class: "replay-happened", "aria-label": t("What happened at this move"),
        tabindex: "0" },
        p.sentences.map((s) => el("li", {}, s))) : null,
      el("p", { class: "replay-keys hint" },
        t("Keys: ← and → step through the moves, Home and End go to the first and the latest."),
        p.scoring_names ? ` ${t("Page Up and Page Down: {previous} and {next}.",
          { previous: p.scoring_names[0], next: p.scoring_names[1] })}` : "",
        p.mine ? ` ${t("Shift+← and Shift+→: your previous and next move.")}` : ""),
      el("p", {}, copyField(this.link(), t("Link to this move"))),
      this.error ? el("p", { class: "error" }, this.error) : null);
  }

  /** The jumps to the previous and next scoring of a round (named by the game, GameSpec.scoring) and, in a
   * seat's replay, to the reader's previous and next move. */
  jumps(t, lang) {
    const p = this.position;
    const jump = (label, moves, direction, cls, keys) => el("button", { type: "button", class: `replay-${cls}`,
      "aria-keyshortcuts": keys, disabled: beside(moves, p.move_no, direction) === null,
      onclick: () => this.jump(moves, direction, lang) }, label);
    const buttons = [];
    if (p.scoring_names) {
      buttons.push(jump(p.scoring_names[0], p.scorings, -1, "scoring-back", "PageUp"),
        jump(p.scoring_names[1], p.scorings, 1, "scoring-forward", "PageDown"));
    }
    if (p.mine) {
      buttons.push(jump(t("My previous move"), p.mine, -1, "mine-back", "Shift+ArrowLeft"),
        jump(t("My next move"), p.mine, 1, "mine-forward", "Shift+ArrowRight"));
    }
    return buttons.length ? el("div", { class: "replay-controls replay-jumps" }, buttons) : null;
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
