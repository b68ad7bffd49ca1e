"""Output files: checked before any work, written whole or not at all.

Every command that writes a file calls :func:`check_output` first (so a
typo in the folder costs nothing, not a traceback after an hour of work),
then writes through :func:`atomic_output` (a temporary file beside the
target, renamed onto it only when complete: a failure or Ctrl-C leaves the
old file, if any, as it was).  Long runs that can be resumed write a
:func:`partial_path` file instead and rename it with :func:`commit` at the
end.

Two runs never write one file: every writer holds :func:`claim` on its
output (``NAME.lock`` beside it, naming the process) from before its checks
until the file is in place; a second run is refused with one line naming
the first one's pid.  A lock left by a run that died (``kill -9``, a power
cut) is free and taken over.  And an existing file is replaced only when
asked (``overwrite``; :func:`check_output`).
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from advisor.errors import AdvisorError

try:  # POSIX; elsewhere a lock names its pid and a live pid keeps it
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

__all__ = ["check_output", "check_input", "file_kind", "atomic_output", "partial_path", "commit", "discard",
           "claim", "lock_path", "folder_problem", "OVERWRITE_HINT"]

OVERWRITE_HINT = "add --overwrite to replace it"


def _target(path: str | os.PathLike) -> Path:
    """The file a write to ``path`` must replace: symbolic links followed
    (renaming onto a link would replace the link, not its file)."""
    try:
        return Path(os.path.realpath(os.fspath(path)))
    except ValueError:  # a NUL character
        raise AdvisorError(f"{os.fspath(path)!r}: not a valid file name") from None


def file_kind(path: str | os.PathLike, what: str = "file", name: str | os.PathLike | None = None) -> str | None:
    """``"file"``, ``"folder"``, ``"other"`` (a device, a pipe, ...) or
    ``None`` (nothing there) for ``path``; a name the system refuses (too
    long, ...) is an :class:`AdvisorError` naming ``name`` (default
    ``path``), not an ``OSError``."""
    shown = _shown(path if name is None else name)
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise AdvisorError(f"{what} {shown}: {exc.strerror}") from None
    except ValueError:  # e.g. a NUL character in the name
        raise AdvisorError(f"{what} {shown}: not a valid file name") from None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def _shown(path) -> str:
    text = os.fspath(path)
    return text if len(text) <= 80 else f"{text[:50]}...{text[-20:]}"


def check_output(path: str | os.PathLike, *, suffixes: Iterable[str] | None = None, what: str = "output",
                 inputs: Iterable[str | os.PathLike] = (), overwrite: bool | None = None) -> Path:
    """Check, before any work, that ``path`` can be written; returns it as a
    :class:`~pathlib.Path`.  Refused with one line naming ``path``: an
    extension not among ``suffixes`` (case-insensitive), an existing
    directory or other non-regular file, a folder that does not exist or
    cannot be written (tried by creating a file in it), a name the system
    refuses, or the same file as one of ``inputs`` (however spelled); with
    ``overwrite=False``, a file already there (it is replaced only when the
    caller was asked to: ``--overwrite``)."""
    if not os.fspath(path):
        raise AdvisorError(f"{what}: no file name given")
    out = Path(path)
    shown = _shown(out)
    if suffixes is not None:
        allowed = tuple(s.lower() for s in suffixes)
        if out.suffix.lower() not in allowed:
            raise AdvisorError(f"{what} {shown}: use one of {', '.join(allowed)} (by extension)")
    if "\0" in os.fspath(out):
        raise AdvisorError(f"{what} {shown}: not a valid file name")
    target = _target(out)
    kind = file_kind(target, what, out)
    if kind == "folder":
        raise AdvisorError(f"{what} {shown}: is a folder, not a file")
    if kind == "other":
        raise AdvisorError(f"{what} {shown}: exists and is not a regular file")
    for other in inputs:
        same = _target(other) == target
        if not same and kind == "file" and file_kind(other, "input") == "file":
            same = os.path.samefile(target, other)
        if same:
            raise AdvisorError(f"{what} {shown} is the input file {_shown(other)}: choose another output "
                               "(an input is never written)")
    if kind == "file" and overwrite is False:
        raise AdvisorError(f"{what} {shown} exists: {OVERWRITE_HINT}, or choose another file")
    folder = target.parent
    folder_kind = file_kind(folder, what, out)
    if folder_kind != "folder":
        raise AdvisorError(f"{what} {shown}: {folder_problem(folder, folder_kind)}")
    try:  # the one sure test of writability (permissions, read-only mounts, quotas, name length)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{target.name[:100]}.", suffix=".check")
    except OSError as exc:
        raise AdvisorError(f"{what} {shown}: cannot write in the folder {_shown(folder)} ({exc.strerror})") from None
    os.close(fd)
    os.unlink(probe)
    return out


def folder_problem(folder: Path, kind: str | None) -> str:
    """Why ``folder`` cannot hold a file: the first part of its path that
    is a file (a path under a file), else the folder that does not exist."""
    if kind is not None:
        return f"{_shown(folder)} is not a folder (it is a file)"
    for above in [folder, *folder.parents]:
        above_kind = file_kind(above)
        if above_kind is None:
            continue
        if above_kind != "folder":
            return f"{_shown(above)} is not a folder (it is a file)"
        break
    return f"the folder {_shown(folder)} does not exist"


def check_input(path: str | os.PathLike, what: str = "input") -> Path:
    """``path`` as a :class:`~pathlib.Path` if it is a readable regular file."""
    p = Path(path)
    kind = file_kind(p, what)
    if kind is None:
        raise AdvisorError(f"{what} {_shown(p)}: no such file")
    if kind != "file":
        raise AdvisorError(f"{what} {_shown(p)}: is not a regular file")
    if not os.access(p, os.R_OK):
        raise AdvisorError(f"{what} {_shown(p)}: cannot be read (permission denied)")
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
    with claim(target, what):
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:100]}.", suffix=".part")
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


# --------------------------------------------------------------------------
# One run per output
# --------------------------------------------------------------------------

_HELD: dict[Path, list] = {}  # output -> [lock fd, depth] for the claims of this process


def lock_path(path: str | os.PathLike) -> Path:
    """The lock file of the output ``path``: ``NAME.lock`` beside it."""
    target = _target(path)
    return target.with_name(target.name + ".lock")


def _pid_in(fd: int) -> int | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 64).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except OSError:
        return False
    return True


def _in_use(what: str, path, pid: int | None) -> AdvisorError:
    who = f"pid {pid}" if pid is not None else "pid unknown"
    return AdvisorError(f"{what} {_shown(path)} is in use by another run, {who}: wait for it to end or "
                        "choose another file")


def _acquire(target: Path, what: str, shown) -> int | None:
    """Take the lock file of ``target``; ``None`` where no lock file can be
    made (a folder that does not exist...: the writer's own checks say so)."""
    lock = target.with_name(target.name + ".lock")
    for _ in range(20):
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except (OSError, ValueError):
            return None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                pid = _pid_in(fd)
                os.close(fd)
                raise _in_use(what, shown, pid) from None
            try:  # its last holder may have removed it between our open and our lock
                now = os.stat(lock)
                mine = os.fstat(fd)
                current = (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev)
            except OSError:
                current = False
            if not current:
                os.close(fd)
                continue
        else:  # pragma: no cover - no flock: a live pid keeps the lock
            pid = _pid_in(fd)
            if pid is not None and pid != os.getpid() and _alive(pid):
                os.close(fd)
                raise _in_use(what, shown, pid)
        # free: never taken, or left by a run that died (its lock went with it)
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        except OSError:
            pass
        return fd
    raise _in_use(what, shown, None)


@contextmanager
def claim(path: str | os.PathLike, what: str = "output") -> Iterator[Path]:
    """Hold ``path`` for this run while the block runs: ``NAME.lock`` beside
    it names this process and is locked (``flock``); another run that
    claims the same file (however spelled) is refused with one line naming
    this one's pid: "in use by another run, pid N".  The lock dies with its
    process, so a lock file left by a run that was killed is taken over.
    Claims nest within one process (a command and the library function it
    calls both claim their output)."""
    target = _target(path)
    held = _HELD.get(target)
    if held is not None:
        held[1] += 1
        try:
            yield target
        finally:
            held[1] -= 1
        return
    fd = _acquire(target, what, path)
    if fd is None:
        yield target
        return
    _HELD[target] = [fd, 1]
    try:
        yield target
    finally:
        del _HELD[target]
        try:
            os.unlink(target.with_name(target.name + ".lock"))
        except OSError:
            pass
        os.close(fd)
