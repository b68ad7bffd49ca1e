"""Camel Up Cards: hand-worked rule examples and differential tests of the
kernels in ``advisor.kernels.cards`` against the slow reference
``naive_cards.py`` (docs/rules.md (Camel Up Cards) plus the kernel module's Rulings).

Notation in this file: ``"0:BG 3:OWY palm:4 fennec:6"`` is a board: the
start card (0) holds B and G side by side (B listed first, so B ranks last),
space 3 holds O (bottom), W, Y (top); the palm is on space 4 and the fennec
on space 6 (absent: beside the track).  Every expected state was worked out
by hand from the rules and is written out literally.

Kernel conventions: camels B G O W Y are 0..4; ``sp``/``ht`` their space and
height (start card: height = position in the list, the first listed 0);
``fig = [palm, fennec]`` with 0 = beside the track; track codes NORMAL=2,
SAND=1, HALF=3; deck card kind = 2 * camel + value - 1; race order code
``r0 + 5 r1 + 25 r2 + 125 r3``.

Cases that once caught kernel bugs: the fennec sending a unit back onto
the start card, and a figure passed by every camel on the move that ends
the race (removed, as after any other move).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from advisor.cards.position import CardsPosition, parse_cards
from advisor.errors import PositionError
from advisor.kernels.cards import track as K
from advisor.kernels.cards import exact as X

try:  # tests/ as a plain directory (pytest's default) or as a package
    from . import naive_cards as N
    from .reference_cache import reference
except ImportError:  # pragma: no cover - depends on how pytest imports
    import naive_cards as N
    from reference_cache import reference

CAMELS = "BGOWY"
TRACK_CODE = {"n": K.NORMAL, "s": K.SAND, "h": K.HALF}
LETTER = {v: k for k, v in TRACK_CODE.items()}

# ------------------------------------------------------------------ helpers
def state(text: str, length: int) -> N.Board:
    """``"0:BG 3:OWY palm:4"`` -> a reference board."""
    stacks, figs = [], {}
    for tok in text.split():
        key, value = tok.split(":")
        if key in ("palm", "fennec"):
            figs[key] = int(value)
        else:
            stacks.append(f"{key}:{value}")
    return N.parse_board(" ".join(stacks), length, figs.get("palm"), figs.get("fennec"))


def card(text: str) -> tuple[str, int]:
    return text[0], int(text[1])


def cards(text: str) -> Counter:
    """``"B1B1G2"`` -> Counter of cards."""
    return Counter(card(text[i:i + 2]) for i in range(0, len(text), 2))


def arrays(board: N.Board):
    sp = np.zeros(5, np.int64)
    ht = np.zeros(5, np.int64)
    for space, stack in board.stacks.items():
        for h, c in enumerate(stack):
            sp[CAMELS.index(c)] = space
            ht[CAMELS.index(c)] = h
    fig = np.array([board.palm or 0, board.fennec or 0], np.int64)
    return sp, ht, fig


def board_of_arrays(sp, ht, fig, length) -> N.Board:
    stacks: dict = {}
    for i in sorted(range(5), key=lambda i: (sp[i], ht[i])):
        stacks.setdefault(int(sp[i]), []).append(CAMELS[i])
    return N.Board(stacks, length, int(fig[0]) or None, int(fig[1]) or None)


def kinds(counter) -> np.ndarray:
    out = np.zeros(K.KINDS, np.int64)
    for (c, v), n in counter.items():
        out[2 * CAMELS.index(c) + v - 1] += n
    return out


def order_code(order) -> int:
    return sum(order.index(CAMELS[i]) * 5 ** i for i in range(4))


def decode(code: int) -> list[int]:
    """Rank code -> 0-based rank of each camel."""
    r = [(code // 5 ** i) % 5 for i in range(4)]
    return r + [10 - sum(r)]


# --------------------------------------------------------------------------
# a. Moves: (length, state, card, state after, race over)
# --------------------------------------------------------------------------
MOVES = [
    pytest.param(10, "1:B 3:GO 5:W 6:Y", "B2", "3:GOB 5:W 6:Y", False, id="lands-on-top-of-stack"),
    pytest.param(10, "2:BGO 4:W 6:Y", "G2", "2:B 4:WGO 6:Y", False, id="carries-camels-above"),
    pytest.param(10, "2:BGO 3:W 6:Y", "B1", "3:WBGO 6:Y", False, id="bottom-carries-whole-stack"),
    pytest.param(10, "1:B 2:GO 3:W 5:Y", "B2", "2:GO 3:WB 5:Y", False, id="plus-two-jumps-a-stack"),
    pytest.param(10, "0:BGO 1:W 3:Y", "G1", "0:BO 1:WG 3:Y", False, id="leaves-start-card-alone"),
    pytest.param(10, "0:BGO 1:W 3:Y", "B2", "0:GO 1:W 2:B 3:Y", False, id="leaves-start-card-plus-two"),
    pytest.param(10, "0:BGOWY", "Y1", "0:BGOW 1:Y", False, id="last-listed-leaves-start"),
    pytest.param(10, "1:B 2:G 4:OW 6:Y palm:3", "B2", "2:G 4:OWB 6:Y", False, id="palm-on-top-one-further"),
    pytest.param(10, "1:BG 4:O 5:W 6:Y palm:3", "B2", "4:OBG 5:W 6:Y", False, id="palm-carries-unit"),
    pytest.param(10, "1:BG 2:O 4:W 6:Y fennec:3", "B2", "2:BGO 4:W 6:Y", False, id="fennec-back-under"),
    pytest.param(10, "1:B 2:G 3:OW 6:Y fennec:4", "O1", "1:B 2:G 3:OW 6:Y", False,
                 id="fennec-back-to-own-space-under-nobody"),
    pytest.param(10, "2:B 3:GO 6:W 7:Y fennec:4", "B2", "3:BGO 6:W 7:Y", False,
                 id="fennec-back-under-a-stack"),
    pytest.param(10, "1:B 5:G 6:O 7:W 8:Y palm:2 fennec:3", "B1", "2:B 5:G 6:O 7:W 8:Y", False,
                 id="palm-then-fennec-chain"),
    pytest.param(10, "1:BG 5:O 6:W 7:Y palm:2 fennec:3", "B2", "3:BG 5:O 6:W 7:Y", False,
                 id="fennec-then-palm-chain"),
    pytest.param(10, "1:B 3:G 4:O 5:W 6:Y palm:2", "B2", "3:GB 4:O 5:W 6:Y", False,
                 id="figure-passed-by-all-removed"),
    pytest.param(10, "1:B 2:G 4:O 5:W 6:Y fennec:3", "B1", "2:GB 4:O 5:W 6:Y fennec:3", False,
                 id="figure-not-yet-passed-stays"),
    pytest.param(10, "2:GB 4:O 5:W 6:Y fennec:3", "G2", "4:OGB 5:W 6:Y", False,
                 id="passing-over-figure-no-effect-then-removed"),
    pytest.param(10, "1:B 2:G 6:O 7:W 8:Y palm:3 fennec:9", "G2", "1:B 4:G 6:O 7:W 8:Y palm:3 fennec:9", False,
                 id="passing-over-figures-no-effect"),
    pytest.param(6, "2:Y 3:W 4:BG 5:O palm:6", "B2", "2:Y 3:W 5:O 7:BG", True, id="palm-on-last-space-finishes"),
    pytest.param(6, "2:Y 3:W 4:O 5:B 6:G", "B2", "2:Y 3:W 4:O 6:G 7:B", True, id="exactly-length-plus-one-ends"),
    pytest.param(6, "2:Y 3:W 4:O 5:B 6:G", "B1", "2:Y 3:W 4:O 6:GB", False, id="last-space-does-not-end"),
    pytest.param(6, "2:Y 3:W 4:O 5:B 6:G", "G2", "2:Y 3:W 4:O 5:B 8:G", True, id="beyond-finish-ends"),
    pytest.param(6, "2:Y 3:W 4:O 6:BG", "B1", "2:Y 3:W 4:O 7:BG", True, id="stack-crosses-finish"),
    # the fennec sends a unit back onto the start card: ranked behind those there
    pytest.param(10, "0:BG 2:O 3:W 4:Y fennec:1", "G1", "0:GB 2:O 3:W 4:Y", False,
                 id="fennec-back-onto-start-card"),
    pytest.param(10, "0:BG 2:O 3:W 4:Y fennec:1 palm:5", "G1", "0:GB 2:O 3:W 4:Y palm:5", False,
                 id="fennec-back-onto-start-card-palm-on-track"),
    pytest.param(10, "0:B 2:G 3:O 4:W 5:Y fennec:1", "B1", "0:B 2:G 3:O 4:W 5:Y", False,
                 id="fennec-back-onto-empty-start-card"),
    # every camel passes a figure on the move that ends the race
    pytest.param(2, "1:BGOWY fennec:2", "B2", "3:BGOWY", True,
                 id="figure-passed-on-finishing-move"),
    pytest.param(3, "1:BGOWY fennec:2 palm:3", "B2", "4:BGOWY", True,
                 id="figure-passed-via-palm-on-finishing-move"),
]


def _unmarked(params):
    return [pytest.param(*p.values, id=p.id) for p in params]


@pytest.mark.parametrize("length,before,what,after,over", _unmarked(MOVES))
def test_move_reference(length, before, what, after, over):
    """The reference reproduces every hand-worked move."""
    camel, dist = card(what)
    start = state(before, length)
    got, got_over = N.move(start, camel, dist)
    assert got == state(after, length), (got, after)
    assert got_over is over
    assert start == state(before, length)  # not changed in place


@pytest.mark.parametrize("length,before,what,after,over", MOVES)
def test_move_kernel(length, before, what, after, over):
    """The kernel reproduces every hand-worked move, heights included."""
    camel, dist = card(what)
    sp, ht, fig = arrays(state(before, length))
    got_over = K.move(sp, ht, fig, length, CAMELS.index(camel), dist)
    want_sp, want_ht, want_fig = arrays(state(after, length))
    assert (sp.tolist(), ht.tolist(), fig.tolist()) == (want_sp.tolist(), want_ht.tolist(), want_fig.tolist())
    assert bool(got_over) is over


RANKINGS = [
    ("1:B 2:G 3:O 4:W 5:Y", "YWOGB"),
    ("3:BGO 5:W 7:Y", "YWOGB"),
    ("0:BGO 2:WY", "YWOGB"),
    ("0:OBG 1:YW", "WYGBO"),
    ("0:BGOWY", "YWOGB"),
    ("7:GB 3:OWY", "BGYWO"),
]


@pytest.mark.parametrize("text,order", RANKINGS)
def test_ranking(text, order):
    """Further first, then higher; start card: the first listed is last."""
    board = state(text, 10)
    assert "".join(N.ranking(board)) == order
    sp, ht, _ = arrays(board)
    assert decode(int(K.rank_code(sp, ht))) == [order.index(c) for c in CAMELS]


def test_figure_spaces_kernel():
    """Legal figure spaces: empty, not the other figure's, strictly ahead of
    the last camel, 1..length (start card never)."""
    out = np.zeros(64, np.int64)
    sp, _, fig = arrays(state("2:B 4:GO 7:WY fennec:5", 8))
    n = K.figure_spaces(sp, fig, 8, out)
    assert out[:n].tolist() == [3, 6, 8]
    sp, _, fig = arrays(state("0:BG 2:OWY", 4))
    n = K.figure_spaces(sp, fig, 4, out)
    assert out[:n].tolist() == [1, 3, 4]


# --------------------------------------------------------------------------
# b. Leg start: (track, state, track after, state after)
# --------------------------------------------------------------------------
LEG_STARTS = [
    # cards 3-4 and 7-8 are empty and strictly between B (2) and Y (12): sand;
    # 1-2 holds the last camel, 5-6 holds G, 9-10 holds OW, 11-12 the leader,
    # 13-16 lie ahead of the leader.  Camels ahead renumbered; palm goes off.
    pytest.param("nnnnnnnn", "2:B 5:G 9:OW 12:Y palm:10", "nsnsnnnn", "2:B 4:G 7:OW 10:Y", id="sand-between"),
    # the last camel on 3: card 1-2 (behind it) and 3-4 (its own) stay; 5-6 and
    # 7-8 flip; the leader on 9 has its own card 9-10 (10 empty) kept; 11-12 ahead
    pytest.param("nnnnnnn", "3:BG 9:OWY fennec:5", "nnssnnn", "3:BG 7:OWY", id="sand-not-behind-last-nor-leader-card"),
    # the leader on space 11 (first space of card 11-12): 7-8 and 9-10 flip,
    # 3-4 (the last camel's) and 5-6 (G) stay
    pytest.param("nnnnnnnn", "4:B 5:G 11:OWY", "nnnssnnn", "4:B 5:G 9:OWY", id="sand-right-behind-leader"),
    # the empty cards right after the last camel's card and right before the
    # leader's card both flip
    pytest.param("nnnnnnnn", "2:BGO 7:WY", "nssnnnnn", "2:BGO 5:WY", id="sand-adjacent-cards"),
    # camels on the start card: the last is at 0, so card 1-2 flips too
    pytest.param("nnnnnnnn", "0:BG 5:O 6:W 9:Y", "ssnsnnnn", "0:BG 3:O 4:W 6:Y", id="sand-last-on-start-card"),
    # a sandstorm card already there stays, and counts for the numbering
    # (spaces: 1-2, 3 sand, 4-5, 6-7, 8-9, ...): 4-5 flips, 6-7 holds G
    pytest.param("nsnnnnnn", "1:B 6:G 8:OWY", "nssnnnnn", "1:B 5:G 7:OWY", id="sand-with-earlier-sand"),
    # nothing to flip: all cards between hold camels
    pytest.param("nnnnnnnn", "1:B 3:G 5:O 7:W 9:Y", "nnnnnnnn", "1:B 3:G 5:O 7:W 9:Y", id="sand-none"),
    # extension with a trailing half card: 15 spaces, leader on 14 (1 ahead):
    # the half card becomes normal (+1) and a new half card is added (+1)
    pytest.param("nnnnnnnh", "10:B 11:G 12:O 13:W 14:Y", "nnnnnnnnh", "10:B 11:G 12:O 13:W 14:Y", id="extend-half"),
    # 15 spaces, leader on 13 (2 ahead): the half card becomes normal
    pytest.param("nnnnnnnh", "12:BGOW 13:Y", "nnnnnnnn", "12:BGOW 13:Y", id="extend-half-by-one"),
    # 14 spaces, leader on 13: one normal card added
    pytest.param("nnnnnnn", "12:BGOW 13:Y", "nnnnnnnn", "12:BGOW 13:Y", id="extend-normal"),
    # 14 spaces, leader on 14: one normal card and a half card
    pytest.param("nnnnnnn", "13:BGOW 14:Y", "nnnnnnnnh", "13:BGOW 14:Y", id="extend-normal-and-half"),
    # 14 spaces, leader on 12 (2 ahead): a half card added
    pytest.param("nnnnnnn", "12:BGOWY", "nnnnnnnh", "12:BGOWY", id="extend-one-half"),
    # 3 or more spaces ahead: nothing
    pytest.param("nnnnnnnh", "12:BGOWY", "nnnnnnnh", "12:BGOWY", id="no-extension-three-ahead"),
    pytest.param("nnnnnnnh", "9:BGOW 11:Y", "nnnnnnnh", "9:BGOW 11:Y", id="no-extension-four-ahead"),
    # sandstorm first shortens the track: 5 cards flip, leader 13 -> 8 on an
    # 9-space track (1 ahead): one normal card added
    pytest.param("nnnnnnn", "1:B 13:GOWY", "nsssssnn", "1:B 8:GOWY", id="sand-then-extend"),
]


@pytest.mark.parametrize("track,before,track_after,after", LEG_STARTS)
def test_leg_start_reference(track, before, track_after, after):
    length = N.track_length(track)
    got, new_track = N.leg_start(state(before, length), track)
    assert new_track == track_after
    assert got == state(after, N.track_length(track_after))


@pytest.mark.parametrize("track,before,track_after,after", LEG_STARTS)
def test_leg_start_kernel(track, before, track_after, after):
    length = N.track_length(track)
    board = state(before, length)
    sp, ht, fig = arrays(board)
    tr = np.zeros(K.MAX_CARDS, np.int64)
    tr[:len(track)] = [TRACK_CODE[c] for c in track]
    ncards, new_length = K.leg_start(sp, ht, fig, tr, len(track))
    assert "".join(LETTER[int(c)] for c in tr[:ncards]) == track_after
    assert new_length == N.track_length(track_after) == K.track_length(tr, ncards)
    want_sp, want_ht, _ = arrays(state(after, new_length))
    assert sp.tolist() == want_sp.tolist()
    assert ht.tolist() == want_ht.tolist()
    assert fig.tolist() == [0, 0]


# --------------------------------------------------------------------------
# Hand-worked legs (reference only; the kernel is compared in c.)
# --------------------------------------------------------------------------
def test_leg_distribution_hand_worked_known_cards():
    """1:B 2:G 3:O 4:W 5:Y, length 6, deck {B2, Y2} (both known):
    B2 first (1/2): B lands on O (3:OB), then Y2 reaches 7: over, Y W B O G.
    Y2 first (1/2): Y reaches 7 at once: over, Y W O G B."""
    dist, figures = N.leg_distribution(state("1:B 2:G 3:O 4:W 5:Y", 6), cards("B2Y2"), {}, 0)
    assert dist == {
        (("B", 2), True, tuple("YWBOG")): N.Fraction(1, 2),
        (("Y", 2), True, tuple("YWOGB")): N.Fraction(1, 2),
    }
    assert figures == {}


def test_leg_distribution_hand_worked_unknown_card():
    """1:B 2:G 3:O 4:W 5:Y palm:6, length 8, one unknown card from the pool
    {B1, B1, Y1}: B1 (2/3) -> 2:GB, palm stays; Y1 (1/3) -> Y on the palm,
    on to 7: not over (length 8), palm gone."""
    dist, figures = N.leg_distribution(state("1:B 2:G 3:O 4:W 5:Y palm:6", 8), {}, cards("B1B1Y1"), 1)
    assert dist == {
        (("B", 1), False, tuple("YWOBG")): N.Fraction(2, 3),
        (("Y", 1), False, tuple("YWOGB")): N.Fraction(1, 3),
    }
    assert figures == {(("B", 1), "palm"): N.Fraction(2, 3)}


def test_leg_distribution_hand_worked_mixed():
    """4:B 6:G 7:O 8:W 9:Y, length 10, known {G1}, one unknown from {O1, O2}:
    deck {G1, O1} or {G1, O2} (1/2 each), each order 1/2.
    G1 O1: 7:OG, then O carries G to 8 on W: 8:WOG; Y (9) leads: Y G O W B.
    O1 G1: 8:WO, then G to 7: Y O W G B.
    G1 O2: 7:OG, O+2 with G to 9 on Y: 9:YOG: G O Y W B.
    O2 G1: O to 9 on Y: 9:YO; G to 7: O Y W G B."""
    dist, _ = N.leg_distribution(state("4:B 6:G 7:O 8:W 9:Y", 10), cards("G1"), cards("O1O2"), 1)
    q = N.Fraction(1, 4)
    assert dist == {
        (("G", 1), False, tuple("YGOWB")): q,
        (("O", 1), False, tuple("YOWGB")): q,
        (("G", 1), False, tuple("GOYWB")): q,
        (("O", 2), False, tuple("OYWGB")): q,
    }


# --------------------------------------------------------------------------
# c. leg_counts (the merged exact leg) against the reference
# --------------------------------------------------------------------------
FULL = N.full_deck()


def minus(a: Counter, b: Counter) -> Counter:
    out = Counter(a)
    out.subtract(b)
    return +out


# (length, state, known cards, pool or None = the full deck minus the known
#  cards, unknown)
LEGS = [
    pytest.param(16, "1:B 2:G 3:O 4:W 5:Y", "B1G2O1", None, 0, id="known-only-3"),
    pytest.param(16, "1:B 2:G 3:O 4:W 5:Y", "", None, 3, id="unknown-only-3"),
    pytest.param(16, "2:BG 4:OWY palm:3", "B1W1", None, 2, id="palm-mixed"),
    pytest.param(16, "0:BGO 2:W 3:Y palm:6 fennec:4", "G2O1B1", None, 1, id="start-card-figures"),
    pytest.param(15, "0:BGOWY", "", None, 4, id="all-on-start-card"),
    pytest.param(15, "12:B 13:GO 14:WY", "W2B2Y1", None, 2, id="race-can-end"),
    pytest.param(15, "10:B 11:G 12:O 13:W 14:Y palm:15", "Y1W1O2", None, 2, id="palm-on-last-space"),
    pytest.param(16, "1:B 2:G 5:O 6:W 7:Y palm:3 fennec:4", "B1B2G1G2", None, 1, id="palm-fennec-adjacent"),
    pytest.param(16, "1:BG 2:O 6:WY palm:4 fennec:3", "", None, 4, id="fennec-palm-adjacent"),
    pytest.param(8, "3:BGOWY fennec:5", "B1G1O2W1Y2", None, 0, id="known-only-5-one-stack"),
    pytest.param(10, "4:B 5:G 6:O 7:W 8:Y fennec:9", "", "B1B1B1B1B1B2G1G1G1G2", 5, id="unknown-only-5-small-pool"),
    pytest.param(9, "0:BG 1:O 3:W 6:Y palm:2 fennec:5", "Y2O1", None, 3, id="mixed-start-figures"),
    pytest.param(8, "5:B 6:G 7:OWY fennec:8", "", None, 1, id="one-unknown-card"),
    pytest.param(6, "0:BGO 3:W 5:Y palm:4", "O2", None, 1, id="deck-of-two-start-card"),
    pytest.param(7, "3:B 4:GO 6:WY fennec:5", "W1", "W1G2", 1, id="deck-of-two-known-and-unknown"),
    pytest.param(8, "5:B 6:G 7:OWY fennec:8", "Y2", None, 0, id="one-known-card-ends-race"),
    pytest.param(16, "11:B 13:GO 14:W 15:Y fennec:16", "B1W2O1", None, 1, id="fennec-before-finish"),
    pytest.param(16, "13:BG 14:OW 16:Y palm:15", "G1O1W2", None, 2, id="palm-before-finish"),
    pytest.param(15, "12:BGOWY palm:13 fennec:14", "B2", None, 3, id="one-stack-near-finish"),
    pytest.param(9, "2:B 4:G 5:O 7:W 8:Y palm:9", "Y1W1", None, 3, id="sand-track-palm-last"),
    pytest.param(12, "3:B 4:G 5:O 6:W 7:Y fennec:8", "B1G1", "B2G2O2W2Y2", 3, id="pool-of-twos"),
    pytest.param(12, "1:B 3:GOWY palm:2", "B1B1B1", None, 2, id="repeated-known"),
    pytest.param(6, "0:B 2:GOW 4:Y palm:5", "W2G2", None, 2, id="short-track-start-card"),
    pytest.param(10, "0:BG 2:O 3:W 4:Y fennec:1", "G1O1", None, 0, id="fennec-onto-start-card"),
    pytest.param(15, "14:BGOWY fennec:15", "B2W1", None, 0, id="figure-passed-at-finish"),
    # the same arising in play: Y, B+G+O, W gather on 15 under the fennec on
    # 16 and the stack finishes together
    pytest.param(16, "13:BGO 14:W 15:Y fennec:16", "B2W2O1", None, 2, id="figure-passed-at-finish-in-play"),
]


def outcomes(known: Counter, pool: Counter, unknown: int) -> int:
    """The equally likely outcomes of the kernel's counting convention,
    worked out independently: n! / (u! k_1! k_2! ...) placements of the
    known kinds among the unknown cards, times P (P-1) ... (P-u+1) ordered
    draws of the unknown ones from the P unseen cards."""
    n = sum(known.values()) + unknown
    out = math.factorial(n) // math.factorial(unknown)
    for k in known.values():
        out //= math.factorial(k)
    return out * math.perm(sum(pool.values()), unknown)


def kernel_leg(length, board, known, pool, unknown, by_first=True, top=X.MOMENT_CARDS):
    """``(outcomes, codes[first, end, code], figs[first, figure])``: the
    merged kernel's int64 counts (deck states folded into moment vectors
    with ``top`` unknown cards left)."""
    sp, ht, fig = arrays(board)
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    states = np.full(sum(known.values()) + unknown, -1, np.int64)
    args = (sp, ht, fig, length, kinds(known), kinds(pool), unknown, by_first, codes, figs, states, -1)
    # as the package calls it (``top`` and ``chunk`` left at their defaults),
    # else every argument given, as kernel_leg_threads does: two compiled
    # versions of the kernel in all, not one per set of arguments left out
    total = X.leg_counts(*args) if top == X.MOMENT_CARDS else X.leg_counts(*args, top, X.CHUNK_WORK)
    assert states.min() >= 0 and states[-1] == 0  # nothing is kept after the last card
    return total, codes, figs


def reference_leg(board, known, pool, unknown, total):
    """The reference's exact probabilities as counts of ``total`` outcomes
    (each must be a whole number)."""
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    whole = N.Fraction(0)
    for ((c, v), over, palm, fennec, order), p in N.leg_outcomes(board, known, pool, unknown).items():
        kind = 2 * CAMELS.index(c) + v - 1
        count = p * total
        assert count.denominator == 1, (p, total)
        codes[kind, over + 2 * palm + 4 * fennec, order_code(order)] += int(count)
        figs[kind, 0] += int(count) * palm
        figs[kind, 1] += int(count) * fennec
        whole += p
    assert whole == 1
    return codes, figs


def leg_inputs(length, text, known, pool, unknown):
    board = state(text, length)
    known = cards(known)
    pool = minus(FULL, known) if pool is None else cards(pool)
    return board, known, pool, unknown


@reference
def reference_counts(length, text, known, pool, unknown):
    """:func:`reference_leg` of a leg written as in ``LEGS``, as counts of
    all its outcomes (frozen in ``golden/references.json`` for the legs
    declared below)."""
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    return reference_leg(board, known, pool, unknown, outcomes(known, pool, unknown))


def assert_same_as_reference(length, text, known, pool, unknown):
    want_codes, want_figs = reference_counts(length, text, known, pool, unknown)
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    total, codes, figs = kernel_leg(length, board, known, pool, unknown)
    assert total == outcomes(known, pool, unknown)
    assert np.array_equal(codes, want_codes)
    assert np.array_equal(figs, want_figs)
    assert codes.sum() == total
    # without the first card: the same counts, all under kind 0
    total0, codes0, figs0 = kernel_leg(length, board, known, pool, unknown, by_first=False)
    assert total0 == total
    assert np.array_equal(codes0[0], codes.sum(axis=0)) and not codes0[1:].any()
    assert np.array_equal(figs0[0], figs.sum(axis=0)) and not figs0[1:].any()
    # folding the unseen cards drawn into moment vectors at any point (0: only
    # once no unknown card is left) gives the same integers
    for top in range(4):
        if top != X.MOMENT_CARDS:
            assert_same_counts(kernel_leg(length, board, known, pool, unknown, top=top), (total, codes, figs))


def assert_same_counts(got, want):
    assert got[0] == want[0]
    assert np.array_equal(got[1], want[1])
    assert np.array_equal(got[2], want[2])


@pytest.mark.parametrize("length,text,known,pool,unknown", LEGS)
def test_leg_counts_match_reference(length, text, known, pool, unknown):
    assert 1 <= sum(cards(known).values()) + unknown <= 5
    assert_same_as_reference(length, text, known, pool, unknown)


# Bigger legs, still within the reference's reach (10-30 s each).
BIG_LEGS = [
    pytest.param(19, "0:BGOWY", "", None, 6, id="game-start-6-unknown"),
    pytest.param(12, "5:BG 7:O 8:WY palm:9 fennec:10", "G2W1", None, 4, id="both-figures-6-cards"),
    pytest.param(14, "0:BG 9:O 10:WY fennec:12", "B1B1O1", None, 4, id="race-can-end-7-cards"),
]


@pytest.mark.parametrize("length,text,known,pool,unknown", BIG_LEGS)
def test_big_leg_counts_match_reference(length, text, known, pool, unknown):
    assert_same_as_reference(length, text, known, pool, unknown)


# Legs too big for the reference: against the former depth-first kernel
# (float probabilities of every card sequence, ``dfs_cards.py``).
DFS_LEGS = [
    pytest.param(19, "0:BGOWY", "", None, 7, id="game-start-7-unknown"),
    pytest.param(16, "0:B 2:OW 4:GY palm:7", "B1", None, 6, id="mid-leg-palm-7-cards"),
    pytest.param(15, "2:B 3:GO 6:W 7:Y fennec:5 palm:9", "O2Y1", None, 5, id="figures-7-cards"),
    pytest.param(13, "6:BG 8:OW 9:Y palm:11", "B2G1W1", None, 5, id="race-ends-8-cards"),
]


@reference(depends=("tests/dfs_cards.py", "advisor/kernels/cards/track.py"))
def depth_first_leg(length, text, known, pool, unknown):
    """``(codes, figs)`` probabilities of the former depth-first kernel
    (tests/dfs_cards.py; frozen in ``golden/references.json`` for ``DFS_LEGS``)."""
    try:
        from . import dfs_cards
    except ImportError:  # pragma: no cover - depends on how pytest imports
        import dfs_cards
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    sp, ht, fig = arrays(board)
    want = np.zeros((K.KINDS, 8, K.CODES))
    want_figs = np.zeros((K.KINDS, 2))
    dfs_cards.leg_dfs(sp, ht, fig, length, kinds(known), kinds(pool), unknown, want, want_figs)
    return want, want_figs


depth_first_leg.freeze(p.values for p in DFS_LEGS)


@pytest.mark.parametrize("length,text,known,pool,unknown", DFS_LEGS)
def test_bigger_leg_counts_match_depth_first_search(length, text, known, pool, unknown):
    want, want_figs = depth_first_leg(length, text, known, pool, unknown)
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    total, codes, figs = kernel_leg(length, board, known, pool, unknown)
    assert total == outcomes(known, pool, unknown) and codes.sum() == total
    # the search sums millions of float products: rounding of order 1e-13
    assert np.abs(codes / total - want).max() < 1e-11
    assert np.abs(figs / total - want_figs).max() < 1e-11
    assert codes[:, 1::2].any() == (want[:, 1::2].sum() > 0)


# Legs of 8 cards: against the former merged kernel (every unseen card drawn
# kept apart in the states, ``pairs_cards.py``), integer for integer.
PAIRS_LEGS = [
    pytest.param(19, "0:BGOWY", "", None, 8, id="game-start-8-unknown"),
    pytest.param(16, "0:B 2:OW 4:GY palm:7", "B1", None, 7, id="mid-leg-palm-8-cards"),
    pytest.param(15, "2:B 3:GO 6:W 7:Y fennec:5 palm:9", "O2Y1G1", None, 5, id="figures-8-cards"),
    pytest.param(12, "4:BGOWY fennec:9", "W2B1", None, 6, id="one-stack-race-can-end-8-cards"),
]


@reference(depends=("tests/pairs_cards.py", "tests/dfs_cards.py", "advisor/kernels/cards/track.py",
                    "advisor/kernels/cards/deck.py"))
def former_merged_leg(length, text, known, pool, unknown, by_first):
    """``(total, codes, figs)`` of the former merged kernel (tests/pairs_cards.py;
    frozen in ``golden/references.json`` for ``PAIRS_LEGS``)."""
    try:
        from . import pairs_cards
    except ImportError:  # pragma: no cover - depends on how pytest imports
        import pairs_cards
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    sp, ht, fig = arrays(board)
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    states = np.zeros(sum(known.values()) + unknown, np.int64)
    total = pairs_cards.pairs_leg_counts(sp, ht, fig, length, kinds(known), kinds(pool), unknown, by_first,
                                         codes, figs, states)
    return total, codes, figs


former_merged_leg.freeze(p.values + (by_first,) for p in PAIRS_LEGS for by_first in (True, False))


@pytest.mark.parametrize("length,text,known,pool,unknown", PAIRS_LEGS)
def test_leg_counts_match_former_merged_kernel(length, text, known, pool, unknown):
    leg = (length, text, known, pool, unknown)
    board, known, pool, unknown = leg_inputs(*leg)
    for by_first in (True, False):
        want, want_codes, want_figs = former_merged_leg(*leg, by_first)
        assert want == outcomes(known, pool, unknown)
        for top in (X.MOMENT_CARDS, 0, 3):
            assert_same_counts(kernel_leg(length, board, known, pool, unknown, by_first, top),
                               (want, want_codes, want_figs))


# Any thread count and any cut of a level into parallel chunks (``chunk`` 1:
# as many chunks as a level allows) give the same integers.
THREADED_LEGS = ["palm-mixed", "start-card-figures", "race-can-end", "mixed-start-figures", "repeated-known",
                 "figure-passed-at-finish-in-play", "unknown-only-5-small-pool"]


def kernel_leg_threads(length, board, known, pool, unknown, by_first, threads, chunk):
    import numba

    saved = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        sp, ht, fig = arrays(board)
        codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
        figs = np.zeros((K.KINDS, 2), np.int64)
        states = np.zeros(sum(known.values()) + unknown, np.int64)
        total = X.leg_counts(sp, ht, fig, length, kinds(known), kinds(pool), unknown, by_first, codes, figs,
                             states, -1, X.MOMENT_CARDS, chunk)
        return total, codes, figs, states
    finally:
        numba.set_num_threads(saved)


@pytest.mark.parametrize("name", THREADED_LEGS)
def test_leg_counts_same_on_any_threads_and_chunks(name, every_thread):
    length, text, known, pool, unknown = LEG_BY_ID[name]
    want_codes, want_figs = reference_counts(length, text, known, pool, unknown)
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    total = outcomes(known, pool, unknown)
    for threads in (1, 2, 3):
        for chunk in (X.CHUNK_WORK, 1, 3):
            got = kernel_leg_threads(length, board, known, pool, unknown, True, threads, chunk)
            assert_same_counts(got[:3], (total, want_codes, want_figs))


@pytest.mark.parametrize("length,text,known,pool,unknown", PAIRS_LEGS[1:])
def test_bigger_leg_counts_same_on_any_threads_and_chunks(length, text, known, pool, unknown, every_thread):
    """8-card decks with known cards and figures: against the former merged
    kernel, integer for integer, on 1 and 2 threads, in few and many chunks."""
    leg = (length, text, known, pool, unknown)
    board, known, pool, unknown = leg_inputs(*leg)
    for by_first in (True, False):
        want, want_codes, want_figs = former_merged_leg(*leg, by_first)
        runs = [kernel_leg_threads(length, board, known, pool, unknown, by_first, threads, chunk)
                for threads in (1, 2) for chunk in (X.CHUNK_WORK, 1, 50)]
        for got in runs:
            assert_same_counts(got[:3], (want, want_codes, want_figs))
            assert np.array_equal(got[3], runs[0][3])  # the same states per card


def test_whole_unknown_deck_exact_agrees_with_sampling():
    """A leg start with the whole 12-card deck unknown, counted exactly,
    against 200,000 sampled legs: every camel's rank probabilities, the
    race-over probability, within 4 standard errors."""
    board, known, pool, unknown = leg_inputs(19, "0:BGOWY", "", None, 12)
    sp, ht, fig = arrays(board)
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    states = np.zeros(12, np.int64)
    total = X.leg_counts(sp, ht, fig, 19, kinds(known), kinds(pool), unknown, False, codes, figs, states, -1)
    assert total == outcomes(known, pool, unknown) == codes.sum()
    assert states.max() > 1_000_000 and states[-1] == 0
    exact = codes / total
    samples = 200_000
    counts = np.zeros((K.KINDS, 8, K.CODES))
    sfigs = np.zeros((K.KINDS, 2))
    K.leg_sample(sp, ht, fig, 19, kinds(known), kinds(pool), unknown, samples, 2024, counts, sfigs)
    p = camel_ranks(exact)
    q = camel_ranks(counts) / samples
    se = np.sqrt(p * (1 - p) / samples)
    assert (np.abs(q - p) <= 4 * se + 1e-12).all(), (p, q)
    over = exact[:, 1::2].sum()
    assert abs(counts[:, 1::2].sum() / samples - over) <= 4 * math.sqrt(over * (1 - over) / samples) + 1e-12


def test_leg_counts_gives_up_beyond_its_state_limit():
    """A whole unknown 12-card deck on one stack: the states grow about
    sixfold per card, so a limit of 100,000 is seen to be exceeded early
    (-1); the same deck on a short track within a generous limit is counted."""
    board, known, pool, unknown = leg_inputs(17, "2:BGOWY", "", None, 12)
    sp, ht, fig = arrays(board)
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    states = np.zeros(12, np.int64)
    assert X.leg_counts(sp, ht, fig, 17, kinds(known), kinds(pool), unknown, False, codes, figs, states,
                        100_000) == -1
    assert 0 < states.max() <= 100_000  # given up before keeping more
    board, known, pool, unknown = leg_inputs(16, "0:B 2:OW 4:GY palm:7", "B1", None, 5)
    want = kernel_leg(16, board, known, pool, unknown)
    sp, ht, fig = arrays(board)
    codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
    figs = np.zeros((K.KINDS, 2), np.int64)
    got = X.leg_counts(sp, ht, fig, 16, kinds(known), kinds(pool), unknown, True, codes, figs,
                       np.zeros(6, np.int64), 10_000_000)
    assert_same_counts((got, codes, figs), want)


# Translates (kernels.cards_exact._translate): a board after from which no
# unit can reach the finish card with the cards left, and with no camel on
# the start card, is keyed as its translate with the last camel on space 1.
TRANSLATES = [
    # spaces, figures (palm, fennec), track length, cards left -> spaces, figures
    pytest.param([3, 4, 4, 6, 9], [0, 0], 30, 5, [1, 2, 2, 4, 7], [0, 0], id="back-by-2"),
    pytest.param([3, 4, 4, 6, 9], [7, 5], 30, 5, [1, 2, 2, 4, 7], [5, 3], id="figures-move-with-the-camels"),
    pytest.param([3, 4, 4, 6, 9], [0, 10], 20, 5, [1, 2, 2, 4, 7], [0, 8], id="finish-out-of-reach-exactly"),
    pytest.param([3, 4, 4, 6, 9], [0, 0], 19, 5, [3, 4, 4, 6, 9], [0, 0], id="finish-within-reach"),
    pytest.param([0, 4, 4, 6, 9], [0, 0], 30, 5, [0, 4, 4, 6, 9], [0, 0], id="a-camel-on-the-start-card"),
    pytest.param([1, 4, 4, 6, 9], [5, 0], 30, 5, [1, 4, 4, 6, 9], [5, 0], id="last-camel-on-space-1"),
]


@pytest.mark.parametrize("sp,fig,length,left,want_sp,want_fig", TRANSLATES)
def test_translate_hand_worked(sp, fig, length, left, want_sp, want_fig):
    """9 + 2 * 5 + 1 = 20: a unit on space 9 reaches at most space 20 with
    five more cards (the palm once adds 1), so the finish after space 19 is
    within reach and the one after space 20 is not."""
    sp, fig = np.array(sp, np.int64), np.array(fig, np.int64)
    X._translate(sp, fig, length, left)
    assert sp.tolist() == want_sp and fig.tolist() == want_fig


# Legs in which boards are merged with their translates from the first
# cards on (far finish, figures ahead, stacks), and two at the edge of the
# bound (6 + 2 * 3 + 1 = 13: a track of 13 spaces lets every board of the
# leg be translated, one of 12 none at first): against the reference,
# integer for integer.
TRANSLATED_LEGS = [
    pytest.param(30, "2:B 3:GO 5:W 6:Y palm:4 fennec:7", "", None, 5, id="far-finish-figures"),
    pytest.param(30, "3:BG 4:OWY fennec:5", "B2W1", None, 3, id="far-finish-fennec-stack"),
    pytest.param(13, "2:B 3:GO 5:W 6:Y palm:8", "", None, 3, id="bound-just-excludes-the-finish"),
    pytest.param(12, "2:B 3:GO 5:W 6:Y palm:8", "", None, 3, id="bound-just-allows-the-finish"),
]


@pytest.mark.parametrize("length,text,known,pool,unknown", TRANSLATED_LEGS)
def test_translated_leg_counts_match_reference(length, text, known, pool, unknown):
    assert_same_as_reference(length, text, known, pool, unknown)


reference_counts.freeze(p.values for p in LEGS + BIG_LEGS + TRANSLATED_LEGS)


def test_leg_counts_of_a_translated_position_are_the_same():
    """A position and its translate two spaces on (track long enough that no
    unit can finish): the same integers, the translate's own states after
    every card no more numerous than the position's."""
    runs = []
    for text in ("1:B 2:GO 4:W 5:Y palm:3 fennec:7", "3:B 4:GO 6:W 7:Y palm:5 fennec:9"):
        board, known, pool, unknown = leg_inputs(40, text, "", None, 8)
        sp, ht, fig = arrays(board)
        codes = np.zeros((K.KINDS, 8, K.CODES), np.int64)
        figs = np.zeros((K.KINDS, 2), np.int64)
        states = np.zeros(8, np.int64)
        total = X.leg_counts(sp, ht, fig, 40, kinds(known), kinds(pool), unknown, True, codes, figs, states, -1)
        runs.append((total, codes, figs, states))
    assert_same_counts(runs[0][:3], runs[1][:3])
    assert np.array_equal(runs[0][3], runs[1][3])


