"""Output files: checked before any work, written whole or not at all.

Every command that writes a file calls :func:`check_output` first (so a
typo in the folder costs nothing, not a traceback after an hour of work),
then writes through :func:`atomic_output` (a temporary file beside the
target, renamed onto it only when complete: a failure or Ctrl-C leaves the
old file, if any, as it was).  Long runs that can be resumed write a
:func:`partial_path` file instead and rename it with :func:`commit` at the
end.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from .errors import AdvisorError

__all__ = ["check_output", "check_input", "atomic_output", "partial_path", "commit", "discard"]


def _target(path: str | os.PathLike) -> Path:
    """The file a write to ``path`` must replace: symbolic links followed
    (renaming onto a link would replace the link, not its file)."""
    return Path(os.path.realpath(os.fspath(path)))


def check_output(path: str | os.PathLike, *, suffixes: Iterable[str] | None = None, what: str = "output",
                 inputs: Iterable[str | os.PathLike] = ()) -> Path:
    """Check, before any work, that ``path`` can be written; returns it as a
    :class:`~pathlib.Path`.  Refused with one line naming ``path``: an
    extension not among ``suffixes`` (case-insensitive), an existing
    directory or other non-regular file, a folder that does not exist or
    cannot be written (tried by creating a file in it), or the same file as
    one of ``inputs`` (however spelled)."""
    if not os.fspath(path):
        raise AdvisorError(f"{what}: no file name given")
    out = Path(path)
    if suffixes is not None:
        allowed = tuple(s.lower() for s in suffixes)
        if out.suffix.lower() not in allowed:
            raise AdvisorError(f"{what} {out}: use one of {', '.join(allowed)} (by extension)")
    target = _target(out)
    if target.is_dir():
        raise AdvisorError(f"{what} {out}: is a folder, not a file")
    if target.exists() and not target.is_file():
        raise AdvisorError(f"{what} {out}: exists and is not a regular file")
    for other in inputs:
        if _target(other) == target or (target.exists() and Path(other).exists()
                                        and os.path.samefile(target, other)):
            raise AdvisorError(f"{what} {out}: is the input {other}; choose another output file")
    folder = target.parent
    if not folder.is_dir():
        problem = "is not a folder" if folder.exists() else "does not exist"
        raise AdvisorError(f"{what} {out}: the folder {folder} {problem}")
    try:  # the one sure test of writability (permissions, read-only mounts, quotas)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".check")
    except OSError as exc:
        raise AdvisorError(f"{what} {out}: cannot write in the folder {folder} ({exc.strerror})") from None
    os.close(fd)
    os.unlink(probe)
    return out


def check_input(path: str | os.PathLike, what: str = "input") -> Path:
    """``path`` as a :class:`~pathlib.Path` if it is a readable regular file."""
    p = Path(path)
    if not p.exists():
        raise AdvisorError(f"{what} {p}: no such file")
    if not p.is_file():
        raise AdvisorError(f"{what} {p}: is not a regular file")
    if not os.access(p, os.R_OK):
        raise AdvisorError(f"{what} {p}: cannot be read (permission denied)")
    return p


def _mode() -> int:
    """The permissions a new file gets (0666 less the umask): mkstemp's
    files are private, the output should not be."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_output(path: str | os.PathLike, what: str = "output") -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write to; when the block
    ends normally it is renamed onto ``path`` (one step: readers see the old
    file or the whole new one); on any exception, Ctrl-C included, it is
    removed and ``path`` is left as it was.  An ``OSError`` while writing
    (disk full, ...) becomes an :class:`AdvisorError` naming ``path``."""
    target = _target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise AdvisorError(f"cannot write {what} {path}: {exc.strerror}") from None
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, _mode())
        os.replace(tmp_path, target)
    except OSError as exc:
        discard(tmp_path)
        raise AdvisorError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    except BaseException:
        discard(tmp_path)
        raise


def partial_path(path: str | os.PathLike) -> Path:
    """Where a resumable run writes until it is complete: ``NAME.part``
    beside ``path``."""
    target = _target(path)
    return target.with_name(target.name + ".part")


def commit(partial: str | os.PathLike, path: str | os.PathLike) -> None:
    """Rename a complete ``partial`` file onto ``path``."""
    try:
        os.replace(partial, _target(path))
    except OSError as exc:
        raise AdvisorError(f"cannot write {path}: {exc.strerror}") from None


def discard(path: str | os.PathLike) -> None:
    """Remove ``path`` if it exists (cleaning up after a failure)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
