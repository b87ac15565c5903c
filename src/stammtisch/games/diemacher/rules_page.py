"""Die Macher's short rules page (``/rules/diemacher``), written from the rules specification
(die-macher.md §3–§6): sections of a heading and paragraphs, each an ``N_`` text translated where the
page is drawn (``web/rules.py``).  The spec names this table (``GameSpec.rules_page``)."""

from __future__ import annotations

from stammtisch.i18n import N_

RULES = (
    (N_("The aim"), (
        N_("You lead a party through 4 state elections (7 in the long game). Win votes in the state that is "
           "elected each round; the party with the most victory points at the end wins."),
        N_("Victory points come from the votes in each election, from winning or joining a coalition, from "
           "media markers on the media-presence track, from your party base and from money left at the end."),
    )),
    (N_("A round"), (
        N_("1 Start player: everyone bids money in secret; the highest bid pays and starts. "
           "2 Party program: draw or renew the display, take a card and swap up to two program cards."),
        N_("3 Media: in turn, buy media markers for €5,000 each in any state. 4 Rallies: place rallies in the "
           "states; more in one state cost more. 5 Shadow cabinet: send one politician face down to each state "
           "you like."),
        N_("6 Politician actions: the politicians are revealed; paid for, each takes its main action and one "
           "secondary action in its state. 7 Media influence: the party with the most media markers in a state "
           "may replace one of its opinions. 8 Polls: the polls of each state are auctioned."),
        N_("9 Election: rallies become votes, the ballot-box state is elected, money is paid, and the next "
           "state comes to the table."),
    )),
    (N_("Votes from rallies"), (
        N_("Rallies turn into votes: (rallies + trend) × match, where each factor counts at least 1. In the "
           "state being elected every rally must be converted; elsewhere you may convert 4 or more."),
        N_("Match: each face-up opinion of the state that your program shares (same topic and attitude) counts "
           "+1, an opposite one −1; a doubled opinion counts twice."),
    )),
    (N_("The election"), (
        N_("Each party scores victory points for its votes by the state's table (fewer than 5 votes score "
           "nothing). A party with 50 votes or more gets 12 victory points (10 each if several reach 50)."),
        N_("Otherwise the strongest party forms a coalition with the partner whose program is most like its "
           "own and who brings the votes to 50: 7 points each; without a partner the strongest party gets 5."),
        N_("The winners (or the media influencer) move a media marker from the state to the media-presence "
           "track, worth points at the end."),
    )),
    (N_("Money, base and polls"), (
        N_("After each election you receive €1,000 per election victory point and per point of party base. "
           "A donation gives money but costs party base; declining it raises the base."),
        N_("A poll card you win may be published (your trend rises, rivals with a minus fall, except the "
           "media influencer) or kept secret for +3 party base."),
    )),
    (N_("The end"), (
        N_("After the last election: election points, media-presence points and the party base are added; the "
           "most money left scores 6, the second most 3. The most victory points wins; a tie is shared."),
    )),
)
