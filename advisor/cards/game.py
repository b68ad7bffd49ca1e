"""Camel Up Cards whole games: the rules of a game, step by step
(docs/rules.md, Camel Up Cards).

:class:`CardsState` is the whole state of a game (hidden information
included).  :func:`apply` is pure: it returns the state after a player's
action, or raises :class:`~advisor.errors.IllegalActionError` and changes
nothing.  Chance steps are separate pure functions taking the outcome as an
argument (:func:`start_game`: the five set-up cards; :func:`deal`: the order
of the 30 racing cards; :func:`shuffle`: the order of the race deck), so
that a state and its history replay exactly; :class:`CardsGame` is the
random source and the list of steps around them.

A game runs in phases:

* ``deal`` (chance): every player is dealt ``setup.dealt`` racing cards;
* ``build``: from the start player on, each player keeps one card in hand,
  shows ``setup.shown`` cards, puts ``setup.down`` cards face down into the
  race deck and discards the rest (action ``build:H/S/D/X``);
* ``shuffle`` (chance): the race deck (face-down and shown cards) is
  shuffled;
* ``turn``: from the start player on, clockwise, each turn is one race
  action (``reveal``, ``hand``, ``palm:N``, ``fennec:N``) with at most one
  bet (``leg:C``, ``mid:C``, ``winner:C``, ``loser:C``) before or after it;
  ``pass`` ends a turn after the race action without a bet.  Revealing the
  deck's last card ends the leg at once (no bet after it): the leg is
  scored and the next leg starts (sandstorm and track extension, figures
  beside the track) with a new deal;
* ``over``: a unit reached the finish card; the leg and then the overall
  cards were scored.

Camel moves, figures, sandstorms and the track extension are the kernels'
(:mod:`advisor.kernels.cards`); the payouts and the money floor are
:func:`leg_payouts`, :func:`overall_payouts` and :func:`floor_money`.

**Rulings** (where the rulebook is silent; docs/rules.md takes the numbers of
the setup cards as inputs):

* Default set-up numbers (unverified; give the setup card's): a race deck
  of 12 cards (10 with 2 or 5 players), each player contributing an equal
  share; with more than 2 players one of a player's cards is shown, the
  others go face down; each player is dealt their share plus two cards
  (one kept in hand, one discarded); 3 coins each at the start.
* The five set-up cards are shuffled back before the first deal; the
  camels start side by side on the start card in the order B G O W Y (B
  ranks last) before they move.
* Sandstorm and track extension are checked at every leg start, the first
  too (after the set-up moves): the rulebook says to check before each leg.
* The start player of the first leg is player 0; of each later leg the
  poorest player, ties broken clockwise from the player after the one who
  ended the leg.
* A player builds (deal phase) in turn order from the start player; shown
  cards are public once the deck is shuffled.
* The figures pay nothing when they act; a figure's card is held until the
  figure acts or is passed (then it returns beside the track with it), and
  costs its holder 1 at the leg's end if the figure is still on the track.
* The money floor of 1 is applied to each player's total leg payout, and
  again after the overall cards.
* A hand card played is public (it leaves the game for the leg).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from advisor.errors import IllegalActionError
from advisor.cards.actions import Card, CardsAction, card_text
from advisor.cards.chance import CARD_MODES, LegCards
from advisor.cards.position import (
    CAMELS, DEFAULT_TRACK, FULL_DECK, LEG_STACK, MONEY_FLOOR, PLAYERS, START_MONEY, UNKNOWN_HAND, CardsPosition,
    default_deck,
)

__all__ = ["CardsSetup", "CardsPlayer", "CardsState", "CardsGame", "start_game", "deal", "shuffle", "apply",
           "legal_actions", "figure_spaces", "leg_payouts", "overall_payouts", "floor_money", "ranking", "MONEY_FLOOR",
           "leg_card_payout", "race_choices", "bet_choices", "FIGURE_PENALTY", "LEG_SECOND", "LEG_OTHER",
           "FULL_CARDS", "MID_PAY", "WINNER_PAY", "LOSER_PAY", "UNSEEN"]

#: payouts by rank 1st..5th
MID_PAY = (-1, 1, 2, 1, -1)
WINNER_PAY = (7, 3, -1, -1, -1)
LOSER_PAY = (-1, -1, -1, 3, 7)
FIGURE_PENALTY = -1
#: What a leg-winner card pays when its camel is 2nd, and further back (1st: its value).
LEG_SECOND = 1
LEG_OTHER = -1
#: the 30 racing cards, sorted
FULL_CARDS: tuple[Card, ...] = tuple(sorted(card for card, n in FULL_DECK.items() for _ in range(n)))
#: a card face down, in a player's view (:meth:`CardsState.view`)
UNSEEN: Card = ("?", 0)
_TRACK_CODES = {"n": 2, "s": 1, "h": 3}
_TRACK_LETTERS = {v: k for k, v in _TRACK_CODES.items()}


@dataclass(frozen=True)
class CardsSetup:
    """The numbers of a game: players (2..6), the track cards after the
    start card, each player's money at the start, and per leg: cards dealt
    to each player, cards each shows and puts face down into the deck (the
    rest but the hand card are discarded)."""

    players: int = 4
    track: str = ""
    start_money: int = START_MONEY
    dealt: int | None = None
    shown: int | None = None
    down: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players not in PLAYERS:
            raise IllegalActionError(f"Camel Up Cards is for {PLAYERS[0]}..{PLAYERS[-1]} players")
        share = default_deck(self.players) // self.players
        shown = (1 if self.players > 2 else 0) if self.shown is None else self.shown
        down = share - shown if self.down is None else self.down
        object.__setattr__(self, "track", self.track or DEFAULT_TRACK(self.players))
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "down", down)
        object.__setattr__(self, "dealt", down + shown + 2 if self.dealt is None else self.dealt)
        if any(c not in "nsh" for c in self.track) or "h" in self.track[:-1] or not self.track:
            raise IllegalActionError(f"track {self.track!r}: one letter per card, n, s or h (last only)")
        if self.shown not in (0, 1) or self.down < 0 or self.shown + self.down < 1:
            raise IllegalActionError("each player shows 0 or 1 card and puts at least one card into the deck")
        if self.dealt < self.shown + self.down + 1 or self.dealt * self.players > len(FULL_CARDS):
            raise IllegalActionError(f"{self.dealt} cards dealt to each of {self.players} players: too few to "
                                     "keep one in hand, or more than the 30 racing cards")
        if not isinstance(self.start_money, int) or self.start_money < MONEY_FLOOR:
            raise IllegalActionError(f"start money must be at least {MONEY_FLOOR}")

    @property
    def decksize(self) -> int:
        return self.players * (self.shown + self.down)


@dataclass(frozen=True)
class CardsPlayer:
    """A player's money and holdings.  ``leg``: leg-winner cards held
    (colour, value); ``mid``: midfield colours; ``winner``/``loser``: the
    overall card held; ``hand``: the hand card; ``dealt``: cards dealt and
    not yet built (deal phase); ``down``/``discard``: own face-down and
    discarded cards of this leg (known to this player only)."""

    money: int
    hand: Card | None = None
    leg: tuple[tuple[str, int], ...] = ()
    mid: tuple[str, ...] = ()
    winner: str | None = None
    loser: str | None = None
    dealt: tuple[Card, ...] = ()
    down: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()


@dataclass(frozen=True)
class CardsState:
    """The whole state of a Camel Up Cards game (see the module docstring).

    ``sp``/``ht``: each camel's space (0 the start card) and height (as in
    :mod:`advisor.kernels.cards`); ``palm``/``fennec``: the figure's space
    (0: beside the track) and ``palm_holder``/``fennec_holder`` the player
    holding its card; ``legtiles``: leg-winner cards left per colour, top
    first; ``mid``/``winners``/``losers``: cards on offer; ``deck``: the race
    deck, top first; ``revealed``: this leg's revealed pile; ``shown``: the
    cards shown this leg; ``played``: hand cards played this leg."""

    setup: CardsSetup
    track: str
    sp: tuple[int, ...]
    ht: tuple[int, ...]
    players: tuple[CardsPlayer, ...]
    palm: int = 0
    fennec: int = 0
    palm_holder: int | None = None
    fennec_holder: int | None = None
    legtiles: tuple[tuple[int, ...], ...] = (LEG_STACK,) * 5
    mid: str = CAMELS
    winners: str = CAMELS
    losers: str = CAMELS
    deck: tuple[Card, ...] = ()
    revealed: tuple[Card, ...] = ()
    shown: tuple[Card, ...] = ()
    played: tuple[Card, ...] = ()
    leg: int = 1
    start_player: int = 0
    current: int = 0
    phase: str = "deal"
    raced: bool = False
    bet: bool = False
    built: int = 0

    # ------------------------------------------------------------ derived
    @property
    def length(self) -> int:
        return sum(2 if c == "n" else 1 for c in self.track)

    def stacks(self) -> tuple[tuple[int, str], ...]:
        """Camels by space, bottom to top (start card: the last ranked first)."""
        out = {}
        for space in sorted(set(self.sp)):
            here = sorted((self.ht[i], c) for i, c in enumerate(CAMELS) if self.sp[i] == space)
            out[space] = "".join(c for _, c in here)
        return tuple(out.items())

    def board(self) -> str:
        """The board in the Camel Up Cards notation (track, camels, figures)."""
        parts = [f"{space}:{stack}" for space, stack in self.stacks()]
        for name, space in (("palm", self.palm), ("fennec", self.fennec)):
            if space:
                parts.append(f"{name}:{space}")
        return f"track:{self.track} " + " ".join(parts)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def position(self, player: int | None):
        """The position as ``player`` sees it during a leg's turns (a
        :class:`~advisor.cards.position.CardsPosition` for the odds and the
        advice): the board, the cards on offer, their own hand, bets and
        money; players numbered from them (0) clockwise.  Cards known to be
        in the deck: their own face-down cards and the shown ones, less the
        revealed cards of each kind (a revealed card may be one of them);
        known out of it: their discards and the hand cards played.  Who
        still holds a hand card is public (``hands:``, each unseen), and so
        is whose race action comes next (``next:``; 1 once the player has
        played theirs this turn).

        ``player=None``: the position as a spectator sees it (public
        information only: the shown, revealed and played cards; no hand,
        bets or money; figure holders as they sit, from player 0; ``hands:``
        for every player, player 0 too)."""
        from collections import Counter

        if self.phase != "turn":
            raise IllegalActionError(f"a position is seen during a leg's turns (phase {self.phase})")
        n = self.setup.players
        me = CardsPlayer(money=START_MONEY) if player is None else self.players[player]
        seat = 0 if player is None else player
        known = Counter(me.down) + Counter(self.shown)
        known.subtract(Counter(self.revealed))
        figures = {}
        for name in ("palm", "fennec"):
            space = getattr(self, name)
            if space:
                holder = getattr(self, f"{name}_holder")
                figures[name] = (space, None if holder is None else (holder - seat) % n)
        bets = [f"{c}{v}" for c, v in me.leg] + [f"m{c}" for c in me.mid]
        bets += [f"w{me.winner}"] if me.winner else []
        bets += [f"l{me.loser}"] if me.loser else []
        # who holds a hand card is public, which card is not: the others' from the viewer on
        others = range(n) if player is None else [(seat + k) % n for k in range(1, n)]
        hands = tuple(UNKNOWN_HAND if self.players[i].hand else None for i in others)
        mover = (self.current + (1 if self.raced else 0)) % n  # the next race action's player
        return CardsPosition(
            stacks=self.stacks(), players=n, track=self.track, deck=len(self.deck), decksize=self.setup.decksize,
            known=tuple(sorted(known.elements())), revealed=self.revealed,
            out=tuple(sorted(me.discard + self.played)), hand=me.hand, legtiles=self.legtiles, mid=self.mid,
            winners=self.winners, losers=self.losers, bets=tuple(bets), money=me.money, hands=hands,
            next=(mover - seat) % n, **figures)

    def view(self, player: int) -> "CardsState":
        """The state as ``player`` sees it at the table: their own cards
        (dealt, hand, face down, discarded) and everything public (board,
        cards on offer, every player's money and bets, the revealed pile,
        the hand cards played, the shown cards once the deck is shuffled;
        before that only their own shown card).  The others' dealt cards
        and hand card are :data:`UNSEEN` cards (how many is public),
        their face-down and discarded cards are left out, and the race
        deck is as many :data:`UNSEEN` cards as it holds.  Whatever is drawn
        from a view (the table at ``camelup play``, its advice through
        :meth:`position`) cannot show what the player may not see."""
        n = self.setup.players
        if not isinstance(player, int) or not 0 <= player < n:
            raise IllegalActionError(f"player must be 0..{n - 1}")
        players = tuple(p if i == player else dataclasses.replace(
            p, hand=UNSEEN if p.hand else None, dealt=(UNSEEN,) * len(p.dealt), down=(), discard=())
            for i, p in enumerate(self.players))
        shown = self.shown
        if self.phase == "build":  # shown cards are public once the deck is shuffled
            mine = (player - self.start_player) % n  # builders go in turn order from the start player
            shown = (self.shown[mine],) if self.setup.shown and mine < len(self.shown) else ()
        return dataclasses.replace(self, players=players, shown=shown, deck=(UNSEEN,) * len(self.deck))

    def winners_of_game(self) -> list[int]:
        """The richest players (all of them on a tie), once the game is over."""
        best = max(p.money for p in self.players)
        return [i for i, p in enumerate(self.players) if p.money == best]


# ---------------------------------------------------------------- helpers
def _arrays(state: CardsState):
    sp = np.array(state.sp, np.int64)
    ht = np.array(state.ht, np.int64)
    fig = np.array([state.palm, state.fennec], np.int64)
    return sp, ht, fig


def ranking(sp, ht) -> tuple[str, ...]:
    """Camels from first to last (further along, then higher)."""
    from advisor.kernels.cards.track import rank_of

    sp = np.asarray(sp, np.int64)
    ht = np.asarray(ht, np.int64)
    order = sorted(range(5), key=lambda i: rank_of(sp, ht, i))
    return tuple(CAMELS[i] for i in order)


def floor_money(money):
    """Money never drops below :data:`MONEY_FLOOR` (element-wise on numpy
    arrays)."""
    if isinstance(money, np.ndarray):
        return np.maximum(MONEY_FLOOR, money)
    return max(MONEY_FLOOR, money)


def leg_card_payout(rank, value):
    """What a leg-winner card of ``value`` pays for its camel's ``rank``
    (0-based): its value if 1st, :data:`LEG_SECOND` if 2nd, else
    :data:`LEG_OTHER` (element-wise on a numpy array of ranks)."""
    if isinstance(rank, np.ndarray):
        return np.where(rank == 0, value, np.where(rank == 1, LEG_SECOND, LEG_OTHER))
    return value if rank == 0 else LEG_SECOND if rank == 1 else LEG_OTHER


def race_choices(hand: bool, palm_free: bool, fennec_free: bool, spaces) -> list[str]:
    """The race actions of a player who has not raced this turn: reveal,
    play the hand (``hand``: one is held), put a figure not on the track
    (``*_free``) beside one of ``spaces``."""
    out = ["reveal"]
    if hand:
        out.append("hand")
    for name, free in (("palm", palm_free), ("fennec", fennec_free)):
        if free:
            out += [f"{name}:{s}" for s in spaces]
    return out


def bet_choices(legtiles, mid, winners, losers) -> list[str]:
    """The bets of a player who has not bet this turn: a leg-winner card of
    each camel whose stack is not empty, a midfield card, an overall card."""
    out = [f"leg:{c}" for c, stack in zip(CAMELS, legtiles) if stack]
    out += [f"mid:{c}" for c in mid]
    out += [f"winner:{c}" for c in winners] + [f"loser:{c}" for c in losers]
    return out


def leg_payouts(state: CardsState, order: tuple[str, ...]) -> list[int]:
    """Each player's leg payout for the race order ``order`` (first to
    last): leg-winner cards (value if 1st, 1 if 2nd, else -1), midfield
    cards (:data:`MID_PAY`), -1 per figure card held with its figure still
    on the track."""
    rank = {c: i for i, c in enumerate(order)}
    out = []
    for i, p in enumerate(state.players):
        total = 0
        for colour, value in p.leg:
            total += leg_card_payout(rank[colour], value)
        for colour in p.mid:
            total += MID_PAY[rank[colour]]
        if state.palm and state.palm_holder == i:
            total += FIGURE_PENALTY
        if state.fennec and state.fennec_holder == i:
            total += FIGURE_PENALTY
        out.append(total)
    return out


def overall_payouts(state: CardsState, order: tuple[str, ...]) -> list[int]:
    """Each player's payout of the overall cards held at the race end."""
    rank = {c: i for i, c in enumerate(order)}
    out = []
    for p in state.players:
        total = 0
        if p.winner:
            total += WINNER_PAY[rank[p.winner]]
        if p.loser:
            total += LOSER_PAY[rank[p.loser]]
        out.append(total)
    return out


