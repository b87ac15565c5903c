"""The games Stammtisch knows, found rather than listed: each game folder declares a ``GameSpec``.

Games register through the entry-point group ``stammtisch.games`` (``name = "package.spec:SPEC"`` in
``pyproject.toml``), so a game installed from another distribution plugs in too.  Because entry
points come from the installed metadata, which may be stale or point at another checkout, the
registry also finds every subpackage of ``stammtisch.games`` that has a ``spec`` module with a
``SPEC``: the games of the running source tree are always there.  An entry point wins over the
in-tree spec of the same name.  docs/adding-a-game.md describes what a game provides.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple, Protocol

from stammtisch import contract, i18n
from stammtisch.bots.base import Bot, RandomBot
from stammtisch.engine.options import Option
from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.engine.record import declare_rules
from stammtisch.i18n import _

GROUP = "stammtisch.games"
View = Mapping[str, Any]


class GameText(Protocol):
    """A game's sentences, in the reader's current language (``i18n.using_language``): one signature
    for every game.  ``view`` is the reader's view at that moment, ``names`` the players' names
    (seat order; the game may prefer names its view gives, such as the parties a seat plays)."""

    def describe_event(self, event: Event, view: View, names: Sequence[str] | None) -> str: ...

    def describe_action(self, action: Action, view: View, names: Sequence[str] | None) -> str: ...


class UnknownGame(ValueError):
    pass


@dataclass(frozen=True)
class Scoring:
    """The events that score a round (Die Macher's election, Glück Auf's shift scoring), from one to the
    next of which a replay jumps; ``previous`` and ``next`` (msgids, ``N_``) name those two jumps."""

    kinds: tuple[str, ...]
    previous: str
    next: str


class RulesSection(NamedTuple):
    """A section of a game's rules page (``GameSpec.rules_page``, drawn by ``web/rules.py``); texts are msgids.

    ``phases`` names the flow's phases it explains (``"over"``: the final scoring): the page gives each
    the anchor ``phase-NAME``, which the table's phase labels link to; ``summary`` is its line on the
    printable turn summary card (None: not on the card); ``drawing`` is an inline SVG of the part of the
    board it changes (shapes only, no words: the heading names it)."""

    heading: str
    paragraphs: tuple[str, ...]
    phases: tuple[str, ...] = ()
    summary: str | None = None
    drawing: str = ""


@dataclass(frozen=True)
class About:
    """What the lobby's card and My games tell a player of a game (issue 25); texts are msgids, N_("…")."""

    summary: str  # one line: what the players do
    length: str  # how long a game takes at the table
    complexity: int  # 1 (light) to 5 (heavy): the weight BoardGameGeek's players give the game, rounded
    round_name: str  # where a game stands, in its own words, with {round} and {rounds}: "Shift {round} of {rounds}"
    rounds: str  # "module:function": (game) -> how many rounds a game of its options has (round_of counts them)

    def to_json(self) -> dict[str, Any]:
        """The card's texts in the current language."""
        return {"summary": _(self.summary), "length": _(self.length), "complexity": self.complexity,
                "round_name": _(self.round_name)}


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of Stammtisch needs to know about a game.

    Module references are ``"package.module"`` or ``"package.module:attribute"`` strings, imported when
    first used, so listing the games stays cheap and the server never imports a terminal renderer.
    """

    name: str
    title: str  # msgid, N_("…")
    game: type[Game[Any]]
    default_players: int
    text: str  # module offering GameText's two functions, and word tables (UPPER_CASE dicts/tuples of msgids)
    terminal: str  # module offering render_view(view, describe) and render_final(view, describe)
    browser: str  # the browser module under /static/: "<name>.js" (its stylesheet: "<name>.css")
    bots: Mapping[str, str] = field(default_factory=dict)  # kind -> "module:Class" taking (seed); "random" is free
    bench: tuple[tuple[int, Mapping[str, Any]], ...] = ()  # (players, options) that ``stammtisch bench`` plays
    outcomes: str | None = None  # "module:NAME": msgids of the keys of Game.summary()
    browser_texts: str | None = None  # "module:NAME": the msgids its browser module shows (t("…"))
    rules_page: str | None = None  # "module:NAME": its rules page, a tuple of RulesSection
    guide: str | None = None  # "module:NAME": its guided first game ("Learn to play"), a stammtisch.guide.Guide
    judge: str | None = None  # "module:NAME": scores a search playout cut off at a round's end (bots/judges.py)
    # "module:function": (game, state) -> the public number of the round a state is in (an election
    # round, a shift), by which a replay jumps to a round; None: no rounds
    round_of: str | None = None
    scoring: Scoring | None = None  # the events a replay jumps to besides rounds; None: none
    # The rules' version, named by every record and live table: bump it with every change that can alter
    # a game's course (a legal move, an action's shape, a draw, a score, a view a bot decides on).
    rules_version: int = 1
    # Older versions whose records these rules replay exactly (only after checking that they do, e.g. a
    # change that older games could not have met); a table of another version is interrupted on upgrade.
    replays: frozenset[int] = frozenset()
    about: About | None = None  # the lobby's card and the rounds My games counts
    # "module": what the conformance suite needs beyond the protocol (option sets, invariants, secrets,
    # golden cases: tests/conformance/hooks.py; docs/adding-a-game.md); None: the generic defaults
    conformance: str | None = None
    # "package" of a game from another distribution whose static/ folder holds its browser module and
    # stylesheet (None: Stammtisch's own, stammtisch/web/static/), and whose locale/ holds its catalogs
    browser_files: str | None = None
    catalog: str | None = None

    def progress(self, game: Game[Any], state: Any) -> tuple[int, int] | None:
        """The round a state is in and how many the game has (My games), if the game counts rounds."""
        round_of = self.round_function()
        if round_of is None or self.about is None:
            return None
        rounds: int = _load(self.about.rounds)(game)
        return round_of(game, state), rounds

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    @property
    def options(self) -> tuple[Option, ...]:
        return self.game.option_schema

    def make(self, players: int, options: Mapping[str, Any] | None = None) -> Game[Any]:
        return self.game(players, options)

    def texts(self) -> GameText:
        module: GameText = _load(self.text)
        return module

    def terminal_module(self) -> Any:
        return _load(self.terminal)

    def bot_kinds(self) -> tuple[str, ...]:
        return (*self.bots, "random") if "random" not in self.bots else tuple(self.bots)

    def bot(self, kind: str, seed: int) -> Bot:
        if kind == "random" and "random" not in self.bots:
            return RandomBot(seed)
        if kind not in self.bots:
            raise ValueError(_("unknown bot kind {kind!r}; choose one of {choices}").format(
                kind=kind, choices=", ".join(self.bot_kinds())))
        bot: Bot = _load(self.bots[kind])(seed)
        return bot

    def default_bot(self) -> str:
        return self.bot_kinds()[0]

    def bench_tables(self) -> list[tuple[int, dict[str, Any]]]:
        if self.bench:
            return [(players, dict(options)) for players, options in self.bench]
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    def outcome_labels(self) -> Mapping[str, str]:
        return _load(self.outcomes) if self.outcomes else {}

    def can_replay(self, rules_version: int) -> bool:
        """Whether a game played under ``rules_version`` goes on exactly under these rules."""
        return rules_version == self.rules_version or rules_version in self.replays

    def guide_script(self) -> Any:
        """The game's ``stammtisch.guide.Guide``, or None where it offers no guided first game."""
        return _load(self.guide) if self.guide else None

    def browser_strings(self) -> tuple[str, ...]:
        return tuple(_load(self.browser_texts)) if self.browser_texts else ()

    def playout_judge(self) -> Any:
        return _load(self.judge) if self.judge else None

    def round_function(self) -> Callable[[Game[Any], Any], int] | None:
        return _load(self.round_of) if self.round_of else None

    def static_folder(self) -> Traversable:
        """The folder holding the browser module and its stylesheet."""
        return files(self.browser_files) / "static" if self.browser_files else files("stammtisch.web") / "static"

    def conformance_module(self) -> Any:
        return _load(self.conformance) if self.conformance else None

    def rules_sections(self) -> tuple[RulesSection, ...]:
        return tuple(RulesSection(*section) for section in _load(self.rules_page)) if self.rules_page else ()


