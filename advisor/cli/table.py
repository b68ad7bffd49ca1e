"""``camelup play``: an interactive game in the terminal, humans and bots at
one table.

On a human's turn the table is shown *as that player sees it* (a player's
view, :meth:`advisor.game.Game.view`) and the player types an action
(``leg:R``, ``pyramid``, ``tile:+7``, ``winner:B``, ``loser:G``,
``partner:3``) or a command (:data:`HELP`).  Bots play their turns at once
and say what they did.

Hidden information, as at the real table: overall cards are placed face
down and hands are hidden.  A human sees their own cards (in hand and on the
piles); of the others, that they "placed a card on the loser pile" and how
many overall cards they still hold.  Everything shown on a turn is drawn
from the player's view, never from the engine's full state; ``odds`` and
``best`` advise from that view too.  With several humans at one terminal,
the table before a turn is the view of the human to move, headed by their
name, and no overall card colour is announced.  When the race ends the piles
are turned face up and each player's money is taken apart
(:mod:`advisor.reviews.scoresheet`).

Dice and bots.  Every roll and every random choice of a bot is drawn from a
random stream derived from the game's seed and the actions played so far
(:func:`history_rng`), never from a stream that advances as the game goes.
So a game is a function of its seed and its actions: a saved game continues
exactly as it would have without the interruption, and ``undo`` keeps the
dice: a pyramid roll taken back and rolled again shows the same die and face,
so it cannot be re-drawn to fish for a better roll.  A different action leads
to a different game, whose later rolls are fresh draws: what an undone turn
revealed tells nothing about them.  A game recorded with per-leg dice
(``"dice": "leg"``, :mod:`advisor.rules.dice`) continues with its own dice: each
leg's rolls fixed by the seed and the leg whatever is played.

The table (:class:`Table`: seats, bots, prompts, commands, saving, undo,
leaving) drives its game through an engine adapter: :class:`BoardEngine`
for the board games, :class:`advisor.cli.table_cards.CardsEngine` for Camel Up
Cards (``camelup play --edition cards``).

Records: the game's record is the project's record (JSON lines,
:func:`advisor.game.write_records`); its setup line also names the
``seats``.  ``save FILE`` writes it (beside, then renamed into place);
``camelup play --load FILE`` continues it (:func:`load_game`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

import numpy as np

import advisor.game
import advisor.odds.exact
import advisor.valuation.engine
from advisor import warm
from advisor._tools.files import claim, file_kind, folder_problem
from advisor.bots.policies import BOTS, make_bot
from advisor.cli.rehearsal import Rehearsal
from advisor.errors import AdvisorError, Interrupted
from advisor.game import Game, read_records, replay
from advisor.odds.montecarlo import race_odds
from advisor.present.report import format_leg_odds, format_race_odds
from advisor.reviews.scoresheet import pile_reveal, record_seats, score_breakdown, score_phases
from advisor.rules.actions import KINDS, Action, Roll
from advisor.rules.scoring import PILES
from advisor.rules.state import GameState

__all__ = ["play", "render", "render_view", "cards_held", "describe", "history_rng", "load_game", "save_game",
           "format_reveal", "format_scores", "HELP", "Table", "BoardEngine", "run_table", "CHANCE", "SEAT",
           "short_text"]

HELP = """Type an action or a command:
  leg:C        take the top leg bet tile of camel C      pyramid   take a pyramid tile and roll
  tile:+N      place your cheering (+) / booing (-) tile on space N (tile:-N)
  winner:C     overall winner card C (face down)           loser:C   overall loser card C (face down)
  partner:P    partnership with player P (2nd edition, 6-8 players)
  odds         leg and race odds                           best      the advisor's ranking for you
  actions      your legal actions                          table     show the table again
  undo         take back your last action and the bots' turns after it (the dice stay the same)
  save FILE    save the game (continue it with: camelup play --load FILE)
  quit         leave the game"""

_KINDS = KINDS  # the action kinds of the rules core
CHANCE, SEAT = 0, 1  # stream purposes (history_rng): the dice (chance); bot seat s uses SEAT + s


# --------------------------------------------------------------------------
# What a player may see
# --------------------------------------------------------------------------


def cards_held(view: GameState, player: int) -> int:
    """How many overall cards ``player`` still holds, as anyone at the table
    can count them (a view gives other players' hands as a count only)."""
    return view.hand_size(player)


def _name(player: int, seats: Sequence[str] | None, viewer: int | None = None) -> str:
    if player == viewer:
        return f"P{player} (you)"
    return f"P{player} ({seats[player]})" if seats else f"P{player}"


def render_view(view: GameState, viewer: int, *, legs: int, turn: int, seats: Sequence[str] | None = None) -> str:
    """The table as ``viewer`` sees it, from their view alone: track, tiles,
    pyramid, leg tiles, the piles (own cards face up, the others' face down),
    every player's money and holdings, own overall cards in hand and the
    others' card counts.  ``legs`` / ``turn``: the leg and turn numbers."""
    pos = view.position
    ed = pos.rules
    lines = [f"P{viewer}'s view: leg {legs}, turn {turn + 1}, P{view.to_move} to move.  "
             f"Pyramid: {' '.join(pos.dice)} ({len(pos.dice) - ed.dice_left} roll(s) left this leg)"]
    track = []
    for space in range(1, 17):
        stack = pos.stack_at(space)
        tile = pos.tile_at(space)
        cell = stack or (f"{tile.sign}P{tile.owner}" if tile and tile.owner is not None else (tile.sign if tile else "."))
        track.append(f"{space}:{cell}")
    lines.append("Track (bottom to top): " + "  ".join(track) + "  | finish")
    stacks = "  ".join(f"{c}:{''.join(map(str, s)) or '-'}" for c, s in zip(ed.racing, pos.legtiles))
    lines.append(f"Leg tiles left: {stacks}")
    for title, pile in (("Winner pile", view.winner_pile), ("Loser pile", view.loser_pile)):
        cards = [f"P{c.player}:{c.colour if c.player == viewer and c.colour else '?'}" for c in pile]
        lines.append(f"{title} (placement order): {' '.join(cards) if cards else '-'}")
    width = max(len(_name(i, seats, viewer)) for i in range(view.n_players))
    for i, p in enumerate(view.players):
        held = " ".join(f"{c}{v}" for c, v in p.leg_tiles) or "-"
        partner = f", partner P{p.partner}" if p.partner is not None else ""
        hand = f"overall cards in hand {view.hand(i) or '-'}" if i == viewer else \
            f"overall cards in hand: {cards_held(view, i)}"
        lines.append(f"  {'*' if i == view.to_move else ' '}{_name(i, seats, viewer):<{width}}  money {p.money:3d}  "
                     f"leg tiles {held}  pyramid {p.pyramid_tiles}  {hand}{partner}")
    return "\n".join(lines)


def render(game: Game, viewer: int, seats: Sequence[str] | None = None) -> str:
    """The table as ``viewer`` sees it (:func:`render_view` of ``game.view(viewer)``)."""
    return render_view(game.view(viewer), viewer, legs=game.legs, turn=game.turns, seats=seats)


def describe(entry: dict, shown: bool) -> str:
    """An action line of the record as the table hears it: an overall card's
    colour only if ``shown`` (the only listener is its owner); a roll with
    its die, face and consequences."""
    action = Action.parse(entry["action"])
    kind, colour = action.kind, action.colour
    if kind in PILES:
        known = shown and colour is not None
        return f"placed {'the ' + colour + ' card' if known else 'a card'} on the {kind} pile (face down)"
    text = entry["action"]
    if "roll" in entry:
        roll = Roll.from_json(entry["roll"])
        colour = f" {roll.colour}" if roll.colour is not None else ""
        text += f": die {roll.die} shows{colour} {roll.value}"
        if "landed" in entry:
            text += f", lands on the tile at {entry['landed']}"
        if entry.get("leg_over"):
            text += "; the leg is over and scored"
        if entry.get("race_over"):
            text += "; the race is over"
    return text


# --------------------------------------------------------------------------
# Random streams, saving and loading
# --------------------------------------------------------------------------


def history_rng(record: Sequence[dict], purpose: int) -> np.random.Generator:
    """A random source fixed by the game's seed, ``purpose`` (0: the dice;
    1 + s: the bot in seat s) and the actions played so far."""
    actions = [e["action"] for e in record if e.get("type") == "action"]
    digest = hashlib.sha256(json.dumps(actions, separators=(",", ":")).encode()).digest()
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, len(digest), 4)]
    return np.random.default_rng([int(record[0]["seed"]), purpose, *words])


