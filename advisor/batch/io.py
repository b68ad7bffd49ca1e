"""The files of a batch: inputs read with every column they carry, paths
checked before any work, and outputs that appear only when complete.

Inputs
    ``.txt`` (one board string per line; blank lines and ``#`` comments are
    skipped), ``.csv`` (a header naming a ``position`` column), ``.jsonl``
    (one JSON object per line with a ``position`` key, or a whole game state
    with a ``board`` key) and ``.parquet`` (a ``position`` column).  Every
    other column (CSV, Parquet) and every other key (JSON lines; for a game
    state, every key that is not one of the state's own) is *kept*: it goes
    to the output beside the figures, so rows can be joined back.  A CSV row
    whose number of fields differs from the header's and a JSON line that is
    not JSON are bad rows (:class:`BadRow`) with their message.  The same
    line readers serve a local run and the Dask engine's blocks.

Partial outputs (:class:`PartialOutput`)
    A batch writes into ``OUTPUT.part``, a folder beside OUTPUT holding
    ``manifest.json`` (what a run must match to resume it, and how far it
    got) and the rows: ``rows.csv`` / ``rows.jsonl`` appended chunk by chunk
    (the manifest records the file's length after each complete chunk, so a
    torn tail is cut off on resume) or, for Parquet, whose file is readable
    only once closed, one file per chunk (``chunk-00000000.parquet``, each
    written beside and renamed), combined at the end.  When every row is
    written, the rows file is renamed onto OUTPUT and the folder removed:
    OUTPUT is never seen half-written, and an existing OUTPUT is untouched
    until then.  The manifest is replaced atomically after the rows it
    counts are on disk, so a crash (even ``kill -9``) at any byte leaves a
    partial output that a resume continues from its last complete chunk.
    ``OUTPUT.part/lock`` is held while a run writes, so two runs never write
    one output.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from advisor._tools import files
from advisor.errors import AdvisorError
from advisor.rules.state import STATE_KEYS

try:  # POSIX; elsewhere runs are not locked against each other
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

__all__ = ["INPUTS", "OUTPUTS", "PARQUET_HINT", "BadRow", "Source", "PartialOutput", "kind_of",
           "pyarrow_parquet", "check_input", "check_output", "scan", "read_frames", "block_frame",
           "parquet_parts", "parquet_part_frame"]

INPUTS = (".txt", ".csv", ".jsonl", ".parquet")
OUTPUTS = (".csv", ".jsonl", ".parquet")
PARQUET_HINT = "pip install 'camelup-advisor[parquet]'"


def kind_of(path: Path, allowed: tuple[str, ...], what: str) -> str:
    """The file kind of ``path`` by its extension, one of ``allowed``."""
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise AdvisorError(f"{what} {path}: use one of {', '.join(allowed)} (by extension)")
    return suffix


def pyarrow_parquet():
    """``pyarrow.parquet``, or the one-line hint to install the extra."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise AdvisorError(f"Parquet files need pyarrow: {PARQUET_HINT}") from None
    return pq


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class BadRow:
    """An input row that cannot even be read as a position: ``text`` is the
    row as written (the output's ``position``), ``message`` the reason (its
    ``error``)."""

    text: str
    message: str


@dataclass
class Source:
    """A checked input file: its kind, the columns it keeps (in input order)
    with their types (``"string"``, ``"int64"``, ``"float64"``, ``"bool"`` or,
    from Parquet, a pyarrow type), and after :func:`scan` its row count and
    fingerprint."""

    path: Path
    kind: str
    columns: list = field(default_factory=list)
    types: list = field(default_factory=list)
    header: list | None = None  # CSV: the header's field names
    rows: int | None = None
    size: int | None = None
    sha256: str | None = None


def check_input(path) -> Source:
    """Check that ``path`` is an input batch can read (kind, existence,
    readability, a ``position`` column) without reading it through."""
    path = Path(path)
    kind = kind_of(path, INPUTS, "input")
    if kind == ".parquet":
        pyarrow_parquet()
    files.check_input(path)
    try:
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as exc:
        raise AdvisorError(f"input {path}: cannot read it ({exc.strerror or exc})") from None
    source = Source(path, kind)
    if kind == ".csv":
        with open(path, "rb") as fh:
            try:
                header = next(csv.reader(_lines(fh)), None)
            except csv.Error as exc:
                raise AdvisorError(f"input {path}: not a readable CSV header ({exc})") from None
        if not header:
            raise AdvisorError(f"input {path}: no header (a CSV input needs a header with a 'position' column)")
        _check_names(path, header)
        source.header = header
        source.columns = [c for c in header if c != "position"]
        source.types = ["string"] * len(source.columns)
    elif kind == ".parquet":
        schema = _parquet_file(path).schema_arrow
        _check_names(path, schema.names)
        source.columns = [f.name for f in schema if f.name != "position"]
        source.types = [f.type for f in schema if f.name != "position"]
    return source