@cache
def _load(reference: str) -> Any:
    module, _sep, attribute = reference.partition(":")
    found = import_module(module)
    return getattr(found, attribute) if attribute else found


@cache
def games() -> dict[str, GameSpec]:
    """Every registered game by name, in name order."""
    found: dict[str, GameSpec] = {}
    for point in entry_points(group=GROUP):
        found[point.name] = _checked(point.name, point.load(), f"entry point {point.value}")
    import stammtisch.games as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        name = info.name.rsplit(".", 1)[1]
        if info.ispkg and name not in found and _has_spec(info.name):
            found[name] = _checked(name, import_module(info.name + ".spec").SPEC, info.name + ".spec")
    return dict(sorted(found.items()))


def _has_spec(package: str) -> bool:
    return any(info.name == "spec" for info in pkgutil.iter_modules(import_module(package).__path__))


def _checked(name: str, spec: Any, where: str) -> GameSpec:
    if not isinstance(spec, GameSpec) or spec.name != name or spec.game.name != name:
        raise TypeError(f"{where} does not give the GameSpec of {name!r}")
    contract.check(spec)
    declare_rules(name, spec.rules_version, spec.replays)
    if spec.catalog:
        i18n.add_catalog(spec.catalog)
    return spec


def game_spec(name: str) -> GameSpec:
    found = games().get(name)
    if found is None:
        raise UnknownGame(_("unknown game {name!r}; choose one of {choices}").format(
            name=name, choices=", ".join(games())))
    return found


def make_game(name: str, players: int, options: Mapping[str, Any] | None = None) -> Game[Any]:
    return game_spec(name).make(players, options)


GameFactory = Callable[[str, int, Mapping[str, Any] | None], Game[Any]]


def game_class(name: str) -> type[Game[Any]]:
    return game_spec(name).game
