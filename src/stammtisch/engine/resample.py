"""Shared steps of resampling hidden information (``Game.resample``, docs/engine.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

from stammtisch.engine.chance import Chance

T = TypeVar("T")


class ResampleError(AssertionError):
    """The hidden places of a state do not fit the items its seat cannot see: a bug in a sampler."""


def deal(unseen: Iterable[Any], rng: random.Random, sizes: list[int]) -> list[list[Any]]:
    """Shuffle the items a seat cannot see and cut them into parts of the given (public) sizes.

    The items are sorted first, so the result depends only on their multiset and ``rng``, never
    on where they actually lie."""
    pool = sorted(unseen)
    if sum(sizes) != len(pool):
        raise ResampleError(f"{len(pool)} unseen items for hidden places of sizes {sizes}")
    rng.shuffle(pool)
    parts, start = [], 0
    for size in sizes:
        parts.append(pool[start:start + size])
        start += size
    return parts


def reseeded(rng: random.Random) -> Chance:
    """A fresh chance generator: the future draws of a sample are unknown."""
    return Chance(rng.getrandbits(63))
