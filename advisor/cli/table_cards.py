"""``camelup play --edition cards``: a Camel Up Cards game in the terminal,
humans and the Cards bots at one table.

The table, its commands, saving, ``undo`` and leaving are
:class:`advisor.cli.table.Table`'s; :class:`CardsEngine` is the Camel Up Cards
game as the table drives it (:mod:`advisor.cards.game`).

A leg starts with the deck building: a human is shown their dealt cards
and asked, one prompt each, for the card to keep in hand, the card to show
(with more than 2 players) and the cards to put face down into the race
deck; the rest are discarded (``build:H/S/D/X`` does it in one line).  A
turn is one race action (``reveal``, ``hand``, ``palm:N``, ``fennec:N``)
with at most one bet (``leg:C``, ``mid:C``, ``winner:C``, ``loser:C``)
before or after it (``pass`` ends the turn after the race action without
one); each is typed at its own prompt and checked by the engine, whose
reason is the message when it is not possible.

What a human sees is drawn from :meth:`~advisor.cards.game.CardsState.view`
alone (their own cards; the others' hand, face-down and discarded cards
and the deck's order face down), and ``odds`` / ``best`` (``hint``) advise
from that view's position.  The deals and shuffles and every bot's choice
are drawn from :func:`advisor.cli.table.history_rng` (the game's seed and the
actions played so far), so a saved game continues exactly as it would have
without the interruption.  ``undo`` takes back nothing the table has seen
since: a card revealed, a hand card played, a deal or a shuffle (the deck's
order stays; taking back a reveal would show the next card for free).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Callable, Sequence, TextIO

from advisor.errors import AdvisorError
from advisor.cli.table import CHANCE, SEAT, Table, history_rng, run_table, short_text
from advisor.reviews.scoresheet import record_seats
from advisor.cards.actions import BET_KINDS, RACE_KINDS, CardsAction, parse_card_list
from advisor.cards.odds import ADVICE_OTHERS
from advisor.cards.game import FULL_CARDS, CardsGame, CardsSetup, CardsState, apply, legal_actions, overall_payouts, ranking
from advisor.cards.position import CAMELS
from advisor.cards import cards_odds, format_cards_odds
from advisor.cards.bots import CARDS_BOTS, make_cards_bot
from advisor.cards.record import iter_cards_records, replay_cards, write_cards_records
from advisor.cards.steps import step_advice as cards_step_advice

__all__ = ["CardsEngine", "play_cards", "render_cards", "describe_cards", "load_cards_game", "save_cards_game",
           "step_advice", "format_cards_scores", "CARDS_HELP"]

CARDS_HELP = """Type an action or a command:
  deck building (each leg's start): the card to keep in hand, then the card to show, then the cards to put
               face down (e.g. B2, then G1, then O1 W1); the rest are discarded.  Or all at once:
               build:HAND/SHOWN/DOWN/DISCARD, e.g. build:B2/G1/O1W1/Y1
  a turn: one race action, with at most one bet before or after it
  reveal       reveal the race deck's top card: its camel moves 1 or 2
  hand         play your hand card: its camel moves 1 (a +2 card too)
  palm:N       put the palm on empty space N (a unit landing there moves 1 on); fennec:N: 1 back
  leg:C        the top leg-winner card of camel C        mid:C     the leg-midfield card of C
  winner:C     the overall winner card of C              loser:C   the overall loser card of C
  pass         end your turn after the race action without a bet
  odds         leg and race odds, from what you see       best      the advisor's ranking for you (or: hint)
  actions      your legal actions                          table     show the table again
  undo         take back your last action (or your last deck-building choice); not past a card seen
  save FILE    save the game (continue it with: camelup play --load FILE)
  quit         leave the game"""

_KINDS = RACE_KINDS + BET_KINDS + ("pass", "build")
_ADVICE_PRECISION = 0.01  # race odds behind 'best' and 'odds': 95% half-width


def _cards(cards) -> str:
    return " ".join(f"{c}{v}" for c, v in cards) or "-"


def _card(card) -> str:
    return f"{card[0]}+{card[1]}"


def _seat(player: int, seats: Sequence[str] | None, viewer: int | None) -> str:
    if player == viewer:
        return f"P{player} (you)"
    return f"P{player} ({seats[player]})" if seats else f"P{player}"


# --------------------------------------------------------------------------
# What a player sees
# --------------------------------------------------------------------------


def render_cards(view: CardsState, viewer: int, seats: Sequence[str] | None = None) -> str:
    """The table as ``viewer`` sees it, drawn from their view alone
    (:meth:`~advisor.cards.game.CardsState.view`): the track, camels and
    figures, the race deck, the shown, revealed and played cards, the cards
    on offer, every player's money and bets, the viewer's own cards, and of
    the others whether they hold a hand card."""
    s = view.setup
    me = view.players[viewer]
    phase = {"build": "deck building", "turn": "turns"}.get(view.phase, view.phase)
    lines = [f"P{viewer}'s view: leg {view.leg} ({phase}), P{view.current} to "
             f"{'build' if view.phase == 'build' else 'move'}; P{view.start_player} started the leg."]
    cells = [f"start:{dict(view.stacks()).get(0, '') or '-'}"]
    for space in range(1, view.length + 1):
        stack = dict(view.stacks()).get(space, "")
        cell = stack
        for name, at, holder in (("palm", view.palm, view.palm_holder), ("fennec", view.fennec, view.fennec_holder)):
            if at == space:
                cell += f"{name}(P{holder})"
        cells.append(f"{space}:{cell or '.'}")
    lines.append("Track (bottom to top): " + "  ".join(cells) + "  | finish")
    sand = view.track.count("s")
    lines.append(f"Track cards: {view.track} ({view.length} spaces; n: 2 spaces, s: sandstorm side, 1 space"
                 f"{', h: half under the finish, 1 space' if 'h' in view.track else ''}; {sand} sandstorm card(s))."
                 f"  Board: {view.board()}")
    figures = [f"{name} {'on ' + str(at) if at else 'beside the track'}"
               for name, at in (("palm", view.palm), ("fennec", view.fennec))]
    lines.append(f"Figures: {', '.join(figures)}")
    if view.phase == "build":
        lines.append(f"Race deck: being built ({s.decksize} cards: each player shows {s.shown} and puts "
                     f"{s.down} face down).")
    else:
        lines.append(f"Race deck: {len(view.deck)} of {s.decksize} cards left.  Shown: {_cards(view.shown)}.  "
                     f"Revealed: {_cards(view.revealed)}.  Hand cards played: {_cards(view.played)}.")
    legs = "  ".join(f"{c}:{''.join(map(str, st)) or '-'}" for c, st in zip(CAMELS, view.legtiles))
    lines.append(f"On offer: leg-winner cards {legs};  midfield {view.mid or '-'};  overall winner "
                 f"{view.winners or '-'};  overall loser {view.losers or '-'}")
    width = max(len(_seat(i, seats, viewer)) for i in range(s.players))
    for i, p in enumerate(view.players):
        bets = [f"{c}{v}" for c, v in p.leg] + [f"m{c}" for c in p.mid]
        bets += [f"w{p.winner}"] if p.winner else []
        bets += [f"l{p.loser}"] if p.loser else []
        figs = [name for name in ("palm", "fennec") if getattr(view, f"{name}_holder") == i]
        if i == viewer:
            hand = f"hand card {_card(p.hand)}" if p.hand else "no hand card"
        else:
            hand = "a hand card" if p.hand else "no hand card"
        lines.append(f"  {'*' if i == view.current else ' '}{_seat(i, seats, viewer):<{width}}  money {p.money:3d}  "
                     f"bets {' '.join(bets) or '-'}  {hand}"
                     + (f"  holds the {' and '.join(figs)} card" if figs else ""))
    if view.phase == "build":
        if me.dealt:
            lines.append(f"Your dealt cards: {_cards(me.dealt)}.  Keep 1 in hand, "
                         + (f"show {s.shown}, " if s.shown else "") + f"put {s.down} face down into the race deck, "
                         f"discard the other {len(me.dealt) - 1 - s.shown - s.down}.")
        else:
            lines.append(f"Your cards: hand {_card(me.hand) if me.hand else '-'}; shown {_cards(view.shown)}; "
                         f"face down {_cards(me.down)}; discarded {_cards(me.discard)}.")
    else:
        lines.append(f"Your cards: hand {_card(me.hand) if me.hand else '-'}; face down in the deck "
                     f"{_cards(me.down)}; discarded {_cards(me.discard)}.")
    return "\n".join(lines)


def describe_cards(entry: dict, shown: bool) -> str:
    """An action line of a Cards record as the table hears it: the cards of
    a deck building only if ``shown`` (the only listener is its builder);
    a revealed or played card with its move."""
    action = CardsAction.parse(entry["action"])
    kind = action.kind
    if kind == "build":
        if shown:
            parts = [f"kept {_card(action.hand)} in hand"]
            if action.shown:
                parts.append(f"showed {_card(action.shown)}")
            parts += [f"put {_cards(action.down)} face down", f"discarded {_cards(action.discard)}"]
            return "built the race deck: " + ", ".join(parts)
        shows = ", showed a card (face up once the deck is shuffled)" if action.shown else ""
        return (f"built the race deck: kept a card in hand{shows}, put {len(action.down)} face down, "
                f"discarded {len(action.discard)}")
    if kind in ("reveal", "hand"):
        colour, value = entry["card"][0], int(entry["card"][1])
        if kind == "reveal":
            return f"revealed {colour}+{value}: {colour} moves {value}"
        return f"played the hand card {colour}+{value}: {colour} moves 1"
    if kind in ("palm", "fennec"):
        return f"put the {kind} on space {action.space} (takes its card)"
    if kind == "pass":
        return "ends the turn without a bet"
    what = {"leg": "the top leg-winner card", "mid": "the midfield card", "winner": "the overall winner card",
            "loser": "the overall loser card"}[kind]
    return f"took {what} of {action.colour} ({entry['action']})"


# --------------------------------------------------------------------------
# Saving and loading
# --------------------------------------------------------------------------


def save_cards_game(record: Sequence[dict], path: str | os.PathLike) -> Path:
    """Write one Cards game record as JSON lines to ``path`` (beside it,
    then renamed into place: ``path`` only ever holds a whole record)."""
    write_cards_records([list(record)], path)
    return Path(path)


def load_cards_game(path: str | os.PathLike, index: int = 0) -> list[dict]:
    """Game ``index`` of the JSON lines file ``path`` of Cards records,
    checked by replaying it; it must be unfinished.  Raises
    :class:`AdvisorError` with one line naming what is wrong."""
    count = 0
    record = None
    try:
        for _, game in iter_cards_records(path):
            if count == index:
                record = game
                break
            count += 1
    except AdvisorError as exc:
        raise AdvisorError(f"saved game: {exc}") from None
    if record is None:
        raise AdvisorError(f"--game {index}: {path} holds {count} game(s)")
    try:
        game = replay_cards(record)
    except AdvisorError as exc:
        raise AdvisorError(f"game {index} of {path} is not a valid record: {exc}") from None
    if game.finished:
        money = [p.money for p in game.state.players]
        raise AdvisorError(f"game {index} of {path} is over (final money {money}): nothing to continue")
    return game.record


# --------------------------------------------------------------------------
# The engine adapter
# --------------------------------------------------------------------------


class CardsEngine:
    """Camel Up Cards as :class:`advisor.cli.table.Table` drives it (see
    :class:`advisor.cli.table.BoardEngine` for what an engine answers)."""

    help = CARDS_HELP
    commands = ("actions", "odds", "best", "hint")
    cards = True  # the game: Camel Up Cards (measured compile forms "cards-...")
    undo_note = "The cards stay as they were dealt and shuffled."

    def __init__(self, game: CardsGame):
        self.game = game
        self.building: dict[int, list] = {}  # a human's deck-building choices so far: hand, shown, down
        self.partial: int | None = None  # a bot's turn under way: the record length at its start
        self.before: CardsState | None = None
        self.settle()

    # ------------------------------------------------------------ the game
    @property
    def state(self) -> CardsState:
        return self.game.state

    @property
    def record(self) -> list[dict]:
        return self.game.record

    @property
    def saved_record(self) -> list[dict]:
        """The record to save: during a bot's turn, up to its start (the bot
        plays the whole turn again on loading, as it chose it)."""
        return self.game.record if self.partial is None else self.game.record[:self.partial]

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def to_move(self) -> int:
        return self.state.current

    @property
    def turns(self) -> int:
        return self.game.turns

    def where(self) -> str:
        return f"leg {self.state.leg}, action {self.game.turns + 1}"

    def make_bot(self, name: str):
        return make_cards_bot(name)

    def settle(self) -> None:
        """Run the chance steps due (deal, shuffle), drawn from the game's
        seed and the actions so far."""
        while self.state.phase in ("deal", "shuffle"):
            rng = history_rng(self.game.record, CHANCE)
            if self.state.phase == "deal":
                cards = list(FULL_CARDS)
            else:
                cards = sorted(self.state.shown + tuple(c for p in self.state.players for c in p.down))
            self.game.chance(tuple(cards[i] for i in rng.permutation(len(cards))))

    def apply(self, action: str) -> dict:
        self.before = self.state
        entry = self.game.play(action)
        self.settle()
        return entry

    def news(self) -> str:
        """What the table learns after an action besides the action: a leg
        scored and the next one's track and start player; a shuffled deck."""
        before, after = self.before, self.state
        if before is None or after.over:
            return ""
        lines = []
        if after.leg > before.leg:
            order = "".join(ranking(after.sp, after.ht))
            pay = ", ".join(f"P{i} {p.money} ({p.money - q.money:+d})"
                            for i, (p, q) in enumerate(zip(after.players, before.players)))
            lines.append(f"Leg {before.leg} is over (first to last: {order}); money after its scoring: {pay}.")
            track = f"track {after.track}" + (" (sandstorm or extension: was " + before.track + ")"
                                             if after.track != before.track else "")
            lines.append(f"Leg {after.leg}: {track}; figures beside the track; P{after.start_player} (the poorest) "
                         "starts. The cards are dealt: each player builds the race deck.")
        if before.phase == "build" and after.phase == "turn":
            lines.append(f"The race deck is shuffled: {len(after.deck)} cards; shown cards {_cards(after.shown)}.")
        return "\n".join(lines)

    def bot_actions(self, p: int, bot):
        """A bot's whole turn (or its deck building), action by action."""
        self.partial = len(self.game.record)  # kept if the turn is cut short (Ctrl-C): saves stop before it
        while True:
            yield str(bot.choose(self.state, p, history_rng(self.game.record, SEAT + p)))
            s = self.state
            if s.over or s.current != p or s.phase != "turn" or not (s.raced or s.bet):
                break
        self.partial = None

    def describe(self, entry: dict, shown: bool) -> str:
        return describe_cards(entry, shown)

    def render(self, p: int, seats: Sequence[str]) -> str:
        return render_cards(self.state.view(p), p, seats)

    def show_table(self, p: int) -> bool:
        s = self.state
        return not (s.phase == "turn" and s.bet and not s.raced)  # a bet before the race: the board is as shown

    @property
    def in_turns(self) -> bool:
        """Whether the players now take turns (not building the race deck)."""
        return self.state.phase == "turn"

    def prompt(self, p: int) -> str:
        s = self.state
        if s.phase == "build":
            step = self._step(p)
            return {"hand": f"P{p} keep in hand> ", "shown": f"P{p} show> ",
                    "down": f"P{p} face down ({s.setup.down} cards)> "}[step]
        if s.raced:
            return f"P{p} bet or pass> "
        if s.bet:
            return f"P{p} race action> "
        return f"P{p} action> "

    # ------------------------------------------------------------ a human's entries
    def _steps(self) -> list[str]:
        setup = self.state.setup
        return ["hand"] + (["shown"] if setup.shown else []) + (["down"] if setup.down else [])

    def _step(self, p: int) -> str:
        return self._steps()[len(self.building.get(p, []))]

    def _left(self, p: int) -> Counter:
        left = Counter(self.state.players[p].dealt)
        for choice in self.building.get(p, []):
            left.subtract(Counter(choice))
        return left

    def entry(self, p: int, line: str) -> str | None:
        s = self.state
        if s.phase == "build":
            return self._build_entry(p, line)
        kind, sep, arg = line.partition(":")
        kind, arg = kind.strip().lower(), arg.strip()
        if kind not in _KINDS:
            raise AdvisorError(f"{short_text(line)} is not an action or a command (type 'help').")
        action = CardsAction.parse(kind + sep + (arg.upper() if kind in BET_KINDS else arg))
        try:
            apply(s, action)  # pure: raises with the engine's reason when not possible
        except AdvisorError as exc:
            reason = str(exc)
            raise AdvisorError(reason if reason.startswith(str(action)) else f"{action}: {reason}") from None
        return str(action)

    def _build_entry(self, p: int, line: str) -> str | None:
        s = self.state
        if line.lower().startswith("build:"):
            action = CardsAction.parse("build:" + line.split(":", 1)[1].replace(" ", "").upper())
            apply(s, action)
            self.building.pop(p, None)
            return str(action)
        step = self._step(p)
        left = self._left(p)
        text = "".join(line.replace("+", "").replace(",", " ").split()).upper()
        try:
            cards = parse_card_list(text, line)
        except AdvisorError:
            raise AdvisorError(f"{short_text(line)}: deck building now; give cards as colour and value, e.g. "
                               f"{_cards([next(iter(+left))])} (your cards left: {_cards(sorted((+left).elements()))})"
                               ) from None
        want = {"hand": 1, "shown": 1, "down": s.setup.down}[step]
        what = {"hand": "the card to keep in hand", "shown": "the card to show",
                "down": f"the {want} cards to put face down"}[step]
        if len(cards) != want:
            raise AdvisorError(f"give {what}: {want} card{'s' if want != 1 else ''}, not {len(cards)}")
        if Counter(cards) - left:
            raise AdvisorError(f"{_cards(cards)}: not among your cards left ({_cards(sorted((+left).elements()))})")
        chosen = self.building.setdefault(p, [])
        chosen.append(tuple(cards))
        if len(chosen) < len(self._steps()):
            return None
        picked = dict(zip(self._steps(), chosen))
        hand = picked["hand"][0]
        shown = picked["shown"][0] if "shown" in picked else None
        down = picked.get("down", ())
        discard = tuple(sorted((left - Counter(cards)).elements()))
        del self.building[p]
        return str(CardsAction("build", hand=hand, shown=shown, down=down, discard=discard))

    # ------------------------------------------------------------ commands
    def command(self, p: int, word: str) -> str:
        s = self.state
        view = s.view(p)
        if word == "actions":
            if s.phase == "build":
                step = {"hand": "the card to keep in hand", "shown": "the card to show",
                    "down": f"the {s.setup.down} cards to put face down"}[self._step(p)]
            return (f"Deck building: type {step}, from {_cards(sorted((+self._left(p)).elements()))} "
                    "(or the whole building: build:H/S/D/X)")
            return " ".join(str(a) for a in legal_actions(view))
        if s.phase != "turn":
            raise AdvisorError("the odds and the advice come with the leg's turns: first the race deck is built")
        if word == "odds":
            return format_cards_odds(cards_odds(view.position(p), precision=_ADVICE_PRECISION, seed=0))
        return _best_text(s, p)

    # ------------------------------------------------------------ undo
    def undo_step(self, p: int) -> str | None:
        chosen = self.building.get(p)
        if not chosen:
            return None
        taken = chosen.pop()
        step = self._step(p)
        return f"Taken back: {_cards(taken)} ({step}). Choose again: {self.prompt(p).strip()}"

    def undo_problem(self, taken: Sequence[dict]) -> str | None:
        for e in taken:
            if e.get("type") in ("deal", "shuffle") or e.get("action") in ("reveal", "hand"):
                seen = {"deal": "cards were dealt", "shuffle": "the deck was shuffled and the shown cards seen",
                        "reveal": "a card was revealed", "hand": "a hand card was played"}
                return (f"undo cannot take back what the table has seen: {seen[e.get('action', e['type'])]} since "
                        "your last action (the deck's order stays)")
        return None

    def replay(self, record: list[dict]) -> "CardsEngine":
        return CardsEngine(replay_cards(record))

    # ------------------------------------------------------------ start and end
    def start_line(self, n: int, fresh: bool) -> str:
        s, game = self.state, self.game
        setup = s.setup
        text = (f"Camel Up Cards, {n} players, seed {game.seed}; track {setup.track}, a race deck of "
                f"{setup.decksize} cards, {setup.start_money} coins each")
        if fresh:
            return text + "."
        return text + f": continuing at leg {s.leg}, action {game.turns + 1}."

    def finish(self, table: Table) -> None:
        s = self.state
        record = self.game.record
        order = ranking(s.sp, s.ht)
        table.say()
        table.say(f"The race is over: {order[0]} wins, {order[-1]} is last (final board {s.board()}).")
        table.say()
        table.say(format_cards_scores(record, s, [table.name(i) for i in range(s.setup.players)]))
        table.say()
        table.say("Winner(s): " + ", ".join(f"{table.name(i)} with {s.players[i].money} coins"
                                            for i in s.winners_of_game()) + ".")

    def save(self, record: Sequence[dict], path: Path) -> None:
        save_cards_game(record, path)


