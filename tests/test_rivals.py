"""The ``rivals`` figure of :func:`advisor.valuation.engine.fast_values`, its kernel
:func:`advisor.kernels.board.candidates.after_each_roll`, and the ``rival`` bot.

What ``_rivals`` computes, per action of the advised player ``p`` (``n``
players, ``den`` the action's denial figure)::

    rivals = (-den + holdings change + pyramid gift) / (n - 1)

* ``holdings change`` (tile placements only): the sum over the other players
  ``q`` of ``E_with[max(0, money_q + holdings_q)] - E_now[...]``, holdings
  being their leg tiles, pyramid tiles and partner copy (no landings: only the
  advised player's own tile pays coins in this model);
* ``pyramid gift`` (the pyramid only, 0 with one roll left): the mean over the
  next roll (sequence weights: 2 per racing die value, 1 per grey face) of the
  next player's best option after the roll minus their best option now; a
  roll that ends the race is valued on the race order it leaves.  Best option: the max of the
  pyramid tile (+1) and the top leg tile of each colour (money floor at 0 on
  their whole leg payout) and of their best overall card (which does not
  change with the roll); the next player sees their own hand, so with a
  hidden hand the best option is the expectation over their possible hands
  of the best option in each (the hands enumerated here by brute force over
  the colours of their face-down cards, weighted by the pile model);
* partner and pyramid actions have no denial; ``leg:C``, ``winner:C``,
  ``loser:C`` get ``-den / (n - 1)`` only.

Everything is checked against independent computations: the next roll
applied by the naive reference (``tests/naive.py``), the leg after it
enumerated by the naive reference or :meth:`LegOutcomes.of` of the new
position, the holdings and options valued here from the outcomes (overall
cards by :func:`advisor.valuation.engine._value_card` with the race odds of the board's
seed, as in ``tests/test_fastev.py``).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from advisor import GameState, PileCard, PlayerState, Tile, parse_position
from advisor.bots.policies import RivalBot, make_bot
from advisor.rules.encode import encode
from advisor.valuation.engine import LegOutcomes, Valuation, _value_card, legal_actions
from advisor.valuation.engine import EXACT_ROLLS, fast_values
from advisor.game import Game
from advisor.kernels.board.candidates import after_each_roll
from advisor.kernels.board.leg import completions
from advisor.kernels.ranks import RANK_CODES
from played import board_seed, game_states, with_money  # noqa: E402
from naive import GREY, apply_roll, board_of, naive_leg_counts, ranking, stacks_of, tiles_of

# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------






GAMES = [
    ("second", ("random", "heuristic", "random", "heuristic"), 11),
    ("first", ("random", "heuristic", "random"), 12),
    ("second", ("heuristic",) * 5, 5),
    ("second", ("random",) * 6, 8),  # partnerships
]


def all_states(step: int = 1):
    out = []
    for edition, bots, seed in GAMES:
        out += list(game_states(edition, bots, seed))[::step]
    return out




def code_of(order: list[str], racing: str) -> int:
    """The kernels' rank code of a race order (first to last)."""
    r = [order.index(c) for c in racing]
    return r[0] + 5 * r[1] + 25 * r[2] + 125 * r[3]


def code_probs(leg: LegOutcomes) -> np.ndarray:
    r = leg.ranks
    return np.bincount(r[:, 0] + 5 * r[:, 1] + 25 * r[:, 2] + 125 * r[:, 3], weights=leg.prob,
                       minlength=RANK_CODES)


