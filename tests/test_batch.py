"""Batch analysis: analyse() and streaming files through run_batch / camelup batch."""

import json

import numpy as np
import pandas as pd
import pytest

from advisor import analyse, leg_odds, random_position
from advisor.batch import analyse_moves, run_batch
from advisor.cli import main

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
    assert a.loc[:, [c for c in a.columns if c.endswith("_win")]].sum(axis=1).round(9).eq(1).all()


def test_analyse_moves_long_format():
    frame = analyse_moves(GOOD[:1] + BAD[:1], precision=0.05)
    assert set(frame["action"].dropna()) >= {"pyramid", "leg:R"}
    assert frame["error"].ne("").sum() == 1


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


def test_resume_continues_an_interrupted_run(tmp_path):
    texts = many(60)
    write_inputs(tmp_path, texts)
    run_batch(tmp_path / "in.txt", tmp_path / "full.csv")
    write_inputs(tmp_path, texts[:25])  # the run that was cut short
    run_batch(tmp_path / "in.txt", tmp_path / "part.csv")
    write_inputs(tmp_path, texts)
    rows, _ = run_batch(tmp_path / "in.txt", tmp_path / "part.csv", resume=True, chunk=10)
    assert rows == 35
    assert (tmp_path / "part.csv").read_text() == (tmp_path / "full.csv").read_text()


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
    (["batch", "in.txt", "-o", "o.csv", "--moves", "--resume"], "resume"),
])
def test_cli_batch_bad_input(tmp_path, monkeypatch, capsys, argv, fragment):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path, GOOD)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_parquet_in_and_out_with_resume(tmp_path):
    texts = many(40) + BAD
    pd.DataFrame({"position": texts}).to_parquet(tmp_path / "in.parquet")
    assert run_batch(tmp_path / "in.parquet", tmp_path / "full.parquet", race=True, precision=0.05) == (42, 2)
    full = pd.read_parquet(tmp_path / "full.parquet")
    assert list(full["position"][:40]) == list(analyse(texts[:40])["position"])
    assert str(full["race_samples"].dtype) == "int64" or full["race_samples"].isna().sum() == 2
    pd.DataFrame({"position": texts[:15]}).to_parquet(tmp_path / "in.parquet")
    run_batch(tmp_path / "in.parquet", tmp_path / "part.parquet", race=True, precision=0.05, chunk=4)
    pd.DataFrame({"position": texts}).to_parquet(tmp_path / "in.parquet")
    rows, failed = run_batch(tmp_path / "in.parquet", tmp_path / "part.parquet", race=True, precision=0.05,
                             resume=True, chunk=8)
    assert (rows, failed) == (27, 2)
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
