"""A deliberately slow, obvious reference implementation of the board-game
rules (../shared/RULES.md section 1), for differential tests of the kernels.

Independence: this module never imports ``advisor.kernels`` or
``advisor.encode``; it reads only the public fields of a ``Position``
(``edition``, ``stacks``, ``tiles``, ``dice``, ``rules``).

Representation: a board is a ``dict`` ``space -> list of camel letters``,
bottom to top.  Spaces are plain integers and may lie beyond the track
(17, 18, ... past the finish; 0, -1, ... below space 1) once the race is
over.

Counting convention (the engine's, see the brief): each roll draws one of the
dice still in the pyramid uniformly and the die shows one of its 6 faces
uniformly.  A full sequence of the leg's remaining rolls (die order + face of
every roll) counts 1; a racing die shows each value on two faces, so a racing
value counts 2 and a grey face (colour x value) counts 1.  Here every full
sequence is enumerated (``itertools.permutations`` for the die order,
``itertools.product`` for the faces); a sequence in which the race ends after
``j`` rolls is scored on the board after roll ``j`` and its later rolls are
ignored, which is the same as weighting the partial sequence by its number of
completions.
"""

from __future__ import annotations

import itertools
from collections import Counter

TRACK = 16
GREY = "x"
CRAZY_OF_COLOUR = {"white": "w", "black": "k"}

#: (value, colour, how many of the die's 6 faces show it)
RACING_FACES = ((1, None, 2), (2, None, 2), (3, None, 2))
GREY_FACES = tuple((v, c, 1) for c in ("white", "black") for v in (1, 2, 3))


# --------------------------------------------------------------- the board
def board_of(position) -> dict[int, list[str]]:
    """A fresh mutable board of ``position``."""
    return {space: list(camels) for space, camels in position.stacks}


def copy_board(board: dict[int, list[str]]) -> dict[int, list[str]]:
    return {space: list(stack) for space, stack in board.items()}


def stacks_of(board: dict[int, list[str]]) -> tuple[tuple[int, str], ...]:
    """Sorted ``(space, camels bottom->top)`` pairs, empty spaces left out."""
    return tuple(sorted((s, "".join(st)) for s, st in board.items() if st))


def tiles_of(position) -> dict[int, str]:
    """``space -> '+' / '-'``."""
    return {t.space: t.sign for t in position.tiles}


def locate(board, camel):
    """``(space, height)`` of ``camel`` (height 0 = bottom)."""
    for space, stack in board.items():
        if camel in stack:
            return space, stack.index(camel)
    raise KeyError(camel)


def carries_racing(board, crazy, racing):
    """Whether a racing camel stands anywhere above ``crazy``."""
    space, height = locate(board, crazy)
    return any(c in racing for c in board[space][height + 1:])


def crazy_to_move(board, colour, racing):
    """Which crazy camel the grey die moves (RULES.md, Moving a crazy camel)."""
    carriers = [c for c in "wk" if carries_racing(board, c, racing)]
    # 1. exactly one crazy camel carries a racing camel
    if len(carriers) == 1:
        return carriers[0]
    # 2. one crazy camel directly on the other: the upper one
    sw, hw = locate(board, "w")
    sk, hk = locate(board, "k")
    if sw == sk:
        if hw == hk + 1:
            return "w"
        if hk == hw + 1:
            return "k"
    # 3. the rolled colour
    return CRAZY_OF_COLOUR[colour]


def lift(board, space, count):
    """Remove and return the top ``count`` camels of ``space``."""
    stack = board[space]
    unit = stack[len(stack) - count:]
    del stack[len(stack) - count:]
    if not stack:
        del board[space]
    return unit


def move(board, camel, distance, direction, tiles):
    """Move ``camel`` with everything above it by ``distance`` spaces in
    ``direction`` (+1 racing, -1 crazy), in place.

    Returns ``(landed, over)``: the space of the tile the unit ended its move
    on (``None`` if none) and whether the race is over.
    """
    space, height = locate(board, camel)
    unit = lift(board, space, len(board[space]) - height)
    dest = space + direction * distance
    board.setdefault(dest, []).extend(unit)  # on top
    final = dest
    landed = None
    if dest in tiles:  # tiles lie on 2..16 only
        landed = dest
        lift(board, dest, len(unit))
        if tiles[dest] == "+":
            # one more space in the unit's own direction, on top
            final = dest + direction
            board.setdefault(final, []).extend(unit)
        else:
            # one space against the unit's direction, UNDER the camels there
            final = dest - direction
            board[final] = unit + board.get(final, [])
    over = final > TRACK or final < 1
    return landed, over


