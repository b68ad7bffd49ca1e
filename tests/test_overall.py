"""advisor.valuation.overall: the models behind the overall cards' values, by
hand-worked figures, and as the valuation uses them.

* ``right_payout``: the earlier face-down cards of a pile, Binomial.
* ``hand_distribution``: another player's hidden hand (the pile model's
  draws of their face-down cards, distinct colours among the candidates).
* ``race_end_money`` and ``card_gains``: the money floor applied at the race
  end, to the sum of the player's overall payouts and the money they can
  make sure to have then.
* Through :func:`advisor.best_moves` / :func:`advisor.evaluate` and
  :func:`advisor.valuation.engine.fast_values`: the reported position (money 0, a
  card valued as if the race ended with the money of now), a race ending
  this leg with a broke player's leg tile, 6 players, a hidden hand in the
  denial column.
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor import GameState, PileCard, PlayerState, race_odds
from advisor.valuation.engine import best_moves, evaluate
from advisor.valuation.engine import fast_values
from advisor.valuation.overall import card_gains, hand_distribution, race_end_money, right_payout, right_payouts

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
# the race ends this leg or the next (race odds exact), Y on top of the lead stack
NEAR_END = "10:w 12:k 15:B 16:GPRY dice:Bx"


def as_dict(dist, row: int | None = None) -> dict[int, float]:
    """A distribution (or row ``row`` of one per camel) as ``{value:
    probability}``, equal values merged, zero probabilities left out."""
    values, probs = dist if row is None else (dist[0][row], dist[1][row])
    out: dict[int, float] = {}
    for v, p in zip(values, probs):
        if p:
            out[int(v)] = out.get(int(v), 0.0) + float(p)
    return out


def mean(dist, row: int) -> float:
    return float(dist[0][row] @ dist[1][row])


# --------------------------------------------------------------------------
# right payouts and hidden hands
# --------------------------------------------------------------------------


def test_right_payout_counts_the_earlier_cards():
    assert as_dict(right_payout(0, 0, 0.3)) == {8: 1.0}
    values, probs = right_payout(1, 2, 0.5)  # one surely earlier, 0-2 more
    assert values.tolist() == [5, 3, 2] and probs.tolist() == [0.25, 0.5, 0.25]
    values, probs = right_payout(3, 2, 0.1)
    assert values.tolist() == [2, 1, 1] and probs == pytest.approx([0.81, 0.18, 0.01])
    values, probs = right_payouts([0, 2, 7], 1, np.array([0.5, 0.25, 1.0]))  # several camels at once
    assert values.tolist() == [[8, 5], [3, 2], [1, 1]]
    assert probs.tolist() == [[0.5, 0.5], [0.75, 0.25], [0.0, 1.0]]


def test_hidden_hand_one_face_down_card():
    """Four cards in hand, one on the winner pile: the missing colour is the
    one that card names, P = q_X."""
    q = {"winner": np.array([0.5, 0.2, 0.1, 0.1, 0.1]), "loser": np.full(5, 0.2)}
    hands, probs = hand_distribution(4, range(5), {"winner": 1, "loser": 0}, q)
    got = {tuple(sorted(set(range(5)) - set(h))): p for h, p in zip(hands, probs)}
    assert got == pytest.approx({(0,): 0.5, (1,): 0.2, (2,): 0.1, (3,): 0.1, (4,): 0.1})


def test_hidden_hand_one_card_on_each_pile():
    """Three in hand, one card on each pile: P(the cards are {a, b}) is
    proportional to q^W_a q^L_b + q^W_b q^L_a."""
    q = {"winner": np.array([0.4, 0.3, 0.2, 0.1, 0.0]), "loser": np.array([0.0, 0.1, 0.2, 0.3, 0.4])}
    weights = {(0, 1): 0.04, (0, 2): 0.08, (0, 3): 0.12, (0, 4): 0.16, (1, 2): 0.06 + 0.02,
               (1, 3): 0.09 + 0.01, (1, 4): 0.12, (2, 3): 0.06 + 0.02, (2, 4): 0.08, (3, 4): 0.04}
    hands, probs = hand_distribution(3, range(5), {"winner": 1, "loser": 1}, q)
    got = {tuple(sorted(set(range(5)) - set(h))): p for h, p in zip(hands, probs)}
    assert got == pytest.approx({pair: w / 0.90 for pair, w in weights.items()}, abs=1e-12)
    assert got[(0, 1)] == pytest.approx(2 / 45, abs=1e-12)
    assert sorted(len(h) for h in hands) == [3] * 10


def test_hidden_hand_candidates_and_edge_cases():
    q = {"winner": np.array([0.5, 0.2, 0.1, 0.1, 0.1]), "loser": np.full(5, 0.2)}
    # colour 2 is known on a pile: never in the hand, the rest renormalised
    hands, probs = hand_distribution(3, (0, 1, 3, 4), {"winner": 1}, q)
    got = {tuple(sorted({0, 1, 3, 4} - set(h))): p for h, p in zip(hands, probs)}
    assert got == pytest.approx({(0,): 0.5 / 0.9, (1,): 0.2 / 0.9, (3,): 0.1 / 0.9, (4,): 0.1 / 0.9})
    # every card placed: the empty hand
    hands, probs = hand_distribution(0, range(5), {"winner": 2, "loser": 3}, q)
    assert hands == [()] and probs.tolist() == [1.0]
    # nothing placed: the whole hand, surely
    hands, probs = hand_distribution(5, range(5), {}, q)
    assert hands == [(0, 1, 2, 3, 4)] and probs.tolist() == [1.0]
    # the pile model cannot name two distinct colours: every hand equally likely
    sure = {"winner": np.array([1.0, 0, 0, 0, 0]), "loser": np.full(5, 0.2)}
    hands, probs = hand_distribution(3, range(5), {"winner": 2}, sure)
    assert len(hands) == 10 and probs == pytest.approx([0.1] * 10)
    with pytest.raises(ValueError):
        hand_distribution(4, range(5), {"winner": 2}, q)


# --------------------------------------------------------------------------
# money at the race end, the floor on the summed payouts
# --------------------------------------------------------------------------


def test_race_end_money():
    """This leg's money (0 or 2) plus a coin per later leg played to its end
    before the race's last: the race ends this leg (0.2), the next (0.3),
    the one after (0.5, one full leg between: +1)."""
    got = race_end_money(np.array([0.0, 2.0]), np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5]), 1)
    assert as_dict(got) == pytest.approx({0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25})
    got = race_end_money(np.array([0.0, 2.0, 2.0]), np.array([0.5, 0.25, 0.25]), np.array([0.2, 0.3, 0.1, 0.4]), 1)
    assert as_dict(got) == pytest.approx({0: 0.25, 1: 0.05, 2: 0.45, 3: 0.05, 4: 0.2})
    # nothing certain to come (6-8 players)
    got = race_end_money(np.array([0.0, 2.0]), np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5]), 0)
    assert as_dict(got) == pytest.approx({0: 0.5, 2: 0.5})


ODDS = {"winner": np.array([0.4, 0.3, 0.2, 0.1, 0.0]), "loser": np.array([0.1, 0.1, 0.2, 0.2, 0.4])}
EIGHT = right_payouts([0] * 5, 0, np.full(5, 0.2))  # every camel's card pays 8 when right


def test_card_gains_without_other_cards():
    # rich: the payout itself
    gains = card_gains((np.array([5]), np.array([1.0])), {}, ODDS, "winner", EIGHT)
    for c in range(5):
        want = {8: ODDS["winner"][c], -1: 1 - ODDS["winner"][c]}
        assert as_dict(gains, c) == pytest.approx({v: p for v, p in want.items() if p}, abs=1e-15)
    # broke at the race end: a wrong card costs nothing
    gains = card_gains((np.array([0]), np.array([1.0])), {}, ODDS, "loser", EIGHT)
    assert as_dict(gains, 2) == pytest.approx({8: 0.2, 0: 0.8})
    # broke half the time
    gains = card_gains((np.array([0, 3]), np.array([0.5, 0.5])), {}, ODDS, "winner", EIGHT)
    assert as_dict(gains, 0) == pytest.approx({8: 0.4, 0: 0.3, -1: 0.3})
    assert mean(gains, 0) == pytest.approx(0.4 * 8 - 0.3)


def test_card_gains_sum_the_players_overall_payouts_first():
    """Money 0 at the race end and a winner card on camel 1 (pays 8 if
    right).  A new loser card on camel 0 (pays 8 if right): when camel 1
    wins, the -1 of a wrong loser card is paid from the +8; otherwise the
    wrong winner card already took the money to 0 and the loser card's +8
    pays its debt first (7)."""
    money = (np.array([0]), np.array([1.0]))
    held = {"winner": [(1, right_payout(0, 0, 0.2))], "loser": []}
    gains = card_gains(money, held, ODDS, "loser", EIGHT)
    w1, l0 = ODDS["winner"][1], ODDS["loser"][0]
    assert mean(gains, 0) == pytest.approx(w1 * (l0 * 8 - (1 - l0)) + (1 - w1) * l0 * 7, abs=1e-15)
    assert as_dict(gains, 0) == pytest.approx({8: w1 * l0, -1: w1 * (1 - l0), 7: (1 - w1) * l0,
                                               0: (1 - w1) * (1 - l0)}, abs=1e-15)
    # the same pile: money 1, a winner card on camel 1, a new winner card on
    # camel 0 paying 5: camel 0 wins -> 1 - 1 + 5; camel 1 -> 1 + 8 - 1;
    # another camel -> both wrong: 1 - 2 settles at 0, the new card's -1 is free
    money = (np.array([1]), np.array([1.0]))
    fives = right_payouts([1] * 5, 0, np.full(5, 0.2))
    gains = card_gains(money, held, ODDS, "winner", fives)
    w0 = ODDS["winner"][0]
    assert as_dict(gains, 0) == pytest.approx({5: w0, -1: w1, 0: 1 - w0 - w1}, abs=1e-15)


# --------------------------------------------------------------------------
# through the valuation
# --------------------------------------------------------------------------


def test_reported_position_money_zero():
    """Money 0 now: the card is scored at the race end, which lies several
    legs ahead here, so the floor only counts where the race ends this leg
    or the next (then the player may still have 0) -- never here.  Valued
    with the money of now it added 1 - P(B last), about +0.63."""
    state = GameState.from_json({"board": EXAMPLE, "players": [{"money": 0}, {}, {}, {}]})
    race = race_odds(EXAMPLE, seed=1)
    frame = best_moves(state, seed=1).set_index("action")
    p = race.lose[0]
    assert frame.loc["loser:B", "floor"] == pytest.approx((race.legs[0] + race.legs[1]) * (1 - p), abs=1e-12)
    assert frame.loc["loser:B", "floor"] < 0.01
    assert frame.loc["loser:B", "ev"] == pytest.approx(p * 8 - (1 - p), abs=1e-9)
    # at a leg start the old figure put loser:B first; leg:R is the best
    start = GameState.from_json({"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{"money": 0}, {}, {}, {}]})
    frame = best_moves(start, seed=1, denial=False, objective="ev")
    assert frame["action"].iloc[0] == "leg:R"
    assert frame.set_index("action").loc["loser:B", "floor"] < 0.01


def test_race_ending_this_leg_uses_this_legs_money():
    """NEAR_END, the B5 tile held at money 0: B rolls (half the sequences):
    B first, +5; the grey die: B last, -1 settles at 0.  So the money at the
    race end is 5 or 0, each 1/2 (no later leg can be played to its end:
    the race ends this leg or the next).  A loser card on G: right (8) or
    wrong, -1 from 5 or free at 0."""
    board = NEAR_END + " legtiles:B322"
    race = race_odds(board)
    assert race.exact and len(race.legs) == 2
    state = GameState(board, (PlayerState(money=0, leg_tiles=(("B", 5),)), PlayerState(), PlayerState()))
    p = race.lose[1]
    got = evaluate(state, "loser:G", seed=1)
    assert got["ev"] == pytest.approx(8 * p - 0.5 * (1 - p), abs=1e-12)
    assert got["floor"] == pytest.approx(0.5 * (1 - p), abs=1e-12)
    fast = fast_values(state, 0)
    assert fast.ev[fast.actions.index("loser:G")] == pytest.approx(got["ev"], abs=1e-12)
    # with money the floor is gone
    rich = GameState(board, (PlayerState(money=2, leg_tiles=(("B", 5),)), PlayerState(), PlayerState()))
    assert evaluate(rich, "loser:G", seed=1)["floor"] == pytest.approx(0.0, abs=1e-12)


def test_no_later_coin_is_certain_with_six_players():
    """With 6 players a leg of 5 rolls may pass a player by: only this leg's
    money counts, so a broke player's wrong card is free, as before."""
    race = race_odds(EXAMPLE, seed=1)
    state = GameState.from_json({"board": EXAMPLE, "players": [{"money": 0}] + [{}] * 5})
    got = evaluate(state, "loser:B", seed=1)
    assert got["floor"] == pytest.approx(1 - race.lose[0], abs=1e-12)


