"""Camel Up Cards odds and advice: EVs against figures worked out directly.

Positions are chosen so the odds behind an EV are exact (a small deck, or a
race that must end in the leg), then every EV is checked against the bet's
payout formula applied to those odds, with the money floor and the figure
card's -1 where they apply.
"""

from __future__ import annotations

import math

import json
from collections import Counter
import subprocess
import sys

import numpy as np
import pytest

from advisor.valuation.explain import EV_TIE
from advisor.cards import cards_best, cards_odds, parse_cards
from advisor.cards.advice import _after, bets, race_actions
from advisor.cards.odds import kernel_state
from advisor.errors import AdvisorError, PositionError

CAMELS = "BGOWY"


def ev_of(frame, action):
    row = frame[frame.action == action]
    assert len(row) == 1, action
    return float(row.ev.iloc[0])


def test_reveal_alone_is_worth_nothing_and_a_bet_before_it_is_its_payout():
    pos = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 money:9"
    odds = cards_odds(pos, seed=1, others="reveal")  # the deck alone: exact
    assert odds.leg_samples == 0
    frame = cards_best(pos, seed=1, others="reveal")
    assert ev_of(frame, "reveal") == 0.0
    final = odds_final(frame, pos)
    for i, c in enumerate(CAMELS):
        p = odds.leg[i]
        assert ev_of(frame, f"leg:{c}+reveal") == pytest.approx(5 * p[0] + p[1] - p[2:].sum(), abs=1e-12)
        assert ev_of(frame, f"mid:{c}+reveal") == pytest.approx(2 * p[2] + p[1] + p[3] - p[0] - p[4], abs=1e-12)
        win = 7 * final[i, 0] + 3 * final[i, 1]
        assert ev_of(frame, f"winner:{c}+reveal") == pytest.approx(win - (1 - final[i, 0] - final[i, 1]), abs=1e-9)


def odds_final(frame, pos):
    """The position's final-rank probabilities (camel by rank) as cards_best
    saw them: the first ``race_samples`` races of its seed, simulated once;
    the frame's race odds are those, the first and second ranks checked."""
    from advisor.cards.odds import race_ranks

    p = parse_cards(pos)
    n = frame.attrs["race_samples"]
    final = race_ranks(p, kernel_state(p), n, frame.attrs["seed"], frame.attrs["others"]).sum(axis=0) / n
    for camel, c in enumerate(CAMELS):
        for rank in (0, 1):
            assert frame.attrs["race"][c]["rank"][rank] == pytest.approx(final[camel, rank], abs=1e-12)
    return final


def test_the_money_floor_caps_a_broke_players_losses():
    # Y is far ahead and cannot be caught: a leg-winner card on B surely loses
    # (the deck alone: the other players' hand cards and figures aside)
    pos = "cards 0:BG 1:O 2:W 12:Y deck:2 known:B1G1 money:1"
    frame = cards_best(pos, seed=2, others="reveal")
    assert ev_of(frame, "leg:B+reveal") == 0.0  # -1 floored at 1 coin
    rich = cards_best(pos.replace("money:1", "money:5"), seed=2, others="reveal")
    assert ev_of(rich, "leg:B+reveal") == pytest.approx(-1.0)
    assert ev_of(rich, "leg:Y+reveal") == pytest.approx(5.0)


def test_a_figure_nobody_reaches_costs_its_card():
    pos = "cards 0:BG 1:O 2:W 3:Y deck:2 known:B1G1 money:5"
    frame = cards_best(pos, seed=3)
    assert ev_of(frame, "palm:12") == pytest.approx(-1.0)
    assert ev_of(frame, "fennec:12") == pytest.approx(-1.0)
    broke = cards_best(pos.replace("money:5", "money:1"), seed=3)
    assert ev_of(broke, "palm:12") == 0.0  # the floor pays it


def test_a_palm_every_camel_passes_costs_nothing():
    # B1 then G1 (in some order): both leave the start card onto space 1; a
    # palm there is triggered by the first of them
    pos = "cards 0:BG 3:O 4:W 5:Y deck:2 known:B1G1 money:5"
    frame = cards_best(pos, seed=4)
    assert ev_of(frame, "palm:1") == pytest.approx(0.0)


def test_the_hand_card_moves_one_space_even_as_a_plus_two():
    pos = parse_cards("cards 0:BG 2:OW 3:Y hand:Y2")
    state, figs, over = _after(pos, kernel_state(pos), "hand")
    assert state.sp[CAMELS.index("Y")] == 4 and not over


