"""The bots' fast valuation (:mod:`advisor.valuation.engine`) and its kernels
(:mod:`advisor.kernels.board.candidates`).

* In the exact regime (at most ``EXACT_ROLLS`` rolls left in the leg, no
  overall card of the advised player's own with known colour on a pile),
  ``fast_values`` equals ``best_moves`` action by action, EV and denial, when
  both use the seed of the board (states from played games of both editions,
  the players' views with the others' hands hidden, broke players, a tile
  being moved, 6-player partnerships).
* ``candidate_joint`` in sampled mode replays exactly the rolls that
  ``draw_rolls`` draws from stream ``(seed, i)``: every sampled leg, replayed
  whole by the naive reference with the candidate tile added, gives the same
  joint counts of race order and landings (this checks the shortcut of
  replaying only from the first roll that ends on the candidate's space).
  ``candidate_races`` likewise: with the later legs drawn from stream
  ``(seed, 2i + 1)``, the naive reference gives the same win / last counts.
* ``candidate_joint`` in exact mode equals ``LegOutcomes.of`` of each
  candidate's position, and its sampled mode agrees within 4 standard errors.
* ``candidate_races`` agrees with the difference of two ``race_odds`` runs
  within 4 standard errors, and a candidate no move of the leg ends on
  changes nothing.
* Outside the exact regime: sampled tile placements at a leg start agree
  with ``best_moves`` within 4 standard errors (all else exactly), and an
  own card on a pile adds exactly (A + 1) times the change of odds that
  ``candidate_races`` estimates.
* ``fast_values`` is deterministic: memo hit or not (the memo never serves
  another state's values), whatever the thread count; the ``advisor`` and
  ``denial`` bots choose its best action; a bad precision is refused.
"""

from __future__ import annotations

from dataclasses import fields, replace

import numba
import numpy as np
import pytest

import advisor.valuation.engine as fastev  # the one valuation (fast_values lives there)
from advisor import AdvisorError, GameState, PileCard, PlayerState, Tile, parse_position, race_odds
from advisor.bots.policies import make_bot
from advisor.rules.encode import encode, full_pyramid
from advisor.valuation.engine import LegOutcomes, best_moves, legal_actions, partner_options, tile_spaces
from advisor.valuation.engine import EXACT_ROLLS, FastValues, fast_values
from advisor.kernels.board.candidates import candidate_joint, candidate_races, draw_rolls
from advisor.kernels.board.leg import completions
from advisor.kernels.ranks import RANK_CODES, rank_codes
from advisor.kernels.rng import seed_stream
from played import board_seed, game_states, with_money  # noqa: E402
from naive import apply_roll, board_of, ranking, stacks_of, tiles_of

# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------






def owns_known_card(state: GameState, player: int) -> bool:
    return any(c.player == player and c.colour for c in state.winner_pile + state.loser_pile)


def in_exact_regime(state: GameState, player: int) -> bool:
    return encode(state.position).rolls <= EXACT_ROLLS and not owns_known_card(state, player)


def assert_matches_best_moves(state: GameState, player: int) -> FastValues:
    """fast_values (denial on) equals best_moves (same seed) to 1e-9."""
    fast = fast_values(state, player, denial=True)
    frame = best_moves(state, player, precision=0.02, seed=board_seed(state), denial=True)
    assert fast.actions == legal_actions(state, player)
    assert sorted(fast.actions) == sorted(frame["action"])
    ref = frame.set_index("action")
    want_ev = ref.loc[fast.actions, "ev"].to_numpy()
    want_den = ref.loc[fast.actions, "denial"].to_numpy()
    where = f"{state.position} player {player} {state.players}"
    np.testing.assert_allclose(fast.ev, want_ev, rtol=0, atol=1e-9, err_msg=where)
    np.testing.assert_allclose(fast.denial, want_den, rtol=0, atol=1e-9, err_msg=where)
    return fast




def candidates(state: GameState, player: int = 0):
    """Every legal placement of ``player``'s tile: ``(spaces, signs)``."""
    spaces = tile_spaces(state, player)
    sp = np.repeat(np.array(spaces, np.int64), 2)
    sg = np.tile(np.array([1, -1], np.int8), len(spaces))
    return sp, sg


