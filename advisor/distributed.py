"""``camelup batch --engine dask``: the batch as a Dask job on a cluster.

The input is read as a ``dask.dataframe`` (CSV and Parquet natively; text and
JSON lines through ``dask.bag``), every partition is analysed on the cluster
by :func:`advisor.batch.analyse` (race odds seeded per row, so the figures
equal those of a local run with the same seed), and the results are written
here, in input order, through the same writer as a local run.  The workers
read the input themselves: give a path they can all see (a shared file
system, or any URL Dask can read).  Needs the optional extra
``camelup-advisor[dask]``.
"""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

from .batch import (
    _INPUTS,
    _OUTPUTS,
    _TEXT_COLUMNS,
    _all_columns,
    _kind,
    _Sink,
    analyse,
    analyse_moves,
    count_failed,
)
from .errors import AdvisorError

__all__ = ["run_batch_dask"]


def _dask():
    try:
        import dask.bag as db
        import dask.dataframe as dd
        from dask.distributed import Client
    except ImportError:
        raise AdvisorError(
            "the dask engine needs Dask: pip install 'camelup-advisor[dask]'"
        ) from None
    return db, dd, Client


def _text_line(line: str) -> str | None:
    line = line.strip()
    return None if not line or line.startswith("#") else line


def _json_line(line: str) -> str | None:
    line = line.strip()
    if not line:
        return None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return line  # reported as a bad position
    if isinstance(obj, dict) and "board" in obj:
        return json.dumps(obj)  # a game state, decoded again by the partition job
    return str(obj.get("position", "")) if isinstance(obj, dict) else str(obj)


def _is_row(x) -> bool:
    return x is not None


def _to_record(text: str) -> dict:
    return {"position": text}


def _read(src: str, kind: str, blocksize: str):
    db, dd, _ = _dask()
    if kind == ".csv":
        return dd.read_csv(src, dtype=str, keep_default_na=False, blocksize=blocksize)[["position"]]
    if kind == ".parquet":
        return dd.read_parquet(src, columns=["position"])
    parse = _text_line if kind == ".txt" else _json_line
    bag = db.read_text(src, blocksize=blocksize).map(parse).filter(_is_row).map(_to_record)
    return bag.to_dataframe(meta={"position": "object"})


def _analyse_partition(part, *, columns, race, precision, seed, advice, moves):
    texts = [json.loads(t) if isinstance(t, str) and t.startswith("{") else t for t in part["position"]]
    if moves:
        frame = analyse_moves(texts, precision=precision, seed=seed)
    else:
        frame = analyse(texts, race=race, precision=precision, seed=seed, advice=advice)
    return frame.reindex(columns=columns)


def run_batch_dask(input_path, output_path, *, scheduler: str, race: bool = False, precision: float = 0.01,
                   seed: int = 0, advice: bool = False, moves: bool = False, blocksize: str = "4MB",
                   progress: bool | None = None) -> tuple[int, int]:
    """Run :func:`advisor.batch.run_batch`'s work on the Dask cluster at
    ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``); returns ``(rows, failed)``."""
    import pandas as pd
    from tqdm import tqdm

    _, _, Client = _dask()
    src, dst = Path(input_path), Path(output_path)
    in_kind, out_kind = _kind(src, _INPUTS, "input"), _kind(dst, _OUTPUTS, "output")
    if not src.is_file():
        raise AdvisorError(f"input {src}: no such file")
    columns = _all_columns(race, advice, moves)
    meta = pd.DataFrame({c: pd.Series(dtype="object" if c in _TEXT_COLUMNS else "float64") for c in columns})
    job = partial(_analyse_partition, columns=columns, race=race, precision=precision, seed=seed,
                  advice=advice, moves=moves)
    frames = _read(str(src), in_kind, blocksize).map_partitions(job, meta=meta)
    if dst.exists():
        dst.unlink()
    if progress is None:
        progress = sys.stderr.isatty()
    rows = failed = 0
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise AdvisorError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    sink = _Sink(dst, out_kind, columns)
    bar = tqdm(unit="partition", total=frames.npartitions, disable=not progress, file=sys.stderr)
    try:
        futures = client.compute(frames.to_delayed())
        for future in futures:  # in input order; the cluster works ahead
            frame = future.result()
            future.release()
            failed += count_failed(frame, moves)
            rows += len(frame) if not moves else frame["position"].nunique()
            sink.write(frame)
            bar.update()
    finally:
        sink.close()
        bar.close()
        client.close()
    return rows, failed
