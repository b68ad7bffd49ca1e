"""Camel Up Cards: the bots' fast valuation (``advisor.cards.fast``) and
the shark bot's term (``advisor.cards.rival``: what a turn gains the others).

Where every leg is exact and the race ends in the leg, the fast values are
``cards_best``'s exactly (the same formulas on the same exact outcomes);
sampled, they agree with the exact values within 4 standard errors (the
spread over many seeds); the same seed gives the same values on one thread
and on two.  The others' gain is checked on a position worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor.cards import cards_best
from advisor.cards import fast
from advisor.cards.fast import cards_values, turn_values
from advisor.cards.game import CardsPlayer, CardsSetup, CardsState
from advisor.cards.rival import others_gain

#: Positions whose legs (the position's own and every race action's, with
#: the other players' actions) are exact and end the race on every branch.
EXACT = [
    "cards players:2 track:nnnh 5:B 7:GOWY deck:1 known:G1 hand:B1 hands:Y1 money:4 legtiles:G322 losers:GOWY "
    "bets:G5,lB",
    "cards players:3 track:nnnh 4:B 6:G 7:OWY deck:2 known:O1G2 hand:B1 hands:-- legtiles:O22,G322 winners:BGWY "
    "bets:G5,wO money:2",
    "cards players:3 track:nnnh 3:B 6:G 7:OWY deck:2 known:O1Y1 hand:G1 hands:?- money:5 legtiles:B22 bets:B3",
    "cards players:4 track:nnnh 4:BG 7:OWY deck:2 known:O1W2 hand:G1 hands:B1-- palm:5@1 legtiles:Y322 mid:BGOY "
    "bets:Y5,mW",
    "cards players:2 track:nnnnh 6:B 7:G 8:O 9:WY deck:2 known:W1Y1 hand:B1 hands:- money:3 legtiles:W322 bets:W5",
]


@pytest.mark.parametrize("text", EXACT)
def test_exact_values_are_cards_bests(text):
    values = turn_values(text, seed=3)
    assert all(values.exact.values()) and values.race_samples == 0 and values.legs == 0
    assert values.verified == ()  # nothing sampled, nothing to check again
    got = values.frame()
    want = cards_best(text, seed=3, objective="ev")  # the fast values are ranked by EV
    assert sorted(got.action) == sorted(want.action)
    assert dict(zip(got.action, got.ev)) == dict(zip(want.action, want.ev))
    assert list(got.action) == list(want.action)  # the same order, ties included


def _sampled_values(monkeypatch, text, seeds):
    """Fast values with every race action's leg sampled (the exact path
    off), one column per seed."""
    monkeypatch.setattr(fast, "ACTION_STATES", 0)
    frames = [cards_values(text, seed=s).set_index("action").ev for s in seeds]
    return np.array([[f[a] for f in frames] for a in frames[0].index]), list(frames[0].index)


def test_sampled_values_agree_with_the_exact_within_four_standard_errors(monkeypatch):
    # the race ends in the leg: every figure is exact but for the legs sampled
    text = EXACT[2]
    exact = cards_best(text, seed=1).set_index("action").ev
    values, actions = _sampled_values(monkeypatch, text, range(40))
    mean = values.mean(axis=1)
    se = values.std(axis=1, ddof=1) / np.sqrt(values.shape[1])
    checked = 0
    for i, a in enumerate(actions):
        if a.startswith("reveal") or a.endswith("+reveal"):
            assert se[i] == 0 and mean[i] == pytest.approx(exact[a], abs=1e-12)  # the position's own leg: exact
            continue
        assert abs(mean[i] - exact[a]) <= 4 * se[i] + 1e-12, (a, mean[i], exact[a], se[i])
        checked += se[i] > 0
    assert checked >= 10


def test_sampled_leg_start_agrees_with_cards_best(monkeypatch):
    """A mid-leg position, nothing exact: the rows that do not depend on
    the race (no overall card held or taken) against ``cards_best``'s,
    within 4 standard errors of the two spreads over seeds."""
    text = "cards players:3 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 legtiles:B322 bets:B5 money:2"
    values, actions = _sampled_values(monkeypatch, text, range(24))
    best = [cards_best(text, seed=s, precision=0.02).set_index("action").ev for s in range(4)]
    ref = np.array([[b[a] for b in best] for a in actions])
    se = np.sqrt(values.var(axis=1, ddof=1) / values.shape[1] + ref.var(axis=1, ddof=1) / ref.shape[1])
    diff = values.mean(axis=1) - ref.mean(axis=1)
    leg_rows = [i for i, a in enumerate(actions) if "winner" not in a and "loser" not in a]
    assert len(leg_rows) > 20
    for i in leg_rows:
        assert abs(diff[i]) <= 4 * se[i] + 1e-9, (actions[i], diff[i], se[i])


@pytest.mark.threads
def test_same_seed_same_values_on_one_thread_and_two(monkeypatch):
    import numba

    from advisor.cards.odds import KERNEL_MEMO
    from advisor.kernels import _jit

    text = "cards 0:BG 2:OW 3:Y deck:6 known:B1G2 hand:O1"
    monkeypatch.setattr(_jit, "THREAD_SECONDS", 0.0)  # every call on every thread
    monkeypatch.setattr(KERNEL_MEMO, "enabled", False)  # every figure computed on each thread count
    limit = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        two = cards_values(text, seed=5)
        numba.set_num_threads(1)
        one = cards_values(text, seed=5)
    finally:
        numba.set_num_threads(limit)
    assert list(one.action) == list(two.action)
    assert list(one.ev) == list(two.ev)
    other = cards_values(text, seed=6)
    assert list(other.ev) != list(one.ev)


def test_the_best_race_actions_are_valued_again_on_fresh_scenarios():
    values = turn_values("cards 0:BGOWY hand:Y2", seed=2)
    assert 1 <= len(values.verified) <= fast.VERIFY
    assert values.base_legs == fast.BASE_LEGS and values.legs > 0
    frame = values.frame()
    assert set(frame.race) >= set(values.verified)
    # the first choice is the reveal, or a race action valued twice
    assert frame.race.iloc[0] in set(values.verified) | {"reveal"}


def test_a_position_after_the_race_action_lists_the_bets_now():
    frame = cards_values("cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 next:1", seed=1)
    assert set(frame.timing) <= {"now", ""} and "pass" in set(frame.action)


# ---------------------------------------------------------------- what a turn gains the others
def _hand_state() -> CardsState:
    """Two players, track of 6 spaces: B on 5, O W Y G stacked on 6 (G on
    top); the race deck is one G1 (player 0's own face-down card); player 0
    holds B1 in hand; player 1 holds the B5 leg card and the Y winner card,
    4 coins, no hand card.  No space is free for a figure."""
    return CardsState(
        setup=CardsSetup(players=2, track="nnn"), track="nnn", sp=(5, 6, 6, 6, 6), ht=(0, 3, 0, 1, 2),
        players=(CardsPlayer(money=3, hand=("B", 1), down=(("G", 1),)),
                 CardsPlayer(money=4, leg=(("B", 5),), winner="Y")),
        legtiles=((3, 2, 2),) + ((5, 3, 2, 2),) * 4, winners="BGOW", deck=(("G", 1),), phase="turn")


def test_what_a_turn_gains_the_others_by_hand():
    """Reveal (G1): G crosses the finish: G Y W O B.  Hand (B1 on top of
    the stack at 6), then player 1 reveals G1: G carries B over the finish:
    B G Y W O.

    Player 1's bets: B5 pays -1 after a reveal and +5 after the hand card
    (+6); the Y winner card pays +3 (Y 2nd) and -1 (Y 3rd) (-4): +2.
    Player 1's best bet now (G Y W O B): the B loser card, +7 (the G
    winner card: +7 in place of their Y card's +3, +4; G's leg card +5).
    After the hand card (B G Y W O): the B winner card, +7 in place of -1,
    +8 (+1 on now); with the B winner card taken too, the O loser card +7
    (0); after a reveal they know no more than now (0); with the B loser
    card taken before it, G's leg card +5 (-2)."""
    state = _hand_state()
    values = turn_values(state.position(0), seed=1)
    assert all(values.exact.values()) and values.race_samples == 0
    gain = others_gain(values, state, 0)
    assert gain["hand"] == pytest.approx(3.0)
    assert gain["hand+winner:B"] == pytest.approx(2.0)
    assert gain["hand+loser:O"] == pytest.approx(3.0)
    assert gain["reveal"] == pytest.approx(0.0)
    assert gain["reveal+best"] == pytest.approx(0.0)  # the reveal ends the leg: no bet after it
    assert gain["loser:B+reveal"] == pytest.approx(-2.0)
    assert gain["winner:G+reveal"] == pytest.approx(0.0)
    assert set(gain) == set(values.frame().action)