def run_joint(enc, tiles, sp, sg, exact, samples=0, seed=0):
    orders = np.zeros((sp.size, RANK_CODES, enc.rolls + 1), np.int64)
    candidate_joint(enc.board, enc.dice, enc.rolls, tiles, sp, sg, exact, samples, seed, orders)
    return orders


def run_races(pos, base_tiles, tiles, sp, sg, samples, seed):
    enc = encode(pos)
    ed = pos.rules
    win = np.zeros((sp.size, 5), np.int64)
    lose = np.zeros((sp.size, 5), np.int64)
    candidate_races(enc.board, enc.dice, enc.rolls, base_tiles, tiles, sp, sg, samples, seed,
                    full_pyramid(ed), ed.rolls_per_leg, win, lose)
    return win, lose


# ---- the naive reference driven by the kernels' draws


def draw(dice: int, rolls: int, state: np.ndarray):
    """``draw_rolls`` from an already seeded stream ``state`` (advanced)."""
    dies = np.empty(rolls, np.int64)
    faces = np.empty(rolls, np.int64)
    draw_rolls(dice, rolls, state, dies, faces)
    return dies, faces


def stream(seed: int, number: int) -> np.ndarray:
    state = np.empty(4, np.uint64)
    seed_stream(seed, number, state)
    return state


