"""Batch analysis: analyse() and streaming files through run_batch / camelup batch."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import advisor.batch.positions as batch_module
from advisor import analyse, leg_odds, random_position
from advisor.batch.positions import analyse_moves, run_batch
from advisor.cli.command import main
from advisor.errors import Interrupted

ANALYSE = batch_module.analyse

GOOD = ["1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx", "first 1:B 2:YG 3:OW dice:BG", "3:PR 2:YG 1:B 15:k 14:w dice:Bx"]
BAD = ["1:B 2:YG", "hello"]


def test_analyse_matches_leg_odds_and_keeps_bad_rows():
    frame = analyse(GOOD + BAD)
    assert len(frame) == 5 and list(frame["error"].ne("")) == [False, False, False, True, True]
    for i, text in enumerate(GOOD):
        odds = leg_odds(text)
        assert frame.at[i, "position"] == str(odds.position)
        for c, row in zip(odds.camels, odds.rank):
            np.testing.assert_allclose(frame.loc[i, [f"{c}_{k}" for k in ("1st", "2nd", "3rd", "4th", "5th")]]
                                       .to_numpy(float), row)
    assert frame.at[3, "position"] == "1:B 2:YG" and "missing" in frame.at[3, "error"]
    assert np.isnan(frame.at[3, "B_1st"])
    assert np.isnan(frame.at[1, "P_1st"]) and not np.isnan(frame.at[1, "O_1st"])  # first edition colours


@pytest.mark.parametrize("kind", ["list", "series", "frame"])
def test_analyse_accepts_lists_series_and_frames(kind):
    data = {"list": GOOD, "series": pd.Series(GOOD), "frame": pd.DataFrame({"position": GOOD})}[kind]
    assert list(analyse(data)["error"]) == ["", "", ""]


def test_analyse_race_and_advice_columns_are_seeded_per_row():
    a = analyse(GOOD[:2], race=True, advice=True, precision=0.02, seed=3)
    b = analyse(GOOD[1:2], race=True, advice=True, precision=0.02, seed=3)
    assert {"B_win", "B_lose", "race_samples", "best_action", "best_ev"} <= set(a.columns)
    assert a.loc[1, "B_win"] == b.loc[0, "B_win"]  # a row's figures do not depend on its neighbours
    camels_win = [c for c in a.columns if c.endswith("_win") and c != "best_win"]  # C_win, one letter C
    assert a.loc[:, camels_win].sum(axis=1).round(9).eq(1).all()


def test_analyse_moves_long_format():
    frame = analyse_moves(GOOD[:1] + BAD[:1], precision=0.05)
    assert set(frame["action"].dropna()) >= {"pyramid", "leg:R"}
    assert frame["error"].ne("").sum() == 1


#: A position whose best action for the chance of winning (leg:B) is not the
#: one with the highest EV (winner:B), at seed 3 and precision 0.1.
SPLIT = "3:k 5:w 8:G 10:PR 12:Y 15:B -14@0 dice:GYx"
#: Level EVs (the tiles) that the EV ranking keeps in the legal actions' order.
LEVEL = "first 1:Y 9:B 10:WG 15:O -3@0 dice:BOW"


def _best(text, seed, objective):
    from advisor import best_moves
    from advisor.batch.positions import _row_seed

    return best_moves(text, precision=0.1, seed=_row_seed(seed, text), denial=False, objective=objective)


def test_advice_plays_to_win_by_default():
    """The advice ranks by the chance of winning the game, as camelup best
    does; win_now and best_win are best_moves' chances for the row's seed."""
    frame = analyse(GOOD + [SPLIT] + BAD, advice=True, precision=0.1, seed=3)
    assert frame.attrs["objective"] == "win"
    assert list(frame.columns[-4:]) == ["best_action", "best_ev", "win_now", "best_win"]
    for i, text in enumerate(GOOD + [SPLIT]):
        want = _best(frame.at[i, "position"], 3, "win")
        assert frame.at[i, "best_action"] == want["action"].iloc[0]
        assert frame.at[i, "best_ev"] == want["ev"].iloc[0]
        assert frame.at[i, "best_win"] == want["win"].iloc[0]
        assert frame.at[i, "win_now"] == want.attrs["win_now"]
        assert 0 < frame.at[i, "win_now"] < 1
    assert frame.at[3, "best_action"] == "leg:B"  # winner:B has the higher EV
    assert frame.loc[4:, ["win_now", "best_win"]].isna().all().all()  # bad rows


def test_advice_by_ev_keeps_the_ev_ranking():
    """objective="ev": best_action and best_ev are best_moves(objective="ev")'s
    first row, as the batch gave them before the objective; the chances are
    the same as under "win" (best_win: the chance after that action)."""
    texts = GOOD + [SPLIT, LEVEL]
    by_ev = analyse(texts, advice=True, precision=0.1, seed=3, objective="ev")
    by_win = analyse(texts, advice=True, precision=0.1, seed=3)
    assert by_ev.attrs["objective"] == "ev"
    for i in range(len(texts)):
        want = _best(by_ev.at[i, "position"], 3, "ev")
        chances = _best(by_ev.at[i, "position"], 3, "win").set_index("action")["win"]
        assert by_ev.at[i, "best_action"] == want["action"].iloc[0]
        assert by_ev.at[i, "best_ev"] == want["ev"].iloc[0]
        assert by_ev.at[i, "best_win"] == chances[want["action"].iloc[0]]
        assert by_ev.at[i, "win_now"] == by_win.at[i, "win_now"]
    assert by_ev.at[3, "best_action"] == "winner:B" and by_ev.at[3, "best_ev"] > by_win.at[3, "best_ev"]
    assert by_ev.at[3, "best_win"] < by_win.at[3, "best_win"]
    # the same seed gives the same answer
    pd.testing.assert_frame_equal(by_ev, analyse(texts, advice=True, precision=0.1, seed=3, objective="ev"))


@pytest.mark.parametrize("objective", ["win", "ev"])
def test_moves_give_each_actions_chance_of_winning_ranked_by_the_objective(objective):
    frame = analyse_moves([SPLIT, LEVEL] + BAD[:1], precision=0.1, seed=3, objective=objective)
    assert list(frame.columns) == ["position", "error", "action", "ev", "win", "sd", "p_loss"]
    assert frame.attrs["objective"] == objective
    for text in (SPLIT, LEVEL):
        rows = frame[frame["position"] == text].reset_index(drop=True)
        want = _best(text, 3, objective)
        chances = _best(text, 3, "win").set_index("action")["win"]
        assert list(rows["action"]) == list(want["action"])  # the order too
        assert list(rows["ev"]) == list(want["ev"]) and list(rows["sd"]) == list(want["sd"])
        assert list(rows["win"]) == list(chances[rows["action"]])
    assert frame["position"].eq(SPLIT).idxmax() == 0
    assert frame.at[0, "action"] == ("leg:B" if objective == "win" else "winner:B")
    assert np.isnan(frame["win"].iloc[-1]) and frame["error"].iloc[-1]


def test_an_unknown_objective_is_refused():
    from advisor.errors import AdvisorError

    for call in (analyse, analyse_moves):
        with pytest.raises(AdvisorError, match="objective must be one of win, ev, not 'coins'"):
            call(GOOD, objective="coins")


def test_cli_batch_objective(tmp_path, capsys):
    texts = [GOOD[0], SPLIT]
    write_inputs(tmp_path, texts)
    for argv, objective in [([], "win"), (["--objective", "ev"], "ev"), (["--objective", "win"], "win")]:
        out = tmp_path / f"o_{len(argv)}_{objective}.csv"
        code, _ = run_cli(["batch", tmp_path / "in.txt", "-o", out, "--advice", "--precision", "0.1", "--seed", 3,
                           *argv], capsys)
        assert code == 0
        got = pd.read_csv(out, keep_default_na=False)
        want = analyse(texts, advice=True, precision=0.1, seed=3, objective=objective)
        assert list(got["best_action"]) == list(want["best_action"])
        for column in ("best_ev", "win_now", "best_win"):
            np.testing.assert_allclose(got[column].to_numpy(float), want[column].to_numpy(float), rtol=1e-15)
    assert run_cli(["batch", tmp_path / "in.txt", "-o", tmp_path / "x.csv", "--objective", "coins"], capsys)[0] == 2
    assert not (tmp_path / "x.csv").exists()


def test_resume_refuses_another_objective(tmp_path, monkeypatch, capsys):
    texts = many(6)
    write_inputs(tmp_path, texts)
    out = tmp_path / "o.jsonl"
    args = ["batch", tmp_path / "in.txt", "-o", out, "--advice", "--precision", "0.1", "--chunk", 2]
    stop_after(monkeypatch, 1)
    assert run_cli([*args, "--objective", "ev"], capsys)[0] == 130
    monkeypatch.undo()
    manifest = json.loads((tmp_path / "o.jsonl.part" / "manifest.json").read_text())
    assert manifest["options"]["objective"] == "ev"
    before = snapshot(tmp_path)
    for argv in ([], ["--objective", "win"]):
        code, err = run_cli([*args, "--resume", *argv], capsys)
        line = one_line(err)
        assert code == 2 and "cannot resume" in line and "--objective ev (not win)" in line and "--restart" in line
        assert snapshot(tmp_path) == before
    code, _ = run_cli([*args, "--resume", "--objective", "ev"], capsys)
    assert code == 0
    run_batch(tmp_path / "in.txt", tmp_path / "want.jsonl", advice=True, precision=0.1, objective="ev")
    assert out.read_bytes() == (tmp_path / "want.jsonl").read_bytes()


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


def stop_after(monkeypatch, calls, exc=KeyboardInterrupt):
    """Make the batch's analysis raise ``exc`` (Ctrl-C by default) once it
    has analysed ``calls`` chunks."""
    seen = []

    def analyse_or_stop(texts, **kw):
        if len(seen) == calls:
            raise exc()
        seen.append(len(texts))
        return ANALYSE(texts, **kw)

    monkeypatch.setattr(batch_module, "analyse", analyse_or_stop)


def write_inputs(tmp_path, texts):
    (tmp_path / "in.txt").write_text("# a comment\n" + "\n".join(texts) + "\n\n")
    pd.DataFrame({"position": texts, "note": range(len(texts))}).to_csv(tmp_path / "in.csv", index=False)
    (tmp_path / "in.jsonl").write_text("".join(json.dumps({"position": t}) + "\n" for t in texts))


def many(n=120, seed=4):
    rng = np.random.default_rng(seed)
    return [str(random_position("second" if i % 3 else "first", rng, dice=3, tiles=1)) for i in range(n)]


@pytest.mark.parametrize("src", ["in.txt", "in.csv", "in.jsonl"])
@pytest.mark.parametrize("dst", ["out.csv", "out.jsonl"])
def test_every_input_and_output_format_gives_the_same_rows(tmp_path, src, dst):
    texts = many(30) + BAD
    write_inputs(tmp_path, texts)
    rows, failed = run_batch(tmp_path / src, tmp_path / dst, chunk=7)
    assert (rows, failed) == (32, 2)
    got = (pd.read_csv(tmp_path / dst, keep_default_na=False, na_values=[""]) if dst.endswith(".csv")
           else pd.read_json(tmp_path / dst, lines=True))
    want = analyse(texts)
    assert list(got["position"]) == list(want["position"])
    np.testing.assert_allclose(got["B_1st"].to_numpy(float), want["B_1st"].to_numpy(float))


def test_chunking_does_not_change_the_output(tmp_path):
    write_inputs(tmp_path, many(50))
    run_batch(tmp_path / "in.txt", tmp_path / "a.csv", chunk=1000)
    run_batch(tmp_path / "in.txt", tmp_path / "b.csv", chunk=3)
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()


def test_resume_continues_an_interrupted_run(tmp_path, monkeypatch):
    texts = many(60)
    write_inputs(tmp_path, texts)
    run_batch(tmp_path / "in.txt", tmp_path / "full.csv")
    stop_after(monkeypatch, 3)  # the run that was cut short: 3 chunks of 7 rows kept
    message = interrupted(lambda: run_batch(tmp_path / "in.txt", tmp_path / "part.csv", chunk=7))
    assert "21 of 60 rows kept" in message
    monkeypatch.undo()
    assert not (tmp_path / "part.csv").exists()
    counted = []
    monkeypatch.setattr(batch_module, "analyse", lambda texts, **kw: counted.append(len(texts)) or
                        ANALYSE(texts, **kw))
    rows, _ = run_batch(tmp_path / "in.txt", tmp_path / "part.csv", resume=True, chunk=10)
    assert rows == 60 and sum(counted) == 39  # the rest only, in chunks of another size
    assert (tmp_path / "part.csv").read_text() == (tmp_path / "full.csv").read_text()
    assert not (tmp_path / "part.csv.part").exists()


def test_cli_batch_exit_status(tmp_path, capsys):
    write_inputs(tmp_path, GOOD)
    assert main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "o.csv")]) == 0
    write_inputs(tmp_path, GOOD + BAD)
    assert main(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert "2 failed" in capsys.readouterr().err


@pytest.mark.parametrize("argv, fragment", [
    (["batch", "missing.txt", "-o", "o.csv"], "no such file"),
    (["batch", "in.parquetx", "-o", "o.csv"], "use one of"),
    (["batch", "in.txt", "-o", "o.xlsx"], "use one of"),
    (["batch", "in.txt", "-o", "o.csv", "--restart", "--resume"], "exclude each other"),
    (["batch", "in.txt", "-o", "o.csv", "--engine", "dask", "--scheduler", "tcp://x:1", "--resume"],
     "not available"),
])
def test_cli_batch_bad_input(tmp_path, monkeypatch, capsys, argv, fragment):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path, GOOD)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_parquet_in_and_out_with_resume(tmp_path, monkeypatch):
    texts = many(40) + BAD
    pd.DataFrame({"position": texts}).to_parquet(tmp_path / "in.parquet")
    assert run_batch(tmp_path / "in.parquet", tmp_path / "full.parquet", race=True, precision=0.05) == (42, 2)
    full = pd.read_parquet(tmp_path / "full.parquet")
    assert list(full["position"][:40]) == list(analyse(texts[:40])["position"])
    assert str(full["race_samples"].dtype) == "int64" or full["race_samples"].isna().sum() == 2
    stop_after(monkeypatch, 4)
    message = interrupted(lambda: run_batch(tmp_path / "in.parquet", tmp_path / "part.parquet", race=True,
                                            precision=0.05, chunk=4))
    assert "16 of 42 rows kept" in message
    monkeypatch.undo()
    assert not (tmp_path / "part.parquet").exists()
    rows, failed = run_batch(tmp_path / "in.parquet", tmp_path / "part.parquet", race=True, precision=0.05,
                             resume=True, chunk=8)
    assert (rows, failed) == (42, 2)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "part.parquet"), full)


def test_game_states_as_json_lines_use_the_players_holdings(tmp_path):
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:R322"
    rich = {"board": board, "players": [{"money": 0, "leg_tiles": ["R5"], "overall_cards": ""}, {}, {}]}
    lines = [json.dumps(rich), json.dumps({"position": board}), json.dumps({"board": board, "players": 1})]
    (tmp_path / "states.jsonl").write_text("\n".join(lines) + "\n")
    rows, failed = run_batch(tmp_path / "states.jsonl", tmp_path / "out.csv", advice=True, precision=0.05)
    assert (rows, failed) == (3, 1)
    out = pd.read_csv(tmp_path / "out.csv", keep_default_na=False)
    assert "players" in out.at[2, "error"]
    from advisor import GameState, best_moves

    want = best_moves(GameState.from_json(rich), precision=0.05, denial=False)
    # player 0 holds R5 and no overall cards: the state changes the advice
    assert out.at[0, "best_action"] == want["action"].iloc[0]
    assert float(out.at[0, "best_ev"]) == pytest.approx(want["ev"].iloc[0])
    assert out.at[0, "position"] == out.at[1, "position"]


def test_progress_bar_counts_the_rows(tmp_path, capsys):
    write_inputs(tmp_path, many(12))
    run_batch(tmp_path / "in.txt", tmp_path / "o.csv", progress=True, chunk=5)
    err = capsys.readouterr().err
    assert "12/12" in err and "pos/s" in err


# --------------------------------------------------------------------------
# Nothing a batch does destroys a file
# --------------------------------------------------------------------------

def snapshot(folder):
    """Every file under ``folder`` with its bytes (partial outputs included)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    return code, err


