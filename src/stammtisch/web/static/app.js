// The game page's frame: connection, waiting room, decision panel, seats, log, language.
// The board itself is drawn by the game's browser module, which /api/games names (docs/web.md):
// export default { render(root, view, ctx) }.  This frame knows no game by name.

import {
  LANGUAGE_KEY, NAME_KEY, api, applyPatch, botKindName, copyField as copyBox, el, ensureKey, fill, formatDuration,
  installHelp, loadTexts, mySeats, personalKey, preferredLanguage, rememberSeat, rovingHelp, seatName as shownSeatName,
  showAlert, topBar, uid, withHelp,
} from "./common.js";
import { onChat, renderChat } from "./chat.js";
import { renderGuide } from "./guide.js";
import { Highlighter } from "./highlight.js";
import { EventLog, ResultPanel, SEALED_COMMITTED, logHooks, logItems } from "./tablelog.js";
import { Replay, moveInAddress, renderBar } from "./replay.js";
import { applyZoom, installZoomKeys, zoomControls } from "./zoom.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
takeInvitationFromAddress();

const SELECT_FROM = 8; // a group of more actions than this becomes a list box with a confirm button

const page = {
  texts: null,
  message: null, // the last state message
  patched: null, // the state the server's next delta patches (docs/api.md, "Deltas")
  log: [], // the log's entries: {text, event} (tablelog.js)
  eventLog: new EventLog(),
  results: new ResultPanel(),
  resultsSeen: 0, // log entries already looked at for a result panel to open
  highlight: new Highlighter(),
  socket: null,
  connected: false,
  retry: 0,
  since: -1, // -1: ask for the whole history (first connection, language change)
  requests: new Map(),
  nextId: 1,
  board: null, // the board module
  boardGame: null,
  games: {}, // /api/games: each game's title (in the page's language), bots and browser module
  decisionKey: "",
  busy: false,
  closed: false,
  replay: null, // the replay (replay.js): while active, the board shows its position, not the live one
};
page.replay = new Replay(tableId, () => render(), seatToken); // a seat's token: its own replay once over

function seatToken() {
  return (mySeats()[tableId] || {}).token || null;
}

/** An invite link carries its invitation in the fragment (#seat=N&invite=…), which no browser sends to
 * a server: keep it in this browser until claimed, and take it out of the address bar and history. */
function takeInvitationFromAddress() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("invite");
  const seat = Number.parseInt(fragment.get("seat"), 10);
  if (!token) return;
  if (Number.isInteger(seat)) rememberSeat(tableId, { invitation: { token, seat } });
  history.replaceState(null, "", location.pathname + location.search);
}

function invitation() {
  return (mySeats()[tableId] || {}).invitation || null;
}

/** Claims the invitation: the server answers with a fresh seat token for this browser. */
async function acceptInvitation(name) {
  const pending = invitation();
  if (!pending || page.claiming) return;
  page.claiming = true;
  try {
    const key = await keyForSeat();
    const data = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${pending.seat}`,
      { ...(name ? { name } : {}), ...(key ? { key } : {}) }, pending.token);
    rememberSeat(tableId, { token: data.token, seat: data.seat, invitation: null, keyed: Boolean(key) });
    showAlert("");
    reconnectSoon(0, true);
  } catch (error) {
    if (error.status === 403) rememberSeat(tableId, { invitation: null }); // used or replaced
    showAlert(error.message);
    if (page.message) render();
  } finally {
    page.claiming = false;
  }
}

function hostToken() {
  return (mySeats()[tableId] || {}).host || null;
}

/** The personal key a seat taken here is bound to (made on first use); none if the server refuses one. */
async function keyForSeat() {
  try {
    return await ensureKey();
  } catch {
    return null;
  }
}

/** Opened on another device of the same player (My games): the seat token the personal key derives here. */
async function seatFromKey() {
  const key = personalKey();
  if (!key || seatToken()) return;
  try {
    const data = await api("POST", `/api/players/me/tables/${encodeURIComponent(tableId)}/token`, {}, key);
    rememberSeat(tableId, { token: data.token, seat: data.seat, keyed: true });
  } catch {
    // the key holds no seat here: watch
  }
}

// ---------------------------------------------------------------- start

async function start() {
  page.texts = await loadTexts(preferredLanguage());
  document.documentElement.lang = page.texts.lang;
  await loadGames();
  installHelp();
  installTools();
  renderChrome();
  await seatFromKey();
  connect();
  if (moveInAddress() !== null) page.replay.open(moveInAddress(), page.texts.lang);
  window.addEventListener("online", () => reconnectSoon(0));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !page.connected) reconnectSoon(0);
  });
}

/** The registered games, titles in the page's language. */
async function loadGames() {
  try {
    page.games = await api("GET", `/api/games?lang=${encodeURIComponent(page.texts.lang)}`);
  } catch (error) {
    showAlert(error.message);
  }
}

function gameTitle(game) {
  return (page.games[game] && page.games[game].title) || game;
}

async function switchLanguage(code) {
  localStorage.setItem(LANGUAGE_KEY, code);
  page.texts = await loadTexts(code);
  document.documentElement.lang = page.texts.lang;
  await loadGames();
  page.decisionKey = "";
  // Labels, sentences and the table's describe() (phase names) come from the server in the reader's
  // language: the board is drawn again when they arrive, so it never mixes two languages.
  renderChrome(false);
  page.since = -1;
  reconnectSoon(0, true);
  if (page.replay.position) page.replay.go(page.replay.position.move_no, code);
}

function renderChrome(withBoard = true) {
  const { t } = page.texts;
  const game = page.message && page.message.table ? page.message.table.game : null;
  const title = game ? gameTitle(game) : t("Table");
  const rules = game && page.games[game] && page.games[game].rules
    ? el("a", { class: "rules-link", href: `/rules/${encodeURIComponent(game)}?lang=${page.texts.lang}`,
      target: "_blank", rel: "noopener" }, t("Rules"))
    : null;
  fill(document.getElementById("topbar"), topBar(page.texts, title, switchLanguage), rules,
    el("p", { class: `connection ${page.connected ? "online" : "offline"}`, id: "connection", role: "status" },
      page.connected ? t("Connected") : t("Connecting…")));
  document.getElementById("skip-link").textContent = t("Skip to your decision");
  if (page.message && withBoard) render();
}

// ---------------------------------------------------------------- connection

function connect() {
  if (page.socket) return;
  const params = new URLSearchParams({ lang: page.texts.lang, since: String(page.since), deltas: "1", chat: "1" });
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/play/${encodeURIComponent(tableId)}?${params}`);
  page.socket = socket;
  // The seat token goes in the first message, never in the address (addresses are logged).
  socket.addEventListener("open", () => authenticate(socket, seatToken()));
  socket.addEventListener("message", (event) => {
    if (page.socket !== socket) return; // replaced (a language switch): its texts are the old language's
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(data);
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return;
    page.socket = null;
    page.connected = false;
    for (const { reject } of page.requests.values()) reject(new Error(page.texts.t("The connection was lost.")));
    page.requests.clear();
    setConnection();
    if (event.code >= 4400 && event.code < 4500) return; // the server refused: no table, a wrong token
    reconnectSoon();
  });
}