def test_the_chance_of_winning_by_hand():
    """The same position: the race ends in the leg.  Player 1 has 4 coins;
    after a reveal (G Y W O B) their B5 pays -1 and their Y winner card +3:
    6 coins; after the hand card (B G Y W O) +5 and -1: 8.  Player 0 has 3:
    the G winner card (+7: 10) or G's leg card (+5: 8) after a reveal win,
    the O loser card (+3: 6) ties (half a win), nothing loses; after the
    hand card the B winner card (+7: 10) wins, B's leg card (now 3: 6)
    loses."""
    from advisor.cards.endgame import race_ends, win_chances

    state = _hand_state()
    values = turn_values(state.position(0), seed=1)
    assert race_ends(values) == 1.0
    win = win_chances(values, state, 0)
    assert win["winner:G+reveal"] == 1.0 and win["leg:G+reveal"] == 1.0
    assert win["loser:O+reveal"] == 0.5
    assert win["reveal"] == 0.0 and win["reveal+best"] == 0.0  # the reveal ends the leg: no bet after it
    assert win["hand+winner:B"] == 1.0 and win["hand+leg:B"] == 0.0 and win["hand"] == 0.0


def _going_on_state() -> CardsState:
    """Two players, a long track: B on 1, O W Y G stacked on 2 (G on top);
    the race deck is one G1 (player 0's own face-down card), so a reveal
    ends the leg with G Y W O B and the race goes on.  Player 0: 3 coins,
    B1 in hand; player 1: 4 coins, the B5 leg card."""
    return CardsState(
        setup=CardsSetup(players=2, track="nnnnnnnnn"), track="nnnnnnnnn", sp=(1, 2, 2, 2, 2), ht=(0, 3, 0, 1, 2),
        players=(CardsPlayer(money=3, hand=("B", 1), down=(("G", 1),)), CardsPlayer(money=4, leg=(("B", 5),))),
        legtiles=((3, 2, 2),) + ((5, 3, 2, 2),) * 4, deck=(("G", 1),), phase="turn")