def one_line(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


SPELLINGS = ["same", "dot", "updown", "absolute", "symlink", "hardlink"]


@pytest.mark.parametrize("ext, spelling", [(e, s) for e in (".csv", ".jsonl") for s in SPELLINGS]
                         + [(".txt", "symlink"), (".txt", "hardlink")])  # a .txt output only through a link
def test_the_input_is_never_the_output(tmp_path, monkeypatch, capsys, ext, spelling):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path, GOOD)
    (tmp_path / "sub").mkdir()
    name = "in" + ext
    out = {"same": name, "dot": f"./{name}", "updown": f"sub/../{name}", "absolute": str(tmp_path / name),
           "symlink": "link" + ext, "hardlink": "hard" + ext}[spelling]
    if spelling == "symlink":
        os.symlink(name, out)
    if spelling == "hardlink":
        os.link(name, out)
    if ext == ".txt":  # the link itself named as an output kind
        os.rename(out, "link.csv")
        out = "link.csv"
    before = snapshot(tmp_path)
    code, err = run_cli(["batch", name, "-o", out], capsys)
    assert code == 2 and "is the input file" in one_line(err)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("out", ["results.csv", "results.jsonl", "results.parquet"])
@pytest.mark.parametrize("problem", ["missing input", "input is a folder", "no such folder", "folder is a file",
                                     "folder not writable", "no position column", "input kind"])
