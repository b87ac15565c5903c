"""Die Macher's rules page (``/rules/diemacher``), written from the rules specification (die-macher.md §3–§6):
a section per phase of an election round (headed by the phase track's own label), each with a small drawing
of the part of the board it changes and its line on the turn summary card.  Texts are ``N_`` msgids,
translated where the page is drawn (``web/rules.py``); the spec names this table (``GameSpec.rules_page``)."""

from __future__ import annotations

from stammtisch.i18n import N_
from stammtisch.registry import RulesSection
from stammtisch.web.drawing import arrow, circle, cubes, line, rect, sign, svg


def _card(x: float, y: float, mark: str, kind: str = "card") -> str:
    """A program or opinion card: a topic dot and its attitude (+ or −)."""
    return rect(x, y, 24, 34, kind) + circle(x + 12, y + 11, 5, "piece") + sign(x + 12, y + 25, mark, "ink", 11)


def _state(x: float, y: float, w: float = 90, h: float = 70) -> str:
    return rect(x, y, w, h, "board", 6)


SETUP = svg(*(_card(8 + 30 * i, 10, "+−+−+"[i]) for i in range(5)), _card(162, 10, "−", "card faint"),
            rect(8, 62, 144, 28, "board", 4),
            *(circle(22 + 30 * i, 76, 6, "accent" if i % 2 else "piece") for i in range(5)))
BID = svg(*(rect(14 + 46 * i, 30, 34, 40, "card accent-edge" if i == 2 else "card") for i in range(4)),
          *(sign(31 + 46 * i, 50, "€", "ink", 16) for i in range(4)), sign(123, 16, "1", "accent", 16))
PROGRAM = svg(*(_card(6 + 28 * i, 8, "+") for i in range(4)), arrow(60, 48, 60, 60),
              *(_card(6 + 28 * i, 62, "+−+−+"[i], "card accent-edge" if i == 1 else "card") for i in range(5)),
              _card(162, 36, "−", "card faint"), arrow(156, 53, 150, 72))
MEDIA = svg(_state(8, 14, 130), *(circle(30 + 24 * i, 48, 9, "accent" if i < 2 else "piece empty") for i in range(5)),
            sign(170, 48, "€", "ink", 18))
RALLIES = svg(rect(4, 4, 192, 92, "board", 6),
              *(cubes(10 + 24 * i, 58, i + 1, "accent", 6, 2) for i in range(8)),
              *(sign(18 + 24 * i, 84, str(price), "ink", 10) for i, price in enumerate((1, 2, 3, 5, 7, 10, 15, 20))))
CABINET = svg(_state(6, 14), _state(104, 14), rect(22, 26, 26, 36, "card back"), rect(54, 26, 26, 36, "card back"),
              rect(120, 26, 26, 36, "card back"))
POLITICIANS = svg(_state(6, 14, 188), rect(20, 24, 34, 50, "card back"), arrow(58, 49, 82, 49),
                  rect(86, 24, 34, 50, "card accent-edge"), sign(103, 36, "€", "ink", 12),
                  sign(103, 58, "+3", "accent", 12), sign(160, 49, "!", "accent", 22))
MEDIA_SHIFT = svg(_state(6, 10, 120, 80), *(_card(14 + 28 * i, 22, "+−++"[i]) for i in range(4)),
                  circle(26, 74, 6, "accent"), circle(42, 74, 6, "accent"), _card(160, 22, "−", "card accent-edge"),
                  arrow(158, 40, 102, 40))
POLLS = svg(rect(10, 14, 46, 66, "card accent-edge"), sign(33, 34, "+2", "accent", 13), sign(33, 58, "−1", "ink", 13),
            *(rect(72 + 12 * i, 40, 11, 14, "piece" if i != 6 else "accent", 1) for i in range(10)),
            arrow(134, 20, 150, 38))
CONVERT = svg(cubes(10, 52, 6, "accent", 9, 3), sign(56, 48, "×", "ink", 18), _card(70, 30, "+"), _card(98, 30, "+"),
              arrow(130, 48, 150, 48), rect(154, 34, 38, 28, "board", 4), sign(173, 48, "24", "ink", 14))
ELECTION = svg(rect(10, 16, 110, 16, "accent", 2), rect(10, 42, 70, 16, "piece", 2), rect(10, 68, 36, 16, "piece", 2),
               line(100, 8, 100, 94, "threshold"), sign(100, 4, "50", "ink", 9), sign(150, 24, "12", "accent", 14),
               sign(150, 50, "·", "ink", 14), circle(182, 24, 7, "accent"))
MONEY = svg(*(circle(26 + 22 * i, 46, 10, "accent") for i in range(4)), sign(130, 46, "+", "ink", 16),
            rect(150, 26, 36, 40, "card"), sign(168, 46, "€", "ink", 16))
PREPARE = svg(*(_state(6 + 48 * i, 22, 42, 56) for i in range(4)), rect(10, 26, 34, 48, "faint", 4),
              arrow(38, 90, 74, 90), sign(75, 34, "+", "accent", 14), sign(123, 34, "+", "accent", 14),
              sign(171, 34, "+", "accent", 14))
THE_END = svg(rect(6, 30, 188, 40, "board", 6), *(circle(24 + 30 * i, 50, 9, "accent" if i < 3 else "piece empty")
                                                  for i in range(6)))