function authenticate(socket, token) {
  socket.send(JSON.stringify(token ? { type: "auth", token, id: "auth" } : { type: "auth", id: "auth" }));
}

function onAuth(data) {
  if (data.type === "ok") {
    page.connected = true;
    page.retry = 0;
    setConnection();
    return;
  }
  showAlert(errorText(data));
  if (data.error === "wrong_token" && page.socket) {
    // The token in this browser holds no seat here (an old table?): watch instead.
    rememberSeat(tableId, { token: null });
    authenticate(page.socket, null);
  }
}

function reconnectSoon(delay, force = false) {
  if (force && page.socket) {
    const old = page.socket;
    page.socket = null;
    page.connected = false;
    old.close();
  }
  if (page.socket || page.closed) return;
  const wait = delay ?? Math.min(10000, 500 * 2 ** page.retry) * (0.75 + Math.random() / 2);
  page.retry += 1;
  clearTimeout(page.timer);
  page.timer = setTimeout(connect, wait);
}

function setConnection() {
  const node = document.getElementById("connection");
  if (!node) return;
  const { t } = page.texts;
  node.className = `connection ${page.connected ? "online" : "offline"}`;
  node.textContent = page.connected ? t("Connected") : t("Disconnected: reconnecting…");
}

function onMessage(data) {
  if (data.type === "state") {
    page.patched = patchBase(data);
    onState(data);
    return;
  }
  if (data.type === "delta") {
    onDelta(data);
    return;
  }
  if (data.id === "auth") {
    onAuth(data);
    return;
  }
  if (data.type === "presence") {
    onPresence(data);
    return;
  }
  if (data.type === "chat") {
    onChat(data);
    showChat();
    return;
  }
  if (data.type === "error" && data.id === undefined) {
    showAlert(errorText(data));
    return;
  }
  const pending = page.requests.get(data.id);
  if (!pending) return;
  page.requests.delete(data.id);
  if (data.type === "error") pending.reject(Object.assign(new Error(errorText(data)), { data }));
  else pending.resolve(data);
}

function errorText(data) {
  return page.texts.t("The server refused: {message}", { message: data.message || data.error || "?" });
}

function request(message) {
  return new Promise((resolve, reject) => {
    if (!page.socket || !page.connected) {
      reject(new Error(page.texts.t("Not connected; trying again…")));
      return;
    }
    const id = page.nextId++;
    page.requests.set(id, { resolve, reject });
    page.socket.send(JSON.stringify({ ...message, id }));
  });
}

/** Submits one action (a JSON array from legal); resolves once the server has committed it. */
async function act(action) {
  if (page.busy) return null;
  page.busy = true;
  setBusy(true);
  showAlert("");
  const message = page.message;
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
    await request({ type: "undo", move_no: page.message.move_no });
    unnoteSent();
  } catch (error) {
    showAlert(error.message);
  }
}

function setBusy(busy) {
  const panel = document.getElementById("decision");
  if (panel) panel.setAttribute("aria-busy", busy ? "true" : "false");
  for (const node of document.querySelectorAll("#decision button, #decision select, #decision input")) {
    node.disabled = busy;
  }
}

// ---------------------------------------------------------------- state

// Keys of a state message that belong to that message only: a delta patches the rest (server/delta.py).
const STATE_ONLY = new Set(["type", "events", "sentences", "history", "log_events", "describe"]);

function patchBase(message) {
  return structuredClone(Object.fromEntries(Object.entries(message).filter(([key]) => !STATE_ONLY.has(key))));
}

