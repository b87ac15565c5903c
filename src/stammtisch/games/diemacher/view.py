"""What one seat may know (die-macher.md §13): the only window clients and bots get.

Hidden and never shown to others: hands, draft hands and picks, sealed bids, programs and start
blocks until revealed, face-down politicians, taken poll cards, face-down opinions, deck order,
the generator, which donation cards are left (only their number), and (unless the table chose
open money) other players' money.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from stammtisch.engine.flow import SEALED, FlowGame
from stammtisch.engine.view import envelope
from stammtisch.games.diemacher.board import matches, media_influencer
from stammtisch.games.diemacher.phases.money import base_change
from stammtisch.games.diemacher.phases.politicians import BANG, REVEAL, SEALED_PAY
from stammtisch.games.diemacher.phases.polls import trend_changes
from stammtisch.games.diemacher.phases.program import STEP_NAMES
from stammtisch.games.diemacher.scoring import final_scores
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State
from stammtisch.i18n import N_, _

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher


# The printed phase track (die-macher.md §3): its slots in order.  Each phase declares its slot
# (Phase.track); a slot is called by its first phase unless it has a name of its own.
TRACK = ("setup", "1", "2", "3", "4", "5", "6", "7", "8", "9a", "9b", "9c", "9d")
SLOT_NAMES = {"setup": N_("Setup"), "9d": N_("9d Prepare for the next Game Round")}


def describe(game: DieMacher) -> dict[str, Any]:
    """What never changes at this table (Game.describe): besides the phases of the flow, the printed
    phase track (each slot with its label and the phases shown on it), the parties' media-presence
    track, the money unit, the start blocks' symbols (R, T, M, V) and the price of 1, 2, … rallies."""
    described = FlowGame.describe(game)
    edition = game.edition
    described["board"] = {
        "track": [_slot(described["phases"], slot) for slot in TRACK],
        "elections": 7 if game.long_game else 4,
        "last_round": game.last_round,
        "media_presence_vp": list(edition.media_presence),
        "money_unit": game.options["money_unit"],
        "start_blocks": [list(block) for block in edition.start_blocks],
        "rally_costs": list(edition.rally_costs),
        # the politicians of this game with their cost and action codes; "once" the codes that work
        # once per state and round (the card's "!")
        "politicians": [{"id": p.id, "cost": p.cost, "main": p.main, "secondary": list(p.secondary)}
                        for p in edition.politicians if game.long_game or not p.long_game_only],
        "once": list(BANG),
        "win_threshold": game.options["win_threshold"],  # the votes a majority needs (C-17)
    }
    return described


def _slot(phases: list[dict[str, Any]], slot: str) -> dict[str, Any]:
    on_it = [phase for phase in phases if phase["track"] == slot]
    label = _(SLOT_NAMES[slot]) if slot in SLOT_NAMES else on_it[0]["label"]
    return {"slot": slot, "label": label, "phases": [phase["name"] for phase in on_it]}


def build_view(game: DieMacher, state: State, seat: int | None) -> dict[str, Any]:
    edition = game.edition
    over = state.phase == "over"
    board: dict[str, Any] = {
        "elections": 7 if game.long_game else 4,
        "round": state.round,
        "last_round": game.last_round,
        "start_player": state.start_player,
        "turn_order": state.turn_order(),
        "boards": _boards(game, state, seat),
        "seats": [_player(game, state, s, seat, over) for s in range(state.seats)],
        "program_display": [c if c != NOBODY else None for c in state.program_display],
        "program_deck": len(state.program_deck),
        "program_discard": list(state.program_discard),
        "opinion_display": [c for c in range(CARD_TYPES) if state.opinion_display[c]],
        "opinion_deck": len(state.opinion_deck),
        "opinion_discard": list(state.opinion_discard),
        "poll_deck": len(state.poll_deck),
        "poll_top_back": edition.polls[state.poll_deck[-1]].back if state.poll_deck else None,
        "poll_discard": [edition.polls[c].id if up else None for c, up in state.poll_discard],
        "double_markers": state.double_supply,
        "media_presence": [{"vp": edition.media_presence[i], "markers": list(m)}
                           for i, m in enumerate(state.media_presence)],
        "future_states": len(state.future_states),
        "elections_held": state.elections_held,
        "elected": [edition.states[card].id for card in state.elected],  # in election order
    }
    detail = [{"total": total, **parts} for total, parts in final_scores(game, state)] if over else None
    decision = _decision(game, state, seat)
    prices = _prices(game, state, decision)
    if prices:
        decision["prices"] = prices
    return envelope(game, state, seat, phase=state.phase, decision=decision, board=board, final_detail=detail)


