"""The ``margin`` bot and its ingredients: the standing arithmetic
(:mod:`advisor.valuation.standing`) worked by hand, the covariance with the margin's
portfolio, the memory of the face-down cards (:class:`SeenCards`) against
the record's inference, each switch of :class:`MarginBot`, and seeded games
played again."""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor import GameState
from advisor.bots.policies import MarginBot, RivalBot, make_bot
from advisor.game import Game
from advisor.bots.inference import SeenCards, card_features, placements
from advisor.valuation.portfolio import Portfolio, joint_counts
from advisor.simulate.games import play_game
from advisor.valuation.standing import (LOGISTIC, attitude, legs_left, logistic, margin, pile_payouts, rival_holdings, standings,
                              table_of, threat, wealth)
from advisor.valuation.engine import fast_values, shared_race_odds

# 1st edition, B on 15 and G on 16, O Y W on 14, the B and G dice left: the
# race ends in this leg.  G rolled first (1/2): G 1st, B 2nd, W, Y, O.  B
# rolled first (1/2): B 1st, G 2nd, W, Y, O.  O is last either way.
BOARD = "first 14:OYW 15:B 16:G dice:BG legtiles:B32,G32"


def state(money=(13, 3, 3, 3), p1_tiles=("G5",), winner_pile=(), loser_pile=(), hand0="BGOYW", hand1=5, p3_tiles=()):
    players = [{"money": money[0], "leg_tiles": ["B5"], "overall_cards": hand0},
               {"money": money[1], "leg_tiles": list(p1_tiles), "overall_cards": hand1},
               {"money": money[2], "overall_cards": 5},
               {"money": money[3], "leg_tiles": list(p3_tiles), "overall_cards": 5}]
    return GameState.from_json({"board": BOARD, "players": players, "to_move": 0,
                                "winner_pile": list(winner_pile), "loser_pile": list(loser_pile)})


def context(st, player=0):
    return fast_values(st, player, rivals=True).context


def test_wealth_by_hand():
    # player 0: 13 coins and the B5 tile (5 if B wins, 1 if B is 2nd: 1/2 each): 13 + 3 = 16
    # player 1: 3 coins and the G5 tile (5 or 1): 3 + 3 = 6; players 2, 3: 3
    ctx = context(state())
    assert wealth(ctx, 0) == pytest.approx(16.0)
    assert wealth(ctx, 1) == pytest.approx(6.0)
    assert wealth(ctx, 2) == pytest.approx(3.0)
    assert margin(ctx) == (pytest.approx(10.0), 1)
    assert margin(ctx, use_wealth=False) == (pytest.approx(10.0), 1)  # money: 13 - 3; the first of the ties
    # behind: player 0 with 0 coins (0 + 3) against player 1's 6
    assert margin(context(state(money=(0, 3, 3, 3)))) == (pytest.approx(-3.0), 1)


def test_pile_payouts_by_hand():
    # player 1's face-down loser card surely names O (its model); player 0's winner card names G, first on
    # its pile: 8 when G wins, -1 otherwise; player 0's loser card on O comes second after a surely-O card: 5
    face_down = {"player": 1, "model": {"B": 0.0, "G": 0.0, "O": 1.0, "Y": 0.0, "W": 0.0}}
    st = state(winner_pile=[{"player": 0, "colour": "G"}], loser_pile=[face_down, {"player": 0, "colour": "O"}],
               hand0="BYW", hand1=4)
    ctx = context(st)
    racing = ctx.racing
    win0, lose0 = pile_payouts(ctx, 0)
    want_win = np.full(5, -1.0)
    want_win[racing.index("G")] = 8.0
    want_lose = np.full(5, -1.0)
    want_lose[racing.index("O")] = 5.0
    assert win0 == pytest.approx(want_win) and lose0 == pytest.approx(want_lose)
    win1, lose1 = pile_payouts(ctx, 1)
    assert win1 == pytest.approx(np.zeros(5))
    want1 = np.full(5, -1.0)
    want1[racing.index("O")] = 8.0
    assert lose1 == pytest.approx(want1)
    # a face-down card with a split model: q * 8 + (1 - q) * (-1) per camel
    split = {"player": 1, "model": {"B": 0.5, "G": 0.0, "O": 0.5, "Y": 0.0, "W": 0.0}}
    _, lose1 = pile_payouts(context(state(loser_pile=[split], hand1=4)), 1)
    assert lose1[racing.index("O")] == pytest.approx(0.5 * 8 - 0.5) and lose1[racing.index("G")] == -1.0
    # wealth: G wins half the time (8 or -1: +3.5), O is last always (+5); player 1's card: O last, +8
    ctx = context(st)
    assert wealth(ctx, 0) == pytest.approx(16.0 + 3.5 + 5.0)
    assert wealth(ctx, 1) == pytest.approx(6.0 + 8.0)


