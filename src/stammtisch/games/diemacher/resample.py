"""Resampling what one seat cannot see (die-macher.md §13): a full state that gives the seat the
same view, with every hidden part drawn at random within the rules.

The sampler reads only what the seat's view shows (and sizes the rules make public): for each
kind of hidden item it gathers the items the seat cannot see into a sorted multiset, shuffles
it with ``rng`` and deals it back into the hidden places, whose sizes are public.

- Program cards: other hands, other draft hands and the deck (the display, the discard pile
  and every revealed program are public).
- Opinions: face-down opinions on the boards and the deck.
- Poll cards: the deck (its top card keeps the back the seat sees), face-down discards and a
  poll card another seat holds.
- Politicians: another party's hand and its face-down politicians on the boards, drawn from the
  full cabinet less the ones the seat sees face up.
- Donation cards: as many as another party has left, from the three.
- Long game: the future state cards, from the cards not on a board.
- Money of another party, unless the table plays with open money or the game is over: HI-01
  makes it derivable from the public record, but the view withholds it, so it is drawn anew,
  uniformly in whole edition steps from the least the view proves (a standing high bid, a
  politician the party is asked to pay) up to that plus twice the start money.
- Sealed decisions of others (draft pick, program, kept card, bid, start block, sealed payment):
  a committed party decides again at random among its legal actions; an uncommitted one has
  not chosen yet.
- The chance generator is reseeded from ``rng``: future draws are unknown.

What the view does not carry is not used: cards the seat passed in the draft, politicians
used in earlier rounds, a poll card the seat withheld, the states that left the long game.
"""

from __future__ import annotations

import random
from collections import Counter
from math import gcd
from typing import TYPE_CHECKING, Any

from stammtisch.engine.resample import ResampleError, deal, reseeded
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State, topic

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

PROGRAM_COPIES = 4
OPINION_COPIES = 3
MOVED_TO_SECRET = ("program", "program_more")  # phases whose sealed choice takes cards out of the hand


def resample(game: DieMacher, state: State, seat: int, rng: random.Random) -> State:
    view = game.view(state, seat)
    sample = state.copy()
    sample.chance = reseeded(rng)
    others = [s for s in range(state.seats) if s != seat]
    # Committed parties that took part in the sealed decision (public: the others were never asked).
    deciding = [s for s in others if view["board"]["seats"][s]["committed"] and state.players[s].secret]
    _program_cards(state, sample, seat, others, rng)
    _opinions(sample, rng)
    _polls(game, sample, view, rng)
    _politicians(game, sample, view, others, rng)
    for other in others:
        sample.players[other].donations = sorted(rng.sample(range(len(game.edition.donations)),
                                                            len(state.players[other].donations)))
    _future_states(game, sample, rng)
    _money(game, sample, view, others, rng)
    _sealed_decisions(game, sample, deciding, rng)
    return sample


def _minus(full: Counter[int], seen: list[int]) -> list[int]:
    rest = full.copy()
    rest.subtract(seen)
    if any(n < 0 for n in rest.values()):
        raise ResampleError("more cards seen than exist")
    return list(rest.elements())


def _program_cards(state: State, sample: State, seat: int, others: list[int], rng: random.Random) -> None:
    me = state.players[seat]
    seen = [c for c in state.program_display if c != NOBODY] + state.program_discard + me.hand
    for player in state.players:
        seen += player.program
    if state.phase in MOVED_TO_SECRET:
        seen += me.secret
    if state.draft_hands:
        seen += state.draft_hands[seat]
    pool = _minus(Counter({c: PROGRAM_COPIES for c in range(CARD_TYPES)}), seen)
    draft_size = len(state.draft_hands[seat]) if state.draft_hands else 0  # every draft hand is as big
    hand_sizes = [len(state.players[s].hand) + (len(state.players[s].secret) if state.phase in MOVED_TO_SECRET
                                                 else 0) for s in others]  # the public hand size
    sizes = [len(state.program_deck)] + hand_sizes + [draft_size] * (len(others) if state.draft_hands else 0)
    for _attempt in range(10_000):
        parts = deal(pool, rng, sizes)
        if state.phase != "program_more" or all(_completable(state.players[s].program, hand)
                                                for s, hand in zip(others, parts[1:1 + len(others)], strict=True)):
            break
    else:
        raise ResampleError("no hands complete the short programs")
    sample.program_deck = parts[0]
    for i, other in enumerate(others):
        sample.players[other].hand = parts[1 + i]
        sample.players[other].secret = []  # decided again below, if it was committed
        if state.draft_hands:
            sample.draft_hands[other] = parts[1 + len(others) + i]


def _completable(program: list[int], hand: list[int]) -> bool:
    """G-12: after the draft exception a hand always holds enough new topics to complete the program."""
    used = {topic(c) for c in program}
    return len({topic(c) for c in hand} - used) >= 5 - len(program)


