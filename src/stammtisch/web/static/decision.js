// The decision panel: what the reader decides (the game's groups of choices), undo, the hint box, the
// final table and its rematch; the actions the reader sends.

import { api, drawsTheSame, el, fill, mySeats, rememberSeat, showAlert, withHelp } from "./common.js";
import { keyForSeat, page, request, seatList, seatToken, tableId } from "./tablepage.js";
import { decidedSeats, noteSent, sentChoices, unnoteSent } from "./sealed.js";

// ---------------------------------------------------------------- the reader's actions

const SELECT_FROM = 8; // a group of more actions than this becomes a list box with a confirm button

/** Submits one action (a JSON array from legal); resolves once the server has committed it. */
export async function act(action) {
  if (page.busy) return null;
  page.busy = true;
  setBusy(true);
  showAlert("");
  const message = page.drawn || page.message; // the state the reader chose in (refused if this seat has acted since)
  noteSent(message, action);
  try {
    return await request({ type: "act", action, move_no: message.move_no });
  } catch (error) {
    unnoteSent();
    showAlert(error.message);
    throw error;
  } finally {
    page.busy = false;
    setBusy(false);
  }
}

async function undo() {
  try {
    showAlert("");
    await request({ type: "undo", move_no: (page.drawn || page.message).move_no });
    unnoteSent();
  } catch (error) {
    showAlert(error.message);
  }
}

function setBusy(busy) {
  const panel = document.getElementById("decision");
  if (panel) panel.setAttribute("aria-busy", busy ? "true" : "false");
  // The move is in, but a newer state is not drawn yet: the choices shown are outdated and stay disabled
  // until its drawing (the next frame) brings the new ones.
  if (!busy && page.message !== page.drawn) return;
  for (const node of document.querySelectorAll("#decision button, #decision select, #decision input")) {
    node.disabled = busy;
  }
}

// ---------------------------------------------------------------- decision panel

// The panel is drawn in parts, and a part is put in the page only when it differs from the one shown:
// another seat's move (in a sealed decision, each "X has decided") leaves the choices under the
// reader's pointer, their focus and the panel's scroll position as they are; only the reader's own
// choices changing replaces them (issue 25 defect 2).
const DECISION_PARTS = ["about", "choices", "hints", "undo"];

export function renderDecision(message, ctx, board) {
  const panel = document.getElementById("decision");
  const parts = decisionParts(panel);
  const legal = message.legal || [];
  const hadFocus = panel.contains(document.activeElement) || document.activeElement === document.body;
  show(parts.about, decisionAbout(message, ctx, board));
  const chosen = [...parts.choices.querySelectorAll("select")].map((s) => [s.id, s.selectedOptions[0]?.dataset.action]);
  const groups = legal.length && message.status === "running"
    ? (board.groups && board.groups(legal, message.labels, message.view, ctx)) || defaultGroups(legal) : [];
  const newChoices = show(parts.choices, groups.map((group, index) => decisionGroup(group, index, message)));
  const hints = legal.length && message.table.options && message.table.options.hints;
  const hintsKey = JSON.stringify([page.texts.lang, hints ? legal : null]);
  if (parts.hints.dataset.key !== hintsKey) {  // kept while the choices stand: its answer stays
    parts.hints.dataset.key = hintsKey;
    fill(parts.hints, hints ? hintBox(message) : null);
  }
  show(parts.undo, message.undo_allowed ? el("p", {}, el("button", { type: "button", class: "secondary",
    onclick: undo }, page.texts.t("Undo my last move"))) : null);
  if (!newChoices) return;
  for (const [id, action] of chosen) {
    const again = [...(document.getElementById(id)?.options || [])].find((o) => o.dataset.action === action);
    if (again) again.selected = true;
  }
  panel.scrollTop = 0; // the reader's new choices: from their top
  if (hadFocus && legal.length) {
    const first = panel.querySelector("button, select, input");
    if (first && document.activeElement !== first) first.focus({ preventScroll: true });
  }
}