def next_rolls(pos):
    """Every result of the next roll: ``(die index, face, letter, value,
    colour, weight)``; face numbering of the kernels (racing 0..2, grey 0..5
    with colour face // 3)."""
    ed = pos.rules
    for d, letter in enumerate(ed.dice):
        if letter not in pos.dice:
            continue
        if letter == GREY:
            for face in range(6):
                yield d, face, letter, face % 3 + 1, ("white", "black")[face // 3], 1
        else:
            for face in range(3):
                yield d, face, letter, face + 1, None, 2


def after_roll(pos, letter, value, colour):
    """The naive reference's board after one roll: ``(board, over, position
    after it or None if the race is over)``."""
    board = board_of(str(pos))
    _, _, over = apply_roll(board, letter, value, colour, tiles_of(str(pos)))
    if over:
        return board, True, None
    return board, False, replace(pos, stacks=stacks_of(board), dice=pos.dice.replace(letter, ""))


# ---- the players' holdings and options, from a leg's outcomes


def payout(leg: LegOutcomes, camel: int, value: int) -> np.ndarray:
    r = leg.ranks[:, camel]
    return np.where(r == 0, value, np.where(r == 1, 1, -1)).astype(float)


def holdings(state: GameState, q: int, leg: LegOutcomes) -> np.ndarray:
    """Player ``q``'s leg-scoring reward per outcome: leg tiles, pyramid
    tiles and, if partnered, the best of the partner's rewards (or 0)."""
    racing = state.position.racing
    pl = state.players[q]
    total = np.full(leg.prob.size, float(pl.pyramid_tiles))
    for colour, value in pl.leg_tiles:
        total += payout(leg, racing.index(colour), value)
    if pl.partner is not None:
        partner = state.players[pl.partner]
        best = np.full(leg.prob.size, 1.0 if partner.pyramid_tiles else 0.0)
        for colour, value in partner.leg_tiles:
            best = np.maximum(best, payout(leg, racing.index(colour), value))
        total += best
    return total


def held_value(state: GameState, q: int, leg: LegOutcomes) -> float:
    """E[max(0, money + holdings)] of player ``q`` (no landings)."""
    return float(leg.prob @ np.maximum(0.0, state.players[q].money + holdings(state, q, leg)))


def best_leg_option(state: GameState, q: int, leg: LegOutcomes, stacks) -> float:
    """The best of ``q``'s pyramid tile and top leg tiles of ``stacks``."""
    money, h = state.players[q].money, holdings(state, q, leg)
    now = leg.prob @ np.maximum(0.0, money + h)
    best = leg.prob @ np.maximum(0.0, money + h + 1.0) - now
    for c, stack in enumerate(stacks):
        if stack:
            best = max(best, leg.prob @ np.maximum(0.0, money + h + payout(leg, c, stack[0])) - now)
    return float(best)


def hand_model(state: GameState, p: int, q: int) -> list[tuple[float, str]]:
    """``q``'s possible hands as ``(probability, colours)``, by brute force:
    every assignment of distinct candidate colours to ``q``'s face-down
    cards, weighted by the pile model of each card's pile (race odds of the
    board's seed), the hand being the candidates left over."""
    if not state.hand_hidden(q):
        return [(1.0, state.hand(q))]
    ctx = Valuation(state, p, 0.02, board_seed(state))
    q_of = {"winner": ctx.pile_q("winner"), "loser": ctx.pile_q("loser")}
    piles = [name for name, pile in (("winner", state.winner_pile), ("loser", state.loser_pile))
             for card in pile if card.player == q and card.colour is None]
    candidates = state.hand_candidates(q)
    racing = state.position.racing
    weights: dict[str, float] = {}
    for colours in itertools.permutations(candidates, len(piles)):
        w = float(np.prod([q_of[name][racing.index(c)] for name, c in zip(piles, colours)]))
        hand = "".join(c for c in candidates if c not in colours)
        weights[hand] = weights.get(hand, 0.0) + w
    assert all(len(h) == state.hand_size(q) for h in weights)
    total = sum(weights.values())
    if total == 0:
        return [(1 / len(weights), h) for h in weights]
    return [(w / total, h) for h, w in weights.items()]


def best_card(state: GameState, p: int, q: int, piles: dict | None = None) -> list[tuple[float, float]]:
    """``q``'s best overall card on the piles (as they are, or ``piles``)
    per possible hand: ``(probability, EV)`` (valued by ``_value_card`` with
    the race odds of the board's seed at the bots' precision, as
    ``fast_values`` draws them); ``-inf`` for an empty hand."""
    ctx = Valuation(state, p, 0.02, board_seed(state))
    piles = piles or {"winner": state.winner_pile, "loser": state.loser_pile}
    out = []
    for prob, hand in hand_model(state, p, q):
        best = max((_value_card(ctx, name, colour, q, piles[name])["ev"] for name in piles for colour in hand),
                   default=-np.inf)
        out.append((prob, best))
    return out


def option(leg: float, cards: list[tuple[float, float]]) -> float:
    """The best option of a player who sees their hand: the expectation over
    their hands of the best of ``leg`` and the hand's best card."""
    return sum(prob * max(leg, best) for prob, best in cards)


def pyramid_gift(state: GameState, p: int, cards: list | None = None) -> tuple[float, int]:
    """The next player's expected gain from seeing the next roll, computed
    roll by roll with the naive reference: ``(gift, weight of the rolls
    that end the race)``."""
    pos = state.position
    q = (p + 1) % state.n_players
    cards = best_card(state, p, q) if cards is None else cards
    before = option(best_leg_option(state, q, LegOutcomes.of(pos), pos.legtiles), cards)
    if encode(pos).rolls <= 1:
        return 0.0, 0
    total = weights = dead = 0
    for _, _, letter, value, colour, w in next_rolls(pos):
        board, over, new = after_roll(pos, letter, value, colour)
        weights += w
        if over:  # valued on the order it leaves
            dead += w
            order = ranking(board)
            leg = LegOutcomes(np.array([1.0]), np.array([[order.index(c) for c in pos.rules.racing]]),
                              np.array([0]))
        else:
            leg = LegOutcomes.of(new)
        after = option(best_leg_option(state, q, leg, pos.legtiles), cards)
        total += w * (after - before)
    return total / weights, dead


def race_ending_weight(pos) -> int:
    if encode(pos).rolls <= 1:
        return 0
    return sum(w for _, _, letter, value, colour, w in next_rolls(pos) if after_roll(pos, letter, value, colour)[1])


def pyramid_rivals(state: GameState, p: int) -> float:
    values = fast_values(state, p, rivals=True)
    return float(values.rivals[values.actions.index("pyramid")])


# --------------------------------------------------------------------------
# 1. after_each_roll against the naive reference
# --------------------------------------------------------------------------

AFTER_BOARDS = [
    # (board, enumerate the rest of the leg naively (else LegOutcomes.of), a roll ends the race)
    ("3:B 4:Y 5:wG 6:kPR +9@1 -12@2 dice:BGPx", True, False),  # both crazy camels carry: the rolled colour
    ("5:B 6:kwG 7:PR 9:Y -4@1 +10@2 dice:BGYx", True, False),  # w directly on k, and w carries G
    ("4:wk 6:BG 7:P 8:R 10:Y +5@0 -3@1 dice:GPRx", True, False),  # w on k, nobody carried; tiles behind
    ("1:Bk 2:G 3:Pw 5:RY +7@1 dice:BGx", True, True),  # a crazy camel falls off the start
    ("12:BG 13:PR 15:Y 10:w 11:k -8@1 dice:BGYx", True, True),
    ("14:BG 15:PR 16:Y 13:w 12:k +10@3 dice:BGPRx", True, True),  # 4 rolls, many end the race
    ("1:B 2:YG 3:PR 14:w 15:k +5@1", False, False),  # a leg start (5 rolls)
    ("first 1:BG 2:O 3:YW +5@1 -8@2 dice:BOW", True, False),
    ("first 13:BG 15:O 16:YW -14@1 dice:BOW", True, True),
    ("first 10:B 12:YG 14:OW -16@1 +8@2", False, True),  # first-edition leg start
]


def run_after_each_roll(pos):
    enc = encode(pos)
    orders = np.zeros((36, RANK_CODES, 1), np.int64)
    weights = np.zeros(36, np.int64)
    after_each_roll(enc.board, enc.dice, enc.rolls, enc.tiles, orders, weights)
    return orders[:, :, 0], weights


@pytest.mark.parametrize("board, naive, ends", AFTER_BOARDS)
def test_after_each_roll_against_the_naive_reference(board, naive, ends):
    pos = parse_position(board)
    ed = pos.rules
    enc = encode(pos)
    orders, weights = run_after_each_roll(pos)
    want_weights = np.zeros(36, np.int64)
    live = np.zeros(36, bool)
    # the tower property: the weighted mix over the roll of the leg after it
    # (a race-ending roll: its final board) is the leg now
    mix = np.zeros(RANK_CODES)
    dead = 0
    for d, face, letter, value, colour, w in next_rolls(pos):
        o = 6 * d + face
        want_weights[o] = w
        board_after, over, new = after_roll(pos, letter, value, colour)
        where = f"{board}: roll {letter}{value}{'' if colour is None else ' ' + colour} (o={o})"
        live[o] = True
        if over:
            dead += 1
            want = np.zeros(RANK_CODES, np.int64)  # a roll that ends the race: its final order, once
            want[code_of(ranking(board_after), ed.racing)] = 1
            np.testing.assert_array_equal(orders[o], want, err_msg=where)
            mix[code_of(ranking(board_after), ed.racing)] += w
            continue
        total = completions(enc.ndice - 1, enc.rolls - 1)
        assert orders[o].sum() == total, where  # sequence counts of the remaining rolls
        got = orders[o] / total
        want = code_probs(LegOutcomes.of(new))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=where)
        if naive:  # exact counts, without any kernel
            counts = np.zeros(RANK_CODES, np.int64)
            for stacks, n in naive_leg_counts(str(new), collect=True)["ends"].items():
                counts[code_of(ranking(stacks), ed.racing)] += n
            np.testing.assert_array_equal(orders[o], counts, err_msg=where)
        mix += w * got
    np.testing.assert_array_equal(weights, want_weights)
    # dice out of the pyramid and racing faces 3..5 are no outcomes
    assert not orders[~live].any()
    assert weights.sum() == 6 * len(pos.dice)
    np.testing.assert_allclose(mix / weights.sum(), code_probs(LegOutcomes.of(pos)), rtol=0, atol=1e-12)
    assert (dead > 0) == ends


