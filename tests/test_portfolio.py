"""The portfolio view (:mod:`advisor.valuation.portfolio`): covariances of an action's
payout with the player's holdings, worked by hand on a small position; the
sampled joint distribution against the exact leg and the race odds; the
``cov`` and ``portfolio`` columns of ``best_moves``; the ``portfolio`` bot."""

from __future__ import annotations

import numpy as np
import pytest

from advisor import GameState
from advisor.bots.policies import make_bot
from advisor.odds.exact import leg_odds
from advisor.odds.montecarlo import race_odds
from advisor.valuation.portfolio import Portfolio, joint_counts, lead_of, nearness, risk_attitude
from advisor.valuation.engine import best_moves, fast_values

# 1st edition, B on 15 and G on 16, O Y W on 14, the B and G dice left.
# G rolled first (1/2): G past 16, the race is over: G 1st, B 2nd, W, Y, O.
# B rolled first (1/2): B to 16 on G (face 1; then G carries it past 16) or
# past 16 (faces 2, 3): B 1st, G 2nd, W, Y, O.  O is last either way.
HAND = {
    "board": "first 14:OYW 15:B 16:G dice:BG legtiles:B32",
    "players": [{"money": 13, "leg_tiles": ["B5"], "overall_cards": "BGOYW"}, {"money": 3}, {"money": 3},
                {"money": 3}],
    "to_move": 0,
}


def hand_state(money=13):
    data = {**HAND, "players": [{**HAND["players"][0], "money": money}, *HAND["players"][1:]]}
    return GameState.from_json(data)


# Holdings H: the B5 tile pays 1 (B 2nd) or 5 (B 1st), each with probability
# 1/2: E[H] = 3.  Action payouts X in the two outcomes (G wins, B wins):
#   leg:G (tile 5):   5, 1 -> Cov = ((+2)(-2) + (-2)(+2)) / 2 = -4, Var 4
#   leg:B (tile 3):   1, 3 -> Cov = ((-1)(-2) + (+1)(+2)) / 2 = +2, Var 1
#   winner:G (8/-1):  8, -1 -> Cov = ((+4.5)(-2) + (-4.5)(+2)) / 2 = -9, Var 20.25
#   winner:B:        -1, 8 -> Cov = +9
#   loser:O:          8, 8 -> Cov 0, Var 0; loser:W: -1, -1 -> 0
#   pyramid: +1 always -> 0; a tile: no move of this leg ends on a free space -> 0
BY_HAND = {"leg:G": (4.0, -4.0), "leg:B": (1.0, 2.0), "winner:G": (20.25, -9.0), "winner:B": (20.25, 9.0),
           "loser:O": (0.0, 0.0), "loser:W": (0.0, 0.0), "pyramid": (0.0, 0.0)}


def test_covariances_by_hand():
    values = fast_values(hand_state(), 0)
    book = Portfolio(values.context, joint_counts(values.context.pos, 4000, seed=1))
    for action, (var, cov) in BY_HAND.items():
        assert book.of(action) == pytest.approx((var, cov), abs=1e-9), action


def test_best_moves_portfolio_column_by_hand():
    frame = best_moves(hand_state(), 0, seed=1).set_index("action")
    assert frame.attrs["lead"] == 10 and frame.attrs["risk_attitude"] == pytest.approx(0.1)
    for action, (_, cov) in BY_HAND.items():
        assert frame.loc[action, "cov"] == pytest.approx(cov, abs=1e-9)
        assert frame.loc[action, "portfolio"] == pytest.approx(frame.loc[action, "ev"] - 0.1 * cov, abs=1e-9)
    tiles = [a for a in frame.index if a.startswith("tile:")]
    assert tiles and (frame.loc[tiles, "cov"] == 0).all()
    # behind by 10: the same covariances with the opposite attitude
    behind = best_moves(hand_state(money=0), 0, seed=1).set_index("action")
    assert behind.attrs["risk_attitude"] == pytest.approx(-0.03)  # lead -3 -> -0.1 * 3/10
    assert behind.loc["winner:B", "portfolio"] == pytest.approx(behind.loc["winner:B", "ev"] + 0.03 * 9)


def test_ev_column_unchanged_by_the_portfolio_view():
    frame = best_moves(hand_state(), 0, seed=1)
    quick = best_moves(hand_state(), 0, seed=1, race=False).set_index("action")
    for action, ev in zip(frame.action, frame.ev):
        if action in quick.index:
            assert quick.loc[action, "ev"] == ev


def test_risk_attitude_and_lead():
    assert lead_of([13, 3, 5], 0) == 8 and lead_of([3, 13, 5], 0) == -10
    assert risk_attitude([13, 3], 0) == pytest.approx(0.1)  # a lead of 10 or more: full
    assert risk_attitude([30, 3], 0) == pytest.approx(0.1)
    assert risk_attitude([3, 8], 0) == pytest.approx(-0.05)
    assert risk_attitude([5, 5, 1], 0) == 0.0


