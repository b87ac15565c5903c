// Die Macher's board: the phase track, the four state boards, the displays, the media-presence
// track, every party's table row, the reader's private panel and the final table; drawn from the
// seat's view only (docs/web.md: export default { render(root, view, ctx), groups, describeDecision }).

import { el, fill, phaseRulesLink, rovingHelp, withHelp } from "./common.js";
import { tagged } from "./highlight.js";
import { stateMap } from "./diemacher-map.js";

const COLOURS = {
  black: { fill: "#1e1e1e", ink: "#ffffff" },
  red: { fill: "#d32f2f", ink: "#ffffff" },
  yellow: { fill: "#f6c700", ink: "#1e1e1e" },
  green: { fill: "#267a33", ink: "#ffffff" }, // white on it at 5.4:1 (WCAG AA; issue 25 defect 5)
  purple: { fill: "#8e3a9d", ink: "#ffffff" },
};

// Topic icons (24×24), drawn here: education, digitization, genetic engineering, national security,
// welfare state, environment, traffic.
const TOPIC_ICONS = [
  '<path d="M12 4 1.5 9 12 14l10.5-5z"/><path d="M6 11.5v4c0 1.6 2.7 3.5 6 3.5s6-1.9 6-3.5v-4L12 14.5z"/><path d="M21 9.5v6" stroke="currentColor" stroke-width="1.5" fill="none"/>',
  '<rect x="6.5" y="6.5" width="11" height="11" rx="1.5"/><path d="M9 2.5v3M12 2.5v3M15 2.5v3M9 18.5v3M12 18.5v3M15 18.5v3M2.5 9h3M2.5 12h3M2.5 15h3M18.5 9h3M18.5 12h3M18.5 15h3" stroke="currentColor" stroke-width="1.6"/>',
  '<path d="M7 2c0 6 10 6 10 10S7 16 7 22M17 2c0 6-10 6-10 10s10 4 10 10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8.5 5.5h7M9.5 9h5M9.5 15h5M8.5 18.5h7" stroke="currentColor" stroke-width="1.5"/>',
  '<path d="M12 2 4 5v6c0 5.2 3.4 9.3 8 11 4.6-1.7 8-5.8 8-11V5z"/>',
  '<path d="M12 20.5S3.5 15.3 3.5 9.2A4.6 4.6 0 0 1 12 6.6a4.6 4.6 0 0 1 8.5 2.6c0 6.1-8.5 11.3-8.5 11.3z"/>',
  '<path d="M4.5 19.5C4.5 9.5 10.5 4 20 3.5c0 9.5-5.5 15.5-15.5 16z"/><path d="M4.5 19.5 14 10" stroke="#fff" stroke-width="1.5" fill="none"/>',
  '<path d="M3 16v-4l2.5-5h13L21 12v4z"/><circle cx="7" cy="17" r="2.2" fill="#fff" stroke="currentColor" stroke-width="1.5"/><circle cx="17" cy="17" r="2.2" fill="#fff" stroke="currentColor" stroke-width="1.5"/><path d="M7 8.5h10l1.5 3h-13z" fill="#fff" opacity=".7"/>',
];

function svg(html, label, cls = "") {
  const node = el("svg", { viewBox: "0 0 24 24", class: `icon ${cls}`, role: "img", "aria-label": label,
    focusable: "false" });
  node.innerHTML = `<title></title>${html}`;
  node.querySelector("title").textContent = label;
  return node;
}

// The opinion chosen on the board in phase 7, kept while the board is drawn again (as long as the
// same replacements are offered).
const SHIFT_PICK = { key: null, slot: null };

function shiftsKey(shifts) {
  return JSON.stringify(shifts.map(({ action }) => action));
}

function pickedSlot(shifts) {
  return shifts.length && SHIFT_PICK.key === shiftsKey(shifts) ? SHIFT_PICK.slot : null;
}

class Board {
  constructor(view, ctx) {
    this.e = view; // the envelope (docs/web.md): seat, phase, decision, to_act, final
    this.v = view.board; // Die Macher's own data
    this.final = view.final ? view.final.detail : null;
    // The table's describe(): the phases with their labels, and the printed phase track, each slot
    // {slot, label, phases} with the phases shown on it.
    const described = ctx.describe || { phases: [], board: {} };
    this.phaseLabels = Object.fromEntries((described.phases || []).map((phase) => [phase.name, phase.label]));
    this.track = (described.board && described.board.track) || [];
    this.ctx = ctx;
    this.t = ctx.t;
    this.terms = ctx.terms || {};
    this.politicians = (described.board && described.board.politicians) || [];
    this.once = (described.board && described.board.once) || [];
    this.winThreshold = described.board && described.board.win_threshold;
    this.legal = ctx.legal || [];
    this.labels = ctx.labels || [];
  }

  // ------------------------------------------------------------ words

  money(amount) {
    return this.t("€{amount}", { amount: this.ctx.formatNumber(amount) });
  }

  topic(card) {
    const names = this.terms.TOPIC_NAMES || [];
    return names[card >> 1] || String(card >> 1);
  }

  cardName(card) {
    if (card === null || card === undefined) return this.t("face-down card");
    return `${card % 2 === 0 ? "+" : "−"}${this.topic(card)}`;
  }

  phaseName(phase) {
    return this.phaseLabels[phase] || phase;
  }

  politicianName(id) {
    return id ? (this.terms.POLITICIAN_NAMES || {})[id] || id : this.t("a face-down politician");
  }

  party(seat) {
    const player = this.v.seats[seat];
    return player ? player.party_name : this.t("nobody");
  }

  /** A party by its id (poll cards name parties by id); null for a party not at this table. */
  partyNamed(id) {
    const seat = this.v.seats.findIndex((p) => p.party === id);
    return seat >= 0 ? this.party(seat) : null;
  }

  /** A politician action as its card says it: "TREND+3" → "trend +3". */
  actionName(code) {
    const found = /^([A-Z_]+?)([+-]\d+)?$/.exec(String(code));
    const kind = found ? found[1] : String(code);
    const n = found && found[2] ? found[2].replace("-", "−") : "";
    const t = this.t;
    const names = {
      DOUBLE: () => t("double marker"),
      BUYOUT: () => t("media buyout"),
      OTHERS_TREND: () => t("others' trend {n}", { n }),
      TREND: () => t("trend {n}", { n }),
      VOTES: () => t("votes {n}", { n }),
      BASE: () => t("party base {n}", { n }),
      PROGRAM: () => t("program change"),
      FREE_POLL: () => t("free poll"),
    };
    return names[kind] ? names[kind]() : String(code);
  }

