"""Whole games of Camel Up (``first`` and ``second``), RULES.md section 1.

:class:`Game` holds an omniscient :class:`~advisor.state.GameState` (every
pile card's colour is known to the engine) and the record of the game.  An
action is checked with :meth:`Game.can` / :meth:`Game.verify` and played with
:meth:`Game.apply`; an illegal action raises
:class:`~advisor.errors.IllegalActionError` and changes nothing.  Players see
:meth:`Game.view` (other players' pile cards face down).

Scoring (RULES.md, Money and scoring):

* after each leg: leg bet tiles pay their value / +1 / -1 for their camel
  1st / 2nd / other, pyramid tiles +1, a partner may add the reward of one of
  the other's tiles (never a negative one); each player's rewards and
  penalties are summed, then settled (money never below 0);
* landing on a spectator / desert tile pays its owner 1 coin at once;
* at game end, after the leg: the winner pile, in placement order, pays
  8, 5, 3, 2, 1, 1, ... to the correct cards and -1 to each wrong card; the
  loser pile likewise against the last camel; each player's overall payouts
  are summed, then settled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .errors import AdvisorError, IllegalActionError
from .rules.editions import GREY_DIE, get_edition
from .rules.moves import step
from .rules.position import Position, Tile
from .rules.scoring import pile_payout
from .rules.setup import setup_position
from .state import GameState, PileCard, PlayerState

__all__ = ["Roll", "Game", "race_order", "leg_rewards", "overall_rewards", "pile_payout", "RecordError",
           "replay", "boards", "write_records", "read_records", "iter_records", "check_entry"]

@dataclass(frozen=True)
class Roll:
    """A pyramid roll: the die drawn and what it shows (``colour`` "white" /
    "black" for the grey die)."""

    die: str
    value: int
    colour: str | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"die": self.die, "value": self.value}
        if self.colour is not None:
            out["colour"] = self.colour
        return out


def race_order(stacks, racing: str) -> list[str]:
    """Racing camels first to last: by space, then height in the stack
    (spaces past the track count as they are, see the rulings)."""
    key = {}
    for space, camels in stacks:
        for height, camel in enumerate(camels):
            key[camel] = (space, height)
    return sorted(racing, key=lambda c: key[c], reverse=True)


def _tile_reward(order: list[str], colour: str, value: int) -> int:
    rank = order.index(colour)
    return value if rank == 0 else 1 if rank == 1 else -1


def leg_rewards(players: tuple[PlayerState, ...], order: list[str]) -> list[int]:
    """Each player's summed leg scoring (before the money floor)."""
    own = []
    for pl in players:
        rewards = [_tile_reward(order, c, v) for c, v in pl.leg_tiles] + [1] * pl.pyramid_tiles
        own.append(rewards)
    out = []
    for i, pl in enumerate(players):
        total = sum(own[i])
        if pl.partner is not None:  # copy one of the partner's rewards, or none
            total += max([0] + own[pl.partner])
        out.append(total)
    return out


def overall_rewards(state: GameState, winner: str, loser: str) -> list[int]:
    """Each player's summed overall-pile scoring (before the money floor)."""
    out = [0] * state.n_players
    for pile, camel in ((state.winner_pile, winner), (state.loser_pile, loser)):
        correct = 0
        for card in pile:
            if card.colour == camel:
                out[card.player] += pile_payout(correct)
                correct += 1
            else:
                out[card.player] -= 1
    return out


def _settle(players: tuple[PlayerState, ...], rewards: list[int]) -> tuple[PlayerState, ...]:
    return tuple(replace(p, money=max(0, p.money + r)) for p, r in zip(players, rewards))


