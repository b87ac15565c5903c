"""Playing at a table: whose token holds which seat, the state messages, moves, take-backs, hints, the record."""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from stammtisch import i18n
from stammtisch.bots.hints import HINT_KIND, hints_allowed, why
from stammtisch.bots.ismcts import Estimate
from stammtisch.engine.match import Move, unpack
from stammtisch.engine.protocol import Action, IllegalAction, Seat
from stammtisch.engine.record import Header, Record, action_to_json
from stammtisch.server.hubcore import HubCore
from stammtisch.server.livetable import LiveTable, Subscriber, conflict, left_the_game
from stammtisch.server.messages import ApiError
from stammtisch.server.store import Conflict
from stammtisch.server.upgrade import INTERRUPTED


class Playing(HubCore):
    """Moves and take-backs: validated, committed, then put in force; what each seat is sent."""

    def seat_of(self, table: LiveTable, token: str | None) -> Seat:
        if not token:
            raise ApiError(401, "no_token", "acting needs your seat token (Authorization: Bearer …); "
                                            "without one you can only watch")
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(403, "wrong_token", "that token holds no seat at this table")
        if table.left_for_good(seat):
            raise left_the_game()
        return seat

    def seat_lost(self, table: LiveTable, sub: Subscriber) -> ApiError | None:
        """Why a socket's token no longer holds the seat it watches (its player left the game for good,
        or the seat went to somebody else), or None: such a socket is closed, never shown the seat again."""
        if sub.seat is None:
            return None
        try:
            self.seat_of(table, sub.token)
        except ApiError as error:
            return error
        return None

    def viewer(self, table: LiveTable, token: str | None) -> Seat | None:
        """The seat a token holds, or None (a spectator) when there is no token."""
        return None if not token else self.seat_of(table, token)

    def state_message(self, table: LiveTable, seat: Seat | None, since: int | None = None,
                      entries: bool = False) -> dict[str, Any]:
        """``entries``: each event also names its log entry and the seat whose move that is (the
        browser's log, docs/web.md)."""
        message: dict[str, Any] = {"type": "state", "table": table.info(), "seat": seat, "status": table.status,
                                   "move_no": table.move_no(seat)}
        game = table.game
        if game is None:
            message.update(view=None, legal=[], to_act=[], undo_allowed=False, events=[])
            return message
        assert table.match is not None
        to_act = table.to_act()
        legal = table.match.legal_actions(seat) if seat is not None and seat in to_act else []
        first = table.version + 1 if since is None else max(0, min(since + 1, table.version + 1))
        events = []
        for n, entry in enumerate(table.match.events[first:], first):
            for event in unpack(entry, seat):
                if entries:
                    event["entry"], event["by"] = n, table.match.log[n - 1][0] if n else None
                events.append(self._event(event, n in table.standin_entries))
        message.update(view=table.view(seat), legal=[action_to_json(a) for a in legal], to_act=list(to_act),
                       undo_allowed=table.undo_allowed(seat), events=events)
        if table.status == "finished":
            message["scores"] = game.scores(table.state)
        return message

    @staticmethod
    def _event(event: dict[str, Any], standin: bool) -> dict[str, Any]:
        """An event as sent; ``standin``: of a move a stand-in made for an absent player (issue 15)."""
        if standin:
            event["standin"] = True
        return event

    def _check_turn(self, table: LiveTable, seat: Seat, move_no: int) -> None:
        if table.status == "open":
            raise conflict("the game has not started yet")
        if table.status != "running":
            raise ApiError(422, "illegal", "the game is over")
        current = table.move_no(seat)
        if move_no > current:
            raise conflict(f"move_no {move_no} is ahead of the table, which is at move {current}")
        if table.last_by_seat.get(seat, 0) > table.entry_of(seat, move_no):
            raise conflict(f"your seat has acted since move {move_no} (the table is at move {current}); "
                           "decide again on the current state")

    async def act(self, table: LiveTable, seat: Seat, action: Action, move_no: int, standin: str | None = None) -> int:
        """Validate, commit, then apply: the returned move number is committed.  ``standin``: the
        stand-in's bot kind when a stand-in moves for the seat (only while it holds the seat)."""

        async def write() -> tuple[Move, float]:
            if (standin is None) == (seat in table.standins):
                raise conflict("a stand-in plays your seat now: take it back first" if standin is None
                               else "the seat's player has taken it back")
            assert table.match is not None
            try:  # checked on a copy against the legal list the seat was sent (Match keeps it)
                move = table.match.prepare(seat, action)
            except IllegalAction as error:
                raise ApiError(422, "illegal", str(error)) from None
            at = time.time()
            if self._may_change_hands(table, seat):
                await self.store.append_checked(table.id, move.number, seat, action_to_json(action),
                                                move.ends_game, at, standin, len(table.changes))
            else:
                await self.store.append(table.id, move.number, seat, action_to_json(action), move.ends_game, at,
                                        standin)
            return move, at

        return await self._commit(table, seat, move_no, write, standin)

    @staticmethod
    def _may_change_hands(table: LiveTable, seat: Seat) -> bool:
        """Whether a seat change can race this seat's move: a player's at a timed table (its deadline),
        a stand-in's (its player coming back).  Such moves are committed on the condition that no seat
        change came meanwhile; the others go into the group commit."""
        return seat in table.standins or (table.clocks is not None and not table.plays_itself(seat))

    async def undo(self, table: LiveTable, seat: Seat, move_no: int) -> int:
        """Take back the seat's own last move (committed like a move: a log entry without an action)."""

        async def write() -> tuple[Move, float]:
            if not table.undo_allowed(seat):
                raise ApiError(422, "undo_refused",
                               "nothing to take back: only your own last move, while it is still your turn, "
                               "and only if it drew no chance and revealed nothing")
            assert table.match is not None
            move, at = table.match.prepare_take_back(seat), time.time()
            await self.store.append(table.id, move.number, seat, None, False, at)
            return move, at

        return await self._commit(table, seat, move_no, write)

    async def _commit(self, table: LiveTable, seat: Seat, move_no: int,
                      write: Callable[[], Awaitable[tuple[Move, float]]], standin: str | None = None) -> int:
        """Under the table's lock: check the turn, then ``write`` validates the move and commits it to the
        log; when another process's move came first (``Conflict``) the table catches up and the move is
        validated again on the new state.  Then the move, committed at the time ``write`` gives, is put in force."""
        async with table.lock:
            for _attempt in range(10):
                self._check_turn(table, seat, move_no)
                try:
                    move, at = await write()
                except Conflict:
                    await self.refresh(table)
                    continue
                table.accept(move, at, standin)
                version = table.move_no(seat)
                break
            else:
                raise conflict("the table is busy; try again")
        await self.changed(table)
        return version

    async def hint(self, table: LiveTable, seat: Seat, lang: str = "en") -> dict[str, Any]:
        """What the hard bot would do in ``seat``'s place (only at tables with hints on): its best moves
        with their estimated values, searched in a worker from the seat's knowledge, and ``why`` the
        first, in ``lang``, from the seat's view (bots/hints.py); for this seat only."""
        if table.match is None or not hints_allowed(table.match.game):
            raise ApiError(403, "no_hints", "hints are off at this table (table option hints)")
        if table.status != "running":
            raise conflict("hints are given while the game is running")
        legal = table.match.legal_actions(seat)
        if not legal:
            raise conflict("it is not your decision")
        if seat in table.hinting:
            raise ApiError(429, "busy", "a hint for your seat is already being worked out")
        table.hinting.add(seat)
        view, move_no = table.match.view(seat), table.move_no(seat)  # the position asked about
        try:
            found = await self.thinkers.hint(table.match.game, table.match.state, seat, legal, secrets.randbelow(2**31))
        except TimeoutError:
            raise ApiError(503, "too_slow", "the hint took too long; try again") from None
        finally:
            table.hinting.discard(seat)
        found = [Estimate(e.action, e.visits, round(e.value, 3)) for e in found]  # as sent: why says the same
        with i18n.using_language(lang):
            reason = why(table.row.game, view, found, table.shown_names())
        return {"move_no": move_no, "bot": HINT_KIND,
                "hints": [{"action": action_to_json(e.action), "value": e.value, "visits": e.visits} for e in found],
                "why": None if reason is None else reason.line()}

    def record(self, table: LiveTable) -> str:
        if table.status not in ("finished", INTERRUPTED):
            raise conflict("the record can be downloaded once the game is over")
        header = Header(table.row.game, table.row.players, dict(table.row.options), table.row.seed, table.names(),
                        rules_version=table.row.rules_version)
        return Record(header, list(table.moves), dict(table.standin_moves)).dumps()
