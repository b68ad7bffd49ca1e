"""The "first run only, about N s" estimates come from measured compile
times (advisor/data/compile_seconds.json, written by
benchmarks/bench_compile.py), stretched by how busy the machine is: what
each command form compiles from an empty cache, kernel by kernel, or the
kernel groups where a command compiles whole groups."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from advisor import compiling, warm


def test_every_group_has_a_measured_compile_time_with_its_load():
    data = json.loads(resources.files("advisor.data").joinpath("compile_seconds.json").read_text())
    assert data["cores"] >= 1 and data["measured"]
    for group in warm.GROUPS:
        figures = data["groups"][group.name]
        assert figures["cpu_s"] > 0 and figures["wall_s"] >= figures["cpu_s"] * 0.8
        assert len(figures["load"]) == 2  # the load average before and after the measurement
        assert group.seconds == figures["cpu_s"]  # the estimate reads the measurement, not a guess


def test_the_estimate_is_the_measured_seconds_over_the_share_of_a_core():
    names = ("leg", "race")
    cpu = sum(warm._BY_NAME[n].seconds for n in names)
    assert warm.estimate(names, share=1.0) == cpu
    assert warm.estimate(names, share=0.25) == cpu * 4
    assert warm.estimate((), share=0.25) == 0.0


def test_the_share_of_a_core_is_a_fraction(monkeypatch):
    import os

    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert warm.cpu_share() == 1.0  # an idle machine: no probe
    monkeypatch.setattr(os, "getloadavg", lambda: (1000.0, 0.0, 0.0))
    assert 0.02 <= warm.cpu_share(probe=0.05) <= 1.0


# ---------------------------------------------------------------- what a command compiles
# A group's figure is what its warm-up compiles; a command compiles only the
# specializations it calls.  Each command form is measured on its own from an
# empty cache (benchmarks/bench_compile.py --forms all --write), per kernel.

_DATA = json.loads(resources.files("advisor.data").joinpath("compile_seconds.json").read_text())
_BOARD_BOTS = ["human", "random", "heuristic", "advisor", "rival", "portfolio", "margin"]
_CARDS_BOTS = ["human", "random", "heuristic", "greedy", "shark", "endgame"]


def _every_form():
    """Every form :func:`warm.forms` gives, over the commands and options."""
    seen = set()
    for cards in (False, True):
        bots = _CARDS_BOTS if cards else _BOARD_BOTS
        for command in ("odds", "best", "show", "chart", "review", "batch"):
            for race in (False, True):
                for samples in (False, True):
                    for advice in (False, True):
                        seen.update(warm.forms(command, cards=cards, race=race, samples=samples,
                                               advice=advice) or ())
        for command in ("simulate", "tournament", "duel", "bot", "play"):
            for bot in bots:
                seen.update(warm.forms(command, cards=cards, bots=[bot]))
        for bot in bots:  # the bots' turns before the first human's at the table
            seen.update(warm.opening_forms([bot], cards=cards) or ())
    return seen


def test_every_form_a_command_takes_is_measured_kernel_by_kernel():
    kernels = set(warm.kernels())
    measured = _DATA["commands"]
    for name in _every_form():
        figures = measured[name]
        assert len(figures["load"]) == 2
        # a form compiles something, or nothing at all (the random bot's turns)
        assert (figures["kernels"] and figures["specializations"] > 0) or figures["cpu_s"] == 0 == \
            figures["specializations"], name
        # the figure is the sum of each kernel's own seconds (rounded as stored)
        assert abs(sum(figures["kernels"].values()) - figures["cpu_s"]) < 0.01 * len(figures["kernels"]) + 0.02
        # and names kernels that exist: a partly warm cache is looked up kernel by kernel
        # ... project kernels that exist (numba's own functions compile inside them)
        assert {k for k in figures["kernels"] if not k.startswith("numba.")} <= kernels, name


def _announced(argv, monkeypatch) -> int | None:
    """The seconds the compile notice of ``camelup ARGV`` announces from an
    empty cache on an idle machine."""
    from advisor.cli import command
    from advisor.cli.parser import build_parser, parse

    monkeypatch.setattr(warm, "_in_cache", lambda: lambda kernel: False)
    monkeypatch.setattr(warm, "cold_groups", lambda names=None: list(names or ()))
    monkeypatch.setattr(warm, "cpu_share", lambda: 1.0)
    notice = command._compile_notice(parse(build_parser(), argv))
    found = re.search(r"about (\d+) s", notice._message())
    return int(found.group(1)) if found else None


@pytest.mark.parametrize("form,argv", [
    ("cards-play", ["play", "--edition", "cards", "--seats", "human,greedy,heuristic,random", "--seed", "1"]),
    ("play", ["play", "--seats", "human,advisor,heuristic,random", "--seed", "1"]),
    ("odds", ["odds", "--seed", "1", "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"]),
    ("best", ["best", "--seed", "1", "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"]),
    ("cards-best", ["best", "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1"]),
    ("game-mixed", ["simulate", "--bots", "rival,heuristic,random,random", "--games", "1", "--seed", "1",
                    "-o", "g.jsonl"]),
])
def test_the_announced_estimate_is_what_the_command_compiles(form, argv, monkeypatch):
    """Within 30% of the command's own measured compilation from an empty
    cache (the groups' sum announced 125 s for the Camel Up Cards game,
    which compiles about 45 s)."""
    measured = _DATA["commands"][form]["cpu_s"]
    announced = _announced(argv, monkeypatch)
    assert announced is not None and abs(announced / measured - 1) <= 0.3, (announced, measured)


@pytest.mark.parametrize("edition", ["", "cards-"])
def test_the_opening_at_the_table_compiles_no_kernel_its_games_and_advice_do_not(edition):
    """The measured opening of a game at the table (a human, a valuing
    bot, heuristic, random; the advice asked) compiles kernels of its bots'
    games and of the advice only: the forms know every kernel it needs."""
    opening = set(warm.form_kernels([edition + "play"]))
    parts = set(warm.form_kernels([edition + f for f in ("game-valuing", "game-heuristic", "game-random", "best")]))
    assert opening <= parts


def test_a_partly_warm_cache_counts_the_kernels_left():
    figures = warm.form_kernels(["cards-best"])
    total = warm.form_seconds(["cards-best"], cached=lambda kernel: False)
    assert total == pytest.approx(sum(figures.values()))
    left = warm.form_seconds(["cards-best"], cached=lambda kernel: kernel.startswith("cards.others."))
    ours = {k: s for k, s in figures.items() if not k.startswith("numba.")}
    share = 1 - sum(s for k, s in ours.items() if k.startswith("cards.others.")) / sum(ours.values())
    assert 0 < share < 1 and left == pytest.approx(total * share)  # numba's own functions in proportion
    assert warm.form_seconds(["cards-best"], cached=lambda kernel: True) == 0
    assert warm._in_cache()("board.no_such_kernel") is False  # renamed since the measurement: compiles


def test_a_game_of_several_bots_counts_each_kernel_once_at_its_figure_in_the_largest_form():
    union = warm.form_kernels(["game-heuristic", "game-valuing"])
    valuing, heuristic = warm.form_kernels(["game-valuing"]), warm.form_kernels(["game-heuristic"])
    assert sum(valuing.values()) > sum(heuristic.values())
    assert set(union) == set(valuing) | set(heuristic)
    for kernel in union:
        assert union[kernel] == (valuing[kernel] if kernel in valuing else heuristic[kernel])
    assert union == warm.form_kernels(["game-valuing", "game-heuristic"])  # whatever the order named
    # some kernel counts less in the largest form (its callees compiled inside others there): the
    # union is not each kernel at its largest figure, which counted those callees twice
    assert any(heuristic[k] > valuing[k] for k in set(valuing) & set(heuristic))
    assert warm.form_kernels(["game-heuristic", "no-such-form"]) is None  # not measured: the groups' estimate


def _table(seats: list[str], seed: int):
    """A first run's table (board game), before its first turn."""
    from advisor.cli.table import BoardEngine, Table
    from advisor.game import Game

    engine = BoardEngine(Game("second", len(seats), seed))
    engine.record[0]["seats"] = list(seats)
    table = Table(engine, list(seats), input, None, None, None)
    table.rehearse_pending = True
    table.notice = compiling.CompileNotice(("leg", "joint", "race", "bots"), forms=("play",))
    table.notice.seconds = 0.0  # camelup play on a first run: no estimate of the whole
    return table