  /** What a politician action does (its rules help), with the "!" of an action that works once per
   * state and round. */
  actionHelp(code) {
    const found = /^([A-Z_]+?)([+-]\d+)?$/.exec(String(code));
    const kind = found ? found[1] : String(code);
    const n = found && found[2] ? found[2].replace("-", "−") : "";
    const t = this.t;
    const texts = {
      DOUBLE: () => t("Double marker: placed on a face-up opinion in this state, the opinion counts twice for the match and media cannot shift it; where the state has one, the action takes it away instead."),
      BUYOUT: () => t("Media buyout: pay €5,000 to a party with a media marker in this state; the marker goes back to its owner, and your party may put one of its own there for free."),
      OTHERS_TREND: () => t("Others' trend {n}: the trend of every other party in this state changes by {n}.", { n }),
      TREND: () => t("Trend {n}: your party's trend in this state changes by {n}.", { n }),
      VOTES: () => t("Votes {n}: your party gets {n} votes in this state.", { n }),
      BASE: () => t("Party base {n}: your party base changes by {n}.", { n }),
      PROGRAM: () => t("Program change: swap program cards as in phase 2."),
      FREE_POLL: () => t("Free poll: take the top poll card without an auction and use it in this state as after a poll auction."),
    };
    const text = texts[kind] ? texts[kind]() : String(code);
    return this.once.includes(code) ? `${text} ${t("Marked !: works once per state and round, whoever's politician takes it.")}` : text;
  }

  /** A politician action's name with its rules help. */
  actionPiece(code) {
    return withHelp(el("span", { class: "dm-action" }, this.actionName(code)), this.actionHelp(code));
  }

  /** A politician's cost and actions, from the table's describe(). */
  politicianHelp(id) {
    const found = this.politicians.find((p) => p.id === id);
    if (!found) return "";
    const t = this.t;
    return t("{politician}: costs {cost}; main action {main}, then at most one of: {secondary}.", {
      politician: this.politicianName(id), cost: this.money(found.cost), main: this.actionName(found.main),
      secondary: found.secondary.map((code) => this.actionName(code)).join(", ") });
  }

  /** "Used here this round: …" with each action's help. */
  usedActions(codes) {
    const [before, after] = this.t("Used here this round: {actions}").split("{actions}");
    const pieces = codes.flatMap((code, i) => (i ? [", ", this.actionPiece(code)] : [this.actionPiece(code)]));
    return el("p", { class: "muted small dm-used" }, before, pieces, after || "");
  }

  /** My politicians, each with its cost and actions. */
  ownPoliticians(ids) {
    if (!ids.length) return this.t("none");
    return el("span", { class: "dm-own-politicians" }, ids.flatMap((id, i) => {
      const piece = withHelp(el("span", { class: "dm-politician-name" }, this.politicianName(id)), this.politicianHelp(id));
      return i ? [", ", piece] : [piece];
    }));
  }

  colour(seat) {
    const player = this.v.seats[seat];
    return COLOURS[player && player.colour] || { fill: "#777", ink: "#fff" };
  }

  partyTag(seat, extra = "") {
    const c = this.colour(seat);
    // a long party name may break after a slash or between words ("CDU/ CSU", "Bündnis 90/ Die Grünen")
    const parts = this.party(seat).split("/");
    return el("span", { class: `party-tag ${extra}`, style: { background: c.fill, color: c.ink } },
      parts.map((part, i) => (i < parts.length - 1 ? [`${part}/`, el("wbr")] : part)));
  }

  // ------------------------------------------------------------ pieces

  opinionCard(card, { faceUp = true, doubled = false, small = false } = {}) {
    if (!faceUp || card === null || card === undefined) {
      return withHelp(el("span", { class: `card opinion back ${small ? "small" : ""}`, role: "img",
        "aria-label": this.t("face-down card") }, el("span", { class: "card-back-mark", "aria-hidden": "true" }, "?")),
      this.t("Face-down opinion: revealed later (one more in every state after each election); it counts for the match only face up."));
    }
    const positive = card % 2 === 0;
    const name = this.cardName(card);
    const label = doubled ? this.t("{card}, doubled", { card: name }) : name;
    return withHelp(el("span", { class: `card opinion ${positive ? "pro" : "contra"} ${small ? "small" : ""}`, role: "img",
      "aria-label": label },
    svg(TOPIC_ICONS[card >> 1] || "", this.topic(card), "topic"),
    el("span", { class: "sign", "aria-hidden": "true" }, positive ? "+" : "−"),
    doubled ? el("span", { class: "double", "aria-hidden": "true" }, "×2") : null),
    `${label}. ${this.t("Opinion: a topic for (+) or against (−). In a state, each face-up opinion a party's program shares adds 1 to its match, an opposite one takes 1 away; a doubled one counts twice.")}`);
  }

  disc(seat, label) {
    const c = seat === null || seat === undefined ? null : this.colour(seat);
    const help = c ? this.mediaHelp()
      : this.t("Free media space: a party may buy a media marker here for €5,000 in phase 3.");
    return withHelp(el("span", { class: `disc ${c ? "" : "empty"}`, role: "img", "aria-label": label,
      style: c ? { background: c.fill, borderColor: c.fill === "#1e1e1e" ? "#666" : c.fill } : null }), `${label}. ${help}`);
  }

  cubes(seat, count) {
    const c = this.colour(seat);
    const shown = Math.min(count, 12);
    const label = this.t("{party}: {count} rallies", { party: this.party(seat), count });
    return el("span", { class: "cubes", role: "img", "aria-label": label, title: label },
      Array.from({ length: shown }, () => el("span", { class: "cube", style: { background: c.fill } })),
      el("span", { class: "count", "aria-hidden": "true" }, String(count)));
  }

  ballotBox() {
    return svg('<rect x="3" y="9" width="18" height="12" rx="1.5"/><rect x="8" y="2.5" width="8" height="9" fill="#fff" stroke="currentColor" stroke-width="1.5" transform="rotate(8 12 7)"/><rect x="6" y="9" width="12" height="2" fill="#fff"/>',
      this.t("Election in this state this round"), "ballot");
  }