def _phi(z: float) -> float:
    import math

    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def test_the_chance_of_winning_when_the_race_goes_on_by_hand():
    """The reveal ends the leg (G Y W O B) and not the race.  Player 1's B5
    pays -1: 3 coins.  Player 0 after a reveal alone: 3 (margin 0); with
    G's leg card (5) 8 (margin +5); with B's (3) 2 (-1); with Y's (5, Y
    2nd) 4 (+1).  With spread 4 the chances are Phi(margin / 4); with
    spread 0 (the race ended here) a lead wins, a tie is half, else 0."""
    from advisor.cards.endgame import race_ends, win_chances

    state = _going_on_state()
    values = turn_values(state.position(0), seed=1)
    assert race_ends(values) == 0.0 and values.exact["reveal"]
    win = win_chances(values, state, 0, spread=4.0)
    assert win["reveal"] == pytest.approx(0.5)
    assert win["leg:G+reveal"] == pytest.approx(_phi(5 / 4))
    assert win["leg:B+reveal"] == pytest.approx(_phi(-1 / 4))
    assert win["leg:Y+reveal"] == pytest.approx(_phi(1 / 4))
    step = win_chances(values, state, 0)
    assert step["reveal"] == 0.5 and step["leg:G+reveal"] == 1.0 and step["leg:B+reveal"] == 0.0


