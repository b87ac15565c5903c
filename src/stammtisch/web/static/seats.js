// The players panel: the seats, who is to act or has decided, the pace and the clocks (issue 15), and the
// reader's own seat's controls: a stand-in, leaving, taking it back; the host's invitation to a left seat.

import { api, el, fill, formatDuration, mySeats, showAlert } from "./common.js";
import { copyField, hostToken, page, seatList, seatName, seatToken, tableId } from "./tablepage.js";
import { decidedSeats } from "./sealed.js";
import { noticeControls, noticeOfDeadline, noticeState } from "./notices.js";
import { invite } from "./waiting.js";

export function renderSeats(message) {
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
export function duration(seconds) {
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

