"""camelup batch --engine dask against a real dask.distributed LocalCluster
on loopback: the same output as a local run."""

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("dask.distributed")

from advisor import random_position  # noqa: E402
from advisor.batch import run_batch  # noqa: E402
from advisor.cli import main  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        yield c


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
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
