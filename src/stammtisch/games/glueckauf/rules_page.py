"""Glück Auf's rules page (``/rules/glueckauf``), written from the rules specification (glueck-auf.md): the
order draft, a turn, a section per action with its phases, the shift scoring and the end, each with a small
drawing of the part of the board it changes and its line on the turn summary card.  Texts are ``N_`` msgids,
translated where the page is drawn (``web/rules.py``); the spec names this table (``GameSpec.rules_page``)."""

from __future__ import annotations

from stammtisch.i18n import N_
from stammtisch.registry import RulesSection
from stammtisch.web.drawing import arrow, circle, cubes, line, rect, sign, svg

COLOURS = ("coal-yellow", "coal-brown", "coal-grey", "coal-black")


def _worker(x: float, y: float, kind: str = "accent") -> str:
    return circle(x, y - 8, 4, kind) + rect(x - 5, y - 4, 10, 10, kind, 3)


def _order(x: float, y: float, fields: int = 3, kind: str = "card") -> str:
    return rect(x, y, 30, 40, kind) + "".join(rect(x + 4 + 8 * i, y + 26, 6, 6, "piece", 1) for i in range(fields))


DRAFT = svg(*(_order(6 + 34 * i, 10, 2 + i % 2, "card accent-edge" if i == 2 else "card") for i in range(5)),
            arrow(86, 56, 86, 76), *(_order(56 + 34 * i, 60, 3) for i in range(2)))
PLACE = svg(rect(10, 40, 50, 40, "board", 4), _worker(35, 66, "piece"), arrow(64, 60, 86, 60),
            rect(90, 40, 50, 40, "board", 4), _worker(105, 66), _worker(123, 66),
            rect(152, 40, 40, 40, "faint", 4), _worker(172, 66, "piece"), arrow(140, 30, 168, 42))
FACTORY = svg(rect(8, 10, 60, 30, "card accent-edge"), rect(16, 18, 14, 14, COLOURS[1], 2),
              rect(36, 18, 14, 14, COLOURS[1], 2), arrow(74, 25, 96, 44),
              *(rect(100 + 22 * (i % 4), 20 + 18 * (i // 4), 20, 16, "faint" if i in (5, 7) else "board", 2)
                for i in range(12)), line(144, 12, 144, 80, "stroke"))
MINING = svg(rect(90, 6, 20, 88, "board", 2), rect(92, 40, 16, 18, "accent", 2), line(100, 6, 100, 40, "stroke"),
             *(rect(114 + 20 * i, 30 + 20 * j, 18, 14, COLOURS[j + 1], 2) for i in range(3) for j in range(3)),
             rect(10, 6, 60, 20, "board", 2), cubes(16, 12, 3, COLOURS[0], 7), arrow(86, 30, 72, 18))
ORDERS = svg(_order(10, 20, 3, "card accent-edge"), cubes(14, 46, 3, COLOURS[2], 6), arrow(46, 40, 70, 40),
             rect(74, 22, 50, 36, "board", 4), sign(99, 40, "+", "accent", 16), rect(140, 22, 50, 36, "board", 4),
             sign(165, 40, "€", "ink", 16))
SHIFT = svg(circle(50, 50, 40, "board"), *(line(50, 50, 50 + 38 * dx, 50 + 38 * dy, "stroke")
                                            for dx, dy in ((0, -1), (0.87, 0.5), (-0.87, 0.5))),
            arrow(50, 50, 78, 30), sign(140, 30, "1", "accent", 18), sign(170, 30, "2", "ink", 14),
            rect(120, 50, 24, 30, "accent", 2), rect(152, 62, 24, 18, "piece", 2))
THE_END = svg(sign(30, 50, "€", "ink", 20), sign(60, 50, "5", "ink", 14), cubes(90, 50, 3, COLOURS[3], 8),
              rect(150, 20, 16, 60, "board", 2), rect(170, 40, 16, 40, "board", 2), sign(185, 16, "−2", "accent", 12))

RULES = (
    RulesSection(N_("The aim"), (
        N_("You run a coal mine for three shifts: buy tunnel tiles, mine coal, fill order cards and deliver "
           "them. The most victory points after the third shift win; a tie goes to the most money left."),
    )),
    RulesSection(N_("Drafting orders"), (
        N_("Before the first shift, starting right of the start player and going counter-clockwise, each player "
           "takes one of the face-up order cards until everyone holds 3; the card left over goes to an order "
           "space."),
    ), ("draft",), N_("Take order cards in turn until everyone holds 3."), DRAFT),
    RulesSection(N_("Placing workers"), (
        N_("In turn, place workers on one space and take its action. An empty space takes one worker; an "
           "occupied space takes one more worker than stand there, and those go to the canteen."),
        N_("The bank always takes exactly one worker and pays 1 Mark. The shift ends when everyone has placed "
           "all their workers."),
    ), ("place", "confirm"), N_("Place workers on one space (one more than stand there) and take its action."),
        PLACE),
    RulesSection(N_("Factory (tunnel tiles)"), (
        N_("Factory: buy the tunnel tile of the space (1, 2, 3 or 4 Marks per minecart by colour) and add it "
           "to your pit on its level and side; each minecart gets a coal cube."),
        N_("The draw-5 space: draw five tunnel tiles, buy one or none, and put the others back on the top or "
           "the bottom of the stack. When the supply lacks a colour, a minecart may take a coal cube of "
           "another colour."),
    ), ("keep_tile", "return_tiles", "coal"), N_("Buy a tunnel tile: your pit grows, its minecarts bring coal."),
        FACTORY),
    RulesSection(N_("Mining"), (
        N_("Mining: up to 4, 6, 8 or 10 work steps: move the cage up or down, load a cube into the cage "
           "(at most 5), and at the surface put cubes on order fields or into your storage."),
        N_("An order field takes a cube of its colour, or two cubes of other colours instead."),
    ), ("mining",), N_("Move coal with the pit cage to your orders and storage."), MINING),
    RulesSection(N_("Delivery, money and new orders"), (
        N_("Delivery: deliver every completed order of that transport and score its victory points at once. "
           "Money: take 3 to 6 Marks. New order: take an order card; the draw-5 spaces let you pick from five."),
    ), ("keep_order", "return_orders"), N_("Deliver completed orders for VP, take Marks or take a new order."),
        ORDERS),
    RulesSection(N_("Shift scoring"), (
        N_("After each shift, majorities score: the colours of delivered order fields (every shift), fields "
           "per transport (from shift II) and empty minecarts per colour (shift III). Ties share first place; "
           "with two players there is no second place."),
        N_("The player with the most workers in the factory starts the next shift."),
    ), (), N_("After each shift: majorities score; the most workers in the factory start next."), SHIFT),
    RulesSection(N_("The end"), (
        N_("After the third shift: 1 victory point per 5 Marks and per 3 coal cubes you own, −1 per order not "
           "delivered, and −2 per tunnel tile that one side of your pit has more than the other."),
    ), ("over",), N_("After the third shift: Marks, coal, open orders and the pit's balance score."), THE_END),
)
