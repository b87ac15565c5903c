"""Personal keys (issue 15, "My games"): how a player is recognised across tables, without passwords.

A *personal key* is a secret the server makes (``POST /api/players``) and the browser keeps; the
server stores only its hash, in ``stammtisch_players`` — the one row a player is, to which later
features attach what they need (an e-mail address, say) by the key's hash.  A seat is *bound* to a
key when it is taken with the key (joining, claiming an invitation, joining a rematch) or later by
its seat token (``POST /api/tables/{id}/key``).  Then:

- the key lists the tables of its own seats (``GET /api/players/me/tables``), never anybody else's;
- the key derives a seat token of its own for each of its seats, ``HMAC-SHA256(key, "table/seat")``,
  which the server hands to whoever shows the key (another device: ``POST
  /api/players/me/tables/{id}/token``) and checks by its hash like any seat token.  The token the
  seat was taken with keeps working; a seat that changes hands loses its key binding.

Keys, like tokens, go in the Authorization header or a body, never in a URL, and logs mask them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from stammtisch.server.messages import ApiError


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_token(key: str, table_id: str, seat: int) -> str:
    """The seat token a key derives for its seat at a table (the same on every device)."""
    mac = hmac.new(key.encode(), f"{table_id}/{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def key_columns(key: str | None, table_id: str, seat: int) -> tuple[str | None, str | None]:
    """A seat row's ``key_hash`` and ``key_token_hash`` when it is taken with ``key`` (None: no key)."""
    if key is None:
        return None, None
    return key_hash(key), hashlib.sha256(key_token(key, table_id, seat).encode()).hexdigest()


def no_key() -> ApiError:
    return ApiError(401, "no_key", "this needs your personal key (Authorization: Bearer …)")


def wrong_key() -> ApiError:
    return ApiError(403, "wrong_key", "that is no personal key of this server")
