"""``GameState``: everything the advisor needs to value actions.

A game state is the board (a :class:`Position`, whose tiles carry their
owners as ``+N@P``) plus, per player, money, the leg bet tiles held this leg,
the pyramid tiles taken this leg, the overall cards still in hand and the
current partner; the two overall piles in placement order; the number of
players and the player to move.

JSON form (``GameState.from_json`` / ``to_json``; every key but ``board`` is
optional)::

    {
      "board": "1:B 2:YG 3:PR 14:w 15:k +5@1 dice:GPRx legtiles:B322",
      "players": [
        {"money": 3, "leg_tiles": ["B5"], "pyramid_tiles": 1,
         "overall_cards": "GPRY", "partner": null},
        {"money": 4}, {"money": 2}, {"money": 3}
      ],
      "to_move": 0,
      "winner_pile": [{"player": 2}, {"player": 0, "colour": "B"},
                      {"player": 1, "model": {"B": 0.6, "G": 0.1, "P": 0.1, "R": 0.1, "Y": 0.1}}],
      "loser_pile": [],
      "pile_model": {"winner": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}}
    }

A rule variant (a house rule) travels beside the board string as the
``rules`` key: ``{"name": "house", "money_floor": null}`` (see
:func:`advisor.rules.editions.rules_from_json`); the board is then read under
it, money may go below 0 when the variant has no money floor (and never below
its floor when it has one), and under unlimited leg bets a player may hold
any number of the extra tiles of a colour whose stack is empty.  Without it
the edition's own rules apply (and ``to_json`` writes no ``rules`` key).

Defaults: 4 players (or as many as ``players`` lists); a player not listed,
or a key left out, means money 3, no leg tiles, no pyramid tiles, all five
overall cards in hand (less those the piles show as theirs), no partner.
Pile entries are in placement order; ``colour`` is known for the advised
player's own cards (and may be given for others' if known).  ``pile_model``
overrides, per pile, the probability that an unknown card names each camel
(default: the camel's current race probability to win / to lose); a
face-down card's own ``model`` (P(it names each camel), as ``camelup best``
infers from a game's history) overrides both for that card, in the payout
of later cards and in the colours its owner may still hold.

``overall_cards`` takes three forms:

* a string of colours (``"GPRY"``): the cards in hand, known;
* a whole number (``3``): a *hidden hand*, that many cards of unknown
  colours, as another player's hand looks at the table.  Every card a player
  has is in hand or on a pile, so the number must equal the number of
  racing colours less the player's cards on the piles; the valuation models
  the colours (:func:`advisor.valuation.overall.hand_distribution`).  The advised
  player's own hand cannot be hidden;
* left out / ``null``: every colour not on a pile as theirs (a player whose
  face-down cards' colours are not given is then taken to hold every other
  colour).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from advisor.errors import AdvisorError
from advisor.rules.editions import SECOND, Edition, RulesError, rules_from_json
from advisor.rules.position import Position, as_position
from advisor._tools.tokens import shown

__all__ = ["StateError", "PlayerState", "PileCard", "GameState", "DEFAULT_PLAYERS", "DEFAULT_MONEY", "MAX_MONEY"]

DEFAULT_PLAYERS = 4
DEFAULT_MONEY = 3
#: The keys of a game state's JSON object (any other key is not the state's).
STATE_KEYS = frozenset({"board", "players", "to_move", "winner_pile", "loser_pile", "pile_model", "rules"})
MAX_MONEY = 10_000  # far above any real game's money (about 60 coins at most)
#: Under unlimited leg bets (``Edition.leg_unlimited``), the most extra tiles
#: of one colour a player may hold in one leg (far above any real leg's turns).
MAX_EXTRA_LEG_TILES = 99


def least_money(rules: Edition) -> int:
    """The least money a player may have under ``rules``: the money floor,
    or ``-MAX_MONEY`` when the variant has none."""
    return -MAX_MONEY if rules.money_floor is None else rules.money_floor


class StateError(AdvisorError):
    """A game state that is malformed or impossible; names the field."""

    def __init__(self, where: str, message: str):
        self.where = where
        # one readable line: a key from a file may hold any characters
        shown_where = where if where.isprintable() else repr(where)[1:-1]
        if len(shown_where) > 60:
            shown_where = f"{shown_where[:40]}...{shown_where[-12:]}"
        super().__init__(f"invalid game state at {shown_where}: {message}")


@dataclass(frozen=True)
class PlayerState:
    """One player's holdings.

    ``leg_tiles``: ``(colour, value)`` leg bet tiles held this leg;
    ``pyramid_tiles``: pyramid tiles taken this leg; ``overall_cards``:
    the overall cards still in hand: their colours (``str``), or how many
    they are when their colours are hidden (``int``), or ``None`` (every
    colour not on a pile as theirs); ``partner``: the player this one is
    partnered with for the rest of the leg (2nd edition, 6-8 players).
    """

    money: int = DEFAULT_MONEY
    leg_tiles: tuple[tuple[str, int], ...] = ()
    pyramid_tiles: int = 0
    overall_cards: str | int | None = None  # int: hidden hand of that many cards
    partner: int | None = None


@dataclass(frozen=True)
class PileCard:
    """A card on an overall pile: its owner and, if known, its colour;
    a face-down card may carry ``model``, ``((camel, probability), ...)``:
    P(it names each camel), in place of the pile model (e.g. inferred from
    the game's history, :mod:`advisor.bots.inference`)."""

    player: int
    colour: str | None = None
    model: tuple[tuple[str, float], ...] | None = None


@dataclass(frozen=True)
class GameState:
    """A validated game state (see the module docstring for the JSON form)."""

    position: Position
    players: tuple[PlayerState, ...] = field(default_factory=lambda: (PlayerState(),) * DEFAULT_PLAYERS)
    to_move: int = 0
    winner_pile: tuple[PileCard, ...] = ()
    loser_pile: tuple[PileCard, ...] = ()
    pile_model: Mapping[str, Mapping[str, float]] | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "position", as_position(self.position))
        except AdvisorError as exc:
            raise StateError("board", str(exc)) from None
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "winner_pile", tuple(self.winner_pile))
        object.__setattr__(self, "loser_pile", tuple(self.loser_pile))
        _check_bounds(self)
        self._validate()

    # ------------------------------------------------------------ hands
    def hand(self, player: int) -> str:
        """The overall cards ``player`` still holds: as given, else every
        colour not known to be on a pile as theirs.  (A player whose
        face-down cards' colours are unknown is then assumed to hold every
        other colour; the advice asks the advised player to give their hand.)
        A hidden hand has no colours: :class:`StateError` (see
        :meth:`hand_hidden`, :meth:`hand_size`, :meth:`hand_candidates`)."""
        given = self.players[player].overall_cards
        if _is_int(given):
            raise StateError(f"players[{player}].overall_cards",
                             f"player {player}'s {given} overall card(s) in hand are hidden")
        if given is not None:
            return given
        return self.hand_candidates(player)

    def hand_hidden(self, player: int) -> bool:
        """Whether ``player``'s hand is given as a number of cards only."""
        return _is_int(self.players[player].overall_cards)

    def hand_size(self, player: int) -> int:
        """How many overall cards ``player`` holds (hidden or not)."""
        given = self.players[player].overall_cards
        return given if _is_int(given) else len(self.hand(player))

    def hand_candidates(self, player: int) -> str:
        """The colours ``player`` may hold: a known hand itself; otherwise
        every colour not known to be on a pile as theirs."""
        given = self.players[player].overall_cards
        if isinstance(given, str):
            return given
        played = {c.colour for c in self.winner_pile + self.loser_pile if c.player == player and c.colour}
        return "".join(c for c in self.position.racing if c not in played)

    def unknown_cards(self, player: int) -> int:
        """Cards of ``player`` on the piles whose colour the state does not give."""
        return sum(1 for c in self.winner_pile + self.loser_pile if c.player == player and c.colour is None)

    # ------------------------------------------------------------ checks

    def _validate(self) -> None:
        ed = self.position.rules
        n = len(self.players)
        problem = ed.players_problem(n)
        if problem:
            raise StateError("players", problem)
        if not _is_int(self.to_move) or not 0 <= self.to_move < n:
            raise StateError("to_move", f"must be a player 0..{n - 1}")
        for tile in self.position.tiles:
            if tile.owner is not None and tile.owner >= n:
                raise StateError("board", f"tile {tile.token} belongs to player {tile.owner}, but there are {n} players")
        taken: dict[str, list[int]] = {}
        for colour, left in zip(ed.racing, self.position.legtiles):
            taken[colour] = list(ed.leg_stack[: len(ed.leg_stack) - len(left)])
        rolled = len(ed.dice) - len(self.position.dice)
        pyramid_total = 0
        for i, pl in enumerate(self.players):
            where = f"players[{i}]"
            if not isinstance(pl, PlayerState):
                raise StateError(where, "must be a PlayerState")
            if not _is_int(pl.money) or pl.money < least_money(ed):
                raise StateError(f"{where}.money", f"must be a whole number >= {least_money(ed)}, not {shown(pl.money)}")
            for colour, value in pl.leg_tiles:
                if colour not in ed.racing:
                    raise StateError(f"{where}.leg_tiles", f"unknown colour {colour!r} (racing camels: {ed.racing})")
                if value not in taken[colour] and _unlimited(ed, colour, value, self.position):
                    continue  # an extra tile of an empty stack (unlimited leg bets)
                if value not in taken[colour]:
                    raise StateError(
                        f"{where}.leg_tiles",
                        f"tile {colour}{value} is not among the {colour} tiles taken this leg "
                        f"({''.join(map(str, taken[colour])) or 'none'}; the board holds the rest)",
                    )
                taken[colour].remove(value)
            if not _is_int(pl.pyramid_tiles) or pl.pyramid_tiles < 0:
                raise StateError(f"{where}.pyramid_tiles", "must be a whole number >= 0")
            pyramid_total += pl.pyramid_tiles
            if pl.overall_cards is not None:
                cards = pl.overall_cards
                if _is_int(cards):
                    if not 0 <= cards <= len(ed.racing):
                        raise StateError(f"{where}.overall_cards",
                                         f"a hidden hand holds 0..{len(ed.racing)} cards, not {cards}")
                elif not isinstance(cards, str) or any(c not in ed.racing for c in cards) or len(set(cards)) != len(cards):
                    raise StateError(f"{where}.overall_cards", f"must be distinct racing colours from {ed.racing} "
                                                               f"or a number of hidden cards, not {shown(cards)}")
            if pl.partner is not None:
                self._check_partner(i, pl.partner, n)
        if pyramid_total > rolled:
            raise StateError("players", f"{pyramid_total} pyramid tiles taken, but only {rolled} dice rolled this leg")
        self._check_piles(n)
        self._check_model()

    def _check_partner(self, i: int, partner: int, n: int) -> None:
        ed = self.position.rules
        where = f"players[{i}].partner"
        if ed.partnership_players is None or n < ed.partnership_players:
            raise StateError(where, f"partnerships need the second edition with "
                                    f"{SECOND.partnership_players}-{SECOND.max_players} players")
        if not _is_int(partner) or not 0 <= partner < n or partner == i:
            raise StateError(where, f"must be another player 0..{n - 1}")
        if self.players[partner].partner != i:
            raise StateError(where, f"player {partner} is not partnered with player {i}")

    def _check_piles(self, n: int) -> None:
        ed = self.position.rules
        used: dict[int, list[str]] = {}
        for name, pile in (("winner_pile", self.winner_pile), ("loser_pile", self.loser_pile)):
            for k, card in enumerate(pile):
                where = f"{name}[{k}]"
                if not isinstance(card, PileCard):
                    raise StateError(where, "must be a PileCard")
                if not _is_int(card.player) or not 0 <= card.player < n:
                    raise StateError(f"{where}.player", f"must be a player 0..{n - 1}")
                if card.model is not None:
                    _check_card_model(where, card, ed.racing)
                if card.colour is not None:
                    if not isinstance(card.colour, str) or len(card.colour) != 1 or card.colour not in ed.racing:
                        raise StateError(f"{where}.colour", f"must be one racing colour of {ed.racing}, not {shown(card.colour)}")
                    if card.colour in used.get(card.player, []):
                        raise StateError(where, f"player {card.player} has only one {card.colour} card")
                    hand = self.players[card.player].overall_cards
                    if isinstance(hand, str) and card.colour in hand:
                        raise StateError(where, f"player {card.player} still holds the {card.colour} card")
                used.setdefault(card.player, []).append(card.colour or "?")
        for player, pl in enumerate(self.players):
            cards, hand = used.get(player, []), pl.overall_cards
            if _is_int(hand):
                # every card is in hand or on a pile: the count is fixed
                if hand + len(cards) != len(ed.racing):
                    raise StateError(
                        f"players[{player}].overall_cards",
                        f"{hand} hidden cards in hand plus {len(cards)} on the piles make {hand + len(cards)}; "
                        f"a player has {len(ed.racing)} overall cards (hand {len(ed.racing) - len(cards)})",
                    )
            elif len(cards) + (len(hand) if hand is not None else 0) > len(ed.racing):
                raise StateError(
                    f"players[{player}].overall_cards",
                    f"{len(cards)} cards on the piles plus {len(hand or '')} in hand exceed {len(ed.racing)}",
                )

    def _check_model(self) -> None:
        if self.pile_model is None:
            return
        racing = self.position.racing
        if not isinstance(self.pile_model, Mapping):
            raise StateError("pile_model", 'must be an object such as {"winner": {"B": 0.2, ...}}')
        for pile, probs in self.pile_model.items():
            where = f"pile_model.{pile}"
            if pile not in ("winner", "loser"):
                raise StateError("pile_model", f"piles are 'winner' and 'loser', not {shown(pile)}")
            if not isinstance(probs, Mapping) or set(probs) != set(racing):
                raise StateError(where, f"give a probability for each of {racing}")
            values = list(probs.values())
            if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0
                   for v in values) or abs(sum(values) - 1) > 1e-9:
                raise StateError(where, "probabilities must be >= 0 and sum to 1")

    # ------------------------------------------------------------ access
    @property
    def n_players(self) -> int:
        return len(self.players)

    def own_tile(self, player: int):
        """The tile ``player`` has on the track, or ``None``."""
        for tile in self.position.tiles:
            if tile.owner == player:
                return tile
        return None

    def check_player(self, player: int | None) -> int:
        """``player`` (default: the player to move), checked as the advised
        player: their hand must be known."""
        if player is None:
            player = self.to_move
        if not _is_int(player) or not 0 <= player < self.n_players:
            raise StateError("player", f"must be a player 0..{self.n_players - 1}, not {shown(player)}")
        if self.hand_hidden(player):
            raise StateError(
                f"players[{player}].overall_cards",
                f"player {player}'s hand is hidden ({self.players[player].overall_cards} cards): the advised "
                "player's overall cards must be given as colours",
            )
        if self.unknown_cards(player) and self.players[player].overall_cards is None:
            raise StateError(
                f"players[{player}].overall_cards",
                f"player {player} has {self.unknown_cards(player)} card(s) of unknown colour on the piles: "
                "give their colours on the piles or the cards still in hand",
            )
        return player

    # ------------------------------------------------------------ I/O
    @property
    def rules(self) -> Edition:
        """The rules the state is played under (its position's: the
        edition's own or a variant)."""
        return self.position.rules

    @classmethod
    def from_board(cls, board: Position | str, *, players: int = DEFAULT_PLAYERS, to_move: int = 0,
                   rules: Edition | None = None) -> "GameState":
        """Defaults for a bare board string: ``players`` players with the
        start money (3), no bets, all overall cards in hand, empty piles;
        ``rules``: a variant to read the board under."""
        if not _is_int(players):
            raise StateError("players", f"must be a whole number, not {shown(players)}")
        ed = _check_count(players, board, rules)
        try:
            board = as_position(board, rules)
        except AdvisorError as exc:
            raise StateError("board", str(exc)) from None
        return cls(board, (PlayerState(money=ed.start_money),) * players, to_move)

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> "GameState":
        """A state from a JSON object (or its text)."""
        if isinstance(data, (str, bytes)):
            from advisor._tools.jsonio import loads  # lazy: keeps json out of `import advisor`

            try:
                data = loads(data)
            except AdvisorError as exc:
                raise StateError("(file)", str(exc)) from None
        if not isinstance(data, Mapping):
            raise StateError("(top)", "must be a JSON object")
        known = STATE_KEYS
        extra = set(data) - known
        if extra:
            raise StateError(sorted(extra)[0], f"unknown key (expected some of {', '.join(sorted(known))})")
        if "board" not in data:
            raise StateError("board", "missing: the board string is required")
        if not isinstance(data["board"], str):
            raise StateError("board", "must be a board string")
        rules = _rules_from_json(data)
        try:
            board = as_position(data["board"], rules)
        except AdvisorError as exc:
            raise StateError("board", str(exc)) from None
        start = board.rules.start_money
        raw_players = data.get("players", DEFAULT_PLAYERS)
        if _is_int(raw_players):
            _check_count(raw_players, board)
            players = [PlayerState(money=start)] * raw_players
        elif isinstance(raw_players, list):
            _check_count(len(raw_players), board)
            players = [_player_from_json(i, p, start) for i, p in enumerate(raw_players)]
        else:
            raise StateError("players", "must be a list of players or a player count")
        piles = {name: _pile_from_json(name, data.get(name, [])) for name in ("winner_pile", "loser_pile")}
        state = cls(board, tuple(players), data.get("to_move", 0), pile_model=data.get("pile_model"), **piles)
        # the holdings are checked against the board when they are given: a
        # table that lists no player's leg tiles (a bare board, the page's
        # players) takes the board's legtiles as they are
        if isinstance(raw_players, list) and any(isinstance(p, dict) and p.get("leg_tiles") for p in raw_players):
            state._check_tiles_held()
        return state

    def _check_tiles_held(self) -> None:
        """Every leg tile the board shows taken is held by a player (the
        players' tiles were checked to be among the taken ones): a tile is
        in a player's hand until the leg ends."""
        ed = self.position.rules
        for colour, left in zip(ed.racing, self.position.legtiles):
            taken = list(ed.leg_stack[: len(ed.leg_stack) - len(left)])
            for pl in self.players:
                for c, value in pl.leg_tiles:
                    if c == colour and value in taken:
                        taken.remove(value)
            if taken:
                held = len(ed.leg_stack) - len(left) - len(taken)
                raise StateError("players[].leg_tiles",
                                 f"the board shows {len(ed.leg_stack) - len(left)} {colour} leg tile(s) taken "
                                 f"({''.join(map(str, ed.leg_stack[:len(ed.leg_stack) - len(left)]))}), but the "
                                 f"players hold {held}: give {colour}{''.join(map(str, taken))} to the players "
                                 f"who took them, or show them on the board's legtiles")

    @classmethod
    def load(cls, path: str | Path) -> "GameState":
        """A state from a JSON file (at most :data:`advisor._tools.jsonio.MAX_BYTES`)."""
        from advisor._tools.jsonio import MAX_BYTES, loads  # lazy: keeps json out of `import advisor`

        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)  # never more than the bound into memory
        except OSError as exc:
            raise StateError("(file)", f"cannot read {path}: {exc.strerror}") from None
        except ValueError:  # a NUL character in the name
            raise StateError("(file)", f"{path!r} is not a valid file name") from None
        try:
            return cls.from_json(loads(data, str(path)))
        except StateError:
            raise
        except AdvisorError as exc:
            raise StateError("(file)", str(exc)) from None

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "board": str(self.position),
            "players": [
                {
                    "money": p.money,
                    "leg_tiles": [f"{c}{v}" for c, v in p.leg_tiles],
                    "pyramid_tiles": p.pyramid_tiles,
                    "overall_cards": p.overall_cards,
                    "partner": p.partner,
                }
                for p in self.players
            ],
            "to_move": self.to_move,
            "winner_pile": [_card_json(c) for c in self.winner_pile],
            "loser_pile": [_card_json(c) for c in self.loser_pile],
        }
        if self.pile_model is not None:
            out["pile_model"] = {k: dict(v) for k, v in self.pile_model.items()}
        rules = self.position.rules.rules_json()
        if rules is not None:
            out["rules"] = rules
        return out


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_count(players: int, board: object, rules: Edition | None = None) -> Edition:
    """A player count from a file or an argument, checked against the
    board's edition before any list of players is built; returns the rules."""
    try:
        ed = as_position(board, rules).rules
    except AdvisorError as exc:
        raise StateError("board", str(exc)) from None
    problem = ed.players_problem(players)
    if problem:
        raise StateError("players", problem)
    return ed