def test_a_failed_batch_touches_nothing(tmp_path, monkeypatch, capsys, out, problem):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path, GOOD)
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "nopos.csv", index=False)
    (tmp_path / "dir.txt").mkdir()
    run_batch(tmp_path / "in.txt", tmp_path / out)  # an earlier result
    src, dst = "in.txt", out
    if problem == "missing input":
        src = "typo.txt"
    elif problem == "input is a folder":
        src = "dir.txt"
    elif problem == "no such folder":
        dst = f"/nonexistent/{out}"
    elif problem == "folder is a file":
        dst = f"in.csv/{out}"
    elif problem == "folder not writable":
        def refuse(*a, **k):
            raise PermissionError(13, "Permission denied")
        import tempfile

        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    elif problem == "no position column":
        src = "nopos.csv"
    else:
        src = "in.xlsx"
    before = snapshot(tmp_path)
    code, err = run_cli(["batch", src, "-o", dst, "--race"], capsys)
    assert code == 2
    line = one_line(err)
    assert line.startswith("camelup: error: ") and "Traceback" not in err
    assert snapshot(tmp_path) == before


def test_the_output_appears_only_when_complete(tmp_path, monkeypatch):
    write_inputs(tmp_path, many(30))
    for out in ("o.csv", "o.jsonl", "o.parquet"):
        (tmp_path / out).write_text("an earlier result\n")
        seen = []

        def watch(texts, **kw):
            seen.append((tmp_path / out).read_text())
            return ANALYSE(texts, **kw)

        monkeypatch.setattr(batch_module, "analyse", watch)
        run_batch(tmp_path / "in.txt", tmp_path / out, chunk=7, overwrite=True)
        assert seen == ["an earlier result\n"] * 5
        assert not (tmp_path / (out + ".part")).exists()
    monkeypatch.undo()
    assert pd.read_parquet(tmp_path / "o.parquet").shape == (30, 37)