def figure_spaces(state: CardsState) -> list[int]:
    """Where a figure beside the track may be put (the kernels' rule)."""
    from advisor.kernels.cards.track import figure_spaces as kernel_spaces

    sp, _, fig = _arrays(state)
    out = np.zeros(state.length + 1, np.int64)
    n = kernel_spaces(sp, fig, state.length, out)
    return [int(x) for x in out[:n]]


def _fail(message: str):
    raise IllegalActionError(message)


# ---------------------------------------------------------------- chance
def start_game(setup: CardsSetup, cards: tuple[Card, ...]) -> CardsState:
    """The state before the first deal: the camels on the start card (B
    ranks last) moved by the five set-up ``cards`` in order."""
    from advisor.kernels.cards.track import move

    if len(cards) != 5 or any(c not in FULL_DECK for c in cards):
        _fail("the set-up reveals 5 racing cards")
    track = setup.track
    length = sum(2 if c == "n" else 1 for c in track)
    sp = np.zeros(5, np.int64)
    ht = np.arange(5, dtype=np.int64)
    fig = np.zeros(2, np.int64)
    for colour, value in cards:
        if move(sp, ht, fig, length, CAMELS.index(colour), value):
            _fail("the track is too short for the set-up moves")
    players = tuple(CardsPlayer(money=setup.start_money) for _ in range(setup.players))
    # Ruling: "before each leg starts, always check" the sandstorm (and the
    # track extension): the first leg too, after the set-up moves.
    track = _leg_start_track(sp, ht, fig, track)
    return CardsState(setup, track, tuple(int(x) for x in sp), tuple(int(x) for x in ht), players)