def test_revealing_the_last_card_leaves_no_bet_after_it():
    pos = "cards 0:BG 2:OW 3:Y deck:1 known:Y1 money:5"
    frame = cards_best(pos, seed=5)
    assert ev_of(frame, "reveal+best") == 0.0
    # before the reveal, Y is sure to lead: its 5 pays 5
    assert ev_of(frame, "leg:Y+reveal") == pytest.approx(5.0)


def test_betting_after_seeing_the_card():
    # a 2-card deck known to be B1 and G1: after the first reveal the rest is
    # known; Y is sure to lead, so the best bet after either card is Y's 5
    # (no overall cards on the table; the midfield card on B pays less)
    pos = "cards 0:BG 5:O 8:W 9:Y deck:2 known:B1G1 money:5 mid:B winners: losers:"
    frame = cards_best(pos, seed=6, others="reveal")  # the deck alone
    assert ev_of(frame, "reveal+best") == pytest.approx(5.0)
    # fewer options than before it: the bet before the reveal is the same 5
    assert ev_of(frame, "leg:Y+reveal") == pytest.approx(5.0)


def test_swapping_an_overall_card_gives_up_the_old_one():
    pos = "cards 0:BG 5:O 8:W 12:Y deck:2 known:B1G1 money:5 bets:wO winners:BGWY"
    frame = cards_best(pos, seed=7)
    # the race goes on after this leg: the odds are simulated, the swap's EV
    # is the new card's value minus the old one's under the same odds
    rows = frame.set_index("action").ev
    p = parse_cards(pos)
    from advisor.cards.odds import race_ranks

    n = frame.attrs["race_samples"]
    final = race_ranks(p, kernel_state(p), n, frame.attrs["seed"], "random").sum(axis=0) / n
    pay = np.array([7, 3, -1, -1, -1])
    for c in "BGWY":
        expected = final[CAMELS.index(c)] @ pay - final[CAMELS.index("O")] @ pay
        assert rows[f"winner:{c}+reveal"] == pytest.approx(expected, abs=1e-9)


def test_every_turn_is_listed_once():
    pos = parse_cards("cards 0:BG 2:OW 3:Y deck:3 known:B1 hand:O1")
    frame = cards_best(pos, seed=8, objective="ev")
    assert frame.action.is_unique
    n_race = len(race_actions(pos))
    n_bets = len(bets(pos))
    # reveal: alone, each bet before, best after; others: alone and with each bet
    assert len(frame) == 1 + n_bets + 1 + (n_race - 1) * (1 + n_bets)
    # best first; EVs within EV_TIE are ties, kept in the order of the legal actions
    assert all(a >= b - EV_TIE for a, b in zip(frame.ev, frame.ev[1:]))


def test_same_seed_same_advice():
    pos = "cards 0:BGOWY hand:Y2"
    a = cards_best(pos, seed=9)
    b = cards_best(pos, seed=9)
    assert a.equals(b)


def test_race_odds_exact_when_the_race_must_end_in_the_leg():
    # Y2 first: Y finishes alone.  W1 first: W climbs on Y at 16, then Y2
    # carries W over the finish on top: W wins.
    odds = cards_odds("cards 14:BG 15:OW 16:Y deck:2 known:Y2W1", seed=1, others="reveal")  # the deck alone
    assert odds.race_samples == 0 and odds.race_ends == pytest.approx(1.0)
    assert odds.win[CAMELS.index("Y")] == pytest.approx(0.5)
    assert odds.win[CAMELS.index("W")] == pytest.approx(0.5)
    assert odds.lose[CAMELS.index("B")] == pytest.approx(1.0)


def test_leg_odds_sampled_agree_with_exact():
    pos = "cards 0:BG 2:OW 3:Y palm:6 deck:4 known:B1"
    exact = cards_odds(pos, seed=1, others="reveal")
    sampled = cards_odds(pos, seed=1, leg_samples=100_000, others="reveal")
    assert exact.leg_samples == 0 and sampled.leg_samples == 100_000
    se = np.sqrt(np.maximum(exact.leg * (1 - exact.leg), 1e-12) / 100_000)
    assert np.all(np.abs(sampled.leg - exact.leg) <= 4 * se + 1e-9)


