"""Validation of the API's request bodies, in the server's own process.

Positions and game states are read by the reader the command line uses
(:mod:`advisor.inputs`: which input a board string is, and the input read),
so the API accepts exactly what the command line accepts and answers with
the same one-line messages.  The other fields are checked here; each error
names the field.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from advisor import inputs as reader
from advisor._tools.jsonio import DuplicateKey, check_depth, no_duplicates
from advisor.cards import parse_cards
from advisor.cards.position import CAMELS as CARD_CAMELS, LEG_STACK, MAX_MONEY, MONEY_FLOOR
from advisor.cards.rival import holdings_position, rival_player
from advisor.errors import AdvisorError, PositionError
from advisor.odds.montecarlo import resolve_seed
from advisor.present.jsonout import board_assumptions
from advisor.rules.position import Position, Tile
from advisor.rules.state import GameState
from advisor.web.cardsgame import SEATS_TEXT

__all__ = ["InputError", "Subject", "parse_body", "subject", "options", "FIELDS", "MIN_PRECISION",
           "position_from_json", "cards_from_json"]

#: The finest race-odds precision the API computes (finer takes minutes:
#: the command line offers it).
MIN_PRECISION = 0.001
#: Nesting of a request's JSON beyond this is refused.
MAX_DEPTH = 32
#: The highest leg number a Camel Up Cards request may give (a race lasts a handful of legs).
MAX_LEG = 99

#: Fields each endpoint accepts (the OpenAPI document lists the same).
FIELDS: dict[str, dict[str, str]] = {}

_SUBJECT = {
    "board": "board string (first/second edition, or Camel Up Cards with the token 'cards')",
    "state": "game state object, as `camelup best GAME.json` reads it (board games)",
    "players": "players for a bare board string (default 4)",
    "player": "the advised player (default: the player to move)",
}
_ODDS = {"precision": "race odds: 95% half-width to reach (default 0.002, at least 0.001)",
         "seed": "seed of every sampled figure (default: drawn and reported)",
         "others": "Camel Up Cards: the other players' race actions: random (a random race action in this leg and "
                   "later legs; the default of the advice), later (this leg: the deck alone; the default of the odds) "
                   "or reveal (they only reveal)"}
_STEP = {"step": "Camel Up Cards: the part of the turn still to play: turn (default: race action and optional bet), "
                 "race (the bet is taken: race actions alone), bet (the race action is done: a bet or pass)"}
_GAME = {"rivals": "Camel Up Cards: the other players' money and bets, one object per other player in turn order "
                   "after the advised player: [{\"money\": N, \"bets\": [\"B5\", \"mG\", \"wY\", \"lB\"]}] (bets as "
                   "the board string's bets: token; default: each with the start money and no bets, which the "
                   "advice lists in assumptions); they enter the chance of winning",
         "leg": f"Camel Up Cards: the leg being played, 1..{MAX_LEG} (default 1, listed in assumptions): the "
                "chance of winning counts the legs still to come"}
FIELDS["/api/odds"] = {**_SUBJECT, **_ODDS, "leg_only": "leg odds only (default false)"}
FIELDS["/api/best"] = {**_SUBJECT, **_ODDS, **_STEP, **_GAME, "denial": "compute the denial column (default true)",
                       "objective": "what the advice ranks by: win (the chance of winning the game, default) or ev (expected coins)"}
FIELDS["/api/analyse"] = {**_SUBJECT, **_ODDS, **_STEP, **_GAME, "denial": "compute the denial column (default true)",
                          "race": "also the race odds (default true)",
                          "advice": "also the advice (default true)",
                          "objective": "what the advice ranks by: win (the chance of winning the game, default) or ev (expected coins)"}
FIELDS["/api/position"] = {"board": "a board string to read", "position": "a position object to write"}
FIELDS["/api/state"] = {"state": "a game state object"}
FIELDS["/api/curve"] = {"boards": "board strings of one game (at most 400): board-game boards, or Camel Up Cards "
                                  "positions (the spectator's positions of a game view's curve_boards)",
                        "precision": "race odds precision (default 0.01)", "seed": "seed (default 0)"}
FIELDS["/api/game/new"] = {"edition": "second (default), first or cards (Camel Up Cards)",
                           "players": "players (default 4; Camel Up Cards: 2..6, default as many as seats)",
                           "seed": "seed of the set-up and of random rolls, deals and shuffles (default: drawn)",
                           "start": "the first player (default: drawn; board games)",
                           "board": "a start position instead of the set-up by the rules (board games)",
                           "seats": f"Camel Up Cards: one per player, {SEATS_TEXT}, "
                                    "at least one human (default: human, heuristic, greedy, random...)",
                           "track": "Camel Up Cards: the track cards after the start card, n/s/h (default: the "
                                    "default track for the players)"}
_INFER = {"infer": "board games: infer other players' face-down cards in `advised` from the game's history "
                   "(default true; false: the race odds)"}
FIELDS["/api/game/replay"] = {"record": "a game record: the list of its JSON-lines entries", **_INFER}
FIELDS["/api/game/act"] = {"record": "the game record so far",
                           "action": "the action of the player to move (Camel Up Cards: reveal, hand, palm:N, "
                                     "fennec:N, leg:C, mid:C, winner:C, loser:C, pass, build:H/S/D/X)",
                           "roll": "for pyramid: {die, value, colour} (colour for the grey die)",
                           "random": "for pyramid: draw the roll at random (default false)",
                           "reveals": "face-down cards of unseen colour turned over first: [{pile, index, colour}] "
                                      "(asked for by reveal_needed when a roll ends the race)", **_INFER}
FIELDS["/api/game/load"] = {"text": "the text of a JSON-lines file of game records",
                            "game": "which game of the file (default 0)", **_INFER}


class InputError(AdvisorError):
    """A request field that is missing, of the wrong type or out of range."""


def _no_constant(name: str):
    raise InputError(f"the request body is not strict JSON ({name} is not a number)")


def parse_body(raw: bytes, path: str) -> dict:
    """The request's JSON object, its fields checked against ``FIELDS``."""
    if not raw.strip():
        raise InputError("the request body is empty: send a JSON object")
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark, as every reader takes it
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    try:
        body = json.loads(text, parse_constant=_no_constant, object_pairs_hook=no_duplicates)
    except DuplicateKey as exc:
        raise InputError(f"the request body gives the key {str(exc)!r:.60} twice (give each key once)") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"the request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"the request body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise InputError(f"the request body is not usable JSON: {exc}") from None
    if not isinstance(body, dict):
        raise InputError("the request body must be a JSON object")
    try:
        check_depth(body, "the request body", MAX_DEPTH)
    except AdvisorError:
        raise InputError(f"the request body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    allowed = FIELDS[path]
    for key in body:
        if key not in allowed:
            raise InputError(f"unknown field {key!r} (expected some of {', '.join(allowed)})")
    return body


# --------------------------------------------------------------------------
# Plain fields
# --------------------------------------------------------------------------


def get_int(body: dict, name: str, default=None, low: int | None = None, high: int | None = None):
    value = body.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name}: expected a whole number, got {json.dumps(value)[:40]}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise InputError(f"{name}: must be {span}, got {value}")
    return value


