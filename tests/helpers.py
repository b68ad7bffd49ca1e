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
