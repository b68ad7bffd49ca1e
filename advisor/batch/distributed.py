"""``camelup batch --engine dask``: the batch as a Dask job on a cluster.

The input and output are checked here exactly as for a local run, before any
work (so this machine must see the input too), and the input is scanned
once for its row count and, for JSON lines, its keys.  Then the workers read
it themselves in pieces: a text input (.txt, .csv, .jsonl) in blocks of
whole lines (``dask.bytes.read_bytes``), a Parquet input in slices of its
row groups; each piece is parsed by the same readers as a local run (kept
columns, bad rows) and analysed by :func:`advisor.batch.positions.analyse` (race odds
seeded per row, so the figures equal those of a local run with the same
seed).  The results come back here in input order into the same partial
output as a local run, which replaces OUTPUT only when complete.  A Dask
run does not resume: when it fails or is interrupted its partial output is
removed and OUTPUT is left as it was.

Give a path every worker can read (a shared file system).  As with
``dask.dataframe.read_csv``, a quoted CSV field holding a line break may be
cut at a block boundary; the two halves then come out as bad rows.  Needs
the optional extra ``camelup-advisor[dask]``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Callable

from advisor._tools.cluster import connect
from advisor._tools.files import claim
from advisor.batch.positions import (
    analyse,
    analyse_moves,
    count_failed,
    output_columns,
    run_identity,
)
from advisor.valuation.engine import check_objective
from advisor.batch.io import (
    PartialOutput,
    Source,
    block_frame,
    check_input,
    check_output,
    parquet_part_frame,
    parquet_parts,
    scan,
)
from advisor.errors import AdvisorError, Interrupted

__all__ = ["run_batch_dask"]

PART_ROWS = 20_000  # rows per partition of a Parquet input


def _dask():
    try:
        from dask import delayed
        from dask.bytes import read_bytes
        from dask.utils import parse_bytes
    except ImportError:
        raise AdvisorError(
            "the dask engine needs Dask: pip install 'camelup-advisor[dask]'"
        ) from None
    return delayed, read_bytes, parse_bytes


def _job(piece, *, source: Source, first: bool, columns, race, precision, seed, advice, moves, objective="win"):
    """Analyse one piece of the input on a worker: ``(frame, rows, failed)``."""
    if source.kind == ".parquet":
        frame_in = parquet_part_frame(source, piece)
    else:
        frame_in = block_frame(source, piece, first)
    if moves:
        frame = analyse_moves(frame_in, precision=precision, seed=seed, objective=objective)
    else:
        frame = analyse(frame_in, race=race, precision=precision, seed=seed, advice=advice, objective=objective)
    return frame.reindex(columns=columns), len(frame_in), count_failed(frame)


def run_batch_dask(input_path, output_path, *, scheduler: str, race: bool = False, precision: float = 0.01,
                   seed: int = 0, advice: bool = False, moves: bool = False, objective: str = "win",
                   restart: bool = False, blocksize: str = "4MB", progress: bool | None = None,
                   note: Callable[[str], None] | None = None, overwrite: bool = False) -> tuple[int, int]:
    """Run :func:`advisor.batch.positions.run_batch`'s work on the Dask cluster at
    ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``); returns ``(rows, failed)``.
    ``objective`` ranks the advice and the moves, as in a local run.
    The same checks before work, the same output and the same refusal to
    discard an unfinished local run's rows (unless ``restart``), the same
    claim on the output and refusal to replace an existing one (unless
    ``overwrite``)."""
    with claim(output_path):
        return _run_batch_dask(input_path, output_path, scheduler, race, precision, seed, advice, moves, objective,
                               restart, blocksize, progress, note, overwrite)


def _run_batch_dask(input_path, output_path, scheduler, race, precision, seed, advice, moves, objective, restart,
                    blocksize, progress, note, overwrite) -> tuple[int, int]:
    from tqdm import tqdm

    note = note or (lambda message: None)
    check_objective(objective)
    source = check_input(input_path)
    output = check_output(output_path, source, overwrite=overwrite)
    delayed, read_bytes, parse_bytes = _dask()
    scan(source)
    columns, types, kept, renamed = output_columns(source, race, advice, moves)
    identity = run_identity(source, output, engine="dask", race=race, precision=precision, seed=seed,
                            advice=advice, moves=moves, columns=columns, objective=objective)
    client = connect(scheduler)
    bar = None
    try:
        partial = PartialOutput(output, columns, types, text=kept)
        partial.open(identity, restart=restart, note=note)
        if renamed:
            note("input column(s) kept under another name, the first being an output column's: "
                 + ", ".join(f"{a} as {b}" for a, b in renamed))
        remote = dataclasses.replace(source, path=Path(os.path.abspath(source.path)))
        if source.kind == ".parquet":
            pieces = [(part, False) for part in parquet_parts(remote, PART_ROWS)]
        else:
            _, blocks = read_bytes(str(remote.path), delimiter=b"\n", blocksize=parse_bytes(blocksize),
                                   sample=False)
            pieces = [(block, i == 0) for i, block in enumerate(blocks[0] if blocks else [])]
        jobs = [delayed(_job)(piece, source=remote, first=first, columns=columns, race=race, precision=precision,
                              seed=seed, advice=advice, moves=moves, objective=objective)
                for piece, first in pieces]
        if progress is None:
            progress = sys.stderr.isatty()
        bar = tqdm(unit="partition", total=len(jobs), disable=not progress, file=sys.stderr)
        try:
            for future in client.compute(jobs):  # in input order; the cluster works ahead
                frame, rows, failed = future.result()
                future.release()
                partial.append(frame, rows, failed)
                bar.update()
            partial.commit()
        except KeyboardInterrupt:
            done = partial.rows_in
            partial.discard()
            if not partial.placed:
                raise Interrupted(f"stopped after {done:,} of {source.rows:,} rows; nothing kept, as a Dask run "
                                  f"cannot resume: {output_path} is as it was") from None
        except BaseException:
            partial.discard()
            raise
    finally:
        if bar is not None:
            bar.close()
        client.close()
    return partial.rows_in, partial.failed
