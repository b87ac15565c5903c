"""The phases of Die Macher, declared for the engine's flow (engine/flow.py): setup H and J, then
each round's nine phases (die-macher.md §6); one module per phase."""

from __future__ import annotations

from stammtisch.engine.flow import Flow
from stammtisch.games.diemacher.phases.cabinet import CABINET
from stammtisch.games.diemacher.phases.convert import CONVERT
from stammtisch.games.diemacher.phases.draft import DRAFT, KEEP, PROGRAM, PROGRAM_MORE
from stammtisch.games.diemacher.phases.election import ELECTION
from stammtisch.games.diemacher.phases.media import MEDIA
from stammtisch.games.diemacher.phases.media_shift import MEDIA_SHIFT
from stammtisch.games.diemacher.phases.money import MONEY
from stammtisch.games.diemacher.phases.politicians import POLITICIANS
from stammtisch.games.diemacher.phases.polls import POLL_USE, POLLS
from stammtisch.games.diemacher.phases.program import PROGRAM_CHANGE, PROGRAM_CHANGES
from stammtisch.games.diemacher.phases.rallies import RALLIES
from stammtisch.games.diemacher.phases.start import START
from stammtisch.games.diemacher.phases.start_player import BID, REBID
from stammtisch.i18n import N_

FLOW = Flow(
    (DRAFT, PROGRAM, PROGRAM_MORE, KEEP, START, BID, REBID, PROGRAM_CHANGES, MEDIA, RALLIES, CABINET, POLITICIANS,
     MEDIA_SHIFT, POLLS, CONVERT, ELECTION, MONEY),
    # A poll card in hand comes first: FREE_POLL can be drawn in the middle of a program change's phase.
    interludes=(POLL_USE, PROGRAM_CHANGE),
    stage="step",  # phase 6's declared stages (phases/politicians.py)
    over_label=N_("Final scoring"),
)
