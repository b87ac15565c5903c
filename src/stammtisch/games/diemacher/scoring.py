"""Elections (step 9b), money (step 9c) and final scoring (die-macher.md §5 9b–9c, §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stammtisch.engine.protocol import Event, EventKind
from stammtisch.games.diemacher.board import media_influencer, program_overlap
from stammtisch.games.diemacher.state import NOBODY, State

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# An election's result and a party's income, every round (engine.protocol.EventKind).
ELECTION: Final = EventKind("election", "board", "state", "election", "votes", "vote_vp", "outcome", "awarded",
                            "win_vp", "media_moved", "spot", "influencer")
INCOME: Final = EventKind("income", "seat", "vote_vp", "base", "amount")


def hold_election(game: DieMacher, state: State, pos: int, events: list[Event], partner: int | None = None) -> None:
    """Score the election in board ``pos``; ``partner`` is the coalition partner agreed in talks
    (NOBODY: none), or None to find it by the default rule (C-09)."""
    state.elections_held += 1
    number = state.elections_held
    board = state.boards[pos]
    card = game.edition.states[board.card]
    state.elected.append(board.card)
    votes = board.votes
    for seat, player in enumerate(state.players):
        player.vote_vp.append(card.vp_for(votes[seat]) if votes[seat] >= game.edition.min_votes_to_score else 0)
        player.win_vp.append(0)
    timing_first = game.options["media_influencer_timing"] == "before_moves"
    influencer = media_influencer(board) if timing_first else NOBODY
    outcome, awarded, moving = _decide_win(game, state, votes, partner)
    awards = game.edition.awards
    for seat in awarded:
        state.players[seat].win_vp[-1] = awards[outcome]
    state.outcomes[outcome] = state.outcomes.get(outcome, 0) + 1
    spot = number - 1 if game.long_game else number + 2
    moved = [seat for seat in moving if _move_to_presence(state, board, seat, spot)]
    if not timing_first:
        influencer = media_influencer(board)
    if influencer != NOBODY and influencer not in moved and _move_to_presence(state, board, influencer, spot):
        moved.append(influencer)
    events.append(ELECTION.event(pos, card.id, number, list(votes), [p.vote_vp[-1] for p in state.players], outcome,
                                 awarded, awards[outcome], moved, spot, influencer))


def _decide_win(game: DieMacher, state: State, votes: list[int],
                partner: int | None) -> tuple[str, list[int], list[int]]:
    """(outcome, parties awarded, parties whose media marker moves as winners)."""
    threshold = game.options["win_threshold"]
    over = [seat for seat, v in enumerate(votes) if v >= threshold]
    if len(over) == 1:
        return "sole", over, over
    if len(over) > 1:
        best = max(votes[s] for s in over)
        return "several", over, [s for s in over if votes[s] == best]
    strongest, candidates = coalition_candidates(game, state, votes)
    if partner is None:
        partner = next((s for s in candidates if votes[strongest] + votes[s] >= threshold), NOBODY)
    if partner != NOBODY:
        return "coalition", [strongest, partner], [strongest, partner]
    moving = [strongest] if game.options["no_coalition_winner_media"] else []
    return "no_coalition", [strongest], moving


def coalition_candidates(game: DieMacher, state: State, votes: list[int]) -> tuple[int, list[int]]:
    """The strongest party and the others in order of candidacy: most shared program cards first,
    then turn order (die-macher.md C-09)."""
    most = max(votes)
    strongest = game.first_in_turn_order(state, [s for s, v in enumerate(votes) if v == most])
    program = state.players[strongest].program
    order = state.turn_order()
    candidates = sorted((s for s in range(state.seats) if s != strongest),
                        key=lambda s: (-program_overlap(program, state.players[s].program), order.index(s)))
    return strongest, candidates


def _move_to_presence(state: State, board: Any, seat: int, spot: int) -> bool:
    if seat not in board.media:
        return False
    board.media[board.media.index(seat)] = NOBODY
    state.media_presence[spot].append(seat)
    return True


def pay_income(game: DieMacher, state: State, seat: int, events: list[Event]) -> None:
    """€1,000 per vote-VP of this round's election(s) and per party-base point (before any donation)."""
    player = state.players[seat]
    elections = len(game.elections_in(state.round))
    vote_vp = sum(player.vote_vp[-elections:])
    income = 1000 * vote_vp + 1000 * player.base
    player.money += income
    events.append(INCOME.event(seat, vote_vp, player.base, income,
                               seats=None if game.options["open_money"] else (seat,)))


def money_points(game: DieMacher, money: list[int]) -> list[int]:
    awards = game.edition.money_vp
    if game.options["money_rank"] == "dense":
        levels = sorted(set(money), reverse=True)
        ranks = [levels.index(m) for m in money]
    else:
        ranks = [sum(1 for other in money if other > m) for m in money]
    return [awards[r] if r < len(awards) else 0 for r in ranks]


def final_scores(game: DieMacher, state: State) -> list[tuple[int, dict[str, int]]]:
    money = money_points(game, [p.money for p in state.players])
    results = []
    for seat, player in enumerate(state.players):
        parts = {
            "votes": sum(player.vote_vp),
            "wins": sum(player.win_vp),
            "media": sum(game.edition.media_presence[spot] * markers.count(seat)
                         for spot, markers in enumerate(state.media_presence)),
            "party_base": player.base,
            "money": money[seat],
        }
        results.append((sum(parts.values()), parts))
    return results