def test_bots_that_move_before_the_first_human_are_announced_from_their_openings(monkeypatch):
    """The default seats with --seed 1: player 1 starts, so rival, heuristic
    and random play before the human and compile before the table shows;
    the notice announces the union of their families' openings, within 30%
    of that very opening measured (``opening-mixed``), and the table's own
    estimate again once the human's turn comes."""
    monkeypatch.setattr(warm, "_in_cache", lambda: lambda kernel: False)
    monkeypatch.setattr(warm, "cpu_share", lambda: 1.0)
    table = _table(["human", "rival", "heuristic", "random"], seed=1)
    assert table.engine.to_move == 1
    table.announce_opening()
    assert table.notice.forms == ("opening-valuing", "opening-heuristic", "opening-random")
    announced = int(re.search(r"about (\d+) s", table.notice._message()).group(1))
    measured = _DATA["commands"]["opening-mixed"]["cpu_s"]
    assert abs(announced / measured - 1) <= 0.3, (announced, measured)
    assert table.opening == (("play",), 0.0)
    table.read = lambda prompt: "quit"
    table.say = lambda text="": None
    monkeypatch.setattr("advisor.cli.table.Rehearsal", lambda engine, seats, notice: None)
    assert table.human_turn(0) is False  # the human's turn: the notice is the whole table's again
    assert table.notice.forms == ("play",) and table.notice.seconds == 0.0


