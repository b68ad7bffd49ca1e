"""Camel Up Cards: the race deck's states in the exact leg enumeration.

The race deck holds the known cards and ``unknown`` more, an ordered sample
without replacement from the unseen cards ``pool``; every order is equally
likely (the counting convention: :mod:`advisor.kernels.cards.exact`).  A
*deck state* is what the rest of the leg depends on: the known cards left
and, while more than ``top`` unknown cards remain, the unseen cards drawn so
far (a "pair" state: one count per board); once ``top`` or fewer unknown
cards remain, a board's states that differ only in the unseen cards drawn
are folded into one "moment" vector indexed by the multisets ``nu`` of the
unknown cards still to come: ``sum(count * prod_t ff(r_t, nu_t))`` (exact
integers; ``r_t`` the unseen cards of kind ``t`` left, ``ff`` the falling
factorial).  The next unknown card of kind ``t`` takes entry ``nu + t``
(``r_t ff(r_t - 1, nu_t) = ff(r_t, nu_t + 1)``); a known card keeps the
vector.

:func:`deck_level` numbers the states one card further and tabulates the
moves between them; :func:`fold_table` the moment vector of one count in
each pair state that folds; :func:`entry_count` the outcomes an entry gives
when the leg ends at a card; :func:`completions` the outcomes of a deck.
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit
from advisor.kernels.cards.track import KINDS
from advisor.kernels.hashing import find, grow, rehash

__all__ = ["completions", "arrangements", "falling", "multisets", "fold", "fold_table", "deck_level", "entry_count"]



@njit
def completions(known, unknown, pool_total):
    """The equally likely outcomes of revealing a deck of the ``known``
    cards (counts by kind) and ``unknown`` cards drawn from ``pool_total``
    unseen ones (see the counting convention above)."""
    n = arrangements(known, unknown)
    for i in range(unknown):
        n *= pool_total - i
    return n


@njit
def arrangements(known, unknown):
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
def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@njit
def multisets(top):
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
def fold(buf, slot, w, r, top):
    """Add ``w * prod_t ff(r_t, nu_t)`` for every multiset ``nu`` of ``top``
    kinds (in the order of :func:`multisets`) to ``buf[slot:]``."""
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
def fold_table(l_r, l_fold, top, width):
    """``(row[l], table[row])``: for each deck state ``l`` that folds into a
    moment state (``l_fold[l] >= 0``), the row of ``table`` holding ``prod_t
    ff(r_t, nu_t)`` for every multiset ``nu`` of ``top`` kinds (the
    :func:`fold` of a count of 1); -1 for the others.  Folding a count
    ``w`` is then one multiply-add of a row, which vectorises."""
    m = l_fold.size
    row = np.full(m, -1, np.int64)
    n = 0
    for l in range(m):
        if l_fold[l] >= 0:
            row[l] = n
            n += 1
    table = np.zeros(max(n, 1) * width, np.int64)
    for l in range(m):
        if row[l] >= 0:
            fold(table, row[l] * width, np.int64(1), l_r[l], top)
    # entries are products of at most 3 counts of one kind's unseen cards
    # (at most 6 each): they fit 16 bits, and the rows read 4 times faster
    return row, table.reshape((max(n, 1), width)).astype(np.int16)



@njit
def _deck_moves(codes, known, pool, unknown, top, radix):
    """The moves of :func:`deck_level`: ``(next codes (the first m), m,
    step, hash table of the next codes, its bits)``."""
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
            h = find(table, bits, nxt + (1 << 62))
            if table[2 * h] == 0:
                if m == out.size:
                    out = grow(out, 2 * m)
                    # keep the table at most half full
                    bits += 1
                    table = rehash(table, bits)
                    h = find(table, bits, nxt + (1 << 62))
                table[2 * h] = nxt + (1 << 62)
                table[2 * h + 1] = m
                out[m] = nxt
                m += 1
            step[mv, l] = table[2 * h + 1] * 8 + w + 1
    return out, m, step, table, bits


@njit
def _deck_attributes(out, m, table, bits, known, pool, unknown, top, radix, msize):
    """The next states' attributes of :func:`deck_level` (the moment states
    they fold into added to ``out``, the first ``m`` of which are set)."""
    kap = np.empty(KINDS, np.int64)
    dig = np.empty(KINDS, np.int64)
    tp1 = top + 1
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
            comp[i] = arrangements(kap, u)
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
            comp[i] = arrangements(kap, u) * falling(pool_total - d, u)
            mask[i] = mk
            left[i] = u
            if u <= top:
                target = -1 - (kcode * tp1 + u)
                h = find(table, bits, target + (1 << 62))
                if table[2 * h] == 0:
                    if m == out.size:
                        out = grow(out, 2 * m)
                        size = grow(size, 2 * m)
                        comp = grow(comp, 2 * m)
                        mask = grow(mask, 2 * m)
                        left = grow(left, 2 * m)
                        fold = grow(fold, 2 * m)
                        r = grow(r, 2 * m)
                        bits += 1
                        table = rehash(table, bits)
                        h = find(table, bits, target + (1 << 62))
                    table[2 * h] = target + (1 << 62)
                    table[2 * h + 1] = m
                    out[m] = target
                    fold[m] = -1
                    m += 1
                fold[i] = table[2 * h + 1]
        i += 1
    return out[:m], size[:m], comp[:m], mask[:m], left[:m], fold[:m], r[:m]


@njit
def deck_level(codes, known, pool, unknown, top, radix, msize):
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
    out, m, step, table, bits = _deck_moves(codes, known, pool, unknown, top, radix)
    out, size, comp, mask, left, fold, r = _deck_attributes(out, m, table, bits, known, pool, unknown, top, radix,
                                                             msize)
    return out, step, size, comp, mask, left, fold, r




@njit(inline="always")
def entry_count(vals, off, w, l2, t, msize, mways, mup, l_left):
    """The outcomes an entry (its values at ``vals[off:]``) gives a move to
    deck state ``l2`` of multiplicity ``w`` (see :func:`deck_level`) when
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


