"""``Position`` <-> the fixed-dtype arrays the kernels read.

This module is the only Python code that knows the packed board layout of
:mod:`advisor.kernels.board`: camel ``i`` is the ``i``-th letter of
``edition.camels`` (racing camels in edition order, then ``w``, ``k``); die
``d`` is the ``d``-th letter of ``edition.dice`` (the grey die is 5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from advisor.kernels.board.track import DICE_SHIFT, FIELD, SPACE_OFFSET, TILE_SLOTS
from advisor.rules.editions import TRACK_LENGTH, Edition
from advisor.rules.position import Position

__all__ = ["Encoded", "encode", "pack_board", "unpack_board", "spaces_of", "race_over", "full_pyramid"]


@dataclass(frozen=True)
class Encoded:
    """A position as kernel inputs.

    board: packed int64 board (no dice bits); dice: int64 pyramid bit mask;
    rolls: rolls left in the leg; ndice: dice in the pyramid; tiles:
    int8[TILE_SLOTS] (+1 cheering/oasis, -1 booing/mirage, by space).
    """

    board: int
    dice: int
    rolls: int
    ndice: int
    tiles: np.ndarray


def pack_board(stacks, edition: Edition) -> int:
    """Pack ``(space, camels bottom->top)`` pairs into the int64 layout."""
    board = 0
    for space, camels in stacks:
        for height, letter in enumerate(camels):
            i = edition.camels.index(letter)
            board |= (((space + SPACE_OFFSET) << 3) | height) << (FIELD * i)
    return board


def unpack_board(board: int, edition: Edition) -> tuple[tuple[int, str], ...]:
    """Inverse of :func:`pack_board`: sorted ``(space, camels)`` pairs; spaces
    may lie beyond the track (an end-of-race board)."""
    where: dict[int, list[tuple[int, str]]] = {}
    for i, letter in enumerate(edition.camels):
        field = (board >> (FIELD * i)) & 255
        space = (field >> 3) - SPACE_OFFSET
        where.setdefault(space, []).append((field & 7, letter))
    return tuple((s, "".join(c for _, c in sorted(v))) for s, v in sorted(where.items()))


def encode(position: Position) -> Encoded:
    ed = position.rules
    tiles = np.zeros(TILE_SLOTS, np.int8)
    for tile in position.tiles:
        tiles[tile.space] = 1 if tile.sign == "+" else -1
    dice = 0
    for letter in position.dice:
        dice |= 1 << ed.dice.index(letter)
    ndice = len(position.dice)
    assert dice < (1 << (63 - DICE_SHIFT))
    return Encoded(
        board=pack_board(position.stacks, ed),
        dice=dice,
        rolls=ndice - ed.dice_left,
        ndice=ndice,
        tiles=tiles,
    )


def spaces_of(boards: np.ndarray, edition: Edition) -> np.ndarray:
    """int64[n, camels]: each camel's space on each packed board."""
    boards = np.asarray(boards, np.int64)
    shifts = np.arange(len(edition.camels), dtype=np.int64) * FIELD + 3
    return ((boards[:, None] >> shifts) & 31) - SPACE_OFFSET


def race_over(boards: np.ndarray, edition: Edition) -> np.ndarray:
    """bool[n]: whether some camel stands beyond the track on each board."""
    spaces = spaces_of(boards, edition)
    return ((spaces < 1) | (spaces > TRACK_LENGTH)).any(axis=1)


def full_pyramid(edition: Edition) -> int:
    """The pyramid bit mask at a leg start."""
    return (1 << len(edition.dice)) - 1
