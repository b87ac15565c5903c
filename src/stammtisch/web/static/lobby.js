// The lobby: create a table (game, players, options, who sits where), open tables, your games.

import {
  NAME_KEY, api, botKindName, el, ensureKey, fill, loadGames, loadTexts, mySeats, preferredLanguage,
  rememberSeat, showAlert, switchPageLanguage, topBar,
} from "./common.js";

const state = { texts: null, games: {}, open: [], mine: [] };

async function start() {
  state.texts = await loadTexts(preferredLanguage());
  document.documentElement.lang = state.texts.lang;
  await loadGames(state);
  render();
  refreshLists();
  setInterval(refreshLists, 5000);
}

async function switchLanguage(code) {
  await switchPageLanguage(state, code);
  render();
  renderLists();
}

async function refreshLists() {
  try {
    const open = await api("GET", "/api/tables?status=open");
    state.open = open.tables || [];
  } catch {
    state.open = [];
  }
  const mine = [];
  for (const [id, info] of Object.entries(mySeats())) {
    try {
      const table = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
      mine.push({ table, info });
    } catch (error) {
      if (error.status === 404) continue;
    }
  }
  state.mine = mine.sort((a, b) => (b.table.created || 0) - (a.table.created || 0));
  renderLists();
}

function render() {
  const { t } = state.texts;
  fill(document.getElementById("topbar"), topBar(state.texts, t("Lobby"), switchLanguage));
  fill(document.getElementById("main"),
    el("p", { class: "intro" }, t("Play {games} with friends and bots. Every rule is enforced, every secret kept.",
      { games: gameList() })),
    el("section", { class: "panel new-table", "aria-labelledby": "new-title" },
      el("h2", { id: "new-title" }, t("New table")), newTableForm()),
    el("section", { class: "panel", "aria-labelledby": "mine-title", id: "mine" }),
    el("section", { class: "panel", "aria-labelledby": "open-title", id: "open" }));
  renderLists();
}

function newTableForm() {
  const { t } = state.texts;
  const names = Object.keys(state.games);
  const game = state.form?.game && names.includes(state.form.game) ? state.form.game : names[0] || "";
  const info = state.games[game] || { min_players: 1, max_players: 1, options: {}, schema: [], bots: ["random"] };
  const players = Math.min(info.max_players, Math.max(info.min_players, state.form?.players || info.default_players
    || info.min_players));
  state.form = { game, players, pace: state.form?.pace };

  const gameChoice = el("fieldset", { class: "game-choice" }, el("legend", {}, t("Game")),
    names.map((name) => el("label", { class: "radio-card" },
      el("input", { type: "radio", name: "game", value: name, checked: name === game,
        onchange: () => { state.form = { game: name }; render(); } }),
      el("span", { class: "game-name" }, gameTitle(name)),
      el("span", { class: "hint" }, t("players: {min}–{max}", { min: state.games[name].min_players,
        max: state.games[name].max_players })))));

  const playerSelect = el("select", { id: "players", name: "players",
    onchange: (e) => { state.form.players = Number(e.target.value); render(); } },
  range(info.min_players, info.max_players).map((n) => el("option", { value: n, selected: n === players }, String(n))));

  const lobbyOptions = (info.schema || []).filter((option) => option.lobby);
  const options = lobbyOptions.map(optionField);
  const others = range(1, players - 1).map((seat) => {
    const id = `seat-${seat}`;
    return el("div", { class: "seat-choice" },
      el("label", { for: id }, t("Seat {number}", { number: seat + 1 })),
      el("select", { id, name: id },
        info.bots.map((kind) => el("option", { value: `bot:${kind}` }, botKindName(t, kind))),
        el("option", { value: "invite" }, t("Invite a friend")),
        el("option", { value: "open" }, t("Leave open (anyone may join)"))));
  });

  const submit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const name = form.querySelector("#host-name").value.trim();
    if (!name) return;
    localStorage.setItem(NAME_KEY, name);
    const opts = Object.fromEntries(lobbyOptions.map((option) => [option.name, optionValue(form, option)]));
    const plan = range(1, players - 1).map((seat) => form.querySelector(`#seat-${seat}`).value);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await createTable(game, players, opts, name, plan, paceOf(form));
    } catch (error) {
      showAlert(error.message);
      button.disabled = false;
    }
  };

  return el("form", { class: "create", onsubmit: submit },
    gameChoice,
    el("div", { class: "form-grid" },
      el("label", { for: "host-name" }, t("Your name")),
      el("input", { id: "host-name", name: "name", type: "text", required: true, maxlength: 40, autocomplete: "nickname",
        value: localStorage.getItem(NAME_KEY) || "", oninput: (e) => localStorage.setItem(NAME_KEY, e.target.value) }),
      el("label", { for: "players" }, t("Players")), playerSelect,
      options),
    el("fieldset", { class: "seats-plan" }, el("legend", {}, t("The other seats")),
      el("p", { class: "hint" }, t("You take seat 1.")), others),
    paceFields(info),
    el("p", {}, el("button", { type: "submit", class: "primary" }, t("Create the table"))));
}