def test_reference_marginals_hand_checkable():
    """Sanity of the reference's weighting: with one unknown card from the
    full deck, each kind is the first card with probability (copies)/30."""
    dist, _ = N.leg_distribution(state("1:B 2:G 3:O 4:W 5:Y", 16), {}, FULL, 1)
    first = Counter()
    for (c, _, _), p in dist.items():
        first[c] += p
    assert first == {(c, v): N.Fraction(5 if v == 1 else 1, 30) for c in CAMELS for v in (1, 2)}


# --------------------------------------------------------------------------
# d. leg_sample against leg_counts
# --------------------------------------------------------------------------
SAMPLED = ["palm-mixed", "race-can-end", "mixed-start-figures", "unknown-only-5-small-pool"]


def camel_ranks(codes: np.ndarray) -> np.ndarray:
    """codes[..., code] summed to [camel, rank]."""
    per_code = codes.reshape(-1, K.CODES).sum(axis=0)
    out = np.zeros((5, 5))
    for code in np.nonzero(per_code)[0]:
        for camel, r in enumerate(decode(int(code))):
            out[camel, r] += per_code[code]
    return out


LEG_BY_ID = {p.id: p.values for p in LEGS}


@pytest.mark.parametrize("name", SAMPLED)
def test_leg_sample_agrees_with_exact(name):
    length, text, known, pool, unknown = LEG_BY_ID[name]
    board, known, pool, unknown = leg_inputs(length, text, known, pool, unknown)
    total, exact, exact_figs = kernel_leg(length, board, known, pool, unknown)
    exact, exact_figs = exact / total, exact_figs / total
    samples = 20000
    sp, ht, fig = arrays(board)
    counts = np.zeros((K.KINDS, 8, K.CODES))
    figs = np.zeros((K.KINDS, 2))
    K.leg_sample(sp, ht, fig, length, kinds(known), kinds(pool), unknown, samples, 12345, counts, figs)
    assert counts.sum() == samples
    p = camel_ranks(exact)
    q = camel_ranks(counts) / samples
    se = np.sqrt(p * (1 - p) / samples)
    assert (np.abs(q - p) <= 4 * se + 1e-12).all(), (p, q)
    # the race-over probability and the figure probabilities too
    for exact_p, got in ((exact[:, 1::2].sum(), counts[:, 1::2].sum() / samples),
                         (exact_figs[:, 0].sum(), figs[:, 0].sum() / samples),
                         (exact_figs[:, 1].sum(), figs[:, 1].sum() / samples)):
        assert abs(got - exact_p) <= 4 * math.sqrt(exact_p * (1 - exact_p) / samples) + 1e-12
    # the inputs are not consumed
    assert sp.tolist() == arrays(board)[0].tolist()


