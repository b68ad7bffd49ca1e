"""camelup batch --engine dask against a real dask.distributed LocalCluster
on loopback: the same output as a local run."""

import json
import os
import re
import sys

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask.distributed")

from advisor import random_position  # noqa: E402
from advisor.batch.positions import run_batch  # noqa: E402
from advisor.cli.command import main  # noqa: E402
from advisor.errors import Interrupted  # noqa: E402


def interrupted(call):
    """Run ``call``, which Ctrl-C stops: the message of the Interrupted it
    raises (a KeyboardInterrupt escaping it fails the test)."""
    try:
        call()
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped as a KeyboardInterrupt")
    except Interrupted as exc:
        return str(exc)
    pytest.fail("the run was not interrupted")


def positions(n=300):
    rng = np.random.default_rng(8)
    texts = [str(random_position("second" if i % 4 else "first", rng, dice=3, tiles=1)) for i in range(n)]
    return texts + ["1:B 2:YG", "nonsense"]


@pytest.mark.parametrize("src, dst", [("in.txt", "out.csv"), ("in.csv", "out.jsonl"), ("in.parquet", "out.parquet")])
def test_dask_equals_local(tmp_path, cluster, src, dst):
    texts = positions()
    (tmp_path / "in.txt").write_text("\n".join(texts) + "\n")
    pd.DataFrame({"position": texts}).to_csv(tmp_path / "in.csv", index=False)
    pd.DataFrame({"position": texts}).to_parquet(tmp_path / "in.parquet")
    local, remote = tmp_path / ("local_" + dst), tmp_path / ("dask_" + dst)
    assert run_batch(tmp_path / src, local, race=True, precision=0.05, seed=4, chunk=64) == (302, 2)
    code = main(["batch", str(tmp_path / src), "-o", str(remote), "--race", "--precision", "0.05", "--seed", "4",
                 "--engine", "dask", "--scheduler", cluster.scheduler_address])
    assert code == 1  # two rows failed
    if dst.endswith(".parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(local), pd.read_parquet(remote))
    else:
        assert local.read_text() == remote.read_text()


def test_dask_engine_errors(tmp_path, capsys):
    (tmp_path / "in.txt").write_text("1:B\n")
    assert main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "o.csv"), "--engine", "dask"]) == 2
    assert "--scheduler" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "o.csv"), "--engine", "dask",
                 "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    # a port where nothing listens is named at once, not after Dask's 10 s of retries
    assert "cannot reach the Dask scheduler" in err and "connection refused" in err


def write_all(tmp_path, texts):
    """The same rows, with an id and a game number, in every input format
    (a CSV row that does not fit the header too)."""
    ids = [f"r{i}" for i in range(len(texts))]
    frame = pd.DataFrame({"id": ids, "position": texts, "game": range(len(texts))})
    frame.to_csv(tmp_path / "in.csv", index=False)
    with open(tmp_path / "in.csv", "a") as fh:
        fh.write("r-bad,1:B 2:YG 3:PR 14:w 15:k,1,2\n")
    frame.to_parquet(tmp_path / "in.parquet")
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in frame.to_dict(orient="records")))


def read(path):
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    if path.suffix == ".csv":
        return pd.read_csv(path, keep_default_na=False, dtype=str)
    return pd.read_json(path, lines=True, dtype=False)


@pytest.mark.parametrize("src, dst", [("in.csv", "out.parquet"), ("in.parquet", "out.jsonl"),
                                      ("in.jsonl", "out.csv")])