def format_cards_scores(record: Sequence[dict], state: CardsState, names: Sequence[str]) -> str:
    """Each player's money leg by leg (the money after each leg's scoring,
    the last leg with the overall cards) and the overall cards' payout."""
    n = state.setup.players
    start = record[0]["start_money"]
    ends = []  # money after each leg's scoring, from the action lines that ended a leg
    entries = list(record)
    for k, e in enumerate(entries):
        if e.get("type") == "action" and k + 1 < len(entries) and entries[k + 1].get("type") in ("deal", "end"):
            ends.append(e["money"])
    order = ranking(state.sp, state.ht)
    overall = overall_payouts(state, order)
    width = max(len("player"), *(len(x) for x in names))
    titles = [f"leg {i + 1}" for i in range(len(ends))]
    if titles:
        titles[-1] += "+end"
    head = f"  {'player':<{width}}  start" + "".join(f"  {t:>8}" for t in titles) + "  final  overall cards"
    lines = ["Scoring (coins; each leg's change after its scoring and the money floor; the last leg with the "
             "overall cards):", head]
    for i in range(n):
        cells, prev = [], start
        for money in ends:
            cells.append(f"  {money[i] - prev:>+8d}")
            prev = money[i]
        p = state.players[i]
        held = ([f"winner {p.winner}"] if p.winner else []) + ([f"loser {p.loser}"] if p.loser else [])
        lines.append(f"  {names[i]:<{width}}  {start:5d}" + "".join(cells) + f"  {p.money:5d}  "
                     + (f"{', '.join(held)}: {overall[i]:+d}" if held else "-"))
    return "\n".join(lines)