def _rules_from_json(data: Mapping[str, Any]) -> Edition | None:
    """The variant of a state's ``rules`` key (``None``: the edition's own
    rules), for the edition its board string names."""
    raw = data.get("rules")
    if raw is None:
        return None
    edition = "first" if "first" in str(data["board"]).split() else "second"
    try:
        return rules_from_json(edition, raw)
    except RulesError as exc:
        raise StateError("rules" if exc.key == "rules" else f"rules.{exc.key}", exc.detail) from None


def _unlimited(ed: Edition, colour: str, value: int, position: Position) -> bool:
    """Whether a held leg tile ``colour``/``value`` can be one of the extra
    tiles of unlimited leg bets (the colour's stack is empty)."""
    left = position.legtiles[ed.racing.index(colour)]
    return ed.leg_unlimited is not None and value == ed.leg_unlimited and not left


def _check_bounds(state: "GameState") -> None:
    """The sizes and ranges of every field, before the rules are checked:
    nothing later may overflow, allocate without bound or fail on a type."""
    ed = state.position.rules
    n = len(state.players)
    for i, pl in enumerate(state.players):
        where = f"players[{i}]"
        if not isinstance(pl, PlayerState):
            continue  # named by the rules' checks
        if _is_int(pl.money) and not least_money(ed) <= pl.money <= MAX_MONEY:
            raise StateError(f"{where}.money", f"must be {least_money(ed)}..{MAX_MONEY:,} coins, "
                                               f"not {shown(pl.money)}")
        if _is_int(pl.pyramid_tiles) and pl.pyramid_tiles > len(ed.dice):
            raise StateError(f"{where}.pyramid_tiles",
                             f"must be 0..{len(ed.dice)} (the dice of one leg), not {shown(pl.pyramid_tiles)}")
        tiles = pl.leg_tiles
        if not isinstance(tiles, tuple) or any(not isinstance(t, tuple) or len(t) != 2 or not isinstance(t[0], str)
                                               or not _is_int(t[1]) for t in tiles):
            raise StateError(f"{where}.leg_tiles", f"must be (colour, value) pairs, not {tiles!r:.80}")
        most = len(ed.racing) * (len(ed.leg_stack) + (0 if ed.leg_unlimited is None else MAX_EXTRA_LEG_TILES))
        if len(tiles) > most:
            raise StateError(f"{where}.leg_tiles", f"{len(tiles):,} tiles, but the game has {most}")
    for name in ("winner_pile", "loser_pile"):
        pile = getattr(state, name)
        if len(pile) > n * len(ed.racing):
            raise StateError(name, f"{len(pile):,} cards, but {n} players hold {n * len(ed.racing)} in all")
    if isinstance(state.pile_model, Mapping):
        for pile, probs in state.pile_model.items():
            if isinstance(probs, Mapping):
                for camel, p in probs.items():
                    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
                        raise StateError(f"pile_model.{pile}", "probabilities must be >= 0 and sum to 1, "
                                                               f"not {camel}: {shown(p)}")


