"""A deliberately slow, obvious reference of the Camel Up Cards candidate
kernel (``advisor.kernels.cards.turns.candidate_outcomes``): every race
action of a turn replayed on shared scenarios, for a differential test with
exact equality of every outcome.

Independence: this module never imports ``advisor``; it is written from
the kernel module's docstring (the scenarios, their random streams, the
choices), on top of the rules of :mod:`naive_cards`.  The random numbers
are the project's generator (xoshiro256** seeded by SplitMix64, a uniform
integer by Lemire's multiply-shift with rejection), written out here in
Python integers: the same seed must give the same outcomes, every one.

Cards are kinds ``2 * camel + value - 1`` (camels B G O W Y).  Outcomes:
``leg[k][i] = end * 625 + code`` (``end`` = race over + 2 * palm on the
track with its card held by seat 0 + 4 * the same for the fennec; ``code``
= r_B + 5 r_G + 25 r_O + 125 r_W, r the 0-based rank), ``first[i]`` the
first card revealed in candidate 0's leg (0 if none), ``race[k][i]`` the
code of the race's final order.
"""

from __future__ import annotations

try:  # tests/ as a plain directory or as a package
    from . import naive_cards as N
except ImportError:  # pragma: no cover
    import naive_cards as N

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
TURNS = 1 << 16
LEGS = 32
CHOICE_SALT, RACE_SALT, LATER_SALT = 0x5DEECE66D, 0x2545F4914F6CDD1D, 0x61C8864680B583EB
REVEAL, HAND, PALM, FENNEC = 0, 1, 2, 3
UNKNOWN = 10  # a hand card drawn from the unseen cards


# ---------------------------------------------------------------- random numbers
def splitmix(x: int) -> tuple[int, int]:
    x = (x + GOLDEN) & MASK
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


