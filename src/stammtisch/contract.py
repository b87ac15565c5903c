"""What every game must keep of the contract, checked when it registers (registry.py), so that a broken
game is refused with a message naming the game and what is missing, rather than crashing far away
(a server table at its first move, ``import stammtisch`` in a checkout with a compiled build).

The checks (docs/adding-a-game.md, "What registration checks"):

- every module the spec names can be found (its text, terminal, bots, pages, judge, rounds);
- a new state keeps its seeded generator as ``state.chance`` (an ``engine.chance.Chance``): take-backs
  count its draws (engine/undo.py);
- a game with a declared flow has a ``FlowState`` whose ``current_phase`` names a declared phase and
  whose ``set_phase`` changes it; with sealed phases, it keeps the list the flow's ``committed``
  names (one flag per seat); its ``new_state`` began the game with ``Flow.start`` (a new state waits
  for somebody);
- a game with sealed phases has text that renders the engine's ``sealed_committed``.

``take_back_leaks`` is the take-back property the conformance suite runs on every game (it needs
random play, so it is no registration check): a move that may be taken back showed no reader
anything it could not know before.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib.util import find_spec
from typing import Any

from stammtisch.engine.chance import Chance
from stammtisch.engine.flow import SEALED, FlowGame, FlowState
from stammtisch.engine.protocol import Action, Game, Seat
from stammtisch.engine.sealed import COMMITTED
from stammtisch.engine.undo import chance_draws, undoable


class ContractError(TypeError):
    """A game does not keep the contract; the message names the game and what is missing."""


def check(spec: Any) -> None:
    """Raise ``ContractError`` unless the game of ``spec`` (a ``GameSpec``) keeps the contract."""
    problems = [*missing_modules(spec)]
    if not problems:
        problems += state_problems(spec)
    if problems:
        raise ContractError(f"game {spec.name!r} does not keep the contract (docs/adding-a-game.md): "
                            + "; ".join(problems))


def references(spec: Any) -> Iterator[tuple[str, str]]:
    """(what, "module" or "module:attribute") for every module the spec names."""
    yield "text", spec.text
    yield "terminal", spec.terminal
    for kind, bot in spec.bots.items():
        yield f"bot {kind!r}", bot
    for what in ("outcomes", "browser_texts", "rules_page", "guide", "judge", "round_of", "conformance"):
        if getattr(spec, what):
            yield what, getattr(spec, what)
    if spec.about is not None:
        yield "about.rounds", spec.about.rounds


def missing_modules(spec: Any) -> Iterator[str]:
    for what, reference in references(spec):
        module = reference.partition(":")[0]
        try:
            found = find_spec(module)
        except (ImportError, ValueError):
            found = None
        if found is None:
            yield f"its {what} module {module} is missing"


def state_problems(spec: Any) -> Iterator[str]:
    game = spec.make(spec.default_players)
    state, _events = game.new_state(0)
    if not isinstance(getattr(state, "chance", None), Chance):
        yield ("its state keeps no engine.chance.Chance as `state.chance` (take-backs count its draws, "
               "engine/undo.py)")
        return  # copies and snapshots of such a state fail too
    if isinstance(game, FlowGame):
        yield from flow_problems(spec, game, state)


def flow_problems(spec: Any, game: FlowGame[Any], state: Any) -> Iterator[str]:
    flow = game.flow
    if not isinstance(state, FlowState):
        yield "its state is no engine.flow.FlowState (current_phase, acting_seat, set_phase)"
        return
    try:
        phase = state.current_phase()
    except NotImplementedError:
        yield "its state does not say its phase (FlowState.current_phase)"
        return
    if phase not in flow.phases and phase != flow.over:
        yield f"a new state is in phase {phase!r}, which its flow does not declare"
    sealed = [p.name for p in flow.phases.values() if p.kind == SEALED]
    committed = getattr(state, flow.committed, None)
    if sealed and not (isinstance(committed, list) and len(committed) == game.num_players):
        yield (f"its state keeps no list `{flow.committed}` of who has committed, one flag per seat "
               f"(the flow's committed=)")
    if not game.is_over(state) and not game.to_act(state):
        yield (f"a new state waits for nobody in phase {phase!r}: new_state must begin the game with "
               f"Flow.start (enter the first declared phase and settle)")
    copy = game.copy(state)
    try:
        copy.set_phase(flow.over)
    except NotImplementedError:
        yield "its state cannot change its phase (FlowState.set_phase)"
    else:
        if copy.current_phase() != flow.over:
            yield "FlowState.set_phase does not change what current_phase says"
    if sealed:
        yield from sealed_text_problems(spec, game, state, sealed[0])


def sealed_text_problems(spec: Any, game: Any, state: Any, phase: str) -> Iterator[str]:
    event = COMMITTED.event(0, phase)
    try:
        sentence = spec.texts().describe_event(event, game.view(state, None), None)
    except Exception as error:  # noqa: BLE001 - any failure is the game's to fix, named here
        yield f"its text cannot render the engine's {COMMITTED.kind} ({type(error).__name__}: {error})"
        return
    if not isinstance(sentence, str) or sentence.strip() in ("", COMMITTED.kind, COMMITTED.kind.replace("_", " ")):
        yield f"its text has no sentence for the engine's {COMMITTED.kind} event (seat, decision)"


# ------------------------------------------------------------------ the take-back property

SAMPLES = 2  # resampled states per reader and move


class ShownTooMuch(AssertionError):
    """A move that may be taken back showed a reader something it could not know."""


def take_back_leaks(game: Game[Any], seed: int, moves: int = 400) -> int:
    """Play a random game; raise ShownTooMuch at the first move that may be taken back (engine/undo.py)
    although it showed a reader what it could not know, i.e. a reader's view after it differs in a
    state the blind resampler draws from the reader's knowledge before it.  A game that forgets to
    declare a revealing event lets a seat take back, say, its sealed bid after seeing everyone's.
    Returns how many moves could be taken back."""
    rng = random.Random(seed)
    state, _events = game.new_state(seed)
    checked = 0
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        before, draws = game.copy(state), chance_draws(state)
        events = game.apply(state, seat, action)
        if not undoable(game, draws, state, seat, events):
            continue
        checked += 1
        readers = shown_to(game, before, seat, action, state, rng)
        if readers:
            raise ShownTooMuch(
                f"game {game.name!r}: seat {seat}'s move {action!r} may be taken back, yet it showed seat(s) "
                f"{readers} what they could not know (its events: {sorted({e.kind for e in events})}); declare "
                f"the revealing event (EventKind(..., reveals=True) or Game.revealing_events)")
    return checked


def shown_to(game: Game[Any], before: Any, seat: Seat, action: Action, after: Any, rng: random.Random) -> list[Seat]:
    """The readers who saw, after ``seat``'s ``action``, something they could not know before it."""
    readers = []
    for reader in range(game.num_players):
        seen = game.view(after, reader)
        knowledge = game.knowledge(before, reader)
        for _ in range(SAMPLES):
            sample = game.sample(knowledge, rng)
            if action not in game.legal_actions(sample, seat):
                continue  # another reader's draw gave the mover other choices: this move is not one of them
            game.apply(sample, seat, action)
            if game.view(sample, reader) != seen:
                readers.append(reader)
                break
    return readers
