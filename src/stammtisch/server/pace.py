"""A table's pace and its players' clocks (issue 15).

A table is untimed (the default), real-time (a chess clock per seat: ``base`` seconds, plus
``increment`` after each of the seat's moves) or turn-based (``per_move`` seconds for each
decision).  Clocks are never kept by timers: they are computed from stored times — when the game
started, when each log entry was committed, when a seat's player came back — by replaying them in
order, so that every process and a restarted server compute the same deadlines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stammtisch.engine.protocol import Seat
from stammtisch.server.messages import bad_request

MODES = ("untimed", "realtime", "turn")
MAX_SECONDS = 30 * 24 * 3600
# A player who takes back a seat whose real-time clock ran out gets this much (plus the increment).
RETURN_GRACE = 60.0
# Why a stand-in holds a seat: its clock ran out, its player left the game, or asked to be replaced.
REASONS = ("timeout", "left", "asked")
# A player is warned (e-mail, browser notification) when this share of a decision's time is left.
WARN_SHARE = 0.25


@dataclass(frozen=True)
class Pace:
    mode: str = "untimed"
    base: float = 0.0  # real-time: seconds on each clock at the start
    increment: float = 0.0  # real-time: seconds added after each of the seat's moves
    per_move: float = 0.0  # turn-based: seconds for each decision

    @property
    def timed(self) -> bool:
        return self.mode != "untimed"

    def to_json(self) -> dict[str, Any]:
        if self.mode == "realtime":
            return {"mode": self.mode, "base": self.base, "increment": self.increment}
        if self.mode == "turn":
            return {"mode": self.mode, "per_move": self.per_move}
        return {"mode": self.mode}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Pace:
        """A pace from a client's ``pace`` field (checked: a clear 400 for anything off)."""
        data = {key: value for key, value in (data or {}).items() if value is not None}
        if not data:
            return Pace()
        mode = data.get("mode", "untimed")
        if mode not in MODES:
            raise bad_request(f"pace mode must be one of {', '.join(MODES)}, not {mode!r}")
        wanted = {"untimed": set(), "realtime": {"base", "increment"}, "turn": {"per_move"}}[mode]
        extra = set(data) - wanted - {"mode"}
        if extra:
            raise bad_request(f"pace {mode} takes no {sorted(extra)[0]}")
        values = {name: _seconds(data.get(name, 0), f"pace {name}") for name in wanted}
        if mode == "realtime" and values["base"] < 1:
            raise bad_request("pace base must be at least 1 second")
        if mode == "turn" and values["per_move"] < 1:
            raise bad_request("pace per_move must be at least 1 second")
        return Pace(mode, **values)


def _seconds(value: Any, what: str) -> float:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SECONDS:
        raise bad_request(f"{what} must be whole seconds from 0 to {MAX_SECONDS}, not {value!r}")
    return float(value)


@dataclass
class Clocks:
    """Each seat's time: ``bank`` (real-time: seconds left when it began waiting, or now if it is not
    waiting) and ``since`` (when it began waiting for its decision; None while not to act)."""

    pace: Pace
    players: int
    bank: list[float] = field(default_factory=list)
    since: list[float | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bank = [self.pace.base] * self.players
        self.since = [None] * self.players

    def start(self, to_act: list[Seat], at: float) -> None:
        for seat in to_act:
            self.since[seat] = at

    def entry(self, seat: Seat, to_act: list[Seat], at: float) -> None:
        """Log entry by ``seat`` committed at ``at``, after which ``to_act`` are to act: each seat that
        stops waiting is charged its time; the mover gets its increment; new waiters start now."""
        for other in range(self.players):
            began = self.since[other]
            if began is None or (other != seat and other in to_act):
                continue
            if self.pace.mode == "realtime":
                self.bank[other] = max(0.0, self.bank[other] - (at - began))
                if other == seat:
                    self.bank[other] += self.pace.increment
            self.since[other] = None
        for waiting in to_act:
            if self.since[waiting] is None:
                self.since[waiting] = at

    def returned(self, seat: Seat, at: float) -> None:
        """The seat's player took it back: a fresh decision time, at least a minute (real-time: plus
        the increment), so that the stand-in does not take it again while the page opens."""
        if self.pace.mode == "realtime":
            began = self.since[seat]
            left = self.bank[seat] - (0.0 if began is None else at - began)
            self.bank[seat] = max(left, RETURN_GRACE + self.pace.increment)
        if self.since[seat] is not None:  # turn-based: the deadline is since + per_move
            self.since[seat] = at + max(0.0, RETURN_GRACE - self.pace.per_move) if self.pace.mode == "turn" else at

    def deadline(self, seat: Seat) -> float | None:
        began = self.since[seat]
        if began is None or not self.pace.timed:
            return None
        return began + (self.bank[seat] if self.pace.mode == "realtime" else self.pace.per_move)

    def warning(self, seat: Seat) -> float | None:
        """When the seat's player is warned that its time runs low (server/notify.py, the browser): once
        ``WARN_SHARE`` of the time it had for this decision is left."""
        deadline = self.deadline(seat)
        if deadline is None:
            return None
        full = self.bank[seat] if self.pace.mode == "realtime" else self.pace.per_move
        return deadline - WARN_SHARE * full

    def to_json(self) -> list[dict[str, Any]]:
        """Per seat: ``deadline`` (epoch seconds) while its time runs, ``warn`` (when its player is
        warned, see ``warning``), and real-time ``left`` (seconds on its clock when it is not running).
        Absolute times: the same message is right until the next change, and each reader counts down
        on its own."""
        return [{"seat": seat, "deadline": self.deadline(seat), "warn": self.warning(seat),
                 "left": round(self.bank[seat], 1) if self.pace.mode == "realtime" else None}
                for seat in range(self.players)]
