"""The dice sources of whole games (advisor.rules.dice): per-leg dice fixed by the
seed and the leg whatever the players do, by the rules of docs/rules.md (a die
uniform from the pyramid, six equal faces, the grey die's colour, 5 rolls
a leg, the race ending mid-leg), recorded on the setup line; the default
one-stream source unchanged."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from advisor.rules.dice import DICE_MODES, LegDice, face_roll
from advisor.errors import AdvisorError
from advisor.game import Game, RecordError, check_entry, replay
from advisor.rules.editions import GREY_DIE, get_edition
from advisor.simulate.games import play_game


def legs_of(record):
    """The rolls of each leg of a record, as (die, value, colour) tuples."""
    legs, leg = [], []
    for entry in record:
        if "roll" in entry:
            r = entry["roll"]
            leg.append((r["die"], r["value"], r.get("colour")))
            if entry.get("leg_over") or entry.get("race_over"):
                legs.append(leg)
                leg = []
    if leg:
        legs.append(leg)
    return legs


def actions_of(record):
    return [(e["player"], e["action"]) for e in record if e.get("type") == "action"]


@pytest.mark.parametrize("edition", ["second", "first"])
@pytest.mark.parametrize("seed", [3, 41])
def test_two_games_of_one_seed_see_the_same_dice_whatever_the_players_do(edition, seed):
    one = play_game(["heuristic", "random", "random", "random"], edition, seed, dice="leg")
    two = play_game(["random", "random", "heuristic", "random"], edition, seed, dice="leg")
    assert actions_of(one) != actions_of(two)  # the decisions differ ...
    assert one[0]["board"] == two[0]["board"] and one[0]["start"] == two[0]["start"]
    legs1, legs2 = legs_of(one), legs_of(two)
    common = min(len(legs1), len(legs2))
    assert common >= 2
    for k in range(common):  # ... and the dice do not: leg by leg, roll by roll
        a, b = legs1[k], legs2[k]
        n = min(len(a), len(b))
        assert a[:n] == b[:n], f"leg {k + 1}"
        if k < common - 1:
            assert a == b


@pytest.mark.parametrize("edition", ["second", "first"])
def test_each_leg_rolls_the_dice_drawn_for_that_leg(edition):
    """The rolls of leg k are the order and faces drawn from (seed, k):
    nothing before the leg (how many rolls, which actions) moves them."""
    record = play_game(["heuristic", "random", "random"], edition, 9, dice="leg")
    source = LegDice(record[0]["seed"])
    ed = get_edition(edition)
    for k, leg in enumerate(legs_of(record), 1):
        drawn = [(r.die, r.value, r.colour) for r in source.leg_rolls(k, ed.dice)]
        assert leg == drawn[:len(leg)]


@pytest.mark.parametrize("edition", ["second", "first"])
def test_a_replayed_game_continued_draws_the_dice_of_the_original(edition):
    """With per-leg dice a game replayed to any turn and played on (by
    deterministic bots) is the original game again; with one stream for the
    game it is not: the stream does not know how many rolls the record
    gave."""
    from advisor.bots.policies import make_bot

    bots = ["heuristic"] * 4
    for dice in DICE_MODES:
        record = play_game(bots, edition, 5, dice=dice)
        rolled = [e["turn"] for e in record if "roll" in e]
        same = []
        for upto in (rolled[2] + 1, rolled[len(rolled) // 2] + 1, rolled[-2] + 1):  # some rolls before it
            game = replay(record, upto)
            players = [make_bot(b) for b in bots]
            while not game.finished:
                p = game.to_move
                game.apply(players[p].choose(game.view(p), p, None))
            same.append(game.record[1:] == record[1:])
        assert all(same) if dice == "leg" else not any(same), dice


def test_the_rules_hold_with_per_leg_dice():
    """Every leg that ends took 5 rolls of 5 different dice (second: one die
    stays), the race ends mid-leg, the grey die shows both colours and
    every record replays (the rules core checks each roll)."""
    mid_leg = 0
    colours = Counter()
    for edition in ("second", "first"):
        ed = get_edition(edition)
        for seed in range(12):
            record = play_game(["random"] * 4, edition, seed, dice="leg")
            replay(record)
            legs = legs_of(record)
            for leg in legs[:-1]:
                assert len(leg) == ed.rolls_per_leg == 5
                assert len({die for die, _, _ in leg}) == 5
            last = legs[-1]
            assert len({die for die, _, _ in last}) == len(last) <= 5
            mid_leg += len(last) < 5
            for die, value, colour in (r for leg in legs for r in leg):
                assert die in ed.dice and 1 <= value <= 3
                assert (colour is not None) == (die == GREY_DIE)
                colours[colour] += 1
    assert mid_leg > 0
    assert colours["white"] and colours["black"]


@pytest.mark.parametrize("edition", ["second", "first"])
def test_per_leg_dice_are_uniform(edition):
    """The die of each roll is uniform over the pyramid, each face of each
    die equally likely (the grey die: 1-3 in white and in black), within 4
    standard errors over 6,000 legs."""
    ed = get_edition(edition)
    source = LegDice(123)
    legs = 6000
    first, left, faces = Counter(), Counter(), Counter()
    position = Counter()
    for k in range(1, legs + 1):
        rolls = source.leg_rolls(k, ed.dice)
        assert sorted(r.die for r in rolls) == sorted(ed.dice)  # every die once: a pyramid
        first[rolls[0].die] += 1
        left[rolls[-1].die] += 1  # second edition: the die that stays in the pyramid
        position[(rolls[2].die)] += 1
        for r in rolls:
            faces[(r.die == GREY_DIE, r.value, r.colour)] += 1

    def near(count, n, p):
        return abs(count - n * p) <= 4 * np.sqrt(n * p * (1 - p))

    for counts in (first, left, position):
        assert set(counts) == set(ed.dice)
        assert all(near(counts[d], legs, 1 / len(ed.dice)) for d in ed.dice), counts
    racing = legs * len(ed.racing)
    for value in (1, 2, 3):
        assert near(faces[(False, value, None)], racing, 1 / 3)
    if ed.has_grey_die:
        for value in (1, 2, 3):
            for colour in ("white", "black"):
                assert near(faces[(True, value, colour)], legs, 1 / 6)


def test_faces_follow_the_rules():
    assert [face_roll("B", f).value for f in range(6)] == [1, 1, 2, 2, 3, 3]
    assert [(face_roll(GREY_DIE, f).value, face_roll(GREY_DIE, f).colour) for f in range(6)] == [
        (1, "white"), (2, "white"), (3, "white"), (1, "black"), (2, "black"), (3, "black")]


def test_the_setup_line_names_per_leg_dice_and_replays_with_them():
    game = Game("second", 4, 17, dice="leg")
    assert game.record[0]["dice"] == "leg"
    assert "dice" not in Game("second", 4, 17).record[0]  # the default records are as before
    while game.turns < 12:
        game.apply("pyramid")
    again = replay(game.record)
    assert again.dice_source.mode == "leg" and again.record == game.record
    assert again.draw_roll() == game.draw_roll()  # the next roll is fixed: the pyramid's


def test_bad_dice_are_refused():
    with pytest.raises(AdvisorError, match="dice must be one of"):
        Game("second", 4, 1, dice="pyramid")
    setup = dict(Game("second", 4, 1).record[0], dice="cup")
    assert "'dice' must be one of game, leg" in check_entry(setup)
    with pytest.raises(RecordError, match="dice"):
        replay([setup])


def test_a_draw_with_a_given_source_stays_uniform():
    """draw_roll(rng): a caller's own random source (the web page's fresh
    draws), whatever the game's dice."""
    game = Game("second", 4, 2, dice="leg")
    rolls = {game.draw_roll(np.random.default_rng(s)).die for s in range(60)}
    assert rolls == set(get_edition("second").dice)


