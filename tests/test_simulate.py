"""Simulations and tournaments: seeded, process-count independent, seats rotated."""

import json

import pytest

from advisor import AdvisorError
from advisor.cli.command import main
from advisor.game import read_records, replay
from advisor._tools.intervals import wilson as _wilson
from advisor.simulate.games import (Schedule, Standings, game_seed, play_game, seat_entries, seating, simulate,
                               tournament)

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
    assert data["games"] == 3 and [b["bot"] for b in data["bots"]] == BOTS and data["seating"] == "rotate"
    assert main(["tournament", "--players", "3", "--bots", "heuristic,random", "--games", "3"]) == 2
    assert "one per seat" in capsys.readouterr().err


# --------------------------------------------------------------------------
# seating "orders": every cyclic order of the bots, each rotated
# --------------------------------------------------------------------------
def test_orders_seats_three_bots_in_every_order():
    """Game i: cyclic order (i // 3) mod 2 of [0, 1, 2], [0, 2, 1], rotated by i mod 3."""
    assert [seat_entries(3, i, "orders") for i in range(8)] == [
        [0, 1, 2], [1, 2, 0], [2, 0, 1],  # order 0, rotated by 0, 1, 2
        [0, 2, 1], [2, 1, 0], [1, 0, 2],  # order 1
        [0, 1, 2], [1, 2, 0],             # order 0 again
    ]
    assert [seating(["a", "b", "c"], i, "orders") for i in range(6)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "c", "b"], ["c", "b", "a"], ["b", "a", "c"]]
    assert [seat_entries(3, i, "rotate") for i in range(6)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]] * 2


def test_orders_balance_seats_and_neighbours_of_four_bots():
    n = 4
    seats = {(entry, s): 0 for entry in range(n) for s in range(n)}
    after = {(a, b): 0 for a in range(n) for b in range(n) if a != b}
    for i in range(24):
        entries = seat_entries(n, i, "orders")
        assert sorted(entries) == list(range(n))
        for s, entry in enumerate(entries):
            seats[entry, s] += 1
            after[entries[s - 1], entry] += 1  # entry plays right after the seat before (cyclic)
        if i % n == n - 1:  # every block of n games is seat-balanced
            block = [seat_entries(n, j, "orders") for j in range(i - n + 1, i + 1)]
            assert all(sorted(game[s] for game in block) == list(range(n)) for s in range(n))
    assert set(seats.values()) == {6} and set(after.values()) == {8}
    # rotating one order keeps three quarters of the neighbour pairs out
    pairs = {(g[s - 1], g[s]) for g in (seat_entries(n, i, "rotate") for i in range(24)) for s in range(n)}
    assert pairs == {(0, 1), (1, 2), (2, 3), (3, 0)}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_orders_equal_rotate_for_two_players_and_the_first_games(players):
    games = range(50) if players <= 2 else range(players)
    for i in games:
        assert seat_entries(players, i, "orders") == seat_entries(players, i, "rotate") == \
            seat_entries(players, i, True) == [(s + i) % players for s in range(players)]
    assert seat_entries(players, 7, False) == list(range(players))


def test_schedule_takes_the_seating_and_refuses_another():
    bots = ["heuristic", "random", "random", "random"]  # a name twice is two entries
    assert Schedule(bots, rotate=True).seats(5) == Schedule(bots, rotate="rotate").seats(5) == seating(bots, 5, True)
    assert Schedule(bots).seats(5) == bots
    orders = Schedule(bots, rotate="orders")
    assert orders.seating == "orders" and orders.seats(9) == [bots[e] for e in seat_entries(4, 9, "orders")]
    for bad in ("orbits", "", 2.5):
        with pytest.raises(AdvisorError, match="seating must be one of rotate, orders"):
            Schedule(bots, rotate=bad)
    with pytest.raises(AdvisorError, match="seating must be one of rotate, orders"):
        tournament(bots, 1, seating=False)
    # resume's message names the other seating when a file's game is seated by it
    three = ["a", "b", "c"]
    assert Schedule(three, rotate="orders").seated_by(3, ["a", "b", "c"]) == "rotate"
    assert Schedule(three, rotate=True).seated_by(3, ["a", "c", "b"]) == "orders"
    assert Schedule(three, rotate=True).seated_by(3, ["b", "a", "c"]) is None
    assert Schedule(three).seated_by(3, ["a", "c", "b"]) is None  # simulate: no seating to name
    from advisor.simulate.duel import DuelSchedule

    assert DuelSchedule("a", "x", ["b", "c"]).seated_by(3, ["a", "c", "b"]) is None  # a duel has no --seating


def test_standings_with_orders_credit_the_entry_in_each_seat():
    bots = ["heuristic", "random", "random"]
    end = {"type": "end", "money": [10, 20, 30], "winners": [2]}  # game 4: entries 2, 1, 0 in seats 0, 1, 2
    orders, rotate = Standings(bots, seating="orders"), Standings(bots)
    orders.add(4, end)
    rotate.add(4, end)  # rotated: entries 1, 2, 0
    assert orders.money == [30, 20, 10] and orders.wins.tolist() == [1, 0, 0]
    assert rotate.money == [30, 10, 20] and rotate.wins.tolist() == [1, 0, 0]
    orders.add(3, {"type": "end", "money": [1, 2, 3], "winners": [1, 2]})  # entries 0, 2, 1; a shared win
    assert orders.money == [31, 23, 12] and orders.money_sq == [901, 409, 104]
    assert orders.wins.tolist() == [1, 0.5, 0.5] and orders.games == 2


def test_tournament_with_orders_seats_and_credits_every_entry():
    bots = ["heuristic", "heuristic", "random", "random"]
    records = []
    frame = tournament(bots, 9, seed=1, processes=1, records=records, seating="orders")
    assert list(frame["bot"]) == bots and (frame["games"] == 9).all()
    assert [r[0]["bots"] for r in records] == [seating(bots, i, "orders") for i in range(9)]
    assert records[8][0]["bots"] == ["heuristic", "random", "heuristic", "random"]  # order [0, 2, 1, 3]
    assert records[:8] == list(simulate(bots, 8, seed=1, processes=1, rotate=True))  # the same names so far
    money = [0] * 4
    for i, record in enumerate(records):
        for seat, entry in enumerate(seat_entries(4, i, "orders")):
            money[entry] += record[-1]["money"][seat]
    assert frame["money"].tolist() == pytest.approx([m / 9 for m in money])


def test_cli_tournament_with_every_cyclic_order(capsys):
    argv = ["tournament", "--players", "3", "--bots", "random,heuristic,random", "--games", "4", "--seed", "3",
            "--processes", "1", "--seating", "orders"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "4 games, 3 players, second edition, seats rotated over every cyclic order, seed 3:"
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["games", "seed", "edition", "seating", "bots"] and data["seating"] == "orders"
    frame = tournament(["random", "heuristic", "random"], 4, seed=3, processes=1, seating="orders")
    assert [b["money"] for b in data["bots"]] == pytest.approx(frame["money"].tolist())
    assert main(argv[:-1] + ["orbits"]) == 2
    err = capsys.readouterr().err
    assert "--seating" in err and "orders" in err
