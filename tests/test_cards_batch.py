"""camelup batch on Camel Up Cards positions: the same columns as the
board games', filled from the Camel Up Cards odds and advice; a file that
mixes the games is refused in one line saying how to split it."""

import numpy as np
import pytest

from advisor.batch.positions import analyse, analyse_moves
from advisor.cards import cards_best, cards_odds
from advisor.cli.command import main
from advisor.errors import AdvisorError

CARDS = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"
BOARD = "1:B 2:YG 3:PR 14:w 15:k"


def test_cards_rows_get_their_leg_odds_and_bad_ones_an_error():
    """BUG: every Camel Up Cards row failed with "invalid token 'cards'"."""
    frame = analyse([CARDS, "cards nonsense"])
    odds = cards_odds(CARDS, race=False)
    assert frame.at[0, "error"] == "" and frame.at[0, "position"] == str(odds.position)
    for c, camel in enumerate(odds.camels):
        assert [frame.at[0, f"{camel}_{k}"] for k in ("1st", "2nd", "3rd", "4th", "5th")] == list(odds.leg[c])
    assert "nonsense" in frame.at[1, "error"] and np.isnan(frame.at[1, "B_1st"])


def test_cards_race_and_advice_columns():
    frame = analyse([CARDS], race=True, advice=True, precision=0.05, seed=3)
    assert frame.at[0, "race_samples"] > 0
    assert frame.loc[0, [f"{c}_win" for c in "BGOWY"]].sum() == pytest.approx(1)
    best = cards_best(CARDS, seed=_seed(frame), precision=0.05, progress=False)
    assert frame.at[0, "best_action"] == best["action"].iloc[0]
    assert frame.at[0, "best_ev"] == pytest.approx(best["ev"].iloc[0])


@pytest.mark.parametrize("objective", ["win", "ev"])
def test_cards_advice_has_the_chance_of_winning(objective):
    """The Camel Up Cards rows rank by the objective, as ``cards_best``
    does, and carry its chances of winning: ``win_now``, ``best_win`` and
    every move's ``win`` (under either objective)."""
    frame = analyse([CARDS], advice=True, precision=0.05, seed=3, objective=objective)
    best = cards_best(CARDS, seed=_seed(frame), precision=0.05, progress=False, objective=objective, chances=True)
    assert frame.at[0, "best_action"] == best["action"].iloc[0]
    assert frame.at[0, "win_now"] == best.attrs["win_now"] and 0 < frame.at[0, "win_now"] < 1
    assert frame.at[0, "best_win"] == best["win"].iloc[0]
    moves = analyse_moves([CARDS], precision=0.05, objective=objective)
    assert list(moves.columns) == ["position", "error", "action", "ev", "win", "sd", "p_loss"]
    want = cards_best(CARDS, seed=_seed(frame, 0), precision=0.05, progress=False, objective=objective, chances=True)
    assert list(moves["action"]) == list(want["action"]) and list(moves["win"]) == list(want["win"])
    assert moves["win"].notna().all()


def _seed(frame, seed: int = 3) -> int:
    from advisor.batch.positions import _row_seed

    return _row_seed(seed, frame.at[0, "position"])


def test_cards_moves_list_every_turn():
    from advisor.batch.positions import _row_seed

    frame = analyse_moves([CARDS], precision=0.05)
    best = cards_best(CARDS, seed=_row_seed(0, str(cards_odds(CARDS, race=False).position)), precision=0.05,
                      progress=False)
    assert (frame["error"] == "").all() and list(frame["action"]) == list(best["action"])
    assert list(frame["ev"]) == pytest.approx(list(best["ev"]))


def test_mixed_positions_are_refused_saying_how_to_split():
    with pytest.raises(AdvisorError, match="mix Camel Up Cards positions .* one batch analyses one game"):
        analyse([BOARD, CARDS])


def test_a_mixed_file_is_refused_before_any_work(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text(f"{BOARD}\n{CARDS}\n")
    assert main(["batch", str(src), "-o", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "first at row 2" in err and "grep -w cards" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_a_cards_file_with_a_bom_is_analysed(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_bytes(b"\xef\xbb\xbf" + CARDS.encode() + b"\n")
    assert main(["batch", str(src), "-o", str(tmp_path / "out.csv")]) == 0
    import pandas as pd

    out = pd.read_csv(tmp_path / "out.csv")
    assert out.at[0, "error"] != out.at[0, "error"]  # empty: NaN in the CSV
    assert out.at[0, "B_1st"] == pytest.approx(cards_odds(CARDS, race=False).leg[0][0])


def test_a_mixed_parquet_file_is_refused_before_any_work(tmp_path, capsys):
    import pandas as pd

    pytest.importorskip("pyarrow")
    src = tmp_path / "in.parquet"
    pd.DataFrame({"position": [BOARD] * 3 + [CARDS]}).to_parquet(src, row_group_size=2)
    assert main(["batch", str(src), "-o", str(tmp_path / "out.csv")]) == 2
    assert "first at row 4" in capsys.readouterr().err
