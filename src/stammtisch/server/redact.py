"""Logs never show a token or a seat's secrets: a filter on every handler masks anything token-like in
log records (uvicorn's access and error logs, our own logs) and logs the WebSocket frames of debug
level by their kind and size only."""

from __future__ import annotations

import copy
import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

MASK = "[redacted]"
# A named secret: token=…, "token": "…", invite=…, host_token, key (personal), Authorization: Bearer …
_NAMED = re.compile(r"""(?ix)
    ( (?:host_|seat_)?token | invite | invitation | authorization | \bkey )
    ( ["']? \s* [:=] \s* (?:b?["'])? (?:bearer\s+)? )
    [^\s"'&#,;)\]}]+ """)
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',;)\]}]+")
# Tokens are URL-safe base64 of 24 random bytes (32 characters); longer runs (hashes) go too.
_TOKEN_LIKE = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{32,}"
                         r"(?![A-Za-z0-9_-])")


def redact(text: str) -> str:
    text = _NAMED.sub(lambda m: m.group(1) + m.group(2) + MASK, text)
    text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    return _TOKEN_LIKE.sub(MASK, text)


def _redact_arg(arg: Any) -> Any:
    if isinstance(arg, str):
        return redact(arg)
    if isinstance(arg, bytes):
        return redact(arg.decode("utf-8", "replace"))
    if isinstance(arg, (int, float)) or arg is None:
        return arg
    return redact(repr(arg) if isinstance(arg, (dict, list, tuple)) else str(arg))


class Redact(logging.Filter):
    """Masks tokens in a record's message, arguments and traceback (formatters keep their fields:
    uvicorn's access formatter unpacks the arguments)."""

    def filter(self, record: logging.LogRecord) -> bool:
        _without_payload(record)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def _without_payload(record: logging.LogRecord) -> None:
    """A WebSocket frame (logged by the websockets library at debug level: ``< %s`` received, ``> %s``
    sent) is logged by its kind and size only: its text holds a seat's view and its secret actions,
    which no log may show (issue 26, security 3)."""
    if record.msg in ("< %s", "> %s") and isinstance(record.args, tuple) and len(record.args) == 1:
        frame = record.args[0]
        opcode, data = getattr(frame, "opcode", None), getattr(frame, "data", None)
        if opcode is not None and isinstance(data, (bytes, bytearray, memoryview)):
            record.args = (f"{getattr(opcode, 'name', opcode)} [{len(data)} bytes]",)


class JsonLines(logging.Formatter):
    """One JSON object per line (``serve --log-format json``): time, level, logger, message and, after
    a failure, the traceback, all as the Redact filter left them."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        if record.exc_text or record.exc_info:
            entry["exception"] = redact(record.exc_text or self.formatException(record.exc_info))  # type: ignore[arg-type]
        return json.dumps(entry, ensure_ascii=False)


def log_config(level: str, log_format: str = "text") -> dict[str, Any]:
    """uvicorn's logging setup with the filter on every handler, and our own loggers beside uvicorn's;
    ``log_format`` "json" writes one JSON object per line instead of text."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": Redact}}
    if log_format == "json":
        config["formatters"] = {name: {"()": JsonLines} for name in config["formatters"]}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["loggers"]["stammtisch"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config
