"""Glück Auf's guided first game ("Learn to play", stammtisch/guide.py): the newcomer and one heuristic bot, from
a fixed deal. A step per phase the game waits in, and the first shift's scoring explained in depth; the
headings are the phases' own labels, the first sentences the rules page's. The first shift is explained in
depth: besides its phases, the first tile bought, the first delivery and the shift's scoring, each with what it
brought whom."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Event
from stammtisch.games.glueckauf.text import describe_event
from stammtisch.guide import Guide, Point, Step
from stammtisch.i18n import N_, _

# The pieces the steps point at (selectors of glueckauf.js's board, or of the table page's frame).
DECISION = Point("#decision", N_("Your decision"))
STAGE = Point(".ga-status", N_("The stage line: shift, turn and phase"))
SPACES = Point(".ga-board", N_("The action spaces and their workers"))
PIT = Point(".ga-pit", N_("Your pit: tunnel tiles, minecarts and the cage"))
ORDERS = Point(".ga-orders-own", N_("Your order cards"))
CLOCK = Point(".ga-clock", N_("The shift clock: the scoring categories"))
LOG = Point("#log-panel", N_("The log"))

STEPS = (
    Step(N_("Drafting orders"), (
        N_("Take order cards in turn until everyone holds 3."),
        N_("What matters: an order card asks for coal cubes of given colours; choose orders whose colours "
           "your pit can bring up and whose transport scores well."),
    ), (ORDERS, STAGE), phase="draft"),
    Step(N_("Placing workers"), (
        N_("In turn, place workers on one space and take its action. An empty space takes one worker; an "
           "occupied space takes one more worker than stand there, and those go to the canteen."),
        N_("The bank always takes exactly one worker and pays 1 Mark. The shift ends when everyone has placed "
           "all their workers."),
        N_("What matters: a factory tile brings coal, mining moves it to your orders, a delivery scores them."),
    ), (SPACES, PIT, DECISION), phase="place"),
    Step(N_("Factory (tunnel tiles)"), (
        N_("Factory: buy the tunnel tile of the space (1, 2, 3 or 4 Marks per minecart by colour) and add it "
           "to your pit on its level and side; each minecart gets a coal cube."),
        N_("What matters: more coal of the colours your orders ask for; the pit's two sides should stay even."),
    ), (PIT, SPACES), event="tile_bought"),
    Step(N_("Delivery, money and new orders"), (
        N_("Delivery: deliver every completed order of that transport and score its victory points at once. "
           "Money: take 3 to 6 Marks. New order: take an order card; the draw-5 spaces let you pick from five."),
        N_("What matters: a delivered order also counts for the shift's majorities: its colours and its "
           "transport."),
    ), (ORDERS, CLOCK), event="delivered"),
    Step(N_("Mining"), (
        N_("Mining: up to 4, 6, 8 or 10 work steps: move the cage up or down, load a cube into the cage "
           "(at most 5), and at the surface put cubes on order fields or into your storage."),
        N_("An order field takes a cube of its colour, or two cubes of other colours instead."),
    ), (PIT, ORDERS), phase="mining"),
    Step(N_("Choosing a drawn tunnel tile"), (
        N_("The draw-5 space: draw five tunnel tiles, buy one or none, and put the others back on the top or "
           "the bottom of the stack."),
        N_("What matters: a tile's minecarts bring coal of its colour; keep both sides of your pit even."),
    ), (PIT, DECISION), phase="keep_tile"),
    Step(N_("Returning drawn tunnel tiles"), (
        N_("Put the tiles you did not buy back on the top or the bottom of the stack."),
        N_("What matters: a tile on top is the next one anybody draws."),
    ), (DECISION,), phase="return_tiles"),
    Step(N_("Choosing a drawn order card"), (
        N_("Delivery: deliver every completed order of that transport and score its victory points at once. "
           "Money: take 3 to 6 Marks. New order: take an order card; the draw-5 spaces let you pick from five."),
        N_("What matters: an order you cannot fill costs a victory point at the end."),
    ), (ORDERS, DECISION), phase="keep_order"),
    Step(N_("Returning drawn order cards"), (
        N_("Put the order cards you did not take back on the top or the bottom of the pile."),
        N_("What matters: a card on top is the next one anybody draws."),
    ), (DECISION,), phase="return_orders"),
    Step(N_("Substitute coal"), (
        N_("When the supply lacks a colour, a minecart may take a coal cube of another colour."),
        N_("What matters: choose the colour your orders need."),
    ), (PIT, DECISION), phase="coal"),
    Step(N_("Confirming the turn"), (
        N_("Your action is done: confirm the turn, or take it back while it revealed nothing."),
        N_("What matters: look at your pit and orders once more before the other player goes on."),
    ), (DECISION, PIT), phase="confirm"),
    Step(N_("Shift scoring"), (
        N_("After each shift, majorities score: the colours of delivered order fields (every shift), fields "
           "per transport (from shift II) and empty minecarts per colour (shift III). Ties share first place; "
           "with two players there is no second place."),
        N_("The shift clock shows each category with its victory points; the log lists what each category gave "
           "whom."),
        N_("The player with the most workers in the factory starts the next shift."),
    ), (CLOCK, LOG), event="shift_ends"),
    Step(N_("Game over"), (
        N_("After the third shift: 1 victory point per 5 Marks and per 3 coal cubes you own, −1 per order not "
           "delivered, and −2 per tunnel tile that one side of your pit has more than the other."),
        N_("You have played your first game of Glück Auf: the rules page sums up every phase."),
    ), (LOG,), phase="over"),
)


def why(events: Sequence[Event], view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
    """What each category of the shift scored, and whom (the log's lines of this scoring); what a tile bought
    or a delivery brought (the log's sentence)."""
    if events[0].kind in ("tile_bought", "delivered"):
        return describe_event(events[0], view, names)
    scored = [describe_event(e, view, names) for e in events if e.kind == "category_scored"]
    if not scored:
        return None
    return _("This shift scored: {categories}.").format(categories="; ".join(scored))


GUIDE = Guide(players=2, seed=2026, steps=STEPS, bots="heuristic", why="stammtisch.games.glueckauf.guide:why")