def get_bool(body: dict, name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise InputError(f"{name}: expected true or false, got {json.dumps(value)[:40]}")
    return value


def get_str(body: dict, name: str, default=None, *, choices: tuple[str, ...] | None = None,
            max_len: int = 10_000):
    value = body.get(name, default)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name}: expected a string, got {json.dumps(value)[:40]}")
    if len(value) > max_len:
        raise InputError(f"{name}: longer than {max_len} characters")
    if choices is not None and value not in choices:
        raise InputError(f"{name}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def get_precision(body: dict, default: float = 0.002) -> float:
    value = body.get("precision", default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"precision: expected a number such as 0.002, got {json.dumps(value)[:40]}")
    if not MIN_PRECISION <= value < 1:
        raise InputError(f"precision: must be at least {MIN_PRECISION} and below 1, got {value}")
    return float(value)


def get_seed(body: dict, default: int | None = None) -> int:
    value = body.get("seed", default)
    if isinstance(value, str) and value.isdigit() and len(value) < 40:
        value = int(value)  # the page carries seeds as strings (beyond 2**53 a JSON number is not exact)
    try:
        return resolve_seed(value)
    except AdvisorError:
        raise InputError(f"seed: must be a whole number 0..2**63-1, got {json.dumps(value)[:40]}") from None


# --------------------------------------------------------------------------
# What is analysed
# --------------------------------------------------------------------------


@dataclass
class Subject:
    """A validated position or game state.

    ``game``: ``second``, ``first`` or ``cards``; ``board``: the canonical
    board string; ``state``: the game state's JSON (board games);
    ``player``: the advised player; ``assumptions``: what a bare board
    string left out (as ``camelup best`` states it)."""

    game: str
    board: str
    state: dict | None = None
    player: int | None = None
    assumptions: list[str] = field(default_factory=list)


def subject(body: dict) -> Subject:
    """The position or state a request asks about (``board`` or ``state``,
    ``players``, ``player``)."""
    board = get_str(body, "board")
    raw_state = body.get("state")
    player = get_int(body, "player", low=0, high=63)
    if (board is None) == (raw_state is None):
        raise InputError("give either board (a board string) or state (a game state object)")
    if board is not None:
        kind = reader.input_kind(board)
        if kind == "cards":
            for name in ("players", "player"):
                if name in body:
                    raise InputError(f"{name} does not apply to Camel Up Cards (the players are in the "
                                     f"board string; the advised player is player 0)")
        pos = reader.read_input(board, kind=kind).value
        if kind == "cards":
            return Subject("cards", str(pos))
        players = get_int(body, "players", 4, low=1, high=64)
        st = GameState.from_board(pos, players=players)
        st.check_player(player)
        return Subject(pos.rules.name, str(pos), st.to_json(), player, board_assumptions(players, player))
    if "players" in body:
        raise InputError("players applies to a bare board string, not to a game state")
    st = reader.state_from_json(raw_state)
    who = st.to_move if player is None else player
    if not (who < st.n_players and st.hand_hidden(who)):  # a hidden hand is modelled (work.hidden_hand_advice)
        st.check_player(player)
    return Subject(st.position.rules.name, str(st.position), st.to_json(), player)


def options(body: dict, sub: Subject) -> dict:
    """precision, seed and (Camel Up Cards) others."""
    others = get_str(body, "others", choices=("random", "later", "reveal"))
    if others is not None and sub.game != "cards":
        raise InputError("others applies to Camel Up Cards positions only")
    step = get_str(body, "step", choices=("turn", "race", "bet"))
    if step is not None and sub.game != "cards":
        raise InputError("step applies to Camel Up Cards positions only")
    return {"precision": get_precision(body), "seed": get_seed(body), "others": others, "step": step or "turn",
            **cards_game(body, sub)}


def cards_game(body: dict, sub: Subject) -> dict:
    """``rivals`` and ``leg`` of a Camel Up Cards request (None where not
    given): the game the chance of winning is computed in.  Each rival is
    read as the advised player's holdings are (:func:`advisor.cards.rival.rival_player`:
    money, bet tokens, the cards on offer) and no card is held twice across
    the players.  The rivals come back as ``[{"money", "bets"}]``, the bets
    in the notation's order."""
    given = [name for name in ("rivals", "leg") if body.get(name) is not None]
    if sub.game != "cards":
        if given:
            raise InputError(f"{given[0]} applies to Camel Up Cards positions only (a board game's other players "
                             "and their holdings are part of its game state: send state)")
        return {"rivals": None, "leg": None}
    leg = get_int(body, "leg", low=1, high=MAX_LEG)
    raw = body.get("rivals")
    if raw is None:
        return {"rivals": None, "leg": leg}
    pos = parse_cards(sub.board)
    if pos.spectator:
        raise InputError("rivals: a spectator's position (hands: lists every player) advises no player")
    want = pos.players - 1
    if not isinstance(raw, list) or len(raw) != want:
        got = f"{len(raw)} given" if isinstance(raw, list) else f"got {json.dumps(raw)[:40]}"
        raise InputError(f"rivals: one {{money, bets}} object per other player, {want} for {pos.players} players "
                         f"({got})")
    players = [rival(item, f"rivals[{i}]", pos) for i, item in enumerate(raw)]
    _check_held_once(pos, players)
    return {"rivals": [{"money": p.money, "bets": list(holdings_position(pos, p, {}).bets)} for p in players],
            "leg": leg}


def rival(value: Any, name: str, pos):
    """One other player (``{"money": N, "bets": [tokens]}``) in the game of
    ``pos``: a :class:`advisor.cards.game.CardsPlayer`."""
    data = _check_keys(value, name, {"money", "bets"})
    money = data.get("money")
    if isinstance(money, bool) or not isinstance(money, int):
        raise InputError(f"{name}.money: expected a whole number (the player's coins), got "
                         f"{json.dumps(money)[:40]}")
    if not MONEY_FLOOR <= money <= MAX_MONEY:
        raise InputError(f"{name}.money: must be {MONEY_FLOOR}..{MAX_MONEY} (money never drops below "
                         f"{MONEY_FLOOR}), got {money}")
    bets = data.get("bets", [])
    if (not isinstance(bets, list) or len(bets) > 32
            or not all(isinstance(b, str) and 0 < len(b) <= 4 and b.isalnum() for b in bets)):
        raise InputError(f"{name}.bets: expected a list of bet tokens such as [\"B5\", \"mG\", \"wY\", \"lB\"]")
    try:
        return rival_player(pos, money, bets)
    except PositionError as exc:
        token = (exc.token or "").removeprefix("bets:")
        reason = str(exc).split(": ", 1)[-1]
        raise InputError(f"{name}.bets: {token!r}: {reason}" if token else f"{name}.bets: {reason}") from None


def _check_held_once(pos, players: list) -> None:
    """No card held by two players: a midfield or an overall card exists once
    per colour; the leg-winner cards of a value, held and on offer, are at
    most the game's."""
    me = pos.held()
    owners = {}
    for c in me["mid"]:
        owners[f"m{c}"] = "the advised player"
    for kind in ("winner", "loser"):
        if me[kind]:
            owners[f"{kind[0]}{me[kind]}"] = "the advised player"
    count = Counter(me["leg"])
    for i, p in enumerate(players):
        name = f"rivals[{i}].bets"
        held = [f"m{c}" for c in p.mid] + [f"{k[0]}{getattr(p, k)}" for k in ("winner", "loser") if getattr(p, k)]
        for token in held:
            if token in owners:
                raise InputError(f"{name}: {token!r}: there is one such card and {owners[token]} holds it")
            owners[token] = f"rivals[{i}]"
        for card in p.leg:
            count[card] += 1
            colour, value = card
            left = pos.legtiles[CARD_CAMELS.index(colour)].count(value)
            if count[card] + left > LEG_STACK.count(value):
                raise InputError(f"{name}: '{colour}{value}': more {colour} leg-winner cards of value {value} held "
                                 f"(by every player) and on offer than the game's {LEG_STACK.count(value)}")


# --------------------------------------------------------------------------
# Positions as objects (the page's editor)
# --------------------------------------------------------------------------


def _pairs(value: Any, name: str) -> list[tuple[int, str]]:
    if not isinstance(value, list):
        raise InputError(f"{name}: expected a list of [space, camels] pairs")
    out = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2 or isinstance(item[0], bool)
                or not isinstance(item[0], int) or not isinstance(item[1], str)):
            raise InputError(f"{name}: expected [space, camels] pairs such as [2, \"YG\"], got "
                             f"{json.dumps(item)[:40]}")
        if not -100 <= item[0] <= 100:
            raise PositionError("space out of range", f"{item[0]}:{item[1]}")
        out.append((item[0], item[1]))
    return out


