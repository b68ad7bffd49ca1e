"""Game review of Camel Up Cards records: every action of a turn against the
best one, from the mover's view (the board games' review loop, the Cards
valuation of a decision)."""

import json

import numpy as np
import pandas as pd
import pytest

from advisor.cards.bots import GreedyCardsBot, RandomCardsBot
from advisor.cards.game import CardsGame, CardsSetup
from advisor.cards.record import write_cards_records
from advisor.cards.steps import step_values
from advisor.cli.command import main
from advisor.game import RecordError
from advisor.reviews.review import review, review_records

PRECISION = 0.05  # coarse race odds keep the tests quick


class _Seed0:
    """An rng whose every draw is 0: the greedy bot then values with seed 0,
    the review's seed."""

    def integers(self, *args, **kwargs):
        return 0


def first_leg(seed=5, players=3, legs=1):
    """A game cut after its first ``legs`` legs: a greedy bot valuing with the
    review's seed and precision in seat 0, random bots in the others.
    Returns the record and the greedy bot's decisions (turn -> action)."""
    game = CardsGame(CardsSetup(players=players), seed)
    bots = [GreedyCardsBot(precision=PRECISION)] + [RandomCardsBot() for _ in range(players - 1)]
    rngs = [_Seed0()] + [np.random.default_rng([seed, s]) for s in range(1, players)]
    while not game.finished and game.state.leg <= legs:
        p = game.state.current
        game.play(bots[p].choose(game.state, p, rngs[p]))
    return game.record


@pytest.fixture(scope="module")
def short():
    record = first_leg()
    return record, review(record, precision=PRECISION)


def test_every_action_of_a_turn_is_a_decision_and_deck_building_is_not(short):
    record, rev = short
    actions = [e for e in record if e.get("type") == "action"]
    turns = [e["turn"] for e in actions if not e["action"].startswith("build")]
    assert rev.decisions["turn"].tolist() == turns
    assert rev.decisions["action"].tolist() == [e["action"] for e in actions if e["turn"] in set(turns)]
    assert rev.decisions["player"].tolist() == [e["player"] for e in actions if e["turn"] in set(turns)]
    assert (rev.decisions["ev_lost"] >= 0).all() and (rev.decisions["rank"] >= 1).all()
    assert ((rev.decisions["ev_lost"] == 0) == (rev.decisions["rank"] == 1)).all()
    assert rev.info["edition"] == "cards" and not rev.info["finished"] and rev.exact == []


def test_the_greedy_bot_loses_nothing_when_it_values_as_the_review_does(short):
    _, rev = short
    mine = rev.decisions[rev.decisions["player"] == 0]
    assert len(mine) >= 5
    assert (mine["ev_lost"] <= 1e-9).all(), mine[["turn", "action", "best_action", "ev_lost"]]
    assert rev.players.loc[0, "mistakes"] == 0 and rev.players.loc[0, "accurate"] == 1.0


@pytest.fixture(scope="module")
def greedy_leg():
    """The first leg of a greedy bot (valuing with its own seeds and default
    precision, 0.02) against a random one, reviewed at precision 0.01
    without details: the record and its review."""
    game = CardsGame(CardsSetup(players=2), 11)
    game.record[0]["bots"] = ["greedy", "random"]
    bots = [GreedyCardsBot(), RandomCardsBot()]  # as play_cards_game seats them, the first leg only
    rngs = [np.random.default_rng([11, s]) for s in range(2)]
    while not game.finished and game.state.leg == 1:
        p = game.state.current
        game.play(bots[p].choose(game.state, p, rngs[p]))
    return game.record, review(game.record, precision=0.01, details=False)


def test_the_greedy_bot_as_it_plays_loses_only_sampling_error(greedy_leg):
    """The bot values with its own seeds and a coarser precision (0.02): what
    it loses against the review's figures is their sampling error."""
    _, rev = greedy_leg
    mine = rev.decisions[rev.decisions["seat"] == "greedy"]
    assert len(mine) >= 5 and mine["ev_lost"].max() < 0.3 and mine["ev_lost"].mean() < 0.05
    others = rev.decisions[rev.decisions["seat"] == "random"]
    assert others["ev_lost"].mean() > 0.3  # a random player does lose


