"""Game review: decisions against the best one, and the exact decomposition
of each player's money into start + skill + others + luck."""

import json
from fractions import Fraction

import numpy as np
import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError
from advisor.valuation.engine import best_moves
from advisor.odds.exact import leg_odds
from advisor.valuation.engine import fast_values
from advisor.game import Game, RecordError, Roll, write_records
from advisor.reviews.review import Valuer, review

PRECISION = 0.05  # coarse race odds keep the tests quick; the decomposition is exact at any precision


def play(edition, players, position, policy, seed=1, turns=None):
    """A game from ``position``: ``policy(game, rng)`` chooses every action."""
    game = Game(edition, players, seed=seed, start=0, position=position)
    rng = np.random.default_rng(seed)
    while not game.finished and (turns is None or game.turns < turns):
        game.apply(policy(game, rng))
    return game


def random_policy(game, rng):
    legal = game.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def best_for_zero(game, rng):
    """Player 0 takes the action the review values best; the others play at random."""
    if game.to_move != 0:
        return random_policy(game, rng)
    values = fast_values(game.view(0), 0, precision=PRECISION)
    return values.actions[int(np.argmax(values.ev))]


def assert_exact(rev, game):
    for p, parts in enumerate(rev.exact):
        assert parts["start"] + parts["skill"] + parts["others"] + parts["luck"] == parts["final"]
        assert all(isinstance(v, Fraction) for v in parts.values())
    if game.finished:
        assert [parts["final"] for parts in rev.exact] == game.money()
    # only a roll has luck
    steps = rev.steps.merge(rev.decisions[["turn", "action"]], on="turn")
    assert (steps.loc[steps["action"] != "pyramid", "luck"] == 0).all()


# --------------------------------------------------------------------------
# The decomposition
# --------------------------------------------------------------------------


@pytest.mark.parametrize("edition, players, position", [
    ("second", 4, "9:B 10:YG 11:PR 16:w 15:k"),
    ("first", 3, "first 9:B 10:YG 11:OW"),
    ("second", 6, "9:B 10:YG 11:PR 16:w 15:k"),  # partnerships
])
def test_the_parts_add_up_exactly_for_every_player(edition, players, position):
    game = play(edition, players, position, random_policy, seed=3)
    assert game.finished
    rev = review(game.record, precision=PRECISION, details=False)
    assert_exact(rev, game)
    assert [float(p["start"]) for p in rev.exact] == [3.0] * players
    assert rev.players["final"].tolist() == game.money()
    if players == 6:
        assert any(a.startswith("partner:") for a in rev.decisions["action"])


def test_the_parts_add_up_on_a_whole_simulated_game_of_bots():
    from advisor.simulate.games import play_game

    record = play_game(["advisor", "heuristic", "random", "random"], "second", seed=5)
    rev = review(record, precision=0.02, details=False)
    assert [parts["final"] for parts in rev.exact] == record[-1]["money"]
    for parts in rev.exact:
        assert parts["start"] + parts["skill"] + parts["others"] + parts["luck"] == parts["final"]
    assert rev.players["won"].tolist() == [p in record[-1]["winners"] for p in range(4)]


def test_a_broke_players_wrong_cards_meet_the_floor_at_the_race_end():
    # player 1 spends everything on wrong-looking cards and leg tiles; the race ends soon
    def policy(game, rng):
        legal = game.legal_actions()
        if game.to_move == 1:
            cards = [a for a in legal if a.startswith(("winner:", "loser:"))]
            legs = [a for a in legal if a.startswith("leg:")]
            return (cards or legs or ["pyramid"])[0]
        return "pyramid"

    game = play("second", 3, "12:B 13:YG 14:PR 16:w 15:k", policy, seed=2)
    assert game.finished
    rev = review(game.record, precision=PRECISION, details=False)
    assert_exact(rev, game)
    assert Valuer(PRECISION).values(game) == game.money()


def roll_outcomes(game):
    """Every (die, value, colour) of the next roll with its probability."""
    dice = game.state.position.dice
    out = []
    for die in dice:
        faces = [(v, c) for c in ("white", "black") for v in (1, 2, 3)] if die == "x" else \
            [(v, None) for v in (1, 1, 2, 2, 3, 3)]
        for value, colour in faces:
            out.append((Roll(die, value, colour), Fraction(1, len(dice) * 6)))
    return out