def _check_names(path: Path, names: list) -> None:
    if "position" not in names:
        raise AdvisorError(f"input {path}: no 'position' column")
    seen = set()
    for name in names:
        if name in seen:
            raise AdvisorError(f"input {path}: the column {name!r} appears twice")
        seen.add(name)


def _parquet_file(path: Path):
    pq = pyarrow_parquet()
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several types for unreadable files
        raise AdvisorError(f"input {path}: not a readable Parquet file ({exc})") from None


def scan(source: Source) -> None:
    """Read the input once: its fingerprint (size and SHA-256), its row
    count, and for JSON lines the kept keys (in order of first appearance)
    and their types."""
    digest = hashlib.sha256()
    with open(source.path, "rb") as fh:
        if source.kind == ".parquet":
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
            parquet = _parquet_file(source.path)
            source.rows = parquet.metadata.num_rows
            first: dict = {}
            row = 0
            if "position" in parquet.schema_arrow.names:
                for g in range(parquet.num_row_groups):
                    for text in parquet.read_row_group(g, columns=["position"]).column(0).to_pylist():
                        row += 1
                        if isinstance(text, str) and text.strip():
                            first.setdefault("cards" if "cards" in text.split() else "board", row)
            _check_one_game(source, first)
        else:
            def hashed(lines):
                for line in lines:
                    digest.update(line)
                    yield line

            rows, seen, first = 0, {}, {}
            for item, kept in _records(source, _lines(hashed(fh))):
                rows += 1
                if isinstance(item, dict) or (isinstance(item, str) and item.strip()):
                    first.setdefault("cards" if isinstance(item, str) and "cards" in item.split() else "board", rows)
                if source.kind == ".jsonl" and kept:
                    for key, value in kept.items():
                        seen.setdefault(key, set()).add(_json_type(value))
            for _ in hashed(fh):  # whatever the reader left (nothing, normally)
                pass
            source.rows = rows
            _check_one_game(source, first)
            if source.kind == ".jsonl":
                source.columns = list(seen)
                source.types = [_column_type(tags) for tags in seen.values()]
        source.size = fh.tell()
    source.sha256 = digest.hexdigest()


def _check_one_game(source: Source, first: dict) -> None:
    """Refuse an input whose rows mix the games (``first``: the first row
    of each kind found), in one line saying how to split it."""
    if len(first) == 2:
        how = ("e.g. rows whose position has the token cards into one file, the others into another"
               if source.kind == ".parquet" else
               f"e.g. grep -w cards {source.path} > cards{source.kind}; grep -vw cards {source.path} > "
               f"board{source.kind}, the header line copied into both for CSV")
        raise AdvisorError(
            f"{source.path} mixes Camel Up Cards positions (first at row {first['cards']}) and board-game "
            f"positions (first at row {first['board']}): one batch analyses one game; put each game's "
            f"positions in a file of its own ({how})")


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64" if -(2 ** 63) <= value < 2 ** 63 else "json"
    if isinstance(value, float):
        return "float64"
    return "string" if isinstance(value, str) else "json"


def _column_type(tags: set) -> str:
    """The Parquet type of a kept JSON key from the types of its values:
    one type kept as it is, integers and floats as floats, anything else
    (mixed, nested) as text (JSON for the non-strings)."""
    tags = tags - {"null"}
    if tags in ({"bool"}, {"int64"}, {"float64"}):
        return tags.pop()
    return "float64" if tags == {"int64", "float64"} else "string"


def _lines(raw: Iterable[bytes], first: bool = True) -> Iterator[str]:
    """Text lines of a file's (or a block's) byte lines; bytes that are not
    UTF-8 are replaced (the row then fails with its message); a byte order
    mark at the start of the file is dropped."""
    for line in raw:
        text = line.decode("utf-8", errors="replace")
        if first:
            text = text.removeprefix("\ufeff")
            first = False
        yield text