@pytest.fixture(scope="module")
def first_step(short):
    """The state before the short game's first decision (a turn's start) and
    ``step_values`` of it."""
    from advisor.cards.record import replay_cards

    record, rev = short
    state = replay_cards(record, upto=int(rev.decisions.iloc[0]["turn"])).state
    return state, step_values(state, precision=PRECISION)


def test_a_decision_is_valued_as_step_values_gives_from_the_movers_view(short, first_step):
    from advisor.cards.record import replay_cards

    record, rev = short
    for k in (0, 1, len(rev.decisions) - 1):
        row = rev.decisions.iloc[k]
        if k == 0:
            state, frame = first_step
        else:
            state = replay_cards(record, upto=int(row["turn"])).state
            frame = step_values(state, precision=PRECISION)
        values = dict(zip(frame["action"], frame["ev"]))
        assert row["ev"] == pytest.approx(values[row["action"]], abs=1e-12)
        assert row["best_ev"] == pytest.approx(frame["ev"].max(), abs=1e-12)
        assert row["options"] == len(frame)
        chances = dict(zip(frame["action"], frame["win"]))
        assert row["win"] == pytest.approx(chances[row["action"]], abs=1e-15)
        assert row["best_win"] == pytest.approx(frame["win"].max(), abs=1e-15)
        assert chances[row["best_win_action"]] == row["best_win"]
        # from the mover's view: the state with the others' cards and the deck face down values the same
        seen = step_values(state.view(state.current), precision=PRECISION)
        pd.testing.assert_frame_equal(seen, frame)


def test_the_players_table_and_what_is_not_computed(short):
    _, rev = short
    players = rev.players
    assert players["decisions"].sum() == len(rev.decisions)
    for p in range(3):
        mine = rev.decisions[rev.decisions["player"] == p]
        assert players.loc[p, "ev_lost_total"] == pytest.approx(mine["ev_lost"].sum())
        assert players.loc[p, "skill"] == pytest.approx(mine["skill"].sum())
        assert players.loc[p, "mistakes"] == int((mine["ev_lost"] > 0.5).sum())
    assert players["start"].tolist() == [3.0, 3.0, 3.0]
    assert players[["others", "luck", "final"]].isna().all().all()  # unfinished: no final money either


def test_the_chance_of_winning_lost_per_decision_and_per_player(short):
    """The chance of winning is computed for Camel Up Cards as for the board
    games: a chance lost never below 0, 0 for the best action by chance
    (the action taken when it is one of the highest), the players' total
    and mean over their decisions."""
    _, rev = short
    dec, players = rev.decisions, rev.players
    assert dec[["win", "best_win_action", "best_win", "win_lost"]].notna().all().all()
    assert dec["win"].between(0, 1).all() and dec["best_win"].between(0, 1).all()
    assert (dec["win_lost"] >= 0).all()
    assert np.allclose(dec["win_lost"], dec["best_win"] - dec["win"], atol=1e-15)
    assert ((dec["win_lost"] == 0) == (dec["best_win_action"] == dec["action"])).all()
    assert (dec["win_lost"] > 0).any()  # random play loses some chance
    for p in range(3):
        mine = dec[dec["player"] == p]
        assert players.loc[p, "win_lost_total"] == pytest.approx(mine["win_lost"].sum(), abs=1e-12)
        assert players.loc[p, "win_lost_mean"] == pytest.approx(mine["win_lost"].mean(), abs=1e-12)


def test_the_chart_shows_the_chance_of_winning_lost(short):
    from matplotlib.figure import Figure

    from advisor.plotting import plot_review

    _, rev = short
    ax = Figure().add_subplot()
    assert plot_review(rev, ax=ax) is ax
    assert len(ax.patches) == len(rev.decisions)  # the EV lost: a bar per decision
    (right,) = [a for a in ax.figure.axes if a is not ax]
    assert right.get_label() == "win chance lost"
    lost = rev.decisions["win_lost"].to_numpy() * 100
    (markers,) = right.collections
    assert np.allclose(markers.get_offsets()[:, 1], -lost[lost > 0.05])
    assert "win chance lost (right axis, player's colour)" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_a_step_at_a_turns_start_is_valued_with_the_best_way_to_finish_the_turn(first_step):
    from advisor.cards.best import cards_best

    state, frame = first_step  # the leg's first step: a turn's start
    assert not state.raced and not state.bet
    whole = cards_best(state.view(state.current).position(state.current), seed=0, precision=PRECISION)
    values = dict(zip(frame["action"], frame["ev"]))
    assert values["reveal"] == pytest.approx(whole.loc[whole.action == "reveal+best", "ev"].iloc[0])
    bet = next(a for a in values if a.startswith("leg:"))
    assert values[bet] == pytest.approx(whole.loc[(whole.bet == bet) & (whole.timing != "after"), "ev"].max())
    assert frame["ev"].max() == pytest.approx(whole["ev"].max())


