// The lobby: create a table (game, players, options, who sits where), open tables, your games.
//
// The form keeps every choice (issue 25 defect 1): each field's last value is kept by its id, and a change
// that reshapes the form (game, players, pace) draws it anew with every kept value it can still take (a
// value the new form lacks gives way to its default) and the keyboard focus on the field that changed.

import {
  NAME_KEY, api, botKindName, el, ensureKey, fill, loadGames, loadTexts, mySeats, preferredLanguage, refill,
  rememberSeat, seatName, showAlert, switchPageLanguage, topBar,
} from "./common.js";

const state = { texts: null, games: {}, open: [], mine: [], game: null, kept: {} };

// Fields whose change reshapes the form (besides the game): how many seats, the real-time clock's fields.
const RESHAPING = new Set(["players", "pace"]);

// The bot kinds from the weakest to the strongest (docs/bots.md, "What it measured"), each in one line.
const BOT_LEVELS = {
  random: "Plays any legal move at random: to try out the rules.",
  easy: "Looks a little ahead and often errs: for a first game.",
  heuristic: "Plays by rules of thumb at once: a fair opponent.",
  normal: "Tries its best moves in simulated games: stronger than the heuristic bot.",
  hard: "As the normal bot, with twice the time to think: the strongest.",
};

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
  document.getElementById("language").focus();
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
  fill(document.getElementById("topbar"), topBar(state.texts, t("Lobby"), switchLanguage));
  fill(document.getElementById("main"),
    el("p", { class: "intro" }, t("Play {games} with friends and bots. Every rule is enforced, every secret kept.",
      { games: gameList() })),
    el("section", { class: "panel new-table", "aria-labelledby": "new-title", id: "new-table" }),
    el("section", { class: "panel", "aria-labelledby": "mine-title", id: "mine" }),
    el("section", { class: "panel", "aria-labelledby": "open-title", id: "open" }));
  renderForm();
  renderLists();
}

/** The new-table form, drawn anew with the kept choices; the field in focus keeps it. */
function renderForm() {
  const focused = document.activeElement && document.activeElement.id;
  const form = newTableForm();
  fill(document.getElementById("new-table"), el("h2", { id: "new-title" }, t("New table")), form);
  restoreChoices(form);
  if (focused) document.getElementById(focused)?.focus();
}

function t(msgid, params) {
  return state.texts.t(msgid, params);
}

/** Keeps the changed field's value; a change of game, players or pace reshapes the form. */
function keepChoice(event) {
  const field = event.target;
  if (field.name === "game") state.game = field.value;
  else if (field.id) state.kept[field.id] = field.type === "checkbox" ? field.checked : field.value;
  if (field.name === "game" || RESHAPING.has(field.id)) renderForm();
}

/** Puts back every kept choice the form can still take; the others keep their defaults. */
function restoreChoices(form) {
  for (const field of form.elements) {
    const kept = state.kept[field.id];
    if (kept === undefined) continue;
    if (field.type === "checkbox") field.checked = kept;
    else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === kept)) field.value = kept;
  }
}

function newTableForm() {
  const names = Object.keys(state.games);
  const game = names.includes(state.game) ? state.game : names[0] || "";
  state.game = game;
  const info = state.games[game] || { min_players: 1, max_players: 1, options: {}, schema: [], bots: ["random"] };
  const wanted = Number(state.kept.players) || info.default_players || info.min_players;
  const players = Math.min(info.max_players, Math.max(info.min_players, wanted));
  const lobbyOptions = (info.schema || []).filter((option) => option.lobby);

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

  return el("form", { class: "create", onsubmit: submit, onchange: keepChoice },
    el("fieldset", { class: "game-choice" }, el("legend", {}, t("Game")),
      names.map((name) => gameCard(name, name === game))),
    el("div", {},
      el("div", { class: "form-grid" },
        el("label", { for: "host-name" }, t("Your name")),
        el("input", { id: "host-name", name: "name", type: "text", required: true, maxlength: 40,
          autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || "",
          oninput: (e) => localStorage.setItem(NAME_KEY, e.target.value) }),
        el("label", { for: "players" }, t("Players")),
        el("select", { id: "players", name: "players" }, range(info.min_players, info.max_players).map((n) =>
          el("option", { value: n, selected: n === players }, String(n)))),
        lobbyOptions.map(optionField)),
      info.rules && lobbyOptions.length ? el("p", { class: "hint options-explained" }, el("a", {
        href: `${info.rules}?lang=${encodeURIComponent(state.texts.lang)}#rules-options`, target: "_blank",
        rel: "noopener" }, t("What the table options do"))) : null,
      botLevels(info)),
    el("div", {},
      seatsPlan(info, players),
      paceFields(info),
      el("p", { class: "create-button" }, el("button", { type: "submit", class: "primary" }, t("Create the table")))));
}

