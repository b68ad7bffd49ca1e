"""Camel movement on a packed board (one int64), docs/rules.md (board games).

Board layout (``advisor.rules.encode`` is the only Python code that builds it):

* camel ``i`` (racing camels 0..4 in edition order, then crazy camels 5 = white
  ``w`` and 6 = black ``k``) owns the 8 bits ``[8*i, 8*i + 8)``:
  the low 3 bits hold its height in its stack (0 = bottom), the high 5 bits
  ``space + SPACE_OFFSET``; so the field read as a number orders camels as
  the race does (further on, then higher in the stack, is ahead);
* bits ``DICE_SHIFT + d`` (d = 0..4 racing dice, ``GREY`` = 5) mark the dice
  still in the pyramid; the movement functions take and return boards without
  these bits.

**Ruling** (docs/rules.md, Ranking and the end of the race): a unit's space is kept as a plain number even
past the track, so a racing unit beyond the finish sits on 17, 18, 19 and
racing camels carried below space 1 by a crazy camel sit on 0, -1, -2; ranking
is by space, then height, with no special case.

``tiles`` is an int8 array indexed by space (length ``TILE_SLOTS``): +1 for a
cheering/oasis tile, -1 for a booing/mirage tile, 0 for none.
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit
from advisor.kernels.ranks import code_of_ranks

TRACK = 16
SPACE_OFFSET = 3  # spaces -3..28 fit in 5 bits; reachable spaces are -2..20
FIELD = 8
DICE_SHIFT = 56
GREY = 5
N_RACING = 5
TILE_SLOTS = TRACK + 2
BOARD_MASK = (1 << DICE_SHIFT) - 1


@njit(inline="always")
def field_of(board, i):
    return (board >> (FIELD * i)) & 255


@njit
def space_of(board, i):
    return ((board >> (FIELD * i + 3)) & 31) - SPACE_OFFSET


@njit
def height_of(board, i):
    return (board >> (FIELD * i)) & 7


# SWAR helpers: the even lanes (0, 2, 4, 6) and the odd lanes (1, 3, 5, 7) of
# a board are spread into 16-bit slots, so each lane has a spare guard bit
# (bit 8 of its slot) and one subtraction compares all of them at once.
_EVEN = 0x00FF00FF00FF00FF
_GUARD = 0x0100010001000100
_SLOT_ONES = 0x0001000100010001
_LANE_ONES = 0x0101010101010101
_RACING_BITS = 0x0000000101010101  # low bit of the racing camels' lanes 0..4


@njit(inline="always")
def lanes_in(board, lo, hi):
    """A word with 1 in the lowest bit of every lane whose field lies in
    ``lo..hi`` (``1 <= lo <= hi <= 255``); empty lanes (0) never match."""
    even = board & _EVEN
    odd = (board >> 8) & _EVEN
    lo_w = lo * _SLOT_ONES
    hi_w = (hi + 1) * _SLOT_ONES
    even_in = ((even | _GUARD) - lo_w) & ~((even | _GUARD) - hi_w) & _GUARD
    odd_in = ((odd | _GUARD) - lo_w) & ~((odd | _GUARD) - hi_w) & _GUARD
    # an even lane 2i's flag sits at bit 16i + 8: shift it to bit 16i; an odd
    # lane 2i+1's flag already sits at its lane's lowest bit 16i + 8
    return (even_in >> 8) | odd_in


@njit(inline="always")
def lane_count(word):
    """Number of lanes flagged in a :func:`lanes_in` word."""
    return (np.uint64(word) * np.uint64(_LANE_ONES)) >> np.uint64(56)


@njit(inline="always")
def unit_of(board, camel):
    """``(field, unit)``: the camel's field and the :func:`lanes_in` word of
    the unit it heads (itself and every camel above it)."""
    fc = (board >> (FIELD * camel)) & 255
    return fc, lanes_in(board, fc, fc | 7)


@njit(inline="always")
def move_unit(board, camel, distance, direction, tiles):
    """Move ``camel`` and every camel above it by ``distance`` in ``direction``.

    ``direction`` is +1 for racing camels, -1 for crazy camels.  Returns
    ``(board, landed, over)``: the new board, the space of the tile the unit
    ended on (0 if none) and whether the race is over (the unit ended beyond
    the track, tile effect included).
    """
    fc, unit = unit_of(board, camel)
    return move_prepared(board, fc, unit, distance, direction, tiles)


@njit(inline="always")
def move_prepared(board, fc, unit, distance, direction, tiles):
    """:func:`move_unit` for a unit already found by :func:`unit_of`.

    The unit's fields all change by the same amount (new space, new height =
    height in the unit + camels already at the destination), so the move is
    one addition of ``delta * unit`` on the packed board, ``unit`` having 1
    in each member's lane; no lane leaves 0..255, so lanes never carry.
    """
    start = fc & 248
    dest = start + direction * distance * 8
    below = np.int64(lane_count(lanes_in(board, dest, dest + 7)))
    # the unit lands on top of the stack at dest
    board += (dest - start + below - (fc & 7)) * unit
    space = (dest >> 3) - SPACE_OFFSET
    landed = 0
    if 1 <= space <= TRACK and tiles[space] != 0:
        # The owner earns a coin (counted by the caller), then the unit moves
        # one more space; tiles never touch, so effects never chain.  A tile's
        # space holds no camel at rest, so the unit stands alone there
        # (heights 0..size-1).
        landed = space
        if tiles[space] > 0:
            # cheering / oasis: one more space in the unit's own direction
            # (for a crazy unit, further backward), on top
            target = dest + direction * 8
            n = np.int64(lane_count(lanes_in(board, target, target + 7)))
            board += (direction * 8 + n) * unit
        else:
            # booing / mirage: one space against the unit's direction (for a
            # crazy unit, forward), placed UNDER the camels already there
            target = dest - direction * 8
            others = lanes_in(board, target, target + 7)
            board += np.int64(lane_count(unit)) * others - direction * 8 * unit
        space = (target >> 3) - SPACE_OFFSET
    # The race ends when any unit, racing or crazy, in either direction, ends
    # its move beyond the track.  **Ruling**: this includes a crazy unit
    # pushed past 16 by a booing tile.
    over = space > TRACK or space < 1
    return board, landed, over


@njit(inline="always")
def carries_racing(board, crazy):
    """Whether crazy camel ``crazy`` has a racing camel anywhere above it."""
    f = (board >> (FIELD * crazy)) & 255
    return (lanes_in(board, f + 1, f | 7) & _RACING_BITS) != 0


@njit(inline="always")
def has_crazy(board):
    """Whether the board holds the crazy camels (second edition): an absent
    camel's field is 0, a present one's never is (its space field is >= 1)."""
    return field_of(board, GREY) != 0


@njit(inline="always")
def without_crazy(board):
    """The board with both crazy camels lifted off (their lanes emptied, the
    camels above them one level lower).

    Once the grey die has been rolled in a leg, crazy camels can no longer
    move, and where they stand changes neither a racing camel's rank (only
    the order within a stack counts) nor any tile landing or race end; so
    enumeration may merge boards that differ only in them.
    """
    for crazy in (GREY + 1, GREY):
        f = (board >> (FIELD * crazy)) & 255
        board -= lanes_in(board, f + 1, f | 7)
        board &= ~(np.int64(255) << (FIELD * crazy))
    return board


@njit(inline="always")
def crazy_mover(board, colour):
    """The crazy camel the grey die moves (5 = white, 6 = black).

    1. exactly one crazy camel carries a racing camel: that one;
    2. otherwise one crazy camel directly on the other: the upper one;
    3. otherwise the camel of the rolled ``colour`` (0 white, 1 black).
    """
    white = carries_racing(board, GREY)
    black = carries_racing(board, GREY + 1)
    if white != black:
        return GREY if white else GREY + 1
    white_camel = np.int64(GREY)  # not the literal 5: space_of and height_of compile once
    if space_of(board, white_camel) == space_of(board, GREY + 1):
        hw = height_of(board, white_camel)
        hb = height_of(board, GREY + 1)
        if hw == hb + 1:
            return GREY
        if hb == hw + 1:
            return GREY + 1
    return GREY + colour


@njit(inline="always")
def roll(board, die, face, tiles):
    """Apply one die result; ``face`` is 0..2 (value face+1) for a racing
    die, 0..5 for the grey die (colour ``face // 3``, value ``face % 3 + 1``).
    Returns ``(board, landed, over)`` as :func:`move_unit`."""
    if die == GREY:
        camel = crazy_mover(board, face // 3)
        return move_unit(board, camel, face % 3 + 1, -1, tiles)
    return move_unit(board, die, face + 1, 1, tiles)


@njit(inline="always")
def ranks_of(board):
    """The 0-based ranks ``(r0, ..., r4)`` of the five racing camels: the
    number of racing camels ahead of each (fields are distinct)."""
    f0 = field_of(board, 0)
    f1 = field_of(board, 1)
    f2 = field_of(board, 2)
    f3 = field_of(board, 3)
    f4 = field_of(board, 4)
    r0 = (f1 > f0) + (f2 > f0) + (f3 > f0) + (f4 > f0)
    r1 = (f0 > f1) + (f2 > f1) + (f3 > f1) + (f4 > f1)
    r2 = (f0 > f2) + (f1 > f2) + (f3 > f2) + (f4 > f2)
    r3 = (f0 > f3) + (f1 > f3) + (f2 > f3) + (f4 > f3)
    return r0, r1, r2, r3, 10 - r0 - r1 - r2 - r3


@njit(inline="always")
def add_ranks(board, weight, rank_counts):
    """Add ``weight`` to ``rank_counts[camel, rank]`` for every racing camel."""
    r0, r1, r2, r3, r4 = ranks_of(board)
    rank_counts[0, r0] += weight
    rank_counts[1, r1] += weight
    rank_counts[2, r2] += weight
    rank_counts[3, r3] += weight
    rank_counts[4, r4] += weight


@njit(inline="always")
def rank_code(board):
    """The race order of the racing camels as one number
    (:func:`~advisor.kernels.ranks.code_of_ranks`).  Counting codes and
    expanding them once (:func:`~advisor.kernels.ranks.add_rank_codes`) is
    cheaper than five counters per board."""
    r0, r1, r2, r3, _ = ranks_of(board)
    return code_of_ranks(r0, r1, r2, r3)


@njit(inline="always")
def faces_of(die):
    """``(number of faces enumerated, multiplicity of each)``: a racing die
    has values 1,2,3 printed twice each, the grey die six distinct faces."""
    if die == GREY:
        return 6, 1
    return 3, 2


@njit
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
