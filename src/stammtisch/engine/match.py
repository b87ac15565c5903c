"""A game in progress: the game, its state, its record and its events, advanced only through ``act``.

One session object for every loop that plays a game (``play``, ``simulate``, ``bench``, replays):
``act`` goes through the strict ``step`` (``checked=False`` is for callers that chose from the
legal list themselves, such as ``bench``); the legal list ``legal_actions`` handed out is kept until
the next move, so checking an action chosen from it does not build the list again.  With
``undo=True`` a seat may take back its last move while it is still deciding and the move revealed
nothing (engine/undo.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import ENGINE_VERSION, CorruptRecord, Header, Record, check_rules, rules_version
from stammtisch.engine.step import step
from stammtisch.engine.undo import chance_draws, undoable


class Match:
    def __init__(self, game: Game[Any], seed: int, names: list[str] | None = None, *, undo: bool = False) -> None:
        self.game = game
        self.state, self.setup_events = game.new_state(seed)
        self.record = Record(Header(game.name, game.num_players, dict(game.options), seed, list(names or []),
                                    rules_version=rules_version(game.name)))
        self.events: list[Event] = list(self.setup_events)
        self.undo = undo
        self._before: list[tuple[Seat, Any]] = []  # (mover, state before) of the moves that may be taken back
        self._offered: tuple[Any, Seat, list[Action]] | None = None  # (state, seat, its legal list) until a move

    def act(self, seat: Seat, action: Action, *, checked: bool = True) -> list[Event]:
        if self.undo:
            return self._act_undoable(seat, action, checked)
        offered, self._offered = self._offered, None
        if not checked:
            events = self.game.apply(self.state, seat, action)
        elif offered is not None and offered[0] is self.state and offered[1] == seat:
            events = step(self.game, self.state, seat, action, offered[2])
        else:
            events = step(self.game, self.state, seat, action)
        self.record.moves.append((seat, action))
        self.events += events
        return events

    def _act_undoable(self, seat: Seat, action: Action, checked: bool) -> list[Event]:
        before, draws = self.game.copy(self.state), chance_draws(self.state)
        self.undo = False
        try:
            events = self.act(seat, action, checked=checked)
        finally:
            self.undo = True
        if undoable(self.game, draws, self.state, seat, events):
            self._before.append((seat, before))
        else:
            self._before.clear()
        return events

    def can_take_back(self, seat: Seat) -> bool:
        return bool(self._before) and self._before[-1][0] == seat and seat in self.to_act()

    def take_back(self, seat: Seat) -> list[Event]:
        """Undo ``seat``'s last move; the record forgets it.  ValueError if it may not be taken back."""
        if not self.can_take_back(seat):
            raise ValueError(f"seat {seat} has no move to take back")
        self.state = self._before.pop()[1]
        self._offered = None
        self.record.moves.pop()
        events = [Event("undo", {"seat": seat})]
        self.events.extend(events)
        return events

    def to_act(self) -> list[Seat]:
        return self.game.to_act(self.state)

    def legal_actions(self, seat: Seat) -> list[Action]:
        legal = self.game.legal_actions(self.state, seat)
        self._offered = (self.state, seat, legal)
        return legal[:]  # the caller's copy: what it does to it cannot widen what act accepts

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)


GameFactory = Callable[[str, int, dict[str, Any]], Game[Any]]


def replay(record: Record, make_game: GameFactory) -> Iterator[tuple[Match, Seat | None, Action | None, list[Event]]]:
    """Yield (match, seat, action, events) after setup and after every move of a record; the match is
    the live one (its state changes as the replay goes on)."""
    header = record.header
    if header.engine_version != ENGINE_VERSION:
        raise CorruptRecord(f"record of engine version {header.engine_version}, this is {ENGINE_VERSION}")
    check_rules(header)
    match = Match(make_game(header.game, header.players, header.options), header.seed, header.names)
    yield match, None, None, match.setup_events
    for index, (seat, action) in enumerate(record.moves, 2):
        try:
            events = match.act(seat, action)
        except ValueError as error:
            raise CorruptRecord(f"line {index}: move {action!r} of seat {seat} cannot be replayed: {error}") from None
        yield match, seat, action, events