RULES = (
    RulesSection(N_("The aim"), (
        N_("You lead a party through 4 state elections (7 in the long game). Win votes in the state that is "
           "elected each round; the party with the most victory points at the end wins."),
        N_("Victory points come from the votes in each election, from winning or joining a coalition, from "
           "media markers on the media-presence track, from your party base and from money left at the end."),
    )),
    RulesSection(N_("Setup"), (
        N_("Before the first round every party drafts program cards in secret and lays out five cards of five "
           "different topics as its party program; it keeps one more card in hand."),
        N_("Then everyone chooses a block of start positions in secret and names a state for each of its spots: "
           "3 party rallies, +1 trend, a media marker or 6 votes there."),
    ), ("draft", "program", "program_more", "keep", "start"),
        N_("Draft your party program (five topics), then place your start positions."), SETUP),
    RulesSection(N_("1 Determine the Start Player"), (
        N_("Everyone bids money in secret. The highest bid pays it to the bank and becomes start player; the "
           "others pay nothing. A tie is decided by open bids of the tied parties."),
    ), ("bid", "rebid"), N_("A secret bid: the highest bidder pays and starts."), BID),
    RulesSection(N_("2 Changes to the Party Programs"), (
        N_("In turn order you may draw the top program card or renew the display, and take one card of the "
           "display into your hand. Then swap up to two cards of your party program for cards in hand (five "
           "different topics stay) and keep one card in hand."),
    ), ("program_changes", "program_change"), N_("Take a program card; swap up to two program cards."), PROGRAM),
    RulesSection(N_("3 Secure Media Influence"), (
        N_("In turn, round and round, buy a media marker for €5,000 on a free media space of any state, or pass. "
           "The phase ends when everyone has passed in succession."),
        N_("The party with the most media markers in a state is its media influencer: it acts in phase 7, and a "
           "published poll cannot lower its trend."),
    ), ("media",), N_("Buy media markers for €5,000 each until everyone passes."), MEDIA),
    RulesSection(N_("4 Organize Party Rallies"), (
        N_("Once each, in turn order, place party rallies in any states, at most 8 of yours in a state. Each "
           "state is priced on its own, by how many you place there now: the drawing shows the price of 1 to 8 "
           "in thousands of euros."),
    ), ("rallies",), N_("Place party rallies; more in one state cost more."), RALLIES),
    RulesSection(N_("5 Send Shadow Cabinet"), (
        N_("Once each, in turn order, send at most one politician face down to each state. It costs nothing; "
           "the others see where you sent one, not who it is."),
    ), ("cabinet",), N_("Send politicians face down, at most one per state."), CABINET),
    RulesSection(N_("6 Actions of the Shadow Cabinet"), (
        N_("State by state the politicians are revealed. Pay a politician's cost or let it go unused; paid, it "
           "takes its main action and one secondary action in its state, in the order they were sent. An action "
           "marked ! happens once per state and round."),
    ), ("politicians",), N_("Reveal the politicians, pay for them and take their actions."), POLITICIANS),
    RulesSection(N_("7 Media Influence"), (
        N_("In each state the media influencer may replace one face-up opinion that is not doubled with a card "
           "of the opinion display whose topic the state's other opinions do not show."),
    ), ("media_shift",), N_("The media influencer may replace one opinion of the state."), MEDIA_SHIFT),
    RulesSection(N_("8 Auctioning off of Polls"), (
        N_("In each state the party with the most votes there auctions the top poll card; the highest bid pays "
           "the bank and takes the card."),
        N_("A poll card you win may be published (your trend rises, rivals with a minus fall, except the "
           "media influencer) or kept secret for +3 party base."),
    ), ("polls", "poll_use"), N_("Auction the polls; publish one or keep it secret for +3 party base."), POLLS),
    RulesSection(N_("9a Relocate Votes"), (
        N_("Rallies turn into votes: (rallies + trend) × match, where each factor counts at least 1. In the "
           "state being elected every rally must be converted; elsewhere you may convert 4 or more."),
        N_("Match: each face-up opinion of the state that your program shares (same topic and attitude) counts "
           "+1, an opposite one −1; a doubled opinion counts twice."),
    ), ("convert",), N_("Convert rallies into votes; in the state being elected, all of them."), CONVERT),
    RulesSection(N_("9b Determine Effects of the Federal State Election"), (
        N_("Each party scores victory points for its votes by the state's table (fewer than 5 votes score "
           "nothing). A party with 50 votes or more gets 12 victory points (10 each if several reach 50)."),
        N_("Otherwise the strongest party forms a coalition with the partner whose program is most like its "
           "own and who brings the votes to 50: 7 points each; without a partner the strongest party gets 5."),
        N_("The winners (or the media influencer) move a media marker from the state to the media-presence "
           "track, worth points at the end."),
    ), ("election",), N_("The election: victory points for votes; 50 votes or a coalition wins the state."), ELECTION),
    RulesSection(N_("9c Pay Money"), (
        N_("After each election you receive €1,000 per election victory point and per point of party base. "
           "A donation gives money but costs party base; declining it raises the base."),
    ), ("money",), N_("Money for victory points and party base; accept or decline a donation."), MONEY),
    # 9d has no phase of its own (the game prepares the next round): the phase track links it by its slot
    RulesSection(N_("9d Prepare for the next Game Round"), (
        N_("Unless it was the last election: the elected state leaves the table with its opinions and media "
           "markers, every other state reveals one more opinion, the program display is dealt anew and the "
           "next state clockwise is elected in the next round."),
    ), ("9d",), N_("The next state comes up; each state reveals one more opinion."), PREPARE),
    RulesSection(N_("The end"), (
        N_("After the last election: election points, media-presence points and the party base are added; the "
           "most money left scores 6, the second most 3. The most victory points wins; a tie is shared."),
    ), ("over",), N_("After the last election: media presence, party base and money score."), THE_END),
)