def _by_first_action(whole, column):
    """The best ``column`` of the whole turns each first action starts:
    ``X+reveal`` under the bet ``X``, ``R+X`` (a hand card or a figure and a
    bet, ``either`` order) under ``R`` and under ``X``, a race action alone
    (or ``reveal+best``) under it."""
    firsts = [((bet, race) if timing == "either" else (bet,)) if bet and timing != "after" else (race,)
              for race, bet, timing in zip(whole["race"], whole["bet"], whole["timing"])]
    rows = [(first, value) for both, value in zip(firsts, whole[column]) for first in both]
    return pd.DataFrame(rows, columns=["first", column]).groupby("first")[column].max()


def _assert_by_first_action(frame, whole, column):
    """Each action of a turn-start step (``frame``, :func:`step_values`)
    has the best ``column`` of the whole turns it starts (``whole``)."""
    got = dict(zip(frame["action"], frame[column]))
    expected = _by_first_action(whole, column)
    assert set(got) == set(expected.index)
    for action, value in got.items():
        assert value == pytest.approx(expected[action], abs=1e-12), action
    return got


def test_a_hand_card_or_figure_first_is_worth_its_best_bet_after_it(first_step):
    """``R`` first is the best of ``R`` alone and ``R+X`` (``R+X`` may take
    the bet after the race action): a review must not count a hand card
    played first as if no bet could follow it."""
    state, frame = first_step
    whole = _advice_with_chances(state)
    values = _assert_by_first_action(frame, whole, "ev")
    either = whole[whole.timing == "either"]
    assert len(either), "the step has a hand card or a figure to play with a bet"
    for race in set(either["race"]):
        assert values[race] >= either.loc[either.race == race, "ev"].max() - 1e-12


def _advice_with_chances(state):
    """``cards_best`` with the chance of winning of the player to act, from
    their view, the other players' money and bets and the leg from the table."""
    from advisor.cards.best import cards_best

    p, n = state.current, state.setup.players
    view = state.view(p)
    rivals = [view.players[(p + k) % n] for k in range(1, n)]
    return cards_best(view.position(p), seed=0, precision=PRECISION, objective="ev", chances=True, rivals=rivals,
                      leg=state.leg)


def test_a_steps_chance_of_winning_at_a_turns_start_is_the_best_of_the_turns_it_starts(first_step):
    state, frame = first_step
    whole = _advice_with_chances(state)
    # the turns behind each first action, as the EV takes them: a bet taken first (before the race action),
    # a hand card or a figure with a bet under both (the same either way), else the race action
    chances = _assert_by_first_action(frame, whole, "win")
    assert chances["reveal"] == max(whole.loc[whole.action.isin(["reveal", "reveal+best"]), "win"])
    bet = next(a for a in chances if a.startswith("leg:"))
    assert chances[bet] == whole.loc[(whole.bet == bet) & (whole.timing != "after"), "win"].max()
    assert 0 < frame["win"].min() and frame["win"].max() < 1


def test_a_steps_chance_of_winning_inside_a_turn_is_its_own(short):
    """Once the bet is taken, a race action's chance is that of the turn
    it ends; once the race action is played, a bet's (or pass's) chance."""
    from advisor.cards.record import replay_cards

    record, rev = short
    seen = set()
    for turn in rev.decisions["turn"]:
        state = replay_cards(record, upto=int(turn)).state
        kind = "bet taken" if state.bet else "race played" if state.raced else None
        if kind is None or kind in seen:
            continue
        seen.add(kind)
        frame = step_values(state, precision=PRECISION)
        whole = _advice_with_chances(state)
        if kind == "bet taken":  # the turns of a race action alone, the bet held
            whole = whole[whole.bet == ""].assign(action=whole.race)
        assert dict(zip(frame["action"], frame["win"])) == dict(zip(whole["action"], whole["win"]))
    assert seen == {"bet taken", "race played"}


