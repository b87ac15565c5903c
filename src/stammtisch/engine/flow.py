"""Declared flow: a game's phases as data, and the one loop that runs them.

A game is a track of phases.  Each phase declares, in the engine's terms:

- ``name`` (kept in the state, shown in views) and ``label`` (a msgid for the phase track);
- ``track``: where a game with a printed phase track shows the phase (its slot), if anywhere;
- ``kind``: SEQUENTIAL (one seat decides at a time), SEALED (every seat still to commit decides at
  once, unseen; engine/sealed.py) or AUTOMATIC (nobody decides: only ``settle`` runs);
- ``to_act``: who acts, when not the default (the seat the game names for sequential phases, the
  seats that have not committed for sealed ones);
- ``legal``: the legal actions of a seat; ``moves``: action name → the function that carries it out;
- ``allows`` (optional): whether one action is in ``legal``'s list, answered without building it, for
  the strict step (``FlowGame.is_legal``) in phases with long lists; it is given a plain tuple naming
  one of ``moves`` and must agree with the list, types included (``True`` is not ``1``): the
  conformance suite checks it against the list in random games;
- ``settle``: runs every step that needs no decision and says what comes next (``WAIT`` for a
  decision, ``NEXT`` for the declared next phase, ``STAY`` to settle again, or a phase name);
  a sealed phase declares ``reveal`` instead, run once every seat has committed;
- ``next``: the phase that follows on ``NEXT``; ``enter``: what entering the phase sets up;
- ``stages``: the steps a phase goes through within itself, in order (boardgame.io's stages): the
  values the state's stage attribute (the flow's ``stage``) takes while the phase is current, each
  a declared name rather than a string written by hand; a test checks every state against them.

A move that chooses the next phase itself (Glück Auf's turn: placing a worker leads to mining, to
keeping a tile, …) enters it with ``FlowGame.enter_phase`` (``Flow.enter``), as boardgame.io's
``setStage`` does: the phase must be declared and its ``enter`` runs, rather than writing its state's
phase by hand.

An *interlude* is a phase that interrupts one of the phases named in its ``during`` while its
``active`` test holds (a poll card to publish, a program change in the middle of politician
actions); its settle returns ``NEXT`` when it is over and the interrupted phase carries on.  Only
the phases it may interrupt test for it, so the other phases pay nothing for it.

Clients learn the phases from the flow itself (``Flow.describe``, in ``Game.describe()``), so the
phase track they show cannot drift from the phases the game runs.

The game wires its phases into a ``Flow`` and derives from ``FlowGame``, whose ``to_act``,
``legal_actions``, ``apply`` and ``is_over`` run the flow: ``apply`` runs the move of the current
phase, then settles until somebody must decide again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Final, TypeVar

from mypy_extensions import mypyc_attr

from stammtisch.engine import sealed
from stammtisch.engine.protocol import Action, Event, Game, Seat, listed
from stammtisch.i18n import N_, _

FS = TypeVar("FS", bound="FlowState")

SEQUENTIAL: Final = "sequential"
SEALED: Final = "sealed"
AUTOMATIC: Final = "automatic"

# What settle returns.
WAIT: Final = "<wait>"  # somebody must decide
NEXT: Final = "<next>"  # this phase is over: enter the declared next phase
STAY: Final = "<stay>"  # the state changed (an interlude opened, a phase entered by hand): settle again

# Signatures, with G the game and S its state (kept loose: each game's functions name their types).
Legal = Callable[[Any, Any, Seat], list[Action]]
Allows = Callable[[Any, Any, Seat, Action], bool]
Move = Callable[[Any, Any, Seat, Action, list[Event]], None]
Settle = Callable[[Any, Any, list[Event]], str]
Enter = Callable[[Any, Any, list[Event]], None]
ToAct = Callable[[Any, Any], list[Seat]]
Active = Callable[[Any], bool]
NO_INTERLUDES: tuple[Phase, ...] = ()


def _never(state: Any) -> bool:
    return False


@mypyc_attr(allow_interpreted_subclasses=True)
class FlowState:
    """What the flow reads of every flow game's state: its phase and the seat of a sequential decision.

    A game's state class derives from it and answers from its own fields.  Methods rather than
    shared fields, so each game keeps its fields (and its snapshots) as they are; compiled, the flow
    reads them through a native call instead of a generic attribute lookup (the hot path of every
    move)."""

    __slots__ = ()

    def current_phase(self) -> str:
        """The name of the phase the state is in (``Flow.over`` once the game is over)."""
        raise NotImplementedError

    def acting_seat(self) -> Seat:
        """The seat whose sequential decision is pending."""
        raise NotImplementedError

    def set_phase(self, name: str) -> None:
        """Make ``name`` the phase the state is in (only ``Flow.enter`` calls it)."""
        raise NotImplementedError


class Phase:
    """One declared phase (or interlude) of a game."""

    __slots__ = ("name", "label", "kind", "legal", "moves", "settle", "reveal", "next", "enter", "to_act", "active",
                 "during", "interludes", "is_interlude", "sealed_when", "track", "stages", "allows")

    def __init__(self, name: str, label: str, kind: str, *, legal: Legal | None = None,
                 moves: Mapping[str, Move] | None = None, settle: Settle | None = None,
                 reveal: Settle | None = None, next: str | None = None, enter: Enter | None = None,
                 to_act: ToAct | None = None, active: Active | None = None, during: tuple[str, ...] = (),
                 sealed_when: Active | None = None, track: str | None = None, stages: tuple[str, ...] = (),
                 allows: Allows | None = None) -> None:
        if kind not in (SEQUENTIAL, SEALED, AUTOMATIC):
            raise ValueError(f"phase {name}: unknown kind {kind!r}")
        if kind == SEALED and reveal is None:
            raise ValueError(f"sealed phase {name} declares no reveal")
        if kind != AUTOMATIC and (legal is None or not moves):
            raise ValueError(f"phase {name}: a phase with decisions declares legal and moves")
        if allows is not None and legal is None:
            raise ValueError(f"phase {name}: allows answers for a legal list, and the phase declares none")
        if (active is None) != (not during):
            raise ValueError(f"phase {name}: active and during go together (an interlude declares both)")
        if len(set(stages)) != len(stages):
            raise ValueError(f"phase {name}: a stage declared twice")
        self.is_interlude = active is not None
        self.name = name
        self.label = label
        self.kind = kind
        self.track = track
        self.legal = legal
        self.allows = allows  # whether one action is in legal's list, without building it (FlowGame.is_legal)
        self.moves: dict[str, Move] = dict(moves or {})
        self.settle = settle
        self.reveal = reveal
        self.next = next
        self.enter = enter
        self.to_act = to_act
        self.active: Active = active or _never
        # A sequential phase with a sealed step (its own to_act decides who): when that step is on.
        self.sealed_when: Active = (lambda state: True) if kind == SEALED else (sealed_when or _never)
        self.during = during  # interludes: the phases they may interrupt
        self.interludes: tuple[Phase, ...] = NO_INTERLUDES  # the interludes that may interrupt this phase
        self.stages = stages  # the steps within the phase, in order (the flow's ``stage`` attribute of the state)


class Flow:
    """The phases of one game and the loop that runs them.

    The state says and changes its phase and says the seat of a sequential decision itself
    (``FlowState``: the flow reads and writes no field of it); ``committed`` names the state attribute
    holding the sealed decisions' list of who has committed (engine/sealed.py), the one field the flow
    reads by name; ``stage`` names the state attribute holding the current phase's stage (for phases
    that declare ``stages``); ``over`` is the phase of a finished game and ``over_label`` its msgid.  The first
    declared phase is the first the game plays: the game's ``new_state`` calls ``start`` once, which
    enters it and settles (stammtisch/contract.py checks that a new state waits for a decision).
    """

    __slots__ = ("phases", "interludes", "committed", "stage", "over", "over_label", "settles", "last")

    def __init__(self, phases: Iterable[Phase], *, interludes: Iterable[Phase] = (), committed: str = "done",
                 stage: str | None = None, over: str = "over", over_label: str = N_("Game over")) -> None:
        self.phases: dict[str, Phase] = {}
        for phase in phases:
            if phase.name in self.phases:
                raise ValueError(f"phase {phase.name} declared twice")
            self.phases[phase.name] = phase
        if not self.phases:
            raise ValueError("a flow declares at least one phase")
        self.interludes = tuple(interludes)
        for phase in [*self.phases.values(), *self.interludes]:
            if phase.next is not None and phase.next not in self.phases and phase.next != over:
                raise ValueError(f"phase {phase.name}: next phase {phase.next} is not declared")
        for interlude in self.interludes:
            if not interlude.is_interlude:
                raise ValueError(f"interlude {interlude.name} declares no active test")
            for name in interlude.during:
                if name not in self.phases:
                    raise ValueError(f"interlude {interlude.name}: phase {name} is not declared")
                if interlude not in self.phases[name].interludes:
                    self.phases[name].interludes += (interlude,)
        staged = [phase.name for phase in [*self.phases.values(), *self.interludes] if phase.stages]
        if staged and stage is None:
            raise ValueError(f"phase {staged[0]} declares stages, and the flow names no stage attribute (stage=)")
        self.committed = committed
        self.stage = stage
        self.over = over  # the name of the finished game's phase
        self.over_label = over_label
        # Whether anything runs between decisions; a flow whose moves choose every next phase
        # themselves skips the settling loop.
        self.settles = any(p.settle is not None or p.reveal is not None
                           for p in [*self.phases.values(), *self.interludes])
        self.last: Phase = next(iter(self.phases.values()))  # the phase named() found last

    def named(self, name: str) -> Phase:
        """The declared phase called ``name``.  A move's calls (to_act, legal_actions, apply) ask
        for the same phase in a row: the last one found is tried first, by identity (phase names
        are the games' string constants), before the dictionary.  The hot paths below test ``last``
        themselves before calling (in pure Python a call costs more than the test)."""
        last = self.last
        if last.name is name:
            return last
        phase = self.phases[name]
        self.last = phase
        return phase

    def current(self, state: FlowState) -> Phase:
        """The phase whose decision is pending: an active interlude, else the state's phase."""
        phase = self.named(state.current_phase())
        for interlude in phase.interludes:
            if interlude.active(state):
                return interlude
        return phase

    def undeclared_stage(self, state: FlowState) -> str | None:
        """What is wrong with the state's stage, or None: a phase that declares stages is in one of them
        (the conformance suite asks at every step)."""
        phase = self.phases.get(state.current_phase())
        if phase is None or not phase.stages or self.stage is None:
            return None
        stage = getattr(state, self.stage)
        return None if stage in phase.stages else f"phase {phase.name} is in stage {stage!r}, which it does not declare"

    def labels(self) -> dict[str, str]:
        """name → label (msgid) of every phase a state can be in, in declaration order, the finished game last."""
        return {**{phase.name: phase.label for phase in self.phases.values()}, self.over: self.over_label}

    def describe(self) -> list[dict[str, Any]]:
        """The phases for clients (``Game.describe()["phases"]``), labels in the current language:
        ``{"name", "label", "kind", "track"}`` per phase in declaration order, then the finished
        game (kind AUTOMATIC: nobody decides).  Interludes are no phase of the state, so not listed."""
        phases = [{"name": phase.name, "label": _(phase.label), "kind": phase.kind, "track": phase.track}
                  for phase in self.phases.values()]
        return [*phases, {"name": self.over, "label": _(self.over_label), "kind": AUTOMATIC, "track": None}]

    # ------------------------------------------------------------------ the loop, once

    def advance(self, game: Any, state: FlowState, events: list[Event]) -> None:
        """Settle until somebody must decide or the game is over."""
        over = self.over
        while (name := state.current_phase()) != over:
            phase = self.named(name)
            if phase.interludes:  # Flow.current inline (a hot path)
                for interlude in phase.interludes:
                    if interlude.active(state):
                        phase = interlude
                        break
            if phase.kind == SEALED:
                if not all(getattr(state, self.committed)):
                    return
                assert phase.reveal is not None
                outcome = phase.reveal(game, state, events)
            elif phase.settle is not None:
                outcome = phase.settle(game, state, events)
            else:
                return
            if outcome == WAIT:
                return
            if outcome == STAY or (outcome == NEXT and phase.is_interlude):
                continue
            self.enter(game, state, phase.next if outcome == NEXT else outcome, events)

    def start(self, game: Any, state: FlowState, events: list[Event]) -> None:
        """Begin a set-up state's game: enter the first declared phase and settle."""
        self.enter(game, state, next(iter(self.phases)), events)
        self.advance(game, state, events)

    def enter(self, game: Any, state: FlowState, name: str | None, events: list[Event]) -> None:
        """Make ``name`` the current phase and run its set-up."""
        if name is None:
            raise ValueError(f"phase {state.current_phase()} is over but declares no next phase")
        phase = self.phases.get(name)  # one lookup: a move of Glück Auf's turn enters a phase every time
        if phase is None and name != self.over:
            raise ValueError(f"phase {state.current_phase()} goes on to {name}, which is not declared")
        state.set_phase(name)
        if phase is not None and phase.enter is not None:
            phase.enter(game, state, events)


@mypyc_attr(allow_interpreted_subclasses=True)
class FlowGame(Game[FS]):
    """A game whose ``to_act``, ``legal_actions``, ``apply`` and ``is_over`` are those of its
    declared ``flow``: the game class only holds the table and the rules' shared helpers.

    These are the hot paths (a bot's search calls them for every node): each looks the current
    phase up inline (``Flow.current`` without its call), which the pure-Python build feels most."""

    flow: ClassVar[Flow]

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(num_players, options)
        # The class's flow, kept on the game too: compiled, an instance attribute is a native read,
        # a class variable a generic lookup (in every one of the hot paths below).
        self._flow: Flow = type(self).flow

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its table, made again from its number of players and options (its
        flow holds functions that do not pickle)."""
        return type(self), (self.num_players, dict(self.options))

    def to_act(self, state: FS) -> list[Seat]:
        flow = self._flow
        name = state.current_phase()
        if name == flow.over:
            return []
        last = flow.last  # read once: another thread may replace it
        phase = last if last.name is name else flow.named(name)
        if phase.interludes:
            for interlude in phase.interludes:
                if interlude.active(state):
                    phase = interlude
                    break
        to_act = phase.to_act
        if to_act is not None:
            return to_act(self, state)
        if phase.kind == SEALED:
            return sealed.waiting(getattr(state, flow.committed))
        return [state.acting_seat()]

    def legal_actions(self, state: FS, seat: Seat) -> list[Action]:
        phase = self._deciding(state, seat)
        if phase is None or phase.legal is None:
            return []
        return phase.legal(self, state, seat)

    def is_legal(self, state: FS, seat: Seat, action: object) -> bool:
        """Whether ``action`` is in ``legal_actions(state, seat)`` with identical types: the phase's
        ``allows`` answers where it declares one (given a plain tuple naming one of its moves: no other
        action is ever legal), else the legal list is built and searched."""
        phase = self._deciding(state, seat)
        if phase is None or phase.legal is None:
            return False
        allows = phase.allows
        if allows is None:
            return listed(action, phase.legal(self, state, seat))
        if type(action) is not tuple or not action:
            return False
        kind = action[0]
        return type(kind) is str and kind in phase.moves and allows(self, state, seat, action)

    def _deciding(self, state: FS, seat: Seat) -> Phase | None:
        """The phase whose decision ``seat`` is to take now, or None (the game is over, or the seat is
        not to act): what ``legal_actions`` and ``is_legal`` both ask first."""
        flow = self._flow
        name = state.current_phase()
        if name == flow.over:
            return None
        last = flow.last  # read once: another thread may replace it
        phase = last if last.name is name else flow.named(name)
        if phase.interludes:
            for interlude in phase.interludes:
                if interlude.active(state):
                    phase = interlude
                    break
        to_act = phase.to_act
        if to_act is not None:
            acting = seat in to_act(self, state)
        elif phase.kind == SEALED:
            committed = getattr(state, flow.committed)
            acting = 0 <= seat < len(committed) and not committed[seat]
        else:
            acting = seat == state.acting_seat()
        return phase if acting else None

    def apply(self, state: FS, seat: Seat, action: Action) -> list[Event]:
        """Carry out a legal action, then settle until somebody must decide (or the game is over)."""
        flow = self._flow
        events: list[Event] = []
        name = state.current_phase()
        last = flow.last  # read once: another thread may replace it
        phase = last if last.name is name else flow.named(name)
        if phase.interludes:
            for interlude in phase.interludes:
                if interlude.active(state):
                    phase = interlude
                    break
        phase.moves[action[0]](self, state, seat, action, events)
        if flow.settles:
            flow.advance(self, state, events)
        return events

    def is_over(self, state: FS) -> bool:
        return state.current_phase() == self._flow.over

    def enter_phase(self, state: FS, name: str, events: list[Event]) -> None:
        """Go on to the declared phase ``name`` and run its set-up: what a move that chooses the next
        phase itself calls (``Flow.enter`` through the table's own flow: a native call, compiled)."""
        self._flow.enter(self, state, name, events)

    def describe(self) -> dict[str, Any]:
        """The phases come from the declared flow; a game adds its own constant facts under ``board``."""
        return {**super().describe(), "phases": self.flow.describe()}

    def sealed(self, state: FS) -> bool:
        flow = self._flow
        if state.current_phase() == flow.over:
            return False
        return flow.current(state).sealed_when(state)
