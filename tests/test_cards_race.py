"""Camel Up Cards whole races: the kernel's simulation against a plain one.

The plain simulation is written here from the model in
``advisor.cards.odds`` (the rest of the current deck revealed; then, per leg:
figures back, sandstorm, extension, a deck dealt from all 30 cards and one
hand card per player, players choosing at random or only revealing) on the
slow reference's moves and leg starts.  Win and last-place frequencies must
agree within 4 standard errors.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from advisor.cards import cards_odds, parse_cards
from advisor.cards.odds import ADVICE_OTHERS, kernel_state, race_ranks

try:
    from . import naive_cards as N
    from .reference_cache import reference
except ImportError:  # pragma: no cover
    import naive_cards as N
    from reference_cache import reference

CAMELS = "BGOWY"


def plain_race(pos, others: str, rng: random.Random) -> list[str]:
    """One race from ``pos``; the final ranking, first to last."""
    board = N.parse_board(" ".join(f"{s}:{st}" for s, st in pos.stacks), pos.length,
                          pos.palm[0] if pos.palm else None, pos.fennec[0] if pos.fennec else None)
    track = pos.track
    pool = [card for card, n in pos.unseen().items() for _ in range(n)]
    deck = list(pos.known) + rng.sample(pool, pos.unknown)
    rng.shuffle(deck)
    over = False
    for card in deck:
        board, over = N.move(board, card[0], card[1])
        if over:
            return N.ranking(board)
    for _ in range(40):
        board, track = N.leg_start(board, track)
        cards = [card for card, n in N.full_deck().items() for _ in range(n)]
        rng.shuffle(cards)
        hands = cards[: pos.players]
        deck = cards[pos.players: pos.players + pos.decksize]
        player = 0
        while deck:
            if others == "reveal":
                card = deck.pop()
                board, over = N.move(board, card[0], card[1])
            else:
                last = min(board.spaces_with_camels())
                spaces = [s for s in range(max(last + 1, 1), board.length + 1)
                          if s not in board.stacks and s not in (board.palm, board.fennec)]
                options = ["reveal"] + (["hand"] if hands[player] else [])
                if spaces:
                    options += [f for f in ("palm", "fennec") if getattr(board, f) is None]
                choice = rng.choice(options)
                if choice == "reveal":
                    card = deck.pop()
                    board, over = N.move(board, card[0], card[1])
                elif choice == "hand":
                    board, over = N.move(board, hands[player][0], 1)
                    hands[player] = None
                else:
                    board = board.copy()
                    setattr(board, choice, rng.choice(spaces))
            if over:
                return N.ranking(board)
            player = (player + 1) % pos.players
    raise AssertionError("a race that never ends")


@reference
def plain_winners_and_losers(text: str, others: str, seed: int, races: int) -> dict:
    """How often each camel wins and comes last in ``races`` plain races from
    ``text`` (one ``random.Random(seed)`` for them all; frozen in
    ``golden/references.json`` for the races declared below)."""
    pos = parse_cards(text)
    rng = random.Random(seed)
    finals = [plain_race(pos, others, rng) for _ in range(races)]
    return {"win": dict(Counter(f[0] for f in finals)), "lose": dict(Counter(f[-1] for f in finals))}


PLAIN_TEXTS = ["cards 0:BG 2:OW 3:Y deck:5 known:B1", "cards track:nnsnnnnh 4:B 6:GO 9:WY palm:10 deck:3 players:3"]
PLAIN_MODELS = ["reveal", "random"]
#: the plain simulation's seed and races per position
PLAIN_SEED, N_PLAIN = 5, 3_000
plain_winners_and_losers.freeze((text, others, PLAIN_SEED, N_PLAIN)
                               for text in PLAIN_TEXTS for others in PLAIN_MODELS)


@pytest.mark.parametrize("text", PLAIN_TEXTS)
@pytest.mark.parametrize("others", PLAIN_MODELS)
def test_race_simulation_agrees_with_a_plain_one(text, others):
    pos = parse_cards(text)
    n_kernel = 40_000
    ranks = race_ranks(pos, kernel_state(pos), n_kernel, 11, others).sum(axis=0) / n_kernel
    n_plain = N_PLAIN
    plain = plain_winners_and_losers(text, others, PLAIN_SEED, n_plain)
    win = Counter(plain["win"])
    lose = Counter(plain["lose"])
    for i, c in enumerate(CAMELS):
        for column, counts in ((0, win), (4, lose)):
            p_kernel = ranks[i, column]
            p_plain = counts[c] / n_plain
            p = max((p_kernel + p_plain) / 2, 1e-3)
            se = np.sqrt(p * (1 - p) * (1 / n_plain + 1 / n_kernel))
            assert abs(p_kernel - p_plain) <= 4 * se, (c, column, p_kernel, p_plain)


def test_same_seed_same_race_odds_whatever_the_threads(every_thread):
    import numba

    text = "cards 0:BGOWY"
    a = cards_odds(text, seed=3)
    saved = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = cards_odds(text, seed=3)
    finally:
        numba.set_num_threads(saved)
    assert np.array_equal(a.win, b.win) and np.array_equal(a.leg, b.leg)



# ---------------------------------------------------------------------------
# Race odds to a precision
# ---------------------------------------------------------------------------

RACE_KEYS = {"win", "lose", "win_se", "lose_se", "rank"}


@pytest.mark.parametrize("precision", [0.02, 0.008])
def test_race_odds_honour_the_precision(precision):
    from advisor.cards.odds import Z95

    odds = cards_odds("cards 0:BGOWY", seed=4, precision=precision)
    assert odds.race_samples > 0
    half = Z95 * np.concatenate([odds.win_se, odds.lose_se])
    assert half.max() <= precision
    # the standard errors are those of the counts: sqrt(p (1 - p) / n)
    np.testing.assert_allclose(odds.win_se, np.sqrt(odds.win * (1 - odds.win) / odds.race_samples))
    # fewer races than a probability of 1/2 would need: planned from the spread seen
    assert odds.race_samples < 0.25 * (Z95 / precision) ** 2
    assert odds.rank.shape == (5, 5) and np.allclose(odds.rank.sum(axis=0), 1) and np.allclose(odds.rank.sum(axis=1), 1)
    np.testing.assert_array_equal(odds.rank[:, 0], odds.win)


def test_finer_precision_takes_more_races_and_samples_fix_the_count():
    coarse = cards_odds("cards 0:BGOWY", seed=4, precision=0.02)
    fine = cards_odds("cards 0:BGOWY", seed=4, precision=0.01)
    assert fine.race_samples > 3 * coarse.race_samples
    assert cards_odds("cards 0:BGOWY", seed=4, samples=1234).race_samples == 1234


def test_a_longer_run_extends_the_same_races():
    pos = parse_cards("cards 0:BG 2:OW 3:Y deck:5 known:B1")
    state = kernel_state(pos)
    whole = race_ranks(pos, state, 9000, 6, "random")
    parts = race_ranks(pos, state, 5000, 6, "random") + race_ranks(pos, state, 4000, 6, "random", start=5000)
    np.testing.assert_array_equal(whole, parts)


def test_race_odds_to_a_precision_do_not_depend_on_the_threads(every_thread):
    import numba

    a = cards_odds("cards 0:BG 2:OW 3:Y deck:5 known:B1", seed=8, precision=0.01)
    saved = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = cards_odds("cards 0:BG 2:OW 3:Y deck:5 known:B1", seed=8, precision=0.01)
    finally:
        numba.set_num_threads(saved)
    assert a.race_samples == b.race_samples
    np.testing.assert_array_equal(a.rank, b.rank)
    np.testing.assert_array_equal(a.win_se, b.win_se)


def test_json_reports_standard_errors_and_ranks(capsys):
    from advisor.cli.command import main
    from advisor.cards.odds import Z95

    assert main(["odds", "--json", "--seed", "2", "--precision", "0.01", "cards 0:BGOWY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["race"]) == set(CAMELS)
    for entry in data["race"].values():
        assert set(entry) == RACE_KEYS and len(entry["rank"]) == 5
        assert Z95 * max(entry["win_se"], entry["lose_se"]) <= 0.01
    n = data["race_samples"]
    assert entry["win_se"] == pytest.approx(np.sqrt(entry["win"] * (1 - entry["win"]) / n))
    # exact race odds: standard errors 0
    assert main(["odds", "--json", "cards 14:BG 15:OW 16:Y deck:2 known:Y2W1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["race_samples"] == 0
    assert all(set(e) == RACE_KEYS and e["win_se"] == e["lose_se"] == 0 for e in data["race"].values())


def test_best_reports_its_race_odds_to_the_precision(capsys):
    from advisor.cli.command import main
    from advisor.cards.odds import Z95

    assert main(["best", "--json", "--seed", "2", "--precision", "0.01", "cards 0:BGOWY hand:Y2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["race_samples"] > 0 and set(data["race"]) == set(CAMELS)
    for entry in data["race"].values():
        assert set(entry) == RACE_KEYS
        assert Z95 * max(entry["win_se"], entry["lose_se"]) <= 0.01
    # the same races as the odds under the advice's model of the other players
    odds = cards_odds("cards 0:BGOWY hand:Y2", seed=2, precision=0.01, others=ADVICE_OTHERS)
    assert data["race_samples"] == odds.race_samples
    assert data["race"]["Y"]["win"] == pytest.approx(float(odds.win[CAMELS.index("Y")]), abs=1e-12)
