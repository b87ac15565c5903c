// Die Macher: the 16 states as a map (issue 14) — which are elected, which are on the table (the
// ballot-box state of this round marked), which are not; a schematic tile map drawn here, from the
// view only (board.elected, board.boards, board.future_states).

import { el, withHelp } from "./common.js";

// Each state's tile: [column west→east, row north→south, width in columns], roughly where it lies.
const TILES = {
  SH: [2, 0, 1], HB: [1, 1, 1], HH: [2, 1, 1], MV: [3, 1, 2], NRW: [0, 2, 1], NDS: [1, 2, 1], ST: [2, 2, 1],
  BB: [3, 2, 1], BE: [4, 2, 1], RP: [0, 3, 1], HE: [1, 3, 1], TH: [2, 3, 1], SN: [3, 3, 2], SL: [0, 4, 1],
  BW: [1, 4, 1], BY: [2, 4, 3],
};
const W = 66; // a column's width
const H = 46; // a row's height
const GAP = 5;

/** Each state's status: {kind: elected|voting|table|out, number (elections), board (position)}. */
export function statesOf(view) {
  const v = view.board;
  const found = {};
  for (const id of Object.keys(TILES)) found[id] = { kind: "out" };
  v.boards.forEach((b, pos) => {
    if (b.in_play) found[b.state] = { kind: b.ballot_box ? "voting" : "table", board: pos };
  });
  (v.elected || []).forEach((id, i) => { found[id] = { kind: "elected", number: i + 1 }; });
  return found;
}

function describe(t, name, status) {
  if (status.kind === "elected") return t("{state}: elected in election {number}", { state: name, number: status.number });
  if (status.kind === "voting") return t("{state}: on the table, elected this round", { state: name });
  if (status.kind === "table") return t("{state}: on the table, elected in a later round", { state: name });
  return t("{state}: not on the table", { state: name });
}

function tile(t, names, id, status) {
  const [col, row, span] = TILES[id];
  const x = col * (W + GAP);
  const y = row * (H + GAP);
  const width = span * W + (span - 1) * GAP;
  const name = names[id] || id;
  const text = describe(t, name, status);
  const group = el("g", { class: `dm-map-state is-${status.kind}`, "data-state": id, "data-kind": status.kind,
    role: "img", "aria-label": text },
  el("rect", { x, y, width, height: H, rx: 7 }),
  el("text", { x: x + width / 2, y: y + H / 2 - 3, "text-anchor": "middle", class: "dm-map-code" }, id),
  el("text", { x: x + width / 2, y: y + H / 2 + 13, "text-anchor": "middle", class: "dm-map-mark" },
    status.kind === "elected" ? `✓ ${status.number}` : status.kind === "voting" ? "☐" : ""));
  return withHelp(group, text);
}

/** The map with its legend: {view, t, terms} of the board module. */
export function stateMap(view, t, terms) {
  const names = terms.STATE_NAMES || {};
  const states = statesOf(view);
  const width = 5 * W + 4 * GAP;
  const height = 5 * H + 4 * GAP;
  const counts = { elected: 0, voting: 0, table: 0, out: 0 };
  for (const status of Object.values(states)) counts[status.kind] += 1;
  const legend = [
    ["elected", t("Elected: {count}", { count: counts.elected })],
    ["voting", t("Elected this round: {count}", { count: counts.voting })],
    ["table", t("On the table, elected later: {count}", { count: counts.table })],
    ["out", t("Not on the table: {count}", { count: counts.out })],
  ];
  const toCome = view.board.future_states || 0;
  return el("section", { class: "panel dm-map", "aria-labelledby": "dm-map-title" },
    el("h2", { id: "dm-map-title" }, t("The 16 states")),
    el("div", { class: "dm-map-body" },
      el("svg", { viewBox: `-2 -2 ${width + 4} ${height + 4}`, class: "dm-map-svg", role: "group",
        "aria-labelledby": "dm-map-title" },
      Object.keys(TILES).map((id) => tile(t, names, id, states[id]))),
      el("ul", { class: "dm-map-legend" },
        legend.map(([kind, text]) => el("li", { class: `is-${kind}` }, el("span", { class: "dm-map-key", "aria-hidden": "true" }),
          text)),
        toCome ? el("li", { class: "is-face-down" }, t("States to come: {count}", { count: toCome })) : null)));
}