TABLE = ((1.0, -0.5, 0.4), (3.0, -1.0, 0.2))


def test_attitude_by_hand():
    assert logistic(1.0, TABLE) == (-0.5, 0.4)
    assert logistic(0.5, TABLE) == (-0.5, 0.4)  # before the first row: the first row
    assert logistic(9.0, TABLE) == (-1.0, 0.2)
    assert logistic(2.0, TABLE) == (pytest.approx(-0.75), pytest.approx(0.3))
    u = 1 / (1 + math.exp(-(-0.5 + 0.4 * 13)))  # 0.99099
    assert attitude(13, 1.0, TABLE) == pytest.approx(0.4 * (2 * u - 1))
    assert attitude(13, 1.0, TABLE) == pytest.approx(0.39279, abs=1e-5)
    assert attitude(1.25, 1.0, TABLE) == pytest.approx(0.0, abs=1e-12)  # where the chance of winning is 1/2
    assert 0 < attitude(40, 1.0, TABLE) < 0.4 and -0.4 < attitude(-40, 1.0, TABLE) < 0
    assert attitude(0.0, 1.0, TABLE) < 0  # level with the best of 3 others: behind the even chance
    for edition in ("second", "first"):  # every edition's rows: legs left rising, b falling, a below 0
        rows = LOGISTIC[edition]
        assert all(r[0] < s[0] for r, s in zip(rows, rows[1:])) and all(r[1] < 0 < r[2] for r in rows)
        assert rows[0][2] > rows[-1][2]


def test_legs_left():
    class Race:
        legs = np.array([1.0])

    assert legs_left(Race) == 1.0
    Race.legs = np.array([0.25, 0.5, 0.25])
    assert legs_left(Race) == pytest.approx(2.0)


# The two outcomes (G wins / B wins, 1/2 each) of BOARD's leg.  Holdings:
# player 0's B5 tile 1 / 5, player 1's G5 tile 5 / 1: the margin's
# holdings H0 - H1 = -4 / +4.  leg:G (the G3 tile) pays 3 / 1:
#   Cov(X, H0) = ((+1)(-2) + (-1)(+2)) / 2 = -2; Cov(X, H1) = +2;
#   Cov(X, H0 - H1) = -4; Var(X) = 1.
# leg:B (the B3 tile) pays 1 / 3: Cov(X, H0 - H1) = ((-1)(-4) + (+1)(+4)) / 2 = +4.
# winner:G (8 / -1): Cov with H0 - H1 = ((+4.5)(-4) + (-4.5)(+4)) / 2 = -18; Var 20.25.
MARGIN_BY_HAND = {"leg:G": (1.0, -4.0), "leg:B": (1.0, 4.0), "winner:G": (20.25, -18.0), "winner:B": (20.25, 18.0),
                  "loser:O": (0.0, 0.0), "pyramid": (0.0, 0.0)}


def test_covariance_with_the_margin_by_hand():
    ctx = context(state())
    counts = joint_counts(ctx.pos, 4000, seed=1)
    book = Portfolio(ctx, counts, rival_holdings(ctx, 1, ctx.rank_code_table()))
    own = Portfolio(ctx, counts)
    for action, (var, cov) in MARGIN_BY_HAND.items():
        assert book.of(action) == pytest.approx((var, cov), abs=1e-9), action
        assert own.of(action)[0] == pytest.approx(var, abs=1e-9)
        assert own.of(action)[1] == pytest.approx(cov / 2, abs=1e-9), action  # Cov(X, H0) alone: half here


def _lam(st):
    ctx = context(st)
    d, _ = margin(ctx)
    return attitude(d, legs_left(ctx.race()), table_of(ctx.ed))


