"""Die Macher's guided first game ("Learn to play", stammtisch/guide.py): 4 elections, the newcomer and two
heuristic bots, from a fixed deal. A step per phase the game waits in, one per result panel (the election, a
published poll); the headings are the phase track's own labels, the first sentences the rules page's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Event
from stammtisch.games.diemacher.text import Names, describe_event
from stammtisch.guide import Guide, Point, Step
from stammtisch.i18n import N_, _

# The pieces the steps point at (selectors of diemacher.js's board, or of the table page's frame).
DECISION = Point("#decision", N_("Your decision"))
TRACK = Point(".dm-phases", N_("The phase track"))
MAP = Point(".dm-map", N_("The map of the states"))
STATES = Point(".dm-states", N_("The states' table: opinions, media markers, votes"))
PARTIES = Point(".dm-party-table", N_("The parties' table: money, trend, party base"))
PRIVATE = Point(".dm-private", N_("Your party: program, hand and politicians"))
DISPLAYS = Point(".dm-displays", N_("The displays: program cards, opinions, polls"))
SCORES = Point(".dm-scores", N_("The scores"))
LOG = Point("#log-panel", N_("The log"))

STEPS = (
    Step(N_("Program draft"), (
        N_("Before the first round every party drafts program cards in secret and lays out five cards of five "
           "different topics as its party program; it keeps one more card in hand."),
        N_("What matters: an opinion of a state that your program shares multiplies your votes there, so look "
           "at the opinions the states show before you pick."),
    ), (PRIVATE, STATES), phase="draft"),
    Step(N_("Choose your program"), (
        N_("Choose five cards of five different topics for your party program."),
        N_("What matters: topics that many states show face up; a card of the opposite attitude costs you "
           "votes there."),
    ), (PRIVATE, STATES), phase="program", covers=("program_more",)),
    Step(N_("Keep one card"), (
        N_("One card of those left stays in your hand; the others are discarded."),
        N_("What matters: a card in hand lets you change your program later (phase 2) without waiting for "
           "the display."),
    ), (PRIVATE,), phase="keep"),
    Step(N_("Start positions"), (
        N_("Then everyone chooses a block of start positions in secret and names a state for each of its spots: "
           "3 party rallies, +1 trend, a media marker or 6 votes there."),
        N_("What matters: the state elected first comes soonest; votes there count at once."),
    ), (MAP, STATES), phase="start"),
    Step(N_("1 Determine the Start Player"), (
        N_("Everyone bids money in secret. The highest bid pays it to the bank and becomes start player; the "
           "others pay nothing. A tie is decided by open bids of the tied parties."),
        N_("What matters: the start player chooses first in every phase of the round; money is short, so bid "
           "little unless going first wins you something."),
    ), (TRACK, PARTIES), phase="bid"),
    Step(N_("1 Determine the Start Player (tie)"), (
        N_("The highest secret bids were equal: the tied parties now bid openly, in turn, until all but one "
           "pass."),
        N_("What matters: only the winner pays; pass when the start is not worth more to you."),
    ), (TRACK, PARTIES), phase="rebid"),
    Step(N_("2 Changes to the Party Programs"), (
        N_("In turn order you may draw the top program card or renew the display, and take one card of the "
           "display into your hand. Then swap up to two cards of your party program for cards in hand (five "
           "different topics stay) and keep one card in hand."),
        N_("What matters: bring your program closer to the opinions of the states still to be elected."),
    ), (DISPLAYS, PRIVATE), phase="program_change", covers=("program_changes",)),
    Step(N_("3 Secure Media Influence"), (
        N_("Buy media markers for €5,000 each until everyone passes."),
        N_("The party with the most media markers in a state is its media influencer: it acts in phase 7, and a "
           "published poll cannot lower its trend."),
    ), (STATES, MAP), phase="media"),
    Step(N_("4 Organize Party Rallies"), (
        N_("Once each, in turn order, place party rallies in any states, at most 8 of yours in a state. Each "
           "state is priced on its own, by how many you place there now: the drawing shows the price of 1 to 8 "
           "in thousands of euros."),
        N_("What matters: rallies become votes in phase 9a; put them where the election comes soon and your "
           "program matches."),
    ), (STATES, PARTIES), phase="rallies"),
    Step(N_("5 Send Shadow Cabinet"), (
        N_("Once each, in turn order, send at most one politician face down to each state. It costs nothing; "
           "the others see where you sent one, not who it is."),
        N_("What matters: each politician's actions (your tooltips list them) work only in the state you send "
           "it to."),
    ), (PRIVATE, STATES), phase="cabinet"),
    Step(N_("6 Actions of the Shadow Cabinet"), (
        N_("State by state the politicians are revealed. Pay a politician's cost or let it go unused; paid, it "
           "takes its main action and one secondary action in its state, in the order they were sent. An action "
           "marked ! happens once per state and round."),
        N_("What matters: pay only for a politician whose action helps you in that state."),
    ), (STATES, PRIVATE), phase="politicians"),
    Step(N_("Use a poll card"), (
        N_("A poll card you win may be published (your trend rises, rivals with a minus fall, except the "
           "media influencer) or kept secret for +3 party base."),
        N_("What matters: publish where the trend changes help you in a state elected soon."),
    ), (PRIVATE, STATES), phase="poll_use"),
    Step(N_("7 Media Influence"), (
        N_("In each state the media influencer may replace one face-up opinion that is not doubled with a card "
           "of the opinion display whose topic the state's other opinions do not show."),
        N_("What matters: swap an opinion your program opposes for one it shares."),
    ), (STATES, DISPLAYS), phase="media_shift"),
    Step(N_("8 Auctioning off of Polls"), (
        N_("In each state the party with the most votes there auctions the top poll card; the highest bid pays "
           "the bank and takes the card."),
        N_("What matters: a poll moves the trends of a state, and the trend adds to every rally you convert."),
    ), (DISPLAYS, STATES), phase="polls"),
    Step(N_("9a Relocate Votes"), (
        N_("Rallies turn into votes: (rallies + trend) × match, where each factor counts at least 1. In the "
           "state being elected every rally must be converted; elsewhere you may convert 4 or more."),
        N_("Match: each face-up opinion of the state that your program shares (same topic and attitude) counts "
           "+1, an opposite one −1; a doubled opinion counts twice."),
    ), (STATES, DECISION), phase="convert"),
    Step(N_("9b Determine Effects of the Federal State Election"), (
        N_("Each party scores victory points for its votes by the state's table (fewer than 5 votes score "
           "nothing). A party with 50 votes or more gets 12 victory points (10 each if several reach 50)."),
        N_("Otherwise the strongest party forms a coalition with the partner whose program is most like its "
           "own and who brings the votes to 50: 7 points each; without a partner the strongest party gets 5."),
    ), (STATES, SCORES, LOG), phase="election"),
    Step(N_("The election result"), (
        N_("The first state has voted: the log and the states' table show each party's votes and victory "
           "points."),
        N_("The winners (or the media influencer) move a media marker from the state to the media-presence "
           "track, worth points at the end."),
    ), (SCORES, LOG), event="election", covers=("election",)),
    Step(N_("A poll published"), (
        N_("A published poll changes the trends of one state: a plus raises a party's trend, a minus lowers it, "
           "but never the media influencer's."),
        N_("What matters: the trend is added to the rallies of every conversion there."),
    ), (STATES, LOG), event="poll_published"),
    Step(N_("9c Pay Money"), (
        N_("After each election you receive €1,000 per election victory point and per point of party base. "
           "A donation gives money but costs party base; declining it raises the base."),
        N_("What matters: then the next state comes up and the next round begins at phase 1."),
    ), (PARTIES, TRACK), phase="money"),
    Step(N_("Final scoring"), (
        N_("After the last election: election points, media-presence points and the party base are added; the "
           "most money left scores 6, the second most 3. The most victory points wins; a tie is shared."),
        N_("You have played your first game of Die Macher: the rules page sums up every phase."),
    ), (SCORES,), phase="over"),
)


def why(events: Sequence[Event], view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
    """Why the election came out so (from its event), or what the poll changed (the log's sentence)."""
    event = events[0]
    if event.kind == "poll_published":
        return describe_event(event, view, names)
    if event.kind != "election":
        return None
    p, n = event.params, Names(view)
    votes: list[int] = p["votes"]
    state = n.board(p["board"])
    awarded = [n.party(seat) for seat in p["awarded"]]
    if p["outcome"] == "sole":
        return _("{party} won {state} alone: {votes} votes, a majority of 50 or more.").format(
            party=awarded[0], state=state, votes=votes[p["awarded"][0]])
    if p["outcome"] == "several":
        return _("Several parties reached 50 votes in {state}: {parties}.").format(
            state=state, parties=", ".join(f"{n.party(seat)} ({votes[seat]})" for seat in p["awarded"]))
    strongest = p["awarded"][0]
    if p["outcome"] == "coalition":
        partner = p["awarded"][1]
        return _("No party reached 50 votes in {state}: {party}, the strongest with {votes}, formed a coalition "
                 "with {partner} ({others} votes), whose program is most like its own.").format(
            state=state, party=awarded[0], votes=votes[strongest], partner=awarded[1], others=votes[partner])
    return _("No party reached 50 votes in {state} and no partner brought {party} ({votes} votes) to 50: it wins "
             "alone with fewer points.").format(state=state, party=awarded[0], votes=votes[strongest])


GUIDE = Guide(players=3, seed=2026, options={"elections": 4}, bots="heuristic", steps=STEPS,
              why="stammtisch.games.diemacher.guide:why")
