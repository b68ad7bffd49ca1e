"""Camel Up Cards games on the web page.

The server holds no game: the browser keeps the record (the JSON-lines
game record of :class:`advisor.cards.game.CardsGame`, every card in it, as
``camelup simulate`` writes it and as the page saves it) and sends it with
each request.  Each request replays it, every line checked
(:func:`advisor.cards.record.replay_cards`), then plays the action asked
for, then the bots' moves until a human is to move.

The setup line names the seats (``"seats"``: ``"human"`` or a Camel Up Cards
bot, as ``camelup play`` writes them; records of ``camelup simulate`` name
their ``"bots"``).  Chance continues from the game's seed: a record whose
deals and shuffles are those its seed draws (every game the page starts)
is continued exactly as :class:`CardsGame` would continue it, so a game
played on the page is the game the engine plays with the same seed and
actions.  A bot's decision draws from its own stream ``(seed, seat,
actions so far)``, so the same record always gets the same bot moves.

What a request answers (:func:`cards_view`) is the game as one player may
see it: the human to move while the game runs (their hand card, dealt
cards, face-down and discarded cards; of the others only what is public:
money, bets, whether they still hold a hand card), and every step of the
game once it is over (a review: at each step the player to move's view).
The ``record`` field is the whole record, which the browser keeps to send
back and to save; nothing else in the answer holds a hidden card of
another player.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from advisor.cards.actions import CardsAction, card_text
from advisor.cards.bots import make_cards_bot
from advisor.cards.game import CardsGame, CardsSetup, ranking
from advisor.cards.record import is_cards_record, replay_cards
from advisor.errors import AdvisorError, IllegalActionError
from advisor.game import RecordError
from advisor.rules.editions import CAMEL_NAMES

__all__ = ["SEATS", "SEATS_TEXT", "VALUING", "DEFAULT_SEATS", "check_seats", "record_seats_of", "cards_new", "cards_replay",
           "cards_act", "cards_view", "cards_table", "cards_summaries", "advice_step", "MAX_CARDS_RECORD"]

#: What a seat can be: a human at the page, or one of the Camel Up Cards bots.
SEATS = ("human", "random", "heuristic", "greedy", "shark", "margin")
#: The seats that value every turn (a move takes a tenth of a second or more).
VALUING = ("greedy", "shark", "margin")
#: What a seat may be, in words (the messages and the form's help).
SEATS_TEXT = f"human or a bot ({', '.join(SEATS[1:])})"
#: Seats of a new game when none are given: a human, then the bots (one
#: greedy: it values every turn, seconds per move).
DEFAULT_SEATS = ("human", "heuristic", "greedy", "random", "random", "random")
#: Longest record replayed (a game has about 150 lines).
MAX_CARDS_RECORD = 5000


def _card(card) -> str:
    return f"{card[0]}+{card[1]}"


def _cards(cards) -> str:
    return ", ".join(_card(c) for c in cards) or "none"


# --------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------


def check_seats(seats: Any, players: int) -> list[str]:
    """``seats`` as a list of seat names, one per player, at least one human."""
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise IllegalActionError(f"seats: a list of seat names, {SEATS_TEXT}")
    for seat in seats:
        if seat not in SEATS:
            raise IllegalActionError(f"seats: unknown seat {seat[:20]!r} (human, {', '.join(SEATS[1:])})")
    if len(seats) != players:
        raise IllegalActionError(f"seats: {len(seats)} seats for a game of {players} players: one per player")
    if "human" not in seats:
        raise IllegalActionError("seats: at least one human (a game of bots alone: camelup simulate --edition cards)")
    return list(seats)


def record_seats_of(head: dict, players: int) -> list[str]:
    """The seats a setup line names (``seats``, else ``bots``); a record that
    names neither has a human in every seat."""
    seats = head.get("seats", head.get("bots"))
    if seats is None:
        return ["human"] * players
    if (not isinstance(seats, list) or len(seats) != players
            or not all(isinstance(s, str) and s in SEATS for s in seats)):
        raise RecordError(f"line 1 of the game: seats must name one seat per player (human, {', '.join(SEATS[1:])})")
    return list(seats)


# --------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------


def _check_record(record: Any) -> None:
    if not isinstance(record, list) or not record or not all(isinstance(e, dict) for e in record):
        raise RecordError("a game record is a non-empty list of entries (its JSON lines)")
    if len(record) > MAX_CARDS_RECORD:
        raise RecordError(f"the record has {len(record)} entries; at most {MAX_CARDS_RECORD} are replayed")
    if not is_cards_record(record):
        raise RecordError("a Camel Up Cards game record starts with its setup line (game: cards)")
    seed = record[0].get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RecordError("line 1 of the game: seed must be a whole number 0..2**63-1")


class Replayed:
    """A record replayed: ``game`` (the :class:`CardsGame` at its end),
    ``steps`` (the state at the start and after each action, the chance
    steps it caused included), ``turn_starts`` (the state at the start of
    every player turn, as :func:`advisor.plotting.cards_game_odds` counts
    them) and ``actions`` (the record's action lines, in order)."""

    def __init__(self, record: list[dict]):
        _check_record(record)
        self.steps = []
        self.turn_starts = []

        def visit(game) -> None:
            s = game.state
            if game.turns == len(self.steps) - 1:
                self.steps[-1] = s  # a chance step after an action: part of its step
            else:
                self.steps.append(s)
            if s.phase == "turn" and not s.raced and not s.bet:
                self.turn_starts.append(s)

        try:
            self.game = replay_cards(record, visit=visit)
        except AdvisorError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            detail = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
            raise RecordError(f"not a valid Camel Up Cards game record: {detail[:200]}") from None
        if not self.steps:  # a record of its setup line alone: no deal yet
            self.steps.append(self.game.state)
        self.record = record
        self.actions = [e for e in record if e.get("type") == "action"]
        self.seats = record_seats_of(record[0], self.game.setup.players)


def _live(rep: Replayed):
    """The game of ``rep`` ready to go on: its chance steps continue from the
    seed when the record's deals and shuffles are those its seed draws (the
    engine replayed from the seed with the same actions gives the same
    lines); otherwise from the stream ``(seed, record length)``."""
    record = rep.record
    head = record[0]
    seed = head["seed"]
    try:
        live = CardsGame(rep.game.setup, seed=seed)
        for entry in rep.actions:
            live.play(entry["action"])
    except AdvisorError:
        live = None
    if live is not None:
        same_head = all(live.record[0].get(k) == head.get(k) for k in live.record[0])
        extra = live.record[len(record):]
        if (same_head and live.record[1:len(record)] == record[1:]
                and all(e.get("type") in ("deal", "shuffle", "end") for e in extra)):
            live.record[0] = dict(head)
            return live
    game = rep.game
    game.rng = np.random.default_rng([seed, len(record)])
    game.draw = True
    if not game.finished:
        game.chance()
    return game


def _play_bots(game, seats: list[str]) -> None:
    """The bots move until a human is to move or the game is over."""
    if "human" not in seats:
        return
    seed = game.record[0]["seed"]
    bots: dict[int, Any] = {}
    while not game.finished and seats[game.state.current] != "human":
        p = game.state.current
        bot = bots.setdefault(p, make_cards_bot(seats[p]))
        game.play(bot.choose(game.state, p, np.random.default_rng([seed, p, game.turns])))


# --------------------------------------------------------------------------
# The game as one player sees it
# --------------------------------------------------------------------------


def advice_step(state) -> str | None:
    """Which advice fits the player to move: ``turn`` (a whole turn: race
    action and optional bet), ``race`` (the bet of this turn is taken: the
    race action), ``bet`` (the race action is done: a bet or pass); None
    outside a leg's turns."""
    if state.phase != "turn":
        return None
    if state.raced:
        return "bet"
    return "race" if state.bet else "turn"


def cards_table(state, viewer: int | None) -> dict:
    """The table as player ``viewer`` sees it (None: as a spectator): the
    track, camels, figures, the cards on offer, the public cards of the leg
    (shown cards once the deck is shuffled, the revealed pile, hand cards
    played), every player's money and bets, and the viewer's own cards
    (hand card, dealt, face-down and discarded cards).  ``position`` is the
    viewer's position for the advice (during a leg's turns)."""
    in_leg = state.phase in ("turn", "over")
    players = []
    for i, p in enumerate(state.players):
        row: dict[str, Any] = {
            "money": p.money, "leg": [f"{c}{v}" for c, v in p.leg], "mid": "".join(p.mid),
            "winner": p.winner, "loser": p.loser, "has_hand": p.hand is not None,
            "figures": [name for name in ("palm", "fennec")
                        if getattr(state, name) and getattr(state, f"{name}_holder") == i],
            "building": state.phase == "build" and bool(p.dealt),
        }
        if i == viewer:
            row.update(hand=card_text([p.hand]) if p.hand else None, dealt=card_text(p.dealt),
                       down=card_text(p.down), discard=card_text(p.discard))
        players.append(row)
    figure = {}
    for name in ("palm", "fennec"):
        space = getattr(state, name)
        figure[name] = {"space": space, "holder": getattr(state, f"{name}_holder")} if space else None
    step = advice_step(state)
    out = {
        "phase": state.phase, "leg": state.leg, "current": state.current, "start_player": state.start_player,
        "viewer": viewer, "step": step,
        "track": state.track, "length": state.length,
        "stacks": [[space, camels] for space, camels in state.stacks()],
        **figure,
        "deck": len(state.deck), "decksize": state.setup.decksize,
        "shown": card_text(state.shown) if in_leg else "",
        "revealed": card_text(state.revealed), "played": card_text(state.played),
        "legtiles": {c: list(stack) for c, stack in zip("BGOWY", state.legtiles)},
        "mid": state.mid, "winners": state.winners, "losers": state.losers,
        "players": players,
        "board": state.board(),
        "spectator": str(state.position(None)) if state.phase == "turn" else None,
        "position": str(state.position(viewer)) if state.phase == "turn" and viewer is not None else None,
    }
    return out


def _describe(before, entry: dict, after, *, over: bool) -> str:
    """One line about an action of the record, in words, with what it
    caused (leg scoring, sandstorm, track extension, race end).  Others'
    deck building is told without its hidden cards unless the game is
    ``over`` (a review: every card is known then)."""
    who = f"P{entry['player'] + 1}"  # players are read from 1; the record counts from 0
    action = CardsAction.parse(entry["action"])
    kind = action.kind
    name = CAMEL_NAMES.get(action.colour or "", "")
    if kind == "build":
        if over:
            text = (f"{who} built the race deck: kept {_card(action.hand)} in hand"
                    + (f", showed {_card(action.shown)}" if action.shown else "")
                    + f", put {_cards(action.down)} face down, discarded {_cards(action.discard)}")
        else:
            text = (f"{who} built the race deck: kept a card in hand, "
                    + ("showed one, " if action.shown else "")
                    + f"put {len(action.down)} face down, discarded {len(action.discard)}")
    elif kind == "reveal":
        card = entry["card"]
        text = f"{who} revealed {card[0]}+{card[1]}: {CAMEL_NAMES[card[0]]} moves {card[1]}"
    elif kind == "hand":
        card = entry["card"]
        text = f"{who} played their hand card {card[0]}+{card[1]}: {CAMEL_NAMES[card[0]]} moves 1"
    elif kind in ("palm", "fennec"):
        text = f"{who} put the {kind} on space {action.space}"
    elif kind == "leg":
        value = before.legtiles["BGOWY".index(action.colour)][0]
        text = f"{who} took the {name} leg-winner card ({value})"
    elif kind == "mid":
        text = f"{who} took the {name} midfield card"
    elif kind in ("winner", "loser"):
        old = getattr(before.players[entry["player"]], kind)
        text = f"{who} took the {name} overall {kind} card" + (f" (the {CAMEL_NAMES[old]} one goes back)" if old else "")
    else:
        text = f"{who} ended the turn without a bet"
    extra = []
    if kind in ("reveal", "hand") and after.leg == before.leg and after.phase != "over":
        for fig in ("palm", "fennec"):
            if getattr(before, fig) and not getattr(after, fig):
                extra.append(f"the {fig} left the track")
    if after.phase == "over" or after.leg != before.leg:
        if after.phase == "over":
            order = ranking(after.sp, after.ht)
            extra.append(f"the race is over: {CAMEL_NAMES[order[0]]} wins, {CAMEL_NAMES[order[-1]]} comes last; "
                         f"the leg and the overall cards are scored")
        else:
            extra.append(f"leg {before.leg} is over and scored")
        change = [f"P{i + 1} {b.money}→{a.money}" for i, (b, a) in enumerate(zip(before.players, after.players))]
        extra.append("money " + ", ".join(change))
        if after.phase != "over":
            turned = sum(1 for x, y in zip(before.track, after.track) if x == "n" and y == "s")
            if turned:
                extra.append(f"sandstorm: {turned} track card{'s' if turned > 1 else ''} turned")
            if after.length > before.length - turned:
                extra.append(f"the track is extended to {after.length} spaces")
            extra.append(f"leg {after.leg}: the cards are dealt, P{after.start_player + 1} starts")
    if kind == "build" and after.phase == "turn":
        extra.append(f"the race deck ({len(after.deck)} cards) is shuffled"
                     + (f"; shown: {_cards(after.shown)}" if after.shown else ""))
    return text + ("; " + "; ".join(extra) if extra else "")


def cards_view(record: list[dict], rep: Replayed | None = None) -> dict:
    """Everything the page shows of a Camel Up Cards game (see the module
    docstring): the human to move's view while it runs, every step once it
    is over."""
    rep = rep or Replayed(record)
    game = rep.game
    st = game.state
    seats = rep.seats
    finished = game.finished
    setup = game.setup
    viewer = None
    if not finished and st.phase in ("build", "turn") and seats[st.current] == "human":
        viewer = st.current
    log = [_describe(rep.steps[k], entry, rep.steps[k + 1], over=finished) for k, entry in enumerate(rep.actions)]
    curve_boards = [str(s.position(None)) for s in rep.turn_starts]
    out: dict[str, Any] = {
        "record": record,
        "edition": "cards",
        "players": setup.players,
        "seats": seats,
        "setup": {"track": setup.track, "start_money": setup.start_money, "dealt": setup.dealt,
                  "shown": setup.shown, "down": setup.down, "decksize": setup.decksize},
        "phase": st.phase,
        "legs": st.leg,
        "turns": game.turns,
        "to_move": None if finished else st.current,
        "viewer": viewer,
        "finished": finished,
        "legal": [str(a) for a in game.legal_actions()] if viewer is not None else [],
        "table": cards_table(st, viewer),
        "board": st.board(),
        "log": log,
        "curve_boards": curve_boards,
        "curve_legs": [s.leg for s in rep.turn_starts],
        "summary": None,
        "steps": None,
    }
    if viewer is not None and st.phase == "build":
        me = st.players[viewer]
        out["build"] = {"dealt": card_text(me.dealt), "hand": 1, "shown": setup.shown, "down": setup.down,
                        "discard": setup.dealt - 1 - setup.shown - setup.down}
    if finished:
        order = ranking(st.sp, st.ht)
        summary = game.summary()
        out["summary"] = {**summary, "order": "".join(order), "winner_camel": order[0], "loser_camel": order[-1]}
        # a review: every step as the player to move then saw it
        starts = {id(s): k for k, s in enumerate(rep.turn_starts)}
        steps = []
        index = 0
        for s in rep.steps:
            index = starts.get(id(s), index)
            who = s.current if s.phase in ("build", "turn") else None
            steps.append({**cards_table(s, who), "curve_index": index})
        out["steps"] = steps
    return out


# --------------------------------------------------------------------------
# The tasks
# --------------------------------------------------------------------------


def cards_new(players: int | None, seed: int | None, seats: list[str] | None, track: str | None) -> dict:
    """A new game: the setup card's numbers for ``players`` (default: as
    many as ``seats``, else 4), the set-up moves and the first deal drawn
    from ``seed``; the bots move until a human is to move."""
    n = players if players is not None else len(seats) if seats is not None else 4
    setup = CardsSetup(players=n, track=track or "")
    seats = check_seats(list(seats) if seats is not None else list(DEFAULT_SEATS[:n]), n)
    game = CardsGame(setup, seed=seed)
    game.record[0]["seats"] = seats
    _play_bots(game, seats)
    return cards_view(game.record)


def cards_replay(record: list[dict]) -> dict:
    """The view of a record.  A record cut before a chance step gets it
    drawn; one cut at a bot's move gets the bots' moves."""
    rep = Replayed(record)
    st = rep.game.state
    pending = st.phase in ("deal", "shuffle")
    bots_next = "human" in rep.seats and not rep.game.finished and rep.seats[st.current] != "human"
    if not pending and not bots_next:
        return cards_view(record, rep)
    game = _live(rep)
    _play_bots(game, rep.seats)
    return cards_view(game.record)


def cards_act(record: list[dict], action: str) -> dict:
    """Replay ``record``, play ``action`` for the human to move, then the
    bots until a human is to move."""
    rep = Replayed(record)
    game = rep.game
    if game.finished:
        raise IllegalActionError("the game is over")
    p = game.state.current
    if rep.seats[p] != "human":
        raise IllegalActionError(f"P{p + 1} is a bot ({rep.seats[p]}): it moves by itself")
    live = _live(rep)
    live.play(action)
    _play_bots(live, rep.seats)
    return cards_view(live.record)


def cards_summaries(games: list[list[dict]]) -> list[dict]:
    """A line about each game of a file (for the page's game picker)."""
    out = []
    for k, rec in enumerate(games):
        head, end = rec[0], rec[-1]
        seats = head.get("seats", head.get("bots"))
        out.append({
            "index": k, "edition": "cards", "players": head.get("players"),
            "bots": seats if isinstance(seats, list) else None,
            "turns": sum(1 for e in rec if isinstance(e, dict) and e.get("type") == "action"),
            "winner_camel": None,
            "winners": end.get("winners") if end.get("type") == "end" else None,
        })
    return out