def test_leg_odds_exact_beyond_seven_cards_within_the_state_limit():
    """A whole unknown 9-card deck (a billion card sequences) is enumerated
    exactly: its states stay within EXACT_STATES; a whole unknown 12-card
    deck on one stack is not (the enumeration gives up at once: sampled)."""
    from advisor.cards.odds import EXACT_STATES, exact_counts, kernel_state
    from advisor.cards.position import parse_cards

    nine = cards_odds("cards 0:BGOWY deck:9", seed=1, race=False, others="reveal")
    assert nine.leg_samples == 0
    counts, total = exact_counts(kernel_state(parse_cards("cards 0:BGOWY deck:9")), by_first=False, limit=-1)
    from advisor.cards.odds import code_ranks

    assert np.allclose(nine.leg, code_ranks(counts.sum(axis=(0, 1)) / total), rtol=0, atol=1e-15)
    stack = cards_odds("cards 2:BGOWY", seed=1, race=False, others="reveal")
    assert stack.leg_samples == 200_000
    assert exact_counts(kernel_state(parse_cards("cards 2:BGOWY")), by_first=False) is None
    assert EXACT_STATES >= 691_680  # a whole unknown 10-card deck at a game start fits


@pytest.fixture(scope="module")
def twelve_cards():
    """A leg start with the whole 12-card deck unknown: its kernel state and
    the leg outcomes counted exactly without a state limit, ``(state,
    counts, total)`` (at most 6.6 million states after a card: counted once
    for the tests below)."""
    from advisor.cards.odds import exact_counts, kernel_state
    from advisor.cards.position import parse_cards

    state = kernel_state(parse_cards("cards 0:BGOWY deck:12"))
    counts, total = exact_counts(state, by_first=False, limit=-1)
    return state, counts, total


def test_leg_odds_of_a_whole_unknown_twelve_card_deck_are_exact(twelve_cards):
    """The deck's leg odds (the other players revealing: ``others`` reveal
    or later) of a leg start with the whole 12-card deck unknown are counted
    exactly by default (the outcomes not split by first card stay within
    EXACT_STATES), equal to the enumeration without a state limit; the
    advice's split by first card stays sampled there."""
    from advisor.cards.odds import EXACT_STATES, code_ranks, exact_counts, state_limit

    state, counts, total = twelve_cards
    for others in ("reveal", "later"):
        odds = cards_odds("cards 0:BGOWY deck:12", seed=1, race=False, others=others)
        assert odds.leg_samples == 0
        assert np.array_equal(odds.leg, code_ranks(counts.sum(axis=(0, 1)) / total))
    assert state_limit(state, by_first=False) == EXACT_STATES
    assert exact_counts(state, by_first=True) is None


@pytest.mark.slow
def test_sampled_leg_agrees_with_the_exact_whole_unknown_twelve_card_deck(twelve_cards):
    """A leg start with the whole 12-card deck unknown, counted exactly (no
    state limit), against 200,000 sampled legs: within 4 standard errors,
    camel by camel and rank by rank."""
    from advisor.cards.odds import code_ranks

    pos = "cards 0:BGOWY deck:12"
    _, counts, total = twelve_cards
    assert total == math.perm(30, 12)
    exact = code_ranks(counts.sum(axis=(0, 1)) / total)
    sampled = cards_odds(pos, seed=3, race=False, others="reveal", leg_samples=200_000)
    assert sampled.leg_samples == 200_000  # exact by default: sampled when asked
    se = np.sqrt(exact * (1 - exact) / 200_000)
    assert np.all(np.abs(sampled.leg - exact) <= 4 * se + 1e-12)
    assert exact.sum(axis=1) == pytest.approx(1.0) and exact.sum(axis=0) == pytest.approx(1.0)


def test_bad_input_is_rejected():
    with pytest.raises(PositionError, match="palm"):
        cards_best("cards 0:BG 2:OW 3:Y palm:3")
    with pytest.raises(AdvisorError, match="others"):
        cards_odds("cards 0:BGOWY", others="smart")


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "advisor.cli", *args], capture_output=True, text=True)


