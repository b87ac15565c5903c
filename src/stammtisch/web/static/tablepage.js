// What the table page's modules share (app.js is the frame): this table, the page's state, this
// browser's seat at the table and its tokens, the seats' names, and requests over the table's socket.

import {
  api, copyField as copyBox, ensureKey, mySeats, personalKey, rememberSeat, seatName as shownSeatName,
} from "./common.js";
import { Highlighter } from "./highlight.js";
import { EventLog, ResultPanel } from "./tablelog.js";

export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
takeInvitationFromAddress();

export const page = {
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
  replay: null, // the replay (replay.js, made by app.js): while active, the board shows its position, not the live one
};

export function seatToken() {
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

export function invitation() {
  return (mySeats()[tableId] || {}).invitation || null;
}

export function hostToken() {
  return (mySeats()[tableId] || {}).host || null;
}

/** The personal key a seat taken here is bound to (made on first use); none if the server refuses one. */
export async function keyForSeat() {
  try {
    return await ensureKey();
  } catch {
    return null;
  }
}

/** Opened on another device of the same player (My games): the seat token the personal key derives here. */
export async function seatFromKey() {
  const key = personalKey();
  if (!key || seatToken()) return;
  try {
    const data = await api("POST", `/api/players/me/tables/${encodeURIComponent(tableId)}/token`, {}, key);
    rememberSeat(tableId, { token: data.token, seat: data.seat, keyed: true });
  } catch {
    // the key holds no seat here: watch
  }
}
export function gameTitle(game) {
  return (page.games[game] && page.games[game].title) || game;
}
export function request(message) {
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
/** A seat's name; the server's default names in the page's language (common.js). */
export function seatName(s) {
  return shownSeatName(page.texts.t, s);
}

export function seatList(message) {
  const connected = new Set(message.connected || []);
  return message.table.seats.map((s) => ({
    seat: s.seat, name: seatName(s), kind: s.kind, bot: s.bot || null, standin: s.standin || null,
    connected: s.kind === "bot" || connected.has(s.seat),
  }));
}
export function copyField(text, labelText) {
  return copyBox(page.texts.t, text, labelText);
}
