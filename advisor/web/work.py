"""What the web API computes, as plain functions of JSON-like data.

The server validates each request in its own process (:mod:`.inputs`), then
hands the work to a pool of worker processes (:mod:`.pool`), which call
:func:`run` with a task name and its arguments.  Arguments and results are
plain data (strings, numbers, lists, dicts): they cross process borders
and go out as JSON.  Every figure comes from the package's public
functions; nothing here implements a rule of the game.

A user error (:class:`advisor.AdvisorError`) comes back as
``{"error": message, "token": token}``; anything else is a bug and raises.
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any, Callable

from advisor import inputs as reader
from advisor.bots.inference import face_down_json, infer_view
from advisor.cards import cards_best, cards_odds, parse_cards
from advisor.cards.best import rank_turns
from advisor.cards.odds import ADVICE_OTHERS, ODDS_OTHERS
from advisor.cards.position import cards_str
from advisor.cards.record import is_cards_record, read_cards_records
from advisor.cards.rival import rival_player
from advisor.errors import AdvisorError, IllegalActionError
from advisor.game import Game, read_records, replay
from advisor.notation import parse_position
from advisor.odds.exact import leg_odds
from advisor.odds.montecarlo import race_odds
from advisor.present.jsonout import best_json, cards_best_json, cards_odds_json, odds_json
from advisor.rules.actions import Action, Roll
from advisor.rules.editions import CAMEL_NAMES
from advisor.rules.state import GameState
from advisor.rules.turn import UnrevealedCards, unrevealed
from advisor.valuation.context import Valuation
from advisor.valuation.engine import best_moves, rank_rows
from advisor.web.cardsgame import cards_act, cards_new, cards_replay, cards_summaries

__all__ = ["run", "TASKS", "MAX_RECORD_ENTRIES", "MAX_CURVE_BOARDS", "game_view", "position_json",
           "cards_json"]

#: Longest game record the API replays (a real game has about 70 turns).
MAX_RECORD_ENTRIES = 5000
#: Boards per request of the odds curves.
MAX_CURVE_BOARDS = 400


class RecordError(AdvisorError):
    """A game record that cannot be replayed."""


# --------------------------------------------------------------------------
# Positions as the page edits them
# --------------------------------------------------------------------------


def position_json(pos) -> dict:
    """A board-game position as the page's editor holds it."""
    return {
        "game": pos.rules.name,
        "board": str(pos),
        "stacks": [[space, camels] for space, camels in pos.stacks],
        "tiles": [{"space": t.space, "sign": t.sign, "owner": t.owner} for t in pos.tiles],
        "dice": pos.dice,
        "legtiles": {c: list(stack) for c, stack in zip(pos.racing, pos.legtiles)},
    }


def cards_json(pos) -> dict:
    """A Camel Up Cards position as the page's editor holds it."""
    figure = lambda f: None if f is None else {"space": f[0], "holder": f[1]}  # noqa: E731
    return {
        "game": "cards",
        "board": str(pos),
        "players": pos.players,
        "track": pos.track,
        "length": pos.length,
        "stacks": [[space, camels] for space, camels in pos.stacks],
        "palm": figure(pos.palm),
        "fennec": figure(pos.fennec),
        "deck": pos.deck,
        "decksize": pos.decksize,
        "known": cards_str(pos.known),
        "revealed": cards_str(pos.revealed),
        "out": cards_str(pos.out),
        "hand": cards_str([pos.hand]) if pos.hand else None,
        "legtiles": {c: list(stack) for c, stack in zip("BGOWY", pos.legtiles)},
        "mid": pos.mid,
        "winners": pos.winners,
        "losers": pos.losers,
        "bets": list(pos.bets),
        "money": pos.money,
        "figure_spaces": pos.figure_spaces(),
    }


# --------------------------------------------------------------------------
# Odds and advice
# --------------------------------------------------------------------------


def leg(board: str) -> dict:
    """Stage 1: the exact leg odds, P(the race ends in this leg) and the
    expected landings on every tile."""
    pos = parse_position(board)
    odds = leg_odds(pos)
    return {"odds": odds_json(pos, odds), "race_ends": float(odds.race_ends),
            "landings": {str(k): v for k, v in odds.expected_landings().items()}}