def step_advice(state: CardsState, player: int, *, seed: int | None = 0, precision: float | None = None,
                others: str = ADVICE_OTHERS, progress: bool | None = None, objective: str = "ev"):
    """The advisor's ranking for ``player`` at the step of the turn they
    are at, from their view (:func:`advisor.cards.steps.step_advice`,
    ranked by ``objective``); ``precision`` by default the table's."""
    precision = _ADVICE_PRECISION if precision is None else precision
    return cards_step_advice(state, player, seed=seed, precision=precision, others=others, progress=progress,
                             objective=objective)


def _best_text(state: CardsState, player: int) -> str:
    frame = step_advice(state, player)
    if state.raced:
        title = "a bet now, or pass"
    elif state.bet:
        title = "your race action, your bet taken"
    else:
        title = "whole turns: a race action with an optional bet before or after it"
    rows = [f"  {r.action:<24} {r.timing:<7} EV {r.ev:+.3f}" for r in frame.head(10).itertuples()]
    return (f"The advisor's ranking (top 10; {title}), from what you see "
            f"(camelup best '{frame.attrs['position']}'):\n" + "\n".join(rows))


def _check_seats(seats: Sequence[str], players: int | None = None) -> list[str]:
    seats = list(seats)
    for seat in seats:
        if seat != "human" and seat not in CARDS_BOTS:
            raise AdvisorError(f"unknown seat {seat!r}: use human or a Camel Up Cards bot ({', '.join(CARDS_BOTS)})")
    if players is not None and len(seats) != players:
        raise AdvisorError(f"{len(seats)} seats for a game of {players} players: give one per player")
    if not 2 <= len(seats) <= 6:
        raise AdvisorError(f"Camel Up Cards is for 2-6 players: {len(seats)} seats given")
    return seats


