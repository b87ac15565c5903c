"""Client messages: every HTTP body and WebSocket message is decoded against a declared schema
(msgspec Structs) with limits on size, depth, integers and strings, so that a bad message is a clear
``ApiError`` before anything is read or written.  docs/api.md, "Message limits", lists them."""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec

from stammtisch.engine.protocol import Action
from stammtisch.engine.record import action_from_json

MAX_INT = 2**53 - 1  # integers a browser's JSON reads exactly
MAX_NAME = 40
MAX_TEXT = 64
MAX_CHAT = 500  # characters of one chat message
# Joiners are format characters, but emoji and some scripts need them; every other format character
# (bidi overrides, invisible marks) and every control character is refused in chat.
CHAT_JOINERS = frozenset("\u200c\u200d")

Int = Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=63)]
Word = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]{0,39}$")]  # a game, an option, a bot kind
Token = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,128}$")]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
# An action: its name, then numbers, words, flags or one level of lists of them.
Atom = bool | Int | Text | None
ActionJSON = Annotated[list[Atom | Annotated[list[Atom], msgspec.Meta(max_length=16)]],
                       msgspec.Meta(min_length=1, max_length=16)]
# A table option's value: a flag, a number, a word, or a short list of numbers or words.
OptionValue = bool | Int | Text | None | Annotated[list[Int | Text], msgspec.Meta(max_length=16)]
Ref = Int | Text  # a WebSocket request's id, echoed in its reply


class ApiError(Exception):
    """A request that changes nothing: an HTTP status, a short code and a message for people."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details  # more fields of the answer, e.g. ``retry_after``

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


def bad_request(message: str) -> ApiError:
    return ApiError(400, "malformed", message)


def printable(value: str | None, what: str) -> None:
    """Text people read: no control or format characters (NUL, bidi overrides, …)."""
    if value is not None and not value.isprintable():
        raise ValueError(f"{what} must be printable text, without control characters")


class Body(msgspec.Struct, forbid_unknown_fields=True):
    """An HTTP body; an empty body is ``{}``."""


class Pace(msgspec.Struct, forbid_unknown_fields=True):
    """A table's pace (server/pace.py): untimed, realtime (base + increment seconds) or turn (per_move)."""

    mode: Word = "untimed"
    base: Count | None = None
    increment: Count | None = None
    per_move: Count | None = None


class CreateTable(Body):
    game: Word
    players: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: Annotated[dict[Word, msgspec.Raw], msgspec.Meta(max_length=64)] = {}
    pace: Pace | None = None
    standin: Word | None = None  # the bot kind of stand-ins
    learn: bool = False  # the game's guided first game: its guide's players, options and fixed deal

    def __post_init__(self) -> None:
        """Each option's value on its own, so that an error names the option."""
        values: dict[str, Any] = {}
        for name, raw in self.options.items():
            try:
                values[name] = value = msgspec.json.decode(raw, type=OptionValue)
            except msgspec.ValidationError as error:
                raise ValueError(f"table option {name}: {error}") from None
            for text in value if isinstance(value, list) else [value]:
                printable(text if isinstance(text, str) else None, f"table option {name}")
        self.options = values


class Join(Body):
    name: Name | None = None
    key: Token | None = None  # the personal key to bind the seat to (server/keys.py)

    def __post_init__(self) -> None:
        printable(self.name, "name")


class Invite(Body):
    seats: Annotated[list[SeatNo], msgspec.Meta(max_length=16)] | None = None


class AddBot(Body):
    seat: SeatNo
    kind: Word | None = None


class Start(Body):
    pass


class NewPlayer(Body):
    pass


class BindKey(Body):
    """Bind the seat of the request's token to a personal key."""

    key: Token


class KeyToken(Body):
    """The seat token a personal key derives for its seat at a table (``seat``: which, if it holds several)."""

    seat: SeatNo | None = None


class Rematch(Body):
    key: Token | None = None  # the personal key to bind the rematch's seat to


class Away(Body):
    leave: bool = False  # for good (the host may hand the seat to somebody else)


class Back(Body):
    pass


class Notify(Body):
    """A seat's address for e-mail notices (None: no more e-mail) and their language (server/notify.py)."""

    email: Annotated[str, msgspec.Meta(max_length=254)] | None = None
    lang: Annotated[str, msgspec.Meta(max_length=8)] | None = None
class Chat(Body):
    text: str


