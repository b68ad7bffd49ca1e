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


def _chart_data(rev, player: int):
    """What ``plot_review`` draws of ``player``: their bars (x, height) and
    their lines (label -> x, y)."""
    from matplotlib.figure import Figure

    from advisor.plotting import plot_review

    ax = plot_review(rev, Figure().add_subplot())
    bars = [(p.get_x(), p.get_height()) for p, q in zip(ax.patches, rev.decisions["player"]) if q == player]
    lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines
             if line.get_label().startswith(f"{player} ")}
    return bars, lines


def assert_one_players_review(full, one, player: int, path, capsys, tmp_path, precision: float) -> None:
    """``one`` (``review(record, players={player})``) is ``full`` (the review
    of every player, ``details`` on) filtered to ``player``: its tables,
    what the chart draws of them, and the command line's output of
    ``camelup review PATH --player P`` (JSON, the -o CSV, the text), as the
    full review prints them filtered."""
    import numpy as np
    import pandas as pd

    from advisor._tools.jsonio import dumps
    from advisor.cli.command import main
    from advisor.cli.review import format_review, review_json, write_table

    mine = full.decisions[full.decisions["player"] == player]
    pd.testing.assert_frame_equal(one.decisions, mine.reset_index(drop=True), check_exact=True)
    rows = full.players[full.players["player"] == player]
    pd.testing.assert_frame_equal(one.players, rows.reset_index(drop=True), check_exact=True)
    assert one.exact == full.exact and one.info == full.info
    (bars, lines), (want_bars, want_lines) = _chart_data(one, player), _chart_data(full, player)
    assert bars == want_bars and lines.keys() == want_lines.keys() and lines
    for label, (x, y) in lines.items():
        assert x == want_lines[label][0] and np.array_equal(y, want_lines[label][1], equal_nan=True), label
    table, want = tmp_path / "one.csv", tmp_path / "want.csv"
    argv = ["review", str(path), "--precision", str(precision), "--player", str(player), "--processes", "1"]
    assert main([*argv, "-o", str(table), "--json"]) == 0
    options = {"precision": precision, "seed": 0, "full": False, "details": True}
    assert capsys.readouterr().out == dumps(review_json([full], [], player, options)) + "\n"
    write_table(mine, want)
    assert table.read_bytes() == want.read_bytes()
    assert main(argv) == 0
    assert capsys.readouterr().out == format_review(full, player) + "\n"
