"""Simulations and tournaments: seeded, process-count independent, seats rotated."""

import json

import pytest

from advisor import AdvisorError
from advisor.cli import main
from advisor.game import read_records, replay
from advisor.simulate import _wilson, game_seed, play_game, simulate, tournament

BOTS = ["heuristic", "random", "random"]


def test_records_do_not_depend_on_the_process_count():
    one = list(simulate(BOTS, 6, seed=3, processes=1))
    two = list(simulate(BOTS, 6, seed=3, processes=2))
    assert one == two
    assert one != list(simulate(BOTS, 6, seed=4, processes=1))
    for i, record in enumerate(one):
        assert record[0]["seed"] == game_seed(3, i) and record[0]["bots"] == BOTS
        assert replay(record).summary() == record[-1]


def test_play_game_is_reproducible():
    assert play_game(BOTS, seed=5) == play_game(BOTS, seed=5)


def test_tournament_rotates_seats_and_counts_every_game():
    records = []
    frame = tournament(BOTS, 9, seed=1, processes=1, records=records)
    assert list(frame["bot"]) == BOTS and (frame["games"] == 9).all()
    assert frame["wins"].sum() == pytest.approx(9)  # a shared win is split
    for i, record in enumerate(records):
        assert record[0]["bots"] == [BOTS[(s + i) % 3] for s in range(3)]
    assert ((frame["win_lo"] <= frame["win_rate"]) & (frame["win_rate"] <= frame["win_hi"])).all()
    money = {b: [] for b in range(3)}
    for i, record in enumerate(records):
        for seat in range(3):
            money[(seat + i) % 3].append(record[-1]["money"][seat])
    assert frame["money"].tolist() == pytest.approx([sum(m) / 9 for m in money.values()])


def test_wilson_interval():
    lo, hi = _wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert _wilson(0.0, 40)[0] == 0.0 and _wilson(1.0, 40)[1] == 1.0


@pytest.mark.parametrize("bots, edition", [(["random"] * 2, "second"), (["random"] * 9, "first"),
                                           (["robot", "random", "random"], "second")])
def test_bad_line_ups(bots, edition):
    with pytest.raises(AdvisorError):
        list(simulate(bots, 1, edition=edition))


def test_cli_simulate_and_tournament(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "--players", "3", "--bots", ",".join(BOTS), "--games", "4", "--seed", "2",
                 "--processes", "1", "-o", str(out)]) == 0
    games = read_records(out)
    assert len(games) == 4 and all(g[-1]["type"] == "end" for g in games)
    assert "4 games written" in capsys.readouterr().out
    assert main(["tournament", "--players", "3", "--bots", ",".join(BOTS), "--games", "3", "--processes", "1",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3 and [b["bot"] for b in data["bots"]] == BOTS
    assert main(["tournament", "--players", "3", "--bots", "heuristic,random", "--games", "3"]) == 2
    assert "one per seat" in capsys.readouterr().err