def _records(source: Source, lines: Iterator[str], skip_header: bool = True):
    """``(item, kept)`` per input row: the item is a board string, a game
    state dict or a :class:`BadRow`; kept is a list (CSV, aligned with the
    source's columns), a dict (JSON lines) or None."""
    if source.kind == ".txt":
        for line in lines:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line, None
    elif source.kind == ".jsonl":
        for line in lines:
            line = line.strip()
            if line:
                yield _json_record(line)
    else:
        yield from _csv_records(source, lines, skip_header)


def _json_record(line: str):
    try:
        obj = json.loads(line)
    except ValueError as exc:
        return BadRow(line, f"not a valid JSON line ({exc})"), None
    except RecursionError:
        return BadRow(line[:200], "not a valid JSON line (nested too deeply)"), None
    if not isinstance(obj, dict):
        return ("" if obj is None else str(obj)), None
    if "board" in obj:  # a game state: its own keys make the state, the others are kept
        return ({k: v for k, v in obj.items() if k in STATE_KEYS},
                {k: v for k, v in obj.items() if k not in STATE_KEYS})
    text = obj.get("position")
    return ("" if text is None else str(text)), {k: v for k, v in obj.items() if k != "position"}


def _csv_records(source: Source, lines: Iterator[str], skip_header: bool):
    header = source.header
    at, width = header.index("position"), len(header)
    reader = csv.reader(lines)
    try:
        if skip_header:
            next(reader, None)
        for row in reader:
            if not row:  # a blank line
                continue
            if len(row) != width:
                out = io.StringIO()
                csv.writer(out, lineterminator="").writerow(row)
                yield BadRow(out.getvalue(), f"the row has {len(row)} fields where the header has {width} "
                             f"({','.join(header)})"), None
            else:
                yield row[at], row[:at] + row[at + 1:]
    except csv.Error as exc:
        raise AdvisorError(f"input {source.path}: not a readable CSV file (line {reader.line_num}: {exc})") from None


def _frame(source: Source, records: list):
    """One DataFrame of records: ``position`` (objects: strings, state dicts,
    BadRows) and the kept columns."""
    import pandas as pd

    items = [item for item, _ in records]
    data: dict[str, Any] = {}
    if source.kind == ".csv":
        columns = list(zip(*[kept if kept is not None else [None] * len(source.columns) for _, kept in records]))
        for k, name in enumerate(source.columns):
            data[name] = pd.Series(columns[k] if columns else [], dtype=object)
    elif source.kind == ".jsonl":
        for name in source.columns:
            data[name] = pd.Series([kept.get(name) if kept else None for _, kept in records], dtype=object)
    return pd.DataFrame({"position": pd.Series(items, dtype=object), **data})


def read_frames(source: Source, size: int, skip: int = 0):
    """The input as DataFrames of at most ``size`` rows (``position`` and
    the kept columns), the first ``skip`` rows passed over."""
    if source.kind == ".parquet":
        yield from _parquet_frames(source, size, skip)
        return
    chunk: list = []
    n = 0
    with open(source.path, "rb") as fh:
        for record in _records(source, _lines(fh)):
            n += 1
            if n <= skip:
                continue
            chunk.append(record)
            if len(chunk) == size:
                yield _frame(source, chunk)
                chunk = []
    if chunk:
        yield _frame(source, chunk)


def block_frame(source: Source, block: bytes, first: bool):
    """The rows of one block of a text input (a whole number of lines, as
    Dask reads them; ``first`` for the file's first block, which holds a CSV
    header) as a DataFrame like :func:`read_frames`'."""
    lines = _lines(io.BytesIO(block), first=first)
    return _frame(source, list(_records(source, lines, skip_header=first)))


def _parquet_table_frame(table):
    import pandas as pd

    position = [None if t is None else str(t) for t in table.column("position").to_pylist()]
    kept = table.drop_columns(["position"]).to_pandas(types_mapper=pd.ArrowDtype)
    kept.insert(0, "position", pd.Series(position, dtype=object))
    return kept


def _parquet_frames(source: Source, size: int, skip: int):
    import pyarrow as pa

    try:
        batches = _parquet_file(source.path).iter_batches(batch_size=size)
        pending, have, n = [], 0, 0  # n: rows of the file passed
        for batch in batches:
            start, n = n, n + batch.num_rows
            if n <= skip:
                continue
            if start < skip:
                batch = batch.slice(skip - start)
            pending.append(batch)
            have += batch.num_rows
            while have >= size:
                table = pa.Table.from_batches(pending)
                yield _parquet_table_frame(table.slice(0, size))
                rest = table.slice(size)
                pending, have = rest.to_batches(), rest.num_rows
        if have:
            yield _parquet_table_frame(pa.Table.from_batches(pending))
    except pa.ArrowException as exc:
        raise AdvisorError(f"input {source.path}: not a readable Parquet file ({exc})") from None


