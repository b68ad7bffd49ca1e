"""A deliberately slow, obvious reference of the Camel Up Cards rules
(docs/rules.md (Camel Up Cards) and the **Rulings** in the docstring of
``advisor.kernels.cards``), for differential tests of the kernels.

Independence: this module never imports ``advisor``; it is written from the
rules, not from the kernel code.

Representation
--------------
A :class:`Board` holds

* ``stacks``: ``dict`` space -> list of camel letters.  On a track space the
  list runs bottom to top.  Space ``0`` is the start card, where the camels
  stand side by side: its list runs from the camel ranked last to the one
  ranked first (so "index in the list" orders camels on every space the same
  way: a higher index is ahead).  Spaces ``length + 1`` and beyond are the
  finish card (only after the race is over).  Empty spaces are left out.
* ``length``: the number of track spaces (the finish card is ``length + 1``).
* ``palm``, ``fennec``: the figure's space, or ``None`` when it stands beside
  the track.

A track is a string of card letters after the start card: ``n`` a normal card
(2 spaces), ``s`` its sandstorm side (1 space), ``h`` a normal card half
covered by the finish card (1 space, last only).

Cards of the race deck are ``(camel letter, value)`` pairs, e.g. ``("B", 2)``.

Rulings used (from the kernel module's docstring)
-------------------------------------------------
* Camels on the start card rank behind every camel on the track, among
  themselves in list order (the first listed ranks last).  A camel leaving
  the start card moves alone.
* A unit the fennec sends back onto the start card goes "under" the camels
  there (ranked behind them), its own order kept.
* Figures act on every move; a unit sent by one figure onto the other's space
  triggers that one too; a figure is removed as it acts.
* After every move, a figure every camel is strictly ahead of is removed.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

CAMELS = "BGOWY"
TRACK_SPACES = {"n": 2, "s": 1, "h": 1}


# --------------------------------------------------------------- the board
@dataclass
class Board:
    stacks: dict = field(default_factory=dict)
    length: int = 15
    palm: int | None = None
    fennec: int | None = None

    def copy(self) -> "Board":
        return Board({s: list(st) for s, st in self.stacks.items() if st}, self.length, self.palm, self.fennec)

    def key(self):
        """A hashable summary (for memoising and comparing)."""
        return (tuple(sorted((s, "".join(st)) for s, st in self.stacks.items() if st)),
                self.length, self.palm, self.fennec)

    def __eq__(self, other):
        return isinstance(other, Board) and self.key() == other.key()

    def where(self, camel: str) -> tuple[int, int]:
        """``(space, index in that space's list)``."""
        for space, stack in self.stacks.items():
            if camel in stack:
                return space, stack.index(camel)
        raise KeyError(camel)

    def spaces_with_camels(self) -> list[int]:
        return [s for s, st in self.stacks.items() if st]


def parse_board(text: str, length: int, palm: int | None = None, fennec: int | None = None) -> Board:
    """``"0:BG 3:OWY"`` -> a Board (a tiny helper for tests)."""
    stacks = {}
    for token in text.split():
        space, camels = token.split(":")
        stacks[int(space)] = list(camels)
    return Board(stacks, length, palm, fennec)


def track_length(track: str) -> int:
    return sum(TRACK_SPACES[c] for c in track)


# --------------------------------------------------------------- moving
def _land_on_top(board: Board, space: int, unit: list[str]) -> None:
    board.stacks.setdefault(space, []).extend(unit)


def _land_under(board: Board, space: int, unit: list[str]) -> None:
    # under the camels there; on the start card "under" = ranked behind them,
    # which in our list convention is also "at the front of the list"
    board.stacks[space] = list(unit) + board.stacks.get(space, [])


def _lift(board: Board, space: int, unit: list[str]) -> None:
    """Take ``unit`` (the top camels of ``space``) off that space."""
    stack = board.stacks[space]
    assert stack[len(stack) - len(unit):] == unit, (stack, unit)
    del stack[len(stack) - len(unit):]
    if not stack:
        del board.stacks[space]


def move(board: Board, camel: str, dist: int) -> tuple[Board, bool]:
    """Move ``camel`` ``dist`` spaces forward; returns ``(new board, race
    over?)``.  ``board`` is not changed."""
    b = board.copy()
    space, index = b.where(camel)
    if space == 0:
        # side by side on the start card: the camel leaves alone
        unit = [camel]
        b.stacks[0].remove(camel)
        if not b.stacks[0]:
            del b.stacks[0]
    else:
        # the camel and every camel above it
        unit = b.stacks[space][index:]
        _lift(b, space, unit)
    here = space + dist
    _land_on_top(b, here, unit)
    # figures: ending a move on one triggers it; each is removed as it acts
    while True:
        if b.palm is not None and here == b.palm:
            b.palm = None
            _lift(b, here, unit)
            here += 1
            _land_on_top(b, here, unit)
        elif b.fennec is not None and here == b.fennec:
            b.fennec = None
            _lift(b, here, unit)
            here -= 1
            _land_under(b, here, unit)
        else:
            break
    over = here >= b.length + 1
    # a figure that every camel has passed (strictly) goes beside the track
    last = min(b.spaces_with_camels())
    if b.palm is not None and b.palm < last:
        b.palm = None
    if b.fennec is not None and b.fennec < last:
        b.fennec = None
    return b, over


def ranking(board: Board) -> list[str]:
    """Camels from first to last: further along first, then higher in the
    stack (on the start card: later in its list)."""
    keyed = []
    for space, stack in board.stacks.items():
        for index, camel in enumerate(stack):
            keyed.append((space, index, camel))
    keyed.sort(reverse=True)
    order = [c for _, _, c in keyed]
    assert sorted(order) == sorted(CAMELS), board
    return order


# --------------------------------------------------------------- leg start
def leg_start(board: Board, track: str) -> tuple[Board, str]:
    """Between two legs: figures beside the track, the sandstorm, the
    extension.  Returns ``(new board, new track)``; ``board.length`` of the
    result is the new track's length."""
    assert track_length(track) == board.length, (track, board.length)
    b = board.copy()
    b.palm = None
    b.fennec = None
    occupied = set(b.spaces_with_camels())
    lead = max(occupied)
    last = min(occupied)
    # the spaces of every card on the current numbering
    cards = []  # (letter, [spaces])
    s = 1
    for letter in track:
        width = TRACK_SPACES[letter]
        cards.append((letter, list(range(s, s + width))))
        s += width
    new_track = ""
    renumber = {0: 0}
    new_space = 1
    for letter, spaces in cards:
        flip = (letter == "n"
                and all(last < x < lead for x in spaces)
                and not any(x in occupied for x in spaces))
        if flip:
            new_track += "s"
            for x in spaces:
                renumber[x] = new_space
            new_space += 1
        else:
            new_track += letter
            for x in spaces:
                renumber[x] = new_space
                new_space += 1
    b.stacks = {renumber[x]: st for x, st in b.stacks.items()}
    lead = renumber[lead]
    length = track_length(new_track)
    # fewer than 3 spaces between the leader and the finish: add up to 3
    ahead = length - lead
    if ahead < 3:
        missing = 3 - ahead
        if new_track.endswith("h"):
            new_track = new_track[:-1] + "n"
            missing -= 1
        new_track += "n" * (missing // 2) + "h" * (missing % 2)
    b.length = track_length(new_track)
    assert b.length - lead >= 3
    return b, new_track


# --------------------------------------------------------------- a leg
def _multisets(pool: Counter, size: int):
    """Every multiset of ``size`` cards drawn from ``pool`` (without
    replacement) with its probability, as ``(Counter, Fraction)``."""
    cards = sorted(c for c in pool if pool[c] > 0)
    total = sum(pool[c] for c in cards)
    denominator = math.comb(total, size)

    def rec(i, left):
        if left == 0:
            yield Counter(), 1
            return
        if i == len(cards):
            return
        card = cards[i]
        for k in range(min(left, pool[card]), -1, -1):
            for rest, ways in rec(i + 1, left - k):
                out = Counter(rest)
                if k:
                    out[card] = k
                yield out, ways * math.comb(pool[card], k)

    for chosen, ways in rec(0, size):
        yield chosen, Fraction(ways, denominator)


def _outcome(board: Board, over: bool):
    return (over, board.palm is not None, board.fennec is not None, tuple(ranking(board)))


def leg_outcomes(board: Board, known, pool, unknown: int) -> dict:
    """The exact distribution of ``(first card, race over?, palm on the
    track?, fennec on the track?, ranking)`` at the end of the leg.

    The race deck holds the ``known`` cards plus ``unknown`` more drawn
    without replacement from the multiset ``pool``; every order is equally
    likely.  Cards are revealed one by one, each moving its camel by its
    value, until the deck is empty or the race is over.  ``known`` and
    ``pool`` map a card to how many there are.

    Done the obvious way: for every multiset of unknown cards (with its
    hypergeometric probability), the deck is that multiset plus the known
    cards, and the next card is any card of the deck with probability
    (copies of it) / (cards in the deck).
    """
    known = Counter({c: n for c, n in dict(known).items() if n})
    pool = Counter({c: n for c, n in dict(pool).items() if n})
    memo: dict = {}

    def rest(b: Board, deck: tuple) -> dict:
        """Outcome -> probability from ``b`` with ``deck`` (sorted
        ``(card, count)`` pairs, non-empty) still to reveal."""
        mkey = (b.key(), deck)
        if mkey in memo:
            return memo[mkey]
        n = sum(k for _, k in deck)
        out: dict = {}
        for card, k in deck:
            p = Fraction(k, n)
            after, over = move(b, card[0], card[1])
            smaller = tuple((c, m - (c == card)) for c, m in deck if m - (c == card))
            if over or not smaller:
                sub = {_outcome(after, over): Fraction(1)}
            else:
                sub = rest(after, smaller)
            for key, q in sub.items():
                out[key] = out.get(key, 0) + p * q
        memo[mkey] = out
        return out

    result: dict = {}
    for chosen, weight in _multisets(pool, unknown):
        deck = known + chosen
        n = sum(deck.values())
        if n == 0:
            continue
        for card in sorted(deck):
            p = weight * Fraction(deck[card], n)
            after, over = move(board, card[0], card[1])
            smaller = deck.copy()
            smaller[card] -= 1
            smaller = tuple(sorted((c, m) for c, m in smaller.items() if m))
            if over or not smaller:
                sub = {_outcome(after, over): Fraction(1)}
            else:
                sub = rest(after, smaller)
            for (o, palm, fennec, order), q in sub.items():
                key = (card, o, palm, fennec, order)
                result[key] = result.get(key, 0) + p * q
    return result


def leg_distribution(board: Board, known, pool, unknown: int):
    """``(dist, figures)``: ``dist`` maps ``(first card, race over?,
    ranking)`` to its exact probability; ``figures`` maps ``(first card,
    "palm" / "fennec")`` to the probability that this was the first card and
    that figure is still on the track when the leg (or the race) ends."""
    dist: dict = {}
    figures: dict = {}
    for (card, over, palm, fennec, order), p in leg_outcomes(board, known, pool, unknown).items():
        dist[(card, over, order)] = dist.get((card, over, order), 0) + p
        for name, on in (("palm", palm), ("fennec", fennec)):
            if on:
                figures[(card, name)] = figures.get((card, name), 0) + p
    return dist, figures


def full_deck() -> Counter:
    """The 30 racing cards: per camel five ``+1`` and one ``+2``."""
    return Counter({(c, v): (5 if v == 1 else 1) for c in CAMELS for v in (1, 2)})


# --------------------------------------------------------------- whole turns
# The scoring and placement rules of docs/rules.md (Camel Up Cards), for differential
# tests of the game engine (advisor.cards.game), written from the rules.
LEG_WINNER_VALUES = (5, 3, 2, 2)  # top first, per colour


def figure_spaces(board: Board) -> list[int]:
    """Spaces a figure beside the track may be put on: on the track (not the
    finish), empty of camels and of the other figure, strictly ahead of the
    last camel."""
    last = min(board.spaces_with_camels())
    taken = {s for s in (board.palm, board.fennec) if s is not None}
    return [s for s in range(1, board.length + 1)
            if s > last and s not in board.stacks and s not in taken]


def leg_payout(leg_cards, mid_cards, figure_cards_left: int, order) -> int:
    """A player's leg payout: each leg-winner card ``(colour, value)`` pays
    its value if the camel is 1st, 1 if 2nd, else costs 1; each midfield
    card pays 2 for 3rd, 1 for 2nd or 4th, costs 1 for 1st or 5th; each
    figure card still held (its figure on the track) costs 1."""
    total = 0
    for colour, value in leg_cards:
        place = order.index(colour) + 1
        total += value if place == 1 else 1 if place == 2 else -1
    for colour in mid_cards:
        place = order.index(colour) + 1
        total += {1: -1, 2: 1, 3: 2, 4: 1, 5: -1}[place]
    return total - figure_cards_left


def overall_payout(winner, loser, order) -> int:
    """Winner card: camel 1st +7, 2nd +3, else -1; loser card: camel last
    +7, 4th +3, else -1."""
    total = 0
    if winner:
        place = order.index(winner) + 1
        total += 7 if place == 1 else 3 if place == 2 else -1
    if loser:
        place = order.index(loser) + 1
        total += 7 if place == 5 else 3 if place == 4 else -1
    return total


def settle(money: int, payout: int) -> int:
    """Money never drops below 1."""
    return max(1, money + payout)


def poorest_start(money: list[int], after: int) -> int:
    """The next leg's start player: the poorest; on a tie, the first of
    them clockwise from the player after ``after`` (who ended the leg)."""
    n = len(money)
    low = min(money)
    for k in range(1, n + 1):
        if money[(after + k) % n] == low:
            return (after + k) % n
    raise AssertionError(money)