def test_one_players_review_values_theirs_only_and_is_the_full_review_filtered(short, tmp_path, capsys,
                                                                                monkeypatch):
    from helpers import assert_one_players_review

    import advisor.reviews.review as rv

    record, full = short
    path = tmp_path / "cards.jsonl"
    write_cards_records([record], path)
    valued = []
    decide = rv._CardsSide.value_decision
    monkeypatch.setattr(rv._CardsSide, "value_decision", lambda self, step: valued.append(step.player)
                        or decide(self, step))
    one = review(record, precision=PRECISION, players={1})
    assert valued == [1] * int((full.decisions["player"] == 1).sum()) and valued
    others = one.steps[one.steps["actor"] != 1]  # another player's step: its skill not valued
    assert others.loc[others["player"] == others["actor"], "skill"].isna().all()
    assert_one_players_review(full, one, 1, path, capsys, tmp_path, PRECISION)


def test_the_kernel_memo_changes_no_figure_of_a_review_and_saves_kernel_calls(short, monkeypatch):
    from advisor.cards.odds import KERNEL_MEMO
    from advisor.kernels.cards import others as kernels

    record, _ = short
    actions = [k for k, e in enumerate(record) if e.get("type") == "action" and not e["action"].startswith("build")]
    cut = record[: actions[4]]  # the first four decisions
    calls = []
    sample = kernels.leg_others_sample
    monkeypatch.setattr(kernels, "leg_others_sample", lambda *a: calls.append(1) or sample(*a))
    KERNEL_MEMO.clear()
    kept = review(cut, precision=PRECISION)
    with_memo = len(calls)
    monkeypatch.setattr(KERNEL_MEMO, "enabled", False)
    plain = review(cut, precision=PRECISION)
    assert with_memo < len(calls) - with_memo  # fewer sampled legs with the memo
    for a, b in ((kept.decisions, plain.decisions), (kept.players, plain.players), (kept.steps, plain.steps)):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_the_text_of_a_review(short):
    from advisor.cli.review import format_review

    _, rev = short
    text = format_review(rev)
    assert text.startswith("Game 0: Camel Up Cards, 3 players")
    assert "one row per action of a turn" in text
    assert "others and luck are not computed for Camel Up Cards" in text
    assert "exactly" not in text.splitlines()[-1]
    assert "win%: the chance of winning the game after the action, from the mover's view" in text
    assert "not computed for Camel Up Cards (no win model" not in text
    assert "win lost: the chance of winning lost over the player's decisions" in text.splitlines()[-1]
    r = rev.decisions.iloc[1]
    line = text.splitlines()[6]  # the second decision's row
    assert line.startswith(f"{r.turn:>4} {r.leg:>3} {f'{r.player} {r.seat}'[:12]:<12} {r.action:<10}")
    assert f"| {100 * r.win:5.1f}  {r.best_win_action:<10} {100 * r.best_win:5.1f} {100 * r.win_lost:5.1f}" in line
    p = rev.players.iloc[0]
    assert f"{100 * p.accurate:7.0f}% {100 * p.win_lost_total:8.1f} |" in text


