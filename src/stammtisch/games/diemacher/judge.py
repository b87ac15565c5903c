"""Judging a search playout cut off at the end of a round (bots/judges.py; docs/bots.md)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Game


class RoundJudge:
    """The score so far: votes and wins of the elections held, media presence, party base and the
    money ranking as it stands (``game.scores``), which is where a round's work shows up."""

    def stage(self, state: Any) -> int:
        return int(state.round)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        return [float(v) for v in game.scores(state)]


JUDGE = RoundJudge()


# ---------------------------------------------------------------- the learned judge's features (bots/learned.py)

FEATURES = ("votes_vp", "wins_vp", "media_vp", "party_base", "money", "hand", "politicians", "donations",
            "media_supply", "rally_supply", "matches", "rallies", "trend", "media_on_boards", "poll_votes",
            "points")
BASE_FEATURE = "points"  # the score so far without the money ranking (tools/train-judge compares)


def features(game: Game[Any], view: dict[str, Any]) -> list[float]:
    """What the learned judge reads of the viewing seat: its own entry of the view (points so far,
    its own money and cards, what it has left to place) and its standing on the boards still in
    play (program matches, rallies, trend, media, the votes shown).  Another seat's money is hidden
    in a view, so the money ranking is not a feature."""
    seat = view["seat"]
    board = view["board"]
    me = board["seats"][seat]
    media_vp = sum(spot["vp"] * spot["markers"].count(seat) for spot in board["media_presence"])
    playing = [b for b in board["boards"] if b["in_play"]]
    points = sum(me["vote_vp"]) + sum(me["win_vp"]) + media_vp + me["party_base"]
    return [float(v) for v in (
        sum(me["vote_vp"]), sum(me["win_vp"]), media_vp, me["party_base"], me["money"] / 1000, me["hand_size"],
        me["politicians_left"], me["donations_left"], me["media_supply"], me["rally_supply"],
        sum(b["matches"][seat] for b in playing), sum(b["rallies"][seat] for b in playing),
        sum(b["trend"][seat] for b in playing), sum(b["media"].count(seat) for b in playing),
        sum(b["votes"][seat] for b in playing), points)]