// What changed since the last state: patched into that state, then shown as a state message.
function onDelta(data) {
  try {
    if (!page.patched) throw new Error("a delta before any state");
    page.patched = applyPatch(page.patched, data.patch);
  } catch (error) {
    console.warn("a delta could not be applied: connecting again for the whole state", error);
    page.patched = null;
    page.since = -1;
    reconnectSoon(0, true);
    return;
  }
  onState({ ...structuredClone(page.patched), type: "state", events: data.events || [],
    sentences: data.sentences || [] });
}

function onState(message) {
  const first = !page.message;
  const gameBefore = page.message && page.message.table.game;
  if (message.history) {
    page.log = logItems(message.sentences, message.log_events);
    page.resultsSeen = page.log.length; // a reload or reconnect opens no panel: the log's buttons do
    page.rebuildLog = true; // even if this message's own rendering is overtaken by a newer one
  }
  else page.log.push(...logItems(message.sentences, message.events));
  page.since = message.move_no;
  if (message.describe) page.describe = message.describe;  // the table's Game.describe(), sent once
  page.message = message;
  if (message.seat !== null && message.seat !== undefined) rememberSeat(tableId, { seat: message.seat,
    game: message.table.game, invitation: null });
  else if (invitation() && message.status === "running") acceptInvitation(localStorage.getItem(NAME_KEY) || "");
  else if (invitation() && message.status === "finished") rememberSeat(tableId, { invitation: null });
  if (first || gameBefore !== message.table.game) renderChrome(false);
  followSent(message);
  render(message.history);
  noticeOfTurn(message);
  if (message.seat !== null && message.seat !== undefined && seatToken() && page.notify === undefined) loadNotify();
}

// Somebody's seat connected or left: only the list of players changes.
function onPresence(data) {
  const message = page.message;
  if (!message) return;
  message.connected = data.connected;
  if (message.status === "open") renderWaitingRoom();
  else if (document.getElementById("seats")) renderSeats(message);
}

