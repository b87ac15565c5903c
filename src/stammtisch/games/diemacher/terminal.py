"""Die Macher's table for the terminal, drawn from one seat's view only."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.games.diemacher.text import SYMBOLS, card_name, money, politician_name
from stammtisch.i18n import _
from stammtisch.rich_text import fill

# Terminal styles for the parties' printed colours; black text would vanish on dark terminals.
STYLES = {
    "black": "bold white on grey30",
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "purple": "bold magenta",
}


def party_style(view: dict[str, Any], seat: int) -> str:
    return STYLES.get(str(view["board"]["seats"][seat].get("colour")), "bold")


def party(view: dict[str, Any], seat: int | None) -> Text:
    if seat is None or seat < 0:
        return Text("—", style="dim")
    name = str(view["board"]["seats"][seat]["party_name"])
    return Text(name, style=party_style(view, seat))


def parties(view: dict[str, Any], seats: list[int]) -> Text:
    return Text(", ").join(party(view, s) for s in seats) if seats else Text("—", style="dim")



def cards(cards: list[int | None], separator: str = ", ") -> str:
    return separator.join(card_name(c) for c in cards) if cards else "—"


def render_view(view: dict[str, Any], described: dict[str, Any]) -> RenderableType:
    """The table as ``view`` shows it; ``described`` is the table's Game.describe() (phase labels)."""
    labels = {phase["name"]: phase["label"] for phase in described["phases"]}
    parts: list[RenderableType] = [status_line(view, labels), boards(view), party_table(view), displays(view)]
    if view.get("seat") is not None:
        parts.append(private_panel(view, described))
        parts += decision_help(view, described)
    return Group(*parts)


def decision_help(view: dict[str, Any], described: dict[str, Any]) -> list[Text]:
    """What the numbered choices do not say (issue 25 defect 7), as the browser's decision help does: the
    contents of the five start blocks, which spot of the chosen block is being placed, what rallies cost."""
    if view["seat"] not in view["to_act"]:
        return []
    blocks = described["board"]["start_blocks"]
    sealed = view["board"]["seats"][view["seat"]].get("sealed") or []
    if view["phase"] == "start" and not sealed:
        return [Text(start_block(view, number, block, [])) for number, block in enumerate(blocks, 1)]
    if view["phase"] == "start":
        spots = blocks[sealed[0] - 1]
        return [Text(_("Start block {block}, spot {spot} of {spots}: choose the state for {symbol}").format(
            block=sealed[0], spot=len(sealed), spots=len(spots), symbol=_(SYMBOLS[spots[len(sealed) - 1]])),
            style="bold")]
    if view["phase"] == "rallies":
        costs = described["board"]["rally_costs"]
        prices = ", ".join(f"{count} → {money(cost)}" for count, cost in enumerate(costs, 1))
        return [Text(_("Rallies cost in all: {prices}").format(prices=prices))]
    return []


def start_block(view: dict[str, Any], number: int, spots: list[str], states: list[int]) -> str:
    """``Start block 3: +3 rallies in Hamburg, +3 rallies, …``: its spots, with the states placed so far."""
    named = [_("{bonus} in {state}").format(bonus=_(SYMBOLS[symbol]), state=view["board"]["boards"][pos]["name"])
             for symbol, pos in zip(spots, states, strict=False)]
    named += [_(SYMBOLS[symbol]) for symbol in spots[len(states):]]
    return _("Start block {block}: {symbols}").format(block=number, symbols=", ".join(named))


def status_line(view: dict[str, Any], labels: dict[str, str]) -> Text:
    phase = labels.get(view["phase"], view["phase"])
    round_text = (_("Round {round} of {last}").format(round=view["board"]["round"], last=view["board"]["last_round"])
                  if view["board"]["round"] else _("Setup"))
    text = Text.assemble(
        (round_text, "bold"), " · ", (phase, "bold cyan"), " · ",
        _("elections held {held} of {elections}").format(held=view["board"]["elections_held"],
                                                         elections=view["board"]["elections"]),
        " · ", fill(_("start player {party}"), party=party(view, view["board"]["start_player"])),
        " · ", fill(_("to act: {parties}"), parties=parties(view, view["to_act"])),
    )
    decision = view.get("decision") or {}
    if decision.get("kind") == "auction":
        high = decision.get("high")
        text.append_text(Text(" · ") + fill(_("high bid {amount} by {party}"),
                                              amount=money(high) if high is not None else _("none"),
                                              party=party(view, decision.get("high_seat"))))
    return text