// The table's pace (docs/web.md): the turn-based choices in seconds per move.
const TURN_TIMES = [[3600, "1 hour per move"], [43200, "12 hours per move"], [86400, "24 hours per move"],
  [259200, "3 days per move"]];

/** Untimed, real time (minutes per player + seconds per move) or turn-based, and the stand-in's strength. */
function paceFields(info) {
  const { t } = state.texts;
  const mode = state.form.pace || "untimed";
  const realtime = mode === "realtime";
  const standinKinds = info.bots.filter((kind) => kind !== "random");
  return el("fieldset", { class: "pace-choice" }, el("legend", {}, t("Pace")),
    el("div", { class: "form-grid" },
      el("label", { for: "pace" }, t("Time")),
      el("select", { id: "pace", name: "pace", onchange: (e) => { state.form.pace = e.target.value; render(); } },
        el("option", { value: "untimed", selected: mode === "untimed" }, t("No time limit")),
        el("option", { value: "realtime", selected: realtime }, t("Real time: a clock per player")),
        TURN_TIMES.map(([seconds, text]) => el("option", { value: `turn:${seconds}`,
          selected: mode === `turn:${seconds}` }, t("Turn-based: {time}", { time: t(text) })))),
      realtime ? [
        el("label", { for: "pace-base" }, t("Minutes per player")),
        el("input", { id: "pace-base", type: "number", min: 1, max: 600, value: 30, required: true }),
        el("label", { for: "pace-increment" }, t("Seconds added per move")),
        el("input", { id: "pace-increment", type: "number", min: 0, max: 3600, value: 30, required: true }),
      ] : [],
      el("label", { for: "standin" }, t("Stand-in for an absent player")),
      el("select", { id: "standin", name: "standin" }, standinKinds.map((kind) => el("option",
        { value: kind, selected: kind === "heuristic" }, botKindName(t, kind))))),
    el("p", { class: "hint" }, t("When a player's time runs out or they leave, a bot plays their seat until they come back.")));
}

function paceOf(form) {
  const mode = form.querySelector("#pace").value;
  const standin = form.querySelector("#standin").value || undefined;
  if (mode === "realtime") {
    return { pace: { mode, base: Number(form.querySelector("#pace-base").value) * 60,
      increment: Number(form.querySelector("#pace-increment").value) }, standin };
  }
  if (mode.startsWith("turn:")) return { pace: { mode: "turn", per_move: Number(mode.slice(5)) }, standin };
  return { standin };
}

/** A form field for one table option of the game's schema (a checkbox, a choice or a number). */
function optionField(option) {
  const id = `opt-${option.name}`;
  if (option.kind === "bool") {
    return el("label", { class: "check" }, el("input", { type: "checkbox", id, name: option.name,
      checked: option.default === true }), " ", option.label);
  }
  const field = option.choices
    ? el("select", { id, name: option.name }, option.choices.map((value) => el("option",
      { value: JSON.stringify(value), selected: value === option.default }, String(value))))
    : el("input", { id, name: option.name, type: option.kind === "int" ? "number" : "text",
      min: option.low ?? undefined, max: option.high ?? undefined, value: option.default ?? "" });
  return [el("label", { for: id }, option.label), field];
}