def after(record, roll):
    from advisor.game import replay

    game = replay(record)
    game.apply("pyramid", roll)
    return game


@pytest.mark.parametrize("edition, players, position, actions", [
    # tiles of two owners, leg tiles, a pyramid tile: the next roll may end the leg
    ("second", 4, "1:B 2:YG 3:PR 14:w 15:k dice:GPRx",
     ["leg:R", "tile:+5", "tile:-8", "leg:G", "pyramid"]),
    # 6 players: partners copy each other's rewards, the roller's new pyramid tile included
    ("second", 6, "1:B 2:YG 3:PR 14:w 15:k dice:GPRYx",
     ["partner:1", "leg:R", "partner:3", "leg:G", "tile:+6"]),
    # the race may end on this roll
    ("first", 3, "first 13:B 14:YG 16:OW dice:BGO", ["leg:O", "tile:+15", "leg:W"]),
    # a broke player's penalties meet the leg's money floor
    ("second", 3, "1:B 2:YG 3:PR 14:w 15:k dice:BGPx", ["leg:B", "leg:B", "leg:Y", "leg:B", "leg:Y", "leg:Y"]),
])
def test_the_expected_change_of_a_roll_is_the_exact_average_over_every_roll(edition, players, position, actions):
    game = Game(edition, players, seed=1, start=0, position=position)
    for i, action in enumerate(actions):
        if action == "pyramid":
            game.apply(action, Roll(game.state.position.dice[0], 1, "white" if game.state.position.dice[0] == "x" else None))
        else:
            game.apply(action)
    if actions[-1] == "leg:Y" and edition == "second" and players == 3:
        assert game.state.players[0].money == 3
    valuer = Valuer(PRECISION)
    expected = valuer.expected_roll(game)
    mean = [Fraction(0)] * players
    for roll, prob in roll_outcomes(game):
        values = valuer.values(after(game.record, roll))
        mean = [m + prob * v for m, v in zip(mean, values)]
    assert mean == expected  # exact fractions: the leg's outcomes after a roll average to those before it
    roller = game.to_move
    ev = best_moves(game.view(roller), roller, denial=False, race=False).set_index("action").loc["pyramid", "ev"]
    assert float(expected[roller] - valuer.values(game)[roller]) == pytest.approx(ev, abs=1e-12)


# --------------------------------------------------------------------------
# Decisions
# --------------------------------------------------------------------------


def test_a_player_who_always_took_the_best_action_lost_nothing():
    game = play("second", 4, "8:B 9:YG 10:PR 16:w 15:k", best_for_zero, seed=4)
    rev = review(game.record, precision=PRECISION, details=False)
    mine = rev.players.set_index("player").loc[0]
    assert mine["decisions"] > 3
    assert mine["ev_lost_total"] == 0 and mine["mistakes"] == 0 and mine["accurate"] == 1
    zero = rev.decisions[rev.decisions["player"] == 0]
    assert (zero["rank"] == 1).all() and (zero["action"] == zero["best_action"]).all()
    others = rev.players.set_index("player").loc[[1, 2, 3]]
    assert others["ev_lost_total"].sum() > 0  # random play loses EV
    assert_exact(rev, game)


BLUNDER_START = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx"


def blunder_record():
    # turn 0: player 0 takes the R 5 tile (the best); turn 1: player 1 takes
    # the B 5 tile, B being last for certain this leg (EV -1)
    game = Game("second", 4, seed=1, start=0, position=BLUNDER_START)
    game.apply("leg:R")
    game.apply("leg:B")
    return game


