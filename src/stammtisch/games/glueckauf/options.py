"""Table options of Glück Auf (glueck-auf.md, "Defaults to implement where the sources are silent"),
declared with their types and ranges."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.options import GUIDE, HINTS, Option, OptionError
from stammtisch.engine.options import check_options as check_declared
from stammtisch.i18n import N_, _

OPTIONS: tuple[Option, ...] = (
    # empty printed starting minecarts count in shift III scoring
    Option("count_printed_carts", bool, True, N_("Printed starting minecarts count in shift III"),
           "glueck-auf.md Defaults", lobby=False),
    # delivered cards stay visible to all until shift scoring
    Option("open_delivered", bool, False, N_("Delivered orders are open"), "glueck-auf.md Defaults",
           hint=N_("Off: delivered order cards lie face down until shift scoring, as printed. On: everyone sees "
                   "them at once.")),
    # seat of the first start player; None: chosen by chance
    Option("start_player", int, None, N_("First start player"), "glueck-auf.md Setup 8", low=0, high=3,
           nullable=True, lobby=False),
    # path of an edition data file; None: the packaged edition
    Option("edition", str, None, N_("Edition data file"), "glueck-auf.md Editions", nullable=True, lobby=False,
           server_file=True),
    HINTS,
    GUIDE,
)


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    """Fill in defaults; refuse unknown names, values of another type and seats not at the table."""
    result = check_declared(OPTIONS, options)
    start = result["start_player"]
    if start is not None and start >= players:
        raise OptionError("start_player", _(
            "table option {name}: {value} is not allowed; expected a whole number from {low} to {high}").format(
            name="start_player", value=start, low=0, high=players - 1))
    return result
