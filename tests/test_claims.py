"""Two runs on one output: the second is refused in one line naming the
first (whatever its flags); a lock left by a run that died is taken over;
an existing file is replaced only with --overwrite."""

import os
import signal
import subprocess
import sys
import time

import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError
from advisor._tools.files import claim, lock_path

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_HOLDER = """
import sys, time
from advisor._tools.files import claim
with claim(sys.argv[1]):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.fixture
def holder():
    """Another process holding the claim on a file (as a running command
    does); yields a function that starts it for a path."""
    procs = []

    def start(path):
        env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
        proc = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], stdout=subprocess.PIPE, env=env,
                                text=True)
        procs.append(proc)
        assert proc.stdout.readline().strip() == "held"
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def _commands(tmp_path, out):
    """Every command that writes a file, writing ``out`` (its extension
    chosen by the caller)."""
    records = str(tmp_path / "games.jsonl")
    (tmp_path / "games.jsonl").write_text('{"type": "setup"}\n')
    positions = tmp_path / "in.txt"
    positions.write_text(EXAMPLE + "\n")
    return {
        "simulate": ["simulate", "--bots", "random,random,random,random", "--games", "1", "-o", out],
        "tournament": ["tournament", "--bots", "random,random,random,random", "--games", "1", "-o", out],
        "duel": ["duel", "random", "heuristic", "--games", "1", "-o", out],
        "batch": ["batch", str(positions), "-o", out],
        "review": ["review", records, "-o", out],
        "review --chart": ["review", records, "--chart", out],
        "chart": ["chart", records, "-o", out],
        "show": ["show", EXAMPLE, "-o", out],
        "best --chart": ["best", EXAMPLE, "--chart", out],
    }


_SUFFIX = {"simulate": ".jsonl", "tournament": ".jsonl", "duel": ".jsonl", "batch": ".csv", "review": ".csv",
           "review --chart": ".png", "chart": ".png", "show": ".png", "best --chart": ".png"}


@pytest.mark.parametrize("command", list(_SUFFIX))
@pytest.mark.parametrize("flags", [[], ["--overwrite"], ["--resume"]])
def test_a_second_run_on_a_live_output_is_refused(tmp_path, capsys, holder, command, flags):
    """BUG: two simulate runs on one -o (the second with --resume) wrote 800
    games for 400 and the first still said '400 games written'."""
    out = tmp_path / f"out{_SUFFIX[command]}"
    argv = _commands(tmp_path, str(out))[command]
    if flags == ["--resume"] and command not in ("simulate", "tournament", "duel", "batch"):
        pytest.skip("no --resume")
    other = holder(out)
    assert main(argv + flags) == 2
    err = _one_line(capsys)
    assert f"is in use by another run, pid {other.pid}" in err
    assert not out.exists() and lock_path(out).exists()  # the other run's lock is left alone


def test_a_stale_lock_is_taken_over(tmp_path, capsys, holder):
    """A run killed with kill -9 leaves its lock file; the next run takes it."""
    out = tmp_path / "board.png"
    other = holder(out)
    other.send_signal(signal.SIGKILL)
    other.wait()
    assert lock_path(out).read_text().strip() == str(other.pid)  # left behind
    assert main(["show", EXAMPLE, "-o", str(out)]) == 0
    assert out.exists() and not lock_path(out).exists()


def test_claims_nest_and_are_released(tmp_path):
    out = tmp_path / "x.csv"
    with claim(out):
        with claim(str(out)):  # the command and the library function it calls
            assert lock_path(out).read_text().strip() == str(os.getpid())
        assert lock_path(out).exists()
    assert not lock_path(out).exists()


def test_the_same_file_however_spelled_is_one_claim(tmp_path, holder, monkeypatch):
    out = tmp_path / "x.csv"
    holder(out)
    monkeypatch.chdir(tmp_path)
    os.symlink(out, tmp_path / "link.csv")
    for spelling in ("x.csv", "./x.csv", "link.csv"):
        with pytest.raises(AdvisorError, match="in use by another run"):
            with claim(spelling):
                pass


@pytest.mark.parametrize("command", list(_SUFFIX))
def test_an_existing_output_is_refused_without_overwrite(tmp_path, capsys, command):
    """BUG: -o replaced an existing file on success, even an unrelated
    records file."""
    out = tmp_path / f"out{_SUFFIX[command]}"
    out.write_bytes(b"someone's file")
    assert main(_commands(tmp_path, str(out))[command]) == 2
    err = _one_line(capsys)
    assert "exist" in err and "--overwrite" in err
    assert out.read_bytes() == b"someone's file"
    assert sorted(os.listdir(tmp_path)) == sorted(["in.txt", "games.jsonl", out.name])  # no lock, no partial file left


def test_overwrite_replaces_and_resume_of_the_same_run_is_allowed(tmp_path, capsys):
    out = tmp_path / "board.png"
    out.write_bytes(b"old")
    assert main(["show", EXAMPLE, "-o", str(out), "--overwrite"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    games = tmp_path / "g.jsonl"
    argv = ["simulate", "--bots", "random,random,random,random", "--games", "2", "-o", str(games)]
    assert main(argv) == 0
    first = games.read_bytes()
    # an unfinished run of this command, begun over the existing file, is resumed without --overwrite
    part = tmp_path / "g.jsonl.part"
    lines = first.decode().splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if '"type": "end"' in line)
    part.write_text("".join(lines[:end + 1]))
    assert main(argv + ["--resume"]) == 0
    assert games.read_bytes() == first
    capsys.readouterr()
    assert main(argv) == 2
    assert "--overwrite" in _one_line(capsys)
    assert main(argv + ["--overwrite"]) == 0 and games.read_bytes() == first


def test_an_unfinished_partial_file_is_not_called_a_live_run(tmp_path, capsys):
    """With no run alive, the partial file's message says what is true."""
    games = tmp_path / "g.jsonl"
    (tmp_path / "g.jsonl.part").write_text("")
    assert main(["simulate", "--bots", "random,random,random,random", "--games", "1", "-o", str(games)]) == 2
    assert "no run is writing it now" in _one_line(capsys)


def test_two_real_simulate_runs_on_one_output(tmp_path):
    """The reproduction of the report: a run, and a second one with
    --resume on its output while it plays; the second is refused, the first
    writes its games once."""
    out = tmp_path / "sc.jsonl"
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    argv = [sys.executable, "-m", "advisor.cli", "simulate", "--bots", "random,random,random,random",
            "--games", "40", "--seed", "4", "--processes", "1", "-o", str(out)]
    first = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while not lock_path(out).exists() and first.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    second = subprocess.run(argv + ["--resume"], env=env, capture_output=True, text=True, timeout=300)
    stdout, _ = first.communicate(timeout=600)
    if "in use by another run" not in second.stderr:
        pytest.skip("the first run ended before the second started")  # a very fast machine
    assert second.returncode == 2 and f"pid {first.pid}" in second.stderr
    assert first.returncode == 0 and "40 games written" in stdout
    assert out.read_text().count('"type": "setup"') == 40
