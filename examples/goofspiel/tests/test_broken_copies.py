"""Deliberately broken copies of Goofspiel (issue 28, "Done when"): each is refused at registration,
or fails the conformance suite's take-back property, with a message that names the cause."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from stammtisch_goofspiel.rules import Goofspiel
from stammtisch_goofspiel.spec import SPEC
from stammtisch_goofspiel.state import State

from stammtisch import contract
from stammtisch.engine.chance import Chance
from stammtisch.engine.protocol import Event
from stammtisch.engine.sealed import COMMITTED


class NoReveals(Goofspiel):
    """Its reveal set is empty: the bids and the next prize are shown by events it does not declare."""

    def reveals(self, event: Event) -> bool:
        return event.seats is not None


class MisnamedGenerator(Goofspiel):
    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        state, events = super().new_state(seed)
        del state.chance  # as if the game kept its generator under another name
        return state, events


class NeverStarted(Goofspiel):
    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        state = State.new(Chance(seed), list(range(1, 14)), self.num_players)
        return state, []  # no Flow.start: nobody was asked to bid


def silent_text(event: Event, view: Any, names: Any) -> str:
    return event.kind.replace("_", " ")


def test_the_example_keeps_the_contract() -> None:
    contract.check(SPEC)
    for seed in (1, 2, 3):
        contract.take_back_leaks(Goofspiel(3), seed)


def test_an_empty_reveal_set_fails_the_take_back_property() -> None:
    # the last seat to bid could take its bid back after everybody's bids were shown
    with pytest.raises(contract.ShownTooMuch, match="'goofspiel': seat .* may be taken back.*bids_revealed"):
        contract.take_back_leaks(NoReveals(2), 1)


def test_a_misnamed_generator_is_refused_at_registration() -> None:
    with pytest.raises(contract.ContractError, match=r"game 'goofspiel'.*`state.chance`"):
        contract.check(dataclasses.replace(SPEC, game=MisnamedGenerator))


def test_a_missing_module_is_refused_at_registration() -> None:
    with pytest.raises(contract.ContractError, match="game 'goofspiel'.*text module stammtisch_goofspiel.board"):
        contract.check(dataclasses.replace(SPEC, text="stammtisch_goofspiel.board"))


def test_a_flow_never_started_is_refused_at_registration() -> None:
    with pytest.raises(contract.ContractError, match="game 'goofspiel'.*Flow.start"):
        contract.check(dataclasses.replace(SPEC, game=NeverStarted))


def test_text_without_the_sealed_sentence_is_refused_at_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    from stammtisch_goofspiel import text

    monkeypatch.setattr(text, "describe_event", silent_text)
    with pytest.raises(contract.ContractError, match=f"game 'goofspiel'.*{COMMITTED.kind}"):
        contract.check(SPEC)