def parquet_parts(source: Source, rows: int) -> list[tuple[int, int, int]]:
    """``(row group, start, stop)`` slices of at most ``rows`` rows covering
    a Parquet input, in order: the Dask engine's partitions."""
    meta = _parquet_file(source.path).metadata
    parts = []
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        parts += [(g, a, min(n, a + rows)) for a in range(0, n, rows)]
    return parts


def parquet_part_frame(source: Source, part: tuple[int, int, int]):
    """The rows of one :func:`parquet_parts` slice, like :func:`read_frames`'."""
    g, start, stop = part
    table = _parquet_file(source.path).read_row_group(g)
    return _parquet_table_frame(table.slice(start, stop - start))


# --------------------------------------------------------------------------
# Where the output goes
# --------------------------------------------------------------------------

def check_output(path, source: Source, *, overwrite: bool = False, resume: bool = False) -> Path:
    """Check that batch can write ``path`` (kind, Parquet support, the
    general checks of :func:`advisor._tools.files.check_output`: a folder that
    exists and takes files, not the input however spelled; and nothing in
    the way of its partial output) and return the file to write: the path
    with links resolved, so a symbolic link keeps pointing at the result.
    An existing file is refused unless ``overwrite``, or ``resume`` with the
    partial output of a run started on it."""
    given = Path(path)
    kind = kind_of(given, OUTPUTS, "output")
    if kind == ".parquet":
        pyarrow_parquet()
    real = Path(os.path.realpath(given))
    part = real.with_name(real.name + ".part")
    files.check_output(given, inputs=[source.path], overwrite=overwrite or (resume and part.is_dir()))
    src = Path(os.path.realpath(source.path))
    if src == part or part in src.parents:
        raise AdvisorError(f"input {source.path} lies in {part}, the partial output of {given}: "
                           "choose another output")
    if part.exists() or part.is_symlink():
        if not part.is_dir() or part.is_symlink():
            raise AdvisorError(f"{part} is in the way of the partial output of {given} "
                               "(it is not one that camelup batch left): move it away")
        foreign = [p.name for p in part.iterdir() if not _OURS.fullmatch(p.name)]
        if foreign:
            raise AdvisorError(f"{part} holds files that camelup batch did not write ({foreign[0]}): "
                               "move it away")
    return real


# Every name PartialOutput writes in its folder.
_OURS = re.compile(r"lock|manifest\.json(\.tmp)?|rows\.(csv|jsonl)|combined\.parquet|chunk-\d{8}\.parquet(\.tmp)?")

_ARROW_TYPES = {"string": "string", "int64": "int64", "float64": "float64", "bool": "bool_"}


def _missing(value) -> bool:
    """Is a value of a record missing (None, NaN, NA, NaT)?  Such keys are
    left out of a JSON line."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, (str, int, list, dict)):
        return False
    import pandas as pd

    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # an array
        return False


def _json_default(value):
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def _text(value):
    """A kept JSON value as text (CSV cells, string columns)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), default=_json_default)