def _opinions(sample: State, rng: random.Random) -> None:
    seen = sample.opinion_discard + [c for c in range(CARD_TYPES) if sample.opinion_display[c]]
    hidden: list[tuple[int, int]] = []
    for pos, board in enumerate(sample.boards):
        for slot, up in enumerate(board.face_up):
            if up:
                seen.append(board.opinions[slot])
            else:
                hidden.append((pos, slot))
    pool = _minus(Counter({c: OPINION_COPIES for c in range(CARD_TYPES)}), seen)
    deck, face_down = deal(pool, rng, [len(sample.opinion_deck), len(hidden)])
    sample.opinion_deck = deck
    for (pos, slot), card in zip(hidden, face_down, strict=True):
        sample.boards[pos].opinions[slot] = card


def _polls(game: DieMacher, sample: State, view: dict[str, Any], rng: random.Random) -> None:
    seen = [card for card, up in sample.poll_discard if up]
    own_poll = view["board"]["seats"][view["seat"]].get("poll_in_hand")
    held = sample.poll_in_hand != NOBODY
    if own_poll is not None:
        seen.append(sample.poll_in_hand)
    pool = sorted(_minus(Counter(range(len(game.edition.polls))), seen))
    top: list[int] = []
    if view["board"]["poll_top_back"] is not None:  # the back of the top card is public (HI-07)
        top = [rng.choice([c for c in pool if game.edition.polls[c].back == view["board"]["poll_top_back"]])]
        pool.remove(top[0])
    face_down = [i for i, (_card, up) in enumerate(sample.poll_discard) if not up]
    hidden_held = held and own_poll is None
    deck, discards, hand = deal(pool, rng, [len(sample.poll_deck) - len(top), len(face_down), int(hidden_held)])
    sample.poll_deck = deck + top
    for i, card in zip(face_down, discards, strict=True):
        sample.poll_discard[i] = [card, 0]
    if hidden_held:
        sample.poll_in_hand = hand[0]


def _politicians(game: DieMacher, sample: State, view: dict[str, Any], others: list[int],
                 rng: random.Random) -> None:
    cabinet = [i for i, p in enumerate(game.edition.politicians) if game.long_game or not p.long_game_only]
    for other in others:
        seen, hidden = [], []
        for pos, board in enumerate(sample.boards):
            for i, placed in enumerate(board.row):
                if placed.seat != other:
                    continue
                shown = view["board"]["boards"][pos]["politicians"][i]["politician"]
                if shown is None:
                    hidden.append(placed)
                else:
                    seen.append(game.politician_index[shown])
        pool = [p for p in cabinet if p not in seen]
        player = sample.players[other]
        drawn = rng.sample(pool, len(player.politicians) + len(hidden))
        player.politicians = sorted(drawn[: len(player.politicians)])
        for placed, politician in zip(hidden, drawn[len(player.politicians):], strict=True):
            placed.politician = politician


def _future_states(game: DieMacher, sample: State, rng: random.Random) -> None:
    on_boards = {board.card for board in sample.boards}
    pool = [i for i in range(len(game.edition.states)) if i not in on_boards]
    sample.future_states = rng.sample(pool, len(sample.future_states))


def money_step(game: DieMacher) -> int:
    """The smallest amount money changes by (every amount of the edition is a multiple)."""
    ed = game.edition
    amounts = [1000, ed.start_money, ed.media_marker_cost, ed.buyout_payment, *ed.rally_costs,
               *(d.value for d in ed.donations), *(p.cost for p in ed.politicians)]
    step = 0
    for amount in amounts:
        step = gcd(step, amount)
    return step


def _money(game: DieMacher, sample: State, view: dict[str, Any], others: list[int], rng: random.Random) -> None:
    step = money_step(game)
    spread = 2 * game.edition.start_money // step
    for other in others:
        if view["board"]["seats"][other]["money"] is None:
            least = _least_money(game, view, other)
            sample.players[other].money = least + step * rng.randrange(spread + 1)


def _least_money(game: DieMacher, view: dict[str, Any], seat: int) -> int:
    """The least money the view proves ``seat`` holds: its standing high bid, or the cost of a
    face-up politician it is asked to pay for (it would have declined automatically otherwise)."""
    decision = view["decision"]
    least = 0
    if decision.get("kind") == "auction" and decision.get("high_seat") == seat and decision.get("high") is not None:
        least = decision["high"]
    step = decision.get("step")
    if view["phase"] == "politicians" and step in ("pay", "sealed_pay") and "board" in decision:
        asked = step == "sealed_pay" or seat in view["to_act"]
        for entry in view["board"]["boards"][decision["board"]]["politicians"]:
            if asked and entry["seat"] == seat and entry["paid"] is None and entry["politician"] is not None:
                cost = next(p.cost for p in game.edition.politicians if p.id == entry["politician"])
                least = max(least, cost)
    return least


def _sealed_decisions(game: DieMacher, sample: State, deciding: list[int], rng: random.Random) -> None:
    """Others' committed sealed choices are made again at random from their sampled hands and money."""
    for other in deciding:
        _uncommit(sample, other)
        while other in game.to_act(sample):
            game.apply(sample, other, rng.choice(game.legal_actions(sample, other)))


def _uncommit(sample: State, seat: int) -> None:
    sample.players[seat].secret = []
    sample.done[seat] = False
