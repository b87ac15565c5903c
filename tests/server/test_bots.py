"""Server bots that fail: the table goes on (issue #9, "a bot's move fails")."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from stammtisch.bots.base import RandomBot
from stammtisch.engine.protocol import Action
from stammtisch.registry import game_spec, games
from stammtisch.server import botplay
from stammtisch.server.config import Config
from stammtisch.server.tables import Hub


class FaultyBot(RandomBot):
    """Raises, or chooses something illegal, on most of its turns."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.turns = 0

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        self.turns += 1
        if self.turns % 3 == 1:
            raise RuntimeError("the bot tripped")
        if self.turns % 3 == 2:
            return ("fly", 1)
        return super().choose(view, legal)


async def play_with_faulty_bots(tmp_path: Path) -> str:
    hub = Hub(Config(data_dir=tmp_path, bot_delay=0))
    await hub.open()
    try:
        created = await hub.create_table({"game": "glueckauf", "players": 2, "options": {}})
        table = await hub.get(created["table_id"])
        for seat in (0, 1):
            await hub.add_bot(table, created["host_token"], {"seat": seat, "kind": "random"})
        await hub.start(table, created["host_token"])
        while table.status == "running":
            assert table.bot_task is not None
            if table.bot_task.done():  # the loop ended while seats still have to act
                return "stalled"
            await asyncio.sleep(0.01)
        return table.status
    finally:
        await hub.close()


# issue #9: "When a bot's move fails, the bot loop dies without a log line and the table stalls forever."
def test_a_failing_bot_is_logged_and_its_table_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(botplay, "make_bot", lambda game, kind, seed: FaultyBot(seed))
    with caplog.at_level(logging.WARNING, logger="stammtisch.server"):
        assert asyncio.run(play_with_faulty_bots(tmp_path)) == "finished"
    messages = [r.getMessage() for r in caplog.records]
    assert any("the bot tripped" in m or "failed" in m for m in messages), messages[:5]
    assert any("not legal" in m for m in messages), messages[:5]


async def play_with_bots(tmp_path: Path, name: str) -> tuple[str, int]:
    spec = game_spec(name)
    hub = Hub(Config(data_dir=tmp_path, bot_delay=0))
    await hub.open()
    try:
        created = await hub.create_table({"game": name, "players": spec.min_players, "options": {}})
        table = await hub.get(created["table_id"])
        for seat in range(spec.min_players):
            await hub.add_bot(table, created["host_token"], {"seat": seat, "kind": spec.default_bot()})
        await hub.start(table, created["host_token"])
        while table.status == "running":
            assert table.bot_task is not None
            if table.bot_task.done():
                return "stalled", len(table.match.record.moves)
            await asyncio.sleep(0.01)
        return table.status, len(table.match.record.moves)
    finally:
        await hub.close()


@pytest.mark.parametrize("name", sorted(games()))
def test_every_registered_game_plays_to_its_end_at_a_table_of_bots(tmp_path: Path, name: str) -> None:
    # issue 28 item 4: a game installed from another distribution (examples/) plays at a server table too
    status, moves = asyncio.run(play_with_bots(tmp_path, name))
    assert status == "finished" and moves > 0