def _leg_start_track(sp, ht, fig, track: str) -> str:
    """The track at a leg start: every empty card between the leader and
    the last camel turned to its sandstorm side, then extended so that 3
    spaces lie between the leader and the finish (the kernel's
    ``leg_start``; ``sp``/``ht`` are updated in place)."""
    from advisor.kernels.cards.track import MAX_CARDS, leg_start

    codes = np.zeros(MAX_CARDS, np.int64)
    codes[:len(track)] = [_TRACK_CODES[c] for c in track]
    ncards, _ = leg_start(sp, ht, fig, codes, len(track))
    return "".join(_TRACK_LETTERS[int(x)] for x in codes[:ncards])


def deal(state: CardsState, order: tuple[Card, ...]) -> CardsState:
    """Deal the leg's cards: ``order`` is the 30 racing cards shuffled;
    player ``p`` gets cards ``p * dealt .. (p + 1) * dealt - 1``."""
    if state.phase != "deal":
        _fail(f"no deal now (phase {state.phase})")
    if tuple(sorted(order)) != FULL_CARDS:
        _fail("a deal is an order of the 30 racing cards")
    n = state.setup.dealt
    players = tuple(dataclasses.replace(p, dealt=tuple(sorted(order[i * n:(i + 1) * n])), hand=None, down=(),
                                        discard=())
                    for i, p in enumerate(state.players))
    return dataclasses.replace(state, players=players, phase="build", current=state.start_player, built=0)