def _check_keys(value: Any, name: str, keys: set[str]) -> dict:
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected an object")
    extra = set(value) - keys
    if extra:
        raise InputError(f"{name}: unknown key {sorted(extra)[0]!r} (expected some of {', '.join(sorted(keys))})")
    return value


def position_from_json(value: Any):
    """A board-game :class:`advisor.Position` from the editor's object:
    ``{"game", "stacks": [[space, camels], ...], "tiles": [{"space", "sign",
    "owner"}], "dice", "legtiles": {colour: [values]}}``."""
    keys = {"game", "stacks", "tiles", "dice", "legtiles", "board"}
    data = _check_keys(value, "position", keys)
    game = data.get("game", "second")
    if game not in ("first", "second"):
        raise InputError(f"position.game: expected first or second, got {json.dumps(game)[:40]}")
    stacks = _pairs(data.get("stacks", []), "position.stacks")
    tiles = []
    raw_tiles = data.get("tiles", [])
    if not isinstance(raw_tiles, list):
        raise InputError("position.tiles: expected a list of tiles")
    for t in raw_tiles:
        t = _check_keys(t, "position.tiles[]", {"space", "sign", "owner"})
        space, sign, owner = t.get("space"), t.get("sign"), t.get("owner")
        if isinstance(space, bool) or not isinstance(space, int) or sign not in ("+", "-") or not (
                owner is None or (isinstance(owner, int) and not isinstance(owner, bool))):
            raise InputError("position.tiles[]: expected {\"space\": N, \"sign\": \"+\" or \"-\", \"owner\": P or null}")
        tiles.append(Tile(space, sign, owner))
    dice = data.get("dice")
    if dice is not None and not isinstance(dice, str):
        raise InputError("position.dice: expected the letters of the dice in the pyramid")
    legtiles = data.get("legtiles")
    if legtiles is not None:
        if not isinstance(legtiles, dict) or not all(
                isinstance(v, list) and len(v) <= 8 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
                for v in legtiles.values()):
            raise InputError("position.legtiles: expected {colour: [values top first]}")
    return Position(game, tuple(stacks), tuple(tiles), dice, legtiles)