def race(board: str, precision: float, seed: int) -> dict:
    """Stage 3: leg and race odds, the JSON of ``camelup odds --json``."""
    pos = parse_position(board)
    return {"odds": odds_json(pos, leg_odds(pos), race_odds(pos, precision=precision, seed=seed), seed)}


def advice(state: dict, player: int | None, precision: float, seed: int, denial: bool, race: bool,
           assumptions: list[str], objective: str = "win") -> dict:
    """Stages 2 (``race=False``: valued without race odds) and 4 (all):
    the JSON of ``camelup best --json`` (``objective``: win or ev, as
    ``camelup best --objective``; the stage without race odds is ranked by
    EV)."""
    st = GameState.from_json(state)
    who = st.to_move if player is None else player
    if isinstance(who, int) and 0 <= who < st.n_players and st.hand_hidden(who):
        return hidden_hand_advice(st, who, precision, seed, denial, race, assumptions, objective)
    frame = best_moves(st, player, precision=precision, seed=seed, denial=denial, race=race,
                       objective=objective)
    return {"best": best_json(st, frame, assumptions)}


def hidden_hand_advice(st, player: int, precision: float, seed: int, denial: bool, race: bool,
                       assumptions: list[str], objective: str = "win") -> dict:
    """The advice for a player whose overall cards went face down unseen
    (their hand is a count): what the table knows.  Their possible hands
    and probabilities come from the valuation's model of any hidden hand
    (:meth:`advisor.valuation.context.Valuation.hand_model`).  The most probable
    hand gives every row; each overall card it lacks is valued in the most
    probable hand that holds it, as if held.  ``hidden_hand`` says so:
    the player, the hand size, the hand used and P(held) per colour.
    The rows are ranked by ``objective`` as :func:`best_moves` ranks them
    (the chance of winning now is the most probable hand's)."""
    import pandas as pd

    hands, probs = Valuation(st, player, precision, seed).hand_model(player)
    order = sorted(range(len(hands)), key=lambda k: (-probs[k], hands[k]))
    held = {c: float(sum(p for h, p in zip(hands, probs) if c in h)) for c in st.hand_candidates(player)}
    cover, seen = [], set()
    for k in order:  # the most probable hand, then hands adding a colour not yet held
        if not cover or (race and not set(hands[k]) <= seen):
            cover.append(hands[k])
            seen |= set(hands[k])
    data = st.to_json()
    frames, first = [], None
    for hand in cover:
        data["players"][player]["overall_cards"] = hand
        one = GameState.from_json(data)
        first = first or one
        frames.append(best_moves(one, player, precision=precision, seed=seed, denial=denial, race=race,
                                 objective=objective))
    frame = frames[0]
    actions = set(frame["action"])
    extra = []
    for f in frames[1:]:  # the cards the first hand lacks, each once
        part = f[~f["action"].isin(actions) & f["action"].str.match("(winner|loser):")]
        actions |= set(part["action"])
        extra.append(part)
    if any(len(part) for part in extra):
        merged = rank_rows(pd.concat([frame, *extra]).reset_index(drop=True))
        merged.attrs = dict(frame.attrs)
        frame = merged
    out = best_json(first, frame, assumptions)
    out["hidden_hand"] = {"player": player, "size": st.hand_size(player), "hand": cover[0],
                          "p_hand": float(probs[order[0]]), "held": held}
    return {"best": out}


def cards_leg(board: str, seed: int, others: str | None) -> dict:
    """``camelup odds --json --leg-only`` for a Camel Up Cards position
    (``others`` None: the odds' default)."""
    return {"odds": cards_odds_json(cards_odds(board, seed=seed, others=others or ODDS_OTHERS, race=False))}


def cards_race(board: str, seed: int, others: str | None) -> dict:
    return {"odds": cards_odds_json(cards_odds(board, seed=seed, others=others or ODDS_OTHERS))}


def cards_advice(board: str, seed: int, others: str | None, step: str = "turn", objective: str = "win",
                 rivals: list[dict] | None = None, leg: int | None = None) -> dict:
    """``camelup best --json`` for a Camel Up Cards position (``others``
    None: the advice's default; ranked by ``objective``, as ``camelup best
    --objective``); ``step`` is the part of a turn still to play
    (:func:`cards_step_moves`).  ``rivals`` (``[{"money", "bets"}]``, the
    other players) and ``leg`` are the game the chance of winning is
    computed in (``cards_best(rivals=, leg=)``; None: its defaults, listed
    in ``assumptions``)."""
    pos = parse_cards(board)
    players = None if rivals is None else [rival_player(pos, r["money"], r["bets"]) for r in rivals]
    best = cards_best_json(pos, cards_best(pos, seed=seed, others=others or ADVICE_OTHERS, objective=objective,
                                           rivals=players, leg=leg))
    if pos.next:  # the race action is played (next:1): cards_best gives the bets now and pass
        best["moves"] = [{**m, "timing": ""} for m in best["moves"]]
    elif step != "turn":
        best["moves"] = cards_step_moves(best["moves"], step, objective)
    if step != "turn":
        best["step"] = step
    return {"best": best}


