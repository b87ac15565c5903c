"""The ``stammtisch`` command: play, simulate, replay and bench."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from stammtisch.cli import bench, play, replay, simulate
from stammtisch.cli.common import CliError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stammtisch",
        description="Heavy German board games (Die Macher, Glück Auf) in the terminal: play against bots, "
                    "simulate bot games, replay records, measure speed.",
        epilog="Run 'stammtisch COMMAND --help' for the options of a command.",
    )
    commands = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)
    play.add_parser(commands)
    simulate.add_parser(commands)
    replay.add_parser(commands)
    bench.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(highlight=False)
    try:
        code: int = args.run(args, console)
    except CliError as error:
        print(f"stammtisch {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stammtisch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