def test_a_batch_that_breaks_keeps_the_old_output_and_resumes(tmp_path, monkeypatch):
    texts = many(30)
    write_inputs(tmp_path, texts)
    run_batch(tmp_path / "in.csv", tmp_path / "want.jsonl", chunk=30)
    (tmp_path / "o.jsonl").write_text("an earlier result\n")
    stop_after(monkeypatch, 2, exc=MemoryError)
    with pytest.raises(MemoryError):
        run_batch(tmp_path / "in.csv", tmp_path / "o.jsonl", chunk=8, overwrite=True)
    monkeypatch.undo()
    assert (tmp_path / "o.jsonl").read_text() == "an earlier result\n"
    assert json.loads((tmp_path / "o.jsonl.part" / "manifest.json").read_text())["rows_in"] == 16
    assert run_batch(tmp_path / "in.csv", tmp_path / "o.jsonl", resume=True, chunk=5) == (30, 0)
    assert (tmp_path / "o.jsonl").read_bytes() == (tmp_path / "want.jsonl").read_bytes()


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_ctrl_c_keeps_the_complete_chunks_and_says_how_to_resume(tmp_path, monkeypatch, capsys, ext):
    texts = many(30) + BAD
    write_inputs(tmp_path, texts)
    run_batch(tmp_path / "in.jsonl", tmp_path / ("want" + ext), chunk=100)
    out = tmp_path / ("o" + ext)
    out.write_bytes(b"an earlier result\n")
    before = snapshot(tmp_path)
    stop_after(monkeypatch, 2)
    code, err = run_cli(["batch", tmp_path / "in.jsonl", "-o", out, "--chunk", 6, "--overwrite"], capsys)
    assert code == 130
    assert one_line(err) == (f"camelup: interrupted: 12 of 32 rows kept in {out}.part: run the same command "
                             "with --resume to continue")
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if ".part" not in k} == before  # input and old output as they were
    assert sorted(k for k in after if ".part" in k)  # the resumable partial output
    monkeypatch.undo()
    code, err = run_cli(["batch", tmp_path / "in.jsonl", "-o", out, "--chunk", 5, "--resume"], capsys)
    assert code == 1 and "32 position(s) analysed" in err and "resuming" in err
    if ext == ".parquet":
        pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(tmp_path / "want.parquet"))
    else:
        assert out.read_bytes() == (tmp_path / ("want" + ext)).read_bytes()
    assert not (tmp_path / ("o" + ext + ".part")).exists()