def naive_roll(ed, die: int, face: int):
    """A kernel die index and face as the naive reference's ``(die, value,
    colour)``: racing die ``d`` is camel ``ed.dice[d]`` showing ``face + 1``;
    the grey die (5) shows colour ``face // 3`` and value ``face % 3 + 1``."""
    letter = ed.dice[die]
    if die == 5:
        return letter, face % 3 + 1, ("white", "black")[face // 3]
    return letter, face + 1, None


def naive_play(board, tiles, ed, dies, faces, track=None):
    """Play the drawn rolls in place on a naive board; ``(over, landings on
    track)``."""
    hits = 0
    for die, face in zip(dies, faces):
        letter, value, colour = naive_roll(ed, int(die), int(face))
        _, landed, over = apply_roll(board, letter, value, colour, tiles)
        hits += landed is not None and landed == track
        if over:
            return True, hits
    return False, hits


def ranks_naive(board, racing) -> list[int]:
    order = ranking(board)
    return [order.index(c) for c in racing]


def code_naive(board, racing) -> int:
    r = ranks_naive(board, racing)
    return r[0] + 5 * r[1] + 25 * r[2] + 125 * r[3]


# --------------------------------------------------------------------------
# 1. exact regime: fast_values == best_moves
# --------------------------------------------------------------------------

GAMES = [
    ("second", ["random", "heuristic", "random", "heuristic"], 11),
    ("first", ["random", "heuristic", "random"], 12),
    ("first", ["heuristic", "random", "random", "heuristic"], 3),
]


@pytest.mark.parametrize("edition, bots, seed", GAMES)
def test_exact_regime_equals_best_moves_on_played_games(edition, bots, seed):
    states = [(v, p) for v, p in game_states(edition, bots, seed) if in_exact_regime(v, p)]
    assert len(states) >= 20
    rng = np.random.default_rng(seed)
    denied = hidden = 0
    for view, p in states[::2][:30]:
        denied += bool(assert_matches_best_moves(view, p).denial.any())
        # the next player's hidden hand, partly on the piles: a real hand model
        hidden += 0 < view.hand_size((p + 1) % view.n_players) < 5
    # the money floor: the advised and the next player (nearly) broke
    for view, p in states[1::2][:15]:
        nxt = (p + 1) % view.n_players
        poor = with_money(view, {p: int(rng.integers(0, 2)), nxt: int(rng.integers(0, 2))})
        denied += bool(assert_matches_best_moves(poor, p).denial.any())
    assert denied >= 5  # the denial figures are compared, not only zeros
    assert hidden >= 5


def test_money_floor_binds_in_the_compared_states():
    """A broke player holding a sure loser: the floor changes the values, and
    the fast ones still equal best_moves."""
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:B322,Y22"
    players = [PlayerState(money=0, leg_tiles=(("B", 5), ("Y", 3))),
               PlayerState(money=0), PlayerState(), PlayerState()]
    state = GameState(board, tuple(players))
    assert_matches_best_moves(state, 0)
    fast = fast_values(state, 0)
    assert fast.ev[fast.actions.index("pyramid")] == pytest.approx(0.0, abs=1e-12)  # the floor ate the +1
    rich = with_money(state, {0: 20})
    assert fast_values(rich, 0).ev[fast.actions.index("pyramid")] == pytest.approx(1.0)


@pytest.mark.parametrize("board", [
    "1:B 2:YG 3:PR 14:w 15:k +12@0 -6@1 dice:GPRx",
    "3:B 4:Y 5:wG 6:kPR -10@0 +13@2 dice:BGPx",
    "first 2:BG 4:O 5:YW +8@0 dice:BGOY",
])
def test_moving_the_own_tile(board):
    players = [PlayerState(money=1, leg_tiles=())] + [PlayerState()] * 3
    state = GameState(board, tuple(players))
    assert state.own_tile(0) is not None and in_exact_regime(state, 0)
    assert_matches_best_moves(state, 0)
    # the tile's owner (player 0) as the next player of player 3
    assert_matches_best_moves(replace(state, to_move=3), 3)


def test_six_players_with_partners():
    board = "1:B 2:YG 3:PR 9:w 11:k +5@4 dice:GPRx legtiles:R2,G322,Y22"
    players = [PlayerState(money=2)] + [PlayerState()] * 5
    players[1] = PlayerState(money=0, leg_tiles=(("R", 3), ("Y", 5)))  # the next player, broke
    players[3] = PlayerState(leg_tiles=(("R", 5), ("G", 5)), pyramid_tiles=1)
    players[4] = PlayerState(partner=5, leg_tiles=(("Y", 3),))
    players[5] = PlayerState(partner=4, money=1)
    state = GameState(board, tuple(players))
    assert partner_options(state, 0) == [1, 2, 3]
    assert_matches_best_moves(state, 0)
    # a partnered advised player (their copy of the partner's best tile
    # counts) with a tile on the board (moving it)
    assert_matches_best_moves(replace(state, to_move=4), 4)
    # the next player partnered
    assert_matches_best_moves(replace(state, to_move=3), 3)


def test_overall_cards_of_others_on_the_piles():
    """Face-down cards of others and cards in hand (race odds from the
    board's seed) in the exact regime."""
    board = "8:B 9:YG 11:PR 13:w 15:k -5@2 dice:GPx"
    players = (PlayerState(money=1, overall_cards="BGR"), PlayerState(overall_cards="PY"), PlayerState())
    state = GameState(board, players, winner_pile=(PileCard(1), PileCard(2)), loser_pile=(PileCard(1),))
    assert in_exact_regime(state, 0)
    assert_matches_best_moves(state, 0)
    players = players[:2] + (PlayerState(money=0, overall_cards="GPRY"),)
    assert_matches_best_moves(replace(state, players=players, to_move=2), 2)


# ---- outside the exact regime


def test_leg_start_tiles_sampled_within_standard_errors():
    """At a leg start the tile placements are sampled (TILE_SAMPLES legs):
    their EVs agree with best_moves' exact ones within 4 standard errors of
    a TILE_SAMPLES mean; every other figure is still exact."""
    board = "1:B 2:YG 3:PR 9:w 11:k +7@1 legtiles:B322"
    players = (PlayerState(money=1, leg_tiles=(("B", 5),), overall_cards=""),) + (PlayerState(),) * 3
    state = GameState(board, players)
    pos = state.position
    assert encode(pos).rolls > EXACT_ROLLS
    fast = fast_values(state, 0, denial=True)
    ref = best_moves(state, 0, precision=0.02, seed=board_seed(state), denial=True).set_index("action")
    tiles = 0
    for i, action in enumerate(fast.actions):
        want = ref.loc[action]
        if not action.startswith("tile:"):
            assert fast.ev[i] == pytest.approx(want["ev"], abs=1e-9), action
            assert fast.denial[i] == pytest.approx(want["denial"], abs=1e-9), action
            continue
        space, sign = int(action[6:]), action[5]
        leg = LegOutcomes.of(replace(pos, tiles=pos.tiles + (Tile(space, sign, 0),)), space)
        settled = np.maximum(0.0, 1 + leg.landings + leg.tile_payout(0, 5))
        sd = np.sqrt(leg.prob @ (settled - leg.prob @ settled) ** 2)
        assert abs(fast.ev[i] - want["ev"]) <= 4 * sd / np.sqrt(fastev.TILE_SAMPLES) + 1e-9, action
        tiles += want["landings"] > 0
    assert tiles >= 6


def test_own_overall_cards_change_by_the_race_kernel(monkeypatch):
    """With an own known card on a pile a tile also moves the card's value:
    fast_values adds (A + 1) times the change of P(win) (P(last)) that
    candidate_races estimates, A being the card's payout when right; the
    rest equals best_moves (at most 4 rolls left: exact)."""
    import advisor.kernels.board.candidates as kernels

    calls = []
    real = kernels.candidate_races

    def spy(board, dice, rolls, base_tiles, tiles, spaces, signs, samples, *rest):
        real(board, dice, rolls, base_tiles, tiles, spaces, signs, samples, *rest)
        calls.append((base_tiles.copy(), tiles.copy(), signs.copy(), samples, rest[-2].copy(), rest[-1].copy()))

    monkeypatch.setattr(kernels, "candidate_races", spy)
    board = "12:B 13:YG 14:PR 3:w 5:k +16@0 -9@1 dice:GPRx"
    players = (PlayerState(money=2, overall_cards="GPR"), PlayerState(), PlayerState())
    state = GameState(board, players, winner_pile=(PileCard(0, "B"),), loser_pile=(PileCard(1), PileCard(0, "Y")))
    fastev._MEMO.data.clear()
    fast = fast_values(state, 0, denial=True)
    seed = board_seed(state)
    ref = best_moves(state, 0, precision=0.02, seed=seed, denial=True).set_index("action")
    race = race_odds(state.position, precision=0.02, seed=seed)
    assert len(calls) == 1
    base_tiles, tiles, signs, samples, win, lose = calls[0]
    enc = encode(state.position)
    np.testing.assert_array_equal(base_tiles, enc.tiles)
    assert tiles[16] == 0 and tiles[9] == -1 and base_tiles[16] == 1  # the own tile lifted
    q = race.lose[4]  # the unknown loser card before ours names Y with P(Y last)
    right_b, right_y = 8.0, q * 5 + (1 - q) * 8
    change = ((right_b + 1) * win[:, 0] + (right_y + 1) * lose[:, 4]) / samples
    rows = [a for a in fast.actions if a.startswith("tile:")]
    assert len(rows) == len(change) and any(change)
    for i, action in enumerate(fast.actions):
        want = ref.loc[action]
        assert fast.denial[i] == pytest.approx(want["denial"], abs=1e-9), action
        if action.startswith("tile:"):
            k = rows.index(action)
            assert signs[k] == (1 if action[5] == "+" else -1)
            leg_part = want["ev"] - want["overall_change"]
            assert fast.ev[i] == pytest.approx(leg_part + change[k], abs=1e-9), action
        else:
            assert fast.ev[i] == pytest.approx(want["ev"], abs=1e-9), action


# --------------------------------------------------------------------------
# 2. the sampled legs replay the drawn rolls correctly
# --------------------------------------------------------------------------

REPLAY_BOARDS = [
    ("3:B 4:Y 5:wG 6:kPR +9@1", 4),                 # crazy camels carrying racing camels, side by side
    ("4:B 5:GY 6:PR 9:wk +12@2 dice:BPRx", 4),      # one crazy camel on the other, mid-leg
    ("12:BG 13:PR 15:Y 10:w 11:k -8@1", 4),         # the race can end in the leg
    ("1:B 2:YG 3:PR 14:w 15:k -5@1 +9@2", 3),       # crazy camels ahead, two tiles of others
    ("first 1:BG 2:O 3:YW +5@1", 3),
    ("first 10:B 12:YG 14:OW -16@1 dice:BGOY", 3),  # the race can end in the leg
]


@pytest.mark.parametrize("board, players", REPLAY_BOARDS)
def test_candidate_joint_sampled_replays_the_drawn_rolls(board, players):
    pos = parse_position(board)
    ed = pos.rules
    enc = encode(pos)
    sp, sg = candidates(GameState.from_board(pos, players=players), 0)
    samples, seed = 250, 987654321
    got = run_joint(enc, enc.tiles, sp, sg, False, samples, seed)
    want = np.zeros_like(got)
    base_tiles = tiles_of(str(pos))
    for i in range(samples):
        dies, faces = draw(enc.dice, enc.rolls, stream(seed, i))
        for k, (space, sign) in enumerate(zip(sp, sg)):
            board_k = board_of(str(pos))
            tiles_k = {**base_tiles, int(space): "+" if sign > 0 else "-"}
            _, hits = naive_play(board_k, tiles_k, ed, dies, faces, track=int(space))
            want[k, code_naive(board_k, ed.racing), hits] += 1
    assert (got.sum(axis=(1, 2)) == samples).all()
    for k in range(sp.size):
        np.testing.assert_array_equal(got[k], want[k], err_msg=f"{board}: tile {sg[k]:+d} on {sp[k]}")
    # not vacuous: some candidate's tile is landed on
    assert got[:, :, 1:].sum() > 0


def test_draw_rolls_draws_each_die_once():
    pos = parse_position("1:B 2:YG 3:PR 14:w 15:k dice:BGPRx")  # Y (die 4) is out
    enc = encode(pos)
    seen = np.zeros((6, 6), np.int64)
    for i in range(600):
        dies, faces = draw(enc.dice, enc.rolls, stream(5, i))
        assert len(set(dies.tolist())) == enc.rolls == 4
        seen[dies, faces] += 1
    # every die of the pyramid and every face occur (racing faces 0..2, grey 0..5)
    assert (seen[[0, 1, 2, 3], :3] > 0).all() and (seen[5] > 0).all()
    assert seen[[0, 1, 2, 3], 3:].sum() == 0 and seen[4].sum() == 0


@pytest.mark.parametrize("board, players, own", [
    ("12:BG 13:PR 15:Y 10:w 11:k -8@1", 4, None),
    ("11:B 12:YG 14:PR 5:w 7:k +9@2 dice:BGPRx", 4, (16, "+")),   # the base leg has an own tile
    ("first 10:B 12:YG 14:OW -16@1 dice:BGOY", 3, (8, "-")),
])
def test_candidate_races_replays_the_drawn_rolls(board, players, own):
    """Every race of ``candidate_races``, replayed by the naive reference:
    this leg from stream (seed, 2i) with each tile set, the later legs (no
    tiles) from stream (seed, 2i + 1), restarted for every leg-end board."""
    pos = parse_position(board)
    ed = pos.rules
    enc = encode(pos)
    if own is not None:
        pos = replace(pos, tiles=pos.tiles + (Tile(own[0], own[1], 0),))
    base_enc = encode(pos)
    state = GameState(pos, (PlayerState(),) * players)
    sp, sg = candidates(state, 0)
    samples, seed = 120, 4242
    win, lose = run_races(pos, base_enc.tiles, enc.tiles, sp, sg, samples, seed)
    want_win = np.zeros_like(win)
    want_lose = np.zeros_like(lose)
    stripped = {t.space: t.sign for t in pos.tiles if t.owner != 0}
    full, full_rolls = full_pyramid(ed), ed.rolls_per_leg

    def final_ranks(tiles, dies, faces, i, cache):
        board = board_of(str(pos))
        over, _ = naive_play(board, tiles, ed, dies, faces)
        key = stacks_of(board)
        if key not in cache:
            later = stream(seed, 2 * i + 1)
            while not over:
                over, _ = naive_play(board, {}, ed, *draw(full, full_rolls, later))
            cache[key] = ranks_naive(board, ed.racing)
        return cache[key]

    for i in range(samples):
        dies, faces = draw(enc.dice, enc.rolls, stream(seed, 2 * i))
        cache: dict = {}
        r0 = final_ranks(tiles_of(str(pos)), dies, faces, i, cache)
        for k, (space, sign) in enumerate(zip(sp, sg)):
            rk = final_ranks({**stripped, int(space): "+" if sign > 0 else "-"}, dies, faces, i, cache)
            for c in range(5):
                want_win[k, c] += (rk[c] == 0) - (r0[c] == 0)
                want_lose[k, c] += (rk[c] == 4) - (r0[c] == 4)
    np.testing.assert_array_equal(win, want_win)
    np.testing.assert_array_equal(lose, want_lose)
    assert np.abs(win).sum() > 0  # not vacuous


# --------------------------------------------------------------------------
# 3. candidate_joint: exact mode and sampled mode against LegOutcomes
# --------------------------------------------------------------------------

JOINT_BOARDS = [
    ("3:B 4:Y 5:wG 6:kPR +9@1", 4),
    ("12:BG 13:PR 15:Y 10:w 11:k -8@1", 4),
    ("4:B 5:GY 6:PR 9:wk +12@2 dice:BPRx", 4),
    ("first 1:BG 2:O 3:YW +5@1", 3),
]


def outcome_table(leg: LegOutcomes, rolls: int) -> np.ndarray:
    """A LegOutcomes as probabilities [rank code, landings]."""
    r = leg.ranks
    codes = r[:, 0] + 5 * r[:, 1] + 25 * r[:, 2] + 125 * r[:, 3]
    table = np.zeros((RANK_CODES, rolls + 1))
    np.add.at(table, (codes, leg.landings), leg.prob)
    return table


@pytest.mark.parametrize("board, players", JOINT_BOARDS)
def test_candidate_joint_exact_and_sampled_against_leg_outcomes(board, players):
    pos = parse_position(board)
    enc = encode(pos)
    sp, sg = candidates(GameState.from_board(pos, players=players), 0)
    exact = run_joint(enc, enc.tiles, sp, sg, True)
    samples = 20000
    sampled = run_joint(enc, enc.tiles, sp, sg, False, samples, 31337)
    total = completions(enc.ndice, enc.rolls)
    n = np.arange(enc.rolls + 1)
    for k, (space, sign) in enumerate(zip(sp, sg)):
        where = f"{board}: tile {sg[k]:+d} on {sp[k]}"
        tile = Tile(int(space), "+" if sign > 0 else "-", 0)
        leg = LegOutcomes.of(replace(pos, tiles=pos.tiles + (tile,)), int(space))
        want = outcome_table(leg, enc.rolls)
        assert exact[k].sum() == total, where
        np.testing.assert_allclose(exact[k] / total, want, rtol=0, atol=1e-14, err_msg=where)
        # sampled within 4 standard errors: expected landings, P(each camel first)
        freq = sampled[k] / samples
        mean = (want.sum(axis=0) * n).sum()
        sd = np.sqrt((want.sum(axis=0) * (n - mean) ** 2).sum())
        assert abs((freq.sum(axis=0) * n).sum() - mean) <= 4 * sd / np.sqrt(samples) + 1e-12, where
        first = rank_codes() == 0  # [code, camel]: the camel is first
        for c in range(5):
            p = leg.rank_probs(c)[0]
            got = freq.sum(axis=1)[first[:, c]].sum()
            assert abs(got - p) <= 4 * np.sqrt(p * (1 - p) / samples) + 1e-12, (where, c, got, p)


def test_candidate_joint_samples_add_up_and_unreached_spaces():
    """A candidate no move ends on: no landings, and the race order is the
    base leg's for every sample (exact and sampled)."""
    pos = parse_position("1:B 2:YG 3:PR 8:w 9:k dice:GPx")
    enc = encode(pos)
    sp = np.array([14, 14, 15, 15], np.int64)
    sg = np.array([1, -1, 1, -1], np.int8)
    base = outcome_table(LegOutcomes.of(pos), enc.rolls)
    for exact in (True, False):
        orders = run_joint(enc, enc.tiles, sp, sg, exact, 3000, 8)
        assert orders[:, :, 1:].sum() == 0
        if exact:
            for k in range(sp.size):
                np.testing.assert_allclose(orders[k] / orders[k].sum(), base, rtol=0, atol=1e-15)
        else:
            assert (orders == orders[0]).all()


# --------------------------------------------------------------------------
# 4. candidate_races against race_odds
# --------------------------------------------------------------------------

RACE_BOARDS = [
    # (board, players, own tile of player 0 or None)
    ("13:BY 14:G 16:PR 3:w 5:k dice:GPx", 3, None),
    ("12:BG 14:PR 16:Y 7:w 10:k -5@1 dice:GPRx", 3, None),
    ("first 13:B 14:YG 15:OW dice:BGO", 3, None),
    ("first 12:BY 14:G 15:OW dice:BGO", 3, (16, "+")),
]


@pytest.mark.parametrize("board, players, own", RACE_BOARDS)
def test_candidate_races_against_race_odds(board, players, own):
    pos = parse_position(board)
    stripped = encode(pos).tiles
    if own is not None:
        pos = replace(pos, tiles=pos.tiles + (Tile(own[0], own[1], 0),))
    base_tiles = encode(pos).tiles
    state = GameState(pos, (PlayerState(),) * players)
    sp, sg = candidates(state, 0)
    batches, per = 24, 1500
    est = np.zeros((batches, 2, sp.size, 5))
    for b in range(batches):
        win, lose = run_races(pos, base_tiles, stripped, sp, sg, per, 1000 + b)
        est[b] = win / per, lose / per
    mean = est.mean(axis=0)
    se = est.std(axis=0, ddof=1) / np.sqrt(batches)
    floor = 3.0 / (batches * per)  # a change never seen in any sample is below this
    base = race_odds(pos, precision=0.005, seed=7)
    others = tuple(t for t in pos.tiles if t.owner != 0)
    moved = False
    for k, (space, sign) in enumerate(zip(sp, sg)):
        new_pos = replace(pos, tiles=others + (Tile(int(space), "+" if sign > 0 else "-", 0),))
        new = race_odds(new_pos, precision=0.005, seed=7)
        for j, (want, se_ref) in enumerate(((new.win - base.win, np.hypot(new.win_se, base.win_se)),
                                            (new.lose - base.lose, np.hypot(new.lose_se, base.lose_se)))):
            tol = 4 * np.hypot(se[j, k], se_ref) + floor
            assert (np.abs(mean[j, k] - want) <= tol).all(), (board, int(space), int(sign), j, mean[j, k], want, tol)
        moved |= bool(np.abs(new.win - base.win).max() > 0.02)
    assert moved  # some placement matters


def test_candidate_races_unreachable_space_changes_nothing():
    pos = parse_position("12:B 13:YG 14:PR 3:w 5:k dice:GPRx")
    enc = encode(pos)
    reached = LegOutcomes.of(pos).reached
    sp = np.array([15, 15, 16, 16, 8, 8, 10, 10], np.int64)
    sg = np.array([1, -1, 1, -1, 1, -1, 1, -1], np.int8)
    assert reached[15] and reached[16] and not reached[8] and not reached[10]
    win, lose = run_races(pos, enc.tiles, enc.tiles, sp, sg, 3000, 99)
    assert not win[4:].any() and not lose[4:].any()
    assert win[:4].any()  # the reachable ones do change the race
    # alone, too
    win, lose = run_races(pos, enc.tiles, enc.tiles, sp[4:], sg[4:], 3000, 99)
    assert not win.any() and not lose.any()


# --------------------------------------------------------------------------
# 5. determinism and memo
# --------------------------------------------------------------------------

def _full_state() -> GameState:
    """A leg start (sampled tiles) with an own known card on a pile (the
    candidate_races path), cards in hand and denial."""
    board = "1:B 2:YG 3:PR 9:w 11:k +5@1"
    players = (PlayerState(money=2, overall_cards="GPRY"), PlayerState(money=1, overall_cards="BGR"), PlayerState(),
               PlayerState())
    return GameState(board, players, winner_pile=(PileCard(0, "B"), PileCard(2)), loser_pile=(PileCard(1),))


def _same(a: FastValues, b: FastValues) -> None:
    assert a.actions == b.actions
    np.testing.assert_array_equal(a.ev, b.ev)
    np.testing.assert_array_equal(a.denial, b.denial)


def test_fast_values_is_deterministic_with_or_without_memo():
    state = _full_state()
    first = fast_values(state, 0, denial=True)
    _same(first, fast_values(state, 0, denial=True))
    fastev._MEMO.data.clear()
    _same(first, fast_values(state, 0, denial=True))
    # a memo filled by other states and players does not change the answer
    fastev._MEMO.data.clear()
    fast_values(replace(state, to_move=1), 1, denial=True)
    fast_values(GameState.from_board("1:B 2:YG 3:PR 9:w 11:k"), 0)
    _same(first, fast_values(state, 0, denial=True))
    # denial off changes only the denial figures
    plain = fast_values(state, 0)
    np.testing.assert_array_equal(plain.ev, first.ev)
    assert not plain.denial.any() and first.denial.any()


def test_memo_never_serves_another_states_values():
    """Boards that encode alike (the tile on 7 / 8 is the advised player's or
    player 1's, and player 0 gets the same candidate spaces either way) and
    calls at another precision, in any order, get what they get with an
    empty memo."""
    calls = []
    for board in ("2:R 3:G 4:Y 7:P 9:k 13:w 14:B +8@{} -15@2 dice:BGPRx",  # exact tile enumeration
                  "1:P 2:k 4:BG 6:w 8:R 13:Y +7@{} +11@2"):  # sampled
        for owner in (0, 1):
            state = GameState(board.format(owner), (PlayerState(overall_cards="GPR"), PlayerState(), PlayerState()),
                              winner_pile=(PileCard(0, "B"),))
            calls += [(state, 0.01), (state, 0.05)]
    fresh = []
    for state, precision in calls:
        fastev._MEMO.data.clear()
        fresh.append(fast_values(state, 0, precision=precision, denial=True))
    for i in (0, 4):  # the calls differ, so a wrong memo hit would show
        assert fresh[i].actions == fresh[i + 2].actions
        assert not np.array_equal(fresh[i].ev, fresh[i + 2].ev)
    assert not np.array_equal(fresh[4].ev, fresh[5].ev)  # race odds sampled to the precision
    for order in (range(len(calls)), reversed(range(len(calls)))):
        fastev._MEMO.data.clear()
        for i in order:
            state, precision = calls[i]
            _same(fast_values(state, 0, precision=precision, denial=True), fresh[i])


def test_fast_values_does_not_depend_on_thread_count(every_thread):
    state = _full_state()
    mid_leg = GameState("1:B 2:YG 3:PR 9:w 11:k +5@1 dice:BGRx", state.players, 0,
                        state.winner_pile, state.loser_pile)
    fastev._MEMO.data.clear()
    before = [fast_values(s, 0, denial=True) for s in (state, mid_leg)]
    saved = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        fastev._MEMO.data.clear()
        after = [fast_values(s, 0, denial=True) for s in (state, mid_leg)]
    finally:
        numba.set_num_threads(saved)
        fastev._MEMO.data.clear()
    for a, b in zip(before, after):
        _same(a, b)


# --------------------------------------------------------------------------
# 6. bots and errors
# --------------------------------------------------------------------------


def test_bots_choose_the_best_fast_value():
    advisor_bot, denial_bot = make_bot("advisor"), make_bot("denial")
    states = list(game_states("second", ["heuristic", "random", "heuristic", "random"], 21, limit=60))
    states += [(_full_state(), 0)]
    rng = np.random.default_rng(0)
    for view, p in states[::3]:
        assert advisor_bot.choose(view, p, rng) == fast_values(view, p, precision=0.02).best()
        assert denial_bot.choose(view, p, rng) == fast_values(view, p, precision=0.02, denial=True).best(0.5)


def test_best_breaks_ties_in_action_order():
    extra = {f.name: np.zeros(3) for f in fields(FastValues)}  # every figure zero ...
    values = FastValues(**{**extra, "actions": ["leg:B", "pyramid", "tile:+5"], "ev": np.array([1.0, 2.0, 2.0]),
                           "denial": np.array([0.0, 0.0, 1.0])})  # ... but these
    assert values.best() == "pyramid"
    assert values.best(1.0) == "tile:+5"


@pytest.mark.parametrize("precision", [0, 0.0, 1, 1.5, -0.1, 1e-5, True, "0.02", None])
def test_bad_precision_is_refused(precision):
    with pytest.raises(AdvisorError):
        fast_values(GameState.from_board("1:B 2:YG 3:PR 14:w 15:k dice:GPRx"), 0, precision=precision)


def test_tile_values_are_exact_differences_of_fractions():
    """``_difference``: ``a / t - a0 / t0`` of whole numbers is the float
    nearest to the exact fraction, in numpy while the products stay below
    2**52 and with Python integers beyond (large counts or money)."""
    from fractions import Fraction

    rng = np.random.default_rng(5)
    for scale in (2**10, 2**20, 2**34):
        for _ in range(300):
            totals = rng.integers(1, scale, 6)
            sums = rng.integers(0, 60, 6) * totals // 7
            total0 = int(rng.integers(1, 2**23))
            sum0 = int(rng.integers(0, 40 * total0))
            got = fastev._difference(sums, totals, sum0, total0)
            want = [float(Fraction(int(a), int(t)) - Fraction(sum0, total0)) for a, t in zip(sums, totals)]
            assert got.tolist() == want
