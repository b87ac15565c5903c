"""The server playing its bots and stand-ins: one claim per table among processes, a move per turn."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from stammtisch.bots.base import SearchBot, decide
from stammtisch.engine.protocol import Action, Seat
from stammtisch.server.bots import default_bot_kind, make_bot
from stammtisch.server.hubcore import HubCore
from stammtisch.server.livetable import LiveTable
from stammtisch.server.messages import ApiError

log = logging.getLogger("stammtisch.server")

BOTS_ELSEWHERE = 10.0  # seconds before asking again whether another process still plays a table's bots


class BotPlaying(HubCore):
    """Bots' and stand-ins' moves, played by the process that claimed the table."""

    def kick_bots(self, table: LiveTable) -> None:
        if self._closing or table.status != "running":
            return
        if not any(table.plays_itself(s) for s in table.seats):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._bot_loop(table))

    async def _play_unplayed_bots(self) -> None:
        """The running tables with bots or stand-ins that no process plays: started by another process,
        or played by one that has ended (its claims ended with it)."""
        self._elsewhere.clear()
        for table_id in await self.store.running_with_bots():
            table = self.tables.get(table_id)
            if table is not None:
                self.kick_bots(table)
            elif await self._plays_bots(table_id):
                self.kick_bots(await self.get(table_id))

    async def _bot_loop(self, table: LiveTable) -> None:
        claimed_now = table.id not in self._bot_tables
        if not await self._plays_bots(table.id):
            return  # another process plays them (issue 26: both played every stand-in, one lost every race)
        if claimed_now and self.shared:  # the process that played them until now may just have ended the game
            async with table.lock:
                await self.refresh(table)
        try:
            await self._play_bots(table)
        finally:
            if table.status != "running":
                self._let_go_of_bots(table.id)

    async def _plays_bots(self, table_id: str) -> bool:
        """Whether this process plays the table's bots and stand-ins: of several processes, the first to
        claim the table does until it forgets the table or the game ends (or the process ends)."""
        if table_id not in self._bot_tables:
            if self._elsewhere.get(table_id, 0.0) > time.monotonic():  # (not asked again at every move)
                return False
            if self.hold is None or not await self._claim_bots(table_id):
                self._elsewhere[table_id] = time.monotonic() + BOTS_ELSEWHERE
                return False
            self._elsewhere.pop(table_id, None)
            self._bot_tables.add(table_id)
        return True

    async def _claim_bots(self, table_id: str) -> bool:
        assert self.hold is not None
        try:
            return await asyncio.to_thread(self.hold.take_table, table_id)
        except Exception as error:  # the claim cannot be asked for: play (a move is committed once all the same)
            log.warning("claiming the bots of table %s: %s", table_id, error)
            return True

    def _let_go_of_bots(self, table_id: str) -> None:
        if table_id in self._bot_tables and self.hold is not None:
            self._bot_tables.discard(table_id)
            task = asyncio.ensure_future(asyncio.to_thread(self.hold.release_table, table_id))
            self._letting_go.add(task)
            task.add_done_callback(self._letting_go.discard)

    async def _play_bots(self, table: LiveTable) -> None:
        failures = 0
        while table.status == "running" and table.game is not None and not self._closing:
            seats = [s for s in table.game.to_act(table.state) if table.plays_itself(s)]
            if not seats:
                return
            await asyncio.sleep(self.config.bot_delay)
            seats = [s for s in table.game.to_act(table.state) if s in seats]
            if not seats or table.status != "running":
                continue
            try:
                standin = table.standin_kind() if seats[0] in table.standins else None
                await self.act(table, seats[0], await self._bot_move(table, seats[0]), table.move_no(seats[0]), standin)
                failures = 0
            except ApiError as error:  # a lost race (another process played) is no news
                failures += 1
                log.log(logging.DEBUG if error.status == 409 else logging.WARNING, "bot at table %s seat %s: %s",
                        table.id, seats[0], error.message)
            except Exception:  # a database hiccup: wait and try again
                failures += 1
                log.exception("bot at table %s seat %s", table.id, seats[0])
            if failures:
                if failures > 20:
                    log.error("bot at table %s seat %s stops after %d failed moves in a row", table.id, seats[0],
                              failures)
                    return
                await asyncio.sleep(0.05 * failures)

    async def _bot_move(self, table: LiveTable, seat: Seat) -> Action:
        """The bot's choice.  A search bot thinks in a worker process (server/thinking.py) from a
        snapshot of its seat's knowledge; if it takes longer than the time limit or fails, the game's
        default (heuristic) bot decides instead.  A choice that fails or is not legal is logged and
        replaced by a random legal action, so that a table never waits for a bot that cannot move."""
        assert table.match is not None
        legal = table.match.legal_actions(seat)
        kind = table.standin_kind() if seat in table.standins else table.seats[seat].bot_kind or "random"
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = make_bot(table.row.game, kind, secrets.randbelow(2**31))
        if not legal:
            raise ApiError(500, "stalled", f"seat {seat} is to act but has no legal action")
        fallback = legal[secrets.randbelow(len(legal))]
        if isinstance(bot, SearchBot) and len(legal) > 1:
            try:
                action = await self.thinkers.decide(table.match.game, table.match.state, seat, legal, kind,
                                                    secrets.randbelow(2**31))
                return self._legal_or(fallback, action, table, seat, kind)
            except Exception as error:
                log.warning("%s bot at table %s seat %s: %s; the %s bot decides instead", kind, table.id, seat,
                            "no decision in time" if isinstance(error, TimeoutError) else repr(error),
                            default_bot_kind(table.row.game))
                bot = make_bot(table.row.game, default_bot_kind(table.row.game), secrets.randbelow(2**31))
        try:
            action = decide(bot, table.match.game, table.match.state, seat, legal)
        except Exception:
            log.exception("%s bot at table %s seat %s failed; it plays a random legal action instead", kind, table.id,
                          seat)  # (never the action: the log may not show a seat's secrets)
            return fallback
        return self._legal_or(fallback, action, table, seat, kind)

    @staticmethod
    def _legal_or(fallback: Action, action: Action, table: LiveTable, seat: Seat, kind: str) -> Action:
        assert table.match is not None
        if action not in table.match.legal_actions(seat):
            log.error("%s bot at table %s seat %s chose an action that is not legal; it plays a random legal one "
                      "instead", kind, table.id, seat)
            return fallback
        return action