def cards_step_moves(moves: list[dict], step: str, objective: str = "ev") -> list[dict]:
    """The moves of :func:`advisor.cards.cards_best` (whole turns) that are
    left when part of the turn is played.  ``race``: the bet of this turn is
    taken, so the race actions alone.  ``bet``: the race action is done, so
    a bet or ``pass``; a bet's EV is that of taking it and then the deck
    being revealed (``B+reveal``) less that of the reveal alone, both from
    this position.  With the chance of winning (``win``), ``pass`` has the
    reveal's, and ``objective="win"`` ranks by it as the advice does
    (:func:`advisor.cards.best.rank_turns`); else by EV."""
    if step == "race":
        return [m for m in moves if not m["bet"]]
    reveal = next(m for m in moves if m["action"] == "reveal")
    out = [{**m, "action": m["bet"], "race": "", "timing": "", "ev": m["ev"] - reveal["ev"]}
           for m in moves if m["race"] == "reveal" and m["timing"] == "before"]
    out.append({"action": "pass", "race": "", "bet": "", "timing": "", "ev": 0.0,
                **({"win": reveal["win"]} if "win" in reveal else {})})
    out = sorted(out, key=lambda m: -m["ev"])
    if objective == "win" and "win" in reveal:
        import pandas as pd

        out = rank_turns(pd.DataFrame(out), "win").to_dict(orient="records")
    return out


def _odds_rows(boards: list[str], parse: Callable, odds_of: Callable, precision: float, seed: int) -> dict:
    """Per board: P(1st this leg), P(wins the race), P(finishes last) of
    every racing camel.  ``parse`` reads a board; ``odds_of(pos)`` returns
    ``(camels, P(1st this leg), P(wins), P(last))``.  Boards that differ
    only in their leg tiles share one computation (the tiles do not change
    the odds)."""
    rows = []
    cache: dict[str, dict] = {}
    for text in boards:
        pos = parse(text)
        key = str(pos).split(" legtiles:")[0]
        if key not in cache:
            camels, first, win, lose = odds_of(pos)
            cache[key] = {name: {c: float(v[i]) for i, c in enumerate(camels)}
                          for name, v in (("leg", first), ("win", win), ("lose", lose))}
        rows.append({"board": text, **cache[key]})
    return {"rows": rows, "precision": precision, "seed": seed}


def cards_curve(boards: list[str], precision: float, seed: int) -> dict:
    """Per Camel Up Cards position, the odds of :func:`curve`, computed as
    :func:`advisor.plotting.cards_game_odds` does for each turn of a game."""
    def odds_of(pos):
        odds = cards_odds(pos, precision=precision, seed=seed)
        return odds.camels, odds.leg[:, 0], odds.win, odds.lose

    return _odds_rows(boards, parse_cards, odds_of, precision, seed)


def curve(boards: list[str], precision: float, seed: int) -> dict:
    """Per board: P(1st this leg), P(wins the race), P(finishes last) of
    every racing camel, computed as :func:`advisor.plotting.game_odds`
    does for each turn of a game."""
    def odds_of(pos):
        lo = leg_odds(pos)
        ro = race_odds(pos, precision=precision, seed=seed)
        return lo.camels, lo.rank[:, 0], ro.win, ro.lose

    return _odds_rows(boards, parse_position, odds_of, precision, seed)


# --------------------------------------------------------------------------
# Games: the browser holds the record, the server replays it
# --------------------------------------------------------------------------


