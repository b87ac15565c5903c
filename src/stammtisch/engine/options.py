"""Table options: each declared once with its type, default, allowed values or range, label and the
spec entry that settles it.  ``check_options`` fills in defaults and refuses anything else with a
translated message that names the option, so that a table that cannot be played is never created."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from stammtisch.i18n import N_, _

KIND_NAMES: dict[type, str] = {int: N_("a whole number"), bool: N_("true or false"), list: N_("a list"),
                               str: N_("a text")}


class OptionError(ValueError):
    """A table option that is unknown or outside its declared range; the message names it."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.option = name


@dataclass(frozen=True, slots=True)
class Option:
    """One table option.  ``kind`` is the JSON type (bool, int, str or list); a list's items are
    checked against ``choices``/``low``/``high`` and it has ``length`` items (None: as many as seats);
    its default is a tuple (options are values), handed out as a fresh list.
    ``nullable`` options take None for "decided elsewhere" (the data file, chance)."""

    name: str
    kind: type
    default: Any
    label: str  # msgid, N_("…")
    spec: str  # the spec entry that settles it, e.g. "C-17"
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None
    length: int | None = None
    nullable: bool = False
    lobby: bool = True  # shown in the lobby's table form
    server_file: bool = False  # names a file on the server: never chosen by a network client
    hint: str | None = None  # msgid: what the choice means, shown under the lobby's field
    formerly: tuple[str, ...] = ()  # its earlier names, still read (a record keeps the options as given)

    def to_json(self) -> dict[str, Any]:
        """The option for a client's form, its label in the current language."""
        return {"name": self.name, "kind": self.kind.__name__, "default": _fresh(self.default),
                "label": _(self.label), "spec": self.spec,
                "choices": list(self.choices) if self.choices is not None else None,
                "low": self.low, "high": self.high, "length": self.length, "nullable": self.nullable,
                "lobby": self.lobby, "hint": _(self.hint) if self.hint else None}

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise OptionError(self.name, self._expected(value))
        if self.kind is list:
            if not isinstance(value, list) or (self.length is not None and len(value) != self.length):
                raise OptionError(self.name, self._expected(value))
            for item in value:
                if not self._fits(item, int if self.choices is None else type(self.choices[0])):
                    raise OptionError(self.name, self._expected(value))
            return list(value)
        if not self._fits(value, self.kind):
            raise OptionError(self.name, self._expected(value))
        return value

    def _fits(self, value: Any, kind: type) -> bool:
        if type(value) is not kind:  # 1.0 is no seat number, True no count
            return False
        if self.choices is not None:
            return value in self.choices
        if isinstance(value, int):
            return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
        return not isinstance(value, str) or (value.isprintable() and len(value) <= 4096)

    def _expected(self, value: Any) -> str:
        shown = _short(value)
        if self.kind is list:
            if self.choices is not None:
                return _("table option {name}: {value} is not allowed; expected a list of values from {choices}"
                         ).format(name=self.name, value=shown, choices=", ".join(str(c) for c in self.choices))
            return _("table option {name}: {value} is not allowed; expected {n} whole numbers from {low} "
                     "to {high}").format(name=self.name, value=shown, n=self.length, low=self.low, high=self.high)
        if self.choices is not None:
            return _("table option {name}: {value} is not allowed; choose one of {choices}").format(
                name=self.name, value=shown, choices=", ".join(_short(c) for c in self.choices))
        if self.kind is int and self.low is not None and self.high is not None:
            return _("table option {name}: {value} is not allowed; expected a whole number from {low} to {high}"
                     ).format(name=self.name, value=shown, low=self.low, high=self.high)
        return _("table option {name}: {value} is not allowed; expected {kind}").format(
            name=self.name, value=shown, kind=_(KIND_NAMES[self.kind]))


# Shared by every game: a human seat may ask what the hard bot would do (bots/hints.py).
HINTS = Option("hints", bool, False, N_("Hints: a player may ask what the hard bot would do"), "docs/bots.md Hints",
               hint=N_("On: each player may ask for a hint on their turn; the rules stay the same."))
# Shared by every game with a guide: the table of a guided first game ("Learn to play", stammtisch/guide.py).
GUIDE = Option("guide", bool, False, N_("Learn to play: the guide explains each phase the first time"),
               "docs/web.md Learn to play", lobby=False)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def check_options(schema: Iterable[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option, from ``given`` or its default; unknown names are refused.  An option
    given by an earlier name (``Option.formerly``) counts as given by its name (which wins if both are)."""
    declared = {option.name: option for option in schema}
    renamed = {old: option.name for option in declared.values() for old in option.formerly}
    given = {**{renamed[name]: value for name, value in given.items() if name in renamed},
             **{name: value for name, value in given.items() if name not in renamed}}
    unknown = sorted(str(name) for name in set(given) - set(declared))
    if unknown:
        raise OptionError(unknown[0], _("unknown table option {name}; known: {known}").format(
            name=_short(unknown[0]), known=", ".join(declared)))
    return {name: option.check(given[name]) if name in given else _fresh(option.default)
            for name, option in declared.items()}


def _fresh(default: Any) -> Any:
    return list(default) if isinstance(default, tuple) else default


def server_files(schema: Iterable[Option]) -> frozenset[str]:
    """The names (earlier names included) of the options that name a file on the server."""
    return frozenset(name for option in schema if option.server_file for name in (option.name, *option.formerly))
