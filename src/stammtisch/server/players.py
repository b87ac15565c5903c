"""Players across tables (issue 15): "my games" — the tables of a personal key's seats, those that wait
for the player first — and rematches.  Keys themselves: server/keys.py.

A **rematch** is asked for by any seated player of a finished table (``POST /api/tables/{id}/rematch``
with the seat's token).  The first request creates it — the same game, player count, options, pace
and stand-in kind, a new seed; bots are bots of the same kind, and every other seat is *reserved*
for the player who held it (an invited seat without an invitation, bound to that player's key) —
and names it on the finished table (``rematch``), once: of two requests, in one process or several,
one creates it and both get it.  Each player joins it with the token of their seat at the finished
table (the same call), which gives them their own seat's token at the rematch; when every reserved
seat is taken the rematch starts by itself.  The first requester also gets the rematch's host token,
with which a seat whose player does not come can be given to somebody else (invites) or the game
started without them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import time
from dataclasses import replace
from typing import Any

from stammtisch.engine.protocol import Game, Seat
from stammtisch.engine.record import rules_version
from stammtisch.registry import game_spec
from stammtisch.server.keys import key_columns, key_hash, key_token, no_key
from stammtisch.server.livetable import LiveTable, conflict, hash_token, new_token, table_info
from stammtisch.server.messages import ApiError
from stammtisch.server.store import Conflict, SeatRow, TableRow
from stammtisch.server.tables import Hub

ACTIVE = ("open", "running")
ENDED = ("finished", "interrupted")
PLAYED = ("running", "finished")  # a game that can be shown as it stands (an interrupted one cannot be replayed)
MAX_ACTIVE = 200  # tables a key lists that have not ended, newest first
MAX_ENDED = 20  # and of those that have
STATUS_ORDER = {"running": 0, "open": 1, "finished": 2, "interrupted": 3}


async def new_key(hub: Hub) -> dict[str, str]:
    """A new personal key (shown to its owner once; the server keeps its hash)."""
    key = new_token()
    await hub.store.add_player(key_hash(key))
    return {"key": key}


async def known(hub: Hub, key: str | None) -> str:
    """The hash of a personal key this server made; 401 without one, 403 for any other."""
    if not key:
        raise no_key()
    await hub.known_key(key)
    return key_hash(key)


# My games.

async def my_tables(hub: Hub, key: str | None) -> list[dict[str, Any]]:
    """The tables where ``key`` holds a seat: public table facts plus which seats are the key's, whose turn
    it is and the key's deadline; the tables waiting for the key's player first."""
    mine = await known(hub, key)
    found = (await hub.store.tables_of_key(mine, ACTIVE, MAX_ACTIVE)
             + await hub.store.tables_of_key(mine, ENDED, MAX_ENDED))
    entries = [await _entry(hub, row, seat_rows, mine) for row, seat_rows in found]
    entries.sort(key=_waiting_first)
    return entries


async def _entry(hub: Hub, row: TableRow, seat_rows: list[SeatRow], mine: str) -> dict[str, Any]:
    seats = [s.seat for s in seat_rows if s.key_hash == mine]
    reserved = [s.seat for s in seat_rows if s.key_hash == mine and s.kind == "invited"]
    table = await hub.current(row.id) if row.status in PLAYED else None
    info = table.info() if table is not None else table_info(row, seat_rows)
    played = {s["seat"] for s in info["seats"] if s.get("standin")}
    deciding = [s for s in info.get("to_act", []) if s in seats and s not in reserved and s not in played]
    deadlines = [c["deadline"] for c in info.get("clocks", []) if c["seat"] in deciding and c["deadline"] is not None]
    entry = {"table": info, "seats": seats, "reserved": reserved, "my_turn": bool(deciding),
             "deadline": min(deadlines, default=None)}
    if table is not None and table.game is not None:
        entry.update(await _progress(hub, table, table.game))
    return entry


async def _progress(hub: Hub, table: LiveTable, game: Game[Any]) -> dict[str, Any]:
    """Where a started game stands (issue 25): its round of how many, when its last move was made and, once
    it is over, its result (the final scores and winners everybody sees)."""
    last = await hub.store.moves(table.id, table.version - 1) if table.version else []
    found: dict[str, Any] = {"last_move": last[-1].at if last else table.row.started}
    progress = game_spec(table.row.game).progress(game, table.state)
    if progress is not None:
        found["round"], found["rounds"] = progress
    if table.status == "finished":
        final = table.view(None)["final"]
        found["result"] = {"scores": final["scores"], "winners": final["winners"]}
    return found


def _waiting_first(entry: dict[str, Any]) -> tuple[Any, ...]:
    """Your decisions first (the nearest deadline first), then rematches waiting for you to join, then the
    others: running, waiting for players, over; the newest first within each."""
    table = entry["table"]
    deadline = entry["deadline"] if entry["deadline"] is not None else math.inf
    return (not entry["my_turn"], deadline, not entry["reserved"], STATUS_ORDER.get(table["status"], 9),
            -table["created"], table["id"])


async def bind(hub: Hub, table: LiveTable, token: str | None, key: str) -> dict[str, Any]:
    """Bind the seat ``token`` holds at ``table`` to ``key`` (the seat's own token keeps working)."""
    seat = hub.seat_of(table, token)
    await known(hub, key)
    async with table.lock:
        await hub.refresh(table)
        await _bind(hub, table, seat, key)
    return {"table_id": table.id, "seat": seat}


async def _bind(hub: Hub, table: LiveTable, seat: Seat, key: str) -> None:
    held = table.seats[seat]
    hashed, token_hashed = key_columns(key, table.id, seat)
    bound = replace(held, key_hash=hashed, key_token_hash=token_hashed)
    if bound != held:
        await hub.store.bind_key(table.id, bound)
        table.seats[seat] = bound


async def token_for(hub: Hub, table: LiveTable, key: str | None, seat: int | None) -> dict[str, Any]:
    """The seat token ``key`` derives for its seat at ``table`` (another device of the same player)."""
    mine = await known(hub, key)
    assert key is not None
    async with table.lock:
        await hub.refresh(table)
        held = [s for s, row in sorted(table.seats.items()) if row.key_hash == mine and row.kind != "invited"]
        if not held or (seat is not None and seat not in held):
            raise ApiError(403, "wrong_key", "your personal key holds no seat here" if seat is None
                           else f"your personal key does not hold seat {seat} here")
        chosen = held[0] if seat is None else seat
        await _bind(hub, table, chosen, key)  # a seat bound before its key token was known gets it now
    return {"table_id": table.id, "seat": chosen, "token": key_token(key, table.id, chosen)}


# Rematches.

async def rematch(hub: Hub, table: LiveTable, token: str | None, key: str | None) -> dict[str, Any]:
    """Create the finished table's rematch (once) or find it, and give the asking seat its seat there."""
    seat = hub.seat_of(table, token)
    assert token is not None
    key = await hub.known_key(key)
    host: str | None = None
    async with table.lock:  # a refresh meanwhile must not write back a rematch it read before this one
        await hub.refresh(table)
        if table.status != "finished":
            raise conflict("a rematch can be asked for once the game is over")
        found = table.row.rematch
        if found is None:
            row, seat_rows, host = _rematch_rows(table)
            found = await hub.store.add_rematch(table.id, row, seat_rows)
            host = host if found == row.id else None
            table.row.rematch = found
        before = table.seats[seat]
    if host is not None:
        await hub.changed(table)  # the others see the offer
    answer = await _join(hub, await hub.current(found), before, token, key)
    if host is not None:
        answer["host_token"] = host
    return answer


def _rematch_rows(table: LiveTable) -> tuple[TableRow, list[SeatRow], str]:
    old = table.row
    host = new_token()
    row = TableRow(secrets.token_urlsafe(9), old.game, old.players, dict(old.options), secrets.randbelow(2**62),
                   "open", hash_token(host), time.time(), rules_version(old.game), old.pace, old.standin,
                   rematch_of=old.id)
    seats = [SeatRow(s.seat, "bot", s.name, s.bot_kind, None) if s.kind == "bot"
             else SeatRow(s.seat, "invited", s.name, None, None, s.key_hash)  # reserved for its player
             for s in table.seats.values()]
    return row, seats, host


def rematch_token(old_token: str, rematch_id: str, seat: Seat) -> str:
    """The rematch seat token that a seat token of the finished table derives: asking again with the same
    token gives the same seat token, and nobody else's token derives it (security: issue 26)."""
    mac = hmac.new(old_token.encode(), f"rematch/{rematch_id}/{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


async def _join(hub: Hub, new: LiveTable, before: SeatRow, old_token: str, key: str | None) -> dict[str, Any]:
    """The holder of ``before`` (a seat of the finished table, shown by ``old_token``) takes the seat reserved
    for them at its rematch, or finds it taken by themselves already; a seat the rematch's host has given to
    somebody else stays theirs.  The rematch starts once every seat is taken."""
    seat = before.seat
    token = rematch_token(old_token, new.id, seat)
    async with new.lock:
        for _ in range(2):  # a second pass: the seat was taken meanwhile, perhaps by this player elsewhere
            await hub.refresh(new)
            held = new.seats.get(seat)
            if held is not None and held.kind == "human":
                return await _joined_already(hub, new, held, token, key)
            if held is None or held.kind != "invited" or held.token_hash is not None:
                raise conflict(f"seat {seat} of the rematch was given to somebody else")
            key_hash_, key_token_hash = key_columns(key, new.id, seat)
            claimed = SeatRow(seat, "human", held.name, None, hash_token(token), key_hash_ or held.key_hash,
                              key_token_hash)
            try:
                await hub.store.replace_seat(new.id, held, claimed)
            except Conflict:
                continue
            new.seats[seat] = claimed
            await hub.refresh(new)  # the others' joins, committed meanwhile (here or in other processes)
            if new.status == "open" and _all_taken(new):
                try:
                    await hub.begin_game(new)
                except ApiError:  # another join started it
                    await hub.refresh(new)
            break
        else:
            raise conflict(f"seat {seat} of the rematch changed hands meanwhile; ask again")
    await hub.changed(new)
    return {"table_id": new.id, "seat": seat, "token": token}


async def _joined_already(hub: Hub, new: LiveTable, held: SeatRow, token: str, key: str | None
                          ) -> dict[str, Any]:
    """A taken rematch seat answers only its own player: the same old token again, or the key it is bound
    to (which derives its own seat token); anybody else's old token gets nothing (call with the lock held)."""
    if held.token_hash is not None and hmac.compare_digest(held.token_hash, hash_token(token)):
        return {"table_id": new.id, "seat": held.seat, "token": token}
    if key is not None and held.key_hash is not None and hmac.compare_digest(held.key_hash, key_hash(key)):
        await _bind(hub, new, held.seat, key)
        return {"table_id": new.id, "seat": held.seat, "token": key_token(key, new.id, held.seat)}
    raise conflict(f"seat {held.seat} of the rematch is taken: by another token of yours (ask with your "
                   "personal key) or by somebody the rematch's host invited")


def _all_taken(table: LiveTable) -> bool:
    return all(s in table.seats and table.seats[s].kind != "invited" for s in range(table.row.players))
