"""Paired duels in Camel Up Cards: each leg's deal and race deck drawn from
the seed and the leg (advisor.cards.chance), whatever the players decide."""

import itertools
import json
from collections import Counter

import numpy as np
import pytest

import advisor.simulate.games
from advisor.cards.bots import play_cards_game
from advisor.cards.chance import RACING_CARDS, LegCards
from advisor.cards.game import CardsGame
from advisor.cards.record import read_cards_records, replay_cards
from advisor.cli.command import main
from advisor.simulate.duel import duel
from advisor.errors import AdvisorError


def deals(record):
    return {e["leg"]: e["cards"] for e in record if e.get("type") == "deal"}


def test_the_set_up_and_every_legs_deal_do_not_depend_on_the_players():
    a = play_cards_game(["random", "heuristic", "random"], seed=21, dice="leg")
    b = play_cards_game(["heuristic", "random", "heuristic"], seed=21, dice="leg")
    assert a[0]["dice"] == b[0]["dice"] == "leg"
    assert a[0]["cards"] == b[0]["cards"] and a[0]["board"] == b[0]["board"]
    da, db = deals(a), deals(b)
    common = set(da) & set(db)
    assert len(common) >= 2 and all(da[leg] == db[leg] for leg in common)
    assert a != b  # the players did decide otherwise
    # another seed, other cards; the default source is another one again
    assert deals(play_cards_game(["random"] * 3, seed=22, dice="leg"))[1] != da[1]
    assert deals(play_cards_game(["random", "heuristic", "random"], seed=21))[1] != da[1]


def test_records_with_per_leg_cards_replay():
    record = play_cards_game(["heuristic", "random"], seed=3, dice="leg")
    assert replay_cards(record).summary() == record[-1]
    assert play_cards_game(["heuristic", "random"], seed=3, dice="leg") == record


def test_the_cards_both_decks_hold_come_in_the_same_relative_order():
    source = LegCards(5)
    for leg in (1, 2, 3):
        deck = (("B", 1), ("G", 1), ("O", 2), ("W", 1), ("Y", 1), ("B", 2))
        full = source.shuffle(leg, deck)
        assert sorted(full) == sorted(deck) and source.shuffle(leg, deck[::-1]) == full  # the same deck
        for drop, add in itertools.product(range(len(deck)), (("G", 2), ("W", 2))):
            other = deck[:drop] + deck[drop + 1:] + (add,)
            mine = source.shuffle(leg, other)
            common = [c for c in full if c in other]
            assert [c for c in mine if c in deck] == common
    orders = {LegCards(seed).shuffle(leg, deck) for seed in (5, 6, 7) for leg in (1, 2, 3)}
    assert len(orders) >= 7  # each leg and seed its own order (720 orders: a repeat is rare)


def test_a_leg_deck_order_is_uniform():
    """Every order of a deck with two equal cards is as likely (12 orders),
    within 4 standard errors, over many seeds."""
    deck = (("B", 1), ("B", 1), ("G", 2), ("O", 1))
    n = 6000
    counts = Counter(LegCards(seed).shuffle(1, deck) for seed in range(n))
    assert len(counts) == 12
    p = 1 / 12
    se = np.sqrt(p * (1 - p) / n)
    for order, k in counts.items():
        assert abs(k / n - p) < 4 * se, (order, k)


def test_a_deck_cannot_hold_more_copies_than_the_game_has():
    with pytest.raises(ValueError, match="more than 1 cards B2"):
        LegCards(1).shuffle(1, (("B", 2), ("B", 2)))
    assert len(LegCards(1).deal(1)) == len(RACING_CARDS) == 30


def test_an_unknown_card_source_is_refused():
    with pytest.raises(AdvisorError, match="dice must be one of"):
        CardsGame(seed=1, dice="pyramid")


@pytest.mark.parametrize("bot, players", [("random", 3), ("heuristic", 4), ("greedy", 2)])
def test_a_bot_against_itself_is_exactly_even(bot, players):
    pairs = 1 if bot == "greedy" else 6
    frame = duel(bot, bot, pairs, players=players, edition="cards", field="random", processes=1, progress=False)
    for row in ("win_rate", "money"):
        assert frame.loc[row, "diff"] == 0
        if pairs > 1:
            assert frame.loc[row, "sd"] == 0 and frame.loc[row, "diff_lo"] == frame.loc[row, "diff_hi"] == 0
    assert frame.attrs["edition"] == "cards" and frame.attrs["pairs"] == pairs


def test_the_two_games_of_a_pair_share_set_up_and_deals():
    records = []
    frame = duel("random", "heuristic", 3, players=3, edition="cards", field="random", seed=4, processes=1,
                 records=records, progress=False)
    assert len(records) == 6 and frame.attrs["field"] == ["random", "random"]
    for first, second in zip(records[::2], records[1::2]):
        assert first[0]["seed"] == second[0]["seed"] and first[0]["cards"] == second[0]["cards"]
        da, db = deals(first), deals(second)
        assert all(da[leg] == db[leg] for leg in set(da) & set(db))
        assert first[0]["dice"] == "leg" and all(replay_cards(r).summary() == r[-1] for r in (first, second))


def test_cli_cards_duel_text_json_and_records(tmp_path, capsys):
    out = tmp_path / "pairs.jsonl"
    argv = ["duel", "random", "heuristic", "--edition", "cards", "--players", "3", "--field", "random",
            "--games", "4", "--processes", "1", "--seed", "2"]
    assert main(argv + ["-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Duel, Camel Up Cards, 3 players, seed 2: A random against B heuristic, 4 pairs")
    assert "the same deals and race-deck keys per leg" in text
    games = read_cards_records(out)
    assert len(games) == 8 and all(g[0]["dice"] == "leg" for g in games)
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "cards" and data["pairs"] == 4 and data["field"] == ["random", "random"]


@pytest.mark.parametrize("argv, fragment", [
    (["random", "heuristic", "--players", "7"], "2..6 players"),
    (["random", "rival"], "unknown Camel Up Cards bot 'rival'"),
    (["random", "heuristic", "--rules", "name=x money_floor=none"], "--rules applies to the board games"),
])
def test_cli_cards_duel_bad_input_is_one_line(argv, fragment, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(advisor.simulate.games, "play_game", lambda *a, **k: pytest.fail("a game was played"))
    code = main(["duel", *argv, "--edition", "cards", "--games", "2", "--processes", "1"])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_simulate_with_per_leg_cards_and_a_resume_of_the_other_source(tmp_path, capsys):
    base = ["simulate", "--edition", "cards", "--players", "2", "--bots", "random,heuristic", "--games", "3",
            "--processes", "1"]
    path = tmp_path / "c.jsonl"
    assert main(base + ["--dice", "leg", "-o", str(path)]) == 0
    games = read_cards_records(path)
    assert [g[0].get("dice") for g in games] == ["leg"] * 3
    part = tmp_path / "d.jsonl.part"
    part.write_bytes(path.read_bytes())
    capsys.readouterr()
    assert main(base + ["-o", str(tmp_path / "d.jsonl"), "--resume"]) == 2  # the default source: another run
    err = capsys.readouterr().err
    assert "is from another run" in err and "--dice" in err