def test_ctrl_c_before_the_first_chunk_keeps_nothing(tmp_path, monkeypatch, capsys):
    write_inputs(tmp_path, many(10))
    (tmp_path / "o.csv").write_text("old\n")
    before = snapshot(tmp_path)
    stop_after(monkeypatch, 0)
    code, err = run_cli(["batch", tmp_path / "in.txt", "-o", tmp_path / "o.csv", "--overwrite"], capsys)
    assert code == 130 and "nothing kept" in one_line(err)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_resume_refuses_a_run_that_does_not_match(tmp_path, monkeypatch, capsys, ext):
    h = many(40)
    (tmp_path / "h50.txt").write_text("\n".join(h[:20]) + "\n")
    (tmp_path / "h100.txt").write_text("\n".join(h) + "\n")
    out = tmp_path / ("mix" + ext)
    stop_after(monkeypatch, 1)
    assert run_cli(["batch", tmp_path / "h50.txt", "-o", out, "--chunk", 5], capsys)[0] == 130
    monkeypatch.undo()
    before = snapshot(tmp_path)
    code, err = run_cli(["batch", tmp_path / "h100.txt", "-o", out, "--resume", "--race"], capsys)
    line = one_line(err)
    assert code == 2 and "cannot resume" in line
    assert "h50.txt" in line and "(not " in line and "no --race" in line and "--restart" in line
    assert snapshot(tmp_path) == before
    # each thing a resume must match, one at a time
    for argv, fragment in [(["--seed", "3"], "--seed 0 (not 3)"), (["--precision", "0.02"], "--precision 0.01"),
                           (["--advice"], "no --advice"), (["--moves"], "no --moves"),
                           (["--objective", "ev"], "--objective win (not ev)")]:
        code, err = run_cli(["batch", tmp_path / "h50.txt", "-o", out, "--resume", *argv], capsys)
        assert code == 2 and fragment in one_line(err)
    monkeypatch.setattr(batch_module, "__version__", "99.0")
    code, err = run_cli(["batch", tmp_path / "h50.txt", "-o", out, "--resume"], capsys)
    assert code == 2 and "camelup-advisor 0.1.0 (this is 99.0)" in one_line(err)
    monkeypatch.undo()
    (tmp_path / "h50.txt").write_text("\n".join(h[:19]) + "\n")  # same path, other content
    code, err = run_cli(["batch", tmp_path / "h50.txt", "-o", out, "--resume"], capsys)
    assert code == 2 and "changed since" in one_line(err)
    assert {k: v for k, v in snapshot(tmp_path).items() if k != "h50.txt"} == \
        {k: v for k, v in before.items() if k != "h50.txt"}