def apply_roll(board, die, value, colour, tiles, racing):
    """Apply one die result in place; returns ``(moved, landed, over)``."""
    if die == GREY:
        camel = crazy_to_move(board, colour, racing)
        landed, over = move(board, camel, value, -1, tiles)
    else:
        camel = die
        landed, over = move(board, camel, value, +1, tiles)
    return camel, landed, over


def ranking(stacks, racing):
    """Racing camels from first to last: by space (higher first), then by
    height in the stack (higher first).  Crazy camels are ignored.
    ``stacks`` is a board dict or ``(space, camels)`` pairs."""
    items = stacks.items() if isinstance(stacks, dict) else stacks
    keyed = []
    for space, camels in items:
        for height, c in enumerate(camels):
            if c in racing:
                keyed.append(((space, height), c))
    keyed.sort(reverse=True)
    order = [c for _, c in keyed]
    assert sorted(order) == sorted(racing), (stacks, racing)
    return order


def race_over_board(stacks) -> bool:
    """Whether any camel stands beyond the track."""
    items = stacks.items() if isinstance(stacks, dict) else stacks
    return any((s < 1 or s > TRACK) and camels for s, camels in items)


# --------------------------------------------------------------- public API
def naive_step(position, die, value, colour=None):
    """One die result on ``position``: ``(stacks, moved, landed, race_over)``
    with the fields of ``advisor.step``."""
    board = board_of(position)
    moved, landed, over = apply_roll(
        board, die, value, colour, tiles_of(position), position.rules.racing
    )
    return stacks_of(board), moved, landed, over


def naive_leg_counts(position, collect=False, track=None):
    """Enumerate every remaining sequence of the leg.

    Returns a dict with
    ``counts``: list[5][5], ``counts[i][k]`` = sequences in which racing camel
    ``i`` (edition order) is ranked ``k+1`` when the leg is scored;
    ``landings``: ``{space: summed landings on the tile there}`` (non-zero only);
    ``ended``: sequences in which the race ends during the leg;
    ``total``: all sequences;
    ``ends`` (if ``collect``): ``Counter`` of end stacks (race over or leg
    over) -> sequences;
    ``joint`` (if ``track``, a tile's space): ``Counter`` of (race order,
    landings on that tile) -> sequences.
    """
    ed = position.rules
    racing = ed.racing
    tiles = tiles_of(position)
    rolls = len(position.dice) - ed.dice_left
    start = board_of(position)
    counts = [[0] * 5 for _ in racing]
    landings: Counter = Counter()
    ends: Counter = Counter()
    joint: Counter = Counter()
    ended = 0
    total = 0
    for order in itertools.permutations(position.dice, rolls):
        choices = [GREY_FACES if d == GREY else RACING_FACES for d in order]
        for faces in itertools.product(*choices):
            weight = 1
            for _, _, mult in faces:
                weight *= mult
            total += weight
            board = copy_board(start)
            over = False
            hits = 0
            for die, (value, colour, _) in zip(order, faces):
                _, landed, over = apply_roll(board, die, value, colour, tiles, racing)
                if landed is not None:
                    landings[landed] += weight
                    hits += landed == track
                if over:
                    break  # the leg is scored at once; later rolls never happen
            if over:
                ended += weight
            for rank, camel in enumerate(ranking(board, racing)):
                counts[racing.index(camel)][rank] += weight
            if collect:
                ends[stacks_of(board)] += weight
            if track is not None:
                joint[(tuple(ranking(board, racing)), hits)] += weight
    out = {
        "counts": counts,
        "landings": {s: n for s, n in landings.items() if n},
        "ended": ended,
        "total": total,
    }
    if collect:
        out["ends"] = ends
    if track is not None:
        out["joint"] = joint
    return out


def expected_total(position) -> int:
    """``m (m-1) ... (m-r+1) * 6**r`` sequences."""
    ed = position.rules
    m = len(position.dice)
    r = m - ed.dice_left
    n = 1
    for j in range(r):
        n *= (m - j) * 6
    return n