  /** What each column means, by its heading (shown on hover and in the legend). */
  columnHelp() {
    const t = this.t;
    return {
      [t("Votes")]: t("Votes: the party's votes in this state."),
      [t("Trend")]: t("Trend: added to (or taken from) each rally when rallies become votes."),
      [t("Rallies")]: t("Rallies: the party's rallies here, turned into votes before the election."),
      [t("Media")]: t("Media: the party's media markers in this state."),
      [t("Match")]: t("Match: how far the party's program agrees with this state's face-up opinions; it multiplies rallies turned into votes."),
      [t("Base")]: t("Base: the party base, worth victory points at the end."),
      [t("Supply")]: t("Supply: media markers, rallies, politicians and donations the party has left."),
    };
  }

  /** A column heading: the word (an abbreviation in some languages), what it means on hover and
   * focus or a tap (its rules help); headings break only between words, never inside one. */
  columnHead(heading) {
    const help = this.columnHelp()[heading];
    return el("th", { scope: "col" }, help ? withHelp(el("abbr", {}, heading), help) : heading);
  }

  legend() {
    return el("details", { class: "dm-legend" }, el("summary", {}, this.t("What the columns mean")),
      el("ul", {}, Object.values(this.columnHelp()).map((text) => el("li", {}, text))));
  }

  // ------------------------------------------------------------ sections

  phaseTrack() {
    const v = this.v;
    const current = this.track.find((slot) => slot.phases.includes(this.e.phase));
    const round = v.round ? this.t("Round {round} of {last}", { round: v.round, last: v.last_round })
      : this.t("Setup");
    return el("nav", { class: "dm-phases", "aria-label": this.t("Phases") },
      el("p", { class: "round" }, el("strong", {}, round), " · ",
        this.t("elections held {held} of {elections}", { held: v.elections_held, elections: v.elections }), " · ",
        this.t("start player {party}", { party: this.party(v.start_player) })),
      el("ol", {}, this.track.map((slot) => {
        const name = slot.label.replace(/^\s*\d+[a-d]?[.:]?\s+/, "");
        const active = slot === current;
        // the label links to its rules section; a slot without a phase of its own (9d) by its slot
        const item = el("li", { class: active ? "current" : "", "aria-current": active ? "step" : null, title: slot.label },
          // (its name for a screen reader whole, also on a phone, where only the number shows)
          phaseRulesLink("diemacher", this.ctx.lang, slot.phases[0] || slot.slot, {},
            el("span", { class: "num", "aria-hidden": "true" }, slot.slot === "setup" ? "0" : slot.slot),
            el("span", { class: "name", "aria-hidden": "true" }, name),
            el("span", { class: "visually-hidden" }, slot.label)));
        return active ? tagged(item, "phase-now", [v.round, slot.slot]) : item;
      })),
      this.e.final ? el("p", { class: "over" },
        phaseRulesLink("diemacher", this.ctx.lang, this.e.phase, {}, this.phaseName(this.e.phase))) : null);
  }

  stateBoard(board, pos) {
    const v = this.v;
    const t = this.t;
    const current = this.e.decision && this.e.decision.board === pos;
    const titleId = `dm-board-${pos}`;
    const seats = v.seats.map((_, s) => s);
    const mediaOwners = board.media;
    const rows = seats.map((s) => {
      const trend = board.trend[s];
      const media = mediaOwners.filter((o) => o === s).length;
      return tagged(el("tr", {},
        el("th", { scope: "row" }, this.partyTag(s), board.media_influencer === s
          ? el("span", { class: "influencer", title: t("media influencer"), "aria-label": t("media influencer") }, " ✦")
          : null),
        el("td", { class: "num" }, String(board.votes[s])),
        el("td", { class: `num trend ${trend > 0 ? "up" : trend < 0 ? "down" : ""}` }, trend > 0 ? `+${trend}` : trend < 0
          ? `−${-trend}` : "0"),
        el("td", {}, board.rallies[s] ? this.cubes(s, board.rallies[s]) : el("span", { class: "muted" }, "0")),
        el("td", { class: "num" }, String(media)),
        el("td", { class: "num" }, String(board.matches[s]))),
      `st-${board.state}-${s}`, [board.votes[s], trend, board.rallies[s], media, board.matches[s]]);
    });
    const politicians = board.politicians.map((p) => {
      const c = this.colour(p.seat);
      const name = p.politician ? this.politicianName(p.politician) : this.t("face-down");
      const paid = p.paid === true ? t("(paid)") : p.paid === false ? t("(declined)") : "";
      const label = `${this.party(p.seat)}: ${name} ${paid}`.trim();
      return withHelp(el("span", { class: `politician ${p.politician ? "up" : "down"}`, role: "img", "aria-label": label,
        style: { borderColor: c.fill, background: p.politician ? "#fff" : c.fill,
          color: p.politician ? "#222" : c.ink } },
      p.politician ? name : "♟", paid ? el("span", { class: "paid" }, p.paid ? " ✓" : " ✗") : null),
      [`${label}.`, p.politician ? this.politicianHelp(p.politician) : "", this.politicianRules()].filter(Boolean).join(" "));
    });
    const emptyMedia = mediaOwners.filter((o) => o === null).length;
    const mediaLabel = t("Media markers: {parties}; free spots: {count}", {
      parties: mediaOwners.filter((o) => o !== null).map((o) => this.party(o)).join(", ") || t("none"),
      count: emptyMedia });
    return el("section", { class: `dm-state ${current ? "current" : ""} ${board.ballot_box ? "voting" : ""}`,
      "aria-labelledby": titleId },
    el("header", {},
      el("h2", { id: titleId }, board.name, el("span", { class: "abbr" }, ` (${board.state})`)),
      el("span", { class: "max" }, t("max {points} VP", { points: board.max_vp })),
      board.ballot_box ? this.ballotBox() : null,
      current ? el("span", { class: "now" }, t("now")) : null),
    tagged(el("div", { class: "opinions", role: "group", "aria-label": t("Opinions") },
      board.opinions.length ? this.opinions(board, pos) : el("span", { class: "muted" }, t("none"))),
    `st-${board.state}-opinions`, board.opinions),
    this.replacements(board, pos),
    tagged(el("div", { class: "media-row", role: "group", "aria-label": mediaLabel },
      el("span", { class: "label", "aria-hidden": "true" }, t("Media")),
      mediaOwners.map((o) => this.disc(o, o === null ? t("free media spot") : t("media marker of {party}",
        { party: this.party(o) })))), `st-${board.state}-media`, mediaOwners),
    el("table", { class: "dm-parties-in-state" },
      el("caption", { class: "visually-hidden" }, t("Parties in {state}", { state: board.name })),
      el("thead", {}, el("tr", { "data-help-group": "" }, [t("Party"), t("Votes"), t("Trend"), t("Rallies"), t("Media"), t("Match")]
        .map((h) => this.columnHead(h)))),
      el("tbody", {}, rows)),
    politicians.length ? tagged(el("div", { class: "politicians", role: "group", "aria-label": t("Politicians") },
      el("span", { class: "label", "aria-hidden": "true" }, t("Politicians")), politicians), `st-${board.state}-politicians`,
    board.politicians) : null,
    board.locked_actions.length ? this.usedActions(board.locked_actions) : null,
    el("details", { class: "vp-table" }, el("summary", {}, t("Votes needed for victory points")),
      el("table", {}, el("tbody", {},
        el("tr", {}, el("th", { scope: "row" }, t("Votes")), board.vp_table.map(([votes]) => el("td", {}, String(votes)))),
        el("tr", {}, el("th", { scope: "row" }, t("VP")), board.vp_table.map(([, vp]) => el("td", {}, String(vp))))))));
  }

