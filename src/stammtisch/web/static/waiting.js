// The waiting room of a table not yet started: its seats, invitations, bots and the host's start; a
// seat taken, or an invitation claimed, by this browser.

import { NAME_KEY, api, botKindName, el, fill, mySeats, rememberSeat, showAlert, uid } from "./common.js";
import { copyField, gameTitle, hostToken, invitation, keyForSeat, page, seatName, tableId } from "./tablepage.js";
import { renderSeats } from "./seats.js";
import { markRendered, reconnectSoon, render, renderTurnNotice, showChat } from "./app.js";

/** Claims the invitation: the server answers with a fresh seat token for this browser. */
export async function acceptInvitation(name) {
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

export async function renderWaitingRoom() {
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

export async function invite(seat, waiting = true) {
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