/** The game's browser module (and its stylesheet of the same name), as /api/games names it. */
function loadBoard(game) {
  if (page.boardGame === game) return page.board;
  page.boardGame = game;
  const module = page.games[game] && page.games[game].module;
  if (!module) {
    page.board = Promise.resolve(genericBoard);
    return page.board;
  }
  const stylesheet = module.replace(/\.js$/, ".css");
  if (!document.querySelector(`link[data-board="${game}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: `/static/${stylesheet}`, "data-board": game }));
  }
  page.board = import(`/static/${module}`).then((loaded) => loaded.default, (error) => {
    console.warn(`no board module for ${game}`, error);
    return genericBoard;
  });
  return page.board;
}

async function render(rebuildLog = false) {
  const message = page.message;
  if (!message) return;
  if (message.status === "open" || message.status === "interrupted") {
    fill(document.getElementById("board-tools"));
    if (message.status === "open") renderWaitingRoom();
    else renderInterrupted(message);
    return;
  }
  const board = await loadBoard(message.table.game);
  if (message !== page.message) return; // a newer one is on its way
  const root = document.getElementById("board");
  const shown = page.replay.message(message) || message; // a replay's position, or the game now
  const ctx = context(message);
  const seats = document.getElementById("seats");
  page.highlight.remember([root, seats]);
  renderTools(message, board, context(shown));
  try {
    board.render(root, shown.view, context(shown));
    rovingHelp(root);
  } catch (error) {
    console.error(error);
    fill(root, el("p", { class: "error" }, page.texts.t("The board could not be drawn: {message}",
      { message: String(error && error.message) })));
  }
  renderDecision(message, ctx, board);
  renderSeats(message);
  renderGuide(message, (msgid, params) => page.texts.t(msgid, params));
  // entering or leaving a replay is no move: the board is drawn anew, nothing marked
  const over = shown === message && message.status === "finished"; // the live final table marks nothing
  page.highlight.mark([root, seats], `${tableId} ${page.texts.lang} ${shown === message ? "live" : "replay"}`, over);
  renderLog(rebuildLog, board, ctx);
  openNewResults(board, ctx);
  showChat();
  renderTurnNotice(message);
  markRendered(message);
}

/** The table chat below the log (chat.js): the players write, spectators read. */
function showChat() {
  const message = page.message;
  if (!message || !page.texts) return;
  const names = seatList(message).map((s) => s.name);
  renderChat(document.getElementById("chat-panel"), {
    t: page.texts.t, lang: page.texts.lang, names,
    writer: message.seat !== null && message.seat !== undefined,
    send: (text) => request({ type: "chat", text }),
  });
}

// For tests and tools: what the page shows now (move number, whether the reader must decide).
function markRendered(message) {
  const data = document.body.dataset;
  data.status = message.status;
  data.move = String(message.move_no);
  data.mine = (message.legal || []).length ? "1" : "0";
  data.lang = page.texts.lang;
  data.replay = page.replay.active && page.replay.position ? String(page.replay.position.move_no) : "";
}

// ---------------------------------------------------------------- the board's tools: replay and zoom

function installTools() {
  installZoomKeys(document.getElementById("board"), () => page.message && page.message.table.game);
  page.replay.installKeys(() => page.texts.lang);
}

function renderTools(message, board, shownCtx) {
  const { t, lang } = page.texts;
  const tools = document.getElementById("board-tools");
  const game = message.table.game;
  if (tools.children.length !== 2) fill(tools, el("div", { class: "replay-part" }), el("div", { class: "zoom-part" }));
  const [replayPart, zoomPart] = tools.children;
  const root = document.getElementById("board");
  if (zoomPart.dataset.key !== `${lang} ${game}`) {
    zoomPart.dataset.key = `${lang} ${game}`;
    fill(zoomPart, zoomControls(t, root, game));
  }
  applyZoom(root, game);
  const roundName = (number, view) => (board.roundName ? board.roundName(number, view, shownCtx)
    : t("Round {number}", { number }));
  renderBar(replayPart, page.replay, page.replay.offered(message), t, lang, copyField, roundName);
}

function context(message) {
  const { t, lang, terms, formatNumber } = page.texts;
  return {
    t,
    lang,
    seat: message.seat ?? null,
    legal: message.legal || [],
    labels: message.labels || [],
    act,
    sentences: message.sentences || [],
    events: message.events || [],  // structured, parallel to sentences (empty in a history message)
    // Extras (docs/web.md): everything else a board may want.
    terms: terms[message.table.game] || {},
    formatNumber,
    status: message.status,
    toAct: message.to_act || [],
    players: seatList(message),
    scores: message.scores || null,
    describe: page.describe || { phases: [], board: {} },  // what never changes at this table
  };
}

/** A seat's name; the server's default names in the page's language (common.js). */
function seatName(s) {
  return shownSeatName(page.texts.t, s);
}

function seatList(message) {
  const connected = new Set(message.connected || []);
  return message.table.seats.map((s) => ({
    seat: s.seat, name: seatName(s), kind: s.kind, bot: s.bot || null, standin: s.standin || null,
    connected: s.kind === "bot" || connected.has(s.seat),
  }));
}

// ---------------------------------------------------------------- decision panel

// The panel is drawn in parts, and a part is put in the page only when it differs from the one shown:
// another seat's move (in a sealed decision, each "X has decided") leaves the choices under the
// reader's pointer, their focus and the panel's scroll position as they are; only the reader's own
// choices changing replaces them (issue 25 defect 2).
const DECISION_PARTS = ["about", "choices", "hints", "undo"];

function renderDecision(message, ctx, board) {
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
  if (next.childNodes.length === shown.length && [...next.childNodes].every((n, i) => n.isEqualNode(shown[i]))) {
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

// ---------------------------------------------------------------- a sealed decision

// What this tab sent in the sealed decision under way (sessionStorage: a reload keeps it):
// {table_id: {seat, labels: [{text, lang}], log, committed}}; `log` is the log's length at the first
// choice sent: the record holds while only "has decided" entries came after it.
const SENT_KEY = "stammtisch.sent";

/** Whether the seats to act decide unseen: the game's decision says so, or several seats act at once
 * (engine/view.py: only a sealed decision has several). */
function sealedNow(message) {
  const decision = message.view && message.view.decision;
  return message.status === "running" && (Boolean(decision && decision.sealed) || (message.to_act || []).length > 1);
}

function isSealedCommit(item) {
  return Boolean(item.event) && item.event.kind === SEALED_COMMITTED;
}

/** The seats that have decided in the sealed decision under way: the "has decided" entries that end the
 * log, less those to act again. */
function decidedSeats(message) {
  const seats = new Set();
  if (!sealedNow(message)) return seats;
  for (let i = page.log.length - 1; i >= 0 && isSealedCommit(page.log[i]); i--) {
    seats.add(page.log[i].event.params.seat);
  }
  for (const seat of message.to_act || []) seats.delete(seat);
  return seats;
}

function sentRecords() {
  try {
    return JSON.parse(sessionStorage.getItem(SENT_KEY) || "{}");
  } catch {
    return {};
  }
}

function sentRecord() {
  return sentRecords()[tableId] || null;
}

function keepSent(record) {
  const records = sentRecords();
  if (record) records[tableId] = record;
  else delete records[tableId];
  sessionStorage.setItem(SENT_KEY, JSON.stringify(records));
}

/** Before a choice goes to the server: in a sealed decision, it is remembered as sent. */
function noteSent(message, action) {
  if (!sealedNow(message)) return;
  const index = message.legal.findIndex((a) => JSON.stringify(a) === JSON.stringify(action));
  const record = sentRecord() || { seat: message.seat, labels: [], log: page.log.length, committed: false };
  record.labels.push({ text: (message.labels || [])[index] || JSON.stringify(action), lang: page.texts.lang });
  keepSent(record);
}

/** The last choice remembered as sent is taken back (refused by the server, or undone). */
function unnoteSent() {
  const record = sentRecord();
  if (!record) return;
  record.labels.pop();
  keepSent(record.labels.length ? record : null);
}

/** After each state: the record is let go once the sealed decision is over (its reveal came into the
 * log) or a new one asks the reader again. */
function followSent(message) {
  const record = sentRecord();
  if (!record) return;
  const mine = (message.legal || []).length > 0;
  if (!sealedNow(message) || message.seat !== record.seat || (mine && record.committed)
      || !page.log.slice(record.log).every(isSealedCommit)) keepSent(null);
  else if (!mine && !record.committed) keepSent({ ...record, committed: true });
}

/** The choices sent so far, as they were labelled (in the page's language); once the reader's decision
 * is complete (`done`), at least that it was sent. */
function sentChoices(done) {
  const { t, lang } = page.texts;
  const labels = (sentRecord() || { labels: [] }).labels;
  const shown = labels.filter((label) => label.lang === lang).map((label) => label.text);
  if (!shown.length && !done) return null;
  return el("div", { class: "sent" },
    shown.length ? [el("p", { class: "sent-title" }, t("Sent (sealed):")),
      el("ul", { class: "sent-list" }, shown.map((text) => el("li", {}, text)))] : null,
    done && (!labels.length || shown.length < labels.length)
      ? el("p", { class: "hint" }, t("You have decided; the others see only that, not what.")) : null);
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

// ---------------------------------------------------------------- seats and log

function renderSeats(message) {
  const { t } = page.texts;
  const panel = document.getElementById("seats");
  const toAct = new Set(message.to_act || []);
  const decided = decidedSeats(message); // a sealed decision: marked here, not told in the log
  const clocks = message.table.clocks || [];
  const standinName = { timeout: t("time ran out: a stand-in plays"), left: t("left the game: a stand-in plays"),
    asked: t("away: a stand-in plays") };
  // Three parts, so that the stand-in buttons stay put (the same nodes) while the list changes at every move.
  let [head, actions, body] = panel.children;
  if (!panel.dataset.parts || panel.children.length !== 3) {
    [head, actions, body] = [el("div", { class: "seats-head" }), el("div", { class: "seats-actions" }),
      el("div", { class: "seats-body" })];
    fill(panel, head, actions, body);
    panel.dataset.parts = "1";
  }
  fill(head, el("h2", { id: "seats-title" }, t("Players")), paceLine(message.table.pace));
  const controls = standinControls(message);
  if (actions.firstChild !== controls) fill(actions, controls);
  fill(body,
    el("ul", { class: "seat-list" }, seatList(message).map((s) => {
      const status = s.standin ? standinName[s.standin] : s.kind === "bot" ? t("bot") : s.kind === "invited"
        ? t("invited") : s.kind === "free" ? t("free seat") : s.connected ? t("online") : t("disconnected");
      return el("li", { class: `seat ${s.connected ? "is-online" : "is-offline"} ${toAct.has(s.seat) ? "is-acting" : ""}`
        + (s.standin ? " is-standin" : ""), "data-hl": `seat-${s.seat}`, "data-hl-sig": String(toAct.has(s.seat)) },
        el("span", { class: "presence", "aria-hidden": "true" }),
        el("span", { class: "seat-name" }, s.name || t("Seat {number}", { number: s.seat + 1 }),
          s.seat === message.seat ? ` (${t("you")})` : ""),
        el("span", { class: "seat-status" }, status),
        clocks[s.seat] ? el("span", { class: `clock${running(clocks[s.seat]) ? " running" : ""}`,
          "data-seat": String(s.seat) }, clockText(clocks[s.seat])) : null,
        toAct.has(s.seat) ? el("span", { class: "acting" }, t("to act")) : null,
        decided.has(s.seat) ? el("span", { class: "decided" }, `✓ ${t("has decided")}`) : null);
    })),
    message.status === "finished" || message.status === "interrupted"
      ? el("p", {}, el("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: "" },
        t("Download the game record")))
      : null);
}

// ---------------------------------------------------------------- pace, clocks and stand-ins (issue 15)

/** The table's pace in words ("Turn-based: 24 hours per move"); nothing for untimed tables. */
function paceLine(pace) {
  const { t } = page.texts;
  if (!pace || pace.mode === "untimed") return null;
  const text = pace.mode === "realtime"
    ? t("Real time: {time} per player, +{seconds} s per move", { time: duration(pace.base),
      seconds: pace.increment })
    : t("Turn-based: {time} per move", { time: duration(pace.per_move) });
  return el("p", { class: "pace hint" }, text);
}

/** Seconds as the clock shows them: 1:05:09 under a day, "2 d 3 h" beyond. */
function duration(seconds) {
  return formatDuration(page.texts.t, seconds);
}

/** Whether a seat's clock runs: it is to act (a bot's and a stand-in's clocks run too). */
function running(clock) {
  return clock.deadline !== null && clock.deadline !== undefined;
}

/** A seat's time left: counting down from its deadline while it runs (this browser's clock). */
function clockText(clock) {
  if (clock.deadline !== null && clock.deadline !== undefined) return duration(clock.deadline - Date.now() / 1000);
  return clock.left !== null && clock.left !== undefined ? duration(clock.left) : "";
}

function tickClocks() {
  const clocks = page.message && page.message.table.clocks;
  if (!clocks) return;
  for (const node of document.querySelectorAll(".seat-list .clock")) {
    const clock = clocks[Number(node.dataset.seat)];
    if (clock && clock.deadline !== null) node.textContent = clockText(clock);
  }
  noticeOfDeadline(page.message);
}
setInterval(tickClocks, 1000);

/** The reader's own seat: hand it to a stand-in, leave, or take it back; the host: invite somebody to
 * a seat whose player left.  Built again only when they change (not at every move), so that a button
 * is not replaced under the pointer while the bots play. */
function standinControls(message) {
  const invites = (mySeats()[tableId] || {}).invites || {};
  const key = JSON.stringify([page.texts.lang, message.status, message.seat, Boolean(seatToken()),
    Boolean(hostToken()), message.table.seats.map((s) => s.standin || null), invites, noticeState()]);
  if (page.controlsKey !== key) {
    page.controlsKey = key;
    page.controls = message.status === "running"
      ? el("div", { class: "seat-actions" }, ownSeatControls(message), abandonedSeatControls(message, invites),
        noticeControls(message))
      : null;
  }
  return page.controls;
}

function ownSeatControls(message) {
  const { t } = page.texts;
  const mine = message.table.seats[message.seat ?? -1];
  if (!mine || !seatToken()) return null;
  if (mine.standin) {
    return el("button", { type: "button", class: "primary", onclick: () => seatRequest("back", {}) },
      t("Take my seat back"));
  }
  return [
    el("button", { type: "button", onclick: () => seatRequest("away", {}) }, t("Let a bot play for me")), " ",
    el("button", { type: "button", onclick: () => {
      if (window.confirm(t("Leave the game for good? A bot plays your seat, and the host may invite somebody else."))) {
        seatRequest("away", { leave: true });
      }
    } }, t("Leave the game"))];
}

function abandonedSeatControls(message, invites) {
  const { t } = page.texts;
  if (!hostToken()) return null;
  return message.table.seats.filter((s) => s.standin === "left").map((s) => el("p", {},
    seatName(s), " ",
    el("button", { type: "button", onclick: () => inviteToRunning(s.seat) }, t("Invite somebody to this seat")),
    invites[s.seat] ? copyField(invites[s.seat], t("Invite link")) : null));
}

async function seatRequest(what, body) {
  try {
    await api("POST", `/api/tables/${encodeURIComponent(tableId)}/${what}`, body, seatToken());
    showAlert("");
  } catch (error) {
    showAlert(error.message);
  }
}

async function inviteToRunning(seat) {
  await invite(seat, false);
  if (page.message) renderSeats(page.message);
}

// ---------------------------------------------------------------- notices (issue 15)
// A browser notification when it becomes this seat's turn or its time runs low, while the page is in
// the background; permission is asked from a button, never on load.  E-mail: the seat's address, kept
// by the server for this seat only (docs/web.md, "Notices").

const NOTIFY_KEY = "stammtisch.notifications";

function notificationsOn() {
  return "Notification" in window && Notification.permission === "granted"
    && localStorage.getItem(NOTIFY_KEY) === "on";
}

function noticeState() {
  const permission = "Notification" in window ? Notification.permission : "none";
  return [permission, localStorage.getItem(NOTIFY_KEY), page.notify || null, page.notifyStatus || ""];
}

function notice(title, body) {
  if (!notificationsOn() || !document.hidden) return;
  try {
    const shown = new Notification(title, { body, tag: `stammtisch-${tableId}`, lang: page.texts.lang });
    shown.onclick = () => { window.focus(); shown.close(); };
  } catch {
    // a browser that shows notifications only from a service worker: nothing to do here
  }
}

function noticeNames(message) {
  return { table: tableId, game: gameTitle(message.table.game) };
}

/** Once per turn: the seat became to act (not at the page's first state, which the reader is looking at). */
function noticeOfTurn(message) {
  const seat = message.seat;
  const mine = message.status === "running" && seat !== null && seat !== undefined
    && (message.to_act || []).includes(seat) && !(message.table.seats[seat] || {}).standin;
  const before = page.myTurn;
  page.myTurn = mine;
  if (mine && before === false) {
    notice(page.texts.t("Your turn at table {table} ({game})", noticeNames(message)), "");
  }
}

/** Once per deadline: the seat's time reached its warning (the server's ``warn``: a quarter left). */
function noticeOfDeadline(message) {
  const seat = message && message.seat;
  const clock = seat !== null && seat !== undefined && (message.table.clocks || [])[seat];
  if (!clock || clock.warn === null || clock.warn === undefined || clock.deadline === null || !page.myTurn) return;
  const now = Date.now() / 1000;
  if (now < clock.warn || now >= clock.deadline || page.warned === clock.deadline) return;
  page.warned = clock.deadline;
  notice(page.texts.t("Your time at table {table} ({game}) runs out soon", noticeNames(message)),
    page.texts.t("Time left: {time}", { time: duration(clock.deadline - now) }));
}

async function loadNotify() {
  page.notify = null;
  try {
    page.notify = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/notify`, undefined, seatToken());
  } catch {
    page.notify = undefined;
    return;
  }
  if (page.message) renderSeats(page.message);
}