def test_simulate_with_per_leg_dice_and_resume_checks_them(tmp_path, capsys, monkeypatch):
    import advisor.simulate.games
    from advisor.cli.command import main
    from advisor.game import read_records

    argv = ["simulate", "--players", "3", "--bots", "heuristic,random,random", "--games", "3", "--processes", "1",
            "--seed", "4", "--dice", "leg"]
    assert main(argv + ["-o", str(tmp_path / "g.jsonl")]) == 0
    records = read_records(tmp_path / "g.jsonl")
    assert [r[0]["dice"] for r in records] == ["leg"] * 3
    assert records == [play_game(r[0]["bots"], "second", r[0]["seed"], dice="leg") for r in records]
    real, calls = advisor.simulate.games.play_game, []

    def play(*a, **k):
        if len(calls) == 1:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(advisor.simulate.games, "play_game", play)
    assert main(argv + ["-o", str(tmp_path / "h.jsonl")]) == 130
    monkeypatch.setattr(advisor.simulate.games, "play_game", real)
    capsys.readouterr()
    code = main(argv[:-2] + ["-o", str(tmp_path / "h.jsonl"), "--resume"])  # the other dice
    err = capsys.readouterr().err
    assert code == 2 and "dice" in err and "--dice" in err
    assert main(argv + ["-o", str(tmp_path / "h.jsonl"), "--resume"]) == 0
    assert (tmp_path / "h.jsonl").read_bytes() == (tmp_path / "g.jsonl").read_bytes()