def shuffle(state: CardsState, order: tuple[Card, ...]) -> CardsState:
    """Shuffle the race deck: ``order`` is its cards, top first."""
    if state.phase != "shuffle":
        _fail(f"no shuffle now (phase {state.phase})")
    cards = sorted(state.shown + tuple(c for p in state.players for c in p.down))
    if sorted(order) != cards:
        _fail("the shuffled deck must hold the face-down and shown cards")
    return dataclasses.replace(state, deck=tuple(order), phase="turn", current=state.start_player,
                               raced=False, bet=False)


# ---------------------------------------------------------------- actions
def legal_actions(state: CardsState) -> list[CardsAction]:
    """The current player's legal actions (``build`` actions are not
    listed: any split of the dealt cards of the right sizes is legal)."""
    if state.phase != "turn":
        return []
    p = state.players[state.current]
    out = []
    if not state.raced:
        out += [CardsAction.parse(a) for a in race_choices(bool(p.hand), not state.palm, not state.fennec,
                                                             figure_spaces(state))]
    if not state.bet:
        out += [CardsAction.parse(a) for a in bet_choices(state.legtiles, state.mid, state.winners, state.losers)]
    if state.raced and not state.bet:
        out.append(CardsAction("pass"))
    return out


def apply(state: CardsState, action: CardsAction | str) -> CardsState:
    """The state after the current player's ``action`` (pure; an illegal
    action raises :class:`~advisor.errors.IllegalActionError`)."""
    action = CardsAction.parse(action)
    if state.phase == "build":
        if action.kind != "build":
            _fail(f"player {state.current} must build the race deck now (build:H/S/D/X), not {action}")
        return _build(state, action)
    if state.phase != "turn":
        _fail(f"no player acts now (phase {state.phase})")
    if action.kind == "build":
        _fail("the race deck is built at the leg's start only")
    if action.kind == "pass":
        if not state.raced or state.bet:
            _fail("pass ends a turn after its race action, when no bet was taken")
        return _next_turn(state)
    if action.is_bet:
        if state.bet:
            _fail("one bet per turn")
        after = _take_bet(state, action)
        return _next_turn(after) if state.raced else dataclasses.replace(after, bet=True)
    if state.raced:
        _fail("one race action per turn")
    return _race(state, action)