def test_a_plain_run_does_not_discard_an_unfinished_run(tmp_path, monkeypatch, capsys):
    write_inputs(tmp_path, many(20))
    out = tmp_path / "o.csv"
    stop_after(monkeypatch, 2)
    assert run_cli(["batch", tmp_path / "in.txt", "-o", out, "--chunk", 4], capsys)[0] == 130
    monkeypatch.undo()
    before = snapshot(tmp_path)
    code, err = run_cli(["batch", tmp_path / "in.txt", "-o", out], capsys)
    assert code == 2 and "holds 8 of 20 rows of an unfinished run" in one_line(err) and "--resume" in err
    assert snapshot(tmp_path) == before
    code, err = run_cli(["batch", tmp_path / "in.txt", "-o", out, "--restart"], capsys)
    assert code == 0 and len(pd.read_csv(out)) == 20 and not (tmp_path / "o.csv.part").exists()


def test_resume_with_nothing_to_resume_starts_from_the_first_row(tmp_path, capsys):
    write_inputs(tmp_path, many(12))
    out = tmp_path / "o.csv"
    code, err = run_cli(["batch", tmp_path / "in.txt", "-o", out, "--resume"], capsys)
    assert code == 0 and "nothing to resume" in err and len(pd.read_csv(out)) == 12


def test_a_partial_output_that_is_not_ours_is_left_alone(tmp_path, capsys):
    write_inputs(tmp_path, many(5))
    (tmp_path / "o.parquet.part").write_text("left by someone else")
    (tmp_path / "o.csv.part").mkdir()
    (tmp_path / "o.csv.part" / "notes.txt").write_text("mine")
    before = snapshot(tmp_path)
    for out in ("o.parquet", "o.csv"):
        for extra in ([], ["--restart"], ["--resume"]):
            code, err = run_cli(["batch", tmp_path / "in.txt", "-o", tmp_path / out, *extra], capsys)
            assert code == 2 and "move it away" in one_line(err)
    assert snapshot(tmp_path) == before


def test_two_runs_never_write_one_output(tmp_path, capsys):
    fcntl = pytest.importorskip("fcntl")
    write_inputs(tmp_path, many(5))
    (tmp_path / "o.csv.part").mkdir()
    with open(tmp_path / "o.csv.part" / "lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        code, err = run_cli(["batch", tmp_path / "in.txt", "-o", tmp_path / "o.csv"], capsys)
    assert code == 2 and "in use" in one_line(err)


KILLED = r"""
import sys, time
import advisor.batch.positions as b

analyse, calls = b.analyse, []


def slow(texts, **kw):  # three chunks, then a wait that only kill -9 ends
    calls.append(1)
    time.sleep(0.2 if len(calls) <= 3 else 600)
    return analyse(texts, **kw)


b.analyse = slow
b.run_batch(sys.argv[1], sys.argv[2], chunk=5, race=True, precision=0.1, overwrite=True)
"""


def run_and_kill(src, out, rows_before_kill):
    """Run a batch in another process and kill -9 it once ``rows_before_kill``
    rows are recorded as done."""
    manifest = Path(str(out) + ".part") / "manifest.json"
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(src), str(out)])
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if json.loads(manifest.read_text())["rows_in"] >= rows_before_kill:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        assert proc.poll() is None, "the batch ended before it could be killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_kill_9_then_resume_continues_from_the_last_complete_chunk(tmp_path, ext):
    texts = many(40) + BAD
    write_inputs(tmp_path, texts)
    want, out = tmp_path / ("want" + ext), tmp_path / ("o" + ext)
    run_batch(tmp_path / "in.csv", want, race=True, precision=0.1)
    out.write_bytes(b"an earlier result\n")
    run_and_kill(tmp_path / "in.csv", out, 10)
    assert out.read_bytes() == b"an earlier result\n"
    part = tmp_path / ("o" + ext + ".part")
    done = json.loads((part / "manifest.json").read_text())["rows_in"]
    assert 10 <= done < 42
    # a crash part-way through the next chunk: a torn tail, a stray chunk, a torn manifest
    if ext == ".parquet":
        (part / f"chunk-{done // 5:08d}.parquet.tmp").write_bytes(b"PAR1 torn")
        (part / f"chunk-{done // 5 + 1:08d}.parquet").write_bytes(b"PAR1 not recorded")
    else:
        with open(part / ("rows" + ext), "ab") as fh:
            fh.write(b'{"position": "1:B 2:YG 3:P' if ext == ".jsonl" else b"1:G 3:B,,0.5,0.")
    (part / "manifest.json.tmp").write_text('{"rows_in": 9')
    seen = []
    rows, failed = run_batch(tmp_path / "in.csv", out, race=True, precision=0.1, resume=True,
                             progress=False, note=seen.append)
    assert (rows, failed) == (42, 2) and f"{done} of 42 rows were done" in seen[0]
    if ext == ".parquet":
        pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(want))
    else:
        assert out.read_bytes() == want.read_bytes()
    assert not part.exists()