def test_after_each_roll_adds_to_the_counts_it_is_given():
    """The kernel adds (as its siblings do): twice is double."""
    pos = parse_position("3:B 4:Y 5:wG 6:kPR +9@1 dice:BGPx")
    enc = encode(pos)
    once, w1 = run_after_each_roll(pos)
    orders = np.zeros((36, RANK_CODES, 1), np.int64)
    weights = np.zeros(36, np.int64)
    for _ in range(2):
        after_each_roll(enc.board, enc.dice, enc.rolls, enc.tiles, orders, weights)
    np.testing.assert_array_equal(orders[:, :, 0], 2 * once)
    np.testing.assert_array_equal(weights, w1)  # weights are set, not added


# --------------------------------------------------------------------------
# 2. the pyramid's information gift
# --------------------------------------------------------------------------


def test_hidden_hands_of_played_states_match_the_brute_force():
    """``Valuation.hand_model`` (hands, then the ways to split the rest
    between the piles) against ``hand_model`` here (every assignment of
    colours to the face-down cards), for every other player of the views."""
    compared = several = 0
    for view, p in all_states(step=4):
        ctx = Valuation(view, p, 0.02, board_seed(view))
        for q in range(view.n_players):
            if q == p:
                continue
            hands, probs = ctx.hand_model(q)
            got = {"".join(sorted(h)): float(x) for h, x in zip(hands, probs)}
            want = {"".join(sorted(h)): x for x, h in hand_model(view, p, q)}
            assert set(got) == set(want), (str(view.position), p, q)
            assert got == pytest.approx(want, abs=1e-12), (str(view.position), p, q)
            assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)
            compared += 1
            several += len(got) > 1
    assert compared >= 100 and several >= 30