def build_views(game: DieMacher, state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """Several readers' views (Game.views), each equal to ``build_view``: the spectator's view is built
    once, and a seat's view differs from it only in that seat's own politicians and its own player
    entry (hand, money, sealed choices); everything else is the same objects."""
    public = build_view(game, state, None)
    views: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        views[seat] = public if seat is None else _own_view(game, state, seat, public)
    return views


def _own_view(game: DieMacher, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    board = dict(public["board"])
    revealing = _revealing(game, state)
    politicians = game.edition.politicians
    boards = []
    for pos, shown in enumerate(board["boards"]):
        row = state.boards[pos].row
        if pos != revealing and any(placed.seat == seat for placed in row):
            shown = dict(shown, politicians=[
                {"seat": placed.seat, "politician": politicians[placed.politician].id if placed.seat == seat else None,
                 "paid": placed.paid} for placed in row])
        boards.append(shown)
    board["boards"] = boards
    players = list(board["seats"])
    players[seat] = _player(game, state, seat, seat, state.phase == "over")
    board["seats"] = players
    return {**public, "seat": seat, "board": board}


def _revealing(game: DieMacher, state: State) -> int | None:
    """The board whose politicians are being revealed one by one (die-macher.md phase 6)."""
    in_play = game.from_election(state)
    if state.phase == "politicians" and state.step != REVEAL and state.cursor < len(in_play):
        return in_play[state.cursor]
    return None


def _boards(game: DieMacher, state: State, seat: int | None) -> list[dict[str, Any]]:
    """The four state boards; what they have in common (the election order, the programs) is worked
    out once for all four."""
    voting = game.elections_in(state.round)
    revealing = _revealing(game, state)
    programs = [frozenset(p.program) for p in state.players]
    return [_board(game, state, pos, seat, pos == revealing, pos in voting, programs) for pos in range(4)]


def _board(game: DieMacher, state: State, pos: int, seat: int | None, revealed_row: bool, voting: bool,
           programs: list[frozenset[int]]) -> dict[str, Any]:
    board = state.boards[pos]
    card = game.edition.states[board.card]
    politicians = game.edition.politicians
    return {
        "state": card.id,
        "name": card.name,
        "max_vp": card.max_vp,
        "vp_table": [list(row) for row in card.vp_table],
        "in_play": board.in_play,
        "ballot_box": board.in_play and voting,
        "opinions": [{"card": c if up else None, "face_up": up, "doubled": board.doubled == i}
                     for i, (c, up) in enumerate(zip(board.opinions, board.face_up, strict=True))],
        "votes": list(board.votes),
        "trend": list(board.trend),
        "rallies": list(board.rallies),
        "media": [s if s != NOBODY else None for s in board.media],
        "media_influencer": _none(media_influencer(board)),
        "matches": [matches(board, program) for program in programs],
        "politicians": [{"seat": placed.seat, "politician": politicians[placed.politician].id
                         if revealed_row or placed.seat == seat else None, "paid": placed.paid}
                        for placed in board.row],
        "locked_actions": list(board.bang_used),
    }




def _player(game: DieMacher, state: State, s: int, seat: int | None, over: bool) -> dict[str, Any]:
    player = state.players[s]
    party = game.edition.parties[player.party]
    mine = s == seat
    sees_money = mine or over or game.options["open_money"]
    data: dict[str, Any] = {
        "party": party.id,
        "party_name": party.name,
        "colour": party.colour,
        "party_base": player.base,
        "money": player.money if sees_money else None,
        "program": list(player.program),
        "hand_size": _hand_size(state, s),
        "politicians_left": len(player.politicians),
        "donations_left": len(player.donations),  # face down: only their number is public (HI-10)
        "media_supply": player.media_supply,
        "rally_supply": player.rally_supply,
        "vote_vp": list(player.vote_vp),
        "win_vp": list(player.win_vp),
        "excluded_from_auctions": bool(state.excluded and state.excluded[s]),
        "committed": bool(state.done and state.done[s] and (
            _sealed_phase(game, state.phase) or (state.phase == "politicians" and state.step == SEALED_PAY))),
    }
    if mine:
        data["hand"] = sorted(player.hand)
        data["politicians"] = [game.edition.politicians[p].id for p in player.politicians]
        data["sealed"] = list(player.secret)
        data["donations"] = [game.edition.donations[d].value for d in player.donations]
        if state.draft_hands:
            data["draft_hand"] = sorted(state.draft_hands[s])
        if state.poll_in_hand != NOBODY and state.actor == s:
            data["poll_in_hand"] = _poll(game, state, s)
    return data


def _sealed_phase(game: DieMacher, name: str) -> bool:
    """Decided by everybody at once, face down (die-macher.md §13)."""
    phase = game.flow.phases.get(name)
    return phase is not None and phase.kind == SEALED


def _hand_size(state: State, s: int) -> int:
    """While programs are chosen the chosen cards still count as in the hand: the choice, and
    with it the draft exception, shows only at the reveal (DP-S3)."""
    player = state.players[s]
    if state.phase in ("program", "program_more"):
        return len(player.hand) + len(player.secret)
    return len(player.hand)


def _poll(game: DieMacher, state: State, seat: int) -> dict[str, Any]:
    """The poll card in the seat's hand, with the trends it changes if the seat publishes it now."""
    card = state.poll_in_hand
    poll = game.edition.polls[card]
    return {"id": poll.id, "back": poll.back, "delta": dict(poll.delta),
            "changes": trend_changes(game, state, seat, card)}


def _decision(game: DieMacher, state: State, seat: int | None) -> dict[str, Any]:
    """Public facts about the pending decision: who, what and where; never a sealed content."""
    # Phase 6 pays sealed in its SEALED_PAY stage.
    sealed = _sealed_phase(game, state.phase) or (state.phase == "politicians" and state.step == SEALED_PAY)
    decision: dict[str, Any] = {"phase": state.phase, "step": state.step, "sealed": sealed}
    if state.poll_in_hand != NOBODY:
        decision.update(kind="poll_use", seat=state.actor, board=game.from_election(state)[state.cursor])
    elif state.program_change is not None:
        change = state.program_change
        decision.update(kind="program_change", seat=change.seat, step=STEP_NAMES[change.step], swaps=change.swaps,
                        swapped_in=_none(change.swapped_in))  # it may not go out again
    elif state.phase == "election" and state.talks is not None:
        talks = state.talks
        decision.update(kind="coalition", strongest=talks.strongest, candidates=list(talks.candidates),
                        asked=talks.asked)
    elif state.phase in ("rebid", "polls") and state.auction is not None:
        auction = state.auction
        decision.update(kind="auction", high=auction.high if auction.high >= 0 else None,
                        high_seat=_none(auction.high_seat), order=list(auction.order), position=auction.position)
    if state.phase in ("rallies", "cabinet", "politicians", "media_shift", "polls") and state.phase != "over":
        boards = game.from_election(state)
        if state.cursor < len(boards):
            decision["board"] = boards[state.cursor]
    if state.phase == "convert":
        boards = game.relocation_order(state)
        if state.cursor < len(boards):
            decision["board"] = boards[state.cursor]
    return decision


def _prices(game: DieMacher, state: State, decision: dict[str, Any]) -> dict[str, Any]:
    """What the pending decision's choices cost or bring, as the rules work it out (issue 25 defect 3):
    public facts that the choices' labels name (text.py).  A poll card's effect is its holder's secret:
    it comes with the card (``poll_in_hand``)."""
    edition, phase = game.edition, state.phase
    if phase == "media":
        return {"media_marker": edition.media_marker_cost}
    if phase == "rallies":
        return {"rallies": [game.rally_cost(n) for n in range(edition.rally_cap + 1)]}
    if phase in ("cabinet", "politicians"):
        return {"politicians": {p.id: p.cost for p in edition.politicians}, "buyout": edition.buyout_payment}
    if phase == "convert" and "board" in decision:
        return {"trend_floor": game.trend_floor(state, decision["board"])}
    if phase == "money":
        return {"donations": [[offer.value, base_change(game, i, True), base_change(game, i, False)]
                              for i, offer in enumerate(edition.donations)]}
    if phase == "start":
        return {"start_blocks": [list(block) for block in edition.start_blocks]}
    return {}


def _none(seat: int) -> int | None:
    return None if seat == NOBODY else seat


def round_of(game: DieMacher, state: State) -> int:
    """The election round a state is in, 0 during the setup (GameSpec.round_of: replays jump by it)."""
    return state.round


def rounds(game: DieMacher) -> int:
    """How many election rounds the game has: 4, or 5 with 7 elections (About.rounds: My games)."""
    return game.last_round


def playout_view(game: DieMacher, state: State, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the heuristic bot reads (games/diemacher/bot.py), built without
    the rest: search playouts (bots/ismcts.py) ask the heuristic bot at every move of a sampled
    state.  Each value equals the full view's (``build_view``); other seats' entries are empty
    (tests/bots/test_playout_views.py checks both)."""
    voting = game.elections_in(state.round)
    boards = []
    for pos, board in enumerate(state.boards):
        boards.append({
            "in_play": board.in_play,
            "ballot_box": board.in_play and pos in voting,
            "opinions": [{"card": c if up else None, "doubled": board.doubled == i}
                         for i, (c, up) in enumerate(zip(board.opinions, board.face_up, strict=True))],
            "trend": list(board.trend),
            "rallies": list(board.rallies),
            "media": [s if s != NOBODY else None for s in board.media],
        })
    player = state.players[seat]
    seats: list[dict[str, Any]] = [{} for _ in range(state.seats)]
    seats[seat] = {"money": player.money, "program": list(player.program), "hand": sorted(player.hand),
                   "sealed": list(player.secret)}
    return {"seat": seat, "players": game.num_players, "phase": state.phase,
            "decision": _decision(game, state, seat), "board": {"round": state.round, "boards": boards, "seats": seats}}