/** The panel's parts (made again after the waiting room or an interrupted game filled the panel). */
function decisionParts(panel) {
  const there = panel.children.length === DECISION_PARTS.length
    && DECISION_PARTS.every((name, i) => panel.children[i].classList.contains(`decision-${name}`));
  if (!there) fill(panel, DECISION_PARTS.map((name) => el("div", { class: `decision-${name}` })));
  return Object.fromEntries(DECISION_PARTS.map((name, i) => [name, panel.children[i]]));
}

/** Puts `children` into `part` unless it shows exactly that already; whether it did. */
function show(part, children) {
  const next = el("div", {}, children);
  if (page.busy) for (const node of next.querySelectorAll("button, select, input")) node.disabled = true;
  const shown = part.childNodes;
  if (next.childNodes.length === shown.length && [...next.childNodes].every((n, i) => drawsTheSame(shown[i], n))) {
    return false;
  }
  part.replaceChildren(...next.childNodes);
  return true;
}

/** What is being decided: the reader's decision, what they sent in a sealed one, whom the table waits
 * for, or the final table. */
function decisionAbout(message, ctx, board) {
  const { t } = page.texts;
  const titleId = "decision-title";
  if (message.status === "finished") {
    return [el("h2", { id: titleId }, t("The game is over.")), finalScores(message), rematchBox(message)];
  }
  if ((message.legal || []).length) {
    return [el("h2", { id: titleId }, t("Your decision")),
      board.describeDecision ? board.describeDecision(message.view, ctx) : null, sentChoices(false)];
  }
  const names = seatList(message);
  const waiting = (message.to_act || []).map((s) => (names[s] && names[s].name) || t("Seat {number}",
    { number: s + 1 }));
  const decided = decidedSeats(message).has(message.seat);
  return [
    el("h2", { id: titleId }, decided ? t("Your decision is sent") : t("Waiting")),
    decided ? sentChoices(true) : null,
    el("p", {}, waiting.length ? t("Waiting for {names}.", { names: waiting.join(", ") }) : t("Nobody is to act.")),
    message.seat === null || message.seat === undefined ? el("p", { class: "hint" }, t("You are watching.")) : null,
  ];
}

/** The final table's rematch (docs/web.md): a seated player starts it, the others join it, spectators
 * may follow it. */
function rematchBox(message) {
  const { t } = page.texts;
  const next = message.table.rematch;
  const seated = message.seat !== null && message.seat !== undefined && seatToken();
  const link = (text) => el("a", { href: `/play/${encodeURIComponent(next)}` }, text);
  let body;
  if (next && (!seated || (mySeats()[next] || {}).token)) {
    body = el("p", {}, link(seated ? t("Go to the rematch") : t("Watch the rematch")));
  } else if (next) {
    body = [el("p", {}, t("A rematch with the same seats, options and pace is ready.")),
      el("p", {}, el("button", { type: "button", class: "primary", onclick: rematch }, t("Join the rematch")))];
  } else if (seated) {
    body = el("p", {}, el("button", { type: "button", class: "primary", onclick: rematch }, t("Rematch")),
      " ", el("span", { class: "hint" }, t("The same seats, options and pace; the other players are asked to join.")));
  }
  return body ? el("div", { class: "rematch" }, body) : null;
}

/** Starts the rematch, or joins it once another player has: this browser's seat there, then its page. */
async function rematch() {
  try {
    const key = await keyForSeat();
    const data = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, key ? { key } : {},
      seatToken());
    rememberSeat(data.table_id, { token: data.token, seat: data.seat, game: page.message.table.game,
      keyed: Boolean(key), ...(data.host_token ? { host: data.host_token } : {}) });
    location.assign(`/play/${encodeURIComponent(data.table_id)}`);
  } catch (error) {
    showAlert(error.message);
  }
}

/** Tables with the hints option: a button that asks the server what the hard bot would do here; the
 * answer (for this seat only) lists its best moves with their estimated values, then why the first:
 * a fact about it to check on the board and how it compared with the next best (in the page's language). */
