"""Camel Up Cards: the exact leg, every order and content of the race deck.

Counting convention of :func:`leg_counts`.  The race deck holds the known
cards and ``unknown`` more, an ordered sample without replacement from the
unseen cards ``pool``; every order of the deck is equally likely.  An
outcome is the deck as revealed: which positions hold known cards and of
which kind (copies of a kind are alike), and which physical unseen card
lies at each other position.  Every outcome is equally likely, and there
are ``completions`` of them: ``n! / (u! k_0! ... k_9!) * P (P-1) ...
(P-u+1)`` for ``n`` cards, ``u`` of them unknown, ``k_t`` known of kind
``t`` and ``P`` unseen cards.  A leg (or race) that ends before the deck
is empty counts for every completion of the rest of the deck.

The enumeration is breadth-first, one level per card.  A level holds the
distinct boards (camels, figures) reached, each with its deck states and
their counts: states reached by different orders are merged.  A deck
state is the first card (when asked for), the known cards left and, while
more than ``top`` unknown cards remain, the unseen cards drawn so far (a
"pair" state: one count).  The future of a board depends on the unseen
cards drawn only through the counts ``r_t`` of each kind left, and the
ways to draw a multiset ``nu`` of kinds in a given order from them are
``prod_t r_t (r_t - 1) ... (r_t - nu_t + 1)``; so once only ``top``
unknown cards remain the states of a board that differ only in the cards
drawn are folded into one "moment" vector indexed by the multisets ``nu``
of the ``top`` cards still to come: ``sum(count * prod_t ff(r_t, nu_t))``
(exact integers).  The next unknown card of kind ``t`` then takes entry
``nu + t`` (``r_t ff(r_t - 1, nu_t) = ff(r_t, nu_t + 1)``); a known card
keeps the vector.  The number of states per board stops growing with the
cards drawn, which is what made whole unknown decks explode (about
fourfold per card).  Each level is built board by board ("pull"): the
moves into a board are gathered and merged in a small dense accumulator
indexed by deck state, so no hash table of (board, deck) pairs is needed;
each board's moves are computed once.
"""

from __future__ import annotations

import numpy as np

from numba import prange
from numba.typed import List

from advisor.kernels._jit import njit
from advisor.kernels.cards.track import CODES, FENNEC, KINDS, N_CAMELS, PALM, end_state, move, rank_code
from advisor.kernels.cards.deck import completions, deck_level, entry_count, falling, fold_table, multisets
from advisor.kernels.hashing import MULT, find, grow

__all__ = ["leg_counts", "MOMENT_CARDS", "CHUNK_WORK", "MAX_CHUNKS", "LEG_STATE_SECONDS"]


#: Unknown cards left when a board's deck states are folded into moment
#: vectors (multisets of that many of the 10 kinds: 55 entries for 2).
MOMENT_CARDS = 2
#: Parallel pieces of a level of :func:`leg_counts`: at most this many
#: chunks of boards (the result never depends on how they are cut nor on the
#: thread count), each with at least this many incoming deck entries.
MAX_CHUNKS = 64
CHUNK_WORK = 20_000
#: :func:`leg_counts` gives up early when its guess of the states to come
#: exceeds its limit this many times (the guess errs both ways by some 20%;
#: a whole unknown 12-card deck at a game start is guessed at 8.1 million
#: after 7 cards, and keeps 6.6 million).
GUESS_MARGIN = 1.5
#: Seconds on one thread per (board, deck state) pair of :func:`leg_counts`,
#: about: sizes a call's thread count.
LEG_STATE_SECONDS = 1e-7


#: A board's figures in one number: ``palm * FIG_BASE + fennec`` (each 0
#: beside the track, else its space, at most 64).
FIG_BASE = 65


@njit(inline="always")
def _board_key(sp, ht, fig):
    """Spaces (7 bits each), heights (3 bits each) and the figures (13
    bits, :data:`FIG_BASE`): positive (heights on one space differ, so
    never 0), at most 63 bits."""
    key = 0
    for x in range(N_CAMELS):
        key |= sp[x] << (7 * x)
        key |= ht[x] << (35 + 3 * x)
    return key | (fig[PALM] * FIG_BASE + fig[FENNEC]) << 50


@njit(inline="always")
def _board_of(key, sp, ht, fig):
    """Inverse of :func:`_board_key`."""
    for x in range(N_CAMELS):
        sp[x] = (key >> (7 * x)) & 127
        ht[x] = (key >> (35 + 3 * x)) & 7
    f = key >> 50
    fig[PALM] = f // FIG_BASE
    fig[FENNEC] = f - fig[PALM] * FIG_BASE



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




