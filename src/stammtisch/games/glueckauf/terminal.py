"""Glück Auf's table for the terminal, drawn from one seat's view only.

Everything shown comes from the view (``stammtisch.games.glueckauf.view``) and the table's
``Game.describe()``, which tells what the view leaves implicit: the spaces locked at this player
count, the categories of the shift clock, the cage's size and the scoring rates.  Colours always
come with a letter or a word, so the table reads the same without colour.
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.i18n import _
from stammtisch.rich_text import fill

COLOURS = ("yellow", "brown", "grey", "black")
TRANSPORTS = ("handcart", "wagon", "lorry", "train")

# Coal as little cubes: a letter on a coloured ground reads on dark and on light terminals alike.
COAL_STYLES = {
    "yellow": "bold black on yellow3",
    "brown": "bold white on #8a5220",
    "grey": "bold black on grey62",
    "black": "bold white on grey15",
}
# Player colours, away from the four coal colours and mid-bright for both kinds of terminal.
SEAT_STYLES = ("bold #d03030", "bold #3a78e0", "bold #22a03a", "bold #b040c0")
MINE_WIDTH = 49  # the narrowest a player's panel is drawn
MANY = 6  # above this many cubes of one colour, a count instead of one letter per cube

# Space kinds in board order, the prefix of their ids.
FACTORY, FACTORY_DRAW, MINING, DELIVERY, MONEY, BANK, ORDER, ORDER_DRAW = (
    "factory", "factory_draw", "mining", "delivery", "money", "bank", "order", "order_draw",
)  # fmt: skip


def letter(colour: str) -> str:
    """The one-letter name of a coal colour (black is K, as on the order cards)."""
    letters = {"yellow": _("Y"), "brown": _("B"), "grey": _("G"), "black": _("K")}
    return letters.get(colour, colour[:1].upper())


def colour_word(colour: str) -> str:
    words = {"yellow": _("yellow"), "brown": _("brown"), "grey": _("grey"), "black": _("black")}
    return words.get(colour, colour)


def transport_word(transport: str) -> str:
    words = {"handcart": _("handcart"), "wagon": _("horse wagon"), "lorry": _("lorry"), "train": _("train")}
    return words.get(transport, transport)


def styled(text: str, style: str) -> Text:
    """Text whose style stays with these characters when more text is appended."""
    return Text.assemble((text, style))



def cube(colour: str) -> Text:
    return styled(letter(colour), COAL_STYLES.get(colour, "bold"))


def cubes(counts: dict[str, int] | list[str], empty: str = "—") -> Text:
    """Cubes by colour (a count per colour, or one colour per cube), one letter each."""
    if isinstance(counts, list):
        counts = {c: counts.count(c) for c in dict.fromkeys(counts)}
    parts = []
    for colour in (*COLOURS, *(c for c in counts if c not in COLOURS)):
        n = counts.get(colour, 0)
        if n > MANY:
            parts.append(cube(colour) + Text(f"×{n}"))
        elif n:
            parts.append(Text("").join(cube(colour) for _i in range(n)))
    return Text("").join(parts) if parts else styled(empty, "dim")


def marks(amount: int | None) -> str:
    if amount is None:
        return "?"
    return _("1 Mark") if amount == 1 else _("{amount} Marks").format(amount=amount)


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def short(seat: int | None) -> Text:
    """P1, P2, ... in the seat's colour."""
    if seat is None or seat < 0:
        return styled("—", "dim")
    return styled(_("P{number}").format(number=seat + 1), seat_style(seat))


def player(view: dict[str, Any], seat: int | None) -> Text:
    if seat is None or seat < 0:
        return styled("—", "dim")
    name = styled(_("Player {number}").format(number=seat + 1), seat_style(seat))
    return fill(_("{player} (you)"), player=name) if seat == view.get("seat") else name


def players(view: dict[str, Any], seats: list[int]) -> Text:
    return Text(", ").join(player(view, s) for s in seats) if seats else styled("—", "dim")


# --- the whole table ---------------------------------------------------------------------------


def render_view(view: dict[str, Any], described: dict[str, Any]) -> RenderableType:
    """The table as ``view`` shows it; ``described`` is the table's Game.describe() (phase labels, its edition)."""
    edition = described["board"]
    labels = {phase["name"]: phase["label"] for phase in described["phases"]}
    parts: list[RenderableType] = [status_line(view, labels), board(view, edition), mines(view, edition)]
    if view.get("seat") is not None:
        private = private_panel(view)
        if private is not None:
            parts.append(private)
    parts.append(decision_panel(view, edition))
    return Group(*parts)


