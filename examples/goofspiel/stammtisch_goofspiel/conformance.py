"""What the conformance suite needs of Goofspiel beyond the protocol (tests/conformance/hooks.py reads it
through the registry): the invariants and the seat's secrets as places of the snapshot.  Scramblers
are the generic ones (a sample of the seat's knowledge)."""

from __future__ import annotations

from typing import Any

from stammtisch_goofspiel.state import BID, CARDS, NO_BID

SECRETS = frozenset({"chance", "deck"})


def invariants(game: Any, s: Any) -> None:
    """Thirteen prizes, each somewhere; every hand one card for each prize still to bid for."""
    prizes = s.deck + s.discarded + [p for won in s.won for p in won] + ([s.prize] if s.prize else [])
    assert sorted(prizes) == list(CARDS), "thirteen prizes"
    left = len(s.deck) + (1 if s.prize else 0)
    for seat, hand in enumerate(s.hands):
        assert len(hand) == left and set(hand) <= set(CARDS)
        assert s.bids[seat] == NO_BID or (s.phase == BID and s.done[seat] and s.bids[seat] in hand)


def hidden_places(game: Any, s: Any, seat: int) -> dict[str, list[str]]:
    """The prizes' order, the other seats' sealed bids and the generator."""
    places = {"chance": ["chance"], "deck": ["deck"],
              "other_bids": [f"bids.{other}" for other in range(len(s.hands)) if other != seat and s.done[other]
                             and s.phase == BID]}
    return {name: paths for name, paths in places.items() if paths}
