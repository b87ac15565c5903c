"""Learn to play (issue 30 item 1): a guided first game, played by the newcomer against bots from a fixed deal.

A game that offers one declares its script (``GameSpec.guide``, "module:GUIDE": a ``Guide``): the table it is
played at (players, seed, options, the bots' kind) and its steps. A step explains a phase the first time the
newcomer decides in it (``phase``: the flow's phase or interlude, ``over`` the final scoring), or a result the
first time an event of its kind happens (``event``: an election, a shift's scoring), in two or three sentences
(msgids), and points at the pieces it talks about (``Point``: a CSS selector of the board the browser
highlights, and the piece's name the terminal prints). A result step may add a line on why it came out so
(``why``: "module:function" of ``(events, view, names) -> str | None``, ``events`` the result's event and
those of the same move after it).

Nothing of the guide is stored: which steps were shown follows from the game's own log (``Progress``
follows the moves, as a reload or a resumed record replays them), so a reload shows the same step. The
guide only explains; the newcomer makes every decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from stammtisch.engine.options import GUIDE
from stammtisch.engine.protocol import Event, Game
from stammtisch.i18n import _


@dataclass(frozen=True)
class Point:
    """A piece a step talks about: ``selector`` finds it on the table page (a class or id of the game's board
    module or of the page's frame), ``piece`` names it (msgid) in the browser's label and the terminal."""

    selector: str
    piece: str


@dataclass(frozen=True)
class Step:
    """One explanation: for the first time the newcomer decides in ``phase``, or the first event of kind ``event``."""

    heading: str
    sentences: tuple[str, ...]
    points: tuple[Point, ...] = ()
    phase: str | None = None
    event: str | None = None
    covers: tuple[str, ...] = ()  # phases nobody waits in (automatic ones) that this step explains

    @property
    def key(self) -> str:
        return f"phase:{self.phase}" if self.phase is not None else f"event:{self.event}"


@dataclass(frozen=True)
class Guide:
    """A game's guided first game: the table (the newcomer at seat 0, bots of kind ``bots`` elsewhere)."""

    players: int
    seed: int
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: str = "heuristic"
    why: str | None = None  # "module:function" (events, view, names) -> str | None: a result's reason

    def table_options(self) -> dict[str, Any]:
        return {**self.options, GUIDE.name: True}

    def step(self, key: str) -> Step:
        return next(step for step in self.steps if step.key == key)

    def explained(self) -> set[str]:
        """The phases the script explains (waited in, or covered by another step)."""
        return {name for step in self.steps for name in ((step.phase,) if step.phase else ()) + step.covers}

    def reason(self, events: Sequence[Event], view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
        if self.why is None:
            return None
        module, name = self.why.split(":")
        function: Callable[[Sequence[Event], Mapping[str, Any], Sequence[str] | None], str | None] = getattr(
            import_module(module), name)
        return function(events, view, names)


def guided(game: Game[Any]) -> bool:
    return bool(game.options.get(GUIDE.name))


def waiting_phase(game: Game[Any], state: Any) -> str:
    """The phase (or interlude) whose decision the game waits for; ``over`` once it has ended."""
    if game.is_over(state):
        return "over"
    flow = getattr(game, "flow", None)
    return str(flow.current(state).name) if flow is not None else str(getattr(state, "phase", ""))


NEWCOMER = 0  # the seat of the newcomer at a guided table; the guide's bots play the others


@dataclass
class Reached:
    """A step reached at log entry ``entry``: in the ``stretch``-th run of one waiting phase, before the
    newcomer's ``turn``-th move; a result's ``events``: its event and those of the same move after it."""

    key: str
    entry: int
    stretch: int
    turn: int
    events: tuple[Event, ...] = ()


class Progress:
    """Which steps a game has reached so far, from its moves alone: follow each log entry (its events, who
    made it) and the phase the game then waits in.

    A phase's step is reached the first time the game waits in it for the newcomer (``over``: when the game
    ends), a result's the first time its event happens. A step is shown (``active``) from then until the
    newcomer's next move, and a phase's step as long as the game stays in that phase: never again after."""

    def __init__(self, guide: Guide, seat: int = NEWCOMER) -> None:
        self.guide = guide
        self.seat = seat
        self.reached: list[Reached] = []
        self.phase = ""
        self.stretch = 0  # runs of one waiting phase so far
        self.turns = 0  # the newcomer's moves so far
        self._phases = {step.phase: step.key for step in guide.steps if step.phase}
        self._events = {step.event: step.key for step in guide.steps if step.event}

    def follow(self, game: Game[Any], state: Any, events: Iterable[Event], entry: int, by: int | None) -> None:
        """After log entry ``entry``, made by seat ``by`` (None: the game's setup)."""
        if by == self.seat:
            self.turns += 1
        phase = waiting_phase(game, state)
        if phase != self.phase:
            self.phase, self.stretch = phase, self.stretch + 1
        seen = {r.key for r in self.reached}
        events = [event for event in events if event.visible_to(self.seat)]  # only what the newcomer may know
        for n, event in enumerate(events):  # a result first, then the phase the game went on to
            key = self._events.get(event.kind)
            if key is not None and key not in seen:
                self.reached.append(Reached(key, entry, self.stretch, self.turns, tuple(events[n:])))
                seen.add(key)
        key = self._phases.get(phase)
        if key is not None and key not in seen and (phase == "over" or self.seat in game.to_act(state)):
            self.reached.append(Reached(key, entry, self.stretch, self.turns))

    def number(self, reached: Reached) -> int:
        """A reached step's place among the steps reached so far, from 1."""
        return self.reached.index(reached) + 1

    def active(self) -> list[Reached]:
        return [r for r in self.reached
                if r.turn == self.turns or (not r.events and r.stretch == self.stretch)]


def step_json(guide: Guide, reached: Reached, number: int, view: Mapping[str, Any] | None,
              names: Sequence[str] | None) -> dict[str, Any]:
    """A reached step in the current language, as the table page shows it; ``number``: its place among the
    steps reached so far (from 1), so that steps a game never comes to leave no gaps."""
    step = guide.step(reached.key)
    why = guide.reason(reached.events, view, names) if reached.events and view is not None else None
    return {"key": step.key, "number": number,
            "heading": _(step.heading), "sentences": [_(s) for s in step.sentences], "why": why,
            "points": [{"selector": p.selector, "piece": _(p.piece)} for p in step.points]}


def progress_json(guide: Guide, progress: Progress, view: Mapping[str, Any] | None,
                  names: Sequence[str] | None) -> dict[str, Any]:
    """What a guided table's page shows: the active steps and the keys of every step reached so far."""
    return {"steps": [step_json(guide, r, progress.number(r), view, names) for r in progress.active()],
            "reached": [r.key for r in progress.reached]}
