"""The lobby's part of the hub: the games, creating tables, seats, invitations, bots' seats, the start."""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Any

import msgspec

from stammtisch.engine.record import rules_version
from stammtisch.i18n import _
from stammtisch.registry import games, make_game
from stammtisch.server.bots import bot_kinds
from stammtisch.server.hubcore import HubCore
from stammtisch.server.keys import key_columns, key_hash, wrong_key
from stammtisch.server.livetable import (
    FILE_OPTIONS,
    LiveTable,
    conflict,
    default_name,
    hash_token,
    new_token,
    table_info,
)
from stammtisch.server.messages import MAX_NAME, ApiError, bad_request
from stammtisch.server.messages import field as get_field
from stammtisch.server.pace import Pace
from stammtisch.server.store import Conflict, SeatRow, TableRow


def guide_json(guide: Any) -> dict[str, Any] | None:
    """What the lobby needs to seat a game's guided first game (``POST /api/tables`` with ``learn``)."""
    return None if guide is None else {"players": guide.players, "bots": guide.bots}


class Seating(HubCore):
    """Tables before and around their games: creating, listing, joining, inviting, starting."""

    def games(self) -> dict[str, Any]:
        """Every game with its player range, bots, browser module and the options a client may choose
        (labels in the current language)."""
        result = {}
        for name, spec in games().items():
            defaults = {k: v for k, v in spec.make(spec.min_players, {}).options.items() if k not in FILE_OPTIONS}
            result[name] = {"title": _(spec.title), "min_players": spec.min_players, "max_players": spec.max_players,
                            "default_players": spec.default_players, "options": defaults,
                            "schema": [o.to_json() for o in spec.options if not o.server_file],
                            "bots": list(bot_kinds(name)), "module": spec.browser, "rules_version": spec.rules_version,
                            "rules": f"/rules/{name}" if spec.rules_page else None,
                            "guide": guide_json(spec.guide_script()),
                            "about": spec.about.to_json() if spec.about else None}
        return result

    async def create_table(self, body: dict[str, Any]) -> dict[str, Any]:
        game = get_field(body, "game", str)
        players = get_field(body, "players", int)
        options = get_field(body, "options", dict, {})
        if game not in games():
            raise bad_request(f"unknown game {game!r}; choose one of {', '.join(games())}")
        seed = secrets.randbelow(2**62)
        if body.get("learn"):  # Learn to play: the guide's table and fixed deal (stammtisch/guide.py)
            guide = games()[game].guide_script()
            if guide is None:
                raise bad_request(f"{game} has no guided first game")
            players, options, seed = guide.players, guide.table_options(), guide.seed
        banned = sorted(FILE_OPTIONS & set(options))
        if banned:
            raise bad_request(f"option {banned[0]} names a file on the server and cannot be chosen here")
        try:
            make_game(game, players, options)
        except (ValueError, TypeError) as error:
            raise bad_request(str(error)) from None
        pace = Pace.from_json(msgspec.to_builtins(body.get("pace")))
        standin = body.get("standin") or ""
        if standin and standin not in bot_kinds(game):
            raise bad_request(f"unknown stand-in kind {standin!r}; choose one of {', '.join(bot_kinds(game))}")
        host_token = new_token()
        row = TableRow(secrets.token_urlsafe(9), game, players, options, seed, "open",
                       hash_token(host_token), time.time(), rules_version(game), pace.to_json() if pace.timed else None,
                       standin)
        await self.store.create_table(row)
        table = LiveTable(row, [])
        self.keep(table)
        return {"table_id": row.id, "host_token": host_token, "table": table.info()}

    async def list_tables(self, statuses: tuple[str, ...], limit: int = 200,
                          before: tuple[float, str] | None = None) -> list[dict[str, Any]]:
        return [table_info(row, seat_rows) for row, seat_rows in await self.store.list_tables(statuses, limit, before)]

    async def still_open(self, table_ids: list[str]) -> list[str]:
        """Of these tables, those that have not started."""
        return await self.store.open_among(table_ids) if table_ids else []  # another process may have started them

    def check_host(self, table: LiveTable, token: str | None) -> None:
        if not token:
            raise ApiError(401, "no_token", "this needs the table's host token (Authorization: Bearer …)")
        if not hmac.compare_digest(table.row.host_hash, hash_token(token)):
            raise ApiError(403, "wrong_token", "that is not this table's host token")

    def _free_seat(self, table: LiveTable, seat: int) -> None:
        if table.status != "open":
            raise conflict("the table has started; seats can no longer change")
        if not 0 <= seat < table.row.players:
            raise bad_request(f"seat must be from 0 to {table.row.players - 1}, not {seat}")
        if seat in table.seats:
            raise conflict(f"seat {seat} is taken")

    async def _claim(self, table: LiveTable, seat: SeatRow) -> None:
        async with table.lock:
            await self.refresh(table)
            self._free_seat(table, seat.seat)
            try:
                await self.store.claim_seat(table.id, seat)
            except Conflict as error:
                await self.refresh(table)
                raise conflict(str(error)) from None
            table.seats[seat.seat] = seat
        await self.changed(table)

    async def join(self, table: LiveTable, seat: int, body: dict[str, Any], token: str | None) -> dict[str, Any]:
        """Take a free seat, or (``token``: an invitation) claim an invited one; with ``key``, bound to
        that personal key (server/keys.py)."""
        name = _name(get_field(body, "name", str, default_name(seat, "human")))
        key = await self.known_key(get_field(body, "key", str, None))
        if token:
            return await self._accept(table, seat, token, name, key)
        new = new_token()
        await self._claim(table, SeatRow(seat, "human", name, None, hash_token(new), *key_columns(key, table.id, seat)))
        return {"table_id": table.id, "seat": seat, "token": new}

    async def known_key(self, key: str | None) -> str | None:
        """``key`` if it is a personal key of this server (403 if not); None stays None."""
        if key is not None and not await self.store.player_known(key_hash(key)):
            raise wrong_key()
        return key

    async def _accept(self, table: LiveTable, seat: int, invitation: str, name: str,
                      key: str | None = None) -> dict[str, Any]:
        """Claim an invitation: the player gets a fresh seat token, and the invitation is used up."""
        new = new_token()
        async with table.lock:
            await self.refresh(table)
            held = table.seats.get(seat)
            if (table.status == "finished" or held is None or held.kind != "invited" or held.token_hash is None
                    or not hmac.compare_digest(held.token_hash, hash_token(invitation))):
                raise ApiError(403, "wrong_token", f"that is no (longer an) invitation to seat {seat}: it may have "
                                                   "been used or replaced by a new one")
            claimed = SeatRow(seat, "human", name, None, hash_token(new), *key_columns(key, table.id, seat))
            try:
                await self.store.accept_invite(table.id, held.token_hash, claimed)
            except Conflict as error:
                await self.refresh(table)
                raise ApiError(403, "wrong_token", str(error)) from None
            table.seats[seat] = claimed
            while seat in table.standins:  # a seat whose player left: the new player takes it from the stand-in
                await self._add_change(table, seat, "handed")
            await self._forget_contact(table, seat)  # the seat's earlier player's address, if any
        await self.changed(table)
        return {"table_id": table.id, "seat": seat, "token": new}

    async def invite(self, table: LiveTable, token: str | None, body: dict[str, Any], base: str) -> dict[str, Any]:
        """Invitations to free seats, or new ones (replacing the old) to seats whose invited player never
        came; all or nothing."""
        self.check_host(table, token)
        wanted = get_field(body, "seats", list, None)
        async with table.lock:
            await self.refresh(table)
            seats = self._invitable(table, wanted)
            rows = [SeatRow(seat, "invited", default_name(seat, "invited"), None, None) for seat in seats]
            tokens = [new_token() for _ in rows]
            for row, invitation in zip(rows, tokens, strict=True):
                row.token_hash = hash_token(invitation)
            abandoned = {seat for seat, why in table.standins.items() if why == "left"}
            try:
                await self.store.invite(table.id, rows, abandoned)
            except Conflict as error:
                await self.refresh(table)
                raise conflict(str(error)) from None
            table.seats.update((row.seat, row) for row in rows)
        if rows:
            await self.changed(table)
        # The invitation rides in the link's fragment, which browsers never send to a server.
        return {"table_id": table.id, "invites": [
            {"seat": row.seat, "token": code, "url": f"{base}/play/{table.id}#seat={row.seat}&invite={code}"}
            for row, code in zip(rows, tokens, strict=True)]}

    def _invitable(self, table: LiveTable, wanted: list[Any] | None) -> list[int]:
        if wanted is None:
            if table.status != "open":
                raise conflict("the table has started; seats can no longer change")
            return [s for s in range(table.row.players) if s not in table.seats]
        if any(not isinstance(seat, int) or isinstance(seat, bool) for seat in wanted):
            raise bad_request("seats must be a list of seat numbers")
        if len(set(wanted)) != len(wanted):
            raise bad_request("seats must not repeat a seat")
        for seat in wanted:
            held = table.seats.get(seat)
            if table.status == "running" and table.standins.get(seat) == "left":
                continue  # its player left the game: the host may hand it to somebody else (issue 15)
            if held is None or held.kind != "invited":
                self._free_seat(table, seat)
            elif table.status == "finished":
                raise conflict("the game is over")
        return list(wanted)

    async def add_bot(self, table: LiveTable, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        self.check_host(table, token)
        table.require_game()
        seat = get_field(body, "seat", int)
        kind = get_field(body, "kind", str, bot_kinds(table.row.game)[0])
        if kind not in bot_kinds(table.row.game):
            raise bad_request(f"unknown bot kind {kind!r}; choose one of {', '.join(bot_kinds(table.row.game))}")
        await self._claim(table, SeatRow(seat, "bot", default_name(seat, "bot", kind), kind, None))
        return {"table_id": table.id, "seat": seat, "kind": kind}

    async def start(self, table: LiveTable, token: str | None) -> dict[str, Any]:
        self.check_host(table, token)
        async with table.lock:
            await self.refresh(table)
            if table.status != "open":
                raise conflict("the table has already started")
            await self.begin_game(table)
        await self.changed(table)
        return table.info()

    async def begin_game(self, table: LiveTable) -> None:
        """Start an open table whose seats are all taken (call with its lock held)."""
        table.require_game()
        try:
            await self.store.start(table.id, table.row.players, rules_version(table.row.game))
            table.row.rules_version = rules_version(table.row.game)  # an open table starts under today's rules
        except Conflict as error:
            raise conflict(str(error)) from None
        await self.refresh(table)


def _name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise bad_request("name must not be empty")
    if len(name) > MAX_NAME:
        raise bad_request(f"name must be at most {MAX_NAME} characters")
    return name
