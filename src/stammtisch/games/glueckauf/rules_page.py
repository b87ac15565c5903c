"""Glück Auf's short rules page (``/rules/glueckauf``), written from the rules specification
(glueck-auf.md): sections of a heading and paragraphs, each an ``N_`` text translated where the page is
drawn (``web/rules.py``).  The spec names this table (``GameSpec.rules_page``)."""

from __future__ import annotations

from stammtisch.i18n import N_

RULES = (
    (N_("The aim"), (
        N_("You run a coal mine for three shifts: buy tunnel tiles, mine coal, fill order cards and deliver "
           "them. The most victory points after the third shift win; a tie goes to the most money left."),
    )),
    (N_("A turn"), (
        N_("In turn, place workers on one space and take its action. An empty space takes one worker; an "
           "occupied space takes one more worker than stand there, and those go to the canteen."),
        N_("The bank always takes exactly one worker and pays 1 Mark. The shift ends when everyone has placed "
           "all their workers."),
    )),
    (N_("The actions"), (
        N_("Factory: buy the tunnel tile of the space (1, 2, 3 or 4 Marks per minecart by colour) and add it "
           "to your pit on its level and side; each minecart gets a coal cube."),
        N_("Mining: up to 4, 6, 8 or 10 work steps: move the cage up or down, load a cube into the cage "
           "(at most 5), and at the surface put cubes on order fields or into your storage."),
        N_("Delivery: deliver every completed order of that transport and score its victory points at once. "
           "Money: take 3 to 6 Marks. New order: take an order card; the draw-5 spaces let you pick from five."),
        N_("An order field takes a cube of its colour, or two cubes of other colours instead."),
    )),
    (N_("Shift scoring"), (
        N_("After each shift, majorities score: the colours of delivered order fields (every shift), fields "
           "per transport (from shift II) and empty minecarts per colour (shift III). Ties share first place; "
           "with two players there is no second place."),
        N_("The player with the most workers in the factory starts the next shift."),
    )),
    (N_("The end"), (
        N_("After the third shift: 1 victory point per 5 Marks and per 3 coal cubes you own, −1 per order not "
           "delivered, and −2 per tunnel tile that one side of your pit has more than the other."),
    )),
)