def test_joint_sample_against_exact_leg_and_race_odds():
    state = GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx")
    pos = state.position
    n = 20000
    counts = joint_counts(pos, n, seed=3)
    assert counts.sum() == n
    from advisor.kernels.ranks import rank_codes

    codes = rank_codes()
    leg = leg_odds(pos)
    for camel in range(5):  # P(camel ranked first this leg): sampled against exact
        p = counts.sum(axis=(1, 2))[codes[:, camel] == 0].sum() / n
        exact = leg.rank[camel, 0]
        assert abs(p - exact) < 4 * np.sqrt(exact * (1 - exact) / n) + 1e-12
    race = race_odds(pos, samples=200_000, seed=5)
    win, lose = counts.sum(axis=(0, 2)) / n, counts.sum(axis=(0, 1)) / n
    for camel in range(5):
        for p, q in ((win[camel], race.win[camel]), (lose[camel], race.lose[camel])):
            assert abs(p - q) < 4 * np.sqrt(q * (1 - q) / n) + 4 * 1e-3
    # the winner is never the last camel
    assert np.trace(counts.sum(axis=0)) == 0
    # seeded from the board when no seed is given: the same counts again
    assert (joint_counts(pos, 500) == joint_counts(pos, 500)).all()


def test_nearness():
    class Race:
        legs = np.array([1.0])

    assert nearness(Race) == 1.0
    Race.legs = np.array([0.0, 0.5, 0.5])
    assert nearness(Race) == pytest.approx(1 / 2.5)


def test_portfolio_bot_scores_by_hand():
    state = hand_state()
    rival = dict(make_bot("rival").ranked(state, 0))
    lam = 0.1  # a lead of 10 coins
    for name, cov_w, var_w in (("portfolio", 1, 1), ("portfolio-cov", 1, 0), ("portfolio-risk", 0, 1)):
        ranking = make_bot(name).ranked(state, 0)
        scores = dict(ranking)
        assert sorted(scores) == sorted(rival)
        for action, (var, cov) in BY_HAND.items():
            # the race surely ends in this leg: nearness 1
            want = rival[action] - cov_w * lam * cov - var_w * lam / 2 * var
            assert scores[action] == pytest.approx(want, abs=1e-9), (name, action)
    level = hand_state(money=3)  # level: the rival's ranking
    assert make_bot("portfolio").ranked(level, 0) == make_bot("rival").ranked(level, 0)


def test_endgame_shares_by_hand():
    """The race ends in this leg.  Player 0 has 3 coins and the B5 tile
    (4 or 8 coins after the leg: G wins / B wins), player 1 has 10 and
    nothing else, the others 3.  Player 0's final money per action:
    loser:O 12 / 16 (wins both: 1), winner:G 12 / 7 (1/2), winner:B 3 / 16
    (1/2), leg:B (3) 5 / 11 (1/2), leg:G (5) 9 / 9 (0), pyramid 5 / 9 (0)."""
    from advisor.valuation.portfolio import endgame_shares, race_ends_now

    data = {**HAND, "players": [{**HAND["players"][0], "money": 3}, {"money": 10}, {"money": 3}, {"money": 3}]}
    state = GameState.from_json(data)
    values = fast_values(state, 0)
    assert race_ends_now(values.context)
    want = {"loser:O": 1.0, "winner:G": 0.5, "winner:B": 0.5, "leg:B": 0.5, "leg:G": 0.0, "pyramid": 0.0,
            "loser:W": 0.0}
    shares = dict(zip(values.actions, endgame_shares(values.context, values.actions, values.tables)))
    for action, share in want.items():
        assert shares[action] == pytest.approx(share), action
    ranking = make_bot("portfolio-end").ranked(state, 0)
    assert ranking[0] == ("loser:O", 1.0)
    # a tie with player 1 (10 coins) counts half: 3 + 5 (leg:G) + 2 more coins would tie; here 7 coins
    data["players"][1]["money"] = 9
    shares = dict(zip(values.actions, endgame_shares(fast_values(GameState.from_json(data), 0).context,
                                                     values.actions, values.tables)))
    assert shares["leg:G"] == pytest.approx(0.5)  # 9 against 9 in both outcomes: a shared first place


def test_endgame_only_when_the_race_ends_in_this_leg():
    from advisor.valuation.portfolio import race_ends_now

    state = GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx")
    assert not race_ends_now(fast_values(state, 0).context)
    assert make_bot("portfolio-end").ranked(state, 0) == make_bot("rival").ranked(state, 0)