def _build(state: CardsState, action: CardsAction) -> CardsState:
    setup = state.setup
    me = state.players[state.current]
    used = [action.hand] + ([action.shown] if action.shown else []) + list(action.down) + list(action.discard)
    if sorted(used) != sorted(me.dealt):
        _fail(f"build {action}: the cards must be exactly those dealt ({card_text(me.dealt)})")
    if (1 if action.shown else 0) != setup.shown:
        _fail(f"build {action}: show {setup.shown} card{'s' if setup.shown != 1 else ''}")
    if len(action.down) != setup.down:
        _fail(f"build {action}: put {setup.down} cards face down")
    player = dataclasses.replace(me, hand=action.hand, down=action.down, discard=action.discard, dealt=())
    players = _with(state.players, state.current, player)
    shown = state.shown + ((action.shown,) if action.shown else ())
    built = state.built + 1
    nxt = (state.current + 1) % setup.players
    return dataclasses.replace(state, players=players, shown=shown, built=built, current=nxt,
                               phase="shuffle" if built == setup.players else "build")


def _take_bet(state: CardsState, action: CardsAction) -> CardsState:
    c = action.colour
    i = CAMELS.index(c)
    me = state.players[state.current]
    if action.kind == "leg":
        if not state.legtiles[i]:
            _fail(f"{action}: no leg-winner card of {c} left")
        value = state.legtiles[i][0]
        legtiles = state.legtiles[:i] + (state.legtiles[i][1:],) + state.legtiles[i + 1:]
        return dataclasses.replace(state, legtiles=legtiles, players=_with(
            state.players, state.current, dataclasses.replace(me, leg=me.leg + ((c, value),))))
    if action.kind == "mid":
        if c not in state.mid:
            _fail(f"{action}: the midfield card of {c} is taken")
        return dataclasses.replace(state, mid=state.mid.replace(c, ""), players=_with(
            state.players, state.current, dataclasses.replace(me, mid=me.mid + (c,))))
    table = state.winners if action.kind == "winner" else state.losers
    if c not in table:
        _fail(f"{action}: that overall {action.kind} card is not on the table")
    old = getattr(me, action.kind)
    table = table.replace(c, "") + (old or "")
    table = "".join(x for x in CAMELS if x in table)
    player = dataclasses.replace(me, **{action.kind: c})
    return dataclasses.replace(state, players=_with(state.players, state.current, player),
                               **{"winners" if action.kind == "winner" else "losers": table})