def test_review_of_a_whole_game_from_the_command_line(tmp_path, capsys):
    from advisor.cards.bots import play_cards_game

    record = play_cards_game(["random", "heuristic"], seed=6)
    assert record[-1]["type"] == "end"
    path = tmp_path / "cards.jsonl"
    write_cards_records([record], path)
    chart, table = tmp_path / "review.png", tmp_path / "decisions.csv"
    assert main(["review", str(path), "--precision", "0.05", "--chart", str(chart), "-o", str(table), "--json",
                 "--player", "1"]) == 0
    data = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert chart.stat().st_size > 10_000
    frame = pd.read_csv(table)
    assert frame["player"].unique().tolist() == [1]
    assert len(frame) == sum(1 for e in record if e.get("type") == "action" and e["player"] == 1
                             and not e["action"].startswith("build"))
    (game,) = data["games"]
    assert game["edition"] == "cards" and game["finished"] and game["money"] == record[-1]["money"]
    assert {d["player"] for d in game["decisions"]} == {1}
    (row,) = game["players"]
    assert row["final"] == record[-1]["money"][1] and row["luck"] is None and game["exact"] == []
    lost = [d["win_lost"] for d in game["decisions"]]
    assert all(isinstance(x, float) and x >= 0 for x in lost)
    assert all(0 <= d["win"] <= 1 and d["best_win_action"] for d in game["decisions"])
    assert row["win_lost_total"] == pytest.approx(sum(lost), abs=1e-12)
    assert row["win_lost_mean"] == pytest.approx(sum(lost) / len(lost), abs=1e-12)
    assert frame["win_lost"].tolist() == pytest.approx(lost, abs=1e-12)


def test_two_cards_games_on_two_processes_equal_one_process(tmp_path, greedy_leg):
    """Two first legs of two-player games: the greedy bot's (reviewed in this
    process by the fixture, with the options below) and one of a random and
    a heuristic bot."""
    from advisor.cards.bots import play_cards_game
    from advisor.reviews.review import Reviewed, read_games

    path = tmp_path / "cards.jsonl"
    record, rev = greedy_leg
    game = play_cards_game(["random", "heuristic"], seed=1)
    cut = next(k for k, e in enumerate(game) if e.get("type") == "deal" and e["leg"] == 2)
    write_cards_records([record, game[:cut]], path)
    options = {"precision": 0.01, "details": False, "players": {0}}  # the fixture's review of game 0, player 0
    (index, line, read), _ = read_games(path)
    assert (index, line, read) == (0, 1, record)  # the file's game 0 is the fixture's
    one = [Reviewed(0, 1, rev)] + list(review_records(path, games={1}, processes=1, **options))
    two = list(review_records(path, processes=2, **options))
    assert [r.error for r in one] == [None, None] == [r.error for r in two]
    assert [(r.index, r.line) for r in one] == [(r.index, r.line) for r in two]
    for a, b in zip(one, two):
        mine = a.review.decisions[a.review.decisions["player"] == 0].reset_index(drop=True)
        assert len(mine)
        pd.testing.assert_frame_equal(mine, b.review.decisions)


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


def copy_at_first_reveal(record):
    """A copy of ``record`` to spoil and the index of its first ``reveal`` action."""
    copy = [dict(e) for e in record]
    return copy, next(i for i, e in enumerate(copy) if e.get("type") == "action" and e["action"] == "reveal")


def test_an_illegal_action_is_named_by_its_turn(short):
    bad, k = copy_at_first_reveal(short[0])
    bad[k]["action"] = "palm:99"
    with pytest.raises(RecordError, match=f"turn {bad[k]['turn']}: "):
        review(bad, precision=PRECISION)


def test_a_record_whose_board_does_not_match_is_refused(short):
    bad, k = copy_at_first_reveal(short[0])
    bad[k]["board"] = "track:nnnnnn 1:BGOWY"
    with pytest.raises(RecordError, match=f"line {k + 1} of the game: the record's board"):
        review(bad, precision=PRECISION)


def test_bad_cards_files_are_refused_in_one_line(tmp_path, capsys, short):
    record, _ = short
    path = tmp_path / "cards.jsonl"
    write_cards_records([record], path)
    assert main(["review", str(path), "--full"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "full applies to the board games" in err
    # a board game's file with a Cards game in it
    from advisor.game import Game, write_records

    board = Game("second", 3, seed=1)
    while not board.finished:
        board.apply(board.legal_actions()[0])
    mixed = tmp_path / "mixed.jsonl"
    write_records([board.record], mixed)
    with open(mixed, "a") as fh:
        fh.write(path.read_text())
    assert main(["review", str(mixed)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "a Camel Up Cards game among board-game records" in err


def test_the_help_says_the_cards_chance_of_winning_comes_from_the_cards_win_model(capsys):
    assert main(["review", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "the chance of winning from the Camel Up Cards advice's win model" in out
    assert "not computed" not in out
    assert "the chance of winning lost" in out