def play_cards(seats: Sequence[str] | None = None, *, setup: CardsSetup | None = None, seed: int | None = None,
               read: Callable[[str], str] | None = None, out: TextIO | None = None,
               record: Sequence[dict] | None = None, autosave: str | os.PathLike | None = None,
               source: str | os.PathLike | None = None, rehearse: bool = False, notice=None) -> CardsGame:
    """Play a Camel Up Cards game; ``seats[i]`` is ``"human"`` or a Cards
    bot name (``random``, ``heuristic``, ``greedy``).  ``setup``: the set-up
    numbers (default: the defaults for the number of seats).  The rest as
    :func:`advisor.cli.table.play`: ``record`` an unfinished record to continue
    (its seats by default), ``autosave`` a file saved after every action,
    ``source`` the file loaded (never written), ``rehearse`` and ``notice``
    the kernels compiled while the first human reads the table; Ctrl-C raises
    :class:`advisor.errors.Interrupted` saying where the game is kept."""
    if record is not None:
        game = replay_cards(list(record))
        if game.finished:
            raise AdvisorError("the game of this record is over: nothing to continue")
        seats = seats or record_seats(game.record[0])  # the seats of camelup play, the bots of simulate
        if seats is None:
            raise AdvisorError("the record does not name its seats: give them (--seats)")
        seats = _check_seats(seats, game.setup.players)
    else:
        if seats is None:
            raise AdvisorError("give the seats: human or a bot name per player")
        seats = _check_seats(seats, setup.players if setup else None)
        game = CardsGame(setup or CardsSetup(players=len(seats)), seed, draw=False)
    return run_table(CardsEngine(game), seats, read=read, out=out, fresh=record is None, autosave=autosave,
                     source=source, rehearse=rehearse, notice=notice).game
