"""simulate / tournament with -o: records streamed into OUTPUT.part and
renamed when complete; memory flat in the number of games; Ctrl-C says what
was kept (exit 130); --resume continues the run identically; strict JSON."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import advisor.simulate.games
from advisor.cli.command import main
from advisor.errors import AdvisorError, Interrupted
from advisor.game import read_records
from advisor.simulate.games import Standings, game_seed, simulate, simulate_to_file, tournament
from helpers import as_a_terminal_job, ended, run

BOTS = ["heuristic", "random", "random"]
ARGS = ["--players", "3", "--bots", ",".join(BOTS), "--seed", "7", "--processes", "1"]



def interrupt_after(monkeypatch, games):
    """Make the in-process game loop raise KeyboardInterrupt (as Ctrl-C
    does) when game number ``games`` starts."""
    real = advisor.simulate.games.play_game
    calls = {"n": 0}

    def play(*a, **k):
        if calls["n"] == games:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(advisor.simulate.games, "play_game", play)


# --------------------------------------------------------------------------
# streaming: the run is never built whole
# --------------------------------------------------------------------------
@pytest.mark.parametrize("processes", [1, 2])
def test_simulate_streams_an_enormous_run(processes):
    """BUG: the list of jobs was built whole (and the CLI kept every record):
    --games 100000000000 grew memory without bound and wrote nothing."""
    games = simulate(["random"] * 3, 10**12, seed=1, processes=processes, progress=False)
    first = [next(games) for _ in range(3)]
    games.close()  # stops the workers
    assert [r[0]["seed"] for r in first] == [game_seed(1, i) for i in range(3)]


def test_simulate_starts_at_a_later_game():
    whole = list(simulate(BOTS, 5, seed=2, processes=1))
    assert list(simulate(BOTS, 5, seed=2, processes=1, start=3)) == whole[3:]
    with pytest.raises(AdvisorError, match="start"):
        list(simulate(BOTS, 5, start=6))


def test_records_reach_the_partial_file_as_games_finish(tmp_path):
    out = tmp_path / "g.jsonl"
    seen = []

    def on_game(i, end):  # game i is on disk when it is reported
        seen.append(len(read_records(tmp_path / "g.jsonl.part")))
        assert not out.exists()

    assert simulate_to_file(BOTS, 3, out, seed=1, processes=1, on_game=on_game) == 3
    assert seen == [1, 2, 3]
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
    assert read_records(out) == list(simulate(BOTS, 3, seed=1, processes=1))


def test_cli_refuses_absurd_game_counts(capsys):
    code, _, err = run(["simulate", "--games", "100000000000", "-o", "g.jsonl"], capsys)
    assert code == 2 and "--games" in err and "10,000,000" in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------
# Ctrl-C and --resume
# --------------------------------------------------------------------------
def test_ctrl_c_keeps_the_complete_games_and_resume_finishes_the_run(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.jsonl"
    assert run(["simulate", *ARGS, "--games", "6", "-o", str(whole)], capsys)[0] == 0
    out = tmp_path / "g.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 4)
        code, stdout, err = run(["simulate", *ARGS, "--games", "6", "-o", str(out)], capsys)
    assert code == 130 and stdout == ""
    assert err.strip() == f"camelup: interrupted: 4 of 6 games kept in {out}.part; run the same command with " \
                          "--resume to continue"
    assert not out.exists() and len(read_records(f"{out}.part")) == 4
    # without --resume the partial file is never overwritten
    code, _, err = run(["simulate", *ARGS, "--games", "6", "-o", str(out)], capsys)
    assert code == 2 and "--resume" in err and len(read_records(f"{out}.part")) == 4
    code, stdout, _ = run(["simulate", *ARGS, "--games", "6", "-o", str(out), "--resume"], capsys)
    assert code == 0 and "6 games written" in stdout
    assert out.read_bytes() == whole.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl", "whole.jsonl"]


def test_ctrl_c_before_any_game_keeps_nothing(tmp_path, capsys, monkeypatch):
    interrupt_after(monkeypatch, 0)
    code, _, err = run(["simulate", *ARGS, "--games", "3", "-o", str(tmp_path / "g.jsonl")], capsys)
    assert code == 130 and "nothing kept" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_resume_after_a_crash_mid_line(tmp_path, capsys):
    """kill -9 can cut the last line: the unfinished game is played again."""
    whole = tmp_path / "whole.jsonl"
    assert run(["simulate", *ARGS, "--games", "4", "-o", str(whole)], capsys)[0] == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    setups = [i for i, line in enumerate(lines) if b'"type": "setup"' in line]
    part = tmp_path / "g.jsonl.part"
    part.write_bytes(b"".join(lines[: setups[2] + 5]) + lines[setups[2] + 5][:17])
    code, _, _ = run(["simulate", *ARGS, "--games", "4", "-o", str(tmp_path / "g.jsonl"), "--resume"], capsys)
    assert code == 0 and (tmp_path / "g.jsonl").read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("change,fragment", [
    (["--seed", "8"], "seed"),
    (["--bots", "random,random,heuristic"], "bots"),
    (["--games", "2"], "more than the 2 games"),
    (["--edition", "first"], "edition"),
])
def test_resume_refuses_another_run(tmp_path, capsys, monkeypatch, change, fragment):
    out = tmp_path / "g.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 3)
        assert run(["simulate", *ARGS, "--games", "5", "-o", str(out)], capsys)[0] == 130
    before = (tmp_path / "g.jsonl.part").read_bytes()
    argv = ["simulate", *ARGS, "--games", "5", "-o", str(out), "--resume"]
    option, value = change
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    code, _, err = run(argv, capsys)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "g.jsonl.part").read_bytes() == before


def test_tournament_with_output_resumes_to_the_same_table(tmp_path, capsys, monkeypatch):
    argv = ["tournament", *ARGS, "--games", "6", "--json"]
    code, whole, _ = run(argv, capsys)
    assert code == 0
    out = tmp_path / "t.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 2)
        code, _, err = run(argv + ["-o", str(out)], capsys)
    assert code == 130 and "2 of 6 games kept" in err
    code, resumed, _ = run(argv + ["-o", str(out), "--resume"], capsys)
    assert code == 0 and json.loads(resumed) == json.loads(whole)
    assert len(read_records(out)) == 6


def test_tournament_without_output_interrupted(capsys, monkeypatch):
    interrupt_after(monkeypatch, 1)
    code, out, err = run(["tournament", *ARGS, "--games", "4"], capsys)
    assert code == 130 and out == "" and err.strip() == "camelup: interrupted"
    code, _, err = run(["tournament", *ARGS, "--games", "4", "--resume"], capsys)
    assert code == 2 and "give -o" in err


def test_ctrl_c_in_a_real_multi_process_run(tmp_path):
    """SIGINT to the whole process group (what a terminal's Ctrl-C does):
    one line on stderr, exit 130, the complete games kept; no worker prints
    a traceback."""
    out = tmp_path / "g.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor.cli", "simulate", "--bots", "random,random,random", "--players", "3",
         "--games", "100000", "--processes", "2", "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=as_a_terminal_job)
    part = tmp_path / "g.jsonl.part"
    deadline = time.time() + 120
    while time.time() < deadline and (not part.exists() or part.stat().st_size < 50_000):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = ended(proc)
    assert proc.returncode == 130, stderr
    assert stdout == "" and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    kept = len(read_records(part))
    assert kept > 0 and f"{kept:,} of 100,000 games kept in {part}" in stderr
    assert not out.exists()


# --------------------------------------------------------------------------
# strict JSON, tables without NaN
# --------------------------------------------------------------------------
def test_tournament_of_one_game_is_strict_json_and_shows_dashes(capsys):
    """BUG: --json printed NaN (not JSON) and the table nan-nan."""
    code, out, _ = run(["tournament", *ARGS, "--games", "1", "--json"], capsys)
    assert code == 0
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert all(b["money_lo"] is None and b["money_hi"] is None for b in data["bots"])
    code, out, _ = run(["tournament", *ARGS, "--games", "1"], capsys)
    assert "nan" not in out.lower() and out.count("   -") >= 3


def test_standings_equal_the_tournament_frame():
    records = []
    frame = tournament(BOTS, 5, seed=3, processes=1, records=records)
    table = Standings(BOTS)
    for i, record in enumerate(records):
        table.add(i, record[-1])
    again = table.frame()
    for column in ("wins", "win_rate", "win_lo", "win_hi", "money", "money_lo", "money_hi"):
        assert again[column].tolist() == pytest.approx(frame[column].tolist())
    import numpy as np

    from advisor._tools.intervals import Z95

    for k in range(3):
        money = [r[-1]["money"][seat] for i, r in enumerate(records) for seat in range(3) if (seat + i) % 3 == k]
        half = Z95 * np.std(money, ddof=1) / np.sqrt(5)  # the normal interval of the mean money
        assert frame.at[k, "money_hi"] - frame.at[k, "money"] == pytest.approx(half)


def test_interrupted_is_not_an_input_error():
    assert not issubclass(Interrupted, AdvisorError)


def test_process_count_is_bounded(capsys):
    """A million worker processes would be spawned before any game."""
    code, _, err = run(["simulate", "--processes", "1000000", "--games", "1", "-o", "g.jsonl"], capsys)
    assert code == 2 and "1..256" in err
    with pytest.raises(AdvisorError, match="processes"):
        list(simulate(BOTS, 1, processes=10**6))


@pytest.mark.parametrize("edition, players, lead", [("second", 6, ["advisor", "heuristic"]),
                                                    ("first", 2, ["advisor", "heuristic"]),
                                                    ("cards", 3, ["greedy", "heuristic"])])
def test_the_default_bots_fill_any_player_count(tmp_path, capsys, edition, players, lead):
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "--edition", edition, "--players", str(players), "--games", "1", "--seed", "2",
                 "-o", str(out)]) == 0
    setup = json.loads(out.read_text().splitlines()[0])
    assert setup["bots"] == lead + ["random"] * (players - 2)


def test_a_player_count_out_of_range_names_the_range_not_the_default_bots(capsys):
    assert main(["tournament", "--players", "9", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "3-8 players, not 9" in err and "--bots" not in err
