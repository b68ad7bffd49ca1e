"""Camel Up Cards: moves, legs and races (RULES.md section 2).

State arrays (all int64):

* ``sp[5]``, ``ht[5]``: each racing camel's space and height.  Space 0 is
  the start card, spaces ``1..length`` the track, ``length + 1`` the finish
  card (a unit there or beyond has finished).  Heights order a stack bottom
  (0) to top.  On the start card the camels stand side by side; their
  "heights" there only order them for ranking (see the Ruling below).
* ``fig[2]``: the space of the palm (``fig[0]``) and of the fennec
  (``fig[1]``), 0 when the figure stands beside the track.
* ``track[MAX_CARDS]`` with ``ncards`` used: the track cards after the start
  card, in order: ``NORMAL`` (2 spaces), ``SAND`` (sandstorm side, 1 space),
  ``HALF`` (a normal card half covered by the finish card, 1 space).
* Cards of the race deck are numbered ``2 * camel + (value - 1)``: ten kinds,
  ``deck[10]`` counts per kind.  The 30 racing cards: per camel five ``+1``
  and one ``+2``.

**Rulings** (where the rulebook is silent):

* Camels on the start card stand side by side and rank behind every camel
  on the track; among themselves they rank in the order given (notation:
  the first listed ranks last).  A camel leaving the start card moves alone.
* A unit moved back onto the start card by the fennec ranks behind the
  camels already there (it goes "under" them), its own order kept; later
  each of its camels leaves the start card alone.
* Figures act on every move (revealed card or hand card).  A unit sent by
  one figure onto the other figure's space (the two may stand on adjacent
  spaces) triggers that one too; each figure is removed as it acts, so a
  move triggers each at most once.
* A figure is removed (with its card, beside the track) as soon as every
  camel is strictly ahead of it, checked after every move.
"""

from __future__ import annotations

import numpy as np

from numba import prange
from numba.typed import List

from ._jit import njit
from .ranks import RANK_CODES, code_of_ranks, ranks_of_code
from .rng import below, seed_stream

N_CAMELS = 5
KINDS = 10  # deck card kinds: 2 * camel + (value - 1)
NORMAL, SAND, HALF = 2, 1, 3
MAX_CARDS = 64
PALM, FENNEC = 0, 1


@njit(inline="always")
def card_spaces(kind):
    return 2 if kind == NORMAL else 1


@njit
def track_length(track, ncards):
    n = 0
    for i in range(ncards):
        n += card_spaces(track[i])
    return n


@njit
def _put(sp, ht, unit_mask, base_ht, space, top):
    """Move the camels of ``unit_mask`` (heights relative to ``base_ht``) to
    ``space``: on top of the camels there, or under them."""
    here = 0
    for x in range(N_CAMELS):
        if sp[x] == space and not (unit_mask >> x) & 1:
            here += 1
    size = 0
    for x in range(N_CAMELS):
        size += (unit_mask >> x) & 1
    if not top:
        for x in range(N_CAMELS):
            if sp[x] == space and not (unit_mask >> x) & 1:
                ht[x] += size
    for x in range(N_CAMELS):
        if (unit_mask >> x) & 1:
            ht[x] = ht[x] - base_ht + (here if top else 0)
            sp[x] = space


@njit
def move(sp, ht, fig, length, camel, dist):
    """Move ``camel`` (with every camel above it; alone from the start card)
    ``dist`` spaces forward, with the palm and fennec effects; returns True
    if the race is over (a unit reached the finish card or beyond)."""
    s0 = sp[camel]
    h0 = ht[camel]
    unit = 0
    if s0 == 0:
        unit = 1 << camel
        for x in range(N_CAMELS):  # the others on the start card close up
            if sp[x] == 0 and ht[x] > h0:
                ht[x] -= 1
    else:
        for x in range(N_CAMELS):
            if sp[x] == s0 and ht[x] >= h0:
                unit |= 1 << x
    t = s0 + dist
    _put(sp, ht, unit, h0, t, True)
    # figures stand on track spaces 1..length (0 means beside the track)
    while 1 <= t <= length:
        if fig[PALM] == t:
            fig[PALM] = 0
            h = ht[camel]
            t += 1
            _put(sp, ht, unit, h, t, True)
        elif fig[FENNEC] == t:
            fig[FENNEC] = 0
            h = ht[camel]
            t -= 1
            _put(sp, ht, unit, h, t, False)
        else:
            break
    last = sp[0]
    for x in range(1, N_CAMELS):
        last = min(last, sp[x])
    for f in range(2):  # also on the move that ends the race
        if fig[f] and fig[f] < last:
            fig[f] = 0
    return t > length


@njit(inline="always")
def rank_of(sp, ht, camel):
    """The 0-based rank of ``camel``: the camels ahead of it (further along,
    or on the same space and higher)."""
    r = 0
    for x in range(N_CAMELS):
        if sp[x] > sp[camel] or (sp[x] == sp[camel] and ht[x] > ht[camel]):
            r += 1
    return r


@njit
def rank_code(sp, ht):
    """The race order as one number (:func:`~advisor.kernels.ranks.code_of_ranks`
    of each camel's :func:`rank_of`)."""
    return code_of_ranks(rank_of(sp, ht, 0), rank_of(sp, ht, 1), rank_of(sp, ht, 2), rank_of(sp, ht, 3))


@njit
def figure_spaces(sp, fig, length, out):
    """Legal spaces for a figure beside the track: empty of camels and of
    the other figure, strictly ahead of the last camel, not beyond
    ``length``.  Fills ``out`` and returns how many."""
    last = sp[0]
    for x in range(1, N_CAMELS):
        last = min(last, sp[x])
    n = 0
    for s in range(max(last + 1, 1), length + 1):
        free = fig[PALM] != s and fig[FENNEC] != s
        for x in range(N_CAMELS):
            if sp[x] == s:
                free = False
        if free:
            out[n] = s
            n += 1
    return n


