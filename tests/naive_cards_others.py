"""A deliberately slow, obvious reference of the rest of a Camel Up Cards
leg played turn by turn with the other players' race actions
(docs/explanations/cards-model.md), for differential tests of
``advisor.kernels.cards.others``.

Independence: this module never imports ``advisor``; it is written from the
stated model, on top of the rules of :mod:`naive_cards`.  Where the kernel
draws each unknown card when it is revealed or played, this reference deals
everything first: every multiset of the deck's unknown cards (with its
hypergeometric probability), then every hand card of the players whose
hand is unknown (drawn one after the other from the unseen cards left),
and only then plays the leg with every card known: the next card of the
deck is any card of what is left of it, with probability (copies) /
(cards left).

The model: the seats play in turn from the seat to move; a *random* seat
picks uniformly among the race actions open to it (reveal; play its hand
card, which moves its camel 1; put the palm or the fennec, if beside the
track, on a legal space, each figure one option and the space uniform);
any other seat reveals.  The leg ends when the deck is empty or the race is
over.  Outcomes: ``(first card revealed or None, race over?, palm on the
track with its card held by seat 0?, fennec likewise, ranking)``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

try:  # tests/ as a plain directory or as a package
    from . import naive_cards as N
except ImportError:  # pragma: no cover
    import naive_cards as N

UNKNOWN = "?"


def _hand_deals(pool: Counter, hands: list, seat: int = 0):
    """Every way to fill the ``"?"`` entries of ``hands`` from ``pool``,
    one after the other, as ``(hands, probability)``."""
    if seat == len(hands):
        yield list(hands), Fraction(1)
        return
    if hands[seat] != UNKNOWN:
        yield from _hand_deals(pool, hands, seat + 1)
        return
    total = sum(pool.values())
    for card in sorted(c for c in pool if pool[c] > 0):
        p = Fraction(pool[card], total)
        smaller = pool.copy()
        smaller[card] -= 1
        filled = list(hands)
        filled[seat] = card
        for rest, q in _hand_deals(+smaller, filled, seat + 1):
            yield rest, p * q


def leg_outcomes(board: N.Board, known, pool, unknown: int, hands: list, nxt: int, random_seats: set,
                 own: tuple[bool, bool] = (False, False)) -> dict:
    """The exact distribution of the leg's outcomes (module docstring).
    ``hands[p]``: seat ``p``'s hand card ``(colour, value)``, ``None`` or
    ``"?"`` (unknown: drawn from ``pool``); ``own``: whether seat 0 holds
    the card of the palm / fennec now on the track."""
    known = Counter({c: n for c, n in dict(known).items() if n})
    pool = Counter({c: n for c, n in dict(pool).items() if n})
    players = len(hands)
    result: dict = {}

    def outcome(b, first, over, own_palm, own_fennec):
        return (first, over, b.palm is not None and own_palm, b.fennec is not None and own_fennec,
                tuple(N.ranking(b)))

    def play(b: N.Board, deck: Counter, hands: tuple, seat: int, first, own_palm, own_fennec) -> dict:
        """Outcome -> probability from seat ``seat``'s turn on."""
        choices = [("reveal", None)]
        if seat in random_seats:
            if hands[seat] is not None:
                choices.append(("hand", None))
            spaces = N.figure_spaces(b)
            if spaces:
                if b.palm is None:
                    choices.append(("palm", spaces))
                if b.fennec is None:
                    choices.append(("fennec", spaces))
        share = Fraction(1, len(choices))
        out: dict = {}

        def add(sub, p):
            for key, q in sub.items():
                out[key] = out.get(key, 0) + p * q

        def after_move(b2, over, deck2, hands2, first2, op, of):
            if over or sum(deck2.values()) == 0:
                return {outcome(b2, first2, over, op, of): Fraction(1)}
            return play(b2, deck2, hands2, (seat + 1) % players, first2, op, of)

        for kind, detail in choices:
            if kind == "reveal":
                n = sum(deck.values())
                for card in sorted(deck):
                    b2, over = N.move(b, card[0], card[1])
                    deck2 = deck.copy()
                    deck2[card] -= 1
                    deck2 = +deck2
                    add(after_move(b2, over, deck2, hands, first if first is not None else card,
                                   own_palm and b2.palm is not None, own_fennec and b2.fennec is not None),
                        share * Fraction(deck[card], n))
            elif kind == "hand":
                b2, over = N.move(b, hands[seat][0], 1)  # a hand card moves 1
                hands2 = hands[:seat] + (None,) + hands[seat + 1:]
                add(after_move(b2, over, deck, hands2, first, own_palm and b2.palm is not None,
                               own_fennec and b2.fennec is not None), share)
            else:
                for space in detail:
                    b2 = b.copy()
                    setattr(b2, kind, space)
                    mine = seat == 0
                    op = mine if kind == "palm" else own_palm
                    of = mine if kind == "fennec" else own_fennec
                    add(play(b2, deck, hands, (seat + 1) % players, first, op, of), share * Fraction(1, len(detail)))
        return out

    own_palm = own[0] and board.palm is not None
    own_fennec = own[1] and board.fennec is not None
    for chosen, weight in N._multisets(pool, unknown):
        deck = known + chosen
        rest = pool - chosen
        for dealt, q in _hand_deals(rest, list(hands)):
            for key, p in play(board, deck, tuple(dealt), nxt, None, own_palm, own_fennec).items():
                result[key] = result.get(key, 0) + weight * q * p
    return result