/** A game to choose: its title, what it is about, players, length, complexity and its rules page. */
function gameCard(name, chosen) {
  const game = state.games[name];
  const about = game.about || {};
  const id = `game-${name}`;
  const facts = [t("players: {min}–{max}", { min: game.min_players, max: game.max_players }), about.length,
    about.complexity ? t("Complexity: {value} of 5", { value: about.complexity }) : null].filter(Boolean);
  return el("div", { class: "game-card", onclick: (e) => pickCard(e, id) },
    el("input", { type: "radio", id, name: "game", value: name, checked: chosen }),
    el("div", { class: "game-head" }, el("label", { for: id, class: "game-name" }, gameTitle(name)),
      // Learn to play: the game's guided first game (its title completes the button's name for screen readers)
      game.guide ? el("button", { type: "button", class: "learn", "data-learn": name, title: t(LEARN_ABOUT),
        onclick: (e) => learn(e, name) }, t("Learn to play"), el("span", { class: "visually-hidden" },
        ` ${gameTitle(name)}`)) : null),
    about.summary ? el("p", { class: "game-summary" }, about.summary) : null,
    el("p", { class: "game-facts" }, facts.join(" · ")),
    game.rules ? el("a", { href: `${game.rules}?lang=${encodeURIComponent(state.texts.lang)}`, target: "_blank",
      rel: "noopener" }, t("Rules of {game}", { game: gameTitle(name) })) : null);
}

const LEARN_ABOUT = "A guided first game against bots, from a fixed deal: every phase is explained the first time it comes up, and you make every decision yourself.";

/** Learn to play: the game's guided first game (its guide's players and fixed deal, bots at the other seats). */
async function learn(event, name) {
  const field = document.getElementById("host-name");
  if (!field.reportValidity()) return;
  localStorage.setItem(NAME_KEY, field.value.trim());
  const guide = state.games[name].guide;
  event.target.disabled = true;
  try {
    await createTable(name, guide.players, {}, field.value.trim(), range(1, guide.players - 1).map(() =>
      `bot:${guide.bots}`), { learn: true });
  } catch (error) {
    showAlert(error.message);
    event.target.disabled = false;
  }
}

/** A click anywhere on a game's card chooses it (its radio button stays the keyboard's way). */
function pickCard(event, id) {
  const radio = document.getElementById(id);
  if (radio.checked || event.target.closest("a, input, label, button")) return;
  radio.checked = true;
  radio.dispatchEvent(new Event("change", { bubbles: true }));
}

/** Who sits at the other seats: a bot (the game's default kind first chosen), an invited friend or anyone. */
function seatsPlan(info, players) {
  const seats = range(1, players - 1).map((seat) => {
    const id = `seat-${seat}`;
    return el("div", { class: "seat-choice" },
      el("label", { for: id }, t("Seat {number}", { number: seat + 1 })),
      el("select", { id, name: id },
        el("optgroup", { label: t("Bots, weakest first") }, byStrength(info.bots).map((kind) => el("option",
          { value: `bot:${kind}`, selected: kind === info.bots[0] }, botKindName(t, kind)))),
        el("optgroup", { label: t("People") },
          el("option", { value: "invite" }, t("Invite a friend")),
          el("option", { value: "open" }, t("Leave open (anyone may join)")))));
  });
  return el("fieldset", { class: "seats-plan" }, el("legend", {}, t("The other seats")),
    el("p", { class: "hint" }, t("You take seat 1.")), seats);
}

/** The game's bot kinds, weakest first, each with what it plays like. */
function botLevels(info) {
  return el("div", { class: "bot-levels" }, el("h3", {}, t("Bots, weakest first")),
    el("dl", {}, byStrength(info.bots).map((kind) => el("div", {},
      el("dt", {}, botKindName(t, kind)), el("dd", {}, BOT_LEVELS[kind] ? t(BOT_LEVELS[kind]) : "")))));
}

/** The bot kinds from the weakest to the strongest; kinds without a known level last. */
function byStrength(kinds) {
  const order = Object.keys(BOT_LEVELS);
  const rank = (kind) => (order.includes(kind) ? order.indexOf(kind) : order.length);
  return [...kinds].sort((a, b) => rank(a) - rank(b));
}

// The table's pace (docs/web.md): the turn-based choices in seconds per move.
const TURN_TIMES = [[3600, "1 hour per move"], [43200, "12 hours per move"], [86400, "24 hours per move"],
  [259200, "3 days per move"]];