@njit
def _node_moves(p0, p1, node_key, node_mask, last, length, left, out):
    """The moves of the boards of nodes ``p0 .. p1 - 1`` (a level's boards,
    each once): ``out[p, kind]`` the key of the board after (> 0), or ``-1 -
    (end * CODES + code)`` if the move ends the leg (every move at the last
    card); 0 for a kind the node's deck states cannot reveal.  ``left``:
    the cards left in the deck after the move.

    A board after from which no unit can reach the finish card with the
    cards left and none stands on the start card is keyed as its translate
    with the last camel on space 1 (:func:`_translate`): its future, the
    race orders and figures at the leg's end, is the same, so translates
    reached along different orders merge."""
    c_sp = np.empty(N_CAMELS, np.int64)
    c_ht = np.empty(N_CAMELS, np.int64)
    c_fig = np.empty(2, np.int64)
    d_sp = np.empty(N_CAMELS, np.int64)
    d_ht = np.empty(N_CAMELS, np.int64)
    d_fig = np.empty(2, np.int64)
    for p in range(p0, p1):
        _board_of(node_key[p], d_sp, d_ht, d_fig)
        for t in range(KINDS):
            out[p, t] = 0
            if not (node_mask[p] >> t) & 1:
                continue
            for x in range(N_CAMELS):
                c_sp[x] = d_sp[x]
                c_ht[x] = d_ht[x]
            c_fig[0] = d_fig[0]
            c_fig[1] = d_fig[1]
            over = move(c_sp, c_ht, c_fig, length, t // 2, t % 2 + 1)
            if last or over:
                out[p, t] = -1 - (end_state(over, c_fig) * CODES + rank_code(c_sp, c_ht))
            else:
                _translate(c_sp, c_fig, length, left)
                out[p, t] = _board_key(c_sp, c_ht, c_fig)


@njit(inline="always")
def _translate(sp, fig, length, left):
    """Shift a board back so that its last camel stands on space 1 when that
    changes nothing to come: no camel on the start card (space 0, where
    camels stand side by side and move alone) and no unit able to reach
    the finish card with ``left`` more cards (each moves a unit at most 2
    spaces, and the palm once 1 more).  Every rule a move applies is then
    relative: stacks, the figures (kept in their place relative to the
    camels; they stand ahead of the last camel, so the fennec never sends a
    unit onto the start card), the race order."""
    lo = sp[0]
    hi = sp[0]
    for x in range(1, N_CAMELS):
        lo = min(lo, sp[x])
        hi = max(hi, sp[x])
    if lo <= 1 or hi + 2 * left + 1 > length:
        return
    d = lo - 1
    for x in range(N_CAMELS):
        sp[x] -= d
    for f in range(2):
        if fig[f]:
            fig[f] -= d


#: A level's boards after are numbered part by part (a part: the keys whose
#: hash has these top bits), each part in the order of first arrival: the
#: numbering depends on this constant only, never on the thread count.
PART_BITS = 4
N_PARTS = 1 << PART_BITS


@njit(inline="always")
def _part_of(key):
    """A part: middle bits of the key's hash (a part's table slots take
    its top bits, :func:`slot`)."""
    return np.int64(((np.uint64(key) * MULT) >> np.uint64(24)) & np.uint64(N_PARTS - 1))


@njit
def _part_counts(p0, p1, out, counts):
    """``counts[part]``: the moves to a board after from nodes ``p0 .. p1 - 1``."""
    for p in range(p0, p1):
        for t in range(KINDS):
            if out[p, t] > 0:
                counts[_part_of(out[p, t])] += 1


@njit
def _part_scatter(p0, p1, out, pos, bucket):
    """Write the moves (``p * KINDS + kind``) of nodes ``p0 .. p1 - 1`` to
    a board after into their part's bucket, from ``pos[part]`` on."""
    for p in range(p0, p1):
        for t in range(KINDS):
            if out[p, t] > 0:
                q = _part_of(out[p, t])
                bucket[pos[q]] = p * KINDS + t
                pos[q] += 1


@njit
def _part_boards(e0, e1, bucket, out, first):
    """Find the boards after of one part (its moves ``bucket[e0:e1]``, in
    order): ``first[e]`` the first move (``p * KINDS + kind``, the least)
    that reaches move ``e``'s board."""
    n = e1 - e0
    bits = 4
    while (1 << bits) < 2 * n:
        bits += 1
    table = np.zeros(2 << bits, np.int64)
    for e in range(e0, e1):
        j = bucket[e]
        key = out[j // KINDS, j % KINDS]
        h = find(table, bits, key)
        if table[2 * h] == 0:
            table[2 * h] = key
            table[2 * h + 1] = j
        first[e] = table[2 * h + 1]


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
                    n = entry_count(vals, off, (code & 7) - 1, l2, t, msize, mways, mup, l_left) * l_comp[l2]
                    codes[f2, oe, oc] += n
                    if oe & 2:
                        figs[f2, 0] += n
                    if oe & 4:
                        figs[f2, 1] += n


@njit(inline="always")
def _gather_child(c, order, sorted_e, node_start, ent_state, ent_off, vals, ncur, nnext, nf, side0, dstep, l_size,
                  cur_left, mup, acc, touched, buf, stamp):
    """The moves into child ``c`` (of :func:`_merge_children`) gathered and
    merged by (first card, deck state) in ``buf``: a state's slot is
    ``acc[s] & 0xFFFFFFFF`` when ``acc[s] >> 32`` is ``stamp``; the states
    touched listed in ``touched``.  Returns ``(buf, its values used, states
    touched)``."""
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
                        buf = grow(buf, 2 * (used + sz))
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
    return buf, used, nt


@njit(inline="always")
def _fold_child(nt, touched, acc, buf, used, stamp, nnext, nf, l_fold, f_row, f_table, width):
    """Fold the pair states gathered by :func:`_gather_child` that have the
    moment's number of unknown cards left into their moment states (a row
    of the fold table each), added to ``touched``.  Returns ``(buf, its
    values used, states touched)``."""
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
                buf = grow(buf, 2 * (used + width))
            for i in range(width):
                buf[used + i] = 0
            used += width
            touched[nt] = s3
            nt += 1
        s = acc[s3] & 0xFFFFFFFF
        w = buf[acc[touched[q]] & 0xFFFFFFFF]
        frow = f_table[f_row[l2]]
        for i in range(width):
            buf[s + i] += w * frow[i]
    return buf, used, nt


@njit
def _merge_children(c0, c1, order, sorted_e, node_start, ent_state, ent_off, vals, ncur, nnext, nf, side0,
                    dstep, l_size, l_fold, f_row, f_table, l_mask, cur_left, mup, width):
    """Build the boards after, children ``c0 .. c1 - 1``, one at a time: the
    moves into each gathered and merged by deck state in a dense
    accumulator, then the pair states with the moment's number of unknown
    cards left folded (``l_fold``).  Returns ``(states, offsets into values, values, entries per
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
        buf, used, nt = _gather_child(c, order, sorted_e, node_start, ent_state, ent_off, vals, ncur, nnext, nf,
                                      side0, dstep, l_size, cur_left, mup, acc, touched, buf, stamp)
        buf, used, nt = _fold_child(nt, touched, acc, buf, used, stamp, nnext, nf, l_fold, f_row, f_table, width)
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
                new_state = grow(new_state, 2 * n_ent)
                new_off = grow(new_off, 2 * n_ent)
            if n_val + sz > new_vals.size:
                new_vals = grow(new_vals, 2 * (n_val + sz))
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


@njit
def _deck_size(known, pool, unknown):
    """``(outcomes, cards)`` of the deck: its orders and contents
    (:func:`completions`), its cards."""
    pool_total = np.int64(0)  # not the literal 0: completions compiles once
    for t in range(KINDS):
        pool_total += pool[t]
    depth = unknown
    for t in range(KINDS):
        depth += known[t]
    return completions(known, unknown, pool_total), depth


@njit
def _root(sp, ht, fig, known, pool, unknown, by_first, top, msize, mcount):
    """The first level of :func:`leg_counts`: one board, one deck state.
    Returns ``(radix of the deck codes, deck codes, values, node keys, node
    starts, node masks, entry states, entry offsets)``."""
    radix = np.empty(KINDS, np.int64)
    for t in range(KINDS):
        radix[t] = min(pool[t], unknown) + 1
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
    if unknown <= top:
        dcodes[0] = -1 - (k0 * (top + 1) + unknown)
        vals = np.zeros(msize[unknown], np.int64)
        for i in range(msize[unknown]):
            v = 1
            for t in range(KINDS):
                v *= falling(pool[t], mcount[unknown, i, t])
            vals[i] = v
    else:
        dcodes[0] = c0
        vals = np.ones(1, np.int64)
    # a level's boards are never met again at a later card: each card moves
    # a camel forward, or back onto its space by the fennec, which leaves
    # the track (figures only leave during a leg)
    node_key = np.full(1, _board_key(sp, ht, fig), np.int64)
    node_start = np.zeros(2, np.int64)
    node_start[1] = 1
    node_mask = np.full(1, (1 << KINDS) - 1, np.int64)
    ent_state = np.full(1, KINDS if by_first else 0, np.int64)  # first * (level's deck states) + deck state
    ent_off = np.zeros(1, np.int64)
    return radix, dcodes, vals, node_key, node_start, node_mask, ent_state, ent_off


@njit(inline="always")  # one caller: no machine code of its own (its callees' compiled once less)
def _level_deck(dcodes, known, pool, unknown, top, radix, msize, width):
    """:func:`deck_level` of this level's deck states, then the fold table
    of the next ones (:func:`fold_table`) and the unknown cards left of
    these (0 for a pair state)."""
    dnext, dstep, l_size, l_comp, l_mask, l_left, l_fold, l_r = deck_level(dcodes, known, pool, unknown, top, radix,
                                                                            msize)
    f_row, f_table = fold_table(l_r, l_fold, top, width)
    cur_left = np.empty(dcodes.size, np.int64)
    for l in range(dcodes.size):
        code = dcodes[l]
        if code < 0:
            cur_left[l] = (-1 - code) % (top + 1)
        else:
            cur_left[l] = 0
    return dnext, dstep, l_size, l_comp, l_mask, l_left, l_fold, f_row, f_table, cur_left


@njit
def _ends_of(out):
    """``(ends[p, t], count)``: the end state of the leg that move ``t`` of
    node ``p`` ends (-1: none) and the number of them."""
    n_nodes = out.shape[0]
    ends = np.full((n_nodes, KINDS), -1, np.int64)
    n_ends = 0
    for p in range(n_nodes):
        for t in range(KINDS):
            if out[p, t] < 0:
                ends[p, t] = -1 - out[p, t]
                n_ends += 1
    return ends, n_ends


@njit
def _part_positions(pcount):
    """``(part starts, each chunk's position in each part, moves by part,
    first moves)`` of the moves counted per chunk and part (``pcount``);
    the last two to fill."""
    n_chunks = pcount.shape[0]
    part_start = np.zeros(N_PARTS + 1, np.int64)
    ppos = np.empty((n_chunks, N_PARTS), np.int64)
    e = 0
    for q in range(N_PARTS):
        part_start[q] = e
        for k in range(n_chunks):
            ppos[k, q] = e
            e += pcount[k, q]
    part_start[N_PARTS] = e
    return part_start, ppos, np.empty(e, np.int64), np.empty(e, np.int64)


@njit
def _number_children(first, bucket, out, n_nodes):
    """Number the boards after in the order of their first moves (the
    parents' order: boards built side by side read nearby parents).
    Returns ``(children, their keys, order, moves)``: the moves into child
    ``c`` (``p * KINDS + t``, in the parents' order) are ``moves[order[c]:
    order[c + 1]]``."""
    ne = bucket.size
    rank = np.zeros(n_nodes * KINDS + 1, np.int64)
    for e in range(ne):
        if first[e] == bucket[e]:
            rank[bucket[e] + 1] = 1
    for j in range(n_nodes * KINDS):
        rank[j + 1] += rank[j]
    nc = rank[n_nodes * KINDS]
    child_key = np.empty(nc, np.int64)
    order = np.zeros(nc + 1, np.int64)
    child_of = np.empty(ne, np.int64)
    for e in range(ne):
        c = rank[first[e]]
        child_of[e] = c
        order[c + 1] += 1
        if first[e] == bucket[e]:
            child_key[c] = out[bucket[e] // KINDS, bucket[e] % KINDS]
    for c in range(nc):
        order[c + 1] += order[c]
    fill = order[:nc].copy()
    sorted_e = np.empty(ne, np.int64)
    by_edge = np.full(n_nodes * KINDS, -1, np.int64)
    for e in range(ne):
        by_edge[bucket[e]] = child_of[e]
    for j in range(n_nodes * KINDS):
        c = by_edge[j]
        if c >= 0:
            sorted_e[fill[c]] = j
            fill[c] += 1
    return nc, child_key, order, sorted_e


@njit
def _end_parts(n_chunks, by_first):
    """Each chunk's counts of the legs that end (``codes``, ``figs``)."""
    nfc = KINDS if by_first else 1
    return np.zeros((n_chunks, nfc, 8, CODES), np.int64), np.zeros((n_chunks, nfc, 2), np.int64)


@njit
def _add_parts(codes, figs, part_codes, part_figs):
    """Add the counts of the chunks, in chunk order."""
    for k in range(part_codes.shape[0]):
        for f in range(part_codes.shape[1]):
            for e in range(8):
                for o in range(CODES):
                    codes[f, e, o] += part_codes[k, f, e, o]
            figs[f, 0] += part_figs[k, f, 0]
            figs[f, 1] += part_figs[k, f, 1]


@njit
def _cut_work(order, sorted_e, node_start, nc, chunk):
    """``(cut, parts)``: children ``cut[k] .. cut[k + 1] - 1`` make chunk
    ``k``, of about equal work (incoming entries, at least ``chunk``)."""
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
    return cut, n_parts


@njit
def _chunk_outputs(n_parts):
    """Lists for the outputs of :func:`_merge_children` per chunk, and
    their (board, deck state) pairs kept."""
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
    return p_state, p_off, p_vals, p_count, p_mask, np.zeros(n_parts, np.int64)


@njit(inline="always")  # one caller: no machine code of its own (its callees' compiled once less)
def _merge_chunk(k, cut, order, sorted_e, node_start, ent_state, ent_off, vals, ncur, nnext, nf, side0, dstep, l_size,
                 l_fold, f_row, f_table, l_mask, cur_left, mup, width, p_state, p_off, p_vals, p_count, p_mask,
                 p_kept):
    """:func:`_merge_children` of chunk ``k``, its outputs into the lists."""
    st, of, vl, cnt, msk, kp = _merge_children(cut[k], cut[k + 1], order, sorted_e, node_start, ent_state, ent_off,
                                               vals, ncur, nnext, nf, side0, dstep, l_size, l_fold, f_row, f_table,
                                               l_mask, cur_left, mup, width)
    p_state[k] = st
    p_off[k] = of
    p_vals[k] = vl
    p_count[k] = cnt
    p_mask[k] = msk
    p_kept[k] = kp


@njit
def _join_parts(p_state, p_off, p_vals, p_count, p_mask, cut, n_parts, nc):
    """The next level joined from its chunks (of :func:`_merge_children`):
    ``(entry states, entry offsets, values, node starts, node masks)``."""
    n_ent = 0
    n_val = 0
    for k in range(n_parts):
        n_ent += p_state[k].size
        n_val += p_vals[k].size
    new_state = np.empty(n_ent, np.int64)
    new_off = np.empty(n_ent, np.int64)
    new_vals = np.empty(n_val, np.int64)
    new_start = np.zeros(nc + 1, np.int64)
    new_mask = np.empty(nc, np.int64)
    p_e0 = np.zeros(n_parts + 1, np.int64)
    p_v0 = np.zeros(n_parts + 1, np.int64)
    for k in range(n_parts):
        p_e0[k + 1] = p_e0[k] + p_state[k].size
        p_v0[k + 1] = p_v0[k] + p_vals[k].size
    for k in range(n_parts):
        a_count = p_count[k]
        a_mask = p_mask[k]
        for i in range(a_count.size):
            c = cut[k] + i
            new_start[c + 1] = new_start[c] + a_count[i]
            new_mask[c] = a_mask[i]
    for k in range(n_parts):
        a_state = p_state[k]
        a_off = p_off[k]
        a_vals = p_vals[k]
        e0 = p_e0[k]
        v0 = p_v0[k]
        for i in range(a_state.size):
            new_state[e0 + i] = a_state[i]
            new_off[e0 + i] = a_off[i] + v0
        for i in range(a_vals.size):
            new_vals[v0 + i] = a_vals[i]
    return new_state, new_off, new_vals, new_start, new_mask


@njit
def _too_many(kept, before, before2, level, depth, top, limit):
    """Whether the states, growing as they did (the growth itself
    shrinking as it did), would exceed the limit by far before the last
    card at which unseen cards drawn are kept apart."""
    if limit <= 0 or before2 <= 0:
        return False
    g = kept / before
    shrink = min(1.0, g / (before / before2))
    guess = float(kept)
    for _ in range(level + 2, depth - top + 1):
        g *= shrink
        guess *= g
        if guess > GUESS_MARGIN * limit:
            return True
    return False


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
    growth shrinking as it did), would exceed :data:`GUESS_MARGIN` times it
    at a later card while unseen cards drawn are still kept apart (the
    guess is rough: a little above the limit may still fit).  ``top`` (0..3): unknown cards left when a
    board's deck states are folded (:data:`MOMENT_CARDS`; any value gives the
    same counts).  ``chunk``: the least work (incoming deck entries; nodes
    for moves) of a parallel chunk of a level (any value gives the same
    counts; :data:`CHUNK_WORK`).  The caller makes sure the number of outcomes fits in
    int64 (every count kept is at most that number)."""
    total, depth = _deck_size(known, pool, unknown)
    states[:] = 0
    if depth == 0:
        return total
    top = max(0, min(top, unknown, 3))
    msize, mcount, mup, mways = multisets(top)
    width = msize[top]
    nf = KINDS + 1 if by_first else 1  # first card; KINDS: none yet
    radix, dcodes, vals, node_key, node_start, node_mask, ent_state, ent_off = _root(
        sp, ht, fig, known, pool, unknown, by_first, top, msize, mcount)
    side0 = 0 if depth > unknown else 1  # no known cards: never side 0
    before = before2 = np.int64(0)  # not the literal 0: _too_many compiles once
    for level in range(depth):
        last = level == depth - 1
        n_nodes = node_key.size
        dnext, dstep, l_size, l_comp, l_mask, l_left, l_fold, f_row, f_table, cur_left = _level_deck(
            dcodes, known, pool, unknown, top, radix, msize, width)
        # A. this level's boards, in parallel chunks of nodes (steps on the
        # same chunks share a loop: each loop is a gufunc compiled apart):
        # their moves, the legs that end, the boards after (part by part)
        nodes_per = _chunk_size(n_nodes, chunk)
        n_chunks = (n_nodes + nodes_per - 1) // nodes_per
        out = np.empty((n_nodes, KINDS), np.int64)
        pcount = np.zeros((n_chunks, N_PARTS), np.int64)
        for k in prange(n_chunks):
            _node_moves(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), node_key, node_mask, last, length,
                        depth - level - 1, out)
            if not last:
                _part_counts(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), out, pcount[k])
        ends, n_ends = _ends_of(out)
        part_start, ppos, bucket, first = _part_positions(pcount)
        # the legs that end (race over, or deck empty): every completion of
        # the rest of the deck counts; chunks of nodes count apart, summed
        part_codes, part_figs = _end_parts(n_chunks if n_ends else 0, by_first)
        for k in prange(n_chunks):
            if not last:
                _part_scatter(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), out, ppos[k], bucket)
            if n_ends:
                _count_ends(k * nodes_per, min(n_nodes, (k + 1) * nodes_per), node_start, node_mask, ends,
                            ent_state, ent_off, vals, dcodes.size, nf, side0, dstep, l_comp, l_left, msize, mways,
                            mup, part_codes[k], part_figs[k])
        if n_ends:
            _add_parts(codes, figs, part_codes, part_figs)
        if last:
            break
        for q in prange(N_PARTS):
            _part_boards(part_start[q], part_start[q + 1], bucket, out, first)
        nc, child_key, order, sorted_e = _number_children(first, bucket, out, n_nodes)
        # B. the boards after, in parallel chunks of boards (each built one
        # at a time), joined in order
        cut, n_parts = _cut_work(order, sorted_e, node_start, nc, np.int64(chunk))
        p_state, p_off, p_vals, p_count, p_mask, p_kept = _chunk_outputs(n_parts)
        for k in prange(n_parts):
            # the chunk number as int64: a parallel loop's index is unsigned
            # in the loop's compiled body
            _merge_chunk(np.int64(k), cut, order, sorted_e, node_start, ent_state, ent_off, vals, dcodes.size,
                         dnext.size, nf, side0, dstep, l_size, l_fold, f_row, f_table, l_mask, cur_left, mup, width,
                         p_state, p_off, p_vals, p_count, p_mask, p_kept)
        kept = p_kept.sum()
        if 0 < limit < kept:
            return -1
        ent_state, ent_off, vals, node_start, node_mask = _join_parts(p_state, p_off, p_vals, p_count, p_mask, cut,
                                                                      n_parts, nc)
        states[level] = kept
        if _too_many(kept, before, before2, level, depth, top, limit):
            return -1
        before2, before = before, kept
        node_key = child_key
        dcodes = dnext
        if nc == 0:
            break
    return total