function noticeControls(message) {
  const mine = message.table.seats[message.seat ?? -1];
  if (!mine || !seatToken()) return null;
  return el("div", { class: "notices" }, browserNoticeControls(), emailForm());
}

function browserNoticeControls() {
  const { t } = page.texts;
  if (!("Notification" in window)) return null;
  if (Notification.permission === "denied") {
    return el("p", { class: "hint" }, t("This browser blocks notifications from this page."));
  }
  if (notificationsOn()) {
    return el("p", {}, t("Notifications in this browser are on."), " ", el("button", { type: "button",
      onclick: () => { localStorage.setItem(NOTIFY_KEY, "off"); renderSeats(page.message); } },
    t("Turn notifications off")));
  }
  return el("button", { type: "button", onclick: async () => {
    const answer = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
    renderSeats(page.message);
  } }, t("Notify me in this browser when it is my turn"));
}

function emailForm() {
  const { t } = page.texts;
  const settings = page.notify;
  if (!settings || !settings.email_available) return null;
  const id = uid("notify-email");
  const input = el("input", { id, type: "email", name: "email", autocomplete: "email", required: true,
    value: settings.email || "" });
  const save = async (address) => {
    try {
      page.notify = await api("PUT", `/api/tables/${encodeURIComponent(tableId)}/notify`,
        { email: address, lang: page.texts.lang }, seatToken());
      page.notifyStatus = address ? t("Saved: e-mails go to {address}.", { address }) : t("No more e-mails.");
    } catch (error) {
      page.notifyStatus = error.message;
    }
    renderSeats(page.message);
  };
  return el("form", { class: "notify-email", onsubmit: (event) => { event.preventDefault(); save(input.value); } },
    el("label", { for: id }, t("E-mail me when it is my turn or my time runs low")), " ", input, " ",
    el("button", { type: "submit" }, t("Save")),
    settings.email ? [" ", el("button", { type: "button", onclick: () => save(null) }, t("Stop the e-mails"))] : null,
    el("p", { class: "hint", role: "status" }, page.notifyStatus || t("Only you see this address.")));
}

