"""The host's database commands: ``stammtisch migrate``, ``backup`` and ``restore`` (docs/operations.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from stammtisch.cli.common import CliError
from stammtisch.i18n import _
from stammtisch.server.config import Config, without_password


def add_database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help=_("directory of the SQLite database (default: $STAMMTISCH_HOME or "
                                             "~/.local/share/stammtisch)"))
    parser.add_argument("--database", metavar="URL", help=_("database URL, e.g. postgresql://user@host/db "
                                                            "(default: SQLite in the data directory)"))


def config_of(args: argparse.Namespace) -> Config:
    return Config(data_dir=Path(args.data_dir) if args.data_dir else None, database=args.database)


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "migrate", help=_("upgrade the server's database to this release's schema"),
        description=_("Upgrade the server's database schema to the one this release needs (stammtisch serve "
                      "does it on start unless --no-migrate is given). Back the database up first."))
    add_database_options(parser)
    parser.add_argument("--check", action="store_true",
                        help=_("only report the schema's revision; exit code 1 if it needs an upgrade"))
    parser.set_defaults(run=migrate)

    parser = commands.add_parser(
        "backup", help=_("copy the server's database into a file, while the server runs"),
        description=_("Copy the server's database into FILE: one consistent snapshot, taken while the server "
                      "may be running (SQLite: its online backup; PostgreSQL: pg_dump)."))
    parser.add_argument("file", metavar="FILE", help=_("the backup file to write"))
    add_database_options(parser)
    parser.set_defaults(run=backup)

    parser = commands.add_parser(
        "restore", help=_("replace the server's database by a backup (refused while a server uses it)"),
        description=_("Replace the server's database by a backup made with 'stammtisch backup'. Refused while a "
                      "server uses the database: stop it first. The database it replaces is kept "
                      "(.before-restore). An older backup is upgraded when the server starts."))
    parser.add_argument("file", metavar="FILE", help=_("the backup file to restore"))
    add_database_options(parser)
    parser.set_defaults(run=restore)


def migrate(args: argparse.Namespace, console: Console) -> int:
    from stammtisch.server.holds import DatabaseInUse, hold_alone
    from stammtisch.server.schema import SchemaError, prepare_url

    url = config_of(args).database_url()
    try:  # an upgrade needs the database alone: refused while a server uses it (issue 26)
        hold = None if args.check else hold_alone(url, "stammtisch migrate")
    except DatabaseInUse as error:
        raise CliError(str(error)) from None
    try:
        found, now = prepare_url(url, upgrade=not args.check)
    except SchemaError as error:
        if args.check and "stammtisch migrate" in str(error):
            console.print(_("The database needs an upgrade: {error}").format(error=error), markup=False)
            return 1
        raise CliError(str(error)) from None
    finally:
        if hold is not None:
            hold.close()
    if found.current == now and not found.unversioned:
        console.print(_("The database schema is up to date (revision {revision}).").format(revision=now))
    else:
        console.print(_("The database schema was upgraded from revision {old} to {new}.").format(
            old=found.current or "-", new=now))
    return 0


def backup(args: argparse.Namespace, console: Console) -> int:
    from stammtisch.server import backup as backups

    try:
        found = backups.backup(config_of(args).database_url(), Path(args.file))
    except backups.BackupError as error:
        raise CliError(str(error)) from None
    console.print(_("Backed up to {file} (schema revision {revision}).").format(
        file=args.file, revision=found.current), markup=False)
    return 0


def restore(args: argparse.Namespace, console: Console) -> int:
    from stammtisch.server import backup as backups

    url = config_of(args).database_url()
    try:
        found, kept = backups.restore(Path(args.file), url)
    except backups.BackupError as error:
        raise CliError(str(error)) from None
    database = backups.sqlite_path(url) or without_password(args.database)
    console.print(_("Restored {file} into {database} (schema revision {revision}).").format(
        file=args.file, database=database, revision=found.current), markup=False)
    if kept is not None:
        console.print(_("The database it replaced is kept as {file}.").format(file=kept), markup=False)
    return 0