function hintBox(message) {
  const { t } = page.texts;
  const answer = el("div", { class: "hint-answer", "aria-live": "polite" });
  const ask = async () => {
    fill(answer, el("p", { class: "hint" }, t("The hard bot is thinking…")));
    try {
      const reply = await request({ type: "hint" });
      const key = (action) => JSON.stringify(action);
      const labels = new Map(message.legal.map((action, i) => [key(action), (message.labels || [])[i]]));
      fill(answer, el("p", {}, t("The hard bot would choose:")), el("ol", {}, reply.hints.map((found) =>
        el("li", {}, t("{action}: value {value} of 100 over {visits} simulated games", {
          action: labels.get(key(found.action)) || key(found.action),
          value: Math.round(100 * found.value), visits: found.visits,
        })))), reply.why ? el("p", { class: "hint-why" }, el("strong", {}, t("Why:")), " ", reply.why) : null);
    } catch (error) {
      fill(answer, el("p", { class: "hint" }, error.message));
    }
  };
  return el("div", { class: "hints" },
    el("button", { type: "button", class: "secondary", onclick: ask }, t("What would the hard bot do?")), answer);
}

/** One group per action kind, in the order the game lists them. */
function defaultGroups(legal) {
  const groups = new Map();
  legal.forEach((action, index) => {
    const kind = String(action[0]);
    if (!groups.has(kind)) groups.set(kind, { title: null, indices: [] });
    groups.get(kind).indices.push(index);
  });
  return [...groups.values()];
}

function decisionGroup(group, index, message) {
  const { t } = page.texts;
  const labels = message.labels || [];
  const legal = message.legal;
  const style = group.style || (group.indices.length > SELECT_FROM ? "select" : "buttons");
  const help = (k) => (group.help ? group.help[k] : null); // each choice's rules help (docs/web.md)
  const legendId = `choice-group-${index}`;
  const legend = group.title ? el("legend", { id: legendId }, group.title) : null;
  if (style === "select") {
    const selectId = `choice-${index}`;  // stable: a redraw (another seat moved) keeps the list and its choice
    const select = withHelp(el("select", { id: selectId, name: selectId },
      group.indices.map((i) => el("option", { value: String(i), "data-action": JSON.stringify(legal[i]) },
        labels[i] || JSON.stringify(legal[i])))), help(0));
    if (group.selected !== undefined) select.value = String(group.selected);
    const submit = (event) => {
      event.preventDefault();
      act(legal[Number(select.value)]).catch(() => {});
    };
    return el("fieldset", { class: "group select-group", "aria-labelledby": legend ? legendId : null },
      legend,
      el("form", { onsubmit: submit },
        el("label", { for: selectId, class: legend ? "visually-hidden" : "" }, group.title || t("Choose")),
        select,
        el("button", { type: "submit", class: "primary" }, group.confirm || t("Confirm"))));
  }
  return el("fieldset", { class: "group", "aria-labelledby": legend ? legendId : null },
    legend,
    el("div", { class: "choices" }, group.indices.map((i, k) =>
      withHelp(el("button", {
        type: "button",
        class: "choice",
        "data-action": JSON.stringify(legal[i]),
        onclick: () => act(legal[i]).catch(() => {}),
      }, labels[i] || JSON.stringify(legal[i])), help(k)))));
}

/** The final table from the view's envelope: points per seat and the winners as the game decided
 * them (its tie-breaks included). */
function finalScores(message) {
  const { t } = page.texts;
  const final = (message.view && message.view.final) || { scores: message.scores || [], winners: [] };
  const winners = new Set(final.winners);
  const names = seatList(message);
  return el("table", { class: "scores" },
    el("caption", {}, t("Final scores")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Points")))),
    el("tbody", {}, final.scores.map((points, seat) => el("tr", { class: winners.has(seat) ? "winner" : "" },
      el("th", { scope: "row" }, names[seat] ? names[seat].name : String(seat + 1),
        winners.has(seat) ? el("span", { class: "badge" }, ` ★ ${t("winner")}`) : null),
      el("td", {}, String(points))))));
}