class PartialOutput:
    """The partial output of one batch (see the module docstring).

    ``columns`` fix the output's columns (a CSV header, a Parquet schema
    from ``types``: name -> ``"string"``, ``"int64"``, ``"float64"``,
    ``"bool"`` or a pyarrow type); ``text`` names the columns of objects that
    are written as text in CSV and as JSON values in JSON lines."""

    def __init__(self, output: Path, columns: list[str], types: dict, text: Iterable[str] = ()):
        self.output = Path(output)
        self.kind = kind_of(self.output, OUTPUTS, "output")
        self.dir = self.output.with_name(self.output.name + ".part")
        self.columns, self.types, self.text = list(columns), dict(types), set(text)
        self.manifest: dict = {}
        self.placed = False
        self._lock_fd: int | None = None
        self._fh = None
        self._schema = None

    # -- progress -----------------------------------------------------------
    @property
    def rows_in(self) -> int:
        """Input rows whose results are on disk."""
        return self.manifest.get("rows_in", 0)

    @property
    def failed(self) -> int:
        return self.manifest.get("failed", 0)

    # -- opening ------------------------------------------------------------
    def open(self, identity: dict, *, resume: bool = False, restart: bool = False,
             mismatch: Callable[[dict], str | None] = lambda old: None,
             note: Callable[[str], None] | None = None) -> dict:
        """Take the partial output for a run described by ``identity`` (what
        a resume must match; ``identity["resumable"]`` False for a run that
        cannot be resumed).  An unfinished resumable run found there is
        continued (``resume``, when ``mismatch(its manifest)`` finds no
        difference), discarded (``restart``) or, for a plain run, left alone
        with an error saying how to go on.  Anything else found there (an
        earlier run's leftovers that hold nothing to resume) is cleared.
        Returns the manifest to continue from."""
        note = note or (lambda message: None)
        created = not self.dir.exists()
        try:
            self.dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise AdvisorError(f"cannot create {self.dir}: {exc.strerror or exc}") from None
        try:
            self._lock()
            old = self._read_manifest()
            found = self._holds(old)
            if found and resume:
                why = mismatch(old)
                if why:
                    raise AdvisorError(f"cannot resume {self.output}: its unfinished run was started with {why}; "
                                       f"repeat that command, or use --restart instead of --resume to discard its "
                                       f"{old['rows_in']:,} rows")
                self._reopen(old)
                note(f"resuming {self.output}: {old['rows_in']:,} of {old.get('rows_total', 0):,} rows were done")
                return self.manifest
            if found and not restart:
                raise AdvisorError(f"{self.dir} holds {old['rows_in']:,} of {old.get('rows_total', 0):,} rows of an "
                                   f"unfinished run: add --resume to continue it, or --restart to discard it")
            if not found and old is not None and old["rows_in"] and not old.get("resumable", True):
                note(f"discarding {self.dir}, left by a run that cannot be resumed")
            if resume and not found:
                note(f"nothing to resume for {self.output}: starting from the first row")
            self._start(identity)
            return self.manifest
        except BaseException:
            self._unlock()
            if created:
                shutil.rmtree(self.dir, ignore_errors=True)
            raise

    def _lock(self) -> None:
        fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise AdvisorError(f"output {self.output} is in use by another run (its partial output {self.dir} "
                                   "is locked)") from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the lock
            self._lock_fd = None

    def _read_manifest(self) -> dict | None:
        path = self.dir / "manifest.json"
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("rows_in"), int):
                raise ValueError("not a manifest")
        except (OSError, ValueError) as exc:
            raise AdvisorError(f"{path} is unreadable ({exc}): move {self.dir} away to start again") from None
        return data

    def _result(self) -> Path:
        return self.dir / ("combined.parquet" if self.kind == ".parquet" else "rows" + self.kind)

    def _holds(self, old: dict | None) -> bool:
        """Does ``old`` describe work a resume can use?"""
        if old is None or not old.get("resumable", True) or old.get("kind") != self.kind:
            return False
        if old.get("finished"):  # complete, and not yet in place unless its result is gone
            return self._result().exists()
        return old["rows_in"] > 0

    def _clear(self) -> None:
        for p in self.dir.iterdir():
            if p.name != "lock" and _OURS.fullmatch(p.name):
                p.unlink()

    def _start(self, identity: dict) -> None:
        self._clear()
        self.manifest = {**identity, "kind": self.kind, "columns": self.columns, "rows_in": 0, "rows_out": 0,
                         "failed": 0, "bytes": 0, "chunks": 0, "finished": False}
        if self.kind != ".parquet":
            import pandas as pd

            head = pd.DataFrame(columns=self.columns).to_csv(index=False).encode() if self.kind == ".csv" else b""
            self._fh = open(self._result(), "wb")
            self._append_bytes(head)
        self._save()

    def _reopen(self, old: dict) -> None:
        self.manifest = dict(old)
        for p in self.dir.glob("*.tmp"):
            p.unlink()
        if old.get("finished"):
            return
        if self.kind == ".parquet":
            for k in range(old["chunks"]):
                if not self._chunk(k).exists():
                    raise AdvisorError(f"cannot resume {self.output}: {self._chunk(k)} is missing "
                                       "(changed outside camelup): use --restart")
            for p in self.dir.glob("chunk-*.parquet"):
                if int(p.name[6:14]) >= old["chunks"]:
                    p.unlink()  # written after the last complete chunk was recorded
            return
        rows = self._result()
        size = rows.stat().st_size if rows.exists() else -1
        if size < old["bytes"]:
            raise AdvisorError(f"cannot resume {self.output}: {rows} is shorter than its manifest records "
                               "(changed outside camelup): use --restart")
        self._fh = open(rows, "r+b")
        self._fh.truncate(old["bytes"])  # a chunk torn by a crash
        self._fh.seek(old["bytes"])

    # -- writing ------------------------------------------------------------
    def _chunk(self, k: int, suffix: str = "") -> Path:
        return self.dir / f"chunk-{k:08d}.parquet{suffix}"

    def _save(self) -> None:
        path, tmp = self.dir / "manifest.json", self.dir / "manifest.json.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.manifest, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    def _append_bytes(self, data: bytes) -> None:
        self._fh.write(data)
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.manifest["bytes"] += len(data)

    def append(self, frame, rows_in: int, failed: int) -> None:
        """Add the results of ``rows_in`` input rows (``failed`` of them bad),
        then record them as done."""
        frame = self._conform(frame)
        try:
            if self.kind == ".parquet":
                pq = pyarrow_parquet()
                k = self.manifest["chunks"]
                pq.write_table(self._table(frame), self._chunk(k, ".tmp"))
                os.replace(self._chunk(k, ".tmp"), self._chunk(k))
                self.manifest["chunks"] = k + 1
            else:
                self._append_bytes(self._encode(frame))
            self.manifest["rows_in"] += rows_in
            self.manifest["rows_out"] += len(frame)
            self.manifest["failed"] += failed
            self._save()
        except OSError as exc:
            raise AdvisorError(f"cannot write {self.dir}: {exc.strerror or exc}; {self.kept()}") from None

    def kept(self) -> str:
        """What is kept and how to go on, for a message."""
        return (f"{self.rows_in:,} of {self.manifest.get('rows_total', 0):,} rows kept in {self.dir}: "
                f"run the same command with --resume to continue")

    def _conform(self, frame):
        frame = frame.reindex(columns=self.columns)
        if "race_samples" in frame:  # a count: integer, empty for failed rows
            frame = frame.astype({"race_samples": "Int64"})
        return frame

    def _encode(self, frame) -> bytes:
        if self.kind == ".csv":
            frame = frame.copy()
            for name in self.text:
                if frame[name].dtype == object:
                    frame[name] = frame[name].map(_text)
            return frame.to_csv(header=False, index=False).encode()
        lines = []
        for record in frame.to_dict(orient="records"):
            clean = {k: (int(v) if k == "race_samples" else v) for k, v in record.items() if not _missing(v)}
            lines.append(json.dumps(clean, default=_json_default) + "\n")
        return "".join(lines).encode()

    def schema(self):
        if self._schema is None:
            import pyarrow as pa

            self._schema = pa.schema([(c, getattr(pa, _ARROW_TYPES[t])() if isinstance(t, str) else t)
                                      for c, t in ((c, self.types[c]) for c in self.columns)])
        return self._schema

    def _table(self, frame):
        import pyarrow as pa

        frame = frame.copy()
        for name in self.text:
            if frame[name].dtype == object and self.types[name] == "string":
                frame[name] = frame[name].map(_text)
        return pa.Table.from_pandas(frame, schema=self.schema(), preserve_index=False)

    # -- ending -------------------------------------------------------------
    def commit(self) -> None:
        """Put the complete output in place of OUTPUT and remove the partial."""
        result = self._result()
        if not self.manifest.get("finished"):
            if self.kind == ".parquet":
                pq = pyarrow_parquet()
                with pq.ParquetWriter(result, self.schema()) as writer:
                    for k in range(self.manifest["chunks"]):
                        writer.write_table(pq.read_table(self._chunk(k), schema=self.schema()))
                    if not self.manifest["chunks"]:
                        writer.write_table(self.schema().empty_table())
            else:
                self._fh.close()
                self._fh = None
            with open(result, "rb") as fh:
                os.fsync(fh.fileno())
            self.manifest["finished"] = True
            self._save()
        if self.output.exists():
            shutil.copymode(self.output, result)
        os.replace(result, self.output)
        self.placed = True
        self.discard()

    def close(self) -> None:
        """Stop writing, keeping the partial output for a resume."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        self._unlock()

    def discard(self) -> None:
        """Stop writing and remove the partial output."""
        self.close()
        try:
            (self.dir / "manifest.json").unlink(missing_ok=True)
        except OSError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