def _card_json(card: PileCard) -> dict:
    out: dict[str, Any] = {"player": card.player}
    if card.colour is not None:
        out["colour"] = card.colour
    if card.model is not None:
        out["model"] = dict(card.model)
    return out


def _check_card_model(where: str, card: PileCard, racing: str) -> None:
    """A face-down card's ``model``: a probability per racing camel, >= 0,
    summing to 1; a card whose colour is known has none."""
    if card.colour is not None:
        raise StateError(f"{where}.model", "a card whose colour is given has no model")
    model = card.model
    if not isinstance(model, tuple) or any(not isinstance(e, tuple) or len(e) != 2 for e in model) \
            or sorted(c for c, _ in model) != sorted(racing):
        raise StateError(f"{where}.model", f"give a probability for each of {racing}")
    values = [p for _, p in model]
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not 0 <= v <= 1
           for v in values) or abs(sum(values) - 1) > 1e-6:
        raise StateError(f"{where}.model", "probabilities must be >= 0 and sum to 1")


def _player_from_json(i: int, raw: object, start_money: int = DEFAULT_MONEY) -> PlayerState:
    where = f"players[{i}]"
    if not isinstance(raw, Mapping):
        raise StateError(where, "must be an object")
    known = {"money", "leg_tiles", "pyramid_tiles", "overall_cards", "partner"}
    extra = set(raw) - known
    if extra:
        raise StateError(f"{where}.{sorted(extra)[0]}", f"unknown key (expected some of {', '.join(sorted(known))})")
    tiles = raw.get("leg_tiles", [])
    if not isinstance(tiles, list):
        raise StateError(f"{where}.leg_tiles", "must be a list such as [\"B5\", \"G3\"]")
    parsed = []
    for t in tiles:
        if not isinstance(t, str) or len(t) != 2 or t[1] not in "0123456789":
            raise StateError(f"{where}.leg_tiles", f"{shown(t)} is not a tile such as \"B5\"")
        parsed.append((t[0], int(t[1])))
    return PlayerState(
        money=raw.get("money", start_money),
        leg_tiles=tuple(parsed),
        pyramid_tiles=raw.get("pyramid_tiles", 0),
        overall_cards=raw.get("overall_cards"),
        partner=raw.get("partner"),
    )


def _pile_from_json(name: str, raw: object) -> tuple[PileCard, ...]:
    if not isinstance(raw, list):
        raise StateError(name, "must be a list of cards in placement order")
    cards = []
    for k, entry in enumerate(raw):
        if not isinstance(entry, Mapping) or "player" not in entry or set(entry) - {"player", "colour", "model"}:
            raise StateError(f"{name}[{k}]", 'must be {"player": P}, {"player": P, "colour": C} or '
                                             '{"player": P, "model": {C: p, ...}}')
        model = entry.get("model")
        if model is not None:
            if not isinstance(model, Mapping) or len(model) > 16:
                raise StateError(f"{name}[{k}].model", 'must be an object such as {"B": 0.6, "G": 0.1, ...}')
            model = tuple((str(c), p) for c, p in model.items())
        cards.append(PileCard(entry["player"], entry.get("colour"), model))
    return tuple(cards)
