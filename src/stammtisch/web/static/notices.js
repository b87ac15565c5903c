// Notices (issue 15): a browser notification when it becomes this seat's turn or its time runs low,
// while the page is in the background; permission is asked from a button, never on load.  E-mail: the
// seat's address, kept by the server for this seat only (docs/web.md, "Notices").

import { api, el, uid } from "./common.js";
import { gameTitle, page, seatToken, tableId } from "./tablepage.js";
import { duration, renderSeats } from "./seats.js";

const NOTIFY_KEY = "stammtisch.notifications";

function notificationsOn() {
  return "Notification" in window && Notification.permission === "granted"
    && localStorage.getItem(NOTIFY_KEY) === "on";
}

export function noticeState() {
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
export function noticeOfTurn(message) {
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
export function noticeOfDeadline(message) {
  const seat = message && message.seat;
  const clock = seat !== null && seat !== undefined && (message.table.clocks || [])[seat];
  if (!clock || clock.warn === null || clock.warn === undefined || clock.deadline === null || !page.myTurn) return;
  const now = Date.now() / 1000;
  if (now < clock.warn || now >= clock.deadline || page.warned === clock.deadline) return;
  page.warned = clock.deadline;
  notice(page.texts.t("Your time at table {table} ({game}) runs out soon", noticeNames(message)),
    page.texts.t("Time left: {time}", { time: duration(clock.deadline - now) }));
}

export async function loadNotify() {
  page.notify = null;
  try {
    page.notify = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/notify`, undefined, seatToken());
  } catch {
    page.notify = undefined;
    return;
  }
  if (page.message) renderSeats(page.message);
}

export function noticeControls(message) {
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

