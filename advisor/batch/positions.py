"""Many positions -> one pandas DataFrame; streaming batch files.

:func:`analyse` takes board strings (a list, a pandas Series, or a DataFrame
with a ``position`` column) and returns one row per position:

* ``position``: the canonical board string (or the input, if it failed);
  ``error``: empty, or the message that rejected the row;
* ``C_1st`` .. ``C_5th`` for every racing camel C: exact leg rank
  probabilities (one kernel call per chunk and edition, all cores);
* with ``race=True``: ``C_win``, ``C_lose`` and ``race_samples`` (race odds
  to ``precision``; seeded per row, so a row's figures do not depend on the
  chunking);
* with ``advice=True``: ``best_action`` and ``best_ev`` (the advisor's first
  choice for the player to move, defaults of a bare board, and its EV),
  ``win_now`` (that player's chance of winning the game now) and
  ``best_win`` (their chance after ``best_action``), as
  :func:`advisor.best_moves` gives them (``denial=False``, the row's seed).
  ``objective`` picks the first choice as ``camelup best --objective``
  does: ``"win"`` (default) the highest chance of winning the game (EV
  breaking near-ties), ``"ev"`` the highest EV (the batch's choice before
  the objective existed).  The chances are the same under either
  objective: ``win_now`` does not depend on it, and ``best_win`` is the
  chance after whichever action it ranks first.  (``best_win`` is not a
  camel's column: the race odds are ``C_win``, one letter before ``_win``.)

:func:`analyse_moves` gives every legal action of each position, one row
each with its ``ev`` and ``win`` (the chance of winning after it), ranked
by ``objective``.

Camel Up Cards positions (the ``cards`` token) fill the same columns from
:func:`advisor.cards.cards_odds` (leg odds as ``camelup odds`` gives them,
race odds to ``precision``) and :func:`advisor.cards.cards_best` (the best
whole turn); ``analyse_moves`` lists every turn's EV and chance of
winning.  The Camel Up Cards rows rank by the ``objective`` too, with
``win_now``, ``best_win`` and ``win`` from the Cards advice's chance of
winning (a position's: the other players with the start money and no
bets, leg 1).  One batch analyses
one game: board-game and Camel Up Cards positions mixed are refused in one
line saying how to split them.

Bad rows never stop a batch: they get their ``error`` and NaN figures.
A DataFrame's other columns (an id, a game number...) are kept, before the
figures, so rows can be joined back; one whose name is also an output
column's is kept as ``input_NAME``.

:func:`run_batch` streams files of any length through :func:`analyse` in
chunks into a partial output beside OUTPUT, which takes OUTPUT's place only
when complete (see :mod:`advisor.batch.io`); an interrupted run can be
resumed from its last complete chunk.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from advisor._tools import files
from advisor.batch import io as batchio
from advisor._version import __version__
from advisor.batch.io import BadRow
from advisor.cards import cards_best, cards_odds
from advisor.cards.position import is_cards, parse_cards
from advisor.errors import AdvisorError, Interrupted
from advisor.notation import parse_position
from advisor.odds.exact import RANK_LABELS, leg_odds_many
from advisor.odds.montecarlo import race_odds
from advisor.rules.editions import EDITIONS
from advisor.rules.position import Position
from advisor.rules.state import GameState
from advisor.valuation.engine import best_moves, check_objective

__all__ = ["analyse", "analyse_moves", "run_batch", "read_positions", "count_failed", "output_columns"]

CHUNK = 10_000


def _texts(positions) -> list:
    """The items of a batch: board strings, Positions, GameStates, game
    state dicts (JSON form) and bad rows are kept; a missing value becomes
    the empty string, anything else a string."""
    import pandas as pd

    if isinstance(positions, pd.DataFrame):
        positions = positions["position"]
    out = []
    for p in list(positions):
        if isinstance(p, (dict, Position, GameState, BadRow)):
            out.append(p)
        elif p is None or p is pd.NA or (isinstance(p, float) and np.isnan(p)):
            out.append("")
        else:
            out.append(str(p))
    return out


def kept_names(names: list, taken) -> list:
    """The output names of kept input columns: a name that is also an output
    column's (``taken``) becomes ``input_NAME`` (``input_input_NAME``... until
    it is free)."""
    used = set(taken) | set(names)
    out = []
    for name in names:
        new = name
        if new in taken:
            while new in used:
                new = f"input_{new}"
            used.add(new)
        out.append(new)
    return out


def _split(positions, taken):
    """``(items, kept)``: the batch items and, for a DataFrame, its other
    columns under their output names (None otherwise)."""
    import pandas as pd

    if isinstance(positions, pd.DataFrame):
        if "position" not in positions.columns:
            raise AdvisorError("the DataFrame needs a 'position' column of board strings")
        kept = positions.drop(columns=["position"]).reset_index(drop=True)
        kept.columns = kept_names(list(kept.columns), taken)
        return _texts(positions["position"]), kept
    return _texts(positions), None


def _with_kept(kept, frame):
    import pandas as pd

    if kept is None or not len(kept.columns):
        return frame
    return pd.concat([kept, frame], axis=1)


def _label(item) -> str:
    """The ``position`` of an item that failed: the input as written."""
    if isinstance(item, BadRow):
        return item.text
    return str(item.get("board", "")) if isinstance(item, dict) else str(item)


def _parse_item(item):
    """``(position, state, label)`` of a batch item; raises AdvisorError."""
    if isinstance(item, BadRow):
        raise AdvisorError(item.message)
    if isinstance(item, GameState):
        return item.position, item, str(item.position)
    if isinstance(item, dict):
        state = GameState.from_json(item)
        return state.position, state, str(state.position)
    if isinstance(item, Position):
        return item, None, str(item)
    pos = parse_position(item)
    return pos, None, str(pos)


def _row_seed(seed: int, text: str) -> int:
    import hashlib

    digest = hashlib.sha256(f"{seed}:{text}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def analyse(positions, *, race: bool = False, precision: float = 0.01, seed: int = 0,
            advice: bool = False, objective: str = "win"):
    """Analyse many positions (board strings, Positions, or game states as
    GameState objects or their JSON dicts, whose players, money and piles the
    advice then uses; a list, a Series, or a DataFrame with a ``position``
    column, whose other columns are kept); one DataFrame row per input (see
    the module docstring for the columns).  ``objective`` (``"win"`` or
    ``"ev"``) ranks the advice (``advice=True``): the chance of winning the
    game, or EV.  ``frame.attrs`` holds the options."""
    import pandas as pd

    check_objective(objective)
    texts, kept = _split(positions, _all_columns(race, advice, False))
    check_one_game(texts)
    parsed: list = []
    states: list = []
    labels: list[str] = []
    errors: list[str] = []
    cards: dict[int, object] = {}
    for i, item in enumerate(texts):
        try:
            if _is_cards_item(item):
                cards[i] = _parse_cards_item(item)
                pos, state, label = None, None, str(cards[i])
            else:
                pos, state, label = _parse_item(item)
            errors.append("")
        except AdvisorError as exc:
            pos, state = None, None
            label = _label(item)
            errors.append(str(exc))
        parsed.append(pos)
        states.append(state)
        labels.append(label)
    good = [i for i, p in enumerate(parsed) if p is not None]
    frame = pd.DataFrame({"position": labels, "error": errors})
    if cards:
        frame = _with_cards(frame, cards, race=race, advice=advice, precision=precision, seed=seed,
                            objective=objective)
    if good:
        results = leg_odds_many([parsed[i] for i in good])
        columns: dict[str, np.ndarray] = {}
        for k, res in enumerate(results):
            for camel, probs in zip(res.camels, res.rank):
                for label, p in zip(RANK_LABELS, probs):
                    name = f"{camel}_{label}"
                    if name not in columns:
                        columns[name] = np.full(len(texts), np.nan)
                    columns[name][good[k]] = p
        frame = pd.concat([frame, pd.DataFrame(columns)], axis=1)
        extra: list[dict] = [{} for _ in texts]
        for i in good:
            if race:
                _add_race(extra[i], parsed[i], precision, _row_seed(seed, frame.at[i, "position"]))
            if advice:
                _add_advice(extra[i], states[i] or parsed[i], precision, _row_seed(seed, frame.at[i, "position"]),
                            objective)
        if race or advice:
            frame = pd.concat([frame, pd.DataFrame(extra)], axis=1)
    frame = _with_kept(kept, frame)
    frame.attrs.update(race=race, precision=precision, seed=seed, advice=advice, objective=objective)
    return frame


def _is_cards_item(item) -> bool:
    return isinstance(item, str) and is_cards(item)


def _parse_cards_item(text: str):
    return parse_cards(text)


def check_one_game(items, where: str = "the positions") -> None:
    """Refuse board-game and Camel Up Cards positions in one batch, in one
    line saying how to split them (their figures are different games')."""
    first: dict[str, int] = {}
    for n, item in enumerate(items, 1):
        if isinstance(item, BadRow) or item in ("", None):
            continue
        first.setdefault("cards" if _is_cards_item(item) else "board", n)
        if len(first) == 2:
            raise AdvisorError(
                f"{where} mix Camel Up Cards positions (first at row {first['cards']}) and board-game positions "
                f"(first at row {first['board']}): one batch analyses one game; put each game's positions in "
                "a file of its own (e.g. grep -w cards IN > cards.txt; grep -vw cards IN > board.txt)")


def _with_cards(frame, cards: dict, *, race: bool, advice: bool, precision: float, seed: int, objective: str):
    """``frame`` with the figures of the Camel Up Cards rows ``cards``
    (row -> CardsPosition): the leg rank columns, and on request the race
    odds and the best turn, ranked by ``objective``, with the chance of
    winning now and after it (:func:`_cards_advice`)."""
    import pandas as pd

    rows: dict[int, dict] = {}
    for i, pos in cards.items():
        row_seed = _row_seed(seed, frame.at[i, "position"])
        row: dict = {}
        try:
            odds = cards_odds(pos, race=race, precision=precision, seed=row_seed)
            for c, camel in enumerate(odds.camels):
                for label, p in zip(RANK_LABELS, odds.leg[c]):
                    row[f"{camel}_{label}"] = float(p)
                if race:
                    row[f"{camel}_win"] = float(odds.win[c])
                    row[f"{camel}_lose"] = float(odds.lose[c])
            if race:
                row["race_samples"] = int(odds.race_samples)
            if advice:
                best = _cards_advice(pos, row_seed, precision, objective)
                row["best_action"] = str(best["action"].iloc[0])
                row["best_ev"] = float(best["ev"].iloc[0])
                row["win_now"] = float(best.attrs["win_now"])
                row["best_win"] = float(best["win"].iloc[0])
        except AdvisorError as exc:
            row = {"error": str(exc)}
        rows[i] = row
    extra = pd.DataFrame.from_dict(rows, orient="index").reindex(range(len(frame)))
    if "error" in extra.columns:
        failed = extra["error"].notna()
        frame.loc[failed, "error"] = extra.loc[failed, "error"]
        extra = extra.drop(columns=["error"])
    return pd.concat([frame, extra], axis=1)


def _cards_advice(pos, seed: int, precision: float, objective: str):
    """:func:`advisor.cards.cards_best` of a batch row, ranked by
    ``objective``, with the ``win`` column and ``attrs["win_now"]`` under
    either objective (the chances of a position: the other players with
    the start money and no bets, leg 1, as ``camelup best`` assumes)."""
    return cards_best(pos, seed=seed, precision=precision, progress=False, objective=objective, chances=True)


def _add_race(row: dict, pos, precision: float, seed: int) -> None:
    res = race_odds(pos, precision=precision, seed=seed)
    for i, camel in enumerate(res.camels):
        row[f"{camel}_win"] = float(res.win[i])
        row[f"{camel}_lose"] = float(res.lose[i])
    row["race_samples"] = res.samples


def _advice(pos_or_state, precision: float, seed: int, objective: str):
    """:func:`advisor.best_moves` of a batch row (``denial=False``), ranked by
    ``objective``, with the ``win`` column and ``attrs["win_now"]`` under
    either objective.  ``"ev"``: the rows and their order are
    ``best_moves(..., objective="ev")``'s (the EV, EVs within
    :data:`~advisor.valuation.explain.EV_TIE` in the legal actions' order),
    the chances those of ``objective="win"`` (the same valuation, so the
    same figures)."""
    return best_moves(pos_or_state, precision=precision, seed=seed, denial=False, objective=objective, chances=True)


def _add_advice(row: dict, pos_or_state, precision: float, seed: int, objective: str) -> None:
    try:
        frame = _advice(pos_or_state, precision, seed, objective)
    except AdvisorError as exc:  # e.g. a state whose advised player's hand is unknown
        row["error"] = str(exc)
        return
    row["best_action"] = str(frame["action"].iloc[0])
    row["best_ev"] = float(frame["ev"].iloc[0])
    row["win_now"] = float(frame.attrs.get("win_now", np.nan))
    row["best_win"] = float(frame["win"].iloc[0]) if "win" in frame else np.nan


def analyse_moves(positions, *, precision: float = 0.01, seed: int = 0, objective: str = "win"):
    """The EV and the chance of winning of every legal action of every
    position, in long format: one row per (position, action) with ``ev``,
    ``win`` (the advised player's chance of winning the game after the
    action), ``sd``, ``p_loss``, each position's rows ranked by
    ``objective`` (``"win"``: the chance of winning, EV breaking near-ties;
    ``"ev"``: EV) as :func:`advisor.best_moves` ranks them (Camel Up Cards
    rows as :func:`advisor.cards.cards_best` does, ``sd`` and ``p_loss``
    NaN); bad rows give one row with their ``error``.  A DataFrame's
    other columns are kept as by :func:`analyse`, repeated on each of its
    position's rows."""
    import pandas as pd

    check_objective(objective)
    items, kept = _split(positions, _all_columns(False, False, True))
    check_one_game(items)
    rows, source_rows = [], []
    for i, item in enumerate(items):
        try:
            if _is_cards_item(item):
                cpos = _parse_cards_item(item)
                label = str(cpos)
                frame = _cards_advice(cpos, _row_seed(seed, label), precision, objective)
            else:
                pos, state, label = _parse_item(item)
                frame = _advice(state or pos, precision, _row_seed(seed, label), objective)
        except AdvisorError as exc:
            rows.append({"position": _label(item), "error": str(exc)})
            source_rows.append(i)
            continue
        for r in frame.reindex(columns=_MOVE_FIGURES).to_dict(orient="records"):
            rows.append({"position": label, "error": "", **r})
            source_rows.append(i)
    frame = pd.DataFrame(rows, columns=None if rows else ["position", "error"])
    if kept is not None:
        kept = kept.iloc[source_rows].reset_index(drop=True)
    frame = _with_kept(kept, frame)
    frame.attrs.update(precision=precision, seed=seed, objective=objective)
    return frame



# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

def read_positions(path: str | Path, skip: int = 0) -> Iterator:
    """The batch items of an input file (see :mod:`advisor.batch.io` for the
    formats), the first ``skip`` passed over: board strings, game state
    dicts (JSON lines with a ``board`` key) and :class:`~advisor.batch.io.BadRow`
    for rows that cannot be read (a CSV row that does not fit the header, a
    line that is not JSON)."""
    source = batchio.check_input(path)
    if source.kind == ".jsonl":
        batchio.scan(source)
    for frame in batchio.read_frames(source, CHUNK, skip=skip):
        yield from frame["position"]


def count_failed(frame, moves: bool = False) -> int:
    """Input rows of a result chunk that failed: each gives one row with its
    ``error`` (with ``moves`` too, where a good position gives a row per
    action)."""
    return int(frame["error"].fillna("").ne("").sum())


def output_columns(source: "batchio.Source", race: bool, advice: bool, moves: bool):
    """``(columns, types, kept, renamed)`` of a batch's output: the input's
    kept columns (under their output names, see :func:`kept_names`) then
    every figure column the options can produce; the Parquet type of each;
    the kept columns' output names; the ``(input name, output name)`` pairs
    of those renamed."""
    results = _all_columns(race, advice, moves)
    kept = kept_names(source.columns, set(results))
    types = dict(zip(kept, source.types))
    types.update({c: "string" if c in _TEXT_COLUMNS else "int64" if c == "race_samples" else "float64"
                  for c in results})
    renamed = [(a, b) for a, b in zip(source.columns, kept) if a != b]
    return kept + results, types, kept, renamed


def run_identity(source: "batchio.Source", output: Path, *, engine: str, race: bool, precision: float,
                 seed: int, advice: bool, moves: bool, columns: list[str], objective: str = "win") -> dict:
    """What a resume must match, recorded in the partial output's manifest."""
    import os

    return {"program": "camelup-advisor", "version": __version__, "engine": engine,
            "resumable": engine == "local", "input": os.path.realpath(source.path),
            "input_size": source.size, "input_sha256": source.sha256, "rows_total": source.rows,
            "output": str(output),
            "options": {"race": race, "advice": advice, "moves": moves, "precision": precision, "seed": seed,
                        "objective": objective},
            "columns": columns}


def _differences(old: dict, new: dict) -> str | None:
    """What differs between the run recorded in ``old`` and ``new``, as a
    phrase naming each difference (None when they match)."""
    diffs = []
    if old.get("engine") != new["engine"]:
        diffs.append(f"--engine {old.get('engine')} (not {new['engine']})")
    if old.get("input") != new["input"]:
        diffs.append(f"the input {old.get('input')} (not {new['input']})")
    elif (old.get("input_size"), old.get("input_sha256")) != (new["input_size"], new["input_sha256"]):
        diffs.append(f"the input {new['input']} as it was then (it has changed since)")
    was, now = old.get("options", {}), new["options"]
    for flag in ("race", "advice", "moves"):
        if bool(was.get(flag)) != now[flag]:
            diffs.append(f"--{flag}" if was.get(flag) else f"no --{flag}")
    for opt in ("precision", "seed"):
        if was.get(opt) != now[opt]:
            diffs.append(f"--{opt} {was.get(opt)} (not {now[opt]})")
    # a manifest written before the objective option records none: where it mattered (advice, moves)
    # the output columns differ, which the check below reports
    if "objective" in was and was["objective"] != now["objective"]:
        diffs.append(f"--objective {was['objective']} (not {now['objective']})")
    if old.get("version") != new["version"]:
        diffs.append(f"camelup-advisor {old.get('version')} (this is {new['version']})")
    if not diffs and old.get("columns") != new["columns"]:
        diffs.append("other output columns")
    return ", ".join(diffs) or None


def run_batch(input_path, output_path, *, race: bool = False, precision: float = 0.01, seed: int = 0,
              advice: bool = False, moves: bool = False, objective: str = "win", resume: bool = False,
              restart: bool = False, chunk: int = CHUNK, progress: bool | None = None,
              note: Callable[[str], None] | None = None, overwrite: bool = False) -> tuple[int, int]:
    """Stream ``input_path`` through :func:`analyse` (or :func:`analyse_moves`
    with ``moves``) in chunks of ``chunk`` rows into ``output_path``; memory
    stays flat.  Returns ``(rows, failed)`` of the whole output.
    ``objective`` ranks the advice and the moves (see :func:`analyse`).

    Everything is checked before any work (formats, the input readable and
    not the output, the output's folder writable, Parquet support).  The
    rows go to a partial output beside OUTPUT (``OUTPUT.part``), which takes
    OUTPUT's place only when complete: a run that fails or is interrupted
    leaves an existing OUTPUT untouched.  ``resume`` continues the unfinished
    run found there from its last complete chunk, after checking that it
    was started with this input (same path and content), these options and
    this version (the chunk size may differ; the manifest of the partial
    output records the options race, advice, moves, precision, seed and
    objective); with no unfinished run it starts from the first row
    (saying so through ``note``).  A plain run refuses to discard an
    unfinished run's rows: ``restart`` does.  An existing OUTPUT is
    replaced only with ``overwrite`` (or by the resumed run started on it),
    and while the run lasts OUTPUT is claimed
    (:func:`advisor._tools.files.claim`): another run on it is refused.
    Ctrl-C raises :class:`~advisor.errors.Interrupted` saying what was kept."""
    with files.claim(output_path):
        return _run_batch(input_path, output_path, race, precision, seed, advice, moves, objective, resume, restart,
                          chunk, progress, note, overwrite)


def _run_batch(input_path, output_path, race, precision, seed, advice, moves, objective, resume, restart, chunk,
               progress, note, overwrite) -> tuple[int, int]:
    from tqdm import tqdm

    if resume and restart:
        raise AdvisorError("--resume and --restart exclude each other")
    check_objective(objective)
    note = note or (lambda message: None)
    source = batchio.check_input(input_path)
    output = batchio.check_output(output_path, source, overwrite=overwrite, resume=resume)
    batchio.scan(source)
    columns, types, kept, renamed = output_columns(source, race, advice, moves)
    identity = run_identity(source, output, engine="local", race=race, precision=precision, seed=seed,
                            advice=advice, moves=moves, columns=columns, objective=objective)
    partial = batchio.PartialOutput(output, columns, types, text=kept)
    partial.open(identity, resume=resume, restart=restart, note=note,
                 mismatch=lambda old: _differences(old, identity))
    if renamed:
        note("input column(s) kept under another name, the first being an output column's: "
             + ", ".join(f"{a} as {b}" for a, b in renamed))
    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(unit="pos", disable=not progress, file=sys.stderr, initial=partial.rows_in, total=source.rows)
    try:
        for frame_in in batchio.read_frames(source, chunk, skip=partial.rows_in):
            if moves:
                frame = analyse_moves(frame_in, precision=precision, seed=seed, objective=objective)
            else:
                frame = analyse(frame_in, race=race, precision=precision, seed=seed, advice=advice,
                                objective=objective)
            partial.append(frame, len(frame_in), count_failed(frame))
            bar.update(len(frame_in))
        partial.commit()
    except KeyboardInterrupt:
        bar.close()
        if partial.placed:  # the output was complete: nothing lost
            partial.discard()
        elif partial.rows_in == 0:
            partial.discard()
            raise Interrupted(f"no chunk was complete, nothing kept; {output_path} is as it was") from None
        else:
            partial.close()
            raise Interrupted(partial.kept()) from None
    except BaseException:
        partial.close()  # kept for a resume
        raise
    finally:
        bar.close()
    return partial.rows_in, partial.failed


_TEXT_COLUMNS = {"position", "error", "best_action", "action"}
#: The figures of each action with ``moves``, in this order.
_MOVE_FIGURES = ["action", "ev", "win", "sd", "p_loss"]


def _all_columns(race: bool, advice: bool, moves: bool) -> list[str]:
    """Every column a batch can produce, in a fixed order (a CSV header must
    cover later chunks too, whatever editions they hold)."""
    if moves:
        return ["position", "error", *_MOVE_FIGURES]
    camels = []
    for ed in EDITIONS.values():
        camels += [c for c in ed.racing if c not in camels]
    cols = ["position", "error"] + [f"{c}_{label}" for c in camels for label in RANK_LABELS]
    if race:
        cols += [f"{c}_{w}" for c in camels for w in ("win", "lose")] + ["race_samples"]
    if advice:
        cols += ["best_action", "best_ev", "win_now", "best_win"]
    return cols
