"""The engine's declared flow (engine/flow.py, engine/sealed.py) on a toy game: sealed decisions,
sequential turns, an interlude, declared next phases and the checks on a declaration.
# issue #10 "Declared flow"
"""

from __future__ import annotations

from typing import Any

import pytest

from stammtisch.engine import sealed
from stammtisch.engine.flow import AUTOMATIC, NEXT, SEALED, SEQUENTIAL, STAY, WAIT, Flow, FlowGame, FlowState, Phase
from stammtisch.engine.protocol import Action, Event, Seat


class Toy(FlowState):
    """Two seats each seal a number; the higher takes turns counting to 3, with a bonus interlude
    whenever the count is 2; then the game is over."""

    __slots__ = ("phase", "actor", "done", "secret", "count", "bonus", "log")

    def __init__(self) -> None:
        self.phase = "seal"
        self.actor = -1
        self.done = sealed.open_decision(2)
        self.secret = [0, 0]
        self.count = 0
        self.bonus = False
        self.log: list[str] = []

    def current_phase(self) -> str:
        return self.phase

    def set_phase(self, name: str) -> None:
        self.phase = name

    def acting_seat(self) -> Seat:
        return self.actor


def seal(game: Any, s: Toy, seat: Seat, action: Action, events: list[Event]) -> None:
    s.secret[seat] = action[1]
    sealed.commit(s.done, seat, "number", events)


def reveal(game: Any, s: Toy, events: list[Event]) -> str:
    s.log.append(f"revealed {s.secret}")
    s.actor = 0 if s.secret[0] >= s.secret[1] else 1
    return NEXT


def settle_count(game: Any, s: Toy, events: list[Event]) -> str:
    if s.count == 2 and not s.log.count("bonus"):
        s.bonus = True
        return STAY
    return NEXT if s.count >= 3 else WAIT


def count(game: Any, s: Toy, seat: Seat, action: Action, events: list[Event]) -> None:
    s.count += 1


def pass_in_bonus(game: Any, s: Toy, seat: Seat, action: Action, events: list[Event]) -> None:
    s.log.append("bonus")
    s.bonus = False


def enter_count(game: Any, s: Toy, events: list[Event]) -> None:
    s.log.append("enter count")


SEAL = Phase("seal", "Seal", SEALED, legal=lambda g, s, seat: [("seal", 1), ("seal", 2)], moves={"seal": seal},
             reveal=reveal, next="count")
COUNT = Phase("count", "Count", SEQUENTIAL, enter=enter_count, legal=lambda g, s, seat: [("pass",)],
              moves={"pass": count}, settle=settle_count, next="over")
BONUS = Phase("bonus", "Bonus", SEQUENTIAL, active=lambda s: s.bonus, during=("count",),
              legal=lambda g, s, seat: [("pass",)],
              moves={"pass": pass_in_bonus})


class ToyGame(FlowGame[Toy]):
    name = "toy"
    flow = Flow((SEAL, COUNT), interludes=(BONUS,))

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return options

    def new_state(self, seed: int) -> tuple[Toy, list[Event]]:
        return Toy(), []

    def view(self, state: Toy, seat: Seat | None) -> dict[str, Any]:
        return {}

    def copy(self, state: Toy) -> Toy:
        raise NotImplementedError

    def scores(self, state: Toy) -> list[int]:
        return [0, 0]

    def knowledge(self, state: Toy, seat: Seat) -> dict[str, Any]:
        raise NotImplementedError

    def sample(self, knowledge: dict[str, Any], rng: Any) -> Toy:
        raise NotImplementedError

    @classmethod
    def action_codec(cls, num_players: int, options: Any = None) -> Any:
        raise NotImplementedError


GAME = ToyGame(2)


def test_a_sealed_phase_waits_for_every_seat_and_tells_only_that_a_seat_decided() -> None:
    s = Toy()
    assert GAME.to_act(s) == [0, 1] and GAME.sealed(s)
    events = GAME.apply(s, 1, ("seal", 2))
    assert [(e.kind, dict(e.params)) for e in events] == [("sealed_committed", {"seat": 1, "decision": "number"})]
    assert GAME.to_act(s) == [0] and s.phase == "seal" and not s.log
    assert GAME.legal_actions(s, 1) == []  # committed: nothing more to decide
    GAME.apply(s, 0, ("seal", 1))
    assert s.log == ["revealed [1, 2]", "enter count"]  # the reveal, then the declared next phase's entry
    assert s.phase == "count" and GAME.to_act(s) == [1] and not GAME.sealed(s)


def test_an_interlude_interrupts_the_phase_and_the_phase_carries_on() -> None:
    s = Toy()
    GAME.apply(s, 0, ("seal", 2))
    GAME.apply(s, 1, ("seal", 1))
    assert GAME.legal_actions(s, 1) == []  # not this seat's turn
    GAME.apply(s, 0, ("pass",))
    GAME.apply(s, 0, ("pass",))
    assert s.bonus and GAME.flow.current(s) is BONUS
    GAME.apply(s, 0, ("pass",))  # the same action name, the interlude's move
    assert s.log[-1] == "bonus" and s.count == 2 and GAME.flow.current(s) is COUNT
    GAME.apply(s, 0, ("pass",))
    assert GAME.is_over(s) and GAME.to_act(s) == [] and GAME.legal_actions(s, 0) == []