def cards_from_json(value: Any):
    """A :class:`advisor.cards.CardsPosition` from the editor's object (the
    keys of :func:`advisor.web.work.cards_json`), read by the notation's own
    parser: the object's fields become the tokens of a board string."""
    keys = {"game", "board", "players", "track", "length", "stacks", "palm", "fennec", "deck", "decksize", "known",
            "revealed", "out", "hand", "legtiles", "mid", "winners", "losers", "bets", "money", "figure_spaces"}
    data = _check_keys(value, "position", keys)
    tokens = ["cards"] + [f"{space}:{camels}" for space, camels in _pairs(data.get("stacks", []), "position.stacks")]
    for name in ("players", "deck", "decksize", "money"):
        number = get_int(data, name, low=-1000, high=1000)
        if number is not None:
            tokens.append(f"{name}:{number}")
    for name in ("track", "known", "revealed", "out", "hand", "mid", "winners", "losers"):
        text = get_str(data, name, max_len=64)
        if text is not None and (text or name in ("mid", "winners", "losers")):
            tokens.append(f"{name}:{text}")
    for name in ("palm", "fennec"):
        fig = data.get(name)
        if fig is not None:
            fig = _check_keys(fig, f"position.{name}", {"space", "holder"})
            space = get_int(fig, "space", low=-1000, high=1000)
            holder = get_int(fig, "holder", low=0, high=1000)
            if space is None:
                raise InputError(f"position.{name}: expected {{\"space\": N, \"holder\": P or null}}")
            tokens.append(f"{name}:{space}" + ("" if holder is None else f"@{holder}"))
    legtiles = data.get("legtiles")
    if legtiles is not None:
        if not isinstance(legtiles, dict) or not all(
                isinstance(c, str) and isinstance(v, list) and len(v) <= 8
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 9 for x in v)
                for c, v in legtiles.items()):
            raise InputError("position.legtiles: expected {colour: [values top first]}")
        tokens.append("legtiles:" + ",".join(c + "".join(map(str, v)) for c, v in legtiles.items()))
    bets = data.get("bets")
    if bets is not None:
        if not isinstance(bets, list) or len(bets) > 32 or not all(isinstance(b, str) and 0 < len(b) <= 4 for b in bets):
            raise InputError("position.bets: expected a list such as [\"B5\", \"mG\", \"wY\"]")
        if bets:
            tokens.append("bets:" + ",".join(bets))
    for token in tokens:
        if len(token.split()) != 1 or "," in token.split(":", 1)[0]:
            raise InputError(f"position: {token!r} holds a space or a stray character")
    return parse_cards(" ".join(tokens))
