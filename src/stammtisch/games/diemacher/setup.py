"""Setup steps A–G and the deal of H (die-macher.md §3), up to the simultaneous draft (phases/draft.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.chance import Chance
from stammtisch.engine.protocol import Event
from stammtisch.games.diemacher.board import reveal_opinion
from stammtisch.games.diemacher.state import CARD_TYPES, Board, Player, State

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

FACE_UP_AT_START: Final = (4, 3, 2, 1)  # in election order (board 0 votes first)


def set_up(game: DieMacher, seed: int) -> tuple[State, list[Event]]:
    state = State.new()
    state.chance = Chance(seed)
    events: list[Event] = []
    _parties(game, state)
    _state_cards(game, state)
    _opinions(game, state, events)
    state.poll_deck = list(range(len(game.edition.polls)))
    state.chance.shuffle(state.poll_deck)
    state.program_deck = [card for card in range(CARD_TYPES) for _ in range(4)]
    state.chance.shuffle(state.program_deck)
    size = game.edition.program_display_size[state.seats]
    state.program_display = [state.program_deck.pop() for _ in range(size)]
    state.start_player = state.chance.choice(list(range(state.seats)))
    events.append(Event("game_set_up", {"preliminary_start_player": state.start_player}))
    state.draft_hands = [[state.program_deck.pop() for _ in range(7)] for _ in state.players]
    return state, events


def _parties(game: DieMacher, state: State) -> None:
    edition = game.edition
    elections = 7 if game.long_game else 4
    politicians = [i for i, p in enumerate(edition.politicians) if game.long_game or not p.long_game_only]
    for party in game.party_of_seat:
        state.players.append(Player.new(party, edition.start_money, edition.start_party_base, politicians[:],
                                        edition.media_markers[elections], edition.rally_cubes))


def _state_cards(game: DieMacher, state: State) -> None:
    """Two large and two small states at random; the ballot box on the lowest maximum VP, which
    becomes board 0 so that the elections run 0, 1, 2, 3 clockwise."""
    states = game.edition.states
    small = [i for i, s in enumerate(states) if s.small]
    large = [i for i, s in enumerate(states) if not s.small]
    state.chance.shuffle(small)
    state.chance.shuffle(large)
    chosen = [large.pop(), large.pop(), small.pop(), small.pop()]
    state.chance.shuffle(chosen)
    lowest = min(states[c].max_vp for c in chosen)
    first = state.chance.choice([i for i, c in enumerate(chosen) if states[c].max_vp == lowest])  # G-06
    ring = chosen[first:] + chosen[:first]
    state.boards = [Board.new(card, state.seats) for card in ring]
    if game.long_game:
        rest = small + large
        state.chance.shuffle(rest)
        state.future_states = rest[:3]


def _opinions(game: DieMacher, state: State, events: list[Event]) -> None:
    state.opinion_display = [True] * CARD_TYPES
    state.opinion_deck = [card for card in range(CARD_TYPES) for _ in range(2)]
    state.chance.shuffle(state.opinion_deck)
    for board in state.boards:
        board.opinions = [state.opinion_deck.pop() for _ in range(4)]
        board.face_up = [False] * 4
    for pos, count in enumerate(FACE_UP_AT_START):
        for slot in range(count):
            reveal_opinion(state, pos, slot, game.options["opinion_reshuffle"], events)
