"""The ``stammtisch`` command: play, simulate, replay and bench."""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Sequence

from rich.console import Console

import stammtisch
from stammtisch import i18n
from stammtisch.cli import bench, database, learn, loadtest, play, replay, serve, simulate, tournament
from stammtisch.cli.common import CliError, game_titles
from stammtisch.i18n import N_, _

# argparse's own texts (usage, headings, errors), so that help and errors read in one language.
ARGPARSE_TEXTS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"), N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"), N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("ambiguous option: %(option)s could match %(matches)s"),
)  # fmt: skip

# stammtisch --version: which build runs (issue 26 item 7)
VERSION_TEXTS = {"compiled": N_("stammtisch {version}: compiled build, Python {python}"),
                 "pure": N_("stammtisch {version}: pure Python {python}")}


def language_code(text: str) -> str:
    """``--lang``'s type: a code we have (``pl_PL.UTF-8`` is read as ``pl``)."""
    code = text.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    if code not in i18n.available_languages():
        raise argparse.ArgumentTypeError(
            _("unknown language {code!r}; choose one of {choices}").format(
                code=text, choices=", ".join(i18n.available_languages())))
    return code


def add_language_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument(
        "--lang", metavar="CODE", type=language_code, default=default,
        help=_("language of everything shown: {choices} (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, "
               "else en)").format(choices=", ".join(i18n.available_languages())))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stammtisch",
        description=_("Heavy German board games ({games}) in the terminal: play against bots, "
                      "simulate bot games, replay records, measure speed.").format(games=game_titles()),
        epilog=_("Run 'stammtisch COMMAND --help' for the options of a command."),
    )
    add_language_option(parser, None)
    version = _(VERSION_TEXTS[stammtisch.BUILD])
    parser.add_argument("--version", action="version",
                        help=_("show which version and build of Stammtisch runs, and exit"),
                        version=version.format(version=stammtisch.__version__, python=platform.python_version()))
    commands = parser.add_subparsers(title=_("commands"), dest="command", metavar="COMMAND", required=True)
    for command in (play, learn, simulate, tournament, replay, bench, serve, database, loadtest):
        command.add_parser(commands)
    for sub in commands.choices.values():  # --lang also after the command: stammtisch play --lang pl …
        add_language_option(sub, argparse.SUPPRESS)
    return parser


def requested_language(argv: Sequence[str]) -> str:
    """The language named by ``--lang`` anywhere in ``argv`` (the last one wins), else the environment's.

    Read before the parser is built, so that the help texts are already in that language."""
    code: str | None = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            code = argv[index + 1]
        elif arg.startswith("--lang="):
            code = arg.partition("=")[2]
    if code is not None:
        try:
            return language_code(code)
        except argparse.ArgumentTypeError:
            return i18n.SOURCE_LANGUAGE  # the parser reports the error
    return i18n.language_from_environment()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    i18n.set_language(requested_language(arguments))
    argparse._ = _  # type: ignore[attr-defined]  # argparse looks its texts up through this name
    args = build_parser().parse_args(arguments)
    console = Console(highlight=False)
    try:
        code: int = args.run(args, console)
    except CliError as error:
        print(_("stammtisch {command}: error: {error}").format(command=args.command, error=error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("stammtisch: interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
