"""The camelup command, through cli.main(argv) and as a process."""

import json
import subprocess
import sys
import time

import pytest

from advisor import EXAMPLE_POSITION, __version__, leg_odds
from advisor.cli.command import main
from helpers import run



def test_odds_json_follows_notation(capsys):
    code, out, err = run(["odds", "--json", EXAMPLE_POSITION], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["position"] == EXAMPLE_POSITION
    exact = leg_odds(EXAMPLE_POSITION)
    assert set(data["leg"]) == set("BGPRY")
    for camel, entry in data["leg"].items():
        assert entry["rank"] == pytest.approx(list(exact.rank[exact.camels.index(camel)]), abs=0)
        assert sum(entry["rank"]) == pytest.approx(1.0)


def test_odds_json_position_is_canonical(capsys):
    code, out, _ = run(["odds", "--json", "dice:xRPG -8 +5 15:k 14:w 3:PR 2:YG 1:B"], capsys)
    assert code == 0
    assert json.loads(out)["position"] == EXAMPLE_POSITION


def test_odds_table_without_position_uses_the_example(capsys):
    code, out, _ = run(["odds"], capsys)
    assert code == 0
    assert "built-in example" in out and EXAMPLE_POSITION in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("camel"))
    rows = [line.split()[0] for line in lines[header + 1: header + 6]]
    assert rows == leg_odds(EXAMPLE_POSITION).order()  # sorted by P(1st)


def test_odds_json_without_position_says_so_on_stderr(capsys):
    code, out, err = run(["odds", "--json"], capsys)
    assert code == 0 and "built-in example" in err
    assert json.loads(out)["position"] == EXAMPLE_POSITION


def test_tokens_as_separate_arguments_including_tile_options(capsys):
    code, out, _ = run(["odds", "--json", *"1:B 2:YG 3:PR 14:w 15:k +5 -8@1 dice:GPRx".split()], capsys)
    assert code == 0
    assert json.loads(out)["position"] == "1:B 2:YG 3:PR 14:w 15:k +5 -8@1 dice:GPRx"


def test_sampled_odds(capsys):
    argv = ["odds", "--json", "--samples", "20000", "--seed", "5", EXAMPLE_POSITION]
    code, out, _ = run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["leg_samples"] == 20000 and data["seed"] == 5
    assert data["race_samples"] >= 20000
    code, out2, _ = run(argv, capsys)
    assert out2 == out
    code, out, _ = run(["odds", "--samples", "20000", "--seed", "5"], capsys)
    assert "sampled from 20,000 legs (seed 5" in out


def test_race_odds_in_json(capsys):
    code, out, _ = run(["odds", "--json", "--seed", "1", "--precision", "0.01", EXAMPLE_POSITION], capsys)
    data = json.loads(out)
    assert code == 0 and data["seed"] == 1
    assert set(data["race"]) == set("BGPRY") and data["race_samples"] > 0
    assert sum(v["win"] for v in data["race"].values()) == pytest.approx(1.0)
    assert sum(v["lose"] for v in data["race"].values()) == pytest.approx(1.0)
    assert sum(data["race_legs"]) == pytest.approx(1.0)
    # exact race: race_samples is 0
    code, out, _ = run(["odds", "--json", "10:w 12:k 15:B 16:GPRY dice:Bx"], capsys)
    data = json.loads(out)
    assert data["race_samples"] == 0 and data["race"]["B"]["win"] == pytest.approx(0.6)
    # --leg-only leaves the race out
    code, out, _ = run(["odds", "--json", "--leg-only", EXAMPLE_POSITION], capsys)
    assert "race" not in json.loads(out)


def test_race_table(capsys):
    code, out, _ = run(["odds", "--seed", "2", "--precision", "0.01", "--threads", "1"], capsys)
    assert code == 0 and "Race odds" in out and "simulated races (seed 2)" in out and "The race ends" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["odds", "1:B 2:YG 3:PR 14:w 17:k"], "invalid token '17:k'"),
        (["odds", "1:B 2:YG 3:PR 14:w"], "'k' is missing"),
        (["odds", "1:B 2:YG 3:PR 14:w 15:k +1"], "invalid token '+1'"),
        (["odds", "first 1:B 2:YG 3:OW 5:k"], "crazy camel"),
        (["odds", "1:B 2:YG 3:PR 14:w 15:k dice:B"], "invalid token 'dice:B'"),
        (["odds", "hello"], "invalid token 'hello'"),
        (["odds", "--samples", "0"], "--samples"),
        (["odds", "--samples", "many"], "--samples"),
        (["odds", "--precision", "0"], "--precision"),
        (["odds", "--precision", "fine"], "--precision"),
        (["odds", "--threads", "0"], "--threads"),
        (["odds", "--bogus"], "unrecognized arguments"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_input_one_line_exit_2(argv, fragment, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err
    assert "Traceback" not in err


def test_version_and_help(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and __version__ in out
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and "odds" in out and "warmup" in out
    code, out, _ = run([], capsys)
    assert code == 0 and "usage" in out


def test_warmup_reports_each_kernel(capsys):
    from advisor.warm import GROUPS

    code, out, _ = run(["warmup"], capsys)
    assert code == 0 and "Done" in out
    assert all(group.title in out for group in GROUPS) and "Camel Up Cards races" in out


def test_help_starts_fast_without_numba():
    """--help and --version import no numba, pandas or matplotlib; a generous
    start-up bound (the only timing assertion of the suite)."""
    script = (
        "import sys; from advisor.cli import main; main(['--version']); "
        "bad = [m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules]; "
        "print('HEAVY', bad)"
    )
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    assert "HEAVY []" in proc.stdout
    assert elapsed < 2.0


def test_module_entry_point_exit_status():
    proc = subprocess.run(
        [sys.executable, "-m", "advisor.cli", "odds", "1:B"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.startswith("camelup: error:")


@pytest.mark.parametrize("command", ["odds", "best", "simulate", "tournament", "play", "warmup"])
def test_every_command_has_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert "usage: camelup " + command in capsys.readouterr().out


def test_output_piped_into_a_reader_that_stops_early():
    # `true` exits without reading, so writing to the pipe fails for certain
    proc = subprocess.run(["bash", "-c", f"{sys.executable} -m advisor.cli odds --leg-only | true; "
                           "echo status=${PIPESTATUS[0]}"], capture_output=True, text=True)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr
    assert "status=0" in proc.stdout