def test_leg_sample_same_seed_same_counts():
    board, known, pool, unknown = leg_inputs(16, "0:BGO 2:W 3:Y palm:6 fennec:4", "G2O1", None, 3)
    runs = []
    for seed in (7, 7, 8):
        sp, ht, fig = arrays(board)
        counts = np.zeros((K.KINDS, 8, K.CODES))
        figs = np.zeros((K.KINDS, 2))
        K.leg_sample(sp, ht, fig, 16, kinds(known), kinds(pool), unknown, 3000, seed, counts, figs)
        runs.append((counts, figs))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][0], runs[2][0])


def test_leg_sample_adds_counts():
    board, known, pool, unknown = leg_inputs(16, "1:B 2:G 3:O 4:W 5:Y", "", None, 2)
    sp, ht, fig = arrays(board)
    counts = np.zeros((K.KINDS, 8, K.CODES))
    figs = np.zeros((K.KINDS, 2))
    K.leg_sample(sp, ht, fig, 16, kinds(known), kinds(pool), unknown, 500, 1, counts, figs)
    once = counts.copy()
    K.leg_sample(sp, ht, fig, 16, kinds(known), kinds(pool), unknown, 500, 1, counts, figs)
    assert np.array_equal(counts, 2 * once)


# --------------------------------------------------------------------------
# e. Notation
# --------------------------------------------------------------------------
ROUND_TRIPS = [
    "cards 1:B 2:G 3:O 4:W 5:Y",
    "cards 0:BGOWY",
    "cards 0:YW 3:BO 17:G",
    "cards players:2 track:nnsnnnnnh 0:BG 3:O 5:WY palm:4@1 fennec:6 deck:7 known:B1G2 out:O1Y2 hand:W1 "
    "legtiles:B22 mid:BOWY winners:GOWY losers:BGOW bets:wB,lY,mG,B5,B3 money:7",
    "cards players:5 decksize:12 2:BGOWY deck:12",
    "cards players:6 track:nnh 1:BG 5:OWY fennec:2@5 palm:3@0",
    "cards 1:BGOWY mid: bets:mB,mG,mO,mW,mY",
    "cards 4:Y 2:W money:12 3:O cards 1:BG known:Y2Y1Y1 deck:9",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_round_trip(text):
    pos = parse_cards(text)
    again = parse_cards(str(pos))
    assert again == pos
    assert str(again) == str(pos)
    assert eval(repr(pos), {"parse_cards": parse_cards}) == pos


def test_round_trip_fields():
    pos = parse_cards(ROUND_TRIPS[3])
    assert pos.players == 2 and pos.track == "nnsnnnnnh" and pos.length == 16
    assert pos.stacks == ((0, "BG"), (3, "O"), (5, "WY"))
    assert pos.palm == (4, 1) and pos.fennec == (6, None)
    assert pos.deck == 7 and pos.decksize == 10 and pos.unknown == 5
    assert pos.known == (("B", 1), ("G", 2)) and pos.out == (("O", 1), ("Y", 2)) and pos.hand == ("W", 1)
    assert pos.legtiles[0] == (2, 2) and pos.legtiles[1:] == ((5, 3, 2, 2),) * 4
    assert pos.held() == {"leg": [("B", 3), ("B", 5)], "mid": ["G"], "winner": "B", "loser": "Y"}
    assert pos.money == 7
    assert sum(pos.unseen().values()) == 30 - 5


@pytest.mark.parametrize("players,track,length,decksize", [
    (2, "nnnnnnnh", 15, 10),
    (3, "nnnnnnnn", 16, 12),
    (4, "nnnnnnnnh", 17, 12),
    (5, "nnnnnnnnn", 18, 10),
    (6, "nnnnnnnnnh", 19, 12),
])
def test_defaults(players, track, length, decksize):
    pos = parse_cards(f"cards players:{players} 1:BGOWY")
    assert pos.track == track and pos.length == length
    assert pos.decksize == decksize and pos.deck == decksize and pos.unknown == decksize
    assert pos.palm is None and pos.fennec is None and pos.money == 3 and pos.hand is None
    assert str(pos) == ("cards 1:BGOWY" if players == 4 else f"cards players:{players} 1:BGOWY")


def test_default_players():
    pos = parse_cards("cards 1:BGOWY")
    assert pos.players == 4 and pos.length == 17 and pos.decksize == 12
    assert pos.mid == pos.winners == pos.losers == CAMELS
    assert pos.legtiles == ((5, 3, 2, 2),) * 5


# (position, token the message must name); "cards 1:BGOWY" is a valid base
BAD = [
    # parse_cards
    pytest.param("cards foo 1:BGOWY", "foo", id="token-without-colon"),
    pytest.param("cards 1:BGOWY colour:B", "colour:B", id="unknown-key"),
    pytest.param("cards 1:BGOWY deck:3 deck:4", "deck:4", id="key-twice"),
    pytest.param("cards 1:BGOWY legtiles:B5 legtiles:G2", "legtiles:G2", id="legtiles-twice"),
    pytest.param("cards 1:BGOWY deck:x", "deck:x", id="not-a-number"),
    pytest.param("cards 1:BGOWY money:-2", "money:-2", id="negative-number"),
    pytest.param("cards 1:BGOWY palm:3@x", "palm:3@x", id="figure-owner-not-a-number"),
    pytest.param("cards 1:BGOWY known:B1G", "known:B1G", id="cards-odd-length"),
    pytest.param("cards 1:BGOWY out:B3", "out:B3", id="not-a-racing-card"),
    pytest.param("cards 1:BGOWY known:R1", "known:R1", id="not-a-colour"),
    pytest.param("cards 1:BGOWY hand:B1G1", "hand:B1G1", id="two-hand-cards"),
    pytest.param("cards 1:BGOWY legtiles:X5", "legtiles:X5", id="legtiles-format"),
    # CardsPosition._validate
    pytest.param("cards players:7 1:BGOWY", "players:7", id="players"),
    pytest.param("cards track:nxn 1:BGOWY", "track:nxn", id="track-letter"),
    pytest.param("cards track:nhn 1:BGOWY", "track:nhn", id="track-half-not-last"),
    pytest.param("cards 18:BGOWY", "18:BGOWY", id="space-beyond-track"),
    pytest.param("cards track:nnh 6:BGOWY", "6:BGOWY", id="space-beyond-short-track"),
    pytest.param("cards 1:BGOWZ", "1:BGOWZ", id="unknown-camel"),
    pytest.param("cards 1:BGOW 2:YB", "2:YB", id="camel-twice"),
    pytest.param("cards 1:BGOWY palm:0", "palm:0", id="figure-on-start-card"),
    pytest.param("cards 1:BGOWY fennec:18", "fennec:18", id="figure-beyond-track"),
    pytest.param("cards 1:BG 3:OWY palm:3", "palm:3", id="figure-on-camels"),
    pytest.param("cards 2:BG 3:OWY fennec:1", "fennec:1", id="figure-behind-last-camel"),
    pytest.param("cards 2:BG 3:OWY fennec:2", "fennec:2", id="figure-on-last-camel"),
    pytest.param("cards 1:BGOWY palm:5@4", "palm:5@4", id="figure-holder-not-a-player"),
    pytest.param("cards 1:BGOWY palm:5 fennec:5", "fennec:5", id="figures-share-space"),
    pytest.param("cards 1:BGOWY decksize:20", "decksize:20", id="decksize"),
    pytest.param("cards 1:BGOWY deck:0", "deck:0", id="deck-empty"),
    pytest.param("cards 1:BGOWY deck:13", "deck:13", id="deck-above-decksize"),
    pytest.param("cards 1:BGOWY deck:1 known:B1G1", "known:B1G1", id="known-more-than-deck"),
    pytest.param("cards 1:BGOWY known:B2 out:B2", "B2", id="too-many-copies"),
    pytest.param("cards 1:BGOWY known:B1B1B1 out:B1B1 hand:B1", "B1", id="too-many-copies-with-hand"),
    pytest.param("cards 1:BGOWY out:B1B1B1B1B1G1G1G1G1G1O1O1O1O1O1W1W1W1W1", "deck:12", id="unknown-above-unseen"),
    pytest.param("cards 1:BGOWY legtiles:B35", "legtiles:B", id="legtiles-not-suffix"),
    pytest.param("cards 1:BGOWY mid:BB", "mid:BB", id="mid-twice"),
    pytest.param("cards 1:BGOWY winners:XB", "winners:XB", id="winners-colour"),
    pytest.param("cards 1:BGOWY losers:GG", "losers:GG", id="losers-twice"),
    pytest.param("cards 1:BGOWY bets:mB", "bets:mB", id="midfield-still-on-offer"),
    pytest.param("cards 1:BGOWY mid:GOWY bets:mB,mB", "bets:mB", id="midfield-twice"),
    pytest.param("cards 1:BGOWY bets:Q7", "bets:Q7", id="bet-format"),
    pytest.param("cards 1:BGOWY bets:B5", "bets:B5", id="leg-card-still-on-stack"),
    pytest.param("cards 1:BGOWY legtiles:B322 bets:B5,B5", "bets:B5", id="leg-card-twice"),
    pytest.param("cards 1:BGOWY bets:wB", "bets:wB", id="overall-card-on-table"),
    pytest.param("cards 1:BGOWY money:0", "money:0", id="money"),
    pytest.param("cards 1:BGOWY money:10001", "money:10001", id="money-bound"),
    pytest.param("cards 1:BGOWY track:" + "n" * 33, "track:" + "n" * 33, id="track-longer-than-kernels-hold"),
    # the notation is ASCII digits: int() and isdigit() would take these
    pytest.param("cards 1:BGOWY deck:\u00b2", "deck:\u00b2", id="superscript-deck"),
    pytest.param("cards 1:BGOWY legtiles:B\u00b322", "legtiles:B\u00b322", id="superscript-legtiles"),
    pytest.param("cards \u0661:BGOWY", "\u0661:BGOWY", id="arabic-indic-space"),
    pytest.param("cards 1:BGOWY palm:3@\u0663", "palm:3@\u0663", id="arabic-indic-owner"),
    pytest.param("cards 1:BGOWY deck:" + "1" * 5000, "deck:" + "1" * 5000, id="huge-deck"),
    pytest.param("cards " + "2" * 4400 + ":BGOWY", "2" * 4400 + ":BGOWY", id="huge-space"),
]


@pytest.mark.parametrize("text,token", BAD)
def test_bad_position_names_token(text, token):
    with pytest.raises(PositionError) as info:
        parse_cards(text)
    assert info.value.token == token
    assert repr(token) in str(info.value) or len(token) > 60  # a long token is shortened


@pytest.mark.parametrize("text,words", [
    ("", "empty position"),
    ("   ", "empty position"),
    ("cards 1:BGOW", "camel Y missing"),
    ("cards 1:BGO", "camels WY missing"),
    ("cards 1:BGOWY winners:OWY bets:wB,wG", "at most one overall winner"),
    ("cards 1:BGOWY losers:OWY bets:lB,lG", "at most one overall loser"),
    ("cards 1:BGOWY losers:BGOW bets:lY,lY", "at most one overall loser"),
])
def test_bad_position_without_token(text, words):
    """Errors about the position as a whole (token None) say what is wrong."""
    with pytest.raises(PositionError) as info:
        parse_cards(text)
    assert info.value.token is None
    assert words in str(info.value)
    assert str(info.value).startswith("invalid position")


def test_bad_position_direct_construction():
    with pytest.raises(PositionError, match="players:1"):
        CardsPosition(stacks=((1, "BGOWY"),), players=1)
    with pytest.raises(PositionError, match="money:True"):
        CardsPosition(stacks=((1, "BGOWY"),), money=True)


def test_empty_stack_does_not_hide_the_last_camel():
    with pytest.raises(PositionError):
        parse_cards("cards 0: 2:B 3:G 4:O 5:W 6:Y palm:1")


@pytest.mark.parametrize("text,token", [
    ("cards 1:BGOWY deck:1 known:G1B1", "known:G1B1"),
    ("cards 1:BG 1:OWY", "1:BG"),
    ("cards 1:BGOWY mid:BX", "mid:BX"),
])
def test_bad_position_names_token_as_typed(text, token):
    with pytest.raises(PositionError) as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
