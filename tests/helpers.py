"""Helpers shared by the test modules (``from helpers import run``).

Fixtures defined here are made visible to every test by ``conftest.py``.
"""

from __future__ import annotations

import pytest


def run(argv, capsys):
    """Run ``camelup ARGV`` in process: ``(exit status, stdout, stderr)``."""
    from advisor.cli.command import main

    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="session")
def cluster():
    """One dask.distributed LocalCluster on loopback for the whole session
    (two worker processes of one thread each); the tests that use it are
    kept on one test worker (the ``dask`` group, see conftest.py)."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="session")
def client():
    """One web app (``camelup serve``'s, one worker process per lane) in
    process through Starlette's test client, for the whole session; the
    tests that use it are kept on one test worker (the ``web`` group)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from advisor.web import create_app

    with TestClient(create_app(workers=1), raise_server_exceptions=False) as c:
        yield c


def as_a_terminal_job() -> None:
    """``preexec_fn`` of a command a test interrupts as a terminal's Ctrl-C
    would: Ctrl-C at its default, whatever this test process inherited (a
    process started with Ctrl-C ignored keeps it ignored, as a background
    job of a shell does, and would never see the test's Ctrl-C)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ended(proc, timeout: float = 120):
    """``proc.communicate()``; a command still running after ``timeout``
    seconds is killed with its process group (never left running) and the
    test fails saying so."""
    import os
    import signal
    import subprocess

    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        pytest.fail(f"the command did not end within {timeout:.0f} s of Ctrl-C; its stderr:\n{err}")