def _race(state: CardsState, action: CardsAction) -> CardsState:
    from advisor.kernels.cards.track import move

    me = state.players[state.current]
    if action.kind in ("palm", "fennec"):
        if getattr(state, action.kind):
            _fail(f"{action}: the {action.kind} is on the track")
        if action.space not in figure_spaces(state):
            _fail(f"{action}: a figure goes on an empty space ahead of the last camel, on the track")
        after = dataclasses.replace(state, **{action.kind: action.space,
                                              f"{action.kind}_holder": state.current})
        return _raced(after)
    sp, ht, fig = _arrays(state)
    if action.kind == "hand":
        if not me.hand:
            _fail("hand: no hand card")
        card = me.hand
        over = move(sp, ht, fig, state.length, CAMELS.index(card[0]), 1)  # +1 even for a +2 card
        changes = {"played": state.played + (card,),
                   "players": _with(state.players, state.current, dataclasses.replace(me, hand=None))}
    else:
        card = state.deck[0]
        over = move(sp, ht, fig, state.length, CAMELS.index(card[0]), card[1])
        changes = {"deck": state.deck[1:], "revealed": state.revealed + (card,)}
    after = dataclasses.replace(
        state, sp=tuple(int(x) for x in sp), ht=tuple(int(x) for x in ht), palm=int(fig[0]), fennec=int(fig[1]),
        palm_holder=state.palm_holder if fig[0] else None, fennec_holder=state.fennec_holder if fig[1] else None,
        **changes)
    if over:
        return _end_race(after)
    if not after.deck:
        return _end_leg(after)
    return _raced(after)


