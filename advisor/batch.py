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
  choice for the player to move, defaults of a bare board).

Bad rows never stop a batch: they get their ``error`` and NaN figures.
:func:`run_batch` streams files of any length through :func:`analyse` in
chunks, writing as it goes, and can resume an interrupted run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from .errors import AdvisorError

__all__ = ["analyse", "analyse_moves", "run_batch", "read_positions"]

CHUNK = 10_000


def _texts(positions) -> list:
    """The items of a batch: board strings, Positions, GameStates or game
    state dicts (JSON form) are kept; anything else becomes a string."""
    import pandas as pd

    from .rules.position import Position
    from .state import GameState

    if isinstance(positions, pd.DataFrame):
        if "position" not in positions.columns:
            raise AdvisorError("the DataFrame needs a 'position' column of board strings")
        positions = positions["position"]
    return [p if isinstance(p, (dict, Position, GameState)) else "" if p is None else str(p)
            for p in list(positions)]


def _parse_item(item):
    """``(position, state, label)`` of a batch item; raises AdvisorError."""
    from .notation import parse_position
    from .rules.position import Position
    from .state import GameState

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
            advice: bool = False):
    """Analyse many positions (board strings, Positions, or game states as
    GameState objects or their JSON dicts, whose players, money and piles the
    advice then uses); one DataFrame row per input (see the module docstring
    for the columns)."""
    import pandas as pd

    from .exact import RANK_LABELS, leg_odds_many

    texts = _texts(positions)
    parsed: list = []
    states: list = []
    labels: list[str] = []
    errors: list[str] = []
    for item in texts:
        try:
            pos, state, label = _parse_item(item)
            errors.append("")
        except AdvisorError as exc:
            pos, state = None, None
            label = str(item.get("board", "")) if isinstance(item, dict) else str(item)
            errors.append(str(exc))
        parsed.append(pos)
        states.append(state)
        labels.append(label)
    good = [i for i, p in enumerate(parsed) if p is not None]
    frame = pd.DataFrame({"position": labels, "error": errors})
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
                _add_advice(extra[i], states[i] or parsed[i], precision, _row_seed(seed, frame.at[i, "position"]))
        if race or advice:
            frame = pd.concat([frame, pd.DataFrame(extra)], axis=1)
    frame.attrs.update(race=race, precision=precision, seed=seed, advice=advice)
    return frame


def _add_race(row: dict, pos, precision: float, seed: int) -> None:
    from .montecarlo import race_odds

    res = race_odds(pos, precision=precision, seed=seed)
    for i, camel in enumerate(res.camels):
        row[f"{camel}_win"] = float(res.win[i])
        row[f"{camel}_lose"] = float(res.lose[i])
    row["race_samples"] = res.samples


def _add_advice(row: dict, pos_or_state, precision: float, seed: int) -> None:
    from .ev import best_moves

    try:
        frame = best_moves(pos_or_state, precision=precision, seed=seed, denial=False)
    except AdvisorError as exc:  # e.g. a state whose advised player's hand is unknown
        row["error"] = str(exc)
        return
    row["best_action"] = str(frame["action"].iloc[0])
    row["best_ev"] = float(frame["ev"].iloc[0])


def analyse_moves(positions, *, precision: float = 0.01, seed: int = 0):
    """The EV of every legal action of every position, in long format: one
    row per (position, action) with ``ev``, ``sd``, ``p_loss``; bad rows
    give one row with their ``error``."""
    import pandas as pd

    from .ev import best_moves

    rows = []
    for item in _texts(positions):
        try:
            pos, state, label = _parse_item(item)
            frame = best_moves(state or pos, precision=precision, seed=_row_seed(seed, label), denial=False)
        except AdvisorError as exc:
            rows.append({"position": str(item.get("board", "")) if isinstance(item, dict) else str(item),
                         "error": str(exc)})
            continue
        for r in frame[["action", "ev", "sd", "p_loss"]].to_dict(orient="records"):
            rows.append({"position": label, "error": "", **r})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

_INPUTS = (".txt", ".csv", ".jsonl", ".parquet")
_OUTPUTS = (".csv", ".jsonl", ".parquet")


