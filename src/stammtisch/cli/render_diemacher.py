"""Die Macher's table for the terminal, drawn from one seat's view only."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.games.diemacher.text import PHASE_NAMES, card_name, money, politician_name

# Terminal styles for the parties' printed colours; black text would vanish on dark terminals.
STYLES = {
    "black": "bold white on grey30",
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "purple": "bold magenta",
}


def party_style(view: dict[str, Any], seat: int) -> str:
    return STYLES.get(str(view["players"][seat].get("colour")), "bold")


def party(view: dict[str, Any], seat: int | None) -> Text:
    if seat is None or seat < 0:
        return Text("—", style="dim")
    name = str(view["players"][seat]["party_name"])
    return Text(name, style=party_style(view, seat))


def parties(view: dict[str, Any], seats: list[int]) -> Text:
    return Text(", ").join(party(view, s) for s in seats) if seats else Text("—", style="dim")


def cards(cards: list[int | None], separator: str = ", ") -> str:
    return separator.join(card_name(c) for c in cards) if cards else "—"


def render_view(view: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [status_line(view), boards(view), party_table(view), displays(view)]
    if view.get("seat") is not None:
        parts.append(private_panel(view))
    return Group(*parts)


def status_line(view: dict[str, Any]) -> Text:
    phase = PHASE_NAMES.get(view["phase"], view["phase"])
    text = Text.assemble(
        (f"Round {view['round']} of {view['last_round']}" if view["round"] else "Setup", "bold"), " · ",
        (phase, "bold cyan"),
        f" · elections held {view['elections_held']} of {view['elections']} · start player ",
        party(view, view["start_player"]), " · to act: ", parties(view, view["to_act"]),
    )
    decision = view.get("decision") or {}
    if decision.get("kind") == "auction":
        high = decision.get("high")
        text.append_text(Text.assemble(" · high bid ", money(high) if high is not None else "none", " by ",
                                       party(view, decision.get("high_seat"))))
    return text


def boards(view: dict[str, Any]) -> RenderableType:
    """The boards in play side by side as far as the width allows; the others as one line."""
    current = (view.get("decision") or {}).get("board")
    in_play = [pos for pos, board in enumerate(view["boards"]) if board["in_play"]]
    out = [view["boards"][pos]["name"] for pos in range(len(view["boards"])) if pos not in in_play]
    panels = Columns([board_panel(view, pos, pos == current) for pos in in_play], equal=True)
    legend = Text("☒ election this round · ×2 doubled opinion · ✦ media influencer · Match: program fit · "
                  "✓ has decided", style="dim")
    if out:
        legend = Text("Out of play: " + ", ".join(out) + " · ", style="dim") + legend
    return Group(panels, legend)


def board_panel(view: dict[str, Any], pos: int, current: bool) -> Panel:
    board = view["boards"][pos]
    title = f"{board['name']} ({board['state']}) · max {board['max_vp']} VP"
    if board["ballot_box"]:
        title += " · ☒ election"
    body: list[RenderableType] = [Text("Opinions: ") + opinions(board), board_table(view, board)]
    if board["politicians"]:
        body.append(Text("Politicians: ") + politicians(view, board["politicians"]))
    style = "yellow" if current else ("bold" if board["ballot_box"] else "")
    return Panel(Group(*body), title=title, border_style=style)


def opinions(board: dict[str, Any]) -> Text:
    texts = []
    for opinion in board["opinions"]:
        if not opinion["face_up"]:
            texts.append(Text("face-down", style="dim italic"))
            continue
        text = Text(card_name(opinion["card"]), style="green" if opinion["card"] % 2 == 0 else "red")
        if opinion["doubled"]:
            text = Text("×2 ", style="bold") + text
        texts.append(text)
    return Text(" · ").join(texts) if texts else Text("—", style="dim")


def board_table(view: dict[str, Any], board: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for column in ("Party", "Votes", "Trend", "Rallies", "Media", "Match"):
        table.add_column(column, justify="left" if column == "Party" else "right")
    influencer = board.get("media_influencer")
    for seat in range(len(view["players"])):
        media = sum(1 for owner in board["media"] if owner == seat)
        name = party(view, seat) + (Text(" ✦", style="bold") if influencer == seat else Text(""))
        table.add_row(name, str(board["votes"][seat]), f"{board['trend'][seat]:+d}", str(board["rallies"][seat]),
                      str(media), str(board["matches"][seat]))
    return table


def politicians(view: dict[str, Any], row: list[dict[str, Any]]) -> Text:
    texts = []
    for placed in row:
        paid = {True: " (paid)", False: " (declined)", None: ""}[placed["paid"]]
        who = politician_name(placed["politician"]) if placed["politician"] else "face-down"
        texts.append(party(view, placed["seat"]) + Text(f" {who}{paid}"))
    return Text(" · ").join(texts)


def party_table(view: dict[str, Any]) -> Table:
    table = Table(title="Parties", title_justify="left")
    for column in ("Party", "Base", "VP", "Money", "Hand", "Program", "Supply"):  # VP: from elections so far
        table.add_column(column, justify="left" if column in ("Party", "Program", "Supply") else "right")
    for seat, player in enumerate(view["players"]):
        name = party(view, seat) + Text(" (you)" if seat == view.get("seat") else "")
        if player.get("committed"):
            name += Text(" ✓", style="green")
        vp = sum(player["vote_vp"]) + sum(player["win_vp"])
        cash = money(player["money"]) if player["money"] is not None else "?"
        supply = (f"media {player['media_supply']}\nrallies {player['rally_supply']}\n"
                  f"politicians {player['politicians_left']}\ndonations "
                  + (", ".join(money(d) for d in player["donations_left"]) or "—"))
        table.add_row(name, str(player["party_base"]), str(vp), cash, str(player["hand_size"]),
                      cards(player["program"], "\n"), supply)
    return table


def displays(view: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan")
    table.add_column()
    table.add_row("Program display", cards(view["program_display"]))
    table.add_row("Opinion display", cards(view["opinion_display"]))
    top = view.get("poll_top_back")
    table.add_row("Decks", f"program {view['program_deck']}, opinion {view['opinion_deck']}, "
                           f"poll {view['poll_deck']}" + (f" (top: {top})" if top else "")
                           + f", double markers {view['double_markers']}, states to come {view['future_states']}")
    table.add_row("Media presence", media_presence(view))
    return table


def media_presence(view: dict[str, Any]) -> Text:
    slots = []
    used = view["media_presence"][-view["elections"]:]  # the 4-election game uses the 4 white spots
    for slot in used:
        slots.append(Text(f"{slot['vp']} VP ") + parties(view, slot["markers"]))
    return Text(" · ").join(slots)


def private_panel(view: dict[str, Any]) -> Panel:
    me = view["players"][view["seat"]]
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan")
    table.add_column()
    table.add_row("Money", money(me["money"]) if me.get("money") is not None else "?")
    table.add_row("Hand", cards(me.get("hand", [])))
    table.add_row("Politicians", ", ".join(politician_name(p) for p in me.get("politicians", [])) or "—")
    if me.get("draft_hand"):
        table.add_row("Draft hand", cards(me["draft_hand"]))
    if me.get("sealed"):
        table.add_row("Sealed", ", ".join(str(x) for x in me["sealed"]))
    poll = me.get("poll_in_hand")
    if poll:
        deltas = ", ".join(f"{name} {delta:+d}" for name, delta in poll["delta"].items())
        table.add_row("Poll in hand", f"{poll['id']} ({poll['back']}): {deltas}")
    return Panel(table, title=Text("Your party: ") + party(view, view["seat"]), title_align="left", expand=False)


def render_final(view: dict[str, Any]) -> RenderableType | None:
    rows = view.get("final_scores")
    if not rows:
        return None
    best = max(row["total"] for row in rows)
    table = Table(title="Final scores (victory points by source)")
    table.add_column("Party")
    for column in ("Votes", "Wins", "Media", "Party base", "Money", "Total"):
        table.add_column(column, justify="right")
    for seat, row in enumerate(rows):
        name = party(view, seat) + Text(" ★ winner" if row["total"] == best else "")
        table.add_row(name, *(str(row[k]) for k in ("votes", "wins", "media", "party_base", "money")),
                      Text(str(row["total"]), style="bold"))
    return table
