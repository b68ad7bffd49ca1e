"""A Dask cluster as an engine for many independent jobs, results in order.

Used by ``camelup simulate / tournament / duel --engine dask``: connect to
a running scheduler (``dask scheduler`` on one machine, ``dask worker
tcp://HOST:8786`` on each worker, each with ``camelup-advisor[dask]``
installed) and hand it the jobs a few to a task.  The results come back in
the order of the jobs, whatever order the workers finish in, so a run on a
cluster gives what a local run gives.  Needs the optional extra
``camelup-advisor[dask]``.
"""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Callable, Iterable, Iterator

from advisor.errors import AdvisorError

__all__ = ["connect", "ordered_tasks"]


def connect(scheduler: str):
    """A ``dask.distributed.Client`` of the scheduler at ``scheduler``
    (e.g. ``tcp://10.0.0.5:8786``); one clear error when Dask is missing or
    the scheduler cannot be reached."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise AdvisorError("the dask engine needs Dask: pip install 'camelup-advisor[dask]'") from None
    _refused(scheduler)
    try:
        return Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise AdvisorError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    except ValueError as exc:  # an address Dask cannot parse
        raise AdvisorError(f"the Dask scheduler address {scheduler!r:.80} is not valid: {exc}") from None


def _refused(scheduler: str) -> None:
    """Refuse at once a ``tcp://host:port`` address where nothing listens
    (Dask's client would retry a refused connection for its whole 10 s
    timeout); any other answer, and other protocols, are Dask's to judge."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(scheduler)
        host, port = parts.hostname, parts.port
    except ValueError:
        return  # Dask names the bad address
    if parts.scheme != "tcp" or not host or port is None:
        return
    try:
        socket.create_connection((host, port), timeout=2).close()
    except ConnectionRefusedError:
        raise AdvisorError(f"cannot reach the Dask scheduler at {scheduler}: nothing listens there "
                           "(connection refused)") from None
    except OSError:
        return  # unreachable or slow: Dask's own timeout and message


def ordered_tasks(client, task: Callable[[list], list], jobs: Iterable, per_task: int) -> Iterator:
    """Yield ``task(chunk)``'s results for successive chunks of ``per_task``
    jobs, in job order, with a few tasks per worker thread in flight (the
    jobs are read lazily: memory stays flat however many there are).
    ``task`` must be importable by the workers (a module-level function)."""
    window = 4 * max(1, sum(client.nthreads().values()))
    pending: deque = deque()
    jobs = iter(jobs)
    while True:
        chunk = list(islice(jobs, per_task))
        if chunk:
            pending.append(client.submit(task, chunk, pure=False))
        if pending and (not chunk or len(pending) >= window):
            future = pending.popleft()
            results = future.result()
            future.release()
            yield from results
        if not chunk and not pending:
            return