@pytest.mark.parametrize("edition, bots, seed", GAMES)
def test_pyramid_gift_equals_the_roll_by_roll_computation(edition, bots, seed):
    states = list(game_states(edition, bots, seed))
    rng = np.random.default_rng(seed)
    checked = nonzero = ended = hidden = 0
    for i, (view, p) in enumerate(states[::3][:45]):
        if i % 4 == 3:  # the next player (nearly) broke: the floor binds
            view = with_money(view, {(p + 1) % view.n_players: int(rng.integers(0, 2))})
        gift, dead = pyramid_gift(view, p)
        got = pyramid_rivals(view, p)
        assert got == pytest.approx(gift / (view.n_players - 1), abs=1e-10), (str(view.position), p)
        checked += 1
        hidden += len(hand_model(view, p, (p + 1) % view.n_players)) > 1
        nonzero += abs(gift) > 1e-9
        ended += dead > 0
    assert checked >= 20 and nonzero >= 5
    if "random" in bots:
        assert hidden >= 3  # the next player's possible hands were several
    if len(bots) < 6:  # (the 6-player game's sampled states never near the finish)
        assert ended >= 1  # states where a roll ends the race are compared too


def test_pyramid_gift_with_partners_and_cards():
    """The next player partnered (their copy of the partner's best tile
    counts), holding leg tiles, and broke; overall cards in hand and on the
    piles."""
    board = "5:B 6:YG 8:PR 9:w 11:k +12@4 dice:GPRx legtiles:R2,G322,Y22"
    players = [PlayerState(money=2)] + [PlayerState()] * 5
    players[1] = PlayerState(money=0, leg_tiles=(("R", 3),), partner=2, overall_cards="")
    players[2] = PlayerState(partner=1, leg_tiles=(("G", 5), ("R", 5)), pyramid_tiles=1)
    state = GameState(board, tuple(players))
    gift, _ = pyramid_gift(state, 0)
    assert abs(gift) > 1e-3
    assert pyramid_rivals(state, 0) == pytest.approx(gift / 5, abs=1e-12)
    # with cards: the next player's best card is a floor under every roll
    players[1] = replace(players[1], overall_cards="BGY", money=4)
    state = GameState(board, tuple(players), winner_pile=(PileCard(3), PileCard(0, "B")),
                      loser_pile=(PileCard(2),))
    gift, _ = pyramid_gift(state, 0)
    assert pyramid_rivals(state, 0) == pytest.approx(gift / 5, abs=1e-12)