function optionValue(form, option) {
  const input = form.querySelector(`#opt-${option.name}`);
  if (option.kind === "bool") return input.checked;
  if (option.choices) return JSON.parse(input.value);
  return option.kind === "int" ? Number(input.value) : input.value;
}

async function createTable(game, players, options, name, plan, pace) {
  const created = await api("POST", "/api/tables", { game, players, options, ...pace });
  const id = created.table_id;
  rememberSeat(id, { host: created.host_token, game });
  const key = await ensureKey().catch(() => null); // the seat is bound to the personal key (My games)
  const mine = await api("POST", `/api/tables/${encodeURIComponent(id)}/seats/0`, key ? { name, key } : { name });
  rememberSeat(id, { token: mine.token, seat: 0, keyed: Boolean(key) });
  const invites = {};
  for (const [index, choice] of plan.entries()) {
    const seat = index + 1;
    if (choice.startsWith("bot:")) {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { seat, kind: choice.slice(4) }, created.host_token);
    } else if (choice === "invite") {
      const data = await api("POST", `/api/tables/${encodeURIComponent(id)}/invites`, { seats: [seat] },
        created.host_token);
      for (const item of data.invites) invites[item.seat] = new URL(item.url, location.origin).href;
    }
  }
  rememberSeat(id, { invites });
  if (plan.every((choice) => choice.startsWith("bot:"))) {
    await api("POST", `/api/tables/${encodeURIComponent(id)}/start`, {}, created.host_token);
  }
  location.assign(`/play/${encodeURIComponent(id)}`);
}

function renderLists() {
  const { t } = state.texts;
  const mine = document.getElementById("mine");
  const open = document.getElementById("open");
  if (!mine || !open) return;
  const statusName = { open: t("waiting for players"), running: t("running"), finished: t("finished"),
    interrupted: t("interrupted by an upgrade") };
  fill(mine, el("h2", { id: "mine-title" }, t("Your games")),
    el("p", {}, el("a", { href: "/my-games" }, t("All my games, those waiting for me first"))),
    state.mine.length
      ? el("ul", { class: "table-list" }, state.mine.map(({ table, info }) => el("li", {},
        el("a", { href: `/play/${encodeURIComponent(table.id)}` },
          t("{game}, players: {players}", { game: gameTitle(table.game), players: table.players })),
        " · ", statusName[table.status] || table.status,
        info.seat !== undefined && info.seat !== null ? ` · ${t("seat {number}", { number: info.seat + 1 })}` : "",
        info.host ? ` · ${t("you host it")}` : "")))
      : el("p", { class: "hint" }, t("No games yet.")));
  fill(open, el("h2", { id: "open-title" }, t("Open tables")),
    state.open.length
      ? el("ul", { class: "table-list" }, state.open.map((table) => {
        const free = table.seats.filter((s) => s.kind === "free").length;
        const who = table.seats.filter((s) => s.kind !== "free").map((s) => s.name).join(", ");
        return el("li", {},
          el("a", { href: `/play/${encodeURIComponent(table.id)}` },
            t("{game}, players: {players}", { game: gameTitle(table.game), players: table.players })),
          " · ", t("free seats: {count}", { count: free }), who ? ` · ${who}` : "");
      }))
      : el("p", { class: "hint" }, t("No open tables right now.")));
}

/** A game's title in the page's language, as the server's registry gives it. */
function gameTitle(name) {
  return (state.games[name] && state.games[name].title) || name;
}

/** The registered games' titles as the page's language lists alternatives ("A or B"). */
function gameList() {
  const titles = Object.keys(state.games).map(gameTitle);
  return new Intl.ListFormat(state.texts.lang, { type: "disjunction" }).format(titles);
}

function range(low, high) {
  const out = [];
  for (let n = low; n <= high; n += 1) out.push(n);
  return out;
}

start().catch((error) => showAlert(String(error && error.message)));
