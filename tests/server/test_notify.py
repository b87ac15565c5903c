"""E-mail notices (issue 15): a seat's player gives an address; when it becomes the seat's turn, or its
time runs low, one e-mail in the seat's language links to the table — once, with several server
processes too; the address is shown to nobody else and never logged; a failing SMTP server never
breaks the game.  The SMTP server is aiosmtpd, started by the test on a free loopback port."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import services_up
from tests.server.helpers import IN_CI, POSTGRES_URL, REDIS_URL, Api, ServerProcess, wait_for
from tests.server.smtp import Inbox, local_smtp

PUBLIC = "https://stammtisch.example.org"
ADDRESS = "anna.notice@example.org"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with local_smtp() as found:
        yield found


def mail_flags(port: int, delay: float = 0) -> tuple[str, ...]:
    return ("--smtp", f"127.0.0.1:{port}", "--smtp-from", "stammtisch@example.org", "--notify-delay", str(delay),
            "--public-url", PUBLIC, "--clock-tick", "0.1")


def servers_for(backend: str, tmp_path: Path, extra: tuple[str, ...]) -> list[ServerProcess]:
    if backend == "sqlite":
        return [ServerProcess(tmp_path, extra=extra, log_level="info").start()]
    if not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL and Redis must run in CI (.ci/run starts them)")
        pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
    return [ServerProcess(tmp_path, POSTGRES_URL, REDIS_URL, extra=extra, log_level="info").start()
            for _ in range(2)]


def two_players(api: Api, pace: dict[str, Any] | None = None) -> tuple[str, dict[int, str]]:
    body: dict[str, Any] = {"game": "glueckauf", "players": 2}
    if pace:
        body["pace"] = pace
    created = api.ok("POST", "/api/tables", json=body)
    table_id, host = created["table_id"], created["host_token"]
    tokens = {seat: api.join(table_id, seat, f"P{seat}") for seat in range(2)}
    api.start(table_id, host)
    return table_id, tokens


def play_until_to_act(api: Api, table_id: str, tokens: dict[int, str], seat: int) -> int:
    """The others move (at random) until ``seat`` is to act; its move number then."""
    rng = random.Random(3)
    while seat not in (state := api.view(table_id))["to_act"]:
        for other in state["to_act"]:
            mine = api.view(table_id, tokens[other])
            api.act(table_id, tokens[other], rng.choice(mine["legal"]), mine["move_no"])
    return int(state["move_no"])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_email_with_the_table_link_arrives_once_when_it_becomes_your_turn(
        tmp_path: Path, inbox: tuple[Inbox, int], backend: str) -> None:
    # issue 15, done when: "an e-mail arrives at the local SMTP server with the table link"; exactly once
    # per turn even with two processes (PostgreSQL + Redis), in the seat's language
    handler, port = inbox
    servers = servers_for(backend, tmp_path, mail_flags(port))
    try:
        api, other = Api(servers[0].url), Api(servers[-1].url)
        table_id, tokens = two_players(api)
        settings = other.ok("PUT", f"/api/tables/{table_id}/notify", tokens[1], json={"email": ADDRESS, "lang": "de"})
        assert settings["email"] == ADDRESS and settings["email_available"] is True
        # the address is the seat's own: not in the table's info, not in the other seat's settings or view
        assert ADDRESS not in api.request("GET", f"/api/tables/{table_id}").text
        assert api.ok("GET", f"/api/tables/{table_id}/notify", tokens[0])["email"] is None
        assert ADDRESS not in api.request("GET", f"/api/tables/{table_id}/view", tokens[0]).text
        play_until_to_act(api, table_id, tokens, 1)
        mail = wait_for(lambda: handler.about(table_id), "e-mail")[0]
        assert mail["To"] == ADDRESS and mail["From"] == "stammtisch@example.org"
        assert str(mail["Subject"]) == f"Du bist am Zug an Tisch {table_id} (Glück Auf)"
        text = mail.get_content()
        assert f"{PUBLIC}/play/{table_id}" in text
        assert tokens[0] not in text and tokens[1] not in text  # no secrets: the link carries no token
        time.sleep(1.0)  # ten ticks of both processes: a second e-mail for the same turn would be here
        assert len(handler.about(table_id)) == 1
    finally:
        for server in servers:
            server.stop()
    logs = "".join(server.log.read_text() for server in servers)
    assert "e-mail notice (turn)" in logs and ADDRESS not in logs


def test_a_turn_played_before_the_delay_gets_no_email_and_removing_the_address_stops_them(
        tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    handler, port = inbox
    servers = servers_for("sqlite", tmp_path, mail_flags(port, delay=3600))
    try:
        api = Api(servers[0].url)
        table_id, tokens = two_players(api)
        for seat in range(2):
            api.ok("PUT", f"/api/tables/{table_id}/notify", tokens[seat], json={"email": f"p{seat}@example.org"})
        play_until_to_act(api, table_id, tokens, 1)
        play_until_to_act(api, table_id, tokens, 0)
        assert api.ok("PUT", f"/api/tables/{table_id}/notify", tokens[0], json={"email": None})["email"] is None
        assert api.ok("GET", f"/api/tables/{table_id}/notify", tokens[0])["email"] is None
        time.sleep(1.0)
        assert handler.about(table_id) == []  # an hour's delay: nobody waited that long
    finally:
        for server in servers:
            server.stop()


def test_a_deadline_that_nears_sends_a_warning(tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    # the warning comes when a quarter of the decision's time is left (docs/api.md, "Notices")
    handler, port = inbox
    servers = servers_for("sqlite", tmp_path, mail_flags(port, delay=3600))
    try:
        api = Api(servers[0].url)
        table_id, tokens = two_players(api, {"mode": "turn", "per_move": 8})
        seat = api.view(table_id)["to_act"][0]
        api.ok("PUT", f"/api/tables/{table_id}/notify", tokens[seat], json={"email": ADDRESS, "lang": "en"})
        mail = wait_for(lambda: handler.about(table_id), "warning")[0]
        assert str(mail["Subject"]) == f"Your time at table {table_id} (Glück Auf) runs out soon"
        assert "then a stand-in plays your seat" in mail.get_content()
        assert f"{PUBLIC}/play/{table_id}" in mail.get_content()
    finally:
        for server in servers:
            server.stop()


def test_a_failing_smtp_server_never_breaks_the_game(tmp_path: Path) -> None:
    with local_smtp(refuse=True) as (_handler, port):
        servers = servers_for("sqlite", tmp_path, mail_flags(port))
        try:
            api = Api(servers[0].url)
            table_id, tokens = two_players(api)
            api.ok("PUT", f"/api/tables/{table_id}/notify", tokens[1], json={"email": ADDRESS})
            before = play_until_to_act(api, table_id, tokens, 1)
            wait_for(lambda: "not sent: SMTPRecipientsRefused" in servers[0].log.read_text(), "the failure in the log")
            state = api.view(table_id, tokens[1])  # the game goes on
            assert api.act(table_id, tokens[1], state["legal"][0], state["move_no"]).status_code == 200
            assert api.view(table_id)["move_no"] > before
        finally:
            for server in servers:
                server.stop()
    assert ADDRESS not in servers[0].log.read_text()


def test_bad_notice_settings_are_refused_and_change_nothing(tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    _handler, port = inbox
    with_mail = ServerProcess(tmp_path / "mail", extra=mail_flags(port)).start()
    without = ServerProcess(tmp_path / "plain").start()
    try:
        api = Api(with_mail.url)
        table_id, tokens = two_players(api)
        path = f"/api/tables/{table_id}/notify"
        for body in [{"email": "no address"}, {"email": "a@b@c"}, {"email": "x@example.org\r\nBcc: y@example.org"},
                     {"email": "Anna <a@example.org>"}, {"email": "a@example.org", "lang": "fr"}, {"email": 5},
                     {"email": "a@example.org", "phone": "1"}, {"email": "a" * 250 + "@example.org"}]:
            response = api.request("PUT", path, tokens[0], json=body)
            assert response.status_code == 400, (body, response.text)
        assert api.ok("GET", path, tokens[0])["email"] is None
        assert api.request("PUT", path, None, json={"email": ADDRESS}).status_code == 401
        assert api.request("GET", path, None).status_code == 401
        assert api.request("PUT", path, "not-a-seat-token", json={"email": ADDRESS}).status_code == 403
        plain = Api(without.url)
        table_id, tokens = two_players(plain)
        settings = plain.ok("GET", f"/api/tables/{table_id}/notify", tokens[0])
        assert settings["email_available"] is False
        refused = plain.request("PUT", f"/api/tables/{table_id}/notify", tokens[0], json={"email": ADDRESS})
        assert refused.status_code == 409 and "--smtp" in refused.json()["message"]
    finally:
        with_mail.stop()
        without.stop()


def test_a_notice_owed_when_the_server_is_killed_is_sent_once_after_the_restart(
        tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    # issue 15: notices are rows in the database, not timers: a restarted server sends what was owed
    handler, port = inbox
    server = ServerProcess(tmp_path, extra=mail_flags(port, delay=2), log_level="info").start()
    try:
        api = Api(server.url)
        table_id, tokens = two_players(api)
        api.ok("PUT", f"/api/tables/{table_id}/notify", tokens[1], json={"email": ADDRESS, "lang": "it"})
        play_until_to_act(api, table_id, tokens, 1)
        server.kill()  # before the turn's e-mail was due
        assert handler.about(table_id) == []
        server.start()
        mail = wait_for(lambda: handler.about(table_id), "e-mail after the restart")[0]
        assert str(mail["Subject"]) == f"Tocca a te al tavolo {table_id} (Glück Auf)"
        time.sleep(1.0)  # ten ticks: a second copy would be here
        assert len(handler.about(table_id)) == 1
    finally:
        server.stop()