@pytest.mark.parametrize("board", [
    "1:B 2:YG 3:PR 14:w 15:k dice:Gx",  # second edition: two dice left, one roll
    "first 10:B 12:YG 14:OW dice:O",
    "14:BG 15:PR 16:Y 13:w 12:k dice:BG",  # the last roll may end the race
])
def test_no_gift_with_one_roll_left(board):
    state = GameState.from_board(board, players=4)
    assert encode(state.position).rolls == 1
    for p in range(4):
        assert pyramid_rivals(state, p) == 0.0
    assert pyramid_gift(state, 0)[0] == 0.0


def test_no_gift_with_one_roll_left_in_played_games():
    last = [(v, p) for v, p in all_states() if encode(v.position).rolls == 1]
    assert len(last) >= 10
    for view, p in last[::2]:
        assert pyramid_rivals(view, p) == 0.0


def test_pyramid_gift_is_not_negative_when_no_roll_ends_the_race():
    """E max >= max E: each option's value now is the mean over the roll of
    its value after it, so the mean of the best after the roll is at least
    the best now (when every roll leaves the race running)."""
    states = [(v, p) for v, p in all_states(step=2) if encode(v.position).rolls > 1]
    rng = np.random.default_rng(3)
    checked = positive = 0
    for i, (view, p) in enumerate(states):
        if race_ending_weight(view.position):
            continue
        if i % 3 == 0:
            view = with_money(view, {(p + 1) % view.n_players: int(rng.integers(0, 2))})
        got = pyramid_rivals(view, p)
        assert got >= -1e-12, (str(view.position), p, got)
        checked += 1
        positive += got > 1e-9
    assert checked >= 60 and positive >= 10


# A state where a race-ending roll is good for the next player's best option
# (leg:Y; the roll B3 carries Y over the line, first) and it stays their best
# after every other roll: the true E max - max E is 0, the figure negative.
NEGATIVE_GIFT_BOARD = "10:PR 11:w 9:k 12:G 14:BY dice:BPR"


def _negative_gift_state() -> GameState:
    state = GameState.from_board(NEGATIVE_GIFT_BOARD, players=3)
    return replace(state, players=tuple(replace(pl, overall_cards="") for pl in state.players))


def test_race_ending_roll_is_valued_on_the_order_it_leaves():
    """The state that once gave a negative gift, roll by roll."""
    state = _negative_gift_state()
    gift, dead = pyramid_gift(state, 0)
    assert dead == 2  # B3 ends the race
    # before: leg:Y, 5 * 8/9 + 1/9 = 41/9; after B1, B2, R1..R3: 5; after
    # P1, P2, P3: 13/3, 11/3, 3; after B3 the race is over with Y first: 5
    want = (2 * (5 * 5 + 5 + 13 / 3 + 11 / 3 + 3)) / 18 - 41 / 9
    assert want == pytest.approx(0.0, abs=1e-12)
    assert gift == pytest.approx(want, abs=1e-12)
    assert pyramid_rivals(state, 0) == pytest.approx(want / 2, abs=1e-12)


