"""Client messages: size limit, JSON parsing and field checks, each failure a clear ``ApiError``."""

from __future__ import annotations

import json
from typing import Any

from stammtisch.engine.protocol import Action
from stammtisch.engine.record import action_from_json


class ApiError(Exception):
    """A request that changes nothing: an HTTP status, a short code and a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message}


def bad_request(message: str) -> ApiError:
    return ApiError(400, "malformed", message)


def parse_json(data: bytes | str, limit: int) -> dict[str, Any]:
    """A JSON object of at most ``limit`` bytes."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > limit:
        raise ApiError(413, "too_large", f"message of {size} bytes; the limit is {limit}")
    if not data:
        return {}
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise bad_request(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise bad_request(f"expected a JSON object, not {type(value).__name__}")
    return value


def field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ..., *,
          required: bool = True) -> Any:
    if name not in body or body[name] is None:
        if default is not ...:
            return default
        if required:
            raise bad_request(f"missing field {name!r}")
        return None
    value = body[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise bad_request(f"field {name!r} must be {names}, not {json.dumps(value)[:40]}")
    return value


def action_field(body: dict[str, Any]) -> Action:
    raw = field(body, "action", list)
    try:
        return action_from_json(raw)
    except ValueError as error:
        raise bad_request(str(error)) from None


def move_no_field(body: dict[str, Any]) -> int:
    move_no: int = field(body, "move_no", int)
    if move_no < 0:
        raise bad_request("move_no must not be negative")
    return move_no


WS_TYPES = ("auth", "act", "undo", "ping")


def parse_ws(text: str | bytes, limit: int) -> dict[str, Any]:
    """A WebSocket message from a client: ``{"type": "auth"|"act"|"undo"|"ping", ...}``."""
    message = parse_json(text, limit)
    kind = field(message, "type", str)
    if kind not in WS_TYPES:
        raise bad_request(f"unknown message type {kind!r}; expected one of {', '.join(WS_TYPES)}")
    ref = message.get("id")
    if ref is not None and not (isinstance(ref, (str, int)) and not isinstance(ref, bool) and len(str(ref)) <= 64):
        raise bad_request("id must be a short string or number")
    return message