/** The event log (tablelog.js): coloured entries with icons from the board module, filters, and a
 * button on each entry that has a result panel. */
function renderLog(rebuild, board = null, ctx = null) {
  const { t, lang } = page.texts;
  const message = page.message;
  rebuild = rebuild || page.rebuildLog;
  page.rebuildLog = false;
  page.eventLog.onChange = () => renderLog(false, page.shownBoard, page.shownCtx);
  page.shownBoard = board;
  page.shownCtx = ctx;
  const hooks = logHooks(board);
  page.eventLog.render(document.getElementById("log-panel"), page.log, {
    t, lang, seat: message ? message.seat ?? null : null, hooks, view: message && message.view, ctx, rebuild,
    onPanel: (index, button) => showResult(index, hooks, ctx, button),
  });
  if (rebuild && page.results.index !== null) {
    // the panel that was open, again in the log's (new) language
    if (!showResult(page.results.index, hooks, ctx)) page.results.hide();
  }
}

/** Shows the result panel of log entry `index`; false when it has none. */
function showResult(index, hooks, ctx, opener = null) {
  const item = page.log[index];
  if (!item || !item.event || !ctx) return false;
  let content = null;
  try {
    content = hooks.panel(item.event, index, page.log, page.message.view, ctx);
  } catch (error) {
    console.warn("a result panel could not be drawn", error);
  }
  if (!content) return false;
  page.results.show(content, index, page.texts.t, opener);
  return true;
}