def test_the_margin_bot_scores_the_chance_of_winning():
    """The margin bot's score of each turn is its chance of winning with
    the spread of leg 1 (``SPREAD[0]``) plus a thousandth of its EV; here
    the G leg card before the reveal is the best of the reveals."""
    from advisor.cards.bots import MarginCardsBot
    from advisor.cards.endgame import SPREAD, spread_for, win_chances

    assert spread_for(1) == SPREAD[0] and spread_for(2) == SPREAD[1] and spread_for(9) == SPREAD[-1]
    state = _going_on_state()
    bot = MarginCardsBot()
    frame = bot.values(state, 0, 1)
    values = turn_values(state.position(0), seed=1)
    win = win_chances(values, state, 0, SPREAD[0])
    ev = dict(zip(values.frame().action, values.frame().ev))
    for action, score in zip(frame.action, frame.ev):
        assert score == pytest.approx(win[action] + 1e-3 * ev[action])
    assert dict(zip(frame.action, frame.ev))["leg:G+reveal"] == pytest.approx(_phi(5 / SPREAD[0]) + 5e-3)
    assert frame.ev.is_monotonic_decreasing


# ---------------------------------------------------------------- the kernel against the reference
@pytest.mark.parametrize("text", [
    "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1",
    "cards players:3 track:nnnnnnnh 1:B 3:GO 5:W 6:Y palm:8@0 deck:3 known:W1 hand:Y2 hands:?B1",
    "cards players:5 0:BGOWY hand:G1",
    "cards players:2 track:nnnnnh 4:BG 6:O 8:WY fennec:9@1 deck:2 known:B1 hand:W1 hands:-",
])
def test_candidate_kernel_against_the_slow_reference(text):
    from advisor.cards.advice import race_actions
    from advisor.cards.odds import kernel_state
    from advisor.cards.position import parse_cards
    from advisor.kernels.cards.turns import FENNEC, HAND, PALM, REVEAL, candidate_outcomes

    try:
        from . import naive_cards as N
        from . import naive_cards_turns as T
    except ImportError:  # pragma: no cover
        import naive_cards as N
        import naive_cards_turns as T

    pos = parse_cards(text)
    s = kernel_state(pos)
    actions = race_actions(pos)[1:]
    kinds = [REVEAL] + [HAND if a == "hand" else PALM if a.startswith("palm") else FENNEC for a in actions]
    args = [0] + [int(a.partition(":")[2] or 0) for a in actions]
    legs, races, seed = 25, 6, 12345
    leg_out = np.zeros((len(kinds), legs), np.int64)
    first_out = np.zeros(legs, np.int64)
    race_out = np.zeros((len(kinds), races), np.int64)
    candidate_outcomes(s.sp, s.ht, s.fig, s.own, s.track, s.ncards, s.known, s.pool, s.unknown, s.players, s.nxt,
                       s.hands, s.random_mask, np.array(kinds, np.int64), np.array(args, np.int64), legs, races,
                       pos.decksize, True, seed, leg_out, first_out, race_out)
    board = N.parse_board(" ".join(f"{sp}:{st}" for sp, st in pos.stacks), pos.length,
                          pos.palm[0] if pos.palm else None, pos.fennec[0] if pos.fennec else None)
    hands = [T.UNKNOWN if h == 10 else int(h) for h in s.hands]
    randoms = {p for p in range(pos.players) if (s.random_mask >> p) & 1}
    leg, first, race = T.candidate_outcomes(
        board, pos.track, [bool(x) for x in s.own], [int(x) for x in s.known], [int(x) for x in s.pool], s.unknown,
        hands, pos.players, pos.next, randoms, list(zip(kinds, args)), legs, races, pos.decksize, True, seed)
    assert leg_out.tolist() == leg
    assert first_out.tolist() == first
    assert race_out.tolist() == race
    assert len(set(leg_out[0])) > 1 and len(kinds) > 2  # the scenarios differ, and so do the candidates