def _raced(state: CardsState) -> CardsState:
    return _next_turn(state) if state.bet else dataclasses.replace(state, raced=True)


def _next_turn(state: CardsState) -> CardsState:
    return dataclasses.replace(state, current=(state.current + 1) % state.setup.players, raced=False, bet=False)


def _score_leg(state: CardsState) -> tuple[CardsPlayer, ...]:
    order = ranking(state.sp, state.ht)
    pay = leg_payouts(state, order)
    return tuple(dataclasses.replace(p, money=floor_money(p.money + pay[i]), leg=(), mid=(), hand=None, down=(),
                                     discard=()) for i, p in enumerate(state.players))


def _end_leg(state: CardsState) -> CardsState:
    """Score the leg, then set up the next: figures beside the track, the
    sandstorm, the track extension, the poorest player starts."""
    players = _score_leg(state)
    sp, ht, fig = _arrays(state)
    track = _leg_start_track(sp, ht, fig, state.track)
    poorest = min(p.money for p in players)
    n = state.setup.players
    ender = state.current
    start = next(i % n for i in range(ender + 1, ender + 1 + n) if players[i % n].money == poorest)
    return dataclasses.replace(
        state, players=players, track=track,
        sp=tuple(int(x) for x in sp), ht=tuple(int(x) for x in ht), palm=0, fennec=0, palm_holder=None,
        fennec_holder=None, legtiles=(LEG_STACK,) * 5, mid=CAMELS, deck=(), revealed=(), shown=(), played=(),
        leg=state.leg + 1, start_player=start, current=start, phase="deal", raced=False, bet=False, built=0)


def _end_race(state: CardsState) -> CardsState:
    """Score the leg (floor), then the overall cards (floor again)."""
    order = ranking(state.sp, state.ht)
    players = _score_leg(state)
    pay = overall_payouts(dataclasses.replace(state, players=players), order)
    players = tuple(dataclasses.replace(p, money=floor_money(p.money + pay[i])) for i, p in enumerate(players))
    return dataclasses.replace(state, players=players, phase="over", raced=False, bet=False)


def _with(players, i, player):
    return players[:i] + (player,) + players[i + 1:]


