"""camelup duel / advisor.simulate.duel: paired games with the same dice, seats
rotating over pairs, paired differences with their intervals, the SPRT,
files written whole and resumable, bad input refused in one line."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

import advisor.simulate.games
from advisor.simulate.duel import SPRT, DuelSchedule, DuelTally, duel
from advisor.errors import AdvisorError
from advisor.game import read_records, replay
from helpers import run

ARGS = ["heuristic", "random", "--players", "3", "--field", "random", "--processes", "1", "--seed", "7"]



def rolls(record):
    return [(e["roll"]["die"], e["roll"]["value"], e["roll"].get("colour")) for e in record if "roll" in e]


def interrupt_after(monkeypatch, games):
    real = advisor.simulate.games.play_game
    calls = {"n": 0}

    def play(*a, **k):
        if calls["n"] == games:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(advisor.simulate.games, "play_game", play)


# --------------------------------------------------------------------------
# self-play is exact
# --------------------------------------------------------------------------
@pytest.mark.parametrize("bot, edition, players", [("rival", "second", 3), ("advisor", "first", 4)])
def test_a_bot_against_itself_differs_by_exactly_nothing(bot, edition, players):
    records = []
    frame = duel(bot, bot, 4, players=players, field="heuristic", edition=edition, seed=5, processes=1,
                 records=records)
    assert frame.attrs["pairs"] == 4 and frame.attrs["games"] == 8
    for name in ("win_rate", "money"):
        row = frame.loc[name]
        assert row["diff"] == row["diff_lo"] == row["diff_hi"] == row["sd"] == 0.0
        assert row["a"] == row["b"]
    for p in range(4):
        assert records[2 * p] == records[2 * p + 1]  # the two games of a pair are one game


def test_cli_self_duel_prints_zero(capsys):
    code, out, err = run(["duel", "heuristic", "heuristic", "--players", "3", "--field", "random",
                          "--games", "3", "--processes", "1", "--json"], capsys)
    assert code == 0
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert data["win_rate"]["diff"] == 0 and data["money"]["diff"] == 0 and data["money"]["sd"] == 0
    assert data["pairs"] == 3 and data["games"] == 6 and data["dice"] == "leg"


# --------------------------------------------------------------------------
# the pairs: same dice, same seat, same field
# --------------------------------------------------------------------------
@pytest.mark.parametrize("edition", ["second", "first"])
def test_both_games_of_a_pair_have_the_same_dice_and_differ_by_the_decisions(edition):
    records = []
    duel("heuristic", "random", 6, players=3, field=["random", "heuristic"], edition=edition, seed=2,
         processes=1, records=records)
    assert len(records) == 12
    differ = 0
    for p in range(6):
        a, b = records[2 * p], records[2 * p + 1]
        seat = p % 3
        assert a[0]["bots"][seat] == "heuristic" and b[0]["bots"][seat] == "random"
        others = [s for s in range(3) if s != seat]
        # the field follows the duelist round the table, the same in both games
        assert [a[0]["bots"][(seat + k) % 3] for k in (1, 2)] == ["random", "heuristic"]
        assert [a[0]["bots"][s] for s in others] == [b[0]["bots"][s] for s in others]
        assert a[0]["seed"] == b[0]["seed"] and a[0]["board"] == b[0]["board"] and a[0]["start"] == b[0]["start"]
        assert a[0]["dice"] == b[0]["dice"] == "leg"
        ra, rb = rolls(a), rolls(b)
        n = min(len(ra), len(rb))
        assert ra[:n] == rb[:n]  # the same rolls, in the same order, as far as both games go
        differ += [e.get("action") for e in a] != [e.get("action") for e in b]
        replay(a), replay(b)
    assert differ == 6
    assert len({records[2 * p][0]["seed"] for p in range(6)}) == 6  # each pair its own seed


def test_the_tally_is_the_paired_difference_of_the_records():
    records = []
    frame = duel("heuristic", "random", 9, players=3, field="random", seed=11, processes=1, records=records)
    a_win, b_win, a_money, b_money = [], [], [], []
    for p in range(9):
        seat = p % 3
        for rec, wins, money in ((records[2 * p], a_win, a_money), (records[2 * p + 1], b_win, b_money)):
            end = rec[-1]
            wins.append(1 / len(end["winners"]) if seat in end["winners"] else 0.0)  # a shared win: a fraction
            money.append(end["money"][seat])
    for name, a, b in (("win_rate", a_win, b_win), ("money", a_money, b_money)):
        d = np.array(a) - np.array(b)
        row = frame.loc[name]
        assert row["a"] == pytest.approx(np.mean(a)) and row["b"] == pytest.approx(np.mean(b))
        assert row["diff"] == pytest.approx(d.mean())
        half = 1.959964 * d.std(ddof=1) / 3
        assert row["diff_lo"] == pytest.approx(d.mean() - half) and row["diff_hi"] == pytest.approx(d.mean() + half)
        assert row["sd_unpaired"] == pytest.approx(math.sqrt(np.var(a, ddof=1) + np.var(b, ddof=1)))


def test_results_do_not_depend_on_the_process_count():
    one = duel("heuristic", "random", 4, players=3, field="random", seed=4, processes=1)
    two = duel("heuristic", "random", 4, players=3, field="random", seed=4, processes=2)
    assert one.equals(two) and one.attrs == two.attrs


# --------------------------------------------------------------------------
# the sequential test
# --------------------------------------------------------------------------
def test_sprt_log_likelihood_ratio():
    t = SPRT(0.0, 0.02, 0.05, 0.05)
    assert t.upper == pytest.approx(math.log(19)) and t.lower == pytest.approx(-math.log(19))
    # n (h1 - h0) (2 mean - h0 - h1) / (2 var): the normal model's log-likelihood ratio
    x = np.array([0.5, -0.5, 1.0, 0.0, 0.0, -1.0, 1.0, 0.5])
    var = x.var(ddof=1)
    direct = sum(((xi - 0.0) ** 2 - (xi - 0.02) ** 2) / (2 * var) for xi in x)
    assert t.llr(len(x), x.mean(), var) == pytest.approx(direct)
    assert t.llr(100, 0.0, 0.0) == -math.inf and t.decide(-math.inf) == "H0"
    assert t.decide(3.0) == "H1" and t.decide(0.0) is None


@pytest.mark.parametrize("kwargs, fragment", [
    ({"h0": 0.02, "h1": 0.01}, "h0 < h1"), ({"alpha": 0.7}, "alpha"), ({"beta": 0}, "beta"),
    ({"min_pairs": 1}, "min_pairs"), ({"h1": float("nan")}, "h1"),
])
def test_sprt_refuses_bad_parameters(kwargs, fragment):
    with pytest.raises(AdvisorError, match=fragment):
        SPRT(**kwargs)


def test_sprt_stops_a_clear_duel_early_and_equals_the_start_of_a_full_run():
    test = SPRT(0.0, 0.3, min_pairs=8)
    records = []
    frame = duel("heuristic", "random", 60, players=3, field="random", seed=1, sprt=test, processes=1,
                 records=records)
    sprt = frame.attrs["sprt"]
    assert sprt["decision"] == "H1" and sprt["llr"] >= sprt["upper"]
    stopped = frame.attrs["pairs"]
    assert stopped == sprt["pairs"] < 60 and stopped % 3 == 0 and stopped >= 8  # looked at after whole turns
    assert len(records) == 2 * stopped
    plain = duel("heuristic", "random", stopped, players=3, field="random", seed=1, processes=1)
    assert plain.equals(frame)


def test_sprt_accepts_h0_for_a_bot_against_itself():
    frame = duel("heuristic", "heuristic", 30, players=3, field="random", seed=1, sprt=SPRT(min_pairs=6),
                 processes=1)
    assert frame.attrs["sprt"]["decision"] == "H0" and frame.attrs["pairs"] == 6


def test_cli_sprt_reports_the_decision(capsys):
    code, out, _ = run(["duel", *ARGS, "--games", "40", "--sprt", "0,30", "--sprt-min", "6"], capsys)
    assert code == 0
    assert "SPRT (H0: A's win rate +0 points above B's, H1: +30 points" in out
    assert re.search(r"H1 accepted after \d+ pairs \(LLR \d+\.\d\d\)", out)
    assert "A heuristic" in out and "B random" in out and "95% interval" in out
    code, out, _ = run(["duel", *ARGS, "--games", "3", "--sprt", "0,30"], capsys)
    assert code == 0 and "undecided after 3 pairs (not yet looked at)" in out


# --------------------------------------------------------------------------
# files: streamed, whole or not at all, resumable
# --------------------------------------------------------------------------
def test_output_ctrl_c_and_resume_give_the_uninterrupted_run(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.jsonl"
    code, want, _ = run(["duel", *ARGS, "--games", "4", "--json", "-o", str(whole)], capsys)
    assert code == 0 and len(read_records(whole)) == 8
    out = tmp_path / "d.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 5)  # in the middle of pair 2
        code, stdout, err = run(["duel", *ARGS, "--games", "4", "--json", "-o", str(out)], capsys)
    assert code == 130 and stdout == ""
    assert err.strip() == f"camelup: interrupted: 5 of 8 games kept in {out}.part; run the same command with " \
                          "--resume to continue"
    assert not out.exists()
    code, _, err = run(["duel", *ARGS, "--games", "4", "--json", "-o", str(out)], capsys)
    assert code == 2 and "--resume" in err
    code, got, _ = run(["duel", *ARGS, "--games", "4", "--json", "-o", str(out), "--resume"], capsys)
    assert code == 0 and json.loads(got) == json.loads(want)
    assert out.read_bytes() == whole.read_bytes()
    # a partial file of another duel is refused by name
    with monkeypatch.context() as m:
        interrupt_after(m, 3)
        assert run(["duel", *ARGS, "--games", "4", "-o", str(tmp_path / "e.jsonl")], capsys)[0] == 130
    code, _, err = run(["duel", *ARGS[:1], "heuristic", *ARGS[2:], "--games", "4", "-o", str(tmp_path / "e.jsonl"),
                        "--resume"], capsys)
    assert code == 2 and "another run" in err and len(err.strip().splitlines()) == 1


def test_a_decided_run_is_written_whole_and_resumes_to_its_decision(tmp_path, capsys, monkeypatch):
    argv = ["duel", *ARGS, "--games", "60", "--sprt", "0,30", "--sprt-min", "6", "--json"]
    code, want, _ = run(argv + ["-o", str(tmp_path / "w.jsonl")], capsys)
    decided = json.loads(want)
    assert code == 0 and decided["sprt"]["decision"] is not None
    assert len(read_records(tmp_path / "w.jsonl")) == 2 * decided["pairs"]
    out = tmp_path / "d.jsonl"
    with monkeypatch.context() as m:
        interrupt_after(m, 3)
        assert run(argv + ["-o", str(out)], capsys)[0] == 130
    code, got, _ = run(argv + ["-o", str(out), "--resume"], capsys)
    assert code == 0 and json.loads(got) == decided
    assert out.read_bytes() == (tmp_path / "w.jsonl").read_bytes()


def test_without_output_ctrl_c_is_one_line(capsys, monkeypatch):
    interrupt_after(monkeypatch, 1)
    code, out, err = run(["duel", *ARGS, "--games", "3"], capsys)
    assert code == 130 and out == "" and err.strip() == "camelup: interrupted"


# --------------------------------------------------------------------------
# bad input: one line, exit 2, nothing played
# --------------------------------------------------------------------------
@pytest.mark.parametrize("argv, fragment", [
    (["duel", "heuristic", "nobot"], "unknown bot 'nobot'"),
    (["duel", "heuristic", "random", "--field", "random,random"], "field names 2 bots for the 3 other seats"),
    (["duel", "heuristic", "random", "--field", "random,x,random"], "unknown bot 'x'"),
    (["duel", "heuristic", "random", "--players", "2"], "second edition is for 3-8 players, not 2"),
    (["duel", "heuristic", "random", "--players", "1", "--edition", "first"], "first edition is for 2-8 players, not 1"),
    (["duel", "heuristic", "random", "--sprt", "2"], "--sprt takes D0,D1"),
    (["duel", "heuristic", "random", "--sprt", "2,1"], "D1 must exceed D0"),
    (["duel", "heuristic", "random", "--alpha", "0.1"], "--alpha, --beta and --sprt-min apply with --sprt"),
    (["duel", "heuristic", "random", "--sprt", "0,2", "--alpha", "0.6"], "alpha must lie between 0 and 0.5"),
    (["duel", "heuristic", "random", "--resume"], "give -o"),
    (["duel", "heuristic", "random", "--engine", "dask"], "--engine dask needs --scheduler"),
    (["duel", "heuristic", "random", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler applies to --engine dask"),
    (["duel", "advisor", "random", "--edition", "cards"], "unknown Camel Up Cards bot 'advisor'"),
    (["duel", "heuristic", "random", "-o", "out.txt"], ".jsonl"),
    (["duel", "heuristic", "random", "--games", "0"], "--games"),
])
def test_bad_input_is_one_line(argv, fragment, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(advisor.simulate.games, "play_game", lambda *a, **k: pytest.fail("a game was played"))
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and fragment in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_python_api_refuses_bad_input():
    with pytest.raises(AdvisorError, match="2..6 players"):
        duel("greedy", "random", 2, edition="cards", players=7)
    with pytest.raises(AdvisorError, match="pairs"):
        duel("heuristic", "random", 0)
    with pytest.raises(AdvisorError, match="3-8 players, not 0"):  # the count given, not the field's
        duel("heuristic", "random", 1, players=0)
    with pytest.raises(AdvisorError, match="SPRT"):
        duel("heuristic", "random", 2, sprt=(0, 0.02))


def test_tally_refuses_games_out_of_order():
    tally = DuelTally(DuelSchedule("a", "b", ["c", "d"]))
    end = {"winners": [0], "money": [5, 3, 2]}
    tally.add(0, end)
    with pytest.raises(AdvisorError, match="out of order"):
        tally.add(2, end)


def test_long_bot_names_keep_the_columns_apart_and_aligned():
    from advisor.cli.duel import format_duel

    frame = duel("heuristic", "random", 2, players=3, field="random", seed=11, processes=1)
    frame.attrs.update(a="margin", b="margin-no-threat")
    head, win, money = format_duel(frame, "second").splitlines()[2:5]
    assert " A margin " in head and " B margin-no-threat " in head
    # each side's figures end where its name ends
    for name in ("A margin", "B margin-no-threat"):
        end = head.index(name) + len(name)
        assert win[end - 1] == "%" and win[end] == " " and money[end - 1].isdigit() and money[end] == " "