@pytest.mark.parametrize("ext", [".csv", ".jsonl"])
def test_a_crash_at_any_byte_of_a_chunk_is_recoverable(tmp_path, monkeypatch, ext):
    write_inputs(tmp_path, many(12))
    want, out = tmp_path / ("want" + ext), tmp_path / ("o" + ext)
    run_batch(tmp_path / "in.txt", want, chunk=4)
    full = want.read_bytes()
    stop_after(monkeypatch, 1, exc=SystemExit)
    with pytest.raises(SystemExit):
        run_batch(tmp_path / "in.txt", out, chunk=4)
    monkeypatch.undo()
    rows = tmp_path / ("o" + ext + ".part") / ("rows" + ext)
    kept = rows.read_bytes()
    assert full.startswith(kept)
    saved = snapshot(tmp_path / ("o" + ext + ".part"))
    ends = np.cumsum([len(line) for line in full.splitlines(keepends=True)])
    cuts = {int(e) + d for e in ends if e >= len(kept) for d in (-1, 0, 1)}  # around every row's end
    cuts |= set(np.linspace(len(kept), len(full), 12).astype(int).tolist())  # and inside rows
    for cut in sorted(c for c in cuts if len(kept) <= c <= len(full)):  # the next chunks torn at that byte
        for name, data in saved.items():
            (rows.parent / name).write_bytes(data)
        rows.write_bytes(full[:cut])
        run_batch(tmp_path / "in.txt", out, resume=True, chunk=4)
        assert out.read_bytes() == full
        out.unlink()
        rows.parent.mkdir()


def test_moves_can_resume(tmp_path, monkeypatch):
    write_inputs(tmp_path, many(6) + BAD)
    run_batch(tmp_path / "in.csv", tmp_path / "want.csv", moves=True, precision=0.1)
    monkeypatch.setattr(batch_module, "analyse_moves", ANALYSE_MOVES_STOPPING(2))
    message = interrupted(lambda: run_batch(tmp_path / "in.csv", tmp_path / "o.csv", moves=True, precision=0.1,
                                            chunk=3))
    assert "6 of 8 rows kept" in message
    monkeypatch.undo()
    assert run_batch(tmp_path / "in.csv", tmp_path / "o.csv", moves=True, precision=0.1, resume=True) == (8, 2)
    assert (tmp_path / "o.csv").read_bytes() == (tmp_path / "want.csv").read_bytes()


def ANALYSE_MOVES_STOPPING(calls):
    real, seen = batch_module.analyse_moves, []

    def stopping(texts, **kw):
        if len(seen) == calls:
            raise KeyboardInterrupt
        seen.append(1)
        return real(texts, **kw)

    return stopping