def test_a_hand_built_blunder_is_reported_at_its_turn_with_the_loss_best_moves_gives():
    # every player first places all five overall cards (so the leg figures
    # decide); then player 0 takes the R 5 tile and player 1, at turn 16,
    # the B 5 tile, B being last for certain this leg (EV -1)
    game = Game("second", 3, seed=1, start=0, position=BLUNDER_START)
    for _ in range(15):
        game.apply(next(a for a in game.legal_actions() if a.startswith(("winner:", "loser:"))))
    game.apply("leg:R")
    game.apply("leg:B")
    rev = review(game.record, precision=PRECISION, seed=1)
    row = rev.decisions.set_index("turn").loc[16]
    assert row["player"] == 1 and row["action"] == "leg:B"
    from advisor.game import replay

    view = replay(game.record, upto=16).view(1)
    frame = best_moves(view, 1, precision=PRECISION, seed=1, denial=False)
    evs = frame.set_index("action")["ev"]
    assert frame["action"].iloc[0] == row["best_action"] == "leg:R"
    assert row["ev"] == evs["leg:B"] == -1.0
    assert row["best_ev"] == evs["leg:R"]
    assert row["ev_lost"] == pytest.approx(evs["leg:R"] - evs["leg:B"], abs=1e-12)
    assert row["rank"] == 1 + int((frame["ev"] > -1.0 + 1e-9).sum())
    assert "P(1st) 0.0%" in row["details"] and row["best_details"].startswith("tile 3: P(1st)")
    p1 = rev.players.set_index("player").loc[1]
    assert f"turn 16 leg:B (best leg:R, -{row['ev_lost']:.2f})" in p1["mistake_list"]
    assert p1["blunders"] == int((rev.decisions.query("player == 1")["ev_lost"] > 1.5).sum()) >= 1


def test_leg_only_figures_are_the_exact_fractions():
    game = blunder_record()
    rev = review(game.record, precision=PRECISION)
    odds = leg_odds(BLUNDER_START)
    r5 = 5 * odds.fraction("R", 1) + odds.fraction("R", 2) - (1 - odds.fraction("R", 1) - odds.fraction("R", 2))
    turn0 = rev.decisions.set_index("turn").loc[0]
    assert turn0["ev"] == float(r5) and turn0["ev_lost"] == 0
    # the skill of a player's only action is that exact fraction, as a fraction
    assert rev.exact[0]["skill"] == r5 and rev.exact[0]["others"] == 0 and rev.exact[0]["luck"] == 0
    assert rev.exact[1]["skill"] == -1
    assert rev.exact[0]["final"] == 3 + r5  # mark-to-market: the record is unfinished


# --------------------------------------------------------------------------
# The chance of winning lost
# --------------------------------------------------------------------------


def test_the_win_lost_of_a_decision_is_best_moves_chances_by_hand():
    # full: one best_moves valuation per decision gives both the EV and the chance of winning
    from advisor.game import replay

    game = blunder_record()
    rev = review(game.record, precision=PRECISION, seed=1, full=True, details=False)
    row = rev.decisions.set_index("turn").loc[1]
    view = replay(game.record, upto=1).view(1)
    frame = best_moves(view, 1, precision=PRECISION, seed=1, denial=False, objective="ev", chances=True)
    win = frame.set_index("action")["win"]
    assert row["action"] == "leg:B"
    assert row["win"] == win["leg:B"]
    assert row["best_win"] == win.max() and row["best_win_action"] == win.idxmax()
    assert row["win_lost"] == pytest.approx(win.max() - win["leg:B"], abs=1e-15) and row["win_lost"] > 0.01
    assert row["ev"] == frame.set_index("action")["ev"]["leg:B"]  # the same call's EV


def test_the_fast_review_takes_the_advices_chances_on_its_own_valuation():
    # the one-pass valuation's chances: the advice's win model on its EVs (fast_chances); where its
    # EVs are best_moves' (a leg of at most EXACT_ROLLS rolls, no own card on a pile) and the seeds
    # agree, they are best_moves' chances
    from advisor.game import replay
    from advisor.valuation.engine import fast_chances
    from advisor.valuation.memo import board_key_of, seed_for

    game = blunder_record()
    rev = review(game.record, precision=PRECISION, details=False)
    row = rev.decisions.set_index("turn").loc[1]
    view = replay(game.record, upto=1).view(1)
    values = fast_values(view, 1, precision=PRECISION)
    now, after = fast_chances(values)
    chance = dict(zip(values.actions, after))
    assert row["win"] == chance["leg:B"] and row["best_win"] == after.max()
    assert row["win_lost"] == pytest.approx(after.max() - chance["leg:B"], abs=1e-15)
    frame = best_moves(view, 1, precision=PRECISION, seed=seed_for(board_key_of(view.position)), denial=False,
                       objective="ev", chances=True).set_index("action")
    assert frame.loc[values.actions, "win"].tolist() == pytest.approx(list(after), abs=1e-12)
    assert frame.attrs["win_now"] == pytest.approx(now, abs=1e-12)