def status_line(view: dict[str, Any], labels: dict[str, str]) -> Text:
    text = Text.assemble(
        (_("Shift {shift} of {shifts}").format(shift=view["board"]["shift"], shifts=view["board"]["shifts"]), "bold"),
        " · ",
        (labels.get(view["phase"], view["phase"]), "bold cyan"), " · ",
        fill(_("start player {player}"), player=player(view, view["board"]["start_player"])),
    )  # fmt: skip
    if view["phase"] != "over":
        text.append_text(Text(" · ") + fill(_("to act: {players}"), players=players(view, view["to_act"])))
    return text


def piles_line(view: dict[str, Any]) -> Text:
    return Text.assemble(
        _("Tile stack {n}").format(n=view["board"]["tile_stack"]), " · ",
        _("order deck {n}").format(n=view["board"]["order_deck"]),
        " · ", fill(_("coal supply {cubes}"), cubes=supply(view["board"]["supply"])),
    )  # fmt: skip


def supply(counts: dict[str, int]) -> Text:
    return Text(" ").join(cube(c) + Text(str(counts.get(c, 0))) for c in COLOURS)


# --- the board ---------------------------------------------------------------------------------


def board(view: dict[str, Any], edition: dict[str, Any]) -> Panel:
    """The worker spaces by action, each with its occupant; locked spaces marked as such."""
    locked = edition["locked"]
    grid = Table.grid(padding=(0, 3))
    for _column in range(3):
        grid.add_column(vertical="top")
    factory = space_group(_("Factory (tunnel tiles)"), view, edition["spaces"], locked, (FACTORY, FACTORY_DRAW))
    orders = space_group(_("New orders"), view, edition["spaces"], locked, (ORDER, ORDER_DRAW))
    delivery = space_group(_("Delivery"), view, edition["spaces"], locked, (DELIVERY,))
    mining = space_group(_("Mining"), view, edition["spaces"], locked, (MINING,))
    money = space_group(_("Money"), view, edition["spaces"], locked, (MONEY, BANK))
    grid.add_row(factory, Group(orders, Text(""), delivery), Group(mining, Text(""), money))
    legend = styled(_("P1×2: two workers of Player 1 (placing there costs one more) · ▨ locked at this table"), "dim")
    body = Group(grid, piles_line(view), legend, Text(""), shift_clock(view, edition))
    return Panel(body, title=_("Board"), title_align="left", expand=False)


def space_kind(space_id: str) -> tuple[str, str]:
    if space_id in (FACTORY_DRAW, ORDER_DRAW, BANK):
        return space_id, ""
    kind, _sep, value = space_id.rpartition("_")
    return kind, value


def space_group(
    title: str, view: dict[str, Any], order: list[str], locked: list[str], kinds: tuple[str, ...]
) -> Table:
    spaces = view["board"]["spaces"]
    table = Table.grid(padding=(0, 1))
    table.title = title
    table.title_justify = "left"
    table.title_style = "bold cyan"
    table.add_column(justify="right", no_wrap=True)  # which space
    table.add_column()  # what is on it
    table.add_column()  # who stands there
    for space_id in order:
        kind, value = space_kind(space_id)
        if kind not in kinds:
            continue
        label = space_label(kind, value)
        if space_id in locked:
            table.add_row(styled(label, "dim"), styled("▨ " + _("locked"), "dim"), Text(""))
        elif space_id in spaces:
            entry = spaces[space_id]
            table.add_row(label, space_content(view, kind, entry), occupant(view, kind, entry))
    return table


def space_label(kind: str, value: str) -> str:
    if kind in (FACTORY_DRAW, ORDER_DRAW):
        return _("draw 5")
    if kind == MINING:
        return _("{steps} steps").format(steps=value)
    if kind == MONEY:
        return marks(int(value)) if value.isdigit() else value
    if kind == BANK:
        return _("Bank")
    if kind == DELIVERY:
        return transport_word(value)
    return value  # factory and order spaces: their number


