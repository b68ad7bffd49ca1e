"""Camel Up Cards game records: replay with checks, one player's view,
JSON-lines files.

A record is the list of lines :class:`~advisor.cards.game.CardsGame` writes
(``setup``, ``deal``, ``shuffle``, ``action``, ``end``; see its docstring).
:func:`replay_cards` plays it again from its setup line, taking the chance
outcomes from the ``deal`` and ``shuffle`` lines and checking every action
again, the board and money after it, and the end line.
:func:`view_record` keeps what one player could see at the table: their
own dealt cards and deck-building, the shown cards, the revealed cards and
the hand cards played; not the others' hands, face-down cards and discards,
nor the order of the deck.
"""

from __future__ import annotations

from advisor._tools.files import atomic_output
from advisor._tools.jsonio import decode_text, dumps, loads
from advisor.errors import AdvisorError, IllegalActionError
from advisor.game import RecordError
from advisor.cards.actions import parse_card_list
from advisor.cards.game import CardsGame, CardsSetup
from advisor.cards.position import LEG_STACK

__all__ = ["replay_cards", "view_record", "write_cards_records", "read_cards_records", "is_cards_record",
           "is_cards_lines", "is_cards_file", "iter_cards_records", "bot_actions", "ACTION_KINDS"]

_TYPES = ("setup", "deal", "shuffle", "action", "end")


def is_cards_record(record) -> bool:
    return (isinstance(record, list) and bool(record) and isinstance(record[0], dict)
            and record[0].get("type") == "setup" and record[0].get("game") == "cards")


def _cards(text, line: int):
    if not isinstance(text, str):
        raise RecordError(f"line {line} of the game: cards are a string such as 'B1G2'")
    try:
        return parse_card_list(text, text)
    except IllegalActionError as exc:
        raise RecordError(f"line {line} of the game: {exc}") from None


def replay_cards(record: list[dict], upto: int | None = None, visit=None) -> CardsGame:
    """The game of ``record`` replayed to action ``upto`` (default: the
    end); a record that does not replay to its own lines raises
    :class:`~advisor.game.RecordError`, an illegal action
    :class:`~advisor.errors.IllegalActionError`.  ``visit(game)`` is called
    with the game after each of its chance steps and actions, in order."""
    if not is_cards_record(record):
        raise RecordError("a Camel Up Cards game record starts with its setup line (game: cards)")
    head = record[0]
    try:
        setup = CardsSetup(players=head["players"], track=head["track"], start_money=head["start_money"],
                           dealt=head["dealt"], shown=head["shown"], down=head["down"])
        game = CardsGame(setup, seed=head["seed"], start=_cards(head["cards"], 1), draw=False,
                         dice=head.get("dice", "game"))
        game.record[0] = dict(head)
    except (KeyError, TypeError) as exc:
        raise RecordError(f"line 1 of the game: the setup line lacks or mistypes {exc}") from None
    except AdvisorError as exc:
        raise RecordError(f"line 1 of the game: {exc}") from None
    if head.get("board") != game.state.board():
        raise RecordError(f"line 1 of the game: the board {str(head.get('board'))[:200]!r} does not match the "
                          f"set-up cards' {game.state.board()!r}")
    for k, entry in enumerate(record[1:], start=2):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind not in _TYPES or kind == "setup":
            raise RecordError(f"line {k} of the game: the 'type' of a line is deal, shuffle, action or end "
                              "(one setup line, first)")
        if kind in ("deal", "shuffle"):
            if game.state.phase != kind:
                raise RecordError(f"line {k} of the game: no {kind} now (phase {game.state.phase})")
            try:
                game.chance(_cards(entry.get("cards" if kind == "deal" else "deck"), k))
            except IllegalActionError as exc:
                raise RecordError(f"line {k} of the game: {exc}") from None
            if visit is not None:
                visit(game)
            continue
        if kind == "end":
            if upto is None:
                if not game.finished:
                    raise RecordError(f"line {k} of the game: an end line, but the game is not over")
                if entry != game.summary():
                    raise RecordError(f"line {k} of the game: the end line does not match the replay "
                                      f"({game.summary()})")
            break
        if upto is not None and game.turns >= upto:
            break
        if entry.get("player") != game.state.current:
            raise RecordError(f"line {k} of the game: player {str(entry.get('player'))[:20]} is not to act")
        done = game.play(entry.get("action"))
        for key in ("card", "board", "money"):
            if key in entry and entry[key] != done.get(key):
                raise RecordError(f"line {k} of the game: the record's {key} {str(entry[key])[:200]!r} does "
                                  f"not match the replay's {done.get(key)!r}")
        if visit is not None:
            visit(game)
    return game


