"""A guided table's progress through its guide ("Learn to play", stammtisch/guide.py), kept beside the table:
built once by replaying the table's own log, then following each entry. Nothing is stored: a reload, another
process or a restart derives the same steps from the same moves."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Event
from stammtisch.guide import Guide, Progress, guided, progress_json
from stammtisch.registry import games
from stammtisch.server.livetable import LiveTable


class TableGuide:
    def __init__(self, guide: Guide, table: LiveTable) -> None:
        assert table.match is not None
        self.guide = guide
        self.progress = Progress(guide)
        match = Match(table.match.game, table.row.seed, undo=True)
        self.progress.follow(match.game, match.state, match.setup_events, 0, None)
        while match.version < table.version:
            seat, action = table.match.log[match.version]
            events = match.enter(seat, action)
            self.progress.follow(match.game, match.state, events, match.version, seat)

    def follow(self, table: LiveTable, events: list[Event]) -> None:
        match = table.match
        assert match is not None
        self.progress.follow(match.game, match.state, events, match.version, match.log[match.version - 1][0])


def guide_of(table: LiveTable) -> TableGuide | None:
    """The table's guide progress, or None: not a guided table (or not started, or a game no longer here)."""
    if table.match is None or not guided(table.match.game) or table.row.game not in games():
        return None
    found: TableGuide | None = table.caches.get("guide")
    if found is None:
        guide = games()[table.row.game].guide_script()
        if guide is None:
            return None
        found = table.caches["guide"] = TableGuide(guide, table)
        table.on_entry.append(found.follow)
    return found


def guide_message(table: LiveTable, view: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """The ``guide`` of a state message in the current language (docs/api.md), or None."""
    found = guide_of(table)
    return None if found is None else progress_json(found.guide, found.progress, view, names)
