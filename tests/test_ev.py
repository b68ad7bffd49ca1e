"""The advisor's figures against direct computations from the naive
reference (exact where the inputs are exact)."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from advisor.valuation.explain import EV_TIE
from advisor import IllegalActionError, Position, Tile, leg_odds, parse_position, race_odds
from advisor.valuation.engine import best_moves, evaluate, legal_actions, pile_payout
from advisor.rules.state import GameState, PileCard, PlayerState
from naive import naive_leg_counts

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"


def outcomes(position, track=-1):
    """{(order, landings on track): probability} by the naive reference."""
    res = naive_leg_counts(str(position), track=track)
    return {k: v / res["total"] for k, v in res["joint"].items()}


def tile_pay(order, colour, value):
    rank = order.index(colour)
    return value if rank == 0 else 1 if rank == 1 else -1


def expected(dist, fn):
    return sum(p * fn(order, n) for (order, n), p in dist.items())


def state_with(board, players, **kw):
    return GameState(board, tuple(players), **kw)


def row(frame, action):
    return frame.set_index("action").loc[action]


def test_leg_tile_ev_is_the_textbook_formula_without_the_floor():
    frame = best_moves(EXAMPLE, seed=1, denial=False)
    odds = leg_odds(EXAMPLE)
    for colour in "BGPRY":
        p = odds.rank[odds.camels.index(colour)]
        assert row(frame, f"leg:{colour}")["ev"] == pytest.approx(5 * p[0] + p[1] - p[2:].sum(), abs=1e-12)
    assert row(frame, "pyramid")["ev"] == 1.0


def test_money_floor_on_the_whole_leg_payout():
    # Player 0 is broke and holds B5 and Y3: B is surely last, Y 4th.
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:B322,Y22"
    me = PlayerState(money=0, leg_tiles=(("B", 5), ("Y", 3)), pyramid_tiles=0)
    state = state_with(board, [me, PlayerState(), PlayerState(), PlayerState()])
    dist = outcomes(parse_position(board))
    held = lambda o: tile_pay(o, "B", 5) + tile_pay(o, "Y", 3)  # noqa: E731
    base = expected(dist, lambda o, n: max(0, held(o)))
    frame = best_moves(state, seed=1, denial=False)
    for colour in "GPR":
        want = expected(dist, lambda o, n: max(0, held(o) + tile_pay(o, colour, 5))) - base
        got = row(frame, f"leg:{colour}")
        assert got["ev"] == pytest.approx(want, abs=1e-12)
        assert got["floor"] == pytest.approx(want - (got["value"] * got["p_first"] + got["p_second"] - got["p_rest"]))
    # the pyramid's +1 only covers part of a debt that cannot be paid anyway
    assert row(frame, "pyramid")["ev"] == pytest.approx(0.0, abs=1e-12)
    assert row(frame, "pyramid")["floor"] == pytest.approx(-1.0)


def test_floor_partly_binding():
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:G322"
    me = PlayerState(money=1, leg_tiles=(("G", 5),))
    state = state_with(board, [me] + [PlayerState()] * 3)
    dist = outcomes(parse_position(board))
    base = expected(dist, lambda o, n: max(0, 1 + tile_pay(o, "G", 5)))
    want = expected(dist, lambda o, n: max(0, 1 + tile_pay(o, "G", 5) + tile_pay(o, "P", 5))) - base
    assert evaluate(state, "leg:P", seed=1)["ev"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("space, sign", [(12, "+"), (13, "-"), (4, "+"), (4, "-")])
def test_tile_ev_landings_and_held_bets(space, sign):
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:R322"
    me = PlayerState(money=2, leg_tiles=(("R", 5),), overall_cards="")
    state = state_with(board, [me] + [PlayerState()] * 3)
    pos = parse_position(board)
    new = Position(pos.edition, pos.stacks, (Tile(space, sign, 0),), pos.dice, pos.legtiles)
    before, after = outcomes(pos), outcomes(new, track=space)
    want = (expected(after, lambda o, n: max(0, 2 + n + tile_pay(o, "R", 5)))
            - expected(before, lambda o, n: max(0, 2 + tile_pay(o, "R", 5))))
    got = evaluate(state, f"tile:{sign}{space}", seed=1)
    assert got["ev"] == pytest.approx(want, abs=1e-12)
    assert got["landings"] == pytest.approx(expected(after, lambda o, n: n), abs=1e-12)
    bets = expected(after, lambda o, n: tile_pay(o, "R", 5)) - expected(before, lambda o, n: tile_pay(o, "R", 5))
    assert got["bets_change"] == pytest.approx(bets, abs=1e-12)
    assert got["overall_change"] == 0.0


def test_moving_an_existing_tile_loses_its_old_landings():
    board = "1:B 2:YG 3:PR 14:w 15:k +12@0 dice:GPRx"
    state = state_with(board, [PlayerState(overall_cards="")] + [PlayerState()] * 3)
    pos = parse_position(board)
    new = Position(pos.edition, pos.stacks, (Tile(10, "+", 0),), pos.dice)
    want = expected(outcomes(new, 10), lambda o, n: 3 + n) - expected(outcomes(pos, 12), lambda o, n: 3 + n)
    assert evaluate(state, "tile:+10", seed=1)["ev"] == pytest.approx(want, abs=1e-12)
    assert "tile:+12" not in legal_actions(state) and "tile:-12" not in legal_actions(state)


def test_legal_tile_spaces():
    state = GameState.from_board("1:B 2:YG 3:PR 14:w 15:k +5@1 -8 dice:GPRx")
    spaces = {int(a[6:]) for a in legal_actions(state) if a.startswith("tile:")}
    # not 1, not on camels (1,2,3,14,15), not on or next to others' tiles (5, 8)
    assert spaces == {10, 11, 12, 13, 16}


def test_every_legal_action_once_and_sorted():
    frame = best_moves(EXAMPLE, seed=2, objective="ev")  # ranked by EV (the win objective: tests/test_winchance.py)
    assert sorted(frame["action"]) == sorted(legal_actions(GameState.from_board(EXAMPLE)))
    assert frame["action"].is_unique
    assert all(a >= b - EV_TIE for a, b in zip(frame["ev"], frame["ev"][1:]))  # ties within EV_TIE
    assert frame.attrs["assumptions"]


def test_overall_cards_with_face_down_cards():
    # the race must end within two legs: race odds are exact
    board = "10:w 12:k 15:B 16:GPRY dice:Bx"
    race = race_odds(board)
    assert race.exact
    pile = (PileCard(1), PileCard(0, "Y"), PileCard(2))  # two unknown cards and one of ours
    me = PlayerState(overall_cards="BGPR")
    state = state_with(board, [me, PlayerState(), PlayerState()], winner_pile=pile)
    frame = best_moves(state, seed=1, denial=False)
    for i, colour in enumerate(race.camels):
        if colour == "Y":
            assert "winner:Y" not in set(frame["action"])
            continue
        p, q = race.win[i], race.win[i]
        ev_correct = sum(comb(2, j) * q**j * (1 - q) ** (2 - j) * pile_payout(j) for j in range(3))
        assert row(frame, f"winner:{colour}")["ev"] == pytest.approx(p * ev_correct - (1 - p), abs=1e-12)
    # a user model of the unknown cards
    model = {"winner": {"B": 1.0, "G": 0.0, "P": 0.0, "R": 0.0, "Y": 0.0}}
    state = state_with(board, [me, PlayerState(), PlayerState()], winner_pile=pile, pile_model=model)
    pb = race.win[0]
    assert evaluate(state, "winner:B", seed=1)["ev"] == pytest.approx(pb * pile_payout(2) - (1 - pb), abs=1e-12)
    # the known Y card of ours counts when Y wins
    py = race.win[race.camels.index("Y")]
    me2 = PlayerState(overall_cards="BGPR")
    state = state_with(board, [me2, PlayerState(overall_cards="BGPRY"), PlayerState()],
                       winner_pile=(PileCard(0, "Y"),), to_move=1)
    assert evaluate(state, "winner:Y", seed=1)["ev"] == pytest.approx(py * pile_payout(1) - (1 - py), abs=1e-12)


def test_loser_card_and_floor_at_zero_money():
    board = "10:w 12:k 15:B 16:GPRY dice:Bx"
    race = race_odds(board)
    state = state_with(board, [PlayerState(money=0)] + [PlayerState()] * 2)
    i = race.camels.index("G")
    got = evaluate(state, "loser:G", seed=1)
    # broke: a wrong card costs nothing
    assert got["ev"] == pytest.approx(race.lose[i] * 8, abs=1e-12)
    assert got["floor"] == pytest.approx(1 - race.lose[i], abs=1e-12)


def test_partnership_copies_the_best_tile():
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:R2,G322"
    players = [PlayerState(money=5)] + [PlayerState()] * 5
    players[3] = PlayerState(leg_tiles=(("R", 5), ("R", 2), ("G", 5)), pyramid_tiles=1)
    state = state_with(board, players)
    assert {a for a in legal_actions(state) if a.startswith("partner:")} == {f"partner:{q}" for q in range(1, 6)}
    dist = outcomes(parse_position(board))
    want = expected(dist, lambda o, n: max(1, tile_pay(o, "R", 5), tile_pay(o, "R", 2), tile_pay(o, "G", 5)))
    assert evaluate(state, "partner:3", seed=1)["ev"] == pytest.approx(want, abs=1e-12)
    assert evaluate(state, "partner:1", seed=1)["ev"] == 0.0
    # partnered players cannot partner again; first edition and small games have none
    players[0] = PlayerState(partner=3)
    players[3] = PlayerState(partner=0, leg_tiles=(("R", 5),))
    state = state_with(board, players)
    assert not [a for a in legal_actions(state) if a.startswith("partner:")]
    assert not [a for a in legal_actions(GameState.from_board(board, players=5)) if a.startswith("partner:")]


def test_denial_of_taking_the_top_tile():
    # nobody holds overall cards: the next player's options are leg tiles and the pyramid
    players = [PlayerState(overall_cards="")] * 4
    state = state_with(EXAMPLE, players)
    odds = leg_odds(EXAMPLE)
    ev = lambda c, v: v * odds.probability(c, 1) + odds.probability(c, 2) - sum(  # noqa: E731
        odds.probability(c, k) for k in (3, 4, 5))
    before = max(ev(c, 5) for c in "BGPRY")
    after = max([ev(c, 5) for c in "BGPY"] + [ev("R", 3), 1.0])
    assert evaluate(state, "leg:R", seed=1)["denial"] == pytest.approx(before - after, abs=1e-12)
    assert evaluate(state, "pyramid", seed=1)["denial"] == 0.0
    assert evaluate(state, "leg:B", seed=1)["denial"] == 0.0


def test_tile_out_of_reach_changes_no_overall_card_value():
    # Nothing reaches space 16 this leg, so the race odds with the tile use the
    # same end states and the same random numbers: the change is exactly 0.
    board = "1:B 2:YG 3:PR 7:w 8:k dice:GPx"
    me = PlayerState(overall_cards="GPRY")
    state = state_with(board, [me] + [PlayerState()] * 3, winner_pile=(PileCard(0, "B"),))
    got = evaluate(state, "tile:+16", seed=4, precision=0.01)
    assert got["landings"] == 0.0 and got["overall_change"] == 0.0 and got["ev"] == 0.0


def test_tile_near_the_finish_moves_overall_card_value():
    board = "12:B 13:YG 14:PR 3:w 5:k dice:GPRx"
    me = PlayerState(overall_cards="GPRY")
    state = state_with(board, [me] + [PlayerState()] * 3, winner_pile=(PileCard(0, "B"),))
    got = evaluate(state, "tile:-15", seed=4, precision=0.01)
    assert got["overall_change"] != 0.0


def test_risk_columns():
    frame = best_moves(EXAMPLE, seed=3, denial=False)
    r = row(frame, "leg:B")  # B is surely last: a sure loss of 1
    assert r["sd"] == 0.0 and r["p_loss"] == 1.0
    r = row(frame, "pyramid")
    assert r["sd"] == 0.0 and r["p_loss"] == 0.0
    r = row(frame, "leg:R")
    odds = leg_odds(EXAMPLE)
    p = odds.rank[3]
    mean = 5 * p[0] + p[1] - p[2:].sum()
    var = 25 * p[0] + p[1] + p[2:].sum() - mean**2
    assert r["sd"] == pytest.approx(np.sqrt(var)) and r["p_loss"] == pytest.approx(p[2:].sum())


def test_illegal_actions_are_refused():
    state = GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:B")
    for action in ("leg:B", "tile:+2", "tile:+14", "winner:w", "partner:1", "fly"):
        with pytest.raises(IllegalActionError):
            evaluate(state, action)


@pytest.mark.parametrize("state", [
    GameState.from_board(EXAMPLE),
    state_with("1:B 2:YG 3:PR 14:w 15:k +7@0 dice:GPRx legtiles:R322", [PlayerState(money=1, leg_tiles=(("R", 5),)), PlayerState(),
                                                           PlayerState(), PlayerState()]),
    state_with("1:B 2:YG 3:PR 14:w 15:k -9@1 dice:BGPx legtiles:R322",
               [PlayerState(overall_cards="GPR", pyramid_tiles=1), PlayerState(leg_tiles=(("R", 5),)),
                PlayerState(), PlayerState()],
               winner_pile=(PileCard(0, "B"), PileCard(2)), loser_pile=(PileCard(0, "Y"),)),
])
def test_quick_advice_without_race_odds_values_the_leg_actions_as_the_full_advice(state):
    """best_moves(race=False): every action that needs no race odds, with the
    full advice's EV (a tile's change of the player's pile cards left out)."""
    full = best_moves(state, seed=3, precision=0.01)
    quick = best_moves(state, seed=3, precision=0.01, race=False)
    expected_actions = [a for a in legal_actions(state) if not a.startswith(("winner", "loser"))]
    assert sorted(quick["action"]) == sorted(expected_actions)
    assert all(a >= b - EV_TIE for a, b in zip(quick["ev"], quick["ev"][1:]))  # ties within EV_TIE
    assert quick["denial"].isna().all()
    own_cards = any(c.player == 0 and c.colour for c in state.winner_pile + state.loser_pile)
    left_out = 0
    for action in quick["action"]:
        q, f = row(quick, action), row(full, action)
        if action.startswith("tile:") and np.isnan(q["overall_change"]):
            # a tile that changes the leg changes the odds of the pile cards: that part waits for the race
            left_out += 1
            assert q["ev"] == pytest.approx(f["ev"] - f["overall_change"], abs=1e-12)
        else:
            assert q["ev"] == pytest.approx(f["ev"], abs=1e-12)
        for column in ("sd", "p_loss"):
            assert q[column] == pytest.approx(f[column], abs=1e-12)
    assert (left_out > 0) == own_cards
    assert quick.attrs["race_samples"] is None  # no race simulated