class Game:
    """A game in progress (mutable): the state, the record, the dice.

    Parameters: ``edition``; ``players`` (2-8 in ``first``, 3-8 in
    ``second``); ``seed`` for the setup and every roll drawn by the game;
    ``start``: the first player (default: drawn); ``position``: a start
    position instead of the setup by the rules.
    """

    def __init__(self, edition: str = "second", players: int = 4, seed: int | None = None, *,
                 start: int | None = None, position: Position | str | None = None):
        from .montecarlo import resolve_seed

        ed = get_edition(edition)
        problem = ed.players_problem(players)
        if problem:
            raise IllegalActionError(problem)
        self.seed = resolve_seed(seed)
        self.rng = np.random.default_rng(self.seed)
        board = setup_position(ed.name, self.rng) if position is None else position
        if start is None:
            start = int(self.rng.integers(players))
        hands = tuple(PlayerState(overall_cards=ed.racing) for _ in range(players))
        self.state = GameState(board, hands, start)
        if self.state.position.rules is not ed:
            raise IllegalActionError(f"the start position is not a {ed.name} edition position")
        self.final_stacks: tuple[tuple[int, str], ...] | None = None
        self.winner_camel: str | None = None
        self.loser_camel: str | None = None
        self.legs = 1
        self.turns = 0
        self.record: list[dict] = [{
            "type": "setup", "edition": ed.name, "players": players, "seed": self.seed,
            "board": str(self.state.position), "start": start,
        }]

    # ------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        return self.final_stacks is not None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_actions(self) -> list[str]:
        """The legal actions of the player to move (none once finished)."""
        from .ev import legal_actions

        return [] if self.finished else legal_actions(self.state, self.to_move)

    def can(self, action: str) -> bool:
        return action in self.legal_actions()

    def verify(self, action: str) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        if self.finished:
            raise IllegalActionError("the game is over")
        if not self.can(action):
            raise IllegalActionError(
                f"{action!r} is not legal for player {self.to_move} now (legal: {', '.join(self.legal_actions())})"
            )

    def view(self, player: int) -> GameState:
        """What ``player`` may see: their own overall cards (in hand and on
        the piles, with colours); of every other player only how many
        overall cards they still hold (a hidden hand, see
        :mod:`advisor.state`) and their pile cards face down.  Everything
        else of the state (board, money, leg and pyramid tiles, partners) is
        public."""
        st = self.state
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < st.n_players:
            raise IllegalActionError(f"player must be 0..{st.n_players - 1}, not {player!r}")
        player = int(player)
        hide = lambda pile: tuple(c if c.player == player else PileCard(c.player) for c in pile)  # noqa: E731
        players = tuple(pl if i == player else replace(pl, overall_cards=len(pl.overall_cards))
                        for i, pl in enumerate(st.players))
        return GameState(st.position, players, st.to_move, hide(st.winner_pile), hide(st.loser_pile))

    def money(self) -> list[int]:
        return [p.money for p in self.state.players]

    def winners(self) -> list[int]:
        """The richest players (all of them on a tie)."""
        money = self.money()
        return [i for i, m in enumerate(money) if m == max(money)]

    # ------------------------------------------------------------ actions
    def draw_roll(self, rng: np.random.Generator | None = None) -> Roll:
        """Draw a die from the pyramid and roll it, with the game's dice (or
        with ``rng``, a random source the caller keeps: e.g. one derived from
        the game so far, so that a replayed game draws the same roll)."""
        rng = self.rng if rng is None else rng
        dice = self.state.position.dice
        die = dice[int(rng.integers(len(dice)))]
        face = int(rng.integers(6))
        if die == GREY_DIE:
            return Roll(die, face % 3 + 1, ("white", "black")[face // 3])
        return Roll(die, face // 2 + 1)

    def apply(self, action: str, roll: Roll | None = None) -> dict:
        """Play ``action`` for the player to move and return its record entry.

        For ``pyramid`` the roll is drawn with the game's dice unless given
        (replays give it).  Illegal actions raise and change nothing."""
        self.verify(action)
        if roll is not None and action != "pyramid":
            raise IllegalActionError("only the pyramid action takes a roll")
        if roll is not None and (not isinstance(roll.die, str) or len(roll.die) != 1):
            raise IllegalActionError(f"a roll names one die, not {roll.die!r}")
        player = self.to_move
        st = self.state
        kind, _, arg = action.partition(":")
        entry: dict[str, Any] = {"type": "action", "turn": self.turns, "player": player, "action": action}
        if kind == "pyramid":
            roll = roll or self.draw_roll()
            if roll.die not in st.position.dice:
                raise IllegalActionError(f"die {roll.die!r} is not in the pyramid ({st.position.dice})")
            entry["roll"] = roll.to_json()
            self._roll(player, roll, entry)
        else:
            players = list(st.players)
            me = players[player]
            pos = st.position
            piles = {"winner": st.winner_pile, "loser": st.loser_pile}
            if kind == "leg":
                c = pos.racing.index(arg)
                value = pos.legtiles[c][0]
                legtiles = {col: (stack[1:] if i == c else stack) for i, (col, stack) in
                            enumerate(zip(pos.racing, pos.legtiles))}
                pos = replace(pos, legtiles=legtiles)
                players[player] = replace(me, leg_tiles=me.leg_tiles + ((arg, value),))
            elif kind == "tile":
                tiles = [t for t in pos.tiles if t.owner != player] + [Tile(int(arg[1:]), arg[0], player)]
                pos = replace(pos, tiles=tuple(tiles))
            elif kind in ("winner", "loser"):
                piles[kind] = piles[kind] + (PileCard(player, arg),)
                players[player] = replace(me, overall_cards=me.overall_cards.replace(arg, ""))
            else:  # partner
                other = int(arg)
                players[player] = replace(me, partner=other)
                players[other] = replace(players[other], partner=player)
            self.state = GameState(pos, tuple(players), (player + 1) % st.n_players,
                                   piles["winner"], piles["loser"])
        self.turns += 1
        entry["board"] = self.board()  # after the action: replays check it
        self.record.append(entry)
        if self.finished:
            self.record.append(self.summary())
        return entry

    def _roll(self, player: int, roll: Roll, entry: dict) -> None:
        st = self.state
        pos = st.position
        ed = pos.rules
        players = list(st.players)
        players[player] = replace(players[player], pyramid_tiles=players[player].pyramid_tiles + 1)
        result = step(pos, roll.die, roll.value, roll.colour)
        if result.landed is not None:
            owner = pos.tile_at(result.landed).owner
            if owner is not None:  # the owner earns a coin at once
                players[owner] = replace(players[owner], money=players[owner].money + 1)
            entry["landed"] = result.landed
        players = tuple(players)
        dice = pos.dice.replace(roll.die, "")
        if result.race_over:
            # the leg is scored as if it had ended, then the overall piles
            order = race_order(result.stacks, ed.racing)
            after_leg = _settle(players, leg_rewards(players, order))
            players_end = _settle(after_leg, overall_rewards(st, order[0], order[-1]))
            self.final_stacks = result.stacks
            self.winner_camel, self.loser_camel = order[0], order[-1]
            # the board stays as before the last roll (the final stacks lie
            # beyond the track); the leg's holdings are spent
            self.state = replace(st, players=tuple(replace(p, leg_tiles=(), pyramid_tiles=0, partner=None)
                                                   for p in players_end))
            entry["race_over"] = True
            return
        if len(dice) == ed.dice_left:  # the leg ends: score it and reset
            order = race_order(result.stacks, ed.racing)
            settled = _settle(players, leg_rewards(players, order))
            reset = tuple(replace(p, leg_tiles=(), pyramid_tiles=0, partner=None) for p in settled)
            board = Position(ed.name, result.stacks)
            # the player left of the one who rolled the last die starts
            self.state = GameState(board, reset, (player + 1) % st.n_players, st.winner_pile, st.loser_pile)
            self.legs += 1
            entry["leg_over"] = True
            return
        board = replace(pos, stacks=result.stacks, dice=dice)
        self.state = GameState(board, players, (player + 1) % st.n_players, st.winner_pile, st.loser_pile)

    # ------------------------------------------------------------ record
    def summary(self) -> dict:
        """The record's end line (the game must be over)."""
        if not self.finished:
            raise IllegalActionError("the game is not over")
        return {
            "type": "end", "money": self.money(), "winners": self.winners(),
            "winner_camel": self.winner_camel, "loser_camel": self.loser_camel,
            "legs": self.legs, "turns": self.turns, "final_board": self.board(),
        }

    def boards(self) -> list[str]:
        """The board string before every turn so far, and the current one."""
        return [self.record[0]["board"]] + [e["board"] for e in self.record[1:] if e.get("type") == "action"]

    def board(self) -> str:
        """The current board string; once the race is over, the final stacks
        (spaces beyond the track as they are, see the rulings)."""
        if self.finished:
            ed = self.state.position.rules
            edition = [] if ed.name == "second" else [ed.name]
            return " ".join(edition + [f"{s}:{c}" for s, c in self.final_stacks])
        return str(self.state.position)


# --------------------------------------------------------------------------
# Records: JSON lines, replay
# --------------------------------------------------------------------------


class RecordError(AdvisorError):
    """A game record (or a file of them) that is malformed or does not
    replay; the message names the file and line when there is one."""


_ENTRY_TYPES = ("setup", "action")  # and "end", compared whole with the replay


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_entry(entry: object) -> str | None:
    """Why ``entry`` is not a well-formed line of a game record (its keys
    and their types; whether it replays is :func:`replay`'s question), or
    ``None``."""
    from .rules.editions import EDITIONS

    if not isinstance(entry, dict):
        return f"a record line is a JSON object, not {type(entry).__name__}"
    kind = entry.get("type")
    if kind == "end":
        return None  # compared whole with the replay's summary
    if kind not in _ENTRY_TYPES:
        return "the 'type' of a record line is 'setup', 'action' or 'end'"
    # Keys a line does not know are passed over: the record format is
    # extended by adding keys (newer writers), never by changing these.
    if kind == "setup":
        if entry.get("edition") not in EDITIONS:
            return f"'edition' must be one of {', '.join(EDITIONS)}"
        for key in ("players", "seed", "start"):
            if not _int(entry.get(key)) or entry[key] < 0:
                return f"'{key}' must be a whole number >= 0"
        if not isinstance(entry.get("board"), str):
            return "'board' must be a board string"
        for key in ("bots", "seats"):
            names = entry.get(key, [])
            if not isinstance(names, list) or not all(isinstance(b, str) for b in names):
                return f"'{key}' must be a list of names"
        return None
    if not _int(entry.get("player")) or entry["player"] < 0:
        return "'player' must be a whole number >= 0"
    if not isinstance(entry.get("action"), str):
        return "'action' must be an action such as 'leg:B' or 'pyramid'"
    if "turn" in entry and not _int(entry["turn"]):
        return "'turn' must be a whole number"
    if "board" in entry and not isinstance(entry["board"], str):
        return "'board' must be a board string"
    if "roll" in entry:
        roll = entry["roll"]
        if (not isinstance(roll, dict) or set(roll) - {"die", "value", "colour"}
                or not isinstance(roll.get("die"), str) or len(roll["die"]) != 1 or not _int(roll.get("value"))
                or not isinstance(roll.get("colour", ""), str)):
            return "'roll' must be {\"die\": D, \"value\": V} (and \"colour\" for the grey die)"
    return None


def replay(record: list[dict], upto: int | None = None) -> Game:
    """The game of ``record`` replayed to turn ``upto`` (default: the end).

    Every action is checked again as it is replayed; a malformed record or
    one that does not replay to its own lines (boards, end line) raises
    :class:`RecordError`; an illegal action :class:`IllegalActionError`."""
    if not isinstance(record, list) or not record or not isinstance(record[0], dict) \
            or record[0].get("type") != "setup":
        raise RecordError("a game record starts with its setup line")
    for k, entry in enumerate(record):
        problem = check_entry(entry)
        if problem:
            raise RecordError(f"line {k + 1} of the game: {problem}")
        if k and entry.get("type") == "setup":
            raise RecordError(f"line {k + 1} of the game: a second setup line")
    try:
        return _replay(record, upto)
    except ValueError as exc:
        if isinstance(exc, AdvisorError):
            raise
        raise RecordError(str(exc)) from None


def _replay(record: list[dict], upto: int | None) -> Game:
    setup = record[0]
    game = Game(setup["edition"], setup["players"], setup["seed"], start=setup["start"], position=setup["board"])
    game.record[0] = dict(setup)
    for entry in record[1:]:
        if entry.get("type") == "end":
            if upto is None and not game.finished:
                raise ValueError(f"the record's end line comes after turn {game.turns}, but the game is not over")
            if upto is None and entry != game.summary():
                summary = game.summary()
                key = next(k for k in sorted(set(entry) | set(summary), key=str) if entry.get(k) != summary.get(k))
                raise ValueError(f"the record's end line does not match the replay: {str(key)[:40]!r} is "
                                 f"{str(entry.get(key))[:80]}, the replay gives {summary.get(key)}")
            break
        if upto is not None and game.turns >= upto:
            break
        roll = Roll(**entry["roll"]) if "roll" in entry else None
        if entry["player"] != game.to_move:
            raise ValueError(f"turn {game.turns}: player {str(entry['player'])[:20]} is not to move")
        turn = game.turns
        done = game.apply(entry["action"], roll)
        if "board" in entry and entry["board"] != done["board"]:
            raise ValueError(f"turn {turn}: the record's board {entry['board'][:200]!r} does not match "
                             f"the replay's {done['board']!r}")
    return game


def boards(record: list[dict]) -> list[str]:
    """The board string before every turn of the game, and at its end
    (the record is replayed and checked)."""
    return replay(record).boards()


def write_records(games: list[list[dict]], path) -> None:
    """Write game records as JSON lines (one line per setup, action, end).
    The file appears only when complete (written beside, then renamed)."""
    from .files import atomic_output
    from .jsonio import dumps

    with atomic_output(path, "game records") as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for record in games:
            for entry in record:
                fh.write(dumps(entry) + "\n")


def read_records(path) -> list[list[dict]]:
    """Read the games of a JSON lines file written by :func:`write_records`
    (see :func:`iter_records`)."""
    return [record for _, record in iter_records(path)]


def iter_records(path):
    """Yield ``(line, record)`` for each game of a JSON lines file, ``line``
    being the number of its setup line; one game in memory at a time.  A
    file that cannot be read, a line that is not JSON or not a record line
    (see :func:`check_entry`), or lines before the first setup line raise
    :class:`RecordError` naming the file and line."""
    from .jsonio import MAX_BYTES, loads

    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise RecordError(f"game records {path}: no such file") from None
    except OSError as exc:
        raise RecordError(f"game records {path}: cannot read ({exc.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise RecordError(f"game records {path!r}: not a valid file name") from None
    with fh:
        record: list[dict] = []
        start = 0
        n = 0
        while True:
            try:
                line = fh.readline(MAX_BYTES + 1)
            except OSError as exc:  # e.g. a folder
                raise RecordError(f"game records {path}: cannot read ({exc.strerror})") from None
            if not line:
                break
            n += 1
            if len(line) > MAX_BYTES:
                raise RecordError(f"{path}:{n}: a line longer than {MAX_BYTES:,} bytes")
            if not line.strip():
                continue
            try:
                entry = loads(line, f"{path}:{n}")
            except AdvisorError as exc:
                raise RecordError(str(exc)) from None
            is_setup = isinstance(entry, dict) and entry.get("type") == "setup"
            problem = check_entry(entry)
            if not record and not is_setup and isinstance(entry, dict):
                problem = "a game record starts with its setup line"
            if problem:
                raise RecordError(f"{path}:{n}: {problem}")
            if is_setup:
                if record:  # a game without its end line
                    yield start, record
                record, start = [], n
            record.append(entry)
            if entry.get("type") == "end":  # complete: nothing after it need be read
                yield start, record
                record = []
        if record:
            yield start, record