def view_record(record: list[dict], player: int) -> list[dict]:
    """What ``player`` could see of the game: the record without the others'
    dealt cards, face-down cards, discards and hand cards, and without the
    deck's order (the cards revealed and played stay)."""
    if not is_cards_record(record):
        raise RecordError("a Camel Up Cards game record starts with its setup line (game: cards)")
    n = record[0]["players"]
    if not isinstance(player, int) or not 0 <= player < n:
        raise AdvisorError(f"player must be 0..{n - 1}")
    dealt = record[0]["dealt"]
    out = []
    for entry in record:
        kind = entry.get("type")
        if kind == "deal":
            cards = entry["cards"]
            out.append({"type": "deal", "leg": entry["leg"],
                        "cards": cards[2 * dealt * player: 2 * dealt * (player + 1)]})
        elif kind == "shuffle":
            out.append({"type": "shuffle", "leg": entry["leg"]})
        elif kind == "action" and entry["action"].startswith("build:") and entry["player"] != player:
            shown = entry["action"].split(":", 1)[1].split("/")[1]
            out.append({**entry, "action": "build", "shown": shown})
        else:
            out.append(dict(entry))
    return out


def write_cards_records(games: list[list[dict]], path) -> None:
    """Write records as JSON lines; the file appears only when complete."""
    with atomic_output(path, "game records") as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for record in games:
            for entry in record:
                fh.write(dumps(entry) + "\n")


def is_cards_lines(lines) -> bool:
    """The first record line of ``lines`` (the lines of a JSON-lines text)
    is the setup line of a Camel Up Cards game (text that is not JSON is
    not)."""
    import json

    try:
        for line in lines:
            if line.strip():
                return is_cards_record([json.loads(line)])
    except (ValueError, RecursionError):  # RecursionError: JSON nested too deep
        return False
    return False


def is_cards_file(path) -> bool:
    """:func:`is_cards_lines` of the JSON-lines file ``path`` (an unreadable
    file is not)."""
    try:
        with open(path, encoding="utf-8-sig") as fh:  # a byte order mark as every reader takes it
            return is_cards_lines(fh)
    except (OSError, ValueError):  # ValueError: text that is not UTF-8
        return False


def iter_cards_records(path):
    """Yield ``(line, record)`` for each game of a JSON-lines file of Camel
    Up Cards records, ``line`` the number of its setup line; one game in
    memory at a time; an empty file, text that is not UTF-8 or a line that
    is not JSON raise an error naming the file (a UTF-8 byte order mark is
    accepted)."""
    record: list[dict] = []
    start = 0
    games = 0
    try:
        with open(path, "rb") as fh:
            for n, raw in enumerate(fh, start=1):
                line = decode_text(raw, f"{path}, line {n}")
                if not line.strip():
                    continue
                try:
                    entry = loads(line, f"{path}, line {n}")
                except AdvisorError as exc:
                    raise RecordError(str(exc)) from None
                if isinstance(entry, dict) and entry.get("type") == "setup":
                    if record:
                        games += 1
                        yield start, record
                    record, start = [], n
                elif not record:
                    raise RecordError(f"{path}, line {n}: a game record starts with its setup line")
                record.append(entry)
    except OSError as exc:
        raise AdvisorError(f"cannot read {path}: {exc.strerror}") from None
    if record:
        games += 1
        yield start, record
    if not games:
        raise RecordError(f"game records {path}: empty (no game in it)")


