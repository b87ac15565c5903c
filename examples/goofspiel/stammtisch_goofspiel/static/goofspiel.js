// Goofspiel: the board of one seat's view, for the browser (docs/web.md, "The board module contract").
//
// The prize turned up and the face-down prizes left, every player's hand (bids are spent once shown),
// who has bid, the reader's own sealed bid, the prizes won and the last bids.  A card of the reader's
// hand is a button while it may bid; the frame lists every legal action in its own panel as well.
// Every text goes through ctx.t; the msgids are listed in browser.py.

import { el, fill } from "./common.js";

function card(value, attrs = {}) {
  return el("span", { class: "gs-card", ...attrs }, String(value));
}

function prize(board, ctx) {
  const shown = board.prize === null
    ? el("p", { class: "gs-prize gs-none" }, ctx.t("No prize turned up"))
    : el("p", { class: "gs-prize" }, ctx.t("Prize"), " ", card(board.prize, { role: "img", "aria-label": ctx.t("Prize") + " " + board.prize }));
  return el("section", { class: "gs-top" }, shown, el("p", {}, ctx.t("{left} prizes face down", { left: board.deck })));
}

function hand(row, seat, ctx) {
  const mine = seat === ctx.seat;
  const bids = new Map(ctx.legal.filter((action) => action[0] === "bid").map((action) => [action[1], action]));
  const cards = row.hand.map((value) => {
    const action = mine ? bids.get(value) : undefined;
    return action
      ? el("button", { type: "button", class: "gs-card gs-play", onclick: () => ctx.act(action) }, String(value))
      : card(value);
  });
  return el("div", { class: "gs-hand", "aria-label": ctx.t("Hand") }, cards);
}

function seatBox(row, seat, view, ctx) {
  const name = ctx.players?.find((p) => p.seat === seat)?.name ?? `#${seat + 1}`;
  const state = row.bid !== null
    ? ctx.t("Your bid: {card}", { card: row.bid })
    : row.has_bid ? ctx.t("Has bid") : view.to_act.includes(seat) ? ctx.t("Thinking") : "";
  return el("section", { class: "gs-seat" + (seat === ctx.seat ? " gs-mine" : "") },
    el("h3", {}, name),
    el("p", { class: "gs-state" }, state),
    hand(row, seat, ctx),
    el("p", {}, ctx.t("Prizes won: {points} points", { points: row.points }), " ", row.won.map((value) => card(value))));
}

function lastBids(board, ctx) {
  if (!board.last.length) return null;
  return el("p", { class: "gs-last" }, ctx.t("Last bids"), ": ", board.last.map((value) => card(value)));
}

export default {
  render(root, view, ctx) {
    const board = view.board;
    fill(root, el("div", { class: "gs-board" },
      prize(board, ctx),
      lastBids(board, ctx),
      board.seats.map((row, seat) => seatBox(row, seat, view, ctx))));
  },
};
