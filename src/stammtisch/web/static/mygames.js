// My games (/my-games): every table this browser's personal key sits at, those waiting for the player
// first, with whose turn it is and the time left, where each game stands (its round, its last move, its
// result) and, where a seat still waits, the link to share; the key itself, to copy to another device or to
// enter one from there (docs/web.md, "My games").

import {
  api, copyField, el, ensureKey, fill, format, formatDuration, loadGames, loadTexts, mySeats, personalKey,
  preferredLanguage, refill, rememberSeat, seatName, showAlert, switchPageLanguage, takeNewKeyNotice, topBar, uid,
  useKey,
} from "./common.js";

const state = { texts: null, games: {}, entries: [], showKey: false, loaded: false };

async function start() {
  state.texts = await loadTexts(preferredLanguage());
  document.documentElement.lang = state.texts.lang;
  await loadGames(state);
  try {
    await ensureKey();
  } catch (error) {
    showAlert(error.message);
  }
  state.showKey = takeNewKeyNotice(); // a key made just now is shown once, to be copied
  render();
  await refresh();
  setInterval(refresh, 15000);
  setInterval(tick, 1000);
}

async function switchLanguage(code) {
  await switchPageLanguage(state, code);
  render();
}

/** Binds the seats this browser holds tokens for to the key (once each), then asks for the list. */
async function refresh() {
  const key = personalKey();
  if (!key) return;
  for (const [id, info] of Object.entries(mySeats())) {
    if (!info.token || info.keyed) continue;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/key`, { key }, info.token);
      rememberSeat(id, { keyed: true });
    } catch (error) {
      if (error.status === 403 || error.status === 404) rememberSeat(id, { keyed: true }); // not its seat any more
    }
  }
  try {
    state.entries = (await api("GET", "/api/players/me/tables", undefined, key)).tables;
    state.loaded = true;
    showAlert("");
  } catch (error) {
    showAlert(error.message);
  }
  renderList();
}

function render() {
  const { t } = state.texts;
  fill(document.getElementById("topbar"), topBar(state.texts, t("My games"), switchLanguage));
  fill(document.getElementById("main"),
    el("section", { class: "panel", "aria-labelledby": "games-title" },
      el("h2", { id: "games-title" }, t("Your tables, those waiting for you first")),
      el("div", { id: "games" }, el("p", { class: "loading" }, t("Loading…")))),
    keyBox());
  renderList();
}

function renderList() {
  const { t } = state.texts;
  const box = document.getElementById("games");
  if (!box || !state.loaded) return;
  if (!state.entries.length) {
    fill(box, el("p", { class: "hint" }, t("No games yet.")));
    return;
  }
  refill(box, el("ol", { class: "my-games-list" }, state.entries.map(entryItem)));
  tick();
}

/** One table: its game and players, whose turn it is and the time left, where it stands, where to go. */
function entryItem(entry) {
  const { t } = state.texts;
  const table = entry.table;
  const target = entry.reserved.length && table.rematch_of ? table.rematch_of : table.id;
  // an invited seat nobody has taken has no player yet, unless it is a rematch's seat kept for its player
  const others = table.seats.filter((s) => !entry.seats.includes(s.seat) && s.name
    && (s.kind !== "invited" || table.rematch_of)).map((s) => seatName(t, s));
  return el("li", { class: `my-game${entry.my_turn ? " is-mine" : ""}`, "data-table": table.id },
    el("p", {}, el("a", { href: `/play/${encodeURIComponent(target)}` },
      t("{game}, players: {players}", { game: gameTitle(table.game), players: table.players })),
    others.length ? ` · ${t("with {names}", { names: others.join(", ") })}` : ""),
    el("p", { class: entry.my_turn ? "turn" : "" }, situation(entry)),
    entry.deadline !== null ? el("p", { class: "time-left", "data-deadline": String(entry.deadline) },
      timeLeft(entry.deadline)) : null,
    el("p", { class: "progress" }, progress(entry)),
    entry.result ? el("p", { class: "result" }, result(entry)) : null,
    rematchLink(table),
    waitingSeats(entry));
}

/** Where the game stands: its round in the game's own words and how long ago its last move was made. */
function progress(entry) {
  const { t } = state.texts;
  const about = state.games[entry.table.game]?.about;
  const parts = [];
  if (entry.round && about) parts.push(format(about.round_name, { round: entry.round, rounds: entry.rounds }));
  if (entry.last_move) parts.push(t("Last move {time}", { time: timeAgo(entry.last_move) }));
  else parts.push(t("Created {time}", { time: timeAgo(entry.table.created) }));
  return parts.join(" · ");
}

/** A finished game's result: whether the reader won, with the points, and everybody's points, best first
 * (on equal points the winner by the game's tie-break first, then by seat). */
function result(entry) {
  const { t } = state.texts;
  const { scores, winners } = entry.result;
  const me = entry.seats[0];
  const names = (seats) => seats.map((s) => seatName(t, entry.table.seats[s])).join(", ");
  const ranked = scores.map((points, seat) => ({ seat, points }))
    .sort((a, b) => b.points - a.points || Number(winners.includes(b.seat)) - Number(winners.includes(a.seat)));
  const outcome = winners.includes(me) ? t("You won with a score of {points}.", { points: scores[me] })
    : t("{names} won; your score: {points}.", { names: names(winners), points: scores[me] });
  return `${outcome} ${t("Final scores: {scores}", { scores: ranked.map((r) => `${names([r.seat])} ${r.points}`)
    .join(", ") })}`;
}

/** The rematch linked to its first game, and the first game to its rematch. */
function rematchLink(table) {
  const { t } = state.texts;
  const link = (id, text) => el("p", {}, el("a", { href: `/play/${encodeURIComponent(id)}` }, text));
  if (table.rematch_of) return link(table.rematch_of, t("The game this is a rematch of"));
  return table.rematch ? link(table.rematch, t("Its rematch")) : null;
}

/** Where a seat waits: the invite link this browser made (or a new one, made with the host's token it
 * holds: the server never lists invitations), or the table's link for a seat anyone may take. */
function waitingSeats(entry) {
  const { t } = state.texts;
  const table = entry.table;
  if (table.status === "finished" || table.status === "interrupted") return null;
  const kept = mySeats()[table.id] || {};
  const invited = table.seats.filter((s) => s.kind === "invited" && !entry.reserved.includes(s.seat));
  const parts = invited.map((s) => {
    const number = s.seat + 1;
    const link = (kept.invites || {})[s.seat];
    if (link) return el("p", {}, copyField(t, link, t("Invite link for seat {number}", { number })));
    if (!kept.host) return el("p", { class: "hint" }, t("Seat {number} waits for its invited player.", { number }));
    return el("p", {}, el("button", { type: "button", onclick: () => newInvite(table.id, s.seat) },
      t("New invite link for seat {number}", { number })));
  });
  if (table.seats.some((s) => s.kind === "free")) {
    parts.push(el("p", {}, copyField(t, `${location.origin}/play/${encodeURIComponent(table.id)}`,
      t("Link to this table (to watch or take a free seat)"))));
  }
  return parts.length ? el("div", { class: "waiting" }, parts) : null;
}

/** A new invitation for a seat whose player has not come (it replaces the old link), kept in this browser. */
async function newInvite(tableId, seat) {
  const kept = mySeats()[tableId] || {};
  try {
    const data = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/invites`, { seats: [seat] }, kept.host);
    const invites = { ...(kept.invites || {}) };
    for (const item of data.invites) invites[item.seat] = new URL(item.url, location.origin).href;
    rememberSeat(tableId, { invites });
    renderList();
    document.querySelector(`.my-game[data-table="${CSS.escape(tableId)}"] .copy-text`)?.focus();
  } catch (error) {
    showAlert(error.message);
  }
}