def _describe(entry: dict, tile_names: tuple[str, str]) -> str:
    """One line about a record entry, for the page's game log; ``tile_names``:
    the edition's names of a tile's ``+`` and ``-`` sides."""
    who = f"P{entry['player'] + 1}"  # players are read from 1; the record counts from 0
    action = Action.parse(entry["action"])
    kind = action.kind
    if kind == "pyramid":
        roll = Roll.from_json(entry["roll"])
        die = roll.die
        if die == "x":
            text = f"{who} rolled the grey die: {roll.colour} {roll.value}"
        else:
            text = f"{who} rolled the {CAMEL_NAMES.get(die, die)} die: {roll.value}"
        if "landed" in entry:
            text += f" (landed on the tile on {entry['landed']})"
        if entry.get("leg_over"):
            text += "; the leg is over"
        if entry.get("race_over"):
            text += "; the race is over"
        return text
    if kind == "leg":
        return f"{who} took the {CAMEL_NAMES.get(action.colour, action.colour)} leg tile"
    if kind == "tile":
        return f"{who} put their {tile_names[0] if action.sign == '+' else tile_names[1]} tile on {action.space}"
    if kind in ("winner", "loser"):
        return f"{who} placed a card on the overall {kind} pile"
    return f"{who} formed a partnership with P{action.partner + 1}"


def game_view(game, infer: bool = True) -> dict:
    """Everything the page shows of a game: its record (which the browser
    keeps), the table, whose turn it is and what they may do.  ``advised``
    is the state the player to move sees, other players' face-down cards
    inferred from the game's history (``inferred``; :mod:`advisor.bots.inference`)
    unless ``infer`` is false (the pile model: the race odds)."""
    st = game.state
    legs = [1]
    for entry in game.record[1:]:
        if entry.get("type") == "action":
            legs.append(legs[-1] + (1 if entry.get("leg_over") else 0))
    out: dict[str, Any] = {
        "record": game.record,
        "edition": st.position.rules.name,
        "players": st.n_players,
        "board": game.board(),
        "position": position_json(st.position),
        "state": st.to_json(),
        # a hand whose cards went face down unseen is known only by its size
        "hands": [st.hand_size(i) if st.hand_hidden(i) else st.hand(i) for i in range(st.n_players)],
        "hidden_cards": hidden_cards(st),
        "face_down": not game.finished and st.hand_size(st.to_move) > 0,
        "to_move": st.to_move,
        "finished": game.finished,
        "legs": game.legs,
        "turns": game.turns,
        "legal": game.legal_actions(),
        "boards": game.boards(),
        "leg_of_turn": legs,
        "log": [_describe(e, st.position.rules.tile_names) for e in game.record if e.get("type") == "action"],
        "summary": game.summary() if game.finished else None,
        "final_stacks": [list(x) for x in game.final_stacks] if game.finished else None,
    }
    if not game.finished:
        # what the player to move knows: others' overall cards face down
        if infer:
            advised = infer_view(game.record, game.turns, st.to_move)
            out.update(face_down_json(advised))
        else:
            advised = game.view(st.to_move)
        out["advised"] = advised.to_json()
    return out


def hidden_cards(state) -> list[dict]:
    """The pile cards placed face down whose colour nobody at the table saw
    (``winner:?`` / ``loser:?``): which pile, where in it, whose."""
    return [{"pile": pile, "index": index, "player": card.player, "colours": state.hand_candidates(card.player)}
            for pile, index, card in unrevealed(state)]


def _replay(record: list) -> Any:
    if not isinstance(record, list) or not record:
        raise RecordError("a game record is a non-empty list of entries (its JSON lines)")
    if len(record) > MAX_RECORD_ENTRIES:
        raise RecordError(f"the record has {len(record)} entries; at most {MAX_RECORD_ENTRIES} are replayed")
    if not all(isinstance(e, dict) for e in record):
        raise RecordError("every entry of a game record is a JSON object")
    try:
        return replay(record)
    except AdvisorError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        detail = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
        raise RecordError(f"not a valid game record: {detail}") from None


def game_new(edition: str, players: int | None, seed: int | None, start: int | None, board: str | None,
             seats: list[str] | None = None, track: str | None = None) -> dict:
    if edition == "cards":
        return cards_new(players, seed, seats, track)
    return game_view(Game(edition, 4 if players is None else players, seed, start=start, position=board))


def _is_cards(record: list) -> bool:
    return is_cards_record(record)


def game_replay(record: list, infer: bool = True) -> dict:
    if _is_cards(record):
        return cards_replay(record)
    return game_view(_replay(record), infer)


