"""The phases of Glück Auf, declared for the engine's flow (engine/flow.py): the order draft, then
the steps of a turn (placing a worker and the decisions of its action); one module per phase, and
shift.py for the end of a turn, a shift and the game."""

from __future__ import annotations

from stammtisch.engine.flow import Flow
from stammtisch.games.glueckauf.phases.draft import DRAFT_PHASE
from stammtisch.games.glueckauf.phases.factory import COAL_PHASE, KEEP_TILE_PHASE, RETURN_TILES_PHASE
from stammtisch.games.glueckauf.phases.mining import MINING_PHASE
from stammtisch.games.glueckauf.phases.orders import KEEP_ORDER_PHASE, RETURN_ORDERS_PHASE
from stammtisch.games.glueckauf.phases.placement import CONFIRM_PHASE, PLACE_PHASE

FLOW = Flow(
    (DRAFT_PHASE, PLACE_PHASE, MINING_PHASE, KEEP_TILE_PHASE, RETURN_TILES_PHASE, KEEP_ORDER_PHASE,
     RETURN_ORDERS_PHASE, COAL_PHASE, CONFIRM_PHASE),
)
