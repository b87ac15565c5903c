"""What the conformance suite needs of each game beyond the protocol, read through the registry: the
game's ``conformance`` module (``GameSpec.conformance``, games/<g>/conformance.py), with generic
defaults for whatever it leaves out, so the suite runs every registered game and no file here names
one (docs/adding-a-game.md, "Conformance hooks").

A conformance module may define (all optional):

- ``OPTION_SETS``: the option sets to play at every player count (default: the defaults, ``[{}]``);
- ``invariants(game, state)``: asserts what holds in every state (default: nothing);
- ``scramble(game, state, seat, rng)``: a state that differs from ``state`` only in what ``seat``'s view
  does not show, and ``scramble_secrets(...)``: only in what the seat cannot know even from the public
  record (default for both: ``game.resample``, which changes exactly those);
- ``hidden_places(game, state, seat)``: the seat's secrets by name, as snapshot paths, and
  ``unordered(state)``: lists whose order no rule reads (default: none; the checks that compare
  samples place by place then compare the views and the knowledge only);
- ``STARTED_AFRESH``, ``SECRETS``: secrets a sampler starts afresh rather than draws, and secrets random
  games must see drawn anew; ``committed(state)``, ``choices(game, state, seat)``, ``secret(state, seat)``
  and ``SEALED_MET``: the sealed choices a secret scrambler must make again differently;
- ``GOLDEN``: the golden master's cases ``(case, players, options, seeds, digest)`` and
  ``CHEAP_KINDS``: kinds of action its random player mostly plays low (tests/conformance/golden.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from stammtisch.registry import game_spec, games

Scrambler = Callable[[Any, Any, int, random.Random], Any]


def resampled(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """The generic scrambler: a sample of the seat's knowledge differs only in what it cannot know."""
    return game.resample(state, seat, rng)


def no_invariants(game: Any, state: Any) -> None:
    return None


def nothing_unordered(state: Any) -> list[str]:
    return []


@dataclass(frozen=True)
class Hooks:
    option_sets: list[dict[str, Any]]
    invariants: Callable[[Any, Any], None]
    scramble: Scrambler
    scramble_secrets: Scrambler
    hidden_places: Callable[[Any, Any, int], dict[str, list[str]]] | None
    unordered: Callable[[Any], list[str]]
    started_afresh: frozenset[str]
    secrets: frozenset[str]
    committed: Callable[[Any], list[int]] | None
    choices: Callable[..., set[tuple[int, ...]]] | None
    secret: Callable[[Any, int], list[int]] | None
    sealed_met: frozenset[str]
    golden: list[tuple[str, int, dict[str, Any], tuple[int, ...], str]]
    cheap_kinds: tuple[str, ...]


@cache
def hooks(name: str) -> Hooks:
    module = game_spec(name).conformance_module()

    def get(attribute: str, default: Any) -> Any:
        return getattr(module, attribute, default) if module is not None else default

    return Hooks(
        option_sets=list(get("OPTION_SETS", [{}])),
        invariants=get("invariants", no_invariants),
        scramble=get("scramble", resampled),
        scramble_secrets=get("scramble_secrets", resampled),
        hidden_places=get("hidden_places", None),
        unordered=get("unordered", nothing_unordered),
        started_afresh=frozenset(get("STARTED_AFRESH", ())),
        secrets=frozenset(get("SECRETS", ())),
        committed=get("committed", None),
        choices=get("choices", None),
        secret=get("secret", None),
        sealed_met=frozenset(get("SEALED_MET", ())),
        golden=list(get("GOLDEN", [])),
        cheap_kinds=tuple(get("CHEAP_KINDS", ())),
    )


def golden_cases() -> list[tuple[str, str, int, dict[str, Any], tuple[int, ...], str]]:
    """(game, case, players, options, seeds, digest) of every game's golden master."""
    return [(name, *case) for name in games() for case in hooks(name).golden]