/** Untimed, real time (minutes per player + seconds per move) or turn-based, and the stand-in's strength. */
function paceFields(info) {
  const mode = state.kept.pace || "untimed";
  const realtime = mode === "realtime";
  const standinKinds = byStrength(info.bots.filter((kind) => kind !== "random"));
  return el("fieldset", { class: "pace-choice" }, el("legend", {}, t("Pace")),
    el("div", { class: "form-grid" },
      el("label", { for: "pace" }, t("Time")),
      el("select", { id: "pace", name: "pace" },
        el("option", { value: "untimed" }, t("No time limit")),
        el("option", { value: "realtime" }, t("Real time: a clock per player")),
        TURN_TIMES.map(([seconds, text]) => el("option", { value: `turn:${seconds}` },
          t("Turn-based: {time}", { time: t(text) })))),
      realtime ? [
        el("label", { for: "pace-base" }, t("Minutes per player")),
        el("input", { id: "pace-base", type: "number", min: 1, max: 600, value: 30, required: true }),
        el("label", { for: "pace-increment" }, t("Seconds added per move")),
        el("input", { id: "pace-increment", type: "number", min: 0, max: 3600, value: 30, required: true }),
      ] : [],
      el("label", { for: "standin" }, t("Stand-in for an absent player")),
      el("select", { id: "standin", name: "standin", "aria-describedby": "standin-hint" }, standinKinds.map((kind) =>
        el("option", { value: kind, selected: kind === "heuristic" }, botKindName(t, kind))))),
    el("p", { class: "hint", id: "standin-hint" },
      t("When a player's time runs out or they leave, a bot plays their seat until they come back.")));
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

/** A form field for one table option of the game's schema (a checkbox, a choice or a number), with what
 * its choices mean when the game says so (how many elections, say). */
function optionField(option) {
  const id = `opt-${option.name}`;
  const hintId = option.hint ? `${id}-hint` : undefined;
  const hint = option.hint ? el("p", { class: "hint option-hint", id: hintId }, option.hint) : null;
  if (option.kind === "bool") {
    return [el("label", { class: "check" }, el("input", { type: "checkbox", id, name: option.name,
      checked: option.default === true, "aria-describedby": hintId }), " ", option.label), hint];
  }
  const field = option.choices
    ? el("select", { id, name: option.name, "aria-describedby": hintId }, option.choices.map((value) => el("option",
      { value: JSON.stringify(value), selected: value === option.default }, String(value))))
    : el("input", { id, name: option.name, type: option.kind === "int" ? "number" : "text",
      min: option.low ?? undefined, max: option.high ?? undefined, value: option.default ?? "",
      "aria-describedby": hintId });
  return [el("label", { for: id }, option.label), field, hint];
}

function optionValue(form, option) {
  const input = form.querySelector(`#opt-${option.name}`);
  if (option.kind === "bool") return input.checked;
  if (option.choices) return JSON.parse(input.value);
  return option.kind === "int" ? Number(input.value) : input.value;
}

/** Creates the table, takes seat 1, seats the bots and makes the invitations; starts at once only when every
 * other seat is a bot (an invited or open seat waits in the waiting room, where the host starts). */
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
  const mine = document.getElementById("mine");
  const open = document.getElementById("open");
  if (!mine || !open) return;
  const statusName = { open: t("waiting for players"), running: t("running"), finished: t("finished"),
    interrupted: t("interrupted by an upgrade") };
  refill(mine, el("h2", { id: "mine-title" }, t("Your games")),
    el("p", {}, el("a", { href: "/my-games" }, t("All my games, those waiting for me first"))),
    state.mine.length
      ? el("ul", { class: "table-list" }, state.mine.map(({ table, info }) => el("li", {},
        el("a", { href: `/play/${encodeURIComponent(table.id)}` },
          t("{game}, players: {players}", { game: gameTitle(table.game), players: table.players })),
        " · ", statusName[table.status] || table.status,
        info.seat !== undefined && info.seat !== null ? ` · ${t("seat {number}", { number: info.seat + 1 })}` : "",
        info.host ? ` · ${t("you host it")}` : "")))
      : el("p", { class: "hint" }, t("No games yet.")));
  refill(open, el("h2", { id: "open-title" }, t("Open tables")),
    state.open.length
      ? el("ul", { class: "table-list" }, state.open.map((table) => {
        const free = table.seats.filter((s) => s.kind === "free").length;
        const who = table.seats.filter((s) => s.kind !== "free").map((s) => seatName(t, s)).join(", ");
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