def best_win_for_zero(game, rng):
    """Player 0 takes the action of the highest chance of winning; the others play at random."""
    from advisor.valuation.engine import fast_chances

    if game.to_move != 0:
        return random_policy(game, rng)
    values = fast_values(game.view(0), 0, precision=PRECISION)
    return values.actions[int(np.argmax(fast_chances(values)[1]))]


def test_a_move_best_by_the_chance_of_winning_loses_none_and_the_totals_are_the_sums():
    game = play("second", 3, "9:B 10:YG 11:PR 16:w 15:k", best_win_for_zero, seed=2, turns=9)
    rev = review(game.record, precision=PRECISION, details=False)
    dec = rev.decisions
    mine = dec[dec["player"] == 0]
    assert len(mine) == 3 and (mine["win_lost"] == 0).all()
    assert (mine["best_win_action"] == mine["action"]).all() and (mine["best_win"] == mine["win"]).all()
    assert (dec["win_lost"] >= 0).all() and dec["win"].between(0, 1).all()
    for p, row in rev.players.set_index("player").iterrows():
        lost = dec.loc[dec["player"] == p, "win_lost"]
        assert row["win_lost_total"] == pytest.approx(lost.sum(), abs=1e-12)
        assert row["win_lost_mean"] == pytest.approx(lost.mean(), abs=1e-12)
    assert rev.players.loc[1:, "win_lost_total"].sum() > 0  # random play loses some
    assert_exact(rev, game)  # the chances are an extra column: the decomposition is untouched


def test_the_chart_shows_the_win_chance_lost_on_a_second_axis():
    from matplotlib.figure import Figure

    from advisor.plotting import plot_review

    rev = review(blunder_record().record, precision=PRECISION, details=False)
    ax = Figure().add_subplot()
    assert plot_review(rev, ax=ax) is ax
    (right,) = [a for a in ax.figure.axes if a is not ax]
    assert right.get_label() == "win chance lost"
    (markers,) = right.collections
    lost = rev.decisions["win_lost"].to_numpy() * 100
    shown = lost > 0.05
    assert shown.sum() == 1  # the blunder's turn
    assert markers.get_offsets().tolist() == [[1.0, pytest.approx(-lost[1])]]
    assert right.get_ylim()[0] < -lost[1]
    # the zero of the chance lost is level with the coins'
    low, high = ax.get_ylim()
    r_low, r_high = right.get_ylim()
    assert -low / (high - low) == pytest.approx(-r_low / (r_high - r_low))
    assert "win chance lost" in " ".join(t.get_text() for t in ax.get_legend().get_texts())


# --------------------------------------------------------------------------
# Files and the command line
# --------------------------------------------------------------------------


def three_games(tmp_path, bad_turn=4):
    games = [play("second", 3, "10:B 11:YG 12:PR 16:w 15:k", random_policy, seed=s).record for s in (1, 2, 3)]
    broken = [dict(e) for e in games[1]]
    k = next(i for i, e in enumerate(broken) if e.get("turn") == bad_turn)
    broken[k]["board"] = "1:B 2:G 3:P 4:R 5:Y"
    path = tmp_path / "games.jsonl"
    write_records([games[0], broken, games[2]], path)
    return path, games


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """The file of ``three_games`` and its games, reviewed once in this
    process (``review_records(processes=1, precision=0.05, details=False)``:
    the games 0 and 2, and the error of game 1) for the tests that compare
    against the review in Python: the text and JSON of the command line,
    the file on two processes.  ``details`` adds only the text columns of
    the figures behind an action, which none of them reads."""
    from advisor.reviews.review import review_records

    path, games = three_games(tmp_path_factory.mktemp("three"))
    return path, games, list(review_records(path, processes=1, precision=0.05, details=False))