def _kind(path: Path, allowed: tuple[str, ...], what: str) -> str:
    suffix = path.suffix.lower()
    if suffix not in allowed:
        raise AdvisorError(f"{what} {path}: use one of {', '.join(allowed)} (by extension)")
    return suffix


def read_positions(path: str | Path, skip: int = 0) -> Iterator:
    """Board strings from a text file (one per line; blank lines and lines
    starting with # are skipped), a CSV or Parquet file with a ``position``
    column, or JSON lines with a ``position`` key; a JSON line with a
    ``board`` key is a whole game state (see :mod:`advisor.state`) and comes
    as its dict.  The first ``skip`` are passed over."""
    path = Path(path)
    kind = _kind(path, _INPUTS, "input")
    if not path.is_file():
        raise AdvisorError(f"input {path}: no such file")
    n = 0
    if kind == ".parquet":
        pq = _pyarrow_parquet()
        try:
            source = pq.ParquetFile(path)
        except Exception as exc:  # pyarrow raises several types for unreadable files
            raise AdvisorError(f"input {path}: not a readable Parquet file ({exc})") from None
        if "position" not in source.schema_arrow.names:
            raise AdvisorError(f"input {path}: no 'position' column")
        for batch in source.iter_batches(batch_size=CHUNK, columns=["position"]):
            for text in batch.column(0).to_pylist():
                n += 1
                if n > skip:
                    yield "" if text is None else str(text)
        return
    if kind == ".csv":
        import pandas as pd

        try:
            reader = pd.read_csv(path, chunksize=CHUNK, dtype=str, keep_default_na=False)
            for chunk in reader:
                if "position" not in chunk.columns:
                    raise AdvisorError(f"input {path}: no 'position' column")
                for text in chunk["position"]:
                    n += 1
                    if n > skip:
                        yield text
        except pd.errors.ParserError as exc:
            raise AdvisorError(f"input {path}: not a readable CSV file ({exc})") from None
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line or (kind == ".txt" and line.startswith("#")):
                continue
            if kind == ".jsonl":
                from .jsonio import loads

                try:
                    obj = loads(line)  # bounded: a deeply nested line is a bad row, not a RecursionError
                except AdvisorError:
                    obj = line  # reported as a bad position
                if isinstance(obj, dict) and "board" in obj:
                    line = obj  # a game state
                elif isinstance(obj, dict):
                    line = str(obj.get("position", ""))
                else:
                    line = str(obj)
            n += 1
            if n > skip:
                yield line


def _chunks(items: Iterable[str], size: int) -> Iterator[list[str]]:
    chunk: list[str] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _count_rows(path: Path, kind: str) -> int | None:
    """Rows of an input file, for the progress bar's ETA (a quick scan)."""
    if not path.is_file():
        return None
    if kind == ".parquet":
        return _pyarrow_parquet().ParquetFile(path).metadata.num_rows
    with open(path, encoding="utf-8", errors="replace") as fh:
        rows = sum(1 for line in fh if line.strip() and not (kind == ".txt" and line.lstrip().startswith("#")))
    return max(0, rows - 1) if kind == ".csv" else rows


def _rows_written(path: Path, kind: str) -> int:
    if not path.exists():
        return 0
    if kind == ".parquet":
        return _pyarrow_parquet().ParquetFile(path).metadata.num_rows
    with open(path, encoding="utf-8") as fh:
        lines = sum(1 for line in fh if line.strip())
    return max(0, lines - 1) if kind == ".csv" else lines