# --------------------------------------------------------------------------
# exact figures print exactly
# --------------------------------------------------------------------------


def exact_expect(position, fn, track=-1) -> Fraction:
    """E[fn(order, landings)] as an exact fraction of the naive reference's
    sequence counts."""
    key = (str(position), track)
    if key not in _NAIVE:
        _NAIVE[key] = naive_leg_counts(str(position), track=track)
    res = _NAIVE[key]
    return Fraction(sum(n * fn(order, hits) for (order, hits), n in res["joint"].items()), res["total"])


_NAIVE: dict = {}


def test_pyramid_of_the_reported_position_is_exactly_one():
    board = "first 2:G 9:Y 11:O 15:B 16:W +10@0"
    frame = best_moves(board, seed=1)
    assert row(frame, "pyramid")["ev"] == 1.0 and row(frame, "pyramid")["floor"] == 0.0
    assert row(frame, "leg:G")["ev"] == -1.0 and row(frame, "leg:G")["p_loss"] == 1.0
    assert row(frame, "leg:W")["floor"] == 0.0
    from advisor.cli.command import main

    import contextlib
    import io
    import json

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["best", "--json", "--seed", "1", board]) == 0
    moves = {m["action"]: m for m in json.loads(out.getvalue())["moves"]}
    assert moves["pyramid"]["ev"] == 1.0 and repr(moves["pyramid"]["ev"]) == "1.0"


