// The table chat (docs/web.md, "Table chat"): the messages of the players at this table, live over the
// page's socket. Every text a player wrote is put in the page as text (textContent), never as markup.

import { el, fill } from "./common.js";

export const MAX_CHAT = 500; // characters, as the server counts them (server/messages.py MAX_CHAT)

const chat = {
  rows: [], // {no, seat, text, at} in order
  shownKey: "", // what the list shows now
  formKey: "", // who writes, in which language: the form is built again only when that changes
  status: "",
};

/** A chat message from the server: the history (replaces what is shown) or new messages. */
export function onChat(data) {
  const incoming = data.messages || [];
  if (data.history) chat.rows = [...incoming];
  else {
    const next = chat.rows.length ? chat.rows[chat.rows.length - 1].no + 1 : 0;
    chat.rows.push(...incoming.filter((row) => row.no >= next));
  }
}

/**
 * Draws the chat into its panel. ctx: {t, lang, names (seat → name as the log writes it), writer (whether
 * this page holds a seat), send(text) → Promise (rejects with {code, data, message})}.
 */
export function renderChat(panel, ctx) {
  if (!panel) return;
  const { t } = ctx;
  const formKey = JSON.stringify([ctx.lang, ctx.writer]);
  if (chat.formKey !== formKey || !panel.querySelector(".chat-list")) {
    chat.formKey = formKey;
    chat.shownKey = "";
    chat.status = ""; // written in the language before
    fill(panel,
      el("h2", { id: "chat-title" }, t("Table chat")),
      el("div", { class: "chat-log", role: "log", "aria-labelledby": "chat-title", tabindex: "0" },
        el("p", { class: "hint chat-empty" }, t("No messages yet.")),
        el("ol", { class: "chat-list" })),
      ctx.writer ? chatForm(ctx) : el("p", { class: "hint" }, t("Spectators read the chat; only the players write.")),
      el("p", { class: "chat-status", role: "status" }, chat.status));
  }
  const key = JSON.stringify([chat.rows.length, chat.rows.length && chat.rows[0].no, ctx.names]);
  if (key === chat.shownKey) return;
  chat.shownKey = key;
  const list = panel.querySelector(".chat-list");
  list.replaceChildren(...chat.rows.map((row) => el("li", { class: "chat-line" },
    el("span", { class: "chat-name" }, ctx.names[row.seat] ?? t("Seat {number}", { number: row.seat + 1 })),
    ": ",
    el("span", { class: "chat-text" }, row.text))));
  panel.querySelector(".chat-empty").hidden = chat.rows.length > 0;
  const scroller = panel.querySelector(".chat-log");
  scroller.scrollTop = scroller.scrollHeight;
}

function chatForm(ctx) {
  const { t } = ctx;
  const input = el("input", { id: "chat-input", name: "chat", type: "text", maxlength: MAX_CHAT,
    autocomplete: "off", enterkeyhint: "send" });
  const submit = async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const button = event.target.querySelector("button");
    button.disabled = true;
    try {
      await ctx.send(text);
      input.value = "";
      setStatus(event.target.parentElement, "");
    } catch (error) {
      setStatus(event.target.parentElement, chatError(t, error));
    } finally {
      button.disabled = false;
      input.focus();
    }
  };
  return el("form", { class: "chat-form", onsubmit: submit },
    el("label", { for: "chat-input" }, t("Your message")), " ", input, " ",
    el("button", { type: "submit" }, t("Send")));
}

function setStatus(panel, text) {
  chat.status = text;
  const node = panel && panel.querySelector(".chat-status");
  if (node) node.textContent = text;
}

/** The server's refusal in the reader's language (docs/api.md, "Table chat"). */
function chatError(t, error) {
  const data = (error && error.data) || {};
  if (data.error === "chat_rate") {
    return t("You are writing too fast: wait {seconds} s before your next message.", { seconds: data.retry_after });
  }
  if (data.error === "chat_full") return t("This table's chat is full.");
  if (data.error === "malformed") {
    return t("This message cannot be sent: one line of plain text, at most {count} characters.", { count: MAX_CHAT });
  }
  return (error && error.message) || String(error);
}