def test_only_the_bots_before_the_first_human_are_announced():
    table = _table(["human", "rival", "heuristic", "random"], seed=2)  # player 3 starts: random, then the human
    assert table.engine.to_move == 3
    table.announce_opening()
    assert table.notice.forms == ("opening-random",) and table.notice.seconds is None
    assert "about" not in table.notice._message()  # the random bot's turn compiles nothing
    table = _table(["rival", "human", "random"], seed=3)  # the human starts: nothing compiles before the table
    assert table.engine.to_move == 1
    table.announce_opening()
    assert table.opening is None and table.notice.forms == ("play",) and table.notice.seconds == 0.0


def test_the_opening_of_a_random_bot_compiles_nothing_and_cards_openings_are_not_measured():
    assert warm.opening_forms(["random"]) == ("opening-random",)
    assert warm.form_seconds(["opening-random"], cached=lambda kernel: False) == 0
    assert warm.opening_forms(["greedy"], cards=True) is None  # its humans build their decks first
    assert warm.opening_forms([]) is None and warm.opening_forms(["human"]) is None


def test_worker_runs_and_unmeasured_forms_announce_the_groups(monkeypatch):
    """Several games or reviews on worker processes compile whole groups
    first (warm.warmup): the groups are their estimate."""
    argv = ["simulate", "--bots", "rival,random,random,random", "--games", "10", "-o", "games.jsonl"]
    from advisor.cli import command
    from advisor.cli.parser import build_parser, parse

    notice = command._compile_notice(parse(build_parser(), argv))
    assert notice.forms is None and set(notice.groups) == {"moves", "leg", "joint", "race", "bots"}
    one = command._compile_notice(parse(build_parser(), [*argv[:-4], "--games", "1", "-o", "g.jsonl"]))
    assert one.forms == ("game-valuing", "game-random")
    assert warm.forms("review", workers=True) is None and warm.forms("chart", cards=True) is None
    monkeypatch.setattr(warm, "cold_groups", lambda names=None: ["leg"])
    monkeypatch.setattr(warm, "cpu_share", lambda: 1.0)
    unmeasured = compiling.CompileNotice(("leg",), forms=("no-such-form",))
    assert unmeasured._cpu_seconds() == warm._BY_NAME["leg"].seconds


def test_a_game_without_seats_named_is_estimated_for_its_default_field():
    from advisor.cli import command
    from advisor.cli.parser import build_parser, parse

    notice = command._compile_notice(parse(build_parser(), ["play", "--edition", "cards"]))
    assert notice.forms == ("cards-play",)
    notice = command._compile_notice(parse(build_parser(), ["play", "--seats", "human,random,heuristic,random"]))
    assert notice.forms == ("game-random", "game-heuristic", "best")
    notice = command._compile_notice(parse(build_parser(), ["tournament", "--games", "1"]))
    assert notice.forms == ("game-valuing", "game-heuristic", "game-random")


def test_a_group_is_counted_once():
    names = warm.needs("play", cards=True, bots=["human", "greedy", "heuristic", "random"])
    assert len(names) == len(set(names)) == 3
