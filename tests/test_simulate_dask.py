"""camelup tournament / simulate / duel --engine dask against a real
dask.distributed LocalCluster on loopback: the same games, tables and files
as a local run with the same seed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("dask.distributed")

from advisor.simulate.duel import duel  # noqa: E402
from advisor.simulate.games import simulate, tournament  # noqa: E402
from helpers import run  # noqa: E402



def test_simulate_on_dask_gives_the_local_games(cluster):
    bots = ["heuristic", "random", "random"]
    local = list(simulate(bots, 9, seed=3, processes=1, rotate=True))
    remote = list(simulate(bots, 9, seed=3, rotate=True, engine="dask", scheduler=cluster.scheduler_address))
    assert remote == local
    # a later start, as --resume asks
    assert list(simulate(bots, 9, seed=3, rotate=True, start=5, engine="dask",
                         scheduler=cluster.scheduler_address)) == local[5:]


def test_tournament_on_dask_equals_the_local_table(cluster, tmp_path, capsys):
    argv = ["tournament", "--players", "3", "--bots", "heuristic,random,random", "--games", "10", "--seed", "5",
            "--json"]
    code, local, _ = run(argv + ["--processes", "1", "-o", str(tmp_path / "l.jsonl")], capsys)
    assert code == 0
    code, remote, _ = run(argv + ["--engine", "dask", "--scheduler", cluster.scheduler_address,
                                  "-o", str(tmp_path / "r.jsonl")], capsys)
    assert code == 0 and json.loads(remote) == json.loads(local)
    assert (tmp_path / "r.jsonl").read_bytes() == (tmp_path / "l.jsonl").read_bytes()
    frame = tournament(["heuristic", "random", "random"], 10, seed=5, engine="dask",
                       scheduler=cluster.scheduler_address)
    assert frame.to_dict(orient="records") == json.loads(local)["bots"]


@pytest.mark.parametrize("edition", ["second", "first"])
def test_duel_on_dask_equals_the_local_duel(cluster, tmp_path, capsys, edition):
    argv = ["duel", "heuristic", "random", "--players", "3", "--field", "random", "--games", "6", "--seed", "8",
            "--edition", edition, "--json"]
    code, local, _ = run(argv + ["--processes", "1", "-o", str(tmp_path / "l.jsonl")], capsys)
    assert code == 0
    code, remote, _ = run(argv + ["--engine", "dask", "--scheduler", cluster.scheduler_address,
                                  "-o", str(tmp_path / "r.jsonl")], capsys)
    assert code == 0 and json.loads(remote) == json.loads(local)
    assert (tmp_path / "r.jsonl").read_bytes() == (tmp_path / "l.jsonl").read_bytes()


def test_duel_with_sprt_on_dask_stops_where_the_local_duel_stops(cluster):
    from advisor.simulate.duel import SPRT

    test = SPRT(0.0, 0.3, min_pairs=6)
    local = duel("heuristic", "random", 40, players=3, field="random", seed=1, sprt=test, processes=1)
    remote = duel("heuristic", "random", 40, players=3, field="random", seed=1, sprt=test, engine="dask",
                  scheduler=cluster.scheduler_address)
    assert remote.attrs == local.attrs and remote.equals(local)
    assert local.attrs["sprt"]["decision"] == "H1"


@pytest.mark.parametrize("command", ["simulate", "tournament", "duel"])
def test_engine_errors_are_one_line(command, capsys, tmp_path):
    head = ["duel", "heuristic", "random"] if command == "duel" else [command, "-o", str(tmp_path / "g.jsonl")]
    for extra, fragment in ((["--engine", "dask"], "--scheduler"),
                            (["--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
                            (["--engine", "dask", "--scheduler", "tcp://127.0.0.1:9", "--processes", "2"],
                             "--processes applies to --engine local only"),
                            (["--scheduler", "tcp://127.0.0.1:9"], "--scheduler applies to --engine dask only")):
        code, out, err = run(head + extra, capsys)
        assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, (extra, err)
    assert list(tmp_path.iterdir()) == []