def boards(view: dict[str, Any]) -> RenderableType:
    """The boards in play side by side as far as the width allows; the others as one line."""
    current = (view.get("decision") or {}).get("board")
    in_play = [pos for pos, board in enumerate(view["board"]["boards"]) if board["in_play"]]
    out = [view["board"]["boards"][pos]["name"] for pos in range(len(view["board"]["boards"])) if pos not in in_play]
    panels = Columns([board_panel(view, pos, pos == current) for pos in in_play], equal=True)
    legend = Text(_("☒ election this round · ×2 doubled opinion · ✦ media influencer · Match: program fit · "
                    "✓ has decided"), style="dim")
    if out:
        legend = Text(_("Out of play: {states}").format(states=", ".join(out)) + " · ", style="dim") + legend
    return Group(panels, legend)


def board_panel(view: dict[str, Any], pos: int, current: bool) -> Panel:
    board = view["board"]["boards"][pos]
    title = _("{name} ({state}) · max {points} VP").format(name=board["name"], state=board["state"],
                                                          points=board["max_vp"])
    if board["ballot_box"]:
        title += " · " + _("☒ election")
    body: list[RenderableType] = [Text(_("Opinions:") + " ") + opinions(board), board_table(view, board)]
    if board["politicians"]:
        body.append(Text(_("Politicians:") + " ") + politicians(view, board["politicians"]))
    style = "yellow" if current else ("bold" if board["ballot_box"] else "")
    return Panel(Group(*body), title=title, border_style=style)


def opinions(board: dict[str, Any]) -> Text:
    texts = []
    for opinion in board["opinions"]:
        if not opinion["face_up"]:
            texts.append(Text(_("face-down"), style="dim italic"))
            continue
        text = Text(card_name(opinion["card"]), style="green" if opinion["card"] % 2 == 0 else "red")
        if opinion["doubled"]:
            text = Text("×2 ", style="bold") + text
        texts.append(text)
    return Text(" · ").join(texts) if texts else Text("—", style="dim")


def board_table(view: dict[str, Any], board: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for index, column in enumerate((_("Party"), _("Votes"), _("Trend"), _("Rallies"), _("Media"), _("Match"))):
        table.add_column(column, justify="left" if index == 0 else "right")
    influencer = board.get("media_influencer")
    for seat in range(len(view["board"]["seats"])):
        media = sum(1 for owner in board["media"] if owner == seat)
        name = party(view, seat) + (Text(" ✦", style="bold") if influencer == seat else Text(""))
        table.add_row(name, str(board["votes"][seat]), f"{board['trend'][seat]:+d}", str(board["rallies"][seat]),
                      str(media), str(board["matches"][seat]))
    return table


def politicians(view: dict[str, Any], row: list[dict[str, Any]]) -> Text:
    texts = []
    for placed in row:
        paid = {True: " " + _("(paid)"), False: " " + _("(declined)"), None: ""}[placed["paid"]]
        who = politician_name(placed["politician"]) if placed["politician"] else _("face-down")
        texts.append(party(view, placed["seat"]) + Text(f" {who}{paid}"))
    return Text(" · ").join(texts)


def party_table(view: dict[str, Any]) -> Table:
    table = Table(title=_("Parties"), title_justify="left")
    columns = (_("Party"), _("Base"), _("VP"), _("Money"), _("Hand"), _("Program"), _("Supply"))  # VP: elections so far
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index in (0, 5, 6) else "right")
    for seat, player in enumerate(view["board"]["seats"]):
        name = party(view, seat) + Text(" " + _("(you)") if seat == view.get("seat") else "")
        if player.get("committed"):
            name += Text(" ✓", style="green")
        vp = sum(player["vote_vp"]) + sum(player["win_vp"])
        cash = money(player["money"]) if player["money"] is not None else "?"
        supply = "\n".join((
            _("media {count}").format(count=player["media_supply"]),
            _("rallies {count}").format(count=player["rally_supply"]),
            _("politicians {count}").format(count=player["politicians_left"]),
            _("donations {count}").format(count=player["donations_left"]),
        ))
        table.add_row(name, str(player["party_base"]), str(vp), cash, str(player["hand_size"]),
                      cards(player["program"], "\n"), supply)
    return table