def test_cli_odds_and_best_for_cards(capsys):
    """``odds`` and ``best`` as commands (each started once as a process),
    then more options and bad input through the same entry point in this
    process (its exit status and one line, never a traceback)."""
    from advisor.cli.command import main

    out = run_cli("odds", "--json", "--seed", "1", "--others", "reveal", "cards", "0:BG", "2:OW", "3:Y", "deck:3",
                  "known:B1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data["leg"]) == set(CAMELS) and data["leg_samples"] == 0
    assert abs(sum(data["leg"]["B"]["rank"]) - 1) < 1e-12
    out = run_cli("best", "--json", "--seed", "1", "cards", "0:BG", "2:OW", "3:Y", "deck:3", "known:B1")
    assert out.returncode == 0, out.stderr
    moves = json.loads(out.stdout)["moves"]
    assert moves[0]["ev"] >= moves[-1]["ev"]
    capsys.readouterr()
    assert main(["odds", "--json", "--leg-only", "--threads", "1", "--others", "reveal", "cards", "0:BG", "2:OW",
                 "3:Y", "deck:3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "race" not in data and data["leg_samples"] == 0
    assert main(["odds", "cards", "0:BG", "2:OW"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "missing" in err and len(err.strip().splitlines()) == 1
    assert main(["odds", "--others", "reveal", "1:B", "2:YG", "3:PR"]) == 2
    err = capsys.readouterr().err
    assert "Camel Up Cards" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# Every EV of a position against the slow reference (exact fractions)
# ---------------------------------------------------------------------------

try:  # tests/ as a plain directory or as a package
    from . import naive_cards as N
    from .reference_cache import reference
except ImportError:  # pragma: no cover
    import naive_cards as N
    from reference_cache import reference

from fractions import Fraction  # noqa: E402

# Length 15; the deck is exactly Y2 and O2, and Y2 ends the race whenever it
# comes, so every outcome of every turn is exact, the race included.
REF = "cards track:nnnnnnnh 10:BG 11:OW 14:Y deck:2 known:Y2O2 hand:W1 legtiles:G322 mid:BOW bets:G5,mG money:2"
LEG_PAY = {0: None, 1: 1}
WIN_PAY = [7, 3, -1, -1, -1]


@reference
def reference_turns(text: str) -> dict:
    """EV of every turn, worked out from naive_cards and the payout rules
    (frozen in ``golden/references.json`` for ``REF``)."""
    pos = parse_cards(text)
    board = N.parse_board(" ".join(f"{s}:{st}" for s, st in pos.stacks), pos.length)
    known = Counter(pos.known)
    money = pos.money
    held = pos.held()

    def payout(order, bet, own_figures_on):
        rank = {c: k for k, c in enumerate(order)}
        total = 0
        for colour, value in held["leg"] + ([(bet[1], pos.legtiles[CAMELS.index(bet[1])][0])]
                                            if bet and bet[0] == "leg" else []):
            total += value if rank[colour] == 0 else (1 if rank[colour] == 1 else -1)
        for colour in held["mid"] + ([bet[1]] if bet and bet[0] == "mid" else []):
            total += [-1, 1, 2, 1, -1][rank[colour]]
        total -= own_figures_on
        leg = max(1, money + total) - money
        winner, loser = held["winner"], held["loser"]
        if bet and bet[0] == "winner":
            winner = bet[1]
        if bet and bet[0] == "loser":
            loser = bet[1]
        overall = (WIN_PAY[rank[winner]] if winner else 0) + (WIN_PAY[4 - rank[loser]] if loser else 0)
        return leg + overall

    def outcomes(b, own_palm, own_fennec):
        """[(probability, first card, ranking, own figure cards still held)]"""
        out = []
        for (card, over, palm, fennec, order), p in N.leg_outcomes(b, known, Counter(), 0).items():
            assert over  # the race ends in this leg on every branch
            out.append((p, card, order, (palm and own_palm) + (fennec and own_fennec)))
        return out

    all_bets = [tuple(b.split(":")) for b in bets(pos)]

    def value(outs, bet):
        return sum(p * payout(order, bet, figs) for p, _, order, figs in outs)

    base = outcomes(board, False, False)
    v0 = value(base, None)
    result = {"reveal": Fraction(0)}
    for bet in all_bets:
        result[f"{bet[0]}:{bet[1]}+reveal"] = value(base, bet) - v0
    best_after = Fraction(0)
    for card in {c for _, c, _, _ in base}:
        branch = [o for o in base if o[1] == card]  # values of a branch carry its probability
        _, ends = N.move(board, card[0], card[1])
        options = [value(branch, None)] + ([] if ends else [value(branch, bet) for bet in all_bets])
        best_after += max(options)
    result["reveal+best"] = best_after - v0
    turns = [("hand", None)] + [(f"{name}:{s}", (name, s)) for name in ("palm", "fennec")
                                for s in pos.figure_spaces()]
    for action, figure in turns:
        b = board.copy()
        if figure is None:
            b, over = N.move(b, pos.hand[0], 1)  # a hand card moves 1
            assert not over
        elif figure[0] == "palm":
            b.palm = figure[1]
        else:
            b.fennec = figure[1]
        outs = outcomes(b, figure is not None and figure[0] == "palm", figure is not None and figure[0] == "fennec")
        result[action] = value(outs, None) - v0
        for bet in all_bets:
            result[f"{action}+{bet[0]}:{bet[1]}"] = value(outs, bet) - v0
    return result


reference_turns.freeze([(REF,)])


def test_every_turn_against_the_slow_reference():
    frame = cards_best(REF, seed=1, others="reveal")  # the reference reveals the deck alone
    assert frame.attrs["race_samples"] == 0 and frame.attrs["leg_samples"] == 0
    expected = reference_turns(REF)
    got = dict(zip(frame.action, frame.ev))
    assert set(got) == set(expected)
    for action, ev in expected.items():
        assert got[action] == pytest.approx(float(ev), abs=1e-12), action
    # the position exercises the figures: some placement changes the leg
    figure_evs = {a: v for a, v in expected.items() if a.startswith(("palm:", "fennec:")) and "+" not in a}
    assert len(set(figure_evs.values())) > 1


# --------------------------------------------------------------------------
# The kernels' memo (advisor.cards.odds.KERNEL_MEMO)
# --------------------------------------------------------------------------

#: A 3-player position whose leg is sampled (an 8-card deck) and the same
#: position holding a leg bet: the same kernel state, other bets.
SAMPLED = "cards players:3 0:BG 2:OW 3:Y deck:8 hand:O1 money:2"
SAMPLED_HELD = "cards players:3 0:BG 2:OW 3:Y deck:8 hand:O1 legtiles:B322 bets:B5 money:2"


def counted_kernels(monkeypatch) -> Counter:
    """Counts of the Camel Up Cards sampling kernels' calls (leg and race)."""
    from advisor.kernels.cards import others, track

    calls: Counter = Counter()
    for module, name in ((others, "leg_others_sample"), (others, "race_others_sample"),
                         (track, "leg_sample"), (track, "race_sample")):
        kernel = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _k=kernel, _n=name: calls.update([_n]) or _k(*a))
    return calls


def test_the_kernel_memo_keeps_every_figure_and_runs_a_turns_kernels_once(monkeypatch):
    import pandas as pd

    from advisor.cards.odds import KERNEL_MEMO

    calls = counted_kernels(monkeypatch)
    monkeypatch.setattr(KERNEL_MEMO, "enabled", False)
    plain = [cards_best(text, seed=3, precision=0.05) for text in (SAMPLED, SAMPLED_HELD)]
    without = sum(calls.values())
    assert calls["leg_others_sample"] >= 2 and calls["race_others_sample"] >= 2
    monkeypatch.setattr(KERNEL_MEMO, "enabled", True)
    KERNEL_MEMO.clear()
    calls.clear()
    memo = [cards_best(SAMPLED, seed=3, precision=0.05)]
    first = sum(calls.values())
    memo.append(cards_best(SAMPLED_HELD, seed=3, precision=0.05))
    assert sum(calls.values()) == first and KERNEL_MEMO.hits > 0  # the bet held: every kernel result kept
    assert first <= without // 2  # the same two turns, half the kernel calls or fewer
    for a, b in zip(plain, memo):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        assert a.attrs == b.attrs
    assert not plain[0].equals(plain[1])  # the bet held changes the figures


def test_the_kernel_memo_gives_copies_and_stays_within_its_bounds():
    from advisor._tools.arraymemo import ArrayMemo
    from advisor.cards.odds import KERNEL_MEMO, leg_distribution, race_ranks

    pos = parse_cards(SAMPLED)
    state = kernel_state(pos)
    KERNEL_MEMO.clear()
    codes, n = leg_distribution(state, 1_000, 4, this_leg=True)
    kept = codes.copy()
    codes[:] = -1.0  # a caller writing into its result changes nothing kept
    again, _ = leg_distribution(state, 1_000, 4, this_leg=True)
    np.testing.assert_array_equal(again, kept)
    ranks = race_ranks(pos, state, 200, 4, "random")
    kept = ranks.copy()
    ranks += 1
    np.testing.assert_array_equal(race_ranks(pos, state, 200, 4, "random"), kept)
    assert KERNEL_MEMO.hits == 2 and KERNEL_MEMO.misses == 2 and len(KERNEL_MEMO) == 2
    small = ArrayMemo(entries=2, max_bytes=100)
    for k in range(3):
        small.get(k, lambda: np.zeros(5))  # 40 bytes each: two fit, the oldest goes
    assert len(small) == 2 and small.nbytes == 80 and small.get(0, lambda: np.ones(5))[0] == 1.0
    assert small.get("big", lambda: np.zeros(20)).nbytes == 160  # over the bytes: not kept
    assert len(small) == 2 and small.nbytes == 80
    small.enabled = False
    assert small.get(1, lambda: np.full(5, 7.0))[0] == 7.0  # disabled: computed, not read