def space_content(view: dict[str, Any], kind: str, entry: dict[str, Any]) -> Text:
    if kind == FACTORY:
        if entry.get("tile"):
            return tile_text(entry["tile"])
        return styled(_("refilled at the end of the turn") if view["board"]["tile_stack"]
                      else _("empty (stack used up)"), "dim")
    if kind == ORDER:
        if entry.get("card"):
            return card_text(entry["card"])
        if view["phase"] == "draft":
            return styled(_("filled after the draft"), "dim")
        return styled(_("refilled at the end of the turn") if view["board"]["order_deck"]
                      else _("empty (deck used up)"), "dim")
    if kind == FACTORY_DRAW:
        return styled(_("from the stack ({n} left)").format(n=view["board"]["tile_stack"]), "dim")
    if kind == ORDER_DRAW:
        return styled(_("from the deck ({n} left)").format(n=view["board"]["order_deck"]), "dim")
    if kind == BANK:
        return styled(_("1 Mark, any number"), "dim")
    return Text("")


def occupant(view: dict[str, Any], kind: str, entry: dict[str, Any]) -> Text:
    if kind == BANK:
        standing = [(int(seat), n) for seat, n in entry["workers"].items() if n]
        return Text(" ").join(short(seat) + Text(f"×{n}") for seat, n in standing) if standing else Text("")
    if entry.get("owner") is None or not entry.get("workers"):
        return styled("·", "dim")
    return short(entry["owner"]) + styled(f"×{entry['workers']}", seat_style(entry["owner"]))


def tile_text(tile: dict[str, Any], with_id: bool = False) -> Text:
    """One letter per minecart (each comes with a cube of its colour), the side and the price."""
    side = _("light") if tile["side"] == "light" else _("dark")
    text = Text("").join(cube(tile["colour"]) for _i in range(tile["carts"]))
    text.append(f" {side} {marks(tile['cost'])}")
    return Text(f"#{tile['id']} ") + text if with_id else text


def card_text(card: dict[str, Any], fields: bool = True) -> Text:
    """An order card: its id (the actions name it), transport, VP and the printed field colours."""
    vp = _("{vp} VP").format(vp=card["vp"])
    transport = transport_word(card["transport"])
    text = Text.assemble((f"#{card['id']}", "bold"), f" {transport} ", (vp, "bold"))
    if fields:
        text += Text(" ") + Text("").join(cube(c) for c in card["fields"])
    return text


# --- the shift clock ---------------------------------------------------------------------------


def category_group(kind: str) -> str:
    groups = {
        "colour_fields": _("fields by colour"),
        "transport_fields": _("fields by transport"),
        "empty_carts": _("empty minecarts"),
    }
    return groups.get(kind, kind)


def shift_clock(view: dict[str, Any], edition: dict[str, Any]) -> Group:
    """The categories by the shift they join the scoring; those scored after this shift marked ✓."""
    shift = view["board"]["shift"]
    table = Table.grid(padding=(0, 1))
    if view["players"] > 2:
        title = _("Shift clock: majorities scored after each shift (VP for 1st/2nd place)")
    else:
        title = _("Shift clock: majorities scored after each shift (VP for 1st place; none for 2nd with 2 players)")
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column()
    rows: dict[tuple[int, str], list[Text]] = {}
    for category in edition["categories"]:
        if category["kind"] == "transport_fields":
            name = Text(transport_word(category["key"]))
        else:
            name = cube(category["key"])
        prize = f" {category['first']}/{category['second']}" if view["players"] > 2 else f" {category['first']}"
        rows.setdefault((category["from_shift"], category["kind"]), []).append(name + Text(prize))
    done = _("✓ scored") if view["phase"] == "over" else _("✓ scores")
    for (start, kind), entries in rows.items():
        scores = start <= shift
        mark = styled(done, "bold green") if scores else styled(_("from shift {shift}").format(shift=start), "dim")
        line = Text(" · ").join(entries)
        table.add_row(mark, styled(category_group(kind), "" if scores else "dim"), line)
    return Group(styled(title, "bold cyan"), table)


# --- the mines ---------------------------------------------------------------------------------