EXACT_STATES = [
    # (board, players): the advised player is player 0
    ("first 2:G 9:Y 11:O 15:B 16:W +10@0 dice:GOYW", [PlayerState(overall_cards="")] + [PlayerState()] * 2),
    ("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx legtiles:R322",
     [PlayerState(money=1, leg_tiles=(("R", 5),), overall_cards="")] + [PlayerState()] * 3),
    ("3:B 4:Y 5:wG 6:kPR -10@0 +13@2 dice:BGPx",
     [PlayerState(money=0, overall_cards="")] + [PlayerState()] * 3),
    ("1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:R2,G322",
     [PlayerState(money=0, overall_cards="")] + [PlayerState()] * 2
     + [PlayerState(leg_tiles=(("R", 5), ("R", 3), ("G", 5)), pyramid_tiles=1)] + [PlayerState()] * 2),
]


@pytest.mark.parametrize("board, players", EXACT_STATES)
def test_leg_figures_are_the_correctly_rounded_exact_fractions(board, players):
    """Every EV of a leg tile, the pyramid, a tile placement or a
    partnership (the money floor included) equals the float nearest to the
    exact fraction of the naive reference's counts, and so do P(1st),
    P(loss) and the tile's landings; the bots' fast valuation gives the same
    floats."""
    from advisor.valuation.engine import EXACT_ROLLS, fast_values
    from advisor.rules.encode import encode

    state = state_with(board, players)
    pos = state.position
    me = players[0]
    racing = pos.racing
    own = state.own_tile(0)
    track = own.space if own else -1

    def held(order):
        return sum(tile_pay(order, c, v) for c, v in me.leg_tiles) + me.pyramid_tiles

    def settle(order, hits, extra=0):
        return max(0, me.money + hits + held(order) + extra)

    frame = best_moves(state, 0, seed=1, denial=False).set_index("action")
    fast = fast_values(state, 0)
    exact_tiles = encode(pos).rolls <= EXACT_ROLLS
    checked = 0
    for action in frame.index:
        kind, _, arg = action.partition(":")
        got = frame.loc[action]
        if kind == "leg":
            value = pos.legtiles[racing.index(arg)][0]
            want = exact_expect(pos, lambda o, n: settle(o, n, tile_pay(o, arg, value)) - settle(o, n), track)
            p_loss = exact_expect(pos, lambda o, n: int(settle(o, n, tile_pay(o, arg, value)) < settle(o, n)), track)
            assert got["p_loss"] == float(p_loss), action
            assert got["p_first"] == float(exact_expect(pos, lambda o, n: int(o[0] == arg))), action
        elif kind == "pyramid":
            want = exact_expect(pos, lambda o, n: settle(o, n, 1) - settle(o, n), track)
        elif kind == "partner":
            partner = players[int(arg)]

            def copy(o):
                return max([0] + [tile_pay(o, c, v) for c, v in partner.leg_tiles] + [1] * partner.pyramid_tiles)

            want = exact_expect(pos, lambda o, n: settle(o, n, copy(o)) - settle(o, n), track)
        elif kind == "tile":
            sign, space = arg[0], int(arg[1:])
            new = Position(pos.edition, pos.stacks, tuple(t for t in pos.tiles if t.owner != 0)
                           + (Tile(space, sign, 0),), pos.dice, pos.legtiles)
            landings = exact_expect(new, lambda o, n: n, space)
            if landings == 0 and own is None:
                continue  # never reached: 0 without enumeration
            want = exact_expect(new, settle, space) - exact_expect(pos, settle, track)
            assert got["landings"] == float(landings), action
        else:
            continue
        assert got["ev"] == float(want), (action, got["ev"], want)
        if kind != "tile" or exact_tiles:
            assert fast.ev[fast.actions.index(action)] == float(want), action
        checked += 1
    assert checked >= 8