def test_pyramid_gift_is_not_negative_when_a_roll_ends_the_race():
    assert pyramid_rivals(_negative_gift_state(), 0) >= -1e-12


# --------------------------------------------------------------------------
# 3. tile placements: the others' held bets and the denial
# --------------------------------------------------------------------------


def tile_rivals(state: GameState, p: int) -> dict[str, tuple[float, float]]:
    """Per tile action: ``(rivals, denial)`` computed from LegOutcomes of the
    position with the tile (the advised player's own tile lifted)."""
    pos = state.position
    n = state.n_players
    q_next = (p + 1) % n
    base = LegOutcomes.of(pos)
    cards = best_card(state, p, q_next)
    before = option(best_leg_option(state, q_next, base, pos.legtiles), cards)
    others = [q for q in range(n) if q != p]
    held_now = {q: held_value(state, q, base) for q in others}
    kept = tuple(t for t in pos.tiles if t.owner != p)
    out = {}
    for action in legal_actions(state, p):
        if not action.startswith("tile:"):
            continue
        sign, space = action[5], int(action[6:])
        new = LegOutcomes.of(replace(pos, tiles=kept + (Tile(space, sign, p),)), space)
        change = sum(held_value(state, q, new) - held_now[q] for q in others)
        denial = before - option(best_leg_option(state, q_next, new, pos.legtiles), cards)
        out[action] = ((change - denial) / (n - 1), denial)
    return out


@pytest.mark.parametrize("edition, bots, seed", GAMES)
def test_tile_rivals_in_the_exact_regime(edition, bots, seed):
    states = [(v, p) for v, p in game_states(edition, bots, seed) if encode(v.position).rolls <= EXACT_ROLLS]
    rng = np.random.default_rng(seed)
    checked = moved = nonzero = held = 0
    for i, (view, p) in enumerate(states[::4][:25]):
        if i % 3 == 2:  # broke rivals: the floor binds on their bets
            view = with_money(view, {q: int(rng.integers(0, 2)) for q in range(view.n_players) if q != p})
        values = fast_values(view, p, rivals=True)
        want = tile_rivals(view, p)
        for action, (rivals, denial) in want.items():
            k = values.actions.index(action)
            where = (str(view.position), p, action)
            assert values.denial[k] == pytest.approx(denial, abs=1e-9), where
            assert values.rivals[k] == pytest.approx(rivals, abs=1e-9), where
            nonzero += abs(rivals + denial / (view.n_players - 1)) > 1e-9  # the held bets moved
        checked += 1
        moved += view.own_tile(p) is not None
        held += any(view.players[q].leg_tiles for q in range(view.n_players) if q != p)
    assert checked >= 10 and nonzero >= 5 and held >= 3
    if "random" in bots:
        assert moved >= 1  # an own tile lifted and placed elsewhere


def test_tile_rivals_constructed():
    """Rivals holding leg tiles, one broke, one partnered; the advised
    player's tile on the board (moved by a placement)."""
    board = "4:B 5:YG 7:PR 9:w 11:k +13@0 -2@3 dice:BGPx legtiles:B322,Y22,G322,R22"
    players = [PlayerState(money=1)] + [PlayerState()] * 5
    players[1] = PlayerState(money=0, leg_tiles=(("B", 5), ("Y", 3)), overall_cards="")
    players[2] = PlayerState(leg_tiles=(("Y", 5),), partner=4)
    players[4] = PlayerState(money=0, partner=2, pyramid_tiles=1)
    players[3] = PlayerState(leg_tiles=(("R", 3),))
    players[5] = PlayerState(leg_tiles=(("G", 5), ("R", 5)))
    state = GameState(board, tuple(players))
    values = fast_values(state, 0, rivals=True)
    want = tile_rivals(state, 0)
    assert len(want) >= 10
    for action, (rivals, denial) in want.items():
        k = values.actions.index(action)
        assert values.denial[k] == pytest.approx(denial, abs=1e-9), action
        assert values.rivals[k] == pytest.approx(rivals, abs=1e-9), action
    assert max(abs(r + d / 5) for r, d in want.values()) > 0.01  # the held bets moved


