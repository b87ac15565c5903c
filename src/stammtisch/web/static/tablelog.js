// The event log (entries numbered, coloured and with icons by the board module, filterable to the
// reader's own moves or this round) and the result panels (an election's votes, a published poll, a
// shift's scoring), built from the events the reader's seat was sent (docs/web.md, "The log").
// The frame (app.js) owns one EventLog and one ResultPanel per page; it knows no game: the board
// module's `log` hooks say what a round is, how an entry looks and which entries have a panel.

import { el, fill } from "./common.js";

// A seat's step in a sealed decision (engine/sealed.py): the players list marks who has decided; the
// log, which would fill with these lines, leaves them out (they stay in the record and the replay).
export const SEALED_COMMITTED = "sealed_committed";

/** Whether the log shows an entry. */
function told(item) {
  return !item.event || item.event.kind !== SEALED_COMMITTED;
}

/** One log entry: its sentence and the event it tells (null for an entry without one). */
export function logItems(sentences, events) {
  return (sentences || []).map((text, i) => ({ text, event: (events || [])[i] || null }));
}

/** The board module's log hooks, with defaults (docs/web.md). */
export function logHooks(board) {
  const hooks = (board && board.log) || {};
  return {
    rounds: hooks.rounds || [],
    decorate: hooks.decorate || (() => null),
    opens: hooks.opens || (() => false),
    panel: hooks.panel || (() => null),
  };
}

export class EventLog {
  constructor() {
    this.filter = "all"; // all | mine | round
    this.shown = 0; // entries drawn (filter "all": drawn one by one as they come)
    this.key = ""; // what the drawn list depends on besides new entries
  }

  /** Draws the log panel: heading, filters and the entries the filter keeps.  `ctx` is the board's
   * context of the current state (t, seat, view, …); `onPanel(index, button)` opens an entry's panel. */
  render(panel, items, { t, lang, seat, hooks, view, ctx, rebuild, onPanel }) {
    const key = JSON.stringify([lang, seat, this.filter]);
    let list = panel.querySelector("ol.log-list");
    if (!list || rebuild || key !== this.key || this.filter !== "all" || this.shown > items.length) {
      this.key = key;
      if (!list || panel.dataset.lang !== lang || !panel.querySelector(".log-filters")) {
        panel.dataset.lang = lang;
        // role=log on a wrapper, not on the list: its entries stay list items (axe: listitem)
        list = el("ol", { class: "log-list" });
        fill(panel,
          el("div", { class: "log-head" }, el("h2", { id: "log-title" }, t("Event log")), this.filters(t, seat)),
          el("div", { class: "log", role: "log", "aria-live": "polite", "aria-labelledby": "log-title", tabindex: "0" },
            list));
      } else {
        this.updateFilters(panel);
      }
      list.replaceChildren();
      this.shown = 0;
    }
    panel.dataset.filter = this.filter;
    const keep = this.kept(items, seat, hooks);
    const start = this.filter === "all" ? this.shown : 0;
    const entries = [];
    let number = items.slice(0, start).filter(told).length; // entries are numbered as the log shows them
    for (let i = start; i < items.length; i++) {
      if (!told(items[i])) continue;
      number += 1;
      if (keep(i)) entries.push(this.entry(items, i, number, { t, hooks, view, ctx, onPanel }));
    }
    list.append(...entries);
    this.shown = items.length;
    if (!list.children.length) list.append(el("li", { class: "log-empty" }, t("No entries yet.")));
    else list.querySelector(".log-empty")?.remove();
    list.parentElement.scrollTop = list.parentElement.scrollHeight;
  }

  /** Which entries the filter keeps: every one, those of the reader's own moves, those since this
   * round began (the last event of a kind the board calls a round's start). */
  kept(items, seat, hooks) {
    if (this.filter === "mine") return (i) => Boolean(items[i].event) && items[i].event.by === seat && seat !== null;
    if (this.filter === "round") {
      let from = 0;
      for (let i = items.length - 1; i >= 0; i--) {
        if (items[i].event && hooks.rounds.includes(items[i].event.kind)) {
          from = i;
          break;
        }
      }
      return (i) => i >= from;
    }
    return () => true;
  }

