"""Camel Up Cards positions: the compact string form and its validation.

A position is a list of tokens separated by spaces, in any order, starting
the string with (or containing) the token ``cards``:

========================  ==================================================
``cards``                 the game (required)
``players:N``             players, 2..6 (default 4)
``track:CARDS``           the track cards after the start card, one letter
                          each: ``n`` normal (2 spaces), ``s`` sandstorm side
                          (1 space), ``h`` a normal card half covered by the
                          finish card (1 space; last only).  Default: normal
                          cards for 15 spaces with 2 players, one more per
                          extra player (an unverified default: give the
                          setup card's length when you know it)
``N:STACK``               camels on space N (1..length) bottom to top;
                          ``0:STACK`` the start card, where the camels stand
                          side by side: listed from the one ranked last
``palm:N[@P]``            the palm on space N, its card held by player P
                          (0 is the advised player); absent: beside the track
``fennec:N[@P]``          the fennec likewise
``deck:N``                cards left in the race deck (default: a full deck)
``decksize:N``            cards in each leg's race deck (default 12; 10 with
                          2 or 5 players)
``known:CV...``           cards known to be in the race deck (the advised
                          player's own and the publicly shown ones), colour
                          and value, e.g. ``known:B1G2B1``
``revealed:CV...``        the revealed pile of this leg (out of the deck)
``out:CV...``             other cards known not to be in it (the advised
                          player's discards, cards seen played)
``hand:CV``               the advised player's hand card
``hands:XY...``           the other players' hand cards, players 1, 2, ...
                          in turn order: ``?`` a card the advised player has
                          not seen, ``-`` none (played this leg), ``CV`` a
                          known card (default: ``?`` each).  With one entry
                          per player (player 0 first) the position is a
                          spectator's: player 0 is not advised (no
                          ``hand:``, bets or money of theirs) and plays as
                          the others do
``next:P``                the player whose race action comes next (default
                          0, the advised player; 1 once their race action
                          of this turn is played and a bet may follow)
``legtiles:C...``         leg-winner cards left per colour, top first, as
                          in the board games (a suffix of 5,3,2,2)
``mid:C...``              leg-midfield cards still on offer (default all)
``winners:C...``          overall winner cards on the table (default all)
``losers:C...``           overall loser cards on the table (default all)
``bets:X,...``            what the advised player holds: ``C5`` a leg-winner
                          card, ``mC`` a midfield card, ``wC`` / ``lC`` the
                          overall winner / loser card
``money:N``               the advised player's money (default 3, at least 1)
========================  ==================================================

Camels: ``B G O W Y`` (blue, green, orange, white, yellow).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from advisor.errors import PositionError
from advisor._tools.tokens import is_number, split_tokens, whole_number

__all__ = ["CardsPosition", "CAMELS", "LEG_STACK", "DEFAULT_TRACK", "parse_cards", "is_cards", "PLAYERS", "START_MONEY",
           "MONEY_FLOOR", "EXAMPLE_CARDS", "DECK_SIZES"]

CAMELS = "BGOWY"
LEG_STACK = (5, 3, 2, 2)
LEG_VALUES = "".join(dict.fromkeys(map(str, LEG_STACK)))  # the values as bet digits: "532"
FULL_DECK = {(c, 1): 5 for c in CAMELS} | {(c, 2): 1 for c in CAMELS}
PLAYERS = range(2, 7)
#: Cards a leg's race deck may hold (the game deals 10 or 12; variants 8..14).
DECK_SIZES = range(8, 15)
#: Each player's money at the start of a game (the advised player's money when a position does not say).
START_MONEY = 3
#: Money never drops below this (docs/rules.md, Camel Up Cards).
MONEY_FLOOR = 1
#: A position to show how the notation reads (the page's example).
EXAMPLE_CARDS = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"
MAX_TRACK_CARDS = 32  # the kernels hold 64 track cards: room for the extensions of later legs
MAX_MONEY = 10_000


def DEFAULT_TRACK(players: int) -> str:
    """Normal cards for 15 spaces with 2 players, +1 space per extra player
    (a review's figure; the setup cards print the real one)."""
    length = 15 + players - 2
    return "n" * (length // 2) + ("h" if length % 2 else "")


def default_deck(players: int) -> int:
    return 10 if players in (2, 5) else 12


Card = tuple[str, int]


@dataclass(frozen=True)
class CardsPosition:
    """A validated Camel Up Cards position (see the module docstring)."""

    stacks: tuple[tuple[int, str], ...]
    players: int = 4
    track: str = ""
    palm: tuple[int, int | None] | None = None
    fennec: tuple[int, int | None] | None = None
    deck: int | None = None
    decksize: int | None = None
    known: tuple[Card, ...] = ()
    out: tuple[Card, ...] = ()
    revealed: tuple[Card, ...] = ()
    hand: Card | None = None
    legtiles: tuple[tuple[int, ...], ...] = field(default_factory=lambda: (LEG_STACK,) * 5)
    mid: str = CAMELS
    winners: str = CAMELS
    losers: str = CAMELS
    bets: tuple[str, ...] = ()
    money: int = START_MONEY
    hands: tuple[Card | str | None, ...] | None = None
    next: int = 0

    def __post_init__(self) -> None:
        if self.hands is None and self.players in PLAYERS:
            object.__setattr__(self, "hands", (UNKNOWN_HAND,) * (self.players - 1))
        if not self.track:
            object.__setattr__(self, "track", DEFAULT_TRACK(self.players))
        if self.decksize is None:
            object.__setattr__(self, "decksize", default_deck(self.players))
        if self.deck is None:
            object.__setattr__(self, "deck", self.decksize)
        object.__setattr__(self, "stacks", tuple(sorted(self.stacks)))
        self._validate()  # before sorting the rest: messages quote tokens as typed
        object.__setattr__(self, "known", tuple(sorted(self.known)))
        object.__setattr__(self, "out", tuple(sorted(self.out)))
        object.__setattr__(self, "revealed", tuple(sorted(self.revealed)))
        object.__setattr__(self, "bets", tuple(sorted(self.bets, key=_bet_order)))
        for name in ("mid", "winners", "losers"):
            letters = getattr(self, name)
            object.__setattr__(self, name, "".join(sorted(letters, key=lambda c: CAMELS.find(c))))

    # ------------------------------------------------------------ derived
    @property
    def length(self) -> int:
        return sum(2 if c == "n" else 1 for c in self.track)

    def space_of(self, camel: str) -> int:
        for space, stack in self.stacks:
            if camel in stack:
                return space
        raise KeyError(camel)

    @property
    def last_space(self) -> int:
        return min(space for space, _ in self.stacks)

    def unseen(self) -> Counter:
        """The cards the advised player has not seen: the unknown part of
        the deck is drawn from these."""
        seen = self._placed()
        return Counter({card: n - seen[card] for card, n in FULL_DECK.items() if n - seen[card] > 0})

    def _placed(self) -> Counter:
        return (Counter(self.known) + Counter(self.revealed) + Counter(self.out)
                + Counter([self.hand] if self.hand else []) + Counter(self.known_hands()))

    def known_hands(self) -> list[Card]:
        """The other players' hand cards known to the advised player."""
        return [h for h in (self.hands or ()) if isinstance(h, tuple)]

    @property
    def spectator(self) -> bool:
        """Whether ``hands`` lists every player (a spectator's position)."""
        return len(self.hands) == self.players

    def seat_hands(self) -> tuple:
        """Every player's hand card, player 0 first: a card, ``"?"``
        (unseen) or None."""
        return tuple(self.hands) if self.spectator else (self.hand,) + tuple(self.hands)

    @property
    def unknown(self) -> int:
        return self.deck - len(self.known)

    def held(self) -> dict:
        """The advised player's bets: leg (colour, value) list, midfield
        colours, overall winner / loser colour (or None)."""
        out = {"leg": [], "mid": [], "winner": None, "loser": None}
        for b in self.bets:
            if b[0] == "m":
                out["mid"].append(b[1])
            elif b[0] == "w":
                out["winner"] = b[1]
            elif b[0] == "l":
                out["loser"] = b[1]
            else:
                out["leg"].append((b[0], int(b[1:])))
        return out

    def figure_spaces(self) -> list[int]:
        """Where a figure beside the track may be placed now."""
        occupied = {space for space, _ in self.stacks}
        taken = {f[0] for f in (self.palm, self.fennec) if f}
        return [s for s in range(max(self.last_space + 1, 1), self.length + 1) if s not in occupied | taken]

    # ------------------------------------------------------------ checks
    def _fail(self, token: str | None, message: str):
        raise PositionError(message, token=token)

    def _validate(self) -> None:
        if self.players not in PLAYERS:
            self._fail(f"players:{self.players}", "Camel Up Cards is for 2..6 players")
        if any(c not in "nsh" for c in self.track) or "h" in self.track[:-1] or not self.track:
            self._fail(f"track:{self.track}", "one letter per track card: n, s, or h (half covered, last only)")
        if len(self.track) > MAX_TRACK_CARDS:
            self._fail(f"track:{self.track}", f"at most {MAX_TRACK_CARDS} track cards (the game has about 10)")
        length = self.length
        seen: list[str] = []
        spaces = [space for space, _ in self.stacks]
        for space, stack in self.stacks:
            token = f"{space}:{stack}"
            if not stack:
                self._fail(token, "a stack lists at least one camel")
            if spaces.count(space) > 1:
                self._fail(token, f"space {space} is given twice")
            if not 0 <= space <= length:
                self._fail(token, f"space must be 0 (the start card) .. {length} (the track's last space)")
            for c in stack:
                if c not in CAMELS:
                    self._fail(token, f"unknown camel {c!r} (camels: {CAMELS})")
                if c in seen:
                    self._fail(token, f"camel {c} is placed twice")
                seen.append(c)
        missing = [c for c in CAMELS if c not in seen]
        if missing:
            self._fail(None, f"camel{'s' if len(missing) > 1 else ''} {''.join(missing)} missing")
        occupied = {space for space, _ in self.stacks}
        for name, fig in (("palm", self.palm), ("fennec", self.fennec)):
            if fig is None:
                continue
            space, owner = fig
            token = f"{name}:{space}" + (f"@{owner}" if owner is not None else "")
            if not 1 <= space <= length:
                self._fail(token, f"a figure stands on a track space 1..{length}")
            if space in occupied:
                self._fail(token, "a figure stands on an empty space")
            if space <= self.last_space:
                self._fail(token, "a figure stands ahead of the last camel")
            if owner is not None and not 0 <= owner < self.players:
                self._fail(token, f"its card's holder must be a player 0..{self.players - 1}")
        if self.palm and self.fennec and self.palm[0] == self.fennec[0]:
            self._fail(f"fennec:{self.fennec[0]}", "the palm and the fennec share a space")
        if self.decksize not in DECK_SIZES:
            self._fail(f"decksize:{self.decksize}",
                       f"a race deck holds {DECK_SIZES[0]}..{DECK_SIZES[-1]} cards (10 or 12 in the game)")
        if not 1 <= self.deck <= self.decksize:
            self._fail(f"deck:{self.deck}", f"cards left must be 1..{self.decksize} (with 0 the leg is over)")
        if len(self.known) > self.deck:
            self._fail("known:" + cards_str(self.known), f"more known cards than the {self.deck} in the deck")
        for card, n in self._placed().items():
            if card not in FULL_DECK or n > FULL_DECK[card]:
                self._fail(cards_str([card]), f"there are {FULL_DECK.get(card, 0)} such cards in the game, "
                           f"{n} are placed (known, revealed, out, hand and hands together)")
        if self.unknown > sum(self.unseen().values()):
            self._fail(f"deck:{self.deck}", "fewer unseen cards than unknown cards in the deck")
        self._validate_turns()
        for c, stack in zip(CAMELS, self.legtiles):
            if tuple(stack) != LEG_STACK[len(LEG_STACK) - len(stack):]:
                self._fail(f"legtiles:{c}", "leg-winner cards left are a suffix of " + ",".join(map(str, LEG_STACK)))
        for name, letters in (("mid", self.mid), ("winners", self.winners), ("losers", self.losers)):
            if any(c not in CAMELS for c in letters) or len(set(letters)) != len(letters):
                self._fail(f"{name}:{letters}", f"colours from {CAMELS}, each once")
        held = {"w": [], "l": []}
        taken = Counter()
        for b in self.bets:
            token = f"bets:{b}"
            if len(b) == 2 and b[0] in "mwl" and b[1] in CAMELS:
                if b[0] in "wl":
                    held[b[0]].append(b[1])
                elif b[1] in self.mid:
                    self._fail(token, "that midfield card is still on offer")
                elif b in taken:
                    self._fail(token, "there is one midfield card per colour")
                taken[b] += 1
            elif len(b) == 2 and b[0] in CAMELS and b[1] in LEG_VALUES:
                taken[(b[0], int(b[1]))] += 1
            else:
                self._fail(token, f"a bet is {'/'.join('C' + v for v in LEG_VALUES)} (leg winner), mC (midfield), "
                           "wC / lC (overall)")
        for c, stack in zip(CAMELS, self.legtiles):
            for value in map(int, LEG_VALUES):
                if taken[(c, value)] + stack.count(value) > LEG_STACK.count(value):
                    self._fail(f"bets:{c}{value}", "more leg-winner cards of that value than the game has")
        for kind, name, table in (("w", "winner", self.winners), ("l", "loser", self.losers)):
            if len(held[kind]) > 1:
                self._fail(None, f"a player holds at most one overall {name} card")
            if held[kind] and held[kind][0] in table:
                self._fail(f"bets:{kind}{held[kind][0]}", f"that overall {name} card is on the table")
        if isinstance(self.money, bool) or not isinstance(self.money, int) or self.money < MONEY_FLOOR:
            self._fail(f"money:{self.money}", f"money never drops below {MONEY_FLOOR}")
        if self.money > MAX_MONEY:
            self._fail(f"money:{self.money}", f"at most {MAX_MONEY:,} coins")

    def _validate_turns(self) -> None:
        """``hands`` and ``next``."""
        hands = self.hands
        token = "hands:" + hands_str(hands)
        if len(hands) not in (self.players - 1, self.players):
            self._fail(token, f"one entry per other player ({self.players - 1}; or {self.players} for a "
                       "spectator's position, player 0 first): ? unseen, - none, or a card")
        if self.spectator:
            if self.hand:
                self._fail(token, "a spectator's position (an entry for every player) has no hand: of player 0")
            if self.bets:
                self._fail(token, "a spectator's position (an entry for every player) has no bets: of player 0")
        unseen_hands = sum(h == UNKNOWN_HAND for h in hands)
        if self.unknown + unseen_hands > sum(self.unseen().values()):
            self._fail(token if self._hands_given() else None,
                       f"fewer unseen cards ({sum(self.unseen().values())}) than the deck's unknown cards "
                       f"({self.unknown}) and the unseen hand cards ({unseen_hands})"
                       + ("" if self._hands_given() else ": say who holds none with hands:, e.g. hands:"
                          + "-" * (self.players - 1)))
        if isinstance(self.next, bool) or not isinstance(self.next, int) or not 0 <= self.next < self.players:
            self._fail(f"next:{self.next}", f"the player to move is 0..{self.players - 1}")

    def _hands_given(self) -> bool:
        return tuple(self.hands) != (UNKNOWN_HAND,) * (self.players - 1)

    # ------------------------------------------------------------ text
    def __str__(self) -> str:
        parts = ["cards"]
        if self.players != 4:
            parts.append(f"players:{self.players}")
        if self.track != DEFAULT_TRACK(self.players):
            parts.append(f"track:{self.track}")
        parts += [f"{space}:{stack}" for space, stack in self.stacks]
        for name, fig in (("palm", self.palm), ("fennec", self.fennec)):
            if fig:
                parts.append(f"{name}:{fig[0]}" + (f"@{fig[1]}" if fig[1] is not None else ""))
        if self.decksize != default_deck(self.players):
            parts.append(f"decksize:{self.decksize}")
        if self.deck != self.decksize:
            parts.append(f"deck:{self.deck}")
        for name, cards in (("known", self.known), ("revealed", self.revealed), ("out", self.out)):
            if cards:
                parts.append(f"{name}:{cards_str(cards)}")
        if self.hand:
            parts.append(f"hand:{cards_str([self.hand])}")
        if self._hands_given():
            parts.append(f"hands:{hands_str(self.hands)}")
        if self.next:
            parts.append(f"next:{self.next}")
        if any(tuple(s) != LEG_STACK for s in self.legtiles):
            parts.append("legtiles:" + ",".join(c + "".join(map(str, s)) for c, s in zip(CAMELS, self.legtiles)
                                                if tuple(s) != LEG_STACK))
        for name, letters in (("mid", self.mid), ("winners", self.winners), ("losers", self.losers)):
            if set(letters) != set(CAMELS):
                parts.append(f"{name}:{letters}")
        if self.bets:
            parts.append("bets:" + ",".join(self.bets))
        if self.money != START_MONEY:
            parts.append(f"money:{self.money}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"parse_cards({str(self)!r})"


def _bet_order(bet: str):
    return ("wlm".find(bet[0]) if bet[0] in "wlm" else 3, bet)


def cards_str(cards) -> str:
    return "".join(f"{c}{v}" for c, v in cards)


#: ``hands:`` entry of a hand card the advised player has not seen
UNKNOWN_HAND = "?"


def hands_str(hands) -> str:
    return "".join(UNKNOWN_HAND if h == UNKNOWN_HAND else "-" if h is None else cards_str([h]) for h in hands)


def _hands(token: str, text: str) -> tuple:
    out: list = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in (UNKNOWN_HAND, "-"):
            out.append(UNKNOWN_HAND if c == UNKNOWN_HAND else None)
            i += 1
        else:
            out.append(_cards(token, text[i:i + 2])[0])  # names a bad card, or a lone letter
            i += 2
    if not out:
        raise PositionError("hands: lists the other players' hand cards, e.g. hands:?-B1", token=token)
    return tuple(out)


def _cards(token: str, text: str) -> tuple[Card, ...]:
    if len(text) % 2:
        raise PositionError("cards are colour and value pairs, e.g. B1G2", token=token)
    out = []
    for i in range(0, len(text), 2):
        c, v = text[i], text[i + 1]
        if c not in CAMELS or v not in "12":
            raise PositionError(f"{c}{v} is not a racing card (colours {CAMELS}, values 1, 2)",
                                token=token)
        out.append((c, int(v)))
    return tuple(out)


def _int(token: str, text: str) -> int:
    return whole_number(text, token)


def is_cards(text: str) -> bool:
    return isinstance(text, str) and "cards" in text.split()


def parse_cards(text: str) -> CardsPosition:
    """Parse the compact string form (see the module docstring)."""
    if not isinstance(text, str) or not text.split():
        raise PositionError("empty position")
    tokens = split_tokens(text)
    if "cards" not in tokens:
        raise PositionError("a Camel Up Cards position contains the token 'cards'")
    fields: dict = {}
    stacks = []
    legtiles = None
    for token in tokens:
        key, sep, value = token.partition(":")
        if token == "cards":
            continue
        if not sep:
            raise PositionError("unknown token (see the Camel Up Cards notation)", token=token)
        if is_number(key):
            stacks.append((whole_number(key, token), value))
            continue
        if key in fields or (key == "legtiles" and legtiles is not None):
            raise PositionError(f"{key} is given twice", token=token)
        if key in ("players", "deck", "decksize", "money", "next"):
            fields[key] = _int(token, value)
        elif key == "track":
            if not value:
                raise PositionError("one letter per track card: n, s, or h", token=token)
            fields[key] = value
        elif key in ("palm", "fennec"):
            space, at, owner = value.partition("@")
            fields[key] = (_int(token, space), _int(token, owner) if at else None)
        elif key in ("known", "out", "revealed"):
            fields[key] = _cards(token, value)
        elif key == "hand":
            cards = _cards(token, value)
            if len(cards) != 1:
                raise PositionError("one hand card", token=token)
            fields[key] = cards[0]
        elif key == "hands":
            fields[key] = _hands(token, value)
        elif key == "legtiles":
            legtiles = [LEG_STACK] * 5
            given = set()
            for part in value.split(","):
                if not part or part[0] not in CAMELS or part[1:] and not is_number(part[1:]):
                    raise PositionError("expected e.g. legtiles:B532,G2", token=token)
                if part[0] in given:
                    raise PositionError(f"colour {part[0]} is given twice", token=token)
                given.add(part[0])
                legtiles[CAMELS.index(part[0])] = tuple(int(d) for d in part[1:])
        elif key in ("mid", "winners", "losers"):
            fields[key] = value
        elif key == "bets":
            fields[key] = tuple(b for b in value.split(",") if b)
        else:
            raise PositionError("unknown token (see the Camel Up Cards notation)", token=token)
    if legtiles is not None:
        fields["legtiles"] = tuple(legtiles)
    try:
        return CardsPosition(stacks=tuple(stacks), **fields)
    except TypeError as exc:  # pragma: no cover - every field is typed above
        raise PositionError(str(exc)) from None
