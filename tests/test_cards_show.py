"""``camelup show`` of a Camel Up Cards position: the picture and bad input."""

import pytest

from advisor.cards import cards_odds, parse_cards
from advisor.cli.command import main
from advisor.plotting import plot_cards_board

POSITION = "cards track:nnsnnnnnh 0:BG 2:OW 5:Y palm:4@1 fennec:6 deck:6 known:B1G2 revealed:O1W2 hand:Y1"


def test_plot_cards_board_draws_every_part():
    pos = parse_cards(POSITION)
    odds = cards_odds(pos, race=False, seed=0)
    ax = plot_cards_board(pos, odds=odds)
    texts = [t.get_text() for t in ax.texts]
    assert "start" in texts and "finish" in texts and "sandstorm" in texts and "half" in texts
    assert [str(n) for n in range(1, pos.length + 1)] == [t for t in texts if t.isdigit()]
    assert "palm\nP1" in texts and "fennec" in texts
    assert sum(t in "BGOWY" and len(t) == 1 for t in texts) == 5
    assert any(t.startswith("Race deck: 6 of 12 cards left (2 known: B1G2); revealed: O1W2; hand: Y1")
               for t in texts)
    leader = "BGOWY"[int(odds.leg[:, 0].argmax())]
    assert any(t.startswith(f"P(1st this leg): {leader} ") for t in texts)
    # track cards: the start card and one patch per card, camels on top
    cards = [p for p in ax.patches if p.get_height() == pytest.approx(0.35)]
    assert len(cards) == 1 + len(pos.track)
    assert [p.get_width() for p in cards[1:]] == [2 if k == "n" else 1 for k in pos.track]


def test_cli_show_cards(tmp_path, capsys):
    png = tmp_path / "board.png"
    assert main(["show", *POSITION.split(), "-o", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()


@pytest.mark.parametrize("argv, fragment", [
    (["cards", "0:BGOW"], "missing"),
    (["cards", "0:BGOWY", "palm:0"], "palm"),
    (["cards", "0:BGOWY", "track:nnx"], "track"),
])
def test_cli_show_cards_bad_input(argv, fragment, tmp_path, capsys):
    out = tmp_path / "x.png"
    code = main(["show", *argv, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1 and not out.exists()