def test_dask_keeps_the_other_columns_as_a_local_run(tmp_path, cluster, src, dst):
    texts = positions(60)
    write_all(tmp_path, texts)
    local, remote = tmp_path / ("local_" + dst), tmp_path / ("dask_" + dst)
    run_batch(tmp_path / src, local, chunk=16)
    assert main(["batch", str(tmp_path / src), "-o", str(remote), "--engine", "dask",
                 "--scheduler", cluster.scheduler_address]) == 1
    got = read(remote)
    assert list(got.columns[:4]) == ["id", "game", "position", "error"]
    assert list(got["id"][:62]) == [f"r{i}" for i in range(62)]
    if src == "in.csv":
        assert "3 fields where the header has 3" not in got["error"].iloc[-1]
        assert "4 fields where the header has 3" in got["error"].iloc[-1]
    if dst.endswith(".parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(local), got)
    else:
        assert local.read_bytes() == remote.read_bytes()


def test_dask_moves_keep_the_other_columns(tmp_path, cluster):
    texts = positions(4)[:4] + ["nonsense"]
    pd.DataFrame({"id": list("abcde"), "position": texts}).to_csv(tmp_path / "in.csv", index=False)
    run_batch(tmp_path / "in.csv", tmp_path / "local.csv", moves=True, precision=0.1)
    assert main(["batch", str(tmp_path / "in.csv"), "-o", str(tmp_path / "dask.csv"), "--moves", "--precision",
                 "0.1", "--engine", "dask", "--scheduler", cluster.scheduler_address]) == 1
    assert (tmp_path / "local.csv").read_bytes() == (tmp_path / "dask.csv").read_bytes()
    assert set(pd.read_csv(tmp_path / "dask.csv")["id"]) == set("abcde")


@pytest.mark.parametrize("objective", ["win", "ev"])
def test_dask_advice_takes_the_objective(tmp_path, cluster, objective):
    texts = positions(6)[:6] + ["3:k 5:w 8:G 10:PR 12:Y 15:B -14@0 dice:GYx", "nonsense"]
    (tmp_path / "in.txt").write_text("\n".join(texts) + "\n")
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    run_batch(tmp_path / "in.txt", local, advice=True, precision=0.1, seed=3, objective=objective)
    assert main(["batch", str(tmp_path / "in.txt"), "-o", str(remote), "--advice", "--precision", "0.1",
                 "--seed", "3", "--objective", objective, "--engine", "dask",
                 "--scheduler", cluster.scheduler_address]) == 1
    assert local.read_bytes() == remote.read_bytes()
    got = pd.read_csv(remote, keep_default_na=False)
    assert got.at[6, "best_action"] == ("leg:B" if objective == "win" else "winner:B")
    assert got.loc[:5, "win_now"].astype(float).between(0, 1).all()


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("problem", ["same file", "symlink", "no such folder", "parquet without pyarrow",
                                     "missing input"])
def test_dask_checks_everything_before_any_work(tmp_path, monkeypatch, capsys, problem):
    write_all(tmp_path, positions(5))
    (tmp_path / "out.csv").write_text("an earlier result\n")
    os.symlink("in.csv", tmp_path / "link.csv")
    src, dst = tmp_path / "in.csv", tmp_path / "out.csv"
    if problem == "same file":
        dst = src
    elif problem == "symlink":
        dst = tmp_path / "link.csv"
    elif problem == "no such folder":
        dst = tmp_path / "nowhere" / "out.csv"
    elif problem == "missing input":
        src = tmp_path / "typo.csv"
    else:
        dst = tmp_path / "out.parquet"
        monkeypatch.setitem(sys.modules, "pyarrow", None)
        monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    before = snapshot(tmp_path)
    # an unreachable scheduler: a check that came after connecting would say so instead
    code = main(["batch", str(src), "-o", str(dst), "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "Dask scheduler" not in err
    if problem == "parquet without pyarrow":
        assert "pip install 'camelup-advisor[parquet]'" in err
    assert snapshot(tmp_path) == before


def test_dask_output_appears_only_when_complete(tmp_path, cluster, monkeypatch, capsys):
    from advisor.batch.io import PartialOutput

    texts = positions(200)
    (tmp_path / "in.txt").write_text("\n".join(texts) + "\n")
    (tmp_path / "out.csv").write_text("an earlier result\n")
    before = snapshot(tmp_path)
    append, calls = PartialOutput.append, []

    def append_then_stop(self, frame, rows, failed):
        assert (tmp_path / "out.csv").read_text() == "an earlier result\n"
        if calls:
            raise KeyboardInterrupt
        calls.append(rows)
        append(self, frame, rows, failed)

    monkeypatch.setattr(PartialOutput, "append", append_then_stop)
    from advisor.batch.distributed import run_batch_dask

    message = interrupted(lambda: run_batch_dask(tmp_path / "in.txt", tmp_path / "out.csv",
                                                 scheduler=cluster.scheduler_address, blocksize="1kB",
                                                 overwrite=True))
    assert re.fullmatch(r"stopped after \d+ of 202 rows; nothing kept, .* is as it was", message)
    assert calls and snapshot(tmp_path) == before  # no partial output left: a Dask run does not resume
    monkeypatch.undo()
    assert run_batch_dask(tmp_path / "in.txt", tmp_path / "out.csv", scheduler=cluster.scheduler_address,
                          blocksize="2kB", overwrite=True) == (202, 2)
    run_batch(tmp_path / "in.txt", tmp_path / "local.csv")
    assert (tmp_path / "out.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()


def test_dask_does_not_discard_an_unfinished_local_run(tmp_path, cluster, monkeypatch, capsys):
    import advisor.batch.positions as batch_module

    texts = positions(20)
    (tmp_path / "in.txt").write_text("\n".join(texts) + "\n")
    real = batch_module.analyse
    monkeypatch.setattr(batch_module, "analyse", lambda t, **k: (_ for _ in ()).throw(KeyboardInterrupt)
                        if len(t) == 2 else real(t, **k))
    # chunks of 10 + 10 + 2 rows: the last one stops
    assert interrupted(lambda: run_batch(tmp_path / "in.txt", tmp_path / "out.csv", chunk=10))
    monkeypatch.undo()
    argv = ["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.csv"), "--engine", "dask",
            "--scheduler", cluster.scheduler_address]
    assert main(argv) == 2 and "holds 20 of 22 rows" in capsys.readouterr().err
    assert main(argv + ["--restart"]) == 1
    assert len(pd.read_csv(tmp_path / "out.csv")) == 22 and not (tmp_path / "out.csv.part").exists()