def chat_text(text: str) -> str:
    """A chat message as stored: plain text, trimmed, not empty, at most MAX_CHAT characters, without
    control or format characters (NUL, line breaks, bidi overrides, lone surrogates)."""
    text = text.strip()
    if not text:
        raise bad_request("a chat message must not be empty")
    if len(text) > MAX_CHAT:
        raise bad_request(f"a chat message has at most {MAX_CHAT} characters, not {len(text)}")
    for char in text:
        if not char.isprintable() and char not in CHAT_JOINERS:
            raise bad_request(f"a chat message is one line of plain text: character U+{ord(char):04X} is a "
                              "control or format character")
    return text


class Act(Body):
    action: ActionJSON
    move_no: Count


class Undo(Body):
    move_no: Count


class WsMessage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, tag_field="type"):
    id: Ref | None = None

    def __post_init__(self) -> None:
        printable(self.id if isinstance(self.id, str) else None, "id")


class WsAct(WsMessage, tag="act"):
    action: ActionJSON
    move_no: Count


class WsUndo(WsMessage, tag="undo"):
    move_no: Count


class WsPing(WsMessage, tag="ping"):
    pass


class WsHint(WsMessage, tag="hint"):
    """What the hard bot would do in the asking seat's place (tables with the hints option)."""


class WsResync(WsMessage, tag="resync"):
    """Send the full state next (a client that cannot apply a delta)."""


class WsChat(WsMessage, tag="chat"):
    """A chat message from the socket's seat (server/chat.py)."""

    text: str


class WsAuth(WsMessage, tag="auth"):
    """The first message on a socket: the seat's token, or none to watch."""

    token: Token | None = None


WS_KINDS = (WsAct, WsUndo, WsPing, WsAuth, WsHint, WsResync, WsChat)
WsRequest = WsAct | WsUndo | WsPing | WsAuth | WsHint | WsResync | WsChat
WS_TYPES = tuple(str(kind.__struct_config__.tag) for kind in WS_KINDS)


class _RefOnly(msgspec.Struct):
    id: Ref | None = None


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def check_size(data: bytes | str, limit: int) -> None:
    size = len(data.encode(errors="replace") if isinstance(data, str) else data)
    if size > limit:
        raise ApiError(413, "too_large", f"message of {size} bytes; the limit is {limit}")


def decode(data: bytes | str, limit: int, schema: Any) -> Any:
    """``data`` as ``schema``, or a 400 that says what is wrong and where (``$.options.win_threshold``)."""
    check_size(data, limit)
    raw = data.encode(errors="surrogatepass") if isinstance(data, str) else data
    try:
        return msgspec.json.decode(raw or b"{}", type=schema)
    except msgspec.ValidationError as error:
        raise bad_request(str(error)) from None
    except msgspec.DecodeError as error:
        if _SURROGATE.search(raw):
            raise bad_request("not valid JSON: a string holds half of a UTF-16 surrogate pair") from None
        raise bad_request(f"not valid JSON: {error}") from None
    except UnicodeError:
        raise bad_request("not valid JSON: not UTF-8 text") from None
    except RecursionError:
        raise bad_request("not valid JSON: nested too deeply") from None


def parse_json(data: bytes | str, limit: int, schema: type[Body]) -> dict[str, Any]:
    """An HTTP body checked against ``schema``, as a dict of its fields."""
    return msgspec.structs.asdict(decode(data, limit, schema))


def parse_ws(data: str | bytes, limit: int) -> dict[str, Any]:
    """A WebSocket message from a client: ``{"type": "act"|"undo"|"ping"|"auth"|"hint"|"resync"|"chat", ...}``
    (see WS_KINDS)."""
    message: dict[str, Any] = msgspec.to_builtins(decode(data, limit, WsRequest))
    return message


def ws_ref(data: str | bytes) -> Any:
    """The id of a message that was refused, when it has a valid one (else None): the reply names it."""
    try:
        raw = data.encode(errors="surrogatepass") if isinstance(data, str) else data
        ref = msgspec.json.decode(raw, type=_RefOnly).id
    except Exception:
        return None
    return ref if not isinstance(ref, str) or ref.isprintable() else None


def field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ..., *,
          required: bool = True) -> Any:
    """A field of a checked body, or its default."""
    value = body.get(name)
    if value is None:
        if default is not ...:
            return default
        if required:
            raise bad_request(f"missing field {name!r}")
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise bad_request(f"field {name!r} must be {' or '.join(k.__name__ for k in kinds)}")
    return value


def action_field(body: dict[str, Any]) -> Action:
    try:
        return action_from_json(field(body, "action", list))
    except ValueError as error:
        raise bad_request(str(error)) from None


def move_no_field(body: dict[str, Any]) -> int:
    move_no: int = field(body, "move_no", int)
    if move_no < 0:
        raise bad_request("move_no must not be negative")
    return move_no