@njit
def leg_start(sp, ht, fig, track, ncards):
    """Between legs: the figures return beside the track, every empty
    normal track card strictly between the last and the leading camel turns
    to its sandstorm side (for good), and the track is extended so exactly
    3 spaces lie between the leader and the finish if fewer did.  Returns
    ``(ncards, length)``."""
    fig[PALM] = 0
    fig[FENNEC] = 0
    lead = sp[0]
    last = sp[0]
    for x in range(1, N_CAMELS):
        lead = max(lead, sp[x])
        last = min(last, sp[x])
    # sandstorm: decide on the old numbering, then renumber from the back
    first = np.empty(ncards, np.int64)
    s = 1
    for i in range(ncards):
        first[i] = s
        s += card_spaces(track[i])
    for i in range(ncards - 1, -1, -1):
        if track[i] != NORMAL:
            continue
        a = first[i]
        b = a + 1
        if a <= last or b >= lead:
            continue
        empty = True
        for x in range(N_CAMELS):
            if a <= sp[x] <= b:
                empty = False
        if empty:
            track[i] = SAND
            for x in range(N_CAMELS):
                if sp[x] > b:
                    sp[x] -= 1
            lead -= 1
    length = track_length(track, ncards)
    need = 3 - (length - lead)
    if need > 0 and ncards and track[ncards - 1] == HALF:
        track[ncards - 1] = NORMAL
        need -= 1
    while need >= 2:
        track[ncards] = NORMAL
        ncards += 1
        need -= 2
    if need == 1:
        track[ncards] = HALF
        ncards += 1
    return ncards, track_length(track, ncards)


@njit
def draw_card(known, pool, unknown, state):
    """Draw the next card of the race deck: ``known`` counts the cards known
    to be in it, ``unknown`` how many others it holds, drawn from the unseen
    cards ``pool``.  Updates the counts; returns ``(kind, unknown)``."""
    k = 0
    for t in range(KINDS):
        k += known[t]
    r = below(state, k + unknown)
    if r < k:
        for t in range(KINDS):
            if r < known[t]:
                known[t] -= 1
                return t, unknown
            r -= known[t]
    total = 0
    for t in range(KINDS):
        total += pool[t]
    r = below(state, total)
    for t in range(KINDS):
        if r < pool[t]:
            pool[t] -= 1
            return t, unknown - 1
        r -= pool[t]
    return -1, unknown


CODES = RANK_CODES  # race orders (see advisor.kernels.ranks)
CHUNK = 4096  # samples per parallel chunk
#: Seconds on one thread per sampled leg and per race (players choosing at
#: random; revealing only is faster): sizes a call's thread count.
LEG_SECONDS = 1e-6
RACE_SECONDS = 8e-6


@njit
def _deck_left(known, unknown):
    n = unknown
    for t in range(KINDS):
        n += known[t]
    return n


@njit(inline="always")
def _end_state(over, fig):
    return (1 if over else 0) + 2 * (fig[PALM] != 0) + 4 * (fig[FENNEC] != 0)


# ---------------------------------------------------------------- exact legs
# Counting convention of :func:`leg_counts`.  The race deck holds the known
# cards and ``unknown`` more, an ordered sample without replacement from the
# unseen cards ``pool``; every order of the deck is equally likely.  An
# outcome is the deck as revealed: which positions hold known cards and of
# which kind (copies of a kind are alike), and which physical unseen card
# lies at each other position.  Every outcome is equally likely, and there
# are ``completions`` of them: ``n! / (u! k_0! ... k_9!) * P (P-1) ...
# (P-u+1)`` for ``n`` cards, ``u`` of them unknown, ``k_t`` known of kind
# ``t`` and ``P`` unseen cards.  A leg (or race) that ends before the deck
# is empty counts for every completion of the rest of the deck.
#
# The enumeration is breadth-first, one level per card.  A level holds the
# distinct boards (camels, figures) reached, each with its deck states and
# their counts: states reached by different orders are merged.  A deck
# state is the first card (when asked for), the known cards left and, while
# more than ``top`` unknown cards remain, the unseen cards drawn so far (a
# "pair" state: one count).  The future of a board depends on the unseen
# cards drawn only through the counts ``r_t`` of each kind left, and the
# ways to draw a multiset ``nu`` of kinds in a given order from them are
# ``prod_t r_t (r_t - 1) ... (r_t - nu_t + 1)``; so once only ``top``
# unknown cards remain the states of a board that differ only in the cards
# drawn are folded into one "moment" vector indexed by the multisets ``nu``
# of the ``top`` cards still to come: ``sum(count * prod_t ff(r_t, nu_t))``
# (exact integers).  The next unknown card of kind ``t`` then takes entry
# ``nu + t`` (``r_t ff(r_t - 1, nu_t) = ff(r_t, nu_t + 1)``); a known card
# keeps the vector.  The number of states per board stops growing with the
# cards drawn, which is what made whole unknown decks explode (about
# fourfold per card).  Each level is built board by board ("pull"): the
# moves into a board are gathered and merged in a small dense accumulator
# indexed by deck state, so no hash table of (board, deck) pairs is needed;
# each board's moves are computed once.

#: Unknown cards left when a board's deck states are folded into moment
#: vectors (multisets of that many of the 10 kinds: 55 entries for 2).
MOMENT_CARDS = 2
#: Parallel pieces of a level of :func:`leg_counts`: at most this many
#: chunks of boards (the result never depends on how they are cut nor on the
#: thread count), each with at least this many incoming deck entries.
MAX_CHUNKS = 64
CHUNK_WORK = 20_000
#: Seconds on one thread per (board, deck state) pair of :func:`leg_counts`,
#: about: sizes a call's thread count.
LEG_STATE_SECONDS = 1e-7
_HASH = np.uint64(0x9E3779B97F4A7C15)


@njit
def completions(known, unknown, pool_total):
    """The equally likely outcomes of revealing a deck of the ``known``
    cards (counts by kind) and ``unknown`` cards drawn from ``pool_total``
    unseen ones (see the counting convention above)."""
    n = _arrangements(known, unknown)
    for i in range(unknown):
        n *= pool_total - i
    return n


@njit
def _arrangements(known, unknown):
    """``(u + k)! / (u! k_0! ... k_9!)``: the places of the known kinds
    among ``unknown`` other cards, built up exactly."""
    n = 1
    m = 0
    for i in range(unknown):
        m += 1
        n = n * m // (i + 1)
    for t in range(KINDS):
        for i in range(known[t]):
            m += 1
            n = n * m // (i + 1)
    return n