def save_game(record: Sequence[dict], path: str | os.PathLike) -> Path:
    """Write one game record as JSON lines to ``path``: to a file beside it,
    then renamed into place, so ``path`` only ever holds a whole record."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with claim(path, "saved game"):  # another game saving there is refused
            advisor.game.write_records([list(record)], tmp)
            os.replace(tmp, path)
    except OSError as exc:
        raise AdvisorError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def load_game(path: str | os.PathLike, index: int = 0) -> list[dict]:
    """Game ``index`` of the JSON lines file ``path``, checked by replaying
    it; it must be unfinished.  Raises :class:`AdvisorError` with one line
    naming what is wrong."""
    path = Path(path)
    try:
        games = read_records(path)
    except AdvisorError as exc:
        raise AdvisorError(f"saved game: {exc}") from None
    if not 0 <= index < len(games):
        raise AdvisorError(f"--game {index}: {path} holds {len(games)} game(s)")
    record = games[index]
    try:
        game = replay(record)
    except AdvisorError as exc:
        raise AdvisorError(f"game {index} of {path} is not a valid record: {exc}") from None
    if game.finished:
        raise AdvisorError(f"game {index} of {path} is over (final money {game.money()}): nothing to continue")
    return game.record


def _check_seats(seats: Sequence[str], players: int) -> list[str]:
    seats = list(seats)
    for seat in seats:
        if seat != "human" and seat not in BOTS:
            raise AdvisorError(f"unknown seat {seat!r}: use human or a bot ({', '.join(BOTS)})")
    if len(seats) != players:
        raise AdvisorError(f"{len(seats)} seats for a game of {players} players: give one per player")
    return seats


# --------------------------------------------------------------------------
# The end: piles face up, the score sheet
# --------------------------------------------------------------------------


def format_reveal(record: Sequence[dict], viewer: int | None = None) -> str:
    """Both overall piles face up, card by card in placement order: owner,
    colour, correct or not, what it paid."""
    frame = pile_reveal(record)
    seats = record_seats(record[0])
    camels = {"winner": frame.attrs["winner_camel"], "loser": frame.attrs["loser_camel"]}
    lines = ["The overall piles, face up (placement order):"]
    for pile in ("winner", "loser"):
        cards = frame[frame["pile"] == pile]
        result = f"{camels[pile]} {'won' if pile == 'winner' else 'came last'}"
        lines.append(f"  {pile} pile ({result}): {'no cards' if cards.empty else ''}".rstrip())
        for row in cards.itertuples():
            verdict = "correct" if row.correct else "wrong"
            lines.append(f"    {row.place:2d}. {_name(row.player, seats, viewer):<16} {row.colour}  "
                         f"turn {row.turn + 1:3d}  {verdict:<7} {row.paid:+d}")
    return "\n".join(lines)


def format_scores(record: Sequence[dict], viewer: int | None = None) -> str:
    """Each player's money taken apart: start, leg bet tiles, pyramid tiles,
    partnerships (when possible), tile coins, the two piles, the floor, and
    the final money they add up to; then the leg payouts leg by leg."""
    frame = score_breakdown(record)
    phases = score_phases(record)
    seats = record_seats(record[0])
    n = len(frame)
    ed_second = record[0].get("edition") == "second"
    columns = [("start", "start"), ("leg_bets", "leg bets"), ("pyramid", "pyramid")]
    if ed_second and n >= 6:
        columns.append(("partner", "partner"))
    columns += [("tile_coins", "tile coins"), ("winner_cards", "winner pile"), ("loser_cards", "loser pile"),
                ("floor", "floor"), ("final", "final")]
    width = max(len("player"), *(len(_name(p, seats, viewer)) for p in range(n)))
    sizes = [max(6, len(title)) for _, title in columns]
    head = f"  {'player':<{width}}" + "".join(f"  {title:>{size}}" for (_, title), size in zip(columns, sizes))
    lines = ["Scoring (coins; the parts add up to the final money; 'floor': penalties the money floor forgave):",
             head]
    for p, row in frame.iterrows():
        cells = []
        for (key, _), size in zip(columns, sizes):
            value = int(row[key])
            cells.append(f"  {value if key in ('start', 'final') else _signed(value):>{size}}")
        lines.append(f"  {_name(p, seats, viewer):<{width}}{''.join(cells)}")
    lines.append("Leg payouts leg by leg (leg bets + pyramid tiles"
                 + (" + partner" if ed_second and n >= 6 else "") + ", before the floor):")
    for p in range(n):
        mine = phases[(phases["player"] == p) & phases["leg"].notna()]
        parts = []
        for row in mine.itertuples():
            paid = row.leg_bets + row.pyramid + row.partner
            parts.append(f"leg {row.leg} {_signed(paid)}" + (f" (floor +{row.floor})" if row.floor else ""))
        end = phases[(phases["player"] == p) & (phases["phase"] == "race end")]
        if not end.empty and int(end["floor"].iloc[0]):
            parts.append(f"race end: floor +{int(end['floor'].iloc[0])}")
        lines.append(f"  {_name(p, seats, viewer):<{width}}  " + ", ".join(parts))
    return "\n".join(lines)


# --------------------------------------------------------------------------
# The game loop
# --------------------------------------------------------------------------


class BoardEngine:
    """The board games (:class:`advisor.game.Game`) as :class:`Table` drives
    them: one action per turn, the dice drawn from :func:`history_rng`.

    An engine adapter answers what the table needs of a game: its record,
    who moves, the action a human typed (or why it is not possible), a
    bot's actions, what the table hears of an action, the table as a
    player sees it, the game-specific commands, a replay for ``undo`` and
    the end of the game."""

    help = HELP
    commands = ("actions", "odds", "best")
    cards = False  # the game: the board game (measured compile forms without "cards-")
    undo_note = "The dice stay the same: the same roll at the same point shows the same die."

    def __init__(self, game: Game):
        self.game = game

    @property
    def record(self) -> list[dict]:
        return self.game.record

    @property
    def saved_record(self) -> list[dict]:
        """The record to save (the whole game so far)."""
        return self.game.record

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def turns(self) -> int:
        return self.game.turns

    def where(self) -> str:
        return f"turn {self.game.turns + 1}"

    def make_bot(self, name: str):
        return make_bot(name)

    def prompt(self, p: int) -> str:
        return f"P{p}> "

    @property
    def in_turns(self) -> bool:
        """Whether the players now take turns (a bot's turn values actions)."""
        return True

    def show_table(self, p: int) -> bool:
        return True

    def apply(self, action: str) -> dict:
        roll = None
        if action == "pyramid":
            # per-leg dice ("leg", advisor.rules.dice) are already the same whatever is played or
            # undone: the game's own source; otherwise the dice come from the history
            rng = None if self.game.dice_source.mode == "leg" else history_rng(self.game.record, CHANCE)
            roll = self.game.draw_roll(rng)
        return self.game.apply(action, roll)

    def news(self) -> str:
        return ""

    def bot_actions(self, p: int, bot):
        yield bot.choose(self.game.view(p), p, history_rng(self.game.record, SEAT + p))

    def entry(self, p: int, line: str) -> str:
        """The action ``line`` (as typed) names if it is legal now."""
        line = _normalise(line)
        if line in self.game.legal_actions():
            return line
        if line.partition(":")[0] in _KINDS:
            raise AdvisorError(f"{_short(line)} is not one of your legal actions now "
                               "(type 'actions' to list them).")
        raise AdvisorError(f"{_short(line)} is not an action or a command (type 'help').")

    def command(self, p: int, word: str) -> str:
        view = self.game.view(p)
        if word == "actions":
            return " ".join(advisor.valuation.engine.legal_actions(view, p))
        if word == "odds":
            return _odds_text(view)
        return _best_text(view, p)

    def describe(self, entry: dict, shown: bool) -> str:
        return describe(entry, shown)

    def render(self, p: int, seats: Sequence[str]) -> str:
        return render(self.game, p, seats)

    def undo_problem(self, taken: Sequence[dict]) -> str | None:
        """Why the record lines ``taken`` (from the player's action on) may
        not be taken back, if they may not (the dice stay the same: any
        may)."""
        return None

    def undo_step(self, p: int) -> str | None:
        """Take back a choice of a turn not yet played (none here)."""
        return None

    def replay(self, record: list[dict]) -> "BoardEngine":
        return BoardEngine(replay(record))

    def title(self) -> str:
        return f"Camel Up ({self.game.state.position.rules.title})"

    def start_line(self, n: int, fresh: bool) -> str:
        game = self.game
        if fresh:
            return f"{self.title()}, {n} players, seed {game.seed}."
        return f"{self.title()}, {n} players, seed {game.seed}: continuing at leg {game.legs}, turn {game.turns + 1}."

    def finish(self, table: "Table") -> None:
        game = self.game
        record = game.record
        end = game.summary()
        table.say()
        table.say(f"The race is over: {end['winner_camel']} wins, {end['loser_camel']} is last "
                  f"(final board {end['final_board']}).")
        table.say()
        table.say(format_reveal(record, table.solo))
        table.say()
        table.say(format_scores(record, table.solo))
        table.say()
        table.say("Winner(s): " + ", ".join(f"{table.name(i)} with {end['money'][i]} coins" for i in end["winners"])
                  + ".")

    def save(self, record: Sequence[dict], path: Path) -> None:
        save_game(record, path)


class Table:
    """A game at the terminal: seats, bots, the listeners, saving; the game
    itself through an engine adapter (:class:`BoardEngine`, or
    :class:`advisor.cli.table_cards.CardsEngine` for Camel Up Cards)."""

    #: a :class:`Rehearsal` under way, waited for before the table computes
    rehearsal: Rehearsal | None = None

    def __init__(self, engine, seats: list[str], read: Callable[[str], str], out: TextIO,
                 autosave: Path | None, source: Path | None):
        self.engine = engine
        self.seats = seats
        self.bots = {i: engine.make_bot(name) for i, name in enumerate(seats) if name != "human"}
        self.humans = [i for i, name in enumerate(seats) if name == "human"]
        self.read = read
        self.out = out
        self.autosave = autosave
        self.source = source.resolve() if source else None
        self.saved: dict[Path, int] = {}  # files written this session -> the turn saved
        # run_table(rehearse=True): a Rehearsal starts at the first human prompt, said on ``notice``
        self.rehearse_pending = False
        self.notice = None
        self.opening = None  # the notice's forms and estimate while the bots' first turns compile

    @property
    def game(self):
        return self.engine.game

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    @property
    def solo(self) -> int | None:
        """The one human at the table, if there is exactly one: the only
        listener, who may hear their own cards named."""
        return self.humans[0] if len(self.humans) == 1 else None

    def name(self, player: int) -> str:
        return _name(player, self.seats, self.solo)

    def ready(self) -> None:
        """Before the table computes: the rehearsal, if one runs, is over."""
        if self.rehearsal is not None:
            self.rehearsal.wait()

    def apply(self, action: str) -> dict:
        self.ready()
        entry = self.engine.apply(str(action))
        self.say(f"{self.name(entry['player'])}: {self.engine.describe(entry, entry['player'] == self.solo)}")
        news = self.engine.news()
        if news:
            self.say(news)
        self.keep()
        return entry

    def keep(self) -> None:
        """Autosave, if asked for; a failure is reported and the game goes on."""
        if self.autosave:
            try:
                self.write(self.autosave)
            except AdvisorError as exc:
                self.say(f"Autosave failed ({exc}); the game goes on: 'save FILE' saves it elsewhere.")

    # ------------------------------------------------------------ saving
    def check_target(self, text: str) -> Path:
        """The file ``text`` names, if the game may be saved there: never the
        file it was loaded from, never a file that exists unless this
        session wrote it, and in a folder that exists."""
        try:
            path = Path(os.path.expanduser(text))  # '~user' left as it is when unknown
            resolved = path.resolve()
            if self.source is not None and resolved == self.source:
                raise AdvisorError(f"{path} is the file this game was loaded from: save to another file "
                                   "(a file read is never overwritten)")
            if resolved.is_dir():
                raise AdvisorError(f"{path} is a folder: give a file name")
            if resolved.exists() and resolved not in self.saved:
                raise AdvisorError(f"{path} exists: save to another file (or delete it first)")
            if not resolved.parent.is_dir():
                problem = folder_problem(resolved.parent, file_kind(resolved.parent))
                raise AdvisorError(f"cannot write {path}: {problem}")
        except (OSError, ValueError) as exc:  # a name the system refuses (too long, a NUL byte, ...)
            if isinstance(exc, AdvisorError):
                raise
            raise AdvisorError(f"cannot save to {_short(text)}: {getattr(exc, 'strerror', None) or exc}") from None
        return resolved

    def write(self, path: Path) -> None:
        self.engine.save(self.engine.saved_record, path)
        self.saved[path] = self.engine.turns

    def left(self, how: str) -> str:
        """One line on leaving: where the game is kept, or how to keep it."""
        turn = self.engine.turns
        where = self.engine.where()
        if self.autosave:
            try:
                self.write(self.autosave)
            except AdvisorError as exc:
                return f"game left at {where} ({how}); autosave failed: {exc}"
            return f"game left at {where} ({how}); saved in {self.autosave}: continue with " \
                   f"camelup play --load {_quote(self.autosave)}"
        fresh = [p for p, t in self.saved.items() if t == turn]
        if fresh:
            return f"game left at {where} ({how}); saved in {fresh[-1]}: continue with " \
                   f"camelup play --load {_quote(fresh[-1])}"
        return f"game left at {where} ({how}), not saved: type 'save FILE' before leaving, " \
               "or start with --autosave FILE"

    # ------------------------------------------------------------ turns
    def bot_turn(self, p: int) -> None:
        self.ready()
        for action in self.engine.bot_actions(p, self.bots[p]):
            self.apply(action)

    def announce_opening(self) -> None:
        """A first run whose bots move before the first human: their turns
        compile before the table shows, so the compile notice says about how
        long (the measured openings of their families of bot,
        :func:`advisor.warm.opening_forms`) instead of nothing."""
        first, p = [], self.engine.to_move
        while p in self.bots and len(first) < len(self.seats):
            first.append(self.seats[p])
            p = (p + 1) % len(self.seats)
        forms = warm.opening_forms(first, cards=self.engine.cards) if first and p in self.humans else None
        if forms is not None:
            self.opening = (self.notice.forms, self.notice.seconds)
            self.notice.forms, self.notice.seconds = forms, None

    def human_turn(self, p: int) -> bool:
        """One human turn (or one step of it); False when the player leaves the game."""
        if self.engine.show_table(p):
            self.show(p)
        if self.rehearse_pending:  # the table is shown: the rest compiles while the player reads it
            self.rehearse_pending = False
            if self.opening is not None:  # the rehearsal's estimate is the whole table's again
                self.notice.forms, self.notice.seconds = self.opening
            self.rehearsal = Rehearsal(self.engine, self.seats, self.notice)
        while True:
            try:
                line = self.read(self.engine.prompt(p))
            except EOFError:
                self.say()
                self.say(_sentence(self.left("end of input")))
                return False
            line = line.strip()
            word, _, rest = line.partition(" ")
            word, rest = word.lower(), rest.strip()
            try:
                if word in ("quit", "exit") and not rest:
                    self.say(_sentence(self.left(word)))
                    return False
                if self.command(p, word, rest):
                    continue
                if not line:
                    continue
                action = self.engine.entry(p, line)
                if action is None:  # one choice of a turn made: the next prompt asks for the next
                    continue
                self.apply(action)
                return True
            except AdvisorError as exc:
                self.say(f"Not possible: {exc}")

    def command(self, p: int, word: str, rest: str) -> bool:
        """Run a command; False if ``word`` is not one."""
        if word == "save":
            if not rest:
                raise AdvisorError("save needs a file name: save FILE")
            path = self.check_target(rest)
            self.write(path)
            self.say(f"Saved in {rest} ({self.engine.where()}); continue with: camelup play --load {_quote(rest)}")
            return True
        if rest:
            if word in ("help", "table", "undo") + tuple(self.engine.commands):
                raise AdvisorError(f"{word} takes no argument")
            return False
        if word == "help":
            self.say(self.engine.help)
        elif word in self.engine.commands:
            self.ready()
            self.say(self.engine.command(p, word))
        elif word == "table":
            self.show(p)
        elif word == "undo":
            self.undo(p)
        else:
            return False
        return True

    def show(self, p: int) -> None:
        self.say()
        if len(self.humans) > 1:
            self.say(f"=== P{p}'s turn: P{p}'s view (the other players look away) ===")
        self.say(self.engine.render(p, self.seats))

    def undo(self, p: int) -> None:
        self.ready()
        step = self.engine.undo_step(p)
        if step:
            self.say(step)
            return
        record = self.engine.record
        mine = [i for i, e in enumerate(record) if e.get("type") == "action" and e["player"] == p]
        if not mine:
            raise AdvisorError("nothing to undo: you have not played yet")
        cut = mine[-1]
        later = [e for e in record[cut + 1:] if e.get("type") == "action"]
        others = sorted({e["player"] for e in later if e["player"] in self.humans})
        if others:
            raise AdvisorError(f"P{others[0]} has played since your last action; undo takes back only your own "
                               "action and the bots' turns after it")
        problem = self.engine.undo_problem(record[cut:])
        if problem:
            raise AdvisorError(problem)
        told = self.engine.describe(record[cut], p == self.solo)
        self.engine = self.engine.replay(record[:cut])
        text = f"Taken back: your turn ({told})"
        if later:
            text += f" and the {len(later)} bot turn(s) after it (" + "; ".join(
                f"{self.name(e['player'])} {self.engine.describe(e, False)}" for e in later) + ")"
        self.say(text + ". " + self.engine.undo_note)
        self.keep()
        self.show(p)

    def run(self, fresh: bool) -> None:
        """Play until the game ends or a human leaves; Ctrl-C raises
        :class:`advisor.errors.Interrupted` saying where the game is kept."""
        engine = self.engine
        self.say(engine.start_line(len(self.seats), fresh))
        self.say("Seats: " + ", ".join(f"P{i} {name}" for i, name in enumerate(self.seats))
                 + ".  Type 'help' for commands.")
        if self.rehearse_pending and self.notice is not None:
            self.announce_opening()
        try:
            while not self.engine.finished:
                p = self.engine.to_move
                if p in self.bots:
                    self.bot_turn(p)
                elif not self.human_turn(p):
                    return
            self.engine.finish(self)
        except KeyboardInterrupt:
            raise Interrupted(self.left("Ctrl-C")) from None


def _normalise(line: str) -> str:
    """An action as typed, in the notation's case: ``LEG:r`` -> ``leg:R``."""
    kind, sep, arg = line.partition(":")
    kind = kind.strip().lower()
    return kind + sep + (arg.strip().upper() if kind in ("leg", "winner", "loser") else arg.strip())


def _quote(path) -> str:
    import shlex

    return shlex.quote(str(path))


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def short_text(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


_short = short_text


def play(seats: Sequence[str] | None = None, *, edition: str = "second", seed: int | None = None,
         read: Callable[[str], str] | None = None, out: TextIO | None = None, record: Sequence[dict] | None = None,
         autosave: str | os.PathLike | None = None, source: str | os.PathLike | None = None,
         rehearse: bool = False, notice=None) -> Game:
    """Play a game; ``seats[i]`` is ``"human"`` or a bot name.  ``read`` asks
    a human for a line (default :func:`input`; end of input or ``quit``
    leaves the game).

    ``record``: an unfinished game record to continue (its setup gives the
    edition and seed; ``seats`` default to those it names).  ``autosave``: a
    file to save the game to after every turn.  ``source``: the file the
    record was loaded from (never written).  ``rehearse``, ``notice``: the
    kernels compiled while the first human reads the table (a first run;
    :func:`run_table`).  Ctrl-C raises
    :class:`advisor.errors.Interrupted` saying where the game is kept."""
    if record is not None:
        game = replay(list(record))
        if game.finished:
            raise AdvisorError("the game of this record is over: nothing to continue")
        seats = seats or record_seats(game.record[0])
        if seats is None:
            raise AdvisorError("the record does not name its seats: give them (--seats)")
    else:
        if seats is None:
            raise AdvisorError("give the seats: human or a bot name per player")
        game = Game(edition, len(seats), seed)
    seats = _check_seats(seats, game.state.n_players)
    return run_table(BoardEngine(game), seats, read=read, out=out, fresh=record is None, autosave=autosave,
                     source=source, rehearse=rehearse, notice=notice).game


def run_table(engine, seats: list[str], *, read: Callable[[str], str] | None = None, out: TextIO | None = None,
              fresh: bool = True, autosave: str | os.PathLike | None = None,
              source: str | os.PathLike | None = None, rehearse: bool = False, notice=None) -> Table:
    """Seat ``seats`` at a :class:`Table` around ``engine``'s game (their
    names go into the record's setup line) and play; returns the table.
    ``rehearse``: compile the kernels the table will need while the first
    human reads the table (:class:`Rehearsal`; ``notice``, an active
    :class:`advisor.compiling.CompileNotice`, says so when the table waits)."""
    engine.record[0]["seats"] = list(seats)
    table = Table(engine, list(seats), read or input, out or sys.stdout, None, Path(source) if source else None)
    table.rehearse_pending = rehearse and "human" in seats
    table.notice = notice
    if autosave is not None:
        table.autosave = table.check_target(os.fspath(autosave))
    table.run(fresh)
    return table


def _odds_text(view: GameState) -> str:
    pos = view.position
    leg = advisor.odds.exact.leg_odds(pos)
    return format_leg_odds(leg) + "\n\n" + format_race_odds(race_odds(pos, precision=0.005, seed=0))


def _best_text(view: GameState, player: int) -> str:
    frame = advisor.valuation.engine.best_moves(view, player, precision=0.005, seed=0, objective="ev")
    rows = [f"  {r['action']:<10} EV {r['ev']:+.3f}  sd {r['sd']:.2f}  P(loss) {100 * r['p_loss']:.0f}%"
            for r in frame.head(10).to_dict(orient="records")]
    return "The advisor's ranking (top 10), from what you see:\n" + "\n".join(rows)
