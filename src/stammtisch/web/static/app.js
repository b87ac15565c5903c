// The game page's frame: connection, waiting room, decision panel, seats, log, language.
// The board itself is drawn by the game's browser module, which /api/games names (docs/web.md):
// export default { render(root, view, ctx) }.  This frame knows no game by name.
//
// The frame's parts, each a module: tablepage.js (the page's state, this browser's seat), decision.js
// (the decision panel), sealed.js (what this tab sent in a sealed decision), seats.js (players, pace,
// clocks, stand-ins), notices.js (browser notifications and e-mail), waiting.js (the waiting room).
// They call each other's functions only (function declarations: no module runs another's code while
// loading, so their imports may go both ways).

import {
  LANGUAGE_KEY, NAME_KEY, api, applyPatch, el, fill, installHelp, loadTexts, preferredLanguage, rememberSeat,
  rovingHelp, showAlert, topBar,
} from "./common.js";
import { onChat, renderChat } from "./chat.js";
import { renderGuide } from "./guide.js";
import { logHooks, logItems } from "./tablelog.js";
import { Replay, moveInAddress, renderBar } from "./replay.js";
import { applyZoom, installZoomKeys, zoomControls } from "./zoom.js";
import {
  copyField, gameTitle, invitation, page, request, seatFromKey, seatList, seatToken, tableId,
} from "./tablepage.js";
import { followSent } from "./sealed.js";
import { act, renderDecision } from "./decision.js";
import { renderSeats } from "./seats.js";
import { loadNotify, noticeOfTurn } from "./notices.js";
import { acceptInvitation, renderWaitingRoom } from "./waiting.js";

page.replay = new Replay(tableId, () => render(), seatToken); // a seat's token: its own replay once over

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
    dropRequests();
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

/** The requests sent on a socket that is gone fail: no answer will come (a move being sent is let go, and
 * the choices are enabled again). */
function dropRequests() {
  for (const { reject } of page.requests.values()) reject(new Error(page.texts.t("The connection was lost.")));
  page.requests.clear();
}

export function reconnectSoon(delay, force = false) {
  if (force && page.socket) {
    const old = page.socket;
    page.socket = null;
    page.connected = false;
    dropRequests();
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
    page.rebuildLog = true; // at the next drawing
  }
  else page.log.push(...logItems(message.sentences, message.events));
  page.since = message.move_no;
  if (message.describe) page.describe = message.describe;  // the table's Game.describe(), sent once
  page.passed = page.message && page.message !== page.drawn ? withEventsOf(page.passed, page.message) : null;
  page.message = message;
  if (message.seat !== null && message.seat !== undefined) rememberSeat(tableId, { seat: message.seat,
    game: message.table.game, invitation: null });
  else if (invitation() && message.status === "running") acceptInvitation(localStorage.getItem(NAME_KEY) || "");
  else if (invitation() && message.status === "finished") rememberSeat(tableId, { invitation: null });
  if (first || gameBefore !== message.table.game) renderChrome(false);
  followSent(message);
  drawSoon();
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

// The page draws the latest state once per frame: a burst of moves (bots answering at once, a page catching
// up after a pause) is one drawing, not one per move.  A state that was never drawn is `page.passed`.
function drawSoon() {
  if (page.drawing) return;
  page.drawing = requestAnimationFrame(() => {
    page.drawing = 0;
    render();
  });
}

/** `message` with the events and sentences of the undrawn states before it (`passed`), so that a board that
 * reads what happened from its drawings' events misses none. */
function withEventsOf(passed, message) {
  if (!passed) return message;
  return { ...message, events: [...(passed.events || []), ...(message.events || [])],
    sentences: [...(passed.sentences || []), ...(message.sentences || [])] };
}

/** Draws the board and the players as they were before the last move, when that state was never drawn, so
 * that the highlight marks what the last move changed, not everything since the last drawing. */
function drawPassed(board, root, seats, scope) {
  const passed = page.passed;
  if (!passed || !page.drawn || page.highlight.scope !== scope) return;
  try {
    board.render(root, passed.view, context(passed));
  } catch {
    return; // the last state's drawing below reports it
  }
  renderSeats(passed);
  page.highlight.mark([root, seats], scope);
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

export async function render() {
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
  // entering or leaving a replay is no move: the board is drawn anew, nothing marked
  const scope = `${tableId} ${page.texts.lang} ${shown === message ? "live" : "replay"}`;
  page.highlight.remember([root, seats]);
  if (shown === message) drawPassed(board, root, seats, scope);
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
  const over = shown === message && message.status === "finished"; // the live final table marks nothing
  page.highlight.mark([root, seats], scope, over);
  page.drawn = message; // the state whose decision the reader sees
  page.passed = null;
  renderLog(board, ctx);
  openNewResults(board, ctx);
  showChat();
  renderTurnNotice(message);
  markRendered(message);
}

/** The table chat below the log (chat.js): the players write, spectators read. */
export function showChat() {
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
export function markRendered(message) {
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

// ---------------------------------------------------------------- the log, the turn notice, an interrupted game

/** The event log (tablelog.js): coloured entries with icons from the board module, filters, and a
 * button on each entry that has a result panel. */
function renderLog(board = null, ctx = null) {
  const { t, lang } = page.texts;
  const message = page.message;
  const rebuild = page.rebuildLog;
  page.rebuildLog = false;
  page.eventLog.onChange = () => renderLog(page.shownBoard, page.shownCtx);
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

export function renderTurnNotice(message) {
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
  renderLog();
  showChat();
  renderTurnNotice(message);
  markRendered(message);
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
