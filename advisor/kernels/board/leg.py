"""Exact enumeration of the rest of a leg.

Counting convention: every roll draws one of the ``m`` dice left with equal
chance and shows one of its six faces with equal chance, so each full
sequence (die order, faces) of the leg's remaining rolls is equally likely.
The kernels count such sequences: a racing die's value (printed twice) counts
2, a grey die face counts 1, and a race that ends after ``j`` of ``r`` rolls
counts for all its ``completions(m - j, r - j)`` continuations.  Counts are
exact int64 and sum to ``completions(m, r)``.

The enumeration is breadth-first, one level per roll: states reached by
different orders of non-interacting dice are merged (summing their counts) in
an open-addressing hash table before the next roll, so the work grows with
the number of distinct states, not of die sequences.  The last roll is never
stored: its results are scored directly.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from advisor.kernels._jit import njit
from advisor.kernels.board.track import (
    BOARD_MASK,
    DICE_SHIFT,
    SPACE_OFFSET,
    TRACK,
    GREY,
    TILE_SLOTS,
    faces_of,
    popcount,
    crazy_mover,
    has_crazy,
    move_prepared,
    rank_code,
    unit_of,
    without_crazy,
)
from advisor.kernels.hashing import slot
from advisor.kernels.ranks import RANK_CODES, add_rank_codes

MAX_CHILDREN = 5 * 3 + 6  # children of one state: every die, every face
_EMPTY = 0  # no board key is 0: every camel's space field is >= 1


@njit
def completions(dice, rolls):
    """Equally likely face sequences of ``rolls`` rolls from ``dice`` dice:
    ``dice * (dice-1) * ... * (dice-rolls+1) * 6**rolls``."""
    n = 1
    for j in range(rolls):
        n *= (dice - j) * 6
    return n


@njit(inline="always")
def _insert(table, bits, key, weight, base=0):
    """Add ``weight`` to ``key``'s count; return 1 if the key is new.

    A table segment of ``2 << bits`` int64 starting at ``base`` interleaves
    keys and counts (``[2*i]`` key, ``[2*i+1]`` count), so that a probe
    touches one cache line."""
    mask = (1 << bits) - 1
    i = slot(key, bits)
    while True:
        k = table[base + 2 * i]
        if k == key:
            table[base + 2 * i + 1] += weight
            return 0
        if k == _EMPTY:
            table[base + 2 * i] = key
            table[base + 2 * i + 1] = weight
            return 1
        i = (i + 1) & mask


@njit
def _new_table(bits, segments):
    return np.zeros(segments * (2 << bits), np.int64)


@njit
def _grow(table, bits, segments):
    """Double every segment of a table (rehashing each into its own)."""
    bigger = _new_table(bits + 1, segments)
    old, new = 2 << bits, 4 << bits
    for seg in range(segments):
        for i in range(seg * old, (seg + 1) * old, 2):
            if table[i] != _EMPTY:
                _insert(bigger, bits + 1, table[i], table[i + 1], seg * new)
    return bigger, bits + 1


@njit
def _compact(table, count, bits):
    """The ``count`` entries of a table as ``(keys, counts, segment of each)``."""
    seg_size = 2 << bits
    keys = np.empty(count, np.int64)
    counts = np.empty(count, np.int64)
    segs = np.empty(count, np.int64)
    n = 0
    for i in range(0, table.size, 2):
        if table[i] != _EMPTY:
            keys[n] = table[i]
            counts[n] = table[i + 1]
            segs[n] = i // seg_size
            n += 1
    return keys, counts, segs


@njit
def _initial_bits(expected):
    bits = 6
    while (1 << bits) < 2 * expected:
        bits += 1
    return bits


#: Columns of :func:`leg_levels`' table, one row per roll of the leg.
LEVEL_SEQUENCES, LEVEL_ENDED, LEVEL_STATES = 0, 1, 2
LEVEL_FIELDS = 3


@njit
def enumerate_leg(board, dice, rolls, tiles, collect, rank_counts, landings):
    """Enumerate the remaining ``rolls`` rolls of a leg.

    Parameters
    ----------
    board : int64 packed board (no dice bits).
    dice : int64 bit mask of the dice in the pyramid (bit 5 = grey).
    rolls : rolls left in this leg (1 <= rolls <= number of dice).
    tiles : int8[TILE_SLOTS] tile effect by space.
    collect : also return the distinct end states with their counts.
    rank_counts : int64[5, 5], incremented: [camel, rank] sequence counts.
    landings : int64[TILE_SLOTS], incremented: sequence-weighted number of
        tile landings by space.

    Returns ``(ended, end_boards, end_counts)``: the count of sequences in
    which the race ends during the leg, and (if ``collect``, else empty) the
    distinct end boards (race over or leg over) with their counts.
    """
    orders = np.zeros((RANK_CODES, 1), np.int64)
    reached = np.zeros(TILE_SLOTS, np.int64)
    # track as a run-time int64 (not the literal 0): one machine code of the
    # enumeration serves the leg odds and the advice's joint odds
    ended, end_k, end_v = enumerate_joint(board, dice, rolls, tiles, collect, np.int64(0), orders, landings,
                                          reached)
    add_rank_codes(orders[:, 0], rank_counts)
    return ended, end_k, end_v


@njit
def enumerate_joint(board, dice, rolls, tiles, collect, track, orders, landings, reached):
    """:func:`enumerate_leg` returning the joint distribution of the final
    race order and of the landings on one tile.

    ``track`` is the space of the tile whose landings are counted (0: none);
    ``orders`` int64[RANK_CODES, rolls + 1 if track else 1] is incremented:
    ``orders[code, n]`` = sequences ending in race order ``code`` (see
    :func:`~advisor.kernels.board.track.rank_code`) with ``n`` landings on the
    tracked tile.  States with ``n`` landings so far live in segment ``n`` of
    each level's hash table, so states merge only with equal ``n``.
    ``reached`` int64[TILE_SLOTS] is set to 1 at every space on which some
    move ends (before any tile effect): a new tile elsewhere changes nothing.
    """
    levels = np.zeros((rolls, LEVEL_FIELDS), np.int64)
    return _walk(board, dice, rolls, tiles, collect, track, orders, landings, reached, levels)


@njit
def leg_levels(board, dice, rolls, tiles, collect, levels, rank_counts, landings):
    """:func:`enumerate_leg` that also counts the enumeration tree, level by
    level (the leg's "perft"): row ``k`` of ``levels`` int64[rolls,
    LEVEL_FIELDS] (incremented) is about roll ``k + 1``:

    ``LEVEL_SEQUENCES``: die sequences of ``k + 1`` rolls played (the race
    still running before the roll), in the counting convention's weights;
    ``LEVEL_ENDED``: those of them in which that roll ends the race;
    ``LEVEL_STATES``: distinct states (board and dice left) the rolls lead
    to with the race running, after merging (0 for the last roll, never
    stored).  With ``collect`` the states are whole; without it the crazy
    camels are left out of them once the grey die is out, as for the rank
    counts (states equal but for the crazy camels are one).

    Returns ``(ended, end states)``: as :func:`enumerate_leg`, and the number
    of distinct end boards if ``collect`` (else 0).
    """
    orders = np.zeros((RANK_CODES, 1), np.int64)
    reached = np.zeros(TILE_SLOTS, np.int64)
    ended, end_k, _ = _walk(board, dice, rolls, tiles, collect, np.int64(0), orders, landings, reached, levels)
    add_rank_codes(orders[:, 0], rank_counts)
    return ended, end_k.size


@njit
def _walk(board, dice, rolls, tiles, collect, track, orders, landings, reached, levels):
    """The enumeration of :func:`enumerate_joint`, counting its tree in
    ``levels`` (:func:`leg_levels`)."""
    nl = orders.shape[1]
    ndice = popcount(dice)
    comp = np.empty(rolls + 1, np.int64)
    for j in range(rolls + 1):
        comp[j] = completions(ndice - j, rolls - j)
    cur_k = np.empty(1, np.int64)
    cur_v = np.ones(1, np.int64)
    cur_n = np.zeros(1, np.int64)
    # End states are kept whole (``collect``); for rank counts alone, crazy
    # camels are dropped from the state once the grey die is out.
    merge_crazy = has_crazy(board) and not collect
    if merge_crazy and not (dice >> GREY) & 1:
        board = without_crazy(board)
    cur_k[0] = board | (dice << DICE_SHIFT)
    ended = 0
    # sizes and counts as run-time int64 (not literals): the table helpers
    # compile once (see advisor/kernels/_jit.py)
    one = np.int64(1)
    fbits = np.int64(6)
    final = _new_table(fbits, one)
    fcount = np.int64(0)
    for level in range(rolls):
        last = level == rolls - 1
        nbits = np.int64(6) if last else _initial_bits(cur_k.size * 4)
        table = _new_table(nbits, nl)
        ncount = np.int64(0)
        done = comp[level + 1]
        for s in range(cur_k.size):
            # room for every child of this state (at most 3 per racing die,
            # 6 for the grey die) without growing inside the loops below
            if collect and 2 * (fcount + MAX_CHILDREN) > (final.size >> 1):
                final, fbits = _grow(final, fbits, one)
            if not last and 2 * (ncount + MAX_CHILDREN) > (1 << nbits):
                table, nbits = _grow(table, nbits, nl)
            key = cur_k[s]
            weight = cur_v[s]
            hits = cur_n[s]
            b = key & BOARD_MASK
            pyramid = key >> DICE_SHIFT
            for die in range(GREY + 1):
                if not (pyramid >> die) & 1:
                    continue
                rest = pyramid & ~(1 << die)
                nfaces, mult = faces_of(die)
                w = weight * mult
                if die != GREY:  # the same unit moves whatever the face
                    fc, unit = unit_of(b, die)
                for face in range(nfaces):
                    if die == GREY:
                        fc, unit = unit_of(b, crazy_mover(b, face // 3))
                        step = -(face % 3 + 1)
                    else:
                        step = face + 1
                    nb, landed, over = move_prepared(b, fc, unit, abs(step), 1 if step > 0 else -1, tiles)
                    dest = (fc >> 3) - SPACE_OFFSET + step
                    if 1 <= dest <= TRACK:
                        reached[dest] = 1
                    n = hits
                    if landed:
                        landings[landed] += w * done
                        if landed == track:
                            n += 1
                    levels[level, LEVEL_SEQUENCES] += w
                    if over or last:
                        orders[rank_code(nb), n] += w * done
                        if over:
                            ended += w * done
                            levels[level, LEVEL_ENDED] += w
                        if collect:
                            fcount += _insert(final, fbits, nb, w * done)
                    else:
                        if merge_crazy and die == GREY:
                            nb = without_crazy(nb)
                        ncount += _insert(table, nbits, nb | (rest << DICE_SHIFT), w, n * (2 << nbits))
        if not last:
            levels[level, LEVEL_STATES] += ncount
            cur_k, cur_v, cur_n = _compact(table, ncount, nbits)
    if collect:
        end_k, end_v, _ = _compact(final, fcount, fbits)
    else:
        end_k = np.empty(0, np.int64)
        end_v = np.empty(0, np.int64)
    return ended, end_k, end_v


#: Seconds to enumerate one position on one thread, by rolls left in its leg
#: (0..5; sizes a batch call's thread count).
ENUMERATION_SECONDS = np.array([0.0, 1e-6, 3e-6, 1e-5, 1e-4, 5e-4])


def _batch_work(boards, dice, rolls, *_):
    per_rolls = np.bincount(rolls, minlength=ENUMERATION_SECONDS.size)[: ENUMERATION_SECONDS.size]
    return float(per_rolls @ ENUMERATION_SECONDS), boards.size


@njit(parallel=True, work=_batch_work)
def leg_counts_batch(boards, dice, rolls, tiles, rank_counts, landings, ended):
    """:func:`enumerate_leg` for many positions at once (rank counts only).

    ``boards``, ``dice``, ``rolls``: int64[n]; ``tiles``: int8[n, TILE_SLOTS];
    outputs ``rank_counts`` int64[n, 5, 5], ``landings`` int64[n, TILE_SLOTS]
    and ``ended`` int64[n], zero on entry.
    """
    for i in prange(boards.size):
        e, _, _ = enumerate_leg(
            boards[i], dice[i], rolls[i], tiles[i], np.bool_(False), rank_counts[i], landings[i]
        )
        ended[i] = e


__all__ = ["completions", "enumerate_leg", "enumerate_joint", "leg_levels", "leg_counts_batch", "TILE_SLOTS",
           "LEVEL_SEQUENCES", "LEVEL_ENDED", "LEVEL_STATES", "LEVEL_FIELDS"]