def test_hidden_hand_in_the_denial_column():
    """The next player (1) holds 4 hidden cards; their fifth lies face down
    on the winner pile.  With the pile model naming B (0.9) or G (0.1),
    their hand lacks B or G with those probabilities.  They choose knowing
    their hand, so their best option is E_X[max(leg options, best card
    without X)].  Player 0 places winner:B: the next player's B card would
    now come after a face-down card that names B with probability 0.9."""
    board = NEAR_END
    model = {"winner": {"B": 0.9, "G": 0.1, "P": 0.0, "R": 0.0, "Y": 0.0},
             "loser": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}}
    players = (PlayerState(overall_cards="B"), PlayerState(overall_cards=4), PlayerState(overall_cards=5))
    state = GameState(board, players, winner_pile=(PileCard(1),), pile_model=model)
    race = race_odds(board)
    assert race.exact
    assert race.win.tolist() == pytest.approx([0.6, 0, 0, 0, 0.4]) and race.lose.tolist() == pytest.approx(
        [0.4, 0.6, 0, 0, 0])
    # player 1's cards (money 3, no card of known colour, the race ends this
    # leg or the next: the floor cannot bind); their own card ahead on the
    # winner pile never names the colour they place: a right card pays 8
    card = {"winner:B": 0.6 * 8 - 0.4, "winner:Y": 0.4 * 8 - 0.6, "loser:B": 0.4 * 8 - 0.6,
            "loser:G": 0.6 * 8 - 0.4}  # 4.4, 2.6, 2.6, 4.4; the other cards -1
    # after winner:B of player 0: B pays 5 if that card names B (0.9), else 8
    after_b = 0.6 * (0.9 * 5 + 0.1 * 8) - 0.4  # 2.78
    # their leg options: B rolls (1/2): B 1st, Y 2nd; the grey die: Y 1st,
    # R 2nd, B 5th.  Y5 = 3, B5 = 2, R5 = 0, pyramid 1: the best is 3
    leg = 3.0
    lacks_b = max(leg, card["winner:Y"], card["loser:G"])  # 4.4 before and after
    lacks_g = max(leg, card["winner:B"], card["winner:Y"], card["loser:B"])  # 4.4
    lacks_g_after = max(leg, after_b, card["winner:Y"], card["loser:B"])  # 3: the leg tile is now best
    want = 0.9 * (lacks_b - lacks_b) + 0.1 * (lacks_g - lacks_g_after)
    assert want == pytest.approx(0.14)
    frame = best_moves(state, 0, seed=1).set_index("action")
    assert frame.loc["winner:B", "denial"] == pytest.approx(want, abs=1e-12)
    fast = fast_values(state, 0, denial=True)
    assert fast.denial[fast.actions.index("winner:B")] == pytest.approx(want, abs=1e-12)
    # the omniscient states (the face-down card is B, or G) give each hand's figure
    for placed, hand, drop in (("B", "GPRY", 0.0), ("G", "BPRY", lacks_g - lacks_g_after)):
        known = GameState(board, (players[0], PlayerState(overall_cards=hand), players[2]),
                          winner_pile=(PileCard(1, placed),), pile_model=model)
        assert evaluate(known, "winner:B", seed=1)["denial"] == pytest.approx(drop, abs=1e-12)
