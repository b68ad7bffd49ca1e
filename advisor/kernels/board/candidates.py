"""Many tile placements valued in one call: the fast path of the bots.

A player choosing where to put their spectator/desert tile compares every
legal placement.  These kernels take the board once and the candidate
placements as arrays (``spaces[k]``, ``signs[k]``: the tile's space and
effect, +1 or -1), so a whole decision costs one call.

* :func:`candidate_joint` gives, per candidate, the joint distribution of the
  leg's final race order and of the landings on the new tile, exactly (one
  :func:`~advisor.kernels.board.leg.enumerate_joint` per candidate) or sampled.
  Sampled legs use *common random numbers*: sample ``i`` draws its rolls
  (die order and faces) from stream ``(seed, i)`` once, and every candidate
  replays the same rolls, so the differences between candidates carry little
  noise.
* :func:`candidate_races` gives, per candidate, how much it changes how often
  each racing camel wins and finishes last, sampled with common random numbers: sample ``i``
  plays this leg's rolls from stream ``(seed, 2i)`` and the later legs from
  stream ``(seed, 2i + 1)``.  Tiles leave the board at leg end, so candidates
  whose legs end on the same board have the same race: each distinct leg-end
  board of a sample is played on once, and a sample in which no candidate's
  leg ends differently from the base adds nothing (the counts are of
  differences).
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit
from advisor.kernels.board.track import GREY, SPACE_OFFSET, TILE_SLOTS, TRACK, crazy_mover, move_prepared, rank_code, ranks_of, unit_of
from advisor.kernels.board.leg import enumerate_joint
from advisor.kernels.board.race import MAX_LEGS
from advisor.kernels.rng import seed_stream
from advisor.kernels.board.sample import draw_die, play_leg


@njit
def draw_rolls(pyramid, rolls, state, dies, faces):
    """Draw the die order and faces of ``rolls`` rolls into ``dies``,
    ``faces`` (as :func:`~advisor.kernels.board.sample.play_leg` would)."""
    left = 0
    for die in range(GREY + 1):
        left += (pyramid >> die) & 1
    for j in range(rolls):
        die, face = draw_die(pyramid, left, state)
        dies[j] = die
        faces[j] = face
        pyramid &= ~(1 << die)
        left -= 1


@njit(inline="always")
def _roll_from(board, die, face, tiles):
    """:func:`~advisor.kernels.board.track.roll` that also returns the space the
    unit's move ends on before any tile effect: ``(board, landed, over, dest)``."""
    if die == GREY:
        camel = crazy_mover(board, face // 3)
        step = -(face % 3 + 1)
    else:
        camel = die
        step = face + 1
    fc, unit = unit_of(board, camel)
    nb, landed, over = move_prepared(board, fc, unit, abs(step), 1 if step > 0 else -1, tiles)
    return nb, landed, over, (fc >> 3) - SPACE_OFFSET + step


@njit
def replay(board, dies, faces, start, rolls, tiles, track):
    """Play drawn rolls ``start..rolls-1``; returns ``(board, over, landings
    on track)``."""
    hits = 0
    for j in range(start, rolls):
        board, landed, over, _ = _roll_from(board, dies[j], faces[j], tiles)
        if landed and landed == track:
            hits += 1
        if over:
            return board, True, hits
    return board, False, hits


@njit
def _base_leg(board, dies, faces, rolls, tiles, boards, first):
    """Play drawn rolls without the candidate tile, keeping the board before
    each roll (``boards``) and, per space, the first roll whose move ends
    there (``first``, -1 if none): a tile placed there acts from that roll
    on, and before it the leg is the same with or without the tile.
    Returns ``(board, over)``."""
    first[:] = -1
    for j in range(rolls):
        boards[j] = board
        board, _, over, dest = _roll_from(board, dies[j], faces[j], tiles)
        if 1 <= dest <= TRACK and first[dest] < 0:
            first[dest] = j
        if over:
            return board, True
    return board, False


@njit
def _candidate_tiles(tiles, spaces, signs):
    out = np.empty((spaces.size, tiles.size), np.int8)
    for k in range(spaces.size):
        out[k] = tiles
        out[k, spaces[k]] = signs[k]
    return out


@njit
def candidate_joint(board, dice, rolls, tiles, spaces, signs, exact, samples, seed, orders):
    """Per candidate ``k`` (the tile ``signs[k]`` added on ``spaces[k]`` to
    ``tiles``), add to ``orders[k]`` int64[RANK_CODES, rolls + 1] the joint
    counts of final race order and landings on the new tile: exact sequence
    counts (``exact``) or ``samples`` sampled legs."""
    landings = np.zeros(TILE_SLOTS, np.int64)
    reached = np.zeros(TILE_SLOTS, np.int64)
    own = _candidate_tiles(tiles, spaces, signs)
    if exact:
        for k in range(spaces.size):
            enumerate_joint(board, dice, rolls, own[k], np.bool_(False), spaces[k], orders[k], landings, reached)
        return
    state = np.empty(4, np.uint64)
    dies = np.empty(rolls, np.int64)
    faces = np.empty(rolls, np.int64)
    boards = np.empty(rolls, np.int64)
    first = np.empty(TILE_SLOTS, np.int64)
    for i in range(samples):
        seed_stream(seed, i, state)
        draw_rolls(dice, rolls, state, dies, faces)
        end0, _ = _base_leg(board, dies, faces, rolls, tiles, boards, first)
        code0 = rank_code(end0)
        for k in range(spaces.size):
            j = first[spaces[k]]
            if j < 0:
                orders[k, code0, 0] += 1
            else:
                end, _, hits = replay(boards[j], dies, faces, j, rolls, own[k], spaces[k])
                orders[k, rank_code(end), hits] += 1


@njit
def after_each_roll(board, dice, rolls, tiles, orders, weights):
    """For each possible next roll (outcome ``o = 6 * die + face``): its
    weight in equally likely sequences (``weights[o]``: 2 per racing die
    value, 1 per grey face, 0 for dice not in the pyramid) and the exact
    counts of the leg's final race order after it (``orders[o]``
    int64[RANK_CODES, 1]; a roll that ends the race counts 1 for the final
    order it leaves).  ``rolls`` >= 2."""
    landings = np.zeros(TILE_SLOTS, np.int64)
    reached = np.zeros(TILE_SLOTS, np.int64)
    for die in range(GREY + 1):
        if not (dice >> die) & 1:
            continue
        nfaces = 6 if die == GREY else 3
        for face in range(nfaces):
            o = 6 * die + face
            weights[o] = 1 if die == GREY else 2
            nb, _, over, _ = _roll_from(board, die, face, tiles)
            if over:
                orders[o, rank_code(nb), 0] += 1
            else:
                enumerate_joint(nb, dice & ~(1 << die), rolls - 1, tiles, np.bool_(False), np.int64(0), orders[o],
                                landings, reached)


@njit
def _finish(board, over, full_dice, full_rolls, state, no_tiles, landings):
    """The final board of a race whose current leg ended on ``board`` (at
    most MAX_LEGS more legs, as in :func:`~advisor.kernels.board.race.race_replicates`)."""
    played = 0
    while not over and played < MAX_LEGS:
        board, over = play_leg(board, full_dice, full_rolls, no_tiles, state, landings)
        played += 1
    return board


@njit
def _count(board, win, lose, k, weight):
    r = ranks_of(board)
    for camel in range(5):
        if r[camel] == 0:
            win[k, camel] += weight
        elif r[camel] == 4:
            lose[k, camel] += weight


@njit
def candidate_races(board, dice, rolls, base_tiles, tiles, spaces, signs, samples, seed,
                    full_dice, full_rolls, win, lose):
    """How each candidate changes the win and last-place counts of the
    racing camels, sampled with common random numbers: ``win[k, camel]``
    (int64[K, 5]) gets (wins with ``tiles`` plus candidate tile ``k``) minus
    (wins with ``base_tiles``), over ``samples`` races; ``lose`` likewise.
    ``full_dice``/``full_rolls``: a later leg's pyramid and rolls.  A sample
    in which every candidate's leg ends as the base leg adds nothing and is
    not played beyond this leg."""
    state = np.empty(4, np.uint64)
    later = np.empty(4, np.uint64)
    dies = np.empty(rolls, np.int64)
    faces = np.empty(rolls, np.int64)
    boards = np.empty(rolls, np.int64)
    first = np.empty(TILE_SLOTS, np.int64)
    no_tiles = np.zeros(TILE_SLOTS, np.int8)
    landings = np.zeros(TILE_SLOTS, np.int64)
    own = _candidate_tiles(tiles, spaces, signs)
    k_end = np.empty(spaces.size, np.int64)
    k_over = np.empty(spaces.size, np.bool_)
    ends = np.empty(spaces.size + 1, np.int64)  # distinct leg ends of this sample
    finals = np.empty(spaces.size + 1, np.int64)
    for i in range(samples):
        seed_stream(seed, 2 * i, state)
        draw_rolls(dice, rolls, state, dies, faces)
        end0, over0, _ = replay(board, dies, faces, np.int64(0), rolls, base_tiles, np.int64(0))
        # the leg without the candidate tile (and without the own tile, if
        # the base has one) is the common prefix of every candidate
        end1, over1 = _base_leg(board, dies, faces, rolls, tiles, boards, first)
        differs = False
        for k in range(spaces.size):
            j = first[spaces[k]]
            if j < 0:
                k_end[k], k_over[k] = end1, over1
            else:
                end, over, _ = replay(boards[j], dies, faces, j, rolls, own[k], np.int64(0))
                k_end[k], k_over[k] = end, over
            differs |= k_end[k] != end0
        if not differs:
            continue
        seed_stream(seed, 2 * i + 1, later)
        ends[0] = end0
        finals[0] = _finish(end0, over0, full_dice, full_rolls, later, no_tiles, landings)
        distinct = 1
        for k in range(spaces.size):
            # a board that ended the race differs from every leg-end board
            # (a unit is beyond the track), so the board alone decides
            m = 0
            while m < distinct and ends[m] != k_end[k]:
                m += 1
            if m == 0:
                continue
            if m == distinct:
                seed_stream(seed, 2 * i + 1, later)
                ends[m] = k_end[k]
                finals[m] = _finish(k_end[k], k_over[k], full_dice, full_rolls, later, no_tiles, landings)
                distinct += 1
            _count(finals[m], win, lose, k, np.int64(1))
            _count(finals[0], win, lose, k, np.int64(-1))


__all__ = ["after_each_roll", "candidate_joint", "candidate_races", "draw_rolls", "replay"]
