"""Games across an upgrade of the rules (issue 16; docs/operations.md, "Rules versions").

A table names the rules version its game is played under (GameSpec.rules_version, stored with the
table).  On start, a running game whose version this release cannot replay exactly — or whose log no
longer replays — is finished as "interrupted": its record stays downloadable (it names its rules
version, so the release that wrote it replays it), and the lobby and table page say what happened.
"""

from __future__ import annotations

import logging
from typing import Any

from stammtisch.engine.protocol import Action, Seat
from stammtisch.engine.record import Header, Record, action_from_json
from stammtisch.registry import GameSpec, UnknownGame, game_spec
from stammtisch.server.store import MoveRow, Store, TableRow

log = logging.getLogger("stammtisch.server")
INTERRUPTED = "interrupted"


def replays(row: TableRow, spec: GameSpec, entries: list[MoveRow]) -> bool:
    """Whether the table's log replays under ``spec``'s rules (a version they declare they replay)."""
    from stammtisch.engine.match import replay

    record = Record(Header(row.game, row.players, dict(row.options), row.seed, rules_version=row.rules_version),
                    moves_in_force(entries))
    try:
        for _ in replay(record, lambda name, players, options: spec.make(players, options)):
            pass
    except Exception:  # whatever fails, the game does not go on: interrupt rather than show a wrong board
        log.warning("table %s does not replay under %s rules version %s", row.id, row.game, spec.rules_version,
                    exc_info=True)
        return False
    return True


async def interrupt_outdated(store: Store) -> list[str]:
    """Finish the running games that cannot go on exactly under this release's rules; their ids."""
    interrupted = []
    for row in await store.running():
        spec = _spec(row.game)
        if spec is not None and row.rules_version == spec.rules_version:
            continue
        if spec is not None and spec.can_replay(row.rules_version) and replays(row, spec, await store.moves(row.id)):
            continue
        if await store.interrupt(row.id):
            log.warning("table %s (%s, rules version %s) interrupted: this release plays rules version %s",
                        row.id, row.game, row.rules_version, spec.rules_version if spec else "none")
            interrupted.append(row.id)
    return interrupted


def _spec(game: str) -> GameSpec | None:
    try:
        return game_spec(game)
    except UnknownGame:
        return None


def moves_in_force(entries: list[MoveRow]) -> list[tuple[Seat, Action]]:
    """The record's moves from the log: a take-back (an entry without action) removes the last move."""
    moves: list[tuple[Seat, Action]] = []
    for entry in entries:
        if entry.action is None:
            if moves:
                moves.pop()
        else:
            moves.append((entry.seat, action_from_json(entry.action)))
    return moves


def interrupted_info(row: TableRow) -> dict[str, Any]:
    """What the lobby and the table page say about an interrupted game."""
    spec = _spec(row.game)
    return {"reason": "upgrade", "rules_version": row.rules_version, "now": spec.rules_version if spec else None}