def displays(view: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan")
    table.add_column()
    table.add_row(_("Program display"), cards(view["board"]["program_display"]))
    table.add_row(_("Opinion display"), cards(view["board"]["opinion_display"]))
    top = view["board"]["poll_top_back"]
    poll = (_("poll {count} (top: {top})").format(count=view["board"]["poll_deck"], top=top) if top
            else _("poll {count}").format(count=view["board"]["poll_deck"]))
    table.add_row(_("Decks"), ", ".join((
        _("program {count}").format(count=view["board"]["program_deck"]),
        _("opinion {count}").format(count=view["board"]["opinion_deck"]), poll,
        _("double markers {count}").format(count=view["board"]["double_markers"]),
        _("states to come {count}").format(count=view["board"]["future_states"]),
    )))
    table.add_row(_("Media presence"), media_presence(view))
    return table


def media_presence(view: dict[str, Any]) -> Text:
    slots = []
    used = view["board"]["media_presence"][-view["board"]["elections"]:]  # the 4-election game uses the 4 white spots
    for slot in used:
        slots.append(Text(_("{points} VP").format(points=slot["vp"]) + " ") + parties(view, slot["markers"]))
    return Text(" · ").join(slots)


def private_panel(view: dict[str, Any], described: dict[str, Any]) -> Panel:
    me = view["board"]["seats"][view["seat"]]
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan")
    table.add_column()
    table.add_row(_("Money"), money(me["money"]) if me.get("money") is not None else "?")
    table.add_row(_("Hand"), cards(me.get("hand", [])))
    table.add_row(_("Politicians"), ", ".join(politician_name(p) for p in me.get("politicians", [])) or "—")
    table.add_row(_("Donations"), ", ".join(money(d) for d in me.get("donations", [])) or "—")
    if me.get("draft_hand"):
        table.add_row(_("Draft hand"), cards(me["draft_hand"]))
    if me.get("sealed"):
        table.add_row(_("Sealed"), sealed_choice(view, described, me["sealed"]))
    poll = me.get("poll_in_hand")
    if poll:
        deltas = ", ".join(f"{name} {delta:+d}" for name, delta in poll["delta"].items())
        table.add_row(_("Poll in hand"), f"{poll['id']} ({poll['back']}): {deltas}")
    return Panel(table, title=fill(_("Your party: {party}"), party=party(view, view["seat"])), title_align="left",
                 expand=False)


def sealed_choice(view: dict[str, Any], described: dict[str, Any], sealed: list[int]) -> str:
    """The seat's own sealed choice so far in words (issue 25 defect 7: it showed raw ids): cards, a bid,
    a payment, or the start block with the states of its spots placed."""
    phase = view["phase"]
    if phase == "start":
        return start_block(view, sealed[0], described["board"]["start_blocks"][sealed[0] - 1], sealed[1:])
    if phase == "bid":
        return money(sealed[0])
    if phase == "politicians":
        return _("Pay for the politician") if sealed[0] else _("Decline the politician")
    return cards(list(sealed))


def render_final(view: dict[str, Any], described: dict[str, Any]) -> RenderableType | None:
    rows = (view["final"] or {}).get("detail")
    if not rows:
        return None
    best = max(row["total"] for row in rows)
    table = Table(title=_("Final scores (victory points by source)"))
    table.add_column(_("Party"))
    for column in (_("Votes"), _("Wins"), _("Media"), _("Party base"), _("Money"), _("Total")):
        table.add_column(column, justify="right")
    for seat, row in enumerate(rows):
        name = party(view, seat) + Text(" ★ " + _("winner") if row["total"] == best else "")
        table.add_row(name, *(str(row[k]) for k in ("votes", "wins", "media", "party_base", "money")),
                      Text(str(row["total"]), style="bold"))
    return table