def run_batch(input_path, output_path, *, race: bool = False, precision: float = 0.01, seed: int = 0,
              advice: bool = False, moves: bool = False, resume: bool = False, chunk: int = CHUNK,
              progress: bool | None = None) -> tuple[int, int]:
    """Stream ``input_path`` through :func:`analyse` (or :func:`analyse_moves`
    with ``moves``) in chunks of ``chunk`` rows, appending to
    ``output_path`` as it goes; memory stays flat.  ``resume`` skips the
    input rows an earlier run already wrote.  Returns ``(rows, failed)``."""
    from tqdm import tqdm

    src, dst = Path(input_path), Path(output_path)
    out_kind = _kind(dst, _OUTPUTS, "output")
    _kind(src, _INPUTS, "input")
    if moves and resume:
        raise AdvisorError("--resume is not available with --moves (rows per position vary)")
    done = _rows_written(dst, out_kind) if resume else 0
    if not resume and dst.exists():
        dst.unlink()
    if progress is None:
        progress = sys.stderr.isatty()
    rows = failed = 0
    total = _count_rows(src, _kind(src, _INPUTS, "input")) if progress else None
    bar = tqdm(unit="pos", disable=not progress, file=sys.stderr, initial=done, total=total)
    sink = _Sink(dst, out_kind, _all_columns(race, advice, moves), resume=resume)
    try:
        for texts in _chunks(read_positions(src, skip=done), chunk):
            if moves:
                frame = analyse_moves(texts, precision=precision, seed=seed)
            else:
                frame = analyse(texts, race=race, precision=precision, seed=seed, advice=advice)
            failed += count_failed(frame, moves)
            rows += len(texts)
            sink.write(frame)
            bar.update(len(texts))
    finally:
        sink.close()
        bar.close()
    return rows, failed


def count_failed(frame, moves: bool) -> int:
    """Positions of a result chunk that failed (with ``moves`` a position
    has one row per action, or one row with its error)."""
    errors = frame.drop_duplicates("position")["error"] if moves else frame["error"]
    return int(errors.fillna("").ne("").sum())


class _Sink:
    """Appends result chunks to a CSV, JSON lines or Parquet file with one
    fixed set of columns (so every chunk fits the header / schema)."""

    def __init__(self, path: Path, kind: str, columns: list[str], resume: bool = False):
        self.path, self.kind, self.columns = path, kind, columns
        self.writer = None
        if kind == ".parquet":
            import pyarrow as pa

            pq = _pyarrow_parquet()
            self.schema = pa.schema([(c, pa.string() if c in _TEXT_COLUMNS else
                                      pa.int64() if c == "race_samples" else pa.float64()) for c in columns])
            self.tmp = path.with_name(path.name + ".part")
            self.writer = pq.ParquetWriter(self.tmp, self.schema)
            if resume and path.exists():  # copy what an earlier run wrote, row group by row group
                old = pq.ParquetFile(path)
                for i in range(old.num_row_groups):
                    self.writer.write_table(old.read_row_group(i).cast(self.schema))

    def write(self, frame) -> None:
        import pandas as pd

        frame = frame.reindex(columns=self.columns)
        if "race_samples" in frame:  # a count: integer, empty for failed rows
            frame = frame.astype({"race_samples": "Int64"})
        if self.kind == ".csv":
            header = not self.path.exists() or self.path.stat().st_size == 0
            frame.to_csv(self.path, mode="a", header=header, index=False)
        elif self.kind == ".jsonl":
            with open(self.path, "a", encoding="utf-8") as fh:
                for record in frame.to_dict(orient="records"):
                    clean = {k: (int(v) if k == "race_samples" else v) for k, v in record.items()
                             if not (v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)))}
                    fh.write(json.dumps(clean) + "\n")
        else:
            import pyarrow as pa

            self.writer.write_table(pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.tmp.replace(self.path)
            self.writer = None


_TEXT_COLUMNS = {"position", "error", "best_action", "action"}


def _pyarrow_parquet():
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise AdvisorError("Parquet files need pyarrow: pip install 'camelup-advisor[parquet]'") from None
    return pq


def _all_columns(race: bool, advice: bool, moves: bool) -> list[str]:
    """Every column a batch can produce, in a fixed order (a CSV header must
    cover later chunks too, whatever editions they hold)."""
    from .exact import RANK_LABELS
    from .rules.editions import EDITIONS

    if moves:
        return ["position", "error", "action", "ev", "sd", "p_loss"]
    camels = []
    for ed in EDITIONS.values():
        camels += [c for c in ed.racing if c not in camels]
    cols = ["position", "error"] + [f"{c}_{label}" for c in camels for label in RANK_LABELS]
    if race:
        cols += [f"{c}_{w}" for c in camels for w in ("win", "lose")] + ["race_samples"]
    if advice:
        cols += ["best_action", "best_ev"]
    return cols