class Stream:
    """xoshiro256** seeded for stream ``stream`` of ``seed``."""

    def __init__(self, seed: int, stream: int):
        x, a = splitmix(seed & MASK)
        x = a ^ ((stream * GOLDEN) & MASK)
        self.s = []
        for _ in range(4):
            x, out = splitmix(x)
            self.s.append(out)

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & MASK  # noqa: E731
        result = (rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            threshold = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32


def salted(seed: int, salt: int) -> int:
    return ((seed ^ salt) * GOLDEN) & MASK


# ---------------------------------------------------------------- one scenario
def pick(counts: list[int], r: int) -> int:
    for t, c in enumerate(counts):
        if r < c:
            return t
        r -= c
    raise AssertionError("no card")


def deal(known: list[int], pool: list[int], unknown: int, hands: list[int], rng: Stream) -> list[int]:
    """The deck's order (top first), then the unknown hand cards (``hands``
    and ``pool`` changed)."""
    known = list(known)
    deck = []
    for _ in range(sum(known) + unknown):
        r = rng.below(sum(known) + unknown)
        if r < sum(known):
            t = pick(known, r)
            known[t] -= 1
        else:
            t = pick(pool, rng.below(sum(pool)))
            pool[t] -= 1
            unknown -= 1
        deck.append(t)
    for p, h in enumerate(hands):
        if h == UNKNOWN:
            t = pick(pool, rng.below(sum(pool)))
            pool[t] -= 1
            hands[p] = t
    return deck


def code(board: N.Board) -> int:
    order = N.ranking(board)
    r = [order.index(c) for c in N.CAMELS]
    return r[0] + 5 * r[1] + 25 * r[2] + 125 * r[3]


def shuffled_choice(rng: Stream, open_: list[bool]) -> int:
    """The first open action of a random order of the four (a Fisher-Yates
    shuffle from the last place down)."""
    order = [0, 1, 2, 3]
    for j in range(3, 0, -1):
        r = rng.below(j + 1)
        order[j], order[r] = order[r], order[j]
    return next(a for a in order if open_[a])


def space_choice(rng: Stream, spaces: list[int], length: int) -> int:
    """The legal space with the largest key, a key per track space in order."""
    keys = {s: rng.next() for s in range(1, length + 1)}
    best = spaces[0]
    for s in spaces[1:]:
        if keys[s] > keys[best]:
            best = s
    return best



def put_figure(board: N.Board, kind: int, space: int, own: list[bool], seat: int) -> None:
    """``seat`` puts the palm (``PALM``) or the fennec on ``space``: the
    advised player (seat 0) holds its card, anyone else does not."""
    if kind == PALM:
        board.palm = space
    else:
        board.fennec = space
    own[kind - PALM] = seat == 0


def own_figures(board: N.Board, own: list[bool]) -> list[bool]:
    """The advised player's figure cards: only of a figure still on the track."""
    return [own[0] and board.palm is not None, own[1] and board.fennec is not None]

def play(board, own, players, seat, turn, hands, randoms, deck, choice_seed, scenario):
    """The rest of a leg; returns ``(board, over, first card or -1)``."""
    first, over, d = -1, False, 0
    while not over and d < len(deck):
        choice = REVEAL
        if seat in randoms:
            spaces = N.figure_spaces(board)
            held = hands[seat] >= 0
            palm_free = bool(spaces) and board.palm is None
            fennec_free = bool(spaces) and board.fennec is None
            if held or palm_free or fennec_free:
                rng = Stream(choice_seed, scenario * TURNS + turn)
                choice = shuffled_choice(rng, [True, held, palm_free, fennec_free])
        if choice == REVEAL:
            card = deck[d]
            d += 1
            first = card if first < 0 else first
            board, over = N.move(board, N.CAMELS[card // 2], card % 2 + 1)
        elif choice == HAND:
            board, over = N.move(board, N.CAMELS[hands[seat] // 2], 1)
            hands[seat] = -1
        else:
            board = board.copy()
            put_figure(board, choice, space_choice(rng, spaces, board.length), own, seat)
        own = own_figures(board, own)
        seat = (seat + 1) % players
        turn += 1
    return board, over, first, own


def candidate_outcomes(board: N.Board, track: str, own: list[bool], known: list[int], pool: list[int],
                       unknown: int, hands: list[int], players: int, nxt: int, randoms: set, candidates,
                       legs: int, races: int, deck_size: int, random_later: bool, seed: int):
    """``(leg, first, race)`` as the kernel gives them (module docstring);
    ``candidates``: ``(kind, space)`` pairs, the first ``(REVEAL, 0)``."""
    leg = [[0] * legs for _ in candidates]
    first = [0] * legs
    race = [[0] * races for _ in candidates]
    choice_seed, race_seed, later_seed = (salted(seed, s) for s in (CHOICE_SALT, RACE_SALT, LATER_SALT))
    for i in range(legs):
        dealt = list(hands)
        deck = deal(known, list(pool), unknown, dealt, Stream(seed, i))
        for k, (kind, space) in enumerate(candidates):
            b, mine, held = board.copy(), list(own), list(dealt)
            seat, turn, over, first_card = nxt, 0, False, -1
            if kind == HAND:
                b, over = N.move(b, N.CAMELS[held[seat] // 2], 1)
                held[seat] = -1
            elif kind in (PALM, FENNEC):
                put_figure(b, kind, space, mine, seat)
            mine = own_figures(b, mine)
            if kind != REVEAL:
                seat, turn = (seat + 1) % players, 1
            if not over:
                b, over, first_card, mine = play(b, mine, players, seat, turn, held, randoms, deck, choice_seed, i)
            end = int(over) + 2 * (mine[0] and b.palm is not None) + 4 * (mine[1] and b.fennec is not None)
            leg[k][i] = end * 625 + code(b)
            if k == 0:
                first[i] = max(first_card, 0)
            if i < races:
                t, played = track, 0
                while not over and played < LEGS:
                    played += 1
                    b, t = N.leg_start(b, t)
                    stream = i * (LEGS + 1) + played
                    deal_hands = [UNKNOWN] * players
                    later = deal([0] * 10, [5, 1] * 5, deck_size, deal_hands, Stream(race_seed, stream))
                    b, over, _, _ = play(b, [False, False], players, 0, 0, deal_hands,
                                         set(range(players)) if random_later else set(), later, later_seed, stream)
                race[k][i] = code(b)
    return leg, first, race
