"""Camel Up Cards simulations and tournaments (``--edition cards``): the
same streaming, resuming and seat rotation as the board games, with the
Cards bots and records."""

import json

import pytest

from advisor.cards.record import read_cards_records, replay_cards
from advisor.errors import AdvisorError
from advisor.simulate.games import Standings, game_seed, play_game, simulate, tournament
from test_simulate_files import interrupt_after  # the same Ctrl-C in the game loop
from helpers import run

BOTS = ["heuristic", "random", "random"]
ARGS = ["--edition", "cards", "--players", "3", "--bots", ",".join(BOTS), "--seed", "7", "--processes", "1"]



def test_cards_games_replay_and_do_not_depend_on_the_process_count():
    one = list(simulate(BOTS, 4, edition="cards", seed=3, processes=1))
    two = list(simulate(BOTS, 4, edition="cards", seed=3, processes=2))
    assert one == two
    assert one != list(simulate(BOTS, 4, edition="cards", seed=4, processes=1))
    for i, record in enumerate(one):
        head = record[0]
        assert head["game"] == "cards" and head["seed"] == game_seed(3, i) and head["bots"] == BOTS
        assert head["players"] == 3 and "edition" not in head
        assert replay_cards(record).summary() == record[-1]
    assert play_game(BOTS, "cards", seed=5) == play_game(BOTS, "cards", seed=5)


def test_cards_tournament_rotates_seats():
    records = []
    frame = tournament(BOTS, 6, edition="cards", seed=1, processes=1, records=records)
    assert list(frame["bot"]) == BOTS and (frame["games"] == 6).all()
    assert frame["wins"].sum() == pytest.approx(6)
    for i, record in enumerate(records):
        assert record[0]["bots"] == [BOTS[(s + i) % 3] for s in range(3)]
    money = {b: [] for b in range(3)}
    for i, record in enumerate(records):
        for seat in range(3):
            money[(seat + i) % 3].append(record[-1]["money"][seat])
    assert frame["money"].tolist() == pytest.approx([sum(m) / 6 for m in money.values()])
    assert ((frame["win_lo"] <= frame["win_rate"]) & (frame["win_rate"] <= frame["win_hi"])).all()


@pytest.mark.parametrize("bots, fragment", [(["advisor", "random"], "unknown Camel Up Cards bot 'advisor'"),
                                            (["random"] * 7, "2..6 players")])
def test_bad_cards_line_ups(bots, fragment):
    with pytest.raises(AdvisorError, match=fragment):
        list(simulate(bots, 1, edition="cards"))