def read_cards_records(path) -> list[list[dict]]:
    """The games of a JSON-lines file of Camel Up Cards records."""
    return [record for _, record in iter_cards_records(path)]


#: The columns of :func:`bot_actions` counted per game: race actions and bets by kind.
ACTION_KINDS = ("reveal", "hand", "palm", "fennec", "leg", "mid", "winner", "loser")


def bot_actions(records):
    """What each bot of a set of bot games did (records whose setup line
    names the bots, as :func:`advisor.cards.bots.play_cards_game` writes):
    a pandas DataFrame, one row per bot, with ``seat_games``, ``win_rate``
    (a first place shared by ``k`` players counts ``1/k``), ``money``
    (final, mean), per seat-game the mean number of each action of
    :data:`ACTION_KINDS`, ``leg_value`` (the mean value of the leg-winner
    cards taken: 5, 3 or 2), ``first_bet`` (the mean share of its leg's
    deck revealed before a player's first bet of the leg, over the legs
    with one) and ``last_leg_bets`` (bets per game in the race's last
    leg).  ``records``: an iterable of records (a list, or
    ``iter_cards_records(path)``'s records)."""
    import pandas as pd

    rows: dict = {}
    for record in records:
        if isinstance(record, tuple):  # (line, record) pairs of iter_cards_records
            record = record[1]
        head, end = record[0], record[-1]
        bots = head.get("bots")
        if not bots or end.get("type") != "end":
            raise AdvisorError("bot_actions needs finished bot games (setup lines naming the bots)")
        legs = end["legs"]
        tally = [dict.fromkeys(ACTION_KINDS + ("leg_value", "last_leg_bets"), 0.0) for _ in bots]
        firsts: list[list[float]] = [[] for _ in bots]
        leg, deck, revealed, taken, bet_seen = 0, 0, 0, {}, set()
        for entry in record[1:]:
            kind = entry.get("type")
            if kind == "deal":
                leg, taken, bet_seen = entry["leg"], {}, set()
            elif kind == "shuffle":
                deck, revealed = len(entry["deck"]) // 2, 0
            elif kind == "action":
                p, action = entry["player"], entry["action"]
                name, _, arg = action.partition(":")
                if name in ACTION_KINDS:
                    tally[p][name] += 1
                if name == "reveal":
                    revealed += 1
                if name in ("leg", "mid", "winner", "loser"):
                    if leg == legs:
                        tally[p]["last_leg_bets"] += 1
                    if p not in bet_seen:
                        bet_seen.add(p)
                        firsts[p].append(revealed / deck if deck else 0.0)
                if name == "leg":
                    k = taken.get(arg, 0)
                    taken[arg] = k + 1
                    tally[p]["leg_value"] += LEG_STACK[k]
        winners = end["winners"]
        for seat, bot in enumerate(bots):
            row = rows.setdefault(bot, {"seat_games": 0, "wins": 0.0, "money": 0.0, "legs_bet": 0,
                                        "first_bet": 0.0, **dict.fromkeys(ACTION_KINDS + ("leg_value",
                                                                                          "last_leg_bets"), 0.0)})
            row["seat_games"] += 1
            row["wins"] += 1 / len(winners) if seat in winners else 0.0
            row["money"] += end["money"][seat]
            for key, value in tally[seat].items():
                row[key] += value
            row["first_bet"] += sum(firsts[seat])
            row["legs_bet"] += len(firsts[seat])
    out = []
    for bot, row in rows.items():
        n = row["seat_games"]
        line = {"bot": bot, "seat_games": n, "win_rate": row["wins"] / n, "money": row["money"] / n}
        line.update({k: row[k] / n for k in ACTION_KINDS})
        line["leg_value"] = row["leg_value"] / row["leg"] if row["leg"] else float("nan")
        line["first_bet"] = row["first_bet"] / row["legs_bet"] if row["legs_bet"] else float("nan")
        line["last_leg_bets"] = row["last_leg_bets"] / n
        out.append(line)
    return pd.DataFrame(out).set_index("bot")
