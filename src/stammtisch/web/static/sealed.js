// A sealed decision under way: which seats have decided, and what this tab sent (kept in
// sessionStorage, so that a reload still shows it), as the decision panel and the seats show them.

import { el } from "./common.js";
import { SEALED_COMMITTED } from "./tablelog.js";
import { page, tableId } from "./tablepage.js";

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
export function decidedSeats(message) {
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
export function noteSent(message, action) {
  if (!sealedNow(message)) return;
  const index = message.legal.findIndex((a) => JSON.stringify(a) === JSON.stringify(action));
  const record = sentRecord() || { seat: message.seat, labels: [], log: page.log.length, committed: false };
  record.labels.push({ text: (message.labels || [])[index] || JSON.stringify(action), lang: page.texts.lang });
  keepSent(record);
}

/** The last choice remembered as sent is taken back (refused by the server, or undone). */
export function unnoteSent() {
  const record = sentRecord();
  if (!record) return;
  record.labels.pop();
  keepSent(record.labels.length ? record : null);
}

/** After each state: the record is let go once the sealed decision is over (its reveal came into the
 * log) or a new one asks the reader again. */
export function followSent(message) {
  const record = sentRecord();
  if (!record) return;
  const mine = (message.legal || []).length > 0;
  if (!sealedNow(message) || message.seat !== record.seat || (mine && record.committed)
      || !page.log.slice(record.log).every(isSealedCommit)) keepSent(null);
  else if (!mine && !record.committed) keepSent({ ...record, committed: true });
}

/** The choices sent so far, as they were labelled (in the page's language); once the reader's decision
 * is complete (`done`), at least that it was sent. */
export function sentChoices(done) {
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

