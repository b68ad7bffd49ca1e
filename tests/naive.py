"""A deliberately slow, obvious reference implementation of the board-game
rules (docs/rules.md, board games), for differential tests of the kernels.

Independence: this module imports nothing from the package and reads no
object of it.  It has its own tables of the two editions (:data:`EDITIONS`:
camel letters, dice, the leg-ending rule) and its own minimal parser of the
board string (docs/notation.md); every public function takes a board string or a
:class:`Setup` of plain data (edition name, stacks, tiles, dice) and refuses
anything else, so a package ``Position`` can never leak in.

Representation: a board is a ``dict`` ``space -> list of camel letters``,
bottom to top.  Spaces are plain integers and may lie beyond the track
(17, 18, ... past the finish; 0, -1, ... below space 1) once the race is
over.  Racing camels are the upper-case letters, crazy camels the lower-case
``w`` (white) and ``k`` (black), as in the notation.

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
from typing import NamedTuple

TRACK = 16
GREY = "x"
CRAZY_OF_COLOUR = {"white": "w", "black": "k"}

#: (value, colour, how many of the die's 6 faces show it)
RACING_FACES = ((1, None, 2), (2, None, 2), (3, None, 2))
GREY_FACES = tuple((v, c, 1) for c in ("white", "black") for v in (1, 2, 3))


class Edition(NamedTuple):
    racing: str  # racing camel letters, in the order of the result rows
    crazy: str  # crazy camel letters
    dice: str  # every die of a full pyramid
    dice_left: int  # dice left in the pyramid when the leg ends


#: The two board-game editions, written from docs/rules.md (not read from the package).
EDITIONS = {
    "second": Edition(racing="BGPRY", crazy="wk", dice="BGPRYx", dice_left=1),
    "first": Edition(racing="BGOYW", crazy="", dice="BGOYW", dice_left=0),
}


class Setup(NamedTuple):
    """A position as plain data: ``stacks`` ``((space, camels bottom->top),
    ...)``, ``tiles`` ``((space, "+" / "-"), ...)``, ``dice`` the dice still
    in the pyramid (``None``: all of them, a leg start)."""

    edition: str
    stacks: tuple
    tiles: tuple = ()
    dice: str | None = None


def parse(text: str) -> Setup:
    """A board string (docs/notation.md) as a :class:`Setup`.  Minimal: tile
    owners (``@P``) and ``legtiles:`` are read past (they move no camel)."""
    edition, stacks, tiles, dice = "second", [], [], None
    for token in text.split():
        if token in EDITIONS:
            edition = token
        elif token.startswith("dice:"):
            dice = token[5:]
        elif token.startswith("legtiles:"):
            pass
        elif token[0] in "+-":
            tiles.append((int(token[1:].partition("@")[0]), token[0]))
        else:
            space, _, camels = token.partition(":")
            stacks.append((int(space), camels))
    setup = Setup(edition, tuple(sorted(stacks)), tuple(sorted(tiles)), dice)
    ed = EDITIONS[edition]
    assert sorted("".join(c for _, c in setup.stacks)) == sorted(ed.racing + ed.crazy), text
    assert dice is None or set(dice) <= set(ed.dice), text
    return setup


def setup_of(pos) -> Setup:
    """``pos`` (a board string, a Setup or an ``(edition, stacks, tiles,
    dice)`` tuple) as a Setup."""
    if isinstance(pos, str):
        return parse(pos)
    if isinstance(pos, tuple) and len(pos) == 4 and pos[0] in EDITIONS:
        edition, stacks, tiles, dice = pos
        if isinstance(stacks, dict):
            stacks = tuple(sorted((s, "".join(c)) for s, c in stacks.items() if c))
        return Setup(edition, tuple(stacks), tuple(tiles), dice)
    raise TypeError(f"the reference takes a board string or (edition, stacks, tiles, dice), not {type(pos).__name__}")


def dice_of(setup: Setup) -> str:
    return EDITIONS[setup.edition].dice if setup.dice is None else setup.dice


def rolls_of(setup: Setup) -> int:
    """Rolls left in the leg."""
    return len(dice_of(setup)) - EDITIONS[setup.edition].dice_left


# --------------------------------------------------------------- the board
def board_of(pos) -> dict[int, list[str]]:
    """A fresh mutable board of ``pos``."""
    return {space: list(camels) for space, camels in setup_of(pos).stacks}


def copy_board(board: dict[int, list[str]]) -> dict[int, list[str]]:
    return {space: list(stack) for space, stack in board.items()}


def stacks_of(board: dict[int, list[str]]) -> tuple[tuple[int, str], ...]:
    """Sorted ``(space, camels bottom->top)`` pairs, empty spaces left out."""
    return tuple(sorted((s, "".join(st)) for s, st in board.items() if st))


def tiles_of(pos) -> dict[int, str]:
    """``space -> '+' / '-'``."""
    return dict(setup_of(pos).tiles)


def is_racing(camel: str) -> bool:
    return camel.isupper()


def locate(board, camel):
    """``(space, height)`` of ``camel`` (height 0 = bottom)."""
    for space, stack in board.items():
        if camel in stack:
            return space, stack.index(camel)
    raise KeyError(camel)


def carries_racing(board, crazy):
    """Whether a racing camel stands anywhere above ``crazy``."""
    space, height = locate(board, crazy)
    return any(is_racing(c) for c in board[space][height + 1:])


def crazy_to_move(board, colour):
    """Which crazy camel the grey die moves (docs/rules.md, Moving a camel)."""
    carriers = [c for c in "wk" if carries_racing(board, c)]
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


def apply_roll(board, die, value, colour, tiles):
    """Apply one die result in place; returns ``(moved, landed, over)``."""
    if die == GREY:
        camel = crazy_to_move(board, colour)
        landed, over = move(board, camel, value, -1, tiles)
    else:
        camel = die
        landed, over = move(board, camel, value, +1, tiles)
    return camel, landed, over


def ranking(stacks):
    """Racing camels from first to last: by space (higher first), then by
    height in the stack (higher first).  Crazy camels are ignored.
    ``stacks`` is a board dict or ``(space, camels)`` pairs."""
    items = stacks.items() if isinstance(stacks, dict) else stacks
    keyed = []
    for space, camels in items:
        for height, c in enumerate(camels):
            if is_racing(c):
                keyed.append(((space, height), c))
    keyed.sort(reverse=True)
    order = [c for _, c in keyed]
    assert len(order) == 5, stacks
    return order


def race_over_board(stacks) -> bool:
    """Whether any camel stands beyond the track."""
    items = stacks.items() if isinstance(stacks, dict) else stacks
    return any((s < 1 or s > TRACK) and camels for s, camels in items)


def roll_label(die, value, colour) -> str:
    """``B1`` (racing die B shows 1), ``x1w`` / ``x1k`` (the grey die shows a
    white / black 1: the colour is named by its crazy camel's letter)."""
    return f"{die}{value}" if die != GREY else f"{die}{value}{CRAZY_OF_COLOUR[colour]}"


def _orders_and_faces(dice, rolls):
    """Every die order of ``rolls`` rolls from ``dice``, with every choice of
    faces: ``(order, faces, weight)``."""
    for order in itertools.permutations(dice, rolls):
        choices = [GREY_FACES if d == GREY else RACING_FACES for d in order]
        for faces in itertools.product(*choices):
            weight = 1
            for _, _, mult in faces:
                weight *= mult
            yield order, faces, weight


# --------------------------------------------------------------- public API
def naive_step(pos, die, value, colour=None):
    """One die result on ``pos``: ``(stacks, moved, landed, race_over)``
    with the fields of ``advisor.step``."""
    board = board_of(pos)
    moved, landed, over = apply_roll(board, die, value, colour, tiles_of(pos))
    return stacks_of(board), moved, landed, over


def naive_leg_counts(pos, collect=False, track=None, divide=False, levels=False):
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
    landings on that tile) -> sequences;
    ``divide`` (if ``divide``): by first roll (:func:`roll_label`), the
    ``counts``, ``ended`` and ``total`` of the sequences that begin with it;
    ``levels`` (if ``levels``): per roll ``k`` = 1..rolls, a dict of
    ``sequences``: the sequences of ``k`` rolls that are played (the race
    was running before roll ``k``), weighted as the full sequences (a racing
    value 2, a grey face 1); ``ended``: those in which roll ``k`` ends the
    race; ``states`` and ``merged``: the distinct states (stacks, dice left)
    of the races still running after roll ``k`` (0 after the last roll,
    which ends the leg), whole and with :func:`state_key`'s ``merge_crazy``.
    A prefix of ``k`` rolls is the start of ``completions(m - k, rolls - k)``
    weighted full sequences (``m`` dice), so its weight is theirs divided by
    that number.
    """
    setup = setup_of(pos)
    racing = EDITIONS[setup.edition].racing
    tiles = tiles_of(setup)
    start = board_of(setup)
    counts = [[0] * 5 for _ in racing]
    landings: Counter = Counter()
    ends: Counter = Counter()
    joint: Counter = Counter()
    by_first: dict = {}
    dice, rolls = dice_of(setup), rolls_of(setup)
    played = [0] * rolls  # by roll: weight of the full sequences that play it
    stopped = [0] * rolls  # ... and end the race on it
    states = [set() for _ in range(rolls)]
    merged = [set() for _ in range(rolls)]
    ended = 0
    total = 0
    for order, faces, weight in _orders_and_faces(dice, rolls):
        total += weight
        board = copy_board(start)
        over = False
        hits = 0
        for k, (die, (value, colour, _)) in enumerate(zip(order, faces)):
            _, landed, over = apply_roll(board, die, value, colour, tiles)
            if landed is not None:
                landings[landed] += weight
                hits += landed == track
            if levels:
                played[k] += weight
                stopped[k] += weight if over else 0
                if not over and k < rolls - 1:
                    left = "".join(d for d in dice if d not in order[:k + 1])
                    states[k].add(state_key(board, left))
                    merged[k].add(state_key(board, left, merge_crazy=True))
            if over:
                break  # the leg is scored at once; later rolls never happen
        if over:
            ended += weight
        final = ranking(board)
        for rank, camel in enumerate(final):
            counts[racing.index(camel)][rank] += weight
        if collect:
            ends[stacks_of(board)] += weight
        if track is not None:
            joint[(tuple(final), hits)] += weight
        if divide:
            first = by_first.setdefault(roll_label(order[0], *faces[0][:2]),
                                        {"counts": [[0] * 5 for _ in racing], "ended": 0, "total": 0})
            first["total"] += weight
            first["ended"] += weight if over else 0
            for rank, camel in enumerate(final):
                first["counts"][racing.index(camel)][rank] += weight
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
    if divide:
        out["divide"] = by_first
    if levels:
        out["levels"] = []
        for k in range(rolls):
            per = completions(len(dice) - k - 1, rolls - k - 1)
            assert played[k] % per == 0 and stopped[k] % per == 0
            out["levels"].append({"sequences": played[k] // per, "ended": stopped[k] // per,
                                  "states": len(states[k]), "merged": len(merged[k])})
    return out


def state_key(board, dice_left, merge_crazy=False):
    """A state of the leg: the stacks and the dice still in the pyramid.
    With ``merge_crazy``, once the grey die is out of the pyramid the crazy
    camels are left out of the stacks (they can no longer move, are never
    ranked, and a racing camel's place among racing camels does not depend
    on them), so states that differ only in them are one."""
    stacks = stacks_of(board)
    if merge_crazy and GREY not in dice_left:
        stacks = tuple((s, "".join(c for c in st if is_racing(c))) for s, st in stacks)
        stacks = tuple((s, st) for s, st in stacks if st)
    return stacks, "".join(sorted(dice_left))


def completions(dice: int, rolls: int) -> int:
    """``dice (dice-1) ... (dice-rolls+1) * 6**rolls`` equally likely face
    sequences of ``rolls`` rolls from ``dice`` dice."""
    n = 1
    for j in range(rolls):
        n *= (dice - j) * 6
    return n


def expected_total(pos) -> int:
    """``m (m-1) ... (m-r+1) * 6**r`` sequences."""
    setup = setup_of(pos)
    return completions(len(dice_of(setup)), rolls_of(setup))