def test_cli_cards_simulate_streams_and_resumes(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.jsonl"
    code, out, _ = run(["simulate", *ARGS, "--games", "5", "-o", str(whole)], capsys)
    assert code == 0 and "5 games written" in out
    games = read_cards_records(whole)
    assert len(games) == 5 and all(replay_cards(g).summary() == g[-1] for g in games)
    part = tmp_path / "g.jsonl.part"
    with monkeypatch.context() as m:
        interrupt_after(m, 3)
        code, out, err = run(["simulate", *ARGS, "--games", "5", "-o", str(tmp_path / "g.jsonl")], capsys)
    assert code == 130 and out == ""
    assert err.strip() == f"camelup: interrupted: 3 of 5 games kept in {part}; run the same command with " \
                          "--resume to continue"
    before = part.read_bytes()
    code, _, err = run(["simulate", *ARGS, "--games", "5", "-o", str(tmp_path / "g.jsonl")], capsys)
    assert code == 2 and "--resume" in err and part.read_bytes() == before
    # another run refuses the partial file, which stays as it was
    for option, value, fragment in (("--edition", "second", "edition"), ("--seed", "8", "seed"),
                                    ("--bots", "random,random,heuristic", "bots")):
        argv = ["simulate", *ARGS, "--games", "5", "-o", str(tmp_path / "g.jsonl"), "--resume"]
        argv[argv.index(option) + 1] = value
        code, _, err = run(argv, capsys)
        assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
        assert part.read_bytes() == before
    code, out, _ = run(["simulate", *ARGS, "--games", "5", "-o", str(tmp_path / "g.jsonl"), "--resume"], capsys)
    assert code == 0 and (tmp_path / "g.jsonl").read_bytes() == whole.read_bytes()
    assert not part.exists()


def test_a_board_game_run_is_not_resumed_as_cards(tmp_path, capsys, monkeypatch):
    board = ["--players", "3", "--bots", ",".join(BOTS), "--seed", "7", "--processes", "1"]
    out = tmp_path / "g.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 2)
        assert run(["simulate", *board, "--games", "4", "-o", str(out)], capsys)[0] == 130
    code, _, err = run(["simulate", *ARGS, "--games", "4", "-o", str(out), "--resume"], capsys)
    assert code == 2 and "game None" in err and "--edition" in err and len(err.strip().splitlines()) == 1


def test_cli_cards_tournament_table_and_json(tmp_path, capsys, monkeypatch):
    argv = ["tournament", *ARGS, "--games", "6"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert out.splitlines()[0] == "6 games, 3 players, Camel Up Cards, seats rotated, seed 7:"
    assert out.splitlines()[1].startswith("Warning: only 6 games: too few")
    assert [line.split(":")[1].split()[0] for line in out.splitlines()[3:]] == BOTS
    code, whole, _ = run(argv + ["--json"], capsys)
    data = json.loads(whole)
    assert code == 0 and data["edition"] == "cards" and [b["bot"] for b in data["bots"]] == BOTS
    records = []
    frame = tournament(BOTS, 6, edition="cards", seed=7, processes=1, records=records)
    assert [b["win_rate"] for b in data["bots"]] == pytest.approx(frame["win_rate"].tolist())
    table = Standings(BOTS)
    for i, record in enumerate(records):
        table.add(i, record[-1])
    assert table.frame()["money"].tolist() == frame["money"].tolist()
    out_file = tmp_path / "t.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 2)
        code, _, err = run(argv + ["--json", "-o", str(out_file)], capsys)
    assert code == 130 and "2 of 6 games kept" in err
    code, resumed, _ = run(argv + ["--json", "-o", str(out_file), "--resume"], capsys)
    assert code == 0 and json.loads(resumed) == data and len(read_cards_records(out_file)) == 6


@pytest.mark.parametrize("argv, fragment", [
    (["--bots", "advisor,random,random"], "unknown Camel Up Cards bot 'advisor'"),
    (["--bots", "random,random,random", "--rules", "name=house money_floor=none"], "--rules applies to the board games"),
    (["--players", "7", "--bots", "random,random,random,random,random,random,random"], "2..6 players"),
    (["--bots", "random,random"], "one per seat"),
])
def test_cli_cards_bad_input_is_one_line(argv, fragment, capsys):
    base = ["--edition", "cards", "--players", "3", "--games", "2", "--processes", "1"]
    code, out, err = run(["tournament", *base, *argv], capsys)
    assert code == 2 and out == "" and fragment in err and len(err.strip().splitlines()) == 1, err


def test_cli_cards_default_bots_include_the_greedy_bot(capsys):
    code, out, err = run(["tournament", "--edition", "cards", "--games", "1", "--processes", "1", "--json"], capsys)
    assert code == 0, err
    assert [b["bot"] for b in json.loads(out)["bots"]] == ["greedy", "heuristic", "random", "random"]


def test_cli_cards_tournament_with_every_cyclic_order(capsys):
    argv = ["tournament", *ARGS, "--games", "6", "--seating", "orders"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert out.splitlines()[0] == "6 games, 3 players, Camel Up Cards, seats rotated over every cyclic order, seed 7:"
    assert out.splitlines()[1].startswith("Warning: only 6 games: too few")
    assert [line.split(":")[1].split()[0] for line in out.splitlines()[3:]] == BOTS
    code, whole, _ = run(argv + ["--json"], capsys)
    data = json.loads(whole)
    assert code == 0 and data["seating"] == "orders" and data["edition"] == "cards"
    records = []
    frame = tournament(BOTS, 6, edition="cards", seed=7, processes=1, records=records, seating="orders")
    assert [b["money"] for b in data["bots"]] == pytest.approx(frame["money"].tolist())
    assert [r[0]["bots"] for r in records] == [
        ["heuristic", "random", "random"], ["random", "random", "heuristic"], ["random", "heuristic", "random"]] * 2
    code, rotated, _ = run(["tournament", *ARGS, "--games", "6", "--json"], capsys)
    assert code == 0 and json.loads(rotated)["seating"] == "rotate"


@pytest.mark.parametrize("written, resumed", [("rotate", "orders"), ("orders", "rotate")])
def test_a_run_is_not_resumed_with_another_seating(written, resumed, tmp_path, capsys, monkeypatch):
    """Games 0-7 of two heuristic and two random bots seat the same names
    either way; game 8 (cyclic order 0, 2, 1, 3) does not."""
    four = ["--edition", "cards", "--players", "4", "--bots", "heuristic,heuristic,random,random", "--seed", "7",
            "--processes", "1", "--games", "10"]
    out = tmp_path / "t.jsonl"
    part = tmp_path / "t.jsonl.part"
    with monkeypatch.context() as m:
        interrupt_after(m, 9)
        code, _, err = run(["tournament", *four, "--seating", written, "-o", str(out)], capsys)
    assert code == 130 and "9 of 10 games kept" in err
    before = part.read_bytes()
    code, stdout, err = run(["tournament", *four, "--seating", resumed, "-o", str(out), "--resume"], capsys)
    assert code == 2 and stdout == "" and len(err.strip().splitlines()) == 1, err
    assert "is from another run: game 8 has bots" in err
    assert f"its games are seated by --seating {written}, this run's by --seating {resumed}" in err
    assert part.read_bytes() == before and not out.exists()
    code, resumed_json, err = run(["tournament", *four, "--seating", written, "-o", str(out), "--resume", "--json"],
                                  capsys)
    assert code == 0, err
    whole = tmp_path / "whole.jsonl"
    code, whole_json, _ = run(["tournament", *four, "--seating", written, "-o", str(whole), "--json"], capsys)
    assert code == 0 and json.loads(resumed_json) == json.loads(whole_json)
    assert out.read_bytes() == whole.read_bytes()