@njit(inline="always")
def _falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@njit
def _multisets(top):
    """The multisets of kinds of sizes ``0..top`` (``top`` <= 3), each size
    in lexicographic order of its sorted kinds: ``(size[j], count[j, i,
    kind], up[j, i, kind], ways[j, i])``; ``up`` is the index, among those
    of size ``j + 1``, of multiset ``i`` plus one card of ``kind``; ``ways``
    the orders of the multiset (``j! / prod count!``)."""
    size = np.zeros(top + 1, np.int64)
    for j in range(top + 1):
        c = 1
        for i in range(j):
            c = c * (KINDS - 1 + j - i) // (i + 1)
        size[j] = c
    width = size[top]
    count = np.zeros((top + 1, width, KINDS), np.int64)
    up = np.full((top + 1, width, KINDS), -1, np.int64)
    ways = np.zeros((top + 1, width), np.int64)
    index = np.full(KINDS ** top + 1, -1, np.int64)
    tup = np.zeros(max(top, 1), np.int64)
    for j in range(top + 1):
        index[:] = -1
        n = 0
        for code in range(KINDS ** j):
            x = code
            for i in range(j):  # the first kind is the most significant digit
                tup[j - 1 - i] = x % KINDS
                x //= KINDS
            ok = True
            for i in range(1, j):
                if tup[i] < tup[i - 1]:
                    ok = False
            if not ok:
                continue
            index[code] = n
            for i in range(j):
                count[j, n, tup[i]] += 1
            w = 1
            k = 0
            for t in range(KINDS):
                for i in range(count[j, n, t]):
                    k += 1
                    w = w * k // (i + 1)
            ways[j, n] = w
            n += 1
        if j > 0:
            for i in range(size[j - 1]):
                for t in range(KINDS):
                    code = 0
                    for s in range(KINDS):
                        for _ in range(count[j - 1, i, s] + (s == t)):
                            code = code * KINDS + s
                    up[j - 1, i, t] = index[code]
    return size, count, up, ways


@njit
def _fold(buf, slot, w, r, top):
    """Add ``w * prod_t ff(r_t, nu_t)`` for every multiset ``nu`` of ``top``
    kinds (in the order of :func:`_multisets`) to ``buf[slot:]``."""
    if top == 0:
        buf[slot] += w
    elif top == 1:
        for a in range(KINDS):
            buf[slot + a] += w * r[a]
    elif top == 2:
        i = slot
        for a in range(KINDS):
            wa = w * r[a]
            buf[i] += wa * (r[a] - 1)
            i += 1
            for b in range(a + 1, KINDS):
                buf[i] += wa * r[b]
                i += 1
    else:
        i = slot
        for a in range(KINDS):
            wa = w * r[a]
            for b in range(a, KINDS):
                wb = wa * (r[b] - (b == a))
                for c in range(b, KINDS):
                    buf[i] += wb * (r[c] - (c == b) - (c == a))
                    i += 1


@njit
def _grow(a, rows):
    out = np.empty((rows,) + a.shape[1:], a.dtype)
    out[: a.shape[0]] = a
    return out