# ---------------------------------------------------------------- the game
class CardsGame:
    """A game: the random source (numpy, ``seed``; None draws one) for the
    chance steps, the current :attr:`state` and the game :attr:`record`.

    The record is a list of JSON-ready lines (the project's JSON-lines game
    records): ``setup`` (``game: "cards"``, players, seed, the set-up
    numbers, the five set-up cards, the board after them), ``deal`` (the
    order of the 30 cards), ``shuffle`` (the race deck, top first), one
    ``action`` line per action (turn, player, action; ``card`` for a card
    revealed or played from the hand; the board and every player's money
    after it) and ``end`` (money, winners, legs, final board).  It holds
    every hidden card; :func:`advisor.cards.record.view_record` keeps what
    one player could see, and :func:`advisor.cards.record.replay_cards`
    replays a record, checking every line."""

    def __init__(self, setup: CardsSetup | None = None, seed: int | None = None, *, start: tuple | None = None,
                 draw: bool = True, dice: str = "game"):
        """``start``: the five set-up cards (default: drawn); ``draw=False``:
        chance steps only through :meth:`chance` with their outcome (replays);
        ``dice``: the source of the deals and shuffles
        (:mod:`advisor.cards.chance`: ``"game"``, one stream; ``"leg"``, each
        leg's own, whatever the players decide)."""
        if dice not in CARD_MODES:
            raise IllegalActionError(f"dice must be one of {', '.join(map(repr, CARD_MODES))}, not {dice!r:.40}")
        self.setup = setup or CardsSetup()
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**63))
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.legcards = LegCards(seed) if dice == "leg" else None
        self.draw = draw
        if start is not None:
            first = tuple(start)
        else:
            first = (self.legcards.setup() if self.legcards else self._order(FULL_CARDS))[:5]
        self.state = start_game(self.setup, first)
        self.turns = 0
        s = self.setup
        self.record: list[dict] = [{
            "type": "setup", "game": "cards", "players": s.players, "seed": seed, "track": s.track,
            "start_money": s.start_money, "dealt": s.dealt, "shown": s.shown, "down": s.down,
            "cards": card_text(first), "board": self.state.board(),
        }]
        if dice != "game":
            self.record[0]["dice"] = dice
        if draw:
            self.chance()

    def _order(self, cards) -> tuple[Card, ...]:
        cards = list(cards)
        return tuple(cards[i] for i in self.rng.permutation(len(cards)))

    def chance(self, outcome: tuple[Card, ...] | None = None) -> None:
        """Run the chance steps due (deal, shuffle), drawn from the random
        source; ``outcome`` gives the next one instead (replays)."""
        while self.state.phase in ("deal", "shuffle"):
            s = self.state
            if s.phase == "deal":
                order = outcome or (self.legcards.deal(s.leg) if self.legcards else self._order(FULL_CARDS))
                self.state = deal(s, order)
                self.record.append({"type": "deal", "leg": s.leg, "cards": card_text(order)})
            else:
                cards = sorted(s.shown + tuple(c for p in s.players for c in p.down))
                order = outcome or (self.legcards.shuffle(s.leg, cards) if self.legcards else self._order(cards))
                self.state = shuffle(s, order)
                self.record.append({"type": "shuffle", "leg": s.leg, "deck": card_text(order)})
            if outcome is not None:
                return

    @property
    def finished(self) -> bool:
        return self.state.over

    def legal_actions(self) -> list[CardsAction]:
        return legal_actions(self.state)

    def play(self, action: CardsAction | str) -> dict:
        """Apply the current player's action and return its record line
        (illegal: raises, nothing changes)."""
        action = CardsAction.parse(action)
        before = self.state
        player = before.current
        self.state = apply(before, action)
        entry = {"type": "action", "turn": self.turns, "player": player, "action": str(action)}
        if action.kind == "reveal":
            entry["card"] = card_text(before.deck[:1])
        elif action.kind == "hand":
            entry["card"] = card_text([before.players[player].hand])
        entry["board"] = self.state.board()
        entry["money"] = [p.money for p in self.state.players]
        self.turns += 1
        self.record.append(entry)
        if self.finished:
            self.record.append(self.summary())
        elif self.draw:
            self.chance()
        return entry

    def summary(self) -> dict:
        """The record's end line."""
        s = self.state
        return {"type": "end", "money": [p.money for p in s.players], "winners": s.winners_of_game(),
                "legs": s.leg, "turns": self.turns, "board": s.board()}