def test_a_declaration_that_cannot_run_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Flow((SEAL, SEAL))
    with pytest.raises(ValueError, match="at least one phase"):
        Flow(())
    with pytest.raises(ValueError, match="is not declared"):
        Flow((SEAL,))  # its next phase, count, is missing
    with pytest.raises(ValueError, match="no reveal"):
        Phase("x", "X", SEALED, legal=lambda g, s, seat: [], moves={"a": count})
    with pytest.raises(ValueError, match="legal and moves"):
        Phase("x", "X", SEQUENTIAL, settle=settle_count)
    with pytest.raises(ValueError, match="go together"):
        Phase("x", "X", SEQUENTIAL, legal=lambda g, s, seat: [], moves={"a": count}, active=lambda s: True)
    with pytest.raises(ValueError, match="unknown kind"):
        Phase("x", "X", "parallel")
    Phase("x", "X", AUTOMATIC, settle=settle_count)  # nobody decides: settle is enough


def test_declared_stages_name_what_the_state_may_hold() -> None:
    # issue 28: the steps inside a phase are declared (as boardgame.io's stages), not strings by hand
    staged = Phase("auto", "Auto", AUTOMATIC, settle=settle_count, stages=("first", "second"))
    with pytest.raises(ValueError, match="names no stage attribute"):
        Flow((staged,))
    with pytest.raises(ValueError, match="stage declared twice"):
        Phase("x", "X", AUTOMATIC, settle=settle_count, stages=("first", "first"))
    flow = Flow((staged,), stage="stage")
    s = Staged()
    s.phase, s.stage = "auto", "second"
    assert flow.undeclared_stage(s) is None
    s.stage = "third"
    assert flow.undeclared_stage(s) == "phase auto is in stage 'third', which it does not declare"
    s.phase = "seal"  # a phase of another flow, or one that declares no stages: nothing to check
    assert flow.undeclared_stage(s) is None


class Staged(Toy):
    __slots__ = ("stage",)


def test_a_sealed_decision_can_be_opened_for_some_seats_only() -> None:
    committed = sealed.open_decision(4, [1, 3])
    assert sealed.waiting(committed) == [1, 3]
    events: list[Event] = []
    sealed.commit(committed, 3, "bid", events)
    assert sealed.waiting(committed) == [1] and events[0].seats is None  # public: that, not what


def test_entering_an_undeclared_phase_is_refused_and_changes_nothing() -> None:
    s = Toy()
    with pytest.raises(ValueError, match="not declared"):
        GAME.flow.enter(GAME, s, "nowhere", [])
    assert s.phase == "seal"


def test_a_phase_name_read_back_from_a_record_finds_its_phase() -> None:
    """The flow tries the phase it found last by identity first; an equal name that is another
    string object (read from a snapshot or a record) finds the same phase."""
    s = Toy()
    GAME.apply(s, 0, ("seal", 2))
    GAME.apply(s, 1, ("seal", 1))
    s.phase = "".join(["co", "unt"])
    assert s.phase == "count" and s.phase is not COUNT.name
    assert GAME.flow.named(s.phase) is COUNT and GAME.to_act(s) == [0]
    GAME.apply(s, 0, ("pass",))
    assert s.count == 1


@pytest.mark.parametrize(("name", "players", "options"), [
    ("diemacher", 4, {"elections": 7}), ("glueckauf", 3, {"count_printed_carts": False})])
def test_a_game_pickles_as_its_table(name: str, players: int, options: dict[str, Any]) -> None:
    """Worker processes get games by pickle: a game comes back as the same table (players,
    options), though its flow holds functions and lambdas that do not pickle."""
    import pickle

    from stammtisch.registry import game_class

    for game in (GAME, game_class(name)(players, options)):
        again = pickle.loads(pickle.dumps(game))
        assert type(again) is type(game) and again.num_players == game.num_players
        assert again.options == game.options and again.flow is game.flow
    state, _events = again.new_state(5)
    assert again.legal_actions(state, again.to_act(state)[0]) == game.legal_actions(state, game.to_act(state)[0])


def test_is_legal_asks_the_phases_allows_only_for_a_tuple_naming_one_of_its_moves() -> None:
    asked: list[Any] = []

    def allows(game: Any, s: Toy, seat: Seat, action: Action) -> bool:
        asked.append(action)
        return True

    counting = Phase("count", "Count", SEQUENTIAL, legal=lambda g, s, seat: [("pass",)], allows=allows,
                     moves={"pass": count}, settle=settle_count, next="over")

    class Allowing(ToyGame):
        flow = Flow((SEAL, counting))

    game = Allowing(2)
    s = Toy()
    assert game.is_legal(s, 0, ("seal", 1)) and not game.is_legal(s, 0, ("seal", True))  # no allows: the list
    game.apply(s, 0, ("seal", 2))
    game.apply(s, 1, ("seal", 1))
    assert game.is_legal(s, 0, ("pass",)) and asked == [("pass",)]
    for seat, action in [(1, ("pass",)), (0, ["pass"]), (0, ("count",)), (0, ()), (0, "pass"), (0, (1,))]:
        assert not game.is_legal(s, seat, action)  # not to act, not a tuple, or no move of the phase
    assert asked == [("pass",)]
    with pytest.raises(ValueError, match="allows answers for a legal list"):
        Phase("x", "X", AUTOMATIC, settle=settle_count, allows=allows)