  displays() {
    const v = this.v;
    const t = this.t;
    const backSeat = v.seats.findIndex((p) => p.party === v.poll_top_back);
    const back = v.poll_top_back
      ? withHelp(el("span", { class: "card poll back", role: "img", "aria-label": t("Back of the top poll card: {party}",
        { party: backSeat >= 0 ? this.party(backSeat) : t("another party") }),
      style: backSeat >= 0 ? { background: this.colour(backSeat).fill, color: this.colour(backSeat).ink } : null },
      el("span", { "aria-hidden": "true" }, "%"), el("span", { class: "back-party", "aria-hidden": "true" },
        this.partyNamed(v.poll_top_back) ?? t("another party"))), this.pollHelp())
      : el("span", { class: "muted" }, t("empty"));
    const used = v.media_presence.slice(-v.elections);
    return el("section", { class: "dm-displays panel", "aria-labelledby": "dm-displays-title" },
      el("h2", { id: "dm-displays-title" }, t("Displays and decks")),
      el("div", { class: "display-row" },
        el("h3", {}, t("Opinion display")),
        tagged(el("div", { class: "cards" }, v.opinion_display.length ? v.opinion_display.map((c) => this.opinionCard(c))
          : el("span", { class: "muted" }, t("none"))), "opinion-display", v.opinion_display)),
      el("div", { class: "display-row" },
        el("h3", {}, t("Program display")),
        tagged(el("div", { class: "cards" }, v.program_display.map((c) => c === null
          ? el("span", { class: "card empty", role: "img", "aria-label": t("empty") }) : this.opinionCard(c))),
        "program-display", v.program_display)),
      el("div", { class: "display-row decks" },
        el("h3", {}, t("Decks")),
        el("div", { class: "cards" },
          el("span", { class: "deck" }, back, el("span", {}, t("Poll deck: {count}", { count: v.poll_deck }))),
          el("span", { class: "deck" }, t("Program deck: {count}", { count: v.program_deck })),
          el("span", { class: "deck" }, t("Opinion deck: {count}", { count: v.opinion_deck })),
          el("span", { class: "deck" }, t("Double markers: {count}", { count: v.double_markers })),
          el("span", { class: "deck" }, t("States to come: {count}", { count: v.future_states })))),
      el("div", { class: "display-row" },
        el("h3", {}, t("Media presence")),
        el("ol", { class: "media-track" }, used.map((spot, i) => tagged(el("li", {},
          withHelp(el("span", { class: "vp" }, t("{points} VP", { points: spot.vp })),
            t("Media presence: markers moved here after an election score these victory points at the end of the game.")),
          spot.markers.length ? spot.markers.map((s) => this.disc(s, t("media marker of {party}", { party: this.party(s) })))
            : el("span", { class: "disc empty", role: "img", "aria-label": t("free media spot") })), `presence-${i}`,
        spot.markers)))));
  }

  /** A party's victory points from the elections so far (votes and wins). */
  pointsSoFar(p, s) {
    if (this.e.final) return this.e.final.scores[s]; // the final scoring's total, as the final tables say
    return p.vote_vp.reduce((a, b) => a + b, 0) + p.win_vp.reduce((a, b) => a + b, 0);
  }

  /** Every party's points so far, party base and money (when the reader may know it), kept in view
   * at the top while the board scrolls (the parties' table is further down). */
  scoreStrip() {
    const t = this.t;
    return el("ul", { class: "dm-scores", "aria-label": t("Parties") }, this.v.seats.map((p, s) => tagged(el("li",
      { class: s === this.e.seat ? "mine" : "", "data-seat": String(s) },
      this.partyTag(s),
      el("strong", { class: "dm-vp" }, t("{points} VP", { points: this.pointsSoFar(p, s) })),
      el("span", { class: "dm-base" }, t("party base {n}", { n: p.party_base })),
      p.money === null || p.money === undefined ? null : el("span", { class: "dm-money" }, this.money(p.money))),
    `score-${s}`, [this.pointsSoFar(p, s), p.party_base, p.money])));
  }

  /** A party's supply: media markers, rallies, politicians and donations left. */
  supply(p) {
    const t = this.t;
    return [t("media {count}", { count: p.media_supply }), " · ", t("rallies {count}", { count: p.rally_supply }),
      " · ", t("politicians {count}", { count: p.politicians_left }), " · ",
      withHelp(el("span", {}, t("donations {count}", { count: p.donations_left })), this.donationHelp())];
  }