  entry(items, i, number, { t, hooks, view, ctx, onPanel }) {
    const { text, event } = items[i];
    const look = (event && safely(() => hooks.decorate(event, view, ctx))) || {};
    const hasPanel = event && safely(() => hooks.opens(event, i, items));
    const attrs = { class: `log-entry${look.colour ? " coloured" : ""}`, "data-index": String(i) };
    if (event) {
      attrs["data-kind"] = event.kind;
      if (event.by !== null && event.by !== undefined) attrs["data-by"] = String(event.by);
    }
    if (look.colour) attrs.style = { borderLeftColor: look.colour };
    const button = hasPanel ? el("button", { type: "button", class: "log-result secondary",
      onclick: (e) => onPanel(i, e.currentTarget) }, t("Show results")) : null;
    // Numbers written out (not list markers, which the scroller clips from 100 on)
    return el("li", attrs,
      el("span", { class: "log-no", "aria-hidden": "true" }, `${number}.`),
      el("span", { class: "log-icon", "aria-hidden": "true" }, look.icon || null),
      el("span", { class: "log-text" }, text),
      button);
  }

  filters(t, seat) {
    const choices = [["all", t("All")], ["mine", t("My moves")], ["round", t("This round")]];
    return el("div", { class: "log-filters", role: "group", "aria-label": t("Show in the log") },
      choices.map(([name, label]) => el("button", {
        type: "button", class: "log-filter", "data-filter": name, "aria-pressed": String(this.filter === name),
        disabled: name === "mine" && (seat === null || seat === undefined),
        onclick: () => {
          this.filter = name;
          this.onChange && this.onChange();
        },
      }, label)));
  }

  updateFilters(panel) {
    for (const button of panel.querySelectorAll(".log-filter")) {
      button.setAttribute("aria-pressed", String(button.dataset.filter === this.filter));
    }
  }
}

/** A part of the panel that still scrolls sideways (a long name, a narrow phone) is a Tab stop named by
 * the panel's title, so that the keyboard scrolls it too (issue 25 defect 5). */
function reachableScrollers(panel) {
  for (const node of panel.querySelectorAll("*")) {
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
    if (!scrolls || node.scrollWidth <= node.clientWidth + 1) continue;
    node.tabIndex = 0;
    node.setAttribute("role", "region");
    node.setAttribute("aria-labelledby", "results-title");
  }
}

function safely(make) {
  try {
    return make();
  } catch (error) {
    console.warn("a log hook failed", error);
    return null;
  }
}

/** The result panel: shown in the side column, right below the decision (first on a phone), until
 * the reader closes it or a newer result replaces it. */
export class ResultPanel {
  constructor() {
    this.opener = null;
    this.index = null;
  }

  node() {
    let node = document.getElementById("results");
    if (!node) {
      node = el("section", { id: "results", class: "panel results", "aria-labelledby": "results-title", hidden: true });
      const decision = document.getElementById("decision");
      if (decision) decision.after(node);
      else (document.querySelector("main") || document.body).append(node);
    }
    return node;
  }

  /** Shows `content` ({title, body}) for log entry `index`; `opener`: the log button that asked
   * (focus goes to the panel then, and back to the button on close). */
  show(content, index, t, opener = null) {
    const node = this.node();
    this.opener = opener;
    this.index = index;
    node.dataset.index = String(index);
    fill(node,
      el("div", { class: "results-head" },
        el("h2", { id: "results-title", tabindex: "-1" }, content.title),
        el("button", { type: "button", class: "results-close secondary", onclick: () => this.hide() }, t("Close"))),
      content.body);
    node.hidden = false;
    reachableScrollers(node);
    if (opener) node.querySelector("h2").focus();
  }

  hide() {
    const node = document.getElementById("results");
    if (!node) return;
    node.hidden = true;
    this.index = null;
    if (this.opener && this.opener.isConnected) this.opener.focus();
    this.opener = null;
  }
}
