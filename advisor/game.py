"""Whole games of Camel Up (``first`` and ``second``), docs/rules.md (board games).

:class:`Game` holds an omniscient :class:`~advisor.rules.state.GameState` (every
pile card's colour is known to the engine) and the record of the game.  An
action is checked with :meth:`Game.can` / :meth:`Game.verify` and played with
:meth:`Game.apply`; an illegal action raises
:class:`~advisor.errors.IllegalActionError` and changes nothing.  Players see
:meth:`Game.view` (other players' pile cards face down).

Scoring (docs/rules.md, Money and scoring):

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

from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Callable, Iterator

import numpy as np

from advisor._tools.files import atomic_output
from advisor.errors import AdvisorError, IllegalActionError
from advisor.rules import scoring
from advisor.rules.actions import Action, Roll
from advisor.rules.turn import UnrevealedCards, check_action, is_legal, legal_actions, play_checked
from advisor.rules.turn import reveal as reveal_card
from advisor.rules.editions import EDITIONS, Edition, RulesError, get_edition, rules_from_json
from advisor.rules.position import Position
from advisor.rules.scoring import pile_payout, race_order
from advisor.rules.setup import setup_position
from advisor.rules.dice import DICE_MODES, dice_source, draw_uniform
from advisor._tools.jsonio import MAX_BYTES, SCHEMA, dumps, loads
from advisor._tools.sampling import resolve_seed
from advisor.rules.state import GameState, PileCard, PlayerState

__all__ = ["Roll", "Game", "state_view", "race_order", "overall_rewards", "pile_payout", "RecordError",
           "replay", "Replay", "ReplayStep", "boards", "write_records", "read_records", "iter_records", "check_entry"]


def overall_rewards(state: GameState, winner: str, loser: str) -> list[int]:
    """Each player's summed overall-pile scoring (before the money floor),
    by the rules of ``state``."""
    return scoring.overall_rewards(state.position.rules, state.n_players,
                                   ((state.winner_pile, winner), (state.loser_pile, loser)))


def state_view(st: GameState, player: int) -> GameState:
    """What ``player`` may see of ``st`` (:meth:`Game.view`)."""
    hide = lambda pile: tuple(c if c.player == player else PileCard(c.player) for c in pile)  # noqa: E731
    players = tuple(pl if i == player else replace(pl, overall_cards=st.hand_size(i))
                    for i, pl in enumerate(st.players))
    return GameState(st.position, players, st.to_move, hide(st.winner_pile), hide(st.loser_pile))


class Game:
    """A game in progress (mutable): the state, the record, the dice.

    Parameters: ``edition`` (a name, or an :class:`Edition` such as a rule
    variant); ``players`` (2-8 in ``first``, 3-8 in ``second``); ``seed``
    for the setup and every roll drawn by the game; ``start``: the first
    player (default: drawn); ``position``: a start position instead of the
    setup by the rules; ``rules``: a rule variant of the edition
    (:meth:`Edition.with_rules`, or its JSON object as
    :func:`~advisor.rules.editions.rules_from_json` reads it): the start
    money, the payouts, the money floor, the leg bet tiles and where tiles
    may stand follow it, and the record's setup line carries it
    (``"rules"``), so a replay plays by it again.  ``dice``: where the
    set-up, the first player and the rolls come from (:mod:`advisor.rules.dice`):
    ``"game"`` (default), one stream for the game; ``"leg"``, each leg's
    dice drawn from ``(seed, leg)`` whatever the players do, so two games
    of one seed differ only by the decisions (the setup line says
    ``"dice": "leg"``).
    """

    def __init__(self, edition: str | Edition = "second", players: int = 4, seed: int | None = None, *,
                 start: int | None = None, position: Position | str | None = None,
                 rules: Edition | dict | None = None, dice: str = "game"):
        ed = get_edition(edition)
        if rules is not None:
            given = rules if isinstance(rules, Edition) else rules_from_json(ed, rules)
            if given.name != ed.name or (not ed.is_standard and given != ed):
                raise IllegalActionError(f"the rules given are not a variant of the {ed.name} edition"
                                         if given.name != ed.name else "two different rule variants given")
            ed = given
        problem = ed.players_problem(players)
        if problem:
            raise IllegalActionError(problem)
        self.seed = resolve_seed(seed)
        self.dice_source = dice_source(dice, self.seed)
        self.rng = self.dice_source.setup_rng  # the set-up and the first player ("game": the rolls too)
        if position is None:
            board = Position(stacks=setup_position(ed.name, self.rng).stacks, rules=ed)
        elif isinstance(position, str):
            board = Position.from_string(position, ed)
        else:
            board = position
        if start is None:
            start = int(self.rng.integers(players))
        hands = tuple(PlayerState(money=ed.start_money, overall_cards=ed.racing) for _ in range(players))
        self.state = GameState(board, hands, start)
        if self.state.position.rules != ed:
            raise IllegalActionError(f"the start position is not a {ed.name} edition position"
                                     if self.state.position.rules.name != ed.name
                                     else "the start position is under other rules than the game's")
        self.final_stacks: tuple[tuple[int, str], ...] | None = None
        self.winner_camel: str | None = None
        self.loser_camel: str | None = None
        self.legs = 1
        self.turns = 0
        self._pending_roll: Roll | None = None
        self.record: list[dict] = [{
            "type": "setup", "schema": SCHEMA, "edition": ed.name, "players": players, "seed": self.seed,
            "board": str(self.state.position), "start": start,
        }]
        if not ed.is_standard:  # a house rule travels with the record (absent: the edition's own rules)
            self.record[0]["rules"] = ed.rules_json()
        if dice != DICE_MODES[0]:  # the dice source travels with the record (absent: one stream for the game)
            self.record[0]["dice"] = dice

    # ------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        return self.final_stacks is not None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_actions(self) -> list[str]:
        """The legal actions of the player to move (none once finished)."""
        return [] if self.finished else [str(a) for a in legal_actions(self.state, self.to_move)]

    def can(self, action: str | Action) -> bool:
        return not self.finished and is_legal(self.state, action)

    def verify(self, action: str | Action) -> Action:
        """``action`` parsed; :class:`IllegalActionError` unless it is legal
        now."""
        if self.finished:
            raise IllegalActionError("the game is over")
        return check_action(self.state, action)

    def view(self, player: int) -> GameState:
        """What ``player`` may see: their own overall cards (in hand and on
        the piles, with colours); of every other player only how many
        overall cards they still hold (a hidden hand, see
        :mod:`advisor.rules.state`) and their pile cards face down.  Everything
        else of the state (board, money, leg and pyramid tiles, partners) is
        public."""
        st = self.state
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < st.n_players:
            raise IllegalActionError(f"player must be 0..{st.n_players - 1}, not {player!r}")
        return state_view(st, int(player))

    @property
    def rules(self) -> Edition:
        """The rules the game is played under (the edition's own or a variant)."""
        return self.state.position.rules

    def money(self) -> list[int]:
        return [p.money for p in self.state.players]

    def winners(self) -> list[int]:
        """The richest players (all of them on a tie)."""
        money = self.money()
        return [i for i, m in enumerate(money) if m == max(money)]

    # ------------------------------------------------------------ actions
    def draw_roll(self, rng: np.random.Generator | None = None) -> Roll:
        """Draw a die from the pyramid and roll it, with the game's dice (see
        ``dice``; with ``"leg"`` the same roll until it is played) or with
        ``rng``, a random source the caller keeps: e.g. one derived from the
        game so far, so that a replayed game draws the same roll."""
        if rng is None:
            return self.dice_source.roll(self.state.position.dice, self.legs, self.rules.dice)
        return draw_uniform(rng, self.state.position.dice)

    def apply(self, action: str | Action, roll: Roll | None = None) -> dict:
        """Play ``action`` for the player to move and return its record entry
        (the rules core plays it: :func:`advisor.rules.turn.play`).

        For ``pyramid`` the roll is drawn with the game's dice unless given
        (replays give it).  Illegal actions raise and change nothing.  A roll
        that ends the race while a pile holds a face-down card of unknown
        colour raises :class:`~advisor.rules.turn.UnrevealedCards`; the
        drawn roll is kept for the next ``apply("pyramid")`` once the cards
        are revealed (:meth:`reveal`)."""
        action = self.verify(action)  # before the roll is drawn: an illegal action changes nothing
        if roll is not None and action.kind != "pyramid":
            raise IllegalActionError("only the pyramid action takes a roll")
        if roll is not None and (not isinstance(roll.die, str) or len(roll.die) != 1):
            raise IllegalActionError(f"a roll names one die, not {roll.die!r}")
        player = self.to_move
        entry: dict[str, Any] = {"type": "action", "turn": self.turns, "player": player, "action": str(action)}
        if action.kind == "pyramid":
            roll = roll or self._pending_roll or self.draw_roll()
            self._pending_roll = None
            entry["roll"] = roll.to_json()
            try:
                turn = play_checked(self.state, action, roll)
            except UnrevealedCards:
                self._pending_roll = roll
                raise
            if turn.landed is not None:
                entry["landed"] = turn.landed
            if turn.race_over:
                self.final_stacks = turn.final_stacks
                self.winner_camel, self.loser_camel = turn.order[0], turn.order[-1]
                entry["race_over"] = True
            elif turn.leg_over:
                self.legs += 1
                entry["leg_over"] = True
        else:
            turn = play_checked(self.state, action)
        self.state = turn.state
        self.turns += 1
        entry["board"] = self.board()  # after the action: replays check it
        self.record.append(entry)
        if self.finished:
            self.record.append(self.summary())
        return entry

    def reveal(self, pile: str, index: int, colour: str) -> dict:
        """Show the colour of the face-down card ``index`` (0-based) of
        ``pile``, placed as ``winner:?`` / ``loser:?``; recorded as a
        ``reveal`` line."""
        if self.finished:
            raise IllegalActionError("the game is over")
        self.state = reveal_card(self.state, pile, index, colour)
        entry = {"type": "reveal", "pile": pile, "index": index, "colour": colour}
        self.record.append(entry)
        return entry

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


_ENTRY_TYPES = ("setup", "action", "reveal")  # and "end", compared whole with the replay


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_entry(entry: object) -> str | None:
    """Why ``entry`` is not a well-formed line of a game record (its keys
    and their types; whether it replays is :func:`replay`'s question), or
    ``None``."""
    if not isinstance(entry, dict):
        return f"a record line is a JSON object, not {type(entry).__name__}"
    kind = entry.get("type")
    if kind == "end":
        return None  # compared whole with the replay's summary
    if kind not in _ENTRY_TYPES:
        return "the 'type' of a record line is 'setup', 'action', 'reveal' or 'end'"
    # Keys a line does not know are passed over: the record format is
    # extended by adding keys (newer writers), never by changing these.
    if kind == "setup":
        if "schema" in entry and (not _int(entry["schema"]) or not 1 <= entry["schema"] <= SCHEMA):
            return f"'schema' {str(entry['schema'])[:20]} is not a record layout this version reads (1..{SCHEMA})"
        if entry.get("edition") not in EDITIONS:
            return f"'edition' must be one of {', '.join(EDITIONS)}"
        for key in ("players", "seed", "start"):
            if not _int(entry.get(key)) or entry[key] < 0:
                return f"'{key}' must be a whole number >= 0"
        if not isinstance(entry.get("board"), str):
            return "'board' must be a board string"
        if "rules" in entry:
            try:
                rules_from_json(entry["edition"], entry["rules"])
            except RulesError as exc:
                return f"'rules': {exc}"
        if entry.get("dice", DICE_MODES[0]) not in DICE_MODES:
            return f"'dice' must be one of {', '.join(DICE_MODES)}"
        for key in ("bots", "seats"):
            names = entry.get(key, [])
            if not isinstance(names, list) or not all(isinstance(b, str) for b in names):
                return f"'{key}' must be a list of names"
        return None
    if kind == "reveal":
        if entry.get("pile") not in ("winner", "loser") or not _int(entry.get("index")) or entry["index"] < 0 \
                or not isinstance(entry.get("colour"), str):
            return "a reveal line is {\"type\": \"reveal\", \"pile\": \"winner\" or \"loser\", \"index\": N, " \
                   "\"colour\": C}"
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
        try:
            Roll.from_json(entry["roll"])
        except IllegalActionError:
            return "'roll' must be {\"die\": D, \"value\": V} (and \"colour\" for the grey die)"
    return None


class ReplayStep:
    """One action line of a record as it is replayed (:class:`Replay`):
    the game before the action, the line, and once played what the action
    did.

    ``game``: the replayed :class:`Game`, as it stands before the action
    until :meth:`play`; ``entry``: the record line; ``line``: its number in
    the record (1: the setup line); ``turn`` and ``leg``: the game's turn
    and leg before the action; ``player``: the player who acts (the player
    to move: the replay checked it); ``action``: the action as the line
    writes it; ``roll``: the :class:`Roll` of a pyramid line (``None``
    when the line has none: the game draws it); ``before``: the
    :class:`~advisor.rules.state.GameState` before the action; ``done``:
    once played, the entry :meth:`Game.apply` returned (``landed``,
    ``leg_over``, ``race_over``, ``board``), else ``None``."""

    __slots__ = ("game", "entry", "line", "turn", "leg", "player", "action", "roll", "before", "done")

    def __init__(self, game: Game, entry: dict, line: int):
        self.game, self.entry, self.line = game, entry, line
        self.turn, self.leg, self.player = game.turns, game.legs, game.to_move
        self.action: str = entry["action"]
        self.roll = Roll.from_json(entry["roll"]) if "roll" in entry else None
        self.before = game.state
        self.done: dict | None = None

    def play(self) -> dict:
        """Play the action on the game and return what it did (the entry
        of :meth:`Game.apply`), then check the board after it against the
        record's; played once (later calls return the same entry).  An
        illegal action raises and leaves the game as it was."""
        if self.done is None:
            with _record_errors():
                self.done = self.game.apply(self.action, self.roll)
            board = self.entry.get("board")
            if board is not None and board != self.done["board"]:
                raise RecordError(f"turn {self.turn}: the record's board {board[:200]!r} does not match "
                                  f"the replay's {self.done['board']!r}")
        return self.done


class Replay:
    """The replay of a board-game record, action line by action line: the
    one replay every reader of records uses (:func:`replay`, the review,
    the score sheet, the inference of face-down cards).

    ``Replay(record, upto)`` checks every line of ``record``
    (:func:`check_entry`; one setup line, first) and sets up :attr:`game`
    from the setup line; a malformed record raises :class:`RecordError`
    naming the line, a setup the rules refuse the rules' error.

    Iterating it replays the record to turn ``upto`` (default: the end)
    and yields a :class:`ReplayStep` for each action line, before its
    action is played: the step's :meth:`~ReplayStep.play` plays it (and
    returns what it did), else it is played when the next step is asked
    for.  Each action is checked again as it is played: the player to
    move, the action's legality (:class:`IllegalActionError`), the board
    after it; ``reveal`` lines are played between the steps; the ``end``
    line is compared with the game's summary (unless ``upto`` is given).
    A record that does not replay to its own lines raises
    :class:`RecordError` naming the turn.  Once the iteration is over,
    :attr:`game` is the game of the record (what :func:`replay` returns);
    a replay is iterated once."""

    def __init__(self, record: list[dict], upto: int | None = None):
        if not isinstance(record, list) or not record or not isinstance(record[0], dict) \
                or record[0].get("type") != "setup":
            raise RecordError("a game record starts with its setup line")
        for k, entry in enumerate(record):
            problem = check_entry(entry)
            if problem:
                raise RecordError(f"line {k + 1} of the game: {problem}")
            if k and entry.get("type") == "setup":
                raise RecordError(f"line {k + 1} of the game: a second setup line")
        self.record, self.upto = record, upto
        setup = record[0]
        with _record_errors():
            self.game = Game(setup["edition"], setup["players"], setup["seed"], start=setup["start"],
                             position=setup["board"], rules=setup.get("rules"),
                             dice=setup.get("dice", DICE_MODES[0]))
        self.game.record[0] = dict(setup)
        self._started = False

    def __iter__(self) -> Iterator[ReplayStep]:
        if self._started:
            raise RuntimeError("a replay is iterated once")
        self._started = True
        return self._steps()

    def _steps(self) -> Iterator[ReplayStep]:
        game, upto = self.game, self.upto
        for line, entry in enumerate(self.record[1:], start=2):
            if entry.get("type") == "end":
                if upto is None:
                    self._check_end(entry)
                break
            if upto is not None and game.turns >= upto:
                break
            if entry.get("type") == "reveal":
                with _record_errors():
                    game.reveal(entry["pile"], entry["index"], entry["colour"])
                continue
            if entry["player"] != game.to_move:
                raise RecordError(f"turn {game.turns}: player {str(entry['player'])[:20]} is not to move")
            step = ReplayStep(game, entry, line)
            yield step
            step.play()  # unless the consumer played it

    def _check_end(self, entry: dict) -> None:
        game = self.game
        if not game.finished:
            raise RecordError(f"the record's end line comes after turn {game.turns}, but the game is not over")
        summary = game.summary()
        if entry != summary:
            key = next(k for k in sorted(set(entry) | set(summary), key=str) if entry.get(k) != summary.get(k))
            raise RecordError(f"the record's end line does not match the replay: {str(key)[:40]!r} is "
                              f"{str(entry.get(key))[:80]}, the replay gives {summary.get(key)}")


@contextmanager
def _record_errors():
    """A ``ValueError`` of the replay that is not the user's error type
    becomes a :class:`RecordError` with its message."""
    try:
        yield
    except ValueError as exc:
        if isinstance(exc, AdvisorError):
            raise
        raise RecordError(str(exc)) from None


def replay(record: list[dict], upto: int | None = None, visit: Callable[[ReplayStep], object] | None = None) -> Game:
    """The game of ``record`` replayed to turn ``upto`` (default: the end).

    Every line is checked and every action is checked again as it is
    replayed (:class:`Replay`); a malformed record or one that does not
    replay to its own lines (boards, end line) raises :class:`RecordError`;
    an illegal action :class:`IllegalActionError`.

    ``visit(step)``, when given, is called for each action line with its
    :class:`ReplayStep`, before the action is played (``step.game`` and
    ``step.before``: the game and the state before it); it may play the
    action itself with ``step.play()``, which returns what the action did,
    else the action is played when ``visit`` returns."""
    replayed = Replay(record, upto)
    for step in replayed:
        if visit is not None:
            visit(step)
    return replayed.game


def boards(record: list[dict]) -> list[str]:
    """The board string before every turn of the game, and at its end
    (the record is replayed and checked)."""
    return replay(record).boards()


def write_records(games: list[list[dict]], path) -> None:
    """Write game records as JSON lines (one line per setup, action, end).
    The file appears only when complete (written beside, then renamed)."""
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
        games = 0
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
                    games += 1
                    yield start, record
                record, start = [], n
            record.append(entry)
            if entry.get("type") == "end":  # complete: nothing after it need be read
                games += 1
                yield start, record
                record = []
        if record:
            games += 1
            yield start, record
        if not games:
            raise RecordError(f"game records {path}: empty (no game in it)")