  partyTable() {
    const v = this.v;
    const t = this.t;
    const players = this.ctx.players || [];
    const sealed = Boolean(this.e.decision && this.e.decision.sealed);
    return el("section", { class: "panel dm-party-table", "aria-labelledby": "dm-parties-title" },
      el("h2", { id: "dm-parties-title" }, t("Parties")),
      el("div", { class: "table-scroll", tabindex: "0" }, // scrolls sideways on a phone: by keyboard too
        el("table", {},
        el("thead", {}, el("tr", { "data-help-group": "" }, [t("Party"), t("Base"), t("VP"), t("Money"), t("Hand"), t("Program"),
          t("Supply")].map((h) => this.columnHead(h)))),
        el("tbody", {}, v.seats.flatMap((p, s) => {
          const info = players[s] || {};
          const vp = this.pointsSoFar(p, s);
          const row = tagged(el("tr", { class: s === this.e.seat ? "mine" : "" },
            el("th", { scope: "row" }, this.partyTag(s),
              el("span", { class: "who" }, info.name || "", s === this.e.seat ? ` (${t("you")})` : ""),
              info.kind === "human" && !info.connected ? el("span", { class: "offline" }, t("disconnected")) : null,
              sealed && this.e.to_act && (p.committed
                ? el("span", { class: "decided" }, `✓ ${t("has decided")}`)
                : this.e.to_act.includes(s) ? el("span", { class: "deciding" }, t("deciding…")) : null)),
            el("td", { class: "num" }, String(p.party_base)),
            el("td", { class: "num" }, String(vp)),
            el("td", { class: "num" }, p.money === null ? el("span", { "aria-label": t("secret") }, "?")
              : this.money(p.money)),
            el("td", { class: "num" }, String(p.hand_size)),
            el("td", {}, el("span", { class: "cards program" }, p.program.map((c) => this.opinionCard(c, { small: true })))),
            el("td", { class: "supply" }, this.supply(p))),
          `party-${s}`, [p.party_base, vp, p.money, p.hand_size, p.program, p.media_supply, p.rally_supply,
            p.politicians_left, p.donations_left]);
          // on a phone the supply has a line of its own below the party's row, instead of the column
          return [row, el("tr", { class: `supply-row ${s === this.e.seat ? "mine" : ""}` },
            el("td", { colspan: "6" }, this.supply(p)))];
        })))));
  }

  privatePanel() {
    const v = this.v;
    const t = this.t;
    if (this.e.seat === null || this.e.seat === undefined) return null;
    const me = v.seats[this.e.seat];
    const rows = [
      [t("Money"), me.money === null ? "?" : this.money(me.money), me.money],
      [t("Hand"), me.hand && me.hand.length ? el("span", { class: "cards" }, me.hand.map((c) => this.opinionCard(c)))
        : t("none"), me.hand],
      [t("Politicians"), this.ownPoliticians(me.politicians || []), me.politicians],
      [t("Donations"), (me.donations || []).map((d) => this.money(d)).join(", ") || t("none"), me.donations],
    ];
    if (me.draft_hand && me.draft_hand.length) {
      rows.push([t("Draft hand"), el("span", { class: "cards" }, me.draft_hand.map((c) => this.opinionCard(c))),
        me.draft_hand]);
    }
    if (me.sealed && me.sealed.length) {
      rows.push([t("Sealed"), this.sealedChoice(me.sealed), me.sealed]);
    }
    if (me.poll_in_hand) {
      const poll = me.poll_in_hand;
      const changes = Object.entries(poll.delta).filter(([party]) => this.partyNamed(party) !== null)
        .map(([party, d]) => `${this.partyNamed(party)} ${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)}`);
      rows.push([t("Poll in hand"), t("poll card {id}, back {party}: {changes}", { id: poll.id,
        party: this.partyNamed(poll.back) ?? t("another party"), changes: changes.join(", ") || t("none") }), poll]);
    }
    return el("section", { class: "panel dm-private", "aria-labelledby": "dm-private-title" },
      el("h2", { id: "dm-private-title" }, t("Your party: {party}", { party: me.party_name }),
        el("span", { class: "secret-note" }, ` — ${t("only you see this")}`)),
      el("dl", {}, rows.map(([k, value, data]) => [el("dt", {}, k), tagged(el("dd", {}, value), `private-${k}`,
        data ?? null)])));
  }