/** How long ago a moment (seconds since the epoch) was, in the page's language ("5 minutes ago"). */
function timeAgo(at) {
  const seconds = Math.max(0, Date.now() / 1000 - at);
  const words = new Intl.RelativeTimeFormat(state.texts.lang, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (seconds >= size) return words.format(-Math.floor(seconds / size), unit);
  }
  return words.format(-Math.floor(seconds), "second");
}

/** Whose turn it is, in words. */
function situation(entry) {
  const { t } = state.texts;
  const table = entry.table;
  if (entry.my_turn) return t("It is your turn.");
  if (entry.reserved.length) return t("A rematch waits for you to join.");
  if (table.status === "running") {
    const names = (table.to_act || []).map((s) => table.seats[s] && seatName(t, table.seats[s])).filter(Boolean);
    return names.length ? t("Waiting for {names}.", { names: names.join(", ") }) : t("running");
  }
  return { open: t("waiting for players"), finished: t("finished"),
    interrupted: t("interrupted by an upgrade") }[table.status] || table.status;
}

function timeLeft(deadline) {
  return state.texts.t("Time left: {time}", { time: formatDuration(state.texts.t, deadline - Date.now() / 1000) });
}

function tick() {
  for (const node of document.querySelectorAll(".time-left[data-deadline]")) {
    node.textContent = timeLeft(Number(node.dataset.deadline));
  }
}

/** The personal key: shown once when made here (and on request), and entering one from another device. */
function keyBox() {
  const { t } = state.texts;
  const key = personalKey();
  const inputId = uid("key");
  const entered = async (event) => {
    event.preventDefault();
    const value = event.target.querySelector("input").value.trim();
    if (!value) return;
    try {
      await api("GET", "/api/players/me/tables", undefined, value); // a key of this server?
    } catch (error) {
      showAlert(error.message);
      return;
    }
    useKey(value);
    state.showKey = false;
    render();
    await refresh();
  };
  return el("section", { class: "panel key-box", "aria-labelledby": "key-title" },
    el("h2", { id: "key-title" }, t("Your personal key")),
    el("p", {}, t("This browser recognises you by a personal key, without a password. To see and play your games on another device, copy the key there. Keep it secret: whoever has it can play your seats.")),
    key && state.showKey ? el("p", {}, copyField(t, key, t("Your key")))
      : key ? el("p", {}, el("button", { type: "button", onclick: () => { state.showKey = true; render(); } },
        t("Show my key"))) : null,
    el("form", { onsubmit: entered },
      el("label", { for: inputId }, t("A key from another device")),
      el("input", { id: inputId, type: "text", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
      el("button", { type: "submit" }, t("Use this key"))));
}

function gameTitle(name) {
  return (state.games[name] && state.games[name].title) || name;
}

start().catch((error) => showAlert(String(error && error.message)));