/** The newest result among the entries that came with this update opens its panel (not on a
 * reload: the log's buttons open them again). */
function openNewResults(board, ctx) {
  const hooks = logHooks(board);
  let newest = null;
  for (let i = page.resultsSeen; i < page.log.length; i++) {
    const { event } = page.log[i];
    if (event && hooks.opens(event, i, page.log)) newest = i;
  }
  page.resultsSeen = page.log.length;
  if (newest !== null) showResult(newest, hooks, ctx);
}

function renderTurnNotice(message) {
  const { t } = page.texts;
  const notice = document.getElementById("turn-notice");
  const mine = (message.legal || []).length > 0;
  const notices = { finished: t("The game is over."),
    interrupted: t("This game was interrupted by an upgrade of the server.") };
  const text = notices[message.status] || (mine ? t("It is your turn.") : "");
  if (notice.textContent !== text) notice.textContent = text;
  notice.classList.toggle("mine", mine);
  document.title = `${mine ? "● " : ""}${gameTitle(message.table.game)} · Stammtisch`;
}

// A game whose rules changed with an upgrade of the server: no board (the new rules cannot rebuild
// it), what happened and its record (docs/operations.md, "Rules versions").
function renderInterrupted(message) {
  const { t } = page.texts;
  const about = message.table.interrupted || {};
  const explain = t("Its rules changed with the upgrade (rules version {old}, now {new}), so it cannot go on exactly as it was played. Its record keeps every move: a release with rules version {old} replays it.", { old: about.rules_version, new: about.now === null || about.now === undefined ? "?" : about.now });
  fill(document.getElementById("board"), el("section", { class: "panel interrupted" },
    el("h2", {}, t("This game was interrupted by an upgrade of the server.")), el("p", {}, explain)));
  fill(document.getElementById("decision"), el("h2", { id: "decision-title" }, t("The game is over.")),
    el("p", {}, t("This game was interrupted by an upgrade of the server.")));
  renderSeats(message);
  renderLog(false);
  showChat();
  renderTurnNotice(message);
  markRendered(message);
}

// ---------------------------------------------------------------- waiting room