@pytest.mark.parametrize("risk,cov,rival_cov", [(True, False, False), (False, True, False), (False, True, True),
                                                (True, True, True)])
def test_margin_bot_scores_by_hand(risk, cov, rival_cov):
    st = state()
    lam = _lam(st)
    assert lam > 0  # ahead by 10 in the last leg
    rival = dict(make_bot("rival").ranked(st, 0))
    bot = MarginBot(infer=False, risk=risk, cov=cov, rival_cov=rival_cov, threat=False, endgame=False)
    scores = dict(bot.ranked(st, 0))
    assert sorted(scores) == sorted(rival)
    for action, (var, margin_cov) in MARGIN_BY_HAND.items():
        c = margin_cov if rival_cov else margin_cov / 2
        want = rival[action] - (lam / 2 * var if risk else 0.0) - (lam * c if cov else 0.0)
        assert scores[action] == pytest.approx(want, abs=1e-9), action


def test_margin_bot_without_ingredients_is_rival():
    bot = MarginBot(infer=False, risk=False, cov=False, threat=False, endgame=False)
    for st in (state(), state(money=(0, 3, 3, 3)), GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx")):
        assert bot.ranked(st, 0) == RivalBot().ranked(st, 0)


def test_threat_weights_by_hand():
    s = [1 / (1 + math.exp(-0.4 * d)) for d in (10.0, 0.0, -5.0)]  # player 0 at 10 against 0, 10, 15
    w = threat([10.0, 0.0, 10.0, 15.0], 0, 1.0, TABLE)
    # 1 - s: 0.01799, 0.5, 0.88080 (sum 1.39879) -> weights 0.01286, 0.35745, 0.62969
    assert w == pytest.approx([0.0, 0.01286, 0.35745, 0.62969], abs=1e-5)
    assert w == pytest.approx(np.array([0.0, *(1 - x for x in s)]) / sum(1 - x for x in s))
    assert threat([5.0, 5.0, 5.0, 5.0], 2, 3.0, TABLE) == pytest.approx([1 / 3, 1 / 3, 0, 1 / 3])


def test_threat_bot_scores_by_hand():
    """``threat`` alone: the EV less the others' gains weighted by
    :func:`threat` of their standings; level players: rival's mean."""
    st = state()
    values = fast_values(st, 0, rivals=True)
    ctx = values.context
    w = threat(standings(ctx), 0, legs_left(ctx.race()), table_of(ctx.ed))
    assert values.rivals == pytest.approx(sum(values.gains[q] for q in (1, 2, 3)) / 3, abs=1e-12)
    want = values.ev - sum(w[q] * values.gains[q] for q in (1, 2, 3))
    bot = MarginBot(infer=False, risk=False, cov=False, endgame=False)
    assert dict(bot.ranked(st, 0)) == pytest.approx(dict(zip(values.actions, want)), abs=1e-12)
    level = GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx")
    assert dict(bot.ranked(level, 0)) == pytest.approx(dict(RivalBot().ranked(level, 0)), abs=1e-12)


def test_margin_bot_endgame_ranks_by_the_share_of_first_place():
    # the race ends in this leg: the endgame's exact shares rank the actions (tests/test_portfolio.py)
    from advisor.valuation.portfolio import endgame_shares

    st = state(money=(3, 10, 3, 3), p1_tiles=(), p3_tiles=("G5",))  # the G5 tile taken is held by player 3
    values = fast_values(st, 0, rivals=True)
    shares = dict(zip(values.actions, endgame_shares(values.context, values.actions, values.tables)))
    ranking = MarginBot(infer=False, risk=False, cov=False, threat=False).ranked(st, 0)
    assert ranking[0] == ("loser:O", 1.0)
    assert dict(ranking) == pytest.approx(shares)


def _game_views(seed, edition="second"):
    """Seat 0's view before every turn of a game of rival bots, and the record."""
    game = Game(edition, 4, seed, dice="leg")
    bots = [RivalBot() for _ in range(4)]
    rngs = [np.random.default_rng([seed, s]) for s in range(4)]
    views = []
    while not game.finished:
        p = game.to_move
        views.append((game.turns, game.view(0), p))
        game.apply(bots[p].choose(game.view(p), p, rngs[p]))
    return views, game.record


def test_seen_cards_read_the_board_each_card_was_placed_on():
    """Shown every view, the memory reads each face-down card's features
    from the board before its turn, as the record's inference does (the race
    odds seeded from the board, :func:`shared_race_odds`)."""
    views, record = _game_views(3)
    seen = SeenCards()
    for _, view, _ in views:
        seen.observe(view, 0)
    events = [e for e in placements(record) if e.player != 0]
    assert events and len(events) == len(seen.cards)
    boards = {turn: view for turn, view, _ in views}
    racing = views[0][1].position.racing
    legs = {turn: leg for turn, leg in _legs(record).items()}
    for e in events:
        owner, x = seen.cards[(e.pile, e.index)]
        view = boards[e.turn]
        odds = shared_race_odds(view.position, 0.02)
        tiles = [c for c, _ in view.players[owner].leg_tiles]
        assert owner == e.player
        assert np.array_equal(x, card_features(odds.win, odds.lose, e.pile, legs[e.turn], e.index, tiles, racing))


def _legs(record):
    from advisor.game import replay

    out = {}
    replay(record, visit=lambda step: out.__setitem__(step.turn, step.leg))
    return out


def test_seen_cards_models_and_a_new_game():
    views, _ = _game_views(3)
    seen = SeenCards()
    for _, view, p in views:
        if p == 0:
            st = seen.update(view, 0)
            for card in st.winner_pile + st.loser_pile:
                if card.player == 0:
                    assert card.colour and card.model is None
                else:
                    assert card.model is not None and sum(q for _, q in card.model) == pytest.approx(1.0)
    assert seen.cards
    # another game's first view (empty piles): the memory starts again
    fresh = Game("second", 4, 11, dice="leg").view(0)
    assert seen.update(fresh, 0) == fresh and not seen.cards
    # another player: starts again too
    seen.update(views[-1][1], 0)
    assert seen.cards
    seen.update(Game("second", 4, 11, dice="leg").view(2), 2)
    assert seen.player == 2 and not seen.cards


def test_margin_games_replay_from_their_seed():
    bots = ["margin", "rival", "rival", "rival"]
    a = play_game(bots, "second", seed=21, dice="leg")
    b = play_game(bots, "second", seed=21, dice="leg")
    assert a == b
    assert a[-1]["type"] == "end"


INGREDIENTS = ("infer", "risk", "cov", "threat", "endgame")


def test_margin_and_its_variants_are_registered_bots():
    bot = make_bot("margin")
    assert isinstance(bot, MarginBot) and all(getattr(bot, k) for k in INGREDIENTS) and bot.rival_cov and bot.wealth
    for ingredient in INGREDIENTS:
        short = "end" if ingredient == "endgame" else ingredient
        only, without = make_bot(f"margin-{short}"), make_bot(f"margin-no-{short}")
        assert [getattr(only, k) for k in INGREDIENTS] == [k == ingredient for k in INGREDIENTS]
        assert [getattr(without, k) for k in INGREDIENTS] == [k != ingredient for k in INGREDIENTS]
        assert only.wealth and without.wealth and only.rival_cov and without.rival_cov
        assert (only.seen is not None) == (ingredient == "infer")
        assert type(only).name == f"margin-{short}" and "to measure it" in type(without).summary


def test_play_game_shows_a_watching_bot_every_view_of_its_seat(monkeypatch):
    """A bot with ``observe`` sees its own seat's view before every other
    player's turn (others' cards face down), and decides as before."""
    import advisor.bots.policies as bots_module

    shown = []

    class Watcher(RivalBot):
        name = "watcher"

        def observe(self, state, player):
            shown.append((player, state))

    monkeypatch.setitem(bots_module.BOTS, "watcher", Watcher)
    record = play_game(["watcher", "rival", "rival", "rival"], "second", seed=5, dice="leg")
    plain = play_game(["rival"] * 4, "second", seed=5, dice="leg")
    assert [e.get("action") for e in record[1:]] == [e.get("action") for e in plain[1:]]
    turns = [e for e in record[1:] if e["type"] == "action"]
    assert len(shown) == sum(1 for e in turns if e["player"] != 0)
    assert all(player == 0 for player, _ in shown)
    for _, view in shown:
        assert all(c.colour is None for c in view.winner_pile + view.loser_pile if c.player != 0)
        assert all(view.hand_hidden(q) for q in (1, 2, 3))
