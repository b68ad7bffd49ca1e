"""Merge numba cache folders: kernels compiled in several processes at
once, each in a cache folder of its own, added to one cache.

Numba's cache is not safe with two writers: it keeps per function an index
(``NAME.nbi``: the numba version, then the source stamp and, per compiled
signature and machine, the name of a data file ``NAME.N.nbc``, numbered
from 1 in each cache).  Two processes compiling into one folder would each
write the index they read before the other's entries.  So each process
compiles into a folder of its own and :func:`merge_cache` adds that folder
to the shared cache, as numba would have written it: a function both
folders hold (a callee both processes compiled) gets the union of both
indexes, the entries the shared cache lacks added under data file numbers
it does not use yet.  Data files are written before the index that names
them, each atomically (a temporary file renamed), and merges into one cache
take turns (:func:`cache_lock`), so two commands merging at once, or a
reader loading meanwhile, never see half a file; at worst one of two
writers' entries is lost, and that kernel compiles again when it is next
called.

:func:`compile_halves` runs the compiling processes: at once, each with its
cache folder, quiet (Ctrl-C is left to the parent, which stops them).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
from pathlib import Path

from advisor._tools.workers import held_interrupts

__all__ = ["read_index", "write_atomically", "merge_cache", "cache_lock", "compile_halves"]

_LOCK = ".merge.lock"


def read_index(path: Path) -> tuple:
    """A numba cache index (``.nbi``): ``(numba version, source stamp,
    {key: data file name})``."""
    with open(path, "rb") as f:
        version = pickle.load(f)
        stamp, overloads = pickle.loads(f.read())
    return version, stamp, overloads


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name, then rename it:
    a reader sees the old file or the new one, never half of one."""
    tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


@contextlib.contextmanager
def cache_lock(folder: Path):
    """Hold the merge lock of the cache ``folder`` (a lock file in it;
    waits for another process's merge to end).  Where the platform has no
    file locks, nothing is held."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: merges are still atomic file by file
        yield
        return
    with open(folder / _LOCK, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def merge_cache(part: Path, shared: Path) -> int:
    """Add the numba cache folder ``part`` to ``shared`` (see the module
    docstring); returns the number of compiled signatures added.  An index
    of another numba version or source stamp in ``shared`` is stale and
    replaced, as numba would; an entry whose data file is missing in
    ``part`` is left out (it compiles when next called)."""
    from numba.core.serialize import dumps

    part, shared = Path(part), Path(shared)
    added_total = 0
    with cache_lock(shared):
        for index in sorted(part.rglob("*.nbi")):
            target = shared / index.relative_to(part)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                version, stamp, overloads = read_index(index)
            except Exception:  # noqa: BLE001 - a half-written index of an interrupted process: left out
                continue
            try:
                old_version, old_stamp, old = read_index(target)
            except Exception:  # noqa: BLE001 - none yet, or unreadable (another numba's): as numba, start afresh
                old_version, old_stamp, old = None, None, {}
            merged = dict(old) if (old_version, old_stamp) == (version, stamp) else {}
            used = set(merged.values())
            base = index.name[:-len(".nbi")]
            added = 0
            for key, name in overloads.items():
                if key in merged:
                    continue
                try:
                    data = (index.parent / name).read_bytes()
                except OSError:
                    continue
                number = 1
                while f"{base}.{number}.nbc" in used:
                    number += 1
                merged[key] = f"{base}.{number}.nbc"
                used.add(merged[key])
                write_atomically(target.parent / merged[key], data)
                added += 1
            if added:  # numba's layout: the pickled version, then the pickled (stamp, index)
                write_atomically(target, pickle.dumps(version, protocol=-1) + dumps((stamp, merged)))
            added_total += added
    return added_total


def _stop(procs) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        proc.wait()


def compile_halves(parts: list[list[str]], folder: Path, script: str,
                   variable: str = "CAMELUP_CACHE_DIR") -> tuple[list[Path], list[str]]:
    """Run ``python -c script *part`` for each list of names of ``parts``,
    all at once, each with a cache folder of its own under ``folder`` (the
    environment variable ``variable``; the script compiles there and prints
    the numba cache folder it filled as its last line).  Returns the cache
    folders of the processes that succeeded, and one line per process that
    failed (its exit status and the end of its stderr).  Ctrl-C, or any
    exception here, ends the processes before it is raised; they print
    nothing."""
    package_root = str(Path(__file__).resolve().parents[2])  # the script imports this package
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p)
    procs, logs = [], []
    try:
        with held_interrupts():  # a process still starting when Ctrl-C came would print a traceback
            for i, names in enumerate(parts):
                env = {**os.environ, variable: str(folder / f"half{i}"), "PYTHONPATH": path}
                log = open(folder / f"half{i}.log", "w+")
                logs.append(log)
                procs.append(subprocess.Popen([sys.executable, "-c", script, *names], env=env,
                                              stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                                              text=True))
        folders, failed = [], []
        for proc, names, log in zip(procs, parts, logs):
            out, _ = proc.communicate()
            lines = out.splitlines()
            if proc.returncode == 0 and lines and Path(lines[-1]).is_dir():
                folders.append(Path(lines[-1]))
            else:
                log.seek(0)
                tail = log.read()[-2000:].strip().splitlines()[-1:] or [""]
                failed.append(f"{','.join(names)}: exit {proc.returncode} {tail[0]}".strip())
        return folders, failed
    finally:
        _stop(procs)
        for log in logs:
            log.close()
