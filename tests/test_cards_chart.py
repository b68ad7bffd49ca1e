"""Odds curves through a recorded Camel Up Cards game (``camelup chart``)."""

import json
from collections import Counter

import numpy as np
import pytest

from advisor.cards.bots import play_cards_game
from advisor.cards.game import ranking
from advisor.cards.record import replay_cards, write_cards_records
from advisor.cli.command import main
from advisor.plotting import cards_game_odds, game_odds, plot_game_odds

BOTS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def record():
    return play_cards_game(BOTS, seed=11)


def test_spectator_position_holds_public_cards_only(record):
    seen = []
    replay_cards(record, visit=lambda g: seen.append(g.state) if g.state.phase == "turn" else None)
    assert seen
    for s in seen[::7]:
        pos = s.position(None)
        known = Counter(s.shown)
        known.subtract(Counter(s.revealed))
        assert Counter(pos.known) == +known and pos.out == tuple(sorted(s.played))
        assert pos.hand is None and pos.bets == () and pos.deck == len(s.deck)
        assert pos.stacks == s.stacks()
        mine = s.position(s.current)  # the player's own view knows more
        assert len(mine.known) >= len(pos.known)


def test_cards_game_odds_one_row_per_turn(record):
    starts = []

    def visit(game):
        s = game.state
        if s.phase == "turn" and not s.raced and not s.bet:
            starts.append((s.leg, s.current))

    game = replay_cards(record, visit=visit)
    frame = game_odds(record, precision=0.05)
    assert list(frame["turn"]) == list(range(len(starts)))
    assert list(zip(frame["leg"], frame["player"])) == starts
    for what in ("leg", "win", "lose"):
        total = frame[[f"{c}_{what}" for c in "BGOWY"]].sum(axis=1)
        assert np.allclose(total, 1.0), what
    order = ranking(game.state.sp, game.state.ht)
    assert frame.attrs["winner"] == order[0] and frame.attrs["loser"] == order[-1]
    assert frame.attrs["camels"] == tuple("BGOWY")
    assert set(frame["leg"]) == set(range(1, record[-1]["legs"] + 1))
    ax = plot_game_odds(record, what="win", frame=frame)
    assert len(ax.lines) >= 5


def test_cards_game_odds_needs_a_whole_game(record):
    with pytest.raises(Exception, match="not over"):
        cards_game_odds(record[:-5], precision=0.05)


def test_cli_chart_of_a_cards_record(tmp_path, capsys, record):
    games = tmp_path / "cards.jsonl"
    write_cards_records([play_cards_game(BOTS, seed=3), record], games)
    png = tmp_path / "odds.png"
    assert main(["chart", str(games), "--game", "1", "--precision", "0.05", "-o", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    code = main(["chart", str(games), "--game", "2", "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and "holds 2 game(s)" in err and len(err.strip().splitlines()) == 1
    cut = tmp_path / "cut.jsonl"
    write_cards_records([record[:-3]], cut)
    code = main(["chart", str(cut), "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and "no end line" in err and len(err.strip().splitlines()) == 1
    bad = [dict(line) for line in record]
    k = next(i for i, line in enumerate(bad) if line.get("action") == "reveal")
    bad[k]["board"] = "track:n 1:BGOWY"
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(line) + "\n" for line in bad))
    code = main(["chart", str(forged), "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and "not a valid record" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()