def game_act(record: list, action: str, roll: dict | None, random_roll: bool,
             reveals: list[dict] | None = None, infer: bool = True) -> dict:
    """Replay ``record`` and play ``action`` for the player to move; for
    ``pyramid`` the die that came out of the pyramid and its face
    (``roll``), or a roll drawn at random by the game's rules.

    ``reveals`` turn face-down cards of unseen colour over first (each
    ``{"pile", "index", "colour"}``, recorded as ``reveal`` lines).  A roll
    that ends the race while such cards remain is not played: the answer is
    the unchanged game with ``reveal_needed`` (the roll, to send again with
    the colours, and the cards to turn over)."""
    import numpy as np

    if _is_cards(record):
        if roll is not None or random_roll or reveals is not None:
            raise IllegalActionError("roll, random and reveals are for the board games: Camel Up Cards has no dice")
        return cards_act(record, action)
    game = _replay(record)
    if game.finished:
        raise IllegalActionError("the game is over")
    for card in reveals or ():
        game.reveal(card["pile"], card["index"], card["colour"])
    if action == "pyramid":
        if random_roll:
            rolled = game.draw_roll(np.random.default_rng())  # a fresh draw, not the replayed seed's
        elif roll is None:
            raise IllegalActionError("pyramid: say which die came out and what it showed (roll), or ask for a random roll")
        else:
            rolled = Roll.from_json(roll)
        try:
            game.apply("pyramid", rolled)
        except UnrevealedCards:
            view = game_view(game, infer)
            view["reveal_needed"] = {"roll": rolled.to_json(), "cards": view["hidden_cards"]}
            return view
    else:
        if roll is not None or random_roll:
            raise IllegalActionError("only the pyramid action takes a roll")
        game.apply(action)
    return game_view(game, infer)


def game_load(text: str, index: int, infer: bool = True) -> dict:
    """The games of a JSON-lines file (as ``camelup simulate`` writes it)
    sent by the browser: a summary of each and the view of game ``index``."""
    fd, path = tempfile.mkstemp(suffix=".jsonl", prefix="camelup-upload-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        cards = reader.input_kind(path, files=True) == "cards-records"
        try:
            games = read_cards_records(path) if cards else read_records(path)
        except AdvisorError as exc:
            raise RecordError(str(exc).replace(path, "the file")) from None
        except (ValueError, AttributeError, TypeError) as exc:
            raise RecordError(str(exc).replace(path, "the file")) from None
    finally:
        os.unlink(path)
    if not games:
        raise RecordError("the file holds no game record (a record starts with its setup line)")
    if not 0 <= index < len(games):
        raise RecordError(f"game {index}: the file holds {len(games)} game(s)")
    if cards:
        view = cards_replay(games[index])
        view["games"] = cards_summaries(games)
        view["index"] = index
        return view
    summaries = []
    for k, rec in enumerate(games):
        setup, end = rec[0], rec[-1]
        summaries.append({
            "index": k, "edition": setup.get("edition"), "players": setup.get("players"),
            "bots": setup.get("bots"), "turns": sum(1 for e in rec if e.get("type") == "action"),
            "winner_camel": end.get("winner_camel") if end.get("type") == "end" else None,
            "winners": end.get("winners") if end.get("type") == "end" else None,
        })
    view = game_view(_replay(games[index]), infer)
    view["games"] = summaries
    view["index"] = index
    return view


# --------------------------------------------------------------------------
# The worker side
# --------------------------------------------------------------------------


def ping() -> dict:
    return {"pid": os.getpid()}


def sleep(seconds: float) -> dict:
    """Hold a worker (tests of cancellation and of the lanes)."""
    time.sleep(min(float(seconds), 30.0))
    return {"slept": seconds}


TASKS: dict[str, Callable[..., dict]] = {
    "leg": leg, "race": race, "advice": advice, "cards_leg": cards_leg, "cards_race": cards_race,
    "cards_advice": cards_advice, "curve": curve, "cards_curve": cards_curve, "game_new": game_new,
    "game_replay": game_replay, "game_act": game_act, "game_load": game_load, "ping": ping, "sleep": sleep,
}


def run(task: str, kwargs: dict) -> dict:
    """Run ``task`` in this (worker) process: ``{"ok": result}`` or
    ``{"error": message, "token": token}`` for a user error."""
    try:
        return {"ok": TASKS[task](**kwargs)}
    except AdvisorError as exc:
        return {"error": str(exc), "token": getattr(exc, "token", None)}