async function renderWaitingRoom() {
  const { t } = page.texts;
  const message = page.message;
  const table = message.table;
  const host = hostToken();
  const mySeat = message.seat ?? null;
  const seats = table.seats;
  const me = mySeat !== null ? seats[mySeat] : null;
  const free = seats.filter((s) => s.kind === "free");
  const invites = (mySeats()[tableId] || {}).invites || {};
  const invited = me ? null : invitation();
  const bots = (page.games[table.game] && page.games[table.game].bots) || ["random"];
  const nameInput = (id) => el("input", { id, name: "name", type: "text", maxlength: 40, required: true,
    autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || "" });

  const seatRows = seats.map((s) => {
    const label = s.kind === "free" ? t("free seat") : s.kind === "invited" ? t("invited, not yet joined")
      : s.kind === "bot" ? t("bot: {name}", { name: seatName(s) }) : seatName(s);
    const controls = [];
    if (host && s.kind === "free") {
      const kindId = uid("bot-kind");
      controls.push(
        el("button", { type: "button", onclick: () => invite(s.seat) }, t("Invite a friend")),
        el("label", { for: kindId, class: "visually-hidden" }, t("Bot kind")),
        el("select", { id: kindId }, bots.map((k) => el("option", { value: k }, botKindName(page.texts.t, k)))),
        el("button", { type: "button", onclick: () => addBot(s.seat, document.getElementById(kindId).value) },
          t("Add a bot")));
    }
    if (host && s.kind === "invited") {
      controls.push(el("button", { type: "button", onclick: () => invite(s.seat) }, t("New invite link")));
    }
    if (!me && !invited && s.kind === "free") {
      controls.push(el("button", { type: "button", class: "primary", onclick: () => takeSeat(s.seat) },
        t("Take this seat")));
    }
    if (host && s.kind === "invited" && invites[s.seat]) controls.push(copyField(invites[s.seat], t("Invite link")));
    return el("li", { class: "waiting-seat" },
      el("span", { class: "seat-number" }, t("Seat {number}", { number: s.seat + 1 })),
      el("span", { class: "seat-label" }, label, s.seat === mySeat ? ` (${t("you")})` : ""),
      el("span", { class: "seat-controls" }, controls));
  });

  const parts = [
    el("h2", {}, t("Waiting for players")),
    el("p", {}, t("{game}, players: {players}. The host starts the game once every seat is taken.",
      { game: gameTitle(table.game), players: table.players })),
    el("ul", { class: "waiting-seats" }, seatRows),
  ];
  if (!me && !invited && free.length) {
    parts.push(el("p", {}, el("label", { for: "join-name" }, t("Your name")), " ", nameInput("join-name")));
  }
  if (invited) {
    const accept = (event) => {
      event.preventDefault();
      const name = document.getElementById("accept-name").value.trim();
      if (!name) return;
      localStorage.setItem(NAME_KEY, name);
      acceptInvitation(name);
    };
    parts.push(el("form", { class: "accept", onsubmit: accept },
      el("p", {}, t("You are invited to seat {number}.", { number: invited.seat + 1 })),
      el("label", { for: "accept-name" }, t("Your name")), " ", nameInput("accept-name"), " ",
      el("button", { type: "submit", class: "primary" }, t("Join the table"))));
  }
  if (host) parts.push(startControls(seats, free));
  parts.push(el("p", {}, copyField(`${location.origin}/play/${encodeURIComponent(tableId)}`,
    t("Link to this table (to watch or take a free seat)"))));
  fill(document.getElementById("board"), el("section", { class: "panel waiting-room" }, parts));
  fill(document.getElementById("decision"), el("h2", { id: "decision-title" }, t("Waiting")),
    el("p", {}, t("The game has not started yet.")));
  page.decisionKey = "";
  renderSeats(message);
  fill(document.getElementById("log-panel"), el("h2", { id: "log-title" }, t("Event log")));
  showChat();
  renderTurnNotice(message);
  markRendered(message);
}

/** The host's start button; with invited seats not yet joined it first asks (they could not play). */
function startControls(seats, free) {
  const { t } = page.texts;
  const ready = !free.length;
  const absent = seats.filter((s) => s.kind === "invited");
  if (page.confirmStart && ready && absent.length) {
    const names = absent.map((s) => t("Seat {number}", { number: s.seat + 1 })).join(", ");
    return el("div", { class: "confirm-start", role: "group", "aria-labelledby": "confirm-start-text" },
      el("p", { id: "confirm-start-text" }, t("Not joined yet: {seats}. Start anyway? The game waits at their turns until they join.",
        { seats: names })),
      el("p", {},
        el("button", { type: "button", class: "primary", onclick: () => { page.confirmStart = false; startGame(); } },
          t("Start anyway")), " ",
        el("button", { type: "button", onclick: () => { page.confirmStart = false; renderWaitingRoom(); } },
          t("Wait for them"))));
  }
  const start = () => {
    if (!absent.length) {
      startGame();
      return;
    }
    page.confirmStart = true;
    renderWaitingRoom();
    document.querySelector(".confirm-start button")?.focus();
  };
  return el("p", {}, el("button", { type: "button", class: "primary", disabled: !ready, onclick: start },
    t("Start the game")), ready ? null : el("span", { class: "hint" }, " ", t("Fill every seat first.")));
}

export function copyField(text, labelText) {
  return copyBox(page.texts.t, text, labelText);
}

async function takeSeat(seat) {
  const { t } = page.texts;
  const input = document.getElementById("join-name");
  const name = input ? input.value.trim() : "";
  if (!name) {
    showAlert(t("Please enter your name first."));
    if (input) input.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  try {
    const key = await keyForSeat();
    const data = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`,
      key ? { name, key } : { name });
    rememberSeat(tableId, { token: data.token, seat: data.seat, game: page.message.table.game, keyed: Boolean(key) });
    showAlert("");
    reconnectSoon(0, true);
  } catch (error) {
    showAlert(error.message);
  }
}

async function invite(seat, waiting = true) {
  try {
    const data = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/invites`, { seats: [seat] }, hostToken());
    const invites = { ...((mySeats()[tableId] || {}).invites || {}) };
    for (const item of data.invites) invites[item.seat] = new URL(item.url, location.origin).href;
    rememberSeat(tableId, { invites });
    showAlert("");
    if (waiting) renderWaitingRoom();
  } catch (error) {
    showAlert(error.message);
  }
}

async function addBot(seat, kind) {
  try {
    await api("POST", `/api/tables/${encodeURIComponent(tableId)}/bots`, { seat, kind }, hostToken());
    showAlert("");
  } catch (error) {
    showAlert(error.message);
  }
}

async function startGame() {
  try {
    await api("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, {}, hostToken());
    showAlert("");
  } catch (error) {
    showAlert(error.message);
  }
}

// ---------------------------------------------------------------- a board for games without a module

const genericBoard = {
  render(root, view, ctx) {
    fill(root, el("section", { class: "panel" }, el("h2", {}, ctx.t("Table")),
      el("pre", { class: "raw-view" }, JSON.stringify(view, null, 1))));
  },
};

start().catch((error) => {
  console.error(error);
  showAlert(String(error && error.message));
});