class Mines:
    """The players' panels, as many side by side as fit the width, the rows evenly filled."""

    def __init__(self, view: dict[str, Any], capacity: int) -> None:
        self.panels = [mine_panel(view, seat, capacity) for seat in range(len(view["board"]["seats"]))]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        count = len(self.panels)
        fit = max(1, min(count, (options.max_width + 1) // (MINE_WIDTH + 1)))
        per_row = -(-count // -(-count // fit))  # as many rows as needed, then as even as can be
        grid = Table.grid(expand=True, padding=(0, 1))
        for _column in range(per_row):
            grid.add_column(ratio=1, vertical="top")
        for start in range(0, count, per_row):
            row: list[RenderableType] = list(self.panels[start : start + per_row])
            grid.add_row(*row, *([""] * (per_row - len(row))))
        yield grid
        yield styled(_("Dark, Light: tiles by their minecarts (2+1: a 2-cart and a 1-cart tile) · ○ empty minecart · "
                       "◀ the cage, · a free spot in it"), "dim")  # fmt: skip


def mines(view: dict[str, Any], edition: dict[str, Any]) -> Mines:
    return Mines(view, edition["cage_capacity"])


def mine_panel(view: dict[str, Any], seat: int, capacity: int) -> Panel:
    me = view["board"]["seats"][seat]
    title = Text.assemble(
        short(seat), " ", player(view, seat), " · ", (_("{vp} VP").format(vp=me["vp"]), "bold"), " · ",
        (marks(me["money"]), "bold"),
    )  # fmt: skip
    workers = Text(_("Workers: {left} left · canteen {canteen} · bank {bank}").format(
        left=me["workers"], canteen=me["canteen"], bank=me["bank"]))  # fmt: skip
    body: list[RenderableType] = [workers, pit_table(me, capacity), balance_line(me), orders_table(me),
                                  delivered_line(view, me)]
    current = view["board"]["current"] == seat
    start = Text("★ " + _("start player")) if view["board"]["start_player"] == seat else None
    return Panel(Group(*body), title=Text("▶ " if current else "") + title, title_align="left",
                 subtitle=start, subtitle_align="left",
                 border_style=seat_style(seat) if current else "")  # fmt: skip


def pit_table(me: dict[str, Any], capacity: int) -> Table:
    """The surface and the four tunnels; each tunnel's tiles by side, its minecarts and their coal."""
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
    table.add_column(_("Level"), no_wrap=True)
    table.add_column(_("Dark"), no_wrap=True)
    table.add_column(_("Light"), no_wrap=True)
    table.add_column(_("Minecarts"), no_wrap=True)
    table.add_column(_("Cage"), no_wrap=True)
    cage = me["cage_level"]
    cage_text = cage_cell(me["cage"], capacity)
    storage = fill(_("storage {cubes}"), cubes=cubes(me["storage"]))
    table.add_row(styled(_("surface"), "bold"), "", "", storage, cage_text if cage == "surface" else "")
    for tunnel in me["tunnels"]:
        colour = tunnel["colour"]
        level = cube(colour) + Text(" " + colour_word(colour))
        table.add_row(level, tiles_cell(tunnel["dark"]), tiles_cell(tunnel["light"]), carts_cell(tunnel),
                      cage_text if cage == colour else "")  # fmt: skip
    return table


def cage_cell(load: dict[str, int], spots: int) -> Text:
    """◀ points at the cage's level; a letter per cube in it, · per free spot."""
    held = sum(load.values())
    return Text("◀ ") + cubes(load, "") + styled("·" * max(0, spots - held), "dim") + Text(f" {held}/{spots}")


def tiles_cell(tiles: list[dict[str, Any]]) -> Text:
    """Each tile as its number of minecarts: 2+1 is a tile with two and one with one."""
    if not tiles:
        return styled("—", "dim")
    return Text("+".join(str(t["carts"]) for t in tiles))


def carts_cell(tunnel: dict[str, Any]) -> Text:
    """One letter per full minecart (its cube's colour), ○ per empty one."""
    empty = tunnel["empty_carts"]
    return cubes(tunnel["coal"], "") + Text("○" * empty if empty <= MANY else f"○×{empty}")


def balance_line(me: dict[str, Any]) -> Text:
    light, dark = me["light_tiles"], me["dark_tiles"]
    if light == dark:
        return styled(_("Tiles: {light} light, {dark} dark").format(light=light, dark=dark), "dim")
    return styled(_("Tiles: {light} light, {dark} dark ({n} out of balance)").format(
        light=light, dark=dark, n=abs(light - dark)), "dim")  # fmt: skip


def orders_table(me: dict[str, Any]) -> RenderableType:
    orders = me["orders"]
    if not orders:
        return styled(_("Outstanding orders: none"), "dim")
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False, show_header=False)
    table.title = _("Outstanding orders ({n})").format(n=len(orders))
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_column()
    for order in orders:
        if order["missing"]:
            state = styled(_("{n} to fill").format(n=order["missing"]), "dim")
        else:
            state = styled("✓ " + _("ready"), "bold green")
        table.add_row(card_text(order, fields=False), fields_text(order), state)
    return table


def fields_text(order: dict[str, Any]) -> Text:
    """Each field: its printed colour, then ✓ when done, ○ while empty, (cubes) of substitutes."""
    parts = []
    for printed, filled in zip(order["fields"], order["filled"], strict=True):
        text = cube(printed)
        if filled == [printed] or len(filled) == 2:
            text += styled("✓", "green")
            if len(filled) == 2:
                text += Text("(") + cubes(filled) + Text(")")
        elif filled:
            text += Text("(") + cubes(filled) + Text(")")
        else:
            text += styled("○", "dim")
        parts.append(text)
    return Text(" ").join(parts)


def delivered_line(view: dict[str, Any], me: dict[str, Any]) -> Text:
    count = me["delivered_count"]
    label = styled(_("Delivered ({n}):").format(n=count), "bold")
    if not count:
        cards = styled(_("none"), "dim")
    elif me["delivered"] is None:
        cards = styled(_("face down") if view["phase"] == "over" else _("face down until the shift scoring"), "dim")
    else:
        cards = Text(" · ").join(card_text(card) for card in me["delivered"])
    return label + Text(" ") + cards


# --- the decision and the private hand ---------------------------------------------------------


def private_panel(view: dict[str, Any]) -> Panel | None:
    """What only the viewing seat sees (the draw-5 hand) and what it owes (substitute cubes)."""
    seat = view["seat"]
    rows: list[tuple[str, RenderableType]] = []
    drawn = view["board"]["drawn"]
    if drawn:
        if view["phase"] in ("keep_tile", "return_tiles"):
            rows.append((_("Drawn tunnel tiles\n(only you see them)"),
                         Text("\n").join(tile_text(t, with_id=True) for t in drawn)))  # fmt: skip
        else:
            rows.append((_("Drawn order cards\n(only you see them)"), Text("\n").join(card_text(c) for c in drawn)))
    returned = view["board"]["returned"]
    if returned:
        label = (_("Put back on top\n(the last one is drawn first)") if returned["to"] == "top"
                 else _("Put back under the pile\n(the last one lies lowest)"))
        tiles = view["phase"] == "return_tiles"
        rows.append((label, Text("\n").join(tile_text(i, with_id=True) if tiles else card_text(i)
                                            for i in returned["items"])))
    if view["board"]["substitutes_owed"] and view["board"]["current"] == seat:
        rows.append((_("Substitutes owed"), substitutes(view["board"]["substitutes_owed"])))
    if not rows:
        return None
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for label, value in rows:
        table.add_row(label, value)
    return Panel(table, title=_("Your hand"), title_align="left", expand=False)


def substitutes(owed: list[str]) -> Text:
    """The tunnels whose new minecarts wait for a cube of another colour."""
    return Text(", ").join(
        fill(_("a new minecart in the {colour} tunnel ({cube})"), colour=colour_word(c), cube=cube(c)) for c in owed
    )


def decision_panel(view: dict[str, Any], edition: dict[str, Any]) -> Panel:
    stage = view["phase"]
    current = view["board"]["current"]
    who = player(view, current)
    body: list[RenderableType] = []
    if stage == "over":
        winners = (view["final"] or {}).get("winners") or []
        template = _("Game over. Winner: {players}") if len(winners) == 1 else _("Game over. Winners: {players}")
        body.append(fill(template, players=players(view, winners)))
    elif stage == "draft":
        queue = Text(" → ").join(short(s) for s in view["board"]["draft_queue"])
        body.append(fill(_("{player} drafts an order card; still to draft: {queue}"), player=who, queue=queue))
        body.append(Columns([card_text(c) for c in view["board"]["draft"]], padding=(0, 3)))
    elif stage == "place":
        left = view["board"]["seats"][current]["workers"] if current is not None else 0
        body.append(fill(_("{player} places workers ({n} left)"), player=who, n=left))
    elif stage == "mining":
        body.extend(mining_run(view, edition["cage_capacity"]))
    elif stage in ("keep_tile", "return_tiles", "keep_order", "return_orders"):
        templates = {
            "keep_tile": _("{player} buys one of the 5 drawn tunnel tiles, or none"),
            "return_tiles": _("{player} returns the other drawn tunnel tiles one by one, in any order, all to the "
                              "top or all to the bottom of the stack"),
            "keep_order": _("{player} keeps one of the 5 drawn order cards, or none"),
            "return_orders": _("{player} returns the other drawn order cards one by one, in any order, all to the "
                               "top or all to the bottom of the deck"),
        }
        body.append(fill(templates[stage], player=who))
    elif stage == "coal":
        body.append(fill(_("{player} may put a cube of another colour on each new minecart, or leave it empty: "
                           "{minecarts}"), player=who,
                         minecarts=substitutes(view["board"]["substitutes_owed"])))  # fmt: skip
        body.append(fill(_("coal supply {cubes}"), cubes=supply(view["board"]["supply"])))
    elif stage == "confirm":
        body.append(fill(_("{player} confirms the turn; the space emptied is refilled then"), player=who))
    else:
        body.append(who + Text(f" {stage}"))
    return Panel(Group(*body), title=_("Now"), title_align="left", border_style="yellow", expand=False)


def mining_run(view: dict[str, Any], capacity: int) -> list[RenderableType]:
    """The run as a row of steps, used ones filled, with the steps left and where the cage stands."""
    current = view["board"]["current"]
    left = view["board"]["steps_left"]
    total = run_length(view, current, left)
    me = view["board"]["seats"][current]
    if total is None:
        track = styled("□" * left, "bold")
        head = _("{left} steps left").format(left=left)
    else:
        track = styled("■" * (total - left), "dim") + styled("□" * left, "bold")
        head = _("step {step} of {total}: {left} steps left").format(step=total - left + 1, total=total, left=left)
    level = me["cage_level"]
    where = _("at the surface") if level == "surface" else \
        _("in the {colour} tunnel").format(colour=colour_word(level))  # fmt: skip
    lines: list[RenderableType] = [
        fill(_("{player} mines: {progress}"), player=player(view, current), progress=styled(head, "bold"))
        + Text("  ") + track,
        fill(_("Cage {where}, holding {cubes}"), where=where, cubes=cage_cell(me["cage"], capacity)) + Text(" · ")
        + fill(_("storage {cubes}"), cubes=cubes(me["storage"])),
    ]  # fmt: skip
    if level == "surface":
        here = _("At the surface a step puts 1 cube from the cage into storage or onto an order field, "
                 "or moves the cage down.")
    else:
        here = _("In a tunnel a step loads 1 cube from one of its minecarts into the cage, or moves the cage.")
    lines.append(styled(here + " " + _("A step can also put 1 cube from storage onto an order field. A field takes "
                                       "a cube of its colour, or two cubes of other colours."), "dim"))  # fmt: skip
    return lines


def run_length(view: dict[str, Any], seat: int, left: int) -> int | None:
    """The steps of the pit the seat is mining from, when only one of its pits fits."""
    fits = []
    for space_id, entry in view["board"]["spaces"].items():
        kind, value = space_kind(space_id)
        if kind == MINING and value.isdigit() and entry.get("owner") == seat and int(value) >= left:
            fits.append(int(value))
    return fits[0] if len(fits) == 1 else None


# --- the end -----------------------------------------------------------------------------------


def render_final(view: dict[str, Any], described: dict[str, Any]) -> RenderableType | None:
    rows = (view["final"] or {}).get("detail")
    if not rows:
        return None
    winners = (view["final"] or {}).get("winners") or []
    table = Table(title=_("Final scores (victory points by source)"))
    table.add_column(_("Player"))
    rules = described["board"]
    table.caption = _(
        "Marks: 1 VP per {marks} Marks · Coal: 1 VP per {coal} cubes (cubes owned) · Orders: {order} VP per order "
        "outstanding (orders) · Balance: {tile} VP per tile one side has in excess (light:dark) · Marks kept: the "
        "tie-break"
    ).format(marks=rules["marks_per_vp"], coal=rules["coal_per_vp"], order=rules["vp_per_outstanding_order"],
             tile=rules["vp_per_unbalanced_tile"])  # fmt: skip
    table.caption_justify = "left"
    for column in (_("Shifts, deliveries"), _("Marks"), _("Coal"), _("Orders"), _("Balance"), _("Total"),
                   _("Marks kept")):  # fmt: skip
        table.add_column(column, justify="right")
    for seat, row in enumerate(rows):
        total = view["board"]["seats"][seat]["vp"]
        name = player(view, seat)
        if seat in winners:
            name += styled(" ★ " + _("winner"), "bold")
        table.add_row(
            name, str(total - row["total_vp"]), str(row["marks_vp"]), f"{row['coal_vp']} ({row['coal']})",
            f"{row['outstanding_vp']} ({row['outstanding']})",
            f"{row['balance_vp']} ({row['light_tiles']}:{row['dark_tiles']})",
            styled(str(total), "bold"), str(row["kept_marks"]),
        )  # fmt: skip
    return table