def test_one_players_review_values_theirs_only_and_is_the_full_review_filtered(tmp_path, capsys, monkeypatch):
    from helpers import assert_one_players_review

    from advisor.reviews import review as rv

    record = play("second", 3, "10:B 11:YG 12:PR 16:w 15:k", random_policy, seed=1, turns=9).record
    path = tmp_path / "game.jsonl"
    write_records([record], path)
    full = review(record, precision=PRECISION)
    valued = []
    decide = rv._Decisions.__call__
    monkeypatch.setattr(rv._Decisions, "__call__", lambda self, view, p, a: valued.append(p) or decide(self, view, p, a))
    one = review(record, precision=PRECISION, players={2})
    assert valued == [2] * int((full.decisions["player"] == 2).sum()) and valued
    assert one.steps.equals(full.steps)  # the decomposition is every player's, whoever is reviewed
    assert_one_players_review(full, one, 2, path, capsys, tmp_path, PRECISION)
    assert review(record, precision=PRECISION, players=set()).decisions.empty


def test_a_record_that_does_not_replay_is_named_and_the_others_are_reviewed(tmp_path, capsys):
    path, games = three_games(tmp_path)
    out = tmp_path / "decisions.csv"
    code = main(["review", str(path), "-o", str(out), "--precision", "0.05", "--processes", "2"])
    err = capsys.readouterr().err
    assert code == 2
    line = len(games[0]) + 1
    assert f"camelup: error: game 1 (line {line}): turn 4: the record's board" in err
    import pandas as pd

    table = pd.read_csv(out)
    assert sorted(set(table["game"])) == [0, 2]
    assert len(table) == games[0][-1]["turns"] + games[2][-1]["turns"]


def test_review_json_is_strict_and_matches_python(capsys, three):
    path, games, one = three
    code = main(["review", str(path), "--game", "2", "--json", "--precision", "0.05", "--processes", "1"])
    assert code == 0
    text = capsys.readouterr().out
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    (game,) = data["games"]
    assert game["game"] == 2 and data["errors"] == []
    rev = one[2].review  # review(games[2], precision=0.05, game_index=2)
    assert [d["action"] for d in game["decisions"]] == rev.decisions["action"].tolist()
    assert [Fraction(p["final"]) for p in game["exact"]] == games[2][-1]["money"]
    assert [d["win_lost"] for d in game["decisions"]] == pytest.approx(rev.decisions["win_lost"].tolist())
    assert {"win", "best_win_action", "best_win"} <= set(game["decisions"][0])
    assert [p["win_lost_total"] for p in game["players"]] == pytest.approx(rev.players["win_lost_total"].tolist())
    for parts in game["exact"]:
        f = {k: Fraction(v) for k, v in parts.items()}
        assert f["start"] + f["skill"] + f["others"] + f["luck"] == f["final"]


