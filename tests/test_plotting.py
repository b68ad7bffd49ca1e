"""Charts: every function draws on a given Axes and returns it."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from advisor import best_moves, parse_position
from advisor.cli.command import main
from advisor.plotting import game_odds, plot_advice, plot_board, plot_game_odds, plot_landings, position_svg
from advisor.simulate.games import play_game

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5@1 -8 dice:GPRx"


@pytest.fixture(scope="module")
def record():
    return play_game(["heuristic", "random", "random"], seed=4)


def axes():
    return Figure().add_subplot()


def test_board_draws_every_camel_and_tile():
    ax = axes()
    assert plot_board(EXAMPLE, ax) is ax
    texts = [t.get_text() for t in ax.texts]
    for camel in "BGPRYwk":
        assert camel in texts
    assert "+\nP1" in texts and "-\n" in texts
    assert any(t.startswith("Pyramid: G P R x") for t in texts)
    assert any(t.startswith("P(1st this leg): R 54%") for t in texts)
    assert len(ax.patches) == 16 + 7  # track spaces + camels


def test_position_renders_as_svg():
    svg = parse_position(EXAMPLE)._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "<svg" in position_svg(EXAMPLE)  # a board string works too


def test_game_odds_curves(record):
    frame = game_odds(record, precision=0.05)
    assert len(frame) == record[-1]["turns"]
    np.testing.assert_allclose(frame[[f"{c}_win" for c in "BGPRY"]].sum(axis=1), 1.0)
    np.testing.assert_allclose(frame[[f"{c}_leg" for c in "BGPRY"]].sum(axis=1), 1.0)
    for what in ("leg", "win", "lose"):
        ax = axes()
        assert plot_game_odds(record, ax, what=what, frame=frame) is ax
        assert len(ax.lines) == 5 + (frame["leg"].nunique() - 1)  # camels + leg boundaries
        assert ax.get_ylim() == (0.0, 1.0)
    ax = axes()
    plot_game_odds(record, ax, what="win", frame=frame)
    widths = {line.get_label(): line.get_linewidth() for line in ax.lines[:5]}
    winner = record[-1]["winner_camel"]
    assert widths[f"{winner} (actual)"] == 3
    with pytest.raises(ValueError):
        plot_game_odds(record, axes(), what="draw", frame=frame)


def test_advice_bars_and_landing_heat_map():
    frame = best_moves(EXAMPLE, seed=1, denial=False)
    ax = axes()
    assert plot_advice(frame, ax, top=None) is ax
    assert len(ax.patches) == len(frame)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(frame["action"])
    ax = axes()
    assert plot_landings(frame, ax) is ax
    grid = ax.images[0].get_array()
    assert grid.shape == (2, 16)
    assert grid[0, 11] == pytest.approx(frame.set_index("action").at["tile:+12", "landings"])
    assert np.ma.is_masked(grid[0, 0]) or np.isnan(grid[0, 0])  # space 1: never legal


def test_cli_pictures(tmp_path, record, capsys):
    from advisor.game import write_records

    write_records([record], tmp_path / "g.jsonl")
    for argv, name in ((["show", EXAMPLE], "board.png"), (["chart", str(tmp_path / "g.jsonl")], "odds.svg"),
                       (["best", "--seed", "1", "--no-denial", EXAMPLE, "--chart"], "ev.pdf")):
        out = tmp_path / name
        assert main(argv + [str(out)] if argv[-1] == "--chart" else argv + ["-o", str(out)]) == 0
        assert out.stat().st_size > 1000
    capsys.readouterr()


@pytest.mark.parametrize("argv, fragment", [
    (["show", "-o", "board.bmp"], "use one of"),
    (["chart", "missing.jsonl", "-o", "x.png"], "no such file"),
    (["show", "1:B", "-o", "x.png"], "missing"),
    (["chart", "g.jsonl", "-o", "x.png", "--game", "3"], "holds 1 game"),
])
def test_cli_picture_errors(tmp_path, monkeypatch, capsys, argv, fragment, record):
    from advisor.game import write_records

    monkeypatch.chdir(tmp_path)
    write_records([record], tmp_path / "g.jsonl")
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err


def test_best_chart_bad_extension_computes_nothing(tmp_path, monkeypatch, capsys):
    import advisor.valuation.engine

    def fail(*a, **k):
        raise AssertionError("advice computed before the picture path was checked")

    monkeypatch.setattr(advisor.valuation.engine, "advice_table", fail)
    assert main(["best", EXAMPLE, "--chart", str(tmp_path / "ev.bmp")]) == 2
    assert "use one of" in capsys.readouterr().err