  finalTable() {
    const v = this.v;
    const t = this.t;
    if (!this.final) return null;
    const best = Math.max(...this.final.map((r) => r.total));
    return el("section", { class: "panel dm-final" },
      el("table", { class: "scores" },
        el("caption", {}, t("Final scores (victory points by source)")),
        el("thead", {}, el("tr", {}, [t("Party"), t("Votes"), t("Wins"), t("Media"), t("Party base"), t("Money"),
          t("Total")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, this.final.map((row, s) => el("tr", { class: row.total === best ? "winner" : "" },
          el("th", { scope: "row" }, this.partyTag(s), row.total === best ? ` ★ ${t("winner")}` : ""),
          ["votes", "wins", "media", "party_base", "money"].map((k) => el("td", {}, String(row[k]))),
          el("td", {}, el("strong", {}, String(row.total))))))));
  }

  // ------------------------------------------------------------ choosing on the board

  /** The media influencer's replacements on board `pos` that change an opinion (phase 7): a card for
   * the very same card (C-32) changes nothing in the state and is left to "change nothing". */
  shifts(pos) {
    if (!this.e.decision || this.e.decision.board !== pos) return [];
    const board = this.v.boards[pos];
    return this.legal.map((action, index) => ({ action, index }))
      .filter(({ action }) => action[0] === "shift" && board.opinions[action[1]].card !== action[2]);
  }

  /** The state's opinions; in phase 7 the media influencer chooses one of them on the board, then the
   * display card that replaces it (replacements()). */
  opinions(board, pos) {
    const shifts = this.shifts(pos);
    const picked = pickedSlot(shifts);
    return board.opinions.map((o, slot) => {
      const card = this.opinionCard(o.card, { faceUp: o.face_up, doubled: o.doubled });
      if (!shifts.some(({ action }) => action[1] === slot)) return card;
      return this.boardButton(card, this.t("Replace {card}", { card: this.cardName(o.card) }), () => {
        SHIFT_PICK.slot = picked === slot ? null : slot;
        SHIFT_PICK.key = shiftsKey(shifts);
        this.redraw(".dm-replacements button");
      }, { "aria-pressed": String(picked === slot), class: "dm-pick" });
    });
  }

  /** The display cards that may replace the opinion chosen on the board, each a button that acts. */
  replacements(board, pos) {
    const slot = pickedSlot(this.shifts(pos));
    if (slot === null) return null;
    const old = this.cardName(board.opinions[slot].card);
    return el("div", { class: "dm-replacements", role: "group", "aria-label": this.t("Replace {card} with:", { card: old }) },
      el("span", { class: "label", "aria-hidden": "true" }, this.t("Replace {card} with:", { card: old })),
      this.shifts(pos).filter(({ action }) => action[1] === slot).map(({ action, index }) =>
        this.boardButton(this.opinionCard(action[2]), this.labels[index], () => this.act(action))));
  }

  /** A board piece as a button named by `label` (the piece is its picture; its rules help moves to the
   * button: nothing focusable inside a button). */
  boardButton(piece, label, onclick, attrs = {}) {
    const help = piece.dataset.help;
    piece.removeAttribute("data-help");
    piece.removeAttribute("tabindex");
    delete piece.dataset.helpStop;
    piece.setAttribute("aria-hidden", "true");
    return withHelp(el("button", { type: "button", class: `dm-board-button ${attrs.class || ""}`, onclick,
      "aria-pressed": attrs["aria-pressed"] || null }, el("span", { class: "visually-hidden" }, label), piece), help);
  }

  /** Draws the board again after a choice on it, focus on the first of `focus`. */
  redraw(focus) {
    this.render(this.root);
    rovingHelp(this.root);
    const first = this.root.querySelector(focus) || this.root.querySelector(".dm-pick[aria-pressed]");
    if (first) first.focus();
  }

  act(action) {
    for (const button of this.root.querySelectorAll(".dm-board-button")) button.disabled = true;
    Promise.resolve(this.ctx.act ? this.ctx.act(action) : null).catch(() => {
      for (const button of this.root.querySelectorAll(".dm-board-button")) button.disabled = false;
    });
  }

  /** A choice's rules help, reachable from the choice in the decision panel (issue 25 defect 3). */
  choiceHelp(action) {
    const kind = action[0];
    const code = { double: "DOUBLE", double_remove: "DOUBLE", buyout: "BUYOUT", others_trend: "OTHERS_TREND-1",
      trend: `TREND+${action[1]}`, votes: `VOTES+${action[1]}`, base: `BASE+${action[1]}`, program: "PROGRAM",
      free_poll: "FREE_POLL" }[kind];
    if (code) return this.actionHelp(code);
    if (["place", "pay", "decline"].includes(kind)) {
      const politician = kind === "place" ? action[2] : this.ownPoliticianHere();
      return [politician ? this.politicianHelp(politician) : "", this.politicianRules()].filter(Boolean).join(" ");
    }
    const columns = this.columnHelp();
    const t = this.t;
    const start = () => t("Start player bid: the highest sealed bid is paid to the bank and makes its party start player; tied parties bid again openly in turn.");
    const texts = {
      bid: start, raise: start,
      poll_bid: () => this.pollHelp(), publish_poll: () => this.pollHelp(), withhold_poll: () => this.pollHelp(),
      buy_media: () => this.mediaHelp(), shift: () => this.mediaHelp(),
      rallies: () => columns[t("Rallies")],
      convert: () => `${columns[t("Trend")]} ${columns[t("Match")]}`,
      donation: () => this.donationHelp(),
    };
    return texts[kind] ? texts[kind]() : null;
  }

  pollHelp() {
    return this.t("Poll card: auctioned in phase 8. Published, it raises the winner's trend in the state and lowers the trend of parties with a minus (not the media influencer's); kept secret, it gives +3 party base.");
  }

  mediaHelp() {
    return this.t("Media marker: the party with the most markers in a state is its media influencer; after the election a marker moves to the media-presence track.");
  }

  donationHelp() {
    return this.t("Donation: after each election but the last, take one card (€10,000, €20,000 or €30,000): accepted, it costs 1, 2 or 3 party base; declined, it adds 1, 3 or 5.");
  }

  politicianRules() {
    return this.t("Politician: sent face down in phase 5, revealed in phase 6; if its party pays its cost, it takes its main action and one secondary action in this state. Actions marked ! work once per state and round.");
  }

  /** The reader's politician in the state being decided on (paying for it in phase 6). */
  ownPoliticianHere() {
    const d = this.e.decision || {};
    const board = this.v.boards[d.board];
    const own = board && board.politicians.find((p) => p.seat === this.e.seat && p.paid === null);
    return own ? own.politician : null;
  }

  /** The reader's own sealed choice so far, in words (issue 25 defect 7; the terminal's sealed_choice): the
   * start block with the states of the spots placed, a bid, a payment, or cards. */
  sealedChoice(sealed) {
    const t = this.t;
    if (this.e.phase === "start") {
      const blocks = ((this.ctx.describe && this.ctx.describe.board) || {}).start_blocks || [];
      const symbol = (s) => (this.terms.SYMBOLS || {})[s] || s;
      const named = (blocks[sealed[0] - 1] || []).map((spot, i) => (i + 1 < sealed.length
        ? t("{bonus} in {state}", { bonus: symbol(spot), state: this.v.boards[sealed[i + 1]].name }) : symbol(spot)));
      return t("Start block {block}: {symbols}", { block: sealed[0], symbols: named.join(", ") });
    }
    if (this.e.phase === "bid") return this.money(sealed[0]);
    if (this.e.phase === "politicians") return sealed[0] ? t("Pay for the politician") : t("Decline the politician");
    return el("span", { class: "cards" }, sealed.map((c) => this.opinionCard(c)));
  }

  /** The votes a majority needs (C-17, the table's describe()). */
  majority() {
    return this.t("Majority: {votes} votes or more, alone or with a coalition partner.", { votes: this.winThreshold });
  }

  /** What a decision's buttons do not say: each start block's symbols, the symbol being placed,
   * the price of rallies (the edition's, from describe()). */
  decisionHelp(legal, mine) {
    const t = this.t;
    const board = (this.ctx.describe && this.ctx.describe.board) || {};
    const blocks = board.start_blocks || [];
    const kinds = new Set(legal.map((a) => a[0]));
    const symbol = (s) => (this.terms.SYMBOLS || {})[s] || s;
    const lines = [];
    if (kinds.has("start_block")) {
      lines.push(el("ul", { class: "start-blocks" }, blocks.map((spots, i) => el("li", {},
        t("Start block {block}: {symbols}", { block: i + 1, symbols: spots.map(symbol).join(", ") })))));
    }
    const secret = (mine && mine.sealed) || [];
    if (kinds.has("start_state") && secret.length && blocks[secret[0] - 1]) {
      const now = blocks[secret[0] - 1][secret.length - 1];
      lines.push(el("p", { class: "placing" }, t("Choose the state for: {symbol}", { symbol: symbol(now) })));
    }
    if (mine && mine.poll_in_hand && kinds.has("withhold_poll") && !kinds.has("publish_poll")) {
      const own = mine.poll_in_hand.delta[mine.party] || 0;
      lines.push(el("p", { class: "poll-secret" }, t("Only a poll with a plus for your party can be published; this one shows {change}: keep it secret for +3 party base.",
        { change: own < 0 ? `−${-own}` : `±${own}` })));
    }
    if (kinds.has("shift")) {
      const state = this.v.boards[this.e.decision.board];
      lines.push(el("p", { class: "on-board" }, t("Choose on the board: an opinion of {state}, then the display card that replaces it.",
        { state: state ? state.name : "" })));
    }
    if (kinds.has("rallies") && board.rally_costs) {
      const prices = board.rally_costs.map((cost, i) => `${i + 1} → ${this.money(cost)}`).join(", ");
      lines.push(el("p", { class: "rally-prices" }, t("Rallies cost in all: {prices}", { prices })));
    }
    return lines;
  }

  render(root) {
    this.root = root;
    const v = this.v;
    const inPlay = v.boards.map((b, pos) => [b, pos]).filter(([b]) => b.in_play);
    const out = v.boards.filter((b) => !b.in_play).map((b) => b.name);
    fill(root,
      this.finalTable(),
      this.scoreStrip(),
      this.phaseTrack(),
      this.legend(),
      el("div", { class: "dm-states" }, inPlay.map(([b, pos]) => this.stateBoard(b, pos))),
      out.length ? el("p", { class: "muted" }, this.t("Out of play: {states}", { states: out.join(", ") })) : null,
      stateMap(this.e, this.t, this.terms),
      this.privatePanel(),
      this.partyTable(),
      this.displays());
    keepClearOf(root.querySelector(".dm-scores"));
  }
}

/** What the window scrolls into view (keyboard focus, "find") stops clear of the score panel — kept at
 * the top, or on a phone at the window's foot — however many lines it wraps into and however far the
 * board is zoomed; on a phone the page also ends above it. */
function keepClearOf(strip) {
  const sync = () => {
    const room = `${Math.ceil(strip.getBoundingClientRect().height) + 8}px`;
    const atFoot = getComputedStyle(strip).position === "fixed";
    document.documentElement.style.scrollPaddingTop = atFoot ? "" : room;
    document.documentElement.style.scrollPaddingBottom = atFoot ? room : "";
    document.body.style.paddingBottom = atFoot ? room : "";
  };
  keepClearOf.sync = sync;
  // Measured at once only at the first drawing: measuring makes the browser lay the page out in the middle of
  // the drawing, which cost more than anything else in a move.  Every later drawing's new strip is observed
  // anew, and an observer reports a new element's size after the next layout, before that frame is painted.
  if (!keepClearOf.observer) {
    sync();
    keepClearOf.observer = new ResizeObserver(() => keepClearOf.sync());
    for (const change of ["resize", "board-zoom"]) addEventListener(change, () => keepClearOf.sync());
  }
  keepClearOf.observer.disconnect();
  keepClearOf.observer.observe(strip);
}

// --- the log and the result panels (docs/web.md, "The log") ---------------------------------------

// State names by code, as boards showed them (a long game's elected states leave the boards).
const STATE_NAMES = new Map();

function rememberStates(view) {
  for (const board of view.board.boards || []) if (board.state && board.name) STATE_NAMES.set(board.state, board.name);
}

/** A decoration (no name of its own: the log's sentence says what happened). */
function picture(html) {
  const node = el("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", focusable: "false" });
  node.innerHTML = html;
  return node;
}

const BALLOT = '<rect x="3" y="9" width="18" height="12" rx="1.5"/><rect x="8" y="2.5" width="8" height="9" fill="#fff" stroke="currentColor" stroke-width="1.5" transform="rotate(8 12 7)"/><rect x="6" y="9" width="12" height="2" fill="#fff"/>';
const LOG_PICTURES = {
  election: BALLOT,
  poll: '<text x="12" y="18" text-anchor="middle" font-size="17" font-weight="700" font-family="sans-serif">%</text>',
  media: '<circle cx="12" cy="12" r="8"/>',
  rallies: '<rect x="3" y="10" width="7" height="7" rx="1"/><rect x="14" y="10" width="7" height="7" rx="1"/><rect x="8.5" y="3" width="7" height="7" rx="1"/>',
  politician: '<circle cx="12" cy="6.5" r="4"/><path d="M4 22c0-5 3.6-8.5 8-8.5s8 3.5 8 8.5z"/>',
  money: '<text x="12" y="18" text-anchor="middle" font-size="17" font-weight="700" font-family="sans-serif">€</text>',
  round: '<path d="M12 3a9 9 0 1 1-8.5 6" fill="none" stroke="currentColor" stroke-width="2.4"/><path d="M2 3.5 3.7 10l6-2.6z"/>',
};
const LOG_KINDS = {
  election: "election", poll_published: "poll", poll_withheld: "poll", poll_won: "poll", poll_auction: "poll",
  poll_taken: "poll", poll_seen: "poll", media_bought: "media", rallies_organized: "rallies", rallies_converted: "rallies",
  politician_placed: "politician", politician_placed_secret: "politician", politicians_revealed: "politician",
  politician_action: "politician", politician_paid: "politician", politician_declined: "politician",
  income: "money", donation: "money", overbid_penalty: "money", round_started: "round",
};

/** A log entry's topic: the opinion card it names (an opinion shifted, a program card), if any. */
function cardOf(p) {
  for (const key of ["new", "card"]) if (Number.isInteger(p[key]) && p[key] >= 0) return p[key];
  return null;
}

/** The state on board `pos` when log entry `index` happened: the next election there names it (before
 * a new state takes the board), else the last state that entered the board before it. */
function stateAt(pos, index, items, view) {
  for (let i = index; i < items.length; i++) {
    const e = items[i].event;
    if (!e || e.params.board !== pos) continue;
    if (e.kind === "election") return STATE_NAMES.get(e.params.state) || null;
    if (e.kind === "state_entered" && i > index) break;
  }
  for (let i = index; i >= 0; i--) {
    const e = items[i].event;
    if (e && e.kind === "state_entered" && e.params.board === pos) return STATE_NAMES.get(e.params.state) || null;
  }
  const board = view.board.boards[pos];
  return board ? board.name : null;
}

function electionPanel(b, p, view, ctx) {
  const t = ctx.t;
  const state = STATE_NAMES.get(p.state) || null;
  const awarded = new Set(p.awarded);
  const names = (seats) => seats.map((s) => b.party(s)).join(" + ");
  const rows = p.votes.map((votes, s) => el("tr", { class: awarded.has(s) ? "awarded" : "", "data-seat": String(s) },
    el("th", { scope: "row" }, b.partyTag(s), awarded.has(s) ? el("span", { class: "badge" }, ` ★`) : null),
    el("td", { class: "votes" }, String(votes)),
    el("td", { class: "vote-vp" }, String(p.vote_vp[s])),
    el("td", { class: "win-vp" }, String(awarded.has(s) ? p.win_vp : 0))));
  const outcome = (ctx.terms.OUTCOMES || {})[p.outcome] || p.outcome;
  return {
    title: state ? t("Election {number} in {state}", { number: p.election, state })
      : t("Election {number}", { number: p.election }),
    body: el("div", { class: "dm-result" },
      el("table", {},
        el("caption", {}, t("Votes and victory points")),
        el("thead", {}, el("tr", {}, [t("Party"), t("Votes"), t("VP for votes"), t("VP for winning")]
          .map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows)),
      el("p", { class: "result-note outcome" }, t("Outcome: {outcome} — {parties}", { outcome, parties: names(p.awarded) })),
      b.winThreshold ? el("p", { class: "result-note majority" }, b.majority()) : null,
      el("p", { class: "result-note media" }, p.media_moved.length
        ? t("To the media presence track: {parties}", { parties: names(p.media_moved) })
        : t("No media marker moves to the media presence track.")),
      p.influencer >= 0 ? el("p", { class: "result-note" }, t("Media influencer: {party}", { party: b.party(p.influencer) }))
        : null),
  };
}

function pollPanel(b, p, index, items, view, ctx) {
  const t = ctx.t;
  const state = stateAt(p.board, index, items, view);
  const changes = new Map(p.changes.map(([s, d]) => [s, d]));
  const signed = (d) => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : "0");
  return {
    title: state ? t("Poll {poll} published in {state}", { poll: p.poll, state }) : t("Poll {poll} published", { poll: p.poll }),
    body: el("div", { class: "dm-result" },
      el("p", { class: "result-note" }, t("Published by {party}.", { party: b.party(p.seat) })),
      el("table", {},
        el("caption", {}, t("Trend changes")),
        el("thead", {}, el("tr", {}, [t("Party"), t("Trend")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, view.board.seats.map((_, s) => el("tr", { "data-seat": String(s) },
          el("th", { scope: "row" }, b.partyTag(s)),
          el("td", { class: "trend-change" }, changes.has(s) ? signed(changes.get(s)) : t("unchanged")))))),
      p.protected >= 0 ? el("p", { class: "result-note" }, t("{party} is the media influencer here: the poll's minus does not apply to it.",
        { party: b.party(p.protected) })) : null),
  };
}

export const log = {
  rounds: ["round_started"],

  decorate(event, view) {
    const p = event.params || {};
    const seat = Number.isInteger(p.seat) && p.seat >= 0 ? p.seat : event.by;
    const player = Number.isInteger(seat) ? view.board.seats[seat] : null;
    const colour = player && COLOURS[player.colour] ? COLOURS[player.colour].fill : null;
    const card = cardOf(p);
    const kind = LOG_KINDS[event.kind];
    const icon = kind ? picture(LOG_PICTURES[kind]) : card !== null && TOPIC_ICONS[card >> 1]
      ? picture(TOPIC_ICONS[card >> 1]) : null;
    return { colour, icon };
  },

  opens(event) {
    return event.kind === "election" || event.kind === "poll_published";
  },

  panel(event, index, items, view, ctx) {
    rememberStates(view);
    const b = new Board(view, ctx);
    if (event.kind === "election") return electionPanel(b, event.params, view, ctx);
    if (event.kind === "poll_published") return pollPanel(b, event.params, index, items, view, ctx);
    return null;
  },
};

const TITLES = {
  bid: "Your sealed start bid",
  raise: "Raise the bid",
  poll_bid: "Your bid for the poll",
  shift: "Replace an opinion",
  swap: "Swap program cards",
  rallies: "Place rallies",
  convert: "Convert rallies",
  donation: "Donation",
  place: "Send a politician",
  keep_card: "Keep one card",
  start_block: "Start block",
  start_state: "Start position",
  buy_media: "Secure media influence",
  take: "Take a card from the display",
};

export default {
  log,

  render(root, view, ctx) {
    rememberStates(view);
    new Board(view, ctx).render(root);
  },

  /** A round as a replay names it (GameSpec.round_of: the election round, 0 during the setup). */
  roundName(number, view, ctx) {
    if (!number) return ctx.t("Setup");
    return ctx.t("Round {round} of {last}", { round: number, last: view.board.last_round });
  },

  /** The choices by kind, each with its rules help; the media influencer's list of replacements
   * (phase 7, also chosen on the board) leaves out those that change nothing in the state. */
  groups(legal, labels, view, ctx) {
    const b = new Board(view, { ...ctx, legal, labels });
    const d = view.decision || {};
    const changing = new Set(d.board !== undefined ? b.shifts(d.board).map(({ index }) => index) : []);
    const groups = new Map();
    legal.forEach((action, index) => {
      const kind = String(action[0]);
      if (kind === "shift" && !changing.has(index)) return;
      if (!groups.has(kind)) {
        const title = TITLES[kind] ? ctx.t(TITLES[kind]) : null;
        groups.set(kind, { title, indices: [], help: [] });
      }
      groups.get(kind).indices.push(index);
      groups.get(kind).help.push(b.choiceHelp(action));
    });
    for (const [kind, group] of groups) {
      if (["bid", "raise", "poll_bid", "shift", "swap"].includes(kind) && group.indices.length > 4) {
        group.style = "select";
        group.confirm = ctx.t("Confirm");
      }
    }
    return [...groups.values()];
  },

  describeDecision(view, ctx) {
    const b = new Board(view, ctx);
    const d = view.decision || {};
    const state = d.board !== undefined && view.board.boards[d.board] ? view.board.boards[d.board].name : null;
    const lines = [el("p", { class: "decision-phase" }, phaseRulesLink("diemacher", ctx.lang, view.phase, {},
      b.phaseName(view.phase)), state ? ` · ${state}` : null)];
    if (d.sealed) lines.push(el("p", { class: "hint" }, ctx.t("Sealed: the others see only that you have decided, not what.")));
    if (d.kind === "auction") {
      lines.push(el("p", {}, ctx.t("high bid {amount} by {party}", {
        amount: d.high === null ? ctx.t("none") : b.money(d.high), party: d.high_seat === null ? "—" : b.party(d.high_seat) })));
    }
    const mine = view.seat !== null ? view.board.seats[view.seat] : null;
    lines.push(...b.decisionHelp(ctx.legal || [], mine));
    if (view.phase === "election" && b.winThreshold) lines.push(el("p", { class: "majority" }, b.majority()));
    if (mine && mine.money !== null) {
      lines.push(el("p", { class: "hint" }, ctx.t("Your money: {amount}", { amount: b.money(mine.money) })));
    }
    return el("div", { class: "decision-context" }, lines);
  },
};
