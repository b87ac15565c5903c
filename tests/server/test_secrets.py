"""No client ever receives anything its seat may not know.

Whole games are played through WebSockets while every frame each seat receives is recorded, byte
for byte.  Afterwards the game's record is replayed and every frame is checked against the true
state at its move number: the view must be exactly the seat's view of that state (nothing more),
the events exactly those the seat may see, and the other seats' secrets (hands, draft cards,
sealed choices, face-down cards, deck order, money, the seed) must appear nowhere.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest

from stammtisch.engine.match import replay
from stammtisch.engine.record import parse_record
from stammtisch.registry import make_game
from tests.server.helpers import Cluster, Ws, seen_entries


def play_recorded(cluster: Cluster, game: str, players: int, options: dict[str, Any]) -> tuple[
        str, dict[int | None, list[str]]]:
    api = cluster.api()
    table_id, host = api.create(game, players, options)
    tokens = {seat: api.join(table_id, seat, f"P{seat}") for seat in range(players)}
    # Connected before the start, so that every frame of the game is recorded, setup included.
    sockets: dict[int | None, Ws] = {seat: cluster.ws(table_id, tokens[seat], i=seat) for seat in range(players)}
    sockets[None] = cluster.ws(table_id, i=1)
    for ws in sockets.values():
        ws.recv()
    api.start(table_id, host)
    errors: list[Any] = []

    def run(seat: int) -> None:
        rng = random.Random(seat)
        try:
            lost = sockets[seat].play(lambda state: rng.choice(state["legal"]), timeout=60)
            errors.extend(e for e in lost if e["error"] != "conflict")
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(repr(error))

    threads = [threading.Thread(target=run, args=(seat,)) for seat in range(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    spectator = sockets[None]
    spectator.until(lambda m: m["type"] == "state" and m["status"] == "finished", 60)
    for ws in sockets.values():
        ws.close()
    return table_id, {seat: ws.frames for seat, ws in sockets.items()}


def secrets_of(game: str, state: Any, seat: int, viewer: int | None, options: dict[str, Any]) -> dict[str, Any]:
    """What ``seat`` keeps from ``viewer`` in ``state``, read from the true state."""
    if game == "diemacher":
        player = state.players[seat]
        hidden: dict[str, Any] = {"hand": sorted(player.hand), "sealed": list(player.secret),
                                  "politicians": list(player.politicians)}
        if state.draft_hands:
            hidden["draft_hand"] = sorted(state.draft_hands[seat])
        if not options.get("open_money") and state.phase != "over":
            hidden["money"] = player.money
        return hidden
    hidden = {}
    if state.current == seat and state.drawn:
        hidden["drawn"] = sorted(state.drawn)
    return hidden


def deck_secrets(game: str, state: Any) -> list[list[int]]:
    if game == "diemacher":
        return [list(state.program_deck), list(state.opinion_deck), list(state.poll_deck)]
    return [list(state.tile_stack), list(state.order_deck)]


def contains_run(frame: str, numbers: list[int], shortest: int = 4) -> bool:
    """Whether a list's order (as JSON, at least ``shortest`` items) appears in the frame."""
    return len(numbers) >= shortest and json.dumps(numbers, separators=(",", ":"))[1:-1] in frame


@pytest.mark.parametrize("game, players, options", [
    ("diemacher", 3, {"open_money": False}),
    ("glueckauf", 2, {}),
])
def test_frames_hold_only_what_the_seat_may_know(cluster: Cluster, game: str, players: int,
                                                 options: dict[str, Any]) -> None:
    table_id, frames = play_recorded(cluster, game, players, options)
    text = cluster.api().request("GET", f"/api/tables/{table_id}/record").text
    record = parse_record(text)
    the_game = make_game(game, players, record.header.options)
    states, events = [], []
    for match, _seat, _action, entry_events in replay(record, make_game):
        state = match.state
        states.append(the_game.copy(state))
        events.append(entry_events)
    entry = seen_entries(record, frames)  # the state each viewer's move number stands for
    seed = str(record.header.seed)
    checked = 0
    for viewer, received in frames.items():
        sent = -1  # the first state of a connection opened before the start carries the setup events
        for raw in received:
            assert seed not in raw
            frame = json.loads(raw)
            if frame["type"] != "state" or frame["status"] == "open":
                assert set(frame) <= {"type", "move_no", "id", "error", "message", "table", "seat", "status",
                                      "view", "legal", "to_act", "undo_allowed", "events"}
                continue
            n = entry[viewer][frame["move_no"]]
            state = states[n]
            over = the_game.is_over(state)
            expected_view = json.loads(json.dumps(the_game.view(state, viewer)))
            assert frame["view"] == expected_view, (viewer, n)
            to_act = the_game.to_act(state)
            legal = the_game.legal_actions(state, viewer) if viewer in to_act else []
            assert frame["legal"] == json.loads(json.dumps(legal))
            visible = [e.to_json() for entry in events[sent + 1:n + 1] for e in entry if e.visible_to(viewer)]
            assert frame["events"] == json.loads(json.dumps(visible)), (viewer, n)
            assert set(frame) - {"scores"} == {"type", "table", "seat", "status", "move_no", "view", "legal",
                                               "to_act", "undo_allowed", "events"}
            assert frame["seat"] == viewer and frame["to_act"] == to_act
            sent = n
            # The other seats' secrets, from the true state, must not be there.
            for other in range(players):
                if other == viewer:
                    continue
                shown = frame["view"]["board"]["seats"][other]  # the envelope's per-seat list (engine/view.py)
                for key, value in secrets_of(game, state, other, viewer, record.header.options).items():
                    assert key not in shown or shown[key] is None, (viewer, n, other, key)
                    if key == "money":
                        assert shown["money"] is None
                    if key == "drawn":
                        assert frame["view"]["board"]["drawn"] is None
                        assert not contains_run(raw, value)
                    if key in ("hand", "sealed", "draft_hand") and value and not over:
                        assert key not in shown
            for deck in deck_secrets(game, state):
                # six cards in deck order: four small card numbers also occur in public lists by chance
                    assert not contains_run(raw, deck[-6:], 6) and not contains_run(raw, deck[:6], 6)
            checked += 1
    assert checked > 200