def test_review_text_of_one_game_and_its_chart(tmp_path, capsys, three):
    path, games, one = three
    chart = tmp_path / "review.png"
    assert main(["review", str(path), "--game", "0", "--chart", str(chart), "--precision", "0.05"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game 0: Camel Up (2nd edition), 3 players")
    assert "start + skill (EV of own actions)" in out and chart.stat().st_size > 10_000
    assert "|  win%  best win    win%  lost" in out and "win%: the chance of winning the game after the action" in out
    rev = one[0].review  # review(games[0], precision=0.05)
    r = rev.decisions.iloc[0]
    assert f"| {100 * r.win:5.1f}  {r.best_win_action:<10} {100 * r.best_win:5.1f} {100 * r.win_lost:5.1f}" in out
    p = rev.players.iloc[0]
    assert f"{100 * p.accurate:7.0f}% {100 * p.win_lost_total:8.1f} |" in out


@pytest.mark.parametrize("argv, message", [
    (["--chart", "x.png"], "--chart draws one game"),
    (["-o", "out.txt"], "use one of .csv, .jsonl, .parquet"),
    (["-o", "missing/out.csv"], "does not exist"),
    (["--game", "7"], "--game 7: "),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler applies to --engine dask only"),
])
def test_bad_options_are_refused_before_any_work(tmp_path, capsys, monkeypatch, argv, message):
    path, _ = three_games(tmp_path)
    monkeypatch.chdir(tmp_path)
    import advisor.reviews.review as rv

    monkeypatch.setattr(rv, "review", lambda *a, **k: pytest.fail("work was done"))
    assert main(["review", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_output_never_overwrites_the_records(tmp_path, capsys):
    path, _ = three_games(tmp_path)
    before = path.read_bytes()
    assert main(["review", str(path), "-o", str(path)]) == 2
    assert "is the input file" in capsys.readouterr().err and path.read_bytes() == before


def test_a_board_game_setup_line_naming_the_cards_edition_is_refused_with_one_line(tmp_path, capsys):
    # Camel Up Cards records say game: cards (tests/test_cards_review.py reviews them)
    path = tmp_path / "cards.jsonl"
    path.write_text(json.dumps({"type": "setup", "edition": "cards", "players": 4, "seed": 1, "start": 0,
                                "board": "cards 0:BGOWY"}) + "\n")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Camel Up Cards" in err
    with pytest.raises(RecordError, match="setup line says game: cards"):
        review([json.loads(path.read_text())])


def test_review_of_a_record_with_an_illegal_action_names_the_turn():
    game = blunder_record()
    record = [dict(e) for e in game.record]
    record[2] = {**record[2], "action": "leg:Q"}
    record[2].pop("board")
    with pytest.raises(RecordError, match="turn 1: "):
        review(record)


def test_review_of_a_record_names_the_turn_its_replay_stops_at():
    """An end line after turn 2 of a game not over, a reveal line of a card
    that is not face down: the turn named is the one the replay stopped at,
    where the line stands (reveal and end lines included)."""
    game = blunder_record()
    game.apply("winner:?")
    record = [dict(e) for e in game.record]
    early_end = record[:3] + [{"type": "end", "money": [3, 3, 3, 3]}] + record[3:]
    with pytest.raises(RecordError, match="^turn 2: the record's end line comes after turn 2, but the game"):
        review(early_end)
    bad_reveal = record[:3] + [{"type": "reveal", "pile": "winner", "index": 1, "colour": "B"}] + record[3:]
    with pytest.raises(RecordError, match="^turn 2: the winner pile holds cards 0..-1, not 1"):
        review(bad_reveal)


def test_best_at_a_turn_of_a_record(tmp_path, capsys):
    from advisor.game import replay

    path, games = three_games(tmp_path)
    assert main(["best", str(path), "--game", "2", "--turn", "5", "--json", "--seed", "1", "--no-denial"]) == 0
    data = json.loads(capsys.readouterr().out)
    game = replay(games[2], upto=5)
    assert data["position"] == str(game.state.position) and data["player"] == game.to_move
    assert main(["best", str(path), "--game", "2", "--turn", "5", "--seed", "1", "--no-denial"]) == 0
    assert f"Advice for player {game.to_move}" in capsys.readouterr().out
    turns = games[2][-1]["turns"]
    assert main(["best", str(path), "--game", "2", "--turn", str(turns + 1)]) == 2
    assert f"has {turns} turns" in capsys.readouterr().err
    assert main(["best", str(path), "--game", "1", "--turn", "9"]) == 2
    assert "game 1 does not replay to turn 9: turn 4" in capsys.readouterr().err


def test_plot_review_on_given_axes():
    from matplotlib.figure import Figure

    from advisor.plotting import plot_review

    game = blunder_record()
    rev = review(game.record, precision=PRECISION, details=False)
    ax = Figure().add_subplot()
    assert plot_review(rev, ax=ax) is ax
    assert len(ax.patches) == 2 and len(ax.lines) >= 2 * 4
    assert [round(-p.get_height(), 9) for p in ax.patches] == [0.0, round(rev.decisions["ev_lost"].iloc[1], 9)]


def test_the_file_in_parallel_equals_one_process(three):
    from advisor.reviews.review import review_records

    path, _, one = three  # one: review_records(path, processes=1, precision=0.05, details=False)
    two = list(review_records(path, processes=2, precision=0.05, details=False, players={1}))  # player 1's only
    assert [r.error for r in one] == [r.error for r in two] and one[1].error
    for a, b in zip(one, two):
        if a.review is not None:
            mine = a.review.decisions[a.review.decisions["player"] == 1].reset_index(drop=True)
            assert len(mine) and mine.equals(b.review.decisions) and a.review.exact == b.review.exact


def test_review_on_a_dask_cluster_equals_a_local_one(tmp_path, capsys, cluster):
    import pandas as pd

    path, _ = three_games(tmp_path)
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    argv = ["review", str(path), "--precision", "0.05", "--player", "1"]  # player 1's decisions only, both ways
    assert main([*argv, "-o", str(local), "--processes", "1"]) == 2
    code = main([*argv, "-o", str(remote), "--engine", "dask", "--scheduler", cluster.scheduler_address])
    assert code == 2  # the same bad game, reported the same way
    err = capsys.readouterr().err
    assert err.count("camelup: error: game 1 (line") == 2
    pd.testing.assert_frame_equal(pd.read_json(local, lines=True), pd.read_json(remote, lines=True))
    assert local.read_text() == remote.read_text()
    assert main(["review", str(path), "--engine", "dask"]) == 2
    assert "--engine dask needs --scheduler" in capsys.readouterr().err


def test_advisor_review_is_the_public_entry_point():
    import advisor

    game = blunder_record()
    decisions, players = advisor.review(game.record, precision=PRECISION, details=False)
    assert decisions["action"].tolist() == ["leg:R", "leg:B"] and len(players) == 4


@pytest.mark.parametrize("edition, players", [("second", 6), ("first", 4)])
def test_skill_is_the_ev_best_moves_gives_for_every_leg_action(edition, players):
    # no overall card is placed: every action is valued from the leg alone,
    # exactly, by best_moves and by the review's valuation alike
    def policy(game, rng):
        legal = [a for a in game.legal_actions() if not a.startswith(("winner:", "loser:"))]
        return legal[int(rng.integers(len(legal)))]

    position = "first 1:B 2:YG 3:OW" if edition == "first" else "1:B 2:YG 3:PR 14:w 15:k"
    game = play(edition, players, position, policy, seed=7, turns=30)
    rev = review(game.record, precision=PRECISION, details=False)
    from advisor.game import replay

    kinds = set()
    for row in rev.decisions.itertuples():
        before = replay(game.record, upto=row.turn)
        frame = best_moves(before.view(row.player), row.player, denial=False, race=False)
        assert row.skill == frame.set_index("action").loc[row.action, "ev"], row
        kinds.add(row.kind)
    assert {"leg", "pyramid", "tile"} <= kinds
    assert edition == "first" or "partner" in kinds
    assert_exact(rev, game)


def test_full_valuation_is_best_moves_itself():
    game = blunder_record()
    rev = review(game.record, precision=PRECISION, seed=2, full=True)
    from advisor.game import replay

    for row in rev.decisions.itertuples():
        frame = best_moves(replay(game.record, upto=row.turn).view(row.player), row.player, precision=PRECISION,
                           seed=2, denial=False)
        assert row.ev == frame.set_index("action").loc[row.action, "ev"]
        assert (row.best_action, row.best_ev) == (frame["action"].iloc[0], frame["ev"].iloc[0])


def test_a_record_written_by_hand_without_boards_or_turns(tmp_path, capsys):
    lines = [{"type": "setup", "edition": "first", "players": 3, "seed": 9, "start": 1, "board": "first 1:B 2:YG 3:OW"},
             {"type": "action", "player": 1, "action": "leg:W"},
             {"type": "action", "player": 2, "action": "pyramid"},  # the roll drawn from the seed, as replay does
             {"type": "action", "player": 0, "action": "tile:+5"},
             {"type": "action", "player": 1, "action": "pyramid", "roll": {"die": "B", "value": 3}}]
    path = tmp_path / "hand.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    assert main(["review", str(path), "--precision", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "Camel Up (1st edition), 3 players, 4 turns" in out and "1 player 1   leg:W" in out
    rev = review(lines, precision=PRECISION)
    assert rev.decisions["player"].tolist() == [1, 2, 0, 1]
    for parts in rev.exact:
        assert parts["start"] + parts["skill"] + parts["others"] + parts["luck"] == parts["final"]


def test_the_review_values_the_leg_by_the_rules_of_the_game():
    # First edition, start money 0: W (on 1) and Y (on 4) end the leg last
    # whatever the dice do (W can reach Y and ride on it, at most to 7; O,
    # the slowest of the others, reaches 9 at least), so each of their tiles pays the rules'
    # "other" figure (-2 here).  Players 0 and 1 take W's and Y's three
    # tiles each: -6 each.  The review's leg value of the state follows the
    # variant's payout and floor exactly as the engine's leg end does.
    from advisor.rules.editions import FIRST

    for rules, before in ((FIRST.with_rules("broke", money_floor=None, start_money=0, leg_other=-2), [-6, -6]),
                          (FIRST.with_rules("broke0", start_money=0, leg_other=-2), [0, 0])):
        game = Game("first", 2, seed=5, start=0, rules=rules, position="first 12:B 10:G 8:O 4:Y 1:W")
        for action in ("leg:W", "leg:Y") * 3:
            game.apply(action)
        assert Valuer().leg_values(game.state) == [Fraction(v) for v in before], rules.variant
        for _ in range(5):  # player 0 rolls three times (+3), player 1 twice (+2)
            game.apply("pyramid")
        floor = rules.money_floor
        want = [-6 + 3, -6 + 2] if floor is None else [max(floor, -3), max(floor, -4)]
        assert game.legs == 2 and game.money() == want


# --------------------------------------------------------------------------
# Cards placed face down unseen at the table, revealed at the race end
# --------------------------------------------------------------------------


#: the camels two legs or so from the finish: every player still places
#: all their overall cards (30% of the moves), in a third of a whole game's
#: decisions
NEAR_END = {"second": "9:B 10:YG 11:PR 16:w 15:k", "first": "first 9:B 10:YG 11:OW"}


def _games_with_cards(seed: int, players: int, edition: str = "second") -> tuple[list[dict], list[dict]]:
    """One game of random moves from :data:`NEAR_END`, overall cards
    played often, recorded twice: with every card face down unseen
    (``winner:?``), the cards revealed colour by colour when the race ends
    (as the page records a game at the table), and with the same cards
    played face up."""
    from advisor.rules.turn import UnrevealedCards

    rng = np.random.default_rng(seed)
    shown, hidden = (Game(edition, players, seed, position=NEAR_END[edition]) for _ in range(2))
    placed = {}
    while not shown.finished:
        acts = shown.legal_actions()
        cards = [a for a in acts if a.startswith(("winner:", "loser:"))]
        action = cards[rng.integers(len(cards))] if cards and rng.random() < 0.3 else acts[rng.integers(len(acts))]
        roll = shown.apply(action).get("roll")
        pile, _, colour = action.partition(":")
        if pile in ("winner", "loser"):
            placed[(pile, len(getattr(hidden.state, f"{pile}_pile")))] = colour
            action = f"{pile}:?"
        try:
            hidden.apply(action, Roll.from_json(roll) if roll else None)
        except UnrevealedCards:
            for (pile, index), colour in sorted(placed.items()):
                hidden.reveal(pile, index, colour)
            hidden.apply(action, Roll.from_json(roll))
    assert hidden.finished
    return hidden.record, shown.record


@pytest.mark.parametrize("seed, players, edition", [(11, 4, "second"), (13, 3, "first")])
def test_cards_placed_face_down_are_reviewed_as_their_owner_saw_them(seed, players, edition):
    """Each player knew the colour of their own face-down card: the review
    reads it from the reveal lines, so every decision and every player's
    parts are those of the same game played with the cards face up."""
    from advisor.reviews.scoresheet import pile_reveal, score_breakdown

    hidden, shown = _games_with_cards(seed, players, edition)
    assert any(e.get("action", "").endswith("?") for e in hidden)
    assert sum(e.get("type") == "reveal" for e in hidden) == sum(
        e.get("action", "").startswith(("winner:", "loser:")) for e in shown)
    a, b = review(hidden, precision=PRECISION), review(shown, precision=PRECISION)
    cols = ["turn", "player", "ev", "best_action", "best_ev", "ev_lost", "rank", "options", "skill"]
    assert a.decisions[cols].equals(b.decisions[cols])
    assert [x.split(":")[0] for x in a.decisions["action"]] == [x.split(":")[0] for x in b.decisions["action"]]
    assert a.players.drop(columns="mistake_list").equals(b.players.drop(columns="mistake_list"))
    assert a.exact == b.exact
    assert score_breakdown(hidden).equals(score_breakdown(shown))
    assert pile_reveal(hidden).drop(columns="turn").equals(pile_reveal(shown).drop(columns="turn"))


def test_a_face_down_card_never_revealed_is_one_clear_line():
    record, _ = _games_with_cards(11, 4)
    cut = next(k for k, e in enumerate(record) if e.get("type") == "reveal")  # the game before its reveals
    with pytest.raises(RecordError, match="placed face down on the .* pile .* is never revealed in the record"):
        review(record[:cut], precision=PRECISION)