def test_unreached_tile_spaces_change_nothing():
    """Without an own tile on the board, a placement on a space no move of
    the leg ends on has no denial and no rivals."""
    players = (PlayerState(),) + tuple(PlayerState(leg_tiles=((c, 5),)) for c in "GPY")
    state = GameState("1:B 2:YG 3:PR 8:w 9:k dice:GPx legtiles:G322,P322,Y322", players)
    reached = LegOutcomes.of(state.position).reached
    values = fast_values(state, 0, rivals=True)
    unreached = [a for a in values.actions if a.startswith("tile:") and not reached[int(a[6:])]]
    assert unreached
    for action in unreached:
        k = values.actions.index(action)
        assert values.rivals[k] == 0.0 and values.denial[k] == 0.0
    assert np.abs(values.rivals[[values.actions.index(a) for a in values.actions
                                 if a.startswith("tile:") and a not in unreached]]).max() > 0


# --------------------------------------------------------------------------
# 4. leg tiles, overall cards, partners; rivals leaves ev and denial alone
# --------------------------------------------------------------------------


def test_leg_card_and_partner_actions():
    states = all_states(step=5)
    seen = set()
    denied = 0
    for view, p in states:
        values = fast_values(view, p, rivals=True)
        plain = fast_values(view, p, denial=True)
        np.testing.assert_array_equal(values.ev, plain.ev)
        np.testing.assert_array_equal(values.denial, plain.denial)
        n = view.n_players
        pos = view.position
        q = (p + 1) % n
        base = LegOutcomes.of(pos)
        before = None
        for k, action in enumerate(values.actions):
            kind, _, arg = action.partition(":")
            if kind in ("leg", "winner", "loser"):
                assert values.rivals[k] == -values.denial[k] / (n - 1), (str(pos), p, action)
                seen.add(kind)
                denied += values.denial[k] != 0
            if kind == "partner":
                assert values.rivals[k] == 0.0 and values.denial[k] == 0.0, action
                seen.add(kind)
            if kind == "pyramid":
                assert values.denial[k] == 0.0
            if kind == "leg":  # the denial itself, independently
                if before is None:
                    cards = best_card(view, p, q)
                    before = option(best_leg_option(view, q, base, pos.legtiles), cards)
                c = pos.racing.index(arg)
                taken = tuple(s[1:] if j == c else s for j, s in enumerate(pos.legtiles))
                after = option(best_leg_option(view, q, base, taken), cards)
                assert values.denial[k] == pytest.approx(before - after, abs=1e-9), (str(pos), p, action)
    assert seen == {"leg", "winner", "loser", "partner"}
    assert denied >= 5


def test_rivals_off_leaves_zeros():
    view, p = all_states()[7]
    values = fast_values(view, p, denial=True)
    assert not values.rivals.any()
    assert not fast_values(view, p).denial.any()


# --------------------------------------------------------------------------
# 5. the rival bot
# --------------------------------------------------------------------------


def test_rival_bot_chooses_the_best_of_ev_minus_mean_rivals():
    bot = make_bot("rival")
    assert isinstance(bot, RivalBot)
    heavy, light = RivalBot(weight=0.8), RivalBot(weight=0.1)
    rng = np.random.default_rng(0)
    differs = 0
    for view, p in all_states(step=9):
        values = fast_values(view, p, rivals=True)
        others = view.n_players - 1
        # default weight 1/(n-1) on the total = weight 1 on the mean
        assert bot.choose(view, p, rng) == values.best(rivals_weight=1.0)
        score = values.ev - values.rivals
        assert bot.choose(view, p, rng) == values.actions[int(np.argmax(score))]
        assert heavy.choose(view, p, rng) == values.best(rivals_weight=0.8 * others)
        assert light.choose(view, p, rng) == values.best(rivals_weight=0.1 * others)
        differs += values.best(rivals_weight=1.0) != values.best()
    assert differs >= 1  # the rivals figure changes some choices


def test_rival_bot_plays_whole_games():
    game = Game("second", 4, 2)
    policies = [make_bot("rival"), make_bot("advisor"), make_bot("rival"), make_bot("heuristic")]
    rngs = [np.random.default_rng([2, p]) for p in range(4)]
    while not game.finished and game.turns < 120:
        p = game.to_move
        view = game.view(p)
        action = policies[p].choose(view, p, rngs[p])
        assert action in legal_actions(view, p)
        game.apply(action)
    assert game.turns > 20