@pytest.mark.parametrize("out", ["o.parquet", "o.csv"])
def test_parquet_without_pyarrow_gives_the_install_hint_before_any_work(tmp_path, monkeypatch, capsys, out):
    write_inputs(tmp_path, many(5))
    pd.DataFrame({"position": many(5)}).to_parquet(tmp_path / "in.parquet")
    (tmp_path / "o.parquet").write_text("old")
    before = snapshot(tmp_path)
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` now raises ImportError
    monkeypatch.setattr(batch_module, "analyse", lambda *a, **k: pytest.fail("work began"))
    src = "in.txt" if out == "o.parquet" else "in.parquet"
    code, err = run_cli(["batch", tmp_path / src, "-o", tmp_path / out], capsys)
    assert code == 2
    assert one_line(err) == "camelup: error: Parquet files need pyarrow: pip install 'camelup-advisor[parquet]'"
    assert snapshot(tmp_path) == before


# --------------------------------------------------------------------------
# Rows are read as written, and keep their other columns
# --------------------------------------------------------------------------

def test_a_csv_row_that_does_not_fit_the_header_is_a_bad_row(tmp_path):
    good = GOOD[0]
    (tmp_path / "in.csv").write_text(f"position,x\n{good},1,2,3\n{good},7\n{good}\n\"{good}\",\"a,b\"\n")
    assert run_batch(tmp_path / "in.csv", tmp_path / "o.csv") == (4, 2)
    out = pd.read_csv(tmp_path / "o.csv", keep_default_na=False, dtype=str)
    assert list(out["error"].ne("")) == [True, False, True, False]
    assert out.at[0, "position"] == f"{good},1,2,3" and "4 fields where the header has 2" in out.at[0, "error"]
    assert "1 fields where the header has 2" in out.at[2, "error"]
    assert list(out["x"]) == ["", "7", "", "a,b"]
    frame = analyse(pd.DataFrame({"position": [good], "x": ["1"]}))
    assert out.at[1, "B_1st"] == str(frame.at[0, "B_1st"])


def test_a_line_that_is_not_json_is_a_bad_row(tmp_path):
    (tmp_path / "in.jsonl").write_text(json.dumps({"position": GOOD[0]}) + "\n{\"position\": \"1:B\n" +
                                       "[" * 100_000 + "\n")
    assert run_batch(tmp_path / "in.jsonl", tmp_path / "o.jsonl") == (3, 2)
    errors = [json.loads(line)["error"] for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert errors[0] == "" and "not a valid JSON line" in errors[1] and "nested too deeply" in errors[2]


def test_the_inputs_other_columns_are_kept(tmp_path):
    texts = many(8) + BAD
    ids = [f"g{i:03d}" for i in range(len(texts))]
    pd.DataFrame({"id": ids, "position": texts, "turn": range(len(texts))}).to_csv(tmp_path / "in.csv",
                                                                                  index=False)
    pd.DataFrame({"id": ids, "position": texts, "turn": range(len(texts))}).to_parquet(tmp_path / "in.parquet")
    (tmp_path / "in.jsonl").write_text("".join(json.dumps({"id": i, "position": t, "turn": k})
                                               + "\n" for k, (i, t) in enumerate(zip(ids, texts))))
    want = analyse(texts)
    for src in ("in.csv", "in.parquet", "in.jsonl"):
        for dst in ("o.csv", "o.parquet", "o.jsonl"):
            run_batch(tmp_path / src, tmp_path / dst, chunk=3, overwrite=True)  # each source replaces the last
            got = {"o.csv": lambda p: pd.read_csv(p, keep_default_na=False, na_values=[""]),
                   "o.parquet": pd.read_parquet,
                   "o.jsonl": lambda p: pd.read_json(p, lines=True)}[dst](tmp_path / dst)
            assert list(got.columns[:4]) == ["id", "turn", "position", "error"], (src, dst)
            assert list(got["id"]) == ids and list(got["turn"].astype(int)) == list(range(len(texts)))
            assert list(got["position"]) == list(want["position"])
    # types are kept where the formats can: Parquet to Parquet keeps integers
    assert str(pd.read_parquet(tmp_path / "o.parquet").dtypes["turn"]) == "int64"
    run_batch(tmp_path / "in.parquet", tmp_path / "o.parquet", overwrite=True)
    assert str(pd.read_parquet(tmp_path / "o.parquet").dtypes["turn"]) == "int64"


def test_kept_columns_with_moves_are_repeated_on_each_action_row(tmp_path):
    texts = many(3) + BAD[:1]
    pd.DataFrame({"id": ["a", "b", "c", "d"], "position": texts}).to_csv(tmp_path / "in.csv", index=False)
    run_batch(tmp_path / "in.csv", tmp_path / "o.csv", moves=True, precision=0.1, chunk=2)
    out = pd.read_csv(tmp_path / "o.csv", keep_default_na=False)
    want = analyse_moves(texts, precision=0.1)
    assert list(out.columns[:3]) == ["id", "position", "error"] and len(out) == len(want)
    for pos, group in out.groupby("position", sort=False):
        assert group["id"].nunique() == 1
    assert out["id"].iloc[-1] == "d" and out["error"].iloc[-1] != ""
    frame = analyse_moves(pd.DataFrame({"game": [7, 8], "position": texts[:2]}), precision=0.1)
    assert list(frame["game"].unique()) == [7, 8] and len(frame) == len(want[want["position"].isin(
        want["position"].unique()[:2])])


def test_game_state_lines_keep_their_other_keys(tmp_path):
    board = "1:B 2:YG 3:PR 14:w 15:k dice:GPRx legtiles:R322"
    lines = [{"board": board, "players": 3, "id": 1, "game": {"n": 4}}, {"position": board, "id": 2},
             {"board": board, "id": 3}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    run_batch(tmp_path / "in.jsonl", tmp_path / "o.jsonl", advice=True, precision=0.1)
    out = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert [o["id"] for o in out] == [1, 2, 3] and out[0]["game"] == {"n": 4} and "game" not in out[1]
    assert all(o["error"] == "" for o in out) and "players" not in out[0]
    run_batch(tmp_path / "in.jsonl", tmp_path / "o.csv", advice=True, precision=0.1)
    csv_out = pd.read_csv(tmp_path / "o.csv", keep_default_na=False, dtype=str)
    assert list(csv_out["game"]) == ['{"n":4}', "", ""] and list(csv_out["id"]) == ["1", "2", "3"]


def test_an_input_column_named_like_an_output_column_is_kept_as_input_name(tmp_path, capsys):
    frame = analyse(pd.DataFrame({"position": GOOD[:2], "error": ["e1", "e2"], "B_1st": [0.5, 0.6],
                                  "input_error": ["x", "y"]}))
    assert list(frame.columns[:5]) == ["input_input_error", "input_B_1st", "input_error", "position", "error"]
    assert list(frame["input_input_error"]) == ["e1", "e2"] and list(frame["input_error"]) == ["x", "y"]
    assert list(frame["error"]) == ["", ""] and frame.at[0, "B_1st"] == analyse(GOOD[:1]).at[0, "B_1st"]
    pd.DataFrame({"position": GOOD, "error": ["a", "b", "c"]}).to_csv(tmp_path / "in.csv", index=False)
    code, err = run_cli(["batch", tmp_path / "in.csv", "-o", tmp_path / "o.csv"], capsys)
    assert code == 0 and "error as input_error" in err
    out = pd.read_csv(tmp_path / "o.csv", keep_default_na=False)
    assert list(out["input_error"]) == ["a", "b", "c"] and list(out["error"]) == ["", "", ""]


def test_a_csv_header_naming_a_column_twice_is_refused(tmp_path, capsys):
    (tmp_path / "in.csv").write_text(f"id,position,id\n1,{GOOD[0]},2\n")
    code, err = run_cli(["batch", tmp_path / "in.csv", "-o", tmp_path / "o.csv"], capsys)
    assert code == 2 and "'id' appears twice" in one_line(err)