@njit
def _grow_filled(a, rows, fill):
    """:func:`_grow` with the new rows set to ``fill``."""
    out = np.full((rows,) + a.shape[1:], fill, a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(inline="always")
def _slot(key, bits):
    return np.int64((np.uint64(key) * _HASH) >> np.uint64(64 - bits))


@njit
def _find(table, bits, key):
    """Slot of ``key`` (> 0) in an open-addressing table of (key, value)."""
    mask = (1 << bits) - 1
    h = _slot(key, bits)
    while table[2 * h] != 0 and table[2 * h] != key:
        h = (h + 1) & mask
    return h


@njit
def _rehash(table, bits):
    bigger = np.zeros(2 << bits, np.int64)
    for i in range(0, table.size, 2):
        if table[i] != 0:
            h = _find(bigger, bits, table[i])
            bigger[2 * h] = table[i]
            bigger[2 * h + 1] = table[i + 1]
    return bigger


@njit
def _board_key(sp, ht, fig):
    """Spaces (7 bits each), race order (10 bits), figures (7 bits each) and
    a marker bit: never 0."""
    key = 1 << 59
    for x in range(N_CAMELS):
        key |= sp[x] << (7 * x)
    key |= rank_code(sp, ht) << 35
    key |= fig[PALM] << 45
    key |= fig[FENNEC] << 52
    return key


@njit
def _board_of(key, sp, ht, fig):
    """Inverse of :func:`_board_key`."""
    for x in range(N_CAMELS):
        sp[x] = (key >> (7 * x)) & 127
    r0, r1, r2, r3, r4 = ranks_of_code((key >> 35) & 1023)
    rank = (r0, r1, r2, r3, r4)
    for x in range(N_CAMELS):
        h = 0
        for y in range(N_CAMELS):
            if sp[y] == sp[x] and rank[y] > rank[x]:
                h += 1
        ht[x] = h
    fig[PALM] = (key >> 45) & 127
    fig[FENNEC] = (key >> 52) & 127


@njit
def _deck_level(codes, known, pool, unknown, top, radix, msize):
    """The deck states one card further than ``codes`` (this level's states,
    first card aside) and the moves to them.

    A pair state's code is mixed radix, per kind ``t``: known left
    (``known[t] + 1`` values) and unseen drawn (``radix[t]`` values); a
    moment state's code is ``-(1 + known-left code * (top + 1) + unknown
    left)``.  Returns ``(next codes, step[2 * t + side, l])``: the next
    state's index ``l2`` after a known (``side`` 0) or an unknown (1) card of
    kind ``t`` and its multiplicity ``w`` (pair states; moment states: 0 for
    a known card, which keeps the vector, -1 for an unknown one, which
    shifts it) as ``l2 * 8 + w + 1`` (-1: impossible; one table, laid out
    by move, read along a parent's entries); and per next state its
    size (1 or a moment vector's), completions (pair: of the rest of the
    deck; moment: the known cards' places only), kinds it may reveal,
    unknown cards left, the moment state it folds into (-1 if none) and
    its unseen counts left ``r`` (for folding)."""
    n = codes.size
    step = np.full((2 * KINDS, n), -1, np.int64)
    cap = 64
    while cap < 8 * n:
        cap *= 2
    bits = 1
    while (1 << bits) < 2 * cap:
        bits += 1
    table = np.zeros(2 << bits, np.int64)
    out = np.empty(cap, np.int64)
    m = 0
    kap = np.empty(KINDS, np.int64)
    dig = np.empty(KINDS, np.int64)
    tp1 = top + 1
    for l in range(n):
        code = codes[l]
        moment = code < 0
        u = 0
        if moment:
            q = -1 - code
            u = q % tp1
            x = q // tp1
            for t in range(KINDS):
                kap[t] = x % (known[t] + 1)
                x //= known[t] + 1
        else:
            x = code
            d = 0
            for t in range(KINDS):
                kap[t] = x % (known[t] + 1)
                x //= known[t] + 1
                dig[t] = x % radix[t]
                x //= radix[t]
                d += dig[t]
            u = unknown - d
        for mv in range(2 * KINDS):
            t = mv // 2
            known_card = mv % 2 == 0
            if known_card:
                if kap[t] == 0:
                    continue
                w = 0 if moment else 1
            else:
                if u == 0 or (not moment and dig[t] >= pool[t]):
                    continue
                w = -1 if moment else pool[t] - dig[t]
            # the next state's code
            stride = 1
            for s in range(t):
                stride *= (known[s] + 1) * (1 if moment else radix[s])
            if moment:
                q = -1 - code
                if known_card:
                    q -= stride * tp1
                else:
                    q -= 1
                nxt = -1 - q
            elif known_card:
                nxt = code - stride
            else:
                nxt = code + stride * (known[t] + 1)
            h = _find(table, bits, nxt + (1 << 62))
            if table[2 * h] == 0:
                if m == out.size:
                    out = _grow(out, 2 * m)
                    # keep the table at most half full
                    bits += 1
                    table = _rehash(table, bits)
                    h = _find(table, bits, nxt + (1 << 62))
                table[2 * h] = nxt + (1 << 62)
                table[2 * h + 1] = m
                out[m] = nxt
                m += 1
            step[mv, l] = table[2 * h + 1] * 8 + w + 1
    # the next states' attributes; pair states with ``top`` unknown cards
    # left fold into a moment state (added to the level)
    cap = out.size
    size = np.ones(cap, np.int64)
    comp = np.zeros(cap, np.int64)
    mask = np.zeros(cap, np.int64)
    left = np.zeros(cap, np.int64)
    fold = np.full(cap, -1, np.int64)
    r = np.zeros((cap, KINDS), np.int64)
    pool_total = 0
    for t in range(KINDS):
        pool_total += pool[t]
    i = 0
    while i < m:
        code = out[i]
        if code < 0:
            q = -1 - code
            u = q % tp1
            x = q // tp1
            mk = 0
            for t in range(KINDS):
                kap[t] = x % (known[t] + 1)
                x //= known[t] + 1
                if kap[t] or u:
                    mk |= 1 << t
            size[i] = msize[u]
            comp[i] = _arrangements(kap, u)
            mask[i] = mk
            left[i] = u
        else:
            x = code
            d = 0
            kcode = 0
            kstride = 1
            for t in range(KINDS):
                kap[t] = x % (known[t] + 1)
                x //= known[t] + 1
                dig[t] = x % radix[t]
                x //= radix[t]
                d += dig[t]
                kcode += kap[t] * kstride
                kstride *= known[t] + 1
            u = unknown - d
            mk = 0
            for t in range(KINDS):
                r[i, t] = pool[t] - dig[t]
                if kap[t] or (u and dig[t] < pool[t]):
                    mk |= 1 << t
            comp[i] = _arrangements(kap, u) * _falling(pool_total - d, u)
            mask[i] = mk
            left[i] = u
            if u <= top:
                target = -1 - (kcode * tp1 + u)
                h = _find(table, bits, target + (1 << 62))
                if table[2 * h] == 0:
                    if m == out.size:
                        out = _grow(out, 2 * m)
                        size = _grow(size, 2 * m)
                        comp = _grow(comp, 2 * m)
                        mask = _grow(mask, 2 * m)
                        left = _grow(left, 2 * m)
                        fold = _grow(fold, 2 * m)
                        r = _grow(r, 2 * m)
                        bits += 1
                        table = _rehash(table, bits)
                        h = _find(table, bits, target + (1 << 62))
                    table[2 * h] = target + (1 << 62)
                    table[2 * h + 1] = m
                    out[m] = target
                    fold[m] = -1
                    m += 1
                fold[i] = table[2 * h + 1]
        i += 1
    return out[:m], step, size[:m], comp[:m], mask[:m], left[:m], fold[:m], r[:m]


@njit(inline="always")
def _chunk_size(n, chunk):
    """Nodes per parallel chunk of a level's boards (at most 16 chunks,
    at least ``chunk`` // 40 nodes each)."""
    return max(1, chunk // 40, (n + 15) // 16)


@njit(inline="always")
def _state_of(lf, ncur, nf):
    """``(first, deck state)`` of an entry's ``first * ncur + state``."""
    if nf == 1:
        return 0, lf
    f = lf // ncur
    return f, lf - f * ncur


@njit(inline="always")
def _entry_count(vals, off, w, l2, t, msize, mways, mup, l_left):
    """The outcomes an entry (its values at ``vals[off:]``) gives a move to
    deck state ``l2`` of multiplicity ``w`` (see :func:`_deck_level`) when
    the leg ends there: before the completions of the rest of the deck."""
    if w > 0:
        return vals[off] * w
    u2 = l_left[l2]
    n = 0
    if w == 0:
        for i in range(msize[u2]):
            n += mways[u2, i] * vals[off + i]
    else:
        for i in range(msize[u2]):
            n += mways[u2, i] * vals[off + mup[u2, i, t]]
    return n


@njit
def _node_moves(p0, p1, node_board, b_key, b_move, node_mask, last, length, out):
    """The moves of the boards of nodes ``p0 .. p1 - 1`` not worked out yet
    (every node at the last card): ``out[p, kind]`` the key of the board
    after (> 0), or ``-1 - (end * CODES + code)`` if the move ends the leg
    (or ``-1 - ...`` too at the last card); 0 if not needed."""
    c_sp = np.empty(N_CAMELS, np.int64)
    c_ht = np.empty(N_CAMELS, np.int64)
    c_fig = np.empty(2, np.int64)
    d_sp = np.empty(N_CAMELS, np.int64)
    d_ht = np.empty(N_CAMELS, np.int64)
    d_fig = np.empty(2, np.int64)
    for p in range(p0, p1):
        b = node_board[p]
        for t in range(KINDS):
            out[p, t] = 0
        if not last and b_move[b, 0] != -1:
            continue
        _board_of(b_key[b], d_sp, d_ht, d_fig)
        for t in range(KINDS):
            if last and not (node_mask[p] >> t) & 1:
                continue
            for x in range(N_CAMELS):
                c_sp[x] = d_sp[x]
                c_ht[x] = d_ht[x]
            c_fig[0] = d_fig[0]
            c_fig[1] = d_fig[1]
            over = move(c_sp, c_ht, c_fig, length, t // 2, t % 2 + 1)
            if last or over:
                out[p, t] = -1 - (_end_state(over, c_fig) * CODES + rank_code(c_sp, c_ht))
            else:
                out[p, t] = _board_key(c_sp, c_ht, c_fig)


@njit
def _count_ends(p0, p1, node_start, node_mask, ends, ent_state, ent_off, vals, ncur, nf, side0, dstep,
                l_comp, l_left, msize, mways, mup, codes, figs):
    """Count the legs that end at this card from nodes ``p0 .. p1 - 1``
    (``ends[p, kind]``: the outcome ``end * CODES + code`` of a move that
    ends the leg, -1 if it does not): every completion of the rest of the
    deck counts.  Adds to ``codes`` and ``figs``."""
    for p in range(p0, p1):
        for t in range(KINDS):
            o = ends[p, t]
            if o < 0 or not (node_mask[p] >> t) & 1:
                continue
            oe = o // CODES
            oc = o - oe * CODES
            for e in range(node_start[p], node_start[p + 1]):
                f, l = _state_of(ent_state[e], ncur, nf)
                f2 = t if f == KINDS else f
                off = ent_off[e]
                for side in range(side0, 2):
                    mv = 2 * t + side
                    code = dstep[mv, l]
                    if code < 0:
                        continue
                    l2 = code >> 3
                    n = _entry_count(vals, off, (code & 7) - 1, l2, t, msize, mways, mup, l_left) * l_comp[l2]
                    codes[f2, oe, oc] += n
                    if oe & 2:
                        figs[f2, 0] += n
                    if oe & 4:
                        figs[f2, 1] += n


@njit
def _merge_children(c0, c1, order, sorted_e, node_start, ent_state, ent_off, vals, ncur, nnext, nf, side0,
                    dstep, l_size, l_fold, l_r, l_mask, cur_left, mup, top, width):
    """Build the boards after, children ``c0 .. c1 - 1``, one at a time: the
    moves into each gathered and merged by deck state in a dense
    accumulator, then the pair states with ``top`` unknown cards left
    folded.  Returns ``(states, offsets into values, values, entries per
    child, kinds each child may reveal, kept)``: ``kept`` the (board, deck
    state) pairs, the pair states folded included."""
    nfull = nf * nnext
    acc = np.zeros(nfull, np.int64)  # stamp << 32 | slot in buf
    touched = np.empty(nfull, np.int64)
    buf = np.zeros(4096, np.int64)
    new_state = np.empty(64, np.int64)
    new_off = np.empty(64, np.int64)
    new_vals = np.empty(256, np.int64)
    count = np.zeros(c1 - c0, np.int64)
    masks = np.zeros(c1 - c0, np.int64)
    n_ent = 0
    n_val = 0
    kept = 0
    stamp = 0
    for c in range(c0, c1):
        stamp += 1
        nt = 0
        used = 0
        for j in range(order[c], order[c + 1]):
            p = sorted_e[j] // KINDS
            t = sorted_e[j] - p * KINDS
            for e in range(node_start[p], node_start[p + 1]):
                f, l = _state_of(ent_state[e], ncur, nf)
                f2 = t if f == KINDS else f
                off = ent_off[e]
                for side in range(side0, 2):
                    mv = 2 * t + side
                    code = dstep[mv, l]
                    if code < 0:
                        continue
                    l2 = code >> 3
                    s2 = f2 * nnext + l2
                    a = acc[s2]
                    if (a >> 32) != stamp:
                        sz = l_size[l2]
                        acc[s2] = (stamp << 32) | used
                        slot = used
                        if used + sz > buf.size:
                            buf = _grow(buf, 2 * (used + sz))
                        for i in range(sz):
                            buf[used + i] = 0
                        used += sz
                        touched[nt] = s2
                        nt += 1
                    else:
                        slot = a & 0xFFFFFFFF
                    w = (code & 7) - 1
                    if w > 0:
                        buf[slot] += vals[off] * w
                    elif w == 0:
                        for i in range(l_size[l2]):
                            buf[slot + i] += vals[off + i]
                    else:
                        u = cur_left[l] - 1
                        for i in range(l_size[l2]):
                            buf[slot + i] += vals[off + mup[u, i, t]]
        # fold the pair states with ``top`` unknown cards left
        n_touched = nt
        for q in range(n_touched):
            f, l2 = _state_of(touched[q], nnext, nf)
            l3 = l_fold[l2]
            if l3 < 0:
                continue
            s3 = f * nnext + l3
            if (acc[s3] >> 32) != stamp:
                acc[s3] = (stamp << 32) | used
                if used + width > buf.size:
                    buf = _grow(buf, 2 * (used + width))
                for i in range(width):
                    buf[used + i] = 0
                used += width
                touched[nt] = s3
                nt += 1
            _fold(buf, acc[s3] & 0xFFFFFFFF, buf[acc[touched[q]] & 0xFFFFFFFF], l_r[l2], top)
        m = 0
        n0 = n_ent
        for q in range(nt):
            s2 = touched[q]
            _, l2 = _state_of(s2, nnext, nf)
            if l_fold[l2] >= 0:
                continue
            sz = l_size[l2]
            m |= l_mask[l2]
            if n_ent == new_state.size:
                new_state = _grow(new_state, 2 * n_ent)
                new_off = _grow(new_off, 2 * n_ent)
            if n_val + sz > new_vals.size:
                new_vals = _grow(new_vals, 2 * (n_val + sz))
            new_state[n_ent] = s2
            new_off[n_ent] = n_val
            slot = acc[s2] & 0xFFFFFFFF
            for i in range(sz):
                new_vals[n_val + i] = buf[slot + i]
            n_val += sz
            n_ent += 1
        masks[c - c0] = m
        count[c - c0] = n_ent - n0
        kept += nt
    return new_state[:n_ent], new_off[:n_ent], new_vals[:n_val], count, masks, kept


def _leg_counts_work(sp, ht, fig, length, known, pool, unknown, *_):
    """About the seconds of a :func:`leg_counts` call on one thread (the
    states grow at most about fourfold per card) and its pieces."""
    kinds = 0
    for t in range(KINDS):
        kinds += known[t] > 0 or (unknown > 0 and pool[t] > 0)
    cards = int(known.sum()) + unknown
    return LEG_STATE_SECONDS * float(min(max(kinds, 1), 4)) ** cards, MAX_CHUNKS


@njit(parallel=True, work=_leg_counts_work)
def leg_counts(sp, ht, fig, length, known, pool, unknown, by_first, codes, figs, states, limit=-1,
               top=MOMENT_CARDS, chunk=CHUNK_WORK):
    """Every order and content of the rest of the race deck, revealed card
    by card until it is empty or the race is over, counted exactly (see the
    counting convention above); returns the number of outcomes, or -1 if
    the enumeration was given up (``limit``, below).

    Adds to ``codes[first, end, code]`` (int64[KINDS, 8, CODES]) the
    outcomes whose first card is of kind ``first`` (0 for every outcome
    unless ``by_first``), that end in state ``end = over + 2 * palm + 4 *
    fennec`` (``over`` 1 if the race ends in the leg; ``palm``/``fennec`` 1
    if that figure is still on the track then) with the camels in race
    order ``code``; to ``figs[first, f]`` (int64[KINDS, 2]) the outcomes in
    which figure ``f`` is still on the track when the leg (or the race)
    ends.  The deck holds the ``known`` cards and ``unknown`` more drawn
    from ``pool`` without replacement.  Sets ``states[j]`` (int64, one per
    card of the deck) to the (board, deck state) pairs reached after ``j +
    1`` cards (pair states folded that card included; 0 after the last
    card).  ``limit`` > 0: give up (return -1, the counts then meaningless)
    as soon as a card's states exceed it or, growing as they did (the
    growth shrinking as it did), would exceed it at a later card while
    unseen cards drawn are still kept apart.  ``top`` (0..3): unknown cards left when a
    board's deck states are folded (:data:`MOMENT_CARDS`; any value gives the
    same counts).  ``chunk``: the least work (incoming deck entries; nodes
    for moves) of a parallel chunk of a level (any value gives the same
    counts; :data:`CHUNK_WORK`).  The caller makes sure the number of outcomes fits in
    int64 (every count kept is at most that number)."""
    pool_total = 0
    for t in range(KINDS):
        pool_total += pool[t]
    total = completions(known, unknown, pool_total)
    depth = unknown
    for t in range(KINDS):
        depth += known[t]
    states[:] = 0
    if depth == 0:
        return total
    top = max(0, min(top, unknown, 3))
    msize, mcount, mup, mways = _multisets(top)
    width = msize[top]
    tp1 = top + 1
    radix = np.empty(KINDS, np.int64)
    for t in range(KINDS):
        radix[t] = min(pool[t], unknown) + 1
    nf = KINDS + 1 if by_first else 1  # first card; KINDS: none yet

    # boards: key, moves (-1 not yet; >= 0 the board after; <= -2 the
    # outcome -2 - (end * CODES + code) of a move that ends the race)
    bcap = 1024
    b_key = np.empty(bcap, np.int64)
    b_move = np.full((bcap, KINDS), -1, np.int64)
    b_level = np.full(bcap, -1, np.int64)
    b_node = np.empty(bcap, np.int64)
    hbits = 12
    htab = np.zeros(2 << hbits, np.int64)
    key = _board_key(sp, ht, fig)
    h = _find(htab, hbits, key)
    htab[2 * h] = key
    htab[2 * h + 1] = 0
    b_key[0] = key
    nb = 1

    # the root: one board, one deck state
    dcodes = np.zeros(1, np.int64)
    k0 = 0
    kstride = 1
    c0 = 0
    pstride = 1
    for t in range(KINDS):
        k0 += known[t] * kstride
        kstride *= known[t] + 1
        c0 += known[t] * pstride
        pstride *= (known[t] + 1) * radix[t]
    f0 = KINDS if by_first else 0
    if unknown <= top:
        dcodes[0] = -1 - (k0 * tp1 + unknown)
        vals = np.zeros(msize[unknown], np.int64)
        for i in range(msize[unknown]):
            v = 1
            for t in range(KINDS):
                v *= _falling(pool[t], mcount[unknown, i, t])
            vals[i] = v
    else:
        dcodes[0] = c0
        vals = np.ones(1, np.int64)
    n_nodes = 1
    node_board = np.zeros(1, np.int64)
    node_start = np.zeros(2, np.int64)
    node_start[1] = 1
    node_mask = np.full(1, (1 << KINDS) - 1, np.int64)
    ent_state = np.full(1, f0, np.int64)  # first * (this level's deck states) + deck state
    ent_off = np.zeros(1, np.int64)
    ncur = 1
    side0 = 0 if depth > unknown else 1  # no known cards: never side 0

    before = 0
    before2 = 0
    for level in range(depth):
        last = level == depth - 1
        dnext, dstep, l_size, l_comp, l_mask, l_left, l_fold, l_r = _deck_level(
            dcodes, known, pool, unknown, top, radix, msize)
        nnext = dnext.size
        cur_left = np.empty(ncur, np.int64)
        for l in range(ncur):
            code = dcodes[l]
            if code < 0:
                cur_left[l] = (-1 - code) % tp1
            else:
                cur_left[l] = 0
        # A. this level's boards: their moves (worked out once per board, in
        # parallel chunks of nodes), the legs that end, the boards after
        nodes_per = _chunk_size(n_nodes, chunk)
        n_chunks = (n_nodes + nodes_per - 1) // nodes_per
        out = np.empty((n_nodes, KINDS), np.int64)
        for k in prange(n_chunks):
            _node_moves(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), node_board, b_key, b_move, node_mask,
                        last, length, out)
        ends = np.full((n_nodes, KINDS), -1, np.int64)
        edge = np.empty(n_nodes * KINDS, np.int64)  # parent * KINDS + kind
        edge_c = np.empty(n_nodes * KINDS, np.int64)
        child_board = np.empty(1 if last else n_nodes * KINDS, np.int64)
        ne = 0
        nc = 0
        for p in range(n_nodes):
            b = node_board[p]
            for t in range(KINDS):
                key = out[p, t]
                if last:
                    if key < 0:
                        ends[p, t] = -1 - key
                    continue
                if key < 0:
                    b_move[b, t] = -1 + key  # -2 - outcome
                elif key > 0:
                    h = _find(htab, hbits, key)
                    if htab[2 * h] == 0:
                        if nb == bcap:
                            bcap *= 2
                            b_key = _grow(b_key, bcap)
                            b_node = _grow(b_node, bcap)
                            b_move = _grow_filled(b_move, bcap, -1)
                            b_level = _grow_filled(b_level, bcap, -1)
                        b_key[nb] = key
                        htab[2 * h] = key
                        htab[2 * h + 1] = nb
                        nb += 1
                        if 2 * nb > (1 << hbits):
                            hbits += 1
                            htab = _rehash(htab, hbits)
                            h = _find(htab, hbits, key)
                    b_move[b, t] = htab[2 * h + 1]
                if not (node_mask[p] >> t) & 1:
                    continue
                c = b_move[b, t]
                if c >= 0:
                    if b_level[c] != level:
                        b_level[c] = level
                        b_node[c] = nc
                        child_board[nc] = c
                        nc += 1
                    edge[ne] = p * KINDS + t
                    edge_c[ne] = b_node[c]
                    ne += 1
                else:
                    ends[p, t] = -2 - c
        # the legs that end (race over, or deck empty): every completion of
        # the rest of the deck counts; chunks of nodes count apart, summed
        n_ends = 0
        for p in range(n_nodes):
            for t in range(KINDS):
                n_ends += ends[p, t] >= 0
        if n_ends:
            nfc = KINDS if by_first else 1
            part_codes = np.zeros((n_chunks, nfc, 8, CODES), np.int64)
            part_figs = np.zeros((n_chunks, nfc, 2), np.int64)
            for k in prange(n_chunks):
                _count_ends(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), node_start, node_mask, ends,
                            ent_state, ent_off, vals, ncur, nf, side0, dstep, l_comp, l_left, msize, mways,
                            mup, part_codes[k], part_figs[k])
            for k in range(n_chunks):
                for f in range(nfc):
                    for e in range(8):
                        for o in range(CODES):
                            codes[f, e, o] += part_codes[k, f, e, o]
                    figs[f, 0] += part_figs[k, f, 0]
                    figs[f, 1] += part_figs[k, f, 1]
        if last:
            break
        # B. the boards after, in parallel chunks of boards (each built one
        # at a time), joined in order
        order = np.zeros(nc + 1, np.int64)
        for i in range(ne):
            order[edge_c[i] + 1] += 1
        for i in range(nc):
            order[i + 1] += order[i]
        fill = np.empty(nc, np.int64)
        for i in range(nc):
            fill[i] = order[i]
        sorted_e = np.empty(ne, np.int64)
        for i in range(ne):
            sorted_e[fill[edge_c[i]]] = edge[i]
            fill[edge_c[i]] += 1
        # chunks of about equal work (incoming entries)
        work = np.zeros(nc + 1, np.int64)
        for c in range(nc):
            w = 0
            for j in range(order[c], order[c + 1]):
                p = sorted_e[j] // KINDS
                w += node_start[p + 1] - node_start[p]
            work[c + 1] = work[c] + w
        per = max(chunk, (work[nc] + MAX_CHUNKS - 1) // MAX_CHUNKS)
        cut = np.zeros(MAX_CHUNKS + 2, np.int64)
        n_parts = 0
        c = 0
        while c < nc:
            cut[n_parts] = c
            n_parts += 1
            goal = work[c] + per
            while c < nc and work[c] < goal:
                c += 1
        cut[n_parts] = nc
        p_state = List()
        p_off = List()
        p_vals = List()
        p_count = List()
        p_mask = List()
        for k in range(n_parts):
            p_state.append(np.empty(0, np.int64))
            p_off.append(np.empty(0, np.int64))
            p_vals.append(np.empty(0, np.int64))
            p_count.append(np.empty(0, np.int64))
            p_mask.append(np.empty(0, np.int64))
        p_kept = np.zeros(n_parts, np.int64)
        for k in prange(n_parts):
            st, of, vl, cnt, msk, kp = _merge_children(cut[k], cut[k + 1], order, sorted_e, node_start, ent_state,
                                                       ent_off, vals, ncur, nnext, nf, side0, dstep, l_size,
                                                       l_fold, l_r, l_mask, cur_left, mup, top, width)
            p_state[k] = st
            p_off[k] = of
            p_vals[k] = vl
            p_count[k] = cnt
            p_mask[k] = msk
            p_kept[k] = kp
        kept = 0
        n_ent = 0
        n_val = 0
        for k in range(n_parts):
            kept += p_kept[k]
            n_ent += p_state[k].size
            n_val += p_vals[k].size
        if 0 < limit < kept:
            return -1
        new_state = np.empty(n_ent, np.int64)
        new_off = np.empty(n_ent, np.int64)
        new_vals = np.empty(n_val, np.int64)
        new_start = np.zeros(nc + 1, np.int64)
        new_mask = np.empty(nc, np.int64)
        e0 = 0
        v0 = 0
        for k in range(n_parts):
            a_state = p_state[k]
            a_off = p_off[k]
            a_vals = p_vals[k]
            for i in range(a_state.size):
                new_state[e0 + i] = a_state[i]
                new_off[e0 + i] = a_off[i] + v0
            for i in range(a_vals.size):
                new_vals[v0 + i] = a_vals[i]
            a_count = p_count[k]
            a_mask = p_mask[k]
            for i in range(a_count.size):
                c = cut[k] + i
                new_start[c + 1] = new_start[c] + a_count[i]
                new_mask[c] = a_mask[i]
            e0 += a_state.size
            v0 += a_vals.size
        states[level] = kept
        # give up early if the states, growing as they did (the growth
        # itself shrinking as it did), would exceed the limit before the
        # last card at which unseen cards drawn are kept apart
        if limit > 0 and before2 > 0:
            g = kept / before
            shrink = min(1.0, g / (before / before2))
            guess = float(kept)
            for _ in range(level + 2, depth - top + 1):
                g *= shrink
                guess *= g
                if guess > limit:
                    return -1
        before2 = before
        before = kept
        n_nodes = nc
        node_board = child_board[:nc]
        node_start = new_start
        node_mask = new_mask
        ent_state = new_state
        ent_off = new_off
        vals = new_vals
        dcodes = dnext
        ncur = nnext
        if nc == 0:
            break
    return total


@njit(inline="always")
def _reveal_rest(sp, ht, fig, length, known, pool, unknown, state):
    """Reveal the rest of the race deck at random until it is empty or the
    race is over; returns ``(over, kind of the first card or -1)``."""
    first = -1
    over = False
    while not over and _deck_left(known, unknown) > 0:
        kind, unknown = draw_card(known, pool, unknown, state)
        if first < 0:
            first = kind
        over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
    return over, first


def _leg_work(sp, ht, fig, length, known, pool, unknown, samples, *_):
    return samples * LEG_SECONDS, (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_leg_work)
def leg_sample(sp, ht, fig, length, known, pool, unknown, samples, seed, codes, figs):
    """the legs of :func:`leg_counts`, by sampling: ``samples`` legs, sample ``i`` from
    stream ``(seed, i)``; adds counts (not probabilities).  Chunks of
    samples run in parallel, each with its own counts, summed in order: the
    result does not depend on the thread count."""
    nchunks = (samples + CHUNK - 1) // CHUNK
    part_codes = np.zeros((nchunks,) + codes.shape, codes.dtype)
    part_figs = np.zeros((nchunks,) + figs.shape, figs.dtype)
    for c in prange(nchunks):
        _leg_chunk(sp, ht, fig, length, known, pool, unknown, c * CHUNK, min(samples, (c + 1) * CHUNK), seed,
                   part_codes[c], part_figs[c])
    for c in range(nchunks):
        codes += part_codes[c]
        figs += part_figs[c]


@njit
def _leg_chunk(sp, ht, fig, length, known, pool, unknown, start, stop, seed, codes, figs):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_known[:] = known
        s_pool[:] = pool
        over, first = _reveal_rest(s_sp, s_ht, s_fig, length, s_known, s_pool, unknown, state)
        codes[first, _end_state(over, s_fig), rank_code(s_sp, s_ht)] += 1
        for f in range(2):
            if s_fig[f]:
                figs[first, f] += 1


@njit
def _random_turn(sp, ht, fig, length, player, hands, known, pool, unk, state, spaces):
    """One turn of a player choosing at random among the race actions open
    to them: reveal, play their hand card (moves 1), place a figure beside
    the track on a random legal space.  Returns ``(over, unknown, revealed)``."""
    options = 1
    hand = hands[player] >= 0
    options += hand
    nspaces = figure_spaces(sp, fig, length, spaces)
    figures_free = 0
    if nspaces:
        for f in range(2):
            figures_free += fig[f] == 0
    options += figures_free
    pick = below(state, options)
    if pick == 0:
        kind, unk = draw_card(known, pool, unk, state)
        return move(sp, ht, fig, length, kind // 2, kind % 2 + 1), unk, True
    if hand and pick == 1:
        camel = hands[player] // 2
        hands[player] = -1
        return move(sp, ht, fig, length, camel, 1), unk, False
    pick -= 1 + hand
    for f in range(2):
        if fig[f] == 0:
            if pick == 0:
                fig[f] = spaces[below(state, nspaces)]
                return False, unk, False
            pick -= 1
    return False, unk, False


def _race_work(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others, start, stop,
               *_):
    samples = stop - start
    return samples * RACE_SECONDS * (1.0 if random_others else 0.75), (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_race_work)
def race_sample(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                start, stop, seed, ranks, legs):
    """Whole races: the current leg reveals the rest of its deck; each later
    leg starts with :func:`leg_start`, a deck of ``deck_size`` cards drawn
    from the 30 and a hand card for each of ``players`` from the rest, and is
    played by players who choose at random (``random_others``) or only
    reveal.  Plays races ``start .. stop - 1``: race ``i`` uses stream
    ``(seed, i)``, so the same seed replays the same cards from any start
    and a run can be extended with more races.  Adds to
    ``ranks[first, camel, rank]`` (int64[KINDS, 5, 5]) the final ranks of
    the camels, by the kind of the current leg's first card, and to
    ``legs[k]`` the races that ended ``k`` legs after this one (the last
    entry: still running after that many).  A race already over (no card
    left to draw) counts under kind 0.  Chunks run in parallel with their
    own counts (thread count never matters)."""
    nchunks = (stop - start + CHUNK - 1) // CHUNK
    part_ranks = np.zeros((nchunks,) + ranks.shape, np.int64)
    part_legs = np.zeros((nchunks,) + legs.shape, np.int64)
    for c in prange(nchunks):
        _race_chunk(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                    start + c * CHUNK, min(stop, start + (c + 1) * CHUNK), seed, part_ranks[c], part_legs[c])
    for c in range(nchunks):
        ranks += part_ranks[c]
        legs += part_legs[c]


@njit
def _race_chunk(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                start, stop, seed, ranks, legs):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    s_track = np.empty(MAX_CARDS, np.int64)
    full = np.empty(KINDS, np.int64)
    hands = np.empty(players, np.int64)
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_known[:] = known
        s_pool[:] = pool
        s_track[:ncards] = track[:ncards]
        n = ncards
        length = track_length(s_track, n)
        over, first = _reveal_rest(s_sp, s_ht, s_fig, length, s_known, s_pool, unknown, state)
        over, played = later_legs(s_sp, s_ht, s_fig, s_track, n, over, players, deck_size, random_others, state,
                                  s_known, s_pool, full, hands, spaces, legs.size - 1)
        legs[played if over else legs.size - 1] += 1
        for camel in range(N_CAMELS):
            ranks[max(first, 0), camel, rank_of(s_sp, s_ht, camel)] += 1


@njit
def later_legs(sp, ht, fig, track, ncards, over, players, deck_size, random_others, state, known, pool, full, hands,
               spaces, max_legs):
    """The legs after the current one (which ended with ``over`` telling
    whether the race is over), until the race is over or ``max_legs`` legs
    were played: each starts with :func:`leg_start`, a deck of
    ``deck_size`` cards drawn from the 30 and a hand card for each of
    ``players`` from the rest, and is played from player 0 on by players
    who choose at random (``random_others``) or only reveal.  ``known``,
    ``pool``, ``full`` (int64[KINDS]), ``hands`` (int64[players]) and
    ``spaces`` are scratch.  Returns ``(over, legs played)``."""
    n = ncards
    length = track_length(track, n)
    played = 0
    while not over and played < max_legs:
        played += 1
        n, length = leg_start(sp, ht, fig, track, n)
        for t in range(KINDS):
            full[t] = 5 if t % 2 == 0 else 1
            known[t] = 0
        # the deck: deck_size cards of the 30; the hands: from the rest
        for t in range(KINDS):
            pool[t] = full[t]
        unk = deck_size
        for p in range(players):
            total = 0
            for t in range(KINDS):
                total += pool[t]
            # hands first, then the deck lazily from what is left: every
            # deal of the 30 cards is equally likely either way
            r = below(state, total)
            hands[p] = -1
            for t in range(KINDS):
                if r < pool[t]:
                    hands[p] = t
                    pool[t] -= 1
                    break
                r -= pool[t]
        player = 0
        while not over and unk > 0:
            if random_others:
                over, unk, _ = _random_turn(sp, ht, fig, length, player, hands, known, pool, unk, state, spaces)
            else:
                kind, unk = draw_card(known, pool, unk, state)
                over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
            player = (player + 1) % players
    return over, played


__all__ = [
    "CODES", "FENNEC", "HALF", "MOMENT_CARDS", "completions", "leg_counts", "leg_sample", "race_sample", "KINDS", "MAX_CARDS", "NORMAL", "N_CAMELS", "PALM", "SAND", "card_spaces", "draw_card",
    "figure_spaces", "later_legs", "leg_start", "move", "rank_code", "rank_of", "track_length",
]
