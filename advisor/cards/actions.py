"""Camel Up Cards actions: value types with a text form.

One action is one step of a player (docs/rules.md, Camel Up Cards).  A turn is one
race action with at most one betting action before or after it; the
engine (:mod:`advisor.cards.game`) takes them one at a time, so a player can
reveal a card and then choose a bet on what it showed.

========================  ==================================================
``reveal``                race: reveal the race deck's top card, move its
                          camel by its value
``hand``                  race: play the hand card (its camel moves 1)
``palm:N`` / ``fennec:N`` race: put the figure on empty space N, taking its
                          card
``leg:C``                 bet: the top leg-winner card of colour C
``mid:C``                 bet: the leg-midfield card of colour C
``winner:C`` / ``loser:C``  bet: the overall winner / loser card of C from
                          the table (returning the one held)
``pass``                  end the turn after the race action without a bet
``build:H/S/D/X``         deal phase: keep H in hand, show S (empty with 2
                          players), put the cards D face down into the race
                          deck, discard X; cards as colour and value, e.g.
                          ``build:B1/G2/O1W1/Y1``
========================  ==================================================

``CardsAction.parse(text)`` reads the text form and ``str(action)`` writes
it back; a malformed action raises :class:`~advisor.errors.IllegalActionError`
naming the token.  Whether an action is legal in a state is the engine's
question (:meth:`advisor.cards.game.CardsGame.legal_actions`).
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import IllegalActionError
from advisor.cards.position import CAMELS

__all__ = ["CardsAction", "Card", "RACE_KINDS", "BET_KINDS", "card_text", "parse_card_list"]

Card = tuple[str, int]
RACE_KINDS = ("reveal", "hand", "palm", "fennec")
BET_KINDS = ("leg", "mid", "winner", "loser")
_KINDS = RACE_KINDS + BET_KINDS + ("pass", "build")


def card_text(cards) -> str:
    return "".join(f"{c}{v}" for c, v in cards)


def parse_card_list(text: str, token: str) -> tuple[Card, ...]:
    """``"B1G2"`` -> ``(("B", 1), ("G", 2))``; errors name ``token``."""
    if len(text) % 2:
        raise _bad(token, "cards are colour and value pairs, e.g. B1G2")
    out = []
    for i in range(0, len(text), 2):
        c, v = text[i], text[i + 1]
        if c not in CAMELS or v not in "12":
            raise _bad(token, f"{c}{v} is not a racing card (colours {CAMELS}, values 1, 2)")
        out.append((c, int(v)))
    return tuple(out)


def _bad(token: str, message: str) -> IllegalActionError:
    shown = token if len(token) <= 60 else f"{token[:40]}...{token[-12:]}"
    return IllegalActionError(f"invalid action {shown!r}: {message}")


@dataclass(frozen=True)
class CardsAction:
    """One step of a player.  ``kind`` is one of :data:`RACE_KINDS`,
    :data:`BET_KINDS`, ``"pass"`` or ``"build"``; ``colour`` for bets,
    ``space`` for figures; ``hand``, ``shown``, ``down``, ``discard`` for
    ``build`` (cards sorted, as the text form writes them)."""

    kind: str
    colour: str | None = None
    space: int | None = None
    hand: Card | None = None
    shown: Card | None = None
    down: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise _bad(self.kind, f"unknown action (actions: {', '.join(_KINDS)})")
        if self.kind == "build":
            object.__setattr__(self, "down", tuple(sorted(self.down)))
            object.__setattr__(self, "discard", tuple(sorted(self.discard)))

    # ------------------------------------------------------------ kinds
    @property
    def is_race(self) -> bool:
        return self.kind in RACE_KINDS

    @property
    def is_bet(self) -> bool:
        return self.kind in BET_KINDS

    # ------------------------------------------------------------ text
    @classmethod
    def parse(cls, text: str) -> "CardsAction":
        """Read the text form (see the module docstring)."""
        if isinstance(text, CardsAction):
            return text
        if not isinstance(text, str) or not text.strip():
            raise IllegalActionError("empty action")
        token = text.strip()
        kind, sep, arg = token.partition(":")
        if kind in ("reveal", "hand", "pass"):
            if sep:
                raise _bad(token, f"{kind} takes no argument")
            return cls(kind)
        if kind in ("palm", "fennec"):
            if not arg.isdigit() or len(arg) > 3:
                raise _bad(token, f"expected {kind}:N, N a track space")
            return cls(kind, space=int(arg))
        if kind in BET_KINDS:
            if len(arg) != 1 or arg not in CAMELS:
                raise _bad(token, f"expected {kind}:C, C a camel colour ({CAMELS})")
            return cls(kind, colour=arg)
        if kind == "build":
            parts = arg.split("/")
            if len(parts) != 4:
                raise _bad(token, "expected build:HAND/SHOWN/DOWN/DISCARD, e.g. build:B1/G2/O1W1/Y1")
            hand = parse_card_list(parts[0], token)
            shown = parse_card_list(parts[1], token)
            if len(hand) != 1:
                raise _bad(token, "one hand card")
            if len(shown) > 1:
                raise _bad(token, "at most one card shown")
            return cls("build", hand=hand[0], shown=shown[0] if shown else None,
                       down=parse_card_list(parts[2], token), discard=parse_card_list(parts[3], token))
        raise _bad(token, f"unknown action (actions: {', '.join(_KINDS)})")

    def __str__(self) -> str:
        if self.kind in ("reveal", "hand", "pass"):
            return self.kind
        if self.kind in ("palm", "fennec"):
            return f"{self.kind}:{self.space}"
        if self.kind in BET_KINDS:
            return f"{self.kind}:{self.colour}"
        return (f"build:{card_text([self.hand])}/{card_text([self.shown] if self.shown else [])}/"
                f"{card_text(self.down)}/{card_text(self.discard)}")
