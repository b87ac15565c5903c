from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from stammtisch.cli.common import CliError, add_table_arguments, flag_options, table_options
from stammtisch.engine.match import replay
from stammtisch.engine.record import parse_record
from stammtisch.registry import games, make_game
from tests.cli.helpers import Result, final_table, run_cli, totals


def engine_scores(record_file: Path) -> list[int]:
    record = parse_record(record_file.read_text(encoding="utf-8"))
    game = make_game(record.header.game, record.header.players, record.header.options)
    *_, (match, _seat, _action, _events) = replay(record, lambda *_args: game)
    state = match.state
    assert game.is_over(state)
    return game.scores(state)


def test_auto_game_ends_with_the_final_table_and_a_record(auto_game: tuple[Result, Path]) -> None:
    result, record_file = auto_game
    table = final_table(result.stdout)
    for column in ("Votes", "Wins", "Media", "Party base", "Money", "Total"):
        assert column in table
    assert totals(table) == engine_scores(record_file)
    assert f"Record saved to {record_file}" in result.stdout
    assert record_file.name.startswith("diemacher-") and record_file.name.endswith("-seed11.jsonl")
    record = parse_record(record_file.read_text(encoding="utf-8"))
    assert record.header.seed == 11 and record.header.players == 3
    assert len(record.moves) > 50
    assert "Election 1 in " in result.stdout  # events are printed as sentences


def test_piped_human_input_reprompts_and_quits_with_the_record(tmp_path: Path) -> None:
    result = run_cli("play", "diemacher", "--seed", "3", "--bots", "random", "--records", str(tmp_path),
                     stdin="1\nx\n0\n1\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'x' is not a choice: type a number from 1 to" in out
    assert "'0' is not a choice: type a number from 1 to" in out
    assert out.count("Your decision") == 3  # two answered decisions and the one left with q
    assert "Your draft hand:" in out and "Program draft" in out and "Your party: CDU/CSU" in out
    assert "Game left unfinished after" in out
    files = list(tmp_path.glob("diemacher-*-seed3.jsonl"))
    assert len(files) == 1
    record = parse_record(files[0].read_text(encoding="utf-8"))
    human_moves = [action for seat, action in record.moves if seat == 0]
    assert [a[0] for a in human_moves] == ["draft_pick", "draft_pick"]


def test_end_of_input_quits_like_q(tmp_path: Path) -> None:
    result = run_cli("play", "diemacher", "--seed", "3", "--bots", "random", "--records", str(tmp_path), stdin="")
    assert result.returncode == 0, result.stderr
    assert "Game left unfinished after 2 moves" in result.stdout  # the two bots' sealed picks


def test_records_default_to_stammtisch_home(tmp_path: Path) -> None:
    result = run_cli("play", "diemacher", "--seed", "4", "--bots", "random", home=tmp_path, stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "records").glob("diemacher-*-seed4.jsonl"))) == 1


def test_bad_table_option_is_one_clear_line_and_exit_2(tmp_path: Path) -> None:
    for option, message in (("elections=5", "table option elections: 5 is not allowed"),
                            ("colour=blue", "unknown table option 'colour'"),
                            ("open_money", "--option expects NAME=VALUE")):
        result = run_cli("play", "diemacher", "--auto", "--option", option, "--records", str(tmp_path))
        assert result.returncode == 2
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_wrong_player_count_and_seat_are_clear_errors(tmp_path: Path) -> None:
    result = run_cli("play", "diemacher", "--players", "6", "--auto", "--records", str(tmp_path))
    assert result.returncode == 2 and "3 to 5 players, not 6" in result.stderr
    result = run_cli("play", "diemacher", "--seat", "3", "--auto", "--records", str(tmp_path))
    assert result.returncode == 2 and "--seat must be a seat from 0 to 2" in result.stderr


