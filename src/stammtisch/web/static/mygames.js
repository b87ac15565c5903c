// My games (/my-games): every table this browser's personal key sits at, those waiting for the player
// first, with whose turn it is and the time left; the key itself, to copy to another device or to
// enter one from there (docs/web.md, "My games").

import {
  api, el, ensureKey, fill, formatDuration, loadGames, loadTexts, mySeats, personalKey, preferredLanguage,
  rememberSeat, showAlert, switchPageLanguage, takeNewKeyNotice, topBar, uid, useKey,
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
  fill(box, el("ol", { class: "my-games-list" }, state.entries.map(entryItem)));
  tick();
}

/** One table: its game and players, whose turn it is, the time left, where to go. */
function entryItem(entry) {
  const { t } = state.texts;
  const table = entry.table;
  const target = entry.reserved.length && table.rematch_of ? table.rematch_of : table.id;
  const others = table.seats.filter((s) => !entry.seats.includes(s.seat)).map((s) => s.name).filter(Boolean);
  return el("li", { class: `my-game${entry.my_turn ? " is-mine" : ""}`, "data-table": table.id },
    el("p", {}, el("a", { href: `/play/${encodeURIComponent(target)}` },
      t("{game}, players: {players}", { game: gameTitle(table.game), players: table.players })),
    others.length ? ` · ${t("with {names}", { names: others.join(", ") })}` : ""),
    el("p", { class: entry.my_turn ? "turn" : "" }, situation(entry)),
    entry.deadline !== null ? el("p", { class: "time-left", "data-deadline": String(entry.deadline) },
      timeLeft(entry.deadline)) : null);
}

/** Whose turn it is, in words. */
function situation(entry) {
  const { t } = state.texts;
  const table = entry.table;
  if (entry.my_turn) return t("It is your turn.");
  if (entry.reserved.length) return t("A rematch waits for you to join.");
  if (table.status === "running") {
    const names = (table.to_act || []).map((s) => table.seats[s] && table.seats[s].name).filter(Boolean);
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
    key && state.showKey ? keyField(key)
      : key ? el("p", {}, el("button", { type: "button", onclick: () => { state.showKey = true; render(); } },
        t("Show my key"))) : null,
    el("form", { onsubmit: entered },
      el("label", { for: inputId }, t("A key from another device")),
      el("input", { id: inputId, type: "text", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
      el("button", { type: "submit" }, t("Use this key"))));
}

function keyField(key) {
  const { t } = state.texts;
  const id = uid("mykey");
  const status = el("span", { class: "copied", role: "status" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(key);
    } catch {
      document.getElementById(id).select();
    }
    status.textContent = t("Copied");
  };
  return el("p", { class: "copy-field" }, el("label", { for: id }, t("Your key")), " ",
    el("input", { id, type: "text", readonly: true, value: key, class: "copy-text", onfocus: (e) => e.target.select() }),
    " ", el("button", { type: "button", onclick: copy, "aria-label": t("Copy: {what}", { what: t("Your key") }) },
      t("Copy")), status);
}

function gameTitle(name) {
  return (state.games[name] && state.games[name].title) || name;
}

start().catch((error) => showAlert(String(error && error.message)));