def test_glueckauf_plays_with_its_own_renderer(tmp_path: Path) -> None:
    result = run_cli("play", "glueckauf", "--players", "2", "--seed", "2", "--records", str(tmp_path), stdin="1\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Factory (tunnel tiles)" in result.stdout  # render_glueckauf's board, not the generic tree
    assert " 1. Draft order card " in result.stdout
    assert "Player 1 (you) drafts order card" in result.stdout
    auto = run_cli("play", "glueckauf", "--players", "3", "--auto", "--seed", "2", "--records", str(tmp_path))
    assert auto.returncode == 0, auto.stderr
    assert "Final scores" in auto.stdout


def test_data_sets_each_games_edition_option(tmp_path: Path) -> None:
    # issue #8 item 8: --data is the games' edition option (Die Macher's formerly data_file)
    edition = tmp_path / "edition.json"
    packaged = Path(__file__).parents[2] / "src/stammtisch/games/glueckauf/data/edition.json"
    edition.write_text(packaged.read_text(encoding="utf-8"), encoding="utf-8")
    records = tmp_path / "records"
    result = run_cli("play", "glueckauf", "--auto", "--seed", "3", "--data", str(edition), "--records", str(records))
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout
    record = parse_record(next(records.glob("glueckauf-*.jsonl")).read_text(encoding="utf-8"))
    assert record.header.options["edition"] == str(edition)
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    for game in ("glueckauf", "diemacher"):
        result = run_cli("play", game, "--auto", "--data", str(broken), "--records", str(records))
        assert result.returncode == 2 and "unknown option" not in result.stderr
        assert "broken.json" in result.stderr or "edition" in result.stderr, result.stderr


def table_options_of(*argv: str) -> dict[str, object]:
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("game")
    add_table_arguments(parser)
    return table_options(parser.parse_args(argv))


def test_each_option_of_a_table_form_is_a_flag_generated_from_the_schema() -> None:
    """issue #10 "Options": CLI options come from the games' schemas; --option NAME=VALUE always works."""
    shown = {(spec.name, o.name) for spec in games().values() for o in spec.options if o.lobby and not o.server_file}
    assert {(s.name, o.name) for name, declared in flag_options().items() for s, o in declared} == shown
    assert table_options_of("diemacher", "--elections", "7", "--open-money") == {"elections": 7, "open_money": True}
    assert table_options_of("diemacher", "--option", "elections=7") == {"elections": 7}
    assert table_options_of("glueckauf", "--open-delivered", "false") == {"open_delivered": False}
    with pytest.raises(CliError, match="glueckauf has no table option elections"):
        table_options_of("glueckauf", "--elections", "7")


def test_a_flag_value_outside_the_schema_is_refused_like_an_option(tmp_path: Path) -> None:
    result = run_cli("play", "diemacher", "--auto", "--elections", "5", "--records", str(tmp_path))
    assert result.returncode == 2 and "table option elections: 5 is not allowed" in result.stderr
    assert not list(tmp_path.iterdir())


def test_the_first_line_names_the_game_and_the_player_as_the_texts_do(tmp_path: Path) -> None:
    # issue 25 defect 7: the first line said "you play seat 0" while seats are called "Player 1"
    result = run_cli("play", "diemacher", "--seed", "3", "--seat", "1", "--bots", "random", "--records",
                     str(tmp_path), stdin="")
    assert result.stdout.splitlines()[0] == "Die Macher, 3 players, seed 3; you are Player 2."


def test_a_single_legal_action_is_taken_without_asking(tmp_path: Path) -> None:
    # issue 25 defect 7: a single legal action still asked "(1–1)"; Glück Auf's confirmation is the only
    # choice after each placement
    result = run_cli("play", "glueckauf", "--players", "2", "--seed", "2", "--records", str(tmp_path),
                     stdin="1\n1\n1\n1\n")
    assert result.returncode == 0, result.stderr
    assert "• Your only choice: Confirm the turn" in result.stdout
    assert "(1–1," not in result.stdout


def test_bad_input_with_hints_on_mentions_h(tmp_path: Path) -> None:
    # issue 25 defect 7: with hints on, the bad-input message did not mention h
    result = run_cli("play", "glueckauf", "--players", "2", "--seed", "2", "--option", "hints=true",
                     "--records", str(tmp_path), stdin="x\n")
    assert "'x' is not a choice: type a number from 1 to 7, h for a hint, or q to quit." in result.stdout


def test_a_hint_in_the_terminal_says_why(tmp_path: Path) -> None:
    # issue 30 item 2: after the hard bot's moves, one line of why the first, with its value as listed
    result = run_cli("play", "glueckauf", "--players", "2", "--seed", "2", "--option", "hints=true",
                     "--records", str(tmp_path), stdin="h\nq\nq\n")
    lines = result.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("The hard bot would choose:")) + 1
    value = re.search(r"value (\d+) of 100", lines[first])
    why = next(line for line in lines[first:] if line.startswith("Why: "))
    assert value is not None and f"Rated {value.group(1)} of 100" in why


def human_moves(record_file: Path) -> list[tuple[int, tuple[object, ...]]]:
    return [(seat, action) for seat, action in parse_record(record_file.read_text(encoding="utf-8")).moves
            if seat == 0]


def test_q_asks_first_and_a_quit_game_resumes(tmp_path: Path) -> None:
    # issue 25 defect 7: q quit at once with no confirmation, and a quit game could not be resumed
    result = run_cli("play", "diemacher", "--seed", "3", "--bots", "random", "--records", str(tmp_path),
                     stdin="1\nq\n\n2\nq\nq\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Type q again to quit, or Enter to play on:") == 2
    record_file = next(tmp_path.glob("diemacher-*-seed3.jsonl"))
    assert len(human_moves(record_file)) == 2  # the first q was taken back with Enter
    command = f"stammtisch play --resume {record_file} --seat 0 --bots random"
    assert f"To play on: {command}" in result.stdout
    before = parse_record(record_file.read_text(encoding="utf-8")).moves
    resumed = run_cli(*command.split()[1:], stdin="3\nq\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resumed after {len(before)} moves." in resumed.stdout
    after = parse_record(record_file.read_text(encoding="utf-8")).moves
    assert after[:len(before)] == before
    assert [action[0] for _seat, action in human_moves(record_file)] == ["draft_pick"] * 3


def test_resume_refuses_a_record_it_cannot_continue(tmp_path: Path, auto_game: tuple[Result, Path]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a record\n", encoding="utf-8")
    result = run_cli("play", "--resume", str(broken))
    assert result.returncode == 2 and "cannot resume" in result.stderr and "Traceback" not in result.stderr
    _result, record_file = auto_game  # a finished game
    result = run_cli("play", "--resume", str(record_file), "--seed", "2")
    assert result.returncode == 2 and "leave out --players, --seed" in result.stderr
    result = run_cli("play", "--resume", str(record_file))
    assert result.returncode == 2 and "is over" in result.stderr
